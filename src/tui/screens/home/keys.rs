//! Home's keys and its place behind the [`Screen`] trait: moving through the map, the filters
//! and the family choice on their rows, and opening what is chosen.

use crossterm::event::KeyCode;
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;

use super::{Context, HomeRow, HomeState};
use crate::i18n::Ui;
use crate::tui::app::AppMsg;
use crate::tui::keys::{Binding, Ch, Code, U, b, info, scroll_rows};
use crate::tui::screen::{Cx, Screen, View};

/// Rows the wheel moves the selection per notch.
const WHEEL_ROWS: i64 = 3;

const LEFT: AppMsg = AppMsg::Adjust {
    dir: -1,
    coarse: false,
};
const RIGHT: AppMsg = AppMsg::Adjust {
    dir: 1,
    coarse: false,
};

/// Moving the selection through the map.
pub const SCROLL: &[Binding] = &scroll_rows(Ui::KeyHomeMove);

/// Home's other keys, after [`SCROLL`].
pub const KEYS: &[Binding] = &[
    b(
        &[Code(KeyCode::Enter)],
        "Enter",
        U(Ui::KeyHomeOpen),
        AppMsg::Enter,
    ),
    b(
        &[Code(KeyCode::Left), Ch('h')],
        "Left/Right h/l",
        U(Ui::KeyHomeFilter),
        LEFT,
    ),
    b(
        &[Code(KeyCode::Right), Ch('l')],
        "Left/Right h/l",
        U(Ui::KeyHomeFilter),
        RIGHT,
    ),
    info("click", U(Ui::KeyHomeClick)),
    info("wheel", U(Ui::KeyHomeWheel)),
];

impl Screen for HomeState {
    /// The row to open (the selected one): opening reaches beyond home.
    type Reply = HomeRow;

    fn handle(&mut self, msg: AppMsg, cx: &mut Cx<'_>) -> Option<HomeRow> {
        match msg {
            AppMsg::Up => self.move_by(-1),
            AppMsg::Down => self.move_by(1),
            AppMsg::Jump(to_end) => self.jump(to_end),
            AppMsg::Scroll(d) => self.move_rows(i64::from(d) * Self::page(cx.area)),
            AppMsg::Wheel(d) => self.move_rows(i64::from(d) * WHEEL_ROWS),
            AppMsg::Adjust { dir, .. } => self.adjust(dir),
            AppMsg::Enter => return Some(self.current()),
            // A click opens the row under it, as Enter does.
            AppMsg::Pointer { row, .. } if !cx.small => return self.click(cx.area, row),
            _ => {}
        }
        None
    }

    fn draw(&self, v: &View<'_>, area: Rect, buf: &mut Buffer) {
        let lessons = v.reader.titles(v.lang);
        let ctx = Context {
            presets: v.presets,
            lessons: &lessons,
            learn: v.learn,
        };
        super::render(self, &ctx, v.lang, v.theme, area, buf);
    }
}
