//! # kaboom-domain
//!
//! The domain: what the other layers share and nothing of theirs. Ids ([`ids`]), the game row, the
//! deadline policy, the clock and the rating rules ([`rating`]). The bottom layer of the bot:
//! it depends on the rules library only, and Cargo keeps it that way.
#![deny(missing_docs)]

pub mod clock;
pub mod deadline;
pub mod game;
pub mod ids;
pub mod rating;
pub mod settings;
