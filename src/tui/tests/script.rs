//! A scripted preset in the presenter: stepping, hiding and revealing the engine's answers, in
//! both languages, and every shipped script played to its end.

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use ratatui::buffer::Buffer;

use super::{LANGS, SIZES, app, key, press, screen, text};
use crate::i18n::Lang;
use crate::tui::app::{App, ScreenId};

const SCRIPTED: &str = r#"
family = "frozen"
locked = ["ttl"]

[about]
zh = "演示"
en = "Demo"

[[script]]
at = 12
zh = "A 开始停顿。"
en = "A freezes."

[[script]]
at = 20
zh = "现在谁持锁？"
en = "Who holds it now?"
ask = "holder_at"
question = { zh = "20 秒时谁持有锁？", en = "Who holds the lock at 20 s?" }

[[script]]
zh = "A 的写入会被接受吗？"
en = "Will A's write be accepted?"
ask = "write_accepted"
question = { zh = "A 的写入被接受了吗？", en = "Is A's write accepted?" }

[[script]]
set = { fencing = false }
zh = "关掉栅栏令牌再看。"
en = "Now without fencing."
ask = "verdict"
question = { zh = "结论是什么？", en = "What is the verdict?" }
"#;

/// Whether a presenter screen shows `caption`: written out, or in large type (the first row of
/// the same large letters drawn on their own appears on screen).
fn shows_caption(screen_text: &str, caption: &str, screen_width: u16) -> bool {
    use crate::tui::widgets::big_caption::big_lines;
    use ratatui::widgets::Widget;
    let first: String = caption.chars().take(6).collect();
    if screen_text.contains(&first) {
        return true;
    }
    let width = screen_width - 2;
    let Some(lines) = big_lines(caption, width, u16::MAX) else {
        return false;
    };
    let mut buf = Buffer::empty(ratatui::layout::Rect::new(0, 0, width, 4));
    tui_big_text::BigText::builder()
        .pixel_size(tui_big_text::PixelSize::Quadrant)
        .lines(vec![ratatui::text::Line::from(lines[0].clone())])
        .build()
        .render(buf.area, &mut buf);
    let rows = text(&buf);
    let row = rows
        .lines()
        .find(|l| !l.trim().is_empty())
        .unwrap_or_default();
    !row.trim().is_empty() && screen_text.contains(row.trim())
}

fn presenter(lang: Lang, size: (u16, u16)) -> App {
    let preset = crate::scenario::parse("demo", "demo.toml", SCRIPTED).expect("valid script");
    let mut a = app(ScreenId::Home, lang, size);
    a.present_preset(preset, true);
    a
}

#[test]
fn the_presenter_steps_hides_and_reveals_engine_answers() {
    for size in SIZES {
        let mut a = presenter(Lang::En, size);
        let first = screen(&a);
        assert!(
            shows_caption(&first, "A freezes.", size.0) && first.contains("1/4"),
            "{first}"
        );
        press(&mut a, key(' '));
        let asked = screen(&a);
        assert!(
            asked.contains("Question: Who holds the lock at 20 s?"),
            "{asked}"
        );
        assert!(!asked.contains("Answer:"), "hidden until revealed");
        press(&mut a, key('r'));
        let revealed = screen(&a);
        assert!(revealed.contains("Answer: B"), "{revealed}");
        // The lanes stop at the step's time: nothing of A's write at 38 s shows yet.
        press(&mut a, key(' '));
        let hidden = screen(&a);
        assert!(
            !hidden.contains("Answer:") && !hidden.contains("rejected"),
            "{hidden}"
        );
        press(&mut a, key('r'));
        assert!(screen(&a).contains("Answer: no"));
        press(&mut a, key(' '));
        press(&mut a, key('r'));
        let last = screen(&a);
        assert!(
            last.contains("Answer: corruption") && last.contains("4/4"),
            "{last}"
        );
        assert!(
            last.contains("overwrote B's accepted write"),
            "the outcome shows once revealed"
        );
        press(&mut a, key(' '));
        assert!(screen(&a).contains("4/4"), "stays on the last step");
        press(&mut a, KeyEvent::new(KeyCode::Left, KeyModifiers::NONE));
        assert!(screen(&a).contains("3/4"));
        press(&mut a, key('b'));
        assert!(screen(&a).trim().is_empty(), "blank screen");
        press(&mut a, key('b'));
        press(&mut a, key('q'));
        assert!(a.quit, "leaving a presentation opened on its own quits");
    }
}

#[test]
fn the_presenter_speaks_chinese() {
    let mut a = presenter(Lang::Zh, (80, 24));
    press(&mut a, key(' '));
    press(&mut a, key('r'));
    let s = screen(&a);
    assert!(
        s.contains("提问：20 秒时谁持有锁？") && s.contains("答案：B"),
        "{s}"
    );
}

#[test]
fn every_shipped_script_steps_to_the_end_in_both_languages() {
    let scripted: Vec<_> = crate::scenario::builtin()
        .iter()
        .filter(|p| !p.script.is_empty())
        .collect();
    for p in scripted {
        for lang in LANGS {
            for size in SIZES {
                let mut a = app(ScreenId::Home, lang, size);
                a.present_preset(p.clone(), false);
                for _ in 0..p.script.len() {
                    press(&mut a, key('r'));
                    let s = screen(&a);
                    let step = a.present.as_ref().map_or(0, |s| s.step);
                    let caption = lang.pick(&p.script[step].caption.zh, &p.script[step].caption.en);
                    assert!(
                        shows_caption(&s, caption, size.0),
                        "{} step {step}: {s}",
                        p.name
                    );
                    press(&mut a, key(' '));
                }
                let st = a.present.as_ref().unwrap();
                assert_eq!(st.step + 1, p.script.len(), "{}", p.name);
                press(&mut a, key('q'));
                assert_eq!(a.screen, ScreenId::Home);
            }
        }
    }
}

#[test]
fn a_class_script_can_open_in_prediction_mode_and_score_a_pick() {
    let text = SCRIPTED.replacen(
        "locked = [\"ttl\"]",
        "locked = [\"ttl\"]\npredict = true",
        1,
    );
    let preset = crate::scenario::parse("demo", "demo.toml", &text).expect("valid script");
    assert!(preset.predict);
    for lang in LANGS {
        let mut a = app(ScreenId::Home, lang, (140, 42));
        a.present_preset(preset.clone(), true);
        press(&mut a, key(' '));
        let st = a.present.as_ref().expect("presenting");
        let choices = st.choices(lang);
        // Who holds at 20 s: B, as the engine answers; A held before it.
        let right = crate::scenario::answers::answer(
            crate::scenario::script::Ask::HolderAt,
            &st.trace,
            20_000,
            lang,
        );
        let n = choices
            .iter()
            .position(|c| *c == right)
            .expect("the answer is a choice");
        let s = screen(&a);
        let prompt =
            crate::i18n::present::present(crate::i18n::present::Present::PredictPrompt, lang);
        assert!(s.contains(prompt.trim_end()), "{s}");
        press(&mut a, key(char::from(b'1' + n as u8)));
        let s = screen(&a);
        let st = a.present.as_ref().expect("presenting");
        assert!(st.revealed && st.picked == Some(n));
        let verdict =
            crate::i18n::present::present(crate::i18n::present::Present::PredictRight, lang);
        assert!(s.contains(verdict), "{s}");
    }
}
