//! The command-line subcommands that are not the bot: rules analysis (`perft`, `moves`,
//! `replay`), `render` and `invite-url`. They use the rules library and the renderer,
//! nothing of the bot's layers.

pub mod analysis;
pub mod invite;
pub mod render;
