//! One query, either engine: the storage modules write each statement once, with numbered
//! placeholders (`$1`, `$2`, ...: PostgreSQL's own, and SQLite reads `$NNN` as parameter
//! NNN, which sqlx's SQLite driver binds by number), bind plain values, and run it on the
//! [`Db`]'s pool or inside a [`Tx`]; this module sends the same text to either engine and
//! decodes the rows of either into one Rust type ([`FromEitherRow`]: a struct with
//! `#[derive(sqlx::FromRow)]`, whose derive is generic over the row type, or a tuple).
//!
//! Why not sqlx's `Any` driver: on SQLite it refuses every column declared `BOOLEAN` ("Any
//! driver does not support the SQLite type Bool", sqlx 0.8 `sqlx-sqlite/src/any.rs`), and
//! the schema has several. Why not generic functions over `sqlx::Database`: every query
//! would carry a dozen `Encode`/`Decode` bounds. The values a query binds here are the few
//! kinds the schema stores ([`Arg`]): integers (ids, snowflakes, Unix seconds, counts),
//! text (names, FENs, JSON), booleans and floats (ratings).
//!
//! Where a statement must differ between the engines, the storage module keeps both texts
//! side by side and picks one with [`Db::engine`] or [`Tx::engine`].

use sqlx::postgres::{PgArguments, PgRow};
use sqlx::sqlite::{SqliteArguments, SqliteRow};
use sqlx::{FromRow, Postgres, Sqlite};

use super::{Db, Engine, Pool, Tx, TxInner};
use kaboom_domain::ids::{ChannelId, GameId, GuildId, MessageId, RoleId, UserId};

/// A bound value: the kinds of values the schema stores, each possibly `NULL` (the `None`
/// keeps the SQL type, which PostgreSQL checks).
#[derive(Clone, Debug, PartialEq)]
pub enum Arg {
    /// `INTEGER` on SQLite, `BIGINT` on PostgreSQL.
    Int(Option<i64>),
    /// `TEXT` on both.
    Text(Option<String>),
    /// `BOOLEAN` (SQLite stores 0 or 1).
    Bool(Option<bool>),
    /// `DOUBLE PRECISION` (SQLite's `REAL`).
    Float(Option<f64>),
}

/// A value that binds as an [`Arg`].
pub trait ToArg {
    /// The value as an argument.
    fn to_arg(self) -> Arg;
    /// `NULL` of this value's SQL type.
    fn null() -> Arg;
}

macro_rules! to_arg {
    ($variant:ident: $($t:ty => $conv:expr),* $(,)?) => {
        $(
            impl ToArg for $t {
                fn to_arg(self) -> Arg {
                    let f: fn($t) -> _ = $conv;
                    Arg::$variant(Some(f(self)))
                }
                fn null() -> Arg {
                    Arg::$variant(None)
                }
            }
        )*
    };
}

to_arg!(Int:
    i64 => |v| v,
    i32 => i64::from,
    u32 => i64::from,
    GameId => i64::from,
    // Snowflakes fit in 63 bits: stored as the same bits (`kaboom_domain::ids`).
    UserId => i64::from,
    ChannelId => i64::from,
    GuildId => i64::from,
    MessageId => i64::from,
    RoleId => i64::from,
);
to_arg!(Text:
    String => |v| v,
    &str => str::to_owned,
    &String => String::clone,
);
to_arg!(Bool: bool => |v| v);
to_arg!(Float: f64 => |v| v);

impl<T: ToArg> ToArg for Option<T> {
    fn to_arg(self) -> Arg {
        match self {
            Some(v) => v.to_arg(),
            None => T::null(),
        }
    }
    fn null() -> Arg {
        T::null()
    }
}

/// A statement and its arguments, built as `sqlx::query` or `sqlx::QueryBuilder` are.
#[derive(Clone, Debug, Default)]
pub struct Query {
    sql: String,
    args: Vec<Arg>,
}

/// A statement with numbered placeholders (`$1`, `$2`, ...: both engines read them).
pub fn query(sql: impl Into<String>) -> Query {
    Query {
        sql: sql.into(),
        args: Vec::new(),
    }
}

/// What a statement ran on: the pool, or a transaction.
pub enum On<'a> {
    /// A connection of the pool (autocommit).
    Db(&'a Db),
    /// The transaction.
    Tx(&'a mut Tx),
}

impl<'a> From<&'a Db> for On<'a> {
    fn from(db: &'a Db) -> On<'a> {
        On::Db(db)
    }
}

impl<'a> From<&'a mut Tx> for On<'a> {
    fn from(tx: &'a mut Tx) -> On<'a> {
        On::Tx(tx)
    }
}

impl On<'_> {
    /// Which engine the statement will run on.
    pub fn engine(&self) -> Engine {
        match self {
            On::Db(db) => db.engine(),
            On::Tx(tx) => tx.engine(),
        }
    }
}

/// What an `INSERT`, `UPDATE` or `DELETE` did.
#[derive(Clone, Copy, Debug)]
pub struct Done {
    rows: u64,
}

impl Done {
    /// How many rows it changed.
    pub fn rows_affected(&self) -> u64 {
        self.rows
    }
}

fn sqlite_args(args: Vec<Arg>) -> SqliteArguments<'static> {
    use sqlx::Arguments;
    let mut out = SqliteArguments::default();
    for a in args {
        // Adding a value of these types cannot fail (the encoders are infallible).
        let _ = match a {
            Arg::Int(v) => out.add(v),
            Arg::Text(v) => out.add(v),
            Arg::Bool(v) => out.add(v),
            Arg::Float(v) => out.add(v),
        };
    }
    out
}

fn pg_args(args: Vec<Arg>) -> PgArguments {
    use sqlx::Arguments;
    let mut out = PgArguments::default();
    for a in args {
        let _ = match a {
            Arg::Int(v) => out.add(v),
            Arg::Text(v) => out.add(v),
            Arg::Bool(v) => out.add(v),
            Arg::Float(v) => out.add(v),
        };
    }
    out
}

/// Runs `$body` with `$q` the prepared sqlx query for the engine of `$on` (`query_with`,
/// or `query_as_with` decoding rows as `$t`) and `$e` its executor (a pool or the
/// transaction's connection).
macro_rules! run {
    ($self:ident, $on:ident, |$q:ident, $e:ident| $body:expr) => {
        run!(@ $self, $on, |$q, $e| $body,
            |sql, args| sqlx::query_with::<Sqlite, _>(sql, args),
            |sql, args| sqlx::query_with::<Postgres, _>(sql, args))
    };
    ($self:ident, $on:ident, as $t:ty, |$q:ident, $e:ident| $body:expr) => {
        run!(@ $self, $on, |$q, $e| $body,
            |sql, args| sqlx::query_as_with::<Sqlite, $t, _>(sql, args),
            |sql, args| sqlx::query_as_with::<Postgres, $t, _>(sql, args))
    };
    (@ $self:ident, $on:ident, |$q:ident, $e:ident| $body:expr,
        |$s1:ident, $a1:ident| $lite:expr, |$s2:ident, $a2:ident| $pg:expr) => {{
        let Query { sql, args } = $self;
        match $on.into() {
            On::Db(db) => {
                db.counters.checkout();
                db.counters.statement();
                match &db.pool {
                Pool::Sqlite(p) => {
                    let ($s1, $a1) = (&sql, sqlite_args(args));
                    let $q = $lite;
                    let mut conn = crate::lite::acquire(p).await?;
                    let $e = &mut *conn;
                    $body
                }
                Pool::Postgres(p) => {
                    let ($s2, $a2) = (&sql, pg_args(args));
                    let $q = $pg;
                    let $e = p;
                    $body
                }
            }},
            On::Tx(tx) => {
                tx.counters.statement();
                match tx.inner() {
                TxInner::Sqlite(t) => {
                    let ($s1, $a1) = (&sql, sqlite_args(args));
                    let $q = $lite;
                    let $e = &mut **t;
                    $body
                }
                TxInner::Postgres(t) => {
                    let ($s2, $a2) = (&sql, pg_args(args));
                    let $q = $pg;
                    let $e = &mut **t;
                    $body
                }
            }},
        }
    }};
}

impl Query {
    /// Binds the next value: `$1` for the first, `$2` for the second, ...
    #[must_use]
    pub fn bind(mut self, v: impl ToArg) -> Query {
        self.args.push(v.to_arg());
        self
    }

    /// Appends SQL text (a query built piece by piece, as with `sqlx::QueryBuilder`).
    pub fn push(&mut self, sql: impl std::fmt::Display) -> &mut Query {
        use std::fmt::Write;
        let _ = write!(self.sql, "{sql}");
        self
    }

    /// Appends the next numbered placeholder (`$1` for the first value bound, then `$2`,
    /// ...) bound to `v`.
    pub fn push_bind(&mut self, v: impl ToArg) -> &mut Query {
        use std::fmt::Write;
        self.args.push(v.to_arg());
        let _ = write!(self.sql, "${}", self.args.len());
        self
    }

    /// Appends `VALUES (...), (...)`: one parenthesised row per item of `items`, its
    /// values bound by `row` (as `sqlx::QueryBuilder::push_values` does).
    pub fn push_values<I, F>(&mut self, items: I, mut row: F) -> &mut Query
    where
        I: IntoIterator,
        F: FnMut(ValuesRow<'_>, I::Item),
    {
        self.sql.push_str("VALUES ");
        for (i, item) in items.into_iter().enumerate() {
            if i > 0 {
                self.sql.push_str(", ");
            }
            self.sql.push('(');
            row(
                ValuesRow {
                    query: self,
                    first: true,
                },
                item,
            );
            self.sql.push(')');
        }
        self
    }

    /// The statement built so far (leaving an empty one behind).
    pub fn build(&mut self) -> Query {
        std::mem::take(self)
    }

    /// The statement's text as written.
    pub fn sql(&self) -> &str {
        &self.sql
    }

    /// Runs a statement that returns no rows.
    ///
    /// # Errors
    /// [`sqlx::Error`] from the database.
    pub async fn execute<'a>(self, on: impl Into<On<'a>>) -> Result<Done, sqlx::Error> {
        let rows = run!(self, on, |q, e| q.execute(e).await?.rows_affected());
        Ok(Done { rows })
    }

    /// Every row, each decoded as a `T`.
    ///
    /// # Errors
    /// [`sqlx::Error`] from the database, or [`sqlx::Error::ColumnDecode`] (or
    /// [`sqlx::Error::ColumnNotFound`]) for a row that does not decode as a `T`.
    pub async fn fetch_all<'a, T: FromEitherRow>(
        self,
        on: impl Into<On<'a>>,
    ) -> Result<Vec<T>, sqlx::Error> {
        run!(self, on, as T, |q, e| q.fetch_all(e).await)
    }

    /// The one row, decoded as a `T` (an error when there is none).
    ///
    /// # Errors
    /// As [`Query::fetch_all`]; [`sqlx::Error::RowNotFound`] without a row.
    pub async fn fetch_one<'a, T: FromEitherRow>(
        self,
        on: impl Into<On<'a>>,
    ) -> Result<T, sqlx::Error> {
        run!(self, on, as T, |q, e| q.fetch_one(e).await)
    }

    /// The first row, if any, decoded as a `T`.
    ///
    /// # Errors
    /// As [`Query::fetch_all`].
    pub async fn fetch_optional<'a, T: FromEitherRow>(
        self,
        on: impl Into<On<'a>>,
    ) -> Result<Option<T>, sqlx::Error> {
        run!(self, on, as T, |q, e| q.fetch_optional(e).await)
    }
}

/// One row of [`Query::push_values`]: its values, comma-separated.
pub struct ValuesRow<'a> {
    query: &'a mut Query,
    first: bool,
}

impl ValuesRow<'_> {
    /// Appends a placeholder bound to `v`.
    pub fn push_bind(&mut self, v: impl ToArg) -> &mut Self {
        if !self.first {
            self.query.sql.push_str(", ");
        }
        self.first = false;
        self.query.push_bind(v);
        self
    }
}

/// A type both engines' rows decode into: what `#[derive(sqlx::FromRow)]` gives a struct
/// (the derive is generic over the row type, so one derive serves `SqliteRow` and `PgRow`),
/// and tuples of values both decode (`(i64,)`, `(i64, String)`), read by position.
pub trait FromEitherRow:
    for<'r> FromRow<'r, SqliteRow> + for<'r> FromRow<'r, PgRow> + Send + Unpin
{
}

impl<T> FromEitherRow for T where
    T: for<'r> FromRow<'r, SqliteRow> + for<'r> FromRow<'r, PgRow> + Send + Unpin
{
}

/// A row decoded on its own, so that one damaged row of a list costs only itself: the
/// row's `id` column (when it reads as an integer) and the `T` or why the row does not
/// decode as one. A query fetching `Checked<T>` fails only when the database does.
pub struct Checked<T> {
    /// The `id` column, when the row has one that reads.
    pub id: Option<i64>,
    /// The row as a `T`, or sqlx's reason it is not one.
    pub row: Result<T, sqlx::Error>,
}

impl<'r, R, T> FromRow<'r, R> for Checked<T>
where
    R: sqlx::Row,
    T: FromRow<'r, R>,
    &'r str: sqlx::ColumnIndex<R>,
    i64: sqlx::Decode<'r, R::Database> + sqlx::Type<R::Database>,
{
    fn from_row(row: &'r R) -> Result<Checked<T>, sqlx::Error> {
        Ok(Checked {
            id: row.try_get("id").ok(),
            row: T::from_row(row),
        })
    }
}

impl Db {
    /// Which engine this database is.
    pub fn engine(&self) -> Engine {
        match self.pool {
            Pool::Sqlite(_) => Engine::Sqlite,
            Pool::Postgres(_) => Engine::Postgres,
        }
    }
}

impl Tx {
    /// Which engine this transaction runs on.
    pub fn engine(&self) -> Engine {
        match self.inner {
            Some(TxInner::Sqlite(_)) | None => Engine::Sqlite,
            Some(TxInner::Postgres(_)) => Engine::Postgres,
        }
    }
}
