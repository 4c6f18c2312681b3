//! Reusable drawing pieces: lanes over a timeline with their markers and legend, the event log,
//! the A/B/C service panel, the message sequence chart, sliders, the knob panel, the herd charts, large
//! captions and the key-hint line.

pub mod big_caption;
pub mod event_log;
pub mod herd_chart;
pub mod hints;
pub mod knob_panel;
pub mod lanes;
pub mod legend;
pub mod markers;
pub mod narration;
pub mod run_view;
pub mod sequence;
pub mod service_panel;
pub mod slider;

/// `s` cut to `cols` display columns, ending in `…` when cut (wide characters count two).
pub fn clip_cols(s: &str, cols: usize) -> String {
    crate::text::clip_cols(s, cols).into_owned()
}
