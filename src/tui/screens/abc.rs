//! The A/B/C queue: one lane per client and for the service and the resource, a time cursor,
//! the event at the cursor, invariant badges that turn red from their first violation, the
//! wake-ups per release, and the recipe variants that re-run the engine when toggled.

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::Style;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Paragraph, Widget, Wrap};

use super::{colon, line, wrapped};
use crate::engine::params::{AbcParams, OnLoss, Recovery, Registration, WatchMode};
use crate::engine::time::{Millis, fmt_secs};
use crate::engine::trace::{Metrics, Trace};
use crate::engine::{Params, run};
use crate::i18n::{Lang, Ui, describe, invariant_label, ui};
use crate::preset::{Preset, Text};
use crate::tui::theme::Theme;
use crate::tui::timeline::Timeline;
use crate::tui::widgets::lanes::{self, Lanes};

/// A recipe variant the screen can flip.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Variant {
    Watch,
    Recovery,
    Registration,
    Fencing,
    OnLoss,
}

impl Variant {
    pub const ALL: [Variant; 5] = [
        Variant::Watch,
        Variant::Recovery,
        Variant::Registration,
        Variant::Fencing,
        Variant::OnLoss,
    ];

    pub fn flip(self, p: &mut AbcParams) {
        match self {
            Variant::Watch => {
                p.watch = match p.watch {
                    WatchMode::Children => WatchMode::Predecessor,
                    _ => WatchMode::Children,
                }
            }
            Variant::Recovery => {
                p.recovery = match p.recovery {
                    Recovery::Guid => Recovery::Blind,
                    Recovery::Blind => Recovery::Guid,
                }
            }
            Variant::Registration => {
                p.registration = match p.registration {
                    Registration::Atomic => Registration::TwoStep,
                    Registration::TwoStep => Registration::Atomic,
                }
            }
            Variant::Fencing => p.fencing = !p.fencing,
            Variant::OnLoss => {
                p.on_loss = match p.on_loss {
                    OnLoss::Stop => OnLoss::CarryOn,
                    OnLoss::CarryOn => OnLoss::Stop,
                }
            }
        }
    }

    /// The key and the words for this variant's current setting in `p`.
    pub fn describe(self, p: &AbcParams, lang: Lang) -> (char, String) {
        let (key, words) = match self {
            Variant::Watch => (
                'w',
                ui(
                    if p.watch == WatchMode::Children {
                        Ui::WatchHerd
                    } else {
                        Ui::WatchChain
                    },
                    lang,
                )
                .to_string(),
            ),
            Variant::Recovery => (
                'r',
                ui(
                    if p.recovery == Recovery::Guid {
                        Ui::RecoveryGuid
                    } else {
                        Ui::RecoveryBlind
                    },
                    lang,
                )
                .to_string(),
            ),
            Variant::Registration => (
                'a',
                ui(
                    if p.registration == Registration::Atomic {
                        Ui::RegAtomic
                    } else {
                        Ui::RegTwoStep
                    },
                    lang,
                )
                .to_string(),
            ),
            Variant::Fencing => (
                'f',
                format!(
                    "{} {}",
                    ui(Ui::Fencing, lang),
                    ui(if p.fencing { Ui::On } else { Ui::Off }, lang)
                ),
            ),
            Variant::OnLoss => (
                's',
                ui(
                    if p.on_loss == OnLoss::Stop {
                        Ui::LossStop
                    } else {
                        Ui::LossCarryOn
                    },
                    lang,
                )
                .to_string(),
            ),
        };
        (key, words)
    }
}

/// An explorer's counterexample: its name and story, and the same schedule under the correct
/// recipe for compare.
#[derive(Debug, Clone, PartialEq)]
pub struct Story {
    pub name: String,
    pub about: Text,
    pub correct: AbcParams,
}

#[derive(Debug, Clone, PartialEq)]
pub struct AbcState {
    pub presets: Vec<&'static Preset>,
    pub index: usize,
    pub params: AbcParams,
    pub trace: Trace,
    /// The same run with `last` flipped, while comparing.
    pub other: Option<Trace>,
    /// The variant compare flips: the last one toggled, the watch mode at first.
    pub last: Variant,
    /// An explorer's counterexample on show, if any.
    pub story: Option<Story>,
    pub tl: Timeline,
}

fn run_abc(p: &AbcParams) -> Trace {
    run(&Params::Abc(p.clone()))
}

fn preset_params(p: &Preset) -> AbcParams {
    match &p.params {
        Params::Abc(a) => a.clone(),
        _ => AbcParams::default(),
    }
}

impl AbcState {
    /// Opens on the named preset, or the first one.
    pub fn new(presets: Vec<&'static Preset>, name: Option<&str>) -> Self {
        let index = name
            .and_then(|n| presets.iter().position(|p| p.name == n))
            .unwrap_or(0);
        let params = presets
            .get(index)
            .map_or_else(AbcParams::default, |p| preset_params(p));
        let trace = run_abc(&params);
        let mut tl = Timeline::default();
        tl.set_cursor(&trace, 0);
        Self {
            presets,
            index,
            params,
            trace,
            other: None,
            last: Variant::Watch,
            story: None,
            tl,
        }
    }

    pub fn preset(&self) -> Option<&'static Preset> {
        self.presets.get(self.index).copied()
    }

    fn rerun(&mut self) {
        self.trace = run_abc(&self.params);
        if self.other.is_some() {
            self.other = Some(run_abc(&self.flipped()));
        }
        self.tl.refit(&self.trace);
    }

    fn flipped(&self) -> AbcParams {
        if let Some(story) = &self.story {
            return story.correct.clone();
        }
        let mut p = self.params.clone();
        self.last.flip(&mut p);
        p
    }

    pub fn select(&mut self, index: usize) {
        if self.presets.is_empty() {
            return;
        }
        self.index = index % self.presets.len();
        self.story = None;
        self.params = self.preset().map_or_else(AbcParams::default, preset_params);
        self.tl = Timeline::default();
        self.rerun();
    }

    /// Shows an explorer's counterexample; compare (`c`) runs the same schedule under the
    /// correct recipe.
    pub fn open_counterexample(&mut self, params: AbcParams, name: String, about: Text) {
        let correct = crate::explore::counterexample::correct_twin(&params);
        self.open_params(params);
        self.story = Some(Story {
            name,
            about,
            correct,
        });
    }

    /// Shows a run with these exact parameters (a model question's), keeping the preset list.
    pub fn open_params(&mut self, params: AbcParams) {
        self.story = None;
        self.params = params;
        self.other = None;
        self.tl = Timeline::default();
        self.rerun();
    }

    pub fn cycle(&mut self, dir: i8) {
        let n = self.presets.len().max(1) as i64;
        let i = (self.index as i64 + i64::from(dir)).rem_euclid(n) as usize;
        self.select(i);
    }

    pub fn toggle(&mut self, v: Variant) {
        v.flip(&mut self.params);
        self.last = v;
        self.rerun();
    }

    pub fn compare(&self) -> bool {
        self.other.is_some()
    }

    pub fn toggle_compare(&mut self) {
        self.other = match self.other {
            Some(_) => None,
            None => Some(run_abc(&self.flipped())),
        };
    }

    pub fn click(&mut self, area: Rect, col: u16, row: u16) {
        let lay = layout(area, self.trace.lanes.len() as u16, self.compare());
        for lanes_area in [Some(lay.lanes), lay.lanes2].into_iter().flatten() {
            if lanes_area.contains((col, row).into()) && col >= lanes::track(lanes_area).x {
                self.tl.playing = false;
                let t = lanes::time_at(lanes::track(lanes_area), self.end_ms(), col);
                self.tl.set_cursor(&self.trace, t);
            }
        }
    }

    /// Both runs share one cursor, so the axis spans the longer of the two.
    pub fn end_ms(&self) -> Millis {
        self.other
            .as_ref()
            .map_or(self.trace.end_ms, |o| o.end_ms.max(self.trace.end_ms))
    }
}

pub struct AbcLayout {
    pub title: Rect,
    pub about: Rect,
    pub lanes: Rect,
    pub caption2: Option<Rect>,
    pub lanes2: Option<Rect>,
    pub children: Rect,
    pub event: Rect,
    pub badges: Rect,
    pub wakeups: Rect,
    pub recipe: Rect,
    pub footer: Rect,
}

pub fn layout(area: Rect, lane_count: u16, compare: bool) -> AbcLayout {
    let mut y = area.y;
    let mut take = |h: u16| {
        let r = Rect::new(
            area.x,
            y,
            area.width,
            h.min(area.bottom().saturating_sub(y)),
        );
        y = (y + h).min(area.bottom());
        r
    };
    let title = take(1);
    // Comparing on a small terminal: the second run's lanes need the preset's sentence's rows.
    let about = take(if compare && area.height < 30 { 0 } else { 2 });
    let lanes = take(1 + lane_count);
    let (caption2, lanes2) = if compare {
        (Some(take(1)), Some(take(1 + lane_count)))
    } else {
        (None, None)
    };
    let children = take(1);
    let event = take(2);
    let badges = take(2);
    let wakeups = take(1);
    let recipe = take(2);
    let footer = Rect::new(
        area.x,
        area.bottom().saturating_sub(1),
        area.width,
        1.min(area.height),
    );
    AbcLayout {
        title,
        about,
        lanes,
        caption2,
        lanes2,
        children,
        event,
        badges,
        wakeups,
        recipe,
        footer,
    }
}

fn lanes_widget<'a>(
    trace: &'a Trace,
    end: Millis,
    cursor: Millis,
    lang: Lang,
    theme: Theme,
) -> Lanes<'a> {
    let rows = trace
        .lanes
        .iter()
        .map(|l| (crate::export::text::lane_label(trace, l, lang), l))
        .collect();
    Lanes {
        trace,
        rows,
        end_ms: end,
        cursor_ms: cursor,
        danger: None,
        danger_label: String::new(),
        theme,
    }
}

/// Invariant badges: `[ok]` while an invariant holds at the cursor, `[!!]` from its first
/// violation on (so the mono theme still tells them apart).
fn badges<'a>(trace: &Trace, at: Millis, lang: Lang, theme: Theme, only_broken: bool) -> Line<'a> {
    let c = colon(lang);
    let mut spans = vec![Span::raw(format!("{}{c}", ui(Ui::Invariants, lang)))];
    for inv in trace
        .invariants
        .iter()
        .filter(|i| i.check == crate::engine::trace::Check::Always)
    {
        let broken = inv.first_violation_ms().is_some_and(|t| t <= at);
        if only_broken && !broken {
            continue;
        }
        let (mark, style) = if broken {
            ("[!!]", theme.bad())
        } else {
            ("[ok]", theme.good())
        };
        spans.push(Span::styled(
            format!("{mark} {}", invariant_label(inv.name, lang)),
            style,
        ));
        spans.push(Span::raw("  "));
    }
    if spans.len() == 1 {
        spans.push(Span::styled("[ok]", theme.good()));
    }
    Line::from(spans)
}

pub fn render(s: &AbcState, lang: Lang, theme: Theme, area: Rect, buf: &mut Buffer) {
    let lay = layout(area, s.trace.lanes.len() as u16, s.compare());
    let c = colon(lang);
    let cursor = s.tl.cursor_ms;
    let end = s.end_ms();
    let name = match &s.story {
        Some(story) => story.name.as_str(),
        None => s.preset().map_or("-", |p| p.name.as_str()),
    };
    let play = s.tl.status(lang);
    // A counterexample has a name of its own, not a place in the preset list.
    let which = match &s.story {
        Some(_) => name.to_string(),
        None => format!("{} {}/{}", ui(Ui::Preset, lang), name, s.presets.len()),
    };
    line(
        buf,
        lay.title,
        &format!(
            "{}   {which}   {} {} / {} s   {play}",
            ui(Ui::HomeAbc, lang),
            ui(Ui::Cursor, lang),
            fmt_secs(cursor),
            fmt_secs(end),
        ),
        theme.title(),
    );
    let about = match &s.story {
        Some(story) => Some(&story.about),
        None => s.preset().map(|p| &p.about),
    };
    if let Some(about) = about {
        wrapped(buf, lay.about, lang.pick(&about.zh, &about.en), theme.dim());
    }
    lanes_widget(&s.trace, end, cursor, lang, theme).render(lay.lanes, buf);
    if let (Some(cap), Some(l2), Some(other)) = (lay.caption2, lay.lanes2, &s.other) {
        let mut flipped = s.params.clone();
        s.last.flip(&mut flipped);
        let (_, words) = s.last.describe(&flipped, lang);
        let text = match &s.story {
            Some(_) => format!(
                "{}{c}{}",
                ui(Ui::Compare, lang),
                crate::i18n::explore::compare_caption(lang)
            ),
            None => format!(
                "{}{c}{}",
                ui(Ui::Compare, lang),
                ui(Ui::Flipped, lang).replace("{}", &words)
            ),
        };
        let l = badges(other, cursor, lang, theme, true);
        line(buf, cap, &text, theme.title());
        let used = crate::text::width(&text) as u16 + 3;
        if cap.width > used {
            l.render(
                Rect {
                    x: cap.x + used,
                    width: cap.width - used,
                    ..cap
                },
                buf,
            );
        }
        lanes_widget(other, end, cursor, lang, theme).render(l2, buf);
    }
    let children = s
        .trace
        .service_at(cursor)
        .filter(|snap| !snap.children.is_empty())
        .map(|snap| {
            snap.children
                .iter()
                .map(|c| format!("{}{}", c.seq, s.trace.name(c.owner)))
                .collect::<Vec<_>>()
                .join(" ")
        })
        .unwrap_or_else(|| ui(Ui::None, lang).to_string());
    line(
        buf,
        lay.children,
        &format!(
            "{} {}{c}{children}",
            ui(Ui::LaneService, lang),
            ui(Ui::Children, lang)
        ),
        Style::new(),
    );
    let explain = s.tl.current(&s.trace).map_or_else(
        || ui(Ui::NothingYet, lang).to_string(),
        |e| format!("{} s  {}", fmt_secs(e.at_ms), describe(e, &s.trace, lang)),
    );
    wrapped(buf, lay.event, &explain, Style::new());
    Paragraph::new(badges(&s.trace, cursor, lang, theme, false))
        .wrap(Wrap { trim: true })
        .render(lay.badges, buf);
    if let Metrics::Abc(m) = &s.trace.metrics {
        let list: Vec<String> = m.wakeups_per_release.iter().map(u32::to_string).collect();
        let list = if list.is_empty() {
            ui(Ui::None, lang).to_string()
        } else {
            list.join(", ")
        };
        line(
            buf,
            lay.wakeups,
            &format!("{}{c}[{list}]", ui(Ui::Wakeups, lang)),
            Style::new(),
        );
    }
    let recipe: Vec<String> = Variant::ALL
        .iter()
        .map(|v| {
            let (k, words) = v.describe(&s.params, lang);
            format!("[{k}] {words}")
        })
        .collect();
    wrapped(buf, lay.recipe, &recipe.join("  "), theme.title());
    line(buf, lay.footer, ui(Ui::FooterAbc, lang), theme.dim());
}
