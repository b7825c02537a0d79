//! Level events of issue 46: conditions, variables, the new triggers and actions, `one_of`
//! drawn from the match's dice, and their caps, played in the plain flow (`rules::driver`).

use doo_rules::data::RuleData;
use doo_rules::level_file::{self, CheckedLevel, LevelError};
use doo_rules::rules::command::Command;
use doo_rules::rules::dice::Dice;
use doo_rules::rules::driver;
use doo_rules::rules::event::Event;
use doo_rules::rules::state::Match;
use std::path::{Path, PathBuf};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn check(text: &str) -> Result<CheckedLevel, Vec<LevelError>> {
    level_file::check("t.ron", text, &RuleData::builtin(), &root())
}

fn bells() -> String {
    std::fs::read_to_string(root().join("tests/levels/events/bells.ron")).unwrap()
}

fn started(text: &str, seed: u64) -> (Match, Dice, Vec<Event>) {
    let data = RuleData::builtin();
    let mut m = check(text).expect("valid").build(&data).expect("match");
    let mut dice = Dice::seeded(seed);
    let mut ev = Vec::new();
    driver::open(&mut m, &mut dice, &mut ev);
    (m, dice, ev)
}

/// Both figures end their opportunities for `turns` turns, whoever's opportunity it is.
fn pass_turns(m: &mut Match, dice: &mut Dice, ev: &mut Vec<Event>, turns: u32) {
    let until = m.clock.turn + turns;
    for _ in 0..64 {
        if m.clock.turn >= until {
            return;
        }
        let ids: Vec<String> = m.fighters.iter().map(|f| f.id.clone()).collect();
        if !ids.into_iter().any(|id| driver::submit(m, dice, &Command::End { actor: id }, ev).is_ok()) {
            return;
        }
    }
}

fn stories(ev: &[Event]) -> Vec<String> {
    ev.iter().filter_map(|e| if let Event::Story { id, text } = e { Some(format!("{id}: {text}")) } else { None }).collect()
}

fn var(m: &Match, name: &str) -> i32 {
    m.story.as_deref().and_then(|s| s.vars.get(name).copied()).expect("declared")
}

#[test] // issue 46: a one_of is drawn from the match's dice: the same seed draws the same branch (and state hash), other seeds other branches
fn one_of_is_drawn_the_same_from_the_same_seed() {
    let mut drawn = std::collections::BTreeSet::new();
    for seed in 1..=12u64 {
        let play = || {
            let (mut m, mut dice, mut ev) = started(&bells(), seed);
            pass_turns(&mut m, &mut dice, &mut ev, 2);
            assert_eq!(m.clock.turn, 3, "seed {seed}");
            (stories(&ev), doo_rules::save::state_hash(&m, &dice), var(&m, "bells"))
        };
        let (a, b) = (play(), play());
        assert_eq!(a, b, "seed {seed}: the same draw, the same state");
        let fate: Vec<&String> = a.0.iter().filter(|s| s.starts_with("fate:") && *s != "fate: The third turn.").collect();
        assert!(fate.len() <= 1, "one branch at most: {fate:?}");
        // The third branch is empty: no story line.
        drawn.insert(fate.first().map(|s| s.to_string()).unwrap_or_default());
        if a.0.iter().any(|s| s == "fate: A bell cracks.") {
            assert_eq!(a.2, 0, "the second branch's set_var");
        }
    }
    assert_eq!(drawn.len(), 3, "every branch is drawn by some seed: {drawn:?}");
}

#[test] // issue 46: the level's variables are part of the match's state hash (saves and replays compare them)
fn variables_are_in_the_state_hash() {
    let (mut m, dice, _) = started(&bells(), 1);
    let before = doo_rules::save::state_hash(&m, &dice);
    m.story.as_deref_mut().unwrap().vars.insert("bells".into(), 7);
    assert_ne!(doo_rules::save::state_hash(&m, &dice), before);
}

#[test] // issue 46: add_var saturates at i32's bounds (a level's numbers are untrusted), repeated
fn add_var_saturates() {
    let text = std::fs::read_to_string(root().join("tests/hostile/109_level_event_var_extremes.ron")).unwrap();
    let (mut m, mut dice, mut ev) = started(&text, 2);
    pass_turns(&mut m, &mut dice, &mut ev, 3);
    assert!(m.clock.turn >= 3);
    assert_eq!((var(&m, "hi"), var(&m, "lo")), (i32::MAX, i32::MIN));
    // No hero in the level: award_cp gives nobody CP (R-CP-10 is a hero's).
    assert!(!ev.iter().any(|e| matches!(e, Event::CpEarned { .. })));
}

#[test] // issue 46: a condition is read as its event is about to fire: false, it does not fire; `times` caps the firings
fn conditions_and_times() {
    let (mut m, mut dice, mut ev) = started(&bells(), 3);
    pass_turns(&mut m, &mut dice, &mut ev, 5);
    let s = stories(&ev);
    assert!(!s.iter().any(|s| s.starts_with("never:")), "its door is shut: {s:?}");
    assert_eq!(s.iter().filter(|s| s.starts_with("toll:")).count(), 3, "times: 3");
    assert!(s.iter().any(|s| s.starts_with("gate:")), "{s:?}");
    assert_eq!(s.iter().filter(|s| s.starts_with("second:")).count(), 1, "{s:?}");
    assert_eq!(m.board.tile(doo_rules::rules::grid::Pos::new(5, 1)), Some(doo_rules::rules::grid::Tile::Pit));
}

/// The first problem `validate` finds in the bells level with `from` replaced by `to`.
fn problem(from: &str, to: &str) -> String {
    let text = bells();
    assert!(text.contains(from), "{from}");
    match check(&text.replacen(from, to, 1)) {
        Ok(_) => panic!("accepted: {to}"),
        Err(e) => e[0].message.clone(),
    }
}

#[test] // issue 46: an unresolved name in a condition or a new action or trigger is a problem naming it
fn unresolved_names_are_named() {
    let cases = [
        (r#"var(name: "bells", at_least: 2, at_most: 3)"#, r#"var(name: "gongs", at_least: 2)"#, "unknown variable 'gongs'"),
        (r#"fired("seen"),"#, r#"fired("unseen"),"#, "fired: no event 'unseen'"),
        ("door(at: (4, 2), state: open)),", "door(at: (3, 2), state: open)),", "only_if: no door at (3, 2)"),
        (r#"holds(who: figure("lunk")"#, r#"holds(who: figure("lank")"#, "unknown figure 'lank'"),
        (r#"item: "potion_of_healing"), fired"#, r#"item: "potion_of_wishing"), fired"#, "unknown item 'potion_of_wishing'"),
        (r#"add_var(name: "bells", by: 1), message("A bell"#, r#"add_var(name: "bell", by: 1), message("A bell"#, "unknown variable 'bell'"),
        (r#"set_var(name: "bells", to: 0)"#, r#"set_var(name: "b", to: 0)"#, "unknown variable 'b'"),
        ("tile(at: (5, 1), to: pit)", "tile(at: (4, 2), to: pit)", "tile: the space (4, 2) is a door"),
        ("tile(at: (5, 1), to: pit)", "tile(at: (50, 1), to: pit)", "is not on the map"),
        (r#"by: "heroes")"#, r#"by: "elves")"#, "sighted: unknown side 'elves'"),
        (r#"hp_at_most(who: figure("lunk")"#, r#"hp_at_most(who: figure("lank")"#, "unknown figure 'lank'"),
        (r#"award_cp(who: side("heroes"), cp: 2)"#, r#"award_cp(who: side("heroes"), cp: 0)"#, "award_cp: 1 to 10 CP"),
        (r#"award_cp(who: side("heroes")"#, r#"award_cp(who: side("elves")"#, "unknown side 'elves'"),
        ("times: 3,", "times: 0,", "times: at least 1"),
        (r#"vars: {"bells": 0},"#, r#"vars: {"bells": 0, "no good": 1},"#, "variable 'no good': a name is 1 to 64"),
    ];
    for (from, to, want) in cases {
        let got = problem(from, to);
        assert!(got.contains(want), "{to}: {got}");
    }
}

#[test] // issue 46: the test level's events are valid, and its RON reads back as written
fn the_bells_level_is_valid() {
    let l = check(&bells()).expect("valid");
    assert_eq!(l.level.vars.get("bells"), Some(&0));
    let again: doo_rules::level_file::Level = doo_rules::data::parse_ron("t", &doo_rules::level_edit::write_new(&l.level)).expect("written RON reads");
    assert_eq!(again.events, l.level.events);
    assert_eq!(again.vars, l.level.vars);
}

fn choice_level() -> String {
    std::fs::read_to_string(root().join("tests/levels/events/choice.ron")).unwrap()
}

fn choose(actor: &str, option: u32) -> Command {
    Command::Choose { actor: actor.into(), option }
}

#[test] // issue 46: a choice waits in the match's state (and hash); only its answer is taken (EVENT-1), none is taken when none waits (EVENT-2)
fn a_choice_waits_for_its_answer() {
    let (mut m, mut dice, mut ev) = started(&choice_level(), 1);
    let p = doo_rules::rules::event_choice::pending(&m).expect("the bell's choice waits").clone();
    assert_eq!((p.side.as_str(), p.options.len()), ("heroes", 2));
    let hash = doo_rules::save::state_hash(&m, &dice);
    let actor = m.clock.current.map(|i| m.fighters[i].id.clone()).unwrap();
    let e = driver::submit(&mut m, &mut dice, &Command::End { actor }, &mut ev).unwrap_err();
    assert_eq!(e.rule, "EVENT-1");
    assert!(e.reason.contains("must first answer the choice of level event 'bell'"), "{}", e.reason);
    assert_eq!(driver::submit(&mut m, &mut dice, &choose("lunk", 2), &mut ev).unwrap_err().rule, "EVENT-1");
    assert_eq!(driver::submit(&mut m, &mut dice, &choose("goblin", 0), &mut ev).unwrap_err().rule, "EVENT-1");
    assert_eq!(doo_rules::save::state_hash(&m, &dice), hash, "refusals change nothing");
    driver::submit(&mut m, &mut dice, &choose("lunk", 0), &mut ev).unwrap();
    assert!(doo_rules::rules::event_choice::pending(&m).is_none());
    assert_eq!(var(&m, "rung"), 1, "the option's actions are done");
    assert_ne!(doo_rules::save::state_hash(&m, &dice), hash);
    assert_eq!(driver::submit(&mut m, &mut dice, &choose("lunk", 0), &mut ev).unwrap_err().rule, "EVENT-2");
}

#[test] // issue 46: a match with a choice replays to the same state (the save's commands, the state hash)
fn a_choice_replays() {
    let data = RuleData::builtin();
    let l = check(&choice_level()).unwrap();
    let mut m = l.build(&data).unwrap();
    let mut dice = Dice::seeded(5);
    driver::configure_dice(&mut dice, &m);
    let origin = doo_rules::replay::Origin { m: m.clone(), dice: dice.clone(), mid_phase: false, version: doo_rules::save::VERSION };
    let mut ev = Vec::new();
    driver::open(&mut m, &mut dice, &mut ev);
    let mut commands = Vec::new();
    // The state hash after each command (the first: the heroes' choice waiting).
    let mut hashes = vec![doo_rules::save::state_hash(&m, &dice)];
    // The heroes ring the bell; both end their opportunities into turn 2; the monsters' choice.
    for _ in 0..12 {
        let next = match doo_rules::rules::event_choice::pending(&m) {
            Some(p) if p.side == "monsters" => choose("goblin", 0),
            Some(_) => choose("lunk", 0),
            None => match m.clock.current {
                Some(i) => Command::End { actor: m.fighters[i].id.clone() },
                None => break,
            },
        };
        driver::submit(&mut m, &mut dice, &next, &mut ev).unwrap_or_else(|e| panic!("{next:?}: {e:?}"));
        let done = next == choose("goblin", 0);
        commands.push(next);
        hashes.push(doo_rules::save::state_hash(&m, &dice));
        if done {
            break;
        }
    }
    assert_eq!(commands.last(), Some(&choose("goblin", 0)), "{commands:?}");
    // Play them all again on a fresh match: refused ones are kept out above.
    let mut m2 = origin.m.clone();
    let mut d2 = origin.dice.clone();
    driver::open(&mut m2, &mut d2, &mut Vec::new());
    for c in &commands {
        driver::submit(&mut m2, &mut d2, c, &mut Vec::new()).unwrap_or_else(|e| panic!("{c:?}: {e:?}"));
    }
    let r = doo_rules::replay::Replay::run(&origin, &commands);
    assert_eq!(doo_rules::save::state_hash(&r.m, &r.dice), doo_rules::save::state_hash(&m2, &d2));
    assert_eq!(doo_rules::save::state_hash(&m, &dice), doo_rules::save::state_hash(&m2, &d2));
    assert!(ev.iter().any(|e| matches!(e, Event::Story { id, text } if id == "nerve" && text == "The goblin fights on.")));
    assert_eq!(var(&r.m, "rung"), 1);
    // A save's replay stopped at any command, a choice waiting or not, is the match as it was.
    for (k, h) in hashes.iter().enumerate() {
        let r = doo_rules::replay::Replay::run(&origin, &commands[..k]);
        assert_eq!(&doo_rules::save::state_hash(&r.m, &r.dice), h, "after {k} commands");
        assert_eq!(doo_rules::rules::event_choice::pending(&r.m).is_some(), k == 0 || commands.get(k).is_some_and(|c| *c == choose("goblin", 0)), "after {k}");
    }
}

#[test] // issue 46: the AI answers a choice put to its side (its first option), through the same check
fn the_ai_answers_its_sides_choice() {
    let data = RuleData::builtin();
    let l = check(&choice_level()).unwrap();
    let who: std::collections::BTreeMap<String, doo_rules::ai::Difficulty> = l.side_ids().map(|s| (s.to_string(), doo_rules::ai::Difficulty::Normal)).collect();
    let (mut m, mut dice, mut ev) = started(&choice_level(), 1);
    let cfg = doo_rules::ai::AiConfig::for_level(l.side_ids(), &l.behaviours, &l.level.victory, doo_rules::ai::Difficulty::Normal, &who, 1, data.ai.clone());
    let a = doo_rules::ai::who_decides(&m, &cfg).expect("someone of the heroes answers");
    assert_eq!(m.fighters[a].side, "heroes");
    let cmd = doo_rules::ai::decide(&m, a, &cfg);
    assert_eq!(cmd, choose("lunk", 0));
    driver::submit(&mut m, &mut dice, &cmd, &mut ev).unwrap();
    assert_eq!(var(&m, "rung"), 1);
}
