//! Turns what a live election recorded into a [`Trace`] judged by the engine's own tally: the
//! same leaders, takeover, stale-submission and epoch checks the model's observer runs, fed
//! the live events.

use super::record::{A, B, Log, Row, SERVICE, value};
use crate::engine::families::election::{NAMES, Tally, actors};
use crate::engine::msg::RowOp;
use crate::engine::params::ElectionParams;
use crate::engine::time::Millis;
use crate::engine::trace::{EventKind, Family, Metrics, Trace};
use crate::engine::world::ActorId;

/// When `who` led in the service's view: from when it believed it led until its submission
/// was answered, while its candidate node was still there.
fn led(
    events: &[crate::engine::trace::Event],
    nodes: &[crate::engine::trace::NodeInfo],
    who: ActorId,
    end: Millis,
) -> Option<(Millis, Millis)> {
    let from = if who == A {
        Some(0)
    } else {
        events.iter().find_map(|e| match e.kind {
            EventKind::Elected { .. } if e.actor == who => Some(e.at_ms),
            _ => None,
        })
    }?;
    let submitted = events.iter().find_map(|e| match e.kind {
        EventKind::RowUpdated {
            op: RowOp::Submit,
            by,
            ..
        } if by == who => Some(e.at_ms),
        _ => None,
    });
    let gone = nodes
        .iter()
        .find(|n| n.owner == who)
        .and_then(|n| n.deleted_ms);
    let until = [submitted, gone].into_iter().flatten().min().unwrap_or(end);
    Some((from, until))
}

pub(super) fn finish(log: &Log, p: &ElectionParams, row: &Row, end: Millis) -> Trace {
    let mut g = log.lock();
    g.rec.events.sort_by_key(|e| e.at_ms);
    g.rec.events.retain(|e| e.at_ms <= end);
    let events = g.rec.events.clone();
    let name = |a: ActorId| NAMES[a.0 as usize].to_string();
    let b_epoch = events.iter().find_map(|e| match e.kind {
        EventKind::Elected { epoch } if e.actor == B => Some(epoch),
        _ => None,
    });
    let epoch_of = |a: ActorId| {
        if a == A {
            p.first_epoch
        } else {
            b_epoch.unwrap_or(0)
        }
    };
    let mut tally = Tally::new("A", p.first_epoch);
    let spans: Vec<(Millis, Millis)> = [A, B]
        .into_iter()
        .filter_map(|w| led(&events, &g.nodes, w, end))
        .collect();
    let mut instants: Vec<Millis> = spans.iter().flat_map(|s| [s.0, s.1]).collect();
    instants.sort_unstable();
    instants.dedup();
    let mut at = instants.into_iter().peekable();
    for e in &events {
        while let Some(t) = at.next_if(|&t| t <= e.at_ms) {
            let n = spans.iter().filter(|s| s.0 <= t && t < s.1).count() as u32;
            tally.leading(t, n);
        }
        tally.note(e, name, epoch_of);
    }
    for t in at {
        let n = spans.iter().filter(|s| s.0 <= t && t < s.1).count() as u32;
        tally.leading(t, n);
    }
    let metrics = tally.metrics(&value(row), name);
    g.rec.event(end, SERVICE, EventKind::RunEnded);
    let windows = crate::engine::families::zk_facts::link_windows(&g.rec, 2, end);
    let moments = crate::engine::families::moments::moments(&g.rec, &tally.writes, &tally.checks);
    let lanes = std::mem::take(&mut g.lanes).finish(end);
    Trace {
        schema_version: crate::engine::trace::SCHEMA_VERSION,
        family: Family::Election,
        end_ms: end,
        actors: actors(),
        nodes: g.nodes.clone(),
        events: g.rec.events.clone(),
        messages: g.rec.messages.clone(),
        lanes,
        service: Vec::new(),
        writes: tally.writes,
        windows,
        moments,
        metrics: Metrics::Election(metrics),
        invariants: tally.checks,
    }
}
