//! The faults test: the real `kaboom serve` process against the `fake-discord`
//! program, with about 10% of REST requests failing (429 with `retry_after`, per route and
//! global; 5xx before and after the work; connection resets before and after the work),
//! the gateway dropped every [`GATEWAY_EVERY`] interactions (the bot resumes and gets what
//! was dispatched meanwhile), and carrier-menu DMs refused at random (403 / 50007; one
//! player always refuses them, so the in-thread "Choose privately" fallback is used
//! whatever the seed). Seven scripted games in all five variants (Beirut and Nuke twice,
//! with their carrier menus) are played to the end by simulated players, all at once.
//!
//! As processes, because that is how a host runs the bot, and because `kaboom serve` with
//! `DISCORD_API_BASE` runs serenity without its rate limiter: every 429 reaches the bot's
//! own retries (`discord::respond` for answers, the outbox for posts).
//!
//! Checked: every interaction a player sent got an answer that is not a deferral (none
//! left silent, "saved, the board follows" counts); each move is stored once, and the
//! stored actions of every game are exactly the moves the players were told were played;
//! every game has one thread, in which every board entry was posted exactly once and no
//! message of the bot's appears that its outbox did not record; the outbox ends drained
//! with nothing given up; and each kind of fault was injected at least once.
//!
//! Seeded: `KABOOM_FAULTS_SEED` (default 17) seeds the fake's fault plan and the players'
//! choices; it is printed.

use std::collections::BTreeMap;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use kaboom_domain::ids::{GameId, UserId};
use kaboom_rules::{AnyGame, Color, Viewer};
use kaboom_store::{Db, games, outbox};
use serde_json::{Value, json};

use super::process::{Control, Processes, WAIT_MS, start_bot, start_fake};

/// The games: `/challenge variant:` choice index, name, White (the challenger), Black.
const GAMES: [(u64, &str, u64, u64); 7] = [
    (0, "Atomic", 3001, 3002),
    (1, "Beirut", 3003, 3004),
    (1, "Beirut", 3005, 3006),
    (2, "Nuke", 3007, 3008),
    (2, "Nuke", 3009, 3010),
    (3, "Bomberman Chess", 3011, 3012),
    (4, "Bombalot", 3013, 3014),
];
/// A player whose DMs are closed for good: their carrier menu is always the in-thread
/// fallback.
const REFUSES_DMS: u64 = 3004;
/// A game still running at this ply ends with the mover's `/resign`.
const MAX_PLIES: i64 = 30;
/// A gateway drop after every this many dispatched interactions.
const GATEWAY_EVERY: u64 = 25;
/// How long a player waits for an answer before calling the interaction silent (ms).
const ANSWER_MS: u64 = 20_000;

fn seed() -> u64 {
    std::env::var("KABOOM_FAULTS_SEED")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(17)
}

/// The fault plan: 10.5% of REST requests fail, each route drawing from its own stream.
fn plan(seed: u64) -> Value {
    json!({
        "seed": seed,
        "rules": [
            {"probability": 0.03, "fault": {"kind": "rate_limit", "retry_after": 0.3}},
            {"probability": 0.005, "fault": {"kind": "rate_limit", "retry_after": 0.3, "global": true}},
            {"probability": 0.02, "fault": {"kind": "status", "status": 503}},
            {"probability": 0.01, "fault": {"kind": "status", "status": 500}},
            {"probability": 0.02, "fault": {"kind": "status", "status": 502, "after": true}},
            {"probability": 0.01, "fault": {"kind": "reset"}},
            {"probability": 0.01, "fault": {"kind": "reset", "after": true}}
        ],
        "dm_refusal": 0.3,
        "gateway_every": {"interactions": GATEWAY_EVERY, "fault": {"kind": "drop"}}
    })
}

/// What the players share: the fake, the bot's database, the challenge channel, and the
/// count of interactions answered.
struct Table<'a> {
    control: &'a Control,
    db: &'a Db,
    channel: String,
    answered: AtomicUsize,
}

/// One game as its players saw it.
struct Played {
    game: GameId,
    /// The moves the players were told were played, in order.
    acknowledged: Vec<String>,
}

impl Table<'_> {
    /// The answer (not a deferral) to the interaction `sent`, which must come: a player's
    /// interaction is never left silent.
    async fn answer(&self, sent: &Value, what: &str) -> Value {
        let started = Instant::now();
        let answer = self.control.answer_within(sent, ANSWER_MS).await;
        let text = answer["content"].as_str().unwrap_or_default();
        assert!(
            !text.is_empty() || !answer["custom_ids"].as_array().is_none_or(Vec::is_empty),
            "{what}: an empty answer {answer}"
        );
        if started.elapsed() > Duration::from_secs(3) {
            eprintln!("faults: {what} answered after {:?}", started.elapsed());
        }
        self.answered.fetch_add(1, Ordering::SeqCst);
        answer
    }

    async fn row(&self, game: GameId) -> games::GameRow {
        games::get(self.db, game).await.unwrap().expect("the game")
    }

    /// Where a command about `row` is sent: its thread, else the channel with `game:`.
    fn place(&self, row: &games::GameRow) -> (String, Vec<Value>) {
        match row.thread_id {
            Some(thread) => (thread.to_string(), vec![]),
            None => (
                self.channel.clone(),
                vec![json!({ "name": "game", "type": 3, "value": row.id.to_string() })],
            ),
        }
    }

    /// The message that offers `user` their carriers in `game`: the menu by DM, or the
    /// "Choose privately" button in the thread; waits for the outbox to post it.
    async fn carrier_offer(&self, game: GameId, user: u64) -> (bool, Value) {
        let dm = self
            .control
            .post("/dm-channels", json!({ "user_id": user }))
            .await["id"]
            .as_str()
            .unwrap()
            .to_string();
        let menu = format!("kb:carriers:{game}");
        let choose = format!("kb:choose:{game}");
        let deadline = Instant::now() + Duration::from_millis(WAIT_MS);
        while Instant::now() < deadline {
            let has = |m: &Value, id: &str| {
                m["custom_ids"]
                    .as_array()
                    .is_some_and(|ids| ids.iter().any(|i| i == id))
            };
            let in_dm = self.control.get(&format!("/channels/{dm}/messages")).await;
            if let Some(m) = in_dm["messages"]
                .as_array()
                .unwrap()
                .iter()
                .find(|m| has(m, &menu))
            {
                return (true, m.clone());
            }
            if let Some(thread) = self.row(game).await.thread_id {
                let in_thread = self
                    .control
                    .get(&format!("/channels/{thread}/messages"))
                    .await;
                let mention = format!("<@{user}>");
                if let Some(m) = in_thread["messages"].as_array().unwrap().iter().find(|m| {
                    has(m, &choose) && m["content"].as_str().unwrap_or("").contains(&mention)
                }) {
                    return (false, m.clone());
                }
            }
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
        panic!("game {game}: no carrier menu for {user} by DM or in the thread");
    }

    /// `user` picks the first carriers offered by the menu in message `message_id`.
    async fn pick_carriers(&self, game: GameId, user: u64, message_id: &str) {
        let message = self.control.get(&format!("/messages/{message_id}")).await;
        let select = &message["message"]["components"][0]["components"][0];
        let n = select["min_values"].as_u64().unwrap_or(1) as usize;
        let values: Vec<Value> = select["options"]
            .as_array()
            .expect("the menu's options")
            .iter()
            .take(n)
            .map(|o| o["value"].clone())
            .collect();
        let sent = self
            .control
            .post(
                "/interactions/select",
                json!({ "user_id": user, "message_id": message_id,
                        "custom_id": format!("kb:carriers:{game}"), "values": values }),
            )
            .await;
        let answer = self.answer(&sent, "carrier choice").await;
        let text = answer["content"].as_str().unwrap_or_default();
        assert!(text.contains("Your carrier"), "game {game}: {answer}");
    }

    /// Plays game `index` of [`GAMES`] from the challenge to its end.
    async fn play(&self, index: usize, seed: u64) -> Played {
        let (choice, name, white, black) = GAMES[index];
        let mut rng = fastrand::Rng::with_seed(seed.wrapping_mul(31).wrapping_add(index as u64));
        let sent = self
            .control
            .send_command(
                white,
                &self.channel,
                "challenge",
                json!([
                    { "name": "variant", "type": 4, "value": choice },
                    { "name": "opponent", "type": 6, "value": black.to_string() },
                    { "name": "color", "type": 4, "value": 0 },
                ]),
            )
            .await;
        let answer = self.answer(&sent, "challenge").await;
        let challenge_id = answer["custom_ids"]
            .as_array()
            .and_then(|ids| {
                ids.iter()
                    .filter_map(Value::as_str)
                    .find_map(|id| id.strip_prefix("kb:accept:"))
                    .and_then(|id| id.parse::<i64>().ok())
            })
            .unwrap_or_else(|| panic!("{name}: no Accept button: {answer}"));
        let message = answer["message_id"]
            .as_str()
            .expect("the challenge message");
        let sent = self
            .control
            .post(
                "/interactions/button",
                json!({ "user_id": black, "message_id": message,
                        "custom_id": format!("kb:accept:{challenge_id}") }),
            )
            .await;
        let answer = self.answer(&sent, "accept").await;
        assert!(
            answer["content"]
                .as_str()
                .is_some_and(|c| c.starts_with("Game on")),
            "{name}: accept: {answer}"
        );
        let mut mine = games::active_for(self.db, UserId::from(white))
            .await
            .unwrap();
        mine.retain(|g| g.black_id == UserId::from(black));
        let game = mine.pop().expect("the accepted game").id;

        if matches!(choice, 1 | 2) {
            for user in [white, black] {
                let (by_dm, offer) = self.carrier_offer(game, user).await;
                let menu_message = if by_dm {
                    offer["id"].as_str().unwrap().to_string()
                } else {
                    let sent = self
                        .control
                        .post(
                            "/interactions/button",
                            json!({ "user_id": user, "message_id": offer["id"],
                                    "custom_id": format!("kb:choose:{game}") }),
                        )
                        .await;
                    let answer = self.answer(&sent, "choose privately").await;
                    answer["message_id"]
                        .as_str()
                        .expect("the private menu's message")
                        .to_string()
                };
                self.pick_carriers(game, user, &menu_message).await;
            }
        }

        let mut acknowledged = Vec::new();
        loop {
            let row = self.row(game).await;
            if row.state == games::GameState::Finished {
                break;
            }
            let record = AnyGame::from_record(&games::record(
                &row,
                games::actions(self.db, game).await.unwrap(),
            ))
            .unwrap();
            let mover = match record.turn() {
                Color::White => row.white_id,
                Color::Black => row.black_id,
            };
            let (place, mut options) = self.place(&row);
            if row.ply >= MAX_PLIES {
                // `/resign` asks first; its "Yes, resign" button resigns.
                let sent = self
                    .control
                    .send_command(u64::from(mover), &place, "resign", Value::Array(options))
                    .await;
                let question = self.answer(&sent, "resign").await;
                let sent = self
                    .control
                    .send_press(u64::from(mover), &question, "kb:resignyes:")
                    .await;
                let answer = self.answer(&sent, "resign: yes").await;
                assert!(
                    answer["content"]
                        .as_str()
                        .is_some_and(|c| c.contains("is over")),
                    "{name}: resign: {answer}"
                );
                continue;
            }
            // Mostly actions that remove pieces, so that games end by the rules.
            let legal = record.legal_actions(Viewer::Full);
            let explosive: Vec<_> = legal.iter().filter(|a| !a.removed.is_empty()).collect();
            let san = if !explosive.is_empty() && rng.u32(..4) != 0 {
                explosive[rng.usize(..explosive.len())].san.clone()
            } else {
                legal[rng.usize(..legal.len())].san.clone()
            };
            options.push(json!({ "name": "action", "type": 3, "value": san }));
            // Played at once (no explosion preview).
            options.push(json!({ "name": "preview", "type": 5, "value": false }));
            let sent = self
                .control
                .send_command(u64::from(mover), &place, "move", Value::Array(options))
                .await;
            let answer = self.answer(&sent, "move").await;
            assert!(
                answer["content"]
                    .as_str()
                    .is_some_and(|c| c.starts_with("Played")),
                "{name} game {game}: {san} at ply {}: {answer}",
                row.ply + 1
            );
            acknowledged.push(san);
        }
        Played { game, acknowledged }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn games_in_all_five_variants_finish_through_rest_and_gateway_faults() {
    let seed = seed();
    eprintln!("faults: seed {seed} (KABOOM_FAULTS_SEED)");
    let started = Instant::now();
    let mut processes = Processes(Vec::new());
    let base = start_fake(&mut processes);
    let dir = tempfile::tempdir().unwrap();
    let control = Control::new(base.clone());
    processes
        .0
        .push(("kaboom serve", start_bot(dir.path(), &base)));
    let channel = control.bot_ready().await;
    control
        .add_players(
            GAMES
                .iter()
                .flat_map(|&(_, _, white, black)| [white, black]),
        )
        .await;
    control
        .post(
            &format!("/users/{REFUSES_DMS}/dms"),
            json!({ "refuse": true }),
        )
        .await;
    // The faults start once the bot is up (a failed start-up is `serve_process`'s
    // business).
    control.put("/faults", plan(seed)).await;

    let url = format!("sqlite://{}", dir.path().join("kaboom.db").display());
    let db = Db::connect(&url).await.expect("the bot's database opens");
    let table = Table {
        control: &control,
        db: &db,
        channel,
        answered: AtomicUsize::new(0),
    };
    let played =
        futures_util::future::join_all((0..GAMES.len()).map(|i| table.play(i, seed))).await;
    let faults = control.get("/faults").await;
    control
        .post("/faults/enabled", json!({ "enabled": false }))
        .await;

    // The posts the faults held back go out (retries back off up to seconds).
    let drained = tokio::time::timeout(Duration::from_millis(WAIT_MS * 2), async {
        while !outbox::pending(&db).await.unwrap().is_empty() {
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
    })
    .await;
    assert!(
        drained.is_ok(),
        "the outbox is not drained: {:?}",
        outbox::pending(&db).await.unwrap()
    );

    let bot_user = control.get("/info").await["bot_user_id"].clone();
    let mut fallbacks = 0;
    for Played { game, acknowledged } in &played {
        let row = games::get(&db, *game).await.unwrap().unwrap();
        assert_eq!(row.state, games::GameState::Finished, "game {game}");
        // Each move stored once: the stored actions are the acknowledged ones.
        let actions = games::actions(&db, *game).await.unwrap();
        assert_eq!(
            &actions, acknowledged,
            "game {game}: stored vs acknowledged"
        );
        let replayed = AnyGame::from_record(&games::record(&row, actions)).unwrap();
        assert_eq!(replayed.fen(Viewer::Full), row.state_fen, "game {game}");

        let thread = row
            .thread_id
            .unwrap_or_else(|| panic!("game {game} has no thread"));
        let messages = control.get(&format!("/channels/{thread}/messages")).await;
        let messages = messages["messages"].as_array().unwrap();
        let entries = outbox::for_game(&db, *game).await.unwrap();
        let mut recorded: BTreeMap<String, String> = BTreeMap::new();
        let mut plies: BTreeMap<i64, usize> = BTreeMap::new();
        for e in &entries {
            assert!(e.failed_at.is_none(), "entry given up: {e:?}");
            if e.kind == "board" {
                let payload: Value = serde_json::from_str(&e.payload).unwrap();
                *plies.entry(payload["ply"].as_i64().unwrap()).or_default() += 1;
                assert!(e.message_id.is_some(), "board entry {} not posted", e.id);
            }
            if let Some(m) = e.message_id {
                let before = recorded.insert(m.to_string(), e.kind.clone());
                assert!(before.is_none(), "game {game}: message {m} recorded twice");
            }
        }
        // A board for every ply from the opening one.
        assert_eq!(
            plies.keys().copied().collect::<Vec<_>>(),
            (0..=row.ply).collect::<Vec<_>>(),
            "game {game}: board entries by ply"
        );
        // Every message of the bot's in the thread (not an interaction's answer) is an
        // entry's, and every board, announcement and ending is there once.
        let posted: Vec<&str> = messages
            .iter()
            .filter(|m| m["author_id"] == bot_user && m["interaction_id"].is_null())
            .map(|m| m["id"].as_str().unwrap())
            .collect();
        // A carrier-menu entry whose in-thread offer was posted but its answer lost (a 5xx
        // after the work, a reset) is retried; if the player used that offer in between,
        // the retry finds nothing left to offer and the entry is done without a message
        // id. Such an offer is the one message of the bot's that no entry records.
        let moot_offers = entries
            .iter()
            .filter(|e| e.kind == "carrier-menu" && e.attempts > 0 && e.message_id.is_none())
            .count();
        let mut unrecorded_offers = 0;
        for id in &posted {
            let kind = recorded.get(*id);
            let content = messages
                .iter()
                .find(|m| m["id"] == *id)
                .and_then(|m| m["content"].as_str())
                .unwrap_or_default();
            if kind.is_none() && content.contains("I could not send you a direct message") {
                unrecorded_offers += 1;
                assert!(
                    unrecorded_offers <= moot_offers,
                    "game {game}: an offer {id} that no entry records: {content}"
                );
                continue;
            }
            assert!(
                kind.is_some(),
                "game {game}: message {id} in the thread is no entry's (a duplicate?): {:?}; entries {recorded:?}",
                messages
                    .iter()
                    .find(|m| m["id"] == *id)
                    .map(|m| (&m["content"], &m["message"]["nonce"]))
            );
            if kind.is_some_and(|k| k == "carrier-menu") {
                fallbacks += 1;
            }
        }
        for (id, kind) in &recorded {
            if ["board", "announcement", "game-ended"].contains(&kind.as_str()) {
                let n = posted.iter().filter(|p| *p == id).count();
                assert_eq!(n, 1, "game {game}: {kind} {id} in the thread {n} times");
            }
        }
    }

    // One thread per game.
    let threads = control.get("/threads").await["threads"]
        .as_array()
        .unwrap()
        .len();
    assert_eq!(threads, GAMES.len(), "threads");

    // The faults happened.
    let injected: Vec<String> = faults["injected"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f["fault"].as_str().unwrap().to_string())
        .collect();
    let count = |prefix: &str| injected.iter().filter(|f| f.starts_with(prefix)).count();
    let requests = control.get("/requests?since=0").await["next"]
        .as_u64()
        .unwrap_or(0);
    eprintln!(
        "faults: {} interactions answered, {requests} REST requests, injected: {} rate limits, \
         {} global, {} 5xx, {} resets, {} gateway drops, {} DM refusals; {} in-thread carrier \
         menus; {:?}",
        table.answered.load(Ordering::SeqCst),
        count("rate_limit"),
        count("global_rate_limit"),
        count("status"),
        count("reset"),
        count("drop"),
        count("dm_refusal"),
        fallbacks,
        started.elapsed()
    );
    for kind in ["rate_limit", "status", "reset", "drop"] {
        assert!(
            count(kind) > 0,
            "no {kind} fault was injected: {injected:?}"
        );
    }
    assert!(fallbacks >= 1, "the in-thread carrier menu was never used");
    db.close().await;
}

/// The in-process bot against the in-process fake, for single injected faults.
mod single {
    use kaboom_testkit::driver::{Driver, StartedGame};
    use kaboom_testkit::fixture::{ATOMIC, TestBot};

    /// Requests `method` whose path starts with `prefix`, and their statuses.
    fn statuses(d: &Driver, method: &str, prefix: &str) -> Vec<u16> {
        d.fake
            .requests()
            .into_iter()
            .filter(|r| r.method == method && r.path.starts_with(prefix))
            .map(|r| r.status)
            .collect()
    }

    kaboom_testkit::dbtest! {
        /// Discord made the deferral but its answer was lost (a 502 after the work): the repeat
        /// gets 40060 "already acknowledged", which counts as done, and the answer follows by
        /// editing the deferred response; the move is played and posted once.
        #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
        async fn a_deferral_whose_answer_was_lost_still_gets_the_answer() {
            let d = TestBot::start().await.unwrap();
            let StartedGame { thread, .. } = d.start_game(ATOMIC).await.unwrap();
            let before = statuses(&d, "POST", "/interactions").len();
            d.fake.fail_next_after("POST", "/interactions", 502, 1);
            let r = d.play(&d.alice, thread, "e4").await.unwrap();
            let text = r.content().unwrap_or_default().to_string();
            assert!(text.starts_with("Played **e4**"), "{text}");
            assert_eq!(
                statuses(&d, "POST", "/interactions")[before..],
                [502, 400],
                "the deferral, lost, then its repeat (40060)"
            );
            assert_eq!(d.boards(thread).len(), 2, "the opening board and e4's");
            d.driver.stop().await;
        }

        /// A 429 on the deferral and two 503s on the answer's edit: each is repeated, and the
        /// player gets the one answer.
        #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
        async fn rate_limited_and_failed_answers_are_repeated() {
            let d = TestBot::start().await.unwrap();
            let StartedGame { thread, .. } = d.start_game(ATOMIC).await.unwrap();
            let calls = statuses(&d, "POST", "/interactions").len();
            let edits = statuses(&d, "PATCH", "/webhooks").len();
            d.fake.fail_next("POST", "/interactions", 429, 1);
            d.fake.fail_next("PATCH", "/webhooks", 503, 2);
            let r = d.play(&d.alice, thread, "e4").await.unwrap();
            let text = r.content().unwrap_or_default().to_string();
            assert!(text.starts_with("Played **e4**"), "{text}");
            assert_eq!(statuses(&d, "POST", "/interactions")[calls..], [429, 204]);
            assert_eq!(statuses(&d, "PATCH", "/webhooks")[edits..], [503, 503, 200]);
            d.driver.stop().await;
        }

        /// A button's deferral meets a 503 and its answer a 502 after the edit was made: the
        /// clicker still gets their view.
        #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
        async fn a_button_gets_its_answer_through_failures() {
            let d = TestBot::start().await.unwrap();
            let StartedGame { game, thread, .. } = d.start_game(ATOMIC).await.unwrap();
            let board = d.boards(thread)[0].id;
            d.fake.fail_next("POST", "/interactions", 503, 1);
            d.fake.fail_next_after("PATCH", "/webhooks", 502, 1);
            let r = d
                .click(&d.alice, board, &format!("kb:view:{game}"))
                .await
                .unwrap();
            assert!(
                r.content()
                    .unwrap_or_default()
                    .contains(&format!("#{game}")),
                "{r:?}"
            );
            d.driver.stop().await;
        }
    }
}
