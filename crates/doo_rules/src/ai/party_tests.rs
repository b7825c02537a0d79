//! Tests of the party's share-out (`party.rs`): who gets what when the AI sorts a chest's loot
//! (R-EXP-15), and the value of an assist (R-CHK-7).

use super::party::{assist_gain, share_out};
use crate::rules::explore::Task;
use crate::rules::grid::Pos;

const ROOM: [&str; 3] = ["#######", "#.....#", "#######"];

#[test] // R-EXP-15 (the share-out names a hero taking part for each item), R-EXP-12 (the key's bearer unlocks while opening): healing to the one most hurt, the key to the leader, a shield to one without, the rest to whoever carries least
fn the_share_out_is_sensible() {
    let mut m = crate::testkit::crawl(&ROOM, &[("a", "heroes", (1, 1)), ("b", "heroes", (2, 1)), ("o", "monsters", (5, 1))]);
    m.fighters[1].hp = 3; // b: 3 of 10 HP
    m.fighters[0].loadout.shield = Some("buckler".into());
    let mut x = m.explore.take().expect("a crawl");
    x.keys.insert("iron_key".into(), "Iron key".into());
    let items: Vec<String> = ["potion_of_healing", "iron_key", "buckler", "gemstone"].iter().map(|s| s.to_string()).collect();
    let share = share_out(&m, &x, &[0, 1], &items, 0);
    let to: Vec<(&str, &str)> = share.iter().map(|s| (s.item.as_str(), s.to.as_str())).collect();
    assert_eq!(to, [("potion_of_healing", "b"), ("iron_key", "a"), ("buckler", "b"), ("gemstone", "a")]);
}

#[test] // R-CHK-7: meeting the instigator's stat value adds +1, so a helper's expected bonus is positive and grows with his skill
fn an_assist_is_worth_more_from_a_skilled_helper() {
    let mut m = crate::testkit::crawl(&["######", "#..L.#", "######"], &[("h", "heroes", (2, 1)), ("g", "heroes", (1, 1)), ("o", "monsters", (4, 1))]);
    let x = m.explore.take().expect("a crawl");
    let at = Pos::new(3, 1);
    let untrained = assist_gain(&m, &x, 0, 1, Task::PickLock, at);
    m.fighters[1].skills.insert("disable".into(), crate::rules::profile::Rank::Master);
    let master = assist_gain(&m, &x, 0, 1, Task::PickLock, at);
    assert!(untrained > 0.0 && master > untrained, "{untrained} {master}");
}
