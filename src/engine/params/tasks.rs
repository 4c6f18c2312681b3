//! Durable task claims: their parameters.

use serde::Serialize;

use super::knobs::{Knob, Knobs, Value, choice, flag, num, num_knob, unknown_knob};
use super::{ParamError, Unit};
use crate::engine::actors::worker::{ClaimRule, CompleteRule, CompletionClock};
use crate::engine::time::{Millis, from_secs};

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct TasksParams {
    pub workers: u8,
    /// Tasks in the table, due `task_every` apart from 0 s.
    pub tasks: u8,
    pub task_every_ms: Millis,
    /// The store's clock when the run starts; tasks fall due from then on, `task_every` apart.
    pub store_clock_ms: Millis,
    pub scan_start_ms: Millis,
    pub scan_every_ms: Millis,
    pub lease_ms: Millis,
    pub renew_every_ms: Millis,
    pub work_ms: Millis,
    /// Whether a worker calls an outside system (a payment provider) for each task.
    pub effect: bool,
    pub effect_after_ms: Millis,
    pub idempotency_key: bool,
    pub check_cancel: bool,
    pub stop_on_loss: bool,
    pub complete: CompleteRule,
    /// How a scan claims: a conditional UPDATE by id, or one `FOR UPDATE SKIP LOCKED` statement.
    pub claim: ClaimRule,
    /// Which clock the completion's lease check reads: the statement's, or `now()` inside
    /// the work's transaction, which is that transaction's start.
    pub completion_clock: CompletionClock,
    /// The task (1-based) whose processing throws; 0 for none.
    pub poison_task: u8,
    pub catch_in_body: bool,
    /// An operator cancels task 1 at `cancel_at`.
    pub cancel: bool,
    pub cancel_at_ms: Millis,
    /// Worker A pauses (a GC pause, a stopped VM).
    pub pause_at_ms: Millis,
    pub pause_len_ms: Millis,
    pub delay_ms: Millis,
    pub duration_ms: Millis,
}

impl Default for TasksParams {
    fn default() -> Self {
        Self {
            workers: 2,
            tasks: 1,
            task_every_ms: 8_000,
            store_clock_ms: 0,
            scan_start_ms: 0,
            scan_every_ms: 3_000,
            lease_ms: 30_000,
            renew_every_ms: 10_000,
            work_ms: 13_000,
            effect: true,
            effect_after_ms: 11_000,
            idempotency_key: false,
            check_cancel: false,
            stop_on_loss: true,
            complete: CompleteRule::Version,
            claim: ClaimRule::Conditional,
            completion_clock: CompletionClock::Statement,
            poison_task: 0,
            catch_in_body: true,
            cancel: false,
            cancel_at_ms: 500,
            pause_at_ms: 12_000,
            pause_len_ms: 45_000,
            // A database round trip is negligible beside leases of seconds.
            delay_ms: 0,
            duration_ms: 70_000,
        }
    }
}

const fn secs(key: &'static str, min: f64, max: f64) -> Knob {
    num_knob(key, min, max, Unit::Seconds, 0.5, 5.0)
}

const fn count(key: &'static str, min: f64, max: f64) -> Knob {
    num_knob(key, min, max, Unit::Count, 1.0, 2.0)
}

static TASKS_KNOBS: [Knob; 25] = [
    count("workers", 1.0, 4.0),
    count("tasks", 1.0, 8.0),
    secs("task_every", 0.0, 600.0),
    secs("store_clock", 0.0, 86_400.0),
    secs("scan_start", 0.0, 600.0),
    secs("scan_every", 0.1, 600.0),
    secs("lease", 0.1, 600.0),
    secs("renew_every", 0.1, 600.0),
    secs("work", 0.0, 600.0),
    Knob::Flag { key: "effect" },
    secs("effect_after", 0.0, 600.0),
    Knob::Flag {
        key: "idempotency_key",
    },
    Knob::Flag {
        key: "check_cancel",
    },
    Knob::Flag {
        key: "stop_on_loss",
    },
    Knob::Choice {
        key: "complete",
        options: &CompleteRule::NAMES,
    },
    Knob::Choice {
        key: "claim",
        options: &ClaimRule::NAMES,
    },
    Knob::Choice {
        key: "completion_clock",
        options: &CompletionClock::NAMES,
    },
    count("poison_task", 0.0, 8.0),
    Knob::Flag {
        key: "catch_in_body",
    },
    Knob::Flag { key: "cancel" },
    secs("cancel_at", 0.0, 600.0),
    secs("pause_at", 0.0, 600.0),
    secs("pause_len", 0.0, 600.0),
    secs("delay", 0.0, 5.0),
    secs("duration", 1.0, 900.0),
];

impl Knobs for TasksParams {
    fn knobs() -> &'static [Knob] {
        &TASKS_KNOBS
    }

    fn set_knob(&mut self, key: &str, v: &Value) -> Result<(), ParamError> {
        let toggle = match key {
            "effect" => Some(&mut self.effect),
            "idempotency_key" => Some(&mut self.idempotency_key),
            "check_cancel" => Some(&mut self.check_cancel),
            "stop_on_loss" => Some(&mut self.stop_on_loss),
            "catch_in_body" => Some(&mut self.catch_in_body),
            "cancel" => Some(&mut self.cancel),
            _ => None,
        };
        if let Some(field) = toggle {
            *field = flag(key, v)?;
            return Ok(());
        }
        if key == "complete" {
            let name = choice(key, v, &CompleteRule::NAMES)?;
            self.complete = CompleteRule::parse(name).unwrap_or(CompleteRule::Version);
            return Ok(());
        }
        if key == "claim" {
            let name = choice(key, v, &ClaimRule::NAMES)?;
            self.claim = ClaimRule::parse(name).unwrap_or(ClaimRule::Conditional);
            return Ok(());
        }
        if key == "completion_clock" {
            let name = choice(key, v, &CompletionClock::NAMES)?;
            self.completion_clock =
                CompletionClock::parse(name).unwrap_or(CompletionClock::Statement);
            return Ok(());
        }
        let Some(Knob::Num(spec)) = Self::knob(key) else {
            return Err(unknown_knob::<Self>(key));
        };
        let n = spec.check(num(key, v)?)?;
        let ms = from_secs(n);
        match key {
            "workers" => self.workers = n as u8,
            "tasks" => self.tasks = n as u8,
            "poison_task" => self.poison_task = n as u8,
            "task_every" => self.task_every_ms = ms,
            "store_clock" => self.store_clock_ms = ms,
            "scan_start" => self.scan_start_ms = ms,
            "scan_every" => self.scan_every_ms = ms,
            "lease" => self.lease_ms = ms,
            "renew_every" => self.renew_every_ms = ms,
            "work" => self.work_ms = ms,
            "effect_after" => self.effect_after_ms = ms,
            "cancel_at" => self.cancel_at_ms = ms,
            "pause_at" => self.pause_at_ms = ms,
            "pause_len" => self.pause_len_ms = ms,
            "delay" => self.delay_ms = ms,
            _ => self.duration_ms = ms,
        }
        Ok(())
    }
}
