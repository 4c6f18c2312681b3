//! Styles for every screen, in one place.
//!
//! With `NO_COLOR` set the theme is monochrome: lane states then differ only by their glyph
//! (the same characters as the text export), so nothing depends on colour to be understood.

use ratatui::style::{Color, Modifier, Style};

use crate::engine::trace::SpanState;
use crate::engine::trace::redlock::RedlockSpan;
use crate::engine::trace::snowflake::IdSpan;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Theme {
    /// No colours at all: glyphs, bold and reverse video only.
    pub mono: bool,
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

    /// The style of one lane cell in `state`. Colour mode paints the background so a span reads
    /// as a bar; the glyph stays on top so mono and colour show the same information.
    pub fn state(self, state: SpanState) -> Style {
        if self.mono {
            return Style::new();
        }
        let bg = match state {
            SpanState::Holding { .. } | SpanState::Leased { .. } => Color::Green,
            SpanState::HoldingRead { .. } => Color::LightGreen,
            SpanState::Leading { .. } => Color::Green,
            SpanState::Row { .. } | SpanState::Task { .. } => Color::Cyan,
            SpanState::Claimed { .. } => Color::Green,
            SpanState::ScannerStopped => Color::Red,
            SpanState::GaveUp { left_node: true } => Color::LightRed,
            SpanState::GaveUp { .. } => return Style::new(),
            SpanState::Backlog { waiting: 0, .. } | SpanState::Effects { count: 0 } => {
                return Style::new();
            }
            SpanState::Backlog { .. } => Color::Yellow,
            SpanState::Effects { count: 1 } => Color::Cyan,
            SpanState::Effects { .. } => Color::Red,
            SpanState::Frozen {
                believes_holding: true,
            } => Color::Magenta,
            SpanState::Frozen { .. } | SpanState::Suspended { .. } => Color::Blue,
            SpanState::Lost | SpanState::Crashed | SpanState::Stuck { .. } => Color::Red,
            SpanState::Value { .. } => Color::Cyan,
            SpanState::Waiting { .. } | SpanState::Retrying | SpanState::Queue { .. } => {
                Color::Yellow
            }
            SpanState::Creating
            | SpanState::OutcomeUnknown
            | SpanState::Reading
            | SpanState::Checking { .. }
            | SpanState::Reconnecting => Color::LightYellow,
            SpanState::Idle | SpanState::Released | SpanState::Free | SpanState::Empty => {
                return Style::new();
            }
            SpanState::Redlock(s) => match s {
                RedlockSpan::Acquiring { .. } => Color::LightYellow,
                RedlockSpan::Holding { .. } => Color::Green,
                RedlockSpan::Overdue => Color::Magenta,
                RedlockSpan::Backoff => Color::Yellow,
                RedlockSpan::Key { .. } => Color::Cyan,
            },
            SpanState::Snowflake(s) => match s {
                IdSpan::Issued {
                    duplicate: true, ..
                } => Color::Red,
                IdSpan::Issued { held: 1.., .. } => Color::LightGreen,
                IdSpan::Issued { .. } => Color::Green,
                IdSpan::Waiting { .. } => Color::Yellow,
                IdSpan::Refusing { .. } => Color::LightRed,
            },
        };
        Style::new().bg(bg).fg(Color::Black)
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

    pub fn good(self) -> Style {
        self.fg(Color::Green).add_modifier(Modifier::BOLD)
    }

    pub fn bad(self) -> Style {
        self.fg(Color::Red).add_modifier(Modifier::BOLD)
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
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum HerdPart {
    Winner,
    Wasted,
    Asleep,
}
