//! Each family's numbers as text: the frozen holder, the A/B/C queue, election, the queues of
//! read-write locks and semaphores, and the herd with its chart.

use super::*;

pub(super) fn opt_secs(v: Option<f64>, lang: Lang) -> String {
    v.map_or_else(
        || export(Export::Nothing, lang).to_string(),
        |v| format!("{} {}", trim(v), crate::i18n::sim::s(lang)),
    )
}

pub(super) fn trim(v: f64) -> String {
    let s = format!("{v:.3}");
    s.trim_end_matches('0').trim_end_matches('.').to_string()
}

/// The frozen holder's numbers, with the two formulas filled in.
pub fn frozen_summary(m: &FrozenMetrics, lang: Lang) -> String {
    let mut out = String::new();
    let yes_no = |b: Option<bool>| match b {
        Some(true) => export(Export::Accepted, lang),
        Some(false) => export(Export::Rejected, lang),
        None => export(Export::NoWrite, lang),
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
                .unwrap_or_else(|| export(Export::Nothing, lang).into()),
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

pub(super) fn abc_summary(m: &AbcMetrics, lang: Lang) -> String {
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
                .map(|v| invariant_label(*v, lang).to_string())
                .collect::<Vec<_>>(),
        ),
    )]);
    for (k, v) in rows {
        let _ = writeln!(out, "  {} {v}", key(k, lang));
    }
    out
}

pub(super) fn election_summary(m: &crate::engine::trace::ElectionMetrics, lang: Lang) -> String {
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
        .map(|v| invariant_label(*v, lang).to_string())
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

pub(super) fn queue_summary(m: &crate::engine::trace::QueueMetrics, lang: Lang) -> String {
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
        .map(|v| invariant_label(*v, lang).to_string())
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
    let _ = writeln!(out, "  {}", export(Export::HerdLegend, lang));
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
        let _ = writeln!(out, "  {}", crate::i18n::export::more_rows(more, lang));
    }
    out
}

pub(super) fn herd_summary(m: &HerdMetrics, lang: Lang) -> String {
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
