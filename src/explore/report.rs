//! What a finished (or stopped) search reports: the bounds, the numbers, each violated
//! invariant with its shortest counterexample as a timed trace, and the witnesses found.

use serde::Serialize;

use super::counterexample;
use super::memory;
use super::props::{ALWAYS, SOMETIMES};
use super::search::{Bounds, Found, Search, SearchProgress, Stop};
use crate::engine::families::abc::ACTOR_NAMES;
use crate::engine::params::{AbcParams, Params};
use crate::engine::time::fmt_secs;
use crate::engine::trace::{Invariant, Judgement, Trace, invariant};
use crate::engine::world::step::FaultKind;
use crate::i18n::{Lang, explore as words, invariant_label};

/// Bumped whenever the JSON shape of a report changes incompatibly.
pub const SCHEMA_VERSION: u32 = 1;

/// One property's first sighting, as a schedule and its timed run.
#[derive(Debug, Clone, PartialEq)]
pub struct Finding {
    pub property: Invariant,
    pub steps: usize,
    pub after_ms: u64,
    pub schedule: Vec<String>,
    /// The parameters that replay it (the schedule included).
    pub params: AbcParams,
    pub trace: Trace,
}

impl Finding {
    pub fn new(search_params: &AbcParams, faults: u8, found: &Found) -> Self {
        let params = counterexample::params_of(search_params, faults, found);
        let trace = counterexample::trace(&params);
        Self {
            property: found.property,
            steps: found.path.len(),
            after_ms: found.after_ms,
            schedule: params
                .schedule
                .iter()
                .map(|s| s.text(&ACTOR_NAMES))
                .collect(),
            params,
            trace,
        }
    }

    /// Whether the timed run shows what the search found: the invariant failed, or the
    /// property was seen.
    pub fn replay_agrees(&self) -> bool {
        // The timed run reads a refused stale write off its writes rather than checking it.
        if self.property == invariant::STALE_WRITE_REJECTED {
            return self
                .trace
                .writes
                .iter()
                .any(|w| w.judgement == Judgement::StaleRejected);
        }
        self.trace
            .invariant(self.property)
            .is_some_and(|i| match i.check {
                crate::engine::trace::Check::Always => !i.held,
                crate::engine::trace::Check::Sometimes => i.held,
            })
    }
}

/// A search's result.
#[derive(Debug, Clone, PartialEq)]
pub struct Outcome {
    pub name: String,
    pub bounds: Bounds,
    pub complete: bool,
    pub cancelled: bool,
    pub depth_limited: bool,
    /// Why the search stopped before its bounded space was explored, if it did.
    pub stopped: Option<Stop>,
    /// The memory limit it kept (`max_memory`, lowered under a process limit).
    pub memory_limit: u64,
    pub progress: SearchProgress,
    pub violations: Vec<Finding>,
    /// The invariants checked on every state.
    pub checks: Vec<Invariant>,
    /// By index in [`SOMETIMES`].
    pub witnesses: Vec<(Invariant, Option<Finding>)>,
}

impl Outcome {
    pub fn new(name: &str, search_params: &AbcParams, search: &Search, cancelled: bool) -> Self {
        let faults = search.bounds.faults;
        let mut violations: Vec<Finding> = search
            .violations
            .iter()
            .map(|f| Finding::new(search_params, faults, f))
            .collect();
        // Shortest first, then in the order the invariants are listed.
        violations.sort_by_key(|f| (f.steps, ALWAYS.iter().position(|p| p.name == f.property)));
        let checks = search.checks.iter().map(|p| p.name).collect();
        let witnesses = SOMETIMES
            .iter()
            .zip(&search.witnesses)
            .map(|(p, w)| {
                (
                    p.name,
                    w.as_ref().map(|f| Finding::new(search_params, faults, f)),
                )
            })
            .collect();
        Self {
            name: name.to_string(),
            bounds: search.bounds,
            complete: search.complete() && !cancelled,
            cancelled,
            depth_limited: search.depth_limited,
            stopped: search.stopped,
            memory_limit: search.memory_limit,
            progress: search.progress.clone(),
            violations,
            checks,
            witnesses,
        }
    }

    /// Why it is incomplete, as the JSON report names it.
    fn stop_name(&self) -> Option<&'static str> {
        match (self.cancelled, self.stopped) {
            (true, _) => Some("cancelled"),
            (false, Some(Stop::Memory)) => Some("memory_limit"),
            (false, Some(Stop::States)) => Some("state_limit"),
            (false, None) => None,
        }
    }

    pub fn kinds(&self) -> Vec<FaultKind> {
        self.bounds.kinds.iter().collect()
    }

    pub fn per_second(&self) -> u64 {
        (self.progress.distinct * 1000)
            .checked_div(self.progress.elapsed_ms)
            .unwrap_or(self.progress.distinct * 1000)
    }

    pub fn bounds_text(&self, lang: Lang) -> String {
        words::bounds(self.bounds.faults, &self.kinds(), self.bounds.depth, lang)
    }

    /// The report for a person.
    pub fn text(&self, lang: Lang) -> String {
        let mut out = String::new();
        let p = &self.progress;
        out.push_str(&format!("locklab explore {}\n", self.name));
        out.push_str(&format!("{}\n", self.bounds_text(lang)));
        let numbers = words::numbers(
            p.states,
            p.distinct,
            p.max_depth,
            p.elapsed_ms,
            self.per_second(),
            lang,
        );
        if self.complete {
            out.push_str(&format!("{}{numbers}\n", words::complete(lang)));
        } else {
            out.push_str(&format!("{numbers}\n"));
            let why = match (self.cancelled, self.stopped) {
                (true, _) => words::cancelled(lang).to_string(),
                (false, Some(Stop::Memory)) => {
                    words::memory_limit(&memory::fmt_size(self.memory_limit), lang)
                }
                (false, _) => words::incomplete(self.bounds.max_states, lang),
            };
            out.push_str(&format!("{why}\n"));
        }
        if self.depth_limited {
            out.push_str(&format!("{}\n", words::depth_limited(lang)));
        }
        out.push('\n');
        for &name in &self.checks {
            let label = invariant_label(name, lang);
            match self.violations.iter().find(|f| f.property == name) {
                Some(f) => {
                    out.push_str(&format!(
                        "✗ {label} ({name}) {}\n",
                        words::fails(f.steps, f.schedule.len(), f.after_ms, lang)
                    ));
                    for (i, s) in f.schedule.iter().enumerate() {
                        out.push_str(&format!("  {:>3}  {s}\n", i + 1));
                    }
                    if let Some(r) = f.trace.invariant(name)
                        && let (Some(detail), Some(at)) = (&r.detail, r.first_ms)
                    {
                        out.push_str(&format!(
                            "  {}\n",
                            words::replayed(detail, &fmt_secs(at), lang)
                        ));
                    }
                }
                None => out.push_str(&format!("✓ {label} ({name}) {}\n", words::holds(lang))),
            }
        }
        out.push_str(&format!("\n{}\n", words::sometimes(lang)));
        for (name, w) in &self.witnesses {
            let label = invariant_label(*name, lang);
            let what = match w {
                Some(f) => words::witness(f.steps, lang),
                None => words::no_witness(self.complete, lang).to_string(),
            };
            out.push_str(&format!("  {label} ({name}): {what}\n"));
        }
        out.push('\n');
        if self.violations.is_empty() {
            if self.complete {
                out.push_str(&words::clean(&self.bounds_text(lang), lang));
            } else {
                out.push_str(words::nothing_found_yet(lang));
            }
            out.push('\n');
        }
        out
    }

    /// The report as JSON (see docs/src/reference/json.md for its fields).
    pub fn json(&self) -> Json<'_> {
        Json {
            schema_version: SCHEMA_VERSION,
            name: &self.name,
            bounds: JsonBounds {
                clients: 3,
                acquisitions_per_client: 1,
                faults: self.bounds.faults,
                fault_kinds: self.kinds().iter().map(|k| k.name()).collect(),
                depth: self.bounds.depth,
                max_states: self.bounds.max_states,
                max_memory_bytes: self.memory_limit,
                threads: self.bounds.threads,
            },
            complete: self.complete,
            stopped: self.stop_name(),
            memory_bytes: self.progress.memory_bytes,
            depth_limited: self.depth_limited,
            states: self.progress.states,
            distinct_states: self.progress.distinct,
            max_depth: self.progress.max_depth,
            elapsed_ms: self.progress.elapsed_ms,
            states_per_second: self.per_second(),
            violations: self
                .violations
                .iter()
                .map(|f| JsonViolation {
                    invariant: f.property.name(),
                    steps: f.steps,
                    found_after_ms: f.after_ms,
                    schedule: &f.schedule,
                    trace: JsonRun::of(f),
                })
                .collect(),
            sometimes: self
                .witnesses
                .iter()
                .map(|(name, w)| JsonWitness {
                    property: name.name(),
                    found: w.is_some(),
                    steps: w.as_ref().map(|f| f.steps),
                    schedule: w.as_ref().map(|f| f.schedule.as_slice()),
                    trace: w.as_ref().map(JsonRun::of),
                })
                .collect(),
        }
    }
}

#[derive(Serialize)]
pub struct Json<'a> {
    schema_version: u32,
    name: &'a str,
    bounds: JsonBounds,
    complete: bool,
    /// `cancelled`, `memory_limit`, `state_limit`, or null for a search that ran to its end.
    stopped: Option<&'static str>,
    memory_bytes: u64,
    depth_limited: bool,
    states: u64,
    distinct_states: u64,
    max_depth: u32,
    elapsed_ms: u64,
    states_per_second: u64,
    violations: Vec<JsonViolation<'a>>,
    sometimes: Vec<JsonWitness<'a>>,
}

#[derive(Serialize)]
struct JsonBounds {
    clients: u32,
    acquisitions_per_client: u32,
    faults: u8,
    fault_kinds: Vec<&'static str>,
    depth: u32,
    max_states: u64,
    max_memory_bytes: u64,
    threads: usize,
}

#[derive(Serialize)]
struct JsonViolation<'a> {
    invariant: &'static str,
    steps: usize,
    found_after_ms: u64,
    schedule: &'a [String],
    trace: JsonRun<'a>,
}

#[derive(Serialize)]
struct JsonWitness<'a> {
    property: &'static str,
    found: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    steps: Option<usize>,
    #[serde(skip_serializing_if = "Option::is_none")]
    schedule: Option<&'a [String]>,
    #[serde(skip_serializing_if = "Option::is_none")]
    trace: Option<JsonRun<'a>>,
}

/// A run as `locklab sim --json` writes it: the parameters, then the trace.
#[derive(Serialize)]
struct JsonRun<'a> {
    params: Params,
    #[serde(flatten)]
    trace: &'a Trace,
}

impl<'a> JsonRun<'a> {
    fn of(f: &'a Finding) -> Self {
        Self {
            params: Params::Abc(f.params.clone()),
            trace: &f.trace,
        }
    }
}
