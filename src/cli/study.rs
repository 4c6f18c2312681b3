//! `locklab quiz`, `interview`, `self-test` and `progress`: what to study and the store it goes to.

use std::path::PathBuf;

use clap::{Args, Subcommand, ValueEnum};

/// The most questions one `--count` may ask for: far more than every deck holds, and a bound on
/// what a session sets aside for them. The `--help` texts say it (a test holds them to it).
pub const COUNT_MAX: u32 = 10_000;

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
    /// At most N questions, 1 to 10000 (without --deck: a mixed exam of N).
    #[arg(
        long,
        value_name = "N",
        value_parser = clap::value_parser!(u32).range(1..=i64::from(COUNT_MAX)),
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
    /// How many questions, 1 to 10000 (default 3).
    #[arg(
        long,
        value_name = "N",
        value_parser = clap::value_parser!(u32).range(1..=i64::from(COUNT_MAX)),
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
