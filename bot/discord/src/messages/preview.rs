//! Explosion previews: the private caption and the Confirm / Cancel buttons, and
//! the one form in which every text says whose pieces an action removed.

use kaboom_rules::{Color, Kind, Removal};
use poise::serenity_prelude as serenity;

use super::{ids, piece_tag, side};
use kaboom_service::preview::Preview;

/// Confirm an explosion preview (`kb:pvok:<preview id>`).
pub const CONFIRM: &str = "pvok";
/// Cancel it (`kb:pvno:<preview id>`).
pub const CANCEL: &str = "pvno";

/// `White's Nf7; Black's Ke8, Bf8, Ng8, pawns e7, g7`: the removed pieces side by side,
/// White's first; each side's chess pieces by letter in the order they went, then the
/// other kinds by name, several of a kind together (`Twekes c2, d2`), pawns last (`pawn
/// e7` for one). One form for captions, previews and replies.
pub fn removed_by_side(removed: &[Removal]) -> String {
    let lettered = |k: Kind| {
        matches!(
            k,
            Kind::Knight | Kind::Bishop | Kind::Rook | Kind::Queen | Kind::King
        )
    };
    let mut parts = Vec::new();
    for color in [Color::White, Color::Black] {
        let mine: Vec<&Removal> = removed.iter().filter(|r| r.piece.color == color).collect();
        if mine.is_empty() {
            continue;
        }
        let mut items: Vec<String> = mine
            .iter()
            .filter(|r| lettered(r.piece.kind))
            .map(|r| format!("{}{}", piece_tag(r.piece.kind), r.square))
            .collect();
        // The other kinds in order of first removal, pawns last.
        let mut kinds: Vec<Kind> = Vec::new();
        for r in &mine {
            if !lettered(r.piece.kind) && !kinds.contains(&r.piece.kind) {
                kinds.push(r.piece.kind);
            }
        }
        kinds.sort_by_key(|k| *k == Kind::Pawn);
        for kind in kinds {
            let squares: Vec<String> = mine
                .iter()
                .filter(|r| r.piece.kind == kind)
                .map(|r| r.square.to_string())
                .collect();
            let name = if kind == Kind::Pawn {
                "pawn".to_string()
            } else {
                kind.title().to_string()
            };
            let plural = if squares.len() == 1 { "" } else { "s" };
            items.push(format!("{name}{plural} {}", squares.join(", ")));
        }
        parts.push(format!("{}'s {}", side(color), items.join(", ")));
    }
    parts.join("; ")
}

/// The private caption of a preview: what the action would do and what to press.
pub fn caption(p: &Preview) -> String {
    let mut lines = vec![format!(
        "**Preview of {}** in game #{} (not played yet)",
        p.action.display, p.row.id
    )];
    if p.action.removed.is_empty() {
        lines.push("It removes nothing.".into());
    } else {
        lines.push(format!(
            "It would remove {} (faded on the board).",
            super::removed_text(&p.record())
        ));
    }
    if let Some(outcome) = p.action.effects.outcome {
        lines.push(format!(
            "It would end the game: {}.",
            super::outcome_text(&outcome)
        ));
    }
    lines.push("Press **Confirm** to play it, or **Cancel**.".into());
    lines.join("\n")
}

/// The Confirm / Cancel buttons of preview `id`.
pub fn buttons(id: i64) -> Vec<serenity::CreateActionRow> {
    vec![serenity::CreateActionRow::Buttons(vec![
        serenity::CreateButton::new(ids::make(CONFIRM, id))
            .label("Confirm")
            .style(serenity::ButtonStyle::Danger),
        serenity::CreateButton::new(ids::make(CANCEL, id))
            .label("Cancel")
            .style(serenity::ButtonStyle::Secondary),
    ])]
}

/// The preview message after Cancel.
pub const CANCELLED: &str = "Cancelled: nothing was played. Use /move to choose again.";

/// Confirm pressed after the game moved on (the position now follows).
pub const MOVED_ON: &str =
    "The game moved on since this preview, so it was not played; here is the position now.";

/// `/settings me` line for the preview choice.
pub fn setting_text(mode: kaboom_domain::settings::PreviewMode) -> String {
    use kaboom_domain::settings::{PREVIEW_GAMES, PreviewMode};
    match mode {
        PreviewMode::FirstGames => format!(
            "Explosion previews: before every action that removes pieces in your first {PREVIEW_GAMES} games of each variant, then only when asked with `/move ... preview:True`. Always: `/settings me previews:always`; never unasked: `/settings me previews:only when asked`."
        ),
        PreviewMode::Always => "Explosion previews: always, before every action that removes pieces (or ask with `/move ... preview:True`). Only when asked: `/settings me previews:only when asked`.".to_string(),
        PreviewMode::WhenAsked => "Explosion previews: only when asked with `/move ... preview:True`. Always: `/settings me previews:always`.".to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use kaboom_rules::{Cause, Piece};

    fn r(sq: &str, color: Color, kind: Kind) -> Removal {
        Removal {
            square: sq.parse().unwrap(),
            piece: Piece::new(color, kind),
            cause: Cause::Exploded,
        }
    }

    /// The wording for a blast that removes six pieces of both sides, in its exact form.
    #[test]
    fn removed_pieces_are_named_by_side() {
        let removed = [
            r("e8", Color::Black, Kind::King),
            r("f7", Color::White, Kind::Knight),
            r("e7", Color::Black, Kind::Pawn),
            r("f8", Color::Black, Kind::Bishop),
            r("g7", Color::Black, Kind::Pawn),
            r("g8", Color::Black, Kind::Knight),
        ];
        assert_eq!(
            removed_by_side(&removed),
            "White's Nf7; Black's Ke8, Bf8, Ng8, pawns e7, g7"
        );
        assert_eq!(
            removed_by_side(&[r("d5", Color::Black, Kind::Pawn)]),
            "Black's pawn d5"
        );
        assert_eq!(removed_by_side(&[]), "");
        assert_eq!(
            removed_by_side(&[
                r("d1", Color::White, Kind::Bomb),
                r("c2", Color::White, Kind::Tweke),
                r("d2", Color::White, Kind::Tweke),
            ]),
            "White's Bomb d1, Twekes c2, d2"
        );
    }
}
