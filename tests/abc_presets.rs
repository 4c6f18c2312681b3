//! Every A/B/C preset behaves as its description promises.

use locklab::engine::scenario::abc;
use locklab::engine::trace::{AbcMetrics, EventKind, State, Trace};
use locklab::preset;

fn run(name: &str) -> (Trace, AbcMetrics) {
    let p = preset::find(name).unwrap_or_else(|| panic!("preset {name} ships"));
    let t = locklab::engine::run(&p.params);
    let m = abc::metrics(&t).expect("an abc trace").clone();
    (t, m)
}

fn acquired_by(t: &Trace) -> Vec<(String, u64)> {
    t.events
        .iter()
        .filter_map(|e| match &e.kind {
            EventKind::Acquired { token, .. } => Some((e.actor.clone(), *token)),
            _ => None,
        })
        .collect()
}

fn accepted_writes(t: &Trace) -> Vec<(String, u64, bool)> {
    t.events
        .iter()
        .filter_map(|e| match &e.kind {
            EventKind::WriteArrived {
                value,
                token,
                accepted,
                ..
            } => Some((value.clone(), *token, *accepted)),
            _ => None,
        })
        .collect()
}

fn pairs(v: &[(&str, u64)]) -> Vec<(String, u64)> {
    v.iter().map(|(a, t)| (a.to_string(), *t)).collect()
}

#[test]
fn chain_wakes_exactly_one_waiter_per_release() {
    let (t, m) = run("chain");
    assert_eq!(m.wakeups_per_release, [1, 1]);
    assert_eq!(acquired_by(&t), pairs(&[("A", 17), ("B", 18), ("C", 19)]));
    assert!(t.all_invariants_hold());
    assert_eq!(m.max_holders, 1);
}

#[test]
fn herd_wakes_every_waiter_and_all_but_one_go_back() {
    let (t, m) = run("herd");
    assert_eq!(m.wakeups_per_release, [2, 1]);
    assert_eq!(acquired_by(&t), pairs(&[("A", 17), ("B", 18), ("C", 19)]));
    // At A's release C is woken too, reads again and goes back to waiting.
    let c_waits = t
        .events
        .iter()
        .filter(|e| e.actor == "C" && e.kind == EventKind::WatchChildren)
        .count();
    assert!(c_waits >= 2, "C waited again after a wasted wake-up");
    assert!(t.all_invariants_hold());
}

#[test]
fn holder_expiry_hands_the_lock_to_b() {
    let (t, m) = run("holder-expires");
    let expired = t
        .events
        .iter()
        .find(|e| matches!(e.kind, EventKind::SessionExpired { .. }))
        .unwrap();
    let b = t
        .events
        .iter()
        .find(|e| e.actor == "B" && matches!(e.kind, EventKind::Acquired { .. }))
        .unwrap();
    assert!(b.at_ms > expired.at_ms);
    assert_eq!(acquired_by(&t), pairs(&[("A", 17), ("B", 18), ("C", 19)]));
    assert_eq!(m.wakeups_per_release, [1, 1]);
    assert!(t.all_invariants_hold());
}

#[test]
fn waiter_expiry_makes_c_watch_a_instead_of_taking_the_lock() {
    let (t, m) = run("waiter-expires");
    let expiry = t
        .events
        .iter()
        .find(|e| matches!(e.kind, EventKind::SessionExpired { .. }))
        .unwrap()
        .at_ms;
    let c_after: Vec<&EventKind> = t
        .events
        .iter()
        .filter(|e| e.actor == "C" && e.at_ms > expiry)
        .map(|e| &e.kind)
        .collect();
    assert!(matches!(c_after[0], EventKind::Notified { .. }));
    assert!(
        c_after
            .iter()
            .any(|k| matches!(k, EventKind::WokeUp { .. }))
    );
    let waits_on_a = c_after
        .iter()
        .position(|k| matches!(k, EventKind::Waiting { on } if on.ends_with("17")));
    let acquired = c_after
        .iter()
        .position(|k| matches!(k, EventKind::Acquired { .. }));
    assert!(
        waits_on_a.is_some() && acquired.is_some() && waits_on_a < acquired,
        "{c_after:?}"
    );
    assert_eq!(acquired_by(&t), pairs(&[("A", 17), ("C", 19)]));
    assert!(m.stuck_clients.is_empty());
}

#[test]
fn atomic_exists_with_watch_survives_the_race() {
    let (t, m) = run("watch-race");
    assert!(t.events.iter().any(
        |e| e.actor == "B" && matches!(e.kind, EventKind::ExistsChecked { exists: false, .. })
    ));
    assert_eq!(acquired_by(&t), pairs(&[("A", 17), ("B", 18), ("C", 19)]));
    assert!(m.stuck_clients.is_empty());
    assert!(t.all_invariants_hold());
}

#[test]
fn the_broken_two_step_watch_leaves_b_and_everyone_behind_it_stuck() {
    let (t, m) = run("watch-race-broken");
    assert_eq!(m.stuck_clients, ["B", "C"]);
    assert_eq!(m.violations, ["nobody_stuck"]);
    assert_eq!(acquired_by(&t), pairs(&[("A", 17)]));
    let b = t.lane("B").unwrap();
    assert_eq!(b.spans.last().unwrap().state, State::Stuck);
    let badge = t
        .invariants
        .iter()
        .find(|i| i.name == "nobody_stuck")
        .unwrap();
    assert!(badge.first_violation_ms.is_some());
}

#[test]
fn guid_recovery_finds_the_node_with_no_duplicate() {
    let (t, m) = run("lost-create");
    assert!(
        t.events
            .iter()
            .any(|e| matches!(e.kind, EventKind::CreateResponseLost { .. }))
    );
    assert!(t.events.iter().any(|e| e.actor == "B"
        && matches!(&e.kind, EventKind::RecoveredNode { node } if node.ends_with("18"))));
    assert_eq!(m.duplicate_nodes, 0);
    assert_eq!(acquired_by(&t), pairs(&[("A", 17), ("B", 18), ("C", 19)]));
    assert!(t.all_invariants_hold());
}

#[test]
fn blind_retry_leaves_a_duplicate_that_blocks_the_successor() {
    let (t, m) = run("lost-create-blind");
    assert_eq!(m.duplicate_nodes, 1);
    assert!(
        m.stuck_clients.contains(&"C".to_string()),
        "C waits on B's forgotten node"
    );
    assert!(!m.violations.is_empty());
    let creates = t
        .events
        .iter()
        .filter(|e| matches!(e.kind, EventKind::NodeCreated { ref owner, .. } if owner == "B"))
        .count();
    assert_eq!(creates, 2, "one request, two nodes");
}

#[test]
fn a_short_disconnect_suspends_then_keeps_the_lock() {
    let (t, m) = run("disconnect");
    let kinds: Vec<&EventKind> = t
        .events
        .iter()
        .filter(|e| e.actor == "A")
        .map(|e| &e.kind)
        .collect();
    let pos = |f: fn(&EventKind) -> bool| kinds.iter().position(|k| f(k)).unwrap();
    assert!(
        pos(|k| matches!(k, EventKind::Suspended)) < pos(|k| matches!(k, EventKind::WriteDeferred))
    );
    assert!(
        pos(|k| matches!(k, EventKind::Reconnected))
            < pos(|k| matches!(k, EventKind::Revalidated { still_first: true }))
    );
    assert!(
        pos(|k| matches!(k, EventKind::Revalidated { .. }))
            < pos(|k| matches!(k, EventKind::WriteSent { .. }))
    );
    assert_eq!(acquired_by(&t), pairs(&[("A", 17), ("B", 18), ("C", 19)]));
    assert_eq!(m.stale_writes_accepted + m.stale_writes_rejected, 0);
}

#[test]
fn a_long_disconnect_expires_and_the_old_holder_writes_nothing() {
    let (t, m) = run("expire");
    assert_eq!(acquired_by(&t), pairs(&[("A", 17), ("B", 18), ("C", 19)]));
    assert!(
        t.events
            .iter()
            .any(|e| e.actor == "A" && e.kind == EventKind::LearnedSessionExpired)
    );
    assert!(
        !t.events
            .iter()
            .any(|e| e.actor == "A" && matches!(e.kind, EventKind::WriteSent { .. }))
    );
    assert_eq!(
        t.lane("A").unwrap().spans.last().unwrap().state,
        State::Lost
    );
    assert_eq!(m.stale_writes_accepted + m.stale_writes_rejected, 0);
    assert!(t.all_invariants_hold());
}

#[test]
fn a_gc_pause_with_fencing_gets_the_stale_write_rejected() {
    let (t, m) = run("gc-pause-fencing");
    assert_eq!(m.stale_writes_rejected, 1);
    assert_eq!(m.stale_writes_accepted, 0);
    let writes = accepted_writes(&t);
    assert!(writes.contains(&("B".into(), 18, true)));
    assert_eq!(writes.last().unwrap(), &("A".to_string(), 17, false));
    assert_eq!(m.max_holders, 1);
    assert!(t.all_invariants_hold());
}

#[test]
fn a_gc_pause_without_fencing_lets_the_stale_write_in() {
    let (t, m) = run("gc-pause-no-fencing");
    assert_eq!(m.stale_writes_accepted, 1);
    assert_eq!(
        accepted_writes(&t).last().unwrap(),
        &("A".to_string(), 17, true)
    );
    assert_eq!(m.violations, ["tokens_non_decreasing"]);
}

#[test]
fn every_shipped_preset_loads_and_is_deterministic() {
    let all = preset::builtin();
    assert!(all.len() >= 21, "{} presets", all.len());
    for p in all {
        let a = serde_json::to_string(&locklab::engine::run(&p.params)).unwrap();
        let b = serde_json::to_string(&locklab::engine::run(&p.params)).unwrap();
        assert_eq!(a, b, "{} is deterministic", p.name);
    }
    let loaded = preset::load_all(&locklab::source::Source::Embedded).unwrap();
    assert_eq!(loaded.len(), all.len(), "no shipped preset fails to parse");
}

fn variant(
    name: &str,
    f: impl FnOnce(&mut locklab::engine::params::AbcParams),
) -> (Trace, AbcMetrics) {
    let p = preset::find(name).unwrap();
    let locklab::engine::Params::Abc(mut params) = p.params.clone() else {
        panic!("abc preset")
    };
    f(&mut params);
    let t = locklab::engine::run(&locklab::engine::Params::Abc(params));
    let m = abc::metrics(&t).unwrap().clone();
    (t, m)
}

#[test]
fn fan_out_two_wakes_both_waiters_on_the_first_release() {
    use locklab::engine::params::WatchMode;
    let (t, m) = variant("chain", |p| p.watch = WatchMode::Ahead(2));
    assert_eq!(m.wakeups_per_release, [2, 1]);
    assert_eq!(acquired_by(&t), pairs(&[("A", 17), ("B", 18), ("C", 19)]));
    assert!(t.all_invariants_hold());
}

#[test]
fn carrying_on_while_disconnected_writes_without_confirming_the_session() {
    use locklab::engine::params::OnDisconnect;
    let (suspend, _) = run("disconnect");
    let (carry, _) = variant("disconnect", |p| p.on_disconnect = OnDisconnect::CarryOn);
    let write_time = |t: &Trace| {
        t.events
            .iter()
            .find(|e| e.actor == "A" && matches!(e.kind, EventKind::WriteSent { .. }))
            .unwrap()
            .at_ms
    };
    assert!(write_time(&carry) < 2_500, "written during the disconnect");
    assert!(
        write_time(&suspend) >= 2_500,
        "held back until the session was confirmed"
    );
    assert!(
        carry
            .events
            .iter()
            .all(|e| e.kind != EventKind::WriteDeferred)
    );
}

#[test]
fn carrying_on_after_learning_the_session_expired_is_a_stale_write() {
    use locklab::engine::params::OnLoss;
    let (stop, stop_m) = run("expire");
    let (_, carry_m) = variant("expire", |p| p.on_loss = OnLoss::CarryOn);
    assert_eq!(
        stop_m.stale_writes_rejected + stop_m.stale_writes_accepted,
        0
    );
    assert!(
        !stop
            .events
            .iter()
            .any(|e| e.actor == "A" && matches!(e.kind, EventKind::WriteSent { .. }))
    );
    assert_eq!(
        carry_m.stale_writes_rejected, 1,
        "fencing refuses token 17 after 18"
    );
    let (_, unfenced) = variant("expire", |p| {
        p.on_loss = OnLoss::CarryOn;
        p.fencing = false;
    });
    assert_eq!(unfenced.stale_writes_accepted, 1);
    assert!(
        unfenced
            .violations
            .contains(&"tokens_non_decreasing".to_string())
    );
}

#[test]
fn a_cut_off_holder_cannot_release_until_it_reconnects() {
    use locklab::engine::params::{OnDisconnect, OnLoss};
    // Cut off from 0.5 s to 6.5 s, carrying on: its release at 3.04 s cannot reach the service,
    // so node 17 goes only when the session expires.
    let (t, m) = variant("expire", |p| {
        p.on_disconnect = OnDisconnect::CarryOn;
        p.on_loss = OnLoss::CarryOn;
    });
    let deleted_17 = t
        .events
        .iter()
        .find(|e| match &e.kind {
            EventKind::NodeDeleted { node, .. } => node.ends_with("17"),
            EventKind::SessionExpired { nodes_deleted, .. } => {
                nodes_deleted.iter().any(|n| n.ends_with("17"))
            }
            _ => false,
        })
        .unwrap();
    assert!(
        matches!(deleted_17.kind, EventKind::SessionExpired { .. }),
        "{:?}",
        deleted_17.kind
    );
    assert_eq!(m.max_holders, 1);
    assert!(t.all_invariants_hold(), "{:?}", m.violations);
}
