//! One table-driven perft driver for the five variants (C-7), after shakmaty's
//! `tests/perft.rs`: every `rules/tests/data/*.perft` file, every count up to the file's
//! node limit. `atomic.perft` is the published reference data (AT-1..AT-9, its three
//! Chess960 positions included, AT-8); `beirut.perft` holds the published chess counts with
//! no carrier left (BE-1) plus our regression counts; `nuke.perft`, `bomberman.perft` and
//! `bombalot.perft` are regression data produced by our own code (see each file's header;
//! docs/ARCHITECTURE.md, "Test data").

use kaboom_rules::Position;
use kaboom_rules::atomic::Atomic;
use kaboom_rules::beirut::Beirut;
use kaboom_rules::bombalot::Bombalot;
use kaboom_rules::bomberman::Bomberman;
use kaboom_rules::nuke::Nuke;

use crate::perft_file::{PerftCase, PerftMismatch, check_cases, parse_perft_file};

/// C-7: "The test suite checks every reference count up to 2,000,000 nodes."
const NODE_LIMIT: u64 = 2_000_000;

/// How many counts a file must have checked.
#[derive(Debug)]
enum Checked {
    AtLeast(usize),
    Exactly(usize),
}

type Checker = fn(&[PerftCase], u64) -> Result<(Vec<PerftMismatch>, usize), kaboom_rules::FenError>;

struct PerftFile {
    name: &'static str,
    text: &'static str,
    check: Checker,
    node_limit: u64,
    min_cases: usize,
    checked: Checked,
}

fn checker<P: Position>() -> Checker {
    check_cases::<P>
}

fn files() -> Vec<PerftFile> {
    vec![
        PerftFile {
            name: "atomic.perft",
            text: include_str!("../data/atomic.perft"),
            check: checker::<Atomic>(),
            node_limit: NODE_LIMIT,
            min_cases: 1,
            checked: Checked::AtLeast(1),
        },
        // BE-1: with no carrier left (`1 - -`) Beirut is standard chess: the published
        // chess counts hold. BE-1..BE-10 with carriers: our regression counts.
        PerftFile {
            name: "beirut.perft",
            text: include_str!("../data/beirut.perft"),
            check: checker::<Beirut>(),
            node_limit: NODE_LIMIT,
            min_cases: 7,
            checked: Checked::AtLeast(20),
        },
        // Our own numbers (no second Nuke implementation exists). All of `nuke.perft` is
        // checked: depth 4 of the start position is 215,658,708 nodes, about 5 s with
        // opt-level 3.
        PerftFile {
            name: "nuke.perft",
            text: include_str!("../data/nuke.perft"),
            check: checker::<Nuke>(),
            node_limit: 250_000_000,
            min_cases: 3,
            checked: Checked::Exactly(16),
        },
        PerftFile {
            name: "bomberman.perft",
            text: include_str!("../data/bomberman.perft"),
            check: checker::<Bomberman>(),
            node_limit: NODE_LIMIT,
            min_cases: 1,
            checked: Checked::Exactly(16),
        },
        PerftFile {
            name: "bombalot.perft",
            text: include_str!("../data/bombalot.perft"),
            check: checker::<Bombalot>(),
            node_limit: NODE_LIMIT,
            min_cases: 1,
            checked: Checked::AtLeast(13),
        },
    ]
}

/// C-7 for all five variants: every count of every perft file up to its node limit.
#[test]
fn perft_files() {
    for file in files() {
        let name = file.name;
        let cases = parse_perft_file(file.text).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert!(
            cases.len() >= file.min_cases,
            "{name} has {} cases",
            cases.len()
        );
        let (mismatches, checked) =
            (file.check)(&cases, file.node_limit).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert!(mismatches.is_empty(), "{name}: {mismatches:#?}");
        match file.checked {
            Checked::AtLeast(n) => assert!(checked >= n, "{name}: only {checked} counts checked"),
            Checked::Exactly(n) => assert_eq!(
                checked, n,
                "{name}: every count up to {} nodes",
                file.node_limit
            ),
        }
    }
}

/// The Bomberman file goes to depth 4 from the start position (C-7).
#[test]
fn bomberman_perft_file_reaches_depth_4_from_the_start() {
    let cases = parse_perft_file(include_str!("../data/bomberman.perft")).unwrap();
    assert!(
        cases
            .iter()
            .any(|c| c.id == "start" && c.counts.iter().any(|&(depth, _)| depth == 4))
    );
}

/// `kaboom_rules::perft::perft` is [`Position::perft`] (C-7: depth 0 counts 1).
#[test]
fn library_perft_counts_the_start_positions() {
    let atomic = Atomic::new();
    assert_eq!(kaboom_rules::perft::perft(&atomic, 0), 1);
    assert_eq!(kaboom_rules::perft::perft(&atomic, 2), atomic.perft(2));
    assert_eq!(atomic.perft(1), 20);
}
