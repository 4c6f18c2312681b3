//! The layers run one way: every `crate::` path in src/ names a module at the same layer or a
//! lower one, and no two modules import each other. The table is the architecture in one
//! place; an import that runs back up, or a circle within a layer, fails here.

use crate::common::rust_files;
use std::collections::BTreeMap;
use std::path::Path;

/// Each top-level module of src/ and its layer, lowest first.
const LAYERS: [(&str, u8); 20] = [
    ("engine", 0),
    ("text", 1),
    ("toml_place", 1),
    ("source", 1),
    ("error", 1),
    ("view", 2),
    ("i18n", 3),
    ("scenario", 4),
    ("explore", 4),
    ("content", 5),
    ("progress", 5),
    ("quiz", 5),
    ("export", 6),
    ("live", 6),
    ("tui", 7),
    ("cmd", 7),
    ("cli", 7),
    ("plain", 7),
    ("lib", 8),
    ("main", 8),
];

fn layer(module: &str) -> u8 {
    LAYERS
        .iter()
        .find(|(m, _)| *m == module)
        .map(|(_, l)| *l)
        .unwrap_or_else(|| panic!("src/{module} has no layer in the table"))
}

/// The code of a file without its test modules and comments: tests may reach anywhere.
fn code(text: &str, path: &Path) -> String {
    let in_tests = path
        .components()
        .any(|c| c.as_os_str() == "tests" || c.as_os_str() == "snapshots")
        || path.file_name().is_some_and(|f| {
            let f = f.to_string_lossy();
            f == "tests.rs" || f.ends_with("_tests.rs")
        });
    if in_tests {
        return String::new();
    }
    let text = match text.find("#[cfg(test)]") {
        Some(i) => &text[..i],
        None => text,
    };
    text.lines()
        .map(|l| l.split("//").next().unwrap_or(""))
        .collect::<Vec<_>>()
        .join("\n")
}

/// Every (from, to) pair of top-level modules that some import joins, with one place each.
fn imports() -> BTreeMap<(String, String), String> {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    rust_files(&src, &mut files);
    let mut found = BTreeMap::new();
    for file in files {
        let rel = file.strip_prefix(&src).unwrap();
        let from = rel
            .components()
            .next()
            .unwrap()
            .as_os_str()
            .to_string_lossy()
            .trim_end_matches(".rs")
            .to_string();
        let text = std::fs::read_to_string(&file).unwrap();
        for (n, line) in code(&text, &file).lines().enumerate() {
            for (i, _) in line.match_indices("crate::") {
                let rest = &line[i + "crate::".len()..];
                let to: String = rest
                    .chars()
                    .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
                    .collect();
                // `crate::{a, b}` groups name modules after the brace.
                let targets: Vec<String> = match rest.strip_prefix('{') {
                    Some(group) => group
                        .split(['}', ','])
                        .map(|t| t.trim().split("::").next().unwrap_or("").to_string())
                        .filter(|t| !t.is_empty())
                        .collect(),
                    None => vec![to],
                };
                for to in targets {
                    if to != from && !to.is_empty() {
                        found
                            .entry((from.clone(), to))
                            .or_insert_with(|| format!("src/{}:{}", rel.display(), n + 1));
                    }
                }
            }
        }
    }
    found
}

#[test]
fn no_import_runs_back_up_a_layer() {
    let imports = imports();
    assert!(imports.len() > 20, "the imports were found");
    let upward: Vec<String> = imports
        .iter()
        .filter(|((from, to), _)| layer(to) > layer(from))
        .map(|((from, to), place)| {
            format!(
                "{place}: {from} (layer {}) imports {to} (layer {})",
                layer(from),
                layer(to)
            )
        })
        .collect();
    assert!(
        upward.is_empty(),
        "imports that run back up:\n{}",
        upward.join("\n")
    );
}

/// Every pair of top-level modules that import each other, with a place for each direction.
fn circles(imports: &BTreeMap<(String, String), String>) -> Vec<String> {
    imports
        .iter()
        .filter(|((from, to), _)| from < to)
        .filter_map(|((from, to), there)| {
            let back = imports.get(&(to.clone(), from.clone()))?;
            Some(format!(
                "{from} -> {to} at {there}; {to} -> {from} at {back}"
            ))
        })
        .collect()
}

#[test]
fn no_two_modules_import_each_other() {
    let found = circles(&imports());
    assert!(
        found.is_empty(),
        "modules that import each other (move what both need into the lower one):\n{}",
        found.join("\n")
    );
}

#[test]
fn the_circle_check_finds_a_circle_where_there_is_one() {
    let place = |p: &str| p.to_string();
    let pair = |a: &str, b: &str| (a.to_string(), b.to_string());
    let mut imports = BTreeMap::from([
        (pair("quiz", "content"), place("src/quiz/item.rs:9")),
        (pair("progress", "quiz"), place("src/progress/mod.rs:21")),
    ]);
    assert!(circles(&imports).is_empty(), "one way each is no circle");
    imports.insert(pair("content", "quiz"), place("src/content/deck.rs:237"));
    assert_eq!(
        circles(&imports),
        ["content -> quiz at src/content/deck.rs:237; quiz -> content at src/quiz/item.rs:9"]
    );
}

#[test]
fn the_views_do_not_import_each_other_upward() {
    // The SVG and text exports are below the terminal screens: the screens may use them,
    // never the other way round.
    let imports = imports();
    for from in ["export", "live", "i18n", "view", "engine"] {
        assert!(
            !imports.contains_key(&(from.to_string(), "tui".to_string())),
            "{from} imports tui at {}",
            imports[&(from.to_string(), "tui".to_string())]
        );
    }
}

#[test]
fn the_check_finds_an_upward_import_where_there_is_one() {
    // The scanner itself, on a made-up file: an engine file naming the terminal screens.
    let text =
        "use crate::tui::theme::Theme; // crate::i18n in a comment\n#[cfg(test)]\nuse crate::quiz;";
    let code = code(text, Path::new("src/engine/x.rs"));
    assert!(code.contains("crate::tui"));
    assert!(!code.contains("crate::i18n") && !code.contains("crate::quiz"));
    assert!(layer("tui") > layer("engine"));
}
