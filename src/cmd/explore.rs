//! `locklab explore PRESET|FILE`: search, report, and optionally save the shortest
//! counterexample as a scenario file. Ctrl-C stops the search: what it found so far is
//! reported, marked incomplete, and the exit status is 130 (a second Ctrl-C ends it at once).

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use super::error::UserError;
use super::output::{write_file, write_json, write_stdout};
use crate::cli::ExploreArgs;
use crate::engine::Params;
use crate::explore::report::Outcome;
use crate::explore::search::all_threads;
use crate::explore::{self, Bounds, Search, kinds_for, memory, search_params};
use crate::i18n::{Lang, explore as words};
use crate::source::Source;

pub fn run(args: ExploreArgs, lang: Lang, source: &Source) -> Result<(), UserError> {
    let faults = args.faults.unwrap_or(u64::from(explore::DEFAULT_FAULTS));
    let depth = args.depth.unwrap_or(u64::from(explore::DEFAULT_DEPTH));
    let max_states = args.max_states.unwrap_or(explore::DEFAULT_MAX_STATES);
    explore::check_bounds(faults, depth, max_states).map_err(UserError::usage)?;
    let preset = super::export::resolve(&args.scenario, source)?;
    let Params::Abc(params) = &preset.params else {
        return run_timed(&args, &preset, faults, max_states, lang, source);
    };
    let bounds = Bounds {
        depth: depth as u32,
        max_states,
        max_memory: args.max_memory.unwrap_or(memory::DEFAULT_MAX_MEMORY),
        threads: args.threads.map_or_else(all_threads, |n| n as usize),
        ..Bounds::new(faults as u8, kinds_for(params))
    };
    let interrupted = on_ctrl_c();
    let start = search_params(params);
    let mut search = Search::new(&start, bounds);
    while !search.run(SLICE) && !interrupted.load(Ordering::Relaxed) {}
    let cancelled = !search.done();
    let name = crate::text::printable(&preset.name, false);
    let outcome = Outcome::new(&name, &start, &search, cancelled);
    drop(search);
    if let Some(path) = &args.save {
        let Some(first) = outcome.violations.first() else {
            return Err(UserError {
                message: words::nothing_to_save(lang).into(),
                status: 1,
            });
        };
        let text = explore::save::scenario(&name, first);
        write_file(path, text.as_bytes()).map_err(|e| UserError {
            message: format!("cannot write {}: {e}", path.display()),
            status: 1,
        })?;
        if !args.json {
            eprintln!("{}", words::saved(&path.display().to_string(), lang));
        }
    }
    if args.json {
        write_json(&outcome.json())?;
    } else {
        write_stdout(outcome.text(lang).as_bytes())?;
    }
    if cancelled {
        return Err(UserError {
            message: words::interrupted(lang).into(),
            status: 130,
        });
    }
    Ok(())
}

/// States expanded between two looks at Ctrl-C.
const SLICE: u64 = 4096;

/// A flag Ctrl-C raises; a second Ctrl-C ends the process at once, as usual.
fn on_ctrl_c() -> Arc<AtomicBool> {
    use signal_hook::consts::SIGINT;
    let flag = Arc::new(AtomicBool::new(false));
    // Without the handlers Ctrl-C still ends the search, only without a report.
    let _ = signal_hook::flag::register_conditional_shutdown(SIGINT, 130, Arc::clone(&flag));
    let _ = signal_hook::flag::register(SIGINT, Arc::clone(&flag));
    flag
}

/// A family explored with its clock kept: every placement of the scenario's fault.
fn run_timed(
    args: &ExploreArgs,
    preset: &crate::scenario::Preset,
    faults: u64,
    max_runs: u64,
    lang: Lang,
    source: &Source,
) -> Result<(), UserError> {
    use crate::explore::families::{search, site};
    let name = crate::text::printable(&preset.name, false);
    if site(preset.family).is_none() {
        return Err(UserError::usage(format!(
            "explore has nothing to search in `{name}`: the {} family has no fault to place",
            preset.family.name()
        )));
    }
    let text = scenario_text(&args.scenario, &preset.name, source)?;
    let limits = search::Limits {
        faults: faults.min(1) as u8,
        max_runs,
        threads: args.threads.map_or_else(all_threads, |n| n as usize),
    };
    let interrupted = on_ctrl_c();
    let outcome = search::explore(&name, &text, limits, &interrupted).map_err(UserError::usage)?;
    if let Some(path) = &args.save {
        let Some(text) = outcome.saved() else {
            return Err(UserError {
                message: words::nothing_to_save(lang).into(),
                status: 1,
            });
        };
        write_file(path, text.as_bytes()).map_err(|e| UserError {
            message: format!("cannot write {}: {e}", path.display()),
            status: 1,
        })?;
        if !args.json {
            eprintln!("{}", words::saved(&path.display().to_string(), lang));
        }
    }
    if args.json {
        write_json(&outcome.json())?;
    } else {
        write_stdout(outcome.text(lang).as_bytes())?;
    }
    if outcome.cancelled {
        return Err(UserError {
            message: words::interrupted(lang).into(),
            status: 130,
        });
    }
    Ok(())
}

/// The text of the scenario file a preset was read from: the user's file, or the shipped (or
/// `--content`) one of that name.
fn scenario_text(arg: &str, name: &str, source: &Source) -> Result<String, UserError> {
    let path = std::path::Path::new(arg);
    if path.is_file() {
        return std::fs::read_to_string(path)
            .map_err(|e| UserError::usage(format!("cannot read {}: {e}", path.display())));
    }
    let files = source
        .files("assets/scenarios", "toml")
        .map_err(|e| UserError::usage(e.to_string()))?;
    files
        .into_iter()
        .find(|f| f.rel.rsplit('/').next() == Some(&format!("{name}.toml")))
        .map(|f| f.text.into_owned())
        .ok_or_else(|| UserError::usage(format!("cannot find the file of preset `{name}`")))
}
