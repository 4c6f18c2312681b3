//! What a lane state and a marker mean to a learner, for every view alike: the terminal
//! screens, the SVG and the words of a legend all read these, and each view gives them its own
//! colours.

use crate::engine::trace::SpanState;
use crate::engine::trace::etcd::EtcdSpan;
use crate::engine::trace::redlock::RedlockSpan;
use crate::engine::trace::snowflake::IdSpan;

/// What a span means to a learner: the unit of the legend and of the colour scheme.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Class {
    /// Holds the lock (and believes it).
    Holding,
    /// Holds a read-write lock's read side, shared with other readers.
    Reading,
    /// Frozen in a pause while still believing it holds the lock: the dangerous one.
    FrozenHolding,
    /// Frozen, not holding.
    Frozen,
    /// Holds the lock but holds back its side effects (knows it is disconnected).
    Suspended,
    /// Waits for the lock: a watch, or asking again and again.
    Waiting,
    /// Talking to the service: creating, reading, checking, reconnecting.
    Busy,
    /// A create whose reply was lost.
    Unknown,
    /// Knows it lost the lock.
    Lost,
    /// Waits for something that can never happen.
    Stuck,
    Crashed,
    /// Done with the lock.
    Released,
    /// The service's view: someone holds the lock (a lease or the first child).
    ServiceHeld,
    /// The resource holds a value.
    Value,
    /// Gave up waiting and left its node in the queue, where it blocks whoever is behind it.
    Abandoned,
    /// Believes it holds after the time it computed for itself ran out (Redlock's validity).
    Overdue,
    /// Something that must happen once happened again: an ID issued twice, a charge made twice.
    Duplicate,
    /// A defence at work: requests turned down until it is safe again.
    Refusing,
    /// Nothing: idle, free, empty.
    Nothing,
}

impl Class {
    /// Every class a legend can show, in legend order.
    pub const ALL: [Class; 19] = [
        Class::Holding,
        Class::Reading,
        Class::FrozenHolding,
        Class::Frozen,
        Class::Suspended,
        Class::Waiting,
        Class::Busy,
        Class::Unknown,
        Class::Lost,
        Class::Stuck,
        Class::Crashed,
        Class::Released,
        Class::ServiceHeld,
        Class::Value,
        Class::Abandoned,
        Class::Overdue,
        Class::Duplicate,
        Class::Refusing,
        Class::Nothing,
    ];

    pub fn of(state: SpanState) -> Class {
        match state {
            SpanState::HoldingRead { .. } => Class::Reading,
            SpanState::Holding { .. } | SpanState::Leading { .. } | SpanState::Claimed { .. } => {
                Class::Holding
            }
            SpanState::Frozen {
                believes_holding: true,
            } => Class::FrozenHolding,
            SpanState::Frozen { .. } => Class::Frozen,
            SpanState::Suspended { .. } => Class::Suspended,
            SpanState::Waiting { .. } | SpanState::Retrying => Class::Waiting,
            SpanState::Backlog { waiting: 0, .. } => Class::Nothing,
            SpanState::Backlog { .. } => Class::Waiting,
            SpanState::Creating
            | SpanState::Reading
            | SpanState::Checking { .. }
            | SpanState::Reconnecting => Class::Busy,
            SpanState::OutcomeUnknown => Class::Unknown,
            SpanState::Lost => Class::Lost,
            SpanState::Stuck { .. } | SpanState::ScannerStopped => Class::Stuck,
            SpanState::Crashed => Class::Crashed,
            SpanState::Released | SpanState::GaveUp { left_node: false } => Class::Released,
            SpanState::GaveUp { left_node: true } => Class::Abandoned,
            SpanState::Queue { holders, .. } if !holders.is_empty() => Class::ServiceHeld,
            SpanState::Leased { .. } => Class::ServiceHeld,
            SpanState::Value { .. } | SpanState::Row { .. } | SpanState::Task { .. } => {
                Class::Value
            }
            SpanState::Effects { count: 0 } => Class::Nothing,
            SpanState::Effects { count: 1 } => Class::Value,
            SpanState::Effects { .. } => Class::Duplicate,
            SpanState::Redlock(s) => match s {
                RedlockSpan::Acquiring { .. } => Class::Busy,
                RedlockSpan::Holding { .. } => Class::Holding,
                RedlockSpan::Overdue => Class::Overdue,
                RedlockSpan::Backoff => Class::Waiting,
                RedlockSpan::Key { .. } => Class::ServiceHeld,
            },
            SpanState::Etcd(s) => match s {
                EtcdSpan::Opening => Class::Busy,
                EtcdSpan::Waiting { .. } => Class::Waiting,
                EtcdSpan::Unaware { .. } => Class::Overdue,
                EtcdSpan::Prefix {
                    holder: Some(_), ..
                } => Class::ServiceHeld,
                EtcdSpan::Prefix { .. } => Class::Nothing,
            },
            SpanState::Snowflake(s) => match s {
                IdSpan::Issued {
                    duplicate: true, ..
                } => Class::Duplicate,
                IdSpan::Issued { .. } => Class::Value,
                IdSpan::Waiting { .. } => Class::Waiting,
                IdSpan::Refusing { .. } => Class::Refusing,
            },
            SpanState::Queue { .. } | SpanState::Idle | SpanState::Free | SpanState::Empty => {
                Class::Nothing
            }
        }
    }

    /// The fill glyph of this class under `NO_COLOR` (and in the legend). No two classes share
    /// one, and none is a letter, so a lane never reads as a run of repeated letters.
    pub fn glyph(self) -> char {
        match self {
            Class::Holding => '█',
            Class::Reading => '▤',
            Class::FrozenHolding => '▓',
            Class::Frozen => '▒',
            Class::Suspended => '▞',
            Class::Waiting => '░',
            Class::Busy => '┄',
            Class::Unknown => '?',
            Class::Lost => '╳',
            Class::Stuck => '!',
            Class::Crashed => '▁',
            Class::Released => '·',
            Class::ServiceHeld => '▬',
            Class::Value => '≡',
            Class::Abandoned => '⌧',
            Class::Overdue => '▙',
            Class::Duplicate => '‼',
            Class::Refusing => '⊖',
            Class::Nothing => ' ',
        }
    }

    /// Whether this class's bars carry their glyph in colour too: it shares its colour with
    /// another class (the same danger), and a lane or the legend must still tell them apart.
    pub fn textured(self) -> bool {
        self == Class::Overdue
    }
}

/// A marker drawn on a lane: one glyph and one style per meaning, on every screen.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Mark {
    /// An accepted write from a writer that still held the lock.
    WriteOk,
    /// A write the resource refused.
    WriteRefused,
    /// An accepted stale write: the alarm.
    WriteStale,
    /// The lock granted.
    Grant,
    /// A watch fired / a waiter woken.
    Wake,
    /// A keepalive sent.
    Keepalive,
    /// The lease deadline in force at the cursor.
    Deadline,
    /// A session or lease expired.
    Expired,
    /// Where two compared runs part.
    Differs,
}

impl Mark {
    pub const ALL: [Mark; 9] = [
        Mark::WriteOk,
        Mark::WriteRefused,
        Mark::WriteStale,
        Mark::Grant,
        Mark::Wake,
        Mark::Keepalive,
        Mark::Deadline,
        Mark::Expired,
        Mark::Differs,
    ];

    pub fn glyph(self) -> char {
        match self {
            Mark::WriteOk => '✓',
            Mark::WriteRefused => '✗',
            Mark::WriteStale => '⚠',
            Mark::Grant => '◆',
            Mark::Wake => '↯',
            Mark::Keepalive => '♥',
            Mark::Deadline => '┆',
            Mark::Expired => '✕',
            Mark::Differs => '◇',
        }
    }
}
