//! The A/B/C queue's explanation: the faults each client met, when sessions expired (or why
//! none did), and who held the lock when, or who is stuck.

use super::*;

/// The faults that hit `client`, as the trace recorded them.
pub(super) fn faults_sentence(trace: &Trace, client: &str, lang: Lang) -> String {
    let zh = lang == Lang::Zh;
    let mut out = Vec::new();
    if let Some((a, b)) = facts::pause(trace, client) {
        out.push(if zh {
            format!("{client} 在 {} 秒停顿，{} 秒醒来。", s(a), s(b))
        } else {
            format!("{client} froze at {} s and woke at {} s.", s(a), s(b))
        });
    }
    if let Some((a, b)) = facts::disconnection(trace, client) {
        out.push(if zh {
            format!("{client} 在 {} 秒与服务端断连，{} 秒重连。", s(a), s(b))
        } else {
            format!(
                "{client} was cut off from the service at {} s and reconnected at {} s.",
                s(a),
                s(b)
            )
        });
    }
    join(out, lang)
}

pub(super) fn expiry_sentence(trace: &Trace, lang: Lang) -> String {
    let zh = lang == Lang::Zh;
    let expired: Vec<(String, Millis)> = ["A", "B", "C"]
        .iter()
        .filter_map(|c| facts::session_expired(trace, c).map(|t| (c.to_string(), t)))
        .collect();
    if expired.is_empty() {
        return no_expiry_sentence(trace, lang);
    }
    let items: Vec<String> = expired
        .iter()
        .map(|(c, t)| {
            // The expiry counts from the last word the service had from the client.
            let heard = facts::last_heard(trace, c, *t);
            match (heard, zh) {
                (Some(h), true) => format!(
                    "服务端最后一次收到 {c} 的消息是在 {} 秒，{c} 的会话在 {} 秒过期，节点随之删除",
                    s(h),
                    s(*t)
                ),
                (Some(h), false) => format!(
                    "the service last heard from {c} at {} s, and {c}'s session expired at {} s, its node deleted",
                    s(h),
                    s(*t)
                ),
                (None, true) => format!("{c} 的会话在 {} 秒过期，节点随之删除", s(*t)),
                (None, false) => {
                    format!("{c}'s session expired at {} s and its node was deleted", s(*t))
                }
            }
        })
        .collect();
    if zh {
        format!("{}。", items.join("；"))
    } else {
        format!("{}.", capitalise(&items.join("; ")))
    }
}

/// No session expired: for a client that was frozen or cut off, when the service heard from it
/// before the fault and when again after it.
pub(super) fn no_expiry_sentence(trace: &Trace, lang: Lang) -> String {
    let zh = lang == Lang::Zh;
    let heard: Vec<String> = ["A", "B", "C"]
        .iter()
        .filter_map(|c| {
            let (start, _) = facts::pause(trace, c).or_else(|| facts::disconnection(trace, c))?;
            let before = facts::last_heard(trace, c, start)?;
            let again = facts::first_heard_after(trace, c, start)?;
            Some(if zh {
                format!(
                    "服务端在 {} 秒收到过 {c} 的消息，下一次是 {} 秒",
                    s(before),
                    s(again)
                )
            } else {
                format!(
                    "the service heard from {c} at {} s and next at {} s",
                    s(before),
                    s(again)
                )
            })
        })
        .collect();
    match (heard.is_empty(), zh) {
        (true, true) => "没有任何会话过期。".into(),
        (true, false) => "No session expired.".into(),
        (false, true) => format!("没有任何会话过期：{}。", heard.join("；")),
        (false, false) => format!("No session expired: {}.", heard.join("; ")),
    }
}

pub(super) fn capitalise(s: &str) -> String {
    let mut c = s.chars();
    c.next()
        .map(|f| f.to_uppercase().chain(c).collect())
        .unwrap_or_default()
}

pub(super) fn abc(ask: &str, tick_ms: Millis, m: &AbcMetrics, trace: &Trace, lang: Lang) -> String {
    let mut out = Vec::new();
    if let Some(t) = facts::session_timeout(trace, "A") {
        out.push(timeout_sentence(t, tick_ms, lang));
    }
    for c in ["A", "B", "C"] {
        out.push(faults_sentence(trace, c, lang));
    }
    match ask {
        "stale_writes_accepted" | "stale_writes_rejected" => {
            out.push(expiry_sentence(trace, lang));
            out.push(writes_sentence(&facts::writes(trace), lang));
            out.push(stale_count_sentence(m, lang));
        }
        "duplicate_nodes" | "stuck_count" => {
            if let Some(c) = facts::lost_create_reply(trace) {
                out.push(lost_create_sentence(&c, trace, lang));
            }
            if ask == "duplicate_nodes" {
                out.push(if lang == Lang::Zh {
                    format!("运行报告的重复节点：{} 个。", m.duplicate_nodes)
                } else {
                    format!("The run reports {} duplicate node(s).", m.duplicate_nodes)
                });
            } else {
                out.push(stuck_sentence(trace, lang));
            }
        }
        "successor_acquire" => {
            out.push(expiry_sentence(trace, lang));
            if let Some(t) = m.successor_acquire {
                out.push(successor_sentence(t, lang));
            }
        }
        "believed_holders" | "max_holders" | "believers_overlap_ms" => {
            out.push(expiry_sentence(trace, lang));
            out.push(believers_sentence(trace, lang));
            out.push(service_holders_sentence(m, lang));
            if ask == "believers_overlap_ms" {
                out.push(overlap_sentence(m, lang));
            }
        }
        _ => {}
    }
    join(out, lang)
}

/// The session timeout and the tick on which the service checks for expiries.
fn timeout_sentence(t: Millis, tick_ms: Millis, lang: Lang) -> String {
    // Expiries fall on the service's tick, which is why one can come later than the
    // last word heard plus the timeout.
    if lang == Lang::Zh {
        format!(
            "会话超时为 {} 秒，服务端每 {} 秒检查一次过期。",
            s(t),
            s(tick_ms)
        )
    } else {
        format!(
            "The session timeout is {} s; the service checks for expiries every {} s.",
            s(t),
            s(tick_ms)
        )
    }
}

/// The stale writes the engine counted, accepted and rejected.
fn stale_count_sentence(m: &AbcMetrics, lang: Lang) -> String {
    if lang == Lang::Zh {
        format!(
            "引擎统计的陈旧写入（发送者的会话已被服务端判定过期）：接受 {} 笔，拒绝 {} 笔。",
            m.stale_writes_accepted, m.stale_writes_rejected
        )
    } else {
        format!(
            "Stale writes (sent by a client whose session the service had expired), as the engine counts them: {} accepted, {} rejected.",
            m.stale_writes_accepted, m.stale_writes_rejected
        )
    }
}

/// A create whose reply was lost, and the nodes the service made for client `c`.
fn lost_create_sentence(c: &str, trace: &Trace, lang: Lang) -> String {
    let nodes = facts::nodes_of(trace, c);
    if lang == Lang::Zh {
        format!(
            "{c} 的 create 在服务端生效了，但响应丢失；服务端为 {c} 建的节点：{}。",
            nodes.join("、")
        )
    } else {
        format!(
            "{c}'s create took effect but its reply was lost; the service created these nodes for {c}: {}.",
            nodes.join(", ")
        )
    }
}

/// When the first client to take over was granted the lock (`t` in seconds).
fn successor_sentence(t: f64, lang: Lang) -> String {
    let at = s((t * 1000.0).round() as Millis);
    if lang == Lang::Zh {
        format!("第一个接手的客户端在 {at} 秒拿到锁。")
    } else {
        format!("The first client to take over was granted the lock at {at} s.")
    }
}

/// The most clients that believed at once that they held the lock, and when.
fn believers_sentence(trace: &Trace, lang: Lang) -> String {
    let b = trace.most_believers();
    let names: Vec<&str> = b.clients.iter().map(|c| trace.name(*c)).collect();
    match (b.count, lang == Lang::Zh) {
        (0, true) => "没有任何客户端拿到过锁。".into(),
        (0, false) => "No client ever held the lock.".into(),
        (1, true) => "任何时刻都只有一个客户端认为自己持有锁。".into(),
        (1, false) => "At no moment did two clients believe they held the lock.".into(),
        (_, true) => format!(
            "从 {} 秒到 {} 秒，{} 同时认为自己持有锁。",
            s(b.from_ms),
            s(b.to_ms),
            names.join("、")
        ),
        (2, false) => format!(
            "From {} s to {} s, {} both believed they held the lock.",
            s(b.from_ms),
            s(b.to_ms),
            names.join(" and ")
        ),
        (_, false) => format!(
            "From {} s to {} s, {} all believed they held the lock.",
            s(b.from_ms),
            s(b.to_ms),
            names.join(", ")
        ),
    }
}

/// The most holders at once in the coordination service's view.
fn service_holders_sentence(m: &AbcMetrics, lang: Lang) -> String {
    if lang == Lang::Zh {
        format!(
            "按协调服务的视角（持锁、会话存活、节点仍在），同一时刻最多 {} 个持锁者。",
            m.max_holders
        )
    } else {
        format!(
            "In the coordination service's view (holding, session live, node present), there were at most {} holder(s) at once.",
            m.max_holders
        )
    }
}

/// How long, in all, two or more clients believed at once that they held the lock.
fn overlap_sentence(m: &AbcMetrics, lang: Lang) -> String {
    if lang == Lang::Zh {
        format!(
            "两个以上客户端同时自认持锁的时间合计 {} 毫秒。",
            m.believers_overlap_ms
        )
    } else {
        format!(
            "In all, two or more clients believed at once that they held the lock for {} ms.",
            m.believers_overlap_ms
        )
    }
}

pub(super) fn stuck_sentence(trace: &Trace, lang: Lang) -> String {
    let zh = lang == Lang::Zh;
    let stuck = facts::stuck(trace);
    if stuck.is_empty() {
        return lang
            .pick(
                "运行结束时没有客户端卡死。",
                "No client is stuck when the run ends.",
            )
            .into();
    }
    let items: Vec<String> = stuck
        .iter()
        .map(|(c, on)| {
            if zh {
                format!("{c}（在等 {on}）")
            } else {
                format!("{c} (waiting on {on})")
            }
        })
        .collect();
    if zh {
        format!(
            "运行结束时卡死的客户端：{}，共 {} 个。",
            items.join("、"),
            stuck.len()
        )
    } else {
        format!(
            "Stuck when the run ends: {}; {} in all.",
            items.join(", "),
            stuck.len()
        )
    }
}
