//! `/games`, `/pgn`, `/rules`, `/help`.

use kaboom_rules::Variant;
use poise::serenity_prelude as serenity;

use super::challenge::VariantChoice;
use super::{autocomplete_game, resolve_game, say_private};
use crate::present;
use crate::storage::games::GameState;
use crate::types::{Context, Error};

/// List active games, whose turn it is, and a link to each game's thread.
///
/// Shows your games, or another player's with the `user` option.
#[poise::command(slash_command)]
pub async fn games(
    ctx: Context<'_>,
    #[description = "Whose games (default: yours)"] user: Option<serenity::User>,
) -> Result<(), Error> {
    let who = user.as_ref().unwrap_or_else(|| ctx.author());
    let services = &ctx.data().services;
    let games = services.active_games(who.id.get()).await?;
    if games.is_empty() {
        return say_private(ctx, format!("{} has no active games.", who.name)).await;
    }
    let mut lines = vec![format!("Active games of {}:", who.name)];
    for row in games {
        let place = row
            .thread_id
            .map_or_else(String::new, |t| format!(" · <#{t}>"));
        let state = if row.state == GameState::Setup {
            "choosing carriers".to_string()
        } else {
            match services.load(row.id).await {
                Ok(snap) => {
                    let turn = snap.game.turn();
                    let mut s = format!("{} to move", snap.row.name(turn));
                    if let Some(d) = snap.row.deadline_at {
                        s.push_str(&format!(" by <t:{d}:R>"));
                    }
                    s
                }
                Err(_) => "unavailable".to_string(),
            }
        };
        lines.push(format!(
            "#{} {} · {} · {state}{place}",
            row.id,
            row.variant.title(),
            present::players_line(&row)
        ));
    }
    say_private(ctx, lines.join("\n")).await
}

/// Download a game as PGN (Beirut carriers are included only after the game ends).
#[poise::command(slash_command)]
pub async fn pgn(
    ctx: Context<'_>,
    #[description = "Which game (default: this thread's)"]
    #[autocomplete = "autocomplete_game"]
    game: Option<String>,
) -> Result<(), Error> {
    let id = resolve_game(ctx, game.as_deref()).await?;
    let text = ctx.data().services.pgn(id).await?;
    ctx.send(
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

fn summary(variant: Variant) -> &'static str {
    match variant {
        Variant::Atomic => {
            "Chess where every capture explodes: the capturing piece, the captured piece and every non-pawn piece next to it are removed. Blow up the enemy king to win. Kings cannot capture, and touching kings cannot be checked."
        }
        Variant::Beirut => {
            "Chess with a secret: before the game each player picks a piece (not the king) that carries a bomb. Instead of moving, you may say Boom: your carrier explodes with everything on the 3x3 square around it. Explode the enemy king, or checkmate it. A commitment hash proves nobody changed their carrier; it is revealed at the end."
        }
        Variant::Nuke => {
            "Chess with public bombs: each player gives one piece a bomb, chosen privately and revealed once both have chosen. Bombs can be handed to neighbouring pieces and detonated; a blast removes everything around it."
        }
        Variant::Bomberman => {
            "Played on a 10x8 board with bombs whose waves run like a rook's; a defuser protects, and the King Battler moves like a queen. Checkmate the king to win."
        }
        Variant::Bombalot => {
            "Sir Bombalot rules: goals behind each side, twekes, tanks, detonators, immobilizers and imitators. Get two pieces into the enemy goal to win."
        }
    }
}

/// A short summary of a variant's rules, with its start position.
#[poise::command(slash_command)]
pub async fn rules(
    ctx: Context<'_>,
    #[description = "Which variant"] variant: VariantChoice,
) -> Result<(), Error> {
    ctx.defer().await?;
    let variant: Variant = variant.into();
    let services = ctx.data().services.clone();
    let text = format!("**{}**\n{}", variant.title(), summary(variant));
    let png = tokio::task::spawn_blocking(move || services.paint_start(variant)).await?;
    let mut reply = poise::CreateReply::default().content(text);
    match png {
        Ok(png) => {
            reply = reply.attachment(serenity::CreateAttachment::bytes(
                png,
                format!("{}.png", variant.name()),
            ));
        }
        Err(e) => tracing::warn!(%variant, error = %e, "no start image"),
    }
    ctx.send(reply).await?;
    Ok(())
}

/// How to play with Kaboom.
#[poise::command(slash_command)]
pub async fn help(ctx: Context<'_>) -> Result<(), Error> {
    let text = "**Kaboom** — explosive chess by correspondence.\n\
        `/challenge variant [opponent]` — challenge someone (or anyone); the game gets its own thread.\n\
        `/move action` — in the game's thread; start typing to see your legal actions.\n\
        `/board [private]` — the current board; private shows your own view to you only.\n\
        `/draw`, `/resign`, `/abort` — offer or accept a draw, give up, or call off a game before both have moved.\n\
        `/games [user]` — active games and whose turn it is. `/pgn [game]` — download a game.\n\
        `/rules variant` — what the variants are about.\n\
        Beirut and Nuke: I send you a menu by direct message to choose your carriers; if your DMs are closed, use the \"Choose privately\" button in the thread.";
    say_private(ctx, text).await
}
