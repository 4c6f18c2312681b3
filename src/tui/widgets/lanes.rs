//! Lanes: one bar per actor over a window of the run, as solid spans with the state written
//! inside when it fits, markers on the bar's lower half, the danger, blind and disconnected
//! windows as a band, and the shared time cursor. Nothing after `shown_until` is drawn, so a
//! learner can predict before seeing.
//!
//! The geometry helpers (`track`, `time_at`, `col_of`) are shared with mouse hit-testing, so a
//! click lands on exactly the instant the column shows.

use ratatui::buffer::Buffer;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::style::{Color, Modifier, Style};
use ratatui::widgets::Widget;

use crate::engine::time::{Millis, fmt_secs};
use crate::engine::trace::{Lane, SpanState, Trace, WindowKind};
use crate::i18n::Lang;
use crate::i18n::lab::{Lab, lab};
use crate::i18n::sim::{state_label, state_label_brief, state_name};
use crate::tui::theme::{Class, Colour, Mark, Theme};
use crate::tui::widgets::markers::markers;

/// Columns kept for the lane labels.
pub const LABEL_COLS: u16 = 12;

/// The columns that show time inside a lanes area.
pub fn track(area: Rect) -> Rect {
    let label = LABEL_COLS.min(area.width);
    Rect::new(area.x + label, area.y, area.width - label, area.height)
}

/// The instant shown by column `col` (absolute) of a track showing `[from, to]`, clamped.
pub fn time_at(track: Rect, (from, to): (Millis, Millis), col: u16) -> Millis {
    if track.width == 0 {
        return from;
    }
    let i = col.saturating_sub(track.x).min(track.width - 1) as u64;
    from + (to - from) * i / track.width as u64
}

/// The column (relative to the track) whose time slot contains `t`, if `t` is in the window.
pub fn col_of(track: Rect, (from, to): (Millis, Millis), t: Millis) -> Option<u16> {
    if track.width == 0 || t < from || t > to {
        return None;
    }
    let span = (to - from).max(1);
    let i = ((t - from) as u128 * track.width as u128 / span as u128) as u16;
    Some(i.min(track.width - 1))
}

/// Two compared runs in one area: the first run's lanes, a caption row naming the second run,
/// then the second run's lanes. The first gets the odd row.
pub fn compare_areas(main: Rect) -> (Rect, Rect, Rect) {
    let rest = main.height.saturating_sub(1);
    let [first, caption, second] = Layout::vertical([
        Constraint::Length(rest - rest / 2),
        Constraint::Length(1),
        Constraint::Fill(1),
    ])
    .areas(main);
    (first, caption, second)
}

/// The lanes' area of a lab screen: all of `main` for one run, else split as
/// [`compare_areas`] does, with the caption and the second run's lanes.
pub fn lane_areas(main: Rect, compare: bool) -> (Rect, Option<Rect>, Option<Rect>) {
    if compare {
        let (first, caption, second) = compare_areas(main);
        (first, Some(caption), Some(second))
    } else {
        (main, None, None)
    }
}

/// How many rows a lanes area of `lanes` lanes needs at `per` rows per lane.
pub fn height(lanes: usize, per: u16, axis: bool, band: bool) -> u16 {
    u16::from(axis) + lanes as u16 * per + u16::from(band)
}

pub struct Lanes<'a> {
    pub trace: &'a Trace,
    pub rows: Vec<(String, &'a Lane)>,
    /// The part of the run the axis shows.
    pub window: (Millis, Millis),
    pub cursor_ms: Millis,
    /// Nothing after this instant is drawn.
    pub shown_until: Millis,
    /// Draw all of the `shown_until` instant, every column that shows it, rather than stop at
    /// the cursor's column: an answered question shows the millisecond it asked about.
    pub through: bool,
    /// Where two compared runs part, marked on every lane.
    pub differs_at: Option<Millis>,
    pub axis: bool,
    /// At most this many rows per lane.
    pub max_per_lane: u16,
    /// An overview strip of the whole run above the axis while the window shows only part.
    pub overview: bool,
    /// A track per invariant under the lanes, where rows are left for them.
    pub tracks: bool,
    pub lang: Lang,
    pub theme: Theme,
}

impl<'a> Lanes<'a> {
    /// Every lane of `trace`, labelled as the text report labels them.
    pub fn of(trace: &'a Trace, lang: Lang, theme: Theme) -> Self {
        let rows = trace
            .lanes
            .iter()
            .map(|l| (crate::export::text::lane_label(trace, l, lang), l))
            .collect();
        Lanes {
            trace,
            rows,
            window: (0, trace.end_ms),
            cursor_ms: 0,
            shown_until: trace.end_ms,
            through: false,
            differs_at: None,
            axis: true,
            max_per_lane: 3,
            overview: false,
            tracks: false,
            lang,
            theme,
        }
    }

    /// Whether this trace has a band row (danger, blind or disconnected windows).
    pub fn has_band(trace: &Trace) -> bool {
        !trace.windows.is_empty()
    }

    fn per_lane(&self, h: u16) -> u16 {
        let fixed = u16::from(self.axis) + u16::from(Self::has_band(self.trace));
        let n = self.rows.len().max(1) as u16;
        (h.saturating_sub(fixed) / n).clamp(1, self.max_per_lane.max(1))
    }

    /// The rows these lanes would like beside their own: the overview strip while zoomed and a
    /// track per invariant. A layout adds them so that the strip and the tracks do not take
    /// their rows from the lanes.
    pub fn extra_rows(&self) -> u16 {
        (usize::from(self.overview && self.zoomed()) + self.tracks_wanted()) as u16
    }

    /// The rows these lanes draw on in an area `h` rows high (what is left stays blank).
    pub fn used_height(&self, h: u16) -> u16 {
        let plan = self.plan(h);
        (height(
            self.rows.len(),
            plan.per,
            self.axis,
            Self::has_band(self.trace),
        ) + u16::from(plan.overview)
            + plan.tracks as u16)
            .min(h)
    }
}

/// Whether the axis counts milliseconds: a run that lasts less than a second (Snowflake's)
/// would otherwise read 0.001, 0.002, ... in seconds.
pub fn in_millis(trace: &Trace) -> bool {
    trace.end_ms < crate::export::text::SHORT_RUN_MS
}

/// An axis label for `t`, in the axis's unit.
fn tick_label(t: Millis, millis: bool) -> String {
    if millis { t.to_string() } else { fmt_secs(t) }
}

/// A tick step that leaves room for each label (in the axis's unit).
fn tick_step(span: Millis, cols: u16, millis: bool) -> Millis {
    const STEPS: [Millis; 17] = [
        1, 2, 5, 10, 20, 50, 100, 200, 500, 1_000, 2_000, 5_000, 10_000, 20_000, 30_000, 60_000,
        120_000,
    ];
    STEPS
        .into_iter()
        .find(|s| {
            let label = tick_label(*s, millis).len() as u64 + 3;
            span / s * label <= u64::from(cols.max(1))
        })
        .unwrap_or(300_000)
}

/// A span's label split over two rows, for the states that have such a form.
fn two_line_label(state: SpanState, lang: Lang) -> Option<(String, String)> {
    match state {
        SpanState::Snowflake(s) => crate::i18n::snowflake::state_label_lines(s, lang),
        _ => None,
    }
}

/// Writes `text` at `(x, y)` if it fits before `right`, keeping `style`.
fn put(buf: &mut Buffer, x: u16, y: u16, right: u16, text: &str, style: Style) -> bool {
    let w = crate::text::width(text) as u16;
    if x + w > right {
        return false;
    }
    buf.set_stringn(x, y, text, w as usize, style);
    true
}

/// Where a lanes area puts its rows: the overview strip, the axis, the lanes, the band and the
/// invariant tracks, top to bottom.
struct Plan {
    overview: bool,
    per: u16,
    tracks: usize,
}

/// The columns of one drawing: the track, the window it shows and what stays hidden.
struct Cols {
    tr: Rect,
    win: (Millis, Millis),
    until: Millis,
    /// No column after this one is drawn (several can show the cursor's millisecond).
    last_x: Option<u16>,
    /// Every lane's markers, as seen from the cursor.
    marks: Vec<crate::tui::widgets::markers::Marker>,
}

impl Cols {
    /// Whether column `x`, showing instant `at`, is after what may be shown.
    fn hidden(&self, x: u16, at: Millis) -> bool {
        at > self.until || self.last_x.is_some_and(|l| x > l)
    }

    fn time_at(&self, x: u16) -> Millis {
        time_at(self.tr, self.win, x)
    }

    fn col(&self, t: Millis) -> Option<u16> {
        col_of(self.tr, self.win, t)
    }
}

impl Lanes<'_> {
    /// The invariants that get a track: every "always" check, each one a property a learner
    /// can watch break. ("Sometimes" checks say whether a run exercised anything, not when a
    /// property failed.)
    fn tracked(&self) -> Vec<&crate::engine::trace::InvariantReport> {
        self.trace
            .invariants
            .iter()
            .filter(|i| i.check == crate::engine::trace::Check::Always)
            .collect()
    }

    /// Whether the window shows only part of the run, so an overview strip says which part.
    fn zoomed(&self) -> bool {
        self.window.0 > 0 || self.window.1 < self.trace.end_ms
    }

    /// The rows for an area `h` high. The lanes come first: the overview and the tracks take
    /// rows the lanes leave, or one row a lane from lanes of three rows or more.
    fn plan(&self, h: u16) -> Plan {
        let want = usize::from(self.overview && self.zoomed()) + self.tracks_wanted();
        let base = |per: u16| height(self.rows.len(), per, self.axis, Self::has_band(self.trace));
        let mut per = self.per_lane(h);
        let spare = |per: u16| usize::from(h.saturating_sub(base(per)));
        if spare(per) < want && per >= 3 {
            per -= 1;
        }
        let mut room = spare(per);
        let overview = self.overview && self.zoomed() && room > 0;
        room -= usize::from(overview);
        Plan {
            overview,
            per,
            tracks: self.tracks_wanted().min(room),
        }
    }

    fn tracks_wanted(&self) -> usize {
        if self.tracks { self.tracked().len() } else { 0 }
    }

    /// The overview strip: the whole run on one row, the window shown below it in bright
    /// rule, the rest faint, the cursor as on the axis.
    fn draw_overview(&self, area: Rect, y: u16, buf: &mut Buffer) {
        let tr = track(area);
        let whole = (0, self.trace.end_ms.max(1));
        let dim = self.theme.dim();
        buf.set_stringn(
            area.x,
            y,
            lab(Lab::Overview, self.lang),
            (LABEL_COLS - 1) as usize,
            dim,
        );
        let (from, to) = self.window;
        for x in tr.x..tr.right() {
            let at = time_at(tr, whole, x);
            let next = time_at(tr, whole, x + 1).max(at + 1);
            let inside = next > from && at <= to;
            let (ch, st) = if inside {
                ('━', self.theme.title())
            } else {
                ('─', dim)
            };
            buf[(x, y)].set_char(ch).set_style(st);
        }
        if let Some(c) = col_of(tr, whole, self.cursor_ms) {
            buf[(tr.x + c, y)]
                .set_char('▼')
                .set_style(self.theme.cursor_line());
        }
    }

    /// The axis: a label every "nice" step; where compared runs part; the cursor never covers
    /// a label.
    fn draw_axis(&self, area: Rect, y: u16, cols: &Cols, buf: &mut Buffer) {
        let (tr, (from, to)) = (cols.tr, cols.win);
        let dim = self.theme.dim();
        let millis = in_millis(self.trace);
        let step = tick_step(to - from, tr.width, millis);
        let mut t = from.div_ceil(step) * step;
        while t <= to {
            if let Some(c) = cols.col(t) {
                put(
                    buf,
                    tr.x + c,
                    y,
                    tr.right(),
                    &format!("╵{}", tick_label(t, millis)),
                    dim,
                );
            }
            t += step;
        }
        let unit = if millis {
            self.lang.pick("毫秒", "ms")
        } else {
            self.lang.pick("秒", "s")
        };
        buf.set_stringn(area.x, y, unit, 4, dim);
        // Where compared runs part: ◇ on the axis, over a tick or a label's digit if one
        // falls there (the instant matters more than one digit of a label).
        if let Some(c) = self.differs_at.and_then(|d| cols.col(d)) {
            buf[(tr.x + c, y)]
                .set_char(Mark::Differs.glyph())
                .set_style(self.theme.marker(Mark::Differs));
        }
        if let Some(c) = cols.col(self.cursor_ms) {
            let cell = &mut buf[(tr.x + c, y)];
            if cell.symbol() == " " {
                cell.set_char('▼').set_style(self.theme.cursor_line());
            } else {
                cell.set_style(cell.style().add_modifier(Modifier::REVERSED));
            }
        }
    }

    /// One lane's bars, column by column, `per` rows from `y`: the upper rows solid, the
    /// lower half-row carrying the danger window's tint.
    fn draw_bars(&self, lane: &Lane, y: u16, per: u16, bottom: u16, cols: &Cols, buf: &mut Buffer) {
        let theme = self.theme;
        let dim = theme.dim();
        let bars = if per == 1 { 1 } else { per - 1 };
        let danger = self.trace.danger().map(|w| (w.from_ms, w.to_ms));
        for x in cols.tr.x..cols.tr.right() {
            let at = cols.time_at(x);
            if cols.hidden(x, at) {
                break;
            }
            let Some(span) = lane.span_at(at) else {
                continue;
            };
            let class = Class::of(span.state);
            // A released lane is quiet: dots on its lower half only (all rows in mono, where
            // the dots are what tells it from an idle one).
            let fill = if theme.mono || class.textured() {
                class.glyph()
            } else {
                ' '
            };
            let bar = if class == Class::Released {
                dim
            } else {
                theme.fill(class)
            };
            for dy in 0..bars {
                if y + dy < bottom {
                    buf[(x, y + dy)].set_char(fill).set_style(bar);
                }
            }
            let ly = y + bars;
            if per > 1 && ly < bottom {
                let (ch, mut st) = match (theme.mono, class.colour()) {
                    (false, Some(_)) => ('▀', theme.bar_lower(class)),
                    (false, None) if class == Class::Released => ('·', dim),
                    _ => (class.glyph(), bar),
                };
                if !theme.mono && danger.is_some_and(|(f, t)| at >= f && at < t) {
                    st = st.bg(Color::Indexed(52));
                }
                buf[(x, ly)].set_char(ch).set_style(st);
            }
        }
    }

    /// The state written inside each span wide enough to hold it; returns the columns the
    /// words cover, which markers on a one-row lane leave alone.
    fn draw_span_labels(
        &self,
        lane: &Lane,
        y: u16,
        bars: u16,
        cols: &Cols,
        buf: &mut Buffer,
    ) -> Vec<(u16, u16)> {
        let theme = self.theme;
        let (tr, (from, to)) = (cols.tr, cols.win);
        let mut label_cells: Vec<(u16, u16)> = Vec::new();
        for span in &lane.spans {
            let s0 = span.start_ms.max(from);
            let s1 = span
                .end_ms
                .min(to)
                .min(cols.until + u64::from(self.through));
            if s1 <= s0 {
                continue;
            }
            let (Some(c0), Some(c1)) = (cols.col(s0), cols.col(s1)) else {
                continue;
            };
            let room = c1.saturating_sub(c0) as usize;
            let class = Class::of(span.state);
            if class == Class::Nothing {
                continue;
            }
            let full = state_label(span.state, self.trace, self.lang);
            let short = state_name(span.state, self.lang);
            let style = if theme.mono {
                Style::new().add_modifier(Modifier::BOLD)
            } else if class == Class::Released {
                theme.dim()
            } else {
                theme.bar(class)
            };
            // A label that has a two-row form (an ID's millisecond above its worker and
            // sequence) takes it whenever the bar has two rows, so neighbouring spans read
            // alike whatever their width.
            let fits = |t: &str| crate::text::width(t) + 2 <= room;
            if bars >= 2
                && let Some((top, bottom)) = two_line_label(span.state, self.lang)
                && [&top, &bottom].iter().all(|t| crate::text::width(t) < room)
            {
                let x = tr.x + c0 + 1;
                put(buf, x, y, tr.right(), &top, style);
                put(buf, x, y + 1, tr.right(), &bottom, style);
                let w = crate::text::width(&top).max(crate::text::width(&bottom)) as u16;
                label_cells.push((x, x + w));
                continue;
            }
            let brief = state_label_brief(span.state, self.trace, self.lang);
            let text = [Some(full.as_str()), brief.as_deref(), Some(short)]
                .into_iter()
                .flatten()
                .find(|t| fits(t));
            if let Some(text) = text {
                if put(buf, tr.x + c0 + 1, y, tr.right(), text, style) {
                    let w = crate::text::width(text) as u16;
                    label_cells.push((tr.x + c0 + 1, tr.x + c0 + 1 + w));
                }
                if theme.mono {
                    // A space either side so the words stand clear of the fill.
                    buf[(tr.x + c0, y)].set_char(' ');
                    let end = tr.x + c0 + 1 + crate::text::width(text) as u16;
                    if end < tr.right() {
                        buf[(end, y)].set_char(' ');
                    }
                }
            }
        }
        label_cells
    }

    /// A lane's markers on row `my` (its lower half, or the bar itself on a one-row lane),
    /// with ◇ where compared runs part drawn first so a write's judgement stays on top.
    fn draw_marks(
        &self,
        lane: &Lane,
        my: u16,
        one_row: bool,
        label_cells: &[(u16, u16)],
        cols: &Cols,
        buf: &mut Buffer,
    ) {
        let theme = self.theme;
        let tr = cols.tr;
        if let Some(c) = self.differs_at.and_then(|d| cols.col(d)) {
            buf[(tr.x + c, my)]
                .set_char(Mark::Differs.glyph())
                .set_style(theme.marker(Mark::Differs));
        }
        // On a one-row lane the words win over all but the writes.
        let on_label = |x: u16| one_row && label_cells.iter().any(|(a, b)| x >= *a && x < *b);
        for m in cols.marks.iter().filter(|m| m.actor == lane.actor) {
            if m.at_ms > cols.until && !m.known_ahead {
                continue;
            }
            let Some(c) = cols.col(m.at_ms) else {
                continue;
            };
            let x = tr.x + c;
            let write = matches!(
                m.mark,
                Mark::WriteOk | Mark::WriteRefused | Mark::WriteStale
            );
            if on_label(x) && !write {
                continue;
            }
            buf[(x, my)]
                .set_char(m.mark.glyph())
                .set_style(theme.marker(m.mark));
            if let Some(text) = &m.text {
                let w = crate::text::width(text) as u16;
                if !(x + 1..x + 1 + w).any(on_label) {
                    put(buf, x + 1, my, tr.right(), text, theme.marker(m.mark));
                }
            }
        }
    }

    /// The band: danger, blind and disconnected windows, labelled where they start.
    fn draw_band(&self, area: Rect, y: u16, cols: &Cols, buf: &mut Buffer) {
        let theme = self.theme;
        let tr = cols.tr;
        let until = cols.until;
        let mut label_done = false;
        for w in &self.trace.windows {
            let (ch, style, text, side) = match w.kind {
                // Its length only once its end is shown: it ends when the stale write
                // arrives, which is the outcome a learner is predicting.
                WindowKind::Danger if w.to_ms > until + u64::from(self.through) => (
                    '━',
                    theme.danger_band(),
                    lab(Lab::DangerBandOpen, self.lang).to_string(),
                    crate::i18n::ui(crate::i18n::Ui::LaneDanger, self.lang).to_string(),
                ),
                WindowKind::Danger => (
                    '━',
                    theme.danger_band(),
                    lab(Lab::DangerBand, self.lang).replace("{}", &fmt_secs(w.to_ms - w.from_ms)),
                    crate::i18n::ui(crate::i18n::Ui::LaneDanger, self.lang).to_string(),
                ),
                WindowKind::Blind { client } => (
                    '┅',
                    theme.blind_band(),
                    lab(Lab::BlindBand, self.lang).replace("{}", self.trace.name(client)),
                    String::new(),
                ),
                WindowKind::Disconnected { client } => (
                    '┈',
                    theme.blind_band(),
                    lab(Lab::AwayBand, self.lang).replace("{}", self.trace.name(client)),
                    String::new(),
                ),
            };
            if w.from_ms > until {
                continue;
            }
            let mut first = None;
            for x in tr.x..tr.right() {
                let at = cols.time_at(x);
                if at >= w.from_ms && at < w.to_ms && !cols.hidden(x, at) {
                    first.get_or_insert(x);
                    buf[(x, y)].set_char(ch).set_style(style);
                }
            }
            if let Some(x) = first {
                put(buf, x, y, tr.right(), &format!(" {text} "), style);
            }
            if !label_done && !side.is_empty() {
                buf.set_stringn(area.x, y, &side, (LABEL_COLS - 1) as usize, style);
                label_done = true;
            }
        }
    }

    /// One invariant's track: a thin rule, green while it holds and red from the instant it
    /// first fails, up to what may be shown; its name written where the window starts.
    fn draw_track(
        &self,
        area: Rect,
        y: u16,
        inv: &crate::engine::trace::InvariantReport,
        first: bool,
        cols: &Cols,
        buf: &mut Buffer,
    ) {
        let theme = self.theme;
        let tr = cols.tr;
        if first {
            buf.set_stringn(
                area.x,
                y,
                lab(Lab::TrackSide, self.lang),
                (LABEL_COLS - 1) as usize,
                theme.dim(),
            );
        }
        let broke = inv.first_violation_ms();
        let mut drawn_to = None;
        for x in tr.x..tr.right() {
            let at = cols.time_at(x);
            if cols.hidden(x, at) {
                break;
            }
            let broken = broke.is_some_and(|b| at >= b);
            let (ch, st) = match (broken, theme.mono) {
                (true, true) => ('━', Style::new().add_modifier(Modifier::BOLD)),
                (true, false) => ('━', theme.bad()),
                (false, true) => ('─', Style::new()),
                (false, false) => ('─', theme.good()),
            };
            buf[(x, y)].set_char(ch).set_style(st);
            drawn_to = Some(x);
        }
        // Where it broke, a mark that reads without colour.
        if let Some(c) = broke.and_then(|b| cols.col(b))
            && drawn_to.is_some_and(|d| d >= tr.x + c)
        {
            buf[(tr.x + c, y)].set_char('✗').set_style(theme.bad());
        }
        // Its name always shows, as a lane's does; in the colour of the window's first
        // instant once that is drawn.
        let name = format!(" {} ", crate::i18n::invariant_label(inv.name, self.lang));
        let st = match drawn_to {
            None => theme.dim(),
            Some(_) if broke.is_some_and(|b| cols.time_at(tr.x) >= b) => theme.bad(),
            Some(_) => theme.good(),
        };
        put(buf, tr.x + 1, y, tr.right(), &name, st);
    }

    /// The cursor: a light line down every row from `top` to `bottom`, over bars and markers
    /// alike. A bar's lower half-row (the gap to the next lane) is left as it is: reverse
    /// video there would paint a block of the lane's colour into the next lane, or a white
    /// block on an empty one.
    fn draw_cursor(
        &self,
        top: u16,
        bottom: u16,
        lower_rows: &[u16],
        cols: &Cols,
        buf: &mut Buffer,
    ) {
        let Some(c) = cols.col(self.cursor_ms) else {
            return;
        };
        let x = cols.tr.x + c;
        for cy in top..bottom {
            let cell = &mut buf[(x, cy)];
            let gap = matches!(cell.symbol(), " " | "▀");
            let plain = gap
                || Class::ALL
                    .iter()
                    .any(|k| cell.symbol().starts_with(k.glyph()));
            if gap && lower_rows.contains(&cy) {
                continue;
            } else if plain && !lower_rows.contains(&cy) {
                let bg = cell.bg;
                cell.set_char('│')
                    .set_style(self.theme.cursor_line().bg(bg));
            } else {
                cell.set_style(cell.style().add_modifier(Modifier::REVERSED));
            }
        }
    }
}

impl Widget for Lanes<'_> {
    fn render(self, area: Rect, buf: &mut Buffer) {
        let area = area.intersection(buf.area);
        if area.height == 0 || area.width <= LABEL_COLS + 2 {
            return;
        }
        let tr = track(area);
        let (from, to) = self.window;
        let win = (from, to.max(from + 1));
        let until = self.shown_until;
        // Several columns can show the same millisecond (a run of a few milliseconds, or a
        // deep zoom): none after the cursor's own column is drawn, or the future would show.
        let last_x = col_of(tr, win, until)
            .filter(|_| !self.through)
            .map(|c| tr.x + c);
        let cols = Cols {
            tr,
            win,
            until,
            last_x,
            marks: markers(self.trace, self.cursor_ms),
        };
        let plan = self.plan(area.height);
        let bottom = area.bottom();
        let mut y = area.y;
        if plan.overview {
            self.draw_overview(area, y, buf);
            y += 1;
        }
        if self.axis && y < bottom {
            self.draw_axis(area, y, &cols, buf);
            y += 1;
        }
        let top = y;
        let per = plan.per;
        let bars = if per == 1 { 1 } else { per - 1 };
        let mut lower_rows = Vec::new();
        for (label, lane) in &self.rows {
            if y >= bottom {
                break;
            }
            buf.set_stringn(
                area.x,
                y,
                label,
                (LABEL_COLS - 1) as usize,
                Style::new().add_modifier(Modifier::BOLD),
            );
            self.draw_bars(lane, y, per, bottom, &cols, buf);
            let label_cells = self.draw_span_labels(lane, y, bars, &cols, buf);
            let my = if per > 1 { y + bars } else { y };
            if my < bottom {
                self.draw_marks(lane, my, per == 1, &label_cells, &cols, buf);
                lower_rows.push(my);
            }
            y += per;
        }
        if Self::has_band(self.trace) && y < bottom {
            self.draw_band(area, y, &cols, buf);
            lower_rows.push(y);
            y += 1;
        }
        for (i, inv) in self.tracked().into_iter().take(plan.tracks).enumerate() {
            if y >= bottom {
                break;
            }
            self.draw_track(area, y, inv, i == 0, &cols, buf);
            lower_rows.push(y);
            y += 1;
        }
        self.draw_cursor(top, y.min(bottom), &lower_rows, &cols, buf);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::params::FrozenParams;
    use crate::engine::{Params, run};

    /// The frozen holder without fencing: A's stale write is accepted, which breaks an
    /// invariant at the instant it lands.
    fn unfenced() -> Trace {
        run(&Params::Frozen(FrozenParams {
            fencing: false,
            ..FrozenParams::default()
        }))
    }

    fn draw(l: Lanes, w: u16, h: u16) -> Buffer {
        let mut buf = Buffer::empty(Rect::new(0, 0, w, h));
        l.render(Rect::new(0, 0, w, h), &mut buf);
        buf
    }

    fn row_text(buf: &Buffer, y: u16) -> String {
        (0..buf.area.width).map(|x| buf[(x, y)].symbol()).collect()
    }

    #[test]
    fn an_invariant_track_turns_red_where_it_first_fails_and_stops_at_the_cursor() {
        let t = unfenced();
        let inv = t
            .invariants
            .iter()
            .find(|i| i.first_violation_ms().is_some())
            .expect("an unfenced stale write breaks an invariant");
        let broke = inv.first_violation_ms().unwrap_or_default();
        let name = crate::i18n::invariant_label(inv.name, Lang::En);
        let mut l = Lanes::of(&t, Lang::En, Theme { mono: false });
        l.tracks = true;
        let (w, h) = (112, 30);
        let buf = draw(l, w, h);
        let y = (0..h)
            .find(|&y| row_text(&buf, y).contains(name))
            .expect("a track names its invariant");
        let tr = track(Rect::new(0, 0, w, h));
        let c = col_of(tr, (0, t.end_ms), broke).expect("in the window");
        let before = &buf[(tr.x + c - 2, y)];
        let after = &buf[(tr.x + c + 2, y)];
        assert_eq!(before.fg, Color::Green, "holds before {broke} ms");
        assert_eq!(after.fg, Color::Red, "broken after {broke} ms");
        assert_eq!(buf[(tr.x + c, y)].symbol(), "✗");
        // With the future hidden before the failure, nothing red is drawn on the track.
        let mut l = Lanes::of(&t, Lang::En, Theme { mono: false });
        l.tracks = true;
        l.cursor_ms = broke - 1;
        l.shown_until = broke - 1;
        let buf = draw(l, w, h);
        assert!(
            (tr.x..tr.right()).all(|x| buf[(x, y)].fg != Color::Red),
            "{}",
            row_text(&buf, y)
        );
    }

    #[test]
    fn a_zoomed_window_gets_an_overview_of_the_whole_run() {
        let t = unfenced();
        let mut l = Lanes::of(&t, Lang::En, Theme { mono: false });
        l.overview = true;
        let (w, h) = (112, 30);
        assert!(
            !row_text(&draw(l, w, h), 0).contains('━'),
            "the whole run needs no overview"
        );
        let mut l = Lanes::of(&t, Lang::En, Theme { mono: false });
        l.overview = true;
        let half = t.end_ms / 2;
        l.window = (half, t.end_ms);
        l.cursor_ms = half;
        let buf = draw(l, w, h);
        let strip = row_text(&buf, 0);
        assert!(strip.starts_with(lab(Lab::Overview, Lang::En)), "{strip}");
        let tr = track(Rect::new(0, 0, w, h));
        // The first half of the run is outside the window, the second half inside.
        assert_eq!(buf[(tr.x + 2, 0)].symbol(), "─", "{strip}");
        assert_eq!(buf[(tr.right() - 2, 0)].symbol(), "━", "{strip}");
        assert_eq!(buf[(tr.x + tr.width / 2, 0)].symbol(), "▼", "{strip}");
    }

    #[test]
    fn click_and_draw_agree_on_time() {
        let tr = Rect::new(12, 0, 80, 5);
        for win in [(0, 40_000), (10_000, 20_000)] {
            for col in 12..92 {
                let t = time_at(tr, win, col);
                assert_eq!(col_of(tr, win, t).map(|c| tr.x + c), Some(col));
            }
        }
        assert_eq!(time_at(tr, (0, 40_000), 0), 0);
        assert_eq!(time_at(tr, (0, 40_000), 500), 40_000 * 79 / 80);
        assert_eq!(col_of(tr, (10_000, 20_000), 5_000), None);
    }

    #[test]
    fn ticks_leave_room_for_their_labels() {
        for span in [260, 1_000, 12_000, 40_000, 600_000] {
            for cols in [60u16, 68, 128, 188] {
                let step = tick_step(span, cols, false);
                let label = fmt_secs(span).len() as u64 + 2;
                assert!(
                    step * u64::from(cols) / span >= label,
                    "span {span} cols {cols}: step {step}"
                );
            }
        }
        assert_eq!(tick_step(40_000, 128, false), 2_000);
    }
}
