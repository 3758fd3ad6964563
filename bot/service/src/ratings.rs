//! Ratings, profiles, leaderboards and the game archive. The rules of what is
//! rated and how are in [`kaboom_domain::rating`]; the tables in
//! [`kaboom_store::ratings`].
//!
//! Every path that ends a game calls [`rate_finished_game`] inside the transaction that
//! writes the result: a move that ends the game ([`Games::play`](crate::Games::play)), a resignation, an
//! abort or an agreed draw (`Services::finish`), and the scheduler's time forfeits and
//! aborts (`scheduler::Scheduler::sweep`, in its batch transaction). The rating change is
//! thus committed with the result or not at all, and written once ([`ratings::record`]).

use kaboom_rules::{Color, Outcome, Variant};

use super::{Core, Ratings, ServiceError};
use kaboom_domain::ids::UserId;
use kaboom_domain::rating::{self, Glicko, PROVISIONAL_DEVIATION};
use kaboom_store::games::{self, FinishedRow, GameRow, GameState, Readable};
use kaboom_store::ratings::{self, GameChange, PlayerRating, SideChange};
use kaboom_store::{StorageError, Tx};

/// Rates the game `row` (as it is after it ended) that ended with `outcome`, inside `tx`,
/// the transaction that writes its result: when the game counts ([`rating::counts`]), both
/// players' ratings before the game are read in `tx`, rated against each other
/// ([`rating::rate`]) and written with the game's change. Returns the change (the one
/// written before, if the game was already rated), or `None` for a game that is not rated.
///
/// # Errors
/// [`StorageError`] on a database failure.
pub async fn rate_finished_game(
    tx: &mut Tx,
    row: &GameRow,
    outcome: &Outcome,
    now: i64,
) -> Result<Option<GameChange>, StorageError> {
    if !rating::counts(row.rated, row.ply, outcome) {
        return Ok(None);
    }
    // Another game of either player may end beside this one (per-game transactions).
    tx.lock_ratings().await?;
    let before = |r: Option<PlayerRating>| r.map_or(Glicko::START, |r| r.glicko);
    let white = before(ratings::get_tx(tx, row.white_id, row.variant).await?);
    let black = before(ratings::get_tx(tx, row.black_id, row.variant).await?);
    let (white_after, black_after) = rating::rate(white, black, outcome.winner);
    let side = |color: Color, before: Glicko, after: Glicko| SideChange {
        user_id: row.player(color),
        name: row.name(color).to_string(),
        color,
        score: rating::score(outcome.winner, color),
        before,
        after,
    };
    let change = GameChange {
        game_id: row.id,
        variant: row.variant,
        white: side(Color::White, white, white_after),
        black: side(Color::Black, black, black_after),
    };
    if ratings::record(tx, &change, now).await? {
        tracing::info!(
            game_id = %row.id,
            white = change.white.after.shown(),
            white_diff = change.white.diff(),
            black = change.black.after.shown(),
            black_diff = change.black.diff(),
            "game rated"
        );
        Ok(Some(change))
    } else {
        ratings::change_of_game(&mut *tx, row.id).await
    }
}

/// A game `user` plays, with whose turn it is.
#[derive(Clone, Debug)]
pub struct CurrentGame {
    /// The game.
    pub row: GameRow,
    /// The side to move; `None` while the carriers are being chosen.
    pub to_move: Option<Color>,
}

/// A finished game of a player's archive, with what it did to their rating.
#[derive(Clone, Debug)]
pub struct FinishedGame {
    /// The game and when it ended.
    pub game: FinishedRow,
    /// The player's side.
    pub color: Color,
    /// Their rating change (`None`: the game was not rated).
    pub change: Option<SideChange>,
}

/// What `/profile` shows.
#[derive(Clone, Debug)]
pub struct Profile {
    /// The player.
    pub user: UserId,
    /// Their rating per variant they have played rated, in variant order.
    pub ratings: Vec<PlayerRating>,
    /// Their games in progress, oldest first.
    pub current: Vec<CurrentGame>,
    /// Their last finished games (at most [`PROFILE_RECENT`]), newest first.
    pub recent: Vec<FinishedGame>,
    /// How many finished games they have in all.
    pub finished: i64,
}

/// How many finished games `/profile` lists.
pub const PROFILE_RECENT: i64 = 10;
/// How many players a leaderboard lists.
pub const LEADERBOARD_SIZE: i64 = 10;
/// How many finished games one page of the archive lists.
pub const ARCHIVE_PAGE: i64 = 10;

/// A variant's leaderboard.
#[derive(Clone, Debug)]
pub struct Leaderboard {
    /// The variant.
    pub variant: Variant,
    /// The best established players (at most [`LEADERBOARD_SIZE`]), best first.
    pub top: Vec<PlayerRating>,
    /// The caller's rating in the variant, if any, and their rank (`None` while provisional).
    pub caller: Option<(PlayerRating, Option<i64>)>,
    /// Established players in all.
    pub established: i64,
    /// Players whose rating is still provisional (not listed).
    pub provisional: i64,
}

/// One page of a player's finished games.
#[derive(Clone, Debug)]
pub struct ArchivePage {
    /// The games on this page, newest first.
    pub games: Vec<FinishedGame>,
    /// This page (1-based; a page past the last is the last).
    pub page: i64,
    /// Pages in all (at least 1).
    pub pages: i64,
    /// Finished games in all.
    pub total: i64,
}

impl Ratings<'_> {
    /// `user`'s finished games with their rating changes: `limit` after skipping `offset`.
    async fn finished_games(
        self,
        user: UserId,
        scope: Readable,
        limit: i64,
        offset: i64,
    ) -> Result<Vec<FinishedGame>, ServiceError> {
        let rows = games::finished_for(&self.core.db, user, scope, limit, offset).await?;
        let ids: Vec<_> = rows.iter().map(|g| g.row.id).collect();
        let mut changes = ratings::changes_of_user(&self.core.db, user, &ids).await?;
        Ok(rows
            .into_iter()
            .filter_map(|game| {
                let color = game.row.color_of(user)?;
                let change = changes
                    .iter()
                    .position(|(id, _)| *id == game.row.id)
                    .map(|i| changes.swap_remove(i).1);
                Some(FinishedGame {
                    game,
                    color,
                    change,
                })
            })
            .collect())
    }

    /// `user`'s profile as `scope` may see it: ratings and records per variant (global),
    /// the games in progress with whose turn it is, and the last [`PROFILE_RECENT`] finished
    /// games (only those `scope` may read: the server's games, or in a direct message the
    /// caller's own).
    ///
    /// # Errors
    /// [`ServiceError::Storage`].
    pub async fn profile(self, user: UserId, scope: Readable) -> Result<Profile, ServiceError> {
        let ratings = ratings::of_user(&self.core.db, user).await?;
        let current = self
            .core
            .games()
            .active_games(user)
            .await?
            .into_iter()
            .filter(|row| super::access::may_read(row, scope.caller, scope.guild))
            .map(|row| {
                // C-2: White moves first and the sides alternate, one action a turn.
                let to_move = (row.state == GameState::Active).then_some(if row.ply % 2 == 0 {
                    Color::White
                } else {
                    Color::Black
                });
                CurrentGame { row, to_move }
            })
            .collect();
        let recent = self.finished_games(user, scope, PROFILE_RECENT, 0).await?;
        let finished = games::finished_count(&self.core.db, user, scope).await?;
        Ok(Profile {
            user,
            ratings,
            current,
            recent,
            finished,
        })
    }

    /// The leaderboard of `variant` as `caller` sees it: the best established players, and
    /// the caller's own rating and rank.
    ///
    /// # Errors
    /// [`ServiceError::Storage`].
    pub async fn leaderboard(
        self,
        variant: Variant,
        caller: UserId,
    ) -> Result<Leaderboard, ServiceError> {
        let top = ratings::top(
            &self.core.db,
            variant,
            PROVISIONAL_DEVIATION,
            LEADERBOARD_SIZE,
        )
        .await?;
        let mine = ratings::of_user(&self.core.db, caller)
            .await?
            .into_iter()
            .find(|r| r.variant == variant);
        let caller = match mine {
            Some(r) => {
                let rank = ratings::rank(&self.core.db, &r, PROVISIONAL_DEVIATION).await?;
                Some((r, rank))
            }
            None => None,
        };
        let (established, provisional) =
            ratings::counts(&self.core.db, variant, PROVISIONAL_DEVIATION).await?;
        Ok(Leaderboard {
            variant,
            top,
            caller,
            established,
            provisional,
        })
    }

    /// Page `page` (1-based; clamped to the pages there are) of `user`'s finished games that
    /// `scope` may read, [`ARCHIVE_PAGE`] a page, newest first.
    ///
    /// # Errors
    /// [`ServiceError::Storage`].
    pub async fn archive(
        self,
        user: UserId,
        scope: Readable,
        page: i64,
    ) -> Result<ArchivePage, ServiceError> {
        let total = games::finished_count(&self.core.db, user, scope).await?;
        let pages = ((total + ARCHIVE_PAGE - 1) / ARCHIVE_PAGE).max(1);
        let page = page.clamp(1, pages);
        let games = self
            .finished_games(user, scope, ARCHIVE_PAGE, (page - 1) * ARCHIVE_PAGE)
            .await?;
        Ok(ArchivePage {
            games,
            page,
            pages,
            total,
        })
    }

    /// The rating change game `id` made (`None`: it was not rated or is not over).
    ///
    /// # Errors
    /// [`ServiceError::Storage`].
    pub async fn rating_change(
        self,
        id: kaboom_domain::ids::GameId,
    ) -> Result<Option<GameChange>, ServiceError> {
        Ok(ratings::change_of_game(&self.core.db, id).await?)
    }
}

impl Core {
    /// Rates the game of `snap` inside `tx` if it has just ended ([`rate_finished_game`]).
    pub(crate) async fn rate(
        &self,
        tx: &mut Tx,
        snap: &super::Snapshot,
    ) -> Result<Option<GameChange>, ServiceError> {
        let Some(outcome) = snap.outcome() else {
            return Ok(None);
        };
        Ok(rate_finished_game(tx, &snap.row, &outcome, self.clock.now()).await?)
    }
}
