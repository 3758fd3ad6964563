//! The plain enum for choosing a variant at run time, and the options a game is created with.

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};

use crate::Geometry;

/// One of the five variants (the `--variant` vocabulary of the CLI).
#[derive(Copy, Clone, Eq, PartialEq, Ord, PartialOrd, Hash, Debug, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Variant {
    /// Atomic Chess: every capture explodes (docs/rules/RULINGS.md section 1).
    Atomic,
    /// Beirut Chess: hidden bomb carriers (section 2).
    Beirut,
    /// Nuke Chess: public carried bombs that pass hand to hand (section 3).
    Nuke,
    /// Bomberman Chess: 10x8, bombs with rook-like waves (section 4).
    Bomberman,
    /// Bombalot (Sir Bombalot rules): goals, twekes, tanks, detonators (section 5).
    Bombalot,
}

impl Variant {
    /// All variants in the order of docs/rules/RULINGS.md.
    pub const ALL: [Variant; 5] = [
        Variant::Atomic,
        Variant::Beirut,
        Variant::Nuke,
        Variant::Bomberman,
        Variant::Bombalot,
    ];

    /// The lower-case name used on the command line and in storage, e.g. `"bomberman"`.
    pub const fn name(self) -> &'static str {
        match self {
            Variant::Atomic => "atomic",
            Variant::Beirut => "beirut",
            Variant::Nuke => "nuke",
            Variant::Bomberman => "bomberman",
            Variant::Bombalot => "bombalot",
        }
    }

    /// The name for people and for the PGN `Variant` tag, e.g. `"Bomberman Chess"`.
    pub const fn title(self) -> &'static str {
        match self {
            Variant::Atomic => "Atomic",
            Variant::Beirut => "Beirut",
            Variant::Nuke => "Nuke",
            Variant::Bomberman => "Bomberman Chess",
            Variant::Bombalot => "Bombalot",
        }
    }

    /// The board's shape (ruling C-1).
    pub const fn geometry(self) -> Geometry {
        match self {
            Variant::Bomberman => Geometry::BOMBERMAN,
            Variant::Bombalot => Geometry::BOMBALOT,
            _ => Geometry::CHESS,
        }
    }

    /// Whether games of this variant start with a private carrier designation (BE-2, NU-3).
    pub const fn has_designation(self) -> bool {
        matches!(self, Variant::Beirut | Variant::Nuke)
    }
}

impl fmt::Display for Variant {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A variant name that is not one of `atomic`, `beirut`, `nuke`, `bomberman`, `bombalot`.
#[derive(Clone, Debug, Eq, PartialEq, thiserror::Error)]
#[error("'{0}' is not a variant: expected atomic, beirut, nuke, bomberman or bombalot")]
pub struct ParseVariantError(pub String);

impl FromStr for Variant {
    type Err = ParseVariantError;
    fn from_str(s: &str) -> Result<Variant, ParseVariantError> {
        let lower = s.trim().to_ascii_lowercase();
        Variant::ALL
            .into_iter()
            .find(|v| v.name() == lower || v.title().to_ascii_lowercase() == lower)
            .ok_or_else(|| ParseVariantError(s.to_string()))
    }
}

/// Options agreed in a challenge that change the rules of a game.
#[derive(Copy, Clone, Eq, PartialEq, Hash, Debug, Serialize, Deserialize)]
pub struct GameOptions {
    /// Beirut only: number of carriers per side, 1 to 15 ("Multiple Beirut", BE-2).
    pub carriers: u8,
    /// Beirut only: a captured carrier explodes at once ("Dead Man's Switch", BE-6).
    pub dead_mans_switch: bool,
}

impl Default for GameOptions {
    fn default() -> GameOptions {
        GameOptions {
            carriers: 1,
            dead_mans_switch: false,
        }
    }
}
