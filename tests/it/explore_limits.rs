//! The explorer's limits as a user meets them: a memory bound that stops the search cleanly
//! under a process limit, Ctrl-C reporting what was found so far, and a result that is the same
//! on any number of threads.

use std::os::unix::process::CommandExt;
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

use locklab::explore::variants::{self, Variant};
use locklab::explore::{Bounds, Search};

fn locklab_cmd(args: &[&str]) -> Command {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_locklab"));
    cmd.args(args)
        .env("LANG", "en_US.UTF-8")
        .env_remove("LC_ALL")
        .env_remove("LOCKLAB_DATA_DIR");
    cmd
}

/// Runs locklab with its address space limited to `kb` kilobytes, as `ulimit -v` does.
fn under_ulimit_v(kb: u64, args: &[&str]) -> Output {
    let mut cmd = locklab_cmd(args);
    let bytes = kb * 1024;
    // SAFETY: setrlimit is async-signal-safe and touches only the child being started.
    unsafe {
        cmd.pre_exec(move || {
            let limit = libc::rlimit {
                rlim_cur: bytes,
                rlim_max: bytes,
            };
            if libc::setrlimit(libc::RLIMIT_AS, &limit) == 0 {
                Ok(())
            } else {
                Err(std::io::Error::last_os_error())
            }
        });
    }
    cmd.output().expect("the binary runs")
}

#[test]
fn the_largest_search_the_parser_accepts_stops_at_the_memory_limit_under_ulimit() {
    let args = [
        "explore",
        "chain",
        "--faults",
        "4",
        "--depth",
        "200",
        "--max-states",
        "8000000",
    ];
    let out = under_ulimit_v(2_000_000, &args);
    let text = String::from_utf8_lossy(&out.stdout);
    let err = String::from_utf8_lossy(&out.stderr);
    // An abort would be a signal (no code) or 134, with nothing printed.
    assert!(
        matches!(out.status.code(), Some(0 | 1)),
        "{:?}\n{text}\n{err}",
        out.status
    );
    assert!(
        text.contains("stopped at the memory limit"),
        "{text}\n{err}"
    );
    assert!(text.contains("incomplete"), "{text}");
    assert!(!text.contains("No invariant fails"), "{text}");
}

#[test]
fn a_memory_limit_out_of_range_is_refused_naming_the_range() {
    for bad in ["1PB", "12", "lots", "0GiB"] {
        let out = locklab_cmd(&["explore", "chain", "--max-memory", bad])
            .output()
            .expect("runs");
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{bad}: {err}");
        assert!(err.contains("16MiB to 1TiB"), "{bad}: {err}");
    }
}

#[test]
fn a_small_memory_limit_stops_the_search_and_the_json_says_why() {
    let out = locklab_cmd(&[
        "explore",
        "chain",
        "--faults",
        "3",
        "--max-memory",
        "24MiB",
        "--json",
    ])
    .output()
    .expect("runs");
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).expect("json");
    assert_eq!(json["complete"], false, "{json}");
    assert_eq!(json["stopped"], "memory_limit", "{json}");
    assert_eq!(json["bounds"]["max_memory_bytes"], 24 << 20, "{json}");
    // The heap was counted, and the search stopped at the limit, not far past it.
    let peak = json["memory_bytes"].as_u64().unwrap();
    assert!((20 << 20..=25 << 20).contains(&peak), "{json}");
}

/// Sends SIGINT once the search has run a while, then waits for the report.
fn interrupted(args: &[&str]) -> Output {
    let child = locklab_cmd(args)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn");
    std::thread::sleep(Duration::from_millis(1500));
    let pid = child.id() as libc::pid_t;
    // SAFETY: kill only sends a signal to the child started above.
    assert_eq!(unsafe { libc::kill(pid, libc::SIGINT) }, 0);
    let start = Instant::now();
    let out = child.wait_with_output().expect("wait");
    assert!(start.elapsed() < Duration::from_secs(30), "slow to stop");
    out
}

#[test]
fn ctrl_c_prints_what_was_found_so_far_marked_incomplete_with_exit_130() {
    // A space far too big to finish in the time before the signal.
    let search = ["explore", "chain", "--faults", "4", "--depth", "200"];
    let out = interrupted(&search);
    let text = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(130), "{text}");
    assert!(text.contains("The search was cancelled"), "{text}");
    assert!(text.contains("distinct"), "{text}");
    assert!(!text.contains("No invariant fails"), "{text}");
    assert!(String::from_utf8_lossy(&out.stderr).contains("Ctrl-C"));

    let out = interrupted(&[&search[..], &["--json"]].concat());
    assert_eq!(out.status.code(), Some(130));
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).expect("json");
    assert_eq!(json["complete"], false, "{json}");
    assert_eq!(json["stopped"], "cancelled", "{json}");
    assert!(json["distinct_states"].as_u64().unwrap() > 1, "{json}");
}

fn variant(name: &str) -> Variant {
    variants::all()
        .into_iter()
        .find(|v| v.name == name)
        .expect("a variant")
}

#[test]
fn every_thread_count_finds_the_same_counterexamples_and_counts() {
    for (name, depth) in [("no_fencing", 60), ("blind_retry", 60), ("correct", 8)] {
        let v = variant(name);
        let run = |threads| {
            let mut s = Search::new(
                &v.params,
                Bounds {
                    depth,
                    threads,
                    ..Bounds::new(v.faults, v.kinds)
                },
            );
            s.run(u64::MAX);
            assert!(s.complete(), "{name}");
            let paths: Vec<_> = s
                .violations
                .iter()
                .map(|f| (f.property, f.path.clone()))
                .collect();
            (s.progress.distinct, s.progress.states, paths)
        };
        let one = run(1);
        assert_eq!(one.2.is_empty(), v.breaks.is_none(), "{name}");
        for threads in [2, 4] {
            assert_eq!(run(threads), one, "{name} on {threads} threads");
        }
    }
}
