//! What a player may do now, worked out by the rules themselves: every reachable space with its
//! price, every action, movement and reaction with its cost, the figures or spaces it can be
//! aimed at, or the rule that forbids it. Each offer is a `Command` the rules accepted, so a
//! preview always matches what happens when it is chosen. The offers are data (`offer`); each
//! question goes to the ruleset of the mode (`ruleset`: `doo::preview`, `doo::bar`,
//! `a4::preview`, `explore::preview`).

pub use super::doo::preview::action_applies;
pub use super::offer::{Aim, Choice, Destination, Group, MoveKind, ReactionChoice, entry};
pub use super::ruleset::{choices, destinations, reaction_choices, why_not_move};

#[cfg(test)]
mod bar_tests {
    use super::*;
    use crate::testkit::duel;

    const ORC: &str =
        r#"(id: "orc", side: "monsters", pos: (4, 0), stats: (brawn: 8, finesse: 6, savvy: 4, nerve: 6), skills: {"maces": apprentice}, weapon: Some("mace"))"#;

    fn entries(hero: &str) -> Vec<Choice> {
        let g = duel(None, 8, &[hero, ORC], r#"(characters: {"h": (ap: 3), "orc": (ap: 1)})"#, &[1, 1, 1, 1]);
        let a = g.m.index("h").unwrap();
        choices(&g.m, a)
    }

    fn row<'a>(c: &'a [Choice], id: &str) -> Vec<&'a Choice> {
        c.iter().filter(|c| c.row == id).collect()
    }

    // R-ACT-1 (the action table), R-ACT-3 (ranged-only attacks), R-RNG-8 (crossbow resets),
    // G-26 (spells), R-MOVE-1 (Climb between levels): entries a figure can never use are marked
    // so the bar hides them; the others stay, greyed with their rule when only "not now".
    #[test]
    fn entries_a_figure_can_never_use_are_marked_and_the_rest_grouped() {
        let axe = r#"(id: "h", side: "heroes", pos: (0, 0), stats: (brawn: 9, finesse: 7, savvy: 5, nerve: 6), skills: {"axes": journeyman}, weapon: Some("broad_axe"))"#;
        let c = entries(axe);
        for id in ["snapshot", "aimed_shot", "shield_block", "cast_spell", "reset_crossbow", "use_item", "climb"] {
            for e in row(&c, id) {
                assert!(!e.applies, "{id} cannot apply to an axeman with no shield, spells, items or stairs: {e:?}");
            }
        }
        let attack = row(&c, "attack");
        assert!(attack.iter().all(|e| e.applies && e.group == Group::Attack), "{attack:?}");
        for e in row(&c, "drop") {
            assert!(e.applies && e.group == Group::Move, "{e:?}");
        }
        // Rise applies (he may be knocked down) but is refused while he stands: shown greyed.
        let rise = row(&c, "rise");
        assert!(!rise.is_empty() && rise.iter().all(|e| e.applies && e.refusal.as_ref().is_some_and(|v| v.rule == "R-POS-2")), "{rise:?}");

        let archer = r#"(id: "h", side: "heroes", pos: (0, 0), stats: (brawn: 8, finesse: 8, savvy: 5, nerve: 5), skills: {"crossbows": apprentice}, weapon: Some("crossbow"), items: ["potion_of_healing"])"#;
        let c = entries(archer);
        for id in ["snapshot", "reset_crossbow", "use_item"] {
            let r = row(&c, id);
            assert!(!r.is_empty() && r.iter().all(|e| e.applies), "{id} applies to a crossbowman with a potion: {r:?}");
        }
        assert!(row(&c, "use_item").iter().all(|e| e.group == Group::Other));
        let shield = r#"(id: "h", side: "heroes", pos: (0, 0), stats: (brawn: 9, finesse: 7, savvy: 5, nerve: 6), skills: {"swords": journeyman, "shields": journeyman}, weapon: Some("shortsword"), shield: Some("buckler"))"#;
        let block = row(&entries(shield), "shield_block").into_iter().cloned().collect::<Vec<_>>();
        assert!(!block.is_empty() && block.iter().all(|e| e.applies && e.group == Group::Defend), "{block:?}");
        // Reloading a loaded crossbow: applies, refused now with its rule.
        let c = entries(archer);
        let reset = row(&c, "reset_crossbow");
        assert!(reset.iter().all(|e| e.refusal.as_ref().is_some_and(|v| v.rule == "R-RNG-8")), "{reset:?}");
    }

    // Issue 43, R-ATK-2: the rules let an attack or a harmful spell strike anyone in reach, but
    // an ally is a warning on the choice, never one of its targets (Aimed Shot marked your own
    // heroes); a healing spell still aims at allies.
    #[test]
    fn allies_are_warnings_not_targets() {
        let archer = r#"(id: "h", side: "heroes", pos: (0, 0), stats: (brawn: 8, finesse: 8, savvy: 9, nerve: 8), skills: {"bows": journeyman}, weapon: Some("shortbow"), caster: both, spells: ["firebolt", "healing_word"])"#;
        let ally = r#"(id: "ally", side: "heroes", pos: (2, 0), stats: (brawn: 8, finesse: 6, savvy: 4, nerve: 6))"#;
        let g = duel(None, 8, &[archer, ally, ORC], r#"(characters: {"h": (ap: 3), "ally": (ap: 1), "orc": (ap: 1)})"#, &[1, 1, 1, 1, 1, 1]);
        let c = choices(&g.m, g.m.index("h").unwrap());
        let targets = |e: &Choice| match &e.aim {
            Aim::Figure(t) => t.clone(),
            _ => Vec::new(),
        };
        let shot = row(&c, "aimed_shot");
        assert!(!shot.is_empty());
        for e in shot.iter().chain(row(&c, "attack").iter()).chain(c.iter().filter(|e| e.label == "Cast Firebolt").collect::<Vec<_>>().iter()) {
            assert_eq!(targets(e), vec!["orc".to_string()], "{}: only the foe is a target", e.label);
            assert!(e.warn.iter().any(|(id, why)| id == "ally" && why.contains("on your side")), "{}: {:?}", e.label, e.warn);
        }
        let heal = c.iter().find(|e| e.label == "Cast Healing Word").expect("a healing spell");
        assert!(targets(heal).contains(&"h".to_string()) && heal.warn.is_empty(), "{heal:?}");
        // R-MANA-4, G-26: the card's odds of a bolt (a Savvy check against the orc's Defense
        // check, 1d6 less armor); a healing spell has no odds against a foe.
        let (h, o) = (g.m.index("h").unwrap(), g.m.index("orc").unwrap());
        let f = crate::ai::spell_forecast(&g.m, h, o, "firebolt").expect("a bolt has odds");
        assert!(f.hit > 0.0 && f.hit < 1.0 && (f.min, f.max) == (1, 6) && f.expected > 0.0, "{f:?}");
        assert!(crate::ai::spell_forecast(&g.m, h, o, "healing_word").is_none());
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::profile::{ActionEffect, WeaponUse};
    use crate::testkit::duel;

    #[test] // R-ACT-3: a figure keeps its one weapon, so attacks restricted to the other kind never apply (the card lists none of them)
    fn attacks_a_figure_can_never_make_do_not_apply() {
        let bow = r#"(id: "x", side: "heroes", pos: (0, 0), weapon: Some("crossbow"), skills: {"crossbows": apprentice}, stats: (brawn: 8, finesse: 8, savvy: 5, nerve: 5))"#;
        let axe = r#"(id: "y", side: "monsters", pos: (5, 0), stats: (brawn: 8, finesse: 6, savvy: 4, nerve: 6))"#;
        let g = duel(None, 8, &[bow, axe], r#"(characters: {"x": (ap: 4), "y": (ap: 1)})"#, &[]);
        let kinds = |a: usize| -> Vec<(WeaponUse, bool)> {
            g.m.rules
                .actions
                .iter()
                .filter_map(|r| match r.effect {
                    ActionEffect::Attack { weapon, .. } => Some((weapon, action_applies(&g.m, a, &r.effect))),
                    _ => None,
                })
                .collect()
        };
        let (x, y) = (g.m.index("x").unwrap(), g.m.index("y").unwrap());
        assert!(kinds(x).iter().any(|k| k.0 == WeaponUse::Melee), "the profile has melee-only attacks");
        for (w, applies) in kinds(x) {
            assert_eq!(applies, w != WeaponUse::Melee, "crossbow: {w:?}");
        }
        for (w, applies) in kinds(y) {
            assert_eq!(applies, w != WeaponUse::Ranged, "unarmed/melee: {w:?}");
        }
    }
}
