//! §20 healing outside the action economy: binding wounds after combat, recuperation and a
//! caregiver's help (narrative time). First aid and potions are actions (see `engine.rs`).

use super::attack::Injury;
use super::checks::{ranks, scaling_steps};
use super::event::Event;
use super::fighter::Fighter;

/// R-INJ-7, R-HEAL-1: stops a character's bleeding (first aid, any healing spell), if it bleeds.
pub fn stop_bleeding(f: &mut Fighter, reason: &str, ev: &mut Vec<Event>) {
    if f.has_condition("bleeding") {
        f.conditions.retain(|c| c.id != "bleeding");
        ev.push(Event::ConditionRemoved { actor: f.id.clone(), condition: "bleeding".into(), reason: reason.into() });
    }
}


/// R-HEAL-5 / C-36: binding wounds, one check only: (CR, HP restored on success) by status;
/// binding one's own wounds is one rank harder (bruised 9, wounded 12).
pub fn binding_wounds(status: Injury, own: bool) -> Option<(i32, i32)> {
    match (status, own) {
        (Injury::Bruised, false) => Some((6, 1)),
        (Injury::Bruised, true) => Some((9, 1)),
        (Injury::Wounded | Injury::Incapacitated, false) => Some((9, 2)),
        (Injury::Wounded, true) => Some((12, 2)),
        _ => None,
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

/// Resting circumstances for recuperation (R-HEAL-7).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Rest {
    Comfortable,
    Imperfect,
    Difficult,
    None,
}

/// R-HEAL-7: once a day, a scaling Brawn-or-Nerve check; each rank of success restores 1 HP.
pub fn recuperation(total: i32, rest: Rest, caregiver_bonus: i32) -> (i32, i32) {
    let cr = match rest {
        Rest::Comfortable => 6,
        Rest::Imperfect => 9,
        Rest::Difficult => 12,
        Rest::None => 15,
    };
    (cr, scaling_steps(total + caregiver_bonus - cr) as i32)
}

/// R-HEAL-8: a caregiver's Healing check adds +1 to the day's recuperation per rank of success.
pub fn caregiver_bonus(total: i32, patient: Injury) -> i32 {
    let cr = match patient {
        Injury::Bruised => 6,
        Injury::Wounded => 9,
        Injury::Incapacitated => 12,
        _ => return 0,
    };
    match ranks(total - cr) {
        (true, r) => r as i32,
        _ => 0,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test] // R-HEAL-5, C-36: binding wounds CR and HP; one's own wounds one rank harder (Hard 12)
    fn binding() {
        assert_eq!(binding_wounds(Injury::Bruised, false), Some((6, 1)));
        assert_eq!(binding_wounds(Injury::Wounded, false), Some((9, 2)));
        assert_eq!(binding_wounds(Injury::Incapacitated, false), Some((9, 2)));
        assert_eq!(binding_wounds(Injury::Wounded, true), Some((12, 2)));
        assert_eq!(binding_wounds(Injury::Healthy, false), None);
    }

    #[test] // R-HEAL-1, R-HEAL-2: first-aid CRs
    fn first_aid() {
        assert_eq!(
            [first_aid_cr(Injury::Bruised, false), first_aid_cr(Injury::Wounded, false), first_aid_cr(Injury::Incapacitated, false)],
            [Some(6), Some(9), Some(9)]
        );
        assert_eq!([first_aid_cr(Injury::Bruised, true), first_aid_cr(Injury::Wounded, true)], [Some(9), Some(12)]);
    }

    #[test] // R-HEAL-7, R-HEAL-8: recuperation scales by ranks; a caregiver adds +1 per rank
    fn recuperation_and_care() {
        assert_eq!(recuperation(6, Rest::Comfortable, 0), (6, 1));
        assert_eq!(recuperation(12, Rest::Comfortable, 0), (6, 3));
        assert_eq!(recuperation(8, Rest::Imperfect, 0), (9, 0));
        assert_eq!(recuperation(8, Rest::Imperfect, caregiver_bonus(9, Injury::Wounded)), (9, 1));
        assert_eq!(caregiver_bonus(15, Injury::Incapacitated), 2);
        assert_eq!(caregiver_bonus(11, Injury::Incapacitated), 0);
    }
}
