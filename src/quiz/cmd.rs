//! `locklab quiz`: select questions, open the progress store, run plain mode on stdin/stdout.

use std::path::Path;

use super::plain;
use super::sched::{Calendar, Time};
use super::select::{self, Bank, SelectError, Selection};
use super::session::Session;
use super::text::{self, Label};
use crate::cli::QuizArgs;
use crate::i18n::Lang;
use crate::progress::store::Store;
use crate::sim_cmd::UserError;
use crate::source::Source;

/// The wall clock, in Unix seconds: the only place quizzes read it.
pub fn now() -> Time {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs() as Time)
}

fn failure(message: String) -> UserError {
    UserError { message, status: 1 }
}

/// The learner's calendar at `now`: the system time zone's offset, UTC when it is unknown.
pub fn calendar(now: Time) -> Calendar {
    let offset = jiff::Timestamp::from_second(now)
        .map(|t| jiff::tz::TimeZone::system().to_offset(t).seconds())
        .unwrap_or(0);
    Calendar {
        utc_offset: Time::from(offset),
    }
}

/// Opens the store in `dir`, telling the user (on stderr) anything worth knowing.
pub fn open_store(dir: &Path, lang: Lang, bank: Option<&Bank>) -> Result<Store, UserError> {
    let mut store =
        Store::open(dir, now()).map_err(|e| failure(text::cannot_open(dir, &e, lang)))?;
    for n in &store.notices {
        eprintln!("locklab: {}", text::notice(n, lang));
    }
    if let Some(b) = bank {
        // Renamed questions keep their history; written back on the next save.
        store.data_mut().apply_aliases(&b.aliases());
    }
    Ok(store)
}

pub fn run(args: &QuizArgs, lang: Lang, source: &Source, data_dir: &Path) -> Result<(), UserError> {
    let bank = Bank::load(source).map_err(failure)?;
    let mut store = open_store(data_dir, lang, Some(&bank))?;
    let start = now();
    let seed = args.seed.unwrap_or(start as u64);
    let sel = Selection {
        deck: args.deck.clone(),
        topic: args.topic.clone(),
        due: args.due,
        count: args.count.map(|n| n as usize),
        seed,
        calendar: calendar(start),
    };
    let picked = select::select(&bank, &sel, &store.data().cards, start).map_err(|e| match e {
        SelectError::UnknownDeck { name, known } => UserError::usage(format!(
            "{} `{name}`; {}: {}",
            text::label(Label::UnknownDeck, lang),
            text::label(Label::KnownDecks, lang),
            known.join(", ")
        )),
        SelectError::UnknownTopic(t) => {
            UserError::usage(format!("{} `{t}`", text::label(Label::NoSuchTopic, lang)))
        }
    })?;
    let (items, errors) = select::prepare_all(&bank, &picked, seed, lang);
    for e in &errors {
        eprintln!("locklab: {e}");
    }
    let mut out = std::io::stdout().lock();
    let header = text::quiz_header(items.len(), seed, store.path(), lang);
    if items.is_empty() {
        let none = if args.due {
            text::label(Label::NothingDue, lang)
        } else {
            text::label(Label::NoMatch, lang)
        };
        return crate::sim_cmd::write_stdout(format!("{header}\n{none}\n").as_bytes());
    }
    let mut session = Session::new(items, start);
    let mut input = std::io::stdin().lock();
    let mut clock = now;
    let result =
        std::io::Write::write_all(&mut out, format!("{header}\n").as_bytes()).and_then(|()| {
            plain::run(
                &mut input,
                &mut out,
                &mut session,
                &mut store,
                lang,
                &mut clock,
            )
        });
    match result {
        Ok(_) => Ok(()),
        // A reader that went away ends the session; every answer was already saved.
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => Ok(()),
        Err(e) => Err(failure(e.to_string())),
    }
}
