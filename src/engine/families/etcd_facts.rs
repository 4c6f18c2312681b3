//! The facts of an etcd run, decided once: what a client's lane shows, when a write is stale,
//! who held and how each hold ended, when a lease first ran out and how long the hand-over
//! took, and which properties failed. The model's run and a live run on a real etcd both feed
//! a [`Ledger`] what they saw (the model from its actors, the live lab from etcd's watch and
//! the clients' reports) and take their trace from it, so the two cannot judge differently.

use crate::engine::params::ETCD_CLIENTS;
use crate::engine::time::Millis;
use crate::engine::trace::etcd::{DeleteCause, EtcdMetrics, EtcdSpan, Guard, Hold};
use crate::engine::trace::lane::LaneRecorder;
use crate::engine::trace::record::Recorder;
use crate::engine::trace::{
    EventKind, Family, Invariant, InvariantReport, Judgement, Metrics, SpanState, Trace,
    WriteRecord, invariant,
};
use crate::engine::world::ActorId;

use super::etcd::{actors, checks};

/// Where a client is in `concurrency.Mutex`, as its own code sees it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ClientStep {
    Idle,
    /// Granting its lease or putting its key; nobody ahead known yet.
    Opening,
    Waiting {
        owner: ActorId,
        create_rev: u64,
    },
    /// Acts as the holder with this token (its key's create revision).
    Holding {
        token: u64,
    },
    Lost,
    Released,
}

/// A client's lane: frozen above all, and a holder whose key is gone on etcd is unaware.
pub fn client_span(step: ClientStep, frozen: bool, key_on_etcd: bool) -> SpanState {
    if frozen {
        return SpanState::Frozen {
            believes_holding: matches!(step, ClientStep::Holding { .. }),
        };
    }
    match step {
        ClientStep::Idle => SpanState::Idle,
        ClientStep::Opening => SpanState::Etcd(EtcdSpan::Opening),
        ClientStep::Waiting { owner, create_rev } => {
            SpanState::Etcd(EtcdSpan::Waiting { owner, create_rev })
        }
        ClientStep::Holding { token } if key_on_etcd => SpanState::Holding { token },
        ClientStep::Holding { token } => SpanState::Etcd(EtcdSpan::Unaware { token }),
        ClientStep::Lost => SpanState::Lost,
        ClientStep::Released => SpanState::Released,
    }
}

/// etcd's lane: the key with the lowest create revision holds, the others wait behind it.
pub fn prefix_span(holder: Option<(ActorId, u64)>, keys: usize) -> SpanState {
    SpanState::Etcd(EtcdSpan::Prefix {
        holder: holder.map(|(owner, _)| owner),
        token: holder.map_or(0, |(_, rev)| rev),
        waiting: keys.saturating_sub(1) as u8,
    })
}

/// The data's lane: whose value it holds, with which token.
pub fn data_span(value: Option<(ActorId, u64)>) -> SpanState {
    match value {
        Some((writer, token)) => SpanState::Value { writer, token },
        None => SpanState::Empty,
    }
}

/// What a run has established so far, and the numbers it ends with.
pub struct Ledger {
    guard: Guard,
    checks: Vec<InvariantReport>,
    writes: Vec<WriteRecord>,
    holds: Vec<Hold>,
    first_expiry_ms: Option<Millis>,
    handover_ms: Option<Millis>,
    max_woken: u32,
    /// Since when some client has acted as holder with its key gone.
    unaware_since: Option<Millis>,
    unaware_ms: Millis,
    learned_ms: Option<Millis>,
}

impl Ledger {
    pub fn new(guard: Guard) -> Self {
        Self {
            guard,
            checks: checks(),
            writes: Vec::new(),
            holds: Vec::new(),
            first_expiry_ms: None,
            handover_ms: None,
            max_woken: 0,
            unaware_since: None,
            unaware_ms: 0,
            learned_ms: None,
        }
    }

    fn check(&mut self, name: Invariant, at: Millis, detail: impl FnOnce() -> String) {
        InvariantReport::record_named(&mut self.checks, name, at, detail);
    }

    /// Client `c` locked with `token` on `lease`: a hold begins, and a hand-over ends if a
    /// lease had run out.
    pub fn locked(&mut self, at: Millis, c: usize, lease: u64, token: u64) {
        let name = ETCD_CLIENTS[c];
        if let Some(expired) = self.first_expiry_ms
            && self.handover_ms.is_none()
        {
            self.handover_ms = Some(at - expired);
        }
        if self.holds.iter().any(|h| h.client != name) {
            self.check(invariant::SUCCESSOR_GRANTED, at, || {
                format!("{name} locked after another client")
            });
        }
        self.holds.push(Hold {
            client: name.into(),
            lease,
            token,
            locked_ms: at,
            ended_ms: None,
            cause: None,
        });
    }

    /// The lock key created at `create_rev` was deleted, waking `woken` watchers.
    pub fn key_deleted(&mut self, at: Millis, create_rev: u64, cause: DeleteCause, woken: usize) {
        if let Some(h) = self.holds.iter_mut().find(|h| h.token == create_rev) {
            h.ended_ms = Some(at);
            h.cause = Some(cause);
        }
        self.max_woken = self.max_woken.max(woken as u32);
        if woken > 1 {
            self.check(invariant::ONE_WATCHER_PER_DELETE, at, || {
                format!("deleting one key woke {woken} clients")
            });
        }
    }

    /// A lease ran out on the leader.
    pub fn lease_expired(&mut self, at: Millis) {
        self.first_expiry_ms.get_or_insert(at);
    }

    pub fn first_expiry_ms(&self) -> Option<Millis> {
        self.first_expiry_ms
    }

    /// Client `c` sent its unlock.
    pub fn unlocked(&mut self, at: Millis, c: usize) {
        let name = ETCD_CLIENTS[c];
        self.check(invariant::HOLDER_RELEASED, at, || {
            format!("{name} unlocked")
        });
    }

    /// A client heard that its session is over (a keep-alive answered "not found", or the
    /// library's deadline closed it): after an expiry, that is when the loss was learned.
    pub fn session_ended(&mut self, at: Millis) {
        if self.first_expiry_ms.is_some() {
            self.learned_ms.get_or_insert(at);
        }
    }

    /// A write of `writer` with `token` reached the data, which took it or not; it is stale
    /// when the writer's key with that token was no longer on etcd as it arrived.
    pub fn write(
        &mut self,
        at: Millis,
        writer: ActorId,
        token: u64,
        accepted: bool,
        key_on_etcd: bool,
    ) -> &WriteRecord {
        let stale = !key_on_etcd;
        let last_seen_before = self
            .writes
            .iter()
            .filter(|w| w.accepted)
            .map(|w| w.token)
            .max()
            .unwrap_or(0);
        let (judgement, replaced) = Judgement::of(stale, accepted, token, &self.writes);
        if stale && accepted {
            let name = ETCD_CLIENTS[writer.0 as usize];
            self.check(invariant::NO_STALE_WRITE_ACCEPTED, at, || {
                format!("{name}'s write with revision {token} was accepted after its key was gone")
            });
        }
        self.writes.push(WriteRecord {
            at_ms: at,
            writer,
            token,
            accepted,
            last_seen_before,
            last_seen_after: if accepted {
                last_seen_before.max(token)
            } else {
                last_seen_before
            },
            fencing: self.guard != Guard::None,
            judgement,
            replaced,
        });
        self.writes.last().expect("just pushed")
    }

    /// After each step: how many clients hold with their key on etcd, and whether one acts as
    /// holder with its key gone.
    pub fn holders(&mut self, at: Millis, holding_on_etcd: usize, unaware: bool) {
        if holding_on_etcd > 1 {
            self.check(invariant::ONE_HOLDER, at, || {
                format!("{holding_on_etcd} clients hold at once")
            });
        }
        match (unaware, self.unaware_since) {
            (true, None) => self.unaware_since = Some(at),
            (false, Some(since)) => {
                self.unaware_ms += at - since;
                self.unaware_since = None;
            }
            _ => {}
        }
    }

    /// The trace of the run that ended at `end`, with `clients` clients, the TTL the leader
    /// granted and the store's last revision.
    pub fn finish(mut self, mut rec: Recorder, lanes: LaneRecorder, run: RunEnd) -> Trace {
        let RunEnd {
            end,
            clients,
            ttl_s,
            revision,
        } = run;
        if let Some(since) = self.unaware_since.take() {
            self.unaware_ms += end.saturating_sub(since);
        }
        rec.event(end, ActorId(clients as u8 + 1), EventKind::RunEnded);
        let moments = super::moments::moments(&rec, &self.writes, &self.checks);
        let count = |accepted: bool| {
            self.writes
                .iter()
                .filter(|w| w.judgement.stale() && w.accepted == accepted)
                .count() as u32
        };
        let (stale_writes_accepted, stale_writes_refused) = (count(true), count(false));
        let final_value = self
            .writes
            .iter()
            .rev()
            .find(|w| w.accepted)
            .map(|w| ETCD_CLIENTS[w.writer.0 as usize].to_string());
        let violations = self
            .checks
            .iter()
            .filter(|c| c.first_violation_ms().is_some())
            .map(|c| c.name)
            .collect();
        Trace {
            schema_version: crate::engine::trace::SCHEMA_VERSION,
            family: Family::Etcd,
            end_ms: end,
            actors: actors(clients, self.guard),
            nodes: Vec::new(),
            events: rec.events,
            messages: rec.messages,
            lanes: lanes.finish(end),
            service: Vec::new(),
            writes: self.writes,
            windows: Vec::new(),
            moments,
            metrics: Metrics::Etcd(EtcdMetrics {
                ttl_s,
                keepalive_every_ms: ttl_s * 1_000 / 3,
                holds: self.holds,
                first_expiry_ms: self.first_expiry_ms,
                handover_ms: self.handover_ms,
                max_woken: self.max_woken,
                unaware_ms: self.unaware_ms,
                learned_ms: self.learned_ms,
                stale_writes_accepted,
                stale_writes_refused,
                final_value,
                revision,
                violations,
            }),
            invariants: self.checks,
        }
    }
}

/// How a run ended: when, with how many clients, the granted TTL and the last revision.
#[derive(Debug, Clone, Copy)]
pub struct RunEnd {
    pub end: Millis,
    pub clients: usize,
    pub ttl_s: u64,
    pub revision: u64,
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A write arriving after its writer's key was deleted is stale, whatever the data did
    /// with it; one arriving while the key is there is not.
    #[test]
    fn a_write_is_stale_exactly_when_its_key_is_gone() {
        let mut l = Ledger::new(Guard::None);
        assert!(!l.write(10, ActorId(0), 2, true, true).judgement.stale());
        assert!(l.write(20, ActorId(0), 2, true, false).judgement.stale());
        assert!(l.write(30, ActorId(0), 2, false, false).judgement.stale());
        let broken = l
            .checks
            .iter()
            .find(|c| c.name == invariant::NO_STALE_WRITE_ACCEPTED)
            .and_then(|c| c.first_violation_ms());
        assert_eq!(broken, Some(20), "the accepted stale write at 20 breaks it");
    }

    /// The hand-over counts from the first expiry to the next lock, once.
    #[test]
    fn the_handover_runs_from_the_first_expiry_to_the_next_lock() {
        let mut l = Ledger::new(Guard::Token);
        l.locked(40, 0, 7, 2);
        l.lease_expired(6_500);
        l.key_deleted(6_500, 2, DeleteCause::LeaseExpired, 1);
        l.locked(6_530, 1, 8, 3);
        l.lease_expired(9_000);
        l.locked(9_100, 0, 9, 4);
        assert_eq!(l.handover_ms, Some(30));
        assert_eq!(l.holds[0].ended_ms, Some(6_500));
        assert_eq!(l.holds[0].cause, Some(DeleteCause::LeaseExpired));
    }

    /// A holder whose key is gone shows as unaware, and frozen wins over everything.
    #[test]
    fn a_holder_without_its_key_is_unaware() {
        let held = ClientStep::Holding { token: 5 };
        assert_eq!(
            client_span(held, false, true),
            SpanState::Holding { token: 5 }
        );
        assert_eq!(
            client_span(held, false, false),
            SpanState::Etcd(EtcdSpan::Unaware { token: 5 })
        );
        assert_eq!(
            client_span(held, true, false),
            SpanState::Frozen {
                believes_holding: true
            }
        );
    }
}
