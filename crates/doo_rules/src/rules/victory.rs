//! The end of a crisis: the level's goals (scenario triggers) and G-15. After every Apply the
//! game hands the rules' `Flow` to `settle`, which ends the crisis when a goal is met or a side
//! that took part has nobody able to act (both at once, G-15, R-TURN-17), or when an action
//! phase ends with one side alone able to act (G-15: a trap-begun crisis with no hostile). Either way one
//! `Event::CrisisOver` names the winner and the goal, and the closing reset follows
//! (R-TURN-17). The window, `doo simulate` and `doo run` all end a match here.

use super::event::Event;
use super::state::Match;
use super::turn::{self, Flow};

pub use super::goal::{Goal, Victory};

/// Who won (`None`: nobody, a draw), by which goal (`None`: G-15), and why, in words.
#[derive(Clone, Debug, PartialEq)]
pub struct Outcome {
    pub winner: Option<String>,
    pub goal: Option<Goal>,
    pub reason: String,
}

/// Someone of the side is able to act (inactive NPCs of a crawl count, R-EXP-23).
fn able(m: &Match, side: &str) -> bool {
    (0..m.fighters.len()).any(|i| m.fighters[i].side == side && m.standing(i))
}

/// The problems of a match's goals (from a script): sides and characters that do not exist,
/// exits off the map, survival goals of 0 turns. An unknown side would count as routed at once.
pub fn goal_problems(m: &Match) -> Vec<String> {
    let mut out = Vec::new();
    for v in &m.goals {
        if !m.fighters.iter().any(|f| f.side == v.side) {
            out.push(format!("victory: unknown side '{}'", v.side));
        }
        match &v.goal {
            Goal::Rout(s) if !m.fighters.iter().any(|f| &f.side == s) => out.push(format!("victory: unknown side '{s}' to rout")),
            Goal::Defeat(c) if m.index(c).is_none() => out.push(format!("victory: unknown character '{c}'")),
            Goal::SurviveTurns(0) => out.push("victory: survive at least 1 turn".into()),
            Goal::Event(_) => out.push("victory: an Event goal is set by a level event's `win` or `lose`, not listed".into()),
            Goal::ReachExit(exits) if exits.is_empty() => out.push("victory: ReachExit needs at least one exit space".into()),
            Goal::ReachExit(exits) => {
                for e in exits.iter().filter(|e| !m.board.walkable(**e)).take(5) {
                    out.push(format!("victory: exit {e} is not a space a figure can stand on"));
                }
            }
            _ => {}
        }
    }
    out
}

/// The first of the match's goals that is met now, else its turn limit's draw (`turn_limit`).
/// `turn_ended`: the action phase of the current turn has just ended (a SurviveTurns goal counts
/// that turn as survived).
pub fn goal_met(m: &Match, turn_ended: bool) -> Option<Outcome> {
    a_goal_met(m, turn_ended).or_else(|| turn_limit(m, turn_ended))
}

/// The match's turn limit (`Match::turn_limit`: a level's `turn_limit`, or a match option such as
/// the network bench's) reached with no goal met: a draw, nobody wins. Reached once the action
/// phase of the limit's turn has ended (or any later turn has begun), as `doo simulate` and the
/// ladder stop a game after turn `ladder::MAX_TURNS`. Part of the match's state, so every peer
/// that replays the same commands ends the match at the same command.
pub fn turn_limit(m: &Match, turn_ended: bool) -> Option<Outcome> {
    let n = m.turn_limit?;
    let reached = m.clock.turn > n || turn_ended && m.clock.turn >= n;
    reached.then(|| Outcome { winner: None, goal: None, reason: format!("the turn limit ({n} turns) is reached: a draw") })
}

fn a_goal_met(m: &Match, turn_ended: bool) -> Option<Outcome> {
    // A level event's `win` or `lose` (issue 31) comes first.
    if let Some((winner, id, reason)) = m.story.as_deref().and_then(|s| s.decided.clone()) {
        return Some(Outcome { winner, goal: Some(Goal::Event(id)), reason });
    }
    m.goals.iter().find_map(|v| {
        let reason = match &v.goal {
            Goal::Rout(s) if !able(m, s) && !arriving(m, |f| &f.side == s) => format!("side '{s}' has nobody able to act"),
            Goal::ReachExit(exits) => {
                let i = (0..m.fighters.len()).find(|&i| m.fighters[i].side == v.side && m.can_act(i) && exits.contains(&m.fighters[i].pos))?;
                format!("{} reached an exit at {}", m.fighters[i].name, m.fighters[i].pos)
            }
            Goal::SurviveTurns(n) if able(m, &v.side) && (m.clock.turn > *n || turn_ended && m.clock.turn >= *n) => {
                format!("side '{}' survived {n} turns", v.side)
            }
            // Every other side has nobody able: nobody of another side is able (one pass).
            Goal::LastStanding if able(m, &v.side) && !(0..m.fighters.len()).any(|i| m.fighters[i].side != v.side && m.standing(i)) => {
                format!("side '{}' is the last with anyone able to act", v.side)
            }
            Goal::Defeat(c) if m.index(c).map_or(!arriving(m, |f| &f.id == c), |i| m.fighters[i].hp <= 0) => format!("'{c}' is defeated"),
            _ => return None,
        };
        Some(Outcome { winner: Some(v.side.clone()), goal: Some(v.goal.clone()), reason })
    })
}

/// Whether a figure that `is` still waits to arrive (a level event's `spawn`, issue 31): a side
/// or figure that has not come yet is not routed or defeated.
fn arriving(m: &Match, is: impl Fn(&super::fighter::Fighter) -> bool) -> bool {
    m.story.as_deref().is_some_and(|s| s.waiting.iter().flat_map(|w| &w.figures).any(is))
}

/// G-15, tested when an action phase ends: one side (or none) still has someone able to act.
pub fn rout(m: &Match) -> Option<Outcome> {
    turn::crisis_over(m).map(|winner| Outcome { winner, goal: None, reason: "a side has no character able to act (G-15)".into() })
}

/// G-15 and R-TURN-17 between commands: the crisis is over the moment every side that took part
/// in it but one has nobody left in the fight — each of its participants dead or at 0 HP or
/// less (the last enemy fell) — so nobody acts against anybody and the rest of the action phase
/// is not played. A side whose last able fighter is only stunned (or otherwise out for a while)
/// is still in the fight until the phase ends (S-08: the stunned orc is attacked again in the
/// same phase), when G-15 is tested as before. A crisis in which only one side takes part (a
/// trap-begun crisis with no hostile, R-EXP-25) is not decided by this either: it runs its first
/// action phase. Not while an attack waits on an answer.
pub fn decided(m: &Match) -> Option<Outcome> {
    if m.pending.is_some() {
        return None;
    }
    // Issue 44 (the replay's speed): called after every command. G-15 first (pure, as the
    // sides' count: the order of the two tests does not change the answer), which two sides
    // still able answer at the first fighters; then the sides taking part, in order of first
    // appearance, found without sorting (only which sides, not their order, counts).
    let o = rout(m)?;
    let mut sides: Vec<&str> = Vec::new();
    for f in m.fighters.iter().filter(|f| !f.dormant) {
        if !sides.contains(&f.side.as_str()) {
            sides.push(&f.side);
        }
    }
    if sides.len() < 2 {
        return None;
    }
    let down_for_good = |i: usize| m.is_dead(i) || m.fighters[i].hp <= 0;
    let out = |side: &str| (0..m.fighters.len()).filter(|&i| !m.fighters[i].dormant && m.fighters[i].side == side).all(down_for_good);
    sides.iter().all(|s| o.winner.as_deref() == Some(*s) || out(s)).then_some(o)
}

/// What the flow does next, goals considered: `CrisisEnded` (with `Event::CrisisOver` pushed)
/// when a goal is met after this Apply, when a side that took part has nobody able to act
/// (`decided`), or G-15 holds as the action phase ends; else `flow`.
///
/// In a crawl (§24) a crisis that G-15 ends with the explorers standing is one encounter: it
/// pushes `Event::EncounterOver` and returns `EncounterEnded` (the closing reset, then
/// Exploration Mode, R-EXP-27). A goal met in Exploration Mode ends the level at once (`Over`).
pub fn settle(m: &Match, flow: Flow, ev: &mut Vec<Event>) -> Flow {
    let outcome = match flow {
        Flow::AwaitCommand => goal_met(m, false).or_else(|| decided(m)),
        Flow::Exploring => goal_met(m, false),
        Flow::PhaseEnded => goal_met(m, true).or_else(|| rout(m)),
        Flow::CrisisEnded | Flow::Over | Flow::CrisisStarts | Flow::EncounterEnded => None,
    };
    match outcome {
        Some(o) => {
            if let Some(x) = m.explore.as_deref() {
                let explorers_won = o.goal.is_none() && o.winner.as_ref().is_some_and(|w| x.explorers.contains(w));
                if explorers_won {
                    ev.push(Event::EncounterOver { winner: o.winner, reason: o.reason });
                    return Flow::EncounterEnded;
                }
            }
            ev.push(Event::CrisisOver { winner: o.winner, goal: o.goal, reason: o.reason });
            if flow == Flow::Exploring { Flow::Over } else { Flow::CrisisEnded }
        }
        None => flow,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::grid::Pos;
    use crate::testkit::build;

    fn fighter(id: &str, side: &str, x: i32) -> String {
        format!(r#"(id: "{id}", side: "{side}", pos: ({x}, 0), stats: (brawn: 6, finesse: 6, savvy: 6, nerve: 6))"#)
    }

    fn duel(goals: Vec<Victory>) -> Match {
        let mut m = build(None, &[vec![".".repeat(6)]], &[&fighter("hero", "heroes", 0), &fighter("orc", "monsters", 5)]);
        m.goals = goals;
        m
    }

    fn goal(side: &str, goal: Goal) -> Victory {
        Victory { side: side.into(), goal }
    }

    #[test] // level goals (scenario triggers, G-15): a ReachExit is won the moment an able hero stands on the exit
    fn reach_exit_ends_the_crisis_after_the_move() {
        let exit = Pos::new(3, 0);
        let mut m = duel(vec![goal("heroes", Goal::ReachExit(vec![exit]))]);
        let mut ev = Vec::new();
        assert_eq!(settle(&m, Flow::AwaitCommand, &mut ev), Flow::AwaitCommand);
        assert!(ev.is_empty());
        m.fighters[0].pos = exit;
        assert_eq!(settle(&m, Flow::AwaitCommand, &mut ev), Flow::CrisisEnded);
        assert!(matches!(&ev[..], [Event::CrisisOver { winner: Some(w), goal: Some(Goal::ReachExit(_)), .. }] if w == "heroes"), "{ev:?}");
        // an incapacitated hero on the exit does not count
        m.fighters[0].hp = 0;
        assert_eq!(goal_met(&m, false), None);
    }

    #[test] // a SurviveTurns(n) goal is won when the action phase of turn n ends with the side still able
    fn survive_turns_counts_the_turn_that_ends() {
        let mut m = duel(vec![goal("heroes", Goal::SurviveTurns(2))]);
        m.clock.turn = 2;
        assert_eq!(goal_met(&m, false), None, "turn 2 is not over yet");
        let mut ev = Vec::new();
        assert_eq!(settle(&m, Flow::PhaseEnded, &mut ev), Flow::CrisisEnded);
        assert!(matches!(&ev[..], [Event::CrisisOver { winner: Some(w), goal: Some(Goal::SurviveTurns(2)), .. }] if w == "heroes"), "{ev:?}");
        m.clock.turn = 1;
        assert_eq!(goal_met(&m, true), None, "turn 1 ending is not enough");
    }

    #[test] // issue 44 (a match option, no rule id): the turn limit ends the match as a draw once its turn's action phase is over; a goal met at the same moment wins instead
    fn the_turn_limit_is_a_draw_when_its_turn_ends() {
        let mut m = duel(vec![]);
        m.clock.turn = 3;
        let mut ev = Vec::new();
        assert_eq!(settle(&m, Flow::PhaseEnded, &mut ev), Flow::PhaseEnded, "no limit: the fight goes on");
        m.turn_limit = Some(3);
        assert_eq!(settle(&m, Flow::AwaitCommand, &mut ev), Flow::AwaitCommand, "turn 3 is not over yet");
        assert!(ev.is_empty());
        assert_eq!(settle(&m, Flow::PhaseEnded, &mut ev), Flow::CrisisEnded);
        assert!(matches!(&ev[..], [Event::CrisisOver { winner: None, goal: None, reason }] if reason.contains("turn limit (3 turns)")), "{ev:?}");
        m.clock.turn = 2;
        assert_eq!(goal_met(&m, true), None, "turn 2 ending is not enough");
        m.clock.turn = 4;
        assert_eq!(goal_met(&m, false).map(|o| o.winner), Some(None), "past the limit: a draw");
        // A side's goal met as the limit's turn ends is a win, not a draw.
        m.goals = vec![goal("heroes", Goal::SurviveTurns(3))];
        m.clock.turn = 3;
        assert_eq!(goal_met(&m, true).and_then(|o| o.winner), Some("heroes".to_string()));
    }

    #[test] // G-15, R-TURN-17: the last enemy down ends the crisis at once, mid-phase, not when the phase ends
    fn g15_ends_the_crisis_the_moment_the_last_enemy_falls() {
        let mut m = duel(vec![]);
        let mut ev = Vec::new();
        assert_eq!(settle(&m, Flow::AwaitCommand, &mut ev), Flow::AwaitCommand, "both sides able: the fight goes on");
        m.fighters[1].hp = 0;
        assert_eq!(settle(&m, Flow::AwaitCommand, &mut ev), Flow::CrisisEnded, "mid-phase");
        assert!(matches!(&ev[..], [Event::CrisisOver { winner: Some(w), goal: None, .. }] if w == "heroes"), "{ev:?}");
        // the phase-end test still holds
        let mut ev = Vec::new();
        assert_eq!(settle(&m, Flow::PhaseEnded, &mut ev), Flow::CrisisEnded);
    }

    #[test] // G-15, S-08: a foe only stunned is still in the fight until the phase ends (he may be attacked again); then G-15 ends the crisis
    fn a_stunned_last_foe_waits_for_the_phase_end() {
        let mut m = duel(vec![]);
        m.fighters[1].conditions.push(crate::rules::fighter::ConditionInstance {
            id: "stunned".into(),
            duration: crate::rules::fighter::Duration::Persistent,
            removal_cr: Some(7),
        });
        assert!(!m.can_act(1), "stunned: unable to act");
        let mut ev = Vec::new();
        assert_eq!(settle(&m, Flow::AwaitCommand, &mut ev), Flow::AwaitCommand);
        assert_eq!(settle(&m, Flow::PhaseEnded, &mut ev), Flow::CrisisEnded);
    }

    #[test] // R-EXP-25, G-15: a crisis with one side taking part (a trap, no hostile) runs its action phase; G-15 ends it at phase end
    fn one_sided_crisis_waits_for_the_phase_end() {
        let mut m = duel(vec![]);
        m.fighters[1].dormant = true;
        let mut ev = Vec::new();
        assert_eq!(settle(&m, Flow::AwaitCommand, &mut ev), Flow::AwaitCommand, "the trap's phase is played");
        assert!(ev.is_empty());
        assert_eq!(settle(&m, Flow::PhaseEnded, &mut ev), Flow::CrisisEnded);
    }

    #[test] // LastStanding (levels' default) and Defeat are won at once, mid-phase
    fn last_standing_and_defeat() {
        let mut m = duel(vec![goal("heroes", Goal::LastStanding), goal("monsters", Goal::LastStanding)]);
        assert_eq!(goal_met(&m, false), None);
        m.fighters[1].hp = 0;
        assert_eq!(goal_met(&m, false).and_then(|o| o.winner), Some("heroes".into()));
        let mut m = duel(vec![goal("monsters", Goal::Defeat("hero".into()))]);
        assert_eq!(goal_met(&m, false), None);
        m.fighters[0].hp = -1;
        assert_eq!(goal_met(&m, false).map(|o| o.goal), Some(Some(Goal::Defeat("hero".into()))));
    }
}
