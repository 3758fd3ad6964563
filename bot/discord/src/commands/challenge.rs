//! `/challenge`.

use kaboom_rules::{GameOptions, Variant};
use poise::serenity_prelude as serenity;

use crate::ids::Domain;
use crate::messages;
use crate::types::{Context, Error};
use kaboom_service::DEFAULT_DAYS_PER_MOVE;
use kaboom_store::challenges::{ColorChoice, NewChallenge};

/// The five variants.
#[derive(Copy, Clone, Debug, poise::ChoiceParameter)]
pub enum VariantChoice {
    /// Atomic.
    Atomic,
    /// Beirut.
    Beirut,
    /// Nuke.
    Nuke,
    /// Bomberman Chess.
    #[name = "Bomberman Chess"]
    Bomberman,
    /// Bombalot.
    Bombalot,
}

impl From<VariantChoice> for Variant {
    fn from(v: VariantChoice) -> Variant {
        match v {
            VariantChoice::Atomic => Variant::Atomic,
            VariantChoice::Beirut => Variant::Beirut,
            VariantChoice::Nuke => Variant::Nuke,
            VariantChoice::Bomberman => Variant::Bomberman,
            VariantChoice::Bombalot => Variant::Bombalot,
        }
    }
}

/// Time per move: 1, 2, 3, 5, 7, 10, 14 days or none; default 3 (docs/ARCHITECTURE.md,
/// "Defaults").
#[derive(Copy, Clone, Debug, poise::ChoiceParameter)]
pub enum DaysChoice {
    /// 1 day.
    #[name = "1 day"]
    D1,
    /// 2 days.
    #[name = "2 days"]
    D2,
    /// 3 days.
    #[name = "3 days"]
    D3,
    /// 5 days.
    #[name = "5 days"]
    D5,
    /// 7 days.
    #[name = "7 days"]
    D7,
    /// 10 days.
    #[name = "10 days"]
    D10,
    /// 14 days.
    #[name = "14 days"]
    D14,
    /// No limit.
    #[name = "no limit"]
    Unlimited,
}

impl DaysChoice {
    /// The days this choice gives, `None` for no limit.
    pub(crate) fn days(self) -> Option<u32> {
        match self {
            DaysChoice::D1 => Some(1),
            DaysChoice::D2 => Some(2),
            DaysChoice::D3 => Some(3),
            DaysChoice::D5 => Some(5),
            DaysChoice::D7 => Some(7),
            DaysChoice::D10 => Some(10),
            DaysChoice::D14 => Some(14),
            DaysChoice::Unlimited => None,
        }
    }
}

/// Your colour.
#[derive(Copy, Clone, Debug, poise::ChoiceParameter)]
pub enum ColorParam {
    /// White.
    White,
    /// Black.
    Black,
    /// Random.
    Random,
}

/// The Beirut options as a command's `carriers` and `dead_mans_switch` gave them: 1
/// carrier and no Dead Man's Switch unless set (Multiple Beirut, BE-2).
pub(crate) fn beirut_options(carriers: Option<u8>, dead_mans_switch: Option<bool>) -> GameOptions {
    GameOptions {
        carriers: carriers.unwrap_or(1),
        dead_mans_switch: dead_mans_switch.unwrap_or(false),
    }
}

/// What a player offers with `/challenge`, `/seek` or `/play-bot`, as the options gave it:
/// the defaults (3 days per move, colours drawn at random) filled in by
/// [`Terms::challenge`].
pub(crate) struct Terms {
    /// The variant.
    pub variant: VariantChoice,
    /// The time per move; `None`: the default.
    pub days_per_move: Option<DaysChoice>,
    /// The challenger's colour; `None`: random.
    pub color: Option<ColorParam>,
    /// Whether the game is rated.
    pub rated: bool,
    /// The variant's options (Beirut carriers, Dead Man's Switch).
    pub options: GameOptions,
}

impl Terms {
    /// The challenge of `ctx`'s author on these terms, to `opponent` (`None`: anyone),
    /// played at `venue`, made where the command was used.
    pub(crate) fn challenge(
        self,
        ctx: Context<'_>,
        opponent: Option<kaboom_domain::ids::UserId>,
        venue: kaboom_store::challenges::Venue,
    ) -> NewChallenge {
        let author = ctx.author();
        NewChallenge {
            guild_id: ctx.guild_id().map(|g| g.domain()),
            channel_id: ctx.channel_id().domain(),
            challenger_id: author.id.domain(),
            challenger_name: author.display_name().to_string(),
            opponent_id: opponent,
            variant: self.variant.into(),
            options: self.options,
            days_per_move: self
                .days_per_move
                .map_or(Some(DEFAULT_DAYS_PER_MOVE), DaysChoice::days),
            color: match self.color {
                Some(ColorParam::White) => ColorChoice::White,
                Some(ColorParam::Black) => ColorChoice::Black,
                _ => ColorChoice::Random,
            },
            rated: self.rated,
            venue,
        }
    }
}

/// Whether `ctx` is a command in the user's DM with the bot (interaction context BOT_DM).
fn in_bot_dm(ctx: Context<'_>) -> bool {
    match ctx {
        poise::Context::Application(app) => {
            app.interaction.context == Some(serenity::InteractionContext::BotDm)
        }
        poise::Context::Prefix(_) => false,
    }
}

/// Challenge someone to a game, or leave the opponent out to let anyone accept.
///
/// The game is played by correspondence in its own thread or by DM: 3 days per move
/// unless you choose otherwise. Beirut takes the number of carriers (Multiple Beirut, 1-15) and the
/// Dead Man's Switch option.
#[poise::command(slash_command)]
#[allow(clippy::too_many_arguments)] // one argument per slash option
pub async fn challenge(
    ctx: Context<'_>,
    #[description = "Which variant to play"] variant: VariantChoice,
    #[description = "Who may accept (leave out: anyone)"] opponent: Option<serenity::User>,
    #[description = "Time for each move (default 3 days)"] days_per_move: Option<DaysChoice>,
    #[description = "Your colour (default random)"] color: Option<ColorParam>,
    #[description = "Rated game (default yes)"] rated: Option<bool>,
    #[description = "Beirut: carriers per side, 1-15 (default 1)"]
    #[min = 1]
    #[max = 15]
    carriers: Option<u8>,
    #[description = "Beirut: a captured carrier explodes (default off)"] dead_mans_switch: Option<
        bool,
    >,
) -> Result<(), Error> {
    let venue = crate::place::check_challenge(ctx).map_err(kaboom_service::ServiceError::from)?;
    if in_bot_dm(ctx) {
        return crate::commands::say_private(ctx, messages::direct::NOT_IN_BOT_DM).await;
    }
    if opponent
        .as_ref()
        .is_some_and(|o| crate::commands::practice::is_the_bot(ctx, o))
    {
        return crate::commands::say_private(ctx, messages::challenge_the_bot()).await;
    }
    let services = &ctx.data().services;
    let terms = Terms {
        variant,
        days_per_move,
        color,
        rated: rated.unwrap_or(true),
        options: beirut_options(carriers, dead_mans_switch),
    };
    let spec = terms.challenge(ctx, opponent.as_ref().map(|u| u.id.domain()), venue);
    let created = services.challenges().create(spec).await?;
    // The answer is the challenge's message: read back to record it (the game's thread is
    // started from it). If Discord does not give it, the Accept click records it.
    let message = crate::respond::send_reply(
        ctx,
        poise::CreateReply::default()
            .content(messages::open_challenge_text(
                &created,
                services.clock().now(),
                services.scheduler_config(),
            ))
            .components(messages::challenge_buttons(created.id))
            .allowed_mentions(messages::mentions::only(
                &created.spec.opponent_id.into_iter().collect::<Vec<_>>(),
            )),
        true,
    )
    .await?;
    if let Some(message) = message {
        services
            .challenges()
            .set_message(created.id, message.id.domain())
            .await?;
    }
    Ok(())
}
