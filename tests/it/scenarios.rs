//! Plays every script in `tests/scenarios/` (the worked examples of SCENARIOS.md) and
//! `tests/cases/` (single-question rules cases written from RULES.md and docs/scripts.md alone,
//! without reading the engine) through the headless app, and checks each `expect` section
//! (verdicts by rule id, events in order, final state). Each script cites its rules.

use doo::headless::run_script;
use doo_rules::data::RuleData;

fn check_folder(folder: &str, at_least: usize) {
    let dir = crate::common::root().join(folder);
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
        let (script, level) = match doo_rules::script::load(p) {
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
                for bad in doo_rules::script::check(expect, &lines) {
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
fn every_level_event_script_meets_its_expectations() {
    // issue 31: level events (docs/levels.md), on tests/levels/events/{hall,duel,arrivals}.ron
    check_folder("tests/events", 15);
}

#[test]
fn every_tutorial_script_meets_its_expectations() {
    // issue 43: each tutorial level (levels/tutorial_*.ron) played through its steps
    check_folder("tests/tutorial", 2);
}

#[test]
fn every_a4_script_meets_its_expectations() {
    // A4-*: one script per rule of ruleset A4 and per gap decision (docs/ruleset-a4.md)
    check_folder("tests/a4", 80);
}

/// Issue 16: a script per A4 rule and per gap decision. Every id of the A4 rules reference
/// (`assets/rules/reference/a4.ron`: each rule A4-x.y and gap decision A4-G-nn) is cited in the
/// opening `//` comment of some script in `tests/a4/`, which says what that script shows.
#[test]
fn every_a4_rule_and_gap_decision_has_a_script() {
    let root = crate::common::root();
    let reference = std::fs::read_to_string(root.join("assets/rules/reference/a4.ron")).unwrap();
    let ids: Vec<String> = reference
        .lines()
        .filter_map(|l| l.trim_start().strip_prefix('"').and_then(|r| r.split('"').next()))
        .filter(|id| id.starts_with("A4-"))
        .map(String::from)
        .collect();
    assert!(ids.len() >= 80, "the A4 reference lists its rules and gap decisions: {} found", ids.len());
    let mut headers = Vec::new();
    for e in std::fs::read_dir(root.join("tests/a4")).unwrap().filter_map(|e| e.ok()) {
        let text = std::fs::read_to_string(e.path()).unwrap_or_default();
        headers.push(text.lines().take_while(|l| l.trim_start().starts_with("//")).collect::<Vec<_>>().join("\n"));
    }
    // an id is cited when it appears not followed by a further digit or dot-digit (A4-3.1 is
    // not cited by "A4-3.12")
    let cites = |h: &str, id: &str| {
        h.match_indices(id).any(|(k, _)| {
            let rest = &h[k + id.len()..];
            !rest.starts_with(|c: char| c.is_ascii_digit()) && !(rest.starts_with('.') && rest[1..].starts_with(|c: char| c.is_ascii_digit()))
        })
    };
    let missing: Vec<&String> = ids.iter().filter(|id| !headers.iter().any(|h| cites(h, id))).collect();
    assert!(missing.is_empty(), "A4 rules or gap decisions with no script citing them in its header: {missing:?}");
}
