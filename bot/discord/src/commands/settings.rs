//! `/settings me` (a player's reminders) and `/settings server` (a server's reminder
//! defaults, league organisers, daily puzzle and per-player limits, Manage Server only).
//! The logic is in [`apply_user`] and [`apply_guild`], with no Discord types, so it is
//! tested without Discord.

use super::say_private;
use crate::ids::Domain;
use crate::types::{Context, Error};
use kaboom_domain::ids::{GuildId, UserId};
use kaboom_service::settings::{GuildChange, LeagueOrganisers};
use kaboom_service::{Refusal, ServiceError, Services};
use kaboom_store::settings::{Limit, NudgeVia, PlayerLimits};
use poise::serenity_prelude as serenity;

/// Where reminders go (the option's choices).
#[derive(Copy, Clone, Debug, poise::ChoiceParameter)]
pub enum ViaChoice {
    /// A direct message (a mention in the game's thread if your DMs are closed).
    #[name = "DM"]
    Dm,
    /// A mention in the game's thread.
    #[name = "thread mention"]
    Thread,
}

fn via_text(v: NudgeVia) -> &'static str {
    match v {
        NudgeVia::Dm => "by DM (a mention in the game's thread if the DM fails)",
        NudgeVia::Thread => "by a mention in the game's thread",
    }
}

/// When to show explosion previews (the option's choices).
#[derive(Copy, Clone, Debug, poise::ChoiceParameter)]
pub enum PreviewChoice {
    /// Before every action that removes pieces.
    #[name = "always"]
    Always,
    /// Only with `/move ... preview:True`.
    #[name = "only when asked"]
    WhenAsked,
    /// In your first games of each variant, then only when asked (the default).
    #[name = "first games"]
    FirstGames,
}

/// Changes `user`'s explosion preview choice when `previews` is given, and describes it.
///
/// # Errors
/// [`ServiceError::Storage`] on a database failure.
pub async fn apply_previews(
    services: &Services,
    user: UserId,
    previews: Option<PreviewChoice>,
) -> Result<String, ServiceError> {
    use kaboom_domain::settings::PreviewMode;
    let previews_service = services.previews();
    let mode = match previews {
        Some(choice) => {
            let mode = match choice {
                PreviewChoice::FirstGames => PreviewMode::FirstGames,
                PreviewChoice::Always => PreviewMode::Always,
                PreviewChoice::WhenAsked => PreviewMode::WhenAsked,
            };
            previews_service.set_mode(user, mode).await?;
            mode
        }
        None => previews_service.mode(user).await?,
    };
    Ok(crate::messages::preview::setting_text(mode))
}

/// Changes what is given of `user`'s settings and describes the result.
///
/// # Errors
/// [`ServiceError::Storage`] on a database failure.
pub async fn apply_user(
    services: &Services,
    user: UserId,
    nudges: Option<bool>,
    via: Option<NudgeVia>,
) -> Result<String, ServiceError> {
    let s = services.settings().update_user(user, nudges, via).await?;
    Ok(if s.nudges {
        format!(
            "Reminders to move are on, {}. Turn them off with `/settings me nudges:False`.",
            via_text(s.via)
        )
    } else {
        "Reminders to move are off: the bot will not remind you before a deadline. Turn them on with `/settings me nudges:True`.".into()
    })
}

/// Applies `change` to server `guild`'s settings (starting from the running scheduler's
/// defaults when it has none) and describes the result.
///
/// # Errors
/// [`ServiceError::Refused`] for bad values (saying what would be right);
/// [`ServiceError::Storage`] on a database failure.
pub async fn apply_guild(
    services: &Services,
    guild: GuildId,
    change: GuildChange<'_>,
) -> Result<String, ServiceError> {
    let s = services.settings().update_guild(guild, change).await?;
    let organisers = match s.league_organisers {
        Some(role) => format!("members with Manage Server and the <@&{role}> role"),
        None => "members with Manage Server".to_string(),
    };
    Ok(format!(
        "Reminders in this server: timed games at {} of the time per move; untimed games after {} hours without a move, then every {} hours.\nLeagues are created and managed by {organisers}.\n{}",
        s.nudge_shares
            .iter()
            .map(|p| format!("{p}%"))
            .collect::<Vec<_>>()
            .join(" and "),
        s.idle_first_secs / 3600,
        s.idle_repeat_secs / 3600,
        limits_text(&s.limits.or(services.scheduler_config().defaults.limits))
    ))
}

/// The per-player limits as `/settings server` shows them.
pub fn limits_text(limits: &PlayerLimits) -> String {
    format!(
        "Each player may have {} practice games against the bot and {} open challenges at once here, and send {} commands a minute.",
        limits.get(Limit::PracticeGames),
        limits.get(Limit::OpenChallenges),
        limits.get(Limit::CommandsPerMinute)
    )
}

/// Settings: your own reminders and previews (`me`), or the server's (`server`, Manage Server).
#[poise::command(slash_command, subcommands("me", "server"), subcommand_required)]
pub async fn settings(_ctx: Context<'_>) -> Result<(), Error> {
    Ok(())
}

/// Your reminders to move (on or off, by DM or in the thread) and explosion previews.
///
/// Without options, shows your settings.
#[poise::command(slash_command)]
pub async fn me(
    ctx: Context<'_>,
    #[description = "Remind me before my deadline (default: on)"] nudges: Option<bool>,
    #[description = "How to remind me (default: DM)"] via: Option<ViaChoice>,
    #[description = "Preview actions that remove pieces before playing them (default: always)"]
    previews: Option<PreviewChoice>,
) -> Result<(), Error> {
    let services = &ctx.data().services;
    let via = via.map(|v| match v {
        ViaChoice::Dm => NudgeVia::Dm,
        ViaChoice::Thread => NudgeVia::Thread,
    });
    let text = apply_user(services, ctx.author().id.domain(), nudges, via).await?;
    let previews = apply_previews(services, ctx.author().id.domain(), previews).await?;
    say_private(ctx, format!("{text}\n{previews}")).await
}

/// Server settings: reminders, league organisers, daily puzzle, player limits (Manage Server).
///
/// Without options, shows them.
#[poise::command(
    slash_command,
    guild_only,
    required_permissions = "MANAGE_GUILD",
    default_member_permissions = "MANAGE_GUILD"
)]
#[allow(clippy::too_many_arguments)] // one argument per slash option
pub async fn server(
    ctx: Context<'_>,
    #[description = "Timed games: remind at these shares of the time, e.g. 50,80"]
    #[max_length = 40]
    shares: Option<String>,
    #[description = "Untimed games: first reminder after this many hours (default 48)"]
    idle_hours: Option<i64>,
    #[description = "Untimed games: then every this many hours (default 168)"] repeat_hours: Option<
        i64,
    >,
    #[description = "Members with this role may also create and manage leagues"]
    league_organisers: Option<serenity::Role>,
    #[description = "True: only members with Manage Server run leagues again"]
    league_organisers_off: Option<bool>,
    #[description = "Post a daily puzzle in this channel"]
    #[channel_types("Text")]
    puzzle_channel: Option<serenity::PartialChannel>,
    #[description = "True: stop posting the daily puzzle"] puzzle_channel_off: Option<bool>,
    #[description = "Practice games against the bot one player may have at once (default 3)"]
    #[min = 1]
    #[max = 50]
    practice_games: Option<u32>,
    #[description = "Open challenges one player may have waiting here at once (default 10)"]
    #[min = 1]
    #[max = 25]
    open_challenges: Option<u32>,
    #[description = "Commands and clicks one player may send a minute (default 30)"]
    #[min = 5]
    #[max = 120]
    commands_per_minute: Option<u32>,
) -> Result<(), Error> {
    let Some(guild) = ctx.guild_id() else {
        return say_private(ctx, "Server settings can only be changed in a server.").await;
    };
    let services = &ctx.data().services;
    let league_organisers = match (league_organisers, league_organisers_off) {
        (Some(_), Some(true)) => {
            let reason =
                "Give either league_organisers (a role) or league_organisers_off, not both.";
            return Err(ServiceError::Refused(Refusal::BadSetting {
                reason: reason.into(),
            })
            .into());
        }
        (Some(role), _) => Some(LeagueOrganisers::AlsoRole(role.id.domain())),
        (None, Some(true)) => Some(LeagueOrganisers::ManageServerOnly),
        (None, _) => None,
    };
    let change = GuildChange {
        shares: shares.as_deref(),
        idle_hours,
        repeat_hours,
        league_organisers,
        limits: PlayerLimits {
            practice_games,
            open_challenges,
            commands_per_minute,
        },
    };
    let mut text = apply_guild(services, guild.domain(), change).await?;
    ctx.data().limiter.forget_guild(guild.domain());
    text.push('\n');
    text.push_str(
        &apply_daily_puzzle(
            services,
            guild.domain(),
            puzzle_channel.map(|c| c.id.domain()),
            puzzle_channel_off,
        )
        .await?,
    );
    say_private(ctx, text).await
}

/// Sets (`channel`) or stops (`off`) server `guild`'s daily puzzle, and describes it.
///
/// # Errors
/// [`ServiceError::Refused`] when both are given; [`ServiceError::Storage`] on a database
/// failure.
pub async fn apply_daily_puzzle(
    services: &Services,
    guild: GuildId,
    channel: Option<kaboom_domain::ids::ChannelId>,
    off: Option<bool>,
) -> Result<String, ServiceError> {
    let puzzles = services.puzzles();
    match (channel, off) {
        (Some(_), Some(true)) => {
            return Err(ServiceError::Refused(Refusal::BadSetting {
                reason: "Give either puzzle_channel (a channel) or puzzle_channel_off, not both."
                    .into(),
            }));
        }
        (Some(c), _) => puzzles.set_daily_channel(guild, Some(c)).await?,
        (None, Some(true)) => puzzles.set_daily_channel(guild, None).await?,
        (None, _) => {}
    }
    Ok(match puzzles.daily_channel(guild).await? {
        Some(c) => format!("A daily puzzle is posted in <#{c}> soon after 00:00 UTC."),
        None => "No daily puzzle: choose its channel with `puzzle_channel`.".to_string(),
    })
}

#[cfg(test)]
mod tests {
    use poise::serenity_prelude::Permissions;

    /// `/settings me` is for everyone; `/settings server` only for members with
    /// Manage Server (checked by poise on every use, from the interaction's member
    /// permissions), and only in a server.
    #[test]
    fn server_defaults_need_manage_server() {
        let command = super::settings();
        let names: Vec<&str> = command
            .subcommands
            .iter()
            .map(|c| c.name.as_ref())
            .collect();
        assert_eq!(names, ["me", "server"]);
        let me = &command.subcommands[0];
        assert!(me.required_permissions.is_empty() && !me.guild_only);
        let server = &command.subcommands[1];
        assert_eq!(server.required_permissions, Permissions::MANAGE_GUILD);
        assert!(server.guild_only);
        assert!(
            command.required_permissions.is_empty(),
            "the parent must not hide /settings me"
        );
    }

    /// Each limit's option offers exactly the values the service accepts
    /// (`Limit::allowed`), so Discord's own check and ours agree.
    #[test]
    fn limit_options_offer_the_allowed_values() {
        let command = super::settings();
        let server = &command.subcommands[1];
        for limit in kaboom_store::settings::Limit::ALL {
            let option = server
                .parameters
                .iter()
                .find(|p| p.name == limit.name())
                .unwrap_or_else(|| panic!("no option {}", limit.name()));
            let range = limit.allowed();
            let registered = option
                .create_as_slash_command_option()
                .expect("a slash option");
            let json = serde_json::to_value(registered).unwrap();
            // Numbers as Discord reads them (a bound may be registered as `1.0`).
            assert_eq!(
                (json["min_value"].as_f64(), json["max_value"].as_f64()),
                (
                    Some(f64::from(*range.start())),
                    Some(f64::from(*range.end()))
                ),
                "{}: {json}",
                limit.name()
            );
        }
    }
}
