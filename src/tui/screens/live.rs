//! Live: run a preset or the herd on real servers of locklab's own, off the UI
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
use crate::engine::trace::Trace;
use crate::i18n::Lang;
use crate::live::diff::Row;
use crate::live::ensemble::presets::EnsemblePreset;
use crate::live::scale::Scaling;
use crate::live::server;
use crate::live::words;
use crate::live::{LiveFamily, family_of};
use crate::scenario::Preset;
use crate::text::clip_cols;
use crate::tui::theme::Theme;

mod keys;
mod outcome;
mod run;
pub use keys::KEYS;
use outcome::put;

/// What a row of the list runs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Choice {
    /// An index into the catalogue presets the screen was given.
    Preset(usize),
    /// An index into the ensemble's own presets.
    Ensemble(usize),
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
    ensembles: Vec<EnsemblePreset>,
    /// Every row the live lab can run, grouped by family in the live lab's order.
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

impl LiveState {
    /// The screen over `presets`: those the live lab runs, the ensemble's own stories and the
    /// two herds, grouped by family.
    pub fn new(presets: Vec<&'static Preset>) -> Self {
        let ensembles = crate::live::ensemble::presets::all();
        let mut rows: Vec<(LiveFamily, Choice)> = presets
            .iter()
            .enumerate()
            .filter_map(|(i, p)| family_of(p).map(|f| (f, Choice::Preset(i))))
            .collect();
        rows.extend((0..ensembles.len()).map(|i| (LiveFamily::Ensemble, Choice::Ensemble(i))));
        rows.extend([1, 20].map(|fanout| {
            let waiters = 20;
            (LiveFamily::Herd, Choice::Herd { waiters, fanout })
        }));
        rows.sort_by_key(|(f, _)| *f);
        Self {
            presets,
            ensembles,
            choices: rows.into_iter().map(|(_, c)| c).collect(),
            selected: 0,
            job: None,
            result: None,
        }
    }

    /// The family a row belongs to.
    pub fn family(&self, c: Choice) -> LiveFamily {
        match c {
            Choice::Preset(i) => self
                .presets
                .get(i)
                .and_then(|p| family_of(p))
                .unwrap_or(LiveFamily::Abc),
            Choice::Ensemble(_) => LiveFamily::Ensemble,
            Choice::Herd { .. } => LiveFamily::Herd,
        }
    }

    /// Whether this screen runs the row itself; the others are run from the command line.
    fn runs_here(&self, c: Choice) -> bool {
        !matches!(
            self.family(c),
            LiveFamily::Election | LiveFamily::Tasks | LiveFamily::Ensemble
        )
    }

    /// Why the servers the row needs cannot start here, if they cannot.
    fn missing(&self, c: Choice, lang: Lang) -> Option<String> {
        match self.family(c) {
            LiveFamily::Redlock => crate::live::redis::node::installed()
                .err()
                .map(|_| words::redis_not_installed(lang).to_string()),
            LiveFamily::Etcd => crate::live::etcd::server::installed()
                .err()
                .map(|e| e.message),
            LiveFamily::Election | LiveFamily::Tasks | LiveFamily::Ensemble => None,
            _ => server::installed()
                .err()
                .map(|_| words::not_installed(lang).to_string()),
        }
    }

    pub fn running(&self) -> bool {
        self.job.is_some()
    }

    pub fn move_by(&mut self, dir: i8) {
        let n = self.choices.len() as i64;
        self.selected = (self.selected as i64 + i64::from(dir)).rem_euclid(n.max(1)) as usize;
    }

    /// The row's story: its name as `locklab live` takes it.
    fn story_name(&self, c: Choice) -> String {
        match c {
            Choice::Preset(i) => self
                .presets
                .get(i)
                .map_or_else(String::new, |p| p.name.clone()),
            Choice::Ensemble(i) => self
                .ensembles
                .get(i)
                .map_or_else(String::new, |e| e.name.to_string()),
            Choice::Herd { waiters, fanout } => {
                format!("--waiters {waiters} --fanout {fanout}")
            }
        }
    }

    /// The row under its family's heading.
    fn row_name(&self, c: Choice, lang: Lang) -> String {
        match c {
            Choice::Herd { waiters, fanout } => words::herd_choice(waiters, fanout, lang),
            _ => self.story_name(c),
        }
    }

    /// The row with its family, as a run's title gives it.
    fn name(&self, c: Choice, lang: Lang) -> String {
        let family = match self.family(c) {
            LiveFamily::Abc | LiveFamily::Ensemble => "A/B/C",
            LiveFamily::Redlock => "Redlock",
            LiveFamily::Herd => return self.row_name(c, lang),
            f => f.command(),
        };
        format!("{family}  {}", self.story_name(c))
    }

    /// The command that runs the row on the command line.
    fn command(&self, c: Choice) -> String {
        let family = self.family(c).command();
        format!("locklab live {family} {}", self.story_name(c))
    }

    /// What the chosen row runs, in a sentence, before it runs.
    fn about(&self, c: Choice, lang: Lang) -> String {
        match c {
            Choice::Preset(i) => self.presets.get(i).map_or_else(String::new, |p| {
                lang.pick(&p.about.zh, &p.about.en).to_string()
            }),
            Choice::Ensemble(i) => self.ensembles.get(i).map_or_else(String::new, |e| {
                lang.pick(&e.about.zh, &e.about.en).to_string()
            }),
            Choice::Herd { fanout, .. } => words::herd_about(fanout == 1, lang).to_string(),
        }
    }

    /// Starts the chosen run on a worker thread; does nothing while one is running, where no
    /// server is installed (the screen says how to install one) or for a row run from the
    /// command line.
    pub fn start(&mut self) {
        let Some(&choice) = self.choices.get(self.selected) else {
            return;
        };
        if self.running() || !self.runs_here(choice) || self.missing(choice, Lang::En).is_some() {
            return;
        }
        let Some((expect_ms, work)) = self.work(choice) else {
            return;
        };
        let slot: Slot = Arc::default();
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

    /// The run a row starts and about how long it takes.
    fn work(&self, choice: Choice) -> Option<(u64, run::Work)> {
        let command = self.command(choice);
        let name = self.story_name(choice);
        match choice {
            Choice::Preset(i) => run::preset(choice, name, command, &self.presets.get(i)?.params),
            Choice::Herd { waiters, fanout } => Some(run::herd(choice, command, waiters, fanout)),
            Choice::Ensemble(_) => None,
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
        .map(|&c| crate::text::width(&s.row_name(c, lang)) as u16 + 4)
        // A result takes the room it needs; a heading that does not fit beside it is cut.
        .chain(
            s.choices
                .iter()
                .filter(|_| !matches!(s.result, Some(Ok(_))))
                .map(|&c| crate::text::width(words::family_heading(s.family(c), lang)) as u16 + 1),
        )
        .max()
        .unwrap_or(18);
    let list_w = widest.min(area.width / 2);
    let body = Rect::new(area.x, area.y + 2, area.width, area.height - 3);
    let list = Rect::new(body.x, body.y, list_w, body.height);
    draw_list(s, lang, theme, list, buf);
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
        && let Some(why) = s.missing(c, lang)
    {
        wrapped(buf, right, &why, theme.bad());
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
        if !s.runs_here(c) {
            let text = words::run_from_shell(&s.command(c), lang);
            put(buf, right, &mut y, &text, theme.title());
            return;
        }
    }
    put(buf, right, &mut y, words::screen_hint(lang), theme.dim());
}

/// One line of the list: a family's heading or a row.
enum Line {
    Heading(LiveFamily),
    Row(usize),
}

/// The rows under their families' headings, scrolled to keep the selected row in sight.
fn draw_list(s: &LiveState, lang: Lang, theme: Theme, list: Rect, buf: &mut Buffer) {
    let mut lines = Vec::new();
    for (i, &c) in s.choices.iter().enumerate() {
        let f = s.family(c);
        if i == 0 || s.family(s.choices[i - 1]) != f {
            lines.push(Line::Heading(f));
        }
        lines.push(Line::Row(i));
    }
    let at = lines
        .iter()
        .position(|l| matches!(l, Line::Row(i) if *i == s.selected))
        .unwrap_or(0);
    let height = list.height as usize;
    // The selected row's heading stays in sight with it where it can.
    let top = (at + 2).saturating_sub(height).min(at.saturating_sub(1));
    let running = s.job.as_ref().map(|j| j.choice);
    for (r, l) in lines.iter().skip(top).take(height).enumerate() {
        let row = Rect::new(list.x, list.y + r as u16, list.width, 1);
        match *l {
            Line::Heading(f) => {
                let heading = clip_cols(words::family_heading(f, lang), row.width as usize);
                line(buf, row, &heading, theme.title());
            }
            Line::Row(i) => {
                let c = s.choices[i];
                let (mark, style) = if i == s.selected {
                    ("> ", theme.focus())
                } else {
                    ("  ", Style::new())
                };
                let text = format!("{mark} {}", s.row_name(c, lang));
                line(buf, row, &clip_cols(&text, row.width as usize), style);
                if running == Some(c) {
                    buf.set_stringn(row.x + list.width - 1, row.y, "*", 1, theme.mark());
                }
            }
        }
    }
    if top + height < lines.len() && list.height > 0 {
        let more = format!("↓ {}", lines.len() - top - height);
        let x = list
            .right()
            .saturating_sub(crate::text::width(&more) as u16);
        buf.set_stringn(
            x,
            list.bottom() - 1,
            &more,
            list.width as usize,
            theme.dim(),
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::params::{HerdParams, Params};
    use crate::engine::trace::Family;
    use crate::live::diff;

    #[test]
    fn the_list_holds_every_abc_preset_and_both_herds_and_wraps() {
        let presets = abc_presets();
        // The A/B/C presets whose knobs the live clients make for real.
        let n = presets
            .iter()
            .filter(|p| match &p.params {
                Params::Abc(a) => crate::live::unsupported(a).is_none(),
                _ => false,
            })
            .count();
        let ensembles = crate::live::ensemble::presets::all().len();
        let mut s = LiveState::new(presets);
        assert_eq!(s.choices.len(), n + ensembles + 2);
        s.move_by(-1);
        assert_eq!(s.selected, n + ensembles + 1);
        assert!(!s.running(), "nothing runs until Enter");
    }

    #[test]
    fn every_family_the_live_lab_runs_is_listed_under_one_heading_each() {
        let every: Vec<&'static Preset> = crate::scenario::builtin().iter().collect();
        let s = LiveState::new(every);
        let families: Vec<LiveFamily> = s.choices.iter().map(|&c| s.family(c)).collect();
        // Each of `locklab live`'s stories has its rows, together.
        for f in [
            LiveFamily::Abc,
            LiveFamily::Ensemble,
            LiveFamily::Herd,
            LiveFamily::Rwlock,
            LiveFamily::Semaphore,
            LiveFamily::Election,
            LiveFamily::Tasks,
            LiveFamily::Redlock,
            LiveFamily::Etcd,
        ] {
            let at: Vec<usize> = (0..families.len()).filter(|&i| families[i] == f).collect();
            assert!(!at.is_empty(), "{f:?} has no row");
            assert_eq!(at.len(), at[at.len() - 1] - at[0] + 1, "{f:?} is split");
        }
        // A preset the live lab refuses is not offered.
        assert!(s.choices.iter().all(|&c| match c {
            Choice::Preset(i) => family_of(s.presets[i]).is_some(),
            _ => true,
        }));
        let text = screen(&s, Lang::Zh, 140, 42).join("\n");
        assert!(text.contains("Redlock（五台 Redis）"), "{text}");
        assert!(text.contains("> "), "{text}");
    }

    #[test]
    fn a_story_run_from_the_command_line_says_which_command() {
        let p = crate::scenario::find("task-claim").expect("a task preset");
        let mut s = LiveState::new(vec![p]);
        s.selected = s
            .choices
            .iter()
            .position(|c| *c == Choice::Preset(0))
            .expect("the task preset is listed");
        s.start();
        assert!(!s.running(), "task claims run from the command line");
        let text = screen(&s, Lang::En, 140, 42).join(" ");
        assert!(text.contains("locklab live tasks task-claim"), "{text}");
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
    fn every_client_of_both_runs_has_its_lane_with_the_bands_at_the_screens_size() {
        // A/B/C expire: three clients each side, and a band under each run's lanes. The model
        // run stands for the live one, so no server is needed.
        for (w, h) in [(140, 42), (100, 30)] {
            let s = finished_beside("expire", "expire");
            let rows = screen(&s, Lang::En, w, h);
            for side in ["live", "model"] {
                for c in ["A", "B", "C"] {
                    let label = format!("{side} {c} ");
                    assert!(
                        rows.iter().any(|r| r.contains(&label)),
                        "no {label}lane at {w}x{h}:\n{}",
                        rows.join("\n")
                    );
                }
            }
        }
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
        // Next to each other: live C's lane (one or two rows) and then model A's.
        let (c, a) = (at("live C"), at("model A"));
        assert!(
            (c + 1..=c + 2).contains(&a),
            "live C at {c}, model A at {a}"
        );
        assert!(
            rows[c + 1..a]
                .iter()
                .all(|r| !r.contains("live") && !r.contains("model"))
        );
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
