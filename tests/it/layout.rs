//! The integration tests stay one binary that runs every file: a file in `tests/it/` without its
//! `mod` line in `main.rs` would never be compiled, a file directly in `tests/` would be linked
//! as a binary of its own again, and a test that changes the process's environment or working
//! directory would change it under every other test running beside it.

use crate::common::rust_files;
use std::path::{Path, PathBuf};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests")
}

/// The `.rs` files directly in `dir`, by file stem.
fn rust_stems(dir: &Path) -> Vec<String> {
    let mut stems: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.is_file() && p.extension().is_some_and(|e| e == "rs"))
        .map(|p| p.file_stem().unwrap().to_string_lossy().into_owned())
        .collect();
    stems.sort();
    stems
}

/// The names `main` declares with `mod NAME;`.
fn declared(main: &str) -> Vec<String> {
    main.lines()
        .filter_map(|l| l.trim().strip_prefix("mod ")?.strip_suffix(';'))
        .map(str::to_owned)
        .collect()
}

/// Files in `tests/it/` that `main` does not declare.
fn undeclared(stems: &[String], main: &str) -> Vec<String> {
    let declared = declared(main);
    stems
        .iter()
        .filter(|s| *s != "main" && !declared.contains(s))
        .cloned()
        .collect()
}

#[test]
fn every_file_in_tests_it_is_a_module_of_main() {
    let dir = root().join("it");
    let main = std::fs::read_to_string(dir.join("main.rs")).unwrap();
    let stems = rust_stems(&dir);
    assert!(stems.len() > 20, "the test files were found: {stems:?}");
    let missing = undeclared(&stems, &main);
    assert!(
        missing.is_empty(),
        "add `mod NAME;` to tests/it/main.rs for: {missing:?}"
    );
}

#[test]
fn the_check_would_catch_a_file_without_its_mod_line() {
    let stems = ["main", "cli_sim", "setdata"].map(String::from);
    assert_eq!(
        undeclared(&stems, "mod cli_sim;\n"),
        ["setdata".to_string()]
    );
    assert!(undeclared(&stems, "mod cli_sim;\nmod setdata;\n").is_empty());
}

#[test]
fn only_the_live_lab_is_a_test_binary_of_its_own() {
    // `tests/live.rs` has its own harness (`harness = false` in Cargo.toml).
    let alone = rust_stems(&root());
    assert_eq!(
        alone,
        ["live"],
        "move these into tests/it/ with a `mod` line in its main.rs: each file directly in \
         tests/ is linked as a binary of its own"
    );
}

/// Calls that change what every thread of the process sees. Spelled in two halves so that this
/// file does not find itself.
const PROCESS_WIDE: [[&str; 2]; 4] = [
    ["env::set", "_var"],
    ["env::remove", "_var"],
    ["set_current", "_dir"],
    ["panic::set", "_hook"],
];

/// Lines of `text` that change process-wide state, outside comments.
fn process_wide_calls(text: &str) -> Vec<usize> {
    text.lines()
        .enumerate()
        .filter(|(_, l)| {
            let code = l.split("//").next().unwrap_or("");
            PROCESS_WIDE
                .iter()
                .any(|[a, b]| code.contains(&format!("{a}{b}")))
        })
        .map(|(n, _)| n + 1)
        .collect()
}

#[test]
fn no_test_changes_the_environment_or_working_directory_of_the_process() {
    let mut files = Vec::new();
    rust_files(&root().join("it"), &mut files);
    let mut problems = Vec::new();
    for file in &files {
        let text = std::fs::read_to_string(file).unwrap();
        for n in process_wide_calls(&text) {
            problems.push(format!("{}:{n}", file.display()));
        }
    }
    assert!(
        problems.is_empty(),
        "tests share one process: pass variables to the child with Command::env instead\n{}",
        problems.join("\n")
    );
}

#[test]
fn the_check_would_catch_a_change_to_the_environment() {
    let call = format!(
        "    unsafe {{ std::{}{}(\"LANG\", \"C\") }};",
        "env::set", "_var"
    );
    assert_eq!(process_wide_calls(&format!("fn f() {{\n{call}\n}}")), [2]);
    assert!(process_wide_calls(&format!("// {call}")).is_empty());
    assert!(process_wide_calls("cmd.env(\"LANG\", \"C\");").is_empty());
}
