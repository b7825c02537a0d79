//! The `doo run` command as a user runs it: JSON lines on stdout, exit codes, and errors with
//! `file:line:col` for unreadable scripts.

use std::process::Command;

fn doo(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(crate::common::doo_bin()).args(args).current_dir(crate::common::root()).output().expect("run doo");
    (out.status.code().unwrap_or(-1), String::from_utf8_lossy(&out.stdout).into(), String::from_utf8_lossy(&out.stderr).into())
}

fn tmp(name: &str, text: &str) -> String {
    let dir = std::env::temp_dir().join(format!("doo-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let p = dir.join(name);
    std::fs::write(&p, text).unwrap();
    p.display().to_string()
}

#[test] // R-FS-6, R-FS-5: the runner prints one JSON object per line: verdicts, events, final state
fn run_prints_json_lines() {
    let (code, out, err) = doo(&["run", "tests/scenarios/s01b_free_steps_after_action.ron", "--check"]);
    assert_eq!(code, 0, "{err}");
    let lines: Vec<serde_json::Value> = out.lines().map(|l| serde_json::from_str(l).expect("each line is JSON")).collect();
    let verdicts: Vec<_> = lines.iter().filter(|l| l["type"] == "command").collect();
    assert_eq!(verdicts.len(), 2);
    assert_eq!(verdicts[0]["result"], "ok");
    assert_eq!(verdicts[1]["result"], "rejected");
    assert_eq!(verdicts[1]["rule"], "R-FS-6");
    assert!(verdicts[1]["reason"].as_str().unwrap().contains("before any movement or action"));
    let fin = lines.last().unwrap();
    assert_eq!(fin["type"], "final");
    for k in ["turn", "phase", "round", "opportunity", "characters"] {
        assert!(fin.get(k).is_some(), "final line has {k}");
    }
    for k in ["pos", "ap", "ap_start", "free_steps", "posture", "defense_adj", "attack_adj", "hp", "conditions"] {
        assert!(fin["characters"]["lunk"].get(k).is_some(), "final character has {k}");
    }
    assert!(lines.iter().any(|l| l["event"] == "dice" && l["rank"].is_number() && l["dice"].is_array()));
}

#[test]
fn unreadable_script_exits_2_with_position() {
    let p = tmp("broken.ron", "Script(\n    map: [\"...\"],\n    commands: [pass(actor: \"x\"],\n)\n");
    let (code, out, err) = doo(&["run", &p]);
    assert_eq!(code, 2);
    assert!(out.is_empty());
    assert!(err.starts_with(&format!("{p}:3:")), "got: {err}");
}

#[test]
fn unknown_field_is_an_error() {
    let p = tmp("unknown.ron", "Script(\n    map: [\"...\"],\n    sed: 4,\n    commands: [],\n)\n");
    let (code, _, err) = doo(&["run", &p]);
    assert_eq!(code, 2);
    assert!(err.contains(":3:") && err.contains("sed"), "got: {err}");
}

#[test]
fn bad_character_reference_names_the_id() {
    let p = tmp(
        "badref.ron",
        "Script(\n    map: [\"...\"],\n    characters: [\n        (id: \"a\", side: \"x\", pos: (0, 0), stats: (brawn: 5, finesse: 5, savvy: 5, nerve: 5), weapon: \"laser\"),\n    ],\n    commands: [],\n)\n",
    );
    let (code, _, err) = doo(&["run", &p]);
    assert_eq!(code, 2);
    assert!(err.contains("laser") && err.contains(":4:"), "got: {err}");
}

#[test] // R-AP-1: a rejected command changes nothing and the run goes on; exit 0
fn rejected_commands_do_not_stop_the_run() {
    let p = tmp(
        "rejects.ron",
        r#"Script(
    map: ["....", "...."],
    characters: [
        (id: "a", side: "x", pos: (0, 0), stats: (brawn: 5, finesse: 5, savvy: 5, nerve: 5)),
        (id: "b", side: "y", pos: (3, 1), stats: (brawn: 5, finesse: 5, savvy: 5, nerve: 5)),
    ],
    start: (characters: {"a": (ap: 2)}),
    commands: [
        move(actor: "nobody", movement: "step", path: [(1, 0)]),
        move(actor: "a", movement: "fly", path: [(1, 0)]),
        move(actor: "a", movement: "step", path: [(1, 0)]),
    ],
)"#,
    );
    let (code, out, _) = doo(&["run", &p]);
    assert_eq!(code, 0);
    let v: Vec<serde_json::Value> = out.lines().map(|l| serde_json::from_str(l).unwrap()).filter(|l: &serde_json::Value| l["type"] == "command").collect();
    assert_eq!((v[0]["rule"].as_str(), v[1]["rule"].as_str(), v[2]["result"].as_str()), (Some("INPUT"), Some("R-MOVE-1"), Some("ok")));
}

#[test]
fn failed_expectations_exit_1() {
    let p = tmp(
        "expect.ron",
        r#"Script(
    map: ["....", "...."],
    characters: [
        (id: "a", side: "x", pos: (0, 0), stats: (brawn: 5, finesse: 5, savvy: 5, nerve: 5)),
        (id: "b", side: "y", pos: (3, 1), stats: (brawn: 5, finesse: 5, savvy: 5, nerve: 5)),
    ],
    start: (characters: {"a": (ap: 2)}),
    commands: [move(actor: "a", movement: "step", path: [(1, 0)])],
    expect: (final: (characters: {"a": {"ap": 2}})),
)"#,
    );
    let (code, _, err) = doo(&["run", &p, "--check"]);
    assert_eq!(code, 1);
    assert!(err.contains("final a.ap: expected 2, got 1"), "got: {err}");
}

#[test]
fn usage_errors_exit_2() {
    let (code, _, _) = doo(&["run"]);
    assert_eq!(code, 2);
    let (code, _, _) = doo(&["frobnicate"]);
    assert_eq!(code, 2);
}

#[test] // data edits under assets/ take effect without a rebuild; a broken table is reported with its position
fn rule_data_is_read_from_assets() {
    let dir = std::env::temp_dir().join(format!("doo-assets-{}", std::process::id()));
    let rules = dir.join("assets/rules");
    std::fs::create_dir_all(&rules).unwrap();
    let root = crate::common::root();
    let text = std::fs::read_to_string(root.join("assets/rules/profiles.ron")).unwrap();
    // R-AP-3: raise the opportunity cap to 4 in every profile
    std::fs::write(rules.join("profiles.ron"), text.replace("opportunity_ap_cap: 3", "opportunity_ap_cap: 4")).unwrap();
    let script = root.join("tests/scenarios/s05_charge_canonical.ron");
    let out = Command::new(crate::common::doo_bin()).args(["run"]).arg(&script).current_dir(&dir).output().unwrap();
    let lines: Vec<serde_json::Value> = String::from_utf8_lossy(&out.stdout).lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    let second = lines.iter().find(|l| l["type"] == "command" && l["index"] == 1).unwrap();
    assert_eq!(second["rule"], "R-AP-3");
    assert!(second["reason"].as_str().unwrap().contains("at most 4 AP"), "the edited cap is used: {}", second["reason"]);
    std::fs::write(rules.join("profiles.ron"), "ProfileBook(\n  default: 1,\n)").unwrap();
    let out = Command::new(crate::common::doo_bin()).args(["run"]).arg(&script).current_dir(&dir).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("profiles.ron:2:"), "got: {err}");
}
