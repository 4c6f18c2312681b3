//! A live Redlock or etcd run stops a moment after the model's last event
//! (`engine::families::live_duration`) rather than at the preset's end. Cut there, every shipped
//! story of those families is the same story, its end aside.

use locklab::engine::params::{EtcdParams, Params, RedlockParams};
use locklab::engine::trace::{EventKind, Trace};
use locklab::scenario;

/// What the trace serializes, as JSON, so that two runs compare field by field.
fn json<T: serde::Serialize>(v: &T) -> serde_json::Value {
    serde_json::to_value(v).expect("a trace serializes")
}

/// The story a run tells: its events but the end, its writes, metrics and invariants.
fn story(t: &Trace) -> [serde_json::Value; 4] {
    let events: Vec<_> = t
        .events
        .iter()
        .filter(|e| !matches!(e.kind, EventKind::RunEnded))
        .collect();
    [
        json(&events),
        json(&t.writes),
        json(&t.metrics),
        json(&t.invariants),
    ]
}

#[test]
fn a_story_cut_where_it_settles_is_the_same_story() {
    let mut cut_any = false;
    for preset in scenario::builtin() {
        let full = locklab::engine::run(&preset.params);
        let duration_ms = locklab::engine::families::live_duration(&full);
        let cut = match &preset.params {
            Params::Redlock(p) => Params::Redlock(RedlockParams {
                duration_ms,
                ..p.clone()
            }),
            Params::Etcd(p) => Params::Etcd(EtcdParams {
                duration_ms,
                ..p.clone()
            }),
            _ => continue,
        };
        cut_any |= duration_ms < full.end_ms;
        let cut = locklab::engine::run(&cut);
        assert_eq!(cut.end_ms, duration_ms, "{}", preset.name);
        assert_eq!(story(&cut), story(&full), "{}", preset.name);
    }
    assert!(cut_any, "some story settles before its preset's end");
}
