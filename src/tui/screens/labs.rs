//! The simulation screens as [`Screen`]s: each one's own `update` and `render`, put behind the
//! one trait, with what only the app can do handed back.

use std::convert::Infallible;

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;

use crate::engine::params::AbcParams;
use crate::scenario::Text;
use crate::tui::app::AppMsg;
use crate::tui::learn::saved_text;
use crate::tui::screen::{Cx, Screen, View};
use crate::tui::screens::abc::AbcState;
use crate::tui::screens::explore::ExploreState;
use crate::tui::screens::family::FamilyState;
use crate::tui::screens::frozen::FrozenState;
use crate::tui::screens::herd::HerdState;
use crate::tui::screens::present::PresentState;

/// The frozen holder hands back a step through its presets, which the app's catalogue holds.
pub struct FrozenPreset(pub i8);

impl Screen for FrozenState {
    type Reply = FrozenPreset;

    fn handle(&mut self, msg: AppMsg, cx: &mut Cx<'_>) -> Option<FrozenPreset> {
        match msg {
            AppMsg::Pointer { .. } if cx.small => {}
            AppMsg::Preset(d) => return Some(FrozenPreset(d)),
            m => self.update(m, cx.area, cx.lang),
        }
        None
    }

    fn draw(&self, v: &View<'_>, area: Rect, buf: &mut Buffer) {
        super::frozen::render(self, v.lang, v.theme, area, buf);
    }
}

impl Screen for AbcState {
    type Reply = Infallible;

    fn handle(&mut self, msg: AppMsg, cx: &mut Cx<'_>) -> Option<Infallible> {
        match msg {
            AppMsg::Pointer { .. } if cx.small => {}
            m => self.update(m, cx.area, cx.lang),
        }
        None
    }

    fn draw(&self, v: &View<'_>, area: Rect, buf: &mut Buffer) {
        super::abc::render(self, v.lang, v.theme, area, buf);
    }
}

impl Screen for HerdState {
    type Reply = Infallible;

    fn handle(&mut self, msg: AppMsg, cx: &mut Cx<'_>) -> Option<Infallible> {
        match msg {
            AppMsg::Up => self.focus_by(-1),
            AppMsg::Down => self.focus_by(1),
            AppMsg::Adjust { dir, coarse } => self.adjust(dir, coarse, cx.lang),
            AppMsg::Rows(d) => self.scroll(i64::from(d)),
            AppMsg::Scroll(d) => self.scroll(i64::from(d) * 10),
            AppMsg::Wheel(d) => self.scroll(i64::from(d) * 3),
            AppMsg::Pointer { col, row } if !cx.small => self.click(cx.area, col, row, cx.lang),
            _ => {}
        }
        None
    }

    fn draw(&self, v: &View<'_>, area: Rect, buf: &mut Buffer) {
        super::herd::render(self, v.lang, v.theme, area, buf);
    }
}

impl Screen for PresentState {
    type Reply = Infallible;

    fn handle(&mut self, msg: AppMsg, cx: &mut Cx<'_>) -> Option<Infallible> {
        match msg {
            AppMsg::Step(d) if d > 0 => self.next(),
            AppMsg::Step(_) => self.back(),
            AppMsg::Reveal => self.reveal(),
            AppMsg::Blank => self.blank = !self.blank,
            AppMsg::TogglePredict => self.predict = !self.predict,
            AppMsg::Predict(n) => {
                if let Some(g) = self.pick(usize::from(n), cx.now, cx.lang) {
                    let saved = cx.learn.record(&g, cx.now);
                    self.saved = Some(saved_text(&saved, cx.lang));
                }
            }
            _ => {}
        }
        None
    }

    fn draw(&self, v: &View<'_>, area: Rect, buf: &mut Buffer) {
        super::present::render(self, v.lang, v.theme, area, buf);
    }
}

/// A finding the explorer opens on the A/B/C screen: its run, title and story.
pub struct OpenFinding {
    pub params: AbcParams,
    pub name: String,
    pub about: Text,
}

impl Screen for ExploreState {
    type Reply = OpenFinding;

    fn handle(&mut self, msg: AppMsg, _cx: &mut Cx<'_>) -> Option<OpenFinding> {
        match msg {
            AppMsg::Up => self.move_focus(-1),
            AppMsg::Down => self.move_focus(1),
            AppMsg::Adjust { dir, .. } => self.adjust(dir),
            AppMsg::Cancel => self.cancel(),
            AppMsg::Enter if self.is_running() => {}
            AppMsg::Enter => match self.selected() {
                Some(f) => {
                    let (name, about) = self.story_words(f);
                    return Some(OpenFinding {
                        params: f.params.clone(),
                        name,
                        about,
                    });
                }
                None => self.start(),
            },
            _ => {}
        }
        None
    }

    fn draw(&self, v: &View<'_>, area: Rect, buf: &mut Buffer) {
        super::explore::render(self, v.lang, v.theme, area, buf);
    }
}

impl Screen for FamilyState {
    type Reply = Infallible;

    fn handle(&mut self, msg: AppMsg, cx: &mut Cx<'_>) -> Option<Infallible> {
        match msg {
            AppMsg::Pointer { .. } if cx.small => {}
            m => self.update(m, cx.area, cx.lang),
        }
        None
    }

    fn draw(&self, v: &View<'_>, area: Rect, buf: &mut Buffer) {
        super::family::view::render(self, v.lang, v.theme, area, buf);
    }
}
