//! A semaphore's run: permits, who entered at which place, and the most inside at once.

use super::{Crowd, clients, count, crowd, join, most_sentence, s, starts};
use crate::engine::params::SemaphoreParams;
use crate::engine::trace::event::Admission;
use crate::engine::trace::{EventKind, QueueMetrics, Trace, invariant};
use crate::i18n::Lang;

pub fn semaphore(p: &SemaphoreParams, m: &QueueMetrics, trace: &Trace, lang: Lang) -> String {
    let names = clients(p.clients as usize);
    let gap = starts(p.common.start_gap_ms, lang);
    let hold = s(p.common.hold_ms);
    let mut out = vec![match lang {
        Lang::Zh => format!(
            "{} 个客户端{gap}，进入后各持有 {hold} 秒；信号量起初有 {} 个许可。",
            p.clients, p.permits
        ),
        Lang::En => format!(
            "The {} {gap}, and each stays {hold} s once inside; the semaphore starts with {}.",
            count(p.clients, "client", "clients"),
            count(p.permits, "permit", "permits")
        ),
    }];
    out.extend(happenings(p, trace, lang));
    out.push(entries(trace, lang));
    let at = crowd(trace, &names, m.max_holders);
    out.push(most_sentence(m.max_holders, at, Crowd::PermitHolders, lang));
    if let Some(t) = trace
        .invariant(invariant::WITHIN_PERMITS)
        .and_then(|i| i.first_violation_ms())
    {
        out.push(match lang {
            Lang::Zh => format!("从 {} 秒起，持有者的数目超过了当时配置的许可数。", s(t)),
            Lang::En => format!(
                "From {} s on, more clients held than the permits configured at that moment.",
                s(t)
            ),
        });
    }
    join(out, lang)
}

/// A changed permit count, crashes and expired sessions, in the order they happened.
fn happenings(p: &SemaphoreParams, trace: &Trace, lang: Lang) -> Vec<String> {
    let mut out = Vec::new();
    for e in &trace.events {
        let who = trace.name(e.actor);
        let t = s(e.at_ms);
        match (&e.kind, lang) {
            (EventKind::PermitsLowered { permits }, Lang::Zh) if *permits < p.permits => {
                out.push(format!(
                    "{t} 秒时许可数调低为 {permits}：已经进去的持有者不会被请出来，此后启动的客户端按新的许可数判断能否进入。"
                ))
            }
            (EventKind::PermitsLowered { permits }, Lang::Zh) if *permits == p.permits => {
                out.push(format!("{t} 秒时许可数又被设为 {permits}，和原来一样。"))
            }
            (EventKind::PermitsLowered { permits }, Lang::En) if *permits == p.permits => {
                out.push(format!(
                    "At {t} s the permit count was set to {permits} again, the same as before."
                ))
            }
            (EventKind::PermitsLowered { permits }, Lang::Zh) => out.push(format!(
                "{t} 秒时许可数调高为 {permits}，此后启动的客户端按新的许可数判断能否进入。"
            )),
            (EventKind::PermitsLowered { permits }, Lang::En) if *permits < p.permits => {
                out.push(format!(
                    "At {t} s the permit count dropped to {permits}: holders already inside stay, and clients that start later count against the new number."
                ))
            }
            (EventKind::PermitsLowered { permits }, Lang::En) => out.push(format!(
                "At {t} s the permit count rose to {permits}; clients that start later count against the new number."
            )),
            (EventKind::Crashed, Lang::Zh) => out.push(format!("{who} 在 {t} 秒崩溃。")),
            (EventKind::Crashed, Lang::En) => out.push(format!("{who} crashed at {t} s.")),
            (EventKind::SessionExpired { owner, .. }, _) => {
                let owner = trace.name(*owner);
                out.push(match lang {
                    Lang::Zh => format!("{owner} 的会话在 {t} 秒过期，它的节点随之删除。"),
                    Lang::En => {
                        format!("{owner}'s session expired at {t} s, and its node went with it.")
                    }
                });
            }
            _ => {}
        }
    }
    out
}

/// Who held a permit and when, with the place of its node that let it in.
fn entries(trace: &Trace, lang: Lang) -> String {
    let entries: Vec<String> = trace
        .events
        .iter()
        .filter_map(|e| {
            let EventKind::Admitted {
                node,
                how: Admission::Permit { place, permits },
                ..
            } = e.kind
            else {
                return None;
            };
            let who = trace.name(e.actor);
            // The permit is the node: it ends when the service deletes the node (a release, or
            // the session's expiry after a crash), not when the holder's lane stops.
            let to = permit_end(trace, node, e.at_ms);
            let from = s(e.at_ms);
            let span = match (to >= trace.end_ms, lang) {
                (false, Lang::Zh) => format!("从 {from} 秒到 {} 秒", s(to)),
                (true, Lang::Zh) => format!("从 {from} 秒起直到运行结束"),
                (false, Lang::En) => format!("from {from} to {} s", s(to)),
                (true, Lang::En) => format!("from {from} s until the run ended"),
            };
            Some(match lang {
                Lang::Zh => format!("{who} {span}（节点排第 {place}，在前 {permits} 个之内）"),
                Lang::En => format!(
                    "{who} {span} (its node {} in line, within the first {permits})",
                    ordinal(place)
                ),
            })
        })
        .collect();
    match lang {
        Lang::Zh => format!("持有许可的时段：{}。", entries.join("；")),
        Lang::En => format!("Who held a permit: {}.", entries.join("; ")),
    }
}

/// When the service deleted the node that held a permit from `from`, else the run's end.
fn permit_end(trace: &Trace, node: crate::engine::zk::tree::NodeId, from: u64) -> u64 {
    trace
        .events
        .iter()
        .find(|d| {
            d.at_ms >= from && matches!(d.kind, EventKind::NodeDeleted { node: n, .. } if n == node)
        })
        .map_or(trace.end_ms, |d| d.at_ms)
}

/// `1st`, `2nd`, `3rd`, `4th`, ..., `11th`, `21st`.
fn ordinal(n: u32) -> String {
    let suffix = match (n % 10, n % 100) {
        (_, 11..=13) => "th",
        (1, _) => "st",
        (2, _) => "nd",
        (3, _) => "rd",
        _ => "th",
    };
    format!("{n}{suffix}")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::Params;

    fn preset_run(name: &str) -> (SemaphoreParams, QueueMetrics, Trace) {
        let p = crate::scenario::find(name).expect("the preset ships");
        let Params::Semaphore(params) = &p.params else {
            panic!("{name} is a semaphore preset");
        };
        let t = crate::engine::run(&p.params);
        let Metrics::Queue(m) = &t.metrics else {
            panic!("a queue trace");
        };
        (params.clone(), m.clone(), t)
    }

    use crate::engine::trace::Metrics;

    #[test]
    fn a_crashed_holders_permit_ends_at_its_session_expiry_not_at_the_crash() {
        let (p, m, t) = preset_run("semaphore-expiry");
        let text = semaphore(&p, &m, &t, Lang::En);
        // B crashes at 1 s; its node 31, and with it the permit, goes at the 6 s expiry.
        assert!(text.contains("B crashed at 1 s."), "{text}");
        assert!(text.contains("B from 0.14 to 6 s"), "{text}");
        assert!(!text.contains("B from 0.14 to 1 s"), "{text}");
        let zh = semaphore(&p, &m, &t, Lang::Zh);
        assert!(zh.contains("B 从 0.14 秒到 6 秒"), "{zh}");
    }
}
