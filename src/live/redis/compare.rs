//! A live Redlock run beside the model's: who acquired and in which order, the most holders at
//! once, stale writes accepted, keys deleted by another client and the resource's final value
//! must be the same; each acquisition's instant, its validity, each write and the time two
//! clients held at once are compared within a tolerance.
//!
//! Allowed differences, from the algorithm and the machine:
//! * Each SET is a round trip; the model gives each one twice its network delay, loopback all
//!   but none. A request timeout is waited for real in both. So an attempt's time, and with it
//!   the validity (ttl − elapsed − drift), may differ by one round trip per node, plus
//!   [`SLACK_MS`] for the processes' scheduling.
//! * A client that retries starts each attempt that much earlier than the model's: an
//!   acquisition's instant may differ by that allowance once per attempt the client made.
//! * A write is measured from its writer's acquisition: one round trip to the resource, plus
//!   the slack. The time two clients held at once is allowed the sum of the allowances of the
//!   acquisitions in the run, plus that round trip.

use crate::engine::params::RedlockParams;
use crate::engine::time::Millis;
use crate::engine::trace::redlock::Acquisition;
use crate::engine::trace::{EventKind, Trace};
use crate::live::diff::{Aspect, Row};
use crate::live::instants::{At, Instant, Kind};

pub use crate::live::instants::SLACK_MS;

fn metrics(t: &Trace) -> Option<&crate::engine::trace::redlock::RedlockMetrics> {
    crate::engine::families::redlock::metrics(t)
}

pub(crate) fn list(v: Vec<String>) -> String {
    if v.is_empty() {
        "-".to_string()
    } else {
        v.join(", ")
    }
}

pub(crate) fn fact(aspect: Aspect, model: String, live: String) -> Row {
    Row {
        aspect,
        model,
        live,
        instant: None,
        near_end_ms: None,
    }
}

/// Attempts `client` started up to and including the one at `started_ms`.
fn attempts_until(t: &Trace, client: &str, started_ms: Millis) -> u64 {
    let Some(id) = t.actor_named(client) else {
        return 1;
    };
    t.events
        .iter()
        .filter(|e| e.actor == id && e.at_ms <= started_ms)
        .filter(|e| {
            matches!(
                e.kind,
                EventKind::Redlock(
                    crate::engine::trace::redlock::RedlockEvent::AttemptStarted { .. }
                )
            )
        })
        .count()
        .max(1) as u64
}

struct Allow {
    /// One round trip per node.
    attempt_ms: Millis,
    round_trip_ms: Millis,
}

impl Allow {
    fn of(p: &RedlockParams) -> Self {
        Allow {
            attempt_ms: u64::from(p.nodes) * 2 * p.delay_ms + SLACK_MS,
            round_trip_ms: 2 * p.delay_ms + SLACK_MS,
        }
    }

    fn acquire(&self, model: &Trace, a: &Acquisition) -> Millis {
        attempts_until(model, &a.client, a.started_ms) * self.attempt_ms
    }
}

pub(crate) fn instant(
    kind: Kind,
    client: &str,
    model: Option<At>,
    live: Option<At>,
    measure: impl Fn(&At) -> Millis,
    tolerance_ms: Millis,
) -> Row {
    let apart_ms = model
        .as_ref()
        .zip(live.as_ref())
        .map(|(m, l)| measure(m).abs_diff(measure(l)));
    let at = |x: Option<At>| {
        x.map_or_else(
            || "-".to_string(),
            |x| crate::engine::time::fmt_secs(x.at_ms),
        )
    };
    Row {
        aspect: Aspect::Instant,
        model: at(model),
        live: at(live),
        instant: Some(Instant {
            kind,
            client: client.to_string(),
            model,
            live,
            tolerance_ms,
            apart_ms,
            within: apart_ms.is_some_and(|d| d <= tolerance_ms),
        }),
        near_end_ms: None,
    }
}

/// Every fact of the two runs side by side, then every instant with its tolerance.
pub fn compare(p: &RedlockParams, model: &Trace, live: &Trace) -> Vec<Row> {
    let (Some(m), Some(l)) = (metrics(model), metrics(live)) else {
        return Vec::new();
    };
    let who = |x: &[Acquisition]| list(x.iter().map(|a| a.client.clone()).collect());
    let mut rows = vec![
        fact(Aspect::Holders, who(&m.acquisitions), who(&l.acquisitions)),
        fact(
            Aspect::MaxHolders,
            m.max_holders.to_string(),
            l.max_holders.to_string(),
        ),
        fact(
            Aspect::StaleAccepted,
            m.stale_writes_accepted.to_string(),
            l.stale_writes_accepted.to_string(),
        ),
        fact(
            Aspect::ForeignDeletes,
            m.foreign_deletes.to_string(),
            l.foreign_deletes.to_string(),
        ),
        fact(
            Aspect::FinalValue,
            m.final_value.clone().unwrap_or_else(|| "-".into()),
            l.final_value.clone().unwrap_or_else(|| "-".into()),
        ),
    ];
    let allow = Allow::of(p);
    let mut used = vec![false; l.acquisitions.len()];
    let mut total = allow.round_trip_ms;
    for a in &m.acquisitions {
        let found = l
            .acquisitions
            .iter()
            .enumerate()
            .position(|(i, b)| !used[i] && b.client == a.client);
        let b = found.map(|i| {
            used[i] = true;
            &l.acquisitions[i]
        });
        let acquire = allow.acquire(model, a);
        total += acquire;
        let got = |x: &Acquisition| At {
            at_ms: x.acquired_ms,
            after_ms: Some(x.elapsed_ms),
        };
        rows.push(instant(
            Kind::Acquire,
            &a.client,
            Some(got(a)),
            b.map(got),
            |x| x.at_ms,
            acquire,
        ));
        let valid = |x: &Acquisition| At {
            at_ms: x.valid_until_ms,
            after_ms: Some(x.validity_ms.max(0) as Millis),
        };
        rows.push(instant(
            Kind::Validity,
            &a.client,
            Some(valid(a)),
            b.map(valid),
            |x| x.after_ms.unwrap_or(0),
            allow.attempt_ms,
        ));
        // The write this acquisition led to, measured from it.
        let write = |t: &Trace, x: &Acquisition| {
            let id = t.actor_named(&x.client)?;
            t.writes
                .iter()
                .find(|w| w.writer == id && w.at_ms >= x.acquired_ms)
                .map(|w| At {
                    at_ms: w.at_ms,
                    after_ms: Some(w.at_ms - x.acquired_ms),
                })
        };
        let (mw, lw) = (write(model, a), b.and_then(|b| write(live, b)));
        if mw.is_some() || lw.is_some() {
            rows.push(instant(
                Kind::Write,
                &a.client,
                mw,
                lw,
                |x| x.after_ms.unwrap_or(0),
                allow.round_trip_ms,
            ));
        }
    }
    for (i, b) in l.acquisitions.iter().enumerate().filter(|(i, _)| !used[*i]) {
        let _ = i;
        let got = At {
            at_ms: b.acquired_ms,
            after_ms: Some(b.elapsed_ms),
        };
        rows.push(instant(
            Kind::Acquire,
            &b.client,
            None,
            Some(got),
            |x| x.at_ms,
            0,
        ));
    }
    let span = |ms: Millis| At {
        at_ms: ms,
        after_ms: None,
    };
    rows.push(instant(
        Kind::Overlap,
        "",
        Some(span(m.two_holders_ms)),
        Some(span(l.two_holders_ms)),
        |x| x.at_ms,
        total,
    ));
    rows
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::params::Params;

    fn model(name: &str) -> (RedlockParams, Trace) {
        let p = crate::scenario::find(name).expect("a preset");
        let Params::Redlock(r) = &p.params else {
            panic!("a Redlock preset")
        };
        (r.clone(), crate::engine::run(&p.params))
    }

    #[test]
    fn a_run_agrees_with_itself() {
        for name in [
            "redlock-restart",
            "redlock-restart-fsync",
            "redlock-gc-pause",
            "redlock-clock-jump",
            "redlock-naive-del",
        ] {
            let (p, t) = model(name);
            let rows = compare(&p, &t, &t);
            assert!(rows.iter().all(Row::same), "{name}: {rows:#?}");
            assert!(rows.iter().any(|r| r.instant.is_some()), "{name}");
        }
    }

    #[test]
    fn a_second_holder_the_model_does_not_have_is_a_difference() {
        let (p, t) = model("redlock-restart");
        let (_, other) = model("redlock-gc-pause");
        let d: Vec<Row> = compare(&p, &t, &other)
            .into_iter()
            .filter(|r| !r.same())
            .collect();
        let aspects: Vec<Aspect> = d.iter().map(|r| r.aspect).collect();
        // restart: two holders at once, for 1.54 s; gc-pause: one at a time.
        assert!(aspects.contains(&Aspect::MaxHolders), "{d:#?}");
        let overlap = d
            .iter()
            .filter_map(|r| r.instant.as_ref())
            .find(|i| i.kind == Kind::Overlap)
            .expect("the time of two holders differs");
        assert_eq!(overlap.apart_ms, Some(1_540));
    }

    #[test]
    fn the_restart_run_allows_one_round_trip_per_node_for_an_attempt() {
        let (p, t) = model("redlock-restart");
        let rows = compare(&p, &t, &t);
        let v = rows
            .iter()
            .filter_map(|r| r.instant.as_ref())
            .find(|i| i.kind == Kind::Validity)
            .expect("a validity row");
        // The worked example: 10,000 − 120 − 102 = 9,778 ms; five nodes × 2 × 10 ms + 50 ms.
        assert_eq!(v.model.and_then(|m| m.after_ms), Some(9_778));
        assert_eq!(v.tolerance_ms, 150);
    }
}
