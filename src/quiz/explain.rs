//! A model question's explanation written from the very run it was drawn from: the drawn
//! numbers, what the engine recorded, and the arithmetic that connects them, in the learner's
//! language. Every number comes from the trace (metrics first, events through [`facts`]); the
//! only figures supplied here are the parameters the attempt drew.

use super::{explain_knobs, facts};
use crate::content::deck::Question;
use crate::content::model::{Variant, fmt_value};
use crate::engine::params::{FrozenParams, HerdParams, Params};
use crate::engine::time::{Millis, fmt_secs};
use crate::engine::trace::{AbcMetrics, FrozenMetrics, HerdMetrics, Metrics, Trace};
use crate::i18n::{Lang, verdict_short};

/// The explanation of `v`'s run for question `q`.
pub fn worked(q: &Question, v: &Variant, trace: &Trace, lang: Lang) -> String {
    let ask = q.model.as_ref().map_or("", |m| m.ask.get_ref().as_str());
    match (&v.params, &trace.metrics) {
        (Params::Frozen(p), Metrics::Frozen(m)) => frozen(p, m, trace, lang),
        (Params::Herd(p), Metrics::Herd(m)) => herd(p, m, lang),
        (Params::Abc(p), Metrics::Abc(m)) => abc(ask, p.tick_ms, m, trace, lang),
        (Params::Rwlock(p), Metrics::Queue(m)) => explain_knobs::rwlock(ask, p, m, trace, lang),
        (Params::Semaphore(p), Metrics::Queue(m)) => explain_knobs::semaphore(p, m, trace, lang),
        (Params::Election(p), Metrics::Election(m)) => explain_knobs::election(p, m, trace, lang),
        (Params::Tasks(p), Metrics::Tasks(m)) => explain_knobs::tasks(p, m, trace, lang),
        _ => String::new(),
    }
}

fn s(ms: Millis) -> String {
    fmt_secs(ms)
}

fn f(x: f64) -> String {
    fmt_value(x)
}

/// Joins sentences the way each language writes them.
fn join(parts: Vec<String>, lang: Lang) -> String {
    let parts: Vec<String> = parts.into_iter().filter(|p| !p.is_empty()).collect();
    parts.join(lang.pick("", " "))
}

fn frozen(p: &FrozenParams, m: &FrozenMetrics, trace: &Trace, lang: Lang) -> String {
    let zh = lang == Lang::Zh;
    let ttl = s(p.ttl_ms);
    let mut out = Vec::new();
    if let Some((from, to)) = facts::pause(trace, "A") {
        out.push(if zh {
            format!("A 在 {} 秒停顿，{} 秒醒来。", s(from), s(to))
        } else {
            format!("A froze at {} s and woke at {} s.", s(from), s(to))
        });
    }
    let renewal = facts::last_renewal(trace);
    out.push(match (m.lease_expiry, renewal) {
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
    });
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
    if let Some(a) = m.successor_acquire {
        out.push(match (m.lease_expiry, m.handover_delay) {
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
        });
    } else if zh {
        out.push("B 在运行结束前没有拿到锁。".into());
    } else {
        out.push("B was not granted the lock before the run ended.".into());
    }
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

fn value_words(v: Option<&str>, lang: Lang) -> String {
    match (v, lang) {
        (Some(who), Lang::Zh) => format!(" {who} 的值"),
        (Some(who), Lang::En) => format!("{who}'s value"),
        (None, Lang::Zh) => "空值（没有任何写入被接受）".into(),
        (None, Lang::En) => "no value (no write was accepted)".into(),
    }
}

/// Every write the resource received, in arrival order, with its judgement.
fn writes_sentence(writes: &[facts::WriteFact], lang: Lang) -> String {
    let zh = lang == Lang::Zh;
    if writes.is_empty() {
        return lang
            .pick("资源没有收到任何写入。", "No write reached the resource.")
            .into();
    }
    let items: Vec<String> = writes
        .iter()
        .map(|w| {
            let t = s(w.at_ms);
            match (w.accepted, zh) {
                (true, true) => format!("{}（令牌 {}）{t} 秒到达，被接受", w.value, w.token),
                (true, false) => format!("{} (token {}) at {t} s, accepted", w.value, w.token),
                (false, true) => format!(
                    "{}（令牌 {}）{t} 秒到达，被拒绝，因为资源已经接受过令牌 {}",
                    w.value, w.token, w.last_seen_before
                ),
                (false, false) => format!(
                    "{} (token {}) at {t} s, rejected, since the resource had already accepted token {}",
                    w.value, w.token, w.last_seen_before
                ),
            }
        })
        .collect();
    if zh {
        format!("资源收到的写入：{}。", items.join("；"))
    } else {
        format!("Writes at the resource: {}.", items.join("; "))
    }
}

/// A long list shortened to its first and last entries.
fn numbers(values: &[String], lang: Lang) -> String {
    let sep = lang.pick("、", ", ");
    if values.len() <= 8 {
        return values.join(sep);
    }
    format!(
        "{}{sep}...{sep}{}",
        values[..4].join(sep),
        values[values.len() - 3..].join(sep)
    )
}

fn herd(p: &HerdParams, m: &HerdMetrics, lang: Lang) -> String {
    let zh = lang == Lang::Zh;
    let woken: Vec<String> = m.rows.iter().map(|r| r.woken.to_string()).collect();
    let wasted: Vec<String> = m.rows.iter().map(|r| r.wasted.to_string()).collect();
    let rows = m.rows.len();
    let (n, k) = (p.waiters, p.fanout);
    let (grab, hold) = (f(p.grab_cost_ms), f(p.hold_ms));
    let mut out = Vec::new();
    out.push(if zh {
        format!(
            "{n} 个等待者，每个监听排在它前面第 {k} 位的节点（k = {k}），共释放 {rows} 次。每次释放通知的等待者数：{}，合计 {} 次通知。",
            numbers(&woken, lang),
            m.total_notifications
        )
    } else {
        let places = if k == 1 { "place" } else { "places" };
        format!(
            "{n} waiters, each watching the node {k} {places} ahead (k = {k}); {rows} releases. Waiters notified per release: {} ({} notifications in all).",
            numbers(&woken, lang),
            m.total_notifications
        )
    });
    out.push(if zh {
        format!(
            "无效唤醒（被唤醒但不是队首的）每次：{}，合计 {} 次。",
            numbers(&wasted, lang),
            m.wasted_wakeups
        )
    } else {
        format!(
            "Wasted wake-ups (woken but not first in line) per release: {} ({} in all).",
            numbers(&wasted, lang),
            m.wasted_wakeups
        )
    });
    out.push(if zh {
        format!(
            "每次释放耗时 = 被唤醒数 x {grab} 毫秒的重读 + {hold} 毫秒的持锁；{rows} 次释放共 {} 毫秒。",
            f(m.total_time_ms)
        )
    } else {
        format!(
            "Each release takes woken x {grab} ms of re-reads plus {hold} ms of holding; the {rows} releases take {} ms in all.",
            f(m.total_time_ms)
        )
    });
    join(out, lang)
}

/// The faults that hit `client`, as the trace recorded them.
fn faults_sentence(trace: &Trace, client: &str, lang: Lang) -> String {
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

fn expiry_sentence(trace: &Trace, lang: Lang) -> String {
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
fn no_expiry_sentence(trace: &Trace, lang: Lang) -> String {
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

fn capitalise(s: &str) -> String {
    let mut c = s.chars();
    c.next()
        .map(|f| f.to_uppercase().chain(c).collect())
        .unwrap_or_default()
}

fn short(node: &str) -> &str {
    node.rsplit("lock-")
        .next()
        .map_or(node, |s| s.trim_start_matches('0'))
}

fn abc(ask: &str, tick_ms: Millis, m: &AbcMetrics, trace: &Trace, lang: Lang) -> String {
    let zh = lang == Lang::Zh;
    let mut out = Vec::new();
    if let Some(t) = facts::session_timeout(trace, "A") {
        // Expiries fall on the service's tick, which is why one can come later than the
        // last word heard plus the timeout.
        out.push(if zh {
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
        });
    }
    for c in ["A", "B", "C"] {
        out.push(faults_sentence(trace, c, lang));
    }
    match ask {
        "stale_writes_accepted" | "stale_writes_rejected" => {
            out.push(expiry_sentence(trace, lang));
            out.push(writes_sentence(&facts::writes(trace), lang));
            out.push(if zh {
                format!(
                    "引擎统计的陈旧写入（发送者的会话已被服务端判定过期）：接受 {} 笔，拒绝 {} 笔。",
                    m.stale_writes_accepted, m.stale_writes_rejected
                )
            } else {
                format!(
                    "Stale writes (sent by a client whose session the service had expired), as the engine counts them: {} accepted, {} rejected.",
                    m.stale_writes_accepted, m.stale_writes_rejected
                )
            });
        }
        "duplicate_nodes" | "stuck_count" => {
            if let Some(c) = facts::lost_create_reply(trace) {
                let nodes: Vec<String> = facts::nodes_of(trace, &c)
                    .iter()
                    .map(|n| short(n).to_string())
                    .collect();
                out.push(if zh {
                    format!(
                        "{c} 的 create 在服务端生效了，但响应丢失；服务端为 {c} 建的节点：{}。",
                        nodes.join("、")
                    )
                } else {
                    format!(
                        "{c}'s create took effect but its reply was lost; the service created these nodes for {c}: {}.",
                        nodes.join(", ")
                    )
                });
            }
            if ask == "duplicate_nodes" {
                out.push(if zh {
                    format!("运行报告的重复节点：{} 个。", m.duplicate_nodes)
                } else {
                    format!("The run reports {} duplicate node(s).", m.duplicate_nodes)
                });
            } else {
                out.push(stuck_sentence(trace, lang));
            }
        }
        "believed_holders" | "max_holders" => {
            out.push(expiry_sentence(trace, lang));
            let b = facts::most_believing_holders(trace);
            out.push(match (b.count, zh) {
                (0, true) => "没有任何客户端拿到过锁。".into(),
                (0, false) => "No client ever held the lock.".into(),
                (1, true) => "任何时刻都只有一个客户端认为自己持有锁。".into(),
                (1, false) => "At no moment did two clients believe they held the lock.".into(),
                (_, true) => format!(
                    "从 {} 秒到 {} 秒，{} 同时认为自己持有锁。",
                    s(b.from_ms),
                    s(b.to_ms),
                    b.clients.join("、")
                ),
                (2, false) => format!(
                    "From {} s to {} s, {} both believed they held the lock.",
                    s(b.from_ms),
                    s(b.to_ms),
                    b.clients.join(" and ")
                ),
                (_, false) => format!(
                    "From {} s to {} s, {} all believed they held the lock.",
                    s(b.from_ms),
                    s(b.to_ms),
                    b.clients.join(", ")
                ),
            });
            out.push(if zh {
                format!(
                    "按协调服务的视角（持锁、会话存活、节点仍在），同一时刻最多 {} 个持锁者。",
                    m.max_holders
                )
            } else {
                format!(
                    "In the coordination service's view (holding, session live, node present), there were at most {} holder(s) at once.",
                    m.max_holders
                )
            });
        }
        _ => {}
    }
    join(out, lang)
}

fn stuck_sentence(trace: &Trace, lang: Lang) -> String {
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
                format!("{c}（在等 {}）", short(on))
            } else {
                format!("{c} (waiting on {})", short(on))
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::params::FrozenParams;

    fn frozen_text(p: FrozenParams, lang: Lang) -> String {
        let params = Params::Frozen(p.clone());
        let trace = crate::engine::run(&params);
        let Metrics::Frozen(m) = &trace.metrics else {
            panic!("frozen")
        };
        frozen(&p, m, &trace, lang)
    }

    #[test]
    fn the_frozen_holder_is_explained_with_its_own_numbers() {
        // The defaults: keepalives at 3, 6, 9 s; the pause [12, 26); A writes at 38 s.
        let en = frozen_text(FrozenParams::default(), Lang::En);
        for want in [
            "A froze at 12 s and woke at 26 s.",
            "arrived at 9 s and set the deadline to 9 + 10 = 19 s",
            "the lease expired at 19 s",
            "B was granted the lock at 19 s: a handover delay of 19 - 19 = 0 s.",
            "A (token 1) at 38 s, rejected, since the resource had already accepted token 2",
            "Danger window: max(0, 38 - 19) = 19 s.",
        ] {
            assert!(en.contains(want), "{want:?} missing: {en}");
        }
        let verdict = verdict_short(crate::engine::trace::Verdict::StaleWriteRejected, Lang::En);
        assert!(en.contains(&format!("Verdict: {verdict};")), "{en}");
        let zh = frozen_text(FrozenParams::default(), Lang::Zh);
        for want in [
            "9 + 10 = 19 秒",
            "租约在 19 秒过期",
            "max(0, 38 - 19) = 19 秒",
        ] {
            assert!(zh.contains(want), "{want:?} missing: {zh}");
        }
        // Another draw, other numbers: a shorter TTL moves every figure.
        let p = FrozenParams {
            ttl_ms: 8_000,
            ..FrozenParams::default()
        };
        let en = frozen_text(p, Lang::En);
        assert!(en.contains("9 + 8 = 17 s"), "{en}");
        assert!(en.contains("max(0, 38 - 17) = 21 s"), "{en}");
    }

    #[test]
    fn a_holder_that_stops_on_loss_is_explained() {
        let p = FrozenParams {
            stop_on_loss: true,
            ..FrozenParams::default()
        };
        let en = frozen_text(p, Lang::En);
        assert!(
            en.contains("A learned at 26 s that its lease was lost"),
            "{en}"
        );
        assert!(!en.contains("A (token 1)"), "{en}");
    }

    #[test]
    fn an_expired_session_is_explained_from_the_messages_and_the_expiry() {
        let preset = crate::scenario::find("gc-pause-fencing").expect("a shipped preset");
        let trace = crate::engine::run(&preset.params);
        let Metrics::Abc(m) = &trace.metrics else {
            panic!("abc")
        };
        let Params::Abc(p) = &preset.params else {
            panic!("abc")
        };
        let expired = facts::session_expired(&trace, "A").expect("A's session expires");
        let heard = facts::last_heard(&trace, "A", expired).expect("A was heard");
        assert!(heard < expired);
        let en = abc("believed_holders", p.tick_ms, m, &trace, Lang::En);
        let want = format!(
            "The service last heard from A at {} s, and A's session expired at {} s",
            s(heard),
            s(expired)
        );
        assert!(en.contains(&want), "{en}");
        assert!(
            en.contains("A and B both believed they held the lock"),
            "{en}"
        );
        let zh = abc("believed_holders", p.tick_ms, m, &trace, Lang::Zh);
        assert!(
            zh.contains(&format!("A 的会话在 {} 秒过期", s(expired))),
            "{zh}"
        );
    }

    #[test]
    fn herd_counts_come_from_the_rows() {
        let p = HerdParams {
            waiters: 5,
            fanout: 5,
            ..HerdParams::default()
        };
        let params = Params::Herd(p.clone());
        let trace = crate::engine::run(&params);
        let Metrics::Herd(m) = &trace.metrics else {
            panic!("herd")
        };
        let en = herd(&p, m, Lang::En);
        // The herd: 5 + 4 + 3 + 2 + 1 notifications, one winner each time.
        assert!(
            en.contains("5, 4, 3, 2, 1 (15 notifications in all)"),
            "{en}"
        );
        assert!(en.contains("4, 3, 2, 1, 0 (10 in all)"), "{en}");
    }
}
