//! The application state, the messages that change it, and `update`, which routes each message.
//!
//! Input becomes an [`AppMsg`] in `input` ([`map_key`] / [`map_mouse`], pure, no terminal needed),
//! and [`update`] applies it. Drawing only reads the state (`draw`: [`render`] / [`draw`]);
//! the `open_*` helpers live in `open`.

use ratatui::layout::Rect;

pub use crate::tui::draw::{draw, render};
pub use crate::tui::input::{map_key, map_mouse};

use crate::engine::Params;
use crate::engine::params::{FrozenParams, HerdParams};
use crate::engine::trace::Family;
use crate::i18n::Lang;
use crate::scenario::{Catalogue, Preset};
use crate::tui::learn::Learning;
use crate::tui::screen::{Cx, Screen};
use crate::tui::screens::abc::{AbcState, RecipeVariant};
use crate::tui::screens::explore::ExploreState;
use crate::tui::screens::family::FamilyState;
use crate::tui::screens::frozen::FrozenState;
use crate::tui::screens::herd::HerdState;
use crate::tui::screens::home::{HomeRow, HomeState};
use crate::tui::screens::labs::FrozenPreset;
use crate::tui::screens::present::PresentState;
use crate::tui::screens::quiz::{self as quiz, Outcome, QuizMsg, QuizRequest, QuizState};
use crate::tui::screens::reader::{ReaderMsg, ReaderState};
use crate::tui::theme::Theme;

/// The smallest terminal the screens are laid out for.
pub const MIN_COLS: u16 = 80;
pub const MIN_ROWS: u16 = 24;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ScreenId {
    Home,
    Frozen,
    Abc,
    Herd,
    /// The live lab on real servers.
    #[cfg(feature = "live")]
    Live,
    Present,
    Reader,
    /// A closed-book quiz session.
    Quiz,
    /// Progress: mastery, score history, forecast, streak.
    Stats,
    /// The explorer: search every interleaving for what breaks a recipe.
    Explore,
    /// The family lab: a knob family's run with its knob panel.
    Family,
}

/// Something the user asked for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AppMsg {
    Quit,
    /// Back to home; quits from home.
    Back,
    ToggleHelp,
    ToggleLang,
    /// Home: move the selection. Slider screens: select a slider.
    Up,
    Down,
    Enter,
    /// Adjust the focused slider one step (`coarse` with Shift).
    Adjust {
        dir: i8,
        coarse: bool,
    },
    /// Step to the previous/next event.
    Step(i8),
    /// Jump to the start (`false`) or end (`true`).
    Jump(bool),
    TogglePlay,
    /// Play faster (`1`) or slower (`-1`).
    Speed(i8),
    Tick,
    ToggleFencing,
    ToggleStopOnLoss,
    RecipeVariant(RecipeVariant),
    Preset(i8),
    Compare,
    Resize(u16, u16),
    /// Presenter: show the engine's answer to the step's question.
    Reveal,
    /// Presenter: blank the screen (or bring it back).
    Blank,
    /// Presenter: prediction mode on or off.
    TogglePredict,
    /// Presenter: pick prediction number `n` (0-based).
    Predict(u8),
    /// Open a preset on its screen (an index into the app's catalogue).
    OpenPreset(usize),
    /// Open a lesson (an index into the reader's topics).
    OpenLesson(usize),
    /// Open the explorer on an A/B/C preset (an index into the A/B/C presets).
    OpenExplore(usize),
    /// Stop what is running (the explorer's search).
    Cancel,
    /// Start a closed-book quiz (an index into `content::deck::load_all`).
    StartQuiz(usize),
    /// A key for the lesson reader.
    Reader(ReaderMsg),
    /// A key for the quiz screen.
    Quiz(QuizMsg),
    /// A mouse-wheel notch: up (-1) or down (1).
    Wheel(i8),
    /// Playback by event or by time.
    TogglePace,
    /// The next (`1`) or previous key moment.
    Moment(i8),
    /// The first invariant violation.
    FirstViolation,
    /// Zoom the time axis in (`1`), out (`-1`) or back to the whole run (`0`).
    Zoom(i8),
    /// Pan the zoomed time axis.
    Pan(i8),
    /// The sequence chart instead of the lanes, or back.
    ToggleSequence,
    /// Heartbeats in the sequence chart: shown, faint, hidden.
    ToggleHeartbeats,
    /// Move the event log's (or chart's) pick by one.
    LogMove(i8),
    /// A page up (`-1`) or down in the log, the chart or the herd rows.
    Scroll(i8),
    /// Herd: scroll the release rows by one.
    Rows(i8),
    /// Scroll the help popup.
    HelpScroll(i8),
    /// A left click or drag at a cell.
    Pointer {
        col: u16,
        row: u16,
    },
}

pub struct App {
    pub lang: Lang,
    pub theme: Theme,
    pub screen: ScreenId,
    pub help: bool,
    /// The first row the help popup shows.
    pub help_top: u16,
    pub size: (u16, u16),
    pub quit: bool,
    /// Every preset of the content in use; screens and links open presets from it alone.
    pub catalogue: &'static Catalogue,
    /// The catalogue's A/B/C presets, the A/B/C screen's list.
    pub presets: Vec<&'static Preset>,
    pub home: HomeState,
    /// Progress: where its deck list starts.
    pub stats: super::screens::stats::StatsView,
    pub frozen: FrozenState,
    pub abc: AbcState,
    pub herd: HerdState,
    pub explore: ExploreState,
    #[cfg(feature = "live")]
    pub live: crate::tui::screens::live::LiveState,
    pub present: Option<PresentState>,
    /// The family lab's run, once one was opened.
    pub family: Option<FamilyState>,
    /// Leaving the presenter quits instead of going home (it was opened from the command line).
    pub present_only: bool,
    pub reader: ReaderState,
    /// Where Back goes from a simulation opened from a lesson.
    pub return_to: Option<ScreenId>,
    /// The decks and the progress store, opened once at start-up.
    pub learn: Learning,
    /// The running (or just finished) quiz.
    pub quiz: Option<QuizState>,
    /// Ending the quiz quits (it was opened from the command line).
    pub quiz_only: bool,
    /// The wall clock for quiz answers; tests fix it.
    pub clock: fn() -> crate::quiz::sched::Time,
}

impl App {
    pub fn new(screen: ScreenId, abc_preset: Option<&str>, lang: Lang, theme: Theme) -> Self {
        let reader = ReaderState::new(
            &crate::source::Source::Embedded,
            crate::tui::reading::data_dir_from_env(),
        );
        Self::with_reader(
            screen,
            abc_preset,
            lang,
            theme,
            reader,
            Catalogue::embedded(),
        )
    }

    /// Like [`App::new`], with the lessons and the reading-position folder chosen by the caller.
    pub fn with_reader(
        screen: ScreenId,
        abc_preset: Option<&str>,
        lang: Lang,
        theme: Theme,
        mut reader: ReaderState,
        catalogue: &'static Catalogue,
    ) -> Self {
        let presets: Vec<&'static Preset> = catalogue.of_family(Family::Abc);
        reader.catalogue = catalogue;
        Self {
            lang,
            theme,
            screen,
            help: false,
            help_top: 0,
            size: (MIN_COLS, MIN_ROWS),
            quit: false,
            home: HomeState::new(presets.len(), reader.topics.len(), catalogue),
            stats: Default::default(),
            frozen: FrozenState::new(FrozenParams::default()),
            abc: AbcState::new(presets.clone(), abc_preset),
            herd: HerdState::new(HerdParams::default()),
            explore: ExploreState::new(presets.clone()),
            #[cfg(feature = "live")]
            live: crate::tui::screens::live::LiveState::new(catalogue.all().iter().collect()),
            present: None,
            family: None,
            present_only: false,
            catalogue,
            presets,
            reader,
            return_to: None,
            learn: Learning::default(),
            quiz: None,
            quiz_only: false,
            clock: crate::quiz::clock::now,
        }
    }

    /// Takes the decks and the progress store; Home lists a quiz entry per deck.
    pub fn set_learning(&mut self, learn: Learning) {
        self.learn = learn;
        self.home = HomeState::new(self.presets.len(), self.reader.topics.len(), self.catalogue)
            .with_quizzes(self.learn.deck_ids().len());
        self.resume_start_path();
    }

    /// Home opens on the start path's next step, from the data folder's record of it.
    fn resume_start_path(&mut self) {
        let reached = self
            .reader
            .data_dir
            .as_deref()
            .map_or(0, crate::tui::start_path::load);
        self.home.resume(reached);
    }

    /// The selected home row is about to open: a new step reached on the start path is saved
    /// (a failed save only costs the resume point, as with the reading positions).
    fn note_start_path(&mut self) -> Option<usize> {
        let reached = self.home.opened()?;
        if let Some(dir) = self.reader.data_dir.as_deref() {
            let _ = crate::tui::start_path::save(dir, reached);
        }
        Some(reached)
    }

    /// A quiz session is running: lessons and simulations stay closed.
    pub fn closed_book(&self) -> bool {
        self.quiz.as_ref().is_some_and(QuizState::running)
    }

    pub fn too_small(&self) -> bool {
        self.size.0 < MIN_COLS || self.size.1 < MIN_ROWS
    }

    /// The lessons in one language, for the interview report's titles.
    pub fn lessons_in(&self, lang: Lang) -> Vec<crate::content::lesson::Lesson> {
        self.reader
            .topics
            .iter()
            .filter_map(|t| match lang {
                Lang::Zh => t.zh.clone(),
                Lang::En => t.en.clone(),
            })
            .collect()
    }

    /// Whether a live run is under way (never, in a build without the live lab).
    fn live_running(&self) -> bool {
        #[cfg(feature = "live")]
        return self.live.running();
        #[cfg(not(feature = "live"))]
        false
    }

    /// Whether a clock is on screen (an interview), so idle wake-ups should redraw it.
    pub fn wants_clock(&self) -> bool {
        (self.screen == ScreenId::Quiz && self.quiz.as_ref().is_some_and(QuizState::timed))
            || self.live_running()
    }

    /// The home quiz filters as a request, for the review, the exam and the deck quizzes.
    fn filtered(&self, req: QuizRequest) -> QuizRequest {
        QuizRequest {
            kind: self.home.kind,
            difficulty: self.home.difficulty,
            ..req
        }
    }

    /// Whether a playback is running, so the loop should wake for ticks.
    pub fn playing(&self) -> bool {
        match self.screen {
            ScreenId::Frozen => self.frozen.view.tl.playing,
            ScreenId::Abc => self.abc.view.tl.playing,
            ScreenId::Explore => self.explore.is_running(),
            ScreenId::Family => self.family.as_ref().is_some_and(|f| f.view.tl.playing),
            _ => false,
        }
    }

    /// The time cursor of the lab screen on show, if it has one.
    pub fn lab_cursor(&self) -> Option<crate::engine::time::Millis> {
        match self.screen {
            ScreenId::Frozen => Some(self.frozen.view.tl.cursor_ms),
            ScreenId::Abc => Some(self.abc.view.tl.cursor_ms),
            ScreenId::Family => self.family.as_ref().map(|f| f.view.tl.cursor_ms),
            _ => None,
        }
    }

    fn area(&self) -> Rect {
        Rect::new(0, 0, self.size.0, self.size.1)
    }
}

/// Applies one message.
pub fn update(app: &mut App, msg: AppMsg) {
    apply(app, msg);
    // The reader follows language and size changes whatever caused them.
    app.reader.sync(app.lang, app.size);
}

fn apply(app: &mut App, msg: AppMsg) {
    match msg {
        AppMsg::Quit => {
            app.reader.leave();
            // Every answer is already saved; the session's summary is recorded too.
            if let Some(q) = app.quiz.as_mut() {
                q.stop(&mut app.learn, (app.clock)());
            }
            app.quit = true;
        }
        AppMsg::OpenLesson(_)
        | AppMsg::OpenPreset(_)
        | AppMsg::OpenExplore(_)
        | AppMsg::StartQuiz(_)
            if app.closed_book() =>
        {
            app.refuse();
        }
        AppMsg::OpenLesson(i) => app.open_lesson(i),
        AppMsg::OpenExplore(i) => {
            if let Some(p) = app.presets.get(i) {
                app.explore.choose(&p.name);
                app.screen = ScreenId::Explore;
            }
        }
        AppMsg::StartQuiz(i) => match app.reader.decks.get(i).cloned() {
            Some(deck) if app.learn.bank.is_some() => {
                let req = QuizRequest {
                    deck: Some(deck),
                    ..QuizRequest::default()
                };
                app.start_quiz(&req, app.screen);
            }
            _ => app.reader.quiz_pending(i),
        },
        AppMsg::ToggleHelp => {
            app.help = !app.help;
            app.help_top = 0;
        }
        AppMsg::HelpScroll(d) => {
            app.help_top = (i32::from(app.help_top) + i32::from(d)).clamp(0, 200) as u16;
        }
        AppMsg::ToggleLang => {
            app.lang = app.lang.toggle();
            if let Some(q) = app.quiz.as_mut() {
                q.relang(app.lang);
            }
        }
        AppMsg::Resize(w, h) => app.size = (w, h),
        AppMsg::OpenPreset(i) => app.open_preset(i),
        AppMsg::Back if app.screen == ScreenId::Quiz && !app.help => {
            screen_update(app, AppMsg::Quiz(QuizMsg::Leave));
        }
        AppMsg::Back => {
            app.help = false;
            app.frozen.view.tl.playing = false;
            app.abc.view.tl.playing = false;
            if let Some(f) = app.family.as_mut() {
                f.view.tl.playing = false;
            }
            // A search never goes on out of sight.
            app.explore.cancel();
            if app.screen == ScreenId::Reader {
                app.reader.leave();
            }
            if app.screen == ScreenId::Home || (app.screen == ScreenId::Present && app.present_only)
            {
                app.quit = true;
            } else {
                app.screen = app.return_to.take().unwrap_or(ScreenId::Home);
            }
        }
        AppMsg::Tick => {
            // A live run finishes in the background, whichever screen is up.
            #[cfg(feature = "live")]
            if app.live.running() {
                app.live.poll();
            }
            tick(app);
        }
        _ => screen_update(app, msg),
    }
}

/// `P` and the numbers on a lab screen: ask the run's question, or pick an answer, save it
/// and play the run to it. False on a screen without a lab timeline.
fn lab_predict(app: &mut App, msg: AppMsg) -> bool {
    use crate::tui::lab_predict::LabPrediction;
    let catalogue = app.catalogue;
    let own = |name: Option<&str>, params: Params| {
        name.and_then(|n| catalogue.find(n))
            .filter(|p| p.params == params)
    };
    let (view, trace, preset) = match app.screen {
        ScreenId::Frozen => {
            let f = &mut app.frozen;
            let params = Params::Frozen(f.params.clone());
            (&mut f.view, &f.runs.trace, own(f.preset.as_deref(), params))
        }
        ScreenId::Abc => {
            let a = &mut app.abc;
            let name = a.story.is_none().then(|| a.preset()).flatten();
            let params = Params::Abc(a.params.clone());
            (
                &mut a.view,
                &a.runs.trace,
                own(name.map(|p| p.name.as_str()), params),
            )
        }
        ScreenId::Family => match app.family.as_mut() {
            Some(f) => {
                let params = f.params.clone();
                (&mut f.view, &f.runs.trace, own(f.preset.as_deref(), params))
            }
            None => return false,
        },
        _ => return false,
    };
    view.notice = None;
    match msg {
        AppMsg::TogglePredict => {
            // P drops a prediction still waiting; otherwise it asks a new one.
            if view.predict.as_ref().is_some_and(LabPrediction::waiting) {
                view.predict = None;
            } else {
                view.predict = LabPrediction::ask(preset, trace, &mut view.tl);
                if view.predict.is_none() {
                    view.notice = Some(
                        crate::i18n::present::present(
                            crate::i18n::present::Present::PredictNoQuestion,
                            app.lang,
                        )
                        .to_string(),
                    );
                }
            }
        }
        AppMsg::Predict(n) => {
            let now = (app.clock)();
            if let Some(p) = view.predict.as_mut()
                && let Some(g) = p.pick(trace, &mut view.tl, usize::from(n), now, app.lang)
            {
                let saved = app.learn.record(&g, now);
                p.saved = Some(crate::tui::learn::saved_text(&saved, app.lang));
            }
        }
        _ => {}
    }
    true
}

/// One tick for the screen on show.
fn tick(app: &mut App) {
    match app.screen {
        ScreenId::Frozen => app.frozen.view.tl.tick(&app.frozen.runs.trace),
        ScreenId::Abc => app.abc.view.tl.tick(&app.abc.runs.trace),
        ScreenId::Quiz => {
            let now = (app.clock)();
            if let Some(q) = app.quiz.as_mut() {
                q.tick(now);
            }
        }
        ScreenId::Explore => app.explore.work(),
        ScreenId::Family => {
            if let Some(f) = app.family.as_mut() {
                f.view.tl.tick(&f.runs.trace);
            }
        }
        _ => {}
    }
}

/// Hands a message to the screen on show, through the one [`Screen`] trait, and carries out
/// what the screen hands back.
fn screen_update(app: &mut App, msg: AppMsg) {
    if matches!(msg, AppMsg::TogglePredict | AppMsg::Predict(_)) && lab_predict(app, msg) {
        return;
    }
    let mut cx = Cx {
        lang: app.lang,
        area: app.area(),
        small: app.too_small(),
        now: (app.clock)(),
        learn: &mut app.learn,
    };
    match app.screen {
        ScreenId::Home => {
            if app.home.handle(msg, &mut cx).is_some() {
                open_selected(app);
            }
        }
        ScreenId::Frozen => {
            if let Some(FrozenPreset(d)) = app.frozen.handle(msg, &mut cx) {
                app.frozen_preset(d);
            }
        }
        ScreenId::Abc => _ = app.abc.handle(msg, &mut cx),
        ScreenId::Herd => _ = app.herd.handle(msg, &mut cx),
        #[cfg(feature = "live")]
        ScreenId::Live => _ = app.live.handle(msg, &mut cx),
        ScreenId::Present => {
            if let Some(s) = app.present.as_mut() {
                _ = s.handle(msg, &mut cx);
            }
        }
        ScreenId::Family => {
            if let Some(f) = app.family.as_mut() {
                _ = f.handle(msg, &mut cx);
            }
        }
        ScreenId::Stats => _ = app.stats.handle(msg, &mut cx),
        ScreenId::Explore => {
            if let Some(f) = app.explore.handle(msg, &mut cx) {
                app.abc.open_counterexample(f.params, f.name, f.about);
                app.screen = ScreenId::Abc;
                app.return_to = Some(ScreenId::Explore);
            }
        }
        ScreenId::Quiz => {
            let Some(q) = app.quiz.as_mut() else { return };
            match q.handle(msg, &mut cx) {
                Some(Outcome::Done) => {
                    let from = q.from;
                    app.quiz = None;
                    if app.quiz_only {
                        app.quit = true;
                    } else {
                        app.screen = from;
                    }
                }
                Some(Outcome::OpenRun(p)) => app.open_run(p),
                Some(Outcome::Study(target)) => app.open_study(&target),
                None => {}
            }
        }
        ScreenId::Reader => {
            if let Some(next) = app.reader.handle(msg, &mut cx) {
                if matches!(next, AppMsg::OpenPreset(_) | AppMsg::OpenExplore(_)) {
                    app.return_to = Some(ScreenId::Reader);
                }
                apply(app, next);
            }
        }
    }
}

/// Enter or a click on home: opens the selected row, unless a quiz is running.
fn open_selected(app: &mut App) {
    if app.closed_book() {
        app.refuse();
        return;
    }
    let reached = app.note_start_path();
    open_home_row(app);
    // Back on home, the selection waits on the path's next step.
    if let Some(n) = reached {
        app.home.resume(n);
    }
}

/// Enter on home: opens the selected row.
fn open_home_row(app: &mut App) {
    match app.home.current() {
        HomeRow::Frozen => app.screen = ScreenId::Frozen,
        HomeRow::Herd => app.screen = ScreenId::Herd,
        HomeRow::Explore => app.screen = ScreenId::Explore,
        #[cfg(feature = "live")]
        HomeRow::Live => app.screen = ScreenId::Live,
        HomeRow::Lab => app.open_family(app.home.family, None),
        HomeRow::Present(i) => {
            if let Some(p) = app.home.presentations.get(i) {
                app.present_preset((*p).clone(), false);
            }
        }
        HomeRow::Abc(i) => {
            if i != app.abc.index {
                app.abc.select(i);
            }
            app.screen = ScreenId::Abc;
        }
        HomeRow::Lesson(i) => app.open_lesson(i),
        HomeRow::Heading(_) => {}
        HomeRow::Review => {
            let req = app.filtered(QuizRequest {
                due: true,
                ..QuizRequest::default()
            });
            app.start_quiz(&req, ScreenId::Home);
        }
        HomeRow::Exam => {
            let req = app.filtered(QuizRequest {
                count: Some(quiz::EXAM_SIZE),
                ..QuizRequest::default()
            });
            app.start_quiz(&req, ScreenId::Home);
        }
        HomeRow::Deck(i) => {
            let req = app.filtered(QuizRequest {
                deck: app.learn.deck_ids().get(i).cloned(),
                ..QuizRequest::default()
            });
            app.start_quiz(&req, ScreenId::Home);
        }
        HomeRow::Interview => app.start_quiz(
            &QuizRequest::interview(None, None, None, None),
            ScreenId::Home,
        ),
        HomeRow::SelfTest => app.start_quiz(&QuizRequest::self_test(), ScreenId::Home),
        HomeRow::KindFilter | HomeRow::DifficultyFilter => app.home.adjust(1),
        HomeRow::Progress => {
            app.learn.refresh((app.clock)());
            app.screen = ScreenId::Stats;
        }
    }
}
