//! The kill loop: the real `kaboom serve` process against the `fake-discord`
//! program, SIGKILLed at random points of a stream of challenges, accepts and moves in
//! several games at once, and restarted on the same database each time, as a crashing host
//! would. The fake is Discord: it lives through every kill, and enforces Discord's global
//! limit of 50 requests a second, which a bot restarted at once meets at its start.
//!
//! After the loop, with the bot running again and its outbox drained:
//! - every acknowledged action ("Played ..." reached the player) is in the database at the
//!   ply it was played;
//! - every stored game replays from its actions to its stored state;
//! - every game has exactly one thread, and every committed ply's board is posted in it
//!   exactly once (the opening board and one per ply: no gap, no duplicate), each the
//!   message its outbox entry recorded;
//! - no outbox entry was given up, and play continues.
//!
//! Nudges are not exercised here: the bot process runs on the wall clock, and the
//! scheduler's at-most-once nudges are covered by `scheduler` and `scheduler_discord`.
//!
//! The randomness (which action, when to kill) is seeded by `KABOOM_KILL_LOOP_SEED` (default
//! 17) and printed, so a failure can be replayed. `KABOOM_KILL_LOOP_KILLS` sets the number
//! of kills (default [`KILLS`]; the ignored long run, [`LONG_KILLS`]).

use std::collections::{BTreeMap, HashMap};
use std::path::Path;
use std::time::Duration;

use kaboom_domain::ids::{GameId, UserId};
use kaboom_rules::{AnyGame, Color, Viewer};
use kaboom_store::{Db, games, outbox};
use serde_json::{Value, json};

use super::process::{Control, Processes, WAIT_MS, start_bot, start_fake_with};

/// Kills in the suite's run (at least 20 are wanted; with 40, a board posted twice
/// after a kill between Discord's answer and its record was caught on every seed tried).
const KILLS: usize = 40;
/// Kills in the long run (`cargo test -p kaboom --test it kill_loop -- --ignored`).
const LONG_KILLS: usize = 300;
/// The pairs of players; each pair plays one game at a time.
const PAIRS: [(u64, u64); 3] = [(2001, 2002), (2003, 2004), (2005, 2006)];
/// The variants the pairs play, in turn (`/challenge variant:` choice index and name):
/// the ones without hidden carriers, whose menus arrive by DM.
const VARIANTS: [(u64, &str); 3] = [(0, "Atomic"), (3, "Bomberman Chess"), (4, "Bombalot")];
/// The first guess of how long a step takes until its answer (milliseconds); the loop
/// then keeps a running average of the steps it does not cut short.
const FIRST_STEP_MS: u64 = 100;

/// The bot process and the count of IDENTIFYs before it started.
struct Bot {
    processes: Processes,
    restarts: usize,
}

impl Bot {
    /// SIGKILLs the bot (`Child::kill` sends SIGKILL on Unix) and starts it again on the
    /// same database; returns when the new process has identified on the gateway.
    async fn kill_and_restart(&mut self, control: &Control, dir: &Path) {
        let (name, mut child) = self.processes.0.pop().expect("the bot runs");
        assert_eq!(name, "kaboom serve");
        let before = control.identified_sessions().await;
        child.kill().expect("SIGKILL the bot");
        child.wait().expect("the killed bot is reaped");
        self.processes
            .0
            .push(("kaboom serve", start_bot(dir, &control.base)));
        self.restarts += 1;
        control.ready_after(before).await;
    }
}

/// One step of the stream: what was sent, and by whom.
enum Step {
    Challenge,
    Accept {
        challenge_id: i64,
    },
    Move {
        game: GameId,
        ply: usize,
        san: String,
    },
    Other {
        name: &'static str,
    },
}

fn mentions_played(answer: &Value) -> bool {
    answer["content"]
        .as_str()
        .is_some_and(|c| c.starts_with("Played"))
}

/// The seeded random source of the loop.
fn seed() -> u64 {
    std::env::var("KABOOM_KILL_LOOP_SEED")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(17)
}

fn kills_wanted() -> Option<usize> {
    std::env::var("KABOOM_KILL_LOOP_KILLS")
        .ok()
        .and_then(|s| s.parse().ok())
}

/// The game `pair` plays now, if any (the newest unfinished one).
async fn current_game(db: &Db, pair: (u64, u64)) -> Option<games::GameRow> {
    let mut mine: Vec<games::GameRow> = games::active_for(db, UserId::from(pair.0))
        .await
        .expect("active games")
        .into_iter()
        .filter(|g| g.white_id == UserId::from(pair.1) || g.black_id == UserId::from(pair.1))
        .collect();
    mine.sort_by_key(|g| g.id);
    mine.pop()
}

/// The stored game `row`, replayed by the rules library.
async fn replay(db: &Db, row: &games::GameRow) -> AnyGame {
    let actions = games::actions(db, row.id).await.expect("actions");
    AnyGame::from_record(&games::record(row, actions))
        .unwrap_or_else(|e| panic!("game {} does not replay: {e}", row.id))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_board_is_posted_exactly_once_through_forty_sigkills() {
    kill_loop(kills_wanted().unwrap_or(KILLS)).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "the long kill loop (about a minute): run it with --ignored"]
async fn every_board_is_posted_exactly_once_through_three_hundred_sigkills() {
    kill_loop(kills_wanted().unwrap_or(LONG_KILLS)).await;
}

async fn kill_loop(kills_wanted: usize) {
    let seed = seed();
    eprintln!("kill loop: seed {seed} (KABOOM_KILL_LOOP_SEED), {kills_wanted} kills");
    let mut rng = fastrand::Rng::with_seed(seed);

    let mut processes = Processes(Vec::new());
    // With Discord's global limit of 50 requests a second (the fake's default): a bot
    // started again at once meets the 429s of the posts just before its kill. Its start-up
    // requests (the token, the command registration, the gateway's URL) once died of them,
    // and the bot served nothing; they are retried now (`respond::STARTUP`).
    let base = start_fake_with(&mut processes, &[]);
    let dir = tempfile::tempdir().unwrap();
    let control = Control::new(base.clone());
    processes
        .0
        .push(("kaboom serve", start_bot(dir.path(), &base)));
    let mut bot = Bot {
        processes,
        restarts: 0,
    };
    let channel = control.bot_ready().await;
    control
        .add_players(PAIRS.iter().flat_map(|&(a, b)| [a, b]))
        .await;
    let url = format!("sqlite://{}", dir.path().join("kaboom.db").display());
    let db = Db::connect(&url).await.expect("the bot's database opens");

    // (game, ply) -> the action acknowledged to the player at that ply.
    let mut acknowledged: BTreeMap<(GameId, usize), String> = BTreeMap::new();
    // The open challenge of each pair (id, message) waiting to be accepted.
    let mut open: HashMap<usize, (i64, String)> = HashMap::new();
    let mut next_variant = 0usize;
    let mut kills = 0usize;
    let mut steps = 0usize;
    let mut step_ms = FIRST_STEP_MS;

    while kills < kills_wanted {
        steps += 1;
        assert!(
            steps < 20 * kills_wanted + 100,
            "the loop does not progress: {kills} kills in {steps} steps"
        );
        let p = rng.usize(..PAIRS.len());
        let pair = PAIRS[p];
        // What this pair does next.
        let (step, sent) = match (current_game(&db, pair).await, open.get(&p).cloned()) {
            (Some(row), _) => {
                open.remove(&p);
                let game = replay(&db, &row).await;
                let legal = game.legal_actions(Viewer::Full);
                assert!(!legal.is_empty(), "game {} has no legal action", row.id);
                // Half the time an action that removes pieces, when there is one: games
                // then end within the loop, and new challenges and accepts are killed too.
                let explosive: Vec<_> = legal.iter().filter(|a| !a.removed.is_empty()).collect();
                let san = if !explosive.is_empty() && rng.bool() {
                    explosive[rng.usize(..explosive.len())].san.clone()
                } else {
                    legal[rng.usize(..legal.len())].san.clone()
                };
                let mover = match game.turn() {
                    Color::White => row.white_id,
                    Color::Black => row.black_id,
                };
                let (where_, mut options) = match row.thread_id {
                    Some(thread) => (thread.to_string(), vec![]),
                    None => (
                        channel.clone(),
                        vec![json!({ "name": "game", "type": 3, "value": row.id.to_string() })],
                    ),
                };
                // Now and then the mover offers (or accepts) a draw, or resigns instead:
                // announcements and endings are killed too.
                let roll = rng.u32(..40);
                if roll == 0 {
                    // `/resign` only asks (nothing to kill there); the "Yes, resign"
                    // click that resigns is the step.
                    let question = control
                        .command(u64::from(mover), &where_, "resign", Value::Array(options))
                        .await;
                    let sent = control
                        .send_press(u64::from(mover), &question, "kb:resignyes:")
                        .await;
                    (Step::Other { name: "resign" }, sent)
                } else if roll < 3 {
                    let sent = control
                        .send_command(u64::from(mover), &where_, "draw", Value::Array(options))
                        .await;
                    (Step::Other { name: "draw" }, sent)
                } else {
                    options.push(json!({ "name": "action", "type": 3, "value": san }));
                    // Played at once (no explosion preview).
                    options.push(json!({ "name": "preview", "type": 5, "value": false }));
                    let sent = control
                        .send_command(u64::from(mover), &where_, "move", Value::Array(options))
                        .await;
                    let ply = game.ply_count() + 1;
                    (
                        Step::Move {
                            game: row.id,
                            ply,
                            san,
                        },
                        sent,
                    )
                }
            }
            (None, Some((challenge_id, message_id))) => {
                let sent = control
                    .post(
                        "/interactions/button",
                        json!({ "user_id": pair.1, "message_id": message_id,
                                "custom_id": format!("kb:accept:{challenge_id}") }),
                    )
                    .await;
                (Step::Accept { challenge_id }, sent)
            }
            (None, None) => {
                let (choice, _) = VARIANTS[next_variant % VARIANTS.len()];
                next_variant += 1;
                let sent = control
                    .send_command(
                        pair.0,
                        &channel,
                        "challenge",
                        json!([
                            { "name": "variant", "type": 4, "value": choice },
                            { "name": "opponent", "type": 6, "value": pair.1.to_string() },
                            { "name": "color", "type": 4, "value": 0 },
                        ]),
                    )
                    .await;
                (Step::Challenge, sent)
            }
        };

        // About one step in three is cut short by a SIGKILL at a random moment of its
        // usual course (from the interaction's arrival to its answer, which comes after the
        // commit and the board's post): between the commit and the post is the window
        // that must not lose or double a board.
        let killed = rng.u32(..3) == 0;
        let started = std::time::Instant::now();
        let answer = if killed {
            tokio::time::sleep(Duration::from_millis(rng.u64(..=step_ms))).await;
            bot.kill_and_restart(&control, dir.path()).await;
            kills += 1;
            // Whatever reached the player before the kill.
            control
                .responses(&sent)
                .await
                .into_iter()
                .find(|r| r["content"].as_str().is_some_and(|c| !c.is_empty()))
        } else {
            let answer = control.answer(&sent).await;
            let took = u64::try_from(started.elapsed().as_millis()).unwrap_or(u64::MAX);
            step_ms = (step_ms * 3 + took) / 4;
            Some(answer)
        };

        match step {
            Step::Move { game, ply, san } => {
                if answer.as_ref().is_some_and(mentions_played) {
                    acknowledged.insert((game, ply), san);
                } else if !killed {
                    panic!("move {san} at ply {ply} of game {game} was not played");
                }
            }
            Step::Challenge => {
                let Some(answer) = answer else { continue };
                let message = answer["message_id"].as_str();
                let accept = answer["custom_ids"].as_array().and_then(|ids| {
                    ids.iter()
                        .filter_map(Value::as_str)
                        .find_map(|id| id.strip_prefix("kb:accept:"))
                        .and_then(|id| id.parse::<i64>().ok())
                });
                match (message, accept) {
                    (Some(message), Some(id)) => {
                        open.insert(p, (id, message.to_string()));
                    }
                    _ if killed => {}
                    _ => panic!("no challenge with an Accept button: {answer}"),
                }
            }
            Step::Other { name } => {
                if !killed {
                    let answer = answer.unwrap();
                    assert!(
                        answer["content"].as_str().is_some_and(|c| !c.is_empty()),
                        "/{name}: {answer}"
                    );
                }
            }
            Step::Accept { challenge_id } => {
                if !killed {
                    let answer = answer.unwrap();
                    let content = answer["content"].as_str().unwrap_or_default();
                    assert!(
                        content.contains("Game on"),
                        "accept {challenge_id}: {answer}"
                    );
                }
                // Accepted or not, a pair never clicks twice: a lost accept that did not
                // commit leaves the challenge open, and the pair challenges again.
                open.remove(&p);
            }
        }
    }
    eprintln!(
        "kill loop: {kills} kills in {steps} steps, {} acknowledged moves, a step took {step_ms} ms",
        acknowledged.len()
    );

    // Let the restarted bot deliver what the kills left behind.
    let drained = tokio::time::timeout(Duration::from_millis(WAIT_MS * 2), async {
        loop {
            if outbox::pending(&db).await.unwrap().is_empty() {
                break;
            }
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
    })
    .await;
    assert!(
        drained.is_ok(),
        "the outbox is not drained: {:?}",
        outbox::pending(&db).await.unwrap()
    );

    // Every game the stream made, from the database.
    let mut all_games = Vec::new();
    for id in 1.. {
        match games::get(&db, GameId::from(id)).await.unwrap() {
            Some(row) => all_games.push(row),
            None => break,
        }
    }
    assert!(
        all_games.len() >= PAIRS.len(),
        "only {} games were started",
        all_games.len()
    );
    eprintln!(
        "kill loop: {} games, {} finished",
        all_games.len(),
        all_games
            .iter()
            .filter(|g| g.state == games::GameState::Finished)
            .count()
    );

    // Every acknowledged action is stored at its ply.
    for ((game, ply), san) in &acknowledged {
        let actions = games::actions(&db, *game).await.unwrap();
        assert_eq!(
            actions.get(ply - 1),
            Some(san),
            "game {game} ply {ply}: acknowledged {san}, stored {actions:?}"
        );
    }

    // Exactly one thread per game: the fake's threads are the games' recorded threads.
    let threads = control.get("/threads").await;
    let mut thread_ids: Vec<String> = threads["threads"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["id"].as_str().unwrap().to_string())
        .collect();
    let mut recorded_threads: Vec<String> = all_games
        .iter()
        .filter_map(|g| g.thread_id.map(|t| t.to_string()))
        .collect();
    thread_ids.sort();
    recorded_threads.sort();
    assert_eq!(
        thread_ids, recorded_threads,
        "threads in Discord vs recorded on games"
    );
    for row in &all_games {
        // The game replays to its stored state.
        let game = replay(&db, row).await;
        assert_eq!(
            game.ply_count(),
            usize::try_from(row.ply).unwrap(),
            "game {}",
            row.id
        );
        assert_eq!(game.fen(Viewer::Full), row.state_fen, "game {}", row.id);

        // A thread, recorded on the game (that it is the only one is checked below).
        let thread = row
            .thread_id
            .unwrap_or_else(|| panic!("game {} has no thread", row.id));

        // The boards in the thread: the opening board and one per ply, each once.
        let messages = control.get(&format!("/channels/{thread}/messages")).await;
        let boards: Vec<String> = messages["messages"]
            .as_array()
            .unwrap()
            .iter()
            // Boards are PNGs (a finished game's replay GIF is not a board).
            .filter(|m| {
                m["ephemeral"] == false
                    && m["attachments"]
                        .as_array()
                        .unwrap()
                        .iter()
                        .any(|a| a["filename"].as_str().unwrap_or("").ends_with(".png"))
            })
            .map(|m| m["id"].as_str().unwrap().to_string())
            .collect();
        let entries = outbox::for_game(&db, row.id).await.unwrap();
        let mut plies: BTreeMap<i64, usize> = BTreeMap::new();
        let mut recorded = Vec::new();
        for e in entries.iter().filter(|e| e.kind == "board") {
            let payload: Value = serde_json::from_str(&e.payload).unwrap();
            *plies.entry(payload["ply"].as_i64().unwrap()).or_default() += 1;
            let message = e
                .message_id
                .unwrap_or_else(|| panic!("game {} board entry {} not posted", row.id, e.id));
            recorded.push(message.to_string());
        }
        // One board per ply from the opening one; a game ended by a resignation or an
        // agreed draw adds the final board at its last ply.
        let expected: Vec<i64> = (0..=row.ply).collect();
        assert_eq!(
            plies.keys().copied().collect::<Vec<_>>(),
            expected,
            "game {}: board entries by ply",
            row.id
        );
        for (ply, count) in &plies {
            let most = if *ply == row.ply && row.state == games::GameState::Finished {
                2
            } else {
                1
            };
            assert!(
                *count <= most,
                "game {} ply {ply}: {count} board entries",
                row.id
            );
        }
        let mut in_thread = boards.clone();
        recorded.sort();
        in_thread.sort();
        assert_eq!(
            in_thread, recorded,
            "game {}: the thread's boards are exactly the recorded ones, each once",
            row.id
        );

        // Announcements (draw offers and answers): each recorded one posted once, and no
        // other text from the bot in the thread.
        let bot_user = control.get("/info").await["bot_user_id"].clone();
        let mut texts: Vec<String> = messages["messages"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|m| {
                m["author_id"] == bot_user
                    && m["interaction_id"].is_null()
                    && m["attachments"].as_array().unwrap().is_empty()
            })
            .map(|m| m["id"].as_str().unwrap().to_string())
            .collect();
        let mut announced: Vec<String> = entries
            .iter()
            .filter(|e| e.kind == "announcement")
            .map(|e| {
                e.message_id
                    .unwrap_or_else(|| panic!("game {} entry {} not posted", row.id, e.id))
                    .to_string()
            })
            .collect();
        texts.sort();
        announced.sort();
        assert_eq!(
            texts, announced,
            "game {}: announcements in the thread",
            row.id
        );
    }
    let given_up: Vec<_> = all_games.iter().map(|g| g.id).collect::<Vec<_>>();
    for id in given_up {
        for e in outbox::for_game(&db, id).await.unwrap() {
            assert!(e.failed_at.is_none(), "entry given up: {e:?}");
        }
    }

    // Play continues: one more move in a running game is played and posted.
    if let Some(row) = all_games
        .iter()
        .rev()
        .find(|g| g.state != games::GameState::Finished)
    {
        let game = replay(&db, row).await;
        let san = game.legal_actions(Viewer::Full)[0].san.clone();
        let mover = match game.turn() {
            Color::White => row.white_id,
            Color::Black => row.black_id,
        };
        let thread = row.thread_id.unwrap().to_string();
        let answer = control
            .command(
                u64::from(mover),
                &thread,
                "move",
                json!([{ "name": "action", "type": 3, "value": san },
                       { "name": "preview", "type": 5, "value": false }]),
            )
            .await;
        assert!(mentions_played(&answer), "after the loop: {answer}");
    }
    assert!(bot.restarts >= kills_wanted);
    db.close().await;
}
