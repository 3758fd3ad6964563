//! Why a player's action was refused: typed, so that callers and tests tell refusals apart
//! by variant. The words players read are `discord::messages::refusal`.

use kaboom_rules::{Color, Outcome, Variant};

use kaboom_domain::ids::GameId;
use kaboom_store::challenges::ChallengeState;

/// What a player tried to do (in [`Refusal::NotAPlayer`]).
#[derive(Copy, Clone, Debug, Eq, PartialEq)]
pub enum Act {
    /// Make a move.
    Move,
    /// Choose carriers (Beirut, Nuke).
    ChooseCarriers,
    /// Resign.
    Resign,
    /// Abort.
    Abort,
    /// Offer a draw.
    OfferDraw,
    /// Answer a draw offer.
    AnswerDraw,
}

/// Why an action was refused (shown to the player who tried it, ephemerally).
#[derive(Clone, Debug)]
pub enum Refusal {
    /// There is no game with this id.
    UnknownGame {
        /// The id asked for.
        id: GameId,
    },
    /// There is no challenge with this id.
    UnknownChallenge {
        /// The id asked for.
        id: i64,
    },
    /// Only the two players may do this.
    NotAPlayer {
        /// White's name.
        white: String,
        /// Black's name.
        black: String,
        /// What was tried.
        act: Act,
    },
    /// It is the other side's turn.
    NotYourTurn {
        /// The game.
        game: GameId,
        /// The side to move.
        to_move: Color,
        /// Its player's name.
        name: String,
    },
    /// A move in a game that is over.
    GameOver(Outcome),
    /// Resigning, aborting or a draw in a game that is over.
    AlreadyOver(Outcome),
    /// A move before both players chose their carriers.
    NotStarted,
    /// The time of the side to move ran out (the scheduler announces the forfeit).
    TimeUp {
        /// The game.
        game: GameId,
        /// The side that had to move.
        to_move: Color,
        /// Its player's name.
        name: String,
        /// The deadline that passed (Unix seconds).
        deadline: i64,
    },
    /// The carrier designation outlived its timeout (the game is aborted).
    DesignationTimeUp {
        /// The game.
        game: GameId,
        /// When the carriers had to be chosen (Unix seconds).
        deadline: i64,
    },
    /// The action text does not parse or is illegal.
    IllegalAction {
        /// The rules library's reason.
        reason: String,
        /// Some legal actions the player may see, when the reason lists none.
        alternatives: Option<Vec<String>>,
    },
    /// A `days_per_move` that is not offered.
    DaysNotOffered {
        /// The days asked for.
        days: u32,
    },
    /// A challenge to oneself.
    ChallengeSelf,
    /// Beirut options for another variant.
    BeirutOptionsOnly {
        /// The variant challenged to.
        variant: Variant,
    },
    /// A Beirut carrier count outside 1-15.
    CarrierCount,
    /// The variant cannot be played with these options.
    VariantUnavailable {
        /// The variant.
        variant: Variant,
        /// The rules library's reason.
        reason: String,
    },
    /// The challenge is not open (`was` says what it became, when told).
    ChallengeNotOpen {
        /// Its state.
        was: Option<ChallengeState>,
    },
    /// The challenge expired before it was accepted.
    ChallengeExpired {
        /// When (Unix seconds).
        at: i64,
    },
    /// The challenger tried to accept their own challenge.
    AcceptOwnChallenge,
    /// The challenge names another opponent.
    AddressedToSomeoneElse,
    /// The game of an accepted challenge cannot start.
    CannotStart {
        /// The rules library's reason.
        reason: String,
    },
    /// Someone other than the challenger tried to cancel.
    OnlyChallengerCancels,
    /// Someone other than the named opponent tried to decline.
    OnlyChallengedDeclines,
    /// The challenger tried to decline their own challenge.
    DeclineOwnChallenge,
    /// Declining an open challenge (it is for anyone).
    OpenToAnyone,
    /// A practice game past the most one player may have unfinished.
    TooManyPracticeGames {
        /// The most, in this server ([`kaboom_domain::settings::Limit::PracticeGames`]).
        limit: u32,
    },
    /// A challenge past the most open challenges one player may have.
    TooManyChallenges {
        /// The most open challenges a player may have in this server
        /// ([`kaboom_domain::settings::Limit::OpenChallenges`]).
        limit: u32,
    },
    /// A seek past the most open seeks one player may have.
    TooManySeeks {
        /// The most open seeks a player may have ([`crate::MAX_OPEN_SEEKS`]).
        limit: usize,
    },
    /// No carriers are left to choose.
    NoCarriersToChoose,
    /// A carrier square does not parse.
    BadSquare {
        /// Why.
        reason: String,
    },
    /// The carriers were already chosen.
    AlreadyChosen,
    /// The rules forbid these carriers.
    CarriersNotAllowed {
        /// The rules library's reason.
        reason: String,
    },
    /// Both sides moved: too late to abort.
    TooLateToAbort,
    /// A draw offer during the carrier choice.
    DrawBeforeStart,
    /// The player's own draw offer already stands.
    DrawAlreadyOffered,
    /// Answering one's own draw offer.
    OwnDrawOffer,
    /// No draw offer stands.
    NoDrawOffer,
    /// A `game` option that is not a game id (Discord layer).
    NotAGame {
        /// What was typed.
        typed: String,
    },
    /// No game could be told from the context (Discord layer).
    WhichGame,
    /// The carrier menu came back empty (Discord layer).
    PickCarriers,
    /// A button of an older version (Discord layer).
    StaleButton,
    /// A server setting out of range (Discord layer).
    BadSetting {
        /// What is wrong and what would be right.
        reason: String,
    },
    /// A moderator's ruling on a game of another server (or from a direct message).
    NotThisServersGame {
        /// The game asked for.
        id: GameId,
    },
    /// A moderator's ruling without a reason, or with one too long to post.
    RulingReason {
        /// Its length in characters.
        chars: usize,
    },
    /// A game read from outside its server by someone who does not play it.
    NotReadableHere {
        /// The game asked for.
        id: GameId,
    },
    /// `/challenge` where no game thread can be opened (Discord layer).
    ChallengeNotHere {
        /// Where it was used: `a thread`, `a direct message`, ...
        place: String,
    },
    /// The bot lacks permissions it needs in the challenge's channel (Discord layer).
    BotLacksPermissions {
        /// Their names, as Discord's settings show them.
        missing: Vec<String>,
    },
    /// A refusal of the correspondence comforts (conditional moves, vacations,
    /// takebacks, notes, rematches).
    Comfort(super::comfort_types::ComfortRefusal),
    /// A league action refused.
    League(super::leagues::LeagueRefusal),
    /// An analysis the game does not allow.
    Analysis(super::analysis::AnalysisRefusal),
    /// An explosion preview's button pressed by someone other than its player.
    NotYourPreview,
    /// An explosion preview already confirmed: its action was played.
    PreviewDone {
        /// The action, as played.
        action: String,
    },
    /// An explosion preview already cancelled.
    PreviewCancelled,
    /// An explosion preview no longer kept: older than
    /// [`kaboom_store::previews::KEPT_SECS`], or beyond a player's
    /// [`kaboom_store::previews::PENDING_PER_PLAYER`] latest.
    PreviewGone,
    /// The player tried every puzzle of this variant (and theme).
    NoPuzzleLeft {
        /// The variant asked for.
        variant: Variant,
        /// The theme asked for, if any.
        theme: Option<String>,
    },
    /// This variant has no puzzles at all (yet).
    NoPuzzles {
        /// The variant asked for.
        variant: Variant,
    },
    /// A puzzle id that is not a puzzle (at most 20 characters of it).
    UnknownPuzzle {
        /// The id asked for.
        id: String,
    },
    /// A puzzle answer with no puzzle waiting for one.
    NoPuzzleOpen,
    /// A puzzle answer that came after another answer of the same player had counted.
    PuzzleMovedOn,
}
