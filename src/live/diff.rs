//! The model's trace and the live trace of the same story, held side by side: who held and in
//! which order, how many waiters each release woke, which nodes were left behind, who was stuck,
//! duplicates and stale writes, then every grant, hand-over, expiry and write as an instant
//! with what it may differ by ([`instants`](super::instants)). One pure function over two
//! traces; the words are the view's.

use serde::Serialize;

use super::instants::{self, Allowance, Instant};
use crate::engine::time::fmt_secs;
use crate::engine::trace::{EventKind, Metrics, Trace};

/// What a row compares.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Aspect {
    /// Who took the lock, in order.
    Holders,
    /// The sequence numbers the service gave the lock nodes, in the order it made them.
    Numbers,
    /// Waiters woken by each release (A/B/C) or notifications in all (herd).
    Wakeups,
    /// Lock nodes still there when the run ended, by owner.
    LeftBehind,
    Stuck,
    Duplicates,
    StaleAccepted,
    StaleRejected,
    /// A/B/C: writes by the holder in force that the resource refused (a token that went back).
    CurrentRefused,
    /// Herd: wake-ups that found the waiter not first.
    Wasted,
    /// Herd: releases in the run.
    Releases,
    /// A/B/C and Redlock: one instant of each run, within its tolerance or not.
    Instant,
    /// Redlock: the most clients that believed at once that they held with validity left.
    MaxHolders,
    /// Redlock: keys deleted by a client they did not belong to.
    ForeignDeletes,
    /// Redlock: whose value the resource held at the end.
    FinalValue,
    /// Read-write lock and semaphore: the most clients holding at once in the service's view
    /// (granted, node still there).
    HeldAtOnce,
    /// Read-write lock: the most readers holding at once.
    ReadersAtOnce,
    /// Read-write lock and semaphore: the invariants that failed (of those a live run checks).
    Broken,
}

/// One fact, as each run gives it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Row {
    pub aspect: Aspect,
    pub model: String,
    pub live: String,
    /// For [`Aspect::Instant`]: the two instants, the tolerance and the verdict.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub instant: Option<Instant>,
    /// For [`Aspect::LeftBehind`]: the runs differ only by nodes one run deleted this close to
    /// its end (ms), nearer than a grant may differ, so the end fell between two instants that
    /// agree within tolerance.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub near_end_ms: Option<u64>,
}

impl Row {
    /// Whether the two runs agree on this row: the same fact, or instants within tolerance.
    pub fn same(&self) -> bool {
        match &self.instant {
            Some(i) => i.within,
            None => self.model == self.live || self.near_end_ms.is_some(),
        }
    }
}

/// The owners of the lock nodes still there when the run ended, sorted.
fn left_behind(t: &Trace) -> Vec<String> {
    let mut v: Vec<String> = t
        .nodes
        .iter()
        .filter(|n| n.deleted_ms.is_none())
        .map(|n| t.name(n.owner).to_string())
        .collect();
    v.sort();
    v
}

/// The facts of one trace, in a fixed order.
fn facts(t: &Trace) -> Vec<(Aspect, String)> {
    let list = |v: Vec<String>| {
        if v.is_empty() {
            "-".to_string()
        } else {
            v.join(", ")
        }
    };
    match &t.metrics {
        Metrics::Herd(m) => vec![
            (Aspect::Wakeups, m.total_notifications.to_string()),
            (Aspect::Wasted, m.wasted_wakeups.to_string()),
            (Aspect::Releases, m.rows.len().to_string()),
        ],
        Metrics::Abc(m) => {
            let holders = t
                .events
                .iter()
                .filter(|e| matches!(e.kind, EventKind::Acquired { .. }))
                .map(|e| t.name(e.actor).to_string())
                .collect();
            let left = left_behind(t);
            let wakeups = m.wakeups_per_release.iter().map(u32::to_string).collect();
            vec![
                (Aspect::Holders, list(holders)),
                (Aspect::Numbers, list(numbers(t))),
                (Aspect::Wakeups, list(wakeups)),
                (Aspect::LeftBehind, list(left)),
                (Aspect::Stuck, list(m.stuck_clients.clone())),
                (Aspect::Duplicates, m.duplicate_nodes.to_string()),
                (Aspect::StaleAccepted, m.stale_writes_accepted.to_string()),
                (Aspect::StaleRejected, m.stale_writes_rejected.to_string()),
                (Aspect::CurrentRefused, m.current_writes_refused.to_string()),
            ]
        }
        Metrics::Queue(m) => {
            let mut rows = vec![
                (Aspect::Holders, list(m.grant_order.clone())),
                (Aspect::Numbers, list(numbers(t))),
                (Aspect::HeldAtOnce, m.max_holders.to_string()),
            ];
            if t.family == crate::engine::trace::Family::Rwlock {
                rows.push((Aspect::ReadersAtOnce, m.max_concurrent_readers.to_string()));
            }
            rows.push((Aspect::LeftBehind, list(left_behind(t))));
            // A live run cannot know that a wait will never end: it does not check that one.
            let broken = m
                .violations
                .iter()
                .filter(|v| **v != crate::engine::trace::invariant::NOBODY_STUCK)
                .map(|v| v.name().to_string())
                .collect();
            rows.push((Aspect::Broken, list(broken)));
            rows
        }
        _ => Vec::new(),
    }
}

/// The sequence numbers the service gave the nodes, in the order it made them.
fn numbers(t: &Trace) -> Vec<String> {
    let mut made: Vec<(u64, u32, i32)> = t
        .nodes
        .iter()
        .map(|n| (n.created_ms, n.id.0, n.seq))
        .collect();
    made.sort();
    made.iter().map(|(_, _, s)| s.to_string()).collect()
}

/// Every fact of the two runs side by side, the same or not, then (given what the service and
/// network allow) every instant.
pub fn compare(model: &Trace, live: &Trace, allow: Option<&Allowance>) -> Vec<Row> {
    let live_facts = facts(live);
    let mut rows: Vec<Row> = facts(model)
        .into_iter()
        .map(|(aspect, m)| Row {
            aspect,
            model: m,
            live: live_facts
                .iter()
                .find(|(a, _)| *a == aspect)
                .map_or_else(|| "?".to_string(), |(_, v)| v.clone()),
            instant: None,
            near_end_ms: None,
        })
        .collect();
    if let Some(a) = allow
        && matches!(model.metrics, Metrics::Abc(_) | Metrics::Queue(_))
    {
        let at = |x: Option<instants::At>| x.map_or_else(|| "-".to_string(), |x| fmt_secs(x.at_ms));
        rows.extend(instants::compare(model, live, a).into_iter().map(|i| Row {
            aspect: Aspect::Instant,
            model: at(i.model),
            live: at(i.live),
            instant: Some(i),
            near_end_ms: None,
        }));
        let margin = rows
            .iter()
            .filter_map(|r| r.instant.as_ref())
            .filter(|i| matches!(i.kind, instants::Kind::Grant | instants::Kind::Handover))
            .map(|i| i.tolerance_ms)
            .max()
            .unwrap_or(0)
            + a.delay_ms;
        let near = near_end(model, live, margin);
        if let Some(row) = rows
            .iter_mut()
            .find(|r| r.aspect == Aspect::LeftBehind && r.model != r.live)
        {
            row.near_end_ms = near;
        }
    }
    rows
}

/// When the two runs leave different nodes behind: whether every such node was deleted in the
/// other run within `margin` of that run's end, and the largest such distance. A release that
/// lands a few milliseconds before the end in one run and after it in the other is one instant
/// within tolerance, not two stories.
fn near_end(model: &Trace, live: &Trace, margin: u64) -> Option<u64> {
    // Owners left behind in `a` but not in `b`, each matched to a node of theirs `b` deleted.
    let unmatched = |a: &Trace, b: &Trace| -> Option<Vec<u64>> {
        let mut theirs = left_behind(b);
        let mut gaps = Vec::new();
        for owner in left_behind(a) {
            if let Some(i) = theirs.iter().position(|o| *o == owner) {
                theirs.remove(i);
                continue;
            }
            let gap = b
                .nodes
                .iter()
                .filter(|n| b.name(n.owner) == owner)
                .filter_map(|n| n.deleted_ms)
                .map(|d| b.end_ms.saturating_sub(d))
                .min()?;
            gaps.push(gap);
        }
        Some(gaps)
    };
    let gaps: Vec<u64> = [unmatched(model, live)?, unmatched(live, model)?].concat();
    let worst = gaps.into_iter().max()?;
    (worst <= margin).then_some(worst)
}

/// Only the rows where the two runs disagree.
pub fn differences(model: &Trace, live: &Trace, allow: Option<&Allowance>) -> Vec<Row> {
    compare(model, live, allow)
        .into_iter()
        .filter(|r| !r.same())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::params::Params;

    fn model(name: &str) -> Trace {
        let p = crate::scenario::find(name).expect("a preset");
        crate::engine::run(&p.params)
    }

    #[test]
    fn a_node_deleted_just_before_the_end_in_one_run_only_is_within_tolerance() {
        let p = crate::scenario::find("gc-pause-fencing").expect("a preset");
        let Params::Abc(abc) = &p.params else {
            panic!("abc")
        };
        let allow = Allowance::for_abc(abc, true);
        let model = crate::engine::run(&p.params);
        let c = model.actor_named("C").expect("C");
        let cs_node = model
            .nodes
            .iter()
            .position(|n| n.owner == c && n.deleted_ms.is_none())
            .expect("the model leaves C's node behind");
        // The other run released C's node 5 ms before its end: the end fell between two
        // releases a few milliseconds apart.
        let mut live = model.clone();
        live.nodes[cs_node].deleted_ms = Some(live.end_ms - 5);
        let row = |live: &Trace| {
            compare(&model, live, Some(&allow))
                .into_iter()
                .find(|r| r.aspect == Aspect::LeftBehind)
                .unwrap()
        };
        let near = row(&live);
        assert_ne!(near.model, near.live);
        assert_eq!(near.near_end_ms, Some(5));
        assert!(near.same());
        // Two seconds before the end is another story, and a disagreement.
        live.nodes[cs_node].deleted_ms = Some(live.end_ms - 2_000);
        let far = row(&live);
        assert_eq!(far.near_end_ms, None);
        assert!(!far.same());
    }

    #[test]
    fn a_trace_agrees_with_itself() {
        let t = model("chain");
        assert!(differences(&t, &t, None).is_empty());
        let rows = compare(&t, &t, None);
        let holders = rows.iter().find(|r| r.aspect == Aspect::Holders);
        assert_eq!(holders.map(|r| r.model.as_str()), Some("A, B, C"));
    }

    #[test]
    fn a_broken_recipe_differs_from_the_right_one_where_it_should() {
        let right = model("lost-create");
        let blind = model("lost-create-blind");
        let d = differences(&right, &blind, None);
        let aspects: Vec<Aspect> = d.iter().map(|r| r.aspect).collect();
        assert!(aspects.contains(&Aspect::Stuck), "{d:?}");
        assert!(aspects.contains(&Aspect::Duplicates), "{d:?}");
        assert!(aspects.contains(&Aspect::Holders), "{d:?}");
        let stuck = d
            .iter()
            .find(|r| r.aspect == Aspect::Stuck)
            .map(|r| r.live.clone());
        assert_eq!(stuck.as_deref(), Some("B, C"));
    }

    #[test]
    fn herd_traces_compare_their_counts() {
        let run = |fanout| {
            let p = crate::engine::params::HerdParams {
                waiters: 5,
                fanout,
                ..Default::default()
            };
            crate::engine::run(&Params::Herd(p))
        };
        let d = differences(&run(1), &run(5), None);
        let wakeups = d.iter().find(|r| r.aspect == Aspect::Wakeups);
        assert_eq!(
            wakeups.map(|r| (r.model.as_str(), r.live.as_str())),
            Some(("5", "15"))
        );
    }
}
