//! Every object the fake sends must deserialize into serenity 0.12's model types, or the
//! real client would drop it. These tests check each shape against serenity itself.

use std::time::Duration;

use serde_json::{Value, json};
use serenity::all as serenity;
use tokio::sync::mpsc;

use super::*;

fn parse<T: serde::de::DeserializeOwned>(what: &str, value: &Value) -> T {
    match serde_json::from_value(value.clone()) {
        Ok(parsed) => parsed,
        Err(error) => panic!("{what} does not deserialize in serenity: {error}\n{value:#}"),
    }
}

fn fake_session(fake: &FakeDiscord) -> mpsc::UnboundedReceiver<(String, Value)> {
    fake.detached_session()
}

#[tokio::test]
async fn gateway_objects_deserialize_in_serenity() {
    let fake = FakeDiscord::start().await.unwrap();
    fake.add_user(&SimUser::new(1001, "alice").with_global_name("Alice"));
    fake.add_thread(fake.text_channel_id(), "game-1").unwrap();
    let (ready, guild) = fake.shared.read(|s| {
        (
            s.ready_json("session", (0, 1)),
            s.guild_create_json(&s.guilds[0], true),
        )
    });
    let ready: serenity::Ready = parse("READY", &ready);
    assert_eq!(ready.application.id.get(), fake.application_id());
    assert_eq!(ready.user.id.get(), fake.bot_user_id());
    let guild: serenity::Guild = parse("GUILD_CREATE", &guild);
    assert_eq!(guild.id.get(), fake.guild_id());
    let channel = serenity::ChannelId::new(fake.text_channel_id());
    assert!(guild.channels.contains_key(&channel));
    assert_eq!(guild.threads.len(), 1);
    assert_eq!(guild.members.len(), 2, "the bot and alice");
    // Without GUILD_PRESENCES, only the bot's own member.
    let guild = fake
        .shared
        .read(|s| s.guild_create_json(&s.guilds[0], false));
    let guild: serenity::Guild = parse("GUILD_CREATE", &guild);
    assert_eq!(guild.members.len(), 1, "the bot only");
    assert_eq!(guild.member_count, 2);

    // A whole frame as serenity's shard reads it.
    let frame = json!({"op": 0, "s": 1, "t": "READY", "d": fake.shared.read(|s| s.ready_json("x", (0, 1)))});
    let event: serenity::GatewayEvent = parse("READY frame", &frame);
    assert!(matches!(event, serenity::GatewayEvent::Dispatch(1, _)));
    let hello = json!({"op": 10, "d": {"heartbeat_interval": 41250}, "s": null, "t": null});
    let event: serenity::GatewayEvent = parse("HELLO", &hello);
    assert!(matches!(event, serenity::GatewayEvent::Hello(41250)));
}

#[tokio::test]
async fn rest_objects_deserialize_in_serenity() {
    use reqwest::Method;
    let fake = FakeDiscord::start().await.unwrap();
    let (status, gateway) = fake.bot_request(Method::GET, "/gateway/bot", None).await;
    assert_eq!(status, 200);
    let gateway: serenity::BotGateway = parse("GET /gateway/bot", &gateway);
    assert_eq!(gateway.url, fake.gateway_url());
    assert_eq!(gateway.shards, 1);

    let (_, me) = fake.bot_request(Method::GET, "/users/@me", None).await;
    let me: serenity::CurrentUser = parse("GET /users/@me", &me);
    assert!(me.bot);

    let (_, app) = fake
        .bot_request(Method::GET, "/oauth2/applications/@me", None)
        .await;
    let _: serenity::CurrentApplicationInfo = parse("GET /oauth2/applications/@me", &app);

    let app_id = fake.application_id();
    let commands = json!([{"name": "ping", "description": "Ping", "options": [
        {"type": 3, "name": "text", "description": "Some text", "required": false, "autocomplete": true}
    ]}]);
    let (status, registered) = fake
        .bot_request(
            Method::PUT,
            &format!("/applications/{app_id}/commands"),
            Some(commands),
        )
        .await;
    assert_eq!(status, 200);
    let registered: Vec<serenity::Command> = parse("PUT commands", &registered);
    assert_eq!(registered[0].name, "ping");

    let (_, dm) = fake
        .bot_request(
            Method::POST,
            "/users/@me/channels",
            Some(json!({"recipient_id": "1001"})),
        )
        .await;
    let dm: serenity::PrivateChannel = parse("POST /users/@me/channels", &dm);
    assert_eq!(dm.recipient.id.get(), 1001);
    assert_eq!(
        dm.id.get(),
        fake.dm_channel_for(1001),
        "one DM channel per user"
    );

    let channel_id = fake.text_channel_id();
    let (status, message) = fake
        .bot_request(
            Method::POST,
            &format!("/channels/{channel_id}/messages"),
            Some(json!({
                "content": "hello",
                "embeds": [{"title": "Board", "image": {"url": "attachment://board.png"}}],
                "components": [{"type": 1, "components": [
                    {"type": 2, "style": 1, "label": "Resign", "custom_id": "resign:1"}
                ]}]
            })),
        )
        .await;
    assert_eq!(status, 200);
    let message: serenity::Message = parse("POST /channels/{id}/messages", &message);
    assert_eq!(message.content, "hello");
    assert_eq!(message.components.len(), 1);

    let (status, thread) = fake
        .bot_request(
            Method::POST,
            &format!("/channels/{channel_id}/messages/{}/threads", message.id),
            Some(json!({"name": "game-2", "auto_archive_duration": 10080})),
        )
        .await;
    assert_eq!(status, 201);
    let thread: serenity::GuildChannel = parse("thread from message", &thread);
    assert_eq!(thread.id.get(), message.id.get());
    assert_eq!(thread.kind, serenity::ChannelType::PublicThread);

    let (status, thread) = fake
        .bot_request(
            Method::POST,
            &format!("/channels/{channel_id}/threads"),
            Some(json!({"name": "private-game", "type": 12})),
        )
        .await;
    assert_eq!(status, 201);
    let thread: serenity::GuildChannel = parse("thread without message", &thread);
    assert_eq!(thread.kind, serenity::ChannelType::PrivateThread);

    let (status, archived) = fake
        .bot_request(
            Method::PATCH,
            &format!("/channels/{}", thread.id),
            Some(json!({"archived": true})),
        )
        .await;
    assert_eq!(status, 200);
    let archived: serenity::GuildChannel = parse("PATCH /channels/{id}", &archived);
    assert_eq!(archived.thread_metadata.map(|m| m.archived), Some(true));
    assert_eq!(fake.threads().len(), 2);
    assert!(fake.channel(thread.id.get()).unwrap().is_archived());

    let (status, text) = fake
        .bot_request(Method::GET, &format!("/channels/{channel_id}"), None)
        .await;
    assert_eq!(status, 200);
    let _: serenity::GuildChannel = parse("GET /channels/{id}", &text);

    let (status, error) = fake.bot_request(Method::GET, "/no/such/route", None).await;
    assert_eq!(status, 404);
    assert_eq!(error["code"], 0);
    assert_eq!(fake.unknown_routes().len(), 1);
    assert_eq!(fake.unknown_routes()[0].path, "/no/such/route");
}

#[tokio::test]
async fn interactions_deserialize_in_serenity() {
    let fake = FakeDiscord::start().await.unwrap();
    let mut events = fake_session(&fake);
    let alice = SimUser::new(1001, "alice").with_global_name("Alice");
    let bob = SimUser::new(1002, "bob");

    // Slash command in the guild text channel, with a USER option (resolved data).
    let sent = fake
        .slash_command(
            &alice,
            fake.text_channel_id(),
            "challenge",
            vec![
                CommandOption::user("opponent", &bob),
                CommandOption::string("variant", "atomic"),
                CommandOption::integer("minutes", 5),
            ],
        )
        .unwrap();
    let (name, payload) = events.recv().await.unwrap();
    assert_eq!(name, "INTERACTION_CREATE");
    let interaction: serenity::Interaction = parse("slash command", &payload);
    let serenity::Interaction::Command(command) = interaction else {
        panic!("not a command interaction: {payload:#}");
    };
    assert_eq!(command.id.get(), sent.id);
    assert_eq!(command.data.name, "challenge");
    assert_eq!(command.user.id.get(), alice.id);
    assert_eq!(command.guild_id.map(|g| g.get()), Some(fake.guild_id()));
    let options = command.data.options();
    assert!(
        matches!(options[0].value, serenity::ResolvedValue::User(user, _) if user.id.get() == bob.id)
    );

    // Slash command with a subcommand, in a DM.
    let dm = fake.dm_channel_for(alice.id);
    fake.slash_command(
        &alice,
        dm,
        "game",
        vec![CommandOption::subcommand(
            "show",
            vec![CommandOption::boolean("big", true)],
        )],
    )
    .unwrap();
    let (_, payload) = events.recv().await.unwrap();
    let serenity::Interaction::Command(command) = parse("DM command", &payload) else {
        panic!("not a command: {payload:#}");
    };
    assert_eq!(command.guild_id, None);
    assert_eq!(command.user.id.get(), alice.id);

    // Autocomplete in a thread.
    let thread = fake.add_thread(fake.text_channel_id(), "game-1").unwrap();
    fake.autocomplete(
        &alice,
        thread,
        "challenge",
        vec![CommandOption::string("variant", "ato").focused()],
    )
    .unwrap();
    let (_, payload) = events.recv().await.unwrap();
    let serenity::Interaction::Autocomplete(auto) = parse("autocomplete", &payload) else {
        panic!("not autocomplete: {payload:#}");
    };
    assert_eq!(auto.channel_id.get(), thread);
    let focused = auto.data.autocomplete().unwrap();
    assert_eq!((focused.name, focused.value), ("variant", "ato"));

    // Button click and select on a stored message.
    let message = fake
        .user_message(&bob, fake.text_channel_id(), "hi")
        .unwrap();
    let (_, created) = events.recv().await.unwrap();
    let _: serenity::Message = parse("MESSAGE_CREATE", &created);
    fake.click_button(&alice, message, "accept:7").unwrap();
    let (_, payload) = events.recv().await.unwrap();
    let serenity::Interaction::Component(click) = parse("button", &payload) else {
        panic!("not a component: {payload:#}");
    };
    assert_eq!(click.data.custom_id, "accept:7");
    assert_eq!(click.message.id.get(), message);
    fake.select_menu(&alice, message, "pick", &["nuke"])
        .unwrap();
    let (_, payload) = events.recv().await.unwrap();
    let serenity::Interaction::Component(select) = parse("select", &payload) else {
        panic!("not a component: {payload:#}");
    };
    assert!(matches!(
        select.data.kind,
        serenity::ComponentInteractionDataKind::StringSelect { ref values } if values == &["nuke".to_string()]
    ));

    // Errors name the problem.
    assert!(matches!(
        fake.click_button(&alice, 42, "x"),
        Err(FakeError::UnknownMessage(42))
    ));
    assert!(matches!(
        fake.slash_command(&alice, 42, "x", vec![]),
        Err(FakeError::UnknownChannel(42))
    ));
    drop(events);
    assert!(matches!(
        fake.slash_command(&alice, fake.text_channel_id(), "x", vec![]),
        Err(FakeError::NoGatewaySession)
    ));
}

/// Roles: a role an admin adds is announced (GUILD_ROLE_CREATE), listed in the holder's
/// `member.roles`, and resolved in a ROLE option; a member who left is Unknown Member to
/// Get Guild Member (404 / 10007) and can no longer use the guild's commands.
#[tokio::test]
async fn roles_resolve_and_members_who_left_are_unknown() {
    use reqwest::Method;
    let fake = FakeDiscord::start().await.unwrap();
    let mut events = fake_session(&fake);
    let guild = fake.guild_id();
    let role = fake.add_role(guild, "League organisers").unwrap();
    let (name, created) = events.recv().await.unwrap();
    assert_eq!(name, "GUILD_ROLE_CREATE");
    let event: serenity::GuildRoleCreateEvent = parse("GUILD_ROLE_CREATE", &created);
    assert_eq!(
        (event.role.id.get(), event.role.name.as_str()),
        (role, "League organisers")
    );

    let carol = SimUser::new(1003, "carol")
        .with_permissions(MEMBER_PERMISSIONS)
        .with_roles(vec![role]);
    fake.slash_command(
        &carol,
        fake.text_channel_id(),
        "settings",
        vec![CommandOption::role("organisers", role)],
    )
    .unwrap();
    let (_, payload) = events.recv().await.unwrap();
    let serenity::Interaction::Command(command) = parse("role option", &payload) else {
        panic!("not a command: {payload:#}");
    };
    let member = command.member.as_ref().expect("a member in a guild");
    assert_eq!(member.roles, [serenity::RoleId::new(role)]);
    let options = command.data.options();
    assert!(
        matches!(options[0].value, serenity::ResolvedValue::Role(r) if r.id.get() == role && r.name == "League organisers"),
        "{payload:#}"
    );

    let path = format!("/guilds/{guild}/members/{}", carol.id);
    assert_eq!(fake.bot_request(Method::GET, &path, None).await.0, 200);
    fake.remove_member(guild, carol.id).unwrap();
    let (status, body) = fake.bot_request(Method::GET, &path, None).await;
    assert_eq!((status, body["code"].clone()), (404, json!(10007)));
    assert!(matches!(
        fake.slash_command(&carol, fake.text_channel_id(), "settings", vec![]),
        Err(FakeError::NotAMember { guild: g, user: 1003 }) if g == guild
    ));
}

#[tokio::test]
async fn callbacks_are_recorded_and_acknowledged_once() {
    use reqwest::Method;
    let fake = FakeDiscord::start().await.unwrap();
    let _events = fake_session(&fake);
    let alice = SimUser::new(1001, "alice");
    let sent = fake
        .slash_command(&alice, fake.text_channel_id(), "ping", vec![])
        .unwrap();
    let path = format!("/interactions/{}/{}/callback", sent.id, sent.token);
    let waiter = fake.next_interaction_response(sent.id, Duration::from_secs(5));
    let reply = json!({"type": 4, "data": {"content": "pong"}});
    let (status, _) = tokio::join!(
        waiter,
        fake.bot_request(Method::POST, &path, Some(reply.clone()))
    )
    .1;
    assert_eq!(status, 204);
    let response = fake
        .interaction_responses(sent.id)
        .into_iter()
        .next()
        .unwrap();
    assert_eq!(response.content(), Some("pong"));
    let original = fake.message(response.message_id.unwrap()).unwrap();
    assert_eq!(original.content(), "pong");
    assert_eq!(original.interaction_id, Some(sent.id));

    let (status, error) = fake.bot_request(Method::POST, &path, Some(reply)).await;
    assert_eq!((status, error["code"].as_u64()), (400, Some(40060)));

    let app = fake.application_id();
    let edit = format!("/webhooks/{app}/{}/messages/@original", sent.token);
    let (status, edited) = fake
        .bot_request(Method::PATCH, &edit, Some(json!({"content": "pong!"})))
        .await;
    assert_eq!(status, 200);
    let edited: serenity::Message = parse("edited original", &edited);
    assert_eq!(edited.content, "pong!");
    let followup = format!("/webhooks/{app}/{}", sent.token);
    let (status, _) = fake
        .bot_request(Method::POST, &followup, Some(json!({"content": "more"})))
        .await;
    assert_eq!(status, 200);
    let kinds: Vec<ResponseKind> = fake
        .interaction_responses(sent.id)
        .iter()
        .map(|r| r.kind)
        .collect();
    assert_eq!(
        kinds,
        vec![
            ResponseKind::Callback { callback_type: 4 },
            ResponseKind::EditOriginal,
            ResponseKind::Followup
        ]
    );
    assert_eq!(fake.messages_in(fake.text_channel_id()).len(), 2);
    let timeout = fake
        .next_interaction_response(sent.id + 1, Duration::from_millis(20))
        .await;
    assert!(matches!(timeout, Err(FakeError::Timeout { .. })));
}

#[tokio::test]
async fn refused_dms_answer_403_50007() {
    use reqwest::Method;
    let fake = FakeDiscord::start().await.unwrap();
    fake.refuse_dms_for(1002);
    let dm = fake.dm_channel_for(1002);
    let (status, error) = fake
        .bot_request(
            Method::POST,
            &format!("/channels/{dm}/messages"),
            Some(json!({"content": "your move"})),
        )
        .await;
    assert_eq!(status, 403);
    let error: serenity::DiscordJsonError = parse("50007 error", &error);
    assert_eq!(error.code, 50007);
    fake.allow_dms_for(1002);
    let (status, _) = fake
        .bot_request(
            Method::POST,
            &format!("/channels/{dm}/messages"),
            Some(json!({"content": "your move"})),
        )
        .await;
    assert_eq!(status, 200);
}

#[tokio::test]
async fn requests_without_bot_token_are_unauthorized() {
    let fake = FakeDiscord::start().await.unwrap();
    let client = reqwest::Client::builder().no_proxy().build().unwrap();
    let response = client
        .get(format!("{}/api/v10/users/@me", fake.url()))
        .send()
        .await
        .unwrap();
    assert_eq!(response.status().as_u16(), 401);
}

/// The gateway protocol itself, spoken by a bare WebSocket client: HELLO, HEARTBEAT ->
/// HEARTBEAT_ACK, IDENTIFY -> READY + GUILD_CREATE (sequence 1, 2), dispatches after that,
/// RESUME -> RESUMED on a second connection, and a close frame when the fake is dropped.
#[tokio::test]
async fn gateway_speaks_the_discord_protocol() {
    use futures_util::{SinkExt, StreamExt};
    use tokio_tungstenite::tungstenite::Message;

    async fn next_json(
        ws: &mut tokio_tungstenite::WebSocketStream<
            tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>,
        >,
    ) -> Value {
        let frame = tokio::time::timeout(Duration::from_secs(5), ws.next())
            .await
            .expect("a frame in time")
            .expect("the socket is open")
            .expect("a valid frame");
        match frame {
            Message::Text(text) => serde_json::from_str(&text).unwrap(),
            other => panic!("expected a JSON text frame, got {other:?}"),
        }
    }

    let fake = FakeDiscord::start().await.unwrap();
    let url = format!("{}?v=10", fake.gateway_url());
    let (mut ws, _) = tokio_tungstenite::connect_async(url.as_str())
        .await
        .unwrap();
    let hello = next_json(&mut ws).await;
    assert_eq!(hello["op"], 10);
    assert!(hello["d"]["heartbeat_interval"].as_u64().unwrap() > 0);

    ws.send(Message::Text(json!({"op": 1, "d": null}).to_string()))
        .await
        .unwrap();
    assert_eq!(next_json(&mut ws).await["op"], 11);

    let identify = json!({"op": 2, "d": {"token": FAKE_TOKEN, "intents": 0,
        "properties": {"os": "linux", "browser": "test", "device": "test"}}});
    ws.send(Message::Text(identify.to_string())).await.unwrap();
    let ready = next_json(&mut ws).await;
    assert_eq!(
        (
            ready["op"].as_u64(),
            ready["t"].as_str(),
            ready["s"].as_u64()
        ),
        (Some(0), Some("READY"), Some(1))
    );
    let guild = next_json(&mut ws).await;
    assert_eq!(
        (guild["t"].as_str(), guild["s"].as_u64()),
        (Some("GUILD_CREATE"), Some(2))
    );
    fake.wait_until_ready(Duration::from_secs(5)).await.unwrap();

    assert_eq!(fake.dispatch_raw("TYPING_START", json!({"x": 1})), 1);
    let typing = next_json(&mut ws).await;
    assert_eq!(
        (typing["t"].as_str(), typing["s"].as_u64()),
        (Some("TYPING_START"), Some(3))
    );

    let (mut second, _) = tokio_tungstenite::connect_async(url.as_str())
        .await
        .unwrap();
    assert_eq!(next_json(&mut second).await["op"], 10);
    let resume = json!({"op": 6, "d": {"token": FAKE_TOKEN, "session_id": ready["d"]["session_id"], "seq": 3}});
    second
        .send(Message::Text(resume.to_string()))
        .await
        .unwrap();
    assert_eq!(next_json(&mut second).await["t"], "RESUMED");

    drop(fake);
    let closed = tokio::time::timeout(Duration::from_secs(5), ws.next())
        .await
        .expect("the fake closes the socket");
    assert!(matches!(
        closed,
        Some(Ok(Message::Close(_))) | None | Some(Err(_))
    ));
}

/// A message created by an interaction response names the interaction and its
/// user (`interaction_metadata`, https://discord.com/developers/docs/resources/message#message-interaction-metadata-object),
/// with the command's name for a slash command and `interacted_message_id` for a button,
/// which serenity 0.12 requires (it refuses the whole Message without it).
#[tokio::test]
async fn interaction_messages_carry_their_metadata() {
    use reqwest::Method;
    let fake = FakeDiscord::start().await.unwrap();
    let _events = fake_session(&fake);
    let alice = SimUser::new(1001, "alice");
    let bob = SimUser::new(1002, "bob");
    let reply = json!({"type": 4, "data": {"content": "pong", "flags": 64}});
    let sent = fake
        .slash_command(&alice, fake.text_channel_id(), "ping", vec![])
        .unwrap();
    let path = format!("/interactions/{}/{}/callback", sent.id, sent.token);
    let (status, _) = fake
        .bot_request(Method::POST, &path, Some(reply.clone()))
        .await;
    assert_eq!(status, 204);
    let pong = fake.messages_in(fake.text_channel_id()).pop().unwrap();
    assert_eq!(pong.interaction_user_id(), Some(1001));
    assert_eq!(pong.interaction_command(), Some("ping"));
    let parsed: serenity::Message = parse("command reply", &pong.json);
    assert!(matches!(
        parsed.interaction_metadata.as_deref(),
        Some(serenity::MessageInteractionMetadata::Command(m)) if m.user.id.get() == 1001
    ));

    let on = fake
        .user_message(&bob, fake.text_channel_id(), "hi")
        .unwrap();
    let click = fake.click_button(&bob, on, "x").unwrap();
    let path = format!("/interactions/{}/{}/callback", click.id, click.token);
    let (status, _) = fake.bot_request(Method::POST, &path, Some(reply)).await;
    assert_eq!(status, 204);
    let answer = fake.messages_in(fake.text_channel_id()).pop().unwrap();
    assert_eq!(answer.interaction_user_id(), Some(1002));
    assert_eq!(answer.interaction_command(), None);
    let parsed: serenity::Message = parse("button reply", &answer.json);
    assert!(matches!(
        parsed.interaction_metadata.as_deref(),
        Some(serenity::MessageInteractionMetadata::Component(m)) if m.interacted_message_id.get() == on
    ));
    // A message no interaction made has none.
    let hi = fake.message(on).unwrap();
    assert_eq!(hi.interaction_user_id(), None);
}

/// Gateway sharding (<https://discord.com/developers/docs/events/gateway#sharding>): three
/// sessions identify as shards `[0, 3]`, `[1, 3]`, `[2, 3]`; READY echoes each shard, only
/// the fake guild's shard `(guild_id >> 22) % 3` gets its GUILD_CREATE, a guild's events
/// reach only its shard, events without a guild (DMs) only shard 0, and an IDENTIFY with
/// `shard: [3, 3]` is closed with 4010 Invalid shard.
#[tokio::test]
async fn gateway_routes_guild_events_to_their_shard() {
    use futures_util::{SinkExt, StreamExt};
    use tokio_tungstenite::tungstenite::Message;
    type Ws = tokio_tungstenite::WebSocketStream<
        tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>,
    >;

    async fn next(ws: &mut Ws, wait: Duration) -> Option<Message> {
        tokio::time::timeout(wait, ws.next())
            .await
            .ok()
            .flatten()
            .and_then(Result::ok)
    }
    async fn next_json(ws: &mut Ws) -> Value {
        match next(ws, Duration::from_secs(5)).await {
            Some(Message::Text(text)) => serde_json::from_str(&text).unwrap(),
            other => panic!("expected a JSON text frame, got {other:?}"),
        }
    }
    async fn identify(url: &str, shard: Value) -> Ws {
        let (mut ws, _) = tokio_tungstenite::connect_async(url).await.unwrap();
        assert_eq!(next_json(&mut ws).await["op"], 10);
        let identify = json!({"op": 2, "d": {"token": FAKE_TOKEN, "intents": 0, "shard": shard,
            "properties": {"os": "linux", "browser": "test", "device": "test"}}});
        ws.send(Message::Text(identify.to_string())).await.unwrap();
        ws
    }

    let fake = FakeDiscord::start().await.unwrap();
    let url = format!("{}?v=10", fake.gateway_url());
    let home = crate::gateway::shard_of(fake.guild_id(), 3);
    let mut shards = Vec::new();
    for id in 0..3u64 {
        let mut ws = identify(&url, json!([id, 3])).await;
        let ready = next_json(&mut ws).await;
        assert_eq!(ready["t"], "READY");
        assert_eq!(ready["d"]["shard"], json!([id, 3]));
        let listed = ready["d"]["guilds"].as_array().unwrap().len();
        assert_eq!(listed, usize::from(id == home), "shard {id}");
        if id == home {
            assert_eq!(next_json(&mut ws).await["t"], "GUILD_CREATE");
        }
        shards.push(ws);
    }

    // A guild of each shard, found by the formula, and a DM.
    let guild_on = |shard: u64| (1u64..).map(|n| n << 22).find(|g| (g >> 22) % 3 == shard);
    for target in 0..3u64 {
        let g = guild_on(target).unwrap();
        assert_eq!(
            fake.dispatch_raw("TYPING_START", json!({"guild_id": g.to_string()})),
            1
        );
        for (id, ws) in shards.iter_mut().enumerate() {
            let got = next(ws, Duration::from_millis(300)).await;
            assert_eq!(
                got.is_some(),
                id as u64 == target,
                "guild {g} reached shard {id}: {got:?}"
            );
        }
    }
    assert_eq!(
        fake.dispatch_raw("TYPING_START", json!({"channel_id": "5"})),
        1
    );
    for (id, ws) in shards.iter_mut().enumerate() {
        let got = next(ws, Duration::from_millis(300)).await;
        assert_eq!(
            got.is_some(),
            id == 0,
            "a DM event reached shard {id}: {got:?}"
        );
    }

    let mut bad = identify(&url, json!([3, 3])).await;
    match next(&mut bad, Duration::from_secs(5)).await {
        Some(Message::Close(Some(frame))) => assert_eq!(u16::from(frame.code), 4010),
        other => panic!("expected close 4010, got {other:?}"),
    }
}

/// Several guilds: consecutive snowflakes put one on each of three shards; each
/// has its own text channel; READY and GUILD_CREATE of a shard carry only its guilds; an
/// interaction in a guild reaches only that guild's shard, with that guild's id and Admin
/// role; and once the bot is removed from a guild, GUILD_DELETE reaches that shard only,
/// REST about the guild answers 50001 and no interaction comes from there. A new IDENTIFY
/// of one shard drops only that shard's disconnected session.
#[tokio::test]
async fn guilds_spread_over_the_shards_and_a_removed_bot_is_refused() {
    use futures_util::{SinkExt, StreamExt};
    use reqwest::Method;
    use tokio_tungstenite::tungstenite::Message;
    type Ws = tokio_tungstenite::WebSocketStream<
        tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>,
    >;
    async fn next(ws: &mut Ws, wait: Duration) -> Option<Value> {
        match tokio::time::timeout(wait, ws.next()).await {
            Ok(Some(Ok(Message::Text(text)))) => Some(serde_json::from_str(&text).unwrap()),
            _ => None,
        }
    }
    async fn identify(url: &str, shard: u64) -> Ws {
        let (mut ws, _) = tokio_tungstenite::connect_async(url).await.unwrap();
        assert_eq!(
            next(&mut ws, Duration::from_secs(5)).await.unwrap()["op"],
            10
        );
        let identify = json!({"op": 2, "d": {"token": FAKE_TOKEN, "intents": 0,
            "shard": [shard, 3], "properties": {"os": "linux", "browser": "t", "device": "t"}}});
        ws.send(Message::Text(identify.to_string())).await.unwrap();
        ws
    }

    let fake = FakeDiscord::start_with_guilds(0, 3).await.unwrap();
    let guilds = fake.guilds();
    assert_eq!(guilds.len(), 3);
    assert_eq!(guilds[0].id, fake.guild_id());
    assert_eq!(guilds[0].text_channel_id, fake.text_channel_id());
    let mut shards: Vec<u64> = guilds
        .iter()
        .map(|g| crate::gateway::shard_of(g.id, 3))
        .collect();
    shards.sort_unstable();
    assert_eq!(shards, [0, 1, 2], "one guild on each shard");
    for g in &guilds {
        assert_eq!(fake.guild_of_channel(g.text_channel_id), Some(g.id));
    }
    // By shard: the guild of shard i.
    let on = |shard: u64| {
        guilds
            .iter()
            .find(|g| crate::gateway::shard_of(g.id, 3) == shard)
            .unwrap()
            .clone()
    };
    let url = format!("{}?v=10", fake.gateway_url());
    let mut sockets = Vec::new();
    for shard in 0..3u64 {
        let mut ws = identify(&url, shard).await;
        let ready = next(&mut ws, Duration::from_secs(5)).await.unwrap();
        assert_eq!(ready["t"], "READY");
        assert_eq!(
            ready["d"]["guilds"],
            json!([{ "id": on(shard).id.to_string(), "unavailable": true }]),
            "shard {shard}"
        );
        let create = next(&mut ws, Duration::from_secs(5)).await.unwrap();
        assert_eq!(create["t"], "GUILD_CREATE");
        let guild: serenity::Guild = parse("GUILD_CREATE", &create["d"]);
        assert_eq!(guild.id.get(), on(shard).id);
        let channels: Vec<u64> = guild.channels.keys().map(|c| c.get()).collect();
        assert_eq!(
            channels,
            [on(shard).text_channel_id],
            "its own channel only"
        );
        sockets.push(ws);
    }

    // An interaction in each guild's channel reaches its shard and no other.
    let alice = SimUser::new(1001, "alice");
    for target in 0..3u64 {
        let guild = on(target);
        fake.slash_command(&alice, guild.text_channel_id, "ping", vec![])
            .unwrap();
        for (shard, ws) in sockets.iter_mut().enumerate() {
            let got = next(ws, Duration::from_millis(300)).await;
            if shard as u64 != target {
                assert!(got.is_none(), "guild {} reached shard {shard}", guild.id);
                continue;
            }
            let event = got.expect("the guild's shard gets it");
            assert_eq!(event["t"], "INTERACTION_CREATE");
            assert_eq!(event["d"]["guild_id"], guild.id.to_string());
            assert_eq!(
                event["d"]["member"]["roles"],
                json!([(guild.id + 1).to_string()])
            );
            let interaction: serenity::Interaction = parse("INTERACTION_CREATE", &event["d"]);
            assert_eq!(interaction.guild_id().map(|g| g.get()), Some(guild.id));
        }
    }

    // The bot posts in every guild's channel; then it is removed from one guild.
    let gone = on(1);
    let post = |channel: u64| {
        let path = format!("/channels/{channel}/messages");
        let fake = &fake;
        async move {
            fake.bot_request(Method::POST, &path, Some(json!({ "content": "hi" })))
                .await
        }
    };
    assert_eq!(post(gone.text_channel_id).await.0, 200);
    fake.remove_bot_from_guild(gone.id).unwrap();
    let deleted = next(&mut sockets[1], Duration::from_secs(5)).await.unwrap();
    assert_eq!(deleted["t"], "GUILD_DELETE");
    assert_eq!(deleted["d"], json!({ "id": gone.id.to_string() }));
    assert!(
        next(&mut sockets[0], Duration::from_millis(200))
            .await
            .is_none()
    );
    assert!(
        next(&mut sockets[2], Duration::from_millis(200))
            .await
            .is_none()
    );
    let (status, body) = post(gone.text_channel_id).await;
    assert_eq!((status, body["code"].clone()), (403, json!(50001)));
    let (status, _) = fake
        .bot_request(
            Method::GET,
            &format!("/guilds/{}/members/1001", gone.id),
            None,
        )
        .await;
    assert_eq!(status, 403);
    let (status, _) = fake
        .bot_request(
            Method::PUT,
            &format!(
                "/applications/{}/guilds/{}/commands",
                fake.application_id(),
                gone.id
            ),
            Some(json!([])),
        )
        .await;
    assert_eq!(status, 403);
    assert!(matches!(
        fake.slash_command(&alice, gone.text_channel_id, "ping", vec![]),
        Err(FakeError::BotNotInGuild(g)) if g == gone.id
    ));
    assert_eq!(
        post(on(2).text_channel_id).await.0,
        200,
        "other guilds still work"
    );
    assert!(!fake.guilds()[guilds.iter().position(|g| g.id == gone.id).unwrap()].bot_member);

    // Shard 2's connection drops (no close frame: resumable); a new IDENTIFY of shard 0
    // keeps that session, a new IDENTIFY of shard 2 replaces it.
    let dropped = sockets.pop().unwrap();
    drop(dropped);
    let waited = tokio::time::Instant::now() + Duration::from_secs(5);
    while fake.gateway_sessions().iter().all(|s| s.connected) {
        assert!(tokio::time::Instant::now() < waited, "the drop is not seen");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    let _again0 = identify(&url, 0).await;
    let waited = tokio::time::Instant::now() + Duration::from_secs(5);
    while fake.gateway_sessions().len() < 4 {
        assert!(
            tokio::time::Instant::now() < waited,
            "shard 0's IDENTIFY is not seen"
        );
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    assert_eq!(
        fake.gateway_sessions()
            .iter()
            .filter(|s| !s.connected)
            .count(),
        1,
        "shard 2's session waits for its resume"
    );
    let _again2 = identify(&url, 2).await;
    let waited = tokio::time::Instant::now() + Duration::from_secs(5);
    while fake.gateway_sessions().iter().any(|s| !s.connected) {
        assert!(
            tokio::time::Instant::now() < waited,
            "the old shard 2 session stays"
        );
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    assert_eq!(fake.gateway_sessions().len(), 4);
}

/// A thread restored from an earlier run keeps its id, is a public thread of its parent,
/// cannot be restored twice, and the ids generated afterwards come after it (no collision
/// with a later thread or message).
#[tokio::test]
async fn a_restored_thread_keeps_its_id_and_later_ids_come_after_it() {
    let fake = FakeDiscord::start().await.unwrap();
    let parent = fake.text_channel_id();
    let restored = (parent >> 22).wrapping_add(1_000) << 22;
    fake.restore_thread(parent, restored, "game 1").unwrap();
    let channel = fake.channel(restored).expect("the restored thread");
    assert_eq!((channel.kind(), channel.parent_id()), (11, Some(parent)));
    assert!(matches!(
        fake.restore_thread(parent, restored, "again"),
        Err(FakeError::WrongChannelType(id)) if id == restored
    ));
    let next = fake.add_thread(parent, "game 2").unwrap();
    assert!(next > restored, "{next} after {restored}");
}
