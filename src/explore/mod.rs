//! The explorer: every interleaving of a small A/B/C configuration, breadth first, so the first
//! story found to break a recipe is a shortest one; then that story as a timed run.
//!
//! The engine offers the steps ([`crate::engine::world::step`]: the choices of a state with
//! time abstracted, and the faults a budget allows); this module searches them
//! ([`search`]), checks every state ([`props`]), turns what it finds into a trace and a scenario
//! file ([`counterexample`], [`save`]) and reports it ([`report`], [`cmd`]).

pub mod counterexample;
pub mod families;
pub mod memory;
pub mod props;
pub mod report;
pub mod save;
pub mod search;
pub mod variants;

use crate::engine::params::{AbcParams, Fault};
use crate::engine::world::step::{FaultKind, FaultKinds};

pub use search::{Bounds, Found, Search, SearchProgress, Stop};

/// The ranges the explorer accepts, named in its errors.
pub const MAX_FAULTS: u8 = 4;
pub const MAX_DEPTH: u32 = 200;
/// The visited set and parent links take under 64 bytes per distinct state; the frontier's
/// whole states are what fills memory, and `--max-memory` bounds them.
pub const MAX_STATES: u64 = 8_000_000;

pub const DEFAULT_FAULTS: u8 = 1;
pub const DEFAULT_DEPTH: u32 = 60;
pub const DEFAULT_MAX_STATES: u64 = 3_000_000;

/// The fault kinds a scenario allows: those its own faults are of, or every kind when it plans
/// none.
pub fn kinds_for(params: &AbcParams) -> FaultKinds {
    let kinds: FaultKinds = params
        .faults
        .iter()
        .filter_map(|f| match f {
            Fault::Freeze { .. } => Some(FaultKind::Freeze),
            Fault::Disconnect { .. } => Some(FaultKind::Disconnect),
            Fault::Crash { .. } => Some(FaultKind::Crash),
            Fault::DropCreateResponse { .. } => Some(FaultKind::LostResponse),
            Fault::DeleteBetween { .. } => Some(FaultKind::ReleaseEarly),
            // Giving up is the recipe's own choice, not a fault the search injects.
            Fault::GiveUp { .. } => None,
        })
        .collect();
    if kinds.is_empty() {
        FaultKinds::all()
    } else {
        kinds
    }
}

/// The parameters a search starts from: the scenario's recipe and timings, without its planned
/// faults or schedule (the search injects faults itself). A client giving up is kept: it is an
/// acquire deadline of the recipe, and without a clock it may pass at any moment of the wait.
pub fn search_params(params: &AbcParams) -> AbcParams {
    AbcParams {
        faults: recipe_faults(&params.faults),
        schedule: Vec::new(),
        ..params.clone()
    }
}

/// The planned faults that are the recipe's own deadlines (a client giving up), which a search
/// and its replay keep; every other fault is one the search injects.
pub fn recipe_faults(faults: &[Fault]) -> Vec<Fault> {
    faults
        .iter()
        .filter(|f| matches!(f, Fault::GiveUp { .. }))
        .cloned()
        .collect()
}

/// A bound out of range, worded with the limit.
pub fn check_bounds(faults: u64, depth: u64, max_states: u64) -> Result<(), String> {
    if faults > u64::from(MAX_FAULTS) {
        return Err(format!("--faults must be 0 to {MAX_FAULTS} (got {faults})"));
    }
    if !(1..=u64::from(MAX_DEPTH)).contains(&depth) {
        return Err(format!("--depth must be 1 to {MAX_DEPTH} (got {depth})"));
    }
    if !(1..=MAX_STATES).contains(&max_states) {
        return Err(format!(
            "--max-states must be 1 to {MAX_STATES} (got {max_states})"
        ));
    }
    Ok(())
}
