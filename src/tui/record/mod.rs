//! Recordings: a preset's run playing on its lab screen, as an asciicast v2 file that asciinema's
//! player shows in a web page or a slide (`locklab export --cast`).
//!
//! Every frame is the lab's own drawing, handed to ratatui's crossterm backend as on a real
//! terminal, but written into memory: a frame is the escape sequences that turn the previous
//! screen into this one. The run plays the way Space plays it (event by event), the preset's
//! captions show under the lab as the cursor reaches them, and the recording ends on the
//! screen `v` shows: the whole run with its outcome.

mod captions;
mod sink;

use ratatui::layout::Rect;
use ratatui::{Terminal, TerminalOptions, Viewport};
use serde_json::json;

use crate::i18n::Lang;
use crate::scenario::Preset;
use crate::source::Source;
use crate::tui::app::{App, AppMsg, MIN_COLS, MIN_ROWS, ScreenId, render, update};
use crate::tui::screens::reader::ReaderState;
use crate::tui::theme::Theme;
use captions::Captions;
use sink::Sink;

/// Rows under the lab for the captions: a rule and two lines of text.
pub const CAPTION_ROWS: u16 = 3;
/// The largest recording, so a mistyped size cannot fill a disk.
pub const MAX_COLS: u16 = 400;
pub const MAX_ROWS: u16 = 200;
/// The slowest and fastest playback.
pub const SPEEDS: std::ops::RangeInclusive<f64> = 0.25..=8.0;
/// Playback stops after this many ticks whatever happens, so a recording always ends.
const MAX_TICKS: u32 = 200_000;

/// How to record.
#[derive(Debug, Clone, Copy)]
pub struct Options {
    pub cols: u16,
    pub rows: u16,
    /// 1 plays as the lab does; 2 twice as fast.
    pub speed: f64,
    pub lang: Lang,
    pub theme: Theme,
    /// Seconds since the Unix epoch, for the header.
    pub timestamp: u64,
}

/// Why a preset cannot be recorded.
#[derive(Debug, thiserror::Error)]
pub enum RecordError {
    /// `captions` when the preset's captions take [`CAPTION_ROWS`] under the lab.
    #[error(
        "--size must be {MIN_COLS}x{} to {MAX_COLS}x{MAX_ROWS} for this preset \
         (the lab needs {MIN_COLS}x{MIN_ROWS}{}), got {cols}x{rows}",
        MIN_ROWS + if *captions { CAPTION_ROWS } else { 0 },
        if *captions { " and its captions 3 rows" } else { "" }
    )]
    Size {
        cols: u16,
        rows: u16,
        captions: bool,
    },
    #[error("--speed must be 0.25 to 8, got {0}")]
    Speed(f64),
    #[error("{0}")]
    Presets(#[from] crate::scenario::LoadError),
    /// A preset whose screen is drawn whole, not played (the herd chart).
    #[error(
        "`{0}` has no timeline to play: the herd chart is drawn whole; export it with --format svg"
    )]
    NoTimeline(String),
    /// Drawing into memory failed: not the user's input.
    #[error("{0}")]
    Draw(#[from] std::io::Error),
}

impl From<RecordError> for crate::error::UserError {
    fn from(e: RecordError) -> Self {
        match e {
            RecordError::Draw(_) => Self::failed(e.to_string()),
            _ => Self::usage(e.to_string()),
        }
    }
}

/// Records `preset` playing on its lab screen; the asciicast file's text, or why not.
pub fn record(preset: &Preset, source: &Source, opts: &Options) -> Result<String, RecordError> {
    let captions = Captions::of(preset, opts.lang);
    let band = if captions.is_empty() { 0 } else { CAPTION_ROWS };
    let lab_rows = opts.rows.saturating_sub(band);
    if opts.cols < MIN_COLS || lab_rows < MIN_ROWS || opts.cols > MAX_COLS || opts.rows > MAX_ROWS {
        return Err(RecordError::Size {
            cols: opts.cols,
            rows: opts.rows,
            captions: band > 0,
        });
    }
    if !SPEEDS.contains(&opts.speed) {
        return Err(RecordError::Speed(opts.speed));
    }
    let mut app = lab(preset, source, opts)?;
    update(&mut app, AppMsg::Resize(opts.cols, lab_rows));
    update(&mut app, AppMsg::Jump(false));

    let sink = Sink::default();
    let backend = ratatui::backend::CrosstermBackend::new(sink.clone());
    let area = Rect::new(0, 0, opts.cols, opts.rows);
    let mut term = Terminal::with_options(
        backend,
        TerminalOptions {
            viewport: Viewport::Fixed(area),
        },
    )?;
    let tick = crate::tui::TICK.as_secs_f64() / opts.speed;
    // A player starts from a clear screen with the cursor out of sight.
    let mut frames: Vec<(f64, String)> = vec![(0.0, "\x1b[2J\x1b[H".to_string())];
    let mut t = 0.0;
    let mut shown = None;
    let mut draw = |app: &App, caption: Option<&str>, t: f64| -> std::io::Result<()> {
        term.draw(|f| {
            let lab = Rect::new(0, 0, opts.cols, lab_rows);
            render(app, lab, f.buffer_mut());
            if band > 0 {
                let under = Rect::new(0, lab_rows, opts.cols, band);
                captions::draw(caption, opts.theme, under, f.buffer_mut());
            }
        })?;
        let out = sink.take();
        if !out.is_empty() {
            frames.push((t, out));
        }
        Ok(())
    };
    draw(&app, captions.at(0), t)?;
    update(&mut app, AppMsg::TogglePlay);
    let mut ticks = 0;
    while app.playing() && ticks < MAX_TICKS {
        update(&mut app, AppMsg::Tick);
        ticks += 1;
        t += tick;
        let cursor = app.lab_cursor().unwrap_or(0);
        let caption = captions.at(cursor);
        draw(&app, caption, t)?;
        if caption != shown {
            // Time to read it, as a presenter would pause.
            t += caption.map_or(0.0, captions::reading_secs) / opts.speed;
            shown = caption;
        }
    }
    t += 1.0 / opts.speed;
    update(&mut app, AppMsg::Reveal);
    draw(&app, shown, t)?;
    // The last frame stays up a while before a player loops or stops.
    frames.push((t + 4.0 / opts.speed, String::new()));
    Ok(cast(preset, opts, &frames))
}

/// The lab screen a preset plays on, opened as `locklab frozen|abc|lab` opens it.
fn lab(preset: &Preset, source: &Source, opts: &Options) -> Result<App, RecordError> {
    // The lab's own preset list comes from this source, as when it opens on a terminal.
    let catalogue = crate::scenario::Catalogue::load(source)?;
    let reader = ReaderState::new(source, None);
    let mut app = App::with_reader(
        ScreenId::Home,
        None,
        opts.lang,
        opts.theme,
        reader,
        catalogue,
    );
    if app.open_lab(preset) {
        Ok(app)
    } else {
        Err(RecordError::NoTimeline(preset.name.clone()))
    }
}

/// The asciicast v2 text: a header line, then one `[time, "o", data]` line a frame.
fn cast(preset: &Preset, opts: &Options, frames: &[(f64, String)]) -> String {
    // Written by hand so that `version` comes first, as asciicast files have it.
    let header = format!(
        "{{\"version\":2,\"width\":{},\"height\":{},\"timestamp\":{},\"title\":{},\
         \"env\":{{\"TERM\":\"xterm-256color\"}}}}",
        opts.cols,
        opts.rows,
        opts.timestamp,
        json!(format!("locklab · {}", preset.name)),
    );
    let mut out = header;
    out.push('\n');
    for (t, data) in frames {
        // Milliseconds are as fine as a player shows; rounding keeps the file diffable.
        let t = (t * 1000.0).round() / 1000.0;
        out.push_str(&json!([t, "o", data]).to_string());
        out.push('\n');
    }
    out
}
