//! The engine is a pure library: no terminal, no files, no clock, no threads, no unordered
//! maps whose iteration order could leak into a trace, and only the named, seeded generator.
//! It stays in small files.

use crate::common::rust_files;
use std::path::{Path, PathBuf};

const FORBIDDEN: [(&str, &str); 14] = [
    ("ratatui", "the terminal"),
    ("crossterm", "the terminal"),
    ("std::fs", "files"),
    ("std::io", "input and output"),
    ("std::net", "the network"),
    ("std::thread", "threads"),
    ("std::time", "the wall clock"),
    ("Instant", "the wall clock"),
    ("SystemTime", "the wall clock"),
    ("HashMap", "iteration order"),
    ("HashSet", "iteration order"),
    ("thread_rng", "an unseeded generator"),
    ("StdRng", "a generator whose algorithm may change"),
    ("SmallRng", "a generator whose algorithm may change"),
];

/// About 500 lines: a file past this has more than one job.
const MAX_LINES: usize = 520;

fn engine_files() -> Vec<PathBuf> {
    let mut files = Vec::new();
    rust_files(
        &Path::new(env!("CARGO_MANIFEST_DIR")).join("src/engine"),
        &mut files,
    );
    files.sort();
    assert!(files.len() > 10, "the engine's files were found");
    files
}

#[test]
fn the_engine_reaches_for_nothing_outside_itself() {
    let mut problems = Vec::new();
    for file in engine_files() {
        let text = std::fs::read_to_string(&file).unwrap();
        for (n, line) in text.lines().enumerate() {
            let code = line.split("//").next().unwrap_or("");
            for (word, what) in FORBIDDEN {
                if code.contains(word) {
                    problems.push(format!("{}:{}: {word} ({what})", file.display(), n + 1));
                }
            }
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

#[test]
fn no_engine_file_grows_past_about_500_lines() {
    let long: Vec<String> = engine_files()
        .into_iter()
        .filter_map(|f| {
            let n = std::fs::read_to_string(&f).unwrap().lines().count();
            (n > MAX_LINES).then(|| format!("{}: {n} lines", f.display()))
        })
        .collect();
    assert!(long.is_empty(), "{}", long.join("\n"));
}

#[test]
fn the_check_itself_would_catch_a_forbidden_import() {
    // The scanner looks at code, not comments: a line like the one below is caught.
    let line = "use std::collections::HashMap; // counts";
    let code = line.split("//").next().unwrap();
    assert!(FORBIDDEN.iter().any(|(w, _)| code.contains(w)));
    assert!(
        !"// HashMap in a comment"
            .split("//")
            .next()
            .unwrap()
            .contains("HashMap")
    );
}
