//! The data node the lock protects: a holder reads it right after its grant and, `write_after`
//! later, sets it to the value it read plus one, with the version it read or with -1.
//!
//! The call that sets it retries the way Curator's retry loop does: after a connection loss it
//! sends again once connected, and after a session expiry it opens a new session and sends
//! there. That is how a holder paused past its session timeout still gets a write through: the
//! new session holds no lock, but `setData` never asks about locks, only about versions.

use super::{LockClient, Step};
use crate::engine::actors::recipe::DataWrite;
use crate::engine::msg::{ZkOp, ZkResult};
use crate::engine::trace::EventKind;
use crate::engine::trace::event::Request;
use crate::engine::world::Cx;
use crate::engine::zk::client::NotSent;
use crate::engine::zk::tree::NodeId;

/// A client's part in updating the data node.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct DataClient {
    pub mode: Option<(DataWrite, NodeId)>,
    /// The version and value this client last read.
    pub read: Option<(i32, u64)>,
    /// The write was due before the read came back: it goes out with the reply.
    due: bool,
    /// The `setData` still owed: expected version and new value.
    pending: Option<(i32, u64)>,
    in_flight: bool,
    /// Refused with BadVersion: the next read is the last thing this client does.
    refused: bool,
}

impl LockClient {
    /// Makes this client's holds update the data node `node` the way `mode` says.
    pub fn with_data(mut self, mode: DataWrite, node: NodeId) -> Self {
        if mode != DataWrite::Off {
            self.data.mode = Some((mode, node));
        }
        self
    }

    pub(super) fn has_data(&self) -> bool {
        self.data.mode.is_some()
    }

    pub(super) fn read_data(&mut self, cx: &mut Cx) {
        if let Some((_, node)) = self.data.mode {
            let _ = self.conn.request(ZkOp::GetData { node, watch: false }, cx);
        }
    }

    /// The holder's one write, to the data node.
    pub(super) fn write_data(&mut self, cx: &mut Cx) {
        let (Some((mode, _)), Some((version, value))) = (self.data.mode, self.data.read) else {
            self.data.due = true;
            return;
        };
        self.data.due = false;
        self.wrote = true;
        let (expected, value) = (mode.expected(version), value + 1);
        cx.event(EventKind::DataWriteSent { expected, value });
        self.data.pending = Some((expected, value));
        self.send_data(cx);
    }

    fn send_data(&mut self, cx: &mut Cx) {
        let (Some((_, node)), Some((version, data))) = (self.data.mode, self.data.pending) else {
            return;
        };
        match self.conn.request(
            ZkOp::SetData {
                node,
                version,
                data,
            },
            cx,
        ) {
            Ok(_) => self.data.in_flight = true,
            Err(NotSent::ConnectionLoss) => self.data.in_flight = false,
            Err(NotSent::SessionExpired) => {
                self.data.in_flight = false;
                self.conn.open_new_session(cx);
            }
        }
    }

    /// The connection is back, or a new session replaced the old: send what is still owed.
    pub(super) fn data_resume(&mut self, cx: &mut Cx) {
        if self.data.pending.is_some() && !self.data.in_flight {
            self.send_data(cx);
        }
    }

    /// The session expired with the write still owed: retry it on a new session.
    pub(super) fn data_expired(&mut self, cx: &mut Cx) {
        if self.data.pending.is_some() {
            self.data.in_flight = false;
            self.conn.open_new_session(cx);
        }
    }

    /// The write was lost with the connection: its outcome is unknown, and it goes again.
    pub(super) fn data_lost(&mut self, request: Request) -> bool {
        if request == Request::SetData && self.has_data() {
            self.data.in_flight = false;
            return true;
        }
        false
    }

    /// A reply about the data node; false if it was about something else.
    pub(super) fn data_reply(&mut self, request: Request, result: &ZkResult, cx: &mut Cx) -> bool {
        if !self.has_data() {
            return false;
        }
        match (request, result) {
            (Request::GetData, &ZkResult::Data { value, version }) => {
                self.data.read = Some((version, value));
                cx.event(EventKind::DataRead { version, value });
                if self.data.refused {
                    self.stop_after_refusal(cx);
                } else if self.data.due {
                    self.write_data(cx);
                }
            }
            (Request::SetData, ZkResult::Set { .. }) => {
                self.data.pending = None;
                self.data.in_flight = false;
                if self.step != Step::Holding {
                    // A holder that lost the lock only came back to finish this call.
                    self.conn.close(cx);
                }
            }
            (Request::SetData, ZkResult::BadVersion) => {
                self.data.pending = None;
                self.data.in_flight = false;
                self.data.refused = true;
                cx.event(EventKind::DataWriteRefused);
                self.read_data(cx);
            }
            (Request::SetData, _) => {
                self.data.pending = None;
                self.data.in_flight = false;
            }
            _ => return false,
        }
        true
    }

    /// Someone wrote since this client read: whatever it believed, it does not hold what it
    /// read any more. It stops: a holder releases, a client that had lost the lock goes.
    fn stop_after_refusal(&mut self, cx: &mut Cx) {
        if self.step == Step::Holding {
            cx.cancel(crate::engine::msg::Timer::ReleaseDue);
            self.release(cx);
        } else {
            self.conn.close(cx);
        }
    }
}
