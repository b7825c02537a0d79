//! §8 movement: Step, Run, Climb, Drop, Rise/Stand, Leap, one per opportunity (R-MOVE-4),
//! priced from the profile's movement table, posture and map permitting.

use super::free_steps::check_path;
use super::grid::{Pos, Tile};
use super::profile::{Cost, MovementCombo, MovementEffect, MovementRow, Posture, Rank, RunPenalty};
use super::spending::{Price, check_afford, check_cap, price_only};
use super::state::Match;
use super::violation::{RuleResult, Violation};

/// A checked movement, ready to apply.
#[derive(Clone, Debug, PartialEq)]
pub struct MovePlan {
    pub row: MovementRow,
    pub path: Vec<Pos>,
    pub dest: Pos,
    pub posture: Option<Posture>,
    pub price: Price,
    /// Tumbling shortcut price when the check succeeds (G-18).
    pub tumble: Option<Price>,
    pub defense: i32,
}

/// R-MOVE-3: the Run penalty for `ap` AP (per AP, or the flat −3 of LEGACY-2016-EARLY).
pub fn run_defense(m: &Match, row: &MovementRow, ap: u32) -> i32 {
    match m.rules.options.run_penalty {
        RunPenalty::PerAp => row.defense_per_ap * ap as i32,
        RunPenalty::Flat3 => row.defense_flat,
    }
}

fn path_price(row: &MovementRow, spaces: u32) -> u32 {
    match row.cost {
        Cost::PerSpace(n) => n * spaces,
        Cost::PerTwoSpaces(n) => n * spaces.div_ceil(2),
        Cost::Fixed(n) => n,
        _ => 0,
    }
}

/// Checks a movement for character `a` (everything but whose opportunity it is).
pub fn check_move(m: &Match, a: usize, row: &MovementRow, path: &[Pos], posture: Option<Posture>, tumble: bool) -> RuleResult<MovePlan> {
    let f = &m.fighters[a];
    let name = &row.name;
    if f.opp.action.is_some() {
        return Err(Violation::new(
            "R-COMBO-7",
            format!("{name} cannot follow an action in the same opportunity: free steps, then one movement, then one action."),
        )
        .also("R-AP-2"));
    }
    if row.counts_as_action {
        // C-46: in the legacy tables Climb and the rises are actions.
        if f.opp.movement.is_some() && m.rules.options.movement_combo == MovementCombo::AttacksOnly {
            return Err(Violation::new("R-AP-2", format!("{name} counts as an action here, and only an attack may follow a movement (2016 rule).")));
        }
    } else if f.opp.movement.is_some() {
        return Err(Violation::new("R-MOVE-4", format!("Only one movement per opportunity: {} already made one.", f.name)));
    }
    let blocker = m.conditions.movement_blocker(f, m.rules.options.conditions_adv);
    let needs_standing = matches!(row.effect, MovementEffect::Path | MovementEffect::Climb | MovementEffect::Leap { .. });
    if needs_standing {
        if let Some(c) = blocker {
            return Err(Violation::new("R-COND-3", format!("{} is {} and cannot move.", f.name, c.name.to_lowercase())));
        }
        if f.posture != Posture::Standing {
            return Err(Violation::new("R-MOVE-7", format!("{name} needs {} standing; rise first (there is no crawling).", f.name)));
        }
    }
    let (dest, new_posture, spaces) = match &row.effect {
        MovementEffect::Path => {
            let cost = m.board.path_cost(path);
            if path.is_empty() || cost > row.max_spaces {
                let rule = if row.defense_per_ap != 0 || row.defense_flat != 0 { "R-MOVE-3" } else { "R-MOVE-2" };
                return Err(Violation::new(
                    rule,
                    if cost as usize > path.len() {
                        format!("{name} covers 1 to {} spaces in one opportunity; the path costs {cost} (difficult ground counts twice).", row.max_spaces)
                    } else {
                        format!("{name} covers 1 to {} spaces in one opportunity; this path is {cost}.", row.max_spaces)
                    },
                ));
            }
            check_path(m, a, f.pos, path, "R-MOVE-1")?;
            (*path.last().unwrap_or(&f.pos), None, cost)
        }
        MovementEffect::Climb => {
            let Some(dest) = m.board.stairs_destination(f.pos) else {
                return Err(Violation::new("R-MOVE-1", format!("{name} needs stairs or a ladder under {}.", f.name)));
            };
            if path.len() > 1 || path.first().is_some_and(|p| *p != dest) {
                return Err(Violation::new("R-MOVE-1", format!("These stairs lead to {dest}.")));
            }
            if !m.board.walkable(dest) {
                return Err(Violation::new("R-MOVE-1", format!("The stairs lead nowhere: {dest} cannot be entered.")));
            }
            if let Some(o) = m.occupant(dest) {
                return Err(Violation::new("G-02", format!("{dest} is taken by {}.", m.fighters[o].name)));
            }
            (dest, None, 1)
        }
        MovementEffect::Leap { spaces } => {
            let Some(&dest) = path.last() else {
                return Err(Violation::new("G-42", "Leap needs a landing space."));
            };
            let (dx, dy) = (dest.x - f.pos.x, dest.y - f.pos.y);
            let straight = dest.floor == f.pos.floor && (dx == 0 || dy == 0 || dx.abs() == dy.abs());
            if !straight || f.pos.distance(dest) != *spaces {
                return Err(Violation::new("G-42", format!("{name} goes exactly {spaces} spaces in a straight line.")));
            }
            let (sx, sy) = (dx.signum(), dy.signum());
            for k in 1..*spaces as i32 {
                let over = Pos::on(f.pos.x + sx * k, f.pos.y + sy * k, f.pos.floor);
                if !m.board.tile(over).is_some_and(Tile::leapable) {
                    return Err(Violation::new("G-42", format!("{over} is too high to leap over.")));
                }
            }
            if !m.board.walkable(dest) {
                return Err(Violation::new("G-42", format!("{dest} is no place to land.")));
            }
            if let Some(o) = m.occupant(dest) {
                return Err(Violation::new("G-02", format!("{dest} is taken by {}.", m.fighters[o].name)));
            }
            (dest, None, *spaces)
        }
        MovementEffect::Drop => {
            let to = posture.unwrap_or(Posture::Prone);
            if f.posture != Posture::Standing || to == Posture::Standing {
                return Err(Violation::new("R-POS-2", format!("{name} takes a standing character to sitting, kneeling or prone.")));
            }
            (f.pos, Some(to), 0)
        }
        MovementEffect::Rise { from } => {
            if let Some(c) = blocker {
                return Err(Violation::new("R-COND-3", format!("{} is {} and cannot move.", f.name, c.name.to_lowercase())));
            }
            if f.posture == Posture::Standing {
                return Err(Violation::new("R-POS-2", format!("{} is already standing.", f.name)));
            }
            if !from.contains(&f.posture) {
                let other = m.rules.movements.iter().find(|r| matches!(&r.effect, MovementEffect::Rise { from } if from.contains(&f.posture)));
                let hint = other.map(|r| format!(" Use {} ({}).", r.name, r.id)).unwrap_or_default();
                return Err(Violation::new("R-MOVE-8", format!("{name} does not work from {:?}.{hint}", f.posture).to_lowercase()));
            }
            (f.pos, Some(Posture::Standing), 0)
        }
    };
    let price = match row.cost {
        Cost::PerSpace(_) | Cost::PerTwoSpaces(_) => Price { ap: path_price(row, spaces), only: false },
        c => price_only(f, c, name)?,
    };
    let tumble_price = if tumble {
        let Some(c) = row.tumble_cost else {
            return Err(Violation::new("R-MOVE-8", format!("{name} has no Tumbling shortcut in this profile.")));
        };
        if f.skill("tumble") < Rank::Apprentice {
            return Err(Violation::new("R-MOVE-8", "The Tumbling shortcut needs at least Apprentice Tumble."));
        }
        Some(price_only(f, c, name)?)
    } else {
        None
    };
    let least = tumble_price.unwrap_or(price);
    // R-MOVE-6: a paid 2-AP Rise leaves room only for a 1-AP or 0-AP action (cap below).
    check_cap(m, f, least, name)?;
    check_afford(f, least, name)?;
    let defense = if row.defense_per_ap != 0 || row.defense_flat != 0 { run_defense(m, row, price.ap) } else { 0 };
    Ok(MovePlan { row: row.clone(), path: path.to_vec(), dest, posture: new_posture, price, tumble: tumble_price, defense })
}

/// Whether a movement row is a run (R-COMBO-3).
pub fn is_run(row: &MovementRow) -> bool {
    matches!(row.effect, MovementEffect::Path) && (row.defense_per_ap != 0 || row.defense_flat != 0)
}
