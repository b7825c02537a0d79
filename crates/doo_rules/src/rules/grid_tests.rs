//! Unit tests of grid.rs (moved beside it to keep the file short).
use super::*;

fn board(rows: &[&str]) -> Board {
    Board::from_rows(&[rows.iter().map(|s| s.to_string()).collect()]).unwrap()
}

#[test] // G-01 / R-TURN-2: Chebyshev distance
fn chebyshev_distance() {
    assert_eq!(Pos::new(0, 0).distance(Pos::new(3, 2)), 3);
    assert_eq!(Pos::new(0, 0).distance(Pos::new(1, 1)), 1);
}

#[test] // G-01: no corner cutting between two walls, diagonal fine past one
fn corner_cutting() {
    let b = board(&[".#", "#."]);
    assert!(b.step_geometry(Pos::new(0, 0), Pos::new(1, 1)).is_err());
    let b = board(&[".#", ".."]);
    assert!(b.step_geometry(Pos::new(0, 0), Pos::new(1, 1)).is_ok());
}

#[test] // R-ATK-12 / G-04: clear, partial, none
fn sight_grades() {
    let b = board(&[".....", ".....", "....."]);
    assert_eq!(b.line_of_sight(Pos::new(0, 1), Pos::new(4, 1)), Sight::Clear);
    let b = board(&[".....", "..O..", "....."]);
    // dead centre behind a pillar: only edge-to-edge lines pass (G-04 minimal)
    assert_eq!(b.line_of_sight(Pos::new(0, 1), Pos::new(4, 1)), Sight::Minimal);
    // offset: the centre line is blocked, centre to the target's far corner is not
    assert_eq!(b.line_of_sight(Pos::new(0, 1), Pos::new(4, 2)), Sight::Partial);
    let b = board(&["..#..", "..#..", "..#.."]);
    assert_eq!(b.line_of_sight(Pos::new(0, 1), Pos::new(4, 1)), Sight::None);
}

#[test] // G-04: a segment touching a blocker only at a corner point is clear
fn corner_touch_is_clear() {
    let b = board(&["...", ".#.", "..."]);
    // centre (0.5,0.5) → centre (2.5,0.5) runs along y=0.5, above the pillar row
    assert_eq!(b.line_of_sight(Pos::new(0, 0), Pos::new(2, 0)), Sight::Clear);
    assert!(segment_enters_square((0.0, 0.0), (2.0, 2.0), 1.0, 1.0));
    assert!(!segment_enters_square((0.0, 2.0), (1.0, 1.0), 1.0, 1.0));
}

#[test]
fn pos_serde_forms() {
    let p: Pos = ron::from_str("(2, 3)").unwrap();
    assert_eq!(p, Pos::new(2, 3));
    let p: Pos = ron::from_str("(2, 3, 1)").unwrap();
    assert_eq!(p, Pos::on(2, 3, 1));
    let p: Pos = serde_json::from_str("[4,5]").unwrap();
    assert_eq!(p, Pos::new(4, 5));
    assert_eq!(serde_json::to_string(&Pos::on(1, 2, 0)).unwrap(), "[1,2]");
}

use proptest::prelude::*;

/// A random floor `w`×`h`: floor, pits and open doors see-through; walls, closed and locked
/// doors and pillars block, one space in `1 / sparse` or so.
fn random_board(w: usize, h: usize, cells: &[u8], sparse: u8) -> Board {
    let tiles = [Tile::Wall, Tile::DoorClosed, Tile::Pillar, Tile::DoorLocked, Tile::Floor, Tile::Pit, Tile::DoorOpen, Tile::Difficult];
    let tiles = (0..w * h).map(|k| {
        let c = cells[k % cells.len()];
        if c.is_multiple_of(sparse.max(1)) { tiles[(c as usize / 7) % 4] } else { tiles[4 + (c as usize / 7) % 4] }
    });
    Board { floors: vec![Floor { width: w as u32, height: h as u32, tiles: tiles.collect() }], links: Vec::new() }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 400, ..ProptestConfig::default() })]
    // R-EXP-19 / R-ATK-12 / G-04 (issue 44): the walk along the segment and the blocker
    // counts answer exactly as the former scan of the whole bounding box, on random small
    // boards with walls, doors, pillars and pits, from and to any space (off the map too).
    #[test]
    fn sees_space_is_the_former_scan(w in 1usize..14, h in 1usize..14, cells in proptest::collection::vec(any::<u8>(), 1..200), sparse in 1u8..6,
        pairs in proptest::collection::vec((-2i32..16, -2i32..16, -2i32..16, -2i32..16), 1..40)) {
        let b = random_board(w, h, &cells, sparse);
        let map = SightMap::new(&b, 0);
        for (fx, fy, tx, ty) in pairs {
            let (from, to) = (Pos::new(fx, fy), Pos::new(tx, ty));
            let old = b.sees_space_oracle(from, to);
            prop_assert_eq!(b.sees_space(from, to), old, "walk {} → {}", from, to);
            prop_assert_eq!(map.sees_space(&b, from, to), old, "counts {} → {}", from, to);
        }
    }

    // G-04 (issue 44): bigger boards with few blockers, so that runs of clear columns are
    // passed over by the counts; every segment between the sample points of two spaces.
    #[test]
    fn long_segments_are_the_former_scan(w in 20usize..60, h in 20usize..60, cells in proptest::collection::vec(any::<u8>(), 50..400), sparse in 5u8..40,
        pairs in proptest::collection::vec((0i32..60, 0i32..60, 0i32..60, 0i32..60, 0usize..9, 0usize..9), 1..30)) {
        let b = random_board(w, h, &cells, sparse);
        let map = SightMap::new(&b, 0);
        let pt = |x: i32, y: i32, k: usize| {
            let (x, y) = (x as f64, y as f64);
            [(x + 0.5, y + 0.5), (x, y), (x + 1.0, y), (x, y + 1.0), (x + 1.0, y + 1.0), (x + 0.5, y), (x + 0.5, y + 1.0), (x, y + 0.5), (x + 1.0, y + 0.5)][k]
        };
        for (fx, fy, tx, ty, i, j) in pairs {
            let (a, c) = (pt(fx, fy, i), pt(tx, ty, j));
            for skip in [None, Some((tx, ty))] {
                let old = b.segment_clear_skip_oracle(a, c, 0, skip);
                prop_assert_eq!(b.segment_walk(a, c, 0, skip, None), old, "walk {:?} → {:?}", a, c);
                prop_assert_eq!(b.segment_walk(a, c, 0, skip, Some(&map)), old, "counts {:?} → {:?}", a, c);
            }
            let (from, to) = (Pos::new(fx, fy), Pos::new(tx, ty));
            let old = b.sees_space_oracle(from, to);
            prop_assert_eq!(b.sees_space(from, to), old);
            prop_assert_eq!(map.sees_space(&b, from, to), old);
        }
    }

    // G-04: arbitrary segments (any real end points, degenerate ones too) walk as they scanned.
    #[test]
    fn any_segment_is_the_former_scan(cells in proptest::collection::vec(any::<u8>(), 1..120), sparse in 1u8..5,
        segs in proptest::collection::vec((-1.0f64..13.0, -1.0f64..13.0, -1.0f64..13.0, -1.0f64..13.0), 1..40)) {
        let b = random_board(12, 12, &cells, sparse);
        let map = SightMap::new(&b, 0);
        for (ax, ay, bx, by) in segs {
            for (a, c) in [((ax, ay), (bx, by)), ((ax, ay), (ax, by)), ((ax, ay), (bx, ay)), ((ax, ay), (ax, ay)), ((ax.round(), ay.round()), (bx.round(), by.round()))] {
                let old = b.segment_clear_skip_oracle(a, c, 0, None);
                prop_assert_eq!(b.segment_walk(a, c, 0, None, None), old, "walk {:?} → {:?}", a, c);
                prop_assert_eq!(b.segment_walk(a, c, 0, None, Some(&map)), old, "counts {:?} → {:?}", a, c);
            }
        }
    }
}

// R-EXP-19 / G-04 (issue 44): a big floor's counts are kept and handed out again only while
// its spaces block sight as they did when counted. A wall put across a line of sight and taken
// away again: each time fresh counts answer as the walk does (kept ones would still see).
#[test]
fn kept_counts_follow_the_board() {
    let (w, h) = (300u32, 300u32);
    let mut b = Board { floors: vec![Floor { width: w, height: h, tiles: vec![Tile::Floor; (w * h) as usize] }], links: Vec::new() };
    let (from, to) = (Pos::new(140, 150), Pos::new(160, 150));
    let answers = |b: &Board| {
        let map = SightMap::new(b, 0);
        let (counted, walked) = (map.sees_space(b, from, to), b.sees_space(from, to));
        // Kept answers too: asked twice, as the sightings after each spawn do.
        assert_eq!((map.sees_space_kept(b, from, to), map.sees_space_kept(b, from, to)), (walked, walked));
        (counted, walked)
    };
    assert_eq!(answers(&b), (true, true));
    for y in 149..=151 {
        b.set_tile(Pos::new(150, y), Tile::Wall);
    }
    assert_eq!(answers(&b), (false, false), "the wall blocks: counts kept from before it would see");
    b.set_tile(Pos::new(150, 150), Tile::DoorOpen);
    b.set_tile(Pos::new(150, 149), Tile::DoorOpen);
    b.set_tile(Pos::new(150, 151), Tile::Pit);
    assert_eq!(answers(&b), (true, true), "open again: counts kept from the wall would not see");
    // Another floor of the same size with the wall: its own counts.
    let mut walled = b.clone();
    walled.set_tile(Pos::new(150, 150), Tile::Pillar);
    walled.set_tile(Pos::new(150, 149), Tile::DoorLocked);
    walled.set_tile(Pos::new(150, 151), Tile::DoorClosed);
    assert_eq!(answers(&walled), (false, false));
    assert_eq!(answers(&b), (true, true));
}

/// The test oracles: the former line-of-sight code, kept to check the fast one against.
impl Board {
    /// The former `segment_clear_skip` (the whole bounding box scanned): the test oracle.
    fn segment_clear_skip_oracle(&self, a: (f64, f64), b: (f64, f64), floor: u8, skip: Option<(i32, i32)>) -> bool {
        let (x0, x1) = (a.0.min(b.0).floor() as i32 - 1, a.0.max(b.0).ceil() as i32);
        let (y0, y1) = (a.1.min(b.1).floor() as i32 - 1, a.1.max(b.1).ceil() as i32);
        let blocks = |x: i32, y: i32| skip != Some((x, y)) && self.tile(Pos::on(x, y, floor)).is_none_or(Tile::blocks_sight);
        for y in y0..=y1 {
            for x in x0..=x1 {
                if !blocks(x, y) {
                    continue;
                }
                match clip_to_square(a, b, x as f64, y as f64) {
                    Some(Clip::Inside) => return false,
                    Some(Clip::Edge(dx, dy)) if blocks(x + dx, y + dy) => return false,
                    _ => {}
                }
            }
        }
        true
    }

    /// The former `sees_space` (every segment scanning its whole bounding box): the test oracle.
    pub(crate) fn sees_space_oracle(&self, from: Pos, to: Pos) -> bool {
        if from.floor != to.floor {
            return false;
        }
        if from.distance(to) <= 1 {
            return true;
        }
        let c = |p: Pos| (p.x as f64 + 0.5, p.y as f64 + 0.5);
        let points = |p: Pos| {
            let (x, y) = (p.x as f64, p.y as f64);
            [(x + 0.5, y + 0.5), (x, y), (x + 1.0, y), (x, y + 1.0), (x + 1.0, y + 1.0), (x + 0.5, y), (x + 0.5, y + 1.0), (x, y + 0.5), (x + 1.0, y + 0.5)]
        };
        let skip = Some((to.x, to.y));
        if self.segment_clear_skip_oracle(c(from), c(to), from.floor, skip) {
            return true;
        }
        points(from).iter().any(|&p| points(to).iter().any(|&q| self.segment_clear_skip_oracle(p, q, from.floor, skip)))
    }
}

#[test] // issue 44: the walk's own rounding is the library's `floor` / `ceil` cast to i32
fn rounding_is_the_library_rounding() {
    let edges = [0.0, -0.0, 0.5, -0.5, 1.0, -1.0, 1e-9, -1e-9, 2.999_999_9, -2.999_999_9, 1023.000_001, -1.000_001, 3e9, -3e9, 2147483647.5, -2147483648.5];
    let mut seed = 0x9e37_79b9_7f4a_7c15u64;
    let mut more = Vec::new();
    for _ in 0..20_000 {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        more.push((seed % 4_000_000) as f64 / 1000.0 - 2000.0);
    }
    for v in edges.into_iter().chain(more).chain([f64::NAN, f64::INFINITY, f64::NEG_INFINITY]) {
        assert_eq!(floor_i32(v), v.floor() as i32, "floor of {v}");
        assert_eq!(ceil_i32(v), v.ceil() as i32, "ceil of {v}");
    }
}
