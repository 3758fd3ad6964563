//! The `carrier_designations` table: each side's carriers with the BE-9 salt and
//! commitment. Secret for Beirut until the game ends: only the services read it, and they
//! show a player only their own row.

use super::sql::{Row, query};
use kaboom_rules::Color;

use super::{Db, StorageError, Tx};
use kaboom_domain::ids::GameId;

/// One side's stored designation.
#[derive(Clone, Eq, PartialEq, Debug)]
pub struct Designation {
    /// The side.
    pub color: Color,
    /// Carrier squares in canonical order, comma-joined (e.g. `b1,g1`).
    pub squares: String,
    /// The 16-byte salt, lowercase hex.
    pub salt: String,
    /// SHA-256 of the commitment string, lowercase hex (BE-9).
    pub commitment: String,
}

/// Stores `d` for game `id`.
///
/// # Errors
/// [`StorageError`] on a database failure (including a second designation for one side).
pub async fn insert(
    tx: &mut Tx,
    id: GameId,
    d: &Designation,
    now: i64,
) -> Result<(), StorageError> {
    query(
        "INSERT INTO carrier_designations (game_id, color, squares, salt, commitment, chosen_at)
         VALUES ($1, $2, $3, $4, $5, $6)",
    )
    .bind(id)
    .bind(d.color.name())
    .bind(&d.squares)
    .bind(&d.salt)
    .bind(&d.commitment)
    .bind(now)
    .execute(&mut *tx)
    .await?;
    Ok(())
}

fn read(rows: Vec<Row>) -> Result<Vec<Designation>, StorageError> {
    rows.iter()
        .map(|r| {
            let color: String = r.try_get("color")?;
            Ok(Designation {
                color: color
                    .parse()
                    .map_err(|_| StorageError::Corrupt(format!("designation colour '{color}'")))?,
                squares: r.try_get("squares")?,
                salt: r.try_get("salt")?,
                commitment: r.try_get("commitment")?,
            })
        })
        .collect()
}

const SELECT: &str = "SELECT color, squares, salt, commitment FROM carrier_designations
     WHERE game_id = $1 ORDER BY CASE color WHEN 'white' THEN 0 ELSE 1 END";

/// The designations made so far for game `id`, White first.
///
/// # Errors
/// [`StorageError`] on a database failure.
pub async fn all(db: &Db, id: GameId) -> Result<Vec<Designation>, StorageError> {
    read(query(SELECT).bind(id).fetch_all(db).await?)
}

/// As [`all`], inside a transaction.
///
/// # Errors
/// [`StorageError`] on a database failure.
pub async fn all_tx(tx: &mut Tx, id: GameId) -> Result<Vec<Designation>, StorageError> {
    read(query(SELECT).bind(id).fetch_all(&mut *tx).await?)
}
