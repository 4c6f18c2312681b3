//! A read-write lock's run: the rule, who held when, and what the question asks about.

use super::{Crowd, clients, count, crowd, held, join, list, most_sentence, s, starts};
use crate::engine::params::{ReadRule, RwLockParams, Want};
use crate::engine::time::Millis;
use crate::engine::trace::{QueueMetrics, Trace};
use crate::i18n::Lang;

pub fn rwlock(ask: &str, p: &RwLockParams, m: &QueueMetrics, trace: &Trace, lang: Lang) -> String {
    let names = clients(p.wants.len());
    let writers: Vec<String> = names
        .iter()
        .zip(&p.wants)
        .filter(|(_, w)| **w == Want::Write)
        .map(|(n, _)| n.clone())
        .collect();
    let readers: Vec<String> = names
        .iter()
        .filter(|n| !writers.contains(n))
        .cloned()
        .collect();
    let mut out = vec![
        setup(p, &names, &writers, &readers, lang),
        rule(p.read_rule, lang),
    ];
    out.push(grants(m, trace, lang));
    match ask {
        "max_concurrent_readers" => {
            let at = crowd(trace, &readers, m.max_concurrent_readers);
            out.push(most_sentence(
                m.max_concurrent_readers,
                at,
                Crowd::Readers,
                lang,
            ));
        }
        "max_holders" => {
            let at = crowd(trace, &names, m.max_holders);
            out.push(most_sentence(m.max_holders, at, Crowd::LockHolders, lang));
        }
        "grants_before_writer" => out.push(before_writer(m, trace, lang)),
        _ => {}
    }
    if let Some(w) = m.writer_wait_ms {
        let ms = (ask == "writer_wait_ms").then(|| w.to_string());
        out.push(match (ms, lang) {
            (Some(ms), Lang::Zh) => {
                format!("写者从请求到拿到锁，最长等了 {ms} 毫秒（{} 秒）。", s(w))
            }
            (Some(ms), Lang::En) => format!(
                "The longest a writer waited from asking to holding: {ms} ms ({} s).",
                s(w)
            ),
            (None, Lang::Zh) => format!("写者从请求到拿到锁，最长等了 {} 秒。", s(w)),
            (None, Lang::En) => format!(
                "The longest a writer waited from asking to holding: {} s.",
                s(w)
            ),
        });
    }
    if !m.starved_writers.is_empty() {
        let who = list(&m.starved_writers, lang);
        out.push(match lang {
            Lang::Zh => format!("{who} 直到运行在 {} 秒结束都没拿到写锁。", s(trace.end_ms)),
            Lang::En => format!(
                "{who} never held the write lock before the run ended at {} s.",
                s(trace.end_ms)
            ),
        });
    }
    join(out, lang)
}

/// Who starts when, how long each holds, and who writes.
fn setup(
    p: &RwLockParams,
    names: &[String],
    writers: &[String],
    readers: &[String],
    lang: Lang,
) -> String {
    let (first, last) = (
        names.first().map_or("", String::as_str),
        names.last().map_or("", String::as_str),
    );
    let gap = starts(p.common.start_gap_ms, lang);
    let hold = s(p.common.hold_ms);
    let roles = match (writers.is_empty(), readers.is_empty(), lang) {
        (true, _, Lang::Zh) => "全都只读".to_string(),
        (_, true, Lang::Zh) => "全都要写".to_string(),
        (true, _, Lang::En) => "all of them read".to_string(),
        (_, true, Lang::En) => "all of them write".to_string(),
        (false, false, Lang::Zh) => format!("{} 要写，其余的只读", list(writers, lang)),
        (false, false, Lang::En) => format!(
            "{} {} and the others read",
            list(writers, lang),
            if writers.len() == 1 {
                "writes"
            } else {
                "write"
            }
        ),
    };
    match lang {
        Lang::Zh => format!("客户端 {first} 到 {last} {gap}，拿到锁后各持有 {hold} 秒；{roles}。"),
        Lang::En => format!(
            "Clients {first} to {last} {gap}, and each holds the lock for {hold} s once granted; {roles}."
        ),
    }
}

fn rule(rule: ReadRule, lang: Lang) -> String {
    match (rule, lang) {
        (ReadRule::Fair, Lang::Zh) => {
            "按公平规则，读者要等排在它前面的所有写者，不管那个写者正持有锁还是还在等。"
        }
        (ReadRule::Fair, Lang::En) => {
            "Under the fair rule a reader waits for every writer queued ahead of it, whether that writer holds the lock or is still waiting."
        }
        (ReadRule::SkipWaitingWriters, Lang::Zh) => {
            "按偏向读者的规则，读者只等正持有锁的写者，会越过还在排队的写者；写者则要等到一个读者都不剩。"
        }
        (ReadRule::SkipWaitingWriters, Lang::En) => {
            "Under the reader-preferring rule a reader waits only for a writer that holds the lock right now and goes past writers still queued, while a writer waits until no reader is left."
        }
    }
    .to_string()
}

/// Every grant in order, with the span its lane shows; clients granted one after another for
/// the same span are told together.
fn grants(m: &QueueMetrics, trace: &Trace, lang: Lang) -> String {
    let mut runs: Vec<(Vec<String>, (Millis, Millis, bool))> = Vec::new();
    for c in &m.grant_order {
        let Some(span) = held(trace, c) else {
            continue;
        };
        match runs.last_mut() {
            Some((who, last)) if *last == span => who.push(c.clone()),
            _ => runs.push((vec![c.clone()], span)),
        }
    }
    let spans: Vec<String> = runs
        .iter()
        .map(|(who, (from, to, read))| {
            let who = list(who, lang);
            let (zh_verb, en_verb) = if *read {
                ("读", "read")
            } else {
                ("写", "wrote")
            };
            match (*to >= trace.end_ms, lang) {
                (false, Lang::Zh) => format!("{who} 从 {} 秒{zh_verb}到 {} 秒", s(*from), s(*to)),
                (true, Lang::Zh) => format!("{who} 从 {} 秒起{zh_verb}，直到运行结束", s(*from)),
                (false, Lang::En) => format!("{who} {en_verb} from {} to {} s", s(*from), s(*to)),
                (true, Lang::En) => {
                    format!("{who} {en_verb} from {} s until the run ended", s(*from))
                }
            }
        })
        .collect();
    match lang {
        Lang::Zh => format!("按授予的先后：{}。", spans.join("；")),
        Lang::En => format!("In the order granted: {}.", spans.join("; ")),
    }
}

/// The first writer's grant and the grants that came before it, from the metric.
fn before_writer(m: &QueueMetrics, trace: &Trace, lang: Lang) -> String {
    let Some(k) = m.grants_before_writer else {
        return String::new();
    };
    let Some(writer) = m.grant_order.get(k as usize) else {
        return String::new();
    };
    let at = held(trace, writer).map_or(String::new(), |(from, _, _)| s(from));
    let before = &m.grant_order[..k as usize];
    match (k, lang) {
        (0, Lang::Zh) => format!(
            "第一个拿到锁的写者 {writer} 在 {at} 秒拿到锁，此前锁授予了 0 次：它是第一个拿到锁的客户端。"
        ),
        (_, Lang::Zh) => format!(
            "第一个拿到锁的写者 {writer} 在 {at} 秒拿到锁，此前锁授予了 {k} 次：{}。",
            list(before, lang)
        ),
        (0, Lang::En) => format!(
            "The first writer to be granted was {writer}, at {at} s, after 0 grants: it was the first client to hold the lock."
        ),
        (_, Lang::En) => format!(
            "The first writer to be granted was {writer}, at {at} s, after {}, to {}.",
            count(k, "grant", "grants"),
            list(before, lang)
        ),
    }
}
