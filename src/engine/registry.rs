//! One entry per family: what scenario files, the command line and model questions ask of a
//! family before they run it. A new family is one impl block here, beside its engine.

use super::params::knobs::{Knob, Knobs};
use super::params::{
    AbcParams, ElectionParams, EtcdParams, FrozenParams, HerdParams, Params, RedlockParams,
    RwLockParams, SemaphoreParams, SnowflakeParams, TasksParams,
};
use super::trace::Family;
use super::trace::metric_table::{self as metrics, MetricSpec};

/// A family as the rest of locklab looks it up.
pub trait FamilyEntry: Sync {
    fn family(&self) -> Family;

    /// Its knobs, with their ranges, units and options: the one table the command line's
    /// flags and scenario files read.
    fn knobs(&self) -> &'static [Knob];

    /// Whether it has a screen and model questions of its own (frozen, A/B/C, herd) rather
    /// than the family lab's, which reads any knob table.
    fn own_lab(&self) -> bool {
        false
    }

    /// Whether a scenario file may give it a list of faults.
    fn takes_faults(&self) -> bool {
        false
    }

    /// Every key a scenario file's parameters may name, `faults` included where it takes them.
    fn keys(&self) -> Vec<&'static str> {
        let mut keys: Vec<&'static str> = self.knobs().iter().map(Knob::key).collect();
        if self.takes_faults() {
            keys.push("faults");
        }
        keys
    }

    /// Its parameters when nothing is set.
    fn defaults(&self) -> Params;

    /// Whether the family's writes carry a token the resource can check. Redlock's have none:
    /// that is its well-known gap.
    fn tokens(&self) -> bool {
        true
    }

    /// The metrics its runs report, each with its unit, as questions and reports ask for them.
    fn metrics(&self) -> &'static [MetricSpec];
}

struct Frozen;
impl FamilyEntry for Frozen {
    fn family(&self) -> Family {
        Family::Frozen
    }
    fn metrics(&self) -> &'static [MetricSpec] {
        &metrics::FROZEN
    }
    fn knobs(&self) -> &'static [Knob] {
        FrozenParams::knobs()
    }
    fn own_lab(&self) -> bool {
        true
    }
    fn defaults(&self) -> Params {
        Params::Frozen(FrozenParams::default())
    }
}

struct Abc;
impl FamilyEntry for Abc {
    fn family(&self) -> Family {
        Family::Abc
    }
    fn metrics(&self) -> &'static [MetricSpec] {
        &metrics::ABC
    }
    fn takes_faults(&self) -> bool {
        true
    }
    fn knobs(&self) -> &'static [Knob] {
        AbcParams::knobs()
    }
    fn own_lab(&self) -> bool {
        true
    }
    fn defaults(&self) -> Params {
        Params::Abc(AbcParams::default())
    }
}

struct Herd;
impl FamilyEntry for Herd {
    fn family(&self) -> Family {
        Family::Herd
    }
    fn metrics(&self) -> &'static [MetricSpec] {
        &metrics::HERD
    }
    fn knobs(&self) -> &'static [Knob] {
        HerdParams::knobs()
    }
    fn own_lab(&self) -> bool {
        true
    }
    fn defaults(&self) -> Params {
        Params::Herd(HerdParams::default())
    }
}

struct Rwlock;
impl FamilyEntry for Rwlock {
    fn family(&self) -> Family {
        Family::Rwlock
    }
    fn metrics(&self) -> &'static [MetricSpec] {
        &metrics::RWLOCK
    }
    fn knobs(&self) -> &'static [Knob] {
        RwLockParams::knobs()
    }
    fn takes_faults(&self) -> bool {
        true
    }
    fn defaults(&self) -> Params {
        Params::Rwlock(RwLockParams::default())
    }
}

struct Semaphore;
impl FamilyEntry for Semaphore {
    fn family(&self) -> Family {
        Family::Semaphore
    }
    fn metrics(&self) -> &'static [MetricSpec] {
        &metrics::SEMAPHORE
    }
    fn knobs(&self) -> &'static [Knob] {
        SemaphoreParams::knobs()
    }
    fn takes_faults(&self) -> bool {
        true
    }
    fn defaults(&self) -> Params {
        Params::Semaphore(SemaphoreParams::default())
    }
}

struct Election;
impl FamilyEntry for Election {
    fn family(&self) -> Family {
        Family::Election
    }
    fn metrics(&self) -> &'static [MetricSpec] {
        &metrics::ELECTION
    }
    fn knobs(&self) -> &'static [Knob] {
        ElectionParams::knobs()
    }
    fn defaults(&self) -> Params {
        Params::Election(ElectionParams::default())
    }
}

struct Tasks;
impl FamilyEntry for Tasks {
    fn family(&self) -> Family {
        Family::Tasks
    }
    fn metrics(&self) -> &'static [MetricSpec] {
        &metrics::TASKS
    }
    fn knobs(&self) -> &'static [Knob] {
        TasksParams::knobs()
    }
    fn defaults(&self) -> Params {
        Params::Tasks(TasksParams::default())
    }
}

struct Redlock;
impl FamilyEntry for Redlock {
    fn family(&self) -> Family {
        Family::Redlock
    }
    fn metrics(&self) -> &'static [MetricSpec] {
        &metrics::REDLOCK
    }
    fn tokens(&self) -> bool {
        false
    }
    fn knobs(&self) -> &'static [Knob] {
        RedlockParams::knobs()
    }
    fn defaults(&self) -> Params {
        Params::Redlock(RedlockParams::default())
    }
}

struct Snowflake;
impl FamilyEntry for Snowflake {
    fn family(&self) -> Family {
        Family::Snowflake
    }
    fn metrics(&self) -> &'static [MetricSpec] {
        &metrics::SNOWFLAKE
    }
    fn knobs(&self) -> &'static [Knob] {
        SnowflakeParams::knobs()
    }
    fn defaults(&self) -> Params {
        Params::Snowflake(SnowflakeParams::default())
    }
}

struct Etcd;
impl FamilyEntry for Etcd {
    fn family(&self) -> Family {
        Family::Etcd
    }
    fn metrics(&self) -> &'static [MetricSpec] {
        &metrics::ETCD
    }
    fn knobs(&self) -> &'static [Knob] {
        EtcdParams::knobs()
    }
    fn defaults(&self) -> Params {
        Params::Etcd(EtcdParams::default())
    }
}

/// Every family's entry, in [`Family::ALL`]'s order.
pub const ALL: [&dyn FamilyEntry; 10] = [
    &Frozen, &Abc, &Herd, &Rwlock, &Semaphore, &Election, &Tasks, &Redlock, &Snowflake, &Etcd,
];

/// The entry of `family`.
pub fn entry(family: Family) -> &'static dyn FamilyEntry {
    let i = Family::ALL
        .iter()
        .position(|f| *f == family)
        .expect("every family is in Family::ALL");
    ALL[i]
}

/// The entry of the family called `name` (`rwlock`), if there is one.
pub fn named(name: &str) -> Option<&'static dyn FamilyEntry> {
    Family::parse(name).map(entry)
}

/// The families the family lab opens, with their knobs: each one's model-question settings
/// are read from its table too.
pub fn knob_families() -> impl Iterator<Item = (Family, &'static [Knob])> {
    ALL.into_iter()
        .filter(|e| !e.own_lab())
        .map(|e| (e.family(), e.knobs()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_family_has_one_entry_in_order() {
        assert_eq!(ALL.len(), Family::ALL.len());
        for (e, f) in ALL.iter().zip(Family::ALL) {
            assert_eq!(e.family(), f);
            assert_eq!(entry(f).family(), f);
            assert_eq!(named(f.name()).map(|e| e.family()), Some(f));
        }
        assert!(named("nosuch").is_none());
    }

    #[test]
    fn an_entry_s_defaults_run_as_its_own_family() {
        for e in ALL {
            let t = crate::engine::run(&e.defaults());
            assert_eq!(t.family, e.family(), "{}", e.family().name());
        }
    }

    #[test]
    fn only_redlock_writes_carry_no_token() {
        // Redlock's resource gets a bare value: the algorithm hands out no fencing token.
        let without: Vec<&str> = ALL
            .iter()
            .filter(|e| !e.tokens())
            .map(|e| e.family().name())
            .collect();
        assert_eq!(without, ["redlock"]);
    }

    #[test]
    fn faults_are_a_key_exactly_where_a_family_takes_them() {
        // The families whose stories a scenario file can break with faults: the ZooKeeper
        // recipes (A/B/C, and the read-write lock and semaphore built on the same queue).
        let with: Vec<&str> = ALL
            .iter()
            .filter(|e| e.takes_faults())
            .map(|e| e.family().name())
            .collect();
        assert_eq!(with, ["abc", "rwlock", "semaphore"]);
        for e in ALL {
            assert_eq!(
                e.keys().contains(&"faults"),
                e.takes_faults(),
                "{}",
                e.family().name()
            );
        }
        let knobbed: Vec<&str> = knob_families().map(|(f, _)| f.name()).collect();
        assert_eq!(
            knobbed,
            [
                "rwlock",
                "semaphore",
                "election",
                "tasks",
                "redlock",
                "snowflake",
                "etcd"
            ]
        );
    }
}
