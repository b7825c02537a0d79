//! The ruleset seam (after shakmaty's `VariantPosition`): the one place that asks which rules
//! play the match now — the Dungeons of Olde profiles' crisis (`doo`), ruleset A4's round
//! (`a4`) or a crawl's Exploration Mode (`explore`) — and hands each question to them:
//! validation and application of a command, the reset, the flow to the next command, the match's
//! start and a crawl's return from a crisis, and what a player may do now (`view`). A crawl's
//! crisis is played under DoO or A4, with the crawl's doors and items; nothing below this file
//! branches on the ruleset.

use super::a4::{self, state::A4};
use super::command::Command;
use super::dice::Dice;
use super::doo;
use super::event::Event;
use super::explore::{self, CrisisRules, Explore};
use super::grid::Pos;
use super::offer::{Choice, Destination, ReactionChoice};
use super::plan::Plan;
use super::profile::ReactionKind;
use super::state::{Match, Phase};
use super::turn::{self, Flow, ResetKind};
use super::violation::{RuleResult, Violation};
use std::collections::BTreeMap;

/// Which rules take the next command.
#[derive(Clone, Copy, Debug)]
pub enum Mode<'a> {
    /// A crisis under the Dungeons of Olde profiles (§4–§11).
    Doo,
    /// A crisis under ruleset A4 (`Match::a4`): rounds, slots, attacks of opportunity.
    A4(&'a A4),
    /// A crawl's Exploration Mode (`Match::explore`, R-EXP-1).
    Explore(&'a Explore),
}

/// The rules that take the next command: Exploration Mode while a crawl explores, else the
/// crisis ruleset of the match.
pub fn mode(m: &Match) -> Mode<'_> {
    match (m.explore.as_deref(), m.a4.as_deref()) {
        (Some(x), _) if m.clock.phase == Phase::Exploration => Mode::Explore(x),
        (_, Some(s)) => Mode::A4(s),
        _ => Mode::Doo,
    }
}

/// What a crawl needs of the ruleset its crises are played under (`explore::CrisisRules`).
pub fn crawl_rules(m: &Match) -> CrisisRules {
    match m.a4 {
        Some(_) => a4::state::CRAWL,
        None => CrisisRules { items_explode: m.rules.options.damage_explodes, rebleeds: false },
    }
}

/// Checks `a`'s command under the rules of the mode (the actor and the crisis's end are checked
/// before, `engine::validate`).
pub fn validate(m: &Match, a: usize, cmd: &Command) -> RuleResult<Plan> {
    match mode(m) {
        Mode::Explore(x) => {
            explore::validate::order(m, x, a, cmd)?;
            Ok(Plan::Explore { a, cmd: cmd.clone() })
        }
        Mode::A4(s) => {
            a4::acts::validate(m, s, a, cmd)?;
            Ok(Plan::A4 { a, cmd: cmd.clone() })
        }
        Mode::Doo if cmd.is_exploration() => match m.explore.as_deref() {
            Some(x) => {
                explore::crisis_orders::in_crisis(m, x, a, cmd)?;
                Ok(Plan::Explore { a, cmd: cmd.clone() })
            }
            None => Err(Violation::new("R-EXP-1", "This level has no Exploration Mode: it is one crisis.")),
        },
        Mode::Doo => {
            if let Some(x) = m.explore.as_deref() {
                explore::validate::not_at_peace(m, x, cmd)?; // R-CP-16
            }
            doo::validate::validate(m, a, cmd)
        }
    }
}

/// Carries out a checked plan under the rules that made it, then moves the flow on.
pub fn apply(m: &mut Match, plan: Plan, dice: &mut Dice, ev: &mut Vec<Event>) -> Flow {
    match plan {
        Plan::Explore { a, cmd } => apply_order(m, a, &cmd, dice, ev),
        Plan::A4 { a, cmd } => a4::with_a4(m, |m, s| a4::acts::apply(m, s, a, &cmd, dice, ev)).unwrap_or(Flow::AwaitCommand),
        plan => doo::apply::apply(m, plan, dice, ev),
    }
}

/// An order of §24: in Exploration Mode, or a door, item or task order in a crawl's crisis
/// (then the crisis's flow moves on).
fn apply_order(m: &mut Match, a: usize, cmd: &Command, dice: &mut Dice, ev: &mut Vec<Event>) -> Flow {
    let r = crawl_rules(m);
    if let Mode::Explore(_) = mode(m) {
        return explore::with_crawl(m, |m, x| explore::apply::order(m, x, a, cmd, r, dice, ev)).unwrap_or(Flow::Exploring);
    }
    explore::with_crawl(m, |m, x| explore::apply::in_crisis(m, x, a, cmd, r, dice, ev));
    advance(m, dice, ev)
}

/// Before a command is checked (R-REACT-*, R-TURN-12/13): under the DoO profiles a window the
/// command does not answer is declined and a used opportunity ends; under A4 a window waits for
/// its answer (A4-4.1). `Some(flow)` when the turn structure moved on.
pub fn close_stale(m: &mut Match, cmd: &Command, dice: &mut Dice, ev: &mut Vec<Event>) -> Option<Flow> {
    match m.a4 {
        Some(_) => None,
        None => doo::react::close_stale(m, cmd, dice, ev),
    }
}

/// The reset phase (R-TURN-4), or A4's round boundary (A4-6.1); at a normal one, the inactive
/// hostiles of a crawl who see or are seen join the crisis (R-EXP-25, A4-G-39).
pub fn reset(m: &mut Match, dice: &mut Dice, kind: ResetKind, ev: &mut Vec<Event>) {
    match m.a4 {
        Some(_) => {
            a4::with_a4(m, |m, s| a4::round::open_reset(m, s, kind, ev));
            join(m, kind, ev);
            a4::with_a4(m, |m, s| a4::round::close_reset(m, s, dice, kind, ev));
        }
        None => {
            turn::open_reset(m, kind, ev);
            join(m, kind, ev);
            turn::close_reset(m, dice, kind, ev);
        }
    }
}

fn join(m: &mut Match, kind: ResetKind, ev: &mut Vec<Event>) {
    if kind == ResetKind::Normal {
        explore::join_crisis(m, ev);
        super::directives::join_called(m, ev);
    }
}

/// Opens an action phase (R-TURN-8; under A4 the round's turns, A4-G-40) and the first
/// opportunity.
pub fn begin_action_phase(m: &mut Match, dice: &mut Dice, ev: &mut Vec<Event>) -> Flow {
    if m.a4.is_none() {
        return turn::begin_action_phase(m, dice, ev);
    }
    turn::open_action_phase(m, ev);
    advance(m, dice, ev)
}

/// Moves the flow on until a command is needed: the next opportunity (DoO, R-TURN-9..15) or
/// the next figure's turn (A4-5).
pub fn advance(m: &mut Match, dice: &mut Dice, ev: &mut Vec<Event>) -> Flow {
    if let Some(flow) = a4::with_a4(m, |m, s| a4::round::advance(m, s, ev)) {
        return flow;
    }
    turn::advance(m, dice, ev)
}

/// A freshly built match opens: a crawl in Exploration Mode (R-EXP-1), any other with the
/// opening reset and the first action phase.
pub fn open(m: &mut Match, dice: &mut Dice, ev: &mut Vec<Event>) -> Flow {
    if let Some(flow) = explore::with_crawl(m, |m, x| explore::turns::begin(m, x, dice, ev)) {
        return flow;
    }
    reset(m, dice, ResetKind::Opening, ev);
    begin_action_phase(m, dice, ev)
}

/// A script's start state: the action phase goes on at the match's clock (nothing reset).
pub fn start_mid_phase(m: &mut Match, dice: &mut Dice, ev: &mut Vec<Event>) -> Flow {
    ev.push(Event::Phase { phase: "action".into(), turn: m.clock.turn });
    if m.a4.is_none() {
        // Under A4 the DoO turn is the round (A4-G-40): no DoO round inside it.
        ev.push(Event::Round { round: m.clock.round, turn: m.clock.turn });
    }
    advance(m, dice, ev)
}

/// R-EXP-27: after the closing reset of a crawl's crisis, Exploration Mode resumes; the clock
/// gains the crisis's minutes (R-EXP-2; under A4 its rounds' seconds, A4-1.1, A4-G-39).
pub fn resume(m: &mut Match, dice: &mut Dice, ev: &mut Vec<Event>) -> Flow {
    let turns = m.clock.turn;
    let minutes = match (m.a4.as_deref(), m.explore.as_deref()) {
        (Some(s), _) => a4::round::crisis_minutes(s, turns),
        (None, Some(x)) => explore::turns::crisis_minutes(x, turns),
        (None, None) => 0,
    };
    explore::with_crawl(m, |m, x| explore::turns::resume(m, x, minutes, dice, ev)).unwrap_or(Flow::Over)
}

/// Spaces `a` can reach with one command now, each with its command.
pub fn destinations(m: &Match, a: usize) -> BTreeMap<Pos, Destination> {
    match mode(m) {
        Mode::Explore(x) => explore::preview::destinations(m, x, a),
        Mode::A4(_) => a4::preview::destinations(m, a),
        Mode::Doo => doo::preview::destinations(m, a),
    }
}

/// The action bar of `a` (a crawl's DoO crisis adds its doors and lengthy tasks).
pub fn choices(m: &Match, a: usize) -> Vec<Choice> {
    match mode(m) {
        Mode::Explore(x) => explore::preview::choices(m, x, a),
        Mode::A4(_) => a4::preview::choices(m, a),
        Mode::Doo => {
            let mut out = doo::bar::choices(m, a);
            if let Some(x) = m.explore.as_deref() {
                out.extend(explore::preview::crisis_choices(m, x, a));
            }
            out
        }
    }
}

/// The open reaction window, if `a` is the one asked: its choices, valid or not.
pub fn reaction_choices(m: &Match, a: usize) -> Option<(ReactionKind, Vec<ReactionChoice>)> {
    match mode(m) {
        Mode::Explore(_) => None,
        Mode::A4(_) => a4::preview::reaction_choices(m, a),
        Mode::Doo => doo::preview::reaction_choices(m, a),
    }
}

/// Why `a` cannot move to `to` now, in the validator's words.
pub fn why_not_move(m: &Match, a: usize, to: Pos) -> Violation {
    match mode(m) {
        Mode::Explore(x) => explore::validate::order(m, x, a, &Command::Pass { actor: m.fighters[a].id.clone() })
            .err()
            .unwrap_or_else(|| Violation::new("R-EXP-5", format!("{} cannot walk to {to} now.", m.fighters[a].name))),
        Mode::A4(_) => a4::preview::why_not_move(m, a, to),
        Mode::Doo => doo::preview::why_not_move(m, a, to),
    }
}

/// What the player deciding for `a` is offered now: an open reaction window's choices, else the
/// spaces to move to and the action bar.
#[derive(Clone, Debug, Default)]
pub struct View {
    /// The player picks which of his heroes gives the next order (Exploration Mode, R-EXP-3).
    pub pick: bool,
    pub reactions: Option<(ReactionKind, Vec<ReactionChoice>)>,
    pub destinations: BTreeMap<Pos, Destination>,
    pub choices: Vec<Choice>,
}

/// The offers of the mode to the character who decides now (`None`: nobody the player
/// controls).
pub fn view(m: &Match, a: Option<usize>) -> View {
    let pick = matches!(mode(m), Mode::Explore(_));
    let Some(a) = a else { return View { pick, ..View::default() } };
    let reactions = reaction_choices(m, a);
    if reactions.is_some() {
        return View { pick, reactions, ..View::default() };
    }
    View { pick, reactions, destinations: destinations(m, a), choices: choices(m, a) }
}
