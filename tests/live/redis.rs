//! Redlock on real Redis servers: each live preset shows its failure on the real servers and
//! agrees with the model within the stated tolerances, and no run, however it ends, leaves a
//! server, a client, a port or a directory behind. Ignored, with the reason, where Debian's
//! redis-server (or, for the clock jump, faketime) is not installed.

use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use libtest_mimic::{Completion, Failed, Trial};
use locklab::engine::params::{Params, RedlockParams};
use locklab::engine::trace::redlock::RedlockEvent;
use locklab::engine::trace::{EventKind, Metrics, Trace};
use locklab::live::children;
use locklab::live::redis::run::{Store, default_store};
use locklab::live::redis::{self, Story, node};

fn exe() -> &'static Path {
    Path::new(env!("CARGO_BIN_EXE_locklab"))
}

fn preset(name: &str) -> RedlockParams {
    let p = locklab::scenario::find(name).expect("a shipped preset");
    let Params::Redlock(p) = &p.params else {
        panic!("{name} is not a Redlock preset")
    };
    p.clone()
}

fn metrics(t: &Trace) -> &locklab::engine::trace::redlock::RedlockMetrics {
    match &t.metrics {
        Metrics::Redlock(m) => m,
        _ => panic!("a Redlock trace"),
    }
}

/// Runs the preset live, the resource where `locklab live redlock` puts it (a PostgreSQL row
/// when the server is installed), and checks the comparison agrees row for row.
fn agreed(name: &str) -> Story {
    agreed_on(name, default_store())
}

/// [`agreed`], the resource on `store`.
fn agreed_on(name: &str, store: Store) -> Story {
    let story = {
        let _side = super::side_by_side();
        redis::story(&preset(name), exe(), store).expect("the live run completes")
    };
    assert_eq!(
        story.store, store,
        "{name}: the run says where its resource was"
    );
    let rows = story.rows();
    assert!(
        rows.iter().any(|r| r.instant.is_some()),
        "{name}: no instants"
    );
    let differ: Vec<_> = rows.iter().filter(|r| !r.same()).collect();
    assert!(
        differ.is_empty(),
        "{name}: the live run differs from the model:\n{differ:#?}"
    );
    for (addr, dir) in &story.servers {
        assert!(!dir.exists(), "{name}: {} was removed", dir.display());
        assert!(
            std::net::TcpStream::connect_timeout(addr, Duration::from_millis(200)).is_err(),
            "{name}: nothing listens on {addr} any more"
        );
    }
    story
}

/// The events node `n` (1-based) had in the live run.
fn node_events(t: &Trace, n: usize) -> Vec<(u64, &EventKind)> {
    let id = t.actor_named(&format!("N{n}")).expect("the node");
    t.events
        .iter()
        .filter(|e| e.actor == id)
        .map(|e| (e.at_ms, &e.kind))
        .collect()
}

/// Two clients believed they held at once, and B's majority counted N4, whose key of A's the
/// fault had removed.
fn two_holders_through_n4(t: &Trace) {
    let m = metrics(t);
    assert_eq!(m.max_holders, 2, "{m:#?}");
    let b = m
        .acquisitions
        .iter()
        .find(|a| a.client == "B")
        .expect("B acquired");
    assert!(b.ok_nodes.contains(&"N4".to_string()), "{b:?}");
    let a = &m.acquisitions[0];
    assert_eq!(a.client, "A");
    assert!(
        b.acquired_ms < a.valid_until_ms,
        "B acquired while A's validity ran: {a:?} {b:?}"
    );
}

fn live_redlock_restart() {
    let s = agreed("redlock-restart");
    two_holders_through_n4(&s.live);
    let n4 = node_events(&s.live, 4);
    assert!(
        n4.iter().any(|(_, k)| matches!(k, EventKind::Crashed)),
        "{n4:?}"
    );
    assert!(
        n4.iter().any(|(_, k)| matches!(
            k,
            EventKind::Redlock(RedlockEvent::NodeRecovered { kept: None, .. })
        )),
        "{n4:?}"
    );
}

/// The same crash with every node syncing to disk (`appendfsync always`): the real N4 reads
/// A's key back from its append-only file, so B cannot win a majority while A holds.
fn live_redlock_restart_fsync() {
    let s = agreed("redlock-restart-fsync");
    let m = metrics(&s.live);
    assert_eq!(m.max_holders, 1, "{m:#?}");
    assert_eq!(m.two_holders_ms, 0, "{m:#?}");
    let n4 = node_events(&s.live, 4);
    assert!(
        n4.iter().any(|(_, k)| matches!(k, EventKind::Crashed)),
        "{n4:?}"
    );
    // A won its first attempt, so its first release is the real one.
    let a_released = s
        .live
        .events
        .iter()
        .find(|e| {
            e.actor == locklab::engine::world::ActorId(0)
                && matches!(e.kind, EventKind::Redlock(RedlockEvent::ReleaseSent { .. }))
        })
        .map(|e| e.at_ms)
        .expect("A released");
    let b = m
        .acquisitions
        .iter()
        .find(|q| q.client == "B")
        .expect("B gets the lock in the end");
    assert!(
        b.acquired_ms > a_released,
        "B acquired only after A released at {a_released}: {b:?}"
    );
}

fn live_redlock_clock_jump() {
    let s = agreed("redlock-clock-jump");
    two_holders_through_n4(&s.live);
    // The real server expired A's key when its clock jumped, not 10 s after it was set.
    let n4 = node_events(&s.live, 4);
    let jumped = n4
        .iter()
        .find(|(_, k)| matches!(k, EventKind::Redlock(RedlockEvent::ClockJumped { .. })))
        .map(|(at, _)| *at)
        .expect("N4's clock jumped");
    let expired = n4
        .iter()
        .find(|(_, k)| matches!(k, EventKind::Redlock(RedlockEvent::KeyExpired { .. })))
        .map(|(at, _)| *at)
        .expect("A's key expired on N4");
    assert!(
        expired >= jumped && expired < jumped + 500,
        "expired at {expired}, the clock jumped at {jumped}"
    );
}

fn live_redlock_gc_pause() {
    gc_pause_on(default_store());
}

/// The same pause with the resource a key on a sixth Redis, as where PostgreSQL is not
/// installed: the late write is accepted there too.
fn live_redlock_gc_pause_on_a_redis_key() {
    gc_pause_on(Store::Redis);
}

fn gc_pause_on(store: Store) {
    let s = agreed_on("redlock-gc-pause", store);
    let m = metrics(&s.live);
    assert_eq!(m.stale_writes_accepted, 1, "{m:#?}");
    // A's write reached the real resource after its validity had run out while it was stopped.
    let a = &m.acquisitions[0];
    let id = s.live.actor_named("A").expect("A");
    let w = s
        .live
        .writes
        .iter()
        .find(|w| w.writer == id)
        .expect("A wrote");
    assert!(w.accepted && w.at_ms > a.valid_until_ms, "{w:?} {a:?}");
    let froze = s
        .live
        .events
        .iter()
        .any(|e| e.actor == id && e.kind == EventKind::Froze);
    assert!(froze, "A's process was stopped");
}

fn live_redlock_naive_del() {
    let s = agreed("redlock-naive-del");
    let m = metrics(&s.live);
    assert_eq!(m.max_holders, 2, "{m:#?}");
    // B's failed attempt deleted A's key on all five nodes, and A's release then B's.
    assert_eq!(m.foreign_deletes, 10, "{m:#?}");
}

/// A short run with every fault, for the checks that count what is left.
fn short(i: usize) -> RedlockParams {
    let mut p = RedlockParams {
        duration_ms: 400,
        work_ms: 100,
        start_gap_ms: 60,
        retry_ms: 50,
        ttl_ms: 1_000,
        ..RedlockParams::default()
    };
    match i % 4 {
        0 => p.pause_client = Some(0),
        1 => p.crash_node = 4,
        2 if node::fake_clock().is_ok() => p.jump_node = 4,
        _ => p.down = vec![3, 5],
    }
    p.pause_at_ms = 20;
    p.pause_len_ms = 200;
    p.crash_at_ms = 50;
    p.restart_after_ms = 50;
    p.jump_at_ms = 50;
    p.down_until_ms = 100;
    p
}

/// This process's servers and clients still running, by the mark they carry.
fn ours() -> Vec<String> {
    children::left_by(std::process::id())
        .into_iter()
        .filter_map(|pid| {
            let cmd = std::fs::read(format!("/proc/{pid}/cmdline")).ok()?;
            let cmd = String::from_utf8_lossy(&cmd).replace('\0', " ");
            (cmd.contains("redis") || cmd.contains("redlock-client") || cmd.contains("etcd"))
                .then_some(format!("{pid}: {cmd}"))
        })
        .collect()
}

/// Twenty short Redlock runs and, where etcd is installed, twenty short etcd runs, each with
/// one of the faults: after each, no server, client, port or directory of the run is left.
fn twenty_runs_in_a_row_leave_nothing_behind() {
    let _alone = super::alone();
    let with_etcd = locklab::live::etcd::server::installed().is_ok();
    for i in 0..20 {
        let s = redis::story(&short(i), exe(), Store::Redis).expect("a short live run");
        let mut servers = s.servers.clone();
        if with_etcd {
            let p = super::etcd::short(i);
            let g = locklab::live::etcd::run::run(&p, exe()).expect("a short etcd run");
            servers.push(g.server.clone());
        }
        let left = ours();
        assert!(left.is_empty(), "after run {i}: {left:#?}");
        for (addr, dir) in &servers {
            assert!(!dir.exists(), "run {i}: {} was removed", dir.display());
            assert!(
                std::net::TcpStream::connect_timeout(addr, Duration::from_millis(200)).is_err(),
                "run {i}: nothing listens on {addr}"
            );
        }
    }
}

/// The directories named on the command lines of `pids`: a Redis server's `--dir`, etcd's
/// `--data-dir`, or PostgreSQL's data directory (`-D`), for the resource.
fn dirs_of(pids: &[u32]) -> Vec<std::path::PathBuf> {
    pids.iter()
        .filter_map(|pid| {
            let cmd = std::fs::read(format!("/proc/{pid}/cmdline")).ok()?;
            let args: Vec<String> = cmd
                .split(|b| *b == 0)
                .map(|a| String::from_utf8_lossy(a).into_owned())
                .collect();
            let i = args
                .iter()
                .position(|a| a == "--dir" || a == "--data-dir" || a == "-D")?;
            args.get(i + 1).map(std::path::PathBuf::from)
        })
        .collect()
}

/// Starts `locklab live ARGS`, waits for its `clients` client processes (marked `mark` on their
/// command line) and its servers' `dirs` directories, lets the run go on, then kills locklab
/// with SIGKILL: every server and client of it must go, and every directory with them.
fn kill_9_mid_run(args: &[&str], mark: &str, clients: usize, dirs: usize) {
    let mut child = Command::new(exe())
        .args(args)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("locklab starts");
    let of = child.id();
    let until = Instant::now() + Duration::from_secs(20);
    let mut seen = Vec::new();
    while Instant::now() < until {
        seen = children::left_by(of);
        let up = seen
            .iter()
            .filter(|p| {
                std::fs::read(format!("/proc/{p}/cmdline"))
                    .is_ok_and(|c| String::from_utf8_lossy(&c).contains(mark))
            })
            .count();
        if up == clients {
            break;
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    std::thread::sleep(Duration::from_millis(1_500));
    let found = dirs_of(&children::left_by(of));
    assert!(
        found.len() >= dirs,
        "{dirs} servers with a directory each: {found:?} of {seen:?}"
    );
    child.kill().expect("SIGKILL");
    let _ = child.wait();
    let until = Instant::now() + Duration::from_secs(15);
    while Instant::now() < until
        && (!children::left_by(of).is_empty() || found.iter().any(|d| d.exists()))
    {
        std::thread::sleep(Duration::from_millis(100));
    }
    let left = children::left_by(of);
    assert!(left.is_empty(), "left running: {left:?}");
    for d in &found {
        assert!(!d.exists(), "{} was removed", d.display());
    }
}

fn kill_9_of_locklab_mid_run_leaves_nothing_behind() {
    let _side = super::side_by_side();
    // Five nodes and the resource (a PostgreSQL row or a sixth Redis), and the two clients.
    kill_9_mid_run(
        &["live", "redlock", "redlock-gc-pause", "--json"],
        "redlock-client",
        2,
        6,
    );
}

/// The same on etcd: the member, the resource's server where the preset has one, the clients.
fn kill_9_of_locklab_mid_etcd_run_leaves_nothing_behind() {
    let _side = super::side_by_side();
    let with_pg = locklab::live::pg::server::installed().is_ok();
    kill_9_mid_run(
        &["live", "etcd", "etcd-frozen-unfenced", "--json"],
        "etcd-client",
        2,
        if with_pg { 2 } else { 1 },
    );
}

fn a_redis_node_listens_on_loopback_only() {
    let _side = super::side_by_side();
    let n = node::Node::start(None, None).expect("a node starts");
    let port = n.addr.port();
    let addrs = super::listening_addresses(port);
    let dir = n.dir.clone();
    drop(n);
    assert!(!addrs.is_empty(), "something listens on {port}");
    for a in &addrs {
        assert!(
            a == "0100007F" || a == "0000000000000000FFFF00000100007F",
            "port {port} listens on {a}, not 127.0.0.1 alone: {addrs:?}"
        );
    }
    assert!(!dir.exists(), "{} was removed", dir.display());
}

fn a_preset_without_a_live_counterpart_is_refused_with_status_2() {
    let out = Command::new(exe())
        .args(["live", "redlock", "chain"])
        .output()
        .expect("locklab runs");
    assert_eq!(out.status.code(), Some(2));
}

fn without_redis_the_error_names_the_package_to_install() {
    let out = Command::new(exe())
        .args(["live", "redlock", "redlock-restart"])
        .env("PATH", "/nonexistent")
        .output()
        .expect("locklab runs");
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("no Redis server found") && err.contains("apt-get install -y redis-server"),
        "{err}"
    );
}

/// The Redis tests, each ignored with the reason where what it needs is not installed.
pub fn trials() -> Vec<Trial> {
    let with: [(&str, fn(), bool); 7] = [
        (
            "a_redis_node_listens_on_loopback_only",
            a_redis_node_listens_on_loopback_only,
            false,
        ),
        ("live_redlock_restart", live_redlock_restart, false),
        (
            "live_redlock_restart_fsync",
            live_redlock_restart_fsync,
            false,
        ),
        ("live_redlock_gc_pause", live_redlock_gc_pause, false),
        (
            "live_redlock_gc_pause_on_a_redis_key",
            live_redlock_gc_pause_on_a_redis_key,
            false,
        ),
        ("live_redlock_clock_jump", live_redlock_clock_jump, true),
        ("live_redlock_naive_del", live_redlock_naive_del, false),
    ];
    let mut out: Vec<Trial> = with
        .into_iter()
        .map(|(name, f, clock)| {
            Trial::ignorable_test(name, move || -> Result<Completion, Failed> {
                if let Err(e) = node::installed() {
                    return Ok(Completion::ignored_with(e.message));
                }
                if clock && let Err(e) = node::fake_clock() {
                    return Ok(Completion::ignored_with(e.message));
                }
                // Timed live runs take turns: one run's processes would move another's instants.
                let _one = super::serial();
                f();
                Ok(Completion::Completed)
            })
        })
        .collect();
    // These time nothing: they run beside the timed runs, at a lower priority.
    let untimed: [(&str, fn()); 2] = [
        (
            "twenty_redlock_and_etcd_runs_in_a_row_leave_nothing_behind",
            twenty_runs_in_a_row_leave_nothing_behind,
        ),
        (
            "kill_9_of_locklab_mid_redlock_run_leaves_nothing_behind",
            kill_9_of_locklab_mid_run_leaves_nothing_behind,
        ),
    ];
    out.extend(untimed.map(|(name, f)| {
        Trial::ignorable_test(name, move || -> Result<Completion, Failed> {
            if let Err(e) = node::installed() {
                return Ok(Completion::ignored_with(e.message));
            }
            super::untimed(f);
            Ok(Completion::Completed)
        })
    }));
    out.push(Trial::ignorable_test(
        "kill_9_of_locklab_mid_etcd_run_leaves_nothing_behind",
        || -> Result<Completion, Failed> {
            if let Err(e) = locklab::live::etcd::server::installed() {
                return Ok(Completion::ignored_with(e.message));
            }
            super::untimed(kill_9_of_locklab_mid_etcd_run_leaves_nothing_behind);
            Ok(Completion::Completed)
        },
    ));
    out.push(Trial::test(
        "without_redis_the_live_redlock_error_names_the_package_to_install",
        || {
            without_redis_the_error_names_the_package_to_install();
            Ok(())
        },
    ));
    out.push(Trial::test(
        "a_preset_without_a_live_redlock_counterpart_is_refused_with_status_2",
        || {
            a_preset_without_a_live_counterpart_is_refused_with_status_2();
            Ok(())
        },
    ));
    out
}
