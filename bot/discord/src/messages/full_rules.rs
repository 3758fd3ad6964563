//! The full rules of each variant for players inside Discord: `/rules` attaches
//! them as a Markdown file (`<variant>-rules.md`; Discord shows text attachments inline with
//! an expandable preview), generated from the rules pages `docs/rules/<variant>.md` (built
//! into the binary) with what players cannot use taken out: the project's ruling ids, links
//! (the text is kept), the diagram lines (the setup picture comes with `/rules`) and the
//! pointers to developer files.

use std::sync::LazyLock;

use kaboom_rules::Variant;
use regex::Regex;

/// The rules page of `variant`, as written for the repository.
fn page(variant: Variant) -> &'static str {
    match variant {
        Variant::Atomic => include_str!("../../../../docs/rules/atomic.md"),
        Variant::Beirut => include_str!("../../../../docs/rules/beirut.md"),
        Variant::Nuke => include_str!("../../../../docs/rules/nuke.md"),
        Variant::Bomberman => include_str!("../../../../docs/rules/bomberman.md"),
        Variant::Bombalot => include_str!("../../../../docs/rules/bombalot.md"),
    }
}

/// A ruling id (`BE-3`, `C-5`, `AT-10`).
const ID: &str = r"\b[A-Z]{1,2}-\d+[a-z]?\b";

struct Cleaners {
    image: Regex,
    link: Regex,
    fence: Regex,
    project_ruling: Regex,
    rulings_sentence: Regex,
    id_group: Regex,
    id_tail: Regex,
    id_head: Regex,
    id_any: Regex,
    spaces: Regex,
}

static CLEAN: LazyLock<Cleaners> = LazyLock::new(|| {
    let sep = r"(?:,\s*|\s+to\s+|\s+and\s+|;\s*)";
    let re = |s: &str| Regex::new(s).expect("a valid pattern");
    Cleaners {
        image: re(r"(?m)^!\[[^\]]*\]\([^)]*\)\s*\n"),
        link: re(r"\[([^\]]+)\]\([^)]*\)"),
        fence: re(r"(?m)^```[a-z]+(?: [a-z]+)?$"),
        project_ruling: re(r"\s*\(project ruling[^()]*\)"),
        rulings_sentence: re(r"(?si)[;,.]?\s*the project's rulings are .*?RULINGS\.md\)?\."),
        id_group: re(&format!(r"\s*\(\s*{ID}(?:{sep}{ID})*\s*\)")),
        id_tail: re(&format!(r",\s*{ID}(?:{sep}{ID})*\s*\)")),
        id_head: re(&format!(r"\(\s*{ID}(?:{sep}{ID})*[,;]\s*")),
        id_any: re(ID),
        spaces: re(r"[ \t]+\n"),
    }
});

/// `text` (a rules page) without ruling ids, links, diagram lines and developer pointers.
pub fn for_players(text: &str) -> String {
    let c = &*CLEAN;
    let s = c.image.replace_all(text, "");
    let s = c.rulings_sentence.replace_all(&s, ".");
    let s = c.link.replace_all(&s, "$1");
    let s = c.fence.replace_all(&s, "```");
    let s = c.project_ruling.replace_all(&s, "");
    let s = c.id_group.replace_all(&s, "");
    let s = c.id_tail.replace_all(&s, ")");
    let s = c.id_head.replace_all(&s, "(");
    let s = s
        .replace(
            "## Rulings where the original text is unclear",
            "## Fine points",
        )
        .replace(
            "The rulings quoted in brackets",
            "The rules quoted in brackets",
        );
    let s = c.spaces.replace_all(&s, "\n");
    // Whatever id is left inside a sentence ("BE-6 covers ...") goes with its word.
    c.id_any.replace_all(&s, "this rule").into_owned()
}

/// The full rules of `variant` for players (Markdown).
pub fn text(variant: Variant) -> String {
    for_players(page(variant))
}

/// The attachment's file name, e.g. `beirut-rules.md`.
pub fn file_name(variant: Variant) -> String {
    format!("{}-rules.md", variant.name())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The players' text names no ruling, links nowhere and points to no file.
    #[test]
    fn full_rules_have_no_ids_links_or_files() {
        let id = Regex::new(r"\b[A-Z]{1,2}-\d+").unwrap();
        for variant in Variant::ALL {
            let t = text(variant);
            assert!(t.len() > 2000, "{variant}: the whole page");
            assert!(!id.is_match(&t), "{variant}: {:?}", id.find(&t));
            for bad in ["docs/", "](", "RULINGS", ".md", "this rule"] {
                assert!(
                    !t.contains(bad),
                    "{variant}: '{bad}' in the full rules: ...{}...",
                    t.find(bad)
                        .map(|i| &t[i.saturating_sub(120)..(i + 40).min(t.len())])
                        .unwrap_or_default()
                );
            }
            assert!(
                t.starts_with("# ") && t.contains(variant.title()),
                "{variant}"
            );
        }
    }

    #[test]
    fn cleaning_keeps_the_sentence() {
        assert_eq!(
            for_players("promotion (AT-1).\nit up (a Boom, BE-3) or (BE-5,\n  BE-10), so"),
            "promotion.\nit up (a Boom) or, so"
        );
        assert_eq!(
            for_players("see [the page](x.md) and (project ruling, see docs/notation/x.md)."),
            "see the page and."
        );
    }
}
