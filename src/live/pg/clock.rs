//! The store's clock on PostgreSQL, for any live run whose rows keep time: the task claims, a
//! job row's lease. It is the database's own clock, read by the statement that decides, on the
//! story's scale and in whole seconds from the story's first reading, so that the lessons'
//! boundary instants (a lease valid through 130, taken over at 131) fall as they are told.
//!
//! `store_now()` reads `statement_timestamp()`, the instant the statement began;
//! `store_txn_now()` reads `now()`, which PostgreSQL fixes at the start of the transaction:
//! inside a longer transaction it is the moment that transaction began.

use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use postgres::GenericClient;

use crate::engine::time::Millis;

/// The clock's table and its two readings, in milliseconds of the story.
pub const SCHEMA: &str = "
CREATE TABLE clock (t0 timestamptz NOT NULL, scale float8 NOT NULL, start_ms bigint NOT NULL);
CREATE FUNCTION store_now() RETURNS bigint LANGUAGE sql STABLE AS $$
    SELECT start_ms + floor(extract(epoch FROM statement_timestamp() - t0) / scale)::bigint * 1000
    FROM clock
$$;
CREATE FUNCTION store_txn_now() RETURNS bigint LANGUAGE sql STABLE AS $$
    SELECT start_ms + floor(extract(epoch FROM now() - t0) / scale)::bigint * 1000
    FROM clock
$$;
";

/// Starts the clock at `$3`, seconds since 1970 on this machine's clock, which the database on
/// the loopback shares: `$1` the scale, `$2` its first reading (ms).
pub const START: &str = "INSERT INTO clock (t0, scale, start_ms) VALUES (to_timestamp($3), $1, $2)";

/// Makes the clock in the database `c` is connected to. Until [`start`], both readings are NULL.
pub fn install(c: &mut impl GenericClient) -> Result<(), postgres::Error> {
    c.batch_execute(SCHEMA)
}

/// Starts the clock `lead` from now, reading `start_ms` then and running at `scale` (wall time
/// per story time); returns the run's clock on this machine, which starts at the same moment,
/// so that a run's threads and the table count alike.
pub fn start(
    c: &mut impl GenericClient,
    scale: f64,
    start_ms: Millis,
    lead: Duration,
) -> Result<StoryClock, postgres::Error> {
    let (wall, mono) = (SystemTime::now(), Instant::now());
    let t0 = (wall + lead)
        .duration_since(UNIX_EPOCH)
        .map_or(0.0, |d| d.as_secs_f64());
    c.execute(START, &[&scale, &(start_ms as i64), &t0])?;
    Ok(StoryClock {
        start: mono + lead,
        scale,
    })
}

/// A run's time on this machine: the story's milliseconds since `start`, at `scale` of wall
/// time each.
#[derive(Debug, Clone, Copy)]
pub struct StoryClock {
    pub start: Instant,
    pub scale: f64,
}

impl StoryClock {
    /// When the story reaches `ms`.
    pub fn instant(&self, ms: Millis) -> Instant {
        self.start + Duration::from_secs_f64(ms as f64 / 1000.0 * self.scale)
    }

    /// The story's time now.
    pub fn now(&self) -> Millis {
        let since = Instant::now().saturating_duration_since(self.start);
        (since.as_secs_f64() * 1000.0 / self.scale).round() as Millis
    }

    pub fn sleep_until(&self, ms: Millis) {
        let until = self.instant(ms);
        std::thread::sleep(until.saturating_duration_since(Instant::now()));
    }

    /// Sleeps `ms` of the story.
    pub fn sleep(&self, ms: Millis) {
        std::thread::sleep(Duration::from_secs_f64(ms as f64 / 1000.0 * self.scale));
    }
}
