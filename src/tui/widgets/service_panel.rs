//! The A/B/C service panel: the lock directory's children at the cursor, in sequence order, each
//! with its owner and whether it holds the lock, and who watches whom as arrows ("B ⇢ 17").
//! Everything comes from the trace's snapshot at the cursor ([`Trace::service_at`]). A run whose
//! holders update a data node adds it below: its version and counter at the cursor, and each
//! `setData` so far with the version it expected and what the service did.

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::{Modifier, Style};
use ratatui::widgets::Widget;

use crate::engine::time::{Millis, fmt_secs};
use crate::engine::trace::{ServiceSnapshot, Trace};
use crate::engine::zk::tree::Watched;
use crate::i18n::Lang;
use crate::i18n::lab::{Lab, lab};
use crate::tui::theme::{Class, Theme};

pub struct ServicePanel<'a> {
    pub trace: &'a Trace,
    pub at_ms: Millis,
    pub lang: Lang,
    pub theme: Theme,
}

/// "B ⇢ 17": who watches what, one entry per watch.
pub fn watch_arrows(trace: &Trace, snap: &ServiceSnapshot, lang: Lang) -> Vec<String> {
    snap.watches
        .iter()
        .map(|w| {
            let target = match w.target {
                Watched::Node(n) => trace.seq(n),
                Watched::Children(_) => lang.pick("子节点", "children").to_string(),
            };
            format!("{} ⇢ {target}", trace.name(w.watcher))
        })
        .collect()
}

/// The data node's heading at the cursor, when the run has one: "Data node /counter: version
/// 9, counter 9".
pub fn data_heading(trace: &Trace, at: Millis, lang: Lang) -> Option<String> {
    let d = crate::export::data_node::facts(trace)?;
    let (version, value) = d.at(at);
    Some(
        lab(Lab::DataNode, lang)
            .replacen("{}", d.path, 1)
            .replacen("{}", &version.to_string(), 1)
            .replacen("{}", &value.to_string(), 1),
    )
}

/// The panel in one line, for a small terminal: `17 A ◀ · 18 B · B ⇢ 17`, and the data node's
/// version when the run has one.
pub fn one_line(trace: &Trace, at: Millis, lang: Lang) -> String {
    let lock = lock_line(trace, at, lang);
    match crate::export::data_node::facts(trace) {
        Some(d) => {
            let (version, value) = d.at(at);
            format!("{lock}   {} v{version} ({value})", d.path)
        }
        None => lock,
    }
}

fn lock_line(trace: &Trace, at: Millis, lang: Lang) -> String {
    let c = lang.pick("：", ": ");
    let Some(snap) = trace.service_at(at) else {
        return format!("/lock{c}{}", lab(Lab::NotYet, lang));
    };
    let kids: Vec<String> = snap
        .children
        .iter()
        .map(|ch| format!("{} {}", ch.seq, trace.name(ch.owner)))
        .collect();
    let kids = if kids.is_empty() {
        lab(Lab::NoChildren, lang).to_string()
    } else {
        kids.join(" · ")
    };
    let arrows = watch_arrows(trace, snap, lang);
    if arrows.is_empty() {
        format!("/lock{c}{kids}")
    } else {
        format!(
            "/lock{c}{kids}   {}{c}{}",
            lab(Lab::Watches, lang),
            arrows.join("  ")
        )
    }
}

impl Widget for ServicePanel<'_> {
    fn render(self, area: Rect, buf: &mut Buffer) {
        let area = area.intersection(buf.area);
        if area.height == 0 || area.width < 20 {
            return;
        }
        let (trace, lang, theme) = (self.trace, self.lang, self.theme);
        let w = area.width as usize;
        let title = lab(Lab::LockDir, lang).replace("{}", &fmt_secs(self.at_ms));
        buf.set_stringn(area.x, area.y, &title, w, theme.title());
        let mut y = area.y + 1;
        let Some(snap) = trace.service_at(self.at_ms) else {
            if y < area.bottom() {
                buf.set_stringn(area.x + 2, y, lab(Lab::NotYet, lang), w, theme.dim());
            }
            return;
        };
        if snap.children.is_empty() && y < area.bottom() {
            buf.set_stringn(area.x + 2, y, lab(Lab::NoChildren, lang), w, theme.dim());
            y += 1;
        }
        for (i, ch) in snap.children.iter().enumerate() {
            if y >= area.bottom() {
                return;
            }
            let name = trace
                .node(ch.node)
                .map_or_else(String::new, |n| n.name.clone());
            let owner = trace.name(ch.owner);
            // The first child holds the lock in the service's view.
            let (swatch, role) = if i == 0 {
                (theme.bar(Class::ServiceHeld), lab(Lab::FirstHolds, lang))
            } else {
                (Style::new(), "")
            };
            let watchers: Vec<&str> = snap
                .watches
                .iter()
                .filter(|wt| wt.target == Watched::Node(ch.node))
                .map(|wt| trace.name(wt.watcher))
                .collect();
            let seq = format!(" {:>3} ", ch.seq);
            buf.set_stringn(
                area.x + 1,
                y,
                &seq,
                w.saturating_sub(1),
                swatch.add_modifier(Modifier::BOLD),
            );
            let mut text = format!(" {owner:<2} {}", super::clip_cols(&name, 26));
            if !role.is_empty() {
                text.push_str(&format!("  {role}"));
            }
            if !watchers.is_empty() {
                text.push_str(&format!("  ⇠ {}", watchers.join(", ")));
            }
            let x = area.x + 6;
            buf.set_stringn(
                x,
                y,
                &text,
                area.right().saturating_sub(x) as usize,
                Style::new(),
            );
            y += 1;
        }
        if y >= area.bottom() {
            return;
        }
        let arrows = watch_arrows(trace, snap, lang);
        let c = lang.pick("：", ": ");
        let text = if arrows.is_empty() {
            format!(
                "{}{c}{}",
                lab(Lab::Watches, lang),
                lab(Lab::NoWatches, lang)
            )
        } else {
            format!("{}{c}{}", lab(Lab::Watches, lang), arrows.join("   "))
        };
        let rows = crate::text::wrap(&text, w.saturating_sub(1));
        for line in rows {
            if y >= area.bottom() {
                return;
            }
            buf.set_stringn(area.x + 1, y, &line, w.saturating_sub(1), theme.warn());
            y += 1;
        }
        self.render_data(area, y, buf);
    }
}

impl ServicePanel<'_> {
    /// The data node under the lock directory: its state at the cursor, then the writes so far,
    /// the newest kept when they do not all fit. The future stays hidden.
    fn render_data(&self, area: Rect, mut y: u16, buf: &mut Buffer) {
        let (trace, lang, theme) = (self.trace, self.lang, self.theme);
        let Some(heading) = data_heading(trace, self.at_ms, lang) else {
            return;
        };
        if y >= area.bottom() {
            return;
        }
        let w = area.width as usize;
        buf.set_stringn(area.x, y, &heading, w, theme.title());
        y += 1;
        let writes: Vec<crate::export::data_node::Row> =
            crate::export::data_node::rows(trace, lang)
                .into_iter()
                .filter(|r| r.write && r.at_ms <= self.at_ms)
                .collect();
        let room = area.bottom().saturating_sub(y) as usize;
        for r in writes.iter().skip(writes.len().saturating_sub(room)) {
            let style = if r.lost { theme.bad() } else { Style::new() };
            let text = format!(
                "{:>6} {}  {}",
                fmt_secs(r.at_ms),
                crate::i18n::sim::s(lang),
                r.text
            );
            buf.set_stringn(area.x + 1, y, &text, w.saturating_sub(1), style);
            y += 1;
        }
    }
}
