//! Every connection the live lab makes to a ZooKeeper server, and the limits they all share in
//! one place: how long a connect may take, how long a read may wait, the whole time a probe may
//! take, how long opening a session may take, and the largest packet accepted. A server that is slow, silent or hostile gets a clear
//! refusal within these limits rather than a hang or a huge allocation.

use std::io::{ErrorKind, Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::time::{Duration, Instant};

/// How long opening a TCP connection or a ZooKeeper session may take.
pub const CONNECT_TIMEOUT: Duration = Duration::from_secs(2);
/// How long one read or write may wait.
pub const IO_TIMEOUT: Duration = Duration::from_millis(1500);
/// The whole time a probe (`srvr`, the session handshake) may take, however the bytes trickle.
pub const PROBE_DEADLINE: Duration = Duration::from_secs(3);
/// The largest packet accepted: ZooKeeper's own default for `jute.maxbuffer` (0xfffff bytes).
pub const MAX_FRAME: usize = 0xfffff;
/// The most a four-letter word's answer may hold.
pub const MAX_WORD_ANSWER: usize = 64 * 1024;

/// Why a server did not answer as a ZooKeeper server should.
#[derive(Debug)]
pub enum NetError {
    /// No connection: refused, unreachable, or not within [`CONNECT_TIMEOUT`].
    Unreachable(std::io::Error),
    /// Connected, but nothing came back within [`IO_TIMEOUT`].
    Silent,
    /// Bytes came, but not a whole answer within [`PROBE_DEADLINE`].
    Slow { bytes: usize },
    /// A packet announced larger than [`MAX_FRAME`].
    TooLarge { len: u64 },
    /// The connection closed or broke before a whole answer.
    Closed(Option<std::io::Error>),
    /// A whole answer, but not one a ZooKeeper server gives.
    NotZooKeeper,
}

impl std::fmt::Display for NetError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            NetError::Unreachable(e) => write!(f, "cannot reach a ZooKeeper server there ({e})"),
            NetError::Silent => write!(
                f,
                "something accepts connections there but did not answer within {:.1} s",
                IO_TIMEOUT.as_secs_f64()
            ),
            NetError::Slow { bytes } => write!(
                f,
                "something answers there too slowly: {bytes} bytes in {} s, not a whole answer",
                PROBE_DEADLINE.as_secs()
            ),
            NetError::TooLarge { len } => write!(
                f,
                "the server announced a {len}-byte packet; locklab accepts at most {MAX_FRAME}"
            ),
            NetError::Closed(Some(e)) => write!(f, "the connection broke before an answer ({e})"),
            NetError::Closed(None) => write!(f, "the connection closed before an answer"),
            NetError::NotZooKeeper => write!(
                f,
                "something answers there, but not as a ZooKeeper server (no answer to `srvr`; \
                 its 4lw.commands.whitelist must include srvr)"
            ),
        }
    }
}

impl std::error::Error for NetError {}

/// A TCP connection with the shared timeouts set.
pub fn connect(addr: SocketAddr) -> Result<TcpStream, NetError> {
    let s = TcpStream::connect_timeout(&addr, CONNECT_TIMEOUT).map_err(NetError::Unreachable)?;
    s.set_read_timeout(Some(IO_TIMEOUT))
        .and_then(|()| s.set_write_timeout(Some(IO_TIMEOUT)))
        .map_err(NetError::Unreachable)?;
    Ok(s)
}

/// Reads into `buf` until `done` says it holds a whole answer, the peer closes, or the deadline
/// passes. Returns the bytes read and whether the peer closed.
fn read_until(
    s: &mut TcpStream,
    buf: &mut Vec<u8>,
    cap: usize,
    deadline: Instant,
    done: impl Fn(&[u8]) -> Result<bool, NetError>,
) -> Result<bool, NetError> {
    let mut chunk = [0u8; 4096];
    loop {
        if done(buf)? {
            return Ok(false);
        }
        let left = deadline.saturating_duration_since(Instant::now());
        if left.is_zero() {
            return Err(if buf.is_empty() {
                NetError::Silent
            } else {
                NetError::Slow { bytes: buf.len() }
            });
        }
        let _ = s.set_read_timeout(Some(left.min(IO_TIMEOUT)));
        let room = cap.saturating_sub(buf.len()).min(chunk.len());
        if room == 0 {
            return Ok(false);
        }
        match s.read(&mut chunk[..room]) {
            Ok(0) => return Ok(true),
            Ok(n) => buf.extend_from_slice(&chunk[..n]),
            Err(e) if matches!(e.kind(), ErrorKind::WouldBlock | ErrorKind::TimedOut) => {
                if buf.is_empty() {
                    return Err(NetError::Silent);
                }
            }
            Err(e) if e.kind() == ErrorKind::Interrupted => {}
            Err(e) => return Err(NetError::Closed(Some(e))),
        }
    }
}

/// Sends a four-letter word such as `srvr` and returns the answer, read until the server closes
/// (as it does after one), within [`PROBE_DEADLINE`] and [`MAX_WORD_ANSWER`].
pub fn four_letter(addr: SocketAddr, word: &str) -> Result<String, NetError> {
    let deadline = Instant::now() + PROBE_DEADLINE;
    let mut s = connect(addr)?;
    s.write_all(word.as_bytes())
        .map_err(|e| NetError::Closed(Some(e)))?;
    let mut buf = Vec::new();
    read_until(&mut s, &mut buf, MAX_WORD_ANSWER, deadline, |_| Ok(false))?;
    Ok(String::from_utf8_lossy(&buf).into_owned())
}

/// The length a frame's four-byte prefix announces, refused past [`MAX_FRAME`].
pub fn frame_len(prefix: [u8; 4]) -> Result<usize, NetError> {
    let len = u32::from_be_bytes(prefix);
    match usize::try_from(len) {
        Ok(n) if n <= MAX_FRAME => Ok(n),
        _ => Err(NetError::TooLarge {
            len: u64::from(len),
        }),
    }
}

/// Whether `buf` starts with a whole frame (checking its announced length first).
fn whole_frame(buf: &[u8]) -> Result<bool, NetError> {
    let Some(prefix) = buf.get(..4) else {
        return Ok(false);
    };
    let len = frame_len([prefix[0], prefix[1], prefix[2], prefix[3]])?;
    Ok(buf.len() >= 4 + len)
}

/// Reads one length-prefixed frame (the body, without its prefix) within the deadline, refusing
/// one announced larger than [`MAX_FRAME`] before reading it.
pub fn read_frame(s: &mut TcpStream, deadline: Instant) -> Result<Vec<u8>, NetError> {
    let mut buf = Vec::new();
    let closed = read_until(s, &mut buf, 4 + MAX_FRAME, deadline, whole_frame)?;
    if !whole_frame(&buf)? {
        return Err(if closed {
            NetError::Closed(None)
        } else {
            NetError::Slow { bytes: buf.len() }
        });
    }
    let len = buf
        .len()
        .min(4 + frame_len([buf[0], buf[1], buf[2], buf[3]])?);
    Ok(buf[4..len].to_vec())
}

/// ZooKeeper's session request: protocol version, last zxid seen, timeout, session id, an
/// empty 16-byte password, read-only off.
fn connect_request(timeout_ms: i32) -> Vec<u8> {
    let mut body = Vec::with_capacity(45);
    body.extend_from_slice(&0i32.to_be_bytes());
    body.extend_from_slice(&0i64.to_be_bytes());
    body.extend_from_slice(&timeout_ms.to_be_bytes());
    body.extend_from_slice(&0i64.to_be_bytes());
    body.extend_from_slice(&16i32.to_be_bytes());
    body.extend_from_slice(&[0u8; 16]);
    body.push(0);
    let mut frame = (body.len() as u32).to_be_bytes().to_vec();
    frame.extend_from_slice(&body);
    frame
}

/// The smallest session answer: version, timeout, session id, password length (then the
/// password and the read-only flag, which older servers leave out).
const CONNECT_RESPONSE_MIN: usize = 4 + 4 + 8 + 4;

/// Opens and closes one session with the frame limit and deadlines above, so a server that
/// answers `srvr` but then sends a huge or endless packet is refused before any session of the
/// run is opened on it.
pub fn handshake(addr: SocketAddr) -> Result<(), NetError> {
    let deadline = Instant::now() + PROBE_DEADLINE;
    let mut s = connect(addr)?;
    s.write_all(&connect_request(4000))
        .map_err(|e| NetError::Closed(Some(e)))?;
    let body = read_frame(&mut s, deadline)?;
    if body.len() < CONNECT_RESPONSE_MIN {
        return Err(NetError::NotZooKeeper);
    }
    // closeSession (op -11), so the probe's session ends now rather than at its timeout.
    let mut close = 8u32.to_be_bytes().to_vec();
    close.extend_from_slice(&1i32.to_be_bytes());
    close.extend_from_slice(&(-11i32).to_be_bytes());
    let _ = s.write_all(&close);
    Ok(())
}

/// How long opening one real session may take in all, retries included.
pub const SESSION_TIMEOUT_TO_OPEN: Duration = Duration::from_secs(10);

/// A ZooKeeper client connector. Its idle timeout stays the client library's (2/5 of the session
/// timeout), as the model's clients assume; what a run adds is [`SESSION_TIMEOUT_TO_OPEN`].
pub fn connector() -> zookeeper_client::Connector {
    zookeeper_client::Client::connector()
}

/// Opens a session with `connector` on `addr`, giving up after [`SESSION_TIMEOUT_TO_OPEN`].
pub async fn open(
    connector: zookeeper_client::Connector,
    addr: &str,
) -> Result<zookeeper_client::Client, zookeeper_client::Error> {
    tokio::time::timeout(SESSION_TIMEOUT_TO_OPEN, connector.connect(addr))
        .await
        .unwrap_or(Err(zookeeper_client::Error::Timeout))
}

/// A session on `addr` with the library's session timeout.
pub async fn session(addr: &str) -> Result<zookeeper_client::Client, zookeeper_client::Error> {
    open(connector(), addr).await
}

/// Follows a byte stream's frames, refusing one announced past [`MAX_FRAME`] before its body.
#[derive(Debug, Default)]
pub struct FrameCheck {
    prefix: [u8; 4],
    have: usize,
    remaining: usize,
    /// The first four bytes of the frame being read (a request's xid), as far as they came.
    head: [u8; 4],
    head_have: usize,
}

impl FrameCheck {
    /// Takes the next bytes of the stream, in order, however they were split.
    pub fn check(&mut self, bytes: &[u8]) -> Result<(), NetError> {
        self.follow(bytes, |_| {})
    }

    /// As [`FrameCheck::check`], calling `head` with the first four bytes of each frame once
    /// they have come (for a request, its xid).
    pub fn follow(&mut self, mut bytes: &[u8], mut head: impl FnMut(i32)) -> Result<(), NetError> {
        while let Some((&first, rest)) = bytes.split_first() {
            if self.remaining > 0 {
                let k = self.remaining.min(bytes.len());
                for &b in &bytes[..k] {
                    if self.head_have < 4 {
                        self.head[self.head_have] = b;
                        self.head_have += 1;
                        if self.head_have == 4 {
                            head(i32::from_be_bytes(self.head));
                        }
                    } else {
                        break;
                    }
                }
                self.remaining -= k;
                bytes = &bytes[k..];
                continue;
            }
            self.prefix[self.have] = first;
            self.have += 1;
            bytes = rest;
            if self.have == 4 {
                self.remaining = frame_len(self.prefix)?;
                self.have = 0;
                self.head_have = 0;
            }
        }
        Ok(())
    }
}

/// Reads what is there, waiting for something to be.
pub(super) async fn read_some(s: &tokio::net::TcpStream, buf: &mut [u8]) -> std::io::Result<usize> {
    loop {
        s.readable().await?;
        match s.try_read(buf) {
            Ok(n) => return Ok(n),
            Err(e) if e.kind() == ErrorKind::WouldBlock => continue,
            Err(e) => return Err(e),
        }
    }
}

/// Writes all of `bytes`.
pub(super) async fn write_all(s: &tokio::net::TcpStream, mut bytes: &[u8]) -> std::io::Result<()> {
    while !bytes.is_empty() {
        s.writable().await?;
        match s.try_write(bytes) {
            Ok(n) => bytes = &bytes[n..],
            Err(e) if e.kind() == ErrorKind::WouldBlock => continue,
            Err(e) => return Err(e),
        }
    }
    Ok(())
}

/// A loopback relay to `upstream` that passes every byte unchanged and closes a connection on
/// which the server announces a packet past [`MAX_FRAME`], so the client library never sets
/// aside room for it. Serves on the current runtime for as long as it runs; sessions that do
/// not go through a fault proxy (which checks the same) connect here.
pub async fn guard(upstream: SocketAddr) -> std::io::Result<SocketAddr> {
    guard_pinged(upstream, || {}).await
}

/// The ping's xid in ZooKeeper's protocol.
pub const XID_PING: i32 = -2;

/// As [`guard`], calling `pinged` for every ping the client's library sends on its own: the
/// server hears a session on every packet, those included, and only the relay sees them.
pub async fn guard_pinged(
    upstream: SocketAddr,
    pinged: impl Fn() + Send + Sync + 'static,
) -> std::io::Result<SocketAddr> {
    let listener = tokio::net::TcpListener::bind(("127.0.0.1", 0)).await?;
    let addr = listener.local_addr()?;
    let pinged = std::sync::Arc::new(pinged);
    tokio::spawn(async move {
        while let Ok((client, _)) = listener.accept().await {
            let pinged = std::sync::Arc::clone(&pinged);
            tokio::spawn(async move {
                let _ = relay(client, upstream, &*pinged).await;
            });
        }
    });
    Ok(addr)
}

async fn relay(
    client: tokio::net::TcpStream,
    upstream: SocketAddr,
    pinged: &(dyn Fn() + Send + Sync),
) -> std::io::Result<()> {
    let server = tokio::time::timeout(CONNECT_TIMEOUT, tokio::net::TcpStream::connect(upstream))
        .await
        .map_err(|_| std::io::Error::from(ErrorKind::TimedOut))??;
    let _ = (client.set_nodelay(true), server.set_nodelay(true));
    let (mut frames, mut requests) = (FrameCheck::default(), FrameCheck::default());
    // The first frame a client sends is its session handshake, which has no xid.
    let mut handshake = true;
    let (mut up, mut down) = (vec![0u8; 16 * 1024], vec![0u8; 16 * 1024]);
    loop {
        tokio::select! {
            r = read_some(&client, &mut up) => match r? {
                0 => return Ok(()),
                n => {
                    let mut seen = Vec::new();
                    requests
                        .follow(&up[..n], |xid| seen.push(xid))
                        .map_err(|e| std::io::Error::new(ErrorKind::InvalidData, e))?;
                    write_all(&server, &up[..n]).await?;
                    for xid in seen {
                        if !std::mem::take(&mut handshake) && xid == XID_PING {
                            pinged();
                        }
                    }
                }
            },
            r = read_some(&server, &mut down) => match r? {
                0 => return Ok(()),
                n => {
                    frames
                        .check(&down[..n])
                        .map_err(|e| std::io::Error::new(ErrorKind::InvalidData, e))?;
                    write_all(&client, &down[..n]).await?;
                }
            },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_frame_of_jute_maxbuffer_is_accepted_and_one_byte_more_refused() {
        assert_eq!(frame_len(0xfffffu32.to_be_bytes()).ok(), Some(0xfffff));
        assert!(matches!(
            frame_len(0x100000u32.to_be_bytes()),
            Err(NetError::TooLarge { len: 0x100000 })
        ));
        assert!(matches!(
            frame_len(0x7fff_fff0u32.to_be_bytes()),
            Err(NetError::TooLarge { .. })
        ));
    }

    #[test]
    fn the_frame_check_names_each_frames_first_four_bytes_however_the_stream_is_split() {
        let mut stream = Vec::new();
        let bodies: [Vec<u8>; 4] = [
            vec![0, 0, 0, 0, 9, 9],
            (-2i32).to_be_bytes().to_vec(),
            b"ab".to_vec(),
            [7i32.to_be_bytes(), [1, 2, 3, 4]].concat(),
        ];
        for body in &bodies {
            stream.extend_from_slice(&(body.len() as u32).to_be_bytes());
            stream.extend_from_slice(body);
        }
        // A frame shorter than four bytes names nothing.
        let want = vec![0, -2, 7];
        for split in 0..stream.len() {
            let (mut f, mut heads) = (FrameCheck::default(), Vec::new());
            f.follow(&stream[..split], |x| heads.push(x))
                .expect("a frame");
            f.follow(&stream[split..], |x| heads.push(x))
                .expect("a frame");
            assert_eq!(heads, want, "split at {split}");
        }
    }

    #[test]
    fn the_frame_check_follows_frames_split_anywhere_and_refuses_a_huge_one() {
        let mut stream = Vec::new();
        for body in [&b"abc"[..], b"", &[7u8; 300][..]] {
            stream.extend_from_slice(&(body.len() as u32).to_be_bytes());
            stream.extend_from_slice(body);
        }
        for split in 0..stream.len() {
            let mut f = FrameCheck::default();
            assert!(f.check(&stream[..split]).is_ok());
            assert!(f.check(&stream[split..]).is_ok(), "split at {split}");
        }
        let mut f = FrameCheck::default();
        assert!(f.check(&stream).is_ok());
        // A prefix that arrives one byte at a time is still read as one length.
        let huge = 0x7fff_fff0u32.to_be_bytes();
        assert!(f.check(&huge[..2]).is_ok());
        assert!(matches!(
            f.check(&huge[2..]),
            Err(NetError::TooLarge { .. })
        ));
    }

    #[test]
    fn the_session_request_is_zookeepers_connect_layout() {
        // 4 version + 8 zxid + 4 timeout + 8 session + 4 + 16 password + 1 read-only = 45.
        let f = connect_request(4000);
        assert_eq!(&f[..4], &45u32.to_be_bytes());
        assert_eq!(f.len(), 49);
        assert_eq!(&f[16..20], &4000i32.to_be_bytes());
    }
}
