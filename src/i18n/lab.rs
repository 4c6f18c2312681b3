//! The simulation screens' words: the legend, markers, windows, the event log, the sequence
//! chart, the service panel, compare, key help and the status line. Each key sits beside its
//! words in both languages.

use crate::engine::actors::redis_node::{RedisCmd, RedisReply};
use crate::engine::msg::{ActorMsg, ZkOp, ZkResult};
use crate::engine::trace::Trace;
use crate::engine::zk::tree::{WatchEvent, Watched};
use crate::view::{Class, Mark};

use super::{Lang, words};

words! {
    /// A word or sentence of the lab screens.
    pub enum Lab =>
    /// The words for `key` in `lang`; a `{}` is a place for a number or a name.
    pub fn lab;
    Legend => ("图例", "legend"),
    FutureHidden => ("未来隐藏", "future hidden"),
    WholeRun => ("全程可见", "whole run"),
    PaceEvents => ("按事件", "by event"),
    PaceTime => ("按时间", "by time"),
    Zoom => ("缩放", "zoom"),
    Events => ("事件", "Events"),
    EventsHidden => (
        "……后面还有 {}（按 v 显示全程）",
        "... {} hidden (v shows the whole run)",
    ),
    EventsNone => ("还没有事件发生。", "Nothing has happened yet."),
    Sequence => ("消息时序图", "Message sequence"),
    SequenceEmpty => (
        "光标之前还没有消息。",
        "No message has been sent before the cursor.",
    ),
    HeartbeatsShown => ("心跳：显示", "heartbeats: shown"),
    SeqBeats => ("心跳 ×{}", "heartbeats ×{}"),
    SeqFroze => ("{a} 被冻结（什么也做不了，什么也收不到）", "{a} freezes (does nothing, hears nothing)"),
    SeqWoke => ("{a} 醒来", "{a} wakes"),
    HeartbeatsFaint => ("心跳：淡化", "heartbeats: faint"),
    HeartbeatsHidden => ("心跳：隐藏", "heartbeats: hidden"),
    LockDir => ("锁目录 /lock，{} 秒时", "Lock directory /lock at {} s"),
    FirstHolds => ("排第一：持锁", "first: holds the lock"),
    NoChildren => ("（没有子节点）", "(no children)"),
    Watches => ("监听", "watches"),
    NoWatches => ("（没有监听）", "(no watch)"),
    NotYet => ("（还没有节点）", "(no node yet)"),
    DangerBand => ("危险窗口 {} 秒", "danger window {} s"),
    DangerBandOpen => ("危险窗口", "danger window"),
    Overview => ("全程", "whole run"),
    TrackSide => ("不变量", "invariants"),
    StoryAt => ("{t} 秒：{}", "{t} s: {}"),
    StoryGrant => ("{a} 拿到锁，从此持有", "{a} holds the lock"),
    StoryRelease => ("{a} 发出释放锁的请求", "{a} sends its release"),
    StoryExpiry => (
        "{a} 在服务端过期：服务收回 {a} 所持的一切，不管 {a} 自己怎么认为",
        "{a} expires at the service: it takes back whatever {a} had, whatever {a} believes",
    ),
    StoryLearnedLost => (
        "{a} 这才得知自己已失去锁",
        "{a} learns that it has lost the lock",
    ),
    StoryStaleAccepted => (
        "{a} 的陈旧写入被资源接受了：它已不持锁，写入却生效",
        "{a}'s stale write is accepted: it no longer holds, yet the write counts",
    ),
    StoryStaleRefused => (
        "{a} 的陈旧写入被拒：资源认出它已过时",
        "{a}'s stale write is refused: the resource knows it is out of date",
    ),
    StoryBroken => ("「{a}」从这里开始不成立", "\"{a}\" breaks here"),
    BadgesAtCursor => ("（光标处）", "(at the cursor)"),
    BadgesWholeRun => ("（全程）", "(whole run)"),
    BadgesAllHold => ("全部成立", "all hold"),
    BlindBand => ("{} 断网未察觉", "{} blind"),
    AwayBand => ("{} 已知断连", "{} disconnected"),
    PartAt => (
        "两次运行从 {} 秒的第 {} 个事件开始不同（◇ 处）",
        "The runs part at {} s, event {} (marked ◇)",
    ),
    PartAhead => (
        "两次运行是否、在哪里不同，要等光标走到那里才显示（v 显示全程）。",
        "Whether and where the runs part shows once the cursor gets there (v shows the whole run).",
    ),
    SameRun => (
        "翻转「{}」在这次运行里什么也没改变：两次运行的每个事件都一样。",
        "Flipping \"{}\" changes nothing in this run: every event of the two runs is the same.",
    ),
    WhyWatch => (
        "链式和羊群只在一次释放时有不止一个等待者才有区别。",
        "Chain and herd only differ when a release finds more than one waiter.",
    ),
    WhyRecovery => (
        "恢复方式只在创建的响应丢失时才起作用。",
        "The recovery only matters when a create's reply is lost.",
    ),
    WhyRegistration => (
        "两种监听写法只在前驱恰好在读取和监听之间消失时才有区别。",
        "The two watch registrations only differ when the node ahead vanishes between the read and the watch.",
    ),
    WhyFencing => (
        "栅栏令牌只在陈旧写入到达资源时才起作用。",
        "Fencing only matters when a stale write reaches the resource.",
    ),
    WhyOnLoss => (
        "失锁后怎么做，只在持锁者得知会话过期之后才起作用。",
        "What a holder does on loss only matters once it learns its session has expired.",
    ),
    WhyOnTimeout => (
        "超时后怎么处理节点，只在有客户端的加锁调用超时之后才起作用。",
        "What a timed-out acquire does with its node only matters once some client's acquire times out.",
    ),
    WhyFrozenFencing => (
        "栅栏令牌只在 A 的写入晚于租约到期到达时才起作用。",
        "Fencing only matters when A's write arrives after its lease expired.",
    ),
    Locked => (
        "「{}」被本预设锁定，不能调整。",
        "\"{}\" is locked by this preset and cannot be changed.",
    ),
    LockedHint => ("[本预设锁定了参数]", "[parameters locked by this preset]"),
    NoViolation => (
        "这次运行没有违反任何不变量。",
        "No invariant is violated in this run.",
    ),
    NoMoment => (
        "这个方向没有更多关键时刻。",
        "No more key moments that way.",
    ),
    MomentFirst => (
        "已是第一个关键时刻（{t} 秒），前面没有了。",
        "First key moment ({t} s): there is none before it.",
    ),
    MomentLast => (
        "已是最后一个关键时刻（{t} 秒），后面没有了。",
        "Last key moment ({t} s): there is none after it.",
    ),
    Deadline => ("租约截止 {} 秒", "lease deadline {} s"),
    Verdicts => ("结论", "verdict"),
    FlippedRun => ("翻转后", "flipped"),
    ThisRun => ("本次", "this run"),
    HerdSideBySide => (
        "同样 N = {}：左边链式（k = 1），右边羊群（k = N）。横向是时间，每行一次释放。",
        "Same N = {}: chain (k = 1) on the left, herd (k = N) on the right. Across is time, one row per release.",
    ),
    Release => ("次序", "#"),
    Woken => ("唤醒", "woken"),
    HerdKeyWasted => ("无效唤醒：醒来读一次，没拿到锁", "wasted read: woken, read, did not get the lock"),
    HerdKeyWinner => ("拿到锁的人：先读取，再持锁", "winner: its read, then its hold"),
    HerdKeyWoken => ("「唤醒」列：这次释放唤醒的人数", "\"woken\": waiters this release woke"),
    Time => ("时间", "time"),
    KeyReveal => (
        "显示/隐藏未来（看全程）",
        "show / hide the future (the whole run)",
    ),
    KeyPace => (
        "播放节奏：按事件 / 按时间",
        "playback pace: by event / by time",
    ),
    KeyZoom => (
        "放大/缩小时间轴（0 复原）",
        "zoom the time axis in / out (0 resets)",
    ),
    KeyPan => ("左右平移时间轴", "pan the time axis"),
    KeyMoment => ("下一个/上一个关键时刻", "next / previous key moment"),
    KeyViolation => ("跳到第一次违反不变量", "jump to the first violation"),
    KeySequence => ("消息时序图 / 泳道", "message sequence chart / lanes"),
    KeyHeartbeats => (
        "时序图中的心跳：显示、淡化、隐藏",
        "heartbeats in the sequence chart: shown, faint, hidden",
    ),
    KeyLogMove => (
        "在事件列表（或时序图）中选择",
        "choose in the event log (or chart)",
    ),
    KeyLogPage => ("事件列表（或时序图）翻页", "page the event log (or chart)"),
    KeyLogEnter => ("光标移到所选事件", "move the cursor to the chosen event"),
    KeyMouseLog => (
        "点击事件列表中的一行，光标移过去；滚轮滚动",
        "click an event in the log to move the cursor there; the wheel scrolls",
    ),
    KeyHerdRows => (
        "滚动释放行（也可用滚轮）",
        "scroll the release rows (the wheel too)",
    ),
    KeyPresentReveal => ("揭晓答案和结论", "reveal the answer and the verdict"),
    KeyPredict => ("预测模式：开 / 关", "prediction mode on / off"),
    KeyPredictPick => ("选择你的预测", "pick your prediction"),
    KeyPredictLab => (
        "先预测再看：从头隐藏后续，提出这次运行的问题",
        "predict first: rewind, hide the future and ask the run's question",
    ),
    HintSliders => ("↑↓←→ 滑块", "↑↓←→ sliders"),
    HintPlay => ("空格 播放", "Space play"),
    HintEvent => (",/. 事件", ",/. event"),
    HintMoment => ("n/N 关键时刻", "n/N moment"),
    HintReveal => ("v 全程", "v reveal"),
    HintSequence => ("m 时序图", "m sequence"),
    HintCompare => ("c 对比", "c compare"),
    HintKeys => ("? 按键", "? keys"),
    HintBack => ("q 返回", "q back"),
    HintPreset => ("p 预设", "p preset"),
    HintPredict => ("P 先预测", "P predict"),
    HintRecipe => ("w r a f s 做法", "w r a f s recipe"),
    HintZoom => ("z/Z 缩放", "z/Z zoom"),
    HintRows => ("j/k 滚动", "j/k scroll"),
    HintLog => ("J/K 事件列表", "J/K log"),
    Outcome => ("结果", "outcome"),
    Badges => ("不变量", "invariants"),
    VerdictHidden => (
        "结论：先预测一下，再按 v 看全程",
        "verdict: predict it first, then v shows the whole run",
    ),
    OutcomeHidden => (
        "（结果在看完全程后显示）",
        "(shown once the whole run is revealed)",
    ),
    Resource => ("资源", "resource"),
    TokenCzxid => ("令牌取 czxid", "token: czxid"),
    TokenSequence => ("令牌取序号", "token: sequence number"),
    KeyToken => (
        "令牌来源：czxid/序号",
        "token source: czxid / sequence number",
    ),
    WhyToken => (
        "令牌来源只在序号重新开始（目录被删后重建、序号回绕）时才有区别。",
        "Where the token comes from only matters once the sequence numbers start again (a re-created directory, a wrap).",
    ),
    DataUnconditional => ("setData 版本 -1", "setData version -1"),
    DataConditional => ("setData 带读到的版本", "setData with the version read"),
    KeyDataWrite => (
        "数据写入：版本 -1/读到的版本",
        "data write: version -1 / the version read",
    ),
    WhyDataWrite => (
        "期望版本只在读过之后有别人写过时才有区别。",
        "The expected version only matters when someone else wrote after the holder's read.",
    ),
    /// The data node's heading in the service panel: path, version, counter.
    DataNode => (
        "数据节点 {}：版本 {}，计数 {}",
        "Data node {}: version {}, counter {}",
    ),
    DiscSuspend => ("断连时挂起", "on disconnect: suspend"),
    DiscCarryOn => ("断连时照做", "on disconnect: carry on"),
    TimeoutDelete => ("超时删节点", "timeout: delete node"),
    TimeoutForget => ("超时不删节点", "timeout: forget node"),
    KeyOnTimeout => (
        "超时后：删节点/不管",
        "on timeout: delete / forget the node",
    ),
    KeyOnDisconnect => ("断连时：挂起/照做", "on disconnect: suspend / carry on"),
    WhyOnDisconnect => (
        "断连时怎么做，只在持锁者断连期间还要做事时才起作用。",
        "What a holder does while disconnected only matters when it has work to do while cut off.",
    ),
    WakeupsHidden => (
        "每次释放唤醒与全程小结：?（按 v 看全程）",
        "wake-ups and the run's summary: ? (v shows the whole run)",
    ),
    PresetModified => ("{}，已改：{}", "{}, modified: {}"),
    AboutModified => (
        "这已不是预设原来的运行（现在是：{}），预设的说明不再适用；把设置改回去即可重看。",
        "No longer the preset's own run (now: {}), so its story does not describe it; flip the setting back to see it again.",
    ),
    RunSummary => (
        "全程：重复节点 {dup} 个  卡死：{stuck}  被接受的陈旧写入 {stale} 次",
        "whole run: duplicate nodes {dup}  stuck: {stuck}  stale writes accepted {stale}",
    ),
}

/// The legend's name for a class of lane states.
pub fn class_name(c: Class, lang: Lang) -> &'static str {
    let (zh, en) = match c {
        Class::Holding => ("持锁", "holding"),
        Class::FrozenHolding => ("冻结，自认持锁", "frozen, believes it holds"),
        Class::Frozen => ("冻结", "frozen"),
        Class::Suspended => ("挂起", "suspended"),
        Class::Reading => ("持读锁（共享）", "reading (shared)"),
        Class::Waiting => ("等待", "waiting"),
        Class::Busy => ("与服务往来", "talking to the service"),
        Class::Unknown => ("结果未知", "outcome unknown"),
        Class::Lost => ("已知失锁", "knows it lost"),
        Class::Stuck => ("卡死", "stuck"),
        Class::Crashed => ("崩溃", "crashed"),
        Class::Released => ("已释放", "released"),
        Class::ServiceHeld => ("服务认定的持锁者", "held, in the service's view"),
        Class::Value => ("资源里的值", "the resource's value"),
        Class::Abandoned => ("放弃等待，节点留在队里", "gave up, node left in the queue"),
        Class::Overdue => (
            "有效期已过，仍自认持锁",
            "believes it holds past its validity",
        ),
        Class::Duplicate => ("重复发生", "happened twice"),
        Class::Refusing => ("暂不受理请求", "turning requests down"),
        Class::Nothing => ("空闲", "nothing"),
    };
    lang.pick(zh, en)
}

/// The legend's name for a marker.
pub fn mark_name(m: Mark, lang: Lang) -> &'static str {
    let (zh, en) = match m {
        Mark::WriteOk => ("写入被接受", "write accepted"),
        Mark::WriteRefused => ("写入被拒", "write refused"),
        Mark::WriteStale => ("陈旧写入被接受", "stale write accepted"),
        Mark::Grant => ("拿到锁", "granted"),
        Mark::Wake => ("通知、唤醒", "notified, woken"),
        Mark::Keepalive => ("续约", "keepalive"),
        Mark::Deadline => ("租约截止", "lease deadline"),
        Mark::Expired => ("过期", "expired"),
        Mark::Differs => ("两次运行分岔处", "where the runs part"),
    };
    lang.pick(zh, en)
}

/// `n` followed by a noun, singular or plural in English (Chinese has one form).
pub fn count(n: u64, zh: &str, one: &str, many: &str, lang: Lang) -> String {
    match lang {
        Lang::Zh => format!("{n} {zh}"),
        Lang::En if n == 1 => format!("{n} {one}"),
        Lang::En => format!("{n} {many}"),
    }
}

fn seq(trace: &Trace, n: crate::engine::zk::tree::NodeId) -> String {
    trace.seq(n)
}

/// The data node's path, when `node` is the data node an A/B/C run protects.
fn data_path(trace: &Trace, node: crate::engine::zk::tree::NodeId) -> Option<&'static str> {
    let data = crate::engine::families::abc::metrics(trace)?
        .data
        .as_ref()?;
    (!trace.nodes.iter().any(|n| n.id == node)).then_some(data.path)
}

/// A message in a few words, for the sequence chart's arrows.
pub fn msg_label(m: &ActorMsg, trace: &Trace, lang: Lang) -> String {
    let zh = lang == Lang::Zh;
    let watch = |w: bool| if w { "+watch" } else { "" };
    match m {
        ActorMsg::ZkRequest { op, .. } => match op {
            ZkOp::Create { guid, .. } => format!("create {guid:08x}"),
            ZkOp::GetChildren { watch: w, .. } => format!("getChildren{}", watch(*w)),
            ZkOp::Exists { node, watch: w } => format!("exists {}{}", seq(trace, *node), watch(*w)),
            ZkOp::Delete { node, .. } => format!("delete {}", seq(trace, *node)),
            ZkOp::SetData { node, version, .. } => match data_path(trace, *node) {
                Some(path) => format!("setData {path} v{version}"),
                None => format!("setData {}", seq(trace, *node)),
            },
            ZkOp::GetData { node, watch: w } => match data_path(trace, *node) {
                Some(path) => format!("getData {path}{}", watch(*w)),
                None => format!("getData {}{}", seq(trace, *node), watch(*w)),
            },
            ZkOp::NewSession { .. } => lang.pick("新建会话", "new session").into(),
            ZkOp::Ping => "ping".into(),
            ZkOp::Connect { watches, .. } => {
                if zh {
                    format!("重连（{} 个监听）", watches.len())
                } else {
                    format!(
                        "reconnect ({})",
                        count(watches.len() as u64, "", "watch", "watches", lang)
                    )
                }
            }
            ZkOp::Close => lang.pick("关闭会话", "close").into(),
        },
        ActorMsg::ZkReply { result, .. } => match result {
            ZkResult::Created { node, .. } => {
                format!("{} {}", lang.pick("已创建", "created"), seq(trace, *node))
            }
            ZkResult::Children { children } => {
                let mut s: Vec<i32> = children.iter().map(|c| c.seq).collect();
                s.sort_unstable();
                let list: Vec<String> = s.iter().map(i32::to_string).collect();
                format!("[{}]", list.join(","))
            }
            ZkResult::Exists { stat: Some(_) } => lang.pick("存在", "exists").into(),
            ZkResult::Exists { stat: None } => lang.pick("不存在", "no node").into(),
            ZkResult::Data { value, version } => format!("{value} v{version}"),
            ZkResult::Done => "ok".into(),
            ZkResult::Set { version } => format!("ok v{version}"),
            ZkResult::NoNode => lang.pick("无此节点", "no node").into(),
            ZkResult::BadVersion => lang.pick("版本不符", "bad version").into(),
            ZkResult::Pong => "pong".into(),
            ZkResult::Connected => lang.pick("已重连", "connected").into(),
            ZkResult::SessionExpired => lang.pick("会话已过期", "session expired").into(),
            ZkResult::SessionOpened { .. } => lang.pick("新会话已建立", "new session").into(),
        },
        ActorMsg::ZkWatch { event, target, .. } => {
            let what = match target {
                Watched::Node(n) => seq(trace, *n),
                Watched::Children(_) => lang.pick("子节点", "children").into(),
            };
            match event {
                WatchEvent::NodeDeleted => {
                    format!("{} {what}", lang.pick("通知：已删除", "fired: deleted"))
                }
                WatchEvent::NodeChildrenChanged => lang
                    .pick("通知：子节点变了", "fired: children changed")
                    .into(),
                _ => format!("{} {what}", lang.pick("通知", "fired")),
            }
        }
        ActorMsg::Acquire => lang.pick("请求加锁", "acquire").into(),
        ActorMsg::Granted { token, .. } => format!("{} #{token}", lang.pick("授予", "granted")),
        ActorMsg::Busy => lang.pick("忙", "busy").into(),
        ActorMsg::Keepalive { merged } if *merged > 1 => {
            format!("{} ×{merged}", lang.pick("续约", "keepalive"))
        }
        ActorMsg::Keepalive { .. } => lang.pick("续约", "keepalive").into(),
        ActorMsg::Renewed { deadline_ms } => format!(
            "{} → {} s",
            lang.pick("已续约", "renewed"),
            crate::engine::time::fmt_secs(*deadline_ms)
        ),
        ActorMsg::Refused => lang.pick("拒绝", "refused").into(),
        ActorMsg::Release => lang.pick("释放", "release").into(),
        ActorMsg::Write { token } => format!("{} #{token}", lang.pick("写入", "write")),
        ActorMsg::RowRead { row } => format!("SELECT #{row}"),
        ActorMsg::RowScan => "SELECT due".into(),
        ActorMsg::RowClaimNext { .. } => "UPDATE … SKIP LOCKED".into(),
        ActorMsg::RowCandidates { mask } => {
            format!("{} {}", lang.pick("可领", "claimable"), mask.count_ones())
        }
        ActorMsg::RowValue { row, .. } => format!("{} #{row}", lang.pick("行", "row")),
        ActorMsg::RowUpdate { row, op, .. } => format!("UPDATE #{row} {}", row_op(*op)),
        ActorMsg::RowDone { affected, .. } => {
            format!("{affected} {}", lang.pick("行受影响", "row(s)"))
        }
        ActorMsg::Effect { task, .. } => format!("{} #{task}", lang.pick("外部操作", "effect")),
        ActorMsg::Redis { cmd, .. } => match cmd {
            RedisCmd::Set { ttl_ms, .. } => format!("SET NX PX {ttl_ms}"),
            RedisCmd::Get => "GET".into(),
            RedisCmd::DelIfValue { .. } => lang.pick("比较后删除", "compare-and-delete").into(),
            RedisCmd::Del => "DEL".into(),
        },
        ActorMsg::RedisReply { reply, .. } => match reply {
            RedisReply::Ok => "OK".into(),
            RedisReply::Nil => "nil".into(),
            RedisReply::Value { value: Some(v) } => format!("{v:08x}"),
            RedisReply::Value { value: None } => "nil".into(),
            RedisReply::Deleted { count } => format!("({count})"),
        },
        ActorMsg::Etcd(req) => etcd_req(*req),
        ActorMsg::EtcdReply(reply) => etcd_reply(*reply, lang),
        ActorMsg::ClaimWorker { worker, .. } => {
            format!("{} {worker}", lang.pick("申请 worker", "claim worker"))
        }
        ActorMsg::WorkerClaimed { granted, .. } => lang
            .pick(
                if *granted { "批准" } else { "拒绝" },
                if *granted { "granted" } else { "refused" },
            )
            .into(),
    }
}

/// An etcd request as the sequence chart names it: the API's own words.
fn etcd_req(req: crate::engine::actors::etcd_leader::EtcdReq) -> String {
    use crate::engine::actors::etcd_leader::EtcdReq;
    match req {
        EtcdReq::Grant { ttl_s } => format!("LeaseGrant {ttl_s}s"),
        EtcdReq::KeepAlive { .. } => "LeaseKeepAlive".into(),
        EtcdReq::LockTxn { .. } => "Txn put lock key".into(),
        EtcdReq::GetAhead { max_create_rev } => format!("Get ≤ rev {max_create_rev}"),
        EtcdReq::Watch { create_rev, .. } => format!("Watch rev {create_rev}"),
        EtcdReq::Unlock { .. } => "Delete lock key".into(),
        EtcdReq::Revoke { .. } => "LeaseRevoke".into(),
        EtcdReq::DataTxn { token, .. } => format!("Txn if rev = {token}, put data"),
    }
}

fn etcd_reply(reply: crate::engine::actors::etcd_leader::EtcdReply, lang: Lang) -> String {
    use crate::engine::actors::etcd_leader::EtcdReply;
    match reply {
        EtcdReply::Granted { lease, ttl_s } => format!("lease {lease:x} TTL {ttl_s}"),
        EtcdReply::KeepAlive { ttl_s, .. } => format!("TTL {ttl_s}"),
        EtcdReply::LockTxn { my_rev, owner_rev } => format!("rev {my_rev}, owner {owner_rev}"),
        EtcdReply::Ahead {
            ahead: Some((_, rev)),
            ..
        } => format!("rev {rev}"),
        EtcdReply::Ahead { ahead: None, .. } => lang.pick("前面没有键", "none ahead").into(),
        EtcdReply::Deleted { delete_rev, .. } => format!("DELETE @{delete_rev}"),
        EtcdReply::DataTxn { succeeded, .. } => lang
            .pick(
                if succeeded { "成功" } else { "失败" },
                if succeeded { "succeeded" } else { "failed" },
            )
            .into(),
    }
}

/// A conditional statement's purpose, as the sequence chart names it.
fn row_op(op: crate::engine::msg::RowOp) -> &'static str {
    use crate::engine::msg::RowOp;
    match op {
        RowOp::Claim => "claim",
        RowOp::Renew => "renew",
        RowOp::Complete => "complete",
        RowOp::TakeOver => "take over",
        RowOp::Submit => "submit",
        RowOp::Cancel => "cancel",
        RowOp::RequestCancel => "request cancel",
        RowOp::Reschedule => "reschedule",
        RowOp::Fail => "fail",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_agree_in_number() {
        assert_eq!(count(1, "个", "session", "sessions", Lang::En), "1 session");
        assert_eq!(
            count(2, "个", "session", "sessions", Lang::En),
            "2 sessions"
        );
        assert_eq!(count(1, "个", "session", "sessions", Lang::Zh), "1 个");
    }
}
