//! The message sequence chart: the clients, the service and the resource as columns, time
//! downward, every request, reply and notification an arrow from sender to receiver (a dropped
//! one ends in ✗, one still on its way when the run ends in …), and the key moments written on
//! their actor's lifeline. It shares the time cursor with the lanes: rows after the cursor stay
//! hidden until the run is revealed, and the row at the cursor is highlighted.

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::{Modifier, Style};
use ratatui::widgets::Widget;

use crate::engine::msg::{ActorMsg, ZkResult};
use crate::engine::time::{Millis, fmt_secs};
use crate::engine::trace::{Fate, MomentKind, Trace};
use crate::i18n::Lang;
use crate::i18n::lab::{Lab, lab, msg_label};
use crate::i18n::sim::invariant_label;
use crate::tui::theme::{ArrowKind, Mark, Theme};

/// How heartbeats (pings and their answers) are drawn.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Heartbeats {
    Shown,
    #[default]
    Faint,
    Hidden,
}

impl Heartbeats {
    pub fn next(self) -> Self {
        match self {
            Heartbeats::Shown => Heartbeats::Faint,
            Heartbeats::Faint => Heartbeats::Hidden,
            Heartbeats::Hidden => Heartbeats::Shown,
        }
    }

    pub fn words(self, lang: Lang) -> &'static str {
        lab(
            match self {
                Heartbeats::Shown => Lab::HeartbeatsShown,
                Heartbeats::Faint => Lab::HeartbeatsFaint,
                Heartbeats::Hidden => Lab::HeartbeatsHidden,
            },
            lang,
        )
    }
}

/// One row of the chart.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Row {
    /// An index into `trace.messages`.
    Message(usize),
    /// An index into `trace.moments`.
    Moment(usize),
    /// An actor freezes (`true`) or wakes (`false`): its lifeline is drawn frozen between.
    Pause(crate::engine::world::ActorId, bool),
    /// The same exchange repeated: `first` (and `second`, a request's answer) as the first
    /// time, `at` the instant each repeat began. Heartbeats in faint mode fold whoever sends
    /// them (`beats`).
    Fold {
        first: usize,
        second: Option<usize>,
        beats: bool,
        at: Vec<Millis>,
    },
}

impl Row {
    /// How many repeats the row stands for by `until`: only those shown are counted.
    pub fn repeats(&self, until: Millis) -> usize {
        match self {
            Row::Fold { at, .. } => at.iter().filter(|&&t| t <= until).count(),
            _ => 1,
        }
    }
}

/// The chart's rows in time order, with the instant each stands for: messages, key moments,
/// pauses, and repeats folded into one row (B asking every second and told "busy" every
/// time; pings and pongs in faint mode).
pub fn rows(trace: &Trace, beats: Heartbeats) -> Vec<(Millis, Row)> {
    let mut out: Vec<(Millis, Row)> = trace
        .messages
        .iter()
        .enumerate()
        .filter(|(_, m)| beats != Heartbeats::Hidden || !m.msg.is_heartbeat())
        .map(|(i, m)| (m.sent_ms, Row::Message(i)))
        .collect();
    out.extend(
        trace
            .moments
            .iter()
            .enumerate()
            .map(|(i, m)| (m.at_ms, Row::Moment(i))),
    );
    for a in &trace.actors {
        if let Some((from, to)) = trace.pause_of(a.id) {
            out.push((from, Row::Pause(a.id, true)));
            if to < trace.end_ms {
                out.push((to, Row::Pause(a.id, false)));
            }
        }
    }
    // Stable: at one instant a wake comes first, messages keep their order, moments follow
    // them, and a freeze comes last.
    out.sort_by_key(|(t, r)| {
        let rank = match r {
            Row::Pause(_, false) => 0,
            Row::Message(_) | Row::Fold { .. } => 1,
            Row::Moment(_) => 2,
            Row::Pause(_, true) => 3,
        };
        (*t, rank)
    });
    fold(trace, out, beats)
}

/// What makes two messages the same exchange: sender, receiver, fate and what was said.
fn same(trace: &Trace, a: usize, b: usize) -> bool {
    let (x, y) = (&trace.messages[a], &trace.messages[b]);
    x.from == y.from
        && x.to == y.to
        && x.fate == y.fate
        && msg_label(&x.msg, trace, Lang::En) == msg_label(&y.msg, trace, Lang::En)
}

/// Folds repeats: a run of faint heartbeats, or one message or one request and its answer
/// repeated back to back, becomes one row.
fn fold(trace: &Trace, rows: Vec<(Millis, Row)>, beats: Heartbeats) -> Vec<(Millis, Row)> {
    let msg = |i: usize| match rows.get(i) {
        Some((_, Row::Message(m))) => Some(*m),
        _ => None,
    };
    let beat = |i: usize| msg(i).is_some_and(|m| trace.messages[m].msg.is_heartbeat());
    let mut out = Vec::with_capacity(rows.len());
    let mut i = 0;
    while i < rows.len() {
        if beats == Heartbeats::Faint && beat(i) {
            let j = (i..rows.len()).find(|&j| !beat(j)).unwrap_or(rows.len());
            if j - i >= 2 {
                out.push((
                    rows[i].0,
                    Row::Fold {
                        first: msg(i).unwrap_or_default(),
                        second: None,
                        beats: true,
                        at: rows[i..j].iter().map(|(t, _)| *t).collect(),
                    },
                ));
                i = j;
                continue;
            }
        }
        let mut folded = false;
        for width in [1, 2] {
            let unit: Option<Vec<usize>> = (i..i + width).map(msg).collect();
            let Some(unit) =
                unit.filter(|u| !u.iter().any(|&m| trace.messages[m].msg.is_heartbeat()))
            else {
                continue;
            };
            let repeat = |k: usize| {
                (0..width).all(|d| msg(i + k * width + d).is_some_and(|m| same(trace, m, unit[d])))
            };
            let n = (1..).find(|&k| !repeat(k)).unwrap_or(1);
            if n >= 2 {
                out.push((
                    rows[i].0,
                    Row::Fold {
                        first: unit[0],
                        second: unit.get(1).copied(),
                        beats: false,
                        at: (0..n).map(|k| rows[i + k * width].0).collect(),
                    },
                ));
                i += n * width;
                folded = true;
                break;
            }
        }
        if !folded {
            out.push(rows[i].clone());
            i += 1;
        }
    }
    out
}

/// The row at or before `at` (the last one), if any.
pub fn row_at(rows: &[(Millis, Row)], at: Millis) -> Option<usize> {
    rows.partition_point(|(t, _)| *t <= at).checked_sub(1)
}

fn kind(m: &ActorMsg) -> ArrowKind {
    if m.is_heartbeat() {
        return ArrowKind::Heartbeat;
    }
    match m {
        ActorMsg::ZkWatch { .. } => ArrowKind::Notify,
        ActorMsg::Write { .. } => ArrowKind::Write,
        ActorMsg::ZkReply { result, .. } if *result != ZkResult::Pong => ArrowKind::Reply,
        ActorMsg::Granted { .. }
        | ActorMsg::Busy
        | ActorMsg::Renewed { .. }
        | ActorMsg::Refused => ArrowKind::Reply,
        _ => ArrowKind::Request,
    }
}

pub struct SequenceChart<'a> {
    pub trace: &'a Trace,
    pub cursor_ms: Millis,
    pub shown_until: Millis,
    pub beats: Heartbeats,
    pub lang: Lang,
    pub theme: Theme,
}

/// Columns of the time margin.
const TIME_COLS: u16 = 9;

impl Widget for SequenceChart<'_> {
    fn render(self, area: Rect, buf: &mut Buffer) {
        let area = area.intersection(buf.area);
        if area.height < 3 || area.width < TIME_COLS + 20 {
            return;
        }
        let (trace, theme, lang) = (self.trace, self.theme, self.lang);
        let n = trace.actors.len().max(1) as u16;
        let body = area.width - TIME_COLS;
        let col_w = body / n;
        let x_of = |id: crate::engine::world::ActorId| {
            let i = trace.actors.iter().position(|a| a.id == id).unwrap_or(0) as u16;
            area.x + TIME_COLS + i * col_w + col_w / 2
        };
        // Header: who each column is, and how heartbeats are drawn.
        let title = format!("{}  ({})", lab(Lab::Sequence, lang), self.beats.words(lang));
        buf.set_stringn(area.x, area.y, &title, area.width as usize, theme.title());
        buf.set_stringn(area.x + 3, area.y + 1, lang.pick("秒", "s"), 4, theme.dim());
        for a in &trace.actors {
            let name = actor_title(trace, a, lang);
            let w = crate::text::width(&name) as u16;
            let x = x_of(a.id).saturating_sub(w / 2).max(area.x + TIME_COLS);
            buf.set_stringn(
                x,
                area.y + 1,
                &name,
                col_w as usize,
                Style::new().add_modifier(Modifier::BOLD),
            );
        }
        let all = rows(trace, self.beats);
        let shown = all.partition_point(|(t, _)| *t <= self.shown_until);
        let top_y = area.y + 2;
        let height = area.bottom().saturating_sub(top_y) as usize;
        if shown == 0 {
            buf.set_stringn(
                area.x,
                top_y,
                lab(Lab::SequenceEmpty, lang),
                area.width as usize,
                theme.dim(),
            );
            return;
        }
        let current = row_at(&all[..shown], self.cursor_ms);
        let first = super::event_log::first_row(shown, current, height);
        let pauses: Vec<(u16, Millis, Millis)> = trace
            .actors
            .iter()
            .filter_map(|a| trace.pause_of(a.id).map(|(f, t)| (x_of(a.id), f, t)))
            .collect();
        for (r, idx) in (first..shown).take(height).enumerate() {
            let y = top_y + r as u16;
            let (t, row) = &all[idx];
            let t = *t;
            for a in &trace.actors {
                buf[(x_of(a.id), y)].set_char('│').set_style(theme.dim());
            }
            // A frozen actor's lifeline is doubled while it is frozen: it does nothing and
            // hears nothing.
            for &(x, from, to) in &pauses {
                if from <= t && t < to {
                    buf[(x, y)]
                        .set_char('║')
                        .set_style(theme.bar_lower(crate::view::Class::Frozen));
                }
            }
            let time_style = if Some(idx) == current {
                theme.current()
            } else {
                theme.dim()
            };
            buf.set_stringn(
                area.x,
                y,
                format!("{:>7} ", fmt_secs(t)),
                TIME_COLS as usize,
                time_style,
            );
            match row {
                Row::Message(i) => self.arrow(buf, *i, None, y, &x_of, area),
                Row::Fold {
                    first,
                    second,
                    beats,
                    ..
                } => {
                    let n = row.repeats(self.shown_until);
                    if *beats {
                        // Right of the first lifeline, which stays drawn.
                        let text = lab(Lab::SeqBeats, lang).replace("{}", &n.to_string());
                        let x = trace
                            .actors
                            .first()
                            .map_or(area.x + TIME_COLS, |a| x_of(a.id))
                            + 2;
                        buf.set_stringn(
                            x,
                            y,
                            format!("┄ {text} ┄"),
                            area.right().saturating_sub(x) as usize,
                            theme.arrow(ArrowKind::Heartbeat),
                        );
                    } else {
                        let mut label = msg_label(&trace.messages[*first].msg, trace, lang);
                        if let Some(s) = second {
                            label.push_str(" → ");
                            label.push_str(&msg_label(&trace.messages[*s].msg, trace, lang));
                        }
                        label.push_str(&format!(" ×{n}"));
                        self.arrow(buf, *first, Some(label), y, &x_of, area);
                    }
                }
                Row::Pause(who, froze) => {
                    let key = if *froze { Lab::SeqFroze } else { Lab::SeqWoke };
                    let text = lab(key, lang).replace("{a}", trace.name(*who));
                    let x = x_of(*who) + 1;
                    buf.set_stringn(
                        x,
                        y,
                        format!(" {text}"),
                        area.right().saturating_sub(x) as usize,
                        theme.bar_lower(crate::view::Class::Frozen),
                    );
                }
                Row::Moment(i) => {
                    let m = trace.moments[*i];
                    let (who, text, mark) = moment_words(trace, m.kind, lang);
                    let x = x_of(who) + 1;
                    let text = format!("{} {text}", mark.glyph());
                    let room = area.right().saturating_sub(x) as usize;
                    buf.set_stringn(x, y, &text, room, theme.marker(mark));
                }
            }
        }
    }
}

/// A column's heading: a client's name, or what the service and the resource are.
fn actor_title(trace: &Trace, a: &crate::engine::trace::ActorInfo, lang: Lang) -> String {
    use crate::engine::trace::Role;
    match a.role {
        Role::Coordinator | Role::LeaseService => lang.pick("服务", "service").into(),
        Role::Resource => lang.pick("资源", "resource").into(),
        Role::Table => lang.pick("数据表", "table").into(),
        Role::Outside => lang.pick("外部系统", "outside").into(),
        Role::Operator => lang.pick("运维", "operator").into(),
        Role::Client | Role::Node => trace.name(a.id).to_string(),
    }
}

/// An actor's name, then what it does.
fn says(trace: &Trace, actor: crate::engine::world::ActorId, words: &str) -> String {
    format!("{} {words}", trace.name(actor))
}

/// The actor, words and mark for a key moment on its lifeline.
fn moment_words(
    trace: &Trace,
    k: MomentKind,
    lang: Lang,
) -> (crate::engine::world::ActorId, String, Mark) {
    match k {
        MomentKind::Grant { actor } => (
            actor,
            says(trace, actor, lang.pick("拿到锁", "holds the lock")),
            Mark::Grant,
        ),
        MomentKind::Release { actor } => (
            actor,
            says(trace, actor, lang.pick("释放", "releases")),
            Mark::WriteOk,
        ),
        // The service lets the lock run out; the holder does not know it yet.
        MomentKind::Expiry { actor, by } => (
            by,
            says(trace, actor, lang.pick("过期", "expired")),
            Mark::Expired,
        ),
        MomentKind::LearnedLost { actor } => (
            actor,
            says(
                trace,
                actor,
                lang.pick("得知已失去锁", "learns it lost the lock"),
            ),
            Mark::Expired,
        ),
        MomentKind::StaleWrite { actor, accepted } => (
            actor,
            says(
                trace,
                actor,
                if accepted {
                    lang.pick("陈旧写入被接受", "stale write accepted")
                } else {
                    lang.pick("陈旧写入被拒", "stale write refused")
                },
            ),
            if accepted {
                Mark::WriteStale
            } else {
                Mark::WriteRefused
            },
        ),
        MomentKind::FirstViolation { invariant } => (
            trace
                .actors
                .first()
                .map_or(crate::engine::world::ActorId(0), |a| a.id),
            format!(
                "{} {}",
                lang.pick("违反：", "violated:"),
                invariant_label(invariant, lang)
            ),
            Mark::WriteStale,
        ),
    }
}

impl SequenceChart<'_> {
    /// Message `i`'s arrow on row `y`, labelled `label` or else with what it says.
    fn arrow(
        &self,
        buf: &mut Buffer,
        i: usize,
        label: Option<String>,
        y: u16,
        x_of: &dyn Fn(crate::engine::world::ActorId) -> u16,
        area: Rect,
    ) {
        let (trace, theme) = (self.trace, self.theme);
        let m = &trace.messages[i];
        let (x1, x2) = (x_of(m.from), x_of(m.to));
        if x1 == x2 {
            return;
        }
        let k = if m.fate == Fate::Dropped {
            ArrowKind::Dropped
        } else {
            kind(&m.msg)
        };
        let mut style = theme.arrow(k);
        if k == ArrowKind::Heartbeat && self.beats == Heartbeats::Shown {
            style = Style::new();
        }
        let right = x2 > x1;
        let (lo, hi) = if right {
            (x1 + 1, x2 - 1)
        } else {
            (x2 + 1, x1 - 1)
        };
        let lifelines: Vec<u16> = trace.actors.iter().map(|a| x_of(a.id)).collect();
        for x in lo..=hi {
            // An arrow crossing another actor's lifeline keeps the lifeline visible.
            let ch = if lifelines.contains(&x) { '┼' } else { '─' };
            buf[(x, y)].set_char(ch).set_style(style);
        }
        let head = match (m.fate, right) {
            (Fate::Dropped, _) => '✗',
            (Fate::InFlight, _) => '…',
            (Fate::Delivered, true) => '▶',
            (Fate::Delivered, false) => '◀',
        };
        let hx = if right { hi } else { lo };
        buf[(hx, y)].set_char(head).set_style(style);
        // The label sits on the arrow, and says when a late message arrives.
        let folded = label.is_some();
        let mut label = label.unwrap_or_else(|| msg_label(&m.msg, trace, self.lang));
        if let Some(r) = m.received_ms
            && r > m.sent_ms + 100
            && !folded
        {
            label.push_str(&format!(" → {}", crate::i18n::sim::seconds(r, self.lang)));
        }
        let room = hi.saturating_sub(lo).saturating_sub(3) as usize;
        if room >= 3 {
            // A folded row keeps its count, whatever of its words has to go.
            let (words, count) = match label.rfind(" ×").filter(|_| folded) {
                Some(at) => label.split_at(at),
                None => (label.as_str(), ""),
            };
            let keep = room.saturating_sub(2 + crate::text::width(count));
            let text = format!(" {}{count} ", super::clip_cols(words, keep));
            let w = crate::text::width(&text) as u16;
            let x = lo + 1 + (hi - lo - 1).saturating_sub(w) / 2;
            if x + w <= area.right() {
                buf.set_stringn(x, y, &text, w as usize, style);
            }
        }
    }
}
