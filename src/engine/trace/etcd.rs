//! etcd in the trace: what the leader's lease table and store, and the clients running
//! `concurrency.Mutex` on a session's lease, did; the lane states they were in; the family's
//! numbers. A live run on a real etcd produces the same events.

use serde::Serialize;

use crate::engine::time::Millis;
use crate::engine::trace::metrics::Invariant;
use crate::engine::world::ActorId;

/// The facts of etcd 3.4 this family is built on, from its source.
pub mod protocol {
    use crate::engine::time::Millis;

    /// The smallest TTL the leader grants: ⌈1.5 × election ticks × heartbeat⌉ in seconds, with
    /// the defaults (10 ticks of 100 ms) 2 s. A shorter request is raised to it.
    pub const MIN_TTL_S: u64 = 2;
    /// The leader looks for leases past their expiry this often, and revokes them.
    pub const REVOKE_CHECK_MS: Millis = 500;
    /// The client library's keep-alive loop looks for leases due a keep-alive this often.
    pub const KEEPALIVE_LOOP_MS: Millis = 500;
    /// The client library's deadline loop closes a session whose lease has had no answer for a
    /// whole TTL this often.
    pub const DEADLINE_LOOP_MS: Millis = 1_000;
    /// Until the first keep-alive answer, the client library's deadline is this far ahead
    /// (its default when no dial timeout is set).
    pub const FIRST_KEEPALIVE_TIMEOUT_MS: Millis = 5_000;
    /// An empty store stands at revision 1: the first write makes it 2.
    pub const FIRST_REVISION: u64 = 1;
    /// The prefix the mutex puts its keys under; each key is `PREFIX<lease id in hex>`.
    pub const LOCK_PREFIX: &str = "/locklab/lock/";
    /// The key the data lives in when the holder writes it to etcd with a Txn.
    pub const DATA_KEY: &str = "/locklab/data";
    /// The first lease id the model's leader hands out; each next one is one more. (A real
    /// leader's ids are the member id, a time and a counter; any unique id serves.)
    pub const FIRST_LEASE: u64 = 0x694d_7a1b_0000_0001;

    /// The key a client's mutex puts for lease `lease`.
    pub fn lock_key(lease: u64) -> String {
        format!("{LOCK_PREFIX}{lease:x}")
    }

    /// The TTL the leader grants for a request of `requested_s`.
    pub fn granted_ttl_s(requested_s: u64) -> u64 {
        requested_s.max(MIN_TTL_S)
    }

    /// When the next keep-alive is due after an answer at `at`: a third of the TTL later.
    pub fn next_keepalive_ms(at: Millis, ttl_s: u64) -> Millis {
        at + ttl_s * 1_000 / 3
    }
}

/// What stands between a holder's write and the data.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Guard {
    /// The resource is outside etcd and accepts every write.
    None,
    /// The resource is outside etcd and refuses a token (the lock key's create revision)
    /// smaller than the largest it has accepted.
    Token,
    /// The data is a key in etcd, written by a Txn that compares the lock key's create revision
    /// with the holder's in the same step.
    Txn,
}

/// What a client does once its session is done (its keep-alive had no answer for a TTL).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum OnLost {
    /// Its code never looks at the session's `Done()`: it carries on writing.
    Ignore,
    /// Before each write it looks at `Done()` and stops once the session is closed.
    Stop,
}

/// Why the leader deleted a lock key.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum DeleteCause {
    /// The holder's `Unlock`.
    Unlock,
    /// The key's lease ran out and the leader revoked it.
    LeaseExpired,
    /// The client revoked its own lease (closing its session).
    LeaseRevoked,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "event", rename_all = "snake_case")]
pub enum EtcdEvent {
    // --- a client (its session and its mutex) ---
    /// The session asks the leader for a lease.
    GrantSent {
        ttl_s: u64,
    },
    /// The session has its lease: keep-alives start now.
    SessionOpened {
        lease: u64,
        ttl_s: u64,
    },
    KeepAliveSent {
        lease: u64,
    },
    /// An answer with the TTL: the client's deadline moves to a TTL from now.
    KeepAliveAnswered {
        lease: u64,
        ttl_s: u64,
        deadline_ms: Millis,
    },
    /// The leader no longer knows the lease (TTL 0 in the answer): the session closes.
    KeepAliveNotFound {
        lease: u64,
    },
    /// The deadline loop found no answer for a whole TTL: the session closes (`Done()`).
    SessionDone {
        lease: u64,
        deadline_ms: Millis,
    },
    /// The mutex's one Txn: put `PREFIX/<lease>` if it does not exist, and read the owner.
    LockTxnSent {
        key: String,
    },
    /// Its answer: the client's key's create revision, and the lowest one under the prefix.
    LockTxnAnswered {
        my_rev: u64,
        owner_rev: u64,
    },
    /// `Get(prefix, last create, max create revision = my_rev − 1)`: the key just ahead.
    PredecessorRead {
        /// The key ahead and its owner, or none: the client holds.
        ahead: Option<(ActorId, u64)>,
        revision: u64,
    },
    /// A watch on the key ahead only (no herd), from the revision of the read.
    WatchStarted {
        owner: ActorId,
        create_rev: u64,
        from_rev: u64,
    },
    /// The watched key was deleted: the client reads again.
    WatchFired {
        owner: ActorId,
        create_rev: u64,
        delete_rev: u64,
    },
    /// No key ahead: the client holds, with its key's create revision as the token.
    Locked {
        token: u64,
    },
    /// A write to data in etcd: `Txn(If create_revision(lock key) = token, Then put data)`.
    DataTxnSent {
        token: u64,
    },
    /// The Txn's answer.
    DataTxnAnswered {
        token: u64,
        succeeded: bool,
    },
    /// The client knows its session is done and leaves the write unsent.
    WriteSkipped {
        token: u64,
    },
    /// `Unlock`: delete its own key.
    UnlockSent {
        key: String,
    },

    // --- the leader ---
    LeaseGranted {
        lease: u64,
        owner: ActorId,
        requested_s: u64,
        ttl_s: u64,
        expires_ms: Millis,
    },
    /// A keep-alive refreshes the lease to its full TTL from now.
    LeaseRefreshed {
        lease: u64,
        expires_ms: Millis,
    },
    /// The client revoked its lease (closing its session).
    LeaseRevoked {
        lease: u64,
        owner: ActorId,
    },
    /// A keep-alive for a lease the leader no longer has.
    LeaseNotFound {
        lease: u64,
    },
    /// The revoke loop found the lease past its expiry and revoked it with its keys.
    LeaseExpired {
        lease: u64,
        owner: ActorId,
        expired_ms: Millis,
    },
    /// A lock key is put, attached to its lease, at a new revision.
    KeyPut {
        owner: ActorId,
        lease: u64,
        create_rev: u64,
    },
    /// A lock key is deleted at `revision`; `notified`, the clients whose watch it fires.
    KeyDeleted {
        owner: ActorId,
        create_rev: u64,
        revision: u64,
        cause: DeleteCause,
        notified: Vec<ActorId>,
    },
    /// A data Txn's comparison: the lock key's create revision now (0 once it is gone) against
    /// the writer's token.
    DataTxn {
        writer: ActorId,
        token: u64,
        key_rev: u64,
        succeeded: bool,
        /// The store's revision after it (one more when it wrote).
        revision: u64,
    },
}

/// An etcd lane state, for clients and the leader (a client holding is
/// [`SpanState::Holding`](super::SpanState::Holding) with its key's create revision).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(tag = "etcd", rename_all = "snake_case")]
pub enum EtcdSpan {
    /// Asking for a lease, or waiting for the lock Txn's answer.
    Opening,
    /// Waiting for the deletion of the key just ahead (owned by `owner`, created at `create_rev`).
    Waiting { owner: ActorId, create_rev: u64 },
    /// Still acting as the holder with its lease gone on the leader (it has not learned, or
    /// ignores it).
    Unaware { token: u64 },
    /// The leader's lock prefix: who holds (the owner of the lowest create revision), with that
    /// revision, and how many keys wait behind it.
    Prefix {
        holder: Option<ActorId>,
        token: u64,
        waiting: u8,
    },
}

impl EtcdSpan {
    pub fn name(self) -> &'static str {
        match self {
            EtcdSpan::Opening => "opening",
            EtcdSpan::Waiting { .. } => "waiting_key",
            EtcdSpan::Unaware { .. } => "unaware",
            EtcdSpan::Prefix { .. } => "prefix",
        }
    }
}

/// One client's hold on the lock, as the leader's store had it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Hold {
    pub client: String,
    pub lease: u64,
    pub token: u64,
    pub locked_ms: Millis,
    /// When its key was deleted, and why; `None` if it still existed at the end.
    pub ended_ms: Option<Millis>,
    pub cause: Option<DeleteCause>,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct EtcdMetrics {
    /// The TTL the leader granted (the request raised to the minimum).
    pub ttl_s: u64,
    /// How often a client sends a keep-alive: a third of the TTL.
    pub keepalive_every_ms: Millis,
    pub holds: Vec<Hold>,
    /// When the leader first revoked a lease that ran out.
    pub first_expiry_ms: Option<Millis>,
    /// From that revoke to the next client's lock.
    pub handover_ms: Option<Millis>,
    /// The most clients one key's deletion woke (1 without a herd).
    pub max_woken: u32,
    /// How long some client acted as holder while its lease was gone on the leader.
    pub unaware_ms: Millis,
    /// When a client whose lease was gone learned it (its session closed), if it did.
    pub learned_ms: Option<Millis>,
    /// Writes the data accepted from a client whose key was gone.
    pub stale_writes_accepted: u32,
    /// Writes the data refused (by token or by the Txn's comparison).
    pub stale_writes_refused: u32,
    /// Who wrote the data's value last.
    pub final_value: Option<String>,
    /// The store's revision at the end.
    pub revision: u64,
    pub violations: Vec<Invariant>,
}

/// The presets of the family, by name.
pub mod presets {
    /// Three clients in a row; the resource checks the revision token.
    pub const LOCK: &str = "etcd-lock";
    /// The holder freezes past its lease; the resource checks nothing.
    pub const FROZEN_UNFENCED: &str = "etcd-frozen-unfenced";
    /// The same pause; the resource refuses the older revision.
    pub const FROZEN_FENCED: &str = "etcd-frozen-fenced";
    /// The holder's keep-alives stop reaching etcd; it never looks at its session and writes on.
    pub const KEEPALIVE_LOST: &str = "etcd-keepalive-lost";
    /// The same, but the client checks its session before each write and learns late.
    pub const KEEPALIVE_LATE: &str = "etcd-keepalive-late";
    /// The frozen holder again, with the data in etcd behind a Txn on the lock key.
    pub const TXN_GUARD: &str = "etcd-txn-guard";
    pub const ALL: [&str; 6] = [
        LOCK,
        FROZEN_UNFENCED,
        FROZEN_FENCED,
        KEEPALIVE_LOST,
        KEEPALIVE_LATE,
        TXN_GUARD,
    ];
}
