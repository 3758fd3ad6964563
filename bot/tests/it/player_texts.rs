//! No text a player reads cites a ruling id (`BE-3`, `NU-7`: the project's
//! bookkeeping, which players cannot look up) or points to a project file (`docs/...`).
//! Every string literal of the Discord layer's code (the message builders in
//! `bot/discord/src/messages/`, the commands, components, flows, previews and the outbox's
//! wording), outside comments and tests, is scanned; the full rules attached to `/rules` are
//! checked in `discord::messages::full_rules`, and the demo's transcripts in the testkit's
//! demo test.

use std::path::{Path, PathBuf};

use regex::Regex;

fn files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// The string literals of `code` (before its first `#[cfg(test)]`), comments skipped.
fn literals(code: &str) -> Vec<String> {
    let code = code.split("#[cfg(test)]").next().unwrap_or_default();
    let code: String = code
        .lines()
        .filter(|l| !l.trim_start().starts_with("//"))
        .collect::<Vec<_>>()
        .join("\n");
    let re = Regex::new(r#"r?#*"((?:[^"\\]|\\.)*)""#).unwrap();
    re.captures_iter(&code).map(|c| c[1].to_string()).collect()
}

#[test]
fn player_texts_cite_no_ruling_ids_and_no_project_files() {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("discord/src");
    let mut all = Vec::new();
    files(&root, &mut all);
    assert!(all.len() > 15, "the Discord layer's files: {all:?}");
    let id = Regex::new(r"\b[A-Z]{2}-\d+").unwrap();
    let mut found = Vec::new();
    for path in all {
        let text = std::fs::read_to_string(&path).unwrap();
        for lit in literals(&text) {
            // Include paths of the rules pages (the full rules' source) are not texts.
            if lit.ends_with(".md") && lit.contains("docs/rules/") {
                continue;
            }
            if id.is_match(&lit) || lit.contains("docs/") {
                found.push(format!("{}: {lit}", path.display()));
            }
        }
    }
    assert!(
        found.is_empty(),
        "player texts with ruling ids or files:\n{}",
        found.join("\n")
    );
}

#[test]
fn the_scan_finds_what_it_looks_for() {
    let lits = literals(
        "let a = \"x (BE-3)\";\n    // \"AT-1\"\nlet b = r#\"docs/rules\"#;\n#[cfg(test)]\n\"NU-1\"",
    );
    assert_eq!(lits, ["x (BE-3)", "docs/rules"]);
}
