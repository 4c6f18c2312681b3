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
        // A task run's instants are story seconds of 200 ms each and every run has a database
        // of its own, so these runs go beside the others rather than taking turns with the
        // ZooKeeper and Redis runs, whose instants are compared to a few milliseconds.
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

/// A statement of the live run as the tests read it.
fn seen(run: &tasks::Run) -> Vec<Seen<'_>> {
    run.statements
        .iter()
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
        .collect()
}

/// `task-skip-locked` on PostgreSQL: three claims at 0 s each take a task of their own with
/// one `FOR UPDATE SKIP LOCKED` statement, none affects 0 rows, B takes task 1 over at 6 s
/// (its lease ran until 5), and A's renewal and completion at its wake affect 0 rows.
fn live_tasks_skip_locked_claims_take_a_row_each_and_none_misses() {
    let p = preset("task-skip-locked");
    let run = tasks::run(&p, db(), SCALE).expect("the live run completes");
    let claims: Vec<(u64, &str, u8, u64, u64)> = run
        .statements
        .iter()
        .filter(|s| s.op == RowOp::Claim)
        .map(|s| {
            (
                s.store_ms,
                s.by.as_str(),
                s.task + 1,
                s.affected,
                s.row.version,
            )
        })
        .collect();
    assert_eq!(
        claims,
        [
            (0, "A", 1, 1, 1),
            (0, "B", 2, 1, 1),
            (0, "C", 3, 1, 1),
            (3_000, "B", 4, 1, 1),
            (6_000, "B", 1, 1, 2),
        ],
        "{:#?}",
        run.statements
    );
    assert!(
        run.statements
            .iter()
            .filter(|s| s.op == RowOp::Claim)
            .all(|s| s.sql.contains("FOR UPDATE SKIP LOCKED"))
    );
    let late: Vec<(u64, RowOp, u64)> = run
        .statements
        .iter()
        .filter(|s| s.by == "A" && s.op != RowOp::Claim)
        .map(|s| (s.store_ms, s.op, s.affected))
        .collect();
    assert_eq!(
        late,
        [(13_000, RowOp::Renew, 0), (13_000, RowOp::Complete, 0)]
    );
    assert_same("task-skip-locked", &p, &run);
}

/// A table of `n` tasks due at 0 on its own database, its clock started: for the tests that
/// run the statements by hand.
fn table(what: &str, n: i32) -> String {
    let name = db().create(what).expect("a database");
    let mut c = db().connect_to(&name).expect("a connection");
    c.batch_execute(tasks::sql::SCHEMA).expect("the schema");
    pg::clock::install(&mut c).expect("the clock");
    for id in 1..=n {
        c.execute(tasks::sql::ADD_TASK, &[&id, &0i64])
            .expect("a task");
    }
    pg::clock::start(&mut c, 1.0, 0, std::time::Duration::ZERO).expect("the clock starts");
    name
}

/// On the real server: while A's claim of task 1 is still uncommitted, B's `SKIP LOCKED` claim
/// takes task 2 at once; the same claim without `SKIP LOCKED` waits for A's row lock (here until
/// its lock timeout).
fn skip_locked_passes_over_a_row_another_claim_holds_where_for_update_waits() {
    let name = table("skiplocked", 3);
    let mut a = db().connect_to(&name).expect("a connection");
    let mut b = db().connect_to(&name).expect("a connection");
    let mut c = db().connect_to(&name).expect("a connection");
    let lease = 30_000i64;
    let mut tx = a.transaction().expect("A's transaction");
    let got: i32 = tx
        .query_one(tasks::sql::CLAIM_NEXT, &[&"A", &lease])
        .expect("A's claim")
        .get(0);
    assert_eq!(got, 1);
    // Were B to wait for A's lock, the test fails instead of hanging.
    b.batch_execute("SET lock_timeout = '5s'")
        .expect("a setting");
    let started = std::time::Instant::now();
    let got: Vec<i32> = b
        .query(tasks::sql::CLAIM_NEXT, &[&"B", &lease])
        .expect("B's claim")
        .iter()
        .map(|r| r.get(0))
        .collect();
    assert_eq!(got, [2], "B passes over the row A holds locked");
    assert!(started.elapsed() < std::time::Duration::from_secs(2));
    let waits = tasks::sql::CLAIM_NEXT.replace(" SKIP LOCKED", "");
    assert_ne!(waits, tasks::sql::CLAIM_NEXT);
    c.batch_execute("SET lock_timeout = '300ms'")
        .expect("a setting");
    let err = c
        .query(waits.as_str(), &[&"C", &lease])
        .expect_err("FOR UPDATE alone waits on A's lock");
    assert_eq!(
        err.code(),
        Some(&postgres::error::SqlState::LOCK_NOT_AVAILABLE),
        "{err}"
    );
    tx.commit().expect("A commits");
    drop((a, b, c));
    db().drop_database(&name);
}

/// On the real server: inside one transaction `now()` stays at the transaction's start while
/// `statement_timestamp()` moves on, and the store's clock read through each follows them.
fn now_is_the_transactions_start_and_statement_timestamp_moves_on() {
    let name = table("clock", 1);
    let mut c = db().connect_to(&name).expect("a connection");
    let mut tx = c.transaction().expect("a transaction");
    let first: (std::time::SystemTime, std::time::SystemTime) = {
        let r = tx
            .query_one("SELECT now(), statement_timestamp()", &[])
            .expect("a reading");
        (r.get(0), r.get(1))
    };
    std::thread::sleep(std::time::Duration::from_millis(1_200));
    let r = tx
        .query_one(
            "SELECT now(), statement_timestamp(), store_txn_now(), store_now()",
            &[],
        )
        .expect("a reading");
    let (now, stmt): (std::time::SystemTime, std::time::SystemTime) = (r.get(0), r.get(1));
    let (txn_ms, stmt_ms): (i64, i64) = (r.get(2), r.get(3));
    assert_eq!(now, first.0, "now() is still the transaction's start");
    let moved = stmt.duration_since(first.1).expect("later");
    assert!(
        moved >= std::time::Duration::from_millis(1_200),
        "{moved:?}"
    );
    assert!(
        stmt_ms > txn_ms,
        "store_now {stmt_ms} after store_txn_now {txn_ms}"
    );
    tx.commit().expect("commit");
    drop(c);
    db().drop_database(&name);
}

/// `task-now-in-transaction` on PostgreSQL: A claims at 100 with a lease until 130 and begins
/// its work's transaction; at its wake, 138, the renewal (its own transaction) affects 0 rows,
/// and the completion in the work's transaction, `lease_until >= now()` with now() still 100,
/// affects 1 row. Read through statement_timestamp() the completion affects 0 rows.
fn live_tasks_now_in_the_works_transaction_completes_after_the_lease() {
    use RowOp::*;
    let p = preset("task-now-in-transaction");
    let run = tasks::run(&p, db(), SCALE).expect("the live run completes");
    assert_eq!(
        seen(&run),
        [
            (100_000, "A", Claim, 1, 1, 1, Some(130_000)),
            (138_000, "A", Renew, 0, 1, 1, Some(130_000)),
            (138_000, "A", Complete, 1, 1, 1, Some(130_000)),
        ],
        "{:#?}",
        run.statements
    );
    assert!(run.statements[2].sql.contains("store_txn_now()"));
    assert_eq!(run.rows[0].state, RowState::Done);
    assert_same("task-now-in-transaction", &p, &run);

    let by_statement = TasksParams {
        completion_clock: locklab::engine::actors::worker::CompletionClock::Statement,
        ..p
    };
    let run = tasks::run(&by_statement, db(), SCALE).expect("the live run completes");
    let completion = run
        .statements
        .iter()
        .find(|s| s.op == Complete)
        .expect("a completion");
    assert_eq!((completion.store_ms, completion.affected), (138_000, 0));
    assert_same("task-now-in-transaction by statement", &by_statement, &run);
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
            "live_tasks_skip_locked_claims_take_a_row_each_and_none_misses",
            live_tasks_skip_locked_claims_take_a_row_each_and_none_misses,
        ),
        needs_postgres(
            "skip_locked_passes_over_a_row_another_claim_holds_where_for_update_waits",
            skip_locked_passes_over_a_row_another_claim_holds_where_for_update_waits,
        ),
        needs_postgres(
            "now_is_the_transactions_start_and_statement_timestamp_moves_on",
            now_is_the_transactions_start_and_statement_timestamp_moves_on,
        ),
        needs_postgres(
            "live_tasks_now_in_the_works_transaction_completes_after_the_lease",
            live_tasks_now_in_the_works_transaction_completes_after_the_lease,
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
