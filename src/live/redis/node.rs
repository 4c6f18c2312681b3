//! A private Redis server for a live run: Debian's `redis-server` on a loopback port with no
//! persistence (`--save '' --appendonly no`), or, for a preset whose nodes sync each key to
//! disk, an append-only file synced before every reply (`--appendonly yes --appendfsync
//! always`), in a temporary directory of its own, under the same shell guard as the ZooKeeper
//! server ([`Guarded`]), so it stops and its directory goes when the run ends, however it ends. A node whose clock the run moves starts under
//! libfaketime, its offset read from a file on every clock call.

use std::ffi::OsStr;
use std::net::{SocketAddr, TcpListener};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use super::resp::{Conn, Reply};
use crate::live::UserError;
use crate::live::guard::{self, Guarded};
use crate::live::server::{find_on_path, free_port};

/// How long a server may take to answer PING after it was started.
const START_TIMEOUT: Duration = Duration::from_secs(10);
/// The prefix of every directory a Redis node of locklab's uses.
pub const DIR_PREFIX: &str = "locklab-redis-";

/// Debian's server binary, on the PATH.
pub fn installed() -> Result<PathBuf, UserError> {
    find_on_path("redis-server").ok_or_else(|| {
        UserError::usage(
            "no Redis server found (looked for redis-server on the PATH). Install Debian's \
             server with `sudo apt-get install -y redis-server`",
        )
    })
}

/// What a node under libfaketime needs: libfaketime itself, and glibc's malloc preloaded
/// before it (Debian's redis-server allocates with jemalloc, whose start-up asks the clock
/// before libfaketime is ready, and the two deadlock).
#[derive(Debug, Clone)]
pub struct FakeClock {
    faketime: PathBuf,
    malloc: PathBuf,
}

fn find_lib(rel: &str) -> Option<PathBuf> {
    let dirs = std::fs::read_dir("/usr/lib").ok()?;
    let mut candidates: Vec<PathBuf> = dirs
        .filter_map(|d| Some(d.ok()?.path().join(rel)))
        .collect();
    candidates.push(Path::new("/usr/lib").join(rel));
    candidates.into_iter().find(|p| p.is_file())
}

pub fn fake_clock() -> Result<FakeClock, UserError> {
    let faketime = find_lib("faketime/libfaketime.so.1").ok_or_else(|| {
        UserError::usage(
            "this preset moves one node's clock, which needs libfaketime (looked for \
             /usr/lib/*/faketime/libfaketime.so.1). Install it with `sudo apt-get install -y faketime`",
        )
    })?;
    let malloc = find_lib("libc_malloc_debug.so.0").ok_or_else(|| {
        UserError::usage(
            "this preset moves one node's clock, which needs glibc's libc_malloc_debug.so.0 \
             beside libfaketime (glibc 2.34 or later)",
        )
    })?;
    Ok(FakeClock { faketime, malloc })
}

/// Where a node keeps its keys.
#[derive(Debug, Clone, Copy)]
pub enum Disk<'a> {
    /// In memory only: a crash loses them all.
    Nothing,
    /// In an append-only file synced before each reply, in `data` (a crashed node's directory,
    /// so that its successor reads what it synced) or, if none, in the node's own directory.
    Synced { data: Option<&'a Path> },
}

/// A running node.
pub struct Node {
    pub addr: SocketAddr,
    /// The server's process id, which is also its process group's.
    pub pid: u32,
    /// The file libfaketime reads the offset from, for a node with a movable clock.
    clock: Option<PathBuf>,
    pub dir: PathBuf,
    /// Where its keys are written, with [`Disk::Synced`] (its `--dir`).
    pub data: PathBuf,
    _guard: Guarded,
}

impl Node {
    /// Starts a node on `port` (a free one if none), its clock movable if `clock` is given.
    pub fn start(port: Option<u16>, clock: Option<&FakeClock>) -> Result<Node, UserError> {
        Self::start_keeping(port, clock, Disk::Nothing)
    }

    /// Starts a node that keeps its keys as `disk` says.
    pub fn start_keeping(
        port: Option<u16>,
        clock: Option<&FakeClock>,
        disk: Disk<'_>,
    ) -> Result<Node, UserError> {
        let bin = installed()?;
        let tries = if port.is_some() { 1 } else { 3 };
        let mut last = String::new();
        for _ in 0..tries {
            let p = match port {
                Some(p) => p,
                None => free_port()?,
            };
            match start_on(&bin, p, clock, disk) {
                Ok(n) => return Ok(n),
                Err(Some(m)) => return Err(UserError::failed(m)),
                Err(None) => last = format!("port {p} was taken meanwhile"),
            }
        }
        Err(UserError::failed(format!(
            "the Redis server did not start: {last}"
        )))
    }

    /// Steps the node's clock to `offset_ms` ahead of the real one, while it runs.
    pub fn set_clock(&self, offset_ms: u64) -> std::io::Result<()> {
        let Some(f) = &self.clock else {
            return Err(std::io::Error::other("this node's clock is not movable"));
        };
        // Written whole, then renamed over: libfaketime never reads half a file.
        let tmp = f.with_extension("new");
        std::fs::write(&tmp, offset_text(offset_ms))?;
        std::fs::rename(&tmp, f)
    }

    /// Tells the server to stop, without waiting (dropping the node waits).
    pub fn stop_soon(&mut self) {
        self._guard.stop_soon();
    }

    /// Kills the server with SIGKILL, as a crash does: nothing it held in memory is kept. The
    /// guard then removes the directory.
    pub fn kill(self) {
        crate::live::children::signal(self.pid, rustix::process::Signal::KILL, true);
    }

    /// Kills the server with SIGKILL but keeps its directory until the node is dropped, as a
    /// crashed machine keeps its disk: what the server synced is there for the next one.
    pub fn crash_keeping_disk(&self) {
        crate::live::children::signal(self.pid, rustix::process::Signal::KILL, true);
    }
}

/// libfaketime's relative format: `+S` seconds, with a fraction.
fn offset_text(offset_ms: u64) -> String {
    format!("+{}.{:03}\n", offset_ms / 1000, offset_ms % 1000)
}

/// `Err(None)`: the port was taken; `Err(Some(why))`: another failure.
fn start_on(
    bin: &Path,
    port: u16,
    clock: Option<&FakeClock>,
    disk: Disk<'_>,
) -> Result<Node, Option<String>> {
    let dir = tempfile::Builder::new()
        .prefix(DIR_PREFIX)
        .tempdir()
        .map_err(|e| Some(format!("cannot make a directory for a Redis server: {e}")))?
        .keep();
    let port_s = port.to_string();
    let mut args: Vec<&OsStr> = Vec::new();
    let clock_file = dir.join("clock");
    let preload;
    let clock_env = format!("FAKETIME_TIMESTAMP_FILE={}", clock_file.display());
    if let Some(c) = clock {
        std::fs::write(&clock_file, offset_text(0))
            .map_err(|e| Some(format!("cannot write the node's clock file: {e}")))?;
        preload = format!("LD_PRELOAD={}:{}", c.malloc.display(), c.faketime.display());
        args.extend([
            OsStr::new(&preload),
            OsStr::new(&clock_env),
            OsStr::new("FAKETIME_NO_CACHE=1"),
            OsStr::new("FAKETIME_DONT_FAKE_MONOTONIC=1"),
        ]);
    }
    args.push(bin.as_os_str());
    args.extend(
        [
            "--port",
            &port_s,
            "--bind",
            "127.0.0.1",
            "--save",
            "",
            "--daemonize",
            "no",
        ]
        .map(OsStr::new),
    );
    let data = match disk {
        Disk::Nothing => {
            args.extend(["--appendonly", "no"].map(OsStr::new));
            dir.clone()
        }
        Disk::Synced { data } => {
            args.extend(["--appendonly", "yes", "--appendfsync", "always"].map(OsStr::new));
            data.map_or_else(|| dir.clone(), Path::to_path_buf)
        }
    };
    args.extend([OsStr::new("--dir"), data.as_os_str()]);
    // `env` runs the server with libfaketime's variables and leaves the guard's shell alone.
    let command: Vec<&OsStr> = std::iter::once(OsStr::new("env")).chain(args).collect();
    let guard = guard::spawn("locklab-redis", &dir, &command, None).map_err(|e| {
        let _ = std::fs::remove_dir_all(&dir);
        Some(format!("cannot start the Redis server: {e}"))
    })?;
    let addr = SocketAddr::from(([127, 0, 0, 1], port));
    let started = Instant::now();
    loop {
        if let Some(pid) = ready(addr) {
            return Ok(Node {
                addr,
                pid,
                clock: clock.map(|_| clock_file),
                dir,
                data,
                _guard: guard,
            });
        }
        let exited = dir.join("exited").exists();
        if exited || started.elapsed() > START_TIMEOUT {
            let log = std::fs::read_to_string(dir.join("server.log")).unwrap_or_default();
            drop(guard);
            if log.contains("Address already in use") {
                return Err(None);
            }
            let tail: Vec<&str> = log.lines().collect();
            let tail = tail[tail.len().saturating_sub(3)..].join("\n  ");
            return Err(Some(format!(
                "the Redis server on port {port} did not start ({}):\n  {tail}",
                if exited {
                    "it stopped as it started".to_string()
                } else {
                    format!("no answer within {} s", START_TIMEOUT.as_secs())
                }
            )));
        }
        std::thread::sleep(Duration::from_millis(10));
    }
}

/// The server's process id once it answers PING.
fn ready(addr: SocketAddr) -> Option<u32> {
    let t = Duration::from_millis(300);
    let mut c = Conn::open(addr, t).ok()?;
    if c.call(&[b"PING"], t).ok()? != Reply::Status("PONG".into()) {
        return None;
    }
    let info = c.call(&[b"INFO", b"server"], t).ok()?.text()?;
    info.lines()
        .find_map(|l| l.strip_prefix("process_id:"))
        .and_then(|p| p.trim().parse().ok())
}

/// A port that takes connections and never answers: a node that is down, so that every
/// request to it waits its full timeout, as one to a host that is down does. Dropping it frees
/// the port for the node's server.
pub fn black_hole() -> Result<TcpListener, UserError> {
    TcpListener::bind(("127.0.0.1", 0))
        .map_err(|e| UserError::failed(format!("no free port on 127.0.0.1: {e}")))
}

#[cfg(test)]
mod tests {
    use super::offset_text;

    #[test]
    fn offsets_are_written_as_libfaketime_reads_them() {
        assert_eq!(offset_text(0), "+0.000\n");
        assert_eq!(offset_text(10_000), "+10.000\n");
        assert_eq!(offset_text(2_500), "+2.500\n");
    }
}
