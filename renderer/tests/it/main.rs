//! The renderer's integration tests, one binary (`cargo test -p kaboom-renderer --test it`):
//! golden images compared byte for byte ([`golden`]), board PNGs drawn in palette indices
//! against their SVGs ([`indexed`]), what each view shows ([`views`]),
//! table images ([`table`]) and the post-game analysis pictures ([`analysis`]: the
//! evaluation chart, arrows on boards).

mod analysis;
mod common;
mod ghosts;
mod golden;
mod indexed;
mod legend;
mod marks;
mod replay;
mod table;
mod views;
