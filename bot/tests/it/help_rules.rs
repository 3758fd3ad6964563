//! `/help` and `/rules` end to end: the real bot against the fake Discord
//! (`kaboom_testkit::driver::Driver`), answering within Discord's message limits
//! (<https://discord.com/developers/docs/resources/message#embed-object-embed-limits>):
//! content up to 2,000 characters; per embed a title up to 256, a description up to 4,096,
//! up to 25 fields with names up to 256 and values up to 1,024, a footer up to 2,048, and
//! 6,000 characters of embed text in all. `/rules` attaches the setup picture as a PNG,
//! equal to the rules page's `docs/rules/img/<variant>-start.png`, and has no links.

use std::path::Path;

use fake_discord::{CommandOption, FakeDiscord, InteractionResponse, ResponseKind};
use kaboom_rules::Variant;
use kaboom_testkit::driver::Driver;
use serde_json::Value;

fn chars(v: &Value) -> usize {
    v.as_str().map_or(0, |s| s.chars().count())
}

/// Checks Discord's limits on one answer and returns all of its text (content and
/// every embed's text) for further checks.
fn within_limits(what: &str, r: &InteractionResponse) -> String {
    let data = r.data();
    let mut text = String::new();
    assert!(
        chars(&data["content"]) <= 2000,
        "{what}: content has {} characters",
        chars(&data["content"])
    );
    text.push_str(data["content"].as_str().unwrap_or_default());
    let embeds = data["embeds"].as_array().cloned().unwrap_or_default();
    assert!(embeds.len() <= 10, "{what}: {} embeds", embeds.len());
    let mut total = 0;
    for e in &embeds {
        let (title, description, footer) = (
            chars(&e["title"]),
            chars(&e["description"]),
            chars(&e["footer"]["text"]),
        );
        assert!(title <= 256, "{what}: title has {title} characters");
        assert!(description <= 4096, "{what}: description has {description}");
        assert!(footer <= 2048, "{what}: footer has {footer}");
        total += title + description + footer + chars(&e["author"]["name"]);
        let fields = e["fields"].as_array().cloned().unwrap_or_default();
        assert!(fields.len() <= 25, "{what}: {} fields", fields.len());
        for f in &fields {
            let (name, value) = (chars(&f["name"]), chars(&f["value"]));
            assert!(
                (1..=256).contains(&name),
                "{what}: field name {} has {name} characters",
                f["name"]
            );
            assert!(
                (1..=1024).contains(&value),
                "{what}: field {} has {value} characters",
                f["name"]
            );
            total += name + value;
            text.push_str(&format!(
                "\n{}\n{}",
                f["name"].as_str().unwrap_or_default(),
                f["value"].as_str().unwrap_or_default()
            ));
        }
        for key in ["title", "description"] {
            text.push_str(&format!("\n{}", e[key].as_str().unwrap_or_default()));
        }
        text.push_str(&format!(
            "\n{}",
            e["footer"]["text"].as_str().unwrap_or_default()
        ));
    }
    assert!(total <= 6000, "{what}: {total} characters of embed text");
    assert!(
        !text.trim().is_empty(),
        "{what}: an empty answer: {:?}",
        r.body
    );
    text
}

kaboom_testkit::dbtest! {
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn help_and_rules_answer_within_discords_limits() {
        let dir = kaboom_testkit::TempDb::new().await;
        let url = dir.url().to_string();
        let fake = FakeDiscord::start().await.expect("fake starts");
        let d = Driver::start(fake, &url).await.expect("bot starts");
        let channel = d.fake.text_channel_id();

        // /help: a short first screen (how to start, how to move, where the rules are)
        // with a menu; its pages together hold every registered command's line and the
        // flow of a game.
        let help = d.cmd(&d.carol, channel, "help", vec![]).await.unwrap();
        assert!(help.is_ephemeral(), "/help answers the caller only");
        let first = within_limits("/help", &help);
        assert!(
            first.chars().count() < 800,
            "the first screen is short: {} characters\n{first}",
            first.chars().count()
        );
        for what in ["/challenge", "/move", "/rules"] {
            assert!(first.contains(what), "{what} is on the first screen:\n{first}");
        }
        assert_eq!(help.custom_ids(), ["kb:help:0"]);
        let menu = help.data()["components"][0]["components"][0].clone();
        let values: Vec<&str> = menu["options"]
            .as_array()
            .unwrap()
            .iter()
            .map(|o| o["value"].as_str().unwrap())
            .collect();
        assert_eq!(
            values,
            ["start", "commands", "flow-0", "flow-1", "flow-2", "flow-3", "flow-4"]
        );
        let message = help.message_id.expect("the ephemeral answer is a message");
        let mut text = first.clone();
        for value in &values {
            let sent = d
                .fake
                .select_menu(&d.carol, message, "kb:help:0", &[value])
                .unwrap();
            let page = d.answer(&sent).await.unwrap();
            // The message itself shows the page (UPDATE_MESSAGE), with the menu kept and
            // the page marked as chosen.
            assert!(
                matches!(page.kind, ResponseKind::Callback { callback_type: 7 }),
                "{value}: {:?}",
                page.kind
            );
            let page_text = within_limits(&format!("/help {value}"), &page);
            let chosen: Vec<&Value> = page.data()["components"][0]["components"][0]["options"]
                .as_array()
                .unwrap()
                .iter()
                .filter(|o| o["default"] == true)
                .collect();
            assert_eq!(chosen.len(), 1, "{value}");
            assert_eq!(chosen[0]["value"], *value);
            text.push_str(&page_text);
        }
        let mut names = Vec::new();
        for c in kaboom_discord::commands::all() {
            if c.subcommands.is_empty() {
                names.push(c.name.to_string());
            }
            names.extend(
                c.subcommands
                    .iter()
                    .map(|s| format!("{} {}", c.name, s.name)),
            );
        }
        for name in &names {
            assert!(
                text.contains(&format!("`/{name}`")),
                "/help does not list /{name}:\n{text}"
            );
        }
        for step in [
            "/challenge",
            "Accept",
            "Choose privately",
            "/move",
            "days",
            "loses on time",
            "/settings me",
        ] {
            assert!(
                text.contains(step),
                "/help does not explain '{step}':\n{text}"
            );
        }

        // /rules for each variant (choice index = declaration order = Variant::ALL).
        for (index, variant) in Variant::ALL.into_iter().enumerate() {
            let what = format!("/rules {}", variant.name());
            let r = d
                .cmd(
                    &d.carol,
                    channel,
                    "rules",
                    vec![CommandOption::integer("variant", index as i64)],
                )
                .await
                .unwrap();
            let text = within_limits(&what, &r);
            let embeds = r.data()["embeds"].as_array().cloned().unwrap_or_default();
            assert_eq!(embeds.len(), 1, "{what}: {:?}", r.body);
            let embed = &embeds[0];
            assert!(
                embed["title"]
                    .as_str()
                    .unwrap_or_default()
                    .contains(variant.title()),
                "{what}: title {}",
                embed["title"]
            );
            for topic in ["explode", "Notation"] {
                assert!(
                    text.to_lowercase().contains(&topic.to_lowercase()),
                    "{what}: nothing about '{topic}'"
                );
            }
            for link in ["http", "://", "www.", "discord.gg", "]("] {
                assert!(
                    !text.contains(link),
                    "{what}: a link ('{link}') in:\n{text}"
                );
            }

            // The full rules come along as a Markdown file, without ruling ids (and the
            // setup picture; Bomberman Chess and Bombalot also the piece legend).
            let expected = if matches!(variant, Variant::Bomberman | Variant::Bombalot) { 3 } else { 2 };
            assert_eq!(r.files.len(), expected, "{what}: {} files", r.files.len());
            let full = r
                .files
                .iter()
                .find(|f| f.filename == format!("{}-rules.md", variant.name()))
                .expect("the full rules file");
            let full = String::from_utf8(full.bytes.clone()).unwrap();
            assert!(
                full.contains("## How the game ends") && !full.contains("RULINGS"),
                "{what}: {full}"
            );
            // The picture: one attached PNG, shown by the embed, equal to the docs' picture.
            let file = r
                .files
                .iter()
                .find(|f| f.filename.ends_with(".png"))
                .expect("the setup picture");
            assert_eq!(
                embed["image"]["url"].as_str(),
                Some(format!("attachment://{}", file.filename).as_str()),
                "{what}: the embed does not show the attachment"
            );
            assert!(file.filename.ends_with(".png"), "{}", file.filename);
            let (w, h, _) = crate::common::decode_png(&file.bytes);
            assert!(w >= 64 && h >= 64, "{what}: a {w}x{h} picture");
            let docs = Path::new(env!("CARGO_MANIFEST_DIR"))
                .join("../docs/rules/img")
                .join(format!("{}-start.png", variant.name()));
            let committed = std::fs::read(&docs).unwrap_or_default();
            assert!(
                committed == file.bytes,
                "{what}: the attached picture differs from {}; regenerate it with scripts/docs-images.sh",
                docs.display()
            );
            // Bomberman Chess and Bombalot, whose pieces are not chess's, also attach the
            // piece legend: the picture the rules page shows.
            let legend = r
                .files
                .iter()
                .find(|f| f.filename == format!("{}-pieces.png", variant.name()));
            if matches!(variant, Variant::Bomberman | Variant::Bombalot) {
                let legend = legend.expect("the piece legend");
                let page = Path::new(env!("CARGO_MANIFEST_DIR"))
                    .join(format!("../docs/rules/{}-pieces.png", variant.name()));
                assert!(
                    std::fs::read(&page).unwrap_or_default() == legend.bytes,
                    "{what}: the legend differs from {}",
                    page.display()
                );
            } else {
                assert!(legend.is_none(), "{what}: a legend for chess pieces");
            }
        }
        d.stop().await;
    }
}
