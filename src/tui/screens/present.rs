//! The presenter view: a scripted preset unfolding step by step for a projector.
//!
//! Large lanes drawn only up to the step's time (the future stays hidden), the caption in large
//! type, the class question, and the engine's answer once the presenter reveals it. Nothing else
//! on screen: no sliders, no key hints, only a discreet step counter.

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::{Modifier, Style};
use ratatui::widgets::Widget;

use super::{line, wrapped};
use crate::engine::Params;
use crate::engine::time::{Millis, fmt_secs};
use crate::engine::trace::{Lane, Metrics, SpanState, Trace};
use crate::export::text::glyph;
use crate::i18n::{Lang, describe, verdict_text};
use crate::preset::{Preset, run_end};
use crate::script::{Step, answer};
use crate::tui::theme::Theme;
use crate::tui::widgets::herd_chart::HerdChart;

/// Where a presentation stands.
#[derive(Debug, Clone)]
pub struct PresentState {
    pub preset: Preset,
    /// The current step (0-based); a preset without a script has one implicit step.
    pub step: usize,
    pub revealed: bool,
    pub blank: bool,
    /// The run for the current step's parameters.
    pub trace: Trace,
    /// How far the timeline is shown.
    pub cursor_ms: Millis,
}

impl PresentState {
    pub fn new(preset: Preset) -> Self {
        let trace = crate::engine::run(&preset.params);
        let mut s = Self {
            preset,
            step: 0,
            revealed: false,
            blank: false,
            trace,
            cursor_ms: 0,
        };
        s.enter_step();
        s
    }

    pub fn steps(&self) -> usize {
        self.preset.script.len().max(1)
    }

    pub fn current(&self) -> Option<&Step> {
        self.preset.script.get(self.step)
    }

    fn params(&self) -> &Params {
        self.current().map_or(&self.preset.params, |s| &s.params)
    }

    /// The cursor a step shows: its own time, else the one before it carried over, else the end
    /// of the run for a preset with no times at all.
    fn cursor_for(&self, step: usize) -> Millis {
        let script = &self.preset.script;
        let end = run_end(self.params()).unwrap_or(0);
        if script.is_empty() {
            return end;
        }
        script[..=step.min(script.len() - 1)]
            .iter()
            .rev()
            .find_map(|s| s.at_ms)
            .unwrap_or(if script.iter().all(|s| s.at_ms.is_none()) {
                end
            } else {
                0
            })
    }

    fn enter_step(&mut self) {
        self.revealed = false;
        self.trace = crate::engine::run(self.params());
        self.cursor_ms = self.cursor_for(self.step);
    }

    pub fn next(&mut self) {
        if self.step + 1 < self.steps() {
            self.step += 1;
            self.enter_step();
        }
    }

    pub fn back(&mut self) {
        if self.step > 0 {
            self.step -= 1;
            self.enter_step();
        }
    }

    /// Whether the outcome (verdict, write judgements, counts) may be shown now.
    pub fn outcome_visible(&self) -> bool {
        self.current().is_none_or(|s| s.question.is_none()) || self.revealed
    }

    /// The time the lanes are drawn up to: a revealed question with no time shows the whole run.
    pub fn shown_until(&self) -> Millis {
        match self.current() {
            Some(s) if s.question.is_some() && s.at_ms.is_none() && self.revealed => {
                self.trace.end_ms
            }
            _ => self.cursor_ms,
        }
    }

    pub fn reveal(&mut self) {
        self.revealed = true;
    }
}

/// A lane cut at `until`: what lies after it is not drawn.
fn clipped(lane: &Lane, at: Millis, until: Millis) -> Option<SpanState> {
    if at > until {
        return None;
    }
    lane.span_at(at).map(|s| s.state)
}

const LABEL: u16 = 12;

fn draw_lanes(s: &PresentState, theme: Theme, lang: Lang, area: Rect, buf: &mut Buffer) {
    let trace = &s.trace;
    let lanes = &trace.lanes;
    if lanes.is_empty() || area.width <= LABEL + 2 || area.height < 2 {
        return;
    }
    let end = trace.end_ms.max(1);
    let until = s.shown_until();
    let track = Rect::new(area.x + LABEL, area.y, area.width - LABEL, area.height);
    let per_lane = ((area.height - 1) / lanes.len() as u16).clamp(1, 3);
    // Axis on the first row.
    // Snowflake's runs last milliseconds: their axis counts them.
    let short = end < crate::export::text::SHORT_RUN_MS;
    let step = [
        1u64, 2, 5, 10, 100, 1_000, 2_000, 5_000, 10_000, 20_000, 60_000,
    ]
    .into_iter()
    .filter(|st| short || *st >= 1_000)
    .find(|st| (end / st) as u16 * 6 <= track.width)
    .unwrap_or(120_000);
    let col_of = |t: Millis| (t as u128 * track.width as u128 / end as u128) as u16;
    let mut t = 0;
    while t <= end {
        let x = track.x + col_of(t).min(track.width - 1);
        let text = if short {
            format!("|{t}")
        } else {
            format!("|{}", fmt_secs(t))
        };
        let room = (track.right() - x) as usize;
        if room >= text.len() {
            buf.set_stringn(x, area.y, &text, room, theme.dim());
        }
        t += step;
    }
    for (i, lane) in lanes.iter().enumerate() {
        let y0 = area.y + 1 + i as u16 * per_lane;
        if y0 >= area.bottom() {
            break;
        }
        let label = crate::export::text::lane_label(trace, lane, lang);
        buf.set_stringn(
            area.x,
            y0,
            &label,
            (LABEL - 1) as usize,
            Style::new().add_modifier(Modifier::BOLD),
        );
        for dy in 0..per_lane.saturating_sub(u16::from(per_lane > 1)) {
            let y = y0 + dy;
            if y >= area.bottom() {
                break;
            }
            for x in track.x..track.right() {
                let at = end * u64::from(x - track.x) / u64::from(track.width);
                if let Some(state) = clipped(lane, at, until) {
                    buf[(x, y)]
                        .set_char(glyph(state, trace))
                        .set_style(theme.state(state));
                }
            }
        }
    }
    let cx = track.x + col_of(until.min(end)).min(track.width - 1);
    buf[(cx, area.y)].set_char('v').set_style(theme.cursor());
}

fn outcome_lines(s: &PresentState, lang: Lang) -> Vec<String> {
    let trace = &s.trace;
    match &trace.metrics {
        Metrics::Frozen(m) => vec![verdict_text(m.verdict, lang).to_string()],
        Metrics::Abc(m) => {
            let wake: Vec<String> = m.wakeups_per_release.iter().map(u32::to_string).collect();
            let stuck = if m.stuck_clients.is_empty() {
                "-".to_string()
            } else {
                m.stuck_clients.join(", ")
            };
            vec![format!(
                "{} [{}]   {} {}   {} {}   {} {}/{}",
                lang.pick("每次释放唤醒", "wake-ups per release"),
                wake.join(", "),
                lang.pick("卡死", "stuck"),
                stuck,
                lang.pick("重复节点", "duplicates"),
                m.duplicate_nodes,
                lang.pick("陈旧写入 接受/拒绝", "stale writes accepted/rejected"),
                m.stale_writes_accepted,
                m.stale_writes_rejected
            )]
        }
        Metrics::Tasks(m) => vec![crate::i18n::sim::task_outcome_line(m, lang)],
        Metrics::Election(m) => vec![format!(
            "{} {}   {} {}",
            lang.pick("历任领导者", "leaders"),
            m.leaders.join(" "),
            lang.pick("留下的结果", "result that stands"),
            m.result.as_deref().unwrap_or("-")
        )],
        Metrics::Queue(m) => vec![format!(
            "{} {}   {} {}   {} {}",
            lang.pick("授予顺序", "grant order"),
            m.grant_order.join(" "),
            lang.pick("最多同时持有", "most holders at once"),
            m.max_holders,
            lang.pick("最多同时读者", "most readers at once"),
            m.max_concurrent_readers
        )],
        Metrics::Redlock(_) | Metrics::Snowflake(_) => {
            crate::export::summaries::footer(trace, lang)
        }
        Metrics::Herd(m) => vec![format!(
            "{} {}   {} {}   {} {} ms",
            lang.pick("通知", "notifications"),
            m.total_notifications,
            lang.pick("无效唤醒", "wasted"),
            m.wasted_wakeups,
            lang.pick("总耗时", "total"),
            m.total_time_ms
        )],
    }
}

/// The event at the shown time, in words (only when the outcome may be shown or the event is
/// not itself an outcome).
fn event_line(s: &PresentState, lang: Lang) -> Option<String> {
    let i = s.trace.event_index_at(s.shown_until())?;
    let e = &s.trace.events[i];
    let is_outcome = matches!(e.kind, crate::engine::trace::EventKind::WriteArrived { .. });
    (s.outcome_visible() || !is_outcome).then(|| {
        let when = crate::i18n::sim::short_instant(&s.trace, e.at_ms, lang)
            .unwrap_or_else(|| format!("{} s", fmt_secs(e.at_ms)));
        format!("{when}  {}", describe(e, &s.trace, lang))
    })
}

pub fn render(s: &PresentState, lang: Lang, theme: Theme, area: Rect, buf: &mut Buffer) {
    if s.blank {
        return;
    }
    let progress = format!("{}/{}", s.step + 1, s.steps());
    let w = crate::text::width(&progress) as u16;
    line(
        buf,
        Rect::new(area.x, area.y, area.width.saturating_sub(w + 1), 1),
        &s.preset.name,
        theme.dim(),
    );
    line(
        buf,
        Rect::new(area.right().saturating_sub(w), area.y, w, 1),
        &progress,
        theme.dim(),
    );

    // Lanes (or the herd chart) take the upper part; the caption and question the lower part.
    let text_rows = (area.height / 3).max(6);
    let chart = Rect::new(
        area.x,
        area.y + 2,
        area.width,
        area.height.saturating_sub(text_rows + 3),
    );
    match &s.trace.metrics {
        Metrics::Herd(m) => HerdChart {
            metrics: m,
            more: String::from("... {}"),
            theme,
        }
        .render(chart, buf),
        _ => draw_lanes(s, theme, lang, chart, buf),
    }
    let mut y = chart.bottom() + 1;
    let bottom = area.bottom();
    let mut put = |text: &str, style: Style, y: &mut u16| {
        if *y >= bottom {
            return;
        }
        let rows = crate::text::wrap(text, area.width.saturating_sub(2) as usize).len() as u16;
        let r = Rect::new(
            area.x + 1,
            *y,
            area.width.saturating_sub(2),
            rows.min(bottom - *y),
        );
        wrapped(buf, r, text, style);
        *y += rows;
    };
    if let Some(e) = event_line(s, lang) {
        put(&e, theme.dim(), &mut y);
    }
    let caption = match s.current() {
        Some(step) => lang.pick(&step.caption.zh, &step.caption.en).to_string(),
        None => lang
            .pick(&s.preset.about.zh, &s.preset.about.en)
            .to_string(),
    };
    y += 1;
    put(&caption, Style::new().add_modifier(Modifier::BOLD), &mut y);
    if let Some(q) = s.current().and_then(|st| st.question.as_ref()) {
        y += 1;
        let ask = format!(
            "{}{}",
            lang.pick("提问：", "Question: "),
            lang.pick(&q.text.zh, &q.text.en)
        );
        put(&ask, theme.title(), &mut y);
        if s.revealed {
            let at = s
                .current()
                .and_then(|st| st.at_ms)
                .unwrap_or(s.trace.end_ms);
            let a = format!(
                "{}{}",
                lang.pick("答案：", "Answer: "),
                answer(q.ask, &s.trace, at, lang)
            );
            put(&a, theme.good(), &mut y);
        }
    }
    if s.outcome_visible() && s.step + 1 == s.steps() {
        y += 1;
        for l in outcome_lines(s, lang) {
            put(&l, theme.dim(), &mut y);
        }
    }
}
