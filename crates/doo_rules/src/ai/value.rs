//! What attacks are worth, from the dice model the resolution uses (`odds`): the expected damage
//! of one figure's attack on another from any space, the player-facing `Forecast`, and (hard)
//! the `Outlook`: what the enemies can do to a side in their next opportunities.

use super::odds;
use crate::rules::attack::{attacker_parts, range_part, weapon_deficit};
use crate::rules::equipment::Wielded;
use crate::rules::grid::{Pos, Sight};
use crate::rules::profile::ActionEffect;
use crate::rules::state::Match;
use crate::rules::turn::sum;

thread_local! {
    /// Line of sight between two spaces, remembered while a lookahead plays its futures
    /// (`SightMemo`): the same questions come back in every rollout and candidate, and the
    /// geometry is most of a future's cost.
    static SIGHT_MEMO: std::cell::RefCell<Option<std::collections::HashMap<(Pos, Pos), Sight>>> = const { std::cell::RefCell::new(None) };
}

/// Line of sight as the AI weighs it (memoized inside a lookahead). A door opened inside a
/// future is not seen by the memo: only the AI's estimate is affected, never the rules (every
/// command is still validated by the engine), and the memo lives for one decision, so a seed
/// stays one game.
pub(super) fn sight(m: &Match, from: Pos, to: Pos) -> Sight {
    SIGHT_MEMO.with(|c| match c.borrow_mut().as_mut() {
        Some(map) => *map.entry((from, to)).or_insert_with(|| m.board.line_of_sight(from, to)),
        None => m.board.line_of_sight(from, to),
    })
}

/// While alive, `sight` remembers its answers (the outermost guard clears them on drop).
pub(super) struct SightMemo {
    outer: bool,
}

impl SightMemo {
    pub(super) fn start() -> Self {
        let outer = SIGHT_MEMO.with(|c| {
            let mut c = c.borrow_mut();
            let fresh = c.is_none();
            if fresh {
                *c = Some(std::collections::HashMap::new());
                super::search::field_memo(true);
            }
            fresh
        });
        SightMemo { outer }
    }
}

impl Drop for SightMemo {
    fn drop(&mut self) {
        if self.outer {
            SIGHT_MEMO.with(|c| *c.borrow_mut() = None);
            super::search::field_memo(false);
        }
    }
}

/// Everything about attacks by `a` on `t` that depends on neither figure's space: dice ranks,
/// the attacker's own adjustments, the defender's check, damage and armor.
#[derive(Clone, Debug)]
pub(super) struct AttackContext {
    pub(super) attacker: usize,
    pub(super) target: usize,
    rank: u32,
    own_adj: i32,
    defense: Option<(u32, i32)>,
    helpless_cr: i32,
    damage: f64,
    armor: f64,
    /// Damage dice (count, rank), whether they explode, the flat part (deficit), unarmed halving.
    dice: (u32, u32, bool, i32, bool),
    /// The weapon reaches distance d (index d), for d up to its longest reach.
    reach: Vec<bool>,
    ranged: bool,
}

impl AttackContext {
    pub(super) fn new(m: &Match, a: usize, t: usize) -> Self {
        let w = m.equipment.wielded(&m.fighters[a]);
        let defense = if crate::rules::defense::helpless(m, t) {
            None
        } else {
            Some((m.equipment.finesse_rank(&m.fighters[t]), crate::rules::defense::defense_adjustment(m, t, w.is_melee(), false)))
        };
        let (n, rank) = dice(m, a, &w);
        let mut damage = n as f64 * odds::die_mean(rank, m.rules.options.damage_explodes) - weapon_deficit(m, a) as f64;
        if matches!(w, Wielded::Unarmed) {
            damage = damage / 2.0 + 0.5;
        }
        let armor = m.fighters[t].loadout.armor.as_deref().and_then(|x| m.equipment.armor(x)).map_or(0, |x| x.reduction) as f64;
        let longest = match &w {
            Wielded::Ranged(r) => r.range * r.limit,
            Wielded::Melee(_, mode) => mode.reach.iter().copied().max().unwrap_or(1),
            Wielded::Unarmed => 1,
        };
        Self {
            attacker: a,
            target: t,
            rank: crate::rules::attack::stat_rank(m, a, w.check_stat()),
            own_adj: sum(&attacker_parts(m, a)),
            defense,
            helpless_cr: m.rules.limits.helpless_defense_cr,
            damage,
            armor,
            dice: (n, rank, m.rules.options.damage_explodes, -(weapon_deficit(m, a) as i32), matches!(w, Wielded::Unarmed)),
            reach: (0..=longest.min(64)).map(|d| w.reaches(d)).collect(),
            ranged: matches!(w, Wielded::Ranged(_)),
        }
    }

    pub(super) fn reaches(&self, d: u32) -> bool {
        self.reach.get(d as usize).copied().unwrap_or(false)
    }

    pub(super) fn is_ranged(&self) -> bool {
        self.ranged
    }

    /// The placement part of the Attack check with the attacker at `at` and the target at
    /// `t_at` (range and line of sight), or None when there is no line of sight or no reach.
    pub(super) fn placement(&self, m: &Match, at: Pos, t_at: Pos) -> Option<i32> {
        if !self.reaches(at.distance(t_at)) {
            return None;
        }
        // the same parts as the rules' `attack_parts_from` (R-ATK-5, R-ATK-12: line of sight)
        Some(range_part(m, self.attacker, at, self.target, t_at) + sight(m, at, t_at).attack_adjustment()?)
    }

    pub(super) fn hit(&self, placement: i32, atk_adj: i32, def_delta: i32) -> f64 {
        odds::hit_chance((self.rank, self.own_adj + placement + atk_adj), self.defense.map(|(r, d)| (r, d + def_delta)), self.helpless_cr)
    }

    /// Expected damage of a hit after armor.
    pub(super) fn per_hit(&self, dmg_adj: i32) -> f64 {
        (self.damage + dmg_adj as f64 - self.armor).max(0.5)
    }

    /// P(a hit with this damage adjustment deals at least `hp`) after armor.
    pub(super) fn drops(&self, dmg_adj: i32, hp: i32) -> f64 {
        let (n, rank, explodes, flat, unarmed) = self.dice;
        let mut need = hp - flat - dmg_adj + self.armor as i32;
        if unarmed {
            need = need * 2 - 1;
        }
        super::odds::sum_at_least(n, rank, explodes, need)
    }

    /// Expected damage with an attack action's own adjustments, the target's Defense changed by
    /// `def_delta` (a Run or an All-Out attack lowers it).
    pub(super) fn value(&self, placement: i32, atk_adj: i32, dmg_adj: i32, def_delta: i32) -> f64 {
        self.hit(placement, atk_adj, def_delta) * self.per_hit(dmg_adj)
    }
}

fn dice(m: &Match, a: usize, w: &Wielded) -> (u32, u32) {
    match w {
        Wielded::Melee(x, _) => (x.damage.0, x.damage.1),
        Wielded::Ranged(x) => (x.damage.0, x.damage.1),
        Wielded::Unarmed => (1, m.fighters[a].stats.brawn),
    }
}

/// Expected damage of an attack by `a` standing at `at` on `t` where it stands (0 out of reach).
pub(super) fn attack_value(m: &Match, a: usize, at: Pos, t: usize, atk_adj: i32, dmg_adj: i32) -> f64 {
    let ctx = AttackContext::new(m, a, t);
    ctx.placement(m, at, m.fighters[t].pos).map_or(0.0, |p| ctx.value(p, atk_adj, dmg_adj, 0))
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
    let ctx = AttackContext::new(m, a, t);
    let placement = range_part(m, a, m.fighters[a].pos, t, m.fighters[t].pos)
        + m.board.line_of_sight(m.fighters[a].pos, m.fighters[t].pos).attack_adjustment().unwrap_or(0);
    let w = m.equipment.wielded(&m.fighters[a]);
    let (n, rank) = dice(m, a, &w);
    let deficit = weapon_deficit(m, a) as i32;
    let (mut lo, mut hi) = (n as i32 - deficit + damage, (n * rank) as i32 - deficit + damage);
    if matches!(w, Wielded::Unarmed) {
        (lo, hi) = ((lo + 1) / 2, (hi + 1) / 2);
    }
    let armor = ctx.armor as i32;
    Some(Forecast {
        hit: ctx.hit(placement, attack, 0),
        min: (lo - armor).max(0),
        max: (hi - armor).max(0),
        explodes: m.rules.options.damage_explodes,
        expected: ctx.value(placement, attack, damage, 0),
    })
}

/// The forecast of spell `spell` cast by `a` at `t` (R-MANA-4, G-26), as `spells::cast` throws
/// it: the casting check (Savvy, or Nerve for a divine spell; the shield's spellcasting
/// adjustment for gestures, conditions) against the target's Defense check; a bolt's damage
/// after armor. None for a spell that heals (it is not aimed at a foe) or an unknown one.
pub fn spell_forecast(m: &Match, a: usize, t: usize, spell: &str) -> Option<Forecast> {
    use crate::rules::spells::SpellEffect;
    let s = m.spells.get(spell)?;
    let f = &m.fighters[a];
    let divine = crate::rules::spells::check::pool_of(s.tradition) == crate::rules::fighter::Pool::Faith;
    let stat = if divine { f.stats.nerve } else { f.stats.savvy };
    let shield = if s.gestures { f.loadout.shield.as_deref().and_then(|x| m.equipment.shield(x)).map_or(0, |x| x.spell) } else { 0 };
    let cond: i32 = m.conditions.active(f, m.rules.options.conditions_adv).map(|c| c.attack).sum();
    let defense = if crate::rules::defense::helpless(m, t) {
        None
    } else {
        Some((m.equipment.finesse_rank(&m.fighters[t]), crate::rules::defense::defense_adjustment(m, t, false, false)))
    };
    let hit = odds::hit_chance((stat, shield + cond), defense, m.rules.limits.helpless_defense_cr);
    let explodes = m.rules.options.damage_explodes;
    Some(match &s.effect {
        SpellEffect::Heal { .. } => return None,
        SpellEffect::Inflict { .. } => Forecast { hit, min: 0, max: 0, explodes: false, expected: 0.0 },
        SpellEffect::Bolt { damage } => {
            let armor = m.fighters[t].loadout.armor.as_deref().and_then(|x| m.equipment.armor(x)).map_or(0, |x| x.reduction) as i32;
            let mean = damage.0 as f64 * odds::die_mean(damage.1, explodes);
            Forecast {
                hit,
                min: (damage.0 as i32 - armor).max(0),
                max: ((damage.0 * damage.1) as i32 - armor).max(0),
                explodes,
                expected: hit * (mean - armor as f64).max(0.5),
            }
        }
    })
}

/// Spaces an enemy can cover before striking in its next opportunity: its free steps and the
/// steps of the AP it has left (or of a typical roll when it has spent them).
pub(super) fn strike_steps(m: &Match, e: usize) -> u32 {
    let f = &m.fighters[e];
    let ap = if f.ap.current > 0 { f.ap.current } else { 3 };
    f.free_steps.allowance + ap.min(m.rules.limits.opportunity_ap_cap).saturating_sub(1).max(1)
}

/// One enemy's next opportunity as the hard AI sees it.
struct Foe {
    e: usize,
    pos: Pos,
    steps: u32,
    /// Its attack on the deciding figure.
    on_me: AttackContext,
    /// The best it can do to one of the deciding figure's allies instead.
    best_other: f64,
}

/// Hard: the enemies' answer. Each able enemy attacks next round whichever figure of the
/// deciding side it can hurt most; the expected damage they deal is what a plan must weigh.
pub(super) struct Outlook {
    foes: Vec<Foe>,
}

impl Outlook {
    pub(super) fn new(m: &Match, a: usize) -> Self {
        let foes = (0..m.fighters.len())
            .filter(|&e| m.enemies(a, e) && m.can_act(e) && !m.is_dead(e) && m.fighters[e].hp > 0)
            .map(|e| {
                let steps = strike_steps(m, e);
                let pos = m.fighters[e].pos;
                // A melee enemy cannot reach an ally beyond its steps: no attack to weigh (the
                // same value as `reach_value`'s, without building the attack for every ally).
                let melee = !matches!(m.equipment.wielded(&m.fighters[e]), Wielded::Ranged(_));
                let best_other = (0..m.fighters.len())
                    .filter(|&x| x != a && !m.enemies(a, x) && !m.is_dead(x) && m.fighters[x].hp > 0)
                    .filter(|&x| !melee || (m.fighters[x].pos.floor == pos.floor && pos.distance(m.fighters[x].pos) <= steps + 1))
                    .map(|x| {
                        let ctx = AttackContext::new(m, e, x);
                        reach_value(m, &ctx, pos, steps, m.fighters[x].pos, 0)
                    })
                    .fold(0.0, f64::max);
                Foe { e, pos, steps, on_me: AttackContext::new(m, e, a), best_other }
            })
            .collect();
        Self { foes }
    }

    /// Expected damage the enemies deal to the deciding side next round with the deciding figure
    /// at `p`, its Defense changed by `def_delta`, and `removed` (enemy, chance) taken out of the
    /// fight by this plan with that chance. Also returns the part that falls on the figure itself.
    pub(super) fn incoming(&self, m: &Match, p: Pos, def_delta: i32, removed: Option<(usize, f64)>) -> (f64, f64) {
        let (mut side, mut me) = (0.0, 0.0);
        for f in &self.foes {
            let on_me = reach_value(m, &f.on_me, f.pos, f.steps, p, def_delta);
            let keep = match removed {
                Some((e, chance)) if e == f.e => 1.0 - chance,
                _ => 1.0,
            };
            if on_me >= f.best_other {
                me += on_me * keep;
            }
            side += on_me.max(f.best_other) * keep;
        }
        (side, me)
    }
}

/// What `ctx`'s attacker, standing at `from` and able to cover `steps` spaces, can do to its
/// target standing at `to`. Melee attackers close in first (no line of sight needed when
/// adjacent); archers shoot from where they stand.
fn reach_value(m: &Match, ctx: &AttackContext, from: Pos, steps: u32, to: Pos, def_delta: i32) -> f64 {
    if from.floor != to.floor {
        return 0.0;
    }
    if ctx.is_ranged() {
        return ctx.placement(m, from, to).map_or(0.0, |pl| ctx.value(pl, 0, 0, def_delta));
    }
    if from.distance(to) > steps + 1 {
        return 0.0;
    }
    ctx.value(0, 0, 0, def_delta)
}

/// Hard's horizon (issue 45, session 9): the blow `e` can strike next, as a fraction of its
/// victim's maximum HP (expected damage, at most the HP it has): the best over the enemies
/// it can reach with its free steps and the AP it holds (`strike_steps`; an archer from where
/// it stands). 0 for a figure that cannot act or holds no AP.
pub(super) fn next_blow(m: &Match, e: usize) -> f64 {
    let f = &m.fighters[e];
    if m.is_dead(e) || f.hp <= 0 || !m.can_act(e) || f.ap.current == 0 {
        return 0.0;
    }
    let steps = strike_steps(m, e);
    let melee = !matches!(m.equipment.wielded(f), Wielded::Ranged(_));
    (0..m.fighters.len())
        .filter(|&x| m.enemies(e, x) && !m.is_dead(x) && m.fighters[x].hp > 0)
        .filter(|&x| !melee || (m.fighters[x].pos.floor == f.pos.floor && f.pos.distance(m.fighters[x].pos) <= steps + 1))
        .map(|x| {
            let t = &m.fighters[x];
            let d = reach_value(m, &AttackContext::new(m, e, x), f.pos, steps, t.pos, 0);
            d.min(t.hp as f64) / t.max_hp.max(1) as f64
        })
        .fold(0.0, f64::max)
}
