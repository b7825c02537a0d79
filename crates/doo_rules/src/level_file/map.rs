//! The map of a level: its floors' rows read through the legend (secret doors noted), the floor
//! names, the board they make, stairs that lead somewhere, and the spaces a walker can reach.

use super::format::{Level, MAX_STAIR_LINKS, StairDef, TileSpec};
use super::found::Found;
use crate::rules::grid::{Board, MAX_MAP_SIDE, Pos, Tile};

/// The map as checked: rows with custom legend characters translated to the default legend,
/// the spaces of secret doors, and the board (`None` when the map is unusable).
pub(super) struct Map {
    pub(super) floors: Vec<Vec<String>>,
    pub(super) secret: Vec<Pos>,
    pub(super) board: Option<Board>,
}

/// The floors (sizes first, then row lengths and legend characters), the floor names, and the
/// stairs of the board they make.
pub(super) fn check_map(level: &Level, f: &mut Found) -> Map {
    let places = f.places;
    // Map: sizes first, then row lengths and legend characters.
    let max_floors = crate::rules::grid::MAX_FLOORS;
    if level.floors.is_empty() {
        f.key("floors", "the level has no floors: give at least one list of map rows");
    }
    if level.floors.len() > max_floors {
        f.key("floors", format!("{} floors; the most is {max_floors}", level.floors.len()));
    }
    let mut floors = Vec::new();
    let mut secret: Vec<Pos> = Vec::new();
    let mut map_ok = !level.floors.is_empty() && level.floors.len() <= max_floors;
    for (fi, rows) in level.floors.iter().enumerate().take(max_floors) {
        let width = rows.first().map_or(0, |r| r.chars().count());
        if rows.is_empty() || width == 0 {
            f.at(places.cell(Pos::on(0, 0, fi as u8)), format!("floor {fi} has no rows"));
            map_ok = false;
            continue;
        }
        // Sizes before any row is translated or padded (counting characters is linear in the
        // file, which is itself capped).
        let widest = rows.iter().map(|r| r.chars().count()).max().unwrap_or(0);
        if rows.len() > MAX_MAP_SIDE as usize || widest > MAX_MAP_SIDE as usize {
            f.at(places.cell(Pos::on(0, 0, fi as u8)), format!("floor {fi} is {widest}×{} spaces; the most is {MAX_MAP_SIDE}×{MAX_MAP_SIDE}", rows.len()));
            map_ok = false;
            continue;
        }
        let mut out = Vec::with_capacity(rows.len());
        for (y, row) in rows.iter().enumerate() {
            let n = row.chars().count();
            if n != width {
                f.lazy(
                    || places.cell(Pos::on(0, y as i32, fi as u8)),
                    || format!("floor {fi} row {y} has {n} characters; the first row has {width} (rows must be equally long)"),
                );
            }
            let mut translated = String::with_capacity(width);
            for (x, c) in row.chars().take(width).enumerate() {
                let t = match level.legend.get(&c) {
                    Some(TileSpec::SecretDoor) => {
                        secret.push(Pos::on(x as i32, y as i32, fi as u8));
                        '+'
                    }
                    Some(spec) => spec_char(*spec),
                    None if c == 'S' => {
                        secret.push(Pos::on(x as i32, y as i32, fi as u8));
                        '+'
                    }
                    None if Board::legend(c).is_some() => c,
                    None => {
                        let shown = if c.is_control() { format!("U+{:04X}", c as u32) } else { format!("'{c}'") };
                        f.lazy(
                            || places.cell(Pos::on(x as i32, y as i32, fi as u8)),
                            || format!("unknown map character {shown} (add it to `legend`, or use . # / + L S O _ ~ > <)"),
                        );
                        '#'
                    }
                };
                translated.push(t);
            }
            // Pad a short row so the rest of the level can still be checked (long ones were cut).
            translated.extend(std::iter::repeat_n('#', width.saturating_sub(n)));
            out.push(translated);
        }
        floors.push(out);
    }
    if !level.floor_names.is_empty() && level.floor_names.len() != level.floors.len() {
        f.key("floor_names", format!("{} floor names for {} floors", level.floor_names.len(), level.floors.len()));
    }
    for n in level.floor_names.iter().take(max_floors + 1) {
        if let Some(p) = crate::data::text_problem("a floor name", n, crate::data::MAX_NAME_CHARS) {
            f.key("floor_names", p);
        }
    }
    let board = if map_ok { Board::from_rows(&floors).ok() } else { None };
    check_stairs(level, board.as_ref(), f);
    Map { floors, secret, board }
}

/// Stairs: every stairs tile leads somewhere walkable (explicit links first).
fn check_stairs(level: &Level, board: Option<&Board>, f: &mut Found) {
    let places = f.places;
    if level.stairs.len() > MAX_STAIR_LINKS {
        f.key("stairs", format!("{} stair links; the most is {MAX_STAIR_LINKS}", level.stairs.len()));
    } else if let Some(b) = board {
        let mut linked = std::collections::HashSet::new();
        for (k, s) in level.stairs.iter().enumerate() {
            for end in [s.from, s.to] {
                linked.insert(end);
                if !matches!(b.tile(end), Some(Tile::Stairs { .. })) {
                    f.at(places.item("stairs", k), format!("stairs link: {end} is not a stairs or ladder space"));
                }
            }
        }
        'floors: for (fi, fl) in b.floors.iter().enumerate() {
            for y in 0..fl.height as i32 {
                for x in 0..fl.width as i32 {
                    if f.full() {
                        break 'floors;
                    }
                    let p = Pos::on(x, y, fi as u8);
                    if let Some(Tile::Stairs { to }) = b.tile(p) {
                        let dest = Pos::on(x, y, to);
                        if !linked.contains(&p) {
                            let why = if to as usize == fi {
                                "there is no floor in that direction".to_string()
                            } else if to as usize >= b.floors.len() {
                                format!("there is no floor {to}")
                            } else if !b.walkable(dest) {
                                format!("floor {to} has no walkable space at ({x}, {y})")
                            } else {
                                String::new()
                            };
                            if !why.is_empty() {
                                f.at(places.cell(p), format!("the stairs at {p} lead nowhere: {why}; add a `stairs` link"));
                            }
                        }
                    }
                }
            }
        }
    }
}

pub(super) fn spec_char(s: TileSpec) -> char {
    match s {
        TileSpec::Floor => '.',
        TileSpec::Wall => '#',
        TileSpec::DoorOpen => '/',
        TileSpec::DoorClosed => '+',
        TileSpec::DoorLocked => 'L',
        TileSpec::SecretDoor => '+',
        TileSpec::Pillar => 'O',
        TileSpec::Pit => '_',
        TileSpec::Difficult => '~',
        TileSpec::StairsUp => '>',
        TileSpec::StairsDown => '<',
    }
}

/// Every space a walker can get to from any of `starts` (closed and locked doors block; stairs
/// and explicit links lead on): one breadth-first search (`pathfinding`'s `bfs_reach`, from a
/// virtual node whose neighbours are the starts), linear in the map's size.
pub fn reachable_from(board: &Board, starts: &[Pos], links: &[StairDef]) -> std::collections::HashSet<Pos> {
    let mut link_map: std::collections::HashMap<Pos, Vec<Pos>> = std::collections::HashMap::new();
    for s in links {
        link_map.entry(s.from).or_default().push(s.to);
        link_map.entry(s.to).or_default().push(s.from);
    }
    let next = |p: &Option<Pos>| -> Vec<Option<Pos>> {
        let Some(p) = *p else { return starts.iter().copied().filter(|s| board.walkable(*s)).map(Some).collect() };
        let mut out = Vec::with_capacity(10);
        for dy in -1..=1 {
            for dx in -1..=1 {
                let q = Pos::on(p.x + dx, p.y + dy, p.floor);
                if (dx, dy) != (0, 0) && board.walkable(q) && board.step_geometry(p, q).is_ok() {
                    out.push(q);
                }
            }
        }
        if let Some(Tile::Stairs { to }) = board.tile(p) {
            out.push(Pos::on(p.x, p.y, to));
        }
        out.extend(link_map.get(&p).into_iter().flatten().copied());
        out.into_iter().filter(|q| board.walkable(*q)).map(Some).collect()
    };
    pathfinding::directed::bfs::bfs_reach(None, next).flatten().collect()
}
