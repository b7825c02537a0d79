//! Hard's lookahead (issues 30 and 45): the best few plans the planner proposes (and ending
//! the opportunity once it has acted; under A4 and in a reaction window, the acts open to the
//! figure) are each played on a copy of the match through the one flow, then the game goes on,
//! to the end of the action phase or for at most `depth` commands, with every side played by a
//! one-step model (sharp's weights, or hard's without the lookahead; no slips), over several
//! determinized dice streams (the same streams for every candidate, so luck cancels out). The
//! candidate whose futures leave the side best off, on average, is chosen: focus fire, keeping
//! Defense, drinking when hurt, reactions and attacks of opportunity are all judged by what
//! they lead to under the real rules and odds.
//!
//! The work is counted in positions the model scores and commands played, a deterministic
//! limit (so `simulate` and the ladder are the same on every machine); the window adds a
//! wall-clock deadline and takes the best candidate of the sweeps finished when it passes
//! (anytime). Line of sight is remembered for the decision (`value::SightMemo`): it was most
//! of a future's cost. The limits are data (`assets/ai/behaviours.ron`, docs/ai.md).

use super::book::{Difficulty, Lookahead, Thinking};
use super::config::{AiConfig, PlanCache};
use crate::rules::command::Command;
use crate::rules::dice::Dice;
use crate::rules::driver;
use crate::rules::event::Event;
use crate::rules::state::Match;
use std::time::Instant;

/// The work one command played in a future counts, beside the positions the model scored.
const STEP_WORK: usize = 8;
/// Under A4 the model (`a4::decide`) scores no positions: a command counts as about what a
/// DOO command and its decision do together.
const A4_STEP_WORK: usize = 32;

/// What the lookahead chose, and its cost.
pub(super) struct Choice {
    pub commands: Vec<Command>,
    pub simulated: usize,
    pub cut: bool,
}

/// The value of `m` to `side`: its figures' health against its enemies' (and, while the action
/// phase `turn` goes on, the AP they hold).
fn value(m: &Match, a: usize, la: &Lookahead, turn: u32, weights: &[f64], goals: &Goals) -> f64 {
    let mut v = goals.progress(m, a);
    let phase_on = la.ap != 0.0 && m.clock.turn == turn;
    for (i, f) in m.fighters.iter().enumerate() {
        if m.is_dead(i) {
            continue;
        }
        let frac = f.hp.max(0) as f64 / f.max_hp.max(1) as f64;
        let mut worth = if f.hp > 0 { la.alive + la.health * frac } else { la.alive * 0.25 };
        if phase_on && f.hp > 0 {
            worth += la.ap * f.ap.current as f64;
        }
        worth *= weights.get(i).copied().unwrap_or(1.0);
        if i == a || f.side == m.fighters[a].side {
            v += worth;
        } else if m.enemies(a, i) {
            v -= worth;
        }
    }
    v
}

/// The level's goals as the value reads them (session 19): each exit side's walked distance
/// to its exit (`Lookahead::exit`). Built once a decision.
struct Goals {
    /// (side, distance of each space to the side's nearest exit space, the distance counted
    /// for a space the field does not reach: one more than its farthest).
    exits: Vec<(String, super::search::Field, u32)>,
    exit: f64,
}

impl Goals {
    fn new(m: &Match, la: &Lookahead) -> Self {
        use crate::rules::victory::Goal;
        let mut exits = Vec::new();
        for v in &m.goals {
            match &v.goal {
                Goal::ReachExit(e) if la.exit != 0.0 && !e.is_empty() => {
                    let field = super::search::shared_field(m, e);
                    let far = field.values().copied().max().unwrap_or(0) + 1;
                    exits.push((v.side.clone(), field, far));
                }
                _ => {}
            }
        }
        Goals { exits, exit: la.exit }
    }

    /// `exit` × the spaces each exit side's nearest able figure is from its exit, its enemies'
    /// less `a`'s side's (unreachable: as far as the farthest space known).
    fn progress(&self, m: &Match, a: usize) -> f64 {
        let mut v = 0.0;
        for (side, field, far) in &self.exits {
            let Some(d) = (0..m.fighters.len())
                .filter(|&i| m.fighters[i].side == *side && able(m, i))
                .map(|i| field.get(&m.fighters[i].pos).copied().unwrap_or(*far))
                .min()
            else {
                continue;
            };
            let mine = *side == m.fighters[a].side;
            v += if mine { -self.exit * d as f64 } else { self.exit * d as f64 };
        }
        v
    }
}

/// Each figure's weight in the value (`Lookahead::menace`): (1 − menace) + menace × its
/// expected damage an attack on its living enemies (a fraction of their maximum HP, in full
/// sight and reach) over the mean of every able figure's. Empty when off.
fn menace_weights(m: &Match, la: &Lookahead) -> Vec<f64> {
    if la.menace == 0.0 {
        return Vec::new();
    }
    let hits: Vec<f64> = (0..m.fighters.len())
        .map(|i| {
            if !able(m, i) {
                return 0.0;
            }
            let (sum, n) = (0..m.fighters.len()).filter(|&x| m.enemies(i, x) && able(m, x)).fold((0.0, 0usize), |(s, n), x| {
                let d = super::value::AttackContext::new(m, i, x).value(0, 0, 0, 0);
                (s + d / m.fighters[x].max_hp.max(1) as f64, n + 1)
            });
            if n == 0 { 0.0 } else { sum / n as f64 }
        })
        .collect();
    let count = (0..m.fighters.len()).filter(|&i| able(m, i)).count().max(1);
    let mean = hits.iter().sum::<f64>() / count as f64;
    if mean <= 0.0 {
        return Vec::new();
    }
    hits.iter().map(|h| (1.0 - la.menace) + la.menace * h / mean).collect()
}

/// The blows `a`'s side can strike next less its enemies' (`value::next_blow`, in fractions of
/// the victims' HP).
fn next_blows(m: &Match, a: usize) -> f64 {
    let side = &m.fighters[a].side;
    (0..m.fighters.len()).map(|i| if m.fighters[i].side == *side { super::value::next_blow(m, i) } else { -super::value::next_blow(m, i) }).sum()
}

fn mix(mut x: u64) -> u64 {
    x ^= x >> 33;
    x = x.wrapping_mul(0xff51_afd7_ed55_8ccd);
    x ^= x >> 33;
    x = x.wrapping_mul(0xc4ce_b9fe_1a85_ec53);
    x ^ (x >> 33)
}

/// The commands budget of one decision of `a`: the phase's share of the side's able figures,
/// shrunk as (crowd / figures)² on a board of more than `la.crowd` able figures (each command
/// of a future then weighs them all: the phase's cost stays bounded).
fn budget(m: &Match, a: usize, la: &Lookahead) -> usize {
    let side = &m.fighters[a].side;
    let figures = (0..m.fighters.len()).filter(|&i| m.fighters[i].side == *side && able(m, i)).count().max(1);
    let share = la.phase_commands / figures;
    let board = board_figures(m);
    match la.crowd {
        // In floating point: a behaviours file's `crowd` is not capped, and its square could overflow.
        Some(crowd) if board > crowd => (share as f64 * (crowd as f64 / board as f64).powi(2)) as usize,
        _ => share,
    }
}

/// A figure still in the fight as the value counts it: not dead and above 0 HP.
fn able(m: &Match, i: usize) -> bool {
    !m.is_dead(i) && m.fighters[i].hp > 0
}

/// The able figures on the board, every side's (what `crowd` and `roomy` compare).
fn board_figures(m: &Match) -> usize {
    (0..m.fighters.len()).filter(|&i| able(m, i)).count()
}

/// Whether `a`'s decision can look ahead at all: near enough to an enemy for the choice to
/// matter (`la.near`: far off, the planner's approach is kept and the time saved), and a
/// budget for at least one sweep of two candidates. When not, the caller builds no more than
/// its first choice (on a crowded board that is most of the time saved).
pub(super) fn looks(m: &Match, a: usize, la: &Lookahead) -> bool {
    if let Some(near) = la.near {
        let f = &m.fighters[a];
        let close = (0..m.fighters.len()).any(|e| {
            let o = &m.fighters[e];
            m.enemies(a, e) && able(m, e) && o.pos.floor == f.pos.floor && o.pos.distance(f.pos) <= near
        });
        if !close {
            return false;
        }
    }
    budget(m, a, la) / (la.depth + 3) >= 2 && la.rollouts > 0
}

/// The policy that plays the futures: the next (sender, command, positions scored) for the AI seats of a config,
/// keeping an opportunity's plan (`super::next_command`).
pub(super) type Policy<'p> = &'p dyn Fn(&Match, &AiConfig, &mut PlanCache) -> Option<(usize, Command, usize)>;

/// Plays `cands` (each a list of commands, the planner's first choice first) ahead and returns
/// the best; `None` when the budget allows no real look (the caller keeps its first choice).
/// `cands` come already cut to the candidates weighed (`la.candidates`, and ending or passing).
pub(super) fn choose(m: &Match, a: usize, cfg: &AiConfig, la: &Lookahead, cands: Vec<Vec<Command>>, start: Instant, policy: Policy) -> Option<Choice> {
    if cands.len() < 2 || !looks(m, a, la) {
        return None;
    }
    let _memo = super::value::SightMemo::start();
    let step_work = if m.a4.is_some() { A4_STEP_WORK } else { STEP_WORK };
    let budget = budget(m, a, la);
    let per = la.depth + 3;
    let rollouts = la.rollouts.min(budget / (per * cands.len()).max(1));
    if rollouts == 0 {
        return None;
    }
    // Every side played in the futures (the window's human side too) by the model: hard's
    // weights without its lookahead and without slips, the best one-step player there is.
    let mut future = cfg.clone();
    future.sides = m.fighters.iter().map(|f| (f.side.clone(), Difficulty::Normal)).collect();
    let mut book = (*cfg.book).clone();
    book.normal = if la.model_sharp { Thinking { lookahead: None, ..book.sharp } } else { Thinking { lookahead: None, ..book.hard } };
    future.book = std::sync::Arc::new(book);
    future.budget = Default::default();
    if let Some(spots) = la.model_spots {
        future.budget.max_spots = spots;
    }
    let side = m.fighters[a].side.clone();
    let seed = mix(cfg.seed ^ (m.clock.turn as u64) << 40 ^ (m.clock.round as u64) << 24 ^ (a as u64) << 8 ^ 0x1F2E_3D4C);
    let mut totals = vec![0.0f64; cands.len()];
    let mut valid = vec![true; cands.len()];
    let mut simulated = 0;
    // The deterministic measure of the thinking done: positions the model scored in the
    // futures, plus STEP_WORK per command played (`la.work` caps it between sweeps).
    let mut work = 0usize;
    let mut done = 0;
    let mut cut = false;
    let mut sweep = vec![0.0f64; cands.len()];
    let weights = menace_weights(m, la);
    let goals = Goals::new(m, la);
    let base = super::copies::fogless(m);
    let work_cap = la.work.map(|w| match (la.crowd, la.roomy) {
        (Some(crowd), Some(roomy)) => {
            let board = board_figures(m).max(1);
            if board < crowd { (w as f64 * roomy.min(crowd as f64 / board as f64)) as usize } else { w }
        }
        _ => w,
    });
    'sweeps: for r in 0..rollouts {
        for (k, cand) in cands.iter().enumerate() {
            // Anytime: past the deadline, only the sweeps every candidate finished count.
            if cfg.budget.deadline.is_some_and(|d| start.elapsed() > d) {
                cut = true;
                break 'sweeps;
            }
            if !valid[k] {
                continue;
            }
            let run = Run {
                m: &base,
                a,
                la,
                future: &future,
                policy,
                seed,
                rollout: r,
                step_work,
                side: &side,
                start,
                deadline: cfg.budget.deadline,
                weights: &weights,
                goals: &goals,
            };
            match play_future(&run, cand, &mut simulated, &mut work) {
                Future::Value(v) => sweep[k] = v,
                Future::Refused => valid[k] = false,
                Future::Cut => {
                    cut = true;
                    break 'sweeps;
                }
            }
        }
        for (t, v) in totals.iter_mut().zip(&sweep) {
            *t += v;
        }
        done += 1;
        // Anytime in deterministic units: no new sweep once the work budget is spent.
        if work_cap.is_some_and(|w| work >= w) {
            break;
        }
    }
    if done == 0 || !valid[0] {
        return None;
    }
    let mean = |k: usize| totals[k] / done as f64;
    let mut best = 0;
    for k in 1..cands.len() {
        if valid[k] && mean(k) > mean(best) + if best == 0 { la.margin } else { 0.0 } {
            best = k;
        }
    }
    Some(Choice { commands: cands[best].clone(), simulated, cut })
}

/// One future's setting: the match, who decides, the limits, the model, the dice stream's keys,
/// and the wall clock.
struct Run<'r> {
    m: &'r Match,
    a: usize,
    la: &'r Lookahead,
    future: &'r AiConfig,
    policy: Policy<'r>,
    seed: u64,
    rollout: usize,
    step_work: usize,
    side: &'r str,
    start: Instant,
    deadline: Option<std::time::Duration>,
    /// Each figure's weight in the value (`menace_weights`; empty: all 1).
    weights: &'r [f64],
    goals: &'r Goals,
}

/// How one future of a candidate ended.
enum Future {
    /// Played: the value to the deciding side at its horizon.
    Value(f64),
    /// The candidate's first command was refused: it is no candidate.
    Refused,
    /// The deadline passed in it (the sweep is not counted).
    Cut,
}

/// Plays candidate `cand`, then the game on with every side played by the model, on the
/// rollout's dice stream, and values where it ends; `simulated` and `work` count the cost.
fn play_future(run: &Run, cand: &[Command], simulated: &mut usize, work: &mut usize) -> Future {
    let Run { m, a, la, future, policy, seed, rollout: r, step_work, side, start, deadline, weights, goals } = *run;
    let mut sim = m.clone();
    let mut dice = Dice::seeded(0);
    let mut over = false;
    let mut ev: Vec<Event> = Vec::new();
    let mut outcome: Option<Option<String>> = None;
    // Common dice: each command rolls from a stream keyed by the rollout, who sends it,
    // the turn, the round and how many commands he sent in it, so the same figure's
    // attack in the same round rolls the same dice whichever candidate came first.
    let mut sent: Vec<(u32, u32, u32)> = vec![(0, 0, 0); sim.fighters.len()];
    let mut reseed = |sim: &Match, dice: &mut Dice, who: usize| {
        let (t, rd) = (sim.clock.turn, sim.clock.round);
        let e = &mut sent[who];
        if (e.0, e.1) != (t, rd) {
            *e = (t, rd, 0);
        }
        e.2 += 1;
        let key = seed ^ (r as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ (who as u64) << 48 ^ (t as u64) << 32 ^ (rd as u64) << 16 ^ e.2 as u64;
        *dice = Dice::seeded(mix(key));
        driver::configure_dice(dice, sim);
    };
    for (j, c) in cand.iter().enumerate() {
        *simulated += 1;
        *work += step_work;
        reseed(&sim, &mut dice, a);
        if driver::step(&mut sim, &mut dice, &mut over, c, &mut ev).is_err() {
            if j == 0 {
                return Future::Refused;
            }
            break;
        }
        if over {
            break;
        }
    }
    let mut plan: PlanCache = None;
    for _ in 0..la.depth {
        // The deadline inside a future too: one long future (a big board's model
        // planner) would otherwise run far past it. This sweep is then not counted.
        if deadline.is_some_and(|d| start.elapsed() > d) {
            return Future::Cut;
        }
        // A crawl's future ends with its crisis: exploring again is not this fight.
        if over
            || outcome.is_some()
            || (la.to_phase_end && sim.a4.is_none() && sim.clock.turn >= m.clock.turn + la.phases.max(1))
            || crate::rules::explore::sight::exploring(&sim)
        {
            break;
        }
        let Some((actor, command, spots)) = policy(&sim, future, &mut plan) else { break };
        *simulated += 1;
        *work += spots + step_work;
        reseed(&sim, &mut dice, actor);
        if driver::step(&mut sim, &mut dice, &mut over, &command, &mut ev).is_err() {
            plan = None;
            let end = Command::End { actor: sim.fighters[actor].id.clone() };
            let _ = driver::step(&mut sim, &mut dice, &mut over, &end, &mut ev);
        }
        if let Some(w) = ev.iter().find_map(crisis_winner) {
            outcome = Some(w);
        }
        ev.clear();
    }
    if outcome.is_none() {
        outcome = ev.iter().find_map(crisis_winner);
    }
    let end_bonus = match &outcome {
        Some(Some(w)) if w == side => la.win,
        Some(Some(_)) => -la.win,
        _ => 0.0,
    };
    // Session 9: past the horizon, the blows each side can strike next.
    let blows = if la.threat != 0.0 && outcome.is_none() { la.threat * la.health * next_blows(&sim, a) } else { 0.0 };
    Future::Value(value(&sim, a, la, m.clock.turn, weights, goals) + end_bonus + blows)
}

/// The winner of the crisis an event ends, if it ends one: the level's (`CrisisOver`) or a
/// crawl's encounter (`EncounterOver`).
fn crisis_winner(e: &Event) -> Option<Option<String>> {
    match e {
        Event::CrisisOver { winner, .. } | Event::EncounterOver { winner, .. } => Some(winner.clone()),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::super::book::AiBook;
    use super::*;
    use std::time::Duration;

    /// A match of two figures three spaces apart, its first opportunity open.
    fn opened() -> Match {
        let stats = "stats: (brawn: 7, finesse: 7, savvy: 7, nerve: 7)";
        let floor = vec![".".repeat(8), ".".repeat(8)];
        let h = format!(r#"(id: "h", side: "heroes", pos: (0, 0), {stats})"#);
        let o = format!(r#"(id: "o", side: "monsters", pos: (3, 1), {stats})"#);
        let mut m = crate::testkit::build(None, &[floor], &[&h, &o]);
        let (mut dice, mut ev) = (Dice::seeded(3), Vec::new());
        assert!(driver::start(&mut m, &mut dice, driver::Start::Fresh, &mut ev), "the match starts");
        m
    }

    #[test] // issue 45, session 16 (`menace`): a figure's weight in the value follows how hard it hits; off, every figure weighs the same
    fn a_figure_that_hits_harder_weighs_more() {
        let stats = "stats: (brawn: 8, finesse: 7, savvy: 5, nerve: 6)";
        let floor = vec![".".repeat(8), ".".repeat(8)];
        let sword = format!(r#"(id: "sword", side: "heroes", pos: (0, 0), {stats}, weapon: "broadsword", skills: {{"swords": journeyman}})"#);
        let fists = format!(r#"(id: "fists", side: "heroes", pos: (0, 1), {stats})"#);
        let foe = format!(r#"(id: "foe", side: "monsters", pos: (5, 1), {stats})"#);
        let m = crate::testkit::build(None, &[floor], &[&sword, &fists, &foe]);
        let mut la = AiBook::builtin().hard.lookahead.expect("hard looks ahead");
        la.menace = 0.0;
        assert!(menace_weights(&m, &la).is_empty(), "off: no weights (every figure 1)");
        la.menace = 1.0;
        let w = menace_weights(&m, &la);
        let (sword, fists) = (m.index("sword").unwrap(), m.index("fists").unwrap());
        assert!(w[sword] > w[fists], "the broadsword's bearer weighs more than the unarmed one: {w:?}");
        let mean = w.iter().sum::<f64>() / w.len() as f64;
        assert!((mean - 1.0).abs() < 1e-9, "the weights average 1 over the able figures: {w:?}");
        la.menace = 0.5;
        let half = menace_weights(&m, &la);
        assert!((half[sword] - (0.5 + 0.5 * w[sword])).abs() < 1e-9, "half way between 1 and the full weight: {half:?}");
    }

    #[test] // issue 45 (anytime under the window's deadline): a future looks at the clock before every command the model plays, so one long future cannot run a decision far past the cut; without a deadline it plays on
    fn a_future_stops_at_the_deadline() {
        let m = opened();
        let a = m.clock.current.expect("an opportunity is open");
        let la = AiBook::builtin().hard.lookahead.expect("hard looks ahead");
        let model = AiConfig { sides: [("heroes".to_string(), Difficulty::Sharp), ("monsters".to_string(), Difficulty::Sharp)].into(), ..Default::default() };
        let side = m.fighters[a].side.clone();
        let cand = [Command::End { actor: m.fighters[a].id.clone() }];
        let long_ago = Instant::now().checked_sub(Duration::from_millis(50)).unwrap_or_else(Instant::now);
        let no_goals = Goals { exits: Vec::new(), exit: 0.0 };
        let run = |deadline| Run {
            m: &m,
            a,
            la: &la,
            future: &model,
            policy: &super::super::policy,
            seed: 1,
            rollout: 0,
            step_work: STEP_WORK,
            side: &side,
            start: long_ago,
            deadline,
            weights: &[],
            goals: &no_goals,
        };
        let (mut simulated, mut work) = (0, 0);
        assert!(
            matches!(play_future(&run(Some(Duration::from_millis(25))), &cand, &mut simulated, &mut work), Future::Cut),
            "past the deadline the future is cut"
        );
        assert_eq!(simulated, 1, "only the candidate's own command was played");
        let (mut simulated, mut work) = (0, 0);
        assert!(matches!(play_future(&run(None), &cand, &mut simulated, &mut work), Future::Value(_)), "without a deadline the future is played and valued");
        assert!(simulated > 1, "the model played on after the candidate: {simulated}");
    }

    #[test] // G-15 (a ReachExit goal is won the moment an able figure of the side stands on an exit), issue 45 session 19 (`exit`): the value counts each space the side's nearest figure is nearer its exit, for that side and against it for its enemies; off, nothing
    fn a_side_racing_for_an_exit_values_each_space_nearer() {
        use crate::rules::grid::Pos;
        use crate::rules::victory::{Goal, Victory};
        let mut m = opened();
        m.goals.push(Victory { side: "heroes".into(), goal: Goal::ReachExit(vec![Pos::on(7, 0, 0)]) });
        let (h, o) = (m.index("h").unwrap(), m.index("o").unwrap());
        let mut la = AiBook::builtin().hard.lookahead.expect("hard looks ahead");
        la.exit = 0.0;
        assert_eq!(Goals::new(&m, &la).progress(&m, h), 0.0, "off: the exit counts nothing");
        la.exit = 1.5;
        let goals = Goals::new(&m, &la);
        assert_eq!(goals.progress(&m, h), -1.5 * 7.0, "h stands 7 spaces from the exit");
        assert_eq!(goals.progress(&m, o), 1.5 * 7.0, "the same distance, for his enemies");
        let none = Goals { exits: Vec::new(), exit: 0.0 };
        assert_eq!(value(&m, h, &la, 1, &[], &goals) - value(&m, h, &la, 1, &[], &none), -1.5 * 7.0, "the value adds the exit's term");
        m.fighters[h].pos = Pos::on(4, 0, 0);
        assert_eq!(goals.progress(&m, h), -1.5 * 3.0, "four spaces nearer: worth 4 × exit more");
        m.fighters[h].hp = 0;
        assert_eq!(goals.progress(&m, h), 0.0, "nobody able to reach it: nothing to count");
    }

    #[test] // session 19: while a decision is made, the distance field to the same goals is built once and shared; outside one it is built afresh; the same distances either way
    fn a_distance_field_is_built_once_a_decision() {
        use super::super::search::{distance_field, shared_field};
        use crate::rules::grid::Pos;
        use std::rc::Rc;
        let m = opened();
        let goals = [Pos::on(7, 0, 0), Pos::on(6, 1, 0)];
        let fresh = distance_field(&m, &goals);
        assert!(!Rc::ptr_eq(&shared_field(&m, &goals), &shared_field(&m, &goals)), "no decision: no memo");
        let kept = {
            let _memo = super::super::value::SightMemo::start();
            let (a, b) = (shared_field(&m, &goals), shared_field(&m, &[goals[1], goals[0]]));
            assert!(Rc::ptr_eq(&a, &b), "the same goals (in any order): the same field");
            assert_eq!(*a, fresh, "the same distances as built afresh");
            assert!(!Rc::ptr_eq(&a, &shared_field(&m, &goals[..1])), "other goals: another field");
            a
        };
        assert!(!Rc::ptr_eq(&kept, &shared_field(&m, &goals)), "the memo ends with the decision");
    }

    #[test] // R-EXP-19 (each side's fog of war): the futures' copy has every space revealed to every side, so a move in it searches nothing; the match itself keeps its fog
    fn the_futures_copy_has_no_fog_and_the_match_keeps_its_own() {
        let m = crate::testkit::crawl(&["#########", "#.......#", "#########"], &[("h", "heroes", (1, 1)), ("o", "monsters", (7, 1))]);
        let before = m.explore.as_ref().expect("a crawl").fog.clone();
        assert!(before.count("heroes") < m.board.spaces(), "the crawl starts with fog");
        let copy = super::super::copies::fogless(&m);
        let x = copy.explore.as_ref().expect("a crawl");
        for side in ["heroes", "monsters"] {
            assert_eq!(x.fog.count(side), m.board.spaces(), "{side}: every space revealed in the copy");
        }
        assert_eq!(m.explore.as_ref().unwrap().fog, before, "the match's own fog is untouched");
        assert_eq!(copy.fighters.len(), m.fighters.len());
        let plain = opened();
        assert!(super::super::copies::fogless(&plain).explore.is_none(), "a level that is one crisis has no fog to lift");
    }
}
