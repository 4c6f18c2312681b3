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
