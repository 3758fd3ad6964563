//! The `kaboom` command: the Discord bot and the rules analysis CLI.

mod cli;

use std::process::ExitCode;

use clap::{Args, Parser, Subcommand};
use cli::analysis::{self, Carriers, Setup};
use kaboom_discord::config::{ConfigError, LogFormat, ServeArgs};
use kaboom_rules::validity::ProblemKind;
use kaboom_rules::{Variant, Viewer};

/// Kaboom: explosive chess variants by correspondence on Discord.
#[derive(Parser)]
#[command(name = "kaboom", version, about)]
struct Cli {
    /// What to do; without one, `serve`.
    #[command(subcommand)]
    command: Option<Command>,
}

/// `kaboom` alone: `kaboom serve` with every setting from the environment and `.env`.
#[derive(Parser)]
#[command(name = "kaboom")]
struct ServeOnly {
    #[command(flatten)]
    args: ServeArgs,
}

#[derive(Subcommand)]
enum Command {
    /// Run the Discord bot (the default). Needs DISCORD_TOKEN; see .env.example. Every
    /// setting is a flag or the environment variable in its help (or a line of .env).
    Serve(ServeArgs),
    /// Print the OAuth2 links: the first adds the bot to a server with the scopes and
    /// permissions it needs, the second installs the app to a player's own account (to play
    /// in DMs, group DMs and servers without the bot).
    InviteUrl {
        /// The application id (Developer Portal, General Information). Default:
        /// DISCORD_APPLICATION_ID, else the id inside DISCORD_TOKEN (environment or .env).
        #[arg(long)]
        application_id: Option<String>,
    },
    /// Play one game per variant against an in-process fake Discord (no token, no network
    /// beyond 127.0.0.1); writes board images and transcripts to DIR.
    Demo {
        /// Output directory (board images, transcripts, the SQLite database). A re-run
        /// replaces the database and the folders of the variants it plays.
        #[arg(long, default_value = "kaboom-demo")]
        out: std::path::PathBuf,
        /// Play only this variant's game (atomic, beirut, nuke, bomberman or bombalot);
        /// repeat for several. Default: every variant.
        #[arg(long = "variant", value_name = "VARIANT")]
        variants: Vec<Variant>,
    },
    /// Copy every game, rating, setting and pending post of a SQLite database into a new,
    /// empty PostgreSQL database, in one transaction (moving a host to PostgreSQL). Stop
    /// `kaboom serve` first.
    CopyDb {
        /// The SQLite database, e.g. sqlite://kaboom.db (must exist).
        #[arg(long)]
        from: String,
        /// The PostgreSQL database, e.g. postgres://kaboom@localhost/kaboom (must be empty).
        #[arg(long)]
        to: String,
    },
    /// Count the leaf nodes of the legal-action tree (perft); last line `nodes N`.
    Perft {
        #[command(flatten)]
        setup: SetupArgs,
        /// Depth in plies.
        depth: u32,
    },
    /// Print the legal actions of a position as JSON.
    Moves {
        #[command(flatten)]
        setup: SetupArgs,
        /// PGN movetext to play first.
        #[arg(long)]
        moves: Option<String>,
        /// Whose view: white, black, spectator or full.
        #[arg(long = "as", default_value = "full")]
        viewer: Viewer,
    },
    /// Replay PGN movetext and print every ply, the final board and the status as JSON.
    Replay {
        #[command(flatten)]
        setup: SetupArgs,
        /// PGN movetext: numbers, {comments}, glyphs and a result are skipped.
        #[arg(long)]
        moves: String,
        /// Also list the legal actions after every ply.
        #[arg(long)]
        legal_each: bool,
        /// Whose view: white, black, spectator or full.
        #[arg(long = "as", default_value = "full")]
        viewer: Viewer,
    },
    /// Search a position with the practice opponent's engine and print the best action,
    /// its score and the principal variation as JSON.
    Analyse {
        #[command(flatten)]
        setup: SetupArgs,
        /// PGN movetext to play first.
        #[arg(long)]
        moves: Option<String>,
        /// Whose view to search: white, black, spectator or full (a player's view hides the
        /// other side's Beirut carriers).
        #[arg(long = "as", default_value = "full")]
        viewer: Viewer,
        /// Search this many plies deep (1 to 64). Default: 6.
        #[arg(long)]
        depth: Option<u32>,
        /// Search at most this many positions.
        #[arg(long)]
        nodes: Option<u64>,
        /// Search for this many milliseconds.
        #[arg(long)]
        movetime: Option<u64>,
    },
    /// Analyse a whole game as the bot's /analysis does and print it as JSON: each
    /// player's accuracy and, per ply, the evaluation, the mark (inaccuracy, mistake,
    /// blunder) and the better move with its line. Beirut and Nuke need --carriers.
    AnalyseGame {
        #[command(flatten)]
        setup: SetupArgs,
        /// The game's PGN movetext.
        #[arg(long, conflicts_with = "pgn", required_unless_present = "pgn")]
        moves: Option<String>,
        /// A PGN file holding the game (its tags are skipped; give --variant).
        #[arg(long)]
        pgn: Option<std::path::PathBuf>,
        /// Positions to search per ply. Default: the bot's budget for the variant.
        #[arg(long)]
        nodes: Option<u64>,
    },
    /// Draw the position (after --moves) as one viewer sees it, to a PNG or SVG file, or the
    /// whole game as its replay GIF (-o FILE.gif).
    Render {
        #[command(flatten)]
        setup: SetupArgs,
        /// PGN movetext to play first; its last ply is highlighted.
        #[arg(long)]
        moves: Option<String>,
        /// Whose view: white, black, spectator or full (players see their own side at the bottom).
        #[arg(long = "as", default_value = "spectator")]
        viewer: Viewer,
        /// Picture width in pixels (64 to 4096).
        #[arg(long, default_value_t = 640)]
        size: u32,
        /// Output file: FILE.png or FILE.svg (the position), or FILE.gif (the replay GIF of
        /// the whole movetext, as the bot posts it).
        #[arg(short = 'o', long = "output")]
        output: std::path::PathBuf,
    },
    /// Pair the next round of a tournament in a FIDE Tournament Report File (TRF-16, with
    /// the XXR and XXC lines bbpPairings and JaVaFo read), as the bot's leagues pair it;
    /// prints the pairings as bbpPairings' and JaVaFo's -p output.
    Pair {
        /// dutch (Swiss), dutch2016 (its Baku 2016 text), berger or double-berger
        /// (round-robin).
        #[arg(long)]
        system: cli::pairing::PairingSystem,
        /// The tournament, with the rounds played so far and their results.
        #[arg(long)]
        trf: std::path::PathBuf,
    },
    /// Variant puzzles: make a verified set, or print the set shipped with the bot.
    Puzzles {
        #[command(subcommand)]
        command: PuzzlesCommand,
    },
    /// Print the standings of a tournament in a TRF-16 file with its tie-breaks, as JSON.
    Standings {
        /// The tournament.
        #[arg(long)]
        trf: std::path::PathBuf,
        /// auto, round-robin (direct encounter, Sonneborn-Berger, wins) or swiss (Buchholz
        /// cut-1, Buchholz, Sonneborn-Berger).
        #[arg(long, default_value = "auto")]
        tie_breaks: cli::pairing::TieBreaks,
    },
}

#[derive(Subcommand)]
enum PuzzlesCommand {
    /// Find puzzles (positions with one winning move, every reply forced) and print them as
    /// JSON lines, one per puzzle; the count and the rejections go to standard error.
    /// Without --database, from engine self-play: the same flags give the same puzzles on
    /// any machine (how the shipped set was made: data/puzzles/README.md).
    Generate {
        /// atomic, beirut, nuke, bomberman or bombalot.
        #[arg(long)]
        variant: Variant,
        /// Seed of the self-play games.
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Stop at this many puzzles.
        #[arg(long, default_value_t = 300)]
        target: usize,
        /// Play at most this many self-play games (default 2,000).
        #[arg(long)]
        games: Option<usize>,
        /// Look in the finished games of this database instead (e.g. sqlite://kaboom.db),
        /// and add the puzzles found to it, for /puzzle.
        #[arg(long, env = "PUZZLES_DATABASE_URL")]
        database: Option<String>,
    },
    /// Print the puzzles shipped with the bot for a variant, as JSON lines.
    Export {
        /// atomic, beirut, nuke, bomberman or bombalot.
        #[arg(long)]
        variant: Variant,
    },
}

#[derive(Args)]
struct SetupArgs {
    /// atomic, beirut, nuke, bomberman or bombalot.
    #[arg(long)]
    variant: Variant,
    /// Start from this serialization instead of the start position.
    #[arg(long)]
    fen: Option<String>,
    /// Beirut/Nuke designation: white=SQ[,SQ...],black=SQ[,SQ...].
    #[arg(long)]
    carriers: Option<Carriers>,
    /// Beirut: captured carriers explode too (the Dead Man's Switch).
    #[arg(long)]
    dead_mans_switch: bool,
    /// Analyse a --fen position that cannot arise in play anyway (no king, more pieces
    /// than the setup, ...): the same as --ignore with every kind.
    #[arg(long)]
    force: bool,
    /// Accept only these kinds of impossible position: missing-king, too-many-kings,
    /// too-many-pieces, impossible-material, pawn-on-back-rank (comma-separated).
    #[arg(long, value_delimiter = ',', value_name = "KIND,...")]
    ignore: Vec<ProblemKind>,
}

impl SetupArgs {
    fn setup(self) -> Setup {
        Setup {
            variant: self.variant,
            fen: self.fen,
            carriers: self.carriers,
            dead_mans_switch: self.dead_mans_switch,
            ignore: if self.force {
                ProblemKind::ALL.to_vec()
            } else {
                self.ignore
            },
        }
    }
}

fn json<T: serde::Serialize>(value: &T) -> String {
    serde_json::to_string_pretty(value).expect("analysis output always serializes")
}

/// The runtime of `kaboom serve`: tokio's default workers (one per core) and a blocking
/// pool sized to what runs there: the replay-and-paint pool (one job per core), the post-game
/// analysis (`ANALYSIS_SEARCHES`), the practice engine (one search) and two more threads
/// for the rest (files, name lookups). By default tokio allows 512 blocking threads; since
/// a CPU job's permit is released just before its thread is idle again, the next job
/// often found no idle thread and started one more, so under load the bot kept growing
/// threads (13 to 22 in a 30 s load run, docs/PERFORMANCE.md "Load"), each with its own
/// allocator arena. With a bounded pool a queued job runs on the thread that finishes
/// first, without a new thread or a wake-up.
fn serve_runtime() -> std::io::Result<tokio::runtime::Runtime> {
    let cores = std::thread::available_parallelism().map_or(2, usize::from);
    tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .max_blocking_threads(cores + kaboom_service::analysis::ANALYSIS_SEARCHES + 1 + 2)
        .build()
}

fn serve(args: ServeArgs) -> Result<(), String> {
    use std::io::IsTerminal;
    let config = kaboom_discord::config::Config::from_args(args).map_err(|e| e.to_string())?;
    // Discord's wire stays at `info` unless the host names its crates (`log_filter`).
    let asked = std::env::var("RUST_LOG").ok();
    let filter = kaboom_discord::config::log_filter(asked.as_deref());
    let log = tracing_subscriber::fmt().with_env_filter(
        tracing_subscriber::EnvFilter::try_new(&filter)
            .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("info")),
    );
    match config.log_format {
        // Colour codes only for a terminal: a journal or a file shows them as `#033[`.
        LogFormat::Text => log.with_ansi(std::io::stdout().is_terminal()).init(),
        LogFormat::Json => log.json().with_ansi(false).init(),
    }
    let runtime = serve_runtime().map_err(|e| format!("cannot start: {e}"))?;
    runtime
        .block_on(kaboom_discord::bot::serve(config))
        .map_err(|e| e.to_string())
}

/// `kaboom copy-db`: opens both databases (each brought up to date by its migrations) and
/// copies `from` (SQLite) into `to` (PostgreSQL); returns one line per table and a total.
/// A `from` file that does not exist is refused (opening it would create an empty one).
fn copy_db(from: &str, to: &str) -> Result<Vec<String>, String> {
    use kaboom_store::{Db, copy};
    let path = from
        .strip_prefix("sqlite://")
        .or_else(|| from.strip_prefix("sqlite:"))
        .ok_or_else(|| copy::CopyError::Engines.to_string())?;
    let path = path.split('?').next().unwrap_or(path);
    if !std::path::Path::new(path).is_file() {
        return Err(format!(
            "{path} does not exist: --from names the SQLite file `kaboom serve` used (DATABASE_URL, default sqlite://kaboom.db)"
        ));
    }
    if !(to.starts_with("postgres://") || to.starts_with("postgresql://")) {
        return Err(copy::CopyError::Engines.to_string());
    }
    let runtime = tokio::runtime::Runtime::new().map_err(|e| format!("cannot start: {e}"))?;
    runtime.block_on(async {
        let source = Db::connect(from).await.map_err(|e| format!("--from: {e}"))?;
        let target = Db::connect(to).await.map_err(|e| format!("--to: {e}"))?;
        let report = copy::sqlite_to_postgres(&source, &target)
            .await
            .map_err(|e| e.to_string())?;
        let mut lines: Vec<String> = report
            .tables
            .iter()
            .map(|(table, rows)| format!("{table}: {rows} rows"))
            .collect();
        let total: u64 = report.tables.iter().map(|(_, n)| n).sum();
        lines.push(format!(
            "copied {total} rows in {} tables; point DATABASE_URL at the PostgreSQL database and start kaboom serve",
            report.tables.len()
        ));
        Ok(lines)
    })
}

/// Writes one line of output. A closed pipe (`kaboom moves ... | head`) is not an error:
/// the reader has what it wanted, so the rest is dropped instead of panicking.
fn emit(text: &str) {
    use std::io::Write;
    let mut out = std::io::stdout().lock();
    let _ = writeln!(out, "{text}").and_then(|()| out.flush());
}

/// Prints `e` as `kaboom<context>: e` and fails.
fn fail(context: &str, e: impl std::fmt::Display) -> ExitCode {
    eprintln!("kaboom{context}: {e}");
    ExitCode::FAILURE
}

/// The outcome of an analysis or render subcommand.
fn done(result: Result<(), analysis::CliError>) -> ExitCode {
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => fail("", e),
    }
}

/// `kaboom puzzles generate --database`: the puzzles in `url`'s finished games of
/// `variant`, added to it; returns them.
fn puzzles_from_database(
    url: &str,
    variant: Variant,
    target: usize,
) -> Result<Vec<kaboom_engine::puzzle::Puzzle>, String> {
    let runtime = tokio::runtime::Runtime::new().map_err(|e| format!("cannot start: {e}"))?;
    runtime.block_on(async {
        let db = kaboom_store::Db::connect(url)
            .await
            .map_err(|e| format!("--database: {e}"))?;
        let ids = kaboom_store::games::finished_ids(&db, variant)
            .await
            .map_err(|e| e.to_string())?;
        let mut games = Vec::new();
        for id in ids {
            if let Ok(Some((_, record))) = kaboom_store::games::load_record(&db, id).await
                && let Ok(game) = kaboom_rules::AnyGame::from_record(&record)
            {
                games.push(game);
            }
        }
        let found =
            tokio::task::spawn_blocking(move || cli::puzzles::from_games(&games, variant, target))
                .await
                .map_err(|e| e.to_string())?
                .puzzles;
        let services = kaboom_service::Services::new(
            db.clone(),
            std::sync::Arc::new(kaboom_domain::clock::SystemClock),
            std::sync::Arc::new(kaboom_service::painter::RendererPainter),
        );
        let stored: Vec<_> = found
            .iter()
            .map(|p| {
                (
                    kaboom_service::puzzles::to_stored(p),
                    kaboom_store::puzzles::Source::Games,
                )
            })
            .collect();
        let added = services
            .puzzles()
            .add(&stored)
            .await
            .map_err(|e| e.to_string())?;
        eprintln!("added {added} new puzzles to the database");
        db.close().await;
        Ok(found)
    })
}

fn main() -> ExitCode {
    // `.env` first, so that the flags read from the environment see its lines. A malformed
    // file matters only to the subcommands that read settings from it.
    let dotenv = kaboom_discord::config::load_dotenv();
    let command = match Cli::parse().command {
        Some(command) => command,
        None => Command::Serve(ServeOnly::parse().args),
    };
    let settings =
        |context: &str, dotenv: Result<(), ConfigError>| dotenv.map_err(|e| fail(context, e));
    match command {
        Command::Serve(args) => {
            if let Err(failed) = settings("", dotenv) {
                return failed;
            }
            match serve(args) {
                Ok(()) => ExitCode::SUCCESS,
                Err(e) => fail("", e),
            }
        }
        Command::InviteUrl { application_id } => {
            if let Err(failed) = settings(" invite-url", dotenv) {
                return failed;
            }
            let id =
                cli::invite::application_id(application_id.as_deref(), |k| std::env::var(k).ok());
            match id {
                Ok(id) => {
                    emit(&cli::invite::invite_url(id));
                    emit(&cli::invite::user_install_url(id));
                    ExitCode::SUCCESS
                }
                Err(e) => fail(" invite-url", e),
            }
        }
        Command::Demo { out, variants } => demo(&out, &variants),
        Command::CopyDb { from, to } => match copy_db(&from, &to) {
            Ok(lines) => {
                for line in lines {
                    emit(&line);
                }
                ExitCode::SUCCESS
            }
            Err(e) => fail(" copy-db", e),
        },
        Command::Puzzles { command } => match command {
            PuzzlesCommand::Generate {
                variant,
                seed,
                target,
                games,
                database,
            } => {
                let found = match database {
                    Some(url) => match puzzles_from_database(&url, variant, target) {
                        Ok(found) => found,
                        Err(e) => return fail(" puzzles generate", e),
                    },
                    None => {
                        let report = cli::puzzles::generate(&cli::puzzles::GenerateRequest {
                            variant,
                            seed,
                            target,
                            games,
                        });
                        eprintln!("{}", cli::puzzles::summary(&report));
                        report.puzzles
                    }
                };
                for p in &found {
                    emit(&p.to_json_line());
                }
                ExitCode::SUCCESS
            }
            PuzzlesCommand::Export { variant } => match kaboom_service::puzzles::shipped(variant) {
                Ok(set) => {
                    for p in &set {
                        emit(&p.to_json_line());
                    }
                    ExitCode::SUCCESS
                }
                Err(e) => fail(" puzzles export", e),
            },
        },
        Command::Perft { setup, depth } => done(
            analysis::perft(&setup.setup(), depth).map(|nodes| emit(&format!("nodes {nodes}"))),
        ),
        Command::Moves {
            setup,
            moves,
            viewer,
        } => {
            done(analysis::moves(&setup.setup(), moves.as_deref(), viewer).map(|m| emit(&json(&m))))
        }
        Command::Replay {
            setup,
            moves,
            legal_each,
            viewer,
        } => done(
            analysis::replay(&setup.setup(), &moves, legal_each, viewer).map(|r| emit(&json(&r))),
        ),
        Command::Analyse {
            setup,
            moves,
            viewer,
            depth,
            nodes,
            movetime,
        } => done(
            cli::analyse::analyse(
                &setup.setup(),
                moves.as_deref(),
                viewer,
                cli::analyse::Budget {
                    depth,
                    nodes,
                    movetime_ms: movetime,
                },
            )
            .map(|a| emit(&json(&a))),
        ),
        Command::AnalyseGame {
            setup,
            moves,
            pgn,
            nodes,
        } => {
            let movetext = match (moves, pgn) {
                (Some(moves), _) => Ok(moves),
                (None, Some(path)) => std::fs::read_to_string(&path)
                    .map(|text| cli::review::pgn_movetext(&text))
                    .map_err(|e| cli::analysis::CliError(format!("--pgn {}: {e}", path.display()))),
                (None, None) => Err(cli::analysis::CliError(
                    "give the game with --moves or --pgn".into(),
                )),
            };
            done(movetext.and_then(|text| {
                cli::review::analyse_game(&setup.setup(), &text, nodes).map(|r| emit(&json(&r)))
            }))
        }
        Command::Render {
            setup,
            moves,
            viewer,
            size,
            output,
        } => match cli::render::render(&cli::render::RenderRequest {
            setup: setup.setup(),
            moves,
            viewer,
            size,
            output: output.clone(),
        }) {
            // Say where the picture went: a relative path is resolved against the
            // directory the command ran in.
            Ok(()) => {
                let shown = std::path::absolute(&output).unwrap_or(output);
                emit(&format!("wrote {}", shown.display()));
                ExitCode::SUCCESS
            }
            Err(e) => fail("", e),
        },
        Command::Pair { system, trf } => match cli::pairing::pair_file(&trf, system) {
            Ok(pairings) => {
                emit(pairings.trim_end());
                ExitCode::SUCCESS
            }
            Err(e) => fail(" pair", e),
        },
        Command::Standings { trf, tie_breaks } => {
            match cli::pairing::standings_file(&trf, tie_breaks) {
                Ok(json) => {
                    emit(&json);
                    ExitCode::SUCCESS
                }
                Err(e) => fail(" standings", e),
            }
        }
    }
}

/// `kaboom demo`: runs the `kaboom-demo` program that is built beside this one (the
/// workspace's `kaboom-testkit` package), so that the fake Discord it plays against is
/// not part of the bot that hosts run.
fn demo(out: &std::path::Path, variants: &[Variant]) -> ExitCode {
    let program = std::env::current_exe()
        .map(|exe| exe.with_file_name(format!("kaboom-demo{}", std::env::consts::EXE_SUFFIX)));
    let program = match program {
        Ok(program) if program.is_file() => program,
        _ => {
            eprintln!(
                "kaboom demo: the demo program `kaboom-demo` is not beside this binary; \
                 build the whole workspace (`cargo build --release`) and run \
                 ./target/release/kaboom demo again"
            );
            return ExitCode::FAILURE;
        }
    };
    let mut command = std::process::Command::new(&program);
    command.arg("--out").arg(out);
    for variant in variants {
        command.arg("--variant").arg(variant.to_string());
    }
    match command.status() {
        Ok(status) if status.success() => ExitCode::SUCCESS,
        Ok(_) => ExitCode::FAILURE,
        Err(e) => {
            eprintln!("kaboom demo: cannot run {}: {e}", program.display());
            ExitCode::FAILURE
        }
    }
}
