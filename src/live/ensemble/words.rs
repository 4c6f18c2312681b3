//! What a live run on an ensemble says about it, in both languages.

use super::Ensemble;
use super::faults::EnsembleFault;
use crate::i18n::Lang;

/// The first line, printed before any server starts.
pub fn starting(n: u8, lang: Lang) -> String {
    match lang {
        Lang::Zh => format!("正在 127.0.0.1 上启动 {n} 台 ZooKeeper 服务器组成的集群……"),
        Lang::En => format!("Starting an ensemble of {n} ZooKeeper servers on 127.0.0.1..."),
    }
}

/// The line that says which servers run the story and how long they took to start.
pub fn server_line(e: &Ensemble, leader: Option<u8>, lang: Lang) -> String {
    let addrs: Vec<String> = e.servers.addrs().iter().map(|a| a.to_string()).collect();
    let addrs = addrs.join(", ");
    let n = e.servers.size();
    let secs = format!("{:.1}", e.started_in.as_secs_f64());
    let leader = leader.map_or_else(|| "?".to_string(), |l| l.to_string());
    match lang {
        Lang::Zh => format!(
            "ZooKeeper 集群：locklab 自己的 {n} 台服务器（{addrs}，选举与同步端口也都只在 127.0.0.1 上），{secs} 秒内启动并选出领导者：服务器 {leader}。"
        ),
        Lang::En => format!(
            "ZooKeeper ensemble: {n} servers of locklab's own ({addrs}, with their quorum and election ports on 127.0.0.1 too), started with server {leader} leading in {secs} s."
        ),
    }
}

/// What the comparison cannot hold: the model has a single server.
pub fn model_note(fault: Option<EnsembleFault>, lang: Lang) -> &'static str {
    match (fault, lang) {
        (Some(EnsembleFault::KillLeader { .. }), Lang::Zh) => {
            "模型不模拟集群：它只有一台永不出错的服务器，领导者被杀、随后的选举、客户端断开再改连另一台服务器，模型里都没有。所以上表比的是经历了这一切之后，持锁者、节点编号、唤醒和写入是否仍与模型一致；实况里断连与重连的事件、选举用去的时间是模型没有的。会话属于整个集群，新领导者按完整的超时重新计时，所以选举比会话超时短时，会话安然无恙；选举若更长，会话就会过期。"
        }
        (Some(EnsembleFault::KillLeader { .. }), Lang::En) => {
            "The model does not model an ensemble: it has one server that never fails, so the leader's death, the election that follows and the clients' disconnection and move to another server are not in it. The table compares what survives all that: holders, node numbers, wake-ups and writes. The live run's disconnections, reconnections and the time the election took have no counterpart in the model. Sessions belong to the ensemble, and a new leader starts every session's timeout afresh: an election shorter than the session timeout leaves the session intact, a longer one expires it."
        }
        (Some(EnsembleFault::CutServer { .. }), Lang::Zh) => {
            "模型不模拟集群：它只有一台服务器，客户端与服务之间只有一条网络。这里被切断的是客户端到其中一台服务器的网络，服务器自己仍在集群里；客户端读超时后改连另一台，会话还在。模型里的 A 没有断连，所以上表只比两边都有的事实；断连、重连的时刻是实况独有的。"
        }
        (Some(EnsembleFault::CutServer { .. }), Lang::En) => {
            "The model does not model an ensemble: it has one server and a single link between a client and the service. Here the clients' links to one server went silent while that server stayed in the ensemble; after its read timeout the client moved to another server with its session intact. The model's A is never disconnected, so the table compares only the facts both runs have; the disconnection and reconnection are the live run's alone."
        }
        (None, Lang::Zh) => {
            "模型不模拟集群：它把整个服务当作一台服务器。这次实况运行在多台服务器上，但没有服务器出故障，故事应与模型一致。"
        }
        (None, Lang::En) => {
            "The model does not model an ensemble: it treats the whole service as one server. This live run used several servers, none of which failed, so the story should be the model's."
        }
    }
}

/// Why an ensemble preset cannot run as asked.
pub fn needs_ensemble(preset: &str) -> String {
    format!(
        "`{preset}` needs an ensemble of locklab's own servers: leave out --zk and --port, and give --ensemble 3 or 5 (or leave it out for 3)"
    )
}
