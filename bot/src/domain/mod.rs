//! The domain: what the other layers share and nothing of theirs. Ids ([`ids`]), the game row, the
//! deadline policy and the clock. It imports nothing else of the crate (checked by the
//! `layers` test).

pub mod clock;
pub mod deadline;
pub mod game;
pub mod ids;
pub mod settings;
