//! A durable task run: one task changing hands, or a scanner working through a backlog.

use super::{capitalise, count, join, list, s, timeline};
use crate::engine::actors::worker::CompleteRule;
use crate::engine::msg::RowOp;
use crate::engine::params::TasksParams;
use crate::engine::time::Millis;
use crate::engine::trace::{EventKind, TaskMetrics, Trace};
use crate::i18n::Lang;
use crate::i18n::sim::row_state;

pub fn tasks(p: &TasksParams, m: &TaskMetrics, trace: &Trace, lang: Lang) -> String {
    if m.tasks > 1 {
        backlog(p, m, trace, lang)
    } else {
        claims(p, m, trace, lang)
    }
}

/// One task: the lease and the completion rule, every statement and effect in order, and
/// what the late statements and the outside system came to.
fn claims(p: &TasksParams, m: &TaskMetrics, trace: &Trace, lang: Lang) -> String {
    let rule = match (p.complete, lang) {
        (CompleteRule::Version, Lang::Zh) => "完成语句以领取时的版本为条件",
        (CompleteRule::VersionAndLease, Lang::Zh) => "完成语句以领取时的版本和租约未过期为条件",
        (CompleteRule::Unconditional, Lang::Zh) => "完成语句不带条件",
        (CompleteRule::Version, Lang::En) => "the completion is conditioned on the claim's version",
        (CompleteRule::VersionAndLease, Lang::En) => {
            "the completion is conditioned on the claim's version and a live lease"
        }
        (CompleteRule::Unconditional, Lang::En) => "the completion carries no condition",
    };
    let (lease, renew, scan) = (s(p.lease_ms), s(p.renew_every_ms), s(p.scan_every_ms));
    let mut out = vec![match lang {
        Lang::Zh => format!(
            "租约 {lease} 秒，每 {renew} 秒续期一次，每个工作者每 {scan} 秒扫描一次；{rule}。"
        ),
        Lang::En => format!(
            "The lease is {lease} s, renewed every {renew} s, and each worker scans every {scan} s; {rule}."
        ),
    }];
    out.extend(timeline(
        trace,
        |k| {
            matches!(
                k,
                EventKind::Froze
                    | EventKind::Woke
                    | EventKind::RowUpdated { .. }
                    | EventKind::EffectSent { .. }
                    | EventKind::EffectApplied { .. }
                    | EventKind::CancelSeen
            )
        },
        lang,
    ));
    let (refused, accepted) = (m.late_refused, m.late_accepted);
    out.push(match lang {
        Lang::Zh => format!(
            "迟到的语句（来自已被别人接管的旧领取）被拒 {refused} 条、被接受 {accepted} 条。"
        ),
        Lang::En => format!(
            "Late statements (from a claim someone else had since taken over): {refused} refused, {accepted} accepted."
        ),
    });
    out.extend(effects(p, m, lang));
    out.push(final_row(m, lang));
    join(out, lang)
}

/// What the outside system did, when the run has one.
fn effects(p: &TasksParams, m: &TaskMetrics, lang: Lang) -> Option<String> {
    let (applied, repeats) = (m.effects_applied, m.effects_deduplicated);
    p.effect.then(|| match lang {
        Lang::Zh => {
            format!("外部系统一共执行了 {applied} 次，凭幂等键认出并跳过的重复有 {repeats} 次。")
        }
        Lang::En => format!(
            "The outside system acted {} and recognised {} by key.",
            count(applied, "time", "times"),
            count(repeats, "repeat", "repeats")
        ),
    })
}

/// The first task's row when the run ends, and the most workers that believed they held it.
fn final_row(m: &TaskMetrics, lang: Lang) -> String {
    let state = row_state(m.final_state, lang);
    let (version, attempt, believers) = (m.final_version, m.final_attempt, m.max_believers);
    let row = match (m.final_owner.as_deref(), lang) {
        (Some(o), Lang::Zh) => format!(
            "运行结束时，任务行的状态是{state}，归 {o} 所有，版本 {version}，第 {attempt} 次尝试。"
        ),
        (None, Lang::Zh) => format!(
            "运行结束时，任务行的状态是{state}，不归任何人，版本 {version}，第 {attempt} 次尝试。"
        ),
        (o, Lang::En) => format!(
            "When the run ended the task's row was {state}, {}, at version {version}, attempt {attempt}.",
            o.map_or("with no owner".to_string(), |o| format!("owned by {o}"))
        ),
    };
    let believed = match lang {
        Lang::Zh => format!("同一时刻自认为持有这个任务的工作者最多有 {believers} 个。"),
        Lang::En => format!(
            "The most workers believing at one moment that they held the task: {believers}."
        ),
    };
    join(vec![row, believed], lang)
}

/// When task `task` (0-based) saw a statement of kind `op` take effect, the first time.
fn took_effect(trace: &Trace, task: u8, op: RowOp) -> Option<Millis> {
    trace.events.iter().find_map(|e| match e.kind {
        EventKind::RowUpdated {
            row,
            op: o,
            affected: 1,
            ..
        } if row == task && o == op => Some(e.at_ms),
        _ => None,
    })
}

/// What became of each task, from the table's statements and the scanner's failures.
fn backlog(p: &TasksParams, m: &TaskMetrics, trace: &Trace, lang: Lang) -> String {
    let (every, scan) = (s(p.task_every_ms), s(p.scan_every_ms));
    let mut out = vec![match lang {
        Lang::Zh => format!(
            "{} 个任务每隔 {every} 秒到期一个；{}每 {scan} 秒扫描一次。",
            p.tasks,
            if p.workers == 1 {
                "1 个工作者".to_string()
            } else {
                format!("{} 个工作者各自", p.workers)
            }
        ),
        Lang::En => format!(
            "The {} fall due {every} s apart; {} every {scan} s.",
            count(p.tasks, "task", "tasks"),
            if p.workers == 1 {
                "1 worker scans".to_string()
            } else {
                format!("{} workers each scan", p.workers)
            }
        ),
    }];
    let mut fates = Vec::new();
    let mut unclaimed = Vec::new();
    for task in 0..m.tasks {
        let n = task + 1;
        let Some(c) = took_effect(trace, task, RowOp::Claim) else {
            unclaimed.push(n.to_string());
            continue;
        };
        let c = s(c);
        let threw = trace
            .events
            .iter()
            .find(|e| matches!(e.kind, EventKind::ScanFailed { row, .. } if row == task));
        let done = took_effect(trace, task, RowOp::Complete);
        let failed = took_effect(trace, task, RowOp::Fail);
        fates.push(match (threw.is_some(), failed, done, lang) {
            (true, Some(f), _, Lang::Zh) => format!(
                "任务 {n} 在 {c} 秒被领取，处理时抛出异常，{} 秒被记为失败",
                s(f)
            ),
            (true, Some(f), _, Lang::En) => format!(
                "task {n} was claimed at {c} s, threw, and was marked failed at {} s",
                s(f)
            ),
            (true, None, _, Lang::Zh) => format!("任务 {n} 在 {c} 秒被领取，处理时抛出异常"),
            (true, None, _, Lang::En) => format!("task {n} was claimed at {c} s and threw"),
            (false, _, Some(d), Lang::Zh) => {
                format!("任务 {n} 在 {c} 秒被领取，{} 秒完成", s(d))
            }
            (false, _, Some(d), Lang::En) => {
                format!("task {n} was claimed at {c} s and done at {} s", s(d))
            }
            (false, _, None, Lang::Zh) => {
                format!("任务 {n} 在 {c} 秒被领取，运行结束时还没完成")
            }
            (false, _, None, Lang::En) => {
                format!("task {n} was claimed at {c} s and not finished when the run ended")
            }
        });
    }
    if !unclaimed.is_empty() {
        let several = unclaimed.len() > 1;
        let which = list(&unclaimed, lang);
        fates.push(match (several, lang) {
            (false, Lang::Zh) => format!("任务 {which} 没有被领取"),
            (true, Lang::Zh) => format!("任务 {which} 都没有被领取"),
            (false, Lang::En) => format!("task {which} was never claimed"),
            (true, Lang::En) => format!("tasks {which} were never claimed"),
        });
    }
    out.push(match lang {
        Lang::Zh => format!("{}。", fates.join("；")),
        Lang::En => format!("{}.", capitalise(&fates.join("; "))),
    });
    out.extend(timeline(
        trace,
        |k| matches!(k, EventKind::ScanFailed { .. }),
        lang,
    ));
    // A pause and an outside system change what the backlog cost: say when and how much.
    out.extend(timeline(
        trace,
        |k| matches!(k, EventKind::Froze | EventKind::Woke),
        lang,
    ));
    out.extend(effects(p, m, lang));
    out.push(backlog_end(m, trace, lang));
    join(out, lang)
}

fn backlog_end(m: &TaskMetrics, trace: &Trace, lang: Lang) -> String {
    let end = s(trace.end_ms);
    let (done, failed, waiting) = (m.tasks_done, m.tasks_failed, m.tasks_waiting);
    match (m.oldest_due_age_ms.map(s), lang) {
        (Some(a), Lang::Zh) => format!(
            "运行在 {end} 秒结束时：完成 {done} 个，失败 {failed} 个，已到期却没人做完（还在就绪，或在运行但租约已过期）的 {waiting} 个，其中最老的已经到期 {a} 秒。"
        ),
        (Some(a), Lang::En) => format!(
            "When the run ended at {end} s: {done} done, {failed} failed, {waiting} due and unfinished (still ready, or running under a lapsed lease), the oldest of them due for {a} s."
        ),
        (None, Lang::Zh) => format!(
            "运行在 {end} 秒结束时：完成 {done} 个，失败 {failed} 个，已到期却没人做完的 {waiting} 个。"
        ),
        (None, Lang::En) => format!(
            "When the run ended at {end} s: {done} done, {failed} failed, {waiting} due and unfinished."
        ),
    }
}
