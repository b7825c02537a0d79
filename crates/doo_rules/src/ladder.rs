//! The difficulty ladder (issue 30): AI against AI in plain Rust, through the one flow
//! (`driver::step`) and the same `next_command` every AI seat uses, so a game here is the game
//! `doo simulate` plays with the same seed. Pairings seat the stronger difficulty on each side in
//! turn (sides swapped) and count, per level, ruleset and side, who won.

use crate::ai::{AiConfig, Budget, Difficulty, PlanCache, next_command};
use crate::data::RuleData;
use crate::level_file::CheckedLevel;
use crate::rules::{Command, Dice, driver};
use std::collections::BTreeMap;
use std::time::Instant;

/// Games stop here if nobody has won (a draw).
pub const MAX_TURNS: u32 = 40;
/// A crawl whose exploration outlasts this many turns (minutes) is called a draw.
pub const MAX_EXPLORATION_TURNS: u32 = 200;

/// The exploration minutes a simulated crawl gets before it is called undecided: 200 on a
/// floor of up to 32×32 spaces, as many more for each further 1 024 spaces of its largest
/// floor, up to 8 times as many (a generated 64×64 delve floor: 800). A floor four times as
/// large takes about four times as long to search; a player has no such limit at all.
pub fn exploration_limit(board: &crate::rules::grid::Board) -> u32 {
    let largest = board.floors.iter().map(|f| f.width as u64 * f.height as u64).max().unwrap_or(0);
    MAX_EXPLORATION_TURNS * (largest.div_ceil(1024).clamp(1, 8) as u32)
}
/// Commands allowed per game before it is called stuck (an engine or AI bug).
pub const MAX_COMMANDS: usize = 50_000;

/// How one AI-against-AI game ended.
#[derive(Clone, Debug, Default)]
pub struct GameEnd {
    pub winner: Option<String>,
    pub turns: u32,
    pub commands: usize,
    /// AI commands the rules refused (must stay 0).
    pub refused: usize,
    pub decisions: usize,
    /// Thinking time of every decision, in microseconds, with the deciding side.
    pub decision_us: Vec<(String, u64)>,
    /// The game hit `MAX_COMMANDS` (a bug, not a draw).
    pub stuck: bool,
}

/// Plays `level` (already set to its ruleset) with `sides` at their difficulties and `seed` for
/// the dice and the AI's slips.
pub fn play(data: &RuleData, level: &CheckedLevel, sides: &BTreeMap<String, Difficulty>, seed: u64) -> Result<GameEnd, String> {
    play_within(data, level, sides, seed, Budget::default())
}

/// `play` with every AI seat thinking within `budget` (the window's is `Budget::INTERACTIVE`;
/// a wall-clock deadline makes the AI's choices, so the game, depend on the machine's speed).
pub fn play_within(data: &RuleData, level: &CheckedLevel, sides: &BTreeMap<String, Difficulty>, seed: u64, budget: Budget) -> Result<GameEnd, String> {
    let mut m = level.build(data).map_err(|e| e.join("; "))?;
    let mut cfg = AiConfig::for_level(level.side_ids(), &level.behaviours, &level.level.victory, Difficulty::Normal, sides, seed, data.ai.clone());
    cfg.budget = budget;
    let mut dice = Dice::seeded(seed);
    let mut ev = Vec::new();
    let mut over = !driver::start(&mut m, &mut dice, driver::Start::Fresh, &mut ev);
    let mut plan: PlanCache = None;
    let mut end = GameEnd::default();
    let minutes = |m: &crate::rules::Match| m.explore.as_deref().map_or(0, |x| x.turn);
    let limit = exploration_limit(&m.board);
    while !over && m.clock.turn <= MAX_TURNS && minutes(&m) <= limit {
        if end.commands >= MAX_COMMANDS {
            end.stuck = true;
            break;
        }
        let t0 = Instant::now();
        let Some(next) = next_command(&m, &cfg, &mut plan) else { break };
        if next.decision.is_some() {
            end.decisions += 1;
            end.decision_us.push((m.fighters[next.actor].side.clone(), t0.elapsed().as_micros() as u64));
        }
        end.commands += 1;
        ev.clear();
        if driver::step(&mut m, &mut dice, &mut over, &next.command, &mut ev).is_err() {
            end.refused += 1;
            plan = None;
            // The refused figure ends its opportunity, as the game's AI does.
            let end_it = Command::End { actor: m.fighters[next.actor].id.clone() };
            let _ = driver::step(&mut m, &mut dice, &mut over, &end_it, &mut ev);
        }
        if let Some(w) = ev.iter().find_map(|e| match e {
            crate::rules::Event::CrisisOver { winner, .. } => Some(winner.clone()),
            _ => None,
        }) {
            end.winner = w;
        }
    }
    end.turns = m.clock.turn;
    Ok(end)
}

/// Why `level` cannot be won by one of its sides under ruleset A4, if so: a side that wins by
/// reaching an exit whose every space is on a floor none of its figures starts on (an A4 fight
/// never changes floor, A4-G-01; docs/ruleset-a4.md). The ladder leaves such a row out rather
/// than count its draws.
pub fn a4_unwinnable(level: &CheckedLevel) -> Option<String> {
    level.level.victory.iter().find_map(|v| {
        let crate::rules::victory::Goal::ReachExit(exit) = &v.goal else { return None };
        let floors: Vec<u8> = level.characters.iter().filter(|c| c.side == v.side).map(|c| c.pos.floor).collect();
        (!exit.iter().any(|p| floors.contains(&p.floor)))
            .then(|| format!("side '{}' wins by reaching an exit on another floor, and an A4 fight never changes floor (A4-G-01)", v.side))
    })
}

/// Who plays what in one seating: every side at the weaker difficulty but `strong` ones.
pub fn seating(sides: &[String], strong: &[usize], hi: Difficulty, lo: Difficulty) -> BTreeMap<String, Difficulty> {
    sides.iter().enumerate().map(|(k, s)| (s.clone(), if strong.contains(&k) { hi } else { lo })).collect()
}

/// The seatings that swap the sides: two sides take each part in turn; with more, the even and
/// the odd sides take the stronger difficulty in turn.
pub fn seatings(n: usize) -> Vec<Vec<usize>> {
    match n {
        0 | 1 => vec![vec![0]],
        2 => vec![vec![0], vec![1]],
        _ => vec![(0..n).step_by(2).collect(), (1..n).step_by(2).collect()],
    }
}

/// A pairing's tally on one level and ruleset: per side, its wins when it played the stronger
/// difficulty and when it played the weaker, games each way, and draws.
#[derive(Clone, Debug, Default)]
pub struct Tally {
    /// side → (wins as stronger, games as stronger, wins as weaker, games as weaker)
    pub sides: BTreeMap<String, (u32, u32, u32, u32)>,
    pub strong_wins: u32,
    pub weak_wins: u32,
    pub draws: u32,
    pub refused: usize,
    pub stuck: u32,
    pub decisions: usize,
    /// Decision times of the stronger and the weaker difficulty (µs).
    pub strong_us: Vec<u64>,
    pub weak_us: Vec<u64>,
}

impl Tally {
    pub fn games(&self) -> u32 {
        self.strong_wins + self.weak_wins + self.draws
    }
    /// The stronger difficulty's share of the decided games.
    pub fn share(&self) -> f64 {
        let d = self.strong_wins + self.weak_wins;
        if d == 0 { 0.0 } else { self.strong_wins as f64 / d as f64 }
    }
    /// Sides on which the stronger difficulty did not win more often than the weaker playing
    /// that same side (when the two played it equally often).
    pub fn sides_not_ahead(&self) -> Vec<String> {
        self.sides.iter().filter(|(_, (ws, gs, ww, gw))| ws * gw <= ww * gs).map(|(s, _)| s.clone()).collect()
    }
    pub fn add(&mut self, o: &Tally) {
        for (s, (a, b, c, d)) in &o.sides {
            let e = self.sides.entry(s.clone()).or_default();
            *e = (e.0 + a, e.1 + b, e.2 + c, e.3 + d);
        }
        self.strong_wins += o.strong_wins;
        self.weak_wins += o.weak_wins;
        self.draws += o.draws;
        self.refused += o.refused;
        self.stuck += o.stuck;
        self.decisions += o.decisions;
        self.strong_us.extend(&o.strong_us);
        self.weak_us.extend(&o.weak_us);
    }
}

/// Plays `games` games of `hi` against `lo` on `level` (sides swapped: the seatings take turns),
/// seeds `seed`, `seed + 1`, …
pub fn pairing(data: &RuleData, level: &CheckedLevel, hi: Difficulty, lo: Difficulty, games: u32, seed: u64) -> Result<Tally, String> {
    pairing_within(data, level, hi, lo, games, seed, Budget::default())
}

/// `pairing` with every AI seat thinking within `budget` (`play_within`).
pub fn pairing_within(data: &RuleData, level: &CheckedLevel, hi: Difficulty, lo: Difficulty, games: u32, seed: u64, budget: Budget) -> Result<Tally, String> {
    let sides: Vec<String> = level.side_ids().map(String::from).collect();
    let seats = seatings(sides.len());
    let mut t = Tally::default();
    for s in &sides {
        t.sides.insert(s.clone(), (0, 0, 0, 0));
    }
    for g in 0..games {
        // Each seed is played in every seating, so luck is shared between them.
        let seat = &seats[g as usize % seats.len()];
        let game_seed = seed.wrapping_add((g / seats.len() as u32) as u64);
        let who = seating(&sides, seat, hi, lo);
        let end = play_within(data, level, &who, game_seed, budget)?;
        for (side, us) in &end.decision_us {
            if who.get(side) == Some(&hi) { t.strong_us.push(*us) } else { t.weak_us.push(*us) }
        }
        t.refused += end.refused;
        t.decisions += end.decisions;
        t.stuck += end.stuck as u32;
        for (k, s) in sides.iter().enumerate() {
            let e = t.sides.get_mut(s).expect("side");
            let won = (end.winner.as_deref() == Some(s.as_str())) as u32;
            if seat.contains(&k) {
                e.0 += won;
                e.1 += 1;
            } else {
                e.2 += won;
                e.3 += 1;
            }
        }
        match end.winner.as_deref().and_then(|w| who.get(w)) {
            Some(d) if *d == hi => t.strong_wins += 1,
            Some(_) => t.weak_wins += 1,
            None => t.draws += 1,
        }
    }
    Ok(t)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::grid::Board;

    fn board(sides: &[(usize, usize)]) -> Board {
        let floors: Vec<Vec<String>> = sides.iter().map(|&(w, h)| vec![".".repeat(w); h]).collect();
        Board::from_rows(&floors).unwrap()
    }

    /// The simulator's exploration minutes grow with the largest floor: 200 up to 32×32, 200
    /// more a further 1 024 spaces (a 64×64 delve floor: 800), at most 1 600.
    #[test]
    fn the_exploration_limit_grows_with_the_largest_floor_up_to_eight_times() {
        assert_eq!(exploration_limit(&board(&[(12, 8)])), 200);
        assert_eq!(exploration_limit(&board(&[(32, 32)])), 200);
        assert_eq!(exploration_limit(&board(&[(33, 32)])), 400);
        assert_eq!(exploration_limit(&board(&[(64, 64)])), 800);
        assert_eq!(exploration_limit(&board(&[(20, 12), (64, 64), (40, 40)])), 800, "the largest floor counts");
        assert_eq!(exploration_limit(&board(&[(96, 96)])), 1600);
        assert_eq!(exploration_limit(&board(&[(1024, 1024)])), 1600, "at most 8 times 200");
    }
}
