//! Doors, chests, items and traps carried out (R-EXP-11 to R-EXP-17, R-HEAL-6): opening and
//! closing doors, unlocking, opening chests, taking and dropping items, using a healing item,
//! and a trap springing on its victim. Exploration Mode, a crawl's crisis and A4's acts share
//! these.

use super::super::attack::{change_hp, stat_rank, stun_check};
use super::super::dice::Dice;
use super::super::equipment::Stat;
use super::super::event::Event;
use super::super::fighter::{ConditionInstance, Duration};
use super::super::grid::{Pos, Tile};
use super::super::healing::{rebleed, stop_bleeding};
use super::super::roll::{log_roll, stat_check};
use super::super::state::{Match, Phase};
use super::super::turn::Flow;
use super::crisis::check_triggers;
use super::sight::reveal_all;
use super::state::{CrisisRules, Explore, Lock, TrapOn};

/// Opens or closes a door (R-EXP-11): a key unlocks it for good; a trap on it springs.
/// Returns `Some(flow)` when a crisis started.
pub fn door(m: &mut Match, x: &mut Explore, a: usize, at: Pos, open: bool, r: CrisisRules, dice: &mut Dice, ev: &mut Vec<Event>) -> Option<Flow> {
    let id = m.fighters[a].id.clone();
    if !open {
        m.board.set_tile(at, Tile::DoorClosed);
        ev.push(Event::DoorChanged { actor: id.into(), at, state: "closed".into() });
        return None;
    }
    if m.board.tile(at) == Some(Tile::DoorLocked) {
        if let Some(d) = x.doors.iter_mut().find(|d| d.pos == at) {
            d.lock = None;
        }
        ev.push(Event::DoorChanged { actor: id.as_str().into(), at, state: "unlocked".into() });
    }
    m.board.set_tile(at, Tile::DoorOpen);
    ev.push(Event::DoorChanged { actor: id.into(), at, state: "open".into() });
    let sprang = x.trap_at(at, TrapOn::Door);
    if let Some(t) = sprang {
        spring(m, x, t, a, r, dice, ev);
    }
    reveal_all(m, x, ev);
    if sprang.is_some() && m.clock.phase == Phase::Exploration {
        return Some(check_triggers(m, x, dice, Some("a trap sprang"), ev));
    }
    None
}

/// Opens the chest at `at` (a crisis action: R-EXP-8 †, A4-3.9), springing its trap.
pub fn open_chest_at(m: &mut Match, x: &mut Explore, a: usize, at: Pos, r: CrisisRules, dice: &mut Dice, ev: &mut Vec<Event>) {
    if let Some(c) = x.chest_at(at) {
        open_chest(m, x, a, c, ev);
        if let Some(t) = x.trap_at(at, TrapOn::Chest) {
            spring(m, x, t, a, r, dice, ev);
        }
    }
}

/// Opens chest `c` and shows what is in it (R-EXP-15); its lock is gone.
pub(super) fn open_chest(m: &Match, x: &mut Explore, a: usize, c: usize, ev: &mut Vec<Event>) {
    x.chests[c].open = true;
    x.chests[c].lock = None;
    ev.push(Event::ChestOpened { actor: m.fighters[a].id.as_str().into(), at: x.chests[c].pos, items: x.chests[c].items.clone() });
}

/// Takes `item` from the open chest or the floor at `at` (R-EXP-15).
pub fn take(m: &mut Match, x: &mut Explore, a: usize, at: Pos, item: &str, ev: &mut Vec<Event>) {
    let in_chest = x.chest_at(at).filter(|&c| x.chests[c].open).and_then(|c| x.chests[c].items.iter().position(|i| i == item).map(|k| (c, k)));
    // R-EXP-18: an unlit one is taken before a burning one; a burning light taken keeps
    // burning in his hand (he holds none yet: `check_take`).
    let lying = x.items.iter().filter(|(p, i)| *p == at && i == item).count();
    let lit = x.lit_at(at, item).filter(|_| in_chest.is_none() && lying <= x.more.lit.iter().filter(|l| l.0 == at && l.1 == item).count());
    if let Some((c, k)) = in_chest {
        x.chests[c].items.remove(k);
    } else if let Some(k) = x.items.iter().position(|(p, i)| *p == at && i == item) {
        x.items.remove(k);
    }
    match lit {
        Some(l) => {
            let (_, light, minutes) = x.more.lit.remove(l);
            x.burning.insert(a, (light, minutes));
        }
        None => m.fighters[a].loadout.items.push(item.to_string()),
    }
    ev.push(Event::ItemTaken { actor: m.fighters[a].id.as_str().into(), item: item.to_string(), at });
}

/// Drops a carried item into one's space (R-EXP-15, A4-3.17); in a crawl it lies there.
/// R-EXP-18: a burning light in his hand is dropped first, and goes on burning where it lies.
pub fn drop_item(m: &mut Match, x: Option<&mut Explore>, a: usize, item: &str, ev: &mut Vec<Event>) {
    let held = x.as_deref().and_then(|x| x.burning.get(&a)).is_some_and(|(i, _)| i == item);
    let f = &mut m.fighters[a];
    if held {
        // R-EXP-18: the light in his hand is dropped burning (below).
    } else if let Some(k) = f.loadout.items.iter().position(|i| i == item) {
        f.loadout.items.remove(k);
    } else if f.loadout.weapon.as_deref() == Some(item) {
        // R-EXP-8, R-EXP-15: the wielded weapon is dropped (it lies in the space).
        f.loadout.weapon = None;
        f.loadout.weapon_skill = None;
        f.loadout.two_handed = false;
    } else if f.loadout.shield.as_deref() == Some(item) {
        f.loadout.shield = None;
    }
    let at = f.pos;
    ev.push(Event::ItemDropped { actor: f.id.as_str().into(), item: item.to_string(), at });
    if let Some(x) = x {
        if let Some((_, left)) = held.then(|| x.burning.remove(&a)).flatten() {
            x.more.lit.push((at, item.to_string(), left));
        }
        x.items.push((at, item.to_string()));
    }
}

/// R-EXP-8, R-HEAL-6: a healing item takes effect at the end of the turn on whoever stands at
/// `at` (the user or a hero next to him): its dice in HP, and bleeding stops (R-INJ-7).
pub fn use_item(m: &mut Match, a: usize, at: Pos, item: &str, r: CrisisRules, dice: &mut Dice, ev: &mut Vec<Event>) -> Option<String> {
    let t = m.occupant(at).filter(|&t| !m.is_dead(t))?;
    let k = m.fighters[a].loadout.items.iter().position(|i| i == item)?;
    let it = m.equipment.item(item).cloned()?;
    if it.consumable {
        m.fighters[a].loadout.items.remove(k);
    }
    ev.push(Event::ItemUsed { actor: m.fighters[a].id.as_str().into(), item: item.to_string() });
    if let Some(h) = it.heals {
        // A4-G-31: under A4 dice never explode.
        let roll = dice.roll(h.0, h.1, r.items_explode, 0);
        let v = log_roll(ev, dice, &m.fighters[a].id.clone(), "healing", roll);
        change_hp(m, t, v, item.to_string(), ev);
        stop_bleeding(&mut m.fighters[t], "magical healing", ev);
    }
    None
}

/// The lock at `at`, a locked door's or a chest's, to change.
pub(super) fn lock_mut<'a>(m: &Match, x: &'a mut Explore, at: Pos) -> Option<&'a mut Lock> {
    if m.board.tile(at) == Some(Tile::DoorLocked) {
        return x.doors.iter_mut().find(|d| d.pos == at).and_then(|d| d.lock.as_mut());
    }
    let c = x.chest_at(at)?;
    x.chests[c].lock.as_mut()
}

/// The lock at `at` is opened: a locked door becomes closed, a chest unlocked.
pub(super) fn unlock(m: &mut Match, x: &mut Explore, at: Pos, ev: &mut Vec<Event>, actor: &str) {
    if m.board.tile(at) == Some(Tile::DoorLocked) {
        m.board.set_tile(at, Tile::DoorClosed);
        if let Some(d) = x.doors.iter_mut().find(|d| d.pos == at) {
            d.lock = None;
        }
        ev.push(Event::DoorChanged { actor: actor.into(), at, state: "unlocked".into() });
    } else if let Some(c) = x.chest_at(at) {
        x.chests[c].lock = None;
    }
}

/// Records a task check's margin for character points (R-CP-9).
pub(super) fn task_check(ev: &mut Vec<Event>, actor: &str, check: &str, object: String, margin: i32) {
    ev.push(Event::TaskCheck { actor: actor.into(), check: check.to_string(), object, margin });
}

/// A skill check of a character: the skill's stat die, the skill's adjustment (untrained −2).
pub(super) fn skill_check(m: &Match, dice: &mut Dice, i: usize, skill: &str, stat: Stat, ev: &mut Vec<Event>, purpose: &str) -> i32 {
    let rank = stat_rank(m, i, stat);
    let adj = m.fighters[i].skill(skill).adjustment();
    let roll = stat_check(m, dice, rank, adj);
    log_roll(ev, dice, &m.fighters[i].id, purpose.to_string(), roll)
}

/// R-EXP-16: a trap springs on `victim`: a Dodge check against its effect CR, else damage
/// (armor counts) and its condition. It is then spent unless it re-arms.
pub fn spring(m: &mut Match, x: &mut Explore, t: usize, victim: usize, r: CrisisRules, dice: &mut Dice, ev: &mut Vec<Event>) {
    let trap = x.traps[t].clone();
    let dodge = x.book.skills.dodge.clone();
    ev.push(Event::TrapSprung { actor: m.fighters[victim].id.as_str().into(), trap: trap.id.clone(), at: trap.pos });
    let total = skill_check(m, dice, victim, &dodge, Stat::Finesse, ev, "dodge_trap");
    if total < trap.effect_cr {
        let explode = m.rules.options.damage_explodes;
        let roll = dice.roll(trap.damage.0, trap.damage.1, explode, 0);
        let raw = log_roll(ev, dice, &trap.id, "trap_damage", roll);
        let armor = m.fighters[victim].loadout.armor.as_deref().and_then(|a| m.equipment.armor(a)).map_or(0, |a| a.reduction);
        let dealt = (raw - armor).max(0);
        if dealt > 0 {
            let before = m.fighters[victim].hp;
            change_hp(m, victim, -dealt, "trap", ev);
            stun_check(m, dice, victim, dealt, ev);
            if r.rebleeds {
                rebleed(&mut m.fighters[victim], before, ev);
            }
        }
        if let Some(c) = &trap.condition {
            if !m.fighters[victim].has_condition(c) && m.conditions.get(c).is_some() {
                let duration = m.conditions.get(c).map(|r| r.duration).unwrap_or(Duration::Temporary);
                let inst = ConditionInstance { id: c.clone(), duration, removal_cr: None };
                ev.push(Event::ConditionAdded { actor: m.fighters[victim].id.as_str().into(), condition: inst.clone() });
                m.fighters[victim].conditions.push(inst);
            }
        }
    } else {
        ev.push(Event::Note { text: format!("{} dodges the trap.", m.fighters[victim].name) });
    }
    x.traps[t].hidden = false;
    if !trap.rearms {
        x.traps[t].spent = true;
    }
}
