//! The grids of drawn values, and the parameter tables read as a scenario file reads them.

use super::*;

#[test]
fn grids_include_both_ends() {
    assert_eq!(grid_len(4.0, 12.0, 0.5), 17);
    assert_eq!(grid_len(13.0, 28.0, 3.0), 6);
    assert_eq!(grid_len(0.1, 0.3, 0.1), 3);
    assert_eq!(grid_value(0.1, 0.1, 2), 0.3);
}

/// A model question's parameters and a scenario file's go through one reader: the same
/// mistake gets the same key and words, placed at the value in both files.
#[test]
fn a_bad_parameter_reads_as_it_does_in_a_scenario_file() {
    let about = "[about]\nzh = \"说明\"\nen = \"About\"\n";
    for (family, line) in [
        ("frozen", "ttl = \"ten\""),
        ("frozen", "ttl = 45"),
        ("frozen", "fencing = 3"),
        ("frozen", "colour = 1"),
        ("herd", "waiters = true"),
        ("rwlock", "read_rule = \"random\""),
        ("semaphore", "permits = \"three\""),
    ] {
        let ask = if family == "frozen" {
            "verdict"
        } else {
            "max_holders"
        };
        let ask = if family == "herd" {
            "wasted_wakeups"
        } else {
            ask
        };
        let deck = format!("family = \"{family}\"\nask = \"{ask}\"\n\n[params]\n{line}\n");
        let spec: ModelSpec = toml::from_str(&deck).expect("a model table");
        let ctx = Ctx {
            id: "q",
            id_offset: 0,
        };
        let model = with_drawn(&ctx, &spec, BTreeMap::new(), None, &[]).unwrap_err();
        let file = format!("family = \"{family}\"\n{about}\n[params]\n{line}\n");
        let scenario = crate::scenario::parse("x", "x.toml", &file).unwrap_err();
        assert_eq!(model.key, scenario.key, "{line}");
        assert_eq!(model.message, scenario.message, "{line}");
        let (model_line, model_column) = crate::toml_place::line_col(&deck, model.offset);
        assert_eq!(
            (model_line, model_column),
            (5, scenario.column),
            "{line}: {scenario}"
        );
        assert_eq!(scenario.line, 7, "{scenario}");
    }
}
