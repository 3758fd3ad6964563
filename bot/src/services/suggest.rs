//! `/move` autocomplete: the caller's legal actions matching what they typed, each with a
//! label saying what it does (e.g. `Nxd5 · blast removes Qd4, Bc6`).

use kaboom_rules::{ActionInfo, AnyGame, Cause, Square, Viewer};

/// One autocomplete choice.
#[derive(Clone, Eq, PartialEq, Debug)]
pub struct Suggestion {
    /// What the player sees (at most 100 characters).
    pub label: String,
    /// What is submitted: the canonical text.
    pub value: String,
}

fn label(info: &ActionInfo, mover: Option<&str>) -> String {
    let mut text = info.display.clone();
    if let Some(name) = mover {
        text.push_str(" · ");
        text.push_str(name);
    }
    if !info.removed.is_empty() {
        let blast = info.removed.iter().any(|r| r.cause == Cause::Exploded);
        text.push_str(if blast {
            " · blast removes "
        } else {
            " · removes "
        });
        text.push_str(&super::removed_list(&info.removed));
    }
    if text.chars().count() > 100 {
        text = text.chars().take(99).collect::<String>() + "…";
    }
    text
}

/// Up to `limit` suggestions for `viewer` (the player to move) matching `typed`: actions
/// whose canonical text, coordinate text or moving piece's name starts with it come first,
/// then those containing it.
pub fn suggestions(game: &AnyGame, viewer: Viewer, typed: &str, limit: usize) -> Vec<Suggestion> {
    let view = game.board_view(viewer);
    let needle = typed.trim().to_lowercase();
    let mut first = Vec::new();
    let mut second = Vec::new();
    for info in game.legal_actions(viewer) {
        let from: Option<Square> = info.uci.get(0..2).and_then(|s| s.parse().ok());
        let mover = from
            .and_then(|sq| view.piece_at(sq))
            .map(|p| format!("{} {}", p.kind.title(), info.uci.get(0..2).unwrap_or("")));
        let keys = [
            info.san.to_lowercase(),
            info.uci.to_lowercase(),
            info.display.to_lowercase(),
            mover.clone().unwrap_or_default().to_lowercase(),
        ];
        let suggestion = Suggestion {
            label: label(&info, mover.as_deref()),
            value: info.san.clone(),
        };
        if needle.is_empty() || keys.iter().any(|k| k.starts_with(&needle)) {
            first.push(suggestion);
        } else if keys.iter().any(|k| k.contains(&needle)) {
            second.push(suggestion);
        }
    }
    first.extend(second);
    first.truncate(limit);
    first
}
