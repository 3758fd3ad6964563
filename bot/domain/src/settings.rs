//! Nudge settings: how a player wants to be reminded, and a server's settings (reminder
//! defaults, league organisers).
//! Stored by the store crate (`kaboom_store::settings`); read by the deadline policy.

use crate::ids::RoleId;

/// Where a player's nudges go; stored as its name ([`NudgeVia::name`], and `FromStr` back).
#[derive(Copy, Clone, Eq, PartialEq, Debug, strum::EnumString, strum::IntoStaticStr)]
#[strum(serialize_all = "lowercase")]
pub enum NudgeVia {
    /// A direct message with a link to the game's thread (a mention in the thread if the
    /// DM fails).
    Dm,
    /// A mention in the game's thread.
    Thread,
}

impl NudgeVia {
    /// Stored form: `dm` or `thread`.
    pub fn name(self) -> &'static str {
        self.into()
    }
}

/// A player's notification choices.
#[derive(Copy, Clone, Eq, PartialEq, Debug)]
pub struct UserSettings {
    /// Whether the bot reminds them at all.
    pub nudges: bool,
    /// Where reminders go.
    pub via: NudgeVia,
}

impl Default for UserSettings {
    /// Nudges on, by DM.
    fn default() -> UserSettings {
        UserSettings {
            nudges: true,
            via: NudgeVia::Dm,
        }
    }
}

/// A server's settings (`/settings server`): its reminder thresholds and who may run leagues.
#[derive(Clone, Eq, PartialEq, Debug)]
pub struct GuildSettings {
    /// Shares of the time per move (percent, 1-99, ascending) at which the player to move
    /// is reminded.
    pub nudge_shares: Vec<u8>,
    /// Untimed games: first reminder after this many seconds without a move.
    pub idle_first_secs: i64,
    /// Untimed games: then again every this many seconds.
    pub idle_repeat_secs: i64,
    /// The role whose members may create and manage leagues, besides the members with the
    /// Manage Server permission; `None`: those members only.
    pub league_organisers: Option<RoleId>,
}

/// `50,80` -> `[50, 80]`: percentages 1-99, sorted, duplicates removed.
///
/// # Errors
/// A sentence saying what is wrong and what would be right.
pub fn parse_shares(text: &str) -> Result<Vec<u8>, String> {
    let mut shares = Vec::new();
    for part in text.split([',', ' ']).filter(|p| !p.trim().is_empty()) {
        let p = part.trim().trim_end_matches('%');
        match p.parse::<u8>() {
            Ok(v) if (1..=99).contains(&v) => shares.push(v),
            _ => {
                return Err(format!(
                    "'{part}' is not a share of the time: give percentages from 1 to 99, e.g. 50,80."
                ));
            }
        }
    }
    if shares.is_empty() {
        return Err("Give at least one percentage, e.g. 50,80.".into());
    }
    shares.sort_unstable();
    shares.dedup();
    Ok(shares)
}

/// `[50, 80]` -> `50,80`.
pub fn format_shares(shares: &[u8]) -> String {
    shares
        .iter()
        .map(u8::to_string)
        .collect::<Vec<_>>()
        .join(",")
}

/// When a player sees an explosion preview before an action is played; stored as its name
/// ([`PreviewMode::name`], [`PreviewMode::parse`]).
#[derive(Copy, Clone, Eq, PartialEq, Debug, Default, strum::EnumString, strum::IntoStaticStr)]
pub enum PreviewMode {
    /// Before every action that would remove pieces in the player's first
    /// [`PREVIEW_GAMES`] finished games of a variant, then only when asked (the default:
    /// a player who knows the game is not asked to confirm every capture).
    #[default]
    #[strum(serialize = "first-games")]
    FirstGames,
    /// Before every action that would remove pieces, and when asked.
    #[strum(serialize = "always")]
    Always,
    /// Only when asked (`/move ... preview:True`).
    #[strum(serialize = "asked")]
    WhenAsked,
}

/// How many finished games of a variant [`PreviewMode::FirstGames`] shows previews for.
pub const PREVIEW_GAMES: i64 = 3;

impl PreviewMode {
    /// Stored form: `first-games`, `always` or `asked`.
    pub fn name(self) -> &'static str {
        self.into()
    }

    /// Reads the stored form (`None` for any other text).
    pub fn parse(s: &str) -> Option<PreviewMode> {
        s.parse().ok()
    }
}
