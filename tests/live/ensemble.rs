//! A/B/C on a three-server ensemble of locklab's own: with the leader killed while A holds the
//! lock, the ensemble elects another leader, A's session survives on another server, and A
//! keeps the lock and writes with its token, as ZooKeeper promises and as the model (one
//! server that never fails) tells the story.

use libtest_mimic::Trial;
use locklab::engine::trace::ensemble::EnsembleEvent;
use locklab::engine::trace::{EventKind, SpanState};
use locklab::engine::world::ActorId;
use locklab::live::diff::Aspect;
use locklab::live::ensemble::{self, presets};
use locklab::live::server::Server;
use locklab::live::{abc, scale};

const A: ActorId = ActorId(0);

fn with_leader_killed() {
    let _one = super::serial();
    let preset = presets::find("ensemble-leader-killed").expect("the ensemble preset");
    let (p, _) = scale::for_private(&preset.params, 1.0);
    let server = Server::Ensemble(ensemble::start(3, p.tick_ms).expect("three servers start"));
    let story = abc::story(&p, &server, Some(preset.fault)).expect("the live run completes");
    let cfgs: Vec<std::path::PathBuf> = match &server {
        Server::Ensemble(e) => e.servers.0.iter().map(|m| m.cfg.clone()).collect(),
        _ => unreachable!("an ensemble was started"),
    };
    drop(server);
    // Killing the leader stopped that server alone: dropping the ensemble stopped the others.
    let left = servers_of(std::process::id(), &cfgs);
    assert!(left.is_empty(), "left running: {left:?}");
    let live = &story.live;

    // The leader is killed during A's hold and another server leads afterwards.
    let ensemble: Vec<(u64, EnsembleEvent)> = live
        .events
        .iter()
        .filter_map(|e| match &e.kind {
            EventKind::Ensemble(ev) => Some((e.at_ms, *ev)),
            _ => None,
        })
        .collect();
    let killed = ensemble
        .iter()
        .find_map(|(at, e)| match e {
            EnsembleEvent::ServerKilled {
                server,
                was_leader: true,
            } => Some((*at, *server)),
            _ => None,
        })
        .unwrap_or_else(|| panic!("the leader was killed: {ensemble:?}"));
    let changed = ensemble
        .iter()
        .find_map(|(at, e)| match e {
            EnsembleEvent::LeaderChanged { from, to } => Some((*at, *from, *to)),
            _ => None,
        })
        .unwrap_or_else(|| panic!("a new leader was elected: {ensemble:?}"));
    assert_eq!(
        changed.1, killed.1,
        "the change starts from the killed leader"
    );
    assert_ne!(changed.2, killed.1, "another server leads");
    assert!(changed.0 >= killed.0);

    // A was disconnected by the failover, kept its session and still held the lock after it.
    let a_events: Vec<&EventKind> = live
        .events
        .iter()
        .filter(|e| e.actor == A && e.at_ms >= killed.0)
        .map(|e| &e.kind)
        .collect();
    assert!(
        a_events.iter().any(|k| matches!(k, EventKind::Reconnected)),
        "A reconnected after the failover: {a_events:?}"
    );
    assert!(
        a_events
            .iter()
            .any(|k| matches!(k, EventKind::Revalidated { still_first: true })),
        "A found its node still first: {a_events:?}"
    );
    assert!(
        !a_events.iter().any(|k| matches!(
            k,
            EventKind::LearnedSessionExpired | EventKind::SessionExpired { .. }
        )),
        "A's session did not expire: {a_events:?}"
    );
    // From its grant to its release A is never out of the lock: holding, or suspended while
    // the ensemble elects, and holding again on the same token.
    let spans = &live
        .lanes
        .iter()
        .find(|l| l.actor == A)
        .expect("A's lane")
        .spans;
    let first = spans
        .iter()
        .position(|s| matches!(s.state, SpanState::Holding { .. }))
        .expect("A held the lock");
    let through: Vec<&SpanState> = spans[first..]
        .iter()
        .take_while(|s| {
            matches!(
                s.state,
                SpanState::Holding { .. } | SpanState::Suspended { .. }
            )
        })
        .map(|s| &s.state)
        .collect();
    let until = spans[first + through.len() - 1].end_ms;
    assert!(
        until > changed.0,
        "A holds past the new leader at {} ms: {through:?}",
        changed.0
    );
    let tokens: Vec<u64> = through
        .iter()
        .filter_map(|s| match s {
            SpanState::Holding { token } => Some(*token),
            _ => None,
        })
        .collect();
    assert!(
        tokens.len() >= 2 && tokens.windows(2).all(|w| w[0] == w[1]),
        "A holds before and after the failover with one token: {through:?}"
    );
    let a_write = live.writes.iter().find(|w| w.writer == A).expect("A wrote");
    assert!(
        a_write.accepted && a_write.at_ms > changed.0,
        "A's write after the failover was accepted: {a_write:?}"
    );

    // And the story is the model's: the same holders in order, the same nodes, no stale write.
    let rows = story.rows();
    for aspect in [Aspect::Holders, Aspect::Numbers, Aspect::StaleAccepted] {
        let row = rows
            .iter()
            .find(|r| r.aspect == aspect)
            .unwrap_or_else(|| panic!("a {aspect:?} row: {rows:#?}"));
        assert!(row.same(), "{aspect:?} as the model: {row:#?}");
    }
}

/// What `locklab live abc ensemble-leader-killed` prints: the leader killed and the new one in
/// the live run's events, and, after the comparison, what the model does not model.
fn the_ensemble_run_marks_the_leader_change_and_says_what_the_model_leaves_out() {
    let _one = super::serial();
    let out = super::locklab()
        .args(["--lang", "en", "live", "abc", "ensemble-leader-killed"])
        .output()
        .expect("locklab runs");
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{text}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    // The report is wrapped to its width: read it as one line.
    let text = text.split_whitespace().collect::<Vec<_>>().join(" ");
    let killed = text
        .find("is killed (SIGKILL)")
        .unwrap_or_else(|| panic!("the leader's death in the events:\n{text}"));
    let elected = text
        .find("The election is over: server")
        .unwrap_or_else(|| panic!("the leader change in the events:\n{text}"));
    assert!(killed < elected, "{text}");
    let note = text
        .find("The model does not model an ensemble")
        .unwrap_or_else(|| panic!("what the model leaves out:\n{text}"));
    assert!(elected < note, "the note follows the comparison:\n{text}");
    assert!(
        text[note..].contains("the leader's death, the election that follows"),
        "{text}"
    );
}

pub fn trials() -> Vec<Trial> {
    vec![
        super::needs_server(
            "the_ensemble_run_marks_the_leader_change_and_says_what_the_model_leaves_out",
            the_ensemble_run_marks_the_leader_change_and_says_what_the_model_leaves_out,
        ),
        super::needs_server(
            "live_ensemble_the_holder_keeps_the_lock_when_the_leader_is_killed",
            with_leader_killed,
        ),
        super::needs_server(
            "an_ensemble_listens_on_loopback_only_and_leaves_nothing_behind",
            an_ensemble_listens_on_loopback_only_and_leaves_nothing_behind,
        ),
        super::needs_server(
            "kill_9_of_locklab_mid_ensemble_run_leaves_nothing_behind",
            kill_9_of_locklab_mid_ensemble_run_leaves_nothing_behind,
        ),
    ]
}

/// Every socket an ensemble listens on, client, quorum and election ports alike, is on
/// 127.0.0.1, and nothing of it is left once it is dropped.
fn an_ensemble_listens_on_loopback_only_and_leaves_nothing_behind() {
    let _one = super::serial();
    let e = ensemble::start(3, 500).expect("three servers start");
    let ports: Vec<u16> = e
        .servers
        .0
        .iter()
        .flat_map(|m| [m.client.port(), m.quorum_port, m.election_port])
        .collect();
    let listening: Vec<(u16, String)> = ports
        .iter()
        .flat_map(|&p| {
            super::listening_addresses(p)
                .into_iter()
                .map(move |a| (p, a))
        })
        .collect();
    let dir = e.dir.clone();
    let cfgs: Vec<std::path::PathBuf> = e.servers.0.iter().map(|m| m.cfg.clone()).collect();
    drop(e);
    // Three client ports, three election ports and the leader's quorum port.
    assert!(listening.len() >= 7, "{listening:?}");
    for (port, a) in &listening {
        assert!(
            a == "0100007F" || a == "0000000000000000FFFF00000100007F",
            "port {port} listens on {a}, not 127.0.0.1 alone: {listening:?}"
        );
    }
    assert!(!dir.exists(), "{} was removed", dir.display());
    let left = servers_of(std::process::id(), &cfgs);
    assert!(left.is_empty(), "left running: {left:?}");
    for p in ports {
        assert!(
            super::listening_addresses(p).is_empty(),
            "{p} still listens"
        );
    }
}

/// The processes of locklab `of` that run one of these servers.
fn servers_of(of: u32, cfgs: &[std::path::PathBuf]) -> Vec<u32> {
    locklab::live::children::left_by(of)
        .into_iter()
        .filter(|pid| {
            std::fs::read(format!("/proc/{pid}/cmdline")).is_ok_and(|c| {
                let args: Vec<String> = c
                    .split(|b| *b == 0)
                    .map(|a| String::from_utf8_lossy(a).into_owned())
                    .collect();
                // The JVM itself, not the shells whose scripts name the class.
                let java = args.first().is_some_and(|a| a.ends_with("java"));
                java && args.iter().any(|a| a.ends_with("QuorumPeerMain"))
                    && (cfgs.is_empty()
                        || cfgs
                            .iter()
                            .any(|f| args.contains(&f.to_string_lossy().into_owned())))
            })
        })
        .collect()
}

/// SIGKILL of locklab while its ensemble runs a story leaves no server and no directory.
fn kill_9_of_locklab_mid_ensemble_run_leaves_nothing_behind() {
    let _one = super::serial();
    let mut child = super::locklab()
        .args(["live", "abc", "ensemble-leader-killed", "--json"])
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .expect("locklab starts");
    let of = child.id();
    let until = std::time::Instant::now() + std::time::Duration::from_secs(40);
    let mut jvms = Vec::new();
    while std::time::Instant::now() < until && jvms.len() < 3 {
        jvms = servers_of(of, &[]);
        std::thread::sleep(std::time::Duration::from_millis(100));
    }
    assert_eq!(jvms.len(), 3, "three servers started");
    let dirs: Vec<std::path::PathBuf> = jvms
        .iter()
        .filter_map(|pid| {
            let c = std::fs::read(format!("/proc/{pid}/cmdline")).ok()?;
            let cfg = c
                .split(|b| *b == 0)
                .map(|a| String::from_utf8_lossy(a).into_owned())
                .find(|a| a.ends_with("zoo.cfg"))?;
            // DIR/server-N/zoo.cfg: the run's directory is two levels up.
            Some(std::path::Path::new(&cfg).parent()?.parent()?.to_path_buf())
        })
        .collect();
    assert!(!dirs.is_empty(), "the servers' directory is known");
    // Into the run: the ensemble is electing or serving, the clients connecting.
    std::thread::sleep(std::time::Duration::from_millis(3_000));
    child.kill().expect("SIGKILL");
    let _ = child.wait();
    let until = std::time::Instant::now() + std::time::Duration::from_secs(20);
    while std::time::Instant::now() < until
        && (!locklab::live::children::left_by(of).is_empty() || dirs.iter().any(|d| d.exists()))
    {
        std::thread::sleep(std::time::Duration::from_millis(100));
    }
    let left = locklab::live::children::left_by(of);
    assert!(left.is_empty(), "left running: {left:?}");
    for d in &dirs {
        assert!(!d.exists(), "{} was removed", d.display());
    }
}
