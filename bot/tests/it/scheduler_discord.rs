//! The scheduler's notices through the Discord outbox against the fake Discord
//! server: a nudge by DM, a DM refused (error 50007) falling back to a mention in the
//! game's thread, the forfeit announced in the thread, an expired challenge's message
//! marked and stripped of its buttons, and each posted once across a crash between the
//! decision and the post. With the real bot: the challenge and carrier-choice messages say
//! when they expire or the game is aborted, and the scheduler's abort and expiry messages
//! say why.

use std::sync::Arc;

use std::time::Duration;

use fake_discord::{self, FakeDiscord};
use kaboom_domain::ids::{ChannelId, GuildId, MessageId, UserId};
use kaboom_rules::{GameOptions, Variant};
use kaboom_service::Services;
use kaboom_service::scheduler::SchedulerConfig;
use kaboom_store::challenges::{ColorChoice, NewChallenge};
use kaboom_testkit::clock::TestClock;
use kaboom_testkit::painter::PlainPainter;
use poise::serenity_prelude as serenity;

const ALICE: UserId = UserId(1001);
const BOB: UserId = UserId(1002);
const T0: i64 = 1_700_000_000;
const HOUR: i64 = 3600;
const WAIT: Duration = Duration::from_secs(20);

kaboom_testkit::dbtest! {
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn nudges_and_forfeit_reach_discord_with_dm_fallback() {
        let fake = FakeDiscord::start().await.expect("fake starts");
        let http = Arc::new(fake_discord::http(&fake.url(), fake_discord::FAKE_TOKEN));
        let (db, _dir) = kaboom_testkit::temp_db().await;
        let clock = Arc::new(TestClock::new(T0));
        let services = Services::new(db.clone(), clock.clone(), Arc::new(PlainPainter));
        let (scheduler, _outbox) = kaboom_testkit::discord_scheduler(
            &services,
            clock.clone(),
            http.clone(),
            SchedulerConfig::default(),
        );
        let sweep = || async {
            let r = scheduler.sweep().await.unwrap();
            assert!(kaboom_testkit::wait_for_outbox(&db, WAIT).await, "posted");
            r
        };
        let channel = fake.text_channel_id();
        let spec = |opponent| NewChallenge {
            guild_id: Some(GuildId(fake.guild_id())),
            channel_id: ChannelId(channel),
            challenger_id: ALICE,
            challenger_name: "alice".into(),
            opponent_id: opponent,
            variant: Variant::Atomic,
            options: GameOptions::default(),
            days_per_move: Some(1),
            color: ColorChoice::White,
            rated: false,
            venue: kaboom_store::challenges::Venue::Thread,
        };
        // A game in its thread; Bob's DMs are open, Alice's closed.
        let c = services.challenges().create(spec(Some(BOB))).await.unwrap();
        let id = services
            .challenges().accept(c.id, BOB, "bob")
            .await
            .unwrap()
            .row
            .id;
        let thread = fake.add_thread(channel, "alice vs bob").unwrap();
        services.games().set_thread(id, ChannelId(thread)).await.unwrap();
        fake.refuse_dms_for(ALICE.get());
        // An open challenge with buttons, left to expire.
        let open = services.challenges().create(spec(None)).await.unwrap();
        let button = serenity::CreateButton::new(format!("accept:{}", open.id)).label("Accept");
        let posted = serenity::ChannelId::new(channel)
            .send_message(
                &http,
                serenity::CreateMessage::new()
                    .content("alice challenges anyone")
                    .components(vec![serenity::CreateActionRow::Buttons(vec![button])]),
            )
            .await
            .unwrap();
        services
            .challenges().set_message(open.id, MessageId(posted.id.get()))
            .await
            .unwrap();

        // 50% of Alice's day: her DM is refused, so she is mentioned in the thread.
        clock.advance(12 * HOUR);
        sweep().await;
        let in_thread = fake.messages_in(thread);
        assert_eq!(in_thread.len(), 1, "{in_thread:?}");
        assert!(in_thread[0].content().starts_with(&format!("<@{ALICE}>")));
        assert_eq!(in_thread[0].content(), "<@1001> Your move in game #1 (Atomic against bob): you have used 50% of your time; the deadline is <t:1700086400:R>. https://discord.com/channels/1323802873040994304/1323802873049382912\nFrom any channel: `/move game:1 action:...`");
        assert!(
            fake.messages_in(fake.dm_channel_for(ALICE.get()))
                .is_empty()
        );

        // Alice moves; at 50% of Bob's day he gets a DM with the thread link, nothing in the
        // thread.
        services.games().play(kaboom_service::PlayRequest::new(id, ALICE, "e4")).await.unwrap();
        clock.advance(12 * HOUR);
        sweep().await;
        let dms = fake.messages_in(fake.dm_channel_for(BOB.get()));
        assert_eq!(dms.len(), 1, "{dms:?}");
        assert!(
            dms[0].content().contains(&format!("/{thread}")),
            "{}",
            dms[0].content()
        );
        // The DM carries Bob's own board, Black at the bottom (the thread's boards are
        // from White's side for everyone).
        let snap = services.games().load(id).await.unwrap();
        let own = kaboom_service::painter::BoardPainter::paint_game(
            &PlainPainter,
            &snap.game,
            kaboom_rules::Viewer::Black,
            kaboom_rules::Color::Black,
        )
        .unwrap();
        assert_eq!(dms[0].attachments.len(), 1, "{:?}", dms[0].attachments);
        assert!(dms[0].attachments[0].bytes == own, "Bob's own view, from Black's side");
        assert_eq!(fake.messages_in(thread).len(), 1);

        // The latest board, with its in-game buttons.
        let board = serenity::ChannelId::new(thread)
            .send_message(
                &http,
                serenity::CreateMessage::new()
                    .content("board after 1. e4")
                    .components(kaboom_discord::messages::board_buttons(id, false)),
            )
            .await
            .unwrap();
        services
            .games().set_board_message(id, MessageId(board.id.get()))
            .await
            .unwrap();
        assert_eq!(fake.message(board.id.get()).unwrap().custom_ids().len(), 3);

        // Bob lets the deadline pass: the forfeit is announced once, in the thread, on the
        // final board with the finished game's buttons (My view, Rematch, Analyse), so the
        // thread does not end on a board that says Black is to move; the board before it
        // loses its buttons.
        clock.advance(12 * HOUR);
        sweep().await;
        sweep().await;
        let in_thread = fake.messages_in(thread);
        // The announcement, then the finished game's replay GIF.
        assert_eq!(in_thread.len(), 4);
        assert_eq!(in_thread[2].content(), "Time is up in game #1: bob (Black) did not move by the deadline. alice (White) wins on time, 1-0. <@1001> <@1002>");
        assert!(
            in_thread[3].attachments[0].filename.ends_with(".gif"),
            "{:?}",
            in_thread[3].attachments
        );
        let attachments: Vec<&str> = in_thread[2]
            .attachments
            .iter()
            .map(|a| a.filename.as_str())
            .collect();
        assert_eq!(attachments, ["game-1.png"]);
        assert_eq!(
            in_thread[2].custom_ids(),
            ["kb:view:1", "kb:rematch:1", "kb:analyse:1"]
        );
        assert!(fake.message(board.id.get()).unwrap().custom_ids().is_empty());

        // Seven days on, the open challenge expires: its message says so and has no buttons.
        clock.advance(7 * 24 * HOUR);
        let r = sweep().await;
        assert_eq!(r.expired, vec![open.id]);
        let message = fake.message(posted.id.get()).unwrap();
        assert_eq!(message.content(), "alice challenges anyone\n**Expired.** This challenge expired: nobody accepted it within 7 days. alice can post a new one with /challenge.");
        assert!(message.custom_ids().is_empty());
    }
}

kaboom_testkit::dbtest! {
    /// The bot dies right after the sweep committed a time forfeit (no deliverer
    /// ran); at the restart the deliverer posts the announcement, Discord's first answer is
    /// lost (a 502 after the message was made), and the retry with the same nonce gets that
    /// message back: the forfeit is announced exactly once.
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn a_forfeit_is_announced_once_across_a_crash_and_a_lost_answer() {
        use kaboom_discord::notifier::DiscordNotifier;
        use kaboom_discord::outbox::Deliverer;
        let fake = FakeDiscord::start().await.expect("fake starts");
        let http = Arc::new(fake_discord::http(&fake.url(), fake_discord::FAKE_TOKEN));
        let (db, _dir) = kaboom_testkit::temp_db().await;
        let clock = Arc::new(TestClock::new(T0));
        let services = Services::new(db.clone(), clock.clone(), Arc::new(PlainPainter));
        let channel = fake.text_channel_id();
        let c = services
            .challenges().create(NewChallenge {
                guild_id: Some(GuildId(fake.guild_id())),
                channel_id: ChannelId(channel),
                challenger_id: ALICE,
                challenger_name: "alice".into(),
                opponent_id: Some(BOB),
                variant: Variant::Atomic,
                options: GameOptions::default(),
                days_per_move: Some(1),
                color: ColorChoice::White,
                rated: false,
                venue: kaboom_store::challenges::Venue::Thread,
            })
            .await
            .unwrap();
        let id = services
            .challenges().accept(c.id, BOB, "bob")
            .await
            .unwrap()
            .row
            .id;
        let thread = fake.add_thread(channel, "alice vs bob").unwrap();
        services.games().set_thread(id, ChannelId(thread)).await.unwrap();
        let scheduler = kaboom_testkit::default_scheduler(
            db.clone(),
            clock.clone(),
            Arc::new(DiscordNotifier::new(services.outbox_waker().clone())),
        );
        clock.advance(24 * HOUR);
        assert_eq!(scheduler.sweep().await.unwrap().forfeited, vec![id]);
        assert!(fake.messages_in(thread).is_empty(), "nobody delivered yet");

        let post = format!("/channels/{thread}/messages");
        fake.fail_next_after("POST", &post, 502, 1);
        let _outbox = Deliverer::spawn(services.clone(), http);
        assert!(kaboom_testkit::wait_for_outbox(&db, WAIT).await);
        tokio::time::sleep(Duration::from_millis(500)).await;
        let posted = fake.messages_in(thread);
        assert_eq!(posted.len(), 1, "{posted:?}");
        assert_eq!(posted[0].content(), "Time is up in game #1: alice (White) did not move by the deadline. bob (Black) wins on time, 0-1. <@1001> <@1002>");
        let tries = fake
            .requests()
            .into_iter()
            .filter(|r| r.method == "POST" && r.path == post)
            .count();
        assert_eq!(tries, 2, "the lost answer and the retry");
    }
}

// ---------------------------------------------------------------------------------------
// The real bot (poise/serenity) against the fake Discord: what the challenge and
// carrier-choice messages say about expiry and abort, and what the scheduler then posts.

mod with_bot {
    use std::sync::Arc;
    use std::time::Duration;

    use fake_discord::{
        CommandOption, FakeDiscord, InteractionResponse, MEMBER_PERMISSIONS, SimUser,
    };
    use kaboom_service::Services;
    use kaboom_service::scheduler::SchedulerConfig;
    use kaboom_store::settings as stored;
    use kaboom_testkit::clock::TestClock;
    use kaboom_testkit::driver::{Driver, ServicesFor};
    use kaboom_testkit::painter::PlainPainter;
    use poise::serenity_prelude::Permissions;

    use super::{ChannelId, GuildId, HOUR, T0, UserId};

    use kaboom_testkit::fixture::BEIRUT;

    const WAIT: Duration = Duration::from_secs(30);
    const WHITE: i64 = 0; // choice index of the `color` option

    /// The real bot over a fresh database in `dir`, against a new fake Discord, its services
    /// on `clock` with the cheap [`PlainPainter`] and the scheduler configuration `config`
    /// (whose times the messages quote): `kaboom_testkit::driver::Driver`, as in e2e.rs.
    async fn start_bot(
        dir: &kaboom_testkit::TempDb,
        clock: &Arc<TestClock>,
        config: SchedulerConfig,
    ) -> Driver {
        let fake = FakeDiscord::start().await.expect("fake starts");
        let url = dir.url().to_string();
        let clock = clock.clone();
        let services_for: ServicesFor = Arc::new(move |db| {
            Services::new(db, clock.clone(), Arc::new(PlainPainter))
                .with_scheduler_config(config.clone())
        });
        Driver::start_with(fake, &url, services_for)
            .await
            .expect("the bot starts")
    }

    /// `user`'s slash command `name` in the text channel, and its answer.
    async fn cmd(
        d: &Driver,
        user: &SimUser,
        name: &str,
        options: Vec<CommandOption>,
    ) -> InteractionResponse {
        d.cmd(user, d.fake.text_channel_id(), name, options)
            .await
            .expect("an answer")
    }

    /// `/settings me` and `/settings server` through Discord, then followed by the
    /// scheduler: the server's 30% threshold, alice's choice of a thread mention.
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn settings_commands_change_what_the_scheduler_sends() {
        let dir = kaboom_testkit::TempDb::new().await;
        let clock = Arc::new(TestClock::new(T0));
        let d = start_bot(&dir, &clock, SchedulerConfig::default()).await;
        let (fake, db) = (&d.fake, d.db.clone());
        let services = Services::new(db.clone(), clock.clone(), Arc::new(PlainPainter));
        let alice = SimUser::new(1001, "alice");
        let settings = |sub: &str, options| vec![CommandOption::subcommand(sub, options)];

        // Without options: shows the defaults.
        let shown = cmd(&d, &alice, "settings", settings("me", vec![])).await;
        assert_eq!(
            shown.content().unwrap(),
            "Reminders to move are on, by DM (a mention in the game's thread if the DM fails). Turn them off with `/settings me nudges:False`.\nExplosion previews: before every action that removes pieces in your first 3 games of each variant, then only when asked with `/move ... preview:True`. Always: `/settings me previews:always`; never unasked: `/settings me previews:only when asked`."
        );
        // ViaChoice: 0 = DM, 1 = thread mention.
        let changed = cmd(
            &d,
            &alice,
            "settings",
            settings("me", vec![CommandOption::integer("via", 1)]),
        )
        .await;
        let text = changed.content().unwrap();
        assert_eq!(
            text,
            "Reminders to move are on, by a mention in the game's thread. Turn them off with `/settings me nudges:False`.\nExplosion previews: before every action that removes pieces in your first 3 games of each variant, then only when asked with `/move ... preview:True`. Always: `/settings me previews:always`; never unasked: `/settings me previews:only when asked`."
        );
        assert!(changed.is_ephemeral(), "settings answers are private");
        let server = cmd(
            &d,
            &alice,
            "settings",
            settings(
                "server",
                vec![
                    CommandOption::string("shares", "30"),
                    CommandOption::integer("idle_hours", 24),
                ],
            ),
        )
        .await;
        let text = server.content().unwrap();
        assert_eq!(
            text,
            "Reminders in this server: timed games at 30% of the time per move; untimed games after 24 hours without a move, then every 168 hours.\nLeagues are created and managed by members with Manage Server.\nEach player may have 3 practice games against the bot and 10 open challenges at once here, and send 30 commands a minute.\nNo daily puzzle: choose its channel with `puzzle_channel`."
        );
        let bad = cmd(
            &d,
            &alice,
            "settings",
            settings("server", vec![CommandOption::string("shares", "150")]),
        )
        .await;
        assert_eq!(
            bad.content().unwrap(),
            "'150' is not a share of the time: give percentages from 1 to 99, e.g. 50,80."
        );

        // A one-day game in this server: at 30% of alice's day she is mentioned in the
        // thread (her choice), not sent a DM.
        let c = services
            .challenges()
            .create(kaboom_store::challenges::NewChallenge {
                guild_id: Some(GuildId(fake.guild_id())),
                channel_id: ChannelId(fake.text_channel_id()),
                challenger_id: UserId(alice.id),
                challenger_name: "alice".into(),
                opponent_id: Some(UserId(1002)),
                variant: kaboom_rules::Variant::Atomic,
                options: kaboom_rules::GameOptions::default(),
                days_per_move: Some(1),
                color: kaboom_store::challenges::ColorChoice::White,
                rated: false,
                venue: kaboom_store::challenges::Venue::Thread,
            })
            .await
            .unwrap();
        let id = services
            .challenges()
            .accept(c.id, UserId(1002), "bob")
            .await
            .unwrap()
            .row
            .id;
        let thread = fake
            .add_thread(fake.text_channel_id(), "alice vs bob")
            .unwrap();
        services
            .games()
            .set_thread(id, ChannelId(thread))
            .await
            .unwrap();
        let scheduler = d.scheduler(clock.clone(), SchedulerConfig::default());
        clock.advance(24 * HOUR * 30 / 100);
        let r = scheduler.sweep().await.unwrap();
        d.outbox_delivered().await.unwrap();
        assert_eq!(r.nudged, vec![(id, "share:30".to_string())]);
        let in_thread = fake.messages_in(thread);
        assert_eq!(in_thread.len(), 1, "{in_thread:?}");
        assert!(
            in_thread[0]
                .content()
                .starts_with("<@1001> Your move in game #")
        );
        assert_eq!(
            in_thread[0].content(),
            "<@1001> Your move in game #1 (Atomic against bob): you have used 30% of your time; the deadline is <t:1700086400:R>. https://discord.com/channels/1323802873040994304/1323802873208766464\nFrom any channel: `/move game:1 action:...`"
        );
        assert!(fake.messages_in(fake.dm_channel_for(alice.id)).is_empty());
        d.stop().await;
    }

    /// `/settings server` needs Manage Server. poise checks the `permissions` of
    /// the interaction's `member`; a member without it gets a private refusal naming the
    /// permission and the server's defaults stay unset, while `/settings me` still works.
    /// A member with Manage Server (not Administrator) and an Administrator can use it.
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn settings_server_needs_manage_server() {
        let dir = kaboom_testkit::TempDb::new().await;
        let clock = Arc::new(TestClock::new(T0));
        let d = start_bot(&dir, &clock, SchedulerConfig::default()).await;
        let (fake, db) = (&d.fake, d.db.clone());
        let member = SimUser::new(1002, "bob").with_permissions(MEMBER_PERMISSIONS);
        let manager = SimUser::new(1003, "carol")
            .with_permissions(MEMBER_PERMISSIONS | Permissions::MANAGE_GUILD);
        let admin = SimUser::new(1001, "alice"); // every permission
        let server = |options| vec![CommandOption::subcommand("server", options)];

        for options in [vec![CommandOption::string("shares", "30")], vec![]] {
            let refused = cmd(&d, &member, "settings", server(options)).await;
            let text = refused.content().unwrap();
            assert_eq!(
                text,
                "`/settings server` needs the Manage Server permission, which you do not have in this server. Ask a server admin to do it."
            );
            assert!(refused.is_ephemeral(), "the refusal is private");
        }
        assert_eq!(
            stored::guild(&db, GuildId(fake.guild_id())).await.unwrap(),
            None
        );
        let own = cmd(
            &d,
            &member,
            "settings",
            vec![CommandOption::subcommand("me", vec![])],
        )
        .await;
        assert_eq!(
            own.content().unwrap(),
            "Reminders to move are on, by DM (a mention in the game's thread if the DM fails). Turn them off with `/settings me nudges:False`.\nExplosion previews: before every action that removes pieces in your first 3 games of each variant, then only when asked with `/move ... preview:True`. Always: `/settings me previews:always`; never unasked: `/settings me previews:only when asked`."
        );

        let changed = cmd(
            &d,
            &manager,
            "settings",
            server(vec![CommandOption::integer("idle_hours", 12)]),
        )
        .await;
        let text = changed.content().unwrap();
        assert_eq!(
            text,
            "Reminders in this server: timed games at 50% and 80% of the time per move; untimed games after 12 hours without a move, then every 168 hours.\nLeagues are created and managed by members with Manage Server.\nEach player may have 3 practice games against the bot and 10 open challenges at once here, and send 30 commands a minute.\nNo daily puzzle: choose its channel with `puzzle_channel`."
        );
        let stored = stored::guild(&db, GuildId(fake.guild_id())).await.unwrap();
        assert_eq!(stored.map(|s| s.idle_first_secs), Some(12 * 3600));

        let shown = cmd(&d, &admin, "settings", server(vec![])).await;
        let text = shown.content().unwrap();
        assert_eq!(
            text,
            "Reminders in this server: timed games at 50% and 80% of the time per move; untimed games after 12 hours without a move, then every 168 hours.\nLeagues are created and managed by members with Manage Server.\nEach player may have 3 practice games against the bot and 10 open challenges at once here, and send 30 commands a minute.\nNo daily puzzle: choose its channel with `puzzle_channel`."
        );
        assert!(shown.is_ephemeral());
        d.stop().await;
    }

    /// The refusal names each missing permission as Discord's settings do.
    #[test]
    fn missing_permission_refusals_name_the_permissions() {
        use kaboom_discord::commands::missing_permissions_text;
        let two = missing_permissions_text(
            "x",
            Some(Permissions::MANAGE_GUILD | Permissions::MANAGE_ROLES),
        );
        assert_eq!(
            two,
            "`/x` needs the Manage Server and Manage Roles permissions, which you do not have in this server. Ask a server admin to do it."
        );
        let unknown = missing_permissions_text("x", None);
        assert_eq!(
            unknown,
            "You may lack a permission that `/x` needs, so it was not run. Ask a server admin."
        );
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn challenge_and_carrier_messages_say_when_they_expire_and_the_scheduler_explains() {
        let dir = kaboom_testkit::TempDb::new().await;
        let clock = Arc::new(TestClock::new(T0));
        // A 36-hour designation timeout, to see that the messages quote the configuration.
        let config = SchedulerConfig {
            designation_timeout_secs: 36 * HOUR,
            ..SchedulerConfig::default()
        };
        let d = start_bot(&dir, &clock, config.clone()).await;
        let fake = &d.fake;
        let alice = SimUser::new(1001, "alice");
        let bob = SimUser::new(1002, "bob");
        let challenge = cmd(
            &d,
            &alice,
            "challenge",
            vec![
                CommandOption::integer("variant", BEIRUT),
                CommandOption::user("opponent", &bob),
                CommandOption::integer("color", WHITE),
            ],
        )
        .await;
        let text = challenge.content().unwrap().to_string();
        assert!(
            text.contains(&format!(
                "Open for 7 days: expires <t:{}:R> if nobody accepts.",
                T0 + 7 * 24 * HOUR
            )),
            "{text}"
        );
        // An open challenge to anyone, left to expire.
        let open = cmd(
            &d,
            &alice,
            "challenge",
            vec![CommandOption::integer("variant", BEIRUT)],
        )
        .await;
        let open_message = open.message_id.expect("open challenge message");

        // Bob accepts the Beirut challenge: each player's carrier menu says when the game
        // is aborted without their choice.
        let accept = challenge
            .custom_ids()
            .into_iter()
            .find(|i| i.starts_with("kb:accept:"))
            .unwrap();
        let sent = fake
            .click_button(&bob, challenge.message_id.unwrap(), &accept)
            .unwrap();
        assert_eq!(
            d.answer(&sent).await.expect("an answer").content().unwrap(),
            "Game on! See <#1323802873179406336>."
        );
        let thread = fake.threads().last().unwrap().id;
        // The thread's first board says it too, for spectators and for players whose DMs
        // are closed.
        let setup = fake
            .wait_for_messages_in(thread, 1, WAIT)
            .await
            .expect("the setup board");
        let caption = setup[0].content();
        assert!(
            caption.contains("choose their carriers privately")
                && caption.contains(&format!(
                    "within 36 hours (by <t:{0}:f>, <t:{0}:R>), or the game is aborted",
                    T0 + 36 * HOUR
                )),
            "{caption}"
        );
        for user in [&alice, &bob] {
            let dms = fake
                .wait_for_messages_in(fake.dm_channel_for(user.id), 1, WAIT)
                .await
                .expect("carrier menu by DM");
            let prompt = dms[0].content();
            assert!(
                prompt.contains(&format!(
                    "Both players must choose within 36 hours (by <t:{0}:f>, <t:{0}:R>), or the game is aborted",
                    T0 + 36 * HOUR
                )),
                "{prompt}"
            );
        }

        // Nobody chooses: 36 hours on, the scheduler aborts the game and says why.
        let scheduler = d.scheduler(clock.clone(), config);
        clock.advance(36 * HOUR);
        let r = scheduler.sweep().await.unwrap();
        d.outbox_delivered().await.unwrap();
        assert_eq!(r.aborted.len(), 1);
        let last = fake
            .messages_in(thread)
            .last()
            .unwrap()
            .content()
            .to_string();
        assert_eq!(
            last,
            "Game #1 is aborted: the carriers were not chosen within 36 hours (still waiting for alice (White) and bob (Black)). No result is recorded; challenge again any time. <@1001> <@1002>"
        );

        // Seven days after it was posted the open challenge expires: its message loses the
        // "Open for" line and its buttons, and says what happened.
        clock.advance(7 * 24 * HOUR - 36 * HOUR);
        let r = scheduler.sweep().await.unwrap();
        d.outbox_delivered().await.unwrap();
        assert_eq!(r.expired.len(), 1);
        let message = fake.message(open_message).unwrap();
        let content = message.content();
        assert!(!content.contains("Open for"));
        assert_eq!(
            content,
            "<@1001> is looking for an opponent to a game of **Beirut** (3 days per move, rated, 1 carrier, colours drawn at random).\n**Expired.** This challenge expired: nobody accepted it within 7 days. alice can post a new one with /challenge."
        );
        assert!(message.custom_ids().is_empty());

        d.stop().await;
    }
}
