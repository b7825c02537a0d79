//! Plays every script in `tests/scenarios/` through the headless app and checks its `expect`
//! section (verdicts by rule id, events in order, final state). Each script cites its rules.

use doo::headless::run_script;
use doo::level::RuleData;
use std::path::Path;

#[test]
fn every_scenario_script_meets_its_expectations() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/scenarios");
    let mut paths: Vec<_> = std::fs::read_dir(&dir).expect("tests/scenarios").filter_map(|e| e.ok()).map(|e| e.path()).filter(|p| p.extension().is_some_and(|x| x == "ron")).collect();
    paths.sort();
    assert!(paths.len() >= 10, "expected the scenario scripts, found {}", paths.len());
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
