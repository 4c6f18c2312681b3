//! The A/B/C presets whose recipe needs more of the server than a plain queue: an acquire with a
//! deadline that gives up, on a real server, beside the model.

use libtest_mimic::Trial;
use locklab::engine::actors::recipe::OnTimeout;
use locklab::engine::params::Params;
use locklab::engine::trace::{EventKind, Metrics, Trace};
use locklab::live::{abc, scale};

fn timed_out(t: &Trace, who: &str) -> Option<(u64, bool)> {
    let id = t.actor_named(who)?;
    t.events.iter().find_map(|e| match e.kind {
        EventKind::AcquireTimedOut { deleted } if e.actor == id => Some((e.at_ms, deleted)),
        _ => None,
    })
}

fn stuck(t: &Trace) -> Vec<String> {
    match &t.metrics {
        Metrics::Abc(m) => m.stuck_clients.clone(),
        _ => Vec::new(),
    }
}

/// `live abc timeout-left-node`: B's acquire gives up at its deadline and leaves node 18 in the
/// queue with its session open, so C, watching 18, is stuck for good on the real server.
fn timeout_left_node_strands_c() {
    let _one = super::serial();
    let story = super::live_story("timeout-left-node");
    let t = &story.live;
    let (at, deleted) = timed_out(t, "B").expect("B gave up");
    assert!(!deleted, "B forgot its node");
    let eighteen = t.nodes.iter().find(|n| n.seq == 18).expect("node 18");
    assert_eq!(eighteen.deleted_ms, None, "18 is still queued at the end");
    assert_eq!(stuck(t), ["C"], "C waits for good");
    assert!(at < t.end_ms);
    super::assert_same(&story, "timeout-left-node");
}

/// The same story with `on_timeout = "delete_node"`: B deletes 18 on its way out, C is told,
/// reads again, watches 17 and takes the lock when A releases.
fn a_waiter_that_gives_up_deletes_its_node() {
    let _one = super::serial();
    let p = locklab::scenario::find("timeout-left-node").expect("the preset");
    let Params::Abc(mut p) = p.params.clone() else {
        panic!("an A/B/C preset")
    };
    p.on_timeout = OnTimeout::DeleteNode;
    let (scaled, _) = scale::for_private(&p, super::SCALE);
    let addr = super::server_for(scaled.tick_ms);
    let story = abc::story_at(&scaled, addr, true).expect("the live run completes");
    let t = &story.live;
    let (gave_up, deleted) = timed_out(t, "B").expect("B gave up");
    assert!(deleted, "B deleted its node");
    let gone = t
        .nodes
        .iter()
        .find(|n| n.seq == 18)
        .and_then(|n| n.deleted_ms)
        .expect("18 was deleted");
    let released = t
        .nodes
        .iter()
        .find(|n| n.seq == 17)
        .and_then(|n| n.deleted_ms)
        .expect("A released 17");
    assert!(
        gave_up <= gone && gone < released,
        "18 went at the deadline"
    );
    let c = t.actor_named("C").expect("C");
    let c_holds = t
        .events
        .iter()
        .find(|e| e.actor == c && matches!(e.kind, EventKind::Acquired { .. }))
        .map(|e| e.at_ms)
        .expect("C took the lock");
    assert!(c_holds >= released, "C held only after A released");
    assert!(stuck(t).is_empty(), "nobody is stuck");
    super::assert_same(&story, "timeout-left-node with delete_node");
}

pub fn trials() -> Vec<Trial> {
    let tests: [(&str, fn()); 2] = [
        (
            "live_timeout_left_node_strands_c",
            timeout_left_node_strands_c,
        ),
        (
            "live_a_waiter_that_gives_up_deletes_its_node",
            a_waiter_that_gives_up_deletes_its_node,
        ),
    ];
    tests
        .into_iter()
        .map(|(name, f)| super::needs_server(name, f))
        .collect()
}
