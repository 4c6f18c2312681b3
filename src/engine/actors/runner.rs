//! A job runner that takes part in a leader election on the coordination service and, as
//! leader, runs a job recorded in a table row.
//!
//! Election: an ephemeral sequential candidate node; the lowest leads; the others watch the node
//! just before theirs. A new leader reads the epoch node and raises it by one with a conditional
//! `setData` (the version it read), so two leaders can never get the same epoch. It then takes
//! the job over with one conditional statement on the row (the version and epoch it read, and
//! the old lease run out), works, and submits its result, conditionally or not. A runner
//! finishes the work it started and submits when it is done, whatever its client library has
//! said meanwhile: only the row's conditions keep an old leader's result out.

use crate::engine::msg::{
    ActorMsg, ChildName, RowCond, RowOp, RowSet, RowState, Timer, ZkOp, ZkResult,
};
use crate::engine::time::Millis;
use crate::engine::trace::EventKind;
use crate::engine::trace::event::Request;
use crate::engine::world::{ActorId, Cx};
use crate::engine::zk::client::{LibEvent, ThroughConn, ZkConn, woken};
use crate::engine::zk::tree::{DirId, NodeId, Tag, Watched};

/// How long a runner waits before trying a refused takeover again.
pub const TAKEOVER_RETRY_MS: Millis = 1_000;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum RunnerStep {
    Idle,
    Joining,
    Reading,
    Checking(NodeId),
    Waiting(Watched),
    /// Raising the epoch.
    Electing,
    /// Reading the row, then taking the job over.
    TakingOver,
    Working,
    Submitting,
    Done,
    Lost,
}

#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Runner {
    pub conn: ZkConn,
    pub dir: DirId,
    pub epoch_node: NodeId,
    pub rows: ActorId,
    pub job: u8,
    pub start_ms: Millis,
    pub work_ms: Millis,
    pub retry_ms: Millis,
    pub lease_ms: Millis,
    pub requested_timeout_ms: Millis,
    /// Submit with `WHERE version = ... AND epoch = ...` (false: an unconditional update).
    pub conditional: bool,
    pub step: RunnerStep,
    pub node: Option<NodeId>,
    pub guid: u32,
    pub epoch: Option<u64>,
    /// The row's version this runner holds the job at.
    pub job_version: Option<u64>,
    create_xid: u32,
}

impl Runner {
    #[allow(clippy::too_many_arguments)]
    pub fn new(
        conn: ZkConn,
        dir: DirId,
        epoch_node: NodeId,
        rows: ActorId,
        job: u8,
        start_ms: Millis,
        work_ms: Millis,
        lease_ms: Millis,
        requested_timeout_ms: Millis,
        conditional: bool,
        guid: u32,
    ) -> Self {
        Self {
            conn,
            dir,
            epoch_node,
            rows,
            job,
            start_ms,
            work_ms,
            retry_ms: TAKEOVER_RETRY_MS,
            lease_ms,
            requested_timeout_ms,
            conditional,
            step: RunnerStep::Idle,
            node: None,
            guid,
            epoch: None,
            job_version: None,
            create_xid: 0,
        }
    }

    /// A runner that already leads with `epoch` and runs the job at `version` when the run
    /// starts, with `work_left` still to do.
    pub fn leading(mut self, node: NodeId, epoch: u64, version: u64, work_left: Millis) -> Self {
        self.node = Some(node);
        self.epoch = Some(epoch);
        self.job_version = Some(version);
        self.step = RunnerStep::Working;
        self.work_ms = work_left;
        self
    }

    pub fn watching(&self) -> Option<Watched> {
        match self.step {
            RunnerStep::Waiting(w) => Some(w),
            _ => None,
        }
    }

    pub fn is_leading(&self) -> bool {
        matches!(
            self.step,
            RunnerStep::Electing
                | RunnerStep::TakingOver
                | RunnerStep::Working
                | RunnerStep::Submitting
        )
    }

    pub fn on_start(&mut self, cx: &mut Cx) {
        self.conn.start(self.requested_timeout_ms, cx);
        if self.step == RunnerStep::Working {
            cx.set_timer(Timer::WorkDue, self.work_ms);
        } else {
            cx.set_timer_at(Timer::Start, self.start_ms);
        }
    }

    pub fn on_timer(&mut self, timer: Timer, cx: &mut Cx) {
        match timer {
            Timer::Start if self.step == RunnerStep::Idle => self.join(cx),
            Timer::Poll if self.step == RunnerStep::TakingOver => {
                cx.send(self.rows, ActorMsg::RowRead { row: self.job });
            }
            Timer::WorkDue if self.step == RunnerStep::Working => self.submit(cx),
            Timer::Ping | Timer::ReadTimeout | Timer::Reconnect => self.conn_timer(timer, cx),
            _ => {}
        }
    }

    pub fn on_msg(&mut self, from: ActorId, msg: ActorMsg, cx: &mut Cx) {
        if from == self.rows {
            self.on_row(msg, cx);
            return;
        }
        self.conn_msg(msg, cx);
    }

    pub fn on_connection_reset(&mut self, cx: &mut Cx) {
        self.conn_reset(cx);
    }

    fn handle(&mut self, events: Vec<LibEvent>, cx: &mut Cx) {
        for e in events {
            match e {
                LibEvent::Reply {
                    request,
                    result,
                    xid,
                } => self.on_reply(xid, request, result, cx),
                LibEvent::Watch { target, event } => {
                    let waiting_on = match self.step {
                        RunnerStep::Waiting(t) => Some(t),
                        _ => None,
                    };
                    if woken(target, event, waiting_on, cx) {
                        self.read(cx);
                    }
                }
                LibEvent::Reconnected => {
                    if matches!(self.step, RunnerStep::Reading | RunnerStep::Checking(_)) {
                        self.read(cx);
                    }
                }
                // Leadership ends with the session; the job's row decides what a late
                // submission may still do.
                LibEvent::Expired => {
                    if !matches!(
                        self.step,
                        RunnerStep::Working | RunnerStep::Submitting | RunnerStep::Done
                    ) {
                        self.step = RunnerStep::Lost;
                    }
                }
                LibEvent::Lost { .. } | LibEvent::Disconnected | LibEvent::NewSession => {}
            }
        }
    }

    fn join(&mut self, cx: &mut Cx) {
        self.step = RunnerStep::Joining;
        cx.event(EventKind::CreateSent { guid: self.guid });
        let op = ZkOp::Create {
            dir: self.dir,
            tag: Tag::Candidate,
            guid: self.guid,
        };
        if let Ok(xid) = self.conn.request(op, cx) {
            self.create_xid = xid;
        }
    }

    fn read(&mut self, cx: &mut Cx) {
        self.step = RunnerStep::Reading;
        let _ = self.conn.request(
            ZkOp::GetChildren {
                dir: self.dir,
                watch: false,
            },
            cx,
        );
    }

    fn on_reply(&mut self, xid: u32, request: Request, result: ZkResult, cx: &mut Cx) {
        match (request, result) {
            (Request::Create, ZkResult::Created { node, .. }) if xid == self.create_xid => {
                cx.event(EventKind::GotNode { node });
                self.node = Some(node);
                self.read(cx);
            }
            (Request::GetChildren, ZkResult::Children { mut children })
                if self.step == RunnerStep::Reading =>
            {
                children.sort_by_key(|c| c.seq);
                self.decide(&children, cx);
            }
            (Request::Exists, ZkResult::Exists { stat }) => {
                if let RunnerStep::Checking(node) = self.step {
                    cx.event(EventKind::ExistsChecked {
                        node,
                        exists: stat.is_some(),
                    });
                    if stat.is_some() {
                        self.conn.watch_armed(Watched::Node(node));
                        cx.event(EventKind::Waiting {
                            on: Watched::Node(node),
                        });
                        self.step = RunnerStep::Waiting(Watched::Node(node));
                    } else {
                        self.read(cx);
                    }
                }
            }
            (Request::GetData, ZkResult::Data { value, version })
                if self.step == RunnerStep::Electing =>
            {
                // Raise the epoch only if nobody changed it since this read.
                self.epoch = Some(value + 1);
                let _ = self.conn.request(
                    ZkOp::SetData {
                        node: self.epoch_node,
                        version,
                        data: value + 1,
                    },
                    cx,
                );
            }
            (Request::SetData, ZkResult::Set { .. }) if self.step == RunnerStep::Electing => {
                self.step = RunnerStep::TakingOver;
                if let Some(epoch) = self.epoch {
                    cx.event(EventKind::Elected { epoch });
                }
                cx.send(self.rows, ActorMsg::RowRead { row: self.job });
            }
            (Request::SetData, ZkResult::BadVersion) if self.step == RunnerStep::Electing => {
                // Someone raised it first: read again.
                self.elect(cx);
            }
            _ => {}
        }
    }

    fn decide(&mut self, children: &[ChildName], cx: &mut Cx) {
        let nodes: Vec<NodeId> = children.iter().map(|c| c.node).collect();
        let mine = self.node;
        cx.event_with(|| EventKind::ChildrenRead {
            children: nodes.clone(),
            mine,
        });
        let Some(idx) = mine.and_then(|m| nodes.iter().position(|n| *n == m)) else {
            self.step = RunnerStep::Lost;
            return;
        };
        if idx == 0 {
            self.elect(cx);
        } else {
            let node = nodes[idx - 1];
            self.step = RunnerStep::Checking(node);
            let _ = self.conn.request(ZkOp::Exists { node, watch: true }, cx);
        }
    }

    fn elect(&mut self, cx: &mut Cx) {
        self.step = RunnerStep::Electing;
        let _ = self.conn.request(
            ZkOp::GetData {
                node: self.epoch_node,
                watch: false,
            },
            cx,
        );
    }

    fn on_row(&mut self, msg: ActorMsg, cx: &mut Cx) {
        match msg {
            ActorMsg::RowValue { row, value } if self.step == RunnerStep::TakingOver => {
                // Take over only a job still running, as it was read, from the epoch before,
                // once the old leader's lease has run out: a finished job is not run again.
                let (Some(epoch), Some(me)) = (self.epoch, Some(cx.me)) else {
                    return;
                };
                if value.state != RowState::Running {
                    // The old leader finished the job before its lease ran out: nothing to take
                    // over, and nothing to run again.
                    self.step = RunnerStep::Done;
                    return;
                }
                cx.send(
                    self.rows,
                    ActorMsg::RowUpdate {
                        row,
                        op: RowOp::TakeOver,
                        cond: RowCond {
                            state: Some(RowState::Running),
                            version: Some(value.version),
                            epoch: Some(value.epoch),
                            lease_expired: true,
                            ..RowCond::default()
                        },
                        set: RowSet {
                            state: Some(RowState::Running),
                            owner: Some(me),
                            epoch: Some(epoch),
                            lease_for_ms: Some(self.lease_ms),
                            bump_version: true,
                            ..RowSet::default()
                        },
                    },
                );
            }
            ActorMsg::RowDone {
                op: RowOp::TakeOver,
                affected,
                value,
                ..
            } if self.step == RunnerStep::TakingOver => {
                if affected == 1 {
                    self.job_version = Some(value.version);
                    self.step = RunnerStep::Working;
                    cx.set_timer(Timer::WorkDue, self.work_ms);
                } else {
                    cx.set_timer(Timer::Poll, self.retry_ms);
                }
            }
            // A refused submission tells the runner it lost the job.
            ActorMsg::RowDone {
                op: RowOp::Submit,
                affected,
                ..
            } => {
                self.step = if affected == 1 {
                    RunnerStep::Done
                } else {
                    RunnerStep::Lost
                }
            }
            _ => {}
        }
    }

    fn submit(&mut self, cx: &mut Cx) {
        self.step = RunnerStep::Submitting;
        let cond = if self.conditional {
            RowCond {
                version: self.job_version,
                epoch: self.epoch,
                ..RowCond::default()
            }
        } else {
            RowCond::default()
        };
        cx.send(
            self.rows,
            ActorMsg::RowUpdate {
                row: self.job,
                op: RowOp::Submit,
                cond,
                set: RowSet {
                    state: Some(RowState::Done),
                    owner: Some(cx.me),
                    epoch: self.epoch,
                    result: Some(cx.me),
                    bump_version: true,
                    ..RowSet::default()
                },
            },
        );
    }
}

impl ThroughConn for Runner {
    fn conn_mut(&mut self) -> &mut ZkConn {
        &mut self.conn
    }
    fn on_lib_events(&mut self, events: Vec<LibEvent>, cx: &mut Cx) {
        self.handle(events, cx);
    }
}
