//! The words for a live ensemble's events: servers killed or cut off, and the leader change.

use crate::engine::trace::ensemble::EnsembleEvent;

use super::super::super::Lang;

pub(super) fn describe(ev: &EnsembleEvent, lang: Lang) -> String {
    let zh = lang == Lang::Zh;
    let pick = |z: String, en: String| if zh { z } else { en };
    match *ev {
        EnsembleEvent::Leading { leader, servers } => pick(
            format!("{servers} 台服务器组成的集群正在服务，领导者是服务器 {leader}。"),
            format!("The ensemble of {servers} servers is serving, led by server {leader}."),
        ),
        EnsembleEvent::ServerKilled {
            server,
            was_leader: true,
        } => pick(
            format!(
                "领导者服务器 {server} 的进程被强行杀死（SIGKILL）。剩下的服务器失去领导者，停止服务并开始选举；连在它们上面的客户端也会断开。"
            ),
            format!(
                "The leader, server {server}, is killed (SIGKILL). The other servers lose their leader, stop serving and hold an election; their clients are disconnected too."
            ),
        ),
        EnsembleEvent::ServerKilled { server, .. } => pick(
            format!("跟随者服务器 {server} 的进程被强行杀死（SIGKILL），连在它上面的客户端断开。"),
            format!(
                "Server {server}, a follower, is killed (SIGKILL); its clients are disconnected."
            ),
        ),
        EnsembleEvent::ServerCut { server } => pick(
            format!(
                "所有客户端到服务器 {server} 的网络静默了；这台服务器自己仍留在集群里。连在它上面的客户端要等读超时才会发觉。"
            ),
            format!(
                "Every client's link to server {server} goes silent; the server itself stays in the ensemble. Its clients notice only after their read timeout."
            ),
        ),
        EnsembleEvent::ServerRestored { server } => pick(
            format!("客户端到服务器 {server} 的网络恢复。"),
            format!("The clients' links to server {server} are back."),
        ),
        EnsembleEvent::LeaderChanged { from, to } => pick(
            format!(
                "选举结束：服务器 {to} 成为新的领导者（原来是 {from}），集群恢复服务。会话由集群共同保存，客户端重连到任一台服务器都能接着用原来的会话。"
            ),
            format!(
                "The election is over: server {to} leads now (it was {from}) and the ensemble serves again. Sessions belong to the ensemble, so a client that reconnects to any server carries on with its session."
            ),
        ),
    }
}
