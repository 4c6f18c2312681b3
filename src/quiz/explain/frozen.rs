//! The frozen holder's explanation: the pause against the lease, the writes and their tokens,
//! and the value the resource ends with.

use super::*;

pub(super) fn frozen(p: &FrozenParams, m: &FrozenMetrics, trace: &Trace, lang: Lang) -> String {
    let zh = lang == Lang::Zh;
    let mut out = Vec::new();
    if let Some((from, to)) = facts::pause(trace, "A") {
        out.push(if zh {
            format!("A 在 {} 秒停顿，{} 秒醒来。", s(from), s(to))
        } else {
            format!("A froze at {} s and woke at {} s.", s(from), s(to))
        });
    }
    out.push(lease_sentence(p, m, trace, lang));
    if let Some(r) = facts::keepalive_refused(trace) {
        out.push(if zh {
            format!("{} 秒到达的续约已经太迟，被服务端拒绝。", s(r))
        } else {
            format!(
                "The keepalive that arrived at {} s came too late and was refused.",
                s(r)
            )
        });
    }
    out.push(handover_sentence(m, lang));
    if let (Some(l), Some(_)) = (
        facts::learned_lease_lost(trace),
        facts::write_abandoned(trace),
    ) {
        out.push(if zh {
            format!("A 在 {} 秒得知租约已失，放弃了自己的写入。", s(l))
        } else {
            format!(
                "A learned at {} s that its lease was lost and abandoned its write.",
                s(l)
            )
        });
    }
    out.push(writes_sentence(&facts::writes(trace), lang));
    if m.holder_write_arrival.is_none() && m.holder_write_accepted.is_none() {
        let abandoned = facts::write_abandoned(trace).is_some();
        if !abandoned {
            out.push(if zh {
                "A 的写入在运行结束前没有到达资源。".into()
            } else {
                "A's write did not reach the resource before the run ended.".into()
            });
        }
    }
    out.push(match (m.holder_write_arrival, m.lease_expiry) {
        (Some(w), Some(e)) if zh => format!(
            "危险窗口：max(0, {} - {}) = {} 秒。",
            f(w),
            f(e),
            f(m.danger_window)
        ),
        (Some(w), Some(e)) => format!(
            "Danger window: max(0, {} - {}) = {} s.",
            f(w),
            f(e),
            f(m.danger_window)
        ),
        _ if zh => format!(
            "危险窗口：{} 秒（没有过期后才到的写入）。",
            f(m.danger_window)
        ),
        _ => format!(
            "Danger window: {} s (no write arrived after an expiry).",
            f(m.danger_window)
        ),
    });
    let value = value_words(m.final_value.as_deref(), lang);
    out.push(if zh {
        format!(
            "结论：{}；资源最后存的是{value}。",
            verdict_short(m.verdict, lang)
        )
    } else {
        format!(
            "Verdict: {}; the resource ends holding {value}.",
            verdict_short(m.verdict, lang)
        )
    });
    join(out, lang)
}

/// When and why the lease expired: the last keepalive the service accepted and the deadline it
/// set, or the first deadline when none was accepted.
fn lease_sentence(p: &FrozenParams, m: &FrozenMetrics, trace: &Trace, lang: Lang) -> String {
    let zh = lang == Lang::Zh;
    let ttl = s(p.ttl_ms);
    match (m.lease_expiry, facts::last_renewal(trace)) {
        (Some(e), Some((k, d))) if (d as f64 / 1000.0 - e).abs() < 1e-9 => {
            if zh {
                format!(
                    "服务端最后接受的续约在 {} 秒到达，把截止时间定为 {} + {ttl} = {} 秒；此后没有续约赶在截止前到达，租约在 {} 秒过期。",
                    s(k),
                    s(k),
                    s(d),
                    f(e)
                )
            } else {
                format!(
                    "The last keepalive the service accepted arrived at {} s and set the deadline to {} + {ttl} = {} s; none arrived before that deadline, so the lease expired at {} s.",
                    s(k),
                    s(k),
                    s(d),
                    f(e)
                )
            }
        }
        (Some(e), None) => {
            if zh {
                format!(
                    "服务端没有接受过任何续约，租约在最初的截止时间 {} 秒（TTL {ttl} 秒）过期。",
                    f(e)
                )
            } else {
                format!(
                    "The service accepted no keepalive, so the lease expired at its first deadline, {} s (TTL {ttl} s).",
                    f(e)
                )
            }
        }
        (Some(e), Some(_)) => {
            if zh {
                format!("租约在 {} 秒过期。", f(e))
            } else {
                format!("The lease expired at {} s.", f(e))
            }
        }
        (None, Some((k, _))) => {
            if zh {
                format!(
                    "租约始终没有过期：每次续约都在截止前到达（最后一次在 {} 秒）。",
                    s(k)
                )
            } else {
                format!(
                    "The lease never expired: every keepalive arrived before its deadline (the last at {} s).",
                    s(k)
                )
            }
        }
        (None, None) => {
            if zh {
                "租约始终没有过期。".to_string()
            } else {
                "The lease never expired.".to_string()
            }
        }
    }
}

/// When B was granted the lock and the handover delay, or that it never was.
fn handover_sentence(m: &FrozenMetrics, lang: Lang) -> String {
    let zh = lang == Lang::Zh;
    let Some(a) = m.successor_acquire else {
        return lang
            .pick(
                "B 在运行结束前没有拿到锁。",
                "B was not granted the lock before the run ended.",
            )
            .into();
    };
    match (m.lease_expiry, m.handover_delay) {
        (Some(e), Some(d)) if zh => format!(
            "B 在 {} 秒获准持锁，交接延迟 {} - {} = {} 秒。",
            f(a),
            f(a),
            f(e),
            f(d)
        ),
        (Some(e), Some(d)) => format!(
            "B was granted the lock at {} s: a handover delay of {} - {} = {} s.",
            f(a),
            f(a),
            f(e),
            f(d)
        ),
        _ if zh => format!("B 在 {} 秒获准持锁。", f(a)),
        _ => format!("B was granted the lock at {} s.", f(a)),
    }
}
