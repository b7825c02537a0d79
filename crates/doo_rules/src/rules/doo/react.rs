//! The DoO profiles' attack windows (§11): the reflex window opened at declaration, the
//! contest, the attack resolved, the response window, a counterattack's interrupted attack
//! resumed (G-48); windows a command does not answer are declined (R-REACT-*, R-TURN-12/13);
//! and the small payments every applied plan makes (AP, adjustments, free steps lost).

use super::super::attack;
use super::super::command::Command;
use super::super::dice::Dice;
use super::super::equipment::Stat;
use super::super::event::Event;
use super::super::fighter::{AdjTarget, FreeStepsLoss, TempAdjustment};
use super::super::profile::{Posture, ReactionKind, ReactionRow, ReflexDice, ReflexRoll, Scope};
use super::super::reactions::options;
use super::super::roll::{log_roll, stat_check};
use super::super::spending::{Price, pay};
use super::super::state::{Match, PendingAttack, Window};
use super::super::turn::{Flow, advance, close_opportunity};

/// Adds a temporary adjustment (none when it is 0).
pub(super) fn add_adjustment(m: &mut Match, i: usize, adj: TempAdjustment, ev: &mut Vec<Event>) {
    if adj.value == 0 {
        return;
    }
    ev.push(Event::AdjustmentAdded { actor: m.fighters[i].id.as_str().into(), adjustment: adj.clone() });
    m.fighters[i].adjustments.push(adj);
}

/// R-FS-5 / R-FS-9: free steps go at 0 AP and when leaving the standing posture.
pub(super) fn check_free_steps_kept(m: &mut Match, i: usize, ev: &mut Vec<Event>) {
    let f = &mut m.fighters[i];
    if !f.free_steps.available {
        return;
    }
    let (reason, why) = if f.ap.current == 0 {
        ("no AP left", FreeStepsLoss::NoAp)
    } else if f.posture != Posture::Standing {
        ("no longer standing", FreeStepsLoss::LeftStanding)
    } else {
        return;
    };
    f.free_steps.lose(why);
    ev.push(Event::FreeStepsLost { actor: f.id.as_str().into(), reason: reason.into() });
}

/// Pays `price` for `what`, with its events (R-AP-1, R-ONLY-1).
pub(super) fn spend(m: &mut Match, i: usize, price: Price, counts: bool, what: &str, ev: &mut Vec<Event>) {
    let f = &mut m.fighters[i];
    let amount = pay(f, price, counts);
    if price.only {
        ev.push(Event::OnlyMode { actor: f.id.as_str().into(), action: what.to_string() });
    }
    ev.push(Event::ApSpent { actor: f.id.as_str().into(), amount, ap: f.ap.current, for_what: what.to_string() });
}

pub(super) fn react_pay(m: &mut Match, a: usize, row: &ReactionRow, ev: &mut Vec<Event>) {
    // R-AP-5: paid outside the opportunity, not toward its cap; G-10: counts as having acted.
    spend(m, a, Price { ap: row.cost, only: false }, false, &row.id, ev);
    m.fighters[a].turn.did_anything = true;
    // R-REACT-6/7: the reflex's own penalty applies win or lose.
    add_adjustment(m, a, TempAdjustment { source: row.id.clone(), target: AdjTarget::Attack, value: row.lasting_attack, scope: Scope::All }, ev);
    check_free_steps_kept(m, a, ev);
}

/// R-REACT-4: the attacker rolls first, the defender must equal or beat him.
pub(super) fn reflex_contest(m: &Match, d: usize, a: usize, row: &ReactionRow, dice: &mut Dice, ev: &mut Vec<Event>) -> bool {
    let dice_kind = if m.rules.options.reflex_roll == ReflexRoll::FinesseAll { ReflexDice::FinesseVsFinesse } else { row.dice };
    let weapon_roll = |i: usize| {
        let f = &m.fighters[i];
        let w = m.equipment.wielded(f);
        let rank = match w.check_stat() {
            Stat::Brawn => f.stats.brawn,
            _ => m.equipment.finesse_rank(f),
        };
        (rank, f.skill(w.skill()).adjustment())
    };
    let fin = |i: usize| (m.equipment.finesse_rank(&m.fighters[i]), 0);
    let (att, def) = match dice_kind {
        ReflexDice::WeaponVsWeapon => (weapon_roll(a), weapon_roll(d)),
        ReflexDice::FinesseVsFinesse | ReflexDice::None => (fin(a), fin(d)),
        ReflexDice::ShieldVsWeapon => (weapon_roll(a), (m.fighters[d].stats.brawn, m.fighters[d].skill("shields").adjustment())),
    };
    let r = stat_check(m, dice, att.0, att.1);
    let at = log_roll(ev, dice, &m.fighters[a].id, format!("{}_opposed", row.id), r);
    let r = stat_check(m, dice, def.0, def.1);
    let dt = log_roll(ev, dice, &m.fighters[d].id, row.id.clone(), r);
    let won = dt >= at;
    ev.push(Event::ReflexOutcome { actor: m.fighters[d].id.as_str().into(), reflex: row.id.clone(), success: won, attacker_total: at, defender_total: dt });
    won
}

pub(super) fn open_reflex_window(m: &mut Match, mut p: PendingAttack, dice: &mut Dice, ev: &mut Vec<Event>) {
    let opts = if p.is_reaction { Vec::new() } else { options(m, p.defender, &p, ReactionKind::Reflex) };
    if opts.is_empty() {
        resolve_and_finish(m, p, dice, ev);
    } else {
        ev.push(Event::ReflexWindow { defender: m.fighters[p.defender].id.clone(), attacker: m.fighters[p.attacker].id.clone(), options: opts });
        p.window = Some(Window::Reflex);
        m.pending = Some(p);
    }
}

pub(super) fn resolve_and_finish(m: &mut Match, mut p: PendingAttack, dice: &mut Dice, ev: &mut Vec<Event>) {
    attack::resolve(m, dice, &mut p, ev);
    if p.is_reaction {
        finish(m, p, dice, ev);
    } else {
        open_response_window(m, p, dice, ev);
    }
}

pub(super) fn open_response_window(m: &mut Match, mut p: PendingAttack, dice: &mut Dice, ev: &mut Vec<Event>) {
    let opts = if p.is_reaction { Vec::new() } else { options(m, p.defender, &p, ReactionKind::Response) };
    if opts.is_empty() {
        finish(m, p, dice, ev);
    } else {
        ev.push(Event::ResponseWindow { defender: m.fighters[p.defender].id.clone(), attacker: m.fighters[p.attacker].id.clone(), options: opts });
        p.window = Some(Window::Response);
        m.pending = Some(p);
    }
}

/// Ends an attack; resumes the one a counterattack interrupted (G-48).
fn finish(m: &mut Match, p: PendingAttack, dice: &mut Dice, ev: &mut Vec<Event>) {
    m.pending = None;
    if let Some(orig) = p.resumes {
        if m.can_act(orig.attacker) {
            resolve_and_finish(m, *orig, dice, ev);
        } else {
            ev.push(Event::AttackCancelled {
                actor: m.fighters[orig.attacker].id.as_str().into(),
                target: m.fighters[orig.defender].id.clone(),
                reason: "the counterattack left the attacker unable to act (G-48)".into(),
            });
        }
    }
}

pub(super) fn continue_after_decline(m: &mut Match, dice: &mut Dice, ev: &mut Vec<Event>) {
    let Some(mut p) = m.pending.take() else { return };
    match p.window.take() {
        Some(Window::Reflex) => resolve_and_finish(m, p, dice, ev),
        _ => finish(m, p, dice, ev),
    }
}

/// Before a command is checked: an open reaction window it does not answer is declined, and
/// an opportunity in which something was done ends when another character's command arrives
/// (the holder acted; R-TURN-12). Returns the flow when the turn structure moved on.
pub fn close_stale(m: &mut Match, cmd: &Command, dice: &mut Dice, ev: &mut Vec<Event>) -> Option<Flow> {
    if matches!(cmd, Command::Delay { .. }) {
        // Always refused (R-TURN-12), so it must not decline windows or end opportunities either.
        return None;
    }
    let had_window = m.pending.as_ref().is_some_and(|p| p.window.is_some());
    close_window_unless_answered(m, cmd, dice, ev);
    let mut moved = had_window && m.pending.is_none();
    let opportunity_cmd = matches!(
        cmd,
        Command::FreeSteps { .. }
            | Command::Move { .. }
            | Command::Action { .. }
            | Command::Pass { .. }
            | Command::End { .. }
            | Command::Door { .. }
            | Command::Take { .. }
    );
    if let Some(c) = m.clock.current {
        // the cheap test first (issue 44: the actor's id is looked up only when it matters)
        if opportunity_cmd && m.fighters[c].opp.anything() && m.index(cmd.actor()).is_some_and(|a| a != c) {
            close_opportunity(m, false, ev);
            moved = true;
        }
    }
    moved.then(|| advance(m, dice, ev))
}

/// A command that does not answer an open reflex/response window closes it first (declined).
pub fn close_window_unless_answered(m: &mut Match, cmd: &Command, dice: &mut Dice, ev: &mut Vec<Event>) {
    if matches!(cmd, Command::Delay { .. }) {
        return; // refused without effect (R-TURN-12)
    }
    for _ in 0..8 {
        let Some(p) = &m.pending else { return };
        if p.window.is_none() {
            return;
        }
        let answers = matches!(cmd, Command::Reflex { .. } | Command::Respond { .. } | Command::Decline { .. }) && m.index(cmd.actor()) == Some(p.defender);
        if answers {
            return;
        }
        ev.push(Event::ReactionDeclined { actor: m.fighters[p.defender].id.as_str().into() });
        continue_after_decline(m, dice, ev);
    }
}
