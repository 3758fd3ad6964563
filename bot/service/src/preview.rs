//! Explosion previews: before an action that removes pieces is played (or
//! whenever the player asks), the player sees the position after it with the removed
//! pieces as ghosts, and confirms or cancels.
//!
//! A preview is computed on the player's own view ([`AnyGame::preview`]: a Beirut player
//! never learns the opponent's carriers from it, BE-2, BE-6), stored as a pending row
//! ([`kaboom_store::previews`]), and confirmed through the same path as any move
//! ([`Games::play`](crate::Games::play)): only while the game is still at the ply it was previewed
//! at, and once (the row is settled in the action's own transaction).

use kaboom_rules::{ActionPreview, AnyGame, Color, PlyRecord, Viewer};

use super::{PlayRequest, Played, Previews, Refusal, ServiceError, refuse};
use kaboom_domain::ids::UserId;
use kaboom_domain::settings::{PREVIEW_GAMES, PreviewMode};
use kaboom_store::games::GameRow;
use kaboom_store::previews::{self, PreviewState, StoredPreview};
use kaboom_store::settings;

/// Whether `/move` shows its action as an explosion preview before playing it
/// ([`Games::play_or_preview`](crate::Games::play_or_preview)).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PreviewFirst {
    /// Played at once.
    Never,
    /// Previewed when it would remove pieces (as far as the player can foresee), else
    /// played: the player's setting for a game it previews.
    IfExplosive,
    /// Previewed, whatever it does: the player asked.
    Always,
    /// As the player chose in their settings: [`PreviewFirst::IfExplosive`] when they
    /// preview always, or by default in their first [`PREVIEW_GAMES`] finished games of
    /// the game's variant; else [`PreviewFirst::Never`]. Read with the game, in the same
    /// statement.
    BySetting,
}

impl PreviewFirst {
    /// [`PreviewFirst::BySetting`] settled by the player's `choice`; any other as it is.
    pub(crate) fn settled(
        self,
        choice: Option<kaboom_store::games::PreviewChoice>,
    ) -> PreviewFirst {
        let Some(choice) = choice.filter(|_| self == PreviewFirst::BySetting) else {
            return self;
        };
        let previews = match choice.mode {
            PreviewMode::Always => true,
            PreviewMode::WhenAsked => false,
            PreviewMode::FirstGames => choice.finished_in_variant < PREVIEW_GAMES,
        };
        if previews {
            PreviewFirst::IfExplosive
        } else {
            PreviewFirst::Never
        }
    }

    /// The preview of `color`'s action `text` in `game` when it is to be shown, `None` when
    /// the action is to be played.
    ///
    /// # Errors
    /// [`ServiceError::Refused`] for an action that cannot be read or is illegal, as
    /// playing it would answer.
    pub(crate) fn preview(
        self,
        game: &AnyGame,
        color: Color,
        text: &str,
    ) -> Result<Option<ActionPreview>, ServiceError> {
        if matches!(self, PreviewFirst::Never | PreviewFirst::BySetting) {
            return Ok(None);
        }
        let action = game.preview(color, text).map_err(|e| {
            ServiceError::Refused(super::illegal_action(&e, game, Viewer::player(color)))
        })?;
        let shown = self == PreviewFirst::Always || !action.removed.is_empty();
        Ok(shown.then_some(action))
    }
}

/// What [`Games::play_or_preview`](crate::Games::play_or_preview) did.
#[derive(Debug)]
pub enum PlayedOrPreviewed {
    /// The action was played.
    Played(Box<Played>),
    /// The action is to be confirmed first: nothing was written.
    Previewed(Box<Preview>),
}

/// A computed (not yet stored) explosion preview.
#[derive(Clone, Debug)]
pub struct Preview {
    /// The game's row when previewed.
    pub row: GameRow,
    /// The ply the game was at: Confirm plays only at this ply.
    pub ply: i64,
    /// The player's side.
    pub color: Color,
    /// What the action would do, as the player sees the game.
    pub action: ActionPreview,
}

impl Preview {
    /// Whether the action would remove any piece, as far as the player can foresee.
    pub fn explosive(&self) -> bool {
        !self.action.removed.is_empty()
    }

    /// The action as a ply record (for painting and captions).
    pub fn record(&self) -> PlyRecord {
        PlyRecord {
            mover: self.color,
            san: self.action.san.clone(),
            display: self.action.display.clone(),
            uci: self.action.san.clone(),
            removed: self.action.removed.clone(),
            squares: self.action.squares,
        }
    }
}

impl Previews<'_> {
    /// `user`'s explosion preview choice.
    ///
    /// # Errors
    /// [`ServiceError::Storage`].
    pub async fn mode(self, user: UserId) -> Result<PreviewMode, ServiceError> {
        Ok(settings::preview_mode(&self.core.db, user).await?)
    }

    /// Stores `user`'s explosion preview choice.
    ///
    /// # Errors
    /// [`ServiceError::Storage`].
    pub async fn set_mode(self, user: UserId, mode: PreviewMode) -> Result<(), ServiceError> {
        Ok(settings::put_preview_mode(&self.core.db, user, mode, self.core.clock.now()).await?)
    }

    /// Stores `preview` as pending for `user`; returns its id (for the buttons). Previews
    /// are bounded as [`previews::insert`] says: older than 15 minutes, or beyond the
    /// player's 5 latest pending, they are dropped.
    ///
    /// # Errors
    /// [`ServiceError::Storage`].
    pub async fn store(self, preview: &Preview, user: UserId) -> Result<i64, ServiceError> {
        Ok(previews::insert(
            &self.core.db,
            preview.row.id,
            user,
            preview.ply,
            &preview.action.san,
            self.core.clock.now(),
        )
        .await?)
    }

    /// Preview `id` if it is `user`'s own: a stored preview that `user` may answer.
    ///
    /// # Errors
    /// [`Refusal::PreviewGone`] when it is not kept (expired or replaced); [`Refusal::NotYourPreview`]
    /// when it is someone else's; [`ServiceError::Storage`] on a database failure.
    pub async fn own_preview(self, id: i64, user: UserId) -> Result<StoredPreview, ServiceError> {
        let Some(p) = previews::get(&self.core.db, id).await? else {
            return refuse(Refusal::PreviewGone);
        };
        if p.user_id != user {
            return refuse(Refusal::NotYourPreview);
        }
        Ok(p)
    }

    /// `user` confirms preview `id`: its action is played as [`Games::play`](crate::Games::play) plays it,
    /// only if the game is still at the previewed ply, and once.
    ///
    /// # Errors
    /// [`ServiceError::MovedOn`] when the game moved on since the preview (a stale preview
    /// never applies); [`Refusal::PreviewDone`] when it was already confirmed (a second
    /// click), [`Refusal::PreviewCancelled`], [`Refusal::NotYourPreview`], and the
    /// refusals of [`Games::play`](crate::Games::play).
    pub async fn confirm(self, id: i64, user: UserId) -> Result<Played, ServiceError> {
        let p = self.own_preview(id, user).await?;
        match p.state {
            PreviewState::Confirmed => {
                return refuse(Refusal::PreviewDone { action: p.action });
            }
            PreviewState::Cancelled => return refuse(Refusal::PreviewCancelled),
            PreviewState::Pending => {}
        }
        match self
            .core
            .play(PlayRequest {
                preview: Some(p.id),
                ..PlayRequest::new(p.game_id, user, &p.action).at_ply(p.ply)
            })
            .await
        {
            // A second click that lost the race to the first: the game moved on because
            // this very preview was played.
            Err(ServiceError::MovedOn { .. })
                if previews::get(&self.core.db, id)
                    .await?
                    .is_some_and(|now| now.state == PreviewState::Confirmed) =>
            {
                refuse(Refusal::PreviewDone { action: p.action })
            }
            other => other,
        }
    }

    /// `user` cancels preview `id`: it can no longer be confirmed. Returns the preview.
    ///
    /// # Errors
    /// [`Refusal::PreviewDone`] when it was already confirmed, [`Refusal::NotYourPreview`],
    /// [`ServiceError::Storage`].
    pub async fn cancel(self, id: i64, user: UserId) -> Result<StoredPreview, ServiceError> {
        let p = self.own_preview(id, user).await?;
        let mut tx = self.core.db.begin_write().await?;
        let settled = previews::settle(&mut tx, id, PreviewState::Cancelled).await?;
        tx.commit().await?;
        if !settled && p.state == PreviewState::Confirmed {
            return refuse(Refusal::PreviewDone { action: p.action });
        }
        Ok(p)
    }

    /// Paints `preview` (the board after the action, from `bottom`'s side, the removed
    /// pieces as ghosts). CPU work: call it through the CPU pool.
    ///
    /// # Errors
    /// The painter's [`crate::painter::PaintError`].
    pub fn paint(
        self,
        preview: &Preview,
        bottom: Color,
    ) -> Result<Vec<u8>, crate::painter::PaintError> {
        self.core
            .painter
            .paint_preview(&preview.action.after, &preview.record(), bottom)
    }
}
