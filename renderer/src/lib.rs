//! # kaboom-renderer
//!
//! Board images for Kaboom (placeholder until the renderer issue lands).
#![deny(missing_docs)]

pub use kaboom_rules;
