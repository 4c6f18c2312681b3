//! Drawing: the screen on show (and the help over it) into a buffer. It only reads the state.

use ratatui::Frame;
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;

use crate::i18n::{Ui, ui};
use crate::tui::app::{App, MIN_COLS, MIN_ROWS, ScreenId};
use crate::tui::screen::{Screen, View};
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
    let v = View {
        lang,
        theme,
        learn: &app.learn,
        presets: &app.presets,
        reader: &app.reader,
    };
    match app.screen {
        ScreenId::Home => app.home.draw(&v, area, buf),
        ScreenId::Frozen => app.frozen.draw(&v, area, buf),
        ScreenId::Abc => app.abc.draw(&v, area, buf),
        ScreenId::Herd => app.herd.draw(&v, area, buf),
        #[cfg(feature = "live")]
        ScreenId::Live => app.live.draw(&v, area, buf),
        ScreenId::Present => {
            if let Some(s) = &app.present {
                s.draw(&v, area, buf);
            }
        }
        ScreenId::Reader => app.reader.draw(&v, area, buf),
        ScreenId::Quiz => {
            if let Some(q) = &app.quiz {
                q.draw(&v, area, buf);
            }
        }
        ScreenId::Stats => app.stats.draw(&v, area, buf),
        ScreenId::Explore => app.explore.draw(&v, area, buf),
        ScreenId::Family => {
            if let Some(s) = &app.family {
                s.draw(&v, area, buf);
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
