//! `/puzzle` end to end through the fake Discord: a two-move puzzle answered right then
//! wrong (the refutation and the solution shown, the rating lowered), a one-move puzzle
//! solved (rated once, then not), the streak, every refusal (a guessed id, no puzzle
//! open, an illegal move, every puzzle tried), two answers at once counting once, and a
//! server's daily puzzle posted by the scheduler, tried from its button and counted in
//! the next day's post.

use std::sync::Arc;

use fake_discord::{CommandOption, InteractionResponse, SimUser};
use kaboom_domain::rating::{self, Glicko};
use kaboom_rules::{AnyGame, Color, Variant, Viewer};
use kaboom_service::Services;
use kaboom_service::painter::RendererPainter;
use kaboom_service::puzzles::PUZZLE_START_DEVIATION;
use kaboom_service::scheduler::SchedulerConfig;
use kaboom_store::puzzles::{Source, StoredPuzzle};
use kaboom_testkit::demo::DemoError;
use kaboom_testkit::fixture::{T0, TestBot};

type Outcome = Result<(), DemoError>;

const START: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

/// A stand-in two-move puzzle for the answering mechanics (not a tactic: the service
/// plays any stored line): 1. e4 e5 2. Nf3 from the start.
fn two_moves() -> StoredPuzzle {
    puzzle(
        "twomov",
        START,
        &["e2e4", "e7e5", "g1f3"],
        &["short"],
        1500.0,
    )
}

/// A real one-move Atomic puzzle: the knight on g5 takes f7 and the blast takes the king
/// on e8 with it (AT-2, AT-6).
fn king_blast() -> StoredPuzzle {
    puzzle(
        "kblast",
        "rnbqkbnr/1ppp1ppp/p3p3/6N1/8/8/PPPPPPPP/RNBQKB1R w KQkq - 0 3",
        &["g5f7"],
        &["king-blast", "one-move"],
        1200.0,
    )
}

fn puzzle(id: &str, fen: &str, solution: &[&str], themes: &[&str], rating: f64) -> StoredPuzzle {
    StoredPuzzle {
        id: id.to_string(),
        variant: Variant::Atomic,
        fen: fen.to_string(),
        solution: solution.iter().map(|s| s.to_string()).collect(),
        themes: themes.iter().map(|s| s.to_string()).collect(),
        glicko: Glicko {
            rating,
            deviation: PUZZLE_START_DEVIATION,
            volatility: rating::START_VOLATILITY,
        },
        attempts: 0,
        solved: 0,
    }
}

async fn add(d: &TestBot, puzzles: &[StoredPuzzle]) {
    let services = Services::new(d.db.clone(), d.clock.clone(), Arc::new(RendererPainter));
    let all: Vec<_> = puzzles
        .iter()
        .map(|p| (p.clone(), Source::Shipped))
        .collect();
    services
        .puzzles()
        .add(&all)
        .await
        .expect("the puzzles are stored");
}

/// `/puzzle SUB options` by `user` in the server's channel.
async fn puzzle_cmd(
    d: &TestBot,
    user: &SimUser,
    sub: &str,
    options: Vec<CommandOption>,
) -> Result<InteractionResponse, DemoError> {
    let r = d
        .cmd(
            user,
            d.fake.text_channel_id(),
            "puzzle",
            vec![CommandOption::subcommand(sub, options)],
        )
        .await?;
    assert!(
        r.is_ephemeral(),
        "/puzzle {sub} answers privately: {:?}",
        r.content()
    );
    Ok(r)
}

async fn answer(d: &TestBot, user: &SimUser, action: &str) -> Result<String, DemoError> {
    let r = puzzle_cmd(
        d,
        user,
        "move",
        vec![CommandOption::string("action", action)],
    )
    .await?;
    Ok(r.content().unwrap_or_default().to_string())
}

/// `1500? → 1352? (-148)` for a rated try by a player at `before` against `puzzle`.
fn change(before: Glicko, puzzle: Glicko, solved: bool) -> (Glicko, String) {
    let winner = if solved { Color::White } else { Color::Black };
    let (after, _) = rating::rate(before, puzzle, Some(winner));
    let text = format!(
        "{} → {} ({:+})",
        before.display(),
        after.display(),
        after.shown() - before.shown()
    );
    (after, text)
}

/// The display text (SAN with its win mark) of `text` played in `fen` after `before`.
fn display(fen: &str, before: &[&str], text: &str) -> String {
    let mut game = AnyGame::from_fen(Variant::Atomic, fen).unwrap();
    for t in before {
        game.play(None, t).unwrap();
    }
    game.play(None, text).unwrap().display
}

kaboom_testkit::dbtest! {
    /// The whole life of a player's puzzles: right then wrong in a two-move puzzle, a
    /// one-move puzzle solved, the refusals, a rated first try and an unrated retry.
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn puzzles_are_answered_rated_and_refused_privately() -> Outcome {
        let d = TestBot::start().await?;
        add(&d, &[two_moves(), king_blast()]).await;
        let (alice, bob) = (d.alice.clone(), d.bob.clone());

        // The puzzle nearest alice's 1500: the two-move one.
        let shown = puzzle_cmd(&d, &alice, "solve", vec![]).await?;
        assert_eq!(
            shown.content().unwrap(),
            "**Puzzle twomov** · Atomic · rated 1500 · short\nYou play White: find the best move (move 1 of 2). Answer with `/puzzle move`."
        );
        assert_eq!(shown.files.len(), 1);
        assert_eq!(shown.files[0].filename, "puzzle.png");
        assert_eq!(
            answer(&d, &alice, "e4").await?,
            "**e4** is right. Black answers **e5**. Find the next move (move 2 of 2)."
        );
        // An illegal move is refused and the try stays open.
        assert_eq!(
            answer(&d, &alice, "Ke3").await?,
            "Ke3 is not legal here: no king of yours can go to e3; legal moves: Na3, Nc3, Qe2, Qf3, Qg4, Qh5, Ke2, Be2, Bd3, Bc4, Bb5, Ba6 and 17 more"
        );
        // A wrong move: the engine's refutation (searched as the bot searches it), the
        // solution from there, and the rating change of a lost game against the puzzle.
        let mut after_wrong = AnyGame::from_fen(Variant::Atomic, START).unwrap();
        for t in ["e4", "e5", "Nc3"] {
            after_wrong.play(None, t).unwrap();
        }
        let refutation = kaboom_engine::analyse(
            &after_wrong,
            Viewer::Full,
            kaboom_engine::Limits::nodes(kaboom_service::puzzles::REFUTATION_NODES),
        )
        .unwrap()
        .best;
        let (alice_now, lost) = change(Glicko::START, two_moves().glicko, false);
        assert_eq!(
            answer(&d, &alice, "Nc3").await?,
            format!("**Nc3** is not it. Black answers **{refutation}**. The solution: **Nf3**.\nPuzzle rating (Atomic): {lost}.\nStreak: 0.")
        );
        assert_eq!(
            answer(&d, &alice, "Nf3").await?,
            "No puzzle is waiting for your move: `/puzzle solve` gives you one."
        );

        // The other puzzle, solved with the win on the spot.
        let shown = puzzle_cmd(&d, &alice, "solve", vec![]).await?;
        assert_eq!(
            shown.content().unwrap(),
            "**Puzzle kblast** · Atomic · rated 1200 · king blast, one move\nYou play White: find the best move. Answer with `/puzzle move`."
        );
        let (alice_now, won) = change(alice_now, king_blast().glicko, true);
        let nxf7 = display(&king_blast().fen, &[], "g5f7");
        assert_eq!(
            answer(&d, &alice, "Nxf7").await?,
            format!("**{nxf7}** solves puzzle kblast!\nPuzzle rating (Atomic): {won}.\nStreak: 1 solved in a row.")
        );
        let r = puzzle_cmd(&d, &alice, "solve", vec![]).await?;
        assert_eq!(r.content().unwrap(), "You have tried every Atomic puzzle. Try another variant.");
        let r = puzzle_cmd(&d, &alice, "solve", vec![CommandOption::string("theme", "boom")]).await?;
        assert_eq!(r.content().unwrap(), "You have tried every Atomic puzzle with the theme 'boom'. Try another theme, or leave it out.");
        let r = puzzle_cmd(&d, &alice, "solve", vec![CommandOption::integer("variant", 4)]).await?;
        assert_eq!(r.content().unwrap(), "There are no Bombalot puzzles yet. Try another variant.");
        // A guessed id; then a retry by id, which is not rated.
        let r = puzzle_cmd(&d, &alice, "solve", vec![CommandOption::string("id", "zz9zz9")]).await?;
        assert_eq!(r.content().unwrap(), "There is no puzzle 'zz9zz9'. `/puzzle solve` gives you one.");
        puzzle_cmd(&d, &alice, "solve", vec![CommandOption::string("id", "kblast")]).await?;
        assert_eq!(
            answer(&d, &alice, "g5f7").await?,
            format!("**{nxf7}** solves puzzle kblast!\nNot rated: only your first try at a puzzle counts.\nStreak: 2 solved in a row.")
        );
        let r = puzzle_cmd(&d, &alice, "rating", vec![]).await?;
        assert_eq!(
            r.content().unwrap(),
            format!("**Your puzzle ratings**\nAtomic: {} · solved 1 of 2 · streak 2 (best 2)", alice_now.display())
        );

        // Bob has no puzzle open: nobody answers someone else's.
        assert_eq!(
            answer(&d, &bob, "e4").await?,
            "No puzzle is waiting for your move: `/puzzle solve` gives you one."
        );
        // Two answers at once: one counts, the other is told so.
        puzzle_cmd(&d, &bob, "solve", vec![CommandOption::string("id", "kblast")]).await?;
        let channel = d.fake.text_channel_id();
        let move_of = |text: &str| vec![CommandOption::subcommand("move", vec![CommandOption::string("action", text)])];
        let first = d.fake.slash_command(&bob, channel, "puzzle", move_of("Nxf7"))?;
        let second = d.fake.slash_command(&bob, channel, "puzzle", move_of("Nxf7"))?;
        let (a, b) = tokio::join!(d.answer(&first), d.answer(&second));
        let mut texts = [a?.content().unwrap_or_default().to_string(), b?.content().unwrap_or_default().to_string()];
        texts.sort();
        let solved = texts.iter().filter(|t| t.starts_with(&format!("**{nxf7}** solves"))).count();
        assert_eq!(solved, 1, "{texts:?}");
        let other = texts.iter().find(|t| !t.starts_with('*')).unwrap();
        assert!(
            other == "No puzzle is waiting for your move: `/puzzle solve` gives you one."
                || other == "Another answer of yours to this puzzle counted first: its reply is above.",
            "{other}"
        );
        let bob_rating = kaboom_store::puzzles::rating(&d.db, kaboom_domain::ids::UserId::from(bob.id), Variant::Atomic).await.unwrap();
        assert_eq!((bob_rating.attempts, bob_rating.solved, bob_rating.streak), (1, 1, 1));
        d.stop().await;
        Ok(())
    }
}

kaboom_testkit::dbtest! {
    /// A server's daily puzzle: set its channel, the scheduler posts it once per UTC day
    /// with a button, players try it privately, and the next day's post says how many
    /// solved yesterday's.
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn the_daily_puzzle_is_posted_tried_and_counted() -> Outcome {
        let d = TestBot::start().await?;
        add(&d, &[two_moves(), king_blast()]).await;
        let channel = d.fake.text_channel_id();
        let guild = d.fake.guild_id();
        let r = d
            .cmd(
                &d.carol,
                channel,
                "settings",
                vec![CommandOption::subcommand(
                    "server",
                    vec![CommandOption::channel("puzzle_channel", channel)],
                )],
            )
            .await?;
        assert!(
            r.content().unwrap().ends_with(&format!("\nA daily puzzle is posted in <#{channel}> soon after 00:00 UTC.")),
            "{:?}",
            r.content()
        );
        let scheduler = d.scheduler(d.clock.clone(), SchedulerConfig::default());
        let report = scheduler.sweep().await?;
        assert_eq!(report.daily_puzzles, [guild as i64]);
        d.outbox_delivered().await?;
        let day = T0.div_euclid(86_400);
        let today = kaboom_store::puzzles::daily(&d.db, guild as i64, day).await.unwrap().expect("today's puzzle");
        let puzzle = [two_moves(), king_blast()].into_iter().find(|p| p.id == today.puzzle_id).unwrap();
        let post = d.fake.messages_in(channel).into_iter().last().unwrap();
        assert_eq!(
            post.content(),
            format!("**Daily puzzle** · <t:{}:D> · Atomic · rated {}\nWhite to play and win. **Try it privately**: only you see your answers.", day * 86_400, puzzle.glicko.shown())
        );
        assert_eq!(post.custom_ids(), [format!("kb:pzdaily:{day}")]);
        assert_eq!(today.message_id, Some(post.id as i64));
        // A second sweep the same day posts nothing.
        assert!(scheduler.sweep().await?.daily_puzzles.is_empty());

        // Alice solves it from the button; bob fails it.
        let tried = d.click(&d.alice, post.id, &format!("kb:pzdaily:{day}")).await?;
        assert!(tried.content().unwrap().starts_with(&format!("**Puzzle {}** · Atomic", puzzle.id)), "{:?}", tried.content());
        assert_eq!(tried.files.len(), 1);
        let mut text = String::new();
        for (i, step) in puzzle.solution.iter().enumerate().step_by(2) {
            text = answer(&d, &d.alice, step).await?;
            if i + 1 < puzzle.solution.len() {
                assert!(text.contains(" is right."), "{text}");
            }
        }
        assert!(text.contains(&format!("solves puzzle {}!", puzzle.id)), "{text}");
        d.click(&d.bob, post.id, &format!("kb:pzdaily:{day}")).await?;
        let start = AnyGame::from_fen(Variant::Atomic, &puzzle.fen).unwrap();
        let wrong = start
            .legal_actions(Viewer::Full)
            .into_iter()
            .find(|a| a.uci != puzzle.solution[0] && a.removed.is_empty())
            .unwrap();
        assert!(answer(&d, &d.bob, &wrong.san).await?.contains(" is not it."));
        // Carol's /puzzle daily is today's puzzle too.
        let r = puzzle_cmd(&d, &d.carol, "daily", vec![]).await?;
        assert!(r.content().unwrap().starts_with(&format!("**Puzzle {}**", puzzle.id)));

        // The next day's post counts yesterday's.
        d.clock.advance(86_400);
        assert_eq!(scheduler.sweep().await?.daily_puzzles, [guild as i64]);
        d.outbox_delivered().await?;
        let post = d.fake.messages_in(channel).into_iter().last().unwrap();
        assert!(
            post.content().ends_with("\nYesterday's puzzle: solved by 1 of the 3 players who tried it."),
            "{}",
            post.content()
        );
        d.stop().await;
        Ok(())
    }
}

kaboom_testkit::dbtest! {
    /// A Beirut puzzle names the solver's carriers and the opponent's (BE-2: the solver
    /// knows them, as in a study after the game), and its board marks only the solver's
    /// own; the Boom that blows up the king solves it (BE-3, BE-4).
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn a_beirut_puzzle_names_both_sides_carriers() -> Outcome {
        let d = TestBot::start().await?;
        let boom = StoredPuzzle {
            variant: Variant::Beirut,
            ..puzzle(
                "bboom1",
                "4k3/p4N2/8/8/8/8/8/4K3 w - - 0 1 1 f7 a7",
                &["Boom@f7"],
                &["boom", "king-blast", "one-move"],
                1300.0,
            )
        };
        add(&d, &[boom]).await;
        let shown = puzzle_cmd(&d, &d.alice, "solve", vec![CommandOption::integer("variant", 1)]).await?;
        assert_eq!(
            shown.content().unwrap(),
            "**Puzzle bboom1** · Beirut · rated 1300 · boom, king blast, one move\nYou play White: find the best move. Answer with `/puzzle move`.\nYour carriers: the knight on f7.\nBlack's carriers (you know them, as after the game): the pawn on a7."
        );
        let text = answer(&d, &d.alice, "Boom@f7").await?;
        assert!(text.starts_with("**Boom@f7"), "{text}");
        assert!(text.contains(" solves puzzle bboom1!\n"), "{text}");
        d.stop().await;
        Ok(())
    }
}
