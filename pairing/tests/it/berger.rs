//! Round-robin pairings against the FIDE Berger tables (FIDE Handbook C.05, Annex 1).

use kaboom_pairing::berger::{
    BergerError, Cycles, berger_round, round_count, round_robin_pairings,
};
use kaboom_pairing::{Pair, Pairings, System, pair_trf};

/// The Berger tables of FIDE Handbook C.05 Annex 1 ("Berger Tables for Round-Robin
/// Tournaments"), one line per round, board by board, `white-black`. Transcribed from the
/// handbook's tables as reproduced at <http://c.w.fox.tripod.com/chess/berger.html> and in
/// the "Crenshaw-Berger Tables" sheet (scribd 381712253), which agree with each other.
/// An odd number of players `n` uses the table of `n + 1` (the last number is the bye).
const HANDBOOK_TABLES: [(u32, &str); 6] = [
    (4, "1-4 2-3 / 4-3 1-2 / 2-4 3-1"),
    (
        6,
        "1-6 2-5 3-4 / 6-4 5-3 1-2 / 2-6 3-1 4-5 / 6-5 1-4 2-3 / 3-6 4-2 5-1",
    ),
    (
        8,
        "1-8 2-7 3-6 4-5 / 8-5 6-4 7-3 1-2 / 2-8 3-1 4-7 5-6 / 8-6 7-5 1-4 2-3 / 3-8 4-2 5-1 6-7 / \
         8-7 1-6 2-5 3-4 / 4-8 5-3 6-2 7-1",
    ),
    (
        10,
        "1-10 2-9 3-8 4-7 5-6 / 10-6 7-5 8-4 9-3 1-2 / 2-10 3-1 4-9 5-8 6-7 / 10-7 8-6 9-5 1-4 2-3 / \
         3-10 4-2 5-1 6-9 7-8 / 10-8 9-7 1-6 2-5 3-4 / 4-10 5-3 6-2 7-1 8-9 / 10-9 1-8 2-7 3-6 4-5 / \
         5-10 6-4 7-3 8-2 9-1",
    ),
    (
        12,
        "1-12 2-11 3-10 4-9 5-8 6-7 / 12-7 8-6 9-5 10-4 11-3 1-2 / 2-12 3-1 4-11 5-10 6-9 7-8 / \
         12-8 9-7 10-6 11-5 1-4 2-3 / 3-12 4-2 5-1 6-11 7-10 8-9 / 12-9 10-8 11-7 1-6 2-5 3-4 / \
         4-12 5-3 6-2 7-1 8-11 9-10 / 12-10 11-9 1-8 2-7 3-6 4-5 / 5-12 6-4 7-3 8-2 9-1 10-11 / \
         12-11 1-10 2-9 3-8 4-7 5-6 / 6-12 7-5 8-4 9-3 10-2 11-1",
    ),
    (
        14,
        "1-14 2-13 3-12 4-11 5-10 6-9 7-8 / 14-8 9-7 10-6 11-5 12-4 13-3 1-2 / \
         2-14 3-1 4-13 5-12 6-11 7-10 8-9 / 14-9 10-8 11-7 12-6 13-5 1-4 2-3 / \
         3-14 4-2 5-1 6-13 7-12 8-11 9-10 / 14-10 11-9 12-8 13-7 1-6 2-5 3-4 / \
         4-14 5-3 6-2 7-1 8-13 9-12 10-11 / 14-11 12-10 13-9 1-8 2-7 3-6 4-5 / \
         5-14 6-4 7-3 8-2 9-1 10-13 11-12 / 14-12 13-11 1-10 2-9 3-8 4-7 5-6 / \
         6-14 7-5 8-4 9-3 10-2 11-1 12-13 / 14-13 1-12 2-11 3-10 4-9 5-8 6-7 / \
         7-14 8-6 9-5 10-4 11-3 12-2 13-1",
    ),
];

fn parse_table(text: &str) -> Vec<Vec<(u32, u32)>> {
    text.split('/')
        .map(|round| {
            round
                .split_whitespace()
                .map(|game| {
                    let (white, black) = game.split_once('-').unwrap();
                    (white.parse().unwrap(), black.parse().unwrap())
                })
                .collect()
        })
        .collect()
}

#[test]
fn tables_for_3_to_14_players_are_the_handbooks() {
    for players in 3..=14u32 {
        let size = players + players % 2;
        let (_, text) = HANDBOOK_TABLES.iter().find(|(n, _)| *n == size).unwrap();
        let expected = parse_table(text);
        assert_eq!(expected.len() as u32, size - 1);
        for (index, expected_round) in expected.iter().enumerate() {
            let round = index as u32 + 1;
            assert_eq!(
                &berger_round(players, round).unwrap(),
                expected_round,
                "{players} players, round {round}"
            );
        }
    }
}

/// The handbook's rule for 15 and 16 players (C.05 Annex 1, the same construction as the
/// smaller tables): round 1 is 1-16, 2-15, ..., 8-9; each later round puts 16 on board 1
/// against the player `a` with 2a ≡ r + 1 (mod 15), White in even rounds.
#[test]
fn tables_for_15_and_16_players_follow_the_handbooks_rule() {
    let table: Vec<Vec<(u32, u32)>> = (1..=15)
        .map(|round| berger_round(16, round).unwrap())
        .collect();
    assert_eq!(
        table[0],
        [
            (1, 16),
            (2, 15),
            (3, 14),
            (4, 13),
            (5, 12),
            (6, 11),
            (7, 10),
            (8, 9)
        ]
    );
    assert_eq!(
        table[1],
        [
            (16, 9),
            (10, 8),
            (11, 7),
            (12, 6),
            (13, 5),
            (14, 4),
            (15, 3),
            (1, 2)
        ]
    );
    assert_eq!(
        table[2],
        [
            (2, 16),
            (3, 1),
            (4, 15),
            (5, 14),
            (6, 13),
            (7, 12),
            (8, 11),
            (9, 10)
        ]
    );
    assert_eq!(
        table[14],
        [
            (8, 16),
            (9, 7),
            (10, 6),
            (11, 5),
            (12, 4),
            (13, 3),
            (14, 2),
            (15, 1)
        ]
    );
    assert_eq!(berger_round(15, 7).unwrap(), berger_round(16, 7).unwrap());
}

/// The construction in general (C.05 Annex 1): for every even size up to 40, each cycle
/// pairs every two players exactly once, everybody plays every round, player `n` alternates
/// colours (Black in round 1), and round 1 is `1-n, 2-(n-1), ...`.
#[test]
fn construction_rule_holds_for_every_even_size_up_to_40() {
    for n in (2..=40u32).step_by(2) {
        let mut met = vec![vec![0u32; n as usize + 1]; n as usize + 1];
        for round in 1..n {
            let boards = berger_round(n, round).unwrap();
            assert_eq!(boards.len() as u32, n / 2);
            let mut seen = vec![false; n as usize + 1];
            for &(white, black) in &boards {
                assert!(
                    !seen[white as usize] && !seen[black as usize],
                    "n {n} round {round}"
                );
                seen[white as usize] = true;
                seen[black as usize] = true;
                met[white as usize][black as usize] += 1;
                met[black as usize][white as usize] += 1;
            }
            let (white, black) = boards[0];
            assert!(white == n || black == n);
            assert_eq!(white == n, round % 2 == 0, "n {n} round {round}");
        }
        for (a, row) in met.iter().enumerate().skip(1) {
            for (b, &count) in row.iter().enumerate().skip(1) {
                assert_eq!(count, u32::from(a != b), "n {n}: {a} and {b}");
            }
        }
        let first: Vec<(u32, u32)> = (1..=n / 2).map(|k| (k, n + 1 - k)).collect();
        assert_eq!(berger_round(n, 1).unwrap(), first);
    }
}

#[test]
fn odd_field_gives_the_dummys_opponent_a_bye() {
    // 5 players use the table of 6; round 1 is 1-6 2-5 3-4, so 1 sits out.
    let round1 = round_robin_pairings(5, 1, Cycles::Single).unwrap();
    assert_eq!(
        round1.pairs,
        [Pair { white: 2, black: 5 }, Pair { white: 3, black: 4 }]
    );
    assert_eq!(round1.byes, [1]);
    assert_eq!(round1.to_string(), "3\n2 5\n3 4\n1 0\n");
    // Over the cycle everybody has exactly one bye.
    let mut byes: Vec<u32> = (1..=5)
        .flat_map(|round| round_robin_pairings(5, round, Cycles::Single).unwrap().byes)
        .collect();
    byes.sort_unstable();
    assert_eq!(byes, [1, 2, 3, 4, 5]);
}

#[test]
fn double_round_robin_reverses_colours_in_the_second_cycle() {
    assert_eq!(round_count(4, Cycles::Double), Ok(6));
    assert_eq!(round_count(5, Cycles::Double), Ok(10));
    let first = round_robin_pairings(4, 2, Cycles::Double).unwrap();
    let second = round_robin_pairings(4, 5, Cycles::Double).unwrap();
    assert_eq!(
        first.pairs,
        [Pair { white: 4, black: 3 }, Pair { white: 1, black: 2 }]
    );
    assert_eq!(
        second.pairs,
        [Pair { white: 3, black: 4 }, Pair { white: 2, black: 1 }]
    );
}

#[test]
fn rounds_outside_the_tournament_are_errors() {
    assert_eq!(
        round_robin_pairings(4, 4, Cycles::Single),
        Err(BergerError::NoSuchRound {
            round: 4,
            rounds: 3
        })
    );
    assert_eq!(
        round_robin_pairings(4, 0, Cycles::Single),
        Err(BergerError::NoSuchRound {
            round: 0,
            rounds: 3
        })
    );
    assert_eq!(
        round_robin_pairings(1, 1, Cycles::Single),
        Err(BergerError::TooFewPlayers { players: 1 })
    );
    assert_eq!(
        berger_round(8, 8),
        Err(BergerError::NoSuchRound {
            round: 8,
            rounds: 7
        })
    );
}

#[test]
fn pair_trf_with_berger_pairs_the_round_after_the_last_paired_one() {
    // Four players, round 1 (1-4, 2-3) played: round 2 is 4-3, 1-2.
    let trf = "\
001    1      A                                                                               4 w 1
001    2      B                                                                               3 w =
001    3      C                                                                               2 b =
001    4      D                                                                               1 b 0
";
    let pairings = pair_trf(trf, System::Berger).unwrap();
    assert_eq!(
        pairings,
        Pairings {
            pairs: vec![Pair { white: 4, black: 3 }, Pair { white: 1, black: 2 }],
            byes: vec![]
        }
    );
    assert_eq!(pairings.to_string(), "2\n4 3\n1 2\n");
}
