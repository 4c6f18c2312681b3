//! A ZooKeeper ensemble's own events in a live run: which server was killed or cut off and
//! which one leads. The model has one service that never fails, so only a live run on several
//! servers records these; they belong to the service's lane.

use serde::Serialize;

/// One server of the ensemble, by its `myid` (1 to 5).
pub type ServerId = u8;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(tag = "event", rename_all = "snake_case")]
pub enum EnsembleEvent {
    /// The ensemble is serving, with this server as its leader.
    Leading { leader: ServerId, servers: u8 },
    /// The server's process was killed (SIGKILL); `was_leader`: it led the ensemble.
    ServerKilled { server: ServerId, was_leader: bool },
    /// Every client's link to this server goes silent; the server stays in the quorum.
    ServerCut { server: ServerId },
    /// The clients' links to this server carry traffic again.
    ServerRestored { server: ServerId },
    /// After an election the ensemble serves again, led by `to` (`from`: the previous leader).
    LeaderChanged { from: ServerId, to: ServerId },
}
