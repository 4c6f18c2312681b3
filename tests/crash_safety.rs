//! Kills a real `locklab quiz --plain` with SIGKILL at random moments while it answers and
//! saves, and checks after every kill that the progress file parses and holds every answer the
//! child had confirmed with a `saved N` line.

use std::io::{BufRead, BufReader, Write};
use std::process::{Command, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use locklab::progress::store;
use rand::rngs::Xoshiro256PlusPlus;
use rand::{RngExt as _, SeedableRng};

const RUNS: u64 = 30;

/// Answers plain mode's `> ` requests well enough to keep it saving.
fn reply(prompt: &str, steps: usize) -> String {
    if prompt.contains("Press Enter") {
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

#[test]
fn sigkill_at_random_moments_never_loses_a_confirmed_answer() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join(store::FILE_NAME);
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(0x010c_61ab);
    let mut confirmed_total = 0usize;
    let mut kills_after_a_save = 0;
    for run in 0..RUNS {
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
        // The kill comes a random time after the first question appears, so it lands while
        // answers are being given and saved rather than while the binary starts on a busy machine.
        let budget = Duration::from_millis(rng.random_range(0..500));
        let spawned = Instant::now();
        let mut asking: Option<Instant> = None;
        let mut steps = 0;
        let mut confirmed = None;
        while asking.map_or(spawned.elapsed() < Duration::from_secs(30), |t| {
            t.elapsed() < budget
        }) {
            let Ok(line) = rx.recv_timeout(Duration::from_millis(2)) else {
                continue;
            };
            if line.starts_with("Question ") {
                asking.get_or_insert_with(Instant::now);
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
            } else if line.starts_with("> ") {
                let _ = writeln!(stdin, "{}", reply(&line, steps));
            }
        }
        child.kill().unwrap();
        child.wait().unwrap();
        // Lines the child printed before it died still count as confirmed.
        for line in rx.iter() {
            if let Some(n) = line.strip_prefix("saved ") {
                confirmed = Some(n.parse::<usize>().unwrap());
            }
        }
        reader.join().unwrap();
        if let Some(n) = confirmed {
            assert!(
                n >= confirmed_total,
                "run {run}: saved {n} after {confirmed_total}"
            );
            confirmed_total = n;
            kills_after_a_save += 1;
        }
        if confirmed_total == 0 && !path.exists() {
            continue;
        }
        let p = store::read_progress(&path)
            .unwrap_or_else(|e| panic!("run {run}: the file does not parse after SIGKILL: {e}"));
        assert!(
            p.answers.len() >= confirmed_total,
            "run {run}: {} answers in the file, {confirmed_total} confirmed",
            p.answers.len()
        );
        // Answers only ever accumulate; each run's saves build on the last file.
        confirmed_total = p.answers.len();
        assert_eq!(
            p.cards.len(),
            p.answers
                .iter()
                .map(|a| &a.question)
                .collect::<std::collections::BTreeSet<_>>()
                .len()
        );
    }
    eprintln!(
        "{kills_after_a_save} of {RUNS} runs saved before the kill; {confirmed_total} answers in all"
    );
    assert!(
        kills_after_a_save >= RUNS / 3,
        "only {kills_after_a_save} runs got to save anything"
    );
    assert!(confirmed_total > 0);
    // Temporary files of saves cut short are cleared by the next locklab that takes the lock.
    let s = store::Store::open(dir.path(), 0).unwrap();
    assert!(s.is_writable());
    let temps = std::fs::read_dir(dir.path())
        .unwrap()
        .filter_map(|e| e.ok())
        .filter(|e| e.file_name().to_string_lossy().ends_with(".tmp"))
        .count();
    assert_eq!(temps, 0);
    assert_eq!(s.data().answers.len(), confirmed_total);
}
