//! One path for every `Command`: `validate` (pure, returns a plan or a violation) then `apply`
//! (pays, moves, adjusts, throws dice). Bevy's Validate and Apply systems call these two.

use super::actions::{ActionPlan, check_action};
use super::attack;
use super::command::{Command, Guide};
use super::dice::Dice;
use super::event::Event;
use super::fighter::{AdjTarget, TempAdjustment};
use super::free_steps::check_free_steps;
use super::movement::{MovePlan, check_move, is_run};
use super::profile::{ActionEffect, Posture, ReactionEffect, ReactionKind, ReactionRow, ReflexDice, ReflexRoll, Scope};
use super::reactions::{check_reaction, options};
use super::roll::{log_roll, stat_check};
use super::spending::{Price, guard_opportunity, pay};
use super::state::{LastAttack, Match, PendingAttack, Window};
use super::turn::{Flow, advance, close_opportunity};
use super::violation::{RuleResult, Violation};

/// A checked command.
#[derive(Clone, Debug, PartialEq)]
pub enum Plan {
    FreeSteps {
        a: usize,
        path: Vec<super::grid::Pos>,
    },
    Move {
        a: usize,
        plan: MovePlan,
    },
    Action {
        a: usize,
        plan: ActionPlan,
    },
    End {
        a: usize,
    },
    Reflex {
        a: usize,
        row: ReactionRow,
    },
    Respond {
        a: usize,
        row: ReactionRow,
    },
    Decline {
        a: usize,
    },
    Recovery {
        a: usize,
        pool: super::fighter::Pool,
    },
    /// An order of §24 (Exploration Mode, doors, items), carried out by `explore::apply`.
    Explore {
        a: usize,
        cmd: Command,
    },
    /// A command of an A4 match, carried out by `a4::acts::apply`.
    A4 {
        a: usize,
        cmd: Command,
    },
}

fn actor(m: &Match, id: &str) -> RuleResult<usize> {
    m.index(id).ok_or_else(|| Violation::new("INPUT", format!("There is no character with id '{id}'.")))
}

/// Checks a command against the rules without changing anything (R-AP-1).
pub fn validate(m: &Match, cmd: &Command) -> RuleResult<Plan> {
    let a = actor(m, cmd.actor())?;
    if m.clock.phase == super::state::Phase::Over {
        return Err(Violation::new("R-TURN-17", "The crisis is over: play has returned to narrative time."));
    }
    if m.a4.is_some() && !super::explore::exploring(m) {
        super::a4::acts::validate(m, a, cmd)?;
        return Ok(Plan::A4 { a, cmd: cmd.clone() });
    }
    if cmd.is_exploration() || super::explore::exploring(m) {
        super::explore::validate(m, a, cmd)?;
        return Ok(Plan::Explore { a, cmd: cmd.clone() });
    }
    match cmd {
        Command::Recovery { pool, .. } => {
            if m.rules.options.reset_recovery == super::profile::ResetRecovery::ManaOnly && *pool == super::fighter::Pool::Faith {
                return Err(Violation::new("R-MANA-2", "This profile recovers Mana only at the reset."));
            }
            Ok(Plan::Recovery { a, pool: *pool })
        }
        Command::Reflex { reflex, .. } => {
            let row = m
                .rules
                .reaction(reflex)
                .filter(|r| r.kind == ReactionKind::Reflex)
                .ok_or_else(|| Violation::new("R-ACT-1", format!("'{reflex}' is not a reflex of profile {}.", m.rules.profile)))?;
            let p = match &m.pending {
                Some(p) if p.defender == a && p.window == Some(Window::Reflex) => p,
                _ => return Err(late_reflex(m, a, row)),
            };
            check_reaction(m, a, row, p)?;
            Ok(Plan::Reflex { a, row: row.clone() })
        }
        Command::Respond { response, .. } => {
            let row = m
                .rules
                .reaction(response)
                .filter(|r| r.kind == ReactionKind::Response)
                .ok_or_else(|| Violation::new("R-ACT-1", format!("'{response}' is not a response of profile {}.", m.rules.profile)))?;
            let p = m.pending.as_ref().ok_or_else(|| Violation::new("R-REACT-8", "No attack is waiting for a response."))?;
            check_reaction(m, a, row, p)?;
            Ok(Plan::Respond { a, row: row.clone() })
        }
        // R-TURN-12: no delaying; refused whoever asks and whenever.
        Command::Delay { .. } => Err(Violation::new(
            "R-TURN-12",
            format!(
                "{} cannot delay: at his opportunity a character acts or passes, and may not wait to act later in the round (R-TURN-12).",
                m.fighters[a].name
            ),
        )),
        Command::Decline { .. } => match &m.pending {
            Some(p) if p.defender == a && p.window.is_some() => Ok(Plan::Decline { a }),
            _ => Err(Violation::new("R-REACT-2", format!("No reflex or response is waiting for {}.", m.fighters[a].name))),
        },
        _ => match guard_opportunity(m, a) {
            Ok(()) => opportunity_plan(m, a, cmd),
            Err(v) if v.rule == "R-TURN-9" && just_closed(m, a) => match opportunity_plan(m, a, cmd) {
                // The character's own opportunity just ended: name the rule his declaration breaks.
                Err(specific) => Err(specific.also("R-TURN-9")),
                Ok(_) => Err(v),
            },
            Err(v) => Err(v),
        },
    }
}

/// A reflex declared when no reflex window is open for `a`. If it answers the attack just made
/// on him (its response window open, or its windows skipped or closed by the last command), the
/// refusal names the requirement he fails for that attack, as if declared in time (R-REACT-3:
/// melee only, AP, able to act; R-REACT-5: weapon and rank), with R-REACT-2 in `also`. If he could
/// have declared it in time, or no attack was made on him, the timing rule R-REACT-2 alone.
fn late_reflex(m: &Match, a: usize, row: &ReactionRow) -> Violation {
    let timing = Violation::new(
        "R-REACT-2",
        format!("No attack on {} is waiting for a reflex: a reflex is declared after an attack on him and before its Defense check.", m.fighters[a].name),
    );
    let last = match &m.pending {
        Some(p) if p.defender == a && !p.is_reaction => Some(PendingAttack { window: Some(Window::Reflex), resumes: None, ..p.clone() }),
        _ => m.clock.last_attack.as_ref().filter(|l| l.defender == a).map(|l| PendingAttack {
            attacker: l.attacker,
            defender: l.defender,
            with: l.with.clone(),
            melee: l.melee,
            attack_adj: 0,
            damage_adj: 0,
            window: Some(Window::Reflex),
            is_reaction: false,
            shield_doubled: false,
            damage_dealt: 0,
            critical: None,
            resumes: None,
        }),
    };
    match last.map(|p| check_reaction(m, a, row, &p)) {
        Some(Err(v)) if v.rule != timing.rule => v.also(&timing.rule),
        _ => timing,
    }
}

/// `a` ended the last opportunity and nobody has done anything since.
fn just_closed(m: &Match, a: usize) -> bool {
    m.clock.last_closed == Some(a) && m.clock.current.is_none_or(|c| !m.fighters[c].opp.anything())
}

fn opportunity_plan(m: &Match, a: usize, cmd: &Command) -> RuleResult<Plan> {
    match cmd {
        Command::FreeSteps { path, .. } => {
            check_free_steps(m, a, path)?;
            Ok(Plan::FreeSteps { a, path: path.clone() })
        }
        Command::Move { movement, path, posture, tumble, .. } => {
            let row = m
                .rules
                .movement(movement)
                .ok_or_else(|| Violation::new("R-MOVE-1", format!("'{movement}' is not in the movement table of profile {}.", m.rules.profile)))?;
            Ok(Plan::Move { a, plan: check_move(m, a, row, path, *posture, *tumble)? })
        }
        Command::Action { action, target, item, posture, pool, instruction, spell, critical, .. } => {
            let row = m
                .rules
                .action(action)
                .ok_or_else(|| Violation::new("R-ACT-1", format!("'{action}' is not in the action table of profile {}.", m.rules.profile)))?;
            let t = match target {
                Some(id) => Some(actor(m, id)?),
                None => None,
            };
            let mut plan = check_action(m, a, row, t, item.as_deref(), *posture, *pool, instruction.as_ref(), spell.as_deref())?;
            plan.critical = *critical;
            Ok(Plan::Action { a, plan })
        }
        Command::Pass { .. } => Ok(Plan::End { a }),
        Command::End { .. } => Ok(Plan::End { a }),
        // Never reached through `validate` for the orders it routes elsewhere; an order of
        // another ruleset (A4's `round` in a DoO match, a save or script of the wrong ruleset)
        // is refused, never a panic.
        other => Err(Violation::new(
            "R-META-2",
            format!(
                "'{}' is not an order of profile {}: {} acts with the orders of the match's own profile (move, action, pass, end…).",
                super::a4::acts::command_name(other),
                m.rules.profile,
                m.fighters[a].name
            ),
        )),
    }
}

fn add_adjustment(m: &mut Match, i: usize, adj: TempAdjustment, ev: &mut Vec<Event>) {
    if adj.value == 0 {
        return;
    }
    ev.push(Event::AdjustmentAdded { actor: m.fighters[i].id.clone(), adjustment: adj.clone() });
    m.fighters[i].adjustments.push(adj);
}

/// R-FS-5 / R-FS-9: free steps go at 0 AP and when leaving the standing posture.
fn check_free_steps_kept(m: &mut Match, i: usize, ev: &mut Vec<Event>) {
    let f = &mut m.fighters[i];
    if !f.free_steps.available {
        return;
    }
    use super::fighter::FreeStepsLoss;
    let (reason, why) = if f.ap.current == 0 {
        ("no AP left", FreeStepsLoss::NoAp)
    } else if f.posture != Posture::Standing {
        ("no longer standing", FreeStepsLoss::LeftStanding)
    } else {
        return;
    };
    f.free_steps.lose(why);
    ev.push(Event::FreeStepsLost { actor: f.id.clone(), reason: reason.into() });
}

fn spend(m: &mut Match, i: usize, price: Price, counts: bool, what: &str, ev: &mut Vec<Event>) {
    let f = &mut m.fighters[i];
    let amount = pay(f, price, counts);
    if price.only {
        ev.push(Event::OnlyMode { actor: f.id.clone(), action: what.to_string() });
    }
    ev.push(Event::ApSpent { actor: f.id.clone(), amount, ap: f.ap.current, for_what: what.to_string() });
}

/// Applies a checked plan, then moves the flow on. Returns what the flow needs next.
pub fn apply(m: &mut Match, plan: Plan, dice: &mut Dice, ev: &mut Vec<Event>) -> Flow {
    // Another command was applied: the last attack is no longer the one a late reflex answers
    // (reactions to that attack, and declining them, keep it).
    if !matches!(plan, Plan::Reflex { .. } | Plan::Respond { .. } | Plan::Decline { .. }) {
        m.clock.last_attack = None;
    }
    match plan {
        Plan::Explore { a, cmd } => return super::explore::apply(m, a, &cmd, dice, ev),
        Plan::A4 { a, cmd } => return super::a4::acts::apply(m, a, &cmd, dice, ev),
        Plan::Recovery { a, pool } => {
            m.fighters[a].recovery = Some(pool);
            ev.push(Event::RecoveryChoice { actor: m.fighters[a].id.clone(), pool });
            return advance(m, dice, ev);
        }
        Plan::FreeSteps { a, path } => {
            m.clock.last_closed = None;
            let f = &mut m.fighters[a];
            let from = f.pos;
            f.pos = *path.last().unwrap_or(&from);
            f.opp.free_steps = true;
            f.free_steps.lose(super::fighter::FreeStepsLoss::Used); // R-FS-3: the rest is forfeited
            ev.push(Event::FreeStepsUsed {
                actor: f.id.clone(),
                spaces: path.len() as u32,
                forfeited: f.free_steps.allowance.saturating_sub(path.len() as u32),
            });
            ev.push(Event::Moved { actor: f.id.clone(), movement: "free_steps".into(), from, to: f.pos, path: path.clone() });
            // R-EXP-19: sight is tested after every space entered, in a crisis too.
            super::explore::reveal_path(m, a, &path, ev);
        }
        Plan::Move { a, plan } => {
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
                    return advance(m, dice, ev);
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
                    actor: f.id.clone(),
                    movement: plan.row.id.clone(),
                    from,
                    to: plan.dest,
                    path: if plan.path.is_empty() { vec![plan.dest] } else { plan.path.clone() },
                });
                // R-EXP-19: sight is tested after every space entered, in a crisis too.
                super::explore::reveal_path(m, a, &plan.path, ev);
            }
            let f = &mut m.fighters[a];
            if let Some(p) = plan.posture {
                ev.push(Event::PostureChanged { actor: f.id.clone(), from: f.posture, to: p });
                f.posture = p;
            }
            let defense = if plan.row.defense_flat != 0
                && m.rules.options.run_penalty == super::profile::RunPenalty::Flat3
                && m.fighters[a].adjustments.iter().any(|x| x.source == plan.row.id)
            {
                0 // the flat Run penalty is one state, not cumulative
            } else if price != plan.price {
                super::movement::run_defense(m, &plan.row, price.ap)
            } else {
                plan.defense
            };
            add_adjustment(m, a, TempAdjustment { source: plan.row.id.clone(), target: AdjTarget::Defense, value: defense, scope: Scope::All }, ev);
            check_free_steps_kept(m, a, ev);
            if price.only || plan.row.counts_as_action {
                close_opportunity(m, false, ev);
            }
        }
        Plan::Action { a, plan } => {
            m.clock.last_closed = None;
            spend(m, a, plan.price, true, &plan.row.id, ev);
            {
                let f = &mut m.fighters[a];
                f.turn.did_anything = true;
                f.opp.action = Some(plan.row.id.clone());
                ev.push(Event::ActionTaken { actor: f.id.clone(), action: plan.row.id.clone(), target: plan.target.map(|t| m.fighters[t].id.clone()) });
            }
            // R-AP-6: the action's own Defense adjustment applies at declaration.
            add_adjustment(
                m,
                a,
                TempAdjustment { source: plan.row.id.clone(), target: AdjTarget::Defense, value: plan.row.defense, scope: plan.row.defense_scope },
                ev,
            );
            apply_effect(m, a, &plan, dice, ev);
            check_free_steps_kept(m, a, ev);
            // R-RNG-8: a crossbow reset may be followed by the shot in the same opportunity.
            if plan.row.effect != ActionEffect::ResetCrossbow || m.fighters[a].ap.current == 0 {
                close_opportunity(m, false, ev);
            }
            if let ActionEffect::Attack { attack: atk, damage, .. } = plan.row.effect {
                if let Some(t) = plan.target {
                    // R-RNG-8, R-RNG-9: a crossbow shot unloads it; shots and throws use ammunition.
                    let l = &mut m.fighters[a].loadout;
                    if let Some(w) = l.weapon.as_deref().and_then(|w| m.equipment.ranged(w)) {
                        if w.hand_reload_brawn.is_some() {
                            l.loaded = false;
                        }
                        if let Some(n) = l.ammo.as_mut() {
                            *n = n.saturating_sub(1);
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
                    ev.push(Event::AttackDeclared {
                        actor: m.fighters[a].id.clone(),
                        target: m.fighters[t].id.clone(),
                        action: plan.row.id.clone(),
                        melee: plan.melee,
                        reaction: false,
                    });
                    m.clock.last_attack = Some(LastAttack { attacker: a, defender: t, with: plan.row.id.clone(), melee: plan.melee });
                    open_reflex_window(m, p, dice, ev);
                }
            }
        }
        Plan::End { .. } => {
            close_opportunity(m, true, ev);
        }
        Plan::Reflex { a, row } => {
            let Some(mut p) = m.pending.take() else { return advance(m, dice, ev) };
            p.window = None;
            react_pay(m, a, &row, ev);
            ev.push(Event::ReflexDeclared { actor: m.fighters[a].id.clone(), reflex: row.id.clone(), attacker: m.fighters[p.attacker].id.clone() });
            let won = reflex_contest(m, a, p.attacker, &row, dice, ev);
            match (won, row.effect) {
                (true, ReactionEffect::Parry) => {
                    // R-REACT-5: blocked completely; the attacker's AP and penalties stay.
                    ev.push(Event::AttackBlocked { actor: m.fighters[p.attacker].id.clone(), target: m.fighters[a].id.clone(), by: row.id.clone() });
                    open_response_window(m, p, dice, ev);
                }
                (true, ReactionEffect::Counterattack) => {
                    let counter = PendingAttack {
                        attacker: a,
                        defender: p.attacker,
                        with: row.id.clone(),
                        melee: true,
                        attack_adj: row.attack,
                        damage_adj: 0,
                        window: None,
                        is_reaction: true,
                        shield_doubled: false,
                        damage_dealt: 0,
                        critical: None,
                        resumes: Some(Box::new(p)),
                    };
                    ev.push(Event::AttackDeclared {
                        actor: m.fighters[a].id.clone(),
                        target: m.fighters[counter.defender].id.clone(),
                        action: row.id.clone(),
                        melee: true,
                        reaction: true,
                    });
                    resolve_and_finish(m, counter, dice, ev);
                }
                (true, ReactionEffect::ShieldBlock) => {
                    p.shield_doubled = true;
                    resolve_and_finish(m, p, dice, ev);
                }
                _ => resolve_and_finish(m, p, dice, ev),
            }
        }
        Plan::Respond { a, row } => {
            let Some(p) = m.pending.take() else { return advance(m, dice, ev) };
            react_pay(m, a, &row, ev);
            ev.push(Event::ResponseDeclared { actor: m.fighters[a].id.clone(), response: row.id.clone(), attacker: m.fighters[p.attacker].id.clone() });
            // R-REACT-9: −1 per HP sustained from the attack answered.
            let riposte = PendingAttack {
                attacker: a,
                defender: p.attacker,
                with: row.id.clone(),
                melee: true,
                attack_adj: row.attack - p.damage_dealt,
                damage_adj: 0,
                window: None,
                is_reaction: true,
                shield_doubled: false,
                damage_dealt: 0,
                critical: None,
                resumes: None,
            };
            ev.push(Event::AttackDeclared {
                actor: m.fighters[a].id.clone(),
                target: m.fighters[p.attacker].id.clone(),
                action: row.id.clone(),
                melee: true,
                reaction: true,
            });
            resolve_and_finish(m, riposte, dice, ev);
        }
        Plan::Decline { a } => {
            ev.push(Event::ReactionDeclined { actor: m.fighters[a].id.clone() });
            continue_after_decline(m, dice, ev);
        }
    }
    advance(m, dice, ev)
}

fn react_pay(m: &mut Match, a: usize, row: &ReactionRow, ev: &mut Vec<Event>) {
    // R-AP-5: paid outside the opportunity, not toward its cap; G-10: counts as having acted.
    spend(m, a, Price { ap: row.cost, only: false }, false, &row.id, ev);
    m.fighters[a].turn.did_anything = true;
    // R-REACT-6/7: the reflex's own penalty applies win or lose.
    add_adjustment(m, a, TempAdjustment { source: row.id.clone(), target: AdjTarget::Attack, value: row.lasting_attack, scope: Scope::All }, ev);
    check_free_steps_kept(m, a, ev);
}

/// R-REACT-4: the attacker rolls first, the defender must equal or beat him.
fn reflex_contest(m: &Match, d: usize, a: usize, row: &ReactionRow, dice: &mut Dice, ev: &mut Vec<Event>) -> bool {
    let dice_kind = if m.rules.options.reflex_roll == ReflexRoll::FinesseAll { ReflexDice::FinesseVsFinesse } else { row.dice };
    let weapon_roll = |i: usize| {
        let f = &m.fighters[i];
        let w = m.equipment.wielded(f);
        let rank = match w.check_stat() {
            super::equipment::Stat::Brawn => f.stats.brawn,
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
    let at = log_roll(ev, dice, &m.fighters[a].id, &format!("{}_opposed", row.id), r);
    let r = stat_check(m, dice, def.0, def.1);
    let dt = log_roll(ev, dice, &m.fighters[d].id, &row.id, r);
    let won = dt >= at;
    ev.push(Event::ReflexOutcome { actor: m.fighters[d].id.clone(), reflex: row.id.clone(), success: won, attacker_total: at, defender_total: dt });
    won
}

fn open_reflex_window(m: &mut Match, mut p: PendingAttack, dice: &mut Dice, ev: &mut Vec<Event>) {
    let opts = if p.is_reaction { Vec::new() } else { options(m, p.defender, &p, ReactionKind::Reflex) };
    if opts.is_empty() {
        resolve_and_finish(m, p, dice, ev);
    } else {
        ev.push(Event::ReflexWindow { defender: m.fighters[p.defender].id.clone(), attacker: m.fighters[p.attacker].id.clone(), options: opts });
        p.window = Some(Window::Reflex);
        m.pending = Some(p);
    }
}

fn resolve_and_finish(m: &mut Match, mut p: PendingAttack, dice: &mut Dice, ev: &mut Vec<Event>) {
    attack::resolve(m, dice, &mut p, ev);
    if p.is_reaction {
        finish(m, p, dice, ev);
    } else {
        open_response_window(m, p, dice, ev);
    }
}

fn open_response_window(m: &mut Match, mut p: PendingAttack, dice: &mut Dice, ev: &mut Vec<Event>) {
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
                actor: m.fighters[orig.attacker].id.clone(),
                target: m.fighters[orig.defender].id.clone(),
                reason: "the counterattack left the attacker unable to act (G-48)".into(),
            });
        }
    }
}

fn continue_after_decline(m: &mut Match, dice: &mut Dice, ev: &mut Vec<Event>) {
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
    // A4: a window waits for its answer; other commands are refused (A4-4.1), not declining it.
    if matches!(cmd, Command::Delay { .. }) || m.a4.is_some() {
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
        if opportunity_cmd && m.index(cmd.actor()).is_some_and(|a| a != c) && m.fighters[c].opp.anything() {
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
        ev.push(Event::ReactionDeclined { actor: m.fighters[p.defender].id.clone() });
        continue_after_decline(m, dice, ev);
    }
}

fn apply_effect(m: &mut Match, a: usize, plan: &ActionPlan, dice: &mut Dice, ev: &mut Vec<Event>) {
    match &plan.row.effect {
        ActionEffect::Flop => {
            let f = &mut m.fighters[a];
            if let Some(p) = plan.posture {
                ev.push(Event::PostureChanged { actor: f.id.clone(), from: f.posture, to: p });
                f.posture = p;
            }
        }
        ActionEffect::Recover { amount, .. } => {
            let f = &mut m.fighters[a];
            let pool = plan.pool.unwrap_or(super::fighter::Pool::Mana);
            let (cur, max) = match pool {
                super::fighter::Pool::Mana => (&mut f.mp, f.max_mp),
                super::fighter::Pool::Faith => (&mut f.fp, f.max_fp),
            };
            let from = *cur;
            *cur = (*cur + *amount as i32).min(max).max(from);
            ev.push(Event::PoolChanged { actor: f.id.clone(), pool, from, to: *cur, reason: plan.row.id.clone() });
        }
        ActionEffect::UseItem => {
            let Some(id) = plan.item.clone() else { return };
            let item = m.equipment.item(&id).cloned();
            ev.push(Event::ItemUsed { actor: m.fighters[a].id.clone(), item: id.clone() });
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
                    attack::change_hp(m, a, v, &id, ev);
                    // Magical healing stops bleeding (R-INJ-7).
                    super::healing::stop_bleeding(&mut m.fighters[a], "magical healing", ev);
                }
            }
        }
        ActionEffect::FirstAid => {
            // R-HEAL-1..3: Healing (Savvy) check vs CR by the patient's status.
            let Some(t) = plan.target else { return };
            let Some(cr) = super::healing::first_aid_cr(attack::injury(&m.fighters[t]), t == a) else { return };
            let f = &m.fighters[a];
            let roll = stat_check(m, dice, f.stats.savvy, f.skill("healing").adjustment());
            let total = log_roll(ev, dice, &f.id.clone(), "first_aid", roll);
            // R-CP-9 (G-79): first aid is a task check for character points, once per patient.
            ev.push(Event::TaskCheck {
                actor: m.fighters[a].id.clone(),
                check: "first_aid".into(),
                object: format!("patient:{}", m.fighters[t].id),
                margin: total - cr,
            });
            if total >= cr {
                super::healing::stop_bleeding(&mut m.fighters[t], "first aid", ev);
            }
        }
        ActionEffect::GuideStunned => {
            let Some(t) = plan.target else { return };
            let tf = &mut m.fighters[t];
            match &plan.guide {
                Some(Guide::Sit) | None => {
                    ev.push(Event::PostureChanged { actor: tf.id.clone(), from: tf.posture, to: Posture::Sitting });
                    tf.posture = Posture::Sitting;
                }
                Some(Guide::LieDown) => {
                    ev.push(Event::PostureChanged { actor: tf.id.clone(), from: tf.posture, to: Posture::Prone });
                    tf.posture = Posture::Prone;
                }
                Some(Guide::Step(p)) => {
                    let from = tf.pos;
                    tf.pos = *p;
                    ev.push(Event::Moved { actor: tf.id.clone(), movement: "guided_step".into(), from, to: *p, path: vec![*p] });
                    super::explore::reveal_path(m, t, &[], ev); // R-EXP-19
                }
            }
        }
        ActionEffect::CastSpell => {
            if let (Some(id), Some(t)) = (plan.spell.clone(), plan.target) {
                super::spells::cast(m, a, &id, t, dice, ev);
            }
        }
        ActionEffect::ResetCrossbow => m.fighters[a].loadout.loaded = true,
        ActionEffect::ShieldBlock | ActionEffect::ReadyItem | ActionEffect::Attack { .. } => {}
    }
}

#[cfg(test)]
mod tests {
    use crate::testkit::duel;

    const ORC: &str =
        r#"(id: "orc", side: "monsters", pos: (1, 0), stats: (brawn: 8, finesse: 6, savvy: 4, nerve: 6), skills: {"maces": apprentice}, weapon: Some("mace"))"#;
    const ARCHER: &str = r#"(id: "orc", side: "monsters", pos: (3, 0), stats: (brawn: 5, finesse: 8, savvy: 6, nerve: 7), skills: {"bows": apprentice}, weapon: Some("shortbow"))"#;

    fn dara(skills: &str, weapon: &str) -> String {
        format!(
            r#"(id: "dara", side: "heroes", pos: (0, 0), stats: (brawn: 8, finesse: 8, savvy: 5, nerve: 7), skills: {{{skills}}}, weapon: Some("{weapon}"))"#
        )
    }

    const START: &str = r#"(characters: {"dara": (ap: 3), "orc": (ap: 4)})"#;
    // dara's Defense 2 + 2, the orc's Attack 1 + 1: a miss, no damage dice
    const MISS: [u32; 4] = [2, 2, 1, 1];

    #[test] // R-META-2: an A4 order (`round`) sent to a DoO match is refused, never the old `unreachable!` (issue 27, crash 3)
    fn an_a4_order_in_a_doo_match_is_r_meta_2() {
        let d = dara(r#""swords": journeyman"#, "broadsword");
        let mut g = duel(None, 6, &[&d, ORC], START, &MISS);
        for who in ["orc", "dara"] {
            let v = g.refused(&format!(r#"round(actor: "{who}", act: end_turn)"#));
            assert!(v.rule == "R-META-2" || v.also.iter().any(|r| r == "R-META-2") || v.rule == "R-TURN-9", "{who}: {} {}", v.rule, v.reason);
        }
        let v = g.refused(r#"round(actor: "orc", act: end_turn)"#);
        assert_eq!(v.rule, "R-META-2", "{}", v.reason);
        assert!(v.reason.contains("'round'"), "{}", v.reason);
    }

    #[test] // R-REACT-3: reflexes answer melee attacks only; a Parry after a shot names R-REACT-3, R-REACT-2 at most in `also`
    fn parry_after_a_ranged_attack_is_r_react_3() {
        let d = dara(r#""swords": foreman"#, "broadsword");
        let mut g = duel(None, 6, &[&d, ARCHER], START, &MISS);
        g.ok(r#"action(actor: "orc", action: "attack", target: Some("dara"))"#);
        assert!(g.m.pending.is_none(), "no reflex window against a shot");
        let v = g.refused(r#"reflex(actor: "dara", reflex: "parry")"#);
        assert_eq!(v.rule, "R-REACT-3", "{}", v.reason);
        assert_eq!(v.also, vec!["R-REACT-2".to_string()]);
        assert_eq!(g.fighter("dara").ap.current, 3);
    }

    #[test] // R-REACT-5: Parry needs Foreman rank; Journeyman Swords after a skipped window is R-REACT-5, not R-REACT-2
    fn parry_below_foreman_is_r_react_5() {
        let d = dara(r#""swords": journeyman"#, "broadsword");
        let mut g = duel(None, 6, &[&d, ORC], START, &MISS);
        g.ok(r#"action(actor: "orc", action: "attack", target: Some("dara"))"#);
        let v = g.refused(r#"reflex(actor: "dara", reflex: "parry")"#);
        assert_eq!(v.rule, "R-REACT-5", "{}", v.reason);
        assert_eq!(v.also, vec!["R-REACT-2".to_string()]);
    }

    #[test] // R-REACT-5: Counterattack needs Master rank; Foreman Swords (Parry only) is refused with R-REACT-5 in and after the window
    fn counterattack_below_master_is_r_react_5() {
        let d = dara(r#""swords": foreman"#, "broadsword");
        let mut g = duel(None, 6, &[&d, ORC], START, &MISS);
        g.ok(r#"action(actor: "orc", action: "attack", target: Some("dara"))"#);
        // the window is open (Parry): the refusal is the requirement, as before
        assert_eq!(g.refused(r#"reflex(actor: "dara", reflex: "counterattack")"#).rule, "R-REACT-5");
        g.ok(r#"decline(actor: "dara")"#);
        // the window is closed: still the requirement first, the timing in `also`
        let v = g.refused(r#"reflex(actor: "dara", reflex: "counterattack")"#);
        assert_eq!((v.rule.as_str(), v.also.clone()), ("R-REACT-5", vec!["R-REACT-2".to_string()]), "{}", v.reason);
        // a Parry he could have declared in time: the timing rule alone
        let v = g.refused(r#"reflex(actor: "dara", reflex: "parry")"#);
        assert_eq!((v.rule.as_str(), v.also.len()), ("R-REACT-2", 0), "{}", v.reason);
    }

    #[test] // R-REACT-5 during an open response window (R-REACT-8): Riposte is offered, a Parry below Foreman is R-REACT-5
    fn parry_in_a_response_window_is_r_react_5() {
        let d = r#"(id: "dara", side: "heroes", pos: (0, 0), stats: (brawn: 8, finesse: 8, savvy: 5, nerve: 7), skills: {"fencing": journeyman}, weapon: Some("dagger"), weapon_skill: Some("fencing"))"#;
        let mut g = duel(None, 6, &[d, ORC], START, &MISS);
        g.ok(r#"action(actor: "orc", action: "attack", target: Some("dara"))"#);
        let p = g.m.pending.as_ref().expect("a response window");
        assert_eq!(p.window, Some(super::Window::Response));
        let v = g.refused(r#"reflex(actor: "dara", reflex: "parry")"#);
        assert_eq!((v.rule.as_str(), v.also.clone()), ("R-REACT-5", vec!["R-REACT-2".to_string()]), "{}", v.reason);
        assert!(g.m.pending.as_ref().is_some_and(|p| p.window == Some(super::Window::Response)), "the window stays open");
        g.ok(r#"decline(actor: "dara")"#);
    }

    #[test] // R-REACT-2: with no attack on him, a reflex is refused for its timing; legal reflexes are unchanged
    fn reflex_without_an_attack_is_r_react_2() {
        let d = dara(r#""swords": master"#, "broadsword");
        let mut g = duel(None, 6, &[&d, ORC], START, &[2, 2, 3, 3]);
        let v = g.refused(r#"reflex(actor: "dara", reflex: "parry")"#);
        assert_eq!((v.rule.as_str(), v.also.len()), ("R-REACT-2", 0));
        g.ok(r#"action(actor: "orc", action: "attack", target: Some("dara"))"#);
        g.ok(r#"reflex(actor: "dara", reflex: "parry")"#);
        assert_eq!(g.fighter("dara").ap.current, 2);
        // another command applied since: the attack is no longer remembered
        g.ok(r#"pass(actor: "dara")"#);
        let v = g.refused(r#"reflex(actor: "dara", reflex: "counterattack")"#);
        assert_eq!(v.rule, "R-REACT-2");
    }

    #[test] // R-TURN-12: a character cannot delay; refused with R-TURN-12 and nothing changes
    fn delay_is_refused_with_r_turn_12() {
        let d = dara(r#""swords": master"#, "broadsword");
        let mut g = duel(None, 6, &[&d, ORC], START, &[]);
        assert_eq!(g.current(), Some("orc"));
        let v = g.refused(r#"delay(actor: "orc")"#);
        assert_eq!(v.rule, "R-TURN-12");
        assert!(v.reason.contains("cannot delay"), "{}", v.reason);
        assert_eq!(g.current(), Some("orc"), "the opportunity stays open");
        assert_eq!(g.refused(r#"delay(actor: "dara")"#).rule, "R-TURN-12", "out of turn too");
        // after he did something, a delay does not end his opportunity either
        g.ok(r#"move(actor: "orc", movement: "step", path: [(2, 0)])"#);
        assert_eq!(g.refused(r#"delay(actor: "dara")"#).rule, "R-TURN-12");
        assert_eq!(g.current(), Some("orc"));
        assert_eq!(g.refused(r#"delay(actor: "nobody")"#).rule, "INPUT");
    }

    #[test] // R-TURN-12: a delay does not decline an open reflex window
    fn delay_leaves_a_window_open() {
        let d = dara(r#""swords": master"#, "broadsword");
        let mut g = duel(None, 6, &[&d, ORC], START, &[2, 2, 3, 3]);
        g.ok(r#"action(actor: "orc", action: "attack", target: Some("dara"))"#);
        assert_eq!(g.refused(r#"delay(actor: "dara")"#).rule, "R-TURN-12");
        assert!(g.m.pending.as_ref().is_some_and(|p| p.window == Some(super::Window::Reflex)));
        g.ok(r#"reflex(actor: "dara", reflex: "parry")"#);
    }
}
