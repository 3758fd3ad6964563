//! The analysis functions with each variant's options (once integration tests that called
//! the library's `cli` module; the `kaboom` binary itself is run by `bot/tests/it`).

mod beirut;
mod bombalot;
mod nuke;
mod refusals;
