//! Playing an action: moves, pushes, explosions, jump captures, co-squares (BA-6 to
//! BA-10, BA-13 to BA-16, BA-18), then the clocks (BA-12).

use super::{
    ActionKind, Bombalot, BombalotAction, Cell, SquareSet, board_neighbours, board_squares,
    is_goal, on_board, scoring_goal,
};
use crate::{Cause, Color, Kind, Removal, Square};

fn remove(pos: &mut Bombalot, sq: Square, cause: Cause, report: &mut Vec<Removal>) {
    if let Some(cell) = pos.cell(sq) {
        pos.set(sq, None);
        report.push(Removal {
            square: sq,
            piece: cell.piece(),
            cause,
        });
    }
}

/// Explodes the bombs on `centres` at once, with the cascade (BA-9): each exploding bomb
/// removes itself and every piece on the 8 main-board squares around it; bombs (and
/// imitators with bomb powers) among them explode in turn. `extra` is reported right after
/// the centres: the detonator that landed on a bomb and dies with it (BA-7).
fn explode(
    pos: &mut Bombalot,
    centres: &[Square],
    extra: Option<Removal>,
    report: &mut Vec<Removal>,
) {
    let mut queue: Vec<Square> = Vec::with_capacity(8);
    for &c in centres {
        if pos.cell(c).is_some() {
            remove(pos, c, Cause::Exploded, report);
            queue.push(c);
        }
    }
    report.extend(extra);
    let mut i = 0;
    while i < queue.len() {
        let centre = queue[i];
        i += 1;
        for n in board_neighbours(centre) {
            if let Some(cell) = pos.cell(n) {
                remove(pos, n, Cause::Exploded, report);
                if cell.is_bomb() {
                    queue.push(n);
                }
            }
        }
    }
}

/// Plays `action` (assumed legal) and appends every removal, in order, to `report`.
pub(super) fn apply(pos: &mut Bombalot, action: &BombalotAction, report: &mut Vec<Removal>) {
    let color = pos.turn;
    let Some(mut cell) = pos.cell(action.from) else {
        finish(pos, color, None, false, report);
        return;
    };
    let kind = pos.move_kind(cell).unwrap_or(cell.kind);
    if cell.kind == Kind::Imitator {
        // BA-18: its lasting powers switch when it starts a move.
        cell.power = Some(kind);
    }
    let (from, to) = (action.from, action.to);
    let mut fired: Vec<Square> = Vec::new();
    let mut goal_entry = false;
    match action.kind {
        ActionKind::Explode => {
            // BA-9: step (or not), then explode.
            pos.set(from, None);
            pos.set(to, Some(cell));
            explode(pos, &[to], None, report);
        }
        ActionKind::Jump { removed } => {
            // BA-4, BA-13: land, then remove the jumped enemy pieces once each.
            pos.set(from, None);
            pos.set(to, Some(cell));
            goal_entry = is_goal(to);
            for sq in removed.iter() {
                remove(pos, sq, Cause::Jumped, report);
            }
        }
        ActionKind::Move if kind == Kind::Tank => {
            let dir = (
                to.file() as i8 - from.file() as i8,
                to.rank() as i8 - from.rank() as i8,
            );
            // BA-14, BA-18: the frozen groups come from the start-of-turn snapshot, before
            // an imitator moving as a tank loses its immobilizer powers.
            let groups = frozen_groups(pos);
            pos.set(from, Some(cell));
            push(pos, from, dir, &groups, &mut fired, &mut goal_entry, report);
        }
        ActionKind::Move => {
            pos.set(from, None);
            if pos.cell(to).is_some_and(Cell::is_bomb) && kind == Kind::Detonator {
                // BA-7: the bomb explodes and the detonator, on its square, with it.
                let extra = Removal {
                    square: to,
                    piece: cell.piece(),
                    cause: Cause::Exploded,
                };
                explode(pos, &[to], Some(extra), report);
            } else {
                pos.set(to, Some(cell));
                goal_entry = is_goal(to);
                if kind == Kind::Detonator && on_board(to) {
                    fired.push(to);
                }
            }
        }
    }
    co_squares(pos, &fired, report);
    finish(pos, color, Some(kind), goal_entry, report);
}

/// The clocks, the last-moved kind and the turn (BA-10, BA-12, C-4).
fn finish(
    pos: &mut Bombalot,
    color: Color,
    kind: Option<Kind>,
    goal_entry: bool,
    report: &[Removal],
) {
    if kind.is_some() {
        pos.last_moved[color.index()] = kind;
    }
    let tweke = matches!(kind, Some(Kind::Tweke | Kind::SuperTweke));
    if !report.is_empty() || tweke || goal_entry {
        pos.halfmoves = 0;
    } else {
        pos.halfmoves += 1;
    }
    if color == Color::Black {
        pos.fullmoves += 1;
    }
    pos.turn = color.other();
}

/// The frozen groups of the start-of-turn snapshot (BA-6, BA-14): for each square, a
/// group id (`u8::MAX` for none). A group is a connected set of frozen pieces and the
/// enemy immobilizers that freeze them.
fn frozen_groups(pos: &Bombalot) -> [u8; 100] {
    let frozen = pos.frozen();
    let mut parent: [u8; 100] = std::array::from_fn(|i| i as u8);
    fn find(parent: &mut [u8; 100], x: u8) -> u8 {
        let mut x = x;
        while parent[x as usize] != x {
            parent[x as usize] = parent[parent[x as usize] as usize];
            x = parent[x as usize];
        }
        x
    }
    let mut member = SquareSet::EMPTY;
    for sq in frozen.iter() {
        let color = pos.cell(sq).map(|c| c.color);
        for n in board_neighbours(sq) {
            if let Some(c) = pos.cell(n)
                && Some(c.color) != color
                && c.power() == Some(Kind::Immobilizer)
            {
                let (a, b) = (find(&mut parent, sq.index()), find(&mut parent, n.index()));
                parent[a as usize] = b;
                member = member.with(sq).with(n);
            }
        }
    }
    let mut group = [u8::MAX; 100];
    for sq in member.iter() {
        group[sq.index() as usize] = find(&mut parent, sq.index());
    }
    group
}

/// The push set of a tank step from `tank` in `dir` (BA-6, BA-14), the tank included, in
/// canonical square order, each
/// member with where it goes: a board square, its scoring goal (when empty), or `None`
/// for off the board. The line in front of the tank, plus the frozen group of every
/// member and the line in front of every member, until closed; the tank moves anyway.
pub(super) fn push_plan(
    pos: &Bombalot,
    tank: Square,
    dir: (i8, i8),
    groups: &[u8; 100],
) -> Vec<(Square, Option<Square>)> {
    let ahead = |sq: Square| sq.offset(dir.0, dir.1);
    let mut members = SquareSet::EMPTY.with(tank);
    let mut queue: Vec<Square> = Vec::new();
    let mut tank_group_done = false;
    let mut add = |sq: Square, members: &mut SquareSet, queue: &mut Vec<Square>| {
        if sq == tank {
            if !tank_group_done {
                tank_group_done = true;
                queue.push(sq);
            }
        } else if !members.contains(sq) {
            *members = members.with(sq);
            queue.push(sq);
        }
    };
    if let Some(next) = ahead(tank)
        && on_board(next)
        && pos.cell(next).is_some()
    {
        add(next, &mut members, &mut queue);
    }
    while let Some(m) = queue.pop() {
        if let Some(next) = ahead(m)
            && on_board(next)
            && pos.cell(next).is_some()
        {
            add(next, &mut members, &mut queue);
        }
        let g = groups[m.index() as usize];
        if g != u8::MAX {
            for sq in board_squares() {
                if groups[sq.index() as usize] == g {
                    add(sq, &mut members, &mut queue);
                }
            }
        }
    }
    let mut plan = Vec::with_capacity(members.len());
    for m in members.iter() {
        let Some(cell) = pos.cell(m) else { continue };
        let dest = ahead(m)
            .filter(|&d| on_board(d) || (scoring_goal(cell.color, d) && pos.cell(d).is_none()));
        plan.push((m, dest));
    }
    plan
}

/// What a tank step on `pos` pushes (BA-6, BA-14): see [`Bombalot::pushed`].
pub(super) fn pushed(pos: &Bombalot, action: &BombalotAction) -> Vec<(Square, Option<Square>)> {
    let Some(cell) = pos.cell(action.from) else {
        return Vec::new();
    };
    if action.kind != ActionKind::Move || pos.move_kind(cell) != Some(Kind::Tank) {
        return Vec::new();
    }
    let dir = (
        action.to.file() as i8 - action.from.file() as i8,
        action.to.rank() as i8 - action.from.rank() as i8,
    );
    let groups = frozen_groups(pos);
    let mut plan = push_plan(pos, action.from, dir, &groups);
    plan.retain(|&(sq, _)| sq != action.from);
    plan
}

/// A tank step from `tank` in `dir` with everything it pushes (BA-6, BA-14). The tank's
/// cell (with its imitator powers already set) stands on `tank`.
fn push(
    pos: &mut Bombalot,
    tank: Square,
    dir: (i8, i8),
    groups: &[u8; 100],
    fired: &mut Vec<Square>,
    goal_entry: &mut bool,
    report: &mut Vec<Removal>,
) {
    // Where each member goes: a board square, its scoring goal (if empty), or off.
    let mut off_bombs: Vec<Square> = Vec::new();
    let mut off_others: Vec<Square> = Vec::new();
    let mut moving: Vec<(Square, Square)> = Vec::new();
    for (m, dest) in push_plan(pos, tank, dir, groups) {
        let Some(cell) = pos.cell(m) else { continue };
        match dest {
            Some(d) => moving.push((m, d)),
            None if cell.is_bomb() => off_bombs.push(m),
            None => off_others.push(m),
        }
    }
    // BA-14: bombs going over the edge explode first on the board as it was; then the
    // others going off are removed; then the survivors move.
    explode(pos, &off_bombs, None, report);
    for &sq in &off_others {
        remove(pos, sq, Cause::PushedOff, report);
    }
    let survivors: Vec<(Cell, Square, Square)> = moving
        .iter()
        .filter_map(|&(m, d)| pos.cell(m).map(|c| (c, m, d)))
        .collect();
    for &(_, m, _) in &survivors {
        pos.set(m, None);
    }
    for &(cell, _, d) in &survivors {
        pos.set(d, Some(cell));
        if is_goal(d) {
            *goal_entry = true;
        } else if cell.power() == Some(Kind::Detonator) {
            // BA-7, BA-15: a pushed detonator (either colour) fires its owner's co-squares.
            fired.push(d);
        }
    }
}

/// BA-7, BA-15: every pair of friendly detonators (imitators with detonator powers count)
/// of which one is in `fired` is evaluated once from the final squares; all co-squares
/// are collected, everything on them removed at once, bombs hit explode as one cascade.
fn co_squares(pos: &mut Bombalot, fired: &[Square], report: &mut Vec<Removal>) {
    if fired.is_empty() {
        return;
    }
    let detonators: Vec<(Square, Color)> = board_squares()
        .filter_map(|sq| {
            pos.cell(sq)
                .filter(|c| c.power() == Some(Kind::Detonator))
                .map(|c| (sq, c.color))
        })
        .collect();
    let mut pairs: Vec<(Square, Square)> = Vec::new();
    let mut targets = SquareSet::EMPTY;
    for &f in fired {
        let Some(&(_, color)) = detonators.iter().find(|(sq, _)| *sq == f) else {
            continue;
        };
        for &(p, pc) in &detonators {
            if p == f || pc != color || p.rank() == f.rank() || p.file() == f.file() {
                continue;
            }
            let pair = (f.min(p), f.max(p));
            if pairs.contains(&pair) {
                continue;
            }
            pairs.push(pair);
            for (file, rank) in [(f.file(), p.rank()), (p.file(), f.rank())] {
                targets =
                    targets.with(Square::new(file, rank).expect("co-squares are on the board"));
            }
        }
    }
    let mut bombs: Vec<Square> = Vec::new();
    for sq in targets.iter() {
        match pos.cell(sq) {
            Some(c) if c.is_bomb() => bombs.push(sq),
            Some(_) => remove(pos, sq, Cause::CoSquare, report),
            None => {}
        }
    }
    explode(pos, &bombs, None, report);
}
