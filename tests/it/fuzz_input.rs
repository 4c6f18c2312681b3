//! Fuzz targets for what reaches locklab from outside its files: standard input at plain mode's
//! prompts, the bytes a ZooKeeper server sends to the live lab's probe (a fake server on
//! 127.0.0.1), and server streams split anywhere through the frame guard every session uses. Nothing may panic; every answer accepted must be saved; a reply
//! from the server must be taken or refused within the probe's deadline, and a packet announced
//! past the limit refused without reading it. `PROPTEST_CASES` sets the budget, as in `fuzz`.

use crate::common;

use locklab::i18n::Lang;
use locklab::quiz::item::{self, Rounds};
use locklab::quiz::session::Session;
use proptest::prelude::*;

const NOW: i64 = 1_790_000_000;

fn config(default: u32) -> ProptestConfig {
    ProptestConfig {
        cases: std::env::var("PROPTEST_CASES")
            .ok()
            .and_then(|v| v.parse().ok())
            .unwrap_or(default),
        failure_persistence: None,
        ..ProptestConfig::default()
    }
}

/// Lines a learner (or a script gone wrong) might type: commands, numbers at and past the
/// edges, letters, notes, control characters, CJK, and bytes that are not UTF-8.
fn line() -> impl Strategy<Value = Vec<u8>> {
    prop_oneof![
        prop::sample::select(vec![
            "q",
            "Q",
            "h",
            "n",
            "n a note",
            "1",
            "2",
            "3",
            "4",
            "0",
            "-1",
            "a",
            "b,c",
            "a c",
            "1,2,3",
            "18446744073709551616",
            "",
            " ",
            "\t",
            "是",
            "１",
            "\u{1b}[2J",
        ])
        .prop_map(|s| s.as_bytes().to_vec()),
        prop::collection::vec(any::<u8>(), 0..40),
        "[ -~]{0,30}".prop_map(String::into_bytes),
    ]
}

fn input() -> impl Strategy<Value = Vec<u8>> {
    (prop::collection::vec(line(), 0..30), any::<bool>()).prop_map(|(lines, newline_at_end)| {
        let mut out = lines.join(&b"\n"[..]);
        if newline_at_end {
            out.push(b'\n');
        }
        out
    })
}

proptest! {
    #![proptest_config(config(48))]

    #[test]
    fn plain_mode_takes_any_standard_input_and_saves_every_answer_it_accepts(
        bytes in input(),
        zh in any::<bool>(),
    ) {
        let lang = if zh { Lang::Zh } else { Lang::En };
        let dir = tempfile::tempdir().expect("a data folder");
        let mut store = locklab::progress::store::Store::open(dir.path(), NOW).expect("a store");
        let b = common::bank();
        // One question of each kind the plain prompts differ for.
        let ids = ["fencing.chain-token-and-key", "fencing.what-and-where"];
        let items: Vec<_> = ids
            .iter()
            .filter_map(|id| b.find(id))
            .filter_map(|(d, q)| item::prepare(d, q, 1, lang, &b.presets, Rounds::First).ok())
            .collect();
        prop_assume!(!items.is_empty());
        let n = items.len();
        let mut session = Session::new(items, NOW);
        let mut reader = std::io::Cursor::new(bytes);
        let mut out = Vec::new();
        let mut t = NOW;
        let mut clock = || {
            t += 1;
            t
        };
        let o = locklab::plain::run(
            &mut reader,
            &mut out,
            &mut session,
            &mut store,
            lang,
            &mut clock,
            &Default::default(),
        );
        let o = o.map_err(|e| TestCaseError::fail(format!("plain mode failed: {e}")))?;
        prop_assert!(o.summary.answered as usize <= n);
        prop_assert_eq!(o.unsaved, 0);
        let saved = locklab::progress::store::Store::open(dir.path(), NOW).expect("reopened");
        prop_assert_eq!(saved.data().answers.len(), store.data().answers.len());
    }
}

/// The live lab's probe and frame guard, in a build that has the live lab.
#[cfg(feature = "live")]
mod probe {
    use super::config;

    use std::io::Write;
    use std::net::TcpListener;
    use std::time::{Duration, Instant};

    use locklab::live::net::{self, NetError};
    use proptest::prelude::*;

    /// What a fake server sends: an optional frame length (any value), then bytes, then it closes.
    fn reply() -> impl Strategy<Value = (Option<u32>, Vec<u8>)> {
        (
            prop_oneof![
                Just(None),
                any::<u32>().prop_map(Some),
                (0u32..64).prop_map(Some),
                Just(Some(0x7fff_fff0)),
                Just(Some(net::MAX_FRAME as u32 + 1)),
            ],
            prop::collection::vec(any::<u8>(), 0..300),
        )
    }

    /// Serves one connection: reads the request, sends `bytes`, then closes; returns the address.
    fn fake_server(bytes: Vec<u8>) -> std::net::SocketAddr {
        let l = TcpListener::bind(("127.0.0.1", 0)).expect("a loopback port");
        let addr = l.local_addr().expect("an address");
        std::thread::spawn(move || {
            if let Ok((mut s, _)) = l.accept() {
                // Take the request in first: closing with it unread would reset the connection and
                // could drop the reply before the client reads it.
                let _ = s.set_read_timeout(Some(Duration::from_millis(200)));
                let mut request = [0u8; 64];
                let _ = std::io::Read::read(&mut s, &mut request);
                let _ = s.write_all(&bytes);
                let _ = s.shutdown(std::net::Shutdown::Write);
                std::thread::sleep(Duration::from_millis(20));
            }
        });
        addr
    }

    proptest! {
        #![proptest_config(config(48))]

        #[test]
        fn the_frame_guard_refuses_exactly_the_streams_with_a_packet_past_the_limit(
            frames in prop::collection::vec(
                prop_oneof![
                    (0u32..200).prop_map(|n| (n, n)),
                    Just((net::MAX_FRAME as u32 + 1, 0)),
                    any::<u32>().prop_map(|n| (n, 0)),
                ],
                0..6,
            ),
            cuts in prop::collection::vec(any::<prop::sample::Index>(), 0..8),
        ) {
            // The stream: each frame's announced length, then as many body bytes as given (a frame
            // whose body is short leaves the stream inside it; nothing after it is a new frame).
            let mut stream = Vec::new();
            let mut expected_refusal = false;
            for (announced, body) in &frames {
                stream.extend_from_slice(&announced.to_be_bytes());
                if *announced as usize > net::MAX_FRAME {
                    expected_refusal = true;
                    break;
                }
                stream.extend(std::iter::repeat_n(0u8, *body as usize));
                if body < announced {
                    break;
                }
            }
            // Fed in pieces split at random places, the guard must decide as on the whole.
            let mut at: Vec<usize> = cuts.iter().map(|c| c.index(stream.len() + 1)).collect();
            at.sort_unstable();
            let mut guard = net::FrameCheck::default();
            let mut from = 0;
            let mut refused = false;
            for to in at.into_iter().chain([stream.len()]) {
                if guard.check(&stream[from..to]).is_err() {
                    refused = true;
                    break;
                }
                from = to;
            }
            prop_assert_eq!(refused, expected_refusal);
        }

        #[test]
        fn the_probe_takes_or_refuses_any_server_reply_within_its_deadline(
            (len, body) in reply(),
        ) {
            let mut bytes = len.map(|l| l.to_be_bytes().to_vec()).unwrap_or_default();
            bytes.extend_from_slice(&body);
            let started = Instant::now();
            let handshake = net::handshake(fake_server(bytes.clone()));
            prop_assert!(started.elapsed() < net::PROBE_DEADLINE + Duration::from_secs(1));
            if let (Some(l), Err(e)) = (len, &handshake)
                && l as usize > net::MAX_FRAME
            {
                prop_assert!(matches!(e, NetError::TooLarge { .. }), "{e}");
            }
            if let Some(l) = len
                && l as usize > net::MAX_FRAME
            {
                prop_assert!(handshake.is_err(), "a {l}-byte packet was accepted");
            }
            let started = Instant::now();
            let answer = net::four_letter(fake_server(bytes), "srvr");
            prop_assert!(started.elapsed() < net::PROBE_DEADLINE + Duration::from_secs(1));
            if let Ok(a) = answer {
                prop_assert!(a.len() <= net::MAX_WORD_ANSWER * 3, "{} bytes", a.len());
            }
        }
    }
}
