//! `/seek` and `/seeks`: open challenges that anyone who uses Kaboom can accept, wherever
//! they are; the games are played by DM (docs/ARCHITECTURE.md, "Play anywhere").

use kaboom_rules::Variant;

use super::challenge::{ColorParam, DaysChoice, Terms, VariantChoice};
use crate::ids::Domain;
use crate::messages::seeks as words;
use crate::types::{Context, Error};
use kaboom_store::challenges::Venue;

/// Look for an opponent anywhere: anyone who uses Kaboom, in any server, can accept.
///
/// Your seek is listed in `/seeks` for a week unless you cancel it. The game is played by
/// DM: I send both players the boards in their DM with me. You can have 3 seeks open at once.
#[poise::command(slash_command)]
pub async fn seek(
    ctx: Context<'_>,
    #[description = "Which variant to play"] variant: VariantChoice,
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
    crate::respond::defer(ctx, true).await?;
    let services = &ctx.data().services;
    let terms = Terms {
        variant,
        days_per_move,
        color,
        rated: rated.unwrap_or(true),
        options: super::challenge::beirut_options(carriers, dead_mans_switch),
    };
    let spec = terms.challenge(ctx, None, Venue::Seek);
    let created = services.challenges().create(spec).await?;
    crate::respond::send(
        ctx,
        poise::CreateReply::default()
            .content(words::listed(&created, services.scheduler_config()))
            .components(vec![poise::serenity_prelude::CreateActionRow::Buttons(
                vec![words::cancel_button(&created)],
            )])
            .ephemeral(true),
    )
    .await?;
    Ok(())
}

/// See the open seeks, accept one, or cancel your own.
///
/// Seeks come from players anywhere Kaboom is used. Pick one in the menu to accept it: the
/// game is played by DM.
#[poise::command(slash_command)]
pub async fn seeks(
    ctx: Context<'_>,
    #[description = "Only seeks of this variant"] variant: Option<VariantChoice>,
) -> Result<(), Error> {
    crate::respond::defer(ctx, true).await?;
    let challenges = ctx.data().services.challenges();
    let user = ctx.author().id.domain();
    let own = challenges.seeks_of(user).await?;
    let open = challenges
        .open_seeks(variant.map(Variant::from), user)
        .await?;
    crate::respond::send(
        ctx,
        poise::CreateReply::default()
            .content(words::list(&own, &open))
            .components(words::list_components(&own, &open))
            .ephemeral(true),
    )
    .await?;
    Ok(())
}
