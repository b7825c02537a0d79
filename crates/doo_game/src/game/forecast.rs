//! What an attack would likely do, worked out with the view (`PlayerView::forecasts`): for the
//! human who decides now, against each enemy, each attack kind's odds (the dice model the
//! resolution uses: `ai::forecast`, or A4's exact pool odds, A4-6.2/A4-6.6) and whether the
//! rules allow it now (`engine::validate`). The card only shows this; it asks neither the
//! judge nor the AI.

use doo_rules::ai::Forecast;
use doo_rules::rules::a4::Odds;
use doo_rules::rules::profile::ActionEffect;
use doo_rules::rules::{Command, Match, Violation};
use std::collections::BTreeMap;

/// One attack kind of the decider's on one figure.
#[derive(Clone, Debug, PartialEq)]
pub struct RowOdds {
    pub name: String,
    pub forecast: Forecast,
    /// `Err`: not now, and the rules' reason.
    pub legal: Result<(), Violation>,
}

/// One attack kind of the decider's under A4 (attack, full attack, charge) on one figure.
#[derive(Clone, Debug, PartialEq)]
pub struct A4Row {
    pub name: String,
    /// The pool against the TN (`None`: out of reach, range or sight for this kind).
    pub odds: Option<Odds>,
    /// How many attacks it makes (a full attack makes several, each with these odds).
    pub attacks: u32,
    /// `Err`: not now, and the rules' reason.
    pub legal: Result<(), Violation>,
}

/// What attacking one figure now would likely do.
#[derive(Clone, Debug, PartialEq)]
pub enum AttackOdds {
    /// Ruleset A4: each attack kind (A4-3.1 attack, A4-3.14 full attack, A4-3.2 charge) with the
    /// pool against the target number, and the names of the damage bands; a shot into melee
    /// carries who a stray may strike (`Odds::stray`, A4-7.1), named with `allies` of the decider.
    A4 { rows: Vec<A4Row>, bands: Vec<String>, strays: Vec<(String, bool, f64)> },
    /// Each attack row of the profile the decider can make (its weapon, its rows), then each
    /// spell it knows that is aimed at a foe (R-MANA-4).
    Rows(Vec<RowOdds>),
}

/// The forecasts of `a` against every enemy figure, by figure index.
pub fn for_decider(m: &Match, a: usize) -> BTreeMap<usize, AttackOdds> {
    (0..m.fighters.len()).filter(|&i| i != a && m.enemies(a, i)).map(|i| (i, attack_odds(m, a, i))).collect()
}

/// What `a` attacking `t` now would likely do.
pub fn attack_odds(m: &Match, a: usize, t: usize) -> AttackOdds {
    let legal = |cmd: &Command| doo_rules::rules::engine::validate(m, cmd).map(|_| ());
    if let Some(x) = m.a4.as_deref() {
        return a4_odds(m, x, a, t, &legal);
    }
    let rows = m.rules.actions.iter().filter(|r| matches!(r.effect, ActionEffect::Attack { .. }) && doo_rules::rules::preview::action_applies(m, a, &r.effect));
    let mut rows: Vec<RowOdds> = rows
        .filter_map(|row| {
            let forecast = doo_rules::ai::forecast(m, a, t, &row.id)?;
            let cmd = Command::action(&m.fighters[a].id, &row.id, Some(&m.fighters[t].id));
            Some(RowOdds { name: row.name.clone(), forecast, legal: legal(&cmd) })
        })
        .collect();
    // R-MANA-4, G-26: each spell it knows that is cast at a foe (a bolt, a condition).
    if let Some(row) = m.rules.actions.iter().find(|r| matches!(r.effect, ActionEffect::CastSpell)) {
        for s in &m.fighters[a].spells {
            let Some(forecast) = doo_rules::ai::spell_forecast(m, a, t, s) else { continue };
            let mut cmd = Command::action(&m.fighters[a].id, &row.id, Some(&m.fighters[t].id));
            if let Command::Action { spell, .. } = &mut cmd {
                *spell = Some(s.clone());
            }
            let name = m.spells.get(s).map_or(s.clone(), |x| x.name.clone());
            rows.push(RowOdds { name: format!("Cast {name}"), forecast, legal: legal(&cmd) });
        }
    }
    AttackOdds::Rows(rows)
}

/// A4: the attack, the full attack and the charge at `t`, each with its odds and legality.
fn a4_odds(m: &Match, x: &doo_rules::rules::a4::A4, a: usize, t: usize, legal: &dyn Fn(&Command) -> Result<(), Violation>) -> AttackOdds {
    use doo_rules::rules::a4::{self, acts::RoundAct};
    let round = |act: RoundAct| Command::Round { actor: m.fighters[a].id.clone(), act };
    let tid = m.fighters[t].id.clone();
    let bands = x.book.damage.bands.iter().map(|b| b.name.clone()).collect();
    let plain = a4::odds(m, a, t, 0);
    let strays = plain.iter().flat_map(|o| o.stray.iter()).map(|&(s, p)| (m.fighters[s].name.clone(), s != a && !m.enemies(a, s), p)).collect();
    let mut rows = vec![A4Row { name: "Attack".into(), odds: plain, attacks: 1, legal: legal(&round(RoundAct::Attack { target: tid.clone() })) }];
    let melee = m.equipment.wielded(&m.fighters[a]).is_melee();
    let crossbow = matches!(m.equipment.wielded(&m.fighters[a]), doo_rules::rules::equipment::Wielded::Ranged(r) if r.hand_reload_brawn.is_some());
    if !crossbow {
        let n = a4::stats::full_attack_row(m, x, a).attacks;
        let o = a4::full_attack_odds(m, a, t).map(|(_, o)| o);
        let legal = legal(&round(RoundAct::FullAttack { targets: vec![tid.clone()] }));
        rows.push(A4Row { name: format!("Full attack x{n}"), odds: o, attacks: n, legal });
    }
    if melee {
        let legal = legal(&round(RoundAct::Charge { target: tid, path: Vec::new() }));
        rows.push(A4Row { name: "Charge".into(), odds: a4::charge_odds(m, a, t), attacks: 1, legal });
    }
    AttackOdds::A4 { rows, bands, strays }
}
