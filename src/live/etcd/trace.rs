//! What a live etcd run gathered, as the model's [`Trace`]: the clients' steps as they
//! reported them, etcd's side as its own watch showed it (each lock key's put and deletion
//! with etcd's revisions), the faults as the run made them. What that means (each lane, each
//! write's judgement, the holds, the invariants and the family's numbers) is decided by the
//! engine's [`etcd_facts`](crate::engine::families::etcd_facts), as for the model's run.
//!
//! The leader's lease table is not visible from outside: a lease's grant and refreshes are
//! placed at the client's answers, and its expiry at the deletion of its key that no unlock
//! of its owner explains.

use std::collections::BTreeMap;

use super::client::Report;
use super::run::{Fault, Gathered, Seen};
use crate::engine::families::etcd_facts::{
    ClientStep as Step, Ledger, RunEnd, client_span, data_span, prefix_span,
};
use crate::engine::params::{EtcdParams, Guard};
use crate::engine::time::Millis;
use crate::engine::trace::etcd::{DeleteCause, EtcdEvent};
use crate::engine::trace::lane::LaneRecorder;
use crate::engine::trace::record::Recorder;
use crate::engine::trace::{EventKind, SpanState, Trace};
use crate::engine::world::ActorId;

struct ClientState {
    step: Step,
    frozen: bool,
    lease: Option<u64>,
    ttl_s: u64,
    /// When its last keep-alive was answered (or the lease granted).
    refreshed_ms: Millis,
    unlocked: bool,
    /// The key it watches, if it waits.
    watching: Option<String>,
}

enum Item {
    Fault(Fault),
    Report(usize, Report),
    Seen(Seen),
}

/// A lock key as etcd has it.
#[derive(Debug, Clone)]
struct Key {
    owner: usize,
    create_rev: u64,
}

struct Builder<'a> {
    p: &'a EtcdParams,
    rec: Recorder,
    lanes: LaneRecorder,
    ledger: Ledger,
    clients: Vec<ClientState>,
    /// The lock keys etcd has now, by name.
    keys: BTreeMap<String, Key>,
    /// The lease ids and the client each is, from the clients' reports.
    leases: BTreeMap<u64, usize>,
    data: Option<(ActorId, u64)>,
    revision: u64,
}

fn id(c: usize) -> ActorId {
    ActorId(c as u8)
}

impl<'a> Builder<'a> {
    fn leader(&self) -> ActorId {
        id(self.clients.len())
    }

    fn data_id(&self) -> ActorId {
        id(self.clients.len() + 1)
    }

    fn ev(&mut self, at: Millis, actor: ActorId, e: EtcdEvent) {
        self.rec.event(at, actor, EventKind::Etcd(e));
    }

    fn has_key(&self, c: usize, token: u64) -> bool {
        self.keys
            .values()
            .any(|k| k.owner == c && k.create_rev == token)
    }

    fn holds_on_etcd(&self, c: usize) -> bool {
        matches!(self.clients[c].step, Step::Holding { token } if self.has_key(c, token))
    }

    fn lane_state(&self, lane: usize) -> SpanState {
        let nc = self.clients.len();
        if lane < nc {
            let s = &self.clients[lane];
            let on_etcd = matches!(s.step, Step::Holding { token } if self.has_key(lane, token));
            return client_span(s.step, s.frozen, on_etcd);
        }
        if lane == nc {
            let holder = self
                .keys
                .values()
                .min_by_key(|k| k.create_rev)
                .map(|k| (id(k.owner), k.create_rev));
            return prefix_span(holder, self.keys.len());
        }
        data_span(self.data)
    }

    /// After each item: the lanes, and the facts that last (one holder, unaware holders).
    fn after(&mut self, at: Millis) {
        for lane in 0..self.clients.len() + 2 {
            let s = self.lane_state(lane);
            self.lanes.set(lane, at, s);
        }
        let on_etcd = (0..self.clients.len())
            .filter(|&c| self.holds_on_etcd(c))
            .count();
        let unaware = (0..self.clients.len()).any(|c| {
            matches!(self.clients[c].step, Step::Holding { .. }) && !self.holds_on_etcd(c)
        });
        self.ledger.holders(at, on_etcd, unaware);
    }

    fn fault(&mut self, at: Millis, f: Fault) {
        let (c, kind) = match f {
            Fault::Froze(c) => (c, EventKind::Froze),
            Fault::Woke(c) => (c, EventKind::Woke),
            Fault::Cut(c) => (c, EventKind::LinkCut),
            Fault::Mended(c) => (c, EventKind::LinkRestored),
        };
        if let Some(s) = self.clients.get_mut(c) {
            match f {
                Fault::Froze(_) => s.frozen = true,
                Fault::Woke(_) => s.frozen = false,
                _ => {}
            }
        }
        self.rec.event(at, id(c), kind);
    }

    fn owner_of(&self, key: &str, lease: i64) -> Option<usize> {
        self.leases.get(&(lease as u64)).copied().or_else(|| {
            self.leases
                .iter()
                .find(|(l, _)| super::client::lock_key(**l as i64) == key)
                .map(|(_, c)| *c)
        })
    }

    fn seen(&mut self, s: &Seen) {
        let at = s.at;
        let kv = &s.event.kv;
        if !kv.key.starts_with(super::client::LOCK_PREFIX) {
            // The data key and the token key: the writes record them.
            self.revision = self.revision.max(kv.mod_revision as u64);
            return;
        }
        self.revision = self.revision.max(kv.mod_revision as u64);
        let leader = self.leader();
        if !s.event.deleted {
            let Some(owner) = self.owner_of(&kv.key, kv.lease) else {
                return;
            };
            let create_rev = kv.create_revision as u64;
            self.keys.insert(kv.key.clone(), Key { owner, create_rev });
            self.ev(
                at,
                leader,
                EtcdEvent::KeyPut {
                    owner: id(owner),
                    lease: kv.lease as u64,
                    create_rev,
                },
            );
            return;
        }
        let Some(key) = self.keys.remove(&kv.key) else {
            return;
        };
        let owner = &self.clients[key.owner];
        let cause = if owner.unlocked {
            DeleteCause::Unlock
        } else {
            DeleteCause::LeaseExpired
        };
        let notified: Vec<ActorId> = (0..self.clients.len())
            .filter(|&c| self.clients[c].watching.as_deref() == Some(kv.key.as_str()))
            .map(id)
            .collect();
        if cause == DeleteCause::LeaseExpired {
            let lease = owner.lease.unwrap_or(0);
            let expired_ms = owner.refreshed_ms + owner.ttl_s * 1_000;
            self.ledger.lease_expired(at);
            self.ev(
                at,
                leader,
                EtcdEvent::LeaseExpired {
                    lease,
                    owner: id(key.owner),
                    expired_ms,
                },
            );
        }
        self.ledger
            .key_deleted(at, key.create_rev, cause, notified.len());
        self.ev(
            at,
            leader,
            EtcdEvent::KeyDeleted {
                owner: id(key.owner),
                create_rev: key.create_rev,
                revision: kv.mod_revision as u64,
                cause,
                notified,
            },
        );
    }

    fn write(&mut self, c: usize, at: Millis, token: u64, accepted: bool) {
        let writer = id(c);
        let on_etcd = self.has_key(c, token);
        let last_seen_before = self
            .ledger
            .write(at, writer, token, accepted, on_etcd)
            .last_seen_before;
        let data = self.data_id();
        if self.p.guard == Guard::Txn {
            let key_rev = self
                .keys
                .values()
                .find(|k| k.owner == c)
                .map_or(0, |k| k.create_rev);
            let leader = self.leader();
            self.ev(
                at,
                leader,
                EtcdEvent::DataTxn {
                    writer,
                    token,
                    key_rev,
                    succeeded: accepted,
                    revision: self.revision + u64::from(accepted),
                },
            );
            self.ev(
                at,
                writer,
                EtcdEvent::DataTxnAnswered {
                    token,
                    succeeded: accepted,
                },
            );
        } else {
            self.rec.event(
                at,
                data,
                EventKind::WriteArrived {
                    writer,
                    token,
                    accepted,
                    last_seen_before,
                    fencing: self.p.guard != Guard::None,
                },
            );
        }
        if accepted {
            self.data = Some((writer, token));
        }
    }

    fn report(&mut self, c: usize, r: &Report) {
        let at = r.at();
        let me = id(c);
        let lease = self.clients[c].lease.unwrap_or(0);
        match r {
            Report::GrantSent { ttl_s, .. } => {
                self.clients[c].step = Step::Opening;
                self.ev(at, me, EtcdEvent::GrantSent { ttl_s: *ttl_s });
            }
            Report::SessionOpened { lease, ttl_s, .. } => {
                let (lease, ttl_s) = (*lease as u64, (*ttl_s).max(0) as u64);
                let s = &mut self.clients[c];
                s.lease = Some(lease);
                s.ttl_s = ttl_s;
                s.refreshed_ms = at;
                let leader = self.leader();
                self.ev(
                    at,
                    leader,
                    EtcdEvent::LeaseGranted {
                        lease,
                        owner: me,
                        requested_s: self.p.ttl_s,
                        ttl_s,
                        expires_ms: at + ttl_s * 1_000,
                    },
                );
                self.ev(at, me, EtcdEvent::SessionOpened { lease, ttl_s });
            }
            Report::KeepAliveSent { .. } => self.ev(at, me, EtcdEvent::KeepAliveSent { lease }),
            Report::KeepAliveAnswered { ttl_s, .. } => {
                let ttl_s = (*ttl_s).max(0) as u64;
                self.clients[c].refreshed_ms = at;
                let leader = self.leader();
                self.ev(
                    at,
                    leader,
                    EtcdEvent::LeaseRefreshed {
                        lease,
                        expires_ms: at + ttl_s * 1_000,
                    },
                );
                self.ev(
                    at,
                    me,
                    EtcdEvent::KeepAliveAnswered {
                        lease,
                        ttl_s,
                        deadline_ms: at + ttl_s * 1_000,
                    },
                );
            }
            Report::KeepAliveNotFound { .. } | Report::SessionDone { .. } => {
                self.ledger.session_ended(at);
                let e = if matches!(r, Report::SessionDone { .. }) {
                    let s = &self.clients[c];
                    EtcdEvent::SessionDone {
                        lease,
                        deadline_ms: s.refreshed_ms + s.ttl_s * 1_000,
                    }
                } else {
                    EtcdEvent::KeepAliveNotFound { lease }
                };
                self.ev(at, me, e);
                if !matches!(self.clients[c].step, Step::Holding { .. }) {
                    self.clients[c].step = Step::Lost;
                }
            }
            Report::LockTxnSent { key, .. } => {
                self.ev(at, me, EtcdEvent::LockTxnSent { key: key.clone() })
            }
            Report::LockTxnAnswered {
                my_rev, owner_rev, ..
            } => self.ev(
                at,
                me,
                EtcdEvent::LockTxnAnswered {
                    my_rev: *my_rev as u64,
                    owner_rev: *owner_rev as u64,
                },
            ),
            Report::PredecessorRead {
                ahead, revision, ..
            } => {
                let ahead = ahead.as_ref().and_then(|(key, rev)| {
                    let owner = self.keys.get(key).map(|k| k.owner).or_else(|| {
                        self.leases
                            .iter()
                            .find(|(l, _)| super::client::lock_key(**l as i64) == *key)
                            .map(|(_, c)| *c)
                    })?;
                    Some((id(owner), *rev as u64))
                });
                if let Some((owner, create_rev)) = ahead {
                    self.clients[c].step = Step::Waiting { owner, create_rev };
                }
                self.ev(
                    at,
                    me,
                    EtcdEvent::PredecessorRead {
                        ahead,
                        revision: *revision as u64,
                    },
                );
            }
            Report::WatchStarted { key, from_rev, .. } => {
                self.clients[c].watching = Some(key.clone());
                if let Step::Waiting { owner, create_rev } = self.clients[c].step {
                    self.ev(
                        at,
                        me,
                        EtcdEvent::WatchStarted {
                            owner,
                            create_rev,
                            from_rev: *from_rev as u64,
                        },
                    );
                }
            }
            Report::WatchFired { delete_rev, .. } => {
                self.clients[c].watching = None;
                if let Step::Waiting { owner, create_rev } = self.clients[c].step {
                    self.ev(
                        at,
                        me,
                        EtcdEvent::WatchFired {
                            owner,
                            create_rev,
                            delete_rev: *delete_rev as u64,
                        },
                    );
                }
            }
            Report::Locked { token, .. } => {
                let token = *token as u64;
                self.clients[c].step = Step::Holding { token };
                self.ledger.locked(at, c, lease, token);
                self.ev(at, me, EtcdEvent::Locked { token });
            }
            Report::WriteSent { token, .. } => {
                let token = *token as u64;
                if self.p.guard == Guard::Txn {
                    self.ev(at, me, EtcdEvent::DataTxnSent { token });
                } else {
                    self.rec.event(at, me, EventKind::WriteSent { token });
                }
            }
            Report::Wrote {
                token, accepted, ..
            } => self.write(c, at, *token as u64, *accepted),
            Report::WriteSkipped { token, .. } => {
                self.ev(
                    at,
                    me,
                    EtcdEvent::WriteSkipped {
                        token: *token as u64,
                    },
                );
                self.clients[c].step = Step::Lost;
            }
            Report::UnlockSent { key, .. } => {
                self.clients[c].unlocked = true;
                self.ledger.unlocked(at, c);
                self.ev(at, me, EtcdEvent::UnlockSent { key: key.clone() });
                if self.clients[c].step != Step::Lost {
                    self.clients[c].step = Step::Released;
                }
            }
            Report::Failed { .. } => {}
            Report::Done { .. } => {
                if !matches!(self.clients[c].step, Step::Lost | Step::Released) {
                    self.clients[c].step = Step::Released;
                }
                let s = &self.clients[c];
                if let Some(lease) = s.lease
                    && s.unlocked
                {
                    let leader = self.leader();
                    self.ev(at, leader, EtcdEvent::LeaseRevoked { lease, owner: me });
                }
            }
        }
    }
}

/// The trace of a live run of `p`.
pub fn trace(p: &EtcdParams, g: &Gathered) -> Trace {
    let nc = p.clients as usize;
    let leases = g
        .reports
        .iter()
        .filter_map(|(c, r)| match r {
            Report::SessionOpened { lease, .. } => Some((*lease as u64, *c)),
            _ => None,
        })
        .collect();
    let mut b = Builder {
        p,
        rec: Recorder::with_capacity(512, 0),
        lanes: LaneRecorder::default(),
        ledger: Ledger::new(p.guard),
        clients: (0..nc)
            .map(|_| ClientState {
                step: Step::Idle,
                frozen: false,
                lease: None,
                ttl_s: p.ttl_s,
                refreshed_ms: 0,
                unlocked: false,
                watching: None,
            })
            .collect(),
        keys: BTreeMap::new(),
        leases,
        data: None,
        revision: crate::engine::trace::etcd::protocol::FIRST_REVISION,
    };
    for lane in 0..nc + 2 {
        let s = b.lane_state(lane);
        b.lanes.add(id(lane), 0, s);
    }
    // At one instant: faults first, then etcd's side (a key exists before its owner hears so),
    // then the clients.
    let mut items: Vec<(Millis, u8, Item)> = Vec::new();
    items.extend(g.faults.iter().map(|(at, f)| (*at, 0, Item::Fault(*f))));
    items.extend(g.seen.iter().map(|s| (s.at, 1, Item::Seen(s.clone()))));
    items.extend(
        g.reports
            .iter()
            .map(|(c, r)| (r.at(), 2, Item::Report(*c, r.clone()))),
    );
    items.sort_by_key(|(at, order, _)| (*at, *order));
    for (at, _, item) in &items {
        match item {
            Item::Fault(f) => b.fault(*at, *f),
            Item::Seen(s) => b.seen(s),
            Item::Report(c, r) => b.report(*c, r),
        }
        b.after(*at);
    }
    let ttl_s = b.clients.first().map_or(p.ttl_s, |c| c.ttl_s);
    b.ledger.finish(
        b.rec,
        b.lanes,
        RunEnd {
            end: g.end_ms,
            clients: nc,
            ttl_s,
            revision: b.revision,
        },
    )
}
