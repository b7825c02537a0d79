//! A4-5 and A4-6.1, the round: initiative (1d6 + the Athletics dice, ties to the better
//! Athletics, then level order), each figure's turn in that order, and the round's end. It runs
//! on the engine's flow: the reset phase is the round boundary, the action phase the turns, so
//! the Bevy states (`CrisisPhase::Reset` → `Action`) and the goals work unchanged; a DoO "turn"
//! is one A4 round (A4-G-40).

use super::super::dice::Dice;
use super::super::event::Event;
use super::super::roll::log_roll;
use super::super::state::{Match, Phase};
use super::super::turn::{Flow, ResetKind, upkeep};
use super::state::{A4, RoundState};
use super::stats::{order_key, skill_pool};

/// Figures still to act this round, in order.
pub fn order(m: &Match, a4: &A4) -> Vec<usize> {
    let mut v: Vec<usize> = (0..m.fighters.len()).filter(|&i| eligible(m, a4, i)).collect();
    v.sort_by_key(|&i| order_key(a4, i));
    v
}

/// Everyone in the round, in initiative order (those done included), for the window's strip;
/// nobody outside an A4 match.
pub fn full_order(m: &Match) -> Vec<usize> {
    let Some(a4) = m.a4.as_deref() else { return Vec::new() };
    let mut v: Vec<usize> = (0..m.fighters.len()).filter(|&i| !m.is_dead(i) && !m.fighters[i].dormant).collect();
    v.sort_by_key(|&i| order_key(a4, i));
    v
}

fn eligible(m: &Match, a4: &A4, i: usize) -> bool {
    let r = &a4.figs[i];
    !m.fighters[i].dormant && !m.is_dead(i) && m.can_act(i) && !r.done && !r.surprised
}

/// The round boundary opens, in place of DoO's reset phase (A4-6.1): no turn, no window, no
/// step left; every round opens with `round_start` (in `new_round`), the round before closes
/// here. (`ruleset::reset` runs the whole boundary: this, a crawl's joiners, `close_reset`.)
pub fn open_reset(m: &mut Match, a4: &mut A4, kind: ResetKind, ev: &mut Vec<Event>) {
    m.clock.phase = Phase::Reset;
    m.clock.current = None;
    m.clock.last_closed = None;
    m.clock.last_attack = None;
    m.pending = None;
    a4.tasks.clear();
    if kind != ResetKind::Opening {
        ev.push(Event::Phase { phase: if kind == ResetKind::Normal { "round_end" } else { "closing_reset" }.into(), turn: m.clock.turn });
    }
}

/// The round boundary closes: the last round's upkeep (DoO's per-turn effects and condition
/// checks, A4-G-41), then initiative for the new round. The closing kind ends the crisis.
pub fn close_reset(m: &mut Match, a4: &mut A4, dice: &mut Dice, kind: ResetKind, ev: &mut Vec<Event>) {
    if kind != ResetKind::Opening {
        // A4-G-41: bleeding, poison and condition checks at each round end; temporary
        // adjustments go.
        upkeep(m, dice, false, ev);
    }
    if kind == ResetKind::Closing {
        for r in a4.figs.iter_mut() {
            *r = RoundState::default();
        }
        m.clock.phase = Phase::Over;
        return;
    }
    new_round(m, a4, dice, kind == ResetKind::Opening, ev);
}

/// A4-1.1, A4-G-39: the clock minutes `turns` rounds take: ⌈rounds × `seconds_per_round` / 60⌉,
/// at least 1.
pub fn crisis_minutes(a4: &A4, turns: u32) -> u32 {
    turns.saturating_mul(a4.book.time.seconds_per_round).div_ceil(60).max(1)
}

/// A4-5.1, A4-G-25: initiative rolled again each round; A4-5.3/5.4: round 1 flat-footed and
/// surprised (A4-G-27, A4-G-28).
fn new_round(m: &mut Match, a4: &mut A4, dice: &mut Dice, first: bool, ev: &mut Vec<Event>) {
    m.clock.turn += 1;
    ev.push(Event::Phase { phase: "round_start".into(), turn: m.clock.turn });
    let b = a4.book.clone();
    let n = m.fighters.len();
    // A4-G-28: if every side is surprised, nobody is.
    let mut sides: Vec<&str> = (0..n).filter(|&i| !m.fighters[i].dormant).map(|i| m.fighters[i].side.as_str()).collect();
    sides.sort();
    sides.dedup();
    let all_surprised = sides.iter().all(|s| (0..n).any(|i| m.fighters[i].side == *s && m.fighters[i].surprised));
    for i in 0..n {
        // A4-G-21: the reactive penalty carried over; A4-3.12, A4-G-08: a full defense and a
        // charge last until the figure's next turn starts, across the round boundary.
        let last = a4.figs[i].clone();
        let surprised = first && m.fighters[i].surprised && !all_surprised;
        let alive = !m.is_dead(i) && !m.fighters[i].dormant;
        if last.hold.is_some() && !first {
            ev.push(Event::Note { text: format!("{}'s held action is lost at the round's end (A4-3.16).", m.fighters[i].name) });
        }
        a4.figs[i] = RoundState {
            penalty_now: last.penalty_next,
            full_defense: last.full_defense,
            moving_defense: last.moving_defense,
            charged: last.charged,
            sheathed: last.sheathed,
            flat_footed: first && alive,
            surprised,
            ..RoundState::default()
        };
        if first {
            m.fighters[i].surprised = false;
        }
    }
    let mut order = Vec::new();
    for i in 0..n {
        if m.is_dead(i) || m.fighters[i].dormant || !m.can_act(i) {
            continue;
        }
        let ath = skill_pool(m, a4, i, &b.initiative.skill);
        let roll = dice.roll(1, b.initiative.die, false, ath.dice);
        let id = m.fighters[i].id.clone();
        let score = log_roll(ev, dice, &id, "initiative", roll);
        let r = &mut a4.figs[i];
        r.initiative = score;
        r.tie = ath.total_pips(b.pools.pips_per_die);
        order.push(i);
    }
    order.sort_by_key(|&i| order_key(a4, i));
    ev.push(Event::Initiative { turn: m.clock.turn, order: order.iter().map(|&i| (m.fighters[i].id.clone(), a4.figs[i].initiative)).collect() });
    for i in (0..n).filter(|&i| a4.figs[i].surprised) {
        ev.push(Event::Note { text: format!("{} is surprised and loses round 1 (A4-5.4).", m.fighters[i].name) });
    }
}

/// Moves the round on until a command is needed: the acting figure's turn, the next figure's,
/// or the round's end (then the engine runs `reset` and the next round opens).
pub fn advance(m: &mut Match, a4: &mut A4, ev: &mut Vec<Event>) -> Flow {
    if m.clock.phase != Phase::Action {
        return if m.clock.phase == Phase::Over { Flow::Over } else { Flow::AwaitCommand };
    }
    let waiting = m.pending.as_ref().is_some_and(|p| p.window.is_some()) || !a4.tasks.is_empty();
    if waiting {
        return Flow::AwaitCommand;
    }
    if let Some(c) = m.clock.current {
        if !a4.figs[c].done && m.can_act(c) {
            return Flow::AwaitCommand;
        }
        end_turn(m, a4, c, ev);
    }
    match order(m, a4).first().copied() {
        Some(i) => {
            m.clock.current = Some(i);
            let r = &mut a4.figs[i];
            // A4-5.3: no longer flat-footed; full defense and a charge last until now.
            r.flat_footed = false;
            r.full_defense = None;
            r.moving_defense = None;
            r.charged = false;
            ev.push(Event::Opportunity { actor: m.fighters[i].id.as_str().into(), ap: 0 });
            Flow::AwaitCommand
        }
        None => {
            ev.push(Event::PhaseEnded { turn: m.clock.turn, rounds: 1, lost_ap: Vec::new() });
            m.clock.current = None;
            m.clock.last_closed = None;
            Flow::PhaseEnded
        }
    }
}

/// Closes `c`'s turn (it may come back this round only after a delay).
pub fn end_turn(m: &mut Match, a4: &A4, c: usize, ev: &mut Vec<Event>) {
    if m.clock.current == Some(c) {
        m.clock.current = None;
        m.clock.last_closed = Some(c);
        let r = &a4.figs[c];
        ev.push(Event::OpportunityEnded { actor: m.fighters[c].id.as_str().into(), passed: !r.acted() && r.hold.is_none(), ap: 0 });
    }
}
