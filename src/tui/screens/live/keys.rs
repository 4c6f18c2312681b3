//! The live lab's keys and its place behind the [`Screen`] trait: choose a run, start it.

use crossterm::event::KeyCode;
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;

use super::LiveState;
use crate::i18n::Ui;
use crate::tui::app::AppMsg;
use crate::tui::keys::{Binding, Ch, Code, U, b};
use crate::tui::screen::{Cx, Screen, View};

pub const KEYS: &[Binding] = &[
    b(
        &[Code(KeyCode::Up), Ch('k')],
        "Up/Down j/k",
        U(Ui::KeyHomeMove),
        AppMsg::Up,
    ),
    b(
        &[Code(KeyCode::Down), Ch('j')],
        "Up/Down j/k",
        U(Ui::KeyHomeMove),
        AppMsg::Down,
    ),
    b(
        &[Code(KeyCode::Enter)],
        "Enter",
        U(Ui::KeyHomeOpen),
        AppMsg::Enter,
    ),
];

impl Screen for LiveState {
    type Reply = std::convert::Infallible;

    fn handle(&mut self, msg: AppMsg, _cx: &mut Cx<'_>) -> Option<Self::Reply> {
        match msg {
            AppMsg::Up => self.move_by(-1),
            AppMsg::Down => self.move_by(1),
            AppMsg::Enter => self.start(),
            _ => {}
        }
        None
    }

    fn draw(&self, v: &View<'_>, area: Rect, buf: &mut Buffer) {
        super::render(self, v.lang, v.theme, area, buf);
    }
}
