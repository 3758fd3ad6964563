//! Proof that the real serenity 0.12 / poise 0.7 client works against
//! `fake_discord`: a tiny poise bot (a slash command with autocomplete, a
//! button handled in the event handler by custom id, a DM that Discord refuses, a message
//! with a PNG attachment) connects over loopback and every answer is checked in the fake's
//! records.

use std::time::Duration;

use fake_discord::{CommandOption, FakeDiscord, ResponseKind, SimUser};
use poise::serenity_prelude as serenity;

type Error = Box<dyn std::error::Error + Send + Sync>;
type Context<'a> = poise::Context<'a, Data, Error>;
struct Data;

const WAIT: Duration = Duration::from_secs(10);

/// A 2x1 PNG (one red, one blue pixel), made for this test.
const PNG: &[u8] = &[
    0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00, 0x00, 0x00, 0x0d, 0x49, 0x48, 0x44, 0x52,
    0x00, 0x00, 0x00, 0x02, 0x00, 0x00, 0x00, 0x01, 0x08, 0x02, 0x00, 0x00, 0x00, 0x7b, 0x40, 0xe8,
    0xdd, 0x00, 0x00, 0x00, 0x0d, 0x49, 0x44, 0x41, 0x54, 0x78, 0x9c, 0x63, 0xf8, 0xcf, 0x00, 0x04,
    0xff, 0x01, 0x07, 0x00, 0x01, 0xff, 0xe2, 0x23, 0x9e, 0x59, 0x00, 0x00, 0x00, 0x00, 0x49, 0x45,
    0x4e, 0x44, 0xae, 0x42, 0x60, 0x82,
];

const VARIANTS: [&str; 5] = ["atomic", "beirut", "nuke", "bomberman", "bombalot"];

async fn complete_variant(
    _ctx: Context<'_>,
    partial: &str,
) -> serenity::CreateAutocompleteResponse {
    let choices = VARIANTS
        .into_iter()
        .filter(|v| v.starts_with(partial))
        .map(serenity::AutocompleteChoice::from)
        .collect();
    serenity::CreateAutocompleteResponse::new().set_choices(choices)
}

/// Greets with the chosen variant and offers a button.
#[poise::command(slash_command)]
async fn hello(
    ctx: Context<'_>,
    #[description = "Variant"]
    #[autocomplete = "complete_variant"]
    variant: String,
) -> Result<(), Error> {
    let button = serenity::CreateButton::new("boom").label("Boom");
    ctx.send(
        poise::CreateReply::default()
            .content(format!("hello {variant}"))
            .components(vec![serenity::CreateActionRow::Buttons(vec![button])]),
    )
    .await?;
    Ok(())
}

/// DMs a user and reports what Discord said.
#[poise::command(slash_command)]
async fn notify(
    ctx: Context<'_>,
    #[description = "Who"] user: serenity::User,
) -> Result<(), Error> {
    let sent = user
        .direct_message(ctx, serenity::CreateMessage::new().content("your move"))
        .await;
    let report = match sent {
        Ok(_) => "dm sent".to_string(),
        Err(serenity::Error::Http(serenity::HttpError::UnsuccessfulRequest(response))) => {
            format!(
                "dm failed: {} {}",
                response.status_code.as_u16(),
                response.error.code
            )
        }
        Err(other) => format!("dm failed otherwise: {other}"),
    };
    ctx.say(report).await?;
    Ok(())
}

/// Defers, posts a board picture in the channel and answers with it too.
#[poise::command(slash_command)]
async fn board(ctx: Context<'_>) -> Result<(), Error> {
    ctx.defer().await?;
    ctx.channel_id()
        .send_message(
            ctx,
            serenity::CreateMessage::new()
                .content("the board")
                .add_file(serenity::CreateAttachment::bytes(PNG, "board.png")),
        )
        .await?;
    ctx.send(
        poise::CreateReply::default()
            .content("posted")
            .attachment(serenity::CreateAttachment::bytes(PNG, "reply.png")),
    )
    .await?;
    Ok(())
}

async fn on_event(ctx: &serenity::Context, event: &serenity::FullEvent) -> Result<(), Error> {
    if let serenity::FullEvent::InteractionCreate {
        interaction: serenity::Interaction::Component(click),
    } = event
        && click.data.custom_id == "boom"
    {
        let name = click
            .user
            .global_name
            .clone()
            .unwrap_or(click.user.name.clone());
        click
            .create_response(
                ctx,
                serenity::CreateInteractionResponse::UpdateMessage(
                    serenity::CreateInteractionResponseMessage::new()
                        .content(format!("boom by {name}"))
                        .components(vec![]),
                ),
            )
            .await?;
    }
    Ok(())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn poise_bot_runs_against_the_fake() {
    let fake = FakeDiscord::start().await.expect("fake starts");
    let framework = poise::Framework::builder()
        .options(poise::FrameworkOptions {
            commands: vec![hello(), notify(), board()],
            event_handler: |framework, event| Box::pin(on_event(framework.serenity_context, event)),
            ..Default::default()
        })
        .setup(|ctx, _ready, framework| {
            Box::pin(async move {
                poise::builtins::register_globally(ctx, &framework.options().commands).await?;
                Ok(Data)
            })
        })
        .build();
    let mut client = fake
        .client_builder(serenity::GatewayIntents::non_privileged())
        .framework(framework)
        .await
        .expect("client builds");
    let shards = client.shard_manager.clone();
    let running = tokio::spawn(async move { client.start().await });

    fake.wait_until_ready(WAIT).await.expect("bot identifies");
    let commands = fake.wait_for_commands(WAIT).await.expect("poise registers");
    let mut names: Vec<&str> = commands.iter().filter_map(|c| c["name"].as_str()).collect();
    names.sort();
    assert_eq!(names, ["board", "hello", "notify"]);

    let alice = SimUser::new(1001, "alice").with_global_name("Alice");
    let bob = SimUser::new(1002, "bob");
    let channel = fake.text_channel_id();

    // Autocomplete: poise answers with callback type 8 and the matching choices.
    let typing = fake
        .autocomplete(
            &alice,
            channel,
            "hello",
            vec![CommandOption::string("variant", "bo").focused()],
        )
        .unwrap();
    let choices = fake
        .next_interaction_response(typing.id, WAIT)
        .await
        .unwrap();
    assert_eq!(choices.kind, ResponseKind::Callback { callback_type: 8 });
    let names: Vec<String> = choices
        .choices()
        .into_iter()
        .map(|(name, _)| name)
        .collect();
    assert_eq!(names, ["bomberman", "bombalot"]);

    // Slash command: the reply is recorded and stored as the interaction's message.
    let command = fake
        .slash_command(
            &alice,
            channel,
            "hello",
            vec![CommandOption::string("variant", "nuke")],
        )
        .unwrap();
    let reply = fake
        .next_interaction_response(command.id, WAIT)
        .await
        .unwrap();
    assert_eq!(reply.kind, ResponseKind::Callback { callback_type: 4 });
    assert_eq!(reply.content(), Some("hello nuke"));
    assert_eq!(reply.custom_ids(), ["boom"]);
    let message_id = reply.message_id.expect("a response message");

    // Button: the event handler updates the message (callback type 7).
    let click = fake.click_button(&alice, message_id, "boom").unwrap();
    let update = fake
        .next_interaction_response(click.id, WAIT)
        .await
        .unwrap();
    assert_eq!(update.kind, ResponseKind::Callback { callback_type: 7 });
    let message = fake.message(message_id).unwrap();
    assert_eq!(message.content(), "boom by Alice");
    assert!(message.custom_ids().is_empty());

    // A refused DM: the bot code sees HTTP 403 with Discord code 50007.
    fake.refuse_dms_for(bob.id);
    let notify = fake
        .slash_command(
            &alice,
            channel,
            "notify",
            vec![CommandOption::user("user", &bob)],
        )
        .unwrap();
    let report = fake
        .next_interaction_response(notify.id, WAIT)
        .await
        .unwrap();
    assert_eq!(report.content(), Some("dm failed: 403 50007"));
    assert!(fake.messages_in(fake.dm_channel_for(bob.id)).is_empty());
    // ... and a DM to a user who accepts them arrives.
    let notify = fake
        .slash_command(
            &bob,
            channel,
            "notify",
            vec![CommandOption::user("user", &alice)],
        )
        .unwrap();
    let report = fake
        .next_interaction_response(notify.id, WAIT)
        .await
        .unwrap();
    assert_eq!(report.content(), Some("dm sent"));
    let dms = fake.messages_in(fake.dm_channel_for(alice.id));
    assert_eq!(dms.len(), 1);
    assert_eq!(dms[0].content(), "your move");

    // Multipart: a channel message and an interaction callback, each with a PNG.
    let board = fake
        .slash_command(&alice, channel, "board", vec![])
        .unwrap();
    let deferred = fake
        .next_interaction_response(board.id, WAIT)
        .await
        .unwrap();
    assert_eq!(deferred.kind, ResponseKind::Callback { callback_type: 5 });
    let posted = fake
        .next_interaction_response(board.id, WAIT)
        .await
        .unwrap();
    assert_eq!(posted.kind, ResponseKind::Followup);
    // The followup replaced the "thinking" message of the deferral, as on Discord.
    assert_eq!(posted.message_id, deferred.message_id);
    let answer = fake.message(posted.message_id.unwrap()).unwrap();
    assert_eq!((answer.content(), answer.flags()), ("posted", 0));
    assert_eq!(answer.attachments[0].bytes, PNG);
    assert_eq!(posted.content(), Some("posted"));
    assert_eq!(posted.files.len(), 1);
    assert_eq!(posted.files[0].filename, "reply.png");
    assert_eq!(posted.files[0].bytes, PNG);
    let uploads = fake.attachments();
    assert_eq!(uploads.len(), 2);
    assert_eq!(uploads[0].filename, "board.png");
    assert_eq!(uploads[0].content_type.as_deref(), Some("image/png"));
    assert!(uploads.iter().all(|file| file.bytes == PNG));
    let pictures: Vec<_> = fake
        .messages_in(channel)
        .into_iter()
        .filter(|m| m.content() == "the board")
        .collect();
    assert_eq!(pictures.len(), 1);
    assert_eq!(pictures[0].attachments[0].bytes, PNG);
    assert_eq!(pictures[0].json["attachments"][0]["width"], 2);
    assert_eq!(pictures[0].json["attachments"][0]["height"], 1);

    // The same command works in a thread and in a DM (no guild, `user` instead of `member`).
    let thread = fake.add_thread(channel, "game-1").unwrap();
    let dm = fake.dm_channel_for(bob.id);
    for place in [thread, dm] {
        let sent = fake
            .slash_command(
                &bob,
                place,
                "hello",
                vec![CommandOption::string("variant", "beirut")],
            )
            .unwrap();
        let reply = fake.next_interaction_response(sent.id, WAIT).await.unwrap();
        assert_eq!(reply.content(), Some("hello beirut"));
        let message = fake.message(reply.message_id.unwrap()).unwrap();
        assert_eq!(message.channel_id, place);
    }

    assert!(
        fake.unknown_routes().is_empty(),
        "the fake lacks routes: {:?}",
        fake.unknown_routes()
    );
    shards.shutdown_all().await;
    let _ = tokio::time::timeout(WAIT, running).await;
}
