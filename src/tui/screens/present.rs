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
use crate::engine::time::Millis;
use crate::engine::trace::{Metrics, Trace};
use crate::i18n::present::{Present, present};
use crate::i18n::{Lang, Ui, describe, ui};
use crate::scenario::answers::answer;
use crate::scenario::script::Step;
use crate::scenario::{Preset, run_end};
use crate::tui::theme::Theme;
use crate::tui::widgets::big_caption::{self, BigCaption};
use crate::tui::widgets::herd_chart::HerdChart;
use crate::tui::widgets::lanes::{self, Lanes};
use crate::tui::widgets::legend::Legend;

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
    /// Prediction mode: a question step asks for a pick before it reveals.
    pub predict: bool,
    /// The choice picked at this step, once predicted.
    pub picked: Option<usize>,
    /// Whether the prediction was saved, in words.
    pub saved: Option<String>,
}

impl PresentState {
    pub fn new(preset: Preset) -> Self {
        let trace = crate::engine::run(&preset.params);
        let predict = preset.predict;
        let mut s = Self {
            preset,
            step: 0,
            revealed: false,
            blank: false,
            trace,
            cursor_ms: 0,
            predict,
            picked: None,
            saved: None,
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

    /// The instant of the step before this one, where this step's story starts.
    fn since(&self) -> Option<Millis> {
        let script = &self.preset.script;
        script[..self.step.min(script.len())]
            .iter()
            .rev()
            .find_map(|s| s.at_ms)
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
        self.picked = None;
        self.saved = None;
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

    /// The first instant a question still waiting for its answer hides (the step defines it).
    pub fn hidden_from(&self) -> Option<Millis> {
        if self.revealed {
            return None;
        }
        let step = self.current()?;
        crate::scenario::horizon::hidden_from(step, &self.trace, self.cursor_ms)
    }

    /// The time the lanes are drawn up to: a revealed question with no time shows the whole run;
    /// one still waiting stops just short of what it hides.
    pub fn shown_until(&self) -> Millis {
        if let Some(h) = self.hidden_from() {
            return h.saturating_sub(1).min(self.cursor_ms);
        }
        match self.current() {
            Some(s) if s.question.is_some() && s.at_ms.is_none() && self.revealed => {
                self.trace.end_ms
            }
            _ => self.cursor_ms,
        }
    }

    /// Whether the run's outcome (the verdict, the invariant badges) is printed: at the step that
    /// asks for the verdict once revealed, and at the last step once nothing waits there.
    pub fn outcome_shown(&self) -> bool {
        let asks_verdict = self
            .current()
            .and_then(|s| s.question.as_ref())
            .is_some_and(|q| q.ask == crate::scenario::script::Ask::Verdict);
        self.outcome_visible() && (self.step + 1 == self.steps() || (self.revealed && asks_verdict))
    }

    pub fn reveal(&mut self) {
        self.revealed = true;
    }

    /// The instant the current question is about (the run's end for one with no time).
    fn asked_at(&self) -> Millis {
        self.current()
            .and_then(|st| st.at_ms)
            .unwrap_or(self.trace.end_ms)
    }

    /// The choices a prediction offers at this step, drawn from the run; none without a
    /// question.
    pub fn choices(&self, lang: Lang) -> Vec<String> {
        self.current()
            .and_then(|st| st.question.as_ref())
            .map(|q| crate::scenario::choices::choices(q.ask, &self.trace, self.asked_at(), lang))
            .unwrap_or_default()
    }

    /// Picks prediction `n` at a question still waiting: reveals the answer and returns the
    /// prediction, scored against the engine's answer, for the learner's progress.
    pub fn pick(
        &mut self,
        n: usize,
        now: crate::quiz::sched::Time,
        lang: Lang,
    ) -> Option<crate::quiz::session::Graded> {
        if !self.predict || self.revealed {
            return None;
        }
        let q = self.current().and_then(|st| st.question.as_ref())?;
        let choices = self.choices(lang);
        let pick = choices.get(n)?;
        let right = *pick == answer(q.ask, &self.trace, self.asked_at(), lang);
        let id = format!("predict/{}/{}", self.preset.name, self.step + 1);
        let note = pick.clone();
        self.picked = Some(n);
        self.revealed = true;
        Some(crate::tui::lab_predict::graded(id, note, right, now))
    }
}

/// The window the lanes show at this step, chosen from the step's own story: what happened
/// since the step before (`since`) up to the step's instant. The whole run, unless those
/// events are so close together that they would share a column; then a zoom that spreads them
/// over at least [`SPREAD`] columns, with the step's instant three quarters across. The last few
/// events before the instant are always in view, whatever the step before.
pub fn step_window(
    trace: &Trace,
    since: Option<Millis>,
    until: Millis,
    track: u16,
) -> (Millis, Millis) {
    let end = trace.end_ms;
    let story = since.and_then(|since| {
        trace
            .events
            .iter()
            .find(|e| e.at_ms > since && e.at_ms <= until && crate::tui::timeline::notable(e))
            .map(|e| e.at_ms)
    });
    let upto = trace.events.partition_point(|e| e.at_ms <= until);
    let recent = trace.events[..upto]
        .iter()
        .filter(|e| crate::tui::timeline::notable(e))
        .map(|e| e.at_ms)
        .rev()
        .take(5)
        .last();
    // The story and the last few events both stay in view.
    let Some(first) = story.into_iter().chain(recent).min() else {
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

/// Rows a lane takes at most, however few lanes share the screen.
const MAX_PER_LANE: u16 = 6;

/// Columns the last few events before a step's time get at least.
const SPREAD: u16 = 24;

fn draw_lanes(s: &PresentState, theme: Theme, lang: Lang, area: Rect, buf: &mut Buffer) {
    let until = s.shown_until();
    let mut l = Lanes::of(&s.trace, lang, theme);
    l.window = step_window(
        &s.trace,
        s.since(),
        until,
        area.width.saturating_sub(lanes::LABEL_COLS),
    );
    l.cursor_ms = until.min(s.trace.end_ms);
    l.shown_until = until;
    l.through = s.outcome_visible();
    l.max_per_lane = MAX_PER_LANE;
    l.render(area, buf);
}

/// A run's outcome in a few lines: its family's numbers, then the invariant badges as the
/// engine checked them over the whole run. The family lab prints the same lines.
pub fn outcome_lines(trace: &Trace, lang: Lang) -> Vec<String> {
    let mut lines = family_outcome(trace, lang);
    // The invariant badges, as the engine checked them over the whole run.
    let badges: Vec<String> = trace
        .invariants
        .iter()
        .filter(|i| i.check == crate::engine::trace::Check::Always)
        .map(|i| super::badge(!i.held, crate::i18n::invariant_label(i.name, lang)))
        .collect();
    if !badges.is_empty() {
        lines.push(
            format!(
                "{}{}",
                crate::i18n::lab::lab(crate::i18n::lab::Lab::Badges, lang),
                present(Present::Colon, lang)
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
                present(Present::WakeUpsPerRelease, lang),
                wake.join(", "),
                present(Present::Stuck, lang),
                stuck,
                present(Present::Duplicates, lang),
                m.duplicate_nodes,
                present(Present::StaleWritesAcceptedRejected, lang),
                m.stale_writes_accepted,
                m.stale_writes_rejected
            )]
        }
        Metrics::Herd(m) => vec![format!(
            "{} {}   {} {}   {} {} ms",
            present(Present::Notifications, lang),
            m.total_notifications,
            present(Present::Wasted, lang),
            m.wasted_wakeups,
            present(Present::Total, lang),
            m.total_time_ms
        )],
        // The knob families: the same lines the SVG export prints under its lanes.
        _ => crate::export::svg::family_lines(trace, lang),
    }
}

/// Prediction mode at a question: the choices to press before the reveal, then the pick
/// scored against the engine's answer and whether it was saved.
fn prediction_lines(s: &PresentState, lang: Lang, theme: Theme) -> Vec<(String, Style)> {
    let choices = s.choices(lang);
    let Some(q) = s.current().and_then(|st| st.question.as_ref()) else {
        return Vec::new();
    };
    if choices.is_empty() {
        return (!s.revealed)
            .then(|| {
                (
                    present(Present::PredictAloud, lang).to_string(),
                    theme.warn(),
                )
            })
            .into_iter()
            .collect();
    }
    match s.picked {
        None if !s.revealed => {
            let listed: Vec<String> = choices
                .iter()
                .enumerate()
                .map(|(i, c)| format!("{}) {c}", i + 1))
                .collect();
            vec![(
                format!(
                    "{}{}",
                    present(Present::PredictPrompt, lang),
                    listed.join("   ")
                ),
                theme.warn(),
            )]
        }
        Some(i) => {
            let pick = choices.get(i).cloned().unwrap_or_default();
            let right = pick == answer(q.ask, &s.trace, s.asked_at(), lang);
            let verdict = present(
                if right {
                    Present::PredictRight
                } else {
                    Present::PredictWrong
                },
                lang,
            );
            let saved = s.saved.clone().unwrap_or_default();
            vec![(
                format!(
                    "{}{pick} · {verdict}   {saved}",
                    present(Present::Predicted, lang)
                ),
                if right { theme.good() } else { theme.warn() },
            )]
        }
        None => Vec::new(),
    }
}

/// The event at the shown time, in words. While a question waits for its answer, the line
/// stops short of the step's own instant, as the lanes do: it tells what led up to the moment
/// the class is asked about, not the moment itself. An outcome (a write's judgement) waits for
/// the reveal in any case.
fn event_line(s: &PresentState, lang: Lang) -> Option<String> {
    let until = s.shown_until();
    let i = match s.hidden_from() {
        None if s.outcome_visible() => s.trace.event_index_at(until)?,
        hidden => s
            .trace
            .events
            .partition_point(|e| e.at_ms < hidden.unwrap_or(until))
            .checked_sub(1)?,
    };
    let e = &s.trace.events[i];
    let is_outcome = matches!(e.kind, crate::engine::trace::EventKind::WriteArrived { .. });
    (s.outcome_visible() || !is_outcome).then(|| {
        let when = crate::i18n::sim::instant(&s.trace, e.at_ms, lang);
        format!("{when}  {}", describe(e, &s.trace, lang))
    })
}

/// `text` wrapped to `cols`, at most `max` lines; a cut last line ends in an ellipsis.
fn clipped(text: &str, cols: usize, max: usize) -> Vec<String> {
    let mut lines = crate::text::wrap(text, cols);
    if lines.len() > max {
        lines.truncate(max);
        if let Some(last) = lines.last_mut() {
            let mut w = 0;
            let kept: String = last
                .chars()
                .take_while(|c| {
                    w += crate::text::width(c.encode_utf8(&mut [0; 4]));
                    w < cols
                })
                .collect();
            *last = format!("{}…", kept.trim_end());
        }
    }
    lines
}

/// Rows under the lanes that the event line may take.
const EVENT_ROWS: usize = 2;

/// Where the parts of a presenter screen go, top to bottom.
struct Layout {
    chart: Rect,
    legend: Option<Rect>,
    form: big_caption::Form,
    cap_h: u16,
}

/// Shares the rows between the lanes and the words under them. The lanes keep at least one
/// row per lane with their axis and band, so no lane is ever pushed off the screen; a caption
/// that would take those rows drops its box for a compact form, a boxed caption drops its
/// padding as soon as the lanes would lose their second row, and whatever text is left over
/// is cut from the bottom. A legend comes in only where the lanes already have two rows each.
fn layout(s: &PresentState, caption: &str, text_rows: u16, legend_rows: u16, area: Rect) -> Layout {
    let width = area.width.saturating_sub(2);
    let herd = matches!(s.trace.metrics, Metrics::Herd(_));
    let (lanes_min, lanes_two) = if herd {
        (3, 3)
    } else {
        let n = s.trace.lanes.len();
        let band = Lanes::has_band(&s.trace);
        (
            lanes::height(n, 1, true, band),
            lanes::height(n, 2, true, band),
        )
    };
    let body = area.height.saturating_sub(2);
    let lanes_min = lanes_min.min(body);
    let budget = area.height.saturating_sub(text_rows + 4) / 2;
    let mut cap_h = big_caption::height(caption, width, budget.max(4));
    let mut form = big_caption::Form::Full;
    // Lanes squeezed to one row each: a boxed caption gives up its padding, then its box.
    let fits = |h: u16, lanes: u16| lanes + text_rows + 1 + h <= body;
    if !fits(cap_h, lanes_two) && big_caption::boxed(caption, width, budget.max(4)) {
        form = big_caption::Form::Tight;
        cap_h = big_caption::tight_height(caption, width);
    }
    if !fits(cap_h, lanes_min) {
        form = big_caption::Form::Compact;
        cap_h = big_caption::compact_height(caption, width);
    }
    let chart_h = body.saturating_sub(text_rows + 1 + cap_h).max(lanes_min);
    let mut chart = Rect::new(area.x, area.y + 2, area.width, chart_h);
    let mut legend = None;
    if !herd && legend_rows > 0 {
        let mut l = Lanes::of(&s.trace, Lang::En, Theme::default());
        l.max_per_lane = MAX_PER_LANE;
        // The rows the lanes leave over, else rows taken from lanes that keep two each.
        let used = l.used_height(chart_h);
        let shrunk = chart_h.saturating_sub(legend_rows + 1);
        let lanes_h = if chart_h - used > legend_rows {
            Some(used)
        } else if shrunk >= lanes_two {
            Some(l.used_height(shrunk))
        } else {
            None
        };
        if let Some(h) = lanes_h {
            chart.height = h;
            legend = Some(Rect::new(
                area.x + 1,
                chart.bottom() + 1,
                width,
                legend_rows,
            ));
        }
    }
    Layout {
        chart,
        legend,
        form,
        cap_h,
    }
}

pub fn render(s: &PresentState, lang: Lang, theme: Theme, area: Rect, buf: &mut Buffer) {
    if s.blank {
        return;
    }
    let progress = if s.predict {
        format!(
            "{}   {}/{}",
            present(Present::PredictOn, lang),
            s.step + 1,
            s.steps()
        )
    } else {
        format!("{}/{}", s.step + 1, s.steps())
    };
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
        // The class's question stands out from everything else: a banner across the screen.
        lower.push((
            format!(
                "{}{}",
                present(Present::Question, lang),
                lang.pick(&q.text.zh, &q.text.en)
            ),
            theme.question(),
        ));
        if s.predict {
            lower.extend(prediction_lines(s, lang, theme));
        }
        if s.revealed {
            let at = s.asked_at();
            lower.push((
                format!(
                    "{}{}",
                    present(Present::Answer, lang),
                    answer(q.ask, &s.trace, at, lang)
                ),
                theme.good(),
            ));
        }
    }
    if s.outcome_shown() {
        // The verdict is what the class came for: bold, never grey.
        for l in outcome_lines(&s.trace, lang) {
            lower.push((l, Style::new().add_modifier(ratatui::style::Modifier::BOLD)));
        }
    }
    let event = event_line(s, lang)
        .map(|e| clipped(&e, width as usize, EVENT_ROWS))
        .unwrap_or_default();
    let text_rows: u16 = lower
        .iter()
        .map(|(t, _)| crate::text::wrap(t, width as usize).len() as u16)
        .sum::<u16>()
        + event.len() as u16;
    let legend_items = crate::tui::widgets::legend::items(
        &[&s.trace],
        &crate::tui::widgets::legend::planned_classes(s.params()),
        false,
        theme,
        lang,
    );
    let legend_rows = if legend_items.is_empty() {
        0
    } else {
        crate::tui::widgets::legend::rows(&legend_items, width, lang)
    };
    let at = layout(s, &caption, text_rows, legend_rows, area);
    match &s.trace.metrics {
        // The herd chart is all counts: it waits for the answer.
        Metrics::Herd(_) if s.hidden_from().is_some() => {
            let note = Rect::new(
                at.chart.x + 1,
                at.chart.y,
                at.chart.width.saturating_sub(2),
                2,
            );
            crate::tui::screens::wrapped(
                buf,
                note,
                present(Present::HerdChartHidden, lang),
                theme.dim(),
            );
        }
        Metrics::Herd(m) => HerdChart {
            metrics: m,
            more: ui(Ui::MoreRows, lang).to_string(),
            key: true,
            lang,
            theme,
        }
        .render(at.chart, buf),
        _ => draw_lanes(s, theme, lang, at.chart, buf),
    }
    if let Some(r) = at.legend {
        Legend {
            items: &legend_items,
            lang,
            theme,
        }
        .render(r, buf);
    }
    let bottom = area.bottom();
    let mut y = at.legend.map_or(at.chart.bottom(), |r| r.bottom());
    // The words sit at the bottom of the screen, where a class reads them; rows the lanes
    // leave over go between the lanes and the words, not under the words.
    let words_h = event.len() as u16
        + 1
        + at.cap_h
        + lower
            .iter()
            .map(|(text, _)| crate::text::wrap(text, width as usize).len() as u16)
            .sum::<u16>();
    y = y.max(bottom.saturating_sub(words_h));
    for e in &event {
        if y >= bottom {
            break;
        }
        line(buf, Rect::new(area.x + 1, y, width, 1), e, theme.dim());
        y += 1;
    }
    y += 1;
    if y < bottom {
        let r = Rect::new(area.x + 1, y, width, at.cap_h.min(bottom - y));
        BigCaption {
            text: &caption,
            style: Style::new(),
            form: at.form,
        }
        .render(r, buf);
        y += at.cap_h;
    }
    for (text, style) in lower {
        if y >= bottom {
            break;
        }
        let rows = crate::text::wrap(&text, width as usize).len() as u16;
        let r = Rect::new(area.x + 1, y, width, rows.min(bottom - y));
        wrapped(buf, r, &text, style);
        if style.bg.is_some() {
            // A banner fills its rows, not only its words (wide characters' second cells too).
            buf.set_style(r, style);
        }
        y += rows;
    }
}

#[cfg(test)]
mod tests {
    use super::clipped;

    #[test]
    fn a_long_event_line_is_cut_at_a_word_with_an_ellipsis() {
        let text = "B's takeover affects 0 rows (WHERE version = 5 AND epoch = 81 AND the lease has run out) and it tries again";
        let lines = clipped(text, 40, 2);
        assert_eq!(lines.len(), 2);
        assert!(
            lines.iter().all(|l| crate::text::width(l) <= 40),
            "{lines:?}"
        );
        assert!(lines[1].ends_with('…'), "{lines:?}");
        assert_eq!(lines[0], "B's takeover affects 0 rows (WHERE");
        assert_eq!(clipped("short", 40, 2), vec!["short".to_string()]);
    }
}

/// This screen's keys: one table drives both key handling and `?` help.
pub mod keys {
    use crate::i18n::Ui;
    use crate::i18n::lab::Lab;
    use crate::tui::app::AppMsg;
    use crate::tui::keys::{Binding, Ch, Code, L, U, b};
    use crossterm::event::KeyCode;

    pub const KEYS: &[Binding] = &[
        b(
            &[
                Ch(' '),
                Code(KeyCode::Right),
                Ch('l'),
                Code(KeyCode::PageDown),
            ],
            "Space Right l PgDn",
            U(Ui::KeyPresentNext),
            AppMsg::Step(1),
        ),
        b(
            &[
                Code(KeyCode::Left),
                Ch('h'),
                Code(KeyCode::PageUp),
                Code(KeyCode::Backspace),
            ],
            "Left h PgUp Backspace",
            U(Ui::KeyPresentBack),
            AppMsg::Step(-1),
        ),
        b(&[Ch('r')], "r", L(Lab::KeyPresentReveal), AppMsg::Reveal),
        b(&[Ch('b')], "b", U(Ui::KeyBlank), AppMsg::Blank),
        b(&[Ch('P')], "P", L(Lab::KeyPredict), AppMsg::TogglePredict),
        b(&[Ch('1')], "1", L(Lab::KeyPredictPick), AppMsg::Predict(0)),
        b(&[Ch('2')], "2", L(Lab::KeyPredictPick), AppMsg::Predict(1)),
        b(&[Ch('3')], "3", L(Lab::KeyPredictPick), AppMsg::Predict(2)),
        b(&[Ch('4')], "4", L(Lab::KeyPredictPick), AppMsg::Predict(3)),
        b(&[Ch('5')], "5", L(Lab::KeyPredictPick), AppMsg::Predict(4)),
    ];
}

pub use keys::KEYS;
