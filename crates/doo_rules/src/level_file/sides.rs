//! The sides of a level (listed, or those of its characters) and its victory goals: the names
//! they use exist, survival is bounded, and every exit can be reached.

use super::characters::Cast;
use super::format::{Control, Level, MAX_EXITS, MAX_GOALS, MAX_SIDES, MAX_SURVIVE_TURNS, SideDef};
use super::found::{Found, clip};
use super::map::reachable_from;
use crate::rules::grid::{Board, Pos, Tile};
use crate::rules::victory::Goal;
use std::collections::BTreeMap;

/// Sides: those listed, or every side of the characters (the first one human); a crisis needs
/// two.
pub(super) fn check_sides(level: &Level, cast: &Cast, f: &mut Found) -> Vec<SideDef> {
    let places = f.places;
    let chars = &cast.chars;
    let mut side_ids: Vec<String> = Vec::new();
    let mut side_set = std::collections::HashSet::new();
    for (_, c) in chars {
        if side_set.insert(c.side.as_str()) {
            side_ids.push(c.side.clone());
        }
    }
    let sides: Vec<SideDef> = if level.sides.len() > MAX_SIDES {
        f.key("sides", format!("{} sides; the most is {MAX_SIDES}", level.sides.len()));
        Vec::new()
    } else if level.sides.is_empty() {
        if side_ids.len() > MAX_SIDES {
            f.key("characters", format!("the characters belong to {} sides; the most is {MAX_SIDES}", side_ids.len()));
        }
        side_ids
            .iter()
            .take(MAX_SIDES)
            .enumerate()
            .map(|(k, s)| SideDef { id: s.clone(), name: None, control: if k == 0 { Control::Human } else { Control::Ai }, player: None })
            .collect()
    } else {
        for (k, s) in level.sides.iter().enumerate() {
            let at = places.item("sides", k);
            if let Some(p) = crate::data::id_problem(&s.id) {
                f.at(at, format!("side: {p}"));
            } else if !side_set.contains(s.id.as_str()) {
                f.at(at, format!("side '{}' has no characters", s.id));
            }
            for (what, t) in [("name", &s.name), ("player", &s.player)] {
                if let Some(p) = t.as_deref().and_then(|t| crate::data::text_problem(&format!("the side's {what}"), t, crate::data::MAX_NAME_CHARS)) {
                    f.at(at, format!("side '{}': {p}", clip(&s.id)));
                }
            }
            if level.sides[..k].iter().any(|o| o.id == s.id) {
                f.at(at, format!("side '{}' is listed twice", clip(&s.id)));
            }
        }
        let listed: std::collections::HashSet<&str> = level.sides.iter().map(|s| s.id.as_str()).collect();
        for (i, c) in chars {
            if !listed.contains(c.side.as_str()) {
                f.at(places.character(*i), format!("character '{}': side '{}' is not in `sides`", c.id, clip(&c.side)));
            }
        }
        level.sides.clone()
    };
    if sides.len() < 2 && f.problems.is_empty() {
        f.key("characters", "a crisis needs at least two sides");
    }
    sides
}

/// Victory goals: names exist; exits can be reached (one search per side, not per exit).
pub(super) fn check_victory(level: &Level, sides: &[SideDef], cast: &Cast, board: Option<&Board>, f: &mut Found) {
    let places = f.places;
    let chars = &cast.chars;
    if level.victory.len() > MAX_GOALS {
        f.key("victory", format!("{} victory goals; the most is {MAX_GOALS}", level.victory.len()));
    } else {
        let mut reach: BTreeMap<&str, std::collections::HashSet<Pos>> = BTreeMap::new();
        for (k, v) in level.victory.iter().enumerate() {
            let at = places.item("victory", k);
            if !sides.iter().any(|s| s.id == v.side) {
                f.at(at, format!("victory: unknown side '{}'", clip(&v.side)));
            }
            match &v.goal {
                Goal::Rout(s) if !sides.iter().any(|x| &x.id == s) => f.at(at, format!("victory: unknown side '{}' to rout", clip(s))),
                Goal::Defeat(c) if !chars.iter().any(|(_, x)| &x.id == c) => f.at(at, format!("victory: unknown character '{}'", clip(c))),
                Goal::SurviveTurns(0) => f.at(at, "victory: survive at least 1 turn"),
                Goal::Event(_) => f.at(at, "victory: an Event goal is set by a level event's `win` or `lose` (`events`), not listed here"),
                Goal::SurviveTurns(n) if *n > MAX_SURVIVE_TURNS => f.at(at, format!("victory: survive at most {MAX_SURVIVE_TURNS} turns (not {n})")),
                Goal::ReachExit(exits) if exits.len() > MAX_EXITS => f.at(at, format!("victory: {} exit spaces; the most is {MAX_EXITS}", exits.len())),
                Goal::ReachExit(exits) => {
                    if exits.is_empty() {
                        f.at(at, "victory: ReachExit needs at least one exit space");
                    }
                    if let Some(b) = board {
                        let reached = reach.entry(v.side.as_str()).or_insert_with(|| {
                            let starts: Vec<Pos> = chars.iter().filter(|(_, c)| c.side == v.side).map(|(_, c)| c.pos).collect();
                            if level.mode == crate::level_crawl::LevelMode::Exploration {
                                // A crawl's heroes open doors (and find secret ones) on the way.
                                let mut open = b.clone();
                                for (fi, fl) in b.floors.iter().enumerate() {
                                    for y in 0..fl.height as i32 {
                                        for x in 0..fl.width as i32 {
                                            let p = Pos::on(x, y, fi as u8);
                                            if matches!(b.tile(p), Some(Tile::DoorClosed | Tile::DoorLocked)) {
                                                open.set_tile(p, Tile::DoorOpen);
                                            }
                                        }
                                    }
                                }
                                reachable_from(&open, &starts, &level.stairs)
                            } else {
                                reachable_from(b, &starts, &level.stairs)
                            }
                        });
                        let mut locked_out = Vec::new();
                        for e in exits {
                            if !b.walkable(*e) {
                                f.at(at, format!("victory: exit {e} is not a space a figure can stand on"));
                            } else if !reached.contains(e) {
                                f.at(at, format!("victory: exit {e} cannot be reached by any character of side '{}'", v.side));
                            } else {
                                locked_out.push(*e);
                            }
                        }
                        // Issue 47: a crawl's exits reached through every door must also be
                        // reached with each locked door opened only by its key.
                        if level.mode == crate::level_crawl::LevelMode::Exploration && !locked_out.is_empty() {
                            let starts: Vec<Pos> = chars.iter().filter(|(_, c)| c.side == v.side).map(|(_, c)| c.pos).collect();
                            let keyed = super::keys::reach_with_keys(level, b, &starts);
                            if !locked_out.iter().any(|e| keyed.reached.contains(e)) {
                                let e = locked_out[0];
                                f.at(
                                    at,
                                    format!("victory: exit {e} cannot be reached by side '{}' with its keys{}", v.side, super::keys::shut_words(&keyed.shut)),
                                );
                            }
                        }
                    }
                }
                _ => {}
            }
        }
    }
}
