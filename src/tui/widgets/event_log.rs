//! The event log: every event of the run in plain words, one per row, up to the cursor (the rest
//! stays hidden until the run is revealed). The current event is highlighted and the log scrolls
//! to keep it (or the event picked with the keys) in view. [`row_event`] maps a clicked row back
//! to its event, with the same arithmetic the drawing uses.

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::{Modifier, Style};
use ratatui::widgets::Widget;

use crate::engine::time::Millis;
use crate::engine::trace::Trace;
use crate::i18n::lab::{Lab, lab};
use crate::i18n::{Lang, describe};
use crate::tui::theme::Theme;
use crate::tui::timeline::{notable, shown_events};

pub struct EventLog<'a> {
    pub trace: &'a Trace,
    pub shown_until: Millis,
    /// The event the cursor explains.
    pub current: Option<usize>,
    /// The event picked in the log, if any.
    pub pick: Option<usize>,
    /// Where the two compared runs part: highlighted.
    pub differs: Option<usize>,
    pub lang: Lang,
    pub theme: Theme,
}

/// The first event shown in a log of `rows` event rows, keeping `focus` in view near the middle.
pub fn first_row(shown: usize, focus: Option<usize>, rows: usize) -> usize {
    if rows == 0 || shown <= rows {
        return 0;
    }
    // Nothing current yet: the top, where the run begins.
    let focus = focus.unwrap_or(0).min(shown - 1);
    focus.saturating_sub(rows / 2).min(shown - rows)
}

/// Rows for events: the area less the title and, when events are hidden, the last row.
fn event_rows(area: Rect, hidden: bool) -> usize {
    area.height.saturating_sub(1 + u16::from(hidden)) as usize
}

/// The event shown on screen row `row` of a log drawn in `area`, if any.
pub fn row_event(
    trace: &Trace,
    shown_until: Millis,
    focus: Option<usize>,
    area: Rect,
    row: u16,
) -> Option<usize> {
    let shown = shown_events(trace, shown_until);
    let hidden = shown < trace.events.len();
    let rows = event_rows(area, hidden);
    if row <= area.y || row >= area.y + 1 + rows as u16 {
        return None;
    }
    let i = first_row(shown, focus, rows) + (row - area.y - 1) as usize;
    (i < shown).then_some(i)
}

impl Widget for EventLog<'_> {
    fn render(self, area: Rect, buf: &mut Buffer) {
        let area = area.intersection(buf.area);
        if area.height < 2 || area.width < 16 {
            return;
        }
        let shown = shown_events(self.trace, self.shown_until);
        let hidden = self.trace.events.len() - shown;
        let title = format!(
            "{} ({}/{})",
            lab(Lab::Events, self.lang),
            shown,
            self.trace.events.len()
        );
        buf.set_stringn(
            area.x,
            area.y,
            &title,
            area.width as usize,
            self.theme.title(),
        );
        let rows = event_rows(area, hidden > 0);
        let focus = self.pick.or(self.current);
        let top = first_row(shown, focus, rows);
        if shown == 0 {
            buf.set_stringn(
                area.x,
                area.y + 1,
                lab(Lab::EventsNone, self.lang),
                area.width as usize,
                self.theme.dim(),
            );
        }
        for (r, i) in (top..shown).take(rows).enumerate() {
            let e = &self.trace.events[i];
            let y = area.y + 1 + r as u16;
            let mark = if Some(i) == self.pick { "▶" } else { " " };
            // In the unit of the run's axis: milliseconds for a run under a second.
            let when = crate::i18n::sim::instant(self.trace, e.at_ms, self.lang);
            let text = format!(
                "{mark}{} {}",
                crate::text::pad_left(&when, 7),
                describe(e, self.trace, self.lang)
            );
            let text = super::clip_cols(&text, area.width as usize);
            let style = if Some(i) == self.current {
                self.theme.current()
            } else if Some(i) == self.differs {
                self.theme.marker(crate::tui::theme::Mark::Differs)
            } else if !notable(e) {
                self.theme.dim()
            } else {
                Style::new()
            };
            let style = if Some(i) == self.pick {
                style.add_modifier(Modifier::BOLD)
            } else {
                style
            };
            buf.set_stringn(area.x, y, &text, area.width as usize, style);
        }
        if hidden > 0 {
            let n = crate::i18n::lab::count(
                hidden as u64,
                "个事件",
                "later event",
                "later events",
                self.lang,
            );
            let text = lab(Lab::EventsHidden, self.lang).replace("{}", &n);
            buf.set_stringn(
                area.x,
                area.bottom() - 1,
                &text,
                area.width as usize,
                self.theme.dim(),
            );
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_focus_stays_in_view() {
        assert_eq!(first_row(5, Some(4), 10), 0);
        assert_eq!(first_row(100, Some(50), 10), 45);
        assert_eq!(first_row(100, Some(99), 10), 90);
        assert_eq!(first_row(100, None, 10), 0);
    }
}
