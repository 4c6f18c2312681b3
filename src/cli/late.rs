//! Options clap leaves in a knob family's free-form `--KEY VALUE` list because they come after
//! a parameter (`locklab sim rwlock --roles RRWR --lang en`): the program's own `--lang`,
//! `--content` and `--data-dir`, and the family's `--preset` and `--json`. They are taken out
//! and set where they would have gone had they come first.

use std::ffi::OsString;
use std::path::PathBuf;

use clap::error::ErrorKind;
use clap::{CommandFactory, Parser};

use super::{Cli, Command, parse_lang};

impl Cli {
    /// Parses the process's arguments; a mistake prints clap's message and exits with status 2.
    pub fn parse_args() -> Self {
        Self::try_parse_args(std::env::args_os()).unwrap_or_else(|e| {
            // clap repeats a bad value whole: a 100 KB one gets a bounded line instead.
            if e.use_stderr() {
                let text = e.render().to_string();
                let bounded = crate::text::bounded_message(&text);
                if bounded != text {
                    eprint!("{bounded}");
                    std::process::exit(e.exit_code());
                }
            }
            e.exit()
        })
    }

    /// Parses `args` as the binary does, late options included.
    pub fn try_parse_args<I, T>(args: I) -> Result<Self, clap::Error>
    where
        I: IntoIterator<Item = T>,
        T: Into<OsString> + Clone,
    {
        let mut cli = Self::try_parse_from(args)?;
        take_late_options(&mut cli)?;
        Ok(cli)
    }
}

fn take_late_options(cli: &mut Cli) -> Result<(), clap::Error> {
    let Some(Command::Sim(sim)) = &mut cli.command else {
        return Ok(());
    };
    let Some(knobs) = sim.knob_args_mut() else {
        return Ok(());
    };
    // `--json` is the output switch wherever it stands, as it always was.
    let before = knobs.params.len();
    knobs.params.retain(|a| a != "--json");
    knobs.output.json |= knobs.params.len() != before;

    let mut kept = Vec::new();
    let mut args = std::mem::take(&mut knobs.params).into_iter();
    while let Some(arg) = args.next() {
        let Some(flag) = arg.strip_prefix("--") else {
            kept.push(arg);
            continue;
        };
        let (name, inline) = match flag.split_once('=') {
            Some((n, v)) => (n.to_string(), Some(v.to_string())),
            None => (flag.to_string(), None),
        };
        if !["lang", "content", "data-dir", "preset"].contains(&name.as_str()) {
            // A parameter: keep it with its value, which may itself start with `--`.
            kept.push(arg);
            if inline.is_none()
                && let Some(value) = args.next()
            {
                kept.push(value);
            }
            continue;
        }
        let value = match inline {
            Some(v) => v,
            None => args.next().ok_or_else(|| {
                error(
                    ErrorKind::InvalidValue,
                    format!(
                        "a value is required for '{}' but none was supplied",
                        shown(&name)
                    ),
                )
            })?,
        };
        match name.as_str() {
            "lang" => {
                let lang = parse_lang(&value).map_err(|why| {
                    error(
                        ErrorKind::ValueValidation,
                        format!("invalid value '{value}' for '{}': {why}", shown(&name)),
                    )
                })?;
                set_once(&mut cli.lang, lang, &name)?;
            }
            "content" => set_once(&mut cli.content, PathBuf::from(value), &name)?,
            "data-dir" => set_once(&mut cli.data_dir, PathBuf::from(value), &name)?,
            _ => set_once(&mut knobs.preset, value, &name)?,
        }
    }
    knobs.params = kept;
    Ok(())
}

/// An option as clap's own messages show it.
fn shown(name: &str) -> String {
    let value = match name {
        "lang" => "LANG",
        "preset" => "NAME",
        _ => "DIR",
    };
    format!("--{name} <{value}>")
}

fn set_once<T>(slot: &mut Option<T>, value: T, name: &str) -> Result<(), clap::Error> {
    if slot.is_some() {
        return Err(error(
            ErrorKind::ArgumentConflict,
            format!(
                "the argument '{}' cannot be used multiple times",
                shown(name)
            ),
        ));
    }
    *slot = Some(value);
    Ok(())
}

fn error(kind: ErrorKind, message: String) -> clap::Error {
    Cli::command().error(kind, message)
}
