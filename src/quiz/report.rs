//! The end of an interview: the scoring points missed, grouped by topic, each topic with the
//! lesson sections and simulations that teach it.
//!
//! A question names where it is taught with `see` (`lesson:06-leases#2` for the second `##`
//! section, `sim:frozen-fenced`); a question that names nothing points at its deck's lesson.

use std::collections::BTreeMap;

/// A `see` entry is read where decks are.
pub use crate::content::deck::{Target, parse_target};

use super::item::PreparedQuestion;
use super::session::Graded;
use crate::content::lesson::Lesson;
use crate::i18n::Lang;

/// Somewhere to learn what was missed.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub enum StudyLink {
    /// A lesson, or one `##` section of it (1-based).
    Lesson {
        id: String,
        section: Option<usize>,
        /// The lesson's title and the section's heading in the learner's language.
        title: String,
        heading: Option<String>,
    },
    /// A simulation preset.
    Sim(String),
}

impl StudyLink {
    /// The link as the reader and the checker write it.
    pub fn target(&self) -> String {
        match self {
            StudyLink::Lesson {
                id,
                section: Some(n),
                ..
            } => format!("lesson:{id}#{n}"),
            StudyLink::Lesson { id, .. } => format!("lesson:{id}"),
            StudyLink::Sim(p) => format!("sim:{p}"),
        }
    }

    /// The link in words.
    pub fn words(&self, lang: Lang) -> String {
        match (self, lang) {
            (
                StudyLink::Lesson {
                    title,
                    heading: Some(h),
                    ..
                },
                Lang::Zh,
            ) => format!("课程《{title}》中的「{h}」"),
            (
                StudyLink::Lesson {
                    title,
                    heading: Some(h),
                    ..
                },
                Lang::En,
            ) => format!("lesson \"{title}\", section \"{h}\""),
            (StudyLink::Lesson { title, .. }, Lang::Zh) => format!("课程《{title}》"),
            (StudyLink::Lesson { title, .. }, Lang::En) => format!("lesson \"{title}\""),
            (StudyLink::Sim(p), Lang::Zh) => format!("模拟 {p}"),
            (StudyLink::Sim(p), Lang::En) => format!("simulation {p}"),
        }
    }
}

/// What was missed in one topic, and where to study it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TopicReport {
    pub topic: String,
    /// The points missed, as the learner read them.
    pub missed: Vec<String>,
    pub links: Vec<StudyLink>,
}

fn lesson_link(id: &str, section: Option<usize>, lessons: &[Lesson], lang: Lang) -> StudyLink {
    let lesson = lessons.iter().find(|l| l.lang == lang && l.id == id);
    let title = lesson
        .and_then(|l| l.title.clone())
        .unwrap_or_else(|| id.to_string());
    let heading = section.and_then(|n| {
        lesson
            .and_then(|l| l.sections().nth(n - 1))
            .map(|h| h.text.clone())
    });
    StudyLink::Lesson {
        id: id.to_string(),
        section,
        title,
        heading,
    }
}

/// Where `item` is taught, in the learner's language.
pub fn links_of(item: &PreparedQuestion, lessons: &[Lesson], lang: Lang) -> Vec<StudyLink> {
    let mut out: Vec<StudyLink> = item
        .see
        .iter()
        .filter_map(|s| match parse_target(s)? {
            Target::Lesson(id, n) => Some(lesson_link(id, n, lessons, lang)),
            Target::Sim(p) => Some(StudyLink::Sim(p.to_string())),
        })
        .collect();
    if !out.iter().any(|l| matches!(l, StudyLink::Lesson { .. })) {
        out.insert(0, lesson_link(&item.lesson, None, lessons, lang));
    }
    out
}

/// The points missed in `results`, grouped by each question's first topic (topics in name
/// order), with the places that teach them; topics with nothing missed are left out.
pub fn by_topic(
    items: &[PreparedQuestion],
    results: &[Graded],
    lessons: &[Lesson],
    lang: Lang,
) -> Vec<TopicReport> {
    let mut topics: BTreeMap<String, TopicReport> = BTreeMap::new();
    for g in results.iter().filter(|g| !g.missed.is_empty()) {
        let Some(item) = items.iter().find(|i| i.id == g.id) else {
            continue;
        };
        let topic = item.topics.first().cloned().unwrap_or_default();
        let entry = topics.entry(topic.clone()).or_insert_with(|| TopicReport {
            topic,
            missed: Vec::new(),
            links: Vec::new(),
        });
        let points = item.all_points();
        entry.missed.extend(
            g.missed
                .iter()
                .filter_map(|&i| points.get(i).map(|p| p.text.clone())),
        );
        for l in links_of(item, lessons, lang) {
            if !entry.links.contains(&l) {
                entry.links.push(l);
            }
        }
    }
    topics.into_values().collect()
}

/// What the learner gave for a choice, order or model question, kept by the quiz screen for
/// the result list (recall answers are the points ticked, which the grade already holds).
#[derive(Debug, Clone, PartialEq)]
pub enum Given {
    /// The options picked, by their number as shown (0-based).
    Picked(Vec<usize>),
    /// The steps in the order given, by their number as shown (0-based).
    Order(Vec<usize>),
    /// A number as typed.
    Number(String),
}

/// A question's answer against the right one, in the words of the question itself.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Compared {
    /// The options picked (letter and text) and the right ones.
    Choice {
        given: Vec<String>,
        right: Vec<String>,
    },
    /// How many steps stood in their place, of how many, and the right order.
    Order {
        in_place: usize,
        steps: usize,
        right: Vec<String>,
    },
    /// The number or option given, and the engine's answer.
    Model { given: String, right: String },
}

/// One answered question on the result screen: its prompt, the points it earned, what was
/// answered against what was right, and where it is taught.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct QuestionReport {
    pub id: String,
    pub prompt: String,
    pub score: u32,
    pub max: u32,
    /// `None` for recall, whose missed points say what was lacking.
    pub compared: Option<Compared>,
    /// The points missed, as the learner read them (recall).
    pub missed: Vec<String>,
    pub links: Vec<StudyLink>,
}

/// The answer `given` to `item` against the right one.
pub fn compare(item: &PreparedQuestion, given: Option<&Given>) -> Option<Compared> {
    use super::item::{Body, ModelInput, letter};
    let option = |k: usize, text: &str| format!("{}) {text}", letter(k));
    match (&item.body, given) {
        (Body::Choice { options }, given) => {
            let picked = match given {
                Some(Given::Picked(p)) => p.as_slice(),
                _ => &[],
            };
            Some(Compared::Choice {
                given: picked
                    .iter()
                    .filter_map(|&k| options.get(k).map(|o| option(k, &o.text)))
                    .collect(),
                right: (options.iter().enumerate())
                    .filter(|(_, o)| o.correct)
                    .map(|(k, o)| option(k, &o.text))
                    .collect(),
            })
        }
        (Body::Order { shown, correct }, Some(Given::Order(order))) => Some(Compared::Order {
            in_place: order.iter().zip(correct).filter(|(a, b)| a == b).count(),
            steps: correct.len(),
            right: (correct.iter())
                .filter_map(|&k| shown.get(k).cloned())
                .collect(),
        }),
        (Body::Model { answer, input, .. }, Some(g)) => {
            let given = match (g, input) {
                (Given::Number(n), _) => n.clone(),
                (Given::Picked(p), ModelInput::Options(opts)) => p
                    .first()
                    .and_then(|&k| opts.get(k).map(|(name, _)| option(k, name)))
                    .unwrap_or_default(),
                _ => String::new(),
            };
            Some(Compared::Model {
                given,
                right: input.show(answer),
            })
        }
        _ => None,
    }
}

/// Every answered question of `results`, in the order asked, with what was given (`given`, by
/// question id), the right answer, and the places that teach it.
pub fn by_question(
    items: &[PreparedQuestion],
    results: &[Graded],
    given: &BTreeMap<String, Given>,
    lessons: &[Lesson],
    lang: Lang,
) -> Vec<QuestionReport> {
    results
        .iter()
        .filter_map(|g| {
            let item = items.iter().find(|i| i.id == g.id)?;
            let points = item.all_points();
            Some(QuestionReport {
                id: g.id.clone(),
                prompt: item.prompt.lines().next().unwrap_or_default().to_string(),
                score: g.score,
                max: g.max,
                compared: compare(item, given.get(&g.id)),
                missed: g
                    .missed
                    .iter()
                    .filter_map(|&i| points.get(i).map(|p| p.text.clone()))
                    .collect(),
                links: links_of(item, lessons, lang),
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn targets_parse_both_forms() {
        assert!(matches!(
            parse_target("lesson:06-leases#2"),
            Some(Target::Lesson("06-leases", Some(2)))
        ));
        assert!(matches!(
            parse_target("lesson:06-leases"),
            Some(Target::Lesson("06-leases", None))
        ));
        assert!(matches!(
            parse_target("sim:frozen-fenced"),
            Some(Target::Sim("frozen-fenced"))
        ));
        assert!(parse_target("lesson:06-leases#0").is_none());
        assert!(parse_target("lesson:06-leases#x").is_none());
        assert!(parse_target("quiz:leases").is_none());
        assert!(parse_target("sim:").is_none());
    }
}
