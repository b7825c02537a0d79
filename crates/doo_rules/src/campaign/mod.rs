//! Campaigns (RULES.md §25): hero files (`heroes/*.ron`, docs/heroes.md), campaign files
//! (`campaigns/*.ron`, docs/campaigns.md) and a campaign's progress, which a save carries
//! (`Save::campaign`). A campaign level is played as an ordinary level: its party side's
//! characters are replaced by the roster's heroes (`level_for`), written as a level file
//! (`prepare_level`), and played, saved and replayed like any other. When it ends,
//! `finish_level` applies the rules: CP earned in play and per level (R-CP-9, R-CP-10),
//! carry-over (R-CP-12), the rest between levels (R-CP-13). Nothing here renders; errors are
//! `file:line:col` sentences.
//!
//! The parts: `caps` (the files' version and caps), `hero` (hero files), `file` (campaign
//! files), `progress` (where a campaign stands, and recruits), `prepare` (the level a campaign
//! level is played as), `finish` (the end of a level: CP, carry-over, the rest) and `shop`
//! (CP and money spent between levels).

mod caps;
mod file;
mod finish;
mod hero;
mod prepare;
mod progress;
#[cfg(test)]
mod reacts;
mod room;
mod shop;
mod show;
mod told;

pub use caps::{
    MAX_BOUGHT, MAX_BUDGET, MAX_CP, MAX_HISTORY, MAX_ITEMS, MAX_LEVELS, MAX_OBJECTIVE_CP, MAX_OBJECTIVES, MAX_PARTY, MAX_PLAYS, MAX_PURSE, MAX_REST_DAYS,
    VERSION,
};
pub use file::{Campaign, CampaignLevel, CheckedCampaign, Objective, ObjectiveDef, check_campaign, load_campaign};
pub use finish::{LevelReport, Told, finish_level, finish_level_with};
pub use hero::{Hero, HeroLight, Pronouns, check_hero, hero_text, load_hero, sample_hero};
pub use prepare::{check_level_text, level_for, prepare_level};
pub use progress::{LevelRecord, Progress, recruit};
pub use shop::{auto_spend, buy_gear, rearm, spend};
pub use show::hero_json;

/// The shipped campaign and the built-in rule data, for the tests of every part.
#[cfg(test)]
fn shipped() -> (crate::data::RuleData, CheckedCampaign) {
    let data = crate::data::RuleData::builtin();
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../campaigns/drowned_crown.ron");
    let c = load_campaign(&path, &data).unwrap_or_else(|e| panic!("{e}"));
    (data, c)
}
