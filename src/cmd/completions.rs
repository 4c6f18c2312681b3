//! `locklab completions SHELL`: the shell's completion script, generated from the clap
//! definitions, so it offers exactly the subcommands and options the parser accepts.

use super::error::UserError;
use super::output::write_stdout;

pub fn run(shell: clap_complete::Shell) -> Result<(), UserError> {
    let mut cmd = crate::cli::command();
    let mut buf = Vec::new();
    clap_complete::generate(shell, &mut cmd, "locklab", &mut buf);
    write_stdout(&buf)
}
