//! A4-2 to A4-4 and A4-6: what a figure does in its turn under A4 (`RoundAct`), carried out
//! once `check` accepted it: the act's slots, then the steps it queues (`steps`: attacks of
//! opportunity, attacks and their reactive defences, the rest of a move), and the turn's end.
//! Attacks of opportunity and reactive defences are offered through the engine's reaction window
//! (`Reflex` with `a4_opportunity` / `a4_reactive_defense`, or `Decline`), so the window's
//! prompt, its "never ask" list and its timeout serve A4 too.

use super::super::command::Command;
use super::super::dice::Dice;
use super::super::event::Event;
use super::super::explore;
use super::super::healing;
use super::super::profile::Posture;
use super::super::roll::log_roll;
use super::super::state::Match;
use super::super::turn::Flow;
use super::book::{ActRow, FullAttackRow, Provokes, Slot};
use super::check::{as_act, charge_path};
use super::round;
use super::slots::allocate;
use super::state::{A4, AttackSpec, Task};
use super::stats::{self, action_pool, threateners};
use super::steps::{answer, holders, run_tasks, set_posture, shot_provokes};

pub use super::super::command::command_name;
pub use super::check::{check, validate};
pub use super::state::{CRAWL, HELD, OPPORTUNITY, REACTIVE, RoundAct, describe};

fn name(m: &Match, i: usize) -> &str {
    &m.fighters[i].name
}

/// A4-G-05: the full-attack row for the figure's attack pool before penalties (outside an A4
/// match, one attack at no penalty).
pub fn full_attack_row(m: &Match, a: usize) -> FullAttackRow {
    match m.a4.as_deref() {
        Some(a4) => stats::full_attack_row(m, a4, a),
        None => FullAttackRow { min_attack_dice: 0, attacks: 1, penalty_dice: 0 },
    }
}

/// Carries out a checked command, then plays its steps until an answer is needed or the turn
/// moves on.
pub fn apply(m: &mut Match, a4: &mut A4, a: usize, cmd: &Command, dice: &mut Dice, ev: &mut Vec<Event>) -> Flow {
    if let Command::Round { act: RoundAct::Speak { text }, .. } = cmd {
        // A4-3.18: free and at any time: only the words are logged; nobody's round changes.
        ev.push(Event::Note { text: format!("{} says: \u{201c}{}\u{201d} (A4-3.18)", name(m, a), text.trim()) });
        return if m.pending.as_ref().is_some_and(|p| p.window.is_some()) { Flow::AwaitCommand } else { round::advance(m, a4, ev) };
    }
    m.clock.last_closed = None;
    if let Some(act) = as_act(cmd) {
        apply_act(m, a4, a, &act, dice, ev);
        run_tasks(m, a4, dice, ev);
        return settle_turn(m, a4, ev);
    }
    match cmd {
        Command::Round { act, .. } => apply_act(m, a4, a, act, dice, ev),
        Command::Pass { .. } | Command::End { .. } => apply_act(m, a4, a, &RoundAct::EndTurn, dice, ev),
        Command::Reflex { reflex, .. } => answer(m, a4, a, Some(reflex), dice, ev),
        Command::Decline { .. } => answer(m, a4, a, None, dice, ev),
        _ => {}
    }
    run_tasks(m, a4, dice, ev);
    settle_turn(m, a4, ev)
}

/// Queues the attacks of opportunity `a` draws where it stands (A4-4.1).
fn offer_aoos(m: &mut Match, a4: &mut A4, a: usize) {
    let pos = m.fighters[a].pos;
    for who in threateners(m, a4, a, pos) {
        a4.tasks.push_back(Task::OfferAoo { who, mover: a });
    }
}

/// An attack of `a` on `t` waiting to be thrown (A4-3.1).
fn attack(a: usize, t: usize, dice_adj: i32, why: &str) -> Task {
    Task::Attack(AttackSpec { attacker: a, defender: t, dice: dice_adj, why: why.into(), opportunity: false, reacted: None, asked: false })
}

/// The act's slots are taken and counted (A4-2.1, A4-G-04, A4-G-06), then the act is done or
/// its steps queued.
fn apply_act(m: &mut Match, a4: &mut A4, a: usize, act: &RoundAct, dice: &mut Dice, ev: &mut Vec<Event>) {
    let b = a4.book.clone();
    let Some(row) = b.row(act.row_id(m, a4, a)).cloned() else { return };
    let slots = allocate(&b, &a4.figs[a], &row.uses).unwrap_or_default();
    {
        let r = &mut a4.figs[a];
        for s in &slots {
            r.use_slot(*s);
        }
        r.counted += row.counts;
    }
    if !matches!(act, RoundAct::EndTurn | RoundAct::Delay { .. } | RoundAct::Speak { .. }) {
        ev.push(Event::SlotsUsed {
            actor: m.fighters[a].id.as_str().into(),
            act: row.id.clone(),
            slots: slots.iter().map(|s| s.name().to_string()).collect(),
            counted: a4.figs[a].counted,
        });
    }
    match act {
        RoundAct::Move { .. }
        | RoundAct::Run { .. }
        | RoundAct::Withdraw { .. }
        | RoundAct::Charge { .. }
        | RoundAct::Step { .. }
        | RoundAct::StandUp
        | RoundAct::DropProne
        | RoundAct::MovingDefense { .. } => act_move(m, a4, a, act, &row, dice, ev),
        RoundAct::Stabilize { .. }
        | RoundAct::Door { .. }
        | RoundAct::Take { .. }
        | RoundAct::OpenChest { .. }
        | RoundAct::Drop { .. }
        | RoundAct::UseItem { .. } => act_item(m, a4, a, act, &row, dice, ev),
        RoundAct::Attack { target: tid } => {
            let Some(t) = m.index(tid) else { return };
            if shot_provokes(m, a4, a, row.provokes) {
                offer_aoos(m, a4, a);
            }
            a4.tasks.push_back(attack(a, t, 0, "attack"));
        }
        RoundAct::FullAttack { targets } => {
            let fa = stats::full_attack_row(m, a4, a);
            if shot_provokes(m, a4, a, row.provokes) {
                offer_aoos(m, a4, a);
            }
            for k in 0..fa.attacks as usize {
                let Some(t) = targets.get(k).or(targets.last()).and_then(|tid| m.index(tid)) else { continue };
                a4.tasks.push_back(attack(a, t, -fa.penalty_dice, "full_attack"));
            }
        }
        RoundAct::FullDefense => {
            let pool = action_pool(m, a4, a, &b.full_defense.skill, 0);
            let roll = dice.roll(pool.dice.max(0) as u32, b.pools.die, false, pool.pips);
            let fid = m.fighters[a].id.clone();
            let total = log_roll(ev, dice, &fid, "full_defense", roll);
            a4.figs[a].full_defense = Some(total);
        }
        RoundAct::Reload => {
            if row.provokes == Provokes::Always {
                offer_aoos(m, a4, a);
            }
            a4.tasks.push_back(Task::Finish { actor: a, act: act.clone() });
        }
        RoundAct::Delay { initiative } => {
            let r = &mut a4.figs[a];
            r.initiative = *initiative;
            r.delayed = true;
            r.flat_footed = false;
            ev.push(Event::Note { text: format!("{} delays to initiative {initiative} (A4-3.15).", name(m, a)) });
            round::end_turn(m, a4, a, ev);
        }
        RoundAct::EndTurn => a4.figs[a].done = true,
        RoundAct::Hold { trigger } => {
            let r = &mut a4.figs[a];
            r.hold = Some(*trigger);
            r.flat_footed = false;
            r.done = true;
            ev.push(Event::Note { text: format!("{} holds its action for {} (A4-3.16).", name(m, a), trigger.describe()) });
            round::end_turn(m, a4, a, ev);
        }
        RoundAct::Draw | RoundAct::Sheathe => {
            if row.uses.contains(&Slot::Move) {
                a4.figs[a].moved = true;
            }
            if row.provokes == Provokes::Always {
                offer_aoos(m, a4, a);
            }
            a4.tasks.push_back(Task::Finish { actor: a, act: act.clone() });
        }
        RoundAct::Speak { .. } => {} // logged in `apply`, before any slot is touched
        RoundAct::Mount | RoundAct::CastSpell { .. } => {}
    }
}

/// The movement acts: a walk queued (moving, running, withdrawing, a charge and its attack,
/// moving defence), the five-foot step, standing up (provoking) or dropping prone.
fn act_move(m: &mut Match, a4: &mut A4, a: usize, act: &RoundAct, row: &ActRow, dice: &mut Dice, ev: &mut Vec<Event>) {
    let b = a4.book.clone();
    let provokes = row.provokes == Provokes::Movement;
    match act {
        RoundAct::Move { path } | RoundAct::Run { path } | RoundAct::Withdraw { path } => {
            a4.figs[a].moved = true;
            let safe = matches!(act, RoundAct::Withdraw { .. }) && b.threat.withdraw_start_safe;
            a4.tasks.push_back(Task::Walk { actor: a, rest: path.clone(), safe, kind: row.id.clone(), provokes });
        }
        RoundAct::Charge { target: tid, path } => {
            let Some(t) = m.index(tid) else { return };
            let path = if path.is_empty() { charge_path(m, a4, a, t).unwrap_or_default() } else { path.clone() };
            let r = &mut a4.figs[a];
            r.moved = true;
            r.stepped = true; // A4-G-08: nothing else this round, no five-foot step either
            r.charged = true;
            a4.tasks.push_back(Task::Walk { actor: a, rest: path, safe: false, kind: "charge".into(), provokes });
            a4.tasks.push_back(attack(a, t, b.movement.charge_attack_dice, "charge"));
        }
        RoundAct::Step { to } => {
            a4.figs[a].stepped = true;
            let from = m.fighters[a].pos;
            m.fighters[a].pos = *to;
            ev.push(Event::Moved { actor: m.fighters[a].id.as_str().into(), movement: "step".into(), from, to: *to, path: vec![*to] });
            // R-EXP-19: sight is tested after every space entered, in a crisis too.
            explore::reveal_path(m, a, &[], ev);
            // A4-G-18: a five-foot step into a holder's reach or range fires its hold too.
            for who in holders(m, a4, a) {
                a4.tasks.push_back(Task::OfferHeld { who, mover: a });
            }
        }
        RoundAct::StandUp => {
            a4.figs[a].moved = true;
            if row.provokes == Provokes::Always {
                offer_aoos(m, a4, a);
            }
            a4.tasks.push_back(Task::Finish { actor: a, act: act.clone() });
        }
        RoundAct::DropProne => set_posture(m, a, Posture::Prone, ev),
        RoundAct::MovingDefense { path } => {
            let pool = action_pool(m, a4, a, &b.moving_defense.skill, 0);
            let roll = dice.roll(pool.dice.max(0) as u32, b.pools.die, false, pool.pips);
            let fid = m.fighters[a].id.clone();
            let total = log_roll(ev, dice, &fid, "moving_defense", roll);
            let r = &mut a4.figs[a];
            r.moving_defense = Some(total);
            r.moved = true;
            a4.tasks.push_back(Task::Walk { actor: a, rest: path.clone(), safe: false, kind: row.id.clone(), provokes });
        }
        _ => {}
    }
}

/// Stabilizing a dying friend (A4-3.20), and a crawl's doors, chests and items (A4-3.9 to
/// A4-3.11, A4-3.17; using an item provokes and is done once the attacks of opportunity are over).
fn act_item(m: &mut Match, a4: &mut A4, a: usize, act: &RoundAct, row: &ActRow, dice: &mut Dice, ev: &mut Vec<Event>) {
    match act {
        RoundAct::Stabilize { target: tid } => {
            let Some(t) = m.index(tid) else { return };
            healing::stop_bleeding(&mut m.fighters[t], "stabilized (A4-3.20)", ev);
            ev.push(Event::Note { text: format!("{} stabilizes {}: the bleeding stops until a new wound (A4-3.20).", name(m, a), name(m, t)) });
        }
        RoundAct::Door { at, open } => {
            explore::with_crawl(m, |m, x| explore::items::door(m, x, a, *at, *open, CRAWL, dice, ev));
        }
        RoundAct::Take { at, item } => {
            explore::with_crawl(m, |m, x| explore::items::take(m, x, a, *at, item, ev));
        }
        RoundAct::OpenChest { at } => {
            explore::with_crawl(m, |m, x| explore::items::open_chest_at(m, x, a, *at, CRAWL, dice, ev));
        }
        RoundAct::Drop { item } => {
            // A4-3.17: in a crawl the item lies in the square; elsewhere it is gone.
            let mut x = m.explore.take();
            explore::items::drop_item(m, x.as_deref_mut(), a, item, ev);
            m.explore = x;
        }
        RoundAct::UseItem { .. } => {
            if row.provokes == Provokes::Always {
                offer_aoos(m, a4, a);
            }
            a4.tasks.push_back(Task::Finish { actor: a, act: act.clone() });
        }
        _ => {}
    }
}

/// After a command: the acting figure's turn ends by itself when nothing is left to it but free
/// acts (every slot used and no five-foot step possible), or when it can no longer act.
fn settle_turn(m: &mut Match, a4: &mut A4, ev: &mut Vec<Event>) -> Flow {
    if m.pending.as_ref().is_some_and(|p| p.window.is_some()) {
        return Flow::AwaitCommand;
    }
    if let Some(c) = m.clock.current {
        let r = &a4.figs[c];
        let spent = r.standard && r.move_ && r.minor && (r.stepped || r.moved || m.fighters[c].posture == Posture::Prone);
        if spent || !m.can_act(c) || m.is_dead(c) {
            a4.figs[c].done = true;
        }
    }
    round::advance(m, a4, ev)
}
