//! `locklab man`: the manual page in roff, generated from the clap definitions, so it names
//! every subcommand and option the parser accepts.

use super::error::UserError;
use super::output::write_stdout;

pub fn run() -> Result<(), UserError> {
    let mut buf = Vec::new();
    clap_mangen::Man::new(crate::cli::command())
        .render(&mut buf)
        .map_err(|e| UserError::failed(format!("cannot render the manual page: {e}")))?;
    write_stdout(&buf)
}
