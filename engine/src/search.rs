//! Iterative-deepening negamax with alpha-beta, a transposition table, move ordering
//! that tries explosive and capturing actions first, and quiescence over them.

use std::time::{Duration, Instant};

use kaboom_rules::{Color, PieceView, Position, Removal};

use crate::eval::{self, Values};
use crate::hidden::{self, Hidden, Squares};
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
    /// actions. Exact for the best action and for those within the searcher's root margin
    /// of it; for the others an upper bound that is below the best less the margin.
    pub root_scores: Vec<Option<i32>>,
    /// The best action (legal index) after each completed iteration, depth 1 first, with
    /// the nodes visited by then: when the search first preferred its final choice.
    pub iterations: Vec<(usize, u64)>,
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
    /// Beirut: the side whose carriers this search cannot see (`crate::hidden`).
    hidden: Option<Hidden>,
    /// That side's pieces known not to carry, at the root.
    cleared: Squares,
    /// Root actions scoring within this many centipawns of the best get exact scores in
    /// [`Found::root_scores`] (for levels that pick among near-best actions); the others
    /// only bounds below that.
    root_margin: i32,
    /// Root actions (legal indices) this search leaves out, as UCI's `searchmoves` leaves
    /// out those it does not list: for the second-best action of a position.
    excluded: Vec<usize>,
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
            hidden: None,
            cleared: 0,
            root_margin: 0,
            excluded: Vec::new(),
        }
    }

    /// Leaves the root actions at legal indices `excluded` out of the search, so that it
    /// finds the best of the others (UCI's `searchmoves`, inverted).
    pub fn excluding(mut self, excluded: Vec<usize>) -> Searcher<P> {
        self.excluded = excluded;
        self
    }

    /// Makes the scores of root actions within `margin` centipawns of the best exact (see
    /// [`Found::root_scores`]): each root action is searched with alpha lowered by it.
    pub fn with_root_margin(mut self, margin: i32) -> Searcher<P> {
        self.root_margin = margin.clamp(0, 10_000);
        self
    }

    /// Scores the opponent's possible hidden Booms as chance nodes (`crate::hidden`), with
    /// `cleared` the squares of its pieces known not to carry.
    pub fn with_hidden(mut self, model: Option<(Hidden, Squares)>) -> Searcher<P> {
        if let Some((hidden, cleared)) = model {
            self.hidden = Some(hidden);
            self.cleared = cleared;
        }
        self
    }

    /// Searches `root` by iterative deepening until a limit is reached. `None` when the
    /// root has no legal action.
    pub fn run(&mut self, root: &P) -> Option<Found> {
        let mut actions = Vec::new();
        root.legal_actions_into(&mut actions);
        let searchable = (0..actions.len())
            .filter(|i| !self.excluded.contains(i))
            .collect::<Vec<_>>();
        let &first = searchable.first()?;
        self.started = Instant::now();
        let max_depth = self.limits.depth.unwrap_or(64).clamp(1, 64);
        let mut found: Option<Found> = None;
        let mut iterations = Vec::new();
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
            iterations.push((best, self.nodes));
            found = Some(self.found(root, best, score, depth, root_scores));
            if score.abs() >= MATE_BOUND || searchable.len() == 1 {
                break;
            }
        }
        // A limit hit before the first action of depth 1 finished: fall back to the first
        // action in canonical order rather than nothing.
        let mut found = found.unwrap_or_else(|| Found {
            best: first,
            score: 0,
            depth: 0,
            nodes: 0,
            pv: vec![first],
            root_scores: vec![None; actions.len()],
            iterations: Vec::new(),
            elapsed: Duration::ZERO,
        });
        found.iterations = iterations;
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
            iterations: Vec::new(),
            elapsed: self.started.elapsed(),
        }
    }

    /// Follows the transposition table's best actions from `root` after `first` (with the
    /// hidden side's cleared pieces along the line, as the search keyed them).
    fn principal_variation(&self, root: &P, first: usize, max: usize) -> Vec<usize> {
        let mut pv = vec![first];
        let mut actions = Vec::new();
        root.legal_actions_into(&mut actions);
        let mut pos = root.clone();
        let mut cleared = self.cleared;
        self.step(&mut pos, &actions[first], &mut cleared);
        let mut seen = vec![pos.repetition_key()];
        while pv.len() < max {
            if let Some(t) = self.threat(&pos, cleared) {
                cleared |= t.squares;
            }
            let key = Self::tt_key(pos.repetition_key(), cleared);
            let Some(entry) = self.tt.probe(key) else {
                break;
            };
            pos.legal_actions_into(&mut actions);
            let Some(action) = entry.best.and_then(|i| actions.get(usize::from(i))) else {
                break;
            };
            pv.push(usize::from(entry.best.unwrap_or(0)));
            let action = action.clone();
            self.step(&mut pos, &action, &mut cleared);
            let key = pos.repetition_key();
            if seen.contains(&key) {
                break;
            }
            seen.push(key);
        }
        pv
    }

    /// Plays `action` on `pos`, following the hidden side's cleared pieces.
    fn step(&self, pos: &mut P, action: &P::Action, cleared: &mut Squares) {
        if self.hidden.is_some() && *cleared != 0 {
            let squares = pos.action_squares(action);
            let removed = pos.play_reported(action);
            *cleared = hidden::follow(*cleared, squares, &removed);
        } else {
            pos.play_unchecked(action);
        }
    }

    /// One iteration at the root: the best action's index and score, or `None` when the
    /// search stopped before the first action was scored.
    fn root(&mut self, root: &P, depth: u32, scores: &mut [Option<i32>]) -> Option<(usize, i32)> {
        let key = root.repetition_key();
        let tt_best = self.tt.probe(key).and_then(|e| e.best);
        let mut actions = Vec::new();
        root.legal_actions_into(&mut actions);
        let mut children = self.children(root, actions, tt_best, 0, false);
        children.retain(|c| !self.excluded.contains(&usize::from(c.index)));
        let mut alpha = -INFINITY;
        let mut best: Option<(usize, i32)> = None;
        self.path.push(key);
        for child in &children {
            let cleared = self.follow(root, child, self.cleared);
            // Lowered by the margin, so that actions within it of the best get exact scores
            // (a fail-low bound may lie anywhere below alpha, even on it).
            let floor = if alpha > -MATE_BOUND && alpha < MATE_BOUND {
                alpha - self.root_margin - 1
            } else {
                alpha
            };
            let score = -self.negamax(
                &child.position,
                depth as i32 - 1,
                -INFINITY,
                -floor,
                1,
                cleared,
            );
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

    /// [`Searcher::plain`], or the chance node of a possible hidden Boom (`crate::hidden`).
    fn negamax(
        &mut self,
        pos: &P,
        depth: i32,
        alpha: i32,
        beta: i32,
        ply: usize,
        cleared: Squares,
    ) -> i32 {
        // The pieces serve the threat (hidden side to move) and the evaluation (horizon).
        let wanted = depth <= 0 || self.hidden.is_some_and(|m| m.side == pos.turn());
        let pieces = self.model_pieces(pos).filter(|_| wanted);
        let threat = pieces
            .as_deref()
            .and_then(|p| self.threat_in(pos, p, cleared));
        let pieces = pieces.as_deref();
        chance(threat, alpha, beta, cleared, |alpha, beta, cleared| {
            self.plain(pos, depth, alpha, beta, ply, cleared, pieces)
        })
    }

    /// The hidden side's chance to win by a Boom in `pos`, when it is to move there.
    fn threat(&self, pos: &P, cleared: Squares) -> Option<hidden::Threat> {
        let pieces = self.model_pieces(pos)?;
        self.threat_in(pos, &pieces, cleared)
    }

    /// `pos`'s pieces when the hidden model is on (`None` otherwise).
    fn model_pieces(&self, pos: &P) -> Option<Vec<PieceView>> {
        self.hidden.filter(|_| !self.stopped).map(|_| pos.pieces())
    }

    /// [`Searcher::threat`] with `pos`'s pieces at hand.
    fn threat_in(&self, pos: &P, pieces: &[PieceView], cleared: Squares) -> Option<hidden::Threat> {
        let model = self.hidden?;
        if pos.turn() != model.side || self.stopped {
            return None;
        }
        hidden::threat(pieces, model, hidden::settle(cleared, pieces, model.side))
    }

    /// `cleared` after `child`'s action from `pos` (nothing to follow without the model).
    fn follow(&self, pos: &P, child: &Child<P>, cleared: Squares) -> Squares {
        if self.hidden.is_none() || cleared == 0 {
            return cleared;
        }
        hidden::follow(cleared, pos.action_squares(&child.action), &child.removed)
    }

    /// The TT key of `pos` with the hidden side's cleared pieces.
    fn tt_key(key: u64, cleared: Squares) -> u64 {
        if cleared == 0 {
            return key;
        }
        let mut h = (cleared as u64) ^ ((cleared >> 64) as u64).rotate_left(29);
        h = (h ^ (h >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        h = (h ^ (h >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        key ^ h ^ (h >> 31)
    }

    /// `pieces`: `pos`'s pieces when the caller has them (for the evaluation).
    #[allow(clippy::too_many_arguments)]
    fn plain(
        &mut self,
        pos: &P,
        depth: i32,
        mut alpha: i32,
        beta: i32,
        ply: usize,
        cleared: Squares,
        pieces: Option<&[PieceView]>,
    ) -> i32 {
        if self.out_of_budget() {
            return 0;
        }
        self.nodes += 1;
        let key = pos.repetition_key();
        if self.path.contains(&key) {
            return 0;
        }
        if depth <= 0 {
            return self.quiescence_plain(pos, alpha, beta, ply, QUIESCENCE_PLIES, cleared, pieces);
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
        let tt_key = Self::tt_key(key, cleared);
        if let Some(entry) = self.tt.probe(tt_key) {
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
            let after = self.follow(pos, child, cleared);
            let score = -self.negamax(&child.position, depth - 1, -beta, -alpha, ply + 1, after);
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
            .store(tt_key, depth, to_tt(best_score, ply), bound, best_index);
        best_score
    }

    /// [`Searcher::quiescence_plain`], or the chance node of a possible hidden Boom.
    fn quiescence(
        &mut self,
        pos: &P,
        alpha: i32,
        beta: i32,
        ply: usize,
        left: u32,
        cleared: Squares,
    ) -> i32 {
        let pieces = self.model_pieces(pos);
        let threat = pieces
            .as_deref()
            .and_then(|p| self.threat_in(pos, p, cleared));
        let pieces = pieces.as_deref();
        chance(threat, alpha, beta, cleared, |alpha, beta, cleared| {
            self.quiescence_plain(pos, alpha, beta, ply, left, cleared, pieces)
        })
    }

    /// Explosive and capturing actions only, past the horizon, with the side to move free
    /// to "stand pat" on the static evaluation (less half the risk of a hidden Boom next
    /// turn, when the other side's carriers are hidden and it could not be escaped).
    #[allow(clippy::too_many_arguments)]
    fn quiescence_plain(
        &mut self,
        pos: &P,
        mut alpha: i32,
        beta: i32,
        ply: usize,
        left: u32,
        cleared: Squares,
        pieces: Option<&[PieceView]>,
    ) -> i32 {
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
        let owned;
        let pieces = match pieces {
            Some(p) => p,
            None => {
                owned = pos.pieces();
                &owned[..]
            }
        };
        let mut stand_pat = eval::evaluate_pieces(pos, pieces, self.values);
        if let Some(model) = self.hidden.filter(|m| m.side != pos.turn()) {
            let settled = hidden::settle(cleared, pieces, model.side);
            if let Some(t) = hidden::threat(pieces, model, settled) {
                stand_pat -= (t.p * f64::from(hidden::BOOM_WIN) / 2.0) as i32;
            }
        }
        if stand_pat >= beta || left == 0 {
            return stand_pat;
        }
        alpha = alpha.max(stand_pat);
        let children = self.children(pos, actions, None, ply, true);
        let mut best = stand_pat;
        for child in &children {
            let after = self.follow(pos, child, cleared);
            let score = -self.quiescence(&child.position, -beta, -alpha, ply + 1, left - 1, after);
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

/// The chance node of a possible hidden Boom (`crate::hidden`) around `search`, which takes
/// (alpha, beta, cleared squares) and returns a score in centipawns: without a threat the
/// plain search; with a near-certain one a lost position; otherwise the search with the
/// window transformed for `threat.p`, its score blended with the loss.
fn chance(
    threat: Option<hidden::Threat>,
    alpha: i32,
    beta: i32,
    cleared: Squares,
    search: impl FnOnce(i32, i32, Squares) -> i32,
) -> i32 {
    match threat {
        None => search(alpha, beta, cleared),
        Some(t) if t.p > 0.99 => hidden::combine(t.p, 0, MATE_BOUND),
        Some(t) => {
            let (lo, hi) = hidden::window(t.p, alpha, beta, MATE_BOUND, INFINITY);
            hidden::combine(t.p, search(lo, hi, cleared | t.squares), MATE_BOUND)
        }
    }
}

#[cfg(test)]
mod tests {
    use kaboom_rules::atomic::Atomic;

    use super::*;

    /// Root actions within the margin of the best get their exact two-ply scores (what a
    /// full-window search of the action alone gives), and the others only bounds that are
    /// below the best less the margin: a level picking among near-best actions never takes
    /// a worse action whose fail-low bound happened to land near the best.
    #[test]
    fn root_scores_within_the_margin_are_exact() {
        let fens = [
            "r1bqkbnr/pppp1ppp/2n5/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R b KQkq - 3 3",
            "rnbqkb1r/pppppppp/5n2/8/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 1 2",
            "r2qkbnr/ppp2ppp/2np4/4p3/4P1b1/2N2N2/PPPP1PPP/R1BQKB1R w KQkq - 0 5",
        ];
        let margin = 40;
        let mut near = 0;
        for fen in fens {
            let root = Atomic::from_fen(fen).unwrap();
            let key = root.repetition_key();
            let mut searcher =
                Searcher::<Atomic>::new(Limits::depth(2), Vec::new()).with_root_margin(margin);
            let found = searcher.run(&root).unwrap();
            let actions = root.legal_actions();
            for (i, score) in found.root_scores.iter().enumerate() {
                let score = score.expect("a full iteration scores every action");
                let mut child = root.clone();
                child.play_unchecked(&actions[i]);
                let mut alone = Searcher::<Atomic>::new(Limits::depth(1), vec![key]);
                let exact = -alone.negamax(&child, 1, -INFINITY, INFINITY, 1, 0);
                if score >= found.score - margin {
                    near += 1;
                    assert_eq!(score, exact, "{fen}: {}", root.san(&actions[i]));
                } else {
                    assert!(
                        exact < found.score - margin,
                        "{fen}: {}",
                        root.san(&actions[i])
                    );
                }
            }
        }
        assert!(near >= 5, "only {near} near-best actions tested");
    }
}
