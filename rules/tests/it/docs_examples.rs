//! Every notation example in the players' rules pages (`docs/rules/*.md`) is checked in
//! the rules library.
//!
//! - An example game is a fenced block tagged `movetext <variant>`; its optional first lines
//!   `fen: ...`, `carriers: white=SQ[,SQ...],black=SQ[,SQ...]` and
//!   `options: dead-mans-switch` set it up, the rest is PGN movetext from that position.
//!   Every such block replays. Each of the five variant pages (`<variant>.md`) has at least
//!   one, and only blocks of its own variant; the README may show any variant.
//! - Every inline code span in a variant page's "Notation" section (tables, lists and
//!   text) is either a piece of the grammar listed in [`syntax`], a refusal listed in
//!   [`REFUSED`], or an action (or a short movetext) that is accepted in a position one of
//!   that page's example games passes through: the "stated positions" are the page's own
//!   games, so a reader can find them.
//! - The start FEN each variant page shows is the variant's start position.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use kaboom_rules::notation::movetext_actions;
use kaboom_rules::{AnyGame, Color, GameOptions, Square, Variant, Viewer};

struct Example {
    page: String,
    variant: Variant,
    lines: Vec<String>,
}

fn docs() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../docs/rules")
}

fn page_text(name: &str) -> String {
    let path = docs().join(name);
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

fn examples(markdown: &str, page: &str) -> Vec<Example> {
    let mut out = Vec::new();
    let mut current: Option<Example> = None;
    for line in markdown.lines() {
        let trimmed = line.trim();
        match current.as_mut() {
            Some(_) if trimmed.starts_with("```") => {
                out.push(current.take().expect("inside a block"))
            }
            Some(ex) => ex.lines.push(trimmed.to_string()),
            None => {
                if let Some(tag) = trimmed.strip_prefix("```movetext") {
                    let variant = tag.trim().parse().unwrap_or_else(|e| panic!("{page}: {e}"));
                    current = Some(Example {
                        page: page.to_string(),
                        variant,
                        lines: Vec::new(),
                    });
                }
            }
        }
    }
    assert!(
        current.is_none(),
        "{page}: a movetext block is never closed"
    );
    out
}

fn squares(list: &str) -> Vec<Square> {
    list.split(',')
        .map(|s| s.trim().parse().unwrap_or_else(|e| panic!("{e}")))
        .collect()
}

/// Replays `ex` and returns the games it passes through: the set-up game before its first
/// ply, and the game after each ply.
fn replay(ex: &Example) -> Vec<AnyGame> {
    let mut fen = None;
    let mut carriers: Option<(Vec<Square>, Vec<Square>)> = None;
    let mut options = GameOptions::default();
    let mut movetext = String::new();
    for line in &ex.lines {
        if let Some(f) = line.strip_prefix("fen:") {
            fen = Some(f.trim().to_string());
        } else if let Some(c) = line.strip_prefix("carriers:") {
            let (w, b) = c
                .trim()
                .split_once(",black=")
                .expect("carriers: white=..,black=..");
            let (w, b) = (squares(w.trim_start_matches("white=")), squares(b));
            options.carriers = w.len() as u8;
            carriers = Some((w, b));
        } else if line.trim() == "options: dead-mans-switch" {
            options.dead_mans_switch = true;
        } else {
            movetext.push_str(line);
            movetext.push('\n');
        }
    }
    let fen_given = fen.is_some();
    let mut game = match fen {
        Some(f) => AnyGame::from_fen(ex.variant, &f),
        None => AnyGame::new(ex.variant, options).map_err(|e| panic!("{}: {e}", ex.page)),
    }
    .unwrap_or_else(|e| panic!("{}: {e}", ex.page));
    assert!(
        !fen_given || !options.dead_mans_switch || game.options().dead_mans_switch,
        "{}: 'options: dead-mans-switch' with a fen that does not record it",
        ex.page
    );
    if let Some((w, b)) = carriers {
        game.designate(Color::White, &w)
            .unwrap_or_else(|e| panic!("{}: {e}", ex.page));
        game.designate(Color::Black, &b)
            .unwrap_or_else(|e| panic!("{}: {e}", ex.page));
    }
    let actions = movetext_actions(&movetext).unwrap_or_else(|e| panic!("{}: {e}", ex.page));
    assert!(!actions.is_empty(), "{}: an empty example", ex.page);
    let mut passed = vec![game.clone()];
    for text in actions {
        game.play(None, &text).unwrap_or_else(|e| {
            panic!(
                "{}: example '{}' fails at {text}: {e}",
                ex.page,
                movetext.trim()
            )
        });
        passed.push(game.clone());
    }
    passed
}

/// The `.md` files of docs/rules, sorted.
fn pages() -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(docs())
        .expect("docs/rules exists")
        .map(|e| e.expect("readable").path())
        .filter(|p| p.extension().is_some_and(|e| e == "md"))
        .map(|p| p.file_name().unwrap().to_string_lossy().to_string())
        .collect();
    names.sort();
    names
}

#[test]
fn every_rules_page_example_replays() {
    let mut variant_pages = BTreeSet::new();
    let mut blocks = 0;
    for name in pages() {
        let found = examples(&page_text(&name), &name);
        found.iter().for_each(|ex| {
            replay(ex);
        });
        blocks += found.len();
        let Some(variant) = Variant::ALL
            .into_iter()
            .find(|v| name == format!("{}.md", v.name()))
        else {
            continue;
        };
        assert!(!found.is_empty(), "{name} has no movetext example");
        for ex in &found {
            assert_eq!(
                ex.variant, variant,
                "{name}: a `movetext {}` block on the {variant} page",
                ex.variant
            );
        }
        variant_pages.insert(variant.name());
    }
    let all: BTreeSet<&str> = Variant::ALL.into_iter().map(|v| v.name()).collect();
    assert_eq!(
        variant_pages,
        all,
        "a variant has no rules page in {}",
        docs().display()
    );
    assert!(blocks >= 40, "only {blocks} example games in docs/rules");
}

#[test]
fn a_wrong_example_would_be_caught() {
    let page = "```movetext atomic\n1. e4 e5 2. Ke3\n```\n";
    let found = examples(page, "inline");
    assert_eq!(found.len(), 1);
    assert!(std::panic::catch_unwind(|| replay(&found[0])).is_err());
}

/// The text of the `## Notation` section of `markdown` (to the next `## ` heading), with
/// its fenced blocks left out.
fn notation_section(markdown: &str) -> String {
    let mut out = String::new();
    let mut inside = false;
    let mut fenced = false;
    for line in markdown.lines() {
        if line.starts_with("## ") {
            inside = line.trim() == "## Notation";
            continue;
        }
        if line.trim_start().starts_with("```") {
            fenced = !fenced;
            continue;
        }
        if inside && !fenced {
            out.push_str(line);
            out.push('\n');
        }
    }
    out
}

/// The inline code spans of `text`, in order (a span may wrap onto the next line).
fn code_spans(text: &str) -> Vec<String> {
    text.split('`')
        .skip(1)
        .step_by(2)
        .map(|s| s.split_whitespace().collect::<Vec<_>>().join(" "))
        .collect()
}

/// The code spans of a Notation section that are pieces of the grammar (marks, prefixes,
/// piece letters, a grammar pattern) rather than whole actions.
fn syntax(variant: Variant) -> &'static [&'static str] {
    match variant {
        Variant::Atomic => &["+", "#", "!", "?"],
        Variant::Beirut => &["+", "#", "!", "?", "Boom@"],
        Variant::Nuke => &["+", "#", "!", "?", "*", "[hand-over ]move[*]", "e1>e2"],
        Variant::Bomberman => &[
            "+", "#", "!", "?", ".", "j", "O", "Ox", "Ox...", "D", "KB", "Q", "=", "=N", "=B",
            "=R", "=KB",
        ],
        Variant::Bombalot => &["+", "#", "!", "?", "-", ":", "->"],
    }
}

/// Code spans that show an input the bot refuses: (variant, text, part of the refusal).
/// Each must be refused, with that message, in some position of its page's games.
const REFUSED: &[(Variant, &str, &str)] = &[(Variant::Beirut, "Boom@b8", "no carrier on b8")];

/// Whether every action of `span` (one action, or a short movetext) plays in order from
/// `game`.
fn plays_from(game: &AnyGame, span: &str) -> bool {
    let Ok(actions) = movetext_actions(span) else {
        return false;
    };
    let mut game = game.clone();
    !actions.is_empty() && actions.iter().all(|a| game.play(None, a).is_ok())
}

/// Every code span of each variant page's Notation section is grammar, a listed refusal,
/// or accepted in a position that one of the page's example games passes through.
#[test]
fn every_notation_example_is_accepted_in_a_position_of_its_page() {
    for variant in Variant::ALL {
        let name = format!("{}.md", variant.name());
        let text = page_text(&name);
        let games: Vec<AnyGame> = examples(&text, &name).iter().flat_map(replay).collect();
        let spans = code_spans(&notation_section(&text));
        let mut checked = 0;
        let mut unchecked = Vec::new();
        for span in &spans {
            if syntax(variant).contains(&span.as_str()) {
                continue;
            }
            if let Some((_, _, why)) = REFUSED.iter().find(|(v, t, _)| *v == variant && t == span) {
                assert!(
                    games.iter().any(|g| g
                        .check(None, span)
                        .is_err_and(|e| e.to_string().contains(why))),
                    "{name}: `{span}` is never refused with '{why}' in this page's games"
                );
                checked += 1;
                continue;
            }
            if games.iter().any(|g| plays_from(g, span)) {
                checked += 1;
            } else {
                unchecked.push(span.clone());
            }
        }
        assert!(
            unchecked.is_empty(),
            "{name}: these notation examples are not accepted in any position of the page's example games (add a movetext example that reaches one, or fix the text): {unchecked:?}"
        );
        assert!(
            checked >= 8,
            "{name}: only {checked} notation examples in its Notation section"
        );
    }
}

#[test]
fn a_wrong_notation_example_would_be_caught() {
    let page = "## Notation\n| a | `Nf3` |\n\n```movetext atomic\n1. e4\n```\nAlso `Nf6`,\n`Ke3`.\n## Next\n`Qh5`\n";
    assert_eq!(code_spans(&notation_section(page)), ["Nf3", "Nf6", "Ke3"]);
    // The stated positions: the start, and the position after 1. e4.
    let games: Vec<AnyGame> = examples(page, "inline").iter().flat_map(replay).collect();
    assert_eq!(games.len(), 2);
    assert!(games.iter().any(|g| plays_from(g, "Nf3")));
    assert!(games.iter().any(|g| plays_from(g, "Nf6")));
    assert!(!games.iter().any(|g| plays_from(g, "Ke3")));
    assert!(!games.iter().any(|g| plays_from(g, "O-O")));
    assert!(games.iter().any(|g| plays_from(g, "1. e4 e5 2. Nf3")));
    assert!(!games.iter().any(|g| plays_from(g, "1. e4 e5 2. Ke3")));
}

/// The start FEN a variant page shows (a plain fenced block holding one FEN) is the
/// variant's start position, as the library writes it (fields the page leaves out, such
/// as Beirut's carriers, are the library's defaults).
#[test]
fn the_start_fen_of_each_page_is_the_start_position() {
    for variant in Variant::ALL {
        let name = format!("{}.md", variant.name());
        let text = page_text(&name);
        // (whether the open fenced block is untagged, its lines)
        let mut block: Option<(bool, Vec<&str>)> = None;
        let mut shown = Vec::new();
        for line in text.lines() {
            let trimmed = line.trim();
            match block.as_mut() {
                Some((plain, lines)) if trimmed.starts_with("```") => {
                    let ranks = |fen: &str| fen.split(' ').next().map(|p| p.matches('/').count());
                    if let (true, [fen]) = (*plain, &lines[..])
                        && ranks(fen) == Some(7)
                    {
                        shown.push(fen.to_string());
                    }
                    block = None;
                }
                Some((_, lines)) => lines.push(trimmed),
                None if trimmed.starts_with("```") => block = Some((trimmed == "```", Vec::new())),
                None => {}
            }
        }
        assert_eq!(
            shown.len(),
            1,
            "{name}: expected one start FEN block, found {shown:?}"
        );
        let start = AnyGame::new(variant, GameOptions::default())
            .unwrap()
            .fen(Viewer::Spectator);
        let from_page = AnyGame::from_fen(variant, &shown[0])
            .unwrap_or_else(|e| panic!("{name}: {e}"))
            .fen(Viewer::Spectator);
        assert_eq!(
            from_page, start,
            "{name}: the FEN shown is not the start position"
        );
    }
}
