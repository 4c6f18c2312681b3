//! Plain-text views of a run that fit in 100 columns: a summary, lane timelines and events.
//!
//! Lanes are drawn with one ASCII character per time step so that they survive any terminal,
//! printer or font, CJK ones included.

use std::fmt::Write as _;

use crate::engine::params::{FrozenParams, Params};
use crate::engine::time::{Millis, fmt_secs};
use crate::engine::trace::{
    AbcMetrics, EventKind, Family, FrozenMetrics, HerdMetrics, Lane, Metrics, State, Trace,
};
use crate::i18n::{Lang, describe, invariant_label, state_label, verdict_text};

/// Columns used for the timeline itself (the label takes 12 more).
pub const TIMELINE_COLS: usize = 80;
const LABEL: usize = 12;

/// The character a lane shows for a state (also the terminal's monochrome pattern).
pub fn glyph(state: State, note: Option<&str>) -> char {
    let first = |n: Option<&str>| n.and_then(|s| s.chars().next());
    match state {
        State::Held => '=',
        State::FrozenHolding => '#',
        State::Frozen => '%',
        State::Suspended => 's',
        State::Lost => 'x',
        State::Released => '.',
        State::Stuck => '!',
        State::Crashed => 'X',
        State::Retrying => '-',
        State::Written => 'w',
        State::Idle => ' ',
        State::Creating => 'c',
        State::CreateUnknown => '?',
        State::Reading => 'r',
        State::Waiting => '~',
        State::Queue => note
            .and_then(|n| n.split_whitespace().next())
            .and_then(|head| head.chars().last())
            .unwrap_or('.'),
        State::LeaseLive | State::Value => first(note).unwrap_or('?'),
        State::Free => '.',
        State::Empty => ' ',
    }
}

/// Which states a legend should explain, in a stable order.
fn legend(trace: &Trace, lang: Lang) -> String {
    let mut seen: Vec<State> = Vec::new();
    for lane in &trace.lanes {
        for span in &lane.spans {
            if !seen.contains(&span.state)
                && !matches!(
                    span.state,
                    State::Queue | State::LeaseLive | State::Value | State::Empty | State::Idle
                )
            {
                seen.push(span.state);
            }
        }
    }
    let mut parts: Vec<String> = seen
        .iter()
        .map(|s| format!("{} {}", glyph(*s, None), state_label(*s, lang)))
        .collect();
    parts.push(
        lang.pick("字母 = 持有者或取值", "letters = holder or value")
            .to_string(),
    );
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
pub fn lane_row(lane: &Lane, end: Millis, cols: usize) -> String {
    (0..cols)
        .map(|i| {
            let t = end * i as u64 / cols as u64;
            lane.span_at(t)
                .map_or(' ', |s| glyph(s.state, s.note.as_deref()))
        })
        .collect()
}

fn axis(end: Millis, cols: usize) -> (String, String) {
    let step = nice_step(end);
    let mut labels = vec![' '; cols + 8];
    let mut ticks = vec!['.'; cols + 1];
    let mut t = 0;
    while t <= end {
        let col = (t as u128 * cols as u128 / end.max(1) as u128) as usize;
        ticks[col.min(cols)] = '|';
        for (j, ch) in fmt_secs(t).chars().enumerate() {
            if let Some(slot) = labels.get_mut(col + j) {
                *slot = ch;
            }
        }
        t += step;
    }
    let labels: String = labels.into_iter().collect();
    (labels.trim_end().to_string(), ticks.into_iter().collect())
}

fn nice_step(end: Millis) -> Millis {
    [
        1_000, 2_000, 5_000, 10_000, 20_000, 30_000, 60_000, 120_000, 300_000,
    ]
    .into_iter()
    .find(|s| end / s <= 10)
    .unwrap_or(600_000)
}

fn pad(label: &str) -> String {
    let w = crate::text::width(label);
    format!("{label}{}", " ".repeat(LABEL.saturating_sub(w)))
}

fn lane_label(actor: &str, family: Family, lang: Lang) -> String {
    match (actor, family) {
        ("A", Family::Frozen) => lang.pick("A（自认）", "A believes").into(),
        ("service", _) => lang.pick("服务", "service").into(),
        ("resource", _) => lang.pick("资源", "resource").into(),
        (other, _) => other.into(),
    }
}

/// The whole timeline block: axis, lanes and (for the frozen holder) the danger window.
pub fn timeline(trace: &Trace, lang: Lang) -> String {
    let end = trace.end_ms;
    let cols = TIMELINE_COLS;
    let mut out = String::new();
    let (labels, ticks) = axis(end, cols);
    let seconds = lang.pick("秒", "s");
    let _ = writeln!(out, "{}{labels}  {seconds}", pad(""));
    let _ = writeln!(out, "{}{ticks}", pad(""));
    for lane in &trace.lanes {
        let _ = writeln!(
            out,
            "{}{}",
            pad(&lane_label(&lane.actor, trace.family, lang)),
            lane_row(lane, end, cols)
        );
    }
    if let Metrics::Frozen(m) = &trace.metrics
        && let (Some(from), Some(to)) = (m.lease_expiry, m.holder_write_arrival)
        && to > from
    {
        let row: String = (0..cols)
            .map(|i| {
                let t = (end * i as u64 / cols as u64) as f64 / 1000.0;
                if t >= from && t < to { '!' } else { ' ' }
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
        |s| format!("{} s", trim(s)),
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
        let _ = writeln!(out, "  {k:<22} {v}");
    }
    let handover = match (m.successor_acquire, m.lease_expiry, m.handover_delay) {
        (Some(a), Some(e), Some(d)) => format!("{} - {} = {} s", trim(a), trim(e), trim(d)),
        _ => lang
            .pick("不适用（租约没有过期）", "n/a (the lease never expired)")
            .into(),
    };
    let danger = match (m.holder_write_arrival, m.lease_expiry) {
        (Some(w), Some(e)) => format!(
            "max(0, {} - {}) = {} s",
            trim(w),
            trim(e),
            trim(m.danger_window)
        ),
        _ => format!(
            "0 s ({})",
            lang.pick("缺少写入或过期", "no write or no expiry")
        ),
    };
    let _ = writeln!(
        out,
        "  {:<22} {handover}",
        lang.pick("交接延迟", "handover_delay")
    );
    let _ = writeln!(
        out,
        "  {:<22} {danger}",
        lang.pick("危险窗口", "danger_window")
    );
    let _ = writeln!(
        out,
        "  {:<22} {}",
        lang.pick("结论", "verdict"),
        m.verdict.name()
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
    let rows = [
        ("wakeups_per_release", format!("[{}]", wakeups.join(", "))),
        ("max_holders", m.max_holders.to_string()),
        ("stuck_clients", list(&m.stuck_clients)),
        ("duplicate_nodes", m.duplicate_nodes.to_string()),
        ("stale_writes_accepted", m.stale_writes_accepted.to_string()),
        ("stale_writes_rejected", m.stale_writes_rejected.to_string()),
        ("violations", list(&m.violations)),
    ];
    for (k, v) in rows {
        let _ = writeln!(out, "  {k:<22} {v}");
    }
    let _ = lang;
    out
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
            "# 拿到锁   + 白醒   . 未被通知",
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
        "  {:<22} {}",
        "total_notifications", m.total_notifications
    );
    let _ = writeln!(out, "  {:<22} {}", "wasted_wakeups", m.wasted_wakeups);
    let _ = writeln!(
        out,
        "  {:<22} {} ms",
        "total_time_ms",
        trim(m.total_time_ms)
    );
    let _ = writeln!(
        out,
        "  {:<22} {}",
        lang.pick("释放次数", "releases"),
        m.rows.len()
    );
    out
}

/// A one-line description of the parameters.
pub fn params_line(params: &Params) -> String {
    match params {
        Params::Frozen(p) => FrozenParams::summary(p),
        Params::Herd(p) => format!(
            "waiters {}, fan-out {}, grab cost {} ms, hold {} ms",
            p.waiters,
            p.fanout,
            trim(p.grab_cost_ms),
            trim(p.hold_ms)
        ),
        Params::Abc(p) => format!(
            "watch {:?}, recovery {:?}, registration {:?}, on disconnect {:?}, on loss {:?}, fencing {}, session timeout {} s, {} fault(s)",
            p.watch,
            p.recovery,
            p.registration,
            p.on_disconnect,
            p.on_loss,
            crate::engine::params::on_off(p.fencing),
            fmt_secs(p.session_timeout_ms),
            p.faults.len()
        )
        .to_lowercase(),
    }
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
    let mut out = format!("{}{marker}^ {} s\n", pad(""), fmt_secs(at));
    let holder = crate::script::holder_at(trace, at, lang);
    let value = crate::script::value_at(trace, at, lang);
    let _ = writeln!(
        out,
        "  {} {holder}; {} {value}",
        lang.pick("持锁者（服务视角）：", "holder (service view):"),
        lang.pick("资源：", "resource:")
    );
    if let Some(i) = trace.event_index_at(at) {
        let e = &trace.events[i];
        let line = format!("  {} s: {}", fmt_secs(e.at_ms), describe(e, lang));
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
    for line in crate::text::wrap(&params_line(params), 100) {
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
    }
    let badges: Vec<String> = trace
        .invariants
        .iter()
        .map(|i| {
            let state = if i.held { "ok" } else { "FAILED" };
            format!("{} {state}", invariant_label(i.name, lang))
        })
        .collect();
    let _ = writeln!(
        out,
        "  {:<22} {}",
        lang.pick("不变式", "invariants"),
        badges.join(", ")
    );
    if trace.family != Family::Herd {
        let _ = writeln!(out, "\n{}", lang.pick("事件", "Events"));
        let mut skipped = 0;
        for e in &trace.events {
            if matches!(
                e.kind,
                EventKind::AcquireRequested | EventKind::AcquireRefused { .. }
            ) {
                skipped += 1;
                continue;
            }
            let line = format!(
                "{:>8}  {}",
                format!("{} s", fmt_secs(e.at_ms)),
                describe(e, lang)
            );
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
    }
    out
}
