//! ZooKeeper's transaction ids where the recipes show them: a session's expiry is one
//! transaction (closeSession), whatever ephemeral nodes it deletes. The expected tokens were
//! measured on a real ZooKeeper 3.8 running the same steps.

use locklab::engine::params::{AbcParams, Fault, Params, RwLockParams, Want};
use locklab::engine::trace::{EventKind, Trace};

fn crash_a_at_1s() -> Vec<Fault> {
    vec![Fault::Crash {
        client: "A".into(),
        at_ms: 1_000,
    }]
}

/// The token of `who`'s first grant.
fn token(t: &Trace, who: &str) -> u64 {
    let id = t.actor_named(who).unwrap();
    t.events
        .iter()
        .find_map(|e| match e.kind {
            EventKind::Acquired { token, .. } if e.actor == id => Some(token),
            _ => None,
        })
        .unwrap_or_else(|| panic!("{who} never holds"))
}

#[test]
fn a_writer_after_an_expiry_gets_the_token_a_real_server_gives() {
    // Two writers 8 s apart; A crashes at 1 s holding 103, its session expires with its node,
    // and B's create is the next transaction: 105 on ZooKeeper 3.8.
    let mut p = RwLockParams {
        wants: vec![Want::Write, Want::Write],
        ..RwLockParams::default()
    };
    p.common.start_gap_ms = 8_000;
    p.common.faults = crash_a_at_1s();
    let t = locklab::engine::run(&Params::Rwlock(p));
    assert!(
        t.events
            .iter()
            .any(|e| matches!(e.kind, EventKind::SessionExpired { .. })),
        "A's session expires before B asks"
    );
    assert_eq!((token(&t, "A"), token(&t, "B")), (103, 105));
}

#[test]
fn the_abc_successor_after_an_expiry_gets_the_token_a_real_server_gives() {
    // Three clients 8 s apart, A crashes at 1 s: B's token is 106 on ZooKeeper 3.8.
    let p = AbcParams {
        start_gap_ms: 8_000,
        faults: crash_a_at_1s(),
        ..AbcParams::default()
    };
    let t = locklab::engine::run(&Params::Abc(p));
    assert_eq!((token(&t, "A"), token(&t, "B")), (104, 106));
}
