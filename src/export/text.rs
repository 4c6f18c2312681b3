//! Plain-text views of a run that fit in 100 columns: a summary, lane timelines and events.
//!
//! Lanes are drawn with one ASCII character per time step so that they survive any terminal,
//! printer or font, CJK ones included.

use std::fmt::Write as _;

use crate::engine::params::Params;
use crate::engine::time::{Millis, fmt_secs};
use crate::engine::trace::redlock::RedlockSpan;
use crate::engine::trace::snowflake::IdSpan;
use crate::engine::trace::{
    AbcMetrics, Check, EventKind, Family, FrozenMetrics, HerdMetrics, Lane, Metrics, Role,
    SpanState, Trace,
};
use crate::i18n::sim::{short_instant, state_name};
use crate::i18n::{Lang, describe, invariant_label, verdict_text};

/// Columns used for the timeline itself (the label takes 12 more).
pub const TIMELINE_COLS: usize = 80;
const LABEL: usize = 12;

/// The character a lane shows for a state (also the terminal's monochrome pattern). Holders and
/// values show who they are.
pub fn glyph(state: SpanState, trace: &Trace) -> char {
    let initial = |a| trace.name(a).chars().next().unwrap_or('?');
    match state {
        SpanState::Holding { .. } => '=',
        SpanState::HoldingRead { .. } => 'o',
        SpanState::Leading { .. } => '*',
        SpanState::Row { owner, .. } => owner.map_or('.', initial),
        SpanState::Task {
            owner: Some(o),
            row_state: crate::engine::msg::RowState::Running,
            ..
        } => initial(o),
        SpanState::Task { .. } => '.',
        SpanState::Claimed { .. } => '=',
        SpanState::ScannerStopped => '_',
        SpanState::GaveUp { left_node: true } => 'g',
        SpanState::GaveUp { .. } => '.',
        SpanState::Backlog { waiting, .. } => {
            char::from_digit(u32::from(waiting.min(9)), 10).unwrap_or('+')
        }
        SpanState::Effects { count } => char::from_digit(count.min(9), 10).unwrap_or('+'),
        SpanState::Frozen {
            believes_holding: true,
        } => '#',
        SpanState::Frozen { .. } => '%',
        SpanState::Suspended { .. } => 's',
        SpanState::Reconnecting => 'z',
        SpanState::Lost => 'x',
        SpanState::Released => '.',
        SpanState::Stuck { .. } => '!',
        SpanState::Crashed => 'X',
        SpanState::Retrying => '-',
        SpanState::Idle => ' ',
        SpanState::Creating => 'c',
        SpanState::OutcomeUnknown => '?',
        SpanState::Reading => 'r',
        SpanState::Checking { .. } => 'e',
        SpanState::Waiting { .. } => '~',
        SpanState::Queue { holder, .. } => holder.map_or('.', initial),
        SpanState::Leased { holder, .. } => initial(holder),
        SpanState::Value { writer, .. } => initial(writer),
        SpanState::Free => '_',
        SpanState::Empty => ' ',
        SpanState::Redlock(s) => match s {
            RedlockSpan::Acquiring { .. } => '>',
            RedlockSpan::Holding { .. } => '=',
            RedlockSpan::Overdue => '*',
            RedlockSpan::Backoff => '-',
            RedlockSpan::Key { owner } => initial(owner),
        },
        SpanState::Snowflake(s) => match s {
            IdSpan::Issued {
                duplicate: true, ..
            } => '!',
            IdSpan::Issued { held: 1.., .. } => '+',
            IdSpan::Issued { .. } => '=',
            IdSpan::Waiting { .. } => '~',
            IdSpan::Refusing { .. } => '/',
        },
    }
}

/// Which states a legend should explain, in a stable order.
fn legend(trace: &Trace, lang: Lang) -> String {
    let mut seen: Vec<(char, &'static str)> = Vec::new();
    for lane in &trace.lanes {
        for span in &lane.spans {
            if matches!(
                span.state,
                SpanState::Queue { .. }
                    | SpanState::Leased { .. }
                    | SpanState::Value { .. }
                    | SpanState::Row { .. }
                    | SpanState::Task { .. }
                    | SpanState::Backlog { .. }
                    | SpanState::Effects { .. }
                    | SpanState::Empty
                    | SpanState::Idle
                    | SpanState::Redlock(RedlockSpan::Key { .. })
            ) {
                continue;
            }
            let item = (glyph(span.state, trace), state_name(span.state, lang));
            if !seen.contains(&item) {
                seen.push(item);
            }
        }
    }
    let mut parts: Vec<String> = seen.iter().map(|(g, n)| format!("{g} {n}")).collect();
    let lettered = |s: SpanState| {
        matches!(
            s,
            SpanState::Queue { .. }
                | SpanState::Leased { .. }
                | SpanState::Value { .. }
                | SpanState::Redlock(RedlockSpan::Key { .. })
        )
    };
    // Snowflake's lanes show no holders or values.
    if trace.family != Family::Snowflake
        || trace
            .lanes
            .iter()
            .flat_map(|l| &l.spans)
            .any(|s| lettered(s.state))
    {
        parts.push(
            lang.pick("字母 = 持有者或取值", "letters = holder or value")
                .to_string(),
        );
    }
    wrap_items(&parts, 100)
}

fn wrap_items(parts: &[String], width: usize) -> String {
    let mut out = String::new();
    let mut line = String::new();
    for p in parts {
        if !line.is_empty() && crate::text::width(&line) + 3 + crate::text::width(p) > width {
            out.push_str(&line);
            out.push('\n');
            line.clear();
        }
        if !line.is_empty() {
            line.push_str("   ");
        }
        line.push_str(p);
    }
    out.push_str(&line);
    out
}

/// A lane sampled into `cols` characters over `[0, end)`.
pub fn lane_row(lane: &Lane, trace: &Trace, end: Millis, cols: usize) -> String {
    (0..cols)
        .map(|i| {
            let t = end * i as u64 / cols as u64;
            lane.span_at(t).map_or(' ', |s| glyph(s.state, trace))
        })
        .collect()
}

fn axis(end: Millis, cols: usize) -> (String, String) {
    let step = nice_step(end);
    let label = |t: Millis| {
        if end < SHORT_RUN_MS {
            t.to_string()
        } else {
            fmt_secs(t)
        }
    };
    let mut labels = vec![' '; cols + 8];
    let mut ticks = vec!['.'; cols + 1];
    let mut t = 0;
    while t <= end {
        let col = (t as u128 * cols as u128 / end.max(1) as u128) as usize;
        ticks[col.min(cols)] = '|';
        for (j, ch) in label(t).chars().enumerate() {
            if let Some(slot) = labels.get_mut(col + j) {
                *slot = ch;
            }
        }
        t += step;
    }
    let labels: String = labels.into_iter().collect();
    (labels.trim_end().to_string(), ticks.into_iter().collect())
}

/// Runs shorter than this (Snowflake's milliseconds) get an axis in milliseconds.
pub const SHORT_RUN_MS: Millis = 1_000;

fn nice_step(end: Millis) -> Millis {
    [
        1, 2, 5, 10, 20, 50, 100, 200, 500, 1_000, 2_000, 5_000, 10_000, 20_000, 30_000, 60_000,
        120_000, 300_000,
    ]
    .into_iter()
    .filter(|s| end < SHORT_RUN_MS || *s >= 1_000)
    .find(|s| end / s <= 10)
    .unwrap_or(600_000)
}

fn pad(label: &str) -> String {
    let w = crate::text::width(label);
    format!("{label}{}", " ".repeat(LABEL.saturating_sub(w)))
}

/// A lane's label: the actor's name, or what a service or resource lane stands for.
pub fn lane_label(trace: &Trace, lane: &Lane, lang: Lang) -> String {
    let name = trace.name(lane.actor);
    match trace.role(lane.actor) {
        Some(Role::Coordinator | Role::LeaseService) => lang.pick("服务", "service").into(),
        Some(Role::Resource) => lang.pick("资源", "resource").into(),
        _ if trace.family == Family::Frozen && name == "A" => {
            lang.pick("A（自认）", "A believes").into()
        }
        _ => crate::i18n::sim::actor_name(trace, lane.actor, lang),
    }
}

/// The whole timeline block: axis, lanes and (for the frozen holder) the danger window.
pub fn timeline(trace: &Trace, lang: Lang) -> String {
    let end = trace.end_ms;
    let cols = TIMELINE_COLS;
    let mut out = String::new();
    let (labels, ticks) = axis(end, cols);
    let seconds = if end < SHORT_RUN_MS {
        lang.pick("毫秒", "ms")
    } else {
        lang.pick("秒", "s")
    };
    let _ = writeln!(out, "{}{labels}  {seconds}", pad(""));
    let _ = writeln!(out, "{}{ticks}", pad(""));
    for lane in &trace.lanes {
        let _ = writeln!(
            out,
            "{}{}",
            pad(&lane_label(trace, lane, lang)),
            lane_row(lane, trace, end, cols)
        );
    }
    if let Some(w) = trace.danger() {
        let row: String = (0..cols)
            .map(|i| {
                let t = end * i as u64 / cols as u64;
                if t >= w.from_ms && t < w.to_ms {
                    '!'
                } else {
                    ' '
                }
            })
            .collect();
        let _ = writeln!(
            out,
            "{}{}",
            pad(lang.pick("危险窗口", "danger")),
            row.trim_end()
        );
    }
    out.push_str(&legend(trace, lang));
    out.push('\n');
    out
}

fn opt_secs(v: Option<f64>, lang: Lang) -> String {
    v.map_or_else(
        || lang.pick("无", "none").to_string(),
        |v| format!("{} {}", trim(v), crate::i18n::sim::s(lang)),
    )
}

fn trim(v: f64) -> String {
    let s = format!("{v:.3}");
    s.trim_end_matches('0').trim_end_matches('.').to_string()
}

/// The frozen holder's numbers, with the two formulas filled in.
pub fn frozen_summary(m: &FrozenMetrics, lang: Lang) -> String {
    let mut out = String::new();
    let yes_no = |b: Option<bool>| match b {
        Some(true) => lang.pick("接受", "accepted"),
        Some(false) => lang.pick("拒绝", "rejected"),
        None => lang.pick("未写入", "no write"),
    };
    let rows = [
        ("lease_expiry", opt_secs(m.lease_expiry, lang)),
        ("successor_acquire", opt_secs(m.successor_acquire, lang)),
        (
            "holder_write_arrival",
            opt_secs(m.holder_write_arrival, lang),
        ),
        (
            "holder_write_accepted",
            yes_no(m.holder_write_accepted).to_string(),
        ),
        (
            "final_value",
            m.final_value
                .clone()
                .unwrap_or_else(|| lang.pick("无", "none").into()),
        ),
        ("last_seen_token", m.last_seen_token.to_string()),
    ];
    for (k, v) in rows {
        let _ = writeln!(out, "  {} {v}", key(k, lang));
    }
    let handover = crate::i18n::sim::handover_formula(m, lang);
    let danger = crate::i18n::sim::danger_formula(m, lang);
    let _ = writeln!(out, "  {} {handover}", key("handover_delay", lang));
    let _ = writeln!(out, "  {} {danger}", key("danger_window", lang));
    let _ = writeln!(
        out,
        "  {} {}",
        key("verdict", lang),
        crate::i18n::verdict_short(m.verdict, lang)
    );
    let _ = writeln!(out, "  {}", verdict_text(m.verdict, lang));
    out
}

fn abc_summary(m: &AbcMetrics, lang: Lang) -> String {
    let list = |v: &[String]| {
        if v.is_empty() {
            "-".to_string()
        } else {
            v.join(", ")
        }
    };
    let wakeups: Vec<String> = m.wakeups_per_release.iter().map(u32::to_string).collect();
    let mut out = String::new();
    let mut rows = vec![
        ("wakeups_per_release", format!("[{}]", wakeups.join(", "))),
        ("max_holders", m.max_holders.to_string()),
        ("stuck_clients", list(&m.stuck_clients)),
        ("duplicate_nodes", m.duplicate_nodes.to_string()),
        ("stale_writes_accepted", m.stale_writes_accepted.to_string()),
        ("stale_writes_rejected", m.stale_writes_rejected.to_string()),
    ];
    if let Some(lost) = m.lost_updates {
        rows.push(("lost_updates", lost.to_string()));
    }
    // Shown only when it happened: a current holder refused is the rare, surprising case.
    if m.current_writes_refused > 0 {
        rows.push((
            "current_writes_refused",
            m.current_writes_refused.to_string(),
        ));
    }
    rows.extend([(
        "violations",
        list(
            &m.violations
                .iter()
                .map(|v| invariant_label(v, lang).to_string())
                .collect::<Vec<_>>(),
        ),
    )]);
    for (k, v) in rows {
        let _ = writeln!(out, "  {} {v}", key(k, lang));
    }
    out
}

fn election_summary(m: &crate::engine::trace::ElectionMetrics, lang: Lang) -> String {
    let dash = |v: &Option<String>| v.clone().unwrap_or_else(|| "-".into());
    let row = format!(
        "{}/{}/{}/v{}",
        crate::i18n::sim::row_state(m.final_state, lang),
        dash(&m.final_owner),
        m.final_epoch,
        m.final_version
    );
    let violations: Vec<String> = m
        .violations
        .iter()
        .map(|v| invariant_label(v, lang).to_string())
        .collect();
    let rows = [
        ("leaders", m.leaders.join(" ")),
        ("final_row", row),
        ("result", dash(&m.result)),
        (
            "stale_submits_rejected",
            m.stale_submits_rejected.to_string(),
        ),
        (
            "stale_submits_accepted",
            m.stale_submits_accepted.to_string(),
        ),
        ("max_leaders", m.max_leaders.to_string()),
        (
            "violations",
            if violations.is_empty() {
                "-".into()
            } else {
                violations.join(", ")
            },
        ),
    ];
    let mut out = String::new();
    for (k, v) in rows {
        let _ = writeln!(out, "  {} {v}", key(k, lang));
    }
    out
}

fn queue_summary(m: &crate::engine::trace::QueueMetrics, lang: Lang) -> String {
    let list = |v: &[String]| {
        if v.is_empty() {
            "-".to_string()
        } else {
            v.join(", ")
        }
    };
    let wait = m.writer_wait_ms.map_or_else(
        || "-".to_string(),
        |w| format!("{} {}", fmt_secs(w), crate::i18n::sim::s(lang)),
    );
    let violations: Vec<String> = m
        .violations
        .iter()
        .map(|v| invariant_label(v, lang).to_string())
        .collect();
    let rows = [
        ("grant_order", m.grant_order.join(" ")),
        ("max_holders", m.max_holders.to_string()),
        (
            "max_concurrent_readers",
            m.max_concurrent_readers.to_string(),
        ),
        ("writer_wait_ms", wait),
        ("starved_writers", list(&m.starved_writers)),
        ("stuck_clients", list(&m.stuck_clients)),
        ("violations", list(&violations)),
    ];
    let mut out = String::new();
    for (k, v) in rows {
        let _ = writeln!(out, "  {} {v}", key(k, lang));
    }
    out
}

/// A metric's label padded to a fixed display width.
pub(crate) fn key(k: &str, lang: Lang) -> String {
    let label = crate::i18n::sim::metric_label(k, lang);
    format!(
        "{label}{}",
        " ".repeat(22usize.saturating_sub(crate::text::width(label)))
    )
}

/// The herd chart as text: one row per release, the winner `#`, wasted wake-ups `+`, waiters
/// not notified `.`, scaled to fit.
pub fn herd_chart(m: &HerdMetrics, max_rows: usize, lang: Lang) -> String {
    let mut out = String::new();
    let waiters = m.rows.first().map_or(0, |r| r.woken + r.not_notified) as usize;
    let cols = 60usize;
    let scale = waiters.div_ceil(cols).max(1);
    let _ = writeln!(
        out,
        "  {}",
        lang.pick(
            "# 拿到锁   + 无效唤醒   . 未被通知",
            "# takes the lock   + woken for nothing   . not notified"
        )
    );
    for row in m.rows.iter().take(max_rows) {
        let cells = |n: u32| (n as usize).div_ceil(scale);
        let bar = format!(
            "{}{}{}",
            "#".repeat(cells(1)),
            "+".repeat(cells(row.wasted)),
            ".".repeat(cells(row.not_notified))
        );
        let _ = writeln!(out, "  {:>5} {:>6} |{bar}", row.release, row.woken);
    }
    if m.rows.len() > max_rows {
        let more = m.rows.len() - max_rows;
        let _ = writeln!(
            out,
            "  {}",
            if lang == Lang::Zh {
                format!("……还有 {more} 行")
            } else {
                format!("... {more} more rows")
            }
        );
    }
    out
}

fn herd_summary(m: &HerdMetrics, lang: Lang) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "  {} {}",
        key("total_notifications", lang),
        m.total_notifications
    );
    let _ = writeln!(
        out,
        "  {} {}",
        key("wasted_wakeups", lang),
        m.wasted_wakeups
    );
    let _ = writeln!(
        out,
        "  {} {} ms",
        key("total_time_ms", lang),
        trim(m.total_time_ms)
    );
    let _ = writeln!(out, "  {} {}", key("releases", lang), m.rows.len());
    out
}

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
    let when = short_instant(trace, at, lang).unwrap_or_else(|| format!("{} s", fmt_secs(at)));
    let mut out = format!("{}{marker}^ {when}\n", pad(""));
    if let Some(facts) = super::summaries::cursor_facts(trace, at, lang) {
        let _ = writeln!(out, "  {facts}");
    } else {
        let holder = crate::script::holder_at(trace, at, lang);
        let value = crate::script::value_at(trace, at, lang);
        let _ = writeln!(
            out,
            "  {} {holder}; {} {value}",
            lang.pick("持锁者（服务视角）：", "holder (service view):"),
            lang.pick("资源：", "resource:")
        );
    }
    if let Some(i) = trace.event_index_at(at) {
        let e = &trace.events[i];
        let when = short_instant(trace, e.at_ms, lang)
            .unwrap_or_else(|| format!("{} {}", fmt_secs(e.at_ms), crate::i18n::sim::s(lang)));
        let line = format!(
            "  {when}{} {}",
            lang.pick("：", ":"),
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
    out.push('\n');
    match &trace.metrics {
        Metrics::Herd(m) => {
            out.push_str(&herd_chart(m, 40, lang));
            out.push('\n');
            out.push_str(&herd_summary(m, lang));
        }
        Metrics::Frozen(m) => {
            out.push_str(&timeline(trace, lang));
            if let Some(at) = at {
                out.push_str(&cursor_block(trace, at, lang));
            }
            out.push('\n');
            out.push_str(&frozen_summary(m, lang));
        }
        Metrics::Abc(m) => {
            out.push_str(&timeline(trace, lang));
            if let Some(at) = at {
                out.push_str(&cursor_block(trace, at, lang));
            }
            out.push('\n');
            out.push_str(&abc_summary(m, lang));
        }
        Metrics::Tasks(m) => {
            out.push_str(&timeline(trace, lang));
            if let Some(at) = at {
                out.push_str(&cursor_block(trace, at, lang));
            }
            out.push('\n');
            for (k, v) in crate::i18n::sim::task_rows(m, lang) {
                let _ = writeln!(out, "  {} {v}", key(k, lang));
            }
        }
        Metrics::Election(m) => {
            out.push_str(&timeline(trace, lang));
            if let Some(at) = at {
                out.push_str(&cursor_block(trace, at, lang));
            }
            out.push('\n');
            out.push_str(&election_summary(m, lang));
        }
        Metrics::Queue(m) => {
            out.push_str(&timeline(trace, lang));
            if let Some(at) = at {
                out.push_str(&cursor_block(trace, at, lang));
            }
            out.push('\n');
            out.push_str(&queue_summary(m, lang));
        }
        Metrics::Redlock(_) | Metrics::Snowflake(_) => {
            out.push_str(&timeline(trace, lang));
            if let Some(at) = at {
                out.push_str(&cursor_block(trace, at, lang));
            }
            out.push('\n');
            out.push_str(&super::summaries::summary(trace, lang));
        }
    }
    let badges: Vec<String> = trace
        .invariants
        .iter()
        .filter(|i| i.check == Check::Always)
        .map(|i| {
            let state = match (i.held, lang) {
                (true, Lang::Zh) => "成立",
                (true, Lang::En) => "ok",
                (false, Lang::Zh) => "失败",
                (false, Lang::En) => "FAILED",
            };
            format!("{} {state}", invariant_label(i.name, lang))
        })
        .collect();
    let sep = lang.pick("，", ", ");
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
    let data = super::data_node::lines(trace, lang);
    if !data.is_empty() {
        out.push('\n');
        for line in data {
            let _ = writeln!(out, "  {line}");
        }
    }
    if trace.family != Family::Herd {
        let _ = writeln!(out, "\n{}", lang.pick("事件", "Events"));
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
            let at = short_instant(trace, e.at_ms, lang)
                .unwrap_or_else(|| format!("{} {}", fmt_secs(e.at_ms), crate::i18n::sim::s(lang)));
            let pad = 8usize.saturating_sub(crate::text::width(&at));
            let line = format!("{}{at}  {}", " ".repeat(pad), describe(e, trace, lang));
            out.push_str(&crate::text::wrap_indent(&line, 100, 10));
        }
        if skipped > 0 {
            let note = if lang == Lang::Zh {
                format!("（省略了 {skipped} 条被拒的获取请求）")
            } else {
                format!("({skipped} refused acquire attempts not shown)")
            };
            let _ = writeln!(out, "{}{note}", " ".repeat(10));
        }
        if routine_skipped > 0 {
            let note = if lang == Lang::Zh {
                format!("（省略了失败加锁里的 {routine_skipped} 条例行事件）")
            } else {
                format!("({routine_skipped} routine events of failed attempts not shown)")
            };
            let _ = writeln!(out, "{}{note}", " ".repeat(10));
        }
    }
    out
}
