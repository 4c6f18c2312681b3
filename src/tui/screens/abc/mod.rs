//! The A/B/C queue: one lane per client and for the service and the resource, with markers
//! (grants, wake-ups, fired notifications, writes, expiries), the service panel (the lock
//! directory's children and who watches whom, at the cursor), the event at the cursor, invariant
//! badges that turn red from their first violation, the recipe variants that re-run the engine
//! when toggled, and the event log (or the message sequence chart).
//!
//! This module holds the screen's state and what its keys do; `variant` the settings it flips,
//! `layout` where things go and `render` the drawing.

mod keys;
mod layout;
mod render;
mod variant;

#[cfg(test)]
mod tests;

use ratatui::layout::Rect;

pub use keys::KEYS;
pub use layout::{AbcLayout, layout};
pub use render::render;
pub use variant::RecipeVariant;

use crate::engine::params::AbcParams;
use crate::engine::time::Millis;
use crate::engine::{Params, run};
use crate::i18n::Lang;
use crate::i18n::lab::{Lab, lab};
use crate::scenario::{Preset, Text};
use crate::tui::app::AppMsg;
use crate::tui::compare::Runs;
use crate::tui::widgets::lanes;
use crate::tui::widgets::run_view::RunView;

/// A run that is not a preset's: an explorer's counterexample (with the same schedule under
/// the correct recipe for compare) or a model question's run. Its name and story stand in the
/// title in place of a preset's.
#[derive(Debug, Clone, PartialEq)]
pub struct Story {
    pub name: String,
    pub about: Text,
    /// What compare runs beside it; `None` flips the last setting, as for a preset.
    pub correct: Option<AbcParams>,
}

#[derive(Debug, Clone, PartialEq)]
pub struct AbcState {
    pub presets: Vec<&'static Preset>,
    pub index: usize,
    pub params: AbcParams,
    /// The run, and while comparing the same run with `last` flipped.
    pub runs: Runs,
    /// The variant compare flips: the last one toggled, at first the one the preset teaches.
    pub last: RecipeVariant,
    /// An explorer's counterexample on show, if any.
    pub story: Option<Story>,
    pub view: RunView,
    /// Settings the preset locked.
    pub locked: Vec<String>,
    /// The parameters the run opened with (the preset's or the story's), so the screen can say
    /// when a toggle has made it another run.
    pub opened: AbcParams,
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
        let trace = run(&Params::Abc(params.clone()));
        let mut view = RunView::default();
        view.tl.set_cursor(&trace, 0);
        view.tl.open_on_story(&trace);
        let last = RecipeVariant::taught(&params, &trace);
        let locked = presets
            .get(index)
            .map_or_else(Vec::new, |p| p.locked.clone());
        Self {
            presets,
            index,
            opened: params.clone(),
            params,
            runs: Runs::new(trace),
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
        let flipped = self.flipped();
        self.runs
            .rerun(&Params::Abc(self.params.clone()), Some(flipped));
        self.view.tl.refit(&self.runs.trace);
    }

    /// What compare runs beside this one: a counterexample's correct twin, else this run with
    /// `last` flipped.
    fn flipped(&self) -> Params {
        if let Some(correct) = self.story.as_ref().and_then(|s| s.correct.as_ref()) {
            return Params::Abc(correct.clone());
        }
        let mut p = self.params.clone();
        self.last.flip(&mut p);
        Params::Abc(p)
    }

    pub fn select(&mut self, index: usize) {
        if self.presets.is_empty() {
            return;
        }
        self.index = index % self.presets.len();
        self.story = None;
        self.params = self.preset().map_or_else(AbcParams::default, preset_params);
        self.opened = self.params.clone();
        self.locked = self.preset().map_or_else(Vec::new, |p| p.locked.clone());
        self.view.tl = Default::default();
        self.view.notice = None;
        self.view.predict = None;
        self.rerun();
        self.view.tl.open_on_story(&self.runs.trace);
        self.last = RecipeVariant::taught(&self.params, &self.runs.trace);
        let flipped = self.flipped();
        self.runs.rerun_twin(Some(flipped));
    }

    /// Shows an explorer's counterexample; compare (`c`) runs the same schedule under the
    /// correct recipe.
    pub fn open_counterexample(&mut self, params: AbcParams, name: String, about: Text) {
        let correct = crate::explore::counterexample::correct_twin(&params);
        self.open_params(
            params,
            Story {
                name,
                about,
                correct: Some(correct),
            },
        );
    }

    /// Shows a run with these exact parameters (a model question's or a counterexample's),
    /// titled by `story` rather than by the preset the list last showed.
    pub fn open_params(&mut self, params: AbcParams, story: Story) {
        self.story = Some(story);
        self.opened = params.clone();
        self.params = params;
        self.runs.stop_comparing();
        self.locked.clear();
        self.view.tl = Default::default();
        self.view.predict = None;
        self.rerun();
        self.view.tl.open_on_story(&self.runs.trace);
        self.last = RecipeVariant::taught(&self.params, &self.runs.trace);
    }

    pub fn cycle(&mut self, dir: i8) {
        let n = self.presets.len().max(1) as i64;
        let i = (self.index as i64 + i64::from(dir)).rem_euclid(n) as usize;
        self.select(i);
    }

    pub fn toggle(&mut self, v: RecipeVariant, lang: Lang) {
        if self.locked.iter().any(|k| k == v.key()) {
            let (_, words) = v.describe(&self.params, lang);
            self.view.notice = Some(lab(Lab::Locked, lang).replace("{}", &words));
            return;
        }
        v.flip(&mut self.params);
        self.last = v;
        // A refusal said earlier is about another state of the recipe.
        self.view.notice = None;
        self.rerun();
    }

    /// The recipe settings this run has changed from the run it opened with, in words, in the
    /// recipe line's order; empty while it is still the preset's (or the story's) own run.
    pub fn changed(&self, lang: Lang) -> Vec<String> {
        RecipeVariant::ALL
            .iter()
            .filter(|v| v.shown(&self.params) || v.shown(&self.opened))
            .filter_map(|v| {
                let (_, now) = v.describe(&self.params, lang);
                let (_, was) = v.describe(&self.opened, lang);
                (now != was).then_some(now)
            })
            .collect()
    }

    pub fn toggle_compare(&mut self) {
        let flipped = self.flipped();
        self.runs.toggle_compare(Some(flipped));
    }

    /// Applies a message meant for this screen.
    pub fn update(&mut self, msg: AppMsg, area: Rect, lang: Lang) {
        match msg {
            AppMsg::RecipeVariant(v) => self.toggle(v, lang),
            AppMsg::Preset(d) => self.cycle(d),
            AppMsg::Compare => self.toggle_compare(),
            AppMsg::Pointer { col, row } => self.click(area, col, row),
            m => {
                self.view.update(&self.runs.trace, m, lang);
            }
        }
    }

    pub fn click(&mut self, area: Rect, col: u16, row: u16) {
        let lay = self.layout(area);
        let end = self.end_ms();
        let areas: Vec<Rect> = [Some(lay.lanes), lay.lanes2]
            .into_iter()
            .flatten()
            .collect();
        self.view
            .click(&self.runs.trace, end, &areas, lay.log, col, row);
    }

    /// Where everything sits for this run, the legend with the rows it needs.
    pub fn layout(&self, area: Rect) -> AbcLayout {
        let band = lanes::Lanes::has_band(&self.runs.trace)
            || self.runs.other.as_ref().is_some_and(lanes::Lanes::has_band);
        let planned = crate::tui::widgets::legend::planned_classes(&crate::engine::Params::Abc(
            self.params.clone(),
        ));
        let legend_h = crate::tui::widgets::legend::rows_for(
            crate::engine::trace::Family::Abc,
            &planned,
            self.runs.comparing(),
            area.width,
        );
        layout(
            area,
            self.runs.trace.lanes.len(),
            self.runs.comparing(),
            band,
            legend_h,
        )
    }

    /// Both runs share one cursor, so the axis spans the longer of the two.
    pub fn end_ms(&self) -> Millis {
        self.runs.end_ms()
    }

    pub fn outcome_visible(&self) -> bool {
        self.view.tl.shown_until(self.runs.trace.end_ms) >= self.runs.trace.end_ms
    }
}
