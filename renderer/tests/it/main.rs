//! The renderer's integration tests, one binary (`cargo test -p kaboom-renderer --test it`):
//! golden images compared byte for byte ([`golden`]), what each view shows ([`views`])
//! and table images ([`table`]).

mod common;
mod ghosts;
mod golden;
mod replay;
mod table;
mod views;
