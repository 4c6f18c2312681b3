//! The answers to a script's questions, read off a run's trace in the learner's language: who
//! holds the lock at an instant, what the resource holds, what a metric came to.

use super::script::Ask;
use crate::engine::Trace;
use crate::engine::time::Millis;
use crate::engine::trace::Metrics;
use crate::i18n::{Lang, verdict_short};

fn nobody(lang: Lang) -> String {
    lang.pick("无人", "nobody").to_string()
}

fn yes_no(b: bool, lang: Lang) -> String {
    match b {
        true => lang.pick("是", "yes"),
        false => lang.pick("否", "no"),
    }
    .to_string()
}

/// The engine's answer to `ask` on `trace`, at time `at` where the question needs one.
pub fn answer(ask: Ask, trace: &Trace, at: Millis, lang: Lang) -> String {
    let secs = |v: Option<f64>| {
        v.map_or_else(
            || lang.pick("无", "none").to_string(),
            |s| crate::i18n::sim::seconds((s * 1000.0).round() as u64, lang),
        )
    };
    match (&trace.metrics, ask) {
        (_, Ask::HolderAt) => holder_at(trace, at, lang),
        (_, Ask::ValueAt) => value_at(trace, at, lang),
        (Metrics::Frozen(m), Ask::WriteAccepted) => match m.holder_write_accepted {
            Some(b) => yes_no(b, lang),
            None => lang.pick("A 没有写入", "A never wrote").to_string(),
        },
        (Metrics::Frozen(m), Ask::Verdict) => verdict_short(m.verdict, lang).to_string(),
        (Metrics::Frozen(m), Ask::FinalValue) => {
            m.final_value.clone().unwrap_or_else(|| nobody(lang))
        }
        (Metrics::Frozen(m), Ask::DangerWindow) => {
            crate::i18n::sim::seconds((m.danger_window * 1000.0).round() as u64, lang)
        }
        (Metrics::Frozen(m), Ask::HandoverDelay) => secs(m.handover_delay),
        (Metrics::Abc(m), Ask::StuckClients) => {
            if m.stuck_clients.is_empty() {
                nobody(lang)
            } else {
                m.stuck_clients.join(", ")
            }
        }
        (Metrics::Abc(m), Ask::DuplicateNodes) => m.duplicate_nodes.to_string(),
        (Metrics::Abc(m), Ask::StaleWritesAccepted) => m.stale_writes_accepted.to_string(),
        (Metrics::Abc(m), Ask::StaleWritesRejected) => m.stale_writes_rejected.to_string(),
        (Metrics::Abc(m), Ask::LostUpdates) => m.lost_updates.map_or_else(
            || lang.pick("没有数据节点", "no data node").to_string(),
            |n| n.to_string(),
        ),
        (Metrics::Abc(m), Ask::DataAt) => match &m.data {
            Some(d) => {
                let (version, value) = d.at(at);
                match lang {
                    Lang::Zh => format!("版本 {version}，计数 {value}"),
                    Lang::En => format!("version {version}, counter {value}"),
                }
            }
            None => lang.pick("没有数据节点", "no data node").to_string(),
        },
        (Metrics::Abc(m), Ask::WakeupsPerRelease) => {
            let v: Vec<String> = m.wakeups_per_release.iter().map(u32::to_string).collect();
            format!("[{}]", v.join(", "))
        }
        (Metrics::Herd(m), Ask::TotalNotifications) => m.total_notifications.to_string(),
        (Metrics::Herd(m), Ask::WastedWakeups) => m.wasted_wakeups.to_string(),
        (_, Ask::HoldersAt) => holders_at(trace, at, lang),
        (Metrics::Election(m), Ask::Result) => m.result.clone().unwrap_or_else(|| nobody(lang)),
        (Metrics::Election(m), Ask::StaleSubmitsRejected) => m.stale_submits_rejected.to_string(),
        (Metrics::Election(m), Ask::StaleSubmitsAccepted) => m.stale_submits_accepted.to_string(),
        (Metrics::Tasks(m), Ask::Result) => m.result.clone().unwrap_or_else(|| nobody(lang)),
        (Metrics::Tasks(_), Ask::ClaimAt) => claim_at(trace, at, lang),
        (Metrics::Tasks(m), Ask::EffectsApplied) => m.effects_applied.to_string(),
        (Metrics::Tasks(m), Ask::LateRefused) => m.late_refused.to_string(),
        (Metrics::Tasks(m), Ask::ClaimsMissed) => m.claims_missed.to_string(),
        (Metrics::Tasks(m), Ask::CompletedAfterLease) => m.completed_after_lease.to_string(),
        (Metrics::Tasks(m), Ask::CancelOutcome) => m.cancel.map_or_else(
            || lang.pick("没有取消", "no cancellation").to_string(),
            |c| crate::i18n::sim::cancel_outcome(c, lang).to_string(),
        ),
        (Metrics::Tasks(m), Ask::TasksWaiting) => m.tasks_waiting.to_string(),
        (Metrics::Queue(m), Ask::GrantOrder) => m.grant_order.join(lang.pick("、", ", ")),
        (Metrics::Queue(m), Ask::MaxHolders) => m.max_holders.to_string(),
        (Metrics::Queue(m), Ask::MaxConcurrentReaders) => m.max_concurrent_readers.to_string(),
        (Metrics::Queue(m), Ask::WriterWait) => match m.writer_wait_ms {
            Some(w) => crate::i18n::sim::seconds(w, lang),
            None => lang.pick("无写者", "no writer").to_string(),
        },
        (Metrics::Redlock(m), Ask::MaxHolders) => m.max_holders.to_string(),
        (Metrics::Redlock(m), Ask::StaleWritesAccepted) => m.stale_writes_accepted.to_string(),
        (Metrics::Redlock(m), Ask::FinalValue) => {
            m.final_value.clone().unwrap_or_else(|| nobody(lang))
        }
        (Metrics::Redlock(m), Ask::ValidityMs) => match m.validity_ms {
            Some(v) => format!("{v} {}", lang.pick("毫秒", "ms")),
            None => lang.pick("没有人拿到锁", "nobody acquired").to_string(),
        },
        (Metrics::Redlock(m), Ask::ForeignDeletes) => m.foreign_deletes.to_string(),
        (Metrics::Etcd(m), Ask::StaleWritesAccepted) => m.stale_writes_accepted.to_string(),
        (Metrics::Etcd(m), Ask::StaleWritesRejected) => m.stale_writes_refused.to_string(),
        (Metrics::Etcd(m), Ask::FinalValue) => {
            m.final_value.clone().unwrap_or_else(|| nobody(lang))
        }
        (_, Ask::KeysAt) => keys_at(trace, at, lang),
        (Metrics::Snowflake(m), Ask::IdsIssued) => m.ids_issued.to_string(),
        (Metrics::Snowflake(m), Ask::DuplicateIds) => m.duplicate_ids.to_string(),
        (Metrics::Snowflake(m), Ask::MaxWaitMs) => {
            format!("{} {}", m.max_wait_ms, lang.pick("毫秒", "ms"))
        }
        (_, Ask::IdsAt) => ids_at(trace, at, lang),
        (Metrics::Queue(m), Ask::StuckClients) => {
            if m.stuck_clients.is_empty() {
                nobody(lang)
            } else {
                m.stuck_clients.join(", ")
            }
        }
        _ => lang
            .pick("（此场景无法回答）", "(this scenario cannot answer that)")
            .to_string(),
    }
}

/// Who holds the lock at `at` in the service's view: the lease holder, or the owner of the
/// lock directory's first node, as the service's lane records it.
pub fn holder_at(trace: &Trace, at: Millis, lang: Lang) -> String {
    use crate::engine::trace::SpanState;
    let service = trace
        .lanes
        .iter()
        .find(|l| {
            matches!(
                trace.role(l.actor),
                Some(
                    crate::engine::trace::Role::Coordinator
                        | crate::engine::trace::Role::LeaseService
                )
            )
        })
        .and_then(|l| l.span_at(at));
    match service.map(|s| s.state) {
        Some(SpanState::Leased { holder, .. }) => trace.name(holder).to_string(),
        Some(SpanState::Etcd(crate::engine::trace::etcd::EtcdSpan::Prefix {
            holder: Some(h),
            token,
            ..
        })) => {
            let name = trace.name(h);
            if lang == Lang::Zh {
                format!("{name}（版本 {token}）")
            } else {
                format!("{name} (revision {token})")
            }
        }
        Some(SpanState::Queue { holders, .. }) if !holders.is_empty() => {
            let snapshot = trace.service_at(at);
            let named: Vec<String> = holders
                .iter()
                .map(|h| {
                    let node = snapshot
                        .and_then(|snap| snap.children.iter().find(|c| c.owner == h))
                        .map(|c| c.seq.to_string())
                        .unwrap_or_default();
                    let name = trace.name(h);
                    if lang == Lang::Zh {
                        format!("{name}（节点 {node}）")
                    } else {
                        format!("{name} (node {node})")
                    }
                })
                .collect();
            named.join(lang.pick("、", ", "))
        }
        _ => nobody(lang),
    }
}

/// Everyone who holds at `at` as the engine has it (readers and permit holders included).
pub fn holders_at(trace: &Trace, at: Millis, lang: Lang) -> String {
    let names: Vec<&str> = trace
        .holders_at(at)
        .into_iter()
        .map(|a| trace.name(a))
        .collect();
    if names.is_empty() {
        nobody(lang)
    } else {
        names.join(lang.pick("、", ", "))
    }
}

/// Whom the task's row names as claimant at `at`, with the claim version, read off the table's
/// lane.
pub fn claim_at(trace: &Trace, at: Millis, lang: Lang) -> String {
    use crate::engine::trace::{Role, SpanState};
    let row = trace
        .lanes
        .iter()
        .find(|l| trace.role(l.actor) == Some(Role::Table))
        .and_then(|l| l.span_at(at));
    match row.map(|s| s.state) {
        Some(SpanState::Task {
            owner: Some(o),
            version,
            row_state: crate::engine::msg::RowState::Running,
            ..
        }) => {
            if lang == Lang::Zh {
                format!("{}（领取版本 {version}）", trace.name(o))
            } else {
                format!("{} (claim version {version})", trace.name(o))
            }
        }
        _ => nobody(lang),
    }
}

/// Whose key each Redis node holds at `at`, as the nodes' lanes record it.
pub fn keys_at(trace: &Trace, at: Millis, lang: Lang) -> String {
    use crate::engine::trace::redlock::RedlockSpan;
    use crate::engine::trace::{Role, SpanState};
    let parts: Vec<String> = trace
        .lanes
        .iter()
        .filter(|l| trace.role(l.actor) == Some(Role::Node))
        .map(|l| {
            let whose = match l.span_at(at).map(|s| s.state) {
                Some(SpanState::Redlock(RedlockSpan::Key { owner })) => trace.name(owner),
                Some(SpanState::Crashed) => lang.pick("宕机", "down"),
                _ => "-",
            };
            format!("{} {whose}", trace.name(l.actor))
        })
        .collect();
    parts.join(lang.pick("，", ", "))
}

/// The IDs issued at `at`, as `G1 1000|7|0`, duplicates marked.
pub fn ids_at(trace: &Trace, at: Millis, lang: Lang) -> String {
    let Metrics::Snowflake(m) = &trace.metrics else {
        return nobody(lang);
    };
    let ids: Vec<String> = m
        .ids
        .iter()
        .filter(|r| r.at_ms == at)
        .map(|r| {
            let dup = if r.duplicate {
                lang.pick("（重复）", " (duplicate)")
            } else {
                ""
            };
            format!(
                "{} {}|{}|{}{dup}",
                trace.name(r.generator),
                r.time,
                r.worker,
                r.sequence
            )
        })
        .collect();
    if ids.is_empty() {
        lang.pick("这一刻没有发出 ID", "no ID at that instant")
            .into()
    } else {
        ids.join(lang.pick("，", ", "))
    }
}

/// What the resource holds at `at`: the writer and its token, or nothing yet.
pub fn value_at(trace: &Trace, at: Millis, lang: Lang) -> String {
    match trace.value_at(at) {
        // A Redlock writer has no token to show.
        Some(w) if w.token == 0 && !w.fencing => trace.name(w.writer).to_string(),
        Some(w) => {
            let name = trace.name(w.writer);
            if lang == Lang::Zh {
                format!("{name}（令牌 {}）", w.token)
            } else {
                format!("{name} (token {})", w.token)
            }
        }
        None => lang.pick("还没有值", "no value yet").to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::Params;
    use crate::engine::params::FrozenParams;

    #[test]
    fn answers_come_from_the_trace() {
        let t = crate::engine::run(&Params::Frozen(FrozenParams::default()));
        assert_eq!(answer(Ask::HolderAt, &t, 18_000, Lang::En), "A");
        assert_eq!(answer(Ask::HolderAt, &t, 20_000, Lang::En), "B");
        assert_eq!(answer(Ask::ValueAt, &t, 20_000, Lang::En), "no value yet");
        assert_eq!(answer(Ask::ValueAt, &t, 22_000, Lang::En), "B (token 2)");
        assert_eq!(answer(Ask::WriteAccepted, &t, 0, Lang::En), "no");
        assert_eq!(
            answer(Ask::Verdict, &t, 0, Lang::En),
            "stale write rejected"
        );
        assert_eq!(answer(Ask::DangerWindow, &t, 0, Lang::Zh), "19 秒");
        assert_eq!(answer(Ask::DangerWindow, &t, 0, Lang::En), "19 s");
    }
}
