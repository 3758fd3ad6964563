//! `/puzzle solve|move|daily|rating`: variant puzzles, answered privately move by move.

use poise::serenity_prelude as serenity;

use super::challenge::VariantChoice;
use crate::ids::Domain;
use crate::messages::puzzles as words;
use crate::types::{Context, Error};
use kaboom_rules::{Variant, Viewer};

/// Solve puzzles in every variant: find the move that wins.
#[poise::command(slash_command, subcommands("solve", "move_", "daily", "rating"))]
pub async fn puzzle(_ctx: Context<'_>) -> Result<(), Error> {
    Ok(())
}

async fn autocomplete_theme(
    ctx: Context<'_>,
    partial: &str,
) -> serenity::CreateAutocompleteResponse {
    let themes = ctx
        .data()
        .services
        .puzzles()
        .themes()
        .await
        .unwrap_or_default();
    let typed = partial.trim().to_lowercase();
    let choices = themes
        .into_iter()
        .filter(|t| words::theme_words(t).contains(&typed) || t.contains(&typed))
        .take(25)
        .map(|t| serenity::AutocompleteChoice::new(words::theme_words(&t), t));
    serenity::CreateAutocompleteResponse::new().set_choices(choices.collect())
}

/// A puzzle near your puzzle rating, that only you see.
#[poise::command(slash_command)]
pub async fn solve(
    ctx: Context<'_>,
    #[description = "Which variant (default: Atomic)"] variant: Option<VariantChoice>,
    #[description = "Only puzzles with this theme"]
    #[autocomplete = "autocomplete_theme"]
    #[max_length = 40]
    theme: Option<String>,
    #[description = "A puzzle by its id (e.g. one a friend shared)"]
    #[max_length = 20]
    id: Option<String>,
) -> Result<(), Error> {
    crate::respond::defer(ctx, true).await?;
    let services = &ctx.data().services;
    let user = ctx.author().id.domain();
    let view = match id {
        Some(id) => services.puzzles().try_puzzle(user, id.trim(), None).await?,
        None => {
            let variant = variant.map_or(Variant::Atomic, Variant::from);
            let theme = theme.map(|t| t.trim().to_lowercase().replace(' ', "-"));
            services
                .puzzles()
                .next(user, variant, theme.as_deref())
                .await?
        }
    };
    let (text, png) = crate::puzzle::shown(services, &view).await?;
    send(ctx, text, Some(png)).await
}

async fn autocomplete_answer(
    ctx: Context<'_>,
    partial: &str,
) -> serenity::CreateAutocompleteResponse {
    let services = &ctx.data().services;
    let choices = match services.puzzles().current(ctx.author().id.domain()).await {
        Ok(Some(view)) => kaboom_service::suggest::suggestions(
            &view.game,
            Viewer::player(view.solver),
            partial,
            25,
        )
        .into_iter()
        .map(|s| serenity::AutocompleteChoice::new(s.label, s.value))
        .collect(),
        _ => Vec::new(),
    };
    serenity::CreateAutocompleteResponse::new().set_choices(choices)
}

/// Answer your puzzle with a move (type it, or pick it from the list).
#[poise::command(slash_command, rename = "move")]
pub async fn move_(
    ctx: Context<'_>,
    #[description = "Your move, e.g. Nf3 or g1f3"]
    #[autocomplete = "autocomplete_answer"]
    #[max_length = 100]
    action: String,
) -> Result<(), Error> {
    crate::respond::defer(ctx, true).await?;
    let services = &ctx.data().services;
    let answered = services
        .puzzles()
        .answer(ctx.author().id.domain(), &action)
        .await?;
    let png = crate::puzzle::attachment(crate::puzzle::paint(services, answered.view()).await?);
    send(ctx, words::answered(&answered), Some(png)).await
}

/// Today's puzzle of this server.
#[poise::command(slash_command, guild_only)]
pub async fn daily(ctx: Context<'_>) -> Result<(), Error> {
    crate::respond::defer(ctx, true).await?;
    let services = &ctx.data().services;
    let Some(guild) = ctx.guild_id() else {
        return send(ctx, words::NO_DAILY.to_string(), None).await;
    };
    let Some(today) = services.puzzles().today(guild.domain()).await? else {
        return send(ctx, words::NO_DAILY.to_string(), None).await;
    };
    let view = services
        .puzzles()
        .try_puzzle(
            ctx.author().id.domain(),
            &today.puzzle_id,
            Some(guild.domain()),
        )
        .await?;
    let (text, png) = crate::puzzle::shown(services, &view).await?;
    send(ctx, text, Some(png)).await
}

/// Your puzzle ratings and streaks.
#[poise::command(slash_command)]
pub async fn rating(ctx: Context<'_>) -> Result<(), Error> {
    crate::respond::defer(ctx, true).await?;
    let services = &ctx.data().services;
    let user = ctx.author().id.domain();
    let mut lines = vec!["**Your puzzle ratings**".to_string()];
    for variant in Variant::ALL {
        let r = services.puzzles().rating(user, variant).await?;
        if r.attempts > 0 || r.streak > 0 {
            lines.push(words::rating_summary(variant, &r));
        }
    }
    if lines.len() == 1 {
        lines.push(words::NO_RATING.to_string());
    }
    send(ctx, lines.join("\n"), None).await
}

async fn send(
    ctx: Context<'_>,
    text: String,
    png: Option<serenity::CreateAttachment>,
) -> Result<(), Error> {
    let mut reply = poise::CreateReply::default()
        .content(text)
        .ephemeral(true)
        .allowed_mentions(crate::messages::mentions::none());
    if let Some(png) = png {
        reply = reply.attachment(png);
    }
    crate::respond::send(ctx, reply).await
}
