//! What a run did, in words: lane states, verdicts, invariants and every event.
//!
//! The trace hands over typed facts; this module only puts them into sentences. It looks up
//! names (an actor's, a node's sequence number) and computes nothing.

use crate::engine::trace::event::Request;
use crate::engine::trace::{ActorSet, Invariant, Share, SpanState, Trace, Verdict};
use crate::engine::zk::tree::{NodeId, Watched};

use super::Lang;
mod data;
mod describe;
mod params;
mod rows;

pub use describe::describe;
pub use params::*;
pub use rows::*;

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
        } => ("冻结，自认持锁", "frozen, believes it holds"),
        SpanState::Frozen { .. } => ("冻结", "frozen"),
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
        SpanState::Redlock(s) => return crate::i18n::redlock::state_name(s, lang),
        SpanState::Snowflake(s) => return crate::i18n::snowflake::state_name(s, lang),
        SpanState::Etcd(s) => return crate::i18n::etcd::state_name(s, lang),
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

/// A shorter label for a span too narrow for [`state_label`] that still says what matters most
/// (who holds the queue), before the bare state name.
pub fn state_label_brief(state: SpanState, trace: &Trace, lang: Lang) -> Option<String> {
    match state {
        SpanState::Queue { holders, share, .. } if !holders.is_empty() => {
            Some(holding_words(holders, share, trace, lang))
        }
        // Who owns the row, with which epoch and version: what a takeover changes.
        SpanState::Row {
            owner,
            epoch,
            version,
            ..
        } => Some(format!(
            "{}/{epoch}/v{version}",
            owner.map_or("-", |o| trace.name(o))
        )),
        _ => None,
    }
}

/// Who holds through a lock directory, every one by name: `B holds`, `I, J read`,
/// `A, B, C hold permits`.
fn holding_words(holders: ActorSet, share: Share, trace: &Trace, lang: Lang) -> String {
    let names: Vec<&str> = holders.iter().map(|a| trace.name(a)).collect();
    let who = names.join(lang.pick("、", ", "));
    match (share, lang) {
        (Share::Exclusive, Lang::Zh) => format!("{who} 持有"),
        (Share::Exclusive, Lang::En) if names.len() == 1 => format!("{who} holds"),
        (Share::Exclusive, Lang::En) => format!("{who} hold"),
        (Share::Read, Lang::Zh) => format!("{who} 在读"),
        (Share::Read, Lang::En) if names.len() == 1 => format!("{who} reads"),
        (Share::Read, Lang::En) => format!("{who} read"),
        (Share::Permits, Lang::Zh) if names.len() == 1 => format!("{who} 持有一个许可"),
        (Share::Permits, Lang::Zh) => format!("{who} 各持一个许可"),
        (Share::Permits, Lang::En) if names.len() == 1 => format!("{who} holds a permit"),
        (Share::Permits, Lang::En) => format!("{who} hold permits"),
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
        SpanState::Queue {
            holders,
            share,
            waiting,
        } if !holders.is_empty() => {
            let who = holding_words(holders, share, trace, lang);
            if zh {
                format!("{who}，{waiting} 个排队")
            } else {
                format!("{who}, {waiting} queued")
            }
        }
        SpanState::Queue { .. } => lang.pick("空", "empty").into(),
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
        SpanState::Redlock(s) => crate::i18n::redlock::state_label(s, trace, lang),
        SpanState::Snowflake(s) => crate::i18n::snowflake::state_label(s, lang),
        SpanState::Etcd(s) => crate::i18n::etcd::state_label(s, trace, lang),
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
pub fn invariant_label(name: Invariant, lang: Lang) -> &'static str {
    use crate::engine::trace::invariant::*;
    let (zh, en) = match name {
        ONE_HOLDER => ("单一持锁者", "one holder"),
        TOKENS_NON_DECREASING => ("令牌不回退", "tokens non-decreasing"),
        NO_ORPHAN_NODE => ("无孤儿节点", "no orphan node"),
        NOBODY_STUCK => ("无人卡死", "nobody stuck"),
        NO_LOST_UPDATE => ("没有更新丢失", "no lost update"),
        HOLDER_RELEASED => ("有持锁者释放", "a holder released"),
        WAITER_WOKEN => ("有等待者被唤醒", "a waiter was woken"),
        STALE_WRITE_ARRIVED => ("有陈旧写入到达", "a stale write arrived"),
        STALE_WRITE_REJECTED => ("有陈旧写入被拒", "a stale write was refused"),
        SUCCESSOR_GRANTED => ("继任者拿到锁", "the successor got the lock"),
        EVERYONE_HELD => ("每个客户端都持过锁", "every client held the lock"),
        WRITER_ALONE => ("写者独占", "a writer holds alone"),
        NO_READER_PASSES_WRITER => ("读者不越过先到的写者", "no reader passes an earlier writer"),
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
        NO_EFFECT_AFTER_CANCEL => (
            "请求取消之后不再有外部效果",
            "no outside effect after a cancel request",
        ),
        SCANNER_ALIVE => ("扫描器一直在跑", "the scanner keeps running"),
        HOLDER_HAS_MAJORITY => ("持锁者有过半节点", "the holder has a majority"),
        NO_STALE_WRITE_ACCEPTED => ("没有陈旧写入被接受", "no stale write accepted"),
        RELEASES_OWN_KEY_ONLY => ("释放只删自己的键", "releases delete only their own key"),
        ONE_WATCHER_PER_DELETE => ("删一个键只唤醒一个等待者", "one deletion wakes one waiter"),
        MAJORITY_ACQUIRED => ("有客户端拿到过半", "a client won a majority"),
        UNIQUE_IDS => ("ID 不重复", "IDs are unique"),
        IDS_INCREASE => ("每个生成器的 ID 递增", "each generator's IDs increase"),
        ID_ISSUED => ("发出过 ID", "an ID was issued"),
        REQUEST_WAITED => ("有请求等待过", "a request waited"),
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
