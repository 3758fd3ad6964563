//! Slash commands, one module per feature. Their doc comments are the help players see.

// poise's macro turns each command's doc comment into its Discord description and help,
// leaving the generated function undocumented for rustdoc: hence the allow.
#[allow(missing_docs)]
pub mod analysis;
#[allow(missing_docs)]
pub mod challenge;
#[allow(missing_docs)]
pub mod comforts;
#[allow(missing_docs)]
pub mod game;
#[allow(missing_docs)]
pub mod info;
#[allow(missing_docs)]
pub mod league;
#[allow(missing_docs)]
pub mod moderate;
#[allow(missing_docs)]
pub mod play;
#[allow(missing_docs)]
pub mod practice;
#[allow(missing_docs)]
pub mod privacy;
#[allow(missing_docs)]
pub mod puzzle;
#[allow(missing_docs)]
pub mod ratings;
#[allow(missing_docs)]
pub mod replay;
#[allow(missing_docs)]
pub mod seek;
#[allow(missing_docs)]
pub mod settings;

use poise::serenity_prelude as serenity;

use crate::ids::Domain;
use crate::limiter::Counted;
use crate::messages;
use crate::types::{Context, Data, Error};
use kaboom_domain::ids::GameId;
use kaboom_service::{Refusal, ServiceError};

/// Every command of the bot, each declaring where it works ([`declare_where`]).
pub fn all() -> Vec<poise::Command<Data, Error>> {
    let mut commands = every_command();
    for command in &mut commands {
        declare_where(command);
    }
    commands
}

/// The commands that work only in a server that added the bot: the server's own settings
/// and leagues, moderation, and practice games (which need a thread).
pub const SERVER_ONLY: [&str; 3] = ["league", "moderate", "play-bot"];

/// Sets where `command` is offered (Discord's installation and interaction contexts,
/// <https://discord.com/developers/docs/interactions/application-commands#contexts>): a
/// [`SERVER_ONLY`] or `guild_only` command as a server install in servers; every other one
/// for both installations (the bot added to a server, the app installed to a player's
/// account) in servers, the bot's DM and other DMs and group DMs. Both lists are always
/// sent: Discord's defaults when they are left out differ from its documentation.
/// `/settings` works everywhere for `/settings me`; `/settings server` answers outside a
/// server that it is a server's setting.
pub fn declare_where(command: &mut poise::Command<Data, Error>) {
    use serenity::{InstallationContext as Install, InteractionContext as Where};
    if command.guild_only || SERVER_ONLY.iter().any(|name| command.name == *name) {
        command.guild_only = true;
        command.install_context = Some(vec![Install::Guild]);
        command.interaction_context = Some(vec![Where::Guild]);
    } else {
        command.install_context = Some(vec![Install::Guild, Install::User]);
        command.interaction_context = Some(vec![Where::Guild, Where::BotDm, Where::PrivateChannel]);
    }
}

/// Every command, before [`declare_where`].
fn every_command() -> Vec<poise::Command<Data, Error>> {
    vec![
        challenge::challenge(),
        seek::seek(),
        seek::seeks(),
        practice::play_bot(),
        play::move_(),
        play::board(),
        game::resign(),
        game::draw(),
        game::abort(),
        info::games(),
        ratings::profile(),
        ratings::leaderboard(),
        info::pgn(),
        info::rules(),
        info::help(),
        settings::settings(),
        comforts::premove(),
        comforts::vacation(),
        comforts::takeback(),
        comforts::note(),
        replay::replay(),
        league::league(),
        analysis::analysis(),
        analysis::moves(),
        moderate::moderate(),
        privacy::privacy(),
        puzzle::puzzle(),
    ]
}

/// After a command: what the caller missed while Discord refused to DM them (a game played
/// by DM), as a private follow-up ([`kaboom_service::Deliveries::take_missed`]). A failure
/// here is logged: the command itself was answered.
pub async fn show_missed(ctx: Context<'_>) {
    if matches!(ctx, poise::Context::Prefix(_)) {
        return;
    }
    let Some(text) = crate::components::missed_text(ctx.data(), ctx.author().id).await else {
        return;
    };
    if let Err(e) = crate::respond::send(
        ctx,
        poise::CreateReply::default().content(text).ephemeral(true),
    )
    .await
    {
        tracing::warn!(error = %e, "could not show a player what they missed");
    }
}

/// Answers only the caller.
///
/// # Errors
/// A Discord error.
pub async fn say_private(ctx: Context<'_>, text: impl Into<String>) -> Result<(), Error> {
    let text = messages::fit_message(text.into());
    crate::respond::send(
        ctx,
        poise::CreateReply::default().content(text).ephemeral(true),
    )
    .await?;
    Ok(())
}

/// Parses a `game` option: `12` or `#12`.
fn parse_game_option(text: &str) -> Result<GameId, ServiceError> {
    text.trim().trim_start_matches('#').parse().map_err(|_| {
        ServiceError::Refused(Refusal::NotAGame {
            typed: text.to_string(),
        })
    })
}

/// The `game` option typed so far in an autocomplete request, if any, at the top level or
/// inside a subcommand (`/premove line game:12`).
fn typed_game_option(ctx: Context<'_>) -> Option<String> {
    fn find(options: &[serenity::CommandDataOption]) -> Option<String> {
        options.iter().find_map(|o| match &o.value {
            serenity::CommandDataOptionValue::String(s) if o.name == "game" => Some(s.clone()),
            serenity::CommandDataOptionValue::SubCommand(sub) => find(sub),
            _ => None,
        })
    }
    let poise::Context::Application(app) = ctx else {
        return None;
    };
    find(&app.interaction.data.options)
}

/// The game an autocomplete request is about, best effort: the `game` option typed so far
/// (`12` or `#12`), else the game of the thread, else the caller's only active game; `None`
/// when none can be told (autocomplete then offers nothing rather than an error).
pub(crate) async fn autocomplete_target(ctx: Context<'_>) -> Option<GameId> {
    let services = &ctx.data().services;
    match typed_game_option(ctx) {
        Some(g) => parse_game_option(&g).ok(),
        None => match services
            .games()
            .game_in_thread(ctx.channel_id().domain())
            .await
        {
            Ok(Some(id)) => Some(id),
            _ => services
                .games()
                .active_games(ctx.author().id.domain())
                .await
                .ok()
                .filter(|g| g.len() == 1)
                .map(|g| g[0].id),
        },
    }
}

/// The `game` option typed so far in an autocomplete request, parsed (`12` or `#12`);
/// `None` when it was not typed.
pub(crate) fn typed_game(ctx: Context<'_>) -> Option<Result<GameId, ServiceError>> {
    typed_game_option(ctx).map(|g| parse_game_option(&g))
}

/// An autocomplete answer listing `suggestions` (at most 25, as the service returns them);
/// empty when they could not be computed, since autocomplete has no way to show an error.
pub(crate) fn suggestion_choices(
    suggestions: Result<Vec<kaboom_service::Suggestion>, ServiceError>,
) -> serenity::CreateAutocompleteResponse {
    let choices = suggestions
        .unwrap_or_default()
        .into_iter()
        .map(|s| serenity::AutocompleteChoice::new(s.label, s.value))
        .collect();
    serenity::CreateAutocompleteResponse::new().set_choices(choices)
}

/// The game a command is about: the `game` option if given, else the game of the thread
/// it is used in, else the caller's only active game.
///
/// # Errors
/// [`ServiceError::Refused`] when none can be told.
pub async fn resolve_game(ctx: Context<'_>, game: Option<&str>) -> Result<GameId, Error> {
    let services = &ctx.data().services;
    if let Some(text) = game {
        return Ok(parse_game_option(text)?);
    }
    if let Some(id) = services
        .games()
        .game_in_thread(ctx.channel_id().domain())
        .await?
    {
        return Ok(id);
    }
    let mine = services
        .games()
        .active_games(ctx.author().id.domain())
        .await?;
    if mine.len() == 1 {
        return Ok(mine[0].id);
    }
    Err(ServiceError::Refused(Refusal::WhichGame).into())
}

/// The game of a `game` option ([`resolve_game`]) if the caller may read it here: its
/// server's members, or its players in a direct message (`Games::load_readable`).
///
/// # Errors
/// As [`resolve_game`]; [`Refusal::NotReadableHere`] outside the game's server.
pub async fn readable_game(
    ctx: Context<'_>,
    game: Option<&str>,
) -> Result<kaboom_service::Snapshot, Error> {
    let id = resolve_game(ctx, game).await?;
    let guild = ctx.guild_id().map(Domain::domain);
    let games = ctx.data().services.games();
    Ok(games
        .load_readable(id, ctx.author().id.domain(), guild)
        .await?)
}

/// Autocomplete for `game` options: the caller's active games.
pub async fn autocomplete_game(
    ctx: Context<'_>,
    partial: &str,
) -> serenity::CreateAutocompleteResponse {
    let user = ctx.author().id.domain();
    let games = ctx
        .data()
        .services
        .games()
        .active_games(user)
        .await
        .unwrap_or_default();
    let mut choices = Vec::new();
    for g in games {
        let opponent = if g.white_id == user {
            &g.black_name
        } else {
            &g.white_name
        };
        let label = format!("#{} {} vs {}", g.id, g.variant.title(), opponent);
        if partial.is_empty() || label.to_lowercase().contains(&partial.to_lowercase()) {
            choices.push(serenity::AutocompleteChoice::new(label, g.id.to_string()));
        }
        if choices.len() == 25 {
            break;
        }
    }
    serenity::CreateAutocompleteResponse::new().set_choices(choices)
}

/// The refusal a member gets who lacks `missing` for `/{command}` (its qualified name, e.g.
/// `settings server`). Permissions are named as Discord's server settings name them
/// (serenity's "Manage Guild" is "Manage Server" there). `None`: poise could not tell which.
pub fn missing_permissions_text(command: &str, missing: Option<serenity::Permissions>) -> String {
    match missing {
        Some(missing) if !missing.is_empty() => {
            let names: Vec<&str> = missing
                .get_permission_names()
                .into_iter()
                .map(|n| match n {
                    "Manage Guild" => "Manage Server",
                    other => other,
                })
                .collect();
            let (noun, list) = match names.as_slice() {
                [one] => ("permission", (*one).to_string()),
                [rest @ .., last] => ("permissions", format!("{} and {last}", rest.join(", "))),
                [] => ("permissions", String::new()),
            };
            format!(
                "`/{command}` needs the {list} {noun}, which you do not have in this server. Ask a server admin to do it."
            )
        }
        _ => format!(
            "You may lack a permission that `/{command}` needs, so it was not run. Ask a server admin."
        ),
    }
}

/// Marks an interaction [`within_rate`] has counted.
struct RateCounted;

/// The framework's check before every command ([`crate::limiter`]): counts it against the
/// player's commands per minute, or a keystroke in an option with suggestions against
/// their keystrokes per minute ([`Counted::Keystroke`]).
///
/// # Errors
/// [`Error::SlowDown`] when the player is over the rate (answered by [`on_error`]: a
/// private "slow down", or no suggestions for a keystroke);
/// [`Error::Service`] when the server's rate cannot be read.
pub async fn within_rate(ctx: Context<'_>) -> Result<bool, Error> {
    let counted = if is_autocomplete(ctx) {
        Counted::Keystroke
    } else {
        Counted::Command
    };
    // poise runs this check once for each command of the chain (`/vacation`, then its
    // `status`): one interaction counts once.
    if ctx.invocation_data::<RateCounted>().await.is_some() {
        return Ok(true);
    }
    ctx.set_invocation_data(RateCounted).await;
    let data = ctx.data();
    let guild = ctx.guild_id().map(|g| g.domain());
    data.limiter
        .check(&data.services, counted, ctx.author().id.domain(), guild)
        .await?;
    Ok(true)
}

/// Whether `ctx` is an autocomplete interaction (a keystroke in an option with
/// suggestions), which is answered with suggestions only, never with a message.
fn is_autocomplete(ctx: Context<'_>) -> bool {
    matches!(ctx, poise::Context::Application(app)
        if app.interaction_type == poise::CommandInteractionType::Autocomplete)
}

/// The one error handler: tells the user ephemerally what went wrong, and logs.
pub async fn on_error(error: poise::FrameworkError<'_, Data, Error>) {
    match error {
        // A keystroke past its rate gets no suggestions: an autocomplete interaction can
        // only be answered with choices (callback type 8, "Interaction Response Object"
        // in Discord's "Receiving and Responding" docs), here none.
        poise::FrameworkError::CommandCheckFailed {
            error: Some(Error::SlowDown(_)),
            ctx: poise::Context::Application(app),
            ..
        } if app.interaction_type == poise::CommandInteractionType::Autocomplete => {
            let none = serenity::CreateInteractionResponse::Autocomplete(
                serenity::CreateAutocompleteResponse::new(),
            );
            if let Err(e) = app
                .interaction
                .create_response(app.serenity_context(), none)
                .await
            {
                tracing::warn!(error = %e, "could not answer a keystroke past its rate");
            }
        }
        poise::FrameworkError::CommandCheckFailed {
            error: Some(Error::SlowDown(slow)),
            ctx,
            ..
        } => {
            if let Err(e) = say_private(ctx, messages::slow_down(slow)).await {
                tracing::warn!(error = %e, "could not tell a player to slow down");
            }
        }
        poise::FrameworkError::MissingUserPermissions {
            missing_permissions,
            ctx,
            ..
        } => {
            let text = missing_permissions_text(&ctx.command().qualified_name, missing_permissions);
            if let Err(e) = say_private(ctx, text).await {
                tracing::warn!(error = %e, "could not report missing permissions to the user");
            }
        }
        poise::FrameworkError::GuildOnly { ctx, .. } => {
            let text = messages::server_only(&ctx.command().qualified_name);
            if let Err(e) = say_private(ctx, text).await {
                tracing::warn!(error = %e, "could not report a server-only command to the user");
            }
        }
        poise::FrameworkError::Command { error, ctx, .. } => {
            let text = match &error {
                Error::Service(refused @ ServiceError::Refused(_)) => {
                    messages::service_error(refused)
                }
                other => {
                    tracing::error!(command = %ctx.command().name, error = %other, "command failed");
                    messages::failure::failure_text(other)
                }
            };
            if let Err(e) = say_private(ctx, text).await {
                tracing::warn!(error = %e, "could not report an error to the user");
            }
        }
        // An option's value the command does not offer (a choice index out of range, a
        // number outside its bounds, a value of the wrong type): only a modified client
        // sends one, but every interaction gets an answer.
        poise::FrameworkError::ArgumentParse {
            error, input, ctx, ..
        } => {
            tracing::warn!(command = %ctx.command().qualified_name, error = %error, "an option's value did not read");
            let text =
                messages::option_not_offered(&ctx.command().qualified_name, input.as_deref());
            if let Err(e) = say_private(ctx, text).await {
                tracing::warn!(error = %e, "could not report an unreadable option");
            }
        }
        poise::FrameworkError::CommandStructureMismatch {
            description, ctx, ..
        } => {
            tracing::warn!(command = %ctx.command().qualified_name, description, "a command's options did not match its registration");
            let ctx = poise::Context::Application(ctx);
            let text = messages::option_not_offered(&ctx.command().qualified_name, None);
            if let Err(e) = say_private(ctx, text).await {
                tracing::warn!(error = %e, "could not report an unreadable option");
            }
        }
        other => {
            if let Err(e) = poise::builtins::on_error(other).await {
                tracing::error!(error = %e, "error while handling an error");
            }
        }
    }
}
