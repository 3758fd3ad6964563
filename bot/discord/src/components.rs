//! Buttons and select menus, routed by custom id (`kb:<action>:<id>`, see
//! [`crate::messages::ids`]) in the event handler — never by in-memory collectors, so every
//! component keeps working after the bot restarts.

use poise::serenity_prelude as serenity;

use crate::ids::Domain;
use crate::limiter::Counted;
use crate::messages::comforts::ids as comfort_ids;
use crate::messages::leagues::actions as words;
use crate::messages::{self, ids};
use crate::types::{Data, Error};
use crate::{flows, respond};
use kaboom_domain::game::Venue;
use kaboom_domain::ids::GameId;
use kaboom_rules::Viewer;
use kaboom_service::{Refusal, ServiceError};

async fn answer(
    http: &serenity::Http,
    ic: &serenity::ComponentInteraction,
    text: impl Into<String>,
) -> Result<(), Error> {
    respond::edit_component(
        http,
        ic,
        serenity::EditInteractionResponse::new()
            .content(messages::fit_message(text.into()))
            .allowed_mentions(messages::mentions::none()),
    )
    .await
}

/// A private answer (the interaction's first response) with `text` that pings nobody.
fn private_response(text: String) -> serenity::CreateInteractionResponse {
    serenity::CreateInteractionResponse::Message(
        serenity::CreateInteractionResponseMessage::new()
            .content(messages::fit_message(text))
            .ephemeral(true)
            .allowed_mentions(messages::mentions::none()),
    )
}

/// The private "slow down" answer when `user` is over their commands per minute in
/// `guild` ([`crate::limiter`]); `None` when the click or form may go on.
///
/// # Errors
/// [`Error::Service`] when the server's rate cannot be read.
async fn over_rate(
    data: &Data,
    user: serenity::UserId,
    guild: Option<serenity::GuildId>,
) -> Result<Option<String>, Error> {
    let guild = guild.map(|g| g.domain());
    match data
        .limiter
        .check(&data.services, Counted::Command, user.domain(), guild)
        .await
    {
        Ok(()) => Ok(None),
        Err(e) => match Error::from(e) {
            Error::SlowDown(slow) => Ok(Some(messages::slow_down(slow))),
            other => Err(other),
        },
    }
}

/// A private follow-up with `text` that pings nobody.
fn private_followup(text: String) -> serenity::CreateInteractionResponseFollowup {
    serenity::CreateInteractionResponseFollowup::new()
        .content(messages::fit_message(text))
        .ephemeral(true)
        .allowed_mentions(messages::mentions::none())
}

/// What `/resign` and the Resign button both answer `user` privately before anything
/// happens: "Do you really want to resign game #N?" with a "Yes, resign" button
/// (`kb:resignyes:N`, which resigns), or, without a button, why there is nothing to
/// resign (not a player of the game, or the game is over). Resigning takes two steps
/// whichever way a player starts, as on lichess and chess.com.
///
/// # Errors
/// The services' error when the game cannot be loaded (e.g. no such game).
pub(crate) async fn resign_question(
    data: &Data,
    game: GameId,
    user: kaboom_domain::ids::UserId,
) -> Result<(String, Vec<serenity::CreateActionRow>), ServiceError> {
    let snap = data.services.games().load(game).await?;
    if snap.row.color_of(user).is_none() {
        return Ok((messages::RESIGN_NOT_A_PLAYER.to_string(), Vec::new()));
    }
    if snap.outcome().is_some() {
        return Ok((messages::ALREADY_OVER.to_string(), Vec::new()));
    }
    let yes = serenity::CreateButton::new(ids::make(ids::RESIGN_YES, game.0))
        .label("Yes, resign")
        .style(serenity::ButtonStyle::Danger);
    Ok((
        messages::resign_question(game),
        vec![serenity::CreateActionRow::Buttons(vec![yes])],
    ))
}

/// Handles one component interaction. Every answer to the clicker is ephemeral; refusals
/// say why. After the answer, what the clicker missed while Discord refused to DM them
/// follows privately ([`show_missed`]), except after a Move button, whose answer is a form.
///
/// # Errors
/// A Discord error while answering.
pub async fn handle(
    ctx: &serenity::Context,
    data: &Data,
    ic: &serenity::ComponentInteraction,
) -> Result<(), Error> {
    if let Some(text) = over_rate(data, ic.user.id, ic.guild_id).await? {
        return respond::answer_component(ctx.http.as_ref(), ic, private_response(text)).await;
    }
    answer_click(ctx, data, ic).await?;
    if ids::parse(&ic.data.custom_id).is_none_or(|(action, _)| action != ids::MOVE_ASK) {
        show_missed(data, ic.user.id, |followup| {
            ic.create_followup(ctx.http.as_ref(), followup)
        })
        .await;
    }
    Ok(())
}

/// What `user` missed while Discord refused to DM them (a game played by DM), taken, as
/// the text of a private message ([`messages::direct::missed`]); `None` when nothing
/// waits, or when it cannot be read (logged: the interaction itself is answered).
pub(crate) async fn missed_text(data: &Data, user: serenity::UserId) -> Option<String> {
    match data.services.deliveries().take_missed(user.domain()).await {
        Ok(missed) if missed.is_empty() => None,
        Ok(missed) => {
            let texts: Vec<&str> = missed.iter().map(|n| n.text.as_str()).collect();
            Some(messages::direct::missed(&texts))
        }
        Err(e) => {
            tracing::warn!(error = %e, "could not read what a player missed");
            None
        }
    }
}

/// [`missed_text`] sent with `send` as a private follow-up of a click or a form; a failure
/// is logged, since the interaction itself was answered.
async fn show_missed<F, Fut>(data: &Data, user: serenity::UserId, send: F)
where
    F: FnOnce(serenity::CreateInteractionResponseFollowup) -> Fut,
    Fut: std::future::Future<Output = Result<serenity::Message, serenity::Error>>,
{
    let Some(text) = missed_text(data, user).await else {
        return;
    };
    if let Err(e) = send(private_followup(text)).await {
        tracing::warn!(error = %e, "could not show a player what they missed");
    }
}

/// [`handle`] without what the clicker missed.
async fn answer_click(
    ctx: &serenity::Context,
    data: &Data,
    ic: &serenity::ComponentInteraction,
) -> Result<(), Error> {
    let http = ctx.http.as_ref();
    let Some((action, id)) = ids::parse(&ic.data.custom_id) else {
        // Not one of ours (or from an older format): say so rather than leave the click
        // unanswered ("This interaction failed").
        let msg = serenity::CreateInteractionResponseMessage::new()
            .content(messages::service_error(&ServiceError::Refused(
                Refusal::StaleButton,
            )))
            .ephemeral(true)
            .allowed_mentions(messages::mentions::none());
        respond::answer_component(http, ic, serenity::CreateInteractionResponse::Message(msg))
            .await?;
        return Ok(());
    };
    if action == messages::preview::CONFIRM || action == messages::preview::CANCEL {
        // Explosion previews edit their own message.
        return crate::preview::click(http, data, ic, action, id).await;
    }
    if action == crate::commands::info::HELP_MENU {
        // `/help`'s page menu: the message shows the chosen page (UPDATE_MESSAGE).
        let page = match &ic.data.kind {
            serenity::ComponentInteractionDataKind::StringSelect { values } => values
                .first()
                .and_then(|v| messages::rules::HelpPage::from_value(v)),
            _ => None,
        };
        let (embed, menu) =
            crate::commands::info::help_page(page.unwrap_or(messages::rules::HelpPage::Start));
        let update = serenity::CreateInteractionResponseMessage::new()
            .embed(embed)
            .components(menu);
        respond::answer_component(
            http,
            ic,
            serenity::CreateInteractionResponse::UpdateMessage(update),
        )
        .await?;
        return Ok(());
    }
    if action == ids::RESIGN {
        // A confirmation, answered at once.
        let (text, buttons) = match resign_question(data, GameId(id), ic.user.id.domain()).await {
            Ok(question) => question,
            Err(e) => {
                if messages::failure::is_unreadable(&e) {
                    tracing::error!(game_id = id, error = %e, "resign button failed");
                }
                (messages::service_error(&e), Vec::new())
            }
        };
        let msg = serenity::CreateInteractionResponseMessage::new()
            .content(text)
            .ephemeral(true)
            .allowed_mentions(messages::mentions::none())
            .components(buttons);
        respond::answer_component(http, ic, serenity::CreateInteractionResponse::Message(msg))
            .await?;
        return Ok(());
    }
    if action == messages::seeks::ACCEPT_MENU {
        return accept_seek(http, data, ic).await;
    }
    if action == ids::MOVE_ASK {
        return ask_move(http, data, ic, GameId(id)).await;
    }
    if matches!(action, ids::ACCEPT | ids::DECLINE | ids::CANCEL)
        && let Ok(challenge) = data.services.challenges().get(id).await
        && challenge.spec.venue.by_dm()
    {
        if action == ids::ACCEPT {
            return accept_direct(http, data, ic, challenge).await;
        }
        return close_direct(http, data, ic, challenge, action == ids::CANCEL).await;
    }
    respond::defer_component(http, ic).await?;
    let result = route(http, data, ic, action, id).await;
    match result {
        Ok(()) => Ok(()),
        Err(e) => {
            let text = match &e {
                Error::Service(refused @ ServiceError::Refused(_)) => {
                    messages::service_error(refused)
                }
                Error::Service(other) => {
                    tracing::error!(custom_id = %ic.data.custom_id, error = %e, "component failed");
                    messages::failure::failed(&messages::service_error(other))
                }
                other => {
                    tracing::error!(custom_id = %ic.data.custom_id, error = %e, "component failed");
                    messages::failure::failure_text(other)
                }
            };
            answer(http, ic, text).await
        }
    }
}

/// Accept on a challenge whose game is played by DM ([`Venue::Direct`]): the bot is not a
/// member where the challenge was posted, so the click's own answer turns the challenge's
/// message into the game's (DEFERRED_UPDATE_MESSAGE, then an edit of the original
/// response, which for a component is the message it is on: "For components, the message
/// the component was attached to",
/// <https://discord.com/developers/docs/interactions/receiving-and-responding#interaction-response-object-interaction-callback-type>):
/// the text with who plays, the first board and the game's buttons, with "Choose
/// privately" while carriers are to be chosen. The accepter hears privately in a
/// follow-up; a refusal too, leaving the challenge's message as it was.
///
/// # Errors
/// A Discord error while answering.
async fn accept_direct(
    http: &serenity::Http,
    data: &Data,
    ic: &serenity::ComponentInteraction,
    challenge: kaboom_store::challenges::Challenge,
) -> Result<(), Error> {
    respond::answer_component(http, ic, serenity::CreateInteractionResponse::Acknowledge).await?;
    let services = &data.services;
    let user = ic.user.id.domain();
    let snap = match services
        .challenges()
        .accept(challenge.id, user, ic.user.display_name())
        .await
    {
        Ok(snap) => snap,
        Err(e) => {
            if messages::failure::is_unreadable(&e) {
                tracing::error!(challenge_id = challenge.id, error = %e, "direct accept failed");
            }
            ic.create_followup(http, private_followup(messages::service_error(&e)))
                .await?;
            return Ok(());
        }
    };
    // The boards and carrier menus go to both players' DMs through the outbox.
    data.outbox.settle(snap.row.id).await?;
    let image = crate::board::paint(
        services,
        &snap,
        Viewer::Spectator,
        crate::board::PUBLIC_BOTTOM,
    )
    .await?;
    let mut rows = messages::fairness::buttons_for(&snap.row, false);
    if snap.row.state == kaboom_store::games::GameState::Setup {
        rows.extend(messages::choose_privately_button(snap.row.id));
    }
    respond::edit_component(
        http,
        ic,
        serenity::EditInteractionResponse::new()
            .content(messages::direct::accepted(&challenge, user, snap.row.id))
            .new_attachment(image)
            .components(rows)
            .allowed_mentions(messages::mentions::none()),
    )
    .await?;
    ic.create_followup(
        http,
        private_followup(messages::direct::game_on(snap.row.id)),
    )
    .await?;
    Ok(())
}

/// Decline or Cancel on a challenge whose game would be played by DM: the click's own
/// answer (UPDATE_MESSAGE) marks the challenge's message and takes its buttons off, since
/// the bot cannot edit it where it was made; a refusal is answered privately instead.
///
/// # Errors
/// A Discord error while answering.
async fn close_direct(
    http: &serenity::Http,
    data: &Data,
    ic: &serenity::ComponentInteraction,
    challenge: kaboom_store::challenges::Challenge,
    cancel: bool,
) -> Result<(), Error> {
    let user = ic.user.id.domain();
    let response = match data
        .services
        .challenges()
        .close(challenge.id, user, cancel)
        .await
    {
        Ok(_) => serenity::CreateInteractionResponse::UpdateMessage(
            serenity::CreateInteractionResponseMessage::new()
                .content(if is_seek(&challenge) {
                    messages::seeks::cancelled(&challenge)
                } else {
                    messages::challenge_closed(&challenge, cancel, user)
                })
                .components(Vec::new())
                .allowed_mentions(messages::mentions::none()),
        ),
        Err(e) => private_response(messages::service_error(&e)),
    };
    respond::answer_component(http, ic, response).await
}

/// The Move button of a game played by DM: the move form (a modal with one text input),
/// or, privately, why there is nothing to move (not a player, the game is over, carriers
/// still to choose, the opponent's turn with a pointer to `/premove`).
///
/// # Errors
/// A Discord error while answering.
async fn ask_move(
    http: &serenity::Http,
    data: &Data,
    ic: &serenity::ComponentInteraction,
    game: GameId,
) -> Result<(), Error> {
    let refusal = data
        .services
        .games()
        .may_move(game, ic.user.id.domain())
        .await
        .err();
    let response = match refusal {
        Some(e) => private_response(messages::service_error(&e)),
        None => serenity::CreateInteractionResponse::Modal(messages::move_form(game)),
    };
    respond::answer_component(http, ic, response).await
}

/// The move form's submit (`kb:movemodal:<game id>`): the typed action is played as
/// `/move` plays it (without an explosion preview: the player typed it out). The form
/// opened from a board, so the answer (DEFERRED_UPDATE_MESSAGE, then an edit of that
/// message) replaces that board with the new one, with its buttons; the outbox sends the
/// opponent their turn notice. A refusal is answered privately and the board stays.
///
/// # Errors
/// A Discord error while answering.
pub async fn submit_move(
    ctx: &serenity::Context,
    data: &Data,
    mi: &serenity::ModalInteraction,
) -> Result<(), Error> {
    let http = ctx.http.as_ref();
    if let Some(text) = over_rate(data, mi.user.id, mi.guild_id).await? {
        return private_modal_answer(http, mi, text).await;
    }
    let game = match ids::parse(&mi.data.custom_id) {
        Some((ids::MOVE_MODAL, id)) => GameId(id),
        _ => {
            let refused = ServiceError::Refused(Refusal::StaleButton);
            return private_modal_answer(http, mi, messages::service_error(&refused)).await;
        }
    };
    let typed = mi
        .data
        .components
        .iter()
        .flat_map(|row| &row.components)
        .find_map(|c| match c {
            serenity::ActionRowComponent::InputText(input)
                if input.custom_id == ids::MOVE_INPUT =>
            {
                input.value.clone()
            }
            _ => None,
        })
        .unwrap_or_default();
    if mi.message.is_none() {
        // Only the Move button opens the form, so there is a board to update; a form from
        // anywhere else is answered privately.
        let refused = ServiceError::Refused(Refusal::StaleButton);
        return private_modal_answer(http, mi, messages::service_error(&refused)).await;
    }
    crate::respond::initial("acknowledge move form", crate::respond::INITIAL, || {
        mi.create_response(http, serenity::CreateInteractionResponse::Acknowledge)
    })
    .await?;
    let user = mi.user.id.domain();
    let services = &data.services;
    let played = services
        .games()
        .play(kaboom_service::PlayRequest::new(game, user, &typed))
        .await;
    let played = match played {
        Ok(played) => played,
        Err(e) => {
            if messages::failure::is_unreadable(&e) {
                tracing::error!(game_id = %game, error = %e, "a move from the move form failed");
            }
            mi.create_followup(http, private_followup(messages::service_error(&e)))
                .await?;
            return Ok(());
        }
    };
    flows::after_play(data, &played, mi.channel_id.domain()).await?;
    let (caption, image, buttons) = flows::public_board(services, &played.snap).await?;
    let edited =
        crate::respond::later("edit the board after a move", crate::respond::LATER, || {
            mi.edit_response(
                http,
                serenity::EditInteractionResponse::new()
                    .content(caption.clone())
                    .clear_attachments()
                    .new_attachment(image.clone())
                    .components(buttons.clone())
                    .allowed_mentions(messages::mentions::none()),
            )
        })
        .await;
    edited?;
    show_missed(data, mi.user.id, |followup| {
        mi.create_followup(http, followup)
    })
    .await;
    Ok(())
}

/// Answers a modal submit privately with `text`.
async fn private_modal_answer(
    http: &serenity::Http,
    mi: &serenity::ModalInteraction,
    text: String,
) -> Result<(), Error> {
    let response = private_response(text);
    crate::respond::initial("answer move form", crate::respond::INITIAL, || {
        mi.create_response(http, response.clone())
    })
    .await?;
    Ok(())
}

/// Whether `challenge` is a seek (listed by `/seeks`), not a rematch of a seek's game.
fn is_seek(challenge: &kaboom_store::challenges::Challenge) -> bool {
    challenge.spec.venue == Venue::Seek && challenge.spec.opponent_id.is_none()
}

/// A seek chosen in `/seeks`' menu (the option's value is its id): accepted, and the
/// private list replaced (DEFERRED_UPDATE_MESSAGE, then an edit of the message the menu is
/// on) by what the game is and where it is played. The boards go to both players' DMs
/// through the outbox. A refusal (taken meanwhile, expired, cancelled, one's own) is
/// answered privately in a follow-up, leaving the list as it was.
///
/// # Errors
/// A Discord error while answering.
async fn accept_seek(
    http: &serenity::Http,
    data: &Data,
    ic: &serenity::ComponentInteraction,
) -> Result<(), Error> {
    respond::answer_component(http, ic, serenity::CreateInteractionResponse::Acknowledge).await?;
    let chosen = match &ic.data.kind {
        serenity::ComponentInteractionDataKind::StringSelect { values } => {
            values.first().and_then(|v| v.parse::<i64>().ok())
        }
        _ => None,
    };
    let user = ic.user.id.domain();
    let accepted = match chosen {
        Some(id) => {
            let challenges = data.services.challenges();
            match challenges.get(id).await {
                Ok(c) if is_seek(&c) => challenges
                    .accept(id, user, ic.user.display_name())
                    .await
                    .map(|snap| (c, snap)),
                Ok(_) => Err(ServiceError::Refused(Refusal::StaleButton)),
                Err(e) => Err(e),
            }
        }
        None => Err(ServiceError::Refused(Refusal::StaleButton)),
    };
    let (seek, snap) = match accepted {
        Ok(accepted) => accepted,
        Err(e) => {
            if messages::failure::is_unreadable(&e) {
                tracing::error!(error = %e, "accepting a seek failed");
            }
            ic.create_followup(http, private_followup(messages::service_error(&e)))
                .await?;
            return Ok(());
        }
    };
    data.outbox.settle(snap.row.id).await?;
    respond::edit_component(
        http,
        ic,
        serenity::EditInteractionResponse::new()
            .content(messages::seeks::taken(&seek, snap.row.id))
            .components(Vec::new())
            .allowed_mentions(messages::mentions::none()),
    )
    .await
}

async fn route(
    http: &serenity::Http,
    data: &Data,
    ic: &serenity::ComponentInteraction,
    action: &str,
    id: i64,
) -> Result<(), Error> {
    let services = &data.services;
    let user = ic.user.id.domain();
    if matches!(action, ids::ACCEPT | ids::DECLINE | ids::CANCEL)
        && services.challenges().get(id).await?.message_id.is_none()
    {
        // The game's thread is started from the challenge's message (crash-safe, see
        // `discord::outbox`), and declining or cancelling edits it: if the message was not
        // recorded yet (a click right after `/challenge` answered, before it read its
        // message back, or a crash in between), it is the one whose button was pressed.
        services
            .challenges()
            .set_message(id, ic.message.id.domain())
            .await?;
    }
    match action {
        ids::ACCEPT => {
            let snap = services
                .challenges()
                .accept(id, user, ic.user.display_name())
                .await?;
            // The thread, the challenge message's edit, the board and the menus go out
            // through the outbox; when they are slow or Discord fails, the game
            // is saved and its thread follows.
            let text = match flows::open_game(&data.outbox, &snap).await? {
                Some(thread) => messages::game_on(thread.domain()),
                None => messages::accepted_saved(snap.row.id),
            };
            answer(http, ic, text).await
        }
        ids::DECLINE | ids::CANCEL => {
            let cancel = action == ids::CANCEL;
            services.challenges().close(id, user, cancel).await?;
            // The challenge message's edit goes out through the outbox.
            data.outbox.settle_challenge(id).await?;
            answer(http, ic, messages::challenge_closed_reply(cancel)).await
        }
        messages::puzzles::TRY_DAILY => {
            // The daily post's "Try it privately": the puzzle of that day, counted for
            // this server's post.
            let Some(guild) = ic.guild_id else {
                return answer(http, ic, messages::puzzles::NO_DAILY).await;
            };
            let view = services
                .puzzles()
                .try_daily(user, guild.domain(), id)
                .await?;
            let (text, png) = crate::puzzle::shown(services, &view).await?;
            respond::edit_component(
                http,
                ic,
                serenity::EditInteractionResponse::new()
                    .content(text)
                    .new_attachment(png)
                    .allowed_mentions(messages::mentions::none()),
            )
            .await
        }
        messages::privacy::FORGET => {
            // `/privacy delete`'s confirmation: only for whoever asked (the id is theirs).
            if i64::try_from(ic.user.id.get()) != Ok(id) {
                return answer(http, ic, messages::privacy::FORGET_NOT_YOURS).await;
            }
            let done = services.settings().forget(user).await?;
            answer(http, ic, messages::privacy::forgotten(done)).await
        }
        ids::RESIGN_YES => {
            let ended = services.games().resign(GameId(id), user).await?;
            let text = flows::after_end(&data.outbox, &ended).await?;
            answer(http, ic, text).await
        }
        ids::DRAW => {
            let r = services.games().offer_draw(GameId(id), user).await?;
            let text = flows::after_draw(&data.outbox, &r).await?;
            answer(http, ic, text).await
        }
        ids::DRAW_YES | ids::DRAW_NO => {
            let r = services
                .games()
                .answer_draw(GameId(id), user, action == ids::DRAW_YES)
                .await?;
            let text = flows::after_draw(&data.outbox, &r).await?;
            answer(http, ic, text).await
        }
        messages::fairness::VERIFY => {
            // Commitments (and after the end, salts and the check command)
            // privately, on request.
            let snap = services.games().load(GameId(id)).await?;
            let designations = services.games().designations(GameId(id)).await?;
            let text =
                messages::fairness::verify_text(&snap.row, snap.outcome().is_some(), &designations);
            answer(http, ic, text).await
        }
        messages::analysis::ANALYSE => {
            let guild = ic.guild_id.map(Domain::domain);
            let a = services.analyses().request(GameId(id), user, guild).await?;
            data.outbox.settle(GameId(id)).await?;
            answer(http, ic, messages::analysis::answer(&a)).await
        }
        ids::VIEW => {
            let snap = services.games().load(GameId(id)).await?;
            let (text, image) = flows::own_view_with_note(services, &snap, user).await?;
            respond::edit_component(
                http,
                ic,
                serenity::EditInteractionResponse::new()
                    .content(text)
                    .new_attachment(image)
                    .allowed_mentions(messages::mentions::none()),
            )
            .await?;
            Ok(())
        }
        ids::CHOOSE => {
            let snap = services.games().load(GameId(id)).await?;
            let menu = services.games().carrier_menu(GameId(id), user).await?;
            respond::edit_component(
                http,
                ic,
                serenity::EditInteractionResponse::new()
                    .content(messages::carrier_prompt(&snap.row, &menu))
                    .components(messages::carrier_menu(&menu))
                    .allowed_mentions(messages::mentions::none()),
            )
            .await?;
            Ok(())
        }
        ids::CARRIERS => {
            let serenity::ComponentInteractionDataKind::StringSelect { values } = &ic.data.kind
            else {
                return Err(ServiceError::Refused(Refusal::PickCarriers).into());
            };
            let d = services.games().designate(GameId(id), user, values).await?;
            flows::announce_designation(&data.outbox, &d).await?;
            // The private confirmation shows the chooser's own view (their carriers marked).
            let (_, image) = flows::own_view(services, &d.snap, user).await?;
            respond::edit_component(
                http,
                ic,
                serenity::EditInteractionResponse::new()
                    .content(flows::designation_confirmation(&d))
                    .new_attachment(image)
                    .allowed_mentions(messages::mentions::none()),
            )
            .await?;
            Ok(())
        }
        comfort_ids::TAKEBACK_YES | comfort_ids::TAKEBACK_NO => {
            let r = services
                .comforts()
                .answer_takeback(GameId(id), user, action == comfort_ids::TAKEBACK_YES)
                .await?;
            data.outbox.settle(GameId(id)).await?;
            answer(http, ic, messages::comforts::takeback_reply(&r)).await
        }
        comfort_ids::REMATCH => {
            let challenge = services
                .comforts()
                .rematch(GameId(id), user, ic.user.display_name())
                .await?;
            data.outbox.settle_challenge(challenge.id).await?;
            let opponent = challenge.spec.opponent_id.unwrap_or(user);
            answer(http, ic, messages::comforts::rematch_reply(opponent)).await
        }
        words::JOIN | words::LEAVE => {
            let guild = ic
                .guild_id
                .ok_or(ServiceError::from(
                    kaboom_service::leagues::LeagueRefusal::OutsideServer,
                ))?
                .domain();
            let leagues = services.leagues();
            let text = if action == words::JOIN {
                let row = leagues
                    .join(id, guild, user, ic.user.display_name())
                    .await?;
                messages::leagues::joined(&row, user)
            } else {
                messages::leagues::left(&leagues.leave(id, guild, user).await?)
            };
            data.outbox.settle_league(id).await?;
            answer(http, ic, text).await
        }
        _ => Err(ServiceError::Refused(Refusal::StaleButton).into()),
    }
}
