//! A private PostgreSQL server: Debian's `postgresql` binaries, a cluster made with `initdb` in
//! a temporary directory, listening on 127.0.0.1 alone (its Unix socket in that directory), on
//! a free port, under the same [guard](crate::live::guard) as the ZooKeeper server, so the
//! server and its directory are gone when locklab is.
//!
//! PostgreSQL refuses to run as root. Run as root, locklab runs `initdb` and the server as the
//! system user `postgres` that Debian's package creates (or `nobody` where there is none), and
//! hands the temporary directory to that user.

use std::ffi::OsStr;
use std::net::SocketAddr;
use std::os::unix::fs::MetadataExt;
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use postgres::{Client, NoTls};

use crate::live::UserError;
use crate::live::guard::{self, Guarded, RunAs};

/// Where Debian's `postgresql` package puts the server's programs, newest first.
const BIN_DIRS: [&str; 3] = [
    "/usr/lib/postgresql/17/bin",
    "/usr/lib/postgresql/16/bin",
    "/usr/lib/postgresql/15/bin",
];

/// The role and database locklab's clients use.
const USER: &str = "locklab";

/// How long the server may take to accept a connection after it was started.
const START_TIMEOUT: Duration = Duration::from_secs(30);

/// The directory holding `initdb` and `postgres`, if the package is installed.
pub fn installed() -> Result<PathBuf, UserError> {
    BIN_DIRS
        .iter()
        .map(PathBuf::from)
        .find(|d| d.join("initdb").is_file() && d.join("postgres").is_file())
        .ok_or_else(|| {
            UserError::usage(format!(
                "no PostgreSQL server found (looked in {}). Install Debian's server with \
                 `sudo apt-get install -y postgresql`",
                BIN_DIRS.join(", ")
            ))
        })
}

/// A running private server.
pub struct Database {
    pub addr: SocketAddr,
    pub dir: PathBuf,
    pub version: String,
    /// Dropping this stops the server and removes the directory.
    _guard: Guarded,
}

impl Database {
    /// Tells the server to stop now, without waiting: dropping waits for it.
    pub fn stop_soon(&mut self) {
        self._guard.stop_soon();
    }

    /// A new connection to the server's default database.
    pub fn connect(&self) -> Result<Client, UserError> {
        connect(self.addr, "postgres")
    }

    /// A new connection to the database `name`.
    pub fn connect_to(&self, name: &str) -> Result<Client, UserError> {
        connect(self.addr, name)
    }

    /// Makes a database of its own for one run, so runs can share the server at once; returns
    /// its name.
    pub fn create(&self, what: &str) -> Result<String, UserError> {
        let nanos = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos());
        let name = format!("{what}_{}_{nanos}", std::process::id());
        self.connect()?
            .batch_execute(&format!("CREATE DATABASE {name}"))
            .map_err(|e| UserError::failed(format!("cannot make a database on PostgreSQL: {e}")))?;
        Ok(name)
    }

    /// Removes a run's database, best effort (the whole cluster goes with the server anyway).
    pub fn drop_database(&self, name: &str) {
        if let Ok(mut c) = self.connect() {
            let _ = c.batch_execute(&format!("DROP DATABASE IF EXISTS {name} WITH (FORCE)"));
        }
    }
}

pub(crate) fn connect(addr: SocketAddr, dbname: &str) -> Result<Client, UserError> {
    let spec = format!(
        "host={} port={} user={USER} dbname={dbname} connect_timeout=5",
        addr.ip(),
        addr.port()
    );
    Client::connect(&spec, NoTls)
        .map_err(|e| UserError::failed(format!("cannot connect to PostgreSQL at {addr}: {e}")))
}

/// Whom to run as: nobody else when locklab is not root; else the package's `postgres` user.
fn run_as() -> Result<Option<RunAs>, UserError> {
    let me = std::fs::metadata("/proc/self")
        .map(|m| m.uid())
        .unwrap_or(0);
    if me != 0 {
        return Ok(None);
    }
    let passwd = std::fs::read_to_string("/etc/passwd").unwrap_or_default();
    let user = |name: &str| {
        passwd.lines().find_map(|l| {
            let f: Vec<&str> = l.split(':').collect();
            (f.len() > 3 && f[0] == name).then(|| {
                Some(RunAs {
                    uid: f[2].parse().ok()?,
                    gid: f[3].parse().ok()?,
                })
            })?
        })
    };
    user("postgres")
        .or_else(|| user("nobody"))
        .map(Some)
        .ok_or_else(|| {
            UserError::usage(
                "PostgreSQL does not run as root and there is no user `postgres` or `nobody` to \
             run it as: create one with `useradd --system postgres`",
            )
        })
}

/// Starts a private server on a free loopback port.
pub fn start() -> Result<Database, UserError> {
    let bin = installed()?;
    let run_as = run_as()?;
    let mut last = String::new();
    // A free port can be taken between looking and binding: try a few.
    for _ in 0..3 {
        let port = crate::live::server::free_port()?;
        match start_on(&bin, run_as, port) {
            Ok(db) => return Ok(db),
            Err(StartError::PortTaken) => last = format!("port {port} was taken meanwhile"),
            Err(StartError::Failed(m)) => return Err(UserError::usage(m)),
        }
    }
    Err(UserError::usage(format!(
        "the PostgreSQL server did not start: {last}"
    )))
}

enum StartError {
    PortTaken,
    Failed(String),
}

fn failed(what: &str, e: impl std::fmt::Display) -> StartError {
    StartError::Failed(format!("cannot start PostgreSQL: {what}: {e}"))
}

fn start_on(bin: &Path, run_as: Option<RunAs>, port: u16) -> Result<Database, StartError> {
    let dir = tempfile::Builder::new()
        .prefix("locklab-pg-")
        .tempdir()
        .map_err(|e| failed("cannot make a directory", e))?
        .keep();
    let fail = |what: &str, e: &dyn std::fmt::Display| {
        let _ = std::fs::remove_dir_all(&dir);
        failed(what, e)
    };
    if let Some(u) = run_as {
        std::os::unix::fs::chown(&dir, Some(u.uid), Some(u.gid))
            .map_err(|e| fail("cannot hand its directory to the server's user", &e))?;
    }
    let data = dir.join("data");
    let mut initdb = Command::new(bin.join("initdb"));
    initdb
        .arg("-D")
        .arg(&data)
        .args(["-A", "trust", "-U", USER, "-E", "UTF8", "--locale=C"])
        .args(["--no-sync", "--no-instructions"])
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .process_group(0);
    if let Some(u) = run_as {
        initdb.uid(u.uid).gid(u.gid);
    }
    let out = initdb.output().map_err(|e| fail("cannot run initdb", &e))?;
    if !out.status.success() {
        let err = String::from_utf8_lossy(&out.stderr).trim().to_string();
        return Err(fail("initdb failed", &err));
    }
    let postgres = bin.join("postgres");
    let port_s = port.to_string();
    // Loopback alone, the socket in the run's directory, and no durability a lab run needs.
    let command: Vec<&OsStr> = vec![
        postgres.as_os_str(),
        "-D".as_ref(),
        data.as_os_str(),
        "-h".as_ref(),
        "127.0.0.1".as_ref(),
        "-k".as_ref(),
        dir.as_os_str(),
        "-p".as_ref(),
        port_s.as_ref(),
        "-c".as_ref(),
        "fsync=off".as_ref(),
        "-c".as_ref(),
        "synchronous_commit=off".as_ref(),
        "-c".as_ref(),
        "full_page_writes=off".as_ref(),
        "-c".as_ref(),
        "max_connections=30".as_ref(),
    ];
    let guard = guard::spawn("locklab-pg", &dir, &command, run_as)
        .map_err(|e| fail("cannot start the server", &e))?;
    let addr = SocketAddr::from(([127, 0, 0, 1], port));
    let started = Instant::now();
    loop {
        if let Ok(mut c) = connect(addr, "postgres") {
            let version = c
                .query_one("SHOW server_version", &[])
                .ok()
                .and_then(|r| r.try_get::<_, String>(0).ok())
                .map(|v| format!("PostgreSQL {v}"))
                .unwrap_or_default();
            return Ok(Database {
                addr,
                dir,
                version,
                _guard: guard,
            });
        }
        let exited = dir.join("exited").exists();
        if exited || started.elapsed() > START_TIMEOUT {
            let log = std::fs::read_to_string(dir.join("server.log")).unwrap_or_default();
            drop(guard);
            if log.contains("already in use") {
                return Err(StartError::PortTaken);
            }
            let tail: Vec<&str> = log.lines().collect();
            let tail = tail[tail.len().saturating_sub(3)..].join("\n  ");
            let how = if exited {
                "it stopped as it started".to_string()
            } else {
                format!("it did not answer within {} s", START_TIMEOUT.as_secs())
            };
            return Err(StartError::Failed(format!(
                "the PostgreSQL server did not start: {how}{}",
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
