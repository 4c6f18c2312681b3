//! The etcd lease lock on a real etcd: the private member starts on loopback and leaves
//! nothing behind, and the JSON gateway client does what etcd's v3 API does (leases, the
//! `concurrency.Mutex` queue by create revision, the predecessor's deletion seen through a
//! watch, the Txn guard on the lock key's create revision). Ignored, with the reason, where
//! Debian's etcd-server is not installed.

use std::time::{Duration, Instant};

use libtest_mimic::{Completion, Failed, Trial};
use locklab::engine::params::Params;
use locklab::engine::params::{EtcdParams, Guard, OnLost};
use locklab::engine::trace::etcd::{DeleteCause, EtcdEvent, EtcdMetrics};
use locklab::engine::trace::{EventKind, Trace};
use locklab::engine::world::ActorId;
use locklab::live::etcd::client::{LOCK_PREFIX, Report};
use locklab::live::etcd::resource::ResourceAt;
use locklab::live::etcd::run::{Gathered, Seen, run};
use locklab::live::etcd::{self, Etcd, Gateway, Story, server};

const TIMEOUT: Duration = Duration::from_secs(2);

fn member() -> (Etcd, Gateway) {
    let e = Etcd::start().expect("a private etcd starts");
    let g = e.gateway(TIMEOUT);
    (e, g)
}

fn the_member_listens_on_loopback_only_and_leaves_nothing() {
    let (e, g) = member();
    assert!(e.version.starts_with("3."), "{}", e.version);
    assert!(g.healthy());
    let (addr, peer, dir) = (e.addr, e.peer, e.dir.clone());
    let mut listening = super::listening_addresses(addr.port());
    listening.extend(super::listening_addresses(peer.port()));
    assert!(
        !listening.is_empty(),
        "something listens on {addr} and {peer}"
    );
    for a in &listening {
        assert!(
            a == "0100007F" || a == "0000000000000000FFFF00000100007F",
            "{addr}/{peer} listen on {a}, not 127.0.0.1 alone: {listening:?}"
        );
    }
    assert!(
        dir.join("data").is_dir(),
        "the member's data is in its directory"
    );
    drop(e);
    assert!(!dir.exists(), "{} was removed", dir.display());
    for a in [addr, peer] {
        assert!(
            std::net::TcpStream::connect_timeout(&a, Duration::from_millis(200)).is_err(),
            "nothing listens on {a} any more"
        );
    }
}

/// Grant, keep-alive, time to live with the attached key, revoke (the key goes with it).
fn a_lease_is_granted_kept_alive_and_revoked_with_its_key() {
    let (_e, g) = member();
    let lease = g.lease_grant(5).expect("granted");
    assert_eq!(lease.ttl_s, 5);
    g.put("lk/x", "v", Some(lease.id)).expect("put");
    assert_eq!(g.lease_keepalive(lease.id).expect("kept alive"), Some(5));
    let (ttl, keys) = g
        .lease_time_to_live(lease.id)
        .expect("asked")
        .expect("alive");
    assert!((4..=5).contains(&ttl), "{ttl}");
    assert_eq!(keys, vec!["lk/x".to_string()]);
    g.lease_revoke(lease.id).expect("revoked");
    assert_eq!(
        g.get("lk/x").expect("read"),
        None,
        "the key went with its lease"
    );
    assert_eq!(g.lease_time_to_live(lease.id).expect("asked"), None);
    assert_eq!(g.lease_keepalive(lease.id).expect("asked"), None);
}

/// The queue of `concurrency.Mutex`: each client's key under the prefix, the owner the oldest
/// create revision, each waiter's predecessor the next lower one, and a waiter woken by a watch
/// when its predecessor's key is deleted.
fn the_mutex_queue_follows_create_revisions_and_a_watch_sees_the_deletion() {
    let (_e, g) = member();
    let (la, lb) = (g.lease_grant(10).unwrap(), g.lease_grant(10).unwrap());
    let (rev_a, owner) = g.enqueue("lock/", "lock/a", la.id).expect("A queued");
    assert_eq!(owner.expect("an owner").create_revision, rev_a, "A holds");
    let (rev_b, owner) = g.enqueue("lock/", "lock/b", lb.id).expect("B queued");
    assert!(rev_b > rev_a);
    assert_eq!(owner.expect("an owner").key, "lock/a", "A still holds");
    // Asking again creates nothing new: the same create revision.
    assert_eq!(g.enqueue("lock/", "lock/b", lb.id).unwrap().0, rev_b);
    let (pred, at) = g.predecessor("lock/", rev_b).expect("read");
    let pred = pred.expect("B waits for A");
    assert_eq!((pred.key.as_str(), pred.create_revision), ("lock/a", rev_a));
    assert_eq!(
        g.predecessor("lock/", rev_a).unwrap().0,
        None,
        "A waits for no one"
    );
    // Nothing deletes A's key: the wait ends at its deadline.
    let t = Instant::now();
    let none = g.wait_deleted("lock/a", at, t + Duration::from_millis(300));
    assert_eq!(none, Ok(None));
    assert!(t.elapsed() >= Duration::from_millis(300));
    let waiter = {
        let g = g.clone();
        std::thread::spawn(move || {
            g.wait_deleted("lock/a", at, Instant::now() + Duration::from_secs(5))
        })
    };
    std::thread::sleep(Duration::from_millis(200));
    g.lease_revoke(la.id).expect("A's lease revoked");
    let deleted = waiter
        .join()
        .unwrap()
        .expect("watched")
        .expect("seen deleted");
    assert!(deleted > rev_b, "{deleted} after {rev_b}");
    let (pred, _) = g.predecessor("lock/", rev_b).unwrap();
    assert_eq!(pred, None, "B holds now");
}

/// The guarded write: accepted while the lock key's create revision is the token, refused once
/// the key is gone, and refused for a new holder's key of a higher revision.
fn the_txn_guard_refuses_a_write_once_the_lock_key_changed() {
    let (_e, g) = member();
    let la = g.lease_grant(10).unwrap();
    let (token, _) = g.enqueue("lock/", "lock/a", la.id).unwrap();
    assert!(g.put_if_holder("lock/a", token, "data", "A1").unwrap());
    assert_eq!(g.get("data").unwrap().map(|k| k.value), Some("A1".into()));
    g.lease_revoke(la.id).unwrap();
    assert!(!g.put_if_holder("lock/a", token, "data", "A2").unwrap());
    let lb = g.lease_grant(10).unwrap();
    g.enqueue("lock/", "lock/a", lb.id).unwrap();
    assert!(!g.put_if_holder("lock/a", token, "data", "A3").unwrap());
    assert_eq!(g.get("data").unwrap().map(|k| k.value), Some("A1".into()));
}

/// A lease nobody keeps alive expires on etcd's lease checker: the key goes at least a TTL
/// after the last keep-alive and within the checker's granularity after that.
fn an_unrenewed_lease_expires_on_the_server() {
    let (_e, g) = member();
    // etcd raises a TTL below its floor to the floor, as the model's leader does.
    let lease = g.lease_grant(1).unwrap();
    let floor = locklab::engine::trace::etcd::protocol::MIN_TTL_S;
    assert_eq!(lease.ttl_s as u64, floor);
    let ttl = Duration::from_secs(floor);
    g.put("lk/x", "v", Some(lease.id)).unwrap();
    let kept = Instant::now();
    g.lease_keepalive(lease.id).unwrap();
    let gone = loop {
        if g.get("lk/x").unwrap().is_none() {
            break kept.elapsed();
        }
        assert!(
            kept.elapsed() < Duration::from_secs(5),
            "the key never went"
        );
        std::thread::sleep(Duration::from_millis(10));
    };
    assert!(gone >= ttl, "{gone:?}");
    assert!(gone <= ttl + server::EXPIRY_LATE_MAX, "{gone:?}");
}

fn exe() -> &'static std::path::Path {
    std::path::Path::new(env!("CARGO_BIN_EXE_locklab"))
}

/// A short frozen-holder story: A holds, its process is stopped past its 2 s lease, B locks
/// and writes, A wakes and writes with its old token.
fn frozen(guard: Guard) -> EtcdParams {
    EtcdParams {
        ttl_s: 2,
        start_gap_ms: 200,
        work_ms: 1_500,
        write_every_ms: 500,
        duration_ms: 5_500,
        guard,
        pause_client: Some(0),
        pause_at_ms: 300,
        pause_len_ms: 3_500,
        ..EtcdParams::default()
    }
}

/// What a client reported, in order.
fn reports(g: &Gathered, c: usize) -> Vec<&Report> {
    g.reports
        .iter()
        .filter(|(i, _)| *i == c)
        .map(|(_, r)| r)
        .collect()
}

fn token_of(g: &Gathered, c: usize) -> i64 {
    reports(g, c)
        .iter()
        .find_map(|r| match r {
            Report::Locked { token, .. } => Some(*token),
            _ => None,
        })
        .unwrap_or_else(|| panic!("client {c} locked: {:#?}", reports(g, c)))
}

/// Each write's token and whether the store took it.
fn writes(g: &Gathered, c: usize) -> Vec<(i64, bool)> {
    reports(g, c)
        .iter()
        .filter_map(|r| match r {
            Report::Wrote {
                token, accepted, ..
            } => Some((*token, *accepted)),
            _ => None,
        })
        .collect()
}

/// The frozen holder's lease ran out on etcd itself: its key was deleted while it was stopped,
/// by no unlock of its own, and B's token is etcd's create revision of B's key.
fn the_story_of_a_frozen_holder(g: &Gathered) {
    let (a, b) = (token_of(g, 0), token_of(g, 1));
    let deleted: Vec<&Seen> = g.seen.iter().filter(|s| s.event.deleted).collect();
    let a_gone = deleted.first().expect("A's key was deleted");
    let (froze, woke) = (g.faults[0].0, g.faults[1].0);
    assert!(
        a_gone.at > froze && a_gone.at < woke,
        "A's key went while A was stopped: {a_gone:?} {:?}",
        g.faults
    );
    let put_b = g
        .seen
        .iter()
        .find(|s| !s.event.deleted && s.event.kv.create_revision == b)
        .expect("B's key as etcd has it");
    assert!(put_b.event.kv.key.starts_with(LOCK_PREFIX));
    assert!(b > a, "B's revision {b} after A's {a}");
    let b_locked = reports(g, 1)
        .iter()
        .find_map(|r| match r {
            Report::Locked { at, .. } => Some(*at),
            _ => None,
        })
        .expect("B locked");
    assert!(
        b_locked >= a_gone.at.saturating_sub(30),
        "B locked after A's key went"
    );
    assert!(
        writes(g, 1).iter().all(|&(t, ok)| t == b && ok),
        "{:?}",
        writes(g, 1)
    );
}

fn a_frozen_holder_unfenced_has_its_stale_write_accepted() {
    let g = run(&frozen(Guard::None), exe()).expect("the live run completes");
    the_story_of_a_frozen_holder(&g);
    let a = writes(&g, 0);
    assert!(!a.is_empty() && a.iter().all(|&(_, ok)| ok), "{a:?}");
}

fn a_frozen_holder_fenced_has_its_stale_write_refused() {
    let g = run(&frozen(Guard::Token), exe()).expect("the live run completes");
    the_story_of_a_frozen_holder(&g);
    let a = writes(&g, 0);
    assert!(!a.is_empty() && a.iter().all(|&(_, ok)| !ok), "{a:?}");
}

fn the_txn_guard_refuses_the_frozen_holders_write_on_etcd() {
    let g = run(&frozen(Guard::Txn), exe()).expect("the live run completes");
    assert_eq!(g.resource, ResourceAt::Txn { etcd: g.server.0 });
    the_story_of_a_frozen_holder(&g);
    let a = writes(&g, 0);
    assert!(!a.is_empty() && a.iter().all(|&(_, ok)| !ok), "{a:?}");
}

/// The holder's link to etcd is cut: its keep-alives go unanswered, its lease runs out on etcd
/// and B takes over; the client that ignores its session writes on, the one that checks it
/// learns its session is done and skips its writes.
fn a_cut_holder(stop_when_lost: bool) -> Gathered {
    let p = EtcdParams {
        ttl_s: 2,
        start_gap_ms: 200,
        work_ms: 4_000,
        write_every_ms: 500,
        duration_ms: 5_000,
        guard: Guard::None,
        on_lost: if stop_when_lost {
            OnLost::Stop
        } else {
            OnLost::Ignore
        },
        cut_client: Some(0),
        cut_at_ms: 300,
        cut_len_ms: 4_500,
        ..EtcdParams::default()
    };
    let g = run(&p, exe()).expect("the live run completes");
    let a = reports(&g, 0);
    assert!(
        a.iter().any(|r| matches!(r, Report::SessionDone { .. })),
        "A's session ended for want of an answer: {a:#?}"
    );
    assert!(token_of(&g, 1) > token_of(&g, 0));
    g
}

fn a_holder_whose_keepalive_failed_writes_on() {
    let g = a_cut_holder(false);
    let done = reports(&g, 0)
        .iter()
        .find_map(|r| matches!(r, Report::SessionDone { .. }).then(|| r.at()))
        .unwrap();
    let late: Vec<_> = reports(&g, 0)
        .into_iter()
        .filter(|r| matches!(r, Report::Wrote { accepted: true, .. }) && r.at() > done)
        .collect();
    assert!(!late.is_empty(), "A wrote after its session was done");
}

fn a_holder_that_checks_its_session_stops_writing() {
    let g = a_cut_holder(true);
    let a = reports(&g, 0);
    assert!(
        a.iter().any(|r| matches!(r, Report::WriteSkipped { .. })),
        "{a:#?}"
    );
    let done = a
        .iter()
        .find(|r| matches!(r, Report::SessionDone { .. }))
        .unwrap()
        .at();
    assert!(
        !a.iter()
            .any(|r| matches!(r, Report::Wrote { .. }) && r.at() > done)
    );
}

/// Times at half the preset's: the same story, twice as short.
const SCALE: f64 = 0.5;

/// Runs a shipped preset live at [`SCALE`] and checks the comparison agrees row for row.
fn agreed(name: &str) -> Story {
    let p = locklab::scenario::find(name).expect("a shipped preset");
    let Params::Etcd(p) = &p.params else {
        panic!("{name} is not an etcd preset")
    };
    let story = etcd::story(&etcd::scaled(p, SCALE), exe()).expect("the live run completes");
    let rows = story.rows();
    assert!(
        rows.iter().any(|r| r.instant.is_some()),
        "{name}: no instants"
    );
    let differ: Vec<_> = rows.iter().filter(|r| !r.same()).collect();
    assert!(
        differ.is_empty(),
        "{name}: the live run differs from the model:\n{differ:#?}"
    );
    let (addr, dir) = &story.server;
    assert!(!dir.exists(), "{name}: {} was removed", dir.display());
    assert!(
        std::net::TcpStream::connect_timeout(addr, Duration::from_millis(200)).is_err(),
        "{name}: nothing listens on {addr} any more"
    );
    story
}

fn metrics(t: &Trace) -> &EtcdMetrics {
    locklab::engine::families::etcd::metrics(t).expect("an etcd trace")
}

/// Each hold's token is the create revision etcd gave its key, as etcd's watch reported it.
fn tokens_are_etcds_create_revisions(t: &Trace) {
    let puts: Vec<(ActorId, u64)> = t
        .events
        .iter()
        .filter_map(|e| match &e.kind {
            EventKind::Etcd(EtcdEvent::KeyPut {
                owner, create_rev, ..
            }) => Some((*owner, *create_rev)),
            _ => None,
        })
        .collect();
    let m = metrics(t);
    assert!(!m.holds.is_empty());
    for h in &m.holds {
        let id = t.actor_named(&h.client).expect("the client");
        assert!(puts.contains(&(id, h.token)), "{h:?} in {puts:?}");
    }
}

fn live_etcd_lock() {
    let s = agreed("etcd-lock");
    let m = metrics(&s.live);
    let who: Vec<&str> = m.holds.iter().map(|h| h.client.as_str()).collect();
    assert_eq!(who, ["A", "B", "C"]);
    assert!(
        m.holds.windows(2).all(|w| w[0].token < w[1].token),
        "{m:#?}"
    );
    tokens_are_etcds_create_revisions(&s.live);
    assert_eq!(m.stale_writes_accepted, 0);
}

/// A's key was deleted by its lease running out on etcd, not by an unlock.
fn a_lease_ran_out_on_etcd(m: &EtcdMetrics) {
    let a = &m.holds[0];
    assert_eq!(a.client, "A");
    assert_eq!(a.cause, Some(DeleteCause::LeaseExpired), "{m:#?}");
}

fn live_etcd_frozen_unfenced() {
    let s = agreed("etcd-frozen-unfenced");
    let m = metrics(&s.live);
    a_lease_ran_out_on_etcd(m);
    assert!(m.stale_writes_accepted > 0, "{m:#?}");
    assert_eq!(m.final_value.as_deref(), Some("A"));
    let froze = s.live.events.iter().any(|e| e.kind == EventKind::Froze);
    assert!(froze, "A's process was stopped");
}

fn live_etcd_frozen_fenced() {
    let s = agreed("etcd-frozen-fenced");
    let m = metrics(&s.live);
    a_lease_ran_out_on_etcd(m);
    tokens_are_etcds_create_revisions(&s.live);
    assert_eq!(m.stale_writes_accepted, 0, "{m:#?}");
    assert!(m.stale_writes_refused > 0, "{m:#?}");
    if locklab::live::pg::server::installed().is_ok() {
        assert!(
            matches!(s.resource, ResourceAt::Postgres { .. }),
            "{:?}",
            s.resource
        );
    }
}

fn live_etcd_keepalive_lost() {
    let s = agreed("etcd-keepalive-lost");
    let m = metrics(&s.live);
    a_lease_ran_out_on_etcd(m);
    assert!(m.stale_writes_accepted > 0, "{m:#?}");
    assert!(s.live.events.iter().any(|e| e.kind == EventKind::LinkCut));
}

fn live_etcd_keepalive_late() {
    let s = agreed("etcd-keepalive-late");
    let m = metrics(&s.live);
    a_lease_ran_out_on_etcd(m);
    assert!(m.learned_ms.is_some(), "{m:#?}");
    let skipped = s
        .live
        .events
        .iter()
        .any(|e| matches!(e.kind, EventKind::Etcd(EtcdEvent::WriteSkipped { .. })));
    assert!(skipped, "A looked at its session and held its write back");
}

fn live_etcd_txn_guard() {
    let s = agreed("etcd-txn-guard");
    let m = metrics(&s.live);
    a_lease_ran_out_on_etcd(m);
    assert!(matches!(s.resource, ResourceAt::Txn { .. }));
    assert_eq!(m.stale_writes_accepted, 0, "{m:#?}");
    // The real etcd refused A's Txn: the lock key's create revision was no longer A's token.
    let refused = s.live.events.iter().any(|e| {
        matches!(
            e.kind,
            EventKind::Etcd(EtcdEvent::DataTxn {
                succeeded: false,
                key_rev: 0,
                ..
            })
        )
    });
    assert!(refused, "a Txn refused on etcd");
}

/// A short run with one of the faults, for the check that counts what runs are left.
pub fn short(i: usize) -> EtcdParams {
    let mut p = frozen([Guard::None, Guard::Token, Guard::Txn][i % 3]);
    p.duration_ms = 600;
    p.work_ms = 200;
    p.write_every_ms = 100;
    p.pause_at_ms = 50;
    p.pause_len_ms = 300;
    if i % 2 == 1 {
        p.pause_client = None;
        p.cut_client = Some(0);
        p.cut_at_ms = 50;
        p.cut_len_ms = 300;
    }
    p
}

/// The etcd tests, each ignored with the reason where etcd is not installed.
pub fn trials() -> Vec<Trial> {
    let with: [(&str, fn(), bool); 16] = [
        ("live_etcd_lock", live_etcd_lock, true),
        ("live_etcd_frozen_unfenced", live_etcd_frozen_unfenced, true),
        ("live_etcd_frozen_fenced", live_etcd_frozen_fenced, true),
        ("live_etcd_keepalive_lost", live_etcd_keepalive_lost, true),
        ("live_etcd_keepalive_late", live_etcd_keepalive_late, true),
        ("live_etcd_txn_guard", live_etcd_txn_guard, true),
        (
            "live_etcd_frozen_holder_unfenced_has_its_stale_write_accepted",
            a_frozen_holder_unfenced_has_its_stale_write_accepted,
            true,
        ),
        (
            "live_etcd_frozen_holder_fenced_has_its_stale_write_refused",
            a_frozen_holder_fenced_has_its_stale_write_refused,
            true,
        ),
        (
            "live_etcd_txn_guard_refuses_the_frozen_holders_write_on_etcd",
            the_txn_guard_refuses_the_frozen_holders_write_on_etcd,
            true,
        ),
        (
            "live_etcd_holder_whose_keepalive_failed_writes_on",
            a_holder_whose_keepalive_failed_writes_on,
            true,
        ),
        (
            "live_etcd_holder_that_checks_its_session_stops_writing",
            a_holder_that_checks_its_session_stops_writing,
            true,
        ),
        (
            "the_etcd_member_listens_on_loopback_only_and_leaves_nothing",
            the_member_listens_on_loopback_only_and_leaves_nothing,
            false,
        ),
        (
            "an_etcd_lease_is_granted_kept_alive_and_revoked_with_its_key",
            a_lease_is_granted_kept_alive_and_revoked_with_its_key,
            false,
        ),
        (
            "the_etcd_mutex_queue_follows_create_revisions_and_a_watch_sees_the_deletion",
            the_mutex_queue_follows_create_revisions_and_a_watch_sees_the_deletion,
            true,
        ),
        (
            "the_etcd_txn_guard_refuses_a_write_once_the_lock_key_changed",
            the_txn_guard_refuses_a_write_once_the_lock_key_changed,
            false,
        ),
        (
            "an_unrenewed_etcd_lease_expires_on_the_server",
            an_unrenewed_lease_expires_on_the_server,
            true,
        ),
    ];
    with.into_iter()
        .map(|(name, f, timed)| {
            Trial::ignorable_test(name, move || -> Result<Completion, Failed> {
                if let Err(e) = server::installed() {
                    return Ok(Completion::ignored_with(e.message));
                }
                // An etcd member is one of the servers a check of what is left counts.
                let _side = super::side_by_side();
                // Timed checks take turns with the other live runs.
                let _one = timed.then(super::serial);
                f();
                Ok(Completion::Completed)
            })
        })
        .collect()
}
