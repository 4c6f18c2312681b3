//! The read-write lock's and the semaphore's checks, one rule for every run that tells them:
//! the model's observer and the live queue trace both feed grants, wake-ups and who holds at an
//! instant here, and read the grant order, the most holders and the writer's wait back.

use crate::engine::actors::queue_client::Role;
use crate::engine::params::QUEUE_NAMES;
use crate::engine::time::Millis;
use crate::engine::trace::{Family, Invariant, InvariantReport, invariant};

#[derive(Debug, Clone)]
pub struct QueueChecks {
    pub family: Family,
    pub checks: Vec<InvariantReport>,
    pub grant_order: Vec<String>,
    pub grants_before_writer: Option<u32>,
    pub granted_at: Vec<Option<Millis>>,
    pub max_readers: u32,
    pub max_holders: u32,
}

impl QueueChecks {
    /// The checks for `n` clients of `family`. `whole` is a run that sees every client's state
    /// (the model): it also checks that nobody is stuck.
    pub fn new(family: Family, n: usize, whole: bool) -> Self {
        let mut checks = vec![InvariantReport::always(invariant::NO_ORPHAN_NODE)];
        if whole {
            checks.push(InvariantReport::always(invariant::NOBODY_STUCK));
        }
        if family == Family::Rwlock {
            checks.insert(0, InvariantReport::always(invariant::WRITER_ALONE));
            checks.insert(
                1,
                InvariantReport::always(invariant::NO_READER_PASSES_WRITER),
            );
            checks.push(InvariantReport::sometimes(invariant::READERS_SHARED));
            checks.push(InvariantReport::sometimes(invariant::WRITER_HELD));
        } else {
            checks.insert(0, InvariantReport::always(invariant::WITHIN_PERMITS));
            checks.push(InvariantReport::sometimes(invariant::WAITER_WOKEN));
        }
        checks.push(InvariantReport::sometimes(invariant::EVERYONE_HELD));
        Self {
            family,
            checks,
            grant_order: Vec::new(),
            grants_before_writer: None,
            granted_at: vec![None; n],
            max_readers: 0,
            max_holders: 0,
        }
    }

    pub fn check(&mut self, name: Invariant, at: Millis, detail: impl FnOnce() -> String) {
        InvariantReport::record_named(&mut self.checks, name, at, detail);
    }

    /// Client `who` was granted the lock or a permit at `at`.
    pub fn granted(&mut self, at: Millis, who: usize, role: Role) {
        let writer = role == Role::Writer;
        if writer && self.grants_before_writer.is_none() {
            self.grants_before_writer = Some(self.grant_order.len() as u32);
        }
        self.grant_order.push(QUEUE_NAMES[who].to_string());
        self.granted_at[who].get_or_insert(at);
        if writer {
            let name = QUEUE_NAMES[who];
            self.check(invariant::WRITER_HELD, at, || format!("writer {name} held"));
        }
        if self.granted_at.iter().all(Option::is_some) {
            self.check(invariant::EVERYONE_HELD, at, || "every client held".into());
        }
    }

    /// Client `who` was woken by a watch at `at`.
    pub fn woken(&mut self, at: Millis, who: usize) {
        let name = QUEUE_NAMES[who];
        self.check(invariant::WAITER_WOKEN, at, || format!("{name} was woken"));
    }

    /// Who holds at `at` in the service's view (each client and its role), and the permit
    /// count configured then, for a semaphore.
    pub fn holding(&mut self, at: Millis, holders: &[(usize, Role)], permits: Option<u32>) {
        let readers = holders
            .iter()
            .filter(|(_, r)| matches!(r, Role::Reader(_)))
            .count();
        self.max_holders = self.max_holders.max(holders.len() as u32);
        self.max_readers = self.max_readers.max(readers as u32);
        if self.family == Family::Rwlock {
            if readers < holders.len() && holders.len() > 1 {
                let names: Vec<&str> = holders.iter().map(|(h, _)| QUEUE_NAMES[*h]).collect();
                self.check(invariant::WRITER_ALONE, at, || {
                    format!("a writer holds together with others: {}", names.join(", "))
                });
            }
            if readers > 1 {
                self.check(invariant::READERS_SHARED, at, || {
                    format!("{readers} readers hold at once")
                });
            }
        } else if let Some(p) = permits
            && holders.len() as u32 > p
        {
            let count = holders.len();
            self.check(invariant::WITHIN_PERMITS, at, || {
                format!("{count} hold with {p} permits")
            });
        }
    }

    /// A reader that holds at `at` while a writer whose node comes before its own is still
    /// queued: the reader went past a writer that asked first (the fair lock never lets it).
    /// `holders` and `queued` are (client, role, its node's sequence number) in the service's
    /// view.
    pub fn passing(
        &mut self,
        at: Millis,
        holders: &[(usize, Role, i32)],
        queued: &[(usize, Role, i32)],
    ) {
        let found = holders
            .iter()
            .filter(|(_, role, _)| matches!(role, Role::Reader(_)))
            .find_map(|&(r, _, mine)| {
                queued
                    .iter()
                    .find(|&&(_, role, seq)| role == Role::Writer && seq < mine)
                    .map(|&(w, _, _)| (r, w))
            });
        if let Some((r, w)) = found {
            let (r, w) = (QUEUE_NAMES[r], QUEUE_NAMES[w]);
            self.check(invariant::NO_READER_PASSES_WRITER, at, || {
                format!("reader {r} holds while writer {w}, who asked first, waits")
            });
        }
    }

    /// The longest a writer waited, and the writers never granted: a writer waits from its
    /// request (`asked`) to its grant, or to its crash or the run's end if it never got one. A
    /// writer that never asked has not waited at all.
    pub fn writer_wait(
        &self,
        roles: &[Role],
        asked: impl Fn(usize) -> Option<Millis>,
        crashed: impl Fn(usize) -> Option<Millis>,
        end: Millis,
    ) -> (Option<Millis>, Vec<String>) {
        let (mut longest, mut starved) = (None, Vec::new());
        for (i, role) in roles.iter().enumerate() {
            if *role != Role::Writer {
                continue;
            }
            let Some(asked) = asked(i) else {
                continue;
            };
            let waited = match self.granted_at[i] {
                Some(at) => at.saturating_sub(asked),
                None => {
                    starved.push(QUEUE_NAMES[i].to_string());
                    crashed(i).map_or(end, |c| c.min(end)).saturating_sub(asked)
                }
            };
            longest = Some(longest.map_or(waited, |w: Millis| w.max(waited)));
        }
        (longest, starved)
    }

    /// The checks that failed.
    pub fn violations(&self) -> Vec<Invariant> {
        self.checks
            .iter()
            .filter(|c| c.first_violation_ms().is_some())
            .map(|c| c.name)
            .collect()
    }
}
