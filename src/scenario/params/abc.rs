//! The A/B/C family's `[params]`: its numbers, and the recipe's choices (which node to watch,
//! how to recover a lost create, what to do on a disconnect or a loss, where the token comes
//! from), followed by its faults.

use toml::Spanned;

use crate::engine::params::{
    AbcParams, DataWrite, OnDisconnect, OnLoss, OnTimeout, Recovery, Registration, TokenSource,
    WatchMode,
};
use crate::engine::time::from_secs;
use crate::scenario::faults::{CLIENTS, fault};
use crate::scenario::raw::RawFault;
use crate::scenario::table::{
    Refused, Table, boolean, choice, number, param_err, refuse, unknown_param,
};

pub(super) fn abc_params(
    table: &Table,
    faults: &[Spanned<RawFault>],
) -> Result<AbcParams, Refused> {
    let mut p = AbcParams::default();
    let mut fanout: Option<u32> = None;
    for (key, v) in table {
        let k = key.as_str();
        match k {
            "watch" => {
                p.watch = choice(
                    k,
                    v,
                    &[
                        ("predecessor", WatchMode::Predecessor),
                        ("children", WatchMode::Children),
                        ("ahead", WatchMode::Ahead(1)),
                    ],
                )?
            }
            "fanout" => {
                let n = number(k, v)?;
                if !(1.0..=3.0).contains(&n) || n.fract() != 0.0 {
                    return Err(refuse(
                        v.span(),
                        Some(k),
                        format!("must be a whole number 1 to 3 (got {n})"),
                    ));
                }
                fanout = Some(n as u32);
            }
            "recovery" => {
                p.recovery = choice(
                    k,
                    v,
                    &[("guid", Recovery::Guid), ("blind", Recovery::Blind)],
                )?
            }
            "registration" => {
                p.registration = choice(
                    k,
                    v,
                    &[
                        ("atomic", Registration::Atomic),
                        ("two_step", Registration::TwoStep),
                    ],
                )?
            }
            "on_disconnect" => {
                p.on_disconnect = choice(
                    k,
                    v,
                    &[
                        ("suspend", OnDisconnect::Suspend),
                        ("carry_on", OnDisconnect::CarryOn),
                    ],
                )?
            }
            "on_loss" => {
                p.on_loss = choice(
                    k,
                    v,
                    &[("stop", OnLoss::Stop), ("carry_on", OnLoss::CarryOn)],
                )?
            }
            "fencing" => p.fencing = boolean(k, v)?,
            "on_timeout" => {
                p.on_timeout = choice(
                    k,
                    v,
                    &[
                        ("delete_node", OnTimeout::DeleteNode),
                        ("forget", OnTimeout::Forget),
                    ],
                )?
            }
            "container_check" => {
                let n = number(k, v)?;
                if !(0.0..=600.0).contains(&n) {
                    return Err(refuse(
                        v.span(),
                        Some(k),
                        format!("must be 0 (an ordinary directory) to 600 s (got {n})"),
                    ));
                }
                p.container_check_ms = (n > 0.0).then(|| from_secs(n));
            }
            "data_write" => {
                p.data_write = choice(
                    k,
                    v,
                    &[
                        ("off", DataWrite::Off),
                        ("unconditional", DataWrite::Unconditional),
                        ("conditional", DataWrite::Conditional),
                    ],
                )?
            }
            "data_version" => {
                let n = number(k, v)?;
                let max = crate::engine::params::MAX_DATA_VERSION;
                if n < 0.0 || n.fract() != 0.0 || n > f64::from(max) {
                    return Err(refuse(
                        v.span(),
                        Some(k),
                        format!("must be a whole number 0 to {max} (got {n})"),
                    ));
                }
                p.data_version = n as i32;
            }
            "token" => {
                p.token = choice(
                    k,
                    v,
                    &[
                        ("czxid", TokenSource::Czxid),
                        ("sequence", TokenSource::Sequence),
                    ],
                )?
            }
            "first_zxid" => {
                let n = number(k, v)?;
                if n < 1.0 || n.fract() != 0.0 || n > 1e15 {
                    return Err(refuse(
                        v.span(),
                        Some(k),
                        format!("must be a whole number 1 to 10^15 (got {n})"),
                    ));
                }
                p.first_zxid = n as u64;
            }
            "first_sequence" => {
                let n = number(k, v)?;
                if n.fract() != 0.0 || n < f64::from(i32::MIN) || n > f64::from(i32::MAX) {
                    return Err(refuse(
                        v.span(),
                        Some(k),
                        "must be a signed 32-bit whole number",
                    ));
                }
                p.first_sequence = n as i32;
            }
            "seed" => {
                let n = number(k, v)?;
                if n < 0.0 || n.fract() != 0.0 {
                    return Err(refuse(
                        v.span(),
                        Some(k),
                        "must be a whole number of 0 or more",
                    ));
                }
                p.seed = n as u64;
            }
            _ if AbcParams::spec(k).is_some() => {
                let n = number(k, v)?;
                p.set(k, n).map_err(|e| param_err(k, v, e))?;
            }
            _ => return Err(unknown_param(k, v, &AbcParams::keys())),
        }
    }
    if let Some(k) = fanout {
        p.watch = match p.watch {
            WatchMode::Ahead(_) => WatchMode::Ahead(k),
            other => other,
        };
    }
    for f in faults {
        p.faults.push(fault(f, p.duration_ms, &CLIENTS)?);
    }
    Ok(p)
}
