//! Canonical notation (C-5, docs/rules/RULINGS.md section 6): printing, the shortest jump path of
//! BA-17, and parsing.

use std::collections::VecDeque;

use super::movegen::{JumpBoard, JumpMode};
use super::{ActionKind, Bombalot, BombalotAction, SquareSet, on_board};
use crate::{ActionError, IllegalActionError, Kind, ParseActionError, Position, Square};

/// The canonical text of `action`.
pub(super) fn san(pos: &Bombalot, action: &BombalotAction) -> String {
    let (from, to) = (action.from, action.to);
    match action.kind {
        ActionKind::Move => format!("{from}-{to}"),
        ActionKind::Explode if from == to => format!("{from}!"),
        ActionKind::Explode => format!("{from}-{to}!"),
        ActionKind::Jump { removed } => {
            let path = jump_path(pos, from, to, removed).unwrap_or_else(|| vec![to]);
            let mut text = from.to_string();
            for sq in path {
                text.push(':');
                text.push_str(&sq.to_string());
            }
            text
        }
    }
}

/// The kind the piece on `from` moves as this turn.
fn mover_kind(pos: &Bombalot, from: Square) -> Option<Kind> {
    pos.cell(from).and_then(|c| pos.move_kind(c))
}

/// The canonical path (landing squares) of the jump action `from` -> `to` removing
/// `removed` (BA-17): the shortest sequence, then the smallest squares in order.
pub(super) fn jump_path(
    pos: &Bombalot,
    from: Square,
    to: Square,
    removed: SquareSet,
) -> Option<Vec<Square>> {
    let kind = mover_kind(pos, from)?;
    if kind == Kind::Immobilizer {
        return Some(vec![to]);
    }
    let mut best: Option<Vec<Square>> = None;
    for &mode in JumpMode::for_kind(kind) {
        if mode == JumpMode::Own && !removed.is_empty() {
            continue;
        }
        let board = JumpBoard::new(pos, from, mode);
        if let Some(path) = shortest_trail(&board, from, to, removed) {
            let better = match &best {
                None => true,
                Some(b) => (path.len(), &path) < (b.len(), b),
            };
            if better {
                best = Some(path);
            }
        }
    }
    best
}

/// One edge of the restricted jump graph.
#[derive(Copy, Clone)]
struct Edge {
    dir: u8,
    to: Square,
    /// Index of the removed piece it jumps, if it jumps one.
    bit: Option<u8>,
}

/// IDA* over trails (no directed jump twice, BA-4) that use only jumps over pieces
/// that stay or are in `removed`, end on `to` and jump every piece of `removed`. The
/// heuristic is the exact distance in the relaxed problem that allows repeated jumps
/// (backward BFS over (square, jumped subset)); children are tried in ascending square
/// order, so the first trail found is the shortest, then the smallest in order.
fn shortest_trail(
    board: &JumpBoard<'_>,
    from: Square,
    to: Square,
    removed: SquareSet,
) -> Option<Vec<Square>> {
    let targets: Vec<Square> = removed.iter().collect();
    if targets.len() > 16 {
        // Impossible: a side has at most 16 pieces (the serialization refuses more).
        return None;
    }
    let full: u32 = (1u32 << targets.len()) - 1;
    // The region and its edges, sorted by landing square.
    let mut edges: Vec<Vec<Edge>> = vec![Vec::new(); 100];
    let mut region = vec![from];
    let mut inside = SquareSet::EMPTY.with(from);
    let mut i = 0;
    while i < region.len() {
        let v = region[i];
        i += 1;
        for jump in board.jumps(v) {
            let bit = if jump.removes {
                match targets.iter().position(|&t| t == jump.over) {
                    Some(b) => Some(b as u8),
                    None => continue,
                }
            } else {
                None
            };
            edges[v.index() as usize].push(Edge {
                dir: jump.dir,
                to: jump.to,
                bit,
            });
            if !jump.goal && !inside.contains(jump.to) {
                inside = inside.with(jump.to);
                region.push(jump.to);
            }
        }
        edges[v.index() as usize].sort_by_key(|e| e.to);
    }
    if !inside.contains(to) && !edges.iter().flatten().any(|e| e.to == to) {
        return None;
    }
    // Backward BFS for the relaxed distance to (to, full).
    let states = 1usize << targets.len();
    let idx = |sq: Square, mask: u32| sq.index() as usize * states + mask as usize;
    let mut dist = vec![u16::MAX; 100 * states];
    let mut preds: Vec<Vec<(Square, Option<u8>)>> = vec![Vec::new(); 100];
    for &v in &region {
        for e in &edges[v.index() as usize] {
            preds[e.to.index() as usize].push((v, e.bit));
        }
    }
    let mut queue = VecDeque::new();
    dist[idx(to, full)] = 0;
    queue.push_back((to, full));
    while let Some((t, mask)) = queue.pop_front() {
        let d = dist[idx(t, mask)];
        for &(v, bit) in &preds[t.index() as usize] {
            let mut prev_masks = [mask, mask];
            let n = match bit {
                None => 1,
                Some(b) if mask >> b & 1 == 1 => {
                    prev_masks[1] = mask & !(1 << b);
                    2
                }
                Some(_) => 0,
            };
            for &pm in &prev_masks[..n] {
                if dist[idx(v, pm)] == u16::MAX {
                    dist[idx(v, pm)] = d + 1;
                    queue.push_back((v, pm));
                }
            }
        }
    }
    let start = dist[idx(from, 0)];
    if start == u16::MAX {
        return None;
    }
    let max_len = region.len() * 8 + 1;
    let mut used = [0u8; 100];
    let mut path = Vec::new();
    let mut bound = start.max(1) as usize;
    while bound <= max_len {
        if dfs(
            &edges, &dist, states, from, 0, full, to, bound, &mut used, &mut path,
        ) {
            return Some(path);
        }
        bound += 1;
    }
    None
}

#[allow(clippy::too_many_arguments)]
fn dfs(
    edges: &[Vec<Edge>],
    dist: &[u16],
    states: usize,
    v: Square,
    mask: u32,
    full: u32,
    to: Square,
    bound: usize,
    used: &mut [u8; 100],
    path: &mut Vec<Square>,
) -> bool {
    if v == to && mask == full && !path.is_empty() {
        return true;
    }
    if path.len() >= bound {
        return false;
    }
    for e in &edges[v.index() as usize] {
        if used[v.index() as usize] >> e.dir & 1 == 1 {
            continue;
        }
        let next = e.bit.map_or(mask, |b| mask | 1 << b);
        let h = dist[e.to.index() as usize * states + next as usize];
        if h == u16::MAX || path.len() + 1 + h as usize > bound {
            continue;
        }
        used[v.index() as usize] |= 1 << e.dir;
        path.push(e.to);
        if dfs(edges, dist, states, e.to, next, full, to, bound, used, path) {
            return true;
        }
        path.pop();
        used[v.index() as usize] &= !(1 << e.dir);
    }
    false
}

const GRAMMAR: &str = "a Bombalot action: a move like c3-c4 (or c3c4), a jump sequence like c3:e5:c7, a bomb exploding in place like d1! or stepping then exploding like d1-d2!";

/// The parts of an action text: the squares, the separator used, and whether a `!`
/// followed the squares directly.
struct Parsed {
    squares: Vec<Square>,
    jump: bool,
    bang: bool,
}

fn lex(text: &str) -> Result<Parsed, ParseActionError> {
    let err = || ParseActionError {
        text: text.to_string(),
        expected: GRAMMAR.to_string(),
    };
    let core = match text.find("->") {
        Some(i) => &text[..i],
        None => text,
    };
    let lower = core.trim().to_ascii_lowercase();
    let bytes = lower.as_bytes();
    let mut squares = Vec::new();
    let mut seps = Vec::new();
    let mut i = 0;
    loop {
        let sq: Square = lower
            .get(i..i + 2)
            .and_then(|s| s.parse().ok())
            .ok_or_else(err)?;
        squares.push(sq);
        i += 2;
        match bytes.get(i) {
            Some(b'-') | Some(b':') => {
                seps.push(bytes[i]);
                i += 1;
            }
            Some(b'a'..=b'j') => seps.push(b'-'),
            _ => break,
        }
    }
    let rest = &lower[i..];
    if !rest.chars().all(|c| matches!(c, '!' | '?' | '+' | '#')) {
        return Err(err());
    }
    let jump = seps.first() == Some(&b':');
    if seps.iter().any(|&s| (s == b':') != jump) || (!jump && squares.len() > 2) {
        return Err(err());
    }
    Ok(Parsed {
        squares,
        jump,
        bang: rest.starts_with('!'),
    })
}

/// Follows a jump path from `from`, checking BA-4/BA-5/BA-8, and returns the landing
/// square and the removed pieces, or why the path is not a jump sequence.
fn follow_path(
    pos: &Bombalot,
    from: Square,
    path: &[Square],
) -> Result<(Square, SquareSet), String> {
    let kind =
        mover_kind(pos, from).ok_or_else(|| format!("the piece on {from} cannot move yet"))?;
    let mixed = match kind {
        Kind::Tweke => false,
        Kind::SuperTweke => true,
        Kind::Immobilizer if path.len() == 1 => true,
        Kind::Immobilizer => return Err("an immobilizer makes a single jump".into()), // BA-8
        other => {
            return Err(format!(
                "the piece on {from} moves as a {other}, which does not jump"
            ));
        }
    };
    let board = JumpBoard::new(pos, from, JumpMode::Mixed);
    let mut cur = from;
    let mut used = [0u8; 100];
    let mut removed = SquareSet::EMPTY;
    let mut colours = [false; 2];
    let color = pos.turn;
    for (n, &next) in path.iter().enumerate() {
        let jump = board.jumps(cur).find(|j| j.to == next).ok_or_else(|| {
            format!("{cur} to {next} is not a jump over a piece to a free square")
        })?;
        if n + 1 < path.len() && jump.goal {
            return Err(format!(
                "a jump sequence ends when it lands on the goal {next}" // BA-2
            ));
        }
        if used[cur.index() as usize] >> jump.dir & 1 == 1 {
            return Err(format!("the jump {cur} to {next} is made twice")); // BA-4
        }
        used[cur.index() as usize] |= 1 << jump.dir;
        let jumped = pos.cell(jump.over).map(|c| c.color);
        colours[usize::from(jumped != Some(color))] = true;
        if !mixed && colours[0] && colours[1] {
            return Err("a tweke jumps only one colour in a move".into()); // BA-4
        }
        if jump.removes && kind != Kind::Immobilizer {
            removed = removed.with(jump.over);
        }
        cur = next;
    }
    if cur == from && removed.is_empty() {
        return Err("a sequence back to its start that removes nothing is a pass".into()); // BA-17
    }
    Ok((cur, removed))
}

/// Parses `text` into a legal action of `pos` (grammar in the module docs).
pub(super) fn parse(pos: &Bombalot, text: &str) -> Result<BombalotAction, ActionError> {
    let parsed = lex(text)?;
    // The legal list is only computed for an error message.
    let illegal = |reason: String| -> ActionError {
        IllegalActionError {
            text: text.trim().to_string(),
            reason,
            legal: pos.legal_actions().iter().map(|a| san(pos, a)).collect(),
            ambiguous: false,
        }
        .into()
    };
    if let Some(outcome) = pos.board_outcome() {
        return Err(illegal(format!("the game is over ({outcome})")));
    }
    let from = parsed.squares[0];
    let Some(cell) = pos.cell(from) else {
        return Err(illegal(format!("there is no piece on {from}")));
    };
    if cell.color != pos.turn {
        return Err(illegal(format!(
            "the piece on {from} is not {}'s",
            pos.turn
        )));
    }
    if !on_board(from) {
        return Err(illegal(format!(
            "the piece on {from} is locked in the goal" // BA-2
        )));
    }
    if pos.frozen().contains(from) {
        return Err(illegal(format!(
            "the piece on {from} is frozen by an enemy immobilizer" // BA-3
        )));
    }
    let kind = mover_kind(pos, from);
    if kind.is_none() {
        return Err(illegal(format!(
            "the imitator on {from} cannot move before the opponent has moved" // BA-10
        )));
    }
    let is_bomb = kind == Some(Kind::Bomb);
    // Steps, knight moves, tank moves, explosions and the immobilizer's jumps of this
    // piece; tweke jump sequences are checked by following the path (BA-4, BA-5).
    let mut own = Vec::new();
    super::movegen::piece_actions(pos, from, false, &mut Vec::new(), &mut own);
    let found = |action: BombalotAction| own.contains(&action).then_some(action);
    let jump = |path: &[Square]| -> Result<BombalotAction, String> {
        let (to, removed) = follow_path(pos, from, path)?;
        Ok(BombalotAction {
            from,
            to,
            kind: ActionKind::Jump { removed },
        })
    };
    let candidate = if parsed.jump {
        Some(jump(&parsed.squares[1..]).map_err(&illegal)?)
    } else if parsed.squares.len() == 1 {
        if !(parsed.bang && is_bomb) {
            return Err(illegal(format!(
                "only a bomb can act on its own square ({from}!, BA-9)"
            )));
        }
        found(BombalotAction {
            from,
            to: from,
            kind: ActionKind::Explode,
        })
    } else {
        let to = parsed.squares[1];
        if parsed.bang && is_bomb {
            found(BombalotAction {
                from,
                to,
                kind: ActionKind::Explode,
            })
        } else {
            found(BombalotAction {
                from,
                to,
                kind: ActionKind::Move,
            })
            // A single jump written as a step: c3-c5 for c3:c5.
            .or_else(|| jump(&[to]).ok())
        }
    };
    candidate.ok_or_else(|| {
        let what = match (cell.kind, kind) {
            (Kind::Imitator, Some(k)) => format!("imitator (moving as {k})"),
            (own, _) => own.name().to_string(),
        };
        illegal(format!("the {what} on {from} has no such action here"))
    })
}
