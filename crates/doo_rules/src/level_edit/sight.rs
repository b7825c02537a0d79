//! The editor's sight preview (issue 46, "a fog/sight preview from any space"): what a figure
//! standing on a space would see, by the rules' own sight (R-EXP-18, R-EXP-19: line of sight,
//! dark areas and the lights that burn at the start) in the level as built. In a one-fight
//! level (no fog) it is the line of sight alone (R-LOS-*).

use crate::rules::Match;
use crate::rules::explore::sight::visible;
use crate::rules::grid::Pos;

/// The most spaces of a floor the preview works over (256 × 256): a larger floor is refused
/// (the window would draw a mark per space unseen).
pub const MAX_PREVIEW_SPACES: usize = 1 << 16;

/// The spaces a figure of the first exploring side (else the level's first figure) would see
/// from `at`, in the match `m` the level builds; `Err` says why there is no preview.
pub fn sight_preview(m: &Match, at: Pos) -> Result<Vec<Pos>, String> {
    let Some(floor) = m.board.floors.get(at.floor as usize) else {
        return Err(format!("No floor {} in the level.", at.floor as usize + 1));
    };
    if (floor.width as usize).saturating_mul(floor.height as usize) > MAX_PREVIEW_SPACES {
        return Err(format!("The sight preview works on floors of at most {MAX_PREVIEW_SPACES} spaces ({} x {} here).", floor.width, floor.height));
    }
    if m.board.tile(at).is_none() {
        return Err(format!("({}, {}) is not on the map.", at.x, at.y));
    }
    let explorer = m.explore.as_ref().and_then(|x| (0..m.fighters.len()).find(|&i| x.is_explorer(m, i)));
    let Some(i) = explorer.or((!m.fighters.is_empty()).then_some(0)) else {
        return Err("Put a figure down first: the preview sees with his eyes (his darkvision, the lights).".into());
    };
    let mut m = m.clone();
    m.fighters[i].pos = at;
    Ok(match m.explore.as_deref() {
        Some(x) => visible(&m, x, i),
        None => {
            let (w, h) = (floor.width as i32, floor.height as i32);
            (0..h).flat_map(|y| (0..w).map(move |x| Pos::on(x, y, at.floor))).filter(|&p| p == at || m.board.sees_space(at, p)).collect()
        }
    })
}
