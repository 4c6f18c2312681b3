//! The A/B/C family's `[params]`: its numbers and the recipe's choices (which node to watch,
//! how to recover a lost create, what to do on a disconnect or a loss, where the token comes
//! from), each through the family's knobs, followed by its faults.

use toml::Spanned;

use crate::engine::params::AbcParams;
use crate::scenario::faults::{CLIENTS, fault};
use crate::scenario::raw::RawFault;
use crate::scenario::table::{self, Refused, Table};

pub(super) fn abc_params(
    table: &Table,
    faults: &[Spanned<RawFault>],
) -> Result<AbcParams, Refused> {
    let mut p = AbcParams::default();
    // The table is read in key order, so a fan-out comes before the `watch` it refines; the
    // knobs keep it when `watch` is `ahead`.
    table::knobs(&mut p, table)?;
    for f in faults {
        p.faults.push(fault(f, p.duration_ms, &CLIENTS)?);
    }
    Ok(p)
}
