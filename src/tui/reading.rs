//! Where the reader left off in each lesson, kept in `reading.toml` in the data folder.
//!
//! A position is a section (the `##` headings counted from 1, 0 for the text before the first)
//! and a row offset within it, so it survives a change of width or language. The file is replaced
//! atomically (a temporary file in the same folder, then a rename), and a missing or broken file
//! is ignored: the reader then starts at the top rather than refusing to open.

use std::collections::BTreeMap;
use std::io::Write;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

/// The environment variable naming the data folder.
pub const DATA_DIR_VAR: &str = "LOCKLAB_DATA_DIR";
pub const FILE: &str = "reading.toml";

#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Position {
    pub section: usize,
    pub offset: usize,
}

#[derive(Debug, Default, Serialize, Deserialize)]
struct File {
    #[serde(default)]
    lessons: BTreeMap<String, Position>,
}

/// The data folder from the environment, if one is set.
pub fn data_dir_from_env() -> Option<PathBuf> {
    std::env::var_os(DATA_DIR_VAR)
        .filter(|v| !v.is_empty())
        .map(PathBuf::from)
}

/// The saved positions; empty when there is no file or it cannot be read.
pub fn load(dir: &Path) -> BTreeMap<String, Position> {
    std::fs::read_to_string(dir.join(FILE))
        .ok()
        .and_then(|text| toml::from_str::<File>(&text).ok())
        .map(|f| f.lessons)
        .unwrap_or_default()
}

/// Replaces the file with `positions`, atomically.
pub fn save(dir: &Path, positions: &BTreeMap<String, Position>) -> std::io::Result<()> {
    let text = toml::to_string(&File {
        lessons: positions.clone(),
    })
    .map_err(std::io::Error::other)?;
    std::fs::create_dir_all(dir)?;
    let mut tmp = tempfile::NamedTempFile::new_in(dir)?;
    tmp.write_all(text.as_bytes())?;
    tmp.as_file().sync_all()?;
    tmp.persist(dir.join(FILE)).map_err(|e| e.error)?;
    // The rename itself is only durable once the folder is synced; not every system allows it.
    if let Ok(d) = std::fs::File::open(dir) {
        let _ = d.sync_all();
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trip_and_broken_files_are_ignored() {
        let dir = tempfile::tempdir().unwrap();
        assert!(load(dir.path()).is_empty());
        let mut p = BTreeMap::new();
        p.insert(
            "05-fencing".to_string(),
            Position {
                section: 3,
                offset: 4,
            },
        );
        save(dir.path(), &p).unwrap();
        assert_eq!(load(dir.path()), p);
        std::fs::write(dir.path().join(FILE), "lessons = [[[ not toml").unwrap();
        assert!(load(dir.path()).is_empty());
        // Saving over a broken file works and leaves no temporary files behind.
        save(dir.path(), &p).unwrap();
        assert_eq!(load(dir.path()), p);
        let names: Vec<_> = std::fs::read_dir(dir.path()).unwrap().collect();
        assert_eq!(names.len(), 1);
    }
}
