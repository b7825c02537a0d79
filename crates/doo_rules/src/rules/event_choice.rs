//! Issue 46: a choice a level event puts to a side (`Action::Choice`), answered through the one
//! command path: `Command::Choose`, checked here before anything else (while a choice waits,
//! only its answer is taken, from a figure of its side, with an option it has), then the chosen
//! option's actions done as the event's own. The choice waits in the match's story
//! (`Story::pending`), so saves, replays and the state hash keep it; `ai::who_decides` answers
//! it for a side the AI plays (its first option).

use super::command::Command;
use super::dice::Dice;
use super::event::Event;
use super::plan::Plan;
use super::state::Match;
use super::story::{PendingChoice, clip};
use super::turn::Flow;
use super::violation::{RuleResult, Violation};

/// The rule id of a refusal about a level event's choice (the reference's `EVENT-1`, `EVENT-2`).
const WAITS: &str = "EVENT-1";
const NONE: &str = "EVENT-2";

/// The choice waiting for its answer, if any.
pub fn pending(m: &Match) -> Option<&PendingChoice> {
    m.story.as_deref().and_then(|s| s.pending.as_ref())
}

/// Who answers the choice waiting, if any: the first figure of its side able to act, else its
/// first figure (the window's and the AI's "who decides now", `ai::who_decides`).
pub fn chooser(m: &Match) -> Option<usize> {
    let p = pending(m)?;
    let of_side = |i: &usize| m.fighters[*i].side == p.side;
    (0..m.fighters.len()).filter(of_side).find(|&i| m.standing(i)).or_else(|| (0..m.fighters.len()).find(of_side))
}

/// The check of a command while a choice waits, or of a `Choose` when none does (`None`: the
/// command goes on to the rules as usual).
pub fn gate(m: &Match, cmd: &Command) -> Option<RuleResult<Plan>> {
    let p = pending(m);
    let Command::Choose { actor, option } = cmd else {
        let p = p?;
        return Some(Err(Violation::new(
            WAITS,
            format!("Side {} must first answer the choice of level event '{}': {}", clip(&p.side), clip(&p.event), clip(&p.prompt)),
        )));
    };
    let Some(p) = p else {
        return Some(Err(Violation::new(NONE, "No choice waits for an answer: a level event puts one (`choice`).")));
    };
    let Some(i) = m.index(actor) else {
        return Some(Err(Violation::new("INPUT", format!("There is no character with id '{}'.", clip(actor)))));
    };
    if m.fighters[i].side != p.side {
        let text = format!("{} is not of side {}, whom level event '{}' asks.", m.fighters[i].name, clip(&p.side), clip(&p.event));
        return Some(Err(Violation::new(WAITS, text)));
    }
    let n = p.options.len();
    if *option as usize >= n {
        let text = format!("The choice of level event '{}' has {n} options (0 to {}); {option} is not one.", clip(&p.event), n.saturating_sub(1));
        return Some(Err(Violation::new(WAITS, text)));
    }
    Some(Ok(Plan::Choose { option: *option as usize }))
}

/// The checked answer: the choice no longer waits, the option's actions are done (as its
/// event's); the flow the match is in goes on.
pub fn choose(m: &mut Match, dice: &mut Dice, option: usize, ev: &mut Vec<Event>) -> Flow {
    let idle = if super::explore::sight::exploring(m) { Flow::Exploring } else { Flow::AwaitCommand };
    let Some(p) = m.story.as_deref_mut().and_then(|s| s.pending.take()) else { return idle };
    let Some(o) = p.options.get(option) else { return idle };
    ev.push(Event::Note { text: format!("Side {} chooses \"{}\" (level event '{}').", p.side, o.label, p.event) });
    super::level_events::act_all(m, dice, idle, &p.event, &o.then, ev, p.depth)
}
