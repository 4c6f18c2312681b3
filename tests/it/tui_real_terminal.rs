//! The real binary in a pseudo-terminal: every signal that ends the process leaves the terminal
//! restored, SIGTSTP restores it, stops, and takes it back on SIGCONT; and presets read with
//! `--content` are the ones the screens open. `LOCKLAB_TEST_BIN` points them at another build.

use std::io::Read;
use std::path::Path;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use portable_pty::{Child, CommandBuilder, PtySize, native_pty_system};

const ROWS: u16 = 30;
const COLS: u16 = 100;
const ALT_ON: &str = "\x1b[?1049h";
const ALT_OFF: &str = "\x1b[?1049l";
const MOUSE_ON: &str = "\x1b[?1000h";
const MOUSE_OFF: &str = "\x1b[?1000l";
const CURSOR_HIDE: &str = "\x1b[?25l";
const CURSOR_SHOW: &str = "\x1b[?25h";

struct Running {
    child: Box<dyn Child + Send + Sync>,
    raw: Arc<Mutex<Vec<u8>>>,
    parser: Arc<Mutex<vt100::Parser>>,
    // Kept open so the terminal stays up while the test looks at it.
    _master: Box<dyn portable_pty::MasterPty + Send>,
}

impl Running {
    fn start() -> Self {
        let r = Self::spawn(&["frozen"]);
        r.wait_until("the first frame", |r| r.screen().contains("Frozen holder"));
        r
    }

    fn spawn(args: &[&str]) -> Self {
        Self::spawn_after("", args)
    }

    /// Runs `shell` (a `ulimit`, say) in `sh`, which then becomes locklab with `args`.
    fn spawn_after(shell: &str, args: &[&str]) -> Self {
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
        let mut cmd = if shell.is_empty() {
            CommandBuilder::new(bin)
        } else {
            let mut sh = CommandBuilder::new("sh");
            sh.arg("-c");
            sh.arg(format!("{shell}; exec \"$0\" \"$@\""));
            sh.arg(bin);
            sh
        };
        cmd.args(args);
        cmd.env("LC_ALL", "C");
        cmd.env("NO_COLOR", "1");
        cmd.env("TERM", "xterm-256color");
        let dir = tempfile::tempdir().expect("data dir");
        cmd.env("LOCKLAB_DATA_DIR", dir.keep());
        let child = pair.slave.spawn_command(cmd).expect("spawn locklab");
        drop(pair.slave);
        let mut reader = pair.master.try_clone_reader().expect("pty reader");
        let raw = Arc::new(Mutex::new(Vec::new()));
        let nz = |n| std::num::NonZero::new(n).expect("non-zero");
        let parser = Arc::new(Mutex::new(vt100::Parser::new(nz(ROWS), nz(COLS), 0)));
        let (r, p) = (Arc::clone(&raw), Arc::clone(&parser));
        std::thread::spawn(move || {
            let mut buf = [0u8; 4096];
            while let Ok(n) = reader.read(&mut buf) {
                if n == 0 {
                    break;
                }
                r.lock().expect("raw").extend_from_slice(&buf[..n]);
                p.lock().expect("parser").process(&buf[..n]);
            }
        });
        Self {
            child,
            raw,
            parser,
            _master: pair.master,
        }
    }

    fn raw(&self) -> String {
        self.raw_from(0)
    }

    /// The output from byte `n` on.
    fn raw_from(&self, n: usize) -> String {
        let raw = self.raw.lock().expect("raw");
        String::from_utf8_lossy(raw.get(n..).unwrap_or_default()).into_owned()
    }

    fn len(&self) -> usize {
        self.raw.lock().expect("raw").len()
    }

    fn screen(&self) -> String {
        self.parser.lock().expect("parser").screen().contents()
    }

    fn pid(&self) -> u32 {
        self.child.process_id().expect("a pid")
    }

    fn signal(&self, name: &str) {
        let ok = std::process::Command::new("kill")
            .args(["-s", name, &self.pid().to_string()])
            .status()
            .expect("run kill");
        assert!(ok.success(), "kill -s {name}");
    }

    /// The process state letter from /proc: `T` when stopped.
    fn state(&self) -> Option<char> {
        let stat = std::fs::read_to_string(format!("/proc/{}/stat", self.pid())).ok()?;
        stat.rsplit_once(") ")?.1.chars().next()
    }

    fn wait_until(&self, what: &str, done: impl Fn(&Self) -> bool) {
        let start = Instant::now();
        while start.elapsed() < Duration::from_secs(20) {
            if done(self) {
                return;
            }
            std::thread::sleep(Duration::from_millis(20));
        }
        panic!("{what} never happened; output:\n{:?}", self.raw());
    }
}

/// Whether the last alternate-screen and mouse switches in `out` turned them off, and the last
/// cursor switch showed it (a shell prompt after a stop needs its cursor).
fn restored(out: &str) -> bool {
    let last = |on: &str, off: &str| out.rfind(off).is_some_and(|i| out.rfind(on) < Some(i));
    last(ALT_ON, ALT_OFF) && last(MOUSE_ON, MOUSE_OFF) && last(CURSOR_HIDE, CURSOR_SHOW)
}

#[test]
fn every_ending_signal_restores_the_terminal() {
    for name in ["INT", "QUIT", "TERM", "HUP", "USR1", "USR2", "ALRM"] {
        let mut r = Running::start();
        assert!(!restored(&r.raw()), "SIG{name}: restored before the signal");
        r.signal(name);
        let start = Instant::now();
        let status = loop {
            if let Some(s) = r.child.try_wait().expect("wait") {
                break s;
            }
            assert!(
                start.elapsed() < Duration::from_secs(20),
                "SIG{name} did not end locklab"
            );
            std::thread::sleep(Duration::from_millis(20));
        };
        assert!(!status.success(), "SIG{name}: {status:?}");
        r.wait_until(&format!("the restore after SIG{name}"), |r| {
            restored(&r.raw())
        });
    }
}

#[test]
fn the_explore_screen_stops_at_its_memory_limit_and_the_terminal_is_restored() {
    use std::io::Write;
    let mut r = Running::spawn_after("ulimit -v 2000000", &[]);
    r.wait_until("the home screen", |r| {
        r.screen().contains("Explore: break a recipe")
    });
    let mut w = r._master.take_writer().expect("writer");
    let mut press = |keys: &[u8]| {
        w.write_all(keys).expect("keys");
        w.flush().expect("flush");
        std::thread::sleep(Duration::from_millis(60));
    };
    let start = Instant::now();
    while !r.screen().contains("> Explore: break a recipe") {
        assert!(start.elapsed() < Duration::from_secs(20), "{}", r.screen());
        press(b"j");
    }
    press(b"\r");
    r.wait_until("the explore screen", |r| {
        r.screen().contains("Memory limit")
    });
    // Three faults (the screen's most), the smallest memory limit, then search.
    press(b"jll");
    press(b"jhhhh");
    r.wait_until("the smallest limit", |r| r.screen().contains("< 256 MiB >"));
    press(b"\r");
    r.wait_until("the stop at the limit", |r| {
        r.screen().contains("Stopped at the memory limit")
    });
    assert!(!restored(&r.raw()));
    // The search's 256 MiB went back to the system once it stopped.
    let resident_kb = std::fs::read_to_string(format!("/proc/{}/status", r.pid()))
        .ok()
        .and_then(|s| {
            let line = s.lines().find(|l| l.starts_with("VmRSS:"))?.to_owned();
            line.split_whitespace().nth(1)?.parse::<u64>().ok()
        })
        .expect("VmRSS");
    assert!(resident_kb < 128 * 1024, "{resident_kb} KB still resident");
    press(b"qq");
    let start = Instant::now();
    let status = loop {
        if let Some(s) = r.child.try_wait().expect("wait") {
            break s;
        }
        assert!(start.elapsed() < Duration::from_secs(20), "did not quit");
        std::thread::sleep(Duration::from_millis(20));
    };
    assert!(status.success(), "{status:?}");
    r.wait_until("the final restore", |r| restored(&r.raw()));
}

#[test]
fn suspend_restores_stops_and_continue_takes_the_terminal_back() {
    let mut r = Running::start();
    let before = r.len();
    r.signal("TSTP");
    r.wait_until("a stop", |r| r.state() == Some('T'));
    r.wait_until("the restore before stopping", |r| restored(&r.raw()));
    let stopped_at = r.len();
    assert!(stopped_at > before);
    r.signal("CONT");
    r.wait_until("the terminal taken back", |r| {
        let after = r.raw_from(stopped_at);
        after.contains(ALT_ON) && after.contains(MOUSE_ON) && !restored(&r.raw())
    });
    r.wait_until("a redraw", |r| {
        r.raw_from(stopped_at).contains("Frozen holder") && r.screen().contains("Frozen holder")
    });
    assert_ne!(r.state(), Some('T'));
    // Ctrl-Z in raw mode is a key; it suspends the same way.
    use std::io::Write;
    let mut w = r._master.take_writer().expect("writer");
    w.write_all(b"\x1a").expect("ctrl-z");
    w.flush().expect("flush");
    r.wait_until("a stop on Ctrl-Z", |r| r.state() == Some('T'));
    // The restore is written before the stop, but the pseudo-terminal's reader may not have
    // taken it in yet when the stop is seen: wait for it, as after SIGTSTP above.
    r.wait_until("the restore before stopping on Ctrl-Z", |r| {
        restored(&r.raw())
    });
    r.signal("CONT");
    r.wait_until("running again", |r| r.state() != Some('T'));
    w.write_all(b"qq").expect("quit");
    w.flush().expect("flush");
    let start = Instant::now();
    let status = loop {
        if let Some(s) = r.child.try_wait().expect("wait") {
            break s;
        }
        assert!(start.elapsed() < Duration::from_secs(20), "did not quit");
        std::thread::sleep(Duration::from_millis(20));
    };
    assert!(status.success(), "{status:?}");
    r.wait_until("the final restore", |r| restored(&r.raw()));
}

/// Copies the shipped content into a folder and adds a preset of the user's own.
fn content_with_own_preset() -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("content dir");
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let ok = std::process::Command::new("cp")
        .arg("-r")
        .args(["content", "quizzes", "assets"].map(|d| root.join(d)))
        .arg(dir.path())
        .status()
        .expect("cp");
    assert!(ok.success());
    let chain = std::fs::read_to_string(root.join("assets/scenarios/chain.toml")).expect("chain");
    let mine = chain.replace("The correct recipe:", "My own chain, from a folder:");
    std::fs::write(dir.path().join("assets/scenarios/mychain.toml"), mine).expect("write");
    dir
}

#[test]
fn the_screens_open_presets_from_the_content_folder() {
    let content = content_with_own_preset();
    let c = content.path().to_str().expect("utf-8 path");
    let mut r = Running::spawn(&["--content", c, "abc", "mychain"]);
    r.wait_until("the folder's own preset on the A/B/C screen", |r| {
        r.screen().contains("My own chain, from a folder")
    });
    r.signal("TERM");
    let start = Instant::now();
    while r.child.try_wait().expect("wait").is_none() {
        assert!(start.elapsed() < Duration::from_secs(20), "did not end");
        std::thread::sleep(Duration::from_millis(20));
    }
}
