//! One database test, two cases: [`dbtest!`](crate::dbtest) turns a test into a SQLite case
//! and a PostgreSQL case, as ripgrep's `rgtest!` runs each case under every backend.
//!
//! ```ignore
//! kaboom_testkit::dbtest! {
//!     #[tokio::test]
//!     async fn games_survive_a_restart() {
//!         let (db, _guard) = kaboom_testkit::temp_db().await; // SQLite, then PostgreSQL
//!         // ...
//!     }
//! }
//! ```
//!
//! makes `games_survive_a_restart::sqlite` and `games_survive_a_restart::postgres`. The
//! PostgreSQL case is `#[ignore]`d with its reason, so a plain `cargo test` lists it as
//! ignored instead of passing it silently; `scripts/test.sh` runs the ignored cases whose
//! name ends in `::postgres` against the server of [`POSTGRES_URL_VAR`](crate::POSTGRES_URL_VAR).
//! Run by hand without that variable, a PostgreSQL case fails and says what is missing.
//!
//! Inside a case, [`TempDb::new`](crate::TempDb::new) and [`temp_db`](crate::temp_db) make
//! a database of the case's engine ([`current`]); outside any case they make SQLite.
//! [`pgtest!`](crate::pgtest) makes only the PostgreSQL case, for tests that are about
//! PostgreSQL itself (several processes on one server, the copy from SQLite).

use std::future::Future;

/// The database engine a test case runs on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Engine {
    /// A SQLite file in a temporary directory.
    Sqlite,
    /// A fresh database on the server of [`POSTGRES_URL_VAR`](crate::POSTGRES_URL_VAR).
    Postgres,
}

tokio::task_local! {
    static ENGINE: Engine;
}

/// The engine of the running case: set by [`run`] for the test's own task, SQLite outside
/// any case (and in tasks the test spawns, which do not inherit it: make the database in
/// the test's own task).
pub fn current() -> Engine {
    ENGINE.try_with(|e| *e).unwrap_or(Engine::Sqlite)
}

/// Runs `test` as a case on `engine` (what [`dbtest!`](crate::dbtest) expands to).
pub async fn run<F: Future>(engine: Engine, test: F) -> F::Output {
    ENGINE.scope(engine, test).await
}

/// Makes a database test's SQLite case (`NAME::sqlite`) and PostgreSQL case
/// (`NAME::postgres`, ignored unless asked for): see [the module](crate::dbtest).
///
/// The test is written as usual, with its `#[tokio::test]` attribute (any flavor) and any
/// other attributes, and a body that may return a `Result`; one invocation may hold several
/// tests.
#[macro_export]
macro_rules! dbtest {
    ($($(#[$meta:meta])* async fn $name:ident() $(-> $ret:ty)? $body:block)+) => {$(
        mod $name {
            #[allow(unused_imports)]
            use super::*;

            $(#[$meta])*
            async fn sqlite() $(-> $ret)? {
                $crate::dbtest::run($crate::dbtest::Engine::Sqlite, async move $body).await
            }

            $(#[$meta])*
            #[ignore = "a PostgreSQL case: set KABOOM_TEST_POSTGRES_URL and run `cargo test -- --ignored ::postgres` (scripts/test.sh does)"]
            async fn postgres() $(-> $ret)? {
                $crate::dbtest::run($crate::dbtest::Engine::Postgres, async move $body).await
            }
        }
    )+};
}

/// Makes only the PostgreSQL case (`NAME::postgres`, ignored unless asked for) of a test
/// that is about PostgreSQL itself: see [the module](crate::dbtest).
#[macro_export]
macro_rules! pgtest {
    ($($(#[$meta:meta])* async fn $name:ident() $(-> $ret:ty)? $body:block)+) => {$(
        mod $name {
            #[allow(unused_imports)]
            use super::*;

            $(#[$meta])*
            #[ignore = "a PostgreSQL case: set KABOOM_TEST_POSTGRES_URL and run `cargo test -- --ignored ::postgres` (scripts/test.sh does)"]
            async fn postgres() $(-> $ret)? {
                $crate::dbtest::run($crate::dbtest::Engine::Postgres, async move $body).await
            }
        }
    )+};
}
