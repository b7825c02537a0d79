//! The DoO profiles' crisis, carried out: a checked `Plan` pays its price, moves, adjusts and
//! throws dice (free steps §6, movements §8, actions §9, reactions §11, reset recovery R-MANA-2),
//! then the flow moves on to the next opportunity (`turn::advance`).

use super::super::actions::ActionPlan;
use super::super::attack;
use super::super::command::Guide;
use super::super::dice::Dice;
use super::super::event::Event;
use super::super::explore;
use super::super::fighter::{AdjTarget, FreeStepsLoss, Pool, TempAdjustment};
use super::super::grid::Pos;
use super::super::healing;
use super::super::movement::{MovePlan, is_run, run_defense};
use super::super::plan::Plan;
use super::super::profile::{ActionEffect, Posture, ReactionEffect, ReactionRow, RunPenalty, Scope};
use super::super::roll::{log_roll, stat_check};
use super::super::spells;
use super::super::state::{LastAttack, Match, PendingAttack};
use super::super::turn::{Flow, advance, close_opportunity};
use super::react::{
    add_adjustment, check_free_steps_kept, continue_after_decline, open_reflex_window, open_response_window, react_pay, reflex_contest, resolve_and_finish,
    spend,
};

/// Applies a checked plan of a DoO crisis, then moves the flow on. Returns what the flow needs
/// next.
pub fn apply(m: &mut Match, plan: Plan, dice: &mut Dice, ev: &mut Vec<Event>) -> Flow {
    match plan {
        Plan::Recovery { a, pool } => {
            m.fighters[a].recovery = Some(pool);
            ev.push(Event::RecoveryChoice { actor: m.fighters[a].id.as_str().into(), pool });
        }
        Plan::FreeSteps { a, path } => free_steps(m, a, &path, ev),
        Plan::Move { a, plan } => movement(m, a, &plan, dice, ev),
        Plan::Action { a, plan } => action(m, a, &plan, dice, ev),
        Plan::End { .. } => close_opportunity(m, true, ev),
        Plan::Reflex { a, row } => {
            if let Some(p) = m.pending.take() {
                reflex(m, a, &row, p, dice, ev);
            }
        }
        Plan::Respond { a, row } => {
            if let Some(p) = m.pending.take() {
                respond(m, a, &row, p, dice, ev);
            }
        }
        // Issue 46: done by `engine::apply` (`event_choice`) before the rulesets.
        Plan::Choose { .. } => {}
        Plan::Decline { a } => {
            ev.push(Event::ReactionDeclined { actor: m.fighters[a].id.as_str().into() });
            continue_after_decline(m, dice, ev);
        }
        // Not the DoO crisis's: `ruleset` hands them to Exploration Mode and A4.
        Plan::Explore { .. } | Plan::A4 { .. } => {}
    }
    advance(m, dice, ev)
}

/// Free steps along `path` (§6): the rest of the allowance is forfeited (R-FS-3).
fn free_steps(m: &mut Match, a: usize, path: &[Pos], ev: &mut Vec<Event>) {
    m.clock.last_closed = None;
    let f = &mut m.fighters[a];
    let from = f.pos;
    f.pos = *path.last().unwrap_or(&from);
    f.opp.free_steps = true;
    f.free_steps.lose(FreeStepsLoss::Used); // R-FS-3: the rest is forfeited
    ev.push(Event::FreeStepsUsed {
        actor: f.id.as_str().into(),
        spaces: path.len() as u32,
        forfeited: f.free_steps.allowance.saturating_sub(path.len() as u32),
    });
    ev.push(Event::Moved { actor: f.id.as_str().into(), movement: "free_steps".into(), from, to: f.pos, path: path.to_vec() });
    // R-EXP-19: sight is tested after every space entered, in a crisis too.
    explore::reveal_path(m, a, path, ev);
}

/// A movement row (§8): a declared tumble first (G-18), the price, the move, the posture, a
/// Run's Defense penalty (R-MOVE-3); a movement that counts as the action or an Only one ends
/// the opportunity.
fn movement(m: &mut Match, a: usize, plan: &MovePlan, dice: &mut Dice, ev: &mut Vec<Event>) {
    m.clock.last_closed = None;
    let mut price = plan.price;
    if let Some(tp) = plan.tumble {
        // G-18: Tumble check vs Easy when declared; failure costs the normal price.
        let rank = m.equipment.finesse_rank(&m.fighters[a]);
        let adj = m.fighters[a].skill("tumble").adjustment();
        let roll = stat_check(m, dice, rank, adj);
        let t = log_roll(ev, dice, &m.fighters[a].id.clone(), "tumble", roll);
        if t >= m.rules.limits.tumble_cr {
            price = tp;
        } else if m.fighters[a].ap.current < price.ap || (!price.only && m.fighters[a].opp.spent + price.ap > m.rules.limits.opportunity_ap_cap) {
            ev.push(Event::Note { text: format!("{}'s tumble failed and the full cost cannot be paid: the movement fails.", m.fighters[a].name) });
            return;
        }
    }
    spend(m, a, price, true, &plan.row.id, ev);
    let f = &mut m.fighters[a];
    f.turn.did_anything = true;
    if plan.row.counts_as_action {
        f.opp.action = Some(plan.row.id.clone());
    } else {
        f.opp.movement = Some(plan.row.id.clone());
    }
    f.opp.ran |= is_run(&plan.row);
    let from = f.pos;
    if plan.dest != from {
        f.pos = plan.dest;
        ev.push(Event::Moved {
            actor: f.id.as_str().into(),
            movement: plan.row.id.clone(),
            from,
            to: plan.dest,
            path: if plan.path.is_empty() { vec![plan.dest] } else { plan.path.clone() },
        });
        // R-EXP-19: sight is tested after every space entered, in a crisis too.
        explore::reveal_path(m, a, &plan.path, ev);
    }
    let f = &mut m.fighters[a];
    if let Some(p) = plan.posture {
        ev.push(Event::PostureChanged { actor: f.id.as_str().into(), from: f.posture, to: p });
        f.posture = p;
    }
    let defense = if plan.row.defense_flat != 0
        && m.rules.options.run_penalty == RunPenalty::Flat3
        && m.fighters[a].adjustments.iter().any(|x| x.source == plan.row.id)
    {
        0 // the flat Run penalty is one state, not cumulative
    } else if price != plan.price {
        run_defense(m, &plan.row, price.ap)
    } else {
        plan.defense
    };
    add_adjustment(m, a, TempAdjustment { source: plan.row.id.clone(), target: AdjTarget::Defense, value: defense, scope: Scope::All }, ev);
    check_free_steps_kept(m, a, ev);
    if price.only || plan.row.counts_as_action {
        close_opportunity(m, false, ev);
    }
}

/// An action row (§9): the price, its Defense adjustment at declaration (R-AP-6), its effect;
/// an attack is declared and its reflex window opens (§11).
fn action(m: &mut Match, a: usize, plan: &ActionPlan, dice: &mut Dice, ev: &mut Vec<Event>) {
    m.clock.last_closed = None;
    spend(m, a, plan.price, true, &plan.row.id, ev);
    {
        let f = &mut m.fighters[a];
        f.turn.did_anything = true;
        f.opp.action = Some(plan.row.id.clone());
        ev.push(Event::ActionTaken { actor: f.id.as_str().into(), action: plan.row.id.clone(), target: plan.target.map(|t| m.fighters[t].id.clone()) });
    }
    // R-AP-6: the action's own Defense adjustment applies at declaration.
    let own = TempAdjustment { source: plan.row.id.clone(), target: AdjTarget::Defense, value: plan.row.defense, scope: plan.row.defense_scope };
    add_adjustment(m, a, own, ev);
    apply_effect(m, a, plan, dice, ev);
    check_free_steps_kept(m, a, ev);
    // R-RNG-8: a crossbow reset may be followed by the shot in the same opportunity.
    if plan.row.effect != ActionEffect::ResetCrossbow || m.fighters[a].ap.current == 0 {
        close_opportunity(m, false, ev);
    }
    let ActionEffect::Attack { attack: atk, damage, .. } = plan.row.effect else { return };
    let Some(t) = plan.target else { return };
    // R-RNG-8, R-RNG-9: a crossbow shot unloads it; shots and throws use ammunition.
    let l = &mut m.fighters[a].loadout;
    if let Some(w) = l.weapon.as_deref().and_then(|w| m.equipment.ranged(w)) {
        if w.hand_reload_brawn.is_some() {
            l.loaded = false;
        }
        if let Some(n) = l.ammo.as_mut().filter(|n| **n > 0) {
            *n -= 1;
            super::super::explore::count_shot(m, a); // R-EXP-27, G-41
        }
    }
    let p = PendingAttack {
        attacker: a,
        defender: t,
        with: plan.row.id.clone(),
        melee: plan.melee,
        attack_adj: atk,
        damage_adj: damage,
        window: None,
        is_reaction: false,
        shield_doubled: false,
        damage_dealt: 0,
        critical: plan.critical,
        resumes: None,
    };
    let (actor, target) = (m.fighters[a].id.as_str().into(), m.fighters[t].id.clone());
    ev.push(Event::AttackDeclared { actor, target, action: plan.row.id.clone(), melee: plan.melee, reaction: false });
    m.clock.last_attack = Some(LastAttack { attacker: a, defender: t, with: plan.row.id.clone(), melee: plan.melee });
    open_reflex_window(m, p, dice, ev);
}

/// A melee attack made as a reflex or a response (G-09: it opens no windows), declared.
fn reaction_attack(
    m: &Match,
    a: usize,
    defender: usize,
    row: &ReactionRow,
    attack_adj: i32,
    resumes: Option<Box<PendingAttack>>,
    ev: &mut Vec<Event>,
) -> PendingAttack {
    let (actor, target) = (m.fighters[a].id.as_str().into(), m.fighters[defender].id.clone());
    ev.push(Event::AttackDeclared { actor, target, action: row.id.clone(), melee: true, reaction: true });
    PendingAttack {
        attacker: a,
        defender,
        with: row.id.clone(),
        melee: true,
        attack_adj,
        damage_adj: 0,
        window: None,
        is_reaction: true,
        shield_doubled: false,
        damage_dealt: 0,
        critical: None,
        resumes,
    }
}

/// A reflex against the pending attack `p` (R-REACT-2..7): paid, contested; a Parry blocks, a
/// Counterattack strikes first (G-48), a Shield Block doubles the shield.
fn reflex(m: &mut Match, a: usize, row: &ReactionRow, mut p: PendingAttack, dice: &mut Dice, ev: &mut Vec<Event>) {
    p.window = None;
    react_pay(m, a, row, ev);
    ev.push(Event::ReflexDeclared { actor: m.fighters[a].id.as_str().into(), reflex: row.id.clone(), attacker: m.fighters[p.attacker].id.clone() });
    let won = reflex_contest(m, a, p.attacker, row, dice, ev);
    match (won, row.effect) {
        (true, ReactionEffect::Parry) => {
            // R-REACT-5: blocked completely; the attacker's AP and penalties stay.
            ev.push(Event::AttackBlocked { actor: m.fighters[p.attacker].id.as_str().into(), target: m.fighters[a].id.clone(), by: row.id.clone() });
            open_response_window(m, p, dice, ev);
        }
        (true, ReactionEffect::Counterattack) => {
            let counter = reaction_attack(m, a, p.attacker, row, row.attack, Some(Box::new(p)), ev);
            resolve_and_finish(m, counter, dice, ev);
        }
        (true, ReactionEffect::ShieldBlock) => {
            p.shield_doubled = true;
            resolve_and_finish(m, p, dice, ev);
        }
        _ => resolve_and_finish(m, p, dice, ev),
    }
}

/// A response to the attack `p` just resolved (R-REACT-8, R-REACT-9: −1 per HP sustained).
fn respond(m: &mut Match, a: usize, row: &ReactionRow, p: PendingAttack, dice: &mut Dice, ev: &mut Vec<Event>) {
    react_pay(m, a, row, ev);
    ev.push(Event::ResponseDeclared { actor: m.fighters[a].id.as_str().into(), response: row.id.clone(), attacker: m.fighters[p.attacker].id.clone() });
    let riposte = reaction_attack(m, a, p.attacker, row, row.attack - p.damage_dealt, None, ev);
    resolve_and_finish(m, riposte, dice, ev);
}

/// The effect of an action once paid (§9): posture, pools, items, first aid, guiding, spells.
fn apply_effect(m: &mut Match, a: usize, plan: &ActionPlan, dice: &mut Dice, ev: &mut Vec<Event>) {
    match &plan.row.effect {
        ActionEffect::Flop => {
            let f = &mut m.fighters[a];
            if let Some(p) = plan.posture {
                ev.push(Event::PostureChanged { actor: f.id.as_str().into(), from: f.posture, to: p });
                f.posture = p;
            }
        }
        ActionEffect::Recover { amount, .. } => {
            let f = &mut m.fighters[a];
            let pool = plan.pool.unwrap_or(Pool::Mana);
            let (cur, max) = match pool {
                Pool::Mana => (&mut f.mp, f.max_mp),
                Pool::Faith => (&mut f.fp, f.max_fp),
            };
            let from = *cur;
            *cur = (*cur + *amount as i32).min(max).max(from);
            ev.push(Event::PoolChanged { actor: f.id.as_str().into(), pool, from, to: *cur, reason: plan.row.id.clone() });
        }
        ActionEffect::UseItem => {
            let Some(id) = plan.item.clone() else { return };
            let item = m.equipment.item(&id).cloned();
            ev.push(Event::ItemUsed { actor: m.fighters[a].id.as_str().into(), item: id.clone() });
            if let Some(item) = item {
                if item.consumable {
                    let items = &mut m.fighters[a].loadout.items;
                    if let Some(k) = items.iter().position(|x| *x == id) {
                        items.remove(k);
                    }
                }
                if let Some(h) = item.heals {
                    // G-25: the potion's die explodes exactly when damage dice do.
                    let r = dice.roll(h.0, h.1, m.rules.options.damage_explodes, 0);
                    let v = log_roll(ev, dice, &m.fighters[a].id.clone(), "healing", r);
                    attack::change_hp(m, a, v, id.clone(), ev);
                    // Magical healing stops bleeding (R-INJ-7).
                    healing::stop_bleeding(&mut m.fighters[a], "magical healing", ev);
                }
            }
        }
        ActionEffect::FirstAid => {
            // R-HEAL-1..3: Healing (Savvy) check vs CR by the patient's status.
            let Some(t) = plan.target else { return };
            let Some(cr) = healing::first_aid_cr(attack::injury(&m.fighters[t]), t == a) else { return };
            let f = &m.fighters[a];
            let roll = stat_check(m, dice, f.stats.savvy, f.skill("healing").adjustment());
            let total = log_roll(ev, dice, &f.id.clone(), "first_aid", roll);
            // R-CP-9 (G-79): first aid is a task check for character points, once per patient.
            ev.push(Event::TaskCheck {
                actor: m.fighters[a].id.as_str().into(),
                check: "first_aid".into(),
                object: format!("patient:{}", m.fighters[t].id),
                margin: total - cr,
            });
            if total >= cr {
                healing::stop_bleeding(&mut m.fighters[t], "first aid", ev);
            }
        }
        ActionEffect::GuideStunned => {
            let Some(t) = plan.target else { return };
            let tf = &mut m.fighters[t];
            match &plan.guide {
                Some(Guide::Sit) | None => {
                    ev.push(Event::PostureChanged { actor: tf.id.as_str().into(), from: tf.posture, to: Posture::Sitting });
                    tf.posture = Posture::Sitting;
                }
                Some(Guide::LieDown) => {
                    ev.push(Event::PostureChanged { actor: tf.id.as_str().into(), from: tf.posture, to: Posture::Prone });
                    tf.posture = Posture::Prone;
                }
                Some(Guide::Step(p)) => {
                    let from = tf.pos;
                    tf.pos = *p;
                    ev.push(Event::Moved { actor: tf.id.as_str().into(), movement: "guided_step".into(), from, to: *p, path: vec![*p] });
                    explore::reveal_path(m, t, &[], ev); // R-EXP-19
                }
            }
        }
        ActionEffect::CastSpell => {
            if let (Some(id), Some(t)) = (plan.spell.clone(), plan.target) {
                spells::cast(m, a, &id, t, dice, ev);
            }
        }
        ActionEffect::ResetCrossbow => m.fighters[a].loadout.loaded = true,
        ActionEffect::ShieldBlock | ActionEffect::ReadyItem | ActionEffect::Attack { .. } => {}
    }
}
