//! What every process a live run starts has in common, so that none outlives locklab: a mark
//! in its environment naming the locklab that started it (a check, or a person with `ps e`, can
//! find what a run left behind), and, for the processes locklab starts directly, death with
//! locklab through the kernel's parent-death signal, which fires even when locklab is killed
//! with SIGKILL and no code of its own runs. Servers run under the shell guard instead
//! ([`super::guard::Guarded`]), which removes their directories as well.

use std::process::Command;

/// The variable every process of a live run carries; its value is locklab's process id.
pub const MARK: &str = "LOCKLAB_LIVE_OF";

/// Marks `cmd` as started by this locklab.
pub fn mark(cmd: &mut Command) {
    cmd.env(MARK, std::process::id().to_string());
}

/// Called first in a process locklab started directly: asks the kernel for SIGKILL when the
/// thread that started it ends (start it from a thread that lives as long as the process
/// should), and, since locklab may have died before the request, checks it is still there.
pub fn die_with_parent(parent: u32) -> std::io::Result<()> {
    use rustix::process::{Signal, getppid, set_parent_process_death_signal};
    set_parent_process_death_signal(Some(Signal::KILL))?;
    if getppid().map(|p| p.as_raw_nonzero().get() as u32) != Some(parent) {
        return Err(std::io::Error::other(
            "locklab ended before the client started",
        ));
    }
    Ok(())
}

/// Sends `sig` to process `pid`, or to its whole group when `group` (best effort: it may be
/// gone already).
pub fn signal(pid: u32, sig: rustix::process::Signal, group: bool) {
    let Some(pid) = rustix::process::Pid::from_raw(pid as i32) else {
        return;
    };
    let _ = if group {
        rustix::process::kill_process_group(pid, sig)
    } else {
        rustix::process::kill_process(pid, sig)
    };
}

/// Whether process `pid` carries the mark of locklab `of` (read from /proc; false when it is
/// gone or not readable).
pub fn marked(pid: u32, of: u32) -> bool {
    let Ok(env) = std::fs::read(format!("/proc/{pid}/environ")) else {
        return false;
    };
    let want = format!("{MARK}={of}");
    env.split(|b| *b == 0).any(|v| v == want.as_bytes())
}

/// Every process on the machine that carries the mark of locklab `of`.
pub fn left_by(of: u32) -> Vec<u32> {
    let Ok(dir) = std::fs::read_dir("/proc") else {
        return Vec::new();
    };
    dir.filter_map(|e| e.ok()?.file_name().to_str()?.parse::<u32>().ok())
        .filter(|&pid| marked(pid, of))
        .collect()
}
