//! Where the reader left off in each lesson, kept in `reading.toml` in the data folder.
//!
//! A position is a section (the `##` headings counted from 1, 0 for the text before the first)
//! and a row offset within it, so it survives a change of width or language. The file lives in
//! the progress store's data folder and is written by the store's own atomic replace (private
//! folder and file, no link followed, crash leftovers cleared); a missing or broken file is
//! ignored: the reader then starts at the top rather than refusing to open.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

/// The environment variable naming the data folder.
pub const DATA_DIR_VAR: &str = "LOCKLAB_DATA_DIR";
pub const FILE: &str = "reading.toml";
/// Far more than any number of lessons needs.
const LIMIT: u64 = 1 << 20;

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
    crate::progress::store::read_in_data_dir(dir, FILE, LIMIT)
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
    crate::progress::store::write_in_data_dir(dir, FILE, text.as_bytes())
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

    #[test]
    fn positions_are_private_and_kept_like_the_progress_file() {
        use std::os::unix::fs::PermissionsExt;
        let root = tempfile::tempdir().unwrap();
        let dir = root.path().join("new-data-folder");
        let mut p = BTreeMap::new();
        p.insert("01-ephemeral-nodes".to_string(), Position::default());
        save(&dir, &p).unwrap();
        let mode = |path: &Path| std::fs::metadata(path).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode(&dir), 0o700);
        assert_eq!(mode(&dir.join(FILE)), 0o600);
        // A save cut short leaves a temporary file the progress store clears when it opens.
        let left = dir.join(".progress-cut-short.tmp");
        std::fs::write(&left, "half").unwrap();
        drop(crate::progress::store::Store::open(&dir, 0).unwrap());
        assert!(!left.exists());
        // A link at the file's name is neither read through nor replaced.
        let elsewhere = root.path().join("elsewhere.toml");
        std::fs::remove_file(dir.join(FILE)).unwrap();
        std::fs::write(&elsewhere, "[lessons.x]\nsection = 2\noffset = 0\n").unwrap();
        std::os::unix::fs::symlink(&elsewhere, dir.join(FILE)).unwrap();
        assert!(load(&dir).is_empty());
        assert!(save(&dir, &p).is_err());
        assert!(
            std::fs::read_to_string(&elsewhere)
                .unwrap()
                .contains("section = 2")
        );
    }
}
