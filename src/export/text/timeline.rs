//! The lane timelines: one ASCII character per time step, a legend of what each means, the
//! time axis, and each lane's label.

use super::*;

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
        // Several readers or permit holders at once: how many.
        SpanState::Queue { holders, .. } => match holders.len() {
            0 => '.',
            1 => holders.first().map_or('.', initial),
            n => char::from_digit(n.min(9) as u32, 10).unwrap_or('*'),
        },
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
        SpanState::Etcd(s) => match s {
            EtcdSpan::Opening => '>',
            EtcdSpan::Waiting { .. } => '~',
            EtcdSpan::Unaware { .. } => '*',
            EtcdSpan::Prefix { holder, .. } => holder.map_or('_', initial),
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
pub(super) fn legend(trace: &Trace, lang: Lang) -> String {
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
                    | SpanState::Etcd(EtcdSpan::Prefix { .. })
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
                | SpanState::Etcd(EtcdSpan::Prefix { .. })
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
        parts.push(export(Export::LettersHolderOrValue, lang).to_string());
    }
    let shared = trace
        .lanes
        .iter()
        .flat_map(|l| &l.spans)
        .any(|s| matches!(s.state, SpanState::Queue { holders, .. } if holders.len() > 1));
    if shared {
        parts.push(export(Export::DigitsHoldersTogether, lang).to_string());
    }
    wrap_items(&parts, 100)
}

pub(super) fn wrap_items(parts: &[String], width: usize) -> String {
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

pub(super) fn axis(end: Millis, cols: usize) -> (String, String) {
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

pub use crate::engine::time::SHORT_RUN_MS;

pub(super) fn nice_step(end: Millis) -> Millis {
    [
        1, 2, 5, 10, 20, 50, 100, 200, 500, 1_000, 2_000, 5_000, 10_000, 20_000, 30_000, 60_000,
        120_000, 300_000,
    ]
    .into_iter()
    .filter(|s| end < SHORT_RUN_MS || *s >= 1_000)
    .find(|s| end / s <= 10)
    .unwrap_or(600_000)
}

pub(super) fn pad(label: &str) -> String {
    let w = crate::text::width(label);
    format!("{label}{}", " ".repeat(LABEL.saturating_sub(w)))
}

/// A lane's label: the actor's name, or what a service or resource lane stands for.
pub fn lane_label(trace: &Trace, lane: &Lane, lang: Lang) -> String {
    let name = trace.name(lane.actor);
    match trace.role(lane.actor) {
        Some(Role::Coordinator | Role::LeaseService) => export(Export::Service, lang).into(),
        Some(Role::Resource) => export(Export::ResourceLane, lang).into(),
        _ if trace.family == Family::Frozen && name == "A" => {
            export(Export::ABelievesShort, lang).into()
        }
        _ => {
            let name = crate::i18n::sim::actor_name(trace, lane.actor, lang);
            // A read-write lock's clients say which side they ask for.
            match trace.lock_side(lane.actor) {
                Some(crate::engine::zk::tree::Tag::Read) => {
                    format!("{name} {}", lang.pick("读", "r"))
                }
                Some(crate::engine::zk::tree::Tag::Write) => {
                    format!("{name} {}", lang.pick("写", "w"))
                }
                _ => name,
            }
        }
    }
}

/// The whole timeline block: axis, lanes and (for the frozen holder) the danger window.
pub fn timeline(trace: &Trace, lang: Lang) -> String {
    let end = trace.end_ms;
    let cols = TIMELINE_COLS;
    let mut out = String::new();
    let (labels, ticks) = axis(end, cols);
    let seconds = if end < SHORT_RUN_MS {
        export(Export::Millis, lang)
    } else {
        export(Export::Seconds, lang)
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
            pad(export(Export::DangerShort, lang)),
            row.trim_end()
        );
    }
    out.push_str(&legend(trace, lang));
    out.push('\n');
    out
}
