//! The command-line subcommands that are not the bot: rules analysis (`perft`, `moves`,
//! `replay`), the engine's `analyse` and `analyse-game`, `render`, `invite-url`, the leagues' `pair` and
//! `standings`, and `puzzles`. They use the rules library and the renderer,
//! nothing of the bot's layers, and belong to the `kaboom` binary only (`mod cli` in
//! `main.rs`), not to the library.

pub mod analyse;
pub mod analysis;
pub mod invite;
pub mod pairing;
pub mod puzzles;
pub mod render;
pub mod review;

#[cfg(test)]
mod tests;
