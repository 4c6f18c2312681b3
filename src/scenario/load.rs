//! Where presets come from: the files under `assets/scenarios/` of a [`Source`], a user's own
//! file, and the catalogue a run hands to whatever opens presets.

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

/// The presets one run of locklab uses, all from one content source: handed to the screens
/// and commands that open presets, which find them by name.
#[derive(Debug, Default)]
pub struct Catalogue {
    presets: Vec<Preset>,
}

impl Catalogue {
    /// A catalogue of exactly these presets, sorted by name as a folder's are.
    pub fn of(mut presets: Vec<Preset>) -> Self {
        presets.sort_by(|a, b| a.name.cmp(&b.name));
        Self { presets }
    }

    /// The shipped presets, parsed once. A shipped preset that fails to parse is a build
    /// defect, caught by the test suite; here it is reported and skipped rather than crashing a
    /// user's run.
    pub fn embedded() -> &'static Catalogue {
        static SHIPPED: std::sync::OnceLock<Catalogue> = std::sync::OnceLock::new();
        SHIPPED.get_or_init(|| Catalogue::of(load_all(&Source::Embedded).unwrap_or_default()))
    }

    /// The presets of `source`. The screens keep references to presets for as long as the
    /// program runs, so a folder's catalogue is read once and kept for the process.
    pub fn load(source: &Source) -> Result<&'static Catalogue, LoadError> {
        if *source == Source::Embedded {
            return Ok(Self::embedded());
        }
        Ok(Box::leak(Box::new(Catalogue::of(load_all(source)?))))
    }

    /// Every preset, sorted by name.
    pub fn all(&self) -> &[Preset] {
        &self.presets
    }

    /// The preset named `name`.
    pub fn find(&self, name: &str) -> Option<&Preset> {
        self.presets.iter().find(|p| p.name == name)
    }

    /// The presets of `family`, in name order.
    pub fn of_family(&self, family: crate::engine::trace::Family) -> Vec<&Preset> {
        self.presets.iter().filter(|p| p.family == family).collect()
    }
}

/// The shipped presets, sorted by name.
pub fn builtin() -> &'static [Preset] {
    Catalogue::embedded().all()
}

/// A shipped preset by name.
pub fn find(name: &str) -> Option<&'static Preset> {
    Catalogue::embedded().find(name)
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
