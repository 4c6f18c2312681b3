//! The status line of key hints: whole hints only, as many as fit, the way back and the help
//! hint always last, so a narrow terminal never cuts a hint in two nor hides how to leave.

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::Style;

/// Writes `hints` separated by two spaces; drops hints from the end (before the last two: the
/// way back and the help hint) until the line fits.
pub fn render(hints: &[&str], style: Style, area: Rect, buf: &mut Buffer) {
    let area = area.intersection(buf.area);
    if area.height == 0 || area.width == 0 {
        return;
    }
    let line = fit(hints, area.width as usize);
    buf.set_stringn(area.x, area.y, &line, area.width as usize, style);
}

/// The hints that fit in `width` columns, joined.
pub fn fit(hints: &[&str], width: usize) -> String {
    let mut keep: Vec<&str> = hints.to_vec();
    // The last two stay: the way back, and the help hint that finds the rest.
    let kept = 2.min(keep.len());
    loop {
        let line = keep.join("  ");
        if crate::text::width(&line) <= width || keep.len() <= kept {
            return line;
        }
        keep.remove(keep.len() - kept - 1);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hints_are_dropped_whole() {
        let line = fit(&["Space play", ",/. event", "q back", "? keys"], 24);
        assert_eq!(
            line, "q back  ? keys",
            "24 columns keep the way back and the help"
        );
        let line = fit(&["Space play", ",/. event", "q back", "? keys"], 26);
        assert_eq!(line, "Space play  q back  ? keys");
        assert!(fit(&["a", "b"], 80).ends_with('b'));
    }
}
