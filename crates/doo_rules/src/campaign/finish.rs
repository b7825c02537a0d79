//! The end of a campaign level (R-CP-9, R-CP-10, R-CP-12, R-CP-13): the CP earned, the
//! carry-over of the roster, the rest between levels, and where the campaign goes next.

use super::caps::{MAX_CP, MAX_ITEMS, MAX_PLAYS};
#[cfg(test)]
use super::file::ObjectiveDef;
use super::file::{CheckedCampaign, Objective};
use super::hero::Hero;
use super::progress::{LevelRecord, Progress};
use crate::data::RuleData;
use crate::rules::Dice;
use crate::rules::event::Event;
use crate::rules::fighter::Duration;
use crate::rules::heroes::{self, CpLine};
use crate::rules::state::Match;
use std::collections::{BTreeMap, BTreeSet};

/// What a level did to the party: CP lines, who fell, the rest, and where the campaign goes.
#[derive(Clone, Debug, PartialEq)]
pub struct LevelReport {
    pub record: LevelRecord,
    /// The roster at the end of the level, before the rest (HP, items, CP as the level left them).
    pub after_level: Vec<Hero>,
    /// HP each hero (by name) gained in the rest (R-CP-13).
    pub rest_gains: BTreeMap<String, i32>,
    /// What the result screen tells (issue 43, `told`): how each hero who went down fell, the
    /// dead included; who sits the next level out and what to do; what resting does.
    pub told: Told,
}

/// The result screen's sentences about the heroes (`told`): the window shows them as they are.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Told {
    /// How each hero who went to 0 HP or below fell: the blow, the bleeding, death.
    pub falls: Vec<String>,
    /// Each hero sitting the next level out: why, and "Recruit a hero" (R-CP-13, R-CP-14).
    pub sitting_out: Vec<String>,
    /// What the rest between levels does (R-CP-13); empty after a lost level (no rest).
    pub rest: String,
}

fn objective_met(o: &Objective, m: &Match, hero_ids: &BTreeSet<String>) -> bool {
    match o {
        Objective::Carry(item) => {
            m.fighters.iter().any(|f| hero_ids.contains(&f.id) && !m.is_dead(m.index(&f.id).unwrap_or(0)) && f.loadout.items.contains(item))
        }
        Objective::NoneFallen => m.fighters.iter().enumerate().all(|(i, f)| !hero_ids.contains(&f.id) || !m.is_dead(i)),
        Objective::Slay(id) => m.index(id).is_some_and(|i| m.is_dead(i)),
    }
}

/// R-CP-9, R-CP-10, R-CP-12, R-CP-13: ends the level in progress. `m` is the match as it ended,
/// `events` everything that happened in it, `won` whether the party's side won. The progress
/// moves to the next level (or the failure's), the roster carries over or is set back.
pub fn finish_level(c: &CheckedCampaign, progress: &mut Progress, m: &Match, events: &[Event], won: bool, data: &RuleData) -> LevelReport {
    finish_level_with(c, progress, m, events, won, data, &[])
}

/// `finish_level` with die faces forced first in the rest's recuperation checks (R-CP-13): what
/// a campaign script's `rest_dice` give (`doo campaign run`).
pub fn finish_level_with(
    c: &CheckedCampaign,
    progress: &mut Progress,
    m: &Match,
    events: &[Event],
    won: bool,
    data: &RuleData,
    rest_dice: &[u32],
) -> LevelReport {
    let book = &data.heroes;
    let id = progress.level.clone().unwrap_or_default();
    let side = &c.campaign.party_side;
    let foes = m.fighters.iter().filter(|f| &f.side != side && f.hp <= 0).count() as u32;
    let mut record = LevelRecord { level: id.clone(), won, cp: Vec::new(), fallen: Vec::new(), rest: Vec::new(), foes };
    let mut told = Told { falls: super::told::falls(m, events, &progress.roster, won), ..Told::default() };
    if !won {
        // R-CP-13: a lost level is played again (or where the campaign says) from the roster as
        // it stood at its start, keeping nothing of the lost attempt.
        progress.roster = progress.start_roster.clone();
        progress.level = Some(c.campaign.after_loss(&id));
        progress.playing = false;
        progress.sitting_out.clear();
        record.rest.push("The level was lost: the party plays on from where it stood at the level's start, keeping nothing of the attempt (R-CP-13).".into());
        at_play_cap(progress, &mut record);
        progress.history.push(record.clone());
        return LevelReport { record, after_level: progress.roster.clone(), rest_gains: BTreeMap::new(), told };
    }
    let in_level: BTreeSet<String> = progress.roster.iter().map(Hero::id).filter(|k| m.index(k).is_some()).collect();
    // R-CP-9: the CP the match told as they were earned (`Event::CpEarned`, the one flow); a
    // level file written before its heroes were marked (`m.heroes` empty) is read from its events.
    let mut cp: Vec<CpLine> = if m.heroes.is_empty() {
        let names: BTreeMap<String, String> = m.fighters.iter().map(|f| (f.id.clone(), f.name.clone())).collect();
        heroes::cp_from_events(events, &in_level, &names)
    } else {
        events.iter().filter_map(CpLine::of).filter(|l| in_level.contains(&l.hero)).collect()
    };
    let lvl = c.campaign.level(&id);
    for hid in &in_level {
        let i = m.index(hid).expect("in level");
        if m.is_dead(i) {
            continue;
        }
        let mut award = |n: u32, why: String| cp.push(CpLine { hero: hid.clone(), cp: n, rule: "R-CP-10".into(), why });
        award(book.win_cp, "the level won".into());
        for o in lvl.map(|l| l.objectives.as_slice()).unwrap_or(&[]) {
            if objective_met(&o.goal, m, &in_level) {
                award(o.cp.unwrap_or(book.objective_cp), format!("objective: {}", o.name));
            }
        }
        if lvl.is_some_and(|l| l.major) {
            award(book.major_cp, "a major level".into());
        }
    }
    // R-CP-1: a hero keeps at most MAX_CP earned in all; the lines past it are cut to what is
    // kept (the result lists what he keeps) and a line says what was not.
    let mut room: BTreeMap<String, u32> = progress.roster.iter().map(|h| (h.id(), MAX_CP.saturating_sub(h.cp_earned))).collect();
    let mut lost: BTreeMap<String, u64> = BTreeMap::new();
    for l in cp.iter_mut() {
        let r = room.entry(l.hero.clone()).or_insert(MAX_CP);
        let kept = l.cp.min(*r);
        if kept < l.cp {
            *lost.entry(l.hero.clone()).or_default() += (l.cp - kept) as u64;
        }
        *r -= kept;
        l.cp = kept;
    }
    cp.retain(|l| l.cp > 0);
    for (hid, n) in &lost {
        let name = progress.roster.iter().find(|h| &h.id() == hid).map_or(hid.clone(), |h| h.name.clone());
        record.rest.push(format!("{name} has earned the most CP a hero keeps ({MAX_CP}): {n} CP more are not kept (R-CP-1)."));
    }
    // R-CP-12: carry-over.
    let mut roster = Vec::new();
    for h in &progress.roster {
        let mut h = h.clone();
        let hid = h.id();
        let earned: u32 = cp.iter().filter(|l| l.hero == hid).fold(0u32, |n, l| n.saturating_add(l.cp));
        h.cp_earned = h.cp_earned.saturating_add(earned).min(MAX_CP);
        if let Some(i) = m.index(&hid) {
            let f = &m.fighters[i];
            if m.is_dead(i) {
                record.fallen.push(h.name.clone());
                continue;
            }
            h.hp = (f.hp < f.max_hp).then_some(f.hp);
            // Choice: a weapon dropped in the fight (G-19) is picked up once the level is won;
            // one that broke is gone.
            h.weapon = f.loadout.weapon.clone().or_else(|| f.loadout.dropped.first().map(|d| d.0.clone()));
            h.weapon_skill = f.loadout.weapon_skill.clone();
            h.shield = f.loadout.shield.clone();
            h.armor = f.loadout.armor.clone();
            let keys: BTreeSet<&str> = m.explore.as_deref().map(|x| x.keys.keys().map(String::as_str).collect()).unwrap_or_default();
            let mut items: Vec<String> = f.loadout.items.iter().filter(|i| !keys.contains(i.as_str())).cloned().collect();
            // Choice: a hero whose hands are empty but who carries a weapon (he dropped his in a
            // crawl, R-EXP-15, and took it up again as an item) wields it at the next level: he is
            // not sent on unarmed with his sword in his pack.
            if h.weapon.is_none() {
                let eq = &data.equipment;
                if let Some(k) = items.iter().position(|i| eq.melee(i).is_some() || eq.ranged(i).is_some()) {
                    h.weapon = Some(items.remove(k));
                    h.weapon_skill = None;
                }
            }
            items.truncate(MAX_ITEMS);
            h.items = items;
            // within a hero file's cap, or the next save would be refused (issue 42)
            h.ammo = f.loadout.ammo.map(|a| a.min(crate::level::ranges::AMMO.1));
            // R-CP-12: a light still burning in his hand stays his, with its minutes left (a
            // level with no crawl burns none: his light is kept as it was).
            if let Some(x) = m.explore.as_deref() {
                h.light = x.burning.get(&i).map(|(item, minutes)| super::hero::HeroLight { item: item.clone(), minutes: *minutes });
            }
            // permanent conditions stay; a dying or bleeding hero of a won level is stabilized.
            // Incapacitation is not kept: it follows his HP (R-INJ-3, ended when healed above 0),
            // and a hero at 0 HP or less sits the next level out (R-CP-13); kept, it would stop a
            // hero the rest brought back above 0 from ever acting again.
            h.conditions = f.conditions.iter().filter(|c| c.duration == Duration::Permanent && c.id != "incapacitated").map(|c| c.id.clone()).collect();
        }
        roster.push(h);
    }
    record.cp = cp;
    let after_level = roster.clone();
    // R-CP-13: the rest between levels.
    let mut dice = Dice::seeded(progress.seed ^ (progress.history.len() as u64 + 1).wrapping_mul(0x9E37_79B9_7F4A_7C15));
    dice.force(rest_dice.iter().copied());
    let rest_gains = rest(c.campaign.rest_days(book), &mut dice, &mut roster, &mut record.rest, data);
    progress.sitting_out = roster.iter().filter(|h| h.hp.is_some_and(|hp| hp <= 0)).map(|h| h.name.clone()).collect();
    let max_hp = |h: &Hero| h.sheet(book).ok().map(|(s, _)| heroes::pools(&s.stats).0);
    told.sitting_out = super::told::sitting_out_lines(&roster, &progress.sitting_out, c.campaign.party_max, max_hp);
    told.rest = super::told::rest_note(c.campaign.rest_days(book), book.rest_cr);
    progress.roster = roster;
    progress.level = c.campaign.after_win(&id);
    progress.won = progress.level.is_none();
    progress.playing = false;
    at_play_cap(progress, &mut record);
    progress.history.push(record.clone());
    LevelReport { record, after_level, rest_gains, told }
}

/// The cap on levels played in one campaign (`MAX_PLAYS`, the history's cap): the level that
/// reaches it is the last; the campaign ends there, not won, and its record says why.
fn at_play_cap(progress: &mut Progress, record: &mut LevelRecord) {
    if progress.level.is_some() && progress.history.len() + 1 >= MAX_PLAYS {
        progress.level = None;
        progress.won = false;
        record.rest.push(format!("The campaign has been played for {MAX_PLAYS} levels, the most one campaign plays: it ends here, not won."));
    }
}

/// R-CP-13: the rest between levels: each of the `days` every hurt hero of `roster` makes his
/// recuperation check, cared for by the best healer among the others. The days' lines go to
/// `lines`; returns the HP each hero (by name) gained.
fn rest(days: u32, dice: &mut Dice, roster: &mut [Hero], lines: &mut Vec<String>, data: &RuleData) -> BTreeMap<String, i32> {
    let book = &data.heroes;
    let crs = data.exploration.caregiver_cr;
    let mut rest_gains: BTreeMap<String, i32> = BTreeMap::new();
    for day in 1..=days {
        for p in 0..roster.len() {
            let (sheet, _) = match roster[p].sheet(book) {
                Ok(s) => s,
                Err(_) => continue,
            };
            let (max_hp, _, _) = heroes::pools(&sheet.stats);
            let hp = roster[p].hp.unwrap_or(max_hp);
            if hp >= max_hp {
                continue;
            }
            let healer = (0..roster.len())
                .filter(|&q| q != p && roster[q].hp.is_none_or(|h| h > 0))
                .filter_map(|q| roster[q].sheet(book).ok().map(|(s, _)| (q, s)))
                .max_by(|a, b| {
                    (a.1.rank("healing").adjustment(), a.1.stats.savvy).cmp(&(b.1.rank("healing").adjustment(), b.1.stats.savvy)).then(b.0.cmp(&a.0))
                });
            let bonus = healer.map_or(0, |(_, s)| heroes::caregiver_bonus(dice, s.stats.savvy, s.rank("healing"), hp, max_hp, crs));
            let (gained, total) = heroes::recuperate(book, dice, &sheet.stats, bonus);
            let now = (hp + gained).min(max_hp);
            *rest_gains.entry(roster[p].name.clone()).or_default() += gained;
            roster[p].hp = (now < max_hp).then_some(now);
            lines.push(format!(
                "Day {day}: {} recuperates: {total} against CR {} (+{bonus} from care): +{gained} HP, {now}/{max_hp} (R-CP-13).",
                roster[p].name, book.rest_cr
            ));
        }
    }
    rest_gains
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::campaign::{level_for, sample_hero, shipped};

    /// The match of the progress's level, as the game builds it.
    fn level_match(c: &CheckedCampaign, p: &Progress, data: &RuleData) -> Match {
        let id = p.level.clone().unwrap();
        let text = level_for(c, p, &id, data).unwrap();
        let root = crate::level_file::project_root(&c.level_paths[&id]);
        crate::level_file::check("level.ron", &text, data, &root).unwrap_or_else(|e| panic!("{e:?}")).build(data).unwrap()
    }

    #[test] // R-CP-10, R-CP-12: a won level: +1 CP each and the objective's CP; HP as left;
    // permanent conditions stay, the others end; a dropped weapon is picked up (the game's
    // choice); the next level follows and the heroes stand in it as they were
    fn a_won_level_awards_and_carries_over() {
        let (data, c) = shipped();
        let party = vec![sample_hero("Ann", "warrior", &data).unwrap(), sample_hero("Bo", "rogue", &data).unwrap()];
        let mut p = Progress::start(&c, party, vec![], 7);
        p.begin_level();
        let mut m = level_match(&c, &p, &data);
        let ann = m.index("hero_ann").expect("the hero is in the level");
        let max = m.fighters[ann].max_hp;
        m.fighters[ann].hp = max - 3;
        m.fighters[ann].loadout.items.push("gemstone".into());
        let pos = m.fighters[ann].pos;
        let sword = m.fighters[ann].loadout.weapon.take().unwrap();
        m.fighters[ann].loadout.dropped.push((sword.clone(), pos));
        use crate::rules::fighter::ConditionInstance;
        m.fighters[ann].conditions = vec![
            ConditionInstance { id: "slowed".into(), duration: Duration::Permanent, removal_cr: None },
            ConditionInstance { id: "poisoned".into(), duration: Duration::Persistent, removal_cr: Some(9) },
        ];
        let rep = finish_level(&c, &mut p, &m, &[], true, &data);
        let cp = |id: &str| rep.record.cp.iter().filter(|l| l.hero == id).map(|l| l.cp).sum::<u32>();
        // the level won (1) and "Nobody dies on the road" (1): Ann is hurt, nobody is dead
        assert_eq!((cp("hero_ann"), cp("hero_bo")), (2, 2), "{:?}", rep.record.cp);
        assert!(rep.record.cp.iter().all(|l| l.rule == "R-CP-10"));
        assert_eq!(p.level.as_deref(), Some("vault"));
        assert!(!p.plays_again(&rep.record), "won: the next level");
        assert_eq!(p.banked_cp(&data.heroes, &[0, 1]), 4, "R-CP-11: the 2 + 2 CP earned are banked to spend");
        let a = &p.roster[0];
        assert_eq!(a.cp_earned, 2);
        assert_eq!(a.hp.unwrap_or(max), (max - 3 + rep.rest_gains.get("Ann").copied().unwrap_or(0)).min(max), "HP kept, then the rest (R-CP-13)");
        assert!(a.items.contains(&"gemstone".to_string()));
        assert_eq!(a.conditions, vec!["slowed".to_string()], "only the permanent condition stays");
        assert_eq!(a.weapon.as_deref(), Some(sword.as_str()), "the dropped weapon is picked up");
        p.check_heroes(&data).expect("the carried-over heroes are valid hero files");
        // the next level has them, hurt as they are
        let m2 = level_match(&c, &p, &data);
        let i = m2.index("hero_ann").unwrap();
        assert_eq!(m2.fighters[i].hp, a.hp.unwrap_or(max));
        assert!(m2.fighters[i].loadout.items.contains(&"gemstone".to_string()));
    }

    #[test] // R-CP-12, R-EXP-15: a hero who dropped his weapon in a crawl and took it up again
    // (it is then an item he carries) wields it at the next level, not unarmed with it in his pack
    fn a_weapon_taken_up_again_is_wielded_at_the_next_level() {
        let (data, c) = shipped();
        let party = vec![sample_hero("Ann", "warrior", &data).unwrap(), sample_hero("Bo", "rogue", &data).unwrap()];
        let mut p = Progress::start(&c, party, vec![], 7);
        p.begin_level();
        let mut m = level_match(&c, &p, &data);
        let ann = m.index("hero_ann").expect("the hero is in the level");
        let sword = m.fighters[ann].loadout.weapon.take().expect("Ann has a weapon");
        m.fighters[ann].loadout.weapon_skill = None;
        m.fighters[ann].loadout.items.push("gemstone".into());
        m.fighters[ann].loadout.items.push(sword.clone());
        finish_level(&c, &mut p, &m, &[], true, &data);
        let a = &p.roster[0];
        assert_eq!(a.weapon.as_deref(), Some(sword.as_str()), "the carried weapon is wielded again");
        assert!(!a.items.contains(&sword), "and is no longer in his pack: {:?}", a.items);
        assert!(a.items.contains(&"gemstone".to_string()), "the rest of his pack stays");
        p.check_heroes(&data).expect("the carried-over heroes are valid hero files");
        let m2 = level_match(&c, &p, &data);
        let i = m2.index("hero_ann").unwrap();
        assert_eq!(m2.fighters[i].loadout.weapon.as_deref(), Some(sword.as_str()), "he fights with it");
    }

    #[test] // R-CP-12, R-CP-13, R-INJ-3: a hero at 0 HP or less at the end of a won level is carried
    // over stabilized: no bleeding and no incapacitation kept (that follows his HP); he sits the
    // next level out while still at 0 or less, and plays, able to act, once the rest brings him above
    fn incapacitation_is_not_carried_over() {
        let (data, c) = shipped();
        let party = vec![sample_hero("Ann", "warrior", &data).unwrap(), sample_hero("Bo", "rogue", &data).unwrap()];
        let mut p = Progress::start(&c, party, vec![], 7);
        p.begin_level();
        let mut m = level_match(&c, &p, &data);
        let bo = m.index("hero_bo").unwrap();
        let mut ev = Vec::new();
        let hp = m.fighters[bo].hp;
        crate::rules::attack::change_hp(&mut m, bo, -(hp + 1), "damage", &mut ev);
        assert!(m.fighters[bo].has_condition("incapacitated") && m.fighters[bo].has_condition("bleeding"));
        let rep = finish_level(&c, &mut p, &m, &ev, true, &data);
        let b = rep.after_level.iter().find(|h| h.name == "Bo").unwrap();
        assert_eq!((b.hp, b.conditions.clone()), (Some(-1), Vec::<String>::new()), "stabilized, and not kept incapacitated");
        // back above 0 HP (as a rest may bring him), he stands in the next level able to act
        let mut b = p.roster.iter().find(|h| h.name == "Bo").unwrap().clone();
        b.hp = Some(2);
        p.roster = vec![p.roster[0].clone(), b];
        p.sitting_out.clear();
        let m2 = level_match(&c, &p, &data);
        let i = m2.index("hero_bo").unwrap();
        assert!(!m2.fighters[i].has_condition("incapacitated") && m2.can_act(i));
    }

    #[test] // R-CP-12, R-CP-10: a hero dead at the end of a won level leaves the roster and earns
    // nothing; the "nobody falls" objective is missed
    fn the_dead_leave_the_roster() {
        let (data, c) = shipped();
        let party = vec![sample_hero("Ann", "warrior", &data).unwrap(), sample_hero("Bo", "rogue", &data).unwrap()];
        let mut p = Progress::start(&c, party, vec![], 7);
        p.begin_level();
        let mut m = level_match(&c, &p, &data);
        let bo = m.index("hero_bo").unwrap();
        m.fighters[bo].hp = -m.fighters[bo].max_hp;
        let rep = finish_level(&c, &mut p, &m, &[], true, &data);
        assert_eq!(rep.record.fallen, vec!["Bo".to_string()]);
        assert_eq!(p.roster.iter().map(|h| h.name.as_str()).collect::<Vec<_>>(), vec!["Ann"]);
        assert!(rep.record.cp.iter().all(|l| l.hero == "hero_ann"));
        assert_eq!(p.roster[0].cp_earned, 1, "the level won, not the objective");
    }

    #[test] // R-CP-13: a lost level is played again from the roster it started with
    fn a_lost_level_keeps_nothing() {
        let (data, c) = shipped();
        let party = vec![sample_hero("Ann", "warrior", &data).unwrap()];
        let mut p = Progress::start(&c, party.clone(), vec![], 7);
        p.begin_level();
        let mut m = level_match(&c, &p, &data);
        let ann = m.index("hero_ann").unwrap();
        m.fighters[ann].hp = 1;
        m.fighters[ann].loadout.items.clear();
        let ev = vec![Event::AttackResolved {
            actor: "hero_ann".into(),
            target: "x".into(),
            defense_cr: 6,
            attack_total: 16,
            margin: 10,
            outcome: String::new(),
            raw_damage: 0,
            damage_parts: Vec::new(),
            reduction: 0,
            damage: 0,
            target_hp: 0,
        }];
        let rep = finish_level(&c, &mut p, &m, &ev, false, &data);
        assert!(rep.record.cp.is_empty());
        assert_eq!(p.roster, party, "nothing of the attempt is kept");
        assert_eq!(p.level.as_deref(), Some("road"));
        // the result screen: the same level is played again, and nothing is banked to spend
        assert!(p.plays_again(&rep.record), "R-CP-13: 'Play the level again', not 'Next level'");
        assert_eq!(p.banked_cp(&data.heroes, &[0]), 0, "R-CP-11: no CP banked, nothing to spend");
    }

    #[test] // R-CP-1, R-CP-10 (issue 42): objectives worth 2^32-1 CP, or two worth 2^31, do not
    // overflow (it panicked "attempt to add with overflow"); a hero keeps at most MAX_CP earned,
    // and the result lists exactly what he keeps and says what he does not
    fn huge_objectives_neither_overflow_nor_announce_what_is_not_kept() {
        let (data, mut c) = shipped();
        let obj = c.campaign.levels[0].objectives[0].clone();
        c.campaign.levels[0].objectives = vec![
            ObjectiveDef { cp: Some(u32::MAX), ..obj.clone() },
            ObjectiveDef { cp: Some(1 << 31), ..obj.clone() },
            ObjectiveDef { cp: Some(1 << 31), ..obj },
        ];
        let mut ann = sample_hero("Ann", "warrior", &data).unwrap();
        ann.cp_earned = MAX_CP - 5;
        let mut p = Progress::start(&c, vec![ann, sample_hero("Bo", "rogue", &data).unwrap()], vec![], 7);
        p.begin_level();
        let m = level_match(&c, &p, &data);
        let rep = finish_level(&c, &mut p, &m, &[], true, &data);
        let told = |id: &str| rep.record.cp.iter().filter(|l| l.hero == id).map(|l| l.cp as u64).sum::<u64>();
        assert_eq!(told("hero_ann"), 5, "only the 5 CP kept are listed: {:?}", rep.record.cp);
        assert_eq!(told("hero_bo"), MAX_CP as u64, "{:?}", rep.record.cp);
        assert_eq!(p.roster.iter().map(|h| h.cp_earned).collect::<Vec<_>>(), vec![MAX_CP, MAX_CP]);
        assert!(rep.record.cp.iter().all(|l| l.cp > 0), "no empty line is told");
        let note = rep.record.rest.iter().find(|l| l.starts_with("Ann has earned the most CP a hero keeps (100000)")).expect("the cap is said");
        assert!(note.contains("(R-CP-1)"), "{note}");
        // the banked CP of both fit (no truncating cast), and the heroes are valid hero files
        p.check_heroes(&data).unwrap();
        assert!(p.banked_cp(&data.heroes, &[0, 1]) >= 2 * MAX_CP);
    }

    #[test] // R-CP-12 (issue 42): what a level leaves a hero is kept within a hero file's caps:
    // 5,000 shots (picked up, recovered) are kept as the 999 a hero file holds, so the progress
    // stays a valid save (its heroes are checked as hero files)
    fn carried_over_numbers_stay_within_the_hero_caps() {
        let (data, c) = shipped();
        let mut p = Progress::start(&c, vec![sample_hero("Ann", "ranger", &data).unwrap()], vec![], 7);
        p.begin_level();
        let mut m = level_match(&c, &p, &data);
        let ann = m.index("hero_ann").unwrap();
        m.fighters[ann].loadout.ammo = Some(5_000);
        finish_level(&c, &mut p, &m, &[], true, &data);
        assert_eq!(p.roster[0].ammo, Some(crate::level::ranges::AMMO.1));
        p.check_heroes(&data).unwrap();
    }

    #[test] // issue 42: a campaign plays at most MAX_PLAYS levels: the level that reaches the cap
    // is the last, the campaign ends there not won, and its record says why (a loss that leads
    // into a loop played for ever; the history's cap would then refuse the save)
    fn a_campaign_ends_at_the_cap_on_levels_played() {
        let (data, c) = shipped();
        let mut p = Progress::start(&c, vec![sample_hero("Ann", "warrior", &data).unwrap()], vec![], 7);
        let lost = LevelRecord { level: "road".into(), won: false, cp: vec![], fallen: vec![], rest: vec![], foes: 0 };
        p.history = vec![lost; crate::campaign::MAX_PLAYS - 2];
        p.begin_level();
        let m = level_match(&c, &p, &data);
        finish_level(&c, &mut p, &m, &[], false, &data);
        assert_eq!(p.level.as_deref(), Some("road"), "below the cap a lost level is played again");
        p.begin_level();
        let rep = finish_level(&c, &mut p, &m, &[], false, &data);
        assert_eq!((p.level.clone(), p.won), (None, false), "the cap ends the campaign, not won");
        assert_eq!(p.history.len(), crate::campaign::MAX_PLAYS);
        assert!(rep.record.rest.iter().any(|l| l.contains("played for 10000 levels, the most one campaign plays")), "{:?}", rep.record.rest);
        assert!(p.cap_problems().is_empty(), "the progress stays a loadable save");
    }
}
