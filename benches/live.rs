//! Live-lab benchmarks against a real ZooKeeper: the real binary's `locklab live abc chain`
//! from start to its first line (the server's start included) and to its end, and the live
//! herd with N = 50 as a chain and as a herd. Each is a whole process, run a few times; the
//! minimum, median and maximum are printed. Skipped where `zookeeperd` is not installed.
//! Figures are in docs/src/development/performance.md.

use std::io::{BufRead, BufReader};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

const RUNS: usize = 3;

fn summary(name: &str, mut v: Vec<Duration>) {
    v.sort();
    let s = |d: Duration| format!("{:.2} s", d.as_secs_f64());
    println!(
        "{name:<44} min {}  median {}  max {}",
        s(v[0]),
        s(v[v.len() / 2]),
        s(v[v.len() - 1])
    );
}

/// Runs the binary; returns the time to its first line of output and to its end.
fn run(args: &[&str]) -> (Duration, Duration) {
    let start = Instant::now();
    let mut child = Command::new(env!("CARGO_BIN_EXE_locklab"))
        .args(args)
        .env("LANG", "en_US.UTF-8")
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .spawn()
        .expect("locklab starts");
    let mut out = BufReader::new(child.stdout.take().expect("its output"));
    let mut first = String::new();
    out.read_line(&mut first).expect("a first line");
    let to_first = start.elapsed();
    let mut rest = String::new();
    while out.read_line(&mut rest).is_ok_and(|n| n > 0) {}
    let status = child.wait().expect("locklab ends");
    assert!(status.success(), "{args:?} failed:\n{first}{rest}");
    (to_first, start.elapsed())
}

fn main() {
    if locklab::live::server::installed().is_err() {
        println!("live benchmarks skipped: Debian's zookeeperd is not installed");
        return;
    }
    let (mut first, mut whole) = (Vec::new(), Vec::new());
    for _ in 0..RUNS {
        let (f, w) = run(&["live", "abc", "chain"]);
        first.push(f);
        whole.push(w);
    }
    summary("live abc chain: to the first line", first);
    summary("live abc chain: the whole run (12 s preset)", whole);
    for fanout in ["1", "50"] {
        let mut v = Vec::new();
        for _ in 0..RUNS {
            v.push(run(&["live", "herd", "--waiters", "50", "--fanout", fanout]).1);
        }
        summary(&format!("live herd --waiters 50 --fanout {fanout}"), v);
    }
}
