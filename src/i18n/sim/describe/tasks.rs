//! The task family's events as sentences: conditional row updates, the outside system's calls
//! and effects, claims lost, cancellations and failed scans.

use super::*;

/// A task-family event in words; [`super::describe`] sends only those events here.
pub(super) fn describe(e: &Event, trace: &Trace, lang: Lang) -> String {
    let who = actor_name(trace, e.actor, lang);
    let zh = lang == Lang::Zh;
    let pick = |z: String, en: String| if zh { z } else { en };
    use EventKind::*;
    match &e.kind {
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
        LearnedClaimLost => pick(
            format!("{who} 的续期影响 0 行：它这才知道领取已经不归自己了。"),
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
        _ => String::new(),
    }
}
