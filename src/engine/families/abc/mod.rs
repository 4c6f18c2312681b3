//! The A/B/C queue: three clients run the ZooKeeper lock recipe on one lock directory.
//!
//! A, B and C create ephemeral sequential nodes under `/lock` in that order and receive 17, 18
//! and 19. A holder writes once to the protected resource with its fencing token (by default the
//! lock node's czxid), then releases by deleting its node and closing its session. Faults are
//! planned at instants or triggered by a particular request.

mod data;
mod facts;

pub use data::DATA_PATH;
mod observer;

use crate::engine::actors::lock_client::{LockClient, Recipe};
use crate::engine::actors::{Actor, Resource};
use crate::engine::params::{AbcParams, DataWrite, Fault};
use crate::engine::trace::record::Recorder;
use crate::engine::trace::{
    AbcMetrics, ActorInfo, InvariantReport, Metrics, Role, Trace, invariant,
};
use crate::engine::world::run::{self, Plan, Trigger};
use crate::engine::world::{ActorId, World};
use crate::engine::zk::client::ZkConn;
use crate::engine::zk::service::ZkService;
use crate::engine::zk::tree::{DirId, Tree};

use observer::AbcObserver;

pub const NAMES: [&str; 3] = ["A", "B", "C"];
/// Every actor's name, by id, as schedules write them.
pub const ACTOR_NAMES: [&str; 5] = ["A", "B", "C", "service", "resource"];
pub const SERVICE: ActorId = ActorId(3);
pub const RESOURCE: ActorId = ActorId(4);
pub(crate) const DIR: DirId = DirId(0);

/// The client called `name` (A, B or C, any case).
pub fn client_id(name: &str) -> Option<ActorId> {
    NAMES
        .iter()
        .position(|n| n.eq_ignore_ascii_case(name))
        .map(|i| ActorId(i as u8))
}

/// What every A/B/C run checks, the model's and the live lab's alike (a data node adds
/// [`invariant::NO_LOST_UPDATE`]).
pub fn checks() -> Vec<InvariantReport> {
    vec![
        InvariantReport::always(invariant::ONE_HOLDER),
        InvariantReport::always(invariant::TOKENS_NON_DECREASING),
        InvariantReport::always(invariant::NO_ORPHAN_NODE),
        InvariantReport::always(invariant::NOBODY_STUCK),
        InvariantReport::sometimes(invariant::HOLDER_RELEASED),
        InvariantReport::sometimes(invariant::WAITER_WOKEN),
        InvariantReport::sometimes(invariant::STALE_WRITE_ARRIVED),
        InvariantReport::sometimes(invariant::EVERYONE_HELD),
    ]
}

/// Client `i`'s recipe in a run of `p`, on lock directory `dir`, writing to `resource`: every
/// client follows the same options, each starting `start_gap` after the one before, and a
/// give-up fault sets its deadline, counted from its start. The live lab's clients follow it
/// too.
pub fn recipe(p: &AbcParams, i: usize, dir: DirId, resource: ActorId) -> Recipe {
    let id = ActorId(i as u8);
    let start_ms = p.start_gap_ms * i as u64;
    Recipe {
        watch: p.watch,
        recovery: p.recovery,
        registration: p.registration,
        on_disconnect: p.on_disconnect,
        on_loss: p.on_loss,
        token: p.token,
        start_ms,
        write_after_ms: p.write_after_ms,
        hold_ms: p.hold_ms,
        dir,
        resource,
        requested_timeout_ms: p.session_timeout_ms,
        acquire_timeout_ms: p.faults.iter().find_map(|f| match f {
            Fault::GiveUp { client, at_ms } if client_id(client) == Some(id) => {
                Some(at_ms.saturating_sub(start_ms))
            }
            _ => None,
        }),
        on_timeout: p.on_timeout,
    }
}

/// Builds the World and the fault plan for a set of parameters.
pub fn build(p: &AbcParams) -> (World, Plan) {
    let with_data = p.data_write != DataWrite::Off;
    // The data node, if any, was created one transaction before the run, so the lock nodes'
    // zxids are the same with or without it.
    let mut tree = Tree::new(p.first_zxid.saturating_sub(1 + u64::from(with_data)));
    let data_node = with_data.then(|| tree.add_value(data_start_value(p), p.data_version));
    tree.add_dir("/lock", p.first_sequence);
    let mut service = ZkService::new(tree, p.tick_ms, p.tick_phase_ms);
    service.reported_data = data_node;
    if let Some(every) = p.container_check_ms {
        service.tree.make_container(DIR);
        service.container_check_ms = Some(every);
    }
    let mut world = World::new(Vec::new(), p.delay_ms, p.seed);
    let mut clients = Vec::new();
    for (i, _) in NAMES.iter().enumerate() {
        let id = ActorId(i as u8);
        let (session, granted) = service.open_session(id, p.session_timeout_ms);
        let recipe = recipe(p, i, DIR, RESOURCE);
        let guid = world.rng.next_u32();
        let mut lock = LockClient::new(recipe, ZkConn::new(SERVICE, session, granted), guid);
        if let Some(node) = data_node {
            lock = lock.with_data(p.data_write, node);
        }
        clients.push(Actor::Lock(lock));
    }
    world.actors = clients;
    world.actors.push(Actor::Zk(service));
    world.actors.push(Actor::Resource(Resource::new(p.fencing)));
    let n = world.actors.len();
    world.status = vec![Default::default(); n];
    world.links = vec![None; n];
    world.conn_epoch = vec![0; n];
    world.service_epoch = vec![0; n];
    for i in 0..NAMES.len() {
        world.link(ActorId(i as u8), SERVICE);
    }
    let mut plan = Plan {
        schedule: p.schedule.clone(),
        ..Plan::default()
    };
    for fault in &p.faults {
        let Some(c) = client_id(fault.client()) else {
            continue;
        };
        match fault {
            Fault::Freeze { at_ms, len_ms, .. } => plan.freeze(c, *at_ms, *len_ms),
            Fault::Disconnect { at_ms, len_ms, .. } => plan.cut(c, *at_ms, *len_ms),
            Fault::Crash { at_ms, .. } => plan.crash(c, *at_ms),
            Fault::DropCreateResponse { .. } => {
                plan.triggers.push(Trigger::ResetAfterCreate { client: c })
            }
            // Armed on the client itself (its recipe's acquire deadline).
            Fault::GiveUp { .. } => {}
            Fault::DeleteBetween { owner, .. } => {
                if let Some(o) = client_id(owner) {
                    plan.triggers.push(Trigger::ReleaseAfterRead {
                        owner: o,
                        reader: c,
                    });
                }
            }
        }
    }
    (world, plan)
}

/// The data node's value when the run starts: a counter every update adds one to, so far
/// bumped once per version.
pub fn data_start_value(p: &AbcParams) -> u64 {
    p.data_version.max(0) as u64
}

/// Checks that every step of the parameters' schedule can happen when its turn comes; the error
/// is the index of the first that cannot.
pub fn check_schedule(p: &AbcParams) -> Result<(), usize> {
    let (mut world, _) = build(p);
    world.start(&mut None);
    let mut scratch = Vec::new();
    for (i, step) in p.schedule.iter().enumerate() {
        let c = step.choice(&world, &mut scratch).ok_or(i)?;
        let at = world.key(c).0.max(world.now);
        world.apply(c, at, &mut None);
    }
    Ok(())
}

/// Runs the A/B/C queue.
pub fn run(p: &AbcParams) -> Trace {
    let (mut world, plan) = build(p);
    let mut rec = Recorder::with_capacity(192, 256);
    let mut obs = AbcObserver::new(&world);
    if p.data_write != DataWrite::Off {
        obs.track_data(p.data_version, data_start_value(p));
    }
    run::run(&mut world, &plan, p.duration_ms, &mut rec, &mut obs);
    obs.finish(&world, rec, p.duration_ms)
}

pub fn zk(world: &World) -> &ZkService {
    world.actor(SERVICE).as_zk().expect("the service")
}

pub fn client(world: &World, c: usize) -> &LockClient {
    world.actors[c].as_lock().expect("a lock client")
}

pub fn actors() -> Vec<ActorInfo> {
    let mut v: Vec<ActorInfo> = NAMES
        .iter()
        .enumerate()
        .map(|(i, n)| ActorInfo {
            id: ActorId(i as u8),
            name: n.to_string(),
            role: Role::Client,
        })
        .collect();
    v.push(ActorInfo {
        id: SERVICE,
        name: "service".into(),
        role: Role::Coordinator,
    });
    v.push(ActorInfo {
        id: RESOURCE,
        name: "resource".into(),
        role: Role::Resource,
    });
    v
}

/// The A/B/C metrics of a trace, if it is one.
pub fn metrics(trace: &Trace) -> Option<&AbcMetrics> {
    match &trace.metrics {
        Metrics::Abc(m) => Some(m),
        _ => None,
    }
}
