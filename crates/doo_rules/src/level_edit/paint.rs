//! What a paint stroke does to the level (issue 31): map characters, rooms, figures, chests,
//! traps, exits, dark and lights put in a rectangle, and what an eraser or a resize removes
//! with its ties (a figure's place in its encounter, an exit's goal, a door's lock).

use super::brush::{Brush, Rect, at, pos, unique};
use crate::level_crawl::{AreaDef, ChestDef, LevelMode, LightDef, TrapDef};
use crate::level_file::{CharacterEntry, Level};
use crate::rules::grid::Pos;
use crate::rules::victory::{Goal, Victory};

pub(super) fn set_tile(l: &mut Level, f: usize, x: i32, y: i32, ch: char) {
    let (Ok(ux), Ok(uy)) = (usize::try_from(x), usize::try_from(y)) else { return };
    let Some(row) = l.floors.get_mut(f).and_then(|r| r.get_mut(uy)) else { return };
    let mut cs: Vec<char> = row.chars().collect();
    if let Some(c) = cs.get_mut(ux) {
        *c = ch;
        *row = cs.into_iter().collect();
    }
}

pub(super) fn is_exit(l: &Level, p: Pos) -> bool {
    l.victory.iter().any(|v| matches!(&v.goal, Goal::ReachExit(e) if e.contains(&p)))
}

pub(super) fn is_dark(l: &Level, p: Pos) -> bool {
    l.dark.iter().any(|a| a.from.floor == p.floor && Rect::new((a.from.x, a.from.y), (a.to.x, a.to.y)).contains(p.x, p.y))
}

/// Removes figures (and their places in encounters) for which `gone` holds.
pub(super) fn remove_figures(l: &mut Level, gone: impl Fn(usize, &CharacterEntry) -> bool) {
    let mut ids = Vec::new();
    let mut k = 0;
    l.characters.retain(|c| {
        let g = gone(k, c);
        k += 1;
        if g {
            ids.extend(c.id.clone());
        }
        !g
    });
    for e in &mut l.encounters {
        e.members.retain(|m| !ids.contains(m));
    }
    l.encounters.retain(|e| !e.members.is_empty());
}

/// Removes whatever stands or lies where `here` holds (the map stays); a dark area goes whole
/// when `touches` holds for its rectangle and floor (answered from the corners: a file's area may
/// be any size, so its spaces are never walked).
pub(super) fn clear_where(l: &mut Level, here: impl Fn(&Pos) -> bool, touches: impl Fn(Rect, u8) -> bool) {
    remove_figures(l, |_, c| c.pos.as_ref().is_some_and(&here));
    l.chests.retain(|c| !here(&c.pos));
    l.traps.retain(|t| !here(&t.pos));
    l.items.retain(|i| !here(&i.pos));
    l.lights.retain(|li| !li.pos.as_ref().is_some_and(&here));
    l.doors.retain(|d| !here(&d.pos));
    for v in &mut l.victory {
        if let Goal::ReachExit(e) = &mut v.goal {
            e.retain(|p| !here(p));
        }
    }
    l.victory.retain(|v| !matches!(&v.goal, Goal::ReachExit(e) if e.is_empty()));
    l.dark.retain(|a| !touches(Rect::new((a.from.x, a.from.y), (a.to.x, a.to.y)), a.from.floor));
}

/// A figure without a template, without the values it has when they are not given (a medium
/// size, no skills, standing able to open doors …): written, such a field only says its default.
fn without_defaults(c: &mut CharacterEntry) {
    if c.template.is_some() {
        return;
    }
    fn drop_if<T: PartialEq>(v: &mut Option<T>, d: T) {
        if v.as_ref() == Some(&d) {
            *v = None;
        }
    }
    drop_if(&mut c.size, Default::default());
    drop_if(&mut c.caster, Default::default());
    drop_if(&mut c.skills, Default::default());
    drop_if(&mut c.abilities, vec![]);
    drop_if(&mut c.items, vec![]);
    drop_if(&mut c.spells, vec![]);
    drop_if(&mut c.conditions, vec![]);
    drop_if(&mut c.ap_roll_bonus, 0);
    for (v, d) in
        [(&mut c.two_handed, false), (&mut c.surprised, false), (&mut c.mook, false), (&mut c.hero, false), (&mut c.opens_doors, true), (&mut c.loaded, true)]
    {
        drop_if(v, d);
    }
}

pub(super) fn place_figure(l: &mut Level, f: usize, x: i32, y: i32, entry: &CharacterEntry) {
    let mut c = entry.clone();
    without_defaults(&mut c);
    let taken: Vec<String> = l.characters.iter().filter_map(|c| c.id.clone()).collect();
    let base = c.id.clone().or(c.template.clone()).unwrap_or_else(|| "figure".into());
    c.id = Some(unique(&base, &taken));
    c.pos = Some(pos(x, y, f));
    l.characters.push(c);
}

pub(super) fn paint_level(l: &mut Level, f: usize, area: Rect, brush: &Brush) {
    let (x, y) = (area.x0, area.y0);
    let p = pos(x, y, f);
    match brush {
        Brush::Tile(ch) => {
            for (x, y) in area.cells() {
                set_tile(l, f, x, y, *ch);
            }
            // A door's lock or secret goes with the door.
            if !matches!(ch, '+' | '/' | 'L' | 'S') {
                l.doors.retain(|d| !(d.pos.floor as usize == f && area.contains(d.pos.x, d.pos.y)));
            }
        }
        Brush::Room => {
            for (cx, cy) in area.cells() {
                set_tile(l, f, cx, cy, if area.border(cx, cy) { '#' } else { '.' });
            }
        }
        Brush::Erase => clear_where(l, |q| q.floor as usize == f && area.contains(q.x, q.y), |r, fl| fl as usize == f && r.intersects(&area)),
        Brush::Figure(entry) => {
            remove_figures(l, |_, c| at(&c.pos, x, y, f));
            place_figure(l, f, x, y, entry);
        }
        Brush::Chest => {
            if !l.chests.iter().any(|c| c.pos == p) {
                let taken: Vec<String> = l.chests.iter().map(|c| c.id.clone()).collect();
                l.chests.push(ChestDef { id: unique("chest", &taken), pos: p, items: vec!["potion_of_healing".into()], lock: None });
                l.mode = LevelMode::Exploration;
            }
        }
        Brush::Trap => {
            if !l.traps.iter().any(|t| t.pos == p) {
                let taken: Vec<String> = l.traps.iter().map(|t| t.id.clone()).collect();
                l.traps.push(TrapDef {
                    id: unique("trap", &taken),
                    pos: p,
                    on: Default::default(),
                    hidden: true,
                    find_cr: None,
                    disarm_cr: None,
                    effect_cr: None,
                    damage: None,
                    condition: None,
                    rearms: false,
                });
                l.mode = LevelMode::Exploration;
            }
        }
        Brush::Exit => {
            let Some(first) = l.sides.first().map(|s| s.id.clone()) else { return };
            let cells: Vec<Pos> = area.cells().map(|(x, y)| pos(x, y, f)).collect();
            match l.victory.iter_mut().find(|v| v.side == first && matches!(v.goal, Goal::ReachExit(_))) {
                Some(Victory { goal: Goal::ReachExit(e), .. }) => {
                    for c in cells {
                        if !e.contains(&c) {
                            e.push(c);
                        }
                    }
                }
                _ => {
                    // The others win by routing the first side (as they would without goals).
                    if l.victory.is_empty() {
                        for s in l.sides.iter().skip(1) {
                            l.victory.push(Victory { side: s.id.clone(), goal: Goal::Rout(first.clone()) });
                        }
                    }
                    l.victory.insert(0, Victory { side: first, goal: Goal::ReachExit(cells) });
                }
            }
        }
        Brush::Dark => {
            if !is_dark(l, p) || area.x0 != area.x1 || area.y0 != area.y1 {
                l.dark.push(AreaDef { from: p, to: pos(area.x1, area.y1, f) });
                l.mode = LevelMode::Exploration;
            }
        }
        Brush::Light => {
            if !l.lights.iter().any(|li| li.pos == Some(p)) {
                l.lights.push(LightDef { item: "torch".into(), minutes: 60, held_by: None, pos: Some(p) });
                l.mode = LevelMode::Exploration;
            }
        }
    }
}

/// Everything of the level that has a place: what it is, in words, and where.
pub(super) fn placed(l: &Level) -> Vec<(String, Pos)> {
    let mut out: Vec<(String, Pos)> = Vec::new();
    for c in &l.characters {
        if let Some(p) = c.pos {
            out.push((format!("figure '{}'", c.id.clone().or_else(|| c.template.clone()).unwrap_or_else(|| "figure".into())), p));
        }
    }
    out.extend(l.chests.iter().map(|c| (format!("chest '{}'", c.id), c.pos)));
    out.extend(l.traps.iter().map(|t| (format!("trap '{}'", t.id), t.pos)));
    out.extend(l.items.iter().map(|i| (format!("item '{}'", i.item), i.pos)));
    out.extend(l.lights.iter().filter_map(|li| Some((format!("light '{}'", li.item), li.pos?))));
    out.extend(l.doors.iter().map(|d| ("a door's lock or secret".to_string(), d.pos)));
    out.extend(l.checks.iter().map(|c| (format!("check '{}'", c.id), c.pos)));
    for v in &l.victory {
        if let Goal::ReachExit(e) = &v.goal {
            out.extend(e.iter().map(|p| (format!("an exit of '{}'", v.side), *p)));
        }
    }
    out.extend(l.dark.iter().map(|a| (format!("the dark area to {}", a.to), a.from)));
    out
}

/// What `before` had that `after` lost.
pub(super) fn lost(before: &Level, after: &Level) -> Vec<(String, Pos)> {
    let now = placed(after);
    placed(before).into_iter().filter(|t| !now.contains(t)).collect()
}
