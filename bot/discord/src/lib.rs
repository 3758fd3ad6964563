//! # kaboom-discord
//!
//! The Discord layer: the poise framework and its wiring ([`bot`]), slash [`commands`],
//! [`components`] (buttons and menus), [`flows`] (what both do after a change), [`outbox`] (posting every change's
//! effects exactly once), [`board`] (the board picture), [`respond`] (answering interactions through Discord's faults), the
//! scheduler's notice planner ([`notifier`], into the outbox), and every text players and hosts read
//! ([`messages`]). The top library layer: the `kaboom` binary wires it up.
#![deny(missing_docs)]

pub mod board;
pub mod bot;
pub mod commands;
pub mod components;
pub mod config;
pub mod flows;
pub(crate) mod ids;
pub mod messages;
pub mod notifier;
pub mod outbox;
pub mod place;
pub mod preview;
pub mod respond;
pub mod types;

/// The error type of commands, components and the outbox: any error, sent between threads.
pub type Error = Box<dyn std::error::Error + Send + Sync>;
