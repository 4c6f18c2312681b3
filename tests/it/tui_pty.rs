//! End to end: runs the real binary in a pseudo-terminal, reads its screen through a terminal
//! emulator, presses keys, and checks the terminal is restored on exit.

use std::io::{Read, Write};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use portable_pty::{CommandBuilder, PtySize, native_pty_system};

const ROWS: u16 = 30;
const COLS: u16 = 100;

fn nz(n: u16) -> std::num::NonZero<u16> {
    std::num::NonZero::new(n).expect("a terminal size is never zero")
}

struct Screen {
    parser: Arc<Mutex<vt100::Parser>>,
    raw: Arc<Mutex<Vec<u8>>>,
}

impl Screen {
    fn contents(&self) -> String {
        self.parser.lock().expect("parser lock").screen().contents()
    }

    /// Waits until the screen shows `needle`, failing with the screen after a while.
    fn wait_for(&self, needle: &str) {
        let start = Instant::now();
        while start.elapsed() < Duration::from_secs(20) {
            if self.contents().contains(needle) {
                return;
            }
            std::thread::sleep(Duration::from_millis(50));
        }
        panic!("`{needle}` never appeared; screen:\n{}", self.contents());
    }
}

#[test]
fn frozen_screen_in_a_real_terminal() {
    let pty = native_pty_system();
    let pair = pty
        .openpty(PtySize {
            rows: ROWS,
            cols: COLS,
            pixel_width: 0,
            pixel_height: 0,
        })
        .expect("open a pty");
    let mut cmd = CommandBuilder::new(env!("CARGO_BIN_EXE_locklab"));
    cmd.arg("frozen");
    cmd.env("LC_ALL", "C");
    cmd.env("NO_COLOR", "1");
    cmd.env("TERM", "xterm-256color");
    let data = tempfile::tempdir().expect("data dir");
    cmd.env("LOCKLAB_DATA_DIR", data.path());
    let mut child = pair.slave.spawn_command(cmd).expect("spawn locklab");
    drop(pair.slave);

    let mut reader = pair.master.try_clone_reader().expect("pty reader");
    let mut writer = pair.master.take_writer().expect("pty writer");
    let screen = Screen {
        parser: Arc::new(Mutex::new(vt100::Parser::new(nz(ROWS), nz(COLS), 0))),
        raw: Arc::new(Mutex::new(Vec::new())),
    };
    let (parser, raw) = (Arc::clone(&screen.parser), Arc::clone(&screen.raw));
    std::thread::spawn(move || {
        let mut buf = [0u8; 4096];
        while let Ok(n) = reader.read(&mut buf) {
            if n == 0 {
                break;
            }
            parser.lock().expect("parser lock").process(&buf[..n]);
            raw.lock().expect("raw lock").extend_from_slice(&buf[..n]);
        }
    });

    // The outcome stays hidden until the whole run is shown.
    screen.wait_for("future hidden");
    writer.write_all(b"v").expect("press v");
    writer.flush().expect("flush");
    screen.wait_for("stale write rejected");
    writer.write_all(b"f").expect("press f");
    writer.flush().expect("flush");
    screen.wait_for("corruption");
    assert!(screen.contents().contains("fencing: off"));
    // Back to home, then quit from home.
    writer.write_all(b"q").expect("press q");
    writer.flush().expect("flush");
    screen.wait_for("Herd vs chain");
    writer.write_all(b"q").expect("press q");
    writer.flush().expect("flush");

    let start = Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().expect("wait") {
            break status;
        }
        assert!(
            start.elapsed() < Duration::from_secs(20),
            "locklab did not exit"
        );
        std::thread::sleep(Duration::from_millis(50));
    };
    assert!(status.success(), "{status:?}");
    // The reader thread may still be catching up with the last bytes the child wrote: wait for
    // them (a busy machine can take a while) rather than for a fixed time.
    let raw = || String::from_utf8_lossy(&screen.raw.lock().expect("raw lock")).to_string();
    let start = Instant::now();
    while !(raw().contains("\x1b[?1000l") && raw().contains("\x1b[?1049l"))
        && start.elapsed() < Duration::from_secs(5)
    {
        std::thread::sleep(Duration::from_millis(20));
    }
    let raw = raw();
    // Mouse reporting was turned on, then off again, and the alternate screen was left.
    assert!(raw.contains("\x1b[?1000h"), "mouse capture never enabled");
    assert!(raw.contains("\x1b[?1000l"), "mouse capture left on");
    assert!(raw.contains("\x1b[?1049l"), "alternate screen not left");
}

#[test]
fn without_a_terminal_it_points_to_sim() {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_locklab"))
        .env("LC_ALL", "C")
        .output()
        .expect("run locklab");
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("need a terminal") && err.contains("locklab sim"),
        "{err}"
    );
    // The program's name is said once, as the prefix of the message.
    assert_eq!(err.matches("locklab").count(), 2, "{err}");
}

/// The binary in a pseudo-terminal with its own progress folder, in English and without
/// colour: the child, its screen as an emulator reads it, and the keyboard.
fn spawn(
    args: &[&str],
    data: &std::path::Path,
) -> (
    Box<dyn portable_pty::Child + Send + Sync>,
    Screen,
    Box<dyn Write + Send>,
) {
    let pty = native_pty_system();
    let pair = pty
        .openpty(PtySize {
            rows: ROWS,
            cols: COLS,
            pixel_width: 0,
            pixel_height: 0,
        })
        .expect("open a pty");
    let mut cmd = CommandBuilder::new(env!("CARGO_BIN_EXE_locklab"));
    cmd.args(args);
    cmd.env("LC_ALL", "C");
    cmd.env("NO_COLOR", "1");
    cmd.env("TERM", "xterm-256color");
    cmd.env("LOCKLAB_DATA_DIR", data);
    let child = pair.slave.spawn_command(cmd).expect("spawn locklab");
    drop(pair.slave);
    let mut reader = pair.master.try_clone_reader().expect("pty reader");
    let writer = pair.master.take_writer().expect("pty writer");
    let screen = Screen {
        parser: Arc::new(Mutex::new(vt100::Parser::new(nz(ROWS), nz(COLS), 0))),
        raw: Arc::new(Mutex::new(Vec::new())),
    };
    let parser = Arc::clone(&screen.parser);
    std::thread::spawn(move || {
        // Keeps the master open for as long as the child writes.
        let _master = pair.master;
        let mut buf = [0u8; 4096];
        while let Ok(n) = reader.read(&mut buf) {
            if n == 0 {
                break;
            }
            parser.lock().expect("parser lock").process(&buf[..n]);
        }
    });
    (child, screen, writer)
}

/// Kills `child` with SIGKILL: it gets no chance to save anything more.
fn kill_hard(mut child: Box<dyn portable_pty::Child + Send + Sync>) {
    let pid = child.process_id().expect("a pid") as i32;
    // SAFETY: signalling the child this test spawned.
    assert_eq!(unsafe { libc::kill(pid, libc::SIGKILL) }, 0);
    let _ = child.wait();
}

#[test]
fn a_prediction_in_the_presenter_survives_sigkill() {
    let data = tempfile::tempdir().expect("data dir");
    let (child, screen, mut writer) =
        spawn(&["--lang", "en", "present", "frozen-fenced"], data.path());
    let mut press = |keys: &[u8]| {
        writer.write_all(keys).expect("press");
        writer.flush().expect("flush");
    };
    screen.wait_for("1/7");
    // Prediction mode, then on to step 4: who holds at 24 s, in the service's view?
    press(b"P");
    for n in 2..=4 {
        press(b" ");
        screen.wait_for(&format!("{n}/7"));
    }
    screen.wait_for("Predict first");
    press(b"1");
    screen.wait_for("Your prediction:");
    screen.wait_for("saved");
    kill_hard(child);
    let file = data.path().join(locklab::progress::store::FILE_NAME);
    let progress = locklab::progress::store::read_progress(&file).expect("the progress file reads");
    assert_eq!(progress.predictions(), 1, "{:?}", progress.answers);
    let a = &progress.answers[0];
    assert_eq!(a.question.as_str(), "predict/frozen-fenced/4");
    assert_eq!(a.max, 1);
}

#[test]
fn a_prediction_on_the_frozen_holder_plays_to_its_answer_is_saved_and_shown_in_progress() {
    let data = tempfile::tempdir().expect("data dir");
    let (child, screen, mut writer) =
        spawn(&["--lang", "en", "frozen", "frozen-fenced"], data.path());
    let mut press = |keys: &[u8]| {
        writer.write_all(keys).expect("press");
        writer.flush().expect("flush");
    };
    screen.wait_for("frozen-fenced");
    press(b"P");
    screen.wait_for("who holds the lock at 24 s?");
    // A's lease expired at 19 s and the service granted it to B, so B holds at 24 s.
    let shown = screen.contents();
    let at = shown.find(") B").expect("B is offered");
    let number = shown[..at].chars().last().expect("its number");
    press(number.to_string().as_bytes());
    screen.wait_for("cursor 24 / 40 s");
    screen.wait_for("right");
    screen.wait_for("saved");
    // Back home and on to progress, where the prediction is counted and scored.
    press(b"q");
    screen.wait_for("Labs");
    press(b"\x1b[F");
    screen.wait_for("Progress");
    press(b"\r");
    screen.wait_for("predictions made in the lab: 1, 1 right");
    kill_hard(child);
    let file = data.path().join(locklab::progress::store::FILE_NAME);
    let progress = locklab::progress::store::read_progress(&file).expect("the progress file reads");
    assert_eq!(progress.predictions(), 1, "{:?}", progress.answers);
    assert_eq!(progress.predictions_right(), 1);
    let a = &progress.answers[0];
    assert_eq!(a.question.as_str(), "predict/frozen-fenced/holder_at");
    assert_eq!((a.score, a.max), (1, 1));
}
