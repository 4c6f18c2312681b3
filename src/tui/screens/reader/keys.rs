//! The reader's keys: the search prompt and the overlays first, then scrolling, the outline,
//! the glossary, search and links.

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;

use super::{Overlay, ReaderMsg, ReaderState};
use crate::i18n::Ui;
use crate::tui::app::AppMsg;
use crate::tui::keys::{Binding, Ch, Code, Shifted, U, b, info};
use crate::tui::screen::{Cx, Screen, View};

/// Rows the mouse wheel scrolls per notch.
const WHEEL_ROWS: i32 = 3;

/// Keys the reader takes before the global ones: the search prompt and the overlays.
/// `Some(None)` swallows a key; `None` lets the usual mapping run.
pub fn map_modal(key: KeyEvent, s: &ReaderState) -> Option<Option<AppMsg>> {
    let m = |r| Some(Some(AppMsg::Reader(r)));
    if s.typing() {
        return match key.code {
            KeyCode::Esc => m(ReaderMsg::SearchCancel),
            KeyCode::Enter => m(ReaderMsg::SearchSubmit),
            KeyCode::Backspace => m(ReaderMsg::SearchBack),
            KeyCode::Char(c) if !key.modifiers.contains(KeyModifiers::CONTROL) => {
                m(ReaderMsg::SearchChar(c))
            }
            _ => Some(None),
        };
    }
    let overlay = s.overlay?;
    match key.code {
        KeyCode::Char('?') | KeyCode::Char('L') => None,
        KeyCode::Esc | KeyCode::Char('q') => m(ReaderMsg::Close),
        KeyCode::Char('o') if matches!(overlay, Overlay::Outline(_)) => m(ReaderMsg::Close),
        KeyCode::Char('g') if matches!(overlay, Overlay::Glossary(_)) => m(ReaderMsg::Close),
        KeyCode::Up | KeyCode::Char('k') => m(ReaderMsg::Move(-1)),
        KeyCode::Down | KeyCode::Char('j') => m(ReaderMsg::Move(1)),
        KeyCode::PageUp => m(ReaderMsg::Move(-10)),
        KeyCode::PageDown | KeyCode::Char(' ') => m(ReaderMsg::Move(10)),
        KeyCode::Enter => m(ReaderMsg::Pick),
        _ => Some(None),
    }
}

const fn r(msg: ReaderMsg) -> AppMsg {
    AppMsg::Reader(msg)
}

/// The reader's own keys, after the global ones; Shift rows come before the plain key.
pub const KEYS: &[Binding] = &[
    b(
        &[Code(KeyCode::Up), Ch('k')],
        "Up/Down j/k",
        U(Ui::KeyScroll),
        r(ReaderMsg::Scroll(-1)),
    ),
    b(
        &[Code(KeyCode::Down), Ch('j')],
        "Up/Down j/k",
        U(Ui::KeyScroll),
        r(ReaderMsg::Scroll(1)),
    ),
    b(
        &[Code(KeyCode::PageUp), Shifted(KeyCode::Char(' '))],
        "PgUp/PgDn Space",
        U(Ui::KeyPage),
        r(ReaderMsg::Page(-1)),
    ),
    b(
        &[Code(KeyCode::PageDown), Ch(' ')],
        "PgUp/PgDn Space",
        U(Ui::KeyPage),
        r(ReaderMsg::Page(1)),
    ),
    b(
        &[Code(KeyCode::Home)],
        "Home/End",
        U(Ui::KeyTopBottom),
        r(ReaderMsg::Edge(false)),
    ),
    b(
        &[Code(KeyCode::End)],
        "Home/End",
        U(Ui::KeyTopBottom),
        r(ReaderMsg::Edge(true)),
    ),
    b(&[Ch('o')], "o", U(Ui::KeyOutline), r(ReaderMsg::Outline)),
    b(&[Ch('/')], "/", U(Ui::KeySearch), r(ReaderMsg::SearchStart)),
    b(
        &[Ch('n')],
        "n/N",
        U(Ui::KeySearchNext),
        r(ReaderMsg::SearchNext(1)),
    ),
    b(
        &[Ch('N')],
        "n/N",
        U(Ui::KeySearchNext),
        r(ReaderMsg::SearchNext(-1)),
    ),
    b(
        &[Code(KeyCode::BackTab), Shifted(KeyCode::Tab)],
        "Tab/Shift-Tab",
        U(Ui::KeyLinks),
        r(ReaderMsg::Link(-1)),
    ),
    b(
        &[Code(KeyCode::Tab)],
        "Tab/Shift-Tab",
        U(Ui::KeyLinks),
        r(ReaderMsg::Link(1)),
    ),
    b(
        &[Code(KeyCode::Enter)],
        "Enter",
        U(Ui::KeyFollow),
        r(ReaderMsg::Follow),
    ),
    b(&[Ch('g')], "g", U(Ui::KeyGlossary), r(ReaderMsg::Glossary)),
    info("mouse", U(Ui::KeyMouseWheel)),
    info("mouse", U(Ui::KeyMouseLink)),
];

impl Screen for ReaderState {
    /// A message the app carries out: a link followed to a preset, a lesson or a quiz.
    type Reply = AppMsg;

    fn handle(&mut self, msg: AppMsg, cx: &mut Cx<'_>) -> Option<AppMsg> {
        let r = match msg {
            AppMsg::Reader(r) => r,
            AppMsg::Wheel(d) => wheel(d),
            AppMsg::Pointer { col, row } if !cx.small => ReaderMsg::Click { col, row },
            _ => return None,
        };
        self.update(r)
    }

    fn draw(&self, v: &View<'_>, area: Rect, buf: &mut Buffer) {
        super::render(self, v.lang, v.theme, area, buf);
    }
}

/// Turns a mouse-wheel notch into a reader message.
pub fn wheel(dir: i8) -> ReaderMsg {
    ReaderMsg::Scroll(i32::from(dir) * WHEEL_ROWS)
}
