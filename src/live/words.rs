//! The live lab's words: the server, the scaling, the side-by-side comparison.

use super::diff::{Aspect, Row};
use super::instants::{At, Instant, Kind};
use super::scale::Scaling;
use crate::engine::time::fmt_secs;
use crate::i18n::Lang;

/// The first line of a live run, once the server answers.
pub fn server_line(version: &str, addr: &str, own: bool, lang: Lang) -> String {
    let version = version.trim_start_matches("Zookeeper version: ");
    let version = version.split(['-', ',']).next().unwrap_or(version);
    match (own, lang) {
        (true, Lang::Zh) => {
            format!("实时实验：在 {addr} 上启动了 ZooKeeper {version}（locklab 自己的服务器）")
        }
        (true, Lang::En) => {
            format!("Live lab: ZooKeeper {version} started on {addr} (locklab's own server)")
        }
        (false, Lang::Zh) => format!("实时实验：连接到 {addr} 上的 ZooKeeper {version}"),
        (false, Lang::En) => format!("Live lab: connected to ZooKeeper {version} on {addr}"),
    }
}

/// What the server grants, and how the preset's times were fitted to it.
pub fn scaling_line(s: &Scaling, lang: Lang) -> String {
    let granted = fmt_secs(s.granted_ms);
    let requested = fmt_secs(s.requested_ms);
    let factor = if (s.factor - 1.0).abs() < 1e-9 {
        match lang {
            Lang::Zh => "预设里的时间原样使用".to_string(),
            Lang::En => "the preset's times are used as they are".to_string(),
        }
    } else {
        let f = format!("{:.3}", s.factor);
        let f = f.trim_end_matches('0').trim_end_matches('.');
        match lang {
            Lang::Zh => format!("预设里的每个时间都乘以 {f}"),
            Lang::En => format!("every time in the preset is multiplied by {f}"),
        }
    };
    match (s.bounds(), s.tick_ms, lang) {
        (Some((lo, hi)), Some(t), Lang::Zh) => format!(
            "服务器的 tickTime 是 {} 秒，只批准 {} 到 {} 秒之间的会话超时；请求 {requested} 秒，批准 {granted} 秒，{factor}。",
            fmt_secs(t),
            fmt_secs(lo),
            fmt_secs(hi)
        ),
        (Some((lo, hi)), Some(t), Lang::En) => format!(
            "The server's tickTime is {} s, so it grants session timeouts of {} to {} s only; asked for {requested} s, granted {granted} s: {factor}.",
            fmt_secs(t),
            fmt_secs(lo),
            fmt_secs(hi)
        ),
        (_, _, Lang::Zh) => format!(
            "服务器按自己的 tickTime（2 到 20 个 tick）批准会话超时：请求 {requested} 秒，批准 {granted} 秒，{factor}。"
        ),
        (_, _, Lang::En) => format!(
            "The server grants session timeouts within 2 to 20 of its ticks: asked for {requested} s, granted {granted} s: {factor}."
        ),
    }
}

/// The servers of a Redlock run.
pub fn redis_line(nodes: u32, store: super::redis::run::Store, lang: Lang) -> String {
    use super::redis::run::Store;
    match (lang, store) {
        (Lang::Zh, Store::Postgres) => format!(
            "启动 {nodes} 台私有 Redis 节点（127.0.0.1，不落盘）；资源是私有 PostgreSQL 上的一行（带栅栏检查的那张表，Redlock 不给令牌，所以每次写入它都接受）。"
        ),
        (Lang::Zh, Store::Redis) => format!(
            "启动 {nodes} 台私有 Redis 节点和一台存放资源的 Redis（127.0.0.1，不落盘）；没有装 PostgreSQL，资源就用这台 Redis 上的一个键。"
        ),
        (Lang::En, Store::Postgres) => format!(
            "Starting {nodes} private Redis nodes (127.0.0.1, no persistence); the resource is a row on a private PostgreSQL (the fenced table; Redlock gives no token, so it takes every write)."
        ),
        (Lang::En, Store::Redis) => format!(
            "Starting {nodes} private Redis nodes and one Redis for the resource (127.0.0.1, no persistence); PostgreSQL is not installed, so the resource is a key on that Redis."
        ),
    }
}

pub fn running(what: &str, secs: &str, lang: Lang) -> String {
    match lang {
        Lang::Zh => format!("正在真实会话上运行 {what}，约 {secs} 秒……"),
        Lang::En => format!("Running {what} on real sessions, about {secs} s..."),
    }
}

pub fn running_herd(waiters: u32, fanout: u32, lang: Lang) -> String {
    match lang {
        Lang::Zh => {
            format!("正在运行 {waiters} 个等待者（扇出 {fanout}），每个客户端一个真实会话……")
        }
        Lang::En => format!(
            "Running {waiters} waiters (fan-out {fanout}) with one real session per client..."
        ),
    }
}

pub fn title(name: &str, lang: Lang) -> String {
    match lang {
        Lang::Zh => format!("实时运行：{name}"),
        Lang::En => format!("Live run: {name}"),
    }
}

pub fn aspect(a: Aspect, lang: Lang) -> &'static str {
    match a {
        Aspect::Holders => lang.pick("持锁者及顺序", "holders, in order"),
        Aspect::Numbers => lang.pick("节点序号", "node numbers"),
        Aspect::Wakeups => lang.pick("唤醒次数", "wake-ups"),
        Aspect::LeftBehind => lang.pick("留下的节点", "nodes left behind"),
        Aspect::Stuck => lang.pick("卡住的客户端", "stuck clients"),
        Aspect::Duplicates => lang.pick("重复节点", "duplicate nodes"),
        Aspect::StaleAccepted => lang.pick("被接受的陈旧写入", "stale writes accepted"),
        Aspect::StaleRejected => lang.pick("被拒绝的陈旧写入", "stale writes refused"),
        Aspect::CurrentRefused => lang.pick("持锁者被拒绝的写入", "holder's writes refused"),
        Aspect::Wasted => lang.pick("无效唤醒", "wasted wake-ups"),
        Aspect::Releases => lang.pick("释放次数", "releases"),
        Aspect::Instant => lang.pick("时间点", "instant"),
        Aspect::MaxHolders => lang.pick("同时自认持锁的最多客户端数", "most holders at once"),
        Aspect::ForeignDeletes => lang.pick("被别人删掉的键", "keys deleted by another client"),
        Aspect::FinalValue => lang.pick("资源里最后的值", "the resource's final value"),
        Aspect::HeldAtOnce => lang.pick(
            "服务视角下同时持有的最多客户端数",
            "most holders at once, in the service's view",
        ),
        Aspect::ReadersAtOnce => lang.pick("同时在读的最多读者数", "most readers at once"),
        Aspect::Broken => lang.pick("被打破的不变量", "invariants broken"),
    }
}

/// A comparison row's cells: what it compares, the model's side, the live side and, for an
/// instant, how far apart the two are against what is allowed.
pub fn row_cells(r: &Row, lang: Lang) -> [String; 4] {
    match &r.instant {
        Some(i) => [
            instant_label(i, lang),
            instant_side(i.model, lang),
            instant_side(i.live, lang),
            instant_verdict(i, lang),
        ],
        None => [
            aspect(r.aspect, lang).to_string(),
            r.model.clone(),
            r.live.clone(),
            r.near_end_ms.map_or_else(String::new, |ms| match lang {
                Lang::Zh => format!("释放落在结束前 {ms} 毫秒内，在误差之内"),
                Lang::En => format!("a release within {ms} ms of the end, within tolerance"),
            }),
        ],
    }
}

/// An instant row's label: what happened, to whom (what each is measured from is in
/// [`instants_note`]).
pub fn instant_label(i: &Instant, lang: Lang) -> String {
    let who = &i.client;
    match (i.kind, lang) {
        (Kind::Grant, Lang::Zh) => format!("{who} 拿到锁"),
        (Kind::Grant, Lang::En) => format!("grant to {who}"),
        (Kind::Handover, Lang::Zh) => format!("交接给 {who}"),
        (Kind::Handover, Lang::En) => format!("hand-over to {who}"),
        (Kind::Expiry, Lang::Zh) => format!("{who} 的会话过期"),
        (Kind::Expiry, Lang::En) => format!("expiry of {who}"),
        (Kind::Write, Lang::Zh) => format!("{who} 的写入到达"),
        (Kind::Write, Lang::En) => format!("write by {who}"),
        (Kind::Acquire, Lang::Zh) => format!("{who} 拿到多数派"),
        (Kind::Acquire, Lang::En) => format!("{who} wins a majority"),
        (Kind::Validity, Lang::Zh) => format!("{who} 的有效时间"),
        (Kind::Validity, Lang::En) => format!("validity of {who}"),
        (Kind::Overlap, Lang::Zh) => "两个客户端同时自认持锁的时长".to_string(),
        (Kind::Overlap, Lang::En) => "time two clients both held".to_string(),
        (Kind::Learned, Lang::Zh) => format!("{who} 得知会话已结束"),
        (Kind::Learned, Lang::En) => format!("{who} learns its session is done"),
    }
}

/// One run's side of an instant row: the instant, and the time it is measured by.
pub fn instant_side(at: Option<At>, lang: Lang) -> String {
    let s = |ms| crate::engine::time::fmt_secs(ms);
    match (at, lang) {
        (None, Lang::Zh) => "没有".to_string(),
        (None, Lang::En) => "none".to_string(),
        (
            Some(At {
                at_ms,
                after_ms: None,
            }),
            Lang::Zh,
        ) => format!("{} 秒", s(at_ms)),
        (
            Some(At {
                at_ms,
                after_ms: None,
            }),
            Lang::En,
        ) => format!("{} s", s(at_ms)),
        (
            Some(At {
                at_ms,
                after_ms: Some(d),
            }),
            Lang::Zh,
        ) => format!("{} 秒（+{d} 毫秒）", s(at_ms)),
        (
            Some(At {
                at_ms,
                after_ms: Some(d),
            }),
            Lang::En,
        ) => format!("{} s (+{d} ms)", s(at_ms)),
    }
}

/// How far apart an instant row's two runs are, against what is allowed.
pub fn instant_verdict(i: &Instant, lang: Lang) -> String {
    let t = i.tolerance_ms;
    let unit = lang.pick("毫秒", "ms");
    match i.apart_ms {
        Some(d) if d <= t => format!("{d} ≤ {t} {unit}"),
        Some(d) => format!("{d} > {t} {unit}"),
        // A write the live run, allowed `t` later, had no time left to make.
        None if i.within => match lang {
            Lang::Zh => format!("实际运行在其后 {t} 毫秒内结束"),
            Lang::En => format!("the live run ended within {t} ms of it"),
        },
        None => lang.pick("只有一边有", "in one run only").to_string(),
    }
}

/// How a Redlock run's instants are held side by side, and what each may differ by.
pub fn redlock_note(lang: Lang) -> &'static str {
    lang.pick(
        "时间点各行：拿到多数派按时刻比（括号里是这次加锁花的时间），有效时间比毫秒数（括号外是它用完的时刻），写入从拿锁算起，最后一行比两个客户端同时自认持锁的总时长。允许的差：每个节点一次往返，模型给每次 SET 两倍网络延迟，本机回环几乎为零，请求超时两边都真等；再加 50 毫秒留给机器调度进程。重试的客户端每次尝试都比模型早这么一点，所以拿锁时刻按它到那时为止的尝试次数乘上这份允许；写入允许一次往返；同时持锁时长允许本次所有拿锁的允许之和再加一次往返。",
        "Instant rows: a majority is compared by its instant (in brackets, the time the attempt took), a validity by its milliseconds (outside the brackets, when it runs out), a write from its writer's acquisition, and the last row the time two clients both believed they held. Allowed: one round trip per node, since the model gives each SET twice its network delay and loopback almost none (a request timeout is waited for in both), plus 50 ms for the machine's scheduling of the processes. A client that retries starts each attempt that much before the model's, so an acquisition's instant is allowed that much once per attempt the client made by then; a write one round trip; the time of two holders the sum of the run's acquisition allowances and one round trip.",
    )
}

/// How the instants are held side by side, and the tick grid the model used.
pub fn instants_note(phase: Option<u64>, lang: Lang) -> String {
    let grid = match (phase, lang) {
        (Some(p), Lang::Zh) => format!(
            "服务器的 tick 边界落在运行开始后 {} 秒 + k·tick（从服务器的时钟读出），模型按同一网格让会话过期。",
            crate::engine::time::fmt_secs(p)
        ),
        (Some(p), Lang::En) => format!(
            "The server's tick boundaries fell at {} s + k·tick into the run (read off its clock); the model expires sessions on the same grid.",
            crate::engine::time::fmt_secs(p)
        ),
        (None, Lang::Zh) => "这台服务器的 tick 边界在哪里不知道：过期多允许一个 tick。".to_string(),
        (None, Lang::En) => {
            "Where this server's tick boundaries fall is not known: expiries are allowed one tick more.".to_string()
        }
    };
    let rule = lang.pick(
        "时间点各行：拿锁从客户端创建节点算起，交接从放出锁的那次删除算起，写入从拿锁（或放行被扣住的写入的醒来、重连）算起，过期按时刻比；“相差 ≤ 允许”。允许的差：拿锁与交接是一串消息，允许模型自己花的时间，加一个网络延迟和本次运行中服务器最慢的一次应答（本机回环几乎没有延迟，真实服务器应答要花时间）；写入是计时之后的一条消息，允许一个网络延迟，再加 50 毫秒留给机器调度进程；过期落在最后一次听到会话后加超时的下一个 tick 边界，两边落在同一个边界才算一致：允许两边最后心跳所落边界之差，再加半个 tick，留给服务器在边界之后唤醒会话跟踪、提交关闭事务和发出通知（模型里这些不花时间；半个 tick 到不了下一个边界）。",
        "Instant rows: a grant is measured from the client's create, a hand-over from the deletion that freed the lock, a write from its grant (or the wake or reconnect that let a held-back write go), an expiry as an instant; \"apart ≤ allowed\". Allowed: a grant or hand-over is a chain of messages, allowed the model's own time for it plus one network delay and the slowest answer the server gave in the run (loopback has almost no delay; a real server takes time to answer); a write is one message after its timer, allowed one network delay plus 50 ms for the machine's scheduling of the processes; an expiry falls on the first tick boundary after the session was last heard from plus its timeout, and the runs agree when they expire on the same boundary: allowed the distance between the boundaries each run's last heartbeat rounds to, plus half a tick for what the server does after the boundary (wake its session tracker, commit the close, notify), which the model does not (half a tick never reaches the next boundary).",
    );
    format!("{grid} {rule}")
}

pub fn compare_header(lang: Lang) -> (&'static str, &'static str, &'static str, &'static str) {
    (
        lang.pick("模型与真实服务对照", "The model beside the real service"),
        lang.pick("项目", "fact"),
        lang.pick("模型", "model"),
        lang.pick("真实", "live"),
    )
}

pub fn verdict(differences: usize, lang: Lang) -> String {
    match (differences, lang) {
        (0, Lang::Zh) => "两边讲的是同一个故事。".to_string(),
        (0, Lang::En) => "Both tell the same story.".to_string(),
        (n, Lang::Zh) => format!("有 {n} 处不同，标着 ≠ 的那几行。"),
        (1, Lang::En) => "1 difference, marked with a ≠.".to_string(),
        (n, Lang::En) => format!("{n} differences, marked with a ≠."),
    }
}

/// Why the real service gives another answer than the model for this fact, where the reason is
/// known and the same in every run, in a few words and in full; for any other fact a
/// difference is a disagreement to study.
pub fn why_different(a: Aspect, lang: Lang) -> Option<(&'static str, &'static str)> {
    match a {
        Aspect::LeftBehind => Some((
            lang.pick(
                "≠ 留下的节点：快结束时的过期或释放时间点不同",
                "≠ nodes left behind: an expiry or release near the end",
            ),
            lang.pick(
                "≠ 留下的节点：一次过期或释放落在运行快结束时，两边的时间点只差一点，最后留下的节点就会不同；看上面的时间点各行。",
                "≠ nodes left behind: when an expiry or a release falls near the end of the run, instants a little apart leave different nodes at the end; see the instant rows above.",
            ),
        )),
        _ => None,
    }
}

/// What differs between the model and this client library, whatever the preset.
pub fn library_note(lang: Lang) -> &'static str {
    lang.pick(
        "注意：真实的客户端库在会话超时的 0.4 倍内听不到服务器就判定断连（模型是三分之二），重连超过 1.4 倍超时仍不成功就自行宣布会话过期；本机回环几乎没有网络延迟。时间点因此与模型略有出入。",
        "Note: the real client library declares its connection lost after 0.4 of the session timeout without a word from the server (the model: two thirds), and gives its session up as expired by itself when it cannot reconnect within 1.4 timeouts; loopback has almost no network delay. Instants differ from the model's a little for that.",
    )
}

/// A preset that has no live counterpart.
pub fn no_counterpart(name: &str, known: &str, lang: Lang) -> String {
    match lang {
        Lang::Zh => format!("预设 `{name}` 没有实时版本；可以实时运行的预设：{known}"),
        Lang::En => {
            format!("preset `{name}` has no live counterpart; presets that run live: {known}")
        }
    }
}

// --- the Live screen ---

pub fn home_entry(lang: Lang) -> (&'static str, &'static str) {
    (
        lang.pick("实时实验：真实的服务器", "Live lab: real servers"),
        lang.pick(
            "在 locklab 自己启动的 ZooKeeper、Redis、etcd 或 PostgreSQL 上重演预设，并与模型逐项对照。",
            "Replay a preset on a ZooKeeper, Redis, etcd or PostgreSQL that locklab starts itself, and hold it beside the model.",
        ),
    )
}

pub fn screen_title(lang: Lang) -> &'static str {
    lang.pick(
        "实时实验：真实的服务器与模型对照",
        "Live lab: real servers beside the model",
    )
}

pub fn herd_choice(waiters: u32, fanout: u32, lang: Lang) -> String {
    match (fanout == 1, lang) {
        (true, Lang::Zh) => format!("链式唤醒  N={waiters}"),
        (true, Lang::En) => format!("chain  N={waiters}"),
        (false, Lang::Zh) => format!("羊群效应  N={waiters}"),
        (false, Lang::En) => format!("herd  N={waiters}"),
    }
}

pub fn screen_hint(lang: Lang) -> &'static str {
    lang.pick(
        "上下键选择，回车开始。locklab 会在本机回环地址上启动这一项需要的服务器（ZooKeeper、Redis 或 etcd），每个客户端一个真实会话；运行期间界面照常响应，结束后服务器和数据目录都会删除。",
        "Up and Down choose, Enter starts. locklab starts the servers the story needs (ZooKeeper, Redis or etcd) on loopback, with one real session per client; the screen stays responsive while it runs, and the servers and their data directories are removed afterwards.",
    )
}

pub fn redis_not_installed(lang: Lang) -> &'static str {
    lang.pick(
        "这台机器上没有 Redis 服务器。安装 Debian 的 redis-server（sudo apt-get install -y redis-server）后，这里就能在五台真实节点上重演 Redlock 预设；时钟跳变那个预设还要 faketime。",
        "No Redis server on this machine. Install Debian's redis-server (sudo apt-get install -y redis-server) and the Redlock presets run here on five real nodes; the clock-jump preset also needs faketime.",
    )
}

pub fn not_installed(lang: Lang) -> &'static str {
    lang.pick(
        "这台机器上没有 ZooKeeper 服务器。安装 Debian 的 zookeeperd（sudo apt-get install -y zookeeperd）后再来；也可以在命令行用 locklab live ... --zk 主机:端口 连接已有的服务器。",
        "There is no ZooKeeper server on this machine. Install Debian's zookeeperd (sudo apt-get install -y zookeeperd) and come back; or, on the command line, connect to a running one with locklab live ... --zk HOST:PORT.",
    )
}

pub fn in_progress(what: &str, elapsed_ms: u64, expect_ms: u64, lang: Lang) -> String {
    let (e, x) = (elapsed_ms / 1000, expect_ms.div_ceil(1000));
    match lang {
        Lang::Zh => format!(
            "正在真实的服务器上运行 {what}……已用 {e} 秒，约需 {x} 秒。可以按 q 返回，运行会在后台结束，回来就能看到结果。"
        ),
        Lang::En => format!(
            "Running {what} on the real server... {e} s of about {x} s. q goes back; the run finishes in the background and its result waits here."
        ),
    }
}

/// The command that prints the same run with every event and message.
pub fn more_hint(cmd: &str, lang: Lang) -> String {
    match lang {
        Lang::Zh => format!("完整的事件和消息：{cmd}"),
        Lang::En => format!("Every event and message: {cmd}"),
    }
}

/// What the two herd choices show, before a run.
pub fn herd_about(fanout_is_one: bool, lang: Lang) -> &'static str {
    if fanout_is_one {
        lang.pick(
            "链式唤醒：每个等待者只监听自己的前驱，每次释放只通知一个客户端。",
            "Chain: each waiter watches only its predecessor, so every release notifies one client.",
        )
    } else {
        lang.pick(
            "羊群效应：每个等待者都监听锁目录的子节点列表，每次释放都通知所有还在排队的客户端。",
            "Herd: every waiter watches the lock directory's children, so every release notifies every client still queued.",
        )
    }
}

/// What the model's herd counts are, in words; the figures come from the runs.
pub fn herd_note(lang: Lang) -> &'static str {
    lang.pick(
        "模型里，N 个等待者的链式唤醒一共通知 N 次，羊群效应每次释放都通知所有还在排队的客户端，一共 N(N+1)/2 次，其中只有 N 次叫醒的是下一个持锁者。",
        "In the model, N waiters in a chain get N notifications in all; in a herd every release notifies everyone still queued, N(N+1)/2 in all, of which only N wake the next holder.",
    )
}

/// The header over one herd chart: whose it is and what its two numbers are.
pub fn herd_chart_label(whose: &str, lang: Lang) -> String {
    match lang {
        Lang::Zh => format!("{whose}：第几次释放、唤醒数"),
        Lang::En => format!("{whose}: release, woken"),
    }
}

/// The session timeout and the scaling in a few words, for a heading with no room for more.
pub fn scaling_short(s: &Scaling, lang: Lang) -> String {
    let granted = fmt_secs(s.granted_ms);
    let same = (s.factor - 1.0).abs() < 1e-9;
    let f = format!("{:.3}", s.factor);
    let f = f.trim_end_matches('0').trim_end_matches('.');
    match (same, lang) {
        (true, Lang::Zh) => format!("会话超时 {granted} 秒，时间同预设"),
        (true, Lang::En) => format!("session timeout {granted} s, the preset's times"),
        (false, Lang::Zh) => format!("会话超时 {granted} 秒，时间 ×{f}"),
        (false, Lang::En) => format!("session timeout {granted} s, times ×{f}"),
    }
}

pub fn live_label(lang: Lang) -> &'static str {
    lang.pick("真实", "live")
}

pub fn model_label(lang: Lang) -> &'static str {
    lang.pick("模型", "model")
}

pub fn footer(lang: Lang) -> &'static str {
    lang.pick(
        "上/下 选择  回车 在真实服务器上运行  ? 帮助  q 返回",
        "Up/Down choose  Enter run on the real server  ? help  q back",
    )
}

/// A heading of the live screen's list: the family and the real servers it runs on.
pub fn family_heading(f: super::LiveFamily, lang: Lang) -> &'static str {
    use super::LiveFamily as F;
    match f {
        F::Abc => lang.pick("A/B/C 队列（ZooKeeper）", "A/B/C queue (ZooKeeper)"),
        F::Ensemble => lang.pick(
            "集群故障切换（三台 ZooKeeper）",
            "Failover (a three-server ZooKeeper ensemble)",
        ),
        F::Herd => lang.pick(
            "羊群效应与链式唤醒（ZooKeeper）",
            "Herd versus chain (ZooKeeper)",
        ),
        F::Rwlock => lang.pick("读写锁（ZooKeeper）", "Read-write lock (ZooKeeper)"),
        F::Semaphore => lang.pick("信号量（ZooKeeper）", "Semaphore (ZooKeeper)"),
        F::Election => lang.pick(
            "领导者选举（ZooKeeper 与 PostgreSQL）",
            "Leader election (ZooKeeper and PostgreSQL)",
        ),
        F::Tasks => lang.pick(
            "持久任务领取（PostgreSQL）",
            "Durable task claims (PostgreSQL)",
        ),
        F::Redlock => lang.pick("Redlock（五台 Redis）", "Redlock (five Redis servers)"),
        F::Etcd => lang.pick("etcd 租约锁（etcd）", "etcd lease lock (etcd)"),
    }
}

/// For a story this screen lists but does not run itself: the command that runs it.
pub fn run_from_shell(command: &str, lang: Lang) -> String {
    match lang {
        Lang::Zh => format!(
            "本界面不直接运行这一项（它的对照要用到命令行的报告）。请在命令行运行：{command}"
        ),
        Lang::En => format!(
            "This screen does not run this one itself (its comparison is the command line's report). Run it on the command line: {command}"
        ),
    }
}
