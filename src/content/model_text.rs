//! The words of a model question: its `{placeholders}`, filled with the values drawn for an
//! attempt and the drawn case's words, and numbers written the way the bank writes them.

use super::deck::Question;
use super::model::{CASE_PLACEHOLDER, ModelDraw};

/// Formats a parameter value as the bank writes it: no trailing zeros (`12`, `12.5`, `4.25`).
pub fn fmt_value(v: f64) -> String {
    if v.fract() == 0.0 && v.abs() < 1e15 {
        format!("{}", v as i64)
    } else {
        let s = format!("{v:.6}");
        s.trim_end_matches('0').trim_end_matches('.').to_string()
    }
}

/// The `{name}` placeholders in a text, with their byte offsets, in order.
pub fn placeholders(text: &str) -> Vec<(usize, &str)> {
    let mut out = Vec::new();
    let mut rest = text;
    let mut base = 0;
    while let Some(open) = rest.find('{') {
        let after = &rest[open + 1..];
        let len = after
            .find(|c: char| !(c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_'))
            .unwrap_or(after.len());
        if len > 0 && after[len..].starts_with('}') {
            out.push((base + open, &after[..len]));
        }
        base += open + 1;
        rest = after;
    }
    out
}

/// The words of the drawn case in one language, if the question has cases.
pub fn case_text<'q>(q: &'q Question, v: &ModelDraw, lang: crate::i18n::Lang) -> Option<&'q str> {
    let c = q.model.as_ref()?.cases.get(v.case?)?.get_ref();
    Some(lang.pick(&c.zh, &c.en))
}

/// Fills `{param}` placeholders with the values drawn for this variant; others stay as written.
pub fn fill(text: &str, v: &ModelDraw) -> String {
    fill_case(text, v, None)
}

/// Like [`fill`], and `{case}` with the drawn case's words.
pub fn fill_case(text: &str, v: &ModelDraw, case: Option<&str>) -> String {
    let mut out = String::with_capacity(text.len());
    let mut last = 0;
    for (at, name) in placeholders(text) {
        let value = match (v.drawn.get(name), case) {
            (Some(value), _) => fmt_value(*value),
            (None, Some(words)) if name == CASE_PLACEHOLDER => words.to_string(),
            _ => continue,
        };
        out.push_str(&text[last..at]);
        out.push_str(&value);
        last = at + name.len() + 2;
    }
    out.push_str(&text[last..]);
    out
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeMap;

    use super::*;
    use crate::engine::params::{FrozenParams, Params};

    #[test]
    fn values_print_without_trailing_zeros() {
        assert_eq!(fmt_value(12.0), "12");
        assert_eq!(fmt_value(12.5), "12.5");
        assert_eq!(fmt_value(4.25), "4.25");
        assert_eq!(fmt_value(0.1 + 0.2), "0.3");
    }

    #[test]
    fn placeholders_are_found_and_filled() {
        let text = "pause {pause_len} s at {pause_start}; code {a b} {}";
        let names: Vec<&str> = placeholders(text).into_iter().map(|(_, n)| n).collect();
        assert_eq!(names, ["pause_len", "pause_start"]);
        let v = ModelDraw {
            params: Params::Frozen(FrozenParams::default()),
            drawn: BTreeMap::from([("pause_len".to_string(), 6.5)]),
            case: Some(0),
        };
        assert_eq!(
            fill(text, &v),
            "pause 6.5 s at {pause_start}; code {a b} {}"
        );
        assert_eq!(
            fill_case("it {case}, for {pause_len} s", &v, Some("stops")),
            "it stops, for 6.5 s"
        );
    }
}
