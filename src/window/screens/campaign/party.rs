//! The party screen: the heroes on offer (ready-made, then saved ones, and those made in the
//! hero maker beside it), who is in the party, how many players share it (hot-seat: each owns his
//! heroes); then the campaign begins. Between levels the same screen recruits (R-CP-14).

use super::{CampaignAct, CampaignRun, CampaignSystems, Stage, hero_line, owner, row, save_progress, small};
use crate::window::screens::{Go, Screen};
use crate::window::theme::prelude::*;
use crate::window::{FreshSeeds, GameData};
use bevy::prelude::*;
use doo_rules::campaign::{self, Progress};

pub(super) fn plugin(app: &mut App) {
    app.add_button_action::<PartyAct>().add_systems(Update, answer_party.in_set(CampaignSystems::Answer));
}

/// What a party screen button does.
#[derive(Component, Message, Clone, Copy, Debug, PartialEq, Eq)]
pub enum PartyAct {
    /// Take a ready-made or saved hero into the party, or leave him out (recruiting: recruit him).
    ToggleHero(usize),
    /// The owner of party member k (next player).
    CycleOwner(usize),
    /// One player more or less.
    Players(i32),
    /// Begin the campaign with the party chosen.
    Begin,
}

fn answer_party(
    mut acts: MessageReader<PartyAct>,
    mut run: Option<ResMut<CampaignRun>>,
    data: Res<GameData>,
    delve: Option<Res<crate::window::screens::delve::DelveSetup>>,
    mut seeds: ResMut<FreshSeeds>,
) {
    for act in acts.read() {
        let Some(run) = run.as_deref_mut() else { continue };
        run.message = None;
        match *act {
            PartyAct::ToggleHero(k) if run.stage == Stage::Recruit => {
                let Some(h) = run.offered.get(k).cloned() else { continue };
                match campaign::recruit(&run.checked, &mut run.progress, h) {
                    Ok(()) => run.message = Some((true, "Recruited.".into())),
                    Err(v) => run.message = Some((false, format!("{} — {}", v.reason, v.rule))),
                }
                save_progress(run);
            }
            PartyAct::ToggleHero(k) => {
                if let Some(x) = run.chosen.get_mut(k) {
                    *x = !*x;
                }
            }
            PartyAct::CycleOwner(k) => {
                let players = run.progress.players.clone();
                if let Some(h) = run.offered.get_mut(k) {
                    let now = players.iter().position(|p| *p == owner(h, &players)).unwrap_or(0);
                    h.player = players[(now + 1) % players.len()].clone();
                }
            }
            PartyAct::Players(n) => {
                let p = &mut run.progress.players;
                if n > 0 && p.len() < 4 {
                    p.push(format!("Player {}", p.len() + 1));
                } else if n < 0 && p.len() > 1 {
                    p.pop();
                }
            }
            PartyAct::Begin => {
                // A delve's floors are built to the party that plays them (docs/delve.md).
                if let (true, Some(setup)) = (run.is_delve() && run.stage == Stage::Party, delve.as_deref())
                    && let Err(e) = crate::window::screens::delve::fit_to_party(run, setup, &data.0)
                {
                    run.message = Some((false, e));
                    continue;
                }
                begin(run, &data.0, seeds.draw())
            }
        }
    }
}

/// Begins the campaign with the party chosen, if the rules take it: its progress (its dice from
/// `seed`), the first level's file, the save.
fn begin(run: &mut CampaignRun, data: &doo_rules::data::RuleData, seed: u64) {
    let party = run.party();
    if let Err(e) = Progress::check_party(&run.checked, &party) {
        run.message = Some((false, e));
    } else {
        let players = run.progress.players.clone();
        run.progress = Progress::start(&run.checked, party, players, seed);
        run.stage = Stage::Briefing;
        let dir = run.dir();
        let _ = std::fs::remove_dir_all(&dir);
        let _ = doo_rules::data::make_dir(&dir);
        // the save needs a level file: the first level as it will be played
        if let Err(e) = doo_rules::campaign::prepare_level(&run.checked, &run.progress, &dir, data) {
            run.message = Some((false, e));
        }
        save_progress(run);
    }
}

pub(super) fn draw_party(p: &mut ChildSpawnerCommands, run: &CampaignRun, data: &doo_rules::data::RuleData) {
    let book = &data.heroes;
    let c = &run.checked.campaign;
    let allowance = c.allowance(book);
    p.spawn((text(c.story.clone(), 15.0, palette::TEXT), Node { max_width: Val::Px(1100.0), ..default() }));
    p.spawn(Node { flex_direction: FlexDirection::Row, column_gap: Val::Px(12.0), ..default() }).with_children(|cols| {
        cols.spawn(panel(Node {
            flex_direction: FlexDirection::Column,
            padding: UiRect::all(Val::Px(10.0)),
            width: Val::Px(520.0),
            row_gap: Val::Px(2.0),
            ..default()
        }))
        .with_children(|l| {
            let recruiting = run.stage == Stage::Recruit;
            if recruiting {
                l.spawn(text(
                    format!(
                        "Recruit (R-CP-14): {} of {} places taken; a recruit starts with the lowest CP earned in the party",
                        run.progress.roster.len(),
                        c.party_max
                    ),
                    18.0,
                    palette::GOLD,
                ));
            } else {
                l.spawn(text(format!("The party ({} to {} heroes) - click to take or leave", c.party_min, c.party_max), 18.0, palette::GOLD));
            }
            let players = &run.progress.players;
            for (k, h) in run.offered.iter().enumerate() {
                if recruiting && (run.progress.roster.iter().any(|r| r.id() == h.id()) || run.progress.history.iter().any(|r| r.fallen.contains(&h.name))) {
                    continue;
                }
                row(l, |r| {
                    let mut b = r.spawn(bar_button(hero_line(h, data), PartyAct::ToggleHero(k), true));
                    if run.chosen[k] {
                        b.insert(Selected);
                    }
                    if players.len() > 1 && run.chosen[k] {
                        small(r, format!("played by {}", owner(h, players)), PartyAct::CycleOwner(k));
                    }
                });
            }
            row(l, |r| {
                r.spawn(text(format!("Players: {} (hot-seat: each owns his heroes)", players.len()), 14.0, palette::DIM));
                small(r, "+", PartyAct::Players(1));
                small(r, "-", PartyAct::Players(-1));
            });
        });
        cols.spawn(panel(Node {
            flex_direction: FlexDirection::Column,
            padding: UiRect::all(Val::Px(10.0)),
            width: Val::Px(600.0),
            row_gap: Val::Px(3.0),
            ..default()
        }))
        .with_children(|m| super::maker::draw_maker(m, run, data, allowance));
    });
    row(p, |r| {
        if run.stage == Stage::Recruit {
            r.spawn(button("Done", CampaignAct::Briefing));
        } else {
            // a delve's party screen goes back to the Delve screen (its seed and choices kept)
            if run.is_delve() {
                r.spawn(button("Back  [Esc]", Go(Screen::Delve)));
                r.spawn(button("Begin the delve  [Enter]", PartyAct::Begin));
            } else {
                r.spawn(button("Back", Go(Screen::Menu)));
                r.spawn(button("Begin the campaign  [Enter]", PartyAct::Begin));
            }
        }
    });
}
