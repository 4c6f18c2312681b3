//! The live lab against a real ZooKeeper server: each A/B/C preset tells the model's story on
//! real sessions, the herd counts match the closed forms, and bad input or an interrupted run
//! leaves nothing running. Where Debian's `zookeeperd` is not installed, every test that needs
//! it is reported as ignored, with the reason, and the others still run: this file has a harness
//! of its own (`harness = false`) so that a skip is counted as one instead of passing silently.
//! The Redlock presets on real Redis servers are in `live/redis.rs`, ignored the same way where
//! Debian's redis-server is not installed.

use std::collections::HashMap;
use std::net::{SocketAddr, TcpListener};
use std::process::{Command, ExitCode, Stdio};
use std::sync::{Mutex, MutexGuard, OnceLock, RwLock, RwLockReadGuard, RwLockWriteGuard};
use std::time::{Duration, Instant};

use libtest_mimic::{Arguments, Completion, Failed, Trial};

#[path = "live/ensemble.rs"]
mod ensemble;
#[path = "live/pg.rs"]
mod pg;
use locklab::engine::params::{HerdParams, Params};
use locklab::engine::trace::EventKind;
use locklab::live::diff::{Aspect, compare};
use locklab::live::instants::Kind;
use locklab::live::server::{self, PrivateServer};
use locklab::live::{abc, herd, scale};

/// Live runs take real time: one at a time, so that none disturbs another's timing.
fn serial() -> MutexGuard<'static, ()> {
    static LOCK: Mutex<()> = Mutex::new(());
    LOCK.lock().unwrap_or_else(|e| e.into_inner())
}

/// Redis and etcd runs go side by side; a check that counts the Redis and etcd processes left
/// waits for them all ([`alone`]). Take it before [`serial`].
static RUNS: RwLock<()> = RwLock::new(());

fn side_by_side() -> RwLockReadGuard<'static, ()> {
    RUNS.read().unwrap_or_else(|e| e.into_inner())
}

fn alone() -> RwLockWriteGuard<'static, ()> {
    RUNS.write().unwrap_or_else(|e| e.into_inner())
}

/// Runs a check that times nothing beside the timed runs, on a thread of its own at a lower
/// priority: the servers and clients it starts inherit that, so they take a core only when a
/// timed run has no use for it.
fn untimed(f: fn()) {
    std::thread::scope(|s| {
        let t = s.spawn(|| {
            // SAFETY: only this thread's own priority (Linux keeps one per thread) is lowered.
            unsafe {
                libc::setpriority(libc::PRIO_PROCESS, libc::gettid() as libc::id_t, 10);
            }
            f()
        });
        if let Err(panic) = t.join() {
            std::panic::resume_unwind(panic);
        }
    });
}

/// One private server per tick, shared by the tests and removed when the process ends.
fn server_for(tick_ms: u64) -> SocketAddr {
    server_with(server::Settings::ticking(tick_ms))
}

/// One private server per setting of the tick and the container check, shared the same way.
fn server_with(settings: server::Settings) -> SocketAddr {
    type Key = (u64, Option<u64>);
    static SERVERS: OnceLock<Mutex<HashMap<Key, PrivateServer>>> = OnceLock::new();
    let key = (settings.tick_ms, settings.container_check_ms);
    let mut map = SERVERS
        .get_or_init(Default::default)
        .lock()
        .unwrap_or_else(|e| e.into_inner());
    if let Some(s) = map.get(&key) {
        return s.addr;
    }
    let s = server::start_with(settings, None).expect("a private ZooKeeper server starts");
    let addr = s.addr;
    map.insert(key, s);
    addr
}

/// Times at half the preset's, the server's tick included: the story is the same, the run
/// twice as short.
const SCALE: f64 = 0.5;

fn live_story(name: &str) -> abc::Story {
    let p = locklab::scenario::find(name).expect("a shipped preset");
    let Params::Abc(p) = &p.params else {
        panic!("{name} is not an A/B/C preset")
    };
    let (scaled, _) = scale::for_private(p, SCALE);
    let addr = server_with(server::Settings {
        tick_ms: scaled.tick_ms,
        container_check_ms: scaled.container_check_ms,
    });
    // A private server runs on this machine's clock: its grid's phase is known.
    abc::story_at(&scaled, addr, true).expect("the live run completes")
}

/// The same story as the model, row for row, as `locklab live abc` compares them: holders in
/// order, node numbers, wake-ups, nodes left behind, stuck clients, duplicates, stale writes,
/// and every grant, hand-over, expiry and write within its tolerance, the model running on the
/// server's tick grid.
fn same_story(name: &str) {
    let _one = serial();
    let story = live_story(name);
    let rows = story.rows();
    for aspect in [
        Aspect::Holders,
        Aspect::Numbers,
        Aspect::Wakeups,
        Aspect::Instant,
    ] {
        assert!(
            rows.iter().any(|r| r.aspect == aspect),
            "{name}: no {aspect:?} row\n{rows:#?}"
        );
    }
    assert_same(&story, name);
    let expiries = rows
        .iter()
        .filter_map(|r| r.instant.as_ref())
        .filter(|i| i.kind == Kind::Expiry)
        .count();
    let expected = story
        .model
        .events
        .iter()
        .filter(|e| matches!(e.kind, EventKind::SessionExpired { .. }))
        .count();
    assert_eq!(expiries, expected, "{name}: every expiry has its row");
    // Something really happened on the server: every client opened a session and a node.
    let live = &story.live;
    assert!(live.nodes.len() >= 3, "{name}: {:?}", live.nodes);
    assert!(!live.messages.is_empty());
}

/// No row of the comparison differs: every fact, and every instant within its tolerance.
fn assert_same(story: &abc::Story, name: &str) {
    let differ: Vec<_> = story.rows().into_iter().filter(|r| !r.same()).collect();
    assert!(
        differ.is_empty(),
        "{name}: the live run differs from the model (tick phase {:?}):\n{differ:#?}",
        story.tick_phase_ms
    );
}

/// `locklab live abc gc-pause-fencing` itself, as a user runs it: the server's tick phase is
/// read, the model runs on it, and no row of the comparison differs, C's node included.
fn the_live_command_compares_instants_and_agrees_on_gc_pause() {
    let _one = serial();
    let out = locklab()
        .args([
            "live",
            "abc",
            "gc-pause-fencing",
            "--time-scale",
            "0.5",
            "--json",
        ])
        .output()
        .expect("locklab runs");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).expect("JSON");
    let phase = v["tick_phase_ms"]
        .as_u64()
        .expect("the phase of locklab's own server is known");
    assert!(phase < 1_000, "less than the 1 s tick: {phase}");
    assert_eq!(v["params"]["tick_phase_ms"].as_u64(), Some(phase));
    let rows = v["comparison"].as_array().expect("rows");
    let instants: Vec<&serde_json::Value> =
        rows.iter().filter(|r| r["aspect"] == "instant").collect();
    let kinds: Vec<&str> = instants
        .iter()
        .filter_map(|r| r["instant"]["kind"].as_str())
        .collect();
    for kind in ["grant", "expiry", "handover", "write"] {
        assert!(kinds.contains(&kind), "no {kind} row: {kinds:?}");
    }
    for r in rows {
        match r.get("instant") {
            Some(i) => assert_eq!(i["within"], true, "{r}"),
            // A node one run deleted just before its end and the other just after is one
            // release within tolerance: the comparison marks it with how near the end it was.
            None if r["aspect"] == "left_behind" && r["near_end_ms"].is_u64() => {}
            None => assert_eq!(r["model"], r["live"], "{r}"),
        }
    }
}

fn live_herd_counts_match_the_closed_forms() {
    let _one = serial();
    let addr = server_for(2000);
    for n in [5u32, 20, 50] {
        for (fanout, expected) in [(1, u64::from(n)), (n, u64::from(n * (n + 1) / 2))] {
            let p = HerdParams {
                waiters: n,
                fanout,
                grab_cost_ms: 0.0,
                hold_ms: 5.0,
            };
            let live = herd::run(&p, addr).expect("the live herd completes");
            let Some(m) = locklab::engine::families::herd::metrics(&live) else {
                panic!("a herd trace")
            };
            assert_eq!(m.total_notifications, expected, "N = {n}, fanout {fanout}");
            assert_eq!(m.rows.len(), n as usize, "one row per release");
            assert!(live.all_invariants_hold(), "N = {n}: {:?}", live.invariants);
            // Reads are the woken waiters' re-reads, as in the model: the hold is not in them.
            for r in &m.rows {
                assert!(
                    r.reads_ms + p.hold_ms <= r.duration_ms,
                    "N = {n}, fanout {fanout}, release {}: reads {} ms, round {} ms",
                    r.release,
                    r.reads_ms,
                    r.duration_ms
                );
            }
            let model = locklab::engine::run(&Params::Herd(p));
            let d: Vec<_> = compare(&model, &live, None)
                .into_iter()
                .filter(|r| !r.same())
                .collect();
            assert!(d.is_empty(), "N = {n}, fanout {fanout}: {d:?}");
        }
    }
}

// --- the command line ---

fn locklab() -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_locklab"));
    c.env("LANG", "en_US.UTF-8");
    c
}

fn free_port() -> u16 {
    let l = TcpListener::bind(("127.0.0.1", 0)).expect("a free port");
    l.local_addr().expect("an address").port()
}

/// Whether a ZooKeeper server answers on this loopback port.
fn answers(port: u16) -> bool {
    let addr = SocketAddr::from(([127, 0, 0, 1], port));
    server::srvr(addr).is_ok_and(|s| s.contains("Zookeeper version"))
}

/// Waits until no server answers on `port` and no data directory of ours names it.
fn nothing_left(port: u16) -> bool {
    let until = Instant::now() + Duration::from_secs(10);
    while Instant::now() < until {
        if !answers(port) && TcpListener::bind(("127.0.0.1", port)).is_ok() {
            return true;
        }
        std::thread::sleep(Duration::from_millis(100));
    }
    false
}

fn an_unreachable_zk_is_a_clear_error_with_status_2() {
    let port = free_port();
    let out = locklab()
        .args(["live", "herd", "--waiters", "3", "--fanout", "1", "--zk"])
        .arg(format!("127.0.0.1:{port}"))
        .output()
        .expect("locklab runs");
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("cannot reach a ZooKeeper server"), "{err}");
    assert!(out.stdout.is_empty(), "nothing printed as if it ran");
}

fn a_port_in_use_is_a_clear_error_with_status_2_and_starts_nothing() {
    let taken = TcpListener::bind(("127.0.0.1", 0)).expect("a port");
    let port = taken.local_addr().expect("an address").port();
    let out = locklab()
        .args(["live", "abc", "chain", "--port"])
        .arg(port.to_string())
        .output()
        .expect("locklab runs");
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains(&format!("port {port} is in use")), "{err}");
    drop(taken);
    assert!(nothing_left(port), "no server was left on {port}");
}

fn port_zero_is_refused_at_once_with_status_2() {
    let started = Instant::now();
    let out = locklab()
        .args(["live", "abc", "chain", "--port", "0"])
        .output()
        .expect("locklab runs");
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("--port"), "{err}");
    assert!(err.contains("1..=65535"), "{err}");
    assert!(
        started.elapsed() < Duration::from_secs(5),
        "refused at once"
    );
}

fn without_the_server_the_error_says_how_to_install_it() {
    let out = locklab()
        .args(["live", "herd", "--waiters", "2", "--fanout", "1"])
        .env("PATH", "/nonexistent")
        .output()
        .expect("locklab runs");
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("apt-get install -y zookeeperd"), "{err}");
    assert!(err.contains("--zk HOST:PORT"), "{err}");
}

fn a_finished_run_leaves_no_server_and_no_data_directory() {
    let _one = serial();
    let port = free_port();
    let out = locklab()
        .args(["live", "herd", "--waiters", "3", "--fanout", "3", "--port"])
        .arg(port.to_string())
        .output()
        .expect("locklab runs");
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{text}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(text.contains(&format!("127.0.0.1:{port}")), "{text}");
    assert!(text.contains("Both tell the same story"), "{text}");
    assert!(nothing_left(port), "the server on {port} was stopped");
}

fn ctrl_c_during_a_run_stops_the_server_and_removes_its_directory() {
    let _one = serial();
    let port = free_port();
    let mut child = locklab()
        .args(["live", "abc", "chain", "--port"])
        .arg(port.to_string())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("locklab starts");
    let until = Instant::now() + Duration::from_secs(40);
    while !answers(port) && Instant::now() < until {
        std::thread::sleep(Duration::from_millis(50));
    }
    assert!(answers(port), "the server came up on {port}");
    let dir = data_dir_of(port).expect("the server's data directory");
    assert!(dir.exists());
    std::thread::sleep(Duration::from_millis(500));
    let status = Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .expect("kill runs");
    assert!(status.success());
    let _ = child.wait();
    assert!(nothing_left(port), "the server on {port} was stopped");
    let until = Instant::now() + Duration::from_secs(10);
    while Instant::now() < until && dir.exists() {
        std::thread::sleep(Duration::from_millis(100));
    }
    assert!(!dir.exists(), "{} was removed", dir.display());
}

/// The command lines of every process running ZooKeeper's server main class.
fn zookeeper_servers() -> Vec<Vec<String>> {
    let mut out = Vec::new();
    let Ok(procs) = std::fs::read_dir("/proc") else {
        return out;
    };
    for entry in procs.filter_map(Result::ok) {
        let Ok(cmdline) = std::fs::read(entry.path().join("cmdline")) else {
            continue;
        };
        let args: Vec<String> = cmdline
            .split(|b| *b == 0)
            .map(|a| String::from_utf8_lossy(a).into_owned())
            .collect();
        if args
            .iter()
            .any(|a| a == "org.apache.zookeeper.server.ZooKeeperServerMain")
        {
            out.push(args);
        }
    }
    out
}

/// The data directory of the server listening on `port`: the folder of the configuration file
/// on its command line, whose `clientPort` is `port`.
fn data_dir_of(port: u16) -> Option<std::path::PathBuf> {
    let wanted = format!("clientPort={port}");
    zookeeper_servers().into_iter().find_map(|args| {
        let i = args
            .iter()
            .position(|a| a == "org.apache.zookeeper.server.ZooKeeperServerMain")?;
        let cfg = std::path::PathBuf::from(args.get(i + 1)?);
        let text = std::fs::read_to_string(&cfg).ok()?;
        text.lines()
            .any(|l| l == wanted)
            .then(|| cfg.parent().map(std::path::Path::to_path_buf))?
    })
}

/// Every process whose command line mentions `needle`.
fn processes_mentioning(needle: &str) -> Vec<String> {
    let mut out = Vec::new();
    let Ok(procs) = std::fs::read_dir("/proc") else {
        return out;
    };
    for entry in procs.filter_map(Result::ok) {
        if let Ok(cmdline) = std::fs::read(entry.path().join("cmdline")) {
            let line = String::from_utf8_lossy(&cmdline).replace('\0', " ");
            if line.contains(needle) {
                out.push(format!("{}: {line}", entry.file_name().to_string_lossy()));
            }
        }
    }
    out
}

/// The addresses sockets listen on for this TCP port, read from /proc/net/tcp and tcp6 (in the
/// kernel's hex: `0100007F` is 127.0.0.1, `0000000000000000FFFF00000100007F` the same mapped
/// into IPv6).
fn listening_addresses(port: u16) -> Vec<String> {
    let want = format!(":{port:04X}");
    let mut out = Vec::new();
    for table in ["/proc/net/tcp", "/proc/net/tcp6"] {
        let Ok(text) = std::fs::read_to_string(table) else {
            continue;
        };
        for line in text.lines().skip(1) {
            let f: Vec<&str> = line.split_whitespace().collect();
            // Field 1 is the local address, field 3 the state (0A: listening).
            if f.len() > 3 && f[3] == "0A" && f[1].ends_with(&want) {
                out.push(f[1].trim_end_matches(&want).to_string());
            }
        }
    }
    out
}

fn the_private_server_listens_on_loopback_only() {
    let _one = serial();
    let port = free_port();
    let s = server::start(500, Some(port)).expect("a private server starts");
    let addrs = listening_addresses(port);
    drop(s);
    assert!(!addrs.is_empty(), "something listens on {port}");
    for a in &addrs {
        assert!(
            a == "0100007F" || a == "0000000000000000FFFF00000100007F",
            "port {port} listens on {a}, not 127.0.0.1 alone: {addrs:?}"
        );
    }
}

fn a_port_held_on_ipv6_alone_does_not_stop_the_run() {
    let _one = serial();
    let port = free_port();
    let Ok(v6) = TcpListener::bind(("::1", port)) else {
        return; // no IPv6 loopback on this machine: nothing to hold the port with
    };
    let out = locklab()
        .args(["live", "herd", "--waiters", "2", "--fanout", "1", "--port"])
        .arg(port.to_string())
        .output()
        .expect("locklab runs");
    drop(v6);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(nothing_left(port), "the server on {port} was stopped");
}

/// A stand-in `java` on the PATH: a shell script with this body.
fn fake_java(body: &str) -> tempfile::TempDir {
    let fake = tempfile::tempdir().expect("a folder for the stand-in java");
    let java = fake.path().join("java");
    std::fs::write(&java, format!("#!/bin/sh\n{body}\n")).expect("the stand-in is written");
    std::fs::set_permissions(&java, std::os::unix::fs::PermissionsExt::from_mode(0o755))
        .expect("the stand-in is executable");
    fake
}

fn a_wrapper_java_that_does_not_exec_leaves_no_server_behind() {
    let _one = serial();
    // Such wrappers are how SDK managers pick a JDK: the JVM is the wrapper's child.
    let fake = fake_java("/usr/bin/java \"$@\"");
    let tmp = tempfile::tempdir().expect("a temporary folder for the run");
    let port = free_port();
    let out = locklab()
        .args(["live", "herd", "--waiters", "2", "--fanout", "1", "--port"])
        .arg(port.to_string())
        .env("PATH", format!("{}:/usr/bin:/bin", fake.path().display()))
        .env("TMPDIR", tmp.path())
        .output()
        .expect("locklab runs");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    // Nothing may outlive locklab: no grace period.
    let tmp_name = tmp.path().to_string_lossy().into_owned();
    let left = processes_mentioning(&tmp_name);
    assert!(
        left.is_empty(),
        "left running after locklab exited: {left:?}"
    );
    assert!(!answers(port), "no server answers on {port}");
}

fn a_java_that_hangs_at_start_leaves_nothing_behind_when_locklab_is_stopped() {
    let _one = serial();
    let marker = format!("{}", 900_000 + std::process::id() % 90_000);
    let fake = fake_java(&format!("sleep {marker}"));
    let tmp = tempfile::tempdir().expect("a temporary folder for the run");
    let mut child = locklab()
        .args(["live", "herd", "--waiters", "2", "--fanout", "1"])
        .env("PATH", format!("{}:/usr/bin:/bin", fake.path().display()))
        .env("TMPDIR", tmp.path())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("locklab starts");
    let until = Instant::now() + Duration::from_secs(10);
    while processes_mentioning(&format!("sleep {marker}")).is_empty() && Instant::now() < until {
        std::thread::sleep(Duration::from_millis(50));
    }
    assert!(
        !processes_mentioning(&format!("sleep {marker}")).is_empty(),
        "the stand-in started"
    );
    let status = Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .expect("kill runs");
    assert!(status.success());
    let _ = child.wait();
    // The guard outlives locklab by the moment it takes to stop the server's group.
    let until = Instant::now() + Duration::from_secs(5);
    while !processes_mentioning(&format!("sleep {marker}")).is_empty() && Instant::now() < until {
        std::thread::sleep(Duration::from_millis(50));
    }
    let left = processes_mentioning(&format!("sleep {marker}"));
    assert!(
        left.is_empty(),
        "left running after locklab was stopped: {left:?}"
    );
}

fn a_server_that_does_not_start_is_a_clear_error_and_leaves_nothing_behind() {
    let _one = serial();
    // A `java` that fails the way a broken installation does: the guard runs it, it exits at
    // once, and locklab must say so with the server's last words and remove the data directory.
    let fake = fake_java(
        "echo 'Error: Could not find or load main class ZooKeeperServerMain' >&2\nexit 1",
    );
    let tmp = tempfile::tempdir().expect("a temporary folder for the run");
    let out = locklab()
        .args(["live", "herd", "--waiters", "2", "--fanout", "1"])
        .env("PATH", format!("{}:/usr/bin:/bin", fake.path().display()))
        .env("TMPDIR", tmp.path())
        .output()
        .expect("locklab runs");
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("did not start: it stopped as it started"),
        "{err}"
    );
    assert!(err.contains("Could not find or load main class"), "{err}");
    let left: Vec<_> = std::fs::read_dir(tmp.path())
        .expect("the temporary folder")
        .collect();
    assert!(left.is_empty(), "the data directory was removed: {left:?}");
}

#[path = "live/redis.rs"]
mod redis;

#[path = "live/etcd.rs"]
mod etcd;

#[path = "live/queue.rs"]
mod queue;

#[path = "live/recipes.rs"]
mod recipes;

#[path = "live/election.rs"]
mod election;

/// Every test, as the harness runs them: those that need a ZooKeeper server are ignored, with
/// the reason, where none is installed.
fn main() -> ExitCode {
    // The Ctrl-C tests interrupt a locklab as a terminal would. A non-interactive shell that
    // starts this suite in the background (as CI does, beside the other tests) sets SIGINT to
    // ignored, and every locklab started here would inherit that and run on to its own timeout:
    // give the children the terminal's default back.
    // SAFETY: at the start of main, before any thread: nothing else sets handlers concurrently.
    unsafe {
        libc::signal(libc::SIGINT, libc::SIG_DFL);
    }
    let mut args = Arguments::from_args();
    // The timed runs take turns (see [`serial`]); checks that time nothing go beside them. Most
    // of a live test is waiting on real time, so more threads than cores keep one timed run
    // going while the others start, wait or check what was left.
    if args.test_threads.is_none() {
        args.test_threads = Some(3);
    }
    let presets = [
        "chain",
        "herd",
        "lost-create",
        "lost-create-blind",
        "disconnect",
        "expire",
        "gc-pause-fencing",
        "gc-pause-no-fencing",
        "holder-expires",
        "waiter-expires",
        "watch-race",
        "watch-race-broken",
    ];
    let mut trials: Vec<Trial> = presets
        .iter()
        .map(|&name| {
            let test = format!("live_{}", name.replace('-', "_"));
            needs_server(test, move || same_story(name))
        })
        .collect();
    let with_server: [(&str, fn()); 10] = [
        (
            "the_live_command_compares_instants_and_agrees_on_gc_pause",
            the_live_command_compares_instants_and_agrees_on_gc_pause,
        ),
        (
            "the_private_server_listens_on_loopback_only",
            the_private_server_listens_on_loopback_only,
        ),
        (
            "a_port_held_on_ipv6_alone_does_not_stop_the_run",
            a_port_held_on_ipv6_alone_does_not_stop_the_run,
        ),
        (
            "a_wrapper_java_that_does_not_exec_leaves_no_server_behind",
            a_wrapper_java_that_does_not_exec_leaves_no_server_behind,
        ),
        (
            "a_java_that_hangs_at_start_leaves_nothing_behind_when_locklab_is_stopped",
            a_java_that_hangs_at_start_leaves_nothing_behind_when_locklab_is_stopped,
        ),
        (
            "live_herd_counts_match_the_closed_forms",
            live_herd_counts_match_the_closed_forms,
        ),
        (
            "a_port_in_use_is_a_clear_error_with_status_2_and_starts_nothing",
            a_port_in_use_is_a_clear_error_with_status_2_and_starts_nothing,
        ),
        (
            "a_finished_run_leaves_no_server_and_no_data_directory",
            a_finished_run_leaves_no_server_and_no_data_directory,
        ),
        (
            "ctrl_c_during_a_run_stops_the_server_and_removes_its_directory",
            ctrl_c_during_a_run_stops_the_server_and_removes_its_directory,
        ),
        (
            "a_server_that_does_not_start_is_a_clear_error_and_leaves_nothing_behind",
            a_server_that_does_not_start_is_a_clear_error_and_leaves_nothing_behind,
        ),
    ];
    trials.extend(with_server.map(|(name, f)| needs_server(name, f)));
    let without: [(&str, fn()); 3] = [
        (
            "port_zero_is_refused_at_once_with_status_2",
            port_zero_is_refused_at_once_with_status_2,
        ),
        (
            "an_unreachable_zk_is_a_clear_error_with_status_2",
            an_unreachable_zk_is_a_clear_error_with_status_2,
        ),
        (
            "without_the_server_the_error_says_how_to_install_it",
            without_the_server_the_error_says_how_to_install_it,
        ),
    ];
    trials.extend(without.map(|(name, f)| {
        Trial::test(name, move || {
            f();
            Ok(())
        })
    }));
    trials.extend(ensemble::trials());
    trials.extend(pg::trials());
    trials.extend(redis::trials());
    trials.extend(etcd::trials());
    trials.extend(queue::trials());
    trials.extend(recipes::trials());
    trials.extend(election::trials());
    // The longest check that times nothing starts first, beside the first timed runs.
    if let Some(i) = trials.iter().position(|t| t.name().starts_with("twenty_")) {
        let first = trials.remove(i);
        trials.insert(0, first);
    }
    libtest_mimic::run(&args, trials).exit_code()
}

/// A test that runs against a real server, or is ignored, saying why, when none is installed.
/// A panic inside is the test failing, as with the built-in harness.
fn needs_server(name: impl Into<String>, f: impl FnOnce() + Send + 'static) -> Trial {
    Trial::ignorable_test(name, move || -> Result<Completion, Failed> {
        if server::installed().is_err() {
            return Ok(Completion::ignored_with(
                "Debian's zookeeperd is not installed: apt-get install -y zookeeperd",
            ));
        }
        f();
        Ok(Completion::Completed)
    })
}
