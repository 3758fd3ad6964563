//! The soak: a month of correspondence play on the test clock, with everything that wears
//! a long-running bot down at once. Simulated players start games in all five variants
//! (Atomic, Beirut, Nuke, Bomberman Chess, Bombalot), choose Beirut's and Nuke's carriers
//! from the menus the bot sends them by DM, and move at human pace (most within hours,
//! some late, some never again, so that reminders and time forfeits happen); some take a
//! vacation, resign, offer draws (accepted or declined by moving on), and ask for
//! rematches of finished games. The clock moves an hour at a time and the scheduler sweeps
//! after each hour, as `kaboom serve` does; about 5% of the bot's REST requests fail with
//! Discord-shaped errors (5xx before or after the work, 429), so its outbox and its answers
//! retry; and every few simulated days the bot is stopped and started again on the same
//! database, wherever its deliveries stand.
//!
//! At the end of the month, with the faults switched off and the outbox drained:
//! - every game is finished, or legitimately running: its player to move still within
//!   the deadline or on vacation, or its carrier designation still within its time;
//! - every committed ply's board is posted exactly once in its game's thread (the opening
//!   board and one per ply: no gap, no duplicate), each the message its outbox entry
//!   recorded;
//! - every message the bot posted (not an interaction answer) in the channel, the threads
//!   and the players' DMs belongs to one outbox entry, by its nonce, and no two carry the
//!   same; every delivered entry's message exists;
//! - the outbox is empty: nothing undelivered, nothing given up;
//! - the database's bytes per finished game stay under a bound;
//! - the count of live tokio tasks, sampled at the end of every simulated day, does not
//!   keep growing (the last week's quietest day within a few tasks of the first week's
//!   busiest): nothing is left running per game or per restart;
//! - the bot's live heap does not keep growing: at the end of the month it stays within
//!   [`HEAP_MARGIN_BYTES`] of what it was at the end of the first week. The bot runs in
//!   the test's process beside the fake Discord, which keeps every message, interaction
//!   and request by design, so the bot's share is the process's live heap (counted by the
//!   test binary's allocator, `HEAP`) less the heap the fake's records take (dropped,
//!   copies left in their place: [`FakeDiscord::take_records_leaving_copies`]), measured
//!   with the bot's bounded caches emptied (replayed games, [`ReplayCache::clear`]; the
//!   renderer's sprites, board layers and squares, [`kaboom_renderer::clear_caches`]),
//!   which fill up to their bounds as games grow longer and new boards are drawn. The
//!   process's RSS is sampled every simulated day and printed; it holds the fake's growth and what the system allocator keeps of
//!   freed memory, so it is not the bot's (docs/PERFORMANCE.md, "Soak").
//!
//! Seeded by `KABOOM_SOAK_SEED` (printed); sized by `KABOOM_SOAK_GAMES` and
//! `KABOOM_SOAK_DAYS` (default [`SMALL_GAMES`] games over [`DAYS`] days; the ignored
//! benchmark, [`FULL_GAMES`], SQLite). The suite's month runs on SQLite and on PostgreSQL
//! (`dbtest!`); the database's size is its files on SQLite and `pg_database_size` on
//! PostgreSQL.
//!
//! The soak is its own test binary, apart from the bot's other integration tests (`it`):
//! it counts its process's live heap, which tests running beside it in one process would
//! add to; for the same reason its tests take turns ([`SERIAL`]).

use std::collections::{BTreeMap, HashMap, HashSet};
use std::sync::Arc;
use std::time::{Duration, Instant};

use fake_discord::faults::{FaultPlan, FaultRule, RestFault};
use fake_discord::{CommandOption, FakeDiscord, InteractionResponse, SimUser};
use futures_util::StreamExt;
use kaboom_discord::messages::ids;
use kaboom_domain::clock::Clock;
use kaboom_domain::game::GameState;
use kaboom_domain::ids::{GameId, MessageId, UserId};
use kaboom_rules::{AnyGame, Color, Viewer};
use kaboom_service::Services;
use kaboom_service::replay::ReplayCache;
use kaboom_service::scheduler::{Scheduler, SchedulerConfig};
use kaboom_store::{Db, challenges, games, outbox};
use kaboom_testkit::TempDb;
use kaboom_testkit::clock::TestClock;
use kaboom_testkit::demo::DemoError;
use kaboom_testkit::driver::{Driver, ServicesFor, accept_button};
use kaboom_testkit::fixture::T0;
use kaboom_testkit::painter::PlainPainter;

/// The test binary's allocator: the system's, counting the live heap in bytes (`cap`), so
/// that the soak can tell how much of the process's memory the bot keeps from what the fake
/// Discord beside it keeps.
#[global_allocator]
static HEAP: cap::Cap<std::alloc::System> = cap::Cap::new(std::alloc::System, usize::MAX);

/// Held by each test of this binary for its whole run: one month at a time, so that the
/// heap counted is that month's alone.
static SERIAL: tokio::sync::Mutex<()> = tokio::sync::Mutex::const_new(());

/// One simulated hour, in seconds.
const HOUR: i64 = 3600;
/// One simulated day, in seconds.
const DAY: i64 = 24 * HOUR;
/// Simulated days in the suite's run and the benchmark.
const DAYS: i64 = 30;
/// Games in the suite's run (well under a minute on 2 cores).
const SMALL_GAMES: usize = 24;
/// Games in the benchmark (`--ignored`).
const FULL_GAMES: usize = 1000;
/// The default seed.
const SEED: u64 = 20_261_207;
/// A game still running at this ply ends with the mover's resignation (random play in
/// these variants rarely needs longer to end).
const MAX_PLIES: i64 = 60;
/// A kill (stop and start again on the same database) every this many simulated days
/// (`KABOOM_SOAK_KILL_EVERY_DAYS`; 0: none).
const KILL_EVERY_DAYS: i64 = 3;
/// Player actions in flight at once.
const IN_FLIGHT: usize = 8;
/// Bytes the SQLite database may grow by per ply stored over the month (with its board
/// posts, reminders and announcements; 0.9 to 2.2 KB measured: docs/PERFORMANCE.md, "Soak");
/// more would mean something is kept that should not be.
const MAX_DB_BYTES_PER_PLY: u64 = 8 * 1024;
/// How many bytes more the bot's live heap may hold at the end of the month than at the
/// end of the first week (the process's live heap less the fake's records, each measured
/// at that moment with the replay and picture caches emptied). Work in flight at the
/// moment of measuring comes and goes, and the small bounded state (prepared statements
/// per pooled connection, the rate limiter's recent players) fills early; a bot that kept
/// a kilobyte per move, or anything per game or per restart, would grow by more over three
/// weeks of play (about 500 moves at the suite's size, 20,000 at full size). SQLite's page
/// cache is allocated by SQLite itself, outside this count.
const HEAP_MARGIN_BYTES: u64 = 4 * 1024 * 1024;
/// The simulated day at whose end the first measure of the bot's heap is taken.
const FIRST_WEEK: i64 = 7;
/// How many more live tokio tasks the last week's quietest day may show than the first
/// week's busiest: deliveries and interactions in flight come and go, the bot's own tasks
/// stay; a leak of even one task per restart or per game would exceed it.
const TASK_MARGIN: usize = 4;

/// The seed: `KABOOM_SOAK_SEED`, or [`SEED`].
fn seed() -> u64 {
    std::env::var("KABOOM_SOAK_SEED")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(SEED)
}

/// A count from the environment variable `name`, or `default`.
fn env_count(name: &str, default: usize) -> usize {
    std::env::var(name)
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(default)
}

/// The process's resident set size in bytes (`VmRSS` of /proc/self/status).
fn rss_bytes() -> u64 {
    status_bytes("VmRSS:")
}

/// A size in /proc/self/status (`VmRSS:`, `RssAnon:`, ...), in bytes.
fn status_bytes(field: &str) -> u64 {
    let status = std::fs::read_to_string("/proc/self/status").expect("read /proc/self/status");
    status
        .lines()
        .find_map(|l| l.strip_prefix(field))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse::<u64>().ok())
        .map(|kb| kb * 1024)
        .unwrap_or_else(|| panic!("{field} in /proc/self/status"))
}

/// The load average of the last minute (/proc/loadavg), for the record.
fn load_average() -> String {
    std::fs::read_to_string("/proc/loadavg")
        .unwrap_or_default()
        .split_whitespace()
        .take(3)
        .collect::<Vec<_>>()
        .join(" ")
}

/// The `/challenge variant:` choice number and name of the five variants.
const VARIANTS: [(i64, &str); 5] = [
    (0, "Atomic"),
    (1, "Beirut"),
    (2, "Nuke"),
    (3, "Bomberman Chess"),
    (4, "Bombalot"),
];

/// How a game's players behave beyond moving at their pace, drawn when it starts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Fate {
    /// They play until the game ends by itself or [`MAX_PLIES`].
    PlayOn,
    /// The player of `color` stops answering at `ply`: reminders, then a time forfeit.
    Vanish { color: Color, ply: i64 },
    /// The player to move at `ply` resigns.
    Resign { ply: i64 },
    /// The player to move at `ply` offers a draw; the opponent accepts it when `accepted`,
    /// else declines it by moving on.
    Draw { ply: i64, accepted: bool },
}

/// One game as the simulation follows it.
#[derive(Debug)]
struct Sim {
    /// The game.
    game: GameId,
    /// The players, by user index: White, Black.
    players: [usize; 2],
    /// Its fate.
    fate: Fate,
    /// When its next action is due (simulated Unix seconds).
    next_at: i64,
    /// Whether each side (White, Black) still has to choose carriers (Beirut, Nuke).
    carriers: [bool; 2],
    /// Who offered the draw of a [`Fate::Draw`], while it stands.
    draw_offered_by: Option<Color>,
    /// Whether the draw of a [`Fate::Draw`] was offered and answered (no second offer).
    draw_settled: bool,
}

/// A rematch asked for and not yet accepted: (the finished game, the opponent's index).
type PendingRematch = (GameId, usize);

/// What one player action did, applied to the simulation afterwards.
#[derive(Debug)]
enum Done {
    /// The player of `by` moved.
    Moved { by: Color },
    /// Nothing changed; try again at the given time.
    Later(i64),
    /// The game is over (by the action or before it).
    Over,
    /// A carrier choice was made by `color`.
    Carriers(Color),
    /// The player of `by` offered a draw.
    DrawOffered { by: Color },
}

/// The live heap at one moment, in bytes.
#[derive(Clone, Copy, Debug)]
struct HeapMeasure {
    /// The simulated day it was taken at the end of.
    day: i64,
    /// The process's live heap (`HEAP`).
    process: u64,
    /// The heap the fake Discord's records took
    /// ([`FakeDiscord::take_records_leaving_copies`]).
    fake: u64,
    /// The heap the renderer's bounded caches held before they were emptied for the
    /// measure ([`kaboom_renderer::cache_bytes`]).
    renderer_caches: u64,
}

impl HeapMeasure {
    /// Measures now, at the end of `day`, with the bot's bounded caches (its replayed
    /// games, `replays`, and the renderer's) emptied first: they fill over the month as
    /// games grow longer and new boards are drawn, up to their bounds, and are not what
    /// this looks for.
    fn take(day: i64, fake: &FakeDiscord, replays: &ReplayCache) -> HeapMeasure {
        let renderer_caches = kaboom_renderer::cache_bytes() as u64;
        kaboom_renderer::clear_caches();
        replays.clear();
        let process = HEAP.allocated() as u64;
        let records = fake.take_records_leaving_copies();
        let with_copies = HEAP.allocated() as u64;
        drop(records);
        let fake_bytes = with_copies.saturating_sub(HEAP.allocated() as u64);
        HeapMeasure {
            day,
            process,
            fake: fake_bytes,
            renderer_caches,
        }
    }

    /// The bot's share, its bounded caches emptied: the process's live heap less the
    /// fake's records; the test's own bookkeeping, small, is counted with the bot.
    fn bot(&self) -> u64 {
        self.process.saturating_sub(self.fake)
    }
}

/// The whole month's bookkeeping.
#[derive(Default, Debug)]
struct Tally {
    /// Challenges made and accepted.
    challenges: usize,
    /// Rematches accepted.
    rematches: usize,
    /// Moves played.
    moves: usize,
    /// Games ended by a resignation.
    resignations: usize,
    /// Draws offered.
    draw_offers: usize,
    /// Vacations started.
    vacations: usize,
    /// Kills (stops and starts on the same database).
    kills: usize,
    /// Reminders the scheduler sent.
    nudges: usize,
    /// Games the scheduler ended on time.
    forfeits: usize,
    /// Games the scheduler aborted (carriers not chosen in time).
    aborts: usize,
    /// RSS at the end of each simulated day.
    rss: Vec<u64>,
    /// Live tokio tasks at the end of each simulated day.
    tasks: Vec<usize>,
    /// The process's live heap and the heap the fake's records took, in bytes, at the
    /// end of the first week and at the end of the month.
    heap: Vec<HeapMeasure>,
    /// The database's bytes once the bot had started on it (migrations applied).
    empty_db_bytes: u64,
    /// Wall time spent in each part of the month, by name.
    wall: BTreeMap<&'static str, Duration>,
}

impl Tally {
    /// Adds the wall time since `since` to part `part`.
    fn spent(&mut self, part: &'static str, since: Instant) {
        *self.wall.entry(part).or_default() += since.elapsed();
    }
}

/// The soak's players and what they share.
struct Month {
    /// The seeded random source of every choice.
    rng: fastrand::Rng,
    /// The bot's clock.
    clock: Arc<TestClock>,
    /// The players.
    users: Vec<SimUser>,
    /// Vacation end per user index (simulated Unix seconds), while one runs.
    vacation_until: HashMap<usize, i64>,
    /// Vacation days used per user index.
    vacation_days: HashMap<usize, i64>,
    /// The games running.
    sims: BTreeMap<GameId, Sim>,
    /// The games finished.
    finished: Vec<GameId>,
    /// The rematches asked for and not yet accepted.
    rematches: Vec<PendingRematch>,
    /// Finished games whose rematch is still to be asked for: the game, its players
    /// (White, Black), until when.
    to_ask: Vec<(GameId, [usize; 2], i64)>,
    /// What happened.
    tally: Tally,
}

/// The fault plan: about 5% of REST requests fail as Discord fails them.
fn fault_plan(seed: u64) -> FaultPlan {
    let rule = |probability, fault| FaultRule {
        method: None,
        path: "/".into(),
        probability,
        fault,
    };
    FaultPlan {
        seed,
        rules: vec![
            rule(
                0.015,
                RestFault::Status {
                    status: 503,
                    after: false,
                },
            ),
            rule(
                0.01,
                RestFault::Status {
                    status: 500,
                    after: false,
                },
            ),
            rule(
                0.01,
                RestFault::Status {
                    status: 502,
                    after: true,
                },
            ),
            rule(
                0.015,
                RestFault::RateLimit {
                    retry_after: 0.2,
                    global: false,
                },
            ),
        ],
        ..FaultPlan::default()
    }
}

/// The side of `color` as an index into [`Sim::players`].
fn side(color: Color) -> usize {
    match color {
        Color::White => 0,
        Color::Black => 1,
    }
}

/// The viewer of the player of `color`.
fn viewer(color: Color) -> Viewer {
    match color {
        Color::White => Viewer::White,
        Color::Black => Viewer::Black,
    }
}

/// The stored game `row`, replayed.
async fn replay(db: &Db, row: &games::GameRow) -> AnyGame {
    let actions = games::actions(db, row.id).await.expect("actions");
    AnyGame::from_record(&games::record(row, actions))
        .unwrap_or_else(|e| panic!("game {} does not replay: {e}", row.id))
}

/// The `game:` option naming `game`.
fn game_option(game: GameId) -> CommandOption {
    CommandOption::string("game", game.to_string())
}

impl Month {
    /// A delay until a player's next action: mostly within hours, sometimes most of a day,
    /// one in a hundred days (past a 1- or 2-day deadline: a forfeit).
    fn pace(&mut self) -> i64 {
        match self.rng.u32(0..100) {
            0..=59 => self.rng.i64(1..8) * HOUR,
            60..=98 => self.rng.i64(8..24) * HOUR,
            _ => self.rng.i64(24..96) * HOUR,
        }
    }

    /// A fate for a new game.
    fn fate(&mut self) -> Fate {
        match self.rng.u32(0..100) {
            0..=7 => Fate::Vanish {
                color: if self.rng.bool() {
                    Color::White
                } else {
                    Color::Black
                },
                ply: self.rng.i64(0..20),
            },
            8..=19 => Fate::Resign {
                ply: self.rng.i64(2..40),
            },
            20..=27 => Fate::Draw {
                ply: self.rng.i64(6..40),
                accepted: self.rng.u32(0..100) < 60,
            },
            _ => Fate::PlayOn,
        }
    }

    /// Whether user `u` is on vacation at `now`.
    fn away(&self, u: usize, now: i64) -> bool {
        self.vacation_until
            .get(&u)
            .is_some_and(|&until| until > now)
    }
}

/// The running bot and how to start it again.
struct Bot {
    /// The bot, the fake and the database.
    driver: Driver,
    /// The scheduler over the bot's database, swept once a simulated hour.
    scheduler: Scheduler,
}

impl Bot {
    /// The bot's scheduler over its current database.
    fn scheduler_of(driver: &Driver, clock: &Arc<TestClock>) -> Scheduler {
        driver.scheduler(clock.clone(), SchedulerConfig::default())
    }

    /// Stops the bot and starts it again on the same fake and database (an in-process
    /// kill: whatever it was delivering is left in the outbox).
    async fn restart(self, clock: &Arc<TestClock>) -> Bot {
        let Bot { driver, .. } = self;
        let driver = driver.restart().await.expect("the bot starts again");
        let scheduler = Bot::scheduler_of(&driver, clock);
        Bot { driver, scheduler }
    }
}

/// `user`'s `/challenge` of `opponent` to `variant`, accepted by the opponent; the game.
async fn start_game(
    d: &Driver,
    white: &SimUser,
    black: &SimUser,
    variant: i64,
    days: i64,
) -> Result<GameId, DemoError> {
    let posted = d
        .cmd(
            white,
            d.fake.text_channel_id(),
            "challenge",
            vec![
                CommandOption::integer("variant", variant),
                CommandOption::user("opponent", black),
                CommandOption::integer("days_per_move", days),
                CommandOption::integer("color", 0),
                CommandOption::boolean("rated", false),
            ],
        )
        .await?;
    accept_challenge(d, black, &posted).await
}

/// `user` accepts the challenge `posted` carries (its message and Accept button); the game.
async fn accept_challenge(
    d: &Driver,
    user: &SimUser,
    posted: &InteractionResponse,
) -> Result<GameId, DemoError> {
    let accept = accept_button(posted)
        .ok_or_else(|| DemoError::Step(format!("no Accept button: {posted:?}")))?;
    let message = posted
        .message_id
        .ok_or_else(|| DemoError::Step(format!("no challenge message: {posted:?}")))?;
    accept_by_id(d, user, message, &accept).await
}

/// `user` presses Accept (`accept`, on `message`); the game the challenge became.
async fn accept_by_id(
    d: &Driver,
    user: &SimUser,
    message: u64,
    accept: &str,
) -> Result<GameId, DemoError> {
    let answer = d.click(user, MessageId(message), accept).await?;
    let (_, challenge) = ids::parse(accept)
        .ok_or_else(|| DemoError::Step(format!("no challenge id in {accept}")))?;
    let row = challenges::get(&d.db, challenge)
        .await?
        .ok_or_else(|| DemoError::Step(format!("no challenge {challenge}")))?;
    row.game_id.ok_or_else(|| {
        DemoError::Step(format!(
            "challenge {challenge} was not accepted: {:?}",
            answer.content()
        ))
    })
}

/// A snapshot of what [`act`] needs of a [`Sim`]: the game, its players, its fate, who
/// still has to choose carriers, who offered a draw, whether the draw was settled.
type Due = (GameId, [usize; 2], Fate, [bool; 2], Option<Color>, bool);

/// One due action of game `due`, by whoever must act; `roll` picks the move.
async fn act(d: &Driver, users: &[SimUser], due: Due, now: i64, roll: u32) -> Done {
    let (game, players, fate, carriers, offered_by, settled) = due;
    let row = games::get(&d.db, game)
        .await
        .expect("read the game")
        .expect("the game");
    if row.state == GameState::Finished {
        return Done::Over;
    }
    if row.state == GameState::Setup {
        for color in [Color::White, Color::Black] {
            if carriers[side(color)] {
                let user = &users[players[side(color)]];
                return match choose_carriers(d, user, game).await {
                    Some(()) => Done::Carriers(color),
                    // The menu is not posted yet (a failed delivery retries): later.
                    None => Done::Later(now + HOUR),
                };
            }
        }
        return Done::Later(now + HOUR);
    }
    let position = replay(&d.db, &row).await;
    let mover = position.turn();
    let user = &users[players[side(mover)]];
    match fate {
        Fate::Vanish { color, ply } if color == mover && row.ply >= ply => {
            // Gone for good: the scheduler reminds, then forfeits.
            return Done::Later(now + 400 * DAY);
        }
        Fate::Resign { ply } if row.ply >= ply => return resign(d, user, &row, now).await,
        Fate::Draw { ply, accepted } if row.ply >= ply && !settled => {
            let accepting = offered_by == Some(!mover) && accepted;
            if accepting || offered_by.is_none() {
                let r = d
                    .cmd(
                        user,
                        d.fake.text_channel_id(),
                        "draw",
                        vec![game_option(game)],
                    )
                    .await
                    .expect("the draw answer");
                assert!(
                    r.content().is_some_and(|c| !c.is_empty()),
                    "game {game}: /draw by {}: {r:?}",
                    user.username
                );
                return if accepting {
                    Done::Over
                } else {
                    Done::DrawOffered { by: mover }
                };
            }
            // The offerer moves on; the opponent declines by moving.
        }
        _ => {}
    }
    if row.ply >= MAX_PLIES {
        return resign(d, user, &row, now).await;
    }
    let legal = position.legal_actions(viewer(mover));
    let Some(pick) = legal.get(roll as usize % legal.len().max(1)) else {
        return Done::Later(now + HOUR);
    };
    let r = d
        .cmd(
            user,
            d.fake.text_channel_id(),
            "move",
            vec![
                CommandOption::string("action", &pick.san),
                game_option(game),
                CommandOption::boolean("preview", false),
            ],
        )
        .await
        .expect("the move's answer");
    let text = r.content().unwrap_or_default();
    assert!(
        text.starts_with("Played **"),
        "game {game} ply {}: {} played {}: {r:?}",
        row.ply,
        user.username,
        pick.san
    );
    Done::Moved { by: mover }
}

/// `user` resigns game `row` (in its thread, confirming; later while it has none).
async fn resign(d: &Driver, user: &SimUser, row: &games::GameRow, now: i64) -> Done {
    let Some(thread) = row.thread_id else {
        return Done::Later(now + HOUR);
    };
    let r = d.resign(user, thread).await.expect("the resignation");
    assert!(
        r.content().is_some_and(|c| !c.is_empty()),
        "game {}: resigning: {r:?}",
        row.id
    );
    Done::Over
}

/// `user` picks the first carriers the menu by DM offers in `game`; `None` while no menu
/// has been posted.
async fn choose_carriers(d: &Driver, user: &SimUser, game: GameId) -> Option<()> {
    let menu = format!("kb:carriers:{game}");
    let dm = d
        .fake
        .messages_in(d.fake.dm_channel_for(user.id))
        .into_iter()
        .rev()
        .find(|m| m.custom_ids().contains(&menu))?;
    let select = &dm.json["components"][0]["components"][0];
    let n = select["min_values"].as_u64().unwrap_or(1) as usize;
    let values: Vec<String> = select["options"]
        .as_array()
        .expect("the menu's options")
        .iter()
        .take(n)
        .map(|o| o["value"].as_str().unwrap_or_default().to_string())
        .collect();
    let values: Vec<&str> = values.iter().map(String::as_str).collect();
    let sent = d
        .fake
        .select_menu(user, dm.id, &menu, &values)
        .expect("send the carrier choice");
    let r = d.answer(&sent).await.expect("the carrier choice's answer");
    assert!(
        r.content().is_some_and(|c| c.contains("carrier")),
        "game {game}: {} chose carriers: {r:?}",
        user.username
    );
    Some(())
}

/// The soak: `games_wanted` games over `days` simulated days, then the end checks.
async fn soak(games_wanted: usize, days: i64) {
    let _turn = SERIAL.lock().await;
    let seed = seed();
    let wall = Instant::now();
    eprintln!(
        "soak: seed {seed} (KABOOM_SOAK_SEED), {games_wanted} games over {days} days, load {}",
        load_average()
    );
    let fake = FakeDiscord::start().await.expect("the fake starts");
    fake.set_lean(true);
    // A month of moves compressed into seconds sends far more than Discord's 50 requests
    // a second; the soak's faults are its 5% plan, not the global limit. (With the limit
    // on, a restart's command registration got the global 429, and the in-process bot,
    // whose client runs without serenity's rate limiter, never served.)
    fake.set_global_rate_limit(false);
    let database = TempDb::new().await;
    let clock = Arc::new(TestClock::new(T0));
    let replays = Arc::new(ReplayCache::default());
    let driver = Driver::start_with(fake, database.url(), plain_services(&clock, &replays))
        .await
        .expect("the bot starts");
    let scheduler = Bot::scheduler_of(&driver, &clock);
    let mut bot = Bot { driver, scheduler };
    bot.driver
        .fake
        .set_fault_plan(fault_plan(seed))
        .expect("a valid fault plan");

    let players = (games_wanted / 4).clamp(6, 200);
    let users: Vec<SimUser> = (0..players)
        .map(|i| SimUser::new(5000 + i as u64, format!("player{i}")))
        .collect();
    for u in &users {
        bot.driver.fake.add_user(u);
    }
    let empty_db_bytes = database_bytes(&database).await;
    let mut month = Month {
        rng: fastrand::Rng::with_seed(seed),
        clock: clock.clone(),
        users,
        vacation_until: HashMap::new(),
        vacation_days: HashMap::new(),
        sims: BTreeMap::new(),
        finished: Vec::new(),
        rematches: Vec::new(),
        to_ask: Vec::new(),
        tally: Tally {
            empty_db_bytes,
            ..Tally::default()
        },
    };
    // Fresh games start over the first 80% of the month; rematches take up to a tenth of
    // the games.
    let rematch_budget = games_wanted / 10;
    let fresh = games_wanted - rematch_budget;
    let mut starts: Vec<i64> = (0..fresh)
        .map(|_| T0 + month.rng.i64(0..(days * DAY * 4 / 5).max(HOUR)))
        .collect();
    starts.sort_unstable();
    let mut starts = starts.into_iter().peekable();
    let kill_every = env_count("KABOOM_SOAK_KILL_EVERY_DAYS", KILL_EVERY_DAYS as usize) as i64;
    let kill_hours: HashSet<i64> = (0..days.checked_div(kill_every).unwrap_or(0))
        .map(|k| (k * kill_every * 24) + month.rng.i64(24..kill_every * 24))
        .collect();

    for hour in 1..=days * 24 {
        month.clock.advance(HOUR);
        bot.driver.fake.advance(Duration::from_secs(HOUR as u64));
        let now = month.clock.now();
        let t = Instant::now();
        let swept = bot.scheduler.sweep().await.expect("the sweep");
        month.tally.spent("sweep", t);
        let t = Instant::now();
        month.tally.nudges += swept.nudged.len();
        month.tally.forfeits += swept.forfeited.len();
        month.tally.aborts += swept.aborted.len();

        // New challenges due this hour.
        while starts.peek().is_some_and(|&at| at <= now) {
            starts.next();
            // Two players not on vacation (a player away challenges nobody and accepts
            // nothing).
            let n = month.users.len();
            let mut pair = None;
            for _ in 0..20 {
                let (a, b) = two_players(&mut month.rng, n);
                if !month.away(a, now) && !month.away(b, now) {
                    pair = Some((a, b));
                    break;
                }
            }
            let Some((a, b)) = pair else {
                continue;
            };
            let (variant, _) = VARIANTS[month.rng.usize(0..VARIANTS.len())];
            let days_choice = month.rng.i64(0..3); // 1, 2 or 3 days per move
            let game = start_game(
                &bot.driver,
                &month.users[a],
                &month.users[b],
                variant,
                days_choice,
            )
            .await
            .expect("a game starts");
            month.tally.challenges += 1;
            let carriers = variant == 1 || variant == 2;
            let fate = month.fate();
            let next_at = now + month.pace();
            month.sims.insert(
                game,
                Sim {
                    game,
                    players: [a, b],
                    fate,
                    next_at,
                    carriers: [carriers, carriers],
                    draw_offered_by: None,
                    draw_settled: false,
                },
            );
        }

        month.tally.spent("challenges", t);
        let t = Instant::now();
        // Rematches asked for: the opponent accepts in the channel once it is posted.
        let mut still = Vec::new();
        for (old, opponent) in std::mem::take(&mut month.rematches) {
            let prefix = format!("Rematch of game #{old}:");
            let offer = bot
                .driver
                .fake
                .messages_in(bot.driver.fake.text_channel_id())
                .into_iter()
                .rev()
                .find(|m| m.content().starts_with(&prefix));
            let Some(offer) = offer else {
                still.push((old, opponent));
                continue;
            };
            let accept = offer
                .custom_ids()
                .into_iter()
                .find(|c| c.starts_with("kb:accept:"))
                .expect("the rematch's Accept button");
            let game = accept_by_id(&bot.driver, &month.users[opponent], offer.id, &accept)
                .await
                .expect("the rematch starts");
            let row = games::get(&bot.driver.db, game).await.unwrap().unwrap();
            let players = [month.index_of(row.white_id), month.index_of(row.black_id)];
            let carriers = row.state == GameState::Setup;
            let fate = month.fate();
            let next_at = now + month.pace();
            month.sims.insert(
                game,
                Sim {
                    game,
                    players,
                    fate,
                    next_at,
                    carriers: [carriers, carriers],
                    draw_offered_by: None,
                    draw_settled: false,
                },
            );
            month.tally.rematches += 1;
        }
        month.rematches = still;

        month.tally.spent("rematches", t);
        let t = Instant::now();
        // A player now and then takes a vacation of 1 to 3 days.
        for u in 0..month.users.len() {
            if month.away(u, now) || month.rng.u32(0..1000) >= 2 {
                continue;
            }
            let used = month.vacation_days.get(&u).copied().unwrap_or(0);
            let want = month.rng.i64(1..4);
            if used + want > 14 {
                continue;
            }
            let r = bot
                .driver
                .cmd(
                    &month.users[u],
                    bot.driver.fake.text_channel_id(),
                    "vacation",
                    vec![CommandOption::subcommand(
                        "start",
                        vec![CommandOption::integer("days", want)],
                    )],
                )
                .await
                .expect("the vacation's answer");
            assert!(
                r.content()
                    .is_some_and(|c| c.starts_with("Vacation until <t:")),
                "{}: vacation: {r:?}",
                month.users[u].username
            );
            month.vacation_until.insert(u, now + want * DAY);
            month.vacation_days.insert(u, used + want);
            month.tally.vacations += 1;
        }

        month.tally.spent("vacations", t);
        let t = Instant::now();
        // The actions due this hour, several at once.
        let due: Vec<Due> = month
            .sims
            .values()
            .filter(|s| s.next_at <= now)
            .filter(|s| !s.players.iter().any(|&p| month.away(p, now)))
            .map(|s| {
                (
                    s.game,
                    s.players,
                    s.fate,
                    s.carriers,
                    s.draw_offered_by,
                    s.draw_settled,
                )
            })
            .collect();
        let due: Vec<(Due, u32)> = due.into_iter().map(|d| (d, month.rng.u32(..))).collect();
        let done: Vec<(GameId, Done)> = futures_util::stream::iter(due)
            .map(|(due, roll)| {
                let d = &bot.driver;
                let users = &month.users;
                async move { (due.0, act(d, users, due, now, roll).await) }
            })
            .buffer_unordered(IN_FLIGHT)
            .collect()
            .await;
        month.tally.spent("actions", t);
        let t = Instant::now();
        for (game, done) in done {
            let pace = month.pace();
            let sim = month.sims.get_mut(&game).expect("a running game");
            match done {
                Done::Moved { by } => {
                    month.tally.moves += 1;
                    sim.next_at = now + pace;
                    // The opponent's move declines a standing offer.
                    if sim.draw_offered_by == Some(!by) {
                        sim.draw_offered_by = None;
                        sim.draw_settled = true;
                    }
                }
                Done::Later(at) => sim.next_at = at,
                Done::Carriers(color) => {
                    sim.carriers[side(color)] = false;
                    sim.next_at = now + pace.min(12 * HOUR);
                }
                Done::DrawOffered { by } => {
                    month.tally.draw_offers += 1;
                    sim.draw_offered_by = Some(by);
                    // The offerer still has their move to make.
                    sim.next_at = now + HOUR;
                }
                Done::Over => sim.next_at = now,
            }
        }

        // Games that ended (by an action or the sweep): some are rematched.
        let over: Vec<GameId> = month.sims.keys().copied().collect();
        for game in over {
            let row = games::get(&bot.driver.db, game).await.unwrap().unwrap();
            if row.state != GameState::Finished {
                continue;
            }
            let sim = month.sims.remove(&game).expect("the game");
            if row.reason.as_deref() == Some("resignation") {
                month.tally.resignations += 1;
            }
            month.finished.push(game);
            let asked = month.tally.rematches + month.rematches.len() + month.to_ask.len();
            if asked < rematch_budget && month.rng.u32(0..100) < 30 {
                month.to_ask.push((game, sim.players, now + DAY));
            }
        }
        // White of a finished game asks for a rematch once its final board is posted (the
        // outbox may still be retrying it), within a day.
        for (game, players, until) in std::mem::take(&mut month.to_ask) {
            let row = games::get(&bot.driver.db, game).await.unwrap().unwrap();
            if ask_rematch(&bot.driver, &month.users, players, &row).await {
                month.rematches.push((game, players[1]));
            } else if now < until {
                month.to_ask.push((game, players, until));
            }
        }

        month.tally.spent("endings", t);
        // A kill every few days, wherever the deliveries stand.
        if kill_hours.contains(&hour) {
            let t = Instant::now();
            bot = bot.restart(&clock).await;
            month.tally.kills += 1;
            month.tally.spent("kills", t);
        }

        // At the end of each day the process is measured, wherever the deliveries stand.
        if hour % 24 == 0 {
            let t = Instant::now();
            month.tally.rss.push(rss_bytes());
            month.tally.tasks.push(
                tokio::runtime::Handle::current()
                    .metrics()
                    .num_alive_tasks(),
            );
            if hour / 24 == FIRST_WEEK || hour / 24 == days {
                // Measured at rest: Discord well for a moment and the outbox drained, so
                // that posts in flight (their retries, buffers and answers) are not
                // counted as kept.
                bot.driver.fake.set_faults_enabled(false);
                bot.driver
                    .outbox_delivered()
                    .await
                    .expect("the outbox drains once Discord is well");
                let measure = HeapMeasure::take(hour / 24, &bot.driver.fake, &replays);
                month.tally.heap.push(measure);
                bot.driver.fake.set_faults_enabled(true);
            }
            month.tally.spent("days", t);
            eprintln!(
                "soak: day {:>2}: {} running, {} finished, {} moves, {} kills, live heap {} MiB, \
                 RSS {} MiB (anonymous {} MiB, file {} MiB), {} tasks, {} gateway sessions, \
                 wall {:?}",
                hour / 24,
                month.sims.len(),
                month.finished.len(),
                month.tally.moves,
                month.tally.kills,
                HEAP.allocated() >> 20,
                month.tally.rss.last().unwrap() >> 20,
                status_bytes("RssAnon:") >> 20,
                status_bytes("RssFile:") >> 20,
                month.tally.tasks.last().unwrap(),
                bot.driver.fake.gateway_sessions().len(),
                wall.elapsed()
            );
        }
    }

    let injected = bot.driver.fake.injected_faults().len();
    let requests = bot.driver.fake.requests().len();
    bot.driver.fake.set_faults_enabled(false);
    let t = Instant::now();
    bot.driver
        .outbox_delivered()
        .await
        .expect("the outbox drains once Discord is well");
    month.tally.spent("drain", t);
    eprintln!("soak: wall time by part {:?}", month.tally.wall);
    eprintln!(
        "soak: seed {seed}: {} games ({} challenges, {} rematches), {} finished, {} running; \
         {} moves, {} resignations, {} draw offers, {} vacations, {} nudges, {} time \
         forfeits, {} aborts; {injected} faults injected in {requests} REST requests \
         ({:.1}%), {} kills; RSS MiB per day {:?}; \
         tasks per day {:?}; wall {:?}; load {}",
        month.tally.challenges + month.tally.rematches,
        month.tally.challenges,
        month.tally.rematches,
        month.finished.len(),
        month.sims.len(),
        month.tally.moves,
        month.tally.resignations,
        month.tally.draw_offers,
        month.tally.vacations,
        month.tally.nudges,
        month.tally.forfeits,
        month.tally.aborts,
        injected as f64 * 100.0 / requests.max(1) as f64,
        month.tally.kills,
        month.tally.rss.iter().map(|b| b >> 20).collect::<Vec<_>>(),
        month.tally.tasks,
        wall.elapsed(),
        load_average()
    );
    let report = check_month(&bot.driver, &month, &database).await;
    eprintln!(
        "soak: checked: {} boards and {} posts each once; database {} bytes; {}; wall {:?}",
        report.boards,
        report.posts,
        report.db_bytes,
        report.memory_verdict,
        wall.elapsed()
    );
    assert!(injected > 0, "no fault was injected");
    assert!(month.tally.kills >= days.checked_div(kill_every).unwrap_or(0) as usize);
    bot.driver.stop().await;
    drop(database);
}

/// The bot's services over its database, on `clock`, with the plain painter (board images
/// are not what the soak is about), keeping replayed games in `replays` (one cache across
/// restarts, so that the heap measures can empty it).
fn plain_services(clock: &Arc<TestClock>, replays: &Arc<ReplayCache>) -> ServicesFor {
    let clock = clock.clone();
    let replays = replays.clone();
    Arc::new(move |db| {
        Services::new(db, clock.clone(), Arc::new(PlainPainter)).with_replay_cache(replays.clone())
    })
}

/// Two different players at random.
fn two_players(rng: &mut fastrand::Rng, n: usize) -> (usize, usize) {
    let a = rng.usize(0..n);
    let b = (a + rng.usize(1..n)) % n;
    (a, b)
}

impl Month {
    /// The index of the user `id`.
    fn index_of(&self, id: UserId) -> usize {
        self.users
            .iter()
            .position(|u| UserId(u.id) == id)
            .unwrap_or_else(|| panic!("no player {id}"))
    }
}

/// White of the finished game `row` (`players`: White, Black) presses Rematch on its final
/// board; `false` while that board is not posted yet.
async fn ask_rematch(
    d: &Driver,
    users: &[SimUser],
    players: [usize; 2],
    row: &games::GameRow,
) -> bool {
    let Some(thread) = row.thread_id else {
        return false;
    };
    let button = format!("kb:rematch:{}", row.id);
    let Some(board) = d
        .fake
        .messages_in(thread.get())
        .into_iter()
        .rev()
        .find(|m| m.custom_ids().contains(&button))
    else {
        return false;
    };
    let r = d
        .click(&users[players[0]], board.id, &button)
        .await
        .expect("the rematch's answer");
    let wanted = format!(
        "Rematch offered: <@{}> can accept it in the channel.",
        users[players[1]].id
    );
    assert_eq!(r.content(), Some(wanted.as_str()), "game {}", row.id);
    true
}

/// Every channel the month's messages are in: the text channel, the threads, the
/// players' DMs.
fn channels_of(d: &Driver, month: &Month) -> Vec<u64> {
    let mut channels = vec![d.fake.text_channel_id()];
    channels.extend(d.fake.threads().iter().map(|t| t.id));
    channels.extend(month.users.iter().map(|u| d.fake.dm_channel_for(u.id)));
    channels
}

/// The database's bytes: on SQLite its files (the database, its WAL and shared-memory
/// index), on PostgreSQL `pg_database_size` (every relation's files: tables, indexes,
/// TOAST, free space maps).
async fn database_bytes(database: &TempDb) -> u64 {
    if database.is_postgres() {
        use sqlx::Connection;
        let mut conn = sqlx::PgConnection::connect(database.url())
            .await
            .expect("the soak's PostgreSQL database");
        let (bytes,): (i64,) = sqlx::query_as("SELECT pg_database_size(current_database())")
            .fetch_one(&mut conn)
            .await
            .expect("the database's size");
        let _ = conn.close().await;
        return bytes.max(0) as u64;
    }
    std::fs::read_dir(database.path())
        .expect("the database's directory")
        .filter_map(Result::ok)
        .filter(|e| e.file_name().to_string_lossy().starts_with("test.db"))
        .filter_map(|e| e.metadata().ok())
        .map(|m| m.len())
        .sum()
}

/// What the end checks counted.
struct Report {
    /// Boards posted.
    boards: usize,
    /// Messages the bot posted through its outbox.
    posts: usize,
    /// The database's bytes ([`database_bytes`]).
    db_bytes: u64,
    /// The heap comparison and the RSS, in words.
    memory_verdict: String,
}

/// The end-of-month checks (see the module docs); panics on the first that fails.
async fn check_month(d: &Driver, month: &Month, database: &TempDb) -> Report {
    let db = &d.db;
    let now = month.clock.now();
    let mut all: Vec<GameId> = month.finished.clone();
    all.extend(month.sims.keys().copied());
    all.sort();

    // Every game finished, or legitimately running.
    let designation = SchedulerConfig::default().designation_timeout_secs;
    for &game in &all {
        let row = games::get(db, game).await.unwrap().unwrap();
        match row.state {
            GameState::Finished => {
                assert!(
                    row.result.is_some(),
                    "game {game} finished without a result"
                );
            }
            GameState::Setup => assert!(
                row.created_at + designation > now,
                "game {game} is still in carrier designation {}s after it started",
                now - row.created_at
            ),
            GameState::Active => {
                let mover = replay(db, &row).await.turn();
                let player = match mover {
                    Color::White => row.white_id,
                    Color::Black => row.black_id,
                };
                let within = row.deadline_at.is_some_and(|at| at > now);
                let away = kaboom_store::comforts::on_vacation(db, player, now)
                    .await
                    .unwrap();
                assert!(
                    within || away,
                    "game {game}: {player} to move, deadline {:?} passed (now {now}) and not on vacation",
                    row.deadline_at
                );
            }
        }
    }

    // Every committed ply's board posted exactly once, in the game's thread.
    let mut boards = 0;
    for &game in &all {
        let row = games::get(db, game).await.unwrap().unwrap();
        let entries = outbox::for_game(db, game).await.unwrap();
        let mut plies: BTreeMap<i64, usize> = BTreeMap::new();
        let mut recorded: Vec<u64> = Vec::new();
        for e in entries.iter().filter(|e| e.kind == "board") {
            let payload: serde_json::Value = serde_json::from_str(&e.payload).unwrap();
            *plies.entry(payload["ply"].as_i64().unwrap()).or_default() += 1;
            let message = e
                .message_id
                .unwrap_or_else(|| panic!("game {game}: board entry {} not posted", e.id));
            recorded.push(message.get());
        }
        if row.state == GameState::Setup {
            // Carriers still being chosen: the opening board (with the designation's
            // deadline) is posted once, and nothing after it.
            assert_eq!(
                plies,
                BTreeMap::from([(0, 1)]),
                "game {game}: boards while its carriers are chosen"
            );
            continue;
        }
        if row.ply == 0 && plies.is_empty() {
            // Aborted before its first board.
            continue;
        }
        let expected: Vec<i64> = (0..=row.ply).collect();
        assert_eq!(
            plies.keys().copied().collect::<Vec<_>>(),
            expected,
            "game {game}: board entries by ply"
        );
        // Beirut and Nuke post the opening position twice: while the carriers are chosen,
        // and when play starts.
        let had_setup = entries.iter().any(|e| e.kind == "carrier-menu");
        for (ply, count) in &plies {
            // A game ended by a resignation or an agreed draw adds the final board at its
            // last ply.
            let most = 1
                + usize::from(*ply == 0 && had_setup)
                + usize::from(*ply == row.ply && row.state == GameState::Finished);
            assert!(
                *count <= most,
                "game {game} ply {ply}: {count} board entries (the game: ply {}, {:?}, {:?}): {:#?}",
                row.ply,
                row.state,
                row.reason,
                entries
                    .iter()
                    .map(|e| (e.id, &e.kind, &e.payload, e.attempts, e.message_id))
                    .collect::<Vec<_>>()
            );
        }
        // A game the scheduler ended posts its final board with the announcement.
        for e in entries.iter().filter(|e| e.kind == "game-ended") {
            let message = e
                .message_id
                .unwrap_or_else(|| panic!("game {game}: its end {} not posted", e.id));
            recorded.push(message.get());
        }
        let thread = row
            .thread_id
            .unwrap_or_else(|| panic!("game {game} has no thread"));
        let mut in_thread: Vec<u64> = d.boards(thread).iter().map(|m| m.id).collect();
        in_thread.sort_unstable();
        recorded.sort_unstable();
        assert_eq!(
            in_thread, recorded,
            "game {game}: the thread's boards are exactly the recorded ones, each once"
        );
        boards += recorded.len();
    }

    // Every post the bot made belongs to one outbox entry, by its nonce; every delivered
    // entry's message exists.
    let rows = kaboom_store::sql::query("SELECT nonce, message_id FROM discord_outbox")
        .fetch_all::<(String, Option<i64>)>(db)
        .await
        .unwrap();
    let nonces: HashSet<String> = rows.iter().map(|(n, _)| n.clone()).collect();
    let channels = channels_of(d, month);
    let bot_user = d.fake.bot_user_id();
    let mut seen: HashMap<String, u64> = HashMap::new();
    let mut posts = 0;
    for &channel in &channels {
        for m in d.fake.messages_in(channel) {
            if m.interaction_id.is_some() || m.author_id() != bot_user {
                continue;
            }
            let nonce = m.json["nonce"].as_str().unwrap_or_default().to_string();
            let entry = nonce.strip_suffix('f').unwrap_or(&nonce);
            assert!(
                nonces.contains(&nonce) || nonces.contains(entry),
                "message {} in channel {channel} was posted outside the outbox: {:?}",
                m.id,
                m.content()
            );
            if let Some(first) = seen.insert(nonce.clone(), m.id) {
                panic!("nonce {nonce} posted twice: messages {first} and {}", m.id);
            }
            posts += 1;
        }
    }
    for (nonce, message) in &rows {
        if let Some(id) = message {
            assert!(
                d.fake.message(*id as u64).is_some(),
                "entry {nonce}: its message {id} is not in Discord"
            );
        }
    }

    // The outbox is empty: nothing undelivered, nothing given up.
    let pending = outbox::pending(db).await.unwrap();
    assert!(pending.is_empty(), "undelivered: {pending:?}");
    let (given_up,) =
        kaboom_store::sql::query("SELECT COUNT(*) FROM discord_outbox WHERE failed_at IS NOT NULL")
            .fetch_one::<(i64,)>(db)
            .await
            .unwrap();
    assert_eq!(given_up, 0, "outbox entries given up");

    // The database's growth over the month: per finished game (recorded) and per ply
    // stored (bounded; the running games' plies count too).
    let db_bytes = database_bytes(database).await;
    let finished = month.finished.len().max(1) as u64;
    let grown = db_bytes.saturating_sub(month.tally.empty_db_bytes);
    let mut plies = 0;
    for &game in &all {
        plies += games::get(db, game).await.unwrap().unwrap().ply.max(0) as u64;
    }
    eprintln!(
        "soak: database {db_bytes} bytes ({} when empty), {} more per finished game, {} per \
         ply ({plies} plies)",
        month.tally.empty_db_bytes,
        grown / finished,
        grown / plies.max(1)
    );
    assert!(
        grown / plies.max(1) <= MAX_DB_BYTES_PER_PLY,
        "the database grew by {grown} bytes for {plies} plies"
    );

    // The bot's heap flat: the end of the month against the end of the first week. Live
    // tasks flat: the last week against the first (day 1, the warm-up, left out). The RSS
    // is printed: it is the fake's and the allocator's as much as the bot's.
    let t = &month.tally;
    let mut memory_verdict = String::from("not measured (under 14 days)");
    if t.rss.len() >= 14 {
        let first = 1..7;
        let last = t.rss.len() - 7..t.rss.len();
        let [week, end] = [t.heap[0], t.heap[t.heap.len() - 1]];
        let growth = end.bot().saturating_sub(week.bot());
        memory_verdict = format!(
            "the bot's live heap {} KiB at the end of day {} and {} KiB at the end of day {} \
             (grew {} KiB, at most {} KiB), its replay and picture caches emptied (the \
             renderer's held {} KiB and {} KiB); the \
             fake's records {} MiB and {} MiB; the process \
             RSS peaked at {} MiB in the first week and {} MiB in the last",
            week.bot() >> 10,
            week.day,
            end.bot() >> 10,
            end.day,
            growth >> 10,
            HEAP_MARGIN_BYTES >> 10,
            week.renderer_caches >> 10,
            end.renderer_caches >> 10,
            week.fake >> 20,
            end.fake >> 20,
            t.rss[first.clone()].iter().max().copied().unwrap() >> 20,
            t.rss[last.clone()].iter().max().copied().unwrap() >> 20,
        );
        eprintln!("soak: memory: {memory_verdict}");
        assert!(
            growth <= HEAP_MARGIN_BYTES,
            "the bot's heap grew: {memory_verdict}"
        );
        let first_tasks = t.tasks[first].iter().max().copied().unwrap();
        let last_tasks = t.tasks[last].iter().min().copied().unwrap();
        assert!(
            last_tasks <= first_tasks + TASK_MARGIN,
            "live tasks grew: the first week's busiest day had {first_tasks}, the last week's \
             quietest {last_tasks}"
        );
    }
    Report {
        boards,
        posts,
        db_bytes,
        memory_verdict,
    }
}

kaboom_testkit::dbtest! {
    /// The suite's soak: [`SMALL_GAMES`] games over [`DAYS`] days (or the environment's
    /// size), every check asserted, on SQLite and on PostgreSQL.
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn a_month_of_play_through_faults_and_kills_leaves_nothing_behind() {
        soak(
            env_count("KABOOM_SOAK_GAMES", SMALL_GAMES),
            env_count("KABOOM_SOAK_DAYS", DAYS as usize) as i64,
        )
        .await;
    }
}

/// The benchmark: [`FULL_GAMES`] games over [`DAYS`] days, every check asserted; its
/// figures are in docs/PERFORMANCE.md, "Soak".
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "the full-size soak, about 16 minutes (docs/PERFORMANCE.md, Soak): run it with --ignored"]
async fn a_full_month_of_play_through_faults_and_kills_leaves_nothing_behind() {
    soak(
        env_count("KABOOM_SOAK_GAMES", FULL_GAMES),
        env_count("KABOOM_SOAK_DAYS", DAYS as usize) as i64,
    )
    .await;
}

/// A bot stopped and started again within one process leaves none of its tasks behind:
/// its practice engine's and post-game analyses' workers end with it, and its outbox
/// deliverer at once. The workers used to run on after every stop, sweeping a closed
/// database forever and holding that bot's services and Discord client (with its pooled
/// connections): the soak saw the live tasks grow by about nine per kill; the deliverer
/// lingered until its next look, up to 30 s later.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_restart_leaves_no_task_of_the_stopped_bot_behind() {
    let _turn = SERIAL.lock().await;
    let fake = FakeDiscord::start().await.expect("the fake starts");
    let database = TempDb::new().await;
    let clock = Arc::new(TestClock::new(T0));
    let alive = || {
        tokio::runtime::Handle::current()
            .metrics()
            .num_alive_tasks()
    };
    let replays = Arc::new(ReplayCache::default());
    let mut driver = Driver::start_with(fake, database.url(), plain_services(&clock, &replays))
        .await
        .expect("the bot starts");
    // One restart first, so that both counts are of a bot that has been restarted.
    driver = driver.restart().await.expect("the bot starts again");
    tokio::time::sleep(Duration::from_millis(500)).await;
    let before = alive();
    for _ in 0..5 {
        driver = driver.restart().await.expect("the bot starts again");
    }
    // The stopped bots' connections wind down within moments; a task that never ends stays.
    // A leak of one task per restart would show five more.
    let deadline = Instant::now() + Duration::from_secs(15);
    let mut after = alive();
    while after >= before + 5 && Instant::now() < deadline {
        tokio::time::sleep(Duration::from_millis(200)).await;
        after = alive();
    }
    assert!(
        after < before + 5,
        "{before} live tasks before five restarts, {after} 15 s after"
    );
    driver.stop().await;
}
