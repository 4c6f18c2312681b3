//! What a search over fault placements reports, in text and JSON.

use serde_json::json;

use super::search::{Outcome, Strike};
use crate::engine::time::fmt_secs;
use crate::i18n::{Lang, explore as words, invariant_label};

fn at(ms: u64, lang: Lang) -> String {
    crate::i18n::sim::seconds(ms, lang)
}

impl Outcome {
    pub fn text(&self, lang: Lang) -> String {
        let mut out = String::new();
        out.push_str(&words::timed_bounds(
            &self.name,
            self.family.name(),
            self.targets,
            &self.first_target,
            self.instants,
            lang,
        ));
        out.push('\n');
        out.push_str(&words::timed_numbers(
            self.runs,
            self.space,
            self.elapsed_ms,
            lang,
        ));
        out.push('\n');
        if self.cancelled {
            out.push_str(words::cancelled(lang));
            out.push('\n');
        } else if !self.complete {
            out.push_str(&words::incomplete(self.limits.max_runs, lang));
            out.push('\n');
        }
        for name in &self.checks {
            let label = invariant_label(*name, lang);
            match self.violations.iter().find(|s| s.invariant == *name) {
                Some(s) => {
                    out.push_str(&format!("  ✗ {label} ({name}): "));
                    out.push_str(&words::timed_fails(s.steps, &at(s.first_ms, lang), lang));
                    out.push('\n');
                    out.push_str(&format!("      {}\n", strike_words(s, lang)));
                    if let Some(d) = s.trace.invariant(*name).and_then(|i| i.detail.as_deref()) {
                        out.push_str(&format!(
                            "      {}\n",
                            words::replayed(d, &fmt_secs(s.first_ms), lang)
                        ));
                    }
                }
                None => out.push_str(&format!(
                    "  ✓ {label} ({name}): {}\n",
                    words::timed_holds(lang)
                )),
            }
        }
        out.push_str(words::sometimes(lang));
        out.push('\n');
        for (name, seen) in &self.witnesses {
            let mark = if *seen { "✓" } else { "·" };
            let label = invariant_label(*name, lang);
            out.push_str(&format!("  {mark} {label} ({name})\n"));
        }
        out
    }

    pub fn json(&self) -> serde_json::Value {
        json!({
            "schema_version": super::super::report::SCHEMA_VERSION,
            "scenario": self.name,
            "family": self.family.name(),
            "clock": "kept",
            "bounds": {
                "faults": self.limits.faults,
                "targets": self.targets,
                "instants": self.instants,
                "max_runs": self.limits.max_runs,
                "threads": self.limits.threads,
            },
            "runs": self.runs,
            "space": self.space,
            "complete": self.complete,
            "cancelled": self.cancelled,
            "elapsed_ms": self.elapsed_ms,
            "invariants": self.checks.iter().map(|name| {
                let s = self.violations.iter().find(|s| s.invariant == *name);
                json!({
                    "name": name,
                    "held": s.is_none(),
                    "counterexample": s.map(|s| json!({
                        "steps": s.steps,
                        "fails_at_ms": s.first_ms,
                        "target": s.target_name,
                        "fault_at_ms": s.placement.map(|p| p.at_ms),
                        "scenario": s.file,
                    })),
                })
            }).collect::<Vec<_>>(),
            "sometimes": self.witnesses.iter().map(|(name, seen)| json!({
                "name": name,
                "seen": seen,
            })).collect::<Vec<_>>(),
        })
    }

    /// The shortest counterexample as a scenario file of its own, if there is one.
    pub fn saved(&self) -> Option<String> {
        let s = self.violations.first()?;
        let mut file: toml::Table = toml::from_str(&s.file).ok()?;
        let about = toml::Table::from_iter([
            (
                "zh".to_string(),
                toml::Value::String(words::about_counterexample(
                    &self.name,
                    invariant_label(s.invariant, Lang::Zh),
                    &words::events(s.steps, Lang::Zh),
                    Lang::Zh,
                )),
            ),
            (
                "en".to_string(),
                toml::Value::String(words::about_counterexample(
                    &self.name,
                    invariant_label(s.invariant, Lang::En),
                    &words::events(s.steps, Lang::En),
                    Lang::En,
                )),
            ),
        ]);
        file.insert("about".into(), toml::Value::Table(about));
        toml::to_string(&file).ok()
    }
}

fn strike_words(s: &Strike, lang: Lang) -> String {
    match (s.placement, &s.target_name) {
        (Some(p), Some(who)) => words::timed_strike(who, &at(p.at_ms, lang), lang),
        _ => words::timed_no_fault(lang).to_string(),
    }
}
