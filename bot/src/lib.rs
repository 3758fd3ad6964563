//! # kaboom-bot
//!
//! The Kaboom Discord bot and the `kaboom` command-line tool, in layers that import only
//! downwards (the `layers` integration test checks it):
//!
//! [`domain`] (ids, the game row, the deadline policy, the clock) <- [`storage`] (sqlx,
//! SQLite) <- [`service`] (players' actions as functions returning typed values, no
//! Discord types) <- [`scheduler`] (deadlines, nudges, forfeits) <- [`discord`] (poise
//! commands, components, wiring, and every text players read in [`discord::messages`]).
//!
//! The other subcommands of the `kaboom` binary (`perft`, `moves`, `replay`, `render`,
//! `invite-url`) live in the binary's own `cli` module (`src/cli/`), not in this library;
//! the analysis commands are the public way to check the rules library against other
//! implementations, so their output is stable.
#![deny(missing_docs)]

pub mod discord;
pub mod domain;
pub mod scheduler;
pub mod service;
pub mod storage;
