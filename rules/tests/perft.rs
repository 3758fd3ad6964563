//! One generic driver for the `*.perft` files (C-7): every count up to the node limit.

use kaboom_rules::Position;
use kaboom_rules::atomic::Atomic;
use kaboom_rules::perft::{check_cases, parse_perft_file};

/// C-7: "The test suite checks every reference count up to 2,000,000 nodes."
const NODE_LIMIT: u64 = 2_000_000;

fn check<P: Position>(file: &str, text: &str) {
    let cases = parse_perft_file(text).unwrap_or_else(|e| panic!("{file}: {e}"));
    assert!(!cases.is_empty(), "{file} has no cases");
    let (mismatches, checked) =
        check_cases::<P>(&cases, NODE_LIMIT).unwrap_or_else(|e| panic!("{file}: {e}"));
    assert!(checked > 0, "{file}: no count under the node limit");
    assert!(mismatches.is_empty(), "{file}: {mismatches:#?}");
}

/// AT-1..AT-9 against the shared reference data, the three Chess960 castling positions
/// (AT-8 with rook files in FEN) included.
#[test]
fn atomic_reference_perft() {
    check::<Atomic>("atomic.perft", include_str!("data/atomic.perft"));
}
