//! The types the correspondence comforts ([`super::comforts`]) share with the
//! refusals and the outbox: why a comfort was refused, and what a comfort change must show
//! on Discord. A module of their own, so that `comforts`, `refusal` and `outbox` do not
//! import each other in a circle.

use kaboom_rules::Color;

use super::{ServiceError, Snapshot};
use kaboom_domain::ids::{GameId, UserId};
use kaboom_store::challenges::Challenge;
use kaboom_store::comforts::Vacation;
use kaboom_store::games::GameRow;

/// Why a comfort was refused (the words are `discord::messages::comforts`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ComfortRefusal {
    /// Only the two players may do this.
    NotAPlayer {
        /// What was tried, as a verb phrase ("keep notes").
        what: &'static str,
    },
    /// The game is not being played (in setup or over).
    NotInPlay,
    /// A line that is empty or too short to do anything.
    LineTooShort {
        /// Whether it is the player's own turn (a line then starts with their move).
        own_turn: bool,
    },
    /// A line longer than `MAX_LINE_ACTIONS` or `MAX_LINE_CHARS` (`super::comforts`).
    LineTooLong,
    /// Already `MAX_LINES` (`super::comforts`) lines in this game.
    TooManyLines,
    /// The opponent's action at `index` (0-based) is not legal there.
    OpponentActionIllegal {
        /// Its position in the line (0-based).
        index: usize,
        /// As typed.
        typed: String,
    },
    /// The owner's action at `index` is not legal there.
    OwnActionIllegal {
        /// Its position in the line (0-based).
        index: usize,
        /// As typed.
        typed: String,
        /// The rules library's reason (the owner's own view: safe to show them).
        reason: String,
    },
    /// A line goes on after the game would be over.
    LineBeyondEnd {
        /// Its position in the line (0-based).
        index: usize,
    },
    /// Beirut: a line names an opponent's Boom (BOT-BEIRUT-1).
    OpponentBoom,
    /// Beirut with the Dead Man's Switch: a line goes on after the owner's capture.
    AfterCaptureDms,
    /// A vacation already runs.
    VacationRunning {
        /// Its planned end (Unix seconds).
        until: i64,
    },
    /// No vacation runs.
    NoVacation,
    /// Days outside 1..=left.
    VacationDays {
        /// Days asked for.
        asked: u32,
        /// Days left this year.
        left: u32,
        /// The yearly allowance.
        allowance: u32,
    },
    /// A takeback in a rated game.
    TakebackRated,
    /// Nothing to take back (no action of the proposer's yet).
    NothingToTakeBack,
    /// Beirut: the takeback would undo an action that revealed a hidden choice (BOT-BEIRUT-2).
    TakebackAcrossReveal,
    /// The player's own takeback proposal already stands.
    TakebackAlreadyProposed,
    /// No takeback proposal by the opponent stands (or a move voided it).
    NoTakeback,
    /// Answering one's own takeback proposal.
    OwnTakeback,
    /// A note longer than `MAX_NOTE_CHARS` (`super::comforts`).
    NoteTooLong,
    /// A rematch of a game that is not over.
    RematchNotOver,
    /// A challenge between the two players in that variant and channel is still open (a
    /// Rematch clicked twice, or by both players): it is the one to accept.
    RematchOpen {
        /// The open challenge's id.
        challenge: i64,
        /// Who made it.
        challenger: UserId,
    },
}

impl From<ComfortRefusal> for ServiceError {
    fn from(r: ComfortRefusal) -> ServiceError {
        ServiceError::Refused(super::Refusal::Comfort(r))
    }
}

/// A change of the comforts about to be committed, for the outbox's planner to word.
#[derive(Clone, Debug)]
pub enum ComfortChange {
    /// Conditional lines were dropped: each owner is told privately which and why.
    LinesDropped {
        /// The game.
        game: GameId,
        /// Per owner, one line of text per dropped line.
        notices: Vec<(UserId, Vec<String>)>,
    },
    /// A vacation started: the opponents in `games` are told when the player is back.
    VacationStarted {
        /// The vacation.
        vacation: Vacation,
        /// The player's games in play.
        games: Vec<GameRow>,
    },
    /// A vacation ended early: the opponents are told the clocks run again.
    VacationEnded {
        /// The vacation.
        vacation: Vacation,
        /// The player's games in play.
        games: Vec<GameRow>,
    },
    /// A takeback was proposed: the opponent gets Accept/Decline buttons.
    TakebackProposed {
        /// The game.
        snap: Snapshot,
        /// Who proposed.
        by: Color,
        /// The plies it would take back, in canonical form, oldest first.
        plies: Vec<String>,
    },
    /// The opponent declined a takeback.
    TakebackDeclined {
        /// The game.
        snap: Snapshot,
        /// Who had proposed.
        by: Color,
    },
    /// A takeback was accepted: the game is back at `snap`'s ply (a new board).
    TakenBack {
        /// The game after it.
        snap: Snapshot,
        /// Who had proposed.
        by: Color,
        /// The plies taken back, in display form, oldest first.
        plies: Vec<String>,
    },
    /// A rematch challenge to post in the game's channel.
    Rematch {
        /// The new challenge.
        challenge: Challenge,
        /// The finished game it follows.
        from: GameId,
    },
}
