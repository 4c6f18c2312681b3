//! A private etcd for a live run: Debian's `etcd-server` as a one-member cluster on two
//! loopback ports (clients and peers, both advertised as what they listen on), its data in a
//! temporary directory, under the same shell guard as the other servers
//! ([`Guarded`](crate::live::guard::Guarded)), so it stops and its directory goes when the
//! run ends, however it ends.
//!
//! The member keeps etcd's default raft timing (a 100 ms heartbeat, a 1 s election timeout),
//! so the shortest lease it grants is the model's 2 s (1.5 election timeouts, rounded up to
//! whole seconds); a lone member still elects itself within about 0.4 s of starting.

use std::ffi::OsStr;
use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::time::Duration;

use super::gateway::Gateway;
use crate::engine::trace::etcd::protocol::{MIN_TTL_S, REVOKE_CHECK_MS};
use crate::live::UserError;
use crate::live::guard::{self, Guarded, NotReady};
use crate::live::redis::client::monotonic_ns;
use crate::live::server::{find_on_path, free_port};

/// How long a member may take to answer `/health` after it was started.
const START_TIMEOUT: Duration = Duration::from_secs(15);
/// The prefix of every directory an etcd of locklab's uses.
pub const DIR_PREFIX: &str = "locklab-etcd-";

/// How late after its TTL a lease nobody renews is gone on the server, at most: etcd's
/// lessor looks for expired leases every 500 ms and revokes them through raft, so a lease
/// ends up to that long after its deadline, plus a commit (measured: 73 to 498 ms late over
/// twelve leases; the live lab's guide has the figures).
pub const EXPIRY_LATE_MAX: Duration = Duration::from_millis(REVOKE_CHECK_MS + 100);

/// The key a member's lessor is timed with, outside everything a run watches.
const PROBE_KEY: &str = "/probe/lessor";

/// An instant (CLOCK_MONOTONIC, in ns) at which the member's lessor looked for expired
/// leases. It looks every 500 ms at a phase set when the member started, where the model's
/// leader looks at multiples of 500 ms from the run's start; a run that starts at one of these
/// instants has its leases revoked when the model's are. Found with a lease of the shortest
/// TTL left to expire, its key's deletion seen through a watch: about 2.5 s.
pub fn lessor_tick_ns(g: &Gateway) -> Result<u64, UserError> {
    let failed = |e: super::gateway::GatewayError| UserError::failed(format!("etcd: {e}"));
    let lease = g.lease_grant(MIN_TTL_S as i64).map_err(failed)?;
    let rev = g.put(PROBE_KEY, "", Some(lease.id)).map_err(failed)?;
    let wait = Duration::from_secs(lease.ttl_s.max(1) as u64) + EXPIRY_LATE_MAX * 2;
    match g.wait_deleted(PROBE_KEY, rev, std::time::Instant::now() + wait) {
        Ok(Some(_)) => Ok(monotonic_ns()),
        Ok(None) => Err(UserError::failed(format!(
            "etcd did not revoke a lease of {} s within {} ms",
            lease.ttl_s,
            wait.as_millis()
        ))),
        Err(e) => Err(failed(e)),
    }
}

/// Debian's server binary, on the PATH.
pub fn installed() -> Result<PathBuf, UserError> {
    find_on_path("etcd").ok_or_else(|| {
        UserError::usage(
            "no etcd server found (looked for etcd on the PATH). Install Debian's server \
             with `sudo apt-get install -y etcd-server`",
        )
    })
}

/// A running member.
pub struct Etcd {
    /// The client URL's address: the v3 JSON gateway answers there.
    pub addr: SocketAddr,
    pub peer: SocketAddr,
    /// The server's version, as `/version` gives it.
    pub version: String,
    /// The guard's directory: the log, and the member's data under `data/`.
    pub dir: PathBuf,
    guard: Guarded,
}

impl Etcd {
    /// Starts a member on free ports.
    pub fn start() -> Result<Etcd, UserError> {
        let bin = installed()?;
        let mut last = String::new();
        // A free port can be taken between looking and binding: try a few.
        for _ in 0..3 {
            let (client, peer) = (free_port()?, free_port()?);
            if client == peer {
                continue;
            }
            match start_on(&bin, client, peer) {
                Ok(e) => return Ok(e),
                Err(Some(m)) => return Err(UserError::failed(m)),
                Err(None) => last = format!("port {client} or {peer} was taken meanwhile"),
            }
        }
        Err(UserError::failed(format!(
            "the etcd server did not start: {last}"
        )))
    }

    /// A gateway client to this member with `timeout` on every request.
    pub fn gateway(&self, timeout: Duration) -> Gateway {
        Gateway::new(self.addr, timeout)
    }

    /// Tells the server to stop, without waiting (dropping it waits).
    pub fn stop_soon(&mut self) {
        self.guard.stop_soon();
    }
}

/// The member's command line: one member named `locklab`, every URL on 127.0.0.1.
fn command_line(bin: &Path, dir: &Path, client: u16, peer: u16) -> Vec<std::ffi::OsString> {
    let client_url = format!("http://127.0.0.1:{client}");
    let peer_url = format!("http://127.0.0.1:{peer}");
    let mut args: Vec<std::ffi::OsString> = vec![bin.into()];
    let pairs = [
        ("--name", "locklab".to_string()),
        ("--data-dir", dir.join("data").display().to_string()),
        ("--listen-client-urls", client_url.clone()),
        ("--advertise-client-urls", client_url),
        ("--listen-peer-urls", peer_url.clone()),
        ("--initial-advertise-peer-urls", peer_url.clone()),
        ("--initial-cluster", format!("locklab={peer_url}")),
        ("--initial-cluster-state", "new".to_string()),
    ];
    for (k, v) in pairs {
        args.push(k.into());
        args.push(v.into());
    }
    args
}

/// Where the member keeps its data: memory (`/dev/shm`) where there is such a file system,
/// else the temporary directory. etcd syncs its log to disk before it answers each grant, Txn
/// and put; on a disk shared with other work one sync can take a second, which moves a run's
/// writes against its lease's revoke. The data is thrown away after the run anyway.
fn scratch() -> PathBuf {
    let shm = Path::new("/dev/shm");
    if shm.is_dir() && tempfile::Builder::new().tempdir_in(shm).is_ok() {
        shm.to_path_buf()
    } else {
        std::env::temp_dir()
    }
}

/// `Err(None)`: a port was taken; `Err(Some(why))`: another failure.
fn start_on(bin: &Path, client: u16, peer: u16) -> Result<Etcd, Option<String>> {
    let dir = tempfile::Builder::new()
        .prefix(DIR_PREFIX)
        .tempdir_in(scratch())
        .map_err(|e| Some(format!("cannot make a directory for the etcd server: {e}")))?
        .keep();
    let args = command_line(bin, &dir, client, peer);
    let command: Vec<&OsStr> = args.iter().map(|a| a.as_os_str()).collect();
    let guard = guard::spawn("locklab-etcd", &dir, &command, None).map_err(|e| {
        let _ = std::fs::remove_dir_all(&dir);
        Some(format!("cannot start the etcd server: {e}"))
    })?;
    let addr = SocketAddr::from(([127, 0, 0, 1], client));
    let probe = Gateway::new(addr, Duration::from_millis(300));
    let ready = guard::await_ready(
        guard,
        &dir,
        START_TIMEOUT,
        Duration::from_millis(20),
        || probe.healthy().then(|| probe.version().ok()).flatten(),
        |log| log.contains("address already in use"),
    );
    match ready {
        Ok((version, guard)) => Ok(Etcd {
            addr,
            peer: SocketAddr::from(([127, 0, 0, 1], peer)),
            version,
            dir,
            guard,
        }),
        Err(NotReady::PortTaken) => Err(None),
        Err(NotReady::Failed { exited, tail }) => Err(Some(format!(
            "the etcd server on port {client} did not start ({}):\n  {tail}",
            if exited {
                "it stopped as it started".to_string()
            } else {
                format!("no healthy answer within {} s", START_TIMEOUT.as_secs())
            }
        ))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_url_of_the_member_is_on_loopback() {
        let args = command_line(Path::new("/usr/bin/etcd"), Path::new("/tmp/d"), 2379, 2380);
        let args: Vec<String> = args
            .iter()
            .map(|a| a.to_string_lossy().into_owned())
            .collect();
        let urls: Vec<&String> = args.iter().filter(|a| a.contains("http")).collect();
        assert_eq!(urls.len(), 5, "{args:?}");
        for u in urls {
            assert!(u.contains("http://127.0.0.1:"), "{u}");
        }
        let at = args
            .iter()
            .position(|a| a == "--data-dir")
            .expect("a data dir");
        assert_eq!(args[at + 1], "/tmp/d/data");
    }
}
