//! The read-write lock and the semaphore on a real ZooKeeper: each preset tells the model's
//! story on real sessions, and what the lessons promise holds on the real server, read off the
//! live trace and checked against the recipe itself (not against the model's mapping).

use libtest_mimic::Trial;
use locklab::engine::params::Params;
use locklab::engine::time::Millis;
use locklab::engine::trace::{EventKind, Trace};
use locklab::engine::zk::tree::Tag;
use locklab::live::queue::{self, QueueParams};

/// Times at half the preset's, the server's tick included, as for the A/B/C presets.
const SCALE: f64 = 0.5;

fn live_story(name: &str) -> queue::Story {
    let p = match &locklab::scenario::find(name)
        .expect("a shipped preset")
        .params
    {
        Params::Rwlock(p) => QueueParams::Rwlock(p.clone()),
        Params::Semaphore(p) => QueueParams::Semaphore(p.clone()),
        other => panic!("{name} is not a queue preset: {other:?}"),
    };
    let scaled = p.scaled(SCALE);
    let addr = super::server_for(scaled.common().tick_ms);
    // A private server runs on this machine's clock: its grid's phase is known.
    queue::story_at(&scaled, addr, true).expect("the live run completes")
}

/// Every row of the comparison agrees: facts, and each grant, hand-over and expiry within its
/// tolerance, the model on the server's tick grid.
fn agrees(name: &str, story: &queue::Story) {
    let rows = story.rows();
    assert!(
        rows.iter()
            .any(|r| r.aspect == locklab::live::diff::Aspect::Instant),
        "{name}: no instant rows\n{rows:#?}"
    );
    let differ: Vec<_> = rows.iter().filter(|r| !r.same()).collect();
    assert!(
        differ.is_empty(),
        "{name}: the live run differs from the model (tick phase {:?}):\n{differ:#?}",
        story.tick_phase_ms
    );
}

/// Each grant of the live trace: the node's sequence number and tag, when it was granted and
/// when the server deleted it (the run's end if it did not).
struct Grant {
    seq: i32,
    tag: Tag,
    at: Millis,
    until: Millis,
}

fn grants(t: &Trace) -> Vec<Grant> {
    t.events
        .iter()
        .filter_map(|e| match e.kind {
            EventKind::Acquired { node, .. } | EventKind::Admitted { node, .. } => {
                let n = t.nodes.iter().find(|n| n.id == node)?;
                Some(Grant {
                    seq: n.seq,
                    tag: n.tag,
                    at: e.at_ms,
                    until: n.deleted_ms.unwrap_or(t.end_ms),
                })
            }
            _ => None,
        })
        .collect()
}

/// `live rwlock rwlock-fair`: the server's own sequence numbers 16 17 18 19, granted R16 and
/// R17 together, then W18 alone, then R19; each grant as the recipe says: a reader only once
/// every write node numbered before its own is gone, a writer once every node before it is.
fn rwlock_fair_grants_in_the_recipes_order() {
    let _one = super::serial();
    let story = live_story("rwlock-fair");
    let t = &story.live;
    let g = grants(t);
    let order: Vec<(i32, Tag)> = g.iter().map(|g| (g.seq, g.tag)).collect();
    assert_eq!(
        order,
        [
            (16, Tag::Read),
            (17, Tag::Read),
            (18, Tag::Write),
            (19, Tag::Read)
        ],
        "grants on the real server"
    );
    // The two readers hold at once.
    assert!(g[1].at < g[0].until, "R16 and R17 overlap");
    for x in &g {
        for n in &t.nodes {
            let before = n.seq < x.seq && (x.tag == Tag::Write || n.tag == Tag::Write);
            if before {
                let gone = n
                    .deleted_ms
                    .expect("a node the grant waited for was deleted");
                assert!(
                    gone <= x.at,
                    "{}{} granted at {} ms while {} was still there (deleted at {gone} ms)",
                    if x.tag == Tag::Write { "W" } else { "R" },
                    x.seq,
                    x.at,
                    n.seq
                );
            }
        }
    }
    agrees("rwlock-fair", &story);
}

/// `live rwlock rwlock-starved`: readers go past the waiting writer, which holds only when no
/// read node is left, as in the model.
fn rwlock_starved_tells_the_models_story() {
    let _one = super::serial();
    let story = live_story("rwlock-starved");
    let g = grants(&story.live);
    let writer = g
        .iter()
        .find(|x| x.tag == Tag::Write)
        .expect("the writer held");
    assert_eq!(
        g.last().map(|x| x.tag),
        Some(Tag::Write),
        "the writer is granted last"
    );
    assert!(
        g.iter()
            .filter(|x| x.tag == Tag::Read)
            .all(|r| r.until <= writer.at),
        "no reader holds with the writer"
    );
    agrees("rwlock-starved", &story);
}

/// `live semaphore semaphore-expiry`: never more than 3 holders on the real server (a holder
/// counts from its grant until the server deletes its node); D gets in only after B's crashed
/// session expired at the server and took node 31 with it.
fn semaphore_expiry_never_has_more_than_three_holders() {
    let _one = super::serial();
    let story = live_story("semaphore-expiry");
    let t = &story.live;
    let g = grants(t);
    assert_eq!(g.len(), 4, "A, B, C and then D hold");
    for x in &g {
        let at_once = g.iter().filter(|y| y.at <= x.at && x.at < y.until).count();
        assert!(at_once <= 3, "{at_once} holders at {} ms", x.at);
    }
    let b = t.actor_named("B").expect("B");
    let expired = t
        .events
        .iter()
        .find_map(|e| match e.kind {
            EventKind::SessionExpired { owner, .. } if owner == b => Some(e.at_ms),
            _ => None,
        })
        .expect("the server expired B's session");
    let thirty_one = t.nodes.iter().find(|n| n.seq == 31).expect("node 31");
    assert_eq!(
        thirty_one.deleted_ms,
        Some(expired),
        "31 went with B's session"
    );
    let d = g.iter().find(|x| x.seq == 33).expect("D's 33 was admitted");
    assert!(
        d.at >= expired,
        "D entered at {} ms, B expired at {expired}",
        d.at
    );
    agrees("semaphore-expiry", &story);
}

/// `live semaphore semaphore-lowered`: lowering the count sends nobody out, so the real server
/// too has more holders than permits for a while.
fn semaphore_lowered_has_more_holders_than_permits_for_a_while() {
    let _one = super::serial();
    let story = live_story("semaphore-lowered");
    let broken = story
        .live
        .invariants
        .iter()
        .find(|c| c.name == "within_permits")
        .and_then(|c| c.first_violation_ms());
    assert!(broken.is_some(), "{:?}", story.live.invariants);
    agrees("semaphore-lowered", &story);
}

/// `locklab live rwlock` and `live semaphore` refuse what is no preset of theirs, with status 2.
fn a_preset_of_another_family_is_refused_with_status_2() {
    let out = super::locklab()
        .args(["live", "semaphore", "rwlock-fair"])
        .output()
        .expect("locklab runs");
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("rwlock-fair"), "{err}");
}

pub fn trials() -> Vec<Trial> {
    let tests: [(&str, fn()); 4] = [
        (
            "live_rwlock_fair_grants_in_the_recipes_order",
            rwlock_fair_grants_in_the_recipes_order,
        ),
        (
            "live_rwlock_starved_tells_the_models_story",
            rwlock_starved_tells_the_models_story,
        ),
        (
            "live_semaphore_expiry_never_has_more_than_three_holders",
            semaphore_expiry_never_has_more_than_three_holders,
        ),
        (
            "live_semaphore_lowered_has_more_holders_than_permits_for_a_while",
            semaphore_lowered_has_more_holders_than_permits_for_a_while,
        ),
    ];
    let mut v: Vec<Trial> = tests
        .into_iter()
        .map(|(name, f)| super::needs_server(name, f))
        .collect();
    v.push(Trial::test(
        "live_queue_refuses_a_preset_of_another_family",
        || {
            a_preset_of_another_family_is_refused_with_status_2();
            Ok(())
        },
    ));
    v
}
