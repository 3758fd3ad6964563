//! `/games`, `/pgn`, `/rules`, `/help`. Their texts live in [`crate::messages::rules`].

use kaboom_rules::Variant;
use poise::serenity_prelude as serenity;

use super::challenge::VariantChoice;
use super::{autocomplete_game, readable_game, say_private};
use crate::ids::Domain;
use crate::messages::{self, rules};
use crate::types::{Context, Error};
use kaboom_store::games::GameState;

/// List active games, whose turn it is, and a link to each game's thread.
///
/// Shows your games, or another player's with the `user` option: in a server, the games of
/// that server; in a direct message with the bot, the games you play. With `finished:true`
/// it lists finished games instead, newest first, with results, dates and rating changes,
/// ten a page.
#[poise::command(slash_command)]
pub async fn games(
    ctx: Context<'_>,
    #[description = "Whose games (default: yours)"] user: Option<serenity::User>,
    #[description = "Finished games instead of active ones (default no)"] finished: Option<bool>,
    #[description = "Which page of finished games (default 1)"]
    #[min = 1]
    page: Option<i64>,
) -> Result<(), Error> {
    let who = user.as_ref().unwrap_or_else(|| ctx.author());
    let services = &ctx.data().services;
    if finished.unwrap_or(false) {
        let archive = services
            .ratings()
            .archive(
                who.id.domain(),
                super::ratings::readable(ctx),
                page.unwrap_or(1),
            )
            .await?;
        return say_private(ctx, messages::ratings::archive_text(&who.name, &archive)).await;
    }
    // Only games readable here: this server's, or in a DM the caller's own.
    let guild = ctx.guild_id().map(Domain::domain);
    let games = services
        .games()
        .active_games_readable(who.id.domain(), ctx.author().id.domain(), guild)
        .await?;
    let here = match guild {
        Some(_) => "in this server",
        None if who.id == ctx.author().id => "",
        None => "with you",
    };
    if games.is_empty() {
        return say_private(ctx, messages::no_active_games(&who.name, here)).await;
    }
    let mut lines = vec![messages::active_games_header(&who.name, here)];
    for row in games {
        let place = row
            .thread_id
            .map_or_else(String::new, |t| format!(" · <#{t}>"));
        let state = if row.state == GameState::Setup {
            "choosing carriers".to_string()
        } else {
            match services.games().load(row.id).await {
                Ok(snap) => {
                    let turn = snap.game.turn();
                    let mut s = format!("{} to move", snap.row.name(turn));
                    if let Some(d) = snap.row.deadline_at {
                        s.push_str(&format!(" by <t:{d}:R>"));
                    }
                    s
                }
                Err(e) => {
                    tracing::error!(game_id = %row.id, error = %e, "/games: a game does not load");
                    "unavailable".to_string()
                }
            }
        };
        lines.push(format!(
            "#{} {} · {} · {state}{place}",
            row.id,
            row.variant.title(),
            messages::players_line(&row)
        ));
    }
    say_private(ctx, messages::fit_lines(&lines, messages::MESSAGE_LIMIT)).await
}

/// Download a game as PGN (Beirut carriers are included only after the game ends).
#[poise::command(slash_command)]
pub async fn pgn(
    ctx: Context<'_>,
    #[description = "Which game (default: this thread's)"]
    #[autocomplete = "autocomplete_game"]
    #[max_length = 100]
    game: Option<String>,
) -> Result<(), Error> {
    let id = readable_game(ctx, game.as_deref()).await?.row.id;
    let text = ctx.data().services.games().pgn(id).await?;
    crate::respond::send(
        ctx,
        poise::CreateReply::default()
            .content(format!("Game #{id} as PGN:"))
            .attachment(serenity::CreateAttachment::bytes(
                text.into_bytes(),
                format!("kaboom-{id}.pgn"),
            )),
    )
    .await?;
    Ok(())
}

/// The `/rules` embed of `variant` (texts from [`rules_text`]); with `image`, it shows the
/// attached setup picture named [`rules::RulesCard::image_name`].
pub fn rules_embed(variant: Variant, image: bool) -> serenity::CreateEmbed {
    let card = rules::card(variant);
    let mut embed = serenity::CreateEmbed::new()
        .title(card.title())
        .description(card.summary)
        .footer(serenity::CreateEmbedFooter::new(card.footer()));
    if image {
        embed = embed.image(format!("attachment://{}", card.image_name()));
    }
    for (name, value) in card.fields() {
        embed = embed.field(name, value, false);
    }
    embed
}

/// The rules of a variant for players, with its starting position.
///
/// How the pieces move where they differ from chess, what explodes and when, how the game
/// ends, and how to write your moves; for Bomberman Chess and Bombalot, a picture of every
/// piece with what it does.
#[poise::command(slash_command)]
pub async fn rules(
    ctx: Context<'_>,
    #[description = "Which variant"] variant: VariantChoice,
) -> Result<(), Error> {
    crate::respond::defer(ctx, false).await?;
    let variant: Variant = variant.into();
    let services = ctx.data().services.clone();
    let pool = services.cpu().clone();
    let (png, legend) = pool
        .run(move || {
            (
                services.games().paint_start(variant),
                services.games().paint_legend(variant),
            )
        })
        .await?;
    // The full rules as a Markdown file.
    let mut reply = poise::CreateReply::default().attachment(serenity::CreateAttachment::bytes(
        messages::full_rules::text(variant).into_bytes(),
        messages::full_rules::file_name(variant),
    ));
    match png {
        Ok(png) => {
            reply = reply.embed(rules_embed(variant, true)).attachment(
                serenity::CreateAttachment::bytes(png, rules::card(variant).image_name()),
            );
        }
        Err(e) => {
            // Without the picture, the embed must not point at a missing attachment.
            tracing::warn!(%variant, error = %e, "no start image");
            reply = reply.embed(rules_embed(variant, false));
        }
    }
    // Bomberman Chess and Bombalot: what each piece's picture is and does.
    match legend {
        Ok(Some(png)) => {
            reply = reply.attachment(serenity::CreateAttachment::bytes(
                png,
                format!("{}-pieces.png", variant.name()),
            ));
        }
        Ok(None) => {}
        Err(e) => tracing::warn!(%variant, error = %e, "no piece legend"),
    }
    crate::respond::send(ctx, reply).await?;
    Ok(())
}

/// The custom id action of `/help`'s page menu (`kb:help:0`).
pub const HELP_MENU: &str = "help";

/// `/help`'s answer on `page`: the page as an embed (the first screen titled with the
/// bot's name, the others with the page's name) and the menu of every page under it.
pub fn help_page(page: rules::HelpPage) -> (serenity::CreateEmbed, Vec<serenity::CreateActionRow>) {
    let title = match page {
        rules::HelpPage::Start => rules::HELP_TITLE.to_string(),
        other => format!("Help: {}", other.label()),
    };
    let embed = serenity::CreateEmbed::new()
        .title(title)
        .description(page.text())
        .footer(serenity::CreateEmbedFooter::new(rules::HELP_FOOTER));
    let options = rules::HelpPage::all()
        .map(|p| {
            serenity::CreateSelectMenuOption::new(p.label(), p.value()).default_selection(p == page)
        })
        .collect();
    let menu = serenity::CreateSelectMenu::new(
        crate::messages::ids::make(HELP_MENU, 0),
        serenity::CreateSelectMenuKind::String { options },
    )
    .placeholder("More help");
    (embed, vec![serenity::CreateActionRow::SelectMenu(menu)])
}

/// How to start a game and move, where the rules are; every command in the menu.
///
/// The menu under the answer opens every command and each step of a game.
#[poise::command(slash_command)]
pub async fn help(ctx: Context<'_>) -> Result<(), Error> {
    let (embed, menu) = help_page(rules::HelpPage::Start);
    crate::respond::send(
        ctx,
        poise::CreateReply::default()
            .embed(embed)
            .components(menu)
            .ephemeral(true),
    )
    .await?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every slash command the bot registers (subcommands by their full name, e.g.
    /// `settings me`), as Discord shows them.
    fn registered() -> Vec<String> {
        fn walk(
            prefix: &str,
            c: &poise::Command<crate::types::Data, Error>,
            out: &mut Vec<String>,
        ) {
            let name = if prefix.is_empty() {
                c.name.to_string()
            } else {
                format!("{prefix} {}", c.name)
            };
            if c.subcommands.is_empty() {
                out.push(name);
            } else {
                c.subcommands.iter().for_each(|s| walk(&name, s, out));
            }
        }
        let mut out = Vec::new();
        super::super::all()
            .iter()
            .filter(|c| c.slash_action.is_some() || !c.subcommands.is_empty())
            .for_each(|c| walk("", c, &mut out));
        out
    }

    #[test]
    fn help_lists_every_registered_command_once() {
        let listed: Vec<&str> = rules::HELP_COMMANDS.iter().map(|(n, _)| *n).collect();
        let registered = registered();
        assert!(registered.len() >= 10, "{registered:?}");
        for name in &registered {
            assert_eq!(
                listed.iter().filter(|l| *l == name).count(),
                1,
                "/{name} is registered but has no line in /help (rules::HELP_COMMANDS)"
            );
        }
        for name in &listed {
            assert!(
                registered.contains(&name.to_string()),
                "/help lists /{name}, which the bot does not register"
            );
        }
        let text = rules::help_commands();
        assert_eq!(
            text.lines().count(),
            registered.len(),
            "one line per command"
        );
    }
}
