//! Shared helpers: build small headless matches from RON snippets and drive them with commands.

use doo::game::ai::AiControl;
use doo::game::record::{MatchRecord, ai_plan};
use doo::headless::HeadlessMatch;
use doo_rules::data::RuleData;
use doo_rules::level::{CharacterDef, build_match};
use doo_rules::rules::Dice;
use doo_rules::rules::command::Command;
use doo_rules::rules::profile::OptionOverrides;
use doo_rules::rules::state::Match;
use doo_rules::script::{StartState, apply_start};
use serde_json::Value;
use std::path::{Path, PathBuf};

/// Every file under `dir` (recursively) whose extension is one of `exts`, in path order.
pub fn files_with(dir: &Path, exts: &[&str]) -> Vec<PathBuf> {
    let mut entries: Vec<PathBuf> = std::fs::read_dir(dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display())).flatten().map(|e| e.path()).collect();
    entries.sort();
    let mut out = Vec::new();
    for p in entries {
        if p.is_dir() {
            out.extend(files_with(&p, exts));
        } else if p.extension().is_some_and(|x| exts.iter().any(|e| x == *e)) {
            out.push(p);
        }
    }
    out
}

/// The shipped levels: the `.ron` files of `levels/` itself (not its `stamps/`, which are the
/// editor's stamps, nor any other folder in it), in name order.
pub fn level_files(root: &Path) -> Vec<PathBuf> {
    let dir = root.join("levels");
    let mut v: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.is_file() && p.extension().is_some_and(|x| x == "ron"))
        .collect();
    v.sort();
    v
}

pub fn ch(ron_text: &str) -> CharacterDef {
    doo_rules::data::ron_options().from_str(ron_text).unwrap_or_else(|e| panic!("bad character: {e}"))
}

pub fn lunk(x: i32, y: i32) -> CharacterDef {
    ch(&format!(
        r#"(id: "lunk", name: Some("Lunk"), side: "heroes", pos: ({x}, {y}), stats: (brawn: 9, finesse: 7, savvy: 5, nerve: 6), skills: {{"axes": journeyman}}, weapon: Some("broad_axe"))"#
    ))
}

pub fn orc(x: i32, y: i32) -> CharacterDef {
    ch(&format!(
        r#"(id: "orc", name: Some("Orc"), side: "monsters", pos: ({x}, {y}), stats: (brawn: 8, finesse: 6, savvy: 4, nerve: 6), skills: {{"maces": apprentice}}, weapon: Some("mace"))"#
    ))
}

pub fn goblin(x: i32, y: i32) -> CharacterDef {
    ch(&format!(
        r#"(id: "goblin", name: Some("Goblin"), side: "monsters", pos: ({x}, {y}), size: small, stats: (brawn: 5, finesse: 7, savvy: 5, nerve: 4), skills: {{"knives": apprentice}}, weapon: Some("dagger"))"#
    ))
}

pub fn dara(x: i32, y: i32) -> CharacterDef {
    ch(&format!(
        r#"(id: "dara", name: Some("Dara"), side: "heroes", pos: ({x}, {y}), stats: (brawn: 8, finesse: 8, savvy: 5, nerve: 7), skills: {{"swords": master}}, weapon: Some("broadsword"))"#
    ))
}

pub fn room(w: usize, h: usize) -> Vec<Vec<String>> {
    vec![vec![".".repeat(w); h]]
}

/// A match of `chars` on `floors` under `profile`, started mid-phase with `start` (RON).
pub fn mid(profile: Option<&str>, options: &str, floors: Vec<Vec<String>>, chars: Vec<CharacterDef>, start: &str, dice: &[u32]) -> HeadlessMatch {
    let data = RuleData::builtin();
    let o: OptionOverrides = doo_rules::data::ron_options().from_str(options).expect("options");
    let mut m = build_match(&data, &floors, &chars, profile, &o).expect("match");
    let s: StartState = doo_rules::data::ron_options().from_str(start).expect("start");
    apply_start(&mut m, &s).expect("start applies");
    let mut d = Dice::seeded(7);
    d.force(dice.iter().copied());
    HeadlessMatch::new(m, d, true)
}

/// A match that begins with the opening reset.
pub fn opening(profile: Option<&str>, floors: Vec<Vec<String>>, chars: Vec<CharacterDef>, dice: &[u32]) -> HeadlessMatch {
    let data = RuleData::builtin();
    let m = build_match(&data, &floors, &chars, profile, &OptionOverrides::default()).expect("match");
    let mut d = Dice::seeded(7);
    d.force(dice.iter().copied());
    HeadlessMatch::new(m, d, false)
}

pub fn cmd(ron_text: &str) -> Command {
    doo_rules::data::ron_options().from_str(ron_text).unwrap_or_else(|e| panic!("bad command {ron_text}: {e}"))
}

/// Submits a command and returns its verdict line.
pub fn go(hm: &mut HeadlessMatch, ron_text: &str) -> Value {
    let before = hm.lines().len();
    assert!(hm.submit(cmd(ron_text)), "match did not settle");
    hm.lines()[before..].iter().find(|l| l["type"] == "command").cloned().expect("a verdict line")
}

pub fn ok(hm: &mut HeadlessMatch, ron_text: &str) {
    let v = go(hm, ron_text);
    assert_eq!(v["result"], "ok", "{ron_text} was refused: {} {}", v["rule"], v["reason"]);
}

/// Asserts a refusal naming `rule` (as the headline or among `also`) and that nothing changed (R-AP-1).
pub fn refused(hm: &mut HeadlessMatch, ron_text: &str, rule: &str) {
    let before = state_key(&mut hm.snapshot());
    let v = go(hm, ron_text);
    assert_eq!(v["result"], "rejected", "{ron_text} was accepted, expected {rule}");
    let also = v["also"].as_array().cloned().unwrap_or_default();
    assert!(v["rule"] == rule || also.iter().any(|a| a == rule), "{ron_text}: expected {rule}, got {} (also {:?}): {}", v["rule"], also, v["reason"]);
    assert!(!v["reason"].as_str().unwrap_or("").is_empty(), "a refusal explains itself");
    assert_eq!(before, state_key(&mut hm.snapshot()), "a refused command changed the match (R-AP-1)");
}

pub fn state_key(m: &mut Match) -> String {
    format!("{:?}{:?}{:?}", m.fighters, m.clock, m.pending)
}

pub fn f<'a>(m: &'a Match, id: &str) -> &'a doo_rules::rules::Fighter {
    &m.fighters[m.index(id).expect("id")]
}

pub fn events<'a>(hm: &'a HeadlessMatch, kind: &str) -> Vec<&'a Value> {
    hm.lines().iter().filter(|l| l["event"] == kind).collect()
}

/// The game binary the tests start: `DOO_BIN` when set (a copy of this checkout's build, where
/// several checkouts share one target folder and its `debug/doo`), else the one Cargo built.
pub fn doo_bin() -> std::path::PathBuf {
    // `doo` in the window tests (the game package), `doo-headless` in the headless ones.
    let built = option_env!("CARGO_BIN_EXE_doo").or(option_env!("CARGO_BIN_EXE_doo-headless")).expect("a doo binary");
    std::env::var_os("DOO_BIN").map(std::path::PathBuf::from).unwrap_or_else(|| built.into())
}

/// The project's top folder (levels/, assets/, tests/), whichever package's tests these are.
pub fn root() -> &'static Path {
    static ROOT: std::sync::OnceLock<PathBuf> = std::sync::OnceLock::new();
    ROOT.get_or_init(|| {
        Path::new(env!("CARGO_MANIFEST_DIR"))
            .ancestors()
            .find(|p| p.join("levels").is_dir() && p.join("assets").is_dir())
            .expect("the project folder")
            .to_path_buf()
    })
}

/// A save of the shipped duel (tests/saves), known to verify.
pub const GOOD: &str = "tests/saves/tutorial-seed3.ron";

pub fn scratch(name: &str, bytes: &[u8]) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("doo-saves-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let p = dir.join(name);
    std::fs::write(&p, bytes).unwrap();
    p
}

pub fn good_text() -> String {
    std::fs::read_to_string(root().join(GOOD)).unwrap()
}

/// Plays `level` AI against AI, recorded, until at least `stop` commands have been sent and the
/// match waits; returns the save at that moment and the match, which then plays on to the end.
pub fn play_until(level: &str, seed: u64, stop: usize) -> (doo_rules::save::Save, HeadlessMatch) {
    let data = RuleData::load(root()).unwrap();
    let path = root().join(level);
    let checked = doo_rules::level_file::load(&path, &data, root()).unwrap();
    let seats = checked
        .sides
        .iter()
        .map(|s| doo_rules::save::Seat { side: s.id.clone(), player: String::new(), ai: Some(doo_rules::ai::Difficulty::Normal) })
        .collect();
    let header = doo_rules::save::save_header(&path, &checked, seed, seats, true).unwrap();
    let m = checked.build(&data).unwrap();
    let mut hm = HeadlessMatch::recorded(m, Dice::seeded(seed), false, Some(header));
    let cfg = doo_rules::ai::AiConfig::for_level(
        checked.side_ids(),
        &checked.behaviours,
        &checked.level.victory,
        doo_rules::ai::Difficulty::Normal,
        &Default::default(),
        seed,
        data.ai.clone(),
    );
    hm.app.world_mut().insert_resource(AiControl { config: cfg, pace_secs: 0.0, waited: 0.0, plan: None, remote: Default::default() });
    for _ in 0..100_000 {
        let w = hm.app.world();
        let settled = doo::game::record::settled(
            w.resource::<doo::game::flow::FlowStatus>(),
            w.resource::<doo::game::pipeline::CommandQueue>(),
            w.resource::<doo::game::pipeline::CheckedCommand>(),
        );
        if w.resource::<MatchRecord>().commands.len() >= stop && settled {
            break;
        }
        hm.app.update();
    }
    let w = hm.app.world();
    let save = w.resource::<MatchRecord>().to_save(hm.snapshot_turn(), ai_plan(w.get_resource::<AiControl>())).unwrap();
    (save, hm)
}
