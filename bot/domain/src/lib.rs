//! # kaboom-domain
//!
//! The domain: what the other layers share and nothing of theirs. Ids ([`ids`]), the game row, the
//! deadline policy, the clock, the rating rules ([`rating`]) and the model of server leagues
//! ([`league`]). The bottom layer of the bot:
//! it depends on the rules library and the pairing library (`kaboom-pairing`) only, and Cargo
//! keeps it that way.
#![deny(missing_docs)]

pub mod clock;
pub mod deadline;
pub mod game;
pub mod ids;
pub mod league;
pub mod rating;
pub mod settings;
