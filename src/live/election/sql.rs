//! The rollup job's table on PostgreSQL and the lesson's statements for it, as they run.
//!
//! Times in the table are milliseconds on the store's clock, `store_now()`: PostgreSQL's
//! `statement_timestamp()` since the run began, on the story's scale. The table decides every
//! comparison itself, the lease's included.

pub const SCHEMA: &str = "
CREATE TABLE jobs (
    id text PRIMARY KEY,
    state text NOT NULL,
    owner text,
    epoch bigint NOT NULL,
    version bigint NOT NULL,
    lease_until bigint,
    result text
);
CREATE TABLE clock (t0 timestamptz NOT NULL, scale float8 NOT NULL);
CREATE FUNCTION store_now() RETURNS bigint LANGUAGE sql STABLE AS $$
    SELECT floor(extract(epoch FROM statement_timestamp() - t0) * 1000 / scale)::bigint FROM clock
$$;
";

/// The rollup job as the story starts: running, A's, at `$1` epoch and `$2` version, A's lease
/// until `$3`.
pub const ADD_JOB: &str = "INSERT INTO jobs (id, state, owner, epoch, version, lease_until) \
     VALUES ('rollup', 'RUNNING', 'A', $1, $2, $3)";

/// Starts the store's clock at `$2`, seconds since 1970 on this machine's clock (which the
/// database on the loopback shares), `$1` the scale.
pub const START_CLOCK: &str = "INSERT INTO clock (t0, scale) VALUES (to_timestamp($2), $1)";

/// The row and the store's clock.
pub const READ: &str = "SELECT state, owner, epoch, version, lease_until, result, store_now() FROM jobs WHERE id = 'rollup'";

/// What an update returns when it affected the row: the row just after it.
const AFTER: &str = " RETURNING state, owner, epoch, version, lease_until, result, store_now()";

/// The new leader takes the rollup job over: `$1` runner, `$2` its epoch, `$3` its lease (ms),
/// `$4` and `$5` the version and epoch it read. One statement: only a running job as it was
/// read, and only once the old leader's lease has run out.
pub const TAKE_OVER: &str = "UPDATE jobs SET owner = $1, epoch = $2, version = version + 1, \
     lease_until = store_now() + $3 \
     WHERE id = 'rollup' AND state = 'RUNNING' AND version = $4 AND epoch = $5 \
       AND lease_until < store_now()";

/// A leader commits its result with the version and epoch it holds the job at: `$1` runner,
/// `$2` epoch, `$3` version.
pub const SUBMIT: &str = "UPDATE jobs SET state = 'DONE', owner = $1, result = $1, epoch = $2, \
     version = version + 1 WHERE id = 'rollup' AND version = $3 AND epoch = $2";

/// The same commit with no condition: `$1` runner, `$2` epoch.
pub const SUBMIT_ANYWAY: &str = "UPDATE jobs SET state = 'DONE', owner = $1, result = $1, \
     epoch = $2, version = version + 1 WHERE id = 'rollup'";

pub fn take_over() -> String {
    format!("{TAKE_OVER}{AFTER}")
}

pub fn submit(conditional: bool) -> String {
    format!(
        "{}{AFTER}",
        if conditional { SUBMIT } else { SUBMIT_ANYWAY }
    )
}
