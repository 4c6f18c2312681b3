//! The explorer checked against a second, independent one: the same bounded A/B/C model written
//! again as a stateright model (its own enabled actions, its own reading of the time
//! abstraction and the fault budget, from the rules documented in `engine::world::step`), and
//! explored by stateright's own breadth-first checker on one thread. Both must count the same
//! distinct states and the same generated states, and reach the same verdict on every property,
//! for every recipe variant.
//!
//! Only the World's own steps (`choices`, `apply`) and the named invariants are shared: they
//! are the system being checked, not the checker.

#[path = "support/stateright_abc.rs"]
mod model;

use locklab::explore::variants;
use locklab::explore::{Bounds, Search};
use model::Abc;
use stateright::{Checker, Model};

#[test]
fn both_explorers_agree_on_every_recipe_variant() {
    for v in variants::all() {
        let bounds = Bounds {
            depth: 200,
            max_states: 10_000_000,
            ..Bounds::new(v.faults, v.kinds)
        };
        let mut ours = Search::new(&v.params, bounds);
        ours.run(u64::MAX);
        assert!(ours.complete() && !ours.depth_limited, "{}", v.name);

        let model = Abc {
            params: v.params.clone(),
            kinds: v.kinds,
            faults: v.faults,
        };
        let theirs = Abc {
            params: v.params.clone(),
            kinds: v.kinds,
            faults: v.faults,
        }
        .checker()
        .threads(1)
        .spawn_bfs()
        .join();
        assert!(theirs.is_done());
        assert_eq!(
            ours.progress.distinct,
            theirs.unique_state_count() as u64,
            "{}: distinct states",
            v.name
        );
        assert_eq!(
            ours.progress.states,
            theirs.state_count() as u64,
            "{}: states generated",
            v.name
        );
        let mut our_verdicts: Vec<&str> = ours
            .violations
            .iter()
            .map(|f| f.property.name())
            .chain(ours.witnesses.iter().flatten().map(|f| f.property.name()))
            .collect();
        our_verdicts.sort();
        let mut their_verdicts: Vec<&str> = theirs.discoveries().into_keys().collect();
        their_verdicts.sort();
        assert_eq!(our_verdicts, their_verdicts, "{}", v.name);
        if let Some(name) = v.breaks {
            assert!(our_verdicts.contains(&name.name()), "{}", v.name);
            let ours = ours
                .violations
                .iter()
                .find(|f| f.property == name)
                .expect("found");
            // Our counterexample is a path of the second model too, and breaks it there.
            let mut s = model.init_states().remove(0);
            for &c in &ours.path {
                let mut enabled = Vec::new();
                model.actions(&s, &mut enabled);
                assert!(enabled.contains(&c), "{}: {c:?} is not enabled", v.name);
                s = model.next_state(&s, c).expect("a step");
            }
            let property = model
                .properties()
                .into_iter()
                .find(|p| p.name == name.name())
                .expect("named");
            assert!(!(property.condition)(&model, &s), "{}", v.name);
            // And it is no longer than the one stateright kept (which, exploring everything,
            // keeps the last violation it meets rather than the first).
            let theirs = theirs
                .discovery(name.name())
                .expect("found")
                .into_actions()
                .len();
            assert!(ours.path.len() <= theirs, "{}", v.name);
        }
    }
}
