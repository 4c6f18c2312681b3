//! The commands: one file a subcommand, each turning its parsed arguments into output, a
//! screen, or a [`UserError`] with the exit status to end with. `main` parses the command line
//! and hands it to [`run`].

mod check;
mod completions;
pub mod error;
mod explore;
mod export;
#[cfg(feature = "live")]
mod live;
#[cfg(feature = "live")]
mod live_election;
#[cfg(feature = "live")]
mod live_queue;
mod man;
pub mod output;
mod progress;
mod quiz;
mod screens;
mod sim;
mod study;

use crate::cli::{Cli, Command};
use crate::i18n::Lang;
use crate::source::Source;
use crate::tui::Start;

pub use error::UserError;

/// Runs the command the user asked for, in `lang`, on the content of `source`.
pub fn run(cli: Cli, lang: Lang, source: &Source) -> Result<(), UserError> {
    let data_dir = cli.data_dir.as_deref();
    let open = |start: Start| screens::open(start, lang, source, data_dir);
    match cli.command {
        Some(Command::Sim(cmd)) => sim::run(cmd, lang, source),
        Some(Command::Export(args)) => export::run(args, lang, source),
        Some(Command::Check(args)) => check::run(&args, lang, source),
        Some(Command::Explore(args)) => explore::run(args, lang, source),
        Some(Command::Quiz(args)) => study::quiz(&args, lang, source, data_dir),
        Some(Command::Interview(args)) => study::interview(&args, lang, source, data_dir),
        Some(Command::SelfTest(args)) => study::self_test(&args, lang, source, data_dir),
        Some(Command::Progress(args)) => study::progress(&args, lang, source, data_dir),
        #[cfg(feature = "live")]
        Some(Command::Live(cmd)) => live::run(cmd, lang, source),
        #[cfg(not(feature = "live"))]
        Some(Command::Live { .. }) => Err(UserError::usage(
            "this locklab was built without the live lab (the `live` feature); build it with the default features to run `locklab live`",
        )),
        Some(Command::Completions { shell }) => completions::run(shell),
        Some(Command::Man) => man::run(),
        #[cfg(feature = "live")]
        Some(Command::RedlockClient { config }) => {
            std::process::exit(crate::live::redis::client::main(&config))
        }
        #[cfg(feature = "live")]
        Some(Command::EtcdClient { config }) => {
            std::process::exit(crate::live::etcd::client::main(&config))
        }
        Some(Command::Frozen { preset }) => open(Start::Frozen(preset)),
        Some(Command::Abc { preset }) => open(Start::Abc(preset)),
        Some(Command::Herd) => open(Start::Herd),
        Some(Command::Lab { family, preset }) => open(Start::Lab { family, preset }),
        Some(Command::Present { scenario }) => {
            let preset = export::resolve(&scenario, source)?;
            open(Start::Present(Box::new(preset)))
        }
        None => open(Start::Home),
    }
}
