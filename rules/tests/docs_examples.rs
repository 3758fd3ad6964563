//! Every notation example in the players' rules pages (`docs/rules/*.md`) replays in the
//! rules library (issue 10). An example is a fenced block tagged `movetext <variant>`; its
//! optional first lines `fen: ...`, `carriers: white=SQ[,SQ...],black=SQ[,SQ...]` and
//! `options: dead-mans-switch` set it up, the rest is PGN movetext from that position.

use std::path::Path;

use kaboom_rules::notation::movetext_actions;
use kaboom_rules::{AnyGame, Color, GameOptions, Square, Variant};

struct Example {
    page: String,
    variant: Variant,
    lines: Vec<String>,
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

fn replay(ex: &Example) {
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
    for text in actions {
        game.play(None, &text).unwrap_or_else(|e| {
            panic!(
                "{}: example '{}' fails at {text}: {e}",
                ex.page,
                movetext.trim()
            )
        });
    }
}

#[test]
fn every_rules_page_example_replays() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../docs/rules");
    let mut pages = 0;
    for entry in std::fs::read_dir(&dir).expect("docs/rules exists") {
        let path = entry.expect("readable").path();
        if path.extension().is_none_or(|e| e != "md") {
            continue;
        }
        let name = path.file_name().unwrap().to_string_lossy().to_string();
        let found = examples(&std::fs::read_to_string(&path).expect("readable"), &name);
        assert!(!found.is_empty(), "{name} has no movetext example");
        found.iter().for_each(replay);
        pages += 1;
    }
    assert!(pages >= 1, "no rules page found in {}", dir.display());
}

#[test]
fn a_wrong_example_would_be_caught() {
    let page = "```movetext atomic\n1. e4 e5 2. Ke3\n```\n";
    let found = examples(page, "inline");
    assert_eq!(found.len(), 1);
    assert!(std::panic::catch_unwind(|| replay(&found[0])).is_err());
}
