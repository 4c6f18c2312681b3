//! Opening things from anywhere in the app: a lesson, a preset, a family's lab, a model
//! question's run, a quiz; each sets the screen it opens and where Back goes.

use crate::engine::trace::Family;
use crate::i18n::Lang;
use crate::scenario::Preset;
use crate::tui::app::{App, ScreenId};
use crate::tui::screens::family::FamilyState;
use crate::tui::screens::frozen::FrozenState;
use crate::tui::screens::herd::HerdState;
use crate::tui::screens::present::PresentState;
use crate::tui::screens::quiz::{self as quiz, QuizNotice, QuizRequest};

impl App {
    /// Refuses to open a lesson or simulation during a session: back to the quiz, saying why.
    pub(super) fn refuse(&mut self) {
        if let Some(q) = self.quiz.as_mut() {
            q.notice = Some(QuizNotice::ClosedBook);
        }
        self.screen = ScreenId::Quiz;
        self.help = false;
    }

    /// Starts a closed-book session; `from` is where its end goes back to. When nothing matches,
    /// Home says so.
    pub fn start_quiz(&mut self, req: &QuizRequest, from: ScreenId) {
        if self.closed_book() {
            self.refuse();
            return;
        }
        let lang = self.lang;
        match quiz::begin(
            req,
            &self.learn,
            |l| self.lessons_in(l),
            lang,
            from,
            (self.clock)(),
        ) {
            Ok(q) => {
                self.quiz = Some(q);
                self.learn.notice = None;
                self.help = false;
                self.screen = ScreenId::Quiz;
            }
            Err(notice) => self.learn.notice = Some(notice),
        }
    }

    /// Opens an answered model question's exact run on its screen; Back returns to the quiz.
    pub(super) fn open_run(&mut self, params: crate::engine::Params) {
        match params {
            crate::engine::Params::Frozen(p) => {
                self.frozen = FrozenState::new(p);
                self.screen = ScreenId::Frozen;
            }
            crate::engine::Params::Herd(p) => {
                self.herd = HerdState::new(p);
                self.screen = ScreenId::Herd;
            }
            crate::engine::Params::Abc(p) => {
                let about = |lang| crate::i18n::ui(crate::i18n::Ui::ModelRunAbout, lang).into();
                let story = crate::tui::screens::abc::Story {
                    name: crate::i18n::ui(crate::i18n::Ui::ModelRun, self.lang).into(),
                    about: crate::scenario::Text {
                        zh: about(Lang::Zh),
                        en: about(Lang::En),
                    },
                    correct: None,
                };
                self.abc.open_params(p, story);
                self.screen = ScreenId::Abc;
            }
            // The other families: the question's run plays in the presenter's lanes.
            crate::engine::Params::Rwlock(_)
            | crate::engine::Params::Semaphore(_)
            | crate::engine::Params::Election(_)
            | crate::engine::Params::Tasks(_)
            | crate::engine::Params::Redlock(_)
            | crate::engine::Params::Snowflake(_)
            | crate::engine::Params::Etcd(_) => {
                let about = |lang| crate::i18n::ui(crate::i18n::Ui::ModelRunAbout, lang).into();
                self.present_preset(
                    Preset::of_run(
                        params,
                        crate::scenario::Text {
                            zh: about(Lang::Zh),
                            en: about(Lang::En),
                        },
                    ),
                    false,
                );
            }
        }
        self.return_to = Some(ScreenId::Quiz);
    }

    /// Opens an interview report's study link: a simulation preset, a lesson, or one `##`
    /// section of a lesson. Back returns to the report.
    pub(super) fn open_study(&mut self, target: &str) {
        use crate::quiz::report::{Target, parse_target};
        match parse_target(target) {
            Some(Target::Sim(name)) => self.open_preset_named(name),
            Some(Target::Lesson(id, section)) => {
                let Some(i) = self.reader.topics.iter().position(|t| t.id == id) else {
                    return;
                };
                self.open_lesson(i);
                if let Some(n) = section {
                    let r = &mut self.reader;
                    let line = r
                        .doc
                        .headings
                        .iter()
                        .filter(|h| h.level == 2)
                        .nth(n - 1)
                        .map(|h| h.line);
                    if let Some(line) = line {
                        r.top = line.min(r.doc.lines.len().saturating_sub(r.rows));
                    }
                }
            }
            None => return,
        }
        if self.screen != ScreenId::Quiz {
            self.return_to = Some(ScreenId::Quiz);
        }
    }

    /// Opens lesson `index` in the reader, where it was left.
    pub fn open_lesson(&mut self, index: usize) {
        if index < self.reader.topics.len() {
            self.reader.open(index, self.lang, self.size);
            self.screen = ScreenId::Reader;
        }
    }

    /// Opens the presenter view of a preset; `only` when it is all this run shows.
    pub fn present_preset(&mut self, preset: Preset, only: bool) {
        self.present = Some(PresentState::new(preset));
        self.present_only = only;
        self.screen = ScreenId::Present;
    }

    /// Opens preset `index` of the app's catalogue on its family's screen.
    pub fn open_preset(&mut self, index: usize) {
        if let Some(p) = self.catalogue.all().get(index) {
            self.open_on_screen(p);
        }
    }

    /// Opens the catalogue's preset named `name` on its family's screen; nothing happens when
    /// the content in use has none of that name.
    pub fn open_preset_named(&mut self, name: &str) {
        if let Some(p) = self.catalogue.find(name) {
            self.open_on_screen(p);
        }
    }

    fn open_on_screen(&mut self, p: &'static Preset) {
        match &p.params {
            crate::engine::Params::Frozen(_) => {
                if let Some(f) = FrozenState::from_preset(p) {
                    self.frozen = f;
                }
                self.screen = ScreenId::Frozen;
            }
            crate::engine::Params::Herd(params) => {
                self.herd = HerdState::new(params.clone());
                self.herd.locked = p.locked.clone();
                self.screen = ScreenId::Herd;
            }
            crate::engine::Params::Abc(_) => {
                if let Some(i) = self.presets.iter().position(|q| q.name == p.name) {
                    self.abc.select(i);
                    self.screen = ScreenId::Abc;
                }
            }
            crate::engine::Params::Rwlock(_)
            | crate::engine::Params::Semaphore(_)
            | crate::engine::Params::Election(_)
            | crate::engine::Params::Tasks(_)
            | crate::engine::Params::Redlock(_)
            | crate::engine::Params::Snowflake(_)
            | crate::engine::Params::Etcd(_) => {
                self.present_preset(p.clone(), false);
            }
        }
    }

    /// The frozen holder's next (`dir > 0`) or previous preset, in name order; from a run of
    /// no preset, the first or the last.
    pub fn frozen_preset(&mut self, dir: i8) {
        let all = self.catalogue.of_family(Family::Frozen);
        if all.is_empty() {
            return;
        }
        let n = all.len() as i64;
        let here = self
            .frozen
            .preset
            .as_deref()
            .and_then(|name| all.iter().position(|p| p.name == name));
        let next = match here {
            Some(i) => (i as i64 + i64::from(dir.signum())).rem_euclid(n),
            None if dir < 0 => n - 1,
            None => 0,
        };
        if let Some(f) = FrozenState::from_preset(all[next as usize]) {
            self.frozen = f;
        }
    }

    /// Opens the family lab on `family`, at the preset named `preset` (else its first one).
    pub fn open_family(&mut self, family: Family, preset: Option<&str>) {
        if let Some(s) = FamilyState::open(family, preset, self.catalogue) {
            self.family = Some(s);
            self.screen = ScreenId::Family;
        }
    }

    /// Opens a preset (shipped or read from a file) on the lab screen that plays its run: the
    /// frozen holder, A/B/C, or the family lab. False for the herd chart, which has no timeline.
    pub fn open_lab(&mut self, p: &Preset) -> bool {
        match &p.params {
            crate::engine::Params::Frozen(_) => match FrozenState::from_preset(p) {
                Some(f) => {
                    self.frozen = f;
                    self.screen = ScreenId::Frozen;
                }
                None => return false,
            },
            crate::engine::Params::Abc(params) => {
                match self.presets.iter().position(|q| q.name == p.name) {
                    Some(i) if self.presets[i].params == p.params => self.abc.select(i),
                    _ => self.abc.open_params(
                        params.clone(),
                        crate::tui::screens::abc::Story {
                            name: p.name.clone(),
                            about: p.about.clone(),
                            correct: None,
                        },
                    ),
                }
                self.screen = ScreenId::Abc;
            }
            crate::engine::Params::Herd(_) => return false,
            _ => match FamilyState::from_preset(p) {
                Some(f) => {
                    self.family = Some(f);
                    self.screen = ScreenId::Family;
                }
                None => return false,
            },
        }
        true
    }
}
