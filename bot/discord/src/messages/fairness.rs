//! Hidden carriers, told quietly: the Beirut commitments and, at the end, the
//! salts and the check command go behind a **Verify fairness** button (an ephemeral
//! answer) instead of into public posts; revealed carriers are named by piece, where they
//! started and where they ended ("White's carrier: the knight from g1, exploded on f7").

use kaboom_rules::{AnyGame, Color, Kind, Square, Variant, Viewer};
use poise::serenity_prelude as serenity;

use super::{ids, side};
use kaboom_domain::ids::GameId;
use kaboom_service::commitment;
use kaboom_store::carriers::Designation;
use kaboom_store::games::GameRow;

/// The Verify fairness button (`kb:fair:<game id>`).
pub const VERIFY: &str = "fair";

/// The buttons under a game's latest board: [`super::board_buttons`], plus **Verify
/// fairness** in Beirut games (at most 5 buttons in a row:
/// <https://discord.com/developers/docs/interactions/message-components#action-rows>).
pub fn game_buttons(
    variant: Variant,
    game_id: GameId,
    finished: bool,
) -> Vec<serenity::CreateActionRow> {
    let mut rows = super::board_buttons(game_id, finished);
    if variant == Variant::Beirut
        && let Some(serenity::CreateActionRow::Buttons(buttons)) = rows.first_mut()
    {
        buttons.push(
            serenity::CreateButton::new(ids::make(VERIFY, game_id))
                .label("Verify fairness")
                .style(serenity::ButtonStyle::Secondary),
        );
    }
    rows
}

/// The buttons under a board of `row`'s game: [`game_buttons`], led by **Move** while a
/// game played by DM goes on ([`super::ids::MOVE_ASK`]: it opens a form to type the move,
/// and the board it is on is updated with the new one; at most 5 buttons in a row).
pub fn buttons_for(row: &GameRow, finished: bool) -> Vec<serenity::CreateActionRow> {
    let mut rows = game_buttons(row.variant, row.id, finished);
    if row.venue.by_dm()
        && !finished
        && let Some(serenity::CreateActionRow::Buttons(buttons)) = rows.first_mut()
    {
        buttons.insert(
            0,
            serenity::CreateButton::new(ids::make(ids::MOVE_ASK, row.id))
                .label("Move")
                .style(serenity::ButtonStyle::Primary),
        );
    }
    rows
}

/// The start post's line about the carriers: Beirut's are sealed (the proof is behind the
/// button); Nuke's are public, named once, "carrier" or "carriers" by their count.
pub fn start_lines(game: &AnyGame, all: &[Designation]) -> Vec<String> {
    let variant = game.variant();
    if variant == Variant::Beirut {
        return vec![
            "Both carriers are secret and sealed: **Verify fairness** shows the proof, and every carrier is revealed when the game ends."
                .into(),
        ];
    }
    // Public carriers (Nuke): the spectator's board shows them.
    let board = game.board_view(Viewer::Spectator);
    all.iter()
        .map(|d| {
            let named: Vec<String> = d
                .squares
                .split(',')
                .map(|sq| {
                    let kind = sq
                        .parse::<Square>()
                        .ok()
                        .and_then(|s| board.piece_at(s))
                        .map(|p| p.kind.title().to_lowercase());
                    match kind {
                        Some(k) => format!("the {k} on **{sq}**"),
                        None => format!("**{sq}**"),
                    }
                })
                .collect();
            format!(
                "{}'s {}: {}",
                side(d.color),
                if named.len() == 1 {
                    "carrier"
                } else {
                    "carriers"
                },
                named.join(", ")
            )
        })
        .collect()
}

/// What **Verify fairness** answers (ephemeral). While the game goes on: the two
/// commitments and what they are; after the end: per side the exact string, its salt,
/// the commitment and the `sha256sum` line that prints it (docs/ARCHITECTURE.md,
/// "Beirut commitment"). Squares and salts never before the end.
pub fn verify_text(row: &GameRow, finished: bool, designations: &[Designation]) -> String {
    if row.variant != Variant::Beirut {
        return "This variant has no secret carriers: there is nothing to verify.".into();
    }
    if designations.len() < 2 {
        return "Play has not started: both players are still choosing their carriers.".into();
    }
    let mut lines = Vec::new();
    if !finished {
        lines.push(format!(
            "When play started in game #{}, each side's carrier choice was sealed with a commitment: the SHA-256 of a string naming the game, the side, the carrier squares and a secret random salt. Nobody can change their carriers without the commitment changing.",
            row.id
        ));
        for d in designations {
            lines.push(format!("{}: `{}`", side(d.color), d.commitment));
        }
        lines.push(
            "When the game ends, this button shows each string and salt, with a command to check them."
                .into(),
        );
        return lines.join("\n");
    }
    lines.push(format!(
        "Game #{}: each line below prints the commitment published when play started. Run it in a terminal (Linux, macOS, WSL).",
        row.id
    ));
    for d in designations {
        let text = commitment::preimage(row.id, d.color, &d.squares, &d.salt);
        lines.push(format!(
            "**{}** · carriers {} · salt `{}`\nstring `{text}`\ncommitment `{}`\n`{}`",
            side(d.color),
            d.squares.replace(',', ", "),
            d.salt,
            d.commitment,
            commitment::check_line(row.id, d.color, &d.squares, &d.salt)
        ));
    }
    lines.join("\n")
}

/// Where one carrier went.
#[derive(Clone, Debug, Eq, PartialEq)]
struct Story {
    color: Color,
    kind: Kind,
    start: Square,
    now: Square,
    /// `Some(exploded)` when it left the board at `now` (true: in a blast).
    gone: Option<bool>,
}

/// Follows each carrier of the finished (or any) `game` from its start square through
/// every ply, in the full state: a carrier moves with its piece (castling and promotion
/// included, BE-7) and ends on the board or where it was removed.
fn stories(game: &AnyGame) -> Vec<Story> {
    let carriers_at = |ply: usize| -> Vec<(Square, Color, Kind)> {
        game.board_view_after(ply, Viewer::Full)
            .map(|v| {
                v.pieces
                    .iter()
                    .filter(|p| p.carrier)
                    .map(|p| (p.square, p.color, p.kind))
                    .collect()
            })
            .unwrap_or_default()
    };
    let mut out: Vec<Story> = carriers_at(0)
        .into_iter()
        .map(|(square, color, kind)| Story {
            color,
            kind,
            start: square,
            now: square,
            gone: None,
        })
        .collect();
    for (i, ply) in game.plies().iter().enumerate() {
        let after = carriers_at(i + 1);
        let mut claimed: Vec<Square> = Vec::new();
        let mut missing = Vec::new();
        // Carriers still on their square, or moved by the action's main move.
        for (k, s) in out.iter_mut().enumerate().filter(|(_, s)| s.gone.is_none()) {
            let target = match (ply.squares.from, ply.squares.to) {
                (Some(from), Some(to)) if from == s.now => to,
                _ => s.now,
            };
            match after
                .iter()
                .find(|(sq, c, _)| *sq == target && *c == s.color && !claimed.contains(sq))
            {
                Some(&(sq, _, kind)) => {
                    claimed.push(sq);
                    s.now = sq;
                    s.kind = kind;
                }
                None => missing.push((k, target)),
            }
        }
        for (k, target) in missing {
            let s = &mut out[k];
            // Removed where it went or where it stood.
            let removal = ply
                .removed
                .iter()
                .find(|r| r.piece.color == s.color && (r.square == target || r.square == s.now));
            if let Some(r) = removal {
                s.now = r.square;
                s.gone = Some(r.cause == kaboom_rules::Cause::Exploded);
                continue;
            }
            // Moved other than by the main move (a castling rook): the unclaimed carrier
            // of its colour and kind.
            match after
                .iter()
                .find(|(sq, c, kind)| *c == s.color && *kind == s.kind && !claimed.contains(sq))
            {
                Some(&(sq, _, _)) => {
                    claimed.push(sq);
                    s.now = sq;
                }
                None => s.gone = Some(false),
            }
        }
    }
    out
}

/// `the knight from g1, exploded on f7`, `the pawn from d7, now a queen on d8`.
fn story_text(s: &Story, start_kind: Kind) -> String {
    let name = |k: Kind| k.title().to_lowercase();
    let mut text = format!("the {} from {}", name(start_kind), s.start);
    match s.gone {
        Some(true) => text.push_str(&format!(", exploded on {}", s.now)),
        Some(false) => text.push_str(&format!(", captured on {}", s.now)),
        None if s.now == s.start && s.kind == start_kind => text.push_str(", never moved"),
        None if s.kind != start_kind => {
            text.push_str(&format!(", now a {} on {}", name(s.kind), s.now));
        }
        None => text.push_str(&format!(", now on {}", s.now)),
    }
    text
}

/// The end-of-game reveal: Beirut carriers named by piece, where they started and where
/// they ended in `game`, one line per side (the stored squares for a side whose carriers
/// the game cannot follow); nothing for Nuke, whose carriers were public all along; nothing
/// for the rest. Salts and the check command are behind **Verify fairness**
/// ([`verify_text`]).
pub fn reveal_lines(row: &GameRow, game: &AnyGame, reveal: &[Designation]) -> Vec<String> {
    if row.variant != Variant::Beirut || reveal.is_empty() {
        return Vec::new();
    }
    let start = game.board_view_after(0, Viewer::Full);
    let told: Vec<_> = stories(game)
        .into_iter()
        .map(|s| {
            let kind = start
                .as_ref()
                .and_then(|v| v.piece_at(s.start))
                .map_or(s.kind, |p| p.kind);
            (s.color, story_text(&s, kind))
        })
        .collect();
    let mut lines = Vec::new();
    for d in reveal {
        let n = d.squares.split(',').count();
        let what = if n == 1 { "carrier" } else { "carriers" };
        let parts: Vec<String> = told
            .iter()
            .filter(|(c, _)| *c == d.color)
            .map(|(_, text)| text.clone())
            .collect();
        if parts.is_empty() {
            lines.push(format!(
                "{}'s {what}: started on **{}**",
                side(d.color),
                d.squares.replace(',', ", ")
            ));
        } else {
            lines.push(format!("{}'s {what}: {}", side(d.color), parts.join("; ")));
        }
    }
    lines.push("(**Verify fairness** shows how to check them against the sealed choice.)".into());
    lines
}
