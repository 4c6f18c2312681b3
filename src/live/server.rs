//! A ZooKeeper server for a live run: a private one of locklab's own on a loopback port, or one
//! the user names with `--zk HOST:PORT`.
//!
//! The private server is Debian's `zookeeperd` started by hand in standalone mode, with its own
//! data directory, tick and configuration file, which binds it to 127.0.0.1 alone: it has no
//! authentication, so nobody else may reach it. It runs under the [guard](super::guard), so a
//! `java` that is a wrapper script (and does not `exec`) leaves no JVM behind, and nothing
//! outlives a run, however it ends.

use std::ffi::OsStr;
use std::net::{SocketAddr, TcpListener, ToSocketAddrs};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use super::UserError;
use super::net::{self, NetError};

/// Where Debian's `zookeeperd` puts the server and its configuration.
pub const JAR: &str = "/usr/share/java/zookeeper.jar";
pub const CONF: &str = "/etc/zookeeper/conf";

/// How long a server may take to answer `srvr` after it was started.
const START_TIMEOUT: Duration = Duration::from_secs(40);

/// The private server's configuration: loopback only, no admin server, the two four-letter
/// words locklab uses, and no cap on connections from one address (a herd opens one session per
/// waiter).
fn config(dir: &Path, port: u16, tick_ms: u64) -> String {
    format!(
        "tickTime={}\ndataDir={}\nclientPort={port}\nclientPortAddress=127.0.0.1\n\
         maxClientCnxns=0\nadmin.enableServer=false\n4lw.commands.whitelist=srvr,ruok\n",
        tick_ms.max(1),
        dir.display()
    )
}

/// A ZooKeeper server the run talks to.
pub enum Server {
    Private(PrivateServer),
    External {
        addr: SocketAddr,
    },
    /// Several private servers in one ensemble ([`super::ensemble`]).
    Ensemble(super::ensemble::Ensemble),
}

impl Server {
    /// The address to ask about the service (the first server of an ensemble).
    pub fn addr(&self) -> SocketAddr {
        match self {
            Server::Private(p) => p.addr,
            Server::External { addr } => *addr,
            Server::Ensemble(e) => e.servers.0[0].client,
        }
    }

    /// Every server's client address: a session may connect to any of them.
    pub fn addrs(&self) -> Vec<SocketAddr> {
        match self {
            Server::Ensemble(e) => e.servers.addrs(),
            _ => vec![self.addr()],
        }
    }

    /// The server's tick in milliseconds, when locklab chose it.
    pub fn tick_ms(&self) -> Option<u64> {
        match self {
            Server::Private(p) => Some(p.tick_ms),
            Server::External { .. } => None,
            Server::Ensemble(e) => Some(e.tick_ms),
        }
    }

    /// How often the server looks for empty container nodes, when locklab set it.
    pub fn container_check_ms(&self) -> Option<u64> {
        match self {
            Server::Private(p) => p.container_check_ms,
            _ => None,
        }
    }

    /// The first line `srvr` answers, such as `Zookeeper version: 3.8.0-...`.
    pub fn version(&self) -> String {
        srvr(self.addr())
            .ok()
            .and_then(|s| s.lines().next().map(str::to_string))
            .unwrap_or_default()
    }
}

/// What locklab sets on a server of its own: the tick, and how often its container manager looks
/// for empty container nodes to delete (ZooKeeper's `znode.container.checkIntervalMs`, once a
/// minute by default, which `None` keeps).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Settings {
    pub tick_ms: u64,
    pub container_check_ms: Option<u64>,
}

impl Settings {
    /// A server with this tick and ZooKeeper's own container check.
    pub fn ticking(tick_ms: u64) -> Self {
        Self {
            tick_ms,
            container_check_ms: None,
        }
    }
}

/// A private server and the guard that removes it.
pub struct PrivateServer {
    pub addr: SocketAddr,
    pub tick_ms: u64,
    /// How often its container manager runs, when locklab set it.
    pub container_check_ms: Option<u64>,
    pub dir: PathBuf,
    /// Dropping this ends the server.
    _guard: super::guard::Guarded,
}

/// Whether Debian's package is there, and `java` to run it.
pub fn installed() -> Result<PathBuf, UserError> {
    let missing = !Path::new(JAR).is_file() || !Path::new(CONF).is_dir();
    let java = find_on_path("java");
    match (missing, java) {
        (false, Some(java)) => Ok(java),
        _ => Err(UserError::usage(format!(
            "no ZooKeeper server found (looked for {JAR} and java on the PATH). Install \
             Debian's server with `sudo apt-get install -y zookeeperd`, or connect to a \
             running one with --zk HOST:PORT"
        ))),
    }
}

pub(crate) fn find_on_path(name: &str) -> Option<PathBuf> {
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path)
        .map(|d| d.join(name))
        .find(|p| p.is_file())
}

/// Starts a private server with this tick, on `port` or on a free one.
pub fn start(tick_ms: u64, port: Option<u16>) -> Result<PrivateServer, UserError> {
    start_with(Settings::ticking(tick_ms), port)
}

/// Starts a private server with these settings, on `port` or on a free one.
pub fn start_with(settings: Settings, port: Option<u16>) -> Result<PrivateServer, UserError> {
    let java = installed()?;
    // A free port can be taken between looking and binding: try a few.
    let tries = if port.is_some() { 1 } else { 3 };
    let mut last = None;
    for _ in 0..tries {
        let p = match port {
            Some(p) => {
                if TcpListener::bind(("127.0.0.1", p)).is_err() {
                    return Err(UserError::usage(format!(
                        "port {p} is in use on 127.0.0.1: choose another with --port, or \
                         leave --port out to use a free one"
                    )));
                }
                p
            }
            None => free_port()?,
        };
        match start_on(&java, settings, p) {
            Ok(s) => return Ok(s),
            Err(StartError::PortTaken) if port.is_some() => {
                return Err(UserError::usage(format!("port {p} is in use on 127.0.0.1")));
            }
            Err(StartError::PortTaken) => last = Some(format!("port {p} was taken meanwhile")),
            Err(StartError::Failed(m)) => return Err(UserError::usage(m)),
        }
    }
    Err(UserError::usage(format!(
        "the ZooKeeper server did not start: {}",
        last.unwrap_or_default()
    )))
}

pub(crate) fn free_port() -> Result<u16, UserError> {
    TcpListener::bind(("127.0.0.1", 0))
        .and_then(|l| l.local_addr())
        .map(|a| a.port())
        .map_err(|e| UserError::usage(format!("no free port on 127.0.0.1: {e}")))
}

enum StartError {
    PortTaken,
    Failed(String),
}

fn start_on(java: &Path, settings: Settings, port: u16) -> Result<PrivateServer, StartError> {
    let tick_ms = settings.tick_ms;
    let dir = tempfile::Builder::new()
        .prefix("locklab-zk-")
        .tempdir()
        .map_err(|e| StartError::Failed(format!("cannot make a data directory: {e}")))?
        .keep();
    let cfg = dir.join("zoo.cfg");
    std::fs::write(&cfg, config(&dir, port, tick_ms)).map_err(|e| {
        let _ = std::fs::remove_dir_all(&dir);
        StartError::Failed(format!("cannot write the server's configuration: {e}"))
    })?;
    let classpath = format!("{CONF}:{JAR}");
    let containers = settings
        .container_check_ms
        .map(|ms| format!("-Dznode.container.checkIntervalMs={}", ms.max(1)));
    let mut command: Vec<&OsStr> = vec![java.as_os_str()];
    command.extend(containers.iter().map(|c| OsStr::new(c.as_str())));
    command.extend::<[&OsStr; 4]>([
        "-cp".as_ref(),
        classpath.as_ref(),
        "org.apache.zookeeper.server.ZooKeeperServerMain".as_ref(),
        cfg.as_os_str(),
    ]);
    let guard = super::guard::spawn("locklab-zk", &dir, &command, None).map_err(|e| {
        let _ = std::fs::remove_dir_all(&dir);
        StartError::Failed(format!("cannot start the ZooKeeper server: {e}"))
    })?;
    let server = PrivateServer {
        addr: SocketAddr::from(([127, 0, 0, 1], port)),
        tick_ms,
        container_check_ms: settings.container_check_ms,
        dir: dir.clone(),
        _guard: guard,
    };
    let started = Instant::now();
    loop {
        if srvr(server.addr).is_ok_and(|s| s.contains("Zookeeper version")) {
            return Ok(server);
        }
        let exited = dir.join("exited").exists();
        if exited || started.elapsed() > START_TIMEOUT {
            let log = std::fs::read_to_string(dir.join("server.log")).unwrap_or_default();
            drop(server);
            if log.contains("Address already in use") {
                return Err(StartError::PortTaken);
            }
            let tail: Vec<&str> = log.lines().filter(|l| !l.starts_with("SLF4J")).collect();
            let tail = tail[tail.len().saturating_sub(3)..].join("\n  ");
            let how = if exited {
                "stopped as it started".to_string()
            } else {
                format!("did not answer within {} s", START_TIMEOUT.as_secs())
            };
            return Err(StartError::Failed(format!(
                "the ZooKeeper server did not start: it {how}{}",
                if tail.is_empty() {
                    String::new()
                } else {
                    format!(":\n  {tail}")
                }
            )));
        }
        std::thread::sleep(Duration::from_millis(50));
    }
}

/// The server a run uses: `--zk` if given, else a private one with these settings.
pub fn open(zk: Option<&str>, port: Option<u16>, settings: Settings) -> Result<Server, UserError> {
    match zk {
        Some(spec) => external(spec),
        None => start_with(settings, port).map(Server::Private),
    }
}

/// Checks that `--zk HOST:PORT` answers as a ZooKeeper server: to `srvr`, and to a session
/// handshake within the limits every live connection keeps ([`net`]).
pub fn external(spec: &str) -> Result<Server, UserError> {
    let shown = crate::text::shown(spec);
    let (host, port) = spec
        .rsplit_once(':')
        .and_then(|(h, p)| Some((h, p.parse::<u16>().ok().filter(|p| *p > 0)?)))
        .filter(|(h, _)| !h.is_empty())
        .ok_or_else(|| {
            UserError::usage(format!(
                "--zk {shown}: expected HOST:PORT of a ZooKeeper server, such as 127.0.0.1:2181"
            ))
        })?;
    let host = host.trim_start_matches('[').trim_end_matches(']');
    let addr = (host, port)
        .to_socket_addrs()
        .map_err(|e| UserError::usage(format!("--zk {shown}: cannot resolve the host ({e})")))?
        .next()
        .ok_or_else(|| UserError::usage(format!("--zk {shown}: the host has no address")))?;
    let refused = |e: NetError| UserError::usage(format!("--zk {shown}: {e}"));
    match srvr(addr) {
        Ok(s) if s.contains("Zookeeper version") => {}
        Ok(_) => return Err(refused(NetError::NotZooKeeper)),
        Err(e) => return Err(refused(e)),
    }
    net::handshake(addr).map_err(refused)?;
    Ok(Server::External { addr })
}

/// Sends the four-letter word `srvr` and returns the answer.
pub fn srvr(addr: SocketAddr) -> Result<String, NetError> {
    net::four_letter(addr, "srvr")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_bad_zk_address_is_a_usage_error_naming_the_option() {
        let e = external("not an address").err().expect("refused");
        assert_eq!(e.status, 2);
        assert!(e.message.contains("--zk not an address"), "{}", e.message);
        assert!(e.message.contains("expected HOST:PORT"), "{}", e.message);
    }

    #[test]
    fn a_name_that_does_not_resolve_is_named_as_such_not_as_a_bad_format() {
        let e = external("host.invalid:2181").err().expect("refused");
        assert_eq!(e.status, 2);
        assert!(
            e.message.contains("cannot resolve the host"),
            "{}",
            e.message
        );
        assert!(!e.message.contains("expected HOST:PORT"), "{}", e.message);
    }

    #[test]
    fn nothing_listening_is_reported_as_unreachable() {
        let port = free_port().expect("a free port");
        let e = external(&format!("127.0.0.1:{port}"))
            .err()
            .expect("refused");
        assert_eq!(e.status, 2);
        assert!(e.message.contains("cannot reach"), "{}", e.message);
    }

    #[test]
    fn the_private_server_is_configured_for_loopback_alone() {
        let cfg = config(Path::new("/tmp/d"), 2181, 500);
        let lines: Vec<&str> = cfg.lines().collect();
        assert!(lines.contains(&"clientPortAddress=127.0.0.1"), "{cfg}");
        assert!(lines.contains(&"clientPort=2181"), "{cfg}");
        assert!(lines.contains(&"tickTime=500"), "{cfg}");
    }
}
