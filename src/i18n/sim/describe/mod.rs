//! Every event of a run, as one sentence.

use crate::engine::time::fmt_secs;
use crate::engine::trace::{Event, EventKind, Family, Trace};

use super::super::Lang;
use super::*;

mod ensemble;
mod tasks;

/// One or two plain sentences explaining an event. Each kind of event is worded by one of the
/// functions below, and this match names every kind, so a new one must be given its words.
pub fn describe(e: &Event, trace: &Trace, lang: Lang) -> String {
    use EventKind::*;
    match &e.kind {
        Froze | Woke | LinkCut | LinkRestored | ConnectionReset | Crashed | Restarted
        | Redlock(..) | Snowflake(..) | Etcd(..) => faults(e, trace, lang),
        Ensemble(ev) => ensemble::describe(ev, lang),
        SessionOpened { .. }
        | NoticedDisconnect { .. }
        | ConnectionLoss { .. }
        | Reconnecting
        | Reconnected
        | LearnedSessionExpired
        | CreateSent { .. }
        | GotNode { .. }
        | CreateOutcomeUnknown
        | RecoveredNode { .. }
        | DuplicateDeleted { .. }
        | ChildrenRead { .. }
        | ExistsChecked { .. }
        | WatchChildren
        | Waiting { .. }
        | Notified { .. }
        | WokeUp { .. } => session(e, trace, lang),
        Acquired { .. }
        | Admitted { .. }
        | Elected { .. }
        | RowUpdated { .. }
        | EffectSent { .. }
        | LearnedClaimLost
        | CancelSeen
        | ScanFailed { .. }
        | EffectApplied { .. }
        | AcquireTimedOut { .. }
        | DirDeleted { .. }
        | DirCreated { .. }
        | Suspended
        | Revalidated { .. }
        | ReleaseSent { .. }
        | ReleasedEarly
        | Stuck { .. }
        | Unstuck => lock(e, trace, lang),
        NodeCreated { .. }
        | NodeDeleted { .. }
        | SessionExpired { .. }
        | PermitsLowered { .. }
        | SessionClosed { .. } => service(e, trace, lang),
        LeaseGranted { .. }
        | LeaseReleaseSent
        | KeepaliveSent { .. }
        | KeepaliveRenewed { .. }
        | KeepaliveRefused
        | LeaseExpired { .. }
        | LearnedLeaseLost
        | AcquireRequested
        | AcquireRefused { .. }
        | LearnedGrant { .. }
        | Released { .. }
        | ReleaseIgnored => lease(e, trace, lang),
        WriteSent { .. }
        | WriteArrived { .. }
        | DataRead { .. }
        | DataWriteSent { .. }
        | DataSet { .. }
        | DataWriteRefused
        | WriteAbandoned
        | WriteDeferred
        | ReleaseRound { .. }
        | RunEnded => write(e, trace, lang),
    }
}

/// A fault or a crash, and the Redlock and Snowflake events (worded by their families).
fn faults(e: &Event, trace: &Trace, lang: Lang) -> String {
    let who = actor_name(trace, e.actor, lang);
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
        Redlock(ev) => crate::i18n::redlock::describe(ev, e, trace, lang),
        Snowflake(ev) => crate::i18n::snowflake::describe(ev, e, trace, lang),
        Etcd(ev) => crate::i18n::etcd::describe(ev, e, trace, lang),
        _ => unreachable!("describe hands each function only its own events"),
    }
}

/// A client's session and the lock node it creates, reads and watches.
fn session(e: &Event, trace: &Trace, lang: Lang) -> String {
    let who = actor_name(trace, e.actor, lang);
    let zh = lang == Lang::Zh;
    let pick = |z: String, en: String| if zh { z } else { en };
    use EventKind::*;
    match &e.kind {
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
        _ => unreachable!("describe hands each function only its own events"),
    }
}

/// A client that gets, waits for, gives up or releases the lock.
fn lock(e: &Event, trace: &Trace, lang: Lang) -> String {
    let who = actor_name(trace, e.actor, lang);
    let zh = lang == Lang::Zh;
    let pick = |z: String, en: String| if zh { z } else { en };
    use EventKind::*;
    match &e.kind {
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
        Elected { epoch } => {
            let before = epoch.saturating_sub(1);
            pick(
                format!(
                    "{who} 成为领导者：用带着读到版本的 setData 把任期号从 {before} 提到 {epoch}，同一时刻只能有一个人改成功。"
                ),
                format!(
                    "{who} becomes leader: a setData on the version it read raises the epoch from {before} to {epoch}, so only one candidate can win it."
                ),
            )
        }
        // The task family's events, worded in their own file.
        RowUpdated { .. }
        | EffectSent { .. }
        | LearnedClaimLost
        | CancelSeen
        | ScanFailed { .. }
        | EffectApplied { .. } => tasks::describe(e, trace, lang),
        AcquireTimedOut { deleted: true } => pick(
            format!("{who} 等锁超时，先删掉自己的节点，再返回“没拿到锁”。"),
            format!("{who}'s acquire times out: it deletes its own node, then reports that it did not get the lock."),
        ),
        AcquireTimedOut { deleted: false } => pick(
            format!("{who} 等锁超时，返回“没拿到锁”，却忘了删自己的节点：会话还开着，节点就一直排在队里。"),
            format!(
                "{who}'s acquire times out and reports that it did not get the lock, but it forgets its node: the session stays open, so the node stays in the queue."
            ),
        ),
        DirDeleted { .. } => pick(
            "锁目录是容器节点，空了之后被服务的容器检查删掉了。".to_string(),
            "The lock directory is a container node: once empty, the service's container check deletes it.".to_string(),
        ),
        DirCreated { .. } => pick(
            "一次创建发现锁目录已经不在，就连同目录一起重新创建：新目录的序号从 0 开始。".to_string(),
            "A create finds the lock directory gone and creates it again first: the new directory's numbering starts at 0.".to_string(),
        ),
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
        _ => unreachable!("describe hands each function only its own events"),
    }
}

/// What the coordination service does to nodes and sessions.
fn service(e: &Event, trace: &Trace, lang: Lang) -> String {
    let zh = lang == Lang::Zh;
    let pick = |z: String, en: String| if zh { z } else { en };
    use EventKind::*;
    match &e.kind {
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
        _ => unreachable!("describe hands each function only its own events"),
    }
}

/// A lease service and its clients: grants, keepalives, expiry and release.
fn lease(e: &Event, trace: &Trace, lang: Lang) -> String {
    let who = actor_name(trace, e.actor, lang);
    let zh = lang == Lang::Zh;
    let pick = |z: String, en: String| if zh { z } else { en };
    use EventKind::*;
    match &e.kind {
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
        _ => unreachable!("describe hands each function only its own events"),
    }
}

/// Writes to the protected resource, and the end of the run.
fn write(e: &Event, trace: &Trace, lang: Lang) -> String {
    let who = actor_name(trace, e.actor, lang);
    let zh = lang == Lang::Zh;
    let pick = |z: String, en: String| if zh { z } else { en };
    use EventKind::*;
    match &e.kind {
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
        DataRead { .. } | DataWriteSent { .. } | DataSet { .. } | DataWriteRefused => {
            super::data::describe(&e.kind, &who, trace, lang)
        }
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
        _ => unreachable!("describe hands each function only its own events"),
    }
}
