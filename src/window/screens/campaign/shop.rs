//! The shop, on the advancement screen: gear bought from a hero's purse (a weapon, shield or
//! armor replaces the one carried).

use super::{CampaignRun, CampaignSystems, row, save_progress, small, step};
use crate::window::GameData;
use crate::window::theme::prelude::*;
use bevy::prelude::*;
use doo_rules::campaign::{self, Hero};

pub(super) fn plugin(app: &mut App) {
    app.add_button_action::<ShopAct>().add_systems(Update, answer_shop.in_set(CampaignSystems::Answer));
}

/// What a shop button does: the item picker, and buying the item picked.
#[derive(Component, Message, Clone, Copy, Debug, PartialEq, Eq)]
pub enum ShopAct {
    PickGear(i32),
    BuyGear,
}

/// Everything the shop sells: weapons, shields, armor, items with a price.
fn shop(data: &doo_rules::data::RuleData) -> Vec<(String, String, u32)> {
    let eq = &data.equipment;
    let mut v: Vec<(String, String, u32)> = eq.melee.iter().map(|w| (w.id.clone(), w.name.clone(), w.cost)).collect();
    v.extend(eq.ranged.iter().map(|w| (w.id.clone(), w.name.clone(), w.cost)));
    v.extend(eq.shields.iter().map(|w| (w.id.clone(), w.name.clone(), w.cost)));
    v.extend(eq.armor.iter().map(|w| (w.id.clone(), w.name.clone(), w.cost)));
    v.extend(eq.items.iter().filter_map(|w| w.cost.map(|c| (w.id.clone(), w.name.clone(), c))));
    v
}

fn answer_shop(mut acts: MessageReader<ShopAct>, mut run: Option<ResMut<CampaignRun>>, data: Res<GameData>) {
    let data = &data.0;
    for act in acts.read() {
        let Some(run) = run.as_deref_mut() else { continue };
        run.message = None;
        match *act {
            ShopAct::PickGear(n) => run.gear_pick = step(run.gear_pick, n, shop(data).len()),
            ShopAct::BuyGear => {
                let k = run.shown;
                let Some((id, _, _)) = shop(data).get(run.gear_pick).cloned() else { continue };
                if !run.mine().contains(&k) {
                    continue;
                }
                if let Some(h) = run.progress.roster.get_mut(k) {
                    match campaign::buy_gear(h, &id, data) {
                        Ok(c) => run.message = Some((true, format!("{} buys a {} for ${c}.", h.name, id.replace('_', " ")))),
                        Err(e) => run.message = Some((false, e)),
                    }
                }
                save_progress(run);
            }
        }
    }
}

/// The shop's row under the hero's purse.
pub(super) fn gear_row(l: &mut ChildSpawnerCommands, run: &CampaignRun, h: &Hero, data: &doo_rules::data::RuleData) {
    l.spawn(text(format!("Gear from the purse (${}): a weapon, shield or armor replaces the one carried", h.purse), 16.0, palette::GOLD));
    row(l, |r| {
        let items = shop(data);
        if let Some((_, name, cost)) = items.get(run.gear_pick) {
            small(r, "<", ShopAct::PickGear(-1));
            let ok = *cost <= h.purse;
            let mut b = r.spawn(bar_button(format!("buy {name} (${cost})"), ShopAct::BuyGear, ok));
            if !ok {
                b.insert(Disabled);
            }
            small(r, ">", ShopAct::PickGear(1));
        }
        let gear = [h.weapon.clone(), h.shield.clone(), h.armor.clone()].into_iter().flatten().map(|g| g.replace('_', " ")).collect::<Vec<_>>();
        r.spawn(text(format!("  carries: {}", if gear.is_empty() { "no weapon".into() } else { gear.join(", ") }), 13.0, palette::DIM));
    });
}
