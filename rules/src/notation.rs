//! Shared notation helpers: PGN movetext tokenizing and decoration stripping (C-5).

/// Movetext that cannot be split into actions (an unclosed comment or variation).
#[derive(Clone, Debug, Eq, PartialEq, thiserror::Error)]
#[error("bad movetext: {0}")]
pub struct MovetextError(pub String);

/// Splits PGN movetext into action tokens, in order.
///
/// Skipped: move numbers (`12.`, `12...`, also glued as `1.e4`), dots standing alone
/// (`12. ... Nf6`), `{comments}`,
/// `;` comments to the end of the line, `(variations)`, NAGs (`$1`), glyphs standing
/// alone (`!`, `?!`), and results (`1-0`, `0-1`, `1/2-1/2`, `*`). A removal list written
/// with spaces after its commas (`Oxa1->a2, g1`, BM-10) or around its arrow (`Oxa1 -> a2`)
/// is joined back into one token, so is a Nuke transfer prefix with its move
/// (`c1>d2 Nxe5*`, NU-4), and so is a Beirut Boom written with spaces around its `@`
/// (`Boom @e5`, `Boom @ e5`: one token `Boom@e5`, BE-3).
///
/// # Errors
/// [`MovetextError`] for an unclosed `{` or `(`.
pub fn movetext_actions(text: &str) -> Result<Vec<String>, MovetextError> {
    let mut cleaned = String::with_capacity(text.len());
    let mut chars = text.chars();
    let mut depth = 0usize;
    while let Some(c) = chars.next() {
        match c {
            '{' => {
                if !chars.by_ref().any(|c| c == '}') {
                    return Err(MovetextError("a '{' comment is never closed".into()));
                }
                cleaned.push(' ');
            }
            ';' if depth == 0 => {
                chars.by_ref().find(|&c| c == '\n');
                cleaned.push(' ');
            }
            '(' => depth += 1,
            ')' if depth > 0 => {
                depth -= 1;
                cleaned.push(' ');
            }
            _ if depth > 0 => {}
            _ => cleaned.push(c),
        }
    }
    if depth > 0 {
        return Err(MovetextError("a '(' variation is never closed".into()));
    }
    let mut tokens: Vec<String> = Vec::new();
    for raw in cleaned.split_whitespace() {
        let token = strip_move_number(raw);
        if token.is_empty()
            || matches!(token, "1-0" | "0-1" | "1/2-1/2" | "*")
            || token.starts_with('$')
            || token.chars().all(|c| c == '!' || c == '?')
            || token.chars().all(|c| c == '.')
        {
            continue;
        }
        match tokens.last_mut() {
            Some(last) if last.ends_with(',') || last.ends_with("->") => last.push_str(token),
            Some(last) if token.starts_with("->") => last.push_str(token),
            Some(last) if is_open_boom(last) && token.starts_with('@') => last.push_str(token),
            Some(last) if is_open_boom(last.trim_end_matches('@')) && last.ends_with('@') => {
                last.push_str(token);
            }
            Some(last) if is_transfer_prefix(last) => {
                last.push(' ');
                last.push_str(token);
            }
            _ => tokens.push(token.to_string()),
        }
    }
    Ok(tokens)
}

/// A token that is, or ends with, a Nuke transfer prefix standing alone, like `c1>d2`
/// (NU-4): it belongs with the next token.
fn is_transfer_prefix(token: &str) -> bool {
    let all = token.as_bytes();
    if all.len() < 5 || (all.len() > 5 && all[all.len() - 6] != b' ') {
        return false;
    }
    let b = &all[all.len() - 5..];
    b[0].is_ascii_lowercase()
        && b[1].is_ascii_digit()
        && b[2] == b'>'
        && b[3].is_ascii_lowercase()
        && b[4].is_ascii_digit()
}

/// A token that is exactly `Boom` (any case): a Beirut Boom whose `@square` follows after
/// a space (BE-3).
fn is_open_boom(token: &str) -> bool {
    token.eq_ignore_ascii_case("boom")
}

/// `"12.e4"` -> `"e4"`, `"12..."` -> `""`, `"e4"` -> `"e4"`.
fn strip_move_number(token: &str) -> &str {
    let digits = token.bytes().take_while(u8::is_ascii_digit).count();
    if digits > 0 && token[digits..].starts_with('.') {
        token[digits..].trim_start_matches('.')
    } else {
        token
    }
}

/// Splits `text` into the action proper and an optional removal list after `->`, and
/// drops trailing check marks and glyphs (`+`, `#`, `!`, `?`): C-5 display additions.
/// `"Oxb5->a5,b7+"` gives `("Oxb5", Some("a5,b7"))`.
pub fn strip_decorations(text: &str) -> (&str, Option<&str>) {
    let text = text.trim();
    let (core, removals) = match text.find("->") {
        Some(i) => (
            &text[..i],
            Some(text[i + 2..].trim_end_matches(['+', '#', '!', '?'])),
        ),
        None => (text, None),
    };
    (core.trim_end_matches(['+', '#', '!', '?']), removals)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn movetext_skips_numbers_comments_and_results() {
        let text =
            "1. e4 {best by test} e5 2.Nf3 $1 Nc6!? (2... d6 3. d4) 3... Bc5 ; note\n 4. O-O 1-0";
        assert_eq!(
            movetext_actions(text).unwrap(),
            ["e4", "e5", "Nf3", "Nc6!?", "Bc5", "O-O"]
        );
    }

    #[test]
    fn movetext_skips_standalone_ellipsis_bm10() {
        // The seed's games write `2. ... fxg4` with the dots standing alone.
        assert_eq!(
            movetext_actions("2. g4 2. ... fxg4 3. e4").unwrap(),
            ["g4", "fxg4", "e4"]
        );
    }

    #[test]
    fn movetext_joins_removal_lists_bm10() {
        let text = "26... Oxj8->f8, j7 27. Kh1";
        assert_eq!(movetext_actions(text).unwrap(), ["Oxj8->f8,j7", "Kh1"]);
    }

    #[test]
    fn movetext_keeps_castling_with_zeros() {
        assert_eq!(
            movetext_actions("1. 0-0 0-0-0 0-1").unwrap(),
            ["0-0", "0-0-0"]
        );
    }

    #[test]
    fn movetext_keeps_nuke_transfers_with_their_move_nu4() {
        assert_eq!(
            movetext_actions("1. e4 d8>e8 e5 2. c1>d2   Nxe5* *").unwrap(),
            ["e4", "d8>e8 e5", "c1>d2 Nxe5*"]
        );
        // Two transfers stay together, so the rules can say "only one transfer per turn".
        assert_eq!(
            movetext_actions("1. e1>d1 d1>d2 e4").unwrap(),
            ["e1>d1 d1>d2 e4"]
        );
    }

    #[test]
    fn movetext_keeps_a_spaced_boom_together_be3() {
        assert_eq!(
            movetext_actions("1. e4 Boom @e5 2. BOOM @ d1 boom@ g8 3. Nf3 *").unwrap(),
            ["e4", "Boom@e5", "BOOM@d1", "boom@g8", "Nf3"]
        );
        // A square after a lone `Boom` without `@` is not joined (outside the grammar).
        assert_eq!(movetext_actions("Boom e5").unwrap(), ["Boom", "e5"]);
    }

    #[test]
    fn movetext_joins_a_spaced_removal_arrow_bm10() {
        assert_eq!(
            movetext_actions("1. Oxa1 -> a2, g1 Kh1 2. Oxb5 ->a5 Oxj8-> j7").unwrap(),
            ["Oxa1->a2,g1", "Kh1", "Oxb5->a5", "Oxj8->j7"]
        );
    }

    #[test]
    fn unclosed_comment_is_an_error() {
        assert!(movetext_actions("1. e4 {oops").is_err());
        assert!(movetext_actions("1. e4 (e5").is_err());
    }

    #[test]
    fn decorations_are_stripped() {
        assert_eq!(strip_decorations("Oxb5->a5,b7+"), ("Oxb5", Some("a5,b7")));
        assert_eq!(strip_decorations("Qxf7#"), ("Qxf7", None));
        assert_eq!(strip_decorations("e4!?"), ("e4", None));
    }
}
