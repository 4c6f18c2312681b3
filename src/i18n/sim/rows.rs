//! A table's rows and statements, and what durable task claims came to, in words.

use crate::engine::time::fmt_secs;
use crate::engine::trace::Trace;

use super::super::Lang;
use super::*;

pub(super) fn row_state_word(s: crate::engine::msg::RowState, lang: Lang) -> &'static str {
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
pub(super) fn attempt_words(n: u32, lang: Lang) -> String {
    match lang {
        Lang::Zh => format!("第{n}次"),
        _ => format!("#{n}"),
    }
}

pub(super) fn plural(n: u8, noun: &str) -> String {
    if n == 1 {
        format!("1 {noun}")
    } else {
        format!("{n} {noun}s")
    }
}

/// How many task rows a task run's table holds (1 for any other trace).
pub(super) fn task_count(trace: &Trace) -> u8 {
    match &trace.metrics {
        crate::engine::trace::Metrics::Tasks(m) => m.tasks,
        _ => 1,
    }
}

/// A row as the table shows it: `RUNNING/B/27/v4` for a job (with its epoch), `RUNNING/B/v2/#2`
/// for a task (with its attempt).
pub(super) fn row_words(r: &crate::engine::msg::RowValue, trace: &Trace, lang: Lang) -> String {
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

/// A metric's value that is a row state as the engine names it (`done`), in words; any other
/// value as it is.
pub fn metric_value(value: &str, lang: Lang) -> &str {
    use crate::engine::msg::RowState::*;
    if lang == Lang::En {
        return value;
    }
    [Ready, Running, Done, Cancelled, Failed]
        .into_iter()
        .find(|s| {
            serde_json::to_value(s)
                .ok()
                .and_then(|v| v.as_str().map(|v| v == value))
                == Some(true)
        })
        .map_or(value, |s| row_state_word(s, lang))
}

pub(super) fn row_op(op: crate::engine::msg::RowOp, lang: Lang) -> &'static str {
    use crate::engine::msg::RowOp::*;
    let (zh, en) = match op {
        Claim => ("领取", "claim"),
        Renew => ("续期", "renewal"),
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

/// A WHERE clause in words: `version = 3 AND epoch = 26 AND the lease has run out`.
pub(super) fn row_cond(c: &crate::engine::msg::RowCond, trace: &Trace, lang: Lang) -> String {
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
    match (c.lease_live, c.now_as_of_ms) {
        (true, Some(at)) => {
            let at = crate::engine::time::fmt_secs(at);
            parts.push(match lang {
                Lang::Zh => format!("按 now() 租约未过期（now() 读的是工作事务开始的 {at} 秒）"),
                Lang::En => format!(
                    "the lease still runs by now() (which reads the work transaction's start, {at} s)"
                ),
            });
        }
        (true, None) => parts.push(lang.pick("租约未过期", "the lease still runs").to_string()),
        _ => {}
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

/// The claims in order: `A v1, B v2`, naming the task when the table has several.
pub(super) fn claims_words(m: &crate::engine::trace::TaskMetrics, lang: Lang) -> String {
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
    if m.claims_missed > 0 {
        rows.push(("claims_missed", m.claims_missed.to_string()));
    }
    if m.completed_after_lease > 0 {
        rows.push(("completed_after_lease", m.completed_after_lease.to_string()));
    }
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
        .map(|v| invariant_label(*v, lang).to_string())
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
