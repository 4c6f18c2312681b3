//! Styles for every screen, in one place, with one meaning per colour and per glyph.
//!
//! Every lane state belongs to one [`Class`]; the class decides the colour and the glyph on every
//! screen (frozen holder, A/B/C, presenter, legend, help), so green always means "holds the lock"
//! and yellow always "waits for it". With `NO_COLOR` set the theme is monochrome: each class then
//! keeps its own fill glyph, so nothing depends on colour to be understood.

use ratatui::style::{Color, Modifier, Style};

use crate::engine::trace::SpanState;

pub use crate::view::{Class, Mark};

#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Theme {
    /// No colours at all: glyphs, bold and reverse video only.
    pub mono: bool,
}

/// The terminal's colour for each class.
pub trait Colour {
    /// The colour of this class's bars.
    fn colour(self) -> Option<Color>;
}

impl Colour for Class {
    fn colour(self) -> Option<Color> {
        Some(match self {
            // States shown side by side differ in hue, not only in brightness, so they stay
            // apart on a washed-out projector: waiting (yellow) and outcome unknown (violet),
            // talking to the service (light cyan) and the resource's value (pink), frozen
            // believing (magenta) and frozen (tan), knows it lost (red) and stuck (orange).
            Class::Holding => Color::Green,
            Class::Reading => Color::Indexed(36),
            Class::FrozenHolding => Color::Magenta,
            Class::Frozen => Color::Indexed(180),
            Class::Suspended => Color::LightBlue,
            Class::Waiting => Color::Yellow,
            Class::Busy => Color::LightCyan,
            Class::Unknown => Color::Indexed(141),
            Class::Lost => Color::Red,
            Class::Stuck => Color::Indexed(208),
            Class::Crashed => Color::DarkGray,
            Class::ServiceHeld => Color::Gray,
            Class::Value => Color::Indexed(218),
            Class::Abandoned => Color::Blue,
            // The same danger as a frozen holder: a belief the lock no longer backs.
            Class::Overdue => Color::Magenta,
            Class::Duplicate => Color::Indexed(190),
            Class::Refusing => Color::LightGreen,
            Class::Released | Class::Nothing => return None,
        })
    }
}

impl Theme {
    /// Honours the `NO_COLOR` convention (any non-empty value).
    pub fn from_env() -> Self {
        let mono = std::env::var_os("NO_COLOR").is_some_and(|v| !v.is_empty());
        Self { mono }
    }

    fn fg(self, c: Color) -> Style {
        if self.mono {
            Style::new()
        } else {
            Style::new().fg(c)
        }
    }

    /// The style of the first row of a bar: the class's colour as background with dark text
    /// written on it. Monochrome: plain (the glyph carries the meaning).
    pub fn bar(self, class: Class) -> Style {
        match (self.mono, class.colour()) {
            (false, Some(c)) => Style::new().bg(c).fg(Color::Black),
            _ => Style::new(),
        }
    }

    /// The style of a bar's fill: the bar's own, except that a textured class draws its glyph
    /// in a lighter tone of its colour, so the pattern shows without drowning the words.
    pub fn fill(self, class: Class) -> Style {
        match (self.mono, class.colour()) {
            (false, Some(c)) if class.textured() => Style::new().bg(c).fg(Color::LightMagenta),
            _ => self.bar(class),
        }
    }

    /// The style of a bar's lower half-block row: the class's colour as foreground.
    pub fn bar_lower(self, class: Class) -> Style {
        match (self.mono, class.colour()) {
            (false, Some(c)) => Style::new().fg(c),
            _ => Style::new(),
        }
    }

    /// The old single-row style of a lane cell in `state` (kept for the herd chart's callers).
    pub fn state(self, state: SpanState) -> Style {
        self.bar(Class::of(state))
    }

    /// A marker's style.
    pub fn marker(self, mark: Mark) -> Style {
        let bold = Style::new().add_modifier(Modifier::BOLD);
        if self.mono {
            return match mark {
                Mark::WriteStale | Mark::Differs => bold.add_modifier(Modifier::REVERSED),
                _ => bold,
            };
        }
        match mark {
            Mark::WriteOk | Mark::Grant => bold.fg(Color::LightGreen),
            Mark::WriteRefused | Mark::Expired => bold.fg(Color::LightRed),
            Mark::WriteStale => bold
                .fg(Color::White)
                .bg(Color::Red)
                .add_modifier(Modifier::SLOW_BLINK),
            Mark::Wake => bold.fg(Color::LightYellow),
            Mark::Keepalive => Style::new().fg(Color::LightMagenta),
            Mark::Deadline => bold.fg(Color::LightRed),
            Mark::Differs => bold.fg(Color::Black).bg(Color::LightCyan),
        }
    }

    /// The danger window's band and label.
    pub fn danger_band(self) -> Style {
        if self.mono {
            Style::new().add_modifier(Modifier::BOLD)
        } else {
            Style::new()
                .fg(Color::LightRed)
                .add_modifier(Modifier::BOLD)
        }
    }

    /// A blind or disconnected window's band.
    pub fn blind_band(self) -> Style {
        self.fg(Color::LightMagenta)
    }

    /// A question put to the class: a bold banner, reversed without colour.
    pub fn question(self) -> Style {
        let bold = Style::new().add_modifier(Modifier::BOLD);
        if self.mono {
            bold.add_modifier(Modifier::REVERSED)
        } else {
            bold.fg(Color::Black).bg(Color::LightYellow)
        }
    }

    pub fn title(self) -> Style {
        self.fg(Color::Cyan).add_modifier(Modifier::BOLD)
    }

    pub fn dim(self) -> Style {
        if self.mono {
            Style::new()
        } else {
            Style::new().fg(Color::DarkGray)
        }
    }

    pub fn focus(self) -> Style {
        Style::new().add_modifier(Modifier::REVERSED)
    }

    pub fn cursor(self) -> Style {
        Style::new().add_modifier(Modifier::REVERSED | Modifier::BOLD)
    }

    /// The time cursor's column over the lanes: a light line that keeps the bar's colour.
    pub fn cursor_line(self) -> Style {
        if self.mono {
            Style::new().add_modifier(Modifier::BOLD)
        } else {
            Style::new().fg(Color::White).add_modifier(Modifier::BOLD)
        }
    }

    /// The current row of an event log or a sequence chart.
    pub fn current(self) -> Style {
        if self.mono {
            Style::new().add_modifier(Modifier::REVERSED)
        } else {
            Style::new().bg(Color::Blue).fg(Color::White)
        }
    }

    pub fn good(self) -> Style {
        self.fg(Color::Green).add_modifier(Modifier::BOLD)
    }

    pub fn bad(self) -> Style {
        self.fg(Color::Red).add_modifier(Modifier::BOLD)
    }

    pub fn warn(self) -> Style {
        self.fg(Color::Yellow).add_modifier(Modifier::BOLD)
    }

    pub fn danger(self) -> Style {
        if self.mono {
            Style::new().add_modifier(Modifier::BOLD)
        } else {
            Style::new().fg(Color::Red).add_modifier(Modifier::BOLD)
        }
    }

    /// A heading in a lesson: the title stands out most, `###` least.
    pub fn heading(self, level: u8) -> Style {
        match level {
            1 => self.title(),
            2 => self.fg(Color::Yellow).add_modifier(Modifier::BOLD),
            _ => Style::new().add_modifier(Modifier::BOLD),
        }
    }

    /// Inline code and code blocks in a lesson.
    pub fn code(self) -> Style {
        self.fg(Color::Green)
    }

    /// A link in a lesson; underlined so it reads as one without colour.
    pub fn link(self) -> Style {
        self.fg(Color::Cyan).add_modifier(Modifier::UNDERLINED)
    }

    /// A search match; the current one uses [`Theme::cursor`].
    pub fn mark(self) -> Style {
        if self.mono {
            Style::new().add_modifier(Modifier::REVERSED)
        } else {
            Style::new().bg(Color::Yellow).fg(Color::Black)
        }
    }

    /// The winner, wasted wake-ups and waiters left asleep in the herd chart.
    pub fn herd(self, part: HerdPart) -> Style {
        match part {
            HerdPart::Winner => self.fg(Color::Green).add_modifier(Modifier::BOLD),
            HerdPart::Wasted => self.fg(Color::Red),
            HerdPart::Asleep => self.dim(),
        }
    }

    /// A message arrow in the sequence chart, by kind.
    pub fn arrow(self, kind: ArrowKind) -> Style {
        match kind {
            ArrowKind::Request => self.fg(Color::LightCyan),
            ArrowKind::Reply => self.fg(Color::LightGreen),
            ArrowKind::Notify => self.fg(Color::LightYellow).add_modifier(Modifier::BOLD),
            ArrowKind::Heartbeat => self.dim(),
            ArrowKind::Dropped => self.fg(Color::LightRed).add_modifier(Modifier::BOLD),
            ArrowKind::Write => self.fg(Color::LightMagenta),
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum HerdPart {
    Winner,
    Wasted,
    Asleep,
}

/// The kinds of arrow a sequence chart draws.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ArrowKind {
    Request,
    Reply,
    Notify,
    Heartbeat,
    Dropped,
    Write,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_class_has_its_own_glyph_and_none_is_a_letter() {
        for (i, a) in Class::ALL.iter().enumerate() {
            assert!(!a.glyph().is_alphanumeric(), "{a:?}");
            for b in &Class::ALL[i + 1..] {
                assert_ne!(a.glyph(), b.glyph(), "{a:?} and {b:?}");
            }
        }
        for (i, a) in Mark::ALL.iter().enumerate() {
            for b in &Mark::ALL[i + 1..] {
                assert_ne!(a.glyph(), b.glyph(), "{a:?} and {b:?}");
            }
        }
    }

    #[test]
    fn classes_that_share_a_colour_are_told_apart_by_their_texture() {
        for (i, a) in Class::ALL.iter().enumerate() {
            for b in &Class::ALL[i + 1..] {
                if a.colour().is_some() && a.colour() == b.colour() {
                    assert!(a.textured() != b.textured(), "{a:?} and {b:?}");
                }
            }
        }
    }

    /// A colour as xterm draws it by default (the 16 named colours, then the 256-colour cube).
    fn rgb(c: Color) -> (f64, f64, f64) {
        let (r, g, b) = match c {
            Color::Red => (205, 0, 0),
            Color::Green => (0, 205, 0),
            Color::Yellow => (205, 205, 0),
            Color::Blue => (0, 0, 238),
            Color::Magenta => (205, 0, 205),
            Color::Cyan => (0, 205, 205),
            Color::Gray => (229, 229, 229),
            Color::DarkGray => (127, 127, 127),
            Color::LightRed => (255, 0, 0),
            Color::LightGreen => (0, 255, 0),
            Color::LightYellow => (255, 255, 0),
            Color::LightBlue => (92, 92, 255),
            Color::LightMagenta => (255, 0, 255),
            Color::LightCyan => (0, 255, 255),
            Color::Indexed(i @ 16..=231) => {
                let level = |v: u8| [0, 95, 135, 175, 215, 255][v as usize];
                let i = i - 16;
                (level(i / 36), level(i / 6 % 6), level(i % 6))
            }
            other => panic!("no RGB for {other:?}"),
        };
        (f64::from(r), f64::from(g), f64::from(b))
    }

    /// The hue of a colour, in degrees.
    fn hue(c: Color) -> f64 {
        let (r, g, b) = rgb(c);
        let (max, min) = (r.max(g).max(b), r.min(g).min(b));
        let d = max - min;
        assert!(d > 0.0, "{c:?} is a grey");
        let h = if max == r {
            ((g - b) / d).rem_euclid(6.0)
        } else if max == g {
            (b - r) / d + 2.0
        } else {
            (r - g) / d + 4.0
        };
        h * 60.0
    }

    #[test]
    fn states_shown_together_differ_in_hue_not_only_in_brightness() {
        // The pairs a learner must tell apart on one lane screen, seen through a projector.
        let pairs = [
            (Class::Waiting, Class::Unknown),
            (Class::Busy, Class::Value),
            (Class::FrozenHolding, Class::Frozen),
            (Class::Lost, Class::Stuck),
            (Class::Holding, Class::Reading),
        ];
        for (a, b) in pairs {
            let (ha, hb) = (hue(a.colour().unwrap()), hue(b.colour().unwrap()));
            let apart = (ha - hb).abs().min(360.0 - (ha - hb).abs());
            assert!(apart >= 30.0, "{a:?} ({ha:.0}°) and {b:?} ({hb:.0}°)");
        }
    }

    #[test]
    fn a_stale_accepted_write_never_looks_like_a_good_one() {
        for mono in [false, true] {
            let t = Theme { mono };
            assert_ne!(t.marker(Mark::WriteStale), t.marker(Mark::WriteOk));
        }
    }
}
