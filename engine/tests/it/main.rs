//! The engine's integration tests, one binary (`cargo test -p kaboom-engine --test it`):
//! tactics it must find, levels, hidden information, and legality over whole
//! games.

mod games;
mod hidden;
mod review;
mod search;
