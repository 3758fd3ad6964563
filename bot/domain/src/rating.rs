//! Ratings: Glicko-2 per player and variant, with lichess's parameters. The
//! maths is the `skillratings` crate's ([`skillratings::glicko2::glicko2`]); this module
//! holds the choices around it, in one place.
//!
//! # The choices
//! - **One rating per player and variant, global across servers**, as lichess keeps one
//!   rating per player and variant: a player's strength does not change with the server
//!   they play in, and a per-server rating would let anyone farm points in a server of
//!   their own.
//! - **lichess's parameters** (lichess-org/lila, `modules/rating/src/main/Glicko.scala`):
//!   a new player starts at rating 1500, deviation 500, volatility 0.09; the system
//!   constant τ is 0.75; after each game the deviation is kept within 45..=500, the
//!   volatility at most 0.1 and the rating at least 600 (lila's `Glicko.cap`).
//! - **One rating period per game**, as lichess rates correspondence games: both players'
//!   ratings are updated as soon as a game ends, each against the other's rating before the
//!   game ([`rate`]). Unlike lichess, the deviation does not grow while a player is idle
//!   (lila's `ratingPeriodsPerDay`): a player who comes back after a year keeps the
//!   deviation they left with.
//! - **Provisional** while the deviation is above 110, shown with `?` (`1500?`), as lichess
//!   does (<https://lichess.org/qa/342/what-does-a-question-mark--next-to-my-rating-mean>);
//!   provisional players are left off the leaderboard and get no rank, as on lichess's
//!   leaderboards (<https://lichess.org/qa/8/how-do-ranks-and-leaderboards-work>).
//! - **Which games count** ([`counts`]): games played as rated (the default of
//!   `/challenge`, for a named opponent and for an open challenge alike; `rated:false`
//!   makes a casual game) that ended with a result after **both sides made at least one
//!   move** (two plies or more), as lichess rates only games with `playedTurns >= 2`
//!   (lila's `PerfsUpdater`). So an aborted game never counts, nor does a game White
//!   forfeits on time before its first move, nor one Black forfeits before theirs (a game
//!   "with no move" is one in which either side has not moved yet). A result on the board,
//!   a resignation, an agreed draw and a time forfeit by the scheduler all count the same.
//! - Ratings are shown as lichess shows them: the integer part of the rating
//!   ([`Glicko::shown`]); the change of a game is the difference of the shown ratings.

use kaboom_rules::{Color, EndReason, Outcome};
use skillratings::Outcomes;
use skillratings::glicko2::{Glicko2Config, Glicko2Rating, glicko2};

/// A new player's rating (lila's `Glicko.default`).
pub const START_RATING: f64 = 1500.0;
/// A new player's deviation (lila's `maxDeviation`, the default's deviation).
pub const START_DEVIATION: f64 = 500.0;
/// A new player's volatility (lila's `defaultVolatility`).
pub const START_VOLATILITY: f64 = 0.09;
/// The Glicko-2 system constant τ (lila's `Glicko.tau`).
pub const TAU: f64 = 0.75;
/// The lowest deviation after a game (lila's `minDeviation`).
pub const MIN_DEVIATION: f64 = 45.0;
/// The highest deviation (lila's `maxDeviation`).
pub const MAX_DEVIATION: f64 = 500.0;
/// The highest volatility (lila's `maxVolatility`).
pub const MAX_VOLATILITY: f64 = 0.1;
/// The lowest rating (lila's `minRating`).
pub const MIN_RATING: f64 = 600.0;
/// A rating whose deviation is above this is provisional (lila's `provisionalDeviation`).
pub const PROVISIONAL_DEVIATION: f64 = 110.0;
/// The plies a game needs before it can be rated: one move by each side.
pub const MIN_PLIES: i64 = 2;

/// A Glicko-2 rating on the familiar scale (1500 = a new player).
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct Glicko {
    /// The rating.
    pub rating: f64,
    /// The rating deviation (RD): the uncertainty, in rating points.
    pub deviation: f64,
    /// The volatility σ: how erratic the player's results are.
    pub volatility: f64,
}

impl Default for Glicko {
    fn default() -> Glicko {
        Glicko::START
    }
}

impl Glicko {
    /// A new player's rating: 1500, deviation 500, volatility 0.09.
    pub const START: Glicko = Glicko {
        rating: START_RATING,
        deviation: START_DEVIATION,
        volatility: START_VOLATILITY,
    };

    /// Whether the rating is provisional (deviation above 110).
    pub fn provisional(&self) -> bool {
        self.deviation > PROVISIONAL_DEVIATION
    }

    /// The rating as shown: its integer part.
    pub fn shown(&self) -> i64 {
        // Ratings are capped to 600.. and a game moves them by hundreds at most.
        self.rating.trunc() as i64
    }

    /// `1532`, or `1532?` when provisional.
    pub fn display(&self) -> String {
        if self.provisional() {
            format!("{}?", self.shown())
        } else {
            self.shown().to_string()
        }
    }

    /// Kept within lichess's bounds (lila's `Glicko.cap`): deviation 45..=500, volatility
    /// at most 0.1, rating at least 600.
    pub fn capped(self) -> Glicko {
        Glicko {
            rating: self.rating.max(MIN_RATING),
            deviation: self.deviation.clamp(MIN_DEVIATION, MAX_DEVIATION),
            volatility: self.volatility.min(MAX_VOLATILITY),
        }
    }

    fn to_skill(self) -> Glicko2Rating {
        Glicko2Rating {
            rating: self.rating,
            deviation: self.deviation,
            volatility: self.volatility,
        }
    }

    fn from_skill(r: Glicko2Rating) -> Glicko {
        Glicko {
            rating: r.rating,
            deviation: r.deviation,
            volatility: r.volatility,
        }
    }
}

/// The Glicko-2 configuration: τ = 0.75, the crate's convergence tolerance (1e-6).
pub fn config() -> Glicko2Config {
    Glicko2Config {
        tau: TAU,
        ..Glicko2Config::new()
    }
}

/// `side`'s score in a game won by `winner` (`None`: a draw): 1, 0.5 or 0.
pub fn score(winner: Option<Color>, side: Color) -> f64 {
    match winner {
        None => 0.5,
        Some(w) if w == side => 1.0,
        Some(_) => 0.0,
    }
}

/// Both players' ratings after one game between them (one rating period), each rated
/// against the other's rating before the game, then capped ([`Glicko::capped`]).
pub fn rate(white: Glicko, black: Glicko, winner: Option<Color>) -> (Glicko, Glicko) {
    let outcome = match winner {
        Some(Color::White) => Outcomes::WIN,
        Some(Color::Black) => Outcomes::LOSS,
        None => Outcomes::DRAW,
    };
    let (w, b) = glicko2(&white.to_skill(), &black.to_skill(), &outcome, &config());
    (
        Glicko::from_skill(w).capped(),
        Glicko::from_skill(b).capped(),
    )
}

/// Whether a game that ended with `outcome` after `plies` plies changes ratings: it was
/// played `rated`, was not aborted, and both sides moved (two plies or more).
pub fn counts(rated: bool, plies: i64, outcome: &Outcome) -> bool {
    rated && outcome.reason != EndReason::Aborted && plies >= MIN_PLIES
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_win_between_new_players_moves_both_by_the_same_amount() {
        let (w, b) = rate(Glicko::START, Glicko::START, Some(Color::White));
        assert!(w.rating > 1500.0 && b.rating < 1500.0);
        assert!((w.rating - 1500.0 - (1500.0 - b.rating)).abs() < 1e-9);
        assert!(w.deviation < START_DEVIATION && w.provisional());
    }

    #[test]
    fn a_draw_between_equals_keeps_the_rating() {
        let (w, b) = rate(Glicko::START, Glicko::START, None);
        assert!((w.rating - 1500.0).abs() < 1e-9 && (b.rating - 1500.0).abs() < 1e-9);
    }

    #[test]
    fn caps_hold() {
        let g = Glicko {
            rating: 100.0,
            deviation: 10.0,
            volatility: 0.5,
        }
        .capped();
        assert_eq!((g.rating, g.deviation, g.volatility), (600.0, 45.0, 0.1));
        assert_eq!(
            Glicko {
                deviation: 110.0,
                ..Glicko::START
            }
            .display(),
            "1500"
        );
        assert_eq!(Glicko::START.display(), "1500?");
    }

    #[test]
    fn aborted_and_moveless_games_do_not_count() {
        let win = Outcome::win(Color::White, EndReason::Resignation);
        assert!(counts(true, 2, &win));
        assert!(!counts(false, 40, &win));
        assert!(!counts(true, 1, &win));
        assert!(!counts(
            true,
            0,
            &Outcome::win(Color::Black, EndReason::TimeForfeit)
        ));
        assert!(!counts(true, 10, &Outcome::draw(EndReason::Aborted)));
    }
}
