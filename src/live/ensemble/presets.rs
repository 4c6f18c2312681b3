//! The stories only an ensemble can tell: the lock held across a failover. They are A/B/C runs
//! whose model is the ordinary one (the model has a single service that never fails) with a
//! fault that only a live run on several servers can make.

use super::faults::EnsembleFault;
use crate::engine::params::AbcParams;
use crate::scenario::Text;

/// A live-only preset: the model's parameters, what it teaches, and the ensemble's fault.
#[derive(Debug, Clone)]
pub struct EnsemblePreset {
    pub name: &'static str,
    pub about: Text,
    pub params: AbcParams,
    pub fault: EnsembleFault,
}

/// The model's side of both stories: A holds long enough for the failover to fall inside its
/// hold, with a server that ticks every 0.5 s so a 4 s session is granted as asked. B and C
/// start 0.3 s apart rather than 0.1 s: a client's first session on a newly elected ensemble
/// can take longer than 0.1 s, and B's node must not come before A's.
fn held_across(hold_ms: u64, write_after_ms: u64) -> AbcParams {
    AbcParams {
        hold_ms,
        write_after_ms,
        start_gap_ms: 300,
        tick_ms: 500,
        duration_ms: 3 * hold_ms + 1_000,
        ..AbcParams::default()
    }
}

/// Every ensemble preset.
pub fn all() -> Vec<EnsemblePreset> {
    vec![
        EnsemblePreset {
            name: "ensemble-leader-killed",
            about: Text {
                zh: "三台服务器的集群，A 以节点 17 持锁。1 秒时领导者被强行杀死：剩下两台仍是多数，选出新的领导者；这期间所有客户端都断开了。A 挂起副作用，重连到还活着的服务器，会话仍然有效，确认节点 17 还排第一，继续持锁并带令牌写入。模型只有一台永不出错的服务器，模型里的 A 什么也没经历。".into(),
                en: "A three-server ensemble, and A holds the lock with node 17. At 1 s the leader is killed: the two left are still a majority and elect a new leader, while every client is disconnected. A suspends its side effects, reconnects to a live server with its session still valid, finds 17 still first, keeps the lock and writes with its token. The model has one server that never fails: its A goes through none of this.".into(),
            },
            params: held_across(3_000, 2_500),
            fault: EnsembleFault::KillLeader { at_ms: 1_000 },
        },
        EnsemblePreset {
            name: "ensemble-server-cut",
            about: Text {
                zh: "三台服务器的集群，A 以节点 17 持锁。1 秒时，所有客户端到 A 所连那台服务器的网络静默 4 秒，那台服务器自己仍在集群里。A 要等到读超时、久久听不到服务器的回音才发觉断连，挂起副作用，改连另一台服务器；会话还没过期，它确认节点仍排第一，继续持锁。".into(),
                en: "A three-server ensemble, and A holds the lock with node 17. At 1 s every client's link to the server A is connected to goes silent for 4 s, while that server stays in the ensemble. A notices only once its read timeout has passed without a word from the server, suspends its side effects and moves to another server; its session has not expired, so it finds its node still first and keeps the lock.".into(),
            },
            params: held_across(4_500, 4_000),
            fault: EnsembleFault::CutServer {
                at_ms: 1_000,
                len_ms: 4_000,
            },
        },
    ]
}

/// The ensemble preset of this name.
pub fn find(name: &str) -> Option<EnsemblePreset> {
    all().into_iter().find(|p| p.name == name)
}
