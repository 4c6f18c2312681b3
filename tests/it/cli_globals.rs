//! The program's own options (`--lang`, `--content`, `--data-dir`) work wherever they are
//! written, also after a knob family's `--KEY VALUE` parameters, and are checked the same way.

use crate::common::{locklab, stdout};
use std::path::Path;
use std::process::Output;

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// Runs both argument lists and checks they succeed with the same output.
fn same_run(first: &[&str], late: &[&str]) -> String {
    let a = locklab(first);
    let b = locklab(late);
    assert!(a.status.success(), "{first:?}: {}", stderr(&a));
    assert!(b.status.success(), "{late:?}: {}", stderr(&b));
    assert_eq!(stdout(&a), stdout(&b), "{first:?} and {late:?} differ");
    stdout(&b)
}

#[test]
fn lang_after_the_parameters_switches_the_words() {
    let zh = same_run(
        &["--lang", "zh", "sim", "rwlock", "--roles", "RRWR"],
        &["sim", "rwlock", "--roles", "RRWR", "--lang", "zh"],
    );
    let en = same_run(
        &["sim", "rwlock", "--lang", "en", "--roles", "RRWR"],
        &["sim", "rwlock", "--roles", "RRWR", "--lang=en"],
    );
    assert!(en.contains("Read-write lock"), "{en}");
    assert!(zh.contains("读写锁"), "{zh}");
    assert_ne!(zh, en);
    // The parameter itself still applies: four clients, one a writer.
    let rrr = locklab(&["sim", "rwlock", "--roles", "RRR", "--lang", "en"]);
    assert!(rrr.status.success(), "{}", stderr(&rrr));
    assert_ne!(stdout(&rrr), en);
}

#[test]
fn every_knob_family_takes_late_global_options() {
    for (family, key, value) in [
        ("rwlock", "--hold", "2"),
        ("semaphore", "--permits", "2"),
        ("election", "--duration", "30"),
        ("tasks", "--duration", "30"),
        ("redlock", "--duration", "5000"),
        ("snowflake", "--workers", "2"),
    ] {
        same_run(
            &["--lang", "en", "sim", family, key, value],
            &["sim", family, key, value, "--lang", "en"],
        );
    }
}

#[test]
fn data_dir_after_the_parameters_is_accepted() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path().to_str().unwrap();
    same_run(
        &[
            "--data-dir",
            d,
            "sim",
            "semaphore",
            "--permits",
            "2",
            "--json",
        ],
        &[
            "sim",
            "semaphore",
            "--permits",
            "2",
            "--data-dir",
            d,
            "--json",
        ],
    );
}

/// A content folder holding one preset of its own, which only `--content` can name.
fn content_folder(root: &Path) {
    let write = |rel: &str, text: &str| {
        let path = root.join(rel);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, text).unwrap();
    };
    write("content/en/01-intro.md", "# Intro\n\nA lesson.\n");
    write("quizzes/01-intro.toml", "");
    write(
        "assets/scenarios/two-writers.toml",
        "family = \"rwlock\"\n\n[about]\nzh = \"两个写者\"\nen = \"Two writers\"\n\n\
         [params]\nroles = \"ww\"\n",
    );
}

#[test]
fn content_after_the_parameters_reads_that_folder() {
    let dir = tempfile::tempdir().unwrap();
    content_folder(dir.path());
    let d = dir.path().to_str().unwrap();
    let out = same_run(
        &[
            "--content",
            d,
            "sim",
            "rwlock",
            "--preset",
            "two-writers",
            "--hold",
            "2",
            "--json",
        ],
        &[
            "sim",
            "rwlock",
            "--hold",
            "2",
            "--preset",
            "two-writers",
            "--json",
            "--content",
            d,
        ],
    );
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["preset"], "two-writers", "{out}");
    // Without the folder the preset is unknown: the option really was read.
    let o = locklab(&["sim", "rwlock", "--hold", "2", "--preset", "two-writers"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("unknown rwlock preset `two-writers`"),
        "{}",
        stderr(&o)
    );
}

#[test]
fn a_missing_content_folder_is_refused_wherever_it_is_named() {
    for args in [
        &[
            "--content",
            "/no/such/folder",
            "sim",
            "rwlock",
            "--hold",
            "2",
        ][..],
        &[
            "sim",
            "rwlock",
            "--hold",
            "2",
            "--content",
            "/no/such/folder",
        ][..],
    ] {
        let o = locklab(args);
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        assert!(stderr(&o).contains("/no/such/folder"), "{}", stderr(&o));
        assert!(stdout(&o).is_empty());
    }
}

#[test]
fn late_global_options_are_checked_like_early_ones() {
    let bad = locklab(&["sim", "rwlock", "--roles", "RRWR", "--lang", "fr"]);
    assert_eq!(bad.status.code(), Some(2));
    let msg = stderr(&bad);
    assert!(
        msg.contains("--lang") && msg.contains("must be zh or en"),
        "{msg}"
    );

    let missing = locklab(&["sim", "rwlock", "--roles", "RRWR", "--lang"]);
    assert_eq!(missing.status.code(), Some(2));
    assert!(
        stderr(&missing).contains("a value is required for '--lang"),
        "{}",
        stderr(&missing)
    );

    let twice = locklab(&[
        "--lang", "en", "sim", "rwlock", "--roles", "RRWR", "--lang", "zh",
    ]);
    assert_eq!(twice.status.code(), Some(2));
    assert!(
        stderr(&twice).contains("cannot be used multiple times"),
        "{}",
        stderr(&twice)
    );

    // A real parameter after them is still checked as a parameter.
    let o = locklab(&["sim", "rwlock", "--lang", "en", "--roles", "RQ"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("--roles"), "{}", stderr(&o));
}
