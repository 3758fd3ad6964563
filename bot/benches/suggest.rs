//! Benchmark: `/move` autocomplete in the busiest Bombalot position known
//! (6,161 legal actions, `busy-super-tweke` in rules/tests/bombalot.perft), against the
//! old way of building every action's full description (`AnyGame::legal_actions`, which
//! prints every jump path and plays every action). Discord gives an autocomplete 3 s.
//!
//! Then the whole `/move` autocomplete path through the games service on a long
//! stored game (`Services::suggest`: load the row and actions, replay, suggest, all off the
//! async runtime), with the replay cache and without it (every keystroke replays), and
//! the replay alone.
//!
//! Run: `cargo bench -p kaboom --bench suggest`. `SUGGEST_ROUNDS` overrides the
//! number of rounds (median printed); `LONG_GAME_PLIES` the long game's length (200).

use std::hint::black_box;
use std::time::{Duration, Instant};

use std::sync::Arc;

use kaboom_domain::ids::{ChannelId, GameId, GuildId, UserId};
use kaboom_rules::{AnyGame, Color, GameOptions, Variant, Viewer};
use kaboom_service::Services;
use kaboom_service::replay::ReplayCache;
use kaboom_service::suggest::suggestions;
use kaboom_store::challenges::{ColorChoice, NewChallenge};

const BUSY: &str = "i(m)do1m1dt/2ww1ws1/1Sw1w1w1/1D1sw3/5w2/2WW2W1/1W6/3OM1DT w ---- Ww 0 13";

fn median(rounds: usize, mut f: impl FnMut()) -> Duration {
    let mut times: Vec<Duration> = (0..rounds)
        .map(|_| {
            let t = Instant::now();
            f();
            t.elapsed()
        })
        .collect();
    times.sort();
    times[times.len() / 2]
}

fn main() {
    let rounds = std::env::var("SUGGEST_ROUNDS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(11);
    let game = AnyGame::from_fen(Variant::Bombalot, BUSY).expect("the busy position parses");
    let old = median(rounds.min(3), || {
        black_box(game.legal_actions(Viewer::White).len());
    });
    println!("old: every action's full description: {old:?}");
    // "" shows the first 25; "b6:d8" is a path typed for the super-tweke (paths printed
    // until 25 match); "b6:a1" matches no path (every jump of b6 printed: the worst
    // case); "zzz" matches nothing cheaply.
    for typed in ["", "b6", "super", "b6:d8", "b6:a1", "zzz"] {
        let t = median(rounds, || {
            black_box(suggestions(&game, Viewer::White, typed, 25).len());
        });
        println!("suggestions({typed:?}): {t:?}");
    }
    for variant in [
        Variant::Atomic,
        Variant::Nuke,
        Variant::Bomberman,
        Variant::Bombalot,
    ] {
        let mut game = AnyGame::new(variant, Default::default()).expect("start position");
        if variant == Variant::Nuke {
            let e1 = "e1".parse().expect("square");
            let d8 = "d8".parse().expect("square");
            game.designate(kaboom_rules::Color::White, &[e1])
                .expect("designation");
            game.designate(kaboom_rules::Color::Black, &[d8])
                .expect("designation");
        }
        let t = median(rounds, || {
            black_box(suggestions(&game, Viewer::White, "", 25).len());
        });
        println!("{variant:?} start, suggestions(\"\"): {t:?}");
    }
    let plies = std::env::var("LONG_GAME_PLIES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(200);
    let runtime = tokio::runtime::Runtime::new().expect("a runtime");
    for variant in [Variant::Atomic, Variant::Bombalot] {
        runtime.block_on(long_game(variant, plies, rounds));
    }
}

const ALICE: UserId = UserId(1001);
const BOB: UserId = UserId(1002);

/// A stored `variant` game of `plies` plies (each side plays the first suggested action
/// that does not end the game, skipping some so pieces move around), then the median
/// `/move` autocomplete latency through the service with and without the replay cache.
async fn long_game(variant: Variant, plies: usize, rounds: usize) {
    let (db, _dir) = kaboom_testkit::temp_db().await;
    let clock = Arc::new(kaboom_testkit::clock::TestClock::new(1_700_000_000));
    let painter = Arc::new(kaboom_testkit::painter::PlainPainter);
    let cached = Services::new(db.clone(), clock.clone(), painter.clone());
    let uncached =
        Services::new(db, clock, painter).with_replay_cache(Arc::new(ReplayCache::new(0)));
    let challenge = cached
        .challenges()
        .create(NewChallenge {
            guild_id: Some(GuildId(1)),
            channel_id: ChannelId(10),
            challenger_id: ALICE,
            challenger_name: "alice".into(),
            opponent_id: Some(BOB),
            variant,
            options: GameOptions::default(),
            days_per_move: None,
            color: ColorChoice::White,
            rated: false,
            venue: kaboom_store::challenges::Venue::Thread,
        })
        .await
        .expect("a challenge");
    let id = cached
        .challenges()
        .accept(challenge.id, BOB, "bob")
        .await
        .expect("a game")
        .row
        .id;
    let mut game = AnyGame::new(variant, GameOptions::default()).expect("start position");
    for n in 0..plies {
        let color = game.turn();
        let user = if color == Color::White { ALICE } else { BOB };
        let options = suggestions(&game, Viewer::player(color), "", 25);
        let pick = options
            .iter()
            .cycle()
            .skip(n * 7 % options.len().max(1))
            .take(options.len())
            .find(|o| {
                let mut next = game.clone();
                next.play(Some(color), &o.value).is_ok() && !next.status().is_finished()
            });
        let Some(pick) = pick else {
            println!("{variant:?}: the game could not go on after {n} plies");
            break;
        };
        game.play(Some(color), &pick.value).expect("a legal action");
        cached
            .games()
            .play(kaboom_service::PlayRequest::new(id, user, &pick.value))
            .await
            .expect("stored");
    }
    let to_move = if game.turn() == Color::White {
        ALICE
    } else {
        BOB
    };
    let replay_only = {
        let row = cached.games().load(id).await.expect("the game");
        let record = kaboom_store::games::load_record(cached.db(), id)
            .await
            .expect("its record")
            .expect("stored")
            .1;
        assert_eq!(row.game.fen(Viewer::Full), game.fen(Viewer::Full));
        median(rounds, || {
            black_box(AnyGame::from_record(&record).expect("replays"));
        })
    };
    let plies = cached.games().load(id).await.expect("the game").row.ply;
    println!("{variant:?}, {plies} plies: replay alone {replay_only:?}");
    for (name, services) in [("with the cache", &cached), ("without", &uncached)] {
        for typed in ["", "e", "zzz"] {
            let t = service_median(rounds, services, id, to_move, typed).await;
            println!("{variant:?}, {plies} plies, Services::suggest({typed:?}) {name}: {t:?}");
        }
    }
}

async fn service_median(
    rounds: usize,
    services: &Services,
    id: GameId,
    user: UserId,
    typed: &str,
) -> Duration {
    // One call first: the cache's miss is not what a keystroke after the first costs.
    services
        .games()
        .suggest(id, user, typed)
        .await
        .expect("suggestions");
    let mut times = Vec::with_capacity(rounds);
    for _ in 0..rounds {
        let t = Instant::now();
        black_box(
            services
                .games()
                .suggest(id, user, typed)
                .await
                .expect("suggestions"),
        );
        times.push(t.elapsed());
    }
    times.sort();
    times[times.len() / 2]
}
