//! `locklab quiz`: select questions, open the progress store, run plain mode on stdin/stdout.

use std::path::Path;

use super::plain;
use super::sched::Time;
use super::select::{self, Bank, SelectError, Selection};
use super::session::Session;
use super::text;
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
    };
    let picked = select::select(&bank, &sel, &store.data().cards, start).map_err(|e| match e {
        SelectError::UnknownDeck { name, known } => UserError::usage(format!(
            "{} `{name}`; {}: {}",
            lang.pick("没有这个题组", "unknown deck"),
            lang.pick("已有", "known decks"),
            known.join(", ")
        )),
        SelectError::UnknownTopic(t) => UserError::usage(format!(
            "{} `{t}`",
            lang.pick("没有题目带这个主题", "no question has the topic")
        )),
    })?;
    let (items, errors) = select::prepare_all(&bank, &picked, seed, lang);
    for e in &errors {
        eprintln!("locklab: {e}");
    }
    let mut out = std::io::stdout().lock();
    let header = match lang {
        Lang::Zh => format!(
            "locklab 测验：{} 题（种子 {seed}）。进度文件：{}",
            items.len(),
            store.path().display()
        ),
        Lang::En => format!(
            "locklab quiz: {} questions (seed {seed}). Progress: {}",
            items.len(),
            store.path().display()
        ),
    };
    if items.is_empty() {
        let none = if args.due {
            lang.pick("今天没有到期的题目。", "Nothing is due for review today.")
        } else {
            lang.pick("没有符合条件的题目。", "No question matches.")
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
