//! One file per screen: its state, how messages change it, and how it is drawn.

pub mod abc;
pub mod explore;
pub mod family;
pub mod frozen;
pub mod help;
pub mod herd;
pub mod home;
pub mod labs;
#[cfg(feature = "live")]
pub mod live;
pub mod present;
pub mod quiz;
pub mod reader;
pub mod stats;

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::Style;

/// Writes `text` wrapped (CJK-aware) into `area`, one line per row; what does not fit is cut,
/// and the last row ends in `…` so the cut shows.
pub fn wrapped(buf: &mut Buffer, area: Rect, text: &str, style: Style) {
    let area = area.intersection(buf.area);
    if area.width == 0 {
        return;
    }
    let lines = crate::text::wrap(text, area.width as usize);
    let shown = lines.len().min(area.height as usize);
    for (i, line) in lines.iter().take(shown).enumerate() {
        let mut line = line.replace(crate::text::NO_BREAK, " ");
        // The last row says when the text goes on past the area.
        if i + 1 == shown && lines.len() > shown {
            let w = area.width as usize;
            line = format!(
                "{}…",
                crate::text::fit_cols(line.trim_end(), w.saturating_sub(1))
            );
        }
        buf.set_stringn(area.x, area.y + i as u16, &line, area.width as usize, style);
    }
}

/// Turns the no-break spaces ratatui's wrapping kept in `area` into plain ones, so the terminal
/// only ever receives ordinary spaces.
pub fn plain_spaces(buf: &mut Buffer, area: Rect) {
    let area = area.intersection(buf.area);
    for y in area.top()..area.bottom() {
        for x in area.left()..area.right() {
            let cell = &mut buf[(x, y)];
            if cell.symbol().contains(crate::text::NO_BREAK) {
                cell.set_char(' ');
            }
        }
    }
}

/// An invariant badge, `[ok] name` or `[!!] name`, as one unit that never wraps inside itself
/// (the mark tells the mono theme's reader whether it holds).
pub fn badge(broken: bool, name: &str) -> String {
    let mark = if broken { "[!!]" } else { "[ok]" };
    crate::text::unbreakable(&format!("{mark} {name}"))
}

/// Writes one line, cut at the area's width.
pub fn line(buf: &mut Buffer, area: Rect, text: &str, style: Style) {
    let area = area.intersection(buf.area);
    if area.width == 0 || area.height == 0 {
        return;
    }
    buf.set_stringn(area.x, area.y, text, area.width as usize, style);
}

/// The colon after a label: full-width in Chinese, so it is two columns in every terminal.
pub fn colon(lang: crate::i18n::Lang) -> &'static str {
    lang.pick("：", ": ")
}

/// Seconds as a short number: `19`, `19.5`, `0.125`.
pub fn secs(v: f64) -> String {
    let s = format!("{v:.3}");
    s.trim_end_matches('0').trim_end_matches('.').to_string()
}

/// The settings a lab run has changed from the preset it opened with, listed in one phrase
/// (empty while it is still the preset's own run).
pub fn changed_words(changed: &[String], lang: crate::i18n::Lang) -> String {
    changed.join(lang.pick("、", ", "))
}

/// A preset's name in a title, saying so once the run is no longer the preset's own.
pub fn preset_title(name: &str, changed: &str, lang: crate::i18n::Lang) -> String {
    use crate::i18n::lab::{Lab, lab};
    if changed.is_empty() {
        name.to_string()
    } else {
        lab(Lab::PresetModified, lang)
            .replacen("{}", name, 1)
            .replacen("{}", changed, 1)
    }
}

/// The words under a lab's title: the preset's story while the run is the preset's own, else
/// that the story no longer describes it (a caption never claims what the run no longer shows).
pub fn about_words(
    about: Option<&crate::scenario::Text>,
    changed: &str,
    lang: crate::i18n::Lang,
) -> Option<String> {
    use crate::i18n::lab::{Lab, lab};
    if changed.is_empty() {
        about.map(|a| lang.pick(&a.zh, &a.en).to_string())
    } else {
        Some(lab(Lab::AboutModified, lang).replace("{}", changed))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rows(text: &str, width: u16, height: u16) -> Vec<String> {
        let area = Rect::new(0, 0, width, height);
        let mut buf = Buffer::empty(area);
        wrapped(&mut buf, area, text, Style::new());
        (0..height)
            .map(|y| {
                (0..width)
                    .map(|x| buf[(x, y)].symbol().to_string())
                    .collect::<String>()
                    .trim_end()
                    .to_string()
            })
            .collect()
    }

    #[test]
    fn wrapped_text_that_does_not_fit_ends_in_an_ellipsis() {
        assert_eq!(
            rows("one two three four five six", 10, 2),
            ["one two", "three fou…"]
        );
        // Text that fits is left as it is.
        assert_eq!(rows("one two three", 10, 2), ["one two", "three"]);
    }
}
