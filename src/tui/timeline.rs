//! The time cursor shared by the screens that replay a trace: where it is, which event it
//! explains, whether it is playing and how (by time or event by event), how much of the run is
//! shown (the future stays hidden until revealed), the zoomed window of the time axis, and the
//! event log's own selection.

use crate::engine::time::Millis;
use crate::engine::trace::{Event, EventKind, Trace};

/// Playback covers a whole run in this many ticks.
pub const TICKS_PER_RUN: u64 = 300;
/// Event-paced playback at normal speed moves one event every this many ticks.
pub const TICKS_PER_EVENT: u32 = 10;
/// The deepest zoom: the window is the run divided by 2^MAX_ZOOM.
pub const MAX_ZOOM: u8 = 12;
/// The narrowest window, so a zoom never shows less than this many milliseconds.
pub const MIN_WINDOW_MS: Millis = 20;

/// How playback advances.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Pace {
    /// Every event gets the same screen time, however close together they are.
    #[default]
    Events,
    /// Simulated time flows at a steady rate.
    Time,
}

#[derive(Debug, Clone, Default, PartialEq)]
pub struct Timeline {
    pub cursor_ms: Millis,
    /// The event being explained: the last one at or before the cursor, or the one stepped to.
    pub event: Option<usize>,
    pub playing: bool,
    /// Playback speed as a power of two: 0 is normal, 3 is eight times faster, -2 a quarter.
    pub speed_shift: i8,
    pub pace: Pace,
    /// Show the whole run; otherwise nothing after the cursor is drawn.
    pub reveal: bool,
    /// 0 shows the whole run; each level halves the window around the cursor.
    pub zoom: u8,
    /// The window's start when panned by hand; `None` keeps the cursor centred.
    pub pan_ms: Option<Millis>,
    /// The event chosen in the log (or chart) but not yet jumped to.
    pub log_pick: Option<usize>,
    /// Where playback stops by itself (a prediction's instant); `None` plays to the end.
    pub stop_at: Option<Millis>,
    /// Ticks since the last event-paced step.
    ticks: u32,
}

/// The slowest and fastest playback speeds, as powers of two.
pub const SPEED_RANGE: std::ops::RangeInclusive<i8> = -2..=3;

/// Events worth stopping at. B's once-a-second retries would bury the story otherwise.
pub fn notable(e: &Event) -> bool {
    !matches!(
        e.kind,
        EventKind::AcquireRequested | EventKind::AcquireRefused { .. } | EventKind::RunEnded
    )
}

impl Timeline {
    /// Moves the cursor to `t` and explains the last notable event at or before it.
    pub fn set_cursor(&mut self, trace: &Trace, t: Millis) {
        self.cursor_ms = t.min(trace.end_ms);
        let upto = trace.event_index_at(self.cursor_ms);
        self.event = upto.and_then(|i| (0..=i).rev().find(|&j| notable(&trace.events[j])));
    }

    /// Moves the cursor to event `i` and explains it.
    pub fn goto_event(&mut self, trace: &Trace, i: usize) {
        if let Some(e) = trace.events.get(i) {
            self.cursor_ms = e.at_ms.min(trace.end_ms);
            self.event = Some(i);
        }
    }

    /// Steps to the previous (`dir < 0`) or next notable event.
    pub fn step(&mut self, trace: &Trace, dir: i8) {
        self.playing = false;
        self.log_pick = None;
        if !self.step_quiet(trace, dir) && dir < 0 {
            self.event = None;
            self.cursor_ms = 0;
        }
    }

    /// One step without touching playback; false when there is no event that way.
    fn step_quiet(&mut self, trace: &Trace, dir: i8) -> bool {
        let found = match (dir < 0, self.event) {
            (false, None) => (0..trace.events.len())
                .find(|&j| notable(&trace.events[j]) && trace.events[j].at_ms >= self.cursor_ms),
            (false, Some(i)) => (i + 1..trace.events.len()).find(|&j| notable(&trace.events[j])),
            (true, None) => None,
            (true, Some(i)) => (0..i).rev().find(|&j| notable(&trace.events[j])),
        };
        match found {
            Some(j) => {
                self.goto_event(trace, j);
                true
            }
            None => false,
        }
    }

    pub fn jump(&mut self, trace: &Trace, to_end: bool) {
        self.playing = false;
        self.log_pick = None;
        self.set_cursor(trace, if to_end { trace.end_ms } else { 0 });
    }

    /// The next (`dir > 0`) or previous key moment after or before the cursor; false if none.
    pub fn moment(&mut self, trace: &Trace, dir: i8) -> bool {
        self.playing = false;
        self.log_pick = None;
        let at = self.cursor_ms;
        let target = if dir > 0 {
            trace.moments.iter().map(|m| m.at_ms).find(|&t| t > at)
        } else {
            trace
                .moments
                .iter()
                .rev()
                .map(|m| m.at_ms)
                .find(|&t| t < at)
        };
        match target {
            Some(t) => {
                self.set_cursor(trace, t);
                true
            }
            None => false,
        }
    }

    /// Jumps to the instant the first "always" invariant failed; false if none did.
    pub fn first_violation(&mut self, trace: &Trace) -> bool {
        self.playing = false;
        self.log_pick = None;
        match trace
            .invariants
            .iter()
            .filter_map(|i| i.first_violation_ms())
            .min()
        {
            Some(t) => {
                self.set_cursor(trace, t);
                true
            }
            None => false,
        }
    }

    /// Plays from the start, the future hidden, and stops at `t`.
    pub fn play_to(&mut self, trace: &Trace, t: Millis) {
        self.reveal = false;
        self.log_pick = None;
        self.set_cursor(trace, 0);
        self.stop_at = Some(t.min(trace.end_ms));
        self.playing = true;
        self.ticks = 0;
    }

    /// One animation tick; stops at the end of the run, or where [`Timeline::play_to`] asked.
    pub fn tick(&mut self, trace: &Trace) {
        if !self.playing {
            return;
        }
        self.advance(trace);
        if let Some(t) = self.stop_at
            && self.cursor_ms >= t
        {
            self.set_cursor(trace, t);
            self.playing = false;
            self.stop_at = None;
        }
    }

    fn advance(&mut self, trace: &Trace) {
        match self.pace {
            Pace::Time => {
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
            Pace::Events => {
                self.ticks += 1;
                let every = if self.speed_shift >= 0 {
                    TICKS_PER_EVENT >> self.speed_shift
                } else {
                    TICKS_PER_EVENT << -self.speed_shift
                }
                .max(1);
                if self.ticks >= every {
                    self.ticks = 0;
                    if !self.step_quiet(trace, 1) {
                        self.set_cursor(trace, trace.end_ms);
                        self.playing = false;
                    }
                }
            }
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

    /// `[paused x1, by event, future hidden]` in the current language, for a title line.
    pub fn status(&self, lang: crate::i18n::Lang) -> String {
        use crate::i18n::lab::{Lab, lab};
        use crate::i18n::{Ui, ui};
        let state = ui(
            if self.playing {
                Ui::Playing
            } else {
                Ui::Paused
            },
            lang,
        );
        let pace = lab(
            match self.pace {
                Pace::Events => Lab::PaceEvents,
                Pace::Time => Lab::PaceTime,
            },
            lang,
        );
        let shown = lab(
            if self.reveal {
                Lab::WholeRun
            } else {
                Lab::FutureHidden
            },
            lang,
        );
        let sep = lang.pick("，", ", ");
        let zoom = if self.zoom > 0 {
            format!("{sep}{} x{}", lab(Lab::Zoom, lang), 1u32 << self.zoom)
        } else {
            String::new()
        };
        format!(
            "[{state} x{}{sep}{pace}{sep}{shown}{zoom}]",
            self.speed_factor()
        )
    }

    pub fn toggle_play(&mut self, trace: &Trace) {
        self.stop_at = None;
        if !self.playing && self.cursor_ms >= trace.end_ms {
            self.set_cursor(trace, 0);
        }
        self.playing = !self.playing;
        self.ticks = 0;
        self.log_pick = None;
    }

    pub fn toggle_pace(&mut self) {
        self.pace = match self.pace {
            Pace::Events => Pace::Time,
            Pace::Time => Pace::Events,
        };
    }

    pub fn toggle_reveal(&mut self) {
        self.reveal = !self.reveal;
    }

    /// The last instant drawn: the whole run once revealed, else the cursor.
    pub fn shown_until(&self, end: Millis) -> Millis {
        if self.reveal { end } else { self.cursor_ms }
    }

    /// Zooms in (`dir > 0`), out, or back to the whole run (`dir == 0`).
    pub fn zoom_by(&mut self, dir: i8) {
        self.zoom = match dir {
            0 => 0,
            d if d > 0 => (self.zoom + 1).min(MAX_ZOOM),
            _ => self.zoom.saturating_sub(1),
        };
        self.pan_ms = None;
    }

    /// Pans the window by a quarter of its width.
    pub fn pan(&mut self, end: Millis, dir: i8) {
        if self.zoom == 0 {
            return;
        }
        let (from, to) = self.window(end);
        let quarter = ((to - from) / 4).max(1);
        let from = if dir > 0 {
            from.saturating_add(quarter)
        } else {
            from.saturating_sub(quarter)
        };
        self.pan_ms = Some(from.min(end.saturating_sub(to - from)));
    }

    /// The window of time the lanes show: `[from, to]`.
    pub fn window(&self, end: Millis) -> (Millis, Millis) {
        window(end, self.zoom, self.pan_ms, self.cursor_ms)
    }

    /// Opens on the window that holds the story's key moments, when they crowd a corner of
    /// the run (a race of a few tenths of a second on a 12 s axis); else on the whole run.
    pub fn open_on_story(&mut self, trace: &Trace) {
        self.zoom = 0;
        self.pan_ms = None;
        let end = trace.end_ms;
        let Some((from, to)) = story_span(trace) else {
            return;
        };
        // Room either side, so the first and last moments are not on the window's edges.
        let margin = ((to - from) / 8).max(MIN_WINDOW_MS);
        let want = to - from + 2 * margin;
        let Some(z) = (1..=MAX_ZOOM)
            .rev()
            .find(|&z| (end >> z).max(MIN_WINDOW_MS) >= want)
        else {
            return;
        };
        self.zoom = z;
        let width = (end >> z).max(MIN_WINDOW_MS).min(end);
        let start = from.saturating_sub(margin);
        // A story near the start is in the window that follows the cursor from 0; one further
        // in gets a window of its own.
        if to + margin > width {
            self.pan_ms = Some(start.min(end - width));
        }
    }

    /// After a re-run the old event index means nothing: keep the instant, re-find the event.
    pub fn refit(&mut self, trace: &Trace) {
        self.log_pick = None;
        self.set_cursor(trace, self.cursor_ms);
    }

    pub fn current<'a>(&self, trace: &'a Trace) -> Option<&'a Event> {
        self.event.and_then(|i| trace.events.get(i))
    }

    /// Moves the log's pick by `by` events (among those shown), starting from the current one.
    pub fn pick_by(&mut self, trace: &Trace, by: i64) {
        let shown = shown_events(trace, self.shown_until(trace.end_ms));
        if shown == 0 {
            return;
        }
        let from = self.log_pick.or(self.event).unwrap_or(0) as i64;
        self.log_pick = Some((from + by).clamp(0, shown as i64 - 1) as usize);
    }

    /// Enter in the log: the cursor moves to the picked event.
    pub fn take_pick(&mut self, trace: &Trace) {
        if let Some(i) = self.log_pick.take() {
            self.playing = false;
            self.goto_event(trace, i);
        }
    }
}

/// How many of a trace's events happen at or before `until`.
pub fn shown_events(trace: &Trace, until: Millis) -> usize {
    trace.events.partition_point(|e| e.at_ms <= until)
}

/// The window `[from, to]` of a run ending at `end`, at `zoom`, panned to `pan` or centred on
/// `cursor`.
pub fn window(end: Millis, zoom: u8, pan: Option<Millis>, cursor: Millis) -> (Millis, Millis) {
    if zoom == 0 || end == 0 {
        return (0, end);
    }
    let width = (end >> zoom).max(MIN_WINDOW_MS).min(end);
    let from = pan
        .unwrap_or_else(|| cursor.saturating_sub(width / 2))
        .min(end - width);
    (from, from + width)
}

/// The span of the run that tells its story, when it crowds a corner of the run: the cluster
/// the story opens with (moments closer together than an eighth of their spread) when it spans
/// three distinct instants or holds a stale write or an invariant's first failure; else every
/// key moment, when they all fit in a quarter of the run. `None` where no such span stands out,
/// and the whole run is the story: a cluster in the middle of a run that tells its story across
/// the whole axis (a read-write lock's grant order) is not the story.
pub fn story_span(trace: &Trace) -> Option<(Millis, Millis)> {
    use crate::engine::trace::MomentKind;
    let ms = &trace.moments;
    let (first, last) = (ms.first()?.at_ms, ms.last()?.at_ms);
    let gap = ((last - first) / 8).max(1);
    let opening = ms
        .windows(2)
        .position(|w| w[1].at_ms - w[0].at_ms > gap)
        .map_or(ms.len(), |i| i + 1);
    let cluster = &ms[..opening];
    let mut instants: Vec<Millis> = cluster.iter().map(|m| m.at_ms).collect();
    instants.dedup();
    let decisive = cluster.iter().any(|m| {
        matches!(
            m.kind,
            MomentKind::StaleWrite { .. } | MomentKind::FirstViolation { .. }
        )
    });
    if instants.len() >= 3 || (decisive && instants.len() >= 2) {
        return Some((instants[0], instants[instants.len() - 1]));
    }
    (last > first && last - first <= trace.end_ms / 4).then_some((first, last))
}

/// The smallest zoom at which `[from, to]` spans at least `cols` columns of a `track` columns
/// wide axis over a run of `end` ms: how the presenter keeps a key moment from being one cell.
pub fn zoom_to_fit(end: Millis, from: Millis, to: Millis, track: u16, cols: u16) -> u8 {
    let len = to.saturating_sub(from).max(1);
    (0..=MAX_ZOOM)
        .find(|&z| {
            let width = (end >> z).max(MIN_WINDOW_MS).min(end).max(1);
            len * u64::from(track) / width >= u64::from(cols) || width <= len
        })
        .unwrap_or(MAX_ZOOM)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_zoomed_window_follows_the_cursor_and_stays_inside_the_run() {
        assert_eq!(window(40_000, 0, None, 5_000), (0, 40_000));
        assert_eq!(window(40_000, 1, None, 20_000), (10_000, 30_000));
        assert_eq!(window(40_000, 1, None, 0), (0, 20_000));
        assert_eq!(window(40_000, 2, None, 40_000), (30_000, 40_000));
        assert_eq!(window(40_000, 2, Some(35_000), 0), (30_000, 40_000));
        // Never narrower than the minimum.
        let (f, t) = window(100, 8, None, 50);
        assert_eq!(t - f, MIN_WINDOW_MS);
    }

    #[test]
    fn zooming_to_fit_widens_a_short_moment() {
        assert_eq!(zoom_to_fit(40_000, 0, 40_000, 100, 10), 0);
        let z = zoom_to_fit(12_000, 100, 160, 100, 6);
        let width = 12_000u64 >> z;
        assert!(60 * 100 / width >= 6, "zoom {z}");
    }
}
