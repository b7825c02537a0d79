//! The steps a command still has to play out under A4 (`A4::tasks`), played in order until one
//! needs an answer: attacks of opportunity offered (A4-4.1), attacks waiting for a reactive
//! defence (A4-3.21), held strikes (A4-3.16), the rest of a move cut by them, and a provoking
//! act finished once they are over; and the answers to the window each one opens.

use super::super::dice::Dice;
use super::super::equipment::Wielded;
use super::super::event::Event;
use super::super::explore;
use super::super::grid::Pos;
use super::super::profile::Posture;
use super::super::roll::log_roll;
use super::super::state::{Match, PendingAttack, Window};
use super::book::{Provokes, Trigger};
use super::check::check_attack;
use super::pool::Pool;
use super::state::{A4, AttackSpec, CRAWL, HELD, OPPORTUNITY, REACTIVE, RoundAct, Task};
use super::stats::{order_key, reactive_pool, target_number, threateners, threatens};
use super::strike::resolve;

fn name(m: &Match, i: usize) -> &str {
    &m.fighters[i].name
}

/// A4-4.1, A4-G-23: an attack provokes when its row says `always`, or `ranged_shot` and it is
/// a shot with a weapon whose skill is not listed as safe (thrown weapons).
pub(super) fn shot_provokes(m: &Match, a4: &A4, a: usize, p: Provokes) -> bool {
    let b = &a4.book;
    match (p, m.equipment.wielded(&m.fighters[a])) {
        (Provokes::Always, _) => true,
        (Provokes::RangedShot, Wielded::Ranged(r)) => !b.non_provoking_skills.contains(&r.skill),
        _ => false,
    }
}

pub(super) fn set_posture(m: &mut Match, a: usize, to: Posture, ev: &mut Vec<Event>) {
    let f = &mut m.fighters[a];
    if f.posture != to {
        ev.push(Event::PostureChanged { actor: f.id.as_str().into(), from: f.posture, to });
        f.posture = to;
    }
}

fn open_window(m: &mut Match, asked: usize, other: usize, reaction: &str, ev: &mut Vec<Event>) {
    m.pending = Some(PendingAttack {
        attacker: other,
        defender: asked,
        with: reaction.into(),
        melee: true,
        attack_adj: 0,
        damage_adj: 0,
        window: Some(Window::Reflex),
        is_reaction: reaction == OPPORTUNITY,
        shield_doubled: false,
        damage_dealt: 0,
        critical: None,
        resumes: None,
    });
    ev.push(Event::ReflexWindow { defender: m.fighters[asked].id.clone(), attacker: m.fighters[other].id.clone(), options: vec![reaction.into()] });
}

/// An answer to the open window (A4-4.1, A4-3.21).
pub(super) fn answer(m: &mut Match, a4: &mut A4, a: usize, reflex: Option<&String>, dice: &mut Dice, ev: &mut Vec<Event>) {
    let b = a4.book.clone();
    m.pending = None;
    let front = a4.tasks.front().cloned();
    let aid = m.fighters[a].id.clone();
    match (front, reflex) {
        (Some(Task::OfferAoo { mover, .. }), Some(_)) => {
            a4.tasks.pop_front();
            a4.figs[a].aoo += 1;
            ev.push(Event::ReflexDeclared { actor: aid.into(), reflex: OPPORTUNITY.into(), attacker: m.fighters[mover].id.clone() });
            a4.tasks.push_front(Task::Attack(AttackSpec {
                attacker: a,
                defender: mover,
                dice: 0,
                why: "attack_of_opportunity".into(),
                opportunity: true,
                reacted: None,
                asked: false,
            }));
        }
        (Some(Task::OfferAoo { .. }), None) => {
            a4.tasks.pop_front();
            ev.push(Event::ReactionDeclined { actor: aid.into() });
        }
        (Some(Task::OfferHeld { mover, .. }), Some(_)) => {
            a4.tasks.pop_front();
            let r = &mut a4.figs[a];
            r.hold = None;
            r.standard = true;
            r.counted += 1;
            let counted = r.counted;
            ev.push(Event::ReflexDeclared { actor: aid.as_str().into(), reflex: HELD.into(), attacker: m.fighters[mover].id.clone() });
            ev.push(Event::SlotsUsed { actor: aid.into(), act: "held_action".into(), slots: vec!["standard".into()], counted });
            a4.tasks.push_front(Task::Attack(AttackSpec {
                attacker: a,
                defender: mover,
                dice: 0,
                why: "held_action".into(),
                opportunity: false,
                reacted: None,
                asked: false,
            }));
            // A4-G-23: a held shot made while threatened provokes like any other shot.
            let provokes = b.row("attack").map(|r| r.provokes).unwrap_or(Provokes::Never);
            if shot_provokes(m, a4, a, provokes) {
                let pos = m.fighters[a].pos;
                for who in threateners(m, a4, a, pos).into_iter().rev() {
                    a4.tasks.push_front(Task::OfferAoo { who, mover: a });
                }
            }
        }
        (Some(Task::OfferHeld { .. }), None) => {
            a4.tasks.pop_front();
            ev.push(Event::ReactionDeclined { actor: aid.into() });
        }
        (Some(Task::Attack(mut spec)), Some(_)) => {
            ev.push(Event::ReflexDeclared { actor: aid.as_str().into(), reflex: REACTIVE.into(), attacker: m.fighters[spec.attacker].id.clone() });
            // A4-G-21: thrown with the pool offered, before this defence's own cost counts
            let pool = reactive_pool(m, a4, a, spec.attacker).unwrap_or(Pool { dice: 1, pips: 0 });
            let roll = dice.roll(pool.dice.max(0) as u32, b.pools.die, false, pool.pips);
            spec.reacted = Some(log_roll(ev, dice, &aid, "reactive_defense", roll));
            spec.asked = true;
            let r = &mut a4.figs[a];
            r.reactive += 1;
            if r.done {
                r.penalty_next += b.reactive_defense.own_penalty_dice;
            } else {
                r.penalty_now += b.reactive_defense.own_penalty_dice;
            }
            if let Some(Task::Attack(s)) = a4.tasks.front_mut() {
                *s = spec;
            }
        }
        (Some(Task::Attack(_)), None) => {
            ev.push(Event::ReactionDeclined { actor: aid.into() });
        }
        _ => {}
    }
}

/// Plays the queued steps until one needs an answer (a window opens) or none are left.
/// Returns true while waiting for an answer.
pub fn run_tasks(m: &mut Match, a4: &mut A4, dice: &mut Dice, ev: &mut Vec<Event>) -> bool {
    for _ in 0..100_000 {
        if m.pending.as_ref().is_some_and(|p| p.window.is_some()) {
            return true;
        }
        let Some(task) = a4.tasks.front().cloned() else { return false };
        match task {
            Task::OfferAoo { who, mover } => {
                let b = &a4.book;
                let ok = !m.is_dead(mover) && a4.figs[who].aoo < b.threat.aoo_per_round && threatens(m, a4, who, m.fighters[mover].pos);
                if ok {
                    open_window(m, who, mover, OPPORTUNITY, ev);
                    return true;
                }
                a4.tasks.pop_front();
            }
            Task::Attack(mut spec) => {
                let (a, t) = (spec.attacker, spec.defender);
                if m.is_dead(t) || !m.can_act(a) || m.is_dead(a) {
                    a4.tasks.pop_front();
                    continue;
                }
                if target_number(m, a4, a, t).is_none() {
                    ev.push(Event::AttackCancelled {
                        actor: m.fighters[a].id.as_str().into(),
                        target: m.fighters[t].id.clone(),
                        reason: "out of reach, range or sight (A4-3.1)".into(),
                    });
                    a4.tasks.pop_front();
                    continue;
                }
                if !spec.asked {
                    spec.asked = true;
                    ev.push(Event::AttackDeclared {
                        actor: m.fighters[a].id.as_str().into(),
                        target: m.fighters[t].id.clone(),
                        action: spec.why.clone(),
                        melee: m.equipment.wielded(&m.fighters[a]).is_melee(),
                        reaction: spec.opportunity,
                    });
                    let can_react = reactive_pool(m, a4, t, a).is_ok();
                    if let Some(Task::Attack(s)) = a4.tasks.front_mut() {
                        *s = spec.clone();
                    }
                    if can_react {
                        open_window(m, t, a, REACTIVE, ev);
                        return true;
                    }
                }
                a4.tasks.pop_front();
                resolve(m, a4, dice, &spec, ev);
            }
            Task::OfferHeld { who, mover } => {
                let ok = a4.figs[who].hold.is_some() && m.can_act(who) && m.can_act(mover) && !m.is_dead(mover) && check_attack(m, a4, who, mover).is_ok();
                if ok {
                    open_window(m, who, mover, HELD, ev);
                    return true;
                }
                a4.tasks.pop_front();
            }
            Task::Walk { actor, rest, safe, kind, provokes } => {
                a4.tasks.pop_front();
                walk(m, a4, actor, rest, safe || !provokes, provokes, &kind, ev);
            }
            Task::Finish { actor, act } => {
                a4.tasks.pop_front();
                if m.can_act(actor) && !m.is_dead(actor) {
                    match act {
                        RoundAct::StandUp => set_posture(m, actor, Posture::Standing, ev),
                        RoundAct::Reload => {
                            m.fighters[actor].loadout.loaded = true;
                            ev.push(Event::Note { text: format!("{} reloads.", name(m, actor)) });
                        }
                        RoundAct::Draw | RoundAct::Sheathe => {
                            let drawn = matches!(act, RoundAct::Draw);
                            a4.figs[actor].sheathed = !drawn;
                            ev.push(Event::Note { text: format!("{} {} its weapon (A4-3.7).", name(m, actor), if drawn { "draws" } else { "sheathes" }) });
                        }
                        RoundAct::UseItem { item, target } => {
                            let at = target.as_deref().and_then(|t| m.index(t)).map_or(m.fighters[actor].pos, |t| m.fighters[t].pos);
                            explore::items::use_item(m, actor, at, &item, CRAWL, dice, ev);
                        }
                        _ => {}
                    }
                }
            }
        }
    }
    false
}

/// Walks `rest`, stopping before a step out of a threatened square to offer the attacks of
/// opportunity it draws (A4-4.1, A4-G-23); the rest of the walk is queued after them.
fn walk(m: &mut Match, a4: &mut A4, a: usize, rest: Vec<Pos>, mut safe: bool, provokes: bool, kind: &str, ev: &mut Vec<Event>) {
    let from = m.fighters[a].pos;
    let mut walked = Vec::new();
    for (k, &next) in rest.iter().enumerate() {
        if !m.can_act(a) || m.is_dead(a) {
            break;
        }
        if !safe {
            let here = m.fighters[a].pos;
            let th = threateners(m, a4, a, here);
            if !th.is_empty() {
                moved(m, a, from, &walked, kind, ev);
                a4.tasks.push_front(Task::Walk { actor: a, rest: rest[k..].to_vec(), safe: true, kind: kind.into(), provokes });
                for who in th.into_iter().rev() {
                    a4.tasks.push_front(Task::OfferAoo { who, mover: a });
                }
                return;
            }
        }
        if m.occupant(next).is_some_and(|o| o != a) {
            ev.push(Event::Note { text: format!("{} stops: {next} is taken.", name(m, a)) });
            break;
        }
        m.fighters[a].pos = next;
        walked.push(next);
        safe = !provokes;
        // R-EXP-19: sight is tested after every space entered (a crawl's crisis).
        explore::reveal_path(m, a, &[], ev);
        // A4-G-15: the squares of movement actually walked this turn (a move cut short counts
        // only what it covered).
        if matches!(kind, "move" | "run" | "withdraw") {
            a4.figs[a].moved_squares += m.board.path_cost(&[next]);
        }
        // A4-3.16, A4-G-18: holders whose trigger this square fires strike before it goes on.
        let held = holders(m, a4, a);
        if !held.is_empty() {
            moved(m, a, from, &walked, kind, ev);
            a4.tasks.push_front(Task::Walk { actor: a, rest: rest[k + 1..].to_vec(), safe, kind: kind.into(), provokes });
            for who in held.into_iter().rev() {
                a4.tasks.push_front(Task::OfferHeld { who, mover: a });
            }
            return;
        }
    }
    moved(m, a, from, &walked, kind, ev);
}

/// A4-3.16, A4-4.3, A4-G-18: the enemies of `mover` holding their action whose trigger its
/// square fires (in reach for a melee weapon; within base range and sight for a ranged one), in
/// initiative order.
pub fn holders(m: &Match, a4: &A4, mover: usize) -> Vec<usize> {
    let at = m.fighters[mover].pos;
    let mut v: Vec<usize> = (0..m.fighters.len())
        .filter(|&x| x != mover && m.enemies(x, mover) && m.can_act(x) && !m.is_dead(x) && m.can_act(mover))
        .filter(|&x| match a4.figs[x].hold {
            Some(Trigger::EnemyEntersReach) => m.equipment.wielded(&m.fighters[x]).is_melee() && check_attack(m, a4, x, mover).is_ok(),
            Some(Trigger::EnemyEntersRange) => match m.equipment.wielded(&m.fighters[x]) {
                Wielded::Ranged(r) => m.fighters[x].pos.distance(at) <= r.range && check_attack(m, a4, x, mover).is_ok(),
                _ => false,
            },
            None => false,
        })
        .collect();
    v.sort_by_key(|&x| order_key(a4, x));
    v
}

fn moved(m: &Match, a: usize, from: Pos, walked: &[Pos], kind: &str, ev: &mut Vec<Event>) {
    if let Some(&to) = walked.last() {
        ev.push(Event::Moved { actor: m.fighters[a].id.as_str().into(), movement: kind.into(), from, to, path: walked.to_vec() });
    }
}
