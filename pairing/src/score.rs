//! Points in tenths of a point, exact (no floating point): `Score(15)` is 1.5 points.
//!
//! ```
//! use kaboom_pairing::Score;
//!
//! let score: Score = "2.5".parse().unwrap();
//! assert_eq!(score, Score::WIN + Score::WIN + Score::DRAW);
//! assert_eq!(score.to_string(), "2.5");
//! ```

use std::fmt;
use std::iter::Sum;
use std::ops::{Add, AddAssign, Sub};
use std::str::FromStr;

/// A number of points in tenths of a point (TRF-16 writes points with one decimal).
/// Serialized as a JSON number of points (`2.5`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Score(pub u32);

impl Score {
    /// No points.
    pub const ZERO: Score = Score(0);
    /// A draw: ½ point.
    pub const DRAW: Score = Score(5);
    /// A win: 1 point.
    pub const WIN: Score = Score(10);

    /// The value in points, for display and JSON.
    #[must_use]
    pub fn as_points(self) -> f64 {
        f64::from(self.0) / 10.0
    }
}

impl Add for Score {
    type Output = Score;
    fn add(self, other: Score) -> Score {
        Score(self.0 + other.0)
    }
}

impl AddAssign for Score {
    fn add_assign(&mut self, other: Score) {
        self.0 += other.0;
    }
}

impl Sub for Score {
    type Output = Score;
    /// Saturating: never below zero.
    fn sub(self, other: Score) -> Score {
        Score(self.0.saturating_sub(other.0))
    }
}

impl Sum for Score {
    fn sum<I: Iterator<Item = Score>>(iter: I) -> Score {
        iter.fold(Score::ZERO, Add::add)
    }
}

impl fmt::Display for Score {
    fn fmt(&self, formatter: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(formatter, "{}.{}", self.0 / 10, self.0 % 10)
    }
}

/// Why a text is not a [`Score`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[error("not a number of points with at most one decimal")]
pub struct ScoreError;

impl FromStr for Score {
    type Err = ScoreError;
    /// Reads `4`, `4.5` or `4.50`-style text (at most one significant decimal).
    fn from_str(text: &str) -> Result<Score, ScoreError> {
        let text = text.trim();
        let (whole, fraction) = text.split_once('.').unwrap_or((text, ""));
        if whole.is_empty() && fraction.is_empty() {
            return Err(ScoreError);
        }
        let whole: u32 = if whole.is_empty() {
            0
        } else {
            whole.parse().map_err(|_| ScoreError)?
        };
        if !fraction.chars().all(|c| c.is_ascii_digit()) {
            return Err(ScoreError);
        }
        let mut digits = fraction.chars();
        let tenths = digits.next().map_or(0, |c| c.to_digit(10).unwrap_or(0));
        if digits.any(|c| c != '0') {
            return Err(ScoreError);
        }
        Ok(Score(whole * 10 + tenths))
    }
}

impl serde::Serialize for Score {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_f64(self.as_points())
    }
}

impl<'de> serde::Deserialize<'de> for Score {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Score, D::Error> {
        let points = f64::deserialize(deserializer)?;
        if !(0.0..=1.0e8).contains(&points) {
            return Err(serde::de::Error::custom("points out of range"));
        }
        Ok(Score((points * 10.0).round() as u32))
    }
}
