//! A crisis opportunity planned: the spaces the figure can end its movement on (free steps,
//! then one movement row), every attack, spell and move from them scored with the dice model's
//! odds, and the best few built into whole plans (free steps, movement, action), beside
//! standing up, a potion, climbing toward an exit, healing an ally and waiting. How much
//! thinking a decision may take is its `Budget`.

use super::book::{Behaviour, Thinking};
use super::noise::{noise, turn_noise};
use super::{odds, search, value};
use crate::rules::actions::is_attack;
use crate::rules::command::Command;
use crate::rules::equipment::Wielded;
use crate::rules::fighter::Fighter;
use crate::rules::grid::{Pos, Sight};
use crate::rules::profile::{ActionEffect, ActionRow, MovementEffect, Posture};
use crate::rules::spending::{Price, price_only};
use crate::rules::state::Match;
use std::collections::BTreeMap;
use std::time::Instant;

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

/// Candidates checked against the rules per decision, best first.
const MAX_PLANS: usize = 24;

/// A whole opportunity: optional free-step path, optional movement, optional action.
#[derive(Clone, Debug)]
pub(super) struct Plan {
    pub(super) free: Vec<Pos>,
    pub(super) movement: Option<(String, Vec<Pos>, Option<Posture>)>,
    pub(super) action: Option<Command>,
    pub(super) score: f64,
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

/// What the planner is told about the figure's player: its behaviour, how its difficulty
/// thinks, the seed of its slips, the budget of the search, and the spaces its side wins by
/// reaching.
pub(super) struct Brief<'c> {
    pub(super) behaviour: Behaviour,
    pub(super) th: Thinking,
    pub(super) seed: u64,
    pub(super) budget: Budget,
    pub(super) exits: Option<&'c Vec<Pos>>,
    /// `AiBook::crawl.walked_distance`: in a crawl, enemies are as far as the walk to them.
    pub(super) walked: bool,
}

/// The plans of `a`'s opportunity, best first (at most `MAX_PLANS`), with the positions scored
/// and whether the budget cut the search short.
pub(super) fn plan_opportunity(m: &Match, a: usize, brief: &Brief, start: Instant) -> (Vec<Plan>, usize, bool) {
    let f = &m.fighters[a];
    let behaviour = brief.behaviour;
    let th = brief.th;
    let mut plans = first_plans(m, a);
    let reach = Reach::new(m, a, brief);
    // Issue 45: the figure's orders, one more input (fitted to the spaces it can end on).
    let mut steer = super::orders::Steer::new(m, a);
    if let Some(st) = steer.as_mut() {
        st.fit(m, reach.spots.iter().map(|s| s.pos));
    }
    let still = steer.as_ref().is_some_and(|st| st.still);
    let sc = Scorer::new(m, a, brief, reach.budget, steer);
    if let (Some(here), true, false) = (sc.to_exit(f.pos), reach.can_move, still) {
        if let Some(dest) = m.board.stairs_destination(f.pos).filter(|_| matches!(m.board.tile(f.pos), Some(crate::rules::grid::Tile::Stairs { .. }))) {
            if sc.to_exit(dest).is_some_and(|d| d < here) {
                if let Some(row) = m.rules.movements.iter().find(|r| matches!(r.effect, MovementEffect::Climb)) {
                    plans.push(Plan { free: vec![], movement: Some((row.id.clone(), vec![], None)), action: None, score: 20.0 });
                }
            }
        }
    }
    let (mut light, scored, cut) = sc.score(&reach.spots, brief.budget, start);
    // Build commands for the best few only.
    light.sort_by(|x, y| y.score.partial_cmp(&x.score).unwrap_or(std::cmp::Ordering::Equal));
    for l in light.into_iter().take(MAX_PLANS) {
        let s = reach.spots[l.spot];
        let (free_path, movement) = match s.row {
            Some(k) => {
                let (root, path) = reach.moves[k].1.path(s.pos);
                (reach.free.path(root).1, Some((reach.moves[k].0.clone(), path, None)))
            }
            None => (reach.free.path(s.pos).1, None),
        };
        let action = match l.what {
            What::Attack { target, row } => Some(Command::action(&f.id, &sc.attack_rows[row].id, Some(&m.fighters[target].id))),
            What::Spell { target, spell } => Some(cast(&f.id, &m.fighters[target].id, &f.spells[spell])),
            What::Move => None,
        };
        plans.push(Plan { free: free_path, movement, action, score: l.score });
    }
    heal_plans(m, a, &mut plans);
    // Waiting: keep AP for a later round (skirmishers wait for the enemy to come closer).
    let wait_score = if behaviour.waits && th.patience && !f.opp.anything() { 0.6 } else { 0.0 };
    plans.push(Plan { free: vec![], movement: None, action: None, score: wait_score });
    plans.sort_by(|x, y| y.score.partial_cmp(&x.score).unwrap_or(std::cmp::Ordering::Equal));
    plans.truncate(MAX_PLANS);
    (plans, scored, cut)
}

/// The plans that come before any position is weighed: standing up (R-MOVE-7: no moving while
/// down), and a potion when hurt.
fn first_plans(m: &Match, a: usize) -> Vec<Plan> {
    let f = &m.fighters[a];
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
    plans
}

/// Healing a wounded ally.
fn heal_plans(m: &Match, a: usize, plans: &mut Vec<Plan>) {
    let f = &m.fighters[a];
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
}

/// Where the figure can end its movement: after its free steps (`free`), then maybe one
/// movement row (`moves`: each row's id and the region it reaches); `spots` cheapest first.
/// `budget`: the AP the opportunity may still spend.
pub(super) struct Reach {
    pub(super) free: search::Region,
    pub(super) moves: Vec<(String, search::Region)>,
    pub(super) spots: Vec<Spot>,
    can_move: bool,
    budget: u32,
}

impl Reach {
    pub(super) fn new(m: &Match, a: usize, brief: &Brief) -> Self {
        let f = &m.fighters[a];
        let th = brief.th;
        let ap = f.ap.current;
        // Positions: free steps first (easy forgets them half the time), then one movement.
        let use_free = f.free_steps.available
            && !f.opp.free_steps
            && f.opp.movement.is_none()
            && f.opp.action.is_none()
            && f.ap.current >= 1
            && noise(brief.seed, m, a, 99) >= th.forget_free_steps;
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
        Reach { free, moves, spots, can_move, budget }
    }
}

/// What scoring a spot needs, worked out once per decision: the enemies, the attack kinds and
/// what they cost now, each target's attack odds, the enemies' threats and (hard) their answer
/// next round, the way to the exit, and how good the figure's own space is.
struct Scorer<'m> {
    m: &'m Match,
    a: usize,
    f: &'m Fighter,
    behaviour: Behaviour,
    th: Thinking,
    seed: u64,
    budget: u32,
    enemies: Vec<usize>,
    attack_rows: Vec<&'m ActionRow>,
    retreat: bool,
    exit_field: Option<search::Field>,
    enemy_field: Option<search::Field>,
    row_prices: Vec<Option<Price>>,
    spell_price: Option<Price>,
    forgets_action: bool,
    ctxs: Vec<value::AttackContext>,
    threats: Vec<(Pos, u32)>,
    answer_weight: f64,
    outlook: Option<value::Outlook>,
    base_answer: f64,
    keeps: bool,
    ideal: f64,
    aims: Vec<value::AttackContext>,
    here_value: f64,
    /// Issue 45: what the figure's orders ask (`ai::orders`).
    steer: Option<super::orders::Steer>,
}

impl<'m> Scorer<'m> {
    fn new(m: &'m Match, a: usize, brief: &Brief, budget: u32, steer: Option<super::orders::Steer>) -> Self {
        let f = &m.fighters[a];
        let behaviour = brief.behaviour;
        let th = brief.th;
        // R-CP-16: a non-hostile NPC is never attacked unprovoked.
        let peaceful = |e: usize| m.explore.as_deref().is_some_and(|x| x.peaceful(e));
        let enemies: Vec<usize> = (0..m.fighters.len()).filter(|&e| m.enemies(a, e) && !m.is_dead(e) && m.fighters[e].hp > 0 && !peaceful(e)).collect();
        let w = m.equipment.wielded(f);
        let attack_rows: Vec<&ActionRow> = m.rules.actions.iter().filter(|r| is_attack(r)).collect();
        let retreat = (f.hp as f64) <= behaviour.retreat_below * f.max_hp as f64;
        // A side that wins by reaching an exit heads for it (easy forgets).
        let exit_field = brief.exits.filter(|e| !e.is_empty() && th.heads_for_exits).map(|e| search::shared_field(m, e));
        // Issue 47: in a crawl's maze, straight-line nearness stalls a fight behind a wall.
        let at: Vec<Pos> = enemies.iter().map(|&e| m.fighters[e].pos).collect();
        let enemy_field = (brief.walked && m.explore.is_some() && !at.is_empty()).then(|| search::shared_field(m, &at));
        // What each attack kind costs now (R-AP-1, R-AP-3, R-ONLY-3..9): a plan must leave room for it.
        let row_prices: Vec<Option<Price>> = attack_rows.iter().map(|r| price_only(f, r.cost, "").ok()).collect();
        let spell_price = m.rules.action("cast_spell").and_then(|r| price_only(f, r.cost, "").ok());
        // Easy loses track of the fight now and then: a whole turn without an attack.
        let forgets_action = th.forget_action > 0.0 && turn_noise(brief.seed, m, a) < th.forget_action;
        let ctxs: Vec<value::AttackContext> =
            if f.opp.action.is_none() && !retreat && !forgets_action { enemies.iter().map(|&t| value::AttackContext::new(m, a, t)).collect() } else { vec![] };
        let threats = enemy_threats(m, a);
        let answer_weight = th.answer * behaviour.caution;
        let outlook = (answer_weight > 0.0).then(|| value::Outlook::new(m, a));
        let base_answer = outlook.as_ref().map_or(0.0, |o| o.incoming(m, f.pos, 0, None).0);
        // How good a space is to end a move on, without attacking from it.
        let ranged = matches!(w, Wielded::Ranged(_));
        let keeps = ranged || behaviour.keeps_range;
        let ideal = match &w {
            Wielded::Ranged(r) => r.range.max(2) as f64,
            _ => 1.0,
        };
        let aims: Vec<value::AttackContext> = if ranged { enemies.iter().map(|&t| value::AttackContext::new(m, a, t)).collect() } else { vec![] };
        let mut sc = Scorer {
            m,
            a,
            f,
            behaviour,
            th,
            seed: brief.seed,
            budget,
            enemies,
            attack_rows,
            retreat,
            exit_field,
            enemy_field,
            row_prices,
            spell_price,
            forgets_action,
            ctxs,
            threats,
            answer_weight,
            outlook,
            base_answer,
            keeps,
            ideal,
            aims,
            here_value: 0.0,
            steer,
        };
        sc.here_value = sc.place_value(f.pos, 0);
        sc
    }

    /// Steps from `p` to the nearest exit, when the side heads for one.
    fn to_exit(&self, p: Pos) -> Option<u32> {
        self.exit_field.as_ref().and_then(|d| d.get(&p).copied())
    }

    fn nearest(&self, p: Pos) -> u32 {
        let m = self.m;
        let straight = self.enemies.iter().map(|&e| m.fighters[e].pos.distance(p)).min().unwrap_or(0);
        self.enemy_field.as_ref().map_or(straight, |d| d.get(&p).copied().unwrap_or(straight + 64))
    }

    /// How much more the enemies deal the side next round with the figure at `p`.
    fn answer(&self, p: Pos, def: i32, removed: Option<(usize, f64)>) -> f64 {
        let m = self.m;
        self.outlook.as_ref().map_or(0.0, |o| o.incoming(m, p, def, removed).0 - self.base_answer)
    }

    fn wounded(&self, t: usize) -> f64 {
        let m = self.m;
        1.0 - m.fighters[t].hp.max(0) as f64 / m.fighters[t].max_hp.max(1) as f64
    }

    fn best_shot(&self, p: Pos) -> f64 {
        let m = self.m;
        self.aims.iter().filter_map(|c| c.placement(m, p, m.fighters[c.target].pos).map(|pl| c.value(pl, 0, 0, 0))).fold(0.0, f64::max)
    }

    /// How good a space is to end a move on, without attacking from it.
    fn place_value(&self, p: Pos, pen: i32) -> f64 {
        let (behaviour, th) = (&self.behaviour, &self.th);
        let d = self.nearest(p) as f64;
        let v = if self.retreat {
            d * 0.8
        } else if self.keeps {
            self.best_shot(p) - (d - self.ideal).abs() * 0.3
        } else {
            -d * behaviour.approach
        };
        v - if th.exposure > 0.0 { threat(&self.threats, p) * 0.05 } else { 0.0 } - self.answer_weight * self.answer(p, pen, None)
    }

    /// Every candidate from the spots, in order, until the budget runs out; with the number of
    /// spots scored and whether the budget cut the search short.
    fn score(&self, spots: &[Spot], limits: Budget, start: Instant) -> (Vec<Light>, usize, bool) {
        let mut light: Vec<Light> = Vec::new();
        let mut cut = false;
        let mut scored = 0;
        for (si, s) in spots.iter().enumerate() {
            if si >= limits.max_spots || (si % 16 == 15 && limits.deadline.is_some_and(|d| start.elapsed() > d)) {
                cut = true;
                break;
            }
            scored += 1;
            let exposure = threat(&self.threats, s.pos);
            self.attacks(si, s, exposure, &mut light);
            self.spells(si, s, exposure, &mut light);
            self.moves(si, s, &mut light);
        }
        (light, scored, cut)
    }

    /// Attacks from spot `s`: the best attack kind per target.
    fn attacks(&self, si: usize, s: &Spot, exposure: f64, light: &mut Vec<Light>) {
        let (m, a, th, budget, answer_weight) = (self.m, self.a, &self.th, self.budget, self.answer_weight);
        for ctx in &self.ctxs {
            let t = ctx.target;
            if self.steer.as_ref().is_some_and(|st| !st.may_attack(m, s.pos, t)) {
                continue;
            }
            let bonus = self.steer.as_ref().map_or(0.0, |st| st.bonus(t));
            let Some(pl) = ctx.placement(m, s.pos, m.fighters[t].pos) else { continue };
            let hp = m.fighters[t].hp;
            let mut top: Option<Light> = None;
            for (ri, row) in self.attack_rows.iter().enumerate() {
                let ActionEffect::Attack { attack, damage, .. } = row.effect else { continue };
                if !fits(self.row_prices[ri], s, budget) {
                    continue;
                }
                let ev = ctx.value(pl, attack, damage, 0);
                let defense_given = (row.defense + s.pen) as f64; // negative
                // Damage now, focus on the wounded, the chance to take the target out (and so
                // spare the side its answer), against the Defense given up and (hard) what the
                // enemies deal the side next round; easy adds its slips.
                let drop = if th.drop > 0.0 || answer_weight > 0.0 { ctx.hit(pl, attack, 0) * ctx.drops(damage, hp) } else { 0.0 };
                let finish = if ev * 1.3 >= hp as f64 { th.finish } else { 0.0 };
                let answered = if answer_weight > 0.0 { answer_weight * self.answer(s.pos, row.defense + s.pen, Some((t, drop))) } else { 0.0 };
                let slip = if th.noise > 0.0 { noise(self.seed, m, a, t as u64 * 31 + row.id.len() as u64) * th.noise } else { 0.0 };
                let score = ev * (1.0 + th.focus * self.wounded(t)) + finish + drop * th.drop + defense_given.min(0.0) * th.exposure * exposure
                    - answered
                    - s.ap as f64 * 0.05
                    + slip
                    + bonus;
                if top.is_none_or(|l| 3.0 + score > l.score) {
                    top = Some(Light { score: 3.0 + score, spot: si, what: What::Attack { target: t, row: ri } });
                }
            }
            light.extend(top);
        }
    }

    /// Spells at enemies in range and sight from spot `s`.
    fn spells(&self, si: usize, s: &Spot, exposure: f64, light: &mut Vec<Light>) {
        let (m, f) = (self.m, self.f);
        if f.opp.action.is_none() && !self.retreat && !self.forgets_action && fits(self.spell_price, s, self.budget) {
            for (sp_i, sp) in f.spells.iter().enumerate() {
                let Some(sd) = m.spells.get(sp) else { continue };
                let pool_ok = match sd.tradition {
                    crate::rules::fighter::Caster::Divine => f.fp >= sd.cost,
                    _ => f.mp >= sd.cost,
                };
                if !pool_ok || matches!(sd.effect, crate::rules::spells::SpellEffect::Heal { .. }) {
                    continue;
                }
                for &t in &self.enemies {
                    if self.steer.as_ref().is_some_and(|st| !st.may_attack(m, s.pos, t)) {
                        continue;
                    }
                    let d = m.fighters[t].pos.distance(s.pos);
                    if d > sd.range || value::sight(m, s.pos, m.fighters[t].pos) == Sight::None {
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
                        score: 3.0 + value - exposure * 0.1 - self.answer_weight * self.answer(s.pos, s.pen, None),
                        spot: si,
                        what: What::Spell { target: t, spell: sp_i },
                    });
                }
            }
        }
    }

    /// Moving to spot `s` without an action: only when the new space is better than staying
    /// (closer, at the weapon's range with a shot, farther when retreating, nearer the exit, safer).
    fn moves(&self, si: usize, s: &Spot, light: &mut Vec<Light>) {
        let f = self.f;
        if let Some(st) = &self.steer {
            if !st.may_end(self.m, s.pos) {
                return;
            }
            // Heading where the orders say (the route's next space, the area, the refuge…).
            if st.heads() && f.opp.action.is_none() && s.pos != f.pos {
                let after = st.dist(s.pos);
                if after == u32::MAX {
                    return;
                }
                let before = st.dist(f.pos).min(after.saturating_add(1));
                let progress = before as f64 - after as f64;
                let score = progress * 1.5 + if progress > 0.0 { 2.5 } else { 0.0 } - s.ap as f64 * 0.05;
                light.push(Light { score, spot: si, what: What::Move });
                return;
            }
        }
        if f.opp.action.is_none() && s.pos != f.pos {
            let score = if let (Some(before), Some(after)) = (self.to_exit(f.pos), self.to_exit(s.pos)) {
                let progress = before as f64 - after as f64;
                progress * 1.5 + if progress > 0.0 { 2.5 } else { 0.0 } - s.ap as f64 * 0.05
            } else {
                let arrival = self.steer.as_ref().map_or(0.0, |st| st.arrival(self.m, s.pos));
                self.place_value(s.pos, s.pen) - self.here_value - s.ap as f64 * 0.05 + arrival
            };
            light.push(Light { score, spot: si, what: What::Move });
        }
    }
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
pub(super) struct Spot {
    pub(super) pos: Pos,
    pub(super) row: Option<usize>,
    pub(super) ap: u32,
    pub(super) pen: i32,
}

/// Whether an action priced `price` can follow the movement to `s` in this opportunity: a plain
/// price within the AP left under the cap (R-AP-1, R-AP-3); Only mode after no movement (R-ONLY-6).
fn fits(price: Option<Price>, s: &Spot, budget: u32) -> bool {
    match price {
        Some(p) if p.only => s.row.is_none(),
        Some(p) => s.ap + p.ap <= budget,
        None => false,
    }
}

/// A Cast Spell command.
fn cast(actor: &str, target: &str, spell: &str) -> Command {
    let mut c = Command::action(actor, "cast_spell", Some(target));
    if let Command::Action { spell: s, .. } = &mut c {
        *s = Some(spell.to_string());
    }
    c
}
