//! Herd versus chain: sliders for N, k, grab cost and hold; the totals for the current k beside
//! the chain (k = 1) and the herd (k = N); and the chain and the herd side by side on one time
//! axis, one row per release, scrolling together. All of it comes from engine runs.

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::Style;
use ratatui::widgets::Widget;

use super::{line, secs};
use crate::engine::params::{HERD_SPECS, HerdParams, NumSpec};
use crate::engine::trace::{HerdMetrics, Metrics, Trace};
use crate::engine::{Params, run};
use crate::i18n::{Lang, Ui, ui};
use crate::tui::theme::Theme;
use crate::tui::widgets::herd_chart::HerdTimeline;
use crate::tui::widgets::slider::{self, Slider};

/// The screen keeps N to what a chart can show; the command line allows more.
pub const SCREEN_MAX_WAITERS: u32 = 200;
const SLIDER_WORDS: [Ui; 4] = [Ui::Waiters, Ui::Fanout, Ui::GrabCost, Ui::Hold];

#[derive(Debug, Clone, PartialEq)]
pub struct HerdState {
    pub params: HerdParams,
    pub focus: usize,
    pub current: Trace,
    pub chain: Trace,
    pub herd: Trace,
    /// Parameters the preset locked, so a demonstration cannot drift.
    pub locked: Vec<String>,
    /// The first release row shown.
    pub top: usize,
    /// A short message for the status line, until the next key.
    pub notice: Option<String>,
}

fn run_herd(p: &HerdParams) -> Trace {
    run(&Params::Herd(p.clone()))
}

impl HerdState {
    pub fn new(mut params: HerdParams) -> Self {
        params.waiters = params.waiters.clamp(1, SCREEN_MAX_WAITERS);
        params.fanout = params.fanout.clamp(1, params.waiters);
        let (current, chain, herd) = Self::runs(&params);
        Self {
            params,
            focus: 0,
            current,
            chain,
            herd,
            locked: Vec::new(),
            top: 0,
            notice: None,
        }
    }

    fn is_locked(&self, key: &str) -> bool {
        self.locked.iter().any(|k| k == key)
    }

    fn runs(p: &HerdParams) -> (Trace, Trace, Trace) {
        let chain = HerdParams {
            fanout: 1,
            ..p.clone()
        };
        let herd = HerdParams {
            fanout: p.waiters,
            ..p.clone()
        };
        (run_herd(p), run_herd(&chain), run_herd(&herd))
    }

    fn rerun(&mut self) {
        (self.current, self.chain, self.herd) = Self::runs(&self.params);
    }

    /// The slider's spec as the screen uses it: N capped, k at most N.
    pub fn spec(&self, i: usize) -> NumSpec {
        let base = HERD_SPECS[i];
        match i {
            0 => NumSpec {
                max: f64::from(SCREEN_MAX_WAITERS),
                ..base
            },
            1 => NumSpec {
                max: f64::from(self.params.waiters),
                ..base
            },
            _ => base,
        }
    }

    pub fn value(&self, i: usize) -> f64 {
        self.params
            .get(HERD_SPECS[i].key)
            .unwrap_or(HERD_SPECS[i].min)
    }

    fn set(&mut self, i: usize, v: f64, lang: Lang) {
        let spec = self.spec(i);
        self.notice = None;
        if self.is_locked(spec.key) {
            let words = ui(SLIDER_WORDS[i], lang);
            self.notice = Some(
                crate::i18n::lab::lab(crate::i18n::lab::Lab::Locked, lang).replace("{}", words),
            );
            return;
        }
        let v = v.clamp(spec.min, spec.max);
        if self.params.set(spec.key, v).is_ok() {
            // Fewer waiters than the fan-out: the fan-out follows N down.
            self.params.fanout = self.params.fanout.clamp(1, self.params.waiters);
            self.rerun();
        }
    }

    pub fn focus_by(&mut self, dir: i8) {
        let n = HERD_SPECS.len() as i64;
        self.focus = (self.focus as i64 + i64::from(dir)).rem_euclid(n) as usize;
    }

    pub fn adjust(&mut self, dir: i8, coarse: bool, lang: Lang) {
        let spec = self.spec(self.focus);
        let v = slider::nudge(&spec, spec.max, self.value(self.focus), dir, coarse);
        self.set(self.focus, v, lang);
    }

    pub fn set_frac(&mut self, i: usize, frac: f64, lang: Lang) {
        let spec = self.spec(i);
        self.focus = i;
        self.set(
            i,
            slider::value_at(spec.min, spec.max, spec.step, frac),
            lang,
        );
    }

    pub fn click(&mut self, area: Rect, col: u16, row: u16, lang: Lang) {
        let lay = layout(area);
        if let Some(i) = lay
            .sliders
            .iter()
            .position(|r| r.contains((col, row).into()))
        {
            self.set_frac(i, slider::frac_at(slider::track(lay.sliders[i]), col), lang);
        }
    }

    /// Scrolls the release rows of both sides together.
    pub fn scroll(&mut self, by: i64) {
        self.notice = None;
        let rows = Self::metrics(&self.herd).map_or(0, |m| m.rows.len());
        self.top = (self.top as i64 + by).clamp(0, rows.saturating_sub(1) as i64) as usize;
    }

    pub fn metrics(trace: &Trace) -> Option<&HerdMetrics> {
        match &trace.metrics {
            Metrics::Herd(m) => Some(m),
            _ => None,
        }
    }
}

pub struct HerdLayout {
    pub title: Rect,
    pub sliders: Vec<Rect>,
    pub totals: Rect,
    pub caption: Rect,
    /// The charts' key: what each fill means.
    pub key: Rect,
    pub chain: Rect,
    pub herd: Rect,
    pub footer: Rect,
}

pub fn layout(area: Rect) -> HerdLayout {
    let wide = area.width >= 120;
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
    let top = area.y + 1;
    // Sliders and totals side by side on a wide terminal, stacked on a small one.
    let (sliders, totals, below) = if wide {
        let w = area.width / 2;
        let sliders = (0..HERD_SPECS.len() as u16)
            .map(|i| Rect::new(area.x, top + i, w, 1))
            .collect();
        (
            sliders,
            Rect::new(area.x + w + 1, top, area.width - w - 1, 4),
            top + 4,
        )
    } else {
        let w = area.width / 2;
        let sliders = (0..HERD_SPECS.len() as u16)
            .map(|i| Rect::new(area.x + (i % 2) * w, top + i / 2, w, 1))
            .collect();
        (sliders, Rect::new(area.x, top + 2, area.width, 4), top + 6)
    };
    let caption = Rect::new(area.x, below, area.width, 1);
    // The key wraps between its entries on a terminal too narrow for one line.
    let key_h = if area.width >= 130 { 1 } else { 2 };
    let key = Rect::new(area.x, caption.bottom(), area.width, key_h);
    let chart_top = key.bottom();
    let h = footer.y.saturating_sub(chart_top);
    let half = area.width / 2;
    let chain = Rect::new(area.x, chart_top, half.saturating_sub(1), h);
    let herd = Rect::new(area.x + half + 1, chart_top, area.width - half - 1, h);
    HerdLayout {
        title,
        sliders,
        totals,
        caption,
        key,
        chain,
        herd,
        footer,
    }
}

pub fn render(s: &HerdState, lang: Lang, theme: Theme, area: Rect, buf: &mut Buffer) {
    let lay = layout(area);
    line(buf, lay.title, ui(Ui::HomeHerd, lang), theme.title());
    for (i, row) in lay.sliders.iter().enumerate() {
        let spec = s.spec(i);
        let v = s.value(i);
        let unit = if i >= 2 {
            lang.pick(" 毫秒", " ms")
        } else {
            ""
        };
        let lock = if s.is_locked(spec.key) { " ⊘" } else { "" };
        let span = (spec.max - spec.min).max(f64::MIN_POSITIVE);
        Slider {
            label: ui(SLIDER_WORDS[i], lang),
            value: format!("{}{unit}{lock}", secs(v)),
            frac: (v - spec.min) / span,
            focused: i == s.focus,
            theme,
        }
        .render(*row, buf);
    }
    let t = lay.totals;
    let header = format!(
        "{}{}{}{}",
        pad_to("", 16),
        ralign(ui(Ui::Notifications, lang), 14),
        ralign(ui(Ui::Wasted, lang), 10),
        ralign(ui(Ui::TotalTime, lang), 14)
    );
    line(buf, Rect { height: 1, ..t }, &header, theme.dim());
    let n = s.params.waiters;
    let rows = [
        (
            format!("{} k={}", ui(Ui::Current, lang), s.params.fanout),
            &s.current,
        ),
        (format!("{} k=1", ui(Ui::Chain, lang)), &s.chain),
        (format!("{} k={n}", ui(Ui::Herd, lang)), &s.herd),
    ];
    for (i, (label, trace)) in rows.iter().enumerate() {
        if let Some(m) = HerdState::metrics(trace) {
            let text = format!(
                "{}{:>14}{:>10}{}",
                pad_to(label, 16),
                m.total_notifications,
                m.wasted_wakeups,
                crate::text::pad_left(
                    &format!("{} {}", secs(m.total_time_ms), lang.pick("毫秒", "ms")),
                    14
                )
            );
            let style = if i == 0 { theme.title() } else { Style::new() };
            line(
                buf,
                Rect {
                    y: t.y + 1 + i as u16,
                    height: 1,
                    ..t
                },
                &text,
                style,
            );
        }
    }
    let lab = |l| crate::i18n::lab::lab(l, lang);
    use crate::i18n::lab::Lab;
    line(
        buf,
        lay.caption,
        &lab(Lab::HerdSideBySide).replace("{}", &n.to_string()),
        theme.dim(),
    );
    ratatui::widgets::Paragraph::new(crate::tui::widgets::herd_chart::herd_legend(lang, theme))
        .wrap(ratatui::widgets::Wrap { trim: true })
        .render(lay.key, buf);
    crate::tui::screens::plain_spaces(buf, lay.key);
    if let (Some(c), Some(h)) = (HerdState::metrics(&s.chain), HerdState::metrics(&s.herd)) {
        let end = c.total_time_ms.max(h.total_time_ms);
        let headers = [
            lab(Lab::Release).to_string(),
            lab(Lab::Woken).to_string(),
            format!("{}{}", lab(Lab::Time), lang.pick("（秒）", " (s)")),
        ];
        for (m, area, name, k) in [
            (c, lay.chain, ui(Ui::Chain, lang), 1),
            (h, lay.herd, ui(Ui::Herd, lang), n),
        ] {
            let title = format!(
                "{name} k={k}: {} {}{}{} {} {}",
                m.total_notifications,
                ui(Ui::Notifications, lang),
                lang.pick("，", ", "),
                ui(Ui::TotalTime, lang),
                secs(m.total_time_ms),
                lang.pick("毫秒", "ms")
            );
            HerdTimeline {
                metrics: m,
                title,
                end_ms: end,
                top: s.top,
                headers: headers.clone(),
                theme,
            }
            .render(area, buf);
        }
    }
    match &s.notice {
        Some(msg) => line(buf, lay.footer, msg, theme.warn()),
        None => {
            let mut h = vec![
                lab(Lab::HintSliders),
                lab(Lab::HintRows),
                lab(Lab::HintBack),
                lab(Lab::HintKeys),
            ];
            if !s.locked.is_empty() {
                h.insert(0, lab(Lab::LockedHint));
            }
            crate::tui::widgets::hints::render(&h, theme.dim(), lay.footer, buf);
        }
    }
}

/// Pads to `cols` display columns (`format!` widths count chars, not columns).
fn pad_to(s: &str, cols: usize) -> String {
    let w = crate::text::width(s);
    format!("{s}{}", " ".repeat(cols.saturating_sub(w)))
}

/// Right-aligns to `cols` display columns.
fn ralign(s: &str, cols: usize) -> String {
    let w = crate::text::width(s);
    format!("{}{s}", " ".repeat(cols.saturating_sub(w)))
}

/// This screen's keys: one table drives both key handling and `?` help.
pub mod keys {
    use crate::i18n::Ui;
    use crate::i18n::lab::Lab;
    use crate::tui::app::AppMsg;
    use crate::tui::keys::{Binding, Ch, Code, L, U, b, info};
    use crossterm::event::KeyCode;

    pub const KEYS: &[Binding] = &[
        b(
            &[Code(KeyCode::Up)],
            "Up",
            U(Ui::KeySliderSelect),
            AppMsg::Up,
        ),
        b(
            &[Code(KeyCode::Down)],
            "Down",
            U(Ui::KeySliderSelect),
            AppMsg::Down,
        ),
        b(
            &[Code(KeyCode::Left), Ch('h')],
            "Left h",
            U(Ui::KeySliderAdjust),
            AppMsg::Adjust {
                dir: -1,
                coarse: false,
            },
        ),
        b(
            &[Code(KeyCode::Right), Ch('l')],
            "Right l",
            U(Ui::KeySliderAdjust),
            AppMsg::Adjust {
                dir: 1,
                coarse: false,
            },
        ),
        b(&[Ch('j')], "j", L(Lab::KeyHerdRows), AppMsg::Rows(1)),
        b(&[Ch('k')], "k", L(Lab::KeyHerdRows), AppMsg::Rows(-1)),
        b(
            &[Code(KeyCode::PageDown)],
            "PgDn",
            L(Lab::KeyHerdRows),
            AppMsg::Scroll(1),
        ),
        b(
            &[Code(KeyCode::PageUp)],
            "PgUp",
            L(Lab::KeyHerdRows),
            AppMsg::Scroll(-1),
        ),
        info("mouse", U(Ui::KeyMouseSlider)),
    ];
}

pub use keys::KEYS;
