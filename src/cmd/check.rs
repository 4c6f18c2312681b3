//! `locklab check`: run the content checker and print its report as text or JSON.

use crate::cli::CheckArgs;
use crate::content::check;
use crate::i18n::Lang;
use crate::source::Source;

use super::error::UserError;
use super::output::write_stdout;

/// Prints the report; any problem makes the exit status 1.
pub fn run(args: &CheckArgs, lang: Lang, source: &Source) -> Result<(), UserError> {
    let report = check::check_with(source, args.draws);
    let out = if args.json {
        let mut s = serde_json::to_string_pretty(&report).map_err(|e| UserError {
            message: e.to_string(),
            status: 1,
        })?;
        s.push('\n');
        s
    } else {
        // Problems quote content files, which may hold anything: keep escapes off the terminal.
        crate::text::printable(&report.render(lang), true).into_owned()
    };
    write_stdout(out.as_bytes())?;
    if report.ok() {
        Ok(())
    } else {
        Err(UserError {
            message: format!(
                "{} {}",
                report.problems.len(),
                lang.pick("个内容问题", "content problem(s)")
            ),
            status: 1,
        })
    }
}
