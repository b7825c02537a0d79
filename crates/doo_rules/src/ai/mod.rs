//! The monster wrangler: chooses `Command`s for AI-controlled characters. Plain Rust over the
//! rules' `Match`; every candidate is checked with `engine::validate` before it is returned, so
//! the AI goes through exactly the validation a human does.
//!
//! A decision plans the whole opportunity — free steps, one movement, one action — scores it
//! with the outcome odds of the dice model, and returns its first command; the next call plans
//! again from the new state. Difficulties: easy (greedy, forgetful: ignores free steps and
//! reactions, noisy), normal (evaluates every reachable position and action, weighs the Defense
//! it gives up; slips now and then), hard (also weighs the enemies' answer next round and plays
//! its best plans ahead, `lookahead`), and sharp, the reference tier (normal without its slips;
//! docs/ai.md).

pub mod a4;
mod book;
mod config;
mod copies;
pub mod explore;
mod lookahead;
mod noise;
pub mod odds;
mod opportunity;
mod orders;
mod party;
#[cfg(test)]
mod party_tests;
mod paths;
mod search;
mod shapes;
mod value;

pub use book::Lookahead;
pub use book::{AiBook, Behaviour, Crawl, Difficulty, Party, Thinking};
pub use config::{AiConfig, PlanCache};
pub use opportunity::Budget;
pub use value::{Forecast, forecast, spell_forecast};

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
    // Issue 46: a level event's choice waits for its side: its first figure able to act (or
    // any of it) answers, when the AI plays that side.
    if crate::rules::event_choice::pending(m).is_some() {
        let first = crate::rules::event_choice::chooser(m)?;
        return cfg.controls(m, first).map(|_| first);
    }
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
    // Issue 46: the AI answers a level event's choice with its first option (the designer's
    // lead), the same in every replay.
    if crate::rules::event_choice::pending(m).is_some() {
        return Decision { commands: vec![Command::Choose { actor: m.fighters[a].id.clone(), option: 0 }], spots: 0, cut: false };
    }
    if crate::rules::explore::exploring(m) {
        return Decision { commands: vec![explore::decide(m, a, cfg)], spots: 0, cut: false };
    }
    let start = std::time::Instant::now();
    // Line of sight is remembered for the whole decision (the board does not change while it
    // is made: the same answers, far fewer walks; the lookahead's futures share it).
    let _memo = value::SightMemo::start();
    let diff = cfg.controls(m, a).unwrap_or_default();
    let mut th = *cfg.book.thinking(diff);
    if m.a4.is_none() && !th.lookahead.is_some_and(|la| la.doo_profiles) {
        th.lookahead = None;
    }
    // A decision that cannot look ahead (far from the enemies, or a crowded board's budget
    // short of one sweep) takes the planner's first choice, as the lookahead would: its other
    // candidates are not built (the same choice, less time).
    if th.lookahead.is_some_and(|la| !lookahead::looks(m, a, &la)) {
        th.lookahead = None;
    }
    let id = m.fighters[a].id.clone();
    if m.a4.is_some() {
        let first = a4::decide(m, a, cfg);
        if let Some(la) = &th.lookahead {
            let mut cands = vec![vec![first.clone()]];
            cands.extend(a4::candidates(m, a).into_iter().filter(|c| *c != first).map(|c| vec![c]));
            cands.truncate(la.candidates.max(2));
            if let Some(ch) = lookahead::choose(m, a, cfg, la, cands, start, &policy) {
                return Decision { commands: ch.commands, spots: ch.simulated, cut: ch.cut };
            }
        }
        return Decision { commands: vec![first], spots: 0, cut: false };
    }
    if let Some(p) = &m.pending {
        if p.window.is_some() && p.defender == a {
            let r = if th.reacts { react(m, a) } else { None };
            let first = r.unwrap_or(Command::Decline { actor: id.clone() });
            if let Some(la) = &th.lookahead {
                let mut cands = vec![vec![first.clone()]];
                cands.extend(reaction_commands(m, a).into_iter().filter(|c| *c != first).map(|c| vec![c]));
                cands.truncate(la.candidates.max(2));
                if let Some(ch) = lookahead::choose(m, a, cfg, la, cands, start, &policy) {
                    return Decision { commands: ch.commands, spots: ch.simulated, cut: ch.cut };
                }
            }
            return Decision { commands: vec![first], spots: 0, cut: false };
        }
    }
    let exits = cfg.exits.get(&m.fighters[a].side);
    let brief = Brief { behaviour: cfg.behaviour(m, a), th, seed: cfg.seed, budget: cfg.budget, exits, walked: cfg.book.crawl.walked_distance };
    let (plans, spots, cut) = plan_opportunity(m, a, &brief, start);
    let mut cands: Vec<Vec<Command>> = Vec::new();
    let want = th.lookahead.map_or(1, |la| la.candidates);
    // Hard weighs different ideas first, not the same attack from two spaces (the best plan of
    // each action, target and kind, and the best without one), then the next best variants.
    let mut ideas: Vec<Option<&Command>> = Vec::new();
    let mut variants: Vec<Vec<Command>> = Vec::new();
    for plan in &plans {
        let Some(commands) = valid_commands(m, a, plan) else { continue };
        if cands.contains(&commands) || variants.contains(&commands) {
            continue;
        }
        let idea = plan.action.as_ref();
        if ideas.contains(&idea) {
            variants.push(commands);
        } else {
            ideas.push(idea);
            cands.push(commands);
        }
        if cands.len() >= want {
            break;
        }
    }
    while cands.len() < want && !variants.is_empty() {
        cands.push(variants.remove(0));
    }
    if let Some(la) = &th.lookahead {
        cands.truncate(la.candidates.max(2));
        let end = vec![Command::End { actor: id.clone() }];
        if !cands.is_empty() && !cands.contains(&end) && engine::validate(m, &end[0]).is_ok() && m.fighters[a].opp.anything() {
            cands.push(end);
        }
        if la.shapes && !cands.is_empty() {
            // The first plan's action with no movement (the AP kept for reactions), then
            // keeping away; each once.
            let first_action =
                cands[0].last().filter(|c| !matches!(c, Command::Move { .. } | Command::FreeSteps { .. } | Command::End { .. } | Command::Pass { .. }));
            let mut extra: Vec<Vec<Command>> = Vec::new();
            if let Some(act) = first_action {
                if let Some(c) = plans.iter().filter(|p| p.movement.is_none() && p.action.as_ref() == Some(act)).find_map(|p| valid_commands(m, a, p)) {
                    extra.push(c);
                }
            }
            if m.fighters[a].opp.action.is_none() {
                extra.extend(shapes::keep_away_plans(m, a, &brief, la.edge).iter().filter_map(|p| valid_commands(m, a, p)));
            }
            for c in extra {
                if !cands.contains(&c) {
                    cands.push(c);
                }
            }
        }
        let pass = vec![Command::Pass { actor: id.clone() }];
        if la.pass && !cands.is_empty() && !cands.contains(&pass) && !m.fighters[a].opp.anything() && engine::validate(m, &pass[0]).is_ok() {
            cands.push(pass);
        }
        if let Some(ch) = lookahead::choose(m, a, cfg, la, cands.clone(), start, &policy) {
            return Decision { commands: ch.commands, spots: spots + ch.simulated, cut: cut || ch.cut };
        }
    }
    match cands.into_iter().next() {
        Some(commands) => Decision { commands, spots, cut },
        None => Decision { commands: vec![Command::End { actor: id }], spots, cut },
    }
}

/// The futures' policy: `next_command` as (sender, command, positions scored to choose it).
fn policy(m: &Match, cfg: &AiConfig, plan: &mut PlanCache) -> Option<(usize, Command, usize)> {
    next_command(m, cfg, plan).map(|n| (n.actor, n.command, n.decision.map_or(0, |d| d.spots)))
}

/// Every answer open to `a` in a reaction window: declining, and each reaction it may take.
fn reaction_commands(m: &Match, a: usize) -> Vec<Command> {
    let Some(p) = m.pending.as_ref() else { return vec![] };
    let f = &m.fighters[a];
    let kind = if p.window == Some(Window::Reflex) { ReactionKind::Reflex } else { ReactionKind::Response };
    let mut out = vec![Command::Decline { actor: f.id.clone() }];
    for id in crate::rules::reactions::options(m, a, p, kind) {
        let c = if kind == ReactionKind::Reflex {
            Command::Reflex { actor: f.id.clone(), reflex: id }
        } else {
            Command::Respond { actor: f.id.clone(), response: id }
        };
        if engine::validate(m, &c).is_ok() {
            out.push(c);
        }
    }
    out
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
    let mut sim = copies::fogless(m);
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

/// The AI's next command, as every AI seat sends it (the window, `simulate`, the tournament):
/// who sends it, the command, and the decision when one was made (None: the cached plan's next
/// step, still legal, was taken).
pub struct Next {
    pub actor: usize,
    pub command: Command,
    pub decision: Option<Decision>,
}

/// The next command for the AI seats of `cfg` in `m`, if an AI character must decide now. An
/// opportunity's plan is followed while its next step is still legal; otherwise it plans again.
pub fn next_command(m: &Match, cfg: &AiConfig, plan: &mut PlanCache) -> Option<Next> {
    let a = who_decides(m, cfg)?;
    let in_window = m.pending.as_ref().is_some_and(|p| p.window.is_some());
    let key = (a, m.clock.turn, m.clock.round);
    let cached = match plan.as_mut() {
        Some((pa, pt, pr, rest)) if !in_window && (*pa, *pt, *pr) == key => rest.pop_front().filter(|c| engine::validate(m, c).is_ok()),
        _ => None,
    };
    if let Some(command) = cached {
        return Some(Next { actor: a, command, decision: None });
    }
    let decision = decide_traced(m, a, cfg);
    let mut cmds: std::collections::VecDeque<_> = decision.commands.iter().cloned().collect();
    let command = cmds.pop_front().unwrap_or_else(|| decide(m, a, cfg));
    *plan = if in_window { None } else { Some((key.0, key.1, key.2, cmds)) };
    Some(Next { actor: a, command, decision: Some(decision) })
}
