//! # kaboom-bot
//!
//! The Kaboom Discord bot and the `kaboom` command-line tool. The analysis commands
//! (`perft`, `moves`, `replay`) live in [`analysis`]; they are the public way to check
//! the rules library against other implementations, so their output is stable.
//!
//! The bot (`kaboom serve`): [`storage`] (sqlx, SQLite), [`services`] (the games
//! service, no Discord types), [`commands`] (poise slash commands), [`components`]
//! (buttons and menus routed by custom id), [`bot`] (wiring), [`config`].
#![deny(missing_docs)]

pub mod analysis;
pub mod bot;
pub mod clock;
pub mod commands;
pub mod components;
pub mod config;
pub mod flows;
pub mod invite;
pub mod painter;
pub mod present;
pub mod render_cli;
pub mod rules_text;
pub mod scheduler;
pub mod services;
pub mod storage;
pub mod types;
