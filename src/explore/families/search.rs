//! The search over where and when a scenario's fault strikes (see the module notes above):
//! every placement is a scenario file run by the ordinary engine, in a fixed order, so the
//! verdicts, the counts and the shortest counterexample are the same whatever the thread count.

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

use toml::Table;

use super::{FaultSite, site};
use crate::engine::Params;
use crate::engine::time::Millis;
use crate::engine::trace::{Check, Family, Invariant, Trace};

/// Where the fault struck: which actor, at which instant.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Placement {
    pub target: u32,
    pub at_ms: Millis,
}

/// An invariant's earliest failure over every placement, with the run that shows it.
#[derive(Debug, Clone, PartialEq)]
pub struct Strike {
    pub invariant: Invariant,
    /// `None` when the scenario has no fault to place (its run alone fails).
    pub placement: Option<Placement>,
    pub target_name: Option<String>,
    /// When the invariant first fails in that run.
    pub first_ms: Millis,
    /// How many events of the run happen up to then.
    pub steps: usize,
    /// The scenario file that replays it.
    pub file: String,
    pub params: Params,
    pub trace: Trace,
}

/// The bounds of one search.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    /// 0: the run without the fault only; otherwise the scenario's one fault is placed.
    pub faults: u8,
    /// The search stops (incomplete) after this many runs.
    pub max_runs: u64,
    pub threads: usize,
}

/// A finished (or stopped) search.
#[derive(Debug, Clone, PartialEq)]
pub struct Outcome {
    pub name: String,
    pub family: Family,
    pub limits: Limits,
    /// The actors the fault may strike, and the instants it may strike at.
    pub targets: u32,
    /// The first actor it may strike, named.
    pub first_target: String,
    pub instants: usize,
    pub runs: u64,
    /// Runs the bounded space holds.
    pub space: u64,
    pub complete: bool,
    pub cancelled: bool,
    pub elapsed_ms: u64,
    /// The always-invariants every run checks, in the order the family lists them.
    pub checks: Vec<Invariant>,
    /// Shortest first.
    pub violations: Vec<Strike>,
    /// Each sometimes-property and whether some run showed it.
    pub witnesses: Vec<(Invariant, bool)>,
}

/// Placements run between two looks at the stop flag.
const BATCH: usize = 64;

/// A scenario file as the explorer runs it: its script and locks dropped (their instants
/// belong to the story as planned).
fn bare(text: &str) -> Result<Table, String> {
    let mut file: Table = toml::from_str(text).map_err(|e| e.message().to_string())?;
    file.remove("script");
    file.remove("locked");
    file.remove("predict");
    Ok(file)
}

fn load(name: &str, file: &Table) -> Result<(String, Params), String> {
    load_preset(name, file).map(|(text, p)| (text, p.params))
}

fn load_preset(name: &str, file: &Table) -> Result<(String, crate::scenario::Preset), String> {
    let text = toml::to_string(file).map_err(|e| e.to_string())?;
    let preset = crate::scenario::parse(name, name, &text).map_err(|e| e.to_string())?;
    Ok((text, preset))
}

/// What one run showed: its failures (invariant, first instant, events up to it) and the
/// sometimes-properties it saw.
struct Verdict {
    failed: Vec<(Invariant, Millis, usize)>,
    seen: Vec<Invariant>,
}

fn verdict(trace: &Trace) -> Verdict {
    let mut v = Verdict {
        failed: Vec::new(),
        seen: Vec::new(),
    };
    for i in &trace.invariants {
        match i.check {
            Check::Always => {
                if let Some(at) = i.first_violation_ms() {
                    let steps = trace.events.iter().filter(|e| e.at_ms <= at).count();
                    v.failed.push((i.name, at, steps));
                }
            }
            Check::Sometimes if i.held => v.seen.push(i.name),
            Check::Sometimes => {}
        }
    }
    v
}

/// Runs placement `p` of `file`: the file it makes, its parameters and its verdict.
fn try_one(
    name: &str,
    site: &dyn FaultSite,
    file: &Table,
    params: &Params,
    p: Option<Placement>,
) -> Result<(String, Params, Verdict), String> {
    let mut f = file.clone();
    if let Some(p) = p {
        site.strike(&mut f, params, p.target, p.at_ms);
    }
    let (text, params) = load(name, &f)?;
    let v = verdict(&crate::engine::run(&params));
    Ok((text, params, v))
}

/// Every instant something happens (an event, a message sent or received) in these runs, and
/// the millisecond after each: a fault then lands between a request and what it answers.
fn instants_of(runs: &[&Trace]) -> Vec<Millis> {
    let mut all: Vec<Millis> = runs
        .iter()
        .flat_map(|t| {
            let events = t.events.iter().map(|e| e.at_ms);
            let messages = t
                .messages
                .iter()
                .flat_map(|m| [Some(m.sent_ms), m.received_ms])
                .flatten();
            events
                .chain(messages)
                .flat_map(|at| [at, at + 1])
                .filter(|&at| at < t.end_ms)
        })
        .chain([0])
        .collect();
    all.sort_unstable();
    all.dedup();
    all
}

/// Explores the scenario file `text` (named `name`): every placement of its fault.
pub fn explore(
    name: &str,
    text: &str,
    limits: Limits,
    stop: &AtomicBool,
) -> Result<Outcome, String> {
    let started = Instant::now();
    let file = bare(text)?;
    let (_, preset) = load_preset(name, &file)?;
    let (family, params) = (preset.family, preset.params);
    let site = site(family)
        .ok_or_else(|| format!("the {} family has no fault to place", family.name()))?;
    let mut calm = file.clone();
    site.calm(&mut calm);
    let (_, calm_params) = load(name, &calm)?;
    let calm_trace = crate::engine::run(&calm_params);
    // The checks are those of the scenario as planned: some exist only with its fault (an
    // operator who cancels).
    let planned = crate::engine::run(&params);
    let checks = planned
        .invariants
        .iter()
        .filter(|i| i.check == Check::Always)
        .map(|i| i.name)
        .collect();
    let targets = if limits.faults == 0 {
        0
    } else {
        site.targets(&params)
    };
    let instants = instants_of(&[&calm_trace, &planned]);
    // With nothing to place, the one story is the run itself (without the fault when none
    // may be injected).
    let (base, placements): (&Table, Vec<Option<Placement>>) = if targets == 0 {
        (if limits.faults == 0 { &calm } else { &file }, vec![None])
    } else {
        let all = instants
            .iter()
            .flat_map(|&at_ms| (0..targets).map(move |target| Some(Placement { target, at_ms })))
            .collect();
        (&file, all)
    };
    let space = placements.len() as u64;
    let run = Run {
        name,
        site,
        base,
        params: &params,
    };
    let mut found = Findings::default();
    let mut runs = 0u64;
    let mut cancelled = false;
    let threads = limits.threads.max(1);
    for (b, batch) in placements.chunks(BATCH * threads).enumerate() {
        if runs >= limits.max_runs {
            break;
        }
        if stop.load(Ordering::Relaxed) {
            cancelled = true;
            break;
        }
        let batch = &batch[..batch.len().min((limits.max_runs - runs) as usize)];
        for (k, r) in run.batch(batch, threads).into_iter().enumerate() {
            found.add(b * BATCH * threads + k, r?);
        }
        runs += batch.len() as u64;
    }
    let violations = run.strikes(&placements, found.best)?;
    let witnesses = planned
        .invariants
        .iter()
        .filter(|i| i.check == Check::Sometimes)
        .map(|i| (i.name, found.seen.contains(&i.name)))
        .collect();
    Ok(Outcome {
        name: name.to_string(),
        family,
        limits,
        targets,
        first_target: site.target_name(&params, 0),
        instants: if targets == 0 { 0 } else { instants.len() },
        runs,
        space,
        complete: runs == space,
        cancelled,
        elapsed_ms: started.elapsed().as_millis() as u64,
        checks,
        violations,
        witnesses,
    })
}

/// What every placement of one search runs from: the scenario file and its parameters.
#[derive(Clone, Copy)]
struct Run<'a> {
    name: &'a str,
    site: &'a dyn FaultSite,
    base: &'a Table,
    params: &'a Params,
}

impl Run<'_> {
    /// The verdicts of a batch of placements, in the batch's order, run on `threads` threads.
    fn batch(self, batch: &[Option<Placement>], threads: usize) -> Vec<Result<Verdict, String>> {
        let per = batch.len().div_ceil(threads);
        std::thread::scope(|scope| {
            let parts: Vec<_> = batch
                .chunks(per)
                .map(|part| {
                    scope.spawn(move || {
                        part.iter()
                            .map(|&p| {
                                try_one(self.name, self.site, self.base, self.params, p)
                                    .map(|(_, _, v)| v)
                            })
                            .collect::<Vec<_>>()
                    })
                })
                .collect();
            parts
                .into_iter()
                .flat_map(|h| h.join().expect("an explorer thread panicked"))
                .collect()
        })
    }

    /// Each invariant's earliest failure, run again for its file, parameters and trace,
    /// earliest first.
    fn strikes(
        self,
        placements: &[Option<Placement>],
        best: Vec<(usize, Invariant, Millis, usize)>,
    ) -> Result<Vec<Strike>, String> {
        let mut violations = Vec::new();
        for (index, inv, first_ms, steps) in best {
            let p = placements[index];
            let (file, params, _) = try_one(self.name, self.site, self.base, self.params, p)?;
            let trace = crate::engine::run(&params);
            violations.push(Strike {
                invariant: inv,
                placement: p,
                target_name: p.map(|p| self.site.target_name(&params, p.target)),
                first_ms,
                steps,
                file,
                params,
                trace,
            });
        }
        violations.sort_by_key(|s| (s.first_ms, s.steps));
        Ok(violations)
    }
}

/// What the runs so far found: each failed invariant's earliest failure (the placement's
/// index, when, after how many events), and the sometimes-checks seen.
#[derive(Default)]
struct Findings {
    best: Vec<(usize, Invariant, Millis, usize)>,
    seen: Vec<Invariant>,
}

impl Findings {
    /// Takes in the verdict of the placement at `index`.
    fn add(&mut self, index: usize, v: Verdict) {
        for (inv, at, steps) in v.failed {
            match self.best.iter_mut().find(|x| x.1 == inv) {
                Some(x) if (at, steps) < (x.2, x.3) => *x = (index, inv, at, steps),
                Some(_) => {}
                None => self.best.push((index, inv, at, steps)),
            }
        }
        for s in v.seen {
            if !self.seen.contains(&s) {
                self.seen.push(s);
            }
        }
    }
}
