//! A server process that cannot outlive locklab: it runs under a small shell guard in a process
//! group of its own, so a Ctrl-C at the terminal reaches locklab alone. The guard holds the read
//! end of a pipe whose write end only locklab has: when locklab drops it, exits, is interrupted
//! or is killed, the guard reads end-of-file, stops the server and removes its directory. The
//! server runs in a session of its own, and the guard stops all of it, so a wrapper script that
//! does not `exec` leaves nothing behind. The ZooKeeper and PostgreSQL servers share it.

use std::ffi::OsStr;
use std::os::unix::process::CommandExt;
use std::path::Path;
use std::process::{Child, ChildStdin, Command, Stdio};
use std::time::{Duration, Instant};

/// The shell guard: starts the server in a process group of its own (`setsid`), waits for
/// locklab's pipe to close, then stops that whole group, waits until every process in it is
/// gone (a wrapper may have exited before its server; after 5 s the rest is killed, and
/// after 10 s, zombies no one reaps are left to the system) and removes the directory. `$1` is the
/// directory, the rest is the server's command. The server's output goes to `server.log` in
/// the directory, and `exited` appears there when the server has stopped.
const GUARD: &str = r#"dir=$1; shift
exec 3<&0 </dev/null
setsid "$@" >"$dir/server.log" 2>&1 &
child=$!
{ read -r _ <&3; kill -TERM -"$child" 2>/dev/null || kill -TERM "$child" 2>/dev/null; } &
reader=$!
exec 3<&-
wait "$child"
: >"$dir/exited"
wait "$reader"
n=0
while [ "$n" -lt 100 ] && kill -0 -"$child" 2>/dev/null; do
  n=$((n + 1))
  if [ "$n" -eq 50 ]; then kill -KILL -"$child" 2>/dev/null; fi
  sleep 0.1
done
rm -rf "$dir"
"#;

/// A guarded server; dropping it stops the server and removes its directory.
pub struct Guarded {
    guard: Child,
    /// Dropping this ends the server.
    pipe: Option<ChildStdin>,
}

/// Who the guard and its server run as, when not as locklab's own user.
#[derive(Debug, Clone, Copy)]
pub struct RunAs {
    pub uid: u32,
    pub gid: u32,
}

/// Starts `command` in `dir` under a guard named `name`.
pub fn spawn(
    name: &str,
    dir: &Path,
    command: &[&OsStr],
    run_as: Option<RunAs>,
) -> std::io::Result<Guarded> {
    let mut cmd = Command::new("sh");
    cmd.arg("-c")
        .arg(GUARD)
        .arg(name)
        .arg(dir)
        .args(command)
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .process_group(0);
    super::children::mark(&mut cmd);
    if let Some(u) = run_as {
        cmd.uid(u.uid).gid(u.gid);
    }
    let mut guard = cmd.spawn()?;
    let pipe = guard.stdin.take();
    Ok(Guarded { guard, pipe })
}

impl Guarded {
    /// Tells the guard to stop the server now, without waiting: dropping waits for it. Many
    /// servers stop at once when each is told before any is waited for.
    pub fn stop_soon(&mut self) {
        drop(self.pipe.take());
    }
}

impl Drop for Guarded {
    fn drop(&mut self) {
        drop(self.pipe.take());
        // The guard stops the server and removes the directory; wait so that a caller who
        // returns has nothing left behind.
        let until = Instant::now() + Duration::from_secs(15);
        while Instant::now() < until {
            match self.guard.try_wait() {
                Ok(Some(_)) | Err(_) => return,
                Ok(None) => std::thread::sleep(Duration::from_millis(20)),
            }
        }
        let _ = self.guard.kill();
        let _ = self.guard.wait();
    }
}

/// Why a guarded server did not become ready.
#[derive(Debug)]
pub enum NotReady {
    /// Its log says the port was taken between choosing it and binding it.
    PortTaken,
    /// It stopped as it started (`exited`), or did not answer in time; the log's last lines.
    Failed { exited: bool, tail: String },
}

/// Polls `probe` every `every` until it answers, the server in `dir` stops, or `timeout`
/// passes; on failure the guard is dropped (server stopped, directory removed) and the log's
/// last lines are kept, `port_taken` telling from the log whether the port was the cause.
pub fn await_ready<T>(
    guard: Guarded,
    dir: &Path,
    timeout: Duration,
    every: Duration,
    mut probe: impl FnMut() -> Option<T>,
    port_taken: impl Fn(&str) -> bool,
) -> Result<(T, Guarded), NotReady> {
    let started = Instant::now();
    loop {
        if let Some(v) = probe() {
            return Ok((v, guard));
        }
        let exited = dir.join("exited").exists();
        if exited || started.elapsed() > timeout {
            let log = std::fs::read_to_string(dir.join("server.log")).unwrap_or_default();
            drop(guard);
            if port_taken(&log) {
                return Err(NotReady::PortTaken);
            }
            let lines: Vec<&str> = log.lines().collect();
            let tail = lines[lines.len().saturating_sub(3)..].join("\n  ");
            return Err(NotReady::Failed { exited, tail });
        }
        std::thread::sleep(every);
    }
}
