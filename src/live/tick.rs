//! Where a real server's tick grid falls in a run's time.
//!
//! ZooKeeper's session tracker puts every deadline in a bucket of tickTime on the server's own
//! elapsed clock (`ExpiryQueue.roundToNextInterval`: `(t / tick + 1) * tick` on
//! `System.nanoTime() / 10^6`), so a session expires on a multiple of tickTime of that clock.
//! On Linux the JVM's `nanoTime` is the kernel's monotonic clock, the one this process reads
//! too: a server on this machine has its boundaries where that clock reads a multiple of
//! tickTime, and the run's phase is read off the clock, with no probe and no wait.

use std::time::Instant;

use crate::engine::time::Millis;

/// The monotonic clock's reading at `at`, in nanoseconds.
fn monotonic_ns(at: Instant) -> u128 {
    let now = Instant::now();
    let ts = rustix::time::clock_gettime(rustix::time::ClockId::Monotonic);
    let now_ns = ts.tv_sec as u128 * 1_000_000_000 + ts.tv_nsec as u128;
    now_ns.saturating_sub(now.saturating_duration_since(at).as_nanos())
}

/// The first tick boundary at or after the run's start, in milliseconds after it, for a
/// server on this machine with this tick: the model's `tick_phase`.
pub fn phase_ms(start: Instant, tick_ms: Millis) -> Millis {
    phase_of(monotonic_ns(start), tick_ms)
}

/// The phase for a start at `start_ns` on the server's clock: how long until it next reads a
/// multiple of the tick (rounded to the millisecond).
pub fn phase_of(start_ns: u128, tick_ms: Millis) -> Millis {
    let tick_ns = u128::from(tick_ms.max(1)) * 1_000_000;
    let until = (tick_ns - start_ns % tick_ns) % tick_ns;
    ((until + 500_000) / 1_000_000) as Millis % tick_ms.max(1)
}

/// Whether a server at `addr` shares this machine's monotonic clock: it listens on loopback.
pub fn same_clock(addr: std::net::SocketAddr) -> bool {
    addr.ip().is_loopback()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_phase_is_the_wait_until_the_clock_next_reads_a_multiple_of_the_tick() {
        // Started at 10.3 s on the server's clock with a 2 s tick: the next boundary is 12 s,
        // 1.7 s into the run.
        assert_eq!(phase_of(10_300_000_000, 2_000), 1_700);
        // Started on a boundary: that boundary is the phase, 0.
        assert_eq!(phase_of(12_000_000_000, 2_000), 0);
        // Within half a millisecond of a boundary rounds to it.
        assert_eq!(phase_of(11_999_600_000, 2_000), 0);
        assert_eq!(phase_of(7_250_000_000, 1_000), 750);
    }

    #[test]
    fn the_phase_read_now_is_less_than_a_tick() {
        for tick in [1, 50, 1_000, 2_000] {
            assert!(phase_ms(Instant::now(), tick) < tick);
        }
    }
}
