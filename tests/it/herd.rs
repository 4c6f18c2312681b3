//! Herd versus chain: totals counted from simulated watches match the closed forms.

use locklab::engine::families::herd;
use locklab::engine::params::HerdParams;

fn run(waiters: u32, fanout: u32) -> locklab::engine::trace::HerdMetrics {
    let p = HerdParams {
        waiters,
        fanout,
        ..HerdParams::default()
    };
    let t = herd::run(&p);
    assert!(
        t.all_invariants_hold(),
        "N={waiters} k={fanout}: {:?}",
        t.invariants
    );
    herd::metrics(&t).unwrap().clone()
}

#[test]
fn the_chain_notifies_n_times() {
    for n in [1, 2, 7, 50, 200] {
        let m = run(n, 1);
        assert_eq!(m.total_notifications, u64::from(n), "N={n}");
        assert_eq!(m.wasted_wakeups, 0);
        assert_eq!(m.rows.len(), n as usize);
        assert!(m.rows.iter().all(|r| r.woken == 1 && r.winner == 1));
    }
}

#[test]
fn the_herd_notifies_n_times_n_plus_one_over_two() {
    for n in [1u32, 2, 7, 50, 200] {
        let m = run(n, n);
        let n64 = u64::from(n);
        assert_eq!(m.total_notifications, n64 * (n64 + 1) / 2, "N={n}");
        assert_eq!(m.wasted_wakeups, n64 * (n64 + 1) / 2 - n64);
        let woken: Vec<u32> = m.rows.iter().map(|r| r.woken).collect();
        assert_eq!(woken, (1..=n).rev().collect::<Vec<_>>());
    }
}

#[test]
fn layered_fanout_wakes_min_k_and_waiters_left() {
    for (n, k) in [(50u32, 5u32), (10, 3), (9, 4)] {
        let m = run(n, k);
        for (i, row) in m.rows.iter().enumerate() {
            let left = n - i as u32;
            assert_eq!(row.woken, k.min(left), "N={n} k={k} release {}", i + 1);
            assert_eq!(row.not_notified, left - row.woken);
        }
        let expected: u64 = (1..=n).map(|left| u64::from(k.min(left))).sum();
        assert_eq!(m.total_notifications, expected);
    }
}

#[test]
fn each_row_lasts_woken_reads_plus_the_hold() {
    let m = run(50, 50);
    // Sum over releases of (woken x 2 ms + 100 ms) = 2 x 1275 + 50 x 100.
    assert_eq!(m.total_time_ms, 2.0 * 1275.0 + 5_000.0);
    assert_eq!(m.rows[0].duration_ms, 50.0 * 2.0 + 100.0);
    let chain = run(50, 1);
    assert_eq!(chain.total_time_ms, 50.0 * 102.0);
}

/// The same queue as real lock clients in the World: N + 1 clients run the recipe with
/// "watch the node k ahead", and we count the watch events each deletion sends.
fn world_counts(waiters: u32, fanout: u32) -> Vec<u32> {
    use locklab::engine::actors::lock_client::{
        LockClient, OnDisconnect, OnLoss, Recipe, Recovery, Registration, TokenSource, WatchMode,
    };
    use locklab::engine::actors::{Actor, Resource};
    use locklab::engine::msg::ActorMsg;
    use locklab::engine::trace::EventKind;
    use locklab::engine::trace::record::Recorder;
    use locklab::engine::world::run::{self, Observer, Plan};
    use locklab::engine::world::{ActorId, World};
    use locklab::engine::zk::client::ZkConn;
    use locklab::engine::zk::service::ZkService;
    use locklab::engine::zk::tree::{DirId, Tree};

    let n = waiters as usize + 1;
    let service = ActorId(n as u8);
    let resource = ActorId(n as u8 + 1);
    let mut tree = Tree::new(0);
    tree.add_dir("/lock", 0);
    let mut zk = ZkService::new(tree, 2_000, 0);
    let mut actors = Vec::new();
    for i in 0..n {
        let (session, granted) = zk.open_session(ActorId(i as u8), 40_000);
        let recipe = Recipe {
            watch: WatchMode::Ahead(fanout),
            recovery: Recovery::Guid,
            registration: Registration::Atomic,
            on_disconnect: OnDisconnect::Suspend,
            on_loss: OnLoss::Stop,
            token: TokenSource::Czxid,
            // Everyone queues before the first holder is done.
            start_ms: i as u64,
            write_after_ms: 1,
            hold_ms: 1_000,
            dir: DirId(0),
            resource,
            requested_timeout_ms: 40_000,
            acquire_timeout_ms: None,
            on_timeout: locklab::engine::params::OnTimeout::DeleteNode,
        };
        actors.push(Actor::Lock(LockClient::new(
            recipe,
            ZkConn::new(service, session, granted),
            i as u32,
        )));
    }
    actors.push(Actor::Zk(zk));
    actors.push(Actor::Resource(Resource::new(true)));
    let mut world = World::new(actors, 1, 7);
    for i in 0..n {
        world.link(ActorId(i as u8), service);
    }
    struct Counter {
        seen_events: usize,
        seen_messages: usize,
        per_release: Vec<u32>,
    }
    impl Observer for Counter {
        fn observe(&mut self, _: &World, rec: &mut Recorder) {
            let deleted = rec.events[self.seen_events..]
                .iter()
                .any(|e| matches!(e.kind, EventKind::NodeDeleted { .. }));
            let watches = rec.messages[self.seen_messages..]
                .iter()
                .filter(|m| matches!(m.msg, ActorMsg::ZkWatch { .. }))
                .count() as u32;
            if deleted {
                self.per_release.push(watches);
            }
            self.seen_events = rec.events.len();
            self.seen_messages = rec.messages.len();
        }
    }
    let mut counter = Counter {
        seen_events: 0,
        seen_messages: 0,
        per_release: Vec::new(),
    };
    let mut rec = Recorder::default();
    run::run(
        &mut world,
        &Plan::default(),
        1_000 * (n as u64 + 2),
        &mut rec,
        &mut counter,
    );
    counter.per_release
}

#[test]
fn the_release_rounds_count_what_lock_clients_in_the_world_see() {
    for (n, k) in [(1u32, 1u32), (5, 1), (5, 5), (12, 3), (20, 20), (30, 4)] {
        let rows: Vec<u32> = run(n, k).rows.iter().map(|r| r.woken).collect();
        let mut world = world_counts(n, k);
        // The last holder's release wakes nobody; the rounds stop at the last waiter.
        assert_eq!(world.pop(), Some(0), "N={n} k={k}");
        assert_eq!(world, rows, "N={n} k={k}");
    }
}
