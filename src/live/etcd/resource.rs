//! Where a holder's writes go, as the preset's guard says: a store outside etcd that takes
//! every write (a key in etcd written plainly), one that refuses a token lower than the
//! highest it took (the fenced row on PostgreSQL when it is installed, else a key in etcd
//! written by a Txn that compares the recorded token); both take a token equal to the highest
//! they took, so a holder may write more than once, or the data key in etcd written by a
//! Txn on the lock key's create revision.

use std::net::SocketAddr;
use std::time::Duration;

use serde::{Deserialize, Serialize};

use super::gateway::Gateway;

/// The data's key in etcd.
pub const DATA_KEY: &str = "/locklab/data";
/// The highest token the etcd-kept fenced store has taken.
pub const TOKEN_KEY: &str = "/locklab/data-token";
/// The fenced row's name on PostgreSQL.
pub const ROW: &str = "etcd";

/// The fenced row's write for a lock whose holder writes more than once with its token: taken
/// when the token is at least the highest the row has seen (the row's own write wants it
/// higher, for locks whose holders write once).
const WRITE_AT_LEAST: &str = "UPDATE fenced SET token = $1, writer = $2, writes = writes + 1 \
                              WHERE name = $3 AND token <= $1";

/// A resource as a client is told where it is.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum ResourceAt {
    /// A key in etcd, written without a guard.
    Plain { etcd: SocketAddr },
    /// A key in etcd that takes a write only with a token above the highest it took.
    TokenInEtcd { etcd: SocketAddr },
    /// The fenced row on PostgreSQL, in database `db`.
    Postgres { addr: SocketAddr, db: String },
    /// The data key in etcd, written by a Txn on the lock key's create revision.
    Txn { etcd: SocketAddr },
}

impl ResourceAt {
    /// Whether the store itself checks tokens or the lock key (a stale write can be refused).
    pub fn fenced(&self) -> bool {
        !matches!(self, ResourceAt::Plain { .. })
    }
}

/// An open resource.
pub enum Resource {
    Etcd(Gateway, ResourceAt),
    Postgres(Option<Box<postgres::Client>>, SocketAddr, String, String),
}

const TIMEOUT: Duration = Duration::from_secs(2);

impl Resource {
    /// Opens `at` for the client `writer`; a connection that fails is tried again at each write.
    pub fn open(at: &ResourceAt, writer: &str) -> Resource {
        match at {
            ResourceAt::Postgres { addr, db } => {
                Resource::Postgres(None, *addr, db.clone(), writer.to_string())
            }
            ResourceAt::Plain { etcd }
            | ResourceAt::TokenInEtcd { etcd }
            | ResourceAt::Txn { etcd } => Resource::Etcd(Gateway::new(*etcd, TIMEOUT), at.clone()),
        }
    }

    /// Writes `value` with `token` (the create revision of `lock_key`); whether it was taken.
    pub fn write(&mut self, lock_key: &str, token: i64, value: &str) -> Result<bool, String> {
        match self {
            Resource::Etcd(g, ResourceAt::Plain { .. }) => {
                g.put(DATA_KEY, value, None).map(|_| true).map_err(|e| e.0)
            }
            Resource::Etcd(g, ResourceAt::TokenInEtcd { .. }) => g
                .put_if_token_above(TOKEN_KEY, token, DATA_KEY, value)
                .map_err(|e| e.0),
            Resource::Etcd(g, _) => g
                .put_if_holder(lock_key, token, DATA_KEY, value)
                .map_err(|e| e.0),
            Resource::Postgres(conn, addr, db, writer) => {
                if conn.is_none() {
                    let spec = format!(
                        "host={} port={} user=locklab dbname={db} connect_timeout=2",
                        addr.ip(),
                        addr.port()
                    );
                    *conn = Some(Box::new(
                        postgres::Client::connect(&spec, postgres::NoTls)
                            .map_err(|e| e.to_string())?,
                    ));
                }
                let c = conn.as_mut().ok_or("no connection")?;
                let n = c
                    .execute(
                        WRITE_AT_LEAST,
                        &[&token, &format!("{writer}:{value}"), &ROW],
                    )
                    .map_err(|e| e.to_string())?;
                Ok(n == 1)
            }
        }
    }
}
