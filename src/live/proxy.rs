//! A loopback TCP proxy between one client and the server, which is how a live run makes
//! network faults for real: it can go silent for a while (a cut), drop the reply to one create
//! and break the connection (a lost create response), or die with its client (a crash).
//!
//! It reads ZooKeeper's framing (a four-byte length before every packet) so it can tell a
//! create's reply from the rest and record the pings the client library sends on its own.

use std::net::SocketAddr;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use tokio::net::{TcpListener, TcpStream};

use super::log::Log;
use super::net::{XID_PING, read_some, write_all};
use crate::engine::msg::{ActorMsg, ZkOp, ZkResult};
use crate::engine::trace::{EventKind, Fate};
use crate::engine::world::ActorId;
use crate::engine::zk::tree::SessionId;

/// How often a connection looks at the fault switches.
const POLL: Duration = Duration::from_millis(5);

const OP_CREATE: i32 = 1;
const OP_CREATE2: i32 = 15;

#[derive(Debug, Default)]
struct Switches {
    /// Silent: nothing is passed on, in either direction, until this is cleared.
    cut: bool,
    /// The client crashed: every connection is closed and new ones refused.
    dead: bool,
    /// Drop the reply to the next create and break the connection.
    drop_next_create: bool,
}

/// The fault switches of one client's proxy.
#[derive(Debug, Default)]
pub struct Faults {
    s: Mutex<Switches>,
}

impl Faults {
    fn with<T>(&self, f: impl FnOnce(&mut Switches) -> T) -> T {
        let mut g = self.s.lock().unwrap_or_else(|e| e.into_inner());
        f(&mut g)
    }
    pub fn set_cut(&self, on: bool) {
        self.with(|s| s.cut = on);
    }
    pub fn kill(&self) {
        self.with(|s| s.dead = true);
    }
    pub fn drop_next_create(&self) {
        self.with(|s| s.drop_next_create = true);
    }
    fn cut(&self) -> bool {
        self.with(|s| s.cut)
    }
    fn dead(&self) -> bool {
        self.with(|s| s.dead)
    }
}

/// One client's proxy to one server of an ensemble: the server's own switch, which silences
/// every client's link to it at once, and how many of this client's connections are open.
#[derive(Debug, Default)]
pub struct Link {
    pub server_cut: Arc<AtomicBool>,
    open: AtomicUsize,
}

impl Link {
    pub fn new(server_cut: Arc<AtomicBool>) -> Self {
        Self {
            server_cut,
            open: AtomicUsize::new(0),
        }
    }
    /// Whether the client is connected to this server now.
    pub fn in_use(&self) -> bool {
        self.open.load(Ordering::Relaxed) > 0
    }
}

/// Counts a connection as open for as long as it lives.
struct Open(Option<Arc<Link>>);

impl Drop for Open {
    fn drop(&mut self) {
        if let Some(l) = &self.0 {
            l.open.fetch_sub(1, Ordering::Relaxed);
        }
    }
}

/// Who the proxy stands between.
#[derive(Clone)]
pub struct Ends {
    pub upstream: SocketAddr,
    pub client: ActorId,
    pub log: Arc<Log>,
    pub faults: Arc<Faults>,
    /// In an ensemble: this client's link to the upstream server.
    pub link: Option<Arc<Link>>,
}

impl Ends {
    /// Silent: the client's own network is cut, or the server's.
    fn silent(&self) -> bool {
        self.faults.cut()
            || self
                .link
                .as_ref()
                .is_some_and(|l| l.server_cut.load(Ordering::Relaxed))
    }
}

/// Binds a proxy on a free loopback port; serve it with [`serve`].
pub fn bind() -> std::io::Result<(std::net::TcpListener, SocketAddr)> {
    let l = std::net::TcpListener::bind(("127.0.0.1", 0))?;
    l.set_nonblocking(true)?;
    let addr = l.local_addr()?;
    Ok((l, addr))
}

/// Accepts connections for as long as the runtime runs.
pub async fn serve(listener: std::net::TcpListener, ends: Ends) {
    let Ok(listener) = TcpListener::from_std(listener) else {
        return;
    };
    while let Ok((client, _)) = listener.accept().await {
        let ends = ends.clone();
        tokio::spawn(async move {
            let _ = connection(client, ends).await;
        });
    }
}

/// Packets split out of a byte stream.
#[derive(Default)]
struct Frames {
    buf: Vec<u8>,
    /// The first packet of a connection is the handshake, without a header.
    seen_handshake: bool,
}

impl Frames {
    fn push(&mut self, bytes: &[u8]) {
        self.buf.extend_from_slice(bytes);
    }

    /// The next whole packet, length prefix included; an error for one announced larger than
    /// [`MAX_FRAME`](super::net::MAX_FRAME), before its bytes are waited for.
    fn next(&mut self) -> Result<Option<Vec<u8>>, super::net::NetError> {
        let Some(prefix) = self.buf.get(..4) else {
            return Ok(None);
        };
        let len = super::net::frame_len([prefix[0], prefix[1], prefix[2], prefix[3]])?;
        if self.buf.len() < 4 + len {
            return Ok(None);
        }
        Ok(Some(self.buf.drain(..4 + len).collect()))
    }
}

fn i32_at(b: &[u8], at: usize) -> Option<i32> {
    Some(i32::from_be_bytes(b.get(at..at + 4)?.try_into().ok()?))
}

fn i64_at(b: &[u8], at: usize) -> Option<i64> {
    Some(i64::from_be_bytes(b.get(at..at + 8)?.try_into().ok()?))
}

/// A create reply's node name and czxid: the path follows the 16-byte header, then the stat.
fn created_node(frame: &[u8]) -> Option<(String, u64)> {
    let len = i32_at(frame, 20)? as usize;
    let path = std::str::from_utf8(frame.get(24..24 + len)?).ok()?;
    let czxid = i64_at(frame, 24 + len)?;
    let name = path.rsplit('/').next()?.to_string();
    Some((name, czxid as u64))
}

async fn connection(client: TcpStream, ends: Ends) -> std::io::Result<()> {
    let session = SessionId(u32::from(ends.client.0));
    // A connection made during a cut waits, silent, like the rest of the network.
    while ends.silent() && !ends.faults.dead() {
        tokio::time::sleep(POLL).await;
    }
    if ends.faults.dead() {
        return Ok(());
    }
    let server = tokio::time::timeout(
        super::net::CONNECT_TIMEOUT,
        TcpStream::connect(ends.upstream),
    )
    .await
    .map_err(|_| std::io::Error::from(std::io::ErrorKind::TimedOut))??;
    if let Some(l) = &ends.link {
        l.open.fetch_add(1, Ordering::Relaxed);
    }
    let _open = Open(ends.link.clone());
    let (mut up, mut down) = (Frames::default(), Frames::default());
    let (mut to_server, mut to_client): (Vec<Vec<u8>>, Vec<Vec<u8>>) = (Vec::new(), Vec::new());
    let mut drop_xid: Option<i32> = None;
    let (mut b1, mut b2) = (vec![0u8; 64 * 1024], vec![0u8; 64 * 1024]);
    let (mut client_open, mut server_open) = (true, true);
    loop {
        tokio::select! {
            r = read_some(&client, &mut b1), if client_open => match r {
                Ok(0) | Err(_) => client_open = false,
                Ok(n) => up.push(&b1[..n]),
            },
            r = read_some(&server, &mut b2), if server_open => match r {
                Ok(0) | Err(_) => server_open = false,
                Ok(n) => down.push(&b2[..n]),
            },
            _ = tokio::time::sleep(POLL) => {}
        }
        if ends.faults.dead() {
            return Ok(());
        }
        // A packet past the limit ends the connection, as ZooKeeper's own client does.
        let too_large = |e| std::io::Error::new(std::io::ErrorKind::InvalidData, e);
        while let Some(f) = up.next().map_err(too_large)? {
            if !up.seen_handshake {
                up.seen_handshake = true;
            } else {
                let (xid, op) = (i32_at(&f, 4).unwrap_or(0), i32_at(&f, 8).unwrap_or(0));
                if (op == OP_CREATE || op == OP_CREATE2)
                    && ends
                        .faults
                        .with(|s| std::mem::take(&mut s.drop_next_create))
                {
                    drop_xid = Some(xid);
                }
            }
            to_server.push(f);
        }
        while let Some(f) = down.next().map_err(too_large)? {
            if !down.seen_handshake {
                down.seen_handshake = true;
            }
            to_client.push(f);
        }
        if ends.silent() {
            continue;
        }
        for f in to_server.drain(..) {
            if i32_at(&f, 4) == Some(XID_PING) && up.seen_handshake {
                let op = ZkOp::Ping;
                let msg = ActorMsg::ZkRequest {
                    session,
                    xid: 0,
                    op,
                };
                ends.log.arrived(ends.client, ends.log.service, msg);
            }
            write_all(&server, &f).await?;
        }
        for f in to_client.drain(..) {
            let xid = i32_at(&f, 4);
            if xid.is_some() && xid == drop_xid {
                // The service applied the create; its answer never reaches the client.
                let zxid = i64_at(&f, 8).unwrap_or(0) as u64;
                if let Some((name, czxid)) = created_node(&f) {
                    let node = ends.log.node(&name);
                    let result = ZkResult::Created { node, czxid };
                    let msg = ActorMsg::ZkReply {
                        xid: 0,
                        zxid,
                        result,
                    };
                    let id = ends.log.sent(ends.log.service, ends.client, msg);
                    ends.log.fate(id, Fate::Dropped);
                    ends.log.service_created(&name);
                }
                ends.log.event(ends.client, EventKind::ConnectionReset);
                return Ok(());
            }
            if xid == Some(XID_PING) {
                let zxid = i64_at(&f, 8).unwrap_or(0) as u64;
                let msg = ActorMsg::ZkReply {
                    xid: 0,
                    zxid,
                    result: ZkResult::Pong,
                };
                ends.log.arrived(ends.log.service, ends.client, msg);
            }
            write_all(&client, &f).await?;
        }
        if !client_open || !server_open {
            // One side hung up and the other has had everything: close both.
            return Ok(());
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn frames_split_on_their_length_prefix() {
        let mut f = Frames::default();
        f.push(&[0, 0, 0, 2, 7]);
        assert_eq!(
            f.next().ok(),
            Some(None),
            "half a packet waits for the rest"
        );
        f.push(&[8, 0, 0, 0, 1, 9]);
        assert_eq!(f.next().ok(), Some(Some(vec![0, 0, 0, 2, 7, 8])));
        assert_eq!(f.next().ok(), Some(Some(vec![0, 0, 0, 1, 9])));
        assert_eq!(f.next().ok(), Some(None));
    }

    #[test]
    fn a_packet_announced_past_the_limit_is_refused_before_its_bytes_arrive() {
        let mut f = Frames::default();
        f.push(&0x7fff_fff0u32.to_be_bytes());
        assert!(f.next().is_err(), "a 2 GB packet is not waited for");
    }

    #[test]
    fn a_create_reply_names_its_node_and_czxid() {
        let path = b"/run/lock/0000002a-lock-0000000018";
        let mut frame = vec![0u8; 4];
        frame.extend_from_slice(&5i32.to_be_bytes()); // xid
        frame.extend_from_slice(&0x68i64.to_be_bytes()); // zxid
        frame.extend_from_slice(&0i32.to_be_bytes()); // err
        frame.extend_from_slice(&(path.len() as i32).to_be_bytes());
        frame.extend_from_slice(path);
        frame.extend_from_slice(&0x68i64.to_be_bytes()); // stat: czxid first
        let len = (frame.len() - 4) as u32;
        frame[..4].copy_from_slice(&len.to_be_bytes());
        assert_eq!(
            created_node(&frame),
            Some(("0000002a-lock-0000000018".to_string(), 0x68))
        );
    }
}
