//! The instants of an A/B/C run that a live run is held to: each grant (measured from the
//! client's create, or, for a hand-over, from the deletion that freed the lock), each session
//! expiry, and each write's arrival (from its writer's grant, or from the wake or reconnect
//! that let a held-back write go), with what each may differ by.
//!
//! Allowed differences, from the protocol:
//! * A grant or hand-over is a chain of messages; the model sends each one with its network
//!   delay and answers at once, loopback is all but instant and a real server takes time to
//!   answer. Allowed: the model's own time for the chain, plus one network delay and the
//!   slowest answer the server gave in the run.
//! * A write is one message after its timer: one network delay.
//! * An expiry lands on the first tick boundary after the session was last heard from plus its
//!   timeout: the two runs agree when they expire on the same boundary. The live session's own
//!   last heartbeat says which boundary that is on the model's grid; allowed: the distance from
//!   that boundary to the model's (0 when both heartbeats round to the same tick, one tick when
//!   the two libraries' heartbeats straddle one), plus half a tick for what the server does after
//!   the boundary (wake its session tracker, commit the close, notify), which the model does
//!   not; half a tick never reaches the next boundary. Where the server's phase is not known,
//!   one tick more.

use serde::Serialize;

use crate::engine::msg::ActorMsg;
use crate::engine::time::Millis;
use crate::engine::trace::{EventKind, Fate, Trace};
use crate::engine::world::ActorId;
use crate::engine::zk::service::next_boundary;

/// What the comparison needs to know of the run's service and network.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Allowance {
    pub tick_ms: Millis,
    /// The model's grid: boundaries at `tick_phase_ms + k * tick_ms`.
    pub tick_phase_ms: Millis,
    /// Whether that phase is the server's, read off its clock.
    pub phase_known: bool,
    /// The model's one-way network delay.
    pub delay_ms: Millis,
    /// The session timeout the server granted.
    pub timeout_ms: Millis,
}

impl Allowance {
    pub fn for_abc(p: &crate::engine::params::AbcParams, phase_known: bool) -> Self {
        Self {
            tick_ms: p.tick_ms.max(1),
            tick_phase_ms: p.tick_phase_ms % p.tick_ms.max(1),
            phase_known,
            delay_ms: p.delay_ms,
            timeout_ms: crate::engine::zk::service::negotiate(p.session_timeout_ms, p.tick_ms),
        }
    }
}

/// What the processes of a live run may lose to the machine's scheduling at one step: a
/// client's timer fires, or its answer is read, this much after the model's instant.
pub const SLACK_MS: Millis = 50;

/// Which instant a row holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Kind {
    /// A grant with no release before it: measured from the client's create.
    Grant,
    /// A grant after a lock node was deleted: measured from that deletion.
    Handover,
    Expiry,
    /// A write's arrival at the resource: measured from its writer's grant, or from the wake
    /// or the reconnect that let a held-back write go.
    Write,
    /// Redlock: an acquisition, at its instant, with the time its attempt took.
    Acquire,
    /// Redlock: the validity an acquisition computed, and the instant it runs out.
    Validity,
    /// Redlock: how long two or more clients believed they held at once.
    Overlap,
    /// etcd: when a client whose lease was gone learned its session was done.
    Learned,
}

/// One instant of one run: when, and how long after what it is measured from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct At {
    pub at_ms: Millis,
    /// The time from what it is measured from (none for an expiry, compared as an instant).
    pub after_ms: Option<Millis>,
}

/// An instant of each run side by side, what they may differ by, and whether they do.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Instant {
    pub kind: Kind,
    /// The client it is about (the model's, where the runs disagree on who).
    pub client: String,
    pub model: Option<At>,
    pub live: Option<At>,
    pub tolerance_ms: Millis,
    /// How far apart the two are (what is measured: `after_ms`, or `at_ms` for an expiry).
    pub apart_ms: Option<Millis>,
    pub within: bool,
}

struct Seen {
    kind: Kind,
    actor: ActorId,
    at: At,
}

/// Whether `a` is one of the trace's clients (not the service or a resource).
fn is_lock_client(t: &Trace, a: ActorId) -> bool {
    t.actors
        .iter()
        .any(|i| i.id == a && i.role == crate::engine::trace::Role::Client)
}

/// The instants of one trace, in the order they happened within each kind.
fn seen(t: &Trace) -> Vec<Seen> {
    let mut out = Vec::new();
    let created = |a: ActorId| {
        t.events
            .iter()
            .find(|e| e.actor == a && matches!(e.kind, EventKind::CreateSent { .. }))
            .map(|e| e.at_ms)
    };
    for e in &t.events {
        match &e.kind {
            // A read-write lock's readers and a semaphore's permit holders are admitted: a grant
            // all the same.
            EventKind::Acquired { .. } | EventKind::Admitted { .. } => {
                let from = created(e.actor).unwrap_or(0);
                let freed = t
                    .events
                    .iter()
                    .filter(|d| {
                        matches!(d.kind, EventKind::NodeDeleted { .. })
                            && d.at_ms >= from
                            && d.at_ms <= e.at_ms
                    })
                    .map(|d| d.at_ms)
                    .next_back();
                let (kind, since) = match freed {
                    Some(d) => (Kind::Handover, d),
                    None => (Kind::Grant, from),
                };
                out.push(Seen {
                    kind,
                    actor: e.actor,
                    at: At {
                        at_ms: e.at_ms,
                        after_ms: Some(e.at_ms - since),
                    },
                });
            }
            EventKind::SessionExpired { owner, .. } if is_lock_client(t, *owner) => {
                out.push(Seen {
                    kind: Kind::Expiry,
                    actor: *owner,
                    at: At {
                        at_ms: e.at_ms,
                        after_ms: None,
                    },
                });
            }
            _ => {}
        }
    }
    for w in &t.writes {
        // A write is due its timer after the grant, or at once when what held it back ends:
        // a pause (the wake) or a suspension (the reconnect that finds the node still first).
        // Measured from the latest of these. A suspension that ended before the write was
        // due (no write deferred in it) held nothing back: its reconnect is no reference.
        let mut deferred = false;
        let mut grant = None;
        for e in t
            .events
            .iter()
            .filter(|e| e.actor == w.writer && e.at_ms <= w.at_ms)
        {
            match e.kind {
                EventKind::Acquired { .. } | EventKind::Woke => grant = Some(e.at_ms),
                EventKind::WriteDeferred => deferred = true,
                EventKind::Revalidated { still_first: true } if deferred => grant = Some(e.at_ms),
                _ => {}
            }
        }
        out.push(Seen {
            kind: Kind::Write,
            actor: w.writer,
            at: At {
                at_ms: w.at_ms,
                after_ms: grant.map(|g| w.at_ms - g),
            },
        });
    }
    out
}

/// When the service last heard from `client` at or before `until`: its last request that got
/// through (a write to the resource is no word to the service), sent `one_way_ms` before it
/// arrived (the live run's loopback: 0; a live request's answer dates its delivery, not its
/// arrival).
fn last_heard(t: &Trace, client: ActorId, until: Millis, one_way_ms: Millis) -> Option<Millis> {
    t.messages
        .iter()
        .filter(|m| {
            m.from == client
                && m.fate == Fate::Delivered
                && matches!(m.msg, ActorMsg::ZkRequest { .. })
        })
        .map(|m| m.sent_ms + one_way_ms)
        .filter(|&at| at <= until)
        .max()
}

/// The slowest answer the service gave in a run, from request to reply: the time a real server
/// takes to apply a request (a transaction is written to its log first), which the model's
/// service does not take.
fn slowest_answer_ms(t: &Trace) -> Millis {
    t.messages
        .iter()
        .filter(|m| matches!(m.msg, ActorMsg::ZkRequest { .. }))
        .filter_map(|m| m.received_ms.map(|r| r.saturating_sub(m.sent_ms)))
        .max()
        .unwrap_or(0)
}

fn tolerance(
    kind: Kind,
    model: &At,
    live: &At,
    lt: &Trace,
    actor: ActorId,
    a: &Allowance,
) -> Millis {
    match kind {
        Kind::Grant | Kind::Handover => {
            model.after_ms.unwrap_or(0) + a.delay_ms + slowest_answer_ms(lt)
        }
        Kind::Write => a.delay_ms + SLACK_MS,
        // Redlock's and etcd's rows carry their tolerance from their own comparison.
        Kind::Acquire | Kind::Validity | Kind::Overlap | Kind::Learned => 0,
        Kind::Expiry => {
            // The server sees its boundary, wakes its session tracker, commits the close and
            // notifies: all after the boundary, none in the model. Up to half a tick of that
            // still names the same boundary, never the next.
            let lag = a.tick_ms / 2;
            if !a.phase_known {
                return a.tick_ms + lag;
            }
            let own = last_heard(lt, actor, live.at_ms, 0)
                .map(|h| next_boundary(h + a.timeout_ms, a.tick_ms, a.tick_phase_ms));
            own.map_or(a.tick_ms, |b| b.abs_diff(model.at_ms)) + lag
        }
    }
}

/// Every instant of the two runs side by side, paired by kind, client and order.
pub fn compare(model: &Trace, live: &Trace, a: &Allowance) -> Vec<Instant> {
    let (ms, ls) = (seen(model), seen(live));
    let mut out = Vec::new();
    let mut used = vec![false; ls.len()];
    for m in &ms {
        let name = model.name(m.actor).to_string();
        let found = ls
            .iter()
            .enumerate()
            .position(|(i, l)| !used[i] && l.kind == m.kind && live.name(l.actor) == name);
        let l = found.map(|i| {
            used[i] = true;
            &ls[i]
        });
        out.push(pair(m.kind, name, Some(m), l, live, a));
    }
    for (_, l) in ls.iter().enumerate().filter(|(i, _)| !used[*i]) {
        out.push(pair(
            l.kind,
            live.name(l.actor).to_string(),
            None,
            Some(l),
            live,
            a,
        ));
    }
    out
}

fn pair(
    kind: Kind,
    client: String,
    m: Option<&Seen>,
    l: Option<&Seen>,
    lt: &Trace,
    a: &Allowance,
) -> Instant {
    let measure = |s: &At| match kind {
        Kind::Expiry => Some(s.at_ms),
        _ => s.after_ms,
    };
    let (tolerance_ms, apart_ms) = match (m, l) {
        (Some(m), Some(l)) => (
            tolerance(kind, &m.at, &l.at, lt, l.actor, a),
            measure(&m.at)
                .zip(measure(&l.at))
                .map(|(x, y)| x.abs_diff(y)),
        ),
        _ => (0, None),
    };
    Instant {
        kind,
        client,
        model: m.map(|s| s.at),
        live: l.map(|s| s.at),
        tolerance_ms,
        apart_ms,
        within: apart_ms.is_some_and(|d| d <= tolerance_ms),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::params::Params;

    fn model(name: &str, phase: Millis) -> (Trace, Allowance) {
        let p = crate::scenario::find(name).expect("a preset");
        let Params::Abc(mut p) = p.params.clone() else {
            panic!("an A/B/C preset")
        };
        p.tick_phase_ms = phase;
        let a = Allowance::for_abc(&p, true);
        (crate::engine::run(&Params::Abc(p)), a)
    }

    #[test]
    fn a_run_agrees_with_itself_on_every_instant() {
        let (t, a) = model("gc-pause-fencing", 0);
        let rows = compare(&t, &t, &a);
        let kinds: Vec<Kind> = rows.iter().map(|r| r.kind).collect();
        assert_eq!(
            kinds,
            [
                Kind::Grant,
                Kind::Expiry,
                Kind::Handover,
                Kind::Handover,
                Kind::Write,
                Kind::Write,
                Kind::Write
            ],
            "{rows:#?}"
        );
        assert!(rows.iter().all(|r| r.within), "{rows:#?}");
        // A's grant: its create and the children read, four one-way delays of 10 ms.
        assert_eq!(rows[0].model.and_then(|m| m.after_ms), Some(40));
        // B's hand-over after A's expiry: the notification, B's read and its answer.
        assert_eq!(rows[2].model.and_then(|m| m.after_ms), Some(30));
    }

    #[test]
    fn an_expiry_on_another_tick_of_the_same_grid_is_a_disagreement() {
        // The server's grid at 0.2 + 2k s, the model's anchored at 0: A's session expires at
        // 4.2 s on the server and at 6 s in the model, with the same last heartbeat.
        let (live, _) = model("gc-pause-fencing", 200);
        let (m, a) = model("gc-pause-fencing", 0);
        let rows = compare(&m, &live, &a);
        let e = rows
            .iter()
            .find(|r| r.kind == Kind::Expiry)
            .expect("an expiry row");
        assert_eq!(e.model.map(|x| x.at_ms), Some(6_000));
        assert_eq!(e.live.map(|x| x.at_ms), Some(4_200));
        assert!(!e.within, "{e:?}");
        // With the server's phase the model expires in the same tick.
        let (m, a) = model("gc-pause-fencing", 200);
        assert!(compare(&m, &live, &a).iter().all(|r| r.within));
    }

    /// Applied to the model's own trace, the rule the tolerance uses (the first boundary after
    /// the last request plus the timeout) gives the model's expiry, on any grid: a holder that
    /// writes to the resource after its last request is not heard by the service for it.
    #[test]
    fn the_last_request_names_the_boundary_the_service_expires_on() {
        for name in [
            "holder-expires",
            "gc-pause-fencing",
            "waiter-expires",
            "expire",
        ] {
            for phase in [0, 150, 777, 1_999] {
                let (t, a) = model(name, phase);
                for e in &t.events {
                    let EventKind::SessionExpired { owner, .. } = e.kind else {
                        continue;
                    };
                    let heard = last_heard(&t, owner, e.at_ms, a.delay_ms).expect("heard from");
                    let b = next_boundary(heard + a.timeout_ms, a.tick_ms, a.tick_phase_ms);
                    assert_eq!(b, e.at_ms, "{name}, phase {phase}: last heard {heard}");
                }
            }
        }
        // holder-expires crashed early: A's write (1.05 s) is after its last request.
        let p = crate::scenario::find("holder-expires").expect("a preset");
        let Params::Abc(mut p) = p.params.clone() else {
            panic!("an A/B/C preset")
        };
        p.faults = vec![crate::engine::params::Fault::Crash {
            client: "A".into(),
            at_ms: 1_200,
        }];
        let t = crate::engine::run(&Params::Abc(p));
        let a = t.actor_named("A").expect("A");
        assert!(t.writes.iter().any(|w| w.writer == a && w.at_ms > 1_000));
        assert!(last_heard(&t, a, 10_000, 10).is_some_and(|h| h < 1_000));
    }

    #[test]
    fn a_missing_instant_is_a_disagreement() {
        let (t, a) = model("chain", 0);
        let mut short = t.clone();
        short.writes.pop();
        let rows = compare(&t, &short, &a);
        let missing: Vec<&Instant> = rows.iter().filter(|r| !r.within).collect();
        assert_eq!(missing.len(), 1, "{rows:#?}");
        assert_eq!(missing[0].kind, Kind::Write);
        assert!(missing[0].live.is_none());
    }
}
