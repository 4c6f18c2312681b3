//! Signals while the screens are up: which end the process, which stop and continue it, and how
//! the event loop hears about them at once.
//!
//! A thread waits for the signals and queues them. Waiting for input, the loop sits inside
//! crossterm's poll, which retries when a signal interrupts it; so the thread also raises
//! SIGWINCH, which crossterm turns into a resize event, and the loop wakes and reads the queue.
//! The terminal is restored before the process ends or stops, and taken over again (raw mode,
//! alternate screen, mouse reporting, a full redraw) when it continues.
//!
//! SIGPIPE is left as Rust sets it up, ignored: a write to a closed pipe fails with an error
//! instead, so it can neither end the process nor leave the terminal behind.

use std::collections::VecDeque;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};

use signal_hook::consts::{
    SIGALRM, SIGCONT, SIGHUP, SIGINT, SIGQUIT, SIGTERM, SIGTSTP, SIGUSR1, SIGUSR2, SIGWINCH,
};
use signal_hook::iterator::{Handle, Signals};

/// Signals whose default action ends the process: locklab restores the terminal, saves what
/// it must and then ends the way the signal would have.
pub const ENDING: [i32; 7] = [SIGINT, SIGQUIT, SIGTERM, SIGHUP, SIGUSR1, SIGUSR2, SIGALRM];

/// What a queued signal asks of the loop.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Action {
    /// Restore the terminal and end with this signal.
    End(i32),
    /// Restore the terminal and stop (SIGTSTP, or Ctrl-Z in raw mode).
    Suspend,
    /// The process was continued: take the terminal over again and redraw.
    Resume,
}

/// Listens for the signals for as long as it lives.
pub struct Watcher {
    queue: Arc<Mutex<VecDeque<i32>>>,
    /// Set on SIGHUP, for the watchdog that ends a process whose terminal is gone.
    pub hangup: Arc<AtomicBool>,
    handle: Handle,
}

impl Watcher {
    pub fn start() -> std::io::Result<Self> {
        let mut wanted = ENDING.to_vec();
        wanted.extend([SIGTSTP, SIGCONT]);
        let mut signals = Signals::new(wanted)?;
        let handle = signals.handle();
        let queue = Arc::new(Mutex::new(VecDeque::new()));
        let hangup = Arc::new(AtomicBool::new(false));
        let (q, h) = (Arc::clone(&queue), Arc::clone(&hangup));
        std::thread::spawn(move || {
            for sig in signals.forever() {
                if sig == SIGHUP {
                    h.store(true, Ordering::Relaxed);
                }
                if let Ok(mut q) = q.lock() {
                    q.push_back(sig);
                }
                // Wakes crossterm's poll with a resize event; nothing else listens for it.
                let _ = signal_hook::low_level::raise(SIGWINCH);
            }
        });
        Ok(Self {
            queue,
            hangup,
            handle,
        })
    }

    /// What arrived since the last call, in order.
    pub fn take(&self) -> Vec<Action> {
        let Ok(mut q) = self.queue.lock() else {
            return Vec::new();
        };
        q.drain(..)
            .map(|sig| match sig {
                SIGTSTP => Action::Suspend,
                SIGCONT => Action::Resume,
                s => Action::End(s),
            })
            .collect()
    }
}

impl Drop for Watcher {
    fn drop(&mut self) {
        self.handle.close();
    }
}

/// Stops the process as SIGTSTP would have; returns once it is continued.
pub fn stop() {
    let _ = signal_hook::low_level::emulate_default_handler(SIGTSTP);
}

/// Ends the process the way `sig` would have, once everything is cleaned up, so the parent
/// sees the signal; if that fails, exits with the status a shell gives for it.
pub fn end_with(sig: i32) -> ! {
    let _ = signal_hook::low_level::emulate_default_handler(sig);
    std::process::exit(128 + sig)
}
