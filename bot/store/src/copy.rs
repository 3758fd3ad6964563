//! Moving a host from SQLite to PostgreSQL: every row of a SQLite database
//! copied into an empty PostgreSQL database, in one PostgreSQL transaction, so that
//! `kaboom serve` goes on with the same games, ratings, settings and undelivered outbox
//! entries (`kaboom copy-db`, docs/hosting.md "More than one machine").
//!
//! Both databases are opened through [`Db::connect`], which first brings each schema up to
//! date with its own migrations, so the two have the same tables and columns. The tables
//! and column types are read from PostgreSQL's `information_schema`; each value is read
//! from SQLite as that type (a row that does not read so stops the copy, naming table and
//! column). `challenges` and `games` go first (every foreign key points at one of them);
//! the tables' own triggers are off during the copy (`ALTER TABLE ... DISABLE TRIGGER
//! USER`: the insert trigger of `games` would overwrite the scheduler's columns), identity
//! sequences continue after the largest copied id. Nothing is written unless all of it is.

use sqlx::sqlite::SqliteRow;
use sqlx::{Postgres, QueryBuilder, Row as _};

use super::{Db, Pool, StorageError};

/// Rows per multi-row `INSERT` (PostgreSQL binds at most 65,535 parameters a statement;
/// the widest table has under 30 columns).
const BATCH_ROWS: usize = 500;

/// Why a copy did not happen (nothing was written to the target).
#[derive(Debug, thiserror::Error)]
pub enum CopyError {
    /// The source is not SQLite or the target not PostgreSQL.
    #[error(
        "copy-db copies a SQLite database (--from sqlite://FILE) into a PostgreSQL one (--to postgres://...)"
    )]
    Engines,
    /// The target already holds data.
    #[error(
        "the PostgreSQL database already holds {rows} rows in table {table}: copy into a new, empty database (createdb) so that nothing is mixed or lost"
    )]
    TargetNotEmpty {
        /// The first table found with rows.
        table: String,
        /// How many.
        rows: i64,
    },
    /// A source value is not of the column's type.
    #[error("table {table}, column {column}: a value does not read as {kind}: {source}")]
    Value {
        /// The table.
        table: String,
        /// The column.
        column: String,
        /// The type PostgreSQL stores it as.
        kind: &'static str,
        /// sqlx's reason.
        source: sqlx::Error,
    },
    /// The target has a column type this copy does not know (a migration added one).
    #[error("table {table}, column {column}: PostgreSQL type {data_type} is not one copy-db knows")]
    UnknownType {
        /// The table.
        table: String,
        /// The column.
        column: String,
        /// `information_schema.columns.data_type`.
        data_type: String,
    },
    /// A query failed on either side.
    #[error(transparent)]
    Storage(#[from] StorageError),
}

impl From<sqlx::Error> for CopyError {
    fn from(e: sqlx::Error) -> CopyError {
        CopyError::Storage(StorageError::Sql(e))
    }
}

/// What was copied: (table, rows), in copy order.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct CopyReport {
    /// Every table of the schema with the number of rows copied into it.
    pub tables: Vec<(String, u64)>,
}

/// The kinds of column the schema has, as PostgreSQL names them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    Int,
    Text,
    Bool,
    Float,
}

impl Kind {
    fn of(data_type: &str) -> Option<Kind> {
        match data_type {
            "bigint" | "integer" | "smallint" => Some(Kind::Int),
            "text" | "character varying" => Some(Kind::Text),
            "boolean" => Some(Kind::Bool),
            "double precision" | "real" => Some(Kind::Float),
            _ => None,
        }
    }

    fn name(self) -> &'static str {
        match self {
            Kind::Int => "an integer",
            Kind::Text => "text",
            Kind::Bool => "a boolean",
            Kind::Float => "a number",
        }
    }
}

/// One value read from SQLite.
enum Value {
    Int(Option<i64>),
    Text(Option<String>),
    Bool(Option<bool>),
    Float(Option<f64>),
}

/// A table of the target: its name, its columns with their kinds, and whether `id` is an
/// identity column.
struct Table {
    name: String,
    columns: Vec<(String, Kind)>,
    identity: Option<String>,
}

/// Copies every row of the SQLite database `from` into the empty PostgreSQL database `to`
/// (see the module documentation). Stop every `kaboom serve` on both first: rows written
/// during the copy would be missed.
///
/// # Errors
/// [`CopyError`]: the wrong engines, a target that holds data, a value of the wrong type,
/// or a database failure; the target is left as it was.
pub async fn sqlite_to_postgres(from: &Db, to: &Db) -> Result<CopyReport, CopyError> {
    let (Pool::Sqlite(src), Pool::Postgres(dst)) = (&from.pool, &to.pool) else {
        return Err(CopyError::Engines);
    };
    let mut src = crate::lite::acquire(src).await?;
    let tables = tables(dst).await?;
    let mut tx = dst.begin().await?;
    for t in &tables {
        let rows: i64 = sqlx::query_scalar(&format!("SELECT COUNT(*) FROM {}", t.name))
            .fetch_one(&mut *tx)
            .await?;
        if rows > 0 {
            return Err(CopyError::TargetNotEmpty {
                table: t.name.clone(),
                rows,
            });
        }
    }
    let mut report = CopyReport::default();
    for t in &tables {
        sqlx::query(&format!("ALTER TABLE {} DISABLE TRIGGER USER", t.name))
            .execute(&mut *tx)
            .await?;
        let list = t
            .columns
            .iter()
            .map(|(c, _)| c.as_str())
            .collect::<Vec<_>>()
            .join(", ");
        let rows: Vec<SqliteRow> = sqlx::query(&format!("SELECT {list} FROM {}", t.name))
            .fetch_all(&mut *src)
            .await?;
        for chunk in rows.chunks(BATCH_ROWS) {
            let values = chunk
                .iter()
                .map(|r| read_row(t, r))
                .collect::<Result<Vec<_>, _>>()?;
            let mut q: QueryBuilder<Postgres> =
                QueryBuilder::new(format!("INSERT INTO {} ({list}) ", t.name));
            q.push_values(values, |mut b, row| {
                for v in row {
                    match v {
                        Value::Int(v) => b.push_bind(v),
                        Value::Text(v) => b.push_bind(v),
                        Value::Bool(v) => b.push_bind(v),
                        Value::Float(v) => b.push_bind(v),
                    };
                }
            });
            q.build().execute(&mut *tx).await?;
        }
        if let Some(id) = &t.identity {
            // The next id after the largest copied one (an empty table starts at 1).
            sqlx::query(&format!(
                "SELECT setval(pg_get_serial_sequence('{0}', '{id}'), COALESCE(MAX({id}), 0) + 1, false) FROM {0}",
                t.name
            ))
            .execute(&mut *tx)
            .await?;
        }
        sqlx::query(&format!("ALTER TABLE {} ENABLE TRIGGER USER", t.name))
            .execute(&mut *tx)
            .await?;
        report.tables.push((t.name.clone(), rows.len() as u64));
    }
    tx.commit().await?;
    Ok(report)
}

/// A column of `information_schema.columns`: table, column, data type and whether it is an
/// identity column (`YES`, `NO`).
#[derive(sqlx::FromRow)]
struct ColumnInfo {
    t: String,
    c: String,
    d: String,
    i: String,
}

/// The target's tables in copy order (`challenges`, `games`, then by name), without
/// sqlx's own `_sqlx_migrations`.
async fn tables(dst: &sqlx::PgPool) -> Result<Vec<Table>, CopyError> {
    let rows: Vec<ColumnInfo> = sqlx::query_as(
        "SELECT table_name::text AS t, column_name::text AS c, data_type::text AS d,
                is_identity::text AS i
         FROM information_schema.columns
         WHERE table_schema = current_schema() AND table_name <> '_sqlx_migrations'
         ORDER BY table_name, ordinal_position",
    )
    .fetch_all(dst)
    .await?;
    let mut tables: Vec<Table> = Vec::new();
    for ColumnInfo {
        t: name,
        c: column,
        d: data_type,
        i: identity,
    } in rows
    {
        let kind = Kind::of(&data_type).ok_or_else(|| CopyError::UnknownType {
            table: name.clone(),
            column: column.clone(),
            data_type: data_type.clone(),
        })?;
        let identity = identity == "YES";
        if tables.last().is_none_or(|t| t.name != name) {
            tables.push(Table {
                name: name.clone(),
                columns: Vec::new(),
                identity: None,
            });
        }
        let t = tables.last_mut().expect("pushed above");
        if identity {
            t.identity = Some(column.clone());
        }
        t.columns.push((column, kind));
    }
    // Referenced tables first: games name their challenge; league games, engine games and
    // the rest name a game or a league; puzzle tries and daily puzzles name a puzzle.
    let rank = |name: &str| match name {
        "challenges" => 0,
        "games" | "leagues" | "puzzles" => 1,
        _ => 2,
    };
    tables.sort_by(|a, b| (rank(&a.name), &a.name).cmp(&(rank(&b.name), &b.name)));
    Ok(tables)
}

/// `row` of `table` read from SQLite as the target's column types.
fn read_row(table: &Table, row: &SqliteRow) -> Result<Vec<Value>, CopyError> {
    table
        .columns
        .iter()
        .map(|(column, kind)| {
            let value = match kind {
                Kind::Int => row.try_get(column.as_str()).map(Value::Int),
                Kind::Text => row.try_get(column.as_str()).map(Value::Text),
                Kind::Bool => row.try_get(column.as_str()).map(Value::Bool),
                Kind::Float => row.try_get(column.as_str()).map(Value::Float),
            };
            value.map_err(|source| CopyError::Value {
                table: table.name.clone(),
                column: column.clone(),
                kind: kind.name(),
                source,
            })
        })
        .collect()
}
