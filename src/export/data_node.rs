//! The data node an A/B/C run protects, as lines of text: each read and each `setData` with its
//! expected version and what the service did, the lost updates marked. Text and SVG share it.

use crate::engine::time::{Millis, fmt_secs};
use crate::engine::trace::Trace;
use crate::engine::trace::data::{DataFacts, DataOutcome};
use crate::i18n::Lang;
use crate::i18n::export as words;

/// The run's data node, if it has one.
pub fn facts(trace: &Trace) -> Option<&DataFacts> {
    crate::engine::families::abc::metrics(trace)?.data.as_ref()
}

/// A heading and one line per read or write, in time order.
pub fn lines(trace: &Trace, lang: Lang) -> Vec<String> {
    let Some(d) = facts(trace) else {
        return Vec::new();
    };
    let mut out = vec![words::data_heading(d, lang)];
    for row in rows(trace, lang) {
        out.push(format!(
            "{:>7} {}  {}",
            fmt_secs(row.at_ms),
            crate::i18n::sim::s(lang),
            row.text
        ));
    }
    out
}

/// One read or write of the data node, in words.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Row {
    pub at_ms: Millis,
    pub text: String,
    /// A write that wiped out someone else's update.
    pub lost: bool,
    pub write: bool,
}

/// Every read and write of the data node, in time order.
pub fn rows(trace: &Trace, lang: Lang) -> Vec<Row> {
    let Some(d) = facts(trace) else {
        return Vec::new();
    };
    let mut rows: Vec<Row> = d
        .reads
        .iter()
        .map(|r| {
            let who = trace.name(r.reader);
            let text = words::data_read(who, r.version, r.value, lang);
            Row {
                at_ms: r.at_ms,
                text,
                lost: false,
                write: false,
            }
        })
        .collect();
    for w in &d.writes {
        let who = trace.name(w.writer);
        let mut text = match w.outcome {
            DataOutcome::Set { version } => {
                words::data_set(who, w.expected, version, w.value, lang)
            }
            DataOutcome::BadVersion { current } => {
                words::data_bad_version(who, w.expected, current, lang)
            }
        };
        if let Some((lost, version)) = w.overwrote {
            let lost = trace.name(lost);
            text.push_str(&words::data_wipes(lost, version, lang));
        }
        rows.push(Row {
            at_ms: w.at_ms,
            text,
            lost: w.overwrote.is_some(),
            write: true,
        });
    }
    // Reads and writes at one instant keep the order they were recorded in.
    rows.sort_by_key(|r| r.at_ms);
    rows
}
