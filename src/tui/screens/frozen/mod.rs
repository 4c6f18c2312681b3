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
use crate::tui::app::AppMsg;
use crate::tui::compare::Runs;
use crate::tui::theme::Theme;
use crate::tui::widgets::lanes::{self, Lanes};
use crate::tui::widgets::legend::{self, Legend};
use crate::tui::widgets::run_view::RunView;
use crate::tui::widgets::slider::{self, Slider};

mod keys;
mod layout;
mod view;

pub use keys::KEYS;
pub use layout::{FrozenLayout, layout, layout_with};
pub use view::{render, verdict_words};

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
    /// The run, and while comparing the same run with fencing flipped.
    pub runs: Runs,
    pub focus: usize,
    pub view: RunView,
    /// Parameters the preset locked, so a demonstration cannot drift.
    pub locked: Vec<String>,
    /// The preset this run came from, for the title.
    pub preset: Option<String>,
    /// What that preset teaches, shown under the title.
    pub about: Option<crate::scenario::Text>,
    /// The preset's own parameters, so the screen can say when a change has made it another run.
    pub opened: Option<FrozenParams>,
}

impl FrozenState {
    pub fn new(params: FrozenParams) -> Self {
        let trace = run(&Params::Frozen(params.clone()));
        let mut view = RunView::default();
        view.tl.set_cursor(&trace, 0);
        view.tl.open_on_story(&trace);
        Self {
            params,
            runs: Runs::new(trace),
            focus: 0,
            view,
            locked: Vec::new(),
            preset: None,
            about: None,
            opened: None,
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
        s.about = Some(p.about.clone());
        s.opened = Some(params.clone());
        Some(s)
    }

    /// Where everything sits for this run: with rows for the preset's words when it has one.
    pub fn layout(&self, area: Rect) -> FrozenLayout {
        layout_with(area, self.runs.comparing(), self.about.is_some())
    }

    /// Refuses a change to a locked parameter, saying so.
    fn refuse_locked(&mut self, key: &str, words: &str, lang: Lang) -> bool {
        if self.locked.iter().any(|k| k == key) {
            self.view.notice = Some(lab(Lab::Locked, lang).replace("{}", words));
            return true;
        }
        false
    }

    /// The settings this run has changed from its preset, in words (empty while it is the
    /// preset's own run, or a run of no preset).
    pub fn changed(&self, lang: Lang) -> Vec<String> {
        let Some(was) = &self.opened else {
            return Vec::new();
        };
        let mut out = Vec::new();
        for (b, w, on) in [
            (was.fencing, Ui::Fencing, self.params.fencing),
            (was.stop_on_loss, Ui::StopOnLoss, self.params.stop_on_loss),
        ] {
            if b != on {
                out.push(format!("{} {}", ui(w, lang), view::on_off(on, lang)));
            }
        }
        for (i, spec) in FROZEN_SPECS.iter().enumerate() {
            let now = self.value(i);
            if was.get(spec.key).is_some_and(|v| v != now) {
                out.push(format!(
                    "{} {} {}",
                    ui(SLIDER_WORDS[i], lang),
                    secs(now),
                    crate::i18n::sim::s(lang)
                ));
            }
        }
        out
    }

    /// Re-runs the engine after any change, keeping the cursor where it was.
    fn rerun(&mut self) {
        // A refusal said earlier is about the settings before this change.
        self.view.notice = None;
        let flipped = self.flipped();
        self.runs
            .rerun(&Params::Frozen(self.params.clone()), Some(flipped));
        self.view.tl.refit(&self.runs.trace);
    }

    /// What compare flips: fencing.
    fn flipped(&self) -> Params {
        Params::Frozen(FrozenParams {
            fencing: !self.params.fencing,
            ..self.params.clone()
        })
    }

    pub fn toggle_compare(&mut self) {
        let flipped = self.flipped();
        self.runs.toggle_compare(Some(flipped));
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
        self.view.tl.shown_until(self.runs.trace.end_ms) >= self.runs.trace.end_ms
    }

    /// Applies a message meant for this screen.
    pub fn update(&mut self, msg: AppMsg, area: Rect, lang: Lang) {
        match msg {
            AppMsg::Up => self.focus_by(-1),
            AppMsg::Down => self.focus_by(1),
            AppMsg::Adjust { dir, coarse } => {
                self.view.notice = None;
                self.adjust(dir, coarse, lang)
            }
            AppMsg::ToggleFencing => self.toggle_fencing(lang),
            AppMsg::ToggleStopOnLoss => self.toggle_stop_on_loss(lang),
            AppMsg::Compare => self.toggle_compare(),
            AppMsg::Pointer { col, row } => self.click(area, col, row, lang),
            m => {
                self.view.update(&self.runs.trace, m, lang);
            }
        }
    }

    /// Mouse: a slider row sets that slider; the lanes move the cursor; a log row jumps to it.
    pub fn click(&mut self, area: Rect, col: u16, row: u16, lang: Lang) {
        let lay = self.layout(area);
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
        let end = self.runs.trace.end_ms;
        self.view
            .click(&self.runs.trace, end, &lanes, lay.log, col, row);
    }
}
