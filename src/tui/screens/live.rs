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

use super::{line, wrapped};
use crate::engine::params::{HerdParams, Params};
use crate::engine::trace::Trace;
use crate::i18n::Lang;
use crate::live::diff::{self, Row};
use crate::live::scale::Scaling;
use crate::live::server::{self, Server};
use crate::live::words;
use crate::live::{abc, herd};
use crate::scenario::Preset;
use crate::tui::theme::Theme;

mod keys;
mod outcome;
pub use keys::KEYS;
use outcome::put;

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
    /// The list's row that ran.
    pub choice: Choice,
    pub name: String,
    /// The command that prints the same run in full.
    pub command: String,
    pub version: String,
    pub addr: String,
    pub scaling: Option<Scaling>,
    pub rows: Vec<Row>,
    /// A/B/C: where the server's tick boundaries fell, if known (the model ran on that grid).
    pub tick_phase: Option<Option<u64>>,
    pub live: Trace,
    pub model: Trace,
}

type Slot = Arc<Mutex<Option<Result<Outcome, String>>>>;

struct Job {
    /// The list's row that runs.
    choice: Choice,
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

/// Whether the live lab can start the servers this preset needs here: Redis for a Redlock
/// preset, ZooKeeper for the rest.
fn redlock(p: &Preset) -> bool {
    matches!(p.params, Params::Redlock(_))
}

impl LiveState {
    fn available(&self, c: Choice) -> bool {
        match c {
            Choice::Preset(i) if self.presets.get(i).is_some_and(|p| redlock(p)) => {
                crate::live::redis::node::installed().is_ok()
            }
            _ => server::installed().is_ok(),
        }
    }

    fn not_installed(&self, c: Choice, lang: Lang) -> &'static str {
        match c {
            Choice::Preset(i) if self.presets.get(i).is_some_and(|p| redlock(p)) => {
                words::redis_not_installed(lang)
            }
            _ => words::not_installed(lang),
        }
    }
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
            Choice::Preset(i) => self.presets.get(i).map_or_else(String::new, |p| {
                let family = if redlock(p) { "Redlock" } else { "A/B/C" };
                format!("{family}  {}", p.name)
            }),
            Choice::Herd { waiters, fanout } => words::herd_choice(waiters, fanout, lang),
        }
    }

    /// What the chosen row runs, in a sentence, before it runs.
    fn about(&self, c: Choice, lang: Lang) -> String {
        match c {
            Choice::Preset(i) => self.presets.get(i).map_or_else(String::new, |p| {
                lang.pick(&p.about.zh, &p.about.en).to_string()
            }),
            Choice::Herd { fanout, .. } => words::herd_about(fanout == 1, lang).to_string(),
        }
    }

    /// Starts the chosen run on a worker thread; does nothing while one is running or where no
    /// server is installed (the screen says how to install one).
    pub fn start(&mut self) {
        let Some(&choice) = self.choices.get(self.selected) else {
            return;
        };
        if self.running() || !self.available(choice) {
            return;
        }
        let slot: Slot = Arc::default();
        let (expect_ms, work): (u64, Box<dyn FnOnce() -> Result<Outcome, String> + Send>) =
            match choice {
                Choice::Preset(i) => {
                    let Some(p) = self.presets.get(i).copied() else {
                        return;
                    };
                    let name = p.name.clone();
                    match p.params.clone() {
                        Params::Abc(params) => (
                            params.duration_ms + 2000,
                            Box::new(move || run_abc(choice, name, params)),
                        ),
                        Params::Redlock(params) => (
                            params.duration_ms + 1000,
                            Box::new(move || run_redlock(choice, name, params)),
                        ),
                        _ => return,
                    }
                }
                Choice::Herd { waiters, fanout } => {
                    let p = HerdParams {
                        waiters,
                        fanout,
                        grab_cost_ms: 0.0,
                        hold_ms: 20.0,
                    };
                    (
                        u64::from(waiters) * 40 + 3000,
                        Box::new(move || run_herd(choice, p)),
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
                    choice,
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

fn run_abc(
    choice: Choice,
    name: String,
    p: crate::engine::params::AbcParams,
) -> Result<Outcome, String> {
    let server = private(p.tick_ms)?;
    let (scaled, scaling) = crate::live::scale::fit(&p, &server, 1.0).map_err(|e| e.message)?;
    let story = abc::story(&scaled, &server, None).map_err(|e| e.message)?;
    let rows = story.rows();
    let tick_phase = Some(story.tick_phase_ms);
    let (live, model) = (story.live, story.model);
    Ok(Outcome {
        choice,
        command: format!("locklab live abc {name}"),
        name,
        version: server.version(),
        addr: server.addr().to_string(),
        scaling: Some(scaling),
        rows,
        tick_phase,
        live,
        model,
    })
}

fn run_redlock(
    choice: Choice,
    name: String,
    p: crate::engine::params::RedlockParams,
) -> Result<Outcome, String> {
    let exe = std::env::current_exe().map_err(|e| e.to_string())?;
    let store = crate::live::redis::run::default_store();
    let story = crate::live::redis::story(&p, &exe, store).map_err(|e| e.message)?;
    Ok(Outcome {
        choice,
        command: format!("locklab live redlock {name}"),
        name,
        version: "Redis".to_string(),
        addr: "127.0.0.1".to_string(),
        scaling: None,
        rows: story.rows(),
        tick_phase: None,
        live: story.live,
        model: story.model,
    })
}

fn run_herd(choice: Choice, p: HerdParams) -> Result<Outcome, String> {
    let server = private(2000)?;
    let live = herd::run(&p, server.addr()).map_err(|e| e.message)?;
    let name = format!("herd --waiters {} --fanout {}", p.waiters, p.fanout);
    let model = crate::engine::run(&Params::Herd(p));
    Ok(Outcome {
        choice,
        command: format!("locklab live {name}"),
        name,
        version: server.version(),
        addr: server.addr().to_string(),
        scaling: None,
        rows: diff::compare(&model, &live, None),
        tick_phase: None,
        live,
        model,
    })
}

pub fn render(s: &LiveState, lang: Lang, theme: Theme, area: Rect, buf: &mut Buffer) {
    let area = area.intersection(buf.area);
    if area.height < 4 || area.width < 20 {
        return;
    }
    line(buf, area, words::screen_title(lang), theme.title());
    let footer = Rect::new(area.x, area.bottom() - 1, area.width, 1);
    line(buf, footer, words::footer(lang), theme.dim());
    let widest = s
        .choices
        .iter()
        .map(|&c| crate::text::width(&s.name(c, lang)) as u16 + 3)
        .max()
        .unwrap_or(18);
    let list_w = widest.min(area.width / 2);
    let body = Rect::new(area.x, area.y + 2, area.width, area.height - 3);
    let list = Rect::new(body.x, body.y, list_w, body.height);
    let running = s.job.as_ref().map(|j| j.choice);
    for (i, &c) in s.choices.iter().enumerate().take(list.height as usize) {
        let row = Rect::new(list.x, list.y + i as u16, list.width, 1);
        let style = if i == s.selected {
            theme.focus()
        } else {
            Style::new()
        };
        let mark = if i == s.selected { "> " } else { "  " };
        line(buf, row, &format!("{mark}{}", s.name(c, lang)), style);
        if running == Some(c) {
            buf.set_stringn(row.x + list_w - 1, row.y, "*", 1, theme.mark());
        }
    }
    let right = Rect::new(
        body.x + list_w + 1,
        body.y,
        body.width.saturating_sub(list_w + 1),
        body.height,
    );
    let mut y = right.y;
    if let Some(job) = &s.job {
        let elapsed = job.started.elapsed().as_millis() as u64;
        let name = s.name(job.choice, lang);
        let text = words::in_progress(&name, elapsed, job.expect_ms, lang);
        put(buf, right, &mut y, &text, theme.dim());
        return;
    }
    // A finished run stays to be read, whatever this machine has installed since.
    if let Some(Ok(o)) = &s.result {
        outcome::render(o, &s.name(o.choice, lang), lang, theme, right, buf);
        return;
    }
    if let Some(&c) = s.choices.get(s.selected)
        && !s.available(c)
    {
        wrapped(buf, right, s.not_installed(c, lang), theme.bad());
        return;
    }
    if let Some(Err(e)) = &s.result {
        put(buf, right, &mut y, e, theme.bad());
        y += 1;
    }
    // Before a run: what the selected row tells, then how the lab works.
    if let Some(&c) = s.choices.get(s.selected) {
        put(buf, right, &mut y, &s.name(c, lang), theme.title());
        put(buf, right, &mut y, &s.about(c, lang), Style::new());
        y += 1;
    }
    put(buf, right, &mut y, words::screen_hint(lang), theme.dim());
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::trace::Family;

    #[test]
    fn the_list_holds_every_abc_preset_and_both_herds_and_wraps() {
        let presets: Vec<&'static Preset> = crate::scenario::builtin()
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

    #[test]
    fn a_result_renders_without_panicking_at_any_small_size() {
        let s = finished("chain");
        for (w, h) in [(1, 1), (20, 4), (21, 5), (30, 8), (45, 12), (60, 16)] {
            for lang in [Lang::En, Lang::Zh] {
                let mut buf = Buffer::empty(Rect::new(0, 0, w, h));
                render(&s, lang, Theme::default(), buf.area, &mut buf);
            }
        }
    }

    fn abc_presets() -> Vec<&'static Preset> {
        crate::scenario::builtin()
            .iter()
            .filter(|p| p.family == Family::Abc)
            .collect()
    }

    /// A finished run whose "live" side is another preset's model run, so that the screen has
    /// a real difference to show without a server: watch-race wakes B once per release, chain
    /// does not wake it the same way.
    fn finished(lang_pick: &str) -> LiveState {
        finished_beside("watch-race", lang_pick)
    }

    /// The same, with the model side chosen too.
    fn finished_beside(model_name: &str, lang_pick: &str) -> LiveState {
        let presets = abc_presets();
        let index = |name: &str| presets.iter().position(|p| p.name == name).expect(name);
        let run = |name: &str| crate::engine::run(&presets[index(name)].params);
        let (model, live) = (run(model_name), run(lang_pick));
        let choice = Choice::Preset(index(model_name));
        let mut s = LiveState::new(presets);
        s.result = Some(Ok(Outcome {
            choice,
            name: model_name.into(),
            command: format!("locklab live abc {model_name}"),
            version: "Zookeeper version: 3.8.0".into(),
            addr: "127.0.0.1:2181".into(),
            scaling: None,
            rows: diff::compare(&model, &live, None),
            tick_phase: None,
            live,
            model,
        }));
        s
    }

    #[test]
    fn a_redlock_preset_is_offered_and_its_result_shows_the_comparison_in_both_languages() {
        let p = crate::scenario::find("redlock-restart").expect("a preset");
        let Params::Redlock(r) = &p.params else {
            panic!("a Redlock preset")
        };
        let mut s = LiveState::new(vec![p]);
        assert_eq!(
            s.name(Choice::Preset(0), Lang::En),
            "Redlock  redlock-restart"
        );
        let t = crate::engine::run(&p.params);
        s.result = Some(Ok(Outcome {
            choice: Choice::Preset(0),
            name: p.name.clone(),
            command: "locklab live redlock redlock-restart".into(),
            version: "Redis".into(),
            addr: "127.0.0.1".into(),
            scaling: None,
            rows: crate::live::redis::compare::compare(r, &t, &t),
            tick_phase: None,
            live: t.clone(),
            model: t,
        }));
        for (lang, holders) in [
            (Lang::En, "most holders at once"),
            (Lang::Zh, "同时自认持锁"),
        ] {
            let text = screen(&s, lang, 160, 60).join("\n");
            assert!(text.contains(holders), "{text}");
            assert!(
                text.contains("locklab live redlock redlock-restart"),
                "{text}"
            );
        }
    }

    fn screen(s: &LiveState, lang: Lang, w: u16, h: u16) -> Vec<String> {
        let mut buf = Buffer::empty(Rect::new(0, 0, w, h));
        render(s, lang, Theme::default(), buf.area, &mut buf);
        // A wide character's second cell holds a blank that is not on screen: skip it.
        (0..h)
            .map(|y| {
                let mut row = String::new();
                let mut x = 0;
                while x < w {
                    let sym = buf[(x, y)].symbol();
                    row.push_str(sym);
                    x += (crate::text::width(sym) as u16).max(1);
                }
                row
            })
            .collect()
    }

    #[test]
    fn every_fact_and_the_verdict_show_at_the_smallest_size_in_both_languages() {
        let s = finished("chain");
        for lang in [Lang::En, Lang::Zh] {
            let text = screen(&s, lang, 80, 24).join("\n");
            let Some(Ok(o)) = &s.result else {
                panic!("a result")
            };
            for r in &o.rows {
                assert!(
                    text.contains(words::aspect(r.aspect, lang)),
                    "{:?} missing:\n{text}",
                    r.aspect
                );
            }
            let n = o.rows.iter().filter(|r| !r.same()).count();
            assert!(n > 0, "the two runs differ somewhere");
            assert!(text.contains(&words::verdict(n, lang)), "{text}");
        }
    }

    /// gc-pause-fencing with the model's grid at 0 and the "server's" at 0.2 s: A expires two
    /// seconds apart in the two runs, and every instant has its row.
    fn finished_on_two_grids() -> LiveState {
        let presets = abc_presets();
        let index = presets
            .iter()
            .position(|p| p.name == "gc-pause-fencing")
            .expect("the preset");
        let Params::Abc(p) = presets[index].params.clone() else {
            panic!("an A/B/C preset")
        };
        let server = crate::engine::params::AbcParams {
            tick_phase_ms: 200,
            ..p.clone()
        };
        let model = crate::engine::run(&Params::Abc(p.clone()));
        let live = crate::engine::run(&Params::Abc(server));
        let allow = crate::live::instants::Allowance::for_abc(&p, true);
        let mut s = LiveState::new(presets);
        s.result = Some(Ok(Outcome {
            choice: Choice::Preset(index),
            name: "gc-pause-fencing".into(),
            command: "locklab live abc gc-pause-fencing".into(),
            version: "Zookeeper version: 3.8.0".into(),
            addr: "127.0.0.1:2181".into(),
            scaling: None,
            rows: diff::compare(&model, &live, Some(&allow)),
            tick_phase: Some(Some(0)),
            live,
            model,
        }));
        s
    }

    #[test]
    fn every_instant_row_shows_with_its_verdict_in_both_languages_and_the_count_at_any_size() {
        let s = finished_on_two_grids();
        let Some(Ok(o)) = &s.result else {
            panic!("a result")
        };
        let instants: Vec<_> = o.rows.iter().filter_map(|r| r.instant.as_ref()).collect();
        assert!(instants.len() >= 5, "{instants:?}");
        let outside = instants.iter().filter(|i| !i.within).count();
        assert!(
            outside > 0,
            "the expiry two seconds apart is outside its tolerance"
        );
        for lang in [Lang::En, Lang::Zh] {
            let text = screen(&s, lang, 140, 42).join("\n");
            for i in &instants {
                let label = words::instant_label(i, lang);
                let verdict = words::instant_verdict(i, lang);
                assert!(
                    text.lines()
                        .any(|l| l.contains(&label) && l.contains(&verdict)),
                    "{label} / {verdict} missing:\n{text}"
                );
            }
            let n = o.rows.iter().filter(|r| !r.same()).count();
            assert!(n >= outside);
            assert!(text.contains(&words::verdict(n, lang)), "{text}");
            // At the smallest size the rows wrap, but the count of differences still shows.
            let small = screen(&s, lang, 80, 24).join("\n");
            assert!(small.contains(&words::verdict(n, lang)), "{small}");
        }
        // With room, the note says how instants are compared and where the grid was.
        let wide = screen(&s, Lang::En, 160, 70).join(" ");
        assert!(wide.contains("tick boundaries fell at 0 s"), "{wide}");
    }

    #[test]
    fn a_known_difference_says_why_in_full_when_there_is_room_and_briefly_when_not() {
        // The model leaves B's forgotten node 18 behind; the chain leaves nothing.
        let s = finished_beside("timeout-left-node", "chain");
        assert!(
            words::why_different(diff::Aspect::Numbers, Lang::En).is_none(),
            "the model numbers nodes as the server does: a difference there is to study"
        );
        let Some((short, long)) = words::why_different(diff::Aspect::LeftBehind, Lang::En) else {
            panic!("nodes left behind have a known reason")
        };
        let wide = screen(&s, Lang::En, 140, 42).join(" ");
        let first_words: String = long.chars().take(40).collect();
        assert!(wide.contains(&first_words), "{wide}");
        let narrow = screen(&s, Lang::En, 80, 24).join(" ");
        let short_words: String = short.chars().take(30).collect();
        assert!(
            narrow.contains(&short_words) || narrow.contains(&first_words),
            "{narrow}"
        );
    }

    #[test]
    fn the_model_lanes_sit_right_under_the_live_ones_on_one_axis() {
        let s = finished("chain");
        let rows = screen(&s, Lang::En, 140, 42);
        let at = |label: &str| {
            rows.iter()
                .position(|r| r.contains(label))
                .unwrap_or_else(|| panic!("no {label} row:\n{}", rows.join("\n")))
        };
        assert_eq!(at("model A"), at("live C") + 1);
        let axes = rows.iter().filter(|r| r.contains("╵0 ")).count();
        assert_eq!(axes, 1, "one time axis for both");
    }

    #[test]
    fn a_herd_result_shows_both_charts_and_the_command_that_prints_it() {
        let p = HerdParams {
            waiters: 5,
            fanout: 5,
            grab_cost_ms: 0.0,
            hold_ms: 20.0,
        };
        let model = crate::engine::run(&Params::Herd(p.clone()));
        let mut s = LiveState::new(abc_presets());
        s.result = Some(Ok(Outcome {
            choice: Choice::Herd {
                waiters: 5,
                fanout: 5,
            },
            name: "herd --waiters 5 --fanout 5".into(),
            command: "locklab live herd --waiters 5 --fanout 5".into(),
            version: String::new(),
            addr: "127.0.0.1:2181".into(),
            scaling: None,
            rows: diff::compare(&model, &model, None),
            tick_phase: None,
            live: model.clone(),
            model,
        }));
        let text = screen(&s, Lang::En, 140, 42).join("\n");
        assert!(
            text.contains(&words::herd_chart_label("live", Lang::En)),
            "{text}"
        );
        assert!(
            text.contains(&words::herd_chart_label("model", Lang::En)),
            "{text}"
        );
        assert!(
            text.contains("locklab live herd --waiters 5 --fanout 5"),
            "{text}"
        );
        assert!(text.contains(&words::verdict(0, Lang::En)), "{text}");
    }
}
