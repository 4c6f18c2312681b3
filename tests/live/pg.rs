//! The task claims on a real PostgreSQL: `task-t7` as the lesson tells it, every task preset as
//! the model tells it, the fenced row, and a private server that listens on loopback alone and
//! leaves nothing behind.

use std::sync::OnceLock;

use libtest_mimic::{Completion, Failed, Trial};
use locklab::engine::msg::{RowOp, RowState};
use locklab::engine::params::{Params, TasksParams};
use locklab::live::pg::{self, Database, fenced::FencedRow};
use locklab::live::tasks::{self, compare};

/// Story seconds in a fifth of a second each: `task-t7` runs in 12 s, with room for a busy
/// machine's scheduling between the claims of one instant (20 ms apart) and the next second.
const SCALE: f64 = 0.2;

/// One private server for the whole test process; each run makes a database of its own on it,
/// so the tests run at once. The guard removes it when the process ends.
fn db() -> &'static Database {
    static DB: OnceLock<Database> = OnceLock::new();
    DB.get_or_init(|| pg::start().expect("a private PostgreSQL starts"))
}

fn preset(name: &str) -> TasksParams {
    match &locklab::scenario::find(name)
        .expect("a shipped preset")
        .params
    {
        Params::Tasks(p) => p.clone(),
        other => panic!("{name} is not a task preset: {other:?}"),
    }
}

/// A test that needs PostgreSQL, or is ignored, saying why, when it is not installed.
pub fn needs_postgres(name: impl Into<String>, f: impl FnOnce() + Send + 'static) -> Trial {
    Trial::ignorable_test(name, move || -> Result<Completion, Failed> {
        if pg::server::installed().is_err() {
            return Ok(Completion::ignored_with(
                "Debian's postgresql is not installed: apt-get install -y postgresql",
            ));
        }
        // Timed live runs take turns: one run's servers and clients would move another's instants.
        let _one = super::serial();
        f();
        Ok(Completion::Completed)
    })
}

/// A statement as the test reads it: the table's second, who, what, rows, and the row's version,
/// attempt and lease.
type Seen<'a> = (u64, &'a str, RowOp, u64, u64, u32, Option<u64>);

/// The lesson's worked example, on PostgreSQL: A claims T7 at 100 with version 1 and a lease
/// until 130; B's claim at the same moment affects 0 rows; at 131 B takes over with version 2,
/// attempt 2, lease until 161; A wakes at 138 and its renewal and completion under version 1
/// each affect 0 rows. Two payments, both charged: nothing carried a key.
fn live_tasks_t7_takes_over_at_131_and_the_old_workers_statements_affect_0_rows() {
    let p = preset("task-t7");
    let run = tasks::run(&p, db(), SCALE).expect("the live run completes");
    let seen: Vec<Seen> = run
        .statements
        .iter()
        .take(5)
        .map(|s| {
            (
                s.store_ms,
                s.by.as_str(),
                s.op,
                s.affected,
                s.row.version,
                s.row.attempt,
                s.row.lease_until_ms,
            )
        })
        .collect();
    use RowOp::*;
    assert_eq!(
        seen,
        [
            (100_000, "A", Claim, 1, 1, 1, Some(130_000)),
            (100_000, "B", Claim, 0, 1, 1, Some(130_000)),
            (131_000, "B", Claim, 1, 2, 2, Some(161_000)),
            (138_000, "A", Renew, 0, 2, 2, Some(161_000)),
            (138_000, "A", Complete, 0, 2, 2, Some(161_000)),
        ],
        "{:#?}",
        run.statements
    );
    // The old worker's statements carried the version it had been granted.
    assert_eq!(run.statements[3].carried, Some(1));
    assert_eq!(run.statements[4].carried, Some(1));
    let t7 = &run.rows[0];
    assert_eq!(
        (t7.state, t7.result.as_deref()),
        (RowState::Done, Some("B"))
    );
    let charged: Vec<(&str, u32)> = run
        .payments
        .iter()
        .filter(|p| p.charged)
        .map(|p| (p.by.as_str(), p.attempt))
        .collect();
    assert_eq!(charged, [("A", 1), ("B", 2)]);
    assert_same("task-t7", &p, &run);
}

/// Statement for statement and fact for fact, the live run and the model of `name` agree.
fn same_story(name: &'static str) -> impl FnOnce() + Send + 'static {
    move || {
        let p = preset(name);
        let run = tasks::run(&p, db(), SCALE).expect("the live run completes");
        assert_same(name, &p, &run);
    }
}

fn assert_same(name: &str, p: &TasksParams, run: &tasks::Run) {
    {
        let model = locklab::engine::run(&Params::Tasks(p.clone()));
        let pairs = compare::pairs(&model, run, p.store_clock_ms);
        assert!(!pairs.is_empty(), "{name}: the run made statements");
        for (i, pair) in pairs.iter().enumerate() {
            assert!(
                pair.same,
                "{name}: statement {i} differs:\n model {:?}\n live  {:?}",
                pair.model, pair.live
            );
        }
        for f in compare::facts(&model, run) {
            assert!(
                f.same(),
                "{name}: {:?} differs: model {} live {}",
                f.fact,
                f.model,
                f.live
            );
        }
    }
}

/// The key makes the provider recognise the second call: one charge, one repeat.
fn live_tasks_an_idempotency_key_makes_the_second_payment_a_recognised_repeat() {
    let p = TasksParams {
        idempotency_key: true,
        ..preset("task-t7")
    };
    let run = tasks::run(&p, db(), SCALE).expect("the live run completes");
    let calls: Vec<(&str, bool)> = run
        .payments
        .iter()
        .map(|p| (p.by.as_str(), p.charged))
        .collect();
    assert_eq!(calls, [("A", true), ("B", false)], "{:?}", run.payments);
    assert!(
        run.payments
            .iter()
            .all(|p| p.key.as_deref() == Some("task-1"))
    );
}

fn a_fenced_row_takes_only_a_higher_token() {
    let mut row = FencedRow::create(db(), "resource-test").expect("the row");
    assert!(row.write("A", 33).expect("a write"));
    assert!(row.write("B", 34).expect("a write"));
    assert!(
        !row.write("A", 33).expect("a write"),
        "the stale token is refused"
    );
    assert_eq!(row.read().expect("a read"), (34, Some("B".into()), 2));
}

/// Loopback alone, and nothing left once it is dropped: no directory, no process.
fn the_private_postgres_listens_on_loopback_only_and_leaves_nothing_behind() {
    let db = pg::start().expect("a private PostgreSQL starts");
    assert!(db.addr.ip().is_loopback());
    let mut c = db.connect().expect("a connection");
    let listen: String = c
        .query_one("SHOW listen_addresses", &[])
        .expect("a setting")
        .get(0);
    assert_eq!(listen, "127.0.0.1");
    drop(c);
    let dir = db.dir.clone();
    assert!(dir.exists());
    drop(db);
    assert!(!dir.exists(), "{} was removed", dir.display());
    let needle = dir.to_string_lossy().to_string();
    let left = std::fs::read_dir("/proc")
        .into_iter()
        .flatten()
        .flatten()
        .filter_map(|e| std::fs::read(e.path().join("cmdline")).ok())
        .any(|c| String::from_utf8_lossy(&c).contains(&needle));
    assert!(!left, "no process still names {needle}");
}

fn locklab() -> std::process::Command {
    let mut c = std::process::Command::new(env!("CARGO_BIN_EXE_locklab"));
    c.env("LANG", "en_US.UTF-8");
    c
}

/// The private cluster's directory whose server listens on `port`, if one is left.
fn cluster_on(port: u16) -> Option<std::path::PathBuf> {
    std::fs::read_dir(std::env::temp_dir())
        .ok()?
        .flatten()
        .map(|e| e.path())
        .filter(|p| {
            p.file_name()
                .is_some_and(|n| n.to_string_lossy().starts_with("locklab-pg-"))
        })
        .find(|p| {
            // The second line of postmaster.pid is the data directory, the fourth the port.
            std::fs::read_to_string(p.join("data/postmaster.pid"))
                .is_ok_and(|s| s.lines().nth(3) == Some(&port.to_string()))
        })
}

/// Ctrl-C in the middle of a run: the server stops and its directory goes, with locklab.
fn ctrl_c_during_a_task_run_stops_postgres_and_removes_its_directory() {
    use std::io::{BufRead, BufReader};
    let mut child = locklab()
        .args(["live", "tasks", "task-t7", "--time-scale", "0.5"])
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::null())
        .spawn()
        .expect("locklab starts");
    let mut first = String::new();
    BufReader::new(child.stdout.take().expect("its output"))
        .read_line(&mut first)
        .expect("a first line");
    // "PostgreSQL 15.x (...) on 127.0.0.1:PORT (locklab's own, ...)"
    let port: u16 = first
        .split("127.0.0.1:")
        .nth(1)
        .and_then(|r| r.split(' ').next())
        .and_then(|p| p.parse().ok())
        .unwrap_or_else(|| panic!("the server's port in {first:?}"));
    let dir = cluster_on(port).expect("the server's directory while it runs");
    std::thread::sleep(std::time::Duration::from_millis(500));
    let status = std::process::Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .expect("kill runs");
    assert!(status.success());
    let _ = child.wait();
    let until = std::time::Instant::now() + std::time::Duration::from_secs(15);
    while dir.exists() && std::time::Instant::now() < until {
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
    assert!(!dir.exists(), "{} was removed", dir.display());
    assert!(
        std::net::TcpStream::connect(("127.0.0.1", port)).is_err(),
        "nothing listens on {port} any more"
    );
}

/// Input a run cannot take is refused at once with status 2, before any server starts.
fn a_task_run_refuses_a_bad_scale_and_another_familys_preset_with_status_2() {
    for (args, says) in [
        (
            ["live", "tasks", "task-t7", "--time-scale", "0.05"],
            "must be 0.1 to 4",
        ),
        (["live", "tasks", "chain", "--time-scale", "1"], "chain"),
    ] {
        let out = locklab().args(args).output().expect("locklab runs");
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains(says), "{args:?}: {err}");
    }
}

pub fn trials() -> Vec<Trial> {
    let mut v = vec![
        needs_postgres(
            "live_tasks_t7_takes_over_at_131_and_the_old_workers_statements_affect_0_rows",
            live_tasks_t7_takes_over_at_131_and_the_old_workers_statements_affect_0_rows,
        ),
        needs_postgres(
            "live_tasks_an_idempotency_key_makes_the_second_payment_a_recognised_repeat",
            live_tasks_an_idempotency_key_makes_the_second_payment_a_recognised_repeat,
        ),
        needs_postgres(
            "ctrl_c_during_a_task_run_stops_postgres_and_removes_its_directory",
            ctrl_c_during_a_task_run_stops_postgres_and_removes_its_directory,
        ),
        Trial::test(
            "a_task_run_refuses_a_bad_scale_and_another_familys_preset_with_status_2",
            || {
                a_task_run_refuses_a_bad_scale_and_another_familys_preset_with_status_2();
                Ok(())
            },
        ),
        needs_postgres(
            "a_fenced_row_takes_only_a_higher_token",
            a_fenced_row_takes_only_a_higher_token,
        ),
        needs_postgres(
            "the_private_postgres_listens_on_loopback_only_and_leaves_nothing_behind",
            the_private_postgres_listens_on_loopback_only_and_leaves_nothing_behind,
        ),
    ];
    // task-t7 is compared with the model in its own test above.
    for name in ["task-claim", "task-cancel", "task-scanner-stops"] {
        let test = format!(
            "live_tasks_{}_tells_the_models_story",
            name.replace('-', "_")
        );
        v.push(needs_postgres(test, same_story(name)));
    }
    v
}
