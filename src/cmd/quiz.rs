//! `locklab quiz`, `locklab interview` and `locklab self-test` in plain mode: select the
//! questions, open the progress store, run the session on stdin/stdout.

use std::path::Path;

use crate::cli::{InterviewArgs, QuizArgs};
use crate::cmd::error::UserError;
use crate::i18n::Lang;
use crate::plain;
use crate::progress::store::Store;
use crate::progress::words as pwords;
use crate::quiz::clock::{calendar, now};
use crate::quiz::item::{Body, PreparedQuestion, Rounds};
use crate::quiz::sched::Time;
use crate::quiz::select::{self, Bank, SelectError, Selection};
use crate::quiz::session::{INTERVIEW_SIZE, Session, SessionKind};
use crate::quiz::words::{self as text, Label};
use crate::source::Source;

/// Opens the store in `dir`, telling the user (on stderr) anything worth knowing.
pub fn open_store(dir: &Path, lang: Lang, bank: Option<&Bank>) -> Result<Store, UserError> {
    let mut store = Store::open(dir, now()).map_err(|e| {
        let message = pwords::cannot_open(dir, &e, lang);
        // A pipe, a folder or an oversized file where the progress file goes is input to fix.
        if e.kind() == std::io::ErrorKind::InvalidInput {
            UserError::usage(message)
        } else {
            UserError::failed(message)
        }
    })?;
    for n in &store.notices {
        eprintln!("locklab: {}", pwords::notice(n, lang));
    }
    if let Some(b) = bank {
        // Renamed questions keep their history; written back on the next save.
        store.data_mut().apply_aliases(&b.aliases());
    }
    Ok(store)
}

fn select_error(e: SelectError, lang: Lang) -> UserError {
    match e {
        SelectError::UnknownDeck { name, known } => UserError::usage(format!(
            "{} `{name}`; {}: {}",
            text::label(Label::UnknownDeck, lang),
            text::label(Label::KnownDecks, lang),
            known.join(", ")
        )),
        SelectError::UnknownTopic(t) => {
            UserError::usage(format!("{} `{t}`", text::label(Label::NoSuchTopic, lang)))
        }
    }
}

pub fn run(args: &QuizArgs, lang: Lang, source: &Source, data_dir: &Path) -> Result<(), UserError> {
    let bank = Bank::load(source)?;
    let store = open_store(data_dir, lang, Some(&bank))?;
    let start = now();
    let seed = args.seed.unwrap_or(start as u64);
    let sel = Selection {
        deck: args.deck.clone(),
        topic: args.topic.clone(),
        kind: args.kind.map(|k| k.kind()),
        difficulty: args.difficulty,
        due: args.due,
        count: args.count.map(|n| n as usize),
        seed,
        calendar: calendar(start),
    };
    let picked = select::select(&bank, &sel, &store.data().cards, start)
        .map_err(|e| select_error(e, lang))?;
    let (items, errors) = select::prepare_all(&bank, &picked, seed, lang, Rounds::First);
    for e in &errors {
        eprintln!("locklab: {e}");
    }
    let header = text::quiz_header(items.len(), seed, store.path(), lang);
    if items.is_empty() {
        let none = if args.due {
            text::label(Label::NothingDue, lang)
        } else {
            text::label(Label::NoMatch, lang)
        };
        return crate::cmd::output::write_stdout(format!("{header}\n{none}\n").as_bytes());
    }
    let session = Session::new(items, start);
    play(session, store, lang, &header, &plain::Options::default())
}

/// `locklab interview --plain`: recall questions with every follow-up round.
pub fn interview(
    args: &InterviewArgs,
    lang: Lang,
    source: &Source,
    data_dir: &Path,
) -> Result<(), UserError> {
    let bank = Bank::load(source)?;
    let store = open_store(data_dir, lang, Some(&bank))?;
    let start = now();
    let seed = args.seed.unwrap_or(start as u64);
    let count = args.count.map_or(INTERVIEW_SIZE, |n| n as usize);
    let picked = select::chains(&bank, args.deck.as_deref(), seed, count)
        .map_err(|e| select_error(e, lang))?;
    let (items, errors) = select::prepare_all(&bank, &picked, seed, lang, Rounds::All);
    for e in &errors {
        eprintln!("locklab: {e}");
    }
    let limit = args.minutes.map(|m| Time::from(m) * 60);
    let header = text::interview_header(items.len(), seed, limit, store.path(), lang);
    if items.is_empty() {
        let none = text::label(Label::NoChains, lang);
        return crate::cmd::output::write_stdout(format!("{header}\n{none}\n").as_bytes());
    }
    let lessons: Vec<_> = crate::content::lesson::load_all(source)
        .unwrap_or_default()
        .into_iter()
        .filter(|l| l.lang == lang)
        .collect();
    let session = Session::of_kind(items, SessionKind::Interview, start);
    let opts = plain::Options {
        limit,
        lessons: &lessons,
    };
    play(session, store, lang, &header, &opts)
}

/// `locklab self-test --plain`: the fixed twelve recall questions without follow-ups, then the
/// closing question's rounds, all answered before any reference shows.
pub fn self_test(lang: Lang, source: &Source, data_dir: &Path) -> Result<(), UserError> {
    let bank = Bank::load(source)?;
    let store = open_store(data_dir, lang, Some(&bank))?;
    let start = now();
    let (items, errors) = select::self_test_items(&bank, lang);
    for e in &errors {
        eprintln!("locklab: {e}");
    }
    if items.is_empty() {
        return Err(UserError::failed(
            text::label(Label::NoSelfTestList, lang).to_string(),
        ));
    }
    let closing = items.iter().filter(|i| has_rounds(i)).count();
    let header = text::self_test_header(items.len() - closing, closing > 0, store.path(), lang);
    let session = Session::of_kind(items, SessionKind::SelfTest, start);
    play(session, store, lang, &header, &plain::Options::default())
}

/// Whether a prepared question asks follow-up rounds (in the self-test, its closing question).
fn has_rounds(item: &PreparedQuestion) -> bool {
    matches!(&item.body, Body::Recall { follow_ups, .. } if !follow_ups.is_empty())
}

/// Runs a prepared session in plain mode on stdin and stdout. A session in which answers could
/// not be saved ends with status 1.
fn play(
    mut session: Session,
    mut store: Store,
    lang: Lang,
    header: &str,
    opts: &plain::Options,
) -> Result<(), UserError> {
    let mut out = std::io::stdout().lock();
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
                opts,
            )
        });
    match result {
        Ok(o) if o.unsaved > 0 => Err(UserError::failed(pwords::unsaved(o.unsaved, lang))),
        Ok(_) => Ok(()),
        // A reader that went away ends the session; every answer was already saved.
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => Ok(()),
        Err(e) if crate::source::is_line_too_long(&e) => Err(UserError::usage(format!(
            "{e}; every answer before it was saved"
        ))),
        Err(e) => Err(UserError::failed(e.to_string())),
    }
}
