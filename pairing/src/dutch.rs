//! Swiss pairings by the FIDE Dutch system (FIDE Handbook C.04.3, the text approved at the
//! 87th FIDE Congress, Baku 2016, in force until 30 June 2025; with the Basic Rules C.04.1
//! and the General Handling Rules C.04.2). Article numbers below are that text's. The text
//! in force from 1 July 2025 is available as [`Edition::Fide2025`] ([`pair_round_with`]),
//! following bbpPairings 6's reading of it.
//!
//! ```
//! use kaboom_pairing::{dutch, trf, Pair};
//!
//! // Round 2 of four players: 1 beat 3 and 4 beat 2 in round 1 (1 and 4 had White).
//! let text = "\
//! XXR 3
//! 001    1      Alice                             2000                             1.0          3 w 1
//! 001    2      Bob                               1900                             0.0          4 b 0
//! 001    3      Carol                             1800                             0.0          1 b 0
//! 001    4      Dave                              1700                             1.0          2 w 1
//! ";
//! let pairings = dutch::pair_round(&trf::parse(text).unwrap()).unwrap();
//! // The winners meet, the losers meet (score brackets, C.04.3 A.3). Both winners had
//! // White and both losers Black: between equal preferences the higher-ranked player is
//! // served (E.4).
//! assert_eq!(pairings.pairs, [Pair { white: 4, black: 1 }, Pair { white: 2, black: 3 }]);
//! ```
//!
//! # How the pairing is computed
//!
//! Brackets are paired from the highest score down (C.04.3 A.3, B). Each bracket is one
//! maximum-weight matching over the bracket and the residents of the next one. Each edge's
//! weight is a vector of integers compared lexicographically, one component per criterion
//! in the handbook's order, so the matching applies them one after the other:
//!
//! 1. only compatible players are joined: C.1 (no second game), C.3 (no two non-topscorers
//!    with the same absolute colour preference); the bye goes only to a player allowed it
//!    (C.2);
//! 2. as many pairs as possible in the bracket (C.5), then the smallest pairing score
//!    difference (C.6, A.8), then as many pairs and the smallest PSD in the next bracket (C.7);
//! 3. colour criteria C.8 to C.11 (A.6, A.7), then float criteria C.12 to C.19 (A.4);
//! 4. among the pairings still equal, the one the handbook's candidate order reaches first:
//!    moved-down players are paired first, each with the highest-ranked resident possible
//!    (B.3, B.5), then the remainder pairs S1 against S2 with the fewest exchanges and the
//!    smallest BSN difference (B.6) and S2 in the order of its transpositions (B.5).
//!
//! If the downfloaters chosen leave the rest of the round unpairable (C.4, completion),
//! the bracket is the penultimate pairing bracket (A.9): it is paired again with every lower
//! player in view and completion as the first criterion, and all the players below it form
//! the collapsed last bracket. The last bracket pairs everybody but the bye.
//!
//! By the 2025 text ([`Edition::Fide2025`]) the bye's assignee score is fixed first (the
//! lowest possible), every bracket's matching sees all the lower players with completion
//! as its first criterion (no penultimate bracket), the brackets maximize the scores they
//! pair (by the higher player's score) instead of minimizing the PSD, the bye goes to the
//! player with the fewest unplayed games among those with its score, and repeated floats
//! weigh by the floaters' scores.
//!
//! Colours are then allocated by C.04.3 E.1 to E.5. This is the method of bbpPairings (a
//! weighted matching whose weights encode the criteria, bracket by bracket), re-derived
//! from the handbook; where the handbook leaves room, the choices follow bbpPairings'
//! reading so that both programs agree (see `docs/PERFORMANCE.md`, "Swiss pairings against
//! bbpPairings").

use std::collections::HashSet;

use crate::matching::{LEX_COMPONENTS, LexWeight, Weight, max_weight_matching};
use crate::trf::{Colour, GameResult, Tournament};
use crate::{Pair, Pairings, Score};

/// Why the Dutch system found no pairing.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum DutchError {
    /// No pairing of all players satisfies the absolute criteria C.1 to C.3 (for example a
    /// round-robin-like field where everybody has met everybody).
    #[error("no pairing satisfies the absolute criteria (C.04.3 C.1-C.3) for round {round}")]
    NoValidPairing {
        /// The round that could not be paired (1-based).
        round: u32,
    },
    /// Fewer than one player to pair.
    #[error("nobody to pair in round {round}")]
    NobodyToPair {
        /// The round (1-based).
        round: u32,
    },
}

/// Which text of C.04.3 to follow.
#[derive(
    Clone, Copy, Debug, Default, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize,
)]
#[serde(rename_all = "snake_case")]
pub enum Edition {
    /// The text approved at the 87th FIDE Congress (Baku 2016), in force from 1 July 2017
    /// to 30 June 2025: criteria C.1-C.19, the penultimate and collapsed last brackets (A.9).
    /// Agrees with bbpPairings 5.0.1 on all 3,940 rounds of 595 random tournaments
    /// (`docs/PERFORMANCE.md`).
    #[default]
    Baku2016,
    /// The text in force from 1 July 2025 (articles 1-5, criteria C.1-C.21), as far as
    /// bbpPairings 6 reads it: the pairing-allocated bye goes to the lowest score possible
    /// (then to the player with the fewest unplayed games), completion is required from the
    /// first bracket on, brackets maximize the scores they pair instead of minimizing the
    /// PSD, a round without a game is a downfloat only if it scored more than a loss
    /// (1.4.3), and a full-point bye excludes a later pairing-allocated bye. Agrees with
    /// bbpPairings 6 on all 3,940 rounds of 595 random tournaments (`docs/PERFORMANCE.md`).
    Fide2025,
}

/// The strength of a colour preference (C.04.3 A.6).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Strength {
    /// No game played yet: no preference (A.6.d).
    None,
    /// Colour difference 0: alternate with the last game (A.6.c).
    Mild,
    /// Colour difference ±1 (A.6.b).
    Strong,
    /// Colour difference beyond ±1, or the same colour in the last two games (A.6.a).
    Absolute,
}

/// A float in an earlier round (C.04.3 A.4).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Float {
    None,
    Down,
    Up,
}

/// What the pairing needs to know about one player of the round.
#[derive(Clone, Debug)]
struct Entrant {
    start_rank: u32,
    score: Score,
    /// Colours of the games played over the board, in order.
    colours: Vec<Colour>,
    colour_difference: i32,
    preference: Option<Colour>,
    strength: Strength,
    /// Floats one and two rounds before the round being paired.
    floats: [Float; 2],
    /// C.2: no pairing-allocated bye or forfeit win yet.
    bye_allowed: bool,
    /// Starting ranks of the opponents of games played (C.1).
    opponents: HashSet<u32>,
    /// A.7: over 50% of the maximum possible score, when pairing the last round.
    topscorer: bool,
    /// Games played over the board (the 2025 text's bye criterion counts them).
    played_games: usize,
    /// The pairing number of E.5: the place among the players with a pairing number, i.e.
    /// paired in an earlier round or in this one (C.04.2: a player absent from the start
    /// has none yet).
    pairing_number: u32,
}

impl Entrant {
    fn new(tournament: &Tournament, start_rank: u32, round: u32, edition: Edition) -> Entrant {
        let player = tournament
            .player(start_rank)
            .expect("entrant of the tournament");
        let paired = round - 1;
        let records: Vec<_> = (1..=paired).map(|r| player.round(r)).collect();
        let colours: Vec<Colour> = records
            .iter()
            .filter(|r| r.result.was_played())
            .filter_map(|r| r.colour)
            .collect();
        let whites = colours.iter().filter(|&&c| c == Colour::White).count() as i32;
        let colour_difference = 2 * whites - colours.len() as i32;
        let last_two_same =
            colours.len() >= 2 && colours[colours.len() - 1] == colours[colours.len() - 2];
        let (preference, strength) = if colours.is_empty() {
            (None, Strength::None)
        } else if colour_difference < -1 {
            (Some(Colour::White), Strength::Absolute)
        } else if colour_difference > 1 {
            (Some(Colour::Black), Strength::Absolute)
        } else if last_two_same {
            (
                Some(colours[colours.len() - 1].opposite()),
                Strength::Absolute,
            )
        } else if colour_difference == -1 {
            (Some(Colour::White), Strength::Strong)
        } else if colour_difference == 1 {
            (Some(Colour::Black), Strength::Strong)
        } else {
            (Some(colours[colours.len() - 1].opposite()), Strength::Mild)
        };
        let float_in = |back: u32| -> Float {
            if back > paired {
                return Float::None;
            }
            let r = round - back;
            let record = player.round(r);
            match record.opponent {
                // A.4.b (2016): a player who does not play in a round receives a downfloat;
                // 1.4.3 (2025): only if he scores more than a loss without playing.
                _ if !record.result.was_played() => {
                    if edition == Edition::Baku2016
                        || tournament.points_of(record.result) > Score::ZERO
                    {
                        Float::Down
                    } else {
                        Float::None
                    }
                }
                Some(opponent) => {
                    let own = tournament.points_after(player, r - 1);
                    let theirs = tournament
                        .player(opponent)
                        .map_or(Score::ZERO, |o| tournament.points_after(o, r - 1));
                    if own > theirs {
                        Float::Down
                    } else if own < theirs {
                        Float::Up
                    } else {
                        Float::None
                    }
                }
                None => Float::Down,
            }
        };
        let score = tournament.points_after(player, paired);
        let final_round = tournament.planned_rounds == Some(round);
        Entrant {
            start_rank,
            score,
            colour_difference,
            preference,
            strength,
            floats: [float_in(1), float_in(2)],
            // C.2: no second pairing-allocated bye, nor one after a forfeit win (2016); nor
            // after any unplayed round that scored a win (2025).
            bye_allowed: !records.iter().any(|r| match edition {
                Edition::Baku2016 => matches!(
                    r.result,
                    GameResult::PairingAllocatedBye | GameResult::ForfeitWin
                ),
                Edition::Fide2025 => {
                    r.result == GameResult::PairingAllocatedBye
                        || (!r.result.was_played() && tournament.points_of(r.result) >= Score::WIN)
                }
            }),
            opponents: records
                .iter()
                .filter(|r| r.result.was_played())
                .filter_map(|r| r.opponent)
                .collect(),
            topscorer: final_round && score.0 * 2 > paired * Score::WIN.0,
            colours,
            pairing_number: 0,
            played_games: records.iter().filter(|r| r.result.was_played()).count(),
        }
    }
}

/// The pairings of the next round of `tournament` (the round after
/// [`Tournament::paired_rounds`]) by the Dutch system. Players with a record already entered
/// for that round (a requested bye or an absence: `H`, `F`, `Z`, ...) are not paired.
/// Points are the tournament's ([`Tournament::points_of`]: win 1, draw ½, the
/// pairing-allocated bye [`Tournament::pab_points`]); whatever its value, a player who has
/// had the pairing-allocated bye (`U`) does not get it again (C.2).
///
/// # Errors
/// [`DutchError::NoValidPairing`] if the absolute criteria C.1-C.3 leave no complete
/// pairing; [`DutchError::NobodyToPair`] if no player is to be paired.
pub fn pair_round(tournament: &Tournament) -> Result<Pairings, DutchError> {
    pair_round_with(tournament, Edition::Baku2016)
}

/// [`pair_round`] by the chosen text of C.04.3 ([`Edition`]).
///
/// # Errors
/// As [`pair_round`].
pub fn pair_round_with(tournament: &Tournament, edition: Edition) -> Result<Pairings, DutchError> {
    let round = tournament.paired_rounds() + 1;
    let mut entrants: Vec<Entrant> = tournament
        .players
        .iter()
        .filter(|player| player.round(round).result == GameResult::NotPaired)
        .map(|player| Entrant::new(tournament, player.start_rank, round, edition))
        .collect();
    if entrants.is_empty() {
        return Err(DutchError::NobodyToPair { round });
    }
    let has_pairing_number = |player: &crate::trf::Player| {
        player.round(round).result == GameResult::NotPaired
            || (1..round).any(|r| player.round(r).was_paired())
    };
    for entrant in &mut entrants {
        entrant.pairing_number = tournament
            .players
            .iter()
            .filter(|player| player.start_rank <= entrant.start_rank && has_pairing_number(player))
            .count() as u32;
    }
    // A.2: order by score, then pairing number.
    entrants.sort_by(|a, b| b.score.cmp(&a.score).then(a.start_rank.cmp(&b.start_rank)));
    let initial_colour = tournament.initial_colour.unwrap_or(Colour::White);
    let final_round = tournament.planned_rounds == Some(round);
    let mut scores: Vec<Score> = entrants.iter().map(|e| e.score).collect();
    scores.dedup();
    let mut pairer = Pairer {
        entrants: &entrants,
        final_round,
        scores,
        bye_score: None,
        unplayed_ranks: Vec::new(),
        floater_partner_floor: std::cell::Cell::new(None),
    };
    let pairs = match edition {
        Edition::Baku2016 => pairer.pair(),
        Edition::Fide2025 => pairer.pair_2025(),
    }
    .ok_or(DutchError::NoValidPairing { round })?;

    let mut pairings = Pairings::default();
    let mut games: Vec<(usize, usize)> = Vec::new();
    for (a, b) in pairs {
        match b {
            Some(b) => games.push(if a < b { (a, b) } else { (b, a) }),
            None => pairings.byes.push(entrants[a].start_rank),
        }
    }
    // C.04.2 (and the 2012 text's F.1): boards by the higher score, the sum of scores,
    // then the rank of the higher player.
    games.sort_by(|&(a1, b1), &(a2, b2)| {
        let key = |a: usize, b: usize| (entrants[a].score, entrants[a].score + entrants[b].score);
        key(a2, b2).cmp(&key(a1, b1)).then(a1.cmp(&a2))
    });
    for (higher, lower) in games {
        let (white, black) = allocate_colours(&entrants[higher], &entrants[lower], initial_colour);
        pairings.pairs.push(Pair { white, black });
    }
    Ok(pairings)
}

/// C.04.3 E: the colours of a pair, `higher` ranked above `lower` (A.2). Returns the
/// starting ranks of White and Black.
fn allocate_colours(higher: &Entrant, lower: &Entrant, initial_colour: Colour) -> (u32, u32) {
    let higher_gets = |colour: Colour| {
        if colour == Colour::White {
            (higher.start_rank, lower.start_rank)
        } else {
            (lower.start_rank, higher.start_rank)
        }
    };
    match (higher.preference, lower.preference) {
        // E.1: grant both preferences (or the only one).
        (Some(h), Some(l)) if h != l => return higher_gets(h),
        (Some(h), None) => return higher_gets(h),
        (None, Some(l)) => return higher_gets(l.opposite()),
        _ => {}
    }
    if let (Some(preference), Some(_)) = (higher.preference, lower.preference) {
        // E.2: the stronger preference; between two absolute ones, the wider colour difference.
        if higher.strength != lower.strength {
            return if higher.strength > lower.strength {
                higher_gets(preference)
            } else {
                higher_gets(preference.opposite())
            };
        }
        if higher.strength == Strength::Absolute
            && higher.colour_difference.abs() != lower.colour_difference.abs()
        {
            return if higher.colour_difference.abs() > lower.colour_difference.abs() {
                higher_gets(preference)
            } else {
                higher_gets(preference.opposite())
            };
        }
    }
    // E.3: alternate with the most recent game in which they had different colours.
    for (h, l) in higher.colours.iter().rev().zip(lower.colours.iter().rev()) {
        if h != l {
            return higher_gets(l.to_owned());
        }
    }
    // E.4: the higher-ranked player's preference.
    if let Some(preference) = higher.preference {
        return higher_gets(preference);
    }
    // E.5: the initial colour if the higher-ranked player's pairing number is odd.
    if higher.pairing_number % 2 == 1 {
        higher_gets(initial_colour)
    } else {
        higher_gets(initial_colour.opposite())
    }
}

/// One round's pairing state: the entrants in A.2 order.
struct Pairer<'a> {
    entrants: &'a [Entrant],
    final_round: bool,
    /// The distinct scores, highest first.
    scores: Vec<Score>,
    /// 2025: the score of the pairing-allocated bye's assignee (the lowest possible).
    bye_score: Option<Score>,
    /// 2025: per entrant with the bye's score, the rank of its played games among them
    /// (0 for the most): pairing a player with a higher rank is worth more, so that the
    /// bye goes to the fewest unplayed games.
    unplayed_ranks: Vec<(usize, i64)>,
    /// 2025: the lowest score a player carried into the next bracket (a downfloater or a
    /// next resident) was matched with in the last bracket's matching (its own if none):
    /// whether the bye's criterion applies to the next bracket, as bbpPairings 6 decides.
    floater_partner_floor: std::cell::Cell<Option<Score>>,
}

/// The role of a vertex in one bracket's matching.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Role {
    /// A moved-down player of the bracket (A.4.a).
    MovedDown,
    /// A resident of the bracket (A.3); in the collapsed last bracket, every remaining
    /// player who was not moved down.
    Resident,
    /// A resident of the next bracket (C.7 looks at it).
    Next,
    /// A player of a lower bracket, seen by the penultimate pairing bracket for completion.
    Lower,
    /// The dummy standing for the pairing-allocated bye (last bracket only).
    Bye,
}

/// How a bracket is paired.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Mode {
    /// An ordinary bracket, paired with a view of the next one (C.7); `next_is_last` when
    /// the next bracket is the last, whose pairs must leave the bye to an allowed player.
    Ordinary { next_is_last: bool },
    /// The penultimate pairing bracket (A.9): an ordinary bracket whose pairing left the
    /// rest unpairable, paired again with every lower player in view so that the round
    /// can be completed (C.4); the criteria still judge the bracket's own pairs.
    Penultimate,
    /// A bracket by the 2025 text: every remaining player in view, completion first;
    /// `bye_criterion` when the bye's assignee comes from this bracket (C.9, 2025).
    Global { bye_criterion: bool },
    /// The last bracket: every remaining player (after a penultimate bracket, all lower
    /// score groups collapsed into one, A.9), all paired but at most one, who gets the
    /// pairing-allocated bye (C.2, C.4).
    Last,
}

impl Mode {
    /// Whether the matching must pair everybody it sees (C.4), the bye included.
    fn completes(self) -> bool {
        matches!(self, Mode::Penultimate | Mode::Last | Mode::Global { .. })
    }
}

/// The tie-break between optimal pairings of a bracket: the handbook's candidate order
/// (C.04.3 B.3-B.6).
enum Ordering<'o> {
    /// Pass 1: no ordering, the criteria only.
    None,
    /// Moved-down players first (B.3): each moved-down player (position in `mdps`) pairs
    /// with the highest resident possible (position in `residents`).
    MovedDown {
        mdps: &'o [usize],
        residents: &'o [usize],
    },
    /// The (remainder) homogeneous part (B.5, B.6): S1 against S2.
    Remainder { s1: &'o [usize], s2: &'o [usize] },
}

/// A bracket's pairs (entrant indices, `None` for the bye) and its downfloaters.
type BracketPairing = (Vec<(usize, Option<usize>)>, Vec<usize>);

impl Pairer<'_> {
    /// C.2, and in 2025 a score no higher than the bye's assignee's.
    fn bye_candidate(&self, entrant: usize) -> bool {
        let player = &self.entrants[entrant];
        player.bye_allowed && self.bye_score.is_none_or(|score| player.score <= score)
    }

    fn compatible(&self, a: usize, b: usize) -> bool {
        let (x, y) = (&self.entrants[a], &self.entrants[b]);
        // C.1: not twice the same opponent.
        if x.opponents.contains(&y.start_rank) {
            return false;
        }
        // C.3: non-topscorers with the same absolute colour preference do not meet.
        let both_absolute = x.strength == Strength::Absolute && y.strength == Strength::Absolute;
        !(both_absolute
            && x.preference == y.preference
            && !(self.final_round && (x.topscorer || y.topscorer)))
    }

    /// Whether `players` can all be paired, one of them perhaps with the bye (C.1-C.4).
    fn can_complete(&self, players: &[usize]) -> bool {
        let n = players.len();
        let mut edges = Vec::new();
        for a in 0..n {
            for b in a + 1..n {
                if self.compatible(players[a], players[b]) {
                    edges.push((a, b, 1i64));
                }
            }
            if n % 2 == 1 && self.entrants[players[a]].bye_allowed {
                edges.push((a, n, 1i64));
            }
        }
        let vertices = n + n % 2;
        max_weight_matching(vertices, &edges)
            .iter()
            .all(Option::is_some)
    }

    /// Pairs every bracket; returns pairs of entrant indices, `None` for the bye.
    fn pair(&self) -> Option<Vec<(usize, Option<usize>)>> {
        let all: Vec<usize> = (0..self.entrants.len()).collect();
        if !self.can_complete(&all) {
            return None;
        }
        let mut result = Vec::new();
        let mut unpaired = all;
        let mut moved_down: Vec<usize> = Vec::new();
        let mut scores: Vec<Score> = self.entrants.iter().map(|e| e.score).collect();
        scores.dedup();
        for (group, &score) in scores.iter().enumerate() {
            let residents: Vec<usize> = unpaired
                .iter()
                .copied()
                .filter(|&i| self.entrants[i].score == score && !moved_down.contains(&i))
                .collect();
            let lower: Vec<usize> = unpaired
                .iter()
                .copied()
                .filter(|&i| self.entrants[i].score < score)
                .collect();
            if !lower.is_empty() {
                let next_score = scores[group + 1];
                let next: Vec<usize> = lower
                    .iter()
                    .copied()
                    .filter(|&i| self.entrants[i].score == next_score)
                    .collect();
                let next_is_last = next.len() == lower.len();
                let (pairs, floaters) = self.pair_bracket(
                    &moved_down,
                    &residents,
                    &next,
                    Mode::Ordinary { next_is_last },
                )?;
                let mut rest = floaters.clone();
                rest.extend(&lower);
                // C.4: the downfloaters must let the rest be paired; if not, this is the
                // penultimate pairing bracket (A.9), paired again with completion in view,
                // and everybody below it makes the collapsed last bracket.
                if self.can_complete(&rest) {
                    for &(a, b) in &pairs {
                        result.push((a, b));
                        unpaired.retain(|&i| i != a && Some(i) != b);
                    }
                    moved_down = floaters;
                    continue;
                }
                let (pairs, floaters) =
                    self.pair_bracket(&moved_down, &residents, &lower, Mode::Penultimate)?;
                result.extend(pairs);
                let (pairs, rest) = self.pair_bracket(&floaters, &lower, &[], Mode::Last)?;
                if !rest.is_empty() {
                    return None;
                }
                result.extend(pairs);
                break;
            }
            let (pairs, rest) = self.pair_bracket(&moved_down, &residents, &[], Mode::Last)?;
            if !rest.is_empty() {
                return None;
            }
            result.extend(pairs);
            break;
        }
        Some(result)
    }

    /// Pairs every bracket by the 2025 text: the bye's assignee score first (the lowest
    /// possible), then bracket after bracket with every lower player in view.
    fn pair_2025(&mut self) -> Option<Vec<(usize, Option<usize>)>> {
        let all: Vec<usize> = (0..self.entrants.len()).collect();
        if !self.can_complete(&all) {
            return None;
        }
        if all.len() % 2 == 1 {
            // The lowest score whose player may take the bye and leave the rest pairable.
            let assignee = all.iter().rev().copied().find(|&p| {
                self.entrants[p].bye_allowed && {
                    let rest: Vec<usize> = all.iter().copied().filter(|&q| q != p).collect();
                    self.can_complete(&rest)
                }
            })?;
            let score = self.entrants[assignee].score;
            self.bye_score = Some(score);
            let mut played: Vec<usize> = all
                .iter()
                .filter(|&&p| self.entrants[p].score == score)
                .map(|&p| self.entrants[p].played_games)
                .collect();
            played.sort_unstable_by(|a, b| b.cmp(a));
            let rank_of =
                |games: usize| played.iter().rposition(|&g| g == games).unwrap_or(0) as i64;
            self.unplayed_ranks = all
                .iter()
                .filter(|&&p| self.entrants[p].score == score)
                .map(|&p| (p, rank_of(self.entrants[p].played_games)))
                .collect();
        }
        let mut result = Vec::new();
        let mut unpaired = all;
        let mut moved_down: Vec<usize> = Vec::new();
        // C.9 (2025), as bbpPairings 6 applies it: in the bracket of the bye's assignee, when
        // the previous bracket's downfloaters all stay in it.
        let mut bye_criterion = self.bye_score.is_some_and(|bye| bye >= self.scores[0]);
        for (group, &score) in self.scores.iter().enumerate() {
            let residents: Vec<usize> = unpaired
                .iter()
                .copied()
                .filter(|&i| self.entrants[i].score == score && !moved_down.contains(&i))
                .collect();
            let lower: Vec<usize> = unpaired
                .iter()
                .copied()
                .filter(|&i| self.entrants[i].score < score)
                .collect();
            let (pairs, floaters) = self.pair_bracket(
                &moved_down,
                &residents,
                &lower,
                Mode::Global { bye_criterion },
            )?;
            for &(a, b) in &pairs {
                result.push((a, b));
                unpaired.retain(|&i| i != a && Some(i) != b);
            }
            if lower.is_empty() {
                // The last bracket: its only unpaired player has the bye.
                match floaters[..] {
                    [] => {}
                    [bye] => result.push((bye, None)),
                    _ => return None,
                }
                break;
            }
            moved_down = floaters;
            let next_score = self.scores[group + 1];
            bye_criterion = self.bye_score.is_some_and(|bye| bye >= next_score)
                && self
                    .floater_partner_floor
                    .get()
                    .is_none_or(|floor| floor >= next_score);
        }
        Some(result)
    }

    /// Pairs one bracket: its moved-down players and residents, seeing `others`: the next
    /// bracket's residents in an ordinary bracket (C.7), every lower player in the
    /// penultimate one (C.4). Returns the bracket's pairs (and the bye, in the last bracket)
    /// and its downfloaters.
    fn pair_bracket(
        &self,
        moved_down: &[usize],
        residents: &[usize],
        others: &[usize],
        mode: Mode,
    ) -> Option<BracketPairing> {
        let mut vertices: Vec<(usize, Role)> =
            moved_down.iter().map(|&i| (i, Role::MovedDown)).collect();
        vertices.extend(residents.iter().map(|&i| (i, Role::Resident)));
        let next_score = match mode {
            Mode::Ordinary { .. } | Mode::Global { .. } => {
                others.first().map(|&i| self.entrants[i].score)
            }
            Mode::Penultimate | Mode::Last => None,
        };
        vertices.extend(others.iter().map(|&i| {
            let role = if Some(self.entrants[i].score) == next_score {
                Role::Next
            } else {
                Role::Lower
            };
            (i, role)
        }));
        if mode.completes() && vertices.len() % 2 == 1 {
            vertices.push((usize::MAX, Role::Bye));
        }
        let next: Vec<usize> = vertices
            .iter()
            .filter(|v| v.1 == Role::Next)
            .map(|v| v.0)
            .collect();
        let next = &next[..];
        // A.8's "lowest ranked player of the current bracket": as bbpPairings reads it, the
        // lowest player the bracket's pairing looks at, the next bracket's in an ordinary one.
        let lowest_score = residents
            .iter()
            .chain(next)
            .map(|&i| self.entrants[i].score)
            .min()?;
        let mut context = BracketContext::new(self, &vertices, lowest_score, next_score, mode);
        let in_bracket = |role: Role| matches!(role, Role::MovedDown | Role::Resident);

        // Pass 1: the criteria only.
        let mut mates = context.solve(&Ordering::None, &HashSet::new())?;
        let mut excluded: HashSet<(usize, usize)> = HashSet::new();
        let mdp_vertices: Vec<usize> = (0..moved_down.len()).collect();
        let resident_vertices: Vec<usize> =
            (moved_down.len()..moved_down.len() + residents.len()).collect();
        let paired_in_bracket =
            |mates: &[Option<usize>], v: usize| mates[v].is_some_and(|m| in_bracket(vertices[m].1));
        let mut remainder: Vec<usize> = resident_vertices.clone();
        if mdp_vertices.iter().any(|&v| paired_in_bracket(&mates, v)) {
            // Pass 2a: the moved-down players' opponents in candidate order (B.3, B.5).
            mates = context.solve(
                &Ordering::MovedDown {
                    mdps: &mdp_vertices,
                    residents: &resident_vertices,
                },
                &HashSet::new(),
            )?;
            let mut fixed: Vec<(usize, usize)> = Vec::new();
            for &v in &mdp_vertices {
                match mates[v] {
                    Some(m) if in_bracket(vertices[m].1) => {
                        if !fixed
                            .iter()
                            .any(|&(a, b)| a == m || b == m || a == v || b == v)
                        {
                            fixed.push((v, m));
                        }
                    }
                    _ => {
                        // Stays a downfloater: it may not join the remainder's pairs.
                        for &other in mdp_vertices.iter().chain(&resident_vertices) {
                            if other != v {
                                excluded.insert((v.min(other), v.max(other)));
                            }
                        }
                    }
                }
            }
            remainder.retain(|r| !fixed.iter().any(|&(a, b)| a == *r || b == *r));
            context.fixed = fixed;
        }
        // Pass 2b: the remainder, S1 against S2 (B.5, B.6), with the fixed pairs kept.
        let remainder_pairs = remainder
            .iter()
            .filter(|&&r| mates[r].is_some_and(|m| vertices[m].1 == Role::Resident))
            .count()
            / 2;
        let (s1, s2) = remainder.split_at(remainder_pairs);
        let mates = context.solve(&Ordering::Remainder { s1, s2 }, &excluded)?;

        let mut pairs = Vec::new();
        let mut floaters = Vec::new();
        for (v, &(entrant, role)) in vertices.iter().enumerate() {
            if !in_bracket(role) {
                continue;
            }
            match mates[v] {
                Some(m) if in_bracket(vertices[m].1) => {
                    if v < m {
                        pairs.push((entrant, Some(vertices[m].0)));
                    }
                }
                Some(m) if vertices[m].1 == Role::Bye && mode == Mode::Last => {
                    pairs.push((entrant, None));
                }
                _ => floaters.push(entrant),
            }
        }
        // Everybody carried into the next bracket: its downfloaters and the next residents.
        let floor = vertices
            .iter()
            .enumerate()
            .filter(|&(v, &(entrant, role))| {
                role == Role::Next || (in_bracket(vertices[v].1) && floaters.contains(&entrant))
            })
            .map(|(v, &(entrant, _))| match mates[v] {
                Some(m) if vertices[m].1 != Role::Bye => self.entrants[vertices[m].0].score,
                _ => self.entrants[entrant].score,
            })
            .min();
        self.floater_partner_floor.set(floor);
        floaters.sort_unstable();
        Some((pairs, floaters))
    }
}

/// Bits of a packed field holding values up to `max`.
fn field_bits(max: usize) -> u32 {
    usize::BITS - max.leading_zeros()
}

/// Lexicographic fields packed into weight components, most significant first: 56 bits of
/// each component hold `56 / bits` fields (small enough that sums and the matching's duals
/// stay far from overflow). Each field receives at most one edge's value in a matching, so
/// the fields never carry into each other and the packed total orders like the fields.
const PACKED_BITS: u32 = 56;

/// The components `fields` fields of `bits` bits take.
fn packed_words(fields: usize, bits: u32) -> usize {
    fields.div_ceil((PACKED_BITS / bits) as usize)
}

/// Adds `value` to field `field` of the fields packed from component `base` on; fields past
/// the last component are dropped (brackets of hundreds of players).
fn add_packed(w: &mut [i64; LEX_COMPONENTS], base: usize, field: usize, bits: u32, value: i64) {
    let per_word = (PACKED_BITS / bits) as usize;
    let word = base + field / per_word;
    let shift = bits as usize * (per_word - 1 - field % per_word);
    if word < LEX_COMPONENTS {
        w[word] += value << shift;
    }
}

/// The weights of one bracket's matching.
struct BracketContext<'p, 'a> {
    pairer: &'p Pairer<'a>,
    roles: Vec<Role>,
    entrants: Vec<usize>,
    /// The lowest score of the bracket's residents (A.8's artificial value is one point less).
    lowest_score: Score,
    /// The score of the next bracket's residents (ordinary brackets).
    next_score: Option<Score>,
    mode: Mode,
    /// Pairs already decided in this bracket (vertex indices): only their edge is kept.
    fixed: Vec<(usize, usize)>,
    /// Distinct score differences (A.8) of the bracket and of the next one, largest first.
    bracket_differences: Vec<u32>,
    next_differences: Vec<u32>,
}

/// Component offsets of the weight vector.
const COMPLETION: usize = 0;
const BRACKET_PAIRS: usize = 1;

impl<'p, 'a> BracketContext<'p, 'a> {
    fn new(
        pairer: &'p Pairer<'a>,
        vertices: &[(usize, Role)],
        lowest_score: Score,
        next_score: Option<Score>,
        mode: Mode,
    ) -> BracketContext<'p, 'a> {
        let mut context = BracketContext {
            pairer,
            roles: vertices.iter().map(|v| v.1).collect(),
            entrants: vertices.iter().map(|v| v.0).collect(),
            lowest_score,
            next_score,
            mode,
            fixed: Vec::new(),
            bracket_differences: Vec::new(),
            next_differences: Vec::new(),
        };
        let mut bracket = HashSet::new();
        let mut next = HashSet::new();
        for a in 0..vertices.len() {
            if context.in_bracket(a) {
                bracket.insert(context.float_difference(a));
            }
            if let Some(d) = context.next_float_difference(a) {
                next.insert(d);
            }
            for b in a + 1..vertices.len() {
                if context.in_bracket(a) && context.in_bracket(b) {
                    bracket.insert(context.score(a).abs_diff(context.score(b)));
                }
                if let Some(d) = context.next_pair_difference(a, b) {
                    next.insert(d);
                }
            }
        }
        context.bracket_differences = bracket.into_iter().collect();
        context
            .bracket_differences
            .sort_unstable_by(|a, b| b.cmp(a));
        context.next_differences = next.into_iter().collect();
        context.next_differences.sort_unstable_by(|a, b| b.cmp(a));
        context
    }

    fn score(&self, v: usize) -> u32 {
        match self.roles[v] {
            Role::Bye => 0,
            _ => self.pairer.entrants[self.entrants[v]].score.0,
        }
    }

    fn in_bracket(&self, v: usize) -> bool {
        matches!(self.roles[v], Role::MovedDown | Role::Resident)
    }

    /// A.8: a downfloater's score difference, its score minus the bracket's lowest score
    /// plus one point (tenths of a point).
    fn float_difference(&self, v: usize) -> u32 {
        self.score(v) + Score::WIN.0 - self.lowest_score.0
    }

    /// The next bracket's (C.7) difference of `v` left unpaired there: a bracket player
    /// floating on, or a next-bracket resident floating down.
    fn next_float_difference(&self, v: usize) -> Option<u32> {
        let next_score = self.next_score?;
        (self.in_bracket(v) || self.roles[v] == Role::Next)
            .then(|| self.score(v) + Score::WIN.0 - next_score.0)
    }

    /// The next bracket's difference of a pair made there: a bracket player's downfloat
    /// against a next-bracket resident, or two next-bracket residents.
    fn next_pair_difference(&self, a: usize, b: usize) -> Option<u32> {
        self.next_score?;
        let next = |v: usize| self.roles[v] == Role::Next;
        let in_next = |v: usize| self.in_bracket(v) || next(v);
        (in_next(a) && in_next(b) && (next(a) || next(b)))
            .then(|| self.score(a).abs_diff(self.score(b)))
    }

    fn allowed(&self, a: usize, b: usize) -> bool {
        match (self.roles[a], self.roles[b]) {
            (Role::Bye, Role::Bye) => false,
            // B.3: moved-down players are paired with residents, not with each other.
            (Role::MovedDown, Role::MovedDown) => false,
            (Role::Bye, _) => self.pairer.bye_candidate(self.entrants[b]),
            (_, Role::Bye) => self.pairer.bye_candidate(self.entrants[a]),
            _ => self.pairer.compatible(self.entrants[a], self.entrants[b]),
        }
    }

    fn bye_refused(&self, v: usize) -> i64 {
        match self.roles[v] {
            Role::Bye => 0,
            _ => i64::from(!self.pairer.entrants[self.entrants[v]].bye_allowed),
        }
    }

    /// The weight of edge `a`-`b` (vertex indices, `a` ranked above `b` when both are
    /// players). Every component is the improvement over leaving both unpaired, so that
    /// unpaired players (downfloaters) count with their baseline.
    fn weight(&self, a: usize, b: usize, ordering: &Ordering<'_>) -> LexWeight {
        if let Mode::Global { bye_criterion } = self.mode {
            return self.weight_2025(a, b, ordering, bye_criterion);
        }
        let mut w = [0i64; LEX_COMPONENTS];
        let both_in = self.in_bracket(a) && self.in_bracket(b);
        if self.mode.completes() {
            // C.4: everybody paired (the bye is the dummy's edge).
            w[COMPLETION] = 1;
        }
        if both_in {
            w[BRACKET_PAIRS] = 1; // C.5
        }
        let mut at = BRACKET_PAIRS + 1;
        // C.6: the PSD, as counts per score difference, largest first; a pair replaces its
        // two players' downfloater differences by its own.
        let index_of = |list: &[u32], d: u32| list.iter().position(|&x| x == d).expect("listed");
        if both_in {
            w[at + index_of(&self.bracket_differences, self.float_difference(a))] += 1;
            w[at + index_of(&self.bracket_differences, self.float_difference(b))] += 1;
            w[at + index_of(
                &self.bracket_differences,
                self.score(a).abs_diff(self.score(b)),
            )] -= 1;
        }
        at += self.bracket_differences.len();
        // C.7: pairs, then the PSD, of the next bracket.
        if let Mode::Ordinary { next_is_last } = self.mode {
            if next_is_last {
                // The next bracket is the last: every pair of the two brackets counts, and
                // pairs of players refused the bye count more, leaving it to one allowed it.
                w[at] = 1 + self.bye_refused(a) + self.bye_refused(b);
            }
            if let Some(d) = self.next_pair_difference(a, b) {
                if !next_is_last {
                    w[at] = 1;
                }
                w[at + 1 + index_of(&self.next_differences, d)] -= 1;
            }
            for v in [a, b] {
                let leaves_next = self.next_pair_difference(a, b).is_some() || both_in;
                if let (true, Some(d)) = (leaves_next, self.next_float_difference(v)) {
                    w[at + 1 + index_of(&self.next_differences, d)] += 1;
                }
            }
            at += 1 + self.next_differences.len();
        }
        // Colours (C.8-C.11) of pairs made in the bracket.
        if both_in {
            let misses = self.colour_criteria(a, b);
            w[at..at + 4].copy_from_slice(&misses);
        }
        at += 4;
        // Floats (C.12-C.19). Unpaired bracket players float down; a pair in the bracket
        // replaces that by its own floats: down for the higher score, up for the lower.
        if both_in {
            for (me, other) in [(a, b), (b, a)] {
                let entrant = &self.pairer.entrants[self.entrants[me]];
                let float = match self.score(me).cmp(&self.score(other)) {
                    std::cmp::Ordering::Greater => Float::Down,
                    std::cmp::Ordering::Less => Float::Up,
                    std::cmp::Ordering::Equal => Float::None,
                };
                let difference = i64::from(self.score(me).abs_diff(self.score(other)));
                let baseline = i64::from(self.float_difference(me));
                for (back, &earlier) in entrant.floats.iter().enumerate() {
                    if earlier == Float::Down {
                        w[at + 2 * back] += 1; // no longer the baseline downfloat
                        w[at + 4 + 2 * back] += baseline;
                    }
                    if float != Float::None && earlier == float {
                        let index = 2 * back + usize::from(float == Float::Up);
                        w[at + index] -= 1; // C.12-C.15
                        w[at + 4 + index] -= difference; // C.16-C.19
                    }
                }
            }
        }
        at += 8;
        self.add_ordering(&mut w, at, a, b, ordering);
        LexWeight(w)
    }

    /// The weight by the 2025 text (as bbpPairings 6 orders it): completion, pairs and the
    /// scores they pair in the bracket, then in the next bracket, the bye's assignee's
    /// unplayed games, colours, repeated floats, then the scores of repeated floaters and of
    /// repeated upfloaters' opponents, then the candidate order.
    fn weight_2025(
        &self,
        a: usize,
        b: usize,
        ordering: &Ordering<'_>,
        bye_criterion: bool,
    ) -> LexWeight {
        let mut w = [0i64; LEX_COMPONENTS];
        w[COMPLETION] = 1;
        let players =
            a.max(b) != usize::MAX && self.roles[a] != Role::Bye && self.roles[b] != Role::Bye;
        let both_in = self.in_bracket(a) && self.in_bracket(b);
        let groups = self.pairer.scores.len();
        let bits = field_bits(self.pairer.entrants.len() * 2);
        let words = packed_words(groups, bits);
        let group = |v: usize| {
            let score = self.pairer.entrants[self.entrants[v]].score;
            self.pairer
                .scores
                .iter()
                .position(|&s| s == score)
                .expect("a score")
        };
        // `a` is ranked above `b` when both are players.
        let mut at = BRACKET_PAIRS;
        if both_in {
            w[at] = 1;
            add_packed(&mut w, at + 1, group(a), bits, 1);
        }
        at += 1 + words;
        let next_pair = players
            && (self.roles[b] == Role::Next)
            && (self.in_bracket(a) || self.roles[a] == Role::Next);
        if next_pair {
            w[at] = 1;
            add_packed(&mut w, at + 1, group(a), bits, 1);
        }
        at += 1 + words;
        if bye_criterion && players {
            for v in [a, b] {
                if self.roles[v] != Role::Bye
                    && let Some(&(_, rank)) = self
                        .pairer
                        .unplayed_ranks
                        .iter()
                        .find(|&&(p, _)| p == self.entrants[v])
                {
                    w[at] += rank;
                }
            }
        }
        at += 1;
        if both_in {
            let misses = self.colour_criteria(a, b);
            w[at..at + 4].copy_from_slice(&misses);
        }
        at += 4;
        let float_scores = at + 4;
        if both_in {
            let (higher, lower) = (
                &self.pairer.entrants[self.entrants[a]],
                &self.pairer.entrants[self.entrants[b]],
            );
            let down = higher.score > lower.score;
            for back in 0..2 {
                // Repeated downfloats avoided: the lower player pairs in the bracket, and so
                // does the higher one when it does not float down.
                w[at + 2 * back] += i64::from(lower.floats[back] == Float::Down)
                    + i64::from(!down && higher.floats[back] == Float::Down);
                let repeated_up = down && lower.floats[back] == Float::Up;
                w[at + 2 * back + 1] += i64::from(!repeated_up);
                let base = float_scores + 2 * back * words;
                if lower.floats[back] == Float::Down {
                    add_packed(&mut w, base, group(b), bits, 1);
                }
                if higher.floats[back] == Float::Down {
                    add_packed(&mut w, base, group(a), bits, 1);
                }
                if !repeated_up {
                    add_packed(&mut w, base + words, group(a), bits, 1);
                }
            }
        }
        at = float_scores + 4 * words;
        self.add_ordering(&mut w, at, a, b, ordering);
        LexWeight(w)
    }

    /// C.8-C.11 for a pair made in the bracket: minus the number of topscorers (or their
    /// opponents) with a colour difference beyond ±2, or the same colour three times, then
    /// minus the players who miss their colour preference, then their strong one (the
    /// colours allocated by E.1-E.5).
    fn colour_criteria(&self, a: usize, b: usize) -> [i64; 4] {
        let (x, y) = (
            &self.pairer.entrants[self.entrants[a]],
            &self.pairer.entrants[self.entrants[b]],
        );
        let (higher, lower) = if self.entrants[a] < self.entrants[b] {
            (x, y)
        } else {
            (y, x)
        };
        let (white, _) = allocate_colours(higher, lower, Colour::White);
        let mut top_difference = 0;
        let mut top_three = 0;
        let mut missed = 0;
        let mut missed_strong = 0;
        let topscorers = self.pairer.final_round && (x.topscorer || y.topscorer);
        for player in [x, y] {
            let colour = if player.start_rank == white {
                Colour::White
            } else {
                Colour::Black
            };
            let difference =
                player.colour_difference + if colour == Colour::White { 1 } else { -1 };
            let n = player.colours.len();
            let three =
                n >= 2 && player.colours[n - 1] == colour && player.colours[n - 2] == colour;
            if topscorers && difference.abs() > 2 {
                top_difference += 1;
            }
            if topscorers && three {
                top_three += 1;
            }
            if player.preference.is_some_and(|p| p != colour) {
                missed += 1;
                if player.strength >= Strength::Strong {
                    missed_strong += 1;
                }
            }
        }
        [-top_difference, -top_three, -missed, -missed_strong]
    }

    /// The handbook's candidate order (B.3, B.5, B.6), from component `at` on.
    fn add_ordering(
        &self,
        w: &mut [i64; LEX_COMPONENTS],
        at: usize,
        a: usize,
        b: usize,
        ordering: &Ordering<'_>,
    ) {
        match ordering {
            Ordering::None => {}
            // Each component is the gain over leaving the player unpaired, the worst
            // position, so that unpaired players need no edge.
            Ordering::MovedDown { mdps, residents } => {
                for (me, other) in [(a, b), (b, a)] {
                    if let (Some(position), Some(partner)) = (
                        mdps.iter().position(|&v| v == me),
                        residents.iter().position(|&v| v == other),
                    ) {
                        let bits = field_bits(residents.len());
                        add_packed(
                            w,
                            at + 1,
                            position,
                            bits,
                            (residents.len() - partner) as i64,
                        );
                    }
                }
            }
            Ordering::Remainder { s1, s2 } => {
                let bsn = |v: usize| {
                    s1.iter()
                        .chain(s2.iter())
                        .position(|&x| x == v)
                        .map(|i| i + 1)
                };
                if let (Some(x), Some(y)) = (bsn(a), bsn(b)) {
                    let all = s1.len() + s2.len();
                    // The pair's S1 member is the one with the lower BSN (B.5, B.6).
                    let (member, partner) = (x.min(y), x.max(y));
                    let member_vertex = if x < y { a } else { b };
                    let out_flags = at + 2;
                    let in_flags = out_flags + packed_words(s1.len(), 1);
                    let order = in_flags + packed_words(s2.len(), 1);
                    // B.6: the fewest exchanges (pairs of two S2 players), then the smallest
                    // difference between the BSNs moved into S1 and those moved out, i.e.
                    // the smallest sum of the S1 members' BSNs ...
                    if member > s1.len() {
                        w[at] = -1;
                        // ... then moving in the S2 players with the lowest BSNs ...
                        add_packed(w, in_flags, member - s1.len() - 1, 1, 1);
                    } else {
                        // ... after moving out the S1 players with the highest BSNs.
                        let from_bottom = s1
                            .iter()
                            .rev()
                            .position(|&v| v == member_vertex)
                            .expect("in S1");
                        add_packed(w, out_flags, from_bottom, 1, -1);
                    }
                    w[at + 1] = -(member as i64);
                    // B.5: then the S1 members in order, each against the earliest S2
                    // player possible.
                    add_packed(
                        w,
                        order,
                        member,
                        field_bits(all + 1),
                        (all + 1 - partner) as i64,
                    );
                }
            }
        }
    }

    /// A maximum-weight matching with `ordering`. In the last bracket every player must be
    /// paired (`None` otherwise: the absolute criteria allow no complete pairing).
    fn solve(
        &self,
        ordering: &Ordering<'_>,
        excluded: &HashSet<(usize, usize)>,
    ) -> Option<Vec<Option<usize>>> {
        let n = self.roles.len();
        let fixed_vertex = |v: usize| self.fixed.iter().any(|&(a, b)| a == v || b == v);
        let mut edges = Vec::new();
        for a in 0..n {
            for b in a + 1..n {
                if !self.allowed(a, b) || excluded.contains(&(a, b)) {
                    continue;
                }
                if (fixed_vertex(a) || fixed_vertex(b))
                    && !self
                        .fixed
                        .iter()
                        .any(|&(x, y)| (x, y) == (a, b) || (y, x) == (a, b))
                {
                    continue;
                }
                let (first, second) = if self.roles[b] == Role::Bye
                    || (self.roles[a] != Role::Bye && self.entrants[a] < self.entrants[b])
                {
                    (a, b)
                } else {
                    (b, a)
                };
                let weight = self.weight(first, second, ordering);
                if weight > LexWeight::zero() {
                    edges.push((a, b, weight));
                }
            }
        }
        let mates = max_weight_matching(n, &edges);
        if self.mode.completes() && mates.iter().any(Option::is_none) {
            return None;
        }
        Some(mates)
    }
}
