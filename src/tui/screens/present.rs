//! The presenter view: a scripted preset unfolding step by step for a projector.
//!
//! Large lanes drawn only up to the step's time (the future stays hidden), the caption in large
//! type, the class question, and the engine's answer once the presenter reveals it. Nothing else
//! on screen: no sliders, no key hints, only a discreet step counter.

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::Style;
use ratatui::widgets::Widget;

use super::{line, wrapped};
use crate::engine::Params;
use crate::engine::time::{Millis, fmt_secs};
use crate::engine::trace::{Metrics, Trace};
use crate::i18n::{Lang, describe};
use crate::preset::{Preset, run_end};
use crate::script::{Step, answer};
use crate::tui::theme::Theme;
use crate::tui::widgets::big_caption::{self, BigCaption};
use crate::tui::widgets::herd_chart::HerdChart;
use crate::tui::widgets::lanes::{self, Lanes};

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

/// The window the lanes show at this step: the whole run, unless the last few events before
/// the step's time are so close together that they would share a column; then a zoom that
/// spreads them over at least [`SPREAD`] columns, with the step's instant three quarters across.
pub fn step_window(trace: &Trace, until: Millis, track: u16) -> (Millis, Millis) {
    let end = trace.end_ms;
    let upto = trace.events.partition_point(|e| e.at_ms <= until);
    let recent: Vec<Millis> = trace.events[..upto]
        .iter()
        .filter(|e| crate::tui::timeline::notable(e))
        .map(|e| e.at_ms)
        .rev()
        .take(5)
        .collect();
    let Some(&first) = recent.last() else {
        return (0, end);
    };
    let z = crate::tui::timeline::zoom_to_fit(end, first, until.max(first + 1), track, SPREAD);
    if z == 0 {
        return (0, end);
    }
    let width = (end >> z).max(crate::tui::timeline::MIN_WINDOW_MS).min(end);
    let from = until.saturating_sub(width * 3 / 4).min(end - width);
    (from, from + width)
}

/// Columns the last few events before a step's time get at least.
const SPREAD: u16 = 24;

fn draw_lanes(s: &PresentState, theme: Theme, lang: Lang, area: Rect, buf: &mut Buffer) {
    let until = s.shown_until();
    let mut l = Lanes::of(&s.trace, lang, theme);
    l.window = step_window(
        &s.trace,
        until,
        area.width.saturating_sub(lanes::LABEL_COLS),
    );
    l.cursor_ms = until.min(s.trace.end_ms);
    l.shown_until = until;
    l.max_per_lane = 6;
    l.render(area, buf);
}

fn outcome_lines(s: &PresentState, lang: Lang) -> Vec<String> {
    let trace = &s.trace;
    let mut lines = family_outcome(trace, lang);
    // The invariant badges, as the engine checked them over the whole run.
    let badges: Vec<String> = trace
        .invariants
        .iter()
        .filter(|i| i.check == crate::engine::trace::Check::Always)
        .map(|i| {
            let mark = if i.held { "[ok]" } else { "[!!]" };
            format!("{mark} {}", crate::i18n::invariant_label(i.name, lang))
        })
        .collect();
    if !badges.is_empty() {
        lines.push(
            format!(
                "{}{}",
                crate::i18n::lab::lab(crate::i18n::lab::Lab::Badges, lang),
                lang.pick("：", ": ")
            ) + &badges.join("  "),
        );
    }
    lines
}

fn family_outcome(trace: &Trace, lang: Lang) -> Vec<String> {
    match &trace.metrics {
        Metrics::Frozen(m) => vec![super::frozen::verdict_words(m.verdict, lang)],
        Metrics::Abc(m) => {
            let wake: Vec<String> = m.wakeups_per_release.iter().map(u32::to_string).collect();
            let wake = if wake.is_empty() {
                vec!["-".to_string()]
            } else {
                wake
            };
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

    let caption = match s.current() {
        Some(step) => lang.pick(&step.caption.zh, &step.caption.en).to_string(),
        None => lang
            .pick(&s.preset.about.zh, &s.preset.about.en)
            .to_string(),
    };
    let width = area.width.saturating_sub(2);
    // The lower part: the event at the step, the caption in large type, the question, the
    // answer and the outcome once revealed. The lanes (or the herd chart) take the rest.
    let mut lower: Vec<(String, Style)> = Vec::new();
    if let Some(q) = s.current().and_then(|st| st.question.as_ref()) {
        lower.push((
            format!(
                "{}{}",
                lang.pick("提问：", "Question: "),
                lang.pick(&q.text.zh, &q.text.en)
            ),
            theme.title(),
        ));
        if s.revealed {
            let at = s
                .current()
                .and_then(|st| st.at_ms)
                .unwrap_or(s.trace.end_ms);
            lower.push((
                format!(
                    "{}{}",
                    lang.pick("答案：", "Answer: "),
                    answer(q.ask, &s.trace, at, lang)
                ),
                theme.good(),
            ));
        }
    }
    if s.outcome_visible() && (s.revealed || s.step + 1 == s.steps()) {
        for l in outcome_lines(s, lang) {
            lower.push((l, theme.dim()));
        }
    }
    let event = event_line(s, lang);
    let text_rows: u16 = lower
        .iter()
        .map(|(t, _)| crate::text::wrap(t, width as usize).len() as u16)
        .sum::<u16>()
        + u16::from(event.is_some());
    let budget = area.height.saturating_sub(text_rows + 4) / 2;
    let cap_h = big_caption::height(&caption, width, budget.max(4));
    let chart_h = area
        .height
        .saturating_sub(2 + cap_h + text_rows + 2)
        .max(3.min(area.height));
    let chart = Rect::new(area.x, area.y + 2, area.width, chart_h);
    match &s.trace.metrics {
        Metrics::Herd(m) => HerdChart {
            metrics: m,
            more: String::from("... {}"),
            theme,
        }
        .render(chart, buf),
        _ => draw_lanes(s, theme, lang, chart, buf),
    }
    let bottom = area.bottom();
    let mut y = chart.bottom();
    if let Some(e) = event {
        line(buf, Rect::new(area.x + 1, y, width, 1), &e, theme.dim());
        y += 1;
    }
    y += 1;
    if y < bottom {
        let r = Rect::new(area.x + 1, y, width, cap_h.min(bottom - y));
        BigCaption {
            text: &caption,
            style: Style::new(),
        }
        .render(r, buf);
        y += cap_h;
    }
    for (text, style) in lower {
        if y >= bottom {
            break;
        }
        let rows = crate::text::wrap(&text, width as usize).len() as u16;
        let r = Rect::new(area.x + 1, y, width, rows.min(bottom - y));
        wrapped(buf, r, &text, style);
        y += rows;
    }
}
