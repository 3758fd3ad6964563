//! TRF-16 reading and writing (FIDE Tournament Report File, 2016 format, with the `XXR` and
//! `XXC` extensions of JaVaFo and bbpPairings).

use kaboom_pairing::Score;
use kaboom_pairing::trf::{
    Colour, GameResult, Player, PlayerLineProblem, RoundRecord, Tournament, TrfError, parse,
};

/// A file in TRF-16 columns: every field of the `001` record filled, several result codes,
/// a pre-entered half-point bye in round 4 (the round to pair).
const FULL: &str = "\
012 Kaboom Autumn League
022 Discord
XXR 5
XXC black1
001    1 m GM Carlsen, Magnus                   2830 NOR     1503014 1990/11/30  2.5    1     3 w 1     2 b =     4 w 1  0000 - H
001    2 w IM Hou, Yifan                        2650 CHN     8602980 1994/02/27  2.0    2     4 b 1     1 w =  0000 - U
001    3      Nobody                            1500                             0.0    4     1 b 0     4 w -  0000 - Z
001    4      Somebody                                                           1.0    3     2 w 0     3 b +     1 b 0
";

#[test]
fn reads_every_column_of_a_player_line() {
    let tournament = parse(FULL).unwrap();
    assert_eq!(tournament.planned_rounds, Some(5));
    assert_eq!(tournament.initial_colour, Some(Colour::Black));
    let magnus = &tournament.players[0];
    assert_eq!(magnus.start_rank, 1);
    assert_eq!(magnus.sex, 'm');
    assert_eq!(magnus.title, "GM");
    assert_eq!(magnus.name, "Carlsen, Magnus");
    assert_eq!(magnus.rating, 2830);
    assert_eq!(magnus.federation, "NOR");
    assert_eq!(magnus.fide_id, "1503014");
    assert_eq!(magnus.birth_date, "1990/11/30");
    assert_eq!(magnus.points, Score(25));
    assert_eq!(magnus.rank, 1);
    assert_eq!(
        magnus.games,
        [
            RoundRecord {
                opponent: Some(3),
                colour: Some(Colour::White),
                result: GameResult::Win
            },
            RoundRecord {
                opponent: Some(2),
                colour: Some(Colour::Black),
                result: GameResult::Draw
            },
            RoundRecord {
                opponent: Some(4),
                colour: Some(Colour::White),
                result: GameResult::Win
            },
            RoundRecord {
                opponent: None,
                colour: None,
                result: GameResult::HalfPointBye
            },
        ]
    );
    let yifan = &tournament.players[1];
    assert_eq!(
        yifan.games[2],
        RoundRecord {
            opponent: None,
            colour: None,
            result: GameResult::PairingAllocatedBye
        }
    );
    let nobody = &tournament.players[2];
    assert_eq!(nobody.games[1].result, GameResult::ForfeitLoss);
    let somebody = &tournament.players[3];
    assert_eq!(
        (somebody.rating, somebody.title.as_str(), somebody.sex),
        (0, "", ' ')
    );
    // Round 3 had games and a pairing-allocated bye; round 4 holds only an absence.
    assert_eq!(tournament.paired_rounds(), 3);
}

#[test]
fn writing_gives_back_the_same_text() {
    let tournament = parse(FULL).unwrap();
    assert_eq!(tournament.to_trf(), FULL);
    assert_eq!(parse(&tournament.to_trf()).unwrap(), tournament);
}

#[test]
fn reads_carriage_return_line_endings() {
    let tournament = parse(&FULL.replace('\n', "\r")).unwrap();
    assert_eq!(tournament, parse(FULL).unwrap());
}

#[test]
fn a_tournament_built_in_code_round_trips() {
    let mut alice = Player::new(1, "Alice", 1900);
    alice.games.push(RoundRecord {
        opponent: Some(2),
        colour: Some(Colour::White),
        result: GameResult::Draw,
    });
    alice.points = Score::DRAW;
    let mut bob = Player::new(2, "Bob", 0);
    bob.games.push(RoundRecord {
        opponent: Some(1),
        colour: Some(Colour::Black),
        result: GameResult::Draw,
    });
    bob.points = Score::DRAW;
    let tournament = Tournament {
        players: vec![alice, bob],
        planned_rounds: Some(1),
        ..Tournament::default()
    };
    let text = tournament.to_trf();
    assert_eq!(
        text,
        "XXR 1\n\
         001    1      Alice                             1900                             0.5          2 w =\n\
         001    2      Bob                                                                0.5          1 b =\n"
    );
    assert_eq!(parse(&text).unwrap(), tournament);
}

#[test]
fn malformed_lines_are_located() {
    let bad_rank = "001    x      Alice\n";
    assert_eq!(
        parse(bad_rank),
        Err(TrfError::BadPlayerLine {
            line: 1,
            reason: PlayerLineProblem::StartRank
        })
    );
    let bad_result = "012 x\n001    1      Alice                                                                           2 w ?\n";
    assert_eq!(
        parse(bad_result),
        Err(TrfError::BadPlayerLine {
            line: 2,
            reason: PlayerLineProblem::Result { round: 1 }
        })
    );
    let bad_colour = "001    1      Alice                                                                           2 x 1\n";
    assert_eq!(
        parse(bad_colour),
        Err(TrfError::BadPlayerLine {
            line: 1,
            reason: PlayerLineProblem::Colour { round: 1 }
        })
    );
    assert_eq!(
        parse("XXR many\n"),
        Err(TrfError::BadRoundCount { line: 1 })
    );
    assert_eq!(
        parse("XXC green\n"),
        Err(TrfError::BadInitialColour { line: 1 })
    );
    let repeated = "001    1      A\n001    1      B\n";
    assert_eq!(
        parse(repeated),
        Err(TrfError::RepeatedStartRank {
            line: 2,
            start_rank: 1
        })
    );
    let unknown = "001    1      Alice                                                                           9 w 1\n";
    assert_eq!(
        parse(unknown),
        Err(TrfError::UnknownOpponent {
            player: 1,
            round: 1,
            opponent: 9
        })
    );
}

/// Every tournament file of the Dutch tests (written by bbpPairings' generator and cut by
/// `scripts/compare-pairings.sh`) reads, writes back byte for byte, and reads the same.
#[test]
fn generated_files_round_trip() {
    let directory = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/dutch");
    let mut files = 0;
    for entry in std::fs::read_dir(directory).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_some_and(|e| e == "trf") {
            let text = std::fs::read_to_string(&path).unwrap();
            let tournament = parse(&text).unwrap();
            assert_eq!(tournament.to_trf(), text, "{}", path.display());
            assert_eq!(parse(&tournament.to_trf()).unwrap(), tournament);
            files += 1;
        }
    }
    assert_eq!(files, 9);
}

/// Three players, two rounds of a Swiss whose pairing-allocated bye is worth ½ point,
/// said as JaVaFo says it (JaVaFo 2 Advanced User Manual, "Scoring point system": `XXS
/// PAB=0.5`). Alice beat Bob, then had the bye; Carol had the bye, then beat Bob.
const HALF_POINT_BYE_JAVAFO: &str = "\
012 Half-point byes
XXR 3
XXS PAB=0.5
001    1      Alice                             1900                             1.5    1     2 w 1  0000 - U
001    2      Bob                               1800                             0.0    3     1 b 0     3 w 0
001    3      Carol                             1700                             1.5    2  0000 - U     2 b 1
";

#[test]
fn a_javafo_pab_line_is_read_and_written_back() {
    let tournament = parse(HALF_POINT_BYE_JAVAFO).unwrap();
    assert_eq!(tournament.pab_points, Score::DRAW);
    assert_eq!(
        tournament.points_of(GameResult::PairingAllocatedBye),
        Score(5)
    );
    let points: Vec<Score> = tournament
        .players
        .iter()
        .map(|player| tournament.points_after(player, 2))
        .collect();
    assert_eq!(points, [Score(15), Score(0), Score(15)]);
    assert_eq!(
        tournament.points_after(&tournament.players[0], 1),
        Score::WIN
    );
    // The line is kept where it was; nothing is added, so the text comes back exactly.
    assert_eq!(tournament.other_lines[1], (2, "XXS PAB=0.5".to_owned()));
    assert_eq!(tournament.to_trf(), HALF_POINT_BYE_JAVAFO);
    assert_eq!(parse(&tournament.to_trf()).unwrap(), tournament);
}

#[test]
fn a_bbp_pairings_pab_line_is_read_and_written_back() {
    // bbpPairings' form (src/fileformats/trf.cpp, writeFile): "BBU " and the points
    // right-aligned in 4 columns.
    let text = HALF_POINT_BYE_JAVAFO.replace("XXS PAB=0.5", "BBU  0.5");
    let tournament = parse(&text).unwrap();
    assert_eq!(tournament.pab_points, Score::DRAW);
    assert_eq!(
        tournament.points_after(&tournament.players[2], 2),
        Score(15)
    );
    assert_eq!(tournament.to_trf(), text);
    // One space is read as well, and written back as it was.
    let text = HALF_POINT_BYE_JAVAFO.replace("XXS PAB=0.5", "BBU 0.5");
    let tournament = parse(&text).unwrap();
    assert_eq!(tournament.pab_points, Score::DRAW);
    assert_eq!(tournament.to_trf(), text);
}

#[test]
fn other_point_codes_are_kept_but_not_read() {
    // JaVaFo's other codes (here the standard values) stay on their line; PAB is the last
    // one said, over several XXS lines.
    let text =
        HALF_POINT_BYE_JAVAFO.replace("XXS PAB=0.5", "XXS W=1 D=.5 PAB=1\nXXS FPB=1 PAB=.5 ZPB=0");
    let tournament = parse(&text).unwrap();
    assert_eq!(tournament.pab_points, Score::DRAW);
    assert_eq!(tournament.to_trf(), text);
    // An XXS line without PAB leaves the bye at one point.
    let text = HALF_POINT_BYE_JAVAFO.replace("XXS PAB=0.5", "XXS W=1 D=0.5");
    let tournament = parse(&text).unwrap();
    assert_eq!(tournament.pab_points, Score::WIN);
    assert_eq!(
        tournament.points_after(&tournament.players[0], 2),
        Score(20)
    );
    assert_eq!(tournament.to_trf(), text);
}

#[test]
fn a_tournament_built_in_code_writes_the_pab_value_for_both_programs() {
    let mut carol = Player::new(1, "Carol", 0);
    carol.games.push(RoundRecord {
        opponent: None,
        colour: None,
        result: GameResult::PairingAllocatedBye,
    });
    let mut tournament = Tournament {
        players: vec![carol],
        planned_rounds: Some(2),
        pab_points: Score::DRAW,
        ..Tournament::default()
    };
    tournament.players[0].points = tournament.points_after(&tournament.players[0], 1);
    let text = tournament.to_trf();
    assert_eq!(
        text,
        "XXR 2\n\
         XXS PAB=0.5\n\
         BBU  0.5\n\
         001    1      Carol                                                              0.5       0000 - U\n"
    );
    let read = parse(&text).unwrap();
    assert_eq!(read.pab_points, Score::DRAW);
    assert_eq!(read.to_trf(), text);
    // A zero-point bye; a one-point bye (the default) writes neither line.
    tournament.pab_points = Score::ZERO;
    assert!(tournament.to_trf().contains("XXS PAB=0.0\nBBU  0.0\n"));
    tournament.pab_points = Score::WIN;
    assert!(!tournament.to_trf().contains("PAB"));
    assert!(!tournament.to_trf().contains("BBU"));
}

#[test]
fn a_changed_pab_value_is_written_after_the_lines_read() {
    let mut tournament = parse(HALF_POINT_BYE_JAVAFO).unwrap();
    tournament.pab_points = Score::ZERO;
    let text = tournament.to_trf();
    // Both programs take the last value they read.
    assert_eq!(
        text.lines().take(6).collect::<Vec<_>>(),
        [
            "012 Half-point byes",
            "XXR 3",
            "XXS PAB=0.5",
            "XXS PAB=0.0",
            "BBU  0.0",
            "001    1      Alice                             1900                             1.5    1     2 w 1  0000 - U",
        ]
    );
    assert_eq!(parse(&text).unwrap().pab_points, Score::ZERO);
}

#[test]
fn a_pab_value_that_is_not_a_number_is_an_error() {
    assert_eq!(
        parse("012 x\nXXS W=1 PAB=half\n"),
        Err(TrfError::BadByePoints { line: 2 })
    );
    assert_eq!(
        parse("XXS PAB=0.25\n"),
        Err(TrfError::BadByePoints { line: 1 })
    );
    assert_eq!(parse("BBU\n"), Err(TrfError::BadByePoints { line: 1 }));
    assert_eq!(parse("BBU  x.5\n"), Err(TrfError::BadByePoints { line: 1 }));
}
