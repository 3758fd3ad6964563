//! The engine's integration tests, one binary (`cargo test -p kaboom-engine --test it`):
//! tactics it must find, levels, hidden information, legality over whole games, and
//! puzzles.

mod games;
mod hidden;
mod puzzle;
mod review;
mod search;
