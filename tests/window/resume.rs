//! Issue 27, "never crash where a player goes": resuming a save is replaying it, through the
//! window's own path (`MatchSetup::resume_file`, then `load::resume_match`: `replay::open`, then
//! `replay::restore_into`), run here in a headless world. Saves taken at every kind of pending
//! window resume to the state the live match is in, and stay equal after one more command; the
//! A4 tutorial's attack-of-opportunity autosave (crash 3) resumes; a hand-broken save opens with
//! how far it replays instead of a panic, and "continue from the last good command" is exactly
//! the match after that command; a panic writes the crash log.

use crate::pending::{Pending, pending_matches};
use doo::game::components::{MatchDice, MatchState};
use doo::game::flow::{CrisisPhase, FlowStatus};
use doo::game::record::MatchRecord;
use doo::headless::HeadlessMatch;
use doo_app::window::session::{BrokenSave, MatchSetup, resume_match};
use doo_rules::data::RuleData;
use doo_rules::rules::Command;
use std::path::{Path, PathBuf};

fn root() -> &'static Path {
    crate::common::root()
}

fn scratch(tag: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("doo-resume-{tag}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// A save file opened as Continue, a Load slot and `doo play --resume` open it, into a fresh
/// headless world (no AI: the commands that follow are sent by the test).
fn resume_file(path: &Path) -> Result<HeadlessMatch, Box<BrokenSave>> {
    let data = RuleData::load(root()).unwrap();
    let setup = MatchSetup::resume_file(path, &data).unwrap_or_else(|e| panic!("{e}"));
    resume_setup(&data, &setup)
}

fn resume_setup(data: &RuleData, setup: &MatchSetup) -> Result<HeadlessMatch, Box<BrokenSave>> {
    let mut app = doo::headless::headless_app();
    app.update();
    resume_match(app.world_mut(), data, setup)?;
    let mut hm = HeadlessMatch { app };
    assert!(hm.settle(), "the resumed match waits for a command");
    Ok(hm)
}

fn hash(hm: &HeadlessMatch) -> String {
    doo_rules::save::state_hash(&hm.app.world().resource::<MatchState>().0, &hm.app.world().resource::<MatchDice>().0)
}

/// What a player sees waiting: the phase, who decides. (Not `ActionStage`: nothing reads it,
/// and in live play it can still say `Opportunity` while a window waits.)
fn waiting(hm: &HeadlessMatch) -> String {
    let w = hm.app.world();
    let m = &w.resource::<MatchState>().0;
    format!(
        "{:?} awaiting {} over {} current {:?} window {:?}",
        w.resource::<State<CrisisPhase>>().get(),
        w.resource::<FlowStatus>().awaiting,
        w.resource::<FlowStatus>().over,
        m.clock.current,
        m.pending.as_ref().map(|p| (p.defender, p.window)),
    )
}

use bevy::prelude::State;

#[test] // issue 27 crash 3: the A4 tutorial's autosave with an attack of opportunity pending resumes (no engine panic, R-META-2)
fn crash3_the_a4_tutorial_autosave_at_an_aoo_prompt_resumes() {
    let dir = scratch("crash3");
    let data = RuleData::load(root()).unwrap();
    let p = pending_matches(&dir).into_iter().find(|p| p.kind == "a4_aoo").unwrap();
    assert_eq!(p.save.profile.as_deref(), Some("A4"), "the save keeps the ruleset picked on the level-select screen");
    // The window's path: the level as the save has it, under A4 (the old `--resume` re-read the
    // level file, DoO, and the A4 commands reached the DoO engine: engine.rs `unreachable!`).
    let setup = MatchSetup::resume_file(&p.path, &data).unwrap();
    assert_eq!(setup.checked.level.profile.as_deref(), Some("A4"));
    assert!(setup.checked.build(&data).unwrap().a4.is_some(), "the resumed match plays A4");
    let resumed = resume_setup(&data, &setup).unwrap_or_else(|b| panic!("{}", b.message));
    assert!(
        resumed.state().a4.as_deref().is_some_and(|x| matches!(x.tasks.front(), Some(doo_rules::rules::a4::Task::OfferAoo { .. }))),
        "the prompt is still open"
    );
    // And the old way (the level file re-read) no longer panics: a DoO match refuses the A4
    // commands (R-META-2), the save opens with what went wrong.
    let mut old = setup.clone();
    old.checked = doo_rules::level_file::load(&setup.path, &data, root()).unwrap();
    let broken = resume_setup(&data, &old).err().expect("an A4 save cannot be played as DoO");
    assert!(broken.message.contains("R-META-2") || broken.message.contains("checkpoint"), "{}", broken.message);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test] // issue 27: a save at every kind of pending window resumes to the live match's state, and stays equal after one more command
fn saves_at_every_pending_window_resume_to_the_live_state() {
    let dir = scratch("pending");
    let all = pending_matches(&dir);
    let kinds: Vec<&str> = all.iter().map(|p| p.kind).collect();
    assert_eq!(kinds, crate::pending::KINDS);
    for Pending { kind, path, save, mut live, next } in all {
        let n = save.commands.len();
        let mut resumed = resume_file(&path).unwrap_or_else(|b| panic!("{kind}: {}", b.message));
        assert_eq!(resumed.app.world().resource::<MatchRecord>().commands.len(), n, "{kind}: every command replayed");
        // the live match before its next command: replay it to the save's end in a headless match
        let data = RuleData::load(root()).unwrap();
        let (s, _, checked) = doo_rules::save::load_save(&path, &data).unwrap();
        let before = doo::replay::resume_headless(&data, &s, &checked).unwrap();
        assert_eq!(hash(&resumed), hash(&before), "{kind}: resumed state = the state saved");
        assert_eq!(waiting(&resumed), waiting(&before), "{kind}: the same window waits");
        let sealed = save.checkpoints.last().unwrap();
        assert_eq!(sealed.hash, format!("saved:{}", hash(&before)), "{kind}: the save's own hash of the moment");
        // one more command, the live match's next (and whatever the AI had already queued
        // behind it: the same commands go to the resumed match)
        live.settle();
        let more = live.app.world().resource::<MatchRecord>().commands[n..].to_vec();
        assert_eq!(more.first(), Some(&next), "{kind}");
        for c in &more {
            assert!(resumed.submit(c.clone()), "{kind}: {c:?} settles");
        }
        assert_eq!(hash(&resumed), hash(&live), "{kind}: after {next:?} the resumed match is the live one");
        assert_eq!(waiting(&resumed), waiting(&live), "{kind}: and waits for the same");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// The skirmish played AI against AI for `n` commands, saved (sealed, as the autosave), and the
/// state hash after each command (the commands sent one at a time, not through a replay).
fn played(n: usize) -> (doo_rules::save::Save, Vec<String>) {
    let data = RuleData::load(root()).unwrap();
    let path = root().join("levels/skirmish.ron");
    let checked = doo_rules::level_file::load(&path, &data, root()).unwrap();
    let seats = checked
        .sides
        .iter()
        .map(|s| doo_rules::save::Seat { side: s.id.clone(), player: String::new(), ai: Some(doo_rules::ai::Difficulty::Normal) })
        .collect();
    let header = doo_rules::save::save_header(&path, &checked, 5, seats, true).unwrap();
    let mut hm = HeadlessMatch::recorded(checked.build(&data).unwrap(), doo_rules::rules::Dice::seeded(5), false, Some(header.clone()));
    let cfg = doo_rules::ai::AiConfig::for_level(
        checked.side_ids(),
        &checked.behaviours,
        &checked.level.victory,
        doo_rules::ai::Difficulty::Normal,
        &Default::default(),
        5,
        data.ai.clone(),
    );
    hm.app.world_mut().insert_resource(doo::game::ai::AiControl { config: cfg, pace_secs: 0.0, waited: 0.0, plan: None, remote: Default::default() });
    for _ in 0..100_000 {
        if hm.app.world().resource::<MatchRecord>().commands.len() >= n || hm.status().over {
            break;
        }
        hm.app.update();
    }
    hm.app.world_mut().remove_resource::<doo::game::ai::AiControl>();
    hm.settle();
    let w = hm.app.world();
    let mut save = w.resource::<MatchRecord>().to_save(hm.snapshot_turn(), None).unwrap();
    doo::game::record::seal(&mut save, hm.state(), &w.resource::<MatchDice>().0);
    // the states one command at a time, from the start
    let mut one = HeadlessMatch::recorded(checked.build(&data).unwrap(), doo_rules::rules::Dice::seeded(5), false, Some(header));
    let mut hashes = vec![hash(&one)];
    for c in &save.commands {
        assert!(one.submit(c.clone()));
        hashes.push(hash(&one));
    }
    (save, hashes)
}

#[test] // issue 27: a save with a command edited to be illegal (R-TURN-12) opens with how far it replays and the choices, never a panic
fn a_hand_broken_save_opens_with_the_last_good_command() {
    let dir = scratch("broken");
    let data = RuleData::load(root()).unwrap();
    let (save, hashes) = played(12);
    assert!(save.commands.len() >= 10, "{} commands", save.commands.len());
    // the whole save opens and plays on
    let good_path = dir.join("good.ron");
    doo_rules::data::write_atomic(&good_path, &save.to_text()).unwrap();
    let whole = resume_file(&good_path).unwrap_or_else(|b| panic!("{}", b.message));
    assert_eq!(hash(&whole), *hashes.last().unwrap());
    // command 6 edited: a delay, refused whoever asks (R-TURN-12)
    let k = 6;
    let mut bad = save.clone();
    bad.commands[k] = Command::Delay { actor: save.commands[k].actor().to_string() };
    let bad_path = dir.join("bad.ron");
    doo_rules::data::write_atomic(&bad_path, &bad.to_text()).unwrap();
    let broken = resume_file(&bad_path).err().expect("the broken save is not played as if whole");
    assert_eq!(broken.good, k, "{}", broken.message);
    assert_eq!(broken.total, save.commands.len());
    assert!(broken.message.contains("R-TURN-12") && broken.message.contains(&format!("command {}", k + 1)), "{}", broken.message);
    assert_eq!(broken.path.as_deref(), Some(bad_path.as_path()));
    // continue from the last good command: exactly the match after command k
    let setup = broken.from_last_good().expect("a save that replays in part can go on");
    assert_eq!(setup.resume.as_ref().unwrap().commands.len(), k);
    let cont = resume_setup(&data, &setup).unwrap_or_else(|b| panic!("{}", b.message));
    assert_eq!(hash(&cont), hashes[k], "continue from the last good command = the match after its {k} commands");
    // a save whose last command is edited (after the last turn's checkpoint) is found too
    let mut last = save.clone();
    let end = last.commands.len() - 1;
    last.commands[end] = Command::Delay { actor: save.commands[end].actor().to_string() };
    let last_path = dir.join("last.ron");
    doo_rules::data::write_atomic(&last_path, &last.to_text()).unwrap();
    let broken = resume_file(&last_path).err().expect("the saved: checkpoint finds an edit in the last turn");
    assert_eq!(broken.good, end, "{}", broken.message);
    // a save whose level has changed cannot replay at all: what is wrong, only delete or leave it
    let mut other = save.clone();
    other.level_hash = "0".repeat(64);
    let other_path = dir.join("other-level.ron");
    doo_rules::data::write_atomic(&other_path, &other.to_text()).unwrap();
    let broken = doo_app::window::session::open_save_file(&other_path, &data).err().expect("a changed level is not opened");
    assert!(broken.setup.is_none() && broken.from_last_good().is_none());
    assert!(broken.message.contains("has changed since this save was written"), "{}", broken.message);
    assert_eq!(broken.path.as_deref(), Some(other_path.as_path()));
    assert!(doo_app::window::session::open_save_file(&bad_path, &data).is_ok(), "the hand-broken save reads; its replay is what fails");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test] // issue 27: an A4 order sent to a DoO match is refused (R-META-2), never the engine's old unreachable! panic
fn an_a4_order_in_a_doo_match_is_refused() {
    let data = RuleData::load(root()).unwrap();
    let checked = doo_rules::level_file::load(&root().join("levels/tutorial.ron"), &data, root()).unwrap();
    let m = checked.build(&data).unwrap();
    let mut hm = HeadlessMatch::new(m, doo_rules::rules::Dice::seeded(1), false);
    let who = hm.state().clock.current.map(|c| hm.state().fighters[c].id.clone()).unwrap();
    let before = hash(&hm);
    let v = crate::common::go(&mut hm, &format!(r#"round(actor: "{who}", act: end_turn)"#));
    assert_eq!(v["result"], "rejected");
    assert_eq!(v["rule"], "R-META-2", "{v}");
    assert_eq!(hash(&hm), before, "nothing changed");
}

#[test] // issue 27: a panic writes the crash log beside the saves: message, place, save in play
fn a_panic_writes_the_crash_log() {
    let dir = scratch("crash");
    let saves = dir.join("saves");
    std::fs::create_dir_all(&saves).unwrap();
    let save = saves.join("autosave.ron");
    std::fs::copy(root().join("tests/saves/tutorial-seed3.ron"), &save).unwrap();
    for _ in 0..2 {
        let out = std::process::Command::new(crate::common::doo_bin())
            .args(["play", "--resume"])
            .arg(&save)
            .env("DOO_SAVE_DIR", &saves)
            .env("DOO_DEBUG_PANIC", "1")
            .current_dir(root())
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(101), "a panic: {}", String::from_utf8_lossy(&out.stderr));
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains("DOO_DEBUG_PANIC") && err.contains("panicked"), "the default hook still prints: {err}");
    }
    let log = std::fs::read_to_string(dir.join("crash.log")).expect("crash.log beside the saves folder");
    assert_eq!(log.matches("DOO_DEBUG_PANIC: a panic on purpose").count(), 2, "appended, once per crash:\n{log}");
    assert!(log.contains("crates/doo_game/src/crash.rs:"), "the place: {log}");
    assert!(log.contains(&save.display().to_string()), "the save in play: {log}");
    assert!(log.contains(" UTC]"), "a timestamp: {log}");
    // the writer on its own
    let entry = doo::crash::crash_entry(0, "boom", Some("a.rs:1:2".into()), "main", Some(Path::new("x.ron")));
    assert_eq!(
        entry,
        format!("[1970-01-01 00:00 UTC] panic in thread 'main' at a.rs:1:2: boom\n  save in play: x.ron\n  game version: {}\n\n", env!("CARGO_PKG_VERSION"))
    );
    let _ = std::fs::remove_dir_all(&dir);
}
