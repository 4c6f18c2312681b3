//! The A/B/C queue: one lane per client and for the service and the resource, with markers
//! (grants, wake-ups, fired notifications, writes, expiries), the service panel (the lock
//! directory's children and who watches whom, at the cursor), the event at the cursor, invariant
//! badges that turn red from their first violation, the recipe variants that re-run the engine
//! when toggled, and the event log (or the message sequence chart).

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::Style;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Paragraph, Widget, Wrap};

use super::{colon, line, wrapped};
use crate::engine::params::{
    AbcParams, Fault, OnDisconnect, OnLoss, OnTimeout, Recovery, Registration, WatchMode,
};
use crate::engine::time::{Millis, fmt_secs};
use crate::engine::trace::{EventKind, Metrics, Trace};
use crate::engine::{Params, run};
use crate::i18n::lab::{Lab, lab};
use crate::i18n::{Lang, Ui, describe, invariant_label, ui};
use crate::scenario::{Preset, Text};
use crate::tui::app::Msg;
use crate::tui::compare::{Parting, first_difference};
use crate::tui::theme::{Mark, Theme};
use crate::tui::widgets::hints;
use crate::tui::widgets::lanes;
use crate::tui::widgets::legend::{self, Legend};
use crate::tui::widgets::run_view::RunView;
use crate::tui::widgets::service_panel::{self, ServicePanel};

/// A recipe variant the screen can flip.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Variant {
    Watch,
    Recovery,
    Registration,
    Fencing,
    OnDisconnect,
    OnLoss,
    /// What an acquire that times out does with its node.
    OnTimeout,
}

impl Variant {
    pub const ALL: [Variant; 7] = [
        Variant::Watch,
        Variant::Recovery,
        Variant::Registration,
        Variant::Fencing,
        Variant::OnDisconnect,
        Variant::OnLoss,
        Variant::OnTimeout,
    ];

    /// The parameter's key in preset files (for locks).
    pub fn key(self) -> &'static str {
        match self {
            Variant::Watch => "watch",
            Variant::Recovery => "recovery",
            Variant::Registration => "registration",
            Variant::Fencing => "fencing",
            Variant::OnDisconnect => "on_disconnect",
            Variant::OnLoss => "on_loss",
            Variant::OnTimeout => "on_timeout",
        }
    }

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
            Variant::OnDisconnect => {
                p.on_disconnect = match p.on_disconnect {
                    OnDisconnect::Suspend => OnDisconnect::CarryOn,
                    OnDisconnect::CarryOn => OnDisconnect::Suspend,
                }
            }
            Variant::OnLoss => {
                p.on_loss = match p.on_loss {
                    OnLoss::Stop => OnLoss::CarryOn,
                    OnLoss::CarryOn => OnLoss::Stop,
                }
            }
            Variant::OnTimeout => {
                p.on_timeout = match p.on_timeout {
                    OnTimeout::DeleteNode => OnTimeout::Forget,
                    OnTimeout::Forget => OnTimeout::DeleteNode,
                }
            }
        }
    }

    /// The setting a preset teaches, for compare to flip first: a setting the preset changed
    /// from the default, else the one its fault is about, else the watch.
    pub fn taught(p: &AbcParams, trace: &Trace) -> Variant {
        let d = AbcParams::default();
        if p.recovery != d.recovery {
            return Variant::Recovery;
        }
        if p.registration != d.registration {
            return Variant::Registration;
        }
        if p.fencing != d.fencing {
            return Variant::Fencing;
        }
        if p.on_loss != d.on_loss {
            return Variant::OnLoss;
        }
        if p.on_disconnect != d.on_disconnect {
            return Variant::OnDisconnect;
        }
        if p.on_timeout != d.on_timeout {
            return Variant::OnTimeout;
        }
        let learned_expiry = trace
            .events
            .iter()
            .any(|e| e.kind == EventKind::LearnedSessionExpired);
        for f in &p.faults {
            match f {
                Fault::DropCreateResponse { .. } => return Variant::Recovery,
                Fault::DeleteBetween { .. } => return Variant::Registration,
                Fault::Freeze { .. } => return Variant::Fencing,
                Fault::Disconnect { .. } if learned_expiry => return Variant::OnLoss,
                Fault::Disconnect { .. } => return Variant::OnDisconnect,
                Fault::GiveUp { .. } => return Variant::OnTimeout,
                Fault::Crash { .. } => {}
            }
        }
        Variant::Watch
    }

    /// Why flipping this variant can leave a run unchanged.
    pub fn why_same(self) -> Lab {
        match self {
            Variant::Watch => Lab::WhyWatch,
            Variant::Recovery => Lab::WhyRecovery,
            Variant::Registration => Lab::WhyRegistration,
            Variant::Fencing => Lab::WhyFencing,
            Variant::OnDisconnect => Lab::WhyOnDisconnect,
            Variant::OnLoss => Lab::WhyOnLoss,
            Variant::OnTimeout => Lab::WhyOnTimeout,
        }
    }

    /// The key and the words for this variant's current setting in `p`.
    pub fn describe(self, p: &AbcParams, lang: Lang) -> (char, String) {
        let u = |t| ui(t, lang).to_string();
        match self {
            Variant::Watch => (
                'w',
                u(if p.watch == WatchMode::Children {
                    Ui::WatchHerd
                } else {
                    Ui::WatchChain
                }),
            ),
            Variant::Recovery => (
                'r',
                u(if p.recovery == Recovery::Guid {
                    Ui::RecoveryGuid
                } else {
                    Ui::RecoveryBlind
                }),
            ),
            Variant::Registration => (
                'a',
                u(if p.registration == Registration::Atomic {
                    Ui::RegAtomic
                } else {
                    Ui::RegTwoStep
                }),
            ),
            Variant::Fencing => (
                'f',
                format!(
                    "{} {}",
                    ui(Ui::Fencing, lang),
                    ui(if p.fencing { Ui::On } else { Ui::Off }, lang)
                ),
            ),
            Variant::OnDisconnect => (
                'd',
                lab(
                    if p.on_disconnect == OnDisconnect::Suspend {
                        Lab::DiscSuspend
                    } else {
                        Lab::DiscCarryOn
                    },
                    lang,
                )
                .to_string(),
            ),
            Variant::OnLoss => (
                's',
                u(if p.on_loss == OnLoss::Stop {
                    Ui::LossStop
                } else {
                    Ui::LossCarryOn
                }),
            ),
            Variant::OnTimeout => (
                't',
                lab(
                    if p.on_timeout == OnTimeout::DeleteNode {
                        Lab::TimeoutDelete
                    } else {
                        Lab::TimeoutForget
                    },
                    lang,
                )
                .to_string(),
            ),
        }
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
    pub parting: Option<Parting>,
    /// The variant compare flips: the last one toggled, at first the one the preset teaches.
    pub last: Variant,
    /// An explorer's counterexample on show, if any.
    pub story: Option<Story>,
    pub view: RunView,
    /// Settings the preset locked.
    pub locked: Vec<String>,
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
        let mut view = RunView::default();
        view.tl.set_cursor(&trace, 0);
        let last = Variant::taught(&params, &trace);
        let locked = presets
            .get(index)
            .map_or_else(Vec::new, |p| p.locked.clone());
        Self {
            presets,
            index,
            params,
            trace,
            other: None,
            parting: None,
            last,
            story: None,
            view,
            locked,
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
        self.refresh_parting();
        self.view.tl.refit(&self.trace);
    }

    fn refresh_parting(&mut self) {
        self.parting = self
            .other
            .as_ref()
            .and_then(|o| first_difference(&self.trace, o));
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
        self.locked = self.preset().map_or_else(Vec::new, |p| p.locked.clone());
        self.view.tl = Default::default();
        self.view.notice = None;
        self.rerun();
        self.last = Variant::taught(&self.params, &self.trace);
        if self.other.is_some() {
            self.other = Some(run_abc(&self.flipped()));
            self.refresh_parting();
        }
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
        self.locked.clear();
        self.view.tl = Default::default();
        self.rerun();
        self.last = Variant::taught(&self.params, &self.trace);
    }

    pub fn cycle(&mut self, dir: i8) {
        let n = self.presets.len().max(1) as i64;
        let i = (self.index as i64 + i64::from(dir)).rem_euclid(n) as usize;
        self.select(i);
    }

    pub fn toggle(&mut self, v: Variant, lang: Lang) {
        if self.locked.iter().any(|k| k == v.key()) {
            let (_, words) = v.describe(&self.params, lang);
            self.view.notice = Some(lab(Lab::Locked, lang).replace("{}", &words));
            return;
        }
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
        self.refresh_parting();
    }

    /// Applies a message meant for this screen.
    pub fn update(&mut self, msg: Msg, area: Rect, lang: Lang) {
        match msg {
            Msg::Variant(v) => self.toggle(v, lang),
            Msg::Preset(d) => self.cycle(d),
            Msg::Compare => self.toggle_compare(),
            Msg::Pointer { col, row } => self.click(area, col, row),
            m => {
                self.view.update(&self.trace, m, lang);
            }
        }
    }

    pub fn click(&mut self, area: Rect, col: u16, row: u16) {
        let lay = layout(
            area,
            self.trace.lanes.len(),
            self.compare(),
            lanes::Lanes::has_band(&self.trace),
        );
        let end = self.end_ms();
        let areas: Vec<Rect> = [Some(lay.lanes), lay.lanes2]
            .into_iter()
            .flatten()
            .collect();
        self.view.click(&self.trace, end, &areas, lay.log, col, row);
    }

    /// Both runs share one cursor, so the axis spans the longer of the two.
    pub fn end_ms(&self) -> Millis {
        self.other
            .as_ref()
            .map_or(self.trace.end_ms, |o| o.end_ms.max(self.trace.end_ms))
    }

    pub fn outcome_visible(&self) -> bool {
        self.view.tl.shown_until(self.trace.end_ms) >= self.trace.end_ms
    }
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AbcLayout {
    pub title: Rect,
    pub about: Rect,
    pub main: Rect,
    pub lanes: Rect,
    pub caption2: Option<Rect>,
    pub lanes2: Option<Rect>,
    pub legend: Rect,
    /// The service panel: a block on a wide terminal, one line on a small one.
    pub service: Rect,
    pub event: Rect,
    pub badges: Rect,
    pub recipe: Rect,
    pub log: Option<Rect>,
    pub footer: Rect,
}

pub fn layout(area: Rect, lane_count: usize, compare: bool, band: bool) -> AbcLayout {
    let wide = area.width >= 120 && area.height >= 30;
    let title = Rect {
        height: 1.min(area.height),
        ..area
    };
    let footer = Rect::new(
        area.x,
        area.bottom().saturating_sub(1),
        area.width,
        1.min(area.height),
    );
    let about_h: u16 = if wide {
        2
    } else if compare {
        0
    } else {
        1
    };
    let legend_h: u16 = if area.height >= 30 { 2 } else { 1 };
    // service + event + badges + recipe under the lanes.
    let (service_h, event_h, badges_h, recipe_h) = if wide && compare {
        (2, 5, 3, 2)
    } else if wide {
        (6, 3, 3, 3)
    } else if compare {
        (1, 1, 1, 1)
    } else {
        (1, 2, 2, 1)
    };
    let bottom_min = service_h + event_h + badges_h + recipe_h + u16::from(compare && !wide);
    let free = area
        .height
        .saturating_sub(2 + about_h + legend_h + bottom_min);
    let n = lane_count.max(1) as u16;
    let fixed = 1 + u16::from(band);
    let main_h = if compare {
        let per = (free.saturating_sub(1 + 2 * fixed) / (2 * n)).clamp(1, 3);
        (1 + lanes::height(lane_count, per, true, band)
            + lanes::height(lane_count, per, per > 1, band))
        .min(free)
    } else {
        let per = (free.saturating_sub(fixed) / n).clamp(1, if wide { 4 } else { 2 });
        lanes::height(lane_count, per, true, band).min(free)
    };
    let about = Rect::new(area.x, area.y + 1, area.width, about_h);
    let main = Rect::new(area.x, about.bottom(), area.width, main_h);
    let (lanes, caption2, lanes2) = if compare {
        let rest = main_h.saturating_sub(1);
        let half = rest / 2 + rest % 2;
        let l1 = Rect {
            height: half,
            ..main
        };
        let cap = Rect::new(area.x, l1.bottom(), area.width, 1.min(main_h));
        let l2 = Rect::new(
            area.x,
            cap.bottom(),
            area.width,
            main.bottom().saturating_sub(cap.bottom()),
        );
        (l1, Some(cap), Some(l2))
    } else {
        (main, None, None)
    };
    let legend = Rect::new(
        area.x,
        main.bottom(),
        area.width,
        legend_h.min(footer.y.saturating_sub(main.bottom())),
    );
    let top = legend.bottom();
    let bottom_h = footer.y.saturating_sub(top);
    let left_w = if wide {
        72.min(area.width / 2)
    } else {
        area.width
    };
    let mut y = top;
    let mut take = |h: u16| {
        let r = Rect::new(area.x, y, left_w, h.min(footer.y.saturating_sub(y)));
        y = (y + h).min(footer.y);
        r
    };
    let extra = bottom_h.saturating_sub(bottom_min);
    // The event first, then the lock directory (which grows), the badges and the recipe.
    let event = take(event_h + u16::from(compare && !wide));
    let service = take(service_h + if wide { extra } else { 0 });
    // Rows the lanes could not use go to the badges and the recipe, so neither is cut.
    let spare = if wide { 0 } else { extra };
    let badges = take(badges_h + spare.min(1));
    let recipe = take(recipe_h + spare.saturating_sub(1));
    let log = wide.then(|| {
        Rect::new(
            area.x + left_w + 1,
            top,
            area.width.saturating_sub(left_w + 1),
            bottom_h,
        )
    });
    AbcLayout {
        title,
        about,
        main,
        lanes,
        caption2,
        lanes2,
        legend,
        service,
        event,
        badges,
        recipe,
        log,
        footer,
    }
}

/// Invariant badges: `[ok]` while an invariant holds at the cursor, `[!!]` from its first
/// violation on (so the mono theme still tells them apart).
fn badges<'a>(trace: &Trace, at: Millis, lang: Lang, theme: Theme, only_broken: bool) -> Line<'a> {
    let c = colon(lang);
    let mut spans = vec![Span::raw(format!("{}{c}", ui(Ui::Invariants, lang)))];
    let mut broken_any = false;
    for inv in trace
        .invariants
        .iter()
        .filter(|i| i.check == crate::engine::trace::Check::Always)
    {
        let broken = inv.first_violation_ms().is_some_and(|t| t <= at);
        broken_any |= broken;
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
    if only_broken && !broken_any {
        spans.push(Span::styled(
            lang.pick("[ok] 光标处全部成立", "[ok] all hold at the cursor"),
            theme.good(),
        ));
    }
    Line::from(spans)
}

fn footer_hints(lang: Lang) -> Vec<&'static str> {
    [
        Lab::HintPreset,
        Lab::HintPlay,
        Lab::HintEvent,
        Lab::HintMoment,
        Lab::HintReveal,
        Lab::HintRecipe,
        Lab::HintSequence,
        Lab::HintCompare,
        Lab::HintZoom,
        Lab::HintBack,
        Lab::HintKeys,
    ]
    .into_iter()
    .map(|h| lab(h, lang))
    .collect()
}

pub fn render(s: &AbcState, lang: Lang, theme: Theme, area: Rect, buf: &mut Buffer) {
    let band =
        lanes::Lanes::has_band(&s.trace) || s.other.as_ref().is_some_and(lanes::Lanes::has_band);
    let lay = layout(area, s.trace.lanes.len(), s.compare(), band);
    let c = colon(lang);
    let tl = &s.view.tl;
    let cursor = tl.cursor_ms;
    let end = s.end_ms();
    let name = match &s.story {
        Some(story) => story.name.as_str(),
        None => s.preset().map_or("-", |p| p.name.as_str()),
    };
    // A counterexample has a name of its own, not a place in the preset list.
    let (which, place) = match &s.story {
        Some(_) => (name.to_string(), String::new()),
        None => (
            format!(
                "{} {} ({}/{})",
                ui(Ui::Preset, lang),
                name,
                s.index + 1,
                s.presets.len()
            ),
            format!(" ({}/{})", s.index + 1, s.presets.len()),
        ),
    };
    let full = format!(
        "{}   {which}   {} {} / {} s   {}",
        ui(Ui::HomeAbc, lang),
        ui(Ui::Cursor, lang),
        fmt_secs(cursor),
        fmt_secs(end),
        tl.status(lang),
    );
    // On a narrow terminal the title keeps what changes: the preset, the time, the playback.
    let title = if crate::text::width(&full) <= lay.title.width as usize {
        full
    } else {
        format!(
            "{name}{place}  {} / {} s  {}",
            fmt_secs(cursor),
            fmt_secs(end),
            tl.status(lang)
        )
    };
    line(buf, lay.title, &title, theme.title());
    let about = match &s.story {
        Some(story) => Some(&story.about),
        None => s.preset().map(|p| &p.about),
    };
    if let Some(about) = about {
        wrapped(buf, lay.about, lang.pick(&about.zh, &about.en), theme.dim());
    }
    let parting = s.parting;
    if s.view.seq {
        s.view.render_chart(&s.trace, lang, theme, lay.main, buf);
    } else {
        let l = s.view.lanes(&s.trace, end, parting, lang, theme);
        lanes::Lanes {
            max_per_lane: 4,
            ..l
        }
        .render(lay.lanes, buf);
        if let (Some(cap), Some(l2), Some(other)) = (lay.caption2, lay.lanes2, &s.other) {
            let mut flipped = s.params.clone();
            s.last.flip(&mut flipped);
            let (_, words) = s.last.describe(&flipped, lang);
            let text = match &s.story {
                Some(_) => format!(
                    "{}{c}{}   ",
                    ui(Ui::Compare, lang),
                    crate::i18n::explore::compare_caption(lang)
                ),
                None => format!(
                    "{}{c}{}   ",
                    ui(Ui::Compare, lang),
                    ui(Ui::Flipped, lang).replace("{}", &words)
                ),
            };
            line(buf, cap, &text, theme.title());
            let used = crate::text::width(&text) as u16;
            if cap.width > used {
                badges(other, cursor, lang, theme, true).render(
                    Rect {
                        x: cap.x + used,
                        width: cap.width - used,
                        ..cap
                    },
                    buf,
                );
            }
            let mut l = s.view.lanes(other, end, parting, lang, theme);
            l.axis = l2.height > lanes::height(other.lanes.len(), 1, false, band);
            l.render(l2, buf);
        }
    }
    let traces: Vec<&Trace> = std::iter::once(&s.trace).chain(s.other.as_ref()).collect();
    let items = legend::items(
        &traces,
        &legend::planned_classes(&Params::Abc(s.params.clone())),
        s.compare(),
        theme,
        lang,
    );
    Legend {
        items: &items,
        lang,
        theme,
    }
    .render(lay.legend, buf);

    if lay.service.height > 1 {
        ServicePanel {
            trace: &s.trace,
            at_ms: cursor,
            lang,
            theme,
        }
        .render(lay.service, buf);
    } else {
        line(
            buf,
            lay.service,
            &service_panel::one_line(&s.trace, cursor, lang),
            theme.warn(),
        );
    }
    let explain = tl.current(&s.trace).map_or_else(
        || ui(Ui::NothingYet, lang).to_string(),
        |e| format!("{} s  {}", fmt_secs(e.at_ms), describe(e, &s.trace, lang)),
    );
    let mut ev = lay.event;
    if let Some(other) = &s.other {
        // One row says where the runs part (or why they do not).
        let text = compare_words(s, other, lang);
        let r = Rect {
            height: 1.min(ev.height),
            ..ev
        };
        let h = if lay.log.is_some() {
            3.min(ev.height)
        } else {
            1.min(ev.height)
        };
        wrapped(
            buf,
            Rect { height: h, ..r },
            &text,
            theme.marker(Mark::Differs),
        );
        ev = Rect {
            y: ev.y + h,
            height: ev.height.saturating_sub(h),
            ..ev
        };
    }
    wrapped(buf, ev, &explain, Style::new());
    let mut b = badges(&s.trace, cursor, lang, theme, false);
    if let Metrics::Abc(m) = &s.trace.metrics {
        let text = if s.outcome_visible() {
            let list: Vec<String> = m.wakeups_per_release.iter().map(u32::to_string).collect();
            let list = if list.is_empty() {
                ui(Ui::None, lang).to_string()
            } else {
                list.join(", ")
            };
            format!("{}{c}[{list}]", ui(Ui::Wakeups, lang))
        } else {
            lab(Lab::WakeupsHidden, lang).to_string()
        };
        b.spans.push(Span::styled(text, Style::new()));
    }
    Paragraph::new(b)
        .wrap(Wrap { trim: true })
        .render(lay.badges, buf);
    // What a timed-out acquire does is shown only where an acquire has a deadline.
    let has_deadline = s
        .params
        .faults
        .iter()
        .any(|f| matches!(f, Fault::GiveUp { .. }))
        || s.params.on_timeout != OnTimeout::DeleteNode;
    let recipe: Vec<String> = Variant::ALL
        .iter()
        .filter(|v| **v != Variant::OnTimeout || has_deadline)
        .map(|v| {
            let (k, words) = v.describe(&s.params, lang);
            let lock = if s.locked.iter().any(|l| l == v.key()) {
                "⊘"
            } else {
                ""
            };
            format!("[{k}]{lock} {words}")
        })
        .collect();
    wrapped(buf, lay.recipe, &recipe.join("  "), theme.title());
    if let Some(log) = lay.log {
        s.view.render_log(&s.trace, parting, lang, theme, log, buf);
    }
    match &s.view.notice {
        Some(n) => line(buf, lay.footer, n, theme.warn()),
        None => hints::render(&footer_hints(lang), theme.dim(), lay.footer, buf),
    }
}

/// Where the two runs part, or that the flipped setting changed nothing here and why.
fn compare_words(s: &AbcState, _other: &Trace, lang: Lang) -> String {
    match s.parting {
        Some(p) => lab(Lab::PartAt, lang)
            .replacen("{}", &fmt_secs(p.at()), 1)
            .replacen("{}", &(p.index + 1).to_string(), 1),
        None => {
            let mut flipped = s.params.clone();
            s.last.flip(&mut flipped);
            let (_, words) = s.last.describe(&flipped, lang);
            format!(
                "{} {}",
                lab(Lab::SameRun, lang).replace("{}", &words),
                lab(s.last.why_same(), lang)
            )
        }
    }
}
