//! Sight at scale (issue 44) against the former code kept as the oracle (R-EXP-18, R-EXP-19):
//! the same spaces seen in the same order, the same spaces revealed and `seen`, the same counts.

use super::sight::{self, reveal_by_oracle, visible_oracle};
use crate::rules::grid::{Pos, Tile};
use proptest::prelude::*;

/// A walled `w`×`h` crawl whose inside holds floor, walls, doors, pillars and pits as `cells`
/// say, two heroes and two monsters at the spaces picked (moved onto floor).
fn random_crawl(w: usize, h: usize, cells: &[u8], at: &[(usize, usize)]) -> crate::rules::state::Match {
    let mut rows: Vec<Vec<char>> = (0..h)
        .map(|y| {
            (0..w)
                .map(|x| {
                    if x == 0 || y == 0 || x == w - 1 || y == h - 1 {
                        return '#';
                    }
                    let c = cells[(y * w + x) % cells.len()];
                    if !c.is_multiple_of(3) { '.' } else { ['#', '+', 'O', 'L', '_', '/', '~', '.'][(c as usize / 3) % 8] }
                })
                .collect()
        })
        .collect();
    let mut chars = Vec::new();
    let names = [("h1", "heroes"), ("m1", "monsters"), ("h2", "heroes"), ("m2", "monsters")];
    for (k, &(px, py)) in at.iter().enumerate().take(4) {
        let (x, y) = (1 + px % (w - 2), 1 + py % (h - 2));
        if chars.iter().any(|&(_, _, p)| p == (x as i32, y as i32)) {
            continue;
        }
        rows[y][x] = '.';
        chars.push((names[k].0, names[k].1, (x as i32, y as i32)));
    }
    let rows: Vec<String> = rows.into_iter().map(|r| r.into_iter().collect()).collect();
    let rows: Vec<&str> = rows.iter().map(String::as_str).collect();
    crate::testkit::crawl(&rows, &chars)
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 96, ..ProptestConfig::default() })]
    // R-EXP-19, R-EXP-18 (issue 44): `visible` (bitmap, blocker counts) lists exactly the
    // spaces the former search listed, in its order, with and without a dark area lit by a
    // torch; `reveal` marks the same fog and `seen` and counts the same new spaces, a second
    // time too (the wholly revealed floor skipped), and again after a door opens; `view_of`
    // shows the same spaces in sight.
    #[test]
    fn sight_is_the_former_sight(w in 4usize..18, h in 4usize..18, cells in proptest::collection::vec(any::<u8>(), 1..300),
        at in proptest::collection::vec((0usize..32, 0usize..32), 1..5), dark in any::<bool>(), torch in any::<bool>()) {
        let mut m = random_crawl(w, h, &cells, &at);
        {
            let x = m.explore.as_deref_mut().unwrap();
            if dark {
                x.dark = vec![(Pos::new(0, 0), Pos::new(w as i32 / 2 + 1, h as i32))];
            }
            if torch {
                let item = x.book.lights[0].item.clone();
                x.burning.insert(m.fighters.len() - 1, (item, 10));
            }
        }
        for round in 0..3 {
            if round == 2 {
                // a door opens: what was behind it may now be seen
                let door = (0..(w * h) as i32).map(|k| Pos::new(k % w as i32, k / w as i32)).find(|&p| m.board.tile(p) == Some(Tile::DoorClosed));
                if let Some(p) = door {
                    m.board.set_tile(p, Tile::DoorOpen);
                }
            }
            let x = m.explore.as_deref().unwrap();
            for i in 0..m.fighters.len() {
                prop_assert_eq!(sight::visible(&m, x, i), visible_oracle(&m, x, i), "viewer {}", i);
            }
            for side in ["heroes", "monsters"] {
                let mut want = vec![false; m.board.spaces()];
                for i in (0..m.fighters.len()).filter(|&i| m.fighters[i].side == side) {
                    for p in visible_oracle(&m, x, i) {
                        want[m.board.index(p).unwrap()] = true;
                    }
                }
                prop_assert_eq!(sight::view_of(&m, x, side).visible, want, "the view of {}", side);
            }
            let mut old = m.explore.as_deref().unwrap().clone();
            let mut new = old.clone();
            for side in ["heroes", "monsters"] {
                let who: Vec<usize> = (0..m.fighters.len()).filter(|&i| m.fighters[i].side == side).collect();
                let legacy = side == "heroes";
                prop_assert_eq!(sight::reveal_by_for_tests(&m, &mut new, side, &who, legacy), reveal_by_oracle(&m, &mut old, side, &who, legacy));
            }
            prop_assert_eq!(&new.fog, &old.fog);
            prop_assert_eq!(&new.seen, &old.seen);
            m.explore = Some(Box::new(new));
        }
    }
}

#[test] // R-EXP-19: a whole floor seen from one open room at the caps' scale is still the former answer (a 40×40 room)
fn open_room_is_the_former_sight() {
    let rows: Vec<String> = (0..40).map(|y| if y == 0 || y == 39 { "#".repeat(40) } else { format!("#{}#", ".".repeat(38)) }).collect();
    let rows: Vec<&str> = rows.iter().map(String::as_str).collect();
    let m = crate::testkit::crawl(&rows, &[("h", "heroes", (3, 5)), ("o", "monsters", (30, 31))]);
    let x = m.explore.as_deref().unwrap();
    let seen = sight::visible(&m, x, 0);
    assert_eq!(seen.len(), 40 * 40, "the whole room and its walls");
    assert_eq!(seen, visible_oracle(&m, x, 0));
}
