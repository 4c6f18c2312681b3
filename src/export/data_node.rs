//! The data node an A/B/C run protects, as lines of text: each read and each `setData` with its
//! expected version and what the service did, the lost updates marked. Text and SVG share it.

use crate::engine::time::fmt_secs;
use crate::engine::trace::Trace;
use crate::engine::trace::data::{DataFacts, DataOutcome};
use crate::i18n::Lang;

/// The run's data node, if it has one.
pub fn facts(trace: &Trace) -> Option<&DataFacts> {
    crate::engine::families::abc::metrics(trace)?.data.as_ref()
}

/// A heading and one line per read or write, in time order.
pub fn lines(trace: &Trace, lang: Lang) -> Vec<String> {
    let Some(d) = facts(trace) else {
        return Vec::new();
    };
    let pick = |zh: String, en: String| if lang == Lang::Zh { zh } else { en };
    let mut out = vec![match lang {
        Lang::Zh => format!(
            "数据节点 {}：起始版本 {}，计数 {}",
            d.path, d.initial_version, d.initial_value
        ),
        Lang::En => format!(
            "Data node {}: starts at version {}, counter {}",
            d.path, d.initial_version, d.initial_value
        ),
    }];
    let mut rows: Vec<(u64, String)> = d
        .reads
        .iter()
        .map(|r| {
            let who = trace.name(r.reader);
            let text = pick(
                format!("{who} 读到 v{}（计数 {}）", r.version, r.value),
                format!("{who} reads v{} (counter {})", r.version, r.value),
            );
            (r.at_ms, text)
        })
        .collect();
    for w in &d.writes {
        let who = trace.name(w.writer);
        let mut text = match w.outcome {
            DataOutcome::Set { version } => pick(
                format!(
                    "{who} setData（期望 {}）→ v{version}，计数 {}",
                    w.expected, w.value
                ),
                format!(
                    "{who} setData (expected {}) -> v{version}, counter {}",
                    w.expected, w.value
                ),
            ),
            DataOutcome::BadVersion { current } => pick(
                format!(
                    "{who} setData（期望 {}）→ BadVersion，节点已是 v{current}",
                    w.expected
                ),
                format!(
                    "{who} setData (expected {}) -> BadVersion, the node is at v{current}",
                    w.expected
                ),
            ),
        };
        if let Some((lost, version)) = w.overwrote {
            let lost = trace.name(lost);
            text.push_str(&pick(
                format!("  ✗ 丢失更新：{lost} 的 v{version} 被覆盖"),
                format!("  ✗ lost update: {lost}'s v{version} wiped out"),
            ));
        }
        rows.push((w.at_ms, text));
    }
    // Reads and writes at one instant keep the order they were recorded in.
    rows.sort_by_key(|(at, _)| *at);
    for (at, text) in rows {
        out.push(format!("{:>7} s  {text}", fmt_secs(at)));
    }
    out
}
