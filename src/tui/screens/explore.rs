//! Explore: choose an A/B/C scenario and a fault budget, watch the breadth-first search work
//! (states, depth, rate, a progress bar), then open what it found in the A/B/C screen.
//!
//! The search runs in slices between frames ([`ExploreState::work`] on every tick), so keys
//! stay live and `x` cancels at once.

use std::time::{Duration, Instant};

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::Style;

use super::{line, wrapped};
use crate::engine::Params;
use crate::engine::params::AbcParams;
use crate::explore::report::{Finding, Outcome};
use crate::explore::{self, Bounds, Search};
use crate::i18n::explore::{self as words, Screen};
use crate::i18n::{Lang, invariant_label};
use crate::scenario::Preset;
use crate::tui::theme::Theme;

/// The most faults the screen offers (the command line allows more).
pub const MAX_FAULTS: u8 = 3;
/// The memory limits the screen offers; the default is the command line's.
pub const MEMORY_CHOICES: [u64; 5] = [256 << 20, 512 << 20, 1 << 30, 2 << 30, 4 << 30];
/// How long one tick may search before the screen is drawn again.
const SLICE: Duration = Duration::from_millis(40);

/// A search under way.
pub struct Running {
    pub search: Search,
    pub params: AbcParams,
    pub name: String,
}

/// The focus of the first finding (after the scenario, the faults and the memory limit).
const FIRST_FINDING: usize = 3;

pub struct ExploreState {
    pub presets: Vec<&'static Preset>,
    pub index: usize,
    pub faults: u8,
    /// The search's memory limit, one of [`MEMORY_CHOICES`].
    pub max_memory: u64,
    /// 0: the scenario, 1: the fault budget, 2: the memory limit, 3 and on: the results that
    /// can be opened.
    pub focus: usize,
    pub running: Option<Running>,
    pub outcome: Option<Outcome>,
}

fn abc_params(p: &Preset) -> AbcParams {
    match &p.params {
        Params::Abc(a) => explore::search_params(a),
        _ => AbcParams::default(),
    }
}

impl ExploreState {
    pub fn new(presets: Vec<&'static Preset>) -> Self {
        Self {
            presets,
            index: 0,
            faults: explore::DEFAULT_FAULTS,
            max_memory: explore::memory::DEFAULT_MAX_MEMORY,
            focus: 0,
            running: None,
            outcome: None,
        }
    }

    pub fn preset(&self) -> Option<&'static Preset> {
        self.presets.get(self.index).copied()
    }

    /// Chooses the scenario called `name`, if there is one.
    pub fn choose(&mut self, name: &str) {
        if let Some(i) = self.presets.iter().position(|p| p.name == name) {
            self.cancel();
            self.index = i;
            self.outcome = None;
            self.focus = 0;
        }
    }

    pub fn is_running(&self) -> bool {
        self.running.is_some()
    }

    pub fn bounds(&self) -> Bounds {
        let params = self.preset().map_or_else(AbcParams::default, abc_params);
        let kinds = match self.preset().map(|p| &p.params) {
            Some(Params::Abc(a)) => explore::kinds_for(a),
            _ => explore::kinds_for(&params),
        };
        Bounds {
            max_memory: self.max_memory,
            ..Bounds::new(self.faults, kinds)
        }
    }

    /// The findings the focus can land on: violations, then witnesses.
    pub fn findings(&self) -> Vec<&Finding> {
        let Some(o) = &self.outcome else {
            return Vec::new();
        };
        o.violations
            .iter()
            .chain(o.witnesses.iter().filter_map(|(_, w)| w.as_ref()))
            .collect()
    }

    pub fn move_focus(&mut self, dir: i8) {
        let last = FIRST_FINDING as i64 - 1 + self.findings().len() as i64;
        self.focus = (self.focus as i64 + i64::from(dir)).clamp(0, last) as usize;
    }

    pub fn adjust(&mut self, dir: i8) {
        if self.is_running() {
            return;
        }
        match self.focus {
            0 if !self.presets.is_empty() => {
                let n = self.presets.len() as i64;
                self.index = (self.index as i64 + i64::from(dir)).rem_euclid(n) as usize;
                self.outcome = None;
            }
            1 => {
                self.faults =
                    (i16::from(self.faults) + i16::from(dir)).clamp(0, MAX_FAULTS.into()) as u8;
                self.outcome = None;
            }
            2 => {
                let at = MEMORY_CHOICES
                    .iter()
                    .position(|&m| m == self.max_memory)
                    .unwrap_or(2) as i64;
                let to = (at + i64::from(dir)).clamp(0, MEMORY_CHOICES.len() as i64 - 1);
                self.max_memory = MEMORY_CHOICES[to as usize];
                self.outcome = None;
            }
            _ => {}
        }
    }

    pub fn start(&mut self) {
        let Some(p) = self.preset() else {
            return;
        };
        let params = abc_params(p);
        self.running = Some(Running {
            search: Search::new(&params, self.bounds()),
            params,
            name: p.name.clone(),
        });
        self.outcome = None;
        self.focus = self.focus.min(FIRST_FINDING - 1);
    }

    /// Stops the search; what it found so far is kept, marked incomplete.
    pub fn cancel(&mut self) {
        if let Some(r) = self.running.take() {
            self.outcome = Some(Outcome::new(&r.name, &r.params, &r.search, true));
            drop(r);
            explore::memory::give_back();
        }
    }

    /// Searches for one slice of time; called on every tick while running.
    pub fn work(&mut self) {
        let Some(r) = self.running.as_mut() else {
            return;
        };
        let until = Instant::now() + SLICE;
        let mut done = false;
        while Instant::now() < until && !done {
            done = r.search.run(256);
        }
        if done && let Some(r) = self.running.take() {
            self.outcome = Some(Outcome::new(&r.name, &r.params, &r.search, false));
            drop(r);
            explore::memory::give_back();
        }
    }

    /// A finding's title and story for the A/B/C screen (the title in the language of the
    /// moment; the story in both).
    pub fn story_words(&self, f: &Finding) -> (String, crate::scenario::Text) {
        let preset = self
            .outcome
            .as_ref()
            .map_or_else(String::new, |o| o.name.clone());
        let broken = explore::props::is_always(f.property);
        let about = |lang: Lang| {
            let label = invariant_label(f.property, lang);
            if broken {
                words::about_counterexample(
                    &preset,
                    label,
                    &words::length(f.steps, f.schedule.len(), lang),
                    lang,
                )
            } else {
                words::about_witness(&preset, label, f.steps, lang)
            }
        };
        let name = words::story_name(&preset, f.property.name(), Lang::En);
        (
            name,
            crate::scenario::Text {
                zh: about(Lang::Zh),
                en: about(Lang::En),
            },
        )
    }

    /// The finding under the focus, if any, to open in the A/B/C screen.
    pub fn selected(&self) -> Option<&Finding> {
        self.focus
            .checked_sub(FIRST_FINDING)
            .and_then(|i| self.findings().get(i).copied())
    }
}

fn bar(done: u64, total: u64, width: usize) -> String {
    let filled = if total == 0 {
        0
    } else {
        ((done.min(total) as u128 * width as u128) / total as u128) as usize
    };
    format!("[{}{}]", "#".repeat(filled), ".".repeat(width - filled))
}

fn row(buf: &mut Buffer, area: Rect, y: u16, text: &str, style: Style) {
    if y < area.bottom() {
        line(buf, Rect::new(area.x, y, area.width, 1), text, style);
    }
}

pub fn render(s: &ExploreState, lang: Lang, theme: Theme, area: Rect, buf: &mut Buffer) {
    let colon = super::colon(lang);
    line(buf, area, words::screen(Screen::Title, lang), theme.title());
    let inner = Rect::new(
        area.x + 2,
        area.y,
        area.width.saturating_sub(4),
        area.height,
    );
    wrapped(
        buf,
        Rect::new(inner.x, area.y + 1, inner.width, 2),
        words::screen(Screen::Lead, lang),
        theme.dim(),
    );
    let mut y = area.y + 4;
    let focus = |i: usize| {
        if s.focus == i {
            theme.focus()
        } else {
            Style::new()
        }
    };
    // A marker as well as the style, so the focus shows without colour.
    let mark = |i: usize| if s.focus == i { "> " } else { "  " };
    let name = s.preset().map_or("-", |p| p.name.as_str());
    row(
        buf,
        inner,
        y,
        &format!(
            "{}{}{colon}< {name} >",
            mark(0),
            words::screen(Screen::Scenario, lang)
        ),
        focus(0),
    );
    y += 1;
    if let Some(p) = s.preset() {
        wrapped(
            buf,
            Rect::new(inner.x + 4, y, inner.width.saturating_sub(4), 3),
            lang.pick(&p.about.zh, &p.about.en),
            theme.dim(),
        );
    }
    y += 3;
    let b = s.bounds();
    // The kinds are named once, in the bounds line below, where they have room to wrap.
    row(
        buf,
        inner,
        y,
        &format!(
            "{}{}{colon}< {} >",
            mark(1),
            words::screen(Screen::Faults, lang),
            s.faults,
        ),
        focus(1),
    );
    y += 1;
    row(
        buf,
        inner,
        y,
        &format!(
            "{}{}{colon}< {} >",
            mark(2),
            words::screen(Screen::Memory, lang),
            explore::memory::fmt_size(s.max_memory),
        ),
        focus(2),
    );
    y += 1;
    let kinds: Vec<_> = b.kinds.iter().collect();
    wrapped(
        buf,
        Rect::new(inner.x + 2, y, inner.width.saturating_sub(2), 2),
        &format!(
            "{}{colon}{}",
            words::screen(Screen::Bounds, lang),
            words::bounds(b.faults, &kinds, b.depth, lang)
        ),
        theme.dim(),
    );
    y += 3;
    // Progress: from the running search, or the last one.
    let progress = match (&s.running, &s.outcome) {
        (Some(r), _) => Some(r.search.progress.clone()),
        (None, Some(o)) => Some(o.progress.clone()),
        _ => None,
    };
    if let Some(p) = progress {
        let rate = (p.distinct * 1000).checked_div(p.elapsed_ms).unwrap_or(0);
        let complete = s.outcome.as_ref().is_some_and(|o| o.complete);
        let width = (inner.width as usize).saturating_sub(40).clamp(10, 50);
        let total = if complete { p.distinct } else { b.max_states };
        let label = words::bar_label(b.max_states, complete, lang);
        row(
            buf,
            inner,
            y,
            &format!("{} {label}", bar(p.distinct, total, width)),
            theme.good(),
        );
        y += 1;
        row(
            buf,
            inner,
            y,
            &words::progress(
                p.states,
                p.distinct,
                p.max_depth,
                p.frontier,
                rate,
                p.elapsed_ms,
                lang,
            ),
            Style::new(),
        );
        y += 1;
    }
    let status = match (&s.running, &s.outcome) {
        (Some(_), _) => (Screen::Searching, theme.title()),
        (None, Some(o)) if o.complete => (Screen::Done, theme.good()),
        (None, Some(o)) if o.cancelled => (Screen::Cancelled, theme.bad()),
        (None, Some(o)) if o.stopped == Some(explore::Stop::Memory) => {
            (Screen::MemoryStop, theme.bad())
        }
        (None, Some(_)) => (Screen::Incomplete, theme.bad()),
        (None, None) => (Screen::Idle, theme.dim()),
    };
    row(buf, inner, y, words::screen(status.0, lang), status.1);
    y += 2;
    if let Some(o) = &s.outcome {
        let mut i = FIRST_FINDING;
        if o.violations.is_empty() {
            let (text, style) = if o.complete {
                (Screen::Clean, theme.good())
            } else {
                (Screen::NoneYet, Style::new())
            };
            row(buf, inner, y, words::screen(text, lang), style);
            y += 1;
        }
        for f in &o.violations {
            let text = words::violation_row(
                invariant_label(f.property, lang),
                f.steps,
                f.schedule.len(),
                lang,
            );
            let style = if s.focus == i {
                theme.focus()
            } else {
                theme.bad()
            };
            row(buf, inner, y, &format!("{}{text}", mark(i)), style);
            y += 1;
            i += 1;
        }
        row(
            buf,
            inner,
            y,
            words::screen(Screen::Witnesses, lang),
            theme.dim(),
        );
        y += 1;
        for (name, w) in &o.witnesses {
            let text = words::witness_row(
                invariant_label(*name, lang),
                w.as_ref().map(|f| f.steps),
                o.complete,
                lang,
            );
            let focused = w.is_some() && s.focus == i;
            let style = if focused { theme.focus() } else { Style::new() };
            let marker = if focused { "> " } else { "  " };
            row(buf, inner, y, &format!("{marker}{text}"), style);
            y += 1;
            if w.is_some() {
                i += 1;
            }
        }
        if s.selected().is_some() {
            row(
                buf,
                inner,
                y + 1,
                words::screen(Screen::Open, lang),
                theme.title(),
            );
        }
    }
    let hint = if s.is_running() {
        Screen::HintRunning
    } else {
        Screen::Hint
    };
    line(
        buf,
        Rect::new(area.x, area.bottom().saturating_sub(1), area.width, 1),
        words::screen(hint, lang),
        theme.dim(),
    );
}

/// This screen's keys: one table drives both key handling and `?` help.
pub mod keys {
    use crate::i18n::Ui;
    use crate::tui::app::AppMsg;
    use crate::tui::keys::{Binding, Ch, Code, U, b};
    use crossterm::event::KeyCode;

    pub const KEYS: &[Binding] = &[
        b(
            &[Code(KeyCode::Up), Ch('k')],
            "Up/Down j/k",
            U(Ui::KeyExploreMove),
            AppMsg::Up,
        ),
        b(
            &[Code(KeyCode::Down), Ch('j')],
            "Up/Down j/k",
            U(Ui::KeyExploreMove),
            AppMsg::Down,
        ),
        b(
            &[Code(KeyCode::Left), Ch('h')],
            "Left/Right h/l",
            U(Ui::KeyExploreChange),
            AppMsg::Adjust {
                dir: -1,
                coarse: false,
            },
        ),
        b(
            &[Code(KeyCode::Right), Ch('l')],
            "Left/Right h/l",
            U(Ui::KeyExploreChange),
            AppMsg::Adjust {
                dir: 1,
                coarse: false,
            },
        ),
        b(
            &[Code(KeyCode::Enter)],
            "Enter",
            U(Ui::KeyExploreRun),
            AppMsg::Enter,
        ),
        b(&[Ch('x')], "x", U(Ui::KeyExploreCancel), AppMsg::Cancel),
    ];
}

pub use keys::KEYS;
