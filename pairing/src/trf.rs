//! FIDE Tournament Report File, 2016 format (TRF-16), with the `XXR` and `XXC` extensions
//! that JaVaFo and bbpPairings read, and the value of the pairing-allocated bye from
//! JaVaFo's `XXS PAB=` and bbpPairings' `BBU` lines: parse ([`parse`]) and write
//! ([`Tournament::to_trf`]).
//!
//! ```
//! use kaboom_pairing::trf::{parse, Colour, GameResult};
//!
//! let text = "\
//! 012 Kaboom league
//! XXR 3
//! XXC white1
//! 001    1      Alice                             1900                             1.0    1     2 w 1
//! 001    2      Bob                               1800                             0.0    2     1 b 0
//! ";
//! let tournament = parse(text).unwrap();
//! assert_eq!(tournament.planned_rounds, Some(3));
//! assert_eq!(tournament.players[0].name, "Alice");
//! let game = &tournament.players[1].games[0];
//! assert_eq!((game.opponent, game.colour, game.result), (Some(1), Some(Colour::Black), GameResult::Loss));
//! // Writing gives back the same text.
//! assert_eq!(tournament.to_trf(), text);
//! ```
//!
//! # Columns (TRF-16, "Player section", record `001`)
//!
//! | columns (1-based) | field |
//! |---|---|
//! | 1-3 | `001` |
//! | 5-8 | starting rank |
//! | 10 | sex |
//! | 11-13 | title |
//! | 15-47 | name |
//! | 49-52 | FIDE rating |
//! | 54-56 | federation |
//! | 58-68 | FIDE number |
//! | 70-79 | birth date |
//! | 81-84 | points (`4.5`) |
//! | 86-89 | rank |
//! | 92-95, 97, 99 | round 1: opponent's starting rank (`0000` for none), colour (`w`, `b`, `-`), result |
//! | +10 per round | the same for rounds 2, 3, ... |
//!
//! Result codes: `1 0 =` played games; `+ -` forfeits; `W D L` unrated games; `H` half-point
//! bye, `F` full-point bye, `U` pairing-allocated bye, `Z` zero-point bye; blank: not paired.
//! Lines other than `001`, `XXR` and `XXC` are kept verbatim, in order, for writing back.
//!
//! # The value of the pairing-allocated bye
//!
//! Points are the standard ones (win 1, draw ½, loss 0; `F` 1, `H` ½, `Z` 0), except that a
//! tournament may give the pairing-allocated bye (`U`) fewer points than a win:
//! [`Tournament::pab_points`], read from either of the two extensions that carry it:
//!
//! - JaVaFo's point system, `XXS CODE=VALUE ...` (JaVaFo 2 Advanced User Manual, "Scoring
//!   point system", <https://www.rrweb.org/javafo/aum/JaVaFo2_AUM.htm>): `PAB` is the code
//!   of the pairing-allocated bye (default 1.0; the shortcut `W` does not include it), the
//!   value a decimal number such as `.5`; a line may hold several codes and a file several
//!   `XXS` lines, the last one said winning. For example `XXS PAB=0.5`. The other codes
//!   (`W`, `D`, `WW`, `FPB`, ...) are not read: their line is kept verbatim.
//! - bbpPairings' `BBU` line (`src/fileformats/trf.cpp` of
//!   BieremaBoyzProgramming/bbpPairings, `readPoints`: the points, with at most one
//!   decimal, in columns 5-12, so the line has at least 8 characters; bbpPairings writes
//!   `"BBU "` and the points right-aligned in 4 columns): `BBU  0.5`. Its other point lines
//!   (`BBW`, `BBD`, ...) are not read; note that without `BBU`, bbpPairings gives the
//!   pairing-allocated bye the points of `BBW`.
//!
//! Both lines are kept verbatim where they were; if a file has both, the last line read
//! sets [`Tournament::pab_points`]. [`Tournament::to_trf`] writes `XXS PAB=` and `BBU` lines
//! only when the lines kept do not already say the value: a file read is written back as it
//! was, and a tournament built in code with a bye of ½ or 0 points gets both lines, so that
//! either program reads it.
//!
//! ```
//! use kaboom_pairing::{trf, Score};
//!
//! let text = "\
//! XXR 3
//! XXS PAB=0.5
//! 001    1      Alice                                                              0.5       0000 - U
//! ";
//! let tournament = trf::parse(text).unwrap();
//! assert_eq!(tournament.pab_points, Score::DRAW);
//! let alice = &tournament.players[0];
//! assert_eq!(tournament.points_after(alice, 1), Score::DRAW);
//! assert_eq!(tournament.to_trf(), text);
//! ```

use crate::score::{Score, ScoreError};

/// A piece colour in a game record.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Colour {
    /// White (`w` in TRF).
    White,
    /// Black (`b` in TRF).
    Black,
}

impl Colour {
    /// The other colour.
    #[must_use]
    pub fn opposite(self) -> Colour {
        match self {
            Colour::White => Colour::Black,
            Colour::Black => Colour::White,
        }
    }
}

/// The result code of one round of a player (TRF-16 player section, column 99 and every
/// 10 columns after it).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum GameResult {
    /// `1`: won a played game.
    Win,
    /// `=`: drew a played game.
    Draw,
    /// `0`: lost a played game.
    Loss,
    /// `+`: won by forfeit (the game was not played).
    ForfeitWin,
    /// `-`: lost by forfeit (the game was not played).
    ForfeitLoss,
    /// `W`: won an unrated game of less than one move.
    UnratedWin,
    /// `D`: drew an unrated game of less than one move.
    UnratedDraw,
    /// `L`: lost an unrated game of less than one move.
    UnratedLoss,
    /// `H`: half-point bye (requested absence).
    HalfPointBye,
    /// `F`: full-point bye.
    FullPointBye,
    /// `U`: pairing-allocated bye (C.04.1.c: the unpaired player of an odd field).
    PairingAllocatedBye,
    /// `Z`: zero-point bye (absence).
    ZeroPointBye,
    /// Blank: not paired in this round.
    NotPaired,
}

impl GameResult {
    /// The TRF-16 code of this result.
    #[must_use]
    pub fn code(self) -> char {
        match self {
            GameResult::Win => '1',
            GameResult::Draw => '=',
            GameResult::Loss => '0',
            GameResult::ForfeitWin => '+',
            GameResult::ForfeitLoss => '-',
            GameResult::UnratedWin => 'W',
            GameResult::UnratedDraw => 'D',
            GameResult::UnratedLoss => 'L',
            GameResult::HalfPointBye => 'H',
            GameResult::FullPointBye => 'F',
            GameResult::PairingAllocatedBye => 'U',
            GameResult::ZeroPointBye => 'Z',
            GameResult::NotPaired => ' ',
        }
    }

    /// The result of a TRF-16 code (case-insensitive), `None` for an unknown code.
    #[must_use]
    pub fn from_code(code: char) -> Option<GameResult> {
        Some(match code.to_ascii_uppercase() {
            '1' => GameResult::Win,
            '=' => GameResult::Draw,
            '0' => GameResult::Loss,
            '+' => GameResult::ForfeitWin,
            '-' => GameResult::ForfeitLoss,
            'W' => GameResult::UnratedWin,
            'D' => GameResult::UnratedDraw,
            'L' => GameResult::UnratedLoss,
            'H' => GameResult::HalfPointBye,
            'F' => GameResult::FullPointBye,
            'U' => GameResult::PairingAllocatedBye,
            'Z' => GameResult::ZeroPointBye,
            ' ' => GameResult::NotPaired,
            _ => return None,
        })
    }

    /// Points for this result with the standard point system (win 1, draw ½, loss 0), the
    /// pairing-allocated bye scoring `pab_points` ([`Tournament::points_of`]).
    fn points(self, pab_points: Score) -> Score {
        match self {
            GameResult::PairingAllocatedBye => pab_points,
            GameResult::Win
            | GameResult::ForfeitWin
            | GameResult::UnratedWin
            | GameResult::FullPointBye => Score::WIN,
            GameResult::Draw | GameResult::UnratedDraw | GameResult::HalfPointBye => Score::DRAW,
            GameResult::Loss
            | GameResult::ForfeitLoss
            | GameResult::UnratedLoss
            | GameResult::ZeroPointBye
            | GameResult::NotPaired => Score::ZERO,
        }
    }

    /// Whether the game was played over the board (`1 = 0 W D L`): the games that count
    /// for colours (C.04.3 A.6) and for "have met" (C.04.3 C.1).
    #[must_use]
    pub fn was_played(self) -> bool {
        matches!(
            self,
            GameResult::Win
                | GameResult::Draw
                | GameResult::Loss
                | GameResult::UnratedWin
                | GameResult::UnratedDraw
                | GameResult::UnratedLoss
        )
    }
}

/// One round of one player: opponent, colour and result (TRF-16 columns 92-99, +10 per
/// round).
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct RoundRecord {
    /// The opponent's starting rank, `None` for `0000` (byes, absences).
    pub opponent: Option<u32>,
    /// The colour played, `None` for `-` (no colour: byes, forfeits without colour).
    pub colour: Option<Colour>,
    /// The result code.
    pub result: GameResult,
}

impl RoundRecord {
    /// An empty record: not paired in this round.
    pub const NOT_PAIRED: RoundRecord = RoundRecord {
        opponent: None,
        colour: None,
        result: GameResult::NotPaired,
    };

    /// Whether the player took part in the pairing of this round: had an opponent (played
    /// or forfeited) or received the pairing-allocated bye (`U`).
    #[must_use]
    pub fn was_paired(&self) -> bool {
        self.opponent.is_some() || self.result == GameResult::PairingAllocatedBye
    }
}

/// One player line (`001` record) of a TRF-16 file.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Player {
    /// Starting rank (pairing number), columns 5-8.
    pub start_rank: u32,
    /// Sex, column 10 (`m`, `w` or blank).
    pub sex: char,
    /// Title, columns 11-13 (`GM`, `wIM`, ... or blank), trimmed.
    pub title: String,
    /// Name, columns 15-47, trimmed.
    pub name: String,
    /// FIDE rating, columns 49-52, 0 if blank.
    pub rating: u32,
    /// Federation, columns 54-56, trimmed.
    pub federation: String,
    /// FIDE number, columns 58-68, trimmed.
    pub fide_id: String,
    /// Birth date, columns 70-79, trimmed.
    pub birth_date: String,
    /// Points as written in the file, columns 81-84.
    pub points: Score,
    /// Rank as written in the file, columns 86-89, 0 if blank.
    pub rank: u32,
    /// Per round (index 0 = round 1): opponent, colour, result.
    pub games: Vec<RoundRecord>,
}

impl Player {
    /// A player with a starting rank, a name and a rating, no games and blank other fields.
    #[must_use]
    pub fn new(start_rank: u32, name: &str, rating: u32) -> Player {
        Player {
            start_rank,
            sex: ' ',
            title: String::new(),
            name: name.to_owned(),
            rating,
            federation: String::new(),
            fide_id: String::new(),
            birth_date: String::new(),
            points: Score::ZERO,
            rank: 0,
            games: Vec::new(),
        }
    }

    /// The record of round `round` (1-based); [`RoundRecord::NOT_PAIRED`] after the last
    /// recorded round.
    #[must_use]
    pub fn round(&self, round: u32) -> RoundRecord {
        round
            .checked_sub(1)
            .and_then(|index| self.games.get(index as usize))
            .copied()
            .unwrap_or(RoundRecord::NOT_PAIRED)
    }
}

/// A tournament as a TRF-16 file describes it.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Tournament {
    /// The players, in the order of the file.
    pub players: Vec<Player>,
    /// `XXR`: the number of rounds planned (JaVaFo/bbpPairings extension); `None` if absent.
    pub planned_rounds: Option<u32>,
    /// `XXC`: the colour of the first player in round 1 (`white1` or `black1`); `None` if
    /// absent, which pairing reads as White.
    pub initial_colour: Option<Colour>,
    /// The points of a pairing-allocated bye (`U`, C.04.1.c): one point ([`Score::WIN`])
    /// unless JaVaFo's `XXS PAB=` or bbpPairings' `BBU` line says otherwise (see the module
    /// documentation). Every result is scored through it: [`Tournament::points_of`].
    #[serde(default = "one_point")]
    pub pab_points: Score,
    /// Every other line (`012` name, `022` city, `092` type, `XXS`, `BBU`, ...), verbatim
    /// and in order, with its position among all lines so writing restores the layout.
    pub other_lines: Vec<(usize, String)>,
}

fn one_point() -> Score {
    Score::WIN
}

impl Default for Tournament {
    /// No players, no `XXR`/`XXC`, a one-point pairing-allocated bye, no other lines.
    fn default() -> Tournament {
        Tournament {
            players: Vec::new(),
            planned_rounds: None,
            initial_colour: None,
            pab_points: Score::WIN,
            other_lines: Vec::new(),
        }
    }
}

/// Why a TRF file could not be read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum TrfError {
    /// A `001` line is malformed; `line` is 1-based.
    #[error("line {line}: bad player line: {reason}")]
    BadPlayerLine {
        /// The line number (1-based).
        line: usize,
        /// What is wrong.
        reason: PlayerLineProblem,
    },
    /// An `XXR` line does not hold a positive number of rounds.
    #[error("line {line}: XXR needs a positive number of rounds")]
    BadRoundCount {
        /// The line number (1-based).
        line: usize,
    },
    /// An `XXC` line holds neither `white1` nor `black1`.
    #[error("line {line}: XXC needs white1 or black1")]
    BadInitialColour {
        /// The line number (1-based).
        line: usize,
    },
    /// The points of the pairing-allocated bye in an `XXS` line (`PAB=`) or a `BBU` line are
    /// not a number of points with at most one decimal.
    #[error("line {line}: the points of the pairing-allocated bye are not a number like 0.5")]
    BadByePoints {
        /// The line number (1-based).
        line: usize,
    },
    /// Two player lines have the same starting rank.
    #[error("line {line}: starting rank {start_rank} is repeated")]
    RepeatedStartRank {
        /// The line number (1-based) of the second occurrence.
        line: usize,
        /// The repeated starting rank.
        start_rank: u32,
    },
    /// A game names an opponent that has no player line.
    #[error("player {player}, round {round}: opponent {opponent} is not in the file")]
    UnknownOpponent {
        /// The player's starting rank.
        player: u32,
        /// The round (1-based).
        round: u32,
        /// The missing opponent's starting rank.
        opponent: u32,
    },
}

/// What is wrong with a `001` line ([`TrfError::BadPlayerLine`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PlayerLineProblem {
    /// Columns 5-8 are not a positive number.
    #[error("the starting rank (columns 5-8) is not a positive number")]
    StartRank,
    /// Columns 49-52 are neither blank nor a number.
    #[error("the rating (columns 49-52) is not a number")]
    Rating,
    /// Columns 81-84 are neither blank nor a number of points like `4.5`.
    #[error("the points (columns 81-84) are not a number")]
    Points,
    /// Columns 86-89 are neither blank nor a number.
    #[error("the rank (columns 86-89) is not a number")]
    Rank,
    /// A round's opponent field is not a number.
    #[error("round {round}: the opponent is not a number")]
    Opponent {
        /// The round (1-based).
        round: u32,
    },
    /// A round's colour is not `w`, `b`, `-` or blank.
    #[error("round {round}: the colour is not w, b or -")]
    Colour {
        /// The round (1-based).
        round: u32,
    },
    /// A round's result code is unknown.
    #[error("round {round}: unknown result code")]
    Result {
        /// The round (1-based).
        round: u32,
    },
}

/// Characters of a line, indexable by column; missing columns read as blanks.
struct Columns(Vec<char>);

impl Columns {
    /// Columns `from..=to` (1-based, inclusive), trimmed.
    fn field(&self, from: usize, to: usize) -> String {
        let end = to.min(self.0.len());
        if from > end {
            return String::new();
        }
        self.0[from - 1..end]
            .iter()
            .collect::<String>()
            .trim()
            .to_owned()
    }

    fn char_at(&self, column: usize) -> char {
        self.0.get(column - 1).copied().unwrap_or(' ')
    }
}

fn parse_optional_number(text: &str) -> Option<Option<u32>> {
    if text.is_empty() {
        Some(None)
    } else {
        text.parse().ok().map(Some)
    }
}

/// Reads a TRF-16 file. Line endings may be `\n`, `\r\n` or `\r` (bbpPairings writes `\r`).
///
/// # Errors
/// [`TrfError`] for the first malformed `001`, `XXR` or `XXC` line, an `XXS` `PAB=` or a
/// `BBU` value that is not a number of points, a repeated starting rank, or an opponent
/// without a player line.
pub fn parse(text: &str) -> Result<Tournament, TrfError> {
    let mut tournament = Tournament::default();
    let normalized = text.replace("\r\n", "\n").replace('\r', "\n");
    for (index, line) in normalized.lines().enumerate() {
        let number = index + 1;
        if line.starts_with("001") {
            let player = parse_player(line).map_err(|reason| TrfError::BadPlayerLine {
                line: number,
                reason,
            })?;
            if tournament
                .players
                .iter()
                .any(|other| other.start_rank == player.start_rank)
            {
                return Err(TrfError::RepeatedStartRank {
                    line: number,
                    start_rank: player.start_rank,
                });
            }
            tournament.players.push(player);
        } else if let Some(rest) = line.strip_prefix("XXR") {
            match rest.trim().parse::<u32>() {
                Ok(rounds) if rounds > 0 => tournament.planned_rounds = Some(rounds),
                _ => return Err(TrfError::BadRoundCount { line: number }),
            }
        } else if let Some(rest) = line.strip_prefix("XXC") {
            let mut colour = None;
            for word in rest.split_whitespace() {
                match word.to_ascii_lowercase().as_str() {
                    "white1" => colour = Some(Colour::White),
                    "black1" => colour = Some(Colour::Black),
                    _ => {}
                }
            }
            match colour {
                Some(colour) => tournament.initial_colour = Some(colour),
                None => return Err(TrfError::BadInitialColour { line: number }),
            }
        } else {
            if let Some((_, points)) =
                stated_pab_points(line).map_err(|_| TrfError::BadByePoints { line: number })?
            {
                tournament.pab_points = points;
            }
            tournament.other_lines.push((index, line.to_owned()));
        }
    }
    for player in &tournament.players {
        for (round, game) in player.games.iter().enumerate() {
            if let Some(opponent) = game.opponent
                && !tournament
                    .players
                    .iter()
                    .any(|other| other.start_rank == opponent)
            {
                return Err(TrfError::UnknownOpponent {
                    player: player.start_rank,
                    round: round as u32 + 1,
                    opponent,
                });
            }
        }
    }
    Ok(tournament)
}

/// The extension line that states the points of the pairing-allocated bye.
#[derive(Clone, Copy, PartialEq, Eq)]
enum PabLine {
    /// JaVaFo's `XXS ... PAB=VALUE ...`.
    Xxs,
    /// bbpPairings' `BBU VALUE`.
    Bbu,
}

/// The points of the pairing-allocated bye that `line` states, and in which extension:
/// the last `PAB=` of an `XXS` line (JaVaFo), the value of a `BBU` line (bbpPairings);
/// `Ok(None)` for any other line, an `XXS` line without `PAB=` included.
fn stated_pab_points(line: &str) -> Result<Option<(PabLine, Score)>, ScoreError> {
    if let Some(codes) = line.strip_prefix("XXS") {
        let mut stated = None;
        for word in codes.split_whitespace() {
            if let Some(value) = word.strip_prefix("PAB=") {
                stated = Some((PabLine::Xxs, value.parse()?));
            }
        }
        Ok(stated)
    } else if let Some(value) = line.strip_prefix("BBU") {
        Ok(Some((PabLine::Bbu, value.parse()?)))
    } else {
        Ok(None)
    }
}

fn parse_player(line: &str) -> Result<Player, PlayerLineProblem> {
    let columns = Columns(line.chars().collect());
    let start_rank = match columns.field(5, 8).parse::<u32>() {
        Ok(rank) if rank > 0 => rank,
        _ => return Err(PlayerLineProblem::StartRank),
    };
    let rating = parse_optional_number(&columns.field(49, 52))
        .ok_or(PlayerLineProblem::Rating)?
        .unwrap_or(0);
    let points_text = columns.field(81, 84);
    let points = if points_text.is_empty() {
        Score::ZERO
    } else {
        points_text
            .parse::<Score>()
            .map_err(|_| PlayerLineProblem::Points)?
    };
    let rank = parse_optional_number(&columns.field(86, 89))
        .ok_or(PlayerLineProblem::Rank)?
        .unwrap_or(0);
    let mut games = Vec::new();
    let mut start = 92;
    while start <= columns.0.len() {
        let round = games.len() as u32 + 1;
        let opponent_text = columns.field(start, start + 3);
        let opponent = match parse_optional_number(&opponent_text)
            .ok_or(PlayerLineProblem::Opponent { round })?
        {
            Some(0) | None => None,
            Some(number) => Some(number),
        };
        let colour = match columns.char_at(start + 5).to_ascii_lowercase() {
            'w' => Some(Colour::White),
            'b' => Some(Colour::Black),
            '-' | ' ' => None,
            _ => return Err(PlayerLineProblem::Colour { round }),
        };
        let result = GameResult::from_code(columns.char_at(start + 7))
            .ok_or(PlayerLineProblem::Result { round })?;
        games.push(RoundRecord {
            opponent,
            colour,
            result,
        });
        start += 10;
    }
    // Trailing empty rounds carry no information.
    while games.last() == Some(&RoundRecord::NOT_PAIRED) {
        games.pop();
    }
    Ok(Player {
        start_rank,
        sex: columns.char_at(10),
        title: columns.field(11, 13),
        name: columns.field(15, 47),
        rating,
        federation: columns.field(54, 56),
        fide_id: columns.field(58, 68),
        birth_date: columns.field(70, 79),
        points,
        rank,
        games,
    })
}

impl Player {
    /// This player's `001` line in TRF-16 columns, without a line ending.
    #[must_use]
    pub fn to_trf_line(&self) -> String {
        let number_or_blank = |value: u32| {
            if value == 0 {
                String::new()
            } else {
                value.to_string()
            }
        };
        let mut line = format!(
            "001 {:>4} {}{:>3} {:<33} {:>4} {:<3} {:>11} {:<10} {:>4} {:>4}",
            self.start_rank,
            self.sex,
            self.title,
            truncate(&self.name, 33),
            number_or_blank(self.rating),
            truncate(&self.federation, 3),
            truncate(&self.fide_id, 11),
            truncate(&self.birth_date, 10),
            self.points.to_string(),
            number_or_blank(self.rank),
        );
        for game in &self.games {
            let opponent = game
                .opponent
                .map_or_else(|| "0000".to_owned(), |number| format!("{number:>4}"));
            let colour = match game.colour {
                Some(Colour::White) => 'w',
                Some(Colour::Black) => 'b',
                None => '-',
            };
            if *game == RoundRecord::NOT_PAIRED {
                line.push_str("          ");
            } else {
                line.push_str(&format!("  {opponent} {colour} {}", game.result.code()));
            }
        }
        line.trim_end().to_owned()
    }
}

fn truncate(text: &str, width: usize) -> String {
    text.chars().take(width).collect()
}

impl Tournament {
    /// The tournament as TRF-16 text, lines ending in `\n`: the other lines at their
    /// original positions, `XXR` and `XXC` if set, the value of the pairing-allocated bye
    /// (`XXS PAB=0.5` and `BBU  0.5`) unless it is one point or the other lines already
    /// state it, then the player lines (bbpPairings and JaVaFo read it).
    ///
    /// The bye's lines are written when the `XXS PAB=` or the `BBU` lines kept in
    /// [`Tournament::other_lines`] end on another value than [`Tournament::pab_points`] (the
    /// new lines come after them, and both programs take the last value read), or when
    /// neither kind states a value and the bye is not worth one point.
    #[must_use]
    pub fn to_trf(&self) -> String {
        let mut generated = Vec::new();
        if let Some(rounds) = self.planned_rounds {
            generated.push(format!("XXR {rounds}"));
        }
        if let Some(colour) = self.initial_colour {
            generated.push(format!(
                "XXC {}",
                if colour == Colour::White {
                    "white1"
                } else {
                    "black1"
                }
            ));
        }
        // What each program reads from the lines kept: its last value, if any.
        let stated = |extension: PabLine| {
            self.other_lines
                .iter()
                .rev()
                .filter_map(|(_, line)| stated_pab_points(line).ok().flatten())
                .find(|&(from, _)| from == extension)
                .map(|(_, points)| points)
        };
        let write_pab = match (stated(PabLine::Xxs), stated(PabLine::Bbu)) {
            (None, None) => self.pab_points != Score::WIN,
            (javafo, bbp) => [javafo, bbp]
                .into_iter()
                .flatten()
                .any(|points| points != self.pab_points),
        };
        if write_pab {
            generated.push(format!("XXS PAB={}", self.pab_points));
            generated.push(format!("BBU {:>4}", self.pab_points.to_string()));
        }
        generated.extend(self.players.iter().map(Player::to_trf_line));
        let mut lines = Vec::new();
        let mut others = self.other_lines.iter().peekable();
        let mut generated = generated.into_iter();
        loop {
            match others.peek() {
                Some((position, line)) if *position <= lines.len() => {
                    lines.push(line.clone());
                    others.next();
                }
                _ => match generated.next() {
                    Some(line) => lines.push(line),
                    None => {
                        lines.extend(others.map(|(_, line)| line.clone()));
                        break;
                    }
                },
            }
        }
        let mut text = lines.join("\n");
        text.push('\n');
        text
    }

    /// The points of `result` in this tournament: win 1, draw ½, loss 0 (played, forfeited
    /// or unrated alike); byes `F` 1, `H` ½, `Z` 0; the pairing-allocated bye `U`
    /// [`Tournament::pab_points`]; not paired 0.
    #[must_use]
    pub fn points_of(&self, result: GameResult) -> Score {
        result.points(self.pab_points)
    }

    /// The points of `player` from the first `rounds` rounds of [`Player::games`]
    /// ([`Tournament::points_of`]).
    #[must_use]
    pub fn points_after(&self, player: &Player, rounds: u32) -> Score {
        player
            .games
            .iter()
            .take(rounds as usize)
            .map(|game| self.points_of(game.result))
            .sum()
    }

    /// The player with starting rank `start_rank`.
    #[must_use]
    pub fn player(&self, start_rank: u32) -> Option<&Player> {
        self.players
            .iter()
            .find(|player| player.start_rank == start_rank)
    }

    /// The number of rounds already paired: the last round in which any player had an
    /// opponent or a pairing-allocated bye ([`RoundRecord::was_paired`]). Later columns
    /// hold only pre-entered absences for the next round.
    #[must_use]
    pub fn paired_rounds(&self) -> u32 {
        self.players
            .iter()
            .filter_map(|player| player.games.iter().rposition(RoundRecord::was_paired))
            .max()
            .map_or(0, |index| index as u32 + 1)
    }
}
