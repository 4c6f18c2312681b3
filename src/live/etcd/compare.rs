//! A live etcd run beside the model's: who held and in which order, stale writes accepted and
//! refused, and whose value the data held at the end must be the same; each lock, the first
//! lease expiry, the hand-over after it, each write and the instant a client learned its
//! session was done are compared within a tolerance.
//!
//! Allowed differences, from etcd and the machine:
//! * A lock is a lease grant, the mutex's Txn and a read: three round trips, each twice the
//!   model's one-way delay (loopback has all but none), plus [`SLACK_MS`] for the processes'
//!   scheduling.
//! * A lease expires on etcd's lessor, which looks for expired leases every 500 ms
//!   ([`REVOKE_CHECK_MS`]) at a phase of its own, then revokes through raft: an expiry may differ
//!   by that check and a commit ([`EXPIRY_LATE_MAX`](super::server::EXPIRY_LATE_MAX)).
//! * A lock after another (a hand-over) is measured from the deletion of the key before it,
//!   by an unlock or an expiry: the watch's event and a read, two round trips.
//! * A write is measured from its writer's lock: each earlier write's round trip is part of the
//!   holder's running time in the model, so the n-th write may differ by n round trips.
//! * A client learns its session is done on the library's deadline loop (every second in the
//!   model, [`DEADLINE_LOOP_MS`]); the live client looks between keep-alives, one of which may
//!   wait its whole request timeout on a cut link.

use super::server::EXPIRY_LATE_MAX;
use crate::engine::params::EtcdParams;
use crate::engine::time::Millis;
use crate::engine::trace::Trace;
use crate::engine::trace::etcd::protocol::DEADLINE_LOOP_MS;
use crate::engine::trace::etcd::{EtcdMetrics, Hold};
use crate::live::diff::{Aspect, Row};
use crate::live::instants::{At, Kind};
use crate::live::redis::compare::{fact, instant, list};

/// What the processes of a run may lose to the machine's scheduling at one step.
pub const SLACK_MS: Millis = 50;
/// How long the live client's keep-alive may wait for an answer.
pub const KEEPALIVE_WAIT_MS: Millis = 1_500;

pub use crate::engine::trace::etcd::protocol::REVOKE_CHECK_MS;

fn metrics(t: &Trace) -> Option<&EtcdMetrics> {
    crate::engine::families::etcd::metrics(t)
}

/// The tolerances of a run of `p`.
pub struct Allow {
    pub round_trip_ms: Millis,
    pub lock_ms: Millis,
    pub expiry_ms: Millis,
    pub learned_ms: Millis,
}

impl Allow {
    pub fn of(p: &EtcdParams) -> Self {
        let round_trip_ms = 2 * p.delay_ms + SLACK_MS;
        Allow {
            round_trip_ms,
            lock_ms: 3 * round_trip_ms,
            expiry_ms: EXPIRY_LATE_MAX.as_millis() as Millis,
            learned_ms: DEADLINE_LOOP_MS + KEEPALIVE_WAIT_MS + round_trip_ms,
        }
    }
}

fn at(ms: Millis, after: Option<Millis>) -> At {
    At {
        at_ms: ms,
        after_ms: after,
    }
}

/// The writes `client` made during `hold`, each measured from the lock.
fn writes_of(t: &Trace, h: &Hold) -> Vec<At> {
    let Some(id) = t.actor_named(&h.client) else {
        return Vec::new();
    };
    t.writes
        .iter()
        .filter(|w| w.writer == id && w.token == h.token)
        .map(|w| at(w.at_ms, Some(w.at_ms - h.locked_ms)))
        .collect()
}

/// Every fact of the two runs side by side, then every instant with its tolerance.
pub fn compare(p: &EtcdParams, model: &Trace, live: &Trace) -> Vec<Row> {
    let (Some(m), Some(l)) = (metrics(model), metrics(live)) else {
        return Vec::new();
    };
    let who = |x: &[Hold]| list(x.iter().map(|h| h.client.clone()).collect());
    let value = |v: &Option<String>| v.clone().unwrap_or_else(|| "-".into());
    let mut rows = vec![
        fact(Aspect::Holders, who(&m.holds), who(&l.holds)),
        fact(
            Aspect::StaleAccepted,
            m.stale_writes_accepted.to_string(),
            l.stale_writes_accepted.to_string(),
        ),
        fact(
            Aspect::StaleRejected,
            m.stale_writes_refused.to_string(),
            l.stale_writes_refused.to_string(),
        ),
        fact(
            Aspect::FinalValue,
            value(&m.final_value),
            value(&l.final_value),
        ),
    ];
    let allow = Allow::of(p);
    let first = |x: &EtcdMetrics| x.first_expiry_ms.map(|e| at(e, None));
    let expired_whose = m.holds.iter().find(|h| h.ended_ms == m.first_expiry_ms);
    if m.first_expiry_ms.is_some() || l.first_expiry_ms.is_some() {
        rows.push(instant(
            Kind::Expiry,
            expired_whose.map_or("-", |h| h.client.as_str()),
            first(m),
            first(l),
            |x| x.at_ms,
            allow.expiry_ms,
        ));
    }
    let mut used = vec![false; l.holds.len()];
    for (i, h) in m.holds.iter().enumerate() {
        let found = l
            .holds
            .iter()
            .enumerate()
            .position(|(j, g)| !used[j] && g.client == h.client);
        let g = found.map(|j| {
            used[j] = true;
            &l.holds[j]
        });
        // A later lock is a hand-over, measured from the deletion of the key before it.
        let from_previous = |x: &[Hold], j: usize| {
            let hold = &x[j];
            let before = j.checked_sub(1).and_then(|k| x[k].ended_ms);
            at(
                hold.locked_ms,
                before.map(|e| hold.locked_ms.saturating_sub(e)),
            )
        };
        let (kind, tolerance) = if i == 0 {
            (Kind::Grant, allow.lock_ms)
        } else {
            (Kind::Handover, 2 * allow.round_trip_ms)
        };
        let measure = move |x: &At| match kind {
            Kind::Handover => x.after_ms.unwrap_or(x.at_ms),
            _ => x.at_ms,
        };
        rows.push(instant(
            kind,
            &h.client,
            Some(from_previous(&m.holds, i)),
            found.map(|j| from_previous(&l.holds, j)),
            measure,
            tolerance,
        ));
        let (mw, lw) = (
            writes_of(model, h),
            g.map(|g| writes_of(live, g)).unwrap_or_default(),
        );
        for (n, w) in mw.iter().enumerate() {
            rows.push(instant(
                Kind::Write,
                &h.client,
                Some(*w),
                lw.get(n).copied(),
                |x| x.after_ms.unwrap_or(0),
                allow.round_trip_ms * (n as Millis + 1),
            ));
        }
    }
    after_the_end(&mut rows, live.end_ms);
    if m.learned_ms.is_some() || l.learned_ms.is_some() {
        let learned = |x: &EtcdMetrics| x.learned_ms.map(|t| at(t, None));
        rows.push(instant(
            Kind::Learned,
            expired_whose.map_or("-", |h| h.client.as_str()),
            learned(m),
            learned(l),
            |x| x.at_ms,
            allow.learned_ms,
        ));
    }
    rows
}

/// A write the model makes so near its end that the live one, allowed that much later, may
/// fall after the live run has ended: missing from the live run, it agrees within tolerance.
fn after_the_end(rows: &mut [Row], live_end_ms: Millis) {
    for row in rows.iter_mut() {
        let Some(i) = row.instant.as_mut() else {
            continue;
        };
        if let (Kind::Write, Some(m), None) = (i.kind, i.model, i.live)
            && m.at_ms + i.tolerance_ms > live_end_ms
        {
            i.within = true;
            row.near_end_ms = Some(live_end_ms.saturating_sub(m.at_ms));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn write(model_ms: Millis, live: Option<Millis>, tolerance_ms: Millis) -> Row {
        instant(
            Kind::Write,
            "B",
            Some(at(model_ms, Some(model_ms))),
            live.map(|l| at(l, Some(l))),
            |x| x.after_ms.unwrap_or(0),
            tolerance_ms,
        )
    }

    #[test]
    fn a_write_missing_only_because_the_live_run_ended_first_agrees() {
        // The live run ends at 8,000. The model's write at 7,840 may come up to 1,260 ms
        // later live, so its absence is the end's; one at 6,000 had time to happen.
        let mut rows = vec![
            write(7_840, None, 1_260),
            write(6_000, None, 1_260),
            write(7_900, Some(7_950), 100),
        ];
        after_the_end(&mut rows, 8_000);
        assert!(rows[0].same());
        assert_eq!(rows[0].near_end_ms, Some(160));
        assert!(
            !rows[1].same(),
            "a write the live run had time for is missing"
        );
        assert!(rows[2].same());
        assert_eq!(rows[2].near_end_ms, None);
    }
}
