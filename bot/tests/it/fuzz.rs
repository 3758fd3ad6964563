//! Bad input never panics the bot: arbitrary text into the custom-id parser and
//! the outbox's stored payloads (`serde_json::from_str::<Effect>`, what the deliverer reads
//! back from the database), near-misses of real payloads, the domain ids' parsers; and
//! forged custom ids and select values clicked on the running bot through the fake
//! Discord, each answered with a refusal, after which the game still plays.
//!
//! Bounded: [`CASES`] cases per property; CI fixes `PROPTEST_RNG_SEED`.

use std::str::FromStr;

use kaboom_discord::messages::ids;
use kaboom_discord::outbox::Effect;
use kaboom_domain::ids::{ChannelId, GameId, MessageId, UserId};
use kaboom_testkit::demo::DemoError;
use kaboom_testkit::driver::{Driver, WAIT};
use kaboom_testkit::fixture::{BEIRUT, TestBot};
use proptest::prelude::*;
use proptest::strategy::ValueTree;
use proptest::test_runner::TestRunner;

/// Cases per property.
const CASES: u32 = 256;

fn config() -> ProptestConfig {
    ProptestConfig {
        cases: CASES,
        failure_persistence: Some(Box::new(
            proptest::test_runner::FileFailurePersistence::WithSource("proptest-regressions"),
        )),
        ..ProptestConfig::default()
    }
}

/// Text shaped like a custom id (`kb:<action>:<id>` and near-misses), or anything.
fn custom_id_like() -> impl Strategy<Value = String> {
    prop_oneof![
        "(kb)?:?[a-z]{0,12}:?-?[0-9]{0,22}(:[a-z0-9]{0,4})?",
        any::<String>(),
        proptest::collection::vec(any::<u8>(), 0..40)
            .prop_map(|bytes| String::from_utf8_lossy(&bytes).into_owned()),
    ]
}

/// JSON-ish text: arbitrary, or built from JSON's punctuation and the payloads' words.
fn json_like() -> impl Strategy<Value = String> {
    prop_oneof![
        any::<String>(),
        "[{}\\[\\]\",:0-9a-z\\-. ]{0,60}",
        r#"\{"kind": ?"(thread|challenge-accepted|challenge-closed|board|carrier-menu|announcement|game-ended|nudge|x)"(, ?"[a-z_]{1,12}": ?(-?[0-9]{1,20}|"[a-z]{0,5}"|true|null|\[\]))*\}"#,
    ]
}

fn effect() -> impl Strategy<Value = Effect> {
    prop_oneof![
        (any::<u64>(), any::<String>(), any::<Option<u64>>()).prop_map(
            |(channel, name, message)| Effect::Thread {
                channel_id: ChannelId(channel),
                name,
                message_id: message.map(MessageId),
            }
        ),
        any::<u64>().prop_map(|by| Effect::ChallengeAccepted { by: UserId(by) }),
        (
            any::<u64>(),
            any::<Option<u64>>(),
            any::<Option<String>>(),
            any::<String>()
        )
            .prop_map(
                |(channel, message, content, line)| Effect::ChallengeClosed {
                    channel_id: ChannelId(channel),
                    message_id: message.map(MessageId),
                    content,
                    line,
                }
            ),
        any::<String>().prop_map(|text| Effect::GameEnded { text }),
        (any::<u64>(), any::<bool>(), any::<i64>(), any::<String>()).prop_map(
            |(user, dm, ply, text)| Effect::Nudge {
                user: UserId(user),
                dm,
                ply,
                text,
            }
        ),
        (any::<i64>(), any::<String>(), any::<bool>()).prop_map(|(ply, caption, finished)| {
            Effect::Board {
                ply,
                caption,
                finished,
            }
        }),
        any::<u64>().prop_map(|user| Effect::CarrierMenu { user: UserId(user) }),
        (
            any::<String>(),
            proptest::collection::vec(any::<u64>(), 0..4),
            any::<bool>()
        )
            .prop_map(|(text, pings, draw_buttons)| Effect::Announcement {
                text,
                pings: pings.into_iter().map(UserId).collect(),
                draw_buttons,
            }),
    ]
}

/// `text` with the character at `at` (a fraction of its length) replaced by `c`, or cut
/// there when `cut`.
fn mutate(text: &str, at: f64, c: char, cut: bool) -> String {
    let mut chars: Vec<char> = text.chars().collect();
    let i = ((chars.len() as f64 * at) as usize).min(chars.len().saturating_sub(1));
    if cut {
        chars.truncate(i);
    } else if let Some(slot) = chars.get_mut(i) {
        *slot = c;
    }
    chars.into_iter().collect()
}

proptest! {
    #![proptest_config(config())]

    /// The custom-id router's parser answers `None` or a pair for any text.
    #[test]
    fn custom_ids_parse_or_are_refused(text in custom_id_like()) {
        if let Some((action, _)) = ids::parse(&text) {
            prop_assert!(text.starts_with("kb:"));
            prop_assert!(!action.contains(':') || text.matches(':').count() > 2);
        }
    }

    /// What `make` builds, `parse` reads back.
    #[test]
    fn custom_ids_round_trip(action in "[a-z]{1,12}", id in any::<i64>()) {
        let made = ids::make(&action, id);
        prop_assert_eq!(ids::parse(&made), Some((action.as_str(), id)));
    }

    /// A stored payload that is not an effect is an error, never a panic.
    #[test]
    fn stored_payloads_deserialize_or_fail(text in json_like()) {
        let _ = serde_json::from_str::<Effect>(&text);
    }

    /// Real payloads round-trip; with one character changed or cut short they still give
    /// an effect or an error.
    #[test]
    fn damaged_payloads_deserialize_or_fail(
        effect in effect(),
        at in 0.0..1.0f64,
        c in any::<char>(),
        cut in any::<bool>(),
    ) {
        let stored = serde_json::to_string(&effect).unwrap();
        prop_assert_eq!(serde_json::from_str::<Effect>(&stored).unwrap(), effect);
        let _ = serde_json::from_str::<Effect>(&mutate(&stored, at, c, cut));
    }

    /// The domain ids parse decimal text or fail.
    #[test]
    fn domain_ids_parse_or_fail(text in custom_id_like()) {
        let _ = GameId::from_str(&text);
        let _ = UserId::from_str(&text);
        let _ = ChannelId::from_str(&text);
        let _ = MessageId::from_str(&text);
    }
}

/// `count` values of `strategy`, the same in every run.
fn samples<S: Strategy>(strategy: S, count: usize) -> Vec<S::Value> {
    let mut runner = TestRunner::deterministic();
    (0..count)
        .map(|_| strategy.new_tree(&mut runner).unwrap().current())
        .collect()
}

kaboom_testkit::dbtest! {
    /// The running bot answers forged custom ids (and a forged carrier choice) with an
    /// ephemeral refusal, changes nothing, and the game then plays on.
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn forged_components_are_refused_and_the_game_plays_on() -> Result<(), DemoError> {
        let d = TestBot::start().await?;
        let started = d.start_game(BEIRUT).await?; // a carrier menu to forge choices on
        let game = started.game.0;
        let message = started.challenge_message;
        let mut forged: Vec<String> = [
            "",
            "kb",
            "kb:",
            "kb::",
            "kb:accept",
            "kb:accept:",
            "kb:accept:x",
            "kb:accept:999999",
            "kb:decline:-1",
            "kb:cancel:9223372036854775807",
            "kb:resign:999999",
            "kb:resignyes:999999",
            "kb:drawyes:0",
            "kb:view:999999",
            "kb:carriers:999999",
            "kb:nosuch:1",
            "other:app:1",
            "kb:view:1:2",
            "kb:resign:99999999999999999999",
            "kb:tbyes:999999",
            "kb:tbno:0",
            "kb:rematch:999999",
        ]
        .iter()
        .map(ToString::to_string)
        .collect();
        forged.push(format!("kb:carriers:{game}")); // a button where a select menu belongs
        forged.push(format!("kb:zzz:{game}"));
        forged.push(format!("kb:tbyes:{game}")); // no takeback proposed
        forged.push(format!("kb:rematch:{game}")); // the game is not over
        forged.extend(
            samples(custom_id_like(), 12)
                .into_iter()
                .filter(|id| !id.is_empty() && id.chars().count() <= 100),
        );
        let public = |d: &Driver| {
            let mut all = d.fake.messages_in(d.fake.text_channel_id());
            all.extend(d.fake.messages_in(started.thread.get()));
            all.iter().filter(|m| !m.is_ephemeral()).count()
        };
        let before = public(&d);
        for custom_id in &forged {
            // Two seconds apart on the bot's clock: within alice's 30 commands a minute,
            // so each forged click reaches the handler it targets.
            d.clock.advance(2);
            let answer = d.click(&d.alice, message, custom_id).await?;
            let text = answer.content().unwrap_or_default();
            // Answered privately (an ephemeral message, or the edit of an ephemeral deferral).
            assert!(!text.is_empty(), "{custom_id:?}: {answer:?}");
            assert!(
                !text.contains("Sorry, that failed"),
                "{custom_id:?}: {text}"
            );
        }
        assert_eq!(public(&d), before, "no public message for a forged click");

        // Forged carrier choices in the real menu: refused, then a real choice works.
        let menu = format!("kb:carriers:{game}");
        let dm = d
            .fake
            .wait_for_messages_in(d.fake.dm_channel_for(d.alice.id), 1, WAIT)
            .await?
            .into_iter()
            .rev()
            .find(|m| m.custom_ids().contains(&menu))
            .expect("a carrier menu by DM");
        let bad_values: Vec<Vec<String>> = vec![
            vec![],
            vec!["z9".into()],
            vec!["e1".into()], // the king
            vec!["e7".into()], // the opponent's piece
            vec!["g1".into(), "g1".into()],
            vec!["x".repeat(100)],
        ];
        for values in &bad_values {
            let values: Vec<&str> = values.iter().map(String::as_str).collect();
            d.clock.advance(2);
            let sent = d.fake.select_menu(&d.alice, dm.id, &menu, &values)?;
            let answer = d.answer(&sent).await?;
            let text = answer.content().unwrap_or_default();
            assert!(!text.is_empty(), "{values:?}: {answer:?}");
            assert!(!text.contains("Sorry, that failed"), "{values:?}: {text}");
        }
        d.choose_carriers_by_dm(&d.alice, started.game, &["g1"])
            .await?;
        d.choose_carriers_by_dm(&d.bob, started.game, &["g8"])
            .await?;
        let moved = d.play(&d.alice, started.thread, "e4").await?;
        assert!(moved.content().is_some(), "{moved:?}");
        let row = kaboom_store::games::get(&d.db, started.game)
            .await?
            .expect("the game");
        assert_eq!(row.ply, 1, "only the real move was applied");
        let actions = kaboom_store::games::actions(&d.db, started.game).await?;
        assert_eq!(actions, vec!["e4".to_string()]);
        d.driver.stop().await;
        Ok(())
    }
}
