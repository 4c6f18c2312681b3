//! Regressions for files and folders that are not what locklab expects: damaged or oversized
//! progress files, symbolic links in the data folder, read-only folders, unknown keys, devices
//! and pipes given as files, control characters in text that ends up on a terminal or in SVG,
//! and scenario errors that must name their place.
//!
//! Each runs the real binary. `LOCKLAB_TEST_BIN` points them at another build, to check that a
//! test fails without its fix.

use std::os::unix::fs::symlink;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

use locklab::progress::store::{self, Notice, Store};

fn bin() -> PathBuf {
    std::env::var_os("LOCKLAB_TEST_BIN")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_BIN_EXE_locklab")))
}

/// Runs locklab in English with `dir` as its data folder, failing if it takes over 20 s (a read
/// that never ends shows up as a failure, not a hung test run).
fn locklab(dir: &Path, args: &[&str]) -> Output {
    let mut cmd = Command::new(bin());
    cmd.args(["--lang", "en", "--data-dir"])
        .arg(dir)
        .args(args)
        .env_remove(store::ENV_DATA_DIR)
        .env("NO_COLOR", "1");
    run(cmd)
}

fn run(mut cmd: Command) -> Output {
    let mut child = cmd
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn locklab");
    let start = Instant::now();
    while child.try_wait().expect("wait").is_none() {
        if start.elapsed() > Duration::from_secs(20) {
            let _ = child.kill();
            panic!("locklab {:?} did not finish within 20 s", cmd.get_args());
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    child.wait_with_output().expect("output")
}

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

/// A progress file with one answer, written by the library as a quiz would.
fn one_answer(dir: &Path) {
    answer_at(dir, 1_790_000_000);
}

fn answer_at(dir: &Path, at: i64) {
    let mut s = Store::open(dir, at).unwrap();
    s.data_mut().record(&locklab::quiz::session::Graded {
        id: "leases.a".into(),
        deck: "leases".into(),
        kind: locklab::content::deck::Kind::Model,
        topics: vec![],
        score: 1,
        earned: 1,
        max: 1,
        rating: locklab::quiz::sched::Rating::Good,
        self_rating: None,
        missed: vec![],
        at,
        note: "looked at \u{1b}]0;pwned\u{7}the title".into(),
        hint: false,
        rounds: vec![],
    });
    assert!(s.save().unwrap());
}

fn files_starting(dir: &Path, prefix: &str) -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap()
        .flatten()
        .filter(|e| e.file_name().to_string_lossy().starts_with(prefix))
        .map(|e| e.path())
        .collect();
    v.sort();
    v
}

#[test]
fn a_progress_file_that_is_not_utf8_is_set_aside_intact() {
    let dir = tempfile::tempdir().unwrap();
    let bad = b"schema_version = 1\n\n[[answers]]\nnote = \"\xff\xfe\"\n".to_vec();
    std::fs::write(dir.path().join(store::FILE_NAME), &bad).unwrap();
    let out = locklab(dir.path(), &["progress"]);
    let err = text(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{err}");
    assert!(err.contains("line 4, column 9: not valid UTF-8"), "{err}");
    let aside = files_starting(dir.path(), "progress.toml.corrupt-");
    assert_eq!(aside.len(), 1, "{err}");
    assert_eq!(std::fs::read(&aside[0]).unwrap(), bad);
    // The store the screens use sees the same: a fresh, writable file.
    let s = Store::open(dir.path(), 0).unwrap();
    assert!(s.is_writable() && s.notices.is_empty() && s.data().answers.is_empty());
}

#[test]
fn a_linked_progress_file_is_never_read_through_or_replaced() {
    let dir = tempfile::tempdir().unwrap();
    let elsewhere = tempfile::tempdir().unwrap();
    one_answer(elsewhere.path());
    let target = elsewhere.path().join(store::FILE_NAME);
    let before = std::fs::read(&target).unwrap();
    let link = dir.path().join(store::FILE_NAME);
    symlink(&target, &link).unwrap();
    let out = locklab(dir.path(), &["progress", "reset", "--yes"]);
    let err = text(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(err.contains("is a symbolic link"), "{err}");
    assert!(
        std::fs::symlink_metadata(&link)
            .unwrap()
            .file_type()
            .is_symlink()
    );
    assert_eq!(std::fs::read(&target).unwrap(), before);
    let s = Store::open(dir.path(), 0).unwrap();
    assert!(!s.is_writable());
    assert!(matches!(&s.notices[..], [Notice::Symlink { path }] if *path == link));
}

#[test]
fn a_linked_lock_file_does_not_create_its_target() {
    let dir = tempfile::tempdir().unwrap();
    let elsewhere = tempfile::tempdir().unwrap();
    let target = elsewhere.path().join("created-through-the-link");
    symlink(&target, dir.path().join(store::LOCK_NAME)).unwrap();
    let out = locklab(dir.path(), &["progress"]);
    let err = text(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{err}");
    assert!(err.contains("is a symbolic link"), "{err}");
    assert!(!target.exists(), "the lock was created through the link");
}

#[test]
fn reset_never_copies_through_a_link_at_the_backup_name() {
    let dir = tempfile::tempdir().unwrap();
    let elsewhere = tempfile::tempdir().unwrap();
    one_answer(dir.path());
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_secs();
    // Dangling links at every name the backup could take in the next half minute.
    for t in now.saturating_sub(1)..now + 30 {
        let name = format!("{}.bak-{t}", store::FILE_NAME);
        symlink(elsewhere.path().join(&name), dir.path().join(&name)).unwrap();
    }
    let out = locklab(dir.path(), &["progress", "reset", "--yes"]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert_eq!(
        std::fs::read_dir(elsewhere.path()).unwrap().count(),
        0,
        "the backup was written through a link"
    );
    let backups: Vec<PathBuf> = files_starting(dir.path(), "progress.toml.bak-")
        .into_iter()
        .filter(|p| std::fs::symlink_metadata(p).unwrap().is_file())
        .collect();
    assert_eq!(backups.len(), 1, "{}", text(&out.stdout));
    assert!(text(&std::fs::read(&backups[0]).unwrap()).contains("leases.a"));
}

#[test]
fn a_folder_that_cannot_be_written_still_shows_and_exports_progress() {
    let dir = tempfile::tempdir().unwrap();
    one_answer(dir.path());
    // The lock cannot be opened for writing (here: a folder sits at its name).
    std::fs::remove_file(dir.path().join(store::LOCK_NAME)).unwrap();
    std::fs::create_dir(dir.path().join(store::LOCK_NAME)).unwrap();
    for args in [
        &["progress"][..],
        &["progress", "export", "--format", "json"],
    ] {
        let out = locklab(dir.path(), args);
        assert_eq!(
            out.status.code(),
            Some(0),
            "{args:?}: {}",
            text(&out.stderr)
        );
        assert!(text(&out.stdout).contains("1 answer") || text(&out.stdout).contains("leases.a"));
        assert!(
            text(&out.stderr).contains("read-only"),
            "{}",
            text(&out.stderr)
        );
    }
}

/// Runs `script` in a private mount namespace (`unshare -rm`), where it can mount a read-only
/// copy of a folder or a tiny file system. `None` where this machine does not allow it; on CI
/// that is a failure, since the tests below would then check nothing.
fn in_namespace(script: &str) -> Option<Output> {
    let out = Command::new("unshare")
        .args(["-rm", "sh", "-ec", script])
        .env("LOCKLAB", bin())
        .env_remove(store::ENV_DATA_DIR)
        .output()
        .ok()?;
    if text(&out.stderr).contains("unshare failed") || out.status.code() == Some(125) {
        assert!(
            std::env::var_os("CI").is_none(),
            "unshare is not allowed here: {}",
            text(&out.stderr)
        );
        eprintln!("skipped: unshare is not allowed here");
        return None;
    }
    Some(out)
}

#[test]
fn a_read_only_file_system_still_shows_and_exports_progress() {
    let dir = tempfile::tempdir().unwrap();
    one_answer(dir.path());
    let d = dir.path().display();
    let script = format!(
        "mount --bind {d} {d}; mount -o remount,bind,ro {d}; \
         ! touch {d}/probe 2>/dev/null; \
         \"$LOCKLAB\" --lang en --data-dir {d} progress; \
         \"$LOCKLAB\" --lang en --data-dir {d} progress export --format csv"
    );
    let Some(out) = in_namespace(&script) else {
        return;
    };
    let (stdout, stderr) = (text(&out.stdout), text(&out.stderr));
    assert_eq!(out.status.code(), Some(0), "{stdout}\n{stderr}");
    assert!(
        stdout.contains("1 answers") || stdout.contains("1 answer"),
        "{stdout}"
    );
    assert!(stdout.contains("leases.a,leases,model"), "{stdout}");
    assert!(stderr.contains("read-only"), "{stderr}");
}

#[test]
fn devices_pipes_and_huge_files_are_refused_without_reading_them() {
    let dir = tempfile::tempdir().unwrap();
    // Every refusal here is of the user's input: status 2, as `sim run` gives.
    let out = locklab(dir.path(), &["progress", "merge", "/dev/zero"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out.stderr).contains("/dev/zero: not a regular file"),
        "{}",
        text(&out.stderr)
    );
    let out = locklab(dir.path(), &["sim", "run", "/dev/zero"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("/dev/zero: not a regular file"));

    let fifo = dir.path().join("pipe.toml");
    let made = Command::new("mkfifo").arg(&fifo).status().unwrap();
    assert!(made.success());
    let out = locklab(dir.path(), &["sim", "run", fifo.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("not a regular file"));

    // Sparse files: large on paper, no disk used.
    let big = dir.path().join("big.toml");
    std::fs::File::create(&big)
        .unwrap()
        .set_len(store::PROGRESS_LIMIT + 1)
        .unwrap();
    let out = locklab(dir.path(), &["progress", "merge", big.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out.stderr).contains("larger than 256 MiB"),
        "{}",
        text(&out.stderr)
    );
    let scenario = dir.path().join("big-scenario.toml");
    std::fs::File::create(&scenario)
        .unwrap()
        .set_len(locklab::source::CONTENT_LIMIT + 1)
        .unwrap();
    let out = locklab(dir.path(), &["sim", "run", scenario.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("larger than 4 MiB"));
    // The store's own file is refused too, and left as it is.
    let data = dir.path().join("data");
    std::fs::create_dir(&data).unwrap();
    let own = data.join(store::FILE_NAME);
    std::fs::File::create(&own)
        .unwrap()
        .set_len(store::PROGRESS_LIMIT + 1)
        .unwrap();
    let out = locklab(&data, &["progress"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("larger than 256 MiB"));
    assert_eq!(
        std::fs::metadata(&own).unwrap().len(),
        store::PROGRESS_LIMIT + 1
    );
    assert!(files_starting(&data, "progress.toml.corrupt").is_empty());
}

#[test]
fn unknown_keys_survive_a_save() {
    let dir = tempfile::tempdir().unwrap();
    let file = "schema_version = 1\nfrom_a_newer_build = \"keep me\"\n\n\
        [cards.\"leases.a\"]\nstability = 1.0\ndifficulty = 5.0\ndue = 1790086400\n\
        last_review = 1790000000\nreps = 1\nlapses = 0\nease_hint = 3\n\n\
        [[answers]]\nat = 1790000000\nquestion = \"leases.a\"\ndeck = \"leases\"\nkind = \"model\"\n\
        score = 1\nmax = 1\nrating = \"good\"\nhint_used = true\n\n\
        [[sessions]]\nstarted = 1790000000\nended = 1790000060\nquestions = 1\nanswered = 1\n\
        score = 1\nmax = 1\nmode = \"exam\"\n\n[settings]\ntheme = \"dark\"\n";
    std::fs::write(dir.path().join(store::FILE_NAME), file).unwrap();
    // Merging another file saves this one.
    let other = tempfile::tempdir().unwrap();
    answer_at(other.path(), 1_790_100_000);
    let other_file = other.path().join(store::FILE_NAME);
    let out = locklab(
        dir.path(),
        &["progress", "merge", other_file.to_str().unwrap()],
    );
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let saved = std::fs::read_to_string(dir.path().join(store::FILE_NAME)).unwrap();
    let t: toml::Table = saved.parse().unwrap();
    assert_eq!(t["from_a_newer_build"].as_str(), Some("keep me"), "{saved}");
    assert_eq!(t["settings"]["theme"].as_str(), Some("dark"), "{saved}");
    assert_eq!(
        t["cards"]["leases.a"]["ease_hint"].as_integer(),
        Some(3),
        "{saved}"
    );
    let answers = t["answers"].as_array().unwrap();
    assert_eq!(answers.len(), 2, "{saved}");
    assert!(
        answers
            .iter()
            .any(|a| a.get("hint_used").and_then(|v| v.as_bool()) == Some(true))
    );
    assert_eq!(t["sessions"][0]["mode"].as_str(), Some("exam"), "{saved}");
}

/// A scenario whose sentences carry a terminal escape and characters XML does not allow.
const HOSTILE: &str = "family = \"frozen\"\n[about]\nzh = \"说明\\u001b[31m\\u0001\"\n\
                       en = \"About \\u001b]0;retitled\\u0007 \\u0001\\u000c\\uFFFE end\"\n";

#[test]
fn control_characters_never_reach_the_terminal_or_the_svg() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("hostile.toml");
    std::fs::write(&file, HOSTILE).unwrap();
    let f = file.to_str().unwrap();
    for args in [
        &["sim", "run", f][..],
        &["export", f, "--format", "txt", "-o", "-"],
    ] {
        let out = locklab(dir.path(), args);
        assert_eq!(
            out.status.code(),
            Some(0),
            "{args:?}: {}",
            text(&out.stderr)
        );
        let stdout = text(&out.stdout);
        assert!(
            stdout.contains("About ␛]0;retitled␇ ␁␌"),
            "{args:?}: {stdout}"
        );
        assert!(
            !stdout.chars().any(|c| c.is_control() && c != '\n'),
            "{args:?}: a control character got through"
        );
    }
    for lang in ["en", "zh"] {
        let svg = dir.path().join(format!("out-{lang}.svg"));
        let mut cmd = Command::new(bin());
        cmd.args(["--lang", lang, "export", f, "--format", "svg", "-o"])
            .arg(&svg);
        let out = run(cmd);
        assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
        let body = std::fs::read_to_string(&svg).unwrap();
        roxmltree::Document::parse(&body).unwrap_or_else(|e| panic!("{lang}: invalid XML: {e}"));
    }
    // Notes in the CSV export, where a spreadsheet or `cat` would show them.
    one_answer(dir.path());
    let out = locklab(dir.path(), &["progress", "export", "--format", "csv"]);
    let csv = text(&out.stdout);
    assert!(csv.contains("looked at ␛]0;pwned␇the title"), "{csv}");
    assert!(!csv.contains('\u{1b}') && !csv.contains('\u{7}'));
}

#[test]
fn export_replaces_files_atomically_keeps_their_mode_and_never_creates_through_a_link() {
    use std::os::unix::fs::{MetadataExt, PermissionsExt};
    let dir = tempfile::tempdir().unwrap();
    let out_path = dir.path().join("slide.svg");
    std::fs::write(&out_path, "old").unwrap();
    std::fs::set_permissions(&out_path, std::fs::Permissions::from_mode(0o640)).unwrap();
    let inode = std::fs::metadata(&out_path).unwrap().ino();
    let p = out_path.to_str().unwrap();
    let out = locklab(dir.path(), &["export", "chain", "--format", "svg", "-o", p]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let meta = std::fs::metadata(&out_path).unwrap();
    assert_eq!(meta.permissions().mode() & 0o777, 0o640);
    assert_ne!(meta.ino(), inode, "not replaced by a rename");
    assert!(
        std::fs::read_to_string(&out_path)
            .unwrap()
            .starts_with("<?xml")
    );
    // No temporary file is left behind.
    assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 1);

    // A dangling link: writing through it would create a file wherever it points.
    let elsewhere = tempfile::tempdir().unwrap();
    let target = elsewhere.path().join("planted.svg");
    let link = dir.path().join("link.svg");
    symlink(&target, &link).unwrap();
    let out = locklab(
        dir.path(),
        &[
            "export",
            "chain",
            "--format",
            "svg",
            "-o",
            link.to_str().unwrap(),
        ],
    );
    assert_eq!(out.status.code(), Some(1));
    assert!(
        text(&out.stderr).contains("symbolic link"),
        "{}",
        text(&out.stderr)
    );
    assert!(!target.exists());
    assert!(
        std::fs::symlink_metadata(&link)
            .unwrap()
            .file_type()
            .is_symlink()
    );

    // A link the user named to an existing file: that file is replaced, the link stays.
    std::fs::write(&target, "old").unwrap();
    let out = locklab(
        dir.path(),
        &[
            "export",
            "chain",
            "--format",
            "txt",
            "-o",
            link.to_str().unwrap(),
        ],
    );
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert!(
        std::fs::symlink_metadata(&link)
            .unwrap()
            .file_type()
            .is_symlink()
    );
    assert!(std::fs::read_to_string(&target).unwrap().contains("chain"));
}

#[test]
fn a_full_disk_leaves_the_old_export_whole() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path().display();
    // A 64 KiB file system holding a previous export, then filled up.
    let script = format!(
        "mount -t tmpfs -o size=64k tmpfs {d}; echo previous > {d}/out.svg; \
         dd if=/dev/zero of={d}/fill bs=1k count=128 2>/dev/null || true; \
         ! \"$LOCKLAB\" --lang en export chain --format svg -o {d}/out.svg; \
         cat {d}/out.svg; ls -a {d}"
    );
    let Some(out) = in_namespace(&script) else {
        return;
    };
    let (stdout, stderr) = (text(&out.stdout), text(&out.stderr));
    assert_eq!(out.status.code(), Some(0), "{stdout}\n{stderr}");
    assert!(stdout.starts_with("previous\n"), "{stdout}");
    assert!(stderr.contains("cannot write"), "{stderr}");
    assert!(
        !stdout.contains(".locklab-"),
        "a temporary file was left: {stdout}"
    );
}

#[test]
fn a_content_folder_must_exist_and_hold_lessons_decks_and_presets() {
    let dir = tempfile::tempdir().unwrap();
    let missing = dir.path().join("no-such-folder");
    let empty = dir.path().join("empty");
    std::fs::create_dir(&empty).unwrap();
    let partial = dir.path().join("partial");
    std::fs::create_dir_all(partial.join("quizzes")).unwrap();
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    std::fs::copy(
        root.join("quizzes/05-fencing.toml"),
        partial.join("quizzes/05-fencing.toml"),
    )
    .unwrap();
    for args in [&["check"][..], &["quiz", "--plain"], &["sim", "list"]] {
        let with = |folder: &Path| {
            let mut a = vec!["--content", folder.to_str().unwrap()];
            a.extend_from_slice(args);
            locklab(dir.path(), &a)
        };
        let out = with(&missing);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert!(
            text(&out.stderr).contains("does not exist"),
            "{}",
            text(&out.stderr)
        );
        let out = with(&empty);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let err = text(&out.stderr);
        for part in ["no lessons", "no quiz decks", "no presets"] {
            assert!(err.contains(part), "{args:?}: {err}");
        }
        let out = with(&partial);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let err = text(&out.stderr);
        assert!(
            err.contains("no lessons") && err.contains("no presets"),
            "{err}"
        );
        assert!(!err.contains("no quiz decks"), "{err}");
    }
}

#[test]
fn every_scenario_error_names_the_file_line_column_and_key_path() {
    let dir = tempfile::tempdir().unwrap();
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let chain = std::fs::read_to_string(root.join("assets/scenarios/chain.toml")).unwrap();
    let deep = format!("{}]{}", "[".repeat(200), "]".repeat(199));
    let cases: Vec<(&str, Vec<u8>, &str)> = vec![
        (
            "map-for-a-number",
            chain
                .replacen("at = 0.26", "at = { x = 1 }", 1)
                .into_bytes(),
            ":12:6: `script[0].at`: invalid type: map, expected f64",
        ),
        (
            "duplicate-key",
            chain
                .replacen(
                    "watch = \"predecessor\"",
                    "watch = \"predecessor\"\nwatch = \"x\"",
                    1,
                )
                .into_bytes(),
            ":10:1: `params.watch`: duplicate key",
        ),
        (
            "duplicate-table",
            chain
                .replacen("[about]", "[about]\n[about]", 1)
                .into_bytes(),
            ":5:2: `about`: duplicate key",
        ),
        (
            "wrong-type",
            chain
                .replacen("en = \"The correct recipe", "en = 3\nx = \"", 1)
                .into_bytes(),
            ":6:6: `about.en`: invalid type: integer `3`, expected a string",
        ),
        (
            "too-deep",
            format!("{chain}\nx = {deep}\n").into_bytes(),
            ":46:85: `script[5].x[0][0][0][0][0][0][0][0][0]…`: cannot recurse further",
        ),
        (
            // Found by the fuzz target: a missing field is reported at its table's header.
            "missing-field",
            format!("{chain}\n[[script]]\nzh = \"只有中文\"\n").into_bytes(),
            "`script[6].en`: missing field `en`",
        ),
        (
            "not-utf8",
            [&chain.as_bytes()[..40], b"\xff", &chain.as_bytes()[40..]].concat(),
            ":2:26: `locked[1]`: not valid UTF-8 text",
        ),
    ];
    for (name, bytes, want) in cases {
        let file = dir.path().join(format!("{name}.toml"));
        std::fs::write(&file, bytes).unwrap();
        let out = locklab(dir.path(), &["sim", "run", file.to_str().unwrap()]);
        let err = text(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{name}: {err}");
        let shown = format!("{}{want}", file.display());
        assert!(
            err.contains(&shown) || err.contains(want),
            "{name}: want {want}\n got {err}"
        );
        assert!(err.contains(&file.display().to_string()), "{name}: {err}");
    }
}

#[test]
fn error_messages_quoting_a_file_keep_its_escapes_off_the_terminal() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("bad.toml");
    let body = "family = \"frozen\\u001b]0;retitled\\u0007\"\n[about]\nzh = \"x\"\nen = \"x\"\n";
    std::fs::write(&file, body).unwrap();
    let out = locklab(dir.path(), &["sim", "run", file.to_str().unwrap()]);
    let err = text(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(err.contains("frozen␛]0;retitled␇"), "{err}");
    assert!(!err.contains('\u{1b}'), "{err:?}");
}
