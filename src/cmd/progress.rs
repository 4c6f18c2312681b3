//! `locklab progress`: the summary, `export`, `merge` and `reset`.

use std::path::Path;

use crate::cli::{ProgressArgs, ProgressCommand, ProgressFormat};
use crate::cmd::error::UserError;
use crate::cmd::output::write_stdout;
use crate::i18n::Lang;
use crate::progress::stats::{self, Overview};
use crate::progress::store::read_progress;
use crate::progress::words as pwords;
use crate::progress::{export, fmt_utc};
use crate::quiz::clock::{calendar, now};
use crate::quiz::words::{self as text, Label};

use super::quiz::open_store;
use crate::quiz::select::Bank;
use crate::source::Source;

pub fn run(
    args: &ProgressArgs,
    lang: Lang,
    source: &Source,
    data_dir: &Path,
) -> Result<(), UserError> {
    match &args.command {
        None => summary(lang, source, data_dir),
        Some(ProgressCommand::Export { format }) => {
            let store = open_store(data_dir, lang, None)?;
            let text = match format {
                ProgressFormat::Csv => export::csv(store.data()),
                ProgressFormat::Json => {
                    export::json(store.data()).map_err(|e| UserError::failed(e.to_string()))?
                }
            };
            write_stdout(text.as_bytes())
        }
        Some(ProgressCommand::Merge { file }) => {
            // The file to merge is the user's input: missing, not a file or malformed is status 2.
            let other = read_progress(file)?;
            let bank = Bank::load(source).ok();
            let mut store = open_store(data_dir, lang, bank.as_ref())?;
            if !store.is_writable() {
                return Err(UserError::failed(text::label(Label::ReadOnlyNoMerge, lang)));
            }
            let added = store.data_mut().merge(&other);
            if let Some(b) = &bank {
                store.data_mut().apply_aliases(&b.aliases());
            }
            store
                .save()
                .map_err(|e| UserError::failed(crate::progress::words::cannot_save(&e, lang)))?;
            let msg = pwords::merged(added, store.data().answers.len(), lang);
            write_stdout(msg.as_bytes())
        }
        Some(ProgressCommand::Reset { yes }) => reset(*yes, lang, data_dir),
    }
}

fn reset(yes: bool, lang: Lang, data_dir: &Path) -> Result<(), UserError> {
    let mut store = open_store(data_dir, lang, None)?;
    if !store.is_writable() {
        return Err(UserError::failed(text::label(Label::ReadOnlyNoReset, lang)));
    }
    if !yes {
        eprintln!(
            "{}",
            pwords::confirm_reset(store.path(), store.data().answers.len(), lang)
        );
        let line =
            crate::source::read_line(&mut std::io::stdin().lock(), crate::source::LINE_LIMIT)
                .map_err(|e| {
                    if crate::source::is_line_too_long(&e) {
                        UserError::usage(format!("{e}; nothing was reset"))
                    } else {
                        UserError::failed(e.to_string())
                    }
                })?
                .unwrap_or_default();
        let line = String::from_utf8_lossy(&line);
        if !matches!(
            line.trim().to_ascii_lowercase().as_str(),
            "yes" | "y" | "是"
        ) {
            return write_stdout(text::label(Label::NotReset, lang).as_bytes());
        }
    }
    let backup = store
        .reset(now())
        .map_err(|e| UserError::failed(crate::progress::words::cannot_save(&e, lang)))?;
    write_stdout(pwords::reset_done(backup.as_deref(), lang).as_bytes())
}

fn summary(lang: Lang, source: &Source, data_dir: &Path) -> Result<(), UserError> {
    let bank = Bank::load(source).ok();
    let store = open_store(data_dir, lang, bank.as_ref())?;
    let t = now();
    let o = stats::overview(store.data(), bank.as_ref(), t, calendar(t));
    let text = render(&o, bank.as_ref(), store.path(), lang);
    write_stdout(text.as_bytes())
}

/// The summary as text.
pub fn render(o: &Overview, bank: Option<&Bank>, path: &Path, lang: Lang) -> String {
    use std::fmt::Write as _;
    let mut s = String::new();
    let _ = writeln!(
        s,
        "{} {}",
        text::label(Label::ProgressFile, lang),
        path.display()
    );
    let _ = writeln!(
        s,
        "{}",
        pwords::overview_line(o.answers, o.questions_seen, o.sessions, o.streak, lang)
    );
    let _ = writeln!(s, "{} {}", text::label(Label::DueToday, lang), o.due_today);
    let days: Vec<String> = o.forecast.iter().map(|n| n.to_string()).collect();
    let _ = writeln!(
        s,
        "{} {}",
        text::label(Label::Forecast, lang),
        days.join(" ")
    );
    if !o.decks.is_empty() {
        let _ = writeln!(s, "{}", text::label(Label::MasteryByDeck, lang));
        for d in &o.decks {
            let _ = writeln!(
                s,
                "  {:<24} {:>3.0}%  {}/{} {}",
                d.deck,
                d.mastery,
                d.seen,
                d.questions,
                text::label(Label::Seen, lang)
            );
        }
    }
    if !o.missed.is_empty() {
        let _ = writeln!(s, "{}", text::label(Label::MissedMostOften, lang));
        for m in &o.missed {
            let text = bank
                .and_then(|b| b.find(&m.question))
                .and_then(|(_, q)| q.all_points().nth(m.point))
                .map(|p| lang.pick(&p.zh, &p.en).to_string())
                .unwrap_or_default();
            let _ = writeln!(s, "  {}× {} #{}: {text}", m.times, m.question, m.point + 1);
        }
    }
    if let Some(last) = o.last_answer {
        let _ = writeln!(
            s,
            "{} {}",
            text::label(Label::LastAnswer, lang),
            fmt_utc(last)
        );
    }
    s
}
