//! The JSON form of a run: the parameters, then the trace (events, spans, metrics, invariants).

use serde::Serialize;

use crate::engine::{Params, Trace};

#[derive(Serialize)]
struct Run<'a> {
    #[serde(skip_serializing_if = "Option::is_none")]
    preset: Option<&'a str>,
    params: &'a Params,
    #[serde(flatten)]
    trace: &'a Trace,
}

/// Writes a run as pretty JSON.
pub fn write(
    out: &mut impl std::io::Write,
    preset: Option<&str>,
    params: &Params,
    trace: &Trace,
) -> std::io::Result<()> {
    let run = Run {
        preset,
        params,
        trace,
    };
    serde_json::to_writer_pretty(&mut *out, &run).map_err(std::io::Error::other)?;
    writeln!(out)
}
