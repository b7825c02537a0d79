//! Level events' work capped per command, and carried items capped (issue 44): an event whose
//! actions would take one command's reveals, spawns, gives or doors past `Work::CAP` is stopped
//! (it does not fire; the log says so) and the command completes; an event that could never fit
//! is refused when the level is read, at its entry; a `give` to a figure carrying `MAX_CARRIED`
//! items is refused, said so.

use doo_rules::data::RuleData;
use doo_rules::level_file::{self, CheckedLevel, LevelError};
use doo_rules::rules::command::Command;
use doo_rules::rules::dice::Dice;
use doo_rules::rules::driver;
use doo_rules::rules::event::Event;
use doo_rules::rules::grid::{Pos, Tile};
use doo_rules::rules::level_events::{MAX_CARRIED, MAX_DOORS, MAX_GIVEN, MAX_REVEALED, MAX_SPAWNED};
use doo_rules::rules::state::Match;
use std::path::{Path, PathBuf};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn check(text: &str) -> Result<CheckedLevel, Vec<LevelError>> {
    level_file::check("t.ron", text, &RuleData::builtin(), &root())
}

fn started(text: &str) -> (Match, Dice) {
    let data = RuleData::builtin();
    let mut m = check(text).expect("valid").build(&data).expect("match");
    let mut dice = Dice::seeded(3);
    driver::open(&mut m, &mut dice, &mut Vec::new());
    (m, dice)
}

fn notes(ev: &[Event]) -> Vec<&str> {
    ev.iter().filter_map(|e| if let Event::Note { text } = e { Some(text.as_str()) } else { None }).collect()
}

fn open_door(m: &mut Match, dice: &mut Dice) -> Vec<Event> {
    let mut ev = Vec::new();
    let cmd = Command::Door { actor: "hero".into(), at: Pos::new(4, 2), open: true };
    driver::submit(m, dice, &cmd, &mut ev).expect("the door opens");
    ev
}

#[test] // issue 44: 32 events at the caps on one door: what fits the budget fires, the rest is stopped, the command completes
fn events_at_the_caps_are_stopped_by_the_budget() {
    // 512×512: each reveal event covers the floor (262 144 spaces), so four fit in MAX_REVEALED.
    let (mut m, mut dice) = started(&level_file::generated_events(512, true));
    let figures = m.fighters.len();
    let ev = open_door(&mut m, &mut dice);
    let revealed: u64 = ev.iter().map(|e| if let Event::Revealed { spaces, .. } = e { u64::from(*spaces) } else { 0 }).sum();
    assert!(revealed <= MAX_REVEALED as u64, "{revealed} spaces revealed");
    let stopped: Vec<&str> = notes(&ev).into_iter().filter(|t| t.contains("is stopped")).collect();
    assert_eq!(stopped.len(), 16, "reveal4..reveal19 are stopped: {stopped:?}");
    assert_eq!(
        stopped[0],
        format!(
            "Level event 'reveal4' is stopped: it would bring this command's spaces revealed to {}, over the cap of {MAX_REVEALED} (issue 44); it does not fire.",
            MAX_REVEALED + (1 << 18)
        )
    );
    let story = m.story.as_deref().unwrap();
    let fired = |id: &str| story.fired[story.defs.iter().position(|d| d.id == id).unwrap()];
    assert_eq!((fired("reveal3"), fired("reveal4"), fired("reveal19")), (1, 0, 0));
    assert_eq!(m.fighters.len(), figures + MAX_SPAWNED, "the four bands arrive");
    let hero = m.index("hero").unwrap();
    assert_eq!(m.fighters[hero].loadout.items.len(), MAX_GIVEN);
    let open = (0..64).filter(|i| m.board.tile(Pos::new(6 + 2 * i, 10)) == Some(Tile::DoorOpen)).count();
    assert_eq!(open, MAX_DOORS);
}

#[test] // issue 44: the budget is per command: a later command's events have a budget of their own
fn the_budget_is_per_command() {
    let text = level_file::generated_events(160, true).replace("id: \"give0\", when:", "id: \"give0\", repeat: true, when:");
    let (mut m, mut dice) = started(&text);
    open_door(&mut m, &mut dice);
    let hero = m.index("hero").unwrap();
    assert_eq!(m.fighters[hero].loadout.items.len(), MAX_GIVEN);
    // Closing and opening the door again fires `give0` again (it repeats): 16 more.
    let mut ev = Vec::new();
    let close = Command::Door { actor: "hero".into(), at: Pos::new(4, 2), open: false };
    if driver::submit(&mut m, &mut dice, &close, &mut ev).is_ok() && m.board.tile(Pos::new(4, 2)) == Some(Tile::DoorClosed) {
        open_door(&mut m, &mut dice);
        assert_eq!(m.fighters[hero].loadout.items.len(), MAX_GIVEN + 16);
    }
}

#[test] // issue 44: a give to a figure carrying MAX_CARRIED items is refused, with a line saying so
fn give_past_the_carried_cap_is_refused() {
    let (mut m, mut dice) = started(&level_file::generated_events(160, true));
    let hero = m.index("hero").unwrap();
    m.fighters[hero].loadout.items = vec!["dagger".to_string(); MAX_CARRIED - 3];
    let ev = open_door(&mut m, &mut dice);
    assert_eq!(m.fighters[hero].loadout.items.len(), MAX_CARRIED);
    let refused: Vec<&str> = notes(&ev).into_iter().filter(|t| t.contains("does not get")).collect();
    assert_eq!(refused.len(), MAX_GIVEN - 3, "{refused:?}");
    assert_eq!(refused[0], format!("Level event 'give0': Hero carries {MAX_CARRIED} items, the most, and does not get Potion of Healing (issue 44)."));
}

/// A crawl on a `w`×3 corridor with the hero at (1, 1), `n` goblins arriving, and `events`.
fn corridor(w: usize, n: usize, events: &str) -> String {
    let rows = ["#".repeat(w), format!("#{}#", ".".repeat(w - 2)), "#".repeat(w)];
    let rows: Vec<String> = rows.iter().map(|r| format!("{r:?}")).collect();
    let gobs: Vec<String> = (0..n).map(|i| format!(r#"(template: "goblin", id: "g{i}", side: "monsters", pos: ({}, 1))"#, 2 + i)).collect();
    let ids: Vec<String> = (0..n).map(|i| format!("\"g{i}\"")).collect();
    format!(
        "Level(version: 1, name: \"t\", mode: exploration,\nfloors: [[{}]],\ncharacters: [(id: \"hero\", side: \"heroes\", pos: (1, 1), stats: (brawn: 8, finesse: 7, savvy: 5, nerve: 6)),\n{}],\nencounters: [(id: \"horde\", members: [{}], arrives: true)],\nvictory: [(side: \"heroes\", goal: ReachExit([(1, 1)]))],\nevents: [\n{events}\n])",
        rows.join(",\n"),
        gobs.join(",\n"),
        ids.join(", ")
    )
}

#[test] // issue 44: an event whose own spawn brings more figures than one command may is refused at its entry
fn an_event_that_can_never_fit_is_refused_at_load() {
    let text = corridor(80, MAX_SPAWNED + 1, "    (id: \"flood\", when: minute(1), then: [spawn(\"horde\")]),");
    let e = check(&text).expect_err("refused");
    assert_eq!(e.len(), 1, "{e:?}");
    assert_eq!(
        e[0].message,
        format!(
            "event 'flood': its actions alone come to {} figures spawned, over the cap of {MAX_SPAWNED} for the events of one command (issue 44): it could never fire",
            MAX_SPAWNED + 1
        )
    );
    let line = text.lines().position(|l| l.contains("id: \"flood\"")).unwrap() + 1;
    assert_eq!((e[0].line, e[0].col), (line, 5), "at the event's entry");
    // At the cap, it fits.
    check(&corridor(80, MAX_SPAWNED, "    (id: \"flood\", when: minute(1), then: [spawn(\"horde\")]),")).expect("64 figures fit");
}

#[test] // issue 44: a reveal's area over MAX_REVEAL_AREA, and an event whose reveals go past MAX_REVEALED, are refused
fn reveals_over_their_caps_are_refused_at_load() {
    let text = level_file::generated_events(600, true);
    // reveal0's quarters are 300×300 = 90 000 spaces: within MAX_REVEAL_AREA.
    check(&text).expect("valid");
    let big = text.replacen("reveal(area: (from: (0, 0), to: (299, 299))", "reveal(area: (from: (0, 0), to: (599, 599))", 1);
    let e = check(&big).expect_err("refused");
    assert!(e[0].message.starts_with("event 'reveal0': reveal: the area (0, 0)..(599, 599) has 360000 spaces; the most is 262144 (issue 44)"), "{e:?}");
    // Sixteen reveals of 256×256 = 1 048 576 spaces fit; a seventeenth space does not.
    let quarter = |to: usize| format!("reveal(area: (from: (0, 0), to: ({to}, 255)), side: \"heroes\")");
    let mut fits = vec![quarter(255); 16];
    let with = |then: &[String]| format!("{},\n(id: \"big\", when: minute(1), then: [{}])\n])", text.strip_suffix("\n])").unwrap(), then.join(", "));
    let at_cap = with(&fits);
    check(&at_cap).expect("at the cap");
    fits[0] = "reveal(area: (from: (0, 0), to: (256, 255)), side: \"heroes\")".into();
    let over = with(&fits);
    let e = check(&over).expect_err("refused");
    assert!(e.iter().any(|e| e.message.starts_with("event 'big': its actions alone come to 1048832 spaces revealed, over the cap of 1048576")), "{e:?}");
}

#[test] // issue 44: an event with more spawns than one command may do (each checks who sees whom) is refused at its entry
fn an_event_with_too_many_spawns_is_refused_at_load() {
    use doo_rules::rules::level_events::MAX_SPAWNS;
    let spawns = |n: usize| {
        let gobs: Vec<String> = (0..n).map(|i| format!(r#"(template: "goblin", id: "g{i}", side: "monsters", pos: ({}, 1))"#, 2 + i)).collect();
        let encs: Vec<String> = (0..n).map(|i| format!(r#"(id: "e{i}", members: ["g{i}"], arrives: true)"#)).collect();
        let then: Vec<String> = (0..n).map(|i| format!(r#"spawn("e{i}")"#)).collect();
        format!(
            "Level(version: 1, name: \"t\", mode: exploration,\nfloors: [[\"##############\", \"#............#\", \"##############\"]],\ncharacters: [(id: \"hero\", side: \"heroes\", pos: (1, 1), stats: (brawn: 8, finesse: 7, savvy: 5, nerve: 6)),\n{}],\nencounters: [{}],\nvictory: [(side: \"heroes\", goal: ReachExit([(1, 1)]))],\nevents: [(id: \"crowd\", when: minute(1), then: [{}])])",
            gobs.join(",\n"),
            encs.join(", "),
            then.join(", ")
        )
    };
    check(&spawns(MAX_SPAWNS)).expect("8 spawns fit");
    let e = check(&spawns(MAX_SPAWNS + 1)).expect_err("refused");
    assert_eq!(
        e[0].message,
        format!(
            "event 'crowd': its actions alone come to {} spawns, over the cap of {MAX_SPAWNS} for the events of one command (issue 44): it could never fire",
            MAX_SPAWNS + 1
        )
    );
}

#[test] // issue 44: the work counts: what fits and what goes over, the first count over named
fn work_counts() {
    use doo_rules::rules::level_events::Work;
    let at_cap = Work::CAP;
    assert_eq!(at_cap.over(), None);
    let one = Work { given: 1, ..Work::default() };
    assert_eq!(at_cap.plus(one).over(), Some(("items given", MAX_GIVEN + 1, MAX_GIVEN)));
    let huge = Work { revealed: usize::MAX, ..Work::default() };
    assert_eq!(huge.plus(huge).over(), Some(("spaces revealed", usize::MAX, MAX_REVEALED)), "saturates, never wraps");
}
