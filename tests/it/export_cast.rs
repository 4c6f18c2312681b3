//! `locklab export --cast`: an asciicast v2 recording of a preset playing on its lab screen.
//! The file is read back as a player would: its header, its timing, and every frame replayed
//! through a terminal emulator (vt100), whose last screen must be the lab's own after `v`.

use std::process::Command;

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use locklab::engine::trace::Family;
use locklab::i18n::Lang;
use locklab::tui::app::{App, AppMsg, ScreenId, map_key, render, update};
use locklab::tui::screens::frozen::FrozenState;
use locklab::tui::theme::Theme;
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::{Color, Modifier};
use serde_json::Value;

struct Cast {
    header: Value,
    /// (time, data) of every output event.
    frames: Vec<(f64, String)>,
}

fn export(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_locklab"))
        .arg("export")
        .args(args)
        .env("LANG", "en_US.UTF-8")
        .env_remove("LC_ALL")
        .env_remove("NO_COLOR")
        .env_remove("LOCKLAB_DATA_DIR")
        .output()
        .expect("the binary runs")
}

fn record(preset: &str, extra: &[&str]) -> Cast {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("run.cast");
    let mut args = vec!["--cast", path.to_str().unwrap(), preset, "--lang", "en"];
    args.extend_from_slice(extra);
    let out = export(&args);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    parse(&std::fs::read_to_string(&path).unwrap())
}

/// Reads an asciicast v2 file, checking each line's shape.
fn parse(text: &str) -> Cast {
    let mut lines = text.lines();
    let header: Value = serde_json::from_str(lines.next().expect("a header")).unwrap();
    let frames = lines
        .map(|l| {
            let e: Value = serde_json::from_str(l).unwrap_or_else(|e| panic!("{e}: {l}"));
            let e = e.as_array().unwrap_or_else(|| panic!("not an array: {l}"));
            assert_eq!(e.len(), 3, "{l}");
            assert_eq!(e[1], "o", "{l}");
            (e[0].as_f64().unwrap(), e[2].as_str().unwrap().to_string())
        })
        .collect();
    Cast { header, frames }
}

/// The screen after replaying the first `n` frames.
fn replay(cast: &Cast, n: usize) -> vt100::Parser {
    let rows = cast.header["height"].as_u64().unwrap() as u16;
    let cols = cast.header["width"].as_u64().unwrap() as u16;
    let nz = |n: u16| std::num::NonZeroU16::new(n).expect("a size");
    let mut p = vt100::Parser::new(nz(rows), nz(cols), 0);
    for (_, data) in &cast.frames[..n] {
        p.process(data.as_bytes());
    }
    p
}

fn vt_colour(c: Color) -> vt100::Color {
    match c {
        Color::Reset => vt100::Color::Default,
        Color::Black => vt100::Color::Idx(0),
        Color::Red => vt100::Color::Idx(1),
        Color::Green => vt100::Color::Idx(2),
        Color::Yellow => vt100::Color::Idx(3),
        Color::Blue => vt100::Color::Idx(4),
        Color::Magenta => vt100::Color::Idx(5),
        Color::Cyan => vt100::Color::Idx(6),
        Color::Gray => vt100::Color::Idx(7),
        Color::DarkGray => vt100::Color::Idx(8),
        Color::LightRed => vt100::Color::Idx(9),
        Color::LightGreen => vt100::Color::Idx(10),
        Color::LightYellow => vt100::Color::Idx(11),
        Color::LightBlue => vt100::Color::Idx(12),
        Color::LightMagenta => vt100::Color::Idx(13),
        Color::LightCyan => vt100::Color::Idx(14),
        Color::White => vt100::Color::Idx(15),
        Color::Indexed(i) => vt100::Color::Idx(i),
        Color::Rgb(r, g, b) => vt100::Color::Rgb(r, g, b),
    }
}

/// Checks that the emulator's screen shows `buf` in the rows from `top`: every character, its
/// colours, bold and reverse video.
fn assert_shows(screen: &vt100::Screen, buf: &Buffer, top: u16) {
    for y in 0..buf.area.height {
        let mut x = 0;
        while x < buf.area.width {
            let want = &buf[(x, y)];
            let got = screen.cell(top + y, x).expect("inside the screen");
            let at = format!("row {y} col {x}");
            let symbol = if want.symbol().is_empty() {
                " "
            } else {
                want.symbol()
            };
            let shown = if got.contents().is_empty() {
                " "
            } else {
                got.contents()
            };
            assert_eq!(shown, symbol, "{at}\n{}", screen.contents());
            assert_eq!(got.fgcolor(), vt_colour(want.fg), "{at} fg ({symbol})");
            assert_eq!(got.bgcolor(), vt_colour(want.bg), "{at} bg ({symbol})");
            assert_eq!(
                got.bold(),
                want.modifier.contains(Modifier::BOLD),
                "{at} bold"
            );
            assert_eq!(
                got.inverse(),
                want.modifier.contains(Modifier::REVERSED),
                "{at} reverse"
            );
            x += unicode_width::UnicodeWidthStr::width(symbol).max(1) as u16;
        }
    }
}

/// A lab screen at this size after End and `v`, opened by `open` as its command opens it.
fn lab_after_v(open: impl FnOnce(&mut App), cols: u16, rows: u16) -> Buffer {
    let mut app = App::new(ScreenId::Home, None, Lang::En, Theme { mono: false });
    open(&mut app);
    update(&mut app, AppMsg::Resize(cols, rows));
    for code in [KeyCode::End, KeyCode::Char('v')] {
        let msg = map_key(KeyEvent::new(code, KeyModifiers::NONE), &app).expect("a lab key");
        update(&mut app, msg);
    }
    let mut buf = Buffer::empty(Rect::new(0, 0, cols, rows));
    render(&app, buf.area, &mut buf);
    buf
}

/// The A/B/C lab as `locklab abc PRESET` opens it.
fn abc_after_v(preset: &str, cols: u16, rows: u16) -> Buffer {
    let preset = preset.to_string();
    lab_after_v(
        move |app| {
            *app = App::new(
                ScreenId::Abc,
                Some(&preset),
                Lang::En,
                Theme { mono: false },
            );
        },
        cols,
        rows,
    )
}

fn shipped(name: &str) -> &'static locklab::scenario::Preset {
    locklab::scenario::builtin()
        .iter()
        .find(|p| p.name == name)
        .expect("a shipped preset")
}

/// The captions the preset's script gives its own run: the steps before the first that
/// changes a parameter.
fn captions(preset: &str) -> Vec<String> {
    shipped(preset)
        .script
        .iter()
        .take_while(|s| !s.changes_params)
        .map(|s| s.caption.en.clone())
        .collect()
}

#[test]
fn a_recording_is_asciicast_v2_and_ends_on_the_screen_v_shows() {
    let cast = record("chain", &[]);
    let h = &cast.header;
    assert_eq!(h["version"], 2);
    assert_eq!(
        (h["width"].as_u64(), h["height"].as_u64()),
        (Some(120), Some(33))
    );
    assert!(
        h["timestamp"].as_u64().is_some_and(|t| t > 1_600_000_000),
        "{h}"
    );

    let times: Vec<f64> = cast.frames.iter().map(|f| f.0).collect();
    assert_eq!(times[0], 0.0);
    assert!(
        times.windows(2).all(|w| w[0] <= w[1]),
        "time goes back: {times:?}"
    );
    // It plays: many frames over tens of seconds, not one picture.
    assert!(cast.frames.len() > 50, "{} frames", cast.frames.len());
    assert!(*times.last().unwrap() > 10.0, "{times:?}");

    // The lab takes 30 rows (its event log shows from 120x30); the captions the 3 under it.
    let end = replay(&cast, cast.frames.len());
    assert_shows(end.screen(), &abc_after_v("chain", 120, 30), 0);
    let caption_rows: String = (31..33)
        .map(|r| end.screen().contents_between(r, 0, r, 120))
        .collect::<Vec<_>>()
        .join(" ");
    let steps = captions("chain");
    let last = steps.last().expect("chain has a script");
    let first_words: String = last
        .split_whitespace()
        .take(4)
        .collect::<Vec<_>>()
        .join(" ");
    assert!(
        caption_rows.contains(&first_words),
        "{caption_rows:?} vs {last:?}"
    );

    // Each caption is on screen at some point of the playback, in order.
    let mut seen = 0;
    for n in 1..=cast.frames.len() {
        let p = replay(&cast, n);
        let rows = p.screen().contents_between(31, 0, 32, 120);
        let flat = rows.split_whitespace().collect::<Vec<_>>().join(" ");
        while seen < steps.len() {
            let words: String = steps[seen]
                .split_whitespace()
                .take(4)
                .collect::<Vec<_>>()
                .join(" ");
            if !flat.contains(&words) {
                break;
            }
            seen += 1;
        }
    }
    assert_eq!(seen, steps.len(), "captions shown: {seen} of {steps:?}");
}

#[test]
fn the_frozen_holder_and_the_family_lab_record_on_their_own_screens() {
    // `locklab frozen frozen-fenced`: the frozen-holder screen on that preset.
    let cast = record("frozen-fenced", &[]);
    let end = replay(&cast, cast.frames.len());
    let frozen = lab_after_v(
        |app| {
            app.frozen = FrozenState::from_preset(shipped("frozen-fenced")).expect("frozen");
            app.screen = ScreenId::Frozen;
        },
        120,
        30,
    );
    assert_shows(end.screen(), &frozen, 0);

    // `locklab lab rwlock --preset rwlock-fair`: the family lab.
    let cast = record("rwlock-fair", &[]);
    let end = replay(&cast, cast.frames.len());
    let family = lab_after_v(
        |app| app.open_family(Family::Rwlock, Some("rwlock-fair")),
        120,
        30,
    );
    assert_shows(end.screen(), &family, 0);
}

#[test]
fn size_and_speed_shape_the_recording() {
    let normal = record("chain", &["--size", "100x30"]);
    assert_eq!(
        (
            normal.header["width"].as_u64(),
            normal.header["height"].as_u64()
        ),
        (Some(100), Some(30))
    );
    let end = replay(&normal, normal.frames.len());
    assert_shows(end.screen(), &abc_after_v("chain", 100, 27), 0);

    let fast = record("chain", &["--size", "100x30", "--speed", "2"]);
    let (a, b) = (
        normal.frames.last().unwrap().0,
        fast.frames.last().unwrap().0,
    );
    assert!((a / 2.0 - b).abs() < 0.05, "twice as fast: {a} s and {b} s");
    assert_eq!(
        normal.frames.len(),
        fast.frames.len(),
        "the same frames, sooner"
    );
}

#[test]
fn what_cannot_be_recorded_is_refused_with_status_2() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("x.cast");
    let file = path.to_str().unwrap();
    for (args, says) in [
        (vec!["--cast", file, "herd-50"], "no timeline"),
        (vec!["--cast", file, "chain", "--size", "60x20"], "--size"),
        (
            vec!["--cast", file, "chain", "--size", "wide"],
            "columns x rows",
        ),
        (vec!["--cast", file, "chain", "--speed", "100"], "--speed"),
        (
            vec!["--cast", file, "chain", "--format", "svg"],
            "cannot be used with",
        ),
        (
            vec!["chain", "--size", "100x30", "-o", "-", "--format", "txt"],
            "--cast",
        ),
        (vec!["--cast", file, "no-such-preset"], "unknown preset"),
    ] {
        let out = export(&args);
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
        assert!(err.contains(says), "{args:?}: {err}");
        assert!(!path.exists(), "{args:?} wrote a file");
    }
}
