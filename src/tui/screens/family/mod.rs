//! The family lab: one screen for every family whose parameters are a table of knobs
//! (read-write lock, semaphore, leader election, durable tasks, Redlock, Snowflake IDs). It
//! opens on one of the family's presets; a knob panel built from the family's table changes
//! the run, which the engine computes again on every change; the lanes, legend, event log,
//! key moments, hidden future and compare work as on the frozen-holder and A/B/C screens.

mod keys;
pub mod knob_values;
pub mod variant;
pub mod view;

use ratatui::layout::Rect;

use crate::engine::Params;
use crate::engine::params::knobs::{Knob, Value};
use crate::engine::trace::Family;
use crate::i18n::Lang;
use crate::i18n::family::{Fam, fam};
use crate::i18n::lab::{Lab, lab};
use crate::scenario::{Catalogue, Preset};
use crate::tui::app::AppMsg;
use crate::tui::compare::Runs;
use crate::tui::widgets::run_view::RunView;

pub use keys::KEYS;
pub use knob_values::{FAMILIES, is_knob_family};

#[derive(Debug, Clone, PartialEq)]
pub struct FamilyState {
    pub family: Family,
    pub params: Params,
    /// The run, and while comparing the run with the family's correct/broken switch flipped.
    pub runs: Runs,
    /// Whether the compared run is the correct variant.
    pub other_correct: bool,
    /// The knob the panel has chosen (an index into the family's table).
    pub focus: usize,
    pub view: RunView,
    /// Knobs the preset locked, so a demonstration cannot drift.
    pub locked: Vec<String>,
    /// The preset this run started from, for the title.
    pub preset: Option<String>,
    /// What that preset teaches, shown under the title.
    pub about: Option<crate::scenario::Text>,
    /// The preset's own parameters, so the screen can say when a knob has made it another run.
    pub opened: Option<Params>,
}

/// The preset a family's lab opens on when none is named: the worked example, where
/// the first preset in file order tells a side story.
fn worked_example(family: Family) -> Option<&'static str> {
    match family {
        Family::Tasks => Some("task-t7"),
        Family::Redlock => Some("redlock-restart"),
        Family::Etcd => Some("etcd-lock"),
        _ => None,
    }
}

impl FamilyState {
    /// Opens a run of a knob family (a model question's exact run); `None` for the families
    /// with screens of their own.
    pub fn from_params(params: Params) -> Option<Self> {
        let family = knob_values::family_of(&params);
        if !is_knob_family(family) {
            return None;
        }
        let trace = crate::engine::run(&params);
        let mut view = RunView::default();
        view.tl.set_cursor(&trace, 0);
        view.tl.open_on_story(&trace);
        Some(Self {
            family,
            params,
            runs: Runs::new(trace),
            other_correct: false,
            focus: 0,
            view,
            locked: Vec::new(),
            preset: None,
            about: None,
            opened: None,
        })
    }

    /// Opens a preset of a knob family with its locks; `None` for any other preset.
    pub fn from_preset(p: &Preset) -> Option<Self> {
        let mut s = Self::from_params(p.params.clone())?;
        s.locked = p.locked.clone();
        s.preset = Some(p.name.clone());
        s.about = Some(p.about.clone());
        s.opened = Some(p.params.clone());
        Some(s)
    }

    /// Opens `family` on the preset named `preset`, else on the one that tells its worked
    /// example (else its first preset).
    pub fn open(family: Family, preset: Option<&str>, catalogue: &Catalogue) -> Option<Self> {
        let all = catalogue.of_family(family);
        let p = match preset.or_else(|| worked_example(family)) {
            Some(name) => all
                .iter()
                .find(|p| p.name == name)
                .or_else(|| preset.is_none().then(|| all.first()).flatten())?,
            None => all.first()?,
        };
        Self::from_preset(p)
    }

    pub fn knobs(&self) -> &'static [Knob] {
        knob_values::knobs(self.family)
    }

    /// The value of knob `i` as the run's parameters hold it.
    pub fn value(&self, i: usize) -> Option<Value> {
        self.knobs()
            .get(i)
            .and_then(|k| knob_values::get(&self.params, k))
    }

    /// The family's other variant of this run, noting whether it is the correct one.
    fn flipped(&mut self) -> Option<Params> {
        let (p, correct) = variant::flipped(&self.params)?;
        self.other_correct = correct;
        Some(p)
    }

    /// The knobs this run has changed from its preset, each with its value now, in the
    /// panel's order (empty while it is the preset's own run, or a run of no preset).
    pub fn changed(&self, lang: Lang) -> Vec<String> {
        let Some(was) = &self.opened else {
            return Vec::new();
        };
        self.knobs()
            .iter()
            .filter_map(|k| {
                let now = knob_values::get(&self.params, k);
                (knob_values::get(was, k) != now).then(|| {
                    format!(
                        "{} {}",
                        crate::i18n::knobs::knob_name(k.key(), lang),
                        knob_values::shown(k, now.as_ref(), lang)
                    )
                })
            })
            .collect()
    }

    /// Runs the engine again after a change, keeping the cursor where it was.
    fn rerun(&mut self) {
        let flipped = if self.runs.comparing() {
            self.flipped()
        } else {
            None
        };
        self.runs.rerun(&self.params, flipped);
        self.view.tl.refit(&self.runs.trace);
    }

    /// `c`: the family's other variant beside this run, or back to one run.
    pub fn toggle_compare(&mut self, lang: Lang) {
        if variant::flipped(&self.params).is_none() {
            self.view.notice = Some(fam(Fam::NoVariant, lang).to_string());
            return;
        }
        let flipped = if self.runs.comparing() {
            None
        } else {
            self.flipped()
        };
        self.runs.toggle_compare(flipped);
    }

    pub fn focus_by(&mut self, dir: i8) {
        let n = self.knobs().len().max(1) as i64;
        self.focus = (self.focus as i64 + i64::from(dir)).rem_euclid(n) as usize;
    }

    /// Sets knob `i` to `v` through the family's own checks and runs the engine again; a value
    /// the family refuses leaves the run as it was and says why.
    pub fn set(&mut self, i: usize, v: &Value, lang: Lang) {
        let Some(knob) = self.knobs().get(i) else {
            return;
        };
        let key = knob.key();
        if self.locked.iter().any(|k| k == key) {
            self.view.notice = Some(lab(Lab::Locked, lang).replace("{}", key));
            return;
        }
        match knob_values::set(&self.params, key, v) {
            Ok(p) if p == self.params => {}
            Ok(p) => {
                self.params = p;
                self.rerun();
            }
            Err(e) => {
                self.view.notice = Some(fam(Fam::Refused, lang).replace("{}", &e.to_string()));
            }
        }
    }

    /// ←/→ on the chosen knob: a step within its range, a switch flipped, the next choice.
    pub fn adjust(&mut self, dir: i8, coarse: bool, lang: Lang) {
        let Some(knob) = self.knobs().get(self.focus) else {
            return;
        };
        let now = self.value(self.focus);
        match knob_values::next(knob, now.as_ref(), dir, coarse) {
            Some(v) => self.set(self.focus, &v, lang),
            None => {
                let flag = format!("--{}", knob.key().replace('_', "-"));
                self.view.notice = Some(
                    fam(Fam::ReadOnly, lang)
                        .replacen("{}", knob.key(), 1)
                        .replacen("{}", &flag, 1),
                );
            }
        }
    }

    /// Whether the outcome (metrics, invariants) may be shown: the whole run is on screen.
    pub fn outcome_visible(&self) -> bool {
        self.view.tl.shown_until(self.runs.trace.end_ms) >= self.runs.trace.end_ms
    }

    /// Applies a message meant for this screen.
    pub fn update(&mut self, msg: AppMsg, area: Rect, lang: Lang) {
        match msg {
            AppMsg::Up => {
                self.view.notice = None;
                self.focus_by(-1)
            }
            AppMsg::Down => {
                self.view.notice = None;
                self.focus_by(1)
            }
            AppMsg::Adjust { dir, coarse } => {
                self.view.notice = None;
                self.adjust(dir, coarse, lang)
            }
            AppMsg::Compare => {
                self.view.notice = None;
                self.toggle_compare(lang)
            }
            AppMsg::Pointer { col, row } => self.click(area, col, row, lang),
            m => {
                self.view.update(&self.runs.trace, m, lang);
            }
        }
    }

    /// Mouse: a knob row chooses that knob; the lanes move the cursor; a log row jumps to it.
    pub fn click(&mut self, area: Rect, col: u16, row: u16, lang: Lang) {
        let _ = lang;
        let lay = view::layout(self, area);
        if lay.knobs.contains((col, row).into()) {
            if let Some(i) = view::knob_at(self, lay.knobs, row) {
                self.focus = i;
            }
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
