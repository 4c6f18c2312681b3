//! The `locklab` binary: parse the command line, pick the language and the content, and run
//! the command.

use locklab::cli::Cli;
use locklab::i18n::Lang;
use locklab::source::Source;

fn main() {
    let cli = Cli::parse_args();
    let lang = cli.lang.unwrap_or_else(Lang::from_env);
    let source = match cli.content.clone() {
        None => Source::Embedded,
        Some(dir) => Source::from_dir(dir).unwrap_or_else(|message| {
            eprintln!("locklab: {}", locklab::text::bounded_message(&message));
            std::process::exit(2)
        }),
    };
    if let Err(e) = locklab::cmd::run(cli, lang, &source) {
        // Messages can quote a user's file: no control character reaches the terminal, and no
        // line runs on with a whole bad value.
        eprintln!("locklab: {}", locklab::text::bounded_message(&e.message));
        std::process::exit(e.status);
    }
}
