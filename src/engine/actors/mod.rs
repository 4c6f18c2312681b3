//! The actors: state machines that react to a message, a timer or a fault and return effects
//! as data (see [`Cx`]). Each lives in its own file with its own tests; the World owns them.

pub mod config;
pub mod etcd_client;
pub mod etcd_leader;
pub mod id_generator;
pub mod lease;
pub mod lease_client;
pub mod lock_client;
pub mod queue_client;
pub mod recipe;
pub mod redis_node;
pub mod redlock_client;
pub mod resource;
pub mod rows;
pub mod runner;
pub mod worker;
pub mod worker_registry;
pub mod worker_statements;

use crate::engine::msg::{ActorMsg, Timer};
use crate::engine::world::{ActorId, Cx};
use crate::engine::zk::client::ZkConn;
use crate::engine::zk::service::ZkService;
use crate::engine::zk::tree::{NodeId, Watched};

/// What every ZooKeeper client shows the checks: its connection, its node, whether it waits
/// (and on what) or holds.
#[derive(Debug, Clone, Copy)]
pub struct ZkClientView<'a> {
    pub conn: &'a ZkConn,
    pub node: Option<NodeId>,
    pub waiting: Option<Watched>,
    pub holding: bool,
    /// A node the client gave up on but left in the queue.
    pub abandoned: Option<NodeId>,
}

pub use lease::LeaseService;
pub use lease_client::{LeaseHolder, LeaseSeeker};
pub use lock_client::LockClient;
pub use queue_client::QueueClient;
pub use resource::Resource;

// Unboxed on purpose: a World's actors sit in one allocation, which keeps cloning a state for
// an explorer cheap.
#[allow(clippy::large_enum_variant)]
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Actor {
    Lock(LockClient),
    Queue(QueueClient),
    Zk(ZkService),
    Resource(Resource),
    Lease(LeaseService),
    Holder(LeaseHolder),
    Seeker(LeaseSeeker),
    Config(config::Config),
    Runner(runner::Runner),
    Rows(rows::RowStore),
    Outside(rows::Outside),
    Worker(worker::Worker),
    Operator(worker::Operator),
    Redis(redis_node::RedisNode),
    Redlock(redlock_client::RedlockClient),
    IdGen(id_generator::IdGenerator),
    Registry(worker_registry::WorkerRegistry),
    EtcdLeader(etcd_leader::EtcdLeader),
    EtcdClient(etcd_client::EtcdClient),
}

impl Actor {
    pub fn on_start(&mut self, cx: &mut Cx) {
        match self {
            Actor::Lock(a) => a.on_start(cx),
            Actor::Queue(a) => a.on_start(cx),
            Actor::Zk(a) => a.on_start(cx),
            Actor::Lease(a) => a.on_start(cx),
            Actor::Holder(a) => a.on_start(cx),
            Actor::Seeker(a) => a.on_start(cx),
            Actor::Config(a) => a.on_start(cx),
            Actor::Runner(a) => a.on_start(cx),
            Actor::Worker(a) => a.on_start(cx),
            Actor::Operator(a) => a.on_start(cx),
            Actor::Redis(a) => a.on_start(cx),
            Actor::Redlock(a) => a.on_start(cx),
            Actor::IdGen(a) => a.on_start(cx),
            Actor::EtcdLeader(a) => a.on_start(cx),
            Actor::EtcdClient(a) => a.on_start(cx),
            Actor::Resource(_) | Actor::Rows(_) | Actor::Outside(_) | Actor::Registry(_) => {}
        }
    }

    pub fn on_msg(&mut self, from: ActorId, msg: ActorMsg, cx: &mut Cx) {
        match self {
            Actor::Lock(a) => a.on_msg(msg, cx),
            Actor::Queue(a) => a.on_msg(msg, cx),
            Actor::Zk(a) => a.on_msg(from, msg, cx),
            Actor::Resource(a) => a.on_msg(from, msg, cx),
            Actor::Lease(a) => a.on_msg(from, msg, cx),
            Actor::Holder(a) => a.on_msg(msg, cx),
            Actor::Seeker(a) => a.on_msg(msg, cx),
            Actor::Redis(a) => a.on_msg(from, msg, cx),
            Actor::Redlock(a) => a.on_msg(from, msg, cx),
            Actor::IdGen(a) => a.on_msg(msg, cx),
            Actor::Registry(a) => a.on_msg(from, msg, cx),
            Actor::EtcdLeader(a) => a.on_msg(from, msg, cx),
            Actor::EtcdClient(a) => a.on_msg(msg, cx),
            Actor::Config(_) => {}
            Actor::Rows(a) => a.on_msg(from, msg, cx),
            Actor::Runner(a) => a.on_msg(from, msg, cx),
            Actor::Outside(a) => a.on_msg(from, msg, cx),
            Actor::Worker(a) => a.on_msg(from, msg, cx),
            Actor::Operator(a) => a.on_msg(msg, cx),
        }
    }

    pub fn on_timer(&mut self, timer: Timer, cx: &mut Cx) {
        match self {
            Actor::Lock(a) => a.on_timer(timer, cx),
            Actor::Queue(a) => a.on_timer(timer, cx),
            Actor::Zk(a) => a.on_timer(timer, cx),
            Actor::Lease(a) => a.on_timer(timer, cx),
            Actor::Holder(a) => a.on_timer(timer, cx),
            Actor::Seeker(a) => a.on_timer(timer, cx),
            Actor::Config(a) => a.on_timer(timer, cx),
            Actor::Runner(a) => a.on_timer(timer, cx),
            Actor::Worker(a) => a.on_timer(timer, cx),
            Actor::Operator(a) => a.on_timer(timer, cx),
            Actor::Redis(a) => a.on_timer(timer, cx),
            Actor::Redlock(a) => a.on_timer(timer, cx),
            Actor::IdGen(a) => a.on_timer(timer, cx),
            Actor::EtcdLeader(a) => a.on_timer(timer, cx),
            Actor::EtcdClient(a) => a.on_timer(timer, cx),
            Actor::Resource(_) | Actor::Rows(_) | Actor::Outside(_) | Actor::Registry(_) => {}
        }
    }

    /// Down: what the process kept in memory is gone.
    pub fn on_crash(&mut self) {
        if let Actor::IdGen(a) = self {
            a.on_crash();
        }
    }

    /// Back after a crash, with only what the actor kept on disk.
    pub fn on_restart(&mut self, cx: &mut Cx) {
        match self {
            Actor::Redis(a) => a.on_restart(cx),
            Actor::IdGen(a) => a.on_restart(cx),
            _ => {}
        }
    }

    pub fn on_connection_reset(&mut self, cx: &mut Cx) {
        match self {
            Actor::Lock(a) => a.on_connection_reset(cx),
            Actor::Queue(a) => a.on_connection_reset(cx),
            Actor::Runner(a) => a.on_connection_reset(cx),
            _ => {}
        }
    }

    pub fn on_release_now(&mut self, cx: &mut Cx) {
        if let Actor::Lock(a) = self {
            a.on_release_now(cx)
        }
    }

    pub fn as_lock(&self) -> Option<&LockClient> {
        match self {
            Actor::Lock(a) => Some(a),
            _ => None,
        }
    }

    pub fn as_queue(&self) -> Option<&QueueClient> {
        match self {
            Actor::Queue(a) => Some(a),
            _ => None,
        }
    }

    /// A ZooKeeper client's connection, its node, and what it waits on if it is waiting.
    pub fn zk_client(&self) -> Option<ZkClientView<'_>> {
        match self {
            Actor::Lock(a) => Some(ZkClientView {
                conn: &a.conn,
                node: a.node,
                waiting: a.watching(),
                holding: a.step == lock_client::Step::Holding,
                abandoned: a.abandoned_node(),
            }),
            Actor::Queue(a) => Some(ZkClientView {
                conn: &a.conn,
                node: a.node,
                waiting: a.watching(),
                holding: a.step == queue_client::QStep::Holding,
                abandoned: None,
            }),
            Actor::Runner(a) => Some(ZkClientView {
                conn: &a.conn,
                node: a.node,
                waiting: a.watching(),
                holding: a.is_leading(),
                abandoned: None,
            }),
            _ => None,
        }
    }

    pub fn as_zk(&self) -> Option<&ZkService> {
        match self {
            Actor::Zk(a) => Some(a),
            _ => None,
        }
    }

    pub fn as_redis(&self) -> Option<&redis_node::RedisNode> {
        match self {
            Actor::Redis(a) => Some(a),
            _ => None,
        }
    }

    pub fn as_etcd_leader(&self) -> Option<&etcd_leader::EtcdLeader> {
        match self {
            Actor::EtcdLeader(a) => Some(a),
            _ => None,
        }
    }

    pub fn as_etcd_client(&self) -> Option<&etcd_client::EtcdClient> {
        match self {
            Actor::EtcdClient(a) => Some(a),
            _ => None,
        }
    }

    pub fn as_redlock(&self) -> Option<&redlock_client::RedlockClient> {
        match self {
            Actor::Redlock(a) => Some(a),
            _ => None,
        }
    }

    pub fn as_id_gen(&self) -> Option<&id_generator::IdGenerator> {
        match self {
            Actor::IdGen(a) => Some(a),
            _ => None,
        }
    }

    pub fn as_resource(&self) -> Option<&Resource> {
        match self {
            Actor::Resource(a) => Some(a),
            _ => None,
        }
    }
}
