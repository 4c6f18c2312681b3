//! Durable task claims: the lesson's worked example with its own numbers, each variant the
//! presets teach, the cancellation race, the scanner that stops, and properties over pauses
//! placed at random and exactly on the instants of a fault-free run.

use locklab::engine::actors::worker::CompleteRule;
use locklab::engine::families::tasks;
use locklab::engine::msg::{RowOp, RowState};
use locklab::engine::params::{Params, TasksParams};
use locklab::engine::trace::{CancelOutcome, EventKind, SpanState, Trace, invariant};
use locklab::i18n::Lang;
use locklab::scenario;
use locklab::scenario::answers;
use rand::{RngExt, SeedableRng, rngs::Xoshiro256PlusPlus};

/// One statement as the table saw it: when, who, what, rows affected, and the row's state,
/// owner and version afterwards.
type Update = (u64, String, RowOp, u8, RowState, Option<String>, u64);

fn updates(t: &Trace) -> Vec<Update> {
    t.events
        .iter()
        .filter_map(|e| match &e.kind {
            EventKind::RowUpdated {
                by,
                op,
                affected,
                value,
                ..
            } => Some((
                e.at_ms,
                t.name(*by).to_string(),
                *op,
                *affected,
                value.state,
                value.owner.map(|o| t.name(o).to_string()),
                value.version,
            )),
            _ => None,
        })
        .collect()
}

/// A statement on the store's clock: when, who, what, rows affected, then the row's version,
/// attempt and lease.
type StoreUpdate = (u64, String, RowOp, u8, u64, u32, Option<u64>);

fn u(
    at: u64,
    by: &str,
    op: RowOp,
    affected: u8,
    state: RowState,
    owner: &str,
    version: u64,
) -> Update {
    (
        at,
        by.into(),
        op,
        affected,
        state,
        Some(owner.into()),
        version,
    )
}

fn claims(t: &Trace) -> Vec<String> {
    tasks::metrics(t)
        .unwrap()
        .claims
        .iter()
        .map(|c| format!("{} v{}", c.worker, c.version))
        .collect()
}

#[test]
fn the_worked_example_b_takes_over_at_42_and_as_late_statements_affect_no_row() {
    use RowOp::*;
    use RowState::*;
    let t = tasks::run(&TasksParams::default());
    assert_eq!(
        updates(&t),
        [
            u(0, "A", Claim, 1, Running, "A", 1),
            u(0, "B", Claim, 0, Running, "A", 1),
            u(10_000, "A", Renew, 1, Running, "A", 1),
            u(42_000, "B", Claim, 1, Running, "B", 2),
            u(52_000, "B", Renew, 1, Running, "B", 2),
            u(55_000, "B", Complete, 1, Done, "B", 2),
            u(57_000, "A", Complete, 0, Done, "B", 2),
            u(57_000, "A", Renew, 0, Done, "B", 2),
        ]
    );
    let m = tasks::metrics(&t).unwrap();
    assert_eq!(claims(&t), ["A v1", "B v2"]);
    assert_eq!((m.final_attempt, m.result.as_deref()), (2, Some("B")));
    assert_eq!((m.late_refused, m.late_accepted), (2, 0));
    assert_eq!(m.max_believers, 2, "frozen A still believes while B holds");
    // The row is safe; the provider is not.
    assert_eq!((m.effects_applied, m.effects_deduplicated), (2, 0));
    let once = t.invariant(invariant::EFFECT_ONCE).unwrap();
    assert_eq!(
        once.first_violation_ms(),
        Some(53_000),
        "B's charge lands at 53 s"
    );
    assert!(t.invariant(invariant::NO_STALE_COMPLETION).unwrap().held);
    // A's lane: claimed, then frozen believing it holds version 1 from 12 s to 57 s.
    let a = &t.lanes[0];
    assert!(matches!(
        a.span_at(5_000).unwrap().state,
        SpanState::Claimed {
            version: 1,
            attempt: 1
        }
    ));
    assert_eq!(
        a.span_at(30_000).unwrap().state,
        SpanState::Frozen {
            believes_holding: true
        }
    );
    assert_eq!(
        answers::claim_at(&t, 30_000, Lang::En),
        "A (claim version 1)",
        "the table still names A while A is frozen"
    );
}

#[test]
fn a_stable_idempotency_key_turns_the_second_charge_into_a_repeat() {
    let t = tasks::run(&TasksParams {
        idempotency_key: true,
        ..TasksParams::default()
    });
    let m = tasks::metrics(&t).unwrap();
    assert_eq!((m.effects_applied, m.effects_deduplicated), (1, 1));
    assert!(t.invariant(invariant::EFFECT_ONCE).unwrap().held);
}

#[test]
fn an_unconditional_completion_lets_the_old_claim_overwrite_the_new_owners_result() {
    let t = tasks::run(&TasksParams {
        complete: CompleteRule::Unconditional,
        ..TasksParams::default()
    });
    let m = tasks::metrics(&t).unwrap();
    assert_eq!(m.result.as_deref(), Some("A"));
    assert_eq!(
        (m.late_refused, m.late_accepted),
        (1, 1),
        "the renewal still fails"
    );
    let inv = t.invariant(invariant::NO_STALE_COMPLETION).unwrap();
    assert_eq!(inv.first_violation_ms(), Some(57_000));
}

#[test]
fn waking_after_the_lapse_but_before_the_takeover_the_version_alone_accepts_the_completion() {
    // A wakes at 41 s: its lease ran out at 40 s and B's next scan is at 42 s.
    let early = TasksParams {
        pause_len_ms: 29_000,
        ..TasksParams::default()
    };
    let t = tasks::run(&early);
    let m = tasks::metrics(&t).unwrap();
    assert_eq!(claims(&t), ["A v1"]);
    assert_eq!((m.result.as_deref(), m.effects_applied), (Some("A"), 1));
    // Requiring a live lease refuses it. A's scan overdue since 12 s runs at the wake after that
    // refusal and claims the task again at 41 s, before B's scan at 42 s: A redoes the work,
    // charging again.
    let strict = tasks::run(&TasksParams {
        complete: CompleteRule::VersionAndLease,
        ..early
    });
    let m = tasks::metrics(&strict).unwrap();
    assert_eq!(claims(&strict), ["A v1", "A v2"]);
    assert_eq!((m.result.as_deref(), m.effects_applied), (Some("A"), 2));
}

fn cancel_at(ms: u64) -> Trace {
    tasks::run(&TasksParams {
        workers: 1,
        pause_len_ms: 0,
        cancel: true,
        scan_start_ms: 1_000,
        cancel_at_ms: ms,
        check_cancel: true,
        ..TasksParams::default()
    })
}

#[test]
fn cancel_and_claim_race_for_one_transition_and_the_loser_learns_it_from_zero_rows() {
    let first = cancel_at(500);
    let m = tasks::metrics(&first).unwrap();
    assert_eq!(m.cancel, Some(CancelOutcome::CancelledBeforeRun));
    assert_eq!((m.claims.len(), m.effects_applied), (0, 0));
    assert_eq!(m.final_state, RowState::Cancelled);

    let backed_out = cancel_at(5_000);
    let m = tasks::metrics(&backed_out).unwrap();
    assert_eq!(m.cancel, Some(CancelOutcome::BackedOut));
    assert_eq!((m.effects_applied, m.final_state), (0, RowState::Cancelled));
    assert!(
        backed_out
            .events
            .iter()
            .any(|e| e.kind == EventKind::CancelSeen)
    );

    let late = cancel_at(13_000);
    let m = tasks::metrics(&late).unwrap();
    assert_eq!(m.cancel, Some(CancelOutcome::RequestedTooLate));
    assert_eq!((m.effects_applied, m.final_state), (1, RowState::Done));

    // A worker that never looks at the request goes ahead even when asked in good time.
    let blind = tasks::run(&TasksParams {
        workers: 1,
        pause_len_ms: 0,
        cancel: true,
        scan_start_ms: 1_000,
        cancel_at_ms: 5_000,
        check_cancel: false,
        ..TasksParams::default()
    });
    let m = tasks::metrics(&blind).unwrap();
    assert_eq!(m.cancel, Some(CancelOutcome::RequestedTooLate));
    assert_eq!(m.effects_applied, 1);
}

fn scanner(catch_in_body: bool) -> Trace {
    tasks::run(&TasksParams {
        workers: 1,
        tasks: 6,
        task_every_ms: 8_000,
        scan_every_ms: 5_000,
        work_ms: 2_000,
        effect: false,
        poison_task: 3,
        catch_in_body,
        pause_len_ms: 0,
        duration_ms: 60_000,
        ..TasksParams::default()
    })
}

#[test]
fn an_uncaught_exception_ends_the_periodic_scan_and_the_backlog_ages() {
    let t = scanner(false);
    let m = tasks::metrics(&t).unwrap();
    assert_eq!(m.scanner_stopped_at_ms, Some(20_000));
    assert_eq!((m.tasks_done, m.tasks_failed, m.tasks_waiting), (2, 0, 4));
    // Task 3 fell due at 16 s and is still RUNNING under a lease nobody will take over.
    assert_eq!(m.oldest_due_age_ms, Some(44_000));
    let inv = t.invariant(invariant::SCANNER_ALIVE).unwrap();
    assert_eq!(inv.first_violation_ms(), Some(20_000));
    assert_eq!(
        t.lanes[0].spans.last().unwrap().state,
        SpanState::ScannerStopped
    );

    let caught = scanner(true);
    let m = tasks::metrics(&caught).unwrap();
    assert_eq!((m.tasks_done, m.tasks_failed, m.tasks_waiting), (5, 1, 0));
    assert_eq!((m.scanner_stopped_at_ms, m.oldest_due_age_ms), (None, None));
    assert!(caught.invariant(invariant::SCANNER_ALIVE).unwrap().held);
}

fn preset(name: &str) -> TasksParams {
    match &scenario::find(name).unwrap().params {
        Params::Tasks(p) => p.clone(),
        other => panic!("{name}: {other:?}"),
    }
}

/// Three workers claim four tasks at once with `FOR UPDATE SKIP LOCKED`, worked by hand from
/// the preset's numbers (lease 5 s, renewal every 2 s, work 2.5 s, scans every second, A paused
/// from 1 s to 13 s): each claim takes the first free row, so at 0 s A, B and C get tasks 1, 2
/// and 3, at 3 s B gets task 4 and C's claim finds nothing, and at 6 s (task 1's lease ran out
/// after 5 s) B takes task 1 over; A's two statements at its wake affect 0 rows. No claim
/// statement misses. Scanning first and claiming by id, the same story misses five times: B once
/// and C twice at 0 s, C at 3 s and at 6 s.
#[test]
fn skip_locked_claims_never_miss_and_the_lease_still_decides_the_takeover() {
    use RowOp::*;
    use RowState::*;
    let t = tasks::run(&preset("task-skip-locked"));
    let claims: Vec<(u64, String, u8, u64)> = t
        .events
        .iter()
        .filter_map(|e| match &e.kind {
            EventKind::RowUpdated {
                row,
                by,
                op: Claim,
                affected,
                value,
                ..
            } => Some((
                e.at_ms,
                t.name(*by).to_string(),
                row + 10 * affected,
                value.version,
            )),
            _ => None,
        })
        .collect();
    // Task number + 10 when the claim took the row.
    let took = |at: u64, by: &str, task: u8, v: u64| (at, by.to_string(), task - 1 + 10, v);
    assert_eq!(
        claims,
        [
            took(0, "A", 1, 1),
            took(0, "B", 2, 1),
            took(0, "C", 3, 1),
            took(3_000, "B", 4, 1),
            took(6_000, "B", 1, 2),
        ]
    );
    let late: Vec<Update> = updates(&t)
        .into_iter()
        .filter(|x| x.1 == "A" && x.0 > 1_000)
        .collect();
    assert_eq!(
        late,
        [
            u(13_000, "A", Renew, 0, Done, "B", 2),
            u(13_000, "A", Complete, 0, Done, "B", 2),
        ]
    );
    let m = tasks::metrics(&t).unwrap();
    assert_eq!(
        (
            m.claims_missed,
            m.late_refused,
            m.tasks_done,
            m.max_believers
        ),
        (0, 2, 4, 2)
    );

    let scanned = tasks::run(&TasksParams {
        claim: locklab::engine::actors::worker::ClaimRule::Conditional,
        ..preset("task-skip-locked")
    });
    let missed: Vec<(u64, String, u8)> = updates(&scanned)
        .iter()
        .filter(|x| x.2 == Claim && x.3 == 0)
        .map(|x| (x.0, x.1.clone(), 0))
        .collect();
    let at = |ms: u64, by: &str| (ms, by.to_string(), 0);
    assert_eq!(
        missed,
        [
            at(0, "B"),
            at(0, "C"),
            at(0, "C"),
            at(3_000, "C"),
            at(6_000, "C")
        ]
    );
    assert_eq!(tasks::metrics(&scanned).unwrap().claims_missed, 5);
}

/// PostgreSQL's `now()` is the transaction's start. A claims at 100 (lease until 130) and its
/// work's transaction begins then; it pauses from 108 to 138. Its renewal, a transaction of its
/// own, reads 138 and affects 0 rows; its completion, in the work's transaction, reads 100, so
/// `lease_until >= now()` holds and the task is marked DONE 8 s after the lease lapsed. Read
/// with `statement_timestamp()` the completion reads 138 and affects 0 rows.
#[test]
fn now_in_the_works_transaction_lets_a_completion_through_after_the_lease() {
    use RowOp::*;
    use RowState::*;
    let p = preset("task-now-in-transaction");
    let t = tasks::run(&p);
    assert_eq!(
        updates(&t),
        [
            u(0, "A", Claim, 1, Running, "A", 1),
            u(38_000, "A", Renew, 0, Running, "A", 1),
            u(38_000, "A", Complete, 1, Done, "A", 1),
        ]
    );
    let m = tasks::metrics(&t).unwrap();
    assert_eq!((m.completed_after_lease, m.final_state), (1, Done));

    let by_statement = tasks::run(&TasksParams {
        completion_clock: locklab::engine::actors::worker::CompletionClock::Statement,
        ..p
    });
    assert_eq!(
        updates(&by_statement),
        [
            u(0, "A", Claim, 1, Running, "A", 1),
            u(38_000, "A", Renew, 0, Running, "A", 1),
            u(38_000, "A", Complete, 0, Running, "A", 1),
            // The scan it owes from the pause takes the lapsed task again.
            u(38_000, "A", Claim, 1, Running, "A", 2),
        ]
    );
    assert_eq!(
        tasks::metrics(&by_statement).unwrap().completed_after_lease,
        0
    );
}

/// Every question each task preset's script asks, with the engine's answer as shown.
#[test]
fn the_task_presets_scripts_get_the_answers_their_captions_tell() {
    let expect: [(&str, &[&str]); 6] = [
        (
            "task-claim",
            &[
                "A (claim version 1)",
                "A (claim version 1)",
                "B (claim version 2)",
                "2",
                "2",
                "1",
                "A",
            ],
        ),
        (
            "task-cancel",
            &[
                "cancel won: the task never ran",
                "the claim won; the worker saw the request before its outside call and backed out",
                "1",
            ],
        ),
        ("task-scanner-stops", &["4", "0"]),
        (
            "task-t7",
            &[
                "A (claim version 1)",
                "A (claim version 1)",
                "B (claim version 2)",
                "2",
                "2",
                "1",
            ],
        ),
        ("task-skip-locked", &["2", "0", "5"]),
        ("task-now-in-transaction", &["1", "0"]),
    ];
    for (name, answers) in expect {
        let p = scenario::find(name).unwrap();
        let got: Vec<String> = p
            .script
            .iter()
            .filter_map(|step| {
                let q = step.question.as_ref()?;
                let t = locklab::engine::run(&step.params);
                Some(answers::answer(
                    q.ask,
                    &t,
                    step.at_ms.unwrap_or(0),
                    Lang::En,
                ))
            })
            .collect();
        assert_eq!(got, answers, "{name}");
        assert!(matches!(p.params, Params::Tasks(_)), "{name}");
    }
}

fn random_params(rng: &mut Xoshiro256PlusPlus) -> TasksParams {
    let lease = rng.random_range(2_000..40_000);
    TasksParams {
        workers: rng.random_range(2..=3),
        lease_ms: lease,
        renew_every_ms: rng.random_range(500..lease),
        scan_every_ms: rng.random_range(500..6_000),
        work_ms: rng.random_range(0..30_000),
        effect_after_ms: rng.random_range(0..20_000),
        pause_at_ms: rng.random_range(0..30_000),
        pause_len_ms: rng.random_range(0..60_000),
        delay_ms: rng.random_range(0..200),
        stop_on_loss: rng.random_bool(0.5),
        duration_ms: 90_000,
        ..TasksParams::default()
    }
}

/// What must hold whatever the timing: the version keeps overtaken completions out, a stable key
/// keeps the effect to one, and the same parameters give the same trace.
fn check_safe(p: &TasksParams, label: &str) {
    let t = tasks::run(p);
    let inv = t.invariant(invariant::NO_STALE_COMPLETION).unwrap();
    assert!(inv.held, "{label}: {:?}\n{p:?}", inv.detail);
    let m = tasks::metrics(&t).unwrap();
    for w in m.claims.windows(2) {
        assert!(w[0].version < w[1].version, "{label}: versions only grow");
    }
    let keyed = tasks::run(&TasksParams {
        idempotency_key: true,
        ..p.clone()
    });
    let inv = keyed.invariant(invariant::EFFECT_ONCE).unwrap();
    assert!(inv.held, "{label}: keyed: {:?}\n{p:?}", inv.detail);
    assert!(t == tasks::run(p), "{label}: deterministic");
}

#[test]
fn the_claim_version_keeps_overtaken_completions_out_whatever_the_pause() {
    let mut duplicated = false;
    let mut overwritten = false;
    for seed in 0..200 {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
        let p = random_params(&mut rng);
        check_safe(&p, &format!("seed {seed}"));
        let t = tasks::run(&p);
        duplicated |= !t.invariant(invariant::EFFECT_ONCE).unwrap().held;
        let loose = tasks::run(&TasksParams {
            complete: CompleteRule::Unconditional,
            ..p
        });
        overwritten |= !loose
            .invariant(invariant::NO_STALE_COMPLETION)
            .unwrap()
            .held;
    }
    assert!(duplicated, "without a key some pause charges twice");
    assert!(
        overwritten,
        "an unconditional completion lets some old claim in"
    );
}

#[test]
fn a_pause_starting_exactly_on_each_instant_of_the_fault_free_run_stays_safe() {
    let quiet = tasks::run(&TasksParams {
        pause_len_ms: 0,
        ..TasksParams::default()
    });
    let mut instants: Vec<u64> = quiet.events.iter().map(|e| e.at_ms).collect();
    instants.extend(quiet.messages.iter().map(|m| m.sent_ms));
    instants.sort_unstable();
    instants.dedup();
    assert!(instants.len() > 10);
    for at in instants {
        for len in [1, 30_000, 45_000] {
            let p = TasksParams {
                pause_at_ms: at,
                pause_len_ms: len,
                ..TasksParams::default()
            };
            check_safe(&p, &format!("pause at {at} for {len}"));
        }
    }
}

#[test]
fn task_t7_a_claims_until_130_b_takes_over_at_131_and_as_payment_is_already_a_duplicate() {
    use RowOp::*;
    use RowState::*;
    let p = match &scenario::find("task-t7").unwrap().params {
        Params::Tasks(p) => p.clone(),
        other => panic!("{other:?}"),
    };
    let t = tasks::run(&p);
    // Run time 0 is 100 on the store's clock.
    let rows: Vec<StoreUpdate> = t
        .events
        .iter()
        .filter_map(|e| match &e.kind {
            EventKind::RowUpdated {
                by,
                op,
                affected,
                value,
                ..
            } => Some((
                e.at_ms + 100_000,
                t.name(*by).to_string(),
                *op,
                *affected,
                value.version,
                value.attempt,
                value.lease_until_ms,
            )),
            _ => None,
        })
        .take(5)
        .collect();
    let r = |at, by: &str, op, n, v, a, until| (at, by.to_string(), op, n, v, a, Some(until));
    assert_eq!(
        rows,
        [
            r(100_000, "A", Claim, 1, 1, 1, 130_000),
            r(100_000, "B", Claim, 0, 1, 1, 130_000),
            r(131_000, "B", Claim, 1, 2, 2, 161_000),
            r(138_000, "A", Renew, 0, 2, 2, 161_000),
            r(138_000, "A", Complete, 0, 2, 2, 161_000),
        ]
    );
    let m = tasks::metrics(&t).unwrap();
    assert_eq!((m.final_state, m.result.as_deref()), (Done, Some("B")));
    assert_eq!(m.late_refused, 2);
    assert_eq!(m.effects_applied, 2, "A's payment at 105 is not undone");
    assert_eq!(
        answers::claim_at(&t, 30_000, Lang::En),
        "A (claim version 1)"
    );
    assert_eq!(
        answers::claim_at(&t, 31_000, Lang::En),
        "B (claim version 2)"
    );
}

/// When a claim took the task (a claim statement that affected its row).
fn claim_instants(t: &Trace) -> Vec<u64> {
    updates(t)
        .into_iter()
        .filter(|u| u.2 == RowOp::Claim && u.3 == 1)
        .map(|u| u.0)
        .collect()
}

/// When worker `who` sent its scans.
fn scans(t: &Trace, who: &str) -> Vec<u64> {
    let id = t.actor_named(who).unwrap();
    t.messages
        .iter()
        .filter(|m| m.from == id && m.msg == locklab::engine::msg::ActorMsg::RowScan)
        .map(|m| m.sent_ms)
        .collect()
}

#[test]
fn after_a_pause_the_scanner_keeps_its_fixed_rate_grid() {
    // A is frozen from 1 s to 31 s. Its scanner is on the grid 2 + 0.7·k s: the overdue scan
    // runs at the wake, and the next ones stay on that grid, as `scheduleAtFixedRate` keeps
    // them. B claims at 2.0 s; A at 37.7 s (2 + 0.7·51), B at 53.1 s, A at 68.5 s (2 + 0.7·95).
    let t = tasks::run(&TasksParams {
        workers: 2,
        scan_start_ms: 2_000,
        scan_every_ms: 700,
        lease_ms: 15_000,
        renew_every_ms: 60_000,
        work_ms: 20_000,
        effect_after_ms: 2_000,
        idempotency_key: true,
        complete: CompleteRule::VersionAndLease,
        pause_at_ms: 1_000,
        pause_len_ms: 30_000,
        duration_ms: 70_000,
        ..TasksParams::default()
    });
    let at = claim_instants(&t);
    assert_eq!(at, [2_000, 22_300, 37_700, 53_100, 68_500]);
    let a = scans(&t, "A");
    assert_eq!(a[..3], [31_000, 31_400, 32_100], "the wake, then the grid");
}

#[test]
fn a_worker_that_learns_its_claim_is_gone_at_the_wake_scans_again_at_the_wake() {
    // A claims at 0 s (table clock 100 s, lease until 105 s) and is frozen from 3 s to 48 s. At
    // the wake its overdue renewal and completion affect no row, and the overdue scan runs
    // after them, at 48 s, not on the next grid point (49 s): it claims the task again.
    let t = tasks::run(&TasksParams {
        workers: 1,
        store_clock_ms: 100_000,
        scan_every_ms: 1_000,
        lease_ms: 5_000,
        work_ms: 13_000,
        effect_after_ms: 12_000,
        complete: CompleteRule::VersionAndLease,
        pause_at_ms: 3_000,
        pause_len_ms: 45_000,
        ..TasksParams::default()
    });
    let at = claim_instants(&t);
    assert_eq!(at[..2], [0, 48_000]);
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(300))]

    /// A worker scans only on its grid, `scan_start + k·scan_every`, or at the instant it wakes
    /// from its pause, when the scans it missed fold into one.
    #[test]
    fn a_paused_scanner_scans_on_its_grid_or_at_the_wake(seed in 0u64..100_000, start in 0u64..5_000) {
        let mut p = random_params(&mut Xoshiro256PlusPlus::seed_from_u64(seed));
        p.scan_start_ms = start;
        let t = tasks::run(&p);
        let wake = p.pause_at_ms + p.pause_len_ms;
        let a = scans(&t, "A");
        for &s in &a {
            let on_grid = s >= start && (s - start) % p.scan_every_ms == 0;
            proptest::prop_assert!(on_grid || (p.pause_len_ms > 0 && s == wake), "A scans at {} ms: {:?}", s, p);
        }
        let at_wake = a.iter().filter(|&&s| s == wake).count();
        proptest::prop_assert!(at_wake <= 1, "{} scans at the wake: {:?}", at_wake, p);
    }
}
