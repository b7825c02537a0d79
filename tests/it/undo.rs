//! Issue 13: undo. A command whose outcome used no dice and stayed inside the opportunity in
//! progress is taken back exactly: the state, the AP and free steps, the record (commands and
//! checkpoints) and the replay are those of a match in which it was never issued. Anything
//! else is refused with the program's `UNDO-*` id and a sentence.

use doo::game::components::MatchDice;
use doo::game::intent::PlayerView;
use doo::game::record::MatchRecord;
use doo::game::undo::take_back;
use doo::headless::HeadlessMatch;
use doo_rules::data::RuleData;
use doo_rules::rules::preview::{self, MoveKind};
use doo_rules::rules::{Command, Dice};
use std::path::Path;

fn root() -> &'static Path {
    crate::common::root()
}

/// The tutorial, recorded, both sides played by hand, run until Lunk's opportunity is open.
fn tutorial(seed: u64) -> HeadlessMatch {
    let data = RuleData::load(root()).unwrap();
    let path = root().join("levels/tutorial.ron");
    let checked = doo_rules::level_file::load(&path, &data, root()).unwrap();
    let seats = checked.sides.iter().map(|s| doo_rules::save::Seat { side: s.id.clone(), player: s.id.clone(), ai: None }).collect();
    let header = doo_rules::save::save_header(&path, &checked, seed, seats, false).unwrap();
    let mut hm = HeadlessMatch::recorded(checked.build(&data).unwrap(), Dice::seeded(seed), false, Some(header));
    for _ in 0..20 {
        let m = hm.state();
        match m.clock.current.map(|c| m.fighters[c].id.clone()) {
            Some(id) if id == "lunk" => return hm,
            Some(id) => assert!(hm.submit(Command::Pass { actor: id })),
            None => panic!("no opportunity open"),
        }
    }
    panic!("Lunk never got an opportunity");
}

fn hash(hm: &HeadlessMatch) -> String {
    doo_rules::save::state_hash(hm.state(), &hm.app.world().resource::<MatchDice>().0)
}

fn record(hm: &HeadlessMatch) -> (Vec<Command>, Vec<doo_rules::save::Checkpoint>) {
    let r = hm.app.world().resource::<MatchRecord>();
    (r.commands.clone(), r.checkpoints.clone())
}

/// The legal move of `kind` Lunk's preview offers first.
fn lunk_move(hm: &HeadlessMatch, kind: MoveKind) -> Command {
    let m = hm.state();
    let a = m.index("lunk").unwrap();
    preview::destinations(m, a).into_values().find(|d| d.kind == kind).unwrap_or_else(|| panic!("no {kind:?} on offer")).command
}

fn undo(hm: &mut HeadlessMatch) -> Result<doo_rules::rules::undo::Undo, doo_rules::rules::Violation> {
    let r = take_back(hm.app.world_mut());
    assert!(hm.settle(), "the match settles after an undo");
    r
}

#[test] // R-FS-1, R-MOVE-1 given back: free steps then a Step, taken back one by one, each exactly
fn moves_are_taken_back_exactly() {
    let mut hm = tutorial(3);
    let lunk = |hm: &HeadlessMatch| hm.state().fighters[hm.state().index("lunk").unwrap()].clone();
    let (h0, r0, l0) = (hash(&hm), record(&hm), lunk(&hm));
    let free = lunk_move(&hm, MoveKind::FreeStep);
    assert!(hm.submit(free.clone()));
    let (h1, r1, l1) = (hash(&hm), record(&hm), lunk(&hm));
    assert_eq!(l1.ap.current, l0.ap.current, "free steps cost no AP");
    let step = lunk_move(&hm, MoveKind::Step);
    assert!(hm.submit(step.clone()));
    let spent = l1.ap.current - lunk(&hm).ap.current;
    assert!(spent >= 1);
    // The view offers it, with what it gives back.
    let offer = hm.app.world().resource::<PlayerView>().undo.clone().expect("Lunk decides").expect("a Step is undoable");
    assert_eq!((offer.keep, offer.ap_back), (r1.0.len(), spent));
    assert!(offer.label.starts_with("Lunk: Step to"), "{}", offer.label);

    let u = undo(&mut hm).expect("the Step is taken back");
    assert_eq!(u.command, step);
    assert_eq!(hash(&hm), h1, "the state is the one before the Step");
    assert_eq!(record(&hm), r1, "the record is the one before the Step");
    assert_eq!(lunk(&hm).ap.current, l1.ap.current, "its AP come back");

    let u = undo(&mut hm).expect("the free steps are taken back");
    assert_eq!((u.command, u.free_steps_back), (free.clone(), free.path_len() as u32));
    assert_eq!(hash(&hm), h0);
    assert_eq!(record(&hm), r0);
    assert_eq!(lunk(&hm).free_steps, l0.free_steps, "the free steps come back");

    let v = undo(&mut hm).expect_err("nothing of this opportunity is left");
    assert_eq!(v.rule, "UNDO-1");
    assert!(v.reason.contains("Lunk has done nothing yet"), "{}", v.reason);
    assert_eq!(hash(&hm), h0, "a refused undo changes nothing");

    // Played on after the undo ≡ the match in which the commands were never issued: same
    // commands, same checkpoints, same state, and the save replays and verifies.
    let mut straight = tutorial(3);
    for hm in [&mut hm, &mut straight] {
        assert!(hm.submit(step_or_free(hm)));
        let id = "lunk".to_string();
        assert!(hm.submit(Command::End { actor: id }));
    }
    assert_eq!(record(&hm), record(&straight));
    assert_eq!(hash(&hm), hash(&straight));
    let data = RuleData::load(root()).unwrap();
    let save = hm.app.world().resource::<MatchRecord>().to_save(hm.snapshot_turn(), None).unwrap();
    let checked = doo_rules::level_file::load(&root().join("levels/tutorial.ron"), &data, root()).unwrap();
    let origin = doo_rules::replay::Origin::of_save(&data, &save, &checked).unwrap();
    let replayed = doo_rules::replay::Replay::run(&origin, &save.commands);
    assert_eq!(doo_rules::replay::verify(&save, &replayed), Ok(save.checkpoints.len()));
}

/// A Step if one is on offer, else free steps.
fn step_or_free(hm: &HeadlessMatch) -> Command {
    let m = hm.state();
    let a = m.index("lunk").unwrap();
    let d = preview::destinations(m, a);
    d.values().find(|d| d.kind == MoveKind::Step).or_else(|| d.values().next()).expect("a move on offer").command.clone()
}

#[test] // hot-seat: only the opportunity in progress; Lunk's moves are not the goblin's to take back (UNDO-1)
fn another_players_commands_stay() {
    let mut hm = tutorial(3);
    assert!(hm.submit(step_or_free(&hm)));
    assert!(hm.submit(Command::End { actor: "lunk".into() }));
    let m = hm.state();
    assert_eq!(m.clock.current.map(|c| m.fighters[c].id.as_str()), Some("goblin"), "seed 3: the goblin acts next");
    let before = hash(&hm);
    let v = undo(&mut hm).expect_err("the goblin did nothing yet");
    assert_eq!(v.rule, "UNDO-1");
    assert!(v.reason.contains("Goblin has done nothing yet"), "{}", v.reason);
    assert_eq!(hash(&hm), before);
}

#[test] // UNDO-6: a match without a record cannot be rebuilt, so nothing is taken back
fn an_unrecorded_match_has_no_undo() {
    let data = RuleData::load(root()).unwrap();
    let checked = doo_rules::level_file::load(&root().join("levels/tutorial.ron"), &data, root()).unwrap();
    let mut hm = HeadlessMatch::new(checked.build(&data).unwrap(), Dice::seeded(3), false);
    let v = undo(&mut hm).expect_err("not recorded");
    assert_eq!(v.rule, "UNDO-6");
}

#[test] // UNDO-7: in a network match (a side played on another computer) nothing is taken back, even a move undoable in a local match
fn a_network_match_has_no_undo() {
    let mut hm = tutorial(3);
    let free = lunk_move(&hm, MoveKind::FreeStep);
    assert!(hm.submit(free));
    let before = hash(&hm);
    let mut ai = doo::game::ai::AiControl::default();
    ai.remote.insert("monsters".into());
    hm.app.world_mut().insert_resource(ai);
    let v = undo(&mut hm).expect_err("a network match");
    assert_eq!(v.rule, "UNDO-7");
    assert_eq!(hash(&hm), before, "nothing was taken back");
    // The same move in a local match is taken back (the test could fail the other way).
    hm.app.world_mut().insert_resource(doo::game::ai::AiControl::default());
    assert!(undo(&mut hm).is_ok(), "locally the free steps are taken back");
}
