//! The A/B/C presets whose recipe needs more of the server than a plain queue: an acquire with a
//! deadline that gives up, and a lock directory that is a container node, on a real server,
//! beside the model.

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

/// `live abc lock-dir-recreated`: the real server's container check deletes the emptied lock
/// directory after A releases, B's create makes it again and gets node 0, and B's write with
/// token 0 is refused by a resource that has seen A's 17; the same once more for C.
fn lock_dir_recreated_numbers_from_0_again() {
    let _one = super::serial();
    let story = super::live_story("lock-dir-recreated");
    let t = &story.live;
    let numbers: Vec<i32> = t.nodes.iter().map(|n| n.seq).collect();
    assert_eq!(numbers, [17, 0, 0], "A's 17, then 0 in each new directory");
    let at = |pick: fn(&EventKind) -> bool| -> Vec<u64> {
        t.events
            .iter()
            .filter(|e| pick(&e.kind))
            .map(|e| e.at_ms)
            .collect()
    };
    let deleted = at(|k| matches!(k, EventKind::DirDeleted { .. }));
    let made = at(|k| matches!(k, EventKind::DirCreated { .. }));
    assert!(
        deleted.len() >= 2,
        "the server deleted the directory: {deleted:?}"
    );
    assert_eq!(made.len(), 2, "B and C made it again: {made:?}");
    for (gone, again) in deleted.iter().zip(&made) {
        assert!(
            gone < again,
            "deleted at {gone} ms before made again at {again} ms"
        );
    }
    let Metrics::Abc(m) = &t.metrics else {
        panic!("an A/B/C trace")
    };
    assert_eq!(
        m.current_writes_refused, 2,
        "B's and C's writes with token 0 are refused"
    );
    super::assert_same(&story, "lock-dir-recreated");
}

pub fn trials() -> Vec<Trial> {
    let tests: [(&str, fn()); 3] = [
        (
            "live_lock_dir_recreated_numbers_from_0_again",
            lock_dir_recreated_numbers_from_0_again,
        ),
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
