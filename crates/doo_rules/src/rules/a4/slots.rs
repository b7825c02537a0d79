//! An act's row of `a4.ron` (`RoundAct::row_id`) and the slots it takes from the figure's round:
//! standard, move and minor, a minor traded for a move or standard slot (A4-2.1, A4-G-06).

use super::super::equipment::Wielded;
use super::super::state::Match;
use super::book::{A4Book, Slot};
use super::state::{A4, RoundAct, RoundState};
use super::stats::great_draw;

impl RoundAct {
    /// The row of `a4.ron` this act is.
    pub fn row_id(&self, m: &Match, a4: &A4, a: usize) -> &'static str {
        match self {
            RoundAct::Move { .. } => "move",
            RoundAct::Run { .. } => "run",
            RoundAct::Withdraw { .. } => "withdraw",
            RoundAct::Charge { .. } => "charge",
            RoundAct::Step { .. } => "step",
            RoundAct::StandUp => "stand_up",
            RoundAct::DropProne => "drop_prone",
            RoundAct::Attack { .. } => "attack",
            RoundAct::FullAttack { .. } => "full_attack",
            RoundAct::FullDefense => "full_defense",
            RoundAct::Reload => {
                let f = &m.fighters[a];
                match m.equipment.wielded(f) {
                    Wielded::Ranged(r) if r.hand_reload_brawn.is_some_and(|b| f.stats.brawn >= b) => "reload_hand",
                    _ => "reload_crank",
                }
            }
            RoundAct::Delay { .. } => "delay",
            RoundAct::Hold { .. } => "hold",
            RoundAct::MovingDefense { .. } => "moving_defense",
            RoundAct::Draw | RoundAct::Sheathe => {
                if great_draw(m, a4, a) {
                    "draw_great"
                } else {
                    "draw"
                }
            }
            RoundAct::Stabilize { .. } => "stabilize",
            RoundAct::Mount => "mount",
            RoundAct::Speak { .. } => "speak",
            RoundAct::Door { .. } | RoundAct::OpenChest { .. } => "door",
            RoundAct::Take { .. } => "take",
            RoundAct::Drop { .. } => "drop",
            RoundAct::UseItem { .. } => "use_item",
            RoundAct::CastSpell { .. } => "cast_spell",
            RoundAct::EndTurn => "end_turn",
        }
    }
}

/// The slots `uses` takes from the figure's round, trading a minor for a move or standard slot
/// (A4-G-06), or the slot that is missing.
pub fn allocate(b: &A4Book, r: &RoundState, uses: &[Slot]) -> Result<Vec<Slot>, Slot> {
    let mut taken: Vec<Slot> = Vec::new();
    let free = |s: Slot, taken: &Vec<Slot>| !r.slot_used(s) && !taken.contains(&s);
    let mut need = uses.to_vec();
    need.sort();
    for s in need {
        if free(s, &taken) {
            taken.push(s);
        } else if s == Slot::Minor {
            match b.actions.minor_from.iter().copied().find(|&o| free(o, &taken)) {
                Some(o) => taken.push(o),
                None => return Err(s),
            }
        } else {
            return Err(s);
        }
    }
    Ok(taken)
}
