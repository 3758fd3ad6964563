//! The bot's layers import only downwards (issue 15): `domain` <- `storage` <- `service` <-
//! `scheduler` <- `discord`, with `cli` on its own. This test reads every file under
//! `bot/src`, finds each path into the crate (`crate::x`, `crate::{x, y}`, `super::` chains
//! resolved from the file's module), and fails when a module names a layer it may not use.
//! Test code (from the first `#[cfg(test)]` on) and comments are not imports, so they are
//! skipped; `lib.rs` and `main.rs` are the root and may name every layer.

use std::path::Path;

/// The layers each layer may use (itself included).
fn allowed(layer: &str) -> Option<&'static [&'static str]> {
    Some(match layer {
        "domain" => &["domain"],
        "storage" => &["domain", "storage"],
        "service" => &["domain", "storage", "service"],
        "scheduler" => &["domain", "storage", "service", "scheduler"],
        "discord" => &["domain", "storage", "service", "scheduler", "discord"],
        "cli" => &["cli"],
        _ => return None,
    })
}

/// The module path of a file relative to `src` (`service/mod.rs` -> `[service]`).
fn module_path(rel: &str) -> Vec<String> {
    let rel = rel.trim_end_matches(".rs");
    let mut parts: Vec<String> = rel.split('/').map(str::to_string).collect();
    if parts.last().is_some_and(|p| p == "mod") {
        parts.pop();
    }
    parts
}

/// The code of a file without its tests and comments.
fn code(text: &str) -> String {
    let text = match text.find("#[cfg(test)]") {
        Some(i) => &text[..i],
        None => text,
    };
    text.lines()
        .filter(|l| !l.trim_start().starts_with("//"))
        .collect::<Vec<_>>()
        .join("\n")
}

fn ident_at(s: &str) -> String {
    s.chars()
        .take_while(|c| c.is_alphanumeric() || *c == '_')
        .collect()
}

/// The paths into the crate that `text` (the file `rel` under `src`) names, as module path
/// segments: `crate::a::b` and each path of `crate::{a, b::c}`, and `super::` chains resolved
/// from the file's module (`super` of a file module is its parent; of `x/mod.rs` too, whose
/// module path is `x`).
fn crate_paths(rel: &str, text: &str) -> Vec<Vec<String>> {
    let code = code(text);
    let module = module_path(rel);
    let path_after = |s: &str| -> Vec<String> {
        s.split("::")
            .map(ident_at)
            .take_while(|seg| !seg.is_empty())
            .collect()
    };
    let mut found = Vec::new();
    let mut rest = code.as_str();
    while let Some(i) = rest.find("crate::") {
        let after = &rest[i + "crate::".len()..];
        // `kaboom_crate::` or `my_crate::` are other paths.
        let before_ok = rest[..i]
            .chars()
            .last()
            .is_none_or(|c| !(c.is_alphanumeric() || c == '_'));
        if before_ok {
            if let Some(group) = after.strip_prefix('{') {
                let end = group.find('}').unwrap_or(group.len());
                for part in group[..end].split(',') {
                    found.push(path_after(part.trim()));
                }
            } else {
                found.push(path_after(after));
            }
        }
        rest = after;
    }
    let mut rest = code.as_str();
    while let Some(i) = rest.find("super::") {
        let before_ok = rest[..i]
            .chars()
            .last()
            .is_none_or(|c| !(c.is_alphanumeric() || c == '_' || c == ':'));
        let mut after = &rest[i..];
        let mut depth = 0;
        while let Some(a) = after.strip_prefix("super::") {
            depth += 1;
            after = a;
        }
        if before_ok {
            let mut segments = module[..module.len().saturating_sub(depth)].to_vec();
            segments.extend(path_after(after));
            found.push(segments);
        }
        rest = &rest[i + depth * "super::".len()..];
    }
    found
}

/// The crate's top-level modules that `text` (the file `rel` under `src`) names.
fn named_layers(rel: &str, text: &str) -> Vec<String> {
    crate_paths(rel, text)
        .into_iter()
        .filter_map(|path| path.into_iter().next())
        .filter(|n| n != "self")
        .collect()
}

/// Every import of a lower layer's file that names a higher layer: `file: layer -> name`.
fn violations(files: &[(String, String)]) -> Vec<String> {
    let mut bad = Vec::new();
    for (rel, text) in files {
        let layer = module_path(rel)[0].clone();
        let Some(ok) = allowed(&layer) else {
            continue; // lib.rs, main.rs: the root
        };
        for name in named_layers(rel, text) {
            if allowed(&name).is_some() && !ok.contains(&name.as_str()) {
                bad.push(format!("{rel}: {layer} uses {name}"));
            }
        }
    }
    bad
}

fn sources(dir: &Path, root: &Path, out: &mut Vec<(String, String)>) {
    for entry in std::fs::read_dir(dir).expect("bot/src is readable") {
        let path = entry.expect("a directory entry").path();
        if path.is_dir() {
            sources(&path, root, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            let rel = path
                .strip_prefix(root)
                .unwrap()
                .to_string_lossy()
                .replace('\\', "/");
            out.push((rel, std::fs::read_to_string(&path).expect("UTF-8 source")));
        }
    }
}

/// The crate modules `text` (the file `rel` under `src`) names, as module paths of at most
/// two segments (`discord::flows`, `service`): `crate::a::b` and `super::b` resolved from
/// the file's module; a second segment that is not one of `modules` (an item such as
/// `crate::service::Services`) stands for its first.
fn named_modules(rel: &str, text: &str, modules: &[String]) -> Vec<String> {
    let mut found = Vec::new();
    for segments in crate_paths(rel, text) {
        let two = segments
            .iter()
            .take(2)
            .cloned()
            .collect::<Vec<_>>()
            .join("::");
        if modules.contains(&two) {
            found.push(two);
        } else if let Some(first) = segments.first().filter(|f| modules.contains(f)) {
            found.push(first.clone());
        }
    }
    found
}

/// Cycles between crate modules (two segments deep), ignoring a module's use of its own
/// ancestors (a child naming its parent's items is how Rust modules are written): each
/// cycle as the modules on it.
fn module_cycles(files: &[(String, String)]) -> Vec<Vec<String>> {
    let key = |rel: &str| {
        module_path(rel)
            .into_iter()
            .take(2)
            .collect::<Vec<_>>()
            .join("::")
    };
    let mut modules: Vec<String> = files.iter().map(|(rel, _)| key(rel)).collect();
    modules.retain(|m| m != "lib" && m != "main");
    modules.sort();
    modules.dedup();
    let mut edges: std::collections::BTreeMap<String, std::collections::BTreeSet<String>> =
        Default::default();
    for (rel, text) in files {
        let from = key(rel);
        if !modules.contains(&from) {
            continue;
        }
        for to in named_modules(rel, text, &modules) {
            let ancestor = from == to || from.starts_with(&format!("{to}::"));
            if !ancestor {
                edges.entry(from.clone()).or_default().insert(to);
            }
        }
    }
    // A module is on a cycle when it can reach itself; report each cycle once.
    let reach = |start: &String| -> Option<Vec<String>> {
        let mut stack = vec![(start.clone(), vec![start.clone()])];
        let mut seen = std::collections::BTreeSet::new();
        while let Some((at, path)) = stack.pop() {
            for next in edges.get(&at).into_iter().flatten() {
                if next == start {
                    return Some(path);
                }
                if seen.insert(next.clone()) {
                    let mut longer = path.clone();
                    longer.push(next.clone());
                    stack.push((next.clone(), longer));
                }
            }
        }
        None
    };
    let mut cycles: Vec<Vec<String>> = Vec::new();
    for m in &modules {
        if let Some(mut cycle) = reach(m) {
            cycle.sort();
            if !cycles.contains(&cycle) {
                cycles.push(cycle);
            }
        }
    }
    cycles
}

/// Issue 15: no module cycle in the bot, between layers or inside one.
#[test]
fn no_module_imports_in_a_circle() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    sources(&root, &root, &mut files);
    let cycles = module_cycles(&files);
    assert!(
        cycles.is_empty(),
        "modules that import each other in a circle: {cycles:?}"
    );
}

/// The cycle check sees a circle through `crate::` and `super::` paths, and not a child's
/// use of its parent.
#[test]
fn the_cycle_check_catches_circles() {
    let files = |pairs: &[(&str, &str)]| -> Vec<(String, String)> {
        pairs
            .iter()
            .map(|(rel, text)| (rel.to_string(), text.to_string()))
            .collect()
    };
    let circle = files(&[
        ("discord/flows.rs", "use super::messages::side;\n"),
        ("discord/messages.rs", "use crate::discord::flows::post;\n"),
        ("discord/mod.rs", "pub mod flows;\npub mod messages;\n"),
    ]);
    assert_eq!(
        module_cycles(&circle),
        [vec![
            "discord::flows".to_string(),
            "discord::messages".to_string()
        ]]
    );
    let layers = files(&[
        ("service/mod.rs", "use crate::scheduler::Plan;\n"),
        ("scheduler/mod.rs", "use crate::service::Services;\n"),
    ]);
    assert_eq!(module_cycles(&layers).len(), 1);
    let parent = files(&[
        ("service/mod.rs", "pub mod pgn;\nuse pgn::x;\n"),
        ("service/pgn.rs", "use super::Snapshot;\n"),
    ]);
    assert!(module_cycles(&parent).is_empty());
}

#[test]
fn layers_import_only_downwards() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    sources(&root, &root, &mut files);
    let layers: Vec<String> = files
        .iter()
        .map(|(rel, _)| module_path(rel)[0].clone())
        .collect();
    for layer in [
        "domain",
        "storage",
        "service",
        "scheduler",
        "discord",
        "cli",
    ] {
        assert!(
            layers.iter().any(|l| l == layer),
            "no {layer} layer under bot/src"
        );
    }
    let bad = violations(&files);
    assert!(
        bad.is_empty(),
        "imports against the layer order:\n{}",
        bad.join("\n")
    );
}

/// The check itself catches upward imports in each form it reads.
#[test]
fn the_layer_check_catches_upward_imports() {
    let case = |rel: &str, text: &str| violations(&[(rel.to_string(), text.to_string())]);
    assert_eq!(
        case("domain/game.rs", "use crate::storage::Db;\n"),
        ["domain/game.rs: domain uses storage"]
    );
    assert_eq!(
        case(
            "service/mod.rs",
            "fn f() { crate::discord::messages::side(c); }\n"
        ),
        ["service/mod.rs: service uses discord"]
    );
    assert_eq!(
        case("storage/games.rs", "use crate::{domain, scheduler};\n"),
        ["storage/games.rs: storage uses scheduler"]
    );
    assert_eq!(
        case(
            "scheduler/notice.rs",
            "use super::super::discord::notifier;\n"
        ),
        ["scheduler/notice.rs: scheduler uses discord"]
    );
    assert_eq!(
        case("cli/render.rs", "use crate::service::Services;\n"),
        ["cli/render.rs: cli uses service"]
    );
    // Allowed: downwards, sideways inside a layer, comments and test code.
    assert!(
        case(
            "discord/flows.rs",
            "use crate::service::Services;\nuse super::messages;\n"
        )
        .is_empty()
    );
    assert!(
        case(
            "service/pgn.rs",
            "use super::Snapshot;\n// crate::discord::x\n"
        )
        .is_empty()
    );
    assert!(
        case(
            "storage/mod.rs",
            "use crate::domain::x;\n#[cfg(test)]\nmod t { use crate::discord::x; }\n"
        )
        .is_empty()
    );
}
