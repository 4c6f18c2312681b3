//! Each knob family's correct or broken variant, for `c`: the same run with the one setting the
//! family's story turns on flipped (the read rule, the conditional update, the completion
//! statement, the release, the Snowflake defences). The semaphore has no such pair.

use crate::engine::Params;
use crate::engine::actors::worker::CompleteRule;
use crate::engine::params::{Guard, OnExhaustion, OnRollback, ReadRule, ReleaseHow};

/// `params` with the family's switch flipped, and whether the flipped run is the correct one.
pub fn flipped(params: &Params) -> Option<(Params, bool)> {
    Some(match params {
        Params::Rwlock(p) => {
            let mut q = p.clone();
            q.read_rule = match p.read_rule {
                ReadRule::Fair => ReadRule::SkipWaitingWriters,
                ReadRule::SkipWaitingWriters => ReadRule::Fair,
            };
            let correct = q.read_rule == ReadRule::Fair;
            (Params::Rwlock(q), correct)
        }
        Params::Election(p) => {
            let mut q = p.clone();
            q.conditional = !p.conditional;
            let correct = q.conditional;
            (Params::Election(q), correct)
        }
        Params::Tasks(p) => {
            let mut q = p.clone();
            q.complete = match p.complete {
                CompleteRule::Unconditional => CompleteRule::Version,
                CompleteRule::Version | CompleteRule::VersionAndLease => {
                    CompleteRule::Unconditional
                }
            };
            let correct = q.complete != CompleteRule::Unconditional;
            (Params::Tasks(q), correct)
        }
        Params::Redlock(p) => {
            let mut q = p.clone();
            q.release = match p.release {
                ReleaseHow::CompareAndDelete => ReleaseHow::NaiveDel,
                ReleaseHow::NaiveDel => ReleaseHow::CompareAndDelete,
            };
            let correct = q.release == ReleaseHow::CompareAndDelete;
            (Params::Redlock(q), correct)
        }
        Params::Snowflake(p) => {
            let all_on = p.wait_on_start
                && p.on_rollback != OnRollback::Ignore
                && p.on_exhaustion == OnExhaustion::Wait
                && p.worker_leases;
            let mut q = p.clone();
            let on = !all_on;
            q.wait_on_start = on;
            q.worker_leases = on;
            q.on_rollback = if on {
                OnRollback::Refuse
            } else {
                OnRollback::Ignore
            };
            q.on_exhaustion = if on {
                OnExhaustion::Wait
            } else {
                OnExhaustion::Wrap
            };
            (Params::Snowflake(q), on)
        }
        // etcd: a guard on the write (the revision token, or the Txn) against none.
        Params::Etcd(p) => {
            let mut q = p.clone();
            q.guard = match p.guard {
                Guard::None => Guard::Token,
                Guard::Token | Guard::Txn => Guard::None,
            };
            let correct = q.guard != Guard::None;
            (Params::Etcd(q), correct)
        }
        Params::Semaphore(_) | Params::Frozen(_) | Params::Abc(_) | Params::Herd(_) => {
            return None;
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::params::{ElectionParams, RedlockParams};

    #[test]
    fn flipping_twice_is_the_run_itself() {
        for p in [
            Params::Election(ElectionParams::default()),
            Params::Redlock(RedlockParams::default()),
        ] {
            let (once, correct) = flipped(&p).expect("a variant");
            let (twice, back) = flipped(&once).expect("a variant");
            assert_eq!(twice, p);
            assert_ne!(correct, back);
        }
    }

    #[test]
    fn the_unconditional_election_lets_the_old_leader_overwrite() {
        let p = Params::Election(ElectionParams::default());
        let (broken, correct) = flipped(&p).expect("a variant");
        assert!(!correct);
        let (a, b) = (crate::engine::run(&p), crate::engine::run(&broken));
        let (
            crate::engine::trace::Metrics::Election(ma),
            crate::engine::trace::Metrics::Election(mb),
        ) = (&a.metrics, &b.metrics)
        else {
            panic!("election metrics");
        };
        assert_eq!(ma.stale_submits_accepted, 0);
        assert!(mb.stale_submits_accepted > 0, "{mb:?}");
        assert!(crate::tui::compare::first_difference(&a, &b).is_some());
    }
}
