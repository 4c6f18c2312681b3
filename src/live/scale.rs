//! Fitting a preset's times to a real server.
//!
//! A server with tickTime `T` grants a session timeout between `2T` and `20T`, whatever the
//! client asks. A private server gets the preset's own tick (times a chosen factor), so it
//! grants exactly what the model's service grants. An existing server grants what its tick
//! allows: every time in the preset is then stretched by the factor between what was granted
//! and what was asked, so the story keeps its proportions.

use crate::engine::params::{AbcParams, Fault};
use crate::engine::time::Millis;

/// How a run's times relate to the preset's.
#[derive(Debug, Clone, Copy, PartialEq, serde::Serialize)]
pub struct Scaling {
    pub factor: f64,
    /// The server's tick, when known.
    pub tick_ms: Option<Millis>,
    pub requested_ms: Millis,
    pub granted_ms: Millis,
}

impl Scaling {
    /// The bounds a server with this tick grants, if the tick is known.
    pub fn bounds(&self) -> Option<(Millis, Millis)> {
        self.tick_ms.map(|t| (2 * t, 20 * t))
    }
}

fn by(ms: Millis, f: f64) -> Millis {
    (ms as f64 * f).round() as Millis
}

/// The preset's parameters with every time multiplied by `f`.
pub fn scaled(p: &AbcParams, f: f64) -> AbcParams {
    let mut s = p.clone();
    s.session_timeout_ms = by(p.session_timeout_ms, f);
    s.delay_ms = by(p.delay_ms, f);
    s.hold_ms = by(p.hold_ms, f);
    s.write_after_ms = by(p.write_after_ms, f);
    s.start_gap_ms = by(p.start_gap_ms, f);
    s.duration_ms = by(p.duration_ms, f);
    s.tick_ms = by(p.tick_ms, f).max(1);
    s.container_check_ms = p.container_check_ms.map(|c| by(c, f).max(1));
    s.faults = p
        .faults
        .iter()
        .map(|fault| match fault.clone() {
            Fault::Freeze {
                client,
                at_ms,
                len_ms,
            } => Fault::Freeze {
                client,
                at_ms: by(at_ms, f),
                len_ms: by(len_ms, f),
            },
            Fault::Disconnect {
                client,
                at_ms,
                len_ms,
            } => Fault::Disconnect {
                client,
                at_ms: by(at_ms, f),
                len_ms: by(len_ms, f),
            },
            Fault::Crash { client, at_ms } => Fault::Crash {
                client,
                at_ms: by(at_ms, f),
            },
            Fault::GiveUp { client, at_ms } => Fault::GiveUp {
                client,
                at_ms: by(at_ms, f),
            },
            other => other,
        })
        .collect();
    s
}

/// For an existing server that granted `granted_ms` when asked for the preset's timeout.
pub fn for_granted(p: &AbcParams, granted_ms: Millis) -> (AbcParams, Scaling) {
    let f = granted_ms as f64 / p.session_timeout_ms.max(1) as f64;
    let s = scaled(p, f);
    let scaling = Scaling {
        factor: f,
        tick_ms: None,
        requested_ms: p.session_timeout_ms,
        granted_ms,
    };
    (s, scaling)
}

/// For a private server started with the preset's tick times `f`.
pub fn for_private(p: &AbcParams, f: f64) -> (AbcParams, Scaling) {
    let s = scaled(p, f);
    let granted = crate::engine::zk::service::negotiate(s.session_timeout_ms, s.tick_ms);
    let scaling = Scaling {
        factor: f,
        tick_ms: Some(s.tick_ms),
        requested_ms: s.session_timeout_ms,
        granted_ms: granted,
    };
    (s, scaling)
}

/// The preset's parameters fitted to the server, and how: a private server runs them scaled
/// by `factor`; a server of the user's is asked what session timeout it grants.
pub fn fit(
    p: &AbcParams,
    server: &super::server::Server,
    factor: f64,
) -> Result<(AbcParams, Scaling), super::UserError> {
    match server.tick_ms() {
        Some(_) => Ok(for_private(p, factor)),
        None => {
            let granted = super::abc::granted(server.addr(), p.session_timeout_ms)?;
            Ok(for_granted(p, granted))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_server_that_grants_twice_the_timeout_stretches_every_time() {
        let p = crate::scenario::find("expire").expect("the preset");
        let crate::engine::params::Params::Abc(p) = &p.params else {
            panic!("an abc preset");
        };
        let (s, scaling) = for_granted(p, 2 * p.session_timeout_ms);
        assert_eq!(scaling.factor, 2.0);
        assert_eq!(s.duration_ms, 2 * p.duration_ms);
        assert_eq!(s.hold_ms, 2 * p.hold_ms);
        match (&p.faults[0], &s.faults[0]) {
            (
                Fault::Disconnect {
                    at_ms: a,
                    len_ms: l,
                    ..
                },
                Fault::Disconnect {
                    at_ms: a2,
                    len_ms: l2,
                    ..
                },
            ) => assert_eq!((*a2, *l2), (2 * a, 2 * l)),
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn a_private_server_grants_what_the_model_grants() {
        let p = AbcParams::default();
        let (s, scaling) = for_private(&p, 0.5);
        assert_eq!(s.tick_ms, 1000);
        assert_eq!(scaling.granted_ms, 2000);
        assert_eq!(scaling.bounds(), Some((2000, 20000)));
    }
}
