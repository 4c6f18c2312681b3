//! Terminal-lab benchmarks: drawing each screen into a 200x60 buffer, a slider change (re-run the
//! engine and draw), and the real binary's start to its first frame in a pseudo-terminal.
//! Targets are in docs/src/development/performance.md.

use std::io::Read;
use std::time::{Duration, Instant};

use criterion::{Criterion, criterion_group, criterion_main};
use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use locklab::i18n::Lang;
use locklab::tui::app::{App, AppMsg, ScreenId, map_key, render, update};
use locklab::tui::theme::Theme;
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;

const AREA: Rect = Rect {
    x: 0,
    y: 0,
    width: 200,
    height: 60,
};

fn app(screen: ScreenId) -> App {
    let mut a = App::new(screen, None, Lang::En, Theme { mono: false });
    a.size = (AREA.width, AREA.height);
    a
}

fn draw(a: &App) -> Buffer {
    let mut buf = Buffer::empty(AREA);
    render(a, AREA, &mut buf);
    buf
}

fn draw_screens(c: &mut Criterion) {
    let mut group = c.benchmark_group("draw_200x60");
    for (name, screen) in [
        ("home", ScreenId::Home),
        ("frozen", ScreenId::Frozen),
        ("abc", ScreenId::Abc),
        ("herd", ScreenId::Herd),
    ] {
        let mut a = app(screen);
        if screen == ScreenId::Herd {
            // The largest on-screen herd: N = 200, k = N.
            for _ in 0..200 {
                update(
                    &mut a,
                    AppMsg::Adjust {
                        dir: 1,
                        coarse: true,
                    },
                );
            }
            update(&mut a, AppMsg::Down);
            for _ in 0..200 {
                update(
                    &mut a,
                    AppMsg::Adjust {
                        dir: 1,
                        coarse: true,
                    },
                );
            }
        }
        group.bench_function(name, |b| b.iter(|| draw(std::hint::black_box(&a))));
    }
    // The lab's other views, the whole run revealed so everything is drawn.
    let views: [(&str, ScreenId, &[AppMsg]); 5] = [
        (
            "frozen_compare",
            ScreenId::Frozen,
            &[AppMsg::Reveal, AppMsg::Compare],
        ),
        (
            "frozen_sequence",
            ScreenId::Frozen,
            &[AppMsg::Reveal, AppMsg::ToggleSequence],
        ),
        (
            "abc_panel_and_log",
            ScreenId::Abc,
            &[AppMsg::Reveal, AppMsg::Jump(true)],
        ),
        (
            "abc_compare",
            ScreenId::Abc,
            &[AppMsg::Reveal, AppMsg::Compare],
        ),
        (
            "abc_sequence",
            ScreenId::Abc,
            &[AppMsg::Reveal, AppMsg::ToggleSequence],
        ),
    ];
    for (name, screen, msgs) in views {
        let mut a = app(screen);
        for m in msgs {
            update(&mut a, *m);
        }
        group.bench_function(name, |b| b.iter(|| draw(std::hint::black_box(&a))));
    }
    let mut a = app(ScreenId::Home);
    if let Some(p) = locklab::scenario::find("lost-create-blind") {
        a.present_preset(p.clone(), false);
        update(&mut a, AppMsg::Step(1));
        update(&mut a, AppMsg::Reveal);
    }
    group.bench_function("present", |b| b.iter(|| draw(std::hint::black_box(&a))));
    group.finish();
}

fn slider_change(c: &mut Criterion) {
    let mut group = c.benchmark_group("slider_change");
    let right = KeyEvent::new(KeyCode::Right, KeyModifiers::NONE);
    let left = KeyEvent::new(KeyCode::Left, KeyModifiers::NONE);
    let mut frozen = app(ScreenId::Frozen);
    let mut flip = false;
    group.bench_function("frozen", |b| {
        b.iter(|| {
            flip = !flip;
            let k = if flip { right } else { left };
            if let Some(msg) = map_key(k, &frozen) {
                update(&mut frozen, msg);
            }
            draw(&frozen)
        })
    });
    let mut abc = app(ScreenId::Abc);
    group.bench_function("abc_toggle_watch", |b| {
        b.iter(|| {
            update(
                &mut abc,
                AppMsg::RecipeVariant(locklab::tui::screens::abc::RecipeVariant::Watch),
            );
            draw(&abc)
        })
    });
    let mut herd = app(ScreenId::Herd);
    for _ in 0..200 {
        update(
            &mut herd,
            AppMsg::Adjust {
                dir: 1,
                coarse: true,
            },
        );
    }
    update(&mut herd, AppMsg::Down);
    group.bench_function("herd_n200", |b| {
        b.iter(|| {
            flip = !flip;
            update(
                &mut herd,
                AppMsg::Adjust {
                    dir: if flip { 1 } else { -1 },
                    coarse: false,
                },
            );
            draw(&herd)
        })
    });
    group.finish();
}

/// From spawning `locklab` in a pseudo-terminal to the home screen's title on it.
fn first_frame(c: &mut Criterion) {
    use portable_pty::{CommandBuilder, PtySize, native_pty_system};
    let bin = env!("CARGO_BIN_EXE_locklab");
    let mut group = c.benchmark_group("startup");
    group.sample_size(10);
    group.bench_function("first_frame", |b| {
        b.iter_custom(|iters| {
            let mut total = Duration::ZERO;
            for _ in 0..iters {
                let pair = native_pty_system()
                    .openpty(PtySize {
                        rows: 40,
                        cols: 120,
                        pixel_width: 0,
                        pixel_height: 0,
                    })
                    .expect("pty");
                let mut cmd = CommandBuilder::new(bin);
                cmd.env("LC_ALL", "C");
                cmd.env("TERM", "xterm-256color");
                let start = Instant::now();
                let mut child = pair.slave.spawn_command(cmd).expect("spawn");
                drop(pair.slave);
                let mut reader = pair.master.try_clone_reader().expect("reader");
                let mut seen = Vec::new();
                let mut chunk = [0u8; 4096];
                while !String::from_utf8_lossy(&seen).contains("locklab") {
                    match reader.read(&mut chunk) {
                        Ok(0) | Err(_) => break,
                        Ok(n) => seen.extend_from_slice(&chunk[..n]),
                    }
                }
                total += start.elapsed();
                let _ = child.kill();
                let _ = child.wait();
            }
            total
        })
    });
    group.finish();
}

criterion_group! {
    name = benches;
    config = Criterion::default().warm_up_time(Duration::from_secs(1)).measurement_time(Duration::from_secs(3));
    targets = draw_screens, slider_change, first_frame
}
criterion_main!(benches);
