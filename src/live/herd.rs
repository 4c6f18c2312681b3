//! Herd versus chain on a real ZooKeeper: N waiters queued behind one holder, one real session
//! each, woken by real one-shot watches.
//!
//! As in the model, waiter `i` watches the node `k` places ahead of its own (the holder's when
//! fewer stand ahead): `k = 1` is the chain, `k = N` the herd. Every notification counted here
//! is one the server delivered to a waiting client; each row is one release, measured.

use std::net::SocketAddr;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use zookeeper_client::{Acls, Client, CreateMode, EventType};

use super::UserError;
use super::abc::{make_dir, remove_tree, run_root, runtime, zk_error};
use crate::engine::families::herd;
use crate::engine::params::HerdParams;
use crate::engine::trace::{
    Event, EventKind, HerdMetrics, HerdRow, InvariantReport, Trace, invariant,
};
use crate::engine::world::ActorId;

/// Waiters a live herd may queue: one real session each, so far fewer than the model's.
pub const WAITERS: crate::engine::params::NumSpec = crate::engine::params::NumSpec {
    max: 500.0,
    ..crate::engine::params::HERD_SPECS[0]
};

const SERVICE: ActorId = ActorId(0);

/// How long a round may wait for its wake-ups before it counts what it has.
const ROUND_TIMEOUT: Duration = Duration::from_secs(20);

struct Waiter {
    zk: Client,
    name: String,
    /// Queue position: 0 is the first holder.
    pos: usize,
    /// The queue position of the node its armed watch is on.
    target: Option<usize>,
}

/// Positions of the waiters whose watch the server fired, in the order the events came.
type Fired = Arc<Mutex<Vec<usize>>>;

/// Arms waiter `w`'s watch on the node `k` places ahead among those still queued; a task
/// waits for the server's notification and notes it in `fired`.
async fn arm(w: &mut Waiter, queue: &[String], head: usize, k: usize, dir: &str, fired: &Fired) {
    let target = w.pos.saturating_sub(k).max(head);
    if let Ok((Some(_), watch)) =
        w.zk.check_and_watch_stat(&format!("{dir}/{}", queue[target]))
            .await
    {
        w.target = Some(target);
        let (fired, pos) = (Arc::clone(fired), w.pos);
        tokio::spawn(async move {
            if watch.changed().await.event_type != EventType::Session {
                fired.lock().unwrap_or_else(|e| e.into_inner()).push(pos);
            }
        });
    }
}

/// Runs the herd with real sessions against `server`.
pub fn run(p: &HerdParams, server: SocketAddr) -> Result<Trace, UserError> {
    let rt = runtime()?;
    rt.block_on(herd(p, server))
}

async fn herd(p: &HerdParams, server: SocketAddr) -> Result<Trace, UserError> {
    let addr = server.to_string();
    let n = p.waiters as usize;
    let k = (p.fanout as usize).clamp(1, n.max(1));
    // Every session goes through the frame guard.
    let via = super::net::guard(server)
        .await
        .map_err(|e| UserError::failed(format!("cannot open a loopback relay: {e}")))?
        .to_string();
    let admin = super::net::session(&via)
        .await
        .map_err(|e| zk_error(&format!("connecting to {addr}"), e))?;
    let root = run_root("herd");
    let dir = make_dir(&admin, &root, 0).await?;
    let result = rounds(p, &via, &dir, n, k).await;
    remove_tree(&admin, &root).await;
    result
}

async fn rounds(
    p: &HerdParams,
    addr: &str,
    dir: &str,
    n: usize,
    k: usize,
) -> Result<Trace, UserError> {
    let opts = CreateMode::EphemeralSequential.with_acls(Acls::anyone_all());
    let mut queue: Vec<Waiter> = Vec::with_capacity(n + 1);
    for pos in 0..=n {
        let zk = super::net::session(addr)
            .await
            .map_err(|e| zk_error("opening a waiter's session", e))?;
        let (_, seq) = zk
            .create(&format!("{dir}/{pos:08x}-lock-"), &[], &opts)
            .await
            .map_err(|e| zk_error("queueing a waiter", e))?;
        let name = format!("{pos:08x}-lock-{seq}");
        queue.push(Waiter {
            zk,
            name,
            pos,
            target: None,
        });
    }
    let names: Vec<String> = queue.iter().map(|w| w.name.clone()).collect();
    let fired: Fired = Arc::default();
    for w in queue.iter_mut().skip(1) {
        arm(w, &names, 0, k, dir, &fired).await;
    }
    let mut one_holder = InvariantReport::always(invariant::ONE_HOLDER);
    let mut nobody_stuck = InvariantReport::always(invariant::NOBODY_STUCK);
    let mut woken_seen = InvariantReport::sometimes(invariant::WAITER_WOKEN);
    let (mut rows, mut events) = (Vec::with_capacity(n), Vec::with_capacity(n + 1));
    let (mut total, mut wasted_all) = (0u64, 0u64);
    let start = Instant::now();
    let hold = Duration::from_micros((p.hold_ms * 1000.0).round() as u64);
    for head in 0..n {
        let release = head as u32 + 1;
        let round_start = Instant::now();
        let at_ms = (round_start - start).as_millis() as u64;
        tokio::time::sleep(hold).await;
        queue[head]
            .zk
            .delete(&format!("{dir}/{}", names[head]), None)
            .await
            .map_err(|e| zk_error("releasing", e))?;
        // Wait for the notifications this release must cause, then take every one that came.
        let expected = queue
            .iter()
            .skip(head + 1)
            .filter(|w| w.target == Some(head))
            .count();
        let deadline = Instant::now() + ROUND_TIMEOUT;
        while fired.lock().map_or(0, |f| f.len()) < expected && Instant::now() < deadline {
            tokio::time::sleep(Duration::from_millis(1)).await;
        }
        let mut woken_pos = std::mem::take(&mut *fired.lock().unwrap_or_else(|e| e.into_inner()));
        woken_pos.sort_unstable();
        let woken = woken_pos.len() as u32;
        let mut winner = 0u32;
        let mut winners = 0u32;
        // The woken waiters' reads, timed apart from the hold and the release, as the model
        // counts woken × the cost of one read.
        let mut reads = Duration::ZERO;
        for pos in woken_pos {
            let w = &mut queue[pos];
            w.target = None;
            let read_start = Instant::now();
            let children =
                w.zk.list_children(dir)
                    .await
                    .map_err(|e| zk_error("reading again", e))?;
            reads += read_start.elapsed();
            let first = children
                .iter()
                .min_by_key(|c| super::log::seq_of(c).unwrap_or(i32::MAX));
            if first == Some(&w.name) {
                winners += 1;
                winner = (w.pos - head) as u32;
            } else {
                arm(w, &names, head + 1, k, dir, &fired).await;
            }
        }
        let waiting = (n - head) as u32;
        if woken > 0 {
            woken_seen.record(at_ms, || format!("release {release} woke a waiter"));
        }
        if winners != 1 {
            one_holder.record(at_ms, || {
                format!("release {release} left {winners} holders")
            });
            if winners == 0 {
                nobody_stuck.record(at_ms, || format!("release {release} woke no successor"));
            }
        }
        total += u64::from(woken);
        wasted_all += u64::from(woken.saturating_sub(winners));
        let duration_ms = round_start.elapsed().as_secs_f64() * 1000.0;
        rows.push(HerdRow {
            release,
            start_ms: at_ms as f64,
            woken,
            winner,
            wasted: woken.saturating_sub(winners),
            not_notified: waiting.saturating_sub(woken),
            duration_ms: (duration_ms * 1000.0).round() / 1000.0,
            reads_ms: (reads.as_secs_f64() * 1_000_000.0).round() / 1000.0,
        });
        events.push(Event {
            at_ms,
            actor: SERVICE,
            kind: EventKind::ReleaseRound {
                release,
                woken,
                winner,
                wasted: woken.saturating_sub(winners),
                not_notified: waiting.saturating_sub(woken),
            },
        });
        if winners == 0 {
            break;
        }
    }
    // The last holder releases too, waking nobody.
    tokio::time::sleep(hold).await;
    let end_ms = start.elapsed().as_millis() as u64;
    let total_time_ms = start.elapsed().as_secs_f64() * 1000.0;
    drop(queue);
    let metrics = HerdMetrics {
        total_notifications: total,
        wasted_wakeups: wasted_all,
        total_time_ms: (total_time_ms * 1000.0).round() / 1000.0,
        rows,
    };
    Ok(herd::trace(
        events,
        end_ms,
        metrics,
        vec![one_holder, nobody_stuck, woken_seen],
    ))
}
