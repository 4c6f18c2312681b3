//! Snowflake runs in words: generator lane states, events and parameters. Like [`super::sim`],
//! it looks up names and computes nothing.

use crate::engine::params::{GENERATORS, OnExhaustion, OnRollback, SnowflakeParams};
use crate::engine::trace::snowflake::{IdEvent, IdSpan, RefuseReason, WaitReason};
use crate::engine::trace::{Event, Trace};

use super::Lang;

pub fn state_name(s: IdSpan, lang: Lang) -> &'static str {
    let (zh, en) = match s {
        IdSpan::Issued {
            duplicate: true, ..
        } => ("发出重复 ID", "issuing a duplicate"),
        IdSpan::Issued { held: 1.., .. } => ("发号，其余请求等待", "issuing, others wait"),
        IdSpan::Issued { .. } => ("发号", "issuing"),
        IdSpan::Waiting { .. } => ("请求等待中", "requests waiting"),
        IdSpan::Refusing { .. } => ("拒绝发号", "refusing"),
    };
    lang.pick(zh, en)
}

fn wait_reason(r: WaitReason, lang: Lang) -> String {
    match (r, lang) {
        (WaitReason::SequenceUsedUp, _) => lang.pick("序列号用尽", "sequence used up").into(),
        (WaitReason::ClockBehind { behind_ms }, Lang::Zh) => format!("时钟落后 {behind_ms} 毫秒"),
        (WaitReason::ClockBehind { behind_ms }, Lang::En) => {
            format!("clock {behind_ms} ms behind")
        }
        (WaitReason::StartWait, _) => lang.pick("启动后等过这一毫秒", "start wait").into(),
        (WaitReason::WorkerLease, _) => lang.pick("等 worker 编号", "waiting for worker id").into(),
    }
}

fn refuse_reason(r: RefuseReason, lang: Lang) -> String {
    match (r, lang) {
        (RefuseReason::ClockBehind { behind_ms }, Lang::Zh) => {
            format!("时钟比上次用过的毫秒早 {behind_ms} 毫秒")
        }
        (RefuseReason::ClockBehind { behind_ms }, Lang::En) => {
            format!("its clock reads {behind_ms} ms before the last millisecond it used")
        }
        (RefuseReason::WorkerTaken, _) => lang
            .pick(
                "它的 worker 编号在别的进程手里",
                "another process holds its worker id",
            )
            .into(),
        (RefuseReason::TimeOutOfRange, _) => lang
            .pick(
                "时钟超出了时间字段能表示的范围",
                "its clock is outside what the time field can hold",
            )
            .into(),
    }
}

/// `1000|7|0–1`, the fields of the IDs issued in one millisecond.
pub fn state_label(s: IdSpan, lang: Lang) -> String {
    match s {
        IdSpan::Issued {
            time,
            worker,
            first,
            last,
            count,
            held,
            duplicate,
        } => {
            let seqs = if first == last && count == 1 {
                first.to_string()
            } else if last >= first && count == last - first + 1 {
                format!("{first}–{last}")
            } else {
                format!("{first}…{last} ×{count}")
            };
            let mark = if duplicate {
                lang.pick("重复 ", "dup ")
            } else {
                ""
            };
            let wait = match (held, lang) {
                (0, _) => String::new(),
                (h, Lang::Zh) => format!("，{h} 个等待"),
                (h, Lang::En) => format!(", {h} wait"),
            };
            format!("{mark}{time}|{worker}|{seqs}{wait}")
        }
        IdSpan::Waiting { reason } => wait_reason(reason, lang),
        IdSpan::Refusing { reason } => match lang {
            Lang::Zh => format!("拒绝：{}", refuse_reason(reason, lang)),
            Lang::En => format!("refusing: {}", refuse_reason(reason, lang)),
        },
    }
}

/// The same label in two short lines for narrow spans: the millisecond, then the rest.
pub fn state_label_lines(s: IdSpan, lang: Lang) -> Option<(String, String)> {
    let IdSpan::Issued { time, .. } = s else {
        return None;
    };
    let label = state_label(s, lang);
    let prefix = format!("{time}|");
    let (mark, rest) = match label.split_once(&prefix) {
        Some((mark, rest)) => (mark.to_string(), rest.to_string()),
        None => return None,
    };
    Some((format!("{mark}{time}"), rest))
}

/// One or two sentences for a Snowflake event.
pub fn describe(ev: &IdEvent, e: &Event, trace: &Trace, lang: Lang) -> String {
    let who = trace.name(e.actor);
    let zh = lang == Lang::Zh;
    let pick = |z: String, en: String| if zh { z } else { en };
    match ev {
        IdEvent::Issued {
            id,
            time,
            worker,
            sequence,
            waited_ms,
            wrapped,
        } => {
            let waited = match (*waited_ms, zh) {
                (0, _) => String::new(),
                (w, true) => format!("（请求等了 {w} 毫秒）"),
                (w, false) => format!(" (the request waited {w} ms)"),
            };
            let wrap = match (wrapped, zh) {
                (false, _) => "",
                (true, true) => "：这一毫秒的序列号用完了，它又从 0 开始",
                (true, false) => {
                    ": this millisecond's sequence had run out and it started again at 0"
                }
            };
            pick(
                format!("{who} 发出 {time}|{worker}|{sequence} = {id}{waited}{wrap}。"),
                format!("{who} issues {time}|{worker}|{sequence} = {id}{waited}{wrap}."),
            )
        }
        IdEvent::Collision {
            id,
            first,
            first_at_ms,
        } => {
            let f = trace.name(*first);
            pick(
                format!("重复：{f} 在 {first_at_ms} 毫秒已经发过 {id}。"),
                format!("Duplicate: {f} already issued {id} at {first_at_ms} ms."),
            )
        }
        IdEvent::WaitStarted { reason } => match reason {
            WaitReason::SequenceUsedUp => pick(
                format!("{who} 这一毫秒的序列号用完了，剩下的请求等下一毫秒。"),
                format!(
                    "{who} has used up this millisecond's sequence numbers; the other requests wait for the next millisecond."
                ),
            ),
            WaitReason::ClockBehind { behind_ms } => pick(
                format!(
                    "{who} 的时钟比上次用过的毫秒还早 {behind_ms} 毫秒，请求先等着，等时钟追上来。"
                ),
                format!(
                    "{who}'s clock reads {behind_ms} ms before the last millisecond it used; requests wait until the clock catches up."
                ),
            ),
            WaitReason::StartWait => pick(
                format!("{who} 刚启动，先等过当前这一毫秒：上一个进程可能已经在这一毫秒里发过号。"),
                format!(
                    "{who} has just started and waits out the current millisecond, which a previous process may have used."
                ),
            ),
            WaitReason::WorkerLease => pick(
                format!("{who} 还没拿到 worker 编号的租约，请求先等着。"),
                format!("{who} has no lease on its worker id yet; requests wait."),
            ),
        },
        IdEvent::Refused { count, reason } => {
            let r = refuse_reason(*reason, lang);
            pick(
                format!("{who} 拒绝了 {count} 个请求：{r}。"),
                format!("{who} turns down {count} requests: {r}."),
            )
        }
        IdEvent::ClockSteppedBack {
            by_ms,
            reads,
            last_used,
        } => {
            let last = match (last_used, zh) {
                (None, _) => String::new(),
                (Some(l), true) => format!("，而上次用过的毫秒是 {l}"),
                (Some(l), false) => format!(", while the last millisecond it used is {l}"),
            };
            pick(
                format!("{who} 的时钟被回拨 {by_ms} 毫秒，现在读数 {reads}{last}。"),
                format!("{who}'s clock is stepped back {by_ms} ms and now reads {reads}{last}."),
            )
        }
        IdEvent::StartWait { until } => pick(
            format!("{who} 启动：毫秒 {until} 之前不发号。"),
            format!("{who} starts and will issue nothing before millisecond {until}."),
        ),
        IdEvent::WorkerClaimSent { worker } => pick(
            format!("{who} 向登记处申请 worker 编号 {worker}。"),
            format!("{who} asks the registry for worker id {worker}."),
        ),
        IdEvent::WorkerGranted { worker, to } => {
            let to = trace.name(*to);
            pick(
                format!("登记处把 worker 编号 {worker} 给了 {to}。"),
                format!("The registry grants worker id {worker} to {to}."),
            )
        }
        IdEvent::WorkerDenied { worker, to, holder } => {
            let (to, holder) = (trace.name(*to), trace.name(*holder));
            pick(
                format!("worker 编号 {worker} 已归 {holder}，登记处拒绝了 {to}。"),
                format!("Worker id {worker} is held by {holder}; the registry turns {to} down."),
            )
        }
    }
}

/// The parameters of a Snowflake run in one line.
pub fn params_line(p: &SnowflakeParams, lang: Lang) -> String {
    let zh = lang == Lang::Zh;
    let on = |b: bool| lang.pick(if b { "开" } else { "关" }, if b { "on" } else { "off" });
    let workers: Vec<String> = p.workers.iter().map(u32::to_string).collect();
    let l = p.layout;
    let generators = match (p.workers.len(), zh) {
        (1, false) => "1 generator".to_string(),
        (n, false) => format!("{n} generators"),
        (n, true) => format!("{n} 个生成器"),
    };
    let mut parts = vec![if zh {
        format!(
            "{generators}（worker 编号 {}），位布局：时间 {} 位 + worker {} 位 + 序列号 {} 位，时钟从毫秒 {} 开始，每毫秒 {} 个请求，运行 {} 毫秒",
            workers.join("、"),
            l.time_bits,
            l.worker_bits,
            l.sequence_bits,
            p.clock_start,
            p.rate,
            p.duration_ms
        )
    } else {
        format!(
            "{generators} (worker ids {}), layout time {} + worker {} + sequence {} bits, clock from millisecond {}, {} requests per ms, {} ms run",
            workers.join(", "),
            l.time_bits,
            l.worker_bits,
            l.sequence_bits,
            p.clock_start,
            p.rate,
            p.duration_ms
        )
    }];
    if p.burst > 0 {
        parts.push(if zh {
            format!(
                "{} 在 {} 毫秒多来 {} 个请求",
                GENERATORS[0], p.burst_at_ms, p.burst
            )
        } else {
            format!(
                "{} {} extra requests at {} ms",
                GENERATORS[0], p.burst, p.burst_at_ms
            )
        });
    }
    if p.crash_generator > 0 {
        let g = GENERATORS[p.crash_generator as usize - 1];
        parts.push(if zh {
            format!(
                "{g} 在 {} 毫秒崩溃，{} 毫秒后重启",
                p.crash_at_ms, p.restart_after_ms
            )
        } else {
            format!(
                "{g} crashes at {} ms and restarts {} ms later",
                p.crash_at_ms, p.restart_after_ms
            )
        });
    }
    if p.rollback_ms > 0 {
        let g = GENERATORS[p.rollback_generator as usize - 1];
        parts.push(if zh {
            format!(
                "{g} 的时钟在 {} 毫秒回拨 {} 毫秒",
                p.rollback_at_ms, p.rollback_ms
            )
        } else {
            format!(
                "{g}'s clock steps back {} ms at {} ms",
                p.rollback_ms, p.rollback_at_ms
            )
        });
    }
    let rollback = match (p.on_rollback, zh) {
        (OnRollback::Ignore, true) => "照常发号",
        (OnRollback::Refuse, true) => "拒绝",
        (OnRollback::Wait, true) => "等时钟追上",
        (OnRollback::Ignore, false) => "carry on",
        (OnRollback::Refuse, false) => "refuse",
        (OnRollback::Wait, false) => "wait for the clock",
    };
    let exhaustion = match (p.on_exhaustion, zh) {
        (OnExhaustion::Wait, true) => "等下一毫秒",
        (OnExhaustion::Wrap, true) => "绕回 0",
        (OnExhaustion::Wait, false) => "wait for the next ms",
        (OnExhaustion::Wrap, false) => "wrap to 0",
    };
    parts.push(if zh {
        format!(
            "启动后等过一毫秒：{}，时钟回拨时：{rollback}，序列号用尽时：{exhaustion}，worker 编号租约：{}",
            on(p.wait_on_start),
            on(p.worker_leases)
        )
    } else {
        format!(
            "start wait {}, on rollback {rollback}, when the sequence runs out {exhaustion}, worker leases {}",
            on(p.wait_on_start),
            on(p.worker_leases)
        )
    });
    parts.join(lang.pick("，", ", "))
}
