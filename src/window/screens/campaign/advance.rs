//! Advancement between levels (R-CP-11): the hero shown and what his banked CP buy (stats,
//! skill ranks, sets, each with its price or the rule that forbids it), Spend for me, and
//! hot-seat turns (each player spends for his own heroes). The gear row is the shop (`shop.rs`).

use super::{CampaignAct, CampaignRun, CampaignSystems, row, save_progress, small, step};
use crate::window::GameData;
use crate::window::theme::prelude::*;
use bevy::prelude::*;
use doo_rules::campaign;
use doo_rules::rules::heroes::{self, Purchase, STATS};
use doo_rules::rules::profile::Rank;

pub(super) fn plugin(app: &mut App) {
    app.add_button_action::<AdvanceAct>().add_systems(Update, answer_advance.in_set(CampaignSystems::Answer));
}

/// What an advancement button does.
#[derive(Component, Message, Clone, Debug, PartialEq)]
pub enum AdvanceAct {
    /// The hero shown.
    ShowHero(usize),
    /// A purchase for him.
    Buy(Purchase),
    PickNewSkill(i32),
    PickNewSet(i32),
    SpendForMe,
    NextPlayer,
}

fn answer_advance(mut acts: MessageReader<AdvanceAct>, mut run: Option<ResMut<CampaignRun>>, data: Res<GameData>) {
    let data = &data.0;
    let book = &data.heroes;
    for act in acts.read() {
        let Some(run) = run.as_deref_mut() else { continue };
        run.message = None;
        match act.clone() {
            AdvanceAct::ShowHero(k) => run.shown = k,
            AdvanceAct::Buy(p) => {
                let k = run.shown;
                if !run.mine().contains(&k) {
                    continue;
                }
                if let Some(h) = run.progress.roster.get_mut(k) {
                    match campaign::spend(h, p.clone(), book) {
                        Ok(cost) => run.message = Some((true, format!("{}: {} for {cost} CP.", h.name, p.describe(book)))),
                        Err(v) => run.message = Some((false, format!("{} — {}", v.reason, v.rule))),
                    }
                }
                save_progress(run);
            }
            AdvanceAct::PickNewSkill(n) => run.new_skill = step(run.new_skill, n, book.skills.len()),
            AdvanceAct::PickNewSet(n) => run.new_set = step(run.new_set, n, book.sets.len()),
            AdvanceAct::SpendForMe => {
                let k = run.shown;
                if let Some(h) = run.progress.roster.get_mut(k) {
                    let b = campaign::auto_spend(h, data);
                    run.message = Some((
                        true,
                        if b.is_empty() {
                            "Nothing more is affordable.".into()
                        } else {
                            b.iter().map(|(p, c)| format!("{} ({c} CP)", p.describe(book))).collect::<Vec<_>>().join(", ")
                        },
                    ));
                }
                save_progress(run);
            }
            AdvanceAct::NextPlayer => {
                run.player = (run.player + 1) % run.progress.players.len().max(1);
                run.shown = run.mine().first().copied().unwrap_or(0);
            }
        }
    }
}

pub(super) fn draw_advance(p: &mut ChildSpawnerCommands, run: &CampaignRun, data: &doo_rules::data::RuleData) {
    let book = &data.heroes;
    let players = &run.progress.players;
    let mine = run.mine();
    if players.len() > 1 {
        p.spawn(text(format!("{} spends CP for his heroes (the others look away)", players.get(run.player).cloned().unwrap_or_default()), 18.0, palette::GOLD));
    }
    row(p, |r| {
        for &k in &mine {
            let h = &run.progress.roster[k];
            let mut b = r.spawn(button(h.name.clone(), AdvanceAct::ShowHero(k)));
            if k == run.shown {
                b.insert(Selected);
            }
        }
    });
    let Some(h) = run.progress.roster.get(run.shown).filter(|_| mine.contains(&run.shown)) else {
        row(p, |r| {
            r.spawn(button("Done", CampaignAct::Briefing));
        });
        return;
    };
    let Ok((sheet, banked)) = h.sheet(book) else { return };
    let (hp, mp, fp) = heroes::pools(&sheet.stats);
    p.spawn(text(
        format!("{}: {banked} CP banked, {} earned.  HP {hp}, MP {mp}, FP {fp}. CP are spent for good (R-CP-11).", h.name, h.cp_earned),
        18.0,
        palette::TEXT,
    ));
    let buy = |r: &mut ChildSpawnerCommands, label: String, pch: Purchase| {
        let price = book.price(&sheet, &pch);
        let (l, ok) = match &price {
            Ok(c) if *c <= banked => (format!("{label} ({c} CP)"), true),
            Ok(c) => (format!("{label} ({c} CP, R-CP-11)"), false),
            Err(v) => (format!("{label} ({})", v.rule), false),
        };
        let mut b = r.spawn(bar_button(l, AdvanceAct::Buy(pch), ok));
        if !ok {
            b.insert(Disabled);
        }
    };
    p.spawn(panel(Node {
        flex_direction: FlexDirection::Column,
        padding: UiRect::all(Val::Px(10.0)),
        row_gap: Val::Px(3.0),
        max_width: Val::Px(1150.0),
        ..default()
    }))
    .with_children(|l| {
        l.spawn(text("Stats (R-CP-4 upgrade costs)", 16.0, palette::GOLD));
        row(l, |r| {
            for s in STATS {
                buy(r, format!("{} {} -> {}", heroes::stat_name(s), heroes::stat_of(&sheet.stats, s), heroes::stat_of(&sheet.stats, s) + 1), Purchase::Stat(s));
            }
        });
        l.spawn(text("Skills: next rank (R-CP-5); owned sets rank up together (R-CP-8)", 16.0, palette::GOLD));
        row(l, |r| {
            for (k, _) in sheet.skills.iter().filter(|(_, r)| **r >= Rank::Apprentice) {
                buy(r, book.skill_step_label(&sheet, k), Purchase::Skill(k.clone()));
            }
        });
        row(l, |r| {
            let k = book.skills.keys().nth(run.new_skill).cloned().unwrap_or_default();
            small(r, "<", AdvanceAct::PickNewSkill(-1));
            buy(r, format!("new or next: {}", book.skill_step_label(&sheet, &k)), Purchase::Skill(k));
            small(r, ">", AdvanceAct::PickNewSkill(1));
            let set = &book.sets[run.new_set];
            small(r, "<", AdvanceAct::PickNewSet(-1));
            buy(r, format!("{} set", set.name), Purchase::Set(set.id.clone()));
            small(r, ">", AdvanceAct::PickNewSet(1));
        });
        super::shop::gear_row(l, run, h, data);
        let owned: Vec<String> = sheet.sets.iter().map(|s| book.set(s).map_or(s.clone(), |x| x.name.clone())).collect();
        l.spawn(text(format!("Sets owned: {}", if owned.is_empty() { "none".into() } else { owned.join(", ") }), 13.0, palette::DIM));
        if !h.bought.is_empty() {
            l.spawn(text(format!("Bought so far: {}", h.bought.iter().map(|b| b.describe(book)).collect::<Vec<_>>().join(", ")), 13.0, palette::DIM));
        }
    });
    row(p, |r| {
        r.spawn(button("Spend for me", AdvanceAct::SpendForMe));
        if players.len() > 1 {
            r.spawn(button("Next player", AdvanceAct::NextPlayer));
        }
        r.spawn(button("Done", CampaignAct::Briefing));
    });
}
