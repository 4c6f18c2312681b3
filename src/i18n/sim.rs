//! What a run did, in words: lane states, verdicts, invariants and every event.
//!
//! The trace hands over typed facts; this module only puts them into sentences. It looks up
//! names (an actor's, a node's sequence number) and computes nothing.

use crate::engine::time::fmt_secs;
use crate::engine::trace::event::Request;
use crate::engine::trace::{Event, EventKind, Family, SpanState, Trace, Verdict};
use crate::engine::zk::tree::{NodeId, Watched};

use super::Lang;

/// The name of a lane state, without its details, for legends.
pub fn state_name(state: SpanState, lang: Lang) -> &'static str {
    let (zh, en) = match state {
        SpanState::Idle => ("空闲", "idle"),
        SpanState::Creating => ("创建中", "creating"),
        SpanState::OutcomeUnknown => ("结果未知", "outcome unknown"),
        SpanState::Reading => ("读取中", "reading"),
        SpanState::Checking { .. } => ("检查前驱", "checking"),
        SpanState::Waiting { .. } => ("等待", "waiting"),
        SpanState::Holding { .. } => ("持锁", "holding"),
        SpanState::HoldingRead { .. } => ("持读锁", "holding to read"),
        SpanState::Suspended { .. } => ("挂起", "suspended"),
        SpanState::Reconnecting => ("重连中", "reconnecting"),
        SpanState::Frozen {
            believes_holding: true,
        } => ("凝固，自认持锁", "frozen, believes it holds"),
        SpanState::Frozen { .. } => ("凝固", "frozen"),
        SpanState::Lost => ("已知失锁", "knows it lost"),
        SpanState::Released => ("已释放", "released"),
        SpanState::Stuck { .. } => ("卡死", "stuck"),
        SpanState::Crashed => ("崩溃", "crashed"),
        SpanState::Retrying => ("反复请求", "retrying"),
        SpanState::Queue { .. } => ("锁目录", "lock queue"),
        SpanState::Leased { .. } => ("租约有效", "lease live"),
        SpanState::Free => ("无人持锁", "free"),
        SpanState::Empty => ("无值", "empty"),
        SpanState::Value { .. } => ("有值", "value"),
        SpanState::Redlock(s) => return super::redlock::state_name(s, lang),
        SpanState::Snowflake(s) => return super::snowflake::state_name(s, lang),
    };
    lang.pick(zh, en)
}

/// What a watcher watches, in a few words: a node's number or the whole directory.
pub fn watched(w: Watched, trace: &Trace, lang: Lang) -> String {
    match w {
        Watched::Node(n) => trace.seq(n),
        Watched::Children(_) => lang.pick("子节点列表", "the children").into(),
    }
}

/// A lane state with its details, as a span label: `holding #104`, `waiting → 17`.
pub fn state_label(state: SpanState, trace: &Trace, lang: Lang) -> String {
    let zh = lang == Lang::Zh;
    match state {
        SpanState::Holding { token } => {
            if zh {
                format!("持锁 #{token}")
            } else {
                format!("holding #{token}")
            }
        }
        SpanState::HoldingRead { token } => {
            if zh {
                format!("持读锁 #{token}")
            } else {
                format!("reading, #{token}")
            }
        }
        SpanState::Suspended { token } => {
            if zh {
                format!("挂起 #{token}")
            } else {
                format!("suspended #{token}")
            }
        }
        SpanState::Waiting { watching } => {
            format!(
                "{} → {}",
                state_name(state, lang),
                watched(watching, trace, lang)
            )
        }
        SpanState::Stuck { watching } => {
            format!(
                "{} → {}",
                state_name(state, lang),
                watched(watching, trace, lang)
            )
        }
        SpanState::Checking { node } => {
            if zh {
                format!("检查 {}", trace.seq(node))
            } else {
                format!("checking {}", trace.seq(node))
            }
        }
        SpanState::Queue { holder, waiting } => match holder {
            Some(h) => {
                if zh {
                    format!("{} 持有，{waiting} 个排队", trace.name(h))
                } else {
                    format!("{} holds, {waiting} queued", trace.name(h))
                }
            }
            None => lang.pick("空", "empty").into(),
        },
        SpanState::Leased { holder, token } => {
            if zh {
                format!("租约：{} #{token}", trace.name(holder))
            } else {
                format!("lease: {} #{token}", trace.name(holder))
            }
        }
        // Redlock's writers have no token to show.
        SpanState::Value { writer, token: 0 } => trace.name(writer).into(),
        SpanState::Value { writer, token } => format!("{} #{token}", trace.name(writer)),
        SpanState::Redlock(s) => super::redlock::state_label(s, trace, lang),
        SpanState::Snowflake(s) => super::snowflake::state_label(s, lang),
        other => state_name(other, lang).into(),
    }
}

/// The verdict of a frozen-holder run in plain words.
pub fn verdict_text(v: Verdict, lang: Lang) -> &'static str {
    match (v, lang) {
        (Verdict::NoIncident, Lang::Zh) => {
            "无事发生：A 的写入在租约有效时到达，或 A 从未失去租约。"
        }
        (Verdict::NoIncident, Lang::En) => {
            "No incident: A's write arrived while its lease was live, or A never lost it."
        }
        (Verdict::HolderStopped, Lang::Zh) => "持锁者自停：A 得知租约已失，放弃了写入。",
        (Verdict::HolderStopped, Lang::En) => {
            "The holder stopped: A learned its lease was lost and dropped its write."
        }
        (Verdict::StaleWriteRejected, Lang::Zh) => {
            "陈旧写入被拒：资源看到过更大的令牌，拒绝了 A 的旧令牌。"
        }
        (Verdict::StaleWriteRejected, Lang::En) => {
            "Stale write rejected: the resource had seen a larger token and refused A's old one."
        }
        (Verdict::StaleWriteAccepted, Lang::Zh) => {
            "陈旧写入被接受：它赶在 B 写入之前到达。栅栏令牌只保证顺序，不保证互斥。"
        }
        (Verdict::StaleWriteAccepted, Lang::En) => {
            "Stale write accepted: it arrived before B had written. Fencing gives ordering, not exclusion."
        }
        (Verdict::Corruption, Lang::Zh) => "数据损坏：A 的陈旧写入覆盖了 B 已被接受的写入。",
        (Verdict::Corruption, Lang::En) => {
            "Corruption: A's stale write overwrote B's accepted write."
        }
        (Verdict::Unresolved, Lang::Zh) => {
            "未决：运行结束时 A 的写入还没到达，结局要看它到达时资源的规则。"
        }
        (Verdict::Unresolved, Lang::En) => {
            "Unresolved: the run ended before A's write arrived; how it ends depends on the resource's rule when it lands."
        }
    }
}

/// A short name for a verdict.
pub fn verdict_short(v: Verdict, lang: Lang) -> &'static str {
    let (zh, en) = match v {
        Verdict::NoIncident => ("无事发生", "no incident"),
        Verdict::HolderStopped => ("持锁者自停", "holder stopped"),
        Verdict::StaleWriteRejected => ("陈旧写入被拒", "stale write rejected"),
        Verdict::StaleWriteAccepted => ("陈旧写入被接受", "stale write accepted"),
        Verdict::Corruption => ("数据损坏", "corruption"),
        Verdict::Unresolved => ("未决", "unresolved"),
    };
    lang.pick(zh, en)
}

/// The name of a check (an invariant badge or a "sometimes" check).
pub fn invariant_label(name: &str, lang: Lang) -> &'static str {
    use crate::engine::trace::invariant::*;
    let (zh, en) = match name {
        ONE_HOLDER => ("单一持锁者", "one holder"),
        TOKENS_NON_DECREASING => ("令牌不回退", "tokens non-decreasing"),
        NO_ORPHAN_NODE => ("无孤儿节点", "no orphan node"),
        NOBODY_STUCK => ("无人卡死", "nobody stuck"),
        HOLDER_RELEASED => ("有持锁者释放", "a holder released"),
        WAITER_WOKEN => ("有等待者被唤醒", "a waiter was woken"),
        STALE_WRITE_ARRIVED => ("有陈旧写入到达", "a stale write arrived"),
        STALE_WRITE_REJECTED => ("有陈旧写入被拒", "a stale write was refused"),
        SUCCESSOR_GRANTED => ("继任者拿到锁", "the successor got the lock"),
        EVERYONE_HELD => ("每个客户端都持过锁", "every client held the lock"),
        WRITER_ALONE => ("写者独占", "a writer holds alone"),
        WITHIN_PERMITS => ("不超过许可数", "within the permits"),
        WRITER_HELD => ("写者拿到过锁", "a writer held"),
        READERS_SHARED => ("读者共享过锁", "readers shared"),
        HOLDER_HAS_MAJORITY => ("持锁者有过半节点", "the holder has a majority"),
        NO_STALE_WRITE_ACCEPTED => ("没有陈旧写入被接受", "no stale write accepted"),
        RELEASES_OWN_KEY_ONLY => ("释放只删自己的键", "releases delete only their own key"),
        MAJORITY_ACQUIRED => ("有客户端拿到过半", "a client won a majority"),
        UNIQUE_IDS => ("ID 不重复", "IDs are unique"),
        IDS_INCREASE => ("每个生成器的 ID 递增", "each generator's IDs increase"),
        ID_ISSUED => ("发出过 ID", "an ID was issued"),
        REQUEST_WAITED => ("有请求等待过", "a request waited"),
        _ => ("不变量", "invariant"),
    };
    lang.pick(zh, en)
}

fn list(items: &[String], lang: Lang) -> String {
    if items.is_empty() {
        return lang.pick("无人", "nobody").to_string();
    }
    items.join(lang.pick("、", ", "))
}

fn request(r: Request, lang: Lang) -> &'static str {
    let (zh, en) = match r {
        Request::Create => ("创建", "create"),
        Request::GetChildren => ("读取子节点", "read of the children"),
        Request::Exists => ("exists", "exists"),
        Request::Delete => ("删除", "delete"),
        Request::SetData => ("setData", "setData"),
        Request::Close => ("关闭会话", "close"),
    };
    lang.pick(zh, en)
}

fn clients(ids: &[crate::engine::world::ActorId], trace: &Trace) -> Vec<String> {
    ids.iter().map(|a| trace.name(*a).to_string()).collect()
}

fn seqs(nodes: &[NodeId], trace: &Trace) -> Vec<String> {
    nodes.iter().map(|n| trace.seq(*n)).collect()
}

/// One or two plain sentences explaining an event.
pub fn describe(e: &Event, trace: &Trace, lang: Lang) -> String {
    let who = trace.name(e.actor);
    let zh = lang == Lang::Zh;
    let pick = |z: String, en: String| if zh { z } else { en };
    use EventKind::*;
    match &e.kind {
        Froze => pick(
            format!("{who} 进入全停顿（GC）：什么也不做，也不发任何消息。"),
            format!("{who} freezes in a stop-the-world pause: it does nothing and sends nothing."),
        ),
        Woke => pick(
            format!("{who} 从停顿中醒来，接着停顿前的代码往下执行。"),
            format!("{who} wakes and carries on exactly where it stopped."),
        ),
        LinkCut => pick(
            format!(
                "{who} 与协调服务之间的网络静默了：双方都收不到对方的消息，而 {who} 还不知道。"
            ),
            format!(
                "The network between {who} and the service goes silent; {who} does not know yet."
            ),
        ),
        LinkRestored => pick(
            format!("{who} 与服务之间的网络恢复，积压的消息按原顺序送达。"),
            format!(
                "The network between {who} and the service is back; what was held up arrives in order."
            ),
        ),
        ConnectionReset => pick(
            format!("{who} 的连接断开，两端立刻察觉；正在路上的消息全部丢失。"),
            format!(
                "{who}'s connection breaks and both ends notice at once; whatever was in flight is lost."
            ),
        ),
        Crashed if matches!(trace.family, Family::Redlock | Family::Snowflake) => pick(
            format!("{who} 崩溃：进程没了，内存里的东西全部丢失。"),
            format!(
                "{who} crashes: the process is gone, and everything it held in memory with it."
            ),
        ),
        Crashed => pick(
            format!("{who} 崩溃。它的会话要等服务超时后才会过期。"),
            format!("{who} crashes. Its session only ends once the service's timeout passes."),
        ),
        Restarted => pick(
            format!("{who} 重新启动，只剩写进磁盘的东西。"),
            format!("{who} starts again, with only what it had written to disk."),
        ),
        Redlock(ev) => super::redlock::describe(ev, e, trace, lang),
        Snowflake(ev) => super::snowflake::describe(ev, e, trace, lang),
        SessionOpened {
            session,
            requested_ms,
            granted_ms,
        } => {
            let (r, g) = (fmt_secs(*requested_ms), fmt_secs(*granted_ms));
            match (requested_ms == granted_ms, zh) {
                (true, true) => format!("{who} 建立会话 #{}，超时 {g} 秒。", session.0),
                (true, false) => {
                    format!("{who} opens session #{} with a {g} s timeout.", session.0)
                }
                (false, true) => format!(
                    "{who} 建立会话 #{}，请求超时 {r} 秒，服务按自己的 tick 只给 {g} 秒。",
                    session.0
                ),
                (false, false) => format!(
                    "{who} opens session #{} asking for {r} s; the server's tick allows {g} s.",
                    session.0
                ),
            }
        }
        NoticedDisconnect { silent_ms } => {
            let s = fmt_secs(*silent_ms);
            pick(
                format!("{who} 已经 {s} 秒没收到服务的任何消息，超过读超时，认定连接已断。"),
                format!(
                    "{who} has heard nothing for {s} s, past its read timeout, and declares the connection lost."
                ),
            )
        }
        ConnectionLoss { request: r } => {
            let r = request(*r, lang);
            pick(
                format!("{who} 的{r}请求以连接丢失告终：服务可能执行了，也可能没有。"),
                format!(
                    "{who}'s {r} fails with a connection loss: the service may or may not have applied it."
                ),
            )
        }
        Reconnecting => pick(
            format!("{who} 尝试重新连接服务。"),
            format!("{who} tries to reconnect."),
        ),
        Reconnected => pick(
            format!("{who} 重新连上，会话仍然有效，监听也重新挂上。断连不等于会话过期。"),
            format!(
                "{who} reconnects; its session is still valid and its watches are re-armed. Disconnected is not expired."
            ),
        ),
        LearnedSessionExpired => pick(
            format!("{who} 得知会话已过期：它的节点早就没了，不能再做任何受锁保护的事。"),
            format!(
                "{who} learns its session has expired: its node is long gone and it must not act under the lock."
            ),
        ),
        CreateSent { guid } => pick(
            format!("{who} 请求创建临时顺序节点，名字里带上本次请求的 GUID {guid:08x}。"),
            format!(
                "{who} asks to create an ephemeral sequential node named with this request's GUID {guid:08x}."
            ),
        ),
        GotNode { node } => {
            let n = trace.seq(*node);
            pick(
                format!("{who} 收到响应：它的节点是 {n}。"),
                format!("{who} gets the reply: its node is {n}."),
            )
        }
        CreateOutcomeUnknown => pick(
            format!("{who} 不知道创建是否成功：结果未知不等于失败。"),
            format!(
                "{who} cannot tell whether its create happened: an unknown outcome is not a failure."
            ),
        ),
        RecoveredNode { node } => {
            let n = trace.seq(*node);
            pick(
                format!("{who} 列出子节点，凭 GUID 认出 {n} 是自己的节点。"),
                format!("{who} lists the children and recognises {n} as its own by the GUID."),
            )
        }
        DuplicateDeleted { node } => {
            let n = trace.seq(*node);
            pick(
                format!("{who} 删除同一请求多出来的节点 {n}。"),
                format!("{who} deletes {n}, an extra node from the same request."),
            )
        }
        ChildrenRead { children, mine } => {
            let kids = list(&seqs(children, trace), lang);
            let me = mine.map(|n| trace.seq(n)).unwrap_or_default();
            pick(
                format!("{who} 读取子节点：{kids}（自己是 {me}）。"),
                format!("{who} reads the children: {kids} (its own is {me})."),
            )
        }
        ExistsChecked { node, exists } => {
            let n = trace.seq(*node);
            match (exists, zh) {
                (true, true) => format!("{who} 用 exists 检查 {n}，同时设置监听：它还在。"),
                (true, false) => format!(
                    "{who} checks {n} with exists, setting a watch in the same call: it is still there."
                ),
                (false, true) => format!("{who} 用 exists 检查 {n}：它已经不在了。"),
                (false, false) => format!("{who} checks {n} with exists: it is already gone."),
            }
        }
        WatchChildren => pick(
            format!("{who} 监听整个锁目录的子节点：任何一个子节点增删都会唤醒它。"),
            format!(
                "{who} watches the lock directory's children: any child created or deleted wakes it."
            ),
        ),
        Waiting { on } => {
            let n = watched(*on, trace, lang);
            pick(
                format!("{who} 等待 {n} 被删除的通知。"),
                format!("{who} waits to be told that {n} is deleted."),
            )
        }
        Notified { target, .. } => {
            let n = watched(*target, trace, lang);
            pick(
                format!("{who} 收到关于 {n} 的通知。"),
                format!("{who} is notified about {n}."),
            )
        }
        WokeUp { .. } => pick(
            format!("{who} 被唤醒。唤醒不等于拿到锁：它必须重新读取。"),
            format!("{who} wakes up. A wake-up is not a grant: it must read again."),
        ),
        Acquired { node, token } => {
            let n = trace.seq(*node);
            pick(
                format!("{who} 的节点 {n} 排在最前，拿到锁，令牌 {token}。"),
                format!("{who}'s node {n} is first: it holds the lock, with token {token}."),
            )
        }
        Admitted { node, token, how } => {
            let n = trace.seq(*node);
            match how {
                crate::engine::trace::event::Admission::Read { skipped: None } => pick(
                    format!("{who} 的节点 {n} 前面没有写节点：它开始读，令牌 {token}。"),
                    format!(
                        "No write node comes before {who}'s node {n}: it reads, with token {token}."
                    ),
                ),
                crate::engine::trace::event::Admission::Read { skipped: Some(w) } => {
                    let w = trace.seq(*w);
                    pick(
                        format!(
                            "{who} 只看有没有写者正在持锁，于是越过仍在等待的写节点 {w}，开始读，令牌 {token}。"
                        ),
                        format!(
                            "{who} only checks whether a writer holds right now, so it goes past writer {w}, still waiting, and reads, with token {token}."
                        ),
                    )
                }
                crate::engine::trace::event::Admission::Permit { place, permits } => pick(
                    format!(
                        "{who} 的节点 {n} 排在第 {place} 位，在前 {permits} 个之内：它拿到一个许可，令牌 {token}。"
                    ),
                    format!(
                        "{who}'s node {n} is number {place}, within the first {permits}: it holds a permit, with token {token}."
                    ),
                ),
            }
        }
        Suspended => pick(
            format!("{who} 知道自己断连了，暂停所有副作用，等确认会话还在再说。"),
            format!(
                "{who} knows it is disconnected and holds back its side effects until it can confirm its session."
            ),
        ),
        Revalidated { still_first } => match (still_first, zh) {
            (true, true) => format!("{who} 重新确认：节点还在且排第一，继续持锁。"),
            (true, false) => format!(
                "{who} revalidates: its node still exists and is first, so it keeps the lock."
            ),
            (false, true) => format!("{who} 重新确认：节点不再排第一。"),
            (false, false) => format!("{who} revalidates: its node is no longer first."),
        },
        ReleaseSent { node } => {
            let n = trace.seq(*node);
            pick(
                format!("{who} 释放锁：删除 {n}，关闭会话。"),
                format!("{who} releases the lock: it deletes {n} and closes its session."),
            )
        }
        ReleasedEarly => pick(
            format!("时机不巧：{who} 恰好在此刻完成工作并释放。"),
            format!("Unlucky timing: {who} finishes its work and releases right now."),
        ),
        Stuck { on } => {
            let n = watched(*on, trace, lang);
            pick(
                format!("{who} 卡死：关于 {n} 的通知再也不会来了。"),
                format!("{who} is stuck: no notification about {n} can ever arrive."),
            )
        }
        Unstuck => pick(
            format!("{who} 等待的事又有了可能，不再卡死。"),
            format!("What {who} waits for can happen again: it is no longer stuck."),
        ),
        NodeCreated { node, owner } => {
            let n = trace.seq(*node);
            let o = trace.name(*owner);
            pick(
                format!("服务为 {o} 创建节点 {n}。"),
                format!("The service creates node {n} for {o}."),
            )
        }
        NodeDeleted { node, notified } => {
            let n = trace.seq(*node);
            let names = clients(notified, trace);
            let count = names.len();
            let who_list = list(&names, lang);
            match (count, zh) {
                (0, true) => format!("节点 {n} 被删除，没有人在监听它。"),
                (0, false) => format!("Node {n} is deleted; nobody is watching it."),
                (_, true) => format!("节点 {n} 被删除，通知了 {who_list}。"),
                (1, false) => format!("Node {n} is deleted; one client is notified: {who_list}."),
                (_, false) => {
                    format!("Node {n} is deleted; {count} clients are notified: {who_list}.")
                }
            }
        }
        SessionExpired {
            session,
            owner,
            nodes_deleted,
        } => {
            let nodes = list(&seqs(nodes_deleted, trace), lang);
            let o = trace.name(*owner);
            pick(
                format!(
                    "服务太久没听到 {o} 的消息，会话 #{} 过期，它的临时节点随之删除：{nodes}。",
                    session.0
                ),
                format!(
                    "The service has not heard from {o} for too long: session #{} expires and its ephemeral nodes go with it: {nodes}.",
                    session.0
                ),
            )
        }
        PermitsLowered { permits } => pick(
            format!(
                "许可数改成了 {permits}：已经在里面的持有者不会被请出去，之后来的按新数字排队。"
            ),
            format!(
                "The permit count is changed to {permits}: holders already inside stay, and those who come later count with the new number."
            ),
        ),
        SessionClosed {
            session,
            nodes_deleted,
        } => {
            if nodes_deleted.is_empty() {
                pick(
                    format!("会话 #{} 关闭。", session.0),
                    format!("Session #{} is closed.", session.0),
                )
            } else {
                let nodes = list(&seqs(nodes_deleted, trace), lang);
                pick(
                    format!(
                        "会话 #{} 关闭，它剩下的临时节点也被删除：{nodes}。",
                        session.0
                    ),
                    format!(
                        "Session #{} is closed, and the ephemeral nodes it still had go with it: {nodes}.",
                        session.0
                    ),
                )
            }
        }
        LeaseGranted {
            holder,
            token,
            deadline_ms,
        } => {
            let h = trace.name(*holder);
            match deadline_ms {
                Some(d) => {
                    let d = fmt_secs(*d);
                    pick(
                        format!("服务把锁授予 {h}，栅栏令牌 {token}，租约截止于 {d} 秒。"),
                        format!(
                            "The service grants the lock to {h} with fencing token {token}; the lease runs until {d} s."
                        ),
                    )
                }
                None => pick(
                    format!("服务把锁授予 {h}，栅栏令牌 {token}；{h} 一直续约到运行结束。"),
                    format!(
                        "The service grants the lock to {h} with fencing token {token}; {h} keeps it to the end of the run."
                    ),
                ),
            }
        }
        LeaseReleaseSent => pick(
            format!("{who} 完成工作，释放锁。"),
            format!("{who} finishes its work and releases the lock."),
        ),
        KeepaliveSent { merged } if *merged > 1 => pick(
            format!("{who} 醒来，把停顿期间错过的 {merged} 次续约合并成一次发出。"),
            format!("{who} wakes and sends the {merged} keepalives it missed while frozen as one."),
        ),
        KeepaliveSent { .. } => pick(
            format!("{who} 发出续约。"),
            format!("{who} sends a keepalive."),
        ),
        KeepaliveRenewed { deadline_ms } => {
            let d = fmt_secs(*deadline_ms);
            pick(
                format!("续约在截止前到达，租约延长到 {d} 秒。"),
                format!(
                    "The keepalive arrives before the deadline: the lease now runs until {d} s."
                ),
            )
        }
        KeepaliveRefused => pick(
            "续约到达时租约已经过期，服务拒绝续约。".into(),
            "The keepalive arrives after the lease expired; the service refuses it.".into(),
        ),
        LeaseExpired { holder } => {
            let h = trace.name(*holder);
            pick(
                format!("{h} 的租约到期，锁从此刻起空闲。{h} 自己并不知道。"),
                format!(
                    "{h}'s lease expires and the lock is free from this instant. {h} does not know."
                ),
            )
        }
        LearnedLeaseLost => pick(
            format!("{who} 收到拒绝，这才知道自己的租约已经没了。"),
            format!("{who} receives the refusal and only now learns its lease is gone."),
        ),
        AcquireRequested => pick(
            format!("{who} 请求获取锁。"),
            format!("{who} asks for the lock."),
        ),
        AcquireRefused { holder } => {
            let h = trace.name(*holder);
            pick(
                format!("锁仍被 {h} 持有，请求被拒绝。"),
                format!("The lock is still held by {h}; the request is refused."),
            )
        }
        LearnedGrant { token } => pick(
            format!("{who} 得知自己拿到了锁，令牌 {token}。"),
            format!("{who} learns it holds the lock, with token {token}."),
        ),
        Released { holder } => {
            let h = trace.name(*holder);
            pick(
                format!("服务收到 {h} 的释放，锁空闲。"),
                format!("The service receives {h}'s release; the lock is free."),
            )
        }
        ReleaseIgnored => pick(
            "释放到达时这把锁早已不属于发送者，服务忽略它。".into(),
            "The release arrives for a lock the sender no longer owns; the service ignores it."
                .into(),
        ),
        // Redlock gives its holders no token: there is nothing to send or to check.
        WriteSent { token: 0 } if trace.family == Family::Redlock => pick(
            format!("{who} 向资源写入；它没有栅栏令牌可带。"),
            format!("{who} writes to the resource; it has no fencing token to send."),
        ),
        WriteArrived {
            writer,
            token: 0,
            fencing: false,
            ..
        } if trace.family == Family::Redlock => {
            let w = trace.name(*writer);
            pick(
                format!("{w} 的写入到达；资源没有令牌可查，照单全收。"),
                format!("{w}'s write arrives; the resource has no token to check and takes it."),
            )
        }
        WriteSent { token } => pick(
            format!("{who} 向资源写入，带令牌 {token}。"),
            format!("{who} writes to the resource with token {token}."),
        ),
        WriteAbandoned => pick(
            format!("{who} 已知失锁，放弃写入。"),
            format!("{who} knows it lost the lock and abandons its write."),
        ),
        WriteDeferred => pick(
            format!("{who} 处于挂起状态，推迟写入。"),
            format!("{who} is suspended and holds its write back."),
        ),
        WriteArrived {
            writer,
            token,
            accepted,
            last_seen_before,
            fencing,
        } => {
            let w = trace.name(*writer);
            match (accepted, fencing, zh) {
                (true, true, true) => format!(
                    "{w} 的写入（令牌 {token}）到达；资源见过的最大令牌是 {last_seen_before}，{token} ≥ {last_seen_before}，接受。"
                ),
                (true, true, false) => format!(
                    "{w}'s write (token {token}) arrives; the largest token seen is {last_seen_before}, and {token} >= {last_seen_before}, so it is accepted."
                ),
                (false, _, true) => format!(
                    "{w} 的写入（令牌 {token}）到达；资源见过的最大令牌是 {last_seen_before}，{token} < {last_seen_before}，拒绝。"
                ),
                (false, _, false) => format!(
                    "{w}'s write (token {token}) arrives; the largest token seen is {last_seen_before}, and {token} < {last_seen_before}, so it is refused."
                ),
                (true, false, true) => {
                    format!("{w} 的写入（令牌 {token}）到达；资源不检查令牌，照单全收。")
                }
                (true, false, false) => format!(
                    "{w}'s write (token {token}) arrives; the resource checks no token and takes it."
                ),
            }
        }
        ReleaseRound {
            release,
            woken,
            winner,
            wasted,
            not_notified,
        } => pick(
            format!(
                "第 {release} 次释放：唤醒 {woken} 个，第 {winner} 位拿到锁，{wasted} 次无效唤醒，{not_notified} 个未被通知。"
            ),
            format!(
                "Release {release}: {woken} woken, position {winner} takes the lock, {wasted} wasted wake-ups, {not_notified} not notified."
            ),
        ),
        RunEnded => pick("运行结束。".into(), "The run ends.".into()),
    }
}

/// The label of a metric: its JSON key in English, a phrase in Chinese.
pub fn metric_label(key: &str, lang: Lang) -> &str {
    if lang == Lang::En {
        return key;
    }
    match key {
        "lease_expiry" => "租约过期",
        "successor_acquire" => "继任者拿到锁",
        "holder_write_arrival" => "A 的写入到达",
        "holder_write_accepted" => "A 的写入",
        "final_value" => "最终取值",
        "last_seen_token" => "见过的最大令牌",
        "handover_delay" => "交接延迟",
        "danger_window" => "危险窗口",
        "verdict" => "结论",
        "wakeups_per_release" => "每次释放唤醒",
        "grant_order" => "授予顺序",
        "max_concurrent_readers" => "最多同时读者",
        "writer_wait_ms" => "写者最长等待",
        "starved_writers" => "饿死的写者",
        "max_holders" => "最多同时持锁",
        "stuck_clients" => "卡死的客户端",
        "duplicate_nodes" => "重复节点",
        "stale_writes_accepted" => "被接受的陈旧写入",
        "stale_writes_rejected" => "被拒的陈旧写入",
        "violations" => "被违反的不变量",
        "total_notifications" => "通知总数",
        "wasted_wakeups" => "无效唤醒",
        "total_time_ms" => "总耗时",
        "releases" => "释放次数",
        "invariants" => "不变量",
        "exercised" => "运行中出现过",
        "validity_ms" => "有效时间",
        "max_holders_nodes_view" => "节点视角最多持锁",
        "two_holders_ms" => "两人同时持锁时长",
        "foreign_deletes" => "删掉别人的锁",
        "failed_attempts" => "失败的加锁",
        "acquisitions" => "成功的加锁",
        "ids_issued" => "发出的 ID",
        "duplicate_ids" => "重复 ID",
        "max_wait_ms" => "最长等待",
        "waited" => "等过的请求",
        "refused" => "被拒的请求",
        "pending_at_end" => "结束时仍在等",
        "layout" => "位布局",
        "collisions" => "碰撞",
        other => other,
    }
}

fn secs(v: f64) -> String {
    fmt_secs((v * 1000.0).round() as u64)
}

/// The danger window with its formula filled in from the engine's numbers:
/// `max(0, 38 - 19) = 19 s`, or why there is none.
pub fn danger_formula(m: &crate::engine::trace::FrozenMetrics, lang: Lang) -> String {
    match (m.holder_write_arrival, m.lease_expiry) {
        (Some(w), Some(e)) => format!(
            "max(0, {} - {}) = {} {}",
            secs(w),
            secs(e),
            secs(m.danger_window),
            s(lang)
        ),
        _ => format!(
            "0 {} ({})",
            s(lang),
            lang.pick("缺少写入或过期", "no write or no expiry")
        ),
    }
}

/// The handover delay with its formula filled in: `19 - 19 = 0 s`, or why there is none.
pub fn handover_formula(m: &crate::engine::trace::FrozenMetrics, lang: Lang) -> String {
    match (m.successor_acquire, m.lease_expiry, m.handover_delay) {
        (Some(a), Some(e), Some(d)) => {
            format!("{} - {} = {} {}", secs(a), secs(e), secs(d), s(lang))
        }
        _ => lang
            .pick("不适用（租约没有过期）", "n/a (the lease never expired)")
            .into(),
    }
}

/// An instant of a run that lasts only milliseconds (Snowflake's), as `5 ms`; `None` for
/// runs told in seconds.
pub fn short_instant(trace: &Trace, t: crate::engine::Millis, lang: Lang) -> Option<String> {
    (trace.end_ms < crate::export::text::SHORT_RUN_MS)
        .then(|| format!("{t} {}", lang.pick("毫秒", "ms")))
}

/// The unit of seconds in this language.
pub fn s(lang: Lang) -> &'static str {
    lang.pick("秒", "s")
}

/// A one-line description of a run's parameters, in words.
pub fn params_line(params: &crate::engine::params::Params, lang: Lang) -> String {
    use crate::engine::params::{
        OnDisconnect, OnLoss, Params, Recovery, Registration, TokenSource, WatchMode,
    };
    let sec = |ms: u64| format!("{} {}", fmt_secs(ms), s(lang));
    let on = |b: bool| lang.pick(if b { "开" } else { "关" }, if b { "on" } else { "off" });
    let zh = lang == Lang::Zh;
    match params {
        Params::Redlock(p) => super::redlock::params_line(p, lang),
        Params::Snowflake(p) => super::snowflake::params_line(p, lang),
        Params::Frozen(p) if zh => format!(
            "TTL {}，续约间隔 {}，{}时停顿 {}，单程延迟 {}，栅栏令牌{}，得知失锁即停{}",
            sec(p.ttl_ms),
            sec(p.keepalive_ms),
            sec(p.pause_start_ms),
            sec(p.pause_len_ms),
            sec(p.delay_ms),
            on(p.fencing),
            on(p.stop_on_loss)
        ),
        Params::Frozen(p) => p.summary(),
        Params::Herd(p) => {
            let n = |v: f64| {
                let s = format!("{v:.3}");
                s.trim_end_matches('0').trim_end_matches('.').to_string()
            };
            if zh {
                format!(
                    "等待者 {}，唤醒扇出 {}，每次读取 {} 毫秒，持有 {} 毫秒",
                    p.waiters,
                    p.fanout,
                    n(p.grab_cost_ms),
                    n(p.hold_ms)
                )
            } else {
                format!(
                    "waiters {}, fan-out {}, grab cost {} ms, hold {} ms",
                    p.waiters,
                    p.fanout,
                    n(p.grab_cost_ms),
                    n(p.hold_ms)
                )
            }
        }
        Params::Rwlock(p) => {
            let roles: String = p
                .wants
                .iter()
                .map(|w| match w {
                    crate::engine::params::Want::Read => 'r',
                    crate::engine::params::Want::Write => 'w',
                })
                .collect();
            let rule = match p.read_rule {
                crate::engine::params::ReadRule::Fair => lang.pick(
                    "读者等所有更早的写者",
                    "readers wait for every earlier writer",
                ),
                crate::engine::params::ReadRule::SkipWaitingWriters => lang.pick(
                    "读者只等正在持锁的写者",
                    "readers wait only for a writer that holds",
                ),
            };
            if zh {
                format!(
                    "角色 {roles}，{rule}，持有 {}，间隔 {} 启动，会话超时 {}",
                    sec(p.common.hold_ms),
                    sec(p.common.start_gap_ms),
                    sec(p.common.session_timeout_ms)
                )
            } else {
                format!(
                    "roles {roles}, {rule}, hold {}, starting {} apart, session timeout {}",
                    sec(p.common.hold_ms),
                    sec(p.common.start_gap_ms),
                    sec(p.common.session_timeout_ms)
                )
            }
        }
        Params::Semaphore(p) => {
            let lowered = match p.lower_at_ms {
                Some(at) if p.lower_to > 0 => {
                    if zh {
                        format!("，{} 时许可数改为 {}", sec(at), p.lower_to)
                    } else {
                        format!(", permits lowered to {} at {}", p.lower_to, sec(at))
                    }
                }
                _ => String::new(),
            };
            if zh {
                format!(
                    "{} 个客户端，{} 个许可{lowered}，持有 {}，间隔 {} 启动，会话超时 {}",
                    p.clients,
                    p.permits,
                    sec(p.common.hold_ms),
                    sec(p.common.start_gap_ms),
                    sec(p.common.session_timeout_ms)
                )
            } else {
                format!(
                    "{} clients, {} permits{lowered}, hold {}, starting {} apart, session timeout {}",
                    p.clients,
                    p.permits,
                    sec(p.common.hold_ms),
                    sec(p.common.start_gap_ms),
                    sec(p.common.session_timeout_ms)
                )
            }
        }
        Params::Abc(p) => {
            let watch = match p.watch {
                WatchMode::Predecessor => lang.pick("前驱", "predecessor").to_string(),
                WatchMode::Children => lang.pick("全部子节点", "children").to_string(),
                WatchMode::Ahead(k) => {
                    if zh {
                        format!("前方第 {k} 个")
                    } else {
                        format!("{k} ahead")
                    }
                }
            };
            let recovery = match p.recovery {
                Recovery::Guid => lang.pick("按 GUID 找回", "guid"),
                Recovery::Blind => lang.pick("盲目重试", "blind"),
            };
            let registration = match p.registration {
                Registration::Atomic => lang.pick("一步", "atomic"),
                Registration::TwoStep => lang.pick("两步", "two-step"),
            };
            let on_disconnect = match p.on_disconnect {
                OnDisconnect::Suspend => lang.pick("挂起", "suspend"),
                OnDisconnect::CarryOn => lang.pick("照常", "carry on"),
            };
            let on_loss = match p.on_loss {
                OnLoss::Stop => lang.pick("停止", "stop"),
                OnLoss::CarryOn => lang.pick("照常", "carry on"),
            };
            let token = match p.token {
                TokenSource::Czxid => "czxid",
                TokenSource::Sequence => lang.pick("顺序号", "sequence"),
            };
            let faults = match (p.faults.len(), zh) {
                (0, true) => "无故障".to_string(),
                (n, true) => format!("{n} 个故障"),
                (0, false) => "no faults".to_string(),
                (1, false) => "1 fault".to_string(),
                (n, false) => format!("{n} faults"),
            };
            if zh {
                format!(
                    "监听{watch}，恢复方式{recovery}，注册监听{registration}，断连时{on_disconnect}，失锁后{on_loss}，栅栏令牌{}，令牌取{token}，会话超时 {}，tick {}，{faults}",
                    on(p.fencing),
                    sec(p.session_timeout_ms),
                    sec(p.tick_ms),
                )
            } else {
                format!(
                    "watch {watch}, recovery {recovery}, registration {registration}, on disconnect {on_disconnect}, on loss {on_loss}, fencing {}, token {token}, session timeout {}, tick {}, {faults}",
                    on(p.fencing),
                    sec(p.session_timeout_ms),
                    sec(p.tick_ms),
                )
            }
        }
    }
}
