//! `/moderate abort` and `/moderate result`: a server's moderators end a stuck or abusive
//! game. By default only members with Discord's Moderate Members permission see and may
//! use them (`default_member_permissions`: Discord itself hides and refuses them to the
//! others); a server can give them to other roles on its Integrations page, which the bot
//! respects, so it checks no permission of its own. The game must be one of this server's.

use super::say_private;
use crate::flows;
use crate::ids::Domain;
use crate::types::{Context, Error};
use kaboom_rules::Color;
use kaboom_service::{ModeratorRuling, Ruling};

/// The result a moderator gives (the option's choices).
#[derive(Copy, Clone, Debug, poise::ChoiceParameter)]
pub enum ResultChoice {
    /// White wins.
    #[name = "White wins"]
    WhiteWins,
    /// Black wins.
    #[name = "Black wins"]
    BlackWins,
    /// A draw.
    #[name = "Draw"]
    Draw,
}

/// Moderators: end a stuck or abusive game of this server.
#[poise::command(
    slash_command,
    guild_only,
    subcommands("abort", "result"),
    default_member_permissions = "MODERATE_MEMBERS"
)]
pub async fn moderate(_ctx: Context<'_>) -> Result<(), Error> {
    Ok(())
}

/// Call a game off: no result, not rated. The reason is posted in its thread.
#[poise::command(
    slash_command,
    guild_only,
    default_member_permissions = "MODERATE_MEMBERS"
)]
pub async fn abort(
    ctx: Context<'_>,
    #[description = "Which game, e.g. 12"]
    #[autocomplete = "autocomplete_server_game"]
    #[max_length = 100]
    game: String,
    #[description = "Why, posted in the game's thread"]
    #[max_length = 300]
    reason: String,
) -> Result<(), Error> {
    rule(ctx, &game, Ruling::Abort, reason).await
}

/// Decide a game's result; it counts for ratings as the game was. The reason is posted.
#[poise::command(
    slash_command,
    guild_only,
    default_member_permissions = "MODERATE_MEMBERS"
)]
pub async fn result(
    ctx: Context<'_>,
    #[description = "Which game, e.g. 12"]
    #[autocomplete = "autocomplete_server_game"]
    #[max_length = 100]
    game: String,
    #[description = "The result"] result: ResultChoice,
    #[description = "Why, posted in the game's thread"]
    #[max_length = 300]
    reason: String,
) -> Result<(), Error> {
    let winner = match result {
        ResultChoice::WhiteWins => Some(Color::White),
        ResultChoice::BlackWins => Some(Color::Black),
        ResultChoice::Draw => None,
    };
    rule(ctx, &game, Ruling::Result(winner), reason).await
}

/// Autocomplete for the `game` option: the caller's own running games first is of no use
/// to a moderator, so this lists the running games of this server (newest first, at most
/// 25): `#12 Atomic: alice vs bob`.
async fn autocomplete_server_game(
    ctx: Context<'_>,
    partial: &str,
) -> poise::serenity_prelude::CreateAutocompleteResponse {
    let choices = match ctx.guild_id() {
        Some(guild) => ctx
            .data()
            .services
            .games()
            .running_in_server(guild.domain())
            .await
            .unwrap_or_default(),
        None => Vec::new(),
    };
    let typed = partial.trim().trim_start_matches('#').to_lowercase();
    let choices = choices
        .into_iter()
        .map(|row| {
            let label = format!(
                "#{} {}: {} vs {}",
                row.id,
                row.variant.title(),
                row.white_name,
                row.black_name
            );
            (label, row.id.to_string())
        })
        .filter(|(label, _)| typed.is_empty() || label.to_lowercase().contains(&typed))
        .take(25)
        .map(|(label, value)| {
            poise::serenity_prelude::AutocompleteChoice::new(
                kaboom_service::suggest::clip(label),
                value,
            )
        })
        .collect();
    poise::serenity_prelude::CreateAutocompleteResponse::new().set_choices(choices)
}

/// Ends the game of the `game` option by `ruling`, waits for its final board, and answers
/// the moderator privately.
async fn rule(ctx: Context<'_>, game: &str, ruling: Ruling, reason: String) -> Result<(), Error> {
    crate::respond::defer(ctx, true).await?;
    let id = super::resolve_game(ctx, Some(game)).await?;
    let by = ModeratorRuling {
        moderator: ctx.author().id.domain(),
        name: ctx.author().display_name().to_string(),
        reason,
    };
    let guild = ctx.guild_id().map(Domain::domain);
    let ended = ctx
        .data()
        .services
        .games()
        .moderate(id, guild, ruling, by)
        .await?;
    let text = flows::after_end(&ctx.data().outbox, &ended).await?;
    say_private(ctx, text).await
}
