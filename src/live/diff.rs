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
    /// Herd: wake-ups that found the waiter not first.
    Wasted,
    /// Herd: releases in the run.
    Releases,
    /// A/B/C: one instant of each run, within its tolerance or not.
    Instant,
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
}

impl Row {
    /// Whether the two runs agree on this row: the same fact, or instants within tolerance.
    pub fn same(&self) -> bool {
        match &self.instant {
            Some(i) => i.within,
            None => self.model == self.live,
        }
    }
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
            let mut left: Vec<String> = t
                .nodes
                .iter()
                .filter(|n| n.deleted_ms.is_none())
                .map(|n| t.name(n.owner).to_string())
                .collect();
            left.sort();
            let wakeups = m.wakeups_per_release.iter().map(u32::to_string).collect();
            let mut made: Vec<(u64, u32, i32)> = t
                .nodes
                .iter()
                .map(|n| (n.created_ms, n.id.0, n.seq))
                .collect();
            made.sort();
            let numbers = made.iter().map(|(_, _, s)| s.to_string()).collect();
            vec![
                (Aspect::Holders, list(holders)),
                (Aspect::Numbers, list(numbers)),
                (Aspect::Wakeups, list(wakeups)),
                (Aspect::LeftBehind, list(left)),
                (Aspect::Stuck, list(m.stuck_clients.clone())),
                (Aspect::Duplicates, m.duplicate_nodes.to_string()),
                (Aspect::StaleAccepted, m.stale_writes_accepted.to_string()),
                (Aspect::StaleRejected, m.stale_writes_rejected.to_string()),
            ]
        }
        _ => Vec::new(),
    }
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
        })
        .collect();
    if let Some(a) = allow
        && matches!(model.metrics, Metrics::Abc(_))
    {
        let at = |x: Option<instants::At>| x.map_or_else(|| "-".to_string(), |x| fmt_secs(x.at_ms));
        rows.extend(instants::compare(model, live, a).into_iter().map(|i| Row {
            aspect: Aspect::Instant,
            model: at(i.model),
            live: at(i.live),
            instant: Some(i),
        }));
    }
    rows
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
