//! Every rule id of RULES.md §1–§21 is cited by at least one test, except the few listed in
//! `EXEMPT` with the reason. The id lists are kept in `tests/` and checked against the spec when
//! it is beside the repository.
//!
//! What counts as a citation:
//! - a `#[test]` function in `tests/it/*.rs`, or in a `#[cfg(test)]` module under `src/` or
//!   `crates/doo_rules/src/`: the comment (and attribute) lines directly above its `#[test]`,
//!   the `#[test]` line itself, and the function's body (its comments and its strings, e.g. the
//!   rule a refusal must name); an `#[ignore]`d test only when `.ci/run` runs it (its reason
//!   says so);
//! - a script under `tests/scenarios/`, `tests/cases/` or `tests/crawl/` that has an `expect` section: the
//!   script's leading comment and its `expect` section;
//! - a campaign script directly under `tests/campaigns/` (not its `bad/`, `heroes/` or `levels/`
//!   folders) that has an `expect` section: its leading comment and its `expect` section.
//!
//! §24 and §25 (Exploration Mode, heroes and CP) are held to more: each of their ids must be
//! cited by a script or a campaign script, not by a Rust test alone.
//!
//! A rule mentioned anywhere else (a helper's doc comment, the engine's own comments, a script's
//! commands, a script without expectations) does not count.

use std::path::{Path, PathBuf};

/// Rule ids of §1–§21 deliberately not implemented (so no test can check them), with the reason.
/// Each must stay uncited: once a test cites it, it leaves this list.
// R-HEAL-5, R-HEAL-7 and R-HEAL-8 were exempt until Exploration Mode (binding wounds, camp and
// recuperation with a caregiver) brought them into the engine: no rule is exempt now.
const EXEMPT: [(&str, &str); 0] = [];

fn root() -> &'static Path {
    crate::common::root()
}

fn files(dir: &Path, ext: &str, out: &mut Vec<PathBuf>) {
    out.extend(crate::common::files_with(dir, &[ext]));
}

/// `id` occurs in `text` not followed by another digit (R-FS-1 is not R-FS-10).
fn cites(text: &str, id: &str) -> bool {
    text.match_indices(id).any(|(i, _)| !text[i + id.len()..].starts_with(|c: char| c.is_ascii_digit()))
}

/// Byte offset just past the bracket closing the one at `open` (`{`/`}` or `(`/`)`), skipping
/// strings, raw strings, character literals and comments (Rust and RON).
fn matching_close(text: &str, open: usize) -> Option<usize> {
    let b = text.as_bytes();
    let (o, c) = match b[open] {
        b'{' => (b'{', b'}'),
        b'(' => (b'(', b')'),
        _ => return None,
    };
    let mut depth = 0usize;
    let mut k = open;
    while k < b.len() {
        match b[k] {
            b'/' if b.get(k + 1) == Some(&b'/') => {
                k += text[k..].find('\n').unwrap_or(text.len() - k);
                continue;
            }
            b'/' if b.get(k + 1) == Some(&b'*') => {
                k += text[k..].find("*/").map_or(text.len() - k, |e| e + 2);
                continue;
            }
            b'r' if !b.get(k.wrapping_sub(1)).is_some_and(|p| p.is_ascii_alphanumeric() || *p == b'_') && matches!(b.get(k + 1), Some(b'"' | b'#')) => {
                let hashes = b[k + 1..].iter().take_while(|&&x| x == b'#').count();
                if b.get(k + 1 + hashes) == Some(&b'"') {
                    let close = format!("\"{}", "#".repeat(hashes));
                    let from = k + 2 + hashes;
                    k = from + text[from..].find(&close).map_or(text.len() - from, |e| e + close.len());
                    continue;
                }
            }
            b'"' => {
                k += 1;
                while k < b.len() && b[k] != b'"' {
                    k += if b[k] == b'\\' { 2 } else { 1 };
                }
            }
            b'\'' => {
                // a character literal ('x', '\n', '\'', '{'); otherwise a lifetime
                if b.get(k + 1) == Some(&b'\\') {
                    k += 3;
                    while k < b.len() && b[k] != b'\'' {
                        k += 1;
                    }
                } else if let Some(ch) = text[k + 1..].chars().next() {
                    if text[k + 1 + ch.len_utf8()..].starts_with('\'') {
                        k += 1 + ch.len_utf8();
                    }
                }
            }
            x if x == o => depth += 1,
            x if x == c => {
                depth -= 1;
                if depth == 0 {
                    return Some(k + 1);
                }
            }
            _ => {}
        }
        k += 1;
    }
    None
}

/// The citing text of every `#[test]` in Rust `source`: the comment and attribute lines directly
/// above it, its own line, and the test function up to its closing brace.
fn test_citations(source: &str) -> Vec<String> {
    let lines: Vec<&str> = source.lines().collect();
    let mut starts = Vec::with_capacity(lines.len());
    let mut at = 0;
    for l in &lines {
        starts.push(at);
        at += l.len() + 1;
    }
    let mut out = Vec::new();
    for (k, line) in lines.iter().enumerate() {
        if !line.trim_start().starts_with("#[test]") {
            continue;
        }
        let mut text = String::new();
        let mut top = k;
        while top > 0 && {
            let t = lines[top - 1].trim_start();
            t.starts_with("//") || t.starts_with("#[")
        } {
            top -= 1;
        }
        for l in &lines[top..k] {
            text += l;
            text.push('\n');
        }
        // From the #[test] line to the end of the function that follows it.
        let from = starts[k];
        let signature = (k + 1..lines.len()).find(|&j| {
            let l = lines[j].trim_start();
            l.starts_with("fn ") || l.starts_with("pub fn ") || l.starts_with("async fn ")
        });
        let body = signature.and_then(|j| source[starts[j]..].find('{').map(|b| starts[j] + b)).and_then(|b| matching_close(source, b));
        let to = body.unwrap_or_else(|| panic!("no test function after the #[test] on line {}", k + 1));
        // An ignored test checks nothing unless CI runs it (`.ci/run` runs the display tests).
        let attributes = &lines[top..signature.unwrap_or(k)];
        if attributes.iter().any(|l| l.trim_start().starts_with("#[ignore") && !l.contains(".ci/run")) {
            continue;
        }
        text += &source[from..to];
        out.push(text);
    }
    out
}

/// The citing text of a scenario or rules-case script: its leading comment and its `expect`
/// section; nothing when it has no `expect` section (a script without checks cannot fail).
fn script_citations(source: &str) -> Option<String> {
    // the `expect:` field of the script (not the word in a comment)
    let mut at = None;
    let mut offset = 0;
    for l in source.lines() {
        if l.trim_start().starts_with("expect:") {
            at = Some(offset + l.find("expect:").unwrap());
            break;
        }
        offset += l.len() + 1;
    }
    let at = at?;
    let open = at + source[at..].find('(')?;
    let close = matching_close(source, open)?;
    let expect = &source[at..close];
    if expect.trim_start_matches("expect:").trim_start().starts_with("None") {
        return None;
    }
    let leading: String = source.lines().take_while(|l| l.trim_start().starts_with("//") || l.trim().is_empty()).map(|l| format!("{l}\n")).collect();
    Some(leading + expect)
}

/// Every citing text of the repository, with the file it is in.
fn corpus() -> Vec<(PathBuf, String)> {
    let mut out = Vec::new();
    let mut tests = Vec::new();
    files(&root().join("tests/it"), "rs", &mut tests);
    // the game package's tests (the window, network play): run by .ci/run, not `cargo test`
    files(&root().join("tests/window"), "rs", &mut tests);
    for p in tests {
        if p.file_name().is_some_and(|n| n == "rule_coverage.rs") {
            continue; // the exemption list and the self-tests name ids without checking them
        }
        let text = std::fs::read_to_string(&p).unwrap();
        out.extend(test_citations(&text).into_iter().map(|t| (p.clone(), t)));
    }
    for dir in ["src", "crates/doo_game/src", "crates/doo_rules/src"] {
        let mut srcs = Vec::new();
        files(&root().join(dir), "rs", &mut srcs);
        for p in srcs {
            let text = std::fs::read_to_string(&p).unwrap();
            // A unit-test file beside its module (`#[cfg(test)] #[path = "grid_tests.rs"] mod
            // tests;`) is test code from its first line.
            let test_file = p.file_name().and_then(|n| n.to_str()).is_some_and(|n| n == "tests.rs" || n.ends_with("_tests.rs"));
            if let Some(k) = if test_file { Some(0) } else { text.find("#[cfg(test)]") } {
                out.extend(test_citations(&text[k..]).into_iter().map(|t| (p.clone(), t)));
            }
        }
    }
    for dir in ["tests/scenarios", "tests/cases", "tests/crawl"] {
        let mut scripts = Vec::new();
        files(&root().join(dir), "ron", &mut scripts);
        for p in scripts {
            let text = std::fs::read_to_string(&p).unwrap();
            if let Some(t) = script_citations(&text) {
                out.push((p, t));
            }
        }
    }
    out.extend(campaign_citations());
    out
}

/// The citing text of the campaign scripts directly under `tests/campaigns/` (their leading
/// comment and `expect` section, as a match script's; the folders below hold bad files, heroes
/// and levels).
fn campaign_citations() -> Vec<(PathBuf, String)> {
    let mut paths: Vec<PathBuf> = std::fs::read_dir(root().join("tests/campaigns"))
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.is_file() && p.extension().is_some_and(|x| x == "ron"))
        .collect();
    paths.sort();
    paths.into_iter().filter_map(|p| script_citations(&std::fs::read_to_string(&p).unwrap()).map(|t| (p, t))).collect()
}

fn ids(list: &str, at_least: usize) -> Vec<String> {
    let ids: Vec<String> = std::fs::read_to_string(root().join("tests").join(list)).expect("rule id list").lines().map(str::to_string).collect();
    assert!(ids.len() >= at_least, "{list} lists {} ids", ids.len());
    ids
}

/// Ids of `list` that no test cites and that are not exempt.
fn uncited(list: &str, at_least: usize) -> Vec<String> {
    let corpus = corpus();
    ids(list, at_least).into_iter().filter(|id| !EXEMPT.iter().any(|(x, _)| x == id) && !corpus.iter().any(|(_, t)| cites(t, id))).collect()
}

#[test] // the rules engine issue: §4–§10, §12, §13
fn every_rule_of_sections_4_to_10_12_13_is_cited_by_a_test() {
    let missing = uncited("rule_ids_s4_s13.txt", 81);
    assert!(missing.is_empty(), "rule ids cited by no test: {missing:?}");
}

#[test] // the combat issue: §1–§3, §11, §14–§21
fn every_rule_of_sections_1_to_3_11_14_to_21_is_cited_by_a_test() {
    let missing = uncited("rule_ids_combat.txt", 102);
    assert!(missing.is_empty(), "rule ids cited by no test: {missing:?}");
}

#[test] // issue 29: §24 (R-EXP-*) and §25 (R-CP-*), each cited by a script or a campaign script
// with an `expect` section (not by a Rust test alone)
fn every_rule_of_sections_24_25_is_cited_by_a_script_or_campaign_file() {
    let files: Vec<(PathBuf, String)> = corpus().into_iter().filter(|(p, _)| p.extension().is_some_and(|x| x == "ron")).collect();
    assert!(files.iter().any(|(p, _)| p.parent().is_some_and(|d| d.ends_with("tests/campaigns"))), "the campaign scripts are read");
    let missing: Vec<String> = ids("rule_ids_crawl.txt", 43).into_iter().filter(|id| !files.iter().any(|(_, t)| cites(t, id))).collect();
    assert!(missing.is_empty(), "rule ids of §24/§25 cited by no script or campaign file: {missing:?}");
}

#[test]
fn exempt_rules_are_listed_with_a_reason_and_cited_by_no_test() {
    let all: Vec<String> = [ids("rule_ids_s4_s13.txt", 81), ids("rule_ids_combat.txt", 102)].concat();
    let corpus = corpus();
    for (id, why) in EXEMPT {
        assert!(all.iter().any(|x| x == id), "{id} is exempt but in neither id list");
        assert!(why.len() > 20, "{id}: say why it is exempt");
        let citing: Vec<String> = corpus.iter().filter(|(_, t)| cites(t, id)).map(|(p, _)| p.display().to_string()).collect();
        assert!(citing.is_empty(), "{id} is exempt but cited by a test in {citing:?}: remove it from EXEMPT");
    }
}

#[test]
fn only_tests_and_checked_scripts_count_as_citations() {
    let source = r#"
// R-ZZ-1: a helper's comment, not a test's
fn helper() -> u32 {
    1 // R-ZZ-2
}

/// R-ZZ-3: the doc comment above a test
#[test] // R-ZZ-4
fn a_test() {
    let s = "}{ R-ZZ-5"; // R-ZZ-6
    let c = '{';
    assert_eq!(helper(), 1);
}

// R-ZZ-7: a comment after the test, above a plain function

#[test] // R-ZZ-9
#[ignore = "engine bug"]
fn ignored() {}

#[test] // R-ZZ-11
#[ignore = "needs a display: .ci/run runs it under Xvfb"]
fn run_by_ci() {}

fn after() {} // R-ZZ-8
"#;
    let t = test_citations(source);
    assert_eq!(t.len(), 2, "{t:?}");
    assert!(cites(&t[1], "R-ZZ-11") && !t.iter().any(|t| cites(t, "R-ZZ-9")), "an ignored test counts only when CI runs it: {t:?}");
    for id in ["R-ZZ-3", "R-ZZ-4", "R-ZZ-5", "R-ZZ-6"] {
        assert!(cites(&t[0], id), "{id} is cited by the test: {}", t[0]);
    }
    for id in ["R-ZZ-1", "R-ZZ-2", "R-ZZ-7", "R-ZZ-8", "R-ZZ-9"] {
        assert!(!cites(&t[0], id), "{id} is not in a test: {}", t[0]);
    }
    assert!(!cites("R-ZZ-10", "R-ZZ-1"), "R-ZZ-10 does not cite R-ZZ-1");

    let checked = "// R-ZZ-1: what the case shows\nScript(\n    commands: [pass(actor: \"a\")], // R-ZZ-2\n    expect: Some((verdicts: [(command: 0, rule: Some(\"R-ZZ-3\"))])),\n)\n";
    let t = script_citations(checked).expect("a script with expectations");
    assert!(cites(&t, "R-ZZ-1") && cites(&t, "R-ZZ-3") && !cites(&t, "R-ZZ-2"), "{t}");
    let unchecked = "// R-ZZ-1: no expectations\nScript(\n    commands: [pass(actor: \"a\")],\n)\n";
    assert_eq!(script_citations(unchecked), None);
    let none = "// R-ZZ-1\nScript(\n    commands: [],\n    expect: None,\n)\n";
    assert_eq!(script_citations(none), None);
}

#[test]
fn the_corpus_reads_every_place_and_only_test_text() {
    let corpus = corpus();
    for place in [
        "tests/it/combat.rs",
        "tests/it/properties.rs",
        "tests/cases/c01_fs5_zero_ap.ron",
        "tests/scenarios/s08_melee_exchange.ron",
        "crates/doo_rules/src/rules/healing.rs",
        "tests/campaigns/cp09_first_blood.ron",
    ] {
        assert!(corpus.iter().any(|(p, _)| p.ends_with(place)), "nothing read from {place}");
    }
    // every Rust entry is one test; every script entry an expect section
    for (p, t) in &corpus {
        let rust = p.extension().is_some_and(|x| x == "rs");
        assert!(if rust { t.matches("#[test]").count() == 1 } else { t.contains("expect:") }, "{}: {t}", p.display());
    }
    // the proptest macros' tests are found too (their ids are on the #[test] lines)
    assert!(corpus.iter().any(|(p, t)| p.ends_with("properties.rs") && t.contains("fn ap_are_never_overspent")));
}

#[test]
fn rule_id_list_matches_the_spec_when_available() {
    let spec = root().join("../shared/rules/RULES.md");
    let Ok(text) = std::fs::read_to_string(&spec) else {
        println!("skipped: {} not found (it sits beside the repository in CI)", spec.display());
        return;
    };
    let section = |from: &str, to: &str| -> Vec<String> {
        let a = text.find(from).unwrap_or(0);
        let b = text[a..].find(to).map_or(text.len(), |k| a + k);
        text[a..b].split("**").filter(|s| s.starts_with("R-") && s.len() < 12).map(str::to_string).collect()
    };
    let mut want = section("## 4. Crisis mode", "## 11. Reflexes");
    want.extend(section("## 12. Posture", "## 14. Attack"));
    let have: Vec<String> = std::fs::read_to_string(root().join("tests/rule_ids_s4_s13.txt")).unwrap_or_default().lines().map(str::to_string).collect();
    assert_eq!(have, want, "tests/rule_ids_s4_s13.txt is out of date with RULES.md");
    let mut want = section("## 1. Stats", "## 4. Crisis mode");
    want.extend(section("## 11. Reflexes", "## 12. Posture"));
    want.extend(section("## 14. Attack", "## 22. Conflicts"));
    let have: Vec<String> = std::fs::read_to_string(root().join("tests/rule_ids_combat.txt")).unwrap_or_default().lines().map(str::to_string).collect();
    assert_eq!(have, want, "tests/rule_ids_combat.txt is out of date with RULES.md");
    let want = section("## 24. Exploration Mode", "## Appendix A");
    let have: Vec<String> = std::fs::read_to_string(root().join("tests/rule_ids_crawl.txt")).unwrap_or_default().lines().map(str::to_string).collect();
    assert_eq!(have, want, "tests/rule_ids_crawl.txt is out of date with RULES.md");
}
