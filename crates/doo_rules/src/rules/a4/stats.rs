//! A figure's numbers under A4: its skill pools (A4-G-29) and penalties, speed (A4-1.3), reach
//! and the squares it threatens (A4-G-22), the target number of an attack on it (A4-G-30 and
//! on), its reactive defence (A4-3.21), soak and weapon damage, the odds of an attack, and the
//! order of the round (A4-5). Every function is handed the match's A4 state.

use super::super::attack::weapon_deficit;
use super::super::equipment::{Stat, Wielded};
use super::super::fighter::{AdjTarget, Size};
use super::super::grid::{Pos, Sight};
use super::super::profile::Posture;
use super::super::state::Match;
use super::book::{FullAttackRow, RankRef, StatRef};
use super::pool::{self, Pool};
use super::state::A4;
use std::cmp::Reverse;

/// Sort key of the order: higher initiative first, a delayer after the others at its number
/// (A4-G-17), then the better Athletics (A4-5.2), then level order (A4-G-26).
pub fn order_key(a4: &A4, i: usize) -> (Reverse<i32>, bool, Reverse<i32>, usize) {
    let r = &a4.figs[i];
    (Reverse(r.initiative), r.delayed, Reverse(r.tie), i)
}

fn stat_value(m: &Match, i: usize, s: &StatRef) -> i32 {
    let f = &m.fighters[i];
    let stat = match s {
        StatRef::Brawn => Stat::Brawn,
        StatRef::Finesse => Stat::Finesse,
        StatRef::Savvy => Stat::Savvy,
        StatRef::Nerve => Stat::Nerve,
        StatRef::WeaponCheck => m.equipment.wielded(f).check_stat(),
    };
    (match stat {
        Stat::Brawn => f.stats.brawn,
        Stat::Finesse => m.equipment.finesse_rank(f),
        Stat::Savvy => f.stats.savvy,
        Stat::Nerve => f.stats.nerve,
    }) as i32
}

/// A4-G-29: the figure's pool for a named skill, before any penalty: `3 × stat` (averaged over
/// the listed stats, rounded down) + the best listed rank's adjustment, armor and Brawn minimums.
pub fn skill_pool(m: &Match, a4: &A4, i: usize, skill: &str) -> Pool {
    let b = &a4.book;
    let per = b.pools.pips_per_die;
    let Some(def) = b.pools.skills.get(skill) else { return Pool { dice: 1, pips: 0 } };
    let f = &m.fighters[i];
    let stats: i32 = def.stats.iter().map(|s| stat_value(m, i, s) * b.pools.pips_per_stat).sum();
    let mut pips = if def.stats.is_empty() { 0 } else { stats / def.stats.len() as i32 };
    let rank = def
        .ranks
        .iter()
        .map(|r| match r {
            RankRef::WeaponSkill => f.skill(m.equipment.wielded(f).skill()).adjustment(),
            RankRef::Skill(s) => f.skill(s).adjustment(),
        })
        .max();
    pips += rank.unwrap_or(0) * b.pools.rank_pips_per_point;
    let armor = f.loadout.armor.as_deref().and_then(|a| b.armor.get(a));
    if skill == b.initiative.skill || skill == "athletics" {
        pips += armor.map_or(0, |a| a.athletics_dice * per);
    }
    if skill.ends_with("attack") {
        pips += b.pools.brawn_deficit_pips * weapon_deficit(m, i) as i32;
    }
    Pool::from_pips(pips, per)
}

/// The penalty dice on `i`'s own rolls now: extra actions (A4-G-04) and reactive defences
/// (A4-G-21).
pub fn penalty_dice(a4: &A4, i: usize) -> i32 {
    let b = &a4.book;
    let s = &a4.figs[i];
    let extra = if s.counted > b.actions.penalty_free_count { b.actions.extra_action_penalty_dice } else { 0 };
    extra + s.penalty_now
}

/// A rolled pool: the skill's, with `extra` dice and the figure's penalties, floored at the
/// minimum and capped (A4-G-31).
pub fn action_pool(m: &Match, a4: &A4, i: usize, skill: &str, extra: i32) -> Pool {
    let b = &a4.book;
    skill_pool(m, a4, i, skill).plus_dice(extra - penalty_dice(a4, i)).floored(b.pools.min_action_dice, b.pools.max_dice)
}

/// The attack skill of the ready weapon.
pub fn attack_skill(m: &Match, i: usize) -> &'static str {
    if m.equipment.wielded(&m.fighters[i]).is_melee() { "melee_attack" } else { "ranged_attack" }
}

/// A4-1.3, A4-G-02, A4-G-03: squares per move action.
pub fn speed(m: &Match, a4: &A4, i: usize) -> u32 {
    let b = &a4.book;
    let f = &m.fighters[i];
    let base = match f.size {
        Size::Small => b.movement.small,
        Size::Medium => b.movement.base,
        Size::Large => b.movement.large,
    } as i32;
    let ath = skill_pool(m, a4, i, "athletics").dice;
    let bonus = b.movement.athletics_bonus.iter().filter(|x| ath >= x.min_dice).map(|x| x.squares as i32).max().unwrap_or(0);
    let armor = f.loadout.armor.as_deref().and_then(|a| b.armor.get(a)).map_or(0, |a| a.speed);
    (base + bonus + armor).max(b.movement.min as i32) as u32
}

/// The reach of `x`'s ready weapon in melee, or nothing for a ranged weapon (A4-G-22).
fn melee_reach(m: &Match, a4: &A4, x: usize) -> Vec<u32> {
    let b = &a4.book;
    match m.equipment.wielded(&m.fighters[x]) {
        Wielded::Unarmed => b.threat.unarmed_reach.clone(),
        Wielded::Melee(_, mode) => mode.reach.iter().copied().filter(|&d| d > 0).collect(),
        Wielded::Ranged(_) => Vec::new(),
    }
}

/// A4-G-22: `x` threatens square `s` (could make a melee attack at a figure standing there).
pub fn threatens(m: &Match, a4: &A4, x: usize, s: Pos) -> bool {
    let r = &a4.figs[x];
    if !m.can_act(x) || m.is_dead(x) || r.flat_footed || r.surprised || r.full_defense.is_some() || r.sheathed {
        return false;
    }
    let at = m.fighters[x].pos;
    at.floor == s.floor && melee_reach(m, a4, x).contains(&at.distance(s)) && m.board.line_of_sight(at, s) != Sight::None
}

/// A4-4.1, A4-4.2: the enemies of `mover` who threaten `s` and still have an attack of
/// opportunity this round, in initiative order.
pub fn threateners(m: &Match, a4: &A4, mover: usize, s: Pos) -> Vec<usize> {
    let b = &a4.book;
    let mut v: Vec<usize> =
        (0..m.fighters.len()).filter(|&x| x != mover && m.enemies(x, mover) && a4.figs[x].aoo < b.threat.aoo_per_round && threatens(m, a4, x, s)).collect();
    v.sort_by_key(|&x| order_key(a4, x));
    v
}

/// A4-7.1, A4-G-37: some figure able to act, other than the shooter and hostile to the target,
/// stands next to it.
pub fn in_melee(m: &Match, shooter: usize, t: usize) -> bool {
    let at = m.fighters[t].pos;
    (0..m.fighters.len())
        .any(|o| o != shooter && o != t && m.enemies(o, t) && m.can_act(o) && m.fighters[o].pos.floor == at.floor && m.fighters[o].pos.distance(at) == 1)
}

/// The target number of an attack by `a` on `t`, with its parts (A4-G-30, A4-G-13, A4-G-36,
/// A4-G-37, A4-3.12, A4-G-08); `None` when the target is out of range or sight.
pub fn target_number(m: &Match, a4: &A4, a: usize, t: usize) -> Option<(i32, Vec<(String, i32)>)> {
    target_number_at(m, a4, a, m.fighters[a].pos, t)
}

/// `target_number` with the attacker standing at `at` (a charge's last square).
pub fn target_number_at(m: &Match, a4: &A4, a: usize, at: Pos, t: usize) -> Option<(i32, Vec<(String, i32)>)> {
    let b = &a4.book;
    let (fa, ft) = (&m.fighters[a], &m.fighters[t]);
    let d = at.distance(ft.pos);
    let w = m.equipment.wielded(fa);
    let melee = w.is_melee();
    let sight = m.board.line_of_sight(at, ft.pos);
    if sight == Sight::None || at.floor != ft.pos.floor {
        return None;
    }
    let mut parts: Vec<(String, i32)> = Vec::new();
    let base = match &w {
        Wielded::Ranged(r) => {
            if d == 0 || d > r.range * r.limit {
                return None;
            }
            b.tn.ranged.iter().find(|band| d <= r.range * band.up_to_base_times).or(b.tn.ranged.last()).map_or(b.tn.melee, |band| band.tn)
        }
        _ => {
            if !melee_reach(m, a4, a).contains(&d) {
                return None;
            }
            b.tn.melee
        }
    };
    parts.push((if melee { "melee".into() } else { format!("range {d}").into() }, base));
    match sight {
        Sight::Partial => parts.push(("partial sight".into(), b.tn.partial_sight)),
        Sight::Minimal => parts.push(("minimal sight".into(), b.tn.minimal_sight)),
        _ => {}
    }
    if let Some(s) = ft.loadout.shield.as_deref().and_then(|s| m.equipment.shield(s)) {
        parts.push(("shield".into(), s.defense * b.tn.shield_per_defense_point));
    }
    if fa.posture == Posture::Prone {
        parts.push(("attacker prone".into(), if melee { b.tn.prone.own_melee } else { b.tn.prone.own_ranged }));
    }
    if ft.posture == Posture::Prone {
        parts.push(("target prone".into(), if melee { b.tn.prone.target_melee } else { b.tn.prone.target_ranged }));
    }
    let rs = &a4.figs[t];
    if rs.charged {
        parts.push(("target charged".into(), b.movement.charged_tn));
    }
    if !melee && in_melee(m, a, t) {
        parts.push(("into melee".into(), b.tn.into_melee));
    }
    if let Some(fd) = rs.full_defense {
        parts.push(("full defense".into(), fd));
    }
    if let Some(md) = rs.moving_defense.filter(|_| !melee) {
        parts.push(("moving defense".into(), md));
    }
    // A4-G-41: a DoO Defense adjustment still in force counts on the TN.
    let adj = ft.temp_adjustment(AdjTarget::Defense, melee) + m.conditions.active(ft, m.rules.options.conditions_adv).map(|r| r.defense).sum::<i32>();
    if adj != 0 {
        parts.push(("conditions".into(), adj));
    }
    parts.retain(|p| p.1 != 0);
    Some((parts.iter().map(|p| p.1).sum(), parts))
}

/// The defence pool `t` would throw as a reactive defence against `a` now, or why none
/// (A4-3.21, A4-G-21).
pub fn reactive_pool(m: &Match, a4: &A4, t: usize, a: usize) -> Result<Pool, &'static str> {
    let b = &a4.book;
    let r = &a4.figs[t];
    if !m.can_act(t) || m.is_dead(t) {
        return Err("it cannot act");
    }
    if r.surprised {
        return Err("it is surprised (A4-5.4)");
    }
    if r.flat_footed {
        return Err("it is flat-footed: it has not acted yet this combat (A4-5.3)");
    }
    if r.full_defense.is_some() {
        return Err("it is on full defense, which already counts (A4-3.12)");
    }
    let skill = if m.equipment.wielded(&m.fighters[a]).is_melee() { "defense_melee" } else { "defense_ranged" };
    let cut = b.reactive_defense.first_dice + b.reactive_defense.further_dice * r.reactive as i32;
    let p = skill_pool(m, a4, t, skill).plus_dice(-cut - penalty_dice(a4, t));
    if p.dice < b.reactive_defense.min_dice {
        return Err("its defense pool would fall below 1D");
    }
    Ok(p.floored(1, b.pools.max_dice))
}

/// A4-G-35: armor soak.
pub fn soak(m: &Match, a4: &A4, t: usize) -> i32 {
    let b = &a4.book;
    let f = &m.fighters[t];
    f.loadout.armor.as_deref().map_or(0, |a| b.armor.get(a).map(|x| x.soak).or_else(|| m.equipment.armor(a).map(|x| x.reduction)).unwrap_or(0))
}

/// The ready weapon's damage dice `(n, sides, bonus)` (A4-6.6; no exploding).
pub fn weapon_damage(m: &Match, a: usize) -> (u32, u32, i32) {
    let f = &m.fighters[a];
    match m.equipment.wielded(f) {
        Wielded::Melee(w, _) if w.small_improvised => (1, f.stats.brawn.div_ceil(2).max(1), (f.stats.brawn / 5) as i32),
        Wielded::Melee(w, _) => (w.damage.0, w.damage.1, w.damage_adj),
        Wielded::Ranged(w) => (w.damage.0, w.damage.1, 0),
        Wielded::Unarmed => (1, f.stats.brawn.div_ceil(2).max(1), 0),
    }
}

/// What an attack by `a` on `t` would likely do now: the exact chance to hit with no reactive
/// defence and with one, the chance of each band, the expected damage, and for a shot into
/// melee who a stray may strike (A4-6.2, A4-6.6, A4-7.1).
#[derive(Clone, Debug, PartialEq)]
pub struct Odds {
    pub pool: Pool,
    pub tn: i32,
    pub hit: f64,
    /// With the reactive defence the target can throw now, if it can.
    pub hit_defended: Option<(Pool, f64)>,
    /// Miss, then each band in book order (undefended).
    pub bands: Vec<f64>,
    pub expected_damage: f64,
    /// A4-7.1, A4-G-37: a shot into melee: each figure next to the target and the chance that
    /// the shot (undefended) goes astray and strikes it; empty when no stray is possible.
    pub stray: Vec<(usize, f64)>,
}

pub fn odds(m: &Match, a4: &A4, a: usize, t: usize, extra_dice: i32) -> Option<Odds> {
    odds_at(m, a4, a, m.fighters[a].pos, t, extra_dice)
}

/// `odds` with the attacker standing at `at` (a charge's last square, A4-3.2).
pub fn odds_at(m: &Match, a4: &A4, a: usize, at: Pos, t: usize, extra_dice: i32) -> Option<Odds> {
    let b = &a4.book;
    let (tn, parts) = target_number_at(m, a4, a, at, t)?;
    let pool = action_pool(m, a4, a, attack_skill(m, a), extra_dice);
    let die = b.pools.die;
    let hit = pool::at_least(pool, tn, die).value();
    let hit_defended = reactive_pool(m, a4, t, a).ok().map(|d| (d, pool::against_pool(pool, tn, d, die).value()));
    let edges: Vec<i32> = b.damage.bands.iter().map(|x| x.min_margin).collect();
    let bands = pool::bands(pool, tn, None, &edges, die);
    let (n, sides, bonus) = weapon_damage(m, a);
    let avg = n as f64 * (sides as f64 + 1.0) / 2.0 + bonus as f64;
    let soak = soak(m, a4, t);
    let expected_damage = b
        .damage
        .bands
        .iter()
        .zip(bands.iter().skip(1))
        .map(|(band, p)| {
            let s = if band.half_soak { soak / 2 } else { soak };
            p * (avg + band.bonus as f64 - s as f64).max(0.0)
        })
        .sum();
    let into_melee = parts.iter().find(|p| p.0 == "into melee").map_or(0, |p| p.1);
    let stray = if into_melee > 0 { stray_odds(m, a4, a, t, pool, tn, into_melee) } else { Vec::new() };
    Some(Odds { pool, tn, hit, hit_defended, bands, expected_damage, stray })
}

/// A4-7.1, A4-G-37 (as `strike::resolve` throws it): a fumble is a miss by no more than the
/// into-melee penalty; one figure next to the target is picked uniformly, and the shot is
/// thrown again at its TN without that penalty (no reactive defence).
fn stray_odds(m: &Match, a4: &A4, a: usize, t: usize, pool: Pool, tn: i32, into_melee: i32) -> Vec<(usize, f64)> {
    let die = a4.book.pools.die;
    let fumble = pool::at_least(pool, tn - into_melee, die).value() - pool::at_least(pool, tn, die).value();
    let at = m.fighters[t].pos;
    let near: Vec<usize> = (0..m.fighters.len())
        .filter(|&o| o != a && o != t && !m.is_dead(o) && m.fighters[o].pos.floor == at.floor && m.fighters[o].pos.distance(at) == 1)
        .collect();
    let n = near.len() as f64;
    near.iter()
        .map(|&s| {
            let hit = target_number(m, a4, a, s).map_or(0.0, |(tn_s, parts_s)| {
                let tn_s = tn_s - parts_s.iter().find(|p| p.0 == "into melee").map_or(0, |p| p.1);
                pool::at_least(pool, tn_s, die).value()
            });
            (s, fumble / n * hit)
        })
        .collect()
}

/// A4-G-12: drawing and sheathing are free and safe when both Athletics and the weapon's attack
/// pool are "Great".
pub fn great_draw(m: &Match, a4: &A4, a: usize) -> bool {
    let b = &a4.book;
    skill_pool(m, a4, a, "athletics").dice >= b.pools.great_dice && skill_pool(m, a4, a, attack_skill(m, a)).dice >= b.pools.great_dice
}

/// A4-G-05: the full-attack row for the figure's attack pool before penalties.
pub fn full_attack_row(m: &Match, a4: &A4, a: usize) -> FullAttackRow {
    let b = &a4.book;
    let dice = skill_pool(m, a4, a, attack_skill(m, a)).dice;
    b.actions.full_attack.iter().filter(|r| dice >= r.min_attack_dice).max_by_key(|r| r.min_attack_dice).cloned().unwrap_or(b.actions.full_attack[0].clone())
}
