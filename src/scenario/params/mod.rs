//! A scenario's `[params]` read into its family's parameters through the shared
//! parameter-table reader; the A/B/C family, with its recipe choices, has a file of its own.

mod abc;

use toml::Spanned;

use super::faults::queue_faults;
use super::raw::RawFault;
use super::table::{self, Refused, Table, refuse};
use crate::engine::params::knobs::Knobs;
use crate::engine::params::{
    FrozenParams, HerdParams, ParamError, Params, RwLockParams, SemaphoreParams,
};
use crate::engine::registry;
use crate::engine::trace::Family;

pub(super) fn family_params(
    family: Family,
    table: &Table,
    faults: &[Spanned<RawFault>],
) -> Result<Params, Refused> {
    Ok(match family {
        Family::Frozen => Params::Frozen(frozen_params(table)?),
        Family::Herd => Params::Herd(herd_params(table)?),
        Family::Abc => Params::Abc(abc::abc_params(table, faults)?),
        Family::Rwlock => {
            let mut p: RwLockParams = knob_params(table)?;
            p.common.faults = queue_faults(faults, p.wants.len(), p.common.duration_ms)?;
            Params::Rwlock(p)
        }
        Family::Semaphore => {
            let mut p: SemaphoreParams = knob_params(table)?;
            p.common.faults = queue_faults(faults, p.clients as usize, p.common.duration_ms)?;
            Params::Semaphore(p)
        }
        Family::Election => Params::Election(knob_params(table)?),
        Family::Tasks => Params::Tasks(knob_params(table)?),
        Family::Redlock => Params::Redlock(knob_params(table)?),
        Family::Snowflake => Params::Snowflake(knob_params(table)?),
    })
}

pub(super) fn takes_faults(family: Family) -> bool {
    registry::entry(family).takes_faults()
}

/// The keys a file may name for this family in `locked`.
pub(super) fn valid_keys(family: Family) -> Vec<&'static str> {
    registry::entry(family).keys()
}

/// Reads a family's parameters through its table of knobs: each value is checked for its kind
/// here and for its range or options by the family, and every problem names its place.
fn knob_params<K: Knobs + Default>(table: &Table) -> Result<K, Refused> {
    let mut p = K::default();
    for (key, v) in table {
        table::knob(&mut p, key, v)
            .unwrap_or_else(|| Err(table::unknown_param(key, v, &K::knob_keys())))?;
    }
    p.validate().map_err(|e| {
        // Point at the key the problem names when the file sets it, else at the table.
        let at = match &e {
            ParamError::Invalid { key, .. } => table.get(key).map(|v| (key.clone(), v.span())),
            _ => None,
        };
        match at {
            Some((key, span)) => refuse(span, Some(&key), e.to_string()),
            None => {
                let span = table.values().next().map_or(0..0, |v| v.span());
                refuse(span, Some("params"), e.to_string())
            }
        }
    })?;
    Ok(p)
}

fn frozen_params(table: &Table) -> Result<FrozenParams, Refused> {
    let mut p = FrozenParams::default();
    table::frozen(&mut p, table)?;
    Ok(p)
}

fn herd_params(table: &Table) -> Result<HerdParams, Refused> {
    let mut p = HerdParams::default();
    table::herd(&mut p, table)?;
    if let Err(e) = p.validate() {
        // Point at the fan-out when the file sets it, else at the table's first key.
        let at = table
            .get_key_value("fanout")
            .or_else(|| table.iter().next());
        return Err(match at {
            Some((key, v)) => table::param_err(key, v, e),
            None => refuse(0..0, Some("params"), e.to_string()),
        });
    }
    Ok(p)
}
