//! Variant puzzles (docs/puzzles.md): a player asks for one (`/puzzle solve`), answers it
//! move by move (`/puzzle move`), and is rated per variant with Glicko-2 as games are
//! (the puzzle plays the other side, lichess's way); servers get a daily puzzle posted by
//! the scheduler through the outbox.
//!
//! A try's state is its `puzzle_attempts` row: `progress` plies of the solution are behind
//! the player. An answer is one write transaction with the expected-progress check, so two
//! answers at once count once; only a player's first try at a puzzle is rated. A wrong
//! answer ends the try and shows the refutation, the engine's best reply to it, searched
//! on the analysis pool (never on the path of a game's move).

use kaboom_domain::ids::{ChannelId, GuildId, UserId};
use kaboom_domain::rating::{self, Glicko};
use kaboom_engine::puzzle::Puzzle;
use kaboom_rules::{AnyGame, Color, PlyRecord, Variant, Viewer};
use kaboom_store::puzzles::{self as store, Attempt, PuzzleRating, Source, StoredPuzzle};

use super::{Puzzles, Refusal, ServiceError, refuse};

/// Nodes of the search that finds the refutation of a wrong answer: enough for the
/// one- and two-move punishments puzzles are made of, a fraction of a second.
pub const REFUTATION_NODES: u64 = 50_000;

/// A puzzle as the solver sees it now: the position after the plies behind them.
#[derive(Clone, Debug)]
pub struct PuzzleView {
    /// The puzzle.
    pub puzzle: StoredPuzzle,
    /// The try.
    pub attempt: Attempt,
    /// The position now (the puzzle's start plus the plies behind the solver).
    pub game: AnyGame,
    /// The solver's side.
    pub solver: Color,
}

impl PuzzleView {
    /// Solver moves in the whole solution.
    pub fn moves(&self) -> usize {
        self.puzzle.solution.len().div_ceil(2)
    }

    /// The solver's move the try waits for, counting from 1.
    pub fn move_number(&self) -> usize {
        usize::try_from(self.attempt.progress).unwrap_or(0) / 2 + 1
    }
}

/// A rating change of a rated try: before and after.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct PuzzleRatingChange {
    /// The player's puzzle rating before.
    pub before: Glicko,
    /// After.
    pub after: Glicko,
}

/// What an answer did.
#[derive(Clone, Debug)]
pub enum Answered {
    /// The right move, and the puzzle goes on: the forced reply was played.
    Continue {
        /// The position now, waiting for the next move.
        view: PuzzleView,
        /// The solver's move.
        played: PlyRecord,
        /// The reply.
        reply: PlyRecord,
    },
    /// Solved.
    Solved {
        /// The final position (the solution played out).
        view: PuzzleView,
        /// The last move.
        played: PlyRecord,
        /// The rating change, for a rated try.
        change: Option<PuzzleRatingChange>,
        /// Puzzles solved in a row in this variant, this one included.
        streak: i64,
    },
    /// A wrong move: the try is over.
    Failed {
        /// The position after the wrong move and its refutation.
        view: PuzzleView,
        /// The wrong move.
        played: PlyRecord,
        /// The engine's best reply to it, if the game goes on after it.
        refutation: Option<String>,
        /// The solution from where the solver went wrong, in canonical text.
        solution: Vec<String>,
        /// The rating change, for a rated try.
        change: Option<PuzzleRatingChange>,
    },
}

/// The shipped puzzle set (`data/puzzles/<variant>.jsonl`, made by `kaboom puzzles
/// generate`; data/puzzles/README.md says how), one JSON line per puzzle, built into the
/// binary so that a host needs no data files.
const SHIPPED: [(Variant, &str); 5] = [
    (
        Variant::Atomic,
        include_str!("../../../data/puzzles/atomic.jsonl"),
    ),
    (
        Variant::Beirut,
        include_str!("../../../data/puzzles/beirut.jsonl"),
    ),
    (
        Variant::Nuke,
        include_str!("../../../data/puzzles/nuke.jsonl"),
    ),
    (
        Variant::Bomberman,
        include_str!("../../../data/puzzles/bomberman.jsonl"),
    ),
    (
        Variant::Bombalot,
        include_str!("../../../data/puzzles/bombalot.jsonl"),
    ),
];

/// The shipped puzzles of `variant`, in file order.
///
/// # Errors
/// [`ServiceError::Corrupt`] naming the line that does not read (a damaged build).
pub fn shipped(variant: Variant) -> Result<Vec<Puzzle>, ServiceError> {
    let text = SHIPPED
        .iter()
        .find(|(v, _)| *v == variant)
        .map_or("", |(_, text)| text);
    text.lines()
        .enumerate()
        .filter(|(_, line)| !line.trim().is_empty())
        .map(|(i, line)| {
            Puzzle::from_json_line(line).map_err(|e| {
                ServiceError::Corrupt(format!(
                    "data/puzzles/{}.jsonl line {}: {e}",
                    variant.name(),
                    i + 1
                ))
            })
        })
        .collect()
}

/// A generated puzzle as the database stores it: its starting rating with lichess's
/// starting deviation for puzzles (350) and the usual starting volatility.
pub fn to_stored(p: &Puzzle) -> StoredPuzzle {
    StoredPuzzle {
        id: p.id.clone(),
        variant: p.variant,
        fen: p.fen.clone(),
        solution: p.solution.clone(),
        themes: p.themes.iter().map(|t| t.name().to_string()).collect(),
        glicko: Glicko {
            rating: f64::from(p.rating),
            deviation: PUZZLE_START_DEVIATION,
            volatility: rating::START_VOLATILITY,
        },
        attempts: 0,
        solved: 0,
    }
}

/// A new puzzle's rating deviation, in rating points (lichess's puzzles start at 350...
/// sure enough to rate players against from the first try, open to move).
pub const PUZZLE_START_DEVIATION: f64 = 350.0;

impl Answered {
    /// The puzzle as it stands after the answer (the board to show).
    pub fn view(&self) -> &PuzzleView {
        match self {
            Answered::Continue { view, .. }
            | Answered::Solved { view, .. }
            | Answered::Failed { view, .. } => view,
        }
    }
}

/// A day number: days since 1970-01-01, UTC.
pub fn day_of(unix: i64) -> i64 {
    unix.div_euclid(86_400)
}

/// Replays `puzzle` from its start through its first `plies` plies: the position then,
/// and the solver's side (the side to move at the start).
///
/// # Errors
/// [`ServiceError::Corrupt`] when the stored puzzle does not replay.
pub fn replay(puzzle: &StoredPuzzle, plies: usize) -> Result<(AnyGame, Color), ServiceError> {
    let mut game = AnyGame::from_fen(puzzle.variant, &puzzle.fen)
        .map_err(|e| ServiceError::Corrupt(format!("puzzle {}: {e}", puzzle.id)))?;
    let solver = game.turn();
    for text in puzzle.solution.iter().take(plies) {
        game.play(None, text)
            .map_err(|e| ServiceError::Corrupt(format!("puzzle {} {text}: {e}", puzzle.id)))?;
    }
    Ok((game, solver))
}

fn view(puzzle: StoredPuzzle, attempt: Attempt) -> Result<PuzzleView, ServiceError> {
    let (game, solver) = replay(&puzzle, usize::try_from(attempt.progress).unwrap_or(0))?;
    Ok(PuzzleView {
        puzzle,
        attempt,
        game,
        solver,
    })
}

impl Puzzles<'_> {
    /// Adds `puzzles` (the shipped set, or puzzles made from games) not stored yet;
    /// returns how many were new.
    ///
    /// # Errors
    /// [`ServiceError::Storage`] on a database failure.
    pub async fn add(self, puzzles: &[(StoredPuzzle, Source)]) -> Result<u64, ServiceError> {
        Ok(store::add(&self.core.db, puzzles, self.core.clock.now()).await?)
    }

    /// Stores the shipped set ([`shipped`]) where it is not stored yet (`kaboom serve`
    /// does at start-up); returns how many puzzles were new. Puzzles already stored keep
    /// the ratings players gave them.
    ///
    /// # Errors
    /// [`ServiceError::Corrupt`] for a damaged shipped file; [`ServiceError::Storage`] on a
    /// database failure.
    pub async fn load_shipped(self) -> Result<u64, ServiceError> {
        let stored = store::counts(&self.core.db).await?;
        let mut all = Vec::new();
        for variant in Variant::ALL {
            let set = shipped(variant)?;
            let have = stored
                .iter()
                .find(|(v, _)| *v == variant)
                .map_or(0, |(_, n)| *n);
            // Every shipped puzzle is stored once the count reaches the file's (puzzles
            // made from games only add to it): nothing to write on most starts.
            if usize::try_from(have).unwrap_or(0) < set.len() {
                all.extend(set.iter().map(|p| (to_stored(p), Source::Shipped)));
            }
        }
        if all.is_empty() {
            return Ok(0);
        }
        self.add(&all).await
    }

    /// Puzzle `id`, if stored.
    ///
    /// # Errors
    /// [`ServiceError::Storage`] on a database failure.
    pub async fn get(self, id: &str) -> Result<Option<StoredPuzzle>, ServiceError> {
        Ok(store::get(&self.core.db, id).await?)
    }

    /// The themes of the stored puzzles, sorted (`/puzzle solve`'s theme choices).
    ///
    /// # Errors
    /// [`ServiceError::Storage`] on a database failure or an unreadable row.
    pub async fn themes(self) -> Result<Vec<String>, ServiceError> {
        Ok(store::themes(&self.core.db).await?)
    }

    /// `user`'s puzzle rating in `variant`.
    ///
    /// # Errors
    /// [`ServiceError::Storage`] on a database failure.
    pub async fn rating(
        self,
        user: UserId,
        variant: Variant,
    ) -> Result<PuzzleRating, ServiceError> {
        Ok(store::rating(&self.core.db, user, variant).await?)
    }

    /// Starts `user` on the puzzle of `variant` (with `theme`, if given) they never tried
    /// whose rating is nearest their own puzzle rating.
    ///
    /// # Errors
    /// [`Refusal::NoPuzzleLeft`] when they tried every such puzzle; [`Refusal::NoPuzzles`]
    /// when the variant has none;
    /// [`ServiceError::Storage`] on a database failure.
    pub async fn next(
        self,
        user: UserId,
        variant: Variant,
        theme: Option<&str>,
    ) -> Result<PuzzleView, ServiceError> {
        let mine = store::rating(&self.core.db, user, variant).await?;
        let Some(puzzle) =
            store::pick(&self.core.db, user, variant, theme, mine.glicko.rating).await?
        else {
            let stored = store::counts(&self.core.db).await?;
            if stored.iter().all(|(v, n)| *v != variant || *n == 0) {
                return refuse(Refusal::NoPuzzles { variant });
            }
            return refuse(Refusal::NoPuzzleLeft {
                variant,
                theme: theme.map(str::to_string),
            });
        };
        self.begin(user, puzzle, None).await
    }

    /// Starts `user` on puzzle `id` (a daily post's button, or a puzzle named by id),
    /// counted for server `guild`'s daily post when given.
    ///
    /// # Errors
    /// [`Refusal::UnknownPuzzle`] for an id that is not a puzzle.
    pub async fn try_puzzle(
        self,
        user: UserId,
        id: &str,
        guild: Option<GuildId>,
    ) -> Result<PuzzleView, ServiceError> {
        let Some(puzzle) = store::get(&self.core.db, id).await? else {
            return refuse(Refusal::UnknownPuzzle {
                id: id.chars().take(20).collect(),
            });
        };
        self.begin(user, puzzle, guild).await
    }

    /// Starts `user` on server `guild`'s daily puzzle of `day` (its post's button).
    ///
    /// # Errors
    /// [`Refusal::StaleButton`] when that server has no daily puzzle that day.
    pub async fn try_daily(
        self,
        user: UserId,
        guild: GuildId,
        day: i64,
    ) -> Result<PuzzleView, ServiceError> {
        let Some(daily) = store::daily(&self.core.db, i64::from(guild), day).await? else {
            return refuse(Refusal::StaleButton);
        };
        self.try_puzzle(user, &daily.puzzle_id, Some(guild)).await
    }

    async fn begin(
        self,
        user: UserId,
        puzzle: StoredPuzzle,
        guild: Option<GuildId>,
    ) -> Result<PuzzleView, ServiceError> {
        let mut tx = self.core.db.begin_write().await?;
        let attempt = store::start(&mut tx, user, &puzzle.id, guild, self.core.clock.now()).await?;
        tx.commit().await?;
        view(puzzle, attempt)
    }

    /// `user`'s puzzle waiting for their move, if any.
    ///
    /// # Errors
    /// [`ServiceError::Storage`] on a database failure; [`ServiceError::Corrupt`] when the
    /// puzzle does not replay.
    pub async fn current(self, user: UserId) -> Result<Option<PuzzleView>, ServiceError> {
        let Some(attempt) = store::open_attempt(&self.core.db, user).await? else {
            return Ok(None);
        };
        let Some(puzzle) = store::get(&self.core.db, &attempt.puzzle_id).await? else {
            return Err(ServiceError::Corrupt(format!(
                "puzzle {} of try {} vanished",
                attempt.puzzle_id, attempt.id
            )));
        };
        Ok(Some(view(puzzle, attempt)?))
    }

    /// `user`'s answer `text` (SAN or coordinates, as `/move` reads them) to the puzzle
    /// waiting for them. The right move plays the forced reply, or solves the puzzle on
    /// its last move; a move that wins the game at once solves it too (as lichess takes
    /// any mate in one). Any other legal move fails the try and shows its refutation.
    ///
    /// # Errors
    /// [`Refusal::NoPuzzleOpen`] when no puzzle waits for them;
    /// [`Refusal::IllegalAction`] for a text that is not a legal move (the try stays open);
    /// [`Refusal::PuzzleMovedOn`] when another answer of theirs counted first.
    pub async fn answer(self, user: UserId, text: &str) -> Result<Answered, ServiceError> {
        let Some(current) = self.current(user).await? else {
            return refuse(Refusal::NoPuzzleOpen);
        };
        let PuzzleView {
            puzzle,
            attempt,
            game,
            solver,
        } = current;
        let progress = usize::try_from(attempt.progress).unwrap_or(0);
        let mut after = game.clone();
        let played = match after.play(Some(solver), text) {
            Ok(p) => p,
            Err(e) => return refuse(super::illegal_action(&e, &game, Viewer::player(solver))),
        };
        // The solution's move in canonical text, read without playing it.
        let expected = game
            .check(None, &puzzle.solution[progress])
            .map_err(|e| ServiceError::Corrupt(format!("puzzle {}: {e}", puzzle.id)))?;
        let wins_now = after
            .status()
            .outcome()
            .is_some_and(|o| o.winner == Some(solver));
        let right = played.san == expected || wins_now;
        let last = progress + 1 >= puzzle.solution.len();
        let now = self.core.clock.now();

        if right && !last && !wins_now {
            let reply = after
                .play(None, &puzzle.solution[progress + 1])
                .map_err(|e| ServiceError::Corrupt(format!("puzzle {}: {e}", puzzle.id)))?;
            let to = attempt.progress + 2;
            let mut tx = self.core.db.begin_write().await?;
            if !store::advance(&mut tx, attempt.id, attempt.progress, to, "open", now).await? {
                return refuse(Refusal::PuzzleMovedOn);
            }
            tx.commit().await?;
            let attempt = Attempt {
                progress: to,
                ..attempt
            };
            return Ok(Answered::Continue {
                view: PuzzleView {
                    puzzle,
                    attempt,
                    game: after,
                    solver,
                },
                played,
                reply,
            });
        }

        // The try ends: solved or failed, rated on a first try.
        let solved = right;
        let refutation = if solved || after.status().is_finished() {
            None
        } else {
            let position = after.clone();
            self.core
                .analysis_pool
                .run(move || {
                    kaboom_engine::analyse(
                        &position,
                        Viewer::Full,
                        kaboom_engine::Limits::nodes(REFUTATION_NODES),
                    )
                    .ok()
                    .map(|a| a.best)
                })
                .await?
        };
        if let Some(r) = &refutation {
            // Shown on the board too: the position after the refutation.
            let _ = after.play(None, r);
        }
        let mut tx = self.core.db.begin_write().await?;
        let state = if solved { "solved" } else { "failed" };
        let to = attempt.progress + 1;
        if !store::advance(&mut tx, attempt.id, attempt.progress, to, state, now).await? {
            return refuse(Refusal::PuzzleMovedOn);
        }
        let mut mine = store::rating(&mut tx, user, puzzle.variant).await?;
        let before = mine.glicko;
        if attempt.rated {
            let fresh = store::get(&mut tx, &puzzle.id)
                .await?
                .unwrap_or(puzzle.clone());
            let winner = if solved { Color::White } else { Color::Black };
            let (player, puzzle_rating) = rating::rate(mine.glicko, fresh.glicko, Some(winner));
            mine.glicko = player;
            mine.attempts += 1;
            mine.solved += i64::from(solved);
            store::rate_puzzle(&mut tx, &puzzle.id, puzzle_rating, solved).await?;
        }
        mine.streak = if solved { mine.streak + 1 } else { 0 };
        mine.best_streak = mine.best_streak.max(mine.streak);
        store::put_rating(&mut tx, user, puzzle.variant, &mine, now).await?;
        tx.commit().await?;
        let change = attempt.rated.then_some(PuzzleRatingChange {
            before,
            after: mine.glicko,
        });
        let attempt = Attempt {
            progress: to,
            state: state.to_string(),
            ..attempt
        };
        let solution = solution_from(&puzzle, progress, game)?;
        let view = PuzzleView {
            puzzle,
            attempt,
            game: after,
            solver,
        };
        Ok(if solved {
            Answered::Solved {
                view,
                played,
                change,
                streak: mine.streak,
            }
        } else {
            Answered::Failed {
                view,
                played,
                refutation,
                solution,
                change,
            }
        })
    }

    /// Sets (or with `None` stops) server `guild`'s daily puzzle channel.
    ///
    /// # Errors
    /// [`ServiceError::Storage`] on a database failure.
    pub async fn set_daily_channel(
        self,
        guild: GuildId,
        channel: Option<ChannelId>,
    ) -> Result<(), ServiceError> {
        Ok(store::set_channel(&self.core.db, guild, channel, self.core.clock.now()).await?)
    }

    /// Server `guild`'s daily puzzle channel, if set.
    ///
    /// # Errors
    /// [`ServiceError::Storage`] on a database failure.
    pub async fn daily_channel(self, guild: GuildId) -> Result<Option<ChannelId>, ServiceError> {
        Ok(store::channel(&self.core.db, guild).await?)
    }

    /// Server `guild`'s daily puzzle of today (UTC), if posted.
    ///
    /// # Errors
    /// [`ServiceError::Storage`] on a database failure.
    pub async fn today(self, guild: GuildId) -> Result<Option<store::Daily>, ServiceError> {
        let day = day_of(self.core.clock.now());
        Ok(store::daily(&self.core.db, i64::from(guild), day).await?)
    }

    /// Records the post of server `guild`'s daily puzzle of `day` (the outbox, once
    /// posted).
    ///
    /// # Errors
    /// [`ServiceError::Storage`] on a database failure.
    pub async fn set_daily_message(
        self,
        guild: i64,
        day: i64,
        message: kaboom_domain::ids::MessageId,
    ) -> Result<(), ServiceError> {
        Ok(store::set_daily_message(&self.core.db, guild, day, message).await?)
    }

    /// The scheduler's daily step: for every server with a daily puzzle channel and no
    /// puzzle for today (UTC), picks one and writes it with the outbox entry of its post
    /// (which names how many solved yesterday's) in one transaction. The puzzle is the
    /// day's in a rotation of the stored puzzles (the variants that have puzzles take
    /// turns), so every server gets the same one on a day. Returns the servers posted to.
    ///
    /// # Errors
    /// [`ServiceError::Storage`] on a database failure.
    pub async fn sweep_daily(self) -> Result<Vec<i64>, ServiceError> {
        let now = self.core.clock.now();
        let day = day_of(now);
        // Most sweeps have nothing to post: a read decides that without a write lock.
        if store::dailies_due(&self.core.db, day).await?.is_empty() {
            return Ok(Vec::new());
        }
        let mut tx = self.core.db.begin_write().await?;
        let due = store::dailies_due(&mut tx, day).await?;
        if due.is_empty() {
            return Ok(Vec::new());
        }
        // Variants take turns, among those with puzzles; within one, the day walks its
        // puzzles in id order.
        let with_puzzles: Vec<Variant> = store::counts(&mut tx)
            .await?
            .into_iter()
            .filter(|(_, n)| *n > 0)
            .map(|(v, _)| v)
            .collect();
        let Ok(turns) = i64::try_from(with_puzzles.len()) else {
            return Ok(Vec::new());
        };
        if turns == 0 {
            return Ok(Vec::new());
        }
        let variant = with_puzzles[usize::try_from(day.rem_euclid(turns)).unwrap_or(0)];
        let Some(puzzle) = store::nth_of_variant(&mut tx, variant, day.div_euclid(turns)).await?
        else {
            return Ok(Vec::new());
        };
        let (_, solver) = replay(&puzzle, 0)?;
        let mut posted = Vec::new();
        for (guild, channel) in due {
            if !store::add_daily(&mut tx, guild, day, &puzzle.id, channel).await? {
                continue;
            }
            let yesterday = match store::daily(&mut tx, guild, day - 1).await? {
                Some(d) => Some(store::daily_results(&mut tx, guild, &d.puzzle_id).await?),
                None => None,
            };
            let channel = ChannelId::try_from(channel)
                .map_err(|e| ServiceError::Corrupt(format!("daily puzzle channel: {e}")))?;
            let daily = DailyPost {
                guild,
                channel,
                day,
                puzzle: puzzle.clone(),
                solver,
                yesterday,
            };
            self.core
                .enqueue(&mut tx, super::outbox::Committed::DailyPuzzle(&daily))
                .await?;
            posted.push(guild);
        }
        tx.commit().await?;
        if !posted.is_empty() {
            self.core.outbox_waker.wake();
        }
        Ok(posted)
    }
}

/// A server's daily puzzle about to be posted (for the outbox's planner to word).
#[derive(Clone, Debug)]
pub struct DailyPost {
    /// The server.
    pub guild: i64,
    /// The channel.
    pub channel: ChannelId,
    /// The UTC day number ([`day_of`]).
    pub day: i64,
    /// The puzzle.
    pub puzzle: StoredPuzzle,
    /// The side the solver plays.
    pub solver: Color,
    /// Yesterday's daily puzzle in this server: (solved by, tried by) players.
    pub yesterday: Option<(i64, i64)>,
}

/// The solution of `puzzle` from ply `from`, in canonical text, played on `game` (the
/// puzzle's position at that ply).
fn solution_from(
    puzzle: &StoredPuzzle,
    from: usize,
    mut game: AnyGame,
) -> Result<Vec<String>, ServiceError> {
    puzzle.solution[from..]
        .iter()
        .map(|text| {
            game.play(None, text)
                .map(|p| p.san)
                .map_err(|e| ServiceError::Corrupt(format!("puzzle {}: {e}", puzzle.id)))
        })
        .collect()
}
