//! See [`crate::Challenges`].

use super::*;
use kaboom_domain::game::Venue;
use kaboom_domain::rating::Glicko;
use kaboom_domain::settings::Limit;

/// An open seek as `/seeks` lists it.
#[derive(Clone, Debug)]
pub struct Seek {
    /// The seek (a challenge with [`Venue::Seek`] and no named opponent).
    pub challenge: Challenge,
    /// The seeker's rating in the seek's variant.
    pub rating: Glicko,
}

impl Challenges<'_> {
    /// Stores a new challenge after checking it: not against oneself, a days-per-move
    /// choice that is offered, options the variant accepts (Beirut carriers 1-15, BE-2),
    /// no more open challenges at once per player in the server (or outside servers) than
    /// its [`Limit::OpenChallenges`], and for a
    /// seek ([`Venue::Seek`], always for anyone) no more than [`MAX_OPEN_SEEKS`].
    ///
    /// # Errors
    /// [`ServiceError::Refused`] saying what to change; [`ServiceError::Storage`].
    pub async fn create(self, mut c: NewChallenge) -> Result<Challenge, ServiceError> {
        if c.opponent_id == Some(c.challenger_id) {
            return refuse(Refusal::ChallengeSelf);
        }
        c.days_per_move = parse_days(c.days_per_move)?;
        if c.variant != Variant::Beirut {
            if c.options.carriers != 1 || c.options.dead_mans_switch {
                return refuse(Refusal::BeirutOptionsOnly { variant: c.variant });
            }
        } else if !(1..=kaboom_rules::beirut::MAX_CARRIERS).contains(&c.options.carriers) {
            return refuse(Refusal::CarrierCount);
        }
        if let Err(e) = AnyGame::new(c.variant, c.options) {
            return refuse(Refusal::VariantUnavailable {
                variant: c.variant,
                reason: e.to_string(),
            });
        }
        // The count and the insert are one transaction, so two at once cannot pass the
        // limit together.
        let mut tx = self.core.db.begin_write().await?;
        if c.venue == Venue::Seek && c.opponent_id.is_none() {
            if challenges::seeks_of(&mut tx, c.challenger_id).await?.len() >= MAX_OPEN_SEEKS {
                return refuse(Refusal::TooManySeeks {
                    limit: MAX_OPEN_SEEKS,
                });
            }
        } else {
            let limit = crate::settings::limits_in(self.core, &mut tx, c.guild_id)
                .await?
                .get(Limit::OpenChallenges);
            if challenges::open_challenges_of(&mut tx, c.challenger_id, c.guild_id).await?
                >= i64::from(limit)
            {
                return refuse(Refusal::TooManyChallenges { limit });
            }
        }
        let id = challenges::insert(&mut tx, &c, self.core.clock.now()).await?;
        let created = challenges::get(&mut tx, id)
            .await?
            .ok_or_else(|| ServiceError::Corrupt(format!("challenge #{id} vanished")))?;
        tx.commit().await?;
        Ok(created)
    }

    /// Up to [`SEEKS_LISTED`] open seeks that `user` may accept (not their own), oldest
    /// first, of `variant` when given, each with the seeker's rating in its variant
    /// (ratings are global: [`Glicko::START`] for a player with no rated game of it).
    ///
    /// # Errors
    /// [`ServiceError::Storage`].
    pub async fn open_seeks(
        self,
        variant: Option<Variant>,
        user: UserId,
    ) -> Result<Vec<Seek>, ServiceError> {
        let db = &self.core.db;
        let listed = challenges::open_seeks(db, variant, user, SEEKS_LISTED as i64).await?;
        let mut seeks = Vec::with_capacity(listed.len());
        for challenge in listed {
            let rating = kaboom_store::ratings::of_user(db, challenge.spec.challenger_id)
                .await?
                .into_iter()
                .find(|r| r.variant == challenge.spec.variant)
                .map_or(Glicko::START, |r| r.glicko);
            seeks.push(Seek { challenge, rating });
        }
        Ok(seeks)
    }

    /// The open seeks of `user`, oldest first (at most [`MAX_OPEN_SEEKS`]).
    ///
    /// # Errors
    /// [`ServiceError::Storage`].
    pub async fn seeks_of(self, user: UserId) -> Result<Vec<Challenge>, ServiceError> {
        Ok(challenges::seeks_of(&self.core.db, user).await?)
    }

    /// A stored challenge.
    ///
    /// # Errors
    /// [`ServiceError::Refused`] when there is none with that id.
    pub async fn get(self, id: i64) -> Result<Challenge, ServiceError> {
        match challenges::get(&self.core.db, id).await? {
            Some(c) => Ok(c),
            None => refuse(Refusal::UnknownChallenge { id }),
        }
    }

    /// Records the message that shows challenge `id`.
    ///
    /// # Errors
    /// [`ServiceError::Storage`].
    pub async fn set_message(self, id: i64, message: MessageId) -> Result<(), ServiceError> {
        Ok(challenges::set_message(&self.core.db, id, message).await?)
    }

    /// `user` accepts challenge `id`: the game is created (in setup for Beirut and Nuke).
    ///
    /// # Errors
    /// [`ServiceError::Refused`] when the challenge is not open, is the user's own, or is
    /// addressed to someone else.
    pub async fn accept(
        self,
        id: i64,
        user: UserId,
        user_name: &str,
    ) -> Result<Snapshot, ServiceError> {
        self.core.accept(id, user, user_name, None).await
    }

    /// The named opponent declines challenge `id` (or the challenger cancels it with
    /// `cancel`).
    ///
    /// # Errors
    /// [`ServiceError::Refused`] when the user may not, or it is not open.
    pub async fn close(
        self,
        id: i64,
        user: UserId,
        cancel: bool,
    ) -> Result<Challenge, ServiceError> {
        let mut tx = self.core.db.begin_write().await?;
        let Some(ch) = challenges::get(&mut tx, id).await? else {
            return refuse(Refusal::UnknownChallenge { id });
        };
        if ch.state != ChallengeState::Open {
            return refuse(Refusal::ChallengeNotOpen { was: None });
        }
        let state = if cancel {
            if user != ch.spec.challenger_id {
                return refuse(Refusal::OnlyChallengerCancels);
            }
            ChallengeState::Cancelled
        } else {
            match ch.spec.opponent_id {
                Some(o) if o == user => ChallengeState::Declined,
                Some(_) => return refuse(Refusal::OnlyChallengedDeclines),
                None if user == ch.spec.challenger_id => {
                    return refuse(Refusal::DeclineOwnChallenge);
                }
                None => {
                    return refuse(Refusal::OpenToAnyone);
                }
            }
        };
        challenges::close(&mut tx, id, state, None).await?;
        let closed = challenges::get(&mut tx, id)
            .await?
            .ok_or_else(|| ServiceError::Corrupt(format!("challenge #{id} vanished")))?;
        self.core
            .enqueue(
                &mut tx,
                outbox::Committed::ChallengeClosed {
                    challenge: &closed,
                    by: user,
                },
            )
            .await?;
        tx.commit().await?;
        Ok(closed)
    }
}
