//! The domain: what the other layers share and nothing of theirs. Ids ([`ids`]), the game row, the
//! deadline policy, the clock and the rating rules ([`rating`]). It imports nothing else of the crate (checked by the
//! `layers` test).

pub mod clock;
pub mod deadline;
pub mod game;
pub mod ids;
pub mod rating; // issue 18
pub mod settings;
