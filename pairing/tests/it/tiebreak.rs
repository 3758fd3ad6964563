//! Standings and tie-breaks (FIDE Handbook C.07, version in force from 1 September 2023),
//! every value computed by hand in the comments.

use kaboom_pairing::tiebreak::{TieBreakValue, is_round_robin, standings_with};
use kaboom_pairing::trf::{Colour, GameResult, Player, RoundRecord, Tournament};
use kaboom_pairing::{Score, TieBreak, standings};

/// A tournament from compact records: per player, per round `(opponent, colour, code)`,
/// opponent 0 for none, colour `'w'`, `'b'` or `'-'`.
fn tournament(records: &[&[(u32, char, char)]]) -> Tournament {
    let players = records
        .iter()
        .enumerate()
        .map(|(index, rounds)| {
            let mut player = Player::new(index as u32 + 1, &format!("P{}", index + 1), 0);
            player.games = rounds
                .iter()
                .map(|&(opponent, colour, code)| RoundRecord {
                    opponent: (opponent != 0).then_some(opponent),
                    colour: match colour {
                        'w' => Some(Colour::White),
                        'b' => Some(Colour::Black),
                        _ => None,
                    },
                    result: GameResult::from_code(code).unwrap(),
                })
                .collect();
            player
        })
        .collect();
    let mut tournament = Tournament {
        players,
        ..Tournament::default()
    };
    for index in 0..tournament.players.len() {
        tournament.players[index].points = tournament.points_after(&tournament.players[index], 3);
    }
    tournament
}

fn values(table: &[kaboom_pairing::Standing], start_rank: u32) -> Vec<Option<f64>> {
    let standing = table.iter().find(|s| s.start_rank == start_rank).unwrap();
    standing
        .tie_breaks
        .iter()
        .map(|TieBreakValue { value, .. }| *value)
        .collect()
}

/// Five players, three rounds, with a pairing-allocated bye every round, a forfeit (2 beat
/// 4 by forfeit in round 2) and a half-point bye (5 in round 3). Final scores: 1: 1.5,
/// 2: 2.5, 3: 2.0, 4: 0.5, 5: 2.0.
fn swiss() -> Tournament {
    tournament(&[
        &[(4, 'w', '1'), (3, 'b', '='), (2, 'w', '0')],
        &[(5, 'w', '='), (4, 'w', '+'), (1, 'b', '1')],
        &[(0, '-', 'U'), (1, 'w', '='), (4, 'w', '=')],
        &[(1, 'b', '0'), (2, 'b', '-'), (3, 'b', '=')],
        &[(2, 'b', '='), (0, '-', 'U'), (0, '-', 'H')],
    ])
}

#[test]
fn swiss_buchholz_counts_own_score_for_unplayed_rounds() {
    let tournament = swiss();
    assert!(!is_round_robin(&tournament));
    let table = standings(&tournament);
    // [Buchholz Cut-1, Buchholz, Sonneborn-Berger]
    // 1: opponents 4 (0.5), 3 (2.0), 2 (2.5): BH 5.0, cut 0.5 → 4.5; SB 1×0.5 + ½×2.0 = 1.5.
    assert_eq!(values(&table, 1), [Some(4.5), Some(5.0), Some(1.5)]);
    // 2: 5 (2.0), forfeit win = unplayed → own 2.5, 1 (1.5): BH 6.0, cut 1.5 → 4.5;
    //    SB ½×2.0 + 1×2.5 + 1×1.5 = 5.0.
    assert_eq!(values(&table, 2), [Some(4.5), Some(6.0), Some(5.0)]);
    // 3: bye → own 2.0, 1 (1.5), 4 (0.5): BH 4.0, cut 0.5 → 3.5; SB 1×2.0 + ½×1.5 + ½×0.5 = 3.0.
    assert_eq!(values(&table, 3), [Some(3.5), Some(4.0), Some(3.0)]);
    // 4: 1 (1.5), forfeit loss → own 0.5 (voluntarily unplayed, cut first), 3 (2.0):
    //    BH 4.0, cut 0.5 → 3.5; SB ½×2.0 = 1.0.
    assert_eq!(values(&table, 4), [Some(3.5), Some(4.0), Some(1.0)]);
    // 5: 2 (2.5), bye → own 2.0, half-point bye → own 2.0 (voluntary, cut first):
    //    BH 6.5, cut 2.0 → 4.5; SB ½×2.5 + 1×2.0 + ½×2.0 = 4.25.
    assert_eq!(values(&table, 5), [Some(4.5), Some(6.5), Some(4.25)]);
    // 3 and 5 tie on 2.0 points; 5's Buchholz Cut-1 is higher.
    let order: Vec<(u32, u32, Score)> = table
        .iter()
        .map(|s| (s.rank, s.start_rank, s.points))
        .collect();
    assert_eq!(
        order,
        [
            (1, 2, Score(25)),
            (2, 5, Score(20)),
            (3, 3, Score(20)),
            (4, 1, Score(15)),
            (5, 4, Score(5))
        ]
    );
}

/// Four players, single round-robin by the Berger table of 4 (1-4 2-3 / 4-3 1-2 / 2-4 3-1):
/// 1 beat 4, 2-3 drawn; 4 beat 3, 2 beat 1; 4 beat 2, 3-1 drawn. Scores 1: 1.5, 2: 1.5,
/// 3: 1.0, 4: 2.0.
fn round_robin() -> Tournament {
    tournament(&[
        &[(4, 'w', '1'), (2, 'w', '0'), (3, 'b', '=')],
        &[(3, 'w', '='), (1, 'b', '1'), (4, 'w', '0')],
        &[(2, 'b', '='), (4, 'b', '0'), (1, 'w', '=')],
        &[(1, 'b', '0'), (3, 'w', '1'), (2, 'b', '1')],
    ])
}

#[test]
fn round_robin_ranks_by_direct_encounter_first() {
    let tournament = round_robin();
    assert!(is_round_robin(&tournament));
    let table = standings(&tournament);
    // [direct encounter, Sonneborn-Berger, wins]
    // 4 is alone on 2.0: no direct encounter. SB 1×1.0 (3) + 1×1.5 (2) = 2.5; 2 wins.
    assert_eq!(values(&table, 4), [None, Some(2.5), Some(2.0)]);
    // 1 and 2 tie on 1.5 and met: 2 won. SB(1) = 1×2.0 + ½×1.0 = 2.5, SB(2) = ½×1.0 + 1×1.5 = 2.0.
    assert_eq!(values(&table, 2), [Some(1.0), Some(2.0), Some(1.0)]);
    assert_eq!(values(&table, 1), [Some(0.0), Some(2.5), Some(1.0)]);
    // 3: SB ½×1.5 + ½×1.5 = 1.5, no wins.
    assert_eq!(values(&table, 3), [None, Some(1.5), Some(0.0)]);
    let order: Vec<(u32, u32)> = table.iter().map(|s| (s.rank, s.start_rank)).collect();
    assert_eq!(order, [(1, 4), (2, 2), (3, 1), (4, 3)]);
}

#[test]
fn tied_players_who_have_not_all_met_get_no_direct_encounter() {
    // Swiss tie-breaks chosen explicitly, plus direct encounter: 3 and 5 (2.0 each) never met.
    let table = standings_with(&swiss(), &[TieBreak::DirectEncounter, TieBreak::Wins]);
    assert_eq!(values(&table, 3), [None, Some(1.0)]);
    assert_eq!(values(&table, 5), [None, Some(1.0)]);
}

#[test]
fn players_equal_on_everything_share_a_place() {
    // Two players drew their only game.
    let tournament = tournament(&[&[(2, 'w', '=')], &[(1, 'b', '=')]]);
    let table = standings_with(&tournament, &[TieBreak::Buchholz]);
    let ranks: Vec<(u32, u32)> = table.iter().map(|s| (s.rank, s.start_rank)).collect();
    assert_eq!(ranks, [(1, 1), (1, 2)]);
}

#[test]
fn standings_serialize_to_the_documented_json_shape() {
    let table = standings(&round_robin());
    let json = serde_json::to_value(&table[0]).unwrap();
    assert_eq!(
        json,
        serde_json::json!({
            "rank": 1,
            "start_rank": 4,
            "name": "P4",
            "points": 2.0,
            "tie_breaks": [
                {"tie_break": "direct_encounter", "value": null},
                {"tie_break": "sonneborn_berger", "value": 2.5},
                {"tie_break": "wins", "value": 2.0}
            ]
        })
    );
}

/// [`swiss`] with the pairing-allocated bye worth ½ point (JaVaFo's `XXS PAB=0.5`). Final
/// scores: 1: 1.5, 2: 2.5, 3: 1.5 (bye ½, two draws), 4: 0.5, 5: 1.5 (draw, bye ½,
/// half-point bye).
#[test]
fn a_half_point_pab_scores_half_a_point_in_every_tie_break() {
    let mut tournament = swiss();
    tournament.pab_points = Score::DRAW;
    let table = standings_with(
        &tournament,
        &[
            TieBreak::BuchholzCut1,
            TieBreak::Buchholz,
            TieBreak::SonnebornBerger,
            TieBreak::Wins,
        ],
    );
    // [Buchholz Cut-1, Buchholz, Sonneborn-Berger, wins]
    // 1: opponents 4 (0.5), 3 (1.5), 2 (2.5): BH 4.5, cut 0.5 → 4.0;
    //    SB 1×0.5 + ½×1.5 = 1.25; one win.
    assert_eq!(
        values(&table, 1),
        [Some(4.0), Some(4.5), Some(1.25), Some(1.0)]
    );
    // 2: 5 (1.5), forfeit win → own 2.5, 1 (1.5): BH 5.5, cut 1.5 → 4.0;
    //    SB ½×1.5 + 1×2.5 + 1×1.5 = 4.75; two wins (the forfeit counts).
    assert_eq!(
        values(&table, 2),
        [Some(4.0), Some(5.5), Some(4.75), Some(2.0)]
    );
    // 3: bye → own 1.5 (not voluntary: not cut first), 1 (1.5), 4 (0.5): BH 3.5, cut 0.5
    //    → 3.0; SB ½×1.5 (the bye's ½ point) + ½×1.5 + ½×0.5 = 1.75; the bye is no win.
    assert_eq!(
        values(&table, 3),
        [Some(3.0), Some(3.5), Some(1.75), Some(0.0)]
    );
    // 4: 1 (1.5), forfeit loss → own 0.5 (voluntary, cut first), 3 (1.5): BH 3.5,
    //    cut 0.5 → 3.0; SB ½×1.5 = 0.75.
    assert_eq!(
        values(&table, 4),
        [Some(3.0), Some(3.5), Some(0.75), Some(0.0)]
    );
    // 5: 2 (2.5), bye → own 1.5, half-point bye → own 1.5 (voluntary, cut first):
    //    BH 5.5, cut 1.5 → 4.0; SB ½×2.5 + ½×1.5 + ½×1.5 = 2.75.
    assert_eq!(
        values(&table, 5),
        [Some(4.0), Some(5.5), Some(2.75), Some(0.0)]
    );
    // 1, 3 and 5 tie on 1.5: 3 has the lowest Cut-1; 5 beats 1 on Buchholz.
    let order: Vec<(u32, u32, Score)> = table
        .iter()
        .map(|s| (s.rank, s.start_rank, s.points))
        .collect();
    assert_eq!(
        order,
        [
            (1, 2, Score(25)),
            (2, 5, Score(15)),
            (3, 1, Score(15)),
            (4, 3, Score(15)),
            (5, 4, Score(5))
        ]
    );
}
