//! The outbox's vocabulary: what an entry posts ([`Effect`], the entry's JSON payload).

use serde::{Deserialize, Serialize};

use kaboom_domain::ids::{ChannelId, GameId, MessageId, UserId};
use kaboom_store::outbox::NewEffect;

/// What an outbox entry posts (its `payload`; `kind` is the tag).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "kebab-case")]
pub enum Effect {
    /// The game's public thread, in the challenge's channel, started from the challenge's
    /// message when it is known.
    Thread {
        /// The challenge's channel.
        channel_id: ChannelId,
        /// The thread's name.
        name: String,
        /// The challenge's message, which the thread is started from (entries written
        /// before it was recorded have none).
        #[serde(default)]
        message_id: Option<MessageId>,
    },
    /// The accepted challenge's message says who accepted it and links the game's thread,
    /// and loses its buttons (the entry's `challenge_id` names the challenge).
    ChallengeAccepted {
        /// Who accepted it.
        by: UserId,
    },
    /// A challenge that was declined, cancelled or expired: its message gets `content` (or,
    /// without one, its own text with `line` as the expiry note) and loses its buttons; if
    /// there is no message (unknown, or deleted), `line` is posted in the channel.
    ChallengeClosed {
        /// The challenge's channel.
        channel_id: ChannelId,
        /// The challenge's message, if known.
        message_id: Option<MessageId>,
        /// The message's new text; `None`: its text, marked expired with `line`.
        content: Option<String>,
        /// The line saying what happened.
        line: String,
    },
    /// A public board (spectator view from the side to move at `ply`) with its caption and
    /// buttons, in the game's thread; the previous board loses its buttons.
    Board {
        /// The ply the board shows.
        ply: i64,
        /// The caption, already worded.
        caption: String,
        /// Whether the game is over (the buttons of a finished game).
        finished: bool,
    },
    /// The carrier menu for `user` by DM, or the "Choose privately" button in the thread
    /// when the DM cannot be delivered.
    CarrierMenu {
        /// The player.
        user: UserId,
    },
    /// A text in the game's thread.
    Announcement {
        /// The text, already worded.
        text: String,
        /// The users it may ping (no one else, whatever the text holds).
        pings: Vec<UserId>,
        /// Whether it carries the draw offer's buttons.
        draw_buttons: bool,
    },
    /// A game the scheduler ended (time forfeit, designation timeout), announced in its
    /// thread; it may ping the players mentioned at the end of its first line; the game's
    /// latest board then gets the finished game's buttons.
    GameEnded {
        /// The text, already worded.
        text: String,
    },
    /// A reminder to move for `user`, dropped if the game has left `ply` by delivery time.
    Nudge {
        /// The player to move.
        user: UserId,
        /// By DM (falling back to a mention in the thread) rather than in the thread.
        dm: bool,
        /// The ply the reminder is about.
        ply: i64,
        /// The text, already worded (without a mention).
        text: String,
    },
    /// A private message to `user` by DM (their dropped conditional lines). A DM
    /// that Discord refuses is given up, never posted in the thread instead: its text is
    /// private.
    Private {
        /// The player.
        user: UserId,
        /// The text, already worded.
        text: String,
    },
    /// A text in the game's thread with buttons (a takeback proposal).
    Prompt {
        /// The text, already worded.
        text: String,
        /// The users it may ping.
        pings: Vec<UserId>,
        /// The buttons: (custom id, label, style `primary|secondary|success|danger`).
        buttons: Vec<(String, String, String)>,
    },
    /// The game's standing prompts lose their buttons (a takeback proposal declined). A
    /// board or a game's end does the same on its own: a prompt's buttons never outlive the
    /// answer or the move that settles it.
    ClosePrompts,
    /// A challenge posted in `channel_id` with its Accept/Decline/Cancel buttons (a
    /// rematch); its message is recorded on the challenge (the entry's `challenge_id`),
    /// so that the game's thread can start from it.
    ChallengePost {
        /// The channel.
        channel_id: ChannelId,
        /// The text, already worded.
        text: String,
        /// The users it may ping (the challenged player).
        pings: Vec<UserId>,
    },
    /// The replay GIF of a finished game in its thread, after the result's
    /// board: the whole game up to `ply` with every secret shown (the game is over), White
    /// at the bottom. Encoded at delivery time, off the async runtime; a game without plies
    /// gets none.
    ReplayGif {
        /// The ply the game ended at; -1: the stored game as it is (the scheduler's
        /// endings, whose notices do not carry the ply).
        ply: i64,
    },
    /// The progress post of the game's analysis in its thread: posted the first time (its
    /// message recorded on the analysis), edited in place after.
    AnalysisProgress {
        /// The text, already worded.
        text: String,
    },
    /// The game's analysis in its thread: `text` with the evaluation chart, the boards of
    /// the key moments and the annotated PGN (made at delivery from the stored review);
    /// the progress post says it is done.
    AnalysisResult {
        /// The text, already worded.
        text: String,
        /// The progress post's final text.
        progress: String,
    },
    /// A league's sign-up post in `channel_id` with its Join and Leave buttons; its
    /// message is recorded on the league (the entry's `league_id`).
    LeagueSignUp {
        /// The league's channel.
        channel_id: ChannelId,
        /// The text, already worded.
        text: String,
    },
    /// The league's sign-up post gets `text`, keeping its Join and Leave buttons while
    /// sign-up is `open`. A post that is gone is left so: the league's other posts say
    /// the rest.
    LeagueSignUpEdit {
        /// The text, already worded.
        text: String,
        /// Whether sign-up is still open (the buttons stay).
        open: bool,
    },
    /// A post in the league's channel: a round's pairings, a withdrawal, an adjudication,
    /// the standings (as a table image too with `standings_image`).
    LeaguePost {
        /// The league's channel.
        channel_id: ChannelId,
        /// The text, already worded.
        text: String,
        /// The users it may ping (no one else, whatever the text holds).
        pings: Vec<UserId>,
        /// Whether the league's standings image is attached (rendered at delivery).
        standings_image: bool,
        /// The round the image's standings are after; `None`: the final standings.
        #[serde(default)]
        after_round: Option<u32>,
    },
    /// A server's daily puzzle in its puzzle channel: `text`, the puzzle's board from the
    /// solver's side (painted at delivery) and a "Try it privately" button
    /// (`kb:pzdaily:<day>`); its message is recorded on the day's `daily_puzzles` row.
    DailyPuzzle {
        /// The channel.
        channel_id: ChannelId,
        /// The server.
        guild_id: i64,
        /// The UTC day number (days since 1970-01-01).
        day: i64,
        /// The puzzle.
        puzzle_id: String,
        /// The text, already worded.
        text: String,
    },
}

impl Effect {
    /// The `kind` column's value.
    pub fn kind(&self) -> &'static str {
        match self {
            Effect::Thread { .. } => "thread",
            Effect::ChallengeAccepted { .. } => "challenge-accepted",
            Effect::ChallengeClosed { .. } => "challenge-closed",
            Effect::Board { .. } => kaboom_store::outbox::BOARD_KIND,
            Effect::CarrierMenu { .. } => "carrier-menu",
            Effect::Announcement { .. } => "announcement",
            Effect::GameEnded { .. } => "game-ended",
            Effect::Nudge { .. } => "nudge",
            Effect::Private { .. } => "private",
            Effect::Prompt { .. } => "prompt",
            Effect::ClosePrompts => "close-prompts",
            Effect::ChallengePost { .. } => "challenge-post",
            Effect::ReplayGif { .. } => "replay-gif",
            Effect::AnalysisProgress { .. } => "analysis-progress",
            Effect::AnalysisResult { .. } => "analysis-result",
            Effect::LeagueSignUp { .. } => "league-sign-up",
            Effect::LeagueSignUpEdit { .. } => "league-sign-up-edit",
            Effect::LeaguePost { .. } => "league-post",
            Effect::DailyPuzzle { .. } => "daily-puzzle",
        }
    }

    pub(super) fn entry(&self, game_id: Option<GameId>, challenge_id: Option<i64>) -> NewEffect {
        NewEffect {
            game_id,
            challenge_id,
            league_id: None,
            kind: self.kind().to_string(),
            // Plain strings, numbers and booleans: serializing cannot fail.
            payload: serde_json::to_string(self).unwrap_or_default(),
        }
    }

    /// The outbox entry of this effect of game `game_id`.
    pub fn for_game(&self, game_id: GameId) -> NewEffect {
        self.entry(Some(game_id), None)
    }

    /// The outbox entry of this effect of league `league_id` (its own queue: the sign-up
    /// post, rounds and standings).
    pub fn for_league(&self, league_id: i64) -> NewEffect {
        NewEffect {
            league_id: Some(league_id),
            ..self.entry(None, None)
        }
    }

    /// The outbox entry of this effect of challenge `challenge_id` (no game).
    pub fn for_challenge(&self, challenge_id: i64) -> NewEffect {
        self.entry(None, Some(challenge_id))
    }
}
