//! etcd's lease lock: the instants of each preset worked out by hand from the protocol (TTL,
//! keep-alive at a third of it, the client library's 500 ms and 1 s loops, the leader's 500 ms
//! revoke loop, 10 ms each way), the queue by create revision, the guards, and the command line.

use crate::common::locklab;
use locklab::engine::families::etcd;
use locklab::engine::params::{EtcdParams, Params};
use locklab::engine::trace::etcd::{DeleteCause, EtcdEvent};
use locklab::engine::trace::{EventKind, Judgement, Trace, invariant};
use locklab::scenario;

fn params(name: &str) -> EtcdParams {
    match &scenario::find(name)
        .unwrap_or_else(|| panic!("{name} ships"))
        .params
    {
        Params::Etcd(p) => p.clone(),
        other => panic!("{name} is not an etcd preset: {other:?}"),
    }
}

/// Every etcd event, with its instant and actor's name.
fn events(t: &Trace) -> Vec<(u64, &str, &EtcdEvent)> {
    t.events
        .iter()
        .filter_map(|e| match &e.kind {
            EventKind::Etcd(ev) => Some((e.at_ms, t.name(e.actor), ev)),
            _ => None,
        })
        .collect()
}

fn lease_of(t: &Trace, who: &str) -> u64 {
    events(t)
        .into_iter()
        .find_map(|(_, n, e)| match e {
            EtcdEvent::SessionOpened { lease, .. } if n == who => Some(*lease),
            _ => None,
        })
        .unwrap_or_else(|| panic!("{who} opened a session"))
}

fn refreshes(t: &Trace, lease: u64) -> Vec<(u64, u64)> {
    events(t)
        .into_iter()
        .filter_map(|(at, _, e)| match e {
            EtcdEvent::LeaseRefreshed {
                lease: l,
                expires_ms,
            } if *l == lease => Some((at, *expires_ms)),
            _ => None,
        })
        .collect()
}

#[test]
fn a_frozen_holder_s_lease_expires_on_the_leader_and_its_key_goes_with_it() {
    let t = etcd::run(&params("etcd-frozen-fenced"));
    let a = lease_of(&t, "A");
    // A asks at 0; granted at 10 for 6 s; its first keep-alive leaves at once (20) and
    // refreshes the lease at 30 to 6,030. Frozen from 1,500, A sends nothing more before the
    // expiry.
    let granted = events(&t).into_iter().find_map(|(at, _, e)| match e {
        EtcdEvent::LeaseGranted {
            lease,
            ttl_s,
            expires_ms,
            ..
        } if *lease == a => Some((at, *ttl_s, *expires_ms)),
        _ => None,
    });
    assert_eq!(granted, Some((10, 6, 6_010)));
    assert_eq!(refreshes(&t, a), [(30, 6_030)]);
    // The revoke loop runs at 500, 1,000, ...: the first run at or after 6,030 is 6,500.
    let expired = events(&t).into_iter().find_map(|(at, _, e)| match e {
        EtcdEvent::LeaseExpired {
            lease, expired_ms, ..
        } if *lease == a => Some((at, *expired_ms)),
        _ => None,
    });
    assert_eq!(expired, Some((6_500, 6_030)));
    // A's key (revision 2) is deleted in the same step at revision 4 (B's put was 3), and the
    // deletion notifies B alone.
    let deleted = events(&t).into_iter().find_map(|(at, _, e)| match e {
        EtcdEvent::KeyDeleted {
            create_rev: 2,
            revision,
            cause,
            notified,
            ..
        } => Some((at, *revision, *cause, notified.clone())),
        _ => None,
    });
    let b = t.actor_named("B").unwrap();
    assert_eq!(
        deleted,
        Some((6_500, 4, DeleteCause::LeaseExpired, vec![b]))
    );
    // B: the notification lands at 6,510, its read goes out and comes back at 6,530: it holds
    // with token 3.
    let locked: Vec<(u64, &str, u64)> = events(&t)
        .into_iter()
        .filter_map(|(at, n, e)| match e {
            EtcdEvent::Locked { token } => Some((at, n, *token)),
            _ => None,
        })
        .collect();
    assert_eq!(locked, [(40, "A", 2), (6_530, "B", 3)]);
    // A wakes at 11,500: its deadline loop finds the 6,040 deadline passed, and the keep-alive
    // it sends at once is answered TTL 0 by a leader that no longer has the lease.
    let done = events(&t).into_iter().find_map(|(at, n, e)| match e {
        EtcdEvent::SessionDone { deadline_ms, .. } if n == "A" => Some((at, *deadline_ms)),
        _ => None,
    });
    assert_eq!(done, Some((11_500, 6_040)));
    assert!(events(&t).iter().any(|(at, _, e)| *at == 11_510
        && matches!(e, EtcdEvent::LeaseNotFound { lease } if *lease == a)));
}

#[test]
fn the_stale_write_lands_after_the_pause_and_the_revision_token_refuses_it() {
    // A's writes are due every 1 s of its own running time from 40: 1,040, then 2,040 pushed by
    // the 10 s pause to 12,040, then 13,040; each arrives 10 ms later. B writes at 7,530 + 10,
    // 8,540 and 9,540 with token 3.
    // Unfenced, A's first late write replaces B's newer value; its second, its own.
    for (name, accepted, judgements, last) in [
        (
            "etcd-frozen-fenced",
            false,
            [Judgement::StaleRejected, Judgement::StaleRejected],
            "B",
        ),
        (
            "etcd-frozen-unfenced",
            true,
            [Judgement::Overwrote, Judgement::StaleAccepted],
            "A",
        ),
    ] {
        let t = etcd::run(&params(name));
        let writes: Vec<(u64, &str, u64)> = t
            .writes
            .iter()
            .map(|w| (w.at_ms, t.name(w.writer), w.token))
            .collect();
        assert_eq!(
            writes,
            [
                (1_050, "A", 2),
                (7_540, "B", 3),
                (8_540, "B", 3),
                (9_540, "B", 3),
                (12_050, "A", 2),
                (13_050, "A", 2)
            ],
            "{name}"
        );
        for (w, j) in t.writes[4..].iter().zip(judgements) {
            assert_eq!((w.accepted, w.judgement), (accepted, j), "{name}");
        }
        let m = etcd::metrics(&t).unwrap();
        assert_eq!(m.final_value.as_deref(), Some(last), "{name}");
        let failed = t
            .invariant(invariant::NO_STALE_WRITE_ACCEPTED)
            .unwrap()
            .first_violation_ms();
        assert_eq!(failed, accepted.then_some(12_050), "{name}");
    }
}

#[test]
fn the_txn_guard_compares_the_lock_key_s_create_revision_in_the_same_step() {
    let t = etcd::run(&params("etcd-txn-guard"));
    let txns: Vec<(u64, &str, u64, u64, bool)> = events(&t)
        .into_iter()
        .filter_map(|(at, _, e)| match e {
            EtcdEvent::DataTxn {
                writer,
                token,
                key_rev,
                succeeded,
                ..
            } => Some((at, t.name(*writer), *token, *key_rev, *succeeded)),
            _ => None,
        })
        .collect();
    // A's key is gone after 6,500, so its create revision compares as 0.
    assert_eq!(
        txns,
        [
            (1_050, "A", 2, 2, true),
            (7_540, "B", 3, 3, true),
            (8_540, "B", 3, 3, true),
            (9_540, "B", 3, 3, true),
            (12_050, "A", 2, 0, false),
            (13_050, "A", 2, 0, false)
        ]
    );
    let m = etcd::metrics(&t).unwrap();
    assert_eq!((m.stale_writes_accepted, m.stale_writes_refused), (0, 2));
    // Puts at 2 and 3, A's key deleted at 4, four writes of the data (5 to 8), B's unlock at 9.
    assert_eq!(m.revision, 9);
}

#[test]
fn each_waiter_watches_only_the_key_just_ahead_of_it() {
    let t = etcd::run(&EtcdParams {
        clients: 4,
        start_gap_ms: 200,
        work_ms: 500,
        write_every_ms: 500,
        duration_ms: 5_000,
        ..EtcdParams::default()
    });
    let watches: Vec<(&str, &str, u64)> = events(&t)
        .into_iter()
        .filter_map(|(_, n, e)| match e {
            EtcdEvent::WatchStarted {
                owner, create_rev, ..
            } => Some((n, t.name(*owner), *create_rev)),
            _ => None,
        })
        .collect();
    assert_eq!(watches, [("B", "A", 2), ("C", "B", 3), ("D", "C", 4)]);
    let m = etcd::metrics(&t).unwrap();
    assert_eq!(m.max_woken, 1);
    // Puts at 30, 230 and 430 (revisions 2 to 4); A's unlock at 570 takes revision 5, so D's
    // put at 630 is 6.
    let tokens: Vec<u64> = m.holds.iter().map(|h| h.token).collect();
    assert_eq!(tokens, [2, 3, 4, 6]);
    assert!(t.invariants.iter().all(|c| c.held), "{:?}", t.invariants);
}

#[test]
fn a_ttl_below_the_minimum_is_raised_and_keep_alives_follow_a_third_of_it() {
    let t = etcd::run(&EtcdParams {
        clients: 2,
        ttl_s: 1,
        duration_ms: 3_000,
        ..EtcdParams::default()
    });
    let a = lease_of(&t, "A");
    let granted = events(&t).into_iter().find_map(|(_, _, e)| match e {
        EtcdEvent::LeaseGranted {
            lease,
            requested_s,
            ttl_s,
            ..
        } if *lease == a => Some((*requested_s, *ttl_s)),
        _ => None,
    });
    assert_eq!(granted, Some((1, 2)), "the minimum TTL is 2 s");
    // Answers at 40: the next is due at 40 + 666 = 706; the 500 ms loop (from 20) sends it at
    // 1,020, refreshing at 1,030 to 3,030; answered at 1,040, due 1,706, sent 2,020, refreshed
    // at 2,030.
    assert_eq!(
        refreshes(&t, a),
        [(30, 2_030), (1_030, 3_030), (2_030, 4_030)]
    );
    assert_eq!(etcd::metrics(&t).unwrap().keepalive_every_ms, 666);
}

#[test]
fn a_client_whose_keep_alive_fails_writes_on_unless_it_looks_and_then_learns_late() {
    // The cut from 1.5 s holds A's keep-alive of 2,520: the lease expires at 6,030. The
    // presets' lessor looks at 190 ms into each half second, so the first look past the expiry
    // is 6,190. A writes every 450 ms from 490 (sent 40 after the lock, arriving 10 later).
    let lost = etcd::run(&params("etcd-keepalive-lost"));
    let expired = events(&lost).into_iter().find_map(|(at, _, e)| match e {
        EtcdEvent::LeaseExpired { expired_ms, .. } => Some((at, *expired_ms)),
        _ => None,
    });
    assert_eq!(expired, Some((6_190, 6_030)));
    let stale: Vec<u64> = lost
        .writes
        .iter()
        .filter(|w| w.judgement.stale())
        .map(|w| w.at_ms)
        .collect();
    // The first to arrive after the revoke is the one of 6,350; the last, 11,750, is the 26th
    // (26 × 450 = 11,700 ms of its 12 s of work).
    let expected: Vec<u64> = (0..13).map(|k| 6_350 + 450 * k).collect();
    assert_eq!(stale, expected);
    assert!(lost.writes.iter().all(|w| w.accepted));

    let late = etcd::run(&params("etcd-keepalive-late"));
    // The deadline is the last answer (40) plus 6 s; the loop runs at 1,020, 2,020, ...: it
    // finds 6,040 passed at 7,020. The writes sent at 6,340 and 6,790 went out before.
    let done = events(&late).into_iter().find_map(|(at, n, e)| match e {
        EtcdEvent::SessionDone { deadline_ms, .. } if n == "A" => Some((at, *deadline_ms)),
        _ => None,
    });
    assert_eq!(done, Some((7_020, 6_040)));
    let stale: Vec<u64> = late
        .writes
        .iter()
        .filter(|w| w.judgement.stale())
        .map(|w| w.at_ms)
        .collect();
    assert_eq!(stale, [6_350, 6_800]);
    assert!(events(&late).iter().any(|(at, n, e)| *at == 7_240
        && *n == "A"
        && matches!(e, EtcdEvent::WriteSkipped { token: 2 })));
}

#[test]
fn the_correct_lock_hands_over_in_a_chain_and_the_store_counts_its_revisions() {
    let t = etcd::run(&params("etcd-lock"));
    let m = etcd::metrics(&t).unwrap();
    let holds: Vec<(&str, u64, u64, Option<u64>)> = m
        .holds
        .iter()
        .map(|h| (h.client.as_str(), h.token, h.locked_ms, h.ended_ms))
        .collect();
    // A holds at 40, works 2 s and releases a round trip after its last write: 2,060 sent,
    // 2,070 deleted; B is told at 2,080, reads back at 2,100. And so on down the chain.
    assert_eq!(
        holds,
        [
            ("A", 2, 40, Some(2_070)),
            ("B", 3, 2_100, Some(4_130)),
            ("C", 4, 4_160, Some(6_190))
        ]
    );
    // Three puts and three deletes after revision 1; revoking a lease with no key left writes
    // nothing.
    assert_eq!(m.revision, 7);
    assert_eq!(m.stale_writes_accepted, 0);
    assert_eq!(etcd::run(&params("etcd-lock")), t, "the same run twice");
}

#[test]
fn sim_etcd_runs_every_preset_and_refuses_bad_knobs_clearly() {
    for name in [
        "etcd-lock",
        "etcd-frozen-unfenced",
        "etcd-frozen-fenced",
        "etcd-keepalive-lost",
        "etcd-keepalive-late",
        "etcd-txn-guard",
    ] {
        let o = locklab(&["sim", "etcd", "--preset", name, "--json"]);
        assert!(
            o.status.success(),
            "{name}: {}",
            String::from_utf8_lossy(&o.stderr)
        );
        let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
        assert_eq!(v["family"], "etcd", "{name}");
    }
    for (args, needle) in [
        (vec!["sim", "etcd", "--ttl", "2.5"], "whole number"),
        (vec!["sim", "etcd", "--ttl", "0"], "1 to 600 s"),
        (vec!["sim", "etcd", "--guard", "lua"], "none, token, txn"),
        (
            vec!["sim", "etcd", "--cut-client", "C"],
            "there are 2 clients",
        ),
    ] {
        let o = locklab(&args);
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        let err = String::from_utf8_lossy(&o.stderr);
        assert!(err.contains(needle), "{args:?}: {err}");
    }
}
