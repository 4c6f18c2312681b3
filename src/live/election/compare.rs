//! The live election beside the model: the statements on the rollup job's row in the order the
//! table took them, a run of identical refused takeovers as one line with its count (how many
//! seconds B polled before A's lease ran out depends on when the server expired A, which falls on
//! its own tick grid), then the facts, then the instants, each with what it may differ by.

use serde::Serialize;

use super::Run;
use super::record::Row;
use crate::engine::msg::RowOp;
use crate::engine::params::ElectionParams;
use crate::engine::time::{Millis, fmt_secs};
use crate::engine::trace::{EventKind, Metrics, Trace};

/// Statements of one kind in a row: who, what, rows affected, how many, the row after the last.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Side {
    pub at_ms: Millis,
    pub by: String,
    pub op: RowOp,
    pub affected: u64,
    pub count: u32,
    pub row: Row,
}

#[derive(Debug, Clone, Serialize)]
pub struct Pair {
    pub model: Option<Side>,
    pub live: Option<Side>,
    pub same: bool,
}

fn collapse(v: Vec<Side>) -> Vec<Side> {
    let mut out: Vec<Side> = Vec::new();
    for s in v {
        match out.last_mut() {
            Some(l) if l.by == s.by && l.op == s.op && l.affected == s.affected => {
                l.count += 1;
                l.row = s.row;
            }
            _ => out.push(s),
        }
    }
    out
}

/// The statements of a trace, as [`Side`]s.
pub fn sides(t: &Trace) -> Vec<Side> {
    let name = |a| t.name(a).to_string();
    let v = t
        .events
        .iter()
        .filter_map(|e| match &e.kind {
            EventKind::RowUpdated {
                by,
                op,
                affected,
                value,
                ..
            } => Some(Side {
                at_ms: e.at_ms,
                by: name(*by),
                op: *op,
                affected: u64::from(*affected),
                count: 1,
                row: Row {
                    state: value.state,
                    owner: value.owner.map(name),
                    epoch: value.epoch,
                    version: value.version,
                    lease_until_ms: value.lease_until_ms,
                    result: value.result.map(name),
                },
            }),
            _ => None,
        })
        .collect();
    collapse(v)
}

/// The same row, but for the lease's last millisecond, which follows the statement's instant.
fn same_row(a: &Row, b: &Row) -> bool {
    (a.state, &a.owner, a.epoch, a.version, &a.result)
        == (b.state, &b.owner, b.epoch, b.version, &b.result)
}

pub fn pairs(model: &Trace, live: &Run) -> Vec<Pair> {
    let (m, l) = (sides(model), sides(&live.trace));
    (0..m.len().max(l.len()))
        .map(|i| {
            let (model, live) = (m.get(i).cloned(), l.get(i).cloned());
            let same = match (&model, &live) {
                (Some(a), Some(b)) => {
                    a.by == b.by
                        && a.op == b.op
                        && a.affected == b.affected
                        && same_row(&a.row, &b.row)
                }
                _ => false,
            };
            Pair { model, live, same }
        })
        .collect()
}

/// What a row compares.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Fact {
    Leaders,
    FinalRow,
    Result,
    StaleRejected,
    StaleAccepted,
    MaxLeaders,
    Broken,
    /// The service expired A's session (and deleted its candidate).
    Expired,
    Elected,
    TookOver,
    Submitted,
    StaleSubmitted,
}

#[derive(Debug, Clone, Serialize)]
pub struct FactRow {
    pub fact: Fact,
    pub model: String,
    pub live: String,
    /// For an instant: how far apart the two may be.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tolerance_ms: Option<Millis>,
    pub same: bool,
}

fn text(m: &crate::engine::trace::ElectionMetrics) -> [(Fact, String); 7] {
    let state = serde_json::to_value(m.final_state)
        .ok()
        .and_then(|v| v.as_str().map(str::to_uppercase))
        .unwrap_or_default();
    let dash = |o: &Option<String>| o.clone().unwrap_or_else(|| "-".into());
    let broken: Vec<&str> = m.violations.iter().map(|v| v.name()).collect();
    [
        (Fact::Leaders, m.leaders.join(", ")),
        (
            Fact::FinalRow,
            format!(
                "{state} / {} / {} / v{}",
                dash(&m.final_owner),
                m.final_epoch,
                m.final_version
            ),
        ),
        (Fact::Result, dash(&m.result)),
        (Fact::StaleRejected, m.stale_submits_rejected.to_string()),
        (Fact::StaleAccepted, m.stale_submits_accepted.to_string()),
        (Fact::MaxLeaders, m.max_leaders.to_string()),
        (
            Fact::Broken,
            if broken.is_empty() {
                "-".into()
            } else {
                broken.join(", ")
            },
        ),
    ]
}

/// The instants that matter, as each run gives them.
fn instants(t: &Trace) -> [(Fact, Option<Millis>); 5] {
    let a = t.actor_named("A");
    let b = t.actor_named("B");
    let find = |f: &dyn Fn(&crate::engine::trace::Event) -> bool| {
        t.events.iter().find(|e| f(e)).map(|e| e.at_ms)
    };
    [
        (
            Fact::Expired,
            find(
                &|e| matches!(e.kind, EventKind::SessionExpired { owner, .. } if Some(owner) == a),
            ),
        ),
        (
            Fact::Elected,
            find(&|e| matches!(e.kind, EventKind::Elected { .. }) && Some(e.actor) == b),
        ),
        (
            Fact::TookOver,
            find(&|e| {
                matches!(
                    e.kind,
                    EventKind::RowUpdated {
                        op: RowOp::TakeOver,
                        affected: 1,
                        ..
                    }
                )
            }),
        ),
        (
            Fact::Submitted,
            find(
                &|e| matches!(e.kind, EventKind::RowUpdated { op: RowOp::Submit, by, .. } if Some(by) == b),
            ),
        ),
        (
            Fact::StaleSubmitted,
            find(
                &|e| matches!(e.kind, EventKind::RowUpdated { op: RowOp::Submit, by, .. } if Some(by) == a),
            ),
        ),
    ]
}

/// How far a live instant may be from the model's. The server expires a session on its own
/// tick grid, after the last ping it heard (a third of the timeout apart); B polls once a
/// second, so its takeover and what follows may move by a poll; A's late submission follows
/// the end of its pause, which both runs time alike.
pub fn tolerance(f: Fact, p: &ElectionParams) -> Millis {
    let expiry = p.tick_ms + p.session_timeout_ms / 3 + 2 * p.delay_ms;
    match f {
        Fact::Expired | Fact::Elected => expiry,
        Fact::TookOver | Fact::Submitted => super::runner::RETRY_MS + 200,
        _ => 250,
    }
}

pub fn facts(model: &Trace, live: &Trace, p: &ElectionParams) -> Vec<FactRow> {
    let (Metrics::Election(m), Metrics::Election(l)) = (&model.metrics, &live.metrics) else {
        return Vec::new();
    };
    let mut rows: Vec<FactRow> = text(m)
        .into_iter()
        .zip(text(l))
        .map(|((fact, model), (_, live))| FactRow {
            fact,
            same: model == live,
            model,
            live,
            tolerance_ms: None,
        })
        .collect();
    for ((fact, a), (_, b)) in instants(model).into_iter().zip(instants(live)) {
        let tol = tolerance(fact, p);
        let show = |t: Option<Millis>| t.map_or("-".to_string(), fmt_secs);
        rows.push(FactRow {
            fact,
            model: show(a),
            live: show(b),
            tolerance_ms: Some(tol),
            same: match (a, b) {
                (Some(a), Some(b)) => a.abs_diff(b) <= tol,
                (None, None) => true,
                _ => false,
            },
        });
    }
    rows
}
