//! Explanations checked against the runs they describe, in both languages.

use super::*;
use crate::engine::params::FrozenParams;

fn frozen_text(p: FrozenParams, lang: Lang) -> String {
    let params = Params::Frozen(p.clone());
    let trace = crate::engine::run(&params);
    let Metrics::Frozen(m) = &trace.metrics else {
        panic!("frozen")
    };
    frozen(&p, m, &trace, lang)
}

#[test]
fn the_frozen_holder_is_explained_with_its_own_numbers() {
    // The defaults: keepalives at 3, 6, 9 s; the pause [12, 26); A writes at 38 s.
    let en = frozen_text(FrozenParams::default(), Lang::En);
    for want in [
        "A froze at 12 s and woke at 26 s.",
        "arrived at 9 s and set the deadline to 9 + 10 = 19 s",
        "the lease expired at 19 s",
        "B was granted the lock at 19 s: a handover delay of 19 - 19 = 0 s.",
        "A (token 1) at 38 s, rejected, since the resource had already accepted token 2",
        "Danger window: max(0, 38 - 19) = 19 s.",
    ] {
        assert!(en.contains(want), "{want:?} missing: {en}");
    }
    let verdict = verdict_short(crate::engine::trace::Verdict::StaleWriteRejected, Lang::En);
    assert!(en.contains(&format!("Verdict: {verdict};")), "{en}");
    let zh = frozen_text(FrozenParams::default(), Lang::Zh);
    for want in [
        "9 + 10 = 19 秒",
        "租约在 19 秒过期",
        "max(0, 38 - 19) = 19 秒",
    ] {
        assert!(zh.contains(want), "{want:?} missing: {zh}");
    }
    // Another draw, other numbers: a shorter TTL moves every figure.
    let p = FrozenParams {
        ttl_ms: 8_000,
        ..FrozenParams::default()
    };
    let en = frozen_text(p, Lang::En);
    assert!(en.contains("9 + 8 = 17 s"), "{en}");
    assert!(en.contains("max(0, 38 - 17) = 21 s"), "{en}");
}

#[test]
fn a_holder_that_stops_on_loss_is_explained() {
    let p = FrozenParams {
        stop_on_loss: true,
        ..FrozenParams::default()
    };
    let en = frozen_text(p, Lang::En);
    assert!(
        en.contains("A learned at 26 s that its lease was lost"),
        "{en}"
    );
    assert!(!en.contains("A (token 1)"), "{en}");
}

#[test]
fn an_expired_session_is_explained_from_the_messages_and_the_expiry() {
    let preset = crate::scenario::find("gc-pause-fencing").expect("a shipped preset");
    let trace = crate::engine::run(&preset.params);
    let Metrics::Abc(m) = &trace.metrics else {
        panic!("abc")
    };
    let Params::Abc(p) = &preset.params else {
        panic!("abc")
    };
    let expired = facts::session_expired(&trace, "A").expect("A's session expires");
    let heard = facts::last_heard(&trace, "A", expired).expect("A was heard");
    assert!(heard < expired);
    let en = abc("believed_holders", p.tick_ms, m, &trace, Lang::En);
    let want = format!(
        "The service last heard from A at {} s, and A's session expired at {} s",
        s(heard),
        s(expired)
    );
    assert!(en.contains(&want), "{en}");
    assert!(
        en.contains("A and B both believed they held the lock"),
        "{en}"
    );
    let zh = abc("believed_holders", p.tick_ms, m, &trace, Lang::Zh);
    assert!(
        zh.contains(&format!("A 的会话在 {} 秒过期", s(expired))),
        "{zh}"
    );
}

#[test]
fn herd_counts_come_from_the_rows() {
    let p = HerdParams {
        waiters: 5,
        fanout: 5,
        ..HerdParams::default()
    };
    let params = Params::Herd(p.clone());
    let trace = crate::engine::run(&params);
    let Metrics::Herd(m) = &trace.metrics else {
        panic!("herd")
    };
    let en = herd(&p, m, Lang::En);
    // The herd: 5 + 4 + 3 + 2 + 1 notifications, one winner each time.
    assert!(
        en.contains("5, 4, 3, 2, 1 (15 notifications in all)"),
        "{en}"
    );
    assert!(en.contains("4, 3, 2, 1, 0 (10 in all)"), "{en}");
}

#[test]
fn node_zero_is_named_like_any_other_node() {
    // A lock directory numbered from 0: A's first create gets node 0, and its reply is lost.
    let preset = crate::scenario::find("lost-create-blind").expect("a shipped preset");
    let Params::Abc(mut p) = preset.params.clone() else {
        panic!("abc")
    };
    p.first_sequence = 0;
    p.faults = vec![crate::engine::params::Fault::DropCreateResponse { client: "A".into() }];
    let trace = crate::engine::run(&Params::Abc(p.clone()));
    let Metrics::Abc(m) = &trace.metrics else {
        panic!("abc")
    };
    let en = abc("duplicate_nodes", p.tick_ms, m, &trace, Lang::En);
    assert!(
        en.contains("the service created these nodes for A: 0, "),
        "{en}"
    );
}
