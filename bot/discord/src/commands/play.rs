//! `/move` (with autocomplete of legal actions) and `/board`.

use kaboom_rules::Viewer;
use poise::serenity_prelude as serenity;

use super::{autocomplete_game, readable_game, resolve_game};
use crate::ids::Domain;
use crate::messages;
use crate::types::{Context, Error};
use crate::{board, flows};
use kaboom_service::ServiceError;
use kaboom_service::preview::{PlayedOrPreviewed, PreviewFirst};

async fn autocomplete_action(
    ctx: Context<'_>,
    partial: &str,
) -> serenity::CreateAutocompleteResponse {
    let services = &ctx.data().services;
    let user = ctx.author().id.domain();
    // The game named by the `game` option or the thread; else the service picks the game
    // that waits on the player.
    let named = match super::typed_game(ctx) {
        Some(typed) => typed.ok(),
        None => services
            .games()
            .game_in_thread(ctx.channel_id().domain())
            .await
            .ok()
            .flatten(),
    };
    let choices = services.games().move_choices(user, named, partial).await;
    serenity::CreateAutocompleteResponse::new().set_choices(action_choices(choices, partial))
}

/// The autocomplete choices for `/move`'s action: the legal actions (each naming its game
/// when the game was picked among several: `#12 Nf3`, read back by [`split_game_tag`]),
/// or one choice that says why there are none and points to `/premove` (submitting it is
/// refused with the same pointer). Autocomplete cannot show an error, so a failure offers
/// nothing.
fn action_choices(
    choices: Result<kaboom_service::MoveChoices, ServiceError>,
    partial: &str,
) -> Vec<serenity::AutocompleteChoice> {
    use kaboom_service::MoveChoices;
    use kaboom_service::suggest::clip;
    // A choice's value is 1 to 100 characters: what was typed, or `?` (refused as an
    // action, with the pointer to /premove).
    let typed = partial.trim();
    let echo = if typed.is_empty() {
        "?".to_string()
    } else {
        typed.chars().take(100).collect()
    };
    match choices {
        Ok(MoveChoices::Actions { suggestions, .. }) => suggestions
            .into_iter()
            .map(|s| serenity::AutocompleteChoice::new(s.label, s.value))
            .collect(),
        Ok(MoveChoices::NotYourTurn { game, to_move }) => vec![serenity::AutocompleteChoice::new(
            clip(format!(
                "Game #{game}: {to_move} is to move. /premove line answers in advance"
            )),
            echo,
        )],
        Ok(MoveChoices::NoneWaiting) => vec![serenity::AutocompleteChoice::new(
            "None of your games waits on you. /premove line answers in advance",
            echo,
        )],
        Ok(MoveChoices::Nothing) | Err(_) => Vec::new(),
    }
}

/// `/move`'s action as picked from a list that named its game (`#12 Nf3`): the game and
/// the action; any other text is the action alone.
fn split_game_tag(action: &str) -> (Option<&str>, &str) {
    let trimmed = action.trim();
    if let Some(rest) = trimmed.strip_prefix('#')
        && let Some((id, action)) = rest.split_once(' ')
        && !id.is_empty()
        && id.bytes().all(|b| b.is_ascii_digit())
    {
        return (Some(id), action.trim());
    }
    (None, trimmed)
}

/// Make your move. Start typing: the list shows your legal actions and what each removes.
///
/// Type a move as SAN (`Nxd5`), in coordinates (`g1f3`), or pick it by the piece's name.
/// Outside the game's thread, choose the game with the `game` option.
#[poise::command(slash_command, rename = "move")]
pub async fn move_(
    ctx: Context<'_>,
    #[description = "Your action, e.g. Nf3, e2e4, Boom@e5"]
    #[autocomplete = "autocomplete_action"]
    #[max_length = 100]
    action: String,
    #[description = "Which game (only needed outside its thread)"]
    #[autocomplete = "autocomplete_game"]
    #[max_length = 100]
    game: Option<String>,
    #[description = "See the position after it, with what it removes, before playing (default: your /settings)"]
    preview: Option<bool>,
) -> Result<(), Error> {
    crate::respond::defer(ctx, true).await?;
    let services = &ctx.data().services;
    // An action picked from a list that named its game (`#12 Nf3`) carries the game.
    let (tagged, action) = match split_game_tag(&action) {
        (Some(tag), action) if game.is_none() => (Some(tag.to_string()), action.to_string()),
        _ => (None, action),
    };
    let id = resolve_game(ctx, game.as_deref().or(tagged.as_deref())).await?;
    let user = ctx.author().id.domain();
    // Explosion preview: when asked, or by the player's setting for actions that remove
    // pieces; Confirm then plays it. Otherwise played at once.
    let first = match preview {
        Some(true) => PreviewFirst::Always,
        Some(false) => PreviewFirst::Never,
        None => PreviewFirst::BySetting,
    };
    match services
        .games()
        .play_or_preview(kaboom_service::PlayRequest::new(id, user, &action), first)
        .await
    {
        Ok(PlayedOrPreviewed::Previewed(p)) => crate::preview::show(ctx, *p).await,
        Ok(PlayedOrPreviewed::Played(played)) => {
            let here = ctx.channel_id().domain();
            let text = flows::after_play(ctx.data(), &played, here).await?;
            super::say_private(ctx, text).await?;
            if flows::shows_where_it_started(&played.snap, here) {
                show_where_it_started(ctx, &played.snap).await?;
            }
            Ok(())
        }
        Err(ServiceError::MovedOn { game_id, .. }) => {
            let snap = services.games().load(game_id).await?;
            let (caption, image) = flows::own_view(services, &snap, user).await?;
            crate::respond::send(
                ctx,
                poise::CreateReply::default()
                    .content(format!("{}\n{caption}", messages::MOVED_ON))
                    .attachment(image)
                    .ephemeral(true),
            )
            .await?;
            Ok(())
        }
        Err(e) => Err(e.into()),
    }
}

/// A move in a game played by DM, made where the game started (a group DM, a server
/// without the bot): the new board for everyone there, as the command's public follow-up
/// (the bot cannot post there on its own), with the game's buttons.
///
/// # Errors
/// A painting or Discord error.
async fn show_where_it_started(
    ctx: Context<'_>,
    snap: &kaboom_service::Snapshot,
) -> Result<(), Error> {
    let (caption, image, buttons) = flows::public_board(&ctx.data().services, snap).await?;
    crate::respond::send(
        ctx,
        poise::CreateReply::default()
            .content(caption)
            .attachment(image)
            .components(buttons)
            .allowed_mentions(messages::mentions::none())
            .ephemeral(false),
    )
    .await
}

/// Show the current board; private:true shows your own view to you only.
///
/// Your own view is from your side, with your own Beirut carriers marked and your private
/// note under it.
#[poise::command(slash_command)]
pub async fn board(
    ctx: Context<'_>,
    #[description = "Only you see it, with your secrets marked (default no)"] private: Option<bool>,
    #[description = "Which game (only needed outside its thread)"]
    #[autocomplete = "autocomplete_game"]
    #[max_length = 100]
    game: Option<String>,
) -> Result<(), Error> {
    let private = private.unwrap_or(false);
    let services = &ctx.data().services;
    // The game is looked up before the answer is deferred: a refusal ("There is no game
    // #999.") must stay private, and a public deferral would make it public.
    let snap = readable_game(ctx, game.as_deref()).await?;
    crate::respond::defer(ctx, private).await?;
    let (text, image) = if private {
        flows::own_view_with_note(services, &snap, ctx.author().id.domain()).await?
    } else {
        let image = board::paint(services, &snap, Viewer::Spectator, board::PUBLIC_BOTTOM).await?;
        let mut text = messages::board_caption(&snap, snap.game.plies().last(), &[], &[]);
        if let Some(outcome) = snap.outcome() {
            let change = services.ratings().rating_change(snap.row.id).await?;
            for line in messages::ratings::result_lines(&snap.row, &outcome, change.as_ref()) {
                text.push('\n');
                text.push_str(&line);
            }
        }
        (text, image)
    };
    crate::respond::send(
        ctx,
        poise::CreateReply::default()
            .content(text)
            .attachment(image)
            .ephemeral(private)
            .allowed_mentions(messages::mentions::none()),
    )
    .await?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A choice picked from a list that named its game is read back as that game and the
    /// action; `#` alone, or a number without an action, is an action (and refused as such).
    #[test]
    fn an_action_tagged_with_its_game_is_split() {
        assert_eq!(split_game_tag("#12 Nf3"), (Some("12"), "Nf3"));
        assert_eq!(split_game_tag(" #7  Boom@e4 "), (Some("7"), "Boom@e4"));
        assert_eq!(split_game_tag("Nf3"), (None, "Nf3"));
        assert_eq!(split_game_tag("#12"), (None, "#12"));
        assert_eq!(split_game_tag("#a b"), (None, "#a b"));
    }
}
