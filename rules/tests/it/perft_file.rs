//! Reading perft reference files (test code only, C-7): the format of
//! `rules/tests/data/atomic.perft` (shared with shakmaty's test data): blocks of `id NAME`,
//! `epd FEN` and `perft DEPTH NODES` lines, separated by blank lines; `#` starts a comment.

use kaboom_rules::{FenError, Position};

/// One position of a perft file with its expected node counts.
#[derive(Clone, Debug, Eq, PartialEq)]
pub(crate) struct PerftCase {
    /// The block's `id`.
    pub(crate) id: String,
    /// The position (EPD: FEN without clocks, or a full FEN).
    pub(crate) epd: String,
    /// `(depth, nodes)` pairs in file order.
    pub(crate) counts: Vec<(u32, u64)>,
}

/// A perft file line that does not fit the format.
#[derive(Clone, Debug, Eq, PartialEq, thiserror::Error)]
#[error("perft file line {line}: {reason}")]
pub(crate) struct PerftFileError {
    /// 1-based line number.
    pub(crate) line: usize,
    /// What was wrong.
    pub(crate) reason: String,
}

/// Parses a perft file.
///
/// # Errors
/// [`PerftFileError`] for a line that is not `id`, `epd`, `perft D N`, a comment or blank.
pub(crate) fn parse_perft_file(text: &str) -> Result<Vec<PerftCase>, PerftFileError> {
    let mut cases: Vec<PerftCase> = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let line = line.trim();
        let err = |reason: &str| PerftFileError {
            line: i + 1,
            reason: reason.to_string(),
        };
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let (key, rest) = line
            .split_once(' ')
            .ok_or_else(|| err("expected 'id', 'epd' or 'perft' and a value"))?;
        match key {
            "id" => cases.push(PerftCase {
                id: rest.trim().to_string(),
                epd: String::new(),
                counts: Vec::new(),
            }),
            "epd" => {
                cases
                    .last_mut()
                    .ok_or_else(|| err("'epd' before any 'id'"))?
                    .epd = rest.trim().to_string()
            }
            "perft" => {
                let mut parts = rest.split_whitespace();
                let depth = parts
                    .next()
                    .and_then(|d| d.parse().ok())
                    .ok_or_else(|| err("bad perft depth"))?;
                let nodes = parts
                    .next()
                    .and_then(|n| n.parse().ok())
                    .ok_or_else(|| err("bad perft node count"))?;
                cases
                    .last_mut()
                    .ok_or_else(|| err("'perft' before any 'id'"))?
                    .counts
                    .push((depth, nodes));
            }
            _ => return Err(err("expected 'id', 'epd' or 'perft'")),
        }
    }
    Ok(cases)
}

/// Completes an EPD (4 fields) into a FEN with clocks `0 1`; a full FEN is returned as is.
pub(crate) fn epd_to_fen(epd: &str) -> String {
    if epd.split_whitespace().count() == 4 {
        format!("{epd} 0 1")
    } else {
        epd.to_string()
    }
}

/// One mismatch between a computed and an expected count.
#[derive(Clone, Debug, Eq, PartialEq)]
pub(crate) struct PerftMismatch {
    /// The case id.
    pub(crate) id: String,
    /// The depth.
    pub(crate) depth: u32,
    /// Expected nodes.
    pub(crate) expected: u64,
    /// Computed nodes.
    pub(crate) actual: u64,
}

/// Checks every count of `cases` up to `node_limit` expected nodes with `P`, returning the
/// mismatches and the number of counts checked.
///
/// # Errors
/// [`FenError`] when a case's position does not parse.
pub(crate) fn check_cases<P: Position>(
    cases: &[PerftCase],
    node_limit: u64,
) -> Result<(Vec<PerftMismatch>, usize), FenError> {
    let mut mismatches = Vec::new();
    let mut checked = 0;
    for case in cases {
        let pos = P::from_fen(&epd_to_fen(&case.epd))?;
        for &(depth, expected) in case.counts.iter().filter(|(_, n)| *n <= node_limit) {
            let actual = pos.perft(depth);
            checked += 1;
            if actual != expected {
                mismatches.push(PerftMismatch {
                    id: case.id.clone(),
                    depth,
                    expected,
                    actual,
                });
            }
        }
    }
    Ok((mismatches, checked))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_blocks() {
        let text = "# regression data\nid a\nepd 8/8 w - -\nperft 1 20\nperft 2 400\n\nid b\nepd x\nperft 3 9\n";
        let cases = parse_perft_file(text).unwrap();
        assert_eq!(cases.len(), 2);
        assert_eq!(cases[0].counts, vec![(1, 20), (2, 400)]);
        assert_eq!(cases[1].id, "b");
        assert!(parse_perft_file("perft 1 2").is_err());
        assert!(parse_perft_file("id a\nperft x 2").is_err());
    }

    #[test]
    fn epd_gets_clocks() {
        assert_eq!(
            epd_to_fen("8/8/8/8/8/8/8/8 w - -"),
            "8/8/8/8/8/8/8/8 w - - 0 1"
        );
        assert_eq!(
            epd_to_fen("8/8/8/8/8/8/8/8 w - - 3 9"),
            "8/8/8/8/8/8/8/8 w - - 3 9"
        );
    }
}
