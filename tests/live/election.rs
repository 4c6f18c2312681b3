//! Leader election on a real ZooKeeper with the rollup job's row on a real PostgreSQL: the lesson's
//! story of epochs 26 and 27, checked against the lesson (who leads with which epoch, which
//! statement affects how many rows, the row it leaves) and held beside the model.

use std::sync::OnceLock;

use libtest_mimic::{Completion, Failed, Trial};
use locklab::engine::msg::{RowOp, RowState};
use locklab::engine::params::{ElectionParams, Params};
use locklab::engine::trace::{EventKind, Metrics};
use locklab::live::election::{self, Statement};
use locklab::live::pg::{self, Database};

/// Story seconds in half a second each, the server's tick included: a run takes about 11 s.
const SCALE: f64 = 0.5;

fn db() -> &'static Database {
    static DB: OnceLock<Database> = OnceLock::new();
    DB.get_or_init(|| pg::start().expect("a private PostgreSQL starts"))
}

fn story(name: &str) -> election::Story {
    let p: ElectionParams = match &locklab::scenario::find(name)
        .expect("a shipped preset")
        .params
    {
        Params::Election(p) => p.clone(),
        other => panic!("{name} is not an election preset: {other:?}"),
    };
    let zk = super::server_for(election::tick_ms(&p, SCALE));
    election::story(&p, zk, db(), SCALE).expect("the live run completes")
}

/// (who, what, rows affected, the row's state, owner, epoch, version) of each statement.
type Seen<'a> = (&'a str, RowOp, u64, RowState, Option<&'a str>, u64, u64);

fn seen(s: &Statement) -> Seen<'_> {
    (
        s.by.as_str(),
        s.op,
        s.affected,
        s.row.state,
        s.row.owner.as_deref(),
        s.row.epoch,
        s.row.version,
    )
}

/// What both presets share, from the lesson: A leads with 26 and B is elected with 27 once
/// the server has expired A; B's takeover affects 0 rows while A's lease (to 10 s on the
/// table's clock) runs and 1 row after it, leaving RUNNING / B / 27 / version 4; B submits
/// with version 4 and epoch 27: DONE / B / 27 / version 5. Then A wakes at 21 s.
fn the_election_and_the_takeover(story: &election::Story) -> Vec<Seen<'_>> {
    let run = &story.live;
    let Metrics::Election(m) = &run.trace.metrics else {
        panic!("an election trace")
    };
    assert_eq!(m.leaders, ["A@26", "B@27"], "leaders and their epochs");
    assert_eq!(m.max_leaders, 1, "never two leaders in the service's view");
    let t = &run.trace;
    let a = t.actor_named("A").expect("A");
    let expired = t
        .events
        .iter()
        .find_map(|e| match e.kind {
            EventKind::SessionExpired { owner, .. } if owner == a => Some(e.at_ms),
            _ => None,
        })
        .expect("the server expired A's session");
    // A pauses at 1 s with a 4 s session timeout on a 2 s tick. The server last heard A at
    // or before the pause, and no earlier than the library's idle ping interval (0.15 of the
    // timeout, 0.6 s) and one of its timer ticks (0.05 of it, 0.2 s) before it: at 0.2 s to
    // 1 s. It expires the session on the first tick boundary after that plus 4 s, wherever
    // the server's grid falls: 4.2 s to 7 s, and it may take up to a tick more to say so.
    assert!(
        (4_200..=8_000).contains(&expired),
        "A expired at {expired} ms"
    );
    let s: Vec<Seen> = run.statements.iter().map(seen).collect();
    let takeovers: Vec<&Statement> = run
        .statements
        .iter()
        .filter(|s| s.op == RowOp::TakeOver)
        .collect();
    let (last, refused) = takeovers.split_last().expect("B tried to take over");
    assert!(!refused.is_empty(), "B tried while A's lease ran");
    for r in refused {
        assert_eq!(r.affected, 0, "{r:?}");
        assert!(
            r.store_ms <= 10_000,
            "refused only while the lease ran: {r:?}"
        );
    }
    assert_eq!(
        seen(last),
        ("B", RowOp::TakeOver, 1, RowState::Running, Some("B"), 27, 4)
    );
    assert!(last.store_ms > 10_000, "taken over once the lease ran out");
    let b_submit = run
        .statements
        .iter()
        .find(|s| s.op == RowOp::Submit && s.by == "B")
        .expect("B submitted");
    assert_eq!(
        seen(b_submit),
        ("B", RowOp::Submit, 1, RowState::Done, Some("B"), 27, 5)
    );
    s
}

fn a_late_submit(story: &election::Story) -> &Statement {
    let s = story
        .live
        .statements
        .iter()
        .find(|s| s.op == RowOp::Submit && s.by == "A")
        .expect("A submitted when it woke");
    assert!(
        (21_000..=21_500).contains(&s.at_ms),
        "A submits as it wakes at 21 s: {s:?}"
    );
    assert_eq!(s.epoch, 26);
    s
}

/// Every fact and instant of the comparison agrees.
fn agrees(name: &str, story: &election::Story) {
    let facts = story.facts();
    let differ: Vec<_> = facts.iter().filter(|f| !f.same).collect();
    assert!(
        differ.is_empty(),
        "{name}: live differs from the model:\n{differ:#?}"
    );
    let pairs = story.statements();
    let differ: Vec<_> = pairs.iter().filter(|p| !p.same).collect();
    assert!(differ.is_empty(), "{name}: statements differ:\n{differ:#?}");
}

/// `live election election-epochs`: A's late submission with version 3 and epoch 26 affects 0
/// rows on PostgreSQL, and B's result stands.
fn election_epochs_refuses_the_stale_leader() {
    let story = story("election-epochs");
    the_election_and_the_takeover(&story);
    let a = a_late_submit(&story);
    assert_eq!(a.affected, 0, "the epoch-conditioned UPDATE refuses A");
    assert_eq!(
        (
            a.row.state,
            a.row.owner.as_deref(),
            a.row.epoch,
            a.row.version
        ),
        (RowState::Done, Some("B"), 27, 5)
    );
    assert_eq!(story.live.row.result.as_deref(), Some("B"));
    agrees("election-epochs", &story);
}

/// `live election election-unconditional`: the same story, but A's statement has no condition:
/// it affects 1 row and the row goes back to epoch 26 with A's result.
fn election_unconditional_lets_the_stale_leader_overwrite() {
    let story = story("election-unconditional");
    the_election_and_the_takeover(&story);
    let a = a_late_submit(&story);
    assert_eq!(a.affected, 1, "the unconditional UPDATE lets A in");
    assert_eq!(
        (
            a.row.state,
            a.row.owner.as_deref(),
            a.row.epoch,
            a.row.version
        ),
        (RowState::Done, Some("A"), 26, 6)
    );
    assert_eq!(story.live.row.result.as_deref(), Some("A"));
    let Metrics::Election(m) = &story.live.trace.metrics else {
        panic!("an election trace")
    };
    assert_eq!(m.stale_submits_accepted, 1);
    assert!(
        m.violations
            .iter()
            .any(|v| v.name() == "epochs_non_decreasing"),
        "{:?}",
        m.violations
    );
    agrees("election-unconditional", &story);
}

pub fn trials() -> Vec<Trial> {
    let tests: [(&str, fn()); 2] = [
        (
            "live_election_epochs_refuses_the_stale_leader",
            election_epochs_refuses_the_stale_leader,
        ),
        (
            "live_election_unconditional_lets_the_stale_leader_overwrite",
            election_unconditional_lets_the_stale_leader_overwrite,
        ),
    ];
    tests
        .into_iter()
        .map(|(name, f)| {
            Trial::ignorable_test(name, move || -> Result<Completion, Failed> {
                if locklab::live::server::installed().is_err() {
                    return Ok(Completion::ignored_with(
                        "Debian's zookeeperd is not installed: apt-get install -y zookeeperd",
                    ));
                }
                if pg::server::installed().is_err() {
                    return Ok(Completion::ignored_with(
                        "Debian's postgresql is not installed: apt-get install -y postgresql",
                    ));
                }
                let _one = super::serial();
                f();
                Ok(Completion::Completed)
            })
        })
        .collect()
}
