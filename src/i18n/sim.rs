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
        SpanState::Leading { .. } => ("领导者", "leading"),
        SpanState::Row { .. } => ("作业行", "the job's row"),
        SpanState::Claimed { .. } => ("持有领取", "holding a claim"),
        SpanState::ScannerStopped => ("扫描器已停", "scanner stopped"),
        SpanState::GaveUp { left_node: true } => ("放弃，节点遗留", "gave up, node left behind"),
        SpanState::GaveUp { .. } => ("放弃并删除节点", "gave up, node deleted"),
        SpanState::Task { .. } => ("任务行", "the task's row"),
        SpanState::Backlog { .. } => ("任务表", "the task table"),
        SpanState::Effects { .. } => ("外部系统", "outside system"),
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

/// An actor's name as a reader sees it: clients by their letter, the table, the outside system
/// and the operator by what they are.
pub fn actor_name(trace: &Trace, a: crate::engine::world::ActorId, lang: Lang) -> String {
    use crate::engine::trace::{Family, Role};
    let (zh, en) = match (trace.role(a), trace.family) {
        (Some(Role::Table), Family::Tasks) => ("任务表", "tasks"),
        (Some(Role::Table), _) => ("作业表", "jobs"),
        (Some(Role::Outside), _) => ("支付服务", "provider"),
        (Some(Role::Operator), _) => ("操作员", "operator"),
        _ => return trace.name(a).to_string(),
    };
    lang.pick(zh, en).to_string()
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
        SpanState::Leading { epoch } => {
            if zh {
                format!("领导者，任期号 {epoch}")
            } else {
                format!("leader, epoch {epoch}")
            }
        }
        SpanState::Row {
            row_state,
            owner,
            epoch,
            version,
        } => format!(
            "{}/{}/{epoch}/v{version}",
            row_state_word(row_state, lang),
            owner.map_or("-", |o| trace.name(o))
        ),
        SpanState::Claimed { version, attempt } => {
            if zh {
                format!("领取 v{version}，第 {attempt} 次")
            } else {
                format!("claim v{version}, attempt {attempt}")
            }
        }
        SpanState::Task {
            row_state,
            owner,
            version,
            attempt,
        } => format!(
            "{}/{}/v{version}/{}",
            row_state_word(row_state, lang),
            owner.map_or("-", |o| trace.name(o)),
            attempt_words(attempt, lang)
        ),
        SpanState::Backlog {
            waiting,
            running,
            done,
            failed,
        } => {
            if zh {
                format!("就绪 {waiting}，运行 {running}，完成 {done}，失败 {failed}")
            } else {
                format!("{waiting} ready, {running} running, {done} done, {failed} failed")
            }
        }
        SpanState::Effects { count } => {
            if zh {
                format!("已执行 {count} 次")
            } else {
                format!("{count} applied")
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

fn row_state_word(s: crate::engine::msg::RowState, lang: Lang) -> &'static str {
    use crate::engine::msg::RowState::*;
    let (zh, en) = match s {
        Ready => ("就绪", "READY"),
        Running => ("运行中", "RUNNING"),
        Done => ("完成", "DONE"),
        Cancelled => ("已取消", "CANCELLED"),
        Failed => ("失败", "FAILED"),
    };
    lang.pick(zh, en)
}

/// An attempt number as a row shows it: `#2`, `第2次`.
fn attempt_words(n: u32, lang: Lang) -> String {
    match lang {
        Lang::Zh => format!("第{n}次"),
        _ => format!("#{n}"),
    }
}

fn plural(n: u8, noun: &str) -> String {
    if n == 1 {
        format!("1 {noun}")
    } else {
        format!("{n} {noun}s")
    }
}

/// How many task rows a task run's table holds (1 for any other trace).
fn task_count(trace: &Trace) -> u8 {
    match &trace.metrics {
        crate::engine::trace::Metrics::Tasks(m) => m.tasks,
        _ => 1,
    }
}

/// A row as the table shows it: `RUNNING/B/82/v6` for a job (with its epoch), `RUNNING/B/v2/#2`
/// for a task (with its attempt).
fn row_words(r: &crate::engine::msg::RowValue, trace: &Trace, lang: Lang) -> String {
    let state = row_state_word(r.state, lang);
    let owner = r.owner.map_or("-", |o| trace.name(o));
    if trace.family == crate::engine::trace::Family::Tasks {
        let lease = match (r.state, r.lease_until_ms) {
            (crate::engine::msg::RowState::Running, Some(u)) if lang == Lang::Zh => {
                format!("（租约到 {} 秒）", fmt_secs(u))
            }
            (crate::engine::msg::RowState::Running, Some(u)) => {
                format!(" (lease until {} s)", fmt_secs(u))
            }
            _ => String::new(),
        };
        format!(
            "{state}/{owner}/v{}/{}{lease}",
            r.version,
            attempt_words(r.attempt, lang)
        )
    } else {
        format!("{state}/{owner}/{}/v{}", r.epoch, r.version)
    }
}

/// A row's state as the table shows it.
pub fn row_state(s: crate::engine::msg::RowState, lang: Lang) -> &'static str {
    row_state_word(s, lang)
}

fn row_op(op: crate::engine::msg::RowOp, lang: Lang) -> &'static str {
    use crate::engine::msg::RowOp::*;
    let (zh, en) = match op {
        Claim => ("领取", "claim"),
        Renew => ("续租", "renewal"),
        Complete => ("完成", "completion"),
        TakeOver => ("接管", "takeover"),
        Submit => ("提交结果", "submission"),
        Cancel => ("取消", "cancellation"),
        RequestCancel => ("请求取消", "cancellation request"),
        Reschedule => ("重新排期", "rescheduling"),
        Fail => ("记为失败", "failure"),
    };
    lang.pick(zh, en)
}

/// A WHERE clause in words: `version = 5 AND epoch = 81 AND the lease has run out`.
fn row_cond(c: &crate::engine::msg::RowCond, trace: &Trace, lang: Lang) -> String {
    let mut parts = Vec::new();
    if let Some(v) = c.version {
        parts.push(format!("version = {v}"));
    }
    if let Some(e) = c.epoch {
        parts.push(format!("epoch = {e}"));
    }
    if let Some(o) = c.owner {
        parts.push(format!("owner = {}", trace.name(o)));
    }
    if let Some(s) = c.state {
        parts.push(format!("state = {}", row_state_word(s, Lang::En)));
    }
    if c.lease_live {
        parts.push(lang.pick("租约未过期", "the lease still runs").to_string());
    }
    if c.lease_expired {
        parts.push(lang.pick("租约已过期", "the lease has run out").to_string());
    }
    if c.claimable {
        parts.push(
            lang.pick(
                "已到期就绪或租约已过期",
                "due and ready, or its lease run out",
            )
            .to_string(),
        );
    }
    parts.join(lang.pick(" 且 ", " AND "))
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
        ONE_LEADER => ("单一领导者", "one leader"),
        EPOCHS_NON_DECREASING => ("任期号不回退", "epochs non-decreasing"),
        TAKEOVER_HAPPENED => ("发生过接管", "a takeover happened"),
        STALE_SUBMIT_ARRIVED => ("有陈旧提交到达", "a stale submission arrived"),
        WITHIN_PERMITS => ("不超过许可数", "within the permits"),
        WRITER_HELD => ("写者拿到过锁", "a writer held"),
        READERS_SHARED => ("读者共享过锁", "readers shared"),
        EFFECT_ONCE => ("外部副作用只发生一次", "each effect happens once"),
        NO_STALE_COMPLETION => (
            "没有过期领取的完成生效",
            "no completion from an overtaken claim",
        ),
        SCANNER_ALIVE => ("扫描器一直在跑", "the scanner keeps running"),
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
        Request::GetData => ("getData", "getData"),
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
        RowUpdated {
            row,
            by,
            op,
            cond,
            affected,
            value,
        } => {
            let w = actor_name(trace, *by, lang);
            // A letter takes a space before 的; a Chinese name does not.
            let wz = if w.is_ascii() {
                format!("{w} ")
            } else {
                w.clone()
            };
            let what = row_op(*op, lang);
            let what = match (task_count(trace) > 1, zh) {
                (false, _) => what.to_string(),
                (true, true) => format!("对任务 {} 的{what}", row + 1),
                (true, false) => format!("{what} of task {}", row + 1),
            };
            let when = row_cond(cond, trace, lang);
            let after = row_words(value, trace, lang);
            match (affected, zh) {
                (1, true) if when.is_empty() => {
                    format!("{wz}的{what}语句不带任何条件，照样影响 1 行：现在是 {after}。")
                }
                (1, false) if when.is_empty() => format!(
                    "{w}'s {what} has no WHERE clause at all, so it affects 1 row: the row is now {after}."
                ),
                (1, true) => {
                    format!("{wz}的{what}语句生效（条件：{when}），影响 1 行：现在是 {after}。")
                }
                (1, false) => format!(
                    "{w}'s {what} goes through (WHERE {when}): 1 row; the row is now {after}."
                ),
                (_, true) => {
                    format!("{wz}的{what}语句影响 0 行（条件：{when} 不成立），行保持 {after}。")
                }
                (_, false) => format!(
                    "{w}'s {what} affects 0 rows (WHERE {when} does not hold); the row stays {after}."
                ),
            }
        }
        EffectSent { attempt, key } => match (key, zh) {
            (Some(k), true) => {
                format!("{who} 调用外部系统（第 {attempt} 次尝试），带着任务的固定幂等键 {k}。")
            }
            (Some(k), false) => format!(
                "{who} calls the outside system (attempt {attempt}) with the task's stable idempotency key {k}."
            ),
            (None, true) => {
                format!("{who} 调用外部系统（第 {attempt} 次尝试），没有带幂等键。")
            }
            (None, false) => format!(
                "{who} calls the outside system (attempt {attempt}) with no idempotency key."
            ),
        },
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
        LearnedClaimLost => pick(
            format!("{who} 的续租影响 0 行：它这才知道领取已经不归自己了。"),
            format!(
                "{who}'s renewal affects 0 rows: only now does it learn the claim is no longer its own."
            ),
        ),
        CancelSeen => pick(
            format!("{who} 在调用外部系统前读了一次任务行，看到有人请求取消，于是放弃这次尝试。"),
            format!(
                "{who} reads the row just before its outside call, sees that cancellation was requested, and backs out."
            ),
        ),
        ScanFailed { row, caught } => {
            let n = row + 1;
            match (caught, zh) {
                (true, true) => format!(
                    "{who} 处理任务 {n} 时抛出异常；扫描体里的 catch 接住了它，把任务记为失败，下一轮扫描照常进行。"
                ),
                (true, false) => format!(
                    "Processing task {n} throws in {who}; the catch inside the scan body handles it, marks the task failed, and the next scan runs as usual."
                ),
                (false, true) => format!(
                    "{who} 处理任务 {n} 时抛出异常，没有人接住：这个周期任务就此结束，之后再也不会扫描，进程却还活着。"
                ),
                (false, false) => format!(
                    "Processing task {n} throws in {who} and nothing catches it: the periodic schedule ends here and never scans again, though the process lives on."
                ),
            }
        }
        EffectApplied {
            by,
            attempt,
            count,
            deduplicated,
            ..
        } => {
            let w = trace.name(*by);
            match (deduplicated, zh) {
                (false, true) => format!(
                    "外部系统执行了 {w} 第 {attempt} 次尝试的副作用，到目前为止共 {count} 次。"
                ),
                (false, false) => format!(
                    "The outside system applies the effect of {w}'s attempt {attempt}: {count} so far."
                ),
                (true, true) => {
                    format!("外部系统认出了 {w} 带来的幂等键，不再重复执行（仍是 {count} 次）。")
                }
                (true, false) => format!(
                    "The outside system recognises {w}'s idempotency key and applies nothing again (still {count})."
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
        "leaders" => "历任领导者",
        "final_row" => "作业行最终",
        "result" => "留下的结果",
        "stale_submits_rejected" => "被拒的陈旧提交",
        "stale_submits_accepted" => "被接受的陈旧提交",
        "max_leaders" => "最多同时领导者",
        "claims" => "历次领取",
        "final_task" => "任务行最终",
        "effects_applied" => "外部副作用次数",
        "effects_deduplicated" => "被幂等键挡下",
        "late_refused" => "被拒的过期语句",
        "late_accepted" => "生效的过期完成",
        "cancel" => "取消结果",
        "tasks_done" => "完成的任务",
        "tasks_failed" => "失败的任务",
        "tasks_waiting" => "积压的到期任务",
        "oldest_due_age_ms" => "最老到期任务已等",
        "scanner_stopped_at_ms" => "扫描器停止于",
        "max_believers" => "最多同时自认领取者",
        "max_concurrent_readers" => "最多同时读者",
        "writer_wait_ms" => "写者最长等待",
        "starved_writers" => "饿死的写者",
        "max_holders" => "最多同时持锁",
        "stuck_clients" => "卡死的客户端",
        "duplicate_nodes" => "重复节点",
        "stale_writes_accepted" => "被接受的陈旧写入",
        "stale_writes_rejected" => "被拒的陈旧写入",
        "current_writes_refused" => "被拒的合法写入",
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
        Params::Tasks(p) => {
            let complete = match p.complete {
                crate::engine::actors::worker::CompleteRule::Version => {
                    lang.pick("完成按领取版本", "completion checks the claim version")
                }
                crate::engine::actors::worker::CompleteRule::VersionAndLease => lang.pick(
                    "完成按领取版本且租约未过期",
                    "completion checks the version and a live lease",
                ),
                crate::engine::actors::worker::CompleteRule::Unconditional => {
                    lang.pick("完成不带条件", "unconditional completion")
                }
            };
            let pause = if p.pause_len_ms > 0 {
                if zh {
                    format!("，A 于 {} 停顿 {}", sec(p.pause_at_ms), sec(p.pause_len_ms))
                } else {
                    format!(
                        ", A pauses at {} for {}",
                        sec(p.pause_at_ms),
                        sec(p.pause_len_ms)
                    )
                }
            } else {
                String::new()
            };
            let clock = match (p.store_clock_ms, zh) {
                (0, _) => String::new(),
                (c, true) => format!("，存储时钟从 {} 起算", sec(c)),
                (c, false) => format!(", the store's clock reads {} at the start", sec(c)),
            };
            let key = if !p.effect {
                lang.pick("，不调用外部系统", ", no outside call")
            } else if p.idempotency_key {
                lang.pick("，外部调用带固定幂等键", ", outside call with a stable key")
            } else {
                lang.pick("，外部调用不带幂等键", ", outside call without a key")
            };
            if zh {
                format!(
                    "{} 个工作者、{} 个任务，扫描间隔 {}，租约 {}，续租间隔 {}，工作 {}，{complete}{key}{pause}{clock}",
                    p.workers,
                    p.tasks,
                    sec(p.scan_every_ms),
                    sec(p.lease_ms),
                    sec(p.renew_every_ms),
                    sec(p.work_ms)
                )
            } else {
                format!(
                    "{}, {}, a scan every {}, lease {}, renewal every {}, work {}, {complete}{key}{pause}{clock}",
                    plural(p.workers, "worker"),
                    plural(p.tasks, "task"),
                    sec(p.scan_every_ms),
                    sec(p.lease_ms),
                    sec(p.renew_every_ms),
                    sec(p.work_ms)
                )
            }
        }
        Params::Election(p) => {
            let cond = if p.conditional {
                lang.pick("条件更新", "conditional updates")
            } else {
                lang.pick("无条件更新", "unconditional updates")
            };
            if zh {
                format!(
                    "A 以任期号 {} 领导，作业行版本 {}，{}时停顿 {}，{cond}，会话超时 {}",
                    p.first_epoch,
                    p.row_version,
                    sec(p.pause_at_ms),
                    sec(p.pause_len_ms),
                    sec(p.session_timeout_ms)
                )
            } else {
                format!(
                    "A leads with epoch {}, the job's row at version {}, A pauses at {} for {}, {cond}, session timeout {}",
                    p.first_epoch,
                    p.row_version,
                    sec(p.pause_at_ms),
                    sec(p.pause_len_ms),
                    sec(p.session_timeout_ms)
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
            let timeout = match (p.on_timeout, zh) {
                _ if !p
                    .faults
                    .iter()
                    .any(|f| matches!(f, crate::engine::params::Fault::GiveUp { .. })) =>
                {
                    ""
                }
                (crate::engine::params::OnTimeout::DeleteNode, true) => "，超时删节点",
                (crate::engine::params::OnTimeout::DeleteNode, false) => {
                    ", deletes its node on timeout"
                }
                (crate::engine::params::OnTimeout::Forget, true) => "，超时忘删节点",
                (crate::engine::params::OnTimeout::Forget, false) => {
                    ", forgets its node on timeout"
                }
            };
            let container = match (p.container_check_ms, zh) {
                (None, _) => String::new(),
                (Some(c), true) => format!("，锁目录是容器节点（每 {} 检查）", sec(c)),
                (Some(c), false) => format!(
                    ", the lock directory is a container (checked every {})",
                    sec(c)
                ),
            };
            if zh {
                format!(
                    "监听{watch}，恢复方式{recovery}，注册监听{registration}，断连时{on_disconnect}，失锁后{on_loss}，栅栏令牌{}，令牌取{token}，会话超时 {}，tick {}，{faults}{timeout}{container}",
                    on(p.fencing),
                    sec(p.session_timeout_ms),
                    sec(p.tick_ms),
                )
            } else {
                format!(
                    "watch {watch}, recovery {recovery}, registration {registration}, on disconnect {on_disconnect}, on loss {on_loss}, fencing {}, token {token}, session timeout {}, tick {}, {faults}{timeout}{container}",
                    on(p.fencing),
                    sec(p.session_timeout_ms),
                    sec(p.tick_ms),
                )
            }
        }
    }
}

/// The claims in order: `A v1, B v2`, naming the task when the table has several.
fn claims_words(m: &crate::engine::trace::TaskMetrics, lang: Lang) -> String {
    let words: Vec<String> = m
        .claims
        .iter()
        .map(|c| match (m.tasks > 1, lang) {
            (false, _) => format!("{} v{}", c.worker, c.version),
            (true, Lang::Zh) => format!("{} 任务{} v{}", c.worker, c.task + 1, c.version),
            (true, _) => format!("{} task {} v{}", c.worker, c.task + 1, c.version),
        })
        .collect();
    list(&words, lang)
}

/// What became of a cancellation, in words.
pub fn cancel_outcome(c: crate::engine::trace::CancelOutcome, lang: Lang) -> &'static str {
    use crate::engine::trace::CancelOutcome::*;
    let (zh, en) = match c {
        CancelledBeforeRun => ("取消先赢：任务没有运行", "cancel won: the task never ran"),
        BackedOut => (
            "领取先赢；工作者在外部调用前看到请求并退出",
            "the claim won; the worker saw the request before its outside call and backed out",
        ),
        RequestedTooLate => (
            "领取先赢；只能说“已请求取消”，外部调用照样发生",
            "the claim won; all one can say is \"cancellation requested\", and the outside call went ahead",
        ),
        NothingToCancel => (
            "任务已经结束，没有可取消的",
            "the task had already finished",
        ),
    };
    lang.pick(zh, en)
}

/// The facts of a task run as (key, value) rows, for the report, the SVG and the presenter.
pub fn task_rows(m: &crate::engine::trace::TaskMetrics, lang: Lang) -> Vec<(&'static str, String)> {
    let dash = |v: &Option<String>| v.clone().unwrap_or_else(|| "-".into());
    let mut rows = vec![
        ("claims", claims_words(m, lang)),
        (
            "final_task",
            format!(
                "{}/{}/v{}/{}",
                row_state_word(m.final_state, lang),
                dash(&m.final_owner),
                m.final_version,
                attempt_words(m.final_attempt, lang)
            ),
        ),
        ("result", dash(&m.result)),
        ("effects_applied", m.effects_applied.to_string()),
        ("effects_deduplicated", m.effects_deduplicated.to_string()),
        ("late_refused", m.late_refused.to_string()),
        ("late_accepted", m.late_accepted.to_string()),
        ("max_believers", m.max_believers.to_string()),
    ];
    if let Some(c) = m.cancel {
        rows.push(("cancel", cancel_outcome(c, lang).to_string()));
    }
    if m.tasks_done + m.tasks_failed + m.tasks_waiting > 1 {
        rows.push(("tasks_done", m.tasks_done.to_string()));
        rows.push(("tasks_failed", m.tasks_failed.to_string()));
        rows.push(("tasks_waiting", m.tasks_waiting.to_string()));
    }
    if let Some(age) = m.oldest_due_age_ms {
        rows.push((
            "oldest_due_age_ms",
            format!("{} {}", fmt_secs(age), s(lang)),
        ));
    }
    if let Some(at) = m.scanner_stopped_at_ms {
        rows.push((
            "scanner_stopped_at_ms",
            format!("{} {}", fmt_secs(at), s(lang)),
        ));
    }
    let violations: Vec<String> = m
        .violations
        .iter()
        .map(|v| invariant_label(v, lang).to_string())
        .collect();
    rows.push((
        "violations",
        if violations.is_empty() {
            "-".into()
        } else {
            violations.join(lang.pick("、", ", "))
        },
    ));
    rows
}

/// A task run's outcome in one line: whose result stands and how often the effect happened.
pub fn task_outcome_line(m: &crate::engine::trace::TaskMetrics, lang: Lang) -> String {
    let result = m.result.as_deref().unwrap_or("-");
    if lang == Lang::Zh {
        format!(
            "领取 {}   留下的结果 {result}   外部副作用 {} 次   被拒的过期语句 {}",
            claims_words(m, lang),
            m.effects_applied,
            m.late_refused
        )
    } else {
        format!(
            "claims {}   result that stands {result}   effects applied {}   late statements refused {}",
            claims_words(m, lang),
            m.effects_applied,
            m.late_refused
        )
    }
}
