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
use crate::tui::app::AppMsg;
use crate::tui::compare::Parting;
use crate::tui::lab_predict::LabPrediction;
use crate::tui::theme::Theme;
use crate::tui::timeline::Timeline;
use crate::tui::widgets::event_log::{self, EventLog};
use crate::tui::widgets::lanes::{self, Lanes};
use crate::tui::widgets::sequence::{self, Heartbeats, SequenceChart};
use ratatui::style::Style;

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
    /// A prediction asked before the run plays, until the next one.
    pub predict: Option<LabPrediction>,
}

/// Why `n` (`dir` > 0) or `N` did not move from `cursor`: it is at the last (first) key
/// moment, or there is none that way at all.
fn no_moment(trace: &Trace, cursor: Millis, dir: i8, lang: Lang) -> String {
    let edge = if dir > 0 {
        trace.moments.last().filter(|m| m.at_ms <= cursor)
    } else {
        trace.moments.first().filter(|m| m.at_ms == cursor)
    };
    match edge {
        Some(m) => lab(
            if dir > 0 {
                Lab::MomentLast
            } else {
                Lab::MomentFirst
            },
            lang,
        )
        .replace("{t}", &crate::engine::time::fmt_secs(m.at_ms)),
        None => lab(Lab::NoMoment, lang).to_string(),
    }
}

impl RunView {
    /// Applies a timeline or view message; false when `msg` is not one.
    pub fn update(&mut self, trace: &Trace, msg: AppMsg, lang: Lang) -> bool {
        self.notice = None;
        if let Some(p) = self.predict.as_mut().filter(|p| p.waiting()) {
            // The prompt keeps its choices and says why the key did nothing.
            p.nudged = gives_away(msg);
            if p.nudged {
                return true;
            }
        }
        let tl = &mut self.tl;
        match msg {
            AppMsg::Step(d) => tl.step(trace, d),
            AppMsg::Jump(e) => tl.jump(trace, e),
            AppMsg::TogglePlay => tl.toggle_play(trace),
            AppMsg::Speed(d) => tl.change_speed(d),
            AppMsg::TogglePace => tl.toggle_pace(),
            AppMsg::Reveal => tl.toggle_reveal(),
            AppMsg::Zoom(d) => tl.zoom_by(d),
            AppMsg::Pan(d) => tl.pan(trace.end_ms, d),
            AppMsg::Moment(d) => {
                if !tl.moment(trace, d) {
                    self.notice = Some(no_moment(trace, tl.cursor_ms, d, lang));
                }
            }
            AppMsg::FirstViolation => {
                if !tl.first_violation(trace) {
                    self.notice = Some(lab(Lab::NoViolation, lang).to_string());
                }
            }
            AppMsg::ToggleSequence => self.seq = !self.seq,
            AppMsg::ToggleHeartbeats => self.beats = self.beats.next(),
            AppMsg::LogMove(d) => self.move_by(trace, i64::from(d)),
            AppMsg::Scroll(d) => self.move_by(trace, i64::from(d) * PAGE),
            AppMsg::Wheel(d) => self.move_by(trace, i64::from(d) * 3),
            AppMsg::Enter => tl.take_pick(trace),
            _ => return false,
        }
        true
    }

    /// Draws the footer: the notice, else the prediction (its question on the row above when
    /// it does not fit on one), else the key hints.
    pub fn render_footer(
        &self,
        trace: &Trace,
        hints: &[&str],
        lang: Lang,
        theme: Theme,
        area: Rect,
        buf: &mut Buffer,
    ) {
        use crate::tui::screens::line;
        if let Some(n) = &self.notice {
            return line(buf, area, n, theme.warn());
        }
        let Some(p) = &self.predict else {
            return crate::tui::widgets::hints::render(hints, theme.dim(), area, buf);
        };
        let (parts, style) = p.parts(trace, &self.tl, lang, theme);
        let one = parts.join("  ");
        match parts.as_slice() {
            [first, rest] if crate::text::width(&one) > usize::from(area.width) && area.y > 0 => {
                let above = Rect {
                    y: area.y - 1,
                    ..area
                };
                buf.set_style(above, Style::reset());
                for x in above.left()..above.right() {
                    buf[(x, above.y)].set_symbol(" ");
                }
                line(buf, above, first, style);
                line(buf, area, rest, style);
            }
            _ => line(buf, area, &one, style),
        }
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
        l.overview = true;
        l.tracks = true;
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
        if self.predict.as_ref().is_some_and(LabPrediction::waiting) {
            return false;
        }
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

/// Whether `msg` would show the run past the cursor while a prediction waits for its pick.
fn gives_away(msg: AppMsg) -> bool {
    matches!(
        msg,
        AppMsg::Step(_)
            | AppMsg::Jump(_)
            | AppMsg::TogglePlay
            | AppMsg::Reveal
            | AppMsg::Moment(_)
            | AppMsg::FirstViolation
            | AppMsg::LogMove(_)
            | AppMsg::Scroll(_)
            | AppMsg::Wheel(_)
            | AppMsg::Enter
    )
}
