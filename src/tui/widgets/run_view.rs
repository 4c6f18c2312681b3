//! What the frozen-holder and A/B/C screens share: the timeline with its playback, zoom and
//! reveal, the choice between lanes and the sequence chart, the event log's pick, a one-line
//! notice, and how the lanes of one run (or two compared runs) are set up.

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::widgets::Widget;

use crate::engine::time::Millis;
use crate::engine::trace::Trace;
use crate::i18n::Lang;
use crate::i18n::lab::{Lab, lab};
use crate::tui::app::Msg;
use crate::tui::compare::Parting;
use crate::tui::theme::Theme;
use crate::tui::timeline::Timeline;
use crate::tui::widgets::event_log::{self, EventLog};
use crate::tui::widgets::lanes::{self, Lanes};
use crate::tui::widgets::sequence::{self, Heartbeats, SequenceChart};

/// How far a page key moves in the log or the chart.
pub const PAGE: i64 = 10;

#[derive(Debug, Clone, Default, PartialEq)]
pub struct RunView {
    pub tl: Timeline,
    /// The sequence chart instead of the lanes.
    pub seq: bool,
    pub beats: Heartbeats,
    /// A short message for the status line, until the next key.
    pub notice: Option<String>,
}

impl RunView {
    /// Applies a timeline or view message; false when `msg` is not one.
    pub fn update(&mut self, trace: &Trace, msg: Msg, lang: Lang) -> bool {
        self.notice = None;
        let tl = &mut self.tl;
        match msg {
            Msg::Step(d) => tl.step(trace, d),
            Msg::Jump(e) => tl.jump(trace, e),
            Msg::TogglePlay => tl.toggle_play(trace),
            Msg::Speed(d) => tl.change_speed(d),
            Msg::TogglePace => tl.toggle_pace(),
            Msg::Reveal => tl.toggle_reveal(),
            Msg::Zoom(d) => tl.zoom_by(d),
            Msg::Pan(d) => tl.pan(trace.end_ms, d),
            Msg::Moment(d) => {
                if !tl.moment(trace, d) {
                    self.notice = Some(lab(Lab::NoMoment, lang).to_string());
                }
            }
            Msg::FirstViolation => {
                if !tl.first_violation(trace) {
                    self.notice = Some(lab(Lab::NoViolation, lang).to_string());
                }
            }
            Msg::ToggleSequence => self.seq = !self.seq,
            Msg::ToggleHeartbeats => self.beats = self.beats.next(),
            Msg::LogMove(d) => self.move_by(trace, i64::from(d)),
            Msg::Scroll(d) => self.move_by(trace, i64::from(d) * PAGE),
            Msg::Wheel(d) => self.move_by(trace, i64::from(d) * 3),
            Msg::Enter => tl.take_pick(trace),
            _ => return false,
        }
        true
    }

    /// Moves the log's pick, or in the chart the cursor itself, by `by` rows.
    fn move_by(&mut self, trace: &Trace, by: i64) {
        if !self.seq {
            self.tl.pick_by(trace, by);
            return;
        }
        let rows = sequence::rows(trace, self.beats);
        let until = self.tl.shown_until(trace.end_ms);
        let shown = rows.partition_point(|(t, _)| *t <= until).max(1);
        let here = sequence::row_at(&rows, self.tl.cursor_ms).map_or(-1, |i| i as i64);
        let next = (here + by).clamp(0, rows.len() as i64 - 1);
        // Stepping forward may pass the cursor: the chart then shows one more row.
        let next = if self.tl.reveal {
            next
        } else {
            next.min(shown as i64)
        };
        if let Some((t, _)) = rows.get(next.max(0) as usize) {
            self.tl.playing = false;
            self.tl.set_cursor(trace, *t);
        }
    }

    /// The lanes of `trace` as this view shows them, over an axis that ends at `end`.
    pub fn lanes<'a>(
        &self,
        trace: &'a Trace,
        end: Millis,
        parting: Option<Parting>,
        lang: Lang,
        theme: Theme,
    ) -> Lanes<'a> {
        let mut l = Lanes::of(trace, lang, theme);
        l.window = self.tl.window(end);
        l.cursor_ms = self.tl.cursor_ms;
        l.shown_until = self.tl.shown_until(end);
        // Where the runs part is itself an outcome: it shows once the cursor gets there.
        l.differs_at = parting.map(|p| p.at()).filter(|&d| d <= l.shown_until);
        l
    }

    /// The event log of `trace` in `area`.
    pub fn render_log(
        &self,
        trace: &Trace,
        parting: Option<Parting>,
        lang: Lang,
        theme: Theme,
        area: Rect,
        buf: &mut Buffer,
    ) {
        EventLog {
            trace,
            shown_until: self.tl.shown_until(trace.end_ms),
            current: self.tl.event,
            pick: self.tl.log_pick,
            differs: parting.map(|p| p.index),
            lang,
            theme,
        }
        .render(area, buf);
    }

    /// The sequence chart of `trace` in `area`.
    pub fn render_chart(
        &self,
        trace: &Trace,
        lang: Lang,
        theme: Theme,
        area: Rect,
        buf: &mut Buffer,
    ) {
        SequenceChart {
            trace,
            cursor_ms: self.tl.cursor_ms,
            shown_until: self.tl.shown_until(trace.end_ms),
            beats: self.beats,
            lang,
            theme,
        }
        .render(area, buf);
    }

    /// A click: on the lanes it moves the cursor; on a log row it moves the cursor to that event.
    pub fn click(
        &mut self,
        trace: &Trace,
        end: Millis,
        lane_areas: &[Rect],
        log: Option<Rect>,
        col: u16,
        row: u16,
    ) -> bool {
        if !self.seq {
            for a in lane_areas {
                if a.contains((col, row).into()) && col >= lanes::track(*a).x {
                    self.tl.playing = false;
                    self.tl.log_pick = None;
                    let t = lanes::time_at(lanes::track(*a), self.tl.window(end), col);
                    self.tl.set_cursor(trace, t);
                    return true;
                }
            }
        }
        if let Some(log) = log
            && log.contains((col, row).into())
        {
            let until = self.tl.shown_until(trace.end_ms);
            let focus = self.tl.log_pick.or(self.tl.event);
            if let Some(i) = event_log::row_event(trace, until, focus, log, row) {
                self.tl.playing = false;
                self.tl.log_pick = None;
                self.tl.goto_event(trace, i);
                return true;
            }
        }
        false
    }
}
