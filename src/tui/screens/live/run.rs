//! The runs the live screen starts on its worker thread: each starts the real servers it needs,
//! runs the story on them and by the model, and hands back the two traces and their rows.

use super::{Choice, Outcome};
use crate::engine::params::{AbcParams, EtcdParams, HerdParams, Params, RedlockParams};
use crate::live::queue::{self, QueueParams};
use crate::live::server::{self, Server};
use crate::live::{abc, diff, herd};

/// A run to make off the UI thread.
pub type Work = Box<dyn FnOnce() -> Result<Outcome, String> + Send>;

/// The run of a catalogue preset and about how long it takes, for the families this screen
/// runs itself.
pub fn preset(choice: Choice, name: String, command: String, p: &Params) -> Option<(u64, Work)> {
    let done = move |r: Result<Ran, String>| r.map(|r| r.outcome(choice, name, command));
    Some(match p.clone() {
        Params::Abc(p) => (p.duration_ms + 2000, Box::new(move || done(run_abc(p)))),
        Params::Redlock(p) => (p.duration_ms + 1000, Box::new(move || done(run_redlock(p)))),
        Params::Etcd(p) => (p.duration_ms + 3000, Box::new(move || done(run_etcd(p)))),
        Params::Rwlock(p) => {
            let p = QueueParams::Rwlock(p);
            (
                p.common().duration_ms + 2000,
                Box::new(move || done(run_queue(p))),
            )
        }
        Params::Semaphore(p) => {
            let p = QueueParams::Semaphore(p);
            (
                p.common().duration_ms + 2000,
                Box::new(move || done(run_queue(p))),
            )
        }
        _ => return None,
    })
}

/// The herd (or the chain) with one real session per waiter.
pub fn herd(choice: Choice, command: String, waiters: u32, fanout: u32) -> (u64, Work) {
    let p = HerdParams {
        waiters,
        fanout,
        grab_cost_ms: 0.0,
        hold_ms: 20.0,
    };
    let name = format!("herd --waiters {waiters} --fanout {fanout}");
    let work = move || run_herd(p).map(|r| r.outcome(choice, name, command));
    (u64::from(waiters) * 40 + 3000, Box::new(work))
}

/// What a run found, before the screen names it.
struct Ran {
    version: String,
    addr: String,
    scaling: Option<crate::live::scale::Scaling>,
    rows: Vec<diff::Row>,
    tick_phase: Option<Option<u64>>,
    live: crate::engine::trace::Trace,
    model: crate::engine::trace::Trace,
}

impl Ran {
    fn outcome(self, choice: Choice, name: String, command: String) -> Outcome {
        Outcome {
            choice,
            name,
            command,
            version: self.version,
            addr: self.addr,
            scaling: self.scaling,
            rows: self.rows,
            tick_phase: self.tick_phase,
            live: self.live,
            model: self.model,
        }
    }
}

fn private(tick_ms: u64) -> Result<Server, String> {
    server::open(None, None, server::Settings::ticking(tick_ms)).map_err(|e| e.message)
}

fn run_abc(p: AbcParams) -> Result<Ran, String> {
    let settings = server::Settings {
        tick_ms: p.tick_ms,
        container_check_ms: p.container_check_ms,
    };
    let server = server::open(None, None, settings).map_err(|e| e.message)?;
    let (scaled, scaling) = crate::live::scale::fit(&p, &server, 1.0).map_err(|e| e.message)?;
    let story = abc::story(&scaled, &server, None).map_err(|e| e.message)?;
    Ok(Ran {
        version: server.version(),
        addr: server.addr().to_string(),
        scaling: Some(scaling),
        rows: story.rows(),
        tick_phase: Some(story.tick_phase_ms),
        live: story.live,
        model: story.model,
    })
}

/// A read-write lock or semaphore preset on a private server ticking as the preset does, so
/// the server grants what the model grants.
fn run_queue(p: QueueParams) -> Result<Ran, String> {
    let server = private(p.common().tick_ms)?;
    let known = crate::live::tick::same_clock(server.addr());
    let story = queue::story_at(&p, server.addr(), known).map_err(|e| e.message)?;
    Ok(Ran {
        version: server.version(),
        addr: server.addr().to_string(),
        scaling: None,
        rows: story.rows(),
        tick_phase: Some(story.tick_phase_ms),
        live: story.live,
        model: story.model,
    })
}

fn run_redlock(p: RedlockParams) -> Result<Ran, String> {
    let exe = std::env::current_exe().map_err(|e| e.to_string())?;
    let store = crate::live::redis::run::default_store();
    let story = crate::live::redis::story(&p, &exe, store).map_err(|e| e.message)?;
    Ok(Ran {
        version: "Redis".to_string(),
        addr: "127.0.0.1".to_string(),
        scaling: None,
        rows: story.rows(),
        tick_phase: None,
        live: story.live,
        model: story.model,
    })
}

fn run_etcd(p: EtcdParams) -> Result<Ran, String> {
    let exe = std::env::current_exe().map_err(|e| e.to_string())?;
    let story = crate::live::etcd::story(&p, &exe).map_err(|e| e.message)?;
    Ok(Ran {
        version: format!("etcd {}", story.version),
        addr: story.server.0.to_string(),
        scaling: None,
        rows: story.rows(),
        tick_phase: None,
        live: story.live,
        model: story.model,
    })
}

fn run_herd(p: HerdParams) -> Result<Ran, String> {
    let server = private(2000)?;
    let live = herd::run(&p, server.addr()).map_err(|e| e.message)?;
    let model = crate::engine::run(&Params::Herd(p));
    Ok(Ran {
        version: server.version(),
        addr: server.addr().to_string(),
        scaling: None,
        rows: diff::compare(&model, &live, None),
        tick_phase: None,
        live,
        model,
    })
}
