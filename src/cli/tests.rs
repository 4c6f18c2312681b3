//! Every option that takes a value reads a negative number as its value and checks it.

use super::*;
use clap::CommandFactory;
use clap::error::ErrorKind;

/// Every subcommand path with the options that take a value, walked from the definitions so
/// an option added later is covered too.
fn value_options(cmd: &clap::Command, path: Vec<String>, out: &mut Vec<(Vec<String>, String)>) {
    for arg in cmd.get_arguments() {
        let takes_value = arg.get_action().takes_values();
        if let (Some(long), true) = (arg.get_long(), takes_value) {
            out.push((path.clone(), long.to_string()));
        }
    }
    for sub in cmd.get_subcommands() {
        let mut p = path.clone();
        p.push(sub.get_name().to_string());
        value_options(sub, p, out);
    }
}

#[test]
fn a_negative_number_reaches_every_option_s_own_check() {
    let mut options = Vec::new();
    value_options(&super::command(), Vec::new(), &mut options);
    assert!(options.len() > 10, "{options:?}");
    for (path, long) in options {
        // Positional arguments some subcommands require, so parsing gets as far as the option.
        let mut argv: Vec<String> = vec!["locklab".into()];
        argv.extend(path.iter().cloned());
        match path
            .iter()
            .map(String::as_str)
            .collect::<Vec<_>>()
            .as_slice()
        {
            ["sim", "run"] | ["progress", "merge"] => argv.push("f.toml".into()),
            ["export"] => argv.extend(["chain".into(), "--format".into(), "txt".into()]),
            ["present"] | ["explore"] | ["live", "abc"] => argv.push("chain".into()),
            ["lab"] => argv.push("rwlock".into()),
            _ => {}
        }
        if (path == ["sim", "herd"] || path == ["live", "herd"])
            && long != "waiters"
            && long != "fanout"
        {
            argv.extend([
                "--waiters".into(),
                "3".into(),
                "--fanout".into(),
                "1".into(),
            ]);
        }
        argv.extend([format!("--{long}"), "-1".into()]);
        match Cli::try_parse_args(&argv) {
            Ok(_) => {}
            Err(e) => {
                let msg = e.to_string();
                assert!(
                    e.kind() != ErrorKind::UnknownArgument && !msg.contains("unexpected argument"),
                    "{argv:?}: -1 was not taken as the value of --{long}:\n{msg}"
                );
                if e.kind() == ErrorKind::ValueValidation {
                    assert!(msg.contains(&format!("--{long}")), "{argv:?}: {msg}");
                }
            }
        }
    }
}

#[test]
fn a_negative_ttl_names_the_option_and_its_range() {
    for argv in [
        ["locklab", "sim", "frozen", "--ttl", "-1"],
        ["locklab", "sim", "frozen", "--ttl=-1", "--json"],
    ] {
        let e = Cli::try_parse_args(argv).unwrap_err();
        assert_eq!(e.kind(), ErrorKind::ValueValidation, "{e}");
        assert_eq!(e.exit_code(), 2);
        let msg = e.to_string();
        assert!(msg.contains("--ttl") && msg.contains("1 to 30"), "{msg}");
    }
}

#[test]
fn every_count_is_capped_at_count_max_and_its_help_says_so() {
    let cap = study::COUNT_MAX.to_string();
    for sub in ["quiz", "interview"] {
        let at_cap = Cli::try_parse_from(["locklab", sub, "--count", cap.as_str()]);
        assert!(at_cap.is_ok(), "{sub} --count {cap} is accepted");
        let past = (study::COUNT_MAX + 1).to_string();
        let e = Cli::try_parse_from(["locklab", sub, "--count", past.as_str()])
            .expect_err("one past the cap is refused");
        assert_eq!(e.kind(), ErrorKind::ValueValidation, "{e}");
        let mut cmd = Cli::command();
        let help = cmd
            .find_subcommand_mut(sub)
            .expect("the subcommand")
            .render_help()
            .to_string();
        assert!(
            help.contains(&format!("1 to {cap}")),
            "{sub} --help: {help}"
        );
    }
}

#[test]
fn every_knob_is_an_option_that_help_lists_with_its_range() {
    use crate::engine::params::knobs::{Knob, Knobs};
    let mut cmd = super::command();
    let sim = cmd.find_subcommand_mut("sim").expect("sim");
    let rwlock = sim.find_subcommand_mut("rwlock").expect("rwlock");
    let help = rwlock.render_help().to_string();
    // The read-write lock's table: roles is text, read_rule a choice, hold a number.
    assert!(help.contains("--roles <TEXT>"), "{help}");
    assert!(help.contains("fair, skip_waiting_writers"), "{help}");
    assert!(
        help.contains("--hold <NUMBER>") && help.contains("0.1 to 60 s"),
        "{help}"
    );
    for k in crate::engine::params::RwLockParams::knobs() {
        let flag = format!("--{}", k.key().replace('_', "-"));
        assert!(help.contains(&flag), "{flag} missing:\n{help}");
        if let Knob::Num(spec) = k {
            assert!(help.contains(&spec.range_text()), "{flag}: {help}");
        }
    }
}

#[test]
fn every_family_s_help_lists_each_of_its_knobs_with_its_range_or_choices() {
    use crate::engine::params::knobs::Knob;
    // Ranges as the frozen holder's lesson states them, not read back from its table.
    let frozen = help_of("frozen");
    for text in [
        "--ttl <NUMBER>",
        "1 to 30 s",
        "--keepalive <NUMBER>",
        "0.5 to 30 s",
        "--pause-start <NUMBER>",
        "0 to 40 s",
        "--pause-len <NUMBER>",
        "--delay <NUMBER>",
        "0 to 5 s",
        "--fencing <on|off>",
        "--stop-on-loss <on|off>",
    ] {
        assert!(frozen.contains(text), "{text} missing:\n{frozen}");
    }
    let herd = help_of("herd");
    assert!(
        herd.contains("--waiters <NUMBER>") && herd.contains("1 to 10000"),
        "{herd}"
    );
    let abc = help_of("abc");
    assert!(abc.contains("--tick-phase <NUMBER>"), "{abc}");
    assert!(abc.contains("predecessor, children, ahead"), "{abc}");
    for e in crate::engine::registry::ALL {
        let name = e.family().name();
        let help = help_of(name);
        for k in e.knobs() {
            let flag = format!("--{}", k.key().replace('_', "-"));
            assert!(help.contains(&flag), "{name}: {flag} missing:\n{help}");
            if let Knob::Num(spec) = k {
                assert!(help.contains(&spec.range_text()), "{name} {flag}: {help}");
            }
        }
    }
}

fn help_of(family: &str) -> String {
    let mut cmd = super::command();
    let sim = cmd.find_subcommand_mut("sim").expect("sim");
    let sub = sim.find_subcommand_mut(family).expect("family");
    sub.render_help().to_string()
}

#[test]
fn herd_needs_its_waiters_and_fan_out_and_abc_its_preset() {
    for args in [
        &["locklab", "sim", "herd", "--waiters", "5"][..],
        &["locklab", "sim", "herd", "--fanout", "5"][..],
        &["locklab", "sim", "abc", "--tick-phase", "1"][..],
    ] {
        let e = Cli::try_parse_args(args).unwrap_err();
        assert_eq!(e.kind(), ErrorKind::MissingRequiredArgument, "{args:?}");
    }
    let cli = Cli::try_parse_args(["locklab", "sim", "frozen", "--ttl", "5", "--fencing", "off"])
        .expect("parses");
    let Some(super::Command::Sim(super::SimCommand::Frozen(args))) = cli.command else {
        panic!("frozen")
    };
    assert_eq!(
        args.params,
        [
            ("ttl".to_string(), "5".to_string()),
            ("fencing".into(), "off".into())
        ]
    );
}

#[test]
fn knob_values_reach_the_family_in_command_line_order_and_a_typo_is_named() {
    let cli = Cli::try_parse_args([
        "locklab", "sim", "rwlock", "--hold", "2", "--lang", "en", "--roles", "rrw", "--json",
    ])
    .expect("parses");
    let Some(super::Command::Sim(super::SimCommand::Rwlock(args))) = cli.command else {
        panic!("rwlock")
    };
    assert_eq!(
        args.params,
        [
            ("hold".to_string(), "2".to_string()),
            ("roles".into(), "rrw".into())
        ]
    );
    assert!(args.output.json);
    assert_eq!(cli.lang, Some(crate::i18n::Lang::En));
    let e = Cli::try_parse_args(["locklab", "sim", "rwlock", "--rolez", "rrw"]).unwrap_err();
    assert_eq!(e.kind(), ErrorKind::UnknownArgument);
    assert!(e.to_string().contains("--roles"), "{e}");
}
