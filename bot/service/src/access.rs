//! Who may read a game: `/pgn game:N` and `/board game:N` take any id, and ids
//! are sequential, so a game is readable only in its own server, or by its players in a
//! direct message with the bot. `/games user:X` lists only the games of X the caller may
//! read where they ask.

use super::{Games, Refusal, ServiceError, Snapshot};
use kaboom_domain::ids::{GameId, GuildId, UserId};
use kaboom_store::games::{self, GameRow};

/// Whether `user`, in server `guild` (`None`: a direct message), may read the game `row`:
/// in a server, a game of that server, or a game played by DM (which belongs to no
/// server's members: a group DM's, a seek's) that `user` plays; in a direct message, only
/// a player of it.
pub fn may_read(row: &GameRow, user: UserId, guild: Option<GuildId>) -> bool {
    let plays = row.color_of(user).is_some();
    match guild {
        Some(g) => row.guild_id == Some(g) || (row.venue.by_dm() && plays),
        None => plays,
    }
}

impl Games<'_> {
    /// Game `id` for `user` asking in server `guild` (`None`: a direct message), checked
    /// with [`may_read`] before it is replayed.
    ///
    /// # Errors
    /// [`ServiceError::Refused`] when there is no such game or the user may not read it
    /// here; [`ServiceError::Corrupt`] when it does not replay.
    pub async fn load_readable(
        self,
        id: GameId,
        user: UserId,
        guild: Option<GuildId>,
    ) -> Result<Snapshot, ServiceError> {
        let Some(row) = games::get(&self.core.db, id).await? else {
            return Err(ServiceError::Refused(Refusal::UnknownGame { id }));
        };
        if !may_read(&row, user, guild) {
            return Err(ServiceError::Refused(Refusal::NotReadableHere { id }));
        }
        self.core.load(id).await
    }

    /// The games `who` plays that are not over and that `caller`, asking in server `guild`
    /// (`None`: a direct message), may read ([`may_read`]): in a server, only that
    /// server's games; in a direct message, only games the caller plays. Oldest first; a
    /// row that does not decode is left out (logged).
    ///
    /// # Errors
    /// [`ServiceError::Storage`].
    pub async fn active_games_readable(
        self,
        who: UserId,
        caller: UserId,
        guild: Option<GuildId>,
    ) -> Result<Vec<GameRow>, ServiceError> {
        Ok(self
            .active_games(who)
            .await?
            .into_iter()
            .filter(|row| may_read(row, caller, guild))
            .collect())
    }
}
