//! Kills a real `locklab quiz --plain` with SIGKILL at chosen points while it answers and
//! saves, and checks after every kill that the progress file parses and holds every answer the
//! child had confirmed with a `saved N` line.
//!
//! The points are counted, not timed, so the test checks the same thing on a fast or a slow
//! machine: run `r` kills the child right after its `r % 4`-th confirmed save of the run
//! (0: while it starts), either at once or just after sending the next reply, which lands the
//! kill while the next answer is being scored and saved.

use std::io::{BufRead, BufReader, Write};
use std::process::{Command, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use locklab::progress::store;

const RUNS: u64 = 24;

/// Answers plain mode's `> ` requests well enough to keep it saving.
fn reply(prompt: &str, steps: usize) -> String {
    if prompt.contains("Press Enter") || prompt.contains("Enter for the next question") {
        String::new()
    } else if prompt.contains("points you covered") {
        "1".into()
    } else if prompt.contains("Rate yourself") {
        "2".into()
    } else if prompt.contains("Option letter") {
        "a".into()
    } else if prompt.contains("Step numbers") {
        (1..=steps)
            .map(|i| i.to_string())
            .collect::<Vec<_>>()
            .join(",")
    } else {
        "0".into()
    }
}

/// Where a run kills its child.
#[derive(Debug, Clone, Copy)]
struct KillPoint {
    /// Confirmed saves to wait for first.
    saves: usize,
    /// Also send the next reply before the kill.
    mid_answer: bool,
}

fn kill_point(run: u64) -> KillPoint {
    KillPoint {
        saves: (run % 4) as usize,
        mid_answer: run % 8 >= 4,
    }
}

#[test]
fn sigkill_at_chosen_points_never_loses_a_confirmed_answer() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join(store::FILE_NAME);
    let mut in_file = 0usize;
    let mut runs_that_saved = 0;
    for run in 0..RUNS {
        let point = kill_point(run);
        let seed = run.to_string();
        let mut child = Command::new(env!("CARGO_BIN_EXE_locklab"))
            .args(["--lang", "en", "--data-dir"])
            .arg(dir.path())
            .args(["quiz", "--plain", "--seed", &seed])
            .env_remove(store::ENV_DATA_DIR)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        let mut stdin = child.stdin.take().unwrap();
        let stdout = child.stdout.take().unwrap();
        let (tx, rx) = mpsc::channel();
        let reader = std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        let started = Instant::now();
        let mut steps = 0;
        let mut saves = 0;
        let mut confirmed = None;
        // With no save to wait for, the kill lands while the binary starts or asks.
        let mut armed = point.saves == 0 && !point.mid_answer;
        while !armed {
            assert!(
                started.elapsed() < Duration::from_secs(60),
                "run {run}: {point:?} never reached"
            );
            let Ok(line) = rx.recv_timeout(Duration::from_millis(50)) else {
                continue;
            };
            if line.starts_with("Question ") {
                steps = 0;
            } else if line.starts_with("  ")
                && line
                    .trim_start()
                    .split_once(". ")
                    .is_some_and(|(n, _)| n.parse::<usize>().is_ok())
            {
                steps += 1;
            } else if let Some(n) = line.strip_prefix("saved ") {
                confirmed = Some(n.parse::<usize>().unwrap());
                saves += 1;
                armed = saves >= point.saves && !point.mid_answer;
            } else if line.starts_with("> ") {
                let _ = writeln!(stdin, "{}", reply(&line, steps));
                armed = saves >= point.saves && point.mid_answer;
            }
        }
        child.kill().unwrap();
        child.wait().unwrap();
        // Lines the child printed before it died still count as confirmed.
        for line in rx.iter() {
            if let Some(n) = line.strip_prefix("saved ") {
                confirmed = Some(n.parse::<usize>().unwrap());
                saves += 1;
            }
        }
        reader.join().unwrap();
        assert!(saves >= point.saves, "run {run}: {saves} saves, {point:?}");
        if let Some(n) = confirmed {
            assert!(
                n > in_file,
                "run {run}: saved {n} with {in_file} already in the file"
            );
            runs_that_saved += 1;
        }
        if !path.exists() {
            assert_eq!(
                confirmed, None,
                "run {run}: a save was confirmed but there is no file"
            );
            continue;
        }
        let p = store::read_progress(&path)
            .unwrap_or_else(|e| panic!("run {run}: the file does not parse after SIGKILL: {e}"));
        let want = confirmed.unwrap_or(in_file);
        assert!(
            p.answers.len() >= want,
            "run {run} {point:?}: {} answers in the file, {want} confirmed",
            p.answers.len()
        );
        // At most the one answer being saved when the kill came is there unconfirmed.
        assert!(
            p.answers.len() <= want + 1,
            "run {run}: {} > {want} + 1",
            p.answers.len()
        );
        in_file = p.answers.len();
        assert_eq!(
            p.cards.len(),
            p.answers
                .iter()
                .map(|a| &a.question)
                .collect::<std::collections::BTreeSet<_>>()
                .len()
        );
    }
    // Every run told to wait for a save got one: three runs in four.
    let told_to_save = (0..RUNS).filter(|r| kill_point(*r).saves > 0).count();
    assert!(
        runs_that_saved >= told_to_save,
        "{runs_that_saved} of {told_to_save}"
    );
    assert!(in_file >= told_to_save);
    // Temporary files of saves cut short are cleared by the next locklab that takes the lock.
    let s = store::Store::open(dir.path(), 0).unwrap();
    assert!(s.is_writable());
    let temps = std::fs::read_dir(dir.path())
        .unwrap()
        .filter_map(|e| e.ok())
        .filter(|e| e.file_name().to_string_lossy().ends_with(".tmp"))
        .count();
    assert_eq!(temps, 0);
    assert_eq!(s.data().answers.len(), in_file);
}
