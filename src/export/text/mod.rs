//! Plain-text views of a run that fit in 100 columns: a summary, lane timelines and events.
//!
//! Lanes are drawn with one ASCII character per time step so that they survive any terminal,
//! printer or font, CJK ones included.

use std::fmt::Write as _;

use crate::engine::params::Params;
use crate::engine::time::{Millis, fmt_secs};
use crate::engine::trace::etcd::EtcdSpan;
use crate::engine::trace::redlock::RedlockSpan;
use crate::engine::trace::snowflake::IdSpan;
use crate::engine::trace::{
    AbcMetrics, Check, EventKind, Family, FrozenMetrics, HerdMetrics, Lane, Metrics, Role,
    SpanState, Trace,
};
use crate::i18n::export::{Export, export};
use crate::i18n::sim::{instant, state_name};
use crate::i18n::{Lang, describe, invariant_label, verdict_text};

mod metrics;
mod timeline;

pub(crate) use metrics::key;
use metrics::{abc_summary, election_summary, herd_summary, queue_summary};
pub use metrics::{frozen_summary, herd_chart};
use timeline::pad;
pub use timeline::{SHORT_RUN_MS, glyph, lane_label, lane_row, timeline};

/// Columns used for the timeline itself (the label takes 12 more).
pub const TIMELINE_COLS: usize = 80;
const LABEL: usize = 12;

/// The full report `locklab sim` prints without `--json`.
pub fn report(
    title: &str,
    about: Option<&str>,
    params: &Params,
    trace: &Trace,
    lang: Lang,
) -> String {
    report_at(title, about, params, trace, None, lang)
}

/// What the run looks like at the cursor: a marker under the lanes and the state in words.
fn cursor_block(trace: &Trace, at: Millis, lang: Lang) -> String {
    let end = trace.end_ms.max(1);
    let col = (at.min(end) as u128 * TIMELINE_COLS as u128 / end as u128) as usize;
    let marker = " ".repeat(col.min(TIMELINE_COLS));
    let when = instant(trace, at, lang);
    let mut out = format!("{}{marker}^ {when}\n", pad(""));
    if let Some(facts) = super::summaries::cursor_facts(trace, at, lang) {
        let _ = writeln!(out, "  {facts}");
    } else {
        let holder = crate::scenario::answers::holder_at(trace, at, lang);
        let value = crate::scenario::answers::value_at(trace, at, lang);
        let _ = writeln!(
            out,
            "  {} {holder}; {} {value}",
            export(Export::HolderServiceView, lang),
            export(Export::ResourceColon, lang)
        );
    }
    if let Some(i) = trace.event_index_at(at) {
        let e = &trace.events[i];
        let when = event_time(trace, e.at_ms, lang);
        let line = format!(
            "  {when}{} {}",
            export(Export::ColonTight, lang),
            describe(e, trace, lang)
        );
        out.push_str(&crate::text::wrap_indent(&line, 100, 4));
    }
    out
}

/// The report with a time cursor, for handouts of one moment of a run.
pub fn report_at(
    title: &str,
    about: Option<&str>,
    params: &Params,
    trace: &Trace,
    at: Option<Millis>,
    lang: Lang,
) -> String {
    let mut out = heading(title, about, params, lang);
    out.push('\n');
    if let Metrics::Herd(m) = &trace.metrics {
        out.push_str(&herd_chart(m, 40, lang));
        out.push('\n');
        out.push_str(&herd_summary(m, lang));
    } else {
        out.push_str(&timeline(trace, lang));
        if let Some(at) = at {
            out.push_str(&cursor_block(trace, at, lang));
        }
        out.push('\n');
        out.push_str(&summary(trace, lang));
    }
    out.push_str(&invariant_lines(trace, lang));
    let data = super::data_node::lines(trace, lang);
    if !data.is_empty() {
        out.push('\n');
        for line in data {
            let _ = writeln!(out, "  {line}");
        }
    }
    if trace.family != Family::Herd {
        out.push_str(&event_lines(trace, lang));
    }
    out
}

/// The title, what the run is about, and its parameters in words.
fn heading(title: &str, about: Option<&str>, params: &Params, lang: Lang) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "{title}");
    if let Some(about) = about {
        for line in crate::text::wrap(about, 100) {
            let _ = writeln!(out, "{line}");
        }
    }
    for line in crate::text::wrap(&crate::i18n::sim::params_line(params, lang), 100) {
        let _ = writeln!(out, "{line}");
    }
    out
}

/// The metrics block of a run with lanes (every family but the herd).
fn summary(trace: &Trace, lang: Lang) -> String {
    match &trace.metrics {
        Metrics::Frozen(m) => frozen_summary(m, lang),
        Metrics::Abc(m) => abc_summary(m, lang),
        Metrics::Tasks(m) => {
            let mut out = String::new();
            for (k, v) in crate::i18n::sim::task_rows(m, lang) {
                let _ = writeln!(out, "  {} {v}", key(k, lang));
            }
            out
        }
        Metrics::Election(m) => election_summary(m, lang),
        Metrics::Queue(m) => queue_summary(m, lang),
        Metrics::Redlock(_) | Metrics::Snowflake(_) | Metrics::Etcd(_) => {
            super::summaries::summary(trace, lang)
        }
        Metrics::Herd(m) => herd_summary(m, lang),
    }
}

/// The always-checks with held or failed, and the sometimes-checks the run exercised.
fn invariant_lines(trace: &Trace, lang: Lang) -> String {
    let mut out = String::new();
    let badges: Vec<String> = trace
        .invariants
        .iter()
        .filter(|i| i.check == Check::Always)
        .map(|i| {
            let state = export(if i.held { Export::Held } else { Export::Failed }, lang);
            format!("{} {state}", invariant_label(i.name, lang))
        })
        .collect();
    let sep = export(Export::Comma, lang);
    let line = format!("  {} {}", key("invariants", lang), badges.join(sep));
    out.push_str(&crate::text::wrap_indent(&line, 100, 25));
    let seen: Vec<String> = trace
        .invariants
        .iter()
        .filter(|i| i.check == Check::Sometimes)
        .map(|i| {
            let mark = if i.held { "+" } else { "-" };
            format!("{mark}{}", invariant_label(i.name, lang))
        })
        .collect();
    if !seen.is_empty() {
        let line = format!("  {} {}", key("exercised", lang), seen.join(sep));
        out.push_str(&crate::text::wrap_indent(&line, 100, 25));
    }
    out
}

/// When an event happened: `5 ms` in a run told in milliseconds, `12.5 s` otherwise.
fn event_time(trace: &Trace, at_ms: Millis, lang: Lang) -> String {
    instant(trace, at_ms, lang)
}

/// The events, one a line, leaving out refused attempts and a Redlock run's routine, with a
/// note of how many were left out.
fn event_lines(trace: &Trace, lang: Lang) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "\n{}", export(Export::Events, lang));
    let mut skipped = 0;
    let routine = super::summaries::routine_events(trace);
    let mut routine_skipped = 0;
    for (i, e) in trace.events.iter().enumerate() {
        if routine[i] {
            routine_skipped += 1;
            continue;
        }
        if matches!(
            e.kind,
            EventKind::AcquireRequested | EventKind::AcquireRefused { .. }
        ) {
            skipped += 1;
            continue;
        }
        let at = event_time(trace, e.at_ms, lang);
        let pad = 8usize.saturating_sub(crate::text::width(&at));
        let line = format!("{}{at}  {}", " ".repeat(pad), describe(e, trace, lang));
        out.push_str(&crate::text::wrap_indent(&line, 100, 10));
    }
    if skipped > 0 {
        let note = crate::i18n::export::refused_not_shown(skipped, lang);
        let _ = writeln!(out, "{}{note}", " ".repeat(10));
    }
    if routine_skipped > 0 {
        let note = crate::i18n::export::routine_not_shown(routine_skipped, lang);
        let _ = writeln!(out, "{}{note}", " ".repeat(10));
    }
    out
}
