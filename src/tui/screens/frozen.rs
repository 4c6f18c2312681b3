//! The frozen-holder screen: four lanes over the run (A as it believes, the lease service, B and
//! the resource) with markers and the danger window, the legend, the event at the cursor, the
//! resource at the cursor, both formulas with this run's numbers, the verdict (once the run is
//! revealed), the sliders, and the event log (or the message sequence chart).

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::Style;
use ratatui::widgets::Widget;

use super::{colon, line, secs, wrapped};
use crate::engine::params::{FROZEN_SPECS, FrozenParams};
use crate::engine::time::{Millis, fmt_secs};
use crate::engine::trace::{FrozenMetrics, Metrics, Trace, Verdict};
use crate::engine::{Params, run};
use crate::i18n::lab::{Lab, lab};
use crate::i18n::{Lang, Ui, describe, ui, verdict_short, verdict_text};
use crate::tui::app::Msg;
use crate::tui::compare::{Parting, first_difference};
use crate::tui::theme::Theme;
use crate::tui::widgets::hints;
use crate::tui::widgets::lanes::{self, Lanes};
use crate::tui::widgets::legend::{self, Legend};
use crate::tui::widgets::run_view::RunView;
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
    /// Where the two compared runs part, if they do.
    pub parting: Option<Parting>,
    pub focus: usize,
    pub view: RunView,
    /// Parameters the preset locked, so a demonstration cannot drift.
    pub locked: Vec<String>,
    /// The preset this run came from, for the title.
    pub preset: Option<String>,
}

fn run_frozen(p: &FrozenParams) -> Trace {
    run(&Params::Frozen(p.clone()))
}

impl FrozenState {
    pub fn new(params: FrozenParams) -> Self {
        let trace = run_frozen(&params);
        let mut view = RunView::default();
        view.tl.set_cursor(&trace, 0);
        Self {
            params,
            trace,
            other: None,
            parting: None,
            focus: 0,
            view,
            locked: Vec::new(),
            preset: None,
        }
    }

    /// Opens a preset's parameters with its locks.
    pub fn from_preset(p: &crate::scenario::Preset) -> Option<Self> {
        let Params::Frozen(params) = &p.params else {
            return None;
        };
        let mut s = Self::new(params.clone());
        s.locked = p.locked.clone();
        s.preset = Some(p.name.clone());
        Some(s)
    }

    /// Refuses a change to a locked parameter, saying so.
    fn refuse_locked(&mut self, key: &str, words: &str, lang: Lang) -> bool {
        if self.locked.iter().any(|k| k == key) {
            self.view.notice = Some(lab(Lab::Locked, lang).replace("{}", words));
            return true;
        }
        false
    }

    /// Re-runs the engine after any change, keeping the cursor where it was.
    fn rerun(&mut self) {
        self.trace = run_frozen(&self.params);
        if self.other.is_some() {
            self.other = Some(run_frozen(&self.flipped()));
        }
        self.refresh_parting();
        self.view.tl.refit(&self.trace);
    }

    fn refresh_parting(&mut self) {
        self.parting = self
            .other
            .as_ref()
            .and_then(|o| first_difference(&self.trace, o));
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
        self.refresh_parting();
    }

    pub fn toggle_fencing(&mut self, lang: Lang) {
        if self.refuse_locked("fencing", ui(Ui::Fencing, lang), lang) {
            return;
        }
        self.params.fencing = !self.params.fencing;
        self.rerun();
    }

    pub fn toggle_stop_on_loss(&mut self, lang: Lang) {
        if self.refuse_locked("stop_on_loss", ui(Ui::StopOnLoss, lang), lang) {
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

    fn set(&mut self, i: usize, v: f64, lang: Lang) {
        if self.refuse_locked(FROZEN_SPECS[i].key, ui(SLIDER_WORDS[i], lang), lang) {
            return;
        }
        // Values come from the spec's own range, so `set` only fails on float dust; the old
        // value then stays, which is the right thing for a slider.
        if self.params.set(FROZEN_SPECS[i].key, v).is_ok() {
            self.rerun();
        }
    }

    pub fn adjust(&mut self, dir: i8, coarse: bool, lang: Lang) {
        let spec = &FROZEN_SPECS[self.focus];
        let v = slider::nudge(spec, spec.max, self.value(self.focus), dir, coarse);
        self.set(self.focus, v, lang);
    }

    pub fn set_frac(&mut self, i: usize, frac: f64, lang: Lang) {
        let spec = &FROZEN_SPECS[i];
        self.focus = i;
        self.set(
            i,
            slider::value_at(spec.min, spec.max, spec.step, frac),
            lang,
        );
    }

    pub fn metrics(trace: &Trace) -> Option<&FrozenMetrics> {
        match &trace.metrics {
            Metrics::Frozen(m) => Some(m),
            _ => None,
        }
    }

    /// Whether the outcome (formulas, verdict) may be shown: the whole run is on screen.
    pub fn outcome_visible(&self) -> bool {
        self.view.tl.shown_until(self.trace.end_ms) >= self.trace.end_ms
    }

    /// Applies a message meant for this screen.
    pub fn update(&mut self, msg: Msg, area: Rect, lang: Lang) {
        match msg {
            Msg::Up => self.focus_by(-1),
            Msg::Down => self.focus_by(1),
            Msg::Adjust { dir, coarse } => {
                self.view.notice = None;
                self.adjust(dir, coarse, lang)
            }
            Msg::ToggleFencing => self.toggle_fencing(lang),
            Msg::ToggleStopOnLoss => self.toggle_stop_on_loss(lang),
            Msg::Compare => self.toggle_compare(),
            Msg::Pointer { col, row } => self.click(area, col, row, lang),
            m => {
                self.view.update(&self.trace, m, lang);
            }
        }
    }

    /// Mouse: a slider row sets that slider; the lanes move the cursor; a log row jumps to it.
    pub fn click(&mut self, area: Rect, col: u16, row: u16, lang: Lang) {
        let lay = layout(area, self.compare());
        if let Some(i) = lay
            .sliders
            .iter()
            .position(|r| r.contains((col, row).into()))
        {
            self.set_frac(i, slider::frac_at(slider::track(lay.sliders[i]), col), lang);
            return;
        }
        let lanes: Vec<Rect> = [Some(lay.lanes), lay.lanes2]
            .into_iter()
            .flatten()
            .collect();
        let end = self.trace.end_ms;
        self.view.click(&self.trace, end, &lanes, lay.log, col, row);
    }
}

/// Where everything sits; shared by drawing and mouse hit-testing.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FrozenLayout {
    pub title: Rect,
    /// The lanes region (or the sequence chart), both runs when comparing.
    pub main: Rect,
    pub lanes: Rect,
    pub caption2: Option<Rect>,
    pub lanes2: Option<Rect>,
    pub legend: Rect,
    /// The resource, the event, where the runs part, the formulas and the verdict.
    pub info: Rect,
    pub toggles: Rect,
    pub sliders: Vec<Rect>,
    /// The event log, beside the controls when the terminal is wide enough.
    pub log: Option<Rect>,
    pub footer: Rect,
}

const LANES: usize = 4;

pub fn layout(area: Rect, compare: bool) -> FrozenLayout {
    let wide = area.width >= 120 && area.height >= 30;
    let band = true;
    let title = Rect {
        height: 1.min(area.height),
        ..area
    };
    let footer = Rect::new(
        area.x,
        area.bottom().saturating_sub(1),
        area.width,
        1.min(area.height),
    );
    let slider_rows: u16 = if wide { 5 } else { 3 };
    let info_rows: u16 = match (wide, compare) {
        (true, false) => 11,
        (true, true) => 15,
        (false, false) => 6,
        (false, true) => 5,
    };
    let legend_rows: u16 = if area.height >= 30 { 2 } else { 1 };
    let bottom_min = info_rows + 1 + slider_rows;
    let free = area.height.saturating_sub(2 + legend_rows + bottom_min);
    // The lanes take what they can use; the rest goes to the info panel and the log.
    let max_per = if wide { 4 } else { 2 };
    let want = |per: u16| lanes::height(LANES, per, true, band);
    let main_h = if compare {
        let per = ((free.saturating_sub(1)) / 2)
            .saturating_sub(2)
            .checked_div(LANES as u16)
            .unwrap_or(1)
            .clamp(1, 3);
        (1 + want(per) + lanes::height(LANES, per, per > 1, band)).min(free)
    } else {
        let per = (free.saturating_sub(2) / LANES as u16).clamp(1, max_per);
        want(per).min(free)
    };
    let main = Rect::new(area.x, area.y + 1, area.width, main_h);
    let (lanes, caption2, lanes2) = if compare {
        let half = main_h.saturating_sub(1) / 2 + main_h.saturating_sub(1) % 2;
        let l1 = Rect {
            height: half,
            ..main
        };
        let cap = Rect::new(area.x, l1.bottom(), area.width, 1.min(main_h));
        let l2 = Rect::new(
            area.x,
            cap.bottom(),
            area.width,
            main.bottom().saturating_sub(cap.bottom()),
        );
        (l1, Some(cap), Some(l2))
    } else {
        (main, None, None)
    };
    let legend = Rect::new(
        area.x,
        main.bottom(),
        area.width,
        legend_rows.min(footer.y.saturating_sub(main.bottom())),
    );
    let top = legend.bottom();
    let bottom_h = footer.y.saturating_sub(top);
    let left_w = if wide {
        62.min(area.width / 2)
    } else {
        area.width
    };
    let controls_h = (1 + slider_rows).min(bottom_h);
    let info = Rect::new(area.x, top, left_w, bottom_h.saturating_sub(controls_h));
    let toggles = Rect::new(area.x, info.bottom(), left_w, 1.min(controls_h));
    let sliders = (0..FROZEN_SPECS.len())
        .map(|i| {
            let i = i as u16;
            let (row, col, w) = if wide {
                (i, 0, left_w)
            } else {
                (i / 2, i % 2, left_w / 2)
            };
            let y = toggles.bottom() + row;
            let h = u16::from(y < footer.y);
            Rect::new(area.x + col * w, y, w, h)
        })
        .collect();
    let log = wide.then(|| {
        Rect::new(
            area.x + left_w + 1,
            top,
            area.width.saturating_sub(left_w + 1),
            bottom_h,
        )
    });
    FrozenLayout {
        title,
        main,
        lanes,
        caption2,
        lanes2,
        legend,
        info,
        toggles,
        sliders,
        log,
        footer,
    }
}

fn on_off(b: bool, lang: Lang) -> &'static str {
    ui(if b { Ui::On } else { Ui::Off }, lang)
}

/// The resource as it stands at `t`, as the trace recorded it at the last write before `t`:
/// its value and token, and the largest token it has seen.
fn resource_at(trace: &Trace, t: Millis) -> (Option<(String, u64)>, u64) {
    let value = trace
        .value_at(t)
        .map(|w| (trace.name(w.writer).to_string(), w.token));
    let seen = trace
        .writes
        .iter()
        .rev()
        .find(|w| w.at_ms <= t)
        .map_or(0, |w| w.last_seen_after);
    (value, seen)
}

fn verdict_style(v: Verdict, theme: Theme) -> Style {
    match v {
        Verdict::Corruption | Verdict::StaleWriteAccepted => theme.bad(),
        Verdict::Unresolved => theme.warn(),
        _ => theme.good(),
    }
}

/// The verdict in words: its short name, then the sentence that explains it (the Chinese
/// sentence already opens with the short name, so it is said once).
pub fn verdict_words(v: Verdict, lang: Lang) -> String {
    let c = colon(lang);
    let (short, full) = (verdict_short(v, lang), verdict_text(v, lang));
    if full.starts_with(short) {
        format!("{}{c}{full}", ui(Ui::Verdict, lang))
    } else {
        format!("{}{c}{short}. {full}", ui(Ui::Verdict, lang))
    }
}

fn footer_hints(lang: Lang) -> Vec<&'static str> {
    [
        Lab::HintSliders,
        Lab::HintPlay,
        Lab::HintEvent,
        Lab::HintMoment,
        Lab::HintReveal,
        Lab::HintSequence,
        Lab::HintCompare,
        Lab::HintZoom,
        Lab::HintBack,
        Lab::HintKeys,
    ]
    .into_iter()
    .map(|h| lab(h, lang))
    .collect()
}

pub fn render(s: &FrozenState, lang: Lang, theme: Theme, area: Rect, buf: &mut Buffer) {
    let lay = layout(area, s.compare());
    let c = colon(lang);
    let tl = &s.view.tl;
    let end = s.trace.end_ms;
    let cursor = tl.cursor_ms;
    let name = s
        .preset
        .as_ref()
        .map_or_else(String::new, |p| format!("  {p}"));
    line(
        buf,
        lay.title,
        &format!(
            "{}{name}   {} {} / {} s   {}",
            ui(Ui::HomeFrozen, lang),
            ui(Ui::Cursor, lang),
            fmt_secs(cursor),
            fmt_secs(end),
            tl.status(lang)
        ),
        theme.title(),
    );

    let parting = s.parting;
    if s.view.seq {
        s.view.render_chart(&s.trace, lang, theme, lay.main, buf);
    } else {
        let l = s.view.lanes(&s.trace, end, parting, lang, theme);
        Lanes {
            max_per_lane: 4,
            ..l
        }
        .render(lay.lanes, buf);
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
            let mut l = s.view.lanes(other, end, parting, lang, theme);
            l.axis = l2.height > lanes::height(LANES, 1, false, true);
            l.render(l2, buf);
        }
    }
    let traces: Vec<&Trace> = std::iter::once(&s.trace).chain(s.other.as_ref()).collect();
    let items = legend::items(&traces, &[], s.compare(), theme, lang);
    Legend {
        items: &items,
        lang,
        theme,
    }
    .render(lay.legend, buf);

    render_info(s, lang, theme, lay.info, buf);
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
    for (i, row) in lay.sliders.iter().enumerate() {
        let spec = &FROZEN_SPECS[i];
        let v = s.value(i);
        let locked = s.locked.iter().any(|k| k == spec.key);
        Slider {
            label: ui(SLIDER_WORDS[i], lang),
            value: format!("{} s{}", secs(v), if locked { " ⊘" } else { "" }),
            frac: (v - spec.min) / (spec.max - spec.min),
            focused: i == s.focus,
            theme,
        }
        .render(*row, buf);
    }
    if let Some(log) = lay.log {
        s.view.render_log(&s.trace, parting, lang, theme, log, buf);
    }
    match &s.view.notice {
        Some(n) => line(buf, lay.footer, n, theme.warn()),
        None => {
            let mut h = footer_hints(lang);
            if !s.locked.is_empty() {
                h.insert(0, lab(Lab::LockedHint, lang));
            }
            hints::render(&h, theme.dim(), lay.footer, buf);
        }
    }
}

/// The left panel: the resource at the cursor, the event, where compared runs part, the
/// formulas and the verdict (the last two once the whole run is shown).
fn render_info(s: &FrozenState, lang: Lang, theme: Theme, area: Rect, buf: &mut Buffer) {
    let c = colon(lang);
    let cursor = s.view.tl.cursor_ms;
    let mut rows: Vec<(String, Style, u16)> = Vec::new();
    let none = ui(Ui::None, lang);
    let compact = area.height < 8;
    if !(compact && s.compare()) {
        let (value, seen) = resource_at(&s.trace, cursor);
        let value = value.map_or_else(
            || none.to_string(),
            |(w, t)| format!("{w} ({} {t})", ui(Ui::Token, lang)),
        );
        rows.push((
            format!(
                "{} {}{c}{value}   {}{c}{seen}",
                ui(Ui::LaneResource, lang),
                ui(Ui::Value, lang),
                ui(Ui::LastToken, lang),
            ),
            Style::new(),
            1,
        ));
    }
    let explain = s.view.tl.current(&s.trace).map_or_else(
        || ui(Ui::NothingYet, lang).to_string(),
        |e| format!("{} s  {}", fmt_secs(e.at_ms), describe(e, &s.trace, lang)),
    );
    let event_rows = if compact {
        1 + u16::from(!s.compare())
    } else {
        3
    };
    rows.push((explain, Style::new(), event_rows));
    if let Some(other) = &s.other {
        let text = compare_words(s, other, lang);
        rows.push((
            text,
            theme.marker(crate::tui::theme::Mark::Differs),
            if compact { 1 } else { 2 },
        ));
    }
    let visible = s.outcome_visible();
    if let Some(m) = FrozenState::metrics(&s.trace) {
        // Each formula as on a whiteboard: the rule, then this run's numbers under it.
        let formulas = [
            (Ui::FormulaDanger, crate::i18n::sim::danger_formula(m, lang)),
            (
                Ui::FormulaHandover,
                crate::i18n::sim::handover_formula(m, lang),
            ),
        ];
        for (rule, filled) in formulas {
            let filled = if visible { filled } else { "?".into() };
            let style = if visible { Style::new() } else { theme.dim() };
            if compact {
                rows.push((format!("{} = {filled}", ui(rule, lang)), style, 1));
            } else {
                rows.push((ui(rule, lang).to_string(), style, 1));
                rows.push((format!("    = {filled}"), style, 1));
            }
        }
        match (visible, s.other.as_ref().and_then(FrozenState::metrics)) {
            (false, _) => rows.push((lab(Lab::VerdictHidden, lang).into(), theme.dim(), 1)),
            (true, Some(om)) => {
                rows.push((
                    format!(
                        "{}{c}{} {}   {} {}",
                        ui(Ui::Verdict, lang),
                        lab(Lab::ThisRun, lang),
                        verdict_short(m.verdict, lang),
                        lab(Lab::FlippedRun, lang),
                        verdict_short(om.verdict, lang),
                    ),
                    verdict_style(m.verdict, theme),
                    1,
                ));
                if !compact {
                    // Each verdict explained, this run's first (an unresolved one says why).
                    for v in [m.verdict, om.verdict] {
                        rows.push((verdict_text(v, lang).into(), verdict_style(v, theme), 2));
                    }
                }
            }
            (true, None) => rows.push((
                verdict_words(m.verdict, lang),
                verdict_style(m.verdict, theme),
                if compact { 1 } else { 3 },
            )),
        }
    }
    let mut y = area.y;
    for (text, style, h) in rows {
        if y >= area.bottom() {
            break;
        }
        let r = Rect::new(area.x, y, area.width, h.min(area.bottom() - y));
        wrapped(buf, r, &text, style);
        y += h;
    }
}

/// Where the two runs part, or that flipping fencing changed nothing here and why.
fn compare_words(s: &FrozenState, other: &Trace, lang: Lang) -> String {
    let _ = other;
    match s.parting {
        Some(p) => lab(Lab::PartAt, lang)
            .replacen("{}", &fmt_secs(p.at()), 1)
            .replacen("{}", &(p.index + 1).to_string(), 1),
        None => format!(
            "{} {}",
            lab(Lab::SameRun, lang).replace("{}", ui(Ui::Fencing, lang)),
            lab(Lab::WhyFrozenFencing, lang)
        ),
    }
}
