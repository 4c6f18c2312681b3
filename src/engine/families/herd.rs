//! Herd versus chain: N waiters queued behind one holder, woken through real one-shot watches.
//!
//! Waiter `i` (1-based queue position) watches the node `k` places ahead of its own, or the
//! holder's node when fewer than `k` stand ahead: `k = 1` is the chain (predecessor watches),
//! `k = N` the herd (everyone on the holder), values between are layered fan-out. On each release
//! the woken waiters read again, one after another at the service, each read costing the grab
//! cost; the first in the queue then holds the lock for the hold time and the rest set a new
//! watch and wait again. Every count here is a watch the coordination service's tree actually
//! fired.
//!
//! The family drives the service's tree in release rounds, one row per release, so that
//! N = 10,000 with k = N (50,005,000 notifications) stays fast; `tests/it/herd.rs` runs the same
//! queue as lock-client actors in the World and checks that the counts agree. Time is kept in
//! microseconds, since a grab cost can be a fraction of a millisecond.

use crate::engine::Millis;
use crate::engine::params::HerdParams;
use crate::engine::trace::{
    ActorInfo, Event, EventKind, Family, HerdMetrics, HerdRow, InvariantReport, Metrics, Role,
    Trace, invariant,
};
use crate::engine::world::ActorId;
use crate::engine::zk::tree::{NodeId, SessionId, Tag, Tree, Watched};

const SERVICE: ActorId = ActorId(0);

struct Contender {
    session: SessionId,
    node: NodeId,
}

/// Runs the herd-versus-chain scenario.
pub fn run(p: &HerdParams) -> Trace {
    let n = p.waiters as usize;
    let k = (p.fanout as usize).clamp(1, n.max(1));
    let grab_us = (p.grab_cost_ms * 1000.0).round() as u64;
    let hold_us = (p.hold_ms * 1000.0).round() as u64;

    let mut tree = Tree::new(0);
    let dir = tree.add_dir("/lock", 0);
    let mut fired = Vec::new();
    // queue[0] holds the lock; queue[1..] wait, in the order the service sequenced them.
    let queue: Vec<Contender> = (0..=n)
        .map(|i| {
            let session = tree.open_session(u64::MAX / 4);
            let node = tree
                .create(session, dir, Tag::Lock, i as u32, &mut fired)
                .expect("a live session");
            Contender { session, node }
        })
        .collect();
    for pos in 1..queue.len() {
        let target = queue[pos.saturating_sub(k)].node;
        tree.watch(queue[pos].session, Watched::Node(target));
    }

    let mut one_holder = InvariantReport::always(invariant::ONE_HOLDER);
    let mut nobody_stuck = InvariantReport::always(invariant::NOBODY_STUCK);
    let mut woken_seen = InvariantReport::sometimes(invariant::WAITER_WOKEN);
    let mut rows = Vec::with_capacity(n);
    let mut events = Vec::with_capacity(n + 1);
    let mut now_us: u64 = 0;
    let mut head = 0usize;
    let mut total_notifications: u64 = 0;
    let mut wasted_wakeups: u64 = 0;
    let mut woken: Vec<usize> = Vec::new();
    // Sessions are opened in queue order, so a session's number is its queue position.
    let position_of = |s: SessionId| s.0 as usize;

    while head + 1 < queue.len() {
        let release = rows.len() as u32 + 1;
        fired.clear();
        tree.delete(queue[head].node, -1, &mut fired)
            .expect("the holder's node exists");
        head += 1;
        woken.clear();
        woken.extend(fired.iter().map(|f| position_of(f.session)));
        let waiting = (queue.len() - head) as u32;

        // Each woken waiter reads again; only the first child may take the lock.
        let first = tree.dir(dir).children.first().copied();
        let mut winners = 0u32;
        let mut winner_pos = 0u32;
        for &pos in &woken {
            if Some(queue[pos].node) == first {
                winners += 1;
                winner_pos = (pos - head + 1) as u32;
            } else {
                let target = queue[pos.saturating_sub(k).max(head)].node;
                tree.watch(queue[pos].session, Watched::Node(target));
            }
        }
        let at_ms = now_us / 1000;
        if !woken.is_empty() {
            woken_seen.record(at_ms, || format!("release {release} woke a waiter"));
        }
        if winners != 1 {
            one_holder.record(at_ms, || {
                format!("release {release} left {winners} holders")
            });
            if winners == 0 {
                nobody_stuck.record(at_ms, || format!("release {release} woke no successor"));
                break;
            }
        }
        let count = woken.len() as u32;
        total_notifications += u64::from(count);
        wasted_wakeups += u64::from(count - winners);
        let duration_us = u64::from(count) * grab_us + hold_us;
        rows.push(HerdRow {
            release,
            start_ms: now_us as f64 / 1000.0,
            woken: count,
            winner: winner_pos,
            wasted: count - winners,
            not_notified: waiting - count,
            reads_ms: (u64::from(count) * grab_us) as f64 / 1000.0,
            duration_ms: duration_us as f64 / 1000.0,
        });
        events.push(Event {
            at_ms,
            actor: SERVICE,
            kind: EventKind::ReleaseRound {
                release,
                woken: count,
                winner: winner_pos,
                wasted: count - winners,
                not_notified: waiting - count,
            },
        });
        now_us += duration_us;
    }
    let metrics = HerdMetrics {
        total_notifications,
        wasted_wakeups,
        total_time_ms: now_us as f64 / 1000.0,
        rows,
    };
    trace(
        events,
        now_us.div_ceil(1000),
        metrics,
        vec![one_holder, nobody_stuck, woken_seen],
    )
}

/// A herd run's trace: its release rounds, the run's end, its metrics and checks. The model and
/// the live lab's herd both end here, so the two traces have the same shape.
pub fn trace(
    mut events: Vec<Event>,
    end_ms: Millis,
    metrics: HerdMetrics,
    invariants: Vec<InvariantReport>,
) -> Trace {
    events.push(Event {
        at_ms: end_ms,
        actor: SERVICE,
        kind: EventKind::RunEnded,
    });
    Trace {
        schema_version: crate::engine::trace::SCHEMA_VERSION,
        family: Family::Herd,
        end_ms,
        actors: vec![ActorInfo {
            id: SERVICE,
            name: "service".into(),
            role: Role::Coordinator,
        }],
        nodes: Vec::new(),
        events,
        messages: Vec::new(),
        lanes: Vec::new(),
        service: Vec::new(),
        writes: Vec::new(),
        windows: Vec::new(),
        moments: Vec::new(),
        metrics: Metrics::Herd(metrics),
        invariants,
    }
}

/// The herd metrics of a trace, if it is one.
pub fn metrics(trace: &Trace) -> Option<&HerdMetrics> {
    match &trace.metrics {
        Metrics::Herd(m) => Some(m),
        _ => None,
    }
}
