//! A ZooKeeper ensemble of locklab's own: three (or five) servers on loopback, for the live
//! runs that kill the leader or cut one server off ([`faults`]).
//!
//! Every port a server opens, the client port and the quorum and election ports, is on
//! 127.0.0.1, each server has a data directory with its `myid`, and all of them run under one
//! [guard](super::guard), in one process group: dropping the [`Ensemble`], or locklab ending any
//! other way, stops them all and removes the directory that holds theirs.

use std::ffi::OsStr;
use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use super::UserError;
use super::server::{CONF, JAR, free_port, installed, srvr};
use crate::engine::trace::ensemble::ServerId;

pub mod faults;
pub mod presets;
pub mod words;

/// How many servers `--ensemble` may ask for: one (the standalone server) or an odd quorum.
pub const SIZES: [u8; 3] = [1, 3, 5];

/// How long an ensemble may take to elect its first leader.
const START_TIMEOUT: Duration = Duration::from_secs(40);

/// Starts every server of the ensemble, in the background, and waits for them all: the guard
/// runs this, so the servers share its process group. `$1` is java, `$2` the class path, the
/// rest the servers' configuration files; each server logs beside its configuration. The JIT
/// stops at its first tier, which makes a JVM start in half the time and costs a test server
/// nothing that shows.
const START_ALL: &str = r#"java=$1; cp=$2; shift 2
for cfg in "$@"; do
  "$java" -XX:TieredStopAtLevel=1 -XX:+UseSerialGC -Xmx256m -Dzookeeper.cnxTimeout=1000 \
    -cp "$cp" org.apache.zookeeper.server.quorum.QuorumPeerMain "$cfg" \
    >"${cfg%/zoo.cfg}/server.log" 2>&1 &
done
wait
"#;

/// One server: its id, the address clients use, and its configuration file (which names it
/// among the processes of the run).
#[derive(Debug, Clone)]
pub struct Member {
    pub id: ServerId,
    pub client: SocketAddr,
    /// The ports it talks to its peers on: quorum (the leader's) and election.
    pub quorum_port: u16,
    pub election_port: u16,
    pub cfg: PathBuf,
}

/// The servers of an ensemble, as a run's fault thread sees them: where to ask who leads, and
/// which process to kill.
#[derive(Debug, Clone)]
pub struct Servers(pub Vec<Member>);

/// A running ensemble; dropping it stops every server and removes their directories.
pub struct Ensemble {
    pub servers: Servers,
    pub tick_ms: u64,
    pub dir: PathBuf,
    /// How long the servers took from start to their first leader.
    pub started_in: Duration,
    _guard: super::guard::Guarded,
}

/// One server's configuration: loopback only, its peers by id, no admin server.
fn config(dir: &Path, tick_ms: u64, client: u16, peers: &[(ServerId, u16, u16)]) -> String {
    let mut cfg = format!(
        "tickTime={}\ninitLimit=10\nsyncLimit=5\ndataDir={}\nclientPort={client}\n\
         clientPortAddress=127.0.0.1\nmaxClientCnxns=0\nadmin.enableServer=false\n\
         4lw.commands.whitelist=srvr,ruok\n",
        tick_ms.max(1),
        dir.display()
    );
    for (id, quorum, election) in peers {
        cfg.push_str(&format!("server.{id}=127.0.0.1:{quorum}:{election}\n"));
    }
    cfg
}

/// What `srvr` says of a server's part: `Some(true)` leads, `Some(false)` follows, `None`
/// does not serve (down, or in an election).
pub fn mode(addr: SocketAddr) -> Option<bool> {
    mode_in(&srvr(addr).ok()?)
}

/// The mode in a `srvr` answer.
fn mode_in(answer: &str) -> Option<bool> {
    let mode = answer.lines().find_map(|l| l.strip_prefix("Mode: "))?;
    match mode.trim() {
        "leader" => Some(true),
        "follower" => Some(false),
        _ => None,
    }
}

impl Servers {
    /// The server that leads, once a quorum serves: a leader and at least a majority in all
    /// answering as leader or follower.
    pub fn leader(&self) -> Option<ServerId> {
        let modes: Vec<(ServerId, Option<bool>)> =
            self.0.iter().map(|m| (m.id, mode(m.client))).collect();
        let serving = modes.iter().filter(|(_, m)| m.is_some()).count();
        let leader = modes
            .iter()
            .find(|(_, m)| *m == Some(true))
            .map(|(id, _)| *id);
        leader.filter(|_| serving > self.0.len() / 2)
    }

    /// Waits until a quorum serves with a leader other than `not`, for up to `within`.
    pub fn wait_for_leader(&self, not: Option<ServerId>, within: Duration) -> Option<ServerId> {
        let until = Instant::now() + within;
        loop {
            if let Some(l) = self.leader().filter(|l| Some(*l) != not) {
                return Some(l);
            }
            if Instant::now() > until {
                return None;
            }
            std::thread::sleep(Duration::from_millis(20));
        }
    }

    /// Kills server `id` with SIGKILL: every process of this run that runs the server's main
    /// class on its configuration file (a `java` wrapper and the JVM it started alike). The
    /// guard and the shell that started the servers name every configuration file too, but
    /// not the class as an argument of its own: killing them would orphan the other servers.
    pub fn kill(&self, id: ServerId) {
        let Some(m) = self.0.iter().find(|m| m.id == id) else {
            return;
        };
        let cfg = m.cfg.as_os_str().as_encoded_bytes();
        for pid in super::children::left_by(std::process::id()) {
            let Ok(cmdline) = std::fs::read(format!("/proc/{pid}/cmdline")) else {
                continue;
            };
            if runs_server(&cmdline, cfg) {
                super::children::signal(pid, rustix::process::Signal::KILL, false);
            }
        }
    }

    /// The client addresses, in server order.
    pub fn addrs(&self) -> Vec<SocketAddr> {
        self.0.iter().map(|m| m.client).collect()
    }

    /// How many servers there are.
    pub fn size(&self) -> u8 {
        self.0.len() as u8
    }
}

/// The server's main class, as the command line names it.
const MAIN_CLASS: &[u8] = b"org.apache.zookeeper.server.quorum.QuorumPeerMain";

/// Whether a process with this command line (arguments separated by NUL) runs the server on
/// configuration file `cfg`: the main class and the file, each an argument of its own.
fn runs_server(cmdline: &[u8], cfg: &[u8]) -> bool {
    let args: Vec<&[u8]> = cmdline.split(|b| *b == 0).collect();
    args.contains(&MAIN_CLASS) && args.contains(&cfg)
}

/// Starts `size` servers with this tick on free loopback ports and waits for their leader.
pub fn start(size: u8, tick_ms: u64) -> Result<Ensemble, UserError> {
    let java = installed()?;
    let dir = tempfile::Builder::new()
        .prefix("locklab-ensemble-")
        .tempdir()
        .map_err(|e| UserError::usage(format!("cannot make a data directory: {e}")))?
        .keep();
    let made = prepare(&dir, size, tick_ms);
    let members = match made {
        Ok(m) => m,
        Err(e) => {
            let _ = std::fs::remove_dir_all(&dir);
            return Err(e);
        }
    };
    let classpath = format!("{CONF}:{JAR}");
    let mut command: Vec<&OsStr> = vec![
        "sh".as_ref(),
        "-c".as_ref(),
        START_ALL.as_ref(),
        "locklab-ensemble".as_ref(),
        java.as_os_str(),
        classpath.as_ref(),
    ];
    command.extend(members.iter().map(|m| m.cfg.as_os_str()));
    let started = Instant::now();
    let guard = super::guard::spawn("locklab-ensemble", &dir, &command, None).map_err(|e| {
        let _ = std::fs::remove_dir_all(&dir);
        UserError::usage(format!("cannot start the ZooKeeper ensemble: {e}"))
    })?;
    let mut ensemble = Ensemble {
        servers: Servers(members),
        tick_ms,
        dir,
        started_in: Duration::ZERO,
        _guard: guard,
    };
    let all_serving = |e: &Ensemble| e.servers.0.iter().all(|m| mode(m.client).is_some());
    loop {
        if ensemble.servers.leader().is_some() && all_serving(&ensemble) {
            ensemble.started_in = started.elapsed();
            return Ok(ensemble);
        }
        if ensemble.dir.join("exited").exists() || started.elapsed() > START_TIMEOUT {
            let logs = ensemble
                .servers
                .0
                .iter()
                .map(|m| last_lines(&m.cfg.with_file_name("server.log")))
                .find(|t| !t.is_empty())
                .unwrap_or_default();
            drop(ensemble);
            return Err(UserError::usage(format!(
                "the ZooKeeper ensemble did not elect a leader within {} s{logs}",
                START_TIMEOUT.as_secs()
            )));
        }
        std::thread::sleep(Duration::from_millis(50));
    }
}

/// Chooses the ports and writes each server's directory, `myid` and configuration.
fn prepare(dir: &Path, size: u8, tick_ms: u64) -> Result<Vec<Member>, UserError> {
    // Three ports a server, all free at once: held until every one is chosen.
    let mut held = Vec::new();
    let mut port = || -> Result<u16, UserError> {
        let l = std::net::TcpListener::bind(("127.0.0.1", 0))
            .map_err(|e| UserError::usage(format!("no free port on 127.0.0.1: {e}")))?;
        let p = l.local_addr().map(|a| a.port()).or_else(|_| free_port())?;
        held.push(l);
        Ok(p)
    };
    let mut ports = Vec::new();
    for id in 1..=size {
        ports.push((id, port()?, port()?, port()?));
    }
    drop(held);
    let peers: Vec<(ServerId, u16, u16)> = ports.iter().map(|&(id, _, q, e)| (id, q, e)).collect();
    let mut members = Vec::new();
    for &(id, client, quorum_port, election_port) in &ports {
        let own = dir.join(format!("server-{id}"));
        let cfg = own.join("zoo.cfg");
        let write = || -> std::io::Result<()> {
            std::fs::create_dir_all(&own)?;
            std::fs::write(own.join("myid"), format!("{id}\n"))?;
            std::fs::write(&cfg, config(&own, tick_ms, client, &peers))
        };
        write().map_err(|e| {
            UserError::usage(format!("cannot write server {id}'s configuration: {e}"))
        })?;
        members.push(Member {
            id,
            client: SocketAddr::from(([127, 0, 0, 1], client)),
            quorum_port,
            election_port,
            cfg,
        });
    }
    Ok(members)
}

/// The end of a server's log, for an error message.
fn last_lines(log: &Path) -> String {
    let text = std::fs::read_to_string(log).unwrap_or_default();
    let lines: Vec<&str> = text.lines().filter(|l| !l.starts_with("SLF4J")).collect();
    let tail = lines[lines.len().saturating_sub(3)..].join("\n  ");
    if tail.is_empty() {
        tail
    } else {
        format!(":\n  {tail}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn srvr_names_the_leader_a_follower_and_a_server_that_does_not_serve() {
        let answer = |mode: &str| {
            format!(
                "Zookeeper version: 3.8.0\nLatency min/avg/max: 0/0.0/0\nMode: {mode}\nNode count: 5\n"
            )
        };
        assert_eq!(mode_in(&answer("leader")), Some(true));
        assert_eq!(mode_in(&answer("follower")), Some(false));
        assert_eq!(mode_in(&answer("standalone")), None);
        assert_eq!(
            mode_in("This ZooKeeper instance is not currently serving requests\n"),
            None
        );
    }

    #[test]
    fn killing_one_server_spares_the_shells_that_name_every_server() {
        let line = |args: &[&str]| args.join("\0").into_bytes();
        let (one, two) = ("/d/server-1/zoo.cfg", "/d/server-2/zoo.cfg");
        let jvm = line(&[
            "/usr/bin/java",
            "-Xmx256m",
            "-cp",
            "c",
            "org.apache.zookeeper.server.quorum.QuorumPeerMain",
            one,
        ]);
        let shell = line(&[
            "sh",
            "-c",
            START_ALL,
            "locklab-ensemble",
            "/usr/bin/java",
            "c",
            one,
            two,
        ]);
        assert!(runs_server(&jvm, one.as_bytes()));
        assert!(!runs_server(&jvm, two.as_bytes()));
        assert!(!runs_server(&shell, one.as_bytes()));
    }

    #[test]
    fn every_port_of_a_member_is_on_loopback_and_it_knows_its_peers() {
        let cfg = config(
            Path::new("/tmp/s1"),
            500,
            2181,
            &[(1, 3001, 4001), (2, 3002, 4002)],
        );
        let lines: Vec<&str> = cfg.lines().collect();
        assert!(lines.contains(&"clientPortAddress=127.0.0.1"), "{cfg}");
        assert!(lines.contains(&"server.1=127.0.0.1:3001:4001"), "{cfg}");
        assert!(lines.contains(&"server.2=127.0.0.1:3002:4002"), "{cfg}");
        assert!(lines.contains(&"tickTime=500"), "{cfg}");
        assert!(!cfg.contains("0.0.0.0"), "{cfg}");
    }
}
