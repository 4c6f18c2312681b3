//! The words of the exports: the text report, the SVG charts and the families' run summaries.
//! Fixed words sit in one table, each key beside its Chinese and English.

use std::fmt::Display;

use super::{Lang, words};
use crate::engine::time::fmt_secs;
use crate::engine::trace::data::DataFacts;
use crate::engine::trace::etcd::{DeleteCause, Hold};
use crate::engine::trace::redlock::Acquisition;
use crate::engine::trace::snowflake::{Collision, LayoutFacts};

words! {
    /// A fixed word or label of an export.
    pub enum Export => pub fn export;
    // The families' run summaries.
    ListSep => ("、", ", "),
    Millis => ("毫秒", "ms"),
    HoldingWithValidity => ("自认持锁且有效：", "holding with validity:"),
    NodesColon => ("节点：", "nodes:"),
    ResourceColon => ("资源：", "resource:"),
    IdsIssuedThisInstant => ("这一毫秒发出的 ID：", "IDs issued at this instant:"),
    Validity => ("有效时间", "validity"),
    MostBelieveAtOnce => ("最多同时自认持锁", "most holders at once"),
    OpenParen => ("（", "("),
    NodesView => ("节点视角", "nodes' view"),
    CloseParen => ("）", ")"),
    StaleWritesAccepted => ("被接受的陈旧写入", "stale writes accepted"),
    KeysDeletedByAnotherClient => ("删掉别人的锁", "keys deleted by another client"),
    TwoHoldersFor => ("两人同时持锁", "two holders for"),
    IdsIssued => ("发出的 ID", "IDs issued"),
    DuplicateIds => ("重复 ID", "duplicates"),
    LongestWait => ("最长等待", "longest wait"),
    RequestsRefused => ("被拒的请求", "refused"),
    Colon => ("：", ": "),
    Comma => ("，", ", "),
    Duplicate => ("重复", "duplicate"),
    LeaseTtl => ("租约 TTL", "lease TTL"),
    KeepAliveEvery => ("续约间隔", "keep-alive every"),
    MostWokenByOneDelete => ("一次删除最多唤醒", "most woken by one deletion"),
    StaleWritesRefused => ("被拒的陈旧写入", "stale writes refused"),
    ActedWithoutLease => ("租约已没仍在干活", "acted with its lease gone for"),

    // The SVG charts.
    ServiceView => ("协调服务", "service view"),
    ProtectedResource => ("受保护资源", "resource"),
    ABelieves => ("A（自认）", "A as A believes"),
    TimeMs => ("时间（毫秒）", "time (ms)"),
    TimeS => ("时间（秒）", "time (s)"),
    DangerWindow => ("危险窗口", "danger window"),
    HandoverDelay => ("交接延迟", "handover delay"),
    WakeUpsPerRelease => ("每次释放唤醒", "wake-ups per release"),
    DuplicateNodes => ("重复节点", "duplicate nodes"),
    Stuck => ("卡死", "stuck"),
    StaleWritesRejected => ("被拒的陈旧写入", "stale writes rejected"),
    Leaders => ("历任领导者", "leaders"),
    ResultThatStands => ("留下的结果", "result that stands"),
    StaleSubmitsRefusedAccepted => ("陈旧提交 拒绝/接受", "stale submits refused/accepted"),
    GrantOrder => ("授予顺序", "grant order"),
    MostHoldersAtOnce => ("最多同时持有", "most holders at once"),
    MostReadersAtOnce => ("最多同时读者", "most readers at once"),
    OneRowPerRelease => ("每行一次释放", "one row per release"),
    TakesTheLock => ("拿到锁", "takes the lock"),
    WokenForNothing => ("无效唤醒", "woken for nothing"),
    NotNotified => ("未被通知", "not notified"),
    Notifications => ("通知总数", "notifications"),
    WastedWakeUps => ("无效唤醒", "wasted wake-ups"),
    TotalTime => ("总耗时", "total time"),

    // Metrics and the herd chart in text.
    Nothing => ("无", "none"),
    Accepted => ("接受", "accepted"),
    Rejected => ("拒绝", "rejected"),
    NoWrite => ("未写入", "no write"),
    HerdLegend => (
        "# 拿到锁   + 无效唤醒   . 未被通知",
        "# takes the lock   + woken for nothing   . not notified",
    ),

    // The text report.
    Held => ("成立", "ok"),
    Failed => ("失败", "FAILED"),
    HolderServiceView => ("持锁者（服务视角）：", "holder (service view):"),
    ColonTight => ("：", ":"),
    Events => ("事件", "Events"),

    // The text timeline.
    LettersHolderOrValue => ("字母 = 持有者或取值", "letters = holder or value"),
    DigitsHoldersTogether => ("数字 = 同时持有的人数", "digit = how many hold together"),
    Service => ("服务", "service"),
    ResourceLane => ("资源", "resource"),
    ABelievesShort => ("A（自认）", "A believes"),
    Seconds => ("秒", "s"),
    DangerShort => ("危险窗口", "danger"),
}

/// A Redlock acquisition: who, when, on which nodes, and how long it stays valid.
pub fn acquisition(a: &Acquisition, lang: Lang) -> String {
    let (at, nodes, until) = (
        fmt_secs(a.acquired_ms),
        a.ok_nodes.join(" "),
        fmt_secs(a.valid_until_ms),
    );
    let (client, validity) = (&a.client, a.validity_ms);
    match lang {
        Lang::Zh => {
            format!("{client} 在 {at} 秒拿到 {nodes}，有效时间 {validity} 毫秒，到 {until} 秒")
        }
        Lang::En => format!("{client} at {at} s on {nodes}: validity {validity} ms, to {until} s"),
    }
}

/// An etcd hold: who, with which revision, from when, and how its key went.
pub fn etcd_hold(h: &Hold, lang: Lang) -> String {
    let (client, token, at) = (&h.client, h.token, fmt_secs(h.locked_ms));
    let end = match (h.ended_ms, h.cause, lang) {
        (Some(e), Some(c), Lang::Zh) => format!(
            "，{} 秒键被删（{}）",
            fmt_secs(e),
            match c {
                DeleteCause::Unlock => "Unlock",
                DeleteCause::LeaseExpired => "租约到期",
                DeleteCause::LeaseRevoked => "撤销租约",
            }
        ),
        (Some(e), Some(c), Lang::En) => format!(
            ", key deleted at {} s ({})",
            fmt_secs(e),
            match c {
                DeleteCause::Unlock => "unlock",
                DeleteCause::LeaseExpired => "lease expired",
                DeleteCause::LeaseRevoked => "lease revoked",
            }
        ),
        (_, _, Lang::Zh) => "，到结束键仍在".into(),
        (_, _, Lang::En) => ", key still there at the end".into(),
    };
    match lang {
        Lang::Zh => format!("{client} 在 {at} 秒持锁，版本 {token}{end}"),
        Lang::En => format!("{client} locked at {at} s with revision {token}{end}"),
    }
}

/// A Snowflake ID layout: the bits of each part and what they allow.
pub fn id_layout(l: &LayoutFacts, lang: Lang) -> String {
    match lang {
        Lang::Zh => format!(
            "{} + {} + {} 位：每毫秒 {} 个，{} 个 worker 编号，约 {:.1} 年",
            l.time_bits, l.worker_bits, l.sequence_bits, l.ids_per_ms, l.workers, l.years
        ),
        Lang::En => format!(
            "{} + {} + {} bits: {} per ms, {} worker ids, about {:.1} years",
            l.time_bits, l.worker_bits, l.sequence_bits, l.ids_per_ms, l.workers, l.years
        ),
    }
}

/// An ID issued twice: its parts, and who issued it when.
pub fn collision(c: &Collision, first: &str, again: &str, lang: Lang) -> String {
    match lang {
        Lang::Zh => format!(
            "{}|{}|{} = {}：{first} 在 {} 毫秒，{again} 在 {} 毫秒又发一次",
            c.time, c.worker, c.sequence, c.id, c.first_at_ms, c.again_at_ms
        ),
        Lang::En => format!(
            "{}|{}|{} = {}: {first} at {} ms, {again} again at {} ms",
            c.time, c.worker, c.sequence, c.id, c.first_at_ms, c.again_at_ms
        ),
    }
}

/// How many more collisions there were than the list shows.
pub fn more(n: usize, lang: Lang) -> String {
    match lang {
        Lang::Zh => format!("……还有 {n} 次"),
        Lang::En => format!("... {n} more"),
    }
}

/// How many more rows the herd chart has than it shows.
pub fn more_rows(n: usize, lang: Lang) -> String {
    match lang {
        Lang::Zh => format!("……还有 {n} 行"),
        Lang::En => format!("... {n} more rows"),
    }
}

/// The note for refused acquire attempts the event list leaves out.
pub fn refused_not_shown(n: impl Display, lang: Lang) -> String {
    match lang {
        Lang::Zh => format!("（省略了 {n} 条被拒的获取请求）"),
        Lang::En => format!("({n} refused acquire attempts not shown)"),
    }
}

/// The note for routine events of failed attempts the event list leaves out.
pub fn routine_not_shown(n: impl Display, lang: Lang) -> String {
    match lang {
        Lang::Zh => format!("（省略了失败加锁里的 {n} 条例行事件）"),
        Lang::En => format!("({n} routine events of failed attempts not shown)"),
    }
}

/// The data node's heading: its path, first version and counter.
pub fn data_heading(d: &DataFacts, lang: Lang) -> String {
    match lang {
        Lang::Zh => format!(
            "数据节点 {}：起始版本 {}，计数 {}（setData 括号里是期望版本）",
            d.path, d.initial_version, d.initial_value
        ),
        Lang::En => format!(
            "Data node {}: starts at version {}, counter {} (setData's expected version in brackets)",
            d.path, d.initial_version, d.initial_value
        ),
    }
}

/// A read of the data node.
pub fn data_read(who: &str, version: impl Display, value: impl Display, lang: Lang) -> String {
    match lang {
        Lang::Zh => format!("{who} 读到 v{version}（计数 {value}）"),
        Lang::En => format!("{who} reads v{version} (counter {value})"),
    }
}

/// A `setData` the service applied.
pub fn data_set(
    who: &str,
    expected: impl Display,
    version: impl Display,
    value: impl Display,
    lang: Lang,
) -> String {
    match lang {
        Lang::Zh => format!("{who} setData({expected}) → v{version}，计数 {value}"),
        Lang::En => format!("{who} setData({expected}) -> v{version}, counter {value}"),
    }
}

/// A `setData` the service refused because the version had moved on.
pub fn data_bad_version(
    who: &str,
    expected: impl Display,
    current: impl Display,
    lang: Lang,
) -> String {
    match lang {
        Lang::Zh => format!("{who} setData({expected}) → BadVersion，节点已是 v{current}"),
        Lang::En => format!("{who} setData({expected}) -> BadVersion, node at v{current}"),
    }
}

/// The mark after a write that wiped out another client's update.
pub fn data_wipes(lost: &str, version: impl Display, lang: Lang) -> String {
    match lang {
        Lang::Zh => format!("  ✗ 抹掉了 {lost} 的 v{version}"),
        Lang::En => format!("  ✗ wipes out {lost}'s v{version}"),
    }
}
