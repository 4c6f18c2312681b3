//! Leader election with epochs and a conditional row: the worked example with its own numbers,
//! the unconditional variant, and properties over random pauses.

use locklab::engine::families::election;
use locklab::engine::msg::{RowOp, RowState};
use locklab::engine::params::ElectionParams;
use locklab::engine::trace::{EventKind, SpanState, Trace, invariant};
use rand::{RngExt, SeedableRng, rngs::Xoshiro256PlusPlus};

/// One statement as the table saw it: who, what, rows affected, and the row afterwards
/// (state, owner, epoch, version).
type Update = (String, RowOp, u8, RowState, Option<String>, u64, u64);

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
                t.name(*by).to_string(),
                *op,
                *affected,
                value.state,
                value.owner.map(|o| t.name(o).to_string()),
                value.epoch,
                value.version,
            )),
            _ => None,
        })
        .collect()
}

#[test]
fn b_takes_over_with_27_and_version_4_and_as_late_result_affects_no_row() {
    let t = election::run(&ElectionParams::default());
    let m = election::metrics(&t).unwrap();
    assert_eq!(m.leaders, ["A@26", "B@27"]);
    let done: Vec<_> = updates(&t).into_iter().filter(|u| u.2 == 1).collect();
    assert_eq!(
        done,
        [
            (
                "B".into(),
                RowOp::TakeOver,
                1,
                RowState::Running,
                Some("B".into()),
                27,
                4
            ),
            (
                "B".into(),
                RowOp::Submit,
                1,
                RowState::Done,
                Some("B".into()),
                27,
                5
            ),
        ]
    );
    let a_submit = updates(&t)
        .into_iter()
        .find(|u| u.0 == "A" && u.1 == RowOp::Submit)
        .unwrap();
    assert_eq!(
        a_submit.2, 0,
        "A's submit with epoch 26 and version 3 affects no row"
    );
    assert_eq!(m.result.as_deref(), Some("B"));
    assert_eq!((m.stale_submits_rejected, m.stale_submits_accepted), (1, 0));
    assert!(t.all_invariants_hold());
    // B could not take over before A's lease ran out at 10 s.
    let first_ok = t
        .events
        .iter()
        .find(|e| {
            matches!(
                e.kind,
                EventKind::RowUpdated {
                    op: RowOp::TakeOver,
                    affected: 1,
                    ..
                }
            )
        })
        .unwrap();
    assert!(first_ok.at_ms > 10_000);
    let a = t.lane("A").unwrap();
    assert_eq!(a.spans[0].state, SpanState::Leading { epoch: 26 });
    assert!(matches!(
        a.span_at(5_000).unwrap().state,
        SpanState::Frozen {
            believes_holding: true
        }
    ));
    assert_eq!(a.spans.last().unwrap().state, SpanState::Lost);
}

#[test]
fn an_unconditional_submit_lets_the_old_leaders_result_overwrite_the_new_one() {
    let t = election::run(&ElectionParams {
        conditional: false,
        ..ElectionParams::default()
    });
    let m = election::metrics(&t).unwrap();
    assert_eq!(m.result.as_deref(), Some("A"));
    assert_eq!(m.final_epoch, 26);
    assert_eq!(m.stale_submits_accepted, 1);
    let inv = t.invariant(invariant::EPOCHS_NON_DECREASING).unwrap();
    assert!(inv.first_violation_ms().is_some());
    // The election was never the problem.
    assert!(t.invariant(invariant::ONE_LEADER).unwrap().held);
}

#[test]
fn a_job_the_old_leader_finished_in_time_is_not_taken_over_and_run_again() {
    // A wakes at 6.5 s, inside its lease, and finishes the rollup job before B may take it over.
    let t = election::run(&ElectionParams {
        conditional: false,
        pause_len_ms: 5_500,
        ..ElectionParams::default()
    });
    let m = election::metrics(&t).unwrap();
    assert_eq!(m.result.as_deref(), Some("A"));
    let takeovers: Vec<Update> = updates(&t)
        .into_iter()
        .filter(|u| u.1 == RowOp::TakeOver)
        .collect();
    // B tried while A's lease ran (0 rows); once the row says DONE it stops trying.
    assert!(
        takeovers
            .iter()
            .all(|u| u.2 == 0 && u.3 == RowState::Running),
        "{takeovers:?}"
    );
    let all = updates(&t);
    let done = all.iter().position(|u| u.3 == RowState::Done).unwrap();
    assert!(all[done + 1..].is_empty(), "{:?}", &all[done..]);
}

#[test]
fn conditional_statements_keep_the_newest_epochs_result_whatever_the_pause() {
    let mut broke = false;
    for seed in 0..200 {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
        let p = ElectionParams {
            pause_at_ms: rng.random_range(0..5_000),
            pause_len_ms: rng.random_range(0..30_000),
            a_work_left_ms: rng.random_range(100..10_000),
            work_ms: rng.random_range(100..8_000),
            lease_until_ms: rng.random_range(0..15_000),
            delay_ms: rng.random_range(0..50),
            duration_ms: 40_000,
            ..ElectionParams::default()
        };
        let t = election::run(&p);
        for name in [invariant::ONE_LEADER, invariant::EPOCHS_NON_DECREASING] {
            let inv = t.invariant(name).unwrap();
            assert!(inv.held, "seed {seed}: {name}: {:?}\n{p:?}", inv.detail);
        }
        assert!(t == election::run(&p), "seed {seed}: deterministic");
        let loose = election::run(&ElectionParams {
            conditional: false,
            ..p
        });
        broke |= !loose
            .invariant(invariant::EPOCHS_NON_DECREASING)
            .unwrap()
            .held;
    }
    assert!(
        broke,
        "an unconditional write path lets an old epoch back in for some pause"
    );
}
