//! A fenced resource on the private PostgreSQL: a row that takes a write only with a fencing
//! token higher than every one it has taken, in one conditional statement, so a live run of any
//! lock (ZooKeeper, Redis, etcd) can show a stale holder's write refused by a real store.

use postgres::Client;

use super::Database;
use crate::live::UserError;

const CREATE: &str = "CREATE TABLE IF NOT EXISTS fenced (name text PRIMARY KEY, \
                      token bigint NOT NULL DEFAULT 0, writer text, writes int NOT NULL DEFAULT 0)";

/// The write: accepted only when its token is higher than the highest the row has seen.
pub const WRITE: &str = "UPDATE fenced SET token = $1, writer = $2, writes = writes + 1 \
                         WHERE name = $3 AND token < $1";

/// A write with no token (Redlock gives none): the row takes it, as any store without a check
/// does.
pub const WRITE_UNFENCED: &str =
    "UPDATE fenced SET writer = $1, writes = writes + 1 WHERE name = $2";

/// One fenced row and a connection of its own.
pub struct FencedRow {
    client: Client,
    name: String,
}

fn failed(e: postgres::Error) -> UserError {
    UserError::failed(format!("the fenced row on PostgreSQL failed: {e}"))
}

impl FencedRow {
    /// Makes the row `name` (token 0, no writer) on `db`.
    pub fn create(db: &Database, name: &str) -> Result<Self, UserError> {
        let mut client = db.connect()?;
        Self::make(&mut client, name)?;
        Ok(Self {
            client,
            name: name.to_string(),
        })
    }

    /// Makes the table and the row `name` (token 0, no writer) through `client`, once.
    pub fn make(client: &mut Client, name: &str) -> Result<(), UserError> {
        client.batch_execute(CREATE).map_err(failed)?;
        client
            .execute(
                "INSERT INTO fenced (name) VALUES ($1) ON CONFLICT (name) DO NOTHING",
                &[&name],
            )
            .map_err(failed)?;
        Ok(())
    }

    /// The row `name` that [`create`](Self::create) made in database `dbname` on the server at
    /// `addr`, on a connection of its own (another process's, such as a Redlock client).
    pub fn open(addr: std::net::SocketAddr, dbname: &str, name: &str) -> Result<Self, UserError> {
        Ok(Self {
            client: super::server::connect(addr, dbname)?,
            name: name.to_string(),
        })
    }

    /// Plans both writes and reads the row once, so that the first write on this connection
    /// costs a statement and not a fresh backend's catalogue lookups (tens of milliseconds on
    /// a busy machine, enough to reorder two writes that arrive close together).
    pub fn warm(&mut self) -> Result<(), UserError> {
        self.client.prepare(WRITE).map_err(failed)?;
        self.client.prepare(WRITE_UNFENCED).map_err(failed)?;
        self.read().map(|_| ())
    }

    /// Writes as `writer` with no token; true when the row took it (it always does while it
    /// exists).
    pub fn write_unfenced(&mut self, writer: &str) -> Result<bool, UserError> {
        let n = self
            .client
            .execute(WRITE_UNFENCED, &[&writer, &self.name])
            .map_err(failed)?;
        Ok(n == 1)
    }

    /// Writes as `writer` with `token`; true when the row took it.
    pub fn write(&mut self, writer: &str, token: u64) -> Result<bool, UserError> {
        let token = i64::try_from(token).unwrap_or(i64::MAX);
        let n = self
            .client
            .execute(WRITE, &[&token, &writer, &self.name])
            .map_err(failed)?;
        Ok(n == 1)
    }

    /// The highest token taken, its writer, and how many writes the row took.
    pub fn read(&mut self) -> Result<(u64, Option<String>, u32), UserError> {
        let r = self
            .client
            .query_one(
                "SELECT token, writer, writes FROM fenced WHERE name = $1",
                &[&self.name],
            )
            .map_err(failed)?;
        let token: i64 = r.get(0);
        let writes: i32 = r.get(2);
        Ok((token as u64, r.get(1), writes as u32))
    }
}
