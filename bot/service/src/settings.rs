//! Players' and servers' settings: reminders (`/settings me`, `/settings server`).

use kaboom_domain::ids::{GuildId, UserId};
use kaboom_store::settings::{self, GuildSettings, NudgeVia, UserSettings};

use super::{Refusal, ServiceError, Settings};

/// The hours a server may set for untimed games' reminders: from one hour to 90 days.
pub const REMINDER_HOURS: std::ops::RangeInclusive<i64> = 1..=24 * 90;

impl Settings<'_> {
    /// `user`'s reminder settings after changing what is given (`nudges` on or off, `via`
    /// DM or thread mention); nothing is written when neither is.
    ///
    /// # Errors
    /// [`ServiceError::Storage`] on a database failure.
    pub async fn update_user(
        self,
        user: UserId,
        nudges: Option<bool>,
        via: Option<NudgeVia>,
    ) -> Result<UserSettings, ServiceError> {
        let mut s = settings::user(&self.core.db, user).await?;
        if nudges.is_some() || via.is_some() {
            s = UserSettings {
                nudges: nudges.unwrap_or(s.nudges),
                via: via.unwrap_or(s.via),
            };
            settings::put_user(&self.core.db, user, s, self.core.clock.now()).await?;
        }
        Ok(s)
    }

    /// Server `guild`'s reminder settings after changing what is given: `shares` of a timed
    /// game's time per move at which to remind (percentages, e.g. `"50,80"`), and for untimed
    /// games the hours before the first reminder (`idle_hours`) and between the next ones
    /// (`repeat_hours`), each in [`REMINDER_HOURS`]. A server that set nothing starts from the
    /// running scheduler's defaults; nothing is written when nothing is given.
    ///
    /// # Errors
    /// [`ServiceError::Refused`] ([`Refusal::BadSetting`], saying what would be right) for a
    /// value out of range; [`ServiceError::Storage`] on a database failure.
    pub async fn update_guild(
        self,
        guild: GuildId,
        shares: Option<&str>,
        idle_hours: Option<i64>,
        repeat_hours: Option<i64>,
    ) -> Result<GuildSettings, ServiceError> {
        let mut s = settings::guild(&self.core.db, guild)
            .await?
            .unwrap_or_else(|| self.core.scheduler.defaults.clone());
        let changed = shares.is_some() || idle_hours.is_some() || repeat_hours.is_some();
        if let Some(text) = shares {
            s.nudge_shares = settings::parse_shares(text)
                .map_err(|reason| ServiceError::Refused(Refusal::BadSetting { reason }))?;
        }
        for (value, field, name) in [
            (idle_hours, &mut s.idle_first_secs, "idle_hours"),
            (repeat_hours, &mut s.idle_repeat_secs, "repeat_hours"),
        ] {
            if let Some(h) = value {
                if !REMINDER_HOURS.contains(&h) {
                    return Err(ServiceError::Refused(Refusal::BadSetting {
                        reason: format!("{name} must be from 1 to 2160 hours (90 days), not {h}."),
                    }));
                }
                *field = h * 3600;
            }
        }
        if changed {
            settings::put_guild(&self.core.db, guild, &s, self.core.clock.now()).await?;
        }
        Ok(s)
    }
}
