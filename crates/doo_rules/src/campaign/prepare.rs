//! The level file a campaign level is played as: the level with the party's figures replaced
//! by the roster's heroes, written beside the progress and checked.

use super::file::CheckedCampaign;
use super::hero::Hero;
use super::progress::Progress;
use crate::data::RuleData;
use crate::level_file::{CheckedLevel, Level};
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

/// Spaces the party starts on: the level's own party figures' spaces, then free walkable spaces
/// nearest the first of them (breadth-first).
fn party_starts(level: &crate::level_file::CheckedLevel, side: &str, n: usize) -> Vec<crate::rules::Pos> {
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

/// The level file a campaign level is played as: the level with its party side's figures
/// replaced by the roster's heroes able to play (on their spaces, then the nearest free ones),
/// and monster templates written out (the file stands alone). Returns its text.
pub fn level_for(c: &CheckedCampaign, progress: &Progress, id: &str, data: &RuleData) -> Result<String, String> {
    let checked = c.load_level(id, data)?;
    let side = &c.campaign.party_side;
    let playing: Vec<&Hero> = progress.roster.iter().filter(|h| !progress.sitting_out.contains(&h.name)).collect();
    if playing.is_empty() {
        return Err("no hero is able to play the level".into());
    }
    let mut ids = BTreeSet::new();
    if let Some(h) = playing.iter().find(|h| !ids.insert(h.id())) {
        return Err(format!("two heroes of the party share the name '{}' (or one too like it): rename one", h.name));
    }
    let starts = party_starts(&checked, side, playing.len());
    if starts.len() < playing.len() {
        return Err(format!("the level has room for {} heroes on side '{side}', not {}", starts.len(), playing.len()));
    }
    let p = &c.level_paths[id];
    let dir = crate::level_file::templates_dir(&crate::level_file::project_root(p));
    let mut level: Level = checked.level.clone();
    let mut characters = Vec::new();
    for e in level.characters.drain(..) {
        let e = match &e.template {
            Some(t) => {
                let mut full = e.clone().over(&crate::level_file::read_template(&dir, t)?);
                full.template = None;
                full
            }
            None => e,
        };
        if e.side.as_deref() != Some(side.as_str()) {
            characters.push(e);
        }
    }
    for (h, pos) in playing.iter().zip(starts) {
        let (sheet, _) = h.sheet(&data.heroes).map_err(|v| format!("{}: {v}", h.name))?;
        let mut e = h.entry(&sheet, side, pos, data);
        // A package without a figure of its own (added to heroes.ron alone) is drawn by the
        // figure book's other rules, not refused.
        if e.sprite.as_deref().is_some_and(|s| !data.figures.known(s)) {
            e.sprite = None;
        }
        // R-CP-12: a light he carried over burns in his hand (a crawl; elsewhere it waits).
        if let Some(l) = h.light.as_ref().filter(|_| level.mode == crate::level_crawl::LevelMode::Exploration) {
            level.lights.push(crate::level_crawl::LightDef { item: l.item.clone(), minutes: l.minutes, held_by: e.id.clone(), pos: None });
        }
        characters.push(e);
    }
    level.characters = characters;
    let title = c.campaign.level(id).map(|l| l.briefing.clone()).unwrap_or_default();
    if !title.is_empty() {
        level.briefing = format!("{title}\n\n{}", level.briefing);
    }
    level.name = format!("{} — {}", c.campaign.name, level.name);
    ron::ser::to_string_pretty(&level, ron::ser::PrettyConfig::default().struct_names(true)).map_err(|e| e.to_string())
}

/// Writes the level file a campaign level is played as, beside the progress, and checks it.
pub fn prepare_level(c: &CheckedCampaign, progress: &Progress, dir: &Path, data: &RuleData) -> Result<(PathBuf, CheckedLevel), String> {
    let id = progress.level.clone().ok_or("the campaign is over")?;
    let text = level_for(c, progress, &id, data)?;
    let n = progress.history.len() + 1;
    let path = dir.join(format!("level-{n:03}-{id}.ron"));
    crate::data::write_atomic(&path, &text).map_err(|e| format!("{}: {e}", path.display()))?;
    let level = check_level_text(&path, &text, data)?;
    Ok((path, level))
}

/// Checks the text `level_for` wrote, as the level file `path` (written or not).
pub fn check_level_text(path: &Path, text: &str, data: &RuleData) -> Result<CheckedLevel, String> {
    let root = std::env::current_dir().unwrap_or_else(|_| PathBuf::from("."));
    crate::level_file::check(&path.display().to_string(), text, data, &root)
        .map_err(|e| format!("{}:{}:{}: {}", path.display(), e[0].line, e[0].col, e[0].message))
}
