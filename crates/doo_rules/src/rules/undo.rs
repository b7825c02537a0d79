//! Taking a command back (undo). Not a rule of the board game: the program's promise that a
//! misclick costs nothing (docs/saves.md). A command may be taken back only when its outcome
//! used no dice, revealed nothing, opened no reaction window and stayed inside the opportunity
//! that is still in progress, so that taking it back is exactly as if it had never been issued:
//! the game rebuilds the match by replaying the commands before it. The violations name the
//! program's own ids (`UNDO-1` … `UNDO-5`), each with a sentence for the player.

use super::command::Command;
use super::event::Event;
use super::state::Match;
use super::violation::Violation;

/// One command as the match log has it: the command, whether the rules accepted it, and every
/// event it caused up to the next command (the windows it closed, the flow that followed).
#[derive(Clone, Debug, PartialEq)]
pub struct Step {
    /// Its place among the match's commands (0: the first).
    pub index: usize,
    pub command: Command,
    pub accepted: bool,
    pub events: Vec<Event>,
}

/// What taking back the last command does.
#[derive(Clone, Debug, PartialEq)]
pub struct Undo {
    /// Commands kept: the match is rebuilt from the first `keep` commands.
    pub keep: usize,
    /// The command taken back (refused commands after it, which changed nothing, go with it).
    pub command: Command,
    /// What it was, for the button: "Step to (3, 4)".
    pub label: String,
    /// AP and free-step spaces it gives back.
    pub ap_back: u32,
    pub free_steps_back: u32,
}

/// Whether the last command of `steps` (the match's last commands, in order, back at least to
/// its last accepted one) can be taken back in match `m` (the state it left), and what that
/// gives back.
pub fn last_undo(steps: &[Step], m: &Match) -> Result<Undo, Violation> {
    // Exploration Mode has no opportunity, but its refusal is its own (issue 43: it said UNDO-1's
    // "no opportunity is open", another rule's words): every walk, door and task of a crawl may
    // reveal the map, and what was seen stays seen.
    if super::explore::sight::exploring(m) {
        return Err(exploring_refusal());
    }
    let Some(cur) = m.clock.current.filter(|_| m.pending.as_ref().is_none_or(|p| p.window.is_none())) else {
        return Err(Violation::new("UNDO-1", "Nothing can be taken back now: no opportunity is open (or a reaction must be decided first)."));
    };
    let me = &m.fighters[cur];
    // Refused commands at the end changed nothing (they go with the command before them),
    // unless they closed a window or an opportunity.
    let mut k = steps.len();
    while k > 0 && !steps[k - 1].accepted {
        if let Some(v) = blocker(&steps[k - 1], m) {
            return Err(v);
        }
        k -= 1;
    }
    let Some(step) = k.checked_sub(1).map(|i| &steps[i]) else {
        return Err(Violation::new("UNDO-1", format!("Nothing to take back: {} has done nothing yet this opportunity.", me.name)));
    };
    if step.command.actor() != me.id {
        return Err(Violation::new("UNDO-1", format!("Nothing to take back: {} has done nothing yet this opportunity.", me.name)));
    }
    if let Some(v) = blocker(step, m) {
        return Err(v);
    }
    let ap_back = step.events.iter().map(|e| if let Event::ApSpent { amount, .. } = e { *amount } else { 0 }).sum();
    let free_steps_back = step.events.iter().map(|e| if let Event::FreeStepsUsed { spaces, .. } = e { *spaces } else { 0 }).sum();
    Ok(Undo { keep: step.index, command: step.command.clone(), label: label(&step.command, m), ap_back, free_steps_back })
}

/// UNDO-5 in Exploration Mode: nothing is taken back there.
pub fn exploring_refusal() -> Violation {
    Violation::new("UNDO-5", "Nothing is taken back in Exploration Mode: each walk, door or task may reveal the map, and what was seen stays seen.")
}

/// Why `step` cannot be taken back, if it cannot: the dice first, then a reveal, an attack or a
/// death, then the end of an opportunity.
fn blocker(step: &Step, m: &Match) -> Option<Violation> {
    let what = label(&step.command, m);
    let name = |id: &str| m.index(id).map_or(id.to_string(), |i| m.fighters[i].name.clone());
    let ev = &step.events;
    if let Some(purpose) = ev.iter().find_map(|e| match e {
        Event::Dice { purpose, .. } => Some(purpose.clone()),
        Event::ForcedFaceRejected { .. } => Some("a forced face".into()),
        _ => None,
    }) {
        return Some(Violation::new("UNDO-2", format!("{what} cannot be taken back: it threw dice ({purpose}), and the outcome stands.")));
    }
    if ev.iter().any(reveals) {
        return Some(Violation::new("UNDO-5", format!("{what} cannot be taken back: it revealed something new.")));
    }
    if let Some(v) = ev.iter().find_map(|e| match e {
        Event::AttackDeclared { target, .. } | Event::ReflexWindow { defender: target, .. } | Event::ResponseWindow { defender: target, .. } => {
            Some(Violation::new("UNDO-4", format!("{what} cannot be taken back: it was an attack on {}, and attacks stand.", name(target))))
        }
        Event::Died { actor } => Some(Violation::new("UNDO-4", format!("{what} cannot be taken back: {} died of it.", name(actor)))),
        _ => None,
    }) {
        return Some(v);
    }
    let boundary = ev.iter().any(|e| {
        matches!(
            e,
            Event::Opportunity { .. }
                | Event::OpportunityEnded { .. }
                | Event::Round { .. }
                | Event::Phase { .. }
                | Event::PhaseEnded { .. }
                | Event::ResetStep { .. }
                | Event::TieBroken { .. }
                | Event::CrisisOver { .. }
                | Event::ExplorationTurn { .. }
                | Event::CrisisBegins { .. }
                | Event::EncounterOver { .. }
        )
    });
    boundary.then(|| {
        Violation::new("UNDO-3", format!("{what} cannot be taken back: it ended an opportunity, and only commands of the opportunity in progress can be."))
    })
}

/// Events that show the player something not seen before (fog of war, hidden features, a
/// chest's contents, a crisis beginning): taking them back would unsee them.
fn reveals(e: &Event) -> bool {
    matches!(
        e,
        Event::Revealed { .. }
            | Event::FeatureFound { .. }
            | Event::TrapSprung { .. }
            | Event::ChestOpened { .. }
            | Event::CrisisBegins { .. }
            | Event::TaskDone { .. }
    )
}

/// A command in a few words: "Dara: Step to (3, 4)".
pub fn label(c: &Command, m: &Match) -> String {
    let name = |id: &str| m.index(id).map_or(id.to_string(), |i| m.fighters[i].name.clone());
    let who = name(c.actor());
    let what = match c {
        Command::FreeSteps { path, .. } => format!("free steps to {}", path.last().map_or("here".into(), |p| p.to_string())),
        Command::Move { movement, path, posture, .. } => {
            let row = m.rules.movement(movement).map_or(movement.clone(), |r| r.name.clone());
            match (path.last(), posture) {
                (Some(p), _) => format!("{row} to {p}"),
                (None, Some(p)) => format!("{row} ({p:?})").to_lowercase(),
                (None, None) => row,
            }
        }
        Command::Action { action, target, .. } => {
            let row = m.rules.action(action).map_or(action.clone(), |r| r.name.clone());
            match target {
                Some(t) => format!("{row} on {}", name(t)),
                None => row,
            }
        }
        Command::Pass { .. } => "pass".into(),
        Command::End { .. } => "end of the opportunity".into(),
        Command::Reflex { reflex, .. } => reflex.clone(),
        Command::Respond { response, .. } => response.clone(),
        Command::Decline { .. } => "decline".into(),
        Command::Choose { option, .. } => format!("choose option {}", option + 1),
        Command::Recovery { .. } => "recovery choice".into(),
        Command::Delay { .. } => "delay".into(),
        Command::Walk { path, group, .. } => {
            format!("{} to {}", if *group { "lead the group" } else { "walk" }, path.last().map_or("here".into(), |p| p.to_string()))
        }
        Command::Door { at, open, .. } => format!("{} the door at {at}", if *open { "open" } else { "close" }),
        Command::Task { task, at, .. } => format!("{} at {at}", task.label()),
        Command::Take { item, .. } => format!("take {item}"),
        Command::Drop { item, .. } => format!("drop {item}"),
        Command::Wait { .. } => "wait".into(),
        Command::Climb { .. } => "climb".into(),
        Command::Camp { .. } => "camp".into(),
        Command::Use { item, .. } => format!("use {item}"),
        Command::EndTurn { .. } => "end the exploration turn".into(),
        Command::Follow { leader, .. } => leader.as_ref().map_or("leave the group".into(), |l| format!("follow {}", name(l))),
        Command::Assist { helped, .. } => format!("assist {}", name(helped)),
        Command::Search { spaces, .. } => format!("search {} spaces", spaces.len()),
        Command::Hand { to, item, .. } => format!("hand {item} to {}", name(to)),
        Command::Trade { with, trade, .. } => format!("trade {trade} with {}", name(with)),
        Command::SortLoot { at, .. } => format!("sort the loot at {at}"),
        Command::Round { act, .. } => super::a4::state::describe(act, &name),
    };
    format!("{who}: {what}")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testkit::{Duel, cmd, duel};

    const DARA: &str = r#"(id: "dara", name: "Dara", side: "heroes", pos: (0, 0), stats: (brawn: 8, finesse: 8, savvy: 5, nerve: 7), skills: {"swords": apprentice}, weapon: Some("broadsword"))"#;
    const ORC: &str = r#"(id: "orc", name: "Orc", side: "monsters", pos: (5, 0), stats: (brawn: 8, finesse: 6, savvy: 4, nerve: 6), skills: {"maces": apprentice}, weapon: Some("mace"))"#;
    const START: &str = r#"(characters: {"dara": (ap: 3), "orc": (ap: 3)})"#;

    /// The match so far as steps, each command with the events it caused.
    fn play(g: &mut Duel, steps: &mut Vec<Step>, text: &str) {
        let before = g.ev.len();
        let accepted = g.send(text).is_ok();
        steps.push(Step { index: steps.len(), command: cmd(text), accepted, events: g.ev[before..].to_vec() });
    }

    #[test] // UNDO-5: in Exploration Mode the refusal is UNDO-5's (a crawl's moves reveal the map), not UNDO-1's "no opportunity is open"
    fn exploration_names_its_own_reason() {
        let mut m = crate::testkit::crawl(&["#######", "#.....#", "#######"], &[("h", "heroes", (1, 1)), ("o", "monsters", (5, 1))]);
        m.clock.phase = crate::rules::state::Phase::Exploration;
        assert!(crate::rules::explore::sight::exploring(&m), "the crawl starts in Exploration Mode");
        let steps = [Step { index: 0, command: Command::Wait { actor: "h".into() }, accepted: true, events: Vec::new() }];
        for tail in [&steps[..], &[]] {
            let v = last_undo(tail, &m).expect_err("nothing is taken back while exploring");
            assert_eq!(v.rule, "UNDO-5");
            assert!(v.reason.contains("Exploration Mode") && !v.reason.contains("opportunity"), "{}", v.reason);
        }
    }

    #[test] // undo of a move: no dice, inside the opportunity: the AP it spent comes back
    fn a_step_can_be_taken_back_with_its_ap() {
        let mut g = duel(None, 8, &[DARA, ORC], START, &[]);
        assert_eq!(g.current(), Some("dara"));
        let mut steps = Vec::new();
        play(&mut g, &mut steps, r#"move(actor: "dara", movement: "step", path: [(1, 0)])"#);
        let u = last_undo(&steps, &g.m).expect("a step is undoable");
        assert_eq!(u.keep, 0);
        assert_eq!(u.ap_back, 1, "R-MOVE-1: a step costs 1 AP, given back");
        assert_eq!(u.label, "Dara: Step to (1, 0)");
        // A refused click after it changes nothing and goes with it.
        play(&mut g, &mut steps, r#"move(actor: "dara", movement: "step", path: [(7, 1)])"#);
        assert!(!steps[1].accepted);
        assert_eq!(last_undo(&steps, &g.m).map(|u| u.keep), Ok(0));
    }

    #[test] // UNDO-2: an attack threw dice: its outcome stands
    fn an_attack_cannot_be_taken_back() {
        let mut g = duel(None, 8, &[DARA, ORC.replace("(5, 0)", "(1, 0)").as_str()], START, &[]);
        let mut steps = Vec::new();
        play(&mut g, &mut steps, r#"action(actor: "dara", action: "attack", target: Some("orc"))"#);
        assert!(steps[0].accepted);
        // The action ended Dara's opportunity (R-TURN-12): the orc's is open, and Dara's attack
        // is not the orc's to take back.
        assert_eq!(g.current(), Some("orc"));
        assert_eq!(last_undo(&steps, &g.m).map_err(|v| v.rule), Err("UNDO-1".into()));
        // The attack itself threw dice, whatever else it did.
        let v = blocker(&steps[0], &g.m).expect("an attack threw dice");
        assert_eq!(v.rule, "UNDO-2", "{v:?}");
        assert!(v.reason.starts_with("Dara: Attack on Orc cannot be taken back: it threw dice"), "{}", v.reason);
    }

    #[test] // UNDO-3: a command that ended the opportunity (the next character acts) cannot be taken back
    fn an_ended_opportunity_cannot_be_taken_back() {
        let mut g = duel(None, 8, &[DARA, ORC], START, &[]);
        let mut steps = Vec::new();
        play(&mut g, &mut steps, r#"move(actor: "dara", movement: "step", path: [(1, 0)])"#);
        play(&mut g, &mut steps, r#"end(actor: "dara")"#);
        assert_eq!(g.current(), Some("orc"));
        let v = last_undo(&steps, &g.m).expect_err("the opportunity ended");
        // The orc's opportunity is open: Dara's commands are not the orc's to take back.
        assert_eq!(v.rule, "UNDO-1", "{v:?}");
        // And the end itself, seen from a match where Dara still acts, is UNDO-3.
        let v = blocker(&steps[1], &g.m).expect("ending blocks");
        assert_eq!(v.rule, "UNDO-3", "{v:?}");
    }

    #[test] // UNDO-1: nothing done yet this opportunity
    fn nothing_to_take_back_at_the_start() {
        let g = duel(None, 8, &[DARA, ORC], START, &[]);
        let v = last_undo(&[], &g.m).expect_err("nothing done");
        assert_eq!(v.rule, "UNDO-1");
        assert!(v.reason.contains("Dara has done nothing"), "{}", v.reason);
    }
}
