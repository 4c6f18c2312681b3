//! The frozen-holder screen: four lanes over the run, the danger window, a time cursor, the
//! resource at the cursor, both formulas with this run's numbers, and the sliders.

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::Style;
use ratatui::widgets::Widget;

use super::{colon, line, secs, wrapped};
use crate::engine::params::{FROZEN_SPECS, FrozenParams};
use crate::engine::time::{Millis, fmt_secs};
use crate::engine::trace::{FrozenMetrics, Metrics, Trace, Verdict};
use crate::engine::{Params, run};
use crate::i18n::{Lang, Ui, describe, ui, verdict_short, verdict_text};
use crate::tui::theme::Theme;
use crate::tui::timeline::Timeline;
use crate::tui::widgets::lanes::{self, Lanes};
use crate::tui::widgets::slider::{self, Slider};

const SLIDER_WORDS: [Ui; 5] = [
    Ui::Ttl,
    Ui::Keepalive,
    Ui::PauseStart,
    Ui::PauseLen,
    Ui::Delay,
];

#[derive(Debug, Clone, PartialEq)]
pub struct FrozenState {
    pub params: FrozenParams,
    pub trace: Trace,
    /// The same run with fencing flipped, while comparing.
    pub other: Option<Trace>,
    pub focus: usize,
    pub tl: Timeline,
    /// Parameters the preset locked, so a demonstration cannot drift.
    pub locked: Vec<String>,
}

fn run_frozen(p: &FrozenParams) -> Trace {
    run(&Params::Frozen(p.clone()))
}

impl FrozenState {
    pub fn new(params: FrozenParams) -> Self {
        let trace = run_frozen(&params);
        let mut tl = Timeline::default();
        tl.set_cursor(&trace, 0);
        Self {
            params,
            trace,
            other: None,
            focus: 0,
            tl,
            locked: Vec::new(),
        }
    }

    fn is_locked(&self, key: &str) -> bool {
        self.locked.iter().any(|k| k == key)
    }

    /// Re-runs the engine after any change, keeping the cursor where it was.
    fn rerun(&mut self) {
        self.trace = run_frozen(&self.params);
        if self.other.is_some() {
            self.other = Some(run_frozen(&self.flipped()));
        }
        self.tl.refit(&self.trace);
    }

    fn flipped(&self) -> FrozenParams {
        FrozenParams {
            fencing: !self.params.fencing,
            ..self.params.clone()
        }
    }

    pub fn compare(&self) -> bool {
        self.other.is_some()
    }

    pub fn toggle_compare(&mut self) {
        self.other = match self.other {
            Some(_) => None,
            None => Some(run_frozen(&self.flipped())),
        };
    }

    pub fn toggle_fencing(&mut self) {
        if self.is_locked("fencing") {
            return;
        }
        self.params.fencing = !self.params.fencing;
        self.rerun();
    }

    pub fn toggle_stop_on_loss(&mut self) {
        if self.is_locked("stop_on_loss") {
            return;
        }
        self.params.stop_on_loss = !self.params.stop_on_loss;
        self.rerun();
    }

    pub fn focus_by(&mut self, dir: i8) {
        let n = FROZEN_SPECS.len() as i64;
        self.focus = (self.focus as i64 + i64::from(dir)).rem_euclid(n) as usize;
    }

    fn value(&self, i: usize) -> f64 {
        self.params
            .get(FROZEN_SPECS[i].key)
            .unwrap_or(FROZEN_SPECS[i].min)
    }

    fn set(&mut self, i: usize, v: f64) {
        if self.is_locked(FROZEN_SPECS[i].key) {
            return;
        }
        // Values come from the spec's own range, so `set` only fails on float dust; the old
        // value then stays, which is the right thing for a slider.
        if self.params.set(FROZEN_SPECS[i].key, v).is_ok() {
            self.rerun();
        }
    }

    pub fn adjust(&mut self, dir: i8, coarse: bool) {
        let spec = &FROZEN_SPECS[self.focus];
        let v = slider::nudge(spec, spec.max, self.value(self.focus), dir, coarse);
        self.set(self.focus, v);
    }

    pub fn set_frac(&mut self, i: usize, frac: f64) {
        let spec = &FROZEN_SPECS[i];
        self.focus = i;
        self.set(i, slider::value_at(spec.min, spec.max, spec.step, frac));
    }

    fn metrics(trace: &Trace) -> Option<&FrozenMetrics> {
        match &trace.metrics {
            Metrics::Frozen(m) => Some(m),
            _ => None,
        }
    }

    /// Mouse: a slider row sets that slider; the lanes move the cursor.
    pub fn click(&mut self, area: Rect, col: u16, row: u16) {
        let lay = layout(area, self.compare());
        if let Some(i) = lay.sliders.iter().position(|r| r.y == row && r.height > 0) {
            let i = if lay.sliders_collapsed { self.focus } else { i };
            self.set_frac(
                i,
                slider::frac_at(
                    slider::track(lay.sliders[i.min(lay.sliders.len() - 1)]),
                    col,
                ),
            );
            return;
        }
        for lanes_area in [Some(lay.lanes), lay.lanes2].into_iter().flatten() {
            if lanes_area.contains((col, row).into()) && col >= lanes::track(lanes_area).x {
                self.tl.playing = false;
                let t = lanes::time_at(lanes::track(lanes_area), self.trace.end_ms, col);
                self.tl.set_cursor(&self.trace, t);
            }
        }
    }
}

/// Where everything sits; shared by drawing and mouse hit-testing.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FrozenLayout {
    pub title: Rect,
    pub lanes: Rect,
    pub caption2: Option<Rect>,
    pub lanes2: Option<Rect>,
    pub cursor: Rect,
    pub event: Rect,
    pub formulas: Rect,
    pub verdict: Rect,
    pub toggles: Rect,
    pub sliders: Vec<Rect>,
    /// Only the focused slider is shown (compare mode on a small terminal).
    pub sliders_collapsed: bool,
    pub footer: Rect,
}

const LANES_ROWS: u16 = 6;

pub fn layout(area: Rect, compare: bool) -> FrozenLayout {
    let mut y = area.y;
    let mut take = |h: u16| {
        let r = Rect::new(
            area.x,
            y,
            area.width,
            h.min(area.bottom().saturating_sub(y)),
        );
        y = (y + h).min(area.bottom());
        r
    };
    let collapsed = compare && area.height < 30;
    let title = take(1);
    let lanes = take(LANES_ROWS);
    let (caption2, lanes2) = if compare {
        (Some(take(1)), Some(take(LANES_ROWS)))
    } else {
        (None, None)
    };
    let cursor = take(1);
    let event = take(2);
    let formulas = if compare && area.height < 30 {
        take(0)
    } else {
        take(2)
    };
    let verdict = take(2);
    let toggles = take(1);
    let sliders = if collapsed {
        vec![take(1)]
    } else {
        (0..FROZEN_SPECS.len()).map(|_| take(1)).collect()
    };
    let footer = Rect::new(
        area.x,
        area.bottom().saturating_sub(1),
        area.width,
        1.min(area.height),
    );
    FrozenLayout {
        title,
        lanes,
        caption2,
        lanes2,
        cursor,
        event,
        formulas,
        verdict,
        toggles,
        sliders,
        sliders_collapsed: collapsed,
        footer,
    }
}

fn on_off(b: bool, lang: Lang) -> &'static str {
    ui(if b { Ui::On } else { Ui::Off }, lang)
}

fn lanes_widget<'a>(trace: &'a Trace, cursor: Millis, lang: Lang, theme: Theme) -> Lanes<'a> {
    let rows = trace
        .lanes
        .iter()
        .map(|l| (crate::export::text::lane_label(trace, l, lang), l))
        .collect();
    Lanes {
        trace,
        rows,
        end_ms: trace.end_ms,
        cursor_ms: cursor,
        danger: trace.danger().map(|w| (w.from_ms, w.to_ms)),
        danger_label: ui(Ui::LaneDanger, lang).to_string(),
        theme,
    }
}

/// The resource as it stands at `t`, as the trace recorded it at the last write before `t`:
/// its value, the largest token it has seen, and who wrote the value.
fn resource_at(trace: &Trace, t: Millis) -> (Option<String>, u64, Option<String>) {
    let value = trace.value_at(t);
    let seen = trace
        .writes
        .iter()
        .rev()
        .find(|w| w.at_ms <= t)
        .map_or(0, |w| w.last_seen_after);
    let writer = value.map(|w| trace.name(w.writer).to_string());
    (
        value.map(|w| format!("{}/{}", trace.name(w.writer), w.token)),
        seen,
        writer,
    )
}

fn verdict_style(v: Verdict, theme: Theme) -> Style {
    match v {
        Verdict::Corruption | Verdict::StaleWriteAccepted | Verdict::Unresolved => theme.bad(),
        _ => theme.good(),
    }
}

pub fn render(s: &FrozenState, lang: Lang, theme: Theme, area: Rect, buf: &mut Buffer) {
    let lay = layout(area, s.compare());
    let c = colon(lang);
    let end = s.trace.end_ms;
    let cursor = s.tl.cursor_ms;
    let play = s.tl.status(lang);
    line(
        buf,
        lay.title,
        &format!(
            "{}   {} {} / {} s   {play}",
            ui(Ui::HomeFrozen, lang),
            ui(Ui::Cursor, lang),
            fmt_secs(cursor),
            fmt_secs(end)
        ),
        theme.title(),
    );
    lanes_widget(&s.trace, cursor, lang, theme).render(lay.lanes, buf);
    if let (Some(cap), Some(l2), Some(other)) = (lay.caption2, lay.lanes2, &s.other) {
        let flipped = format!(
            "{} {}",
            ui(Ui::Fencing, lang),
            on_off(!s.params.fencing, lang)
        );
        line(
            buf,
            cap,
            &format!(
                "{}{c}{}",
                ui(Ui::Compare, lang),
                ui(Ui::Flipped, lang).replace("{}", &flipped)
            ),
            theme.title(),
        );
        lanes_widget(other, cursor, lang, theme).render(l2, buf);
    }

    let (value, seen, writer) = resource_at(&s.trace, cursor);
    let none = ui(Ui::None, lang);
    // The resource span's note is `value/token`.
    let value = value.map(|v| match v.split_once('/') {
        Some((v, t)) => format!("{v} ({} {t})", ui(Ui::Token, lang)),
        None => v,
    });
    line(
        buf,
        lay.cursor,
        &format!(
            "{} {}{c}{}   {}{c}{seen}   {}{c}{}",
            ui(Ui::LaneResource, lang),
            ui(Ui::Value, lang),
            value.as_deref().unwrap_or(none),
            ui(Ui::LastToken, lang),
            ui(Ui::LastWriter, lang),
            writer.as_deref().unwrap_or(none),
        ),
        Style::new(),
    );
    let explain = s.tl.current(&s.trace).map_or_else(
        || ui(Ui::NothingYet, lang).to_string(),
        |e| format!("{} s  {}", fmt_secs(e.at_ms), describe(e, &s.trace, lang)),
    );
    wrapped(buf, lay.event, &explain, Style::new());

    if let Some(m) = FrozenState::metrics(&s.trace) {
        let danger = crate::i18n::sim::danger_formula(m, lang);
        let handover = crate::i18n::sim::handover_formula(m, lang);
        if lay.formulas.height >= 2 {
            let f = lay.formulas;
            line(
                buf,
                Rect { height: 1, ..f },
                &format!("{} = {danger}", ui(Ui::FormulaDanger, lang)),
                Style::new(),
            );
            line(
                buf,
                Rect {
                    y: f.y + 1,
                    height: 1,
                    ..f
                },
                &format!("{} = {handover}", ui(Ui::FormulaHandover, lang)),
                Style::new(),
            );
        }
        if let Some(om) = s.other.as_ref().and_then(FrozenState::metrics) {
            let v = lay.verdict;
            line(
                buf,
                Rect { height: 1, ..v },
                &format!(
                    "{}{c}{}",
                    ui(Ui::Verdict, lang),
                    verdict_short(m.verdict, lang)
                ),
                verdict_style(m.verdict, theme),
            );
            line(
                buf,
                Rect {
                    y: v.y + 1,
                    height: 1,
                    ..v
                },
                &format!(
                    "{} ({}){c}{}",
                    ui(Ui::Verdict, lang),
                    ui(Ui::Compare, lang),
                    verdict_short(om.verdict, lang)
                ),
                verdict_style(om.verdict, theme),
            );
        } else {
            // The Chinese sentence already opens with the short verdict: say it once.
            let (short, full) = (
                verdict_short(m.verdict, lang),
                verdict_text(m.verdict, lang),
            );
            let text = if full.starts_with(short) {
                format!("{}{c}{full}", ui(Ui::Verdict, lang))
            } else {
                format!("{}{c}{short}  {full}", ui(Ui::Verdict, lang))
            };
            wrapped(buf, lay.verdict, &text, verdict_style(m.verdict, theme));
        }
    }
    line(
        buf,
        lay.toggles,
        &format!(
            "  [f] {}{c}{}   [s] {}{c}{}",
            ui(Ui::Fencing, lang),
            on_off(s.params.fencing, lang),
            ui(Ui::StopOnLoss, lang),
            on_off(s.params.stop_on_loss, lang)
        ),
        theme.title(),
    );
    let shown: Vec<usize> = if lay.sliders_collapsed {
        vec![s.focus]
    } else {
        (0..FROZEN_SPECS.len()).collect()
    };
    for (row, i) in lay.sliders.iter().zip(shown) {
        let spec = &FROZEN_SPECS[i];
        let v = s.value(i);
        Slider {
            label: ui(SLIDER_WORDS[i], lang),
            value: format!("{} s", secs(v)),
            frac: (v - spec.min) / (spec.max - spec.min),
            focused: i == s.focus,
            theme,
        }
        .render(*row, buf);
    }
    let footer = if s.locked.is_empty() {
        ui(Ui::FooterFrozen, lang).to_string()
    } else {
        format!("{}  {}", ui(Ui::Locked, lang), ui(Ui::FooterFrozen, lang))
    };
    line(buf, lay.footer, &footer, theme.dim());
}
