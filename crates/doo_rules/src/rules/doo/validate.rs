//! The DoO profiles' crisis, checked (R-AP-1): reset recovery, reflexes and responses (with a
//! late reflex refused for what it fails, R-REACT-2..5), no delaying (R-TURN-12), and the
//! opportunity's free steps, movements and actions. Pure: returns a `Plan` or a `Violation`.

use super::super::actions::check_action;
use super::super::command::Command;
use super::super::fighter::Pool;
use super::super::free_steps::check_free_steps;
use super::super::movement::check_move;
use super::super::plan::{self, Plan};
use super::super::profile::{ReactionKind, ReactionRow, ResetRecovery};
use super::super::reactions::check_reaction;
use super::super::spending::guard_opportunity;
use super::super::state::{Match, PendingAttack, Window};
use super::super::violation::{RuleResult, Violation};

/// `cmd` checked as the DoO crisis checks it, its actor looked up first (`plan::actor`): what
/// the DoO previews ask of each offer.
pub fn check(m: &Match, cmd: &Command) -> RuleResult<Plan> {
    let a = plan::actor(m, cmd)?;
    validate(m, a, cmd)
}

/// Checks a command of `a` in a DoO crisis without changing anything (R-AP-1).
pub fn validate(m: &Match, a: usize, cmd: &Command) -> RuleResult<Plan> {
    match cmd {
        Command::Recovery { pool, .. } => {
            if m.rules.options.reset_recovery == ResetRecovery::ManaOnly && *pool == Pool::Faith {
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
                Some(id) => Some(m.index(id).ok_or_else(|| Violation::new("INPUT", format!("There is no character with id '{id}'.")))?),
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
                super::super::command::command_name(other),
                m.rules.profile,
                m.fighters[a].name
            ),
        )),
    }
}
