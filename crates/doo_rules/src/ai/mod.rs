//! The monster wrangler: chooses `Command`s for AI-controlled characters. Plain Rust over the
//! rules' `Match`; every candidate is checked with `engine::validate` before it is returned, so
//! the AI goes through exactly the validation a human does.
//!
//! A decision plans the whole opportunity — free steps, one movement, one action — scores it
//! with the outcome odds of the dice model, and returns its first command; the next call plans
//! again from the new state. Difficulties: easy (greedy, forgetful: ignores free steps and
//! reactions, noisy), normal (evaluates every reachable position and action, weighs the Defense
//! it gives up), hard (also weighs the enemies' answer next round).

pub mod a4;
mod book;
mod config;
pub mod explore;
pub mod odds;
mod opportunity;
mod search;
mod value;

pub use book::{AiBook, Behaviour, Difficulty, Thinking};
pub use config::AiConfig;
pub use opportunity::Budget;
pub use value::{Forecast, forecast};

use crate::rules::command::Command;
use crate::rules::dice::Dice;
use crate::rules::engine;
use crate::rules::profile::{ReactionEffect, ReactionKind};
use crate::rules::state::{Match, Window};
use opportunity::{Brief, Plan, plan_opportunity};
use value::attack_value;

/// A decision with what it cost: positions scored and whether the budget cut the search short.
#[derive(Clone, Debug)]
pub struct Decision {
    pub commands: Vec<Command>,
    pub spots: usize,
    pub cut: bool,
}

/// Which AI-controlled character must decide now, if any.
pub fn who_decides(m: &Match, cfg: &AiConfig) -> Option<usize> {
    if crate::rules::explore::exploring(m) {
        return explore::who_explores(m, cfg);
    }
    if let Some(p) = &m.pending {
        if p.window.is_some() {
            return cfg.controls(m, p.defender).map(|_| p.defender);
        }
    }
    let c = m.clock.current?;
    cfg.controls(m, c).map(|_| c)
}

/// The next command for character `a` (the opportunity holder or a window's defender).
pub fn decide(m: &Match, a: usize, cfg: &AiConfig) -> Command {
    decide_plan(m, a, cfg).into_iter().next().unwrap_or(Command::End { actor: m.fighters[a].id.clone() })
}

/// The commands of the chosen plan for `a`, the first one checked against the rules (the rest
/// are checked again when their turn comes).
pub fn decide_plan(m: &Match, a: usize, cfg: &AiConfig) -> Vec<Command> {
    decide_traced(m, a, cfg).commands
}

/// `decide_plan` with its cost.
pub fn decide_traced(m: &Match, a: usize, cfg: &AiConfig) -> Decision {
    if crate::rules::explore::exploring(m) {
        return Decision { commands: vec![explore::decide(m, a, cfg)], spots: 0, cut: false };
    }
    if m.a4.is_some() {
        return Decision { commands: vec![a4::decide(m, a, cfg)], spots: 0, cut: false };
    }
    let diff = cfg.controls(m, a).unwrap_or_default();
    let id = m.fighters[a].id.clone();
    if let Some(p) = &m.pending {
        if p.window.is_some() && p.defender == a {
            let reacts = cfg.book.thinking(diff).reacts;
            let r = if reacts { react(m, a) } else { None };
            return Decision { commands: vec![r.unwrap_or(Command::Decline { actor: id })], spots: 0, cut: false };
        }
    }
    let start = std::time::Instant::now();
    let (th, exits) = (*cfg.book.thinking(diff), cfg.exits.get(&m.fighters[a].side));
    let brief = Brief { behaviour: cfg.behaviour(m, a), th, seed: cfg.seed, budget: cfg.budget, exits };
    let (plans, spots, cut) = plan_opportunity(m, a, &brief, start);
    for plan in &plans {
        if let Some(commands) = valid_commands(m, a, plan) {
            return Decision { commands, spots, cut };
        }
    }
    Decision { commands: vec![Command::End { actor: id }], spots, cut }
}

/// Checks the plan step by step on a copy of the match and returns its first command.
fn valid_commands(m: &Match, a: usize, plan: &Plan) -> Option<Vec<Command>> {
    let f = &m.fighters[a];
    let mut cmds = Vec::new();
    if !plan.free.is_empty() {
        cmds.push(Command::FreeSteps { actor: f.id.clone(), path: plan.free.clone() });
    }
    if let Some((mv, path, posture)) = &plan.movement {
        cmds.push(Command::Move { actor: f.id.clone(), movement: mv.clone(), path: path.clone(), posture: *posture, tumble: false });
    }
    if let Some(act) = &plan.action {
        cmds.push(act.clone());
    }
    if cmds.is_empty() {
        return Some(vec![if f.opp.anything() { Command::End { actor: f.id.clone() } } else { Command::Pass { actor: f.id.clone() } }]);
    }
    if cmds.len() == 1 {
        return engine::validate(m, &cmds[0]).ok().map(|_| cmds);
    }
    // Only movement and free steps are applied on the copy (they throw no dice).
    let mut sim = m.clone();
    let mut dice = Dice::seeded(0);
    let mut ev = Vec::new();
    for (k, c) in cmds.iter().enumerate() {
        let plan = engine::validate(&sim, c).ok()?;
        if k + 1 < cmds.len() {
            engine::apply(&mut sim, plan, &mut dice, &mut ev);
            if sim.clock.current != Some(a) {
                return None;
            }
        }
    }
    Some(cmds)
}

/// A reflex or response when one is open and worth its AP (difficulties that react).
fn react(m: &Match, a: usize) -> Option<Command> {
    let p = m.pending.as_ref()?;
    let kind = if p.window == Some(Window::Reflex) { ReactionKind::Reflex } else { ReactionKind::Response };
    let opts = crate::rules::reactions::options(m, a, p, kind);
    let f = &m.fighters[a];
    let incoming = attack_value(m, p.attacker, m.fighters[p.attacker].pos, a, p.attack_adj, p.damage_adj);
    let mut best: Option<(f64, String)> = None;
    for id in opts {
        let Some(row) = m.rules.reaction(&id) else { continue };
        let value = match row.effect {
            ReactionEffect::Parry | ReactionEffect::ShieldBlock => incoming * 0.5 - row.cost as f64 * 0.3,
            ReactionEffect::Counterattack => attack_value(m, a, f.pos, p.attacker, row.attack, 0) * 0.5 - row.cost as f64 * 0.3,
            ReactionEffect::Riposte => attack_value(m, a, f.pos, p.attacker, row.attack - p.damage_dealt, 0) - row.cost as f64 * 0.3,
        };
        if value > 0.2 && best.as_ref().is_none_or(|b| value > b.0) {
            best = Some((value, id));
        }
    }
    let (_, id) = best?;
    let cmd =
        if kind == ReactionKind::Reflex { Command::Reflex { actor: f.id.clone(), reflex: id } } else { Command::Respond { actor: f.id.clone(), response: id } };
    engine::validate(m, &cmd).ok().map(|_| cmd)
}
