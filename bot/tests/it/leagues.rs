//! Server leagues end to end through the fake Discord: a league created with `/league
//! create`, players joining and leaving with the sign-up post's buttons, `/league start`,
//! rounds started by the scheduler at their deadlines, games ending by resignation, agreed
//! draw and time forfeit, a withdrawal, the standings posts (text and picture) and the final
//! standings, on both databases.

use fake_discord::{CommandOption, FakeMessage, SimUser};
use kaboom_domain::ids::GameId;
use kaboom_domain::league::{LeagueResult, LeagueStatus};
use kaboom_service::scheduler::SchedulerConfig;
use kaboom_testkit::demo::DemoError;
use kaboom_testkit::driver::Driver;
use kaboom_testkit::fixture::{ATOMIC, TestBot};

const DAY: i64 = 86_400;

type Outcome = Result<(), DemoError>;

fn fail(text: impl Into<String>) -> DemoError {
    DemoError::Step(text.into())
}

/// `/league <sub> ...` by `user` in the server's text channel: the answer's text.
async fn league(
    d: &Driver,
    user: &SimUser,
    sub: &str,
    options: Vec<CommandOption>,
) -> Result<String, DemoError> {
    let answer = d
        .cmd(
            user,
            d.fake.text_channel_id(),
            "league",
            vec![CommandOption::subcommand(sub, options)],
        )
        .await?;
    if !answer.is_ephemeral() {
        return Err(fail(format!("/league {sub} answered publicly")));
    }
    Ok(answer.content().unwrap_or_default().to_string())
}

/// The posts in the server's text channel that are not interaction answers, oldest first.
fn channel_posts(d: &Driver) -> Vec<FakeMessage> {
    d.fake
        .messages_in(d.fake.text_channel_id())
        .into_iter()
        .filter(|m| m.interaction_id.is_none())
        .collect()
}

/// The league's stored games of round `round`, in pairing order: (game, white, black).
async fn round_games(d: &Driver, id: i64, round: u32) -> Vec<(GameId, String, String)> {
    let row = kaboom_store::leagues::get(&d.db, id)
        .await
        .unwrap()
        .unwrap();
    let mut out = Vec::new();
    for g in row.league.games.iter().filter(|g| g.round == round) {
        let Some(game) = g.game else { continue };
        let stored = kaboom_store::games::get(&d.db, game)
            .await
            .unwrap()
            .unwrap();
        out.push((game, stored.white_name, stored.black_name));
    }
    out
}

/// `players` named `prefix1`, `prefix2`, ... with ids `base + 1`, `base + 2`, ...: start
/// number `n` is the `n`th (equal ratings keep the order of joining).
fn players(base: u64, prefix: &str, count: u64) -> Vec<SimUser> {
    (1..=count)
        .map(|n| SimUser::new(base + n, format!("{prefix}{n}")))
        .collect()
}

/// carol creates league #1 named `name` (Atomic, `format`'s choice number, 1 day per move,
/// rounds of 2 days, and `options`), `players` join in order with its post's button, and
/// carol starts it.
async fn started_league(
    d: &Driver,
    name: &str,
    format: i64,
    options: Vec<CommandOption>,
    players: &[SimUser],
) -> Outcome {
    let mut all = vec![
        CommandOption::string("name", name),
        CommandOption::integer("variant", ATOMIC),
        CommandOption::integer("format", format),
        CommandOption::integer("days_per_move", 0),
        CommandOption::integer("round_days", 2),
    ];
    all.extend(options);
    league(d, &d.carol, "create", all).await?;
    let post = channel_posts(d).last().unwrap().id;
    for p in players {
        d.click(p, post, "kb:lgjoin:1").await?;
    }
    league(
        d,
        &d.carol,
        "start",
        vec![CommandOption::string("league", "1")],
    )
    .await?;
    Ok(())
}

/// Both players move once in `thread`, Atomic's level main line (`Nf3 f6`: the engine scores
/// it within a pawn).
async fn open_game(d: &Driver, thread: u64, white: &SimUser, black: &SimUser) -> Outcome {
    d.play(white, thread, "Nf3").await?;
    d.play(black, thread, "f6").await?;
    Ok(())
}

/// Ends the game in `thread` with White scoring `white_half_points` (2: Black resigns,
/// 1: a draw agreed, 0: White resigns).
async fn decide(
    d: &Driver,
    thread: u64,
    white: &SimUser,
    black: &SimUser,
    white_half_points: u32,
) -> Outcome {
    match white_half_points {
        2 => d.resign(black, thread).await.map(drop),
        1 => {
            d.cmd(white, thread, "draw", vec![]).await?;
            d.cmd(black, thread, "draw", vec![]).await.map(drop)
        }
        _ => d.resign(white, thread).await.map(drop),
    }
}

/// The thread of game `game` (posted by then).
async fn thread_of(d: &Driver, game: GameId) -> Result<u64, DemoError> {
    let row = kaboom_store::games::get(&d.db, game)
        .await
        .unwrap()
        .ok_or_else(|| fail(format!("no game {game}")))?;
    row.thread_id
        .map(|t| t.get())
        .ok_or_else(|| fail(format!("game {game} has no thread")))
}

kaboom_testkit::dbtest! {
    /// A four-player single round-robin from creation to final standings. Guards: the
    /// sign-up post lists the players as they join and leave and loses its buttons at the
    /// start; a second Join is refused; the Berger table of 4 pairs the rounds (1-4 2-3,
    /// 4-3 1-2, 2-4 3-1); each round starts at the previous one's deadline whatever its
    /// games; a time forfeit of a player who never moved and a withdrawal's resigned
    /// game score as forfeits; the standings after each round and at the end equal the
    /// hand-computed ones (points, direct encounter, Sonneborn-Berger, wins).
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn a_round_robin_of_four_plays_to_its_final_standings() -> Outcome {
        let d = TestBot::start().await?;
        let dave = SimUser::new(1004, "dave");
        let scheduler = d.scheduler(d.clock.clone(), SchedulerConfig::default());
        let created = league(
            &d,
            &d.carol,
            "create",
            vec![
                CommandOption::string("name", "Autumn Atomic"),
                CommandOption::integer("variant", ATOMIC),
                CommandOption::integer("format", 0),
                CommandOption::integer("days_per_move", 0),
                CommandOption::integer("round_days", 2),
                CommandOption::boolean("rated", false),
            ],
        )
        .await?;
        assert_eq!(
            created,
            "League #1 created: **Autumn Atomic** · Atomic, single round-robin. Its sign-up post is in this channel; players join with its button. Start it with `/league start` (or it starts when sign-up closes)."
        );
        let posts = channel_posts(&d);
        let sign_up = posts.last().ok_or_else(|| fail("no sign-up post"))?;
        assert_eq!(sign_up.custom_ids(), ["kb:lgjoin:1", "kb:lgleave:1"]);
        assert_eq!(
            sign_up.content(),
            "**Autumn Atomic** · Atomic, single round-robin\nCasual · 1 day per move · rounds of 2 days\nSign-up is open until an organiser starts the league. Organiser: <@1003>. Press **Join** to take part.\n\nNo players yet."
        );
        let post_id = sign_up.id;

        for user in [&d.alice, &d.bob, &d.carol, &dave] {
            let joined = d.click(user, post_id, "kb:lgjoin:1").await?;
            assert!(joined.is_ephemeral());
        }
        let again = d.click(&d.bob, post_id, "kb:lgjoin:1").await?;
        assert_eq!(again.content(), Some("You have already joined this league."));
        let left = d.click(&dave, post_id, "kb:lgleave:1").await?;
        assert_eq!(
            left.content(),
            Some("You left **Autumn Atomic** · Atomic, single round-robin.")
        );
        let rejoined = d.click(&dave, post_id, "kb:lgjoin:1").await?;
        assert_eq!(
            rejoined.content(),
            Some("You joined **Autumn Atomic** · Atomic, single round-robin: 4 players so far. Your games will be posted in this channel.")
        );
        d.outbox_delivered().await?;
        let listed = d
            .fake
            .messages_in(d.fake.text_channel_id())
            .into_iter()
            .find(|m| m.id == post_id)
            .ok_or_else(|| fail("the sign-up post is gone"))?;
        assert_eq!(
            listed.content(),
            "**Autumn Atomic** · Atomic, single round-robin\nCasual · 1 day per move · rounds of 2 days\nSign-up is open until an organiser starts the league. Organiser: <@1003>. Press **Join** to take part.\n\nPlayers (4):\n1. alice (1500)\n2. bob (1500)\n3. carol (1500)\n4. dave (1500)"
        );

        // A member without Manage Server cannot start it, until an admin makes a role of
        // hers the server's league organisers (`/settings server league_organisers`).
        let erin = SimUser::new(1005, "erin").with_permissions(fake_discord::MEMBER_PERMISSIONS);
        let refused = league(&d, &erin, "start", vec![CommandOption::string("league", "1")]).await?;
        assert_eq!(
            refused,
            "Only members with the Manage Server permission create and manage leagues in this server. A server admin can let a role do it too with `/settings server league_organisers`."
        );
        let role = d.fake.add_role(d.fake.guild_id(), "League organisers")?;
        let set = d
            .cmd(
                &d.alice,
                d.fake.text_channel_id(),
                "settings",
                vec![CommandOption::subcommand(
                    "server",
                    vec![CommandOption::role("league_organisers", role)],
                )],
            )
            .await?;
        assert_eq!(
            set.content(),
            Some(format!("Reminders in this server: timed games at 50% and 80% of the time per move; untimed games after 48 hours without a move, then every 168 hours.\nLeagues are created and managed by members with Manage Server and the <@&{role}> role.\nEach player may have 3 practice games against the bot and 10 open challenges at once here, and send 30 commands a minute.\nNo daily puzzle: choose its channel with `puzzle_channel`.").as_str())
        );
        let refused = league(&d, &erin, "start", vec![CommandOption::string("league", "1")]).await?;
        assert_eq!(
            refused,
            format!("Only members with the Manage Server permission or the <@&{role}> role create and manage leagues in this server.")
        );
        // frank joins, then leaves the server: starting the league takes him off the list.
        let frank = SimUser::new(1006, "frank");
        d.click(&frank, post_id, "kb:lgjoin:1").await?;
        d.fake.remove_member(d.fake.guild_id(), frank.id)?;
        let erin = erin.with_roles(vec![role]);
        let started = league(&d, &erin, "start", vec![CommandOption::string("league", "1")]).await?;
        assert_eq!(
            started,
            "**Autumn Atomic** · Atomic, single round-robin has started with 4 players: round 1's games are posted in its channel."
        );
        d.outbox_delivered().await?;

        // Round 1 (Berger 4: 1-4, 2-3).
        let r1 = round_games(&d, 1, 1).await;
        let names = |games: &[(GameId, String, String)]| {
            games
                .iter()
                .map(|(_, w, b)| format!("{w}-{b}"))
                .collect::<Vec<_>>()
        };
        assert_eq!(names(&r1), ["alice-dave", "bob-carol"]);
        let posts = channel_posts(&d);
        assert_eq!(
            posts[posts.len() - 2].content(),
            "frank has left the server and was taken off the players of **Autumn Atomic** · Atomic, single round-robin."
        );
        let round_post = posts.last().unwrap().content().to_string();
        let deadline = kaboom_testkit::fixture::T0 + 2 * DAY;
        assert_eq!(
            round_post,
            format!(
                "**Autumn Atomic** · Atomic, single round-robin · **round 1 of 3** starts.\nThe round ends <t:{deadline}:f> (<t:{deadline}:R>) (the next round starts then; a game still running goes on and counts when it ends).\n<@1001> (White) vs <@1004>: game #{}\n<@1002> (White) vs <@1003>: game #{}",
                r1[0].0, r1[1].0
            )
        );
        let sign_up_now = d
            .fake
            .messages_in(d.fake.text_channel_id())
            .into_iter()
            .find(|m| m.id == post_id)
            .unwrap();
        assert!(sign_up_now.custom_ids().is_empty(), "sign-up closed: no buttons");

        // alice-dave: played, alice resigns (0-1); bob-carol: agreed draw.
        let t = thread_of(&d, r1[0].0).await?;
        d.play(&d.alice, t, "e4").await?;
        d.play(&dave, t, "e5").await?;
        d.resign(&d.alice, t).await?;
        let t = thread_of(&d, r1[1].0).await?;
        d.play(&d.bob, t, "d4").await?;
        d.play(&d.carol, t, "d5").await?;
        d.cmd(&d.bob, t, "draw", vec![]).await?;
        d.cmd(&d.carol, t, "draw", vec![]).await?;

        // Round 2 at round 1's deadline (Berger 4: 4-3, 1-2).
        d.clock.advance(2 * DAY);
        let report = scheduler.sweep().await?;
        assert_eq!(report.leagues.rounds_started, [(1, 2)]);
        d.outbox_delivered().await?;
        let r2 = round_games(&d, 1, 2).await;
        assert_eq!(names(&r2), ["dave-carol", "alice-bob"]);
        let posts = channel_posts(&d);
        let standings = &posts[posts.len() - 2];
        assert_eq!(
            standings.content(),
            "**Autumn Atomic** · Atomic, single round-robin · standings after round 1 of 3.\n```\n  #  Player   Pts     DE     SB   Wins\n  1  dave       1      -      0      1\n  2  bob        ½    0.5   0.25      0\n  2  carol      ½    0.5   0.25      0\n  4  alice      0      -      0      0\n```"
        );
        assert_eq!(standings.attachments.len(), 1);
        assert_eq!(standings.attachments[0].filename, "standings.png");

        // dave-carol: dave never moves and loses on time (a forfeit); alice-bob: bob resigns.
        let t = thread_of(&d, r2[1].0).await?;
        d.play(&d.alice, t, "e4").await?;
        d.play(&d.bob, t, "e5").await?;
        d.resign(&d.bob, t).await?;
        d.clock.advance(DAY + 1);
        scheduler.sweep().await?;
        // Round 3 at round 2's deadline (Berger 4: 2-4, 3-1).
        d.clock.advance(DAY);
        let report = scheduler.sweep().await?;
        assert_eq!(report.leagues.rounds_started, [(1, 3)]);
        d.outbox_delivered().await?;
        let r3 = round_games(&d, 1, 3).await;
        assert_eq!(names(&r3), ["bob-dave", "carol-alice"]);
        let row = kaboom_store::leagues::get(&d.db, 1).await.unwrap().unwrap();
        let dave_carol = row.league.games.iter().find(|g| g.game == Some(r2[0].0)).unwrap();
        assert_eq!(dave_carol.result, Some(LeagueResult::ForfeitBlackWins));

        // carol withdraws: her game with alice is resigned, a forfeit (nobody had moved).
        let withdrew = league(&d, &d.carol, "withdraw", vec![CommandOption::string("league", "1")]).await?;
        assert_eq!(
            withdrew,
            "You withdrew from **Autumn Atomic** · Atomic, single round-robin. Your games played count; your running games were resigned."
        );
        let t = thread_of(&d, r3[0].0).await?;
        d.play(&d.bob, t, "e4").await?;
        d.play(&dave, t, "e5").await?;
        d.resign(&dave, t).await?;
        let report = scheduler.sweep().await?;
        assert_eq!(report.leagues.finished, [1]);
        d.outbox_delivered().await?;
        let row = kaboom_store::leagues::get(&d.db, 1).await.unwrap().unwrap();
        assert_eq!(row.league.status, LeagueStatus::Finished);
        let last = channel_posts(&d).last().unwrap().clone();
        // By hand (C.07): alice 0 + 1 + 1 (forfeit win) = 2; bob ½ + 0 + 1 = 1½; carol
        // ½ + 1 (forfeit win) + 0 (forfeit loss) = 1½; dave 1 + 0 (forfeit loss) + 0 = 1.
        // Sonneborn-Berger counts an unplayed round (a forfeit) with the player's own
        // score as the opponent's (C.07 article 16, the 2023 rule): alice 1½ (bob) + 2 = 3.5; carol ½ × 1½ (bob) + 1½ = 2.25;
        // bob ½ × 1½ (carol) + 1 (dave) = 1.75; dave 2 (alice). bob and carol drew their
        // direct encounter (½ each), so Sonneborn-Berger puts carol second. Wins count
        // forfeit wins.
        assert_eq!(
            last.content(),
            "**Autumn Atomic** · Atomic, single round-robin · **final standings**. Winner: alice with 2 points.\n```\n  #  Player   Pts     DE     SB   Wins\n  1  alice      2      -    3.5      2\n  2  carol*    1½    0.5   2.25      1\n  3  bob       1½    0.5   1.75      1\n  4  dave       1      -      2      1\n```\n\\* withdrew: games played count, later games are forfeits."
        );
        // The export: the report reads back with each player's points, and the PGN holds
        // the six games, each with the league as its event and its round.
        let exported = d
            .cmd(
                &d.bob,
                d.fake.text_channel_id(),
                "league",
                vec![CommandOption::subcommand(
                    "export",
                    vec![CommandOption::string("league", "1")],
                )],
            )
            .await?;
        assert_eq!(
            exported.content(),
            Some("League #1: its tournament report (FIDE TRF-16) and its games (PGN).")
        );
        let names: Vec<&str> = exported.files.iter().map(|f| f.filename.as_str()).collect();
        assert_eq!(names, ["kaboom-league-1.trf", "kaboom-league-1.pgn"]);
        let report = kaboom_pairing::trf::parse(&String::from_utf8_lossy(&exported.files[0].bytes))
            .map_err(|e| fail(format!("the exported report does not read: {e}")))?;
        let points: Vec<(String, String)> = report
            .players
            .iter()
            .map(|p| (p.name.clone(), p.points.to_string()))
            .collect();
        assert_eq!(
            points,
            [
                ("alice".to_string(), "2.0".to_string()),
                ("bob".to_string(), "1.5".to_string()),
                ("carol".to_string(), "1.5".to_string()),
                ("dave".to_string(), "1.0".to_string()),
            ]
        );
        assert_eq!(report.planned_rounds, Some(3));
        let pgn = String::from_utf8_lossy(&exported.files[1].bytes).to_string();
        let events = pgn.lines().filter(|l| *l == "[Event \"Autumn Atomic\"]").count();
        let rounds: Vec<&str> = pgn.lines().filter(|l| l.starts_with("[Round ")).collect();
        assert_eq!(events, 6);
        assert_eq!(
            rounds,
            [
                "[Round \"1\"]",
                "[Round \"1\"]",
                "[Round \"2\"]",
                "[Round \"2\"]",
                "[Round \"3\"]",
                "[Round \"3\"]"
            ]
        );
        // The picture is the league's final crosstable as the renderer draws it.
        let pictures: Vec<_> = d
            .fake
            .attachments()
            .into_iter()
            .filter(|f| f.filename == "standings.png")
            .collect();
        assert_eq!(pictures.len(), 3, "after rounds 1 and 2, and the final standings");
        let expected = kaboom_renderer::render_table_png(
            &kaboom_discord::messages::leagues::standings_image(&row, None),
        )
        .unwrap();
        let last_picture = &pictures.last().unwrap().bytes;
        assert_eq!(
            crate::common::decode_png(last_picture),
            crate::common::decode_png(&expected)
        );
        d.stop().await;
        Ok(())
    }
}

mod swiss {
    use std::collections::{HashMap, HashSet};

    use super::*;
    use kaboom_domain::league::standings;

    kaboom_testkit::dbtest! {
        /// A 7-round Swiss of 11 players through the fake Discord, with scripted results.
        /// Guards what the Dutch system and the league promise whatever the pairings:
        /// every round pairs each active player once and gives exactly one
        /// pairing-allocated bye (1 point), never twice to one player; nobody meets the
        /// same opponent twice; a game lost on time by a player who never moved is a
        /// forfeit; a player who withdrew during round 4 has their running game resigned
        /// and is paired no more; a game still running at the round's deadline plus grace
        /// is adjudicated by the engine (a level position: drawn) and marked; the final
        /// points equal those added up from the script.
        #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
        async fn a_swiss_of_eleven_pairs_seven_rounds_with_byes_a_withdrawal_and_an_adjudication() -> Outcome {
            let d = TestBot::start().await?;
            let scheduler = d.scheduler(d.clock.clone(), SchedulerConfig::default());
            let players = players(3000, "s", 11);
            let rank_of = |user: u64| (user - 3000) as u32;
            let rounds = vec![CommandOption::integer("rounds", 7)];
            started_league(&d, "Atomic Swiss", 3, rounds, &players).await?;
            let withdrawn = 11u32;
            let mut byes: HashSet<u32> = HashSet::new();
            let mut met: HashSet<(u32, u32)> = HashSet::new();
            let mut points: HashMap<u32, u32> = HashMap::new(); // half points
            for round in 1..=7u32 {
                d.outbox_delivered().await?;
                let league_now = kaboom_store::leagues::get(&d.db, 1).await.unwrap().unwrap().league;
                assert_eq!(league_now.current_round(), round, "round {round} started");
                let active: Vec<u32> = league_now
                    .entrants
                    .iter()
                    .filter(|e| !e.withdrawn_in(round))
                    .map(|e| e.start_rank)
                    .collect();
                let games: Vec<_> = league_now.games.iter().filter(|g| g.round == round).copied().collect();
                let round_byes: Vec<_> = league_now.byes.iter().filter(|b| b.round == round).collect();
                let mut seen: Vec<u32> = games.iter().flat_map(|g| [g.white, g.black]).collect();
                seen.extend(round_byes.iter().map(|b| b.start_rank));
                seen.sort_unstable();
                assert_eq!(seen, active, "round {round}: everyone active plays once");
                assert_eq!(round_byes.len(), active.len() % 2, "round {round}: one bye for an odd field");
                for bye in &round_byes {
                    assert!(byes.insert(bye.start_rank), "a second bye for {}", bye.start_rank);
                    *points.entry(bye.start_rank).or_default() += 2;
                }
                for g in &games {
                    let pair = (g.white.min(g.black), g.white.max(g.black));
                    assert!(met.insert(pair), "round {round}: {pair:?} met before");
                }
                // Results: each game is played (both move), then the lower start rank wins,
                // except every third board, drawn; in round 2 the first board's White never
                // moves (lost on time); in round 4 the first board runs on into
                // adjudication, and s11 withdraws, resigning their game.
                for (board, g) in games.iter().enumerate() {
                    let id = g.game.unwrap();
                    let (w, b) = (g.white, g.black);
                    let white = &players[w as usize - 1];
                    let black = &players[b as usize - 1];
                    assert_eq!(rank_of(white.id), w);
                    if round == 2 && board == 0 {
                        *points.entry(b).or_default() += 2;
                        continue;
                    }
                    let thread = thread_of(&d, id).await?;
                    open_game(&d, thread, white, black).await?;
                    if round == 4 && board == 0 {
                        *points.entry(w).or_default() += 1;
                        *points.entry(b).or_default() += 1;
                        continue;
                    }
                    if round == 4 && (w == withdrawn || b == withdrawn) {
                        let other = if w == withdrawn { b } else { w };
                        *points.entry(other).or_default() += 2;
                        continue;
                    }
                    let white_points = match board % 3 {
                        2 => 1,
                        _ if w < b => 2,
                        _ => 0,
                    };
                    decide(&d, thread, white, black, white_points).await?;
                    *points.entry(w).or_default() += white_points;
                    *points.entry(b).or_default() += 2 - white_points;
                }
                let mut elapsed = 0;
                if round == 4 {
                    league(
                        &d,
                        &players[withdrawn as usize - 1],
                        "withdraw",
                        vec![CommandOption::string("league", "1")],
                    )
                    .await?;
                    // The first board goes on past the round's deadline and grace, each
                    // player moving within their day (Black's king step keeps it level).
                    let g = games[0];
                    let thread = thread_of(&d, g.game.unwrap()).await?;
                    let (white, black) = (&players[g.white as usize - 1], &players[g.black as usize - 1]);
                    for (user, action) in [(white, "Ng1"), (black, "Kf7"), (white, "Nf3")] {
                        d.clock.advance(DAY * 9 / 10);
                        elapsed += DAY * 9 / 10;
                        d.play(user, thread, action).await?;
                    }
                }
                // The deadline, then the grace: the sweep ends games on time, adjudicates,
                // and starts the next round.
                d.clock.advance(3 * DAY + 1 - elapsed);
                let report = scheduler.sweep().await?;
                if round == 4 {
                    assert_eq!(report.leagues.adjudicated.len(), 1, "round 4's first board");
                }
                if round == 2 {
                    assert_eq!(report.forfeited.len(), 1, "round 2's first board");
                }
            }
            d.outbox_delivered().await?;
            let league_end = kaboom_store::leagues::get(&d.db, 1).await.unwrap().unwrap().league;
            assert_eq!(league_end.status, LeagueStatus::Finished);
            let adjudicated: Vec<_> = league_end.games.iter().filter(|g| g.adjudicated).collect();
            assert_eq!(adjudicated.len(), 1);
            assert_eq!(adjudicated[0].round, 4);
            assert_eq!(adjudicated[0].result, Some(LeagueResult::Draw));
            let forfeit = league_end.games.iter().find(|g| g.round == 2).unwrap();
            assert_eq!(forfeit.result, Some(LeagueResult::ForfeitBlackWins));
            let s11 = league_end.entrant(withdrawn).unwrap();
            assert_eq!(s11.withdrawn_after_round, Some(4));
            assert!(
                league_end
                    .games
                    .iter()
                    .all(|g| g.round <= 4 || (g.white != withdrawn && g.black != withdrawn)),
                "no pairing after the withdrawal"
            );
            let table = standings(&league_end);
            assert_eq!(table.len(), 11);
            for line in &table {
                let expected = points.get(&line.standing.start_rank).copied().unwrap_or(0);
                assert_eq!(
                    line.standing.points.to_string(),
                    format!("{}.{}", expected / 2, if expected % 2 == 1 { 5 } else { 0 }),
                    "{}",
                    line.standing.name
                );
            }
            let ranks: Vec<u32> = table.iter().map(|l| l.standing.rank).collect();
            assert!(ranks.windows(2).all(|w| w[0] <= w[1]), "{ranks:?}");
            d.stop().await;
            Ok(())
        }
    }
}

kaboom_testkit::dbtest! {
    /// Bad input gets a clear, private answer and changes nothing: `/league` in a direct
    /// message; settings the model refuses; an unknown league; starting with one player;
    /// two Join clicks of one player at once (one joins, the other is told so); joining
    /// after the start; a second league's sign-up kept apart; aborting a league game.
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn bad_league_input_is_refused_privately() -> Outcome {
        let d = TestBot::start().await?;
        let dm = d.fake.dm_channel_for(d.alice.id);
        // A server-only command: no Discord client offers it in a DM.
        assert!(matches!(
            d.fake.slash_command(
                &d.alice,
                dm,
                "league",
                vec![CommandOption::subcommand("list", vec![])]
            ),
            Err(fake_discord::FakeError::CommandNotOffered { context: 1, .. })
        ));
        let too_many_rounds = league(
            &d,
            &d.carol,
            "create",
            vec![
                CommandOption::string("name", "Quick Swiss"),
                CommandOption::integer("variant", ATOMIC),
                CommandOption::integer("format", 3),
                CommandOption::integer("rounds", 7),
                CommandOption::integer("player_limit", 6),
            ],
        )
        .await?;
        assert_eq!(
            too_many_rounds,
            "A Swiss league of 6 players can have at most 5 rounds, not 7."
        );
        let short_rounds = league(
            &d,
            &d.carol,
            "create",
            vec![
                CommandOption::string("name", "Rushed"),
                CommandOption::integer("variant", ATOMIC),
                CommandOption::integer("format", 0),
                CommandOption::integer("days_per_move", 2),
                CommandOption::integer("round_days", 2),
            ],
        )
        .await?;
        assert_eq!(
            short_rounds,
            "A round must last at least the time for one move (259200 seconds = 3 days), not 172800 seconds."
        );
        assert_eq!(
            league(&d, &d.alice, "list", vec![]).await?,
            "This server has no leagues yet. Members with Manage Server create one with `/league create`."
        );
        let unknown = league(&d, &d.alice, "standings", vec![CommandOption::string("league", "99")]).await?;
        assert_eq!(
            unknown,
            "There is no league #99 in this server. `/league list` shows this server's leagues."
        );
        let typo = league(&d, &d.alice, "standings", vec![CommandOption::string("league", "autumn")]).await?;
        assert_eq!(
            typo,
            "`autumn` is not a league: choose one from the list, or type its number (e.g. `3`)."
        );

        league(
            &d,
            &d.carol,
            "create",
            vec![
                CommandOption::string("name", "Small"),
                CommandOption::integer("variant", ATOMIC),
                CommandOption::integer("format", 0),
            ],
        )
        .await?;
        let post = channel_posts(&d).last().unwrap().id;
        d.click(&d.alice, post, "kb:lgjoin:1").await?;
        let lonely = league(&d, &d.carol, "start", vec![CommandOption::string("league", "1")]).await?;
        assert_eq!(lonely, "The league needs at least 3 players to start, it has 1.");

        // Two clicks of bob's at once: one joins, the other is told he already has.
        let first = d.fake.click_button(&d.bob, post, "kb:lgjoin:1")?;
        let second = d.fake.click_button(&d.bob, post, "kb:lgjoin:1")?;
        let (a, b) = (d.answer(&first).await?, d.answer(&second).await?);
        let mut texts = [a.content().unwrap_or_default(), b.content().unwrap_or_default()];
        texts.sort_unstable();
        assert_eq!(
            texts,
            [
                "You have already joined this league.",
                "You joined **Small** · Atomic, single round-robin: 2 players so far. Your games will be posted in this channel.",
            ]
        );
        let row = kaboom_store::leagues::get(&d.db, 1).await.unwrap().unwrap();
        assert_eq!(row.league.entrants.len(), 2);

        d.click(&d.carol, post, "kb:lgjoin:1").await?;
        league(&d, &d.carol, "start", vec![CommandOption::string("league", "1")]).await?;
        let late = d.click(&SimUser::new(1004, "dave"), post, "kb:lgjoin:1").await?;
        assert_eq!(late.content(), Some("Sign-up for this league is closed."));
        let again = league(&d, &d.carol, "start", vec![CommandOption::string("league", "1")]).await?;
        assert_eq!(again, "Sign-up for this league is closed.");

        // League games cannot be aborted.
        d.outbox_delivered().await?;
        let (game, _, _) = round_games(&d, 1, 1).await.into_iter().next().unwrap();
        let thread = thread_of(&d, game).await?;
        let snap = kaboom_store::games::get(&d.db, game).await.unwrap().unwrap();
        // Round 1 of three players (Berger 4): alice has the bye, bob (White) plays carol.
        assert_eq!(snap.white_id.get(), d.bob.id);
        let abort = d.cmd(&d.bob, thread, "abort", vec![]).await?;
        assert_eq!(
            abort.content(),
            Some("League games cannot be aborted: they are part of a round. Resign if you must stop.")
        );
        let snap = kaboom_store::games::get(&d.db, game).await.unwrap().unwrap();
        assert_eq!(snap.state, kaboom_store::games::GameState::Active);
        d.stop().await;
        Ok(())
    }
}

kaboom_testkit::dbtest! {
    /// A 10-player double round-robin, both colours at once (9 league rounds of 10 games),
    /// through the fake Discord to the end: every game played and decided by resignation
    /// or agreed draw, one lost on time by a player who never moved (a forfeit), and one
    /// player withdrawing after round 5 (their later games forfeit wins for their
    /// opponents, none started). Guards that every pair meets twice with both colours,
    /// and that the final points and wins equal those added up from the script itself.
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn a_double_round_robin_of_ten_plays_to_the_end() -> Outcome {
        let d = TestBot::start().await?;
        let scheduler = d.scheduler(d.clock.clone(), SchedulerConfig::default());
        let players = players(2000, "p", 10);
        let rank_of = |user: u64| (user - 2000) as u32;
        started_league(&d, "Double Ten", 2, Vec::new(), &players).await?;
        // (white rank, black rank, white's points x2, decided over the board)
        let mut log: Vec<(u32, u32, u32, bool)> = Vec::new();
        let withdrawn = 10u32;
        for round in 1..=9u32 {
            d.outbox_delivered().await?;
            let games = round_games(&d, 1, round).await;
            let expected_games = if round <= 5 { 10 } else { 8 };
            assert_eq!(games.len(), expected_games, "round {round}");
            for (board, (game, _, _)) in games.iter().enumerate() {
                let row = kaboom_store::games::get(&d.db, *game).await.unwrap().unwrap();
                let (w, b) = (rank_of(row.white_id.get()), rank_of(row.black_id.get()));
                let white = &players[w as usize - 1];
                let black = &players[b as usize - 1];
                if round == 3 && board == 0 {
                    // White never moves: lost on time, a forfeit.
                    log.push((w, b, 0, false));
                    continue;
                }
                let thread = thread_of(&d, *game).await?;
                open_game(&d, thread, white, black).await?;
                let white_points = if (w + b + round) % 5 == 0 {
                    1
                } else if w < b {
                    2
                } else {
                    0
                };
                decide(&d, thread, white, black, white_points).await?;
                log.push((w, b, white_points, true));
            }
            if round == 5 {
                league(
                    &d,
                    &players[withdrawn as usize - 1],
                    "withdraw",
                    vec![CommandOption::string("league", "1")],
                )
                .await?;
            }
            d.clock.advance(2 * DAY);
            scheduler.sweep().await?;
        }
        d.outbox_delivered().await?;
        let row = kaboom_store::leagues::get(&d.db, 1).await.unwrap().unwrap();
        assert_eq!(row.league.status, LeagueStatus::Finished);
        // Every pair met twice, once with each colour (forfeits included).
        let mut pairs = std::collections::HashMap::new();
        for g in &row.league.games {
            *pairs.entry((g.white, g.black)).or_insert(0) += 1;
        }
        for a in 1..=10u32 {
            for b in 1..=10u32 {
                if a != b {
                    assert_eq!(pairs.get(&(a, b)), Some(&1), "{a} as White against {b}");
                }
            }
        }
        // Points and wins from the script: logged games, then the forfeit wins against
        // the withdrawn player for each game with them not played.
        let mut points = [0u32; 11];
        let mut wins = [0u32; 11];
        for &(w, b, white_points, _) in &log {
            points[w as usize] += white_points;
            points[b as usize] += 2 - white_points;
            match white_points {
                2 => wins[w as usize] += 1,
                0 => wins[b as usize] += 1,
                _ => {}
            }
        }
        for p in 1..withdrawn {
            let played = log
                .iter()
                .filter(|&&(w, b, _, _)| (w, b) == (p, withdrawn) || (w, b) == (withdrawn, p))
                .count() as u32;
            points[p as usize] += 2 * (2 - played);
            wins[p as usize] += 2 - played;
        }
        let standings = kaboom_domain::league::standings(&row.league);
        for line in &standings {
            let rank = line.standing.start_rank as usize;
            let half_points = points[rank];
            assert_eq!(
                line.standing.points.to_string(),
                format!("{}.{}", half_points / 2, if half_points % 2 == 1 { 5 } else { 0 }),
                "p{rank}'s points"
            );
            let shown_wins = line
                .standing
                .tie_breaks
                .iter()
                .find(|t| t.tie_break == kaboom_pairing::TieBreak::Wins)
                .and_then(|t| t.value);
            assert_eq!(shown_wins, Some(f64::from(wins[rank])), "p{rank}'s wins");
        }
        d.stop().await;
        Ok(())
    }
}

kaboom_testkit::dbtest! {
    /// Pausing: an organiser's `/league pause` stops the round clock (the deadline passes
    /// and no round starts) while games go on; `/league resume` moves the round's deadline
    /// back by the pause's length and says so; removing the bot from the server pauses
    /// its running leagues (nothing can be posted there) until an organiser resumes them.
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn a_league_pauses_and_resumes_and_pauses_when_the_bot_is_removed() -> Outcome {
        let d = TestBot::start().await?;
        let scheduler = d.scheduler(d.clock.clone(), SchedulerConfig::default());
        let three = [d.alice.clone(), d.bob.clone(), d.carol.clone()];
        started_league(&d, "Paused", 0, Vec::new(), &three).await?;
        d.clock.advance(DAY);
        let paused = league(&d, &d.carol, "pause", vec![CommandOption::string("league", "1")]).await?;
        assert_eq!(
            paused,
            "**Paused** · Atomic, single round-robin is paused. `/league resume` starts its clock again."
        );
        d.outbox_delivered().await?;
        assert_eq!(
            channel_posts(&d).last().unwrap().content(),
            "**Paused** · Atomic, single round-robin is paused by an organiser: no round starts and no game is adjudicated until it resumes. Games in progress go on."
        );
        // Round 1's deadline (2 days after the start) passes while paused: no round 2.
        d.clock.advance(3 * DAY);
        let report = scheduler.sweep().await?;
        assert!(report.leagues.rounds_started.is_empty());
        let resumed = league(&d, &d.carol, "resume", vec![CommandOption::string("league", "1")]).await?;
        assert_eq!(resumed, "**Paused** · Atomic, single round-robin has resumed.");
        d.outbox_delivered().await?;
        // Paused 3 days after 1 day of the round: 1 day of it is left.
        let deadline = kaboom_testkit::fixture::T0 + 2 * DAY + 3 * DAY;
        assert_eq!(
            channel_posts(&d).last().unwrap().content(),
            format!(
                "**Paused** · Atomic, single round-robin resumes: round 1 now ends <t:{deadline}:f> (<t:{deadline}:R>)."
            )
        );
        d.clock.advance(DAY);
        let report = scheduler.sweep().await?;
        assert_eq!(report.leagues.rounds_started, [(1, 2)]);

        d.fake.remove_bot_from_guild(d.fake.guild_id())?;
        let deadline = tokio::time::Instant::now() + std::time::Duration::from_secs(10);
        loop {
            let row = kaboom_store::leagues::get(&d.db, 1).await.unwrap().unwrap();
            if matches!(row.league.status, LeagueStatus::Paused { .. }) {
                break;
            }
            if tokio::time::Instant::now() > deadline {
                return Err(fail(format!("not paused: {:?}", row.league.status)));
            }
            tokio::time::sleep(std::time::Duration::from_millis(50)).await;
        }
        d.clock.advance(5 * DAY);
        let report = scheduler.sweep().await?;
        assert!(report.leagues.rounds_started.is_empty(), "paused: no round 3");
        d.stop().await;
        Ok(())
    }
}

kaboom_testkit::dbtest! {
    /// Sign-up closed by its deadline (the scheduler's sweep, not `/league start`): a player
    /// who left the server meanwhile (Get Guild Member answers 404 Unknown Member) is taken
    /// off the list before seeding, the channel says so, and the league starts with the
    /// others.
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn a_sign_up_deadline_takes_off_players_who_left_the_server() -> Outcome {
        let d = TestBot::start().await?;
        let scheduler = d.scheduler(d.clock.clone(), SchedulerConfig::default());
        let players = players(3000, "q", 4);
        league(
            &d,
            &d.carol,
            "create",
            vec![
                CommandOption::string("name", "Deadline Cup"),
                CommandOption::integer("variant", ATOMIC),
                CommandOption::integer("format", 0),
                CommandOption::integer("days_per_move", 0),
                CommandOption::integer("round_days", 2),
                CommandOption::integer("sign_up_days", 1),
            ],
        )
        .await?;
        let post = channel_posts(&d).last().unwrap().id;
        for p in &players {
            d.click(p, post, "kb:lgjoin:1").await?;
        }
        d.fake.remove_member(d.fake.guild_id(), players[3].id)?;
        d.clock.advance(DAY);
        let report = scheduler.sweep().await?;
        assert_eq!(report.leagues.rounds_started, [(1, 1)]);
        d.outbox_delivered().await?;
        let row = kaboom_store::leagues::get(&d.db, 1).await.unwrap().unwrap();
        let names: Vec<&str> = row.league.entrants.iter().map(|e| e.name.as_str()).collect();
        assert_eq!(names, ["q1", "q2", "q3"]);
        assert_eq!(row.league.status, LeagueStatus::Running { round: 1 });
        let posts: Vec<String> = channel_posts(&d)
            .iter()
            .map(|m| m.content().to_string())
            .collect();
        assert!(
            posts.contains(
                &"q4 has left the server and was taken off the players of **Deadline Cup** · Atomic, single round-robin."
                    .to_string()
            ),
            "{posts:#?}"
        );
        d.stop().await;
        Ok(())
    }
}
