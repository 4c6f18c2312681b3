//! Presets come from the one catalogue the app was given: study links and lesson links open
//! the preset they name in that catalogue, whatever else ships, and a model question's run is
//! titled as that run, not as the preset the A/B/C list last showed.

use super::quiz::{code, item_of, quiz_app};
use super::*;
use crate::content::deck::Kind;
use crate::engine::Params;
use crate::quiz::item::Body;
use crate::quiz::score::{ModelResponse, model_expected};
use crate::scenario::{Catalogue, Preset};

/// An app whose content holds only some of the shipped presets, so that a preset's place in
/// this catalogue differs from its place among the shipped ones.
fn app_with(presets: Vec<Preset>) -> App {
    let catalogue: &'static Catalogue = Box::leak(Box::new(Catalogue::of(presets)));
    let reader =
        crate::tui::screens::reader::ReaderState::new(&crate::source::Source::Embedded, None);
    let mut a = App::with_reader(
        ScreenId::Home,
        None,
        Lang::En,
        Theme { mono: false },
        reader,
        catalogue,
    );
    a.size = (140, 42);
    a
}

fn shipped_from(first: &str) -> Vec<Preset> {
    crate::scenario::builtin()
        .iter()
        .filter(|p| p.name.as_str() >= first)
        .cloned()
        .collect()
}

#[test]
fn a_study_link_opens_the_preset_it_names_in_the_content_in_use() {
    let mut a = app_with(shipped_from("h"));
    // Among the shipped presets "holder-expires" is not first; here it is the first A/B/C one.
    let shipped_index = crate::scenario::builtin()
        .iter()
        .position(|p| p.name == "holder-expires")
        .expect("ships");
    assert_ne!(shipped_index, 0, "the test needs the two lists to differ");
    a.open_study("sim:holder-expires");
    assert_eq!(a.screen, ScreenId::Abc);
    assert_eq!(
        a.abc.preset().map(|p| p.name.as_str()),
        Some("holder-expires")
    );
    assert!(screen(&a).contains("holder-expires"), "{}", screen(&a));
}

#[test]
fn a_lesson_link_to_a_preset_the_content_lacks_opens_nothing() {
    let mut a = app_with(shipped_from("h"));
    a.open_study("sim:chain");
    assert_eq!(a.screen, ScreenId::Home);
}

#[test]
fn a_lesson_sim_link_opens_the_preset_it_names() {
    let mut a = app_with(shipped_from("h"));
    let i = a
        .catalogue
        .all()
        .iter()
        .position(|p| p.name == "waiter-expires")
        .expect("in the catalogue");
    update(&mut a, AppMsg::OpenPreset(i));
    assert_eq!(
        a.abc.preset().map(|p| p.name.as_str()),
        Some("waiter-expires")
    );
}

#[test]
fn a_model_questions_run_is_titled_as_that_run_not_as_the_listed_preset() {
    let item = item_of(Kind::Model, Lang::En, |i| {
        matches!(&i.body, Body::Model { variant, .. }
            if matches!(variant.params, crate::engine::Params::Abc(_)))
    });
    let Some(ModelResponse::Number(x)) = model_expected(&item) else {
        panic!("a numeric answer")
    };
    let mut a = quiz_app(item.clone(), Lang::En, (140, 42));
    for c in crate::content::model::fmt_value(x).chars() {
        press(&mut a, key(c));
    }
    press(&mut a, code(KeyCode::Enter));
    press(&mut a, key('o'));
    assert_eq!(a.screen, ScreenId::Abc);
    let Body::Model { variant, .. } = &item.body else {
        panic!()
    };
    assert_eq!(Params::Abc(a.abc.params.clone()), variant.params);
    let shown = screen(&a);
    let first = &a.abc.presets[a.abc.index].name;
    assert!(
        !shown.contains(&format!("Preset {first} (")),
        "titled as the listed preset:\n{shown}"
    );
    assert!(shown.contains("the model question's run"), "{shown}");
    let about = crate::i18n::ui(crate::i18n::Ui::ModelRunAbout, Lang::En);
    assert!(shown.contains(&about[..30]), "{shown}");
}
