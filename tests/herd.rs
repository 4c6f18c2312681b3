//! Herd versus chain: totals counted from simulated watches match the closed forms.

use locklab::engine::params::HerdParams;
use locklab::engine::scenario::herd;

fn run(waiters: u32, fanout: u32) -> locklab::engine::trace::HerdMetrics {
    let p = HerdParams {
        waiters,
        fanout,
        ..HerdParams::default()
    };
    let t = herd::run(&p);
    assert!(
        t.all_invariants_hold(),
        "N={waiters} k={fanout}: {:?}",
        t.invariants
    );
    herd::metrics(&t).unwrap().clone()
}

#[test]
fn the_chain_notifies_n_times() {
    for n in [1, 2, 7, 50, 200] {
        let m = run(n, 1);
        assert_eq!(m.total_notifications, u64::from(n), "N={n}");
        assert_eq!(m.wasted_wakeups, 0);
        assert_eq!(m.rows.len(), n as usize);
        assert!(m.rows.iter().all(|r| r.woken == 1 && r.winner == 1));
    }
}

#[test]
fn the_herd_notifies_n_times_n_plus_one_over_two() {
    for n in [1u32, 2, 7, 50, 200] {
        let m = run(n, n);
        let n64 = u64::from(n);
        assert_eq!(m.total_notifications, n64 * (n64 + 1) / 2, "N={n}");
        assert_eq!(m.wasted_wakeups, n64 * (n64 + 1) / 2 - n64);
        let woken: Vec<u32> = m.rows.iter().map(|r| r.woken).collect();
        assert_eq!(woken, (1..=n).rev().collect::<Vec<_>>());
    }
}

#[test]
fn layered_fanout_wakes_min_k_and_waiters_left() {
    for (n, k) in [(50u32, 5u32), (10, 3), (9, 4)] {
        let m = run(n, k);
        for (i, row) in m.rows.iter().enumerate() {
            let left = n - i as u32;
            assert_eq!(row.woken, k.min(left), "N={n} k={k} release {}", i + 1);
            assert_eq!(row.not_notified, left - row.woken);
        }
        let expected: u64 = (1..=n).map(|left| u64::from(k.min(left))).sum();
        assert_eq!(m.total_notifications, expected);
    }
}

#[test]
fn each_row_lasts_woken_reads_plus_the_hold() {
    let m = run(50, 50);
    // Sum over releases of (woken x 2 ms + 100 ms) = 2 x 1275 + 50 x 100.
    assert_eq!(m.total_time_ms, 2.0 * 1275.0 + 5_000.0);
    assert_eq!(m.rows[0].duration_ms, 50.0 * 2.0 + 100.0);
    let chain = run(50, 1);
    assert_eq!(chain.total_time_ms, 50.0 * 102.0);
}
