//! etcd's lease lock (`concurrency.Mutex` on a session's lease): its parameters. The lease TTL
//! is in whole seconds, as etcd grants it; every other time is in milliseconds.

use serde::Serialize;

use super::knobs::{Knob, Knobs, Value, choice, num, num_knob, unknown_knob};
use super::{ParamError, Unit};
use crate::engine::time::Millis;
pub use crate::engine::trace::etcd::{Guard, OnLost};

/// Clients are named A, B, C, D in the order they start.
pub const ETCD_CLIENTS: [&str; 4] = ["A", "B", "C", "D"];

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct EtcdParams {
    pub clients: u32,
    /// The TTL each client's session asks for; the leader raises it to its minimum.
    pub ttl_s: u64,
    /// One-way network delay between any client and etcd or the resource.
    pub delay_ms: Millis,
    /// Client i opens its session at i × start_gap.
    pub start_gap_ms: Millis,
    /// Once it holds, a client works this long on its own running time, then releases.
    pub work_ms: Millis,
    /// While it works, the holder writes after every `write_every` of its own running time.
    pub write_every_ms: Millis,
    pub duration_ms: Millis,
    /// What stands between a holder's write and the data.
    pub guard: Guard,
    /// What a client does once its session's keep-alive has given up.
    pub on_lost: OnLost,
    /// A client (0-based) that freezes at `pause_at_ms` for `pause_len_ms`.
    pub pause_client: Option<usize>,
    pub pause_at_ms: Millis,
    pub pause_len_ms: Millis,
    /// A client (0-based) whose link to etcd is cut at `cut_at_ms` for `cut_len_ms`; its link
    /// to the resource stays up.
    pub cut_client: Option<usize>,
    pub cut_at_ms: Millis,
    pub cut_len_ms: Millis,
    /// Where etcd's lessor looks for expired leases within its 500 ms loop: at
    /// `lessor_phase + k × 500` ms. A real member's phase is set by when it started.
    pub lessor_phase_ms: Millis,
}

impl Default for EtcdParams {
    fn default() -> Self {
        Self {
            clients: 2,
            ttl_s: 6,
            delay_ms: 10,
            start_gap_ms: 1_000,
            work_ms: 3_000,
            write_every_ms: 1_000,
            duration_ms: 16_000,
            guard: Guard::Token,
            on_lost: OnLost::Ignore,
            pause_client: None,
            pause_at_ms: 1_500,
            pause_len_ms: 10_000,
            cut_client: None,
            cut_at_ms: 1_500,
            cut_len_ms: 12_000,
            lessor_phase_ms: 0,
        }
    }
}

const fn ms(key: &'static str, min: f64, max: f64, step: f64) -> Knob {
    num_knob(key, min, max, Unit::Milliseconds, step, step * 10.0)
}

const GUARDS: &[&str] = &["none", "token", "txn"];
const ON_LOST: &[&str] = &["ignore", "stop"];
const CLIENT_CHOICES: &[&str] = &["none", "A", "B", "C", "D"];

static ETCD_KNOBS: [Knob; 16] = [
    num_knob("clients", 2.0, 4.0, Unit::Count, 1.0, 1.0),
    num_knob("ttl", 1.0, 600.0, Unit::Seconds, 1.0, 10.0),
    ms("delay", 0.0, 1_000.0, 1.0),
    ms("start_gap", 0.0, 60_000.0, 100.0),
    ms("work", 0.0, 120_000.0, 100.0),
    ms("write_every", 100.0, 120_000.0, 100.0),
    ms("duration", 100.0, 300_000.0, 1_000.0),
    Knob::Choice {
        key: "guard",
        options: GUARDS,
    },
    Knob::Choice {
        key: "on_lost",
        options: ON_LOST,
    },
    Knob::Choice {
        key: "pause_client",
        options: CLIENT_CHOICES,
    },
    ms("pause_at", 0.0, 300_000.0, 100.0),
    ms("pause_len", 0.0, 300_000.0, 100.0),
    Knob::Choice {
        key: "cut_client",
        options: CLIENT_CHOICES,
    },
    ms("cut_at", 0.0, 300_000.0, 100.0),
    ms("cut_len", 0.0, 300_000.0, 100.0),
    ms("lessor_phase", 0.0, 499.0, 10.0),
];

fn client_choice(key: &str, v: &Value) -> Result<Option<usize>, ParamError> {
    let c = choice(key, v, CLIENT_CHOICES)?;
    Ok(ETCD_CLIENTS.iter().position(|n| *n == c))
}

impl Knobs for EtcdParams {
    fn knobs() -> &'static [Knob] {
        &ETCD_KNOBS
    }

    fn set_knob(&mut self, key: &str, v: &Value) -> Result<(), ParamError> {
        let Some(Knob::Num(spec)) = Self::knob(key) else {
            return match key {
                "guard" => {
                    self.guard = match choice(key, v, GUARDS)? {
                        "none" => Guard::None,
                        "token" => Guard::Token,
                        _ => Guard::Txn,
                    };
                    Ok(())
                }
                "on_lost" => {
                    self.on_lost = match choice(key, v, ON_LOST)? {
                        "ignore" => OnLost::Ignore,
                        _ => OnLost::Stop,
                    };
                    Ok(())
                }
                "pause_client" => {
                    self.pause_client = client_choice(key, v)?;
                    Ok(())
                }
                "cut_client" => {
                    self.cut_client = client_choice(key, v)?;
                    Ok(())
                }
                _ => Err(unknown_knob::<Self>(key)),
            };
        };
        let n = spec.check(num(key, v)?)?;
        if n.fract() != 0.0 {
            // etcd grants a lease's TTL in whole seconds; the rest are whole milliseconds.
            return Err(ParamError::NotWhole {
                key: spec.key,
                value: n,
            });
        }
        let whole = n as u64;
        match key {
            "clients" => self.clients = whole as u32,
            "ttl" => self.ttl_s = whole,
            "delay" => self.delay_ms = whole,
            "start_gap" => self.start_gap_ms = whole,
            "work" => self.work_ms = whole,
            "write_every" => self.write_every_ms = whole,
            "duration" => self.duration_ms = whole,
            "pause_at" => self.pause_at_ms = whole,
            "pause_len" => self.pause_len_ms = whole,
            "cut_at" => self.cut_at_ms = whole,
            "lessor_phase" => self.lessor_phase_ms = whole,
            _ => self.cut_len_ms = whole,
        }
        Ok(())
    }

    fn validate(&self) -> Result<(), ParamError> {
        for (key, c) in [
            ("pause_client", self.pause_client),
            ("cut_client", self.cut_client),
        ] {
            if let Some(c) = c
                && c >= self.clients as usize
            {
                return Err(ParamError::Invalid {
                    key: key.into(),
                    problem: format!(
                        "names client {}, but there are {} clients",
                        ETCD_CLIENTS[c], self.clients
                    ),
                });
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_ttl_is_whole_seconds_and_a_named_client_must_exist() {
        let mut p = EtcdParams::default();
        assert!(p.set_knob("ttl", &Value::Num(2.5)).is_err());
        p.set_knob("ttl", &Value::Num(10.0)).unwrap();
        assert_eq!(p.ttl_s, 10);
        p.set_knob("pause_client", &Value::Text("C".into()))
            .unwrap();
        let err = p.validate().unwrap_err().to_string();
        assert_eq!(err, "pause_client names client C, but there are 2 clients");
        p.set_knob("clients", &Value::Num(3.0)).unwrap();
        assert!(p.validate().is_ok());
        assert!(p.set_knob("guard", &Value::Text("lua".into())).is_err());
    }
}
