//! Checks of the documentation.
//!
//! - The setup diagrams of the players' rules pages, `docs/rules/img/<variant>-start.png`, are
//!   committed, shown by every rules page, and equal to what `kaboom render` draws now, so a
//!   renderer change that leaves them stale fails here and names the command that
//!   regenerates them. Regression data produced by our own code: the committed pictures
//!   were drawn by `scripts/docs-images.sh` (the renderer is deterministic).
//! - `.env.example` and docs/hosting.md document every variable the bot reads.
//! - Every ruling id (`BE-3`, `NU-7`, `C-5`, ...) cited by the rules pages
//!   (`docs/rules/*.md`) and by `/rules` (`bot/discord/src/messages/rules.rs`) is defined in
//!   `docs/rules/RULINGS.md`, the repository's copy of the project's shared rulings file;
//!   the pages link it; and when the shared file is beside the repository (as in CI) the
//!   copy's rulings equal it, so drift is caught.

use std::path::{Path, PathBuf};
use std::process::Command;

use kaboom_rules::Variant;

const REGENERATE: &str = "scripts/docs-images.sh";

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("bot/ has a parent")
        .to_path_buf()
}

fn committed(variant: Variant) -> PathBuf {
    repo()
        .join("docs/rules/img")
        .join(format!("{}-start.png", variant.name()))
}

#[test]
fn every_rules_page_shows_its_setup_image() {
    for variant in Variant::ALL {
        let page = repo().join(format!("docs/rules/{}.md", variant.name()));
        let text = std::fs::read_to_string(&page)
            .unwrap_or_else(|e| panic!("cannot read {}: {e}", page.display()));
        let link = format!("](img/{}-start.png)", variant.name());
        assert!(
            text.lines()
                .any(|l| l.starts_with("![") && l.contains(&link)),
            "{} does not show its setup image (a line `![Setup](img/{}-start.png)`)",
            page.display(),
            variant.name()
        );
        assert!(
            committed(variant).is_file(),
            "{} is missing: run {REGENERATE}",
            committed(variant).display()
        );
    }
}

#[test]
fn committed_setup_images_equal_what_the_renderer_draws_now() {
    let dir = tempfile::tempdir().unwrap();
    let mut stale = Vec::new();
    for variant in Variant::ALL {
        let fresh = dir.path().join(format!("{}-start.png", variant.name()));
        // The same command as scripts/docs-images.sh.
        let out = Command::new(env!("CARGO_BIN_EXE_kaboom"))
            .args(["render", "--variant", variant.name(), "-o"])
            .arg(&fresh)
            .output()
            .expect("kaboom runs");
        assert!(
            out.status.success(),
            "kaboom render --variant {} failed: {}",
            variant.name(),
            String::from_utf8_lossy(&out.stderr)
        );
        // It says where it wrote the picture.
        assert_eq!(
            String::from_utf8_lossy(&out.stdout),
            format!("wrote {}\n", fresh.display())
        );
        let now = std::fs::read(&fresh).unwrap();
        assert!(
            now.starts_with(b"\x89PNG\r\n\x1a\n"),
            "{variant}: not a PNG"
        );
        let old = std::fs::read(committed(variant)).unwrap_or_default();
        if old != now {
            stale.push(committed(variant).display().to_string());
        }
    }
    assert!(
        stale.is_empty(),
        "stale setup images (the renderer now draws something else): {}; regenerate them with {REGENERATE} and commit the result",
        stale.join(", ")
    );
}

/// `kaboom serve`'s flags alone, to list the environment variables they read.
#[derive(clap::Parser)]
struct Serve {
    #[command(flatten)]
    args: kaboom_discord::config::ServeArgs,
}

/// Every variable the bot reads is documented in `.env.example` and in docs/hosting.md:
/// the variables of `kaboom serve`'s flags (clap's `env`) and those `kaboom invite-url`
/// reads (`get("NAME")` in its reader).
#[test]
fn env_example_and_hosting_guide_document_every_variable() {
    let example = std::fs::read_to_string(repo().join(".env.example")).unwrap();
    let guide = std::fs::read_to_string(repo().join("docs/hosting.md")).unwrap();
    let mut names: Vec<String> = <Serve as clap::CommandFactory>::command()
        .get_arguments()
        .filter_map(|arg| arg.get_env())
        .map(|name| name.to_string_lossy().into_owned())
        .collect();
    let invite = std::fs::read_to_string(repo().join("bot/src/cli/invite.rs")).unwrap();
    for (at, _) in invite.match_indices("get(\"") {
        let name: String = invite[at + "get(\"".len()..]
            .chars()
            .take_while(|c| c.is_ascii_uppercase() || *c == '_')
            .collect();
        if name.len() > 3 && !names.contains(&name) {
            names.push(name);
        }
    }
    assert_eq!(names.len(), 18, "{names:?}");
    for name in &names {
        assert!(
            example.lines().any(|l| l.starts_with(&format!("{name}="))),
            ".env.example has no line `{name}=`"
        );
        assert!(
            guide.contains(&format!("`{name}`")),
            "docs/hosting.md does not explain `{name}`"
        );
    }
}

const RULING_PREFIXES: [&str; 6] = ["C", "AT", "BE", "NU", "BM", "BA"];

/// Every ruling id cited in `text`, in order: a prefix of [`RULING_PREFIXES`], `-` and
/// digits, standing as a word of its own (so `SHA-256` or `100-ply` are not ids).
fn cited_ids(text: &str) -> Vec<String> {
    let bytes = text.as_bytes();
    let mut ids = Vec::new();
    for (at, _) in text.match_indices('-') {
        let letters = bytes[..at]
            .iter()
            .rev()
            .take_while(|b| b.is_ascii_uppercase())
            .count();
        let start = at - letters;
        let digits = bytes[at + 1..]
            .iter()
            .take_while(|b| b.is_ascii_digit())
            .count();
        let end = at + 1 + digits;
        let word_before = start > 0 && bytes[start - 1].is_ascii_alphanumeric();
        let word_after = end < bytes.len() && bytes[end].is_ascii_alphanumeric();
        if digits > 0 && !word_before && !word_after && RULING_PREFIXES.contains(&&text[start..at])
        {
            ids.push(text[start..end].to_string());
        }
    }
    ids
}

/// The rulings a rulings file defines: each bullet that starts with a bold id
/// (`- **AT-1** ...`, `- **C-1 Squares.** ...`), as id -> the bullet's text (its
/// continuation lines included, whitespace collapsed).
fn defined_rulings(text: &str) -> std::collections::BTreeMap<String, String> {
    let mut rulings = std::collections::BTreeMap::new();
    let mut current: Option<(String, String)> = None;
    for line in text.lines() {
        if let Some((_, body)) = current.as_mut()
            && line.starts_with("  ")
            && !line.trim().is_empty()
        {
            body.push(' ');
            body.push_str(line.trim());
            continue;
        }
        if let Some((id, body)) = current.take() {
            assert!(
                rulings.insert(id.clone(), body).is_none(),
                "ruling {id} is defined twice"
            );
        }
        if let Some(rest) = line.strip_prefix("- **") {
            let id = cited_ids(rest)
                .into_iter()
                .next()
                .filter(|id| rest.starts_with(id));
            if let Some(id) = id {
                current = Some((id, line.trim().to_string()));
            }
        }
    }
    if let Some((id, body)) = current {
        assert!(
            rulings.insert(id.clone(), body).is_none(),
            "ruling {id} is defined twice"
        );
    }
    rulings
}

fn rulings_copy() -> String {
    std::fs::read_to_string(repo().join("docs/rules/RULINGS.md"))
        .expect("docs/rules/RULINGS.md exists")
}

/// The rules pages that cite rulings: every `docs/rules/*.md` except RULINGS.md itself.
fn citing_pages() -> Vec<PathBuf> {
    let mut pages: Vec<PathBuf> = std::fs::read_dir(repo().join("docs/rules"))
        .expect("docs/rules exists")
        .map(|e| e.expect("readable").path())
        .filter(|p| p.extension().is_some_and(|e| e == "md"))
        .filter(|p| !p.ends_with("RULINGS.md"))
        .collect();
    pages.sort();
    pages
}

#[test]
fn ruling_ids_are_found_as_words_only() {
    assert_eq!(
        cited_ids("(BE-3, NU-12) C-5; AT-1 to AT-9. SHA-256, 100-ply, XBE-3, BE-3a, BE-"),
        ["BE-3", "NU-12", "C-5", "AT-1", "AT-9"]
    );
    let sample = "- **AT-1** Standard chess.\n- **C-2 Turns.** White moves first;\n  a turn is one action (NU-4).\n\nText.\n";
    let defined = defined_rulings(sample);
    assert_eq!(defined.keys().collect::<Vec<_>>(), ["AT-1", "C-2"]);
    assert_eq!(
        defined["C-2"],
        "- **C-2 Turns.** White moves first; a turn is one action (NU-4)."
    );
}

/// Every ruling id cited by the rules pages and by `/rules` is defined in
/// docs/rules/RULINGS.md.
#[test]
fn every_cited_ruling_is_in_the_rulings_copy() {
    let defined = defined_rulings(&rulings_copy());
    // The rulings are C-1 to C-7, AT-1 to AT-9, BE-1 to BE-12, NU-1 to NU-13, BM-1 to BM-10
    // and BA-1 to BA-19.
    assert_eq!(defined.len(), 70, "{:?}", defined.keys());
    // The players' rules pages name only the range of their variant's rulings; the
    // notation pages (for developers) cite them one by one.
    let mut sources = citing_pages();
    sources.push(repo().join("bot/discord/src/messages/rules.rs"));
    for page in ["beirut", "bombalot", "bomberman", "nuke"] {
        sources.push(repo().join(format!("docs/notation/{page}.md")));
    }
    let mut cited = std::collections::BTreeSet::new();
    let mut missing = Vec::new();
    for path in &sources {
        let text = std::fs::read_to_string(path).unwrap();
        for id in cited_ids(&text) {
            if !defined.contains_key(&id) {
                missing.push(format!("{id} (cited in {})", path.display()));
            }
            cited.insert(id);
        }
    }
    assert!(
        missing.is_empty(),
        "rulings cited but not defined in docs/rules/RULINGS.md: {missing:?}"
    );
    assert!(
        cited.len() >= 40,
        "only {} ids cited: {cited:?}",
        cited.len()
    );
}

/// The players' rules pages show no ruling id in their text (players cannot look them
/// up; a "(AT-2)" after a rule reads as noise): only the opening sentence names the range
/// of the variant's rulings beside the link to them.
#[test]
fn rules_pages_show_players_no_ruling_ids() {
    let range =
        regex::Regex::new(r"(?i)the project's rulings are [A-Z]{1,2}-\d+ to [A-Z]{1,2}-\d+")
            .unwrap();
    for variant in ["atomic", "beirut", "nuke", "bomberman", "bombalot"] {
        let page = repo().join(format!("docs/rules/{variant}.md"));
        let text = std::fs::read_to_string(&page).unwrap();
        assert_eq!(range.find_iter(&text).count(), 1, "{}", page.display());
        let rest = range.replace_all(&text, "");
        assert_eq!(cited_ids(&rest), Vec::<String>::new(), "{}", page.display());
    }
}

/// The README and every variant's page link the rulings copy, and none points to the
/// shared rulings file, which is not in the repository.
#[test]
fn rules_pages_link_the_rulings_copy() {
    for path in citing_pages() {
        let text = std::fs::read_to_string(&path).unwrap();
        assert!(
            text.contains("](RULINGS.md)"),
            "{} does not link RULINGS.md",
            path.display()
        );
        assert!(
            !text.contains("`RULES.md`") && !text.contains("](RULES.md)"),
            "{} points to RULES.md, which is not in the repository: link RULINGS.md",
            path.display()
        );
    }
    let first = rulings_copy()
        .lines()
        .next()
        .unwrap_or_default()
        .to_string();
    assert!(
        first.contains("binding rulings") && first.contains("copied from the shared rulings file"),
        "RULINGS.md must start with a line saying where it was copied from: {first}"
    );
}

/// When the shared rulings file is beside the repository (as in CI), the copy is that
/// file below its header, ruling by ruling and
/// word for word. Without the shared file there is nothing to compare with.
#[test]
fn rulings_copy_equals_the_shared_rules() {
    let shared = repo().join("../shared/RULES.md");
    let Ok(original) = std::fs::read_to_string(&shared) else {
        return;
    };
    let copy = rulings_copy();
    let body = copy
        .find("\n# ")
        .map(|at| &copy[at + 1..])
        .expect("RULINGS.md has a title after its header");
    let (ours, theirs) = (defined_rulings(body), defined_rulings(&original));
    let differ: std::collections::BTreeSet<&String> = ours
        .keys()
        .chain(theirs.keys())
        .filter(|id| ours.get(*id) != theirs.get(*id))
        .collect();
    assert!(
        differ.is_empty(),
        "docs/rules/RULINGS.md differs from {} in {differ:?}: copy the shared file again",
        shared.display()
    );
    assert!(
        body == original,
        "docs/rules/RULINGS.md differs from {} outside the rulings: copy the shared file again",
        shared.display()
    );
}
