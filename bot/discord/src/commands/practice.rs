//! `/play-bot`: a practice game against the bot itself.

use kaboom_rules::GameOptions;
use poise::serenity_prelude as serenity;

use crate::commands::challenge::{ColorParam, DaysChoice, Terms, VariantChoice};
use crate::ids::Domain;
use crate::messages;
use crate::types::{Context, Error};

/// How strongly the bot plays.
#[derive(Copy, Clone, Debug, poise::ChoiceParameter)]
pub enum LevelChoice {
    /// Level 1: looks one move ahead and often picks a weaker move; never hands you its king.
    #[name = "1 (beginner)"]
    L1,
    /// Level 2.
    #[name = "2 (casual)"]
    L2,
    /// Level 3.
    #[name = "3 (club)"]
    L3,
    /// Level 4.
    #[name = "4 (strong)"]
    L4,
    /// Level 5.
    #[name = "5 (strongest)"]
    L5,
}

impl From<LevelChoice> for kaboom_engine::Level {
    fn from(l: LevelChoice) -> kaboom_engine::Level {
        use kaboom_engine::Level;
        match l {
            LevelChoice::L1 => Level::One,
            LevelChoice::L2 => Level::Two,
            LevelChoice::L3 => Level::Three,
            LevelChoice::L4 => Level::Four,
            LevelChoice::L5 => Level::Five,
        }
    }
}

/// Practise against the bot: it answers your moves within seconds.
///
/// The game gets its own thread like any other. Practice games are never rated. Level 1
/// looks one move ahead and often picks a weaker move; level 5 is the strongest.
#[poise::command(slash_command, rename = "play-bot")]
pub async fn play_bot(
    ctx: Context<'_>,
    #[description = "Which variant to play"] variant: VariantChoice,
    #[description = "How strongly the bot plays (default 2)"] level: Option<LevelChoice>,
    #[description = "Your colour (default random)"] color: Option<ColorParam>,
    #[description = "Your time for each move (default 3 days)"] days_per_move: Option<DaysChoice>,
) -> Result<(), Error> {
    crate::place::check_challenge(ctx).map_err(kaboom_service::ServiceError::from)?;
    let services = &ctx.data().services;
    let engine = ctx.data().engine.clone();
    services
        .practice()
        .may_start(ctx.author().id.domain(), ctx.guild_id().map(|g| g.domain()))
        .await?;
    let level: kaboom_engine::Level = level.unwrap_or(LevelChoice::L2).into();
    let terms = Terms {
        variant,
        days_per_move,
        color,
        rated: false,
        options: GameOptions::default(),
    };
    let spec = terms.challenge(
        ctx,
        Some(engine.user),
        kaboom_store::challenges::Venue::Thread,
    );
    let created = services.challenges().create(spec).await?;
    // The answer is the game's first message: the thread is started from it.
    let message = crate::respond::send_reply(
        ctx,
        poise::CreateReply::default()
            .content(messages::practice_game_text(&created, level))
            .allowed_mentions(messages::mentions::none()),
        true,
    )
    .await?;
    if let Some(message) = message {
        services
            .challenges()
            .set_message(created.id, message.id.domain())
            .await?;
    }
    let snap = services
        .practice()
        .accept(created.id, &engine, level)
        .await?;
    // The thread, the first board and the carrier menu go out through the outbox.
    crate::flows::open_game(&ctx.data().outbox, &snap).await?;
    Ok(())
}

/// Whether `user` is the bot itself (a `/challenge` to the bot is pointed to `/play-bot`).
pub fn is_the_bot(ctx: Context<'_>, user: &serenity::User) -> bool {
    user.id.domain() == ctx.data().engine.user
}
