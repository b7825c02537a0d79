//! The result after a campaign's level: won or lost, the CP each hero earned and why (rule by
//! rule), the fallen, the rest; then spend CP or go on (the same level again after a loss,
//! R-CP-13). The level's match ends here: the rules' campaign step (`campaign::finish_level`).

use super::{CampaignAct, CampaignRun, CampaignSystems, Stage, roster_panel, row, save_progress};
use crate::window::GameData;
use crate::window::screens::{Go, Screen};
use crate::window::theme::prelude::*;
use bevy::prelude::*;
use doo_rules::campaign;
use std::collections::BTreeMap;

pub(super) fn plugin(app: &mut App) {
    app.add_button_action::<BackToCampaign>().add_systems(Update, back_to_campaign.in_set(CampaignSystems::Answer));
}

/// Back to the campaign from the result of one of its levels (the match's result overlay, or
/// Enter there): this screen, once the rules' campaign step is done.
#[derive(Component, Message, Clone, Copy, Debug, PartialEq, Eq)]
pub struct BackToCampaign;

fn back_to_campaign(mut acts: MessageReader<BackToCampaign>, mut run: Option<ResMut<CampaignRun>>, mut commands: Commands) {
    for _ in acts.read() {
        let Some(run) = run.as_deref_mut() else { continue };
        run.message = None;
        commands.queue(level_done);
    }
}

/// The level's match is over: the rules' campaign step (CP, carry-over, rest), then the result.
fn level_done(world: &mut World) {
    let data = world.resource::<GameData>().0.clone();
    let Some(mut run) = world.get_resource::<CampaignRun>().cloned() else { return };
    let Some(state) = world.get_resource::<crate::game::components::MatchState>().map(|s| s.0.clone()) else { return };
    let Some(outcome) = world.resource::<crate::game::log::MatchOutcome>().0.clone() else { return };
    if !run.progress.playing {
        return;
    }
    let events: Vec<doo_rules::rules::Event> = world
        .resource::<crate::game::log::MatchLog>()
        .entries()
        .iter()
        .filter_map(|e| if let doo_rules::replay::LogEntry::Event { event, .. } = e { Some(event.clone()) } else { None })
        .collect();
    let won = outcome.winner.as_deref() == Some(run.checked.campaign.party_side.as_str());
    let report = campaign::finish_level(&run.checked, &mut run.progress, &state, &events, won, &data);
    run.report = Some(report);
    run.stage = Stage::Result;
    run.player = 0;
    run.shown = 0;
    run.message = None;
    save_progress(&run);
    world.insert_resource(run);
    world.resource_mut::<NextState<Screen>>().set(Screen::Campaign);
}

pub(super) fn draw_result(p: &mut ChildSpawnerCommands, run: &CampaignRun, data: &doo_rules::data::RuleData) {
    if let Some(rep) = &run.report {
        let r = &rep.record;
        let name = run.checked.load_level(&r.level, data).map(|l| l.level.name.clone()).unwrap_or_else(|_| r.level.clone());
        p.spawn(text(if r.won { format!("{name}: won") } else { format!("{name}: lost") }, 26.0, if r.won { palette::GOOD } else { palette::BAD }));
        let mut by: BTreeMap<&str, Vec<String>> = BTreeMap::new();
        for l in &r.cp {
            by.entry(l.hero.as_str()).or_default().push(format!("+{} {} ({})", l.cp, l.why, l.rule));
        }
        p.spawn(panel(Node { flex_direction: FlexDirection::Column, padding: UiRect::all(Val::Px(10.0)), max_width: Val::Px(1100.0), ..default() }))
            .with_children(|l| {
                l.spawn(text("Character points earned", 18.0, palette::GOLD));
                for h in &rep.after_level {
                    let lines = by.get(h.id().as_str()).cloned().unwrap_or_default();
                    let total: u32 = r.cp.iter().filter(|x| x.hero == h.id()).map(|x| x.cp).sum();
                    l.spawn(text(format!("{}: {total} CP", h.name), 16.0, palette::TEXT));
                    if !lines.is_empty() {
                        l.spawn(text(format!("    {}", lines.join("; ")), 13.0, palette::DIM));
                    }
                }
                // the rules' sentences (doo_rules::campaign::told): how each hero fell, who sits out;
                // set off from the CP lines above, and the rest below, by a gap
                l.spawn(Node { height: Val::Px(8.0), ..default() });
                for line in rep.told.falls.iter().chain(&rep.told.sitting_out) {
                    l.spawn((text(line.clone(), 15.0, palette::BAD), Node { max_width: Val::Px(1080.0), ..default() }));
                }
                l.spawn(Node { height: Val::Px(8.0), ..default() });
                for line in &r.rest {
                    l.spawn(text(line.clone(), 13.0, palette::DIM));
                }
                if !rep.told.rest.is_empty() {
                    l.spawn((text(rep.told.rest.clone(), 13.0, palette::TEXT), Node { max_width: Val::Px(1080.0), ..default() }));
                }
            });
    }
    if run.progress.level.is_none() && run.is_delve() {
        // The run summary beside the party, the way out beside the title: a delve's end fits
        // under the last floor's report.
        let end = if run.progress.won { "The delve is won: the last floor's boss is down!" } else { "The delve is over." };
        row(p, |r| {
            r.spawn(text(end, 28.0, palette::GOLD));
            r.spawn(button("Main menu", Go(Screen::Menu)));
        });
        p.spawn(Node { flex_direction: FlexDirection::Row, column_gap: Val::Px(10.0), align_items: AlignItems::FlexStart, ..default() }).with_children(|r| {
            r.spawn(panel(Node {
                flex_direction: FlexDirection::Column,
                padding: UiRect::all(Val::Px(10.0)),
                row_gap: Val::Px(2.0),
                max_width: Val::Px(380.0),
                ..default()
            }))
            .with_children(|l| {
                l.spawn(text("The run", 18.0, palette::GOLD));
                for line in doo_rules::delve::summary(&run.progress, run.checked.campaign.levels.len()) {
                    l.spawn(text(line, 15.0, palette::TEXT));
                }
                l.spawn(text(format!("{}: play it again, or give friends its seed (Delve on the main menu).", run.checked.campaign.name), 13.0, palette::DIM));
            });
            roster_panel(r, run, data);
        });
        return;
    }
    if run.progress.level.is_none() {
        p.spawn(text(if run.progress.won { "The campaign is won!" } else { "The campaign is over." }, 28.0, palette::GOLD));
        roster_panel(p, run, data);
        p.spawn(button("Main menu", Go(Screen::Menu)));
        return;
    }
    let (spend, next) = result_buttons(run, data);
    if !spend {
        p.spawn(text("No CP banked to spend (R-CP-11): go on to the briefing.", 15.0, palette::DIM));
    }
    // a hero sitting the next level out points here (R-CP-14), when the party has room
    let recruit = run.report.as_ref().is_some_and(|rep| !rep.told.sitting_out.is_empty()) && run.progress.roster.len() < run.checked.campaign.party_max;
    row(p, |r| {
        if spend {
            r.spawn(button("Spend CP  [Enter]", CampaignAct::Advance));
            r.spawn(button(next, CampaignAct::Briefing));
        } else {
            r.spawn(button(format!("{next}  [Enter]"), CampaignAct::Briefing));
        }
        if recruit {
            r.spawn(button("Recruit a hero", super::briefing::BriefingAct::Recruit));
        }
    });
}

/// The result screen's choices, as the rules see the campaign: whether any hero has banked CP
/// to spend (R-CP-11; hot-seat players then take turns), and what going on means: the same level again after a
/// loss (R-CP-13), else the next one.
pub(super) fn result_buttons(run: &CampaignRun, data: &doo_rules::data::RuleData) -> (bool, String) {
    let all: Vec<usize> = (0..run.progress.roster.len()).collect();
    let spend = run.progress.banked_cp(&data.heroes, &all) > 0;
    let again = run.report.as_ref().is_some_and(|rep| run.progress.plays_again(&rep.record));
    let next = match (&run.report, &run.progress.level) {
        _ if again => "Play the level again".to_string(),
        (Some(rep), Some(id)) if !rep.record.won => {
            format!("On to {}", run.checked.load_level(id, data).map(|l| l.level.name.clone()).unwrap_or_else(|_| id.clone()))
        }
        _ => "Next level".to_string(),
    };
    (spend, next)
}
