//! The terminal screens: setup and teardown of the terminal, and the event loop.
//!
//! The loop is synchronous: it waits for input (waking for animation ticks while playing, and
//! at once when a signal arrives, see [`signals`]), maps it to a message, updates and redraws.

pub mod app;
pub mod compare;
mod draw;
mod input;
pub mod keys;
pub mod lab_predict;
pub mod learn;
pub mod markdown;
mod open;
pub mod reading;
pub mod record;
pub mod screen;
pub mod screens;
pub mod signals;
pub mod start_check;
pub mod start_path;
pub mod theme;
pub mod timeline;
pub mod widgets;

use std::io::{IsTerminal, Write};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use crossterm::event::{
    self, DisableMouseCapture, EnableMouseCapture, Event, KeyCode, KeyEventKind, KeyModifiers,
};
use crossterm::execute;
use crossterm::terminal::{EnterAlternateScreen, enable_raw_mode};

use crate::i18n::{Lang, Ui, ui};
use app::{App, AppMsg, ScreenId};
pub use start_check::{StartError, check_start};

/// How often playback advances.
pub(crate) const TICK: Duration = Duration::from_millis(50);
/// While idle, how long to wait for input before looking at the signal queue anyway (a signal
/// normally wakes the loop at once; this covers one that came before the input source was up).
const IDLE_WAKE: Duration = Duration::from_millis(500);

/// Which screen to open first.
#[derive(Debug, Clone, PartialEq)]
pub enum Start {
    Home,
    Frozen(Option<String>),
    Abc(Option<String>),
    Herd,
    /// The family lab on a knob family, at a preset of it (else its first).
    Lab {
        family: String,
        preset: Option<String>,
    },
    /// The presenter view of a preset or scenario file.
    Present(Box<crate::scenario::Preset>),
    /// A closed-book quiz; ending it quits.
    Quiz(screens::quiz::QuizRequest),
}

/// Why the terminal UI could not run.
#[derive(Debug)]
pub enum TuiError {
    NotATerminal,
    /// The quiz asked for on the command line has nothing to ask (no such deck, nothing due).
    NoQuiz(String),
    Io(std::io::Error),
}

impl TuiError {
    pub fn message(&self, lang: Lang) -> String {
        match self {
            TuiError::NotATerminal => ui(Ui::NeedTerminal, lang).to_string(),
            TuiError::NoQuiz(why) => why.clone(),
            TuiError::Io(e) => format!("terminal error: {e}"),
        }
    }
}

/// How long the loop gets to wind down by itself after the terminal hangs up.
const HANGUP_GRACE: Duration = Duration::from_secs(1);

/// Ends the process once its terminal is gone. When the terminal vanishes, crossterm's input
/// source reads end-of-file forever inside `event::poll`, which then never returns, so the loop
/// can never see the SIGHUP flag. This thread notices the hangup (the signal, or the controlling
/// terminal no longer opening) and, if the loop has not ended within a grace period, exits
/// with the status a shell expects after SIGHUP. There is no terminal left to restore.
fn watch_for_hangup(hangup: Arc<AtomicBool>) {
    let had_tty = std::fs::File::open("/dev/tty").is_ok();
    std::thread::spawn(move || {
        loop {
            std::thread::sleep(Duration::from_millis(250));
            let tty_gone = had_tty && std::fs::File::open("/dev/tty").is_err();
            if hangup.load(Ordering::Relaxed) || tty_gone {
                std::thread::sleep(HANGUP_GRACE);
                std::process::exit(128 + signal_hook::consts::SIGHUP);
            }
        }
    });
}

/// Leaves the alternate screen, raw mode and mouse reporting, and shows the cursor the frames
/// hide (the shell after a suspend needs it; the next frame hides it again). Safe to call more
/// than once.
fn restore() {
    let _ = execute!(
        std::io::stdout(),
        DisableMouseCapture,
        crossterm::cursor::Show
    );
    ratatui::restore();
    let _ = std::io::stdout().flush();
}

/// Takes the terminal over again after the process was stopped and continued: raw mode, the
/// alternate screen, mouse reporting, and a full redraw on the next frame.
fn resume(terminal: &mut ratatui::DefaultTerminal) -> std::io::Result<()> {
    enable_raw_mode()?;
    execute!(std::io::stdout(), EnterAlternateScreen, EnableMouseCapture)?;
    // A resize clears the screen and forgets the last frame, without asking the terminal where
    // its cursor is (which `clear` would).
    let size = terminal.size()?;
    terminal.resize(ratatui::layout::Rect::new(0, 0, size.width, size.height))
}

/// Restores the terminal, stops the process, and takes the terminal back once it continues.
fn suspend(terminal: &mut ratatui::DefaultTerminal) -> std::io::Result<()> {
    restore();
    signals::stop();
    resume(terminal)
}

/// How the screens ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Ended {
    /// The user quit.
    Quit,
    /// A signal that ends the process arrived (its number), after the terminal was restored.
    Signal(i32),
}

/// Opens the terminal UI and runs it until the user quits or a signal arrives.
/// Lessons and decks come from `source`; progress is kept in `data_dir` (or the reason there is
/// none is shown on Home).
pub fn run(
    start: Start,
    lang: Lang,
    source: &crate::source::Source,
    catalogue: &'static crate::scenario::Catalogue,
    data_dir: Result<std::path::PathBuf, crate::progress::error::NoDataDir>,
) -> Result<Ended, TuiError> {
    if !std::io::stdout().is_terminal() || !std::io::stdin().is_terminal() {
        return Err(TuiError::NotATerminal);
    }
    let mut quiz = None;
    let mut frozen = None;
    let mut lab = None;
    let (screen, preset, present) = match start {
        Start::Home => (ScreenId::Home, None, None),
        Start::Frozen(name) => {
            frozen = name;
            (ScreenId::Frozen, None, None)
        }
        Start::Abc(p) => (ScreenId::Abc, p, None),
        Start::Herd => (ScreenId::Herd, None, None),
        Start::Lab { family, preset } => {
            lab = crate::engine::trace::Family::parse(&family).map(|f| (f, preset));
            (ScreenId::Home, None, None)
        }
        Start::Present(p) => (ScreenId::Home, None, Some(p)),
        Start::Quiz(q) => {
            quiz = Some(q);
            (ScreenId::Home, None, None)
        }
    };
    // Reading positions live beside the progress file, in the folder the store uses.
    let reader = screens::reader::ReaderState::new(source, data_dir.as_ref().ok().cloned());
    let mut app = App::with_reader(
        screen,
        preset.as_deref(),
        lang,
        theme::Theme::from_env(),
        reader,
        catalogue,
    );
    if let Some(p) = present {
        app.present_preset(*p, true);
    }
    if let Some(f) = frozen
        .as_deref()
        .and_then(|n| app.catalogue.find(n))
        .and_then(screens::frozen::FrozenState::from_preset)
    {
        app.frozen = f;
    }
    if let Some((f, preset)) = lab {
        app.open_family(f, preset.as_deref());
    }
    let now = crate::quiz::clock::now();
    let calendar = crate::quiz::clock::calendar(now);
    app.set_learning(match &data_dir {
        Ok(dir) => learn::Learning::open(source, Some(dir), now, calendar),
        Err(e) => learn::Learning::open(source, None, now, calendar).no_dir(e.to_string()),
    });
    if let Some(q) = quiz {
        app.start_quiz(&q, ScreenId::Home);
        // Said before the terminal is taken over, like plain mode does.
        if app.quiz.is_none() {
            let why = app.learn.notice.take().unwrap_or_default();
            return Err(TuiError::NoQuiz(why));
        }
        app.quiz_only = true;
    }

    let watcher = signals::Watcher::start().map_err(TuiError::Io)?;
    watch_for_hangup(Arc::clone(&watcher.hangup));
    let mut caught = None;
    let mut terminal = ratatui::try_init().map_err(TuiError::Io)?;
    // ratatui's hook restores raw mode and the screen; ours also turns mouse reporting off.
    let hook = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        restore();
        hook(info);
    }));
    let result = (|| -> std::io::Result<()> {
        execute!(std::io::stdout(), EnableMouseCapture)?;
        let size = terminal.size()?;
        app.size = (size.width, size.height);
        // Draw only when something changed: idle wake-ups just look at the signal queue.
        let mut dirty = true;
        loop {
            for action in watcher.take() {
                match action {
                    signals::Action::End(sig) => caught = caught.or(Some(sig)),
                    signals::Action::Suspend => suspend(&mut terminal)?,
                    signals::Action::Resume => resume(&mut terminal)?,
                }
                dirty = true;
            }
            if app.quit || caught.is_some() {
                break;
            }
            if dirty {
                terminal.draw(|f| app::draw(f, &app))?;
                dirty = false;
            }
            let wait = if app.playing() { TICK } else { IDLE_WAKE };
            if !event::poll(wait)? {
                // Playback advances; an interview's clock is redrawn on each idle wake-up.
                if app.playing() || app.wants_clock() {
                    app::update(&mut app, AppMsg::Tick);
                    dirty = true;
                }
                continue;
            }
            let msg = match event::read()? {
                // In raw mode Ctrl-Z is a key, not SIGTSTP: suspend as the terminal would.
                Event::Key(k)
                    if k.code == KeyCode::Char('z')
                        && k.modifiers.contains(KeyModifiers::CONTROL)
                        && k.kind != KeyEventKind::Release =>
                {
                    suspend(&mut terminal)?;
                    dirty = true;
                    None
                }
                Event::Key(k) => app::map_key(k, &app),
                Event::Mouse(m) => app::map_mouse(m),
                Event::Resize(w, h) => Some(AppMsg::Resize(w, h)),
                _ => None,
            };
            if let Some(msg) = msg {
                app::update(&mut app, msg);
                dirty = true;
            }
        }
        Ok(())
    })();
    restore();
    if caught.is_some() {
        app.reader.leave();
    }
    result.map_err(TuiError::Io)?;
    Ok(caught.map_or(Ended::Quit, Ended::Signal))
}

#[cfg(test)]
mod tests;
