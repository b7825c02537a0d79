//! The level file a campaign level is played as: the level with the party's figures replaced
//! by the roster's heroes, written beside the progress and checked.

use super::file::CheckedCampaign;
use super::hero::Hero;
use super::progress::Progress;
use super::room::party_starts;
use crate::data::RuleData;
use crate::level_file::{CheckedLevel, Level};
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

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
        let file = c.level_paths.get(id).map_or_else(String::new, |p| p.display().to_string());
        return Err(format!(
            "{}: level '{id}': the level file {file} has room for {} of the heroes on side '{side}', not {}",
            c.path.display(),
            starts.len(),
            playing.len()
        ));
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
