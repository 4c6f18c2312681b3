//! Every user-facing word about a simulation, in Simplified Chinese and English.
//!
//! The engine hands over structured facts; this module puts them into sentences.

use crate::engine::time::fmt_secs;
use crate::engine::trace::{Event, EventKind, State, Verdict};

#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Lang {
    Zh,
    #[default]
    En,
}

impl Lang {
    /// `zh` when LC_ALL, LC_MESSAGES or LANG (the first one set) begins with `zh`; else English.
    pub fn from_env() -> Self {
        let var = ["LC_ALL", "LC_MESSAGES", "LANG"]
            .iter()
            .filter_map(|k| std::env::var(k).ok())
            .find(|v| !v.is_empty())
            .unwrap_or_default();
        if var.to_ascii_lowercase().starts_with("zh") {
            Lang::Zh
        } else {
            Lang::En
        }
    }

    pub fn parse(s: &str) -> Option<Self> {
        match s.to_ascii_lowercase().as_str() {
            "zh" | "zh-cn" | "zh_cn" | "cn" => Some(Lang::Zh),
            "en" | "en-us" | "en_us" => Some(Lang::En),
            _ => None,
        }
    }

    pub fn code(self) -> &'static str {
        match self {
            Lang::Zh => "zh",
            Lang::En => "en",
        }
    }

    pub fn toggle(self) -> Self {
        match self {
            Lang::Zh => Lang::En,
            Lang::En => Lang::Zh,
        }
    }

    /// Picks the string for this language.
    pub fn pick<'a>(self, zh: &'a str, en: &'a str) -> &'a str {
        match self {
            Lang::Zh => zh,
            Lang::En => en,
        }
    }
}

/// A short label for a lane state.
pub fn state_label(state: State, lang: Lang) -> &'static str {
    let (zh, en) = match state {
        State::Idle => ("空闲", "idle"),
        State::Creating => ("创建中", "creating"),
        State::CreateUnknown => ("结果未知", "outcome unknown"),
        State::Reading => ("读取中", "reading"),
        State::Waiting => ("等待", "waiting"),
        State::Held => ("持锁", "holding"),
        State::FrozenHolding => ("停顿中（自认持锁）", "frozen, still believes it holds"),
        State::Frozen => ("停顿中", "frozen"),
        State::Suspended => ("挂起", "suspended"),
        State::Lost => ("已知失锁", "knows it lost"),
        State::Released => ("已释放", "released"),
        State::Stuck => ("卡死", "stuck"),
        State::Crashed => ("崩溃", "crashed"),
        State::Retrying => ("重试中", "retrying"),
        State::Written => ("已写入", "has written"),
        State::Queue => ("队列", "queue"),
        State::LeaseLive => ("租约有效", "lease live"),
        State::Free => ("空闲（无人持锁）", "free"),
        State::Empty => ("无值", "empty"),
        State::Value => ("有值", "value"),
    };
    lang.pick(zh, en)
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
            "过期写入被拒：资源看到更大的令牌，拒绝了 A 的旧令牌。"
        }
        (Verdict::StaleWriteRejected, Lang::En) => {
            "Stale write rejected: the resource had seen a larger token and refused A's old one."
        }
        (Verdict::StaleWriteAccepted, Lang::Zh) => {
            "过期写入被接受：它赶在 B 写入之前到达。栅栏令牌只保证顺序，不保证互斥。"
        }
        (Verdict::StaleWriteAccepted, Lang::En) => {
            "Stale write accepted: it arrived before B had written. Fencing gives ordering, not exclusion."
        }
        (Verdict::Corruption, Lang::Zh) => "数据损坏：A 的过期写入覆盖了 B 已被接受的写入。",
        (Verdict::Corruption, Lang::En) => {
            "Corruption: A's stale write overwrote B's accepted write."
        }
        (Verdict::Unresolved, Lang::Zh) => "未决：运行结束时 A 的写入还没到达。",
        (Verdict::Unresolved, Lang::En) => "Unresolved: the run ended before A's write arrived.",
    }
}

/// A short name for a verdict (the JSON name in English, a phrase in Chinese).
pub fn verdict_short(v: Verdict, lang: Lang) -> &'static str {
    match lang {
        Lang::En => v.name(),
        Lang::Zh => match v {
            Verdict::NoIncident => "无事发生",
            Verdict::HolderStopped => "持锁者自停",
            Verdict::StaleWriteRejected => "过期写入被拒",
            Verdict::StaleWriteAccepted => "过期写入被接受",
            Verdict::Corruption => "数据损坏",
            Verdict::Unresolved => "未决",
        },
    }
}

/// The name of an invariant badge.
pub fn invariant_label(name: &str, lang: Lang) -> &'static str {
    use crate::engine::trace::invariant::*;
    match (name, lang) {
        (ONE_HOLDER, Lang::Zh) => "单一持锁者",
        (ONE_HOLDER, Lang::En) => "one holder",
        (TOKENS_NON_DECREASING, Lang::Zh) => "令牌不回退",
        (TOKENS_NON_DECREASING, Lang::En) => "tokens non-decreasing",
        (NO_ORPHAN_NODE, Lang::Zh) => "无孤儿节点",
        (NO_ORPHAN_NODE, Lang::En) => "no orphan node",
        (NOBODY_STUCK, Lang::Zh) => "无人卡死",
        (NOBODY_STUCK, Lang::En) => "nobody stuck",
        (_, Lang::Zh) => "不变式",
        (_, Lang::En) => "invariant",
    }
}

/// The sequence number at the end of a node name, for shorter sentences.
fn short(node: &str) -> String {
    node.rsplit("lock-")
        .next()
        .map_or(node, |s| s.trim_start_matches('0'))
        .to_string()
}

fn list(items: &[String], lang: Lang) -> String {
    if items.is_empty() {
        return lang.pick("无人", "nobody").to_string();
    }
    items.join(lang.pick("、", ", "))
}

/// One or two plain sentences explaining an event.
pub fn describe(e: &Event, lang: Lang) -> String {
    let who = e.actor.as_str();
    let zh = lang == Lang::Zh;
    use EventKind::*;
    match &e.kind {
        LeaseGranted {
            holder,
            token,
            deadline_ms: Some(deadline),
        } => {
            let d = fmt_secs(*deadline);
            if zh {
                format!("服务把锁授予 {holder}，栅栏令牌 {token}，租约截止于 {d} 秒。")
            } else {
                format!(
                    "The service grants the lock to {holder} with fencing token {token}; the lease runs until {d} s."
                )
            }
        }
        LeaseGranted {
            holder,
            token,
            deadline_ms: None,
        } => {
            if zh {
                format!("服务把锁授予 {holder}，栅栏令牌 {token}；{holder} 一直续约到运行结束。")
            } else {
                format!(
                    "The service grants the lock to {holder} with fencing token {token}; {holder} keeps it to the end of the run."
                )
            }
        }
        LeaseReleaseSent => {
            if zh {
                format!("{who} 完成工作，释放锁。")
            } else {
                format!("{who} finishes its work and releases the lock.")
            }
        }
        KeepaliveSent { merged } if *merged > 1 => {
            if zh {
                format!("{who} 醒来，把停顿期间错过的 {merged} 次续约合并成一次发出。")
            } else {
                format!(
                    "{who} wakes and sends the {merged} keepalives it missed while frozen as one."
                )
            }
        }
        KeepaliveSent { .. } => {
            if zh {
                format!("{who} 发出续约。")
            } else {
                format!("{who} sends a keepalive.")
            }
        }
        KeepaliveRenewed { deadline_ms } => {
            let d = fmt_secs(*deadline_ms);
            if zh {
                format!("续约在截止前到达，租约延长到 {d} 秒。")
            } else {
                format!(
                    "The keepalive arrives before the deadline: the lease now runs until {d} s."
                )
            }
        }
        KeepaliveRefused => {
            if zh {
                "续约到达时租约已经过期，服务拒绝续约。".into()
            } else {
                "The keepalive arrives after the lease expired; the service refuses it.".into()
            }
        }
        LeaseExpired { holder } => {
            if zh {
                format!("{holder} 的租约到期，锁从此刻起空闲。{holder} 自己并不知道。")
            } else {
                format!(
                    "{holder}'s lease expires and the lock is free from this instant. {holder} does not know."
                )
            }
        }
        LearnedLeaseLost => {
            if zh {
                format!("{who} 收到拒绝，这才知道自己的租约已经没了。")
            } else {
                format!("{who} receives the refusal and only now learns its lease is gone.")
            }
        }
        AcquireRequested => {
            if zh {
                format!("{who} 请求获取锁。")
            } else {
                format!("{who} asks for the lock.")
            }
        }
        AcquireRefused { holder } => {
            if zh {
                format!("锁仍被 {holder} 持有，请求被拒绝。")
            } else {
                format!("The lock is still held by {holder}; the request is refused.")
            }
        }
        LearnedGrant { token } => {
            if zh {
                format!("{who} 得知自己拿到了锁，令牌 {token}。")
            } else {
                format!("{who} learns it holds the lock, with token {token}.")
            }
        }
        Released { holder } => {
            if zh {
                format!("服务收到 {holder} 的释放，锁空闲。")
            } else {
                format!("The service receives {holder}'s release; the lock is free.")
            }
        }
        ReleaseIgnored => {
            if zh {
                "释放到达时这把锁早已不属于发送者，服务忽略它。".into()
            } else {
                "The release arrives for a lock the sender no longer owns; the service ignores it."
                    .into()
            }
        }
        Froze { until_ms } => {
            let u = fmt_secs(*until_ms);
            if zh {
                format!("{who} 进入全停顿（GC），到 {u} 秒前什么也做不了，也不发续约。")
            } else {
                format!(
                    "{who} freezes in a stop-the-world pause until {u} s: it does nothing and sends nothing."
                )
            }
        }
        Woke => {
            if zh {
                format!("{who} 从停顿中醒来，继续执行停顿前的代码。")
            } else {
                format!("{who} wakes and carries on exactly where it stopped.")
            }
        }
        Disconnected { until_ms } => {
            let u = fmt_secs(*until_ms);
            if zh {
                format!("{who} 与协调服务断连，直到 {u} 秒。断连不等于会话过期。")
            } else {
                format!(
                    "{who} loses its connection to the service until {u} s. Disconnected is not expired."
                )
            }
        }
        Reconnected => {
            if zh {
                format!("{who} 重新连上，会话仍然有效。")
            } else {
                format!("{who} reconnects; its session is still valid.")
            }
        }
        Crashed => {
            if zh {
                format!("{who} 崩溃。它的会话要等超时后才会过期。")
            } else {
                format!("{who} crashes. Its session only expires once the timeout passes.")
            }
        }
        SessionOpened {
            session,
            timeout_ms,
        } => {
            let t = fmt_secs(*timeout_ms);
            if zh {
                format!("{who} 建立会话 #{session}，超时 {t} 秒。")
            } else {
                format!("{who} opens session #{session} with a {t} s timeout.")
            }
        }
        SessionExpired {
            session,
            nodes_deleted,
        } => {
            let nodes: Vec<String> = nodes_deleted.iter().map(|n| short(n)).collect();
            if zh {
                format!(
                    "会话 #{session} 结束，服务删除它的临时节点：{}。",
                    list(&nodes, lang)
                )
            } else {
                format!(
                    "Session #{session} ends and the service deletes its ephemeral nodes: {}.",
                    list(&nodes, lang)
                )
            }
        }
        LearnedSessionExpired => {
            if zh {
                format!("{who} 得知会话已过期：它的节点早就没了，不能再做任何受锁保护的事。")
            } else {
                format!(
                    "{who} learns its session has expired: its node is long gone and it must not act under the lock."
                )
            }
        }
        CreateSent { guid } => {
            if zh {
                format!("{who} 请求创建临时顺序节点，名字带上本次请求的 GUID {guid}。")
            } else {
                format!(
                    "{who} asks to create an ephemeral sequential node named with this request's GUID {guid}."
                )
            }
        }
        NodeCreated { node, owner } => {
            let n = short(node);
            if zh {
                format!("服务为 {owner} 创建节点 {n}。")
            } else {
                format!("The service creates node {n} for {owner}.")
            }
        }
        CreateResponseLost { node } => {
            let n = short(node);
            if zh {
                format!("节点 {n} 已经建好，但给客户端的响应丢了。")
            } else {
                format!("Node {n} exists, but the response to the client is lost.")
            }
        }
        CreateOutcomeUnknown => {
            if zh {
                format!("{who} 等不到响应：创建结果未知，不等于失败。")
            } else {
                format!(
                    "{who} gets no response: the outcome is unknown, which is not the same as failed."
                )
            }
        }
        RecoveredNode { node } => {
            let n = short(node);
            if zh {
                format!("{who} 列出子节点，凭 GUID 找回自己的节点 {n}。")
            } else {
                format!("{who} lists the children and finds its own node {n} by its GUID.")
            }
        }
        DuplicateDeleted { node } => {
            let n = short(node);
            if zh {
                format!("{who} 删除同一请求多出来的节点 {n}。")
            } else {
                format!("{who} deletes {n}, an extra node from the same request.")
            }
        }
        ChildrenRead { children, mine } => {
            let kids: Vec<String> = children.iter().map(|n| short(n)).collect();
            let me = mine.as_deref().map(short).unwrap_or_default();
            if zh {
                format!("{who} 读取子节点：{}（自己是 {me}）。", list(&kids, lang))
            } else {
                format!(
                    "{who} reads the children: {} (its own is {me}).",
                    list(&kids, lang)
                )
            }
        }
        ExistsChecked { node, exists, .. } => {
            let n = short(node);
            match (exists, zh) {
                (true, true) => format!("{who} 用 exists 检查 {n} 并同时设置监听：它还在。"),
                (true, false) => format!(
                    "{who} checks {n} with exists and sets a watch in the same step: it is still there."
                ),
                (false, true) => format!("{who} 用 exists 检查 {n}：它已经不在了。"),
                (false, false) => format!("{who} checks {n} with exists: it is already gone."),
            }
        }
        WatchChildren => {
            if zh {
                format!("{who} 监听整个锁目录的子节点变化（羊群写法）。")
            } else {
                format!("{who} watches the whole lock directory's children (the herd recipe).")
            }
        }
        Waiting { on } => {
            let n = short(on);
            if zh {
                format!("{who} 等待 {n} 的删除通知。")
            } else {
                format!("{who} waits for {n} to be deleted.")
            }
        }
        NodeDeleted { node, notified } => {
            let n = short(node);
            if zh {
                format!(
                    "节点 {n} 被删除，通知了 {} 个客户端：{}。",
                    notified.len(),
                    list(notified, lang)
                )
            } else {
                format!(
                    "Node {n} is deleted; {} client(s) notified: {}.",
                    notified.len(),
                    list(notified, lang)
                )
            }
        }
        Notified { path } => {
            if zh {
                format!("{who} 收到关于 {path} 的通知。")
            } else {
                format!("{who} receives a notification about {path}.")
            }
        }
        WokeUp { .. } => {
            if zh {
                format!("{who} 被唤醒。唤醒不等于拿到锁：它必须重新读取。")
            } else {
                format!("{who} wakes up. A wake-up is not a grant: it must read again.")
            }
        }
        Acquired { node, token } => {
            let n = short(node);
            if zh {
                format!("{who} 的节点 {n} 排在最前，拿到锁，令牌 {token}。")
            } else {
                format!("{who}'s node {n} is first: it holds the lock, with token {token}.")
            }
        }
        Suspended => {
            if zh {
                format!("{who} 挂起所有副作用，等确认会话还在再说。")
            } else {
                format!("{who} suspends its side effects until it can confirm its session.")
            }
        }
        Revalidated { still_first } => match (still_first, zh) {
            (true, true) => format!("{who} 重新确认：节点还在且排第一，继续持锁。"),
            (true, false) => format!(
                "{who} revalidates: its node still exists and is first, so it keeps the lock."
            ),
            (false, true) => format!("{who} 重新确认：节点不再排第一。"),
            (false, false) => format!("{who} revalidates: its node is no longer first."),
        },
        ReleaseSent { node } => {
            let n = short(node);
            if zh {
                format!("{who} 释放锁（删除 {n}）。")
            } else {
                format!("{who} releases the lock (deletes {n}).")
            }
        }
        FaultDeletedNode { node, between } => {
            let n = short(node);
            if zh {
                format!("时机不巧：{n} 恰好在 {between} 之间被删除。")
            } else {
                format!("Unlucky timing: {n} is deleted right between {between}.")
            }
        }
        Stuck { waiting_on } => {
            if zh {
                format!("{who} 卡死：它等待的 {waiting_on} 再也不会发来通知。")
            } else {
                format!("{who} is stuck: no notification about {waiting_on} can ever arrive.")
            }
        }
        WriteSent { value, token } => {
            if zh {
                format!("{who} 向资源写入 \"{value}\"，带令牌 {token}。")
            } else {
                format!("{who} writes \"{value}\" to the resource with token {token}.")
            }
        }
        WriteAbandoned => {
            if zh {
                format!("{who} 已知失锁，放弃写入。")
            } else {
                format!("{who} knows it lost the lock and abandons its write.")
            }
        }
        WriteDeferred => {
            if zh {
                format!("{who} 处于挂起状态，推迟写入。")
            } else {
                format!("{who} is suspended and holds its write back.")
            }
        }
        WriteArrived {
            value,
            token,
            accepted,
            last_seen_before,
            fencing,
        } => match (accepted, fencing, zh) {
            (true, true, true) => format!(
                "写入 \"{value}\"（令牌 {token}）到达；资源见过的最大令牌是 {last_seen_before}，{token} ≥ {last_seen_before}，接受。"
            ),
            (true, true, false) => format!(
                "The write \"{value}\" (token {token}) arrives; the largest token seen is {last_seen_before}, and {token} >= {last_seen_before}, so it is accepted."
            ),
            (false, _, true) => format!(
                "写入 \"{value}\"（令牌 {token}）到达；资源见过的最大令牌是 {last_seen_before}，{token} < {last_seen_before}，拒绝。"
            ),
            (false, _, false) => format!(
                "The write \"{value}\" (token {token}) arrives; the largest token seen is {last_seen_before}, and {token} < {last_seen_before}, so it is refused."
            ),
            (true, false, true) => {
                format!("写入 \"{value}\"（令牌 {token}）到达；资源不检查令牌，照单全收。")
            }
            (true, false, false) => format!(
                "The write \"{value}\" (token {token}) arrives; the resource checks no token and takes it."
            ),
        },
        ReleaseRound {
            release,
            woken,
            winner,
            wasted,
            not_notified,
        } => {
            if zh {
                format!(
                    "第 {release} 次释放：唤醒 {woken} 个，第 {winner} 位拿到锁，{wasted} 次白醒，{not_notified} 个未被通知。"
                )
            } else {
                format!(
                    "Release {release}: {woken} woken, position {winner} takes the lock, {wasted} wasted wake-ups, {not_notified} not notified."
                )
            }
        }
        RunEnded => {
            if zh {
                "运行结束。".into()
            } else {
                "The run ends.".into()
            }
        }
    }
}

/// A word or sentence of the terminal screens.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Ui {
    HomeTitle,
    HomeFrozen,
    HomeFrozenAbout,
    HomeAbc,
    HomeHerd,
    HomeHerdAbout,
    HomeHint,
    NeedTerminal,
    Enlarge,
    LaneABelieves,
    LaneService,
    LaneResource,
    LaneDanger,
    Cursor,
    Value,
    Token,
    LastToken,
    LastWriter,
    None,
    FormulaDanger,
    FormulaHandover,
    NotApplicable,
    Verdict,
    Ttl,
    Keepalive,
    PauseStart,
    PauseLen,
    Delay,
    Waiters,
    Fanout,
    GrabCost,
    Hold,
    Fencing,
    StopOnLoss,
    On,
    Off,
    WatchChain,
    WatchHerd,
    RecoveryGuid,
    RecoveryBlind,
    RegAtomic,
    RegTwoStep,
    LossStop,
    LossCarryOn,
    Children,
    Wakeups,
    Preset,
    Notifications,
    Wasted,
    TotalTime,
    Current,
    Chain,
    Herd,
    HerdLegend,
    MoreRows,
    Compare,
    Flipped,
    Event,
    NothingYet,
    Playing,
    Paused,
    Invariants,
    HelpTitle,
    HelpClose,
    FooterFrozen,
    FooterAbc,
    FooterHerd,
    KeyQuit,
    KeyBack,
    KeyHelp,
    KeyLang,
    KeyHomeMove,
    KeyHomeOpen,
    KeySliderSelect,
    KeySliderAdjust,
    KeyStep,
    KeyJump,
    KeyPlay,
    KeySpeed,
    Locked,
    KeyFencing,
    KeyStopOnLoss,
    KeyCompare,
    KeyMouseSlider,
    KeyMouseTimeline,
    KeyPresentNext,
    KeyPresentBack,
    KeyReveal,
    KeyBlank,
    HomePresent,
    KeyPreset,
    KeyWatch,
    KeyRecovery,
    KeyRegistration,
    KeyOnLoss,
    HomeLessons,
    HomeLesson,
    ReaderHint,
    ReaderNoLesson,
    OutlineTitle,
    OutlineClose,
    GlossaryClose,
    GlossaryTitle,
    GlossaryEmpty,
    SearchPrompt,
    SearchNone,
    SearchCount,
    LinkNone,
    LinkUnknown,
    QuizPending,
    KeyScroll,
    KeyPage,
    KeyTopBottom,
    KeyOutline,
    KeySearch,
    KeySearchNext,
    KeyLinks,
    KeyFollow,
    KeyGlossary,
    KeyMouseWheel,
    KeyMouseLink,
    HomeQuizzes,
    HomeReview,
    HomeReviewAbout,
    HomeDeck,
    HomeDeckAbout,
    HomeExam,
    HomeExamAbout,
    HomeProgress,
    HomeProgressAbout,
    HomeDue,
    HomeNoProgress,
    QuizTitle,
    QuizNotes,
    QuizYourAnswer,
    QuizYourOrder,
    QuizTickedScore,
    QuizRate,
    QuizOpenRun,
    QuizNoRun,
    QuizClosedBook,
    QuizConfirmLeave,
    QuizSkipped,
    QuizNotSavedNoFile,
    QuizMore,
    QuizHintRecall,
    QuizHintNotes,
    QuizHintTick,
    QuizHintRate,
    QuizHintChoice,
    QuizHintOrder,
    QuizHintNumber,
    QuizHintOption,
    QuizHintAnswered,
    QuizHintAnsweredModel,
    QuizHintEnd,
    StatsTitle,
    StatsHint,
    StatsNoFile,
    StatsStreak,
    StatsHistory,
    StatsNoSessions,
    StatsLastSession,
    KeyQuizSubmit,
    KeyQuizNotes,
    KeyQuizTick,
    KeyQuizDigits,
    KeyQuizLetters,
    KeyQuizMoveStep,
    KeyQuizOpenRun,
    KeyQuizScroll,
    KeyQuizLeave,
}

/// The words for `t` in `lang`. A `{}` in the result is a place for a number or name.
pub fn ui(t: Ui, lang: Lang) -> &'static str {
    use Ui::*;
    let (zh, en) = match t {
        HomeTitle => (
            "locklab：看分布式锁如何失效",
            "locklab: watch distributed locks fail",
        ),
        HomeFrozen => ("凝固的持锁者", "Frozen holder"),
        HomeFrozenAbout => (
            "租约在全停顿期间过期；拖动滑块，看栅栏令牌能否保住数据。",
            "A lease expires during a stop-the-world pause; move the sliders and see whether fencing saves the data.",
        ),
        HomeAbc => ("A/B/C 排队", "A/B/C queue"),
        HomeHerd => ("羊群效应与链式唤醒", "Herd vs chain"),
        HomeHerdAbout => (
            "N 个等待者排队：每次释放唤醒几个？白醒多少次？",
            "N waiters in a queue: how many does each release wake, and how many wake for nothing?",
        ),
        HomeHint => (
            "上/下 选择   回车 打开   L 切换语言   ? 帮助   q 退出",
            "Up/Down choose   Enter open   L language   ? help   q quit",
        ),
        NeedTerminal => (
            "locklab 的界面需要终端。要纯文本输出，请运行 `locklab sim --help`。",
            "locklab needs a terminal for its screens. For plain output, run `locklab sim --help`.",
        ),
        Enlarge => (
            "请把终端放大到至少 80x24（现在是 {}）。",
            "Please enlarge the terminal to at least 80x24 (now {}).",
        ),
        LaneABelieves => ("A（自认）", "A believes"),
        LaneService => ("服务", "service"),
        LaneResource => ("资源", "resource"),
        LaneDanger => ("危险窗口", "danger"),
        Cursor => ("光标", "cursor"),
        Value => ("取值", "value"),
        Token => ("令牌", "token"),
        LastToken => ("已见最大令牌", "last seen token"),
        LastWriter => ("最后写入者", "last writer"),
        None => ("无", "none"),
        FormulaDanger => (
            "危险窗口 = max(0, A 写入到达 - 租约到期)",
            "danger window = max(0, A's write - lease expiry)",
        ),
        FormulaHandover => (
            "交接延迟 = B 拿到锁 - 租约到期",
            "handover delay = B's acquire - lease expiry",
        ),
        NotApplicable => ("不适用", "n/a"),
        Verdict => ("结论", "verdict"),
        Ttl => ("租约 TTL", "TTL"),
        Keepalive => ("续约间隔", "keepalive"),
        PauseStart => ("停顿开始", "pause start"),
        PauseLen => ("停顿时长", "pause length"),
        Delay => ("网络延迟", "delay"),
        Waiters => ("等待者 N", "waiters N"),
        Fanout => ("扇出 k", "fan-out k"),
        GrabCost => ("抢锁开销", "grab cost"),
        Hold => ("持锁时长", "hold"),
        Fencing => ("栅栏令牌", "fencing"),
        StopOnLoss => ("失锁即停", "stop on loss"),
        On => ("开", "on"),
        Off => ("关", "off"),
        WatchChain => ("监听前驱（链式）", "watch predecessor (chain)"),
        WatchHerd => ("监听子节点（羊群）", "watch children (herd)"),
        RecoveryGuid => ("按 GUID 恢复", "GUID recovery"),
        RecoveryBlind => ("盲目重建", "blind re-create"),
        RegAtomic => ("原子监听", "atomic watch"),
        RegTwoStep => ("两步监听", "two-step watch"),
        LossStop => ("失锁即停", "on loss: stop"),
        LossCarryOn => ("失锁照做", "on loss: carry on"),
        Children => ("子节点", "children"),
        Wakeups => ("每次释放唤醒", "wake-ups per release"),
        Preset => ("预设", "preset"),
        Notifications => ("通知", "notifications"),
        Wasted => ("白醒", "wasted"),
        TotalTime => ("总耗时", "total time"),
        Current => ("当前", "current"),
        Chain => ("链式", "chain"),
        Herd => ("羊群", "herd"),
        HerdLegend => (
            "# 拿到锁   + 白醒   . 未被通知",
            "# takes the lock   + woken for nothing   . not notified",
        ),
        MoreRows => ("……还有 {} 行", "... {} more rows"),
        Compare => ("对比", "compare"),
        Flipped => ("翻转：{}", "flipped: {}"),
        Event => ("事件", "event"),
        NothingYet => ("还没有事件发生。", "Nothing has happened yet."),
        Playing => ("播放中", "playing"),
        Paused => ("已暂停", "paused"),
        Invariants => ("不变式", "invariants"),
        HelpTitle => ("按键", "Keys"),
        HelpClose => ("按 ? 或 Esc 关闭", "? or Esc closes"),
        FooterFrozen => (
            "上/下 滑块  左/右 调整  空格 播放  ,/. 事件  c 对比  ? 按键  q 返回",
            "Up/Down/Left/Right sliders  Space play  ,/. event  c compare  ? keys  q back",
        ),
        FooterAbc => (
            "p 换预设  空格 播放  ,/. 事件  w r a f s 切换做法  c 对比  ? 帮助  q 返回",
            "p preset  Space play  ,/. event  w r a f s recipe  c compare  ? help  q back",
        ),
        FooterHerd => (
            "上/下 滑块  左/右 调整（Shift 大步）  ? 帮助  q 返回",
            "Up/Down slider  Left/Right adjust (Shift: coarse)  ? help  q back",
        ),
        KeyPresentNext => ("下一步", "next step"),
        KeyPresentBack => ("上一步", "previous step"),
        KeyReveal => ("揭晓答案", "reveal the answer"),
        KeyBlank => ("黑屏/恢复", "blank the screen / bring it back"),
        HomePresent => ("演示", "Present"),
        KeyQuit => ("退出", "quit"),
        KeyBack => ("返回主页（在主页则退出）", "back to home (quit from home)"),
        KeyHelp => ("显示或关闭本帮助", "show or close this help"),
        KeyLang => ("切换中文/英文", "switch Chinese/English"),
        KeyHomeMove => ("选择模拟或课程", "choose a simulation or lesson"),
        KeyHomeOpen => ("打开所选项", "open the chosen entry"),
        KeySliderSelect => ("选择滑块", "select a slider"),
        KeySliderAdjust => (
            "调整滑块（Shift 大步）",
            "adjust the slider (Shift: coarse)",
        ),
        KeyStep => ("上一个/下一个事件", "previous/next event"),
        KeyJump => ("跳到开头/结尾", "jump to start/end"),
        KeyPlay => ("播放/暂停", "play/pause"),
        KeySpeed => ("加快/放慢播放", "play faster/slower"),
        Locked => ("[本预设锁定了参数]", "[parameters locked by this preset]"),
        KeyFencing => ("栅栏令牌开/关", "fencing on/off"),
        KeyStopOnLoss => ("失锁即停开/关", "stop on loss on/off"),
        KeyCompare => (
            "对比：翻转一项设置并排显示",
            "compare with one setting flipped",
        ),
        KeyMouseSlider => ("点击/拖动滑块设值", "click/drag a slider to set it"),
        KeyMouseTimeline => (
            "点击/拖动时间线移动光标",
            "click/drag the timeline to move the cursor",
        ),
        KeyPreset => ("下一个/上一个预设", "next/previous preset"),
        KeyWatch => ("链式/羊群监听", "chain/herd watch"),
        KeyRecovery => ("GUID 恢复/盲目重建", "GUID/blind recovery"),
        KeyRegistration => ("原子/两步监听", "atomic/two-step watch"),
        KeyOnLoss => ("失锁即停/照做", "on loss: stop/carry on"),
        HomeLessons => ("课程", "Lessons"),
        HomeLesson => ("第 {} 课", "Lesson {}"),
        ReaderHint => (
            "j/k 滚动  o 目录  / 搜索  Tab/回车 链接  g 术语  ? 按键  q 返回",
            "j/k scroll  o outline  / search  Tab/Enter links  g glossary  ? keys  q back",
        ),
        ReaderNoLesson => ("没有找到这一课。", "This lesson was not found."),
        OutlineTitle => ("目录", "Outline"),
        OutlineClose => ("回车 跳转  o/Esc 关闭", "Enter jumps  o/Esc closes"),
        GlossaryClose => ("上/下 翻看  g/Esc 关闭", "Up/Down browse  g/Esc closes"),
        GlossaryTitle => ("术语", "Glossary"),
        GlossaryEmpty => ("这一课没有术语表。", "This lesson has no glossary."),
        SearchPrompt => ("搜索：", "Search: "),
        SearchNone => ("没有找到「{}」", "No match for \"{}\""),
        SearchCount => (
            "第 {} 处，共 {} 处（n/N 下一处/上一处）",
            "match {} of {} (n/N next/previous)",
        ),
        LinkNone => ("这一课没有链接。", "This lesson has no links."),
        LinkUnknown => ("无法打开这个链接：{}", "Cannot open this link: {}"),
        QuizPending => (
            "闭卷测验「{}」：测验界面尚未开放。",
            "Closed-book quiz \"{}\": the quiz screen is not available yet.",
        ),
        KeyScroll => ("上下滚动一行", "scroll one line"),
        KeyPage => ("上下翻页", "scroll one page"),
        KeyTopBottom => ("跳到开头/结尾", "jump to the top/bottom"),
        KeyOutline => ("目录：跳到某一节", "outline: jump to a section"),
        KeySearch => ("搜索（输入后回车）", "search (type, then Enter)"),
        KeySearchNext => ("下一处/上一处匹配", "next/previous match"),
        KeyLinks => ("下一个/上一个链接", "next/previous link"),
        KeyFollow => ("打开所选链接", "open the selected link"),
        KeyGlossary => ("本课术语（中英对照）", "this lesson's glossary (zh/en)"),
        KeyMouseWheel => ("滚轮滚动", "the wheel scrolls"),
        KeyMouseLink => (
            "点击链接选中，再点一次打开",
            "click a link to select it, again to open it",
        ),
        HomeQuizzes => ("闭卷测验", "Closed-book quizzes"),
        HomeReview => ("现在复习（{} 题到期）", "Review now ({} due)"),
        HomeReviewAbout => (
            "今天到期的题目，按复习计划出题。",
            "The questions due for review today, as the schedule asks.",
        ),
        HomeDeck => ("测验：{}", "Quiz: {}"),
        HomeDeckAbout => (
            "这一组的全部题目，闭卷作答。",
            "Every question of this deck, closed-book.",
        ),
        HomeExam => ("混合考试（{} 题）", "Mixed exam ({})"),
        HomeExamAbout => (
            "从所有题组随机抽题，闭卷作答。",
            "Questions drawn from every deck, closed-book.",
        ),
        HomeProgress => ("学习进度", "Progress"),
        HomeProgressAbout => (
            "各题组掌握度、每次得分、未来 14 天到期数、连续天数。",
            "Mastery per deck, the score of each session, reviews due in the next 14 days, the streak.",
        ),
        HomeDue => (
            "今天到期 {} 题；未来 14 天共 {} 题。",
            "Due today: {}; next 14 days: {} in all.",
        ),
        HomeNoProgress => (
            "进度不会保存（没有进度文件）。",
            "Progress is not saved (no progress file).",
        ),
        QuizTitle => ("闭卷测验", "Closed-book quiz"),
        QuizNotes => ("笔记（Tab 开始/结束输入）", "Notes (Tab to type / stop)"),
        QuizYourAnswer => ("你的答案：", "Your answer: "),
        QuizYourOrder => ("你的顺序：", "Your order:"),
        QuizTickedScore => ("已勾选得分：{}/{}", "Points ticked: {}/{}"),
        QuizRate => (
            "自评：1 忘了  2 部分  3 牢固",
            "Rate yourself: 1 forgot  2 partial  3 solid",
        ),
        QuizOpenRun => (
            "按 o 在模拟界面打开这一次运行。",
            "Press o to open this very run in its simulation.",
        ),
        QuizNoRun => (
            "答完推演题后才能打开它的运行。",
            "A run opens only after answering a model question.",
        ),
        QuizClosedBook => (
            "闭卷：测验结束后才能打开课程和模拟。",
            "Closed-book: lessons and simulations open after the quiz.",
        ),
        QuizConfirmLeave => (
            "离开测验？已答的题目都已保留。y/回车 离开  n/Esc 继续",
            "Leave the quiz? What you answered is kept. y/Enter leave  n/Esc stay",
        ),
        QuizSkipped => (
            "{} 道推演题无法由引擎算出答案，已略过。",
            "{} model questions the engine could not answer were left out.",
        ),
        QuizNotSavedNoFile => ("未保存（没有进度文件）", "not saved (no progress file)"),
        QuizMore => (
            "PgUp/PgDn 滚动（第 {} 行，共 {} 行）",
            "PgUp/PgDn scroll (row {} of {})",
        ),
        QuizHintRecall => (
            "回车/r 显示答案  Tab 笔记  ? 按键  q 离开",
            "Enter/r reveal  Tab notes  ? keys  q leave",
        ),
        QuizHintNotes => (
            "输入笔记  回车 显示答案  Tab/Esc 结束输入",
            "type notes  Enter reveal  Tab/Esc stop typing",
        ),
        QuizHintTick => (
            "数字 或 上/下+空格 勾选答到的要点  回车 确认  q 离开",
            "digits or Up/Down+Space tick the points covered  Enter confirm  q leave",
        ),
        QuizHintRate => (
            "1 忘了  2 部分  3 牢固  q 离开",
            "1 forgot  2 partial  3 solid  q leave",
        ),
        QuizHintChoice => (
            "字母 或 上/下+空格 选择（可多选）  回车 提交  q 离开",
            "letters or Up/Down+Space pick (one or several)  Enter submit  q leave",
        ),
        QuizHintOrder => (
            "上/下 选步骤  Shift-上/下 或 K/J 移动  回车 提交  q 离开",
            "Up/Down choose a step  Shift-Up/Down or K/J move it  Enter submit  q leave",
        ),
        QuizHintNumber => (
            "输入一个数  回车 提交  q 离开",
            "type a number  Enter submit  q leave",
        ),
        QuizHintOption => (
            "字母 或 上/下+空格 选一项  回车 提交  q 离开",
            "a letter or Up/Down+Space pick one  Enter submit  q leave",
        ),
        QuizHintAnswered => ("回车 下一题  q 离开", "Enter next question  q leave"),
        QuizHintAnsweredModel => (
            "回车 下一题  o 打开这次运行  q 离开",
            "Enter next question  o open this run  q leave",
        ),
        QuizHintEnd => ("回车/q 返回", "Enter/q back"),
        StatsTitle => ("学习进度", "Progress"),
        StatsHint => ("L 切换语言  ? 按键  q 返回", "L language  ? keys  q back"),
        StatsNoFile => ("没有进度文件。", "There is no progress file."),
        StatsStreak => ("连续学习：{} 天", "Streak: {} days"),
        StatsHistory => ("每次测验得分（%）", "Score per session (%)"),
        StatsNoSessions => ("还没有完成的测验。", "No session finished yet."),
        StatsLastSession => ("最近一次：{}%", "Last session: {}%"),
        KeyQuizSubmit => (
            "显示答案 / 确认要点 / 提交 / 下一题",
            "reveal / confirm points / submit / next question",
        ),
        KeyQuizNotes => ("回忆题：开始/结束输入笔记", "recall: type notes / stop"),
        KeyQuizTick => (
            "移动光标；勾选要点或选项",
            "move the cursor; tick a point or pick an option",
        ),
        KeyQuizDigits => (
            "勾选第 N 个要点；自评 1 忘了 2 部分 3 牢固",
            "tick point N; rate 1 forgot 2 partial 3 solid",
        ),
        KeyQuizLetters => ("选择/取消选项", "pick or drop an option"),
        KeyQuizMoveStep => (
            "排序题：上移/下移所选步骤",
            "order: move the chosen step up/down",
        ),
        KeyQuizOpenRun => (
            "推演题答完后：在模拟中打开这次运行",
            "model, once answered: open this run in its simulation",
        ),
        KeyQuizScroll => ("答完后：滚动解析", "once answered: scroll the explanation"),
        KeyQuizLeave => (
            "离开测验（先确认；已答的保留）",
            "leave the quiz (asks first; answers are kept)",
        ),
    };
    lang.pick(zh, en)
}
