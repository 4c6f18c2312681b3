//! The task table on PostgreSQL and the lesson's statements, as they run.
//!
//! Times in the table are milliseconds on the store's clock ([`clock`](crate::live::pg::clock)):
//! `store_now()` is PostgreSQL's `statement_timestamp()` since the run began, on the story's
//! scale, in whole seconds from the preset's starting reading, and `store_txn_now()` the same
//! clock read through `now()`, the transaction's start. The table decides every comparison
//! itself.

use crate::engine::actors::worker::CompleteRule;
use crate::engine::msg::RowState;

pub const SCHEMA: &str = "
CREATE TABLE tasks (
    id int PRIMARY KEY,
    state text NOT NULL DEFAULT 'READY',
    owner text,
    lease_until bigint,
    version bigint NOT NULL DEFAULT 0,
    attempt int NOT NULL DEFAULT 0,
    due bigint NOT NULL,
    result text,
    cancel_requested boolean NOT NULL DEFAULT false
);
CREATE TABLE payments (
    n serial PRIMARY KEY,
    task int NOT NULL,
    attempt int NOT NULL,
    worker text NOT NULL,
    idempotency_key text UNIQUE
);
";

pub const ADD_TASK: &str = "INSERT INTO tasks (id, due) VALUES ($1, $2)";

/// What a worker's scan sees: the claimable tasks, in order.
pub const SCAN: &str = "SELECT id FROM tasks \
     WHERE (state = 'READY' AND due <= store_now()) \
        OR (state = 'RUNNING' AND lease_until < store_now()) ORDER BY id";

/// The claim: `$1` worker, `$2` lease (ms), `$3` task.
pub const CLAIM: &str = "UPDATE tasks SET state = 'RUNNING', owner = $1, \
     lease_until = store_now() + $2, version = version + 1, attempt = attempt + 1 \
     WHERE id = $3 AND ((state = 'READY' AND due <= store_now()) \
        OR (state = 'RUNNING' AND lease_until < store_now()))";

/// The queue's claim in one statement: the first claimable task in order that no other
/// transaction holds locked, `$1` worker, `$2` lease (ms). Returns the task it took, if any.
pub const CLAIM_NEXT: &str = "UPDATE tasks SET state = 'RUNNING', owner = $1, \
     lease_until = store_now() + $2, version = version + 1, attempt = attempt + 1 \
     WHERE id = (SELECT id FROM tasks \
        WHERE (state = 'READY' AND due <= store_now()) \
           OR (state = 'RUNNING' AND lease_until < store_now()) \
        ORDER BY id LIMIT 1 FOR UPDATE SKIP LOCKED) \
     RETURNING id";

/// The renewal by claim version: `$1` lease (ms), `$2` task, `$3` version.
pub const RENEW: &str = "UPDATE tasks SET lease_until = store_now() + $1 \
     WHERE id = $2 AND version = $3 AND state = 'RUNNING' AND lease_until >= store_now()";

/// The completion: `$1` worker, `$2` task, and `$3` the claim version where the rule has one.
pub fn complete(rule: CompleteRule) -> &'static str {
    match rule {
        CompleteRule::Version => {
            "UPDATE tasks SET state = 'DONE', owner = $1, result = $1 \
             WHERE id = $2 AND version = $3 AND state = 'RUNNING'"
        }
        CompleteRule::VersionAndLease => {
            "UPDATE tasks SET state = 'DONE', owner = $1, result = $1 \
             WHERE id = $2 AND version = $3 AND state = 'RUNNING' \
               AND lease_until >= store_now()"
        }
        CompleteRule::Unconditional => {
            "UPDATE tasks SET state = 'DONE', owner = $1, result = $1 WHERE id = $2"
        }
    }
}

/// The completion by version and lease inside the work's transaction, its lease check read
/// through `now()`: the transaction's start. `$1` worker, `$2` task, `$3` version.
pub const COMPLETE_IN_WORK_TXN: &str = "UPDATE tasks SET state = 'DONE', owner = $1, result = $1 \
     WHERE id = $2 AND version = $3 AND state = 'RUNNING' \
       AND lease_until >= store_txn_now()";

/// The worker backs out of a task whose cancellation was requested: `$1` task, `$2` version.
pub const BACK_OUT: &str = "UPDATE tasks SET state = 'CANCELLED', owner = NULL, lease_until = NULL \
     WHERE id = $1 AND version = $2 AND state = 'RUNNING'";

/// A task whose processing threw, marked failed: `$1` task, `$2` version.
pub const FAIL: &str = "UPDATE tasks SET state = 'FAILED', owner = NULL, lease_until = NULL \
     WHERE id = $1 AND version = $2 AND state = 'RUNNING'";

/// The operator's cancel, while the task has not started: `$1` task.
pub const CANCEL: &str = "UPDATE tasks SET state = 'CANCELLED' WHERE id = $1 AND state = 'READY'";

/// Too late for that: ask the running worker to back out. `$1` task.
pub const REQUEST_CANCEL: &str =
    "UPDATE tasks SET cancel_requested = true WHERE id = $1 AND state = 'RUNNING'";

/// The row after a statement, with the store's clock: `$1` task.
pub const READ: &str = "SELECT state, owner, version, attempt, lease_until, result, \
     cancel_requested, store_now() FROM tasks WHERE id = $1";

/// The outside call: a payment, with the task's stable key or none (`NULL` never collides).
/// `$1` task, `$2` attempt, `$3` worker, `$4` key.
pub const PAY: &str = "INSERT INTO payments (task, attempt, worker, idempotency_key) \
     VALUES ($1, $2, $3, $4) ON CONFLICT (idempotency_key) DO NOTHING";

/// The row's state as the table spells it.
pub fn state(s: &str) -> RowState {
    match s {
        "RUNNING" => RowState::Running,
        "DONE" => RowState::Done,
        "CANCELLED" => RowState::Cancelled,
        "FAILED" => RowState::Failed,
        _ => RowState::Ready,
    }
}
