//! Snowflake generators across a crash: the clock that steps back is the machine's, so it steps
//! once, at its instant, whether the process is running, restarting or down; a restarted
//! process acts only on the answer to its own claim for a worker id; and a step back is checked
//! against the clock as it reads at the step.

use crate::common::locklab;
use locklab::engine::families::snowflake;
use locklab::engine::params::knobs::Knobs;
use locklab::engine::params::{OnRollback, SnowflakeParams};
use locklab::engine::trace::snowflake::IdEvent;
use locklab::engine::trace::{EventKind, Trace};
use proptest::prelude::*;

fn gen1(f: impl FnOnce(&mut SnowflakeParams)) -> SnowflakeParams {
    let mut p = SnowflakeParams {
        rate: 1,
        ..SnowflakeParams::default()
    };
    f(&mut p);
    p
}

/// (instant, clock reading) of every ID issued, and the instants the clock stepped back.
fn readings(t: &Trace) -> (Vec<(u64, u64)>, Vec<u64>) {
    let mut issued = Vec::new();
    let mut steps = Vec::new();
    for e in &t.events {
        match e.kind {
            EventKind::Snowflake(IdEvent::Issued { time, .. }) => issued.push((e.at_ms, time)),
            EventKind::Snowflake(IdEvent::ClockSteppedBack { .. }) => steps.push(e.at_ms),
            _ => {}
        }
    }
    (issued, steps)
}

/// The clock the machine shows at run time `t`: its start plus the time gone by, less the step
/// once it has happened.
fn machine_clock(p: &SnowflakeParams, t: u64) -> u64 {
    let stepped = p.rollback_ms > 0 && t >= p.rollback_at_ms;
    p.clock_start + t - if stepped { p.rollback_ms } else { 0 }
}

#[test]
fn a_restart_in_the_rollbacks_millisecond_steps_the_clock_back_once() {
    let p = gen1(|p| {
        p.duration_ms = 7;
        p.rollback_ms = 1;
        p.rollback_at_ms = 3;
        p.crash_generator = 1;
        p.crash_at_ms = 3;
        p.restart_after_ms = 0;
    });
    let (issued, steps) = readings(&snowflake::run(&p));
    assert_eq!(steps, [3]);
    // 995 at 0 ms; one step back of 1 ms at 3 ms.
    assert!(issued.contains(&(3, 997)), "{issued:?}");
    assert_eq!(issued.last(), Some(&(6, 1000)));
}

#[test]
fn a_rollback_while_the_generator_is_down_still_steps_its_clock() {
    let p = gen1(|p| {
        p.duration_ms = 8;
        p.crash_generator = 1;
        p.crash_at_ms = 2;
        p.restart_after_ms = 3;
        p.rollback_ms = 1;
        p.rollback_at_ms = 4;
    });
    let (issued, steps) = readings(&snowflake::run(&p));
    assert_eq!(
        steps,
        [4],
        "the machine's clock steps at 4 ms, process or not"
    );
    assert!(issued.contains(&(5, 999)), "{issued:?}");
}

#[test]
fn a_restarted_generator_waits_for_the_answer_to_its_own_claim() {
    // Claims at 0 ms (the first process) and 2 ms (the restarted one), 3 ms each way: the answer
    // to the first arrives at 6 ms, for a process that no longer exists; the second at 8 ms.
    let p = gen1(|p| {
        p.duration_ms = 12;
        p.worker_leases = true;
        p.delay_ms = 3;
        p.crash_generator = 1;
        p.crash_at_ms = 1;
        p.restart_after_ms = 1;
    });
    let (issued, _) = readings(&snowflake::run(&p));
    assert_eq!(issued.first().map(|i| i.0), Some(8), "{issued:?}");
}

#[test]
fn a_step_back_is_checked_against_the_clock_at_the_step() {
    // Starting at 0, the clock reads 8 ms at 8 ms: a 5 ms step takes it to 3 ms.
    let o = locklab(&[
        "sim",
        "snowflake",
        "--clock-start",
        "0",
        "--rollback",
        "5",
        "--rollback-at",
        "8",
        "--json",
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    let step = v["events"]
        .as_array()
        .unwrap()
        .iter()
        .find(|e| e["event"] == "clock_stepped_back")
        .unwrap();
    assert_eq!((&step["at_ms"], &step["reads"]), (&8.into(), &3.into()));
    // A 9 ms step from 8 ms would go before the epoch: refused, saying why, with status 2.
    let o = locklab(&[
        "sim",
        "snowflake",
        "--clock-start",
        "0",
        "--rollback",
        "9",
        "--rollback-at",
        "8",
    ]);
    assert_eq!(o.status.code(), Some(2));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains("--rollback") && err.contains("before the epoch"),
        "{err}"
    );
}

/// One generator with a crash, a restart and a rollback placed anywhere, often on the same
/// millisecond.
fn crash_and_rollback() -> impl Strategy<Value = SnowflakeParams> {
    (
        (0u64..1_000, 1u32..4, 2u64..25, 0u64..4),
        (0u64..25, 0u64..6, 1u64..12, 0u64..25),
        (0usize..3, any::<bool>(), any::<bool>()),
    )
        .prop_map(
            |((clock, rate, duration, delay), (crash, after, by, at), (rule, wait, leases))| {
                SnowflakeParams {
                    clock_start: clock + by,
                    rate,
                    duration_ms: duration,
                    delay_ms: delay,
                    crash_generator: 1,
                    crash_at_ms: crash,
                    restart_after_ms: after,
                    rollback_ms: by,
                    rollback_at_ms: at,
                    on_rollback: [OnRollback::Ignore, OnRollback::Wait, OnRollback::Refuse][rule],
                    wait_on_start: wait,
                    worker_leases: leases,
                    ..SnowflakeParams::default()
                }
            },
        )
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(1000))]

    /// Every ID carries the machine's clock at its instant, the step is told once, at its
    /// instant, and nothing is issued while the process is down.
    #[test]
    fn the_clock_is_the_machines_whatever_the_process_does(p in crash_and_rollback()) {
        let t = snowflake::run(&p);
        let (issued, steps) = readings(&t);
        for &(at, time) in &issued {
            prop_assert_eq!(time, machine_clock(&p, at), "at {} ms: {:?}", at, p);
            // Work due at the crash's instant comes before it (the documented tie order).
            let down = at > p.crash_at_ms && at < p.crash_at_ms + p.restart_after_ms;
            prop_assert!(!down, "issued at {} ms while down: {:?}", at, p);
        }
        let want: Vec<u64> = (p.rollback_at_ms <= p.duration_ms)
            .then_some(p.rollback_at_ms)
            .into_iter()
            .collect();
        prop_assert_eq!(steps, want, "{:?}", p);
    }

    /// With worker leases, a process issues only once the answer to its own latest claim could
    /// have come back: one delay there, one back.
    #[test]
    fn a_process_issues_only_after_the_answer_to_its_own_claim(p in crash_and_rollback()) {
        let p = SnowflakeParams { worker_leases: true, ..p };
        let t = snowflake::run(&p);
        let mut claimed = None;
        for e in &t.events {
            match e.kind {
                EventKind::Snowflake(IdEvent::WorkerClaimSent { .. }) => claimed = Some(e.at_ms),
                EventKind::Snowflake(IdEvent::Issued { .. }) => {
                    let sent = claimed.expect("a claim before any ID");
                    prop_assert!(
                        e.at_ms >= sent + 2 * p.delay_ms,
                        "issued at {} ms on a claim sent at {} ms: {:?}", e.at_ms, sent, p
                    );
                }
                _ => {}
            }
        }
    }

    /// A step back is refused exactly when it would take the clock, as it reads at the step,
    /// before the epoch.
    #[test]
    fn a_step_back_is_refused_only_before_the_epoch(
        start in 0u64..50, by in 1u64..60, at in 0u64..50,
    ) {
        let p = SnowflakeParams {
            clock_start: start,
            rollback_ms: by,
            rollback_at_ms: at,
            ..SnowflakeParams::default()
        };
        let refused = p.validate().is_err();
        prop_assert_eq!(refused, by > start + at, "{:?}", p);
    }
}
