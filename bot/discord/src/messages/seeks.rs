//! The texts of `/seek` and `/seeks`: open challenges listed wherever Kaboom can be used,
//! whose games are played by DM (docs/ARCHITECTURE.md, "Play anywhere").

use poise::serenity_prelude as serenity;

use kaboom_domain::deadline::SchedulerConfig;
use kaboom_domain::ids::{GameId, UserId};
use kaboom_service::Seek;
use kaboom_store::challenges::Challenge;

use super::{challenge_terms, ids, mention};

/// Custom id action of `/seeks`' menu (`kb:seekaccept:0`); the chosen option's value is
/// the seek's id.
pub const ACCEPT_MENU: &str = "seekaccept";

/// Discord's limits on a select option's label and description: "max 100 characters"
/// (<https://discord.com/developers/docs/components/reference#string-select-select-option-structure>).
const OPTION_TEXT_MAX: usize = 100;

/// `Atomic, 3 days per move, rated, colours drawn at random`.
fn terms(c: &Challenge) -> String {
    let mut all = vec![c.spec.variant.title().to_string()];
    all.extend(challenge_terms(c));
    all.join(", ")
}

/// `/seek`'s private answer: the seek is listed, who can see it, until when, and where its
/// game will be played.
pub fn listed(c: &Challenge, config: &SchedulerConfig) -> String {
    format!(
        "Your seek #{} is listed: **{}**.\nAnyone who uses Kaboom, in any server or from their own install, sees it in `/seeks` and can accept it until <t:{}:f>. The game is then played by DM: I send you the boards in your DM with me.",
        c.id,
        terms(c),
        config.challenge_expires_at(c.created_at)
    )
}

/// The Cancel button of a player's own seek (`kb:cancel:<id>`, as a challenge's).
pub fn cancel_button(c: &Challenge) -> serenity::CreateButton {
    serenity::CreateButton::new(ids::make(ids::CANCEL, c.id))
        .label(format!("Cancel seek #{}", c.id))
        .style(serenity::ButtonStyle::Secondary)
}

/// One listed seek: `**#12** · Atomic, 3 days per move, rated, colours drawn at random ·
/// alice 1500?`.
fn seek_line(seek: &Seek) -> String {
    format!(
        "**#{}** · {} · {} {}",
        seek.challenge.id,
        terms(&seek.challenge),
        seek.challenge.spec.challenger_name,
        seek.rating.display()
    )
}

/// `/seeks`' private answer: the player's own seeks (each with its Cancel button), then
/// the open seeks of others, oldest first, to accept from the menu under it.
pub fn list(own: &[Challenge], open: &[Seek]) -> String {
    let mut lines = Vec::new();
    if !own.is_empty() {
        lines.push("**Your seeks**".to_string());
        lines.extend(own.iter().map(|c| format!("**#{}** · {}", c.id, terms(c))));
        lines.push(String::new());
    }
    if open.is_empty() {
        lines.push(
            "No open seeks right now. Make one with `/seek`: anyone who uses Kaboom can accept it."
                .to_string(),
        );
    } else {
        lines.push("**Open seeks**".to_string());
        lines.extend(open.iter().map(seek_line));
        lines.push(
            "Pick one in the menu to accept it: the game is played by DM, with the boards in your DM with me."
                .to_string(),
        );
    }
    lines.join("\n")
}

/// `text` cut to `max` characters, with `…` when cut.
fn at_most(text: String, max: usize) -> String {
    if text.chars().count() <= max {
        return text;
    }
    let mut cut: String = text.chars().take(max - 1).collect();
    cut.push('…');
    cut
}

/// `/seeks`' components: a Cancel button per own seek, and a menu of the open seeks (one
/// option each, labelled `#12 · Atomic · alice 1500?`, described by its terms).
pub fn list_components(own: &[Challenge], open: &[Seek]) -> Vec<serenity::CreateActionRow> {
    let mut rows = Vec::new();
    if !own.is_empty() {
        rows.push(serenity::CreateActionRow::Buttons(
            own.iter().map(cancel_button).collect(),
        ));
    }
    if !open.is_empty() {
        let options = open
            .iter()
            .map(|seek| {
                let c = &seek.challenge;
                serenity::CreateSelectMenuOption::new(
                    at_most(
                        format!(
                            "#{} · {} · {} {}",
                            c.id,
                            c.spec.variant.title(),
                            c.spec.challenger_name,
                            seek.rating.display()
                        ),
                        OPTION_TEXT_MAX,
                    ),
                    c.id.to_string(),
                )
                .description(at_most(challenge_terms(c).join(", "), OPTION_TEXT_MAX))
            })
            .collect();
        rows.push(serenity::CreateActionRow::SelectMenu(
            serenity::CreateSelectMenu::new(
                ids::make(ACCEPT_MENU, 0),
                serenity::CreateSelectMenuKind::String { options },
            )
            .placeholder("Accept a seek"),
        ));
    }
    rows
}

/// The line above the first board of a seek's game, in both players' DMs: whose seek, who
/// took it, and where to move.
pub fn accepted_line(c: &Challenge, by: UserId) -> String {
    format!(
        "{} accepted {}'s seek #{}. This game is played by DM: move with `/move` here, or wherever you use Kaboom.",
        mention(by),
        mention(c.spec.challenger_id),
        c.id
    )
}

/// The accepter's private answer (replacing `/seeks`' list).
pub fn taken(c: &Challenge, game: GameId) -> String {
    format!(
        "You accepted {}'s seek #{}: game #{game} ({}) is on. Your boards come in your DM with me; move with `/move` there or wherever you use Kaboom.",
        c.spec.challenger_name,
        c.id,
        terms(c)
    )
}

/// The seeker's own message once they cancelled seek `c`.
pub fn cancelled(c: &Challenge) -> String {
    format!(
        "Seek #{} cancelled: {}. It is no longer listed.",
        c.id,
        terms(c)
    )
}

/// The DM to a seeker whose seek nobody accepted in time.
pub fn expired(c: &Challenge, ttl_text: &str) -> String {
    format!(
        "Your seek #{} ({}) expired: nobody accepted it in {ttl_text}. Seek again any time with `/seek`.",
        c.id,
        terms(c)
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn long_option_texts_are_cut_to_discords_limit() {
        let long = "x".repeat(150);
        let cut = at_most(long, OPTION_TEXT_MAX);
        assert_eq!(cut.chars().count(), 100);
        assert!(cut.ends_with('…'));
        assert_eq!(at_most("short".into(), OPTION_TEXT_MAX), "short");
    }
}
