//! Plays every script in `tests/scenarios/` (the worked examples of SCENARIOS.md) and
//! `tests/cases/` (single-question rules cases written from RULES.md and docs/scripts.md alone,
//! without reading the engine) through the headless app, and checks each `expect` section
//! (verdicts by rule id, events in order, final state). Each script cites its rules.

use doo::data::RuleData;
use doo::headless::run_script;
use std::path::Path;

fn check_folder(folder: &str, at_least: usize) {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join(folder);
    let mut paths: Vec<_> = std::fs::read_dir(&dir)
        .expect("tests/scenarios")
        .filter_map(|e| e.ok())
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "ron"))
        .collect();
    paths.sort();
    assert!(paths.len() >= at_least, "expected at least {at_least} scripts in {folder}, found {}", paths.len());
    let data = RuleData::builtin();
    let mut failures = Vec::new();
    for p in &paths {
        let (script, level) = match doo::script::load(p) {
            Ok(x) => x,
            Err(e) => {
                failures.push(format!("{e}"));
                continue;
            }
        };
        let Some(expect) = &script.expect else {
            failures.push(format!("{}: no expect section (a scenario without checks cannot fail)", p.display()));
            continue;
        };
        match run_script(&data, &script, level.as_ref()) {
            Ok(lines) => {
                for bad in doo::script::check(expect, &lines) {
                    failures.push(format!("{}: {bad}", p.display()));
                }
            }
            Err(errs) => failures.extend(errs.into_iter().map(|e| format!("{}: {e}", p.display()))),
        }
    }
    assert!(failures.is_empty(), "{} scenario check(s) failed:\n{}", failures.len(), failures.join("\n"));
}

#[test]
fn every_scenario_script_meets_its_expectations() {
    check_folder("tests/scenarios", 10);
}

#[test]
fn every_rules_case_meets_its_expectations() {
    check_folder("tests/cases", 50);
}

#[test]
fn every_crawl_script_meets_its_expectations() {
    // R-EXP-*: Exploration Mode scripts on tests/levels/crawl/hall.ron
    check_folder("tests/crawl", 7);
}

#[test]
fn every_a4_script_meets_its_expectations() {
    // A4-*: one script per rule of ruleset A4 and per gap decision (docs/ruleset-a4.md)
    check_folder("tests/a4", 1);
}
