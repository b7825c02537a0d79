//! Making a hero the Core way (a stat array and a skill package, R-CP-2/3) or by point-buy
//! (R-CP-4), and spending CP on him between levels (R-CP-11), with set rank-ups (R-CP-8).

use super::book::{HeroBook, Make, Part, Purchase, STATS, Sheet, skill_name, stat_mut, stat_name, stat_of};
use crate::rules::fighter::Stats;
use crate::rules::profile::Rank;
use crate::rules::violation::{RuleResult, Violation};
use std::collections::BTreeMap;

/// R-CP-8: while at least n members of an owned set have rank R or better (R above Apprentice),
/// every member below R rises to R; repeated until nothing changes.
pub fn rank_up_sets(book: &HeroBook, sheet: &mut Sheet) {
    loop {
        let mut changed = false;
        for id in sheet.sets.clone() {
            let Some(set) = book.set(&id) else { continue };
            for rc in book.ranks.iter().skip(1) {
                let r = rc.rank;
                let at_least = set.skills.iter().filter(|k| sheet.rank(k) >= r).count();
                if at_least >= set.n {
                    for k in &set.skills {
                        if sheet.rank(k) < r {
                            sheet.raise(k, r);
                            changed = true;
                        }
                    }
                }
            }
        }
        if !changed {
            return;
        }
    }
}

fn own_set(book: &HeroBook, sheet: &mut Sheet, id: &str) -> RuleResult {
    let set = book.set(id).ok_or_else(|| Violation::new("R-CP-6", format!("There is no skill set '{id}'.")))?;
    for k in &set.skills {
        sheet.raise(k, Rank::Apprentice);
    }
    sheet.sets.insert(id.to_string());
    Ok(())
}

fn check_stats(book: &HeroBook, s: &Stats, rule: &str) -> RuleResult {
    for k in STATS {
        let v = stat_of(s, k);
        if v < book.stat_range.0 || v > book.stat_range.1 {
            return Err(Violation::new(rule, format!("{} {v}: a hero's stats lie between {} and {}.", stat_name(k), book.stat_range.0, book.stat_range.1)));
        }
    }
    Ok(())
}

/// R-CP-2, R-CP-3 (G-75, G-76): a Core hero. The stats must be one of the arrays in some order;
/// `choices` picks one option of each `one_of` part of the package, in order; `journeyman` names
/// the skill the package raises to Journeyman, one the hero has from the package or the
/// common skills.
pub fn make_core(book: &HeroBook, stats: &Stats, package: &str, choices: &[String], journeyman: Option<&str>) -> RuleResult<Sheet> {
    check_stats(book, stats, "R-STAT-2")?;
    let mut mine = [stats.brawn, stats.finesse, stats.savvy, stats.nerve];
    mine.sort_unstable_by(|a, b| b.cmp(a));
    if !book.stat_arrays.iter().any(|a| {
        let mut a = *a;
        a.sort_unstable_by(|x, y| y.cmp(x));
        a == mine
    }) {
        let shown = mine.iter().map(u32::to_string).collect::<Vec<_>>().join("-");
        return Err(Violation::new("R-STAT-2", format!("{shown} is not one of the Core stat arrays (7-7-7-6, 8-7-7-5 … 12-4-4-3).")));
    }
    let pkg = book.package(package).ok_or_else(|| {
        let names = book.packages.iter().map(|p| p.id.as_str()).collect::<Vec<_>>().join(", ");
        Violation::new("R-CP-3", format!("There is no skill package '{package}' (the packages: {names})."))
    })?;
    let mut sheet = Sheet { stats: *stats, package: Some(pkg.id.clone()), ..Default::default() };
    for k in &book.common {
        sheet.raise(k, Rank::Apprentice);
    }
    let mut picks = choices.iter();
    let mut wants_journeyman = false;
    let mut parts: Vec<Part> = Vec::new();
    for part in &pkg.parts {
        if let Part::OneOf(options) = part {
            let options_text = || options.iter().map(Part::key).collect::<Vec<_>>().join(", ");
            let Some(pick) = picks.next() else {
                return Err(Violation::new("R-CP-3", format!("The {} package asks for a choice of one of: {}.", pkg.name, options_text())));
            };
            let Some(opt) = options.iter().find(|o| o.key() == pick) else {
                return Err(Violation::new("R-CP-3", format!("'{pick}' is not a choice here: the {} package offers one of {}.", pkg.name, options_text())));
            };
            parts.push(opt.clone());
        } else {
            parts.push(part.clone());
        }
    }
    if let Some(extra) = picks.next() {
        return Err(Violation::new("R-CP-3", format!("The {} package has no more choices to make ('{extra}' is one too many).", pkg.name)));
    }
    for part in &parts {
        match part {
            Part::Skill(k) => sheet.raise(k, Rank::Apprentice),
            Part::Set(k) => own_set(book, &mut sheet, k)?,
            Part::Journeyman => wants_journeyman = true,
            Part::OneOf(_) => {}
        }
    }
    match (wants_journeyman, journeyman) {
        (true, None) => return Err(Violation::new("R-CP-3", format!("The {} package makes the hero Journeyman in one skill: name it.", pkg.name))),
        (false, Some(k)) => return Err(Violation::new("R-CP-3", format!("The {} package, as chosen, gives no Journeyman rank (asked for '{k}').", pkg.name))),
        (true, Some(k)) => {
            if sheet.rank(k) < Rank::Apprentice {
                return Err(Violation::new(
                    "R-CP-3",
                    format!("{} must be a skill the hero has from the package or the common skills to be raised to Journeyman (G-76).", skill_name(k)),
                ));
            }
            sheet.raise(k, Rank::Journeyman);
        }
        (false, None) => {}
    }
    rank_up_sets(book, &mut sheet);
    Ok(sheet)
}

/// R-CP-4 (G-77): a point-buy hero. Each stat costs its creation cost (from 5), each skill its
/// rank's creation cost (a common skill one less), each set its cost; the total may not exceed
/// the budget and what is left is banked.
pub fn make_point_buy(book: &HeroBook, stats: &Stats, skills: &BTreeMap<String, Rank>, sets: &[String], budget: Option<u32>) -> RuleResult<Sheet> {
    check_stats(book, stats, "R-CP-4")?;
    let budget = budget.unwrap_or(book.point_buy_budget);
    let mut sheet = Sheet { stats: *stats, ..Default::default() };
    let mut cost: i64 = 0;
    for k in STATS {
        cost += book.stat_cost(stat_of(stats, k)).unwrap_or(0) as i64;
    }
    for k in &book.common {
        sheet.raise(k, Rank::Apprentice);
    }
    for id in sets {
        if sheet.sets.contains(id) {
            return Err(Violation::new("R-CP-7", format!("The {id} set is listed twice.")));
        }
        let set = book.set(id).ok_or_else(|| Violation::new("R-CP-6", format!("There is no skill set '{id}'.")))?;
        cost += set.cost as i64;
        own_set(book, &mut sheet, id)?;
    }
    for (k, &r) in skills {
        if !book.skills.contains_key(k) {
            return Err(Violation::new("R-STAT-7", format!("There is no skill '{k}'.")));
        }
        let Some(rc) = book.rank_cost(r) else {
            return Err(Violation::new("R-CP-5", format!("{} cannot be bought Untrained: list it at Apprentice or above, or leave it out.", skill_name(k))));
        };
        let common = book.common.contains(k);
        cost += rc.creation as i64 - common as i64;
        sheet.raise(k, r);
    }
    if cost > budget as i64 {
        return Err(Violation::new("R-CP-4", format!("This hero costs {cost} CP; the budget is {budget} CP.")));
    }
    // Low stats give CP back (R-CP-4), so what is left may pass the budget: it must still fit.
    sheet.left =
        u32::try_from(budget as i64 - cost).map_err(|_| Violation::new("R-CP-4", format!("A budget of {budget} CP leaves more CP than a hero can bank.")))?;
    rank_up_sets(book, &mut sheet);
    Ok(sheet)
}

/// Makes the hero `make` describes.
pub fn make(book: &HeroBook, make: &Make) -> RuleResult<Sheet> {
    match make {
        Make::Core { stats, package, choices, journeyman } => make_core(book, stats, package, choices, journeyman.as_deref()),
        Make::PointBuy { stats, skills, sets, budget } => make_point_buy(book, stats, skills, sets, *budget),
    }
}

/// R-CP-11: buys `p` with banked CP; the purchase applies at once, then set rank-ups (R-CP-8).
/// Returns its cost.
pub fn buy(book: &HeroBook, sheet: &mut Sheet, banked: u32, p: &Purchase) -> RuleResult<u32> {
    let cost = book.price(sheet, p)?;
    if cost > banked {
        return Err(Violation::new("R-CP-11", format!("{} costs {cost} CP; the hero has {banked} CP banked.", p.describe(book))));
    }
    match p {
        Purchase::Stat(s) => *stat_mut(&mut sheet.stats, *s) += 1,
        Purchase::Skill(k) => {
            let next = book.next_rank(sheet.rank(k)).expect("priced");
            sheet.raise(k, next);
        }
        Purchase::Set(k) => own_set(book, sheet, k)?,
    }
    rank_up_sets(book, sheet);
    Ok(cost)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::equipment::Stat;

    fn book() -> HeroBook {
        HeroBook::builtin()
    }
    fn st(b: u32, f: u32, s: u32, n: u32) -> Stats {
        Stats { brawn: b, finesse: f, savvy: s, nerve: n }
    }
    fn strs(v: &[&str]) -> Vec<String> {
        v.iter().map(|s| s.to_string()).collect()
    }

    // R-CP-2, R-STAT-2: the stats must be one of the arrays, in any order.
    #[test]
    fn core_stats_must_be_an_array() {
        let b = book();
        let ok = make_core(&b, &st(4, 9, 7, 6), "warrior", &strs(&["bows"]), Some("axes"));
        assert!(ok.is_ok(), "{ok:?}");
        let e = make_core(&b, &st(9, 9, 7, 6), "warrior", &strs(&["bows"]), Some("axes")).unwrap_err();
        assert_eq!(e.rule, "R-STAT-2");
        assert!(e.reason.contains("9-9-7-6"), "{}", e.reason);
        assert_eq!(make_core(&b, &st(13, 4, 4, 3), "warrior", &strs(&["bows"]), Some("axes")).unwrap_err().rule, "R-STAT-2");
    }

    // R-CP-2, R-CP-3, R-CP-8: a Warrior gets Melee Combat and Might sets, his ranged choice, the
    // common skills, and his Journeyman skill.
    #[test]
    fn core_warrior_gets_his_package() {
        let b = book();
        let s = make_core(&b, &st(9, 7, 6, 4), "warrior", &strs(&["crossbows"]), Some("swords")).unwrap();
        assert_eq!(s.rank("swords"), Rank::Journeyman);
        assert_eq!(s.rank("axes"), Rank::Apprentice);
        assert_eq!(s.rank("crossbows"), Rank::Apprentice);
        assert_eq!(s.rank("bows"), Rank::Untrained);
        assert_eq!(s.rank("burst"), Rank::Apprentice, "Might set");
        assert_eq!(s.rank("native_language"), Rank::Apprentice, "common skill");
        assert_eq!(s.sets, ["melee_combat", "might"].iter().map(|s| s.to_string()).collect());
        assert_eq!(s.left, 0);
    }

    // R-CP-3: every choice is checked: missing, not offered, one too many; G-76 Journeyman skill.
    #[test]
    fn core_choices_are_checked() {
        let b = book();
        let e = make_core(&b, &st(9, 7, 6, 4), "warrior", &[], Some("swords")).unwrap_err();
        assert_eq!(e.rule, "R-CP-3");
        assert!(e.reason.contains("bows, crossbows, thrown_weapons"), "{}", e.reason);
        let e = make_core(&b, &st(9, 7, 6, 4), "warrior", &strs(&["swords"]), Some("swords")).unwrap_err();
        assert!(e.reason.contains("'swords' is not a choice"), "{}", e.reason);
        let e = make_core(&b, &st(9, 7, 6, 4), "warrior", &strs(&["bows", "bows"]), Some("swords")).unwrap_err();
        assert!(e.reason.contains("one too many"), "{}", e.reason);
        let e = make_core(&b, &st(9, 7, 6, 4), "warrior", &strs(&["bows"]), None).unwrap_err();
        assert!(e.reason.contains("Journeyman in one skill"), "{}", e.reason);
        let e = make_core(&b, &st(9, 7, 6, 4), "warrior", &strs(&["bows"]), Some("healing")).unwrap_err();
        assert_eq!(e.rule, "R-CP-3");
        assert!(e.reason.contains("G-76"), "{}", e.reason);
        // the Wizard package has no Journeyman part
        let e = make_core(&b, &st(5, 5, 10, 5), "wizard", &strs(&["quarterstaff"]), Some("literacy")).unwrap_err();
        assert!(e.reason.contains("gives no Journeyman"), "{}", e.reason);
        assert_eq!(make_core(&b, &st(5, 5, 10, 5), "bard", &[], None).unwrap_err().rule, "R-CP-3");
        // a Priest who takes the Journeyman option instead of Shields
        let s = make_core(&b, &st(6, 6, 7, 8), "priest", &strs(&["maces", "journeyman"]), Some("healing")).unwrap();
        assert_eq!(s.rank("healing"), Rank::Journeyman);
        assert_eq!(s.rank("shields"), Rank::Untrained);
    }

    // R-CP-4: point-buy from 20 CP; CPP's example: stats 6, 6, 7, 8 cost 10 CP.
    #[test]
    fn point_buy_costs() {
        let b = book();
        let s = make_point_buy(&b, &st(6, 6, 7, 8), &BTreeMap::new(), &[], None).unwrap();
        assert_eq!(s.left, 10);
        let skills: BTreeMap<String, Rank> = [("swords".to_string(), Rank::Foreman), ("alertness".to_string(), Rank::Journeyman)].into();
        // 10 + Foreman 4 + common skill at Journeyman 2 - 1 + Melee Combat 4 = 19
        let s = make_point_buy(&b, &st(6, 6, 7, 8), &skills, &strs(&["melee_combat"]), None).unwrap();
        assert_eq!(s.left, 1);
        assert_eq!(s.rank("swords"), Rank::Foreman);
        // R-CP-8 needs 3 members at Journeyman+: only swords is, so axes stay Apprentice
        assert_eq!(s.rank("axes"), Rank::Apprentice);
        let e = make_point_buy(&b, &st(8, 8, 8, 9), &BTreeMap::new(), &[], None).unwrap_err();
        assert_eq!(e.rule, "R-CP-4");
        assert!(e.reason.contains("costs 23 CP; the budget is 20 CP"), "{}", e.reason);
        assert!(make_point_buy(&b, &st(8, 8, 8, 8), &BTreeMap::new(), &[], None).is_ok(), "exactly the budget");
        // low values give CP back: 3 = -5
        let s = make_point_buy(&b, &st(12, 3, 3, 5), &BTreeMap::new(), &[], None).unwrap();
        assert_eq!(s.left, 10);
        assert_eq!(make_point_buy(&b, &st(13, 3, 3, 5), &BTreeMap::new(), &[], None).unwrap_err().rule, "R-CP-4");
        assert_eq!(make_point_buy(&b, &st(5, 5, 5, 5), &[("flying".to_string(), Rank::Apprentice)].into(), &[], None).unwrap_err().rule, "R-STAT-7");
    }

    // R-CP-4 (issue 42): stats of 3 give 20 CP back, so a budget of 2^32-1 leaves 2^32+19: it was
    // cut by a cast to 19 banked; it is refused, never wrapped
    #[test]
    fn a_budget_whose_leftover_does_not_fit_is_refused() {
        let b = book();
        let e = make_point_buy(&b, &st(3, 3, 3, 3), &BTreeMap::new(), &[], Some(u32::MAX)).unwrap_err();
        assert_eq!(e.rule, "R-CP-4");
        assert!(e.reason.contains("more CP than a hero can bank"), "{}", e.reason);
        assert_eq!(make_point_buy(&b, &st(3, 3, 3, 3), &BTreeMap::new(), &[], Some(1000)).unwrap().left, 1020);
    }

    // R-CP-11, R-CP-4: a stat +1 costs the upgrade cost of the new value: 6 → 8 costs 2 + 2.
    #[test]
    fn buying_stats() {
        let b = book();
        let mut s = make_core(&b, &st(9, 7, 6, 4), "warrior", &strs(&["bows"]), Some("axes")).unwrap();
        assert_eq!(buy(&b, &mut s, 10, &Purchase::Stat(Stat::Savvy)).unwrap(), 2);
        assert_eq!(buy(&b, &mut s, 10, &Purchase::Stat(Stat::Savvy)).unwrap(), 2);
        assert_eq!(s.stats.savvy, 8);
        let e = buy(&b, &mut s, 2, &Purchase::Stat(Stat::Brawn)).unwrap_err();
        assert_eq!(e.rule, "R-CP-11");
        assert!(e.reason.contains("costs 3 CP"), "{}", e.reason);
        assert_eq!(s.stats.brawn, 9, "a refused purchase changes nothing");
        let mut top = s.clone();
        top.stats.brawn = 12;
        assert_eq!(buy(&b, &mut top, 99, &Purchase::Stat(Stat::Brawn)).unwrap_err().rule, "R-CP-11");
    }

    // R-CP-5, R-CP-11 (issue 43): the advancement screen's "next rank" label names the rank the
    // skill has and the next one (it showed the rank it has as if it were the next)
    #[test]
    fn the_next_rank_label_shows_the_next_rank() {
        let b = book();
        let mut s = make_core(&b, &st(9, 7, 6, 4), "warrior", &strs(&["bows"]), Some("axes")).unwrap();
        assert_eq!(b.skill_step_label(&s, "axes"), "Axes: Journeyman -> Foreman");
        assert_eq!(b.skill_step_label(&s, "swords"), "Swords: Apprentice -> Journeyman");
        assert_eq!(b.skill_step_label(&s, "healing"), "Healing: new -> Apprentice");
        s.skills.insert("axes".into(), Rank::Master);
        assert_eq!(b.skill_step_label(&s, "axes"), "Axes: Master -> Grand Master");
        s.skills.insert("axes".into(), Rank::LegendaryMaster);
        assert_eq!(b.skill_step_label(&s, "axes"), "Axes: Legendary Master, the highest");
    }

    // R-CP-11, R-CP-5, R-CP-8: skills and ranks; the third Melee Combat member at Journeyman
    // makes all six Journeyman.
    #[test]
    fn buying_skills_and_set_rank_up() {
        let b = book();
        let mut s = make_core(&b, &st(9, 7, 6, 4), "warrior", &strs(&["bows"]), Some("axes")).unwrap();
        assert_eq!(buy(&b, &mut s, 5, &Purchase::Skill("healing".into())).unwrap(), 1, "a new skill");
        assert_eq!(s.rank("healing"), Rank::Apprentice);
        assert_eq!(buy(&b, &mut s, 5, &Purchase::Skill("swords".into())).unwrap(), 1);
        assert_eq!(s.rank("maces"), Rank::Apprentice, "two members at Journeyman");
        assert_eq!(buy(&b, &mut s, 5, &Purchase::Skill("maces".into())).unwrap(), 1);
        for k in ["axes", "knives", "maces", "shields", "spears", "swords"] {
            assert_eq!(s.rank(k), Rank::Journeyman, "{k}");
        }
        assert_eq!(buy(&b, &mut s, 5, &Purchase::Skill("axes".into())).unwrap(), 2, "Foreman costs 2");
        assert_eq!(buy(&b, &mut s, 5, &Purchase::Set("melee_combat".into())).unwrap_err().rule, "R-CP-7");
        assert_eq!(buy(&b, &mut s, 5, &Purchase::Set("grace".into())).unwrap(), 4);
        assert!(s.sets.contains("grace"));
        assert_eq!(buy(&b, &mut s, 0, &Purchase::Set("acumen".into())).unwrap_err().rule, "R-CP-11");
    }
}
