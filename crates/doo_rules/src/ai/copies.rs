//! The copies of a match the AI plays on to weigh its choices (plan checks, the lookahead's
//! futures): never the match itself.

use crate::rules::state::Match;

/// A copy of `m` with every space revealed to every side (and marked seen): a move played on
/// it does not search the fog of war (R-EXP-19), which no check, outcome or choice of the
/// fight reads. The lookahead's futures and the plan checks (`valid_commands`) play on such
/// copies (in a crawl's crisis that search was four fifths of a future's time, session 19);
/// the match itself is never touched.
pub(super) fn fogless(m: &Match) -> Match {
    let mut copy = m.clone();
    let n = copy.board.spaces();
    let sides: std::collections::BTreeSet<String> = copy.fighters.iter().map(|f| f.side.clone()).collect();
    if let Some(x) = copy.explore.as_mut() {
        for side in sides {
            x.fog.0.insert(side.clone(), vec![true; n]);
            x.seen.insert(side, vec![true; n]);
        }
    }
    copy
}
