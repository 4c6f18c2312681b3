//! Metric names, the frozen holder's formulas, and a run's parameters in one line.

use crate::engine::params::{
    AbcParams, ElectionParams, FrozenParams, HerdParams, OnDisconnect, OnLoss, Recovery,
    Registration, RwLockParams, SemaphoreParams, TasksParams, TokenSource, WatchMode,
};
use crate::engine::time::fmt_secs;
use crate::engine::trace::Trace;

use super::super::Lang;
use super::*;
/// The unit a metric's number is shown with, the space before it included (none for a count).
pub fn metric_unit(unit: crate::engine::trace::Unit, lang: Lang) -> &'static str {
    use crate::engine::trace::Unit;
    match unit {
        Unit::Seconds => lang.pick(" 秒", " s"),
        Unit::Millis => lang.pick(" 毫秒", " ms"),
        Unit::Years => lang.pick(" 年", " years"),
        Unit::Count | Unit::Answer => "",
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
        "claims_missed" => "落空的领取",
        "completed_after_lease" => "租约过后生效的完成",
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
        "lost_updates" => "丢失的更新",
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
        "final_attempt" => "最终尝试次数",
        "final_epoch" => "最终任期号",
        "final_owner" => "最终持有者",
        "final_state" => "最终状态",
        "final_version" => "最终版本",
        "grants_before_writer" => "写者前的授予",
        "quorum" => "多数派",
        "ttl_s" => "租约 TTL",
        "keepalive_every_ms" => "续约间隔",
        "first_expiry_ms" => "第一次租约到期撤销",
        "handover_ms" => "交接延迟",
        "max_woken" => "一次删除最多唤醒",
        "unaware_ms" => "租约已失仍在干活",
        "learned_ms" => "得知租约已失",
        "stale_writes_refused" => "被拒的陈旧写入",
        "revision" => "最终修订号",
        other => other,
    }
}

pub(super) fn secs(v: f64) -> String {
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
    (trace.end_ms < crate::engine::time::SHORT_RUN_MS)
        .then(|| format!("{t} {}", lang.pick("毫秒", "ms")))
}

/// The unit of seconds in this language.
pub fn s(lang: Lang) -> &'static str {
    lang.pick("秒", "s")
}

/// A duration or an instant in seconds, with this language's unit: `19 s`, `19 秒`.
pub fn seconds(ms: crate::engine::Millis, lang: Lang) -> String {
    format!("{} {}", crate::engine::time::fmt_secs(ms), s(lang))
}

/// An instant in the unit of the run's axis: milliseconds for a run under a second, else
/// seconds.
pub fn instant(trace: &Trace, t: crate::engine::Millis, lang: Lang) -> String {
    short_instant(trace, t, lang).unwrap_or_else(|| seconds(t, lang))
}

/// A one-line description of a run's parameters, in words.
pub fn params_line(params: &crate::engine::params::Params, lang: Lang) -> String {
    use crate::engine::params::Params;
    match params {
        Params::Redlock(p) => crate::i18n::redlock::params_line(p, lang),
        Params::Etcd(p) => crate::i18n::etcd::params_line(p, lang),
        Params::Snowflake(p) => crate::i18n::snowflake::params_line(p, lang),
        Params::Frozen(p) => frozen_line(p, lang),
        Params::Herd(p) => herd_line(p, lang),
        Params::Rwlock(p) => rwlock_line(p, lang),
        Params::Tasks(p) => tasks_line(p, lang),
        Params::Election(p) => election_line(p, lang),
        Params::Semaphore(p) => semaphore_line(p, lang),
        Params::Abc(p) => abc_line(p, lang),
    }
}

/// A span of milliseconds in seconds with its unit: `30 s`.
fn sec(ms: u64, lang: Lang) -> String {
    format!("{} {}", fmt_secs(ms), s(lang))
}

/// A switch's state: on or off.
fn on(b: bool, lang: Lang) -> &'static str {
    lang.pick(if b { "开" } else { "关" }, if b { "on" } else { "off" })
}

/// The frozen holder's knobs.
fn frozen_line(p: &FrozenParams, lang: Lang) -> String {
    if lang != Lang::Zh {
        return p.summary();
    }
    format!(
        "TTL {}，续约间隔 {}，{}时停顿 {}，单程延迟 {}，栅栏令牌{}，得知失锁即停{}",
        sec(p.ttl_ms, lang),
        sec(p.keepalive_ms, lang),
        sec(p.pause_start_ms, lang),
        sec(p.pause_len_ms, lang),
        sec(p.delay_ms, lang),
        on(p.fencing, lang),
        on(p.stop_on_loss, lang)
    )
}

/// The thundering herd's knobs.
fn herd_line(p: &HerdParams, lang: Lang) -> String {
    let zh = lang == Lang::Zh;
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

/// The read-write lock's roles, read rule and timings.
fn rwlock_line(p: &RwLockParams, lang: Lang) -> String {
    let zh = lang == Lang::Zh;
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
            sec(p.common.hold_ms, lang),
            sec(p.common.start_gap_ms, lang),
            sec(p.common.session_timeout_ms, lang)
        )
    } else {
        format!(
            "roles {roles}, {rule}, hold {}, starting {} apart, session timeout {}",
            sec(p.common.hold_ms, lang),
            sec(p.common.start_gap_ms, lang),
            sec(p.common.session_timeout_ms, lang)
        )
    }
}

/// The task queue's workers, tasks, leases and rules.
fn tasks_line(p: &TasksParams, lang: Lang) -> String {
    let zh = lang == Lang::Zh;
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
            format!(
                "，A 于 {} 停顿 {}",
                sec(p.pause_at_ms, lang),
                sec(p.pause_len_ms, lang)
            )
        } else {
            format!(
                ", A pauses at {} for {}",
                sec(p.pause_at_ms, lang),
                sec(p.pause_len_ms, lang)
            )
        }
    } else {
        String::new()
    };
    let clock = match (p.store_clock_ms, zh) {
        (0, _) => String::new(),
        (c, true) => format!("，存储时钟从 {} 起算", sec(c, lang)),
        (c, false) => format!(", the store's clock reads {} at the start", sec(c, lang)),
    };
    let key = if !p.effect {
        lang.pick("，不调用外部系统", ", no outside call")
    } else if p.idempotency_key {
        lang.pick("，外部调用带固定幂等键", ", outside call with a stable key")
    } else {
        lang.pick("，外部调用不带幂等键", ", outside call without a key")
    };
    let claim = match p.claim {
        crate::engine::actors::worker::ClaimRule::Conditional => "",
        crate::engine::actors::worker::ClaimRule::SkipLocked => lang.pick(
            "，用一条 FOR UPDATE SKIP LOCKED 语句领取",
            ", one FOR UPDATE SKIP LOCKED statement claims",
        ),
    };
    let txn = match p.completion_clock {
        crate::engine::actors::worker::CompletionClock::Statement => "",
        crate::engine::actors::worker::CompletionClock::TransactionStart => lang.pick(
            "，完成在工作事务里读 now()",
            ", the completion reads now() in the work's transaction",
        ),
    };
    let complete = format!("{complete}{claim}{txn}");
    if zh {
        format!(
            "{} 个工作者、{} 个任务，扫描间隔 {}，租约 {}，续期间隔 {}，工作 {}，{complete}{key}{pause}{clock}",
            p.workers,
            p.tasks,
            sec(p.scan_every_ms, lang),
            sec(p.lease_ms, lang),
            sec(p.renew_every_ms, lang),
            sec(p.work_ms, lang)
        )
    } else {
        format!(
            "{}, {}, a scan every {}, lease {}, renewal every {}, work {}, {complete}{key}{pause}{clock}",
            plural(p.workers, "worker"),
            plural(p.tasks, "task"),
            sec(p.scan_every_ms, lang),
            sec(p.lease_ms, lang),
            sec(p.renew_every_ms, lang),
            sec(p.work_ms, lang)
        )
    }
}

/// The leader election's epoch, row, pause and update rule.
fn election_line(p: &ElectionParams, lang: Lang) -> String {
    let zh = lang == Lang::Zh;
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
            sec(p.pause_at_ms, lang),
            sec(p.pause_len_ms, lang),
            sec(p.session_timeout_ms, lang)
        )
    } else {
        format!(
            "A leads with epoch {}, the job's row at version {}, A pauses at {} for {}, {cond}, session timeout {}",
            p.first_epoch,
            p.row_version,
            sec(p.pause_at_ms, lang),
            sec(p.pause_len_ms, lang),
            sec(p.session_timeout_ms, lang)
        )
    }
}

/// The semaphore's clients, permits and timings.
fn semaphore_line(p: &SemaphoreParams, lang: Lang) -> String {
    let zh = lang == Lang::Zh;
    let lowered = match p.lower_at_ms {
        Some(at) if p.lower_to > 0 => {
            if zh {
                format!("，{} 时许可数改为 {}", sec(at, lang), p.lower_to)
            } else {
                format!(", permits lowered to {} at {}", p.lower_to, sec(at, lang))
            }
        }
        _ => String::new(),
    };
    if zh {
        format!(
            "{} 个客户端，{} 个许可{lowered}，持有 {}，间隔 {} 启动，会话超时 {}",
            p.clients,
            p.permits,
            sec(p.common.hold_ms, lang),
            sec(p.common.start_gap_ms, lang),
            sec(p.common.session_timeout_ms, lang)
        )
    } else {
        format!(
            "{} clients, {} permits{lowered}, hold {}, starting {} apart, session timeout {}",
            p.clients,
            p.permits,
            sec(p.common.hold_ms, lang),
            sec(p.common.start_gap_ms, lang),
            sec(p.common.session_timeout_ms, lang)
        )
    }
}

/// The A/B/C lock recipe's choices, faults and timings.
fn abc_line(p: &AbcParams, lang: Lang) -> String {
    let zh = lang == Lang::Zh;
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
        (crate::engine::params::OnTimeout::DeleteNode, false) => ", deletes its node on timeout",
        (crate::engine::params::OnTimeout::Forget, true) => "，超时忘删节点",
        (crate::engine::params::OnTimeout::Forget, false) => ", forgets its node on timeout",
    };
    let container = match (p.container_check_ms, zh) {
        (None, _) => String::new(),
        (Some(c), true) => format!("，锁目录是容器节点（每 {} 检查）", sec(c, lang)),
        (Some(c), false) => format!(
            ", the lock directory is a container (checked every {})",
            sec(c, lang)
        ),
    };
    if zh {
        format!(
            "监听{watch}，恢复方式{recovery}，注册监听{registration}，断连时{on_disconnect}，失锁后{on_loss}，栅栏令牌{}，令牌取{token}，会话超时 {}，tick {}{phase}，{faults}{timeout}{container}",
            on(p.fencing, lang),
            sec(p.session_timeout_ms, lang),
            sec(p.tick_ms, lang),
            phase = if p.tick_phase_ms == 0 {
                String::new()
            } else {
                format!("（边界落在 {} + k·tick）", sec(p.tick_phase_ms, lang))
            },
        )
    } else {
        format!(
            "watch {watch}, recovery {recovery}, registration {registration}, on disconnect {on_disconnect}, on loss {on_loss}, fencing {}, token {token}, session timeout {}, tick {}{phase}, {faults}{timeout}{container}",
            on(p.fencing, lang),
            sec(p.session_timeout_ms, lang),
            sec(p.tick_ms, lang),
            phase = if p.tick_phase_ms == 0 {
                String::new()
            } else {
                format!(" (boundaries at {} + k·tick)", sec(p.tick_phase_ms, lang))
            },
        )
    }
}
