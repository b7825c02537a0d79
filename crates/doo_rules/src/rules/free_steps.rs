//! §6 free steps: once per turn, in one opportunity, first in it, with at least 1 AP in hand,
//! standing, along the same map rules as Step (R-FS-1..12).

use super::grid::Pos;
use super::profile::Posture;
use super::state::Match;
use super::violation::{RuleResult, Violation};

/// G-01/G-02/R-FS-12: a path of single steps from `from`; enemies block, allies may be passed
/// through but not ended on.
pub fn check_path(m: &Match, a: usize, from: Pos, path: &[Pos], rule: &str) -> RuleResult {
    let mut at = from;
    for (k, &p) in path.iter().enumerate() {
        m.board.step_geometry(at, p).map_err(|e| Violation::new("G-01", format!("Step {} of the path: {e}.", k + 1)).also(rule))?;
        if let Some(o) = m.occupant(p) {
            if o != a && m.enemies(a, o) && m.fighters[o].hp > 0 {
                return Err(Violation::new("G-02", format!("{} blocks {p}: enemies cannot be passed through.", m.fighters[o].name)).also(rule));
            }
        }
        at = p;
    }
    if let Some(o) = m.occupant(at) {
        if o != a {
            return Err(Violation::new("G-02", format!("{at} is taken by {}: one figure per space.", m.fighters[o].name)).also(rule));
        }
    }
    Ok(())
}

/// Where a character's free steps stand now, as the card and the bar show them.
#[derive(Clone, Debug, PartialEq)]
pub enum FreeStepsNow {
    /// They may be taken now, up to this many spaces.
    Usable(u32),
    /// Still his this turn (this many spaces), but not in this opportunity: the rule why not
    /// (R-FS-6: a Step or an action came first; R-FS-10: a condition forbids moving).
    Held(u32, Violation),
    /// Gone for this turn: used, forfeited or lost, with the rule.
    Gone(Violation),
}

/// R-FS-2..10: whether `a`'s free steps can be taken now, are kept for a later opportunity of
/// this turn, or are gone (used, forfeited, lost), with the validator's own reasons. For one
/// whose opportunity it is not, "now" is his next opportunity (a fresh one: R-FS-6 is met).
pub fn status(m: &Match, a: usize) -> FreeStepsNow {
    let mut fresh;
    let mut f = &m.fighters[a];
    if m.clock.current != Some(a) {
        fresh = f.clone();
        fresh.opp = Default::default();
        f = &fresh;
    }
    // Gone for the turn: the reason they are gone, not the order of an opportunity's steps.
    if let Some(v) = gone(f) {
        return FreeStepsNow::Gone(v);
    }
    if f.ap.current == 0 {
        return FreeStepsNow::Gone(no_ap(f));
    }
    let broken = blockers(m, f);
    match broken.into_iter().next() {
        None => FreeStepsNow::Usable(f.free_steps.allowance),
        Some(first) => FreeStepsNow::Held(f.free_steps.allowance, first),
    }
}

fn no_ap(f: &super::fighter::Fighter) -> Violation {
    Violation::new("R-FS-5", format!("{} needs at least 1 AP in hand to take free steps; at 0 AP they are lost for the turn.", f.name))
}

/// Why `f`'s free steps are gone for this turn, if they are (R-FS-2, R-FS-3, R-FS-5, R-FS-9).
fn gone(f: &super::fighter::Fighter) -> Option<Violation> {
    if f.posture != Posture::Standing {
        return Some(Violation::new("R-FS-9", format!("{} is not standing; free steps are lost on sitting, kneeling or going prone.", f.name)));
    }
    if f.opp.free_steps {
        return Some(Violation::new("R-FS-3", "Free steps are taken all at once: the rest of the allowance was forfeited."));
    }
    if !f.free_steps.available {
        use super::fighter::FreeStepsLoss::*;
        let (rule, why) = match f.free_steps.lost {
            Some(Used) => ("R-FS-3", "free steps are used once per turn, all in one opportunity, and they were used"),
            Some(NoAp) => ("R-FS-5", "they were lost when the AP reached 0"),
            Some(LeftStanding) => ("R-FS-9", "they were lost on leaving the standing posture, and standing up again does not restore them"),
            Some(NotStandingAtReset) => ("R-FS-2", "only characters standing at the reset get free steps"),
            Some(UnableToAct) => ("R-FS-9", "they were lost on becoming unable to act"),
            None => ("R-FS-3", "none are left this turn"),
        };
        return Some(Violation::new(rule, format!("{} has no free steps this turn: {why}.", f.name)));
    }
    None
}

/// Every rule free steps would break now whatever the path, the first one as the headline.
fn blockers(m: &Match, f: &super::fighter::Fighter) -> Vec<Violation> {
    let mut broken: Vec<Violation> = Vec::new();
    if f.opp.movement.is_some() || f.opp.action.is_some() {
        broken.push(Violation::new("R-FS-6", "Free steps must come before any movement or action in an opportunity."));
    }
    if f.ap.current == 0 {
        broken.push(no_ap(f));
    }
    if broken.is_empty() {
        if let Some(v) = gone(f) {
            broken.push(v);
        } else if let Some(c) = m.conditions.movement_blocker(f, m.rules.options.conditions_adv) {
            broken.push(Violation::new("R-FS-10", format!("{} is {} and cannot move, free steps included.", f.name, c.name.to_lowercase())));
        }
    }
    broken
}

/// Every rule free steps along `path` would break, the first one as the headline (R-FS-3..12).
pub fn check_free_steps(m: &Match, a: usize, path: &[Pos]) -> RuleResult {
    let f = &m.fighters[a];
    let mut broken = blockers(m, f);
    if broken.is_empty() {
        if path.is_empty() {
            broken.push(Violation::new("R-FS-3", "Free steps need a path of at least one space."));
        } else if m.board.path_cost(path) > f.free_steps.allowance {
            broken.push(Violation::new(
                "R-FS-1",
                format!(
                    "{} spaces of movement (difficult ground counts twice) is more than {}'s free-step allowance of {}.",
                    m.board.path_cost(path),
                    f.name,
                    f.free_steps.allowance
                ),
            ));
        }
    }
    if let Some(mut v) = broken.first().cloned() {
        v.also = broken.iter().skip(1).map(|b| b.rule.clone()).collect();
        return Err(v);
    }
    check_path(m, a, f.pos, path, "R-FS-12")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testkit::duel;

    const LUNK: &str = r#"(id: "lunk", side: "heroes", pos: (0, 0), stats: (brawn: 9, finesse: 7, savvy: 5, nerve: 6))"#;
    const ORC: &str = r#"(id: "orc", side: "monsters", pos: (7, 1), stats: (brawn: 8, finesse: 6, savvy: 4, nerve: 6))"#;
    const START: &str = r#"(characters: {"lunk": (ap: 4), "orc": (ap: 1)})"#;

    fn rule(s: FreeStepsNow) -> String {
        match s {
            FreeStepsNow::Usable(n) => format!("usable {n}"),
            FreeStepsNow::Held(n, v) => format!("held {n} {}", v.rule),
            FreeStepsNow::Gone(v) => format!("gone {}", v.rule),
        }
    }

    #[test] // R-FS-6: after a Step the free steps are kept for a later opportunity, not usable in this one (the card must not say "available")
    fn a_step_first_holds_the_free_steps() {
        let mut g = duel(None, 8, &[LUNK, ORC], START, &[]);
        let a = g.m.index("lunk").unwrap();
        assert_eq!(rule(status(&g.m, a)), "usable 2");
        g.ok(r#"move(actor: "lunk", movement: "step", path: [(1, 0)])"#);
        assert_eq!(rule(status(&g.m, a)), "held 2 R-FS-6");
        assert!(check_free_steps(&g.m, a, &[super::super::grid::Pos::new(2, 0)]).is_err(), "the validator agrees");
    }

    #[test] // R-FS-3: free steps taken are gone for the turn, whatever part of the allowance was left
    fn free_steps_taken_are_gone() {
        let mut g = duel(None, 8, &[LUNK, ORC], START, &[]);
        let a = g.m.index("lunk").unwrap();
        g.ok(r#"free_steps(actor: "lunk", path: [(1, 0)])"#);
        assert_eq!(rule(status(&g.m, a)), "gone R-FS-3");
        g.ok(r#"move(actor: "lunk", movement: "step", path: [(2, 0)])"#);
        assert_eq!(rule(status(&g.m, a)), "gone R-FS-3", "gone because taken, not because a Step came after them");
    }
}
