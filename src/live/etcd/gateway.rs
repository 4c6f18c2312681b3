//! etcd's v3 API through its JSON gateway: plain HTTP POSTs of JSON to the client port (keys and
//! values base64, 64-bit numbers as strings), so locklab needs no gRPC code and no protoc. Every
//! request has a timeout; a watch reads the gateway's stream of JSON lines until the event it
//! waits for or its deadline.
//!
//! Only what a lock needs: leases (grant, keep-alive, time to live, revoke), put, range,
//! delete, and the transactions `concurrency.Mutex` makes (create my key if it has no create
//! revision yet; write only while the lock key's create revision is still the token).

use std::io::{BufRead, BufReader, Read};
use std::net::SocketAddr;
use std::time::{Duration, Instant};

use base64::Engine as _;
use base64::engine::general_purpose::STANDARD;
use serde_json::{Value, json};

/// The most one line of a watch stream may hold: a lock's events are a few hundred bytes.
const MAX_LINE: u64 = 64 * 1024;

/// A request the gateway did not answer as it should.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GatewayError(pub String);

impl std::fmt::Display for GatewayError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for GatewayError {}

type Result<T> = std::result::Result<T, GatewayError>;

/// A key as etcd keeps it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Kv {
    pub key: String,
    pub value: String,
    pub create_revision: i64,
    pub mod_revision: i64,
    /// The lease the key is attached to (0: none).
    pub lease: i64,
}

/// A lease as granted.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Lease {
    pub id: i64,
    pub ttl_s: i64,
}

/// One client of one etcd member.
#[derive(Clone)]
pub struct Gateway {
    base: String,
    agent: ureq::Agent,
}

fn b64(s: &str) -> String {
    STANDARD.encode(s.as_bytes())
}

fn unb64(v: &Value) -> String {
    let bytes = STANDARD
        .decode(v.as_str().unwrap_or_default())
        .unwrap_or_default();
    String::from_utf8_lossy(&bytes).into_owned()
}

/// A 64-bit field: the gateway writes them as strings and leaves out zeros.
fn num(v: &Value) -> i64 {
    match v {
        Value::String(s) => s.parse().unwrap_or(0),
        Value::Number(n) => n.as_i64().unwrap_or(0),
        _ => 0,
    }
}

fn kv(v: &Value) -> Kv {
    Kv {
        key: unb64(&v["key"]),
        value: unb64(&v["value"]),
        create_revision: num(&v["create_revision"]),
        mod_revision: num(&v["mod_revision"]),
        lease: num(&v["lease"]),
    }
}

fn kvs(v: &Value) -> Vec<Kv> {
    v["kvs"]
        .as_array()
        .map(|a| a.iter().map(kv).collect())
        .unwrap_or_default()
}

/// A token as the etcd-kept store records it: twenty digits, so text order is number order.
pub fn padded(token: i64) -> String {
    format!("{:020}", token.max(0))
}

/// The end of the range of keys that start with `prefix` (etcd's `WithPrefix`).
fn prefix_end(prefix: &str) -> String {
    let mut b = prefix.as_bytes().to_vec();
    while let Some(last) = b.pop() {
        if last < 0xff {
            b.push(last + 1);
            return STANDARD.encode(&b);
        }
    }
    // Every byte 0xff: to the end of the keyspace.
    STANDARD.encode([0u8])
}

impl Gateway {
    /// A client of the member at `addr`; `timeout` bounds every request but a watch's.
    pub fn new(addr: SocketAddr, timeout: Duration) -> Self {
        let agent = ureq::Agent::config_builder()
            .timeout_global(Some(timeout))
            .http_status_as_error(false)
            .build()
            .into();
        Self {
            base: format!("http://{addr}"),
            agent,
        }
    }

    fn post(&self, path: &str, body: &Value) -> Result<Value> {
        let mut resp = self
            .agent
            .post(format!("{}{path}", self.base))
            .header("content-type", "application/json")
            .send(body.to_string())
            .map_err(|e| GatewayError(format!("{path}: {e}")))?;
        let status = resp.status().as_u16();
        let text = resp
            .body_mut()
            .read_to_string()
            .map_err(|e| GatewayError(format!("{path}: {e}")))?;
        let v: Value = serde_json::from_str(&text)
            .map_err(|e| GatewayError(format!("{path}: not JSON ({e}): {text}")))?;
        if status != 200 {
            let why = v["error"]
                .as_str()
                .or(v["message"].as_str())
                .unwrap_or(&text);
            return Err(GatewayError(format!("{path}: {status} {why}")));
        }
        Ok(v)
    }

    /// Whether the member says it is healthy (it has a leader).
    pub fn healthy(&self) -> bool {
        let Ok(mut r) = self.agent.get(format!("{}/health", self.base)).call() else {
            return false;
        };
        r.body_mut()
            .read_to_string()
            .is_ok_and(|s| s.contains("\"true\""))
    }

    /// The server's version, such as `3.4.23`.
    pub fn version(&self) -> Result<String> {
        let mut r = self
            .agent
            .get(format!("{}/version", self.base))
            .call()
            .map_err(|e| GatewayError(format!("/version: {e}")))?;
        let text = r
            .body_mut()
            .read_to_string()
            .map_err(|e| GatewayError(format!("/version: {e}")))?;
        let v: Value = serde_json::from_str(&text).map_err(|e| GatewayError(e.to_string()))?;
        Ok(v["etcdserver"].as_str().unwrap_or_default().to_string())
    }

    pub fn lease_grant(&self, ttl_s: i64) -> Result<Lease> {
        let v = self.post("/v3/lease/grant", &json!({ "TTL": ttl_s }))?;
        if let Some(e) = v["error"].as_str().filter(|e| !e.is_empty()) {
            return Err(GatewayError(format!("lease grant: {e}")));
        }
        Ok(Lease {
            id: num(&v["ID"]),
            ttl_s: num(&v["TTL"]),
        })
    }

    /// One keep-alive: the TTL the lease has again, or `None` when etcd no longer has it (it
    /// expired or was revoked).
    pub fn lease_keepalive(&self, id: i64) -> Result<Option<i64>> {
        let v = self.post("/v3/lease/keepalive", &json!({ "ID": id.to_string() }))?;
        let ttl = num(&v["result"]["TTL"]);
        Ok((ttl > 0).then_some(ttl))
    }

    /// The seconds the lease has left and its keys, or `None` when etcd no longer has it.
    pub fn lease_time_to_live(&self, id: i64) -> Result<Option<(i64, Vec<String>)>> {
        let v = self.post(
            "/v3/lease/timetolive",
            &json!({ "ID": id.to_string(), "keys": true }),
        )?;
        let ttl = num(&v["TTL"]);
        let keys = v["keys"]
            .as_array()
            .map(|a| a.iter().map(unb64).collect())
            .unwrap_or_default();
        Ok((ttl >= 0).then_some((ttl, keys)))
    }

    /// Revokes the lease: every key attached to it is deleted in the same step.
    pub fn lease_revoke(&self, id: i64) -> Result<()> {
        self.post("/v3/lease/revoke", &json!({ "ID": id.to_string() }))
            .map(|_| ())
    }

    /// Puts `key`, attached to `lease` if one is given; the revision of the put.
    pub fn put(&self, key: &str, value: &str, lease: Option<i64>) -> Result<i64> {
        let mut body = json!({ "key": b64(key), "value": b64(value) });
        if let Some(l) = lease {
            body["lease"] = json!(l.to_string());
        }
        let v = self.post("/v3/kv/put", &body)?;
        Ok(num(&v["header"]["revision"]))
    }

    /// The key, if etcd has it.
    pub fn get(&self, key: &str) -> Result<Option<Kv>> {
        let v = self.post("/v3/kv/range", &json!({ "key": b64(key) }))?;
        Ok(kvs(&v).into_iter().next())
    }

    /// Every key under `prefix`, oldest creation first, and the store's revision.
    pub fn range_prefix(&self, prefix: &str) -> Result<(Vec<Kv>, i64)> {
        let v = self.post(
            "/v3/kv/range",
            &json!({
                "key": b64(prefix),
                "range_end": prefix_end(prefix),
                "sort_target": "CREATE",
                "sort_order": "ASCEND",
            }),
        )?;
        Ok((kvs(&v), num(&v["header"]["revision"])))
    }

    /// Deletes the key; how many keys went (0 or 1).
    pub fn delete(&self, key: &str) -> Result<i64> {
        let v = self.post("/v3/kv/deleterange", &json!({ "key": b64(key) }))?;
        Ok(num(&v["deleted"]))
    }

    /// `concurrency.Mutex`'s first step: in one transaction, create `key` attached to `lease`
    /// unless it exists (its create revision is 0), and read the oldest key under `prefix`.
    /// Returns my key's create revision and the owner's (the oldest key's).
    pub fn enqueue(&self, prefix: &str, key: &str, lease: i64) -> Result<(i64, Option<Kv>)> {
        let owner = json!({ "request_range": {
            "key": b64(prefix), "range_end": prefix_end(prefix),
            "sort_target": "CREATE", "sort_order": "ASCEND", "limit": 1 } });
        let body = json!({
            "compare": [{ "target": "CREATE", "result": "EQUAL", "key": b64(key), "create_revision": "0" }],
            "success": [{ "request_put": { "key": b64(key), "value": "", "lease": lease.to_string() } }, owner],
            "failure": [{ "request_range": { "key": b64(key) } }, owner],
        });
        let v = self.post("/v3/kv/txn", &body)?;
        let responses = v["responses"].as_array().cloned().unwrap_or_default();
        let mine = if v["succeeded"].as_bool().unwrap_or(false) {
            num(&v["header"]["revision"])
        } else {
            responses
                .first()
                .map(|r| kvs(&r["response_range"]))
                .and_then(|k| k.first().map(|k| k.create_revision))
                .unwrap_or(0)
        };
        let owner = responses
            .get(1)
            .and_then(|r| kvs(&r["response_range"]).into_iter().next());
        Ok((mine, owner))
    }

    /// The newest key under `prefix` created before revision `before` (my predecessor, as
    /// `waitDeletes` looks for it), and the store's revision at the read.
    pub fn predecessor(&self, prefix: &str, before: i64) -> Result<(Option<Kv>, i64)> {
        let v = self.post(
            "/v3/kv/range",
            &json!({
                "key": b64(prefix), "range_end": prefix_end(prefix),
                "sort_target": "CREATE", "sort_order": "DESCEND", "limit": 1,
                "max_create_revision": (before - 1).to_string(),
            }),
        )?;
        Ok((kvs(&v).into_iter().next(), num(&v["header"]["revision"])))
    }

    /// The guarded write: in one transaction, put `key` only if `lock_key`'s create revision is
    /// still `token` (the lock key is gone or another's: refused). Whether it was written.
    pub fn put_if_holder(
        &self,
        lock_key: &str,
        token: i64,
        key: &str,
        value: &str,
    ) -> Result<bool> {
        let body = json!({
            "compare": [{ "target": "CREATE", "result": "EQUAL", "key": b64(lock_key), "create_revision": token.to_string() }],
            "success": [{ "request_put": { "key": b64(key), "value": b64(value) } }],
        });
        let v = self.post("/v3/kv/txn", &body)?;
        Ok(v["succeeded"].as_bool().unwrap_or(false))
    }

    /// A store that checks tokens, kept in etcd: in one transaction, put `key` and record
    /// `token` in `token_key` only if the token recorded there is not higher (tokens are compared as
    /// zero-padded decimal text, which orders as the numbers do). Whether it was written.
    pub fn put_if_token_above(
        &self,
        token_key: &str,
        token: i64,
        key: &str,
        value: &str,
    ) -> Result<bool> {
        let body = json!({
            "compare": [{ "target": "VALUE", "result": "LESS", "key": b64(token_key), "value": b64(&padded(token + 1)) }],
            "success": [
                { "request_put": { "key": b64(token_key), "value": b64(&padded(token)) } },
                { "request_put": { "key": b64(key), "value": b64(value) } },
            ],
        });
        let v = self.post("/v3/kv/txn", &body)?;
        Ok(v["succeeded"].as_bool().unwrap_or(false))
    }

    /// Waits until `key` is deleted at or after revision `from`, as `waitDelete` does with a
    /// watch; the deletion's revision, or `None` if `deadline` passed first.
    pub fn wait_deleted(&self, key: &str, from: i64, deadline: Instant) -> Result<Option<i64>> {
        let mut deleted = None;
        let watch = json!({ "key": b64(key), "start_revision": from.to_string() });
        self.watch(watch, deadline, |e| {
            if e.deleted {
                deleted = Some(e.kv.mod_revision);
            }
            !e.deleted
        })?;
        Ok(deleted)
    }

    /// Every change to keys under `prefix` from revision `from`, each given to `seen` as it
    /// arrives, until `seen` says stop or `deadline` passes.
    pub fn watch_prefix(
        &self,
        prefix: &str,
        from: i64,
        deadline: Instant,
        seen: impl FnMut(WatchEvent) -> bool,
    ) -> Result<()> {
        let watch = json!({ "key": b64(prefix), "range_end": prefix_end(prefix), "start_revision": from.to_string() });
        self.watch(watch, deadline, seen)
    }

    /// One watch stream: the gateway sends one JSON line per batch of events.
    fn watch(
        &self,
        create: Value,
        deadline: Instant,
        mut seen: impl FnMut(WatchEvent) -> bool,
    ) -> Result<()> {
        let left = deadline.saturating_duration_since(Instant::now());
        if left.is_zero() {
            return Ok(());
        }
        let body = json!({ "create_request": create });
        let resp = self
            .agent
            .post(format!("{}/v3/watch", self.base))
            .config()
            .timeout_global(Some(left))
            .build()
            .header("content-type", "application/json")
            .send(body.to_string())
            .map_err(|e| GatewayError(format!("/v3/watch: {e}")))?;
        let mut lines = BufReader::new(resp.into_body().into_reader());
        let mut line = Vec::new();
        loop {
            line.clear();
            let n = (&mut lines)
                .take(MAX_LINE)
                .read_until(b'\n', &mut line)
                .map_err(|e| e.kind());
            match n {
                Ok(0) => return Err(GatewayError("/v3/watch: the stream ended".into())),
                Ok(_) => {}
                Err(std::io::ErrorKind::TimedOut) => return Ok(()),
                Err(_) if Instant::now() >= deadline => return Ok(()),
                Err(e) => return Err(GatewayError(format!("/v3/watch: {e}"))),
            }
            if line.last() != Some(&b'\n') && line.len() as u64 >= MAX_LINE {
                return Err(GatewayError("/v3/watch: a line too long".into()));
            }
            let v: Value = serde_json::from_slice(&line)
                .map_err(|e| GatewayError(format!("/v3/watch: not JSON ({e})")))?;
            if let Some(e) = v.get("error") {
                return Err(GatewayError(format!("/v3/watch: {e}")));
            }
            for e in v["result"]["events"].as_array().into_iter().flatten() {
                let event = WatchEvent {
                    deleted: e["type"] == "DELETE",
                    kv: kv(&e["kv"]),
                };
                if !seen(event) {
                    return Ok(());
                }
            }
        }
    }
}

/// One change a watch saw: a put (the key as written) or a deletion (its key and the
/// deletion's revision as `mod_revision`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WatchEvent {
    pub deleted: bool,
    pub kv: Kv,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_prefix_range_ends_after_its_last_byte() {
        assert_eq!(STANDARD.decode(prefix_end("lk/")).unwrap(), b"lk0");
        assert_eq!(STANDARD.decode(prefix_end("a\u{7f}")).unwrap(), b"a\x80");
    }

    #[test]
    fn numbers_come_as_strings_numbers_or_not_at_all() {
        assert_eq!(num(&json!("42")), 42);
        assert_eq!(num(&json!(7)), 7);
        assert_eq!(num(&Value::Null), 0);
    }

    #[test]
    fn a_key_is_read_back_from_base64() {
        let k = kv(
            &json!({ "key": "bGsvYQ==", "value": "QQ==", "create_revision": "2", "mod_revision": "2", "lease": "9" }),
        );
        assert_eq!(
            k,
            Kv {
                key: "lk/a".into(),
                value: "A".into(),
                create_revision: 2,
                mod_revision: 2,
                lease: 9
            }
        );
    }
}
