//! §20 healing the engine calls: stopping bleeding (first aid, healing spells) and the first-aid
//! CR. First aid and potions are actions (see `engine.rs`). Binding wounds, recuperation and a
//! caregiver's help (R-HEAL-5, R-HEAL-7, R-HEAL-8) happen in narrative time and come with
//! Exploration Mode.

use super::attack::Injury;
use super::event::Event;
use super::fighter::{ConditionInstance, Duration, Fighter};

/// R-INJ-7, R-HEAL-1: stops a character's bleeding (first aid, any healing spell), if it bleeds.
pub fn stop_bleeding(f: &mut Fighter, reason: &str, ev: &mut Vec<Event>) {
    if f.has_condition("bleeding") {
        f.conditions.retain(|c| c.id != "bleeding");
        ev.push(Event::ConditionRemoved { actor: f.id.as_str().into(), condition: "bleeding".into(), reason: reason.into() });
    }
}

/// A4-3.20, A4-G-20: a new wound (HP from `before`, already ≤ 0, lower still) makes a stabilized
/// dying figure bleed again. The rulesets that have the rule call it (`CrisisRules::rebleeds`).
pub fn rebleed(f: &mut Fighter, before: i32, ev: &mut Vec<Event>) {
    if before <= 0 && f.hp < before && f.hp > -f.max_hp && !f.has_condition("bleeding") {
        let c = ConditionInstance { id: "bleeding".into(), duration: Duration::Persistent, removal_cr: None };
        ev.push(Event::ConditionAdded { actor: f.id.as_str().into(), condition: c.clone() });
        f.conditions.push(c);
    }
}

/// R-HEAL-1 / R-HEAL-2: the first-aid CR by the patient's status (an unhurt patient counts
/// as bruised); self-aid one rank harder. The engine's First Aid uses this.
pub fn first_aid_cr(status: Injury, own: bool) -> Option<i32> {
    let base = match status {
        Injury::Healthy | Injury::Bruised => 6,
        Injury::Wounded | Injury::Incapacitated => 9,
        _ => return None,
    };
    Some(if own { base + 3 } else { base })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test] // R-HEAL-1, R-HEAL-2: first-aid CRs
    fn first_aid() {
        assert_eq!(
            [first_aid_cr(Injury::Bruised, false), first_aid_cr(Injury::Wounded, false), first_aid_cr(Injury::Incapacitated, false)],
            [Some(6), Some(9), Some(9)]
        );
        assert_eq!([first_aid_cr(Injury::Bruised, true), first_aid_cr(Injury::Wounded, true)], [Some(9), Some(12)]);
        assert_eq!(first_aid_cr(Injury::Dead, false), None, "the dead are past first aid");
    }
}
