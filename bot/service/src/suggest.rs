//! `/move` autocomplete: the caller's legal actions matching what they typed, each with a
//! label saying in the variant's own terms what it does:
//!
//! - Atomic: `Nxd5 · blast removes Qd4, Bc6` (AT-2: what the blast takes besides the
//!   capturer and the captured piece).
//! - Beirut: `Boom@e5 · Knight e5 explodes · removes d4, Qd5` (BE-3). Labels go to the
//!   mover only (ephemeral), and are computed on the mover's view of the position
//!   (`Position::view`, BE-2), so an opponent's carrier can never show: a capture of a
//!   hidden carrier is labelled as the plain capture the mover can foresee (BE-6).
//! - Nuke: `c1>d2 then e4 · bomb to your pawn d2` (NU-4), blasts with what they remove
//!   (NU-6, NU-7), `grabs the bomb on f3` (NU-10), a bomb handed to an enemy king or queen
//!   freezes it (NU-5).
//! - Bomberman: `Oxb5 · hits a5, Nb7` (BM-6: what the waves hit), `Dxe5 · defuses the
//!   bomb` (BM-7), a bomb captured by another piece sets it off (BM-7).
//! - Bombalot: pushes with where each piece goes or `off` (BA-6, BA-14), jump captures
//!   (BA-4), co-squares (BA-7, BA-15), bomb blasts (BA-9) and `enters goal` (BA-2).
//!
//! Pieces are written with their letter (none for pawns) and square; the mover's own
//! pieces come after `and your`. When the action ends the game against the mover (a Nuke
//! blast taking its own king, NU-8) or draws, the label says so.
//!
//! Speed: a busy Bombalot position has thousands of legal actions (6,161 in the perft
//! file's `busy-super-tweke`), and printing a jump's canonical path costs about 50 us
//! (BA-17's shortest-path search, docs/PERFORMANCE.md). So actions are matched on cheap
//! keys first (canonical text where it is cheap, coordinates, `from:to` for jumps, the
//! moving piece's name); a jump's full path is printed only when the typed text is a
//! path starting at that piece, and the expensive part of a label (playing the action for
//! its removals and marks) is computed only for the at most `limit` actions shown.

use kaboom_rules::atomic::Atomic;
use kaboom_rules::beirut::{Beirut, BeirutAction};
use kaboom_rules::bombalot::{ActionKind, Bombalot, BombalotAction};
use kaboom_rules::bomberman::{Bomberman, BombermanAction};
use kaboom_rules::nuke::{Nuke, NukeAction};
use kaboom_rules::{
    AnyGame, BoardView, Cause, Color, Effects, Geometry, Kind, Move, PieceView, Position, Removal,
    Square, Viewer,
};

/// Discord's limit on a choice's name and value, in characters.
pub const MAX_CHOICE_CHARS: usize = 100;

/// One autocomplete choice.
#[derive(Clone, Eq, PartialEq, Debug)]
pub struct Suggestion {
    /// What the player sees (at most 100 characters).
    pub label: String,
    /// What is submitted: the canonical text.
    pub value: String,
}

/// Up to `limit` suggestions for `viewer` (the player to move) matching `typed`: actions
/// whose canonical text, coordinate text or moving piece's name (`knight g1`) starts with
/// it come first, then those containing it, each group in the variant's canonical order.
/// Case and trailing check or win marks (`+`, `#`) are ignored. Everything is computed on
/// `viewer`'s view of the position (BE-2), so pass the player to move. Empty when the game
/// is over or awaits carriers.
pub fn suggestions(game: &AnyGame, viewer: Viewer, typed: &str, limit: usize) -> Vec<Suggestion> {
    if game.status().is_finished() || limit == 0 {
        return Vec::new();
    }
    // Check and win marks are display additions (C-5): `Qxf7#` finds `Qxf7`.
    let needle = typed.trim().trim_end_matches(['+', '#']).to_lowercase();
    match game {
        AnyGame::Atomic(g) => pick(&g.position().view(viewer), &needle, limit),
        AnyGame::Beirut(g) => pick(&g.position().view(viewer), &needle, limit),
        AnyGame::Nuke(g) => pick(&g.position().view(viewer), &needle, limit),
        AnyGame::Bomberman(g) => pick(&g.position().view(viewer), &needle, limit),
        AnyGame::Bombalot(g) => pick(&g.position().view(viewer), &needle, limit),
    }
}

/// What a variant adds to the generic matching and labelling.
trait Describe: Position {
    /// The canonical texts of `actions` where printing is cheap (`None`: print lazily).
    fn cheap_sans(&self, actions: &[Self::Action]) -> Vec<Option<String>> {
        actions.iter().map(|a| Some(self.san(a))).collect()
    }

    /// Cheap extra keys of an action besides its canonical text: the coordinate form.
    fn cheap_keys(&self, action: &Self::Action, out: &mut Vec<String>) {
        out.push(self.uci(action));
    }

    /// The first part of the label, from the display text (`Qxf7#`).
    fn head(&self, action: &Self::Action, display: String) -> String {
        let _ = action;
        display
    }

    /// What the action does, as label parts; empty for a plain move (the label then
    /// names the moving piece). `fx` is [`Position::effects`] on this view.
    fn parts(&self, action: &Self::Action, fx: &Effects, board: &Board) -> Vec<String>;
}

/// The board before the action, indexed by square.
struct Board<'a> {
    cells: Vec<Option<&'a PieceView>>,
    mover: Color,
}

impl<'a> Board<'a> {
    fn new(view: &'a BoardView) -> Board<'a> {
        let mut cells = vec![None; 100];
        for p in &view.pieces {
            cells[p.square.index() as usize] = Some(p);
        }
        Board {
            cells,
            mover: view.turn,
        }
    }

    fn at(&self, sq: Square) -> Option<&'a PieceView> {
        self.cells[sq.index() as usize]
    }

    /// `your pawn d2` / `enemy queen d5`.
    fn owned_name(&self, sq: Square) -> String {
        match self.at(sq) {
            Some(p) if p.color == self.mover => format!("your {} {sq}", p.kind.name()),
            Some(p) => format!("enemy {} {sq}", p.kind.name()),
            None => sq.to_string(),
        }
    }
}

/// A piece on `square` in labels as the thread's texts name it: the chess letter for a
/// knight, bishop, rook, queen or king (`Qd4`), the bare square for a pawn (`e2`), and the
/// name for every other kind (`Tweke f4`, `Bomb h4`, `King Battler c3`).
fn piece_on(kind: Kind, square: impl std::fmt::Display) -> String {
    let letter = match kind {
        Kind::Pawn => "",
        Kind::Knight => "N",
        Kind::Bishop => "B",
        Kind::Rook => "R",
        Kind::Queen => "Q",
        Kind::King => "K",
        other => return format!("{} {square}", other.title()),
    };
    format!("{letter}{square}")
}

/// `Qd4, Bc6 and your Nf3, e2`: enemy pieces first, then the mover's own.
fn pieces<'r>(removed: impl IntoIterator<Item = &'r Removal>, mover: Color) -> Option<String> {
    let (mut theirs, mut yours) = (Vec::new(), Vec::new());
    for r in removed {
        let text = piece_on(r.piece.kind, r.square);
        if r.piece.color == mover {
            yours.push(text);
        } else {
            theirs.push(text);
        }
    }
    match (theirs.is_empty(), yours.is_empty()) {
        (true, true) => None,
        (false, true) => Some(theirs.join(", ")),
        (true, false) => Some(format!("your {}", yours.join(", "))),
        (false, false) => Some(format!(
            "{} and your {}",
            theirs.join(", "),
            yours.join(", ")
        )),
    }
}

/// `"{verb} {pieces}"`, or `"{verb} {none}"` when there are none.
fn removes<'r>(
    verb: &str,
    removed: impl IntoIterator<Item = &'r Removal>,
    mover: Color,
    none: &str,
) -> String {
    format!(
        "{verb} {}",
        pieces(removed, mover).unwrap_or_else(|| none.to_string())
    )
}

/// Shortens `text` to at most [`MAX_CHOICE_CHARS`] characters (not bytes), ending with
/// `…` when cut: an autocomplete choice's name is 1 to 100 characters (Discord's
/// "Application Command Option Choice Structure").
pub fn clip(text: String) -> String {
    if text.chars().count() <= MAX_CHOICE_CHARS {
        return text;
    }
    let mut out: String = text.chars().take(MAX_CHOICE_CHARS - 1).collect();
    out.push('…');
    out
}

/// 0: a key starts with the needle; 1: a key contains it.
fn rank(needle: &str, keys: &[String]) -> Option<u8> {
    if needle.is_empty() || keys.iter().any(|k| k.starts_with(needle)) {
        Some(0)
    } else if keys.iter().any(|k| k.contains(needle)) {
        Some(1)
    } else {
        None
    }
}

fn pick<P: Describe>(pos: &P, needle: &str, limit: usize) -> Vec<Suggestion> {
    let view = pos.board_view();
    let board = Board::new(&view);
    let actions = pos.legal_actions();
    let mut sans = pos.cheap_sans(&actions);
    // (rank, index) of the chosen actions, prefix matches first.
    let mut first: Vec<usize> = Vec::new();
    let mut second: Vec<usize> = Vec::new();
    let mut keys: Vec<String> = Vec::with_capacity(4);
    for (i, action) in actions.iter().enumerate() {
        if first.len() >= limit {
            break;
        }
        keys.clear();
        if let Some(san) = &sans[i] {
            keys.push(san.to_lowercase());
        }
        pos.cheap_keys(action, &mut keys);
        let squares = pos.action_squares(action);
        let from = squares.from.or(squares.detonation);
        if let Some(p) = from.and_then(|s| board.at(s)) {
            keys.push(format!("{} {}", p.kind.name(), p.square));
        }
        for k in &mut keys {
            *k = k.to_lowercase();
        }
        let mut found = rank(needle, &keys);
        if found.is_none()
            && sans[i].is_none()
            && from.is_some_and(|f| needle.starts_with(&f.to_string()))
        {
            // A path typed for this piece: print the canonical path (BA-17) to compare.
            let san = pos.san(action);
            found = rank(needle, &[san.to_lowercase()]);
            sans[i] = Some(san);
        }
        match found {
            Some(0) => first.push(i),
            Some(_) if second.len() < limit => second.push(i),
            _ => {}
        }
    }
    first.extend(second);
    first.truncate(limit);
    first
        .into_iter()
        .map(|i| {
            let action = &actions[i];
            let san = sans[i].take().unwrap_or_else(|| pos.san(action));
            Suggestion {
                label: label(pos, action, &board),
                value: san,
            }
        })
        .collect()
}

fn label<P: Describe>(pos: &P, action: &P::Action, board: &Board) -> String {
    let fx = pos.effects(action);
    let mut parts = vec![pos.head(action, pos.san_with_marks(action))];
    let effects = pos.parts(action, &fx, board);
    if effects.is_empty() {
        let squares = pos.action_squares(action);
        if let Some(p) = squares
            .from
            .or(squares.detonation)
            .and_then(|s| board.at(s))
        {
            parts.push(format!("{} {}", p.kind.title(), p.square));
        }
    }
    parts.extend(effects);
    match fx.outcome {
        Some(o) if o.winner == Some(board.mover.other()) => {
            parts.push(format!("you lose: {}", o.reason.describe()));
        }
        Some(o) if o.winner.is_none() => parts.push(format!("draw: {}", o.reason.describe())),
        _ => {}
    }
    clip(parts.join(" · "))
}

/// Atomic (AT-2, AT-3): a capture's blast, besides the capturer and the captured piece.
fn atomic_blast(mv: &Move, fx: &Effects, mover: Color) -> Vec<String> {
    let Some(captured) = fx.captured else {
        return Vec::new();
    };
    let to = mv.to_square();
    let rest = fx
        .removed
        .iter()
        .filter(|r| r.square != to && r.square != captured);
    vec![removes("blast removes", rest, mover, "nothing else")]
}

impl Describe for Atomic {
    fn parts(&self, mv: &Move, fx: &Effects, board: &Board) -> Vec<String> {
        atomic_blast(mv, fx, board.mover)
    }
}

impl Describe for Beirut {
    fn parts(&self, action: &BeirutAction, fx: &Effects, board: &Board) -> Vec<String> {
        match action {
            // BE-3: the carrier and everything on its 3x3 block.
            BeirutAction::Boom(s) => {
                let name = board
                    .at(*s)
                    .map_or_else(|| "carrier".to_string(), |p| p.kind.title().to_string());
                let rest = fx.removed.iter().filter(|r| r.square != *s);
                vec![
                    format!("{name} {s} explodes"),
                    removes("removes", rest, board.mover, "nothing else"),
                ]
            }
            // BE-6: in the mover's view no enemy carrier is known, so a capture removes
            // the captured piece only; a Dead Man's Switch blast shows only in a view that
            // knows the carrier (never the mover's).
            BeirutAction::Move(_) => {
                let Some(captured) = fx.captured else {
                    return Vec::new();
                };
                let rest: Vec<&Removal> =
                    fx.removed.iter().filter(|r| r.square != captured).collect();
                if rest.is_empty() {
                    Vec::new()
                } else {
                    vec![removes("blast removes", rest, board.mover, "")]
                }
            }
        }
    }
}

impl Describe for Nuke {
    fn cheap_sans(&self, _actions: &[NukeAction]) -> Vec<Option<String>> {
        // One legal-move list per transfer instead of one per action; same order.
        kaboom_rules::nuke::notation::legal_texts(self)
            .into_iter()
            .map(Some)
            .collect()
    }

    /// `c1>d2 then e4` for an action with a transfer (NU-4).
    fn head(&self, action: &NukeAction, display: String) -> String {
        match action.transfer {
            Some(t) => {
                let (from, to) = (t.from_square(), t.to_square());
                let prefix = format!("{from}>{to} ");
                match display.strip_prefix(&prefix) {
                    Some(rest) => format!("{from}>{to} then {rest}"),
                    None => display,
                }
            }
            None => display,
        }
    }

    fn parts(&self, _action: &NukeAction, fx: &Effects, board: &Board) -> Vec<String> {
        let mut parts = Vec::new();
        if let Some(t) = fx.transfer {
            let mut text = format!("bomb to {}", board.owned_name(t.to));
            // NU-5: a king or queen that carries is frozen.
            if t.freezes {
                text.push_str(", frozen");
            }
            parts.push(text);
        }
        // NU-6, NU-7: every piece the blasts remove (the capturer included); the captured
        // carrier itself is the capture.
        let blasted: Vec<&Removal> = fx
            .removed
            .iter()
            .filter(|r| r.cause == Cause::Exploded)
            .collect();
        if !blasted.is_empty() {
            parts.push(removes("blast removes", blasted, board.mover, ""));
        }
        if let Some(grab) = fx.grab {
            parts.push(format!("grabs the bomb on {grab}"));
        }
        parts
    }
}

impl Describe for Bomberman {
    /// The display's removal list (`Oxb5->a5,b7`) is left out: the effects say it.
    fn head(&self, _action: &BombermanAction, display: String) -> String {
        match display.split_once("->") {
            Some((core, rest)) => {
                let marks: String = rest.chars().filter(|c| matches!(c, '+' | '#')).collect();
                format!("{core}{marks}")
            }
            None => display,
        }
    }

    fn parts(&self, action: &BombermanAction, fx: &Effects, board: &Board) -> Vec<String> {
        let mover = board.mover;
        match *action {
            // BM-5, BM-6: the bomb, then what the waves hit.
            BombermanAction::Detonate(s) => {
                let hit = fx.removed.iter().filter(|r| r.square != s);
                vec![removes("hits", hit, mover, "nothing")]
            }
            BombermanAction::Move { .. } => {
                if fx.defuses.is_some() {
                    // BM-7: a Defuser removes an enemy bomb without explosion.
                    return vec!["defuses the bomb".into()];
                }
                let Some(to) = fx.sets_off else {
                    return Vec::new();
                };
                let capturer = fx.actor.map_or(Kind::Pawn, |p| p.kind);
                // BM-7: the capturer is destroyed and the bomb explodes from `to`.
                let hit = fx.removed.iter().filter(|r| r.square != to);
                vec![
                    format!("sets off the bomb, {} lost", capturer.title()),
                    removes("hits", hit, mover, "nothing else"),
                ]
            }
            BombermanAction::Castle(_) => Vec::new(),
        }
    }
}

impl Describe for Bombalot {
    /// A jump's canonical text needs BA-17's shortest-path search: printed lazily.
    fn cheap_sans(&self, actions: &[BombalotAction]) -> Vec<Option<String>> {
        actions
            .iter()
            .map(|a| match a.kind {
                ActionKind::Jump { .. } => None,
                _ => Some(self.san(a)),
            })
            .collect()
    }

    fn cheap_keys(&self, action: &BombalotAction, out: &mut Vec<String>) {
        match action.kind {
            ActionKind::Move => out.push(format!("{}{}", action.from, action.to)),
            ActionKind::Jump { .. } => out.push(format!("{}:{}", action.from, action.to)),
            ActionKind::Explode => {}
        }
    }

    fn parts(&self, action: &BombalotAction, fx: &Effects, board: &Board) -> Vec<String> {
        let mover = board.mover;
        let to = action.to;
        let mut parts = Vec::new();
        if !fx.pushes.is_empty() {
            // BA-6, BA-14: each pushed piece one square on, into its goal, or off.
            let list: Vec<String> = fx
                .pushes
                .iter()
                .map(|push| {
                    // Squares only (a label has 100 characters; the pieces are on the
                    // board, and a blast names what it removes).
                    let sq = push.from;
                    let own = match board.at(sq) {
                        Some(p) if p.color == mover => "your ",
                        _ => "",
                    };
                    match push.to {
                        Some(d) if Geometry::BOMBALOT.is_goal(d) => {
                            format!("{own}{sq}→{d} (goal)")
                        }
                        Some(d) => format!("{own}{sq}→{d}"),
                        None => format!("{own}{sq} off"),
                    }
                })
                .collect();
            parts.push(format!("pushes {}", list.join(", ")));
        }
        if fx.goal_entry.is_some() {
            parts.push("enters goal".into());
        }
        let set_off = fx.sets_off.is_some();
        if set_off {
            // BA-7: a detonator landing on a bomb sets it off and dies with it.
            parts.push(format!("sets off the bomb on {to}"));
        }
        // The acting bomb (BA-9) or the bomb and detonator on `to` (BA-7) are evident.
        let evident =
            |r: &Removal| (action.kind == ActionKind::Explode || set_off) && r.square == to;
        let by = |cause: Cause| -> Vec<&Removal> {
            fx.removed
                .iter()
                .filter(|r| r.cause == cause && !evident(r))
                .collect()
        };
        let jumped = by(Cause::Jumped);
        if !jumped.is_empty() {
            parts.push(removes("removes", jumped, mover, ""));
        }
        let blasted = by(Cause::Exploded);
        if !blasted.is_empty() || action.kind == ActionKind::Explode || set_off {
            parts.push(removes("blast removes", blasted, mover, "nothing else"));
        }
        let co = by(Cause::CoSquare);
        if !co.is_empty() {
            // BA-7, BA-15.
            parts.push(removes("co-squares remove", co, mover, ""));
        }
        parts
    }
}

#[cfg(test)]
mod tests {
    use kaboom_rules::{AnyGame, Variant, Viewer};

    use super::*;

    fn game(variant: Variant, fen: &str) -> AnyGame {
        AnyGame::from_fen(variant, fen).unwrap_or_else(|e| panic!("{fen}: {e}"))
    }

    /// The label of the suggestion whose value is `san`, typing `san` itself.
    fn label_of(game: &AnyGame, viewer: Viewer, san: &str) -> String {
        let all = suggestions(game, viewer, san, 25);
        all.iter()
            .find(|s| s.value == san)
            .unwrap_or_else(|| panic!("{san} not suggested: {all:?}"))
            .label
            .clone()
    }

    #[test]
    fn atomic_capture_names_what_the_blast_takes_besides_the_capture_at2() {
        // Nxd5 takes the pawn d5; the blast also takes Qd4 and Bc6, not the pawns e4/e6.
        let g = game(Variant::Atomic, "4k3/8/2b1p3/3p4/3qP3/2N5/8/4K3 w - - 0 1");
        assert_eq!(
            label_of(&g, Viewer::White, "Nxd5"),
            "Nxd5 · blast removes Qd4, Bc6"
        );
        // A quiet move names its piece.
        assert_eq!(label_of(&g, Viewer::White, "Ke2"), "Ke2 · King e1");
    }

    #[test]
    fn beirut_boom_lists_its_block_and_never_an_enemy_carrier_be3_be6() {
        // White's carrier is the knight e5, Black's the pawn d6, Dead Man's Switch on.
        let fen = "4k3/7p/3p4/4N3/3Q4/8/8/4K3 w - - 0 1 1+dms e5 d6";
        let g = game(Variant::Beirut, fen);
        assert_eq!(
            label_of(&g, Viewer::White, "Boom@e5"),
            "Boom@e5 · Knight e5 explodes · removes d6 and your Qd4"
        );
        // Qxd6 takes Black's hidden carrier: White's label is the plain capture (BE-6)...
        let white = suggestions(&g, Viewer::White, "", 100);
        let capture = label_of(&g, Viewer::White, "Qxd6");
        assert_eq!(capture, "Qxd6 · Queen d4");
        // ...while the full state knows the blast, so the view is what hides it.
        assert!(label_of(&g, Viewer::Full, "Qxd6").contains("blast removes"));
        // No label or value of White's mentions a Boom on d6 or a blast.
        for s in &white {
            assert!(!s.value.contains("@d6"), "{s:?}");
            assert!(!s.label.contains("blast"), "{s:?}");
        }
        // Black's own view offers its own Boom, never White's.
        let fen = "4k3/7p/3p4/4N3/3Q4/8/8/4K3 b - - 0 1 1+dms e5 d6";
        let g = game(Variant::Beirut, fen);
        let black = suggestions(&g, Viewer::Black, "boom", 25);
        let values: Vec<&str> = black.iter().map(|s| s.value.as_str()).collect();
        assert_eq!(values, ["Boom@d6"]);
        assert!(black[0].label.contains("your d6") || black[0].label.contains("Pawn d6"));
        assert!(!black[0].label.contains("carrier"), "{black:?}");
    }

    #[test]
    fn beirut_labels_do_not_depend_on_the_opponents_carriers_be2() {
        // The same board with Dead Man's Switch and three different black carriers, each
        // capturable by White: White's suggestions must be identical.
        let board = "r1bqk2r/ppp2ppp/2np1n2/2b1p3/2B1P3/2NP1N2/PPP2PPP/R1BQK2R w KQkq - 0 1";
        let lists: Vec<Vec<Suggestion>> = ["c6", "f6", "e5"]
            .iter()
            .map(|black| {
                let g = game(Variant::Beirut, &format!("{board} 1+dms f3 {black}"));
                suggestions(&g, Viewer::White, "", 100)
            })
            .collect();
        assert!(lists[0].len() > 25, "{:?}", lists[0]);
        assert_eq!(lists[0], lists[1]);
        assert_eq!(lists[0], lists[2]);
        // The full state does tell them apart (Nxe5 sets off the carrier e5), so the
        // equality above comes from the view.
        let full = |black: &str| {
            let g = game(Variant::Beirut, &format!("{board} 1+dms f3 {black}"));
            label_of(&g, Viewer::Full, "Nxe5")
        };
        assert_ne!(full("c6"), full("e5"));
        // White's own carrier does show: its Boom is offered.
        assert!(lists[0].iter().any(|s| s.value == "Boom@f3"));
    }

    #[test]
    fn nuke_transfer_blast_and_grab_nu4_nu6_nu10() {
        // White's bishop c1 carries; Black's knight d3 carries.
        let g = game(Variant::Nuke, "4k3/8/8/8/8/3n4/3PP3/2B1K3 w - - 0 1 c1,d3");
        assert_eq!(
            label_of(&g, Viewer::White, "c1>d2 e4"),
            "c1>d2 then e4 · bomb to your pawn d2"
        );
        // exd3 takes the carrier: the blast takes the capturer and the pawn d2 (NU-6).
        assert_eq!(
            label_of(&g, Viewer::White, "exd3"),
            "exd3 · blast removes your d2, d3"
        );
        // A loose bomb under the black knight f3: the knight g1 takes and grabs (NU-10).
        let g = game(Variant::Nuke, "4k3/8/8/8/8/5n2/8/N3K1N1 w - - 0 1 a1*,f3*");
        assert_eq!(
            label_of(&g, Viewer::White, "Nxf3*"),
            "Nxf3* · grabs the bomb on f3"
        );
        assert_eq!(label_of(&g, Viewer::White, "Nxf3"), "Nxf3 · Knight g1");
    }

    #[test]
    fn nuke_blast_of_the_movers_own_king_says_it_loses_nu8() {
        // The king e2 may take the carrier d3 (NU-2 allows kings to capture), and blows up.
        let g = game(Variant::Nuke, "4k3/8/8/8/8/3n4/3PK3/2B5 w - - 0 1 c1,d3");
        assert_eq!(
            label_of(&g, Viewer::White, "Kxd3"),
            "Kxd3 · blast removes your d2, Kd3 · you lose: king exploded"
        );
        // Marks typed with the text are ignored (C-5).
        let marked = suggestions(&g, Viewer::White, "Kxd3#", 25);
        assert_eq!(marked[0].value, "Kxd3");
    }

    #[test]
    fn nuke_bomb_handed_to_an_enemy_queen_freezes_it_nu5() {
        let g = game(Variant::Nuke, "4k3/8/8/8/3q4/3N4/8/4K3 w - - 0 1 d3,e8");
        assert_eq!(
            label_of(&g, Viewer::White, "d3>d4 Kf1"),
            "d3>d4 then Kf1 · bomb to enemy queen d4, frozen"
        );
    }

    #[test]
    fn bomberman_detonation_lists_what_the_waves_hit_bm5_bm6() {
        // Waves from b5: north hits the knight b7, south the own pawn b2, west the pawn a5.
        let g = game(Variant::Bomberman, "5k4/1n8/10/pO8/10/10/1P8/5K4 w - - 0 1");
        assert_eq!(
            label_of(&g, Viewer::White, "Oxb5"),
            "Oxb5 · hits Nb7, a5 and your b2"
        );
    }

    #[test]
    fn bomberman_defuser_and_other_capturers_of_a_bomb_bm7() {
        let g = game(Variant::Bomberman, "5k4/10/10/2o7/2D7/1N8/10/5K4 w - - 0 1");
        assert_eq!(
            label_of(&g, Viewer::White, "Dxc5"),
            "Dxc5+ · defuses the bomb"
        );
        assert_eq!(
            label_of(&g, Viewer::White, "Nxc5"),
            "Nxc5 · sets off the bomb, Knight lost · hits your Defuser c4"
        );
    }

    #[test]
    fn bombalot_push_says_where_each_piece_goes_ba6_ba14() {
        let g = game(Variant::Bombalot, "t7/8/8/7w/4Twso/8/8/8 w ---- --");
        assert_eq!(
            label_of(&g, Viewer::White, "e4-f4"),
            "e4-f4 · pushes f4→g4, g4→h4, h4 off · blast removes Bomb h4, Super-tweke g4, Tweke h5"
        );
    }

    #[test]
    fn bombalot_goal_entries_ba2() {
        let g = game(Variant::Bombalot, "3W4/3W4/3T4/8/8/8/8/t7 w ---- --");
        assert_eq!(
            label_of(&g, Viewer::White, "d6-d7"),
            "d6-d7 · pushes your d7→d8, your d8→d9 (goal)"
        );
        assert_eq!(label_of(&g, Viewer::White, "d8-d9"), "d8-d9 · enters goal");
    }

    #[test]
    fn bombalot_jump_co_squares_and_bomb_ba4_ba7_ba9() {
        let g = game(Variant::Bombalot, "8/8/8/8/3w4/2W5/8/t7 w ---- --");
        assert_eq!(
            label_of(&g, Viewer::White, "c3:e5"),
            "c3:e5 · removes Tweke d4"
        );
        let start = AnyGame::new(Variant::Bombalot, Default::default()).unwrap();
        // BA-15: the detonator b1 on a3 and its partner g1 put co-squares on a1 and g3.
        assert_eq!(
            label_of(&start, Viewer::White, "b1-a3"),
            "b1-a3 · co-squares remove your Imitator a1"
        );
        // The bomb itself is not listed among what its blast removes.
        assert_eq!(
            label_of(&start, Viewer::White, "d1!"),
            "d1! · blast removes your Immobilizer e1, Tweke c2, Tweke d2, Tweke e2"
        );
    }

    #[test]
    fn busy_bombalot_matches_paths_lazily_and_caps_at_25() {
        // 6,161 legal actions (rules/tests/data/bombalot.perft, busy-super-tweke).
        let fen = "i(m)do1m1dt/2ww1ws1/1Sw1w1w1/1D1sw3/5w2/2WW2W1/1W6/3OM1DT w ---- Ww 0 13";
        let g = game(Variant::Bombalot, fen);
        let all = suggestions(&g, Viewer::White, "", 25);
        assert_eq!(all.len(), 25);
        // A typed path finds jump actions whose canonical path starts with it.
        let typed = "b6:d8";
        let paths = suggestions(&g, Viewer::White, typed, 25);
        assert!(!paths.is_empty());
        for s in &paths {
            assert!(s.value.starts_with(typed), "{s:?}");
            assert!(s.label.starts_with(&s.value), "{s:?}");
            assert!(s.label.chars().count() <= MAX_CHOICE_CHARS, "{s:?}");
        }
        // Every suggestion is a legal action's canonical text.
        for s in paths.iter().chain(&all) {
            assert_eq!(g.check(None, &s.value).unwrap(), s.value);
        }
    }

    #[test]
    fn labels_are_clipped_to_discord_limit() {
        let long = "x".repeat(150);
        let clipped = clip(long);
        assert_eq!(clipped.chars().count(), MAX_CHOICE_CHARS);
        assert!(clipped.ends_with('…'));
        assert_eq!(clip("short".into()), "short");
    }
}
