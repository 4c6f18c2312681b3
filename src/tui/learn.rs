//! What the quiz and progress screens share: the question bank and the progress store, opened
//! once at start-up, and the numbers Home shows (due today, the 14-day forecast).
//!
//! Saving goes through [`Learning::record`] after every answer, exactly as plain mode does; a
//! store that opened read-only (another locklab, a newer file, a corrupt file set aside) keeps
//! answers in memory and says so.

use std::path::{Path, PathBuf};

use crate::i18n::Lang;
use crate::progress::stats::{self, Overview};
use crate::progress::store::Store;
use crate::progress::words as pwords;
use crate::quiz::sched::{Calendar, Time};
use crate::quiz::select::Bank;
use crate::quiz::session::Graded;
use crate::quiz::summary::Summary;
use crate::source::Source;

/// The outcome of the last write, shown on the quiz screen.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Saved {
    /// Written; the file now holds this many answers.
    Saved(usize),
    /// The store is read-only: the answer is kept for this run only.
    ReadOnly,
    /// No progress file at all (none could be opened).
    NoStore,
    /// The write failed; the answer stays in memory and the next save may succeed.
    Failed(String),
}

/// Why the progress file could not be opened.
#[derive(Debug)]
pub struct OpenError {
    pub dir: Option<PathBuf>,
    pub message: String,
}

#[derive(Debug, Default)]
pub struct Learning {
    /// Every deck; `None` when the decks do not load (the reason is in `bank_error`).
    pub bank: Option<Bank>,
    pub bank_error: Option<String>,
    pub store: Option<Store>,
    pub open_error: Option<OpenError>,
    /// The learner's calendar, for "due today".
    pub calendar: Calendar,
    /// Numbers for Home and the stats screen, as of the last refresh.
    pub overview: Option<Overview>,
    /// Percent per finished session, oldest first.
    pub history: Vec<u64>,
    /// A one-line message for Home (nothing due, no such deck ...).
    pub notice: Option<String>,
}

impl Learning {
    /// Loads the decks from `source` and opens the progress file in `dir` (no file when `None`).
    pub fn open(source: &Source, dir: Option<&Path>, now: Time, calendar: Calendar) -> Self {
        let (bank, bank_error) = match Bank::load(source) {
            Ok(b) => (Some(b), None),
            Err(e) => (None, Some(e.to_string())),
        };
        let (store, open_error) = match dir {
            None => (None, None),
            Some(d) => match Store::open(d, now) {
                Ok(s) => (Some(s), None),
                Err(e) => (
                    None,
                    Some(OpenError {
                        dir: Some(d.to_path_buf()),
                        message: e.to_string(),
                    }),
                ),
            },
        };
        let mut l = Learning {
            bank,
            bank_error,
            store,
            open_error,
            calendar,
            ..Learning::default()
        };
        if let (Some(s), Some(b)) = (l.store.as_mut(), l.bank.as_ref()) {
            // Renamed questions keep their history; written back on the next save.
            s.data_mut().apply_aliases(&b.aliases());
        }
        l.refresh(now);
        l
    }

    /// A data dir that could not be found at all (no home folder).
    pub fn no_dir(mut self, message: String) -> Self {
        self.open_error = Some(OpenError { dir: None, message });
        self
    }

    /// Recomputes what Home and the stats screen show.
    pub fn refresh(&mut self, now: Time) {
        let Some(store) = &self.store else {
            self.overview = None;
            self.history.clear();
            return;
        };
        let p = store.data();
        self.overview = Some(stats::overview(p, self.bank.as_ref(), now, self.calendar));
        self.history = p
            .sessions
            .iter()
            .filter(|s| s.max > 0)
            .map(|s| u64::from(s.score) * 100 / u64::from(s.max))
            .collect();
    }

    pub fn deck_ids(&self) -> Vec<String> {
        self.bank.as_ref().map_or_else(Vec::new, |b| {
            b.deck_ids().iter().map(|s| s.to_string()).collect()
        })
    }

    /// The deck with id `id` by its title in `lang`; the id when no deck has it.
    pub fn deck_title(&self, id: &str, lang: Lang) -> String {
        self.bank
            .as_ref()
            .and_then(|b| b.decks.iter().find(|d| d.deck.deck.get_ref() == id))
            .map_or_else(
                || id.to_string(),
                |d| {
                    let t = d.deck.title.get_ref();
                    lang.pick(&t.zh, &t.en).to_string()
                },
            )
    }

    /// Whether answers reach the disk.
    pub fn writable(&self) -> bool {
        self.store.as_ref().is_some_and(Store::is_writable)
    }

    /// What the store said on opening, or why there is none, in `lang`; empty when all is well.
    pub fn messages(&self, lang: Lang) -> Vec<String> {
        let mut out = Vec::new();
        if let Some(e) = &self.bank_error {
            out.push(e.clone());
        }
        if let Some(e) = &self.open_error {
            out.push(match &e.dir {
                Some(d) => pwords::cannot_open(d, &std::io::Error::other(e.message.clone()), lang),
                None => e.message.clone(),
            });
        }
        if let Some(s) = &self.store {
            out.extend(s.notices.iter().map(|n| pwords::notice(n, lang)));
        }
        out
    }

    /// Records an answer and saves at once, so a crash loses nothing answered.
    pub fn record(&mut self, g: &Graded, now: Time) -> Saved {
        let Some(store) = self.store.as_mut() else {
            return Saved::NoStore;
        };
        store.data_mut().record(g);
        let saved = save(store);
        self.refresh(now);
        saved
    }

    /// Records the end of a session (only one with answers, as plain mode does).
    pub fn record_session(&mut self, s: &Summary, now: Time) -> Saved {
        let Some(store) = self.store.as_mut() else {
            return Saved::NoStore;
        };
        if s.answered == 0 {
            return Saved::Saved(store.data().answers.len());
        }
        store.data_mut().record_session(s);
        let saved = save(store);
        self.refresh(now);
        saved
    }
}

fn save(store: &mut Store) -> Saved {
    match store.save() {
        Ok(true) => Saved::Saved(store.data().answers.len()),
        Ok(false) => Saved::ReadOnly,
        Err(e) => Saved::Failed(e.to_string()),
    }
}

/// The save status in words.
pub fn saved_text(s: &Saved, lang: Lang) -> String {
    match s {
        Saved::Saved(n) => pwords::saved(*n, lang),
        Saved::ReadOnly => pwords::not_saved(lang).to_string(),
        Saved::NoStore => crate::i18n::ui(crate::i18n::Ui::QuizNotSavedNoFile, lang).to_string(),
        Saved::Failed(e) => pwords::cannot_save(&std::io::Error::other(e.clone()), lang),
    }
}
