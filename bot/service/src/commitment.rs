//! The Beirut commitment (BE-9; docs/ARCHITECTURE.md, "Beirut commitment").
//!
//! One per side: SHA-256, lowercase hex, of
//! `kaboom-beirut-v1:<game id>:<white|black>:<carrier squares in canonical order,
//! comma-joined>:<salt as lowercase hex>`, with a 16-byte salt from the OS generator.

use kaboom_rules::beirut;
use kaboom_rules::{Color, Square};

use kaboom_domain::ids::GameId;

/// Squares in canonical order (by rank from White's side, then file), comma-joined:
/// [`beirut::canonical_squares`].
pub fn canonical_squares(squares: &[Square]) -> String {
    beirut::canonical_squares(squares)
}

/// The string that is hashed (and that a player hashes with `sha256sum` to check):
/// [`beirut::commitment_preimage_text`].
pub fn preimage(game_id: GameId, color: Color, squares: &str, salt_hex: &str) -> String {
    beirut::commitment_preimage_text(&game_id.to_string(), color, squares, salt_hex)
}

/// SHA-256 of [`preimage`], lowercase hex: [`beirut::commitment_text`].
pub fn commitment(game_id: GameId, color: Color, squares: &str, salt_hex: &str) -> String {
    beirut::commitment_text(&game_id.to_string(), color, squares, salt_hex)
}

/// A fresh 16-byte salt from the operating system's generator, lowercase hex.
///
/// # Errors
/// A message when the OS generator is unavailable.
pub fn fresh_salt() -> Result<String, String> {
    let mut salt = [0u8; 16];
    getrandom::fill(&mut salt).map_err(|e| format!("no randomness from the OS: {e}"))?;
    Ok(hex::encode(salt))
}

/// The shell line a player can run to check a revealed commitment.
pub fn check_line(game_id: GameId, color: Color, squares: &str, salt_hex: &str) -> String {
    format!(
        "printf '%s' '{}' | sha256sum",
        preimage(game_id, color, squares, salt_hex)
    )
}

#[cfg(test)]
mod tests {
    use sha2::{Digest, Sha256};

    use super::*;

    #[test]
    fn commitment_is_sha256_of_the_documented_string_be9() {
        let sq: Vec<Square> = ["g1", "b1"].iter().map(|s| s.parse().unwrap()).collect();
        let squares = canonical_squares(&sq);
        assert_eq!(squares, "b1,g1");
        let pre = preimage(GameId(7), Color::White, &squares, "00ff");
        assert_eq!(pre, "kaboom-beirut-v1:7:white:b1,g1:00ff");
        // Independent digest of the same bytes.
        let expected = hex::encode(Sha256::digest(pre.as_bytes()));
        assert_eq!(
            commitment(GameId(7), Color::White, &squares, "00ff"),
            expected
        );
        assert_eq!(expected.len(), 64);
        assert!(
            expected
                .chars()
                .all(|c| c.is_ascii_hexdigit() && !c.is_ascii_uppercase())
        );
        // A different salt gives a different commitment.
        assert_ne!(
            commitment(GameId(7), Color::White, &squares, "00fe"),
            expected
        );
    }

    #[test]
    fn salts_are_16_random_bytes_be9() {
        let a = fresh_salt().unwrap();
        let b = fresh_salt().unwrap();
        assert_eq!(a.len(), 32);
        assert_ne!(a, b);
    }
}
