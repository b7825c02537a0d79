//! The monster AI under ruleset A4: one act at a time, each checked with `engine::validate`
//! before it is returned. It always takes its attack of opportunity (A4-4.1), defends
//! reactively when the attack would likely hit and its own penalty is still low (A4-3.21), and
//! in its turn shoots, attacks (a full attack when it has the whole round), charges, or closes
//! in by the path that draws the fewest attacks of opportunity. A shooter with only long shots
//! holds its action for a melee foe coming at it (A4-3.16); held strikes are always taken.

use super::config::AiConfig;
use crate::rules::a4::acts::{HELD, OPPORTUNITY, REACTIVE, RoundAct};
use crate::rules::a4::{self, Task};
use crate::rules::command::Command;
use crate::rules::engine;
use crate::rules::equipment::Wielded;
use crate::rules::grid::Pos;
use crate::rules::profile::Posture;
use crate::rules::state::Match;

fn ok(m: &Match, c: Command) -> Option<Command> {
    engine::validate(m, &c).is_ok().then_some(c)
}

fn act(m: &Match, a: usize, act: RoundAct) -> Option<Command> {
    ok(m, Command::Round { actor: m.fighters[a].id.clone(), act })
}

/// The next command for `a` (the figure whose turn it is, or the one a window asks).
pub fn decide(m: &Match, a: usize, cfg: &AiConfig) -> Command {
    let id = m.fighters[a].id.clone();
    let end = Command::Round { actor: id.clone(), act: RoundAct::EndTurn };
    if let Some(p) = m.pending.as_ref().filter(|p| p.window.is_some() && p.defender == a) {
        let decline = Command::Decline { actor: id.clone() };
        let reacts = cfg.book.thinking(cfg.controls(m, a).unwrap_or_default()).reacts;
        let choice = match m.a4.as_deref().and_then(|x| x.tasks.front()) {
            Some(Task::OfferAoo { .. }) => ok(m, Command::Reflex { actor: id, reflex: OPPORTUNITY.into() }),
            Some(Task::OfferHeld { .. }) => ok(m, Command::Reflex { actor: id, reflex: HELD.into() }),
            Some(Task::Attack(spec)) if reacts => {
                let hit = a4::odds(m, p.attacker, a, spec.dice).map_or(0.0, |o| o.hit);
                let spent = a4::st(m, a).reactive;
                (hit >= 0.5 && spent == 0).then(|| ok(m, Command::Reflex { actor: id, reflex: REACTIVE.into() })).flatten()
            }
            _ => None,
        };
        return choice.unwrap_or(decline);
    }
    // A weaker difficulty loses track of the fight for a whole turn now and then: it still
    // moves, but makes no attack or charge (the same slip as under the DOO profiles).
    let th = cfg.book.thinking(cfg.controls(m, a).unwrap_or_default());
    let forgets = th.forget_action > 0.0 && super::noise::turn_noise(cfg.seed, m, a) < th.forget_action;
    turn(m, a, forgets).unwrap_or(end)
}

/// Expected damage of one attack on `t` with `extra` dice (undefended odds are an upper bound;
/// the reactive chance is used when the target can react).
fn value(m: &Match, a: usize, t: usize, extra: i32) -> f64 {
    a4::odds(m, a, t, extra).map_or(0.0, |o| {
        let hit = o.hit_defended.map_or(o.hit, |d| d.1);
        o.expected_damage * if o.hit > 0.0 { hit / o.hit } else { 0.0 }
    })
}

fn enemies(m: &Match, a: usize) -> Vec<usize> {
    (0..m.fighters.len()).filter(|&t| t != a && m.enemies(a, t) && !m.is_dead(t) && !m.fighters[t].dormant).collect()
}

fn turn(m: &Match, a: usize, forgets: bool) -> Option<Command> {
    let r = a4::st(m, a).clone();
    let f = &m.fighters[a];
    // A4-3.20: a dying friend next to it is stabilized first (free).
    let dying = (0..m.fighters.len()).find_map(|t| act(m, a, RoundAct::Stabilize { target: m.fighters[t].id.clone() }).filter(|_| !m.enemies(a, t)));
    if dying.is_some() {
        return dying;
    }
    // A4-3.7: a sheathed weapon is drawn.
    if r.sheathed {
        if let Some(c) = act(m, a, RoundAct::Draw) {
            return Some(c);
        }
    }
    if f.posture == Posture::Prone {
        if let Some(c) = act(m, a, RoundAct::StandUp) {
            return Some(c);
        }
    }
    let foes = enemies(m, a);
    if foes.is_empty() {
        return None;
    }
    let ranged = matches!(m.equipment.wielded(f), Wielded::Ranged(_));
    if let Wielded::Ranged(w) = m.equipment.wielded(f) {
        if w.hand_reload_brawn.is_some() && !f.loadout.loaded {
            if let Some(c) = act(m, a, RoundAct::Reload) {
                return Some(c);
            }
        }
    }
    // A shooter next to a foe steps away first when it can (A4-3.19).
    if ranged && !r.stepped && !r.moved && !a4::threateners(m, a, f.pos).is_empty() {
        let here = f.pos;
        let step = (-1..=1)
            .flat_map(|dy| (-1..=1).map(move |dx| Pos::on(here.x + dx, here.y + dy, here.floor)))
            .filter(|&q| q != here && a4::threateners(m, a, q).is_empty())
            .find_map(|q| act(m, a, RoundAct::Step { to: q }));
        if step.is_some() {
            return step;
        }
    }
    // Attack the best target in reach or range.
    let best = foes
        .iter()
        .filter(|_| !forgets)
        .filter(|&&t| act(m, a, RoundAct::Attack { target: m.fighters[t].id.clone() }).is_some())
        .map(|&t| (t, value(m, a, t, 0)))
        .max_by(|x, y| x.1.total_cmp(&y.1));
    // A4-3.16, A4-4.3: a shooter whose best shot now is a long one (under a third to hit) holds
    // for the melee foe running at it, to shoot it at base range (TN 15) as it comes.
    if let (true, Wielded::Ranged(w)) = (!r.acted(), m.equipment.wielded(f)) {
        let long_shot = best.is_none_or(|(t, _)| a4::odds(m, a, t, 0).is_none_or(|o| o.hit_defended.map_or(o.hit, |d| d.1) < 1.0 / 3.0));
        // ... a foe whose nearest enemy is this shooter, not engaged with anyone else
        let coming = foes.iter().any(|&t| {
            let at = m.fighters[t].pos;
            let d = f.pos.distance(at);
            let nearest = enemies(m, t).into_iter().min_by_key(|&e| (m.fighters[e].pos.distance(at), e));
            m.equipment.wielded(&m.fighters[t]).is_melee() && nearest == Some(a) && d > w.range && d <= w.range + 2 * a4::speed(m, t)
        });
        if long_shot && coming && !forgets {
            if let Some(c) = act(m, a, RoundAct::Hold { trigger: crate::rules::a4::book::Trigger::EnemyEntersRange }) {
                return Some(c);
            }
        }
    }
    if let Some((t, one)) = best {
        let tid = m.fighters[t].id.clone();
        if !r.acted() {
            let fa = crate::rules::a4::acts::full_attack_row(m, a);
            let full = value(m, a, t, -fa.penalty_dice) * fa.attacks as f64;
            if full > one {
                if let Some(c) = act(m, a, RoundAct::FullAttack { targets: vec![tid.clone()] }) {
                    return Some(c);
                }
            }
        }
        if let Some(c) = act(m, a, RoundAct::Attack { target: tid }) {
            return Some(c);
        }
    }
    if best.is_some() || r.standard && r.move_ {
        return None;
    }
    // A charge at the nearest foe it can reach in a straight line.
    if !ranged && !r.acted() && !forgets {
        let mut targets = foes.clone();
        targets.sort_by_key(|&t| f.pos.distance(m.fighters[t].pos));
        for t in targets {
            if let Some(c) = act(m, a, RoundAct::Charge { target: m.fighters[t].id.clone(), path: Vec::new() }) {
                return Some(c);
            }
        }
    }
    // Close in: the reachable square nearest a foe, then fewest provokers, then a move over a run.
    let near = |p: Pos| foes.iter().map(|&t| p.distance(m.fighters[t].pos)).min().unwrap_or(u32::MAX);
    let now = near(f.pos);
    let dests = crate::rules::a4::preview::destinations(m, a);
    let pick = dests
        .values()
        .filter(|d| !matches!(d.command, Command::Round { act: RoundAct::Run { .. }, .. }) || !ranged)
        .min_by_key(|d| (near(d.pos).max(1), d.provokes.len(), d.kind, d.path.len()))?;
    if near(pick.pos) >= now {
        return None;
    }
    // A shooter stops where it can shoot, if it gets closer at all.
    Some(pick.command.clone())
}

/// The acts open to `a` now that hard weighs beside `decide`'s choice: in a window, declining
/// or each reaction; in its turn, an attack, a full attack or a charge at each foe, full
/// defense, ending the turn, and for each foe the move that gets nearest it (fewest attacks of
/// opportunity drawn first), and the nearest move that draws none.
pub fn candidates(m: &Match, a: usize) -> Vec<Command> {
    let id = m.fighters[a].id.clone();
    let mut out: Vec<Command> = Vec::new();
    let mut push = |c: Command| {
        if !out.contains(&c) && engine::validate(m, &c).is_ok() {
            out.push(c);
        }
    };
    if m.pending.as_ref().is_some_and(|p| p.window.is_some() && p.defender == a) {
        push(Command::Decline { actor: id.clone() });
        for r in [OPPORTUNITY, HELD, REACTIVE] {
            push(Command::Reflex { actor: id.clone(), reflex: r.into() });
        }
        return out;
    }
    let round = |act: RoundAct| Command::Round { actor: id.clone(), act };
    let foes = enemies(m, a);
    for &t in &foes {
        let tid = m.fighters[t].id.clone();
        push(round(RoundAct::Attack { target: tid.clone() }));
        push(round(RoundAct::FullAttack { targets: vec![tid.clone()] }));
        push(round(RoundAct::Charge { target: tid, path: Vec::new() }));
    }
    let dests = crate::rules::a4::preview::destinations(m, a);
    for &t in &foes {
        let at = m.fighters[t].pos;
        if let Some(d) = dests.values().min_by_key(|d| (d.pos.distance(at).max(1), d.provokes.len(), d.kind, d.path.len())) {
            push(d.command.clone());
        }
    }
    let near = |p: Pos| foes.iter().map(|&t| p.distance(m.fighters[t].pos)).min().unwrap_or(u32::MAX);
    if let Some(d) = dests.values().filter(|d| d.provokes.is_empty()).min_by_key(|d| (near(d.pos).max(1), d.kind, d.path.len())) {
        push(d.command.clone());
    }
    push(round(RoundAct::FullDefense));
    push(round(RoundAct::EndTurn));
    out
}
