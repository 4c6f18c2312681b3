//! A registry that grants each Snowflake worker id to one process at a time, as an exclusive
//! node in a coordination service would. The same process asking again (after a restart) gets
//! its id back; another process is told who holds it.

use crate::engine::msg::ActorMsg;
use crate::engine::trace::EventKind;
use crate::engine::trace::snowflake::IdEvent;
use crate::engine::world::{ActorId, Cx};

#[derive(Debug, Clone, PartialEq, Eq, Hash, Default)]
pub struct WorkerRegistry {
    /// (worker id, holder), in the order granted.
    pub holders: Vec<(u32, ActorId)>,
}

impl WorkerRegistry {
    pub fn on_msg(&mut self, from: ActorId, msg: ActorMsg, cx: &mut Cx) {
        let ActorMsg::ClaimWorker { worker, claim } = msg else {
            return;
        };
        let holder = match self.holders.iter().find(|(w, _)| *w == worker) {
            Some(&(_, h)) => h,
            None => {
                self.holders.push((worker, from));
                from
            }
        };
        let granted = holder == from;
        cx.event(EventKind::Snowflake(if granted {
            IdEvent::WorkerGranted { worker, to: from }
        } else {
            IdEvent::WorkerDenied {
                worker,
                to: from,
                holder,
            }
        }));
        cx.send(
            from,
            ActorMsg::WorkerClaimed {
                worker,
                claim,
                granted,
            },
        );
    }
}
