//! The scheduler's Discord notifier against the fake Discord server: a nudge by DM, a DM
//! refused (error 50007) falling back to a mention in the game's thread, the forfeit
//! announced in the thread, and an expired challenge's message marked and stripped of its
//! buttons.

use std::sync::Arc;

use kaboom_bot::clock::TestClock;
use kaboom_bot::fake_discord::{self, FakeDiscord};
use kaboom_bot::painter::PlainPainter;
use kaboom_bot::scheduler::discord::DiscordNotifier;
use kaboom_bot::scheduler::{Scheduler, SchedulerConfig};
use kaboom_bot::services::Services;
use kaboom_bot::storage::Db;
use kaboom_bot::storage::challenges::{ColorChoice, NewChallenge};
use kaboom_rules::{GameOptions, Variant};
use poise::serenity_prelude as serenity;

const ALICE: u64 = 1001;
const BOB: u64 = 1002;
const T0: i64 = 1_700_000_000;
const HOUR: i64 = 3600;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn nudges_and_forfeit_reach_discord_with_dm_fallback() {
    let fake = FakeDiscord::start().await.expect("fake starts");
    let http = Arc::new(fake_discord::http(&fake.url(), fake_discord::FAKE_TOKEN));
    let dir = tempfile::tempdir().unwrap();
    let db = Db::connect(&format!("sqlite://{}", dir.path().join("d.db").display()))
        .await
        .unwrap();
    let clock = Arc::new(TestClock::new(T0));
    let services = Services::new(db.clone(), clock.clone(), Arc::new(PlainPainter));
    let scheduler = Scheduler::new(
        db,
        clock.clone(),
        Arc::new(DiscordNotifier::new(http.clone())),
        SchedulerConfig::default(),
    );
    let channel = fake.text_channel_id();
    let spec = |opponent| NewChallenge {
        guild_id: Some(fake.guild_id()),
        channel_id: channel,
        challenger_id: ALICE,
        challenger_name: "alice".into(),
        opponent_id: opponent,
        variant: Variant::Atomic,
        options: GameOptions::default(),
        days_per_move: Some(1),
        color: ColorChoice::White,
        rated: false,
    };
    // A game in its thread; Bob's DMs are open, Alice's closed.
    let c = services.create_challenge(spec(Some(BOB))).await.unwrap();
    let id = services
        .accept_challenge(c.id, BOB, "bob")
        .await
        .unwrap()
        .row
        .id;
    let thread = fake.add_thread(channel, "alice vs bob").unwrap();
    services.set_thread(id, thread).await.unwrap();
    fake.refuse_dms_for(ALICE);
    // An open challenge with buttons, left to expire.
    let open = services.create_challenge(spec(None)).await.unwrap();
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
        .set_challenge_message(open.id, posted.id.get())
        .await
        .unwrap();

    // 50% of Alice's day: her DM is refused, so she is mentioned in the thread.
    clock.advance(12 * HOUR);
    scheduler.sweep().await.unwrap();
    let in_thread = fake.messages_in(thread);
    assert_eq!(in_thread.len(), 1, "{in_thread:?}");
    assert!(in_thread[0].content().starts_with(&format!("<@{ALICE}>")));
    assert!(in_thread[0].content().contains("50%"));
    assert!(fake.messages_in(fake.dm_channel_for(ALICE)).is_empty());

    // Alice moves; at 50% of Bob's day he gets a DM with the thread link, nothing in the
    // thread.
    services.play(id, ALICE, "e4").await.unwrap();
    clock.advance(12 * HOUR);
    scheduler.sweep().await.unwrap();
    let dms = fake.messages_in(fake.dm_channel_for(BOB));
    assert_eq!(dms.len(), 1, "{dms:?}");
    assert!(
        dms[0].content().contains(&format!("/{thread}")),
        "{}",
        dms[0].content()
    );
    assert_eq!(fake.messages_in(thread).len(), 1);

    // Bob lets the deadline pass: the forfeit is announced once, in the thread.
    clock.advance(12 * HOUR);
    scheduler.sweep().await.unwrap();
    scheduler.sweep().await.unwrap();
    let in_thread = fake.messages_in(thread);
    assert_eq!(in_thread.len(), 2);
    assert!(
        in_thread[1].content().contains("wins on time"),
        "{}",
        in_thread[1].content()
    );

    // Seven days on, the open challenge expires: its message says so and has no buttons.
    clock.advance(7 * 24 * HOUR);
    let r = scheduler.sweep().await.unwrap();
    assert_eq!(r.expired, vec![open.id]);
    let message = fake.message(posted.id.get()).unwrap();
    assert!(
        message.content().contains("Expired"),
        "{}",
        message.content()
    );
    assert!(message.custom_ids().is_empty());
}
