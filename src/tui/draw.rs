//! Drawing: the screen on show (and the help over it) into a buffer. It only reads the state.

use ratatui::Frame;
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;

use crate::i18n::{Ui, ui};
use crate::tui::app::{App, MIN_COLS, MIN_ROWS, ScreenId};
use crate::tui::screens;

/// Draws the whole screen into `buf`; used by the terminal loop and the rendering tests.
pub fn render(app: &App, area: Rect, buf: &mut Buffer) {
    if area.width < MIN_COLS || area.height < MIN_ROWS {
        let size = format!("{}x{}", area.width, area.height);
        let text = ui(Ui::Enlarge, app.lang).replace("{}", &size);
        screens::wrapped(buf, area, &text, app.theme.bad());
        return;
    }
    let (lang, theme) = (app.lang, app.theme);
    match app.screen {
        ScreenId::Home => {
            let lessons = app.reader.titles(lang);
            let ctx = screens::home::Context {
                presets: &app.presets,
                lessons: &lessons,
                learn: &app.learn,
            };
            screens::home::render(&app.home, &ctx, lang, theme, area, buf);
        }
        ScreenId::Frozen => screens::frozen::render(&app.frozen, lang, theme, area, buf),
        ScreenId::Abc => screens::abc::render(&app.abc, lang, theme, area, buf),
        ScreenId::Herd => screens::herd::render(&app.herd, lang, theme, area, buf),
        #[cfg(feature = "live")]
        ScreenId::Live => screens::live::render(&app.live, lang, theme, area, buf),
        ScreenId::Present => {
            if let Some(s) = &app.present {
                screens::present::render(s, lang, theme, area, buf);
            }
        }
        ScreenId::Reader => screens::reader::render(&app.reader, lang, theme, area, buf),
        ScreenId::Quiz => {
            if let Some(q) = &app.quiz {
                screens::quiz::render(q, &app.learn, lang, theme, area, buf);
            }
        }
        ScreenId::Stats => screens::stats::render(&app.learn, app.stats, lang, theme, area, buf),
        ScreenId::Explore => screens::explore::render(&app.explore, lang, theme, area, buf),
        ScreenId::Family => {
            if let Some(s) = &app.family {
                screens::family::view::render(s, lang, theme, area, buf);
            }
        }
    }
    if app.help {
        screens::help::render(app.screen, app.help_top, lang, theme, area, buf);
    }
}

pub fn draw(frame: &mut Frame, app: &App) {
    let area = frame.area();
    render(app, area, frame.buffer_mut());
}
