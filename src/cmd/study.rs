//! `locklab quiz`, `interview`, `self-test` and `progress`: on the terminal screens when both
//! ends are a terminal, else (or with `--plain`) line by line.

use std::path::{Path, PathBuf};

use crate::cli::{InterviewArgs, ProgressArgs, QuizArgs, SelfTestArgs};
use crate::i18n::Lang;
use crate::source::Source;
use crate::tui::Start;
use crate::tui::screens::quiz::QuizRequest;

use super::error::UserError;
use super::screens::open;

pub fn quiz(
    args: &QuizArgs,
    lang: Lang,
    source: &Source,
    data_dir: Option<&Path>,
) -> Result<(), UserError> {
    if args.plain || !interactive() {
        return super::quiz::run(args, lang, source, &resolve(data_dir)?);
    }
    let req = QuizRequest {
        deck: args.deck.clone(),
        topic: args.topic.clone(),
        kind: args.kind.map(|k| k.kind()),
        difficulty: args.difficulty,
        due: args.due,
        count: args.count.map(|n| n as usize),
        seed: args.seed,
        ..Default::default()
    };
    open(Start::Quiz(req), lang, source, data_dir)
}

pub fn interview(
    args: &InterviewArgs,
    lang: Lang,
    source: &Source,
    data_dir: Option<&Path>,
) -> Result<(), UserError> {
    if args.plain || !interactive() {
        return super::quiz::interview(args, lang, source, &resolve(data_dir)?);
    }
    let req = QuizRequest::interview(
        args.deck.clone(),
        args.count.map(|n| n as usize),
        args.minutes,
        args.seed,
    );
    open(Start::Quiz(req), lang, source, data_dir)
}

pub fn self_test(
    args: &SelfTestArgs,
    lang: Lang,
    source: &Source,
    data_dir: Option<&Path>,
) -> Result<(), UserError> {
    if args.plain || !interactive() {
        return super::quiz::self_test(lang, source, &resolve(data_dir)?);
    }
    open(
        Start::Quiz(QuizRequest::self_test()),
        lang,
        source,
        data_dir,
    )
}

pub fn progress(
    args: &ProgressArgs,
    lang: Lang,
    source: &Source,
    data_dir: Option<&Path>,
) -> Result<(), UserError> {
    super::progress::run(args, lang, source, &resolve(data_dir)?)
}

/// Whether stdin and stdout are both a terminal, so the quiz can open its screen.
fn interactive() -> bool {
    use std::io::IsTerminal;
    std::io::stdin().is_terminal() && std::io::stdout().is_terminal()
}

/// Where progress lives: `--data-dir`, else `LOCKLAB_DATA_DIR`, else the platform's data folder.
fn resolve(flag: Option<&Path>) -> Result<PathBuf, UserError> {
    Ok(crate::progress::store::resolve_dir(flag)?)
}
