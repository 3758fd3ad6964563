//! `kaboom perft | moves | replay`: the rules library from a shell, with stable JSON
//! output in the vocabulary of docs/ARCHITECTURE.md, "The CLI".

use std::fmt;

use kaboom_rules::notation::movetext_actions;
use kaboom_rules::validity::{self, ProblemKind};
use kaboom_rules::{
    AnyGame, Color, GameOptions, LooseBombs, PieceView, PlayError, Removal, Square, Status,
    Variant, Viewer,
};
use serde::Serialize;

/// The carrier designation given with `--carriers white=SQ[,SQ...],black=SQ[,SQ...]`
/// (docs/ARCHITECTURE.md, "The CLI"); the number of squares per side is the Multiple Beirut
/// count.
#[derive(Clone, Debug, Eq, PartialEq)]
pub struct Carriers {
    /// White's carrier squares.
    pub white: Vec<Square>,
    /// Black's carrier squares.
    pub black: Vec<Square>,
}

/// A `--carriers` value that does not fit `white=SQ[,SQ...],black=SQ[,SQ...]`.
#[derive(Clone, Debug, Eq, PartialEq, thiserror::Error)]
#[error("bad --carriers '{0}': expected white=SQ[,SQ...],black=SQ[,SQ...], e.g. white=d1,black=g8")]
pub struct ParseCarriersError(String);

impl std::str::FromStr for Carriers {
    type Err = ParseCarriersError;
    fn from_str(s: &str) -> Result<Carriers, ParseCarriersError> {
        let err = || ParseCarriersError(s.to_string());
        let mut white = Vec::new();
        let mut black = Vec::new();
        let mut current: Option<&mut Vec<Square>> = None;
        for part in s.split(',').map(str::trim) {
            let square = match part.split_once('=') {
                Some((side, sq)) => {
                    current = Some(match side.trim() {
                        "white" | "w" => &mut white,
                        "black" | "b" => &mut black,
                        _ => return Err(err()),
                    });
                    sq
                }
                None => part,
            };
            let sq: Square = square.trim().parse().map_err(|_| err())?;
            current.as_mut().ok_or_else(err)?.push(sq);
        }
        if white.is_empty() || black.is_empty() {
            return Err(err());
        }
        Ok(Carriers { white, black })
    }
}

/// What to set up before analysing: variant, options, start and designation.
#[derive(Clone, Debug)]
pub struct Setup {
    /// The variant.
    pub variant: Variant,
    /// A start serialization instead of the variant's start position.
    pub fen: Option<String>,
    /// The designation for Beirut and Nuke.
    pub carriers: Option<Carriers>,
    /// Beirut's Dead Man's Switch (BE-6).
    pub dead_mans_switch: bool,
    /// The kinds of impossible position (`--ignore KIND,...`, or every kind with `--force`)
    /// to analyse anyway instead of refusing ([`validity`]).
    pub ignore: Vec<ProblemKind>,
}

/// An analysis command that failed; printed on stderr, exit code 1.
#[derive(Debug)]
pub struct CliError(pub String);

impl fmt::Display for CliError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for CliError {}

fn fail(msg: impl Into<String>) -> CliError {
    CliError(msg.into())
}

impl Setup {
    /// Builds the game as [`Setup::game`] does and refuses a Beirut or Nuke game whose
    /// carriers are not chosen yet (it has no legal action at all, so `perft` would say
    /// `nodes 0` and `moves` an empty list): the error says how to give them.
    ///
    /// # Errors
    /// As [`Setup::game`], and [`CliError`] naming `--carriers` when a side has no carriers.
    pub fn analysable_game(&self) -> Result<AnyGame, CliError> {
        let game = self.game()?;
        let waiting = game.awaiting_designation();
        if waiting.is_empty() {
            return Ok(game);
        }
        let sides = waiting
            .iter()
            .map(Color::to_string)
            .collect::<Vec<_>>()
            .join(" and ");
        let (example, fen_hint) = match self.variant {
            Variant::Nuke => (
                "white=e1,black=d8",
                "a --fen whose bomb field names them (docs/notation/nuke.md)",
            ),
            _ => (
                "white=d1,black=d8",
                "a --fen whose carrier field names them (docs/notation/beirut.md)",
            ),
        };
        Err(fail(format!(
            "{} has no carriers yet ({sides} must choose), so nothing can be played or counted: \
             give them with --carriers white=SQ[,SQ...],black=SQ[,SQ...] (e.g. --carriers {example}) \
             or {fen_hint}",
            self.variant.title()
        )))
    }

    /// Builds the game: start position (or `--fen`), options, then the designation, and
    /// checks that the position can arise in play ([`validity::validate`]) unless its
    /// problems are all in [`Setup::ignore`].
    ///
    /// # Errors
    /// [`CliError`] for a bad FEN, options the variant refuses, `--carriers` with a
    /// serialization that already has carriers, a designation the rules refuse, or a
    /// position that cannot arise (naming each reason and `--force`/`--ignore`).
    pub fn game(&self) -> Result<AnyGame, CliError> {
        let game = self.unchecked_game()?;
        if let Err(e) = validity::validate(&game).or_else(|e| e.ignore(&self.ignore)) {
            let kinds = e
                .kinds()
                .iter()
                .map(|k| k.name())
                .collect::<Vec<_>>()
                .join(",");
            return Err(fail(format!(
                "{e}\nto analyse it anyway, add --ignore {kinds} (or --force to accept any such position)"
            )));
        }
        Ok(game)
    }

    fn unchecked_game(&self) -> Result<AnyGame, CliError> {
        let carriers = self
            .carriers
            .as_ref()
            .map_or(1, |c| c.white.len().max(c.black.len()));
        let options = GameOptions {
            carriers: u8::try_from(carriers).map_err(|_| fail("too many carriers"))?,
            dead_mans_switch: self.dead_mans_switch,
        };
        let mut game = match &self.fen {
            Some(fen) => {
                let game = AnyGame::from_fen(self.variant, fen).map_err(|e| fail(e.to_string()))?;
                let recorded = game.options();
                if self.dead_mans_switch && !recorded.dead_mans_switch {
                    return Err(fail(
                        "--dead-mans-switch with --fen: write the option into the serialization instead (Beirut: `... 0 1 1+dms unchosen unchosen`)",
                    ));
                }
                if self.carriers.is_some() && options.carriers != recorded.carriers {
                    return Err(fail(format!(
                        "--carriers gives {} square(s) per side but the serialization records {}; write the count into it (Beirut: `... 0 1 {} unchosen unchosen`)",
                        options.carriers, recorded.carriers, options.carriers
                    )));
                }
                game
            }
            None => AnyGame::new(self.variant, options).map_err(|e| fail(e.to_string()))?,
        };
        if let Some(c) = &self.carriers {
            if !self.variant.has_designation() {
                return Err(fail(format!(
                    "--carriers is for beirut and nuke, not {}",
                    self.variant
                )));
            }
            if game.awaiting_designation().is_empty() {
                return Err(fail(
                    "this position already has its carriers in its serialization; drop --carriers",
                ));
            }
            for (color, squares) in [(Color::White, &c.white), (Color::Black, &c.black)] {
                game.designate(color, squares)
                    .map_err(|e| fail(format!("{color} carriers: {e}")))?;
            }
        }
        Ok(game)
    }
}

/// One legal action in the JSON of `moves` and `replay --legal-each`.
#[derive(Serialize)]
pub struct LegalJson {
    /// SAN with check/win marks.
    pub san: String,
    /// Coordinate form (equal to the canonical form for non-move actions).
    pub uci: String,
}

/// One removed piece in the JSON of `replay`.
#[derive(Serialize)]
pub struct RemovedJson {
    /// Its square.
    pub square: Square,
    /// Its colour.
    pub color: Color,
    /// Its kind, full lower-case name.
    pub kind: kaboom_rules::Kind,
    /// `captured`, `exploded`, `jumped`, `pushed-off` or `co-square`.
    pub cause: kaboom_rules::Cause,
}

impl From<&Removal> for RemovedJson {
    fn from(r: &Removal) -> RemovedJson {
        RemovedJson {
            square: r.square,
            color: r.piece.color,
            kind: r.piece.kind,
            cause: r.cause,
        }
    }
}

/// `kaboom moves` output.
#[derive(Serialize)]
pub struct MovesJson {
    /// The serialization of the position reached, as the viewer sees it.
    pub fen: String,
    /// `white` or `black`.
    pub to_move: Color,
    /// The legal actions as the viewer may know them.
    pub legal: Vec<LegalJson>,
}

/// One ply in `kaboom replay` output.
#[derive(Serialize)]
pub struct PlyJson {
    /// SAN with check/win marks.
    pub san: String,
    /// Coordinate form.
    pub uci: String,
    /// Serialization after the ply, as the viewer sees it.
    pub fen: String,
    /// What the ply removed (C-6).
    pub removed: Vec<RemovedJson>,
    /// With `--legal-each`: the legal actions after the ply.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub legal: Option<Vec<LegalJson>>,
}

/// `kaboom replay` output.
#[derive(Serialize)]
pub struct ReplayJson {
    /// The variant's name.
    pub variant: Variant,
    /// The start serialization, as the viewer sees it.
    pub start_fen: String,
    /// Every ply.
    pub plies: Vec<PlyJson>,
    /// The final serialization, as the viewer sees it.
    pub fen: String,
    /// Every piece at the end, in canonical square order.
    pub board: Vec<PieceView>,
    /// Nuke's loose bombs.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub loose_bombs: Vec<LooseBombs>,
    /// Ongoing or finished with result and reason.
    pub status: Status,
}

fn legal_json(game: &AnyGame, viewer: Viewer) -> Vec<LegalJson> {
    game.legal_actions(viewer)
        .into_iter()
        .map(|a| LegalJson {
            san: a.display,
            uci: a.uci,
        })
        .collect()
}

/// How many legal moves an error message lists before "and N more" (as the rules
/// library's own illegal-move messages).
pub const LEGAL_SHOWN: usize = 12;

fn legal_list(game: &AnyGame) -> String {
    let legal: Vec<String> = game
        .legal_actions(Viewer::Full)
        .into_iter()
        .map(|a| a.san)
        .collect();
    if legal.is_empty() {
        return "none".to_string();
    }
    let mut text = legal[..legal.len().min(LEGAL_SHOWN)].join(", ");
    if legal.len() > LEGAL_SHOWN {
        text.push_str(&format!(
            " and {} more (kaboom moves lists them all)",
            legal.len() - LEGAL_SHOWN
        ));
    }
    text
}

/// Plays `movetext` on `game`; `on_ply` runs after each ply.
///
/// # Errors
/// [`CliError`] naming the ply, the move and why, plus the legal moves there.
pub fn play_movetext(
    game: &mut AnyGame,
    movetext: &str,
    mut on_ply: impl FnMut(&AnyGame),
) -> Result<(), CliError> {
    let tokens = movetext_actions(movetext).map_err(|e| fail(e.to_string()))?;
    for token in tokens {
        let ply = game.ply_count() + 1;
        if let Err(e) = game.play(None, &token) {
            let legal = match &e {
                PlayError::Action(kaboom_rules::ActionError::Illegal(_)) => String::new(),
                _ => format!("\nlegal moves: {}", legal_list(game)),
            };
            return Err(fail(format!("ply {ply} ({token}): {e}{legal}")));
        }
        on_ply(game);
    }
    Ok(())
}

/// The deepest `kaboom perft` counts: 10 plies. Chess's perft 10 from the start already has
/// about 7 * 10^13 leaves (days of counting), and every ply costs a move buffer and a stack
/// frame, so deeper requests (e.g. `perft 4294967295`, which tried to allocate 103 GB) are
/// refused instead of exhausting memory or the stack.
pub const MAX_PERFT_DEPTH: u32 = 10;

/// `kaboom perft`: the node count at `depth` (C-7), `depth` from 0 to [`MAX_PERFT_DEPTH`].
///
/// # Errors
/// [`CliError`] when the setup fails or `depth` is above [`MAX_PERFT_DEPTH`].
pub fn perft(setup: &Setup, depth: u32) -> Result<u64, CliError> {
    if depth > MAX_PERFT_DEPTH {
        return Err(fail(format!(
            "perft depth {depth} is too deep: kaboom perft counts at most {MAX_PERFT_DEPTH} plies \
             (the leaf count grows about 30-fold per ply; chess's perft 10 already has about \
             7*10^13 leaves); give a depth from 0 to {MAX_PERFT_DEPTH}"
        )));
    }
    Ok(setup.analysable_game()?.perft(depth))
}

/// `kaboom moves`: the legal actions after `movetext`, as `viewer` may know them.
///
/// # Errors
/// [`CliError`] when the setup or a move fails.
pub fn moves(setup: &Setup, movetext: Option<&str>, viewer: Viewer) -> Result<MovesJson, CliError> {
    let mut game = setup.analysable_game()?;
    if let Some(text) = movetext {
        play_movetext(&mut game, text, |_| {})?;
    }
    Ok(MovesJson {
        fen: game.fen(viewer),
        to_move: game.turn(),
        legal: legal_json(&game, viewer),
    })
}

/// `kaboom replay`: every ply of `movetext` with its removals, then the final board
/// and status, as `viewer` sees them.
///
/// # Errors
/// [`CliError`] naming the ply, the move and why, plus the legal moves there.
pub fn replay(
    setup: &Setup,
    movetext: &str,
    legal_each: bool,
    viewer: Viewer,
) -> Result<ReplayJson, CliError> {
    let mut game = setup.analysable_game()?;
    let mut plies = Vec::new();
    play_movetext(&mut game, movetext, |g| {
        let record = g.plies().last().expect("a ply was just played");
        plies.push(PlyJson {
            san: record.display.clone(),
            uci: record.uci.clone(),
            fen: g.fen(viewer),
            removed: record.removed.iter().map(RemovedJson::from).collect(),
            legal: legal_each.then(|| legal_json(g, viewer)),
        });
    })?;
    let board = game.board_view(viewer);
    Ok(ReplayJson {
        variant: game.variant(),
        start_fen: game.start_fen(viewer),
        plies,
        fen: game.fen(viewer),
        board: board.pieces,
        loose_bombs: board.loose_bombs,
        status: game.status(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn carriers_parse() {
        let c: Carriers = "white=d1,e2,black=g8".parse().unwrap();
        assert_eq!(c.white.len(), 2);
        assert_eq!(c.black, vec!["g8".parse::<Square>().unwrap()]);
        assert!("d1,black=g8".parse::<Carriers>().is_err());
        assert!("white=z9,black=g8".parse::<Carriers>().is_err());
        assert!("white=d1".parse::<Carriers>().is_err());
    }
}
