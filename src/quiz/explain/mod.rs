//! A model question's explanation written from the very run it was drawn from: the drawn
//! numbers, what the engine recorded, and the arithmetic that connects them, in the learner's
//! language. Every number comes from the trace (metrics first, events through [`facts`]); the
//! only figures supplied here are the parameters the attempt drew.

use super::{explain_knobs, facts};
use crate::content::deck::Question;
use crate::content::model::{ModelDraw, fmt_value};
use crate::engine::params::{FrozenParams, HerdParams, Params};
use crate::engine::time::{Millis, fmt_secs};
use crate::engine::trace::{AbcMetrics, FrozenMetrics, HerdMetrics, Metrics, Trace};
use crate::i18n::{Lang, verdict_short};

mod abc;
mod frozen;
mod herd;
#[cfg(test)]
mod tests;

use abc::abc;
use frozen::frozen;
use herd::herd;

/// The explanation of `v`'s run for question `q`.
pub fn worked(q: &Question, v: &ModelDraw, trace: &Trace, lang: Lang) -> String {
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
