//! Cast Spell's own requirements (R-MANA-1, R-MANA-4, G-26): the spell known, the caster's
//! tradition, the points, the range and the line of sight, beyond the action's AP.

use super::super::fighter::{Caster, Pool};
use super::super::grid::Sight;
use super::super::state::Match;
use super::super::violation::{RuleResult, Violation};
use super::book::SpellEffect;

pub fn pool_of(tradition: Caster) -> Pool {
    if tradition == Caster::Divine { Pool::Faith } else { Pool::Mana }
}

/// Can `a` cast `spell` at `target` now (beyond the action's AP)?
pub fn check_spell(m: &Match, a: usize, spell: Option<&str>, target: Option<usize>) -> RuleResult<(String, usize)> {
    let f = &m.fighters[a];
    let Some(id) = spell else { return Err(Violation::new("R-MANA-4", "Cast Spell needs a spell.")) };
    let s = m.spells.get(id).ok_or_else(|| Violation::new("G-26", format!("There is no spell '{id}'.")))?;
    if !f.spells.iter().any(|k| k == id) {
        return Err(Violation::new("G-26", format!("{} does not know {}.", f.name, s.name)));
    }
    if !f.caster.casts(s.tradition) {
        return Err(Violation::new("R-MANA-1", format!("{} is {:?} magic; {} is not that kind of caster.", s.name, s.tradition, f.name).to_lowercase()));
    }
    let (have, pool) = match pool_of(s.tradition) {
        Pool::Mana => (f.mp, "Mana"),
        Pool::Faith => (f.fp, "Faith"),
    };
    if have < s.cost {
        return Err(Violation::new("R-MANA-4", format!("{} costs {} {pool}; {} has {have}.", s.name, s.cost, f.name)));
    }
    let t = target.unwrap_or(a);
    let tf = &m.fighters[t];
    if m.is_dead(t) {
        return Err(Violation::new("R-INJ-8", format!("{} is dead.", tf.name)));
    }
    let d = f.pos.distance(tf.pos);
    if d > s.range {
        return Err(Violation::new("G-26", format!("{} is {d} spaces away; {} reaches {}.", tf.name, s.name, s.range)));
    }
    if !matches!(s.effect, SpellEffect::Heal { .. }) {
        if t == a {
            return Err(Violation::new("G-26", format!("{} needs another target.", s.name)));
        }
        if m.board.line_of_sight(f.pos, tf.pos) == Sight::None {
            return Err(Violation::new("R-ATK-12", format!("{} has no line of sight to {}.", f.name, tf.name)));
        }
    }
    Ok((id.to_string(), t))
}
