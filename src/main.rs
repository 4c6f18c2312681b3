//! The `locklab` binary: parse the command line and dispatch.

use clap::Parser;

use locklab::cli::{Cli, Command};
use locklab::i18n::Lang;
use locklab::sim_cmd;
use locklab::source::Source;

fn main() {
    let cli = Cli::parse();
    let lang = cli.lang.unwrap_or_else(Lang::from_env);
    let source = cli.content.clone().map_or(Source::Embedded, Source::Dir);
    let result = match cli.command {
        Some(Command::Sim(cmd)) => sim_cmd::run(cmd, lang, &source),
        Some(Command::Check(args)) => locklab::check_cmd::run(&args, lang, &source),
        Some(Command::Quiz(args)) => data_dir(cli.data_dir.as_deref())
            .and_then(|dir| locklab::quiz::cmd::run(&args, lang, &source, &dir)),
        Some(Command::Progress(args)) => data_dir(cli.data_dir.as_deref())
            .and_then(|dir| locklab::progress::cmd::run(&args, lang, &source, &dir)),
        None => {
            use clap::CommandFactory;
            let help = Cli::command().render_help().to_string();
            sim_cmd::write_stdout(help.as_bytes())
        }
    };
    if let Err(e) = result {
        eprintln!("locklab: {}", e.message);
        std::process::exit(e.status);
    }
}

fn data_dir(flag: Option<&std::path::Path>) -> Result<std::path::PathBuf, sim_cmd::UserError> {
    locklab::progress::store::resolve_dir(flag)
        .map_err(|message| sim_cmd::UserError { message, status: 1 })
}
