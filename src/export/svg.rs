//! A standalone SVG of a run, for slides and handouts: the lanes, the danger window, the writes
//! and the verdict, or the herd chart. Styles are embedded and nothing is referenced outside the
//! file; labels use system fonts with CJK fallbacks.

use std::fmt::Write as _;

use crate::engine::time::{Millis, fmt_secs};
use crate::engine::trace::{
    Check, Family, HerdMetrics, Judgement, Lane, Metrics, SpanState, Trace,
};
use crate::i18n::export::{Export, export};
use crate::i18n::{Lang, describe, invariant_label, verdict_text};

const WIDTH: f64 = 1000.0;
const LEFT: f64 = 140.0;
const RIGHT: f64 = 30.0;
const LANE_H: f64 = 34.0;
const LANE_GAP: f64 = 12.0;

/// Fill colour of a span: the colour of its class on every terminal screen
/// ([`crate::view::Class`]), in tones that print well, so a slide and the lab agree.
pub fn fill(state: SpanState, _trace: &Trace) -> &'static str {
    use crate::view::Class;
    match Class::of(state) {
        Class::Holding => "#2e7d32",
        Class::Reading => "#00897b",
        Class::FrozenHolding => "#ad1457",
        Class::Frozen => "#d7b48a",
        Class::Suspended => "#90caf9",
        Class::Waiting => "#fdd835",
        Class::Busy => "#b3e5fc",
        Class::Unknown => "#b39ddb",
        Class::Lost => "#c62828",
        Class::Stuck => "#fb8c00",
        Class::Crashed => "#424242",
        Class::Released => "#eceff1",
        Class::ServiceHeld => "#bdbdbd",
        Class::Value => "#f8bbd0",
        Class::Abandoned => "#1a237e",
        Class::Overdue => "#ad1457",
        Class::Duplicate => "#c0ca33",
        Class::Refusing => "#a5d6a7",
        Class::Nothing => "#fafafa",
    }
}

/// Text colour that stays readable on `fill`.
fn ink(fill: &str) -> &'static str {
    let dark = [
        "#2e7d32", "#00897b", "#ad1457", "#c62828", "#424242", "#1565c0", "#1a237e",
    ];
    if dark.contains(&fill) {
        "#ffffff"
    } else {
        "#212121"
    }
}

/// Text safe inside an XML element or attribute: markup characters become entities, and
/// characters XML 1.0 does not allow at all (most control characters, U+FFFE, U+FFFF) become
/// visible symbols, as on the terminal.
fn esc(s: &str) -> String {
    let allowed = |c: char| {
        matches!(c, '\t' | '\n' | '\r') || !(c.is_control() || matches!(c, '\u{fffe}' | '\u{ffff}'))
    };
    let visible: String = s
        .chars()
        .map(|c| match c {
            c if allowed(c) => c,
            '\u{0}'..='\u{1f}' => char::from_u32(0x2400 + c as u32).unwrap_or('\u{fffd}'),
            '\u{7f}' => '\u{2421}',
            _ => '\u{fffd}',
        })
        .collect();
    visible
        .replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

fn header(out: &mut String, height: f64, title: &str) {
    let _ = writeln!(
        out,
        r##"<?xml version="1.0" encoding="UTF-8"?>
<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{height}" viewBox="0 0 {WIDTH} {height}" role="img" aria-label="{}">
<style>
  text {{ font-family: "Noto Sans CJK SC", "Source Han Sans SC", "WenQuanYi Micro Hei", "PingFang SC", "Microsoft YaHei", "DejaVu Sans", Arial, sans-serif; font-size: 13px; fill: #212121; }}
  .title {{ font-size: 20px; font-weight: bold; }}
  .sub {{ font-size: 13px; fill: #455a64; }}
  .label {{ font-size: 14px; font-weight: bold; }}
  .tick {{ font-size: 11px; fill: #607d8b; }}
  .span {{ font-size: 11px; }}
  .small {{ font-size: 12px; }}
  .bad {{ fill: #c62828; font-weight: bold; }}
  .good {{ fill: #2e7d32; font-weight: bold; }}
  .alarm {{ fill: #ffffff; font-weight: bold; paint-order: stroke; stroke: #b71c1c; stroke-width: 4px; }}
</style>
<rect x="0" y="0" width="{WIDTH}" height="{height}" fill="#ffffff"/>"##,
        esc(title)
    );
}

fn x_of(t: Millis, end: Millis) -> f64 {
    LEFT + (WIDTH - LEFT - RIGHT) * t as f64 / end.max(1) as f64
}

/// A lane's label in the picture, with room for a few more words than the text report.
fn lane_label(trace: &Trace, lane: &Lane, lang: Lang) -> String {
    use crate::engine::trace::Role;
    let name = trace.name(lane.actor);
    match trace.role(lane.actor) {
        Some(Role::Coordinator | Role::LeaseService) => export(Export::ServiceView, lang).into(),
        Some(Role::Resource) => export(Export::ProtectedResource, lang).into(),
        _ if trace.family == Family::Frozen && name == "A" => {
            export(Export::ABelieves, lang).into()
        }
        _ => crate::i18n::sim::actor_name(trace, lane.actor, lang),
    }
}

fn draw_lane(out: &mut String, lane: &Lane, trace: &Trace, y: f64, end: Millis, lang: Lang) {
    let _ = writeln!(
        out,
        r#"<text class="label" x="12" y="{:.1}">{}</text>"#,
        y + LANE_H / 2.0 + 5.0,
        esc(&lane_label(trace, lane, lang))
    );
    for span in &lane.spans {
        let x0 = x_of(span.start_ms, end);
        let x1 = x_of(span.end_ms.min(end), end);
        let colour = fill(span.state, trace);
        let _ = writeln!(
            out,
            r##"<rect x="{x0:.1}" y="{y:.1}" width="{:.1}" height="{LANE_H}" fill="{colour}" stroke="#90a4ae" stroke-width="0.5"/>"##,
            (x1 - x0).max(0.5)
        );
        let label = crate::i18n::sim::state_label(span.state, trace, lang);
        let approx = crate::text::width(&label) as f64 * 6.5;
        // A millisecond's IDs in a narrow span: the time on one line, worker and sequences below.
        let lines = match span.state {
            SpanState::Snowflake(s) => crate::i18n::snowflake::state_label_lines(s, lang),
            _ => None,
        };
        if let Some((top, bottom)) = lines.filter(|_| approx + 8.0 >= x1 - x0) {
            let wide = crate::text::width(&top).max(crate::text::width(&bottom)) as f64 * 6.5;
            if wide + 6.0 < x1 - x0 {
                let c = ink(colour);
                for (dy, text) in [(-3.0, top), (10.0, bottom)] {
                    let _ = writeln!(
                        out,
                        r#"<text class="span" x="{:.1}" y="{:.1}" fill="{c}" style="fill:{c}">{}</text>"#,
                        x0 + 3.0,
                        y + LANE_H / 2.0 + dy,
                        esc(&text)
                    );
                }
            }
            continue;
        }
        if approx + 8.0 < x1 - x0 {
            let _ = writeln!(
                out,
                r#"<text class="span" x="{:.1}" y="{:.1}" fill="{}" style="fill:{}">{}</text>"#,
                x0 + 4.0,
                y + LANE_H / 2.0 + 4.0,
                ink(colour),
                ink(colour),
                esc(&label)
            );
        }
    }
}

fn axis(out: &mut String, y: f64, end: Millis, lang: Lang) {
    let short = end < crate::export::text::SHORT_RUN_MS;
    let step = [
        1u64, 2, 5, 10, 20, 50, 100, 200, 500, 1_000, 2_000, 5_000, 10_000, 30_000, 60_000,
    ]
    .into_iter()
    .filter(|s| short || *s >= 1_000)
    .find(|s| end / s <= 10)
    .unwrap_or(120_000);
    let _ = writeln!(
        out,
        r##"<line x1="{LEFT}" y1="{y:.1}" x2="{:.1}" y2="{y:.1}" stroke="#607d8b"/>"##,
        WIDTH - RIGHT
    );
    let mut t = 0;
    while t <= end {
        let x = x_of(t, end);
        let _ = writeln!(
            out,
            r##"<line x1="{x:.1}" y1="{y:.1}" x2="{x:.1}" y2="{:.1}" stroke="#607d8b"/>"##,
            y + 5.0
        );
        let _ = writeln!(
            out,
            r#"<text class="tick" x="{x:.1}" y="{:.1}" text-anchor="middle">{}</text>"#,
            y + 18.0,
            if short { t.to_string() } else { fmt_secs(t) }
        );
        t += step;
    }
    let _ = writeln!(
        out,
        r#"<text class="tick" x="{:.1}" y="{:.1}" text-anchor="end">{}</text>"#,
        WIDTH - RIGHT,
        y + 32.0,
        if short {
            export(Export::TimeMs, lang)
        } else {
            export(Export::TimeS, lang)
        }
    );
}

/// The lanes view of a frozen-holder or A/B/C run.
fn lanes_svg(title: &str, about: &str, trace: &Trace, at: Option<Millis>, lang: Lang) -> String {
    let end = trace.end_ms;
    let top = 110.0;
    let lanes_h = trace.lanes.len() as f64 * (LANE_H + LANE_GAP);
    let footer = 150.0;
    let height = top + lanes_h + 40.0 + footer;
    let mut out = String::new();
    header(&mut out, height, title);
    let _ = writeln!(
        out,
        r#"<text class="title" x="12" y="30">{}</text>"#,
        esc(title)
    );
    for (i, line) in crate::text::wrap(about, 150).iter().take(2).enumerate() {
        let _ = writeln!(
            out,
            r#"<text class="sub" x="12" y="{}">{}</text>"#,
            52 + i * 17,
            esc(line)
        );
    }
    for (i, lane) in trace.lanes.iter().enumerate() {
        draw_lane(
            &mut out,
            lane,
            trace,
            top + i as f64 * (LANE_H + LANE_GAP),
            end,
            lang,
        );
    }
    let bottom = top + lanes_h;
    // The danger window spans every lane: from the lease's expiry to the stale write's arrival.
    if let Some(w) = trace.danger() {
        let x0 = x_of(w.from_ms, end);
        let x1 = x_of(w.to_ms, end);
        let _ = writeln!(
            out,
            r##"<rect x="{x0:.1}" y="{:.1}" width="{:.1}" height="{:.1}" fill="#e53935" fill-opacity="0.12" stroke="#e53935" stroke-dasharray="4 3"/>"##,
            top - 6.0,
            x1 - x0,
            lanes_h + 2.0
        );
        let _ = writeln!(
            out,
            r#"<text class="bad" x="{x0:.1}" y="{:.1}">{} {} s</text>"#,
            top - 10.0,
            export(Export::DangerWindow, lang),
            fmt_secs(w.to_ms - w.from_ms)
        );
    }
    // Write arrivals at the resource: accepted or refused, with the token.
    if let Some(row) = trace
        .lanes
        .iter()
        .position(|l| trace.role(l.actor) == Some(crate::engine::trace::Role::Resource))
    {
        let base_y = top + row as f64 * (LANE_H + LANE_GAP) + LANE_H + 11.0;
        // Stagger labels that would overlap their neighbour.
        let mut last_x = f64::MIN;
        let mut level = 0.0;
        for w in &trace.writes {
            let x = x_of(w.at_ms, end);
            level = if x - last_x < 70.0 { 14.0 - level } else { 0.0 };
            last_x = x;
            let y = base_y + level;
            // An accepted stale write gets the alarm style, never a good write's.
            let (class, mark) = match w.judgement {
                Judgement::Fresh => ("good", "✓"),
                Judgement::StaleAccepted | Judgement::Overwrote => ("alarm", "⚠"),
                Judgement::StaleRejected | Judgement::Refused => ("bad", "✗"),
            };
            // A Redlock write carries no token.
            let token = if w.token == 0 && !w.fencing {
                String::new()
            } else {
                format!(" #{}", w.token)
            };
            let _ = writeln!(
                out,
                r#"<text class="{class}" x="{x:.1}" y="{y:.1}" text-anchor="middle">{mark} {}{token}</text>"#,
                esc(trace.name(w.writer)),
            );
        }
    }
    axis(&mut out, bottom + 6.0, end, lang);
    if let Some(at) = at {
        let x = x_of(at.min(end), end);
        let _ = writeln!(
            out,
            r##"<line x1="{x:.1}" y1="{:.1}" x2="{x:.1}" y2="{:.1}" stroke="#000000" stroke-width="2"/>"##,
            top - 4.0,
            bottom
        );
        let _ = writeln!(
            out,
            r#"<text class="label" x="{x:.1}" y="{:.1}" text-anchor="middle">t = {}</text>"#,
            top - 24.0,
            crate::i18n::sim::instant(trace, at, lang)
        );
    }
    let mut y = bottom + 60.0;
    for line in footer_lines(trace, at, lang) {
        let _ = writeln!(
            out,
            r#"<text class="small" x="12" y="{y:.1}" xml:space="preserve">{}</text>"#,
            esc(&line)
        );
        y += 18.0;
    }
    out.push_str("</svg>\n");
    out
}

fn footer_lines(trace: &Trace, at: Option<Millis>, lang: Lang) -> Vec<String> {
    let mut lines = Vec::new();
    if let Some(at) = at
        && let Some(i) = trace.event_index_at(at)
    {
        let t = trace.events[i].at_ms;
        let when = crate::i18n::sim::instant(trace, t, lang);
        lines.push(format!(
            "{when}: {}",
            describe(&trace.events[i], trace, lang)
        ));
    }
    match &trace.metrics {
        Metrics::Frozen(m) => {
            lines.push(format!(
                "{} = {}    {} = {}",
                export(Export::DangerWindow, lang),
                crate::i18n::sim::danger_formula(m, lang),
                export(Export::HandoverDelay, lang),
                crate::i18n::sim::handover_formula(m, lang),
            ));
            lines.push(verdict_text(m.verdict, lang).to_string());
        }
        Metrics::Abc(m) => {
            let wake: Vec<String> = m.wakeups_per_release.iter().map(u32::to_string).collect();
            lines.push(format!(
                "{} [{}]   {} {}   {} {}",
                export(Export::WakeUpsPerRelease, lang),
                wake.join(", "),
                export(Export::DuplicateNodes, lang),
                m.duplicate_nodes,
                export(Export::Stuck, lang),
                if m.stuck_clients.is_empty() {
                    "-".into()
                } else {
                    m.stuck_clients.join(", ")
                },
            ));
            lines.push(format!(
                "{} {}   {} {}",
                export(Export::StaleWritesAccepted, lang),
                m.stale_writes_accepted,
                export(Export::StaleWritesRejected, lang),
                m.stale_writes_rejected
            ));
            // The data node's reads and writes, one line each, when the run has one.
            lines.extend(crate::export::data_node::lines(trace, lang));
        }
        Metrics::Herd(_) => {}
        _ => lines.extend(family_lines(trace, lang)),
    }
    let badges: Vec<String> = trace
        .invariants
        .iter()
        .filter(|i| i.check == Check::Always)
        .map(|i| {
            format!(
                "{} {}",
                if i.held { "✓" } else { "✗" },
                invariant_label(i.name, lang)
            )
        })
        .collect();
    lines.push(badges.join("    "));
    lines
}

/// The outcome of a run of the knob families (queue, election, tasks, Redlock, Snowflake) in a
/// line or two: the SVG's footer and the terminal's presenter and family lab all print these.
pub fn family_lines(trace: &Trace, lang: Lang) -> Vec<String> {
    match &trace.metrics {
        Metrics::Tasks(m) => vec![crate::i18n::sim::task_outcome_line(m, lang)],
        Metrics::Election(m) => vec![format!(
            "{} {}   {} {}   {} {}/{}",
            export(Export::Leaders, lang),
            m.leaders.join(" "),
            export(Export::ResultThatStands, lang),
            m.result.as_deref().unwrap_or("-"),
            export(Export::StaleSubmitsRefusedAccepted, lang),
            m.stale_submits_rejected,
            m.stale_submits_accepted
        )],
        Metrics::Queue(m) => {
            let mut line = format!(
                "{} {}   {} {}",
                export(Export::GrantOrder, lang),
                m.grant_order.join(" "),
                export(Export::MostHoldersAtOnce, lang),
                m.max_holders,
            );
            // A semaphore has no readers: a count of them would only be a zero to puzzle over.
            if trace.family == Family::Rwlock {
                line.push_str(&format!(
                    "   {} {}",
                    export(Export::MostReadersAtOnce, lang),
                    m.max_concurrent_readers
                ));
            }
            vec![line]
        }
        Metrics::Redlock(_) | Metrics::Snowflake(_) | Metrics::Etcd(_) => {
            crate::export::summaries::footer(trace, lang)
        }
        Metrics::Frozen(_) | Metrics::Abc(_) | Metrics::Herd(_) => Vec::new(),
    }
}

/// The herd chart: one row per release, the winner at the left, wasted wake-ups, then the
/// waiters not notified.
fn herd_svg(title: &str, about: &str, m: &HerdMetrics, lang: Lang) -> String {
    let rows = m.rows.len().max(1);
    let waiters = m
        .rows
        .first()
        .map_or(1, |r| r.woken + r.not_notified)
        .max(1) as f64;
    let row_h = (560.0 / rows as f64).clamp(0.5, 14.0);
    let top = 90.0;
    let chart_h = row_h * rows as f64;
    let height = top + chart_h + 110.0;
    let cell = (WIDTH - LEFT - RIGHT) / waiters;
    let mut out = String::new();
    header(&mut out, height, title);
    let _ = writeln!(
        out,
        r#"<text class="title" x="12" y="30">{}</text>"#,
        esc(title)
    );
    let _ = writeln!(
        out,
        r#"<text class="sub" x="12" y="52">{}</text>"#,
        esc(about)
    );
    let _ = writeln!(
        out,
        r#"<text class="tick" x="12" y="{:.1}">{}</text>"#,
        top + 10.0,
        export(Export::OneRowPerRelease, lang)
    );
    for (i, r) in m.rows.iter().enumerate() {
        let y = top + i as f64 * row_h;
        let parts = [
            (1u32, "#2e7d32"),
            (r.wasted, "#ef6c00"),
            (r.not_notified, "#eceff1"),
        ];
        let mut x = LEFT;
        for (n, colour) in parts {
            let w = n as f64 * cell;
            if w > 0.0 {
                let _ = writeln!(
                    out,
                    r#"<rect x="{x:.2}" y="{y:.2}" width="{w:.2}" height="{row_h:.2}" fill="{colour}"/>"#
                );
            }
            x += w;
        }
    }
    let y = top + chart_h + 30.0;
    let legend = [
        ("#2e7d32", export(Export::TakesTheLock, lang)),
        ("#ef6c00", export(Export::WokenForNothing, lang)),
        ("#eceff1", export(Export::NotNotified, lang)),
    ];
    let mut x = LEFT;
    for (colour, label) in legend {
        let _ = writeln!(
            out,
            r##"<rect x="{x:.1}" y="{:.1}" width="14" height="14" fill="{colour}" stroke="#90a4ae"/>"##,
            y - 11.0
        );
        let _ = writeln!(
            out,
            r#"<text class="small" x="{:.1}" y="{y:.1}">{}</text>"#,
            x + 20.0,
            esc(label)
        );
        x += 200.0;
    }
    let _ = writeln!(
        out,
        r#"<text class="small" x="{LEFT}" y="{:.1}">{} {}   {} {}   {} {} ms</text>"#,
        y + 26.0,
        export(Export::Notifications, lang),
        m.total_notifications,
        export(Export::WastedWakeUps, lang),
        m.wasted_wakeups,
        export(Export::TotalTime, lang),
        m.total_time_ms,
    );
    out.push_str("</svg>\n");
    out
}

/// A standalone SVG of the run, with the cursor at `at` when given.
pub fn render(title: &str, about: &str, trace: &Trace, at: Option<Millis>, lang: Lang) -> String {
    match &trace.metrics {
        Metrics::Herd(m) => herd_svg(title, about, m, lang),
        _ => lanes_svg(title, about, trace, at, lang),
    }
}
