//! Tests: the shipped heroes and monsters can react (issue 43). In an ordinary game of the
//! shipped campaign and of Hold the Watchtower, a melee blow on one of them opens a reflex or a
//! response window (R-REACT-2, R-REACT-8): Parry needs Foreman rank with an axe, mace, sword,
//! spear or fencing weapon (R-REACT-5), Riposte a fencing weapon and Journeyman Fencing (R-REACT-9).

use super::{Progress, level_for, shipped};
use crate::data::RuleData;
use crate::rules::grid::Pos;
use crate::rules::profile::ReactionKind;
use crate::rules::reactions::options;
use crate::rules::state::{Match, PendingAttack};

/// The reflexes and responses `defender` may declare against a melee blow from `attacker`
/// standing next to him, with his AP full.
fn reactions(m: &Match, defender: &str, attacker: &str) -> (Vec<String>, Vec<String>) {
    let mut m = m.clone();
    let (d, a) = (m.index(defender).unwrap_or_else(|| panic!("{defender}")), m.index(attacker).unwrap_or_else(|| panic!("{attacker}")));
    let at = m.fighters[d].pos;
    m.fighters[a].pos = Pos { x: at.x + 1, ..at };
    m.fighters[d].ap.current = 3;
    let p = PendingAttack {
        attacker: a,
        defender: d,
        with: "attack".into(),
        melee: true,
        attack_adj: 0,
        damage_adj: 0,
        window: None,
        is_reaction: false,
        shield_doubled: false,
        damage_dealt: 0,
        critical: None,
        resumes: None,
    };
    (options(&m, d, &p, ReactionKind::Reflex), options(&m, d, &p, ReactionKind::Response))
}

fn campaign_level(level: &str) -> (RuleData, Match) {
    let (data, c) = shipped();
    let mut p = Progress::start(&c, c.heroes.clone(), vec![], 1);
    p.level = Some(level.into());
    p.begin_level();
    let text = level_for(&c, &p, level, &data).unwrap();
    let root = crate::level_file::project_root(&c.level_paths[level]);
    let m = crate::level_file::check("level.ron", &text, &data, &root).unwrap_or_else(|e| panic!("{e:?}")).build(&data).unwrap();
    (data, m)
}

#[test] // R-REACT-5, R-REACT-9 (issue 43): the shipped campaign's heroes, in its first level
// (ADV-2017) and its second (DOO-2017, the default): Lunk and Sister Ade may Parry a goblin's
// blow, Mira may Riposte; the Hobgoblin may Parry Lunk's
fn the_shipped_heroes_react_in_the_campaign() {
    for (level, goblin, hob) in [("road", "goblin_1", "hobgoblin"), ("vault", "guard_1", "keeper")] {
        let (_, m) = campaign_level(level);
        for hero in ["hero_lunk", "hero_sister_ade"] {
            let (reflexes, _) = reactions(&m, hero, goblin);
            assert!(reflexes.contains(&"parry".to_string()), "{level}: {hero} may Parry (R-REACT-5): {reflexes:?}");
        }
        let (_, responses) = reactions(&m, "hero_mira", goblin);
        assert!(responses.contains(&"riposte".to_string()), "{level}: Mira may Riposte (R-REACT-9): {responses:?}");
        let (reflexes, _) = reactions(&m, hob, "hero_lunk");
        assert!(reflexes.contains(&"parry".to_string()), "{level}: the Hobgoblin may Parry (R-REACT-5): {reflexes:?}");
    }
}

#[test] // R-REACT-5, R-REACT-9 (issue 43): Hold the Watchtower (DOO-2017): Lunk may Parry, Sera
// may Riposte
fn the_watchtower_heroes_react() {
    let data = RuleData::builtin();
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../levels/gauntlet.ron");
    let text = std::fs::read_to_string(&path).unwrap();
    let root = crate::level_file::project_root(&path);
    let m = crate::level_file::check("gauntlet.ron", &text, &data, &root).unwrap_or_else(|e| panic!("{e:?}")).build(&data).unwrap();
    let (reflexes, _) = reactions(&m, "lunk", "goblin_w1");
    assert!(reflexes.contains(&"parry".to_string()), "Lunk may Parry (R-REACT-5): {reflexes:?}");
    let (_, responses) = reactions(&m, "sera", "goblin_w1");
    assert!(responses.contains(&"riposte".to_string()), "Sera may Riposte (R-REACT-9): {responses:?}");
}
