//! Where a campaign level's party starts: the spaces its heroes take in the level (used by
//! `prepare::level_for` to place them and by `file::check_campaign` to prove the room).

use std::collections::BTreeSet;

/// Spaces the party starts on: the level's own party figures' spaces, then free walkable spaces
/// nearest the first of them (breadth-first).
pub(super) fn party_starts(level: &crate::level_file::CheckedLevel, side: &str, n: usize) -> Vec<crate::rules::Pos> {
    let mut starts: Vec<crate::rules::Pos> = level.characters.iter().filter(|c| c.side == side).map(|c| c.pos).collect();
    if starts.len() >= n {
        starts.truncate(n);
        return starts;
    }
    let Ok(board) = crate::rules::Board::from_rows(&level.floors) else { return starts };
    let taken: BTreeSet<crate::rules::Pos> = level.characters.iter().map(|c| c.pos).collect();
    let Some(&first) = starts.first() else { return starts };
    let more: Vec<crate::rules::Pos> = pathfinding::directed::bfs::bfs_reach(first, |p| {
        let p = *p;
        [(-1, -1), (0, -1), (1, -1), (-1, 0), (1, 0), (-1, 1), (0, 1), (1, 1)]
            .into_iter()
            .map(move |(dx, dy)| crate::rules::Pos::on(p.x + dx, p.y + dy, p.floor))
            .filter(|q| board.walkable(*q))
            .collect::<Vec<_>>()
    })
    .filter(|p| !taken.contains(p) && !starts.contains(p))
    .take(n - starts.len())
    .collect();
    starts.extend(more);
    starts
}
