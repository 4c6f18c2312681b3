//! Embeds locklab's content (lessons, quiz decks, scenario presets) into the binary.
//!
//! Walks `content/`, `quizzes/` and `assets/`, tells cargo to rerun when anything in them changes
//! (new files included), and writes a sorted table of `include_str!` entries.
//!
//! Also names the git commit being built, for `--version`, when the source is a git checkout
//! with git installed; a tarball or a machine without git builds the same, without it.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::Command;

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
    commit(&manifest);
}

/// Sets `LOCKLAB_COMMIT` to ` (commit abc1234)`, or to nothing outside a git checkout. Cargo
/// reruns this only when HEAD moves (a checkout, a commit on the branch), not on every build.
fn commit(manifest: &Path) {
    let git = |args: &[&str]| -> Option<String> {
        let out = Command::new("git")
            .args(args)
            .current_dir(manifest)
            .output()
            .ok()?;
        let text = String::from_utf8(out.stdout).ok()?;
        (out.status.success() && !text.trim().is_empty()).then(|| text.trim().to_string())
    };
    // Only this repository's own commit: a source tarball unpacked inside some other checkout
    // names none.
    let own = git(&["rev-parse", "--show-toplevel"])
        .and_then(|top| std::fs::canonicalize(top).ok())
        .is_some_and(|top| std::fs::canonicalize(manifest).is_ok_and(|m| m == top));
    let hash = own
        .then(|| git(&["rev-parse", "--short=7", "HEAD"]))
        .flatten();
    if hash.is_some() {
        // HEAD itself, where refs go when packed, and the branch's ref: whichever moves.
        for name in ["HEAD", "packed-refs"] {
            if let Some(path) = git(&["rev-parse", "--git-path", name]) {
                let path = manifest.join(path);
                if path.exists() {
                    println!("cargo:rerun-if-changed={}", path.display());
                }
            }
        }
        if let Some(path) = git(&["symbolic-ref", "-q", "HEAD"])
            .and_then(|branch| git(&["rev-parse", "--git-path", &branch]))
        {
            let path = manifest.join(path);
            // A packed ref has no file of its own; it becomes one, in this folder, when it moves.
            let watched = if path.exists() {
                Some(path.as_path())
            } else {
                path.parent()
            };
            if let Some(p) = watched {
                println!("cargo:rerun-if-changed={}", p.display());
            }
        }
    }
    let text = hash.map_or_else(String::new, |h| format!(" (commit {h})"));
    println!("cargo:rustc-env=LOCKLAB_COMMIT={text}");
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
