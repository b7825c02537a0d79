//! The monster wrangler: chooses `Command`s for AI-controlled characters. Plain Rust over the
//! rules' `Match`; every candidate is checked with `engine::validate` before it is returned, so
//! the AI goes through exactly the validation a human does.
//!
//! A decision plans the whole opportunity — free steps, one movement, one action — scores it
//! with the outcome odds of the dice model, and returns its first command; the next call plans
//! again from the new state. Difficulties: easy (greedy, forgetful: ignores free steps and
//! reactions, noisy), normal (evaluates every reachable position and action, weighs the Defense
//! it gives up), hard (also weighs the enemies' answer next round).

pub mod odds;

use crate::rules::actions::is_attack;
use crate::rules::command::Command;
use crate::rules::dice::Dice;
use crate::rules::engine;
use crate::rules::equipment::Wielded;
use crate::rules::grid::{Pos, Sight};
use crate::rules::profile::{ActionEffect, ActionRow, MovementEffect, Posture, ReactionEffect, ReactionKind};
use crate::rules::state::{Match, Window};
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, VecDeque};

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, Default, Hash, PartialOrd, Ord)]
#[serde(rename_all = "snake_case")]
pub enum Difficulty {
    Easy,
    #[default]
    Normal,
    Hard,
}

impl std::str::FromStr for Difficulty {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        match s {
            "easy" => Ok(Difficulty::Easy),
            "normal" => Ok(Difficulty::Normal),
            "hard" => Ok(Difficulty::Hard),
            _ => Err(format!("unknown difficulty '{s}' (easy, normal, hard)")),
        }
    }
}

/// How a monster template fights (level `behaviour`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Behaviour {
    #[default]
    Brute,
    Skirmisher,
    Archer,
    Coward,
}

impl Behaviour {
    pub fn parse(s: Option<&str>) -> Self {
        match s {
            Some("skirmisher") => Behaviour::Skirmisher,
            Some("archer") => Behaviour::Archer,
            Some("coward") => Behaviour::Coward,
            _ => Behaviour::Brute,
        }
    }
}

/// Who the AI plays and how.
#[derive(Clone, Debug, Default)]
pub struct AiConfig {
    pub sides: BTreeMap<String, Difficulty>,
    pub behaviours: BTreeMap<String, Behaviour>,
    /// Spaces a side wins by reaching (the level's ReachExit goals).
    pub exits: BTreeMap<String, Vec<Pos>>,
    pub seed: u64,
}

impl AiConfig {
    pub fn controls(&self, m: &Match, i: usize) -> Option<Difficulty> {
        self.sides.get(&m.fighters[i].side).copied()
    }
    fn behaviour(&self, m: &Match, i: usize) -> Behaviour {
        self.behaviours.get(&m.fighters[i].id).copied().unwrap_or_default()
    }
}

/// Which AI-controlled character must decide now, if any.
pub fn who_decides(m: &Match, cfg: &AiConfig) -> Option<usize> {
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
    let diff = cfg.controls(m, a).unwrap_or_default();
    let id = m.fighters[a].id.clone();
    if let Some(p) = &m.pending {
        if p.window.is_some() && p.defender == a {
            return vec![react(m, a, diff).unwrap_or(Command::Decline { actor: id })];
        }
    }
    let plans = plan_opportunity(m, a, cfg, diff);
    for plan in plans {
        if let Some(cmds) = valid_commands(m, a, &plan) {
            return cmds;
        }
    }
    vec![Command::End { actor: id }]
}

/// Candidates checked against the rules per decision, best first.
const MAX_PLANS: usize = 24;

/// A whole opportunity: optional free-step path, optional movement, optional action.
#[derive(Clone, Debug)]
struct Plan {
    free: Vec<Pos>,
    movement: Option<(String, Vec<Pos>, Option<Posture>)>,
    action: Option<Command>,
    score: f64,
}

/// A scored candidate before its commands are built (most are never built).
#[derive(Clone, Copy, Debug)]
struct Light {
    score: f64,
    spot: Pos,
    what: What,
}

#[derive(Clone, Copy, Debug)]
enum What {
    Attack { target: usize, row: usize },
    Spell { target: usize, spell: usize },
    Move,
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

/// Who stands where (living figures), for the searches below.
fn occupancy(m: &Match) -> std::collections::HashMap<Pos, usize> {
    (0..m.fighters.len()).filter(|&i| !m.is_dead(i)).map(|i| (m.fighters[i].pos, i)).collect()
}

/// Spaces reachable by single legal steps from any of `sources` (each with the free-step path
/// that led there), up to `max_cost` spaces of movement: final space → (free path, movement
/// path). Enemies block; allies may be passed but not ended on.
fn reachable_from(
    m: &Match,
    a: usize,
    occ: &std::collections::HashMap<Pos, usize>,
    sources: &[(Pos, Vec<Pos>)],
    max_cost: u32,
) -> BTreeMap<Pos, (Vec<Pos>, Vec<Pos>)> {
    let mut out: BTreeMap<Pos, (Vec<Pos>, Vec<Pos>)> = BTreeMap::new();
    let mut queue = VecDeque::new();
    for (p, free) in sources {
        if !out.contains_key(p) {
            out.insert(*p, (free.clone(), Vec::new()));
            queue.push_back((*p, 0u32));
        }
    }
    while let Some((p, cost)) = queue.pop_front() {
        let (free, path) = out[&p].clone();
        for dy in -1..=1 {
            for dx in -1..=1 {
                if (dx, dy) == (0, 0) {
                    continue;
                }
                let q = Pos::on(p.x + dx, p.y + dy, p.floor);
                if out.contains_key(&q) {
                    continue;
                }
                let c = cost + m.board.path_cost(&[q]);
                if c > max_cost || m.board.step_geometry(p, q).is_err() {
                    continue;
                }
                if let Some(&o) = occ.get(&q) {
                    if o != a && m.enemies(a, o) && m.fighters[o].hp > 0 {
                        continue;
                    }
                }
                let mut np = path.clone();
                np.push(q);
                out.insert(q, (free.clone(), np));
                queue.push_back((q, c));
            }
        }
    }
    // cannot end on another figure
    out.retain(|p, _| occ.get(p).is_none_or(|&o| o == a));
    out
}

/// Everything about an attack by `a` standing at `at` on `t` that does not depend on the attack
/// action: dice ranks, adjustments, the defender's check, damage and armor.
struct AttackContext {
    rank: u32,
    adj: i32,
    defense: Option<(u32, i32)>,
    helpless_cr: i32,
    damage: f64,
    armor: f64,
}

impl AttackContext {
    fn new(m: &Match, a: usize, at: Pos, t: usize) -> Self {
        let w = m.equipment.wielded(&m.fighters[a]);
        let stat = w.check_stat();
        let adj = crate::rules::turn::sum(&crate::rules::attack::attack_parts_from(m, a, at, t));
        let defense = if crate::rules::defense::helpless(m, t) {
            None
        } else {
            Some((m.equipment.finesse_rank(&m.fighters[t]), crate::rules::defense::defense_adjustment(m, t, w.is_melee(), false)))
        };
        let explode = m.rules.options.damage_explodes;
        let (n, rank) = match &w {
            Wielded::Melee(x, _) => (x.damage.0, x.damage.1),
            Wielded::Ranged(x) => (x.damage.0, x.damage.1),
            Wielded::Unarmed => (1, m.fighters[a].stats.brawn),
        };
        let mut damage = n as f64 * odds::die_mean(rank, explode) - crate::rules::attack::weapon_deficit(m, a) as f64;
        if matches!(w, Wielded::Unarmed) {
            damage = damage / 2.0 + 0.5;
        }
        let armor = m.fighters[t].loadout.armor.as_deref().and_then(|x| m.equipment.armor(x)).map_or(0, |x| x.reduction) as f64;
        Self { rank: crate::rules::attack::stat_rank(m, a, stat), adj, defense, helpless_cr: m.rules.limits.helpless_defense_cr, damage, armor }
    }

    /// Expected damage with an attack action's own adjustments.
    fn value(&self, atk_adj: i32, dmg_adj: i32) -> f64 {
        let p = odds::hit_chance((self.rank, self.adj + atk_adj), self.defense, self.helpless_cr);
        p * (self.damage + dmg_adj as f64 - self.armor).max(0.5)
    }
}

/// Expected damage of an attack by `a` standing at `at` on `t` with an attack row's adjustments.
fn attack_value(m: &Match, a: usize, at: Pos, t: usize, atk_adj: i32, dmg_adj: i32) -> f64 {
    AttackContext::new(m, a, at, t).value(atk_adj, dmg_adj)
}

/// What an attack is likely to do, from the dice model the resolution uses (`odds`): the
/// chance to hit, the damage range of a hit after armor, and the expected damage.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Forecast {
    pub hit: f64,
    pub min: i32,
    /// Highest damage of a hit without exploding dice; `explodes` says it can go higher.
    pub max: i32,
    pub explodes: bool,
    pub expected: f64,
}

/// The forecast of attack row `row` by `a` on `t` from where `a` stands (None for a non-attack).
pub fn forecast(m: &Match, a: usize, t: usize, row: &str) -> Option<Forecast> {
    let r = m.rules.action(row)?;
    let ActionEffect::Attack { attack, damage, .. } = r.effect else { return None };
    let ctx = AttackContext::new(m, a, m.fighters[a].pos, t);
    let w = m.equipment.wielded(&m.fighters[a]);
    let (n, rank) = match &w {
        Wielded::Melee(x, _) => (x.damage.0, x.damage.1),
        Wielded::Ranged(x) => (x.damage.0, x.damage.1),
        Wielded::Unarmed => (1, m.fighters[a].stats.brawn),
    };
    let deficit = crate::rules::attack::weapon_deficit(m, a) as i32;
    let (mut lo, mut hi) = (n as i32 - deficit + damage, (n * rank) as i32 - deficit + damage);
    if matches!(w, Wielded::Unarmed) {
        (lo, hi) = ((lo + 1) / 2, (hi + 1) / 2);
    }
    let armor = ctx.armor as i32;
    Some(Forecast {
        hit: odds::hit_chance((ctx.rank, ctx.adj + attack), ctx.defense, ctx.helpless_cr),
        min: (lo - armor).max(0),
        max: (hi - armor).max(0),
        explodes: m.rules.options.damage_explodes,
        expected: ctx.value(attack, damage),
    })
}

/// Each able enemy: where it stands, how far it can strike next round, and (hard) what its
/// attack on `a` is worth — computed once per decision.
fn enemy_threats(m: &Match, a: usize, diff: Difficulty) -> Vec<(Pos, u32, f64)> {
    (0..m.fighters.len())
        .filter(|&e| m.enemies(a, e) && m.can_act(e) && !m.is_dead(e))
        .map(|e| {
            let f = &m.fighters[e];
            let w = m.equipment.wielded(f);
            let reach = match &w {
                Wielded::Ranged(r) => r.range * 2,
                _ => 1 + f.free_steps.allowance + 3,
            };
            let value = if diff == Difficulty::Hard { attack_value(m, e, f.pos, a, 0, 0).max(0.5) } else { 1.0 };
            (f.pos, reach, value)
        })
        .collect()
}

/// How much enemies can hurt `a` standing at `at` next round (hard), or how many can reach it.
fn threat(threats: &[(Pos, u32, f64)], at: Pos) -> f64 {
    threats.iter().filter(|(p, reach, _)| p.distance(at) <= *reach).map(|t| t.2).sum()
}

/// Steps from every space to the nearest of `goals` (8-way, stairs and links included).
fn distance_field(m: &Match, goals: &[Pos]) -> BTreeMap<Pos, u32> {
    let mut dist: BTreeMap<Pos, u32> = goals.iter().map(|g| (*g, 0)).collect();
    let mut queue: VecDeque<Pos> = goals.iter().copied().collect();
    while let Some(p) = queue.pop_front() {
        let d = dist[&p];
        let mut next = Vec::new();
        for dy in -1..=1 {
            for dx in -1..=1 {
                let q = Pos::on(p.x + dx, p.y + dy, p.floor);
                if (dx, dy) != (0, 0) && m.board.step_geometry(q, p).is_ok() && m.board.walkable(q) {
                    next.push(q);
                }
            }
        }
        // stairs whose destination is p lead here too
        for (fi, f) in m.board.floors.iter().enumerate() {
            for y in 0..f.height as i32 {
                for x in 0..f.width as i32 {
                    let q = Pos::on(x, y, fi as u8);
                    if m.board.stairs_destination(q) == Some(p) {
                        next.push(q);
                    }
                }
            }
        }
        for q in next {
            if !dist.contains_key(&q) {
                dist.insert(q, d + 1);
                queue.push_back(q);
            }
        }
    }
    dist
}

/// Enemies (able to act, with a melee weapon) that could strike `at` in their next opportunity:
/// within their free steps plus their affordable steps plus one.
fn melee_dangers(m: &Match, a: usize, at: Pos) -> usize {
    (0..m.fighters.len())
        .filter(|&e| m.enemies(a, e) && m.can_act(e) && !m.is_dead(e))
        .filter(|&e| {
            let f = &m.fighters[e];
            let w = m.equipment.wielded(f);
            let reach = if w.is_melee() { 1 } else { 0 };
            let steps = f.ap.current.min(2) + if f.free_steps.available { f.free_steps.allowance } else { 0 };
            reach > 0 && f.pos.distance(at) <= reach + steps
        })
        .count()
}

fn plan_opportunity(m: &Match, a: usize, cfg: &AiConfig, diff: Difficulty) -> Vec<Plan> {
    let f = &m.fighters[a];
    let behaviour = cfg.behaviour(m, a);
    let ap = f.ap.current;
    let mut plans: Vec<Plan> = Vec::new();
    // Standing up comes first (R-MOVE-7: no moving while down).
    if f.posture != Posture::Standing && f.opp.movement.is_none() && f.opp.action.is_none() {
        for row in &m.rules.movements {
            if let MovementEffect::Rise { from } = &row.effect {
                if from.contains(&f.posture) {
                    plans.push(Plan { free: vec![], movement: Some((row.id.clone(), vec![], None)), action: None, score: 50.0 });
                }
            }
        }
    }
    let hurt = f.hp * 2 <= f.max_hp;
    // Potion when hurt (Use Item: X/Only decided by AP_start).
    if hurt && f.opp.action.is_none() && f.loadout.items.iter().any(|i| m.equipment.item(i).is_some_and(|x| x.heals.is_some())) {
        let act = Command::action(&f.id, "use_item", None);
        plans.push(Plan { free: vec![], movement: None, action: Some(act), score: 6.0 + (f.max_hp - f.hp) as f64 * 0.5 });
    }
    // Positions: free steps first (easy forgets them half the time), then one movement.
    let use_free = f.free_steps.available
        && !f.opp.free_steps
        && f.opp.movement.is_none()
        && f.opp.action.is_none()
        && f.ap.current >= 1
        && !(diff == Difficulty::Easy && noise(cfg.seed, m, a, 99) < 0.5);
    let occ = occupancy(m);
    let fs_region: BTreeMap<Pos, Vec<Pos>> = if use_free {
        reachable_from(m, a, &occ, &[(f.pos, Vec::new())], f.free_steps.allowance).into_iter().map(|(p, (_, path))| (p, path)).collect()
    } else {
        BTreeMap::from([(f.pos, Vec::new())])
    };
    let cap = m.rules.limits.opportunity_ap_cap;
    let can_move = f.opp.movement.is_none() && f.opp.action.is_none() && f.posture == Posture::Standing;
    // (position) → (free path, movement, AP, Defense penalty)
    let mut spots: BTreeMap<Pos, (Vec<Pos>, Option<(String, Vec<Pos>)>, u32, i32)> = BTreeMap::new();
    let budget = ap.min(cap.saturating_sub(f.opp.spent));
    let better = |e: &(Vec<Pos>, Option<(String, Vec<Pos>)>, u32, i32), ap: u32, pen: i32| (ap, -pen) < (e.2, -e.3);
    for (p0, free) in &fs_region {
        if spots.get(p0).is_none_or(|e| better(e, 0, 0)) {
            spots.insert(*p0, (free.clone(), None, 0, 0));
        }
    }
    if can_move && budget > 0 {
        let sources: Vec<(Pos, Vec<Pos>)> = fs_region.iter().map(|(p, free)| (*p, free.clone())).collect();
        for row in &m.rules.movements {
            if !matches!(row.effect, MovementEffect::Path) {
                continue;
            }
            let run = row.defense_per_ap != 0 || row.defense_flat != 0;
            if run && diff == Difficulty::Easy {
                continue; // easy is greedy: it never thinks of running
            }
            let max = row.max_spaces.min(if run { budget * 2 } else { budget });
            for (q, (free, path)) in reachable_from(m, a, &occ, &sources, max) {
                if path.is_empty() {
                    continue;
                }
                let spaces = m.board.path_cost(&path);
                let cost = if run { spaces.div_ceil(2) } else { spaces };
                let pen = if run { crate::rules::movement::run_defense(m, row, cost) } else { 0 };
                if spots.get(&q).is_none_or(|e| better(e, cost, pen)) {
                    spots.insert(q, (free, Some((row.id.clone(), path)), cost, pen));
                }
            }
        }
    }
    let enemies: Vec<usize> = (0..m.fighters.len()).filter(|&e| m.enemies(a, e) && !m.is_dead(e) && m.fighters[e].hp > 0).collect();
    let nearest = |p: Pos| enemies.iter().map(|&e| m.fighters[e].pos.distance(p)).min().unwrap_or(0);
    let w = m.equipment.wielded(f);
    let attack_rows: Vec<&ActionRow> = m.rules.actions.iter().filter(|r| is_attack(r)).collect();
    let retreat = behaviour == Behaviour::Coward && hurt || f.hp * 4 <= f.max_hp && !f.mook;
    // A side that wins by reaching an exit heads for it (easy forgets).
    let exit_field = cfg.exits.get(&f.side).filter(|e| !e.is_empty() && diff != Difficulty::Easy).map(|e| distance_field(m, e));
    let to_exit = |p: Pos| exit_field.as_ref().and_then(|d| d.get(&p).copied());
    if let (Some(here), true) = (to_exit(f.pos), can_move) {
        if let Some(dest) = m.board.stairs_destination(f.pos).filter(|_| matches!(m.board.tile(f.pos), Some(crate::rules::grid::Tile::Stairs { .. }))) {
            if to_exit(dest).is_some_and(|d| d < here) {
                if let Some(row) = m.rules.movements.iter().find(|r| matches!(r.effect, MovementEffect::Climb)) {
                    plans.push(Plan { free: vec![], movement: Some((row.id.clone(), vec![], None)), action: None, score: 20.0 });
                }
            }
        }
    }
    let mut light: Vec<Light> = Vec::new();
    let threats = enemy_threats(m, a, diff);
    for (pos, (free, mv, cost, pen)) in &spots {
        let exposure = if diff == Difficulty::Easy { 0.0 } else { threat(&threats, *pos) };
        // Attacks from here.
        if f.opp.action.is_none() && !retreat {
            for &t in &enemies {
                let d = m.fighters[t].pos.distance(*pos);
                if !w.reaches(d) || m.board.line_of_sight(*pos, m.fighters[t].pos) == Sight::None {
                    continue;
                }
                let ctx = AttackContext::new(m, a, *pos, t);
                for (ri, row) in attack_rows.iter().enumerate() {
                    let ActionEffect::Attack { attack, damage, .. } = row.effect else { continue };
                    let ev = ctx.value(attack, damage);
                    let focus = 1.0 + 0.6 * (1.0 - m.fighters[t].hp.max(0) as f64 / m.fighters[t].max_hp.max(1) as f64);
                    let kill = if ev * 1.3 >= m.fighters[t].hp as f64 { 2.0 } else { 0.0 };
                    let defense_given = (row.defense + pen) as f64; // negative
                    let mut score = ev * focus + kill + defense_given.min(0.0) * 0.35 * exposure - *cost as f64 * 0.05;
                    if diff == Difficulty::Hard {
                        if !w.is_melee() {
                            // Kite: shoot from where no sword can reach next round.
                            score -= melee_dangers(m, a, *pos) as f64 * 1.5;
                        }
                        // The enemies' answer next round, and finishing the wounded first.
                        score -= exposure * 0.15;
                        score += ev * 0.6 * (1.0 - m.fighters[t].hp.max(0) as f64 / m.fighters[t].max_hp.max(1) as f64);
                    }
                    if diff == Difficulty::Easy {
                        score = ev + noise(cfg.seed, m, a, t as u64 * 31 + row.id.len() as u64) * 1.5;
                    }
                    light.push(Light { score: 3.0 + score, spot: *pos, what: What::Attack { target: t, row: ri } });
                }
                // Spells at enemies.
                for (si, sp) in f.spells.iter().enumerate() {
                    let Some(s) = m.spells.get(sp) else { continue };
                    let pool_ok = match s.tradition {
                        crate::rules::fighter::Caster::Divine => f.fp >= s.cost,
                        _ => f.mp >= s.cost,
                    };
                    if !pool_ok || d > s.range || matches!(s.effect, crate::rules::spells::SpellEffect::Heal { .. }) {
                        continue;
                    }
                    let value = match &s.effect {
                        crate::rules::spells::SpellEffect::Bolt { damage } => 0.55 * (damage.0 as f64 * odds::die_mean(damage.1, true)),
                        _ => {
                            if m.equipment.wielded(&m.fighters[t]).is_melee() && d > 1 {
                                2.0
                            } else {
                                0.5
                            }
                        }
                    };
                    light.push(Light { score: 3.0 + value - exposure * 0.1, spot: *pos, what: What::Spell { target: t, spell: si } });
                }
            }
        }
        // Moving without an action: approach, keep range, or retreat.
        if f.opp.action.is_none() && (mv.is_some() || !free.is_empty()) {
            let dist = nearest(*pos) as f64;
            let here = nearest(f.pos) as f64;
            let score = if let (Some(before), Some(after)) = (to_exit(f.pos), to_exit(*pos)) {
                4.0 + (before as f64 - after as f64) * 1.5 - *cost as f64 * 0.05
            } else if retreat {
                1.0 + (dist - here) * 0.8
            } else if matches!(w, Wielded::Ranged(_)) || behaviour == Behaviour::Archer {
                let ideal = match &w {
                    Wielded::Ranged(r) => r.range.max(2) as f64,
                    _ => 1.0,
                };
                1.0 - (dist - ideal).abs() * 0.3
            } else {
                0.5 + (here - dist) * 0.4 - *cost as f64 * 0.05
            };
            let mut score = score - exposure * 0.05;
            if diff == Difficulty::Hard && !retreat {
                // Ending a move in reach without attacking hands the enemy the first blow.
                score -= melee_dangers(m, a, *pos) as f64 * 1.2;
            }
            light.push(Light { score, spot: *pos, what: What::Move });
        }
    }
    // Build commands for the best few only.
    light.sort_by(|x, y| y.score.partial_cmp(&x.score).unwrap_or(std::cmp::Ordering::Equal));
    for l in light.into_iter().take(MAX_PLANS) {
        let Some((free, mv, _, _)) = spots.get(&l.spot) else { continue };
        let movement = mv.as_ref().map(|(id, path)| (id.clone(), path.clone(), None));
        let action = match l.what {
            What::Attack { target, row } => Some(Command::action(&f.id, &attack_rows[row].id, Some(&m.fighters[target].id))),
            What::Spell { target, spell } => Some(cast(&f.id, &m.fighters[target].id, &f.spells[spell])),
            What::Move => None,
        };
        plans.push(Plan { free: free.clone(), movement, action, score: l.score });
    }
    // Healing a wounded ally.
    for sp in &f.spells {
        let Some(s) = m.spells.get(sp) else { continue };
        if !matches!(s.effect, crate::rules::spells::SpellEffect::Heal { .. }) || f.fp < s.cost || f.opp.action.is_some() {
            continue;
        }
        for (i, o) in m.fighters.iter().enumerate() {
            if m.enemies(a, i) || m.is_dead(i) || o.hp * 2 > o.max_hp || o.pos.distance(f.pos) > s.range {
                continue;
            }
            let act = cast(&f.id, &o.id, sp);
            plans.push(Plan { free: vec![], movement: None, action: Some(act), score: 4.0 + (o.max_hp - o.hp) as f64 * 0.3 });
        }
    }
    // Waiting: keep AP for a later round (skirmishers wait for the enemy to come closer).
    let wait_score = if (behaviour == Behaviour::Skirmisher && diff != Difficulty::Easy || diff == Difficulty::Hard) && !f.opp.anything() { 0.6 } else { 0.0 };
    plans.push(Plan { free: vec![], movement: None, action: None, score: wait_score });
    plans.sort_by(|x, y| y.score.partial_cmp(&x.score).unwrap_or(std::cmp::Ordering::Equal));
    plans.truncate(MAX_PLANS);
    plans
}

/// A reflex or response when one is open (easy never reacts).
fn react(m: &Match, a: usize, diff: Difficulty) -> Option<Command> {
    if diff == Difficulty::Easy {
        return None;
    }
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

/// A Cast Spell command.
fn cast(actor: &str, target: &str, spell: &str) -> Command {
    let mut c = Command::action(actor, "cast_spell", Some(target));
    if let Command::Action { spell: s, .. } = &mut c {
        *s = Some(spell.to_string());
    }
    c
}

/// Deterministic noise in [0, 1) from the seed and the match state (easy AI, no dice consumed).
fn noise(seed: u64, m: &Match, a: usize, salt: u64) -> f64 {
    let mut x = seed ^ (m.clock.turn as u64) << 40 ^ (m.clock.round as u64) << 24 ^ (a as u64) << 8 ^ salt.wrapping_mul(0x9E37_79B9_7F4A_7C15);
    x ^= x >> 33;
    x = x.wrapping_mul(0xff51_afd7_ed55_8ccd);
    x ^= x >> 33;
    (x % 10_000) as f64 / 10_000.0
}
