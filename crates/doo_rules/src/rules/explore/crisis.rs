//! Into Crisis Mode (R-EXP-24 to R-EXP-26): a sighting, a trap or an attack order starts a
//! crisis; who takes part (every hero, the hostiles seen and their encounters), who is
//! surprised; and, at a later reset, the inactive hostiles who join it (R-EXP-25).

use super::super::attack::stat_rank;
use super::super::checks::opposed;
use super::super::dice::Dice;
use super::super::equipment::Stat;
use super::super::event::Event;
use super::super::state::{Match, Phase};
use super::super::turn::Flow;
use super::sight::{ONE_PHASE_CRISIS, active_hostile, alive, one_phase, sees, sightings};
use super::state::{Awareness, Explore};

/// R-EXP-24: a hero and an active hostile see each other (or `forced`, a trap or an attack
/// order): Crisis Mode starts. Returns `CrisisStarts` or `Exploring`.
pub fn check_triggers(m: &mut Match, x: &mut Explore, dice: &mut Dice, forced: Option<&str>, ev: &mut Vec<Event>) -> Flow {
    let seen = sightings(m, x);
    if seen.is_empty() && forced.is_none() {
        return Flow::Exploring;
    }
    let reason = match (forced, seen.first()) {
        (Some(r), _) => r.to_string(),
        (None, Some(&(h, n))) => format!("{} and {} see each other", m.fighters[h].name, m.fighters[n].name),
        (None, None) => return Flow::Exploring,
    };
    begin_crisis(m, x, dice, &seen, &reason, Surprise::Rolled { attacked: None }, ev);
    Flow::CrisisStarts
}

/// How surprise is decided at a crisis start (R-EXP-26).
pub(super) enum Surprise<'a> {
    /// (2)–(4): by the encounters' awareness, rolled; `attacked`: the target of an attack
    /// order (R-EXP-24c).
    Rolled { attacked: Option<usize> },
    /// (1): a level script names the surprised side ("": nobody).
    Scripted(&'a str),
}

/// R-EXP-24 (d), R-EXP-26 (1): a level event starts Crisis Mode. Every hero takes part with
/// the members of `encounters` (and the hostiles in sight, as R-EXP-25 has it); `surprised`
/// names the surprised side, else nobody is surprised. The opening reset follows
/// (`Flow::CrisisStarts`).
pub fn scripted(m: &mut Match, x: &mut Explore, dice: &mut Dice, encounters: &[String], surprised: Option<&str>, reason: &str, ev: &mut Vec<Event>) {
    let mut seen = sightings(m, x);
    for e in x.encounters.iter().filter(|e| encounters.contains(&e.id)) {
        for &n in &e.members {
            if alive(m, n) {
                let h = (0..m.fighters.len()).find(|&h| x.is_explorer(m, h) && alive(m, h)).unwrap_or(n);
                seen.push((h, n));
            }
        }
    }
    begin_crisis(m, x, dice, &seen, reason, Surprise::Scripted(surprised.unwrap_or_default()), ev);
}

/// A level event's `start_crisis` while a crisis is on: the named encounters are alerted
/// (`alert`: never surprised, R-EXP-26 (4)); they join this crisis as any inactive hostile does,
/// at a reset once they see or are seen by a participant (R-EXP-25). (Joining at once, unseen
/// behind a closed door, would keep a crisis going that nobody can finish.)
pub fn scripted_alert(m: &mut Match, encounters: &[String], reason: &str, ev: &mut Vec<Event>) {
    let Some(x) = m.explore.as_deref_mut() else { return };
    for e in x.encounters.iter_mut().filter(|e| encounters.contains(&e.id)) {
        if e.awareness != Awareness::Alert {
            e.awareness = Awareness::Alert;
            ev.push(Event::Note { text: format!("{} is alerted ({reason}).", e.id) });
        }
    }
}

/// R-EXP-25, R-EXP-26: the participants (every hero; the hostiles seen or seeing, and their
/// encounters), surprise per encounter; everyone stays where he is. The opening reset follows.
/// `attacked`: the target of an attack order (R-EXP-24c), whose encounter is surprised unless
/// alert (R-EXP-26 (4)).
pub(super) fn begin_crisis(m: &mut Match, x: &mut Explore, dice: &mut Dice, seen: &[(usize, usize)], reason: &str, how: Surprise<'_>, ev: &mut Vec<Event>) {
    let (part, encounters) = participants(m, x, seen);
    // R-EXP-26 (1): a level script naming the surprised side decides ("": nobody).
    let surprised = match how {
        Surprise::Scripted(side) => (0..m.fighters.len()).filter(|&i| part[i] && m.fighters[i].side == side).collect(),
        Surprise::Rolled { attacked } => surprise(m, x, dice, &encounters, attacked, ev),
    };
    x.tasks.clear(); // unfinished tasks are lost (R-EXP-9)
    x.crisis_tasks.clear();
    x.busy.clear();
    // the orders' unfinished work is lost too (R-EXP-9)
    x.orders.assists.clear();
    x.orders.search_spaces.clear();
    x.orders.sorting.clear();
    x.orders.fired.clear(); // R-EXP-27, G-41: this crisis's shots
    x.crisis_minute = Some(x.minute);
    for i in 0..m.fighters.len() {
        let f = &mut m.fighters[i];
        f.dormant = !part[i];
        f.surprised = surprised.contains(&i);
        f.turn = Default::default();
        f.opp = Default::default();
    }
    m.clock.phase = Phase::Setup;
    m.clock.turn = 0;
    m.clock.round = 0;
    m.clock.current = None;
    m.clock.last_closed = None;
    ev.push(Event::CrisisBegins {
        reason: reason.to_string(),
        participants: (0..m.fighters.len()).filter(|&i| part[i]).map(|i| m.fighters[i].id.clone()).collect(),
        surprised: surprised.iter().map(|&i| m.fighters[i].id.clone()).collect(),
    });
    if one_phase(m, x) {
        ev.push(Event::Note { text: format!("{ONE_PHASE_CRISIS}.") });
    }
}

/// Who takes part (per character) and the encounters drawn in, in the order they were seen.
fn participants(m: &Match, x: &Explore, seen: &[(usize, usize)]) -> (Vec<bool>, Vec<usize>) {
    let mut part = vec![false; m.fighters.len()];
    let mut encounters: Vec<usize> = Vec::new();
    for (i, p) in part.iter_mut().enumerate() {
        *p = x.is_explorer(m, i) && alive(m, i);
    }
    for &(_, n) in seen {
        part[n] = true;
        if let Some(e) = x.encounter_of[n] {
            if !encounters.contains(&e) {
                encounters.push(e);
            }
        }
    }
    for &e in &encounters {
        for &i in &x.encounters[e].members {
            if alive(m, i) {
                part[i] = true;
            }
        }
    }
    (part, encounters)
}

/// A check's stat rank and skill adjustment.
fn check_adj(m: &Match, i: usize, skill: &str, stat: Stat) -> (u32, i32) {
    (stat_rank(m, i, stat), m.fighters[i].skill(skill).adjustment())
}

/// Lowest (or highest) by check adjustment, then stat, then listing order.
fn pick(m: &Match, who: &[usize], skill: &str, stat: Stat, lowest: bool) -> Option<usize> {
    let key = |&i: &usize| {
        let (r, a) = check_adj(m, i, skill, stat);
        (a, r as i32)
    };
    if lowest { who.iter().copied().min_by_key(|i| key(i)) } else { who.iter().copied().max_by(|a, b| key(a).cmp(&key(b)).then(b.cmp(a))) }
}

/// R-EXP-26: surprise, per encounter drawn in: the characters surprised.
fn surprise(m: &Match, x: &Explore, dice: &mut Dice, encounters: &[usize], attacked: Option<usize>, ev: &mut Vec<Event>) -> Vec<usize> {
    let sneak = x.book.skills.sneak.clone();
    let alert = x.book.skills.alertness.clone();
    let heroes: Vec<usize> = (0..m.fighters.len()).filter(|&i| x.is_explorer(m, i) && alive(m, i)).collect();
    let mut surprised: Vec<usize> = Vec::new();
    let enc_list: Vec<(Vec<usize>, Awareness, String)> = encounters
        .iter()
        .map(|&e| {
            (x.encounters[e].members.iter().copied().filter(|&i| alive(m, i) && m.standing(i)).collect(), x.encounters[e].awareness, x.encounters[e].id.clone())
        })
        .collect();
    for (members, awareness, eid) in &enc_list {
        if attacked.is_some_and(|t| members.contains(&t)) {
            if *awareness != Awareness::Alert {
                surprised.extend(members.iter().copied());
                ev.push(Event::Note { text: format!("{eid} is attacked unawares (R-EXP-26).") });
            }
            continue;
        }
        match awareness {
            Awareness::Alert => {}
            Awareness::Ambush => {
                let (Some(s), Some(h)) = (pick(m, members, &sneak, Stat::Finesse, true), pick(m, &heroes, &alert, Stat::Savvy, false)) else { continue };
                let o = opposed(dice, check_adj(m, h, &alert, Stat::Savvy), check_adj(m, s, &sneak, Stat::Finesse));
                ev.push(Event::Dice { actor: m.fighters[h].id.as_str().into(), purpose: "alertness".into(), roll: o.target, parts: vec![] });
                ev.push(Event::Dice { actor: m.fighters[s].id.as_str().into(), purpose: "sneak".into(), roll: o.instigator, parts: vec![] });
                if o.instigator_wins {
                    surprised.extend(heroes.iter().copied());
                    ev.push(Event::Note { text: format!("Ambush: the heroes are surprised by {eid} (R-EXP-26).") });
                }
            }
            Awareness::Unaware => {
                let spotters: Vec<usize> = heroes.iter().copied().filter(|&h| members.iter().any(|&n| sees(m, x, h, n) || sees(m, x, n, h))).collect();
                // R-EXP-26 (3): a spotter carrying a burning light in a dark area loses at once.
                if spotters.iter().any(|&h| x.burning.contains_key(&h) && x.in_dark(m.fighters[h].pos)) {
                    ev.push(Event::Note { text: format!("{eid} sees the light coming: no surprise (R-EXP-26).") });
                    continue;
                }
                let (Some(s), Some(w)) = (pick(m, &spotters, &sneak, Stat::Finesse, true), pick(m, members, &alert, Stat::Savvy, false)) else { continue };
                let o = opposed(dice, check_adj(m, w, &alert, Stat::Savvy), check_adj(m, s, &sneak, Stat::Finesse));
                ev.push(Event::Dice { actor: m.fighters[w].id.as_str().into(), purpose: "alertness".into(), roll: o.target, parts: vec![] });
                ev.push(Event::Dice { actor: m.fighters[s].id.as_str().into(), purpose: "sneak".into(), roll: o.instigator, parts: vec![] });
                if o.instigator_wins {
                    surprised.extend(members.iter().copied());
                    ev.push(Event::Note { text: format!("{eid} is caught unaware (R-EXP-26).") });
                }
            }
        }
    }
    surprised
}

/// R-EXP-25: at a normal reset, inactive hostiles who see or are seen by a participant join
/// the crisis (with their encounters), not surprised. Nothing outside a crawl.
pub fn join_crisis(m: &mut Match, ev: &mut Vec<Event>) {
    let join = m.explore.as_deref().map(|x| joiners(m, x)).unwrap_or_default();
    for i in join {
        if m.fighters[i].dormant && alive(m, i) {
            m.fighters[i].dormant = false;
            m.fighters[i].surprised = false;
            ev.push(Event::Note { text: format!("{} joins the crisis (R-EXP-25).", m.fighters[i].name) });
        }
    }
}

/// The inactive hostiles who see or are seen by a participant, with their encounters, in level
/// order.
fn joiners(m: &Match, x: &Explore) -> Vec<usize> {
    let mut join = Vec::new();
    for n in (0..m.fighters.len()).filter(|&i| m.fighters[i].dormant && active_hostile(m, x, i)) {
        if (0..m.fighters.len()).any(|p| !m.fighters[p].dormant && alive(m, p) && (sees(m, x, p, n) || sees(m, x, n, p))) {
            join.push(n);
            if let Some(e) = x.encounter_of[n] {
                join.extend(x.encounters[e].members.iter().copied());
            }
        }
    }
    join.sort_unstable();
    join.dedup();
    join
}
