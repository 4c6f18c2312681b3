//! The two runners of a live election, each a thread with a real ZooKeeper session and a
//! connection of its own to the rollup job's table.
//!
//! A leads when the run starts. Its session lives on a single-threaded runtime that runs only
//! while A waits on it, so A's pause is real: the thread sleeps, the library's pings stop with
//! it, and the server expires the session. When A wakes it submits what it remembers, as the
//! model's runner does. B's session lives on a runtime of its own worker thread, so it keeps
//! pinging while B talks to the table: it watches A's node, is woken when the server deletes it,
//! raises the epoch with a `setData` on the version it read, and takes the job over with one
//! conditional statement, once a second until A's lease has run out.

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use zookeeper_client::{Acls, Client, CreateMode, EventType};

use super::record::{A, B, Log, Row, Statement};
use crate::engine::msg::{RowCond, RowOp, RowState};
use crate::engine::params::ElectionParams;
use crate::engine::time::Millis;
use crate::engine::trace::{EventKind, SpanState};
use crate::engine::world::ActorId;
use crate::engine::zk::tree::{NodeId, SessionId, WatchEvent, Watched};
use crate::live::UserError;

/// How long a refused takeover waits before trying again: the model's runner's wait.
pub(super) const RETRY_MS: Millis = crate::engine::actors::runner::TAKEOVER_RETRY_MS;

/// Where a runner's session and its candidate live.
#[derive(Clone)]
pub(super) struct Place {
    pub server: std::net::SocketAddr,
    /// The election's directory and the epoch node's path.
    pub dir: String,
    pub epoch: String,
    pub timeout: Duration,
}

fn failed(what: &str, e: impl std::fmt::Display) -> UserError {
    UserError::failed(format!("the live election failed {what}: {e}"))
}

/// Opens a session through a loopback relay of this runtime, and records what it was granted.
pub(super) async fn open(place: &Place, me: ActorId, log: &Log) -> Result<Client, UserError> {
    let via = crate::live::net::guard(place.server)
        .await
        .map_err(|e| failed("opening a loopback relay", e))?
        .to_string();
    let connector = crate::live::net::connector().with_session_timeout(place.timeout);
    let zk = crate::live::net::open(connector, &via)
        .await
        .map_err(|e| failed("opening a session", e))?;
    let scale = log.clock.scale;
    let story = |d: Duration| (d.as_secs_f64() * 1000.0 / scale).round() as Millis;
    log.event(
        me,
        EventKind::SessionOpened {
            session: SessionId(u32::from(me.0)),
            requested_ms: story(place.timeout),
            granted_ms: story(zk.session_timeout()),
        },
    );
    Ok(zk)
}

/// Creates `me`'s candidate node; returns its id and sequence number.
pub(super) async fn candidate(
    zk: &Client,
    place: &Place,
    me: ActorId,
    log: &Log,
) -> Result<(NodeId, i32), UserError> {
    let opts = CreateMode::EphemeralSequential.with_acls(Acls::anyone_all());
    let (stat, seq) = zk
        .create(&format!("{}/n_", place.dir), &[], &opts)
        .await
        .map_err(|e| failed("creating a candidate node", e))?;
    let seq = seq.into_i64() as i32;
    let node = log.node(me, seq, stat.czxid as u64, log.now());
    log.event(me, EventKind::GotNode { node });
    Ok((node, seq))
}

fn row(r: &postgres::Row) -> (Row, Millis) {
    let state: String = r.get(0);
    let lease: Option<i64> = r.get(4);
    let now: i64 = r.get(6);
    (
        Row {
            state: crate::live::tasks::sql::state(&state),
            owner: r.get(1),
            epoch: r.get::<_, i64>(2) as u64,
            version: r.get::<_, i64>(3) as u64,
            lease_until_ms: lease.map(|l| l.max(0) as Millis),
            result: r.get(5),
        },
        now.max(0) as Millis,
    )
}

/// Reads the rollup job's row and the store's clock.
pub(super) fn read(db: &mut postgres::Client) -> Result<(Row, Millis), UserError> {
    let r = db
        .query_one(super::sql::READ, &[])
        .map_err(|e| failed("reading the job's row", e))?;
    Ok(row(&r))
}

/// Runs one update and records it with the rows it affected and the row it left.
fn update(
    db: &mut postgres::Client,
    log: &Log,
    (me, epoch, op): (ActorId, u64, RowOp),
    sql: &str,
    params: &[&(dyn postgres::types::ToSql + Sync)],
    cond: RowCond,
) -> Result<(u64, Row), UserError> {
    let at = log.now();
    let rows = db
        .query(sql, params)
        .map_err(|e| failed("running a statement", e))?;
    let (after, store) = match rows.first() {
        Some(r) => row(r),
        None => read(db)?,
    };
    let affected = rows.len() as u64;
    log.statement(
        Statement {
            at_ms: at,
            store_ms: store,
            by: name(me).to_string(),
            op,
            epoch,
            sql: sql.to_string(),
            affected,
            row: after.clone(),
        },
        me,
        cond,
    );
    Ok((affected, after))
}

fn name(me: ActorId) -> &'static str {
    if me == A { "A" } else { "B" }
}

/// Commits `me`'s result with the epoch and version it holds the job at.
fn submit(
    db: &mut postgres::Client,
    log: &Log,
    p: &ElectionParams,
    (me, epoch, version): (ActorId, u64, u64),
) -> Result<u64, UserError> {
    let who = name(me);
    let (e, v) = (epoch as i64, version as i64);
    let sql = super::sql::submit(p.conditional);
    let (affected, _) = if p.conditional {
        let cond = RowCond {
            version: Some(version),
            epoch: Some(epoch),
            ..RowCond::default()
        };
        update(
            db,
            log,
            (me, epoch, RowOp::Submit),
            &sql,
            &[&who, &e, &v],
            cond,
        )?
    } else {
        let cond = RowCond::default();
        update(db, log, (me, epoch, RowOp::Submit), &sql, &[&who, &e], cond)?
    };
    Ok(affected)
}

/// A, the leader at the start: it leads, pauses for real, wakes and submits.
pub(super) fn leader(
    p: &ElectionParams,
    zk: Client,
    rt: tokio::runtime::Runtime,
    mut db: postgres::Client,
    log: &Log,
    stop: &AtomicBool,
) -> Result<(), UserError> {
    let until = |ms: Millis| tokio::time::Instant::from_std(log.clock.instant(ms));
    // Leading, with the library answering the server, until the pause.
    rt.block_on(async { tokio::time::sleep_until(until(p.pause_at_ms)).await });
    log.event(A, EventKind::Froze);
    log.lane(
        A,
        SpanState::Frozen {
            believes_holding: true,
        },
    );
    // A stopped process: nothing runs on this thread, the session's pings included.
    log.clock.sleep_until(p.pause_at_ms + p.pause_len_ms);
    log.event(A, EventKind::Woke);
    log.lane(
        A,
        SpanState::Leading {
            epoch: p.first_epoch,
        },
    );
    // It finishes the work it started, then submits, whatever its library has said meanwhile.
    rt.block_on(async { tokio::time::sleep_until(until(p.a_work_left_ms)).await });
    let done = submit(&mut db, log, p, (A, p.first_epoch, p.row_version))?;
    log.lane(
        A,
        if done == 1 {
            SpanState::Released
        } else {
            SpanState::Lost
        },
    );
    // The session stays as the server left it until the run ends.
    while !stop.load(Ordering::Relaxed) {
        rt.block_on(async { tokio::time::sleep(Duration::from_millis(10)).await });
    }
    drop(zk);
    Ok(())
}

/// B: a candidate behind A that waits, is elected, raises the epoch, takes over and submits.
pub(super) fn follower(
    p: &ElectionParams,
    place: &Place,
    rt: &tokio::runtime::Handle,
    zk: &Client,
    db: &mut postgres::Client,
    log: &Log,
    a_node: NodeId,
) -> Result<(), UserError> {
    log.lane(B, SpanState::Creating);
    log.event(B, EventKind::CreateSent { guid: 0xb2 });
    let (mine, seq) = rt.block_on(candidate(zk, place, B, log))?;
    log.queued();
    loop {
        log.lane(B, SpanState::Reading);
        let mut children = rt
            .block_on(zk.list_children(&place.dir))
            .map_err(|e| failed("reading the candidates", e))?;
        children.sort();
        let ahead = children
            .iter()
            .filter_map(|c| c.strip_prefix("n_")?.parse::<i32>().ok())
            .filter(|&s| s < seq)
            .max();
        let nodes = log.lock().nodes.clone();
        let listed: Vec<NodeId> = nodes
            .iter()
            .filter(|n| children.contains(&format!("n_{:010}", n.seq)))
            .map(|n| n.id)
            .collect();
        log.event(
            B,
            EventKind::ChildrenRead {
                children: listed,
                mine: Some(mine),
            },
        );
        let Some(ahead) = ahead else { break };
        let node = nodes
            .iter()
            .find(|n| n.seq == ahead)
            .map_or(a_node, |n| n.id);
        log.lane(B, SpanState::Checking { node });
        let path = format!("{}/n_{ahead:010}", place.dir);
        let (stat, w) = rt
            .block_on(zk.check_and_watch_stat(&path))
            .map_err(|e| failed("watching the candidate ahead", e))?;
        log.event(
            B,
            EventKind::ExistsChecked {
                node,
                exists: stat.is_some(),
            },
        );
        if stat.is_none() {
            continue;
        }
        let on = Watched::Node(node);
        log.event(B, EventKind::Waiting { on });
        log.lane(B, SpanState::Waiting { watching: on });
        let ev = rt.block_on(w.changed());
        if ev.event_type != EventType::NodeDeleted {
            return Err(failed("waiting", "the session ended"));
        }
        // The notification is the service's word that A's session is over.
        log.expired(node);
        let event = WatchEvent::NodeDeleted;
        log.event(B, EventKind::Notified { target: on, event });
        log.event(B, EventKind::WokeUp { target: on });
    }
    // First: raise the epoch, only if nobody changed it since this read.
    log.lane(B, SpanState::Reading);
    let (data, stat) = rt
        .block_on(zk.get_data(&place.epoch))
        .map_err(|e| failed("reading the epoch", e))?;
    let current: u64 = String::from_utf8_lossy(&data).trim().parse().unwrap_or(0);
    let epoch = current + 1;
    let raised = epoch.to_string();
    rt.block_on(zk.set_data(&place.epoch, raised.as_bytes(), Some(stat.version)))
        .map_err(|e| failed("raising the epoch", e))?;
    log.event(B, EventKind::Elected { epoch });
    log.lane(B, SpanState::Leading { epoch });
    // Take the job over: only as read, and once the old lease has run out.
    let version = loop {
        let (r, _) = read(db)?;
        if r.state != RowState::Running {
            log.lane(B, SpanState::Released);
            return Ok(());
        }
        let cond = RowCond {
            state: Some(RowState::Running),
            version: Some(r.version),
            epoch: Some(r.epoch),
            lease_expired: true,
            ..RowCond::default()
        };
        let lease = (p.lease_ms) as i64;
        let (v, e, ep) = (r.version as i64, r.epoch as i64, epoch as i64);
        let (affected, after) = update(
            db,
            log,
            (B, epoch, RowOp::TakeOver),
            &super::sql::take_over(),
            &[&"B", &ep, &lease, &v, &e],
            cond,
        )?;
        if affected == 1 {
            break after.version;
        }
        log.clock.sleep_until(log.now() + RETRY_MS);
    };
    log.clock.sleep_until(log.now() + p.work_ms);
    let done = submit(db, log, p, (B, epoch, version))?;
    log.lane(
        B,
        if done == 1 {
            SpanState::Released
        } else {
            SpanState::Lost
        },
    );
    Ok(())
}
