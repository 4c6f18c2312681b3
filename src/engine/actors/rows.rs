//! A table of jobs or tasks, one row per job, changed only by conditional statements, and the
//! outside system a worker acts on.
//!
//! Each update is one statement, applied atomically when it arrives: its WHERE clause is checked
//! against the row and, if every condition holds, the SET clause is applied and one row is
//! affected; otherwise none is. That is all a worker learns: how many rows its statement touched.
//! The store keeps its own clock (the World's time plus an offset) for leases and due times.

use crate::engine::msg::{ActorMsg, RowCond, RowOp, RowSet, RowState, RowValue};
use crate::engine::time::Millis;
use crate::engine::trace::EventKind;
use crate::engine::world::{ActorId, Cx};

#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct RowStore {
    pub rows: Vec<RowValue>,
    /// The store's clock reads the World's time plus this.
    pub clock_offset_ms: Millis,
}

impl RowStore {
    pub fn clock(&self, now: Millis) -> Millis {
        now + self.clock_offset_ms
    }

    /// Whether `cond` holds for row `r` at store time `t`.
    pub fn matches(r: &RowValue, cond: &RowCond, t: Millis) -> bool {
        // A lease is valid up to and including `lease_until`.
        let expired = r.lease_until_ms.is_none_or(|u| u < t);
        cond.version.is_none_or(|v| r.version == v)
            && cond.epoch.is_none_or(|e| r.epoch == e)
            && cond.owner.is_none_or(|o| r.owner == Some(o))
            && cond.state.is_none_or(|s| r.state == s)
            && (!cond.lease_expired || expired)
            && (!cond.lease_live || !expired)
            && (!cond.claimable
                || (r.state == RowState::Ready && r.due_ms <= t)
                || (r.state == RowState::Running && expired))
    }

    pub fn apply(r: &mut RowValue, set: &RowSet, t: Millis) {
        if let Some(s) = set.state {
            r.state = s;
        }
        if let Some(o) = set.owner {
            r.owner = Some(o);
        }
        if let Some(e) = set.epoch {
            r.epoch = e;
        }
        if let Some(len) = set.lease_for_ms {
            r.lease_until_ms = Some(t + len);
        }
        if set.release {
            r.owner = None;
            r.lease_until_ms = None;
        }
        if set.bump_version {
            r.version += 1;
        }
        if set.bump_attempt {
            r.attempt += 1;
        }
        if let Some(w) = set.result {
            r.result = Some(w);
        }
        if let Some(d) = set.due_in_ms {
            r.due_ms = t + d;
        }
        if set.cancel_requested {
            r.cancel_requested = true;
        }
    }

    pub fn on_msg(&mut self, from: ActorId, msg: ActorMsg, cx: &mut Cx) {
        let t = self.clock(cx.now);
        match msg {
            ActorMsg::RowRead { row } => {
                if let Some(value) = self.rows.get(row as usize).copied() {
                    cx.send(from, ActorMsg::RowValue { row, value });
                }
            }
            ActorMsg::RowScan => {
                let claimable = RowCond {
                    claimable: true,
                    ..RowCond::default()
                };
                let mask = self
                    .rows
                    .iter()
                    .enumerate()
                    .filter(|(_, r)| Self::matches(r, &claimable, t))
                    .fold(0u16, |m, (i, _)| m | (1 << i));
                cx.send(from, ActorMsg::RowCandidates { mask });
            }
            ActorMsg::RowClaimNext { set } => {
                let claimable = RowCond {
                    claimable: true,
                    ..RowCond::default()
                };
                // Each statement here is applied whole as it arrives, so no row is ever locked
                // by another claim: skipping locked rows leaves the first claimable one.
                let Some(row) = self
                    .rows
                    .iter()
                    .position(|r| Self::matches(r, &claimable, t))
                else {
                    cx.send(from, ActorMsg::RowCandidates { mask: 0 });
                    return;
                };
                let r = &mut self.rows[row];
                Self::apply(r, &set, t);
                let value = *r;
                let (row, op, affected) = (row as u8, RowOp::Claim, 1);
                cx.event(EventKind::RowUpdated {
                    row,
                    by: from,
                    op,
                    cond: claimable,
                    affected,
                    value,
                });
                cx.send(
                    from,
                    ActorMsg::RowDone {
                        row,
                        op,
                        affected,
                        value,
                    },
                );
            }
            ActorMsg::RowUpdate { row, op, cond, set } => {
                let Some(r) = self.rows.get_mut(row as usize) else {
                    return;
                };
                // `now()` in a longer transaction is the transaction's start.
                let t = cond.now_as_of_ms.map_or(t, |at| at + self.clock_offset_ms);
                let affected = if Self::matches(r, &cond, t) {
                    Self::apply(r, &set, t);
                    1
                } else {
                    0
                };
                let value = *r;
                cx.event(EventKind::RowUpdated {
                    row,
                    by: from,
                    op,
                    cond,
                    affected,
                    value,
                });
                cx.send(
                    from,
                    ActorMsg::RowDone {
                        row,
                        op,
                        affected,
                        value,
                    },
                );
            }
            _ => {}
        }
    }
}

/// The system a worker's side effect lands in. With an idempotency key it applies each key once;
/// without one, every request is a new effect.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Default)]
pub struct Outside {
    pub applied: Vec<(ActorId, u32)>,
    pub keys: Vec<u64>,
}

impl Outside {
    pub fn on_msg(&mut self, from: ActorId, msg: ActorMsg, cx: &mut Cx) {
        let ActorMsg::Effect { task, attempt, key } = msg else {
            return;
        };
        let repeat = key.is_some_and(|k| self.keys.contains(&k));
        if let Some(k) = key
            && !repeat
        {
            self.keys.push(k);
        }
        if !repeat {
            self.applied.push((from, attempt));
        }
        cx.event(EventKind::EffectApplied {
            task,
            by: from,
            attempt,
            count: self.applied.len() as u32,
            deduplicated: repeat,
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row() -> RowValue {
        RowValue {
            state: RowState::Ready,
            owner: None,
            epoch: 0,
            version: 0,
            lease_until_ms: None,
            attempt: 0,
            due_ms: 100_000,
            result: None,
            cancel_requested: false,
        }
    }

    #[test]
    fn a_claim_needs_the_version_it_read_and_a_due_ready_row() {
        let mut r = row();
        let claim = RowCond {
            version: Some(0),
            claimable: true,
            ..RowCond::default()
        };
        assert!(!RowStore::matches(&r, &claim, 99_000), "not due yet");
        assert!(RowStore::matches(&r, &claim, 100_000));
        let set = RowSet {
            state: Some(RowState::Running),
            owner: Some(ActorId(0)),
            lease_for_ms: Some(30_000),
            bump_version: true,
            bump_attempt: true,
            ..RowSet::default()
        };
        RowStore::apply(&mut r, &set, 100_000);
        assert_eq!(
            (r.version, r.attempt, r.lease_until_ms),
            (1, 1, Some(130_000))
        );
        assert!(
            !RowStore::matches(&r, &claim, 100_000),
            "the second claim of version 0 fails"
        );
        let takeover = RowCond {
            version: Some(1),
            claimable: true,
            ..RowCond::default()
        };
        assert!(
            !RowStore::matches(&r, &takeover, 130_000),
            "the lease still runs at 130"
        );
        assert!(
            RowStore::matches(&r, &takeover, 130_001),
            "lease_until < now(): claimable just after 130"
        );
        let renew = RowCond {
            version: Some(1),
            lease_live: true,
            ..RowCond::default()
        };
        assert!(RowStore::matches(&r, &renew, 130_000));
        assert!(
            !RowStore::matches(&r, &renew, 130_001),
            "a renewal needs a live lease"
        );
    }
}
