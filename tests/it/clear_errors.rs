//! Regressions for messages that named the wrong thing and exit codes that said "failure" for
//! input the user can fix: one unreadable content file, progress files that are pipes or
//! folders, a merge of a file that is not there, a stand-alone value among a family's options,
//! live limits and an output folder that does not exist. Each runs the real binary.

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

fn locklab(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_locklab"))
        .args(["--lang", "en"])
        .args(args)
        .env("NO_COLOR", "1")
        .stdin(Stdio::null())
        .output()
        .expect("locklab runs")
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).expect("a folder");
    for e in std::fs::read_dir(from).expect("a source folder") {
        let e = e.expect("an entry");
        let target = to.join(e.file_name());
        if e.path().is_dir() {
            copy_dir(&e.path(), &target);
        } else {
            std::fs::copy(e.path(), &target).expect("a copy");
        }
    }
}

/// The shipped content in a folder of its own.
fn shipped_content() -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("a content folder");
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    for part in ["content", "quizzes", "assets/scenarios"] {
        copy_dir(&root.join(part), &dir.path().join(part));
    }
    dir
}

/// The shipped content with one byte that is not UTF-8 appended to `broken` (a path inside it).
fn content_with_bad_byte(broken: &str) -> (tempfile::TempDir, PathBuf) {
    let dir = shipped_content();
    let file = dir.path().join(broken);
    let mut bytes = std::fs::read(&file).expect("the file to break");
    bytes.push(0xff);
    std::fs::write(&file, bytes).expect("the file is broken");
    (dir, file)
}

#[test]
fn one_non_utf8_deck_is_a_problem_of_that_file_not_of_the_whole_folder() {
    let (dir, file) = content_with_bad_byte("quizzes/05-fencing.toml");
    let c = dir.path().to_string_lossy().into_owned();
    let named = format!("{}:", file.display());

    let check = locklab(&["--content", &c, "check"]);
    let out = String::from_utf8_lossy(&check.stdout);
    assert_eq!(check.status.code(), Some(1), "a content problem: {out}");
    assert!(
        out.lines()
            .any(|l| l.starts_with(&named) && l.ends_with("not valid UTF-8 text")),
        "{out}"
    );
    assert!(
        !stderr(&check).contains("has no quiz decks"),
        "{}",
        stderr(&check)
    );

    let list = locklab(&["--content", &c, "sim", "list"]);
    assert_eq!(list.status.code(), Some(0), "{}", stderr(&list));

    let quiz = locklab(&["--content", &c, "quiz", "--plain"]);
    let err = stderr(&quiz);
    assert_eq!(quiz.status.code(), Some(2), "{err}");
    assert!(
        err.contains(&named) && err.contains("not valid UTF-8"),
        "{err}"
    );
}

#[test]
fn one_non_utf8_lesson_or_preset_is_named_by_check() {
    for broken in ["content/en/05-fencing.md", "assets/scenarios/herd.toml"] {
        let (dir, file) = content_with_bad_byte(broken);
        let c = dir.path().to_string_lossy().into_owned();
        let check = locklab(&["--content", &c, "check"]);
        let out = String::from_utf8_lossy(&check.stdout);
        assert_eq!(check.status.code(), Some(1), "{broken}: {}", stderr(&check));
        assert!(
            out.contains(&format!("{}:", file.display())) && out.contains("not valid UTF-8"),
            "{broken}: {out}"
        );
        assert!(!stderr(&check).contains("has no"), "{}", stderr(&check));
    }
}

#[test]
fn a_progress_file_that_is_a_pipe_or_a_folder_is_status_2_naming_the_file() {
    for kind in ["fifo", "folder"] {
        let dir = tempfile::tempdir().expect("a data folder");
        let file = dir.path().join("progress.toml");
        if kind == "fifo" {
            let made = Command::new("mkfifo").arg(&file).status().expect("mkfifo");
            assert!(made.success());
        } else {
            std::fs::create_dir(&file).expect("a folder in the file's place");
        }
        let d = dir.path().to_string_lossy().into_owned();
        for args in [&["progress"][..], &["quiz", "--plain"][..]] {
            let mut argv = vec!["--data-dir", d.as_str()];
            argv.extend_from_slice(args);
            let out = locklab(&argv);
            let err = stderr(&out);
            assert_eq!(out.status.code(), Some(2), "{kind} {args:?}: {err}");
            assert!(err.contains("progress file"), "{kind}: {err}");
            assert!(!err.contains("progress folder"), "{kind}: {err}");
            assert!(err.contains("not a regular file"), "{kind}: {err}");
        }
    }
}

#[test]
fn merging_a_file_that_is_missing_or_not_a_file_is_status_2() {
    let dir = tempfile::tempdir().expect("a data folder");
    let d = dir.path().to_string_lossy().into_owned();
    let missing = dir.path().join("nofile").to_string_lossy().into_owned();
    for other in [missing.as_str(), "/dev/zero"] {
        let out = locklab(&["--data-dir", &d, "progress", "merge", other]);
        let err = stderr(&out);
        assert_eq!(out.status.code(), Some(2), "{other}: {err}");
        assert!(err.contains(other), "{err}");
    }
}

#[test]
fn a_malformed_deck_stops_a_quiz_with_status_2_naming_it() {
    let dir = shipped_content();
    let file = dir.path().join("quizzes/06-leases.toml");
    std::fs::write(&file, "deck = 5\n").expect("a malformed deck");
    let c = dir.path().to_string_lossy().into_owned();
    for sub in ["quiz", "interview", "self-test"] {
        let out = locklab(&["--content", &c, sub, "--plain"]);
        let err = stderr(&out);
        assert_eq!(out.status.code(), Some(2), "{sub}: {err}");
        assert!(err.contains("06-leases.toml"), "{sub}: {err}");
    }
}

#[test]
fn a_value_standing_alone_is_explained_with_the_family_s_own_option() {
    for (args, own) in [
        (
            &["sim", "redlock", "--nodes", "--nodes", "2"][..],
            "--nodes",
        ),
        (&["sim", "tasks", "5"][..], "--workers"),
    ] {
        let out = locklab(args);
        let err = stderr(&out);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
        assert!(!err.contains("--hold"), "{args:?}: {err}");
        assert!(err.contains(own), "{args:?}: {err}");
    }
}

#[cfg(feature = "live")]
#[test]
fn live_herd_waiters_say_the_live_limit() {
    let out = locklab(&["live", "herd", "--waiters", "0", "--fanout", "1"]);
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(err.contains("1 to 500"), "{err}");
}

/// An ensemble size that is not 1, 3 or 5, an ensemble preset asked to run on one server, and
/// an ensemble with a server of the user's are each refused with status 2, before anything
/// starts, naming what to give instead.
#[cfg(feature = "live")]
#[test]
fn live_ensemble_sizes_and_conflicts_say_what_to_give() {
    let even = locklab(&["live", "abc", "chain", "--ensemble", "2"]);
    assert_eq!(even.status.code(), Some(2), "{}", stderr(&even));
    assert!(stderr(&even).contains("1, 3, 5"), "{}", stderr(&even));

    let one = locklab(&["live", "abc", "ensemble-leader-killed", "--ensemble", "1"]);
    assert_eq!(one.status.code(), Some(2), "{}", stderr(&one));
    assert!(
        stderr(&one).contains("needs an ensemble") && stderr(&one).contains("--ensemble 3"),
        "{}",
        stderr(&one)
    );

    let theirs = locklab(&["live", "abc", "ensemble-server-cut", "--zk", "127.0.0.1:9"]);
    assert_eq!(theirs.status.code(), Some(2), "{}", stderr(&theirs));
    assert!(
        stderr(&theirs).contains("needs an ensemble"),
        "{}",
        stderr(&theirs)
    );

    let both = locklab(&[
        "live",
        "abc",
        "chain",
        "--ensemble",
        "3",
        "--zk",
        "127.0.0.1:9",
    ]);
    assert_eq!(both.status.code(), Some(2), "{}", stderr(&both));
    assert!(stderr(&both).contains("--zk"), "{}", stderr(&both));
}

/// A build without the `live` feature still knows the command, and says why it cannot run it,
/// whatever follows it.
#[cfg(not(feature = "live"))]
#[test]
fn live_in_a_build_without_the_live_lab_says_so() {
    for args in [
        &["live"][..],
        &["live", "abc", "chain"],
        &["live", "herd", "--waiters", "0", "--fanout", "1"],
    ] {
        let out = locklab(args);
        let err = stderr(&out);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
        assert!(
            err.contains("built without the live lab"),
            "{args:?}: {err}"
        );
        assert!(out.stdout.is_empty(), "{args:?}");
    }
}

#[test]
fn an_export_into_a_missing_folder_names_the_folder_not_a_temporary_file() {
    let dir = tempfile::tempdir().expect("a folder");
    let target = dir.path().join("nodir/x.svg");
    let t = target.to_string_lossy().into_owned();
    let out = locklab(&["export", "chain", "--format", "svg", "-o", &t]);
    let err = stderr(&out);
    assert!(!out.status.success(), "{err}");
    assert!(err.contains("there is no folder"), "{err}");
    assert!(!err.contains(".locklab-export-"), "{err}");
}
