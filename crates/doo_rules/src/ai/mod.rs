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
pub mod explore;
pub mod odds;
mod search;
mod value;

pub use book::{AiBook, Behaviour, Thinking};
pub use value::{Forecast, forecast};

use crate::rules::actions::is_attack;
use crate::rules::command::Command;
use crate::rules::dice::Dice;
use crate::rules::engine;
use crate::rules::equipment::Wielded;
use crate::rules::grid::{Pos, Sight};
use crate::rules::profile::{ActionEffect, ActionRow, MovementEffect, Posture, ReactionEffect, ReactionKind};
use crate::rules::state::{Match, Window};
use crate::rules::victory::{Goal, Victory};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use value::attack_value;

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

/// Who the AI plays and how.
#[derive(Clone, Debug)]
pub struct AiConfig {
    pub sides: BTreeMap<String, Difficulty>,
    /// Character id → behaviour name (from the level or its template).
    pub behaviours: BTreeMap<String, String>,
    /// Spaces a side wins by reaching (the level's ReachExit goals).
    pub exits: BTreeMap<String, Vec<Pos>>,
    pub seed: u64,
    pub budget: Budget,
    /// The weights (`assets/ai/behaviours.ron`).
    pub book: std::sync::Arc<AiBook>,
}

impl Default for AiConfig {
    fn default() -> Self {
        Self { sides: BTreeMap::new(), behaviours: BTreeMap::new(), exits: BTreeMap::new(), seed: 0, budget: Budget::default(), book: AiBook::builtin() }
    }
}

/// How much thinking one decision may take. `max_spots` caps the positions scored (a
/// deterministic limit); `deadline`, when set, is a wall-clock safety net: once it passes, the
/// best plan found so far is taken. The window sets it (the game never freezes); `simulate` and
/// the tests leave it unset so that a seed always gives the same game on any machine.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Budget {
    pub max_spots: usize,
    pub deadline: Option<std::time::Duration>,
}

impl Budget {
    /// The window's budget: 25 ms per decision at most.
    pub const INTERACTIVE: Budget = Budget { max_spots: 4096, deadline: Some(std::time::Duration::from_millis(25)) };
}

impl Default for Budget {
    fn default() -> Self {
        Self { max_spots: 4096, deadline: None }
    }
}

/// A decision with what it cost: positions scored and whether the budget cut the search short.
#[derive(Clone, Debug)]
pub struct Decision {
    pub commands: Vec<Command>,
    pub spots: usize,
    pub cut: bool,
}

impl AiConfig {
    /// The configuration for a level: each of its `sides` played at `difficulty` unless
    /// `per_side` says otherwise, its characters' `behaviours` (character id → behaviour name),
    /// the exits its `goals` make sides win by reaching, and the weights `book`.
    pub fn for_level<'a>(
        sides: impl IntoIterator<Item = &'a str>,
        behaviours: &BTreeMap<String, String>,
        goals: &[Victory],
        difficulty: Difficulty,
        per_side: &BTreeMap<String, Difficulty>,
        seed: u64,
        book: std::sync::Arc<AiBook>,
    ) -> Self {
        AiConfig {
            sides: sides.into_iter().map(|s| (s.to_string(), per_side.get(s).copied().unwrap_or(difficulty))).collect(),
            behaviours: behaviours.clone(),
            exits: goals
                .iter()
                .filter_map(|v| match &v.goal {
                    Goal::ReachExit(e) => Some((v.side.clone(), e.clone())),
                    _ => None,
                })
                .collect(),
            seed,
            budget: Default::default(),
            book,
        }
    }

    pub fn controls(&self, m: &Match, i: usize) -> Option<Difficulty> {
        self.sides.get(&m.fighters[i].side).copied()
    }
    fn behaviour(&self, m: &Match, i: usize) -> Behaviour {
        self.book.behaviour(self.behaviours.get(&m.fighters[i].id).map(String::as_str))
    }
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
    let (plans, spots, cut) = plan_opportunity(m, a, cfg, diff, start);
    for plan in &plans {
        if let Some(commands) = valid_commands(m, a, plan) {
            return Decision { commands, spots, cut };
        }
    }
    Decision { commands: vec![Command::End { actor: id }], spots, cut }
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
    spot: usize,
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

/// Each able enemy: where it stands, how far it can strike next round, and what its attack is
/// counted as (normal: one threat each) — computed once per decision.
fn enemy_threats(m: &Match, a: usize) -> Vec<(Pos, u32)> {
    (0..m.fighters.len())
        .filter(|&e| m.enemies(a, e) && m.can_act(e) && !m.is_dead(e))
        .map(|e| {
            let f = &m.fighters[e];
            let reach = match &m.equipment.wielded(f) {
                Wielded::Ranged(r) => r.range * 2,
                _ => 1 + f.free_steps.allowance + 3,
            };
            (f.pos, reach)
        })
        .collect()
}

/// How many enemies can strike `at` next round.
fn threat(threats: &[(Pos, u32)], at: Pos) -> f64 {
    threats.iter().filter(|(p, reach)| p.distance(at) <= *reach).count() as f64
}

/// A place the figure can end its movement: after its free steps, then maybe one movement row
/// (`row`: index into the regions searched) to `pos`, for `ap` AP and `pen` Defense.
#[derive(Clone, Copy, Debug)]
struct Spot {
    pos: Pos,
    row: Option<usize>,
    ap: u32,
    pen: i32,
}

/// Whether an action priced `price` can follow the movement to `s` in this opportunity: a plain
/// price within the AP left under the cap (R-AP-1, R-AP-3); Only mode after no movement (R-ONLY-6).
fn fits(price: Option<crate::rules::spending::Price>, s: &Spot, budget: u32) -> bool {
    match price {
        Some(p) if p.only => s.row.is_none(),
        Some(p) => s.ap + p.ap <= budget,
        None => false,
    }
}

fn plan_opportunity(m: &Match, a: usize, cfg: &AiConfig, diff: Difficulty, start: std::time::Instant) -> (Vec<Plan>, usize, bool) {
    let f = &m.fighters[a];
    let behaviour = cfg.behaviour(m, a);
    let th = *cfg.book.thinking(diff);
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
        && noise(cfg.seed, m, a, 99) >= th.forget_free_steps;
    let occ = search::occupancy(m, f.pos.floor);
    let free = search::Region::new(m, a, &occ, &[f.pos], if use_free { f.free_steps.allowance } else { 0 });
    let cap = m.rules.limits.opportunity_ap_cap;
    let can_move = f.opp.movement.is_none() && f.opp.action.is_none() && f.posture == Posture::Standing;
    let budget = ap.min(cap.saturating_sub(f.opp.spent));
    let mut best: BTreeMap<Pos, Spot> = free.ends.iter().map(|&(p, _)| (p, Spot { pos: p, row: None, ap: 0, pen: 0 })).collect();
    let mut moves: Vec<(String, search::Region)> = Vec::new();
    if can_move && budget > 0 {
        let roots: Vec<Pos> = free.ends.iter().map(|e| e.0).collect();
        for row in &m.rules.movements {
            if !matches!(row.effect, MovementEffect::Path) {
                continue;
            }
            let run = row.defense_per_ap != 0 || row.defense_flat != 0;
            if run && !th.runs {
                continue; // easy is greedy: it never thinks of running
            }
            let max = row.max_spaces.min(if run { budget * 2 } else { budget });
            let region = search::Region::new(m, a, &occ, &roots, max);
            for &(q, spaces) in &region.ends {
                if spaces == 0 {
                    continue;
                }
                let cost = if run { spaces.div_ceil(2) } else { spaces };
                let pen = if run { crate::rules::movement::run_defense(m, row, cost) } else { 0 };
                if best.get(&q).is_none_or(|e| (cost, -pen) < (e.ap, -e.pen)) {
                    best.insert(q, Spot { pos: q, row: Some(moves.len()), ap: cost, pen });
                }
            }
            moves.push((row.id.clone(), region));
        }
    }
    // Cheapest first, so that a budget cut keeps the nearby choices.
    let mut spots: Vec<Spot> = best.into_values().collect();
    spots.sort_by_key(|s| (s.ap, -s.pen, s.pos));
    let enemies: Vec<usize> = (0..m.fighters.len()).filter(|&e| m.enemies(a, e) && !m.is_dead(e) && m.fighters[e].hp > 0).collect();
    let nearest = |p: Pos| enemies.iter().map(|&e| m.fighters[e].pos.distance(p)).min().unwrap_or(0);
    let w = m.equipment.wielded(f);
    let attack_rows: Vec<&ActionRow> = m.rules.actions.iter().filter(|r| is_attack(r)).collect();
    let retreat = (f.hp as f64) <= behaviour.retreat_below * f.max_hp as f64;
    // A side that wins by reaching an exit heads for it (easy forgets).
    let exit_field = cfg.exits.get(&f.side).filter(|e| !e.is_empty() && th.heads_for_exits).map(|e| search::distance_field(m, e));
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
    // What each attack kind costs now (R-AP-1, R-AP-3, R-ONLY-3..9): a plan must leave room for it.
    let row_prices: Vec<Option<crate::rules::spending::Price>> = attack_rows.iter().map(|r| crate::rules::spending::price_only(f, r.cost, "").ok()).collect();
    let spell_price = m.rules.action("cast_spell").and_then(|r| crate::rules::spending::price_only(f, r.cost, "").ok());
    // Easy loses track of the fight now and then: a whole turn without an attack.
    let forgets_action = th.forget_action > 0.0 && turn_noise(cfg.seed, m, a) < th.forget_action;
    let ctxs: Vec<value::AttackContext> =
        if f.opp.action.is_none() && !retreat && !forgets_action { enemies.iter().map(|&t| value::AttackContext::new(m, a, t)).collect() } else { vec![] };
    let threats = enemy_threats(m, a);
    let answer_weight = th.answer * behaviour.caution;
    let outlook = (answer_weight > 0.0).then(|| value::Outlook::new(m, a));
    let base_answer = outlook.as_ref().map_or(0.0, |o| o.incoming(m, f.pos, 0, None).0);
    let answer = |p: Pos, def: i32, removed: Option<(usize, f64)>| outlook.as_ref().map_or(0.0, |o| o.incoming(m, p, def, removed).0 - base_answer);
    let wounded = |t: usize| 1.0 - m.fighters[t].hp.max(0) as f64 / m.fighters[t].max_hp.max(1) as f64;
    // How good a space is to end a move on, without attacking from it.
    let ranged = matches!(w, Wielded::Ranged(_));
    let keeps = ranged || behaviour.keeps_range;
    let ideal = match &w {
        Wielded::Ranged(r) => r.range.max(2) as f64,
        _ => 1.0,
    };
    let aims: Vec<value::AttackContext> = if ranged { enemies.iter().map(|&t| value::AttackContext::new(m, a, t)).collect() } else { vec![] };
    let best_shot = |p: Pos| aims.iter().filter_map(|c| c.placement(m, p, m.fighters[c.target].pos).map(|pl| c.value(pl, 0, 0, 0))).fold(0.0, f64::max);
    let place_value = |p: Pos, pen: i32| {
        let d = nearest(p) as f64;
        let v = if retreat {
            d * 0.8
        } else if keeps {
            best_shot(p) - (d - ideal).abs() * 0.3
        } else {
            -d * behaviour.approach
        };
        v - if th.exposure > 0.0 { threat(&threats, p) * 0.05 } else { 0.0 } - answer_weight * answer(p, pen, None)
    };
    let here_value = place_value(f.pos, 0);
    let mut light: Vec<Light> = Vec::new();
    let mut cut = false;
    let mut scored = 0;
    for (si, s) in spots.iter().enumerate() {
        if si >= cfg.budget.max_spots || (si % 16 == 15 && cfg.budget.deadline.is_some_and(|d| start.elapsed() > d)) {
            cut = true;
            break;
        }
        scored += 1;
        let exposure = threat(&threats, s.pos);
        // Attacks from here: the best attack kind per target.
        for ctx in &ctxs {
            let t = ctx.target;
            let Some(pl) = ctx.placement(m, s.pos, m.fighters[t].pos) else { continue };
            let hp = m.fighters[t].hp;
            let mut top: Option<Light> = None;
            for (ri, row) in attack_rows.iter().enumerate() {
                let ActionEffect::Attack { attack, damage, .. } = row.effect else { continue };
                if !fits(row_prices[ri], s, budget) {
                    continue;
                }
                let ev = ctx.value(pl, attack, damage, 0);
                let defense_given = (row.defense + s.pen) as f64; // negative
                // Damage now, focus on the wounded, the chance to take the target out (and so
                // spare the side its answer), against the Defense given up and (hard) what the
                // enemies deal the side next round; easy adds its slips.
                let drop = if th.drop > 0.0 || answer_weight > 0.0 { ctx.hit(pl, attack, 0) * ctx.drops(damage, hp) } else { 0.0 };
                let finish = if ev * 1.3 >= hp as f64 { th.finish } else { 0.0 };
                let answered = if answer_weight > 0.0 { answer_weight * answer(s.pos, row.defense + s.pen, Some((t, drop))) } else { 0.0 };
                let slip = if th.noise > 0.0 { noise(cfg.seed, m, a, t as u64 * 31 + row.id.len() as u64) * th.noise } else { 0.0 };
                let score = ev * (1.0 + th.focus * wounded(t)) + finish + drop * th.drop + defense_given.min(0.0) * th.exposure * exposure
                    - answered
                    - s.ap as f64 * 0.05
                    + slip;
                if top.is_none_or(|l| 3.0 + score > l.score) {
                    top = Some(Light { score: 3.0 + score, spot: si, what: What::Attack { target: t, row: ri } });
                }
            }
            light.extend(top);
        }
        // Spells at enemies in range and sight.
        if f.opp.action.is_none() && !retreat && !forgets_action && fits(spell_price, s, budget) {
            for (sp_i, sp) in f.spells.iter().enumerate() {
                let Some(sd) = m.spells.get(sp) else { continue };
                let pool_ok = match sd.tradition {
                    crate::rules::fighter::Caster::Divine => f.fp >= sd.cost,
                    _ => f.mp >= sd.cost,
                };
                if !pool_ok || matches!(sd.effect, crate::rules::spells::SpellEffect::Heal { .. }) {
                    continue;
                }
                for &t in &enemies {
                    let d = m.fighters[t].pos.distance(s.pos);
                    if d > sd.range || m.board.line_of_sight(s.pos, m.fighters[t].pos) == Sight::None {
                        continue;
                    }
                    let value = match &sd.effect {
                        crate::rules::spells::SpellEffect::Bolt { damage } => 0.55 * (damage.0 as f64 * odds::die_mean(damage.1, true)),
                        _ => {
                            if m.equipment.wielded(&m.fighters[t]).is_melee() && d > 1 {
                                2.0
                            } else {
                                0.5
                            }
                        }
                    };
                    light.push(Light {
                        score: 3.0 + value - exposure * 0.1 - answer_weight * answer(s.pos, s.pen, None),
                        spot: si,
                        what: What::Spell { target: t, spell: sp_i },
                    });
                }
            }
        }
        // Moving without an action: only when the new space is better than staying (closer,
        // at the weapon's range with a shot, farther when retreating, nearer the exit, safer).
        if f.opp.action.is_none() && s.pos != f.pos {
            let score = if let (Some(before), Some(after)) = (to_exit(f.pos), to_exit(s.pos)) {
                let progress = before as f64 - after as f64;
                progress * 1.5 + if progress > 0.0 { 2.5 } else { 0.0 } - s.ap as f64 * 0.05
            } else {
                place_value(s.pos, s.pen) - here_value - s.ap as f64 * 0.05
            };
            light.push(Light { score, spot: si, what: What::Move });
        }
    }
    // Build commands for the best few only.
    light.sort_by(|x, y| y.score.partial_cmp(&x.score).unwrap_or(std::cmp::Ordering::Equal));
    for l in light.into_iter().take(MAX_PLANS) {
        let s = spots[l.spot];
        let (free_path, movement) = match s.row {
            Some(k) => {
                let (root, path) = moves[k].1.path(s.pos);
                (free.path(root).1, Some((moves[k].0.clone(), path, None)))
            }
            None => (free.path(s.pos).1, None),
        };
        let action = match l.what {
            What::Attack { target, row } => Some(Command::action(&f.id, &attack_rows[row].id, Some(&m.fighters[target].id))),
            What::Spell { target, spell } => Some(cast(&f.id, &m.fighters[target].id, &f.spells[spell])),
            What::Move => None,
        };
        plans.push(Plan { free: free_path, movement, action, score: l.score });
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
    let wait_score = if behaviour.waits && th.patience && !f.opp.anything() { 0.6 } else { 0.0 };
    plans.push(Plan { free: vec![], movement: None, action: None, score: wait_score });
    plans.sort_by(|x, y| y.score.partial_cmp(&x.score).unwrap_or(std::cmp::Ordering::Equal));
    plans.truncate(MAX_PLANS);
    (plans, scored, cut)
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

/// A Cast Spell command.
fn cast(actor: &str, target: &str, spell: &str) -> Command {
    let mut c = Command::action(actor, "cast_spell", Some(target));
    if let Command::Action { spell: s, .. } = &mut c {
        *s = Some(spell.to_string());
    }
    c
}

/// Deterministic noise in [0, 1) from the seed, the turn and the character (the same all turn).
fn turn_noise(seed: u64, m: &Match, a: usize) -> f64 {
    unit((seed ^ 0xA5A5_0000) ^ (m.clock.turn as u64) << 32 ^ (a as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15))
}

/// Deterministic noise in [0, 1) from the seed and the match state (easy AI, no dice consumed).
fn noise(seed: u64, m: &Match, a: usize, salt: u64) -> f64 {
    unit(seed ^ (m.clock.turn as u64) << 40 ^ (m.clock.round as u64) << 24 ^ (a as u64) << 8 ^ salt.wrapping_mul(0x9E37_79B9_7F4A_7C15))
}

/// A 64-bit mix (murmur3's finaliser) mapped to [0, 1).
fn unit(mut x: u64) -> f64 {
    x ^= x >> 33;
    x = x.wrapping_mul(0xff51_afd7_ed55_8ccd);
    x ^= x >> 33;
    (x % 10_000) as f64 / 10_000.0
}
