//! The legend: each lane class and marker a trace uses, with its swatch or glyph and its name,
//! wrapped over as many rows as it needs. The same words appear in `?` help.

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::Style;
use ratatui::widgets::Widget;

use crate::engine::trace::{Family, Trace};
use crate::i18n::Lang;
use crate::i18n::lab::{Lab, class_name, lab, mark_name};
use crate::tui::theme::{Class, Colour, Mark, Theme};

/// One legend entry: a swatch (two cells) and its words.
#[derive(Debug, Clone, PartialEq)]
pub struct LegendEntry {
    pub swatch: [char; 2],
    pub style: Style,
    pub name: &'static str,
}

/// The classes the lanes of `traces` use, in legend order.
pub fn classes_used(traces: &[&Trace]) -> Vec<Class> {
    Class::ALL
        .into_iter()
        .filter(|c| *c != Class::Nothing)
        .filter(|c| {
            traces.iter().any(|t| {
                t.lanes
                    .iter()
                    .any(|l| l.spans.iter().any(|s| Class::of(s.state) == *c))
            })
        })
        .collect()
}

pub fn class_item(c: Class, theme: Theme, lang: Lang) -> LegendEntry {
    let (swatch, style) = match (theme.mono, c.colour()) {
        (false, Some(_)) if c.textured() => ([c.glyph(), c.glyph()], theme.fill(c)),
        (false, Some(_)) => ([' ', ' '], theme.bar(c)),
        _ => ([c.glyph(), c.glyph()], Style::new()),
    };
    LegendEntry {
        swatch,
        style,
        name: class_name(c, lang),
    }
}

pub fn mark_item(m: Mark, theme: Theme, lang: Lang) -> LegendEntry {
    LegendEntry {
        swatch: [m.glyph(), ' '],
        style: theme.marker(m),
        name: mark_name(m, lang),
    }
}

/// The classes and marks a family's lanes can show, whatever this run does: a legend built
/// from the run would give its ending away before the cursor gets there.
pub fn family_set(family: Family) -> (&'static [Class], &'static [Mark]) {
    match family {
        Family::Frozen => (
            &[
                Class::Holding,
                Class::FrozenHolding,
                Class::Lost,
                Class::Released,
                Class::Waiting,
                Class::ServiceHeld,
                Class::Value,
            ],
            &[
                Mark::WriteOk,
                Mark::WriteRefused,
                Mark::WriteStale,
                Mark::Grant,
                Mark::Keepalive,
                Mark::Deadline,
                Mark::Expired,
            ],
        ),
        Family::Abc => (
            &[
                Class::Holding,
                Class::Waiting,
                Class::Busy,
                Class::Unknown,
                Class::FrozenHolding,
                Class::Frozen,
                Class::Suspended,
                Class::Lost,
                Class::Stuck,
                Class::Crashed,
                Class::Released,
                Class::ServiceHeld,
                Class::Value,
            ],
            &[
                Mark::Grant,
                Mark::Wake,
                Mark::WriteOk,
                Mark::WriteRefused,
                Mark::WriteStale,
                Mark::Expired,
            ],
        ),
        Family::Herd => (&[], &[]),
        Family::Rwlock => (
            &[
                Class::Holding,
                Class::Reading,
                Class::Waiting,
                Class::Busy,
                Class::Stuck,
                Class::Crashed,
                Class::Released,
                Class::ServiceHeld,
            ],
            &[Mark::Grant, Mark::Wake, Mark::Expired],
        ),
        Family::Semaphore => (
            &[
                Class::Holding,
                Class::Waiting,
                Class::Busy,
                Class::Stuck,
                Class::Crashed,
                Class::Released,
                Class::ServiceHeld,
            ],
            &[Mark::Grant, Mark::Wake, Mark::Expired],
        ),
        Family::Election => (
            &[
                Class::Holding,
                Class::FrozenHolding,
                Class::Busy,
                Class::Waiting,
                Class::Lost,
                Class::Released,
                Class::ServiceHeld,
                Class::Value,
            ],
            &[
                Mark::Grant,
                Mark::Wake,
                Mark::WriteOk,
                Mark::WriteRefused,
                Mark::WriteStale,
                Mark::Expired,
            ],
        ),
        Family::Tasks => (
            &[
                Class::Holding,
                Class::FrozenHolding,
                Class::Waiting,
                Class::Lost,
                Class::Stuck,
                Class::Released,
                Class::Value,
                Class::Duplicate,
            ],
            &[Mark::WriteOk, Mark::WriteRefused, Mark::WriteStale],
        ),
        Family::Redlock => (
            &[
                Class::Busy,
                Class::Holding,
                Class::Overdue,
                Class::FrozenHolding,
                Class::Waiting,
                Class::Released,
                Class::Crashed,
                Class::ServiceHeld,
                Class::Value,
            ],
            &[Mark::Grant, Mark::WriteOk, Mark::WriteStale],
        ),
        Family::Etcd => (
            &[
                Class::Busy,
                Class::Waiting,
                Class::Holding,
                Class::FrozenHolding,
                Class::Overdue,
                Class::Lost,
                Class::Released,
                Class::ServiceHeld,
                Class::Value,
            ],
            &[
                Mark::Grant,
                Mark::WriteOk,
                Mark::WriteRefused,
                Mark::WriteStale,
                Mark::Expired,
            ],
        ),
        Family::Snowflake => (
            &[
                Class::Value,
                Class::Duplicate,
                Class::Waiting,
                Class::Refusing,
                Class::Crashed,
            ],
            &[],
        ),
    }
}

/// Classes the run's own plan brings beyond its family's (known before it plays, so they give
/// nothing away): an acquire deadline can leave a node behind.
pub fn planned_classes(params: &crate::engine::Params) -> Vec<Class> {
    match params {
        crate::engine::Params::Abc(p)
            if p.faults
                .iter()
                .any(|f| matches!(f, crate::engine::params::Fault::GiveUp { .. })) =>
        {
            vec![Class::Abandoned]
        }
        _ => Vec::new(),
    }
}

/// The legend of a family's screen, with the classes its plan brings (and ◇ when comparing).
pub fn items(
    traces: &[&Trace],
    planned: &[Class],
    comparing: bool,
    theme: Theme,
    lang: Lang,
) -> Vec<LegendEntry> {
    let family = traces.first().map_or(Family::Frozen, |t| t.family);
    family_items(family, planned, comparing, theme, lang)
}

/// The legend of `family`'s screen: what [`items`] gives for any of its runs.
pub fn family_items(
    family: Family,
    planned: &[Class],
    comparing: bool,
    theme: Theme,
    lang: Lang,
) -> Vec<LegendEntry> {
    let (classes, marks) = family_set(family);
    let mut out: Vec<LegendEntry> = classes
        .iter()
        .chain(planned)
        .map(|c| class_item(*c, theme, lang))
        .collect();
    let mut marks: Vec<Mark> = marks.to_vec();
    if comparing {
        marks.push(Mark::Differs);
    }
    out.extend(marks.into_iter().map(|m| mark_item(m, theme, lang)));
    out
}

fn item_width(i: &LegendEntry) -> u16 {
    3 + crate::text::width(i.name) as u16
}

/// Rows the legend needs at `width`, after its title.
pub fn rows(items: &[LegendEntry], width: u16, lang: Lang) -> u16 {
    let title = crate::text::width(lab(Lab::Legend, lang)) as u16 + 2;
    let mut rows = 1;
    let mut x = title;
    for i in items {
        let w = item_width(i);
        if x + w > width && x > title {
            rows += 1;
            x = title;
        }
        x += w + 2;
    }
    rows
}

/// The legend of what the lanes of `traces` draw up to `shown_until`: for a screen too short
/// for its family's whole legend. Nothing in it is ahead of what the lanes already show.
pub fn drawn_items(
    traces: &[&Trace],
    shown_until: crate::engine::time::Millis,
    comparing: bool,
    theme: Theme,
    lang: Lang,
) -> Vec<LegendEntry> {
    let drawn = |c: Class| {
        traces.iter().any(|t| {
            t.lanes.iter().any(|l| {
                l.spans
                    .iter()
                    .any(|s| s.start_ms <= shown_until && Class::of(s.state) == c)
            })
        })
    };
    let mut out: Vec<LegendEntry> = Class::ALL
        .into_iter()
        .filter(|c| *c != Class::Nothing && drawn(*c))
        .map(|c| class_item(c, theme, lang))
        .collect();
    let marks: Vec<crate::tui::widgets::markers::Marker> = traces
        .iter()
        .flat_map(|t| crate::tui::widgets::markers::markers(t, shown_until))
        .filter(|m| m.known_ahead || m.at_ms <= shown_until)
        .collect();
    out.extend(
        Mark::ALL
            .into_iter()
            .filter(|m| marks.iter().any(|k| k.mark == *m) || (comparing && *m == Mark::Differs))
            .map(|m| mark_item(m, theme, lang)),
    );
    out
}

/// The family's whole legend when it fits in `rows` rows at `width`, else only what the lanes
/// draw so far (`drawn`).
pub fn fitting(
    whole: Vec<LegendEntry>,
    drawn: impl FnOnce() -> Vec<LegendEntry>,
    rows_free: u16,
    width: u16,
    lang: Lang,
) -> Vec<LegendEntry> {
    if rows(&whole, width, lang) <= rows_free {
        whole
    } else {
        drawn()
    }
}

/// Rows `family`'s legend needs at `width` in the language that needs more, so that a screen
/// keeps its layout when the language changes and never drops an entry in either.
pub fn rows_for(family: Family, planned: &[Class], comparing: bool, width: u16) -> u16 {
    [Lang::En, Lang::Zh]
        .into_iter()
        .map(|lang| {
            let items = family_items(family, planned, comparing, Theme::default(), lang);
            if items.is_empty() {
                0
            } else {
                rows(&items, width, lang)
            }
        })
        .max()
        .unwrap_or(0)
}

pub struct Legend<'a> {
    pub items: &'a [LegendEntry],
    pub lang: Lang,
    pub theme: Theme,
}

impl Widget for Legend<'_> {
    fn render(self, area: Rect, buf: &mut Buffer) {
        let area = area.intersection(buf.area);
        if area.height == 0 || area.width < 20 {
            return;
        }
        let title = lab(Lab::Legend, self.lang);
        buf.set_stringn(area.x, area.y, title, area.width as usize, self.theme.dim());
        let left = area.x + crate::text::width(title) as u16 + 2;
        let (mut x, mut y) = (left, area.y);
        for i in self.items {
            let w = item_width(i);
            if x + w > area.right() && x > left {
                y += 1;
                x = left;
            }
            if y >= area.bottom() {
                return;
            }
            for (k, ch) in i.swatch.iter().enumerate() {
                if x + (k as u16) < area.right() {
                    buf[(x + k as u16, y)].set_char(*ch).set_style(i.style);
                }
            }
            let room = area.right().saturating_sub(x + 3) as usize;
            buf.set_stringn(x + 3, y, i.name, room, Style::new());
            x += w + 2;
        }
    }
}
