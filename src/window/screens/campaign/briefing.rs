//! The briefing before each level: which level of how many, its story, the optional objectives
//! and what they are worth, the party; then play it, spend CP, recruit, or save and leave.

use super::{CampaignAct, CampaignRun, roster_panel, row};
use crate::window::screens::{Go, Screen};
use crate::window::theme::prelude::*;
use bevy::prelude::*;

pub(super) fn draw_briefing(p: &mut ChildSpawnerCommands, run: &CampaignRun, data: &crate::data::RuleData) {
    let Some(id) = &run.progress.level else { return };
    let lvl = run.checked.campaign.level(id);
    let name = run.checked.load_level(id, data).map(|l| l.level.name.clone()).unwrap_or_else(|_| id.clone());
    let n = run.checked.campaign.levels.iter().position(|l| &l.id == id).map_or(0, |k| k + 1);
    p.spawn(text(format!("Level {n} of {}: {name}", run.checked.campaign.levels.len()), 24.0, palette::TEXT));
    if let Some(l) = lvl {
        p.spawn((text(l.briefing.clone(), 16.0, palette::TEXT), Node { max_width: Val::Px(1000.0), ..default() }));
        let objectives: Vec<String> = l
            .objectives
            .iter()
            .map(|o| format!("{} (+{} CP)", o.name, o.cp.unwrap_or(data.heroes.objective_cp)))
            .chain(l.major.then(|| format!("a major level: +{} CP each", data.heroes.major_cp)))
            .collect();
        if !objectives.is_empty() {
            p.spawn(text(format!("Optional: {}", objectives.join("; ")), 15.0, palette::GOLD));
        }
    }
    roster_panel(p, run, data);
    row(p, |r| {
        r.spawn(button("Play the level  [Enter]", CampaignAct::Play));
        r.spawn(button("Spend CP", CampaignAct::Advance));
        if run.progress.roster.len() < run.checked.campaign.party_max {
            r.spawn(button("Recruit a hero", CampaignAct::Recruit));
        }
        r.spawn(button("Save and leave", Go(Screen::Menu)));
    });
}
