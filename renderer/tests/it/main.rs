//! The renderer's integration tests, one binary (`cargo test -p kaboom-renderer --test it`):
//! golden images compared byte for byte ([`golden`]), what each view shows ([`views`]),
//! table images ([`table`]) and the post-game analysis pictures ([`analysis`]: the
//! evaluation chart, arrows on boards).

mod analysis;
mod common;
mod ghosts;
mod golden;
mod legend;
mod marks;
mod replay;
mod table;
mod views;
