//! The A/B/C queue: one lane per client and for the service and the resource, with markers
//! (grants, wake-ups, fired notifications, writes, expiries), the service panel (the lock
//! directory's children and who watches whom, at the cursor), the event at the cursor, invariant
//! badges that turn red from their first violation, the recipe variants that re-run the engine
//! when toggled, and the event log (or the message sequence chart).
//!
//! This module holds the screen's state and what its keys do; `variant` the settings it flips,
//! `layout` where things go and `render` the drawing.

mod layout;
mod render;
mod variant;

#[cfg(test)]
mod tests;

use ratatui::layout::Rect;

pub use layout::{AbcLayout, layout};
pub use render::render;
pub use variant::Variant;

use crate::engine::params::AbcParams;
use crate::engine::time::Millis;
use crate::engine::trace::Trace;
use crate::engine::{Params, run};
use crate::i18n::Lang;
use crate::i18n::lab::{Lab, lab};
use crate::scenario::{Preset, Text};
use crate::tui::app::Msg;
use crate::tui::compare::{Parting, first_difference};
use crate::tui::widgets::lanes;
use crate::tui::widgets::run_view::RunView;

/// An explorer's counterexample: its name and story, and the same schedule under the correct
/// recipe for compare.
#[derive(Debug, Clone, PartialEq)]
pub struct Story {
    pub name: String,
    pub about: Text,
    pub correct: AbcParams,
}

#[derive(Debug, Clone, PartialEq)]
pub struct AbcState {
    pub presets: Vec<&'static Preset>,
    pub index: usize,
    pub params: AbcParams,
    pub trace: Trace,
    /// The same run with `last` flipped, while comparing.
    pub other: Option<Trace>,
    pub parting: Option<Parting>,
    /// The variant compare flips: the last one toggled, at first the one the preset teaches.
    pub last: Variant,
    /// An explorer's counterexample on show, if any.
    pub story: Option<Story>,
    pub view: RunView,
    /// Settings the preset locked.
    pub locked: Vec<String>,
}

fn run_abc(p: &AbcParams) -> Trace {
    run(&Params::Abc(p.clone()))
}

fn preset_params(p: &Preset) -> AbcParams {
    match &p.params {
        Params::Abc(a) => a.clone(),
        _ => AbcParams::default(),
    }
}

impl AbcState {
    /// Opens on the named preset, or the first one.
    pub fn new(presets: Vec<&'static Preset>, name: Option<&str>) -> Self {
        let index = name
            .and_then(|n| presets.iter().position(|p| p.name == n))
            .unwrap_or(0);
        let params = presets
            .get(index)
            .map_or_else(AbcParams::default, |p| preset_params(p));
        let trace = run_abc(&params);
        let mut view = RunView::default();
        view.tl.set_cursor(&trace, 0);
        let last = Variant::taught(&params, &trace);
        let locked = presets
            .get(index)
            .map_or_else(Vec::new, |p| p.locked.clone());
        Self {
            presets,
            index,
            params,
            trace,
            other: None,
            parting: None,
            last,
            story: None,
            view,
            locked,
        }
    }

    pub fn preset(&self) -> Option<&'static Preset> {
        self.presets.get(self.index).copied()
    }

    fn rerun(&mut self) {
        self.trace = run_abc(&self.params);
        if self.other.is_some() {
            self.other = Some(run_abc(&self.flipped()));
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

    fn flipped(&self) -> AbcParams {
        if let Some(story) = &self.story {
            return story.correct.clone();
        }
        let mut p = self.params.clone();
        self.last.flip(&mut p);
        p
    }

    pub fn select(&mut self, index: usize) {
        if self.presets.is_empty() {
            return;
        }
        self.index = index % self.presets.len();
        self.story = None;
        self.params = self.preset().map_or_else(AbcParams::default, preset_params);
        self.locked = self.preset().map_or_else(Vec::new, |p| p.locked.clone());
        self.view.tl = Default::default();
        self.view.notice = None;
        self.rerun();
        self.last = Variant::taught(&self.params, &self.trace);
        if self.other.is_some() {
            self.other = Some(run_abc(&self.flipped()));
            self.refresh_parting();
        }
    }

    /// Shows an explorer's counterexample; compare (`c`) runs the same schedule under the
    /// correct recipe.
    pub fn open_counterexample(&mut self, params: AbcParams, name: String, about: Text) {
        let correct = crate::explore::counterexample::correct_twin(&params);
        self.open_params(params);
        self.story = Some(Story {
            name,
            about,
            correct,
        });
    }

    /// Shows a run with these exact parameters (a model question's), keeping the preset list.
    pub fn open_params(&mut self, params: AbcParams) {
        self.story = None;
        self.params = params;
        self.other = None;
        self.locked.clear();
        self.view.tl = Default::default();
        self.rerun();
        self.last = Variant::taught(&self.params, &self.trace);
    }

    pub fn cycle(&mut self, dir: i8) {
        let n = self.presets.len().max(1) as i64;
        let i = (self.index as i64 + i64::from(dir)).rem_euclid(n) as usize;
        self.select(i);
    }

    pub fn toggle(&mut self, v: Variant, lang: Lang) {
        if self.locked.iter().any(|k| k == v.key()) {
            let (_, words) = v.describe(&self.params, lang);
            self.view.notice = Some(lab(Lab::Locked, lang).replace("{}", &words));
            return;
        }
        v.flip(&mut self.params);
        self.last = v;
        self.rerun();
    }

    pub fn compare(&self) -> bool {
        self.other.is_some()
    }

    pub fn toggle_compare(&mut self) {
        self.other = match self.other {
            Some(_) => None,
            None => Some(run_abc(&self.flipped())),
        };
        self.refresh_parting();
    }

    /// Applies a message meant for this screen.
    pub fn update(&mut self, msg: Msg, area: Rect, lang: Lang) {
        match msg {
            Msg::Variant(v) => self.toggle(v, lang),
            Msg::Preset(d) => self.cycle(d),
            Msg::Compare => self.toggle_compare(),
            Msg::Pointer { col, row } => self.click(area, col, row),
            m => {
                self.view.update(&self.trace, m, lang);
            }
        }
    }

    pub fn click(&mut self, area: Rect, col: u16, row: u16) {
        let lay = layout(
            area,
            self.trace.lanes.len(),
            self.compare(),
            lanes::Lanes::has_band(&self.trace),
        );
        let end = self.end_ms();
        let areas: Vec<Rect> = [Some(lay.lanes), lay.lanes2]
            .into_iter()
            .flatten()
            .collect();
        self.view.click(&self.trace, end, &areas, lay.log, col, row);
    }

    /// Both runs share one cursor, so the axis spans the longer of the two.
    pub fn end_ms(&self) -> Millis {
        self.other
            .as_ref()
            .map_or(self.trace.end_ms, |o| o.end_ms.max(self.trace.end_ms))
    }

    pub fn outcome_visible(&self) -> bool {
        self.view.tl.shown_until(self.trace.end_ms) >= self.trace.end_ms
    }
}
