//! A schedule: the choices of one run, named by who and what rather than by position, so a
//! scenario file can carry them and a timed run can follow them step by step.
//!
//! In text a step reads `A -> service` (the oldest message from A to the service arrives),
//! `B release_due` (B's timer fires), `service expire A` (the service expires A's session) or
//! `freeze A` (a fault: `freeze`, `thaw`, `cut`, `restore`, `reset`, `crash`, `release_now`).

use super::{ActorId, Choice, FaultAction, World};
use crate::engine::msg::Timer;
use crate::engine::zk::tree::SessionId;

/// One named step of a schedule.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Scheduled {
    /// The oldest message on the channel from `from` to `to` arrives.
    Deliver {
        from: ActorId,
        to: ActorId,
    },
    /// `owner`'s armed `timer` fires.
    Fire {
        owner: ActorId,
        timer: Timer,
    },
    Fault(FaultAction),
}

const TIMERS: [(&str, Timer); 12] = [
    ("start", Timer::Start),
    ("write_due", Timer::WriteDue),
    ("release_due", Timer::ReleaseDue),
    ("ping", Timer::Ping),
    ("read_timeout", Timer::ReadTimeout),
    ("reconnect", Timer::Reconnect),
    ("lease_expiry", Timer::LeaseExpiry),
    ("work_done", Timer::WorkDone),
    ("keepalive_tick", Timer::KeepaliveTick),
    ("acquire_retry", Timer::AcquireRetry),
    ("acquire_timeout", Timer::AcquireTimeout),
    ("container_check", Timer::ContainerCheck),
];

/// A fault's verb and how to make it for an actor.
type FaultVerb = (&'static str, fn(ActorId) -> FaultAction);

const FAULTS: [FaultVerb; 7] = [
    ("freeze", FaultAction::Freeze),
    ("thaw", FaultAction::Thaw),
    ("cut", FaultAction::Cut),
    ("restore", FaultAction::Restore),
    ("reset", FaultAction::Reset),
    ("crash", FaultAction::Crash),
    ("release_now", FaultAction::ReleaseNow),
];

impl Scheduled {
    /// Names a choice enabled in `world`.
    pub fn of(world: &World, c: Choice) -> Scheduled {
        match c {
            Choice::Deliver(i) => Scheduled::Deliver {
                from: world.channels[i].from,
                to: world.channels[i].to,
            },
            Choice::Fire(i) => Scheduled::Fire {
                owner: world.timers[i].owner,
                timer: world.timers[i].timer,
            },
            Choice::Fault(f) => Scheduled::Fault(f),
        }
    }

    /// The choice this step stands for in `world`, if it is enabled there.
    pub fn choice(&self, world: &World, scratch: &mut Vec<Choice>) -> Option<Choice> {
        if let Scheduled::Fault(f) = *self {
            return Some(Choice::Fault(f));
        }
        world.choices(scratch);
        scratch
            .iter()
            .copied()
            .find(|c| Scheduled::of(world, *c) == *self)
    }

    /// The step in words, with actors named by `names` (indexed by actor id; a session is named
    /// after the actor with the same number, as in the A/B/C family).
    pub fn text(&self, names: &[&str]) -> String {
        let name = |a: ActorId| names.get(a.0 as usize).copied().unwrap_or("?");
        match *self {
            Scheduled::Deliver { from, to } => format!("{} -> {}", name(from), name(to)),
            Scheduled::Fire {
                owner,
                timer: Timer::SessionExpiry(s),
            } => format!("{} expire {}", name(owner), name(ActorId(s.0 as u8))),
            Scheduled::Fire { owner, timer } => {
                let t = TIMERS
                    .iter()
                    .find(|(_, t)| *t == timer)
                    .map_or("?", |(n, _)| n);
                format!("{} {t}", name(owner))
            }
            Scheduled::Fault(f) => {
                let verb = FAULTS
                    .iter()
                    .find(|(_, make)| make(f.actor()) == f)
                    .map_or("?", |(n, _)| n);
                format!("{verb} {}", name(f.actor()))
            }
        }
    }

    /// Reads a step written as [`Scheduled::text`] writes it.
    pub fn parse(s: &str, names: &[&str]) -> Result<Scheduled, String> {
        let actor = |n: &str| {
            names
                .iter()
                .position(|m| m.eq_ignore_ascii_case(n))
                .map(|i| ActorId(i as u8))
                .ok_or_else(|| format!("`{n}` is not one of: {}", names.join(", ")))
        };
        let words: Vec<&str> = s.split_whitespace().collect();
        let expected = "expected `X -> Y`, `X TIMER`, `service expire X` or `FAULT X`";
        match words.as_slice() {
            [from, "->", to] => Ok(Scheduled::Deliver {
                from: actor(from)?,
                to: actor(to)?,
            }),
            [owner, "expire", client] => Ok(Scheduled::Fire {
                owner: actor(owner)?,
                timer: Timer::SessionExpiry(SessionId(u32::from(actor(client)?.0))),
            }),
            [first, second] => {
                if let Some((_, make)) = FAULTS.iter().find(|(n, _)| n == first) {
                    return Ok(Scheduled::Fault(make(actor(second)?)));
                }
                let owner = actor(first)?;
                let timer = TIMERS
                    .iter()
                    .find(|(n, _)| n == second)
                    .map(|(_, t)| *t)
                    .ok_or_else(|| {
                        let known: Vec<&str> = TIMERS.iter().map(|(n, _)| *n).collect();
                        format!("`{second}` is not a timer; timers: {}", known.join(", "))
                    })?;
                Ok(Scheduled::Fire { owner, timer })
            }
            _ => Err(format!("`{s}`: {expected}")),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const NAMES: [&str; 5] = ["A", "B", "C", "service", "resource"];

    #[test]
    fn steps_read_back_as_they_are_written() {
        let steps = [
            Scheduled::Deliver {
                from: ActorId(1),
                to: ActorId(3),
            },
            Scheduled::Fire {
                owner: ActorId(0),
                timer: Timer::ReleaseDue,
            },
            Scheduled::Fire {
                owner: ActorId(3),
                timer: Timer::SessionExpiry(SessionId(2)),
            },
            Scheduled::Fault(FaultAction::ReleaseNow(ActorId(0))),
            Scheduled::Fault(FaultAction::Thaw(ActorId(2))),
        ];
        for s in steps {
            let text = s.text(&NAMES);
            assert_eq!(Scheduled::parse(&text, &NAMES), Ok(s), "{text}");
        }
        assert_eq!(steps[0].text(&NAMES), "B -> service");
        assert_eq!(steps[2].text(&NAMES), "service expire C");
    }

    #[test]
    fn a_bad_step_says_what_is_wrong() {
        let e = Scheduled::parse("D -> service", &NAMES).unwrap_err();
        assert!(e.contains("`D` is not one of: A, B"), "{e}");
        let e = Scheduled::parse("A nap", &NAMES).unwrap_err();
        assert!(e.contains("not a timer"), "{e}");
        let e = Scheduled::parse("A", &NAMES).unwrap_err();
        assert!(e.contains("expected"), "{e}");
    }
}
