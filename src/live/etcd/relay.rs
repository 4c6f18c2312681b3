//! A loopback TCP relay between one client and etcd, which is how a live run cuts that client's
//! link for real: while cut it passes nothing on in either direction (the bytes wait, as on a
//! partitioned network, and the client's requests time out), and after the cut it passes them
//! on again. It knows nothing of HTTP, so every request the client makes goes through it alike.

use std::io::{ErrorKind, Read, Write};
use std::net::{Shutdown, SocketAddr, TcpListener, TcpStream};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use crate::live::UserError;

/// How often a stopped direction looks at the switch again.
const POLL: Duration = Duration::from_millis(5);

/// A running relay; dropping it stops taking connections (those open end with their client).
pub struct Relay {
    pub addr: SocketAddr,
    cut: Arc<AtomicBool>,
    stop: Arc<AtomicBool>,
}

impl Relay {
    /// Relays connections on a free loopback port to `to`.
    pub fn start(to: SocketAddr) -> Result<Relay, UserError> {
        let listener = TcpListener::bind(("127.0.0.1", 0))
            .map_err(|e| UserError::failed(format!("no free port on 127.0.0.1: {e}")))?;
        let addr = listener
            .local_addr()
            .map_err(|e| UserError::failed(e.to_string()))?;
        listener
            .set_nonblocking(true)
            .map_err(|e| UserError::failed(e.to_string()))?;
        let cut = Arc::new(AtomicBool::new(false));
        let stop = Arc::new(AtomicBool::new(false));
        let (c, s) = (cut.clone(), stop.clone());
        std::thread::spawn(move || accept(listener, to, c, s));
        Ok(Relay { addr, cut, stop })
    }

    /// Cuts the link (`true`) or mends it.
    pub fn set_cut(&self, on: bool) {
        self.cut.store(on, Ordering::Relaxed);
    }
}

impl Drop for Relay {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
        self.cut.store(false, Ordering::Relaxed);
    }
}

fn accept(listener: TcpListener, to: SocketAddr, cut: Arc<AtomicBool>, stop: Arc<AtomicBool>) {
    while !stop.load(Ordering::Relaxed) {
        match listener.accept() {
            Ok((client, _)) => {
                let Ok(server) = TcpStream::connect_timeout(&to, Duration::from_secs(2)) else {
                    continue;
                };
                let _ = client.set_nonblocking(false);
                for (from, into) in [(&client, &server), (&server, &client)] {
                    let (Ok(from), Ok(into)) = (from.try_clone(), into.try_clone()) else {
                        continue;
                    };
                    let (cut, stop) = (cut.clone(), stop.clone());
                    std::thread::spawn(move || pass(from, into, &cut, &stop));
                }
            }
            Err(e) if e.kind() == ErrorKind::WouldBlock => std::thread::sleep(POLL),
            Err(_) => std::thread::sleep(POLL),
        }
    }
}

/// One direction of one connection: bytes on while the link is up, held while it is cut.
fn pass(mut from: TcpStream, mut into: TcpStream, cut: &AtomicBool, stop: &AtomicBool) {
    let _ = from.set_read_timeout(Some(POLL * 4));
    let mut buf = [0u8; 16 * 1024];
    loop {
        if stop.load(Ordering::Relaxed) {
            break;
        }
        if cut.load(Ordering::Relaxed) {
            std::thread::sleep(POLL);
            continue;
        }
        match from.read(&mut buf) {
            Ok(0) => break,
            Ok(n) => {
                if into.write_all(&buf[..n]).is_err() {
                    break;
                }
            }
            Err(e) if matches!(e.kind(), ErrorKind::WouldBlock | ErrorKind::TimedOut) => {}
            Err(_) => break,
        }
    }
    let _ = into.shutdown(Shutdown::Write);
    let _ = from.shutdown(Shutdown::Read);
}
