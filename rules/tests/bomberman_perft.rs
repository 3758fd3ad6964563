//! perft of Bomberman Chess positions (C-7) against `bomberman.perft`, regression data
//! produced by our own code (see the file's header).

use kaboom_rules::bomberman::Bomberman;
use kaboom_rules::perft::{check_cases, parse_perft_file};

/// C-7: every count up to this many nodes is checked.
const NODE_LIMIT: u64 = 2_000_000;

#[test]
fn bomberman_perft_matches_regression_counts() {
    let cases = parse_perft_file(include_str!("bomberman.perft")).unwrap();
    assert!(
        cases
            .iter()
            .any(|c| c.id == "start" && c.counts.iter().any(|&(depth, _)| depth == 4))
    );
    let (mismatches, checked) = check_cases::<Bomberman>(&cases, NODE_LIMIT).unwrap();
    assert!(mismatches.is_empty(), "{mismatches:#?}");
    assert_eq!(checked, 16, "every count up to {NODE_LIMIT} nodes");
}
