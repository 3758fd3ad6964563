//! Checks of the documentation (issue 10).
//!
//! - The setup diagrams of the players' rules pages, `docs/rules/img/<variant>-start.png`, are
//!   committed, shown by every rules page, and equal to what `kaboom render` draws now, so a
//!   renderer change that leaves them stale fails here and names the command that
//!   regenerates them. Regression data produced by our own code: the committed pictures
//!   were drawn by `scripts/docs-images.sh` (the renderer is deterministic).
//! - `.env.example` and docs/hosting.md document every variable the bot reads.

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

/// Every variable the bot reads (`get("NAME")` in its configuration readers) is documented
/// in `.env.example` and in docs/hosting.md.
#[test]
fn env_example_and_hosting_guide_document_every_variable() {
    let example = std::fs::read_to_string(repo().join(".env.example")).unwrap();
    let guide = std::fs::read_to_string(repo().join("docs/hosting.md")).unwrap();
    let mut names = Vec::new();
    for file in [
        "bot/src/config.rs",
        "bot/src/scheduler/mod.rs",
        "bot/src/invite.rs",
    ] {
        let text = std::fs::read_to_string(repo().join(file)).unwrap();
        for call in ["get(\"", "number(\""] {
            for (at, _) in text.match_indices(call) {
                let name: String = text[at + call.len()..]
                    .chars()
                    .take_while(|c| c.is_ascii_uppercase() || *c == '_')
                    .collect();
                if name.len() > 3 && !names.contains(&name) {
                    names.push(name);
                }
            }
        }
    }
    assert!(names.len() >= 9, "found only {names:?}");
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
