//! What a live Redlock run gathered, as the model's [`Trace`]: the clients' steps as they
//! reported them, the nodes' keys as their replies and the watcher showed them, the faults as
//! the run made them, the writes judged as the model judges them (a write is stale when its
//! writer's validity was over or a majority of the nodes no longer held its key), the lanes,
//! the invariants and the family's numbers.

use super::client::{Report, owner_of};
use super::run::{Fault, Gathered, Seen};
use crate::engine::families::redlock::{actors, checks, judge};
use crate::engine::params::{REDLOCK_CLIENTS, REDLOCK_NODES, RedlockParams, ReleaseHow};
use crate::engine::time::Millis;
use crate::engine::trace::Invariant;
use crate::engine::trace::lane::LaneRecorder;
use crate::engine::trace::record::Recorder;
use crate::engine::trace::redlock::{
    Acquisition, Outcome, RedlockEvent, RedlockMetrics, RedlockSpan, outcome,
};
use crate::engine::trace::{
    EventKind, Family, InvariantReport, Metrics, SpanState, Trace, WriteRecord, invariant,
};
use crate::engine::world::ActorId;

/// A release reported this soon after the watcher saw the key go deleted it; the watcher and
/// the client see the same deletion over different connections.
const SAME_DELETION_MS: Millis = 30;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Step {
    Idle,
    Acquiring { ok: u8, asked: u8 },
    Holding,
    Backoff,
    Released,
}

struct ClientState {
    step: Step,
    /// The current attempt's value in the keys, and the number in it.
    value: String,
    number: u32,
    started_ms: Millis,
    valid_until: Option<Millis>,
    validity_noted: bool,
    frozen: bool,
}

enum LogEntry {
    Fault(Fault),
    Report(usize, Report),
    Seen(Seen),
}

struct Builder<'a> {
    p: &'a RedlockParams,
    g: &'a Gathered,
    rec: Recorder,
    lanes: LaneRecorder,
    checks: Vec<InvariantReport>,
    clients: Vec<ClientState>,
    /// Each node's key: its owner and value.
    keys: Vec<Option<(usize, String)>>,
    /// When each node's key was last set.
    set_at: Vec<Millis>,
    down: Vec<bool>,
    resource: Option<ActorId>,
    writes: Vec<WriteRecord>,
    acquisitions: Vec<Acquisition>,
    failed: u32,
    foreign_deletes: u32,
    max_nodes_view: u32,
    /// Each acquisition's belief: client, from, until (validity over or released).
    beliefs: Vec<(usize, Millis, Millis)>,
}

fn client_index(name: &str) -> Option<usize> {
    REDLOCK_CLIENTS.iter().position(|c| *c == name)
}

impl<'a> Builder<'a> {
    fn node(&self, i: usize) -> ActorId {
        ActorId((self.clients.len() + i) as u8)
    }

    fn resource_id(&self) -> ActorId {
        ActorId((self.clients.len() + self.keys.len()) as u8)
    }

    fn quorum(&self) -> u32 {
        self.p.quorum()
    }

    fn ev(&mut self, at: Millis, actor: ActorId, kind: EventKind) {
        self.rec.event(at, actor, kind);
    }

    fn rl(&mut self, at: Millis, actor: ActorId, e: RedlockEvent) {
        self.ev(at, actor, EventKind::Redlock(e));
    }

    fn check(&mut self, name: Invariant, at: Millis, detail: impl FnOnce() -> String) {
        InvariantReport::record_named(&mut self.checks, name, at, detail);
    }

    /// The nodes whose key holds client `c`'s current value: those up, and with fsync a
    /// crashed one too, which comes back with the key and refuses everyone else (as the model
    /// counts it).
    fn backing(&self, c: usize) -> u32 {
        let v = &self.clients[c].value;
        (0..self.keys.len())
            .filter(|&n| !self.down[n] || self.p.fsync)
            .filter(|&n| {
                self.keys[n]
                    .as_ref()
                    .is_some_and(|(o, kv)| *o == c && kv == v)
            })
            .count() as u32
    }

    fn believes(&self, c: usize, at: Millis) -> bool {
        let s = &self.clients[c];
        s.step == Step::Holding && s.valid_until.is_some_and(|v| at < v)
    }

    fn lane_state(&self, lane: usize, at: Millis) -> SpanState {
        let nc = self.clients.len();
        if lane < nc {
            let s = &self.clients[lane];
            if s.frozen {
                return SpanState::Frozen {
                    believes_holding: s.step == Step::Holding,
                };
            }
            return match s.step {
                Step::Idle => SpanState::Idle,
                Step::Acquiring { ok, asked } => {
                    SpanState::Redlock(RedlockSpan::Acquiring { ok, asked })
                }
                Step::Holding if self.believes(lane, at) => {
                    SpanState::Redlock(RedlockSpan::Holding {
                        until_ms: s.valid_until.unwrap_or(at),
                    })
                }
                Step::Holding => SpanState::Redlock(RedlockSpan::Overdue),
                Step::Backoff => SpanState::Redlock(RedlockSpan::Backoff),
                Step::Released => SpanState::Released,
            };
        }
        let n = lane - nc;
        if n < self.keys.len() {
            if self.down[n] {
                return SpanState::Crashed;
            }
            return match &self.keys[n] {
                Some((o, _)) => SpanState::Redlock(RedlockSpan::Key {
                    owner: ActorId(*o as u8),
                }),
                None => SpanState::Free,
            };
        }
        match self.resource {
            Some(writer) => SpanState::Value { writer, token: 0 },
            None => SpanState::Empty,
        }
    }

    fn set_lanes(&mut self, at: Millis) {
        for lane in 0..=self.clients.len() + self.keys.len() {
            let s = self.lane_state(lane, at);
            self.lanes.set(lane, at, s);
        }
    }

    /// Validities that ran out before `at`, each at its own instant.
    fn validities_until(&mut self, at: Millis) {
        loop {
            let due = (0..self.clients.len())
                .filter_map(|c| {
                    let s = &self.clients[c];
                    let v = s.valid_until?;
                    (s.step == Step::Holding && !s.validity_noted && v <= at).then_some((v, c))
                })
                .min();
            let Some((v, c)) = due else { return };
            self.clients[c].validity_noted = true;
            self.rl(
                v,
                ActorId(c as u8),
                RedlockEvent::ValidityOver { since_ms: v },
            );
            self.end_belief(c, v);
            self.set_lanes(v);
        }
    }

    fn end_belief(&mut self, c: usize, at: Millis) {
        if let Some(b) = self
            .beliefs
            .iter_mut()
            .rev()
            .find(|b| b.0 == c && b.2 == Millis::MAX)
        {
            b.2 = at;
        }
    }

    /// Checks every believer still has its majority, and counts holders as the nodes see them.
    fn after(&mut self, at: Millis) {
        let q = self.quorum();
        let nodes_view = (0..self.clients.len())
            .filter(|&c| self.backing(c) >= q)
            .count() as u32;
        self.max_nodes_view = self.max_nodes_view.max(nodes_view);
        let believers: Vec<usize> = (0..self.clients.len())
            .filter(|&c| self.believes(c, at))
            .collect();
        if believers.len() >= 2 {
            let names: Vec<&str> = believers.iter().map(|&c| REDLOCK_CLIENTS[c]).collect();
            self.check(invariant::ONE_HOLDER, at, || {
                format!("{} all believe they hold", names.join(", "))
            });
        }
        for c in believers {
            let have = self.backing(c);
            if have < q {
                self.check(invariant::HOLDER_HAS_MAJORITY, at, || {
                    format!(
                        "{} believes it holds, but only {have} of the {q} needed hold its key",
                        REDLOCK_CLIENTS[c]
                    )
                });
            }
        }
        self.set_lanes(at);
    }

    fn fault(&mut self, at: Millis, f: Fault) {
        match f {
            Fault::NodeUp(n) => {
                self.down[n] = false;
                let id = self.node(n);
                self.ev(at, id, EventKind::Restarted);
            }
            Fault::Crashed(n) => {
                self.down[n] = true;
                let id = self.node(n);
                self.ev(at, id, EventKind::Crashed);
            }
            Fault::Restarted(n) => {
                self.down[n] = false;
                // With fsync the new server read the key its predecessor synced (the watcher
                // shows it, or its absence, from the next poll); without, it starts empty.
                let fsync = self.p.fsync;
                let had = self.keys[n].as_ref().map(|(o, _)| ActorId(*o as u8));
                if !fsync {
                    self.keys[n] = None;
                }
                let id = self.node(n);
                self.ev(at, id, EventKind::Restarted);
                self.rl(
                    at,
                    id,
                    RedlockEvent::NodeRecovered {
                        fsync,
                        kept: had.filter(|_| fsync),
                        lost: had.filter(|_| !fsync),
                    },
                );
            }
            Fault::ClockJumped { node, by_ms } => {
                let id = self.node(node);
                self.rl(at, id, RedlockEvent::ClockJumped { by_ms });
            }
            Fault::Froze(c) => {
                self.clients[c].frozen = true;
                self.ev(at, ActorId(c as u8), EventKind::Froze);
            }
            Fault::Woke(c) => {
                self.clients[c].frozen = false;
                self.ev(at, ActorId(c as u8), EventKind::Woke);
            }
        }
    }

    fn seen(&mut self, s: &Seen) {
        let n = s.node;
        if s.value.is_some() || self.down[n] {
            // A key appears through the SET that the client reports.
            return;
        }
        let Some((owner, _)) = self.keys[n].clone() else {
            return;
        };
        // Asked before the SET was answered: the answer shows the node before the key.
        if s.at <= self.set_at[n] {
            return;
        }
        let deleted_by_release = self.g.reports.iter().any(|(_, r)| {
            matches!(r, Report::Deleted { at, node, .. }
                if *node == n && *at >= s.at && *at <= s.at + SAME_DELETION_MS)
        });
        if deleted_by_release {
            return;
        }
        self.keys[n] = None;
        let id = self.node(n);
        self.rl(
            s.at,
            id,
            RedlockEvent::KeyExpired {
                owner: ActorId(owner as u8),
            },
        );
    }

    fn report(&mut self, c: usize, r: &Report) {
        let me = ActorId(c as u8);
        let at = r.at();
        match r {
            Report::Started { attempt, value, .. } => {
                let s = &mut self.clients[c];
                s.step = Step::Acquiring { ok: 0, asked: 0 };
                s.value = super::client::key_value(REDLOCK_CLIENTS[c], *value);
                s.number = *value;
                s.started_ms = at;
                self.rl(
                    at,
                    me,
                    RedlockEvent::AttemptStarted {
                        attempt: *attempt,
                        value: *value,
                    },
                );
            }
            Report::Answered { node, ok, .. } => {
                let id = self.node(*node);
                self.advance(c, *ok);
                self.rl(at, me, RedlockEvent::SetAnswered { node: id, ok: *ok });
                if *ok {
                    self.keys[*node] = Some((c, self.clients[c].value.clone()));
                    self.set_at[*node] = at;
                    self.rl(
                        at,
                        id,
                        RedlockEvent::KeySet {
                            owner: me,
                            value: self.clients[c].number,
                            ttl_ms: self.p.ttl_ms,
                            expires_ms: at + self.p.ttl_ms,
                        },
                    );
                } else if let Some((h, _)) = &self.keys[*node] {
                    let holder = ActorId(*h as u8);
                    self.rl(at, id, RedlockEvent::SetRefused { by: me, holder });
                }
            }
            Report::TimedOut { node, .. } => {
                let id = self.node(*node);
                self.advance(c, false);
                self.rl(at, me, RedlockEvent::SetTimedOut { node: id });
            }
            Report::Acquired {
                ok,
                elapsed_ms,
                validity_ms,
                ..
            } => {
                let until = at + (*validity_ms).max(0) as Millis;
                let first = self.acquisitions.first().map(|a| a.client.clone());
                let name = REDLOCK_CLIENTS[c];
                let s = &mut self.clients[c];
                s.step = Step::Holding;
                s.valid_until = Some(until);
                let started_ms = s.started_ms;
                let ok_ids: Vec<ActorId> = ok.iter().map(|&n| self.node(n)).collect();
                self.acquisitions.push(Acquisition {
                    client: name.into(),
                    started_ms,
                    acquired_ms: at,
                    ok_nodes: ok.iter().map(|&n| REDLOCK_NODES[n].to_string()).collect(),
                    ttl_ms: self.p.ttl_ms,
                    elapsed_ms: *elapsed_ms,
                    drift_ms: self.p.drift_ms(),
                    validity_ms: *validity_ms,
                    valid_until_ms: until,
                });
                self.beliefs.push((c, at, Millis::MAX));
                self.rl(
                    at,
                    me,
                    RedlockEvent::Acquired {
                        ok: ok_ids,
                        ttl_ms: self.p.ttl_ms,
                        elapsed_ms: *elapsed_ms,
                        drift_ms: self.p.drift_ms(),
                        validity_ms: *validity_ms,
                        valid_until_ms: until,
                    },
                );
                self.check(invariant::MAJORITY_ACQUIRED, at, || {
                    format!("{name} acquired a majority")
                });
                if first.is_some_and(|f| f != name) {
                    self.check(invariant::SUCCESSOR_GRANTED, at, || {
                        format!("{name} acquired after another client")
                    });
                }
            }
            Report::Failed {
                ok,
                elapsed_ms,
                validity_ms,
                ..
            } => {
                self.failed += 1;
                self.clients[c].step = Step::Backoff;
                let ok = ok.iter().map(|&n| self.node(n)).collect();
                let quorum = self.quorum();
                self.rl(
                    at,
                    me,
                    RedlockEvent::AttemptFailed {
                        ok,
                        quorum,
                        elapsed_ms: *elapsed_ms,
                        validity_ms: *validity_ms,
                    },
                );
            }
            Report::Wrote { accepted, .. } => self.write(c, at, *accepted),
            Report::ReleaseSent { .. } => {
                let how = self.p.release;
                self.rl(at, me, RedlockEvent::ReleaseSent { how });
                if self.clients[c].step == Step::Holding {
                    self.clients[c].step = Step::Released;
                    self.end_belief(c, at);
                    let name = REDLOCK_CLIENTS[c];
                    self.check(invariant::HOLDER_RELEASED, at, || {
                        format!("{name} released")
                    });
                }
            }
            Report::Deleted { node, value, .. } => {
                let owner = client_index(owner_of(value)).unwrap_or(c);
                let id = self.node(*node);
                self.keys[*node] = None;
                let checked = self.p.release == ReleaseHow::CompareAndDelete;
                self.rl(
                    at,
                    id,
                    RedlockEvent::KeyDeleted {
                        owner: ActorId(owner as u8),
                        by: me,
                        checked,
                    },
                );
                if owner != c {
                    self.foreign_deletes += 1;
                    let (o, b, n) = (
                        REDLOCK_CLIENTS[owner],
                        REDLOCK_CLIENTS[c],
                        REDLOCK_NODES[*node],
                    );
                    self.check(invariant::RELEASES_OWN_KEY_ONLY, at, || {
                        format!("{b} deleted {o}'s key on {n}")
                    });
                }
            }
            Report::Kept { node, .. } => {
                if let Some((h, _)) = &self.keys[*node] {
                    let holder = ActorId(*h as u8);
                    let id = self.node(*node);
                    self.rl(at, id, RedlockEvent::KeyKept { holder, by: me });
                }
            }
            Report::Done { .. } => {}
        }
    }

    fn advance(&mut self, c: usize, ok: bool) {
        if let Step::Acquiring { ok: k, asked } = self.clients[c].step {
            self.clients[c].step = Step::Acquiring {
                ok: k + u8::from(ok),
                asked: asked + 1,
            };
        }
    }

    fn write(&mut self, c: usize, at: Millis, accepted: bool) {
        let me = ActorId(c as u8);
        let fresh = self.believes(c, at) && self.backing(c) >= self.quorum();
        let replaced = self
            .writes
            .iter()
            .rev()
            .find(|w| w.accepted)
            .map(|w| w.writer);
        let judgement = judge(fresh, accepted, me, replaced);
        if !fresh && accepted {
            let name = REDLOCK_CLIENTS[c];
            self.check(invariant::NO_STALE_WRITE_ACCEPTED, at, || {
                format!("{name}'s write was accepted after it had lost the lock")
            });
        }
        self.ev(at, me, EventKind::WriteSent { token: 0 });
        let res = self.resource_id();
        self.ev(
            at,
            res,
            EventKind::WriteArrived {
                writer: me,
                token: 0,
                accepted,
                last_seen_before: 0,
                fencing: false,
            },
        );
        if accepted {
            self.resource = Some(me);
        }
        self.writes.push(WriteRecord {
            at_ms: at,
            writer: me,
            token: 0,
            accepted,
            last_seen_before: 0,
            last_seen_after: 0,
            fencing: false,
            judgement,
            replaced: replaced.filter(|_| accepted).map(|r| (r, 0)),
        });
    }
}

/// The most beliefs that overlapped at one instant, and how long two or more did.
fn overlap(beliefs: &[(usize, Millis, Millis)], end: Millis) -> (u32, Millis) {
    let mut edges: Vec<(Millis, i32)> = beliefs
        .iter()
        .flat_map(|&(_, from, until)| [(from, 1), (until.min(end), -1)])
        .collect();
    // At one instant an ending belief goes before a starting one: the two do not overlap.
    edges.sort();
    let (mut now, mut max, mut two, mut since) = (0i32, 0i32, 0, 0);
    for (at, d) in edges {
        if now >= 2 {
            two += at - since;
        }
        now += d;
        max = max.max(now);
        since = at;
    }
    (max.max(0) as u32, two)
}

/// The trace of a live run of `p`.
pub fn trace(p: &RedlockParams, g: &Gathered) -> Trace {
    let (nc, nn) = (p.clients as usize, p.nodes as usize);
    let mut b = Builder {
        p,
        g,
        rec: Recorder::with_capacity(512, 0),
        lanes: LaneRecorder::default(),
        checks: checks(),
        clients: (0..nc)
            .map(|_| ClientState {
                step: Step::Idle,
                value: String::new(),
                number: 0,
                started_ms: 0,
                valid_until: None,
                validity_noted: false,
                frozen: false,
            })
            .collect(),
        keys: vec![None; nn],
        set_at: vec![0; nn],
        down: (1..=nn as u32).map(|n| p.down.contains(&n)).collect(),
        resource: None,
        writes: Vec::new(),
        acquisitions: Vec::new(),
        failed: 0,
        foreign_deletes: 0,
        max_nodes_view: 0,
        beliefs: Vec::new(),
    };
    for lane in 0..=nc + nn {
        let s = b.lane_state(lane, 0);
        b.lanes.add(ActorId(lane as u8), 0, s);
    }
    let mut items: Vec<(Millis, u8, LogEntry)> = Vec::new();
    items.extend(g.faults.iter().map(|(at, f)| (*at, 0, LogEntry::Fault(*f))));
    items.extend(
        g.reports
            .iter()
            .map(|(c, r)| (r.at(), 1, LogEntry::Report(*c, r.clone()))),
    );
    items.extend(g.seen.iter().map(|s| (s.at, 2, LogEntry::Seen(s.clone()))));
    items.sort_by_key(|(at, order, _)| (*at, *order));
    for (at, _, item) in &items {
        b.validities_until(*at);
        match item {
            LogEntry::Fault(f) => b.fault(*at, *f),
            LogEntry::Report(c, r) => b.report(*c, r),
            LogEntry::Seen(s) => b.seen(s),
        }
        b.after(*at);
    }
    let end = g.end_ms;
    b.validities_until(end);
    let (max_holders, two_holders_ms) = overlap(&b.beliefs, end);
    let res = b.resource_id();
    b.rec.event(end, res, EventKind::RunEnded);
    let moments = crate::engine::families::moments::moments(&b.rec, &b.writes, &b.checks);
    let Outcome {
        stale,
        final_value,
        violations,
    } = outcome(&b.writes, &b.checks);
    Trace {
        schema_version: crate::engine::trace::SCHEMA_VERSION,
        family: Family::Redlock,
        end_ms: end,
        actors: actors(nc, nn),
        nodes: Vec::new(),
        events: b.rec.events,
        messages: b.rec.messages,
        lanes: b.lanes.finish(end),
        service: Vec::new(),
        writes: b.writes,
        windows: Vec::new(),
        moments,
        metrics: Metrics::Redlock(RedlockMetrics {
            quorum: p.quorum(),
            validity_ms: b.acquisitions.first().map(|a| a.validity_ms),
            acquisitions: b.acquisitions,
            failed_attempts: b.failed,
            max_holders,
            max_holders_nodes_view: b.max_nodes_view,
            two_holders_ms,
            stale_writes_accepted: stale,
            foreign_deletes: b.foreign_deletes,
            final_value,
            violations,
        }),
        invariants: b.checks,
    }
}

#[cfg(test)]
mod tests {
    use super::overlap;

    #[test]
    fn beliefs_that_touch_do_not_overlap_and_ones_that_cross_do() {
        // A from 0.12 s to 3.14 s, B from 1.6 s to its validity's end: 1.54 s of two.
        assert_eq!(
            overlap(&[(0, 120, 3_140), (1, 1_600, 11_000)], 16_000),
            (2, 1_540)
        );
        assert_eq!(overlap(&[(0, 0, 100), (1, 100, 200)], 16_000), (1, 0));
        assert_eq!(overlap(&[], 16_000), (0, 0));
    }
}
