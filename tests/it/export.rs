//! `locklab export`: stable, well-formed SVG and text with nothing outside the file.

use std::process::Command;

use locklab::engine::time::from_secs;
use locklab::export::{svg, text};
use locklab::i18n::Lang;
use locklab::scenario;

fn svg_of(name: &str, at: Option<f64>, lang: Lang) -> String {
    let p = scenario::find(name).unwrap();
    let t = locklab::engine::run(&p.params);
    svg::render(
        &p.name,
        lang.pick(&p.about.zh, &p.about.en),
        &t,
        at.map(from_secs),
        lang,
    )
}

fn assert_standalone(doc: &str) {
    let parsed = roxmltree::Document::parse(doc).expect("well-formed XML");
    assert_eq!(parsed.root_element().tag_name().name(), "svg");
    for needle in [
        "href", "url(", "http://", "https://", "@import", "<image", "<script",
    ] {
        let outside_ns = doc.replace("http://www.w3.org/2000/svg", "");
        assert!(!outside_ns.contains(needle), "external reference {needle}");
    }
}

#[test]
fn every_preset_exports_a_well_formed_standalone_svg() {
    for p in scenario::builtin() {
        for lang in [Lang::En, Lang::Zh] {
            assert_standalone(&svg_of(&p.name, None, lang));
        }
    }
}

#[test]
fn the_frozen_svg_shows_the_lanes_danger_window_and_verdict() {
    let doc = svg_of("frozen-fenced", Some(20.0), Lang::En);
    for needle in [
        "A as A believes",
        "service view",
        "resource",
        "danger window 19 s",
        "✗ A #1",
        "✓ B #2",
        "t = 20 s",
    ] {
        assert!(doc.contains(needle), "missing {needle}");
    }
    assert!(doc.contains("Stale write rejected"));
    let zh = svg_of("frozen-fenced", None, Lang::Zh);
    assert!(
        zh.contains("危险窗口 19 s") && zh.contains("陈旧写入被拒"),
        "CJK labels"
    );
}

#[test]
fn the_herd_svg_has_one_row_per_release() {
    let doc = svg_of("herd-50", None, Lang::En);
    let parsed = roxmltree::Document::parse(&doc).unwrap();
    let winners = parsed
        .descendants()
        .filter(|n| n.attribute("fill") == Some("#2e7d32"))
        .count();
    assert_eq!(winners, 50 + 1, "50 winner cells and one legend swatch");
    assert!(doc.contains("notifications 1275"));
}

#[test]
fn exports_are_stable() {
    insta::assert_snapshot!(
        "frozen_fenced_at_20.svg",
        svg_of("frozen-fenced", Some(20.0), Lang::En)
    );
    insta::assert_snapshot!(
        "gc_pause_fencing_zh.svg",
        svg_of("gc-pause-fencing", None, Lang::Zh)
    );
    let p = scenario::find("frozen-fenced").unwrap();
    let t = locklab::engine::run(&p.params);
    let txt = text::report_at(
        &p.name,
        Some(&p.about.en),
        &p.params,
        &t,
        Some(20_000),
        Lang::En,
    );
    insta::assert_snapshot!("frozen_fenced_at_20.txt", txt);
}

#[test]
fn the_export_command_writes_files_and_rejects_bad_input() {
    let dir = std::env::temp_dir().join(format!("locklab-export-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let out = dir.join("fenced.svg");
    let bin = env!("CARGO_BIN_EXE_locklab");
    let ok = Command::new(bin)
        .args([
            "export",
            "frozen-fenced",
            "--format",
            "svg",
            "--at",
            "20",
            "-o",
        ])
        .arg(&out)
        .output()
        .unwrap();
    assert!(
        ok.status.success(),
        "{}",
        String::from_utf8_lossy(&ok.stderr)
    );
    assert_standalone(&std::fs::read_to_string(&out).unwrap());

    let txt = Command::new(bin)
        .args([
            "--lang", "zh", "export", "chain", "--format", "txt", "-o", "-",
        ])
        .output()
        .unwrap();
    assert!(String::from_utf8_lossy(&txt.stdout).contains("每次释放") || txt.status.success());

    for args in [
        vec![
            "export",
            "frozen-fenced",
            "--format",
            "svg",
            "--at",
            "41",
            "-o",
            "-",
        ],
        vec![
            "export", "herd-50", "--format", "svg", "--at", "1", "-o", "-",
        ],
        vec!["export", "no-such", "--format", "txt", "-o", "-"],
    ] {
        let o = Command::new(bin).args(&args).output().unwrap();
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        assert!(!String::from_utf8_lossy(&o.stderr).contains("panicked"));
    }
    std::fs::remove_dir_all(&dir).ok();
}
