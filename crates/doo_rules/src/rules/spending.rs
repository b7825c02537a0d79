//! §5 spending AP: whose opportunity it is, the order free steps → one movement → one action,
//! the 3-AP cap (R-AP-3), affordability (R-AP-1).

use super::fighter::Fighter;
use super::profile::Cost;
use super::state::{Match, Phase};
use super::violation::{RuleResult, Violation};

/// What a declaration will cost.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Price {
    pub ap: u32,
    /// Taken in Only mode: all remaining AP, nothing else this turn (R-ONLY-6).
    pub only: bool,
}

/// The command must come from the character whose opportunity is open (R-TURN-9, R-TURN-12),
/// in the action phase (R-TURN-8), able to act (R-TURN-11), not after an Only action (R-ONLY-6).
pub fn guard_opportunity(m: &Match, a: usize) -> RuleResult {
    let f = &m.fighters[a];
    if m.clock.phase != Phase::Action {
        return Err(Violation::new("R-TURN-8", format!("{} cannot act now: characters act only in the action phase.", f.name)));
    }
    if m.is_dead(a) {
        return Err(Violation::new("R-INJ-8", format!("{} is dead.", f.name)));
    }
    if !m.can_act(a) {
        return Err(Violation::new("R-TURN-11", format!("{} is unable to act (stunned, incapacitated or otherwise barred).", f.name)));
    }
    if f.turn.took_only {
        return Err(Violation::new("R-ONLY-6", format!("{} took an Only action and can do nothing else this turn.", f.name)));
    }
    match m.clock.current {
        Some(c) if c == a => Ok(()),
        Some(c) => Err(Violation::new("R-TURN-9", format!("It is {}'s opportunity, not {}'s.", m.fighters[c].name, f.name)).also("R-TURN-12")),
        None => Err(Violation::new("R-TURN-9", format!("No opportunity is open for {}.", f.name))),
    }
}

/// R-ONLY-3..9: the price of an `X/Only` or pure `Only` row for this character now.
pub fn price_only(f: &Fighter, cost: Cost, what: &str) -> RuleResult<Price> {
    match cost {
        Cost::XOnly(x) if f.ap.start >= x => {
            // R-ONLY-4: a plain cost of X; R-ONLY-7: once below X, neither form is open.
            if f.ap.current < x {
                let mut v = Violation::new(
                    "R-ONLY-7",
                    format!(
                        "{what} costs {x} AP for {} this turn (AP_start {} ≥ {x}), and only {} AP remain; Only mode is not open to a character who started with {x} or more.",
                        f.name, f.ap.start, f.ap.current
                    ),
                );
                v.also.push("R-ONLY-4".into());
                return Err(v);
            }
            Ok(Price { ap: x, only: false })
        }
        Cost::XOnly(_) | Cost::Only => {
            // R-ONLY-5/6: Only mode needs a turn with nothing done but free steps.
            if f.turn.did_anything || f.opp.movement.is_some() || f.opp.action.is_some() {
                let mut v = Violation::new("R-ONLY-6", format!("{what} in Only mode needs a turn in which {} has done nothing yet except free steps.", f.name));
                v.also.push("R-ONLY-5".into());
                return Err(v);
            }
            if f.ap.current == 0 {
                return Err(Violation::new("R-ONLY-9", format!("{} has no AP left.", f.name)));
            }
            Ok(Price { ap: f.ap.current, only: true })
        }
        Cost::Fixed(n) => Ok(Price { ap: n, only: false }),
        Cost::PerSpace(n) => Ok(Price { ap: n, only: false }),
        Cost::PerTwoSpaces(n) => Ok(Price { ap: n, only: false }),
        Cost::Crossbow { crank, .. } => Ok(Price { ap: crank, only: false }),
    }
}

/// R-AP-3: movement + action AP in one opportunity stay within the cap (Only mode excepted).
pub fn check_cap(m: &Match, f: &Fighter, price: Price, what: &str) -> RuleResult {
    let cap = m.rules.limits.opportunity_ap_cap;
    if !price.only && f.opp.spent + price.ap > cap {
        return Err(Violation::new(
            "R-AP-3",
            format!(
                "{what} would bring this opportunity to {} AP; movement and action together may cost at most {cap} AP ({} already spent).",
                f.opp.spent + price.ap,
                f.opp.spent
            ),
        ));
    }
    Ok(())
}

/// R-AP-1: current AP must cover a fixed cost.
pub fn check_afford(f: &Fighter, price: Price, what: &str) -> RuleResult {
    if f.ap.current < price.ap {
        return Err(Violation::new("R-AP-1", format!("{what} costs {} AP; {} has {}.", price.ap, f.name, f.ap.current)));
    }
    Ok(())
}

/// Pays a price: Only mode empties the pool (R-ONLY-6); AP never go below 0 (R-AP-1).
pub fn pay(f: &mut Fighter, price: Price, counts_to_cap: bool) -> u32 {
    let amount = if price.only { f.ap.current } else { price.ap.min(f.ap.current) };
    f.ap.current -= amount;
    if counts_to_cap {
        f.opp.spent += amount;
    }
    if price.only {
        f.turn.took_only = true;
    }
    amount
}
