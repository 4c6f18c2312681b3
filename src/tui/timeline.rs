//! The time cursor shared by the screens that replay a trace: where it is, which event it
//! explains, and whether it is playing.

use crate::engine::time::Millis;
use crate::engine::trace::{Event, EventKind, Trace};

/// Playback covers a whole run in this many ticks.
pub const TICKS_PER_RUN: u64 = 300;

#[derive(Debug, Clone, Default, PartialEq)]
pub struct Timeline {
    pub cursor_ms: Millis,
    /// The event being explained: the last one at or before the cursor, or the one stepped to.
    pub event: Option<usize>,
    pub playing: bool,
    /// Playback speed as a power of two: 0 is normal, 3 is eight times faster, -2 a quarter.
    pub speed_shift: i8,
}

/// The slowest and fastest playback speeds, as powers of two.
pub const SPEED_RANGE: std::ops::RangeInclusive<i8> = -2..=3;

/// Events worth stopping at. B's once-a-second retries would bury the story otherwise.
fn notable(e: &Event) -> bool {
    !matches!(
        e.kind,
        EventKind::AcquireRequested | EventKind::AcquireRefused { .. }
    )
}

impl Timeline {
    /// Moves the cursor to `t` and explains the last notable event at or before it.
    pub fn set_cursor(&mut self, trace: &Trace, t: Millis) {
        self.cursor_ms = t.min(trace.end_ms);
        let upto = trace.event_index_at(self.cursor_ms);
        self.event = upto.and_then(|i| (0..=i).rev().find(|&j| notable(&trace.events[j])));
    }

    /// Steps to the previous (`dir < 0`) or next notable event.
    pub fn step(&mut self, trace: &Trace, dir: i8) {
        self.playing = false;
        let found = match (dir < 0, self.event) {
            (false, None) => (0..trace.events.len()).find(|&j| notable(&trace.events[j])),
            (false, Some(i)) => (i + 1..trace.events.len()).find(|&j| notable(&trace.events[j])),
            (true, None) => None,
            (true, Some(i)) => (0..i).rev().find(|&j| notable(&trace.events[j])),
        };
        match found {
            Some(j) => {
                self.event = Some(j);
                self.cursor_ms = trace.events[j].at_ms;
            }
            None if dir < 0 => {
                self.event = None;
                self.cursor_ms = 0;
            }
            None => {}
        }
    }

    pub fn jump(&mut self, trace: &Trace, to_end: bool) {
        self.playing = false;
        self.set_cursor(trace, if to_end { trace.end_ms } else { 0 });
    }

    /// One animation tick; stops at the end of the run.
    pub fn tick(&mut self, trace: &Trace) {
        if !self.playing {
            return;
        }
        let base = trace.end_ms / TICKS_PER_RUN;
        let step = if self.speed_shift >= 0 {
            base << self.speed_shift
        } else {
            base >> -self.speed_shift
        }
        .max(1);
        let t = self.cursor_ms.saturating_add(step);
        self.set_cursor(trace, t);
        if self.cursor_ms >= trace.end_ms {
            self.playing = false;
        }
    }

    /// Plays faster (`dir > 0`) or slower, within [`SPEED_RANGE`].
    pub fn change_speed(&mut self, dir: i8) {
        let next = self.speed_shift.saturating_add(dir.signum());
        if SPEED_RANGE.contains(&next) {
            self.speed_shift = next;
        }
    }

    /// The speed as a factor: `0.25`, `1`, `8`.
    pub fn speed_factor(&self) -> f64 {
        2f64.powi(i32::from(self.speed_shift))
    }

    /// `[playing x2]` / `[paused x1]` in the current language, for a screen's title line.
    pub fn status(&self, lang: crate::i18n::Lang) -> String {
        use crate::i18n::{Ui, ui};
        let state = ui(
            if self.playing {
                Ui::Playing
            } else {
                Ui::Paused
            },
            lang,
        );
        format!("[{state} x{}]", self.speed_factor())
    }

    pub fn toggle_play(&mut self, trace: &Trace) {
        if !self.playing && self.cursor_ms >= trace.end_ms {
            self.set_cursor(trace, 0);
        }
        self.playing = !self.playing;
    }

    /// After a re-run the old event index means nothing: keep the instant, re-find the event.
    pub fn refit(&mut self, trace: &Trace) {
        self.set_cursor(trace, self.cursor_ms);
    }

    pub fn current<'a>(&self, trace: &'a Trace) -> Option<&'a Event> {
        self.event.and_then(|i| trace.events.get(i))
    }
}
