//! The live statements beside the model's: one row per statement in the order the table took
//! them (who, what, rows affected, the row it left, and the second of the table's clock it read),
//! then the facts of the run: task 1's final row, payments charged and recognised, late
//! statements refused, claims that missed and completions that took effect after their lease.

use serde::Serialize;

use super::{Row, Run};
use crate::engine::msg::RowOp;
use crate::engine::time::Millis;
use crate::engine::trace::{EventKind, Trace};

/// One statement as a run gave it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Side {
    /// When it was sent, in the story's time since the run began.
    pub at_ms: Millis,
    /// The whole second of the table's clock it read (ms): what the table decided by. Two
    /// statements agree in time when they read the same second.
    pub second_ms: Millis,
    pub by: String,
    pub op: RowOp,
    pub task: u8,
    pub affected: u64,
    pub row: Row,
}

/// One statement of each run, at the same place in the order.
#[derive(Debug, Clone, Serialize)]
pub struct Pair {
    pub model: Option<Side>,
    pub live: Option<Side>,
    pub same: bool,
}

/// A fact of each run.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Fact {
    FinalRow,
    Charged,
    Recognised,
    LateRefused,
    LateAccepted,
    ClaimsMissed,
    CompletedAfterLease,
}

#[derive(Debug, Clone, Serialize)]
pub struct FactRow {
    pub fact: Fact,
    pub model: String,
    pub live: String,
}

impl FactRow {
    pub fn same(&self) -> bool {
        self.model == self.live
    }
}

/// The model's statements, as [`Side`]s.
pub fn model_statements(t: &Trace, store_clock_ms: Millis) -> Vec<Side> {
    t.events
        .iter()
        .filter_map(|e| match &e.kind {
            EventKind::RowUpdated {
                row,
                by,
                op,
                affected,
                value,
                ..
            } => Some(Side {
                at_ms: e.at_ms,
                second_ms: (e.at_ms + store_clock_ms) / 1000 * 1000,
                by: t.name(*by).to_string(),
                op: *op,
                task: *row,
                affected: u64::from(*affected),
                row: Row {
                    state: value.state,
                    owner: value.owner.map(|o| t.name(o).to_string()),
                    version: value.version,
                    attempt: value.attempt,
                    lease_until_ms: value.lease_until_ms,
                    result: value.result.map(|o| t.name(o).to_string()),
                    cancel_requested: value.cancel_requested,
                },
            }),
            _ => None,
        })
        .collect()
}

/// The live statements, as [`Side`]s.
pub fn live_statements(r: &Run) -> Vec<Side> {
    r.statements
        .iter()
        .map(|s| Side {
            at_ms: s.at_ms,
            second_ms: s.store_ms,
            by: s.by.clone(),
            op: s.op,
            task: s.task,
            affected: s.affected,
            row: s.row.clone(),
        })
        .collect()
}

/// Statement by statement.
pub fn pairs(model: &Trace, live: &Run, store_clock_ms: Millis) -> Vec<Pair> {
    let m = model_statements(model, store_clock_ms);
    let l = live_statements(live);
    (0..m.len().max(l.len()))
        .map(|i| {
            let (model, live) = (m.get(i).cloned(), l.get(i).cloned());
            let same = match (&model, &live) {
                (Some(a), Some(b)) => {
                    a.by == b.by
                        && a.op == b.op
                        && a.task == b.task
                        && a.affected == b.affected
                        && a.row == b.row
                        && a.second_ms == b.second_ms
                }
                _ => false,
            };
            Pair { model, live, same }
        })
        .collect()
}

/// `DONE/B/v2/#2`: state, owner, claim version, attempt.
pub fn row_text(r: &Row) -> String {
    let state = serde_json::to_value(r.state)
        .ok()
        .and_then(|v| v.as_str().map(str::to_uppercase))
        .unwrap_or_default();
    format!(
        "{state}/{}/v{}/#{}",
        r.owner.as_deref().unwrap_or("-"),
        r.version,
        r.attempt
    )
}

/// Renewals and completions under a claim version someone had since overtaken: refused (0
/// rows) and accepted.
fn late(statements: &[Side], carried: impl Fn(usize) -> Option<u64>) -> (u32, u32) {
    let mut highest = Vec::new();
    let (mut refused, mut accepted) = (0, 0);
    for (i, s) in statements.iter().enumerate() {
        let t = usize::from(s.task);
        if highest.len() <= t {
            highest.resize(t + 1, 0);
        }
        match s.op {
            RowOp::Claim if s.affected == 1 => highest[t] = s.row.version,
            RowOp::Renew | RowOp::Complete if carried(i).is_some_and(|v| v < highest[t]) => {
                if s.affected == 0 {
                    refused += 1;
                } else if s.op == RowOp::Complete {
                    accepted += 1;
                }
            }
            _ => {}
        }
    }
    (refused, accepted)
}

/// The run's facts, each as the model and the live run give it.
pub fn facts(model: &Trace, live: &Run) -> Vec<FactRow> {
    let m = crate::engine::families::tasks::metrics(model);
    let mut rows = Vec::new();
    let model_row = model_statements(model, 0)
        .iter()
        .rev()
        .find(|s| s.task == 0)
        .map(|s| row_text(&s.row));
    let live_row = live.rows.first().map(row_text);
    rows.push(FactRow {
        fact: Fact::FinalRow,
        model: model_row.unwrap_or_else(|| "READY/-/v0/#0".into()),
        live: live_row.unwrap_or_default(),
    });
    let charged = live.payments.iter().filter(|p| p.charged).count();
    let recognised = live.payments.len() - charged;
    let l = live_statements(live);
    let (refused, accepted) = late(&l, |i| live.statements[i].carried);
    let missed = l
        .iter()
        .filter(|s| s.op == RowOp::Claim && s.affected == 0)
        .count() as u32;
    let after_lease = l
        .iter()
        .filter(|s| {
            s.op == RowOp::Complete
                && s.affected == 1
                && s.row.lease_until_ms.is_some_and(|u| u < s.second_ms)
        })
        .count() as u32;
    let figures = [
        (Fact::Charged, m.map(|m| m.effects_applied), charged as u32),
        (
            Fact::Recognised,
            m.map(|m| m.effects_deduplicated),
            recognised as u32,
        ),
        (Fact::LateRefused, m.map(|m| m.late_refused), refused),
        (Fact::LateAccepted, m.map(|m| m.late_accepted), accepted),
        (Fact::ClaimsMissed, m.map(|m| m.claims_missed), missed),
        (
            Fact::CompletedAfterLease,
            m.map(|m| m.completed_after_lease),
            after_lease,
        ),
    ];
    for (fact, model, live) in figures {
        rows.push(FactRow {
            fact,
            model: model.map(|v| v.to_string()).unwrap_or_default(),
            live: live.to_string(),
        });
    }
    rows
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::msg::RowState;

    fn side(by: &str, op: RowOp, affected: u64, version: u64) -> Side {
        Side {
            at_ms: 0,
            second_ms: 0,
            by: by.into(),
            op,
            task: 0,
            affected,
            row: Row {
                state: RowState::Running,
                owner: Some(by.into()),
                version,
                attempt: version as u32,
                lease_until_ms: None,
                result: None,
                cancel_requested: false,
            },
        }
    }

    #[test]
    fn only_statements_under_an_overtaken_version_count_as_late() {
        use RowOp::*;
        // A claims version 1, B takes over with version 2; A's renewal under 1 is refused and
        // its unconditional completion under 1 goes through; B's renewal under 2 is on time.
        let statements = [
            side("A", Claim, 1, 1),
            side("A", Renew, 1, 1),
            side("B", Claim, 1, 2),
            side("A", Renew, 0, 2),
            side("A", Complete, 1, 2),
            side("B", Renew, 1, 2),
        ];
        let carried = [None, Some(1), None, Some(1), Some(1), Some(2)];
        assert_eq!(late(&statements, |i| carried[i]), (1, 1));
    }

    #[test]
    fn a_row_reads_state_owner_version_and_attempt() {
        let mut r = side("B", RowOp::Claim, 1, 2).row;
        r.state = RowState::Done;
        assert_eq!(row_text(&r), "DONE/B/v2/#2");
        r.owner = None;
        r.state = RowState::Cancelled;
        assert_eq!(row_text(&r), "CANCELLED/-/v2/#2");
    }
}
