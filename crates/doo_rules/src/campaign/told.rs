//! What the campaign's result screen tells of the heroes after a level (issue 43): how each
//! hero who went down fell (the blow, the bleeding, death), what the rest between levels does,
//! and who sits the next level out and what the player may do about it. Sentences only, with
//! the hero's own pronouns; the window shows them as they are.

use super::hero::{Hero, Pronouns};
use crate::rules::event::Event;
use crate::rules::state::Match;

/// "she" → "She".
fn cap(s: &str) -> String {
    let mut c = s.chars();
    c.next().map(|f| f.to_uppercase().collect::<String>() + c.as_str()).unwrap_or_default()
}

/// The blow that took a hero from above 0 HP to 0 or below: whose, how, how much.
struct Down {
    cause: String,
    from: i32,
    to: i32,
    /// HP lost to bleeding after it (R-INJ-3).
    bled: i32,
    /// HP lost to more blows while down.
    struck: i32,
    /// What stopped the bleeding, if anything did in the level.
    stopped: Option<String>,
}

fn cause(prev: Option<&Event>, hero: &str, reason: &str, m: &Match) -> String {
    let name = |id: &str| m.index(id).map_or(id.to_string(), |i| m.fighters[i].name.clone());
    match prev {
        Some(Event::AttackResolved { actor, target, outcome, .. }) if target == hero => {
            format!("{}'s {}", name(actor), outcome.replace('_', " "))
        }
        _ => match reason {
            "per-turn effects" => "bleeding and poison".into(),
            "disastrous miss" => "a disastrous miss of their own".into(),
            r => r.replace('_', " "),
        },
    }
}

/// How each hero of `roster` who went to 0 HP or below in the level `m` fell, from its
/// `events`: the blow (whose, the HP before and after), the HP then lost bleeding (R-INJ-3) and
/// to blows while down, death (R-INJ-8: he leaves the roster, R-CP-12) or the HP he ended on.
/// `won`: a won level stops the bleeding (R-CP-12). Heroes who never went down are not named.
pub fn falls(m: &Match, events: &[Event], roster: &[Hero], won: bool) -> Vec<String> {
    let mut lines = Vec::new();
    for h in roster {
        let id = h.id();
        let Some(i) = m.index(&id) else { continue };
        let p = h.pronouns;
        let mut down: Option<Down> = None;
        let mut rose = false;
        let mut died = false;
        let mut prev: Option<&Event> = None;
        for e in events {
            match e {
                Event::HpChanged { actor, from, to, reason } if *actor == id => {
                    if *from > 0 && *to <= 0 {
                        down = Some(Down { cause: cause(prev, &id, reason, m), from: *from, to: *to, bled: 0, struck: 0, stopped: None });
                        rose = false;
                    } else if let Some(d) = down.as_mut().filter(|_| to < from) {
                        if reason == "per-turn effects" {
                            d.bled += from - to;
                        } else {
                            d.struck += from - to;
                        }
                    } else if *to > 0 && *from <= 0 {
                        rose = true;
                    }
                }
                Event::ConditionRemoved { actor, condition, reason } if *actor == id && condition == "bleeding" => {
                    if let Some(d) = down.as_mut() {
                        d.stopped = Some(reason.replace('_', " "));
                    }
                }
                Event::Died { actor } if *actor == id => died = true,
                _ => {}
            }
            prev = Some(e);
        }
        let Some(d) = down else { continue };
        let f = &m.fighters[i];
        let mut s = format!("{} fell to {} ({} HP to {})", h.name, d.cause, d.from, d.to);
        if d.bled > 0 {
            s += &format!(", then bled {} HP, 1 a turn (R-INJ-3)", d.bled);
            if let Some(why) = &d.stopped {
                s += &format!(" until {why} stopped it");
            }
        }
        if d.struck > 0 {
            s += &format!(", and lost {} HP more to blows while down", d.struck);
        }
        s += ". ";
        let they = cap(p.subject());
        if died || m.is_dead(i) {
            s += &format!(
                "At {} HP ({} or less) {} {} dead (R-INJ-8) and {} the roster (R-CP-12).",
                f.hp,
                -f.max_hp,
                p.subject(),
                p.verb("is", "are"),
                p.verb("leaves", "leave")
            );
        } else if rose && f.hp > 0 {
            s += &format!("{they} {} back on {} feet at {}/{} HP.", p.verb("was", "were"), p.possessive(), f.hp, f.max_hp);
        } else if won {
            s += &format!("{they} ended the level at {}/{} HP; the won level stopped the bleeding (R-CP-12).", f.hp, f.max_hp);
        } else {
            s += &format!("{they} ended the level at {}/{} HP.", f.hp, f.max_hp);
        }
        lines.push(s);
    }
    lines
}

/// What the rest between levels does (R-CP-13, R-HEAL-7, R-HEAL-8), in a sentence: `days` days
/// of rest, recuperation checks against `cr`.
pub fn rest_note(days: u32, cr: i32) -> String {
    let d = if days == 1 { "one day".to_string() } else { format!("{days} days") };
    format!(
        "Resting (R-CP-13): {d} between levels. Each day every hurt hero makes a recuperation check (Brawn or Nerve) against CR {cr}: each rank of success gives back 1 HP (R-HEAL-7), and the best healer among the others adds +1 per rank of success of a Healing check (R-HEAL-8). A hero still at 0 HP or less after the rest sits the next level out."
    )
}

/// The heroes of `roster` named in `sitting_out`: why each sits the next level out and what the
/// player may do (R-CP-13, R-CP-14): recruit a hero in the party's room, else play on without.
pub fn sitting_out_lines(roster: &[Hero], sitting_out: &[String], party_max: usize, max_hp: impl Fn(&Hero) -> Option<i32>) -> Vec<String> {
    let room = party_max.saturating_sub(roster.len());
    roster
        .iter()
        .filter(|h| sitting_out.contains(&h.name))
        .map(|h| {
            let p: Pronouns = h.pronouns;
            let hp = h.hp.unwrap_or(0);
            let of = max_hp(h).map_or(String::new(), |m| format!("/{m}"));
            let then = if room > 0 {
                format!("To fill {} place: Recruit a hero on the briefing (R-CP-14; room for {room} more).", p.possessive())
            } else {
                format!(
                    "The party is full ({party_max} heroes, {} counted): the others play on, and Recruit a hero on the briefing opens when there is room (R-CP-14).",
                    p.subject()
                )
            };
            format!("{} is at {hp}{of} HP after the rest: {} {} the next level out (R-CP-13). {then}", h.name, p.subject(), p.verb("sits", "sit"))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use crate::campaign::{Progress, finish_level_with, level_for, shipped};
    use crate::rules::attack::change_hp;
    use crate::rules::event::Event;

    #[test] // R-INJ-3, R-INJ-8, R-CP-12, R-CP-13, R-CP-14 (issue 43): the result tells how each hero
    // fell (whose blow, the HP before and after, the bleeding), death and leaving the roster,
    // who sits the next level out with "Recruit a hero", and what resting does; each hero with
    // the pronouns of his file (Mira "she", Lunk "he"), never a fixed "he"
    fn the_result_tells_how_each_hero_fell() {
        let (data, c) = shipped();
        let mut p = Progress::start(&c, c.heroes.clone(), vec![], 3);
        p.begin_level();
        let id = p.level.clone().unwrap();
        let text = level_for(&c, &p, &id, &data).unwrap();
        let root = crate::level_file::project_root(&c.level_paths[&id]);
        let mut m = crate::level_file::check("level.ron", &text, &data, &root).unwrap().build(&data).unwrap();
        let goblin = m.fighters.iter().position(|f| f.side != "heroes").unwrap();
        let (gid, gname) = (m.fighters[goblin].id.clone(), m.fighters[goblin].name.clone());
        let mira = m.index("hero_mira").unwrap();
        let mut ev = Vec::new();
        let blow = |m: &mut crate::rules::state::Match, t: usize, dmg: i32, ev: &mut Vec<Event>| {
            let hp = m.fighters[t].hp;
            ev.push(Event::AttackResolved {
                actor: gid.as_str().into(),
                target: m.fighters[t].id.clone(),
                defense_cr: 6,
                attack_total: 12,
                margin: 6,
                outcome: "solid_hit".into(),
                raw_damage: dmg + 1,
                damage_parts: vec![("rolled".into(), dmg + 1)],
                reduction: 1,
                damage: dmg,
                target_hp: hp - dmg,
            });
            change_hp(m, t, -dmg, "damage", ev);
        };
        let hp = m.fighters[mira].hp;
        blow(&mut m, mira, hp + 2, &mut ev);
        change_hp(&mut m, mira, -1, "per-turn effects", &mut ev);
        change_hp(&mut m, mira, -1, "per-turn effects", &mut ev);
        let lunk = m.index("hero_lunk").unwrap();
        let hp = m.fighters[lunk].hp;
        blow(&mut m, lunk, 2 * hp, &mut ev);
        // the rest's dice all 1s: Mira stays below 0 HP and sits the next level out
        let rep = finish_level_with(&c, &mut p, &m, &ev, true, &data, &[1; 40]);
        let falls = &rep.told.falls;
        assert_eq!(falls.len(), 2, "{falls:?}");
        let m_line = falls.iter().find(|l| l.starts_with("Mira")).unwrap();
        assert!(m_line.contains(&format!("fell to {gname}'s solid hit (")) && m_line.contains("HP to -2)"), "{m_line}");
        assert!(m_line.contains("then bled 2 HP, 1 a turn (R-INJ-3)"), "{m_line}");
        assert!(m_line.contains("She ended the level at -4/"), "{m_line}");
        let l_line = falls.iter().find(|l| l.starts_with("Lunk")).unwrap();
        assert!(l_line.contains("he is dead (R-INJ-8) and leaves the roster (R-CP-12)"), "{l_line}");
        assert_eq!(rep.told.sitting_out.len(), 1, "{:?}", rep.told.sitting_out);
        let out = &rep.told.sitting_out[0];
        assert!(out.starts_with("Mira is at -4/") && out.contains("she sits the next level out (R-CP-13)"), "{out}");
        assert!(out.contains("Recruit a hero"), "a sitting-out hero points to Recruit a hero: {out}");
        for l in falls.iter().chain(&rep.told.sitting_out) {
            assert!(!l.starts_with("Mira") || !l.contains(" he ") && !l.contains(" his "), "Mira is 'she': {l}");
        }
        assert!(rep.told.rest.contains("CR 9") && rep.told.rest.contains("gives back 1 HP (R-HEAL-7)"), "{}", rep.told.rest);
        assert!(rep.told.rest.contains("sits the next level out"), "{}", rep.told.rest);
    }

    #[test] // issue 43: a hero file without pronouns is "they" (and its verbs agree)
    fn pronouns_default_to_they() {
        let (data, _) = shipped();
        let h = crate::campaign::sample_hero("Ann", "warrior", &data).unwrap();
        assert_eq!(h.pronouns.subject(), "they");
        let out = super::sitting_out_lines(&[crate::campaign::Hero { hp: Some(-1), ..h }], &["Ann".into()], 4, |_| Some(9));
        assert!(out[0].contains("they sit the next level out") && out[0].contains("To fill their place: Recruit a hero"), "{}", out[0]);
    }
}
