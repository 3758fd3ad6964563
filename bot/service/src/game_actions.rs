//! See [`crate::Games`].

use super::*;

/// What `/move`'s autocomplete offers ([`Games::move_choices`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MoveChoices {
    /// The player's legal actions in `game` matching what they typed.
    Actions {
        /// The game.
        game: GameId,
        /// The actions, at most 25. When the game was picked among several running games
        /// (nothing named it), each says which game it is for: label `#12 vs bob · Nf3
        /// ...`, value `#12 Nf3`.
        suggestions: Vec<Suggestion>,
    },
    /// It is the opponent's turn in `game`: conditional moves (`/premove`) are what the
    /// player can do.
    NotYourTurn {
        /// The game.
        game: GameId,
        /// The name of the player to move.
        to_move: String,
    },
    /// The player has several running games and none waits on them.
    NoneWaiting,
    /// Nothing to offer: no running game, a game that is over or awaits carriers, or a
    /// caller who does not play it.
    Nothing,
}

impl Games<'_> {
    /// Whether `user` may move in game `id` now: their colour, or the refusal a move would
    /// get (not a player, over, out of time, carriers still to choose, the opponent's
    /// turn), without writing anything. For a form that asks for the move before it is
    /// played (the Move button); the move itself is checked again when played.
    ///
    /// # Errors
    /// [`ServiceError::Refused`] saying why not; [`ServiceError::Storage`].
    pub async fn may_move(self, id: GameId, user: UserId) -> Result<Color, ServiceError> {
        let snap = self.core.load(id).await?;
        self.core.mover(&snap.row, &snap.game, user)
    }

    /// Game `id` as stored, replayed (through the replay cache, off the async runtime).
    ///
    /// # Errors
    /// [`ServiceError::Refused`] when there is no such game; [`ServiceError::Corrupt`] when
    /// it does not replay.
    pub async fn load(self, id: GameId) -> Result<Snapshot, ServiceError> {
        self.core.load(id).await
    }

    /// Records the game's thread.
    ///
    /// # Errors
    /// [`ServiceError::Storage`].
    pub async fn set_thread(self, game_id: GameId, thread: ChannelId) -> Result<(), ServiceError> {
        Ok(games::set_thread(&self.core.db, game_id, thread).await?)
    }

    /// Records the latest board message of a game (the one with buttons).
    ///
    /// # Errors
    /// [`ServiceError::Storage`].
    pub async fn set_board_message(
        self,
        game_id: GameId,
        message: MessageId,
    ) -> Result<(), ServiceError> {
        Ok(games::set_board_message(&self.core.db, game_id, message).await?)
    }

    /// The id of the game played in `thread`, if any (from memory for a thread seen
    /// before).
    ///
    /// # Errors
    /// [`ServiceError::Storage`].
    pub async fn game_in_thread(self, thread: ChannelId) -> Result<Option<GameId>, ServiceError> {
        if let Some(id) = self.core.thread_games.get(thread) {
            return Ok(Some(id));
        }
        let found = games::by_thread(&self.core.db, thread).await?.map(|g| g.id);
        if let Some(id) = found {
            self.core.thread_games.remember(thread, id);
        }
        Ok(found)
    }

    /// The running games (set-up or active) of server `guild`, newest first, at most 25
    /// (a moderator's `/moderate` picks from them).
    ///
    /// # Errors
    /// [`ServiceError::Storage`].
    pub async fn running_in_server(self, guild: GuildId) -> Result<Vec<GameRow>, ServiceError> {
        Ok(games::running_in_guild(&self.core.db, guild, 25).await?)
    }

    /// Games `user` plays that are not over.
    ///
    /// # Errors
    /// [`ServiceError::Storage`].
    pub async fn active_games(self, user: UserId) -> Result<Vec<GameRow>, ServiceError> {
        Ok(games::active_for(&self.core.db, user).await?)
    }

    /// The designations made so far (secret for Beirut until the end: callers show a
    /// player only their own, and everyone both only once the game is over).
    ///
    /// # Errors
    /// [`ServiceError::Storage`].
    pub async fn designations(self, game_id: GameId) -> Result<Vec<Designation>, ServiceError> {
        Ok(carriers::all(&self.core.db, game_id).await?)
    }

    /// Plays `request`: its player's action text in its game, parsed as they see the game
    /// (their own Beirut carriers only), applied by the rules library, and written in one
    /// transaction with the expected-ply check, the draw offer it declines (a standing
    /// offer by the opponent), the opponent's conditional line it triggers, the rating of a
    /// game it ends and the outbox entries of what it must post. The one entry point of a
    /// move, whoever makes it: a player's `/move`, a confirmed explosion preview, the
    /// practice opponent.
    ///
    /// # Errors
    /// [`ServiceError::Refused`] (not a player, not their turn, game not started or over,
    /// time up, unparsable or illegal text with legal alternatives, a preview already
    /// settled); [`ServiceError::MovedOn`] when the game is no longer at the request's
    /// expected ply, or another action was committed between loading and saving.
    pub async fn play(self, request: PlayRequest<'_>) -> Result<Played, ServiceError> {
        self.core.play(request).await
    }

    /// Plays `request` as [`Games::play`] does, unless `first` asks for an explosion
    /// preview of an action it applies to: then returns the preview, for the player to
    /// confirm, and writes nothing. The game is loaded once and the action read once for
    /// both.
    ///
    /// # Errors
    /// As [`Games::play`].
    pub async fn play_or_preview(
        self,
        request: PlayRequest<'_>,
        first: crate::preview::PreviewFirst,
    ) -> Result<crate::preview::PlayedOrPreviewed, ServiceError> {
        self.core.play_or_preview(request, first).await
    }

    /// Autocomplete for `/move`: `user`'s legal actions in game `id` matching `typed`
    /// (SAN, coordinate form or piece name), at most 25, each labelled with what it does.
    /// Empty for spectators and when it is not the user's turn.
    ///
    /// # Errors
    /// [`ServiceError`] when the game cannot be loaded.
    pub async fn suggest(
        self,
        id: GameId,
        user: UserId,
        typed: &str,
    ) -> Result<Vec<Suggestion>, ServiceError> {
        let snap = self.core.load(id).await?;
        let Some(color) = snap.row.color_of(user) else {
            return Ok(Vec::new());
        };
        if snap.game.turn() != color || snap.row.state != GameState::Active {
            return Ok(Vec::new());
        }
        let (game, typed) = (snap.game, typed.to_string());
        self.core
            .cpu
            .run(move || suggest::suggestions(&game, Viewer::player(color), &typed, 25))
            .await
    }

    /// What `/move`'s autocomplete offers `user`, who has typed `typed`, in game `game`
    /// when it is known (the `game` option, or the thread's game), else in the game that
    /// waits on them: of their running games, those where it is their turn, the one with
    /// the nearest deadline first (then the oldest). See [`MoveChoices`].
    ///
    /// # Errors
    /// [`ServiceError::Storage`]; [`ServiceError::Refused`] for a `game` that does not
    /// exist.
    pub async fn move_choices(
        self,
        user: UserId,
        game: Option<GameId>,
        typed: &str,
    ) -> Result<MoveChoices, ServiceError> {
        let (snap, among) = match game {
            Some(id) => (self.core.load(id).await?, 1),
            None => {
                let running: Vec<GameRow> = self
                    .active_games(user)
                    .await?
                    .into_iter()
                    .filter(|row| row.state == GameState::Active)
                    .collect();
                let mut waiting = Vec::new();
                let mut other = None;
                for row in &running {
                    let snap = self.core.load(row.id).await?;
                    if Some(snap.game.turn()) == row.color_of(user) {
                        waiting.push(snap);
                    } else if other.is_none() {
                        other = Some(snap);
                    }
                }
                waiting.sort_by_key(|s| (s.row.deadline_at.unwrap_or(i64::MAX), s.row.id));
                match (waiting.into_iter().next(), other) {
                    (Some(snap), _) => (snap, running.len()),
                    (None, Some(snap)) if running.len() == 1 => (snap, 1),
                    (None, Some(_)) => return Ok(MoveChoices::NoneWaiting),
                    (None, None) => return Ok(MoveChoices::Nothing),
                }
            }
        };
        let Some(color) = snap.row.color_of(user) else {
            return Ok(MoveChoices::Nothing);
        };
        if snap.row.state != GameState::Active || snap.game.status().outcome().is_some() {
            return Ok(MoveChoices::Nothing);
        }
        let turn = snap.game.turn();
        if turn != color {
            return Ok(MoveChoices::NotYourTurn {
                game: snap.row.id,
                to_move: snap.row.name(turn).to_string(),
            });
        }
        let id = snap.row.id;
        let opponent = snap.row.name(color.other()).to_string();
        let (game, typed) = (snap.game, typed.to_string());
        let suggestions = self
            .core
            .cpu
            .run(move || suggest::suggestions(&game, Viewer::player(color), &typed, 25))
            .await?;
        // Picked among several games: each choice names its game, and submits it too.
        let suggestions = if among > 1 {
            suggestions
                .into_iter()
                .map(|s| Suggestion {
                    label: suggest::clip(format!("#{id} vs {opponent} · {}", s.label)),
                    value: format!("#{id} {}", s.value),
                })
                .collect()
        } else {
            suggestions
        };
        Ok(MoveChoices::Actions {
            game: id,
            suggestions,
        })
    }

    /// The carrier menu for `user` in game `id` (BE-2: any own piece but the king; NU-3:
    /// any own piece).
    ///
    /// # Errors
    /// [`ServiceError::Refused`] when the user does not play, the game is not in setup, or
    /// they have already chosen.
    pub async fn carrier_menu(self, id: GameId, user: UserId) -> Result<CarrierMenu, ServiceError> {
        let snap = self.core.load(id).await?;
        let color = Core::player_color(&snap.row, user, Act::ChooseCarriers)?;
        if !snap.game.awaiting_designation().contains(&color) {
            return refuse(Refusal::NoCarriersToChoose);
        }
        let view = snap.game.board_view(Viewer::player(color));
        let candidates = snap.game.carrier_candidates(color);
        let options = view
            .pieces
            .iter()
            .filter(|p| candidates.contains(&p.square))
            .map(|p| (p.square, p.kind))
            .collect();
        let count = snap.game.carrier_count();
        Ok(CarrierMenu {
            game_id: id,
            color,
            count,
            options,
            abort_at: snap.row.created_at + self.core.scheduler.designation_timeout_secs,
        })
    }

    /// `user` designates `squares` as their carriers in game `id` (BE-2, NU-3), with a
    /// fresh salt and the BE-9 commitment. When both have chosen, play starts.
    ///
    /// # Errors
    /// [`ServiceError::Refused`] when the user may not choose now or the squares break
    /// the rules (the rules library says why).
    pub async fn designate(
        self,
        id: GameId,
        user: UserId,
        squares: &[String],
    ) -> Result<Designated, ServiceError> {
        let parsed: Vec<Square> = squares
            .iter()
            .map(|s| s.trim().parse::<Square>())
            .collect::<Result<_, _>>()
            .map_err(|e| Refusal::BadSquare {
                reason: e.to_string(),
            })?;
        let salt = commitment::fresh_salt().map_err(ServiceError::Corrupt)?;
        let mut tx = self.core.db.begin_game_write(id).await?;
        let Some((row, actions)) = games::get_with_actions(&mut tx, id).await? else {
            return refuse(Refusal::UnknownGame { id });
        };
        let color = Core::player_color(&row, user, Act::ChooseCarriers)?;
        let mut game = self.core.replay(id, games::record(&row, actions)).await?;
        self.core.refuse_if_overdue(&row, game.turn())?;
        if !game.awaiting_designation().contains(&color) {
            return refuse(Refusal::AlreadyChosen);
        }
        game.designate(color, &parsed)
            .map_err(|e| Refusal::CarriersNotAllowed {
                reason: e.to_string(),
            })?;
        let canon = commitment::canonical_squares(&parsed);
        let designation = Designation {
            color,
            commitment: commitment::commitment(id, color, &canon, &salt),
            squares: canon,
            salt,
        };
        let now = self.core.clock.now();
        carriers::insert(&mut tx, id, &designation, now).await?;
        let started = game.awaiting_designation().is_empty();
        let update = StateUpdate {
            expected_ply: row.ply,
            action: None,
            state_fen: game.fen(Viewer::Full),
            start_fen: game.start_fen(Viewer::Full),
            state: if started {
                GameState::Active
            } else {
                GameState::Setup
            },
            declared: None,
            result: None,
            deadline_at: if started {
                self.core
                    .deadline_for(&mut tx, row.days_per_move, row.white_id)
                    .await?
            } else {
                row.deadline_at
            },
        };
        if games::update_state(&mut tx, id, &update, now)
            .await?
            .is_none()
        {
            return Err(ServiceError::MovedOn {
                game_id: id,
                ply: row.ply,
            });
        }
        let all = if started {
            carriers::all(&mut tx, id).await?
        } else {
            Vec::new()
        };
        let designated = Designated {
            snap: Core::snapshot_tx(&mut tx, id, game).await?,
            color,
            designation,
            started,
            all,
        };
        self.core
            .enqueue(&mut tx, outbox::Committed::Designated(&designated))
            .await?;
        tx.commit().await?;
        tracing::info!(game_id = %id, %color, started, "carriers chosen");
        if started {
            self.core.engine.note_turn(&designated.snap);
            self.core.engine.wake();
        }
        Ok(designated)
    }

    /// Ends game `id` with `outcome` inside an open write transaction.
    async fn finish(
        self,
        mut tx: kaboom_store::Tx,
        row: &GameRow,
        game: AnyGame,
        outcome: Outcome,
    ) -> Result<Ended, ServiceError> {
        let ended = self.core.end_in_tx(&mut tx, row, game, outcome).await?;
        tx.commit().await?;
        tracing::info!(game_id = %row.id, result = ended.outcome.result(), reason = %ended.outcome.reason, "game ended");
        Ok(ended)
    }

    pub(crate) async fn open_for_write(
        self,
        id: GameId,
        user: UserId,
        act: Act,
    ) -> Result<(kaboom_store::Tx, GameRow, AnyGame, Color), ServiceError> {
        let (tx, row, game, color) = self
            .open_running(id, |row| Core::player_color(row, user, act))
            .await?;
        self.core.refuse_if_overdue(&row, game.turn())?;
        Ok((tx, row, game, color))
    }

    /// Opens the write transaction of game `id` (its per-game lock taken), checks the row
    /// with `allowed` (who may act, before anything else is said about the game), replays
    /// it and refuses a game that is over. Returns the transaction, the row, the game and
    /// what `allowed` returned.
    ///
    /// # Errors
    /// [`Refusal::UnknownGame`], `allowed`'s refusal, [`Refusal::AlreadyOver`];
    /// [`ServiceError::Storage`], [`ServiceError::Corrupt`].
    async fn open_running<T>(
        self,
        id: GameId,
        allowed: impl FnOnce(&GameRow) -> Result<T, ServiceError>,
    ) -> Result<(kaboom_store::Tx, GameRow, AnyGame, T), ServiceError> {
        let mut tx = self.core.db.begin_game_write(id).await?;
        let Some((row, actions)) = games::get_with_actions(&mut tx, id).await? else {
            return refuse(Refusal::UnknownGame { id });
        };
        let allowed = allowed(&row)?;
        let game = self.core.replay(id, games::record(&row, actions)).await?;
        if let Some(outcome) = game.status().outcome() {
            return refuse(Refusal::AlreadyOver(outcome));
        }
        Ok((tx, row, game, allowed))
    }

    /// `user` resigns game `id`.
    ///
    /// # Errors
    /// [`ServiceError::Refused`] when they do not play it or it is over.
    pub async fn resign(self, id: GameId, user: UserId) -> Result<Ended, ServiceError> {
        let (tx, row, game, color) = self.open_for_write(id, user, Act::Resign).await?;
        self.finish(
            tx,
            &row,
            game,
            Outcome::win(color.other(), EndReason::Resignation),
        )
        .await
    }

    /// `user` aborts game `id`: allowed only before both sides have moved.
    ///
    /// # Errors
    /// [`ServiceError::Refused`] when they do not play it, it is over, or both have moved.
    pub async fn abort(self, id: GameId, user: UserId) -> Result<Ended, ServiceError> {
        crate::leagues::refuse_league_abort(self.core, id).await?;
        let (tx, row, game, _) = self.open_for_write(id, user, Act::Abort).await?;
        if game.ply_count() >= 2 {
            return refuse(Refusal::TooLateToAbort);
        }
        self.finish(tx, &row, game, Outcome::draw(EndReason::Aborted))
            .await
    }

    /// A moderator of server `guild` ends running game `id` of that server by `ruling`,
    /// giving `reason`: in one transaction with the expected-ply check, the result (an
    /// abort records none and is not rated; a result is an adjudication, rated as the game
    /// was), the carriers revealed and the outbox entries of the final board with the
    /// moderator's name and reason. Whether `moderator` is one is the caller's check
    /// (Discord's Moderate Members permission).
    ///
    /// # Errors
    /// [`ServiceError::Refused`]: no such game, another server's game
    /// ([`Refusal::NotThisServersGame`]), a game already over, a reason that is empty or
    /// over [`MAX_RULING_REASON_CHARS`] ([`Refusal::RulingReason`]), an abort of a league
    /// game (its result is needed: give one); [`ServiceError::MovedOn`] when a move was
    /// played meanwhile; [`ServiceError::Storage`].
    pub async fn moderate(
        self,
        id: GameId,
        guild: Option<GuildId>,
        ruling: Ruling,
        by: ModeratorRuling,
    ) -> Result<Ended, ServiceError> {
        let reason = by.reason.trim().to_string();
        let chars = reason.chars().count();
        if chars == 0 || chars > MAX_RULING_REASON_CHARS {
            return refuse(Refusal::RulingReason { chars });
        }
        if ruling == Ruling::Abort {
            crate::leagues::refuse_league_abort(self.core, id).await?;
        }
        let (mut tx, row, game, ()) = self
            .open_running(id, |row| {
                if guild.is_none() || row.guild_id != guild {
                    return refuse(Refusal::NotThisServersGame { id });
                }
                Ok(())
            })
            .await?;
        let outcome = match ruling {
            Ruling::Abort => Outcome::draw(EndReason::Aborted),
            Ruling::Result(Some(winner)) => Outcome::win(winner, EndReason::Adjudication),
            Ruling::Result(None) => Outcome::draw(EndReason::Adjudication),
        };
        let moderator = by.moderator;
        let by = ModeratorRuling { reason, ..by };
        let ended = self
            .core
            .end_in_tx_by(&mut tx, &row, game, outcome, Some(by))
            .await?;
        tx.commit().await?;
        tracing::info!(game_id = %id, moderator = %moderator, result = ended.outcome.result(), reason = %ended.outcome.reason, "game ended by a moderator");
        Ok(ended)
    }

    /// `user` offers a draw in game `id`. If the opponent's offer stands, this accepts it.
    ///
    /// # Errors
    /// [`ServiceError::Refused`] when they do not play it, it is over or not started, or
    /// their own offer already stands.
    pub async fn offer_draw(self, id: GameId, user: UserId) -> Result<DrawResult, ServiceError> {
        let (mut tx, row, game, color) = self.open_for_write(id, user, Act::OfferDraw).await?;
        if row.state == GameState::Setup {
            return refuse(Refusal::DrawBeforeStart);
        }
        match games::draw_offer(&mut tx, id).await? {
            Some(o) if o.by == color => refuse(Refusal::DrawAlreadyOffered),
            Some(_) => Ok(DrawResult::Agreed(
                self.finish(tx, &row, game, Outcome::draw(EndReason::Agreement))
                    .await?,
            )),
            None => {
                games::put_draw_offer(
                    &mut tx,
                    id,
                    DrawOffer {
                        by: color,
                        ply: row.ply,
                    },
                    self.core.clock.now(),
                )
                .await?;
                let offered = DrawResult::Offered {
                    snap: Core::snapshot_tx(&mut tx, id, game).await?,
                    by: color,
                };
                self.core
                    .enqueue(&mut tx, outbox::Committed::Draw(&offered))
                    .await?;
                tx.commit().await?;
                Ok(offered)
            }
        }
    }

    /// `user` accepts or declines the opponent's standing draw offer in game `id`.
    ///
    /// # Errors
    /// [`ServiceError::Refused`] when no offer by the opponent stands.
    pub async fn answer_draw(
        self,
        id: GameId,
        user: UserId,
        accept: bool,
    ) -> Result<DrawResult, ServiceError> {
        let (mut tx, row, game, color) = self.open_for_write(id, user, Act::AnswerDraw).await?;
        match games::draw_offer(&mut tx, id).await? {
            Some(o) if o.by != color => {
                if accept {
                    Ok(DrawResult::Agreed(
                        self.finish(tx, &row, game, Outcome::draw(EndReason::Agreement))
                            .await?,
                    ))
                } else {
                    games::clear_draw_offer(&mut tx, id).await?;
                    let declined = DrawResult::Declined {
                        snap: Core::snapshot_tx(&mut tx, id, game).await?,
                        by: o.by,
                    };
                    self.core
                        .enqueue(&mut tx, outbox::Committed::Draw(&declined))
                        .await?;
                    tx.commit().await?;
                    Ok(declined)
                }
            }
            Some(_) => refuse(Refusal::OwnDrawOffer),
            None => refuse(Refusal::NoDrawOffer),
        }
    }

    /// Whether a draw offer stands in game `id`, and by whom.
    ///
    /// # Errors
    /// [`ServiceError::Storage`].
    pub async fn draw_offer(self, id: GameId) -> Result<Option<Color>, ServiceError> {
        let mut tx = self.core.db.begin_game_write(id).await?;
        let o = games::draw_offer(&mut tx, id).await?;
        tx.commit().await?;
        Ok(o.map(|o| o.by))
    }

    /// The game's PGN. Beirut carriers appear only once the game is over (BE-9), Nuke
    /// carriers once both sides have chosen (NU-3).
    ///
    /// # Errors
    /// [`ServiceError`] when the game cannot be loaded.
    pub async fn pgn(self, id: GameId) -> Result<String, ServiceError> {
        let snap = self.core.load(id).await?;
        if pgn::carriers_public(&snap) {
            let designations = self.designations(id).await?;
            return Ok(pgn::pgn(&snap, &designations));
        }
        Ok(pgn::pgn(&snap, &[]))
    }

    /// Paints `viewer`'s view of the game after its last action, from `bottom`'s side.
    /// CPU work: call it off the async runtime.
    ///
    /// # Errors
    /// The painter's [`PaintError`].
    pub fn paint(
        self,
        snap: &Snapshot,
        viewer: Viewer,
        bottom: Color,
    ) -> Result<Vec<u8>, PaintError> {
        self.core.painter.paint_game(&snap.game, viewer, bottom)
    }

    /// The replay GIF of the game in `snap` as `viewer` sees it from `bottom`'s
    /// side at `pace`, each frame captioned with its move and the players' names: 480
    /// pixels wide, or narrower (360, then 240) while it is over `max_bytes`.
    /// CPU work: call it off the async runtime.
    ///
    /// # Errors
    /// The painter's [`PaintError`], or [`PaintError::TooLarge`] when the replay stays
    /// over `max_bytes` even at the narrowest width.
    pub fn replay_gif(
        self,
        snap: &Snapshot,
        viewer: Viewer,
        bottom: Color,
        pace: ReplayPace,
        max_bytes: usize,
    ) -> Result<Vec<u8>, PaintError> {
        let style = ReplayStyle {
            white_name: snap.row.white_name.clone(),
            black_name: snap.row.black_name.clone(),
            pace,
        };
        for width in REPLAY_WIDTHS {
            let gif = self
                .core
                .painter
                .replay_gif(&snap.game, viewer, bottom, width, &style)?;
            if gif.len() <= max_bytes {
                return Ok(gif);
            }
        }
        Err(PaintError::TooLarge {
            game_id: snap.row.id,
            max_bytes,
            width: REPLAY_WIDTHS[REPLAY_WIDTHS.len() - 1],
        })
    }

    /// The piece legend of `variant` for `/rules` (each piece's picture, name and what it
    /// does; `kaboom_renderer::render_legend_png`, 600 pixels wide), for the variants
    /// whose pieces are not chess's: Bomberman Chess and Bombalot; `None` for the others.
    /// CPU work: call it off the async runtime.
    ///
    /// # Errors
    /// [`PaintError::Render`] when it could not be drawn.
    pub fn paint_legend(self, variant: Variant) -> Result<Option<Vec<u8>>, PaintError> {
        if !matches!(variant, Variant::Bomberman | Variant::Bombalot) {
            return Ok(None);
        }
        Ok(Some(kaboom_renderer::render_legend_png(variant, 600)?))
    }

    /// Paints the start position of `variant` (for `/rules`).
    ///
    /// # Errors
    /// [`PaintError::Variant`] when the variant is not available, or the painter's error.
    pub fn paint_start(self, variant: Variant) -> Result<Vec<u8>, PaintError> {
        let game = AnyGame::new(variant, GameOptions::default())
            .map_err(|e| PaintError::Variant(e.to_string()))?;
        self.core
            .painter
            .paint(&game.board_view(Viewer::Spectator), None, Color::White)
    }
}

impl Core {
    /// Ends game `row` (replayed as `game`) with `outcome` inside `tx`, with the expected-ply
    /// check: the draw offer cleared, the carriers revealed, the rating written and the
    /// outbox entries of the end ([`outbox::Committed::Ended`]). The caller commits.
    ///
    /// # Errors
    /// [`ServiceError::MovedOn`] when the game left `row.ply`; [`ServiceError::Storage`].
    pub(crate) async fn end_in_tx(
        &self,
        tx: &mut kaboom_store::Tx,
        row: &GameRow,
        game: AnyGame,
        outcome: Outcome,
    ) -> Result<Ended, ServiceError> {
        self.end_in_tx_by(tx, row, game, outcome, None).await
    }

    /// [`Core::end_in_tx`], by a moderator's `ruling` when there is one (it goes with the
    /// result into the outbox entries).
    pub(crate) async fn end_in_tx_by(
        &self,
        tx: &mut kaboom_store::Tx,
        row: &GameRow,
        mut game: AnyGame,
        outcome: Outcome,
        ruling: Option<ModeratorRuling>,
    ) -> Result<Ended, ServiceError> {
        game.declare(outcome);
        let outcome = game.status().outcome().unwrap_or(outcome);
        let update = StateUpdate::finished(row, game.fen(Viewer::Full), outcome);
        if games::update_state(tx, row.id, &update, self.clock.now())
            .await?
            .is_none()
        {
            return Err(ServiceError::MovedOn {
                game_id: row.id,
                ply: row.ply,
            });
        }
        games::clear_draw_offer(tx, row.id).await?;
        let reveal = carriers::all(&mut *tx, row.id).await?;
        let snap = Core::snapshot_tx(tx, row.id, game).await?;
        let rating = self.rate(tx, &snap).await?;
        let ended = Ended {
            snap,
            outcome,
            reveal,
            rating: rating.map(Box::new),
            ruling,
        };
        self.enqueue(tx, outbox::Committed::Ended(&ended)).await?;
        Ok(ended)
    }
}
