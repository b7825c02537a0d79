//! What a delve shows (issue 47's variety goal: "each feature appears in at least a third of
//! the dungeons"): the features found on any of its floors, read from the levels as written.
//! `cargo test -p doo_rules --test delve` holds each to a third of the dungeons; the example
//! `delve_speed` prints the shares (docs/delve.md, "Difficulty, measured").

use crate::level_file::{Goal, Level};
use crate::rules::explore::{Awareness, TrapOn};
use std::collections::BTreeSet;

/// Every feature `features` may find, in the order they are reported.
pub const FEATURES: [&str; 18] = [
    "doors",
    "locked doors and keys",
    "a key in a chest",
    "secret door",
    "hidden trap",
    "trap in sight",
    "trap on a door or chest",
    "chest of loot",
    "dark",
    "lights",
    "encounters",
    "an encounter lying in ambush",
    "orders",
    "a non-hostile NPC who trades and warns",
    "a story beat",
    "an ambush that arrives",
    "stairs to the next floor",
    "a boss or an exit at the end",
];

/// The features of `FEATURES` that a delve's floors (`Delve::levels`, in order) show.
pub fn features(levels: &[Level]) -> BTreeSet<&'static str> {
    let mut f = BTreeSet::new();
    let floors = levels.len();
    for (k, l) in levels.iter().enumerate() {
        let map: String = l.floors.concat().concat();
        let mut has = |yes: bool, name: &'static str| {
            if yes {
                f.insert(name);
            }
        };
        has(map.contains('+') || map.contains('/'), "doors");
        has(!l.keys.is_empty() && l.doors.iter().any(|d| d.lock.as_ref().is_some_and(|x| x.key.is_some())), "locked doors and keys");
        has(l.keys.iter().any(|k| l.chests.iter().any(|c| c.items.contains(&k.id))), "a key in a chest");
        has(map.contains('S'), "secret door");
        has(l.traps.iter().any(|t| t.hidden), "hidden trap");
        has(l.traps.iter().any(|t| !t.hidden), "trap in sight");
        has(l.traps.iter().any(|t| t.on != TrapOn::Space), "trap on a door or chest");
        has(l.chests.iter().any(|c| c.items.iter().any(|i| !i.starts_with("key_"))), "chest of loot");
        has(!l.dark.is_empty(), "dark");
        has(!l.lights.is_empty(), "lights");
        has(l.encounters.iter().any(|e| !e.non_hostile && !e.arrives), "encounters");
        has(l.encounters.iter().any(|e| e.awareness == Awareness::Ambush), "an encounter lying in ambush");
        has(l.encounters.iter().any(|e| e.orders.is_some()) || l.characters.iter().any(|c| c.orders.is_some()), "orders");
        has(l.encounters.iter().any(|e| e.non_hostile && !e.trades.is_empty() && e.says.is_some()), "a non-hostile NPC who trades and warns");
        has(l.events.iter().any(|e| e.id == "story"), "a story beat");
        has(l.encounters.iter().any(|e| e.arrives), "an ambush that arrives");
        let exit = l.victory.iter().any(|v| matches!(v.goal, Goal::ReachExit(_)));
        let boss = l.victory.iter().any(|v| matches!(v.goal, Goal::Defeat(_)));
        has(k + 1 < floors && exit, "stairs to the next floor");
        has(k + 1 == floors && (exit || boss), "a boss or an exit at the end");
    }
    f
}
