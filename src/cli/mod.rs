//! The command line: every subcommand and option, with the ranges checked as they are parsed.
//! The options of the simulations, the live lab and the quizzes each have a file of their own.

use std::path::PathBuf;

use clap::{Args, Parser, Subcommand, ValueEnum};

use crate::engine::params::NumSpec;
use crate::engine::trace::Family;
use presets::{PresetName, Takes};

mod knobs;
#[cfg(feature = "live")]
mod live;
mod presets;
mod sim;
mod study;
#[cfg(test)]
mod tests;

pub use knobs::command;
#[cfg(feature = "live")]
pub use live::{
    LiveAbcArgs, LiveCommand, LiveElectionArgs, LiveEtcdArgs, LiveHerdArgs, LiveRedlockArgs,
    LiveRwlockArgs, LiveSemaphoreArgs, LiveTasksArgs, ServerArgs,
};
pub use sim::{KnobArgs, RunArgs, SimCommand};
pub use study::{
    InterviewArgs, ProgressArgs, ProgressCommand, ProgressFormat, QuizArgs, QuizKind, SelfTestArgs,
};

#[derive(Debug, Parser)]
#[command(
    name = "locklab",
    version = crate::VERSION,
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
    /// Write a scenario's diagram as a standalone SVG (slides) or plain text (handouts), or a
    /// recording of its run playing on the lab screen (`--cast`, asciicast v2).
    Export(ExportArgs),
    /// Validate lessons, quiz decks, glossaries and presets; exit 1 if anything is wrong.
    Check(CheckArgs),
    /// Open the frozen-holder screen, on a frozen-holder preset if named (see `locklab sim list`).
    Frozen {
        /// The frozen-holder preset to open (for example frozen-no-fencing).
        #[arg(value_parser = PresetName(Takes::Only(Family::Frozen)), hide_possible_values = true)]
        preset: Option<String>,
    },
    /// Open the A/B/C queue screen, on a preset (see `locklab sim list`).
    Abc {
        /// The A/B/C preset to open first.
        #[arg(value_parser = PresetName(Takes::Only(Family::Abc)), hide_possible_values = true)]
        preset: Option<String>,
    },
    /// Open the herd-versus-chain screen.
    Herd,
    /// Open the family lab on a knob family (rwlock, semaphore, election, tasks, redlock,
    /// snowflake, etcd), at one of its presets (see `locklab sim list`).
    Lab {
        /// The family to open.
        family: String,
        /// The preset to start from (default: the family's worked example).
        #[arg(
            long,
            allow_hyphen_values = true,
            value_parser = PresetName(Takes::Knobs),
            hide_possible_values = true
        )]
        preset: Option<String>,
    },
    /// Present a scripted preset (or scenario file) full-screen, step by step, for a class.
    Present {
        /// A preset name (see `locklab sim list`) or a scenario file.
        #[arg(value_parser = PresetName(Takes::Any), hide_possible_values = true)]
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
    #[cfg(feature = "live")]
    #[command(subcommand)]
    Live(LiveCommand),
    /// The live lab on a real ZooKeeper: not in this build (built without the `live` feature).
    #[cfg(not(feature = "live"))]
    Live {
        /// Whatever follows `live`; this build has no live lab to hand it to.
        #[arg(trailing_var_arg = true, allow_hyphen_values = true, hide = true)]
        args: Vec<String>,
    },
    /// Print a shell completion script: `source <(locklab completions bash)`.
    Completions {
        /// The shell to complete for.
        #[arg(value_enum)]
        shell: clap_complete::Shell,
    },
    /// Print the manual page (roff), made from these same definitions: `locklab man | man -l -`.
    Man,
    /// One Redlock client of a live run, started by `locklab live redlock` (not for direct use).
    #[cfg(feature = "live")]
    #[command(hide = true)]
    RedlockClient {
        /// The client's configuration, as JSON.
        config: String,
    },
    /// One etcd lock client of a live run, started by `locklab live etcd` (not for direct use).
    #[cfg(feature = "live")]
    #[command(hide = true)]
    EtcdClient {
        /// The client's configuration, as JSON.
        config: String,
    },
}

#[derive(Debug, Args)]
pub struct CheckArgs {
    /// Print the counts and problems as JSON.
    #[arg(long)]
    pub json: bool,
    /// Also draw each model question N times and fail when one answer covers more than half
    /// of the draws, or a numeric or verdict question shows fewer than 3 answers.
    #[arg(
        long,
        value_name = "N",
        allow_negative_numbers = true,
        value_parser = clap::value_parser!(u64).range(1..=10_000)
    )]
    pub draws: Option<u64>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum ExportFormat {
    Svg,
    Txt,
}

#[derive(Debug, Args)]
pub struct ExportArgs {
    /// A preset name (see `locklab sim list`) or a scenario file.
    #[arg(value_parser = PresetName(Takes::Any), hide_possible_values = true)]
    pub scenario: String,
    /// svg for slides, txt for handouts.
    #[arg(
        long,
        value_enum,
        allow_negative_numbers = true,
        required_unless_present = "cast"
    )]
    pub format: Option<ExportFormat>,
    /// Put the time cursor here, in seconds from the start of the run.
    #[arg(long, value_name = "SECONDS", allow_negative_numbers = true)]
    pub at: Option<f64>,
    /// Where to write; `-` for standard output.
    #[arg(
        short,
        long,
        value_name = "PATH",
        allow_negative_numbers = true,
        required_unless_present = "cast"
    )]
    pub output: Option<std::path::PathBuf>,
    /// Write a recording of the run playing on its lab screen, with the preset's captions
    /// (asciicast v2, for asciinema's player in a web page or a slide).
    #[arg(
        long,
        value_name = "FILE.cast",
        allow_negative_numbers = true,
        conflicts_with_all = ["format", "output", "at"]
    )]
    pub cast: Option<PathBuf>,
    /// The recording's terminal, columns x rows (default 120x33).
    #[arg(
        long,
        value_name = "WxH",
        value_parser = parse_size,
        requires = "cast",
        allow_negative_numbers = true
    )]
    pub size: Option<(u16, u16)>,
    /// How fast the recording plays, 0.25 to 8 (default 1: as Space plays it in the lab).
    #[arg(
        long,
        value_name = "F",
        requires = "cast",
        allow_negative_numbers = true
    )]
    pub speed: Option<f64>,
}

/// Reads `WxH` (`120x33`).
fn parse_size(s: &str) -> Result<(u16, u16), String> {
    let bad = || format!("must be columns x rows, such as 120x33 (got `{s}`)");
    let (w, h) = s.trim().split_once(['x', 'X']).ok_or_else(bad)?;
    Ok((w.parse().map_err(|_| bad())?, h.parse().map_err(|_| bad())?))
}

#[derive(Debug, Args)]
pub struct ExploreArgs {
    /// An A/B/C preset name (see `locklab sim list`) or a scenario file.
    #[arg(value_parser = PresetName(Takes::Only(Family::Abc)), hide_possible_values = true)]
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
    /// Stop (incomplete) before the search's memory grows past this size: 1GiB, 512MiB, 300M
    /// (16MiB to 1TiB, default 1GiB; at most half of a `ulimit -v` the process runs under).
    #[arg(
        long,
        value_name = "SIZE",
        value_parser = crate::explore::memory::parse_size,
        allow_negative_numbers = true
    )]
    pub max_memory: Option<u64>,
    /// Threads stepping states (1 to 256, default every core). The result is the same whatever
    /// the count.
    #[arg(long, value_name = "N", value_parser = whole(1, 256), allow_negative_numbers = true)]
    pub threads: Option<u64>,
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

fn parse_lang(s: &str) -> Result<crate::i18n::Lang, String> {
    crate::i18n::Lang::parse(s).ok_or_else(|| "must be zh or en".to_string())
}

/// A clap value parser that reads a number and checks it against the parameter's range, so
/// the error names the allowed range whether the value is malformed or out of range.
pub(crate) fn num(
    spec: &'static NumSpec,
) -> impl Fn(&str) -> Result<f64, String> + Clone + Send + Sync {
    move |s: &str| {
        let what = match spec.unit {
            crate::engine::params::Unit::Count => "a whole number",
            _ => "a number",
        };
        let v: f64 = s
            .trim()
            .parse()
            .map_err(|_| format!("must be {what}, {}", spec.range_text()))?;
        spec.check(v).map_err(|e| match e {
            crate::engine::params::ParamError::NotWhole { .. } => {
                format!("must be a whole number, {}", spec.range_text())
            }
            _ => format!("must be {}", spec.range_text()),
        })
    }
}
