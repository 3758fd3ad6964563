//! Message texts and components: what the players read. Public texts use only public
//! information (spectator views, commitments); Beirut carriers appear only after the end.

pub mod analysis;
pub mod comforts;
pub mod direct;
pub mod failure;
pub mod fairness;
pub mod full_rules;
pub mod leagues;
pub mod mentions;
pub mod preview;
pub mod privacy;
pub mod puzzles;
pub mod ratings;
pub mod replay;
pub mod rules;
pub mod seeks;
pub use replay::replay_caption;

use kaboom_rules::{Color, Outcome, PlyRecord, Variant, Viewer};
use poise::serenity_prelude as serenity;

use kaboom_domain::deadline::SchedulerConfig;
use kaboom_domain::ids::{ChannelId, GameId, GuildId, MessageId, UserId};
use kaboom_service::scheduler::{Announcement, End, Nudge, Wording};
use kaboom_service::{Act, Refusal, ServiceError, Snapshot};
use kaboom_store::carriers::Designation;
use kaboom_store::challenges::{Challenge, ChallengeState, ColorChoice};
use kaboom_store::games::{GameRow, GameState};

/// Component custom ids: `kb:<action>:<id>`; `id` is a challenge id for `accept`,
/// `decline`, `cancel`, else a game id. Routed in the event handler, so they keep
/// working after a restart.
pub mod ids {
    /// Accept a challenge.
    pub const ACCEPT: &str = "accept";
    /// Decline a challenge.
    pub const DECLINE: &str = "decline";
    /// Cancel one's challenge.
    pub const CANCEL: &str = "cancel";
    /// Ask to resign (shows a confirmation).
    pub const RESIGN: &str = "resign";
    /// Confirm resigning.
    pub const RESIGN_YES: &str = "resignyes";
    /// Offer a draw.
    pub const DRAW: &str = "draw";
    /// Accept the opponent's draw offer.
    pub const DRAW_YES: &str = "drawyes";
    /// Decline it.
    pub const DRAW_NO: &str = "drawno";
    /// Show the clicker's own view, ephemerally.
    pub const VIEW: &str = "view";
    /// Open the carrier menu ephemerally (fallback when DMs are closed).
    pub const CHOOSE: &str = "choose";
    /// The carrier select menu.
    pub const CARRIERS: &str = "carriers";
    /// Open the move form of a game played by DM (a modal).
    pub const MOVE_ASK: &str = "moveask";
    /// The move form's submit (`kb:movemodal:<game id>`).
    pub const MOVE_MODAL: &str = "movemodal";
    /// The move form's text input.
    pub const MOVE_INPUT: &str = "action";

    /// `kb:<action>:<id>`.
    pub fn make(action: &str, id: impl Into<i64>) -> String {
        let id: i64 = id.into();
        format!("kb:{action}:{id}")
    }

    /// Splits a custom id made by [`make`].
    pub fn parse(custom_id: &str) -> Option<(&str, i64)> {
        let rest = custom_id.strip_prefix("kb:")?;
        let (action, id) = rest.split_once(':')?;
        Some((action, id.parse().ok()?))
    }
}

/// `White` or `Black`.
pub fn side(c: Color) -> &'static str {
    match c {
        Color::White => "White",
        Color::Black => "Black",
    }
}

/// `<@id>`.
pub fn mention(user: UserId) -> String {
    format!("<@{user}>")
}

/// A Discord timestamp, relative and absolute: `<t:..:f> (<t:..:R>)`.
pub fn timestamp(unix: i64) -> String {
    format!("<t:{unix}:f> (<t:{unix}:R>)")
}

/// The thread name: `Atomic · alice vs bob` (at most 100 characters).
pub fn thread_name(row: &GameRow) -> String {
    let name = format!(
        "{} · {} vs {}",
        row.variant.title(),
        row.white_name,
        row.black_name
    );
    name.chars().take(100).collect()
}

/// `alice (White) vs bob (Black)`.
pub fn players_line(row: &GameRow) -> String {
    format!("{} (White) vs {} (Black)", row.white_name, row.black_name)
}

/// The numbered movetext of `plies` (their public text, `display`), the first being ply
/// `first` (0-based): `1. e4 e5 2. Nf3`, or `12... Kd7 13. Qh5` from Black's ply.
pub fn numbered_moves(plies: &[PlyRecord], first: usize) -> String {
    let mut out = Vec::new();
    for (i, ply) in plies.iter().enumerate() {
        let at = first + i;
        let number = at / 2 + 1;
        if at.is_multiple_of(2) {
            out.push(format!("{number}. {}", ply.display));
        } else if i == 0 {
            out.push(format!("{number}... {}", ply.display));
        } else {
            out.push(ply.display.clone());
        }
    }
    out.join(" ")
}

/// `/moves`: the game's whole move list, numbered, under a heading; the start of a list
/// too long for one message is cut with `…` (the PGN has it all).
pub fn move_list(snap: &Snapshot) -> String {
    let row = &snap.row;
    let plies = snap.game.plies();
    let heading = format!(
        "**Game #{}** · {} · {} · {} {}",
        row.id,
        row.variant.title(),
        players_line(row),
        plies.len(),
        if plies.len() == 1 { "ply" } else { "plies" }
    );
    if plies.is_empty() {
        return format!(
            "{heading}
No move yet."
        );
    }
    let result = snap
        .outcome()
        .map(|o| format!(" {}", o.result()))
        .unwrap_or_default();
    let mut first = 0;
    loop {
        let cut = if first > 0 { "… " } else { "" };
        let text = format!(
            "{heading}
{cut}{}{result}",
            numbered_moves(&plies[first..], first)
        );
        // Discord's content limit, 2000 characters (Create Message).
        if text.chars().count() <= 2000 || first + 1 >= plies.len() {
            return text;
        }
        first += 2;
    }
}

/// `1-0 · alice wins by king exploded`.
pub fn outcome_line(row: &GameRow, outcome: &Outcome) -> String {
    match outcome.winner {
        Some(c) => format!(
            "**{}** · {} ({}) wins by {}",
            outcome.result(),
            row.name(c),
            side(c),
            outcome.reason.describe()
        ),
        // An aborted game has no result: PGN's `*` in bold would read `*****` on Discord.
        None if outcome.result() == "*" => format!("{}, no result", outcome.reason.describe()),
        None => format!("**{}** · {}", outcome.result(), outcome.reason.describe()),
    }
}

/// An outcome where no names are at hand, the side in title case as everywhere else:
/// `1-0, White won by king exploded`, `1/2-1/2, draw by agreement`, `aborted, no result`.
pub fn outcome_text(outcome: &Outcome) -> String {
    match outcome.winner {
        Some(c) => format!(
            "{}, {} won by {}",
            outcome.result(),
            side(c),
            outcome.reason.describe()
        ),
        None if outcome.result() == "*" => format!("{}, no result", outcome.reason.describe()),
        None => format!("{}, {}", outcome.result(), outcome.reason.describe()),
    }
}

/// The line about whose turn it is, with the deadline and a mention.
pub fn turn_line(row: &GameRow, turn: Color) -> String {
    let mut s = format!("{} ({}) to move", mention(row.player(turn)), side(turn));
    if let Some(d) = row.deadline_at {
        s.push_str(&format!(" · deadline {}", timestamp(d)));
    }
    s
}

/// What one action did: `**12. Nxd5** by alice · removed White's Qd4; Black's Bc6`.
pub fn action_line(row: &GameRow, ply_number: usize, ply: &PlyRecord) -> String {
    let moveno = ply_number.div_ceil(2);
    let dots = if ply.mover == Color::White {
        "."
    } else {
        "..."
    };
    let mut s = format!(
        "**{moveno}{dots} {}** by {}",
        ply.display,
        row.name(ply.mover)
    );
    if !ply.removed.is_empty() {
        s.push_str(&format!(" · removed {}", removed_text(ply)));
    }
    s
}

/// What `ply` removed, as a player says it: the mover's own piece that exploded where it
/// landed first, as "the capturing knight" (or "the moving detonator" when it did not
/// capture), then each side's pieces ([`preview::removed_by_side`]): `the capturing
/// knight; Black's Ke8, Bf8, pawn f7`.
pub(crate) fn removed_text(ply: &PlyRecord) -> String {
    let own = ply
        .removed
        .iter()
        .position(|r| Some(r.square) == ply.squares.to && r.piece.color == ply.mover);
    let Some(index) = own else {
        return preview::removed_by_side(&ply.removed);
    };
    let mover = &ply.removed[index];
    let how = if ply.display.contains('x') {
        "capturing"
    } else {
        "moving"
    };
    let mut text = format!("the {how} {}", mover.piece.kind.title().to_lowercase());
    let rest: Vec<kaboom_rules::Removal> = ply
        .removed
        .iter()
        .enumerate()
        .filter(|(i, _)| *i != index)
        .map(|(_, r)| *r)
        .collect();
    if !rest.is_empty() {
        text.push_str("; ");
        text.push_str(&preview::removed_by_side(&rest));
    }
    text
}

/// The line a game ended by a moderator gets under its result: who and why.
pub fn ruling_line(ruling: &kaboom_service::ModeratorRuling) -> String {
    format!(
        "Ended by a moderator, {}: {}",
        ruling.name,
        ruling.reason.replace('\n', " ")
    )
}

/// How many plies before the last one a board's caption lists (`… 10... Kd7 11. Nxe5
/// Boom@e4 **12. Qh5** by alice`): the last four, so a player coming back after days sees
/// how the position arose; `/moves` lists them all.
pub const EARLIER_PLIES_SHOWN: usize = 4;

/// The caption of a board message after an action (or at the start with `ply: None`): the
/// game, the last plies with the one just played in bold, notes, and whose turn it is.
pub fn board_caption(
    snap: &Snapshot,
    ply: Option<&PlyRecord>,
    reveal: &[Designation],
    notes: &[String],
) -> String {
    let row = &snap.row;
    let mut lines = vec![format!(
        "**{}** · {} · game #{}",
        row.variant.title(),
        players_line(row),
        row.id
    )];
    if let Some(p) = ply {
        let plies = snap.game.plies();
        let shown = plies.len().saturating_sub(1);
        let first = shown.saturating_sub(EARLIER_PLIES_SHOWN);
        let earlier = match &plies[first..shown] {
            [] => String::new(),
            some => format!(
                "{}{} ",
                if first > 0 { "… " } else { "" },
                numbered_moves(some, first)
            ),
        };
        lines.push(format!(
            "{earlier}{}",
            action_line(row, snap.game.ply_count(), p)
        ));
    }
    lines.extend(notes.iter().cloned());
    match snap.outcome() {
        Some(o) => {
            lines.push(format!("Game over: {}", outcome_line(row, &o)));
            lines.extend(fairness::reveal_lines(row, &snap.game, reveal));
        }
        None if row.state == GameState::Setup => {
            lines.push("Both players now choose their carriers privately.".into());
        }
        None => lines.push(turn_line(row, snap.game.turn())),
    }
    lines.join("\n")
}

/// The buttons under the latest board message: Resign, Offer draw, My view.
pub fn board_buttons(game_id: GameId, finished: bool) -> Vec<serenity::CreateActionRow> {
    let view = serenity::CreateButton::new(ids::make(ids::VIEW, game_id))
        .label("My view")
        .style(serenity::ButtonStyle::Secondary);
    if finished {
        return vec![serenity::CreateActionRow::Buttons(vec![
            view,
            comforts::rematch_button(game_id),
            serenity::CreateButton::new(ids::make(analysis::ANALYSE, game_id))
                .label("Analyse")
                .style(serenity::ButtonStyle::Secondary),
        ])];
    }
    vec![serenity::CreateActionRow::Buttons(vec![
        serenity::CreateButton::new(ids::make(ids::RESIGN, game_id))
            .label("Resign")
            .style(serenity::ButtonStyle::Danger),
        serenity::CreateButton::new(ids::make(ids::DRAW, game_id))
            .label("Offer draw")
            .style(serenity::ButtonStyle::Secondary),
        view,
    ])]
}

/// The move form of a game played by DM (a modal, `kb:movemodal:<game id>`): one short
/// text input for the action, typed as for `/move`. Discord's limits: a title of at most 45
/// characters, a label of at most 45, a placeholder of at most 100
/// (<https://discord.com/developers/docs/components/reference#text-input>).
pub fn move_form(game: GameId) -> serenity::CreateModal {
    let input = serenity::CreateInputText::new(
        serenity::InputTextStyle::Short,
        "Your move",
        ids::MOVE_INPUT,
    )
    .placeholder("As for /move: Nf3, exd5, g1f3, Boom")
    .min_length(1)
    .max_length(100)
    .required(true);
    serenity::CreateModal::new(
        ids::make(ids::MOVE_MODAL, game.0),
        format!("Your move in game #{game}"),
    )
    .components(vec![serenity::CreateActionRow::InputText(input)])
}

/// Discord's limit on a message's content: "up to 2000 characters"
/// (<https://discord.com/developers/docs/resources/message#create-message-jsonform-params>).
pub const MAX_MESSAGE_CHARS: usize = 2000;

/// `text` cut to [`MAX_MESSAGE_CHARS`] (with `…`), the last guard before a private answer
/// is sent: a longer one would be refused, and the player would see "The application did
/// not respond". Texts are written to fit; this only catches what slips through.
pub fn fit_message(text: String) -> String {
    if text.chars().count() <= MAX_MESSAGE_CHARS {
        return text;
    }
    tracing::warn!(
        chars = text.chars().count(),
        "an answer was cut to Discord's 2,000 characters"
    );
    let mut cut: String = text.chars().take(MAX_MESSAGE_CHARS - 1).collect();
    cut.push('…');
    cut
}

/// The most characters of a player's own input a reply quotes ([`excerpt`]).
pub const EXCERPT_CHARS: usize = 40;

/// A player's input as a reply quotes it: in quotes, cut to [`EXCERPT_CHARS`] characters
/// with `…` when longer, so that no reply outgrows Discord's 2,000 characters for what
/// was typed (`'Nf3'`, `'xxxxxxxx…'`).
pub fn excerpt(typed: &str) -> String {
    if typed.chars().count() <= EXCERPT_CHARS {
        return format!("'{typed}'");
    }
    let cut: String = typed.chars().take(EXCERPT_CHARS - 1).collect();
    format!("'{cut}…'")
}

/// The answer to an option value that a command does not offer (what only a modified
/// client sends: a choice outside the list, a number outside its bounds).
pub fn option_not_offered(command: &str, input: Option<&str>) -> String {
    match input {
        Some(input) => format!(
            "`/{command}`: {} is not a value I offer for that option. Pick one from the list Discord shows.",
            excerpt(input)
        ),
        None => format!(
            "`/{command}`: an option's value is not one I offer. Pick from the lists Discord shows."
        ),
    }
}

/// Accept / Decline / Cancel under a challenge.
pub fn challenge_buttons(challenge_id: i64) -> Vec<serenity::CreateActionRow> {
    vec![serenity::CreateActionRow::Buttons(vec![
        serenity::CreateButton::new(ids::make(ids::ACCEPT, challenge_id))
            .label("Accept")
            .style(serenity::ButtonStyle::Success),
        serenity::CreateButton::new(ids::make(ids::DECLINE, challenge_id))
            .label("Decline")
            .style(serenity::ButtonStyle::Secondary),
        serenity::CreateButton::new(ids::make(ids::CANCEL, challenge_id))
            .label("Cancel")
            .style(serenity::ButtonStyle::Danger),
    ])]
}

/// Accept / Decline under a draw offer.
pub fn draw_buttons(game_id: GameId) -> Vec<serenity::CreateActionRow> {
    vec![serenity::CreateActionRow::Buttons(vec![
        serenity::CreateButton::new(ids::make(ids::DRAW_YES, game_id))
            .label("Accept draw")
            .style(serenity::ButtonStyle::Success),
        serenity::CreateButton::new(ids::make(ids::DRAW_NO, game_id))
            .label("Decline")
            .style(serenity::ButtonStyle::Secondary),
    ])]
}

/// The carrier select menu (multi-select for Multiple Beirut).
pub fn carrier_menu(menu: &kaboom_service::CarrierMenu) -> Vec<serenity::CreateActionRow> {
    let options = menu
        .options
        .iter()
        .map(|(square, kind)| {
            serenity::CreateSelectMenuOption::new(
                format!("{} {square}", kind.title()),
                square.to_string(),
            )
        })
        .collect();
    let n = menu.count.min(menu.options.len()).max(1) as u8;
    let placeholder = if n == 1 {
        "Choose your carrier".to_string()
    } else {
        format!("Choose your {n} carriers")
    };
    vec![serenity::CreateActionRow::SelectMenu(
        serenity::CreateSelectMenu::new(
            ids::make(ids::CARRIERS, menu.game_id),
            serenity::CreateSelectMenuKind::String { options },
        )
        .placeholder(placeholder)
        .min_values(n)
        .max_values(n),
    )]
}

/// The text above a carrier menu.
pub fn carrier_prompt(row: &GameRow, menu: &kaboom_service::CarrierMenu) -> String {
    let what = match row.variant {
        Variant::Beirut => format!(
            "Choose {} of your pieces (not the king) to carry {} — your opponent does not see your choice: a carrier is revealed only when it explodes (your Boom, or its capture with Dead Man's Switch), and all carriers when the game ends.",
            if menu.count == 1 { "one".to_string() } else { menu.count.to_string() },
            if menu.count == 1 { "the bomb" } else { "bombs" }
        ),
        _ => "Choose the piece that carries your bomb. Both carriers are revealed once both players have chosen.".to_string(),
    };
    format!(
        "**{}** game #{} · {} — you play {}.\n{what}\n{}",
        row.variant.title(),
        row.id,
        players_line(row),
        side(menu.color),
        designation_abort_note(row.created_at, menu.abort_at - row.created_at)
    )
}

/// The message of an open challenge: [`challenge_text`] and when it expires if nobody
/// accepts (`created_at` Unix seconds, the TTL from `config`).
pub fn open_challenge_text(
    c: &kaboom_store::challenges::Challenge,
    created_at: i64,
    config: &SchedulerConfig,
) -> String {
    let text = format!(
        "{}\n{}",
        challenge_text(c),
        challenge_expiry_note(created_at, config)
    );
    match c.spec.venue {
        kaboom_store::challenges::Venue::Thread => text,
        kaboom_store::challenges::Venue::Direct | kaboom_store::challenges::Venue::Seek => {
            format!("{text}\n{}", direct::PLAYED_BY_DM)
        }
    }
}

/// The first message of a `/play-bot` game: who plays the bot, at which level,
/// and that the game starts in its thread at once.
pub fn practice_game_text(
    c: &kaboom_store::challenges::Challenge,
    level: kaboom_engine::Level,
) -> String {
    format!(
        "{}\nI play at level {} of 5 and answer within seconds; practice games are never rated. \
         The game starts in its thread.",
        challenge_text(c),
        level.number()
    )
}

/// The answer to `/challenge` with the bot as the opponent.
pub fn challenge_the_bot() -> &'static str {
    "To play me, use `/play-bot` (choose a variant and a level from 1 to 5). `/challenge` is for playing other people."
}

/// The `/challenge` message text.
pub fn challenge_text(c: &kaboom_store::challenges::Challenge) -> String {
    let s = &c.spec;
    let who = match s.opponent_id {
        Some(o) => format!("{} challenges {}", mention(s.challenger_id), mention(o)),
        None => format!("{} is looking for an opponent", mention(s.challenger_id)),
    };
    format!(
        "{who} to a game of **{}** ({}).",
        s.variant.title(),
        challenge_terms(c).join(", ")
    )
}

/// A challenge's terms in the order players read them: the time per move, rated or
/// casual, Beirut's options, the colours (`3 days per move`, `rated`, `colours drawn at
/// random`).
pub fn challenge_terms(c: &kaboom_store::challenges::Challenge) -> Vec<String> {
    let s = &c.spec;
    let mut opts = vec![match s.days_per_move {
        Some(d) => format!("{d} day{} per move", if d == 1 { "" } else { "s" }),
        None => "no time limit".into(),
    }];
    opts.push(if s.rated {
        "rated".into()
    } else {
        "casual".into()
    });
    if s.variant == Variant::Beirut {
        opts.push(format!(
            "{} carrier{}",
            s.options.carriers,
            if s.options.carriers == 1 { "" } else { "s" }
        ));
        if s.options.dead_mans_switch {
            opts.push("Dead Man's Switch".into());
        }
    }
    opts.push(match s.color {
        ColorChoice::White => "challenger plays White".to_string(),
        ColorChoice::Black => "challenger plays Black".to_string(),
        ColorChoice::Random => "colours drawn at random".to_string(),
    });
    opts
}

/// A duration as the scheduler's messages say it: `7 days` for whole weeks and more,
/// otherwise in hours (`48 hours`).
pub fn duration_text(secs: i64) -> String {
    if secs % 86_400 == 0 && secs >= 7 * 86_400 {
        let d = secs / 86_400;
        format!("{d} day{}", if d == 1 { "" } else { "s" })
    } else {
        let h = secs / 3600;
        format!("{h} hour{}", if h == 1 { "" } else { "s" })
    }
}

/// The link to a channel or thread.
pub fn channel_link(guild: Option<GuildId>, channel: ChannelId) -> String {
    match guild {
        Some(g) => format!("https://discord.com/channels/{g}/{channel}"),
        None => format!("https://discord.com/channels/@me/{channel}"),
    }
}

/// The link to message `message` in `channel` of server `guild` (built from the
/// game's row, since a message created over REST carries no guild id and its own link
/// would point at `@me`).
pub fn message_link(guild: Option<GuildId>, channel: ChannelId, message: MessageId) -> String {
    format!("{}/{message}", channel_link(guild, channel))
}

/// `/games` when nothing is listed: `name` has no active games `here` ("in this server",
/// "with you", or "" for the caller's own games in a direct message).
pub fn no_active_games(name: &str, here: &str) -> String {
    if here.is_empty() {
        format!("{name} has no active games.")
    } else {
        format!("{name} has no active games {here}.")
    }
}

/// `/games`'s first line: the active games of `name` `here` (as [`no_active_games`]).
pub fn active_games_header(name: &str, here: &str) -> String {
    if here.is_empty() {
        format!("Active games of {name}:")
    } else {
        format!("Active games of {name} {here}:")
    }
}

/// Discord's limit on a message's content, in characters.
pub const MESSAGE_LIMIT: usize = 2000;

/// `lines` joined by newlines within `limit` characters: the first line and as
/// many of the others as fit, then `… and N more.` for the rest.
pub fn fit_lines(lines: &[String], limit: usize) -> String {
    let whole = lines.join("\n");
    if whole.chars().count() <= limit {
        return whole;
    }
    let mut kept = String::new();
    let mut used = 0;
    for (i, line) in lines.iter().enumerate() {
        let rest = lines.len() - i;
        let tail = format!("\n… and {rest} more.");
        let len = line.chars().count() + usize::from(i > 0);
        if used + len + tail.chars().count() > limit {
            kept.push_str(&tail);
            return kept;
        }
        if i > 0 {
            kept.push('\n');
        }
        kept.push_str(line);
        used += len;
    }
    kept
}

/// How the expiry line of an open challenge begins (the notifier drops that line when it
/// marks the challenge expired).
pub const EXPIRY_NOTE_PREFIX: &str = "Open for ";

/// The line an open challenge's message shows about its expiry: `Open for 7 days: expires
/// <t:..:R> if nobody accepts.` (a Discord timestamp, `created_at` + the challenge TTL).
pub fn challenge_expiry_note(created_at: i64, config: &SchedulerConfig) -> String {
    format!(
        "{EXPIRY_NOTE_PREFIX}{}: expires <t:{}:R> if nobody accepts.",
        duration_text(config.challenge_ttl_secs),
        config.challenge_expires_at(created_at)
    )
}

/// The line a carrier-choice message shows (Beirut, Nuke): the game is aborted unless both
/// players have chosen within the designation timeout, counted from `created_at` (the
/// game's creation).
pub fn designation_abort_note(created_at: i64, timeout_secs: i64) -> String {
    format!(
        "Both players must choose within {} (by <t:{}:f>, <t:{}:R>), or the game is aborted with no result.",
        duration_text(timeout_secs),
        created_at + timeout_secs,
        created_at + timeout_secs
    )
}

/// The content of an expired challenge's message: its lines but the expiry note, then
/// `**Expired.**` and `text`.
pub fn expired_challenge(old: &str, text: &str) -> String {
    // The "Open for 7 days: expires ..." line no longer applies; an expiry note already
    // there (an earlier attempt whose answer was lost) is replaced, not repeated.
    let kept: Vec<&str> = old
        .lines()
        .filter(|l| !l.starts_with(EXPIRY_NOTE_PREFIX) && !l.starts_with(EXPIRED))
        .collect();
    if kept.is_empty() {
        format!("{EXPIRED} {text}")
    } else {
        format!("{}\n{EXPIRED} {text}", kept.join("\n"))
    }
}

/// The mark of an expired challenge's message.
const EXPIRED: &str = "**Expired.**";

/// A nudge posted in the thread: the player's mention, then the nudge.
pub fn nudge_in_thread(user: UserId, text: &str) -> String {
    format!("{} {text}", mention(user))
}

/// The words of the scheduler's announcements ([`Wording`]).
#[derive(Clone, Copy, Debug, Default)]
pub struct SchedulerWords;

/// The scheduler's [`Wording`], to give [`kaboom_service::scheduler::Scheduler::new`].
pub fn scheduler_wording() -> std::sync::Arc<dyn Wording> {
    std::sync::Arc::new(SchedulerWords)
}

impl Wording for SchedulerWords {
    fn announce(&self, announcement: &Announcement<'_>) -> String {
        match *announcement {
            Announcement::ChallengeExpired {
                challenger_name,
                ttl_secs,
            } => format!(
                "This challenge expired: nobody accepted it within {}. {challenger_name} can post a new one with /challenge.",
                duration_text(ttl_secs)
            ),
            Announcement::VacationOver { row, vacation } => comforts::vacation_ended(row, vacation),
            Announcement::Nudge {
                row,
                to_move,
                nudge,
                channel,
            } => {
                let opponent = row.name(to_move.other());
                let what = match nudge {
                    Nudge::Share { percent } => format!(
                        "you have used {percent}% of your time; the deadline is <t:{}:R>.",
                        row.deadline_at.unwrap_or_default()
                    ),
                    Nudge::Idle { idle_secs, .. } => {
                        format!("no move for {}.", duration_text(*idle_secs))
                    }
                };
                // The thread may have been archived (and a moderator may have
                // locked it); `/move game:` works from any channel.
                format!(
                    "Your move in game #{id} ({} against {opponent}): {what} {}\nFrom any channel: `/move game:{id} action:...`",
                    row.variant.title(),
                    channel_link(row.guild_id, channel),
                    id = row.id,
                )
            }
            Announcement::GameEnded {
                row,
                game,
                outcome,
                end,
                reveal,
                rating,
            } => {
                let both = format!("{} {}", mention(row.white_id), mention(row.black_id));
                let mut text = match end {
                    End::Forfeit { loser } => {
                        let loser = *loser;
                        let winner = loser.other();
                        let name = row.name(winner);
                        let verdict = if outcome.winner.is_some() {
                            format!(". {name} ({}) wins on time", side(winner))
                        } else {
                            format!(
                                ", but {name} ({}) has no way to win any more, so the game is drawn",
                                side(winner)
                            )
                        };
                        format!(
                            "Time is up in game #{}: {} ({}) did not move by the deadline{verdict}, {}. {both}",
                            row.id,
                            row.name(loser),
                            side(loser),
                            outcome.result()
                        )
                    }
                    End::Aborted {
                        timeout_secs,
                        missing,
                    } => {
                        let missing: Vec<String> = missing
                            .iter()
                            .map(|c| format!("{} ({})", row.name(*c), side(*c)))
                            .collect();
                        format!(
                            "Game #{} is aborted: the carriers were not chosen within {} (still waiting for {}). No result is recorded; challenge again any time. {both}",
                            row.id,
                            duration_text(*timeout_secs),
                            missing.join(" and ")
                        )
                    }
                };
                for line in fairness::reveal_lines(row, game, reveal) {
                    text.push('\n');
                    text.push_str(&line);
                }
                for line in ratings::result_lines(row, outcome, rating) {
                    text.push('\n');
                    text.push_str(&line);
                }
                text
            }
        }
    }
}

/// The answer to a server-only command (`/league ...`, `/settings server`) used in a
/// direct message.
pub fn server_only(command: &str) -> String {
    format!("`/{command}` works in a server's channel, not in a direct message.")
}

/// What a refused player reads.
pub fn refusal(r: &Refusal) -> String {
    match r {
        Refusal::Comfort(c) => comforts::refusal(c),
        Refusal::League(l) => leagues::refusal(l),
        Refusal::Analysis(a) => analysis::refusal(a),
        Refusal::UnknownGame { id } => format!("There is no game #{id}."),
        Refusal::UnknownChallenge { id } => format!("There is no challenge #{id}."),
        Refusal::NotAPlayer { white, black, act } => {
            let verb = match act {
                Act::Move => "move",
                Act::ChooseCarriers => "choose carriers",
                Act::Resign => "resign",
                Act::Abort => "abort",
                Act::OfferDraw => "offer a draw",
                Act::AnswerDraw => "answer a draw offer",
            };
            format!("Only {white} and {black} can {verb} in this game; you can watch with /board.")
        }
        Refusal::NotYourTurn {
            game,
            to_move,
            name,
        } => format!(
            "It is not your turn in game #{game}: {name} ({}) is to move. To answer their move in advance, use `/premove line` (their move, then your reply).",
            side(*to_move)
        ),
        Refusal::GameOver(outcome) => format!("The game is over: {}.", outcome_text(outcome)),
        Refusal::AlreadyOver(outcome) => {
            format!("The game is already over: {}.", outcome_text(outcome))
        }
        Refusal::NotStarted => {
            "The game has not started: both players must choose their carriers first.".into()
        }
        Refusal::TimeUp {
            game,
            to_move,
            name,
            deadline,
        } => format!(
            "Time is up in game #{game}: {name} ({}) had until <t:{deadline}:f> to move. The game ends on time; the result is being announced in the thread.",
            side(*to_move)
        ),
        Refusal::DesignationTimeUp { game, deadline } => format!(
            "Too late: the carriers of game #{game} had to be chosen by <t:{deadline}:f>. The game is aborted with no result; challenge again any time."
        ),
        Refusal::IllegalAction {
            reason,
            alternatives,
        } => match alternatives {
            Some(some) => format!("{reason}. Some legal actions: {}", some.join(", ")),
            None => reason.clone(),
        },
        Refusal::DaysNotOffered { days } => format!(
            "{days} days per move is not offered: choose 1, 2, 3, 5, 7, 10 or 14 days, or none."
        ),
        Refusal::ChallengeSelf => {
            "You cannot challenge yourself: leave the opponent out to let anyone accept.".into()
        }
        Refusal::BeirutOptionsOnly { variant } => format!(
            "carriers and dead_mans_switch are Beirut options; {} does not take them.",
            variant.title()
        ),
        Refusal::CarrierCount => {
            "Beirut takes 1 to 15 carriers per side (Multiple Beirut).".into()
        }
        Refusal::VariantUnavailable { variant, reason } => {
            format!("{} cannot be played: {reason}", variant.title())
        }
        Refusal::ChallengeNotOpen { was: None } => "This challenge is no longer open.".into(),
        Refusal::ChallengeNotOpen { was: Some(state) } => format!(
            "This challenge is no longer open (it was {}).",
            match state {
                ChallengeState::Accepted => "accepted",
                ChallengeState::Declined => "declined",
                ChallengeState::Expired => "expired: nobody accepted it in time",
                _ => "cancelled",
            }
        ),
        Refusal::ChallengeExpired { at } => format!(
            "This challenge expired at <t:{at}:f>: nobody accepted it in time. Challenge again any time."
        ),
        Refusal::AcceptOwnChallenge => {
            "You cannot accept your own challenge; use Cancel to withdraw it.".into()
        }
        Refusal::AddressedToSomeoneElse => {
            "This challenge is addressed to someone else: only they can accept it.".into()
        }
        Refusal::CannotStart { reason } => format!("This game cannot start: {reason}"),
        Refusal::OnlyChallengerCancels => "Only the challenger can cancel this challenge.".into(),
        Refusal::OnlyChallengedDeclines => {
            "Only the challenged player can decline this challenge.".into()
        }
        Refusal::DeclineOwnChallenge => {
            "This is your own challenge: use Cancel to withdraw it.".into()
        }
        Refusal::OpenToAnyone => {
            "This open challenge is for anyone: just leave it if you don't want to play.".into()
        }
        Refusal::TooManyPracticeGames { limit } => format!(
            "You already have {limit} practice games going, the most one player may have: finish or resign one first, so that everyone gets the engine's time."
        ),
        Refusal::TooManyChallenges { limit } => format!(
            "You already have {limit} open challenges, the most one player may have: cancel one (its Cancel button), or wait for them to be accepted or to expire."
        ),
        Refusal::TooManySeeks { limit } => format!(
            "You already have {limit} open seeks, the most one player may have: cancel one with `/seeks`, or wait for someone to accept."
        ),
        Refusal::NoCarriersToChoose => {
            "You have no carriers to choose in this game (already chosen, or the game has started).".into()
        }
        Refusal::BadSquare { reason } => reason.clone(),
        Refusal::AlreadyChosen => {
            "You have already chosen your carriers (or the game has started).".into()
        }
        Refusal::CarriersNotAllowed { reason } => {
            format!("Those carriers are not allowed: {reason}")
        }
        Refusal::TooLateToAbort => {
            "Both sides have moved: the game can no longer be aborted. You can /resign or offer a /draw.".into()
        }
        Refusal::DrawBeforeStart => {
            "The game has not started yet: you can /abort it instead.".into()
        }
        Refusal::DrawAlreadyOffered => {
            "Your draw offer already stands; it is up to your opponent.".into()
        }
        Refusal::OwnDrawOffer => "That is your own draw offer: your opponent answers it.".into(),
        Refusal::NoDrawOffer => {
            "No draw offer stands in this game (a move by the other side declines it).".into()
        }
        Refusal::NotAGame { typed } => {
            format!(
                "{} is not a game: pick one from the list (e.g. #12).",
                excerpt(typed)
            )
        }
        Refusal::WhichGame => {
            "Use this in the game's thread, or choose the game with the `game` option.".into()
        }
        Refusal::PickCarriers => "Pick your carriers from the menu.".into(),
        Refusal::StaleButton => "This button is no longer in use.".into(),
        Refusal::BadSetting { reason } => reason.clone(),
        Refusal::ChallengeNotHere { place } => format!(
            "A challenge cannot be posted in {place}: its game is played in a thread of a server's text channel. Use /challenge in one."
        ),
        Refusal::BotLacksPermissions { missing } => format!(
            "I cannot host a game in this channel: I lack the {} permission{} here. Ask a server admin to grant {} to my role in this channel, or use another channel.",
            missing.join(", "),
            if missing.len() == 1 { "" } else { "s" },
            if missing.len() == 1 { "it" } else { "them" }
        ),
        Refusal::NotThisServersGame { id } => format!(
            "Game #{id} is not played in this server: moderators end games of their own server only."
        ),
        Refusal::RulingReason { chars } => format!(
            "Give a reason of 1 to {} characters (it is posted in the game's thread with the result); yours has {chars}.",
            kaboom_service::MAX_RULING_REASON_CHARS
        ),
        Refusal::NotReadableHere { id } => format!(
            "Game #{id} can be read only in its own server, or by its players in a direct message with me."
        ),
        Refusal::NotYourPreview => {
            "This preview is someone else's: use /move to see your own.".into()
        }
        Refusal::PreviewDone { action } => format!("Done: {action} is already played."),
        Refusal::PreviewCancelled => {
            "This preview was cancelled: nothing was played. Use /move to choose again.".into()
        }
        Refusal::PreviewGone => format!(
            "This preview is no longer kept (previews last {} minutes, and I keep your {} latest): nothing was played. Use /move to see it again.",
            kaboom_store::previews::KEPT_SECS / 60,
            kaboom_store::previews::PENDING_PER_PLAYER
        ),
        Refusal::NoPuzzleLeft { variant, theme } => match theme {
            Some(theme) => format!(
                "You have tried every {} puzzle with the theme '{}'. Try another theme, or leave it out.",
                variant.title(),
                puzzles::theme_words(theme)
            ),
            None => format!(
                "You have tried every {} puzzle. Try another variant.",
                variant.title()
            ),
        },
        Refusal::NoPuzzles { variant } => format!(
            "There are no {} puzzles yet. Try another variant.",
            variant.title()
        ),
        Refusal::UnknownPuzzle { id } => {
            format!("There is no puzzle '{id}'. `/puzzle solve` gives you one.")
        }
        Refusal::NoPuzzleOpen => {
            "No puzzle is waiting for your move: `/puzzle solve` gives you one.".into()
        }
        Refusal::PuzzleMovedOn => {
            "Another answer of yours to this puzzle counted first: its reply is above.".into()
        }
    }
}

/// The answer to an action another one overtook ([`ServiceError::MovedOn`]), before the new
/// position.
pub const MOVED_ON: &str =
    "The game moved on before your action was saved; here is the new position.";

/// The display letter of a removed or listed piece: `Q`, `N`, ... (empty for pawns), or
/// the kind's title followed by a space for kinds outside chess.
pub fn piece_tag(kind: kaboom_rules::Kind) -> String {
    use kaboom_rules::Kind;
    match kind {
        Kind::Pawn => String::new(),
        Kind::Knight => "N".into(),
        Kind::Bishop => "B".into(),
        Kind::Rook => "R".into(),
        Kind::Queen => "Q".into(),
        Kind::King => "K".into(),
        other => format!("{} ", other.title()),
    }
}

/// `Qd4, Bc6, e5`: the pieces removed, for captions and autocomplete labels.
pub fn removed_list(removed: &[kaboom_rules::Removal]) -> String {
    removed
        .iter()
        .map(|r| format!("{}{}", piece_tag(r.piece.kind), r.square))
        .collect::<Vec<_>>()
        .join(", ")
}

/// The Resign button pressed by someone who does not play the game.
pub const RESIGN_NOT_A_PLAYER: &str = "Only the two players can resign this game.";

/// The Resign button of a game that is over.
pub const ALREADY_OVER: &str = "This game is already over.";

/// The confirmation question of the Resign button.
pub fn resign_question(game: GameId) -> String {
    format!("Do you really want to resign game #{game}?")
}

/// The challenge message once `user` accepted it and the game is played in `thread`.
pub fn challenge_accepted(
    challenge: &Challenge,
    user: UserId,
    thread: Option<ChannelId>,
) -> String {
    let accepted = format!(
        "{}\nAccepted by {}: game #{}",
        challenge_text(challenge),
        mention(user),
        challenge.game_id.unwrap_or_default(),
    );
    match thread {
        Some(thread) => format!("{accepted} is played in <#{thread}>."),
        // The thread is still on its way through the outbox.
        None => format!("{accepted}."),
    }
}

/// The answer to the accepting player.
pub fn game_on(thread: ChannelId) -> String {
    format!("Game on! See <#{thread}>.")
}

/// The challenge message once `user` cancelled (`cancel`) or declined it.
pub fn challenge_closed(challenge: &Challenge, cancel: bool, user: UserId) -> String {
    format!(
        "{}\n{} by {}.",
        challenge_text(challenge),
        if cancel { "Cancelled" } else { "Declined" },
        mention(user)
    )
}

/// What is posted in the channel when a declined or cancelled challenge's message is gone.
pub fn challenge_closed_line(challenge_id: i64, cancel: bool, user: UserId) -> String {
    format!(
        "Challenge #{challenge_id} was {} by {}.",
        if cancel { "cancelled" } else { "declined" },
        mention(user)
    )
}

/// The answer to the player who cancelled or declined a challenge.
pub fn challenge_closed_reply(cancel: bool) -> &'static str {
    if cancel {
        "Challenge cancelled."
    } else {
        "Challenge declined."
    }
}

/// What a player reads when a service call failed: the refusal, or the error itself.
pub fn service_error(e: &ServiceError) -> String {
    match e {
        ServiceError::Refused(r) => refusal(r),
        ServiceError::MovedOn { .. } => MOVED_ON.into(),
        other if failure::is_unreadable(other) => failure::UNREADABLE_GAME.to_string(),
        other => other.to_string(),
    }
}

/// Added to the answer to a move in a practice game when other players' games wait for
/// the engine too (it takes players in turn): how many, and about when its reply comes
/// (whole seconds, rounded up; "after theirs" before the engine has timed a search).
pub fn engine_busy(wait: kaboom_service::engine::ReplyWait) -> String {
    let players = match wait.players_ahead {
        1 => "1 other player".to_string(),
        n => format!("{n} other players"),
    };
    match wait.about {
        Some(about) => {
            let secs = about.as_secs_f64().ceil().max(1.0);
            format!(
                "The engine is thinking for {players} first: its reply comes in about {secs} s."
            )
        }
        None => {
            format!("The engine is thinking for {players} first: its reply comes after theirs.")
        }
    }
}

/// The private answer to a command, click or form past the player's commands per minute.
pub fn slow_down(slow: crate::limiter::SlowDown) -> String {
    format!(
        "Slow down: each player may send {} commands a minute here. Try again in {} s.",
        slow.per_minute, slow.retry_after_secs
    )
}

/// The in-thread offer of the carrier menu to a player whose DMs are closed.
pub fn dm_refused_choose_privately(user: UserId) -> String {
    format!(
        "{} I could not send you a direct message. Click below to choose your carriers privately (only you will see the menu).",
        mention(user)
    )
}

/// The "Choose privately" button under [`dm_refused_choose_privately`]: it opens the
/// carrier menu in an answer only the player sees.
pub fn choose_privately_button(game_id: GameId) -> Vec<serenity::CreateActionRow> {
    vec![serenity::CreateActionRow::Buttons(vec![
        serenity::CreateButton::new(ids::make(ids::CHOOSE, game_id))
            .label("Choose privately")
            .style(serenity::ButtonStyle::Primary),
    ])]
}

/// Added to an acknowledgement when the change is committed but its posts have not gone
/// out yet (a Discord failure or a slow answer): they follow from the outbox.
pub const SAVED_POSTS_FOLLOW: &str =
    "It is saved; the board will be posted in the game's thread shortly.";

/// The acknowledgement of a move that is saved but whose board is not posted yet.
pub fn played_saved(display: &str, game_id: GameId) -> String {
    format!("Played **{display}** in game #{game_id}. {SAVED_POSTS_FOLLOW}")
}

/// The mover's acknowledgement once the board is posted in the channel they played in
/// (the game's thread): the board is right there, so no link.
pub fn played_here(display: &str, game_id: GameId) -> String {
    format!("Played **{display}** in game #{game_id}.")
}

/// The mover's acknowledgement once the board is posted: the move and the board's `link`.
pub fn played_with_link(display: &str, game_id: GameId, link: &str) -> String {
    format!("Played **{display}** in game #{game_id}: {link}")
}

/// `text` with [`SAVED_POSTS_FOLLOW`] under it (the posts are not out yet).
pub fn with_saved_note(text: &str) -> String {
    format!("{text}\n{SAVED_POSTS_FOLLOW}")
}

/// The acknowledgement of a game that ended off the board (resignation, agreement, abort).
pub fn game_over(row: &GameRow, outcome: &Outcome) -> String {
    format!("Game #{} is over: {}", row.id, outcome_line(row, outcome))
}

/// The acknowledgement of a draw offer.
pub fn draw_offer_sent() -> String {
    "Draw offered. You may still make your move.".to_string()
}

/// The acknowledgement of a declined draw offer.
pub fn draw_decline_sent() -> String {
    "Draw declined.".to_string()
}

/// The announcement of `by`'s draw offer, pinging the opponent.
pub fn draw_offered(row: &GameRow, by: Color) -> String {
    format!(
        "{} {} ({}) offers a draw. It stands until you accept or decline it, or make a move.",
        mention(row.player(by.other())),
        row.name(by),
        side(by)
    )
}

/// The announcement that the draw offer `by` made was declined (by the other side).
pub fn draw_declined(row: &GameRow, by: Color) -> String {
    format!(
        "{} ({}) declined the draw offer.",
        row.name(by.other()),
        side(by.other())
    )
}

/// The board caption's note of a move that let the opponent's draw offer lapse.
pub fn draw_offer_lapsed() -> String {
    "(The draw offer lapsed with this move.)".to_string()
}

/// The announcement that `color` has chosen their carriers (the opponent has not yet).
pub fn has_chosen(row: &GameRow, color: Color) -> String {
    format!("{} ({}) has chosen.", row.name(color), side(color))
}

/// The first line under the board once both players have chosen their carriers.
pub fn play_starts() -> String {
    "Both players have chosen: play starts.".to_string()
}

/// `a`, `a and b`, `a, b and c`.
pub(crate) fn and_list(items: &[String]) -> String {
    match items {
        [] => String::new(),
        [one] => one.clone(),
        [rest @ .., last] => format!("{} and {last}", rest.join(", ")),
    }
}

/// The private confirmation of a designation (the chooser's own view).
pub fn designation_confirmation(d: &kaboom_service::Designated) -> String {
    // Each carrier named as the player sees it: "your bishop on f1".
    let view = d.snap.game.board_view(Viewer::player(d.color));
    let carriers: Vec<String> = d
        .designation
        .squares
        .split(',')
        .map(|square| {
            let kind = square
                .parse()
                .ok()
                .and_then(|sq| view.piece_at(sq))
                .map_or("piece", |p| p.kind.name());
            format!("your {kind} on **{square}**")
        })
        .collect();
    let noun = if carriers.len() == 1 {
        "carrier"
    } else {
        "carriers"
    };
    let mut s = format!(
        "Your {noun} in game #{}: {}.",
        d.snap.row.id,
        and_list(&carriers)
    );
    if d.snap.row.variant == Variant::Beirut {
        s.push_str(" Your choice is sealed: **Verify fairness** under the board shows the proof.");
    }
    if !d.started {
        s.push_str(" Waiting for your opponent to choose.");
    }
    s
}

/// The short caption of a player's own view of a finished game (the public board has
/// the reveal).
pub fn finished_view_caption(row: &GameRow) -> String {
    format!(
        "**{}** · {} · game #{}",
        row.variant.title(),
        players_line(row),
        row.id
    )
}

/// The line under a Beirut player's own view.
pub fn own_view_note() -> &'static str {
    "\n(Your own view: your carriers are marked. Only you see this.)"
}

/// The acknowledgement of an accepted challenge whose thread is not open yet.
pub fn accepted_saved(game_id: GameId) -> String {
    format!("Game on! Game #{game_id} is saved; its thread will open shortly.")
}

#[cfg(test)]
mod tests {
    use super::*;
    use kaboom_rules::EndReason;

    /// Refusals name the result without names, the side in title case ("bob (black)" was
    /// a first user's complaint), an abort as having no result.
    #[test]
    fn outcomes_without_names_read_as_the_rest_of_the_texts() {
        assert_eq!(
            outcome_text(&Outcome::win(Color::Black, EndReason::Adjudication)),
            "0-1, Black won by adjudication"
        );
        assert_eq!(
            outcome_text(&Outcome::draw(EndReason::Agreement)),
            "1/2-1/2, draw by agreement"
        );
        assert_eq!(
            outcome_text(&Outcome::draw(EndReason::Aborted)),
            "aborted, no result"
        );
    }
}
