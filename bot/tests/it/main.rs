//! The bot's integration tests, one binary (as ripgrep does): each module was once its own
//! test binary, and linking ~15 of them against the bot cost minutes and gigabytes.

mod analyse_cli;
mod analysis;
mod anywhere;
mod archived;
mod beirut_cli;
mod bombalot_cli;
mod bomberman_cli;
mod cli;
mod comforts;
mod common;
mod conflicts;
mod copy_db;
mod docs;
mod e2e;
mod fake_discord_smoke;
mod faults;
mod fuzz;
mod help_rules;
mod input_bounds;
mod invite_cli;
mod kill_loop;
mod leagues;
mod leaks;
mod moderation;
mod outbox;
mod pairing_cli;
mod player_texts;
mod practice;
mod preview;
mod privacy;
mod process;
mod puzzles;
mod puzzles_cli;
mod ratings;
mod replay;
mod round_trips;
mod scheduler;
mod scheduler_discord;
mod serve_cli;
mod serve_process;
mod services;
mod shards;
mod soak;
mod storage;
mod upgrade;

/// The test binary's allocator: the system's, counting the live heap in bytes (`cap`), so
/// that the soak can tell how much of the process's memory the bot keeps from what the fake
/// Discord beside it keeps.
#[global_allocator]
static HEAP: cap::Cap<std::alloc::System> = cap::Cap::new(std::alloc::System, usize::MAX);
