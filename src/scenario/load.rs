//! Where presets come from: the files under `assets/scenarios/` of a [`Source`], a user's own
//! file, and the set the terminal screens use.

use std::path::Path;

use super::error::{LoadError, PresetError};
use super::parse::parse;
use super::preset::Preset;
use crate::source::{Source, SourceFile};

/// Every preset under `assets/scenarios/`, sorted by name.
pub fn load_all(source: &Source) -> Result<Vec<Preset>, LoadError> {
    let files = source
        .files("assets/scenarios", "toml")
        .map_err(|e| LoadError::Io {
            path: "assets/scenarios".into(),
            source: e,
        })?;
    let mut presets = files
        .iter()
        .map(parse_file)
        .collect::<Result<Vec<_>, _>>()?;
    presets.sort_by(|a, b| a.name.cmp(&b.name));
    Ok(presets)
}

fn parse_file(f: &SourceFile) -> Result<Preset, PresetError> {
    if let Some(u) = &f.unreadable {
        return Err(PresetError {
            file: f.display.clone(),
            line: u.line,
            column: u.column,
            key: None,
            message: u.message.clone(),
        });
    }
    let name = f
        .rel
        .rsplit('/')
        .next()
        .unwrap_or(&f.rel)
        .trim_end_matches(".toml");
    parse(name, &f.display, &f.text)
}

/// The shipped presets, parsed once. A shipped preset that fails to parse is a build defect,
/// caught by the test suite; here it is reported and skipped rather than crashing a user's run.
pub fn builtin() -> &'static [Preset] {
    static PRESETS: std::sync::OnceLock<Vec<Preset>> = std::sync::OnceLock::new();
    PRESETS.get_or_init(|| load_all(&Source::Embedded).unwrap_or_default())
}

/// A shipped preset by name.
pub fn find(name: &str) -> Option<&'static Preset> {
    builtin().iter().find(|p| p.name == name)
}

static ACTIVE: std::sync::OnceLock<Vec<Preset>> = std::sync::OnceLock::new();

/// Makes the presets of `source` the ones the terminal screens use everywhere: the A/B/C
/// screen, Home's presentations and the lessons' `sim:` links, so they agree with `locklab
/// check` and `locklab sim` on the same source. Called once, before the screens open; the
/// embedded presets need no call.
pub fn use_source(source: &Source) -> Result<(), LoadError> {
    if *source == Source::Embedded {
        return Ok(());
    }
    let presets = load_all(source)?;
    let _ = ACTIVE.set(presets);
    Ok(())
}

/// The presets in use: those of the source given to [`use_source`], else the shipped ones.
pub fn active() -> &'static [Preset] {
    ACTIVE.get().map_or_else(builtin, Vec::as_slice)
}

/// Reads a user's scenario file: a regular file of at most [`CONTENT_LIMIT`] bytes of UTF-8.
///
/// [`CONTENT_LIMIT`]: crate::source::CONTENT_LIMIT
pub fn load_file(path: &Path) -> Result<Preset, LoadError> {
    use crate::source::{CONTENT_LIMIT, Links, ReadError, read_text};
    let file = path.display().to_string();
    let text = read_text(path, CONTENT_LIMIT, Links::Follow).map_err(|e| match e {
        ReadError::NotUtf8 {
            line,
            column,
            ref valid,
        } => LoadError::Preset(PresetError {
            file: file.clone(),
            line,
            column,
            key: crate::toml_place::key_path(valid, valid.len()),
            message: "not valid UTF-8 text".into(),
        }),
        ReadError::Io(source) => LoadError::Io {
            path: file.clone(),
            source,
        },
        other => LoadError::Io {
            path: file.clone(),
            source: std::io::Error::other(other.to_string()),
        },
    })?;
    let name = path
        .file_stem()
        .map_or_else(|| "scenario".into(), |s| s.to_string_lossy().to_string());
    Ok(parse(&name, &path.display().to_string(), &text)?)
}
