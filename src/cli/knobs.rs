//! Every family's `locklab sim` options, one per knob, built from the family's knob table in
//! the registry: clap parses them and `--help` lists each with its range or its choices, so the
//! table is the one place a knob is declared. The values reach the family's own checks as the
//! command line wrote them, in the order it wrote them.

use std::ffi::OsString;

use clap::builder::PossibleValuesParser;
use clap::parser::ValueSource;
use clap::{Arg, ArgAction, ArgMatches, CommandFactory, FromArgMatches};

use super::presets::{PresetName, Takes};
use super::{Cli, Command};
use crate::engine::params::knobs::Knob;
use crate::engine::registry;
use crate::engine::trace::Family;

/// Each family's subcommand of `locklab sim` and its knob table.
fn families() -> impl Iterator<Item = (&'static str, &'static [Knob])> {
    registry::ALL
        .into_iter()
        .map(|e| (e.family().name(), e.knobs()))
}

/// What `locklab sim FAMILY` must be given: herd versus chain is about how many wait and how
/// many one release wakes; the A/B/C queue's story is its preset's faults.
fn required(family: &str) -> &'static [&'static str] {
    match Family::parse(family) {
        Some(Family::Herd) => &["waiters", "fanout"],
        Some(Family::Abc) => &["preset"],
        _ => &[],
    }
}

/// The command line: the derived definitions, with every family's options added.
pub fn command() -> clap::Command {
    Cli::command().mut_subcommand("sim", |sim| {
        families().fold(sim, |sim, (name, knobs)| {
            sim.mut_subcommand(name, |family| {
                let family = with_presets_of(family, name).args(knobs.iter().map(arg));
                required(name).iter().fold(family, |family, key| {
                    family.mut_arg(*key, |a| a.required(true))
                })
            })
        })
    })
}

/// `--preset` offers the family's own presets.
fn with_presets_of(sub: clap::Command, name: &str) -> clap::Command {
    match Family::parse(name) {
        Some(f) => sub.mut_arg("preset", |a| a.value_parser(PresetName(Takes::Only(f)))),
        None => sub,
    }
}

/// One knob as an option: `--pause-len SECONDS`, with its range, choices or kind in the help.
fn arg(knob: &'static Knob) -> Arg {
    let key = knob.key();
    let mut base = Arg::new(key).long(key.replace('_', "-"));
    // A scenario file's spelling, `--task_every`, is taken too.
    if key.contains('_') {
        base = base.alias(key);
    }
    let base = base
        .action(ArgAction::Set)
        .allow_negative_numbers(true)
        .help_heading("Parameters");
    match knob {
        Knob::Num(spec) => base
            .value_name("NUMBER")
            .value_parser(super::num(spec))
            .help(spec.range_text()),
        Knob::Choice { options, .. } => base
            .value_name("CHOICE")
            .value_parser(PossibleValuesParser::new(options.iter().copied())),
        Knob::Flag { .. } => base
            .value_name("on|off")
            .value_parser(PossibleValuesParser::new(["on", "off"])),
        Knob::Text { what, .. } => base.value_name("TEXT").help(*what),
    }
}

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

    /// Parses `args` as the binary does, knob options included.
    pub fn try_parse_args<I, T>(args: I) -> Result<Self, clap::Error>
    where
        I: IntoIterator<Item = T>,
        T: Into<OsString> + Clone,
    {
        let args: Vec<OsString> = args.into_iter().map(Into::into).collect();
        repeated_global(&args)?;
        let matches = command()
            .try_get_matches_from(&args)
            .map_err(|e| with_valid_options(e, &args))?;
        let mut cli = Cli::from_arg_matches(&matches)?;
        if let Some(Command::Sim(sim)) = &mut cli.command
            && let Some(knob_args) = sim.knob_args_mut()
            && let Some((name, family)) = matches
                .subcommand_matches("sim")
                .and_then(ArgMatches::subcommand)
            && let Some((_, knobs)) = families().find(|(n, _)| *n == name)
        {
            knob_args.params = given(family, knobs);
        }
        Ok(cli)
    }
}

/// The program's own options may stand before the subcommand or after it, but once: clap lets a
/// later one override an earlier one at another level, which would hide a mistake.
fn repeated_global(args: &[OsString]) -> Result<(), clap::Error> {
    for (name, value) in [("lang", "LANG"), ("content", "DIR"), ("data-dir", "DIR")] {
        let flag = format!("--{name}");
        let times = args
            .iter()
            .take_while(|a| *a != "--")
            .filter(|a| {
                let a = a.to_string_lossy();
                a == flag || a.starts_with(&format!("{flag}="))
            })
            .count();
        if times > 1 {
            return Err(command().error(
                clap::error::ErrorKind::ArgumentConflict,
                format!("the argument '{flag} <{value}>' cannot be used multiple times"),
            ));
        }
    }
    Ok(())
}

/// An unknown option to a knob family: clap's message, and the family's own options, so the
/// right spelling is on screen.
fn with_valid_options(e: clap::Error, args: &[OsString]) -> clap::Error {
    if e.kind() != clap::error::ErrorKind::UnknownArgument {
        return e;
    }
    let words: Vec<String> = args
        .iter()
        .map(|a| a.to_string_lossy().into_owned())
        .collect();
    let family = words
        .iter()
        .position(|w| w == "sim")
        .and_then(|i| words.get(i + 1))
        .and_then(|f| families().find(|(n, _)| n == f));
    let Some((name, knobs)) = family else {
        return e;
    };
    let valid: Vec<String> = knobs
        .iter()
        .map(|k| format!("--{}", k.key().replace('_', "-")))
        .collect();
    // clap's own words, with its tip when it has one, up to its usage line.
    let rendered = e.render().to_string();
    let first: Vec<&str> = rendered
        .lines()
        .take_while(|l| !l.starts_with("Usage:"))
        .collect();
    let first = first.join("\n");
    let first = first.trim_end().trim_start_matches("error: ");
    command().error(
        clap::error::ErrorKind::UnknownArgument,
        format!(
            "{first}\n\n  the options of `locklab sim {name}`: {}",
            valid.join(", ")
        ),
    )
}

/// The knobs the command line set, as (key, value) in the order it wrote them.
fn given(matches: &ArgMatches, knobs: &[Knob]) -> Vec<(String, String)> {
    let mut out: Vec<(usize, String, String)> = knobs
        .iter()
        .map(Knob::key)
        .filter(|k| matches.value_source(k) == Some(ValueSource::CommandLine))
        .filter_map(|k| {
            let value = matches.get_raw(k)?.next()?.to_string_lossy().into_owned();
            Some((matches.index_of(k).unwrap_or(0), k.to_string(), value))
        })
        .collect();
    out.sort_by_key(|(at, ..)| *at);
    out.into_iter().map(|(_, k, v)| (k, v)).collect()
}
