//! One Redlock client, in a process of its own (locklab's hidden `redlock-client` command), so
//! that a pause is a real one: SIGSTOP stops the whole process, its clock keeps running, and
//! nothing in it notices. It runs the algorithm as the model's client does (ask every node in
//! order with `SET key value NX PX ttl`, each within the request timeout; hold if a majority
//! said OK and validity = ttl − elapsed − drift is left; work, write once, release everywhere;
//! after a failure release everywhere and retry) and reports each step on its standard output
//! as one JSON line, timed on the machine's monotonic clock from the run's start.

use std::io::Write;
use std::net::SocketAddr;
use std::time::Duration;

use serde::{Deserialize, Serialize};

use super::resp::{Conn, Reply};
use crate::engine::time::Millis;

/// The lock's key on every node.
pub const KEY: &str = "locklab:lock";
/// The resource's key on its own server.
pub const RESOURCE_KEY: &str = "locklab:resource";

/// The release Redis's documentation gives: delete the key only if it still holds the
/// caller's value.
pub const COMPARE_AND_DELETE: &str = "if redis.call(\"get\",KEYS[1]) == ARGV[1] then\n    return redis.call(\"del\",KEYS[1])\nelse\n    return 0\nend";

/// What a client is told, as one JSON argument.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct ClientConfig {
    /// Its name, A to D.
    pub name: String,
    pub nodes: Vec<SocketAddr>,
    pub resource: ResourceAt,
    pub ttl_ms: Millis,
    pub drift_ms: Millis,
    pub timeout_ms: Millis,
    pub retry_ms: Millis,
    pub work_ms: Millis,
    pub start_ms: Millis,
    /// Releases with a plain DEL (here GETDEL, which deletes the same way and says what it
    /// deleted) instead of the compare-and-delete script.
    pub naive_del: bool,
    /// The run's start on CLOCK_MONOTONIC, in nanoseconds.
    pub epoch_ns: u64,
    /// The locklab that started it: the client dies with it.
    pub parent: u32,
    pub seed: u64,
}

/// Where the resource is: a row on the private PostgreSQL when it is installed, else a key on a
/// Redis server of its own.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "store", rename_all = "snake_case")]
pub enum ResourceAt {
    Redis {
        addr: SocketAddr,
    },
    Postgres {
        addr: SocketAddr,
        dbname: String,
        row: String,
    },
}

impl ResourceAt {
    /// A connection to the resource, made at the first write.
    fn open(&self) -> Box<dyn Resource + Send> {
        match self {
            ResourceAt::Redis { addr } => Box::new(RedisResource {
                addr: *addr,
                timeout: Duration::from_secs(2),
                conn: None,
            }),
            ResourceAt::Postgres { addr, dbname, row } => Box::new(PgResource {
                at: (*addr, dbname.clone(), row.clone()),
                row: None,
            }),
        }
    }
}

/// One step, as the client reports it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "step", rename_all = "snake_case")]
pub enum Report {
    Started {
        at: Millis,
        attempt: u32,
        value: u32,
    },
    /// A node's answer to SET NX PX.
    Answered {
        at: Millis,
        node: usize,
        ok: bool,
    },
    /// No answer within the request timeout, or no connection.
    TimedOut {
        at: Millis,
        node: usize,
    },
    Acquired {
        at: Millis,
        ok: Vec<usize>,
        elapsed_ms: Millis,
        validity_ms: i64,
    },
    Failed {
        at: Millis,
        ok: Vec<usize>,
        elapsed_ms: Millis,
        validity_ms: i64,
    },
    /// The resource's answer to the write.
    Wrote {
        at: Millis,
        accepted: bool,
    },
    ReleaseSent {
        at: Millis,
    },
    /// A release deleted the key on `node`, which held `value`.
    Deleted {
        at: Millis,
        node: usize,
        value: String,
    },
    /// A compare-and-delete found another value and left the key.
    Kept {
        at: Millis,
        node: usize,
    },
    Done {
        at: Millis,
    },
}

impl Report {
    pub fn at(&self) -> Millis {
        match self {
            Report::Started { at, .. }
            | Report::Answered { at, .. }
            | Report::TimedOut { at, .. }
            | Report::Acquired { at, .. }
            | Report::Failed { at, .. }
            | Report::Wrote { at, .. }
            | Report::ReleaseSent { at }
            | Report::Deleted { at, .. }
            | Report::Kept { at, .. }
            | Report::Done { at } => *at,
        }
    }
}

/// The machine's monotonic clock in nanoseconds: the same in every process of a run.
pub fn monotonic_ns() -> u64 {
    let t = rustix::time::clock_gettime(rustix::time::ClockId::Monotonic);
    t.tv_sec as u64 * 1_000_000_000 + t.tv_nsec as u64
}

/// Sleeps until `at` ms after `epoch_ns` on the monotonic clock (which may be still ahead).
pub fn sleep_until(epoch_ns: u64, at: Millis) {
    let due = epoch_ns + at * 1_000_000;
    let now = monotonic_ns();
    if due > now {
        std::thread::sleep(Duration::from_nanos(due - now));
    }
}

/// The value a client writes into the keys: its name and a number no other attempt uses.
pub fn key_value(name: &str, v: u32) -> String {
    format!("{name}:{v}")
}

/// Whose key a value is: the name before the colon.
pub fn owner_of(value: &str) -> &str {
    value.split(':').next().unwrap_or("")
}

/// A number from the seed (splitmix64): each attempt's value differs from every other's.
fn value_for(seed: u64, attempt: u32) -> u32 {
    let mut z = seed
        .wrapping_add(u64::from(attempt).wrapping_mul(0x9e37_79b9_7f4a_7c15))
        .wrapping_add(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    (z ^ (z >> 31)) as u32
}

/// A fenced row on PostgreSQL ([`FencedRow`](crate::live::pg::fenced::FencedRow)): with a
/// token it takes only a higher one, without (Redlock's case) it takes the write.
struct PgResource {
    at: (SocketAddr, String, String),
    row: Option<crate::live::pg::fenced::FencedRow>,
}

impl PgResource {
    fn row(&mut self) -> std::io::Result<&mut crate::live::pg::fenced::FencedRow> {
        if self.row.is_none() {
            let (addr, db, name) = &self.at;
            let mut r = crate::live::pg::fenced::FencedRow::open(*addr, db, name)
                .map_err(|e| std::io::Error::other(e.message))?;
            r.warm().map_err(|e| std::io::Error::other(e.message))?;
            self.row = Some(r);
        }
        self.row
            .as_mut()
            .ok_or_else(|| std::io::Error::other("no connection"))
    }
}

impl Resource for PgResource {
    fn connect(&mut self) -> std::io::Result<()> {
        self.row().map(|_| ())
    }

    fn write(&mut self, value: &str, token: Option<u64>) -> std::io::Result<bool> {
        let row = self.row()?;
        let written = match token {
            None => row.write_unfenced(value),
            Some(t) => row.write(value, t),
        };
        written.map_err(|e| {
            self.row = None;
            std::io::Error::other(e.message)
        })
    }
}

/// The resource a holder writes to: it accepts or refuses a write. Redlock gives no token, so
/// the Redis resource takes every write; a store that checks tokens implements this the same.
pub trait Resource {
    /// Writes `value` for `writer` with `token` if the lock gave one; whether it was accepted.
    fn write(&mut self, value: &str, token: Option<u64>) -> std::io::Result<bool>;
    /// Connects now, so that the write later costs one statement and not a connection's set-up
    /// (a new PostgreSQL backend takes tens of milliseconds).
    fn connect(&mut self) -> std::io::Result<()>;
}

/// A key on a Redis server of its own. With a token, a script keeps the largest token seen
/// and refuses a smaller one; without, a plain SET.
pub struct RedisResource {
    addr: SocketAddr,
    timeout: Duration,
    conn: Option<Conn>,
}

const FENCED_WRITE: &str = "local seen = tonumber(redis.call('hget', KEYS[1], 'token') or '-1')\nif tonumber(ARGV[2]) < seen then return 0 end\nredis.call('hset', KEYS[1], 'token', ARGV[2], 'value', ARGV[1])\nreturn 1";

impl Resource for RedisResource {
    fn connect(&mut self) -> std::io::Result<()> {
        if self.conn.is_none() {
            self.conn = Some(Conn::open(self.addr, self.timeout)?);
        }
        Ok(())
    }

    fn write(&mut self, value: &str, token: Option<u64>) -> std::io::Result<bool> {
        let conn = match &mut self.conn {
            Some(c) => c,
            None => self.conn.insert(Conn::open(self.addr, self.timeout)?),
        };
        let reply = match token {
            None => conn.call(
                &[b"SET", RESOURCE_KEY.as_bytes(), value.as_bytes()],
                self.timeout,
            ),
            Some(t) => conn.call(
                &[
                    b"EVAL",
                    FENCED_WRITE.as_bytes(),
                    b"1",
                    RESOURCE_KEY.as_bytes(),
                    value.as_bytes(),
                    t.to_string().as_bytes(),
                ],
                self.timeout,
            ),
        };
        match reply {
            Ok(Reply::Status(s)) => Ok(s == "OK"),
            Ok(Reply::Int(n)) => Ok(n == 1),
            Ok(other) => Err(std::io::Error::other(format!(
                "the resource answered {other:?}"
            ))),
            Err(e) => {
                self.conn = None;
                Err(e)
            }
        }
    }
}

struct Client {
    cfg: ClientConfig,
    conns: Vec<Option<Conn>>,
    out: std::io::Stdout,
}

impl Client {
    fn now(&self) -> Millis {
        monotonic_ns().saturating_sub(self.cfg.epoch_ns) / 1_000_000
    }

    fn report(&mut self, r: Report) {
        let mut line = serde_json::to_string(&r).unwrap_or_default();
        line.push('\n');
        let mut out = self.out.lock();
        // A parent that is gone reads nothing; the client dies with it anyway.
        let _ = out.write_all(line.as_bytes()).and_then(|()| out.flush());
    }

    fn sleep_until(&self, at: Millis) {
        sleep_until(self.cfg.epoch_ns, at);
    }

    /// One command to node `i`, within the request timeout; the connection is dropped on any
    /// failure, so a late reply never answers the next command.
    fn ask(&mut self, i: usize, args: &[&[u8]]) -> Option<Reply> {
        let t = Duration::from_millis(self.cfg.timeout_ms.max(1));
        let started = std::time::Instant::now();
        if self.conns[i].is_none() {
            self.conns[i] = Conn::open(self.cfg.nodes[i], t).ok();
        }
        let left = t.saturating_sub(started.elapsed());
        let reply = self.conns[i].as_mut()?.call(args, left).ok();
        if reply.is_none() {
            self.conns[i] = None;
        }
        reply
    }

    /// Asks every node in turn: the attempt's value, and whether the lock is held.
    fn attempt(&mut self, attempt: u32) -> (String, bool) {
        let v = value_for(self.cfg.seed, attempt);
        let value = key_value(&self.cfg.name, v);
        let started = self.now();
        self.report(Report::Started {
            at: started,
            attempt,
            value: v,
        });
        let ttl = self.cfg.ttl_ms.to_string();
        let mut ok = Vec::new();
        for i in 0..self.cfg.nodes.len() {
            let args: [&[u8]; 6] = [
                b"SET",
                KEY.as_bytes(),
                value.as_bytes(),
                b"NX",
                b"PX",
                ttl.as_bytes(),
            ];
            let reply = self.ask(i, &args);
            let at = self.now();
            match reply {
                Some(r) => {
                    let yes = r == Reply::Status("OK".into());
                    if yes {
                        ok.push(i);
                    }
                    self.report(Report::Answered {
                        at,
                        node: i,
                        ok: yes,
                    });
                }
                None => self.report(Report::TimedOut { at, node: i }),
            }
        }
        let at = self.now();
        let elapsed_ms = at - started;
        let validity_ms = self.cfg.ttl_ms as i64 - elapsed_ms as i64 - self.cfg.drift_ms as i64;
        let quorum = self.cfg.nodes.len() / 2 + 1;
        if ok.len() >= quorum && validity_ms > 0 {
            self.report(Report::Acquired {
                at,
                ok,
                elapsed_ms,
                validity_ms,
            });
            (value, true)
        } else {
            self.report(Report::Failed {
                at,
                ok,
                elapsed_ms,
                validity_ms,
            });
            (value, false)
        }
    }

    /// Work that advances only while the process runs: short steps, and a step that took far
    /// longer than asked (the process was stopped in it) counts for its own length only, as a
    /// stop-the-world pause adds nothing to the work done.
    fn work(&self) {
        let step = Duration::from_millis(5);
        let stopped = Duration::from_millis(50);
        let mut done = Duration::ZERO;
        let total = Duration::from_millis(self.cfg.work_ms);
        while done < total {
            let slice = step.min(total - done);
            let t = std::time::Instant::now();
            std::thread::sleep(slice);
            let took = t.elapsed();
            done += if took > slice + stopped { slice } else { took };
        }
    }

    fn release(&mut self, value: &str) {
        let at = self.now();
        self.report(Report::ReleaseSent { at });
        for i in 0..self.cfg.nodes.len() {
            let reply = if self.cfg.naive_del {
                self.ask(i, &[b"GETDEL", KEY.as_bytes()])
            } else {
                let script = COMPARE_AND_DELETE.as_bytes();
                self.ask(
                    i,
                    &[b"EVAL", script, b"1", KEY.as_bytes(), value.as_bytes()],
                )
            };
            let at = self.now();
            match reply {
                Some(Reply::Bulk(Some(v))) => self.report(Report::Deleted {
                    at,
                    node: i,
                    value: String::from_utf8_lossy(&v).into_owned(),
                }),
                Some(Reply::Int(1)) => self.report(Report::Deleted {
                    at,
                    node: i,
                    value: value.to_string(),
                }),
                Some(Reply::Int(0)) => self.report(Report::Kept { at, node: i }),
                _ => {}
            }
        }
    }
}

/// The client process's whole life: returns its exit status.
pub fn main(config: &str) -> i32 {
    let cfg: ClientConfig = match serde_json::from_str(config) {
        Ok(c) => c,
        Err(e) => {
            eprintln!("locklab redlock-client: a bad configuration: {e}");
            return 2;
        }
    };
    if let Err(e) = crate::live::children::die_with_parent(cfg.parent) {
        eprintln!("locklab redlock-client: {e}");
        return 1;
    }
    // The resource's connection is made beside the run, so that neither the first attempt nor
    // the write waits for it; one that fails now is tried again at the write.
    let at = cfg.resource.clone();
    let connecting = std::thread::spawn(move || {
        let mut r = at.open();
        let _ = r.connect();
        r
    });
    let mut resource = Some(connecting);
    let mut c = Client {
        conns: (0..cfg.nodes.len()).map(|_| None).collect(),
        cfg,
        out: std::io::stdout(),
    };
    c.sleep_until(c.cfg.start_ms);
    let mut attempt = 0;
    loop {
        attempt += 1;
        let (value, held) = c.attempt(attempt);
        if held {
            c.work();
            let mut r = match resource.take().map(|h| h.join()) {
                Some(Ok(r)) => r,
                _ => c.cfg.resource.open(),
            };
            let accepted = r.write(&value, None).unwrap_or(false);
            let at = c.now();
            c.report(Report::Wrote { at, accepted });
            c.release(&value);
            break;
        }
        c.release(&value);
        let at = c.now();
        c.sleep_until(at + c.cfg.retry_ms);
    }
    let at = c.now();
    c.report(Report::Done { at });
    0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn attempts_get_different_values() {
        let v: Vec<u32> = (1..=50).map(|a| value_for(1, a)).collect();
        let mut u = v.clone();
        u.sort();
        u.dedup();
        assert_eq!(u.len(), v.len());
    }

    #[test]
    fn a_value_names_its_owner() {
        assert_eq!(owner_of(&key_value("B", 77)), "B");
    }

    #[test]
    fn reports_round_trip_as_json_lines() {
        let r = Report::Acquired {
            at: 120,
            ok: vec![0, 1, 3],
            elapsed_ms: 120,
            validity_ms: 9_778,
        };
        let line = serde_json::to_string(&r).unwrap();
        assert!(!line.contains('\n'));
        assert_eq!(serde_json::from_str::<Report>(&line).unwrap(), r);
    }
}
