//! The exploration bar's item orders (issue 29, preview_share.rs): hand, drop the weapon or
//! shield, sort a chest's loot; each entry carries the order it sends and is validated.

use super::*;
use crate::rules::command::Command;
use crate::rules::dice::Dice;
use crate::rules::grid::Pos;
use crate::rules::offer::{Choice, Group};

const ROOM: [&str; 6] = ["#########", "#.......#", "#.......#", "#.......#", "#.......#", "#########"];

/// h at (2,2), g next to him at (3,2), k at (2,4) (not next to him), an orc far off; turn begun.
fn crawl() -> Match {
    let mut m = crate::testkit::crawl(&ROOM, &[("h", "heroes", (2, 2)), ("g", "heroes", (3, 2)), ("k", "heroes", (2, 4)), ("o", "monsters", (7, 4))]);
    let (mut dice, mut ev) = (Dice::seeded(3), Vec::new());
    with_crawl(&mut m, |m, x| turns::begin(m, x, &mut dice, &mut ev));
    m
}

fn bar(m: &Match, a: usize) -> Vec<Choice> {
    preview::choices(m, m.explore.as_deref().unwrap(), a)
}

#[test] // R-EXP-8: "Hand <item> to <name>" for each item he carries and each hero next to him (not one two spaces off), the Hand order, in "Items & other", available
fn hand_entries_for_each_item_and_neighbour() {
    let mut m = crawl();
    m.fighters[0].loadout.items = vec!["potion_of_healing".into(), "torch".into(), "torch".into()];
    let hands: Vec<Choice> = bar(&m, 0).into_iter().filter(|c| c.row == "hand").collect();
    let cmds: Vec<&Command> = hands.iter().map(|c| &c.template).collect();
    let hand = |item: &str| Command::Hand { actor: "h".into(), to: "g".into(), item: item.into() };
    assert_eq!(cmds, vec![&hand("potion_of_healing"), &hand("torch")], "one entry per kind of item, only g is next to h");
    assert!(
        hands.iter().all(|c| c.refusal.is_none()
            && c.group == Group::Other
            && c.label.starts_with("Hand ")
            && c.label.ends_with(&format!(" to {}", m.fighters[1].name))),
        "{hands:?}"
    );
}

#[test] // R-EXP-8: the hand entries are capped (items × neighbours) at MAX_HAND_ENTRIES
fn hand_entries_are_capped() {
    let mut m = crawl();
    m.fighters[2].pos = Pos::new(1, 2);
    m.fighters[0].loadout.items = (0..6).map(|i| format!("thing{i}")).collect();
    let n = bar(&m, 0).iter().filter(|c| c.row == "hand").count();
    assert_eq!(n, super::preview_share::MAX_HAND_ENTRIES, "6 items × 2 neighbours = 12, capped");
}

#[test] // R-EXP-3, R-EXP-8: once he has acted the hand entry is shown refused with its rule id; R-EXP-15: his weapon and shield may be dropped (free)
fn drop_entries_and_a_refused_hand() {
    let mut m = crawl();
    m.fighters[0].loadout.weapon = Some("dagger".into());
    m.fighters[0].loadout.shield = Some("buckler".into());
    m.fighters[0].loadout.items = vec!["torch".into()];
    let drops: Vec<Command> = bar(&m, 0).into_iter().filter(|c| c.row == "drop" && c.refusal.is_none()).map(|c| c.template).collect();
    let drop = |item: &str| Command::Drop { actor: "h".into(), item: item.into() };
    assert_eq!(drops, vec![drop("dagger"), drop("buckler")]);
    assert!(bar(&m, 0).iter().any(|c| c.label == "Drop Dagger"), "the weapon's name from the book");
    m.explore.as_deref_mut().unwrap().acted[0] = Acted::Done;
    let hand = bar(&m, 0).into_iter().find(|c| c.row == "hand").expect("a hand entry");
    assert_eq!(hand.refusal.map(|v| v.rule), Some("R-EXP-3".to_string()));
}

#[test] // R-EXP-15: next to an open chest with another hero around it, "Sort the loot … share it out": each item to the hero then carrying the fewest (the first on a tie); alone, no such entry
fn sort_the_loot_shares_it_out() {
    let mut m = crawl();
    let chest = Chest { id: "box".into(), pos: Pos::new(2, 1), items: vec!["a".into(), "b".into(), "c".into()], open: true, lock: None };
    m.explore.as_deref_mut().unwrap().chests.push(chest);
    m.fighters[0].loadout.items = vec!["x".into(), "y".into()];
    m.fighters[1].loadout.items = Vec::new();
    let sort = bar(&m, 0).into_iter().find(|c| c.row == "sort_loot").expect("a sort entry");
    assert!(sort.refusal.is_none(), "{:?}", sort.refusal);
    assert_eq!(sort.label, "Sort the loot of chest (2, 1): share it out");
    let share = |item: &str, to: &str| Share { item: item.into(), to: to.into() };
    let want = Command::SortLoot { actor: "h".into(), at: Pos::new(2, 1), share: vec![share("a", "g"), share("b", "g"), share("c", "h")] };
    assert_eq!(sort.template, want);
    m.fighters[1].pos = Pos::new(5, 3);
    assert!(!bar(&m, 0).iter().any(|c| c.row == "sort_loot"), "alone by the chest: no sort entry");
}
