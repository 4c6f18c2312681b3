//! Embeds locklab's content (lessons, quiz decks, scenario presets) into the binary.
//!
//! Walks `content/`, `quizzes/` and `assets/`, tells cargo to rerun when anything in them changes
//! (new files included), and writes a sorted table of `include_str!` entries.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

const ROOTS: [&str; 3] = ["content", "quizzes", "assets"];
const EXTENSIONS: [&str; 2] = ["md", "toml"];

fn main() {
    let manifest = PathBuf::from(std::env::var("CARGO_MANIFEST_DIR").expect("set by cargo"));
    let mut files = Vec::new();
    for root in ROOTS {
        let dir = manifest.join(root);
        println!("cargo:rerun-if-changed={}", dir.display());
        walk(&dir, &mut files);
    }
    files.sort();
    let mut out =
        String::from("/// Every embedded file: (path relative to the repository, text).\n");
    out.push_str("pub static FILES: &[(&str, &str)] = &[\n");
    for file in &files {
        let rel = file
            .strip_prefix(&manifest)
            .expect("under the manifest dir");
        let rel = rel.to_string_lossy().replace('\\', "/");
        writeln!(
            out,
            "    ({rel:?}, include_str!({:?})),",
            file.display().to_string()
        )
        .unwrap();
    }
    out.push_str("];\n");
    let dest = PathBuf::from(std::env::var("OUT_DIR").expect("set by cargo")).join("embedded.rs");
    std::fs::write(dest, out).expect("OUT_DIR is writable");
}

fn walk(dir: &Path, files: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_dir() {
            println!("cargo:rerun-if-changed={}", path.display());
            walk(&path, files);
        } else if path
            .extension()
            .and_then(|e| e.to_str())
            .is_some_and(|e| EXTENSIONS.contains(&e))
        {
            files.push(path);
        }
    }
}
