//! `/league`: server leagues (round-robin and Swiss correspondence tournaments). The
//! handlers parse options and call [`kaboom_service::Leagues`]; the sign-up post, rounds
//! and standings go out through the outbox (`outbox::plan`), worded in
//! `messages::leagues`.

use kaboom_domain::league::{self, ByeValue, LeagueFormat, LeagueSettings, SignUp};
use kaboom_pairing::berger::Cycles;
use kaboom_service::leagues::{LeagueRefusal, NewLeague, Organiser};
use kaboom_service::{DEFAULT_DAYS_PER_MOVE, ServiceError};
use kaboom_store::leagues::{LeaguePlace, LeagueRow};
use poise::serenity_prelude as serenity;

use super::challenge::VariantChoice;
use super::say_private;
use crate::ids::Domain;
use crate::messages::leagues as words;
use crate::types::{Context, Error};

/// How a league pairs its rounds.
#[derive(Copy, Clone, Debug, poise::ChoiceParameter)]
pub enum FormatChoice {
    /// Everyone plays everyone once.
    #[name = "round-robin"]
    RoundRobin,
    /// Everyone plays everyone twice, once with each colour.
    #[name = "double round-robin"]
    DoubleRoundRobin,
    /// Everyone plays everyone twice, both games at the same time.
    #[name = "double round-robin, both colours at once"]
    DoubleAtOnce,
    /// A fixed number of rounds, paired by score (FIDE Dutch system).
    #[name = "Swiss"]
    Swiss,
}

/// What a Swiss bye is worth.
#[derive(Copy, Clone, Debug, poise::ChoiceParameter)]
pub enum ByeChoice {
    /// 1 point.
    #[name = "1 point"]
    Full,
    /// Half a point.
    #[name = "½ point"]
    Half,
    /// No points.
    #[name = "0 points"]
    Zero,
}

/// Days per move a league offers: 1 to 14.
#[derive(Copy, Clone, Debug, poise::ChoiceParameter)]
pub enum LeagueDays {
    /// 1 day.
    #[name = "1 day"]
    D1,
    /// 2 days.
    #[name = "2 days"]
    D2,
    /// 3 days.
    #[name = "3 days"]
    D3,
    /// 5 days.
    #[name = "5 days"]
    D5,
    /// 7 days.
    #[name = "7 days"]
    D7,
    /// 10 days.
    #[name = "10 days"]
    D10,
    /// 14 days.
    #[name = "14 days"]
    D14,
}

impl LeagueDays {
    fn days(self) -> u32 {
        match self {
            LeagueDays::D1 => 1,
            LeagueDays::D2 => 2,
            LeagueDays::D3 => 3,
            LeagueDays::D5 => 5,
            LeagueDays::D7 => 7,
            LeagueDays::D10 => 10,
            LeagueDays::D14 => 14,
        }
    }
}

/// Server leagues: round-robin and Swiss tournaments played by correspondence.
#[poise::command(
    slash_command,
    guild_only,
    subcommands(
        "create",
        "start",
        "pause",
        "resume",
        "standings",
        "list",
        "withdraw",
        "export"
    ),
    subcommand_required
)]
pub async fn league(_ctx: Context<'_>) -> Result<(), Error> {
    Ok(())
}

/// The league option's choices: this server's leagues, newest first.
async fn autocomplete_league(
    ctx: Context<'_>,
    partial: &str,
) -> serenity::CreateAutocompleteResponse {
    let mut choices = Vec::new();
    if let Some(guild) = ctx.guild_id() {
        let leagues = ctx
            .data()
            .services
            .leagues()
            .in_guild(guild.domain(), true)
            .await
            .unwrap_or_default();
        for row in leagues {
            let label: String = format!("#{} {}", row.id, row.league.name)
                .chars()
                .take(100)
                .collect();
            if partial.is_empty() || label.to_lowercase().contains(&partial.to_lowercase()) {
                choices.push(serenity::AutocompleteChoice::new(label, row.id.to_string()));
            }
        }
    }
    serenity::CreateAutocompleteResponse::new().set_choices(choices)
}

/// What `/league start|pause|resume|withdraw` do to the league they name.
#[derive(Copy, Clone, Debug)]
enum Change {
    Start,
    Pause,
    Resume,
    Withdraw,
}

/// Applies `what` to the league of the `league` option, waits for its posts, and answers
/// privately.
async fn change(ctx: Context<'_>, league: &str, what: Change) -> Result<(), Error> {
    let (guild, id) = league_option(ctx, league)?;
    if !matches!(what, Change::Withdraw) {
        check_organiser(ctx, guild).await?;
    }
    let leagues = ctx.data().services.leagues();
    let (row, text): (_, fn(&LeagueRow) -> String) = match what {
        Change::Start => (leagues.start(id, guild).await?, words::started),
        Change::Pause => (leagues.pause(id, guild).await?, words::paused_reply),
        Change::Resume => (leagues.resume(id, guild).await?, words::resumed_reply),
        Change::Withdraw => {
            let user = ctx.author().id.domain();
            let row = leagues.withdraw(id, guild, user).await?;
            (row, words::withdrew_reply)
        }
    };
    ctx.data().outbox.settle_league(row.id).await?;
    say_private(ctx, text(&row)).await
}

/// Refuses unless the author may create and manage leagues in `guild`: the Manage Server
/// permission (the interaction member's `permissions`, which Discord computes for the
/// channel: <https://discord.com/developers/docs/resources/guild#guild-member-object>) or
/// the server's league organiser role among the member's `roles`.
async fn check_organiser(
    ctx: Context<'_>,
    guild: kaboom_domain::ids::GuildId,
) -> Result<(), Error> {
    let member = match ctx {
        poise::Context::Application(app) => app.interaction.member.as_deref(),
        poise::Context::Prefix(_) => None,
    };
    let organiser = Organiser {
        manage_server: member
            .and_then(|m| m.permissions)
            .is_some_and(|p| p.manage_guild()),
        roles: member
            .map(|m| m.roles.iter().map(|r| r.domain()).collect())
            .unwrap_or_default(),
    };
    let leagues = ctx.data().services.leagues();
    Ok(leagues.check_organiser(guild, &organiser).await?)
}

/// The server of a `/league` command.
#[allow(clippy::result_large_err)]
fn server(ctx: Context<'_>) -> Result<kaboom_domain::ids::GuildId, ServiceError> {
    Ok(ctx.guild_id().ok_or(LeagueRefusal::OutsideServer)?.domain())
}

/// The server and the league id of a `league` option (`12` or `#12`).
#[allow(clippy::result_large_err)]
fn league_option(
    ctx: Context<'_>,
    text: &str,
) -> Result<(kaboom_domain::ids::GuildId, i64), ServiceError> {
    let guild = server(ctx)?;
    let id =
        text.trim()
            .trim_start_matches('#')
            .parse()
            .map_err(|_| LeagueRefusal::NotALeague {
                typed: text.to_string(),
            })?;
    Ok((guild, id))
}

/// Create a league in this channel: players join with the button on its post.
///
/// Round-robin: everyone plays everyone. Swiss: a fixed number of rounds, each player
/// meeting others with the same score. Each round lasts the days you set; a round-robin
/// starts its next round on time even if games still run (they count when they end), a
/// Swiss adjudicates games still running after a grace period.
#[poise::command(slash_command, guild_only)]
#[allow(clippy::too_many_arguments)] // one argument per slash option
pub async fn create(
    ctx: Context<'_>,
    #[description = "The league's name"]
    #[max_length = 100]
    name: String,
    #[description = "Which variant to play"] variant: VariantChoice,
    #[description = "Round-robin or Swiss"] format: FormatChoice,
    #[description = "Swiss: number of rounds"]
    #[min = 1]
    #[max = 63]
    rounds: Option<u32>,
    #[description = "Time for each move (default 3 days)"] days_per_move: Option<LeagueDays>,
    #[description = "Days per round (default: twice the days per move)"]
    #[min = 1]
    #[max = 60]
    round_days: Option<u32>,
    #[description = "Rated games (default yes)"] rated: Option<bool>,
    #[description = "Sign-up closes after this many days (default: when an organiser starts it)"]
    #[min = 1]
    #[max = 30]
    sign_up_days: Option<u32>,
    #[description = "Sign-up closes at this many players"]
    #[min = 2]
    #[max = 64]
    player_limit: Option<u32>,
    #[description = "Swiss: what a bye is worth (default 1 point)"] bye: Option<ByeChoice>,
    #[description = "Beirut: carriers per side, 1-15 (default 1)"]
    #[min = 1]
    #[max = 15]
    carriers: Option<u8>,
    #[description = "Beirut: a captured carrier explodes (default off)"] dead_mans_switch: Option<
        bool,
    >,
) -> Result<(), Error> {
    crate::place::check_challenge(ctx).map_err(ServiceError::from)?;
    let guild = server(ctx)?;
    check_organiser(ctx, guild).await?;
    let services = &ctx.data().services;
    let days = days_per_move.map_or(DEFAULT_DAYS_PER_MOVE, LeagueDays::days);
    let format = match format {
        FormatChoice::RoundRobin => LeagueFormat::RoundRobin {
            cycles: Cycles::Single,
            both_colours_at_once: false,
        },
        FormatChoice::DoubleRoundRobin => LeagueFormat::RoundRobin {
            cycles: Cycles::Double,
            both_colours_at_once: false,
        },
        FormatChoice::DoubleAtOnce => LeagueFormat::RoundRobin {
            cycles: Cycles::Double,
            both_colours_at_once: true,
        },
        FormatChoice::Swiss => LeagueFormat::Swiss {
            rounds: rounds.unwrap_or(5),
        },
    };
    let now = services.clock().now();
    let new = NewLeague {
        place: LeaguePlace {
            guild_id: guild,
            channel_id: ctx.channel_id().domain(),
            created_by: ctx.author().id.domain(),
        },
        name,
        variant: variant.into(),
        options: super::challenge::beirut_options(carriers, dead_mans_switch),
        format,
        settings: LeagueSettings {
            days_per_move: days,
            round_length_secs: i64::from(round_days.unwrap_or(2 * days)) * league::DAY,
            bye_value: match bye {
                None | Some(ByeChoice::Full) => ByeValue::Full,
                Some(ByeChoice::Half) => ByeValue::Half,
                Some(ByeChoice::Zero) => ByeValue::Zero,
            },
            adjudication_grace_secs: i64::from(days) * league::DAY,
            rated: rated.unwrap_or(true),
        },
        sign_up: SignUp {
            deadline: sign_up_days.map(|d| now + i64::from(d) * league::DAY),
            player_limit,
        },
    };
    let row = services.leagues().create(new).await?;
    let posted = ctx.data().outbox.settle_league(row.id).await?;
    say_private(ctx, words::created(&row, posted)).await
}

/// Close sign-up now and start the first round.
#[poise::command(slash_command, guild_only)]
pub async fn start(
    ctx: Context<'_>,
    #[description = "Which league"]
    #[autocomplete = "autocomplete_league"]
    #[max_length = 100]
    league: String,
) -> Result<(), Error> {
    change(ctx, &league, Change::Start).await
}

/// Pause a league: no round starts and no game is adjudicated until it resumes.
///
/// Games in progress go on with their own time per move.
#[poise::command(slash_command, guild_only)]
pub async fn pause(
    ctx: Context<'_>,
    #[description = "Which league"]
    #[autocomplete = "autocomplete_league"]
    #[max_length = 100]
    league: String,
) -> Result<(), Error> {
    change(ctx, &league, Change::Pause).await
}

/// Resume a paused league: the current round's deadline moves back by the pause.
#[poise::command(slash_command, guild_only)]
pub async fn resume(
    ctx: Context<'_>,
    #[description = "Which league"]
    #[autocomplete = "autocomplete_league"]
    #[max_length = 100]
    league: String,
) -> Result<(), Error> {
    change(ctx, &league, Change::Resume).await
}

/// A league's standings: points, then tie-breaks.
#[poise::command(slash_command, guild_only)]
pub async fn standings(
    ctx: Context<'_>,
    #[description = "Which league"]
    #[autocomplete = "autocomplete_league"]
    #[max_length = 100]
    league: String,
) -> Result<(), Error> {
    let (guild, id) = league_option(ctx, &league)?;
    let row = ctx.data().services.leagues().get(id, guild).await?;
    say_private(ctx, words::standings_reply(&row)).await
}

/// This server's leagues.
#[poise::command(slash_command, guild_only)]
pub async fn list(ctx: Context<'_>) -> Result<(), Error> {
    let guild = server(ctx)?;
    let rows = ctx.data().services.leagues().in_guild(guild, true).await?;
    say_private(ctx, words::list(&rows)).await
}

/// Leave a league that has started: your games played count, the rest are forfeits.
#[poise::command(slash_command, guild_only)]
pub async fn withdraw(
    ctx: Context<'_>,
    #[description = "Which league"]
    #[autocomplete = "autocomplete_league"]
    #[max_length = 100]
    league: String,
) -> Result<(), Error> {
    change(ctx, &league, Change::Withdraw).await
}

/// Download a league as a FIDE tournament report (TRF) and all its games as one PGN.
#[poise::command(slash_command, guild_only)]
pub async fn export(
    ctx: Context<'_>,
    #[description = "Which league"]
    #[autocomplete = "autocomplete_league"]
    #[max_length = 100]
    league: String,
) -> Result<(), Error> {
    let (guild, id) = league_option(ctx, &league)?;
    let (trf, pgn) = ctx.data().services.leagues().export(id, guild).await?;
    crate::respond::send(
        ctx,
        poise::CreateReply::default()
            .content(words::exported(id))
            .attachment(serenity::CreateAttachment::bytes(
                trf.into_bytes(),
                format!("kaboom-league-{id}.trf"),
            ))
            .attachment(serenity::CreateAttachment::bytes(
                pgn.into_bytes(),
                format!("kaboom-league-{id}.pgn"),
            ))
            .ephemeral(true),
    )
    .await?;
    Ok(())
}
