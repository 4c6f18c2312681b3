//! Regressions for `--zk` servers that misbehave: fake servers on 127.0.0.1 that trickle bytes,
//! announce a huge packet or never answer. Each must be refused with a clear message and status
//! 2 within the limits of `locklab::live::net`, never hang or allocate what the server asks.

use std::io::{Read, Write};
use std::net::{TcpListener, TcpStream};
use std::process::{Command, Output};
use std::time::{Duration, Instant};

use locklab::live::net;

/// How a fake server treats each connection.
#[derive(Clone, Copy)]
enum Fake {
    /// One byte of a plausible answer every 300 ms, for as long as the peer listens.
    Trickle,
    /// Answers `srvr` as ZooKeeper does, then announces a 2 GB packet to a session request
    /// and sends zeros after it.
    HugeFrame,
    /// Accepts and reads, never answers (an HTTP server waiting for a request line).
    Silent,
    /// Answers `srvr` and the first session handshake as ZooKeeper does, then announces a 2 GB
    /// packet on every later connection: past the probe, into the run's own sessions.
    HugeFrameLater,
}

/// Serves `fake` on a free loopback port for 30 s; returns the port.
fn serve(fake: Fake) -> u16 {
    let l = TcpListener::bind(("127.0.0.1", 0)).expect("a loopback port");
    let port = l.local_addr().expect("an address").port();
    l.set_nonblocking(true).expect("non-blocking accept");
    std::thread::spawn(move || {
        let until = Instant::now() + Duration::from_secs(30);
        let mut sessions = 0;
        while Instant::now() < until {
            match l.accept() {
                Ok((s, _)) => {
                    let fake = match fake {
                        Fake::HugeFrameLater => {
                            let mut peek = [0u8; 4];
                            let _ = s.set_nonblocking(false);
                            let _ = s.set_read_timeout(Some(Duration::from_millis(500)));
                            let is_srvr =
                                s.peek(&mut peek).is_ok_and(|n| n == 4 && &peek == b"srvr");
                            if !is_srvr {
                                sessions += 1;
                            }
                            if is_srvr || sessions > 1 {
                                Fake::HugeFrame
                            } else {
                                Fake::HugeFrameLater
                            }
                        }
                        other => other,
                    };
                    std::thread::spawn(move || connection(fake, s, until));
                }
                Err(_) => std::thread::sleep(Duration::from_millis(10)),
            }
        }
    });
    port
}

fn connection(fake: Fake, mut s: TcpStream, until: Instant) {
    let _ = s.set_nonblocking(false);
    let _ = s.set_read_timeout(Some(Duration::from_millis(200)));
    let mut first = [0u8; 4];
    let got = s.read(&mut first).unwrap_or(0);
    match fake {
        Fake::Trickle => {
            for b in b"Zookeeper version: 3.8.0-trickle\n".iter().cycle() {
                if Instant::now() > until || s.write_all(&[*b]).is_err() {
                    return;
                }
                std::thread::sleep(Duration::from_millis(300));
            }
        }
        Fake::HugeFrame => {
            if got == 4 && &first == b"srvr" {
                let _ = s
                    .write_all(b"Zookeeper version: 3.8.0-fake, built on 2026\nMode: standalone\n");
                return;
            }
            if s.write_all(&0x7fff_fff0u32.to_be_bytes()).is_err() {
                return;
            }
            let zeros = vec![0u8; 64 * 1024];
            while Instant::now() < until && s.write_all(&zeros).is_ok() {}
        }
        Fake::HugeFrameLater => {
            // The first session: a ZooKeeper connect response (version, timeout, session id,
            // a 16-byte password, read-only off).
            let mut rest = [0u8; 45];
            let _ = s.read(&mut rest);
            let mut body = Vec::new();
            body.extend_from_slice(&0i32.to_be_bytes());
            body.extend_from_slice(&4000i32.to_be_bytes());
            body.extend_from_slice(&1i64.to_be_bytes());
            body.extend_from_slice(&16i32.to_be_bytes());
            body.extend_from_slice(&[0u8; 16]);
            body.push(0);
            let _ = s.write_all(&(body.len() as u32).to_be_bytes());
            let _ = s.write_all(&body);
            let _ = s.read(&mut rest);
        }
        Fake::Silent => {
            let mut sink = [0u8; 1024];
            while Instant::now() < until {
                match s.read(&mut sink) {
                    Ok(0) => return,
                    _ => continue,
                }
            }
        }
    }
}

/// `locklab live herd` against the fake, with how long it took.
fn live_against(port: u16) -> (Output, Duration) {
    let started = Instant::now();
    let out = Command::new(env!("CARGO_BIN_EXE_locklab"))
        .args([
            "--lang",
            "en",
            "live",
            "herd",
            "--waiters",
            "2",
            "--fanout",
            "1",
        ])
        .arg("--zk")
        .arg(format!("127.0.0.1:{port}"))
        .output()
        .expect("locklab runs");
    (out, started.elapsed())
}

/// The probe's deadline plus the time to start a process and connect, with room for a busy
/// machine.
fn within_limits() -> Duration {
    net::PROBE_DEADLINE * 2 + net::CONNECT_TIMEOUT + Duration::from_secs(2)
}

#[test]
fn a_zk_server_that_trickles_bytes_is_refused_within_the_probe_deadline() {
    let (out, took) = live_against(serve(Fake::Trickle));
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(err.contains("too slowly"), "{err}");
    assert!(took < within_limits(), "refused after {took:?}");
}

#[test]
fn a_zk_server_that_announces_a_huge_packet_is_refused_before_reading_it() {
    let (out, took) = live_against(serve(Fake::HugeFrame));
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(
        err.contains(&format!("announced a {}-byte packet", 0x7fff_fff0u32)),
        "{err}"
    );
    assert!(err.contains(&net::MAX_FRAME.to_string()), "{err}");
    assert!(took < within_limits(), "refused after {took:?}");
}

#[test]
fn a_huge_packet_after_the_probe_ends_the_run_without_the_allocation() {
    // Under a 1 GB address-space limit a 2 GB buffer would abort (status 134).
    let port = serve(Fake::HugeFrameLater);
    let started = Instant::now();
    let out = Command::new("sh")
        .arg("-c")
        .arg(
            "ulimit -v 1000000; exec \"$0\" --lang en live herd --waiters 2 --fanout 1 --zk \"$1\"",
        )
        .arg(env!("CARGO_BIN_EXE_locklab"))
        .arg(format!("127.0.0.1:{port}"))
        .output()
        .expect("locklab runs");
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(
        out.status.code(),
        Some(1),
        "a failed run, not an abort: {err}"
    );
    assert!(err.contains("failed connecting"), "{err}");
    let limit = net::SESSION_TIMEOUT_TO_OPEN + within_limits();
    assert!(
        started.elapsed() < limit,
        "ended after {:?}",
        started.elapsed()
    );
}

#[test]
fn a_zk_address_where_nothing_answers_says_so_not_an_os_error() {
    let (out, took) = live_against(serve(Fake::Silent));
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(err.contains("did not answer within"), "{err}");
    assert!(!err.contains("os error"), "{err}");
    assert!(took < within_limits(), "refused after {took:?}");
}

#[test]
fn a_zk_host_that_does_not_resolve_is_not_called_a_bad_format() {
    let out = Command::new(env!("CARGO_BIN_EXE_locklab"))
        .args([
            "--lang",
            "en",
            "live",
            "herd",
            "--waiters",
            "2",
            "--fanout",
            "1",
            "--zk",
        ])
        .arg("host.invalid:2181")
        .output()
        .expect("locklab runs");
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(err.contains("cannot resolve the host"), "{err}");
    assert!(!err.contains("expected HOST:PORT"), "{err}");
}
