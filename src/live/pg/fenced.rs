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
        client.batch_execute(CREATE).map_err(failed)?;
        client
            .execute(
                "INSERT INTO fenced (name) VALUES ($1) ON CONFLICT (name) DO NOTHING",
                &[&name],
            )
            .map_err(failed)?;
        Ok(Self {
            client,
            name: name.to_string(),
        })
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
