//! The transposition table: scores of positions already searched, keyed by the rules
//! crate's position hash ([`kaboom_rules::Position::repetition_key`]).

/// What a stored score says about the true score.
#[derive(Copy, Clone, Debug, Eq, PartialEq)]
pub(crate) enum Bound {
    /// The true score.
    Exact,
    /// The true score is at least this (a beta cut-off).
    Lower,
    /// The true score is at most this (no action raised alpha).
    Upper,
}

/// One slot: the full key (to tell collisions apart), the depth searched in plies, the
/// score in centipawns (mate scores relative to the node) and the best action as an index
/// into the position's canonical legal-action list.
#[derive(Copy, Clone, Debug)]
pub(crate) struct Entry {
    key: u64,
    pub depth: i32,
    pub score: i32,
    pub bound: Bound,
    pub best: Option<u16>,
}

/// A fixed-size table with depth-preferred replacement in one slot per key.
pub(crate) struct TranspositionTable {
    slots: Vec<Option<Entry>>,
}

impl TranspositionTable {
    /// A table of `entries` slots (at least 1; about 24 bytes each).
    pub fn new(entries: usize) -> TranspositionTable {
        TranspositionTable {
            slots: vec![None; entries.max(1)],
        }
    }

    fn slot(&self, key: u64) -> usize {
        (key % self.slots.len() as u64) as usize
    }

    /// The entry stored for `key`, if its slot still holds it.
    pub fn probe(&self, key: u64) -> Option<Entry> {
        self.slots[self.slot(key)].filter(|e| e.key == key)
    }

    /// Stores a result, replacing the slot's entry unless that one is for another position
    /// and was searched deeper.
    pub fn store(&mut self, key: u64, depth: i32, score: i32, bound: Bound, best: Option<u16>) {
        let slot = self.slot(key);
        if let Some(old) = self.slots[slot]
            && old.key != key
            && old.depth > depth
        {
            return;
        }
        self.slots[slot] = Some(Entry {
            key,
            depth,
            score,
            bound,
            best,
        });
    }
}
