//! `locklab progress export`: every answer as CSV (one row per answer) or the whole file as JSON.

use super::{Progress, fmt_utc};

pub const CSV_HEADER: &str = "time,unix,question,deck,kind,score,max,rating,self_rating,note";

/// Quotes a CSV field when it holds a comma, quote or line break (RFC 4180). Control
/// characters other than line breaks and tabs are made visible, so printing the export on a
/// terminal cannot run an escape sequence hidden in a note.
fn field(s: &str) -> String {
    let s = crate::text::printable(s, true);
    if s.contains([',', '"', '\n', '\r']) {
        format!("\"{}\"", s.replace('"', "\"\""))
    } else {
        s.to_string()
    }
}

pub fn csv(p: &Progress) -> String {
    let mut out = String::from(CSV_HEADER);
    out.push('\n');
    for a in &p.answers {
        let row = [
            fmt_utc(a.at),
            a.at.to_string(),
            field(&a.question),
            field(&a.deck),
            a.kind.name().to_string(),
            a.score.to_string(),
            a.max.to_string(),
            a.rating.name().to_string(),
            a.self_rating
                .map(|r| format!("{r:?}").to_lowercase())
                .unwrap_or_default(),
            field(&a.note),
        ];
        out.push_str(&row.join(","));
        out.push('\n');
    }
    out
}

pub fn json(p: &Progress) -> Result<String, serde_json::Error> {
    let mut s = serde_json::to_string_pretty(p)?;
    s.push('\n');
    Ok(s)
}
