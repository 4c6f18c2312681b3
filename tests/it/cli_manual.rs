//! The shell completions, the manual page and `--version`: generated from the clap
//! definitions, and checked by the programs that read them (bash, man, git).

use std::process::Command;

use crate::common::{locklab, stdout};

/// The subcommands clap knows under `path` (empty: the top level), `help` left out.
fn subcommands(path: &[&str]) -> Vec<String> {
    let mut cmd = locklab::cli::command();
    for name in path {
        cmd = cmd
            .find_subcommand(name)
            .unwrap_or_else(|| panic!("no subcommand {name}"))
            .clone();
    }
    // A hidden subcommand is locklab's own (a live run's client process), not the user's.
    cmd.get_subcommands()
        .filter(|c| !c.is_hide_set())
        .map(|c| c.get_name().to_string())
        .filter(|n| n != "help")
        .collect()
}

/// What bash's completion function offers for `words`, the last one being completed.
fn bash_complete(script: &std::path::Path, words: &[&str]) -> Vec<String> {
    let line = words.join(" ");
    let cword = words.len() - 1;
    let array: Vec<String> = words.iter().map(|w| format!("'{w}'")).collect();
    let program = format!(
        "source '{}' || exit 3\n\
         complete -p locklab || exit 4\n\
         COMP_WORDS=({})\nCOMP_CWORD={cword}\nCOMP_LINE='{line}'\nCOMP_POINT=${{#COMP_LINE}}\n\
         _locklab locklab '{}' '{}'\n\
         printf '%s\\n' \"${{COMPREPLY[@]}}\"",
        script.display(),
        array.join(" "),
        words[cword],
        words[cword - 1],
    );
    let out = Command::new("bash")
        .args(["--norc", "--noprofile", "-c", &program])
        .output()
        .expect("bash runs");
    assert!(
        out.status.success(),
        "bash failed ({:?}): {}",
        out.status,
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    let mut lines = text.lines();
    // The first line is `complete -p`'s: the function is registered for locklab.
    let registered = lines.next().unwrap_or_default();
    assert!(
        registered.contains("-F _locklab") && registered.ends_with(" locklab"),
        "{registered}"
    );
    lines.map(str::to_string).collect()
}

#[test]
fn bash_completion_sources_and_completes_the_sim_families() {
    let out = locklab(&["completions", "bash"]);
    assert!(out.status.success());
    let dir = tempfile::tempdir().unwrap();
    let script = dir.path().join("locklab.bash");
    std::fs::write(&script, &out.stdout).unwrap();

    let offered = bash_complete(&script, &["locklab", "sim", ""]);
    // The families the documentation lists for `locklab sim`, and every one clap knows.
    for family in [
        "frozen",
        "abc",
        "herd",
        "rwlock",
        "redlock",
        "snowflake",
        "run",
        "list",
    ] {
        assert!(offered.iter().any(|o| o == family), "{family}: {offered:?}");
    }
    for name in subcommands(&["sim"]) {
        assert!(offered.contains(&name), "{name}: {offered:?}");
    }
    // A top-level subcommand is not one of sim's.
    assert!(!offered.iter().any(|o| o == "quiz"), "{offered:?}");

    let top = bash_complete(&script, &["locklab", "ex"]);
    assert_eq!(top, ["export", "explore"].map(String::from), "{top:?}");
    let flags = bash_complete(&script, &["locklab", "export", "--fo"]);
    assert_eq!(flags, ["--format"], "{flags:?}");
    let formats = bash_complete(&script, &["locklab", "export", "--format", ""]);
    assert_eq!(formats, ["svg", "txt"], "{formats:?}");

    // Preset names, each command offering the family it opens.
    let abc = bash_complete(&script, &["locklab", "abc", "lost"]);
    assert_eq!(abc, ["lost-create", "lost-create-blind"], "{abc:?}");
    let frozen = bash_complete(&script, &["locklab", "frozen", "frozen-f"]);
    assert_eq!(frozen, ["frozen-fenced"], "{frozen:?}");
    let sim = bash_complete(&script, &["locklab", "sim", "abc", "--preset", "watch"]);
    assert_eq!(sim, ["watch-race", "watch-race-broken"], "{sim:?}");
    let knobs = bash_complete(
        &script,
        &["locklab", "sim", "redlock", "--preset", "redlock-n"],
    );
    assert_eq!(knobs, ["redlock-naive-del"], "{knobs:?}");
    let any = bash_complete(&script, &["locklab", "present", "task-c"]);
    assert_eq!(any, ["task-cancel", "task-claim"], "{any:?}");
}

#[test]
fn every_shell_gets_its_own_script() {
    for (shell, marker) in [
        ("bash", "complete -F _locklab"),
        ("zsh", "#compdef locklab"),
        ("fish", "complete -c locklab"),
        ("powershell", "Register-ArgumentCompleter"),
    ] {
        let out = locklab(&["completions", shell]);
        assert!(out.status.success(), "{shell}");
        let text = stdout(&out);
        assert!(
            text.contains(marker),
            "{shell}: {}",
            &text[..text.len().min(300)]
        );
        assert!(text.contains("explore"), "{shell} offers no subcommands");
    }
    let bad = locklab(&["completions", "tcsh"]);
    assert_eq!(bad.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&bad.stderr).contains("tcsh"));
}

#[test]
fn the_manual_page_renders_with_man_and_lists_every_subcommand() {
    let out = locklab(&["man"]);
    assert!(out.status.success());
    let roff = stdout(&out);
    assert!(
        roff.contains(".TH locklab 1"),
        "{}",
        &roff[..roff.len().min(300)]
    );
    let have_man = Command::new("man").arg("--version").output().is_ok();
    if !have_man {
        eprintln!("skipped rendering: `man` is not installed (apt-get install -y man-db)");
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let page = dir.path().join("locklab.1");
    std::fs::write(&page, &out.stdout).unwrap();
    let shown = Command::new("man")
        .arg("-l")
        .arg(&page)
        .env("MANPAGER", "cat")
        .env("PAGER", "cat")
        .env("MANWIDTH", "100")
        .env("LANG", "C.UTF-8")
        .output()
        .expect("man runs");
    assert!(
        shown.status.success(),
        "{}",
        String::from_utf8_lossy(&shown.stderr)
    );
    let text = String::from_utf8_lossy(&shown.stdout);
    for section in ["NAME", "SYNOPSIS", "OPTIONS", "SUBCOMMANDS", "VERSION"] {
        assert!(text.contains(section), "{section} missing:\n{text}");
    }
    for name in subcommands(&[]) {
        assert!(
            text.contains(&format!("locklab-{name}")),
            "{name} missing:\n{text}"
        );
    }
    // Rendered, not shown raw: no roff request survives.
    assert!(!text.contains(".SH") && !text.contains(".TH"), "{text}");
}

#[test]
fn version_names_the_commit_it_was_built_from() {
    let out = locklab(&["--version"]);
    assert!(out.status.success());
    let version = stdout(&out);
    let expected = format!("locklab {}", env!("CARGO_PKG_VERSION"));
    assert!(version.starts_with(&expected), "{version}");
    let git = |args: &[&str]| {
        Command::new("git")
            .args(args)
            .current_dir(env!("CARGO_MANIFEST_DIR"))
            .output()
            .ok()
            .filter(|o| o.status.success())
            .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_string())
    };
    // Built from this repository's own checkout (not from sources unpacked inside another one).
    let own = git(&["rev-parse", "--show-toplevel"]).is_some_and(|top| {
        std::fs::canonicalize(top).ok() == std::fs::canonicalize(env!("CARGO_MANIFEST_DIR")).ok()
    });
    match git(&["rev-parse", "--short=7", "HEAD"]).filter(|_| own) {
        Some(hash) => assert_eq!(version.trim(), format!("{expected} (commit {hash})")),
        _ => assert_eq!(version.trim(), expected, "no git checkout, no commit"),
    }
}
