//! The view model: the meanings every view draws (a span's class, a marker), below the words
//! and the views, so the terminal screens and the exports share them without importing each
//! other.

mod class;

pub use class::{Class, Mark};
