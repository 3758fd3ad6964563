//! The Discord layer: the poise framework and its wiring ([`bot`]), slash [`commands`],
//! [`components`] (buttons and menus), [`flows`] (side effects shared by both), the
//! scheduler's Discord [`notifier`], and every text players and hosts read
//! ([`messages`]). The top layer: it may use every other.

pub mod bot;
pub mod commands;
pub mod components;
pub mod config;
pub mod flows;
pub mod messages;
pub mod notifier;
pub mod place;
pub mod types;
