//! The protected resource: the only place that can refuse a stale holder's write.

use super::time::Millis;
use super::trace::{EventKind, InvariantReport, LaneRecorder, State};

/// One write attempt as the resource saw it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WriteAttempt {
    pub at_ms: Millis,
    pub writer: String,
    pub value: String,
    pub token: u64,
    pub accepted: bool,
    /// The largest token the resource had accepted before this attempt.
    pub last_seen_before: u64,
}

/// A value guarded by an optional fencing check.
///
/// With fencing on, a write is accepted if and only if its token is at least the largest token
/// accepted so far, and the check and the store happen in one step. With fencing off every write
/// is accepted. Either way the resource remembers the largest token it has accepted.
#[derive(Debug, Clone, Default)]
pub struct Resource {
    pub fencing: bool,
    pub value: Option<String>,
    pub last_seen_token: u64,
    pub log: Vec<WriteAttempt>,
}

impl Resource {
    pub fn new(fencing: bool) -> Self {
        Self {
            fencing,
            ..Self::default()
        }
    }

    /// Applies one write and returns whether it was accepted.
    pub fn write(&mut self, at_ms: Millis, writer: &str, value: &str, token: u64) -> bool {
        let last_seen_before = self.last_seen_token;
        let accepted = !self.fencing || token >= last_seen_before;
        if accepted {
            self.value = Some(value.to_string());
            self.last_seen_token = self.last_seen_token.max(token);
        }
        self.log.push(WriteAttempt {
            at_ms,
            writer: writer.to_string(),
            value: value.to_string(),
            token,
            accepted,
            last_seen_before,
        });
        accepted
    }

    /// Applies a write as a scenario sees it: checks that accepted tokens never go down
    /// (recording the first failure in `tokens`), moves the resource's lane to the new value, and
    /// returns whether it was accepted with the event to put in the trace.
    pub fn apply(
        &mut self,
        at_ms: Millis,
        writer: &str,
        value: &str,
        token: u64,
        tokens: &mut InvariantReport,
        (lanes, lane): (&mut LaneRecorder, usize),
    ) -> (bool, EventKind) {
        let last_seen_before = self.last_seen_token;
        let last_accepted = self.accepted_tokens().last();
        let accepted = self.write(at_ms, writer, value, token);
        if accepted {
            if let Some(prev) = last_accepted.filter(|prev| token < *prev) {
                tokens.fail(
                    at_ms,
                    format!("{writer}'s token {token} was accepted after token {prev}"),
                );
            }
            lanes.set(lane, at_ms, State::Value, Some(format!("{value}/{token}")));
        }
        let event = EventKind::WriteArrived {
            value: value.into(),
            token,
            accepted,
            last_seen_before,
            fencing: self.fencing,
        };
        (accepted, event)
    }

    /// The tokens of accepted writes, in the order they were applied.
    pub fn accepted_tokens(&self) -> impl Iterator<Item = u64> + '_ {
        self.log.iter().filter(|w| w.accepted).map(|w| w.token)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fencing_accepts_equal_or_larger_tokens_only() {
        let mut r = Resource::new(true);
        assert!(r.write(1, "B", "B", 2));
        assert!(
            r.write(2, "B", "B2", 2),
            "the same holder may write again with its token"
        );
        assert!(!r.write(3, "A", "A", 1), "an older token is refused");
        assert_eq!(r.value.as_deref(), Some("B2"));
        assert_eq!(r.last_seen_token, 2);
        assert!(r.write(4, "C", "C", 3));
        assert_eq!(r.accepted_tokens().collect::<Vec<_>>(), [2, 2, 3]);
        assert_eq!(r.log[2].last_seen_before, 2);
    }

    #[test]
    fn without_fencing_every_write_lands() {
        let mut r = Resource::new(false);
        assert!(r.write(1, "B", "B", 2));
        assert!(r.write(2, "A", "A", 1));
        assert_eq!(r.value.as_deref(), Some("A"));
        assert_eq!(r.last_seen_token, 2);
    }
}
