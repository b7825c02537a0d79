//! The one-turn tasks carried out at the end of the turn (R-EXP-8, R-EXP-20 step 1): search,
//! pick a lock, force, disarm, open a chest, light a torch; and binding wounds, a task of
//! several turns (R-EXP-9, R-EXP-21, R-HEAL-5).

use super::super::attack::{Injury, change_hp, injury};
use super::super::dice::Dice;
use super::super::equipment::Stat;
use super::super::event::Event;
use super::super::grid::{Pos, Tile};
use super::super::roll::{log_roll, stat_check};
use super::super::state::Match;
use super::items::{lock_mut, open_chest, spring, task_check, unlock};
use super::orders::{self, assisted_check};
use super::sight::item_name;
use super::state::{Acted, CrisisRules, Explore, ExploreBook, Task, TrapOn};
use super::validate::{carried, lock_at};

/// One task at the end of the turn. Returns a crisis reason when a trap sprang.
pub fn resolve_task(m: &mut Match, x: &mut Explore, a: usize, task: Task, at: Pos, r: CrisisRules, dice: &mut Dice, ev: &mut Vec<Event>) -> Option<String> {
    if m.is_dead(a) || !m.standing(a) || m.fighters[a].hp <= 0 {
        return None;
    }
    // R-CHK-7: an assist is rolled first and adds to the check.
    let bonus = orders::assist_roll(m, x, a, task, at, dice, ev);
    match task {
        Task::Search => {
            search(m, x, a, at, bonus, dice, ev);
            None
        }
        Task::PickLock => {
            pick_lock(m, x, a, at, bonus, dice, ev);
            None
        }
        Task::Force => force(m, x, a, at, bonus, r, dice, ev),
        Task::Disarm => disarm(m, x, a, at, bonus, r, dice, ev),
        Task::Stabilize => {
            orders::stabilize(m, a, at, bonus, dice, ev);
            None
        }
        Task::Check => {
            orders::level_check(m, x, a, at, bonus, dice, ev);
            None
        }
        Task::UseItem | Task::Bind | Task::Assist | Task::Hand | Task::SortLoot | Task::Trade => None,
        Task::Light => {
            light(m, x, a, at, ev);
            None
        }
        Task::OpenChest => open_chest_task(m, x, a, at, r, dice, ev),
        Task::PutOut => {
            put_out(m, x, a, at, ev);
            None
        }
        Task::Speak => {
            speak(m, x, a, at, ev);
            None
        }
    }
}

/// R-EXP-18: the light he holds (`at` his space) goes back into his pack unlit, or the one
/// lying at `at` goes out where it lies. (A light put out and lit again burns its full time:
/// minutes left are not kept on unlit items.)
pub(super) fn put_out(m: &mut Match, x: &mut Explore, a: usize, at: Pos, ev: &mut Vec<Event>) {
    let name = m.fighters[a].name.clone();
    let text = if at == m.fighters[a].pos && x.burning.contains_key(&a) {
        let Some((item, left)) = x.burning.remove(&a) else { return };
        m.fighters[a].loadout.items.push(item.clone());
        format!("{name} puts out his {} ({left} minutes were left).", item.replace('_', " "))
    } else if let Some(k) = x.more.lit.iter().position(|l| l.0 == at) {
        let (_, item, _) = x.more.lit.remove(k);
        format!("{name} puts out the {} at {at}.", item.replace('_', " "))
    } else {
        return;
    };
    done(ev, m, a, Task::PutOut, at, true, text);
}

/// R-CP-16: he speaks to the non-hostile NPC at `at`; the NPC answers with his encounter's line.
fn speak(m: &mut Match, x: &mut Explore, a: usize, at: Pos, ev: &mut Vec<Event>) {
    let Some(n) = m.occupant(at).filter(|&n| x.peaceful(n) && m.fighters[n].hp > 0) else {
        let text = format!("{} finds nobody to speak to at {at}.", m.fighters[a].name);
        done(ev, m, a, Task::Speak, at, false, text);
        return;
    };
    let line = x.encounter_of[n].and_then(|e| x.more.says.get(&e)).cloned();
    let (hero, npc) = (m.fighters[a].name.clone(), m.fighters[n].name.clone());
    let text = match &line {
        Some(l) => format!("{npc} says to {hero}: \"{l}\""),
        None => format!("{npc} has nothing to say to {hero}."),
    };
    done(ev, m, a, Task::Speak, at, line.is_some(), text);
    if let Some(l) = line {
        ev.push(Event::Says { actor: m.fighters[n].id.as_str().into(), to: m.fighters[a].id.clone(), text: l });
    }
}

/// The `TaskDone` event of a task.
fn done(ev: &mut Vec<Event>, m: &Match, a: usize, task: Task, at: Pos, success: bool, text: String) {
    ev.push(Event::TaskDone { actor: m.fighters[a].id.as_str().into(), task, at, success, text });
}

/// R-EXP-14: the spaces searched are marked; a check per hidden door and trap among them.
fn search(m: &mut Match, x: &mut Explore, a: usize, at: Pos, bonus: i32, dice: &mut Dice, ev: &mut Vec<Event>) {
    let book = x.book.clone();
    let spaces = x.orders.search_spaces.remove(&a).unwrap_or_else(|| search_spaces(m, x, a, book.search_spaces));
    for p in &spaces {
        if let Some(k) = m.board.index(*p) {
            x.searched[k] = true;
        }
    }
    let mut found = Vec::new();
    let hidden_doors: Vec<Pos> = x.doors.iter().filter(|d| d.hidden && spaces.contains(&d.pos)).map(|d| d.pos).collect();
    let hidden_traps: Vec<usize> = (0..x.traps.len()).filter(|&t| x.traps[t].hidden && !x.traps[t].spent && spaces.contains(&x.traps[t].pos)).collect();
    for p in hidden_doors {
        let total = best_search(m, dice, a, &book, bonus, ev);
        task_check(ev, &m.fighters[a].id.clone(), "search", format!("door@{p}"), total - book.find_cr);
        if total >= book.find_cr {
            x.doors.iter_mut().filter(|d| d.pos == p).for_each(|d| d.hidden = false);
            found.push(format!("a secret door at {p}"));
            ev.push(Event::FeatureFound { actor: m.fighters[a].id.as_str().into(), what: "secret_door".into(), at: p });
        }
    }
    for t in hidden_traps {
        let (cr, p) = (x.traps[t].find_cr, x.traps[t].pos);
        let total = best_search(m, dice, a, &book, bonus, ev);
        let trap_id = x.traps[t].id.clone();
        task_check(ev, &m.fighters[a].id.clone(), "search", format!("trap:{trap_id}"), total - cr);
        if total >= cr {
            x.traps[t].hidden = false;
            found.push(format!("a trap at {p}"));
            ev.push(Event::FeatureFound { actor: m.fighters[a].id.as_str().into(), what: "trap".into(), at: p });
        }
    }
    let text = if found.is_empty() {
        format!("{} searched {} spaces and found nothing.", m.fighters[a].name, spaces.len())
    } else {
        format!("{} found {}.", m.fighters[a].name, found.join(" and "))
    };
    done(ev, m, a, Task::Search, at, !found.is_empty(), text);
}

/// R-EXP-12: a Disable check against the lock; failing badly jams it.
fn pick_lock(m: &mut Match, x: &mut Explore, a: usize, at: Pos, bonus: i32, dice: &mut Dice, ev: &mut Vec<Event>) {
    let Some((cr, jammed)) = lock_at(m, x, at).map(|l| (l.cr, l.jammed)) else { return };
    let task = Task::PickLock;
    if jammed {
        done(ev, m, a, task, at, false, format!("The lock at {at} is jammed: {} cannot pick it (R-EXP-12).", m.fighters[a].name));
        return;
    }
    let (disable, jam_margin) = (x.book.skills.disable.clone(), x.book.jam_margin);
    let id = m.fighters[a].id.clone();
    let total = assisted_check(m, dice, a, &disable, Stat::Savvy, bonus, ev, "pick_lock");
    let margin = total - cr;
    task_check(ev, &id, "pick_lock", format!("lock@{at}"), margin);
    if margin >= 0 {
        unlock(m, x, at, ev, &id);
        done(ev, m, a, task, at, true, format!("{} picks the lock at {at}.", m.fighters[a].name));
    } else if -margin >= jam_margin {
        if let Some(l) = lock_mut(m, x, at) {
            l.jammed = true;
        }
        done(ev, m, a, task, at, false, format!("{} jams the lock at {at}: no more picking (R-EXP-12).", m.fighters[a].name));
    } else {
        done(ev, m, a, task, at, false, format!("{} fails to pick the lock at {at}; he may try again.", m.fighters[a].name));
    }
}

/// R-EXP-13: a Lift/Shift check against the force CR; success breaks the lock and opens it.
#[allow(clippy::too_many_arguments)]
fn force(m: &mut Match, x: &mut Explore, a: usize, at: Pos, bonus: i32, r: CrisisRules, dice: &mut Dice, ev: &mut Vec<Event>) -> Option<String> {
    let cr = lock_at(m, x, at).map(|l| l.force_cr)?;
    let id = m.fighters[a].id.clone();
    let skill = x.book.skills.force.clone();
    let total = assisted_check(m, dice, a, &skill, Stat::Brawn, bonus, ev, "force");
    task_check(ev, &id, "force", format!("lock@{at}"), total - cr);
    if total < cr {
        done(ev, m, a, Task::Force, at, false, format!("{} fails to force it; he may try again.", m.fighters[a].name));
        return None;
    }
    unlock(m, x, at, ev, &id);
    if m.board.tile(at) == Some(Tile::DoorClosed) {
        m.board.set_tile(at, Tile::DoorOpen);
        ev.push(Event::DoorChanged { actor: id.as_str().into(), at, state: "open".into() });
    } else if let Some(c) = x.chest_at(at) {
        open_chest(m, x, a, c, ev);
    }
    done(ev, m, a, Task::Force, at, true, format!("{} forces it open; the lock is broken.", m.fighters[a].name));
    if let Some(t) = x.trap_at(at, TrapOn::Door).or(x.trap_at(at, TrapOn::Chest)) {
        spring(m, x, t, a, r, dice, ev);
        return Some(format!("a trap sprang on {}", m.fighters[a].name));
    }
    None
}

/// R-EXP-17: a Disable check against a known trap; failing badly springs it.
#[allow(clippy::too_many_arguments)]
fn disarm(m: &mut Match, x: &mut Explore, a: usize, at: Pos, bonus: i32, r: CrisisRules, dice: &mut Dice, ev: &mut Vec<Event>) -> Option<String> {
    let t = x.traps.iter().position(|t| t.pos == at && !t.spent && !t.hidden)?;
    let cr = x.traps[t].disarm_cr;
    let (disable, spring_margin) = (x.book.skills.disable.clone(), x.book.spring_margin);
    let id = m.fighters[a].id.clone();
    let total = assisted_check(m, dice, a, &disable, Stat::Savvy, bonus, ev, "disarm");
    let margin = total - cr;
    let trap_id = x.traps[t].id.clone();
    task_check(ev, &id, "disarm", format!("trap:{trap_id}"), margin);
    if margin >= 0 {
        x.traps[t].spent = true;
        done(ev, m, a, Task::Disarm, at, true, format!("{} disarms the trap at {at}.", m.fighters[a].name));
    } else if -margin >= spring_margin {
        done(ev, m, a, Task::Disarm, at, false, format!("{} sets the trap off (R-EXP-17).", m.fighters[a].name));
        spring(m, x, t, a, r, dice, ev);
        return Some(format!("a trap sprang on {}", m.fighters[a].name));
    } else {
        done(ev, m, a, Task::Disarm, at, false, format!("{} fails to disarm the trap at {at}; he may try again.", m.fighters[a].name));
    }
    None
}

/// R-EXP-18: he gets out a torch or lantern he carries and lights it.
pub(super) fn light(m: &mut Match, x: &mut Explore, a: usize, at: Pos, ev: &mut Vec<Event>) {
    let Some(l) = x.book.lights.iter().find(|l| carried(m, a, &l.item)).cloned() else { return };
    let Some(k) = m.fighters[a].loadout.items.iter().position(|i| *i == l.item) else { return };
    m.fighters[a].loadout.items.remove(k);
    x.burning.insert(a, (l.item.clone(), l.minutes));
    done(ev, m, a, Task::Light, at, true, format!("{} lights a {} ({} minutes).", m.fighters[a].name, l.item.replace('_', " "), l.minutes));
}

/// R-EXP-15: the chest opens (its key unlocks it) and what is in it is told; a trap springs.
fn open_chest_task(m: &mut Match, x: &mut Explore, a: usize, at: Pos, r: CrisisRules, dice: &mut Dice, ev: &mut Vec<Event>) -> Option<String> {
    let c = x.chest_at(at)?;
    if let Some(l) = x.chests[c].lock.clone() {
        if l.key.as_deref().is_some_and(|k| carried(m, a, k)) {
            x.chests[c].lock = None;
        } else {
            return None;
        }
    }
    open_chest(m, x, a, c, ev);
    let items: Vec<String> = x.chests[c].items.iter().map(|i| item_name(m, x, i)).collect();
    let what = if items.is_empty() { "empty".to_string() } else { items.join(", ") };
    done(ev, m, a, Task::OpenChest, at, true, format!("{} opens the chest: {what}.", m.fighters[a].name));
    if let Some(t) = x.trap_at(at, TrapOn::Chest) {
        spring(m, x, t, a, r, dice, ev);
        return Some(format!("a trap sprang on {}", m.fighters[a].name));
    }
    None
}

fn best_search(m: &Match, dice: &mut Dice, a: usize, book: &ExploreBook, bonus: i32, ev: &mut Vec<Event>) -> i32 {
    let best = book.skills.search.iter().max_by_key(|s| m.fighters[a].skill(s).adjustment()).cloned().unwrap_or_default();
    assisted_check(m, dice, a, &best, Stat::Savvy, bonus, ev, "search")
}

/// R-EXP-14 default choice: unsearched wall and door spaces first, then other unsearched
/// spaces (his own included), then searched ones; each lowest row, then column.
pub fn search_spaces(m: &Match, x: &Explore, a: usize, n: usize) -> Vec<Pos> {
    let at = m.fighters[a].pos;
    let mut cands: Vec<(u8, i32, i32, Pos)> = Vec::new();
    for dy in -1..=1 {
        for dx in -1..=1 {
            let p = Pos::on(at.x + dx, at.y + dy, at.floor);
            let Some(t) = m.board.tile(p) else { continue };
            let searched = m.board.index(p).is_some_and(|k| x.searched[k]);
            let wallish = matches!(t, Tile::Wall | Tile::DoorClosed | Tile::DoorLocked | Tile::DoorOpen);
            let class = match (searched, wallish) {
                (false, true) => 0,
                (false, false) => 1,
                (true, _) => 2,
            };
            cands.push((class, p.y, p.x, p));
        }
    }
    cands.sort();
    cands.into_iter().take(n).map(|c| c.3).collect()
}

/// R-EXP-21: healer and patient busy 3 turns per HP the binding can restore.
pub(super) fn start_binding(m: &Match, x: &mut Explore, a: usize, p: usize, ev: &mut Vec<Event>) {
    let gain = bind_gain(m, x, p);
    let turns = x.book.binding.turns_per_hp * gain as u32;
    x.busy.insert(a, (a, p, turns));
    x.busy.insert(p, (a, p, turns));
    x.acted[a] = Acted::Done;
    x.acted[p] = Acted::Done;
    ev.push(Event::Note { text: format!("{} binds {}'s wounds: {turns} turns (R-EXP-21).", m.fighters[a].name, m.fighters[p].name) });
}

/// R-HEAL-5: the HP binding restores: bruised 1, wounded or incapacitated 2.
fn bind_gain(m: &Match, x: &Explore, p: usize) -> i32 {
    let b = &x.book.binding;
    match injury(&m.fighters[p]) {
        Injury::Healthy | Injury::Bruised => b.hp.0,
        _ => b.hp.1,
    }
}

/// R-EXP-9, R-EXP-21: a turn of the multi-turn tasks passes (end of turn, step 1); a binding
/// whose last turn this was is resolved: the healer's Healing check (Savvy) against R-HEAL-5's
/// CR (one's own wounds harder); success restores its HP. Once per patient per crisis.
pub(super) fn advance_busy(m: &mut Match, x: &mut Explore, dice: &mut Dice, ev: &mut Vec<Event>) {
    let mut finished = Vec::new();
    for (&i, (h, p, left)) in x.busy.iter_mut() {
        if i == *h {
            *left = left.saturating_sub(1);
            if *left == 0 {
                finished.push((*h, *p));
            }
        } else {
            *left = left.saturating_sub(1);
        }
    }
    for (h, p) in finished {
        x.busy.remove(&h);
        x.busy.remove(&p);
        if m.is_dead(p) || m.is_dead(h) {
            continue;
        }
        let b = x.book.binding.clone();
        let wounded = !matches!(injury(&m.fighters[p]), Injury::Healthy | Injury::Bruised);
        let cr = match (h == p, wounded) {
            (false, false) => b.cr.0,
            (false, true) => b.cr.1,
            (true, false) => b.own_cr.0,
            (true, true) => b.own_cr.1,
        };
        let gain = bind_gain(m, x, p);
        let f = &m.fighters[h];
        let roll = stat_check(m, dice, f.stats.savvy, f.skill("healing").adjustment());
        let total = log_roll(ev, dice, &f.id.clone(), "binding", roll);
        task_check(ev, &m.fighters[h].id.clone(), "binding", format!("patient:{}", m.fighters[p].id), total - cr);
        x.bound.insert(p);
        let (ok, text) = if total >= cr {
            change_hp(m, p, gain, "binding wounds", ev);
            (true, format!("{} binds {}'s wounds: +{gain} HP.", m.fighters[h].name, m.fighters[p].name))
        } else {
            (false, format!("{}'s binding of {}'s wounds does no good (R-HEAL-5: one check only).", m.fighters[h].name, m.fighters[p].name))
        };
        let at = m.fighters[p].pos;
        ev.push(Event::TaskDone { actor: m.fighters[h].id.as_str().into(), task: Task::Bind, at, success: ok, text });
    }
}

/// Heroes busy with a task of several turns spend the new turn's action on it (R-EXP-3, R-EXP-9).
pub(super) fn mark_busy(x: &mut Explore) {
    for &i in x.busy.keys() {
        x.acted[i] = Acted::Done;
    }
}
