//! From a path the search found to a timed run: the choices are named as schedule steps, put
//! into the scenario's parameters, and run by the ordinary engine, so the counterexample is a
//! `Trace` like any other and a scenario file can carry it.

use super::search::{Found, replay};
use crate::engine::actors::recipe::{
    DataWrite, OnDisconnect, OnLoss, OnTimeout, Recovery, Registration, TokenSource, WatchMode,
};
use crate::engine::families::abc;
use crate::engine::params::AbcParams;
use crate::engine::time::Millis;
use crate::engine::trace::Trace;
use crate::engine::world::schedule::Scheduled;
use crate::engine::world::{ActorId, FaultAction};

/// The longest run a scenario allows.
const MAX_DURATION_MS: Millis = 600_000;

/// The named steps of a path, with each pause stretched over the time its client is idle.
pub fn schedule(
    params: &AbcParams,
    faults: u8,
    path: &[crate::engine::world::Choice],
) -> Vec<Scheduled> {
    let steps = replay(params, faults, path)
        .iter()
        .map(|(world, c)| Scheduled::of(world, *c))
        .collect();
    stretch_pauses(steps)
}

/// Whether a step is something `a` does or receives, or a fault on it.
fn involves(s: &Scheduled, a: ActorId) -> bool {
    match *s {
        Scheduled::Deliver { from, to } => from == a || to == a,
        Scheduled::Fire { owner, .. } => owner == a,
        Scheduled::Fault(f) => f.actor() == a,
    }
}

/// The search takes a pause in one step (freeze, expiry, thaw). The client does nothing between
/// its last step before the pause and its first after, so the pause can as well start right
/// after the one and end right before the other: the same run, told as the long GC pause it
/// stands for.
fn stretch_pauses(mut steps: Vec<Scheduled>) -> Vec<Scheduled> {
    let mut i = 0;
    while i < steps.len() {
        match steps[i] {
            Scheduled::Fault(FaultAction::Freeze(a)) => {
                let from = steps[..i]
                    .iter()
                    .rposition(|s| involves(s, a))
                    .map_or(0, |j| j + 1);
                let s = steps.remove(i);
                steps.insert(from, s);
            }
            Scheduled::Fault(FaultAction::Thaw(a)) => {
                if let Some(k) = steps[i + 1..].iter().position(|s| involves(s, a)) {
                    let s = steps.remove(i);
                    steps.insert(i + k, s);
                    if k > 0 {
                        // Something else now sits at `i`; look at it next.
                        continue;
                    }
                }
            }
            _ => {}
        }
        i += 1;
    }
    steps
}

/// The parameters that replay `steps` as a timed run: the same recipe and timings, the
/// schedule in place of planned faults, and a run long enough to show what follows.
pub fn params_for(params: &AbcParams, steps: Vec<Scheduled>) -> AbcParams {
    let mut p = AbcParams {
        faults: super::recipe_faults(&params.faults),
        schedule: steps,
        duration_ms: MAX_DURATION_MS,
        ..params.clone()
    };
    let last = last_instant(&p);
    p.duration_ms = (last + 1_000)
        .div_ceil(1_000)
        .saturating_mul(1_000)
        .clamp(1_000, MAX_DURATION_MS);
    p
}

/// When the last thing happens in a scheduled run of `p` (its schedule, then what follows).
fn last_instant(p: &AbcParams) -> Millis {
    let trace = abc::run(p);
    trace
        .events
        .iter()
        .rev()
        .find(|e| e.kind != crate::engine::trace::EventKind::RunEnded)
        .map_or(0, |e| e.at_ms)
}

/// A found path as the parameters of its timed run.
pub fn params_of(params: &AbcParams, faults: u8, found: &Found) -> AbcParams {
    params_for(params, schedule(params, faults, &found.path))
}

/// The timed run of a counterexample.
pub fn trace(params: &AbcParams) -> Trace {
    abc::run(params)
}

/// The same parameters with the correct recipe: predecessor watch, atomic registration, GUID
/// recovery, suspend on disconnect, stop on loss, fencing on.
pub fn correct_recipe(params: &AbcParams) -> AbcParams {
    AbcParams {
        watch: WatchMode::Predecessor,
        registration: Registration::Atomic,
        recovery: Recovery::Guid,
        on_disconnect: OnDisconnect::Suspend,
        on_loss: OnLoss::Stop,
        on_timeout: OnTimeout::DeleteNode,
        fencing: true,
        token: TokenSource::Czxid,
        data_write: match params.data_write {
            DataWrite::Off => DataWrite::Off,
            _ => DataWrite::Conditional,
        },
        ..params.clone()
    }
}

/// The same schedule under the correct recipe, run long enough to show how it ends.
pub fn correct_twin(params: &AbcParams) -> AbcParams {
    params_for(&correct_recipe(params), params.schedule.clone())
}
