//! Predicting in a real terminal, end to end: the binary in a pseudo-terminal asks the frozen
//! holder's question on `P`, a number picks, the run plays to the answer, and the pick is in
//! progress at once: killed with SIGKILL right after, a new run's progress screen counts it.

use std::io::{Read, Write};
use std::path::Path;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use portable_pty::{Child, CommandBuilder, MasterPty, PtySize, native_pty_system};

const ROWS: u16 = 30;
const COLS: u16 = 100;

struct Term {
    child: Box<dyn Child + Send + Sync>,
    parser: Arc<Mutex<vt100::Parser>>,
    keys: Box<dyn Write + Send>,
    _master: Box<dyn MasterPty + Send>,
}

impl Term {
    fn spawn(data: &Path, args: &[&str]) -> Self {
        let pair = native_pty_system()
            .openpty(PtySize {
                rows: ROWS,
                cols: COLS,
                pixel_width: 0,
                pixel_height: 0,
            })
            .expect("open a pty");
        let bin = std::env::var_os("LOCKLAB_TEST_BIN")
            .unwrap_or_else(|| env!("CARGO_BIN_EXE_locklab").into());
        let mut cmd = CommandBuilder::new(bin);
        cmd.args(args);
        cmd.env("LC_ALL", "C");
        cmd.env("NO_COLOR", "1");
        cmd.env("TERM", "xterm-256color");
        cmd.env("LOCKLAB_DATA_DIR", data);
        let child = pair.slave.spawn_command(cmd).expect("spawn locklab");
        drop(pair.slave);
        let mut reader = pair.master.try_clone_reader().expect("pty reader");
        let keys = pair.master.take_writer().expect("pty writer");
        let nz = |n| std::num::NonZero::new(n).expect("non-zero");
        let parser = Arc::new(Mutex::new(vt100::Parser::new(nz(ROWS), nz(COLS), 0)));
        let p = Arc::clone(&parser);
        std::thread::spawn(move || {
            let mut buf = [0u8; 4096];
            while let Ok(n) = reader.read(&mut buf) {
                if n == 0 {
                    break;
                }
                p.lock().expect("parser").process(&buf[..n]);
            }
        });
        Self {
            child,
            parser,
            keys,
            _master: pair.master,
        }
    }

    fn screen(&self) -> String {
        self.parser.lock().expect("parser").screen().contents()
    }

    fn press(&mut self, keys: &str) {
        self.keys.write_all(keys.as_bytes()).expect("send keys");
        self.keys.flush().expect("flush keys");
    }

    fn wait_for(&self, needle: &str) -> String {
        let start = Instant::now();
        while start.elapsed() < Duration::from_secs(30) {
            let s = self.screen();
            if s.contains(needle) {
                return s;
            }
            std::thread::sleep(Duration::from_millis(30));
        }
        panic!("`{needle}` never appeared; screen:\n{}", self.screen());
    }

    fn kill_hard(&mut self) {
        self.child.kill().expect("SIGKILL");
        let start = Instant::now();
        while self.child.try_wait().expect("wait").is_none() {
            assert!(start.elapsed() < Duration::from_secs(20), "did not die");
            std::thread::sleep(Duration::from_millis(20));
        }
    }
}

/// The number the prompt offers for `choice`: the digit before ") choice".
fn number_for(screen: &str, choice: &str) -> String {
    let at = screen
        .find(&format!(") {choice} "))
        .unwrap_or_else(|| panic!("{choice} is not offered:\n{screen}"));
    screen[..at]
        .chars()
        .last()
        .expect("a number before the choice")
        .to_string()
}

#[test]
fn a_prediction_made_in_a_real_terminal_survives_a_sigkill_and_shows_in_progress() {
    let data = tempfile::tempdir().expect("data dir");
    let mut t = Term::spawn(data.path(), &["frozen", "frozen-fenced"]);
    t.wait_for("Frozen holder");
    t.press("P");
    let asked = t.wait_for("who holds the lock at 24 s?");
    // A's lease ran out at 19 s and the service granted the lock to B: B holds at 24 s.
    let b = number_for(&asked, "B");
    t.press(&b);
    t.wait_for("right");
    // No clean exit: whatever was saved is on disk already.
    t.kill_hard();

    // Home, then its last row, Progress.
    let mut t = Term::spawn(data.path(), &[]);
    t.wait_for("Enter/click open");
    t.press("G");
    t.wait_for("more above");
    t.press("\r");
    let s = t.wait_for("predictions made in the lab");
    assert!(
        s.contains("predictions made in the lab: 1, 1 right"),
        "the prediction is not counted:\n{s}"
    );
    t.kill_hard();
}
