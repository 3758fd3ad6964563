//! A stored game's row and where it stands: what storage reads, the services act on, the
//! scheduler decides about and the Discord layer shows.

use kaboom_rules::{Color, GameOptions, Outcome, Variant};

use super::ids::{ChannelId, GameId, GuildId, MessageId, UserId};

/// Where a game stands; stored as its name (`setup`, `active`, `finished`: [`GameState::name`],
/// and `FromStr` back).
#[derive(Copy, Clone, Eq, PartialEq, Debug, strum::EnumString, strum::IntoStaticStr)]
#[strum(serialize_all = "lowercase")]
pub enum GameState {
    /// Waiting for carrier designations (Beirut, Nuke).
    Setup,
    /// Being played.
    Active,
    /// Over.
    Finished,
}

impl GameState {
    /// Stored form.
    pub fn name(self) -> &'static str {
        self.into()
    }
}

/// Where a game is played; stored as its name (`thread`, `direct`, `seek`).
#[derive(Copy, Clone, Eq, PartialEq, Debug, Default, strum::EnumString, strum::IntoStaticStr)]
#[strum(serialize_all = "lowercase")]
pub enum Venue {
    /// In its own public thread of a server channel: the bot is a member of the server
    /// and posts boards, announcements and reminders there.
    #[default]
    Thread,
    /// By DM: started where the bot is not a member (a DM, a group DM, a server where
    /// only a player installed the app), so that everything the bot posts on its own goes
    /// to each player's DM with the bot, and the place it started shows the game only in
    /// answers to the players' own commands and clicks (docs/ARCHITECTURE.md, "Play
    /// anywhere").
    Direct,
    /// By DM, from a seek: an open challenge listed by `/seeks` wherever the bot can be
    /// used, accepted by a player who may share no server with the seeker (and a
    /// rematch of such a game, which names its opponent and is never listed). Played as
    /// [`Venue::Direct`], except that the place the seek was made is the seeker's alone,
    /// so no board is ever shown there.
    Seek,
}

impl Venue {
    /// Stored form.
    pub fn name(self) -> &'static str {
        self.into()
    }

    /// Whether the bot sends the game's posts to each player's DM ([`Venue::Direct`],
    /// [`Venue::Seek`]) rather than to a thread of its own.
    pub fn by_dm(self) -> bool {
        matches!(self, Venue::Direct | Venue::Seek)
    }
}

/// A stored game's row (not its actions).
#[derive(Clone, Debug)]
pub struct GameRow {
    /// Id (in component custom ids and the `/move game` option).
    pub id: GameId,
    /// The server.
    pub guild_id: Option<GuildId>,
    /// The channel of the challenge.
    pub channel_id: ChannelId,
    /// The game's thread, once made.
    pub thread_id: Option<ChannelId>,
    /// White's user id.
    pub white_id: UserId,
    /// White's name.
    pub white_name: String,
    /// Black's user id.
    pub black_id: UserId,
    /// Black's name.
    pub black_name: String,
    /// The variant.
    pub variant: Variant,
    /// Its options.
    pub options: GameOptions,
    /// Full start serialization (secret for Beirut until the end).
    pub start_fen: String,
    /// Full current serialization (secret for Beirut).
    pub state_fen: String,
    /// Plies played.
    pub ply: i64,
    /// Setup, active, finished.
    pub state: GameState,
    /// A result declared off the board.
    pub declared: Option<Outcome>,
    /// `1-0`, `0-1`, `1/2-1/2`, `*` once finished.
    pub result: Option<String>,
    /// Why it finished (status.reason vocabulary).
    pub reason: Option<String>,
    /// Days per move, if limited.
    pub days_per_move: Option<u32>,
    /// Deadline of the side to move, Unix seconds.
    pub deadline_at: Option<i64>,
    /// Rated.
    pub rated: bool,
    /// The latest board message (its buttons act on the game).
    pub board_message_id: Option<MessageId>,
    /// Created, Unix seconds.
    pub created_at: i64,
    /// Where it is played.
    pub venue: Venue,
}

impl GameRow {
    /// The colour `user` plays, if they play.
    pub fn color_of(&self, user: UserId) -> Option<Color> {
        if user == self.white_id {
            Some(Color::White)
        } else if user == self.black_id {
            Some(Color::Black)
        } else {
            None
        }
    }

    /// The user id of `color`.
    pub fn player(&self, color: Color) -> UserId {
        match color {
            Color::White => self.white_id,
            Color::Black => self.black_id,
        }
    }

    /// The name of `color`'s player.
    pub fn name(&self, color: Color) -> &str {
        match color {
            Color::White => &self.white_name,
            Color::Black => &self.black_name,
        }
    }
}
