//! The briefing before each level: which level of how many, its story, the optional objectives
//! and what they are worth, the party; then play it, spend CP, recruit, or save and leave.

use super::{CampaignAct, CampaignRun, CampaignSystems, Stage, owner, roster_panel, row};
use crate::window::GameData;
use crate::window::screens::{Go, Screen};
use crate::window::session::MatchSetup;
use crate::window::theme::prelude::*;
use bevy::prelude::*;

pub(super) fn plugin(app: &mut App) {
    app.add_button_action::<BriefingAct>().add_systems(Update, answer_briefing.in_set(CampaignSystems::Answer));
}

/// What a briefing button does (the others spend CP or leave).
#[derive(Component, Message, Clone, Copy, Debug, PartialEq, Eq)]
pub enum BriefingAct {
    /// Play the level briefed.
    Play,
    /// Recruit new heroes into a party with room (R-CP-14).
    Recruit,
    /// The party played here, or by a remote player (the level is then hosted, issue 32).
    ToggleRemoteParty,
    /// The party's opponents played by the AI, by a second player here (hot-seat), or by a
    /// remote player, in turn.
    ToggleRemoteFoes,
}

fn answer_briefing(mut acts: MessageReader<BriefingAct>, mut run: Option<ResMut<CampaignRun>>, mut commands: Commands) {
    for act in acts.read() {
        let Some(run) = run.as_deref_mut() else { continue };
        run.message = None;
        match act {
            BriefingAct::Play => commands.queue(play_level),
            BriefingAct::Recruit => run.stage = Stage::Recruit,
            BriefingAct::ToggleRemoteParty => run.remote_party = !run.remote_party,
            BriefingAct::ToggleRemoteFoes => {
                (run.hotseat_foes, run.remote_foes) = match (run.hotseat_foes, run.remote_foes) {
                    (false, false) => (true, false),
                    (true, _) => (false, true),
                    (false, true) => (false, false),
                }
            }
        }
    }
}

/// Prepares the level to play and enters the match.
fn play_level(world: &mut World) {
    let data = world.resource::<GameData>().0.clone();
    let Some(mut run) = world.get_resource::<CampaignRun>().cloned() else { return };
    let dir = run.dir();
    let _ = doo_rules::data::make_dir(&dir);
    let (path, checked) = match doo_rules::campaign::prepare_level(&run.checked, &run.progress, &dir, &data) {
        Ok(x) => x,
        Err(e) => {
            run.message = Some((false, e));
            world.insert_resource(run);
            return;
        }
    };
    run.progress.begin_level();
    let players = run.progress.players.clone();
    let mut setup = MatchSetup::new(path, checked);
    for s in &mut setup.seats {
        if s.side == run.checked.campaign.party_side {
            s.ai = None;
            s.player = players.first().cloned().unwrap_or_else(|| "Player 1".into());
            s.remote = run.remote_party;
        } else {
            s.ai = (!run.remote_foes && !run.hotseat_foes).then_some(doo_rules::ai::Difficulty::Normal);
            s.remote = run.remote_foes;
            if run.hotseat_foes {
                // a player of his own, never one who owns heroes of the party
                s.player = format!("Player {}", players.len().max(1) + 1);
            }
        }
    }
    if players.len() > 1 {
        setup.owners = run.progress.roster.iter().map(|h| (h.id(), owner(h, &players))).collect();
    }
    setup.campaign = Some(Box::new(run.progress.clone()));
    world.insert_resource(setup);
    world.insert_resource(run);
    world.resource_mut::<NextState<Screen>>().set(Screen::Match);
}

pub(super) fn draw_briefing(p: &mut ChildSpawnerCommands, run: &CampaignRun, data: &doo_rules::data::RuleData) {
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
        r.spawn(button(if run.remote_party { "Party: a remote player" } else { "Party: played here" }, BriefingAct::ToggleRemoteParty));
        let foes = match (run.hotseat_foes, run.remote_foes) {
            (true, _) => "Opponents: a second player here (hot-seat)",
            (_, true) => "Opponents: a remote player",
            _ => "Opponents: the AI",
        };
        r.spawn(button(foes, BriefingAct::ToggleRemoteFoes));
    });
    if run.remote_party || run.remote_foes {
        p.spawn(text(
            format!(
                "Over the network: this computer hosts the level (port {}); the remote player joins with Join a network match and stays for the next levels.",
                crate::window::net::DEFAULT_PORT
            ),
            14.0,
            palette::DIM,
        ));
    }
    row(p, |r| {
        r.spawn(button("Play the level  [Enter]", BriefingAct::Play));
        r.spawn(button("Spend CP", CampaignAct::Advance));
        if run.progress.roster.len() < run.checked.campaign.party_max {
            r.spawn(button("Recruit a hero", BriefingAct::Recruit));
        }
        r.spawn(button("Save and leave", Go(Screen::Menu)));
    });
}
