//! Reusable drawing pieces: lanes over a timeline, sliders and the herd chart.

pub mod herd_chart;
pub mod lanes;
pub mod slider;
