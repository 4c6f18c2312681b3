//! The lease service (etcd-like or Redis-like): leases with a TTL, renewed by keepalives.
//!
//! Each grant carries a fencing token from a counter that only grows.

use super::time::Millis;

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct LeaseId(pub usize);

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Lease {
    pub holder: String,
    pub token: u64,
    pub ttl_ms: Millis,
    pub deadline_ms: Millis,
    pub live: bool,
    /// Bumped on every renewal, so an expiry timer set for an older deadline is recognised.
    pub generation: u64,
}

/// Why a keepalive was refused.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Refusal {
    /// The lease had already expired or been released.
    NotLive,
    /// The keepalive arrived at or after the deadline.
    TooLate,
}

/// A single-lock lease service: at most one live lease at a time.
#[derive(Debug, Clone)]
pub struct LeaseService {
    leases: Vec<Lease>,
    /// The token the next grant receives.
    next_token: u64,
}

impl LeaseService {
    /// A service whose first grant carries `first_token`.
    pub fn new(first_token: u64) -> Self {
        Self {
            leases: Vec::new(),
            next_token: first_token,
        }
    }

    pub fn lease(&self, id: LeaseId) -> &Lease {
        &self.leases[id.0]
    }

    /// The live lease, if the lock is taken.
    pub fn holder(&self) -> Option<LeaseId> {
        self.leases.iter().position(|l| l.live).map(LeaseId)
    }

    pub fn live_count(&self) -> usize {
        self.leases.iter().filter(|l| l.live).count()
    }

    /// Grants a lease to `holder` if the lock is free.
    pub fn try_grant(&mut self, holder: &str, now: Millis, ttl_ms: Millis) -> Option<LeaseId> {
        if self.holder().is_some() {
            return None;
        }
        let token = self.next_token;
        self.next_token += 1;
        self.leases.push(Lease {
            holder: holder.to_string(),
            token,
            ttl_ms,
            deadline_ms: now.saturating_add(ttl_ms),
            live: true,
            generation: 0,
        });
        Some(LeaseId(self.leases.len() - 1))
    }

    /// A keepalive arriving at `now`: renews a live lease strictly before its deadline.
    pub fn keepalive(&mut self, id: LeaseId, now: Millis) -> Result<Millis, Refusal> {
        let lease = &mut self.leases[id.0];
        if !lease.live {
            return Err(Refusal::NotLive);
        }
        if now >= lease.deadline_ms {
            return Err(Refusal::TooLate);
        }
        lease.deadline_ms = now + lease.ttl_ms;
        lease.generation += 1;
        Ok(lease.deadline_ms)
    }

    /// An expiry timer set for `generation` fires at `now`; returns true if the lease expired.
    pub fn expire(&mut self, id: LeaseId, generation: u64, now: Millis) -> bool {
        let lease = &mut self.leases[id.0];
        if lease.live && lease.generation == generation && now >= lease.deadline_ms {
            lease.live = false;
            true
        } else {
            false
        }
    }

    /// The holder gives the lease back; returns false if it was no longer live.
    pub fn release(&mut self, id: LeaseId) -> bool {
        let lease = &mut self.leases[id.0];
        let was_live = lease.live;
        lease.live = false;
        lease.generation += 1;
        was_live
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keepalive_renews_only_strictly_before_the_deadline() {
        let mut s = LeaseService::new(1);
        let a = s.try_grant("A", 0, 10_000).unwrap();
        assert_eq!(s.keepalive(a, 3_000), Ok(13_000));
        assert!(
            !s.expire(a, 0, 10_000),
            "an expiry timer for an old deadline is stale"
        );
        assert_eq!(s.keepalive(a, 13_000), Err(Refusal::TooLate));
        assert!(s.expire(a, 1, 13_000));
        assert_eq!(s.keepalive(a, 13_500), Err(Refusal::NotLive));
    }

    #[test]
    fn tokens_only_grow_and_one_lease_at_a_time() {
        let mut s = LeaseService::new(1);
        let a = s.try_grant("A", 0, 10_000).unwrap();
        assert!(s.try_grant("B", 1_000, 10_000).is_none());
        assert!(s.release(a));
        let b = s.try_grant("B", 2_000, 10_000).unwrap();
        assert_eq!((s.lease(a).token, s.lease(b).token), (1, 2));
        assert_eq!(s.live_count(), 1);
    }
}
