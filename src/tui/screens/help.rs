//! The `?` overlay: every key of the current screen and, on the screens with lanes, the legend
//! of colours, glyphs and markers, in the current language. It scrolls when it does not fit.

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::Style;
use ratatui::widgets::{Block, Borders, Clear, Widget};

use crate::i18n::lab::{Lab, lab};
use crate::i18n::{Lang, Ui, ui};
use crate::tui::app::ScreenId;
use crate::tui::keys::{self, Words};
use crate::tui::theme::{Class, Mark, Theme};
use crate::tui::widgets::legend::{self, LegendEntry};

/// The keys of `screen`, as (key names, what they do).
pub fn keys(screen: ScreenId) -> Vec<(String, Words)> {
    let mut out = keys::help_rows(screen);
    out.push(("L".into(), Words::Ui(Ui::KeyLang)));
    out.push(("?".into(), Words::Ui(Ui::KeyHelp)));
    if screen != ScreenId::Quiz {
        out.push(("q Esc".into(), Words::Ui(Ui::KeyBack)));
    }
    out.push(("Ctrl-C".into(), Words::Ui(Ui::KeyQuit)));
    out
}

/// The legend help shows: every class and marker, whatever the current run uses.
pub fn legend_items(screen: ScreenId, theme: Theme, lang: Lang) -> Vec<LegendEntry> {
    if !matches!(
        screen,
        ScreenId::Frozen | ScreenId::Abc | ScreenId::Present | ScreenId::Family
    ) {
        return Vec::new();
    }
    Class::ALL
        .into_iter()
        .filter(|c| *c != Class::Nothing)
        .map(|c| legend::class_item(c, theme, lang))
        .chain(
            Mark::ALL
                .into_iter()
                .map(|m| legend::mark_item(m, theme, lang)),
        )
        .collect()
}

/// Clears a popup's area, and the wide character left of it that would otherwise spill into
/// its left border (a terminal draws a wide character over both its cells).
pub fn clear_popup(area: Rect, buf: &mut Buffer) {
    Clear.render(area, buf);
    let area = area.intersection(buf.area);
    for y in area.y..area.bottom() {
        if area.x > 0 {
            let left = &mut buf[(area.x - 1, y)];
            if crate::text::width(left.symbol()) > 1 {
                left.set_char(' ');
            }
        }
        // The second half of a wide character the popup cut in two is left as a bare
        // continuation cell: make it a plain space so the right border stands alone.
        if area.right() < buf.area.right() {
            let right = &mut buf[(area.right(), y)];
            if right.symbol().is_empty() {
                right.set_char(' ');
            }
        }
    }
}

pub fn render(screen: ScreenId, top: u16, lang: Lang, theme: Theme, area: Rect, buf: &mut Buffer) {
    let keys = keys(screen);
    let items = legend_items(screen, theme, lang);
    let rows = keys.len() + if items.is_empty() { 0 } else { items.len() + 2 };
    let w = area.width.min(100);
    let h = (rows as u16 + 2).min(area.height);
    let boxed = Rect::new(
        area.x + (area.width - w) / 2,
        area.y + (area.height - h) / 2,
        w,
        h,
    );
    clear_popup(boxed, buf);
    let block = Block::default()
        .borders(Borders::ALL)
        .title(ui(Ui::HelpTitle, lang))
        .title_bottom(ui(Ui::HelpClose, lang));
    let inner = block.inner(boxed);
    block.render(boxed, buf);
    let top = (top as usize).min(rows.saturating_sub(inner.height as usize));
    let widest = keys
        .iter()
        .map(|(k, _)| crate::text::width(k))
        .max()
        .unwrap_or(0) as u16;
    let key_w = (widest + 2).min(inner.width / 3).max(6);
    for r in 0..inner.height as usize {
        let i = top + r;
        let y = inner.y + r as u16;
        if i < keys.len() {
            let (key, what) = &keys[i];
            buf.set_stringn(inner.x + 1, y, key, key_w as usize - 1, theme.title());
            let room = inner.width.saturating_sub(key_w + 1) as usize;
            buf.set_stringn(inner.x + key_w, y, what.text(lang), room, Style::new());
        } else if i == keys.len() + 1 && !items.is_empty() {
            buf.set_stringn(
                inner.x + 1,
                y,
                lab(Lab::Legend, lang),
                inner.width as usize,
                theme.title(),
            );
        } else if let Some(item) = i.checked_sub(keys.len() + 2).and_then(|j| items.get(j)) {
            for (k, ch) in item.swatch.iter().enumerate() {
                buf[(inner.x + 1 + k as u16, y)]
                    .set_char(*ch)
                    .set_style(item.style);
            }
            buf.set_stringn(
                inner.x + key_w,
                y,
                item.name,
                inner.width.saturating_sub(key_w + 1) as usize,
                Style::new(),
            );
        }
    }
    if rows > inner.height as usize {
        let more = format!(" {}/{} ↑↓ ", top + inner.height as usize, rows);
        let x = boxed.right().saturating_sub(more.len() as u16 + 1);
        buf.set_stringn(x, boxed.y, &more, more.len(), theme.dim());
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_wide_character_left_of_a_popup_is_cleared() {
        let mut buf = Buffer::empty(Rect::new(0, 0, 20, 3));
        buf.set_string(3, 1, "停顿", Style::new());
        // The popup starts at column 4: the wide character at 3 would spill into it.
        clear_popup(Rect::new(4, 0, 10, 3), &mut buf);
        assert_eq!(buf[(3, 1)].symbol(), " ");
        // And one cut by its right edge leaves no bare half outside.
        let mut buf = Buffer::empty(Rect::new(0, 0, 20, 3));
        buf.set_string(13, 1, "停顿", Style::new());
        clear_popup(Rect::new(4, 0, 10, 3), &mut buf);
        assert_eq!(buf[(14, 1)].symbol(), " ");
    }
}
