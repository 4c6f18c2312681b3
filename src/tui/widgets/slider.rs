//! A horizontal slider: label, an ASCII track with a knob, and the value in words.

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::Style;
use ratatui::widgets::Widget;

use crate::engine::params::NumSpec;
use crate::tui::theme::Theme;

/// Columns for the label and for the value text.
pub const LABEL_COLS: u16 = 16;
pub const VALUE_COLS: u16 = 12;

/// The track's columns inside a slider row.
pub fn track(area: Rect) -> Rect {
    let x = area.x + LABEL_COLS.min(area.width);
    let w = area
        .width
        .saturating_sub(LABEL_COLS + VALUE_COLS)
        .max(1)
        .min(area.right().saturating_sub(x));
    Rect::new(x, area.y, w, 1)
}

/// The fraction of the range a click at `col` means.
pub fn frac_at(track: Rect, col: u16) -> f64 {
    if track.width <= 1 {
        return 0.0;
    }
    let i = col.saturating_sub(track.x).min(track.width - 1);
    i as f64 / (track.width - 1) as f64
}

/// The value `frac` of the way along `[min, max]`, snapped to the fine step.
pub fn value_at(min: f64, max: f64, step: f64, frac: f64) -> f64 {
    let raw = min + frac.clamp(0.0, 1.0) * (max - min);
    let snapped = if step > 0.0 {
        min + ((raw - min) / step).round() * step
    } else {
        raw
    };
    snapped.clamp(min, max)
}

/// Moves `value` by `dir` steps (coarse with Shift), kept inside `[min, max]`.
pub fn nudge(spec: &NumSpec, max: f64, value: f64, dir: i8, coarse: bool) -> f64 {
    let step = if coarse { spec.coarse } else { spec.step };
    let v = value + f64::from(dir) * step;
    // Round away float dust so 0.1-steps stay printable.
    ((v / spec.step).round() * spec.step).clamp(spec.min, max)
}

pub struct Slider<'a> {
    pub label: &'a str,
    pub value: String,
    pub frac: f64,
    pub focused: bool,
    pub theme: Theme,
}

impl Widget for Slider<'_> {
    fn render(self, area: Rect, buf: &mut Buffer) {
        let area = area.intersection(buf.area);
        if area.height == 0 || area.width == 0 {
            return;
        }
        let label_style = if self.focused {
            self.theme.focus()
        } else {
            Style::new()
        };
        let marker = if self.focused { "> " } else { "  " };
        buf.set_stringn(area.x, area.y, marker, area.width as usize, Style::new());
        buf.set_stringn(
            area.x + 2.min(area.width),
            area.y,
            self.label,
            (LABEL_COLS.saturating_sub(3)).min(area.width.saturating_sub(2)) as usize,
            label_style,
        );
        let tr = track(area);
        if tr.x >= area.right() {
            return;
        }
        let knob = (self.frac.clamp(0.0, 1.0) * (tr.width.saturating_sub(1)) as f64).round() as u16;
        for i in 0..tr.width {
            let ch = match i.cmp(&knob) {
                std::cmp::Ordering::Less => '=',
                std::cmp::Ordering::Equal => 'O',
                std::cmp::Ordering::Greater => '-',
            };
            let style = if i == knob && self.focused {
                self.theme.focus()
            } else if i <= knob {
                self.theme.title()
            } else {
                self.theme.dim()
            };
            buf[(tr.x + i, area.y)].set_char(ch).set_style(style);
        }
        let vx = tr.right() + 1;
        if vx < area.right() {
            buf.set_stringn(
                vx,
                area.y,
                &self.value,
                (area.right() - vx) as usize,
                Style::new(),
            );
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn click_positions_map_to_snapped_values() {
        let area = Rect::new(0, 0, 80, 1);
        let tr = track(area);
        assert_eq!(frac_at(tr, tr.x), 0.0);
        assert_eq!(frac_at(tr, tr.right() + 5), 1.0);
        assert_eq!(value_at(1.0, 30.0, 0.5, 1.0), 30.0);
        assert_eq!(value_at(1.0, 30.0, 0.5, 0.0), 1.0);
        let mid = value_at(0.0, 10.0, 0.5, 0.52);
        assert_eq!(mid, 5.0);
    }
}
