//! Herd versus chain: N waiters queued behind one holder, woken through real one-shot watches.
//!
//! Waiter `i` (1-based queue position) watches the node `k` places ahead of its own, or the
//! holder's node when fewer than `k` stand ahead: `k = 1` is the chain (predecessor watches),
//! `k = N` the herd (everyone on the holder), values between are layered fan-out. On each release
//! the woken waiters read again, one after another at the service, each read costing the grab
//! cost; the first in the queue then holds the lock for the hold time and the rest register a
//! new watch and wait again. Every count here is a notification the service actually fired.
//!
//! Time in this family is kept in microseconds, since a grab cost can be a fraction of a
//! millisecond.

use crate::engine::coord::{Coord, CreateMode, NodeId, SessionId, WatchKind};
use crate::engine::params::HerdParams;
use crate::engine::trace::{
    Event, EventKind, Family, HerdMetrics, HerdRow, InvariantReport, Metrics, Trace, invariant,
};

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

    let mut coord = Coord::new();
    let mut notes = Vec::new();
    let dir = coord
        .create(None, "/lock", "", CreateMode::PERSISTENT, &mut notes)
        .expect("the root exists");
    // queue[0] holds the lock; queue[1..] wait, in the order the service sequenced them.
    let queue: Vec<Contender> = (0..=n)
        .map(|_| {
            let session = coord.open_session(0, u64::MAX / 4);
            let node = coord
                .create(
                    Some(session),
                    "/lock/lock-",
                    "",
                    CreateMode::EPHEMERAL_SEQUENTIAL,
                    &mut notes,
                )
                .expect("the lock directory exists");
            Contender { session, node }
        })
        .collect();
    for pos in 1..queue.len() {
        let target = queue[pos.saturating_sub(k)].node;
        coord.watch(queue[pos].session, target, WatchKind::Data);
    }

    let mut one_holder = InvariantReport::ok(invariant::ONE_HOLDER);
    let mut nobody_stuck = InvariantReport::ok(invariant::NOBODY_STUCK);
    let mut rows = Vec::with_capacity(n);
    let mut events = Vec::with_capacity(n + 1);
    let mut now_us: u64 = 0;
    let mut head = 0usize; // index into `queue` of the current holder
    let mut total_notifications: u64 = 0;
    let mut wasted_wakeups: u64 = 0;
    let mut woken: Vec<usize> = Vec::new();
    let mut position_of: Vec<usize> = vec![0; coord.sessions().len()];
    for (i, c) in queue.iter().enumerate() {
        position_of[c.session.0 as usize] = i;
    }

    while head + 1 < queue.len() {
        let release = rows.len() as u32 + 1;
        notes.clear();
        coord
            .delete(queue[head].node, &mut notes)
            .expect("the holder's node exists");
        head += 1;
        woken.clear();
        woken.extend(notes.iter().map(|x| position_of[x.session.0 as usize]));
        let waiting = (queue.len() - head) as u32;

        // Each woken waiter reads again; only the first child may take the lock.
        let first = coord.first_child(dir);
        let mut winners = 0u32;
        let mut winner_pos = 0u32;
        for &pos in &woken {
            if Some(queue[pos].node) == first {
                winners += 1;
                winner_pos = (pos - head + 1) as u32;
            } else {
                let target = queue[pos.saturating_sub(k).max(head)].node;
                coord.watch(queue[pos].session, target, WatchKind::Data);
            }
        }
        if winners != 1 {
            let detail = format!("release {release} left {winners} holders");
            one_holder.fail(now_us / 1000, detail);
            if winners == 0 {
                nobody_stuck.fail(
                    now_us / 1000,
                    format!("release {release} woke no successor"),
                );
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
            duration_ms: duration_us as f64 / 1000.0,
        });
        events.push(Event {
            at_ms: now_us / 1000,
            actor: "service".into(),
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
    let end_ms = now_us.div_ceil(1000);
    events.push(Event {
        at_ms: end_ms,
        actor: "service".into(),
        kind: EventKind::RunEnded,
    });
    Trace {
        schema_version: crate::engine::trace::SCHEMA_VERSION,
        family: Family::Herd,
        end_ms,
        events,
        lanes: Vec::new(),
        metrics: Metrics::Herd(HerdMetrics {
            total_notifications,
            wasted_wakeups,
            total_time_ms: now_us as f64 / 1000.0,
            rows,
        }),
        invariants: vec![one_holder, nobody_stuck],
    }
}

/// The herd metrics of a trace, if it is one.
pub fn metrics(trace: &Trace) -> Option<&HerdMetrics> {
    match &trace.metrics {
        Metrics::Herd(m) => Some(m),
        _ => None,
    }
}
