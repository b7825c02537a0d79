//! Spells as data (`assets/rules/spells.ron`, R-MANA-4, G-26): each spell's tradition, cost,
//! range and effect. `check` says whether a spell may be cast now; `cast` resolves it.

use super::super::equipment::DiceSpec;
use super::super::fighter::{Caster, Duration};
use serde::{Deserialize, Serialize};

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum SpellEffect {
    /// A casting check against the target's Defense; damage on a hit.
    Bolt { damage: DiceSpec },
    /// A casting check against `cr`; heals and stabilizes on success.
    Heal { amount: DiceSpec, cr: i32 },
    /// A casting check against the target's Defense; the condition on success.
    Inflict { condition: String, duration: Duration },
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Spell {
    pub id: String,
    pub name: String,
    pub tradition: Caster,
    /// MP (arcane) or FP (divine).
    pub cost: i32,
    /// Cast with gestures: the shield's spellcasting adjustment applies (R-GEAR-8).
    pub gestures: bool,
    /// Spaces (Chebyshev).
    pub range: u32,
    pub effect: SpellEffect,
    #[serde(default)]
    pub description: String,
    /// A starter spell: every caster hero of its tradition knows it (R-CP-15, G-85). Default true.
    #[serde(default = "yes", skip_serializing_if = "Clone::clone")]
    pub starter: bool,
}

fn yes() -> bool {
    true
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, Default)]
#[serde(deny_unknown_fields)]
pub struct SpellBook {
    pub spells: Vec<Spell>,
}

impl SpellBook {
    pub fn get(&self, id: &str) -> Option<&Spell> {
        self.spells.iter().find(|s| s.id == id)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test] // G-26, R-MANA-4: the starter spells load: damage, healing, a condition
    fn starter_spells_load() {
        let b = SpellBook::builtin();
        assert!(matches!(b.get("firebolt").map(|s| &s.effect), Some(SpellEffect::Bolt { .. })));
        assert!(matches!(b.get("healing_word").map(|s| &s.effect), Some(SpellEffect::Heal { cr: 9, .. })));
        assert!(matches!(b.get("entangle").map(|s| &s.effect), Some(SpellEffect::Inflict { .. })));
    }
}
