//! Redlock across independent Redis nodes: its parameters. Times are in milliseconds, as Redis
//! takes them (`PX`).

use serde::Serialize;

use super::knobs::{Knob, Knobs, Value, choice, flag, num, num_knob, unknown_knob};
use super::{ParamError, Unit};
use crate::engine::time::Millis;
pub use crate::engine::trace::redlock::ReleaseHow;

/// Clients are named A, B, C, D in the order they start; nodes N1, N2, ... in the order every
/// client asks them.
pub const REDLOCK_CLIENTS: [&str; 4] = ["A", "B", "C", "D"];
pub const REDLOCK_NODES: [&str; 7] = ["N1", "N2", "N3", "N4", "N5", "N6", "N7"];

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct RedlockParams {
    pub nodes: u32,
    pub clients: u32,
    pub ttl_ms: Millis,
    /// One-way network delay between any client and any node.
    pub delay_ms: Millis,
    /// How long a client waits for one node before counting it as failed.
    pub timeout_ms: Millis,
    /// The clock-drift allowance as a percentage of the TTL (plus 2 ms, as the reference
    /// implementation adds).
    pub drift_pct: u32,
    /// Client i starts its first attempt at i × start_gap.
    pub start_gap_ms: Millis,
    /// After a failed attempt, the next one starts this much later.
    pub retry_ms: Millis,
    /// Once it holds, a client works this long on its own running time, writes once and releases.
    pub work_ms: Millis,
    pub duration_ms: Millis,
    pub release: ReleaseHow,
    /// Whether a node syncs its keys to disk before answering, so a restart keeps them.
    pub fsync: bool,
    /// Nodes (1-based) that are down from the start until `down_until_ms`.
    pub down: Vec<u32>,
    pub down_until_ms: Millis,
    /// A node (1-based, 0 for none) that crashes at `crash_at_ms` and restarts `restart_after_ms`
    /// later.
    pub crash_node: u32,
    pub crash_at_ms: Millis,
    pub restart_after_ms: Millis,
    /// A node (1-based, 0 for none) whose clock is stepped forward by `jump_by_ms` at `jump_at_ms`.
    pub jump_node: u32,
    pub jump_at_ms: Millis,
    pub jump_by_ms: Millis,
    /// A client (0-based) that freezes at `pause_at_ms` for `pause_len_ms`.
    pub pause_client: Option<usize>,
    pub pause_at_ms: Millis,
    pub pause_len_ms: Millis,
    /// Seeds the random values the clients write into the keys.
    pub seed: u64,
}

impl Default for RedlockParams {
    fn default() -> Self {
        Self {
            nodes: 5,
            clients: 2,
            ttl_ms: 10_000,
            delay_ms: 10,
            timeout_ms: 30,
            drift_pct: 1,
            start_gap_ms: 1_500,
            retry_ms: 500,
            work_ms: 3_000,
            duration_ms: 16_000,
            release: ReleaseHow::CompareAndDelete,
            fsync: false,
            down: Vec::new(),
            down_until_ms: 500,
            crash_node: 0,
            crash_at_ms: 1_000,
            restart_after_ms: 200,
            jump_node: 0,
            jump_at_ms: 1_000,
            jump_by_ms: 10_000,
            pause_client: None,
            pause_at_ms: 1_000,
            pause_len_ms: 10_000,
            seed: 1,
        }
    }
}

impl RedlockParams {
    /// Nodes needed for a majority.
    pub fn quorum(&self) -> u32 {
        self.nodes / 2 + 1
    }

    /// The clock-drift allowance: TTL × drift_pct / 100 + 2 ms.
    pub fn drift_ms(&self) -> Millis {
        self.ttl_ms * u64::from(self.drift_pct) / 100 + 2
    }
}

const fn ms(key: &'static str, min: f64, max: f64, step: f64) -> Knob {
    num_knob(key, min, max, Unit::Milliseconds, step, step * 10.0)
}

const fn count(key: &'static str, min: f64, max: f64) -> Knob {
    num_knob(key, min, max, Unit::Count, 1.0, 1.0)
}

const RELEASES: &[&str] = &["compare_and_delete", "naive_del"];
const PAUSE_CLIENTS: &[&str] = &["none", "A", "B", "C", "D"];

static REDLOCK_KNOBS: [Knob; 24] = [
    count("nodes", 3.0, 7.0),
    count("clients", 2.0, 4.0),
    ms("ttl", 10.0, 60_000.0, 100.0),
    ms("delay", 0.0, 1_000.0, 1.0),
    ms("timeout", 1.0, 5_000.0, 5.0),
    count("drift_pct", 0.0, 10.0),
    ms("start_gap", 0.0, 60_000.0, 100.0),
    ms("retry", 1.0, 60_000.0, 100.0),
    ms("work", 0.0, 60_000.0, 100.0),
    ms("duration", 100.0, 120_000.0, 1_000.0),
    Knob::Choice {
        key: "release",
        options: RELEASES,
    },
    Knob::Flag { key: "fsync" },
    Knob::Text {
        key: "down",
        what: "node numbers down from the start, such as 3,5 (empty for none)",
    },
    ms("down_until", 0.0, 120_000.0, 100.0),
    count("crash_node", 0.0, 7.0),
    ms("crash_at", 0.0, 120_000.0, 100.0),
    ms("restart_after", 0.0, 120_000.0, 100.0),
    count("jump_node", 0.0, 7.0),
    ms("jump_at", 0.0, 120_000.0, 100.0),
    ms("jump_by", 0.0, 600_000.0, 1_000.0),
    Knob::Choice {
        key: "pause_client",
        options: PAUSE_CLIENTS,
    },
    ms("pause_at", 0.0, 120_000.0, 100.0),
    ms("pause_len", 0.0, 120_000.0, 100.0),
    count("seed", 0.0, 9_007_199_254_740_991.0),
];

impl Knobs for RedlockParams {
    fn knobs() -> &'static [Knob] {
        &REDLOCK_KNOBS
    }

    fn set_knob(&mut self, key: &str, v: &Value) -> Result<(), ParamError> {
        let Some(Knob::Num(spec)) = Self::knob(key) else {
            return match key {
                "release" => {
                    self.release = match choice(key, v, RELEASES)? {
                        "compare_and_delete" => ReleaseHow::CompareAndDelete,
                        _ => ReleaseHow::NaiveDel,
                    };
                    Ok(())
                }
                "fsync" => {
                    self.fsync = flag(key, v)?;
                    Ok(())
                }
                "pause_client" => {
                    let c = choice(key, v, PAUSE_CLIENTS)?;
                    self.pause_client = REDLOCK_CLIENTS.iter().position(|n| *n == c);
                    Ok(())
                }
                "down" => {
                    self.down = node_list(key, v)?;
                    Ok(())
                }
                _ => Err(unknown_knob::<Self>(key)),
            };
        };
        let n = spec.check(num(key, v)?)?;
        let whole = n.round() as u64;
        match key {
            "nodes" => self.nodes = whole as u32,
            "clients" => self.clients = whole as u32,
            "ttl" => self.ttl_ms = whole,
            "delay" => self.delay_ms = whole,
            "timeout" => self.timeout_ms = whole,
            "drift_pct" => self.drift_pct = whole as u32,
            "start_gap" => self.start_gap_ms = whole,
            "retry" => self.retry_ms = whole,
            "work" => self.work_ms = whole,
            "duration" => self.duration_ms = whole,
            "down_until" => self.down_until_ms = whole,
            "crash_node" => self.crash_node = whole as u32,
            "crash_at" => self.crash_at_ms = whole,
            "restart_after" => self.restart_after_ms = whole,
            "jump_node" => self.jump_node = whole as u32,
            "jump_at" => self.jump_at_ms = whole,
            "jump_by" => self.jump_by_ms = whole,
            "pause_at" => self.pause_at_ms = whole,
            "pause_len" => self.pause_len_ms = whole,
            _ => self.seed = whole,
        }
        Ok(())
    }

    fn validate(&self) -> Result<(), ParamError> {
        let node = |key: &str, n: u32| {
            if n > self.nodes {
                Err(ParamError::Invalid {
                    key: key.into(),
                    problem: format!("names node {n}, but there are {} nodes", self.nodes),
                })
            } else {
                Ok(())
            }
        };
        for &d in &self.down {
            node("down", d)?;
        }
        node("crash_node", self.crash_node)?;
        node("jump_node", self.jump_node)?;
        if let Some(c) = self.pause_client
            && c >= self.clients as usize
        {
            return Err(ParamError::Invalid {
                key: "pause_client".into(),
                problem: format!(
                    "names client {}, but there are {} clients",
                    REDLOCK_CLIENTS[c], self.clients
                ),
            });
        }
        Ok(())
    }
}

/// Reads a list of node numbers such as `3,5`; each at least 1, none twice.
fn node_list(key: &str, v: &Value) -> Result<Vec<u32>, ParamError> {
    let bad = |t: &str| ParamError::Invalid {
        key: key.into(),
        problem: format!(
            "must be node numbers 1 to 7 separated by commas, such as 3,5 (got `{t}`)"
        ),
    };
    let Value::Text(t) = v else {
        return Err(ParamError::WrongType {
            key: key.into(),
            expected: "a string of node numbers such as \"3,5\"",
        });
    };
    let mut out: Vec<u32> = Vec::new();
    for part in t.split([',', ' ']).filter(|p| !p.is_empty()) {
        match part.parse::<u32>() {
            Ok(n) if (1..=7).contains(&n) && !out.contains(&n) => out.push(n),
            _ => return Err(bad(t)),
        }
    }
    out.sort_unstable();
    Ok(out)
}
