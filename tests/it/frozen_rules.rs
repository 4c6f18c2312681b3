//! The frozen-holder rules, checked on cases worked out by hand (see docs/src/model/frozen.md, rule by rule).

use locklab::engine::families::frozen;
use locklab::engine::params::FrozenParams;
use locklab::engine::trace::{EventKind, SpanState, Verdict, WindowKind};

fn params(f: impl FnOnce(&mut FrozenParams)) -> FrozenParams {
    let mut p = FrozenParams::default();
    f(&mut p);
    p
}

fn set(p: &mut FrozenParams, key: &str, secs: f64) {
    p.set(key, secs).expect("in range");
}

#[test]
fn defaults_expire_at_19_and_the_stale_write_is_rejected() {
    // Keepalives at 3, 6, 9 s leave the deadline at 19 s. The tick at 12 s is frozen, as are 15,
    // 18, 21 and 24 s. B's request at 19 s finds the lock free (expiry comes first), B writes at
    // 21 s with token 2. A wakes at 26 s, its merged keepalive is refused, and its critical
    // section ends at 24 + 14 = 38 s, when its write with token 1 is rejected.
    let t = frozen::run(&FrozenParams::default());
    let m = frozen::metrics(&t).unwrap();
    assert_eq!(m.lease_expiry, Some(19.0));
    assert_eq!(m.successor_acquire, Some(19.0));
    assert_eq!(m.handover_delay, Some(0.0));
    assert_eq!(m.holder_write_arrival, Some(38.0));
    assert_eq!(m.holder_write_accepted, Some(false));
    assert_eq!(m.danger_window, 19.0);
    assert_eq!(m.verdict, Verdict::StaleWriteRejected);
    assert_eq!(m.final_value.as_deref(), Some("B"));
    assert_eq!(m.last_seen_token, 2);
    assert!(t.all_invariants_hold());

    let sent: Vec<(u64, u32)> = t
        .events
        .iter()
        .filter_map(|e| match e.kind {
            EventKind::KeepaliveSent { merged } => Some((e.at_ms, merged)),
            _ => None,
        })
        .collect();
    assert_eq!(
        sent,
        [(3_000, 1), (6_000, 1), (9_000, 1), (26_000, 5)],
        "12..24 merge into one"
    );
    let learned = t
        .events
        .iter()
        .find(|e| e.kind == EventKind::LearnedLeaseLost)
        .unwrap();
    assert_eq!(learned.at_ms, 26_000);

    let a = t.lane("A").unwrap();
    assert_eq!(
        a.span_at(11_999).unwrap().state,
        SpanState::Holding { token: 1 }
    );
    assert_eq!(
        a.span_at(20_000).unwrap().state,
        SpanState::Frozen {
            believes_holding: true
        }
    );
    assert_eq!(a.span_at(30_000).unwrap().state, SpanState::Lost);
    let service = t.lane("service").unwrap();
    let holder = |at| match service.span_at(at).unwrap().state {
        SpanState::Leased { holder, token } => (t.name(holder).to_string(), token),
        other => panic!("{other:?}"),
    };
    assert_eq!(holder(18_999), ("A".into(), 1));
    assert_eq!(holder(19_000), ("B".into(), 2));
    // The danger window is carried by the trace, not worked out by a view.
    let w = t.window(WindowKind::Danger).unwrap();
    assert_eq!((w.from_ms, w.to_ms), (19_000, 38_000));
    assert_eq!(m.last_keepalive_before_pause, Some(9.0));
    let a_write = t.writes.iter().find(|w| t.name(w.writer) == "A").unwrap();
    assert_eq!((a_write.last_seen_before, a_write.last_seen_after), (2, 2));
}

#[test]
fn without_fencing_the_stale_write_overwrites_b() {
    let t = frozen::run(&params(|p| p.fencing = false));
    let m = frozen::metrics(&t).unwrap();
    assert_eq!(m.verdict, Verdict::Corruption);
    assert_eq!(m.holder_write_accepted, Some(true));
    assert_eq!(m.final_value.as_deref(), Some("A"));
    assert_eq!(m.last_seen_token, 2);
    let tokens = t
        .invariants
        .iter()
        .find(|i| i.name == "tokens_non_decreasing")
        .unwrap();
    assert_eq!(
        tokens.first_violation_ms(),
        Some(38_000),
        "token 1 accepted after token 2"
    );
}

#[test]
fn stop_on_loss_abandons_the_write() {
    let t = frozen::run(&params(|p| p.stop_on_loss = true));
    let m = frozen::metrics(&t).unwrap();
    assert_eq!(m.verdict, Verdict::HolderStopped);
    assert_eq!(m.holder_write_arrival, None);
    assert_eq!(m.holder_write_accepted, None);
    assert_eq!(m.danger_window, 0.0);
    assert_eq!(m.final_value.as_deref(), Some("B"));
}

#[test]
fn a_pause_the_lease_absorbs_is_no_incident() {
    // Pause [12, 17): the merged keepalive at 17 s beats the 19 s deadline. The critical section
    // ends at 29 s; A writes and releases, and B's request at 29 s is granted after the release.
    let t = frozen::run(&params(|p| set(p, "pause_len", 5.0)));
    let m = frozen::metrics(&t).unwrap();
    assert_eq!(m.verdict, Verdict::NoIncident);
    assert_eq!(m.lease_expiry, None);
    assert_eq!(m.successor_acquire, Some(29.0));
    assert_eq!(m.handover_delay, None);
    assert_eq!(m.holder_write_arrival, Some(29.0));
    assert_eq!(m.holder_write_accepted, Some(true));
    assert_eq!(m.final_value.as_deref(), Some("B"));
}

#[test]
fn an_early_stale_write_gets_in_even_with_fencing() {
    // Keepalive every 1 s, TTL 4.5 s: the last renewal at 22 s sets the deadline to 26.5 s.
    // A is frozen [23, 27); B is granted at 27 s and writes at 29 s. A's critical section ends at
    // 24 + 4 = 28 s: its token 1 is the largest the resource has seen, so it is accepted.
    let t = frozen::run(&params(|p| {
        set(p, "ttl", 4.5);
        set(p, "keepalive", 1.0);
        set(p, "pause_start", 23.0);
        set(p, "pause_len", 4.0);
    }));
    let m = frozen::metrics(&t).unwrap();
    assert_eq!(m.lease_expiry, Some(26.5));
    assert_eq!(m.successor_acquire, Some(27.0));
    assert_eq!(m.handover_delay, Some(0.5));
    assert_eq!(m.holder_write_arrival, Some(28.0));
    assert_eq!(m.danger_window, 1.5);
    assert_eq!(m.verdict, Verdict::StaleWriteAccepted);
    assert_eq!(m.final_value.as_deref(), Some("B"));
    assert!(t.all_invariants_hold(), "ordering held: tokens 1 then 2");
}

#[test]
fn a_write_that_would_land_after_the_run_is_unresolved() {
    // Frozen [20, 40): the critical section would end at 44 s, after the run.
    let t = frozen::run(&params(|p| {
        set(p, "pause_start", 20.0);
        set(p, "pause_len", 20.0);
    }));
    let m = frozen::metrics(&t).unwrap();
    assert_eq!(m.lease_expiry, Some(28.0));
    assert_eq!(m.successor_acquire, Some(28.0));
    assert_eq!(m.verdict, Verdict::Unresolved);
    assert_eq!(m.holder_write_arrival, None);
    assert_eq!(m.danger_window, 0.0);
}

#[test]
fn a_keepalive_slower_than_the_ttl_loses_the_lease_without_any_pause() {
    let t = frozen::run(&params(|p| {
        set(p, "keepalive", 12.0);
        set(p, "pause_len", 0.0);
    }));
    let m = frozen::metrics(&t).unwrap();
    assert_eq!(m.lease_expiry, Some(10.0));
    assert_eq!(m.successor_acquire, Some(10.0));
    assert_eq!(m.holder_write_arrival, Some(24.0));
    assert_eq!(m.verdict, Verdict::StaleWriteRejected);
    assert_eq!(m.danger_window, 14.0);
}

#[test]
fn network_delay_moves_every_arrival() {
    // Keepalives sent at 3, 6, 9 s arrive at 4, 7, 10 s: deadline 20 s. B's request sent at 19 s
    // arrives at 20 s and is granted; B hears at 21 s, writes at 23 s, the write lands at 24 s.
    // A's merged keepalive leaves at 26 s, is refused at 27 s, and A hears at 28 s. A's write
    // leaves at 38 s and lands at 39 s.
    let t = frozen::run(&params(|p| set(p, "delay", 1.0)));
    let m = frozen::metrics(&t).unwrap();
    assert_eq!(m.lease_expiry, Some(20.0));
    assert_eq!(m.successor_acquire, Some(20.0));
    assert_eq!(m.holder_write_arrival, Some(39.0));
    assert_eq!(m.danger_window, 19.0);
    assert_eq!(m.verdict, Verdict::StaleWriteRejected);
    let learned = t
        .events
        .iter()
        .find(|e| e.kind == EventKind::LearnedLeaseLost)
        .unwrap();
    assert_eq!(learned.at_ms, 28_000);
}

#[test]
fn a_pause_starting_at_24_s_does_not_delay_the_critical_section() {
    let t = frozen::run(&params(|p| {
        set(p, "pause_start", 24.0);
        set(p, "pause_len", 10.0);
    }));
    let m = frozen::metrics(&t).unwrap();
    assert_eq!(m.holder_write_arrival, Some(24.0));
    assert_eq!(m.verdict, Verdict::NoIncident);
}

#[test]
fn writes_in_the_same_millisecond_are_judged_in_the_order_they_were_applied() {
    // ttl 22 s and a keepalive every 30 s: the lease ends at 22 s with A unpaused, B is granted at
    // 22 s and writes at 24 s, the instant A's 24 s critical section ends. A's write is applied
    // first (token 1, nothing before it), then B's (token 2) replaces it: B's value stands, so A's
    // stale write was accepted but did not overwrite B.
    let t = frozen::run(&params(|p| {
        set(p, "ttl", 22.0);
        set(p, "keepalive", 30.0);
        set(p, "pause_len", 0.0);
        set(p, "delay", 0.0);
    }));
    let m = frozen::metrics(&t).unwrap();
    let order: Vec<(u64, &str)> = t
        .writes
        .iter()
        .map(|w| (w.at_ms, if w.writer == frozen::A { "A" } else { "B" }))
        .collect();
    assert_eq!(order, [(24_000, "A"), (24_000, "B")]);
    assert_eq!(m.final_value.as_deref(), Some("B"));
    assert_eq!(m.verdict, Verdict::StaleWriteAccepted);
}
