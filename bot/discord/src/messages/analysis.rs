//! What players read of a post-game analysis (`/analysis`, the **Analyse** button): the
//! progress post, the result, and the refusals.

use kaboom_engine::Score;
use kaboom_engine::review::{GameReview, Mark, PlyReview};
use kaboom_rules::Color;
use kaboom_service::analysis::{AnalysisAnswer, AnalysisRefusal};
use kaboom_store::analyses::AnalysisRow;
use kaboom_store::games::GameRow;

/// The custom id action of the **Analyse** button on a finished game's board.
pub const ANALYSE: &str = "analyse";

/// Discord's limit on a message's content, in characters
/// (<https://discord.com/developers/docs/resources/message#create-message>: "content: up
/// to 2000 characters").
const CONTENT_LIMIT: usize = 2000;

/// The progress post while `done` of `total` plies are judged.
pub fn progress(row: &AnalysisRow) -> String {
    format!(
        "**Analysis of game #{}** · analysing: {} of {} plies (about a minute per 80 plies). The result will be posted here.",
        row.game_id, row.done_plies, row.total_plies
    )
}

/// The progress post once the result is out.
pub fn progress_done(row: &AnalysisRow) -> String {
    format!(
        "**Analysis of game #{}** · done: {} of {} plies. The result follows.",
        row.game_id, row.total_plies, row.total_plies
    )
}

/// The progress post when the analysis failed.
pub fn failed(row: &AnalysisRow, reason: &str) -> String {
    format!(
        "**Analysis of game #{}** · it could not be done ({reason}). Nothing else changed; ask a host to look at the bot's log.",
        row.game_id
    )
}

/// The private answer to whoever asked.
pub fn answer(answer: &AnalysisAnswer) -> String {
    match answer {
        AnalysisAnswer::Queued(row) => format!(
            "Analysing game #{}: its progress and then the result are posted in the game's thread.",
            row.game_id
        ),
        AnalysisAnswer::InProgress(row) => format!(
            "Game #{} is being analysed ({} of {} plies so far): the result will be posted in its thread.",
            row.game_id, row.done_plies, row.total_plies
        ),
        AnalysisAnswer::Done(row) => format!(
            "Game #{} is already analysed: the result is in its thread.",
            row.game_id
        ),
        AnalysisAnswer::Failed(row) => format!(
            "The analysis of game #{} could not be done. Ask a host to look at the bot's log.",
            row.game_id
        ),
    }
}

/// What a refused request reads.
pub fn refusal(r: &AnalysisRefusal) -> String {
    match r {
        AnalysisRefusal::StillPlaying { id } => format!(
            "Game #{id} is still being played: it can be analysed once it is over (nobody gets engine help during a game)."
        ),
        AnalysisRefusal::NoMoves { id } => {
            format!("Game #{id} ended before any move: there is nothing to analyse.")
        }
    }
}

/// An evaluation as players read it, from White's point of view: pawns with one decimal
/// and a sign (`+0.3`, `−1.2`, `0.0`), `#3` / `#−3` for a forced win of White / Black in
/// that many moves, `1-0` / `0-1` when the game ended there with that result.
pub fn eval_text(score: Score) -> String {
    match score {
        Score::Centipawns { value } => {
            let pawns = f64::from(value) / 100.0;
            if pawns >= 0.05 {
                format!("+{pawns:.1}")
            } else if pawns <= -0.05 {
                format!("−{:.1}", -pawns)
            } else {
                "0.0".to_string()
            }
        }
        Score::Win { plies: 0 } => "1-0".to_string(),
        Score::Loss { plies: 0 } => "0-1".to_string(),
        Score::Win { plies } => format!("#{}", plies.div_ceil(2)),
        Score::Loss { plies } => format!("#−{}", plies.div_ceil(2)),
    }
}

/// The glyph of a mark (`?!`, `?`, `??`).
pub fn glyph(mark: Mark) -> &'static str {
    match mark {
        Mark::Inaccuracy => "?!",
        Mark::Mistake => "?",
        Mark::Blunder => "??",
    }
}

/// `14. Qh5` for White's ply, `14... Kd7` for Black's.
fn numbered(ply: &PlyReview) -> String {
    let number = ply.ply.div_ceil(2);
    match ply.mover {
        Color::White => format!("{number}. {}", ply.san),
        Color::Black => format!("{number}... {}", ply.san),
    }
}

/// The engine's line after `ply`'s position, numbered from that ply.
fn line_text(ply: &PlyReview) -> String {
    let mut out = Vec::new();
    for (j, action) in ply.line.iter().enumerate() {
        let at = ply.ply + j;
        if at % 2 == 1 {
            out.push(format!("{}. {action}", at.div_ceil(2)));
        } else if j == 0 {
            out.push(format!("{}... {action}", at.div_ceil(2)));
        } else {
            out.push(action.clone());
        }
    }
    out.join(" ")
}

/// `1 inaccuracy, 0 mistakes, 2 blunders` of `color`'s plies.
fn counts(review: &GameReview, color: Color) -> String {
    let count = |mark: Mark| {
        review
            .plies
            .iter()
            .filter(|p| p.mover == color && p.mark == Some(mark))
            .count()
    };
    let word = |n: usize, one: &str, many: &str| format!("{n} {}", if n == 1 { one } else { many });
    format!(
        "{}, {}, {}",
        word(count(Mark::Inaccuracy), "inaccuracy", "inaccuracies"),
        word(count(Mark::Mistake), "mistake", "mistakes"),
        word(count(Mark::Blunder), "blunder", "blunders"),
    )
}

/// The position before `ply` judged, as `(+0.3 → −5.1)`: White's view before and after.
fn swing_text(review: &GameReview, ply: &PlyReview) -> String {
    let before = match ply.ply {
        1 => review.start,
        n => review.plies[n - 2].eval,
    };
    format!("({} → {})", eval_text(before), eval_text(ply.eval))
}

/// One marked ply: `14. Qh5?? (+0.3 → −5.1) · better Nxe5: 14. Nxe5 Boom@e4 15. Qh5`.
pub fn marked_line(review: &GameReview, ply: &PlyReview) -> String {
    let glyph = ply.mark.map_or("", glyph);
    let mut text = format!("{}{glyph} {}", numbered(ply), swing_text(review, ply));
    if let Some(better) = &ply.better {
        text.push_str(&format!(" · better **{better}**"));
        if ply.line.len() > 1 {
            text.push_str(&format!(": {}", line_text(ply)));
        }
    }
    text
}

/// The plies shown as key moments (the boards attached): the three biggest drops in the
/// mover's winning chances among the marked plies, in game order.
pub fn key_moments(review: &GameReview) -> Vec<&PlyReview> {
    let mut key: Vec<&PlyReview> = review
        .swings()
        .into_iter()
        .filter(|p| p.mark.is_some())
        .take(3)
        .collect();
    key.sort_by_key(|p| p.ply);
    key
}

/// The result post: each player's accuracy and marks, then every marked ply with the
/// better move and its line (as many as fit in one message; the PGN has them all).
pub fn result(row: &GameRow, review: &GameReview) -> String {
    let accuracy = |a: Option<f64>| a.map_or("no move".to_string(), |a| format!("{a:.0}%"));
    let mut text = format!(
        "**Analysis of game #{}** · {} · {}\n{} (White): accuracy {} · {}\n{} (Black): accuracy {} · {}",
        row.id,
        row.variant.title(),
        super::players_line(row),
        row.white_name,
        accuracy(review.accuracy.white),
        counts(review, Color::White),
        row.black_name,
        accuracy(review.accuracy.black),
        counts(review, Color::Black),
    );
    // The carriers are public once the game is over (BE-9); say they were used.
    let carriers = if row.variant.has_designation() {
        ", with every carrier known"
    } else {
        ""
    };
    let footer = format!(
        "\nThe engine searched {} positions per move{carriers}. The chart, the key moments (the better move as a green arrow) and the annotated PGN are attached.",
        thousands(review.nodes_per_position)
    );
    let marked: Vec<&PlyReview> = review.plies.iter().filter(|p| p.mark.is_some()).collect();
    if marked.is_empty() {
        text.push_str("\nNo inaccuracy, mistake or blunder: well played by both.");
    } else {
        text.push_str("\n\n**Moves to look at**");
        for (i, ply) in marked.iter().enumerate() {
            let line = format!("\n{}", marked_line(review, ply));
            let more = format!("\n… and {} more in the PGN.", marked.len() - i);
            if text.len() + line.len() + more.len() + footer.len() > CONTENT_LIMIT {
                text.push_str(&more);
                break;
            }
            text.push_str(&line);
        }
    }
    text.push_str(&footer);
    text
}

/// `400000` as `400,000`.
fn thousands(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn evaluations_read_as_lichess_shows_them() {
        assert_eq!(eval_text(Score::Centipawns { value: 34 }), "+0.3");
        assert_eq!(eval_text(Score::Centipawns { value: -120 }), "−1.2");
        assert_eq!(eval_text(Score::Centipawns { value: 4 }), "0.0");
        assert_eq!(eval_text(Score::Win { plies: 5 }), "#3");
        assert_eq!(eval_text(Score::Loss { plies: 2 }), "#−1");
        assert_eq!(eval_text(Score::Win { plies: 0 }), "1-0");
        assert_eq!(thousands(400_000), "400,000");
        assert_eq!(thousands(60), "60");
    }
}
