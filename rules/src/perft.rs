//! Counting the legal-action tree (C-7). Reading perft reference files is test code
//! (`rules/tests/it/perft_file.rs`); this module only counts.

use crate::Position;

/// The number of leaf nodes of `position`'s legal-action tree `depth` plies deep (C-7):
/// [`Position::perft`]. Automatic draws (C-4, AT-9) are ignored, a finished position has no
/// actions, and `depth` 0 counts 1.
pub fn perft<P: Position>(position: &P, depth: u32) -> u64 {
    position.perft(depth)
}
