//! Regressions for input with no end and numbers past every sensible size: standard input that
//! is `/dev/zero` at every prompt, and counts the parser used to accept up to 4294967295. Each
//! runs the real binary under a 1 GB address-space limit, so a read or an allocation without a
//! bound shows up as an abort (status 134), not as a machine out of memory.

use std::path::Path;
use std::process::{Command, Output, Stdio};

/// Runs locklab under `ulimit -v 1000000` with `stdin` as standard input.
fn limited(dir: &Path, args: &[&str], stdin: Stdio) -> Output {
    let mut script = String::from("ulimit -v 1000000; exec \"$0\" --lang en --data-dir \"$1\"");
    for a in args {
        script.push(' ');
        script.push_str(a);
    }
    Command::new("sh")
        .arg("-c")
        .arg(script)
        .arg(env!("CARGO_BIN_EXE_locklab"))
        .arg(dir)
        .env("NO_COLOR", "1")
        .stdin(stdin)
        .output()
        .expect("locklab runs")
}

fn zero() -> Stdio {
    Stdio::from(std::fs::File::open("/dev/zero").expect("/dev/zero opens"))
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

#[test]
fn every_plain_prompt_refuses_an_endless_line_from_standard_input_with_status_2() {
    for args in [
        &["quiz", "--plain", "--count", "1", "--seed", "1"][..],
        &["interview", "--plain", "--seed", "1"][..],
        &["self-test", "--plain"][..],
    ] {
        let dir = tempfile::tempdir().expect("a data folder");
        let out = limited(dir.path(), args, zero());
        let err = stderr(&out);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
        assert!(err.contains("longer than 4 MiB"), "{args:?}: {err}");
    }
}

#[test]
fn progress_reset_refuses_an_endless_answer_and_resets_nothing() {
    let dir = tempfile::tempdir().expect("a data folder");
    let file = dir.path().join("progress.toml");
    std::fs::write(&file, "schema_version = 1\n").expect("a progress file");
    let out = limited(dir.path(), &["progress", "reset"], zero());
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(err.contains("longer than 4 MiB"), "{err}");
    assert!(err.contains("nothing was reset"), "{err}");
    // A reset keeps the old file as `progress.toml.bak-…`: there must be none.
    let backups: Vec<_> = std::fs::read_dir(dir.path())
        .expect("the data folder")
        .filter_map(Result::ok)
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| n.contains(".bak-"))
        .collect();
    assert!(backups.is_empty(), "no reset, so no backup: {backups:?}");
}

#[test]
fn a_line_at_the_limit_is_still_an_answer() {
    // Four MiB of spaces and then `q`: read whole, trimmed, and taken as the answer `q`.
    let dir = tempfile::tempdir().expect("a data folder");
    let mut input = vec![b' '; (4 << 20) - 2];
    input.extend_from_slice(b"q\n");
    let path = dir.path().join("input");
    std::fs::write(&path, &input).expect("the input is written");
    let stdin = Stdio::from(std::fs::File::open(&path).expect("the input opens"));
    let out = limited(
        dir.path(),
        &["quiz", "--plain", "--count", "1", "--seed", "1"],
        stdin,
    );
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
}

#[test]
fn a_count_past_the_cap_is_refused_by_the_parser_not_by_the_allocator() {
    let dir = tempfile::tempdir().expect("a data folder");
    for count in ["2147483648", "4294967295", "10001"] {
        let out = limited(
            dir.path(),
            &["quiz", "--plain", "--count", count],
            Stdio::null(),
        );
        let err = stderr(&out);
        assert_eq!(out.status.code(), Some(2), "--count {count}: {err}");
        assert!(err.contains("--count"), "{err}");
    }
    let out = limited(
        dir.path(),
        &["quiz", "--plain", "--count", "10000", "--seed", "1"],
        Stdio::null(),
    );
    assert_eq!(
        out.status.code(),
        Some(0),
        "the cap itself runs: {}",
        stderr(&out)
    );
}

fn locklab(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_locklab"))
        .args(["--lang", "en"])
        .args(args)
        .env("NO_COLOR", "1")
        .stdin(Stdio::null())
        .output()
        .expect("locklab runs")
}

#[test]
fn a_100_kb_value_is_never_repeated_whole_in_an_error() {
    let value = "a".repeat(100_000);
    let dir = tempfile::tempdir().expect("a folder");
    let file = dir.path().join("roles.toml");
    std::fs::write(
        &file,
        format!("family = \"rwlock\"\n\n[about]\nzh = \"x\"\nen = \"x\"\n\n[params]\nroles = \"{value}\"\n"),
    )
    .expect("a scenario file");
    let file = file.to_string_lossy().into_owned();
    for args in [
        vec!["sim", "abc", "--preset", value.as_str()],
        vec!["sim", "rwlock", "--roles", value.as_str()],
        vec!["quiz", "--plain", "--count", value.as_str()],
        vec!["explore", value.as_str()],
        vec!["export", value.as_str(), "--format", "txt", "-o", "-"],
        vec!["sim", "run", file.as_str()],
    ] {
        let out = locklab(&args);
        let err = stderr(&out);
        assert_eq!(out.status.code(), Some(2), "{:?}: {err}", &args[..2]);
        assert!(
            err.len() < 4_000,
            "{:?}: a {}-byte message",
            &args[..2],
            err.len()
        );
        assert!(err.contains("characters in all"), "{:?}: {err}", &args[..2]);
    }
}

#[test]
fn a_path_that_is_no_regular_file_is_named_not_called_an_unknown_preset() {
    for args in [
        &["explore", "/dev/zero"][..],
        &["explore", "/etc"][..],
        &["export", "/dev/zero", "--format", "svg", "-o", "-"][..],
        &["present", "/dev/zero"][..],
    ] {
        let out = locklab(args);
        let err = stderr(&out);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
        assert!(err.contains("not a regular file"), "{args:?}: {err}");
        assert!(!err.contains("unknown preset"), "{args:?}: {err}");
    }
}
