//! # kaboom-bot
//!
//! The Kaboom Discord bot and the `kaboom` command-line tool. The analysis commands
//! (`perft`, `moves`, `replay`) live in [`analysis`]; they are the public way to check
//! the rules library against other implementations, so their output is stable.
#![deny(missing_docs)]

pub mod analysis;
pub mod fake_discord;
pub mod render_cli;
