//! The command line: every subcommand and option, with the ranges checked as they are parsed.

use std::path::PathBuf;

use clap::{Args, Parser, Subcommand, ValueEnum};

use crate::engine::params::{FROZEN_SPECS, HERD_SPECS, NumSpec};

#[derive(Debug, Parser)]
#[command(
    name = "locklab",
    version,
    about = "A terminal lab for distributed locks: watch them fail, then test yourself closed-book.",
    long_about = None
)]
pub struct Cli {
    /// Language of the interface: zh or en (default: from LC_ALL / LANG).
    #[arg(long, global = true, value_parser = parse_lang, allow_negative_numbers = true)]
    pub lang: Option<crate::i18n::Lang>,

    /// Read lessons, quizzes and presets from this folder instead of the embedded copy.
    #[arg(long, global = true, value_name = "DIR", allow_negative_numbers = true)]
    pub content: Option<PathBuf>,

    /// Keep progress in this folder (default: $LOCKLAB_DATA_DIR, else the platform data dir).
    #[arg(long, global = true, value_name = "DIR", allow_negative_numbers = true)]
    pub data_dir: Option<PathBuf>,

    #[command(subcommand)]
    pub command: Option<Command>,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Run a scenario headless and print what the engine computed.
    #[command(subcommand)]
    Sim(SimCommand),
    /// Write a scenario's diagram as a standalone SVG (slides) or plain text (handouts).
    Export(ExportArgs),
    /// Validate lessons, quiz decks, glossaries and presets; exit 1 if anything is wrong.
    Check(CheckArgs),
    /// Open the frozen-holder screen, on a frozen-holder preset if named (see `locklab sim list`).
    Frozen {
        /// The frozen-holder preset to open (for example frozen-no-fencing).
        preset: Option<String>,
    },
    /// Open the A/B/C queue screen, on a preset (see `locklab sim list`).
    Abc {
        /// The A/B/C preset to open first.
        preset: Option<String>,
    },
    /// Open the herd-versus-chain screen.
    Herd,
    /// Open the family lab on a knob family (rwlock, semaphore, election, tasks, redlock,
    /// snowflake), at one of its presets (see `locklab sim list`).
    Lab {
        /// The family to open.
        family: String,
        /// The preset to start from (default: the family's worked example).
        #[arg(long, allow_hyphen_values = true)]
        preset: Option<String>,
    },
    /// Present a scripted preset (or scenario file) full-screen, step by step, for a class.
    Present {
        /// A preset name (see `locklab sim list`) or a scenario file.
        scenario: String,
    },
    /// Search every interleaving of an A/B/C scenario for the shortest story that breaks it.
    Explore(ExploreArgs),
    /// Test yourself closed-book; every answer is saved as you go.
    Quiz(QuizArgs),
    /// A mock interview: recall questions, each followed by up to three deeper follow-ups.
    Interview(InterviewArgs),
    /// The closed-book self-test: the same twelve recall questions every time.
    SelfTest(SelfTestArgs),
    /// Your progress: answers, mastery per deck, reviews due; export, merge or reset it.
    Progress(ProgressArgs),
    /// Run a story on a real ZooKeeper server and hold it beside the model's run.
    #[command(subcommand)]
    Live(LiveCommand),
}

#[derive(Debug, Subcommand)]
pub enum LiveCommand {
    /// An A/B/C preset on three real sessions, its faults made for real.
    Abc(LiveAbcArgs),
    /// Herd versus chain with one real session per waiter.
    Herd(LiveHerdArgs),
}

/// Which ZooKeeper server a live run uses.
#[derive(Debug, Args)]
pub struct ServerArgs {
    /// Use this running ZooKeeper server instead of starting one.
    #[arg(long, value_name = "HOST:PORT", allow_negative_numbers = true)]
    pub zk: Option<String>,
    /// Start locklab's own server on this loopback port (default: a free one).
    #[arg(
        long,
        value_name = "PORT",
        conflicts_with = "zk",
        allow_negative_numbers = true
    )]
    pub port: Option<u16>,
    /// Multiply every time in the preset by this factor, the server's tick included
    /// (0.25 to 4, default 1; own server only).
    #[arg(
        long,
        value_name = "F",
        value_parser = time_scale,
        conflicts_with = "zk",
        allow_negative_numbers = true
    )]
    pub time_scale: Option<f64>,
}

#[derive(Debug, Args)]
pub struct LiveAbcArgs {
    /// The A/B/C preset to run live (see `locklab sim list`).
    pub preset: String,
    #[command(flatten)]
    pub server: ServerArgs,
    #[command(flatten)]
    pub output: Output,
}

#[derive(Debug, Args)]
pub struct LiveHerdArgs {
    /// Waiters queued behind the holder (1 to 500), one real session each.
    #[arg(
        long,
        value_name = "N",
        value_parser = num(&HERD_SPECS[0]),
        allow_negative_numbers = true,
    )]
    pub waiters: f64,
    /// Wake-up fan-out: 1 is the chain (predecessor watches), N the herd (1 to N).
    #[arg(
        long,
        value_name = "K",
        value_parser = num(&HERD_SPECS[1]),
        allow_negative_numbers = true,
    )]
    pub fanout: f64,
    /// How long each holder keeps the lock, in milliseconds (0 to 10000, default 20).
    #[arg(
        long,
        value_name = "Y",
        value_parser = num(&HERD_SPECS[3]),
        allow_negative_numbers = true,
    )]
    pub hold_ms: Option<f64>,
    #[command(flatten)]
    pub server: ServerArgs,
    #[command(flatten)]
    pub output: Output,
}

fn time_scale(s: &str) -> Result<f64, String> {
    let v: f64 = s
        .trim()
        .parse()
        .map_err(|_| "must be a number, 0.25 to 4".to_string())?;
    if (0.25..=4.0).contains(&v) {
        Ok(v)
    } else {
        Err("must be 0.25 to 4".to_string())
    }
}

#[derive(Debug, Args)]
pub struct QuizArgs {
    /// Line by line on stdin/stdout, for screen readers and scripts.
    #[arg(long)]
    pub plain: bool,
    /// Only this deck (its id, e.g. `leases`, or file stem, e.g. `06-leases`).
    #[arg(long, value_name = "NAME", allow_negative_numbers = true)]
    pub deck: Option<String>,
    /// Only questions with this topic tag.
    #[arg(long, value_name = "T", allow_negative_numbers = true)]
    pub topic: Option<String>,
    /// Only questions of this kind.
    #[arg(long, value_enum, allow_negative_numbers = true)]
    pub kind: Option<QuizKind>,
    /// Only questions of this difficulty: 1 basic, 2 principle, 3 failure analysis.
    #[arg(
        long,
        value_name = "D",
        value_parser = clap::value_parser!(u8).range(1..=3),
        allow_negative_numbers = true
    )]
    pub difficulty: Option<u8>,
    /// Only questions due for review today.
    #[arg(long)]
    pub due: bool,
    /// At most N questions (without --deck: a mixed exam of N).
    #[arg(
        long,
        value_name = "N",
        value_parser = clap::value_parser!(u32).range(1..),
        allow_negative_numbers = true,
    )]
    pub count: Option<u32>,
    /// Fix the order of questions and the drawn model variants.
    #[arg(long, value_name = "S", allow_negative_numbers = true)]
    pub seed: Option<u64>,
}

/// The kinds of quiz question.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum QuizKind {
    Recall,
    Choice,
    Order,
    Model,
}

impl QuizKind {
    pub fn kind(self) -> crate::content::deck::Kind {
        use crate::content::deck::Kind;
        match self {
            QuizKind::Recall => Kind::Recall,
            QuizKind::Choice => Kind::Choice,
            QuizKind::Order => Kind::Order,
            QuizKind::Model => Kind::Model,
        }
    }
}

#[derive(Debug, Args)]
pub struct InterviewArgs {
    /// Line by line on stdin/stdout, for screen readers and scripts.
    #[arg(long)]
    pub plain: bool,
    /// Only questions of this deck (its id or file stem).
    #[arg(long, value_name = "NAME", allow_negative_numbers = true)]
    pub deck: Option<String>,
    /// End the interview after the question in progress once this many minutes have passed
    /// (without it the clock is shown but never stops you).
    #[arg(
        long,
        value_name = "M",
        value_parser = clap::value_parser!(u32).range(1..=600),
        allow_negative_numbers = true
    )]
    pub minutes: Option<u32>,
    /// How many questions (default 3).
    #[arg(
        long,
        value_name = "N",
        value_parser = clap::value_parser!(u32).range(1..),
        allow_negative_numbers = true
    )]
    pub count: Option<u32>,
    /// Fix the choice and order of questions.
    #[arg(long, value_name = "S", allow_negative_numbers = true)]
    pub seed: Option<u64>,
}

#[derive(Debug, Args)]
pub struct SelfTestArgs {
    /// Line by line on stdin/stdout, for screen readers and scripts.
    #[arg(long)]
    pub plain: bool,
}

#[derive(Debug, Args)]
pub struct ProgressArgs {
    #[command(subcommand)]
    pub command: Option<ProgressCommand>,
}

#[derive(Debug, Subcommand)]
pub enum ProgressCommand {
    /// Print every answer as CSV or the whole file as JSON.
    Export {
        #[arg(long, value_enum, default_value = "csv", allow_negative_numbers = true)]
        format: ProgressFormat,
    },
    /// Add the answers of another progress file that this one lacks.
    Merge {
        /// A progress.toml from another machine or a backup.
        file: PathBuf,
    },
    /// Start afresh, keeping a backup of the current file.
    Reset {
        /// Do not ask for confirmation.
        #[arg(long)]
        yes: bool,
    },
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum ProgressFormat {
    Csv,
    Json,
}

#[derive(Debug, Args)]
pub struct CheckArgs {
    /// Print the counts and problems as JSON.
    #[arg(long)]
    pub json: bool,
}

#[derive(Debug, Subcommand)]
pub enum SimCommand {
    /// The frozen holder: a lease that expires during a GC pause.
    Frozen(FrozenArgs),
    /// The A/B/C queue on a ZooKeeper-like lock, from a preset.
    Abc(AbcArgs),
    /// Herd versus chain: how many wake-ups a queue of waiters costs.
    Herd(HerdArgs),
    /// A read-write lock on the ZooKeeper queue: readers share, a writer holds alone.
    Rwlock(KnobArgs),
    /// A counting semaphore on the ZooKeeper queue: the first N lease nodes hold.
    Semaphore(KnobArgs),
    /// Leader election with epochs, and a job's row changed by conditional statements.
    Election(KnobArgs),
    /// Durable task claims: workers, a task table, an outside system and an operator.
    Tasks(KnobArgs),
    /// Redlock across independent Redis nodes: a majority of keys, no fencing token.
    Redlock(KnobArgs),
    /// Snowflake-style IDs: time | worker | sequence, and the ways one ID comes out twice.
    Snowflake(KnobArgs),
    /// Run a scenario file (a preset or your own).
    Run(RunArgs),
    /// List the shipped presets.
    List,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum OnOff {
    On,
    Off,
}

impl OnOff {
    pub fn is_on(self) -> bool {
        self == OnOff::On
    }
}

#[derive(Debug, Args)]
pub struct Output {
    /// Print the trace, the spans and the metrics as JSON.
    #[arg(long)]
    pub json: bool,
}

#[derive(Debug, Args)]
pub struct FrozenArgs {
    /// Lease TTL in seconds (1 to 30, default 10).
    #[arg(
        long,
        value_name = "S",
        value_parser = num(&FROZEN_SPECS[0]),
        allow_negative_numbers = true,
    )]
    pub ttl: Option<f64>,
    /// Keepalive interval in seconds (0.5 to 30, default 3).
    #[arg(
        long,
        value_name = "S",
        value_parser = num(&FROZEN_SPECS[1]),
        allow_negative_numbers = true,
    )]
    pub keepalive: Option<f64>,
    /// When A's pause starts, in seconds (0 to 40, default 12).
    #[arg(
        long,
        value_name = "S",
        value_parser = num(&FROZEN_SPECS[2]),
        allow_negative_numbers = true,
    )]
    pub pause_start: Option<f64>,
    /// How long A's pause lasts, in seconds (0 to 30, default 14).
    #[arg(
        long,
        value_name = "S",
        value_parser = num(&FROZEN_SPECS[3]),
        allow_negative_numbers = true,
    )]
    pub pause_len: Option<f64>,
    /// One-way network delay in seconds (0 to 5, default 0).
    #[arg(
        long,
        value_name = "S",
        value_parser = num(&FROZEN_SPECS[4]),
        allow_negative_numbers = true,
    )]
    pub delay: Option<f64>,
    /// Whether the resource checks fencing tokens (default on).
    #[arg(long, value_enum, allow_negative_numbers = true)]
    pub fencing: Option<OnOff>,
    /// Whether A drops its write once it knows its lease is lost (default off).
    #[arg(long, value_enum, allow_negative_numbers = true)]
    pub stop_on_loss: Option<OnOff>,
    #[command(flatten)]
    pub output: Output,
}

/// A family whose parameters are given as `--key value` pairs, read through the same table as
/// its scenario files.
#[derive(Debug, Args)]
pub struct KnobArgs {
    /// Start from this preset of the family (see `locklab sim list`), then apply the rest.
    #[arg(long, value_name = "NAME")]
    pub preset: Option<String>,
    #[command(flatten)]
    pub output: Output,
    /// Parameters as `--key value` (the README lists each family's keys and ranges).
    #[arg(
        trailing_var_arg = true,
        allow_hyphen_values = true,
        num_args = 0..,
        value_name = "--KEY VALUE"
    )]
    pub params: Vec<String>,
}

#[derive(Debug, Args)]
pub struct AbcArgs {
    /// The preset to run (see `locklab sim list`).
    #[arg(long, value_name = "NAME", allow_negative_numbers = true)]
    pub preset: String,
    #[command(flatten)]
    pub output: Output,
}

#[derive(Debug, Args)]
pub struct HerdArgs {
    /// Waiters queued behind the holder (1 to 10000).
    #[arg(
        long,
        value_name = "N",
        value_parser = num(&HERD_SPECS[0]),
        allow_negative_numbers = true,
    )]
    pub waiters: f64,
    /// Wake-up fan-out: waiters notified per release (1 to N; 1 is the chain, N the herd).
    #[arg(
        long,
        value_name = "K",
        value_parser = num(&HERD_SPECS[1]),
        allow_negative_numbers = true,
    )]
    pub fanout: f64,
    /// Cost of one re-read at the service, in milliseconds (0 to 1000, default 2).
    #[arg(
        long,
        value_name = "X",
        value_parser = num(&HERD_SPECS[2]),
        allow_negative_numbers = true,
    )]
    pub grab_cost_ms: Option<f64>,
    /// How long each holder keeps the lock, in milliseconds (0 to 10000, default 100).
    #[arg(
        long,
        value_name = "Y",
        value_parser = num(&HERD_SPECS[3]),
        allow_negative_numbers = true,
    )]
    pub hold_ms: Option<f64>,
    #[command(flatten)]
    pub output: Output,
}

#[derive(Debug, Args)]
pub struct RunArgs {
    /// A scenario file in the `assets/scenarios/` format.
    pub file: PathBuf,
    #[command(flatten)]
    pub output: Output,
}

#[derive(Debug, Args)]
pub struct ExploreArgs {
    /// An A/B/C preset name (see `locklab sim list`) or a scenario file.
    pub scenario: String,
    /// Faults that may be injected on one path (0 to 4, default 1).
    #[arg(long, value_name = "N", value_parser = whole(0, 4), allow_negative_numbers = true)]
    pub faults: Option<u64>,
    /// Choices on one path before the search stops following it (1 to 200, default 60).
    #[arg(long, value_name = "D", value_parser = whole(1, 200), allow_negative_numbers = true)]
    pub depth: Option<u64>,
    /// Stop (incomplete) after this many distinct states (1 to 8000000, default 3000000).
    #[arg(
        long,
        value_name = "S",
        value_parser = whole(1, 8_000_000),
        allow_negative_numbers = true
    )]
    pub max_states: Option<u64>,
    /// Print the report as JSON.
    #[arg(long)]
    pub json: bool,
    /// Write the shortest counterexample as a scenario file.
    #[arg(long, value_name = "FILE.toml", allow_negative_numbers = true)]
    pub save: Option<PathBuf>,
}

/// A clap value parser for a whole number in `min..=max`, naming the range when it fails.
fn whole(min: u64, max: u64) -> impl Fn(&str) -> Result<u64, String> + Clone + Send + Sync {
    move |s: &str| match s.trim().parse::<u64>() {
        Ok(v) if (min..=max).contains(&v) => Ok(v),
        _ => Err(format!("must be a whole number, {min} to {max}")),
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum ExportFormat {
    Svg,
    Txt,
}

#[derive(Debug, Args)]
pub struct ExportArgs {
    /// A preset name (see `locklab sim list`) or a scenario file.
    pub scenario: String,
    /// svg for slides, txt for handouts.
    #[arg(long, value_enum, allow_negative_numbers = true)]
    pub format: ExportFormat,
    /// Put the time cursor here, in seconds from the start of the run.
    #[arg(long, value_name = "SECONDS", allow_negative_numbers = true)]
    pub at: Option<f64>,
    /// Where to write; `-` for standard output.
    #[arg(short, long, value_name = "PATH", allow_negative_numbers = true)]
    pub output: std::path::PathBuf,
}

fn parse_lang(s: &str) -> Result<crate::i18n::Lang, String> {
    crate::i18n::Lang::parse(s).ok_or_else(|| "must be zh or en".to_string())
}

/// A clap value parser that reads a number and checks it against the parameter's range, so
/// the error names the allowed range whether the value is malformed or out of range.
fn num(spec: &'static NumSpec) -> impl Fn(&str) -> Result<f64, String> + Clone + Send + Sync {
    move |s: &str| {
        let what = match spec.unit {
            crate::engine::params::Unit::Count => "a whole number",
            _ => "a number",
        };
        let v: f64 = s
            .trim()
            .parse()
            .map_err(|_| format!("must be {what}, {}", spec.range_text()))?;
        spec.check(v)
            .map_err(|_| format!("must be {}", spec.range_text()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::CommandFactory;
    use clap::error::ErrorKind;

    /// Every subcommand path with the options that take a value, walked from the definitions so
    /// an option added later is covered too.
    fn value_options(cmd: &clap::Command, path: Vec<String>, out: &mut Vec<(Vec<String>, String)>) {
        for arg in cmd.get_arguments() {
            let takes_value = arg.get_action().takes_values();
            if let (Some(long), true) = (arg.get_long(), takes_value) {
                out.push((path.clone(), long.to_string()));
            }
        }
        for sub in cmd.get_subcommands() {
            let mut p = path.clone();
            p.push(sub.get_name().to_string());
            value_options(sub, p, out);
        }
    }

    #[test]
    fn a_negative_number_reaches_every_option_s_own_check() {
        let mut options = Vec::new();
        value_options(&Cli::command(), Vec::new(), &mut options);
        assert!(options.len() > 10, "{options:?}");
        for (path, long) in options {
            // Positional arguments some subcommands require, so parsing gets as far as the option.
            let mut argv: Vec<String> = vec!["locklab".into()];
            argv.extend(path.iter().cloned());
            match path
                .iter()
                .map(String::as_str)
                .collect::<Vec<_>>()
                .as_slice()
            {
                ["sim", "run"] | ["progress", "merge"] => argv.push("f.toml".into()),
                ["export"] => argv.extend(["chain".into(), "--format".into(), "txt".into()]),
                ["present"] | ["explore"] | ["live", "abc"] => argv.push("chain".into()),
                ["lab"] => argv.push("rwlock".into()),
                _ => {}
            }
            if (path == ["sim", "herd"] || path == ["live", "herd"])
                && long != "waiters"
                && long != "fanout"
            {
                argv.extend([
                    "--waiters".into(),
                    "3".into(),
                    "--fanout".into(),
                    "1".into(),
                ]);
            }
            argv.extend([format!("--{long}"), "-1".into()]);
            match Cli::try_parse_from(&argv) {
                Ok(_) => {}
                Err(e) => {
                    let msg = e.to_string();
                    assert!(
                        e.kind() != ErrorKind::UnknownArgument
                            && !msg.contains("unexpected argument"),
                        "{argv:?}: -1 was not taken as the value of --{long}:\n{msg}"
                    );
                    if e.kind() == ErrorKind::ValueValidation {
                        assert!(msg.contains(&format!("--{long}")), "{argv:?}: {msg}");
                    }
                }
            }
        }
    }

    #[test]
    fn a_negative_ttl_names_the_option_and_its_range() {
        for argv in [
            ["locklab", "sim", "frozen", "--ttl", "-1"],
            ["locklab", "sim", "frozen", "--ttl=-1", "--json"],
        ] {
            let e = Cli::try_parse_from(argv).unwrap_err();
            assert_eq!(e.kind(), ErrorKind::ValueValidation, "{e}");
            assert_eq!(e.exit_code(), 2);
            let msg = e.to_string();
            assert!(msg.contains("--ttl") && msg.contains("1 to 30"), "{msg}");
        }
    }
}
