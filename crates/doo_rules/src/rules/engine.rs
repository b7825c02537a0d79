//! One path for every `Command`: `validate` (pure: the actor, the crisis not over, then the
//! rules of the mode through `ruleset`) returns a `Plan` or a `Violation`; `apply` carries the
//! plan out (pays, moves, adjusts, throws dice). Bevy's Validate and Apply systems, the AI, the
//! replays and the tests all call these two.

use super::command::Command;
use super::dice::Dice;
use super::event::Event;
use super::plan;
use super::ruleset;
use super::state::Match;
use super::turn::Flow;
use super::violation::RuleResult;

pub use super::plan::Plan;

/// Checks a command against the rules without changing anything (R-AP-1).
pub fn validate(m: &Match, cmd: &Command) -> RuleResult<Plan> {
    // Issue 46: while a level event's choice waits, only its answer is taken.
    if let Some(r) = super::event_choice::gate(m, cmd) {
        return r;
    }
    let a = plan::actor(m, cmd)?;
    ruleset::validate(m, a, cmd)
}

/// Applies a checked plan, then moves the flow on. Returns what the flow needs next.
pub fn apply(m: &mut Match, plan: Plan, dice: &mut Dice, ev: &mut Vec<Event>) -> Flow {
    // Another command was applied: the last attack is no longer the one a late reflex answers
    // (reactions to that attack, and declining them, keep it).
    if let Plan::Choose { option } = plan {
        return super::event_choice::choose(m, dice, option, ev);
    }
    if !matches!(plan, Plan::Reflex { .. } | Plan::Respond { .. } | Plan::Decline { .. }) {
        m.clock.last_attack = None;
    }
    ruleset::apply(m, plan, dice, ev)
}

/// Before a command is checked: an open reaction window it does not answer is declined, and
/// an opportunity in which something was done ends when another character's command arrives
/// (the holder acted; R-TURN-12). Returns the flow when the turn structure moved on.
pub fn close_stale(m: &mut Match, cmd: &Command, dice: &mut Dice, ev: &mut Vec<Event>) -> Option<Flow> {
    ruleset::close_stale(m, cmd, dice, ev)
}

#[cfg(test)]
mod tests {
    use crate::testkit::duel;

    const ORC: &str =
        r#"(id: "orc", side: "monsters", pos: (1, 0), stats: (brawn: 8, finesse: 6, savvy: 4, nerve: 6), skills: {"maces": apprentice}, weapon: Some("mace"))"#;
    const ARCHER: &str = r#"(id: "orc", side: "monsters", pos: (3, 0), stats: (brawn: 5, finesse: 8, savvy: 6, nerve: 7), skills: {"bows": apprentice}, weapon: Some("shortbow"))"#;

    fn dara(skills: &str, weapon: &str) -> String {
        format!(
            r#"(id: "dara", side: "heroes", pos: (0, 0), stats: (brawn: 8, finesse: 8, savvy: 5, nerve: 7), skills: {{{skills}}}, weapon: Some("{weapon}"))"#
        )
    }

    const START: &str = r#"(characters: {"dara": (ap: 3), "orc": (ap: 4)})"#;
    // dara's Defense 2 + 2, the orc's Attack 1 + 1: a miss, no damage dice
    const MISS: [u32; 4] = [2, 2, 1, 1];

    #[test] // R-META-2: an A4 order (`round`) sent to a DoO match is refused, never the old `unreachable!` (issue 27, crash 3)
    fn an_a4_order_in_a_doo_match_is_r_meta_2() {
        let d = dara(r#""swords": journeyman"#, "broadsword");
        let mut g = duel(None, 6, &[&d, ORC], START, &MISS);
        for who in ["orc", "dara"] {
            let v = g.refused(&format!(r#"round(actor: "{who}", act: end_turn)"#));
            assert!(v.rule == "R-META-2" || v.also.iter().any(|r| r == "R-META-2") || v.rule == "R-TURN-9", "{who}: {} {}", v.rule, v.reason);
        }
        let v = g.refused(r#"round(actor: "orc", act: end_turn)"#);
        assert_eq!(v.rule, "R-META-2", "{}", v.reason);
        assert!(v.reason.contains("'round'"), "{}", v.reason);
    }

    #[test] // R-REACT-3: reflexes answer melee attacks only; a Parry after a shot names R-REACT-3, R-REACT-2 at most in `also`
    fn parry_after_a_ranged_attack_is_r_react_3() {
        let d = dara(r#""swords": foreman"#, "broadsword");
        let mut g = duel(None, 6, &[&d, ARCHER], START, &MISS);
        g.ok(r#"action(actor: "orc", action: "attack", target: Some("dara"))"#);
        assert!(g.m.pending.is_none(), "no reflex window against a shot");
        let v = g.refused(r#"reflex(actor: "dara", reflex: "parry")"#);
        assert_eq!(v.rule, "R-REACT-3", "{}", v.reason);
        assert_eq!(v.also, vec!["R-REACT-2".to_string()]);
        assert_eq!(g.fighter("dara").ap.current, 3);
    }

    #[test] // R-REACT-5: Parry needs Foreman rank; Journeyman Swords after a skipped window is R-REACT-5, not R-REACT-2
    fn parry_below_foreman_is_r_react_5() {
        let d = dara(r#""swords": journeyman"#, "broadsword");
        let mut g = duel(None, 6, &[&d, ORC], START, &MISS);
        g.ok(r#"action(actor: "orc", action: "attack", target: Some("dara"))"#);
        let v = g.refused(r#"reflex(actor: "dara", reflex: "parry")"#);
        assert_eq!(v.rule, "R-REACT-5", "{}", v.reason);
        assert_eq!(v.also, vec!["R-REACT-2".to_string()]);
    }

    #[test] // R-REACT-5: Counterattack needs Master rank; Foreman Swords (Parry only) is refused with R-REACT-5 in and after the window
    fn counterattack_below_master_is_r_react_5() {
        let d = dara(r#""swords": foreman"#, "broadsword");
        let mut g = duel(None, 6, &[&d, ORC], START, &MISS);
        g.ok(r#"action(actor: "orc", action: "attack", target: Some("dara"))"#);
        // the window is open (Parry): the refusal is the requirement, as before
        assert_eq!(g.refused(r#"reflex(actor: "dara", reflex: "counterattack")"#).rule, "R-REACT-5");
        g.ok(r#"decline(actor: "dara")"#);
        // the window is closed: still the requirement first, the timing in `also`
        let v = g.refused(r#"reflex(actor: "dara", reflex: "counterattack")"#);
        assert_eq!((v.rule.as_str(), v.also.clone()), ("R-REACT-5", vec!["R-REACT-2".to_string()]), "{}", v.reason);
        // a Parry he could have declared in time: the timing rule alone
        let v = g.refused(r#"reflex(actor: "dara", reflex: "parry")"#);
        assert_eq!((v.rule.as_str(), v.also.len()), ("R-REACT-2", 0), "{}", v.reason);
    }

    #[test] // R-REACT-5 during an open response window (R-REACT-8): Riposte is offered, a Parry below Foreman is R-REACT-5
    fn parry_in_a_response_window_is_r_react_5() {
        let d = r#"(id: "dara", side: "heroes", pos: (0, 0), stats: (brawn: 8, finesse: 8, savvy: 5, nerve: 7), skills: {"fencing": journeyman}, weapon: Some("dagger"), weapon_skill: Some("fencing"))"#;
        let mut g = duel(None, 6, &[d, ORC], START, &MISS);
        g.ok(r#"action(actor: "orc", action: "attack", target: Some("dara"))"#);
        let p = g.m.pending.as_ref().expect("a response window");
        assert_eq!(p.window, Some(crate::rules::state::Window::Response));
        let v = g.refused(r#"reflex(actor: "dara", reflex: "parry")"#);
        assert_eq!((v.rule.as_str(), v.also.clone()), ("R-REACT-5", vec!["R-REACT-2".to_string()]), "{}", v.reason);
        assert!(g.m.pending.as_ref().is_some_and(|p| p.window == Some(crate::rules::state::Window::Response)), "the window stays open");
        g.ok(r#"decline(actor: "dara")"#);
    }

    #[test] // R-REACT-2: with no attack on him, a reflex is refused for its timing; legal reflexes are unchanged
    fn reflex_without_an_attack_is_r_react_2() {
        let d = dara(r#""swords": master"#, "broadsword");
        let mut g = duel(None, 6, &[&d, ORC], START, &[2, 2, 3, 3]);
        let v = g.refused(r#"reflex(actor: "dara", reflex: "parry")"#);
        assert_eq!((v.rule.as_str(), v.also.len()), ("R-REACT-2", 0));
        g.ok(r#"action(actor: "orc", action: "attack", target: Some("dara"))"#);
        g.ok(r#"reflex(actor: "dara", reflex: "parry")"#);
        assert_eq!(g.fighter("dara").ap.current, 2);
        // another command applied since: the attack is no longer remembered
        g.ok(r#"pass(actor: "dara")"#);
        let v = g.refused(r#"reflex(actor: "dara", reflex: "counterattack")"#);
        assert_eq!(v.rule, "R-REACT-2");
    }

    #[test] // R-TURN-12: a character cannot delay; refused with R-TURN-12 and nothing changes
    fn delay_is_refused_with_r_turn_12() {
        let d = dara(r#""swords": master"#, "broadsword");
        let mut g = duel(None, 6, &[&d, ORC], START, &[]);
        assert_eq!(g.current(), Some("orc"));
        let v = g.refused(r#"delay(actor: "orc")"#);
        assert_eq!(v.rule, "R-TURN-12");
        assert!(v.reason.contains("cannot delay"), "{}", v.reason);
        assert_eq!(g.current(), Some("orc"), "the opportunity stays open");
        assert_eq!(g.refused(r#"delay(actor: "dara")"#).rule, "R-TURN-12", "out of turn too");
        // after he did something, a delay does not end his opportunity either
        g.ok(r#"move(actor: "orc", movement: "step", path: [(2, 0)])"#);
        assert_eq!(g.refused(r#"delay(actor: "dara")"#).rule, "R-TURN-12");
        assert_eq!(g.current(), Some("orc"));
        assert_eq!(g.refused(r#"delay(actor: "nobody")"#).rule, "INPUT");
    }

    #[test] // R-TURN-12: a delay does not decline an open reflex window
    fn delay_leaves_a_window_open() {
        let d = dara(r#""swords": master"#, "broadsword");
        let mut g = duel(None, 6, &[&d, ORC], START, &[2, 2, 3, 3]);
        g.ok(r#"action(actor: "orc", action: "attack", target: Some("dara"))"#);
        assert_eq!(g.refused(r#"delay(actor: "dara")"#).rule, "R-TURN-12");
        assert!(g.m.pending.as_ref().is_some_and(|p| p.window == Some(crate::rules::state::Window::Reflex)));
        g.ok(r#"reflex(actor: "dara", reflex: "parry")"#);
    }
}
