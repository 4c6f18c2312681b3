//! The application state, the messages that change it, and `update`, which routes each message.
//!
//! Input becomes a [`Msg`] in `input` ([`map_key`] / [`map_mouse`], pure, no terminal needed),
//! and [`update`] applies it. Drawing only reads the state (`draw`: [`render`] / [`draw`]);
//! the `open_*` helpers live in `open`.

use ratatui::layout::Rect;

pub use crate::tui::draw::{draw, render};
pub use crate::tui::input::{map_key, map_mouse};

use crate::engine::params::{FrozenParams, HerdParams};
use crate::engine::trace::Family;
use crate::i18n::Lang;
use crate::scenario::{Catalogue, Preset};
use crate::tui::learn::Learning;
use crate::tui::screens::abc::{AbcState, Variant};
use crate::tui::screens::explore::ExploreState;
use crate::tui::screens::family::FamilyState;
use crate::tui::screens::frozen::FrozenState;
use crate::tui::screens::herd::HerdState;
use crate::tui::screens::home::{HomeState, Item};
use crate::tui::screens::present::PresentState;
use crate::tui::screens::quiz::{self as quiz, Outcome, QuizMsg, QuizRequest, QuizState};
use crate::tui::screens::reader::{self as reader, ReaderMsg, ReaderState};
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
    /// The live lab on a real ZooKeeper.
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
pub enum Msg {
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
    Variant(Variant),
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
            live: crate::tui::screens::live::LiveState::new(
                presets
                    .iter()
                    .copied()
                    .filter(|p| match &p.params {
                        crate::engine::Params::Abc(a) => crate::live::unsupported(a).is_none(),
                        crate::engine::Params::Redlock(r) => {
                            crate::live::redis::run::unsupported(r).is_none()
                        }
                        _ => false,
                    })
                    .collect(),
            ),
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
pub fn update(app: &mut App, msg: Msg) {
    apply(app, msg);
    // The reader follows language and size changes whatever caused them.
    app.reader.sync(app.lang, app.size);
}

fn apply(app: &mut App, msg: Msg) {
    match msg {
        Msg::Quit => {
            app.reader.leave();
            // Every answer is already saved; the session's summary is recorded too.
            if let Some(q) = app.quiz.as_mut() {
                q.stop(&mut app.learn, (app.clock)());
            }
            app.quit = true;
        }
        Msg::OpenLesson(_) | Msg::OpenPreset(_) | Msg::OpenExplore(_) | Msg::StartQuiz(_)
            if app.closed_book() =>
        {
            app.refuse();
        }
        Msg::OpenLesson(i) => app.open_lesson(i),
        Msg::OpenExplore(i) => {
            if let Some(p) = app.presets.get(i) {
                app.explore.choose(&p.name);
                app.screen = ScreenId::Explore;
            }
        }
        Msg::StartQuiz(i) => match app.reader.decks.get(i).cloned() {
            Some(deck) if app.learn.bank.is_some() => {
                let req = QuizRequest {
                    deck: Some(deck),
                    ..QuizRequest::default()
                };
                app.start_quiz(&req, app.screen);
            }
            _ => app.reader.quiz_pending(i),
        },
        Msg::ToggleHelp => {
            app.help = !app.help;
            app.help_top = 0;
        }
        Msg::HelpScroll(d) => {
            app.help_top = (i32::from(app.help_top) + i32::from(d)).clamp(0, 200) as u16;
        }
        Msg::ToggleLang => app.lang = app.lang.toggle(),
        Msg::Resize(w, h) => app.size = (w, h),
        Msg::OpenPreset(i) => app.open_preset(i),
        Msg::Back if app.screen == ScreenId::Quiz && !app.help => {
            screen_update(app, Msg::Quiz(QuizMsg::Leave));
        }
        Msg::Back => {
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
        Msg::Tick => {
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

fn screen_update(app: &mut App, msg: Msg) {
    let area = app.area();
    let small = app.too_small();
    match app.screen {
        ScreenId::Present => {
            let now = (app.clock)();
            if let Some(s) = app.present.as_mut() {
                match msg {
                    Msg::Step(d) if d > 0 => s.next(),
                    Msg::Step(_) => s.back(),
                    Msg::Reveal => s.reveal(),
                    Msg::Blank => s.blank = !s.blank,
                    Msg::TogglePredict => s.predict = !s.predict,
                    Msg::Predict(n) => {
                        if let Some(g) = s.pick(usize::from(n), now, app.lang) {
                            let saved = app.learn.record(&g, now);
                            s.saved = Some(crate::tui::learn::saved_text(&saved, app.lang));
                        }
                    }
                    _ => {}
                }
            }
        }
        ScreenId::Home => match msg {
            Msg::Up => app.home.move_by(-1),
            Msg::Down => app.home.move_by(1),
            Msg::Jump(to_end) => app.home.jump(to_end),
            Msg::Scroll(d) => app
                .home
                .move_rows(i64::from(d) * super::screens::home::HomeState::page(area)),
            Msg::Wheel(d) => app.home.move_rows(i64::from(d) * 3),
            Msg::Adjust { dir, .. } => app.home.adjust(dir),
            Msg::Enter if app.closed_book() => app.refuse(),
            Msg::Enter => match app.home.current() {
                Item::Frozen => app.screen = ScreenId::Frozen,
                Item::Herd => app.screen = ScreenId::Herd,
                Item::Explore => app.screen = ScreenId::Explore,
                #[cfg(feature = "live")]
                Item::Live => app.screen = ScreenId::Live,
                Item::Lab => app.open_family(app.home.family, None),
                Item::Present(i) => {
                    if let Some(p) = app.home.presentations.get(i) {
                        app.present_preset((*p).clone(), false);
                    }
                }
                Item::Abc(i) => {
                    if i != app.abc.index {
                        app.abc.select(i);
                    }
                    app.screen = ScreenId::Abc;
                }
                Item::Lesson(i) => app.open_lesson(i),
                Item::Heading(_) => {}
                Item::Review => {
                    let req = app.filtered(QuizRequest {
                        due: true,
                        ..QuizRequest::default()
                    });
                    app.start_quiz(&req, ScreenId::Home);
                }
                Item::Exam => {
                    let req = app.filtered(QuizRequest {
                        count: Some(quiz::EXAM_SIZE),
                        ..QuizRequest::default()
                    });
                    app.start_quiz(&req, ScreenId::Home);
                }
                Item::Deck(i) => {
                    let req = app.filtered(QuizRequest {
                        deck: app.learn.deck_ids().get(i).cloned(),
                        ..QuizRequest::default()
                    });
                    app.start_quiz(&req, ScreenId::Home);
                }
                Item::Interview => app.start_quiz(
                    &QuizRequest::interview(None, None, None, None),
                    ScreenId::Home,
                ),
                Item::SelfTest => app.start_quiz(&QuizRequest::self_test(), ScreenId::Home),
                Item::KindFilter | Item::DifficultyFilter => app.home.adjust(1),
                Item::Progress => {
                    app.learn.refresh((app.clock)());
                    app.screen = ScreenId::Stats;
                }
            },
            // A click opens the row under it, as Enter does.
            Msg::Pointer { row, .. } if !app.too_small() && app.home.click(area, row).is_some() => {
                update(app, Msg::Enter)
            }
            _ => {}
        },
        ScreenId::Frozen => match msg {
            Msg::Pointer { .. } if small => {}
            m => app.frozen.update(m, area, app.lang),
        },
        ScreenId::Herd => {
            let s = &mut app.herd;
            match msg {
                Msg::Up => s.focus_by(-1),
                Msg::Down => s.focus_by(1),
                Msg::Adjust { dir, coarse } => s.adjust(dir, coarse, app.lang),
                Msg::Rows(d) => s.scroll(i64::from(d)),
                Msg::Scroll(d) => s.scroll(i64::from(d) * 10),
                Msg::Wheel(d) => s.scroll(i64::from(d) * 3),
                Msg::Pointer { col, row } if !small => s.click(area, col, row, app.lang),
                _ => {}
            }
        }
        #[cfg(feature = "live")]
        ScreenId::Live => match msg {
            Msg::Up => app.live.move_by(-1),
            Msg::Down => app.live.move_by(1),
            Msg::Enter => app.live.start(),
            _ => {}
        },
        ScreenId::Abc => match msg {
            Msg::Pointer { .. } if small => {}
            m => app.abc.update(m, area, app.lang),
        },
        ScreenId::Quiz => {
            let (Msg::Quiz(m), Some(q)) = (msg, app.quiz.as_mut()) else {
                return;
            };
            match q.update(m, &mut app.learn, (app.clock)()) {
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
        ScreenId::Stats => {
            let decks = app.learn.overview.as_ref().map_or(0, |o| o.decks.len());
            let page = i64::from(area.height / 3).max(1);
            match msg {
                Msg::Up => app.stats.scroll(-1, decks),
                Msg::Down => app.stats.scroll(1, decks),
                Msg::Scroll(d) | Msg::Wheel(d) => app.stats.scroll(i64::from(d) * page, decks),
                Msg::Jump(to_end) => app.stats.scroll(
                    if to_end {
                        decks as i64
                    } else {
                        -(decks as i64)
                    },
                    decks,
                ),
                _ => {}
            }
        }
        ScreenId::Family => match (msg, app.family.as_mut()) {
            (Msg::Pointer { .. }, _) if small => {}
            (m, Some(f)) => f.update(m, area, app.lang),
            (_, None) => {}
        },
        ScreenId::Explore => {
            let s = &mut app.explore;
            match msg {
                Msg::Up => s.move_focus(-1),
                Msg::Down => s.move_focus(1),
                Msg::Adjust { dir, .. } => s.adjust(dir),
                Msg::Cancel => s.cancel(),
                Msg::Enter if s.is_running() => {}
                Msg::Enter => match s.selected() {
                    Some(f) => {
                        let (name, about) = s.story_words(f);
                        app.abc.open_counterexample(f.params.clone(), name, about);
                        app.screen = ScreenId::Abc;
                        app.return_to = Some(ScreenId::Explore);
                    }
                    None => s.start(),
                },
                _ => {}
            }
        }
        ScreenId::Reader => {
            let r = match msg {
                Msg::Reader(r) => r,
                Msg::Wheel(d) => reader::wheel(d),
                Msg::Pointer { col, row } if !small => ReaderMsg::Click { col, row },
                _ => return,
            };
            if let Some(next) = app.reader.update(r) {
                if matches!(next, Msg::OpenPreset(_) | Msg::OpenExplore(_)) {
                    app.return_to = Some(ScreenId::Reader);
                }
                apply(app, next);
            }
        }
    }
}
