//! Every A/B/C preset behaves as its description promises, read from the typed trace.

use locklab::engine::families::abc;
use locklab::engine::params::AbcParams;
use locklab::engine::trace::{
    AbcMetrics, EventKind, Fate, Judgement, SpanState, Trace, WindowKind, invariant,
};
use locklab::engine::zk::tree::Watched;
use locklab::scenario;

fn run(name: &str) -> (Trace, AbcMetrics) {
    let p = scenario::find(name).unwrap_or_else(|| panic!("preset {name} ships"));
    let t = locklab::engine::run(&p.params);
    let m = abc::metrics(&t).expect("an abc trace").clone();
    (t, m)
}

/// (client, node sequence number, token) for every grant, in order.
fn acquired_by(t: &Trace) -> Vec<(String, String, u64)> {
    t.events
        .iter()
        .filter_map(|e| match &e.kind {
            EventKind::Acquired { node, token } => {
                Some((t.name(e.actor).to_string(), t.seq(*node), *token))
            }
            _ => None,
        })
        .collect()
}

fn holders(t: &Trace) -> Vec<String> {
    acquired_by(t).into_iter().map(|(c, _, _)| c).collect()
}

fn events_of<'a>(t: &'a Trace, who: &str) -> Vec<&'a EventKind> {
    let id = t.actor_named(who).unwrap();
    t.events
        .iter()
        .filter(|e| e.actor == id)
        .map(|e| &e.kind)
        .collect()
}

fn first_at(t: &Trace, who: &str, f: impl Fn(&EventKind) -> bool) -> u64 {
    let id = t.actor_named(who).unwrap();
    t.events
        .iter()
        .find(|e| e.actor == id && f(&e.kind))
        .unwrap_or_else(|| panic!("{who} has no such event"))
        .at_ms
}

fn sometimes(t: &Trace, name: locklab::engine::trace::Invariant) -> bool {
    t.invariant(name).is_some_and(|i| i.held)
}

#[test]
fn chain_wakes_exactly_one_waiter_per_release_and_tokens_are_czxids() {
    let (t, m) = run("chain");
    assert_eq!(m.wakeups_per_release, [1, 1]);
    let got = acquired_by(&t);
    let seqs: Vec<&str> = got.iter().map(|(_, s, _)| s.as_str()).collect();
    assert_eq!(holders(&t), ["A", "B", "C"]);
    assert_eq!(seqs, ["17", "18", "19"]);
    // The token is the lock node's czxid, not its sequence number.
    for (_, seq, token) in &got {
        let node = t.nodes.iter().find(|n| n.seq.to_string() == *seq).unwrap();
        assert_eq!(*token, node.czxid);
        assert_ne!(*token, node.seq as u64);
    }
    assert!(got.windows(2).all(|w| w[0].2 < w[1].2), "tokens only grow");
    assert!(t.all_invariants_hold());
    assert!(sometimes(&t, invariant::HOLDER_RELEASED));
    assert!(sometimes(&t, invariant::WAITER_WOKEN));
    assert!(sometimes(&t, invariant::EVERYONE_HELD));
    assert!(!sometimes(&t, invariant::STALE_WRITE_ARRIVED));
    assert_eq!(m.max_holders, 1);
}

#[test]
fn the_service_panel_shows_who_watches_whom() {
    let (t, _) = run("chain");
    let snap = t.service_at(300).unwrap();
    let owners: Vec<&str> = snap.children.iter().map(|c| t.name(c.owner)).collect();
    assert_eq!(owners, ["A", "B", "C"]);
    let watch_of = |who: &str| {
        let id = t.actor_named(who).unwrap();
        snap.watches
            .iter()
            .find(|w| w.watcher == id)
            .map(|w| w.target)
    };
    assert_eq!(watch_of("B"), Some(Watched::Node(snap.children[0].node)));
    assert_eq!(watch_of("C"), Some(Watched::Node(snap.children[1].node)));
    assert_eq!(watch_of("A"), None);
    // After A's release its node is gone from the next snapshot, and B's watch has fired.
    let after = t.service_at(3_055).unwrap();
    assert_eq!(after.children.len(), 2);
    assert!(after.watches.iter().all(|w| t.name(w.watcher) != "B"));
}

#[test]
fn every_message_is_in_the_trace_with_its_fate() {
    let (t, _) = run("chain");
    assert!(
        t.messages
            .iter()
            .all(|m| m.fate == Fate::Delivered || m.received_ms.is_none())
    );
    let notifications = t
        .messages
        .iter()
        .filter(|m| matches!(m.msg, locklab::engine::msg::ActorMsg::ZkWatch { .. }))
        .count();
    assert_eq!(notifications, 2, "one per release in the chain");
    assert!(
        t.messages
            .iter()
            .filter(|m| m.fate == Fate::Delivered)
            .all(|m| m.received_ms.unwrap() >= m.sent_ms)
    );
}

#[test]
fn herd_wakes_every_waiter_and_all_but_one_go_back() {
    let (t, m) = run("herd");
    assert_eq!(m.wakeups_per_release, [2, 1]);
    assert_eq!(holders(&t), ["A", "B", "C"]);
    let c_waits = events_of(&t, "C")
        .into_iter()
        .filter(|k| **k == EventKind::WatchChildren)
        .count();
    assert!(c_waits >= 2, "C waited again after a wasted wake-up");
    // The read that told A it was first also armed a children watch, which fires on B's create.
    assert!(
        events_of(&t, "A")
            .iter()
            .any(|k| matches!(k, EventKind::Notified { .. }))
    );
    assert!(t.all_invariants_hold());
}

#[test]
fn holder_expiry_hands_the_lock_to_b_on_a_tick_boundary() {
    let (t, m) = run("holder-expires");
    let expired = t
        .events
        .iter()
        .find(|e| matches!(e.kind, EventKind::SessionExpired { .. }))
        .unwrap();
    // A crashed at 1.5 s; the service last heard it at 1.333 s; 1.333 + 4 = 5.333 s rounds up to
    // the next 2 s tick.
    assert_eq!(expired.at_ms, 6_000);
    let b = first_at(&t, "B", |k| matches!(k, EventKind::Acquired { .. }));
    assert!(b > expired.at_ms);
    assert_eq!(holders(&t), ["A", "B", "C"]);
    assert_eq!(m.wakeups_per_release, [1, 1]);
    assert!(t.all_invariants_hold());
    assert_eq!(
        t.lane("A").unwrap().spans.last().unwrap().state,
        SpanState::Crashed
    );
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
    let c = t.actor_named("C").unwrap();
    let c_after: Vec<&EventKind> = t
        .events
        .iter()
        .filter(|e| e.actor == c && e.at_ms > expiry)
        .map(|e| &e.kind)
        .collect();
    assert!(matches!(c_after[0], EventKind::Notified { .. }));
    let waits_on_a = c_after.iter().position(
        |k| matches!(k, EventKind::Waiting { on: Watched::Node(n) } if t.seq(*n) == "17"),
    );
    let acquired = c_after
        .iter()
        .position(|k| matches!(k, EventKind::Acquired { .. }));
    assert!(
        waits_on_a.is_some() && acquired.is_some() && waits_on_a < acquired,
        "{c_after:?}"
    );
    assert_eq!(holders(&t), ["A", "C"]);
    assert!(m.stuck_clients.is_empty());
}

#[test]
fn atomic_exists_with_watch_survives_the_race() {
    let (t, m) = run("watch-race");
    assert!(
        events_of(&t, "B")
            .iter()
            .any(|k| matches!(k, EventKind::ExistsChecked { exists: false, .. }))
    );
    assert!(
        events_of(&t, "A")
            .iter()
            .any(|k| **k == EventKind::ReleasedEarly)
    );
    assert_eq!(holders(&t), ["A", "B", "C"]);
    assert!(m.stuck_clients.is_empty());
    assert!(t.all_invariants_hold());
    // C creates its node after 17 was deleted: a deletion uses up no sequence number (as on a
    // ZooKeeper 3.8 server), so C's node is 19, and no number is handed out twice.
    let c = t.actor_named("C").unwrap();
    let seqs: Vec<i32> = t
        .nodes
        .iter()
        .filter(|n| n.owner == c)
        .map(|n| n.seq)
        .collect();
    assert_eq!(seqs, [19]);
    let mut all: Vec<i32> = t.nodes.iter().map(|n| n.seq).collect();
    all.dedup();
    assert_eq!(all, [17, 18, 19]);
}

#[test]
fn the_broken_two_step_watch_leaves_b_and_everyone_behind_it_stuck() {
    let (t, m) = run("watch-race-broken");
    assert_eq!(m.stuck_clients, ["B", "C"]);
    assert_eq!(m.violations, ["nobody_stuck"]);
    assert_eq!(holders(&t), ["A"]);
    let b = t.lane("B").unwrap();
    assert!(matches!(
        b.spans.last().unwrap().state,
        SpanState::Stuck { .. }
    ));
    let badge = t.invariant(invariant::NOBODY_STUCK).unwrap();
    assert!(badge.first_violation_ms().is_some());
}

#[test]
fn a_lost_create_response_is_a_connection_loss_and_guid_recovery_finds_the_node() {
    let (t, m) = run("lost-create");
    // The reply to B's create was in flight when the connection broke.
    assert!(t.messages.iter().any(|msg| msg.fate == Fate::Dropped
        && t.name(msg.to) == "B"
        && matches!(
            msg.msg,
            locklab::engine::msg::ActorMsg::ZkReply {
                result: locklab::engine::msg::ZkResult::Created { .. },
                ..
            }
        )));
    let b = events_of(&t, "B");
    assert!(b.iter().any(|k| matches!(
        k,
        EventKind::ConnectionLoss {
            request: locklab::engine::trace::event::Request::Create
        }
    )));
    assert!(b.contains(&&EventKind::CreateOutcomeUnknown));
    assert!(
        b.iter()
            .any(|k| matches!(k, EventKind::RecoveredNode { node } if t.seq(*node) == "18"))
    );
    assert_eq!(m.duplicate_nodes, 0);
    assert_eq!(holders(&t), ["A", "B", "C"]);
    assert!(t.all_invariants_hold());
}

#[test]
fn blind_retry_leaves_a_duplicate_that_the_retrying_client_waits_on() {
    let (t, m) = run("lost-create-blind");
    assert_eq!(m.duplicate_nodes, 1);
    assert_eq!(m.stuck_clients, ["B", "C"]);
    assert!(!m.violations.is_empty());
    let b = t.actor_named("B").unwrap();
    let creates = t
        .events
        .iter()
        .filter(|e| matches!(e.kind, EventKind::NodeCreated { owner, .. } if owner == b))
        .count();
    assert_eq!(creates, 2, "one request, two nodes");
    // B's new node sits right behind its forgotten 18, so B waits on its own ghost.
    assert!(
        events_of(&t, "B")
            .iter()
            .any(|k| matches!(k, EventKind::Stuck { on: Watched::Node(n) } if t.seq(*n) == "18"))
    );
}

#[test]
fn a_short_disconnect_is_noticed_late_suspends_then_keeps_the_lock() {
    let (t, m) = run("disconnect");
    let cut = first_at(&t, "A", |k| *k == EventKind::LinkCut);
    let noticed = first_at(&t, "A", |k| {
        matches!(k, EventKind::NoticedDisconnect { .. })
    });
    // A notices two thirds of the session timeout after it last heard the service.
    assert!(
        noticed > cut + 2_000,
        "the blind window lasts until the read timeout"
    );
    let blind = t
        .window(WindowKind::Blind {
            client: t.actor_named("A").unwrap(),
        })
        .unwrap();
    assert_eq!((blind.from_ms, blind.to_ms), (cut, noticed));
    let kinds = events_of(&t, "A");
    let pos = |f: fn(&EventKind) -> bool| kinds.iter().position(|k| f(k)).unwrap();
    assert!(pos(|k| *k == EventKind::Suspended) < pos(|k| *k == EventKind::WriteDeferred));
    assert!(
        pos(|k| *k == EventKind::Reconnected)
            < pos(|k| matches!(k, EventKind::Revalidated { still_first: true }))
    );
    assert!(
        pos(|k| matches!(k, EventKind::Revalidated { .. }))
            < pos(|k| matches!(k, EventKind::WriteSent { .. }))
    );
    assert_eq!(holders(&t), ["A", "B", "C"]);
    assert_eq!(m.stale_writes_accepted + m.stale_writes_rejected, 0);
}

#[test]
fn a_long_disconnect_expires_and_the_old_holder_writes_nothing() {
    let (t, m) = run("expire");
    assert_eq!(holders(&t), ["A", "B", "C"]);
    let a = events_of(&t, "A");
    assert!(a.contains(&&EventKind::LearnedSessionExpired));
    assert!(!a.iter().any(|k| matches!(k, EventKind::WriteSent { .. })));
    assert_eq!(
        t.lane("A").unwrap().spans.last().unwrap().state,
        SpanState::Lost
    );
    assert_eq!(m.stale_writes_accepted + m.stale_writes_rejected, 0);
    assert!(t.all_invariants_hold());
}

#[test]
fn a_gc_pause_with_fencing_gets_the_stale_write_rejected() {
    let (t, m) = run("gc-pause-fencing");
    assert_eq!(m.stale_writes_rejected, 1);
    assert_eq!(m.stale_writes_accepted, 0);
    let a = t.writes.iter().find(|w| t.name(w.writer) == "A").unwrap();
    assert_eq!(a.judgement, Judgement::StaleRejected);
    assert!(!a.accepted && a.last_seen_before > a.token);
    assert!(
        t.writes
            .iter()
            .any(|w| t.name(w.writer) == "B" && w.judgement == Judgement::Fresh)
    );
    // A acts on its old belief the moment it wakes, before its library tells it anything.
    let woke = first_at(&t, "A", |k| *k == EventKind::Woke);
    let wrote = first_at(&t, "A", |k| matches!(k, EventKind::WriteSent { .. }));
    let learned = first_at(&t, "A", |k| *k == EventKind::LearnedSessionExpired);
    assert!(woke <= wrote && wrote < learned);
    assert!(sometimes(&t, invariant::STALE_WRITE_ARRIVED));
    assert_eq!(m.max_holders, 1);
    assert!(t.all_invariants_hold());
}

#[test]
fn a_gc_pause_without_fencing_lets_the_stale_write_overwrite_b() {
    let (t, m) = run("gc-pause-no-fencing");
    assert_eq!(m.stale_writes_accepted, 1);
    let a = t.writes.iter().find(|w| t.name(w.writer) == "A").unwrap();
    assert_eq!(a.judgement, Judgement::Overwrote);
    assert_eq!(
        a.replaced.map(|(w, _)| t.name(w).to_string()),
        Some("B".into())
    );
    assert_eq!(m.violations, ["tokens_non_decreasing"]);
}

#[test]
fn every_shipped_preset_loads_and_is_deterministic() {
    let all = scenario::builtin();
    assert!(all.len() >= 21, "{} presets", all.len());
    for p in all {
        let a = locklab::engine::run(&p.params);
        let b = locklab::engine::run(&p.params);
        assert_eq!(a, b, "{} is deterministic", p.name);
    }
    let loaded = scenario::load_all(&locklab::source::Source::Embedded).unwrap();
    assert_eq!(loaded.len(), all.len(), "no shipped preset fails to parse");
}

fn variant(name: &str, f: impl FnOnce(&mut AbcParams)) -> (Trace, AbcMetrics) {
    let p = scenario::find(name).unwrap();
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
    assert_eq!(holders(&t), ["A", "B", "C"]);
    assert!(t.all_invariants_hold());
}

#[test]
fn carrying_on_while_disconnected_writes_without_confirming_the_session() {
    use locklab::engine::params::OnDisconnect;
    let (suspend, _) = run("disconnect");
    let (carry, _) = variant("disconnect", |p| p.on_disconnect = OnDisconnect::CarryOn);
    let restored = first_at(&suspend, "A", |k| *k == EventKind::LinkRestored);
    let write_time = |t: &Trace| first_at(t, "A", |k| matches!(k, EventKind::WriteSent { .. }));
    assert!(write_time(&carry) < restored, "written while cut off");
    assert!(
        write_time(&suspend) > restored,
        "held back until the session was confirmed"
    );
    assert!(!events_of(&carry, "A").contains(&&EventKind::WriteDeferred));
}

#[test]
fn carrying_on_after_learning_the_session_expired_is_a_stale_write() {
    use locklab::engine::params::OnLoss;
    let (_, stop_m) = run("expire");
    let (_, carry_m) = variant("expire", |p| p.on_loss = OnLoss::CarryOn);
    assert_eq!(
        stop_m.stale_writes_rejected + stop_m.stale_writes_accepted,
        0
    );
    assert_eq!(
        carry_m.stale_writes_rejected, 1,
        "fencing refuses A's token after B's"
    );
    let (t, unfenced) = variant("expire", |p| {
        p.on_loss = OnLoss::CarryOn;
        p.fencing = false;
    });
    assert_eq!(unfenced.stale_writes_accepted, 1);
    let a = t.writes.iter().find(|w| t.name(w.writer) == "A").unwrap();
    assert_eq!(a.judgement, Judgement::Overwrote);
    assert!(
        unfenced
            .violations
            .iter()
            .any(|v| *v == "tokens_non_decreasing")
    );
}

#[test]
fn a_cut_off_holder_cannot_release_until_its_session_expires() {
    use locklab::engine::params::{OnDisconnect, OnLoss};
    let (t, m) = variant("expire", |p| {
        p.on_disconnect = OnDisconnect::CarryOn;
        p.on_loss = OnLoss::CarryOn;
    });
    let seventeen = t.nodes.iter().find(|n| n.seq == 17).unwrap();
    let gone = t
        .events
        .iter()
        .find(|e| match &e.kind {
            EventKind::SessionExpired { nodes_deleted, .. } => {
                nodes_deleted.contains(&seventeen.id)
            }
            EventKind::NodeDeleted { node, .. } => *node == seventeen.id,
            _ => false,
        })
        .unwrap();
    assert!(
        matches!(gone.kind, EventKind::SessionExpired { .. }),
        "{:?}",
        gone.kind
    );
    assert_eq!(m.max_holders, 1);
    assert!(t.all_invariants_hold(), "{:?}", m.violations);
}

#[test]
fn after_the_counter_wraps_a_sequence_token_is_clamped_and_a_czxid_token_is_not() {
    use locklab::engine::params::TokenSource;
    let wrap = |token| {
        variant("chain", |p| {
            p.first_sequence = i32::MAX - 1;
            p.token = token;
        })
    };
    let (t, m) = wrap(TokenSource::Sequence);
    // 2147483646, 2147483647, then -2147483648: the negative name sorts first, so C takes the
    // lock while A still holds it, with a token clamped to 0.
    assert!(t.nodes.iter().any(|n| n.seq == i32::MIN));
    assert!(
        m.violations.iter().any(|v| *v == "one_holder"),
        "{:?}",
        m.violations
    );
    let got = acquired_by(&t);
    assert_eq!(got[1].0, "C");
    assert_eq!(got[1].2, 0);
    let c = t.writes.iter().find(|w| t.name(w.writer) == "C").unwrap();
    assert!(!c.accepted, "token 0 after 2147483646");
    // With the czxid, every token is its node's creation zxid: it keeps growing through the wrap.
    let (t, _) = wrap(TokenSource::Czxid);
    for (_, seq, token) in acquired_by(&t) {
        let node = t.nodes.iter().find(|n| n.seq.to_string() == seq).unwrap();
        assert_eq!(token, node.czxid);
        assert!(token > 100);
    }
}

#[test]
fn an_acquire_that_times_out_and_forgets_its_node_leaves_c_stuck_behind_it() {
    let (t, m) = run("timeout-left-node");
    assert_eq!(m.stuck_clients, ["C"]);
    let at = first_at(&t, "B", |k| {
        matches!(k, EventKind::AcquireTimedOut { deleted: false })
    });
    assert_eq!(at, 2_000);
    // C is stuck from the moment B gives up, and B's node 18 is first once A releases.
    let stuck = t.invariant(invariant::NOBODY_STUCK).unwrap();
    assert_eq!(stuck.first_violation_ms(), Some(2_000));
    assert_eq!(
        locklab::scenario::answers::holder_at(&t, 3_100, locklab::i18n::Lang::En),
        "B (node 18)"
    );
    assert!(matches!(
        t.lanes[1].spans.last().unwrap().state,
        SpanState::GaveUp { left_node: true }
    ));
    assert_eq!(holders(&t), ["A"]);

    let (t, m) = variant("timeout-left-node", |p| {
        p.on_timeout = locklab::engine::params::OnTimeout::DeleteNode;
    });
    assert!(m.stuck_clients.is_empty());
    assert_eq!(holders(&t), ["A", "C"]);
    assert!(t.invariant(invariant::NOBODY_STUCK).unwrap().held);
    // B's node was its own and B deleted it: no duplicate was left by any request.
    assert_eq!(m.duplicate_nodes, 0);
    let b = t.actor_named("B").unwrap();
    assert!(
        t.nodes
            .iter()
            .filter(|n| n.owner == b)
            .all(|n| n.deleted_ms.is_some())
    );
}

#[test]
fn a_recreated_lock_directory_restarts_the_numbers_and_a_sequence_token_goes_backwards() {
    let (t, m) = run("lock-dir-recreated");
    assert_eq!(
        acquired_by(&t),
        [
            ("A".into(), "17".into(), 17),
            ("B".into(), "0".into(), 0),
            ("C".into(), "0".into(), 0),
        ]
    );
    assert_eq!(
        t.events
            .iter()
            .filter(|e| matches!(e.kind, EventKind::DirDeleted { .. }))
            .map(|e| e.at_ms)
            .collect::<Vec<_>>(),
        [2_000, 4_000, 6_000]
    );
    // B and C held the lock, yet the resource refused them.
    assert_eq!(m.current_writes_refused, 2);
    assert!(
        t.writes
            .iter()
            .skip(1)
            .all(|w| w.judgement == Judgement::Refused)
    );
    let inv = t.invariant(invariant::TOKENS_NON_DECREASING).unwrap();
    assert_eq!(inv.first_violation_ms(), Some(2_040));

    let (t, m) = variant("lock-dir-recreated", |p| {
        p.token = locklab::engine::params::TokenSource::Czxid;
    });
    let tokens: Vec<u64> = acquired_by(&t).into_iter().map(|(_, _, tok)| tok).collect();
    assert!(tokens.windows(2).all(|w| w[0] < w[1]), "{tokens:?}");
    assert_eq!(m.current_writes_refused, 0);
    assert!(t.invariant(invariant::TOKENS_NON_DECREASING).unwrap().held);
}
