//! Doors the editor points out though `doo validate` lets them pass (issue 46): a door standing
//! in the open (between walls neither left and right nor above and below, and a figure walks
//! round it) and doors in a block (a door next to another door: a doorway is one door).
//! Each is a space and a plain sentence; the level still validates and plays.

use crate::level_file::{Level, TileSpec};
use crate::rules::grid::Pos;

/// The most door problems listed for one level (as `doo validate` lists at most its own cap).
pub const MAX_DOOR_PROBLEMS: usize = crate::data::MAX_ERRORS;

#[derive(Clone, Copy, PartialEq, Eq)]
enum Kind {
    Door,
    /// A wall or a pillar (and whatever lies off the map).
    Solid,
    Open,
}

fn kind(level: &Level, c: char) -> Kind {
    match level.legend.get(&c) {
        Some(TileSpec::DoorOpen | TileSpec::DoorClosed | TileSpec::DoorLocked | TileSpec::SecretDoor) => Kind::Door,
        Some(TileSpec::Wall | TileSpec::Pillar) => Kind::Solid,
        Some(_) => Kind::Open,
        None => match c {
            '+' | '/' | 'L' | 'S' => Kind::Door,
            '#' | 'O' => Kind::Solid,
            _ => Kind::Open,
        },
    }
}

/// Whether a figure walks round the door at (x, y): the open spaces about it (a wall, a pillar
/// or another door closes the ring) are one stretch, which holds two opposite sides of it
/// (left and right, or above and below). A door in a wall, or in a corner of one (an open side
/// and the one round the corner: the diagonal squeezes between the door and the wall, G-01),
/// parts the spaces about it; a door at a dead end has no opposite sides open.
fn walked_round(at: &impl Fn(i32, i32) -> Kind, x: i32, y: i32) -> bool {
    const RING: [(i32, i32); 8] = [(0, -1), (1, -1), (1, 0), (1, 1), (0, 1), (-1, 1), (-1, 0), (-1, -1)];
    let open: Vec<bool> = RING.iter().map(|(dx, dy)| at(x + dx, y + dy) == Kind::Open).collect();
    let opposite = (open[0] && open[4]) || (open[2] && open[6]);
    // Stretches of open spaces round the ring: one that starts where the one before is closed.
    let stretches = (0..8).filter(|&k| open[k] && !open[(k + 7) % 8]).count();
    let all = open.iter().all(|o| *o);
    opposite && (all || stretches == 1)
}

/// The doors of the level in the open or in a block: (floor, x, y, the problem in words), in
/// map order, at most `MAX_DOOR_PROBLEMS`.
pub fn door_problems(level: &Level) -> Vec<(usize, i32, i32, String)> {
    let mut out = Vec::new();
    for (f, rows) in level.floors.iter().enumerate().take(crate::rules::grid::MAX_FLOORS) {
        let grid: Vec<Vec<Kind>> = rows.iter().map(|r| r.chars().map(|c| kind(level, c)).collect()).collect();
        let at = |x: i32, y: i32| -> Kind {
            let (Ok(ux), Ok(uy)) = (usize::try_from(x), usize::try_from(y)) else { return Kind::Solid };
            grid.get(uy).and_then(|r| r.get(ux)).copied().unwrap_or(Kind::Solid)
        };
        for (y, row) in grid.iter().enumerate() {
            for (x, k) in row.iter().enumerate() {
                if *k != Kind::Door {
                    continue;
                }
                let (x, y) = (x as i32, y as i32);
                let p = Pos::on(x, y, f as u8);
                if walked_round(&at, x, y) {
                    out.push((
                        f,
                        x,
                        y,
                        format!(
                            "the door at {p} stands in the open: no wall on either side of it, left and right or above and below (a figure walks round it)"
                        ),
                    ));
                }
                for (nx, ny) in [(x + 1, y), (x, y + 1)] {
                    if at(nx, ny) == Kind::Door && usize::try_from(ny).is_ok_and(|ny| ny < grid.len()) {
                        let q = Pos::on(nx, ny, f as u8);
                        out.push((f, x, y, format!("the doors at {p} and {q} stand side by side: a block of doors (a doorway is one door, in a wall)")));
                    }
                }
                if out.len() >= MAX_DOOR_PROBLEMS {
                    return out;
                }
            }
        }
    }
    out.truncate(MAX_DOOR_PROBLEMS);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn level(rows: &[&str]) -> Level {
        let mut l = crate::level_edit::new_level(3, 3);
        l.floors = vec![rows.iter().map(|r| r.to_string()).collect()];
        l
    }

    #[test] // issue 46: a door between walls (either way) is fine; one in the open is named at its space
    fn a_door_in_the_open_is_found_and_one_in_a_wall_is_not() {
        assert!(door_problems(&level(&["#####", "#.#.#", "#.+.#", "#.#.#", "#####"])).is_empty(), "walls above and below");
        assert!(door_problems(&level(&["#####", "#...#", "##/##", "#...#", "#####"])).is_empty(), "walls left and right");
        assert!(door_problems(&level(&["#O.", "+..", "#.."])).is_empty(), "a pillar and the map's edge hold it");
        // A door in a corner (old_king.ron's (33, 15)): open left and below, but the diagonal
        // between them squeezes past the door and the wall (G-01): it parts the two.
        assert_eq!(door_problems(&level(&["#####", "#...#", "#.+##", "#...#", "#####"])).len(), 1, "a wall on the right only: walked round");
        assert!(door_problems(&level(&["#####", "##.##", "#.+##", "##.##", "#####"])).is_empty(), "three ways meet at it: it parts them");
        assert!(door_problems(&level(&["#####", "#####", "#.+##", "##..#", "#####"])).is_empty(), "a corner door");
        assert!(door_problems(&level(&["#####", "#####", "##+##", "##.##", "#####"])).is_empty(), "a dead end");
        let p = door_problems(&level(&["#####", "#...#", "#.+.#", "#...#", "#####"]));
        assert_eq!(p.len(), 1, "{p:?}");
        assert_eq!((p[0].1, p[0].2), (2, 2));
        assert!(p[0].3.contains("(2, 2)") && p[0].3.contains("in the open"), "{p:?}");
        // A wall on one side only is still open.
        assert_eq!(door_problems(&level(&["#####", "#.#.#", "#.L.#", "#...#", "#####"])).len(), 1);
    }

    #[test] // issue 46: doors next to each other (across or down) are a block, named once per pair
    fn a_block_of_doors_is_found_once_per_pair() {
        let p = door_problems(&level(&["######", "#....#", "##++##", "#....#", "######"]));
        assert_eq!(p.len(), 1, "{p:?}");
        assert!(p[0].3.contains("(2, 2) and (3, 2)") && p[0].3.contains("side by side"), "{p:?}");
        let p = door_problems(&level(&["#####", "#.#.#", "#.+.#", "#./.#", "#.#.#", "#####"]));
        assert_eq!(p.len(), 1, "{p:?}");
        assert!(p[0].3.contains("(2, 2) and (2, 3)"), "{p:?}");
        // A legend's door counts as a door.
        let mut l = level(&["#####", "#...#", "#.D.#", "#...#", "#####"]);
        l.legend.insert('D', TileSpec::DoorClosed);
        assert_eq!(door_problems(&l).len(), 1);
    }
}
