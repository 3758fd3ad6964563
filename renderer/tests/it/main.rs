//! The renderer's integration tests, one binary (`cargo test -p kaboom-renderer --test it`):
//! golden images compared byte for byte ([`golden`]) and what each view shows ([`views`]).

mod common;
mod ghosts;
mod golden;
mod replay;
mod views;
