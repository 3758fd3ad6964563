//! Playing strength: levels 1 to 5.

use std::fmt;
use std::str::FromStr;
use std::time::Duration;

use kaboom_rules::{Color, Game, Position, Variant, Viewer};

use crate::search::{self, Found, MATE};
use crate::{Analysis, HiddenCarriers, Limits, describe, viewed};

/// How strongly the engine plays. Levels limit the search by positions visited (not by
/// time), so a level plays the same on any machine; the figures per level (time to answer,
/// score against the level below) are in `docs/PERFORMANCE.md`.
#[derive(Copy, Clone, Debug, Eq, PartialEq, Ord, PartialOrd, Hash)]
pub enum Level {
    /// Searches one ply (plus exchanges, 5,000 positions at most) and picks at random among
    /// actions within 150 centipawns of the best, never one that lets the opponent win at
    /// once or make a threat that nothing parries: it takes a win in one and hangs pawns,
    /// rarely pieces.
    One = 1,
    /// Up to 3,000 positions and two plies deep (plus exchanges); picks at random among
    /// actions within 40 centipawns of the best.
    Two = 2,
    /// Up to 30,000 positions (Atomic, Beirut, Nuke; a fifth of that in Bomberman Chess and
    /// Bombalot, whose positions cost five times as much); picks among actions within 10
    /// centipawns of the best.
    Three = 3,
    /// Up to 300,000 positions (scaled as level 3); plays the best action found.
    Four = 4,
    /// Up to 2,000,000 positions (scaled as level 3): a few seconds on one core; plays the
    /// best action found.
    Five = 5,
}

impl Level {
    /// Every level, weakest first.
    pub const ALL: [Level; 5] = [
        Level::One,
        Level::Two,
        Level::Three,
        Level::Four,
        Level::Five,
    ];

    /// The level's number, 1 to 5.
    pub const fn number(self) -> u8 {
        self as u8
    }

    /// The level numbered `n`.
    ///
    /// # Errors
    /// [`ParseLevelError`] for numbers outside 1 to 5.
    pub fn from_number(n: u8) -> Result<Level, ParseLevelError> {
        Level::ALL
            .get(usize::from(n).wrapping_sub(1))
            .copied()
            .ok_or_else(|| ParseLevelError(n.to_string()))
    }

    /// The search limits of this level in `variant`: a node budget, and a time cap of 10 s
    /// against positions far slower than usual or a host far busier (on a lightly loaded
    /// core the slowest benchmarked answer takes 7 s, docs/PERFORMANCE.md).
    pub fn limits(self, variant: Variant) -> Limits {
        let nodes: u64 = match self {
            Level::One => 5_000,
            Level::Two => 3_000,
            Level::Three => 30_000,
            Level::Four => 300_000,
            Level::Five => 2_000_000,
        };
        // Measured speeds (docs/PERFORMANCE.md): 0.9 to 1.4 million positions per second in
        // the 8x8 chess variants, 170,000 to 280,000 in Bomberman Chess and Bombalot.
        let nodes = match variant {
            Variant::Atomic | Variant::Beirut | Variant::Nuke => nodes,
            Variant::Bomberman | Variant::Bombalot => nodes / 5,
        };
        Limits {
            nodes: Some(nodes),
            depth: match self {
                Level::One => Some(1),
                Level::Two => Some(2),
                _ => None,
            },
            ..cap()
        }
    }

    /// How far below the best score (in centipawns) an action may be and still be picked.
    fn margin(self) -> i32 {
        match self {
            Level::One => 150,
            Level::Two => 40,
            Level::Three => 10,
            Level::Four | Level::Five => 0,
        }
    }
}

fn cap() -> Limits {
    Limits {
        movetime: Some(Duration::from_secs(10)),
        ..Limits::default()
    }
}

impl fmt::Display for Level {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.number())
    }
}

/// A level that is not 1 to 5.
#[derive(Clone, Debug, Eq, PartialEq, thiserror::Error)]
#[error("unknown level {0:?}: choose a level from 1 (easiest) to 5 (strongest)")]
pub struct ParseLevelError(pub String);

impl FromStr for Level {
    type Err = ParseLevelError;

    fn from_str(s: &str) -> Result<Level, ParseLevelError> {
        s.trim()
            .parse::<u8>()
            .ok()
            .and_then(|n| Level::from_number(n).ok())
            .ok_or_else(|| ParseLevelError(s.to_string()))
    }
}

/// The action `level` plays in `game` for `viewer` (the side to move).
pub(crate) fn choose<P: Position>(
    game: &Game<P>,
    viewer: Viewer,
    level: Level,
    seed: u64,
    hidden: HiddenCarriers,
) -> Analysis {
    let (root, history) = viewed(game, viewer);
    let mut rng = fastrand::Rng::with_seed(seed);
    let model = match hidden {
        HiddenCarriers::Modelled => crate::hidden::model(game, viewer),
        HiddenCarriers::Ignored => None,
    };
    let mut searcher = search::Searcher::new(level.limits(P::VARIANT), history)
        .with_hidden(model)
        .with_root_margin(level.margin());
    let mut found = searcher
        .run(&root)
        .expect("a game that is not over has a legal action");
    if level == Level::One {
        // A one-ply search cannot see a quiet winning reply (a mate, a goal entry), so
        // level 1 also drops the actions after which the opponent wins at once...
        let (safe, nodes) = safe_actions(&root);
        found.nodes += nodes;
        if !safe.is_empty() {
            keep_only(&mut found, |i| safe.contains(&i));
        }
        // ...and, of those it picks, any after which the opponent has a threat that no
        // action parries (checked for the picked action only: that costs one action's
        // replies instead of every action's, and a pick among those left is as random).
        loop {
            let (chosen, score) = pick(&found, level.margin(), &mut rng);
            let (forced, nodes) = allows_forced_win(&root, chosen);
            found.nodes += nodes;
            let left = found.root_scores.iter().filter(|s| s.is_some()).count();
            if !forced || left <= 1 {
                return describe(&root, &found, chosen, score);
            }
            keep_only(&mut found, |i| i != chosen);
        }
    }
    let (chosen, score) = pick(&found, level.margin(), &mut rng);
    describe(&root, &found, chosen, score)
}

/// A seeded pick among the root actions scored within `margin` of the best (the search was
/// told the margin, so their scores are exact; with margin 0, the best action). Wins are
/// never traded for anything else, and losing actions are never picked while others remain.
fn pick(found: &Found, margin: i32, rng: &mut fastrand::Rng) -> (usize, i32) {
    let best = found.score;
    if margin == 0 {
        return (found.best, best);
    }
    let near_mate = MATE - 10_000;
    let candidates: Vec<(usize, i32)> = found
        .root_scores
        .iter()
        .enumerate()
        .filter_map(|(i, s)| s.map(|s| (i, s)))
        .filter(|&(_, s)| {
            if best >= near_mate || s <= -near_mate {
                s == best
            } else {
                s >= best.saturating_sub(margin)
            }
        })
        .collect();
    if candidates.is_empty() {
        return (found.best, best);
    }
    candidates[rng.usize(..candidates.len())]
}

/// Drops the root actions `keep` refuses from `found` (their scores become `None`), and
/// moves its best action to the best of those left when it was dropped.
fn keep_only(found: &mut Found, keep: impl Fn(usize) -> bool) {
    for (i, score) in found.root_scores.iter_mut().enumerate() {
        if !keep(i) {
            *score = None;
        }
    }
    if keep(found.best) {
        return;
    }
    if let Some((best, score)) = found
        .root_scores
        .iter()
        .enumerate()
        .filter_map(|(i, s)| s.map(|s| (i, s)))
        .max_by_key(|&(i, s)| (s, std::cmp::Reverse(i)))
    {
        found.best = best;
        found.score = score;
        found.pv = vec![best];
    }
}

/// The root actions after which the opponent cannot win at once (indices into the
/// canonical legal actions), and the positions visited to find them.
fn safe_actions<P: Position>(root: &P) -> (Vec<usize>, u64) {
    let actions = root.legal_actions();
    let me = root.turn();
    let mut nodes = 0u64;
    let mut replies = Vec::new();
    let safe = (0..actions.len())
        .filter(|&i| {
            let mut after = root.clone();
            after.play_unchecked(&actions[i]);
            nodes += 1;
            !opponent_wins_at_once(&after, me, &mut nodes, &mut replies)
        })
        .collect();
    (safe, nodes)
}

/// Whether the root action `index` lets the opponent reply with a threat that no action
/// parries: a reply after which every action of the side to move at the root lets the
/// opponent win at once (an Atomic knight landing next to the king where nothing can take
/// it, block or step away). Also the positions visited to find out.
fn allows_forced_win<P: Position>(root: &P, index: usize) -> (bool, u64) {
    let me = root.turn();
    let mut nodes = 1u64;
    let mut after = root.clone();
    after.play_unchecked(&root.legal_actions()[index]);
    let (mut replies, mut scratch) = (Vec::new(), Vec::new());
    after.legal_actions_into(&mut replies);
    let forced = replies.iter().any(|reply| {
        nodes += 1;
        let mut next = after.clone();
        next.play_unchecked(reply);
        next.variant_outcome().is_none()
            && every_action_loses_at_once(&next, me, &mut nodes, &mut scratch)
    });
    (forced, nodes)
}

/// Whether `me`, to move in `pos`, has actions and every one of them lets the opponent win
/// at once. Stops at the first action that does not, which is usually the first one tried.
fn every_action_loses_at_once<P: Position>(
    pos: &P,
    me: Color,
    nodes: &mut u64,
    scratch: &mut Vec<P::Action>,
) -> bool {
    let mut ours = Vec::new();
    pos.legal_actions_into(&mut ours);
    !ours.is_empty()
        && ours.iter().all(|action| {
            *nodes += 1;
            let mut after = pos.clone();
            after.play_unchecked(action);
            if after.variant_outcome().is_some() {
                return false;
            }
            opponent_wins_at_once(&after, me, nodes, scratch)
        })
}

/// Whether the side to move in `pos`, `me`'s opponent, has an action that wins at once;
/// `replies` is a buffer for its actions.
fn opponent_wins_at_once<P: Position>(
    pos: &P,
    me: Color,
    nodes: &mut u64,
    replies: &mut Vec<P::Action>,
) -> bool {
    pos.legal_actions_into(replies);
    replies.iter().any(|reply| {
        *nodes += 1;
        let mut next = pos.clone();
        next.play_unchecked(reply);
        next.variant_outcome()
            .is_some_and(|o| o.winner.is_some_and(|w| w != me))
    })
}
