//! The `?` overlay: every key of the current screen, in the current language.

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::Style;
use ratatui::widgets::{Block, Borders, Clear, Widget};

use crate::i18n::{Lang, Ui, ui};
use crate::tui::app::ScreenId;
use crate::tui::theme::Theme;

/// The keys of `screen`, as (key names, what they do).
pub fn keys(screen: ScreenId) -> Vec<(&'static str, Ui)> {
    let mut keys: Vec<(&'static str, Ui)> = Vec::new();
    match screen {
        ScreenId::Home => {
            keys.push(("Up/Down j/k", Ui::KeyHomeMove));
            keys.push(("Enter", Ui::KeyHomeOpen));
            keys.push(("Left/Right h/l", Ui::KeyHomeFilter));
        }
        ScreenId::Frozen => {
            keys.push(("Up/Down", Ui::KeySliderSelect));
            keys.push(("Left/Right h/l", Ui::KeySliderAdjust));
            keys.push((", . [ ]", Ui::KeyStep));
            keys.push(("Home/End", Ui::KeyJump));
            keys.push(("Space", Ui::KeyPlay));
            keys.push(("+ -", Ui::KeySpeed));
            keys.push(("f", Ui::KeyFencing));
            keys.push(("s", Ui::KeyStopOnLoss));
            keys.push(("c", Ui::KeyCompare));
            keys.push(("mouse", Ui::KeyMouseSlider));
            keys.push(("mouse", Ui::KeyMouseTimeline));
        }
        ScreenId::Abc => {
            keys.push(("p/P Tab", Ui::KeyPreset));
            keys.push((", . [ ] Left/Right", Ui::KeyStep));
            keys.push(("Home/End", Ui::KeyJump));
            keys.push(("Space", Ui::KeyPlay));
            keys.push(("+ -", Ui::KeySpeed));
            keys.push(("w", Ui::KeyWatch));
            keys.push(("r", Ui::KeyRecovery));
            keys.push(("a", Ui::KeyRegistration));
            keys.push(("f", Ui::KeyFencing));
            keys.push(("s", Ui::KeyOnLoss));
            keys.push(("c", Ui::KeyCompare));
            keys.push(("mouse", Ui::KeyMouseTimeline));
        }
        ScreenId::Present => {
            keys.push(("Space Right l", Ui::KeyPresentNext));
            keys.push(("Left h", Ui::KeyPresentBack));
            keys.push(("r", Ui::KeyReveal));
            keys.push(("b", Ui::KeyBlank));
        }
        ScreenId::Live => {
            keys.push(("Up/Down j/k", Ui::KeyHomeMove));
            keys.push(("Enter", Ui::KeyHomeOpen));
        }
        ScreenId::Herd => {
            keys.push(("Up/Down", Ui::KeySliderSelect));
            keys.push(("Left/Right h/l", Ui::KeySliderAdjust));
            keys.push(("mouse", Ui::KeyMouseSlider));
        }
        ScreenId::Quiz => {
            keys.push(("Enter r", Ui::KeyQuizSubmit));
            keys.push(("Tab", Ui::KeyQuizNotes));
            keys.push(("Up/Down j/k Space", Ui::KeyQuizTick));
            keys.push(("1-9", Ui::KeyQuizDigits));
            keys.push(("a b c ...", Ui::KeyQuizLetters));
            keys.push(("Shift-Up/Down K/J", Ui::KeyQuizMoveStep));
            keys.push(("h", Ui::KeyQuizHint));
            keys.push(("o", Ui::KeyQuizOpenRun));
            keys.push(("PgUp/PgDn", Ui::KeyQuizScroll));
            keys.push(("q Esc", Ui::KeyQuizLeave));
        }
        ScreenId::Stats => {}
        ScreenId::Reader => {
            keys.push(("Up/Down j/k", Ui::KeyScroll));
            keys.push(("PgUp/PgDn Space", Ui::KeyPage));
            keys.push(("Home/End", Ui::KeyTopBottom));
            keys.push(("o", Ui::KeyOutline));
            keys.push(("/", Ui::KeySearch));
            keys.push(("n/N", Ui::KeySearchNext));
            keys.push(("Tab/Shift-Tab", Ui::KeyLinks));
            keys.push(("Enter", Ui::KeyFollow));
            keys.push(("g", Ui::KeyGlossary));
            keys.push(("mouse", Ui::KeyMouseWheel));
            keys.push(("mouse", Ui::KeyMouseLink));
        }
    }
    keys.push(("L", Ui::KeyLang));
    keys.push(("?", Ui::KeyHelp));
    if screen != ScreenId::Quiz {
        keys.push(("q Esc", Ui::KeyBack));
    }
    keys.push(("Ctrl-C", Ui::KeyQuit));
    keys
}

pub fn render(screen: ScreenId, lang: Lang, theme: Theme, area: Rect, buf: &mut Buffer) {
    let keys = keys(screen);
    let w = area.width.min(78);
    let h = (keys.len() as u16 + 3).min(area.height);
    let boxed = Rect::new(
        area.x + (area.width - w) / 2,
        area.y + (area.height - h) / 2,
        w,
        h,
    );
    Clear.render(boxed, buf);
    let block = Block::default()
        .borders(Borders::ALL)
        .title(ui(Ui::HelpTitle, lang))
        .title_bottom(ui(Ui::HelpClose, lang));
    let inner = block.inner(boxed);
    block.render(boxed, buf);
    for (i, (key, what)) in keys.iter().enumerate().take(inner.height as usize) {
        let y = inner.y + i as u16;
        buf.set_stringn(inner.x + 1, y, key, 20, theme.title());
        if inner.width > 22 {
            buf.set_stringn(
                inner.x + 22,
                y,
                ui(*what, lang),
                (inner.width - 22) as usize,
                Style::new(),
            );
        }
    }
}
