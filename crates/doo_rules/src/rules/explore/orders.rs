//! The orders of assisting a check, searching chosen spaces, handing an item, sorting a chest's
//! loot, stabilizing and the level's plain skill checks (R-CHK-7, R-EXP-8, R-EXP-12..15,
//! R-EXP-21, R-HEAL-1..4): their checks (`check_*`, refusals naming the rule) and what they do
//! (the rest), in Exploration Mode and, for handing, in a crawl's crisis.

use super::super::attack::{injury, stat_rank};
use super::super::checks::assist_bonus;
use super::super::dice::Dice;
use super::super::equipment::Stat;
use super::super::event::Event;
use super::super::grid::Pos;
use super::super::healing::{first_aid_cr, stop_bleeding};
use super::super::roll::{log_roll, stat_check};
use super::super::state::Match;
use super::super::violation::{RuleResult, Violation};
use super::state::{Acted, Explore, Share, Sorting, Task};

/// He carries `item` (not wielded: his items).
pub(super) fn carried(m: &Match, a: usize, item: &str) -> bool {
    m.fighters[a].loadout.items.iter().any(|i| i == item)
}

fn refuse(rule: &str, text: impl Into<String>) -> Violation {
    Violation::new(rule, text)
}

/// The hero with id `id`, living and of the party.
fn hero(m: &Match, x: &Explore, id: &str) -> RuleResult<usize> {
    let Some(i) = m.index(id) else { return Err(refuse("INPUT", format!("There is no character with id '{id}'."))) };
    if !x.is_explorer(m, i) || m.is_dead(i) {
        return Err(refuse("R-EXP-23", format!("{} is not a living hero of the party.", m.fighters[i].name)));
    }
    Ok(i)
}

/// R-STAT-7: a skill unusable untrained cannot be used without it.
pub(super) fn check_usable(m: &Match, x: &Explore, a: usize, skill: &str) -> RuleResult<()> {
    let untrained = m.fighters[a].skill(skill) == super::super::profile::Rank::Untrained;
    if untrained && x.book.orders.untrained_unusable.iter().any(|s| s == skill) {
        return Err(refuse("R-STAT-7", format!("{} has no {}: it cannot be used untrained.", m.fighters[a].name, skill.replace('_', " "))));
    }
    Ok(())
}

/// The skill and stat `a`'s task at `at` rolls, and the object its CP are counted on (R-CP-9):
/// `None` for a task without a check one may assist.
pub fn task_skill(m: &Match, x: &Explore, a: usize, task: Task, at: Pos) -> Option<(String, Stat, String)> {
    let s = &x.book.skills;
    match task {
        Task::PickLock => Some((s.disable.clone(), Stat::Savvy, format!("lock@{at}"))),
        Task::Force => Some((s.force.clone(), Stat::Brawn, format!("lock@{at}"))),
        Task::Disarm => {
            let t = x.traps.iter().find(|t| t.pos == at && !t.spent && !t.hidden)?;
            Some((s.disable.clone(), Stat::Savvy, format!("trap:{}", t.id)))
        }
        Task::Search => {
            let best = s.search.iter().max_by_key(|k| m.fighters[a].skill(k).adjustment()).cloned().unwrap_or_default();
            Some((best, Stat::Savvy, format!("search@{at}")))
        }
        Task::Check => {
            let c = x.orders.checks.iter().find(|c| c.pos == at)?;
            Some((c.skill.clone(), c.stat, format!("check:{}", c.id)))
        }
        Task::Stabilize => {
            let p = m.occupant(at)?;
            Some(("healing".into(), Stat::Savvy, format!("patient:{}", m.fighters[p].id)))
        }
        _ => None,
    }
}

/// R-CHK-7, R-EXP-12, R-EXP-13, G-60: the helper stands next to the helped hero, who has
/// ordered a task with a check this turn that nobody assists yet; the helper may use its skill.
pub fn check_assist(m: &Match, x: &Explore, a: usize, helped: &str) -> RuleResult<()> {
    let f = &m.fighters[a];
    let h = hero(m, x, helped)?;
    if h == a {
        return Err(refuse("R-CHK-7", format!("{} cannot assist his own check.", f.name)));
    }
    if f.pos.distance(m.fighters[h].pos) != 1 {
        return Err(refuse("R-EXP-12", format!("{} must stand next to {} to assist.", f.name, m.fighters[h].name)));
    }
    let Some(&(_, task, at, _)) = x.tasks.iter().find(|t| t.0 == h) else {
        return Err(refuse("R-CHK-7", format!("{} has ordered no task this turn to assist: order it first.", m.fighters[h].name)));
    };
    let Some((skill, _, _)) = task_skill(m, x, h, task, at) else {
        return Err(refuse("R-CHK-7", format!("To {} needs no check: there is nothing to assist.", task.label())));
    };
    if x.orders.assists.contains_key(&h) {
        return Err(refuse("R-EXP-12", format!("{}'s check has a helper already: one hero may assist.", m.fighters[h].name)));
    }
    check_usable(m, x, a, &skill)
}

/// R-EXP-14: one to four spaces (the book's number), each on the map at distance ≤ 1, none twice.
pub fn check_search(m: &Match, x: &Explore, a: usize, spaces: &[Pos]) -> RuleResult<()> {
    let f = &m.fighters[a];
    let most = x.book.search_spaces;
    if spaces.is_empty() || spaces.len() > most {
        return Err(refuse("R-EXP-14", format!("A search examines 1 to {most} spaces; {} were chosen.", spaces.len())));
    }
    for (k, &p) in spaces.iter().enumerate() {
        if m.board.tile(p).is_none() || f.pos.distance(p) > 1 {
            return Err(refuse("R-EXP-14", format!("{p} is not within 1 space of {}: a search covers his space and those next to it.", f.name)));
        }
        if spaces[..k].contains(&p) {
            return Err(refuse("R-EXP-14", format!("{p} is chosen twice.")));
        }
    }
    Ok(())
}

/// R-EXP-8: he carries the item and the hero `to` stands next to him.
pub fn check_hand(m: &Match, x: &Explore, a: usize, to: &str, item: &str) -> RuleResult<()> {
    let f = &m.fighters[a];
    let t = hero(m, x, to)?;
    if t == a {
        return Err(refuse("R-EXP-8", format!("{} cannot hand an item to himself.", f.name)));
    }
    if f.pos.distance(m.fighters[t].pos) != 1 {
        return Err(refuse("R-EXP-8", format!("{} must stand next to {} to hand over an item.", f.name, m.fighters[t].name)));
    }
    if !carried(m, a, item) {
        return Err(refuse("R-EXP-15", format!("{} carries no {item}.", f.name)));
    }
    Ok(())
}

/// R-EXP-15: who sorts the chest at `at`: the heroes within 1 of it able to act, not busy,
/// who have not acted this turn.
pub fn sorters(m: &Match, x: &Explore, at: Pos) -> Vec<usize> {
    (0..m.fighters.len())
        .filter(|&i| x.is_explorer(m, i) && !m.is_dead(i) && m.standing(i) && m.fighters[i].hp > 0)
        .filter(|&i| m.fighters[i].pos.distance(at) <= 1 && x.acted[i] == Acted::No && !x.busy.contains_key(&i) && sorting_of(x, i).is_none())
        .collect()
}

/// The sorting `i` takes part in.
pub fn sorting_of(x: &Explore, i: usize) -> Option<usize> {
    x.orders.sorting.iter().position(|s| s.members.contains(&i))
}

/// R-EXP-15: an open chest at `at` within 1 of him; every line of the share-out an item the
/// chest or a hero taking part holds, for a hero taking part.
pub fn check_sort(m: &Match, x: &Explore, a: usize, at: Pos, share: &[Share]) -> RuleResult<()> {
    let f = &m.fighters[a];
    let c = x.chest_at(at).ok_or_else(|| refuse("R-EXP-15", format!("There is no chest at {at}.")))?;
    if f.pos.distance(at) > 1 {
        return Err(refuse("R-EXP-15", format!("{} must be within 1 space of the chest at {at}.", f.name)));
    }
    if !x.chests[c].open {
        return Err(refuse("R-EXP-15", format!("The chest at {at} is closed: open it first.")));
    }
    if sorting_of(x, a).is_some() || x.orders.sorting.iter().any(|s| s.chest == c) {
        return Err(refuse("R-EXP-15", format!("The loot of the chest at {at} is being sorted already.")));
    }
    if share.len() > super::super::command::MAX_PATH {
        return Err(refuse("INPUT", format!("A share-out has at most {} lines.", super::super::command::MAX_PATH)));
    }
    let members = sorters(m, x, at);
    let mut pool: Vec<&str> = x.chests[c].items.iter().map(String::as_str).collect();
    pool.extend(members.iter().flat_map(|&i| m.fighters[i].loadout.items.iter().map(String::as_str)));
    for s in share {
        if m.index(&s.to).is_none_or(|t| !members.contains(&t)) {
            return Err(refuse(
                "R-EXP-15",
                format!("'{}' does not take part: only heroes within 1 space of the chest who have not acted share the loot.", s.to),
            ));
        }
        match pool.iter().position(|i| *i == s.item) {
            Some(k) => {
                pool.remove(k);
            }
            None => return Err(refuse("R-EXP-15", format!("There is no {} in the chest or with the heroes sorting it to share out.", s.item))),
        }
    }
    Ok(())
}

/// R-EXP-15, R-EXP-9: the heroes taking part are busy the book's turns (this one the first).
pub fn start_sorting(m: &Match, x: &mut Explore, at: Pos, share: &[Share], ev: &mut Vec<Event>) {
    let Some(chest) = x.chest_at(at) else { return };
    let members = sorters(m, x, at);
    for &i in &members {
        x.acted[i] = Acted::Done;
    }
    let names: Vec<&str> = members.iter().map(|&i| m.fighters[i].name.as_str()).collect();
    let left = x.book.orders.sort_turns.max(1);
    ev.push(Event::Note { text: format!("{} sort the chest's loot: {left} turns (R-EXP-15).", names.join(", ")) });
    x.orders.sorting.push(Sorting { chest, members, left, share: share.to_vec() });
}

/// R-EXP-9: a Wait by one taking part aborts the sorting, its progress lost.
pub fn abort_sorting(m: &Match, x: &mut Explore, a: usize, ev: &mut Vec<Event>) {
    if let Some(k) = sorting_of(x, a) {
        x.orders.sorting.remove(k);
        ev.push(Event::Note { text: format!("{} stops sorting the loot: the work is lost (R-EXP-9).", m.fighters[a].name) });
    }
}

/// End of turn (R-EXP-20 step 1): a sorting whose last turn this was shares the loot out: each
/// line's item from the chest, else from another hero taking part who carries it.
pub fn advance_sorting(m: &mut Match, x: &mut Explore, ev: &mut Vec<Event>) {
    for s in x.orders.sorting.iter_mut() {
        s.left = s.left.saturating_sub(1);
    }
    let (done, going): (Vec<Sorting>, Vec<Sorting>) = std::mem::take(&mut x.orders.sorting).into_iter().partition(|s| s.left == 0);
    x.orders.sorting = going;
    for s in done {
        let at = x.chests[s.chest].pos;
        for line in &s.share {
            let Some(t) = m.index(&line.to).filter(|t| s.members.contains(t) && !m.is_dead(*t)) else { continue };
            if let Some(k) = x.chests[s.chest].items.iter().position(|i| *i == line.item) {
                x.chests[s.chest].items.remove(k);
                m.fighters[t].loadout.items.push(line.item.clone());
                ev.push(Event::ItemTaken { actor: line.to.as_str().into(), item: line.item.clone(), at });
            } else if let Some(g) = s.members.iter().copied().find(|&g| g != t && carried(m, g, &line.item)) {
                give(m, g, t, &line.item, ev);
            }
        }
        let lead = s.members[0];
        let text = format!("The loot of the chest at {at} is shared out.");
        ev.push(Event::TaskDone { actor: m.fighters[lead].id.as_str().into(), task: Task::SortLoot, at, success: true, text });
    }
}

/// Heroes sorting loot spend the new turn's action on it (R-EXP-9).
pub fn mark_sorting(x: &mut Explore) {
    let members: Vec<usize> = x.orders.sorting.iter().flat_map(|s| s.members.clone()).collect();
    for i in members {
        x.acted[i] = Acted::Done;
    }
}

/// Moves one `item` from `a`'s items to `t`'s.
fn give(m: &mut Match, a: usize, t: usize, item: &str, ev: &mut Vec<Event>) {
    let Some(k) = m.fighters[a].loadout.items.iter().position(|i| i == item) else { return };
    m.fighters[a].loadout.items.remove(k);
    m.fighters[t].loadout.items.push(item.to_string());
    ev.push(Event::ItemHanded { actor: m.fighters[a].id.as_str().into(), to: m.fighters[t].id.clone(), item: item.to_string() });
}

/// R-EXP-8, R-EXP-20 step 1: the item passes to the hero at `at` if he is still next to the
/// giver and the giver still has it.
pub fn hand_over(m: &mut Match, x: &Explore, a: usize, at: Pos, item: &str, ev: &mut Vec<Event>) {
    let to = m.occupant(at).filter(|&t| t != a && x.is_explorer(m, t) && !m.is_dead(t) && m.fighters[a].pos.distance(at) == 1);
    let (ok, text) = match to {
        Some(t) if carried(m, a, item) => {
            give(m, a, t, item, ev);
            (true, format!("{} hands the {} to {}.", m.fighters[a].name, item.replace('_', " "), m.fighters[t].name))
        }
        _ => (false, format!("{} cannot hand over the {}: nobody to take it is next to him.", m.fighters[a].name, item.replace('_', " "))),
    };
    ev.push(Event::TaskDone { actor: m.fighters[a].id.as_str().into(), task: Task::Hand, at, success: ok, text });
}

/// R-CHK-7, G-60: the helper of `a`'s task rolls the instigator's skill with his own stat and
/// rank against the instigator's stat value; returns what it adds to `a`'s check (the option
/// `assist` decides how, C-34). The assist check counts for CP like a task check (R-CP-9).
pub fn assist_roll(m: &Match, x: &mut Explore, a: usize, task: Task, at: Pos, dice: &mut Dice, ev: &mut Vec<Event>) -> i32 {
    let Some(h) = x.orders.assists.remove(&a) else { return 0 };
    let Some((skill, stat, object)) = task_skill(m, x, a, task, at) else { return 0 };
    if m.is_dead(h) || !m.standing(h) || m.fighters[h].hp <= 0 || m.fighters[h].pos.distance(m.fighters[a].pos) > 1 {
        ev.push(Event::Note { text: format!("{} is no longer able to assist {}.", m.fighters[h].name, m.fighters[a].name) });
        return 0;
    }
    let cr = stat_rank(m, a, stat) as i32;
    let roll = stat_check(m, dice, stat_rank(m, h, stat), m.fighters[h].skill(&skill).adjustment());
    let hid = m.fighters[h].id.clone();
    let total = log_roll(ev, dice, &hid, "assist", roll);
    ev.push(Event::TaskCheck { actor: hid.as_str().into(), check: "assist".into(), object, margin: total - cr });
    let bonus = assist_bonus(m.rules.options.assist, total, cr);
    ev.push(Event::Assisted { actor: hid.into(), helped: m.fighters[a].id.clone(), bonus });
    bonus
}

/// A skill check with an assist's bonus: the stat's die, the skill's adjustment (untrained −2).
pub fn assisted_check(m: &Match, dice: &mut Dice, i: usize, skill: &str, stat: Stat, bonus: i32, ev: &mut Vec<Event>, purpose: &str) -> i32 {
    let rank = stat_rank(m, i, stat);
    let adj = m.fighters[i].skill(skill).adjustment() + bonus;
    let roll = stat_check(m, dice, rank, adj);
    log_roll(ev, dice, &m.fighters[i].id, purpose.to_string(), roll)
}

/// R-EXP-21, R-HEAL-1: a bleeding character at `at`, at distance ≤ 1 (G-24; himself included).
pub fn check_stabilize(m: &Match, a: usize, at: Pos) -> RuleResult<()> {
    let f = &m.fighters[a];
    let Some(p) = m.occupant(at).filter(|&p| !m.is_dead(p)) else { return Err(refuse("R-EXP-21", format!("Nobody living lies at {at} to stabilize."))) };
    if f.pos.distance(at) > 1 {
        return Err(refuse("G-24", format!("{} must be in the same or an adjacent space to give first aid.", f.name)));
    }
    if !m.fighters[p].has_condition("bleeding") {
        return Err(refuse("R-HEAL-1", format!("{} is not bleeding: first aid only stops bleeding and dying.", m.fighters[p].name)));
    }
    Ok(())
}

/// R-EXP-21, R-HEAL-1..4: a Healing check (Savvy; untrained −2, R-HEAL-3) against the patient's
/// CR (self-aid one rank harder, R-HEAL-2); success stops the bleeding; a failure may be tried
/// again (R-HEAL-4).
pub fn stabilize(m: &mut Match, a: usize, at: Pos, bonus: i32, dice: &mut Dice, ev: &mut Vec<Event>) {
    let Some(p) = m.occupant(at).filter(|&p| !m.is_dead(p) && m.fighters[p].has_condition("bleeding")) else { return };
    let Some(cr) = first_aid_cr(injury(&m.fighters[p]), p == a) else { return };
    let total = assisted_check(m, dice, a, "healing", Stat::Savvy, bonus, ev, "first_aid");
    let id = m.fighters[a].id.clone();
    ev.push(Event::TaskCheck { actor: id.as_str().into(), check: "first_aid".into(), object: format!("patient:{}", m.fighters[p].id), margin: total - cr });
    let (ok, text) = if total >= cr {
        stop_bleeding(&mut m.fighters[p], "first aid", ev);
        (true, format!("{} stabilizes {}.", m.fighters[a].name, m.fighters[p].name))
    } else {
        (false, format!("{} fails to stop {}'s bleeding and may try again (R-HEAL-4).", m.fighters[a].name, m.fighters[p].name))
    };
    ev.push(Event::TaskDone { actor: id.into(), task: Task::Stabilize, at, success: ok, text });
}

/// R-EXP-8: the level asks for a check at `at`; he is within 1 of it and may use its skill.
pub fn check_level_check(m: &Match, x: &Explore, a: usize, at: Pos) -> RuleResult<()> {
    let f = &m.fighters[a];
    let Some(c) = x.orders.checks.iter().find(|c| c.pos == at) else {
        return Err(refuse("R-EXP-8", format!("There is nothing at {at} that asks for a check.")));
    };
    if f.pos.distance(at) > 1 {
        return Err(refuse("R-EXP-8", format!("{} must be within 1 space of {at}.", f.name)));
    }
    check_usable(m, x, a, &c.skill)
}

/// R-EXP-8: the check is rolled: the skill (its stat; untrained −2) against the level's CR; the
/// result and the level's text are told.
pub fn level_check(m: &Match, x: &Explore, a: usize, at: Pos, bonus: i32, dice: &mut Dice, ev: &mut Vec<Event>) {
    let Some(c) = x.orders.checks.iter().find(|c| c.pos == at).cloned() else { return };
    let total = assisted_check(m, dice, a, &c.skill, c.stat, bonus, ev, "check");
    let id = m.fighters[a].id.clone();
    ev.push(Event::TaskCheck { actor: id.as_str().into(), check: c.skill.clone(), object: format!("check:{}", c.id), margin: total - c.cr });
    let ok = total >= c.cr;
    let text = if ok { format!("{} {}", c.text, c.success) } else { format!("{} {} makes nothing of it.", c.text, m.fighters[a].name) };
    ev.push(Event::TaskDone { actor: id.into(), task: Task::Check, at, success: ok, text });
}
