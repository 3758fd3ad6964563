//! Standings with the tie-breaks of the FIDE Tie-Break Regulations (FIDE Handbook C.07,
//! the version in force from 1 September 2023, for all FIDE-rated events from 1 April 2024).
//!
//! ```
//! use kaboom_pairing::{standings, trf, Score, TieBreak};
//!
//! // A three-player round-robin: 1 beat 2, 2 beat 3, 3 drew with 1 (byes score 0).
//! let text = "\
//! 001    1      Alice                                                                           2 w 1     3 b =  0000 - Z
//! 001    2      Bob                                                                             1 b 0  0000 - Z     3 w 1
//! 001    3      Carol                                                                        0000 - Z     1 w =     2 b 0
//! ";
//! let table = standings(&trf::parse(text).unwrap());
//! assert_eq!(table[0].name, "Alice");
//! assert_eq!(table[0].points, Score(15));
//! // A round-robin is ranked by direct encounter, Sonneborn-Berger, then wins.
//! assert_eq!(table[0].tie_breaks[1].tie_break, TieBreak::SonnebornBerger);
//! // Alice beat Bob (1.0 point in all) and drew with Carol (0.5): 1 × 1.0 + ½ × 0.5.
//! assert_eq!(table[0].tie_breaks[1].value, Some(1.25));
//! ```
//!
//! # JSON shape
//!
//! [`Standing`] serializes (serde) as
//! `{"rank": 1, "start_rank": 1, "name": "Alice", "points": 1.5,
//!   "tie_breaks": [{"tie_break": "direct_encounter", "value": null}, ...]}`;
//! points and tie-break values are JSON numbers of points, `null` where a tie-break does not
//! apply (direct encounter when the tied players have not all met).
//!
//! # Unplayed rounds (C.07, article 16 "Unplayed rounds")
//!
//! A round without a game over the board (byes, forfeits, absences) counts, for the player's
//! own Buchholz and Sonneborn-Berger, as a game against a dummy opponent whose score is the
//! player's own final score (the 2023 rule; the older "virtual opponent" of the 2009
//! Swiss Pairings Programs Committee is not used). Opponents' scores are their actual
//! scores. A low cut (Cut-1) removes first a voluntarily unplayed round (half-point bye,
//! zero-point bye, forfeit loss, not paired), then the least significant value. The
//! pairing-allocated bye (`U`) is not voluntary, whatever it is worth
//! ([`Tournament::pab_points`]): its Sonneborn-Berger value is the player's own score times
//! those points.

use crate::Score;
use crate::trf::{GameResult, Player, RoundRecord, Tournament};

/// A tie-break of C.07.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum TieBreak {
    /// Direct encounter (C.07 article 6): points scored in the games between the tied
    /// players, when all of them have met each other; otherwise not applied (`None`).
    DirectEncounter,
    /// Sonneborn-Berger (C.07 article 9): the sum, over the rounds, of each opponent's score
    /// times the points scored against that opponent.
    SonnebornBerger,
    /// Number of wins (C.07 article 7, WIN): rounds in which the player obtained the points
    /// of a win, played or not (wins, forfeit wins, full-point byes, and pairing-allocated
    /// byes when [`Tournament::pab_points`] is one point).
    Wins,
    /// Buchholz Cut-1 (C.07 articles 8 and 14): Buchholz without its least significant value.
    BuchholzCut1,
    /// Buchholz (C.07 article 8): the sum of the opponents' scores.
    Buchholz,
}

impl TieBreak {
    /// The tie-breaks recommended for round-robins, in order: direct encounter,
    /// Sonneborn-Berger, number of wins.
    pub const ROUND_ROBIN: [TieBreak; 3] = [
        TieBreak::DirectEncounter,
        TieBreak::SonnebornBerger,
        TieBreak::Wins,
    ];
    /// The tie-breaks for Swiss tournaments, in order: Buchholz Cut-1, Buchholz,
    /// Sonneborn-Berger.
    pub const SWISS: [TieBreak; 3] = [
        TieBreak::BuchholzCut1,
        TieBreak::Buchholz,
        TieBreak::SonnebornBerger,
    ];
}

/// One tie-break value of a [`Standing`].
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct TieBreakValue {
    /// Which tie-break.
    pub tie_break: TieBreak,
    /// Its value: points for Buchholz, Sonneborn-Berger and direct encounter (exact: a
    /// multiple of 0.01), a count for wins; `None` where it does not apply.
    pub value: Option<f64>,
}

/// One line of the standings.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Standing {
    /// The place, 1 for the first; players equal on points and every tie-break share a place.
    pub rank: u32,
    /// The player's starting rank (TRF columns 5-8).
    pub start_rank: u32,
    /// The player's name.
    pub name: String,
    /// Points from the games recorded ([`Tournament::points_of`]: win 1, draw ½, the
    /// pairing-allocated bye [`Tournament::pab_points`]).
    pub points: Score,
    /// The tie-break values, in order of application.
    pub tie_breaks: Vec<TieBreakValue>,
}

/// Whether the tournament is a round-robin: every player meets every other player, so the
/// number of rounds (`XXR`, else the paired rounds) is a whole number of Berger cycles
/// (C.05 Annex 1) for its number of players.
#[must_use]
pub fn is_round_robin(tournament: &Tournament) -> bool {
    let players = tournament.players.len() as u32;
    if players < 2 {
        return false;
    }
    let rounds = tournament
        .planned_rounds
        .unwrap_or_else(|| tournament.paired_rounds());
    let per_cycle = crate::berger::table_size(players) - 1;
    rounds == per_cycle || rounds == 2 * per_cycle
}

/// The standings of `tournament` with the tie-breaks of its kind: [`TieBreak::ROUND_ROBIN`]
/// if [`is_round_robin`], else [`TieBreak::SWISS`].
#[must_use]
pub fn standings(tournament: &Tournament) -> Vec<Standing> {
    if is_round_robin(tournament) {
        standings_with(tournament, &TieBreak::ROUND_ROBIN)
    } else {
        standings_with(tournament, &TieBreak::SWISS)
    }
}

/// The standings of `tournament` ranked by points, then by `tie_breaks` in order, then by
/// starting rank; all rounds recorded in the file count.
#[must_use]
pub fn standings_with(tournament: &Tournament, tie_breaks: &[TieBreak]) -> Vec<Standing> {
    let rounds = tournament
        .players
        .iter()
        .map(|player| player.games.len())
        .max()
        .unwrap_or(0) as u32;
    let points = |start_rank: u32| {
        tournament.player(start_rank).map_or(Score::ZERO, |player| {
            tournament.points_after(player, rounds)
        })
    };
    let mut table: Vec<Standing> = tournament
        .players
        .iter()
        .map(|player| Standing {
            rank: 0,
            start_rank: player.start_rank,
            name: player.name.clone(),
            points: tournament.points_after(player, rounds),
            tie_breaks: Vec::new(),
        })
        .collect();
    for (standing, player) in table.iter_mut().zip(&tournament.players) {
        for &tie_break in tie_breaks {
            let value = match tie_break {
                TieBreak::DirectEncounter => None, // needs the tied group, filled in below
                TieBreak::SonnebornBerger => Some(
                    f64::from(sonneborn_berger(
                        tournament,
                        player,
                        rounds,
                        standing.points,
                        &points,
                    )) / 100.0,
                ),
                TieBreak::Wins => Some(f64::from(wins(tournament, player, rounds))),
                TieBreak::BuchholzCut1 => {
                    Some(buchholz(player, rounds, standing.points, &points, 1).as_points())
                }
                TieBreak::Buchholz => {
                    Some(buchholz(player, rounds, standing.points, &points, 0).as_points())
                }
            };
            standing.tie_breaks.push(TieBreakValue { tie_break, value });
        }
    }
    if let Some(position) = tie_breaks
        .iter()
        .position(|&tie_break| tie_break == TieBreak::DirectEncounter)
    {
        fill_direct_encounter(tournament, &mut table, position, rounds);
    }
    let key = |standing: &Standing| {
        // Every value is a multiple of 0.01: compare exactly in hundredths.
        let values: Vec<Option<i64>> = standing
            .tie_breaks
            .iter()
            .map(|value| value.value.map(|v| (v * 100.0).round() as i64))
            .collect();
        (standing.points, values)
    };
    table.sort_by(|a, b| key(b).cmp(&key(a)).then(a.start_rank.cmp(&b.start_rank)));
    for index in 0..table.len() {
        table[index].rank = if index > 0 && key(&table[index]) == key(&table[index - 1]) {
            table[index - 1].rank
        } else {
            index as u32 + 1
        };
    }
    table
}

/// The value of one round for Buchholz and Sonneborn-Berger: the opponent's score for a game
/// played over the board, the player's own score for an unplayed round (C.07 article 16).
fn round_opponent_score(record: &RoundRecord, own: Score, points: &dyn Fn(u32) -> Score) -> Score {
    match record.opponent {
        Some(opponent) if record.result.was_played() => points(opponent),
        _ => own,
    }
}

/// A round the player chose not to play (C.07: voluntarily unplayed rounds are cut first).
fn voluntarily_unplayed(record: &RoundRecord) -> bool {
    matches!(
        record.result,
        GameResult::HalfPointBye
            | GameResult::ZeroPointBye
            | GameResult::ForfeitLoss
            | GameResult::NotPaired
    )
}

fn record(player: &Player, round: u32) -> RoundRecord {
    player.round(round)
}

/// Buchholz with `cut` low cuts (C.07 articles 8, 14 and 16).
fn buchholz(
    player: &Player,
    rounds: u32,
    own: Score,
    points: &dyn Fn(u32) -> Score,
    cut: usize,
) -> Score {
    // (voluntarily unplayed, value): voluntarily unplayed rounds sort first and go first.
    let mut values: Vec<(bool, Score)> = (1..=rounds)
        .map(|round| record(player, round))
        .map(|r| {
            (
                voluntarily_unplayed(&r),
                round_opponent_score(&r, own, points),
            )
        })
        .collect();
    values.sort_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1)));
    values.iter().skip(cut).map(|&(_, value)| value).sum()
}

/// Sonneborn-Berger (C.07 article 9) in hundredths of a point: per round, the opponent's
/// score (own score for an unplayed round) times the points obtained.
fn sonneborn_berger(
    tournament: &Tournament,
    player: &Player,
    rounds: u32,
    own: Score,
    points: &dyn Fn(u32) -> Score,
) -> u32 {
    (1..=rounds)
        .map(|round| {
            let r = record(player, round);
            round_opponent_score(&r, own, points).0 * tournament.points_of(r.result).0
        })
        .sum()
}

/// Rounds with the points of a win (C.07 article 7, WIN).
fn wins(tournament: &Tournament, player: &Player, rounds: u32) -> u32 {
    (1..=rounds)
        .filter(|&round| tournament.points_of(record(player, round).result) == Score::WIN)
        .count() as u32
}

/// Direct encounter (C.07 article 6) for every group of players tied on points: the points
/// each scored against the others of the group, if every two of them have met.
fn fill_direct_encounter(
    tournament: &Tournament,
    table: &mut [Standing],
    position: usize,
    rounds: u32,
) {
    let groups: Vec<Score> = table.iter().map(|standing| standing.points).collect();
    for points in groups {
        let members: Vec<u32> = table
            .iter()
            .filter(|s| s.points == points)
            .map(|s| s.start_rank)
            .collect();
        if members.len() < 2 {
            continue;
        }
        let met = |a: u32, b: u32| {
            tournament.player(a).is_some_and(|player| {
                (1..=rounds).any(|round| record(player, round).opponent == Some(b))
            })
        };
        let all_met = members
            .iter()
            .all(|&a| members.iter().all(|&b| a == b || met(a, b)));
        if !all_met {
            continue;
        }
        for standing in table.iter_mut().filter(|s| s.points == points) {
            let player = tournament
                .player(standing.start_rank)
                .expect("a standing comes from a player");
            let scored: Score = (1..=rounds)
                .map(|round| record(player, round))
                .filter(|r| {
                    r.opponent
                        .is_some_and(|opponent| members.contains(&opponent))
                })
                .map(|r| tournament.points_of(r.result))
                .sum();
            standing.tie_breaks[position].value = Some(scored.as_points());
        }
    }
}
