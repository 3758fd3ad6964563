//! The fake refuses what real Discord refuses: each rule is checked at its
//! boundary (the limit accepted, one past it refused) with Discord's status, JSON error code
//! and, for 50035 Invalid Form Body, the field path in `errors`. The rules and their doc
//! links are in `src/rules.rs` and `src/state.rs`.

use std::time::Duration;

use fake_discord::testing::{read, with_json, with_multipart};
use fake_discord::{FAKE_TOKEN, FakeDiscord, SentInteraction, SimUser};
use serde_json::{Value, json};
use serenity::all::Permissions;

struct Api {
    fake: FakeDiscord,
    client: reqwest::Client,
    _events: tokio::sync::mpsc::UnboundedReceiver<(String, Value)>,
}

impl Api {
    async fn start() -> Api {
        let fake = FakeDiscord::start().await.unwrap();
        let events = fake.detached_session();
        Api {
            fake,
            client: reqwest::Client::builder().no_proxy().build().unwrap(),
            _events: events,
        }
    }

    async fn send(&self, method: &str, path: &str, body: Option<Value>) -> (u16, Value) {
        let method = reqwest::Method::from_bytes(method.as_bytes()).unwrap();
        let builder = self
            .client
            .request(method, format!("{}{path}", self.fake.url()))
            .header("Authorization", format!("Bot {FAKE_TOKEN}"));
        read(with_json(builder, body).send().await.unwrap()).await
    }

    async fn rest(&self, method: &str, path: &str, body: Value) -> (u16, Value) {
        self.send(method, &format!("/api/v10{path}"), Some(body))
            .await
    }

    /// A multipart request with `count` small files.
    async fn with_files(&self, path: &str, payload: Value, count: usize) -> (u16, Value) {
        let boundary = "fakeboundary42";
        let mut body = format!(
            "--{boundary}\r\nContent-Disposition: form-data; name=\"payload_json\"\r\n\
             Content-Type: application/json\r\n\r\n{payload}\r\n"
        );
        for n in 0..count {
            body.push_str(&format!(
                "--{boundary}\r\nContent-Disposition: form-data; name=\"files[{n}]\"; \
                 filename=\"f{n}.txt\"\r\nContent-Type: text/plain\r\n\r\nfile {n}\r\n"
            ));
        }
        body.push_str(&format!("--{boundary}--\r\n"));
        let request = self
            .client
            .post(format!("{}/api/v10{path}", self.fake.url()))
            .header("Authorization", format!("Bot {FAKE_TOKEN}"));
        let response = with_multipart(request, boundary, body)
            .send()
            .await
            .unwrap();
        read(response).await
    }

    async fn post_message(&self, channel: u64, body: Value) -> (u16, Value) {
        self.rest("POST", &format!("/channels/{channel}/messages"), body)
            .await
    }

    async fn command(&self, channel: u64) -> SentInteraction {
        let alice = SimUser::new(1001, "alice");
        self.fake
            .slash_command(&alice, channel, "ping", vec![])
            .unwrap()
    }

    async fn callback(&self, sent: &SentInteraction, body: Value) -> (u16, Value) {
        self.rest(
            "POST",
            &format!("/interactions/{}/{}/callback", sent.id, sent.token),
            body,
        )
        .await
    }

    async fn followup(&self, sent: &SentInteraction, body: Value) -> (u16, Value) {
        let app = self.fake.application_id();
        self.rest("POST", &format!("/webhooks/{app}/{}", sent.token), body)
            .await
    }
}

/// Asserts a 400 / 50035 whose `errors` has an `_errors` entry at `path` with `code`.
#[track_caller]
fn assert_form_error(answer: &(u16, Value), path: &[&str], code: &str) {
    assert_eq!(answer.0, 400, "{:#}", answer.1);
    assert_eq!(answer.1["code"], 50035, "{:#}", answer.1);
    assert_eq!(answer.1["message"], "Invalid Form Body");
    let node = path.iter().fold(&answer.1["errors"], |v, k| &v[*k]);
    assert_eq!(
        node["_errors"][0]["code"], code,
        "at {path:?}: {:#}",
        answer.1
    );
}

#[track_caller]
fn assert_code(answer: &(u16, Value), status: u16, code: u64) {
    assert_eq!(
        (answer.0, &answer.1["code"]),
        (status, &json!(code)),
        "{:#}",
        answer.1
    );
}

#[track_caller]
fn assert_ok(answer: &(u16, Value)) {
    assert!(
        matches!(answer.0, 200 | 201 | 204),
        "{} {:#}",
        answer.0,
        answer.1
    );
}

fn text(n: usize) -> String {
    "x".repeat(n)
}

#[tokio::test]
async fn message_content_is_at_most_2000_characters() {
    let api = Api::start().await;
    let channel = api.fake.text_channel_id();
    assert_ok(
        &api.post_message(channel, json!({ "content": text(2000) }))
            .await,
    );
    let refused = api
        .post_message(channel, json!({ "content": text(2001) }))
        .await;
    assert_form_error(&refused, &["content"], "BASE_TYPE_MAX_LENGTH");
    // Characters, not bytes.
    assert_ok(
        &api.post_message(channel, json!({ "content": "é".repeat(2000) }))
            .await,
    );
    // Edits too.
    let id = api.fake.messages_in(channel)[0].id;
    let path = format!("/channels/{channel}/messages/{id}");
    let edit = api
        .rest("PATCH", &path, json!({ "content": text(2001) }))
        .await;
    assert_form_error(&edit, &["content"], "BASE_TYPE_MAX_LENGTH");
}

#[tokio::test]
async fn embeds_follow_discords_embed_limits() {
    let api = Api::start().await;
    let channel = api.fake.text_channel_id();
    let cases: Vec<(Value, Value, Vec<&str>)> = vec![
        (
            json!({"title": text(256)}),
            json!({"title": text(257)}),
            vec!["0", "title"],
        ),
        (
            json!({"description": text(4096)}),
            json!({"description": text(4097)}),
            vec!["0", "description"],
        ),
        (
            json!({"footer": {"text": text(2048)}}),
            json!({"footer": {"text": text(2049)}}),
            vec!["0", "footer", "text"],
        ),
        (
            json!({"author": {"name": text(256)}}),
            json!({"author": {"name": text(257)}}),
            vec!["0", "author", "name"],
        ),
        (
            json!({"fields": [{"name": text(256), "value": "v"}]}),
            json!({"fields": [{"name": text(257), "value": "v"}]}),
            vec!["0", "fields", "0", "name"],
        ),
        (
            json!({"fields": [{"name": "n", "value": text(1024)}]}),
            json!({"fields": [{"name": "n", "value": text(1025)}]}),
            vec!["0", "fields", "0", "value"],
        ),
        (
            json!({"fields": vec![json!({"name": "n", "value": "v"}); 25]}),
            json!({"fields": vec![json!({"name": "n", "value": "v"}); 26]}),
            vec!["0", "fields"],
        ),
    ];
    for (ok, refused, path) in cases {
        assert_ok(&api.post_message(channel, json!({ "embeds": [ok] })).await);
        let mut full = vec!["embeds"];
        full.extend(path);
        let answer = api
            .post_message(channel, json!({ "embeds": [refused] }))
            .await;
        assert_form_error(&answer, &full, "BASE_TYPE_MAX_LENGTH");
    }
    // Up to 10 embeds.
    let one = json!({"title": "t"});
    assert_ok(
        &api.post_message(channel, json!({ "embeds": vec![one.clone(); 10] }))
            .await,
    );
    let answer = api
        .post_message(channel, json!({ "embeds": vec![one; 11] }))
        .await;
    assert_form_error(&answer, &["embeds"], "BASE_TYPE_MAX_LENGTH");
    // 6000 characters in total across embeds (whitespace around a field is trimmed).
    let half = |n: usize| json!({"description": format!("  {}  ", text(n))});
    assert_ok(
        &api.post_message(channel, json!({ "embeds": [half(3000), half(3000)] }))
            .await,
    );
    let answer = api
        .post_message(channel, json!({ "embeds": [half(3000), half(3001)] }))
        .await;
    assert_form_error(&answer, &["embeds"], "MAX_EMBED_SIZE_EXCEEDED");
}

fn button(id: &str, label: &str) -> Value {
    json!({"type": 2, "style": 1, "custom_id": id, "label": label})
}

fn row(components: Vec<Value>) -> Value {
    json!({"type": 1, "components": components})
}

fn select(options: usize, option_text: usize, placeholder: usize) -> Value {
    let options: Vec<Value> = (0..options)
        .map(|i| json!({"label": text(option_text), "value": format!("{i}")}))
        .collect();
    json!({"type": 3, "custom_id": "s", "options": options, "placeholder": text(placeholder)})
}

#[tokio::test]
async fn components_follow_discords_component_limits() {
    let api = Api::start().await;
    let channel = api.fake.text_channel_id();
    let post =
        |components: Vec<Value>| api.post_message(channel, json!({ "components": components }));
    let rows = |n: usize| {
        (0..n)
            .map(|i| row(vec![button(&format!("b{i}"), "B")]))
            .collect()
    };
    assert_ok(&post(rows(5)).await);
    assert_form_error(
        &post(rows(6)).await,
        &["components"],
        "BASE_TYPE_MAX_LENGTH",
    );
    let buttons = |n: usize| (0..n).map(|i| button(&format!("b{i}"), "B")).collect();
    assert_ok(&post(vec![row(buttons(5))]).await);
    let answer = post(vec![row(buttons(6))]).await;
    assert_form_error(
        &answer,
        &["components", "0", "components"],
        "BASE_TYPE_MAX_LENGTH",
    );
    assert_ok(&post(vec![row(vec![button(&text(100), "B")])]).await);
    let answer = post(vec![row(vec![button(&text(101), "B")])]).await;
    let path = ["components", "0", "components", "0", "custom_id"];
    assert_form_error(&answer, &path, "BASE_TYPE_BAD_LENGTH");
    assert_ok(&post(vec![row(vec![button("b", &text(80))])]).await);
    let answer = post(vec![row(vec![button("b", &text(81))])]).await;
    let path = ["components", "0", "components", "0", "label"];
    assert_form_error(&answer, &path, "BASE_TYPE_MAX_LENGTH");
    assert_ok(&post(vec![row(vec![select(25, 100, 150)])]).await);
    let answer = post(vec![row(vec![select(26, 1, 1)])]).await;
    let path = ["components", "0", "components", "0", "options"];
    assert_form_error(&answer, &path, "BASE_TYPE_MAX_LENGTH");
    let answer = post(vec![row(vec![select(1, 101, 1)])]).await;
    let path = [
        "components",
        "0",
        "components",
        "0",
        "options",
        "0",
        "label",
    ];
    assert_form_error(&answer, &path, "BASE_TYPE_MAX_LENGTH");
    let answer = post(vec![row(vec![select(1, 1, 151)])]).await;
    let path = ["components", "0", "components", "0", "placeholder"];
    assert_form_error(&answer, &path, "BASE_TYPE_MAX_LENGTH");
}

#[tokio::test]
async fn interaction_responses_follow_the_message_and_autocomplete_limits() {
    let api = Api::start().await;
    let channel = api.fake.text_channel_id();
    let sent = api.command(channel).await;
    let answer = api
        .callback(&sent, json!({"type": 4, "data": {"content": text(2001)}}))
        .await;
    assert_form_error(&answer, &["data", "content"], "BASE_TYPE_MAX_LENGTH");
    assert_ok(
        &api.callback(&sent, json!({"type": 4, "data": {"content": text(2000)}}))
            .await,
    );
    let answer = api.followup(&sent, json!({"content": text(2001)})).await;
    assert_form_error(&answer, &["content"], "BASE_TYPE_MAX_LENGTH");
    assert_ok(&api.followup(&sent, json!({"content": text(2000)})).await);

    let choices = |n: usize, name: usize, value: usize| -> Value {
        let list: Vec<Value> = (0..n)
            .map(|_| json!({"name": text(name), "value": text(value)}))
            .collect();
        json!({"type": 8, "data": {"choices": list}})
    };
    let refused = [
        (
            choices(26, 1, 1),
            vec!["data", "choices"],
            "BASE_TYPE_MAX_LENGTH",
        ),
        (
            choices(1, 101, 1),
            vec!["data", "choices", "0", "name"],
            "BASE_TYPE_BAD_LENGTH",
        ),
        (
            choices(1, 0, 1),
            vec!["data", "choices", "0", "name"],
            "BASE_TYPE_BAD_LENGTH",
        ),
        (
            choices(1, 1, 101),
            vec!["data", "choices", "0", "value"],
            "BASE_TYPE_MAX_LENGTH",
        ),
    ];
    for (body, path, code) in refused {
        let sent = api.command(channel).await;
        assert_form_error(&api.callback(&sent, body).await, &path, code);
    }
    let sent = api.command(channel).await;
    assert_ok(&api.callback(&sent, choices(25, 100, 100)).await);
}

/// A modal (callback type 9) with a title of `title` characters and one text input
/// labelled with `label` characters.
fn modal(title: usize, label: usize) -> Value {
    json!({"type": 9, "data": {
        "custom_id": "kb:movemodal:1",
        "title": text(title),
        "components": [{"type": 1, "components": [
            {"type": 4, "custom_id": "action", "style": 1, "label": text(label), "max_length": 100}
        ]}]
    }})
}

#[tokio::test]
async fn modals_follow_discords_limits_and_their_submit_can_update_the_message() {
    let api = Api::start().await;
    let channel = api.fake.text_channel_id();
    let alice = SimUser::new(1001, "alice");
    for (body, path, code) in [
        (modal(46, 1), vec!["data", "title"], "BASE_TYPE_BAD_LENGTH"),
        (
            modal(1, 46),
            vec!["data", "components", "0", "components", "0", "label"],
            "BASE_TYPE_BAD_LENGTH",
        ),
        (
            json!({"type": 9, "data": {"custom_id": "m", "title": "t", "components": []}}),
            vec!["data", "components"],
            "BASE_TYPE_BAD_LENGTH",
        ),
    ] {
        let sent = api.command(channel).await;
        assert_form_error(&api.callback(&sent, body).await, &path, code);
    }
    // A modal opened from a button on a message: its submit carries the text typed and
    // the message, and UPDATE_MESSAGE edits that message.
    let (status, posted) = api
        .post_message(
            channel,
            json!({"content": "board", "components": [row(vec![button("kb:moveask:1", "Move")])]}),
        )
        .await;
    assert_eq!(status, 200);
    let message: u64 = posted["id"].as_str().unwrap().parse().unwrap();
    let click = api
        .fake
        .click_button(&alice, message, "kb:moveask:1")
        .unwrap();
    assert!(matches!(
        api.fake.submit_modal(&alice, click.id, &[]),
        Err(fake_discord::FakeError::NoModal(_))
    ));
    assert_ok(&api.callback(&click, modal(45, 45)).await);
    let submit = api
        .fake
        .submit_modal(&alice, click.id, &[("action", "Nf3")])
        .unwrap();
    let payload = api.fake.dispatched_interaction(submit.id).unwrap();
    assert_eq!(payload["type"], 5);
    assert_eq!(payload["data"]["custom_id"], "kb:movemodal:1");
    assert_eq!(
        payload["data"]["components"][0]["components"][0]["value"],
        "Nf3"
    );
    assert_eq!(payload["message"]["id"], posted["id"]);
    // "Not available for MODAL_SUBMIT": a modal cannot answer a modal's submit.
    assert_form_error(
        &api.callback(&submit, modal(1, 1)).await,
        &["type"],
        "INTERACTION_RESPONSE_TYPE_INVALID",
    );
    assert_ok(
        &api.callback(
            &submit,
            json!({"type": 7, "data": {"content": "next board"}}),
        )
        .await,
    );
    assert_eq!(api.fake.message(message).unwrap().content(), "next board");
    // A modal opened by a slash command has no message to update.
    let command = api.command(channel).await;
    assert_ok(&api.callback(&command, modal(1, 1)).await);
    let submit = api
        .fake
        .submit_modal(&alice, command.id, &[("action", "e4")])
        .unwrap();
    assert!(api.fake.dispatched_interaction(submit.id).unwrap()["message"].is_null());
    assert_code(
        &api.callback(&submit, json!({"type": 7, "data": {"content": "x"}}))
            .await,
        400,
        40060,
    );
}

#[tokio::test]
async fn a_message_has_at_most_10_attachments() {
    let api = Api::start().await;
    let channel = api.fake.text_channel_id();
    let path = format!("/channels/{channel}/messages");
    assert_ok(&api.with_files(&path, json!({"content": "ten"}), 10).await);
    let answer = api
        .with_files(&path, json!({"content": "eleven"}), 11)
        .await;
    assert_code(&answer, 400, 30015);
}

#[tokio::test]
async fn thread_names_have_1_to_100_characters_and_known_archive_durations() {
    let api = Api::start().await;
    let channel = api.fake.text_channel_id();
    let path = format!("/channels/{channel}/threads");
    let create = |body: Value| api.rest("POST", &path, body);
    assert_ok(&create(json!({"name": text(100), "type": 11})).await);
    assert_form_error(
        &create(json!({"name": text(101), "type": 11})).await,
        &["name"],
        "BASE_TYPE_BAD_LENGTH",
    );
    assert_form_error(
        &create(json!({"name": "", "type": 11})).await,
        &["name"],
        "BASE_TYPE_BAD_LENGTH",
    );
    assert_form_error(
        &create(json!({"type": 11})).await,
        &["name"],
        "BASE_TYPE_REQUIRED",
    );
    let answer = create(json!({"name": "t", "type": 11, "auto_archive_duration": 61})).await;
    assert_form_error(&answer, &["auto_archive_duration"], "BASE_TYPE_CHOICES");
    let thread = api.fake.add_thread(channel, "game").unwrap();
    let rename = api
        .rest(
            "PATCH",
            &format!("/channels/{thread}"),
            json!({"name": text(101)}),
        )
        .await;
    assert_form_error(&rename, &["name"], "BASE_TYPE_BAD_LENGTH");
}

#[tokio::test]
async fn threads_only_where_the_channel_type_allows_them() {
    let api = Api::start().await;
    let text_channel = api.fake.text_channel_id();
    let thread = api.fake.add_thread(text_channel, "game").unwrap();
    let dm = api.fake.dm_channel_for(1001);
    let forum = api.fake.add_channel(15, "forum").unwrap();
    let news = api.fake.add_channel(5, "news").unwrap();
    let api = &api;
    let create = |parent: u64, body: Value| {
        let path = format!("/channels/{parent}/threads");
        async move { api.rest("POST", &path, body).await }
    };
    // No thread in a thread, nor in a DM: 50024.
    assert_code(
        &create(thread, json!({"name": "t", "type": 11})).await,
        400,
        50024,
    );
    assert_code(
        &create(dm, json!({"name": "t", "type": 11})).await,
        400,
        50024,
    );
    // A text channel: public and private threads (type defaults to 12 PRIVATE_THREAD).
    let (status, private) = create(text_channel, json!({"name": "t"})).await;
    assert_eq!((status, &private["type"]), (201, &json!(12)));
    assert_code(
        &create(text_channel, json!({"name": "t", "type": 10})).await,
        400,
        50024,
    );
    // An announcement channel: announcement threads (10) only.
    let (status, announced) = create(news, json!({"name": "t", "type": 10})).await;
    assert_eq!((status, &announced["type"]), (201, &json!(10)));
    assert_code(
        &create(news, json!({"name": "t", "type": 12})).await,
        400,
        50024,
    );
    assert_code(
        &create(news, json!({"name": "t", "type": 11})).await,
        400,
        50024,
    );
    // A forum: the post needs its first message (50035 on `message`), then it is a
    // PUBLIC_THREAD holding that message.
    let answer = create(forum, json!({"name": "post"})).await;
    assert_form_error(&answer, &["message"], "BASE_TYPE_REQUIRED");
    let answer = create(
        forum,
        json!({"name": "post", "message": {"content": text(2001)}}),
    )
    .await;
    assert_form_error(&answer, &["message", "content"], "BASE_TYPE_MAX_LENGTH");
    let (status, post) = create(forum, json!({"name": "post", "message": {"content": "hi"}})).await;
    assert_eq!(
        (status, &post["type"], &post["message"]["content"]),
        (201, &json!(11), &json!("hi"))
    );
    // No message directly in a forum (50008).
    assert_code(
        &api.post_message(forum, json!({"content": "hi"})).await,
        400,
        50008,
    );
    // From a message: public thread in text, announcement thread in news, not in a forum.
    let (_, in_news) = api.post_message(news, json!({"content": "news"})).await;
    let path = format!(
        "/channels/{news}/messages/{}/threads",
        in_news["id"].as_str().unwrap()
    );
    let (status, from_news) = api.rest("POST", &path, json!({"name": "t"})).await;
    assert_eq!((status, &from_news["type"]), (201, &json!(10)));
    let (_, in_text) = api
        .post_message(text_channel, json!({"content": "hi"}))
        .await;
    let path = format!(
        "/channels/{text_channel}/messages/{}/threads",
        in_text["id"].as_str().unwrap()
    );
    let (status, from_text) = api.rest("POST", &path, json!({"name": "t"})).await;
    assert_eq!((status, &from_text["type"]), (201, &json!(11)));
    // The library refuses a thread under a thread too.
    assert!(api.fake.add_thread(thread, "nested").is_err());
    assert!(api.fake.add_channel(2, "voice").is_err());
}

#[tokio::test]
async fn the_bot_needs_its_permissions_in_the_channel() {
    let api = Api::start().await;
    let channel = api.fake.text_channel_id();
    let thread = api.fake.add_thread(channel, "game").unwrap();
    assert_eq!(api.fake.bot_permissions_in(channel), Permissions::all());
    let everything_but = |p: Permissions| Permissions::all() - Permissions::ADMINISTRATOR - p;

    api.fake
        .set_bot_permissions(everything_but(Permissions::SEND_MESSAGES));
    assert_code(
        &api.post_message(channel, json!({"content": "hi"})).await,
        403,
        50013,
    );
    // Threads need SEND_MESSAGES_IN_THREADS, not SEND_MESSAGES.
    assert_ok(&api.post_message(thread, json!({"content": "hi"})).await);
    api.fake
        .set_bot_permissions(everything_but(Permissions::SEND_MESSAGES_IN_THREADS));
    assert_code(
        &api.post_message(thread, json!({"content": "hi"})).await,
        403,
        50013,
    );
    assert_ok(&api.post_message(channel, json!({"content": "hi"})).await);

    api.fake
        .set_bot_permissions(everything_but(Permissions::ATTACH_FILES));
    let path = format!("/channels/{channel}/messages");
    assert_code(
        &api.with_files(&path, json!({"content": "f"}), 1).await,
        403,
        50013,
    );

    // Without EMBED_LINKS the message is sent and its embeds dropped.
    api.fake
        .set_bot_permissions(everything_but(Permissions::EMBED_LINKS));
    let (status, sent) = api
        .post_message(channel, json!({"content": "e", "embeds": [{"title": "t"}]}))
        .await;
    assert_eq!((status, &sent["embeds"]), (200, &json!([])));

    let threads = format!("/channels/{channel}/threads");
    api.fake
        .set_bot_permissions(everything_but(Permissions::CREATE_PUBLIC_THREADS));
    let answer = api
        .rest("POST", &threads, json!({"name": "t", "type": 11}))
        .await;
    assert_code(&answer, 403, 50013);
    assert_ok(
        &api.rest("POST", &threads, json!({"name": "t", "type": 12}))
            .await,
    );
    api.fake
        .set_bot_permissions(everything_but(Permissions::CREATE_PRIVATE_THREADS));
    assert_code(
        &api.rest("POST", &threads, json!({"name": "t", "type": 12}))
            .await,
        403,
        50013,
    );

    // A channel overwrite that denies VIEW_CHANNEL: 50001 Missing Access, there only.
    api.fake
        .set_bot_permissions(everything_but(Permissions::empty()));
    let other = api.fake.add_channel(0, "staff").unwrap();
    api.fake
        .set_bot_overwrite(other, Permissions::empty(), Permissions::VIEW_CHANNEL)
        .unwrap();
    assert_eq!(api.fake.bot_permissions_in(other), Permissions::empty());
    assert_code(
        &api.post_message(other, json!({"content": "hi"})).await,
        403,
        50001,
    );
    assert_ok(&api.post_message(channel, json!({"content": "hi"})).await);
}

#[tokio::test]
async fn interactions_carry_the_bots_permissions_as_app_permissions() {
    let fake = FakeDiscord::start().await.unwrap();
    let mut events = fake.detached_session();
    let granted = fake_discord::MEMBER_PERMISSIONS;
    fake.set_bot_permissions(granted);
    let alice = SimUser::new(1001, "alice");
    fake.slash_command(&alice, fake.text_channel_id(), "ping", vec![])
        .unwrap();
    let (name, payload) = events.recv().await.unwrap();
    assert_eq!(name, "INTERACTION_CREATE");
    assert_eq!(payload["app_permissions"], granted.bits().to_string());
}

#[tokio::test]
async fn the_first_response_comes_within_3_seconds() {
    let api = Api::start().await;
    let channel = api.fake.text_channel_id();
    let sent = api.command(channel).await;
    api.fake.advance(Duration::from_millis(2500));
    assert_ok(&api.callback(&sent, json!({"type": 5})).await);
    let late = api.command(channel).await;
    api.fake.advance(Duration::from_millis(3100));
    assert_code(&api.callback(&late, json!({"type": 5})).await, 404, 10062);
}

#[tokio::test]
async fn interaction_tokens_expire_after_15_minutes() {
    let api = Api::start().await;
    let sent = api.command(api.fake.text_channel_id()).await;
    assert_ok(&api.callback(&sent, json!({"type": 5})).await);
    api.fake.advance(Duration::from_secs(14 * 60));
    assert_ok(&api.followup(&sent, json!({"content": "still here"})).await);
    api.fake.advance(Duration::from_secs(61));
    assert_code(
        &api.followup(&sent, json!({"content": "too late"})).await,
        401,
        50027,
    );
    let app = api.fake.application_id();
    let path = format!("/webhooks/{app}/{}/messages/@original", sent.token);
    assert_code(
        &api.rest("PATCH", &path, json!({"content": "x"})).await,
        401,
        50027,
    );
}

fn archived(api: &Api, thread: u64) -> bool {
    api.fake.channel(thread).unwrap().json["thread_metadata"]["archived"] == json!(true)
}

#[tokio::test]
async fn threads_archive_after_their_auto_archive_duration_and_messages_unarchive_them() {
    let api = Api::start().await;
    let channel = api.fake.text_channel_id();
    let path = format!("/channels/{channel}/threads");
    let (_, thread) = api
        .rest(
            "POST",
            &path,
            json!({"name": "t", "type": 11, "auto_archive_duration": 60}),
        )
        .await;
    let thread: u64 = thread["id"].as_str().unwrap().parse().unwrap();
    api.fake.advance(Duration::from_secs(59 * 60));
    assert!(!archived(&api, thread));
    // A message is activity: the hour starts again.
    assert_ok(&api.post_message(thread, json!({"content": "move"})).await);
    api.fake.advance(Duration::from_secs(59 * 60));
    assert!(!archived(&api, thread));
    api.fake.advance(Duration::from_secs(60));
    assert!(archived(&api, thread));
    // Editing a message in an archived thread: 50083; renaming it without unarchiving too.
    let message = api.fake.messages_in(thread)[0].id;
    let edit = format!("/channels/{thread}/messages/{message}");
    assert_code(
        &api.rest("PATCH", &edit, json!({"content": "x"})).await,
        400,
        50083,
    );
    let rename = api
        .rest(
            "PATCH",
            &format!("/channels/{thread}"),
            json!({"name": "n"}),
        )
        .await;
    assert_code(&rename, 400, 50083);
    // Sending a message unarchives an unlocked thread.
    assert_ok(&api.post_message(thread, json!({"content": "back"})).await);
    assert!(!archived(&api, thread));
}

#[tokio::test]
async fn locked_threads_need_manage_threads() {
    let api = Api::start().await;
    let channel = api.fake.text_channel_id();
    let thread = api.fake.add_thread(channel, "game").unwrap();
    let sent = api.command(thread).await;
    api.fake.set_thread_state(thread, true, true).unwrap();
    api.fake.set_bot_permissions(
        Permissions::all() - Permissions::ADMINISTRATOR - Permissions::MANAGE_THREADS,
    );
    // Writes and interaction responses: 50083 Thread is archived.
    assert_code(
        &api.post_message(thread, json!({"content": "hi"})).await,
        403,
        50083,
    );
    assert_code(
        &api.callback(&sent, json!({"type": 4, "data": {"content": "hi"}}))
            .await,
        403,
        50083,
    );
    // Unarchiving a locked thread: MANAGE_THREADS.
    let path = format!("/channels/{thread}");
    assert_code(
        &api.rest("PATCH", &path, json!({"archived": false})).await,
        403,
        50013,
    );
    api.fake.set_bot_permissions(Permissions::all());
    assert_ok(&api.rest("PATCH", &path, json!({"archived": false})).await);
    assert!(!archived(&api, thread));
    // An unlocked archived thread: SEND_MESSAGES is enough to unarchive it.
    api.fake.set_thread_state(thread, true, false).unwrap();
    api.fake.set_bot_permissions(
        Permissions::all() - Permissions::ADMINISTRATOR - Permissions::MANAGE_THREADS,
    );
    assert_ok(&api.rest("PATCH", &path, json!({"archived": false})).await);
    // Locking needs MANAGE_THREADS.
    assert_code(
        &api.rest("PATCH", &path, json!({"locked": true})).await,
        403,
        50013,
    );
}

#[tokio::test]
async fn the_control_api_sets_channels_permissions_and_the_clock() {
    let api = Api::start().await;
    let api = &api;
    let control = |method: &str, path: &str, body: Option<Value>| {
        let path = format!("/_control{path}");
        let method = method.to_string();
        async move { api.send(&method, &path, body).await }
    };
    let (status, forum) =
        control("POST", "/channels", Some(json!({"type": 15, "name": "f"}))).await;
    assert_eq!(status, 200, "{forum:#}");
    let forum: u64 = forum["id"].as_str().unwrap().parse().unwrap();
    assert_eq!(api.fake.channel(forum).unwrap().json["type"], 15);
    let (status, _) = control("POST", "/channels", Some(json!({"type": 2, "name": "v"}))).await;
    assert_eq!(status, 400);
    let granted = Permissions::VIEW_CHANNEL | Permissions::SEND_MESSAGES;
    let body = json!({"permissions": granted.bits().to_string()});
    assert_eq!(control("POST", "/bot-permissions", Some(body)).await.0, 200);
    let channel = api.fake.text_channel_id();
    let body = json!({"deny": Permissions::SEND_MESSAGES.bits()});
    let (status, answer) = control(
        "POST",
        &format!("/channels/{channel}/bot-overwrite"),
        Some(body),
    )
    .await;
    assert_eq!(
        (status, &answer["permissions"]),
        (200, &json!(Permissions::VIEW_CHANNEL.bits().to_string()))
    );
    let (_, answer) = control("GET", &format!("/channels/{channel}/bot-permissions"), None).await;
    assert_eq!(
        answer["permissions"],
        Permissions::VIEW_CHANNEL.bits().to_string()
    );
    let thread = api.fake.add_thread(channel, "t").unwrap();
    let body = json!({"archived": true, "locked": true});
    let (status, _) = control("POST", &format!("/threads/{thread}/state"), Some(body)).await;
    assert_eq!(status, 200);
    assert!(archived(api, thread));
    let sent = api.command(channel).await;
    assert_eq!(
        control("POST", "/clock/advance", Some(json!({"ms": 4000})))
            .await
            .0,
        200
    );
    assert_code(&api.callback(&sent, json!({"type": 5})).await, 404, 10062);
}

/// "Users cannot edit messages, add reactions, use application commands, or join archived
/// threads" (https://discord.com/developers/docs/topics/threads#active-archived-threads):
/// no slash command or autocomplete comes from an archived, unlocked thread until it is
/// reopened (a message in it, or Modify Channel `archived: false`). In an archived and
/// locked thread the command still arrives, and its response fails (discord-api-docs#5517).
#[tokio::test]
async fn no_application_commands_in_an_archived_thread() {
    let api = Api::start().await;
    let channel = api.fake.text_channel_id();
    let thread = api.fake.add_thread(channel, "game").unwrap();
    let alice = SimUser::new(1001, "alice");
    api.fake.set_thread_state(thread, true, false).unwrap();
    let refused = api.fake.slash_command(&alice, thread, "ping", vec![]);
    assert!(
        matches!(refused, Err(fake_discord::FakeError::ThreadArchived(t)) if t == thread),
        "{refused:?}"
    );
    let option = fake_discord::CommandOption::string("action", "e").focused();
    let refused = api.fake.autocomplete(&alice, thread, "move", vec![option]);
    assert!(matches!(
        refused,
        Err(fake_discord::FakeError::ThreadArchived(_))
    ));
    // Reopened by the bot: commands come again.
    let path = format!("/channels/{thread}");
    assert_ok(&api.rest("PATCH", &path, json!({"archived": false})).await);
    api.command(thread).await;
    // Archived by its auto-archive timer: the same.
    api.fake.advance(Duration::from_secs(7 * 24 * 3600));
    assert!(archived(&api, thread));
    assert!(
        api.fake
            .slash_command(&alice, thread, "ping", vec![])
            .is_err()
    );
    // Locked as well: the command arrives, and its response is refused.
    api.fake.set_thread_state(thread, true, true).unwrap();
    api.fake.set_bot_permissions(
        Permissions::all() - Permissions::ADMINISTRATOR - Permissions::MANAGE_THREADS,
    );
    let sent = api.command(thread).await;
    assert_code(
        &api.callback(&sent, json!({"type": 4, "data": {"content": "hi"}}))
            .await,
        403,
        50083,
    );
}

/// Start Thread from Message: the thread has the message's id ("The created thread and
/// the message it was started from will share the same id",
/// https://discord.com/developers/docs/topics/threads#public-private-threads), a second
/// start answers 160004, and the message then carries `thread` and the HAS_THREAD flag
/// (https://discord.com/developers/docs/resources/message#message-object).
#[tokio::test]
async fn a_message_holds_one_thread_with_its_own_id() {
    let api = Api::start().await;
    let channel = api.fake.text_channel_id();
    let (_, message) = api
        .post_message(channel, json!({"content": "challenge"}))
        .await;
    let id = message["id"].as_str().unwrap().to_string();
    let path = format!("/channels/{channel}/messages/{id}/threads");
    let body = json!({"name": "game", "auto_archive_duration": 10080});
    let (status, thread) = api.rest("POST", &path, body.clone()).await;
    assert_eq!(status, 201, "{thread}");
    assert_eq!(thread["id"], json!(id));
    assert_code(&api.rest("POST", &path, body).await, 400, 160_004);
    let (status, got) = api
        .rest(
            "GET",
            &format!("/channels/{channel}/messages/{id}"),
            Value::Null,
        )
        .await;
    assert_eq!(status, 200);
    assert_eq!(got["thread"]["id"], json!(id));
    assert_eq!(got["flags"].as_u64().unwrap() & (1 << 5), 1 << 5);
    assert_eq!(api.fake.threads().len(), 1);
}

/// Lean mode (the load benchmark's `--lean`): uploads are answered with their size, but
/// their bytes are not kept on the message, and the request log keeps only what each
/// request was (method, path, status).
#[tokio::test]
async fn lean_mode_keeps_sizes_but_no_uploaded_bytes() {
    let api = Api::start().await;
    let channel = api.fake.text_channel_id();
    let path = format!("/channels/{channel}/messages");
    let (status, kept) = api.with_files(&path, json!({"content": "kept"}), 1).await;
    assert_eq!(status, 200, "{kept}");
    api.fake.set_lean(true);
    let (status, lean) = api.with_files(&path, json!({"content": "lean"}), 1).await;
    assert_eq!(status, 200, "{lean}");
    // Both answers describe the file alike: "file 0" is 6 bytes.
    assert_eq!(kept["attachments"][0]["size"], 6, "{kept}");
    assert_eq!(lean["attachments"][0]["size"], 6, "{lean}");

    let messages = api.fake.messages_in(channel);
    let stored = |content: &str| {
        messages
            .iter()
            .find(|m| m.content() == content)
            .unwrap()
            .attachments[0]
            .clone()
    };
    assert_eq!(stored("kept").bytes, b"file 0");
    assert_eq!(stored("lean").size, 6);
    assert!(stored("lean").bytes.is_empty());
    // The request log keeps the first request whole and only what the lean one was.
    let logged: Vec<_> = api
        .fake
        .requests()
        .into_iter()
        .filter(|r| r.path == path)
        .collect();
    assert_eq!(logged.len(), 2);
    match &logged[0].body {
        fake_discord::RecordedBody::Multipart { files, .. } => {
            assert_eq!(files[0].bytes, b"file 0")
        }
        other => panic!("not multipart: {other:?}"),
    }
    assert_eq!(logged[0].response["content"], "kept");
    assert_eq!((logged[1].method.as_str(), logged[1].status), ("POST", 200));
    assert!(matches!(logged[1].body, fake_discord::RecordedBody::Empty));
    assert!(logged[1].response.is_null());
}

/// In a DM with the bot, `app_permissions` is Discord's fixed DM set: "`ATTACH_FILES |
/// EMBED_LINKS | MENTION_EVERYONE` ... and additionally `USE_EXTERNAL_EMOJIS` for DMs with
/// the app's bot user" (Interaction Object), whatever the bot may do in the server.
#[tokio::test]
async fn a_direct_message_carries_discords_dm_app_permissions() {
    let fake = FakeDiscord::start().await.unwrap();
    let mut events = fake.detached_session();
    fake.set_bot_permissions(Permissions::all());
    let alice = SimUser::new(1001, "alice");
    let dm = fake.dm_channel_for(alice.id);
    fake.slash_command(&alice, dm, "ping", vec![]).unwrap();
    let (_, payload) = events.recv().await.unwrap();
    let expected = Permissions::ATTACH_FILES
        | Permissions::EMBED_LINKS
        | Permissions::MENTION_EVERYONE
        | Permissions::USE_EXTERNAL_EMOJIS;
    assert_eq!(fake_discord::DM_APP_PERMISSIONS, expected);
    assert_eq!(payload["app_permissions"], expected.bits().to_string());
    assert!(payload["guild_id"].is_null() && payload["user"].is_object());
}

/// A token the fake no longer accepts (reset in the Developer Portal): REST answers 401
/// `{"message": "401: Unauthorized", "code": 0}`, and the gateway closes an IDENTIFY or a
/// RESUME with close code 4004 Authentication failed (Gateway Close Event Codes,
/// https://discord.com/developers/docs/topics/opcodes-and-status-codes). The accepted token
/// works as before, and `reconnect_gateway` sends op 7 Reconnect to live sessions.
#[tokio::test]
async fn a_wrong_token_gets_401_over_rest_and_4004_on_the_gateway() {
    use futures_util::{SinkExt, StreamExt};
    use tokio_tungstenite::tungstenite::Message;
    type Ws = tokio_tungstenite::WebSocketStream<
        tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>,
    >;

    async fn next(ws: &mut Ws) -> Message {
        tokio::time::timeout(Duration::from_secs(5), ws.next())
            .await
            .expect("a frame in time")
            .expect("the socket is open")
            .expect("a valid frame")
    }
    async fn connect(fake: &FakeDiscord) -> Ws {
        let url = format!("{}?v=10", fake.gateway_url());
        let (mut ws, _) = tokio_tungstenite::connect_async(url.as_str())
            .await
            .unwrap();
        assert!(matches!(next(&mut ws).await, Message::Text(_)), "HELLO");
        ws
    }
    async fn send(ws: &mut Ws, op: u8, token: &str) {
        let d = match op {
            2 => json!({"token": token, "intents": 1,
                "properties": {"os": "linux", "browser": "t", "device": "t"}}),
            _ => json!({"token": token, "session_id": "fake-session-1", "seq": 2}),
        };
        let frame = json!({"op": op, "d": d}).to_string();
        ws.send(Message::Text(frame)).await.unwrap();
    }
    fn close_code(message: Message) -> Option<u16> {
        match message {
            Message::Close(Some(frame)) => Some(frame.code.into()),
            _ => None,
        }
    }

    let fake = FakeDiscord::start().await.unwrap();
    let client = reqwest::Client::builder().no_proxy().build().unwrap();
    let me = |token: &str| {
        client
            .get(format!("{}/api/v10/users/@me", fake.url()))
            .header("Authorization", format!("Bot {token}"))
            .send()
    };
    // By default any token of the `Bot ` form is accepted.
    assert_eq!(read(me("anything").await.unwrap()).await.0, 200);
    fake.set_bot_token(Some(FAKE_TOKEN));
    let (status, body) = read(me("a-reset-token").await.unwrap()).await;
    assert_eq!(
        (status, body),
        (401, json!({"message": "401: Unauthorized", "code": 0}))
    );
    assert_eq!(read(me(FAKE_TOKEN).await.unwrap()).await.0, 200);

    for op in [2, 6] {
        let mut ws = connect(&fake).await;
        send(&mut ws, op, "Bot a-reset-token").await;
        assert_eq!(close_code(next(&mut ws).await), Some(4004), "op {op}");
    }
    let mut ws = connect(&fake).await;
    send(&mut ws, 2, FAKE_TOKEN).await;
    let ready = next(&mut ws).await;
    assert!(ready.to_text().unwrap().contains("READY"), "{ready:?}");
    assert!(
        matches!(next(&mut ws).await, Message::Text(_)),
        "GUILD_CREATE"
    );
    assert_eq!(fake.reconnect_gateway(), 1);
    let reconnect: Value = serde_json::from_str(next(&mut ws).await.to_text().unwrap()).unwrap();
    assert_eq!(reconnect["op"], 7);
}

/// Registers `/play` as the bot declares a game command (both installations; servers, the
/// bot's DM and group DMs) and `/settle` as a server-only one (a server install, servers
/// only).
async fn register_play_and_settle(api: &Api) {
    let app = api.fake.application_id();
    let (status, _) = api
        .rest(
            "PUT",
            &format!("/applications/{app}/commands"),
            json!([
                {"name": "play", "description": "p", "integration_types": [0, 1], "contexts": [0, 1, 2]},
                {"name": "settle", "description": "s", "integration_types": [0], "contexts": [0]}
            ]),
        )
        .await;
    assert_eq!(status, 200);
}

/// User installs (<https://discord.com/developers/docs/interactions/receiving-and-responding#interaction-object-authorizing-integration-owners-object>):
/// in a group DM only a command declaring USER_INSTALL and PRIVATE_CHANNEL is offered, to
/// a user who installed the app, with context 2, `authorizing_integration_owners`
/// `{"1": user}` and the group DM's `app_permissions` (180224); in the guild with the bot
/// the same command carries `{"0": guild}` too.
#[tokio::test]
async fn user_installs_are_offered_only_what_the_commands_declare() {
    use fake_discord::FakeError;
    let api = Api::start().await;
    register_play_and_settle(&api).await;
    let alice = SimUser::new(1001, "alice");
    let bob = SimUser::new(1002, "bob");
    let group = api.fake.add_group_dm(&[&alice, &bob]);
    // Nothing is installed for alice: no client offers the app's commands here.
    assert!(matches!(
        api.fake.slash_command(&alice, group, "play", vec![]),
        Err(FakeError::NotInstalledHere { .. })
    ));
    api.fake.install_for_user(alice.id);
    assert!(matches!(
        api.fake.slash_command(&alice, group, "settle", vec![]),
        Err(FakeError::CommandNotOffered { context: 2, .. })
    ));
    let sent = api
        .fake
        .slash_command(&alice, group, "play", vec![])
        .unwrap();
    let dispatched = api.fake.dispatched_interaction(sent.id).unwrap();
    assert_eq!(dispatched["context"], 2);
    assert_eq!(
        dispatched["authorizing_integration_owners"],
        json!({"1": "1001"})
    );
    assert_eq!(dispatched["app_permissions"], "180224");
    assert!(dispatched.get("guild_id").is_none());
    // In the guild with the bot both installations authorize it.
    let sent = api
        .fake
        .slash_command(&alice, api.fake.text_channel_id(), "play", vec![])
        .unwrap();
    let dispatched = api.fake.dispatched_interaction(sent.id).unwrap();
    assert_eq!(dispatched["context"], 0);
    assert_eq!(
        dispatched["authorizing_integration_owners"],
        json!({"0": api.fake.guild_id().to_string(), "1": "1001"})
    );
}

/// The bot is never a member of a group DM: every request about one answers 403 / 50001
/// Missing Access (JSON Error Codes,
/// <https://discord.com/developers/docs/topics/opcodes-and-status-codes#json-json-error-codes>);
/// only interaction responses reach it.
#[tokio::test]
async fn the_bot_cannot_post_in_a_group_dm() {
    let api = Api::start().await;
    let alice = SimUser::new(1001, "alice");
    let bob = SimUser::new(1002, "bob");
    let group = api.fake.add_group_dm(&[&alice, &bob]);
    assert_code(
        &api.post_message(group, json!({"content": "hello"})).await,
        403,
        50001,
    );
    assert_code(
        &api.send("GET", &format!("/api/v10/channels/{group}"), None)
            .await,
        403,
        50001,
    );
}

/// A DM to a user who shares no server with the bot and has not installed the app is
/// refused with 403 / 50278 "Cannot send messages to this user due to having no mutual
/// guilds" (JSON Error Codes); once they install it, it goes through.
#[tokio::test]
async fn dms_need_a_shared_server_or_a_user_install() {
    let api = Api::start().await;
    let dave = SimUser::new(1004, "dave");
    api.fake.add_user(&dave);
    api.fake.remove_from_every_guild(dave.id);
    let dm = api.fake.dm_channel_for(dave.id);
    assert_code(
        &api.post_message(dm, json!({"content": "your move"})).await,
        403,
        50278,
    );
    api.fake.install_for_user(dave.id);
    assert_ok(&api.post_message(dm, json!({"content": "your move"})).await);
}

/// "Apps are limited to 5 followup messages per interaction if it was initiated from a
/// user-installed app and isn't installed in the server"; the sixth answers 40094
/// (<https://discord.com/developers/docs/interactions/receiving-and-responding#followup-messages>).
/// With the bot in the server there is no such limit.
#[tokio::test]
async fn user_installed_interactions_get_five_followups() {
    let api = Api::start().await;
    register_play_and_settle(&api).await;
    let alice = SimUser::new(1001, "alice");
    let bob = SimUser::new(1002, "bob");
    api.fake.install_for_user(alice.id);
    let group = api.fake.add_group_dm(&[&alice, &bob]);
    let sent = api
        .fake
        .slash_command(&alice, group, "play", vec![])
        .unwrap();
    assert_ok(
        &api.callback(&sent, json!({"type": 4, "data": {"content": "board"}}))
            .await,
    );
    for n in 1..=5 {
        assert_ok(
            &api.followup(&sent, json!({"content": format!("follow-up {n}")}))
                .await,
        );
    }
    assert_code(
        &api.followup(&sent, json!({"content": "one too many"}))
            .await,
        400,
        40094,
    );
    let sent = api
        .fake
        .slash_command(&alice, api.fake.text_channel_id(), "play", vec![])
        .unwrap();
    assert_ok(
        &api.callback(&sent, json!({"type": 4, "data": {"content": "board"}}))
            .await,
    );
    for n in 1..=6 {
        assert_ok(
            &api.followup(&sent, json!({"content": format!("follow-up {n}")}))
                .await,
        );
    }
}

#[tokio::test]
async fn default_member_permissions_hide_a_command_from_members_without_them() {
    let api = Api::start().await;
    let channel = api.fake.text_channel_id();
    let app = api.fake.application_id();
    let command = json!({"name": "moderate", "description": "mods", "type": 1,
        "default_member_permissions": "1099511627776", "contexts": [0], "integration_types": [0]});
    assert_ok(
        &api.rest(
            "PUT",
            &format!("/applications/{app}/commands"),
            json!([command]),
        )
        .await,
    );
    let member = SimUser::new(1005, "erin").with_permissions(fake_discord::MEMBER_PERMISSIONS);
    assert!(matches!(
        api.fake.slash_command(&member, channel, "moderate", vec![]),
        Err(fake_discord::FakeError::CommandNotPermitted { .. })
    ));
    // Moderate Members (1 << 40), or an administrator, or the server's override.
    let moderator = SimUser::new(1006, "mod")
        .with_permissions(fake_discord::MEMBER_PERMISSIONS | Permissions::MODERATE_MEMBERS);
    assert!(
        api.fake
            .slash_command(&moderator, channel, "moderate", vec![])
            .is_ok()
    );
    let admin = SimUser::new(1001, "alice");
    assert!(
        api.fake
            .slash_command(&admin, channel, "moderate", vec![])
            .is_ok()
    );
    api.fake
        .permit_command(api.fake.guild_id(), "moderate", member.id);
    assert!(
        api.fake
            .slash_command(&member, channel, "moderate", vec![])
            .is_ok()
    );
}
