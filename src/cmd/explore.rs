//! `locklab explore PRESET|FILE`: search, report, and optionally save the shortest
//! counterexample as a scenario file.

use super::error::UserError;
use super::output::{write_file, write_stdout};
use crate::cli::ExploreArgs;
use crate::engine::Params;
use crate::explore::report::Outcome;
use crate::explore::{self, Bounds, Search, kinds_for, search_params};
use crate::i18n::{Lang, explore as words};
use crate::source::Source;

pub fn run(args: ExploreArgs, lang: Lang, source: &Source) -> Result<(), UserError> {
    let faults = args.faults.unwrap_or(u64::from(explore::DEFAULT_FAULTS));
    let depth = args.depth.unwrap_or(u64::from(explore::DEFAULT_DEPTH));
    let max_states = args.max_states.unwrap_or(explore::DEFAULT_MAX_STATES);
    explore::check_bounds(faults, depth, max_states).map_err(UserError::usage)?;
    let preset = super::export::resolve(&args.scenario, source)?;
    let Params::Abc(params) = &preset.params else {
        return Err(UserError::usage(format!(
            "explore supports the abc family only; `{}` is a {} scenario",
            crate::text::printable(&preset.name, false),
            preset.family.name()
        )));
    };
    let bounds = Bounds {
        faults: faults as u8,
        kinds: kinds_for(params),
        depth: depth as u32,
        max_states,
    };
    let start = search_params(params);
    let mut search = Search::new(&start, bounds);
    search.run(u64::MAX);
    let name = crate::text::printable(&preset.name, false);
    let outcome = Outcome::new(&name, &start, &search, false);
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
        let mut buf = serde_json::to_vec_pretty(&outcome.json()).map_err(|e| UserError {
            message: e.to_string(),
            status: 1,
        })?;
        buf.push(b'\n');
        write_stdout(&buf)
    } else {
        write_stdout(outcome.text(lang).as_bytes())
    }
}
