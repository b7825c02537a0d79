//! The card of the hovered (or deciding, or acting) figure: stats, HP, AP and AP_start, free
//! steps, posture, adjustments, conditions, and for an enemy of the one deciding the forecast of
//! each attack kind (odds from the AI's dice model; "not now" with the rules' refusal).

use super::HudSystems;
use crate::game::components::MatchState;
use crate::game::forecast::AttackOdds;
use crate::game::intent::PlayerView;
use crate::game::log::MatchLog;
use crate::window::board::HoveredSpace;
use bevy::prelude::*;
use doo_rules::rules::state::Match;

pub(super) fn plugin(app: &mut App) {
    app.add_systems(Update, refresh_card.in_set(HudSystems::Draw));
}

#[derive(Component)]
pub(super) struct CardText;

fn posture_text(p: doo_rules::rules::profile::Posture) -> &'static str {
    use doo_rules::rules::profile::Posture::*;
    match p {
        Standing => "standing",
        Sitting => "sitting",
        Kneeling => "kneeling",
        Prone => "prone",
    }
}

/// The card of a character: stats, HP, AP and AP_start, free steps, posture, adjustments and
/// conditions; for an enemy of the one deciding, the forecast of each attack kind.
pub fn card(m: &Match, i: usize, decider: Option<usize>, forecast: Option<&AttackOdds>) -> String {
    let f = &m.fighters[i];
    let mut s = format!("{} ({})\n", f.name, f.side);
    s += &format!("HP {}/{}", f.hp, f.max_hp);
    if f.max_mp > 0 {
        s += &format!("  MP {}/{}", f.mp, f.max_mp);
    }
    if f.max_fp > 0 {
        s += &format!("  FP {}/{}", f.fp, f.max_fp);
    }
    // What attacking it would do comes right under its name and HP, before the stats: the
    // consequence is what the player hovers for, and a small window (2x) cuts the card's foot.
    if let (Some(a), Some(odds)) = (decider.filter(|&a| a != i), forecast) {
        s += &format!("\nIf {} attacks now:\n", m.fighters[a].name);
        s += odds_text(odds).trim_end();
        s += "\n";
    }
    if let Some(x) = m.explore.as_deref().filter(|_| doo_rules::rules::explore::exploring(m)) {
        // Exploration Mode: no AP; what is left of this minute's action (R-EXP-3).
        let acted = match x.acted.get(i).copied().unwrap_or_default() {
            doo_rules::rules::explore::Acted::No if x.is_explorer(m, i) => format!("this minute: {} spaces or one task", x.book.move_spaces),
            doo_rules::rules::explore::Acted::Moving(u) => format!("this minute: {} spaces left", x.book.move_spaces.saturating_sub(u)),
            doo_rules::rules::explore::Acted::Done => "this minute: done".into(),
            _ => "inactive".into(),
        };
        s += &format!("\n{acted}  |  {}\n", posture_text(f.posture));
    } else if m.a4.is_some() {
        // A4-2.1: the slots left this round, the five-foot step, the attack of opportunity.
        let r = doo_rules::rules::a4::st(m, i);
        let slot = |used: bool, name: &str| if used { format!("{name} used") } else { format!("{name} ready") };
        s += &format!(
            "\nInitiative {}  |  {}  |  speed {}\n{}, {}, {}; step {}; AoO {}\n",
            r.initiative,
            posture_text(f.posture),
            doo_rules::rules::a4::speed(m, i),
            slot(r.standard, "standard"),
            slot(r.move_, "move"),
            slot(r.minor, "minor"),
            if r.stepped || r.moved { "no" } else { "yes" },
            if r.aoo > 0 { "used" } else { "ready" },
        );
        let mut flags = Vec::new();
        if r.flat_footed {
            flags.push("flat-footed".to_string());
        }
        if r.surprised {
            flags.push("surprised".into());
        }
        if let Some(fd) = r.full_defense {
            flags.push(format!("full defense +{fd} TN"));
        }
        if r.charged {
            flags.push("charged: attacks on it -5 TN".into());
        }
        if let Some(md) = r.moving_defense {
            flags.push(format!("moving defense +{md} TN against shots"));
        }
        if let Some(t) = r.hold {
            flags.push(format!("holding for {}", t.describe()));
        }
        if r.sheathed {
            flags.push("weapon sheathed".into());
        }
        let pen = doo_rules::rules::a4::penalty_dice(m, i);
        if pen > 0 {
            flags.push(format!("-{pen}D on its rolls"));
        }
        if !flags.is_empty() {
            s += &format!("{}\n", flags.join(", "));
        }
    } else {
        s += &format!("\nAP {} (AP_start {})  |  {}\n", f.ap.current, f.ap.start, posture_text(f.posture));
        // R-FS-*: as the rules see them now (kept after a Step for a later opportunity, R-FS-6).
        use doo_rules::rules::free_steps::{FreeStepsNow, status};
        s += &match status(m, i) {
            FreeStepsNow::Usable(n) => format!("Free steps: {n} available (green)\n"),
            FreeStepsNow::Held(n, v) => format!("Free steps: {n} kept, not now: {} ({})\n", v.reason, v.rule),
            FreeStepsNow::Gone(v) => format!("Free steps: none ({}: {})\n", v.rule, v.reason),
        };
    }
    s += &format!("Brawn d{}  Finesse d{}  Savvy d{}  Nerve d{}\n", f.stats.brawn, f.stats.finesse, f.stats.savvy, f.stats.nerve);
    let w = m.equipment.wielded(f);
    let weapon = match &w {
        doo_rules::rules::equipment::Wielded::Unarmed => "unarmed".to_string(),
        doo_rules::rules::equipment::Wielded::Melee(x, _) => x.name.clone(),
        doo_rules::rules::equipment::Wielded::Ranged(x) => x.name.clone(),
    };
    s += &format!("Weapon: {weapon}\n");
    if !f.loadout.items.is_empty() {
        let names: Vec<String> = f
            .loadout
            .items
            .iter()
            .map(|i| m.explore.as_deref().map_or_else(|| i.replace('_', " "), |x| doo_rules::rules::explore::item_name(m, x, i)))
            .collect();
        s += &format!("Carries: {}\n", names.join(", "));
    }
    if !f.adjustments.is_empty() {
        let a: Vec<String> = f.adjustments.iter().map(|a| format!("{:?} {:+} ({})", a.target, a.value, a.source.replace('_', " "))).collect();
        s += &format!("Adjustments: {}\n", a.join(", "));
    }
    if !f.conditions.is_empty() {
        let c: Vec<String> = f.conditions.iter().map(|c| c.id.replace('_', " ")).collect();
        s += &format!("Conditions: {}\n", c.join(", "));
    }
    s
}

/// One A4 attack kind's lines: pool, TN and chance (and with a reactive defence), bands and
/// average damage, or why it cannot reach; "not now" with the rule.
fn a4_row_text(r: &crate::game::forecast::A4Row, bands: &[String]) -> String {
    let mut s = String::new();
    let Some(o) = &r.odds else {
        // The rules' own reason when they give one (a charge too close to run).
        return match &r.legal {
            Err(v) => format!("  {}: not now: {} ({})\n", r.name, v.reason, v.rule),
            Ok(()) => format!("  {}: out of reach, range or sight\n", r.name),
        };
    };
    let each = if r.attacks > 1 { " each" } else { "" };
    s += &format!("  {}: {} vs TN {}: {:.0}% to hit{each}", r.name, o.pool, o.tn, o.hit * 100.0);
    if let Some((d, h)) = &o.hit_defended {
        s += &format!(" ({:.0}% if it defends with {d})", h * 100.0);
    }
    let bands: Vec<String> = bands.iter().zip(o.bands.iter().skip(1)).map(|(n, p)| format!("{n} {:.0}%", p * 100.0)).collect();
    s += &format!("\n    {}; avg damage {:.1}{each}\n", bands.join(", "), o.expected_damage);
    if let Err(v) = &r.legal {
        s += &format!("    not now: {} ({})\n", v.reason, v.rule);
    }
    s
}

/// The lines of an attack forecast the view worked out.
fn odds_text(odds: &AttackOdds) -> String {
    let mut s = String::new();
    match odds {
        // A4-6.2, A4-6.6: the exact odds of the d6 pool against the TN, for each attack kind.
        AttackOdds::A4 { rows, bands, strays } => {
            for r in rows {
                s += &a4_row_text(r, bands);
            }
            // A4-7.1: a shot into melee that goes astray, and whom it may strike.
            if !strays.is_empty() {
                let who: Vec<String> = strays.iter().map(|(n, ally, p)| format!("{n}{} {:.0}%", if *ally { " (ally!)" } else { "" }, p * 100.0)).collect();
                s += &format!("  A miss may go astray (A4-7.1) and strike: {}\n", who.join(", "));
            }
        }
        AttackOdds::Rows(rows) => {
            // One refusal shared by every kind (out of reach, say) is said once, under the odds.
            let shared = rows.first().and_then(|r| r.legal.as_ref().err()).filter(|v| rows.iter().all(|r| r.legal.as_ref().err() == Some(*v)));
            if let Some(v) = shared {
                let odds: Vec<String> = rows.iter().map(|r| format!("{} {:.0}%", r.name, r.forecast.hit * 100.0)).collect();
                s += &format!("  to hit: {}\n  Not now: {} ({})\n", odds.join(", "), v.reason, v.rule);
                return s;
            }
            for r in rows {
                let fc = &r.forecast;
                match &r.legal {
                    Ok(()) => {
                        s += &format!(
                            "  {}: {:.0}% to hit, {}-{}{} damage (avg {:.1})\n",
                            r.name,
                            fc.hit * 100.0,
                            fc.min,
                            fc.max,
                            if fc.explodes { "+" } else { "" },
                            fc.expected
                        );
                    }
                    Err(v) => s += &format!("  {}: {:.0}% to hit - not now: {} ({})\n", r.name, fc.hit * 100.0, v.reason, v.rule),
                }
            }
        }
    }
    s
}

fn refresh_card(
    view: Res<PlayerView>,
    hovered: Res<HoveredSpace>,
    state: Option<Res<MatchState>>,
    log: Res<MatchLog>,
    mut text: Query<&mut Text, With<CardText>>,
    mut last: Local<(usize, Option<doo_rules::rules::Pos>, Option<String>)>,
    fog: Res<crate::window::board::Fog>,
) {
    let stamp = (log.len(), hovered.0, view.decider.clone());
    if *last == stamp && !view.is_changed() && !fog.is_changed() {
        return;
    }
    *last = stamp;
    let Some(state) = state else { return };
    let m = &state.0;
    let decider = view.decider.as_deref().and_then(|d| m.index(d));
    // Fog of war (R-EXP-19): a figure the viewing side does not see has no card.
    let who = hovered.0.and_then(|p| m.occupant(p)).filter(|&i| fog.shows(i)).or(decider).or(m.clock.current.filter(|&i| fog.shows(i)));
    let s = who.map(|i| card(m, i, decider, view.forecasts.get(&i))).unwrap_or_else(|| "Hover a figure to see its card.".into());
    if let Ok(mut t) = text.single_mut() {
        if t.0 != s {
            t.0 = s;
        }
    }
}
