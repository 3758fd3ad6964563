//! The `carrier_designations` table: each side's carriers with the BE-9 salt and
//! commitment. Secret for Beirut until the game ends: only the services read it, and they
//! show a player only their own row.

use super::sql::{On, query};
use kaboom_rules::Color;

use super::{StorageError, Tx, parse_stored};
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

/// A `carrier_designations` row as stored: a [`Designation`] once its colour is read.
#[derive(sqlx::FromRow)]
struct StoredDesignation {
    color: String,
    squares: String,
    salt: String,
    commitment: String,
}

impl TryFrom<StoredDesignation> for Designation {
    type Error = StorageError;
    /// # Errors
    /// [`StorageError::Corrupt`] for an unknown colour.
    fn try_from(d: StoredDesignation) -> Result<Designation, StorageError> {
        Ok(Designation {
            color: parse_stored("designation colour", &d.color)?,
            squares: d.squares,
            salt: d.salt,
            commitment: d.commitment,
        })
    }
}

fn read(rows: Vec<StoredDesignation>) -> Result<Vec<Designation>, StorageError> {
    rows.into_iter().map(Designation::try_from).collect()
}

const SELECT: &str = "SELECT color, squares, salt, commitment FROM carrier_designations
     WHERE game_id = $1 ORDER BY CASE color WHEN 'white' THEN 0 ELSE 1 END";

/// The designations made so far for game `id`, White first, on the pool or inside a
/// transaction.
///
/// # Errors
/// [`StorageError`] on a database failure; [`StorageError::Corrupt`] for an unknown colour.
pub async fn all<'a>(on: impl Into<On<'a>>, id: GameId) -> Result<Vec<Designation>, StorageError> {
    read(query(SELECT).bind(id).fetch_all(on).await?)
}
