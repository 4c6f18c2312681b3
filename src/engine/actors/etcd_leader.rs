//! etcd's leader as the lock sees it: the lease table and the key-value store, one member.
//!
//! A grant gets the requested TTL raised to the minimum; a keep-alive refreshes the lease to its
//! full TTL from the moment it arrives. Every 500 ms the leader revokes the leases past their
//! expiry (at a phase of the member's own), deleting the keys attached to them in one revision. The store keeps a global revision
//! and each key's create revision; a watch on one key fires on its deletion. The model has one
//! member, so there is no election and no refresh of every lease on a new leader.

use serde::Serialize;

use crate::engine::msg::{ActorMsg, Timer};
use crate::engine::time::Millis;
use crate::engine::trace::EventKind;
use crate::engine::trace::etcd::protocol::{FIRST_LEASE, FIRST_REVISION, REVOKE_CHECK_MS};
use crate::engine::trace::etcd::{DeleteCause, EtcdEvent, protocol};
use crate::engine::world::{ActorId, Cx, Phase};

/// A request a client sends to the leader.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(tag = "req", rename_all = "snake_case")]
pub enum EtcdReq {
    Grant {
        ttl_s: u64,
    },
    KeepAlive {
        lease: u64,
    },
    /// The mutex's Txn: if `PREFIX/<lease>` does not exist put it under the lease; read the key
    /// with the lowest create revision under the prefix.
    LockTxn {
        lease: u64,
    },
    /// `Get(prefix, last create, max create revision)`.
    GetAhead {
        max_create_rev: u64,
    },
    /// A watch on the key created at `create_rev`, from revision `from_rev`.
    Watch {
        create_rev: u64,
        from_rev: u64,
    },
    /// Delete `PREFIX/<lease>`.
    Unlock {
        lease: u64,
    },
    Revoke {
        lease: u64,
    },
    /// `Txn(If create_revision(PREFIX/<lease>) = token, Then put data)`.
    DataTxn {
        lease: u64,
        token: u64,
    },
}

impl EtcdReq {
    pub fn phase(self) -> Phase {
        match self {
            EtcdReq::KeepAlive { .. } => Phase::Keepalive,
            EtcdReq::Unlock { .. } | EtcdReq::Revoke { .. } => Phase::Release,
            EtcdReq::DataTxn { .. } => Phase::Write,
            _ => Phase::Request,
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(tag = "reply", rename_all = "snake_case")]
pub enum EtcdReply {
    Granted {
        lease: u64,
        ttl_s: u64,
    },
    /// The TTL left after the refresh; 0 when the lease is gone.
    KeepAlive {
        lease: u64,
        ttl_s: u64,
    },
    LockTxn {
        my_rev: u64,
        owner_rev: u64,
    },
    Ahead {
        ahead: Option<(ActorId, u64)>,
        revision: u64,
    },
    Deleted {
        create_rev: u64,
        delete_rev: u64,
    },
    DataTxn {
        token: u64,
        succeeded: bool,
    },
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Lease {
    pub id: u64,
    pub owner: ActorId,
    pub ttl_s: u64,
    pub expires_ms: Millis,
}

/// A key under the lock prefix.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct LockKey {
    pub owner: ActorId,
    pub lease: u64,
    pub create_rev: u64,
}

#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct EtcdLeader {
    pub revision: u64,
    pub leases: Vec<Lease>,
    next_lease: u64,
    /// The live keys under the prefix, in create order.
    pub keys: Vec<LockKey>,
    /// Who watches the key created at which revision.
    watches: Vec<(ActorId, u64)>,
    /// Keep-alives for leases past their expiry, answered once the revoke is done.
    held_keepalives: Vec<(ActorId, u64)>,
    /// The data key: who wrote it last with which token, and its mod revision.
    pub data: Option<(ActorId, u64, u64)>,
    /// Where the lessor's looks fall in each 500 ms: a real member's are set by when it
    /// started, so a run sees them at some phase of its own.
    lessor_phase_ms: Millis,
}

impl Default for EtcdLeader {
    fn default() -> Self {
        Self {
            revision: FIRST_REVISION,
            leases: Vec::new(),
            next_lease: FIRST_LEASE,
            keys: Vec::new(),
            watches: Vec::new(),
            held_keepalives: Vec::new(),
            data: None,
            lessor_phase_ms: 0,
        }
    }
}

impl EtcdLeader {
    /// The key with the lowest create revision: its owner holds the lock.
    pub fn holder(&self) -> Option<LockKey> {
        self.keys.first().copied()
    }

    /// The live key of lease `lease`.
    pub fn key_of(&self, lease: u64) -> Option<LockKey> {
        self.keys.iter().copied().find(|k| k.lease == lease)
    }

    /// Whether `client`'s key created at `token` still exists.
    pub fn has_key(&self, client: ActorId, token: u64) -> bool {
        self.keys
            .iter()
            .any(|k| k.owner == client && k.create_rev == token)
    }

    /// A leader whose lessor looks for expired leases at `phase_ms + k × 500 ms` (after 0).
    pub fn with_lessor_phase(phase_ms: Millis) -> Self {
        Self {
            lessor_phase_ms: phase_ms % REVOKE_CHECK_MS,
            ..Self::default()
        }
    }

    pub fn on_start(&mut self, cx: &mut Cx) {
        let first = match self.lessor_phase_ms {
            0 => REVOKE_CHECK_MS,
            phase => phase,
        };
        cx.set_timer(Timer::RevokeCheck, first);
    }

    pub fn on_timer(&mut self, timer: Timer, cx: &mut Cx) {
        if timer != Timer::RevokeCheck {
            return;
        }
        let now = cx.now;
        let expired: Vec<Lease> = self
            .leases
            .iter()
            .copied()
            .filter(|l| l.expires_ms <= now)
            .collect();
        for l in expired {
            cx.event(EventKind::Etcd(EtcdEvent::LeaseExpired {
                lease: l.id,
                owner: l.owner,
                expired_ms: l.expires_ms,
            }));
            self.revoke(l.id, DeleteCause::LeaseExpired, cx);
        }
        cx.set_timer(Timer::RevokeCheck, REVOKE_CHECK_MS);
    }

    /// Drops lease `id` with its key (one revision), and answers keep-alives held for it.
    fn revoke(&mut self, id: u64, cause: DeleteCause, cx: &mut Cx) {
        self.leases.retain(|l| l.id != id);
        if let Some(k) = self.key_of(id) {
            self.delete(k, cause, cx);
        }
        let (answer, keep): (Vec<_>, Vec<_>) =
            self.held_keepalives.drain(..).partition(|(_, l)| *l == id);
        self.held_keepalives = keep;
        for (to, lease) in answer {
            cx.event(EventKind::Etcd(EtcdEvent::LeaseNotFound { lease }));
            cx.send(to, reply(EtcdReply::KeepAlive { lease, ttl_s: 0 }));
        }
    }

    fn delete(&mut self, k: LockKey, cause: DeleteCause, cx: &mut Cx) {
        self.keys.retain(|x| x.create_rev != k.create_rev);
        self.revision += 1;
        let delete_rev = self.revision;
        let (fire, keep): (Vec<_>, Vec<_>) = self
            .watches
            .drain(..)
            .partition(|(_, rev)| *rev == k.create_rev);
        self.watches = keep;
        let notified: Vec<ActorId> = fire.iter().map(|(w, _)| *w).collect();
        cx.event(EventKind::Etcd(EtcdEvent::KeyDeleted {
            owner: k.owner,
            create_rev: k.create_rev,
            revision: delete_rev,
            cause,
            notified: notified.clone(),
        }));
        for w in notified {
            cx.send(
                w,
                reply(EtcdReply::Deleted {
                    create_rev: k.create_rev,
                    delete_rev,
                }),
            );
        }
    }

    pub fn on_msg(&mut self, from: ActorId, msg: ActorMsg, cx: &mut Cx) {
        let ActorMsg::Etcd(req) = msg else {
            return;
        };
        let now = cx.now;
        match req {
            EtcdReq::Grant { ttl_s } => {
                let granted = protocol::granted_ttl_s(ttl_s);
                let id = self.next_lease;
                self.next_lease += 1;
                let expires_ms = now + granted * 1_000;
                self.leases.push(Lease {
                    id,
                    owner: from,
                    ttl_s: granted,
                    expires_ms,
                });
                cx.event(EventKind::Etcd(EtcdEvent::LeaseGranted {
                    lease: id,
                    owner: from,
                    requested_s: ttl_s,
                    ttl_s: granted,
                    expires_ms,
                }));
                cx.send(
                    from,
                    reply(EtcdReply::Granted {
                        lease: id,
                        ttl_s: granted,
                    }),
                );
            }
            EtcdReq::KeepAlive { lease } => {
                match self.leases.iter_mut().find(|l| l.id == lease) {
                    // Past its expiry but not yet revoked: the answer waits for the revoke.
                    Some(l) if l.expires_ms <= now => self.held_keepalives.push((from, lease)),
                    Some(l) => {
                        l.expires_ms = now + l.ttl_s * 1_000;
                        let (expires_ms, ttl_s) = (l.expires_ms, l.ttl_s);
                        cx.event(EventKind::Etcd(EtcdEvent::LeaseRefreshed {
                            lease,
                            expires_ms,
                        }));
                        cx.send(from, reply(EtcdReply::KeepAlive { lease, ttl_s }));
                    }
                    None => {
                        cx.event(EventKind::Etcd(EtcdEvent::LeaseNotFound { lease }));
                        cx.send(from, reply(EtcdReply::KeepAlive { lease, ttl_s: 0 }));
                    }
                }
            }
            EtcdReq::LockTxn { lease } => {
                let my_rev = match self.key_of(lease) {
                    Some(k) => k.create_rev,
                    // A put under a lease the leader no longer has fails; the model's clients
                    // lock right after their grant, so the lease is there.
                    None if self.leases.iter().any(|l| l.id == lease) => {
                        self.revision += 1;
                        let k = LockKey {
                            owner: from,
                            lease,
                            create_rev: self.revision,
                        };
                        self.keys.push(k);
                        cx.event(EventKind::Etcd(EtcdEvent::KeyPut {
                            owner: from,
                            lease,
                            create_rev: k.create_rev,
                        }));
                        k.create_rev
                    }
                    None => 0,
                };
                let owner_rev = self.holder().map_or(0, |k| k.create_rev);
                cx.send(from, reply(EtcdReply::LockTxn { my_rev, owner_rev }));
            }
            EtcdReq::GetAhead { max_create_rev } => {
                let ahead = self
                    .keys
                    .iter()
                    .rev()
                    .find(|k| k.create_rev <= max_create_rev)
                    .map(|k| (k.owner, k.create_rev));
                let revision = self.revision;
                cx.send(from, reply(EtcdReply::Ahead { ahead, revision }));
            }
            EtcdReq::Watch { create_rev, .. } => {
                if self.keys.iter().any(|k| k.create_rev == create_rev) {
                    self.watches.push((from, create_rev));
                } else {
                    // Deleted after the read: a watch from the read's revision still sees the
                    // deletion, from the store's history.
                    let delete_rev = self.revision;
                    cx.send(
                        from,
                        reply(EtcdReply::Deleted {
                            create_rev,
                            delete_rev,
                        }),
                    );
                }
            }
            EtcdReq::Unlock { lease } => {
                if let Some(k) = self.key_of(lease) {
                    self.delete(k, DeleteCause::Unlock, cx);
                }
            }
            EtcdReq::Revoke { lease } => {
                if let Some(l) = self.leases.iter().find(|l| l.id == lease).copied() {
                    cx.event(EventKind::Etcd(EtcdEvent::LeaseRevoked {
                        lease,
                        owner: l.owner,
                    }));
                    self.revoke(lease, DeleteCause::LeaseRevoked, cx);
                }
            }
            EtcdReq::DataTxn { lease, token } => {
                let key_rev = self.key_of(lease).map_or(0, |k| k.create_rev);
                let succeeded = key_rev == token;
                if succeeded {
                    self.revision += 1;
                    self.data = Some((from, token, self.revision));
                }
                cx.event(EventKind::Etcd(EtcdEvent::DataTxn {
                    writer: from,
                    token,
                    key_rev,
                    succeeded,
                    revision: self.revision,
                }));
                cx.send(from, reply(EtcdReply::DataTxn { token, succeeded }));
            }
        }
    }
}

fn reply(r: EtcdReply) -> ActorMsg {
    ActorMsg::EtcdReply(r)
}
