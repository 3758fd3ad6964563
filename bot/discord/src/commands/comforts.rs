//! `/premove`, `/vacation`, `/takeback` and `/note`. Every answer is private
//! (ephemeral); what the opponent must know goes to the thread through the outbox.

use poise::serenity_prelude as serenity;

use super::{autocomplete_game, resolve_game, say_private};
use crate::flows;
use crate::ids::Domain;
use crate::messages::comforts as words;
use crate::types::{Context, Error};

async fn autocomplete_line(
    ctx: Context<'_>,
    partial: &str,
) -> serenity::CreateAutocompleteResponse {
    let Some(id) = super::autocomplete_target(ctx).await else {
        return serenity::CreateAutocompleteResponse::new();
    };
    let user = ctx.author().id.domain();
    super::suggestion_choices(
        ctx.data()
            .services
            .comforts()
            .suggest_line(id, user, partial)
            .await,
    )
}

/// Conditional moves: replies the bot plays for you when your opponent plays what you expect.
#[poise::command(slash_command, subcommands("line", "list", "clear"))]
pub async fn premove(_ctx: Context<'_>) -> Result<(), Error> {
    Ok(())
}

/// Add a conditional line: your opponent's move, your reply, and so on (only you see it).
///
/// On your opponent's turn, `Nf6 e5 Nd5 c4` means: if they play Nf6, reply e5; then if
/// Nd5, reply c4. On your own turn the line starts with your move, which is played now.
#[poise::command(slash_command)]
pub async fn line(
    ctx: Context<'_>,
    #[description = "Moves, e.g. Nf6 e5 Nd5 c4 (opponent's first)"]
    #[autocomplete = "autocomplete_line"]
    #[max_length = 300]
    line: String,
    #[description = "Which game (only needed outside its thread)"]
    #[autocomplete = "autocomplete_game"]
    #[max_length = 100]
    game: Option<String>,
) -> Result<(), Error> {
    crate::respond::defer(ctx, true).await?;
    let id = resolve_game(ctx, game.as_deref()).await?;
    let user = ctx.author().id.domain();
    let added = ctx
        .data()
        .services
        .comforts()
        .add_line(id, user, &line)
        .await?;
    let mut text = words::line_stored(id, &added.line);
    if let Some(played) = &added.played {
        let ack = flows::after_play(ctx.data(), played, ctx.channel_id().domain()).await?;
        text = format!("{ack}\n{text}");
    }
    say_private(ctx, text).await
}

/// List your conditional lines in a game (only you see them).
#[poise::command(slash_command)]
pub async fn list(
    ctx: Context<'_>,
    #[description = "Which game (only needed outside its thread)"]
    #[autocomplete = "autocomplete_game"]
    #[max_length = 100]
    game: Option<String>,
) -> Result<(), Error> {
    crate::respond::defer(ctx, true).await?;
    let id = resolve_game(ctx, game.as_deref()).await?;
    let lines = ctx
        .data()
        .services
        .comforts()
        .lines(id, ctx.author().id.domain())
        .await?;
    say_private(ctx, words::lines_list(id, &lines)).await
}

/// Remove all your conditional lines in a game.
#[poise::command(slash_command)]
pub async fn clear(
    ctx: Context<'_>,
    #[description = "Which game (only needed outside its thread)"]
    #[autocomplete = "autocomplete_game"]
    #[max_length = 100]
    game: Option<String>,
) -> Result<(), Error> {
    crate::respond::defer(ctx, true).await?;
    let id = resolve_game(ctx, game.as_deref()).await?;
    let n = ctx
        .data()
        .services
        .comforts()
        .clear_lines(id, ctx.author().id.domain())
        .await?;
    say_private(ctx, words::lines_cleared(id, n)).await
}

/// Vacation: your clocks stop in all your games while you are away (a yearly allowance).
#[poise::command(
    slash_command,
    subcommands(
        "vacation_start",
        "vacation_end",
        "vacation_status",
        "vacation_allowance"
    )
)]
pub async fn vacation(_ctx: Context<'_>) -> Result<(), Error> {
    Ok(())
}

/// Go on vacation: your clocks stand still and reminders pause; your opponents are told.
#[poise::command(slash_command, rename = "start")]
pub async fn vacation_start(
    ctx: Context<'_>,
    #[description = "How many days (default: all you have left this year)"]
    #[min = 1]
    #[max = 365]
    days: Option<u32>,
) -> Result<(), Error> {
    crate::respond::defer(ctx, true).await?;
    let services = &ctx.data().services;
    let started = services
        .comforts()
        .start_vacation(
            ctx.author().id.domain(),
            ctx.author().display_name(),
            ctx.guild_id().map(Domain::domain),
            days,
        )
        .await?;
    ctx.data().outbox.kick();
    say_private(ctx, words::vacation_start_reply(&started)).await
}

/// End your vacation early: your clocks run again.
#[poise::command(slash_command, rename = "end")]
pub async fn vacation_end(ctx: Context<'_>) -> Result<(), Error> {
    crate::respond::defer(ctx, true).await?;
    ctx.data()
        .services
        .comforts()
        .end_vacation(ctx.author().id.domain())
        .await?;
    ctx.data().outbox.kick();
    say_private(ctx, words::vacation_end_reply()).await
}

/// How many vacation days you have left this year.
#[poise::command(slash_command, rename = "status")]
pub async fn vacation_status(ctx: Context<'_>) -> Result<(), Error> {
    let (left, allowance, running) = ctx
        .data()
        .services
        .comforts()
        .vacation_days_left(ctx.author().id.domain(), ctx.guild_id().map(Domain::domain))
        .await?;
    say_private(
        ctx,
        words::vacation_status(left, allowance, running.as_ref()),
    )
    .await
}

/// The server's yearly vacation allowance in days (needs the Manage Server permission).
#[poise::command(
    slash_command,
    rename = "allowance",
    guild_only,
    required_permissions = "MANAGE_GUILD",
    default_member_permissions = "MANAGE_GUILD"
)]
pub async fn vacation_allowance(
    ctx: Context<'_>,
    #[description = "Days per player and year (default 14)"]
    #[min = 1]
    #[max = 365]
    days: u32,
) -> Result<(), Error> {
    let Some(guild) = ctx.guild_id() else {
        return say_private(ctx, "Server settings can only be changed in a server.").await;
    };
    ctx.data()
        .services
        .comforts()
        .set_vacation_allowance(guild.domain(), days)
        .await?;
    say_private(
        ctx,
        format!("Players of this server now have {days} vacation days a year."),
    )
    .await
}

/// Propose to take back your last move (casual games only); your opponent accepts or declines.
#[poise::command(slash_command)]
pub async fn takeback(
    ctx: Context<'_>,
    #[description = "Which game (only needed outside its thread)"]
    #[autocomplete = "autocomplete_game"]
    #[max_length = 100]
    game: Option<String>,
) -> Result<(), Error> {
    crate::respond::defer(ctx, true).await?;
    let id = resolve_game(ctx, game.as_deref()).await?;
    let result = ctx
        .data()
        .services
        .comforts()
        .propose_takeback(id, ctx.author().id.domain())
        .await?;
    ctx.data().outbox.settle(id).await?;
    say_private(ctx, words::takeback_reply(&result)).await
}

/// Private notes on a game: only you see them (also under "My view").
///
/// `/note text:...` adds a line; `/note` shows your note; `/note clear:true` deletes it.
#[poise::command(slash_command)]
pub async fn note(
    ctx: Context<'_>,
    #[description = "A line to add to your note"]
    #[max_length = 500]
    text: Option<String>,
    #[description = "Delete your note in this game"] clear: Option<bool>,
    #[description = "Which game (only needed outside its thread)"]
    #[autocomplete = "autocomplete_game"]
    #[max_length = 100]
    game: Option<String>,
) -> Result<(), Error> {
    crate::respond::defer(ctx, true).await?;
    let id = resolve_game(ctx, game.as_deref()).await?;
    let user = ctx.author().id.domain();
    let services = &ctx.data().services;
    let note = if clear.unwrap_or(false) {
        services.comforts().add_note(id, user, None).await?
    } else if let Some(t) = text.as_deref() {
        services.comforts().add_note(id, user, Some(t)).await?
    } else {
        services.comforts().note(id, user).await?
    };
    say_private(ctx, words::note_reply(id, note.as_deref())).await
}
