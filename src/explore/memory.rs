//! How much memory a search may use, and how much the process uses now.
//!
//! The binary's allocator reports every allocation here ([`allocated`], [`freed`]), so a
//! search can read the bytes in use at any moment and stop cleanly before its limit
//! ([`heap_bytes`]). The limit a search keeps is the one asked for, lowered to half of any
//! address-space or data limit the process runs under (`ulimit -v`, `ulimit -d`): the other
//! half is room for the allocator's own overhead, the threads' stacks and the program itself,
//! so growing to the limit never makes an allocation fail.

use std::sync::OnceLock;
use std::sync::atomic::{AtomicUsize, Ordering};

use rustix::process::{Resource, getrlimit};

/// The default `--max-memory`: 1 GiB.
pub const DEFAULT_MAX_MEMORY: u64 = 1 << 30;
/// The smallest and largest `--max-memory` accepted.
pub const MIN_MAX_MEMORY: u64 = 16 << 20;
pub const MAX_MAX_MEMORY: u64 = 1 << 40;

static IN_USE: AtomicUsize = AtomicUsize::new(0);
static GIVE_BACK: OnceLock<fn()> = OnceLock::new();

/// An allocator's report: `bytes` were handed out.
#[inline]
pub fn allocated(bytes: usize) {
    IN_USE.fetch_add(bytes, Ordering::Relaxed);
}

/// An allocator's report: `bytes` were returned.
#[inline]
pub fn freed(bytes: usize) {
    IN_USE.fetch_sub(bytes, Ordering::Relaxed);
}

/// The heap bytes in use, when an allocator reports here (`None` otherwise: nothing was ever
/// counted).
pub fn heap_bytes() -> Option<u64> {
    match IN_USE.load(Ordering::Relaxed) {
        0 => None,
        n => Some(n as u64),
    }
}

/// The limit a search keeps for a requested one: at most half of the process's address-space
/// and data limits.
pub fn ceiling(requested: u64) -> u64 {
    [Resource::As, Resource::Data]
        .into_iter()
        .filter_map(|r| getrlimit(r).current)
        .map(|l| l / 2)
        .fold(requested, u64::min)
}

/// Sets how freed memory is handed back to the system (the binary knows its allocator).
pub fn on_give_back(f: fn()) {
    let _ = GIVE_BACK.set(f);
}

/// Hands memory freed by a finished or cancelled search back to the system (an allocator
/// otherwise keeps it for the process to reuse).
pub fn give_back() {
    if let Some(f) = GIVE_BACK.get() {
        f();
    }
}

/// Reads a size such as `1GiB`, `512MiB`, `2G`, `300M` or a number of bytes.
pub fn parse_size(s: &str) -> Result<u64, String> {
    let t = s.trim();
    let digits = t.find(|c: char| !c.is_ascii_digit()).unwrap_or(t.len());
    let (number, unit) = t.split_at(digits);
    let bad =
        || format!("must be a size such as 1GiB, 512MiB or 300M, from 16MiB to 1TiB (got `{s}`)");
    let n: u64 = number.parse().map_err(|_| bad())?;
    let scale: u64 = match unit.trim().to_ascii_lowercase().as_str() {
        "" | "b" => 1,
        "k" | "kb" | "kib" => 1 << 10,
        "m" | "mb" | "mib" => 1 << 20,
        "g" | "gb" | "gib" => 1 << 30,
        "t" | "tb" | "tib" => 1 << 40,
        _ => return Err(bad()),
    };
    n.checked_mul(scale)
        .filter(|b| (MIN_MAX_MEMORY..=MAX_MAX_MEMORY).contains(b))
        .ok_or_else(bad)
}

/// A size for a person: `1 GiB`, `512 MiB`.
pub fn fmt_size(bytes: u64) -> String {
    if bytes >= 1 << 30 && bytes.is_multiple_of(1 << 30) {
        format!("{} GiB", bytes >> 30)
    } else if bytes >= 1 << 30 {
        format!("{:.1} GiB", bytes as f64 / f64::from(1u32 << 30))
    } else {
        format!("{} MiB", bytes >> 20)
    }
}
