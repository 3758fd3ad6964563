//! Iterative-deepening negamax with alpha-beta, a transposition table, move ordering
//! that tries explosive and capturing actions first, and quiescence over them.

use std::time::{Duration, Instant};

use kaboom_rules::{Color, Position, Removal};

use crate::eval::{self, Values};
use crate::tt::{Bound, TranspositionTable};
use crate::{Limits, Score};

/// A score at least this large (in centipawns) is a forced win; `MATE - n` wins in `n` plies.
pub(crate) const MATE: i32 = 1_000_000;
/// Scores above this are mate scores (a search never goes 10,000 plies deep).
const MATE_BOUND: i32 = MATE - 10_000;
const INFINITY: i32 = MATE + 1;
/// How many plies of explosive and capturing actions quiescence follows past the horizon.
const QUIESCENCE_PLIES: u32 = 6;
/// Plies with killer slots.
const MAX_PLY: usize = 128;

/// One legal action with the position it leads to and what it removed.
struct Child<P: Position> {
    index: u16,
    action: P::Action,
    position: P,
    removed: Vec<Removal>,
    order: i32,
}

/// What a finished search found: the best action as an index into the root's canonical
/// legal-action list, its score, and the principal variation as indices ply by ply.
#[derive(Clone, Debug)]
pub(crate) struct Found {
    pub best: usize,
    pub score: i32,
    pub depth: u32,
    pub nodes: u64,
    pub pv: Vec<usize>,
    /// Every root action's score from the last completed iteration, by legal index
    /// (`None` when the root was cut off before it), for levels that pick among near-best
    /// actions.
    pub root_scores: Vec<Option<i32>>,
    pub elapsed: Duration,
}

/// The search state for one position's analysis.
pub(crate) struct Searcher<P: Position> {
    tt: TranspositionTable,
    killers: Vec<[Option<P::Action>; 2]>,
    values: &'static Values,
    nodes: u64,
    limits: Limits,
    started: Instant,
    stopped: bool,
    /// Repetition keys of the game before the root and along the current line.
    path: Vec<u64>,
}

impl<P: Position> Searcher<P> {
    /// A searcher for `P` with `limits`; `history` holds the repetition keys of the positions
    /// before the root (oldest first), so that a line repeating them scores as a draw.
    pub fn new(limits: Limits, history: Vec<u64>) -> Searcher<P> {
        Searcher {
            tt: TranspositionTable::new(limits.hash_entries()),
            killers: vec![[None, None]; MAX_PLY],
            values: eval::values(P::VARIANT),
            nodes: 0,
            limits,
            started: Instant::now(),
            stopped: false,
            path: history,
        }
    }

    /// Searches `root` by iterative deepening until a limit is reached. `None` when the
    /// root has no legal action.
    pub fn run(&mut self, root: &P) -> Option<Found> {
        let mut actions = Vec::new();
        root.legal_actions_into(&mut actions);
        if actions.is_empty() {
            return None;
        }
        self.started = Instant::now();
        let max_depth = self.limits.depth.unwrap_or(64).clamp(1, 64);
        let mut found: Option<Found> = None;
        for depth in 1..=max_depth {
            let mut root_scores = vec![None; actions.len()];
            let result = self.root(root, depth, &mut root_scores);
            if self.stopped {
                // An interrupted iteration is kept only for the actions it finished, and only
                // when it found a better action than the last full iteration.
                if let (Some(prev), Some((best, score))) = (found.as_ref(), result)
                    && score > prev.score
                    && best != prev.best
                {
                    let pv = self.principal_variation(root, best, depth as usize + 4);
                    let prev = found.as_mut().expect("checked above");
                    prev.best = best;
                    prev.score = score;
                    prev.pv = pv;
                }
                if found.is_none()
                    && let Some((best, score)) = result
                {
                    found = Some(self.found(root, best, score, depth, root_scores));
                }
                break;
            }
            let Some((best, score)) = result else { break };
            found = Some(self.found(root, best, score, depth, root_scores));
            if score.abs() >= MATE_BOUND || actions.len() == 1 {
                break;
            }
        }
        // A limit hit before the first action of depth 1 finished: fall back to the first
        // action in canonical order rather than nothing.
        let mut found = found.unwrap_or_else(|| Found {
            best: 0,
            score: 0,
            depth: 0,
            nodes: 0,
            pv: vec![0],
            root_scores: vec![None; actions.len()],
            elapsed: Duration::ZERO,
        });
        found.nodes = self.nodes;
        found.elapsed = self.started.elapsed();
        Some(found)
    }

    fn found(
        &mut self,
        root: &P,
        best: usize,
        score: i32,
        depth: u32,
        root_scores: Vec<Option<i32>>,
    ) -> Found {
        Found {
            best,
            score,
            depth,
            nodes: self.nodes,
            pv: self.principal_variation(root, best, depth as usize + 4),
            root_scores,
            elapsed: self.started.elapsed(),
        }
    }

    /// Follows the transposition table's best actions from `root` after `first`.
    fn principal_variation(&self, root: &P, first: usize, max: usize) -> Vec<usize> {
        let mut pv = vec![first];
        let mut actions = Vec::new();
        root.legal_actions_into(&mut actions);
        let mut pos = root.clone();
        pos.play_unchecked(&actions[first]);
        let mut seen = vec![pos.repetition_key()];
        while pv.len() < max {
            let Some(entry) = self.tt.probe(pos.repetition_key()) else {
                break;
            };
            pos.legal_actions_into(&mut actions);
            let Some(action) = entry.best.and_then(|i| actions.get(usize::from(i))) else {
                break;
            };
            pv.push(usize::from(entry.best.unwrap_or(0)));
            pos.play_unchecked(action);
            let key = pos.repetition_key();
            if seen.contains(&key) {
                break;
            }
            seen.push(key);
        }
        pv
    }

    /// One iteration at the root: the best action's index and score, or `None` when the
    /// search stopped before the first action was scored.
    fn root(&mut self, root: &P, depth: u32, scores: &mut [Option<i32>]) -> Option<(usize, i32)> {
        let key = root.repetition_key();
        let tt_best = self.tt.probe(key).and_then(|e| e.best);
        let mut actions = Vec::new();
        root.legal_actions_into(&mut actions);
        let children = self.children(root, actions, tt_best, 0, false);
        let mut alpha = -INFINITY;
        let mut best: Option<(usize, i32)> = None;
        self.path.push(key);
        for child in &children {
            let score = -self.negamax(&child.position, depth as i32 - 1, -INFINITY, -alpha, 1);
            if self.stopped {
                break;
            }
            scores[usize::from(child.index)] = Some(score);
            if best.is_none_or(|(_, s)| score > s) {
                best = Some((usize::from(child.index), score));
            }
            alpha = alpha.max(score);
        }
        self.path.pop();
        if let Some((index, score)) = best
            && !self.stopped
        {
            self.tt
                .store(key, depth as i32, score, Bound::Exact, Some(index as u16));
        }
        best
    }

    fn negamax(&mut self, pos: &P, depth: i32, mut alpha: i32, beta: i32, ply: usize) -> i32 {
        if self.out_of_budget() {
            return 0;
        }
        self.nodes += 1;
        let key = pos.repetition_key();
        if self.path.contains(&key) {
            return 0;
        }
        if depth <= 0 {
            return self.quiescence(pos, alpha, beta, ply, QUIESCENCE_PLIES);
        }
        let mut actions = Vec::new();
        pos.legal_actions_into(&mut actions);
        // The board's end first, then the automatic draws (C-3 before C-4, as `Game::status`).
        if actions.is_empty() {
            return terminal_score(pos, ply);
        }
        if pos.automatic_draw().is_some() {
            return 0;
        }
        let original_alpha = alpha;
        let mut tt_best = None;
        if let Some(entry) = self.tt.probe(key) {
            tt_best = entry.best;
            if entry.depth >= depth {
                let score = from_tt(entry.score, ply);
                match entry.bound {
                    Bound::Exact => return score,
                    Bound::Lower if score >= beta => return score,
                    Bound::Upper if score <= alpha => return score,
                    _ => {}
                }
            }
        }
        let children = self.children(pos, actions, tt_best, ply, false);
        let mut best_score = -INFINITY;
        let mut best_index = None;
        self.path.push(key);
        for child in &children {
            let score = -self.negamax(&child.position, depth - 1, -beta, -alpha, ply + 1);
            if self.stopped {
                self.path.pop();
                return 0;
            }
            if score > best_score {
                best_score = score;
                best_index = Some(child.index);
            }
            if score > alpha {
                alpha = score;
            }
            if alpha >= beta {
                if child.removed.is_empty() {
                    self.remember_killer(ply, &child.action);
                }
                break;
            }
        }
        self.path.pop();
        let bound = if best_score <= original_alpha {
            Bound::Upper
        } else if best_score >= beta {
            Bound::Lower
        } else {
            Bound::Exact
        };
        self.tt
            .store(key, depth, to_tt(best_score, ply), bound, best_index);
        best_score
    }

    /// Explosive and capturing actions only, past the horizon, with the side to move free
    /// to "stand pat" on the static evaluation.
    fn quiescence(&mut self, pos: &P, mut alpha: i32, beta: i32, ply: usize, left: u32) -> i32 {
        if self.out_of_budget() {
            return 0;
        }
        self.nodes += 1;
        let mut actions = Vec::new();
        pos.legal_actions_into(&mut actions);
        if actions.is_empty() {
            return terminal_score(pos, ply);
        }
        if pos.automatic_draw().is_some() {
            return 0;
        }
        let stand_pat = eval::evaluate(pos, self.values);
        if stand_pat >= beta || left == 0 {
            return stand_pat;
        }
        alpha = alpha.max(stand_pat);
        let children = self.children(pos, actions, None, ply, true);
        let mut best = stand_pat;
        for child in &children {
            let score = -self.quiescence(&child.position, -beta, -alpha, ply + 1, left - 1);
            if self.stopped {
                return 0;
            }
            if score > best {
                best = score;
            }
            if score > alpha {
                alpha = score;
            }
            if alpha >= beta {
                break;
            }
        }
        best
    }

    /// Every legal action of `pos` played out and ordered: the table's best action first,
    /// then actions that remove more enemy than own value, then killers, then the rest in
    /// canonical order. With `noisy_only`, only actions that remove something.
    fn children(
        &self,
        pos: &P,
        actions: Vec<P::Action>,
        tt_best: Option<u16>,
        ply: usize,
        noisy_only: bool,
    ) -> Vec<Child<P>> {
        let mover = pos.turn();
        let mut children: Vec<Child<P>> = Vec::with_capacity(actions.len());
        for (index, action) in actions.into_iter().enumerate() {
            let mut position = pos.clone();
            let removed = position.play_reported(&action);
            if noisy_only && removed.is_empty() {
                continue;
            }
            let index = index as u16;
            let mut order = removal_gain(&removed, mover, self.values);
            if Some(index) == tt_best {
                order = i32::MAX;
            } else if removed.is_empty() && self.is_killer(ply, &action) {
                order = 1;
            } else if !removed.is_empty() {
                // Explosive and capturing actions before quiet ones, even when they cost.
                order = order.saturating_add(20_000);
            }
            children.push(Child {
                index,
                action,
                position,
                removed,
                order,
            });
        }
        children.sort_by(|a, b| b.order.cmp(&a.order).then(a.index.cmp(&b.index)));
        children
    }

    fn is_killer(&self, ply: usize, action: &P::Action) -> bool {
        self.killers
            .get(ply)
            .is_some_and(|k| k.iter().flatten().any(|a| a == action))
    }

    fn remember_killer(&mut self, ply: usize, action: &P::Action) {
        if let Some(slot) = self.killers.get_mut(ply)
            && slot[0].as_ref() != Some(action)
        {
            slot[1] = slot[0].take();
            slot[0] = Some(action.clone());
        }
    }

    fn out_of_budget(&mut self) -> bool {
        if self.stopped {
            return true;
        }
        if self.limits.nodes.is_some_and(|n| self.nodes >= n) {
            self.stopped = true;
        } else if self.nodes.is_multiple_of(256)
            && let Some(limit) = self.limits.movetime
            && self.started.elapsed() >= limit
        {
            self.stopped = true;
        }
        self.stopped
    }
}

/// The value the mover gains from `removed`: enemy pieces count for, own pieces against; a
/// king is worth more than anything else.
fn removal_gain(removed: &[Removal], mover: Color, values: &Values) -> i32 {
    removed
        .iter()
        .map(|r| {
            let value = values.removal(r.piece.kind);
            if r.piece.color == mover {
                -value
            } else {
                value
            }
        })
        .sum()
}

/// The score of a position with no legal action, from the side to move: a loss, a win or
/// a draw as the variant decides (C-7).
fn terminal_score<P: Position>(pos: &P, ply: usize) -> i32 {
    match pos.variant_outcome() {
        Some(outcome) => match outcome.winner {
            Some(winner) if winner == pos.turn() => MATE - ply as i32,
            Some(_) => -(MATE - ply as i32),
            None => 0,
        },
        None => 0,
    }
}

/// Mate scores are stored relative to the node, so that they stay right when the same
/// position is reached at another depth.
fn to_tt(score: i32, ply: usize) -> i32 {
    if score >= MATE_BOUND {
        score + ply as i32
    } else if score <= -MATE_BOUND {
        score - ply as i32
    } else {
        score
    }
}

fn from_tt(score: i32, ply: usize) -> i32 {
    if score >= MATE_BOUND {
        score - ply as i32
    } else if score <= -MATE_BOUND {
        score + ply as i32
    } else {
        score
    }
}

/// The public form of an internal score.
pub(crate) fn to_score(score: i32) -> Score {
    if score >= MATE_BOUND {
        Score::Win {
            plies: (MATE - score) as u32,
        }
    } else if score <= -MATE_BOUND {
        Score::Loss {
            plies: (MATE + score) as u32,
        }
    } else {
        Score::Centipawns { value: score }
    }
}
