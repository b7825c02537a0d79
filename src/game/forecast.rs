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

/// What attacking one figure now would likely do.
#[derive(Clone, Debug, PartialEq)]
pub enum AttackOdds {
    /// Ruleset A4: the pool against the target number (`None`: out of reach, range or sight),
    /// the names of the damage bands, and whether the attack is allowed now.
    A4 { odds: Option<Odds>, bands: Vec<String>, legal: Result<(), Violation> },
    /// Each attack row of the profile the decider can make (its weapon, its rows).
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
        let cmd = Command::Round { actor: m.fighters[a].id.clone(), act: doo_rules::rules::a4::acts::RoundAct::Attack { target: m.fighters[t].id.clone() } };
        let bands = x.book.damage.bands.iter().map(|b| b.name.clone()).collect();
        return AttackOdds::A4 { odds: doo_rules::rules::a4::odds(m, a, t, 0), bands, legal: legal(&cmd) };
    }
    let rows = m.rules.actions.iter().filter(|r| matches!(r.effect, ActionEffect::Attack { .. }) && doo_rules::rules::preview::action_applies(m, a, &r.effect));
    let rows = rows
        .filter_map(|row| {
            let forecast = doo_rules::ai::forecast(m, a, t, &row.id)?;
            let cmd = Command::action(&m.fighters[a].id, &row.id, Some(&m.fighters[t].id));
            Some(RowOdds { name: row.name.clone(), forecast, legal: legal(&cmd) })
        })
        .collect();
    AttackOdds::Rows(rows)
}
