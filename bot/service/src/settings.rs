//! Players' and servers' settings: reminders (`/settings me`, `/settings server`) and a
//! server's league organisers.

use kaboom_domain::ids::{GuildId, RoleId, UserId};
use kaboom_store::settings::{self, GuildSettings, Limit, NudgeVia, PlayerLimits, UserSettings};

use super::{Refusal, ServiceError, Settings};

/// The hours a server may set for untimed games' reminders: from one hour to 90 days.
pub const REMINDER_HOURS: std::ops::RangeInclusive<i64> = 1..=24 * 90;

/// What `/settings server` changes; each field left `None` stays as it is.
#[derive(Clone, Copy, Debug, Default, Eq, PartialEq)]
pub struct GuildChange<'a> {
    /// Timed games: the shares of the time per move at which to remind, e.g. `"50,80"`.
    pub shares: Option<&'a str>,
    /// Untimed games: hours before the first reminder, in [`REMINDER_HOURS`].
    pub idle_hours: Option<i64>,
    /// Untimed games: hours between the next reminders, in [`REMINDER_HOURS`].
    pub repeat_hours: Option<i64>,
    /// Who may create and manage leagues besides Manage Server members.
    pub league_organisers: Option<LeagueOrganisers>,
    /// The per-player limits to choose (each `Some` within [`Limit::allowed`]).
    pub limits: PlayerLimits,
}

/// Who may create and manage a server's leagues (docs/leagues.md, "Who runs a league").
#[derive(Clone, Copy, Debug, Eq, PartialEq)]
pub enum LeagueOrganisers {
    /// Members with the Manage Server permission only.
    ManageServerOnly,
    /// Those, and the members holding this role.
    AlsoRole(RoleId),
}

impl LeagueOrganisers {
    /// The role that may organise besides Manage Server members, if any.
    pub fn role(self) -> Option<RoleId> {
        match self {
            LeagueOrganisers::ManageServerOnly => None,
            LeagueOrganisers::AlsoRole(role) => Some(role),
        }
    }
}

impl Settings<'_> {
    /// Everything Kaboom keeps under `user`'s id (`/privacy show` and `/privacy export`).
    ///
    /// # Errors
    /// [`ServiceError::Storage`] on a database failure.
    pub async fn personal_data(
        self,
        user: UserId,
    ) -> Result<kaboom_store::privacy::PersonalData, ServiceError> {
        Ok(kaboom_store::privacy::personal_data(&self.core.db, user).await?)
    }

    /// Deletes what only `user` needs (`/privacy delete`): their reminder and preview
    /// settings, private notes and conditional moves; games, ratings and vacations stay
    /// ([`kaboom_store::privacy::forget`]).
    ///
    /// # Errors
    /// [`ServiceError::Storage`] on a database failure (nothing is deleted then).
    pub async fn forget(
        self,
        user: UserId,
    ) -> Result<kaboom_store::privacy::Forgotten, ServiceError> {
        Ok(kaboom_store::privacy::forget(&self.core.db, user).await?)
    }

    /// The per-player limits that apply in `guild`: the server's choices over the host's
    /// defaults (`SchedulerConfig::defaults`, from `kaboom serve`'s settings) over the
    /// built-in ones ([`Limit::default_value`]); outside servers the host's and built-in
    /// ones.
    ///
    /// # Errors
    /// [`ServiceError::Storage`] on a database failure.
    pub async fn limits(self, guild: Option<GuildId>) -> Result<PlayerLimits, ServiceError> {
        limits_in(self.core, &self.core.db, guild).await
    }

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

    /// Server `guild`'s settings after applying `change`: `shares` of a timed game's time per
    /// move at which to remind (percentages, e.g. `"50,80"`), for untimed games the hours
    /// before the first reminder (`idle_hours`) and between the next ones (`repeat_hours`),
    /// each in [`REMINDER_HOURS`], who may run leagues, and the per-player limits chosen
    /// in `change.limits` (each within [`Limit::allowed`]). A server that set nothing starts
    /// from the running scheduler's defaults; nothing is written when nothing is given.
    ///
    /// # Errors
    /// [`ServiceError::Refused`] ([`Refusal::BadSetting`], saying what would be right) for a
    /// value out of range; [`ServiceError::Storage`] on a database failure.
    pub async fn update_guild(
        self,
        guild: GuildId,
        change: GuildChange<'_>,
    ) -> Result<GuildSettings, ServiceError> {
        // A server that set nothing starts from the host's defaults, with no limit of its
        // own chosen (so the host's limits keep applying to it).
        let mut s = settings::guild(&self.core.db, guild)
            .await?
            .unwrap_or_else(|| GuildSettings {
                limits: PlayerLimits::default(),
                ..self.core.scheduler.defaults.clone()
            });
        let GuildChange {
            shares,
            idle_hours,
            repeat_hours,
            league_organisers,
            limits,
        } = change;
        let changed = shares.is_some()
            || idle_hours.is_some()
            || repeat_hours.is_some()
            || league_organisers.is_some()
            || limits != PlayerLimits::default();
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
        if let Some(organisers) = league_organisers {
            s.league_organisers = organisers.role();
        }
        for limit in Limit::ALL {
            if let Some(value) = limits.chosen(limit) {
                s.limits
                    .set(limit, Some(value))
                    .map_err(|reason| ServiceError::Refused(Refusal::BadSetting { reason }))?;
            }
        }
        if changed {
            settings::put_guild(&self.core.db, guild, &s, self.core.clock.now()).await?;
        }
        Ok(s)
    }
}

/// The per-player limits that apply in `guild` (see [`Settings::limits`]), read on the
/// pool or inside a transaction.
///
/// # Errors
/// [`ServiceError::Storage`] on a database failure.
pub(crate) async fn limits_in<'a>(
    core: &crate::Core,
    on: impl Into<kaboom_store::sql::On<'a>>,
    guild: Option<GuildId>,
) -> Result<PlayerLimits, ServiceError> {
    let host = core.scheduler.defaults.limits;
    Ok(match guild {
        Some(g) => settings::guild(on, g)
            .await?
            .map_or(host, |s| s.limits.or(host)),
        None => host,
    })
}
