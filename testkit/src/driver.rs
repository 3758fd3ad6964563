//! Driving the real bot against the fake Discord as simulated users: start-up, restart,
//! slash commands, autocomplete, buttons. Used by `kaboom demo` and by the end-to-end
//! tests (`bot/tests/it/e2e.rs`), which add their own assertions around these steps.

use std::sync::Arc;
use std::time::Duration;

use kaboom_rules::Color;
use poise::serenity_prelude as serenity;

use crate::demo::DemoError;
use fake_discord::{
    CommandOption, FakeDiscord, FakeMessage, InteractionResponse, ResponseKind, SentInteraction,
    SimUser,
};
use kaboom_domain::clock::{Clock, SystemClock};
use kaboom_domain::ids::{ChannelId, GameId, MessageId};
use kaboom_service::Services;
use kaboom_service::outbox::OutboxWaker;
use kaboom_service::painter::RendererPainter;
use kaboom_service::scheduler::{Scheduler, SchedulerConfig};
use kaboom_store::Db;

/// How long one answer may take.
pub const WAIT: Duration = Duration::from_secs(30);

/// How the bot's services are made over a freshly opened database (at every start and
/// restart): the clock, the painter and the scheduler configuration they use.
pub type ServicesFor = Arc<dyn Fn(Db) -> Services + Send + Sync>;

/// A game started by [`Driver::start_game`] or [`Driver::accept`].
#[derive(Copy, Clone, Debug, Eq, PartialEq)]
pub struct StartedGame {
    /// The game.
    pub game: GameId,
    /// Its thread.
    pub thread: ChannelId,
    /// The accepted challenge's message.
    pub challenge_message: MessageId,
}

/// The fake, the running bot, its database and the simulated users.
pub struct Driver {
    /// The fake Discord.
    pub fake: FakeDiscord,
    /// The bot's database (for checking results).
    pub db: Db,
    /// White in every game.
    pub alice: SimUser,
    /// Black in every game.
    pub bob: SimUser,
    /// A spectator (and the third user of refusal tests).
    pub carol: SimUser,
    url: String,
    services_for: ServicesFor,
    outbox_waker: OutboxWaker,
    shards: Arc<serenity::ShardManager>,
    /// The bot client's REST client (the schedulers' league membership check uses it).
    http: Arc<serenity::Http>,
    running: tokio::task::JoinHandle<()>,
}

fn step(text: impl Into<String>) -> DemoError {
    DemoError::Step(text.into())
}

impl Driver {
    /// Opens the database at `url`, starts the bot against `fake`, and waits until `/help`
    /// answers (poise has registered its commands).
    ///
    /// # Errors
    /// [`DemoError`] when the database, the client or the gateway fails, or the bot does
    /// not serve within [`WAIT`].
    pub async fn start(fake: FakeDiscord, url: &str) -> Result<Driver, DemoError> {
        Driver::start_with_clock(fake, url, Arc::new(SystemClock)).await
    }

    /// As [`Driver::start`], with the bot's services reading the time from `clock`
    /// (tests use a [`kaboom_domain::clock::TestClock`] so that no deadline passes mid-test).
    ///
    /// # Errors
    /// As [`Driver::start`].
    pub async fn start_with_clock(
        fake: FakeDiscord,
        url: &str,
        clock: Arc<dyn Clock>,
    ) -> Result<Driver, DemoError> {
        let services_for: ServicesFor =
            Arc::new(move |db| Services::new(db, clock.clone(), Arc::new(RendererPainter)));
        Driver::start_with(fake, url, services_for).await
    }

    /// As [`Driver::start`], with the bot's services made by `services_for` over the
    /// database at `url` (tests choose the clock, a cheaper painter or the scheduler
    /// configuration the messages quote); a restart makes them the same way.
    ///
    /// # Errors
    /// As [`Driver::start`].
    pub async fn start_with(
        fake: FakeDiscord,
        url: &str,
        services_for: ServicesFor,
    ) -> Result<Driver, DemoError> {
        let db = Db::connect(url).await?;
        // Shared with the schedulers tests start beside the bot ([`Driver::scheduler`]).
        let outbox_waker = OutboxWaker::default();
        let services = services_for(db.clone()).with_outbox_waker(outbox_waker.clone());
        let framework = kaboom_discord::bot::framework(services, None);
        let mut client = fake
            .client_builder(kaboom_discord::bot::intents())
            .framework(framework)
            .await
            .map_err(|e| step(format!("the bot client does not build: {e}")))?;
        let shards = client.shard_manager.clone();
        let http = client.http.clone();
        let running = tokio::spawn(async move {
            let _ = client.start().await;
        });
        fake.wait_until_ready(WAIT).await?;
        let carol = SimUser::new(1003, "carol");
        let deadline = tokio::time::Instant::now() + WAIT;
        loop {
            if tokio::time::Instant::now() > deadline {
                return Err(step("the bot never served /help"));
            }
            let Ok(probe) = fake.slash_command(&carol, fake.text_channel_id(), "help", vec![])
            else {
                tokio::time::sleep(Duration::from_millis(50)).await;
                continue;
            };
            if fake
                .next_interaction_response(probe.id, Duration::from_millis(1500))
                .await
                .is_ok()
            {
                break;
            }
        }
        Ok(Driver {
            fake,
            db,
            alice: SimUser::new(1001, "alice"),
            bob: SimUser::new(1002, "bob"),
            carol,
            url: url.to_string(),
            services_for,
            outbox_waker,
            shards,
            http,
            running,
        })
    }

    /// The bot's scheduler as `kaboom serve` runs it beside this bot: over its database,
    /// reading the time from `clock`, with `config`; its notices go into the outbox, and
    /// this bot's deliverer (woken by it) posts them.
    pub fn scheduler(&self, clock: Arc<dyn Clock>, config: SchedulerConfig) -> Scheduler {
        // The leagues' sweep writes the bot's own effects, woken deliveries included.
        let services =
            (self.services_for)(self.db.clone()).with_outbox_waker(self.outbox_waker.clone());
        let planner = kaboom_discord::outbox::DiscordEffects::for_services(&services);
        Scheduler::new(
            self.db.clone(),
            clock,
            Arc::new(kaboom_discord::notifier::DiscordNotifier::new(
                self.outbox_waker.clone(),
            )),
            config,
            kaboom_discord::messages::scheduler_wording(),
        )
        .with_leagues(services.with_effects(planner).with_membership(Arc::new(
            kaboom_discord::members::DiscordMembership::new(self.http.clone()),
        )))
    }

    /// The bot's services as the running bot has them (its clock, its outbox planner,
    /// waking its deliverer), for a step a test takes without Discord: what is committed
    /// through them is posted as the bot's own changes are.
    pub fn services(&self) -> Services {
        let services =
            (self.services_for)(self.db.clone()).with_outbox_waker(self.outbox_waker.clone());
        let planner = kaboom_discord::outbox::DiscordEffects::for_services(&services);
        services.with_effects(planner)
    }

    /// Waits (at most [`WAIT`]) until the bot's outbox has posted everything due.
    ///
    /// # Errors
    /// [`DemoError::Step`] at the time limit.
    pub async fn outbox_delivered(&self) -> Result<(), DemoError> {
        if crate::wait_for_outbox(&self.db, WAIT).await {
            Ok(())
        } else {
            Err(step("the outbox still holds entries to post"))
        }
    }

    /// Stops the bot (its gateway connection, within [`WAIT`]) and closes its database.
    pub async fn stop(self) {
        self.halt().await;
    }

    /// Stops the bot and closes its database, keeping the fake Discord; returns what a new
    /// start ([`Driver::start_with`]) needs (tests change the database in between).
    pub async fn halt(self) -> (FakeDiscord, String, ServicesFor) {
        let Driver {
            fake,
            db,
            url,
            services_for,
            shards,
            running,
            ..
        } = self;
        shards.shutdown_all().await;
        let _ = tokio::time::timeout(WAIT, running).await;
        db.close().await;
        (fake, url, services_for)
    }

    /// Stops the bot and starts it again on the same fake Discord and database, with its
    /// services made as at the first start (same clock), as after a crash or a deploy:
    /// messages, buttons and games from before stay.
    ///
    /// # Errors
    /// As [`Driver::start`].
    pub async fn restart(self) -> Result<Driver, DemoError> {
        let (fake, url, services_for) = self.halt().await;
        Driver::start_with(fake, &url, services_for).await
    }

    /// The first answer that is not a deferral.
    pub async fn answer(&self, sent: &SentInteraction) -> Result<InteractionResponse, DemoError> {
        loop {
            let r = self.fake.next_interaction_response(sent.id, WAIT).await?;
            if !matches!(
                r.kind,
                ResponseKind::Callback { callback_type: 5 }
                    | ResponseKind::Callback { callback_type: 6 }
            ) {
                return Ok(r);
            }
        }
    }

    /// A slash command and its answer.
    pub async fn cmd(
        &self,
        user: &SimUser,
        channel: impl Into<ChannelId>,
        name: &str,
        options: Vec<CommandOption>,
    ) -> Result<InteractionResponse, DemoError> {
        let sent = self
            .fake
            .slash_command(user, channel.into().get(), name, options)?;
        self.answer(&sent).await
    }

    /// A button click and its answer.
    pub async fn click(
        &self,
        user: &SimUser,
        message: impl Into<MessageId>,
        custom_id: &str,
    ) -> Result<InteractionResponse, DemoError> {
        let sent = self
            .fake
            .click_button(user, message.into().get(), custom_id)?;
        self.answer(&sent).await
    }

    /// `/resign` by `user` in `thread`, then the "Yes, resign" button of the private
    /// question it answers with; returns the answer to that button.
    ///
    /// # Errors
    /// [`DemoError::Step`] when the answer to `/resign` has no "Yes, resign" button;
    /// otherwise as [`Driver::click`].
    pub async fn resign(
        &self,
        user: &SimUser,
        thread: impl Into<ChannelId>,
    ) -> Result<InteractionResponse, DemoError> {
        let question = self.cmd(user, thread, "resign", vec![]).await?;
        let yes = question
            .custom_ids()
            .into_iter()
            .find(|id| id.starts_with("kb:resignyes:"));
        match (yes, question.message_id) {
            (Some(yes), Some(message)) => self.click(user, MessageId(message), &yes).await,
            _ => Err(step(format!(
                "/resign by {} did not ask to confirm: {:?}",
                user.username,
                question.content()
            ))),
        }
    }

    /// `/move action:<text>` in `thread`. When the bot answers with an explosion preview
    /// (by default before every action that removes pieces), `user` presses its
    /// Confirm, as a player who has looked at it, and the answer to that is returned.
    pub async fn play(
        &self,
        user: &SimUser,
        thread: impl Into<ChannelId>,
        text: &str,
    ) -> Result<InteractionResponse, DemoError> {
        let r = self
            .cmd(
                user,
                thread,
                "move",
                vec![CommandOption::string("action", text)],
            )
            .await?;
        self.confirm_preview(user, r).await
    }

    /// If `answer` is an explosion preview (it carries a Confirm button), `user` presses
    /// Confirm and the answer to that is returned; otherwise `answer` itself.
    ///
    /// # Errors
    /// As [`Driver::click`].
    pub async fn confirm_preview(
        &self,
        user: &SimUser,
        answer: InteractionResponse,
    ) -> Result<InteractionResponse, DemoError> {
        let confirm = answer
            .custom_ids()
            .into_iter()
            .find(|id| id.starts_with("kb:pvok:"));
        match (confirm, answer.message_id) {
            (Some(confirm), Some(message)) => self.click(user, MessageId(message), &confirm).await,
            _ => Ok(answer),
        }
    }

    /// `user` picks `squares` (like `g1`) as carriers of game `game` in the carrier menu
    /// the bot sent them by DM (waiting up to [`WAIT`] for it; the latest DM with the menu
    /// counts). Returns the bot's answer to the choice.
    ///
    /// # Errors
    /// [`DemoError::Step`] when no DM carries the menu; [`DemoError::Fake`] when none
    /// arrives in time or the choice cannot be sent.
    pub async fn choose_carriers_by_dm(
        &self,
        user: &SimUser,
        game: GameId,
        squares: &[&str],
    ) -> Result<InteractionResponse, DemoError> {
        let menu_id = format!("kb:carriers:{game}");
        let dms = self
            .fake
            .wait_for_messages_in(self.fake.dm_channel_for(user.id), 1, WAIT)
            .await?;
        let dm = dms
            .iter()
            .rev()
            .find(|m| m.custom_ids().contains(&menu_id))
            .ok_or_else(|| step(format!("no carrier menu by DM for {}", user.username)))?;
        let sent = self.fake.select_menu(user, dm.id, &menu_id, squares)?;
        self.answer(&sent).await
    }

    /// The autocomplete choices for `/move action:<typed>`: (label, value).
    pub async fn autocomplete(
        &self,
        user: &SimUser,
        thread: impl Into<ChannelId>,
        typed: &str,
    ) -> Result<Vec<(String, serde_json::Value)>, DemoError> {
        self.autocomplete_command(
            user,
            thread,
            "move",
            vec![CommandOption::string("action", typed).focused()],
        )
        .await
    }

    /// The autocomplete choices, (label, value), for `command` typed in `channel` with
    /// `options` (one of them, possibly inside a subcommand, marked focused).
    pub async fn autocomplete_command(
        &self,
        user: &SimUser,
        channel: impl Into<ChannelId>,
        command: &str,
        options: Vec<CommandOption>,
    ) -> Result<Vec<(String, serde_json::Value)>, DemoError> {
        let sent = self
            .fake
            .autocomplete(user, channel.into().get(), command, options)?;
        Ok(self
            .fake
            .next_interaction_response(sent.id, WAIT)
            .await?
            .choices())
    }

    /// Alice challenges bob (alice White) to the variant with choice index `variant`; bob
    /// accepts. Returns the game, its thread and the challenge message.
    pub async fn start_game(&self, variant: i64) -> Result<StartedGame, DemoError> {
        let posted = self.challenge(variant).await?;
        self.accept(&posted).await
    }

    /// Alice's `/challenge` to bob in the text channel, alice White, to the variant with
    /// choice index `variant` (the order of [`kaboom_rules::Variant::ALL`]); the answer
    /// carries the challenge message and its buttons.
    pub async fn challenge(&self, variant: i64) -> Result<InteractionResponse, DemoError> {
        self.challenge_with(variant, Vec::new()).await
    }

    /// As [`Driver::challenge`], with `extra` options added (e.g. Beirut's
    /// `dead_mans_switch` and `carriers`).
    pub async fn challenge_with(
        &self,
        variant: i64,
        extra: Vec<CommandOption>,
    ) -> Result<InteractionResponse, DemoError> {
        self.challenge_in(self.fake.text_channel_id(), variant, extra)
            .await
    }

    /// As [`Driver::challenge_with`], in `channel` (a group DM, another server's channel).
    pub async fn challenge_in(
        &self,
        channel: impl Into<ChannelId>,
        variant: i64,
        extra: Vec<CommandOption>,
    ) -> Result<InteractionResponse, DemoError> {
        let mut options = vec![
            CommandOption::integer("variant", variant),
            CommandOption::user("opponent", &self.bob),
            CommandOption::integer("color", 0),
        ];
        options.extend(extra);
        self.cmd(&self.alice, channel, "challenge", options).await
    }

    /// Bob accepts the challenge `posted` (the answer to [`Driver::challenge`]) with its
    /// Accept button. Returns the game, its thread and the challenge message.
    ///
    /// # Errors
    /// [`DemoError::Step`] when there is no Accept button, the bot does not say "Game on",
    /// opens no thread or names no game id.
    pub async fn accept(&self, posted: &InteractionResponse) -> Result<StartedGame, DemoError> {
        let message = posted
            .message_id
            .ok_or_else(|| step(format!("no challenge message: {posted:?}")))?;
        let accept = accept_button(posted).ok_or_else(|| step("no Accept button"))?;
        let before = self.fake.threads().len();
        let accepted = self.click(&self.bob, message, &accept).await?;
        if !accepted.content().unwrap_or_default().contains("Game on") {
            return Err(step(format!("accepting failed: {accepted:?}")));
        }
        let threads = self.fake.threads();
        if threads.len() != before + 1 {
            return Err(step("no game thread"));
        }
        let thread = threads.last().map(|t| t.id).unwrap_or_default();
        let text = self
            .fake
            .message(message)
            .map(|m| m.content().to_string())
            .unwrap_or_default();
        let at = text
            .find("game #")
            .ok_or_else(|| step("no game id in the accepted challenge"))?;
        let game = text[at + 6..]
            .chars()
            .take_while(char::is_ascii_digit)
            .collect::<String>()
            .parse()
            .map_err(|_| step("bad game id"))?;
        Ok(StartedGame {
            game: GameId(game),
            thread: ChannelId(thread),
            challenge_message: MessageId(message),
        })
    }

    /// `user`'s `/play-bot` in the text channel with the choice indexes
    /// `variant` (the order of [`kaboom_rules::Variant::ALL`]), `level` (0 is level 1)
    /// and `color` (0 White, 1 Black). Returns the game, its thread and the bot's answer
    /// once the game's thread exists.
    ///
    /// # Errors
    /// [`DemoError::Step`] when within 30 seconds no new thread appears or no game of
    /// `user`'s in play records it; the fake's errors.
    pub async fn play_bot(
        &self,
        user: &SimUser,
        variant: i64,
        level: i64,
        color: i64,
    ) -> Result<(GameId, ChannelId, InteractionResponse), DemoError> {
        let before: Vec<u64> = self.fake.threads().iter().map(|t| t.id).collect();
        let answer = self
            .cmd(
                user,
                self.fake.text_channel_id(),
                "play-bot",
                vec![
                    CommandOption::integer("variant", variant),
                    CommandOption::integer("level", level),
                    CommandOption::integer("color", color),
                ],
            )
            .await?;
        let deadline = std::time::Instant::now() + Duration::from_secs(30);
        let thread = loop {
            let fresh = self
                .fake
                .threads()
                .into_iter()
                .map(|t| t.id)
                .filter(|id| !before.contains(id))
                .max();
            if let Some(id) = fresh {
                break ChannelId(id);
            }
            if std::time::Instant::now() > deadline {
                return Err(step(format!("no thread for the practice game: {answer:?}")));
            }
            tokio::time::sleep(Duration::from_millis(20)).await;
        };
        // The thread's id is stored once Discord's answer to its creation is back, a moment
        // after the thread exists.
        loop {
            let stored = kaboom_store::games::active_for(&self.db, user.id.into())
                .await?
                .into_iter()
                .find(|g| g.thread_id == Some(thread));
            if let Some(g) = stored {
                return Ok((g.id, thread, answer));
            }
            if std::time::Instant::now() > deadline {
                return Err(step("the practice game's thread is not stored"));
            }
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
    }

    /// Public board messages (with a PNG picture) in the thread.
    pub fn boards(&self, thread: impl Into<ChannelId>) -> Vec<FakeMessage> {
        self.fake
            .messages_in(thread.into().get())
            .into_iter()
            // Board pictures are PNGs (a finished game's replay GIF is not a board).
            .filter(|m| {
                m.attachments.iter().any(|a| a.filename.ends_with(".png")) && !m.is_ephemeral()
            })
            .collect()
    }

    /// Alice offers a draw with the board's button; bob declines it with the offer's button.
    ///
    /// # Errors
    /// [`DemoError::Step`] when there is no Draw button or offer message, the offer is not
    /// acknowledged or not stored as alice's, bob's decline is not acknowledged ("Draw
    /// declined."), the thread does not say the offer was declined, or an offer still stands
    /// in the database afterwards.
    pub async fn offer_and_decline_draw(
        &self,
        thread: impl Into<ChannelId>,
    ) -> Result<(), DemoError> {
        let thread = thread.into();
        let board = self.boards(thread).pop().ok_or_else(|| step("no board"))?;
        let draw = board
            .custom_ids()
            .into_iter()
            .find(|c| c.starts_with("kb:draw:"))
            .ok_or_else(|| step("no draw button"))?;
        let r = self.click(&self.alice, board.id, &draw).await?;
        if !r.content().unwrap_or_default().contains("Draw offered") {
            return Err(step(format!("draw offer failed: {r:?}")));
        }
        let offer = self
            .fake
            .messages_in(thread.get())
            .into_iter()
            .rev()
            .find(|m| m.custom_ids().iter().any(|c| c.starts_with("kb:drawno:")))
            .ok_or_else(|| step("no draw offer message"))?;
        let no = offer
            .custom_ids()
            .into_iter()
            .find(|c| c.starts_with("kb:drawno:"))
            .unwrap_or_default();
        let game = kaboom_discord::messages::ids::parse(&no)
            .map(|(_, game)| GameId(game))
            .ok_or_else(|| step(format!("no game id in the decline button '{no}'")))?;
        if self.standing_draw_offer(game).await? != Some(Color::White) {
            return Err(step(format!(
                "alice's draw offer is not stored as standing in game #{game}"
            )));
        }
        let r = self.click(&self.bob, offer.id, &no).await?;
        if r.content() != Some("Draw declined.") {
            return Err(step(format!(
                "declining the draw offer was not acknowledged: {r:?}"
            )));
        }
        let announced = self.fake.messages_in(thread.get()).into_iter().any(|m| {
            m.id > offer.id && !m.is_ephemeral() && m.content().contains("declined the draw offer")
        });
        if !announced {
            return Err(step("the thread does not say the draw offer was declined"));
        }
        if let Some(by) = self.standing_draw_offer(game).await? {
            return Err(step(format!(
                "{by}'s draw offer still stands in game #{game} after bob declined it"
            )));
        }
        Ok(())
    }

    /// Who has a draw offer standing in game `game`, read from the bot's database.
    async fn standing_draw_offer(&self, game: GameId) -> Result<Option<Color>, DemoError> {
        let mut tx = self.db.begin_write().await?;
        let offer = kaboom_store::games::draw_offer(&mut tx, game).await?;
        tx.commit()
            .await
            .map_err(kaboom_store::StorageError::from)?;
        Ok(offer.map(|o| o.by))
    }

    /// The highest message id so far in the text channel, the DMs and the threads.
    pub fn last_message_id(&self) -> u64 {
        let mut channels = vec![
            self.fake.text_channel_id(),
            self.fake.dm_channel_for(self.alice.id),
            self.fake.dm_channel_for(self.bob.id),
        ];
        channels.extend(self.fake.threads().iter().map(|t| t.id));
        channels
            .into_iter()
            .flat_map(|c| self.fake.messages_in(c))
            .map(|m| m.id)
            .max()
            .unwrap_or(0)
    }

    /// A display name for an author id.
    pub fn name_of(&self, id: u64) -> String {
        for u in [&self.alice, &self.bob, &self.carol] {
            if u.id == id {
                return u.username.clone();
            }
        }
        match self.fake.user(id) {
            Some(u) if id != self.fake.bot_user_id() => u.username,
            _ => "Kaboom (bot)".into(),
        }
    }

    /// The first public payload since `marker` that names one of `secrets` as a word (see
    /// [`public_leak`]).
    pub fn leak(
        &self,
        thread: impl Into<ChannelId>,
        marker: u64,
        secrets: &[String],
    ) -> Option<String> {
        public_leak(&self.fake, thread, marker, secrets)
    }
}

/// The first public payload in `fake` since message `marker` that names one of `secrets`
/// (lower-case squares like `g1`) as a whole word: the thread's name, then every version of
/// each public message in `thread` and in the text channel (the versions before edits too,
/// since someone may have read them), with embeds and attachment names. Ephemeral versions
/// are not public; long hex runs (commitments) are skipped, and a word that merely contains
/// a secret (the SAN `Ng1`) is not one.
pub fn public_leak(
    fake: &FakeDiscord,
    thread: impl Into<ChannelId>,
    marker: u64,
    secrets: &[String],
) -> Option<String> {
    let thread = thread.into().get();
    let mut texts = vec![
        fake.channel(thread)
            .and_then(|c| c.name().map(str::to_string))
            .unwrap_or_default(),
    ];
    for ch in [thread, fake.text_channel_id()] {
        for m in fake.messages_in(ch).into_iter().filter(|m| m.id > marker) {
            let public = m.versions().filter(|v| !fake_discord::is_ephemeral(v));
            texts.extend(public.map(serde_json::Value::to_string));
        }
    }
    texts.into_iter().find(|t| {
        let words: Vec<String> = t
            .split(|c: char| !c.is_ascii_alphanumeric())
            .filter(|w| !(w.len() >= 32 && w.chars().all(|c| c.is_ascii_hexdigit())))
            .map(str::to_lowercase)
            .collect();
        secrets.iter().any(|s| words.contains(s))
    })
}

/// The custom id of the Accept button of a challenge message (`posted`, the answer to
/// `/challenge`), if it has one.
pub fn accept_button(posted: &InteractionResponse) -> Option<String> {
    posted
        .custom_ids()
        .into_iter()
        .find(|i| i.starts_with("kb:accept:"))
}

#[cfg(test)]
mod tests {
    use fake_discord::{FakeDiscord, SimUser};
    use reqwest::Method;
    use serde_json::{Value, json};

    use super::public_leak;

    /// An edit keeps the message as it was in `previous_versions`, so the demo's carrier leak
    /// check ([`public_leak`]) still sees public text that was edited away;
    /// ephemeral answers, SAN that merely contains a square (`Ng1`) and commitment hex runs are
    /// not leaks.
    #[tokio::test]
    async fn leak_check_sees_public_text_edited_away_but_not_ephemerals_or_commitments() {
        async fn post(fake: &FakeDiscord, channel: u64, content: &str) -> (u16, Value) {
            let path = format!("/channels/{channel}/messages");
            let body = json!({ "content": content });
            fake.bot_request(reqwest::Method::POST, &path, Some(body))
                .await
        }
        let fake = FakeDiscord::start().await.unwrap();
        let _events = fake.detached_session();
        let thread = fake.add_thread(fake.text_channel_id(), "game-1").unwrap();
        let secrets = ["g1".to_string(), "b8".to_string()];

        // Legitimate public text: SAN containing a square, a commitment containing "b8".
        let commitment = format!("3fb8{}", "0a".repeat(30));
        let (status, _) = post(
            &fake,
            thread,
            &format!("1. Nf3 Ng1 · commitment {commitment}"),
        )
        .await;
        assert_eq!(status, 200);
        // An ephemeral answer naming a carrier is seen only by its player.
        let alice = SimUser::new(1001, "alice");
        let sent = fake.slash_command(&alice, thread, "view", vec![]).unwrap();
        let ephemeral = json!({"type": 4, "data": {"content": "Your carrier: b8", "flags": 64}});
        let callback = format!("/interactions/{}/{}/callback", sent.id, sent.token);
        let (status, _) = fake
            .bot_request(Method::POST, &callback, Some(ephemeral))
            .await;
        assert_eq!(status, 204);
        assert_eq!(fake.messages_in(thread).len(), 2);
        assert_eq!(public_leak(&fake, thread, 0, &secrets), None);

        // A public message naming a carrier, edited away: its first version still leaked.
        let (status, leaked) = post(&fake, thread, "Black's carrier is on b8").await;
        assert_eq!(status, 200);
        let leaked_id = leaked["id"].as_str().unwrap().to_string();
        let (status, _) = fake
            .bot_request(
                Method::PATCH,
                &format!("/channels/{thread}/messages/{leaked_id}"),
                Some(json!({ "content": "Black has chosen a carrier." })),
            )
            .await;
        assert_eq!(status, 200);
        let edited = fake.message(leaked_id.parse().unwrap()).unwrap();
        assert_eq!(edited.content(), "Black has chosen a carrier.");
        assert_eq!(edited.previous_versions.len(), 1);
        assert_eq!(
            edited.previous_versions[0]["content"],
            "Black's carrier is on b8"
        );
        let found = public_leak(&fake, thread, 0, &secrets).expect("the edited-away b8 is found");
        assert!(found.contains("Black's carrier is on b8"), "{found}");

        // After `marker`, a public message in the text channel naming g1 is reported.
        let marker: u64 = leaked_id.parse().unwrap();
        assert_eq!(public_leak(&fake, thread, marker, &secrets), None);
        let (status, _) = post(
            &fake,
            fake.text_channel_id(),
            "alice hid her carrier on g1.",
        )
        .await;
        assert_eq!(status, 200);
        let found = public_leak(&fake, thread, marker, &secrets).expect("g1 is found");
        assert!(found.contains("on g1"), "{found}");
    }
}
