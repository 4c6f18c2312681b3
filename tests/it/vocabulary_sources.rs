//! The interface's words anywhere in the source follow the glossary: `locklab check` reads the
//! string tables it is built with; this test reads every Rust file, so a literal in a screen or
//! an export cannot drift either.

use std::path::Path;

use crate::common::rust_files;
use locklab::content::lesson;
use locklab::content::vocab::{self, Vocabulary};
use locklab::i18n::Lang;
use locklab::source::Source;

#[test]
fn no_source_file_uses_an_avoided_variant() {
    let glossaries: Vec<_> = lesson::load_glossaries(&Source::Embedded)
        .unwrap()
        .into_iter()
        .map(|g| g.unwrap())
        .collect();
    let vocabulary = Vocabulary::from_glossaries(&glossaries);
    assert!(
        !vocabulary.variants().is_empty(),
        "the glossaries list variants to avoid"
    );
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = Vec::new();
    rust_files(&root.join("src"), &mut files);
    let mut problems = Vec::new();
    for file in files {
        // The vocabulary's own tests spell out what they look for.
        if file.ends_with("content/vocab.rs") {
            continue;
        }
        let whole = std::fs::read_to_string(&file).unwrap();
        // Unit tests spell out variants on purpose; the shipped code ends where they begin.
        let src = whole.split("\n#[cfg(test)]").next().unwrap_or(&whole);
        for range in vocab::rust_strings(src) {
            let literal = &src[range.clone()];
            let lang = if vocab::is_chinese(literal) {
                Lang::Zh
            } else {
                Lang::En
            };
            for (at, v) in vocabulary.hits(lang, literal, &[]) {
                let line = src[..range.start + at].lines().count();
                problems.push(format!(
                    "{}:{line}: {}",
                    file.strip_prefix(root).unwrap().display(),
                    v.message()
                ));
            }
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}
