//! # `kaboom demo`: the product, with no token and no server
//!
//! Starts the in-process fake Discord ([`fake_discord`], loopback only) and the real
//! bot against it, on a fresh SQLite database in the output directory, and plays one
//! scripted game per variant as two simulated users (alice, White; bob, Black) would:
//! challenge and accept with buttons, private carrier choices by DM (bob's DMs are closed
//! in Beirut, so the "Choose privately" fallback is used), moves typed as SAN, as
//! coordinates or picked from autocomplete, a draw offer declined, each game to its result.
//! The Atomic, Beirut and Nuke games show their variant mid-game: a five-piece
//! blast and a parried mate threat; a Boom that is not the last move and a Dead Man's
//! Switch; transfers, a chain and regenerated bombs grabbed.
//! With Atomic, two more games: one on a fast-forwarded clock (a reminder, then a time
//! forfeit; `DIR/clock/`) and a short practice game against the bot's own engine
//! (`/play-bot`; `DIR/practice/`).
//! Besides the files below, `DIR/index.html` shows every game as a Discord user saw it
//! ([`crate::page`]).
//!
//! The games are rated (the default of `/challenge`): each one's last board shows
//! both players' new ratings and changes, the summary table repeats them, and after the
//! games `DIR/ratings.md` holds alice's `/profile` and each variant's `/leaderboard` as
//! the bot answered them.
//!
//! Output: `DIR/<variant>/NNN.png` (every board image the bot posted in that game) and
//! `DIR/<variant>/NNN.gif` (its replay GIF, posted when the game ended),
//! `DIR/<variant>/transcript.md` (the public thread as a spectator saw it), `DIR/ratings.md`,
//! and a summary table on stdout. A variant's folder is emptied of them before its game is played, so a
//! re-run into the same DIR leaves no earlier run's files looking current. [`run`] reports
//! failure if a game misses its expected result, a Beirut carrier appears in a public
//! payload before the end (in any version of a message, edits included), or the bot called
//! a route the fake Discord does not know.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::time::Instant;

use kaboom_rules::{AnyGame, Color, EndReason, Kind, Square, Variant, Viewer};

use crate::driver::{Driver, StartedGame};
use crate::page;
use fake_discord::{FakeDiscord, FakeMessage};

/// The seed's first Bomberman Chess sample game (movetext) and its final position.
const BOMBERMAN_MOVETEXT: &str = include_str!("../../rules/tests/data/bomberman-game1.txt");
const BOMBERMAN_FINAL: &str = include_str!("../../rules/tests/data/bomberman-game1-final.txt");

/// What went wrong in the demo.
#[derive(Debug, thiserror::Error)]
pub enum DemoError {
    /// The fake Discord failed.
    #[error("fake Discord: {0}")]
    Fake(#[from] fake_discord::FakeError),
    /// Files could not be written.
    #[error("cannot write the demo output: {0}")]
    Io(#[from] std::io::Error),
    /// The database failed.
    #[error("database: {0}")]
    Storage(#[from] kaboom_store::StorageError),
    /// A step did not go as scripted.
    #[error("{0}")]
    Step(String),
}

fn fail<T>(text: impl Into<String>) -> Result<T, DemoError> {
    Err(DemoError::Step(text.into()))
}

/// One line of the summary table.
#[derive(Clone, Debug)]
pub struct GameSummary {
    /// The variant.
    pub variant: Variant,
    /// The game's name in the summary table: the variant's title, or what sets the game
    /// apart (`Atomic, on the clock`).
    pub title: String,
    /// Plies played.
    pub plies: usize,
    /// The result, e.g. `1-0 (white wins by king exploded)`.
    pub result: String,
    /// The rating changes, e.g. `alice 1741? (+241) · bob 1258? (-242)`.
    pub ratings: String,
    /// Board images written.
    pub images: usize,
    /// Whether the game reached its expected result (and, for Beirut, nothing leaked).
    pub ok: bool,
    /// Why not, when not ok.
    pub problem: Option<String>,
    /// Seconds taken.
    pub seconds: f64,
}

/// Where to write, and the summary.
pub struct Report {
    /// One line per game, in play order.
    pub games: Vec<GameSummary>,
    /// The requests of the bot that no route of the fake Discord matched (`METHOD /path`);
    /// empty when the bot spoke only the API the fake knows.
    pub unknown_routes: Vec<String>,
    /// Total seconds.
    pub seconds: f64,
}

impl Report {
    /// Whether every game reached its expected result and the bot called no unknown route.
    pub fn ok(&self) -> bool {
        self.failure().is_none()
    }

    /// Why the demo failed, in one line; `None` when it passed.
    pub fn failure(&self) -> Option<String> {
        let failed = self.games.iter().filter(|g| !g.ok).count();
        if self.games.is_empty() {
            Some("no game was played".into())
        } else if failed > 0 {
            Some(format!(
                "{failed} of {} games did not reach their expected result",
                self.games.len()
            ))
        } else if !self.unknown_routes.is_empty() {
            Some(format!(
                "the bot called routes the fake Discord does not know: {}",
                self.unknown_routes.join(", ")
            ))
        } else {
            None
        }
    }

    /// The summary table (Markdown).
    pub fn table(&self) -> String {
        let mut out = String::from(
            "| Variant | Plies | Result | Rating change (this variant) | Images | Check | Seconds |\n|---|---|---|---|---|---|---|\n",
        );
        for g in &self.games {
            let _ = writeln!(
                out,
                "| {} | {} | {} | {} | {} | {} | {:.1} |",
                g.title,
                g.plies,
                g.result,
                g.ratings,
                g.images,
                if g.ok {
                    "ok".to_string()
                } else {
                    format!("FAILED: {}", g.problem.clone().unwrap_or_default())
                },
                g.seconds
            );
        }
        if !self.unknown_routes.is_empty() {
            let _ = writeln!(
                out,
                "\nFAILED: the bot called routes the fake Discord does not know: {}",
                self.unknown_routes.join(", ")
            );
        }
        let _ = writeln!(out, "\nTotal: {:.1} s", self.seconds);
        out
    }
}

/// How a scripted action is entered.
#[derive(Clone, Debug)]
enum Entry {
    /// Typed as written.
    Typed(String),
    /// Typed as coordinates (the action's UCI form).
    Coordinates(String),
    /// `prefix` typed, then the autocomplete choice whose value is the action's SAN.
    Pick(String, String),
}

/// The variants whose games `kaboom demo` plays: those in `chosen`, in the order of
/// [`Variant::ALL`] and each once; every variant when `chosen` is empty.
pub fn selected_variants(chosen: &[Variant]) -> Vec<Variant> {
    Variant::ALL
        .into_iter()
        .filter(|v| chosen.is_empty() || chosen.contains(v))
        .collect()
}

/// Runs the demo into `out`, playing the games of `variants` (see [`selected_variants`]);
/// progress lines go to stdout as games finish.
///
/// # Errors
/// [`DemoError`] when the fake or the bot cannot start or the files cannot be written;
/// a game that goes wrong is reported in its [`GameSummary`] instead.
pub async fn run(out: &Path, variants: &[Variant]) -> Result<Report, DemoError> {
    let started = Instant::now();
    std::fs::create_dir_all(out)?;
    let db_path = out.join("kaboom.db");
    for suffix in ["", "-wal", "-shm"] {
        let p = PathBuf::from(format!("{}{suffix}", db_path.display()));
        if p.exists() {
            std::fs::remove_file(p)?;
        }
    }
    let url = format!("sqlite://{}", db_path.display());
    let fake = FakeDiscord::start().await?;
    // The scripted players act as fast as the bot answers, not at a person's pace: the
    // demo shows the games, not Discord's global limit or the bot's commands per minute.
    fake.set_global_rate_limit(false);
    let mut config = kaboom_service::scheduler::SchedulerConfig::default();
    config.defaults.limits.commands_per_minute = Some(1_000_000);
    // The bot reads a test clock that starts at the wall clock and moves only when the
    // demo moves it (the reminder and time forfeit game), like the fake's own clock.
    let wall_now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| i64::try_from(d.as_secs()).unwrap_or(0));
    let clock = std::sync::Arc::new(crate::clock::TestClock::new(wall_now));
    let services_for: crate::driver::ServicesFor = {
        let clock = clock.clone();
        std::sync::Arc::new(move |db| {
            kaboom_service::Services::new(
                db,
                clock.clone(),
                std::sync::Arc::new(kaboom_service::painter::RendererPainter),
            )
            .with_analysis_nodes(Some(DEMO_ANALYSIS_NODES))
            .with_scheduler_config(config.clone())
        })
    };
    let d = Driver::start_with(fake, &url, services_for).await?;
    let mut games = Vec::new();
    let mut pages = Vec::new();
    let total = variants.len();
    for (i, &variant) in variants.iter().enumerate() {
        let t = Instant::now();
        clear_variant_dir(out, variant)?;
        let outcome = play_variant(&d, variant, out, &mut pages).await;
        let summary = summary_of(variant, variant.title(), outcome, t.elapsed().as_secs_f64());
        println!(
            "[{}/{}] {}: {}",
            i + 1,
            total,
            variant.title(),
            summary.line()
        );
        games.push(summary);
    }
    if variants.contains(&Variant::Atomic) {
        let t = Instant::now();
        let outcome = play_clock_game(&d, &clock, out, &mut pages).await;
        let summary = summary_of(
            Variant::Atomic,
            "Atomic, on the clock",
            outcome,
            t.elapsed().as_secs_f64(),
        );
        println!(
            "[clock] Atomic, a reminder and a time forfeit: {}",
            summary.line()
        );
        games.push(summary);
        let t = Instant::now();
        let outcome = play_practice_game(&d, &clock, out, &mut pages).await;
        let summary = summary_of(
            Variant::Atomic,
            "Atomic against the bot",
            outcome,
            t.elapsed().as_secs_f64(),
        );
        println!(
            "[practice] Atomic against the bot at level 1: {}",
            summary.line()
        );
        games.push(summary);
        let t = Instant::now();
        let outcome = play_league(&d, &clock, out, &mut pages).await;
        let summary = summary_of(
            Variant::Atomic,
            "Atomic league of four",
            outcome,
            t.elapsed().as_secs_f64(),
        );
        println!("[league] Atomic, a round-robin of four: {}", summary.line());
        games.push(summary);
        let t = Instant::now();
        let outcome = play_group_dm_game(&d, out, &mut pages).await;
        let summary = summary_of(
            Variant::Atomic,
            "Atomic in a group DM",
            outcome,
            t.elapsed().as_secs_f64(),
        );
        println!("[group DM] Atomic, played by DM: {}", summary.line());
        games.push(summary);
    }
    write_ratings(&d, out, variants).await?;
    show_commands(&d, &clock, out, &mut pages).await?;
    show_puzzles(&d, &clock, out, variants, &mut pages).await?;
    let report_so_far = Report {
        games: games.clone(),
        unknown_routes: Vec::new(),
        seconds: started.elapsed().as_secs_f64(),
    };
    std::fs::write(out.join("index.html"), index_page(&report_so_far, &pages))?;
    let unknown_routes = d
        .fake
        .unknown_routes()
        .iter()
        .map(|r| format!("{} {}", r.method, r.path))
        .collect();
    d.stop().await;
    Ok(Report {
        games,
        unknown_routes,
        seconds: started.elapsed().as_secs_f64(),
    })
}

/// The summary of a game that `outcome` reports, which took `seconds`; a game that failed
/// before it could be summed up gets a row that says why.
fn summary_of(
    variant: Variant,
    title: &str,
    outcome: Result<GameSummary, DemoError>,
    seconds: f64,
) -> GameSummary {
    match outcome {
        Ok(s) => GameSummary { seconds, ..s },
        Err(e) => GameSummary {
            variant,
            title: title.to_string(),
            plies: 0,
            result: "-".into(),
            ratings: "-".into(),
            images: 0,
            ok: false,
            problem: Some(e.to_string()),
            seconds,
        },
    }
}

impl GameSummary {
    /// One line for the demo's progress: plies, result, images, seconds and the check.
    fn line(&self) -> String {
        format!(
            "{} plies, {}, {} images, {:.1} s: {}",
            self.plies,
            self.result,
            self.images,
            self.seconds,
            if self.ok {
                "ok".to_string()
            } else {
                format!("FAILED ({})", self.problem.clone().unwrap_or_default())
            }
        )
    }
}

/// Writes `out/ratings.md`: alice's `/profile` and the `/leaderboard` of each variant
/// played, as the bot answered them in the text channel after the games.
async fn write_ratings(d: &Driver, out: &Path, variants: &[Variant]) -> Result<(), DemoError> {
    let channel = d.fake.text_channel_id();
    let mut md = String::from(
        "# Ratings after the demo\n\nThe bot's answers after the games (`kaboom demo`): alice's `/profile`, then each variant's `/leaderboard` as bob asked for it.\n\n",
    );
    let profile = d.cmd(&d.alice, channel, "profile", Vec::new()).await?;
    let _ = writeln!(
        md,
        "## /profile\n\n{}\n",
        profile.content().unwrap_or_default()
    );
    for variant in variants {
        let index = Variant::ALL.iter().position(|v| v == variant).unwrap_or(0);
        let board = d
            .cmd(
                &d.bob,
                channel,
                "leaderboard",
                vec![fake_discord::CommandOption::integer(
                    "variant",
                    i64::try_from(index).unwrap_or(0),
                )],
            )
            .await?;
        let _ = writeln!(
            md,
            "## /leaderboard {}\n\n{}\n",
            variant.title(),
            board.content().unwrap_or_default()
        );
    }
    std::fs::write(out.join("ratings.md"), md)?;
    Ok(())
}

/// Creates `out/<variant>/` and removes the board images and transcript an earlier run
/// left there, so that a game that fails now leaves no old files looking current.
fn clear_variant_dir(out: &Path, variant: Variant) -> Result<(), DemoError> {
    clear_dir(&out.join(variant.name()))
}

/// Creates `dir` and removes the board images and transcript an earlier run left there.
fn clear_dir(dir: &Path) -> Result<(), DemoError> {
    std::fs::create_dir_all(dir)?;
    for entry in std::fs::read_dir(dir)? {
        let p = entry?.path();
        if p.extension().is_some_and(|e| e == "png" || e == "gif") || p.ends_with("transcript.md") {
            std::fs::remove_file(p)?;
        }
    }
    Ok(())
}

/// The scripted game of a variant: carriers (White, Black) and entries.
fn script(variant: Variant) -> (Option<(&'static str, &'static str)>, Vec<Entry>) {
    use Entry::*;
    let t = |s: &str| Typed(s.to_string());
    match variant {
        // A five-piece blast (4. Nxa7 takes the pawn, the bishop that threatened the knight,
        // the rook and the knight beside it), a mate threat parried (5. Qg4 eyes d7, next to
        // the king: 5...d5 clears it), a check escaped (6. Bb5+ Ke7), and the king caught in
        // the blast of 7. Qxe6 (checked with the rules library: `kaboom replay`).
        Variant::Atomic => (
            None,
            vec![
                t("e3"),
                t("b5"),
                Pick("kni".into(), "Na3".into()),
                t("b4"),
                Coordinates("a3b5".into()),
                t("Ba6"),
                t("Nxa7"),
                t("e6"),
                Pick("Q".into(), "Qg4".into()),
                t("d5"),
                t("Bb5+"),
                t("Ke7"),
                t("Qxe6#"),
            ],
        ),
        // Dead Man's Switch on (the challenge says so). A Petroff: Black's carrier knight
        // (g8) goes to e4 and, attacked by 5. d3, is detonated there (Boom@e4 takes the f3
        // knight and the d3 pawn with it); White's carrier bishop (f1) goes to c4, and when
        // 8. Bxf7+ is answered by Rxf7, the captured carrier explodes on f7, taking the
        // castled king on g8.
        Variant::Beirut => (
            Some(("f1", "g8")),
            vec![
                t("e4"),
                t("e5"),
                t("Nf3"),
                t("Nf6"),
                t("Nxe5"),
                t("d6"),
                Coordinates("e5f3".into()),
                t("Nxe4"),
                t("d3"),
                Pick("boom".into(), "Boom@e4".into()),
                t("Bc4"),
                t("Be7"),
                t("O-O"),
                t("O-O"),
                t("Bxf7+"),
                t("Rxf7"),
            ],
        ),
        // Both sides hand their bomb from the frozen royal to a pawn (transfers, NU-4);
        // 4. Nxe5 sets off a chain (the e5 bomb sets off e4's, NU-7), and both bombs lie
        // loose afterwards; Black's knight grabs one (4...Ne5*), retreats next to its own
        // king (6...Nd7) and parries 7. Bb5 with c6; White's knight grabs the other
        // (9. Ne4*) and takes on d6, next to Black's carrier. 10...Qxd6 takes it, but the
        // blast sets off Black's own bomb on d7, which takes Black's king.
        Variant::Nuke => (
            Some(("e1", "d8")),
            vec![
                t("e1>e2 e4"),
                t("d8>e7 e5"),
                t("Nf3"),
                t("Nc6"),
                t("Bc4"),
                Coordinates("g8f6".into()),
                Pick("Nx".into(), "Nxe5".into()),
                t("Ne5*"),
                t("Be2"),
                t("d6"),
                t("d4"),
                t("Nd7"),
                t("Bb5"),
                t("c6"),
                t("Nc3"),
                t("cxb5"),
                t("Ne4*"),
                t("Qb6"),
                t("Nxd6"),
                t("Qxd6"),
            ],
        ),
        Variant::Bomberman => {
            let tokens =
                kaboom_rules::notation::movetext_actions(BOMBERMAN_MOVETEXT).unwrap_or_default();
            (None, tokens.into_iter().map(Typed).collect())
        }
        Variant::Bombalot => (None, BOMBALOT_LINE.iter().map(|s| t(s)).collect()),
    }
}

/// The Bombalot game: the engine's level 3 against itself after two random
/// opening plies, the shortest of 150 seeded games that showed each of Bombalot's own
/// sights on an opponent's piece and ended in a goal (`cargo run --release -p kaboom-engine
/// --example bombalot_demo_line -- 3 150` with the engine of commit 9e15cc6: seed 25, 92
/// plies; the engine has changed since, so the example now finds other games); replayed here as a fixed
/// script. 8... b8-c6 lands Black's detonator so that, with its partner on g8, a co-square
/// removes White's super-tweke on g6 (BA-7, BA-15); 12. a1-a2 is White's imitator moving as
/// the tweke Black had just moved (BA-10); 16... d6:b4:d2:d0 jumps two pieces into White's
/// goal (BA-2); 29. d1-e2! and 29... d8-c7! are bombs stepping and exploding (BA-9); 43.
/// h5-h6 and 44. h6-h7 are White's tank pushing Black's tank, then a super-tweke, off the
/// board (BA-6); 46... d1-e0 puts Black's second piece into White's goal, and Black wins
/// (BA-11). [`check_bombalot_sights`] checks the same against the stored game.
const BOMBALOT_LINE: &[&str] = &[
    "c3:c1:a3",
    "g7-h7",
    "b1-c3",
    "h8-h7",
    "d2:d4",
    "f7:d5",
    "g1-h3",
    "b7-b6",
    "f3-f4",
    "d7:f5",
    "f2-f3",
    "d5-e5",
    "g2:e4:g6",
    "c6-b5",
    "c2-d2",
    "b8-c6",
    "e2:c2",
    "e5:g3:e5",
    "c2:e2:g4",
    "b6-a5",
    "d3:b3:b1",
    "b5-a4",
    "a1-a2",
    "d6:b6",
    "g4-f4",
    "e7-d6",
    "b1-c2",
    "e5:g3:e5",
    "d2:f4",
    "e5:g3:e5",
    "e3:c5",
    "d6:b4:d2:d0",
    "b2-c3",
    "c7-d6",
    "c2:c4",
    "a5:c7:c5",
    "a3:a5:c7:e9",
    "c5:e3:g3:e3:c5",
    "e1:c1",
    "f6-g6",
    "c4-d4",
    "c5:e3",
    "a2-b2",
    "g6-f7",
    "c1-d2",
    "e6-f5",
    "d2:f4",
    "h7-h6",
    "c3-d4",
    "g8-f6",
    "f4-e4",
    "e8:g6",
    "d4-d3",
    "d6:f4:d2",
    "d3:f3:d5:b7",
    "d2-e1",
    "d1-e2!",
    "d8-c7!",
    "e4-f3",
    "e5-d5",
    "f3-e3",
    "h6-h5",
    "h1-h2",
    "g6-g5",
    "e3-f2",
    "f5-e4",
    "f2-g2",
    "g5-f4",
    "h3-g1",
    "f7:f5:f3",
    "g2-h3",
    "h5-h6",
    "h2-h3",
    "f4:d4",
    "h3-h4",
    "d4-e5",
    "h4-h5",
    "h8-h7",
    "g1-h3",
    "e4-e3",
    "h4-h5",
    "h8-h7",
    "h4-h5",
    "f3-f4",
    "h5-h6",
    "d5:f5:f3",
    "h6-h7",
    "f4:d2",
    "h8:h6",
    "f3:d3:d1",
    "h6-g7",
    "d1-e0",
];

fn expected(variant: Variant) -> (Option<Color>, EndReason) {
    match variant {
        Variant::Bomberman => (Some(Color::White), EndReason::Checkmate),
        Variant::Bombalot => (Some(Color::Black), EndReason::Goal),
        _ => (Some(Color::White), EndReason::KingExploded),
    }
}

const VARIANT_INDEX: [Variant; 5] = Variant::ALL;

async fn play_variant(
    d: &Driver,
    variant: Variant,
    out: &Path,
    pages: &mut Vec<page::GamePage>,
) -> Result<GameSummary, DemoError> {
    let (carriers, entries) = script(variant);
    let mut typed: Vec<Typed> = Vec::new();
    if entries.is_empty() {
        return fail("no scripted line");
    }
    let marker = d.last_message_id();
    let beirut = variant == Variant::Beirut;
    if beirut {
        d.fake.refuse_dms_for(d.bob.id);
    } else {
        d.fake.allow_dms_for(d.bob.id);
    }
    let index = VARIANT_INDEX
        .iter()
        .position(|v| *v == variant)
        .unwrap_or(0) as i64;
    let StartedGame {
        thread,
        game,
        challenge_message: challenge_msg,
    } = if beirut {
        let posted = d
            .challenge_with(
                index,
                vec![fake_discord::CommandOption::boolean(
                    "dead_mans_switch",
                    true,
                )],
            )
            .await?;
        d.accept(&posted).await?
    } else {
        d.start_game(index).await?
    };
    let options = kaboom_rules::GameOptions {
        dead_mans_switch: beirut,
        ..kaboom_rules::GameOptions::default()
    };
    let mut mirror = AnyGame::new(variant, options).map_err(|e| DemoError::Step(e.to_string()))?;
    let mut secrets: Vec<String> = Vec::new();
    if let Some((w, b)) = carriers {
        secrets = vec![w.to_string(), b.to_string()];
        // Alice by DM.
        d.choose_carriers_by_dm(&d.alice, game, &[w]).await?;
        if beirut {
            // Bob's DMs are closed: the thread offers "Choose privately".
            let fallback = d
                .fake
                .messages_in(thread.get())
                .into_iter()
                .find(|m| m.custom_ids().iter().any(|c| c.starts_with("kb:choose:")))
                .ok_or_else(|| DemoError::Step("no Choose privately button".into()))?;
            let menu = d
                .click(&d.bob, fallback.id, &format!("kb:choose:{game}"))
                .await?;
            let menu_msg = menu
                .message_id
                .ok_or_else(|| DemoError::Step("no ephemeral menu".into()))?;
            let menu_id = format!("kb:carriers:{game}");
            let sent = d.fake.select_menu(&d.bob, menu_msg, &menu_id, &[b])?;
            d.answer(&sent).await?;
        } else {
            d.choose_carriers_by_dm(&d.bob, game, &[b]).await?;
        }
        for (c, s) in [(Color::White, w), (Color::Black, b)] {
            let sq: Square = s
                .parse()
                .map_err(|_| DemoError::Step(format!("bad square {s}")))?;
            mirror
                .designate(c, &[sq])
                .map_err(|e| DemoError::Step(e.to_string()))?;
        }
    }
    let mut problem: Option<String> = None;
    for (i, entry) in entries.iter().enumerate() {
        let user = if i % 2 == 0 { &d.alice } else { &d.bob };
        let color = if i % 2 == 0 {
            Color::White
        } else {
            Color::Black
        };
        // Bomberman: every 7th ply as coordinates, every 11th from autocomplete.
        let entry = match (variant, entry) {
            (Variant::Bomberman | Variant::Bombalot, Entry::Typed(text)) => {
                let san = mirror
                    .check(Some(color), text)
                    .map_err(|e| DemoError::Step(format!("ply {} {text}: {e}", i + 1)))?;
                if i % 7 == 3 {
                    let uci = mirror
                        .legal_actions(Viewer::Full)
                        .into_iter()
                        .find(|a| a.san == san)
                        .map(|a| a.uci)
                        .unwrap_or(text.clone());
                    Entry::Coordinates(uci)
                } else if i % 11 == 5 {
                    Entry::Pick(san.chars().take(2).collect(), san)
                } else {
                    entry.clone()
                }
            }
            _ => entry.clone(),
        };
        let text = match &entry {
            Entry::Typed(t) | Entry::Coordinates(t) => t.clone(),
            Entry::Pick(prefix, value) => {
                let order = d.last_message_id();
                let choices = d.autocomplete(user, thread, prefix).await?;
                typed.push(Typed {
                    order,
                    user: user.username.clone(),
                    typed: prefix.clone(),
                    choices: choices.iter().map(|(label, _)| label.clone()).collect(),
                    chosen: value.clone(),
                });
                match choices
                    .iter()
                    .find(|(_, v)| v.as_str() == Some(value.as_str()))
                {
                    Some((_, v)) => v.as_str().unwrap_or_default().to_string(),
                    None => {
                        return fail(format!(
                            "autocomplete for '{prefix}' did not offer {value}: {choices:?}"
                        ));
                    }
                }
            }
        };
        let r = d.play(user, thread, &text).await?;
        if !r.content().unwrap_or_default().starts_with("Played") {
            return fail(format!(
                "ply {} {text}: {}",
                i + 1,
                r.content().unwrap_or_default()
            ));
        }
        mirror
            .play(Some(color), &text)
            .map_err(|e| DemoError::Step(format!("mirror ply {} {text}: {e}", i + 1)))?;
        // The draw offer, declined (Atomic, after bob's first move).
        if variant == Variant::Atomic && i == 1 {
            d.offer_and_decline_draw(thread).await?;
        }
        if beirut
            && !mirror.status().is_finished()
            && let Some(leak) = d.leak(thread, marker, &secrets)
        {
            problem = Some(format!("carrier leaked after ply {}: {leak}", i + 1));
        }
    }
    // The result, from the bot's database.
    let (_, record) = kaboom_store::games::load_record(&d.db, game)
        .await?
        .ok_or_else(|| DemoError::Step("game not stored".into()))?;
    let stored = AnyGame::from_record(&record).map_err(|e| DemoError::Step(e.to_string()))?;
    let outcome = stored.status().outcome();
    let (winner, reason) = expected(variant);
    let result = outcome
        .map(|o| o.to_string())
        .unwrap_or_else(|| "unfinished".into());
    match outcome {
        Some(o) if o.reason == reason && o.winner == winner => {}
        _ => problem = problem.or(Some(format!("expected {reason}, got {result}"))),
    }
    if beirut {
        let plies = stored.plies();
        let mid_boom = plies
            .iter()
            .rev()
            .skip(1)
            .any(|p| p.san.starts_with("Boom"));
        let switch = plies.last().is_some_and(|p| {
            !p.san.starts_with("Boom")
                && p.removed
                    .iter()
                    .any(|r| r.piece.kind == Kind::King && r.cause == kaboom_rules::Cause::Exploded)
        });
        if !mid_boom || !switch {
            problem = problem.or(Some(
                "Beirut did not show a Boom mid-game and a Dead Man's Switch blast at the end"
                    .into(),
            ));
        }
    }
    if variant == Variant::Nuke
        && !stored
            .plies()
            .last()
            .is_some_and(|p| p.removed.iter().any(|r| r.piece.kind == Kind::King))
    {
        problem = problem.or(Some("Nuke's last blast took no king".into()));
    }
    if variant == Variant::Nuke
        && !(stored.plies().iter().any(|p| p.san.contains('>'))
            && stored.plies().iter().any(|p| p.san.ends_with('*')))
    {
        problem = problem.or(Some("Nuke showed no transfer or no grab".into()));
    }
    if variant == Variant::Bomberman
        && let Err(e) = check_bomberman_final(&stored)
    {
        problem = problem.or(Some(e));
    }
    if variant == Variant::Bombalot
        && let Err(e) = check_bombalot_sights(&stored)
    {
        problem = problem.or(Some(e));
    }
    let last = d.boards(thread).pop();
    if !last
        .as_ref()
        .is_some_and(|m| m.content().contains("Game over"))
    {
        problem = problem.or(Some("the last board does not say Game over".into()));
    }
    // Rated by default: the last board shows the change.
    let ratings = match kaboom_store::ratings::change_of_game(&d.db, game).await? {
        Some(change) => {
            let line = kaboom_discord::messages::ratings::rating_line(&change);
            if !last.is_some_and(|m| m.content().contains(&line)) {
                problem = problem.or(Some(format!("the last board does not show `{line}`")));
            }
            use kaboom_discord::messages::ratings::side_change;
            format!(
                "{} · {}",
                side_change(&change.white),
                side_change(&change.black)
            )
        }
        None => {
            problem = problem.or(Some("the rated game was not rated".into()));
            "not rated".into()
        }
    };
    // The finished Atomic game is analysed, as its players would ask for after it.
    if variant == Variant::Atomic
        && let Err(e) = analyse_game(d, thread.get(), game).await
    {
        problem = problem.or(Some(e.to_string()));
    }
    let plies = stored.plies().len();
    let (images, game_page) = write_files(
        d,
        variant,
        out,
        Thread {
            label: variant.title().to_string(),
            id: thread.get(),
            marker,
            challenge: challenge_msg.get(),
            summary: format!(
                "{} · {plies} plies · {result}. Watch for: {}",
                variant.title(),
                highlights(variant)
            ),
            now: None,
            checkpoints: Vec::new(),
        },
        &typed,
    )?;
    pages.push(game_page);
    Ok(GameSummary {
        variant,
        title: variant.title().to_string(),
        plies,
        result,
        ratings,
        images,
        ok: problem.is_none(),
        problem,
        seconds: 0.0,
    })
}

/// Positions the demo's post-game analysis searches per move: a tenth of the bot's default
/// for Atomic in a release build (`kaboom demo`), a hundredth in a debug build (the test
/// suite runs the demo), so that it takes seconds.
pub const DEMO_ANALYSIS_NODES: u64 = if cfg!(debug_assertions) {
    4_000
} else {
    40_000
};

/// carol asks for `/analysis` of the finished game `game` in `thread`, as a player would
/// after it; waits (at most two minutes) until its result, with the evaluation chart, is
/// posted there.
///
/// # Errors
/// [`DemoError::Step`] when the bot does not queue it or the result does not come.
async fn analyse_game(
    d: &Driver,
    thread: u64,
    game: kaboom_domain::ids::GameId,
) -> Result<(), DemoError> {
    let asked = d.cmd(&d.carol, thread, "analysis", Vec::new()).await?;
    if !asked
        .content()
        .unwrap_or_default()
        .starts_with("Analysing game")
    {
        return fail(format!("/analysis was not queued: {asked:?}"));
    }
    let chart = format!("game-{game}-chart.png");
    let deadline = Instant::now() + std::time::Duration::from_secs(120);
    loop {
        let posted = d
            .fake
            .messages_in(thread)
            .iter()
            .any(|m| m.attachments.iter().any(|a| a.filename == chart));
        if posted {
            return d.outbox_delivered().await;
        }
        if Instant::now() > deadline {
            return fail("the analysis was not posted within two minutes");
        }
        tokio::time::sleep(std::time::Duration::from_millis(200)).await;
    }
}

/// The folder of the reminder and time forfeit game.
const CLOCK_DIR: &str = "clock";

/// A one-day-per-move Atomic game on the test clock: three plies, then bob does not move.
/// At half his day the scheduler reminds him (by DM); when the day is over it declares the
/// time forfeit, which the thread announces. Written to `out/clock/`.
async fn play_clock_game(
    d: &Driver,
    clock: &std::sync::Arc<crate::clock::TestClock>,
    out: &Path,
    pages: &mut Vec<page::GamePage>,
) -> Result<GameSummary, DemoError> {
    const HOUR: i64 = 3_600;
    let dir = out.join(CLOCK_DIR);
    clear_dir(&dir)?;
    d.fake.allow_dms_for(d.bob.id);
    let marker = d.last_message_id();
    // `days_per_move` choice 0 is "1 day" (the order of DaysChoice).
    let posted = d
        .challenge_with(
            0,
            vec![fake_discord::CommandOption::integer("days_per_move", 0)],
        )
        .await?;
    let StartedGame {
        thread,
        game,
        challenge_message,
    } = d.accept(&posted).await?;
    for (user, text) in [(&d.alice, "e4"), (&d.bob, "e5"), (&d.alice, "Nf3")] {
        let r = d.play(user, thread, text).await?;
        if !r.content().unwrap_or_default().starts_with("Played") {
            return fail(format!("{text}: {}", r.content().unwrap_or_default()));
        }
    }
    let time: std::sync::Arc<dyn kaboom_domain::clock::Clock> = clock.clone();
    let scheduler = d.scheduler(time, kaboom_service::scheduler::SchedulerConfig::default());
    let mut problem = None;
    let bob_dm = d.fake.dm_channel_for(d.bob.id);
    let dms_before = d.fake.messages_in(bob_dm).len();
    let now = || kaboom_domain::clock::Clock::now(clock.as_ref());
    let mut checkpoints = vec![(d.last_message_id(), now())];
    // Half of bob's day: a reminder.
    clock.advance(13 * HOUR);
    scheduler
        .sweep()
        .await
        .map_err(|e| DemoError::Step(format!("sweep: {e}")))?;
    d.outbox_delivered().await?;
    if d.fake.messages_in(bob_dm).len() <= dms_before {
        problem = Some("bob got no reminder".to_string());
    }
    checkpoints.push((d.last_message_id(), now()));
    // The day is over: the time forfeit.
    clock.advance(12 * HOUR);
    let swept = scheduler
        .sweep()
        .await
        .map_err(|e| DemoError::Step(format!("sweep: {e}")))?;
    d.outbox_delivered().await?;
    if !swept.forfeited.contains(&game) {
        problem = problem.or(Some(format!("game #{game} was not forfeited")));
    }
    let announced = d
        .fake
        .messages_in(thread.get())
        .iter()
        .any(|m| m.content().contains("on time"));
    if !announced {
        problem = problem.or(Some("the thread does not announce the time forfeit".into()));
    }
    let (_, record) = kaboom_store::games::load_record(&d.db, game)
        .await?
        .ok_or_else(|| DemoError::Step("game not stored".into()))?;
    let stored = AnyGame::from_record(&record).map_err(|e| DemoError::Step(e.to_string()))?;
    let outcome = stored.status().outcome();
    let result = outcome.map_or_else(|| "unfinished".into(), |o| o.to_string());
    if !outcome
        .is_some_and(|o| o.reason == EndReason::TimeForfeit && o.winner == Some(Color::White))
    {
        problem = problem.or(Some(format!("expected a time forfeit, got {result}")));
    }
    let plies = stored.plies().len();
    let (images, game_page) = write_files_to(
        d,
        &dir,
        CLOCK_DIR,
        Thread {
            label: "Atomic, on the clock".into(),
            id: thread.get(),
            marker,
            challenge: challenge_message.get(),
            summary: format!(
                "Atomic, 1 day per move, on the demo's clock · {plies} plies · bob is reminded after 13 hours and loses on time after 25 · {result}"
            ),
            now: Some(kaboom_domain::clock::Clock::now(clock.as_ref())),
            checkpoints,
        },
        &[],
    )?;
    pages.push(game_page);
    Ok(GameSummary {
        variant: Variant::Atomic,
        title: "Atomic, on the clock".into(),
        plies,
        result,
        ratings: "-".into(),
        images,
        ok: problem.is_none(),
        problem,
        seconds: 0.0,
    })
}

/// The folder of the group DM game, beside the variants' folders.
const GROUP_DM_DIR: &str = "group-dm";

/// An Atomic game in a group DM of alice, bob and carol, where the bot is not a member:
/// alice installed Kaboom to her account and challenges bob there; bob's Accept turns the
/// challenge into the game's message; alice moves in the group DM (each move adds the board
/// there as her command's answer), bob from his DM with the bot, and both get every board
/// by DM. The short mate of the Atomic page's opening.
async fn play_group_dm_game(
    d: &Driver,
    out: &Path,
    pages: &mut Vec<page::GamePage>,
) -> Result<GameSummary, DemoError> {
    let dir = out.join(GROUP_DM_DIR);
    clear_dir(&dir)?;
    d.fake.install_for_user(d.alice.id);
    d.fake.allow_dms_for(d.bob.id);
    let group = d.fake.add_group_dm(&[&d.alice, &d.bob, &d.carol]);
    let marker = d.last_message_id();
    // Variant choice 0 is Atomic.
    let posted = d.challenge_in(group, 0, Vec::new()).await?;
    let message = posted
        .message_id
        .ok_or_else(|| DemoError::Step(format!("no challenge in the group DM: {posted:?}")))?;
    let accept = crate::driver::accept_button(&posted)
        .ok_or_else(|| DemoError::Step("no Accept button in the group DM".into()))?;
    d.click(&d.bob, message, &accept).await?;
    let bob_dm = d.fake.dm_channel_for(d.bob.id);
    let mut problem = None;
    for (user, channel, text) in [
        (&d.alice, group, "Nf3"),
        (&d.bob, bob_dm, "a6"),
        (&d.alice, group, "f3g5"),
        (&d.bob, bob_dm, "a5"),
        (&d.alice, group, "Nxf7"),
    ] {
        let r = d.play(user, channel, text).await?;
        if !r.content().unwrap_or_default().starts_with("Played") {
            problem = problem.or(Some(format!("{text}: {}", r.content().unwrap_or_default())));
        }
    }
    d.outbox_delivered().await?;
    let text = d
        .fake
        .message(message)
        .map(|m| m.content().to_string())
        .unwrap_or_default();
    let game = text
        .find("game #")
        .and_then(|at| {
            text[at + 6..]
                .chars()
                .take_while(char::is_ascii_digit)
                .collect::<String>()
                .parse::<i64>()
                .ok()
        })
        .ok_or_else(|| DemoError::Step(format!("the group DM's message names no game: {text}")))?;
    let (_, record) = kaboom_store::games::load_record(&d.db, kaboom_domain::ids::GameId(game))
        .await?
        .ok_or_else(|| DemoError::Step("game not stored".into()))?;
    let stored = AnyGame::from_record(&record).map_err(|e| DemoError::Step(e.to_string()))?;
    let outcome = stored.status().outcome();
    let result = outcome.map_or_else(|| "unfinished".into(), |o| o.to_string());
    if outcome.is_none_or(|o| o.winner != Some(Color::White)) {
        problem = problem.or(Some(format!("expected alice to win, got {result}")));
    }
    if d.fake
        .messages_in(group)
        .iter()
        .any(|m| m.interaction_user_id().is_none())
    {
        problem = problem.or(Some("the bot posted in the group DM on its own".into()));
    }
    let plies = stored.plies().len();
    let (images, game_page) = write_files_to(
        d,
        &dir,
        GROUP_DM_DIR,
        Thread {
            label: "Atomic in a group DM".into(),
            id: group,
            marker,
            challenge: message,
            summary: format!(
                "Atomic in a group DM of alice, bob and carol, where only alice installed Kaboom and the bot is not a member · played by DM · {plies} plies · {result}"
            ),
            now: None,
            checkpoints: Vec::new(),
        },
        &[],
    )?;
    pages.push(game_page);
    Ok(GameSummary {
        variant: Variant::Atomic,
        title: "Atomic in a group DM".into(),
        plies,
        result,
        ratings: "-".into(),
        images,
        ok: problem.is_none(),
        problem,
        seconds: 0.0,
    })
}

/// The league's fourth player (besides alice, bob and carol).
const DAVE_ID: u64 = 1004;

/// The folder of the league, beside the variants' folders.
const LEAGUE_DIR: &str = "league";

/// A small league on the demo's clock: carol (who manages the server) creates an Atomic
/// single round-robin with `/league create`, alice, bob, carol and dave join with the
/// sign-up post's button, carol starts it, and its three rounds are played (each game two
/// moves, then the lower start number wins, or a draw is agreed), each round starting when
/// the clock reaches the previous one's deadline. The page shows the league's channel: the
/// sign-up post, the rounds' pairings, the standings after each round and the final
/// crosstable picture.
async fn play_league(
    d: &Driver,
    clock: &std::sync::Arc<crate::clock::TestClock>,
    out: &Path,
    pages: &mut Vec<page::GamePage>,
) -> Result<GameSummary, DemoError> {
    use fake_discord::CommandOption;
    let dir = out.join(LEAGUE_DIR);
    clear_dir(&dir)?;
    let marker = d.last_message_id();
    let dave = fake_discord::SimUser::new(DAVE_ID, "dave");
    let channel = d.fake.text_channel_id();
    let league =
        |sub: &str, options: Vec<CommandOption>| vec![CommandOption::subcommand(sub, options)];
    // Choices: format 0 is "round-robin", days_per_move 0 is "1 day".
    d.cmd(
        &d.carol,
        channel,
        "league",
        league(
            "create",
            vec![
                CommandOption::string("name", "Demo League"),
                CommandOption::integer("variant", 0),
                CommandOption::integer("format", 0),
                CommandOption::integer("days_per_move", 0),
                CommandOption::integer("round_days", 2),
                CommandOption::boolean("rated", false),
            ],
        ),
    )
    .await?;
    d.outbox_delivered().await?;
    let Some(sign_up) = d
        .fake
        .messages_in(channel)
        .into_iter()
        .rev()
        .find(|m| m.custom_ids().iter().any(|c| c.starts_with("kb:lgjoin:")))
    else {
        return fail("no league sign-up post");
    };
    let join = sign_up.custom_ids()[0].clone();
    let league_id: i64 = join
        .rsplit(':')
        .next()
        .and_then(|n| n.parse().ok())
        .unwrap_or(0);
    let players = [&d.alice, &d.bob, &d.carol, &dave];
    for p in players {
        d.click(p, sign_up.id, &join).await?;
    }
    d.cmd(
        &d.carol,
        channel,
        "league",
        league(
            "start",
            vec![CommandOption::string("league", league_id.to_string())],
        ),
    )
    .await?;
    let time: std::sync::Arc<dyn kaboom_domain::clock::Clock> = clock.clone();
    let scheduler = d.scheduler(time, kaboom_service::scheduler::SchedulerConfig::default());
    let now = || kaboom_domain::clock::Clock::now(clock.as_ref());
    let mut checkpoints = Vec::new();
    let user_of = |id: u64| players.into_iter().find(|p| p.id == id);
    let mut plies = 0;
    for round in 1..=3u32 {
        d.outbox_delivered().await?;
        let Some(row) = kaboom_store::leagues::get(&d.db, league_id).await? else {
            return fail("the league is not stored");
        };
        for (board, g) in row
            .league
            .games
            .iter()
            .filter(|g| g.round == round)
            .enumerate()
        {
            let Some(game) = g.game else { continue };
            let Some(stored) = kaboom_store::games::get(&d.db, game).await? else {
                return fail(format!("league game #{game} is not stored"));
            };
            let (Some(white), Some(black), Some(thread)) = (
                user_of(stored.white_id.get()),
                user_of(stored.black_id.get()),
                stored.thread_id,
            ) else {
                return fail(format!(
                    "league game #{game} has no thread or unknown players"
                ));
            };
            d.play(white, thread, "Nf3").await?;
            d.play(black, thread, "f6").await?;
            plies += 2;
            if board == 1 && round == 2 {
                d.cmd(white, thread, "draw", vec![]).await?;
                d.cmd(black, thread, "draw", vec![]).await?;
            } else if g.white < g.black {
                d.resign(black, thread).await?;
            } else {
                d.resign(white, thread).await?;
            }
        }
        d.outbox_delivered().await?;
        checkpoints.push((d.last_message_id(), now()));
        clock.advance(2 * 86_400);
        scheduler
            .sweep()
            .await
            .map_err(|e| DemoError::Step(format!("sweep: {e}")))?;
    }
    d.outbox_delivered().await?;
    let Some(row) = kaboom_store::leagues::get(&d.db, league_id).await? else {
        return fail("the league is not stored");
    };
    let table = kaboom_domain::league::standings(&row.league);
    let first: Vec<&str> = table
        .iter()
        .filter(|l| l.standing.rank == 1)
        .map(|l| l.standing.name.as_str())
        .collect();
    let winner = match (first.as_slice(), table.first()) {
        ([one], Some(l)) => format!("{one} wins with {} points", l.standing.points),
        (_, Some(l)) => format!(
            "{} share first place with {} points",
            first.join(" and "),
            l.standing.points
        ),
        _ => String::new(),
    };
    let mut problem = None;
    if row.league.status != kaboom_domain::league::LeagueStatus::Finished {
        problem = Some(format!(
            "the league did not finish: {:?}",
            row.league.status
        ));
    }
    let (images, league_page) = write_files_to(
        d,
        &dir,
        LEAGUE_DIR,
        Thread {
            label: "Atomic league of four".into(),
            id: channel,
            marker,
            challenge: 0,
            summary: format!(
                "Demo League: Atomic, single round-robin of four, 1 day per move, rounds of 2 days, on the demo's clock · {winner}"
            ),
            now: Some(now()),
            checkpoints,
        },
        &[],
    )?;
    if images < 3 {
        problem = problem.or(Some(format!("{images} standings pictures, expected 3")));
    }
    pages.push(league_page);
    Ok(GameSummary {
        variant: Variant::Atomic,
        title: "Atomic league of four".into(),
        plies,
        result: winner,
        ratings: "-".into(),
        images,
        ok: problem.is_none(),
        problem,
        seconds: 0.0,
    })
}

/// The folder of the commands a newcomer tries (`/help`, `/rules`, `/profile`).
const COMMANDS_DIR: &str = "commands";

/// What a newcomer asks the bot after the games, in a thread of their own so the page
/// shows it as one section: carol's `/help` (the first screen, then the "All commands"
/// page picked from its menu), `/rules` for Bombalot (the condensed rules, the setup
/// picture, the piece legend and the full rules as a file) and alice's `/profile`.
async fn show_commands(
    d: &Driver,
    clock: &std::sync::Arc<crate::clock::TestClock>,
    out: &Path,
    pages: &mut Vec<page::GamePage>,
) -> Result<(), DemoError> {
    use fake_discord::CommandOption;
    let dir = out.join(COMMANDS_DIR);
    clear_dir(&dir)?;
    let marker = d.last_message_id();
    let thread = d
        .fake
        .add_thread(d.fake.text_channel_id(), "bot-commands")?;
    let help = d.cmd(&d.carol, thread, "help", Vec::new()).await?;
    if let Some(message) = help.message_id {
        let sent = d
            .fake
            .select_menu(&d.carol, message, "kb:help:0", &["commands"])?;
        d.answer(&sent).await?;
    }
    let bombalot = Variant::ALL
        .iter()
        .position(|v| *v == Variant::Bombalot)
        .unwrap_or(0);
    d.cmd(
        &d.carol,
        thread,
        "rules",
        vec![CommandOption::integer(
            "variant",
            i64::try_from(bombalot).unwrap_or(0),
        )],
    )
    .await?;
    d.cmd(&d.alice, thread, "profile", Vec::new()).await?;
    let (_, page) = write_files_to(
        d,
        &dir,
        COMMANDS_DIR,
        Thread {
            label: "Help, rules and a profile".into(),
            id: thread,
            marker,
            // No challenge: nothing from the text channel belongs here.
            challenge: 0,
            summary: "What a newcomer asks: /help (its first screen, then the command list from its menu), /rules for Bombalot, and /profile".into(),
            now: Some(kaboom_domain::clock::Clock::now(clock.as_ref())),
            checkpoints: Vec::new(),
        },
        &[],
    )?;
    pages.push(page);
    Ok(())
}

/// The folder of the puzzles section.
const PUZZLES_DIR: &str = "puzzles";

/// One shipped puzzle per variant solved by alice with `/puzzle solve` and `/puzzle
/// move`, in a thread of its own; the shipped set is loaded first, as `kaboom serve`
/// does at start-up.
///
/// # Errors
/// [`DemoError::Step`] when a variant's puzzle is not solved by its own solution.
async fn show_puzzles(
    d: &Driver,
    clock: &std::sync::Arc<crate::clock::TestClock>,
    out: &Path,
    variants: &[Variant],
    pages: &mut Vec<page::GamePage>,
) -> Result<(), DemoError> {
    use fake_discord::CommandOption;
    let dir = out.join(PUZZLES_DIR);
    clear_dir(&dir)?;
    let services = kaboom_service::Services::new(
        d.db.clone(),
        clock.clone(),
        std::sync::Arc::new(kaboom_service::painter::RendererPainter),
    );
    services
        .puzzles()
        .load_shipped()
        .await
        .map_err(|e| DemoError::Step(format!("the shipped puzzles do not load: {e}")))?;
    let marker = d.last_message_id();
    let thread = d.fake.add_thread(d.fake.text_channel_id(), "puzzles")?;
    let mut shown = Vec::new();
    for (index, variant) in Variant::ALL.iter().enumerate() {
        if !variants.contains(variant)
            || kaboom_service::puzzles::shipped(*variant).map_or(true, |s| s.is_empty())
        {
            continue;
        }
        let solve =
            |sub: &str, options: Vec<CommandOption>| vec![CommandOption::subcommand(sub, options)];
        d.cmd(
            &d.alice,
            thread,
            "puzzle",
            solve(
                "solve",
                vec![CommandOption::integer(
                    "variant",
                    i64::try_from(index).unwrap_or(0),
                )],
            ),
        )
        .await?;
        let view = services
            .puzzles()
            .current(kaboom_domain::ids::UserId::from(d.alice.id))
            .await
            .map_err(|e| DemoError::Step(e.to_string()))?
            .ok_or_else(|| DemoError::Step(format!("no {} puzzle open", variant.title())))?;
        let mut last = String::new();
        for step in view.puzzle.solution.iter().step_by(2) {
            let r = d
                .cmd(
                    &d.alice,
                    thread,
                    "puzzle",
                    solve("move", vec![CommandOption::string("action", step)]),
                )
                .await?;
            last = r.content().unwrap_or_default().to_string();
        }
        if !last.contains(&format!("solves puzzle {}!", view.puzzle.id)) {
            return fail(format!(
                "{} puzzle {}: {last}",
                variant.title(),
                view.puzzle.id
            ));
        }
        shown.push(variant.title());
    }
    let (_, page) = write_files_to(
        d,
        &dir,
        PUZZLES_DIR,
        Thread {
            label: "Puzzles".into(),
            id: thread,
            marker,
            challenge: 0,
            summary: format!(
                "One shipped puzzle per variant solved with /puzzle: {}",
                shown.join(", ")
            ),
            now: Some(kaboom_domain::clock::Clock::now(clock.as_ref())),
            checkpoints: Vec::new(),
        },
        &[],
    )?;
    pages.push(page);
    Ok(())
}

/// The folder of the practice game, beside the variants' folders.
const PRACTICE_DIR: &str = "practice";
/// The most plies the practice game may take before the demo calls it a failure.
const PRACTICE_MAX_PLIES: usize = 120;

/// A short practice game: alice asks for `/play-bot` (Atomic, level 1, White)
/// and the bot's engine answers each of her moves in the game's thread, as it would a
/// newcomer's. alice plays what the engine's level 3 picks from her side of the board (a
/// stronger player than the bot's level 1), so the game ends soon, with her win.
async fn play_practice_game(
    d: &Driver,
    clock: &std::sync::Arc<crate::clock::TestClock>,
    out: &Path,
    pages: &mut Vec<page::GamePage>,
) -> Result<GameSummary, DemoError> {
    use kaboom_store::games;
    let dir = out.join(PRACTICE_DIR);
    clear_dir(&dir)?;
    let marker = d.last_message_id();
    // Choice indexes: Atomic is variant 0, level 1 is choice 0, White is colour 0.
    let (game, thread, answer) = d.play_bot(&d.alice, 0, 0, 0).await?;
    let said = answer.content().unwrap_or_default().to_string();
    if !said.contains("level 1 of 5") {
        return fail(format!("/play-bot answered: {said}"));
    }
    let thread = thread.get();
    let load = || async {
        let (_, record) = games::load_record(&d.db, game)
            .await?
            .ok_or_else(|| DemoError::Step("the practice game is not stored".into()))?;
        AnyGame::from_record(&record).map_err(|e| DemoError::Step(e.to_string()))
    };
    let mut stored = load().await?;
    let mut seed = 0x5eed_u64;
    while !stored.status().is_finished() && stored.plies().len() < PRACTICE_MAX_PLIES {
        if stored.turn() == Color::White {
            seed = seed.wrapping_add(1);
            let choice = kaboom_engine::choose_action(&stored, kaboom_engine::Level::Three, seed)
                .map_err(|e| DemoError::Step(format!("alice's choice: {e}")))?;
            let r = d.play(&d.alice, thread, &choice.best).await?;
            if !r.content().unwrap_or_default().starts_with("Played") {
                return fail(format!(
                    "{}: {}",
                    choice.best,
                    r.content().unwrap_or_default()
                ));
            }
        }
        // The bot's answer comes from its engine worker, after the move's transaction.
        let ply = stored.plies().len();
        let deadline = Instant::now() + std::time::Duration::from_secs(30);
        loop {
            stored = load().await?;
            if stored.plies().len() > ply || stored.status().is_finished() {
                break;
            }
            if Instant::now() > deadline {
                return fail(format!("the bot did not answer at ply {ply}"));
            }
            tokio::time::sleep(std::time::Duration::from_millis(10)).await;
        }
    }
    d.outbox_delivered().await?;
    let outcome = stored.status().outcome();
    let result = outcome.map_or_else(|| "unfinished".into(), |o| o.to_string());
    let problem = (outcome.and_then(|o| o.winner) != Some(Color::White))
        .then(|| format!("expected alice to win her practice game, got {result}"));
    let plies = stored.plies().len();
    let (images, game_page) = write_files_to(
        d,
        &dir,
        PRACTICE_DIR,
        Thread {
            label: "Atomic against the bot".into(),
            id: thread,
            marker,
            // A thread started from a message has that message's id (Discord's threads
            // topic), so this picks up /play-bot's own post in the text channel.
            challenge: thread,
            summary: format!(
                "Atomic against the bot itself (`/play-bot`, level 1, never rated) · {plies} plies · {result}"
            ),
            // The bot's clock, which the clock game moved past the wall clock: the page
            // shows each message at the time the bot dated it (its deadlines agree).
            now: Some(kaboom_domain::clock::Clock::now(clock.as_ref())),
            checkpoints: Vec::new(),
        },
        &[],
    )?;
    pages.push(game_page);
    Ok(GameSummary {
        variant: Variant::Atomic,
        title: "Atomic against the bot".into(),
        plies,
        result,
        ratings: "not rated (practice)".into(),
        images,
        ok: problem.is_none(),
        problem,
        seconds: 0.0,
    })
}

/// What to watch for in each variant's scripted game, in players' words (the line under
/// the game's title on the page and in its transcript).
fn highlights(variant: Variant) -> &'static str {
    match variant {
        Variant::Atomic => {
            "4. Nxa7 blows up five pieces at once; 5. Qg4 threatens mate and 5...d5 parries it; \
             7. Qxe6 catches Black's king in the blast"
        }
        Variant::Beirut => {
            "5...Boom@e4 detonates Black's hidden bomb mid-game and takes two White pieces with \
             it; with the Dead Man's Switch on, 8...Rxf7 captures White's carrier, whose bomb \
             goes off and takes Black's king"
        }
        Variant::Nuke => {
            "both sides hand their bomb to a pawn on move 1; 4. Nxe5 sets off a chain; the \
             loose bombs are picked up again (4...Ne5*, 9. Ne4*); 10...Qxd6 sets off Black's \
             own bomb next to its king"
        }
        Variant::Bomberman => "the sample game from the variant's author, to checkmate",
        Variant::Bombalot => {
            "8...b8-c6 removes White's super-tweke on a co-square of Black's two detonators; \
             12. a1-a2 is White's imitator moving as the tweke Black just moved; \
             16...d6:b4:d2:d0 jumps two pieces and lands in White's goal; 29. d1-e2! and \
             29...d8-c7! are bombs stepping and exploding; 43. h5-h6 and 44. h6-h7 push Black's \
             tank and a super-tweke off the board; 46...d1-e0 is Black's second piece in the \
             goal, and the win"
        }
    }
}

/// The Bombalot game shows what only Bombalot has, each on an opponent's piece:
/// a piece pushed off the board by a tank (BA-6), a piece removed on a detonator's
/// co-square (BA-7), and a move of the imitator (BA-10).
///
/// # Errors
/// The first sight the stored game lacks, in words.
fn check_bombalot_sights(game: &AnyGame) -> Result<(), String> {
    let plies = game.plies();
    let hits = |cause: kaboom_rules::Cause| {
        plies.iter().any(|p| {
            p.removed
                .iter()
                .any(|r| r.cause == cause && r.piece.color != p.mover)
        })
    };
    if !hits(kaboom_rules::Cause::PushedOff) {
        return Err("Bombalot pushed no opponent's piece off the board".into());
    }
    if !hits(kaboom_rules::Cause::CoSquare) {
        return Err("Bombalot removed no opponent's piece on a co-square".into());
    }
    let imitator_moved = plies.iter().enumerate().any(|(i, p)| {
        let before = game.board_view_after(i, Viewer::Full);
        p.squares
            .from
            .and_then(|sq| before.as_ref()?.piece_at(sq).map(|piece| piece.kind))
            == Some(Kind::Imitator)
    });
    if !imitator_moved {
        return Err("Bombalot's imitator never moved".into());
    }
    Ok(())
}

/// BM-10: the stored final position is the seed's.
fn check_bomberman_final(game: &AnyGame) -> Result<(), String> {
    let lines: Vec<&str> = BOMBERMAN_FINAL
        .lines()
        .filter(|l| l.contains(';'))
        .map(str::trim)
        .collect();
    if lines.len() != 2 {
        return Err("the seed's final position has no two lines".into());
    }
    let view = game.board_view(Viewer::Full);
    for (color, line) in [Color::White, Color::Black].into_iter().zip(lines) {
        let mut want = Vec::new();
        for group in line.split(';') {
            let (name, squares) = group.trim().split_once(' ').ok_or("bad seed line")?;
            let kind = name
                .trim_end_matches('s')
                .parse::<Kind>()
                .map_err(|_| format!("unknown piece name {name}"))?;
            for s in squares.split(',') {
                let sq: Square = s.trim().parse().map_err(|_| format!("bad square {s}"))?;
                want.push((sq, kind));
            }
        }
        want.sort();
        let mut have: Vec<(Square, Kind)> = view
            .pieces
            .iter()
            .filter(|p| p.color == color)
            .map(|p| (p.square, p.kind))
            .collect();
        have.sort();
        if want != have {
            return Err(format!("{color}'s final pieces differ from the seed's"));
        }
    }
    Ok(())
}

/// The game's thread and where its messages start.
struct Thread {
    /// The thread's channel id.
    id: u64,
    /// The last message id before the game.
    marker: u64,
    /// The challenge message in the text channel.
    challenge: u64,
    /// The game's name in the page's table of contents (as in the summary table:
    /// "Atomic, on the clock"), told apart from the thread names, which repeat.
    label: String,
    /// The line under the game's title on the page.
    summary: String,
    /// The bot's clock when the game's files are written (Unix seconds); `None`: the wall
    /// clock.
    now: Option<i64>,
    /// (last message id, the bot's clock then) before each time the clock moved, in order.
    checkpoints: Vec<(u64, i64)>,
}

/// An autocomplete list a player typed into (shown in the page's private column).
struct Typed {
    /// The last message id before it.
    order: u64,
    /// Who typed.
    user: String,
    /// What they typed.
    typed: String,
    /// The labels offered, in order.
    choices: Vec<String>,
    /// The value they picked.
    chosen: String,
}

/// The names the demo's markup refers to.
fn names(d: &Driver) -> page::Names {
    let mut names = page::Names::default();
    for u in [&d.alice, &d.bob, &d.carol] {
        names.users.insert(u.id, u.username.clone());
    }
    names.users.insert(DAVE_ID, "dave".into());
    names.users.insert(d.fake.bot_user_id(), "Kaboom".into());
    let channel = d.fake.text_channel_id();
    if let Some(name) = d
        .fake
        .channel(channel)
        .and_then(|c| c.name().map(str::to_string))
    {
        names.channels.insert(channel, name);
    }
    for t in d.fake.threads() {
        if let Some(name) = t.name() {
            names.channels.insert(t.id, name.to_string());
        }
    }
    names
}

/// Who saw message `m`: everyone, or only one player (a DM, an ephemeral answer).
fn place_of(d: &Driver, m: &FakeMessage) -> page::Place {
    for u in [&d.alice, &d.bob] {
        if m.channel_id == d.fake.dm_channel_for(u.id) {
            return page::Place::Private {
                user: u.username.clone(),
                how: "DM",
            };
        }
    }
    if m.is_ephemeral() {
        let user = m
            .interaction_user_id()
            .map_or_else(|| "the user who asked".into(), |id| d.name_of(id));
        return page::Place::Private {
            user,
            how: "ephemeral",
        };
    }
    page::Place::Public
}

fn write_files(
    d: &Driver,
    variant: Variant,
    out: &Path,
    thread: Thread,
    typed: &[Typed],
) -> Result<(usize, page::GamePage), DemoError> {
    // `run` emptied the folder before the game (`clear_variant_dir`).
    write_files_to(d, &out.join(variant.name()), variant.name(), thread, typed)
}

/// Writes a game's images and transcript into `dir` (`rel` from the page) and returns
/// the number of images and its section of the page.
fn write_files_to(
    d: &Driver,
    dir: &Path,
    rel: &str,
    thread: Thread,
    typed: &[Typed],
) -> Result<(usize, page::GamePage), DemoError> {
    std::fs::create_dir_all(dir)?;
    let mut messages: Vec<FakeMessage> = Vec::new();
    for ch in [
        thread.id,
        d.fake.text_channel_id(),
        d.fake.dm_channel_for(d.alice.id),
        d.fake.dm_channel_for(d.bob.id),
    ] {
        messages.extend(
            d.fake
                .messages_in(ch)
                .into_iter()
                .filter(|m| m.id > thread.marker),
        );
    }
    messages.sort_by_key(|m| m.id);
    messages.dedup_by_key(|m| m.id);
    let mut files = std::collections::HashMap::new();
    let mut paths = std::collections::HashMap::new();
    let mut n = 0;
    for m in &messages {
        for a in &m.attachments {
            // Board pictures and replay GIFs, shown on the page as Discord shows them.
            let extension = [".png", ".gif"]
                .into_iter()
                .find(|e| a.filename.ends_with(e));
            if let Some(extension) = extension {
                n += 1;
                let name = format!("{n:03}{extension}");
                std::fs::write(dir.join(&name), &a.bytes)?;
                paths.insert(a.id, format!("{rel}/{name}"));
                files.insert(a.id, name);
            }
        }
    }
    let names = names(d);
    let mut md = String::new();
    // A group DM has no name of its own: the section's label stands in.
    let title = d
        .fake
        .channel(thread.id)
        .and_then(|c| c.name().map(str::to_string))
        .unwrap_or_else(|| thread.label.clone());
    let _ = writeln!(
        md,
        "# {title}\n\nThe game ({}) as its players saw it (`kaboom demo`): the public thread, and \
         marked _only alice sees this_ / _only bob sees this_, what one player alone saw \
         (DMs and ephemeral answers; their board images show that player's private view). \
         Times are UTC, on the clock of the run. `index.html` one folder up shows the same as a Discord client would.\n",
        thread.summary
    );
    // The fake numbers its messages from 2025-01-01 (its snowflakes carry no wall time),
    // while the bot's deadlines use its clock: the page and transcript show each message at
    // the bot's time when it was posted: the time of the first checkpoint (last message id
    // then, clock then) it is not after, else the time the files are written.
    let end = thread.now.unwrap_or_else(|| {
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| i64::try_from(d.as_secs()).unwrap_or(0))
    });
    let time_of = |m: &FakeMessage| {
        thread
            .checkpoints
            .iter()
            .find(|(last, _)| m.id <= *last)
            .map_or(end, |(_, at)| *at)
    };
    let mut items = Vec::new();
    for m in messages.iter().filter(|m| {
        m.channel_id == thread.id
            || m.id == thread.challenge
            || m.channel_id != d.fake.text_channel_id()
    }) {
        let place = place_of(d, m);
        let unix = time_of(m);
        let time = format!(
            "{} {}",
            page::timestamp(unix, 'd', unix).unwrap_or_default(),
            page::timestamp(unix, 't', unix).unwrap_or_default()
        );
        let author = names
            .users
            .get(&m.author_id())
            .cloned()
            .unwrap_or_else(|| d.name_of(m.author_id()));
        let used = m
            .interaction_user_id()
            .map(|id| match m.interaction_command() {
                Some(command) => format!("{} used /{command}", d.name_of(id)),
                None => format!("{} clicked a button or menu", d.name_of(id)),
            });
        let (html, images) = page::message_html(m, &names, unix, &paths);
        items.push(page::Item {
            order: m.id,
            author: author.clone(),
            bot: m.author_id() == d.fake.bot_user_id(),
            time: time.clone(),
            used: used.clone(),
            html,
            images,
            place: place.clone(),
        });
        // The transcript: the same, as Markdown.
        let private = match &place {
            page::Place::Public => String::new(),
            page::Place::Private { user, how } => format!(" _(only {user} sees this: {how})_"),
        };
        let used = used.map(|u| format!(" ({u})")).unwrap_or_default();
        let _ = writeln!(md, "---\n\n**{author}**{used} · {time}{private}:\n");
        let quote = if private.is_empty() { "" } else { "> " };
        let content = page::render_markup(m.content(), &names, unix);
        if !content.is_empty() {
            let _ = writeln!(
                md,
                "{quote}{}\n",
                content.replace('\n', &format!("\n{quote}"))
            );
        }
        for e in m.embeds() {
            for key in ["title", "description"] {
                if let Some(t) = e.get(key).and_then(|v| v.as_str()) {
                    let t = page::render_markup(t, &names, unix);
                    let _ = writeln!(md, "> {}\n", t.replace('\n', "\n> "));
                }
            }
            if let Some(fields) = e.get("fields").and_then(|f| f.as_array()) {
                for f in fields {
                    let _ = writeln!(
                        md,
                        "> **{}**: {}\n",
                        page::render_markup(f["name"].as_str().unwrap_or(""), &names, unix),
                        page::render_markup(f["value"].as_str().unwrap_or(""), &names, unix)
                    );
                }
            }
        }
        for a in &m.attachments {
            match files.get(&a.id) {
                Some(name) => {
                    let _ = writeln!(md, "{quote}![{}]({name})\n", a.filename);
                }
                None => {
                    let _ = writeln!(md, "{quote}(attachment {})\n", a.filename);
                }
            }
        }
        let labels: Vec<String> = m
            .components()
            .iter()
            .flat_map(|row| row["components"].as_array().cloned().unwrap_or_default())
            .filter_map(|c| {
                c["label"]
                    .as_str()
                    .or(c["placeholder"].as_str())
                    .map(|l| format!("[{l}]"))
            })
            .collect();
        if !labels.is_empty() {
            let _ = writeln!(md, "{quote}{}\n", labels.join(" "));
        }
    }
    for t in typed {
        items.push(page::Item {
            order: t.order,
            author: t.user.clone(),
            bot: false,
            time: "typing".into(),
            used: None,
            html: page::autocomplete_html(&t.typed, &t.choices, &t.chosen),
            images: Vec::new(),
            place: page::Place::Private {
                user: t.user.clone(),
                how: "autocomplete",
            },
        });
    }
    // Stable: an autocomplete list (ordered by the message before it) follows that message.
    items.sort_by_key(|i| {
        (
            i.order,
            matches!(
                i.place,
                page::Place::Private {
                    how: "autocomplete",
                    ..
                }
            ),
        )
    });
    let mut with_typing = String::new();
    for t in typed {
        let _ = writeln!(
            with_typing,
            "- {} typed `{}` into `/move action:` and picked **{}** from: {}",
            t.user,
            t.typed,
            t.chosen,
            t.choices.join(", ")
        );
    }
    if !with_typing.is_empty() {
        let _ = writeln!(
            md,
            "---\n\n## Autocomplete (only the typing player sees these)\n\n{with_typing}"
        );
    }
    std::fs::write(dir.join("transcript.md"), md)?;
    Ok((
        n,
        page::GamePage {
            anchor: rel.to_string(),
            label: thread.label,
            title,
            summary: thread.summary,
            items,
        },
    ))
}

/// `index.html`: the summary table, then every game's page.
fn index_page(report: &Report, pages: &[page::GamePage]) -> String {
    let mut rows = vec![
        [
            "Variant",
            "Plies",
            "Result",
            "Rating change (this variant)",
            "Images",
        ]
        .map(String::from)
        .to_vec(),
    ];
    for g in &report.games {
        rows.push(vec![
            g.title.clone(),
            g.plies.to_string(),
            g.result.clone(),
            g.ratings.clone(),
            g.images.to_string(),
        ]);
    }
    page::index_html(
        "Two simulated players, **alice** (White) and **bob** (Black), play one game of each variant \
         against the real bot and a fake Discord on 127.0.0.1. Each game shows its thread as everyone \
         saw it; the right-hand column shows what only one player saw: carrier menus by DM, \
         the ephemeral answers to their commands, and the autocomplete list a player typed into. \
         Each variant has its own Glicko-2 rating, so every rated game here is both players' first \
         in its variant: from 1500, the same win moves them by the same amount. Times are UTC.",
        &rows,
        pages,
    )
}

/// Convenience for the CLI: runs [`run`] on a fresh runtime for the games of `variants`
/// (every variant when empty, see [`selected_variants`]), prints the table, and returns
/// the report ([`Report::failure`] says why it failed, if it did).
///
/// # Errors
/// As [`run`], and when the runtime cannot start.
pub fn cli(out: &Path, variants: &[Variant]) -> Result<Report, DemoError> {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()?;
    println!(
        "kaboom demo: fake Discord on 127.0.0.1, output in {}",
        out.display()
    );
    let report = runtime.block_on(run(out, &selected_variants(variants)))?;
    println!("\n{}", report.table());
    println!("Board images and transcripts: {}/<variant>/", out.display());
    Ok(report)
}
