//! Live: run a preset or the herd on a real ZooKeeper server of locklab's own, off the UI
//! thread, and show the live lanes above the model's with the differences listed.
//!
//! Nothing starts until Enter: the server, the sessions and their runtimes live in a worker
//! thread for one run, and the screen only looks at what it has finished.

use std::sync::{Arc, Mutex};
use std::time::Instant;

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::Style;
use ratatui::widgets::Widget;

use super::{line, wrapped};
use crate::engine::params::{HerdParams, Params};
use crate::engine::trace::{Family, Trace};
use crate::i18n::Lang;
use crate::i18n::live as words;
use crate::live::diff::{self, Row};
use crate::live::scale::Scaling;
use crate::live::server::{self, Server};
use crate::live::{abc, herd};
use crate::preset::Preset;
use crate::tui::theme::Theme;
use crate::tui::widgets::lanes::Lanes;

/// What a row of the list runs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Choice {
    /// An index into the A/B/C presets.
    Preset(usize),
    Herd {
        waiters: u32,
        fanout: u32,
    },
}

/// A finished live run.
#[derive(Debug, Clone)]
pub struct Outcome {
    pub name: String,
    pub version: String,
    pub addr: String,
    pub scaling: Option<Scaling>,
    pub rows: Vec<Row>,
    pub live: Trace,
    pub model: Trace,
}

type Slot = Arc<Mutex<Option<Result<Outcome, String>>>>;

struct Job {
    started: Instant,
    /// About how long the run takes, server start included.
    expect_ms: u64,
    slot: Slot,
}

pub struct LiveState {
    pub presets: Vec<&'static Preset>,
    pub choices: Vec<Choice>,
    pub selected: usize,
    job: Option<Job>,
    pub result: Option<Result<Outcome, String>>,
}

impl std::fmt::Debug for LiveState {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("LiveState")
            .field("selected", &self.selected)
            .field("running", &self.running())
            .finish()
    }
}

/// Whether the live lab can start a server here at all.
fn available() -> bool {
    server::installed().is_ok()
}

impl LiveState {
    pub fn new(presets: Vec<&'static Preset>) -> Self {
        let mut choices: Vec<Choice> = (0..presets.len()).map(Choice::Preset).collect();
        choices.push(Choice::Herd {
            waiters: 20,
            fanout: 1,
        });
        choices.push(Choice::Herd {
            waiters: 20,
            fanout: 20,
        });
        Self {
            presets,
            choices,
            selected: 0,
            job: None,
            result: None,
        }
    }

    pub fn running(&self) -> bool {
        self.job.is_some()
    }

    pub fn move_by(&mut self, dir: i8) {
        let n = self.choices.len() as i64;
        self.selected = (self.selected as i64 + i64::from(dir)).rem_euclid(n.max(1)) as usize;
    }

    fn name(&self, c: Choice, lang: Lang) -> String {
        match c {
            Choice::Preset(i) => self
                .presets
                .get(i)
                .map_or_else(String::new, |p| format!("A/B/C  {}", p.name)),
            Choice::Herd { waiters, fanout } => words::herd_choice(waiters, fanout, lang),
        }
    }

    /// Starts the chosen run on a worker thread; does nothing while one is running.
    pub fn start(&mut self) {
        if self.running() {
            return;
        }
        let Some(&choice) = self.choices.get(self.selected) else {
            return;
        };
        let slot: Slot = Arc::default();
        let (expect_ms, work): (u64, Box<dyn FnOnce() -> Result<Outcome, String> + Send>) =
            match choice {
                Choice::Preset(i) => {
                    let Some(p) = self.presets.get(i).copied() else {
                        return;
                    };
                    let Params::Abc(params) = p.params.clone() else {
                        return;
                    };
                    let name = p.name.clone();
                    (
                        params.duration_ms + 2000,
                        Box::new(move || run_abc(name, params)),
                    )
                }
                Choice::Herd { waiters, fanout } => {
                    let p = HerdParams {
                        waiters,
                        fanout,
                        grab_cost_ms: 0.0,
                        hold_ms: 20.0,
                    };
                    let name = words::herd_choice(waiters, fanout, Lang::En);
                    (
                        u64::from(waiters) * 40 + 3000,
                        Box::new(move || run_herd(name, p)),
                    )
                }
            };
        let out = Arc::clone(&slot);
        let spawned = std::thread::Builder::new()
            .name("live-run".into())
            .spawn(move || {
                let r = work();
                if let Ok(mut s) = out.lock() {
                    *s = Some(r);
                }
            });
        match spawned {
            Ok(_) => {
                self.result = None;
                self.job = Some(Job {
                    started: Instant::now(),
                    expect_ms,
                    slot,
                });
            }
            Err(e) => self.result = Some(Err(e.to_string())),
        }
    }

    /// Takes a finished run's outcome; called on every tick while one runs.
    pub fn poll(&mut self) {
        let done = self
            .job
            .as_ref()
            .and_then(|j| j.slot.lock().ok().and_then(|mut s| s.take()));
        if let Some(r) = done {
            self.result = Some(r);
            self.job = None;
        }
    }
}

fn private(tick_ms: u64) -> Result<Server, String> {
    server::open(None, None, tick_ms).map_err(|e| e.message)
}

fn run_abc(name: String, p: crate::engine::params::AbcParams) -> Result<Outcome, String> {
    let server = private(p.tick_ms)?;
    let (scaled, scaling) = crate::live_cmd::fit(&p, &server, 1.0).map_err(|e| e.message)?;
    let live = abc::run(&scaled, server.addr()).map_err(|e| e.message)?;
    let model = crate::engine::run(&Params::Abc(scaled));
    Ok(Outcome {
        name,
        version: server.version(),
        addr: server.addr().to_string(),
        scaling: Some(scaling),
        rows: diff::compare(&model, &live),
        live,
        model,
    })
}

fn run_herd(name: String, p: HerdParams) -> Result<Outcome, String> {
    let server = private(2000)?;
    let live = herd::run(&p, server.addr()).map_err(|e| e.message)?;
    let model = crate::engine::run(&Params::Herd(p));
    Ok(Outcome {
        name,
        version: server.version(),
        addr: server.addr().to_string(),
        scaling: None,
        rows: diff::compare(&model, &live),
        live,
        model,
    })
}

fn lanes<'a>(t: &'a Trace, prefix: &str, theme: Theme) -> Lanes<'a> {
    let rows = t
        .lanes
        .iter()
        .filter(|l| t.role(l.actor) == Some(crate::engine::trace::Role::Client))
        .map(|l| (format!("{prefix} {}", t.name(l.actor)), l))
        .collect();
    Lanes {
        trace: t,
        rows,
        end_ms: t.end_ms,
        cursor_ms: t.end_ms,
        danger: None,
        danger_label: String::new(),
        theme,
    }
}

pub fn render(s: &LiveState, lang: Lang, theme: Theme, area: Rect, buf: &mut Buffer) {
    let area = area.intersection(buf.area);
    if area.height < 4 || area.width < 20 {
        return;
    }
    line(buf, area, words::screen_title(lang), theme.title());
    let widest = s
        .choices
        .iter()
        .map(|&c| crate::text::width(&s.name(c, lang)) as u16 + 3)
        .max()
        .unwrap_or(18);
    let list_w = widest.min(area.width / 2);
    let body = Rect::new(area.x, area.y + 2, area.width, area.height - 2);
    let list = Rect::new(body.x, body.y, list_w, body.height);
    for (i, &c) in s.choices.iter().enumerate().take(list.height as usize) {
        let row = Rect::new(list.x, list.y + i as u16, list.width, 1);
        let style = if i == s.selected {
            theme.focus()
        } else {
            Style::new()
        };
        let mark = if i == s.selected { "> " } else { "  " };
        line(buf, row, &format!("{mark}{}", s.name(c, lang)), style);
    }
    let right = Rect::new(
        body.x + list_w + 1,
        body.y,
        body.width.saturating_sub(list_w + 1),
        body.height,
    );
    if !available() {
        wrapped(buf, right, words::not_installed(lang), theme.bad());
        return;
    }
    if let Some(job) = &s.job {
        let elapsed = job.started.elapsed().as_millis() as u64;
        let text = words::in_progress(elapsed, job.expect_ms, lang);
        wrapped(buf, right, &text, theme.dim());
        return;
    }
    match &s.result {
        None => wrapped(buf, right, words::screen_hint(lang), theme.dim()),
        Some(Err(e)) => wrapped(buf, right, e, theme.bad()),
        Some(Ok(o)) => outcome(o, lang, theme, right, buf),
    }
}

/// Writes wrapped text at row `y` and moves `y` past it.
fn put(buf: &mut Buffer, area: Rect, y: &mut u16, text: &str, style: Style) {
    if *y >= area.bottom() {
        return;
    }
    let h = (crate::text::wrap(text, area.width as usize).len() as u16).max(1);
    let r = Rect::new(area.x, *y, area.width, h.min(area.bottom() - *y));
    wrapped(buf, r, text, style);
    *y += h;
}

fn outcome(o: &Outcome, lang: Lang, theme: Theme, area: Rect, buf: &mut Buffer) {
    let mut y = area.y;
    let server = words::server_line(&o.version, &o.addr, true, lang);
    put(buf, area, &mut y, &server, theme.dim());
    if let Some(s) = &o.scaling {
        put(
            buf,
            area,
            &mut y,
            &words::scaling_line(s, lang),
            theme.dim(),
        );
    }
    y += 1;
    if o.live.family == Family::Abc {
        for (t, prefix) in [
            (&o.live, lang.pick("真实", "live")),
            (&o.model, lang.pick("模型", "model")),
        ] {
            let w = lanes(t, prefix, theme);
            let h = w.height();
            if y + h > area.bottom() {
                break;
            }
            w.render(Rect::new(area.x, y, area.width, h), buf);
            y += h + 1;
        }
    }
    let (_, fact, model, live) = words::compare_header(lang);
    let col =
        |s: &str, w: usize| format!("{s}{}", " ".repeat(w.saturating_sub(crate::text::width(s))));
    let header = format!("  {}{}{live}", col(fact, 26), col(model, 14));
    put(buf, area, &mut y, &header, theme.dim());
    for r in &o.rows {
        let mark = if r.same() { " " } else { "≠" };
        let style = if r.same() { Style::new() } else { theme.bad() };
        let text = format!(
            "{mark} {}{}{}",
            col(words::aspect(r.aspect, lang), 26),
            col(&r.model, 14),
            r.live
        );
        put(buf, area, &mut y, &text, style);
    }
    let n = o.rows.iter().filter(|r| !r.same()).count();
    let style = if n == 0 { theme.good() } else { theme.bad() };
    put(buf, area, &mut y, &words::verdict(n, lang), style);
    put(
        buf,
        area,
        &mut y,
        &words::more_hint(&o.name, o.live.family == Family::Herd, lang),
        theme.dim(),
    );
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_list_holds_every_abc_preset_and_both_herds_and_wraps() {
        let presets: Vec<&'static Preset> = crate::preset::builtin()
            .iter()
            .filter(|p| p.family == Family::Abc)
            .collect();
        let n = presets.len();
        let mut s = LiveState::new(presets);
        assert_eq!(s.choices.len(), n + 2);
        s.move_by(-1);
        assert_eq!(s.selected, n + 1);
        assert!(!s.running(), "nothing runs until Enter");
    }

    #[test]
    fn rendering_before_any_run_starts_nothing_and_fits_a_tiny_area() {
        let s = LiveState::new(Vec::new());
        for (w, h) in [(1, 1), (20, 4), (80, 24)] {
            let mut buf = Buffer::empty(Rect::new(0, 0, w, h));
            render(&s, Lang::En, Theme::default(), buf.area, &mut buf);
        }
        assert!(!s.running());
    }
}
