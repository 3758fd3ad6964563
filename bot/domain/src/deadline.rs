//! What is due for one game at a time: a pure function of the game's stored times and the
//! server's settings, so the sweep's decisions are tested without a database.

use std::sync::Arc;
use std::time::Duration;

use crate::game::GameState;
use crate::settings::GuildSettings;

/// Seconds in an hour.
pub const HOUR: i64 = 3600;

/// The stored facts about a game the plan needs.
#[derive(Copy, Clone, Eq, PartialEq, Debug)]
pub struct Facts {
    /// Setup, active or finished.
    pub state: GameState,
    /// Created (Unix seconds): the designation timeout counts from here.
    pub created_at: i64,
    /// When the current turn began (Unix seconds).
    pub turn_started_at: i64,
    /// The deadline of the side to move (timed games).
    pub deadline_at: Option<i64>,
}

/// The most advanced overdue state of a game (one message per game per sweep, for
/// the most advanced state only).
#[derive(Clone, Eq, PartialEq, Debug)]
pub enum Due {
    /// Nothing now.
    Nothing,
    /// The deadline passed: the side to move loses on time.
    Forfeit,
    /// The designation took too long: the game is aborted.
    Abort,
    /// Remind the side to move: `threshold` is the key of the `nudges` table
    /// (`share:50`, `idle:1`).
    Nudge(Nudge),
}

/// A reminder to the side to move.
#[derive(Clone, Eq, PartialEq, Debug)]
pub enum Nudge {
    /// `percent` of the time per move is used (timed games).
    Share {
        /// The share crossed, in percent.
        percent: u8,
    },
    /// The `nth` idle reminder (untimed games), after `idle_secs` without a move.
    Idle {
        /// 1 for the first reminder.
        nth: i64,
        /// Seconds since the turn began, at the reminder's time.
        idle_secs: i64,
    },
}

impl Nudge {
    /// The key stored in `nudges.threshold`.
    pub fn threshold(&self) -> String {
        match self {
            Nudge::Share { percent } => format!("share:{percent}"),
            Nudge::Idle { nth, .. } => format!("idle:{nth}"),
        }
    }
}

/// What is due now and when to look next.
#[derive(Clone, Eq, PartialEq, Debug)]
pub struct Plan {
    /// The most advanced overdue state.
    pub due: Due,
    /// When the scheduler next has something to decide (`None`: never). Always later than
    /// `now` when present.
    pub next: Option<i64>,
}

/// The end the scheduler owes a game at `now`, if any: [`Due::Forfeit`] once the deadline
/// of the side to move (`deadline_at`, Unix seconds) has passed, [`Due::Abort`] once a game
/// still in setup has outlived `designation_timeout` seconds since `created_at`. The rule
/// [`plan`] applies before any nudge; the services use it to refuse an action that comes
/// after its time ran out, which the next sweep turns into the forfeit or abort.
pub fn overdue_end(
    state: GameState,
    created_at: i64,
    deadline_at: Option<i64>,
    now: i64,
    designation_timeout: i64,
) -> Option<Due> {
    match state {
        GameState::Setup if created_at + designation_timeout <= now => Some(Due::Abort),
        GameState::Active if deadline_at.is_some_and(|d| d <= now) => Some(Due::Forfeit),
        _ => None,
    }
}

/// The plan for a game at `now`: the deadline wins over any nudge; of several overdue
/// nudges only the highest is returned (lower ones are never sent later either, since the
/// next plan starts above it).
pub fn plan(f: &Facts, now: i64, settings: &GuildSettings, designation_timeout: i64) -> Plan {
    if let Some(due) = overdue_end(
        f.state,
        f.created_at,
        f.deadline_at,
        now,
        designation_timeout,
    ) {
        return Plan { due, next: None };
    }
    match f.state {
        GameState::Finished => Plan {
            due: Due::Nothing,
            next: None,
        },
        GameState::Setup => Plan {
            due: Due::Nothing,
            next: Some(f.created_at + designation_timeout),
        },
        GameState::Active => match f.deadline_at {
            Some(deadline) => timed(f.turn_started_at, deadline, now, &settings.nudge_shares),
            None => idle(f.turn_started_at, now, settings),
        },
    }
}

/// Nudges of a timed game whose `deadline` is still ahead of `now`.
fn timed(start: i64, deadline: i64, now: i64, shares: &[u8]) -> Plan {
    let span = (deadline - start).max(0);
    let at = |p: u8| start + span * i64::from(p) / 100;
    let crossed = shares.iter().copied().filter(|&p| at(p) <= now).max();
    let next = shares
        .iter()
        .map(|&p| at(p))
        .filter(|&t| t > now)
        .min()
        .map_or(deadline, |t| t.min(deadline));
    Plan {
        due: crossed.map_or(Due::Nothing, |percent| Due::Nudge(Nudge::Share { percent })),
        next: Some(next),
    }
}

fn idle(start: i64, now: i64, s: &GuildSettings) -> Plan {
    let first = start + s.idle_first_secs;
    if now < first {
        return Plan {
            due: Due::Nothing,
            next: Some(first),
        };
    }
    let repeat = s.idle_repeat_secs.max(60);
    let nth = 1 + (now - first) / repeat;
    Plan {
        due: Due::Nudge(Nudge::Idle {
            nth,
            idle_secs: s.idle_first_secs + (nth - 1) * repeat,
        }),
        next: Some(first + nth * repeat),
    }
}

/// The scheduler's configuration (in brackets: the environment variables `kaboom serve`
/// reads it from, through `kaboom_discord::config::SchedulerArgs`).
#[derive(Clone, Debug, Eq, PartialEq)]
pub struct SchedulerConfig {
    /// Time between sweeps (`SCHEDULER_INTERVAL_SECS`, default 60).
    pub interval: Duration,
    /// Open challenges expire after this many seconds (`CHALLENGE_EXPIRY_HOURS`, default
    /// 168 = 7 days).
    pub challenge_ttl_secs: i64,
    /// Games still in carrier designation are aborted after this many seconds
    /// (`DESIGNATION_TIMEOUT_HOURS`, default 48).
    pub designation_timeout_secs: i64,
    /// Nudge settings for servers that set none (`NUDGE_SHARES` default `50,80`,
    /// `IDLE_NUDGE_HOURS` default 48, `IDLE_REPEAT_HOURS` default 168).
    pub defaults: GuildSettings,
    /// Games decided per write transaction (a sweep runs as many batches as needed).
    pub batch: i64,
}

impl Default for SchedulerConfig {
    fn default() -> SchedulerConfig {
        SchedulerConfig {
            interval: Duration::from_secs(60),
            challenge_ttl_secs: 7 * 24 * HOUR,
            designation_timeout_secs: 48 * HOUR,
            defaults: GuildSettings {
                nudge_shares: vec![50, 80],
                idle_first_secs: 48 * HOUR,
                idle_repeat_secs: 7 * 24 * HOUR,
                league_organisers: None,
                limits: Default::default(),
            },
            batch: 256,
        }
    }
}

impl SchedulerConfig {
    /// When an open challenge made at `created_at` expires (Unix seconds): after
    /// [`SchedulerConfig::challenge_ttl_secs`].
    pub fn challenge_expires_at(&self, created_at: i64) -> i64 {
        created_at + self.challenge_ttl_secs
    }
}

/// Wakes a running `kaboom_service::scheduler::Scheduler` for a sweep now instead of at the end of its interval.
///
/// The services hold one: a move, a carrier choice or an acceptance that arrives after its
/// deadline or timeout is refused, and the scheduler is woken so that the time forfeit, abort
/// or expiry is decided and announced at once rather than up to one interval later. Clones
/// wake the same scheduler; a wake while a sweep runs makes the next pause end at once.
#[derive(Clone, Debug, Default)]
pub struct SchedulerWaker(Arc<tokio::sync::Notify>);

impl SchedulerWaker {
    /// Asks for a sweep now (does nothing visible when no scheduler runs).
    pub fn wake(&self) {
        self.0.notify_one();
    }

    /// Waits for a wake (the running scheduler's pause).
    pub async fn notified(&self) {
        self.0.notified().await;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const DAY: i64 = 86_400;

    fn settings() -> GuildSettings {
        GuildSettings {
            nudge_shares: vec![50, 80],
            idle_first_secs: 2 * DAY,
            idle_repeat_secs: 7 * DAY,
            league_organisers: None,
            limits: Default::default(),
        }
    }

    fn active(deadline: Option<i64>) -> Facts {
        Facts {
            state: GameState::Active,
            created_at: 0,
            turn_started_at: 1000,
            deadline_at: deadline,
        }
    }

    #[test]
    fn timed_thresholds_in_order_and_deadline_wins() {
        let f = active(Some(1000 + 10 * DAY));
        let s = settings();
        let p = plan(&f, 1000 + 4 * DAY, &s, 2 * DAY);
        assert_eq!(p.due, Due::Nothing);
        assert_eq!(p.next, Some(1000 + 5 * DAY));
        let p = plan(&f, 1000 + 5 * DAY, &s, 2 * DAY);
        assert_eq!(p.due, Due::Nudge(Nudge::Share { percent: 50 }));
        assert_eq!(p.next, Some(1000 + 8 * DAY));
        // Both thresholds overdue: only the highest.
        let p = plan(&f, 1000 + 9 * DAY, &s, 2 * DAY);
        assert_eq!(p.due, Due::Nudge(Nudge::Share { percent: 80 }));
        assert_eq!(p.next, Some(1000 + 10 * DAY));
        // Deadline passed: a forfeit, no nudge.
        let p = plan(&f, 1000 + 30 * DAY, &s, 2 * DAY);
        assert_eq!((p.due, p.next), (Due::Forfeit, None));
    }

    #[test]
    fn untimed_games_get_idle_reminders() {
        let f = active(None);
        let s = settings();
        let p = plan(&f, 1000 + DAY, &s, 0);
        assert_eq!((p.due, p.next), (Due::Nothing, Some(1000 + 2 * DAY)));
        let p = plan(&f, 1000 + 2 * DAY, &s, 0);
        assert_eq!(
            p.due.clone(),
            Due::Nudge(Nudge::Idle {
                nth: 1,
                idle_secs: 2 * DAY
            })
        );
        assert_eq!(p.next, Some(1000 + 9 * DAY));
        let p = plan(&f, 1000 + 17 * DAY, &s, 0);
        assert_eq!(
            p.due,
            Due::Nudge(Nudge::Idle {
                nth: 3,
                idle_secs: 16 * DAY
            })
        );
        assert_eq!(p.next, Some(1000 + 23 * DAY));
    }

    #[test]
    fn setup_times_out_and_finished_is_never_due() {
        let mut f = active(None);
        f.state = GameState::Setup;
        assert_eq!(
            plan(&f, 2 * DAY - 1, &settings(), 2 * DAY).next,
            Some(2 * DAY)
        );
        assert_eq!(plan(&f, 2 * DAY, &settings(), 2 * DAY).due, Due::Abort);
        f.state = GameState::Finished;
        assert_eq!(plan(&f, 99 * DAY, &settings(), 2 * DAY).next, None);
    }
}

/// The seconds a player's clock stands still from `now` because of their vacation
/// from `started_at` to `until_at` (Unix seconds): the part of the vacation still ahead
/// (0 once it is over). A turn that begins during a vacation gets its time per move after
/// the player is back; a vacation that starts during a turn pushes the deadline back by its
/// length, and one that ends early pulls it forward by the days not taken, so the clock
/// has stood still exactly while the player was away.
pub fn vacation_pause(now: i64, started_at: i64, until_at: i64) -> i64 {
    (until_at - now.max(started_at)).max(0)
}

#[cfg(test)]
mod vacation_tests {
    use super::vacation_pause;

    #[test]
    fn a_vacation_pauses_only_what_is_left_of_it() {
        assert_eq!(vacation_pause(100, 0, 1_000), 900);
        assert_eq!(vacation_pause(0, 100, 1_000), 900);
        assert_eq!(vacation_pause(2_000, 0, 1_000), 0);
    }
}
