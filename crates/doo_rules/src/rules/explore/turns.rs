//! The exploration turn, a minute of the clock (R-EXP-2, R-EXP-3, R-EXP-20): the first one
//! (`begin`), the end of each (tasks, upkeep, lights, the clock), a camp's night (R-EXP-22), and
//! the turn that follows a crisis (`resume`, R-EXP-27).

use super::super::attack::{Injury, change_hp, injury};
use super::super::checks::scaling_steps;
use super::super::dice::Dice;
use super::super::event::Event;
use super::super::roll::{log_roll, stat_check};
use super::super::state::{Match, Phase};
use super::super::turn::{Flow, upkeep_until};
use super::crisis::check_triggers;
use super::items::use_item;
use super::orders;
use super::sight::reveal_all;
use super::state::{Acted, Awareness, CrisisRules, Explore, Task};
use super::tasks::{advance_busy, mark_busy, resolve_task};
use std::collections::BTreeMap;

/// Starts Exploration Mode for a freshly built crawl: groups, the first turn, what the heroes
/// see from where they stand (R-EXP-4, R-EXP-19). A hostile in sight at once starts a crisis.
pub fn begin(m: &mut Match, x: &mut Explore, dice: &mut Dice, ev: &mut Vec<Event>) -> Flow {
    m.clock.phase = Phase::Exploration;
    m.clock.turn = 0;
    for f in m.fighters.iter_mut() {
        f.dormant = false;
    }
    x.turn = 1;
    x.acted = vec![Acted::No; m.fighters.len()];
    ev.push(Event::ExplorationTurn { turn: x.turn, minute: x.minute });
    reveal_all(m, x, ev);
    check_triggers(m, x, dice, None, ev)
}

/// R-EXP-20: the end of an exploration turn: tasks take effect in order (1), then the minute's
/// upkeep (2–5, as reset steps 1–4), the clock advances (6); sight is tested after (G-71).
pub fn end_turn(m: &mut Match, x: &mut Explore, r: CrisisRules, dice: &mut Dice, ev: &mut Vec<Event>) -> Flow {
    let tasks = std::mem::take(&mut x.tasks);
    for (a, task, at, item) in tasks {
        let forced = if task == Task::UseItem {
            use_item(m, a, at, item.as_deref().unwrap_or_default(), r, dice, ev)
        } else if task == Task::Hand {
            orders::hand_over(m, x, a, at, item.as_deref().unwrap_or_default(), ev);
            None
        } else if task == Task::Trade {
            let k = item.as_deref().and_then(|k| k.parse().ok()).unwrap_or(usize::MAX);
            super::npc::trade_over(m, x, a, at, k, ev);
            None
        } else {
            resolve_task(m, x, a, task, at, r, dice, ev)
        };
        reveal_all(m, x, ev);
        let flow = check_triggers(m, x, dice, forced.as_deref(), ev);
        if flow == Flow::CrisisStarts {
            return flow; // the rest of the minute is dropped (G-71)
        }
    }
    x.orders.assists.clear();
    x.orders.search_spaces.clear();
    advance_busy(m, x, dice, ev);
    orders::advance_sorting(m, x, ev);
    // G-71: sight is tested after each upkeep step too; a crisis begun there (a stunned hostile
    // freed at step 4) drops the rest of the minute: no recovery, no light burns, the clock stays.
    let crisis = upkeep_until(m, dice, false, ev, &mut |m, dice, ev| check_triggers(m, x, dice, None, ev) == Flow::CrisisStarts);
    if crisis {
        return Flow::CrisisStarts;
    }
    drop_unable(m, x, ev);
    burn_lights(m, x, 1, ev);
    x.minute += 1;
    x.turn += 1;
    x.acted = vec![Acted::No; m.fighters.len()];
    mark_busy(x);
    orders::mark_sorting(x);
    ev.push(Event::ExplorationTurn { turn: x.turn, minute: x.minute });
    reveal_all(m, x, ev);
    check_triggers(m, x, dice, None, ev)
}

/// R-EXP-3: every hero has acted, so the turn ends without the player's word; the log says so
/// (issue 43), so that the next Enter is not taken for this minute's end.
pub fn end_turn_by_itself(m: &mut Match, x: &mut Explore, r: CrisisRules, dice: &mut Dice, ev: &mut Vec<Event>) -> Flow {
    ev.push(Event::Note { text: format!("Every hero has acted: turn {} ends by itself and a minute passes (R-EXP-3).", x.turn) });
    end_turn(m, x, r, dice, ev)
}

/// R-EXP-6: a hero unable to act leaves his group (a group of his own); the next member
/// leads.
fn drop_unable(m: &Match, x: &mut Explore, ev: &mut Vec<Event>) {
    let unable: Vec<usize> =
        x.groups.iter().filter(|g| g.len() > 1).flatten().copied().filter(|&i| m.is_dead(i) || !m.standing(i) || m.fighters[i].hp <= 0).collect();
    if unable.is_empty() {
        return;
    }
    for g in x.groups.iter_mut() {
        g.retain(|i| !unable.contains(i));
    }
    x.groups.retain(|g| !g.is_empty());
    for &i in &unable {
        x.groups.push(vec![i]);
    }
    let groups = x.groups.iter().map(|g| g.iter().map(|&i| m.fighters[i].id.clone()).collect()).collect();
    ev.push(Event::Groups { groups });
}

/// R-EXP-18 (step 6 of R-EXP-20): burning lights lose `minutes`; a spent one goes out.
fn burn_lights(m: &Match, x: &mut Explore, minutes: u32, ev: &mut Vec<Event>) {
    let mut out = Vec::new();
    for (&h, (item, left)) in x.burning.iter_mut() {
        *left = left.saturating_sub(minutes);
        if *left == 0 {
            out.push((h, item.clone()));
        }
    }
    for (h, item) in out {
        x.burning.remove(&h);
        ev.push(Event::Note { text: format!("{}'s {} burns out (R-EXP-18).", m.fighters[h].name, item.replace('_', " ")) });
    }
    // Lights lying in spaces burn too; a spent one is gone from its space.
    for l in x.more.lit.iter_mut() {
        l.2 = l.2.saturating_sub(minutes);
    }
    while let Some(k) = x.more.lit.iter().position(|l| l.2 == 0) {
        let (at, item, _) = x.more.lit.remove(k);
        if let Some(j) = x.items.iter().position(|(p, i)| *p == at && *i == item) {
            x.items.remove(j);
        }
        ev.push(Event::Note { text: format!("The {} at {at} burns out (R-EXP-18).", item.replace('_', " ")) });
    }
}

/// R-EXP-22: the party camps: 505 minutes pass at once (no end-of-turn steps); MP and FP fill,
/// temporary and persistent conditions end; each injured hero not recuperated in the last day
/// makes a recuperation check (R-HEAL-7: scaling Brawn-or-Nerve against CR 12), helped by the
/// best other healer able to act (R-HEAL-8: his scaling Healing check against the patient's
/// injury CR gives +1 per rank of success).
pub(super) fn camp(m: &mut Match, x: &mut Explore, dice: &mut Dice, ev: &mut Vec<Event>) {
    let book = x.book.clone();
    let start = x.minute;
    let heroes: Vec<usize> = (0..m.fighters.len()).filter(|&i| x.is_explorer(m, i) && !m.is_dead(i)).collect();
    let end = start + book.camp_minutes;
    ev.push(Event::Note { text: format!("The party camps: {} minutes pass (R-EXP-22).", book.camp_minutes) });
    for &i in &heroes {
        let f = &mut m.fighters[i];
        f.mp = f.max_mp;
        f.fp = f.max_fp;
        for c in std::mem::take(&mut f.conditions) {
            ev.push(Event::ConditionRemoved { actor: f.id.as_str().into(), condition: c.id, reason: "camp".into() });
        }
    }
    for &p in &heroes {
        let recent = x.recuperated.get(&p).is_some_and(|&t| end < t + book.recuperation_every_minutes);
        if m.fighters[p].hp >= m.fighters[p].max_hp || recent {
            continue;
        }
        let cr = match injury(&m.fighters[p]) {
            Injury::Healthy | Injury::Bruised => book.caregiver_cr.0,
            Injury::Wounded => book.caregiver_cr.1,
            _ => book.caregiver_cr.2,
        };
        // the best other healer able to act: Healing adjustment, then Savvy, then hero order
        let healer = heroes.iter().copied().filter(|&h| h != p && m.standing(h) && m.fighters[h].hp > 0).max_by(|&a, &b| {
            let k = |i: usize| (m.fighters[i].skill("healing").adjustment(), m.fighters[i].stats.savvy);
            k(a).cmp(&k(b)).then(b.cmp(&a))
        });
        let mut bonus = 0i32;
        if let Some(h) = healer {
            let f = &m.fighters[h];
            let roll = stat_check(m, dice, f.stats.savvy, f.skill("healing").adjustment());
            let total = log_roll(ev, dice, &f.id.clone(), "caregiver", roll);
            bonus = scaling_steps(total - cr) as i32;
        }
        let f = &m.fighters[p];
        let roll = stat_check(m, dice, f.stats.brawn.max(f.stats.nerve), bonus);
        let total = log_roll(ev, dice, &f.id.clone(), "recuperation", roll);
        let gained = scaling_steps(total - book.camp_recuperation_cr) as i32;
        if gained > 0 {
            change_hp(m, p, gained, "recuperation", ev);
        }
        x.recuperated.insert(p, end);
    }
    x.minute = end;
    x.turn += 1;
    x.acted = vec![Acted::No; m.fighters.len()];
    x.tasks.clear();
    x.orders.assists.clear();
    x.orders.search_spaces.clear();
    ev.push(Event::ExplorationTurn { turn: x.turn, minute: x.minute });
}

/// R-EXP-2: the clock minutes `turns` crisis turns take, by the book's turns per minute.
pub fn crisis_minutes(x: &Explore, turns: u32) -> u32 {
    turns.div_ceil(x.book.crisis_turns_per_minute.max(1))
}

/// R-EXP-27: after the closing reset of a crawl's crisis, Exploration Mode resumes with a new
/// turn: the clock gains the crisis's `minutes` (the ruleset's count), the encounters that
/// fought are alert.
pub fn resume(m: &mut Match, x: &mut Explore, minutes: u32, dice: &mut Dice, ev: &mut Vec<Event>) -> Flow {
    x.minute += minutes;
    x.crisis_minute = None;
    x.crisis_tasks.clear(); // progress left when the crisis ends is lost (R-EXP-10)
    x.orders.search_spaces.clear();
    // R-EXP-21: who this crisis hurt, and when it ended (binding may begin within 30 minutes).
    x.last_crisis_end = Some(x.minute);
    x.hurt_in_crisis = x.hp_at_crisis.iter().filter(|(i, hp)| m.fighters[**i].hp < **hp).map(|(i, _)| *i).collect();
    x.bound.clear();
    for e in x.encounters.iter_mut() {
        if e.members.iter().any(|&i| !m.fighters[i].dormant) {
            e.awareness = Awareness::Alert;
        }
    }
    // Hostiles still able to act (a script ended the crisis) become inactive (R-EXP-27).
    let calm: Vec<usize> =
        (0..m.fighters.len()).filter(|&i| !m.fighters[i].dormant && !x.explorers.contains(&m.fighters[i].side) && m.fighters[i].hp > 0).collect();
    for i in calm {
        if m.conditions.can_act(&m.fighters[i], m.rules.options.conditions_adv) {
            x.calm[i] = true;
        }
    }
    for f in m.fighters.iter_mut() {
        f.dormant = false;
        f.surprised = false;
        f.turn = Default::default();
        f.opp = Default::default();
    }
    recover_ammo(m, x, ev);
    // Mooks at 0 HP are removed (G-14): they are dead already; the dead stay where they fell.
    burn_lights(m, x, minutes, ev); // G-51: lights burn the crisis's minutes too
    m.clock.phase = Phase::Exploration;
    m.clock.current = None;
    m.clock.last_closed = None;
    m.pending = None;
    x.turn += 1;
    x.acted = vec![Acted::No; m.fighters.len()];
    x.tasks.clear();
    ev.push(Event::ExplorationTurn { turn: x.turn, minute: x.minute });
    drop_unable(m, x, ev);
    reveal_all(m, x, ev);
    x.hp_at_crisis = hp_now(m);
    check_triggers(m, x, dice, None, ev)
}

/// R-EXP-27, G-41: half of the shots and throws each character spent in the crisis (per item,
/// rounded down) go straight back to him; a dead one's lie in his space with what he carried.
fn recover_ammo(m: &mut Match, x: &mut Explore, ev: &mut Vec<Event>) {
    for (i, spent) in std::mem::take(&mut x.orders.fired) {
        let back = spent / 2;
        let dead = m.is_dead(i);
        let f = &mut m.fighters[i];
        let Some(n) = f.loadout.ammo.as_mut().filter(|_| back > 0) else { continue };
        *n = n.saturating_add(back);
        let weapon = f.loadout.weapon.as_deref().unwrap_or("ranged weapon").replace('_', " ");
        let text = if dead {
            format!("{back} of the {spent} shots of {}'s {weapon} are picked up and lie in his space, where he fell (R-EXP-27, G-41).", f.name)
        } else {
            format!("{} recovers {back} of the {spent} shots of his {weapon} (R-EXP-27, G-41).", f.name)
        };
        ev.push(Event::Note { text });
    }
}

/// Every character's HP now, by index (R-EXP-21: what a crisis begun now counts as its harm).
pub(super) fn hp_now(m: &Match) -> BTreeMap<usize, i32> {
    m.fighters.iter().enumerate().map(|(i, f)| (i, f.hp)).collect()
}
