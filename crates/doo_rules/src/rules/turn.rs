//! §4 turn structure: reset steps 1–6 in order, opportunities by current AP with the tie rule,
//! passing, round end and phase end (R-TURN-15), surprise, crisis end (G-15).

use super::dice::Dice;
use super::event::Event;
use super::fighter::{Duration, OpportunityRecord, Pool, RoundStatus, TurnRecord};
use super::profile::{OrderMode, Posture, ResetRecovery, StatDice};
use super::state::{Match, Phase};

pub use super::roll::{Parts, log_roll, log_roll_parts, stat_check, sum};

/// What the flow needs next.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Flow {
    /// An opportunity or a reaction window is open: waiting for a command.
    AwaitCommand,
    /// The action phase just ended (R-TURN-15): run the reset phase next.
    PhaseEnded,
    /// A level goal or G-15 ended the crisis (`Event::CrisisOver` is out): the closing reset
    /// runs next (R-TURN-17).
    CrisisEnded,
    /// The crisis is over.
    Over,
    /// Exploration Mode (R-EXP-1): waiting for the explorers' orders.
    Exploring,
    /// Something dangerous happened in Exploration Mode (R-EXP-24): the participants are set,
    /// surprise decided (R-EXP-25, R-EXP-26); the opening reset runs next.
    CrisisStarts,
    /// The crisis of a crawl is over and the level goes on (`Event::EncounterOver` is out): the
    /// closing reset runs, then Exploration Mode resumes (R-EXP-27).
    EncounterEnded,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ResetKind {
    /// R-TURN-7: begins the crisis; surprise applies (R-TURN-6).
    Opening,
    Normal,
    /// R-TURN-17: steps 1–4, then every crisis adjustment goes; no AP.
    Closing,
}

/// R-TURN-5: 1d(modified Finesse)! + adjustments, at least the floor (G-12); 0 if unable to act
/// (G-13). Legacy stat dice: odd Finesse rolls the next lower even die +1 (C-02).
pub fn roll_ap(m: &Match, i: usize, dice: &mut Dice, ev: &mut Vec<Event>) -> u32 {
    let f = &m.fighters[i];
    if !m.can_act(i) {
        return 0;
    }
    let rank = m.equipment.finesse_rank(f);
    let adj = m.conditions.ap_roll_adjustment(f, m.rules.options.conditions_adv) + f.ap_roll_bonus;
    let explode = m.rules.options.ap_roll_explodes;
    let roll = if m.rules.options.stat_dice == StatDice::LegacyTable && rank % 2 == 1 && rank > 1 {
        dice.roll(1, rank - 1, explode, adj + 1)
    } else {
        dice.roll(1, rank, explode, adj)
    };
    let total = log_roll(ev, dice, &f.id, "ap_roll", roll);
    total.max(m.rules.limits.ap_floor as i32) as u32
}

/// R-TURN-4: the reset phase opens: no opportunity, no pending attack; its `Phase` event.
/// (`ruleset::reset` runs the whole reset: this, a crawl's joiners, then `close_reset`.)
pub fn open_reset(m: &mut Match, kind: ResetKind, ev: &mut Vec<Event>) {
    m.clock.phase = Phase::Reset;
    m.clock.current = None;
    m.clock.last_closed = None;
    // A late reflex answers only an attack of this action phase (R-REACT-2).
    m.clock.last_attack = None;
    m.pending = None;
    ev.push(Event::Phase {
        phase: match kind {
            ResetKind::Opening => "opening_reset",
            ResetKind::Normal => "reset",
            ResetKind::Closing => "closing_reset",
        }
        .into(),
        turn: m.clock.turn,
    });
}

/// R-TURN-4: the reset phase's steps in order, applied to every character in level order; a
/// closing reset (R-TURN-17) stops after step 4, with no AP, and the crisis is over.
pub fn close_reset(m: &mut Match, dice: &mut Dice, kind: ResetKind, ev: &mut Vec<Event>) {
    upkeep(m, dice, true, ev);

    if kind == ResetKind::Closing {
        // R-TURN-17: no AP; every crisis-only adjustment goes.
        for f in m.fighters.iter_mut() {
            f.ap.current = 0;
            f.ap.start = 0;
            f.free_steps.available = false;
        }
        m.clock.phase = Phase::Over;
        return;
    }
    reset_step_5(m, dice, kind, ev);
}

/// Reset steps 1–4 (R-TURN-4), which are also steps 2–5 of the end of an exploration turn
/// (R-EXP-20): per-turn effects, temporary conditions and adjustments go, persistent condition
/// checks, +1 MP or FP. `announce`: push the `ResetStep` events (the crisis reset display).
pub fn upkeep(m: &mut Match, dice: &mut Dice, announce: bool, ev: &mut Vec<Event>) {
    upkeep_until(m, dice, announce, ev, &mut |_, _, _| false);
}

/// `upkeep`, asking `stop` after each of steps 1–3 whether the rest is dropped (R-EXP-24,
/// G-71: a crisis begun during the end of an exploration turn drops its later steps). Returns
/// true when it stopped.
pub fn upkeep_until(
    m: &mut Match,
    dice: &mut Dice,
    announce: bool,
    ev: &mut Vec<Event>,
    stop: &mut dyn FnMut(&mut Match, &mut Dice, &mut Vec<Event>) -> bool,
) -> bool {
    let adv = m.rules.options.conditions_adv;
    let step = |ev: &mut Vec<Event>, step: u32, name: &'static str| {
        if announce {
            ev.push(Event::ResetStep { step, name: name.into() });
        }
    };

    // Step 1: per-turn effects (bleeding, poison; R-COND-2, G-38).
    step(ev, 1, "per-turn effects");
    for i in 0..m.fighters.len() {
        if m.is_dead(i) {
            continue;
        }
        let delta: i32 = m.conditions.active(&m.fighters[i], adv).map(|r| r.per_turn_hp).sum();
        if delta != 0 {
            super::attack::change_hp(m, i, delta, "per-turn effects", ev);
        }
    }

    if stop(m, dice, ev) {
        return true;
    }

    // Step 2: temporary conditions and adjustments go (R-COND-1, R-DEF-4).
    step(ev, 2, "remove temporary conditions and adjustments");
    for f in m.fighters.iter_mut() {
        for a in std::mem::take(&mut f.adjustments) {
            ev.push(Event::AdjustmentRemoved { actor: f.id.as_str().into(), adjustment: a });
        }
        let (gone, kept): (Vec<_>, Vec<_>) = std::mem::take(&mut f.conditions).into_iter().partition(|c| c.duration == Duration::Temporary);
        f.conditions = kept;
        for c in gone {
            ev.push(Event::ConditionRemoved { actor: f.id.as_str().into(), condition: c.id, reason: "temporary".into() });
        }
    }

    if stop(m, dice, ev) {
        return true;
    }

    // Step 3: persistent conditions roll for removal (Brawn-or-Nerve, the better; R-INJ-5, C-37).
    step(ev, 3, "persistent condition checks");
    for i in 0..m.fighters.len() {
        if m.is_dead(i) {
            continue;
        }
        let mut k = 0;
        while k < m.fighters[i].conditions.len() {
            let c = m.fighters[i].conditions[k].clone();
            let row = m.conditions.get(&c.id).cloned();
            let cr = c.removal_cr.or(row.as_ref().and_then(|r| r.removal_cr));
            let conscious_only = row.as_ref().is_some_and(|r| r.conscious_removal_only);
            if c.duration != Duration::Persistent || cr.is_none() || (conscious_only && m.fighters[i].hp <= 0) {
                k += 1;
                continue;
            }
            let f = &m.fighters[i];
            let rank = f.stats.brawn.max(f.stats.nerve);
            let roll = stat_check(m, dice, rank, 0);
            let total = log_roll(ev, dice, &f.id, format!("remove_{}", c.id), roll);
            if total >= cr.unwrap_or(0) {
                let id = m.fighters[i].id.clone();
                m.fighters[i].conditions.remove(k);
                ev.push(Event::ConditionRemoved { actor: id.into(), condition: c.id, reason: "recovery check".into() });
            } else {
                k += 1;
            }
        }
    }

    if stop(m, dice, ev) {
        return true;
    }

    // Step 4: +1 MP or FP, the player's choice, capped (R-MANA-2, G-23).
    step(ev, 4, "recover Mana or Faith");
    let points = m.rules.limits.reset_recovery_points as i32;
    let mana_only = m.rules.options.reset_recovery == ResetRecovery::ManaOnly;
    for f in m.fighters.iter_mut() {
        if f.hp <= -f.max_hp {
            continue;
        }
        let choice = if mana_only { Some(Pool::Mana) } else { f.recovery.or(f.caster.default_recovery()) };
        let Some(pool) = choice else { continue };
        let (cur, max) = match pool {
            Pool::Mana => (&mut f.mp, f.max_mp),
            Pool::Faith => (&mut f.fp, f.max_fp),
        };
        let from = *cur;
        *cur = (*cur + points).min(max).max(from);
        if *cur != from {
            ev.push(Event::PoolChanged { actor: f.id.as_str().into(), pool, from, to: *cur, reason: "reset step 4".into() });
        }
    }
    false
}

/// Reset step 5 (R-TURN-4, R-TURN-6, R-FS-1): AP rolled, free steps granted; step 6 ends the turn.
fn reset_step_5(m: &mut Match, dice: &mut Dice, kind: ResetKind, ev: &mut Vec<Event>) {
    // Step 5: discard AP and free steps, roll AP, grant free steps to the standing (R-FS-2).
    ev.push(Event::ResetStep { step: 5, name: "roll action points, grant free steps".into() });
    for i in 0..m.fighters.len() {
        // The dead, and NPCs outside a crawl's crisis (R-EXP-25, not even named: they are unseen).
        if m.is_dead(i) || m.fighters[i].dormant {
            let f = &mut m.fighters[i];
            f.ap = Default::default();
            f.free_steps.available = false;
            continue;
        }
        let surprised = kind == ResetKind::Opening && m.fighters[i].surprised;
        let ap = if surprised && m.can_act(i) {
            // R-TURN-6: exactly 1 AP, no roll, no adjustments.
            m.rules.limits.surprise_ap
        } else {
            roll_ap(m, i, dice, ev)
        };
        let able = m.can_act(i);
        let f = &mut m.fighters[i];
        f.ap.current = ap;
        f.ap.start = ap;
        f.turn = TurnRecord::default();
        f.opp = OpportunityRecord::default();
        ev.push(Event::ApSet { actor: f.id.as_str().into(), ap, ap_start: ap, reason: if surprised { "surprised".into() } else { "reset step 5".into() } });
        f.free_steps.available = able && f.posture == Posture::Standing;
        f.free_steps.lost = match (able, f.posture == Posture::Standing) {
            (true, true) => None,
            (false, _) => Some(super::fighter::FreeStepsLoss::UnableToAct),
            (true, false) => Some(super::fighter::FreeStepsLoss::NotStandingAtReset),
        };
        if f.free_steps.available {
            ev.push(Event::FreeStepsGranted { actor: f.id.as_str().into(), allowance: f.free_steps.allowance });
        }
        if kind == ResetKind::Opening {
            f.surprised = false;
        }
    }
    // Step 6: the turn ends; the next action phase begins.
    ev.push(Event::ResetStep { step: 6, name: "turn ends".into() });
    m.clock.turn += 1;
}

/// Starts an action phase at round 1 and opens the first opportunity.
pub fn begin_action_phase(m: &mut Match, dice: &mut Dice, ev: &mut Vec<Event>) -> Flow {
    open_action_phase(m, ev);
    ev.push(Event::Round { round: 1, turn: m.clock.turn });
    advance(m, dice, ev)
}

/// An action phase opens at round 1 (R-TURN-8): its `Phase` event, the round's AP snapshot and
/// everyone waiting. The round itself is announced by the caller (under A4 the turn is the
/// round, A4-G-40).
pub fn open_action_phase(m: &mut Match, ev: &mut Vec<Event>) {
    m.clock.phase = Phase::Action;
    ev.push(Event::Phase { phase: "action".into(), turn: m.clock.turn });
    set_round(m, 1);
}

fn start_round(m: &mut Match, round: u32, ev: &mut Vec<Event>) {
    set_round(m, round);
    ev.push(Event::Round { round, turn: m.clock.turn });
}

fn set_round(m: &mut Match, round: u32) {
    m.clock.round = round;
    m.clock.round_start_ap = (0..m.fighters.len()).map(|i| m.effective_ap(i)).collect();
    for f in m.fighters.iter_mut() {
        f.turn.round = RoundStatus::Waiting;
    }
}

/// R-TURN-11: has AP, can act, and has not had this round's opportunity.
pub fn waiting(m: &Match, i: usize) -> bool {
    m.fighters[i].turn.round == RoundStatus::Waiting && m.effective_ap(i) >= 1 && !m.is_dead(i)
}

/// R-TURN-9/10, G-06/G-07: the next opportunity this round, if anyone is waiting.
pub fn next_in_order(m: &Match, dice: &mut Dice, ev: &mut Vec<Event>) -> Option<usize> {
    // The waiting characters with the most AP, in level order, in one pass (issue 44); each
    // one's effective AP asked once (`waiting`, then the dynamic order's AP).
    let (mut tied, mut top_ap) = (Vec::new(), 0);
    for i in 0..m.fighters.len() {
        if m.fighters[i].turn.round != RoundStatus::Waiting || m.is_dead(i) {
            continue;
        }
        let effective = m.effective_ap(i);
        if effective < 1 {
            continue;
        }
        let ap = match m.rules.options.order_mode {
            OrderMode::Dynamic => effective,
            OrderMode::Snapshot => m.clock.round_start_ap.get(i).copied().unwrap_or(0),
        };
        if tied.is_empty() || ap > top_ap {
            tied.clear();
            top_ap = ap;
        }
        if ap == top_ap {
            tied.push(i);
        }
    }
    if tied.is_empty() {
        return None;
    }
    if tied.len() == 1 {
        return Some(tied[0]);
    }
    // R-TURN-10: higher current Finesse (G-39), then Finesse check roll-offs, re-rolling ties.
    let fin = |i: usize| m.equipment.finesse_rank(&m.fighters[i]);
    let ranks: Vec<u32> = tied.iter().map(|&i| fin(i)).collect();
    let best = ranks.iter().copied().max().unwrap_or(0);
    let mut group: Vec<(usize, u32)> = tied.iter().zip(&ranks).filter(|t| *t.1 == best).map(|(&i, &r)| (i, r)).collect();
    let names = |g: &[usize]| g.iter().map(|&i| m.fighters[i].id.as_str().into()).collect::<Vec<_>>();
    if group.len() == 1 {
        ev.push(Event::TieBroken { between: names(&tied), winner: m.fighters[group[0].0].id.as_str().into(), by: "finesse".into() });
        return Some(group[0].0);
    }
    let all = names(&tied);
    // Each round of the roll-off keeps, in place, those who rolled the highest total.
    let mut totals = Vec::with_capacity(group.len());
    for _ in 0..64 {
        totals.clear();
        for &(i, rank) in &group {
            let roll = stat_check(m, dice, rank, 0);
            totals.push(log_roll(ev, dice, &m.fighters[i].id, "order_roll_off", roll));
        }
        let hi = totals.iter().copied().max().unwrap_or(0);
        let mut k = 0;
        group.retain(|_| {
            k += 1;
            totals[k - 1] == hi
        });
        if group.len() == 1 {
            break;
        }
    }
    let winner = group[0].0;
    ev.push(Event::TieBroken { between: all, winner: m.fighters[winner].id.as_str().into(), by: "roll_off".into() });
    Some(winner)
}

/// R-TURN-15: every character has 0 AP (or cannot act) or passed in this round.
pub fn phase_should_end(m: &Match) -> bool {
    (0..m.fighters.len()).all(|i| m.effective_ap(i) == 0 || m.fighters[i].turn.round == RoundStatus::Passed)
}

/// Closes the open opportunity (R-TURN-12/13).
pub fn close_opportunity(m: &mut Match, passed: bool, ev: &mut Vec<Event>) {
    if let Some(i) = m.clock.current.take() {
        let f = &mut m.fighters[i];
        // G-08: free steps alone count as acting.
        f.turn.round = if passed && !f.opp.anything() { RoundStatus::Passed } else { RoundStatus::Acted };
        ev.push(Event::OpportunityEnded { actor: f.id.as_str().into(), passed: f.turn.round == RoundStatus::Passed, ap: f.ap.current });
        m.clock.last_closed = Some(i);
    }
}

/// Moves a DoO crisis on until a command is needed: next opportunity, round end, phase end.
pub fn advance(m: &mut Match, dice: &mut Dice, ev: &mut Vec<Event>) -> Flow {
    if m.clock.phase != Phase::Action {
        return if m.clock.phase == Phase::Over { Flow::Over } else { Flow::AwaitCommand };
    }
    if m.pending.as_ref().is_some_and(|p| p.window.is_some()) || m.clock.current.is_some() {
        return Flow::AwaitCommand;
    }
    for _ in 0..2 {
        if let Some(i) = next_in_order(m, dice, ev) {
            m.clock.current = Some(i);
            let f = &mut m.fighters[i];
            f.opp = OpportunityRecord::default();
            ev.push(Event::Opportunity { actor: f.id.as_str().into(), ap: f.ap.current });
            return Flow::AwaitCommand;
        }
        // R-TURN-14: the round is over.
        if phase_should_end(m) {
            let lost = (0..m.fighters.len()).filter(|&i| m.fighters[i].ap.current > 0).map(|i| (m.fighters[i].id.clone(), m.fighters[i].ap.current)).collect();
            ev.push(Event::PhaseEnded { turn: m.clock.turn, rounds: m.clock.round, lost_ap: lost });
            m.clock.current = None;
            m.clock.last_closed = None;
            return Flow::PhaseEnded;
        }
        let r = m.clock.round + 1;
        start_round(m, r, ev);
    }
    // A new round with nobody eligible means everybody is at 0 AP: phase_should_end held above.
    Flow::PhaseEnded
}

/// G-15: the crisis is over when at most one side still has a character able to act (with two
/// sides: when one side has none; with more, the others fight on). Returns the winner, if any.
pub fn crisis_over(m: &Match) -> Option<Option<String>> {
    // Issue 44 (the replay's speed): one pass, no sort: called after every command. Only the
    // number of sides with someone able to act counts, and the side when there is one.
    let mut able: Option<&str> = None;
    for i in 0..m.fighters.len() {
        let side = m.fighters[i].side.as_str();
        if able == Some(side) || !m.can_act(i) {
            continue;
        }
        match able {
            None => able = Some(side),
            Some(_) => return None, // two sides able
        }
    }
    Some(able.map(str::to_string))
}

#[cfg(test)]
mod tests {
    use super::super::fighter::Pool;
    use crate::testkit::duel;

    const ORC: &str =
        r#"(id: "orc", side: "monsters", pos: (4, 0), stats: (brawn: 8, finesse: 6, savvy: 4, nerve: 6), skills: {"maces": apprentice}, weapon: Some("mace"))"#;
    const AUD: &str = r#"(id: "aud", side: "heroes", pos: (0, 0), caster: both, stats: (brawn: 5, finesse: 6, savvy: 9, nerve: 8))"#;
    const LOW: &str = r#"(characters: {"aud": (ap: 2, mp: Some(2), fp: Some(2)), "orc": (ap: 1)})"#;

    fn reset_pools(choice: Option<&str>) -> (i32, i32) {
        let mut g = duel(None, 8, &[AUD, ORC], LOW, &[]);
        if let Some(c) = choice {
            g.ok(c);
        }
        g.ok(r#"pass(actor: "aud")"#);
        g.ok(r#"pass(actor: "orc")"#);
        assert_eq!(g.m.clock.turn, 2, "the phase ended and the reset ran");
        (g.fighter("aud").mp, g.fighter("aud").fp)
    }

    #[test] // R-MANA-2: reset step 4 offers a dual caster (`caster: both`) the choice: +1 MP or +1 FP; Mana without a choice
    fn dual_caster_chooses_at_reset_step_4() {
        assert_eq!(reset_pools(Some(r#"recovery(actor: "aud", pool: faith)"#)), (2, 3), "Faith chosen");
        assert_eq!(reset_pools(Some(r#"recovery(actor: "aud", pool: mana)"#)), (3, 2), "Mana chosen");
        assert_eq!(reset_pools(None), (3, 2), "no choice: Mana");
        assert_eq!(super::super::fighter::Caster::Both.default_recovery(), Some(Pool::Mana));
    }
}
