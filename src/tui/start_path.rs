//! How far a first visit has come along home's "Start here" path (the first lesson, its lab,
//! its quiz), kept in `start-here.toml` in the data folder so the next visit resumes at the
//! step after the last one opened.
//!
//! The file is written by the progress store's atomic replace (private folder and file, no
//! link followed, crash leftovers cleared), like the reading positions; a missing or broken
//! file reads as a first visit rather than refusing to open home.

use std::path::Path;

use serde::{Deserialize, Serialize};

pub const FILE: &str = "start-here.toml";
/// A few bytes are enough; anything larger is not ours.
const LIMIT: u64 = 4096;

#[derive(Debug, Default, Serialize, Deserialize)]
struct File {
    /// How many steps of the path have been opened, counted from the first.
    #[serde(default)]
    reached: usize,
}

/// The steps opened so far; 0 when there is no file or it cannot be read.
pub fn load(dir: &Path) -> usize {
    crate::progress::store::read_in_data_dir(dir, FILE, LIMIT)
        .and_then(|text| toml::from_str::<File>(&text).ok())
        .map_or(0, |f| f.reached)
}

/// Replaces the file with `reached`, atomically.
pub fn save(dir: &Path, reached: usize) -> std::io::Result<()> {
    let text = toml::to_string(&File { reached }).map_err(std::io::Error::other)?;
    crate::progress::store::write_in_data_dir(dir, FILE, text.as_bytes())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trip_broken_files_read_as_a_first_visit() {
        let dir = tempfile::tempdir().unwrap();
        assert_eq!(load(dir.path()), 0);
        save(dir.path(), 2).unwrap();
        assert_eq!(load(dir.path()), 2);
        std::fs::write(dir.path().join(FILE), "reached = \"two\"").unwrap();
        assert_eq!(load(dir.path()), 0);
        save(dir.path(), 3).unwrap();
        assert_eq!(load(dir.path()), 3);
        // One file, no temporary left behind, private like the progress file.
        use std::os::unix::fs::PermissionsExt;
        let names: Vec<_> = std::fs::read_dir(dir.path()).unwrap().collect();
        assert_eq!(names.len(), 1);
        let mode = std::fs::metadata(dir.path().join(FILE))
            .unwrap()
            .permissions()
            .mode();
        assert_eq!(mode & 0o777, 0o600);
    }

    #[test]
    fn a_link_at_the_name_is_neither_read_nor_replaced() {
        let root = tempfile::tempdir().unwrap();
        let dir = root.path().join("data");
        save(&dir, 1).unwrap();
        let elsewhere = root.path().join("elsewhere.toml");
        std::fs::write(&elsewhere, "reached = 2\n").unwrap();
        std::fs::remove_file(dir.join(FILE)).unwrap();
        std::os::unix::fs::symlink(&elsewhere, dir.join(FILE)).unwrap();
        assert_eq!(load(&dir), 0);
        assert!(save(&dir, 3).is_err());
        assert_eq!(
            std::fs::read_to_string(&elsewhere).unwrap(),
            "reached = 2\n"
        );
    }
}
