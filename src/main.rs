//! The `locklab` binary: parse the command line and dispatch.

use clap::Parser;

use locklab::cli::{Cli, Command};
use locklab::i18n::Lang;
use locklab::sim_cmd;
use locklab::source::Source;
use locklab::tui::Start;

fn main() {
    let cli = Cli::parse();
    let lang = cli.lang.unwrap_or_else(Lang::from_env);
    let source = match cli.content.clone() {
        None => Source::Embedded,
        Some(dir) => Source::from_dir(dir).unwrap_or_else(|message| {
            eprintln!("locklab: {message}");
            std::process::exit(2)
        }),
    };
    let result = match cli.command {
        Some(Command::Sim(cmd)) => sim_cmd::run(cmd, lang, &source),
        Some(Command::Export(args)) => locklab::export_cmd::run(args, lang, &source),
        Some(Command::Check(args)) => locklab::check_cmd::run(&args, lang, &source),
        Some(Command::Explore(args)) => locklab::explore::cmd::run(args, lang, &source),
        Some(Command::Quiz(args)) if args.plain || !interactive() => {
            data_dir(cli.data_dir.as_deref())
                .and_then(|dir| locklab::quiz::cmd::run(&args, lang, &source, &dir))
        }
        Some(Command::Quiz(args)) => {
            let req = locklab::tui::screens::quiz::QuizRequest {
                deck: args.deck.clone(),
                topic: args.topic.clone(),
                kind: args.kind.map(|k| k.kind()),
                difficulty: args.difficulty,
                due: args.due,
                count: args.count.map(|n| n as usize),
                seed: args.seed,
                ..Default::default()
            };
            tui(Start::Quiz(req), lang, &source, cli.data_dir.as_deref())
        }
        Some(Command::Interview(args)) if args.plain || !interactive() => {
            data_dir(cli.data_dir.as_deref())
                .and_then(|dir| locklab::quiz::cmd::interview(&args, lang, &source, &dir))
        }
        Some(Command::Interview(args)) => {
            let req = locklab::tui::screens::quiz::QuizRequest::interview(
                args.deck.clone(),
                args.count.map(|n| n as usize),
                args.minutes,
                args.seed,
            );
            tui(Start::Quiz(req), lang, &source, cli.data_dir.as_deref())
        }
        Some(Command::SelfTest(args)) if args.plain || !interactive() => {
            data_dir(cli.data_dir.as_deref())
                .and_then(|dir| locklab::quiz::cmd::self_test(lang, &source, &dir))
        }
        Some(Command::SelfTest(_)) => {
            let req = locklab::tui::screens::quiz::QuizRequest::self_test();
            tui(Start::Quiz(req), lang, &source, cli.data_dir.as_deref())
        }
        Some(Command::Progress(args)) => data_dir(cli.data_dir.as_deref())
            .and_then(|dir| locklab::progress::cmd::run(&args, lang, &source, &dir)),
        Some(Command::Live(cmd)) => locklab::live_cmd::run(cmd, lang, &source),
        Some(Command::Frozen { preset }) => tui(
            Start::Frozen(preset),
            lang,
            &source,
            cli.data_dir.as_deref(),
        ),
        Some(Command::Abc { preset }) => {
            tui(Start::Abc(preset), lang, &source, cli.data_dir.as_deref())
        }
        Some(Command::Herd) => tui(Start::Herd, lang, &source, cli.data_dir.as_deref()),
        Some(Command::Lab { family, preset }) => tui(
            Start::Lab { family, preset },
            lang,
            &source,
            cli.data_dir.as_deref(),
        ),
        Some(Command::Present { scenario }) => locklab::export_cmd::resolve(&scenario, &source)
            .and_then(|p| {
                tui(
                    Start::Present(Box::new(p)),
                    lang,
                    &source,
                    cli.data_dir.as_deref(),
                )
            }),
        None => tui(Start::Home, lang, &source, cli.data_dir.as_deref()),
    };
    if let Err(e) = result {
        // Messages can quote a user's file: no control character reaches the terminal.
        eprintln!("locklab: {}", locklab::text::printable(&e.message, true));
        std::process::exit(e.status);
    }
}

/// Whether stdin and stdout are both a terminal, so the quiz can open its screen.
fn interactive() -> bool {
    use std::io::IsTerminal;
    std::io::stdin().is_terminal() && std::io::stdout().is_terminal()
}

/// Opens the terminal screens, turning failures into a message and exit status.
fn tui(
    start: Start,
    lang: Lang,
    source: &Source,
    data_dir: Option<&std::path::Path>,
) -> Result<(), sim_cmd::UserError> {
    // The screens, Home and the lessons' `sim:` links all use the presets of this source.
    locklab::preset::use_source(source).map_err(|e| sim_cmd::UserError::usage(e.to_string()))?;
    locklab::tui::check_start(&start).map_err(sim_cmd::UserError::usage)?;
    let dir = locklab::progress::store::resolve_dir(data_dir);
    match locklab::tui::run(start, lang, source, dir) {
        Ok(locklab::tui::Ended::Quit) => Ok(()),
        // Ended by a signal: the terminal is restored; end the way the signal would have.
        Ok(locklab::tui::Ended::Signal(sig)) => locklab::tui::signals::end_with(sig),
        Err(e) => Err(sim_cmd::UserError {
            message: e.message(lang),
            status: 1,
        }),
    }
}

/// Where progress lives: `--data-dir`, else `LOCKLAB_DATA_DIR`, else the platform's data folder.
fn data_dir(flag: Option<&std::path::Path>) -> Result<std::path::PathBuf, sim_cmd::UserError> {
    locklab::progress::store::resolve_dir(flag)
        .map_err(|message| sim_cmd::UserError { message, status: 1 })
}
