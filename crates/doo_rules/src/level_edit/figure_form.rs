//! A figure as a form (issue 46): every field a designer sets on a level's character, one row
//! each, with the event form's rows (`event_form::Row`): its id (renamed everywhere it is
//! named: encounters, events, goals), name, monster template, side, AI behaviour, hero, weapon,
//! shield, armor, his starting HP, MP and FP (stepped within his full pools, or typed), each
//! carried item and each condition (stepped through the game's lists, removed, added), his
//! posture, surprise, mook, whether he opens doors, a crossbow's load, ammunition, free steps,
//! sprite and spells (a caster's), and his
//! encounter's non-hostility, what it says (R-CP-16) and its trades (R-EXP-16), his skills and
//! their ranks, and his orders (issue 45: every kind, each field stepped through what the level
//! holds, near his space: `orders_form`).

use super::doc::{Doc, encounter_of};
use super::event_form::{Row, RowKind};
use super::figure_steps::{
    FigureLists, MAX_COUNT, MAX_FORM_TRADES, POSTURES, T, count, remove_entry, step_count, step_entry, step_in, step_skill, step_trade, step_tri, tri,
};
use crate::level::ConditionEntry;
use crate::rules::profile::Posture;

/// Items and conditions one figure may be given in the editor.
pub const MAX_FORM_ITEMS: usize = 32;

fn r(label: &str, value: String, kind: RowKind, t: T) -> (Row, T) {
    (Row { part: "figure".into(), label: label.into(), value, kind, action: None, bad: false }, t)
}

fn or_none(v: &Option<String>, none: &str) -> String {
    v.clone().unwrap_or_else(|| none.into())
}

/// `now` stepped through `None` and then `list` (round).
fn step_opt(list: &[String], now: &Option<String>, dir: i8) -> Option<String> {
    let all: Vec<Option<String>> = std::iter::once(None).chain(list.iter().cloned().map(Some)).collect();
    let i = all.iter().position(|x| x == now).unwrap_or(0) as i64;
    all[(i + dir.signum() as i64).rem_euclid(all.len() as i64) as usize].clone()
}

/// The least HP, MP, FP a step sets (HP as `add_hp`: at least 1).
const POOL_MIN: [i32; 3] = [1, 0, 0];
/// The largest (and, negated, the least) pool a typed value sets.
const MAX_POOL: i32 = 9999;

fn pool(c: &mut crate::level_file::CharacterEntry, i: usize) -> &mut Option<i32> {
    match i {
        0 => &mut c.hp,
        1 => &mut c.mp,
        _ => &mut c.fp,
    }
}

/// A pool stepped `dir`: unset is `full`; back at `full` it is unset again.
fn step_pool(now: Option<i32>, dir: i8, full: Option<i32>, min: i32) -> Option<i32> {
    let d = i32::from(dir.signum());
    match (now, full) {
        (None, None) => None,
        (Some(n), None) => Some((n + d).max(min)),
        (n, Some(f)) => {
            let v = (n.unwrap_or(f) + d).clamp(min, f.max(min));
            (v != f).then_some(v)
        }
    }
}

fn cond_id(c: &ConditionEntry) -> Option<&str> {
    match c {
        ConditionEntry::Id(id) => Some(id),
        ConditionEntry::Full(_) => None,
    }
}

impl Doc {
    fn figure_rows(&self, k: usize) -> Vec<(Row, T)> {
        let Some(c) = self.level.characters.get(k) else { return vec![] };
        let l = &self.level;
        let gear = if c.template.is_some() { "the template's" } else { "none" };
        let mut v = vec![
            r("id", or_none(&c.id, "(none)"), RowKind::Text, T::Id),
            r("name", or_none(&c.name, "(the template's)"), RowKind::Text, T::Name),
            // A figure made from a template keeps one (his stats are its); one written out in
            // full (a hero) has none to step.
            match &c.template {
                Some(t) => r("template", t.clone(), RowKind::Choice, T::Template),
                None => r("template", "none (written out in full)".into(), RowKind::Shown, T::Shown),
            },
            r("side", or_none(&c.side, "(none)"), RowKind::Choice, T::Side),
            r("behaviour", or_none(&c.behaviour, "its own"), RowKind::Choice, T::Behaviour),
            r("hero", if c.hero == Some(true) { "yes".into() } else { "no".into() }, RowKind::Toggle, T::Hero),
            r("weapon", or_none(&c.weapon, gear), RowKind::Choice, T::Weapon),
            r("shield", or_none(&c.shield, gear), RowKind::Choice, T::Shield),
            r("armor", or_none(&c.armor, gear), RowKind::Choice, T::Armor),
        ];
        for (i, (label, now)) in [("HP", c.hp), ("MP", c.mp), ("FP", c.fp)].into_iter().enumerate() {
            v.push(r(label, now.map_or_else(|| "full".into(), |n| n.to_string()), RowKind::Number, T::Pool(i)));
        }
        let from = if c.template.is_some() { "the template's" } else { "the rules'" };
        v.push(r("posture", c.posture.map_or_else(|| "standing".into(), |p| super::write::compact(&p)), RowKind::Choice, T::Posture));
        v.push(r("surprised", tri(c.surprised, "no"), RowKind::Toggle, T::Surprised));
        // A template may make him a mook or not (unset, yes, no); one written out in full is one
        // or not.
        match c.template {
            Some(_) => v.push(r("mook", tri(c.mook, from), RowKind::Choice, T::Mook)),
            None => v.push(r("mook", tri(c.mook, "no"), RowKind::Toggle, T::Mook)),
        }
        v.push(r("opens doors", tri(c.opens_doors, "yes"), RowKind::Toggle, T::OpensDoors));
        // Only a crossbow is loaded or not (R-RNG-8): his own, or perhaps his template's.
        let crossbow = c.weapon.as_ref().map_or(c.template.is_some(), |w| w.contains("crossbow"));
        if crossbow || c.loaded.is_some() {
            v.push(r("crossbow loaded", tri(c.loaded, "yes"), RowKind::Toggle, T::Loaded));
        }
        v.push(r("ammunition", c.ammo.map_or_else(|| from.to_string(), |n| n.to_string()), RowKind::Number, T::Count(0)));
        v.push(r("free steps", c.free_steps.map_or_else(|| from.to_string(), |n| n.to_string()), RowKind::Number, T::Count(1)));
        v.push(r("sprite", or_none(&c.sprite, "(the game's)"), RowKind::Text, T::Sprite));
        for (i, spell) in c.spells.iter().flatten().enumerate() {
            v.push(r(&format!("spell {}", i + 1), spell.clone(), RowKind::Choice, T::Spell(i)));
            v.push(r("", "remove".into(), RowKind::Remove, T::RemoveSpell(i)));
        }
        if c.spells.as_ref().map_or(0, Vec::len) < MAX_FORM_ITEMS && c.caster.is_some() {
            v.push(r("", "+ spell".into(), RowKind::Add, T::AddSpell));
        }
        for (i, item) in c.items.iter().flatten().enumerate() {
            v.push(r(&format!("item {}", i + 1), item.clone(), RowKind::Choice, T::Item(i)));
            v.push(r("", "remove".into(), RowKind::Remove, T::RemoveItem(i)));
        }
        if c.items.as_ref().map_or(0, Vec::len) < MAX_FORM_ITEMS {
            v.push(r("", "+ item".into(), RowKind::Add, T::AddItem));
        }
        for (i, cond) in c.conditions.iter().flatten().enumerate() {
            match cond_id(cond) {
                Some(id) => v.push(r(&format!("condition {}", i + 1), id.to_string(), RowKind::Choice, T::Condition(i))),
                None => v.push(r(&format!("condition {}", i + 1), super::write::compact(cond), RowKind::Shown, T::Shown)),
            }
            v.push(r("", "remove".into(), RowKind::Remove, T::RemoveCondition(i)));
        }
        if c.conditions.as_ref().map_or(0, Vec::len) < MAX_FORM_ITEMS {
            v.push(r("", "+ condition".into(), RowKind::Add, T::AddCondition));
        }
        for (i, (skill, rank)) in c.skills.iter().flatten().enumerate() {
            v.push(r(&format!("skill {}", i + 1), skill.clone(), RowKind::Choice, T::Skill(i)));
            v.push(r("rank", super::write::compact(rank), RowKind::Choice, T::SkillRank(i)));
            v.push(r("", "remove".into(), RowKind::Remove, T::RemoveSkill(i)));
        }
        if c.skills.as_ref().map_or(0, |s| s.len()) < MAX_FORM_ITEMS {
            v.push(r("", "+ skill".into(), RowKind::Add, T::AddSkill));
        }
        let enc = c.id.as_ref().and_then(|id| l.encounters.iter().find(|e| e.members.contains(id)));
        if c.template.is_some() {
            v.push(r("non-hostile", if enc.is_some_and(|e| e.non_hostile) { "yes".into() } else { "no".into() }, RowKind::Toggle, T::NonHostile));
            v.push(r("says", enc.and_then(|e| e.says.clone()).unwrap_or_else(|| "(nothing)".into()), RowKind::Text, T::Says));
            // R-EXP-16: what his encounter trades (a line: what he gives, for what, again or once).
            let trades = enc.map_or(&[][..], |e| e.trades.as_slice());
            for (i, t) in trades.iter().enumerate() {
                v.push(r(&format!("trade {} gives", i + 1), t.gives.clone(), RowKind::Choice, T::TradeGives(i)));
                v.push(r("for", t.wants.join(" + "), RowKind::Choice, T::TradeWants(i)));
                v.push(r("again", if t.repeat { "yes".into() } else { "once".into() }, RowKind::Toggle, T::TradeRepeat(i)));
                v.push(r("", "remove".into(), RowKind::Remove, T::RemoveTrade(i)));
            }
            // Only a non-hostile encounter trades (R-CP-16): the line is offered once it is one.
            if c.id.is_some() && enc.is_some_and(|e| e.non_hostile) && trades.len() < MAX_FORM_TRADES {
                v.push(r("", "+ trade".into(), RowKind::Add, T::AddTrade));
            }
        }
        for (label, value, kind, o) in super::orders_form::rows(c.orders.as_ref(), false) {
            v.push(r(label, value, kind, T::Orders(o)));
        }
        v
    }

    /// The k-th figure as the form's rows, in order.
    pub fn figure_form(&self, k: usize) -> Vec<Row> {
        self.figure_rows(k).into_iter().map(|(row, _)| row).collect()
    }

    /// The k-th figure's `row` stepped forward (`dir` 1) or back (-1) through `lists`, switched,
    /// removed or added. True when the level changed. Text rows are typed: `set_figure_text`.
    pub fn figure_step(&mut self, k: usize, row: usize, dir: i8, lists: &FigureLists) -> bool {
        let Some((_, t)) = self.figure_rows(k).get(row).cloned() else { return false };
        if t == T::Side {
            return self.next_side(k);
        }
        let level = self.level.clone();
        self.edit(|l, _| {
            if let T::Orders(o) = t {
                let cx = figure_ctx(&level, k, lists);
                super::orders_form::step_orders(&level, &mut l.characters[k].orders, o, dir, &cx);
                return;
            }
            let c = &mut l.characters[k];
            match t {
                T::Template => {
                    if let Some(t) = c.template.as_mut()
                        && let Some(n) = step_in(&lists.templates, t, dir)
                    {
                        *t = n;
                    }
                }
                T::Behaviour => c.behaviour = step_opt(&lists.behaviours, &c.behaviour, dir),
                T::Hero => c.hero = if c.hero == Some(true) { None } else { Some(true) },
                T::Weapon => c.weapon = step_opt(&lists.weapons, &c.weapon, dir),
                T::Shield => c.shield = step_opt(&lists.shields, &c.shield, dir),
                T::Armor => c.armor = step_opt(&lists.armor, &c.armor, dir),
                T::Pool(i) => {
                    let full = lists.full.map(|f| f[i]);
                    let p = pool(c, i);
                    *p = step_pool(*p, dir, full, POOL_MIN[i]);
                }
                T::Item(i) => step_entry(&mut c.items, i, &lists.items, dir),
                T::RemoveItem(i) => remove_entry(&mut c.items, i),
                T::AddItem => c.items.get_or_insert_with(Vec::new).push(lists.items.first().cloned().unwrap_or_else(|| "potion_of_healing".into())),
                T::Condition(i) => {
                    if let Some(ConditionEntry::Id(id)) = c.conditions.as_mut().and_then(|v| v.get_mut(i))
                        && let Some(n) = step_in(&lists.conditions, id, dir)
                    {
                        *id = n;
                    }
                }
                T::RemoveCondition(i) => remove_entry(&mut c.conditions, i),
                T::AddCondition => {
                    if let Some(first) = lists.conditions.first() {
                        c.conditions.get_or_insert_with(Vec::new).push(ConditionEntry::Id(first.clone()));
                    }
                }
                T::Posture => {
                    // Unset is standing: unset, then the others, round.
                    let now = c.posture.filter(|p| *p != Posture::Standing);
                    let i = POSTURES.iter().position(|x| *x == now).unwrap_or(0) as i64;
                    c.posture = POSTURES[(i + dir.signum() as i64).rem_euclid(POSTURES.len() as i64) as usize];
                }
                T::Surprised => c.surprised = if c.surprised == Some(true) { None } else { Some(true) },
                T::Mook if c.template.is_none() => c.mook = if c.mook == Some(true) { None } else { Some(true) },
                T::Mook => c.mook = step_tri(c.mook, dir),
                T::OpensDoors => c.opens_doors = if c.opens_doors == Some(false) { None } else { Some(false) },
                T::Loaded => c.loaded = if c.loaded == Some(false) { None } else { Some(false) },
                T::Count(i) => {
                    let p = count(c, i);
                    *p = step_count(*p, dir, MAX_COUNT[i]);
                }
                T::Spell(i) => step_entry(&mut c.spells, i, &lists.spells, dir),
                T::RemoveSpell(i) => remove_entry(&mut c.spells, i),
                T::AddSpell => {
                    let known = c.spells.clone().unwrap_or_default();
                    if let Some(first) = lists.spells.iter().find(|s| !known.contains(s)).or(lists.spells.first()) {
                        c.spells.get_or_insert_with(Vec::new).push(first.clone());
                    }
                }
                T::NonHostile => {
                    if let Some(id) = c.id.clone() {
                        let e = encounter_of(l, &id);
                        l.encounters[e].non_hostile = !l.encounters[e].non_hostile;
                    }
                }
                T::Skill(_) | T::SkillRank(_) | T::RemoveSkill(_) | T::AddSkill => step_skill(c, t, dir, lists),
                T::TradeGives(_) | T::TradeWants(_) | T::TradeRepeat(_) | T::RemoveTrade(_) | T::AddTrade => {
                    if let Some(id) = c.id.clone() {
                        let e = encounter_of(l, &id);
                        step_trade(&mut l.encounters[e].trades, t, dir, lists);
                    }
                }
                T::Side | T::Name | T::Id | T::Says | T::Sprite | T::Shown | T::Orders(_) => {}
            }
        })
    }

    /// The figure on the next side. A figure that joins an exploring side leaves his encounter
    /// (explorers are in none: R-EXP-24); one emptied so is removed, with what names it.
    pub fn next_side(&mut self, k: usize) -> bool {
        let sides: Vec<String> = self.level.sides.iter().map(|s| s.id.clone()).collect();
        if sides.is_empty() || k >= self.level.characters.len() {
            return false;
        }
        let explorers: Vec<String> = if self.level.explorers.is_empty() { sides.iter().take(1).cloned().collect() } else { self.level.explorers.clone() };
        self.edit(|l, _| {
            let c = &mut l.characters[k];
            let now = c.side.clone().unwrap_or_default();
            let i = sides.iter().position(|s| *s == now).map_or(0, |i| (i + 1) % sides.len());
            c.side = Some(sides[i].clone());
            let (Some(id), true) = (c.id.clone(), explorers.contains(&sides[i])) else { return };
            let mut emptied = vec![];
            for e in l.encounters.iter_mut() {
                let before = e.members.len();
                e.members.retain(|m| *m != id);
                if before > 0 && e.members.is_empty() {
                    emptied.push(e.id.clone());
                }
            }
            super::group::drop_encounters(l, &emptied);
        })
    }

    /// The text of a figure's row typed: its name, its id (renamed everywhere it is named:
    /// encounters, events, goals; refused when taken or not a plain id), or what its
    /// encounter says. True when the level changed.
    pub fn set_figure_text(&mut self, k: usize, row: usize, text: &str) -> bool {
        let Some((_, t)) = self.figure_rows(k).get(row).cloned() else { return false };
        let text = text.trim().to_string();
        match t {
            T::Name => self.edit(|l, _| l.characters[k].name = (!text.is_empty()).then(|| text.chars().take(80).collect())),
            T::Says => self.edit(|l, _| {
                if let Some(id) = l.characters[k].id.clone() {
                    let e = encounter_of(l, &id);
                    l.encounters[e].says = (!text.is_empty()).then(|| text.chars().take(crate::rules::story::MAX_TEXT).collect());
                }
            }),
            T::Id => self.rename_figure(k, &text),
            // A path under assets/ (the level's check refuses one that leaves it).
            T::Sprite => self.edit(|l, _| l.characters[k].sprite = (!text.is_empty()).then(|| text.chars().take(crate::data::MAX_ID_CHARS * 4).collect())),
            T::Count(i) => {
                let v = match text.as_str() {
                    "" => None,
                    n => match n.parse::<u32>() {
                        Ok(n) => Some(n.min(MAX_COUNT[i])),
                        Err(_) => return false,
                    },
                };
                self.edit(|l, _| *count(&mut l.characters[k], i) = v)
            }
            T::Pool(i) => {
                let v = match text.as_str() {
                    "" | "full" => None,
                    n => match n.parse::<i32>() {
                        Ok(n) => Some(n.clamp(-MAX_POOL, MAX_POOL)),
                        Err(_) => return false,
                    },
                };
                self.edit(|l, _| *pool(&mut l.characters[k], i) = v)
            }
            _ => false,
        }
    }

    /// The current text of a figure's typed row.
    pub fn figure_text(&self, k: usize, row: usize) -> String {
        let Some((r, t)) = self.figure_rows(k).get(row).cloned() else { return String::new() };
        let c = &self.level.characters[k];
        match t {
            T::Name => c.name.clone().unwrap_or_default(),
            T::Id => c.id.clone().unwrap_or_default(),
            T::Pool(i) => [c.hp, c.mp, c.fp][i].map(|n| n.to_string()).unwrap_or_default(),
            T::Count(i) => [c.ammo, c.free_steps][i].map(|n| n.to_string()).unwrap_or_default(),
            T::Sprite => c.sprite.clone().unwrap_or_default(),
            T::Says => {
                if r.value == "(nothing)" {
                    String::new()
                } else {
                    r.value
                }
            }
            _ => String::new(),
        }
    }

    /// The k-th figure's id, renamed everywhere it is named: his encounter's members, the
    /// events' figures (who, give, take), the goals that name him, the bodyguards' orders, the
    /// lights he holds. (`rename_id` does the same by id, and says why when it refuses.)
    pub fn rename_figure(&mut self, k: usize, id: &str) -> bool {
        let plain = !id.is_empty() && id.len() <= 64 && id.chars().all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-');
        let Some(c) = self.level.characters.get(k) else { return false };
        if !plain || self.level.characters.iter().enumerate().any(|(j, c)| j != k && c.id.as_deref() == Some(id)) {
            return false;
        }
        match c.id.clone() {
            // Renamed wherever the level names him (`rename_id`, the one place that knows where).
            Some(old) => matches!(self.rename_id(super::IdKind::Figure, &old, id), Ok(true)),
            None => self.edit(|l, _| l.characters[k].id = Some(id.to_string())),
        }
    }
}

/// What the k-th figure's orders are chosen from: near his space, the other figures of his side,
/// the game's items and the level's keys, the other encounters (crawls).
fn figure_ctx(l: &crate::level_file::Level, k: usize, lists: &FigureLists) -> super::orders_form::OrderCtx {
    let c = &l.characters[k];
    let own = c.id.as_ref().and_then(|id| l.encounters.iter().find(|e| e.members.contains(id))).map(|e| e.id.clone());
    let mut items: Vec<String> = l.keys.iter().map(|k| k.id.clone()).collect();
    items.extend(lists.items.iter().filter(|i| !items.contains(i)).cloned().collect::<Vec<_>>());
    super::orders_form::OrderCtx {
        anchor: c.pos.unwrap_or_else(|| super::orders_form::first_standable(l)),
        sel: None,
        figures: l.characters.iter().filter(|o| o.side == c.side && o.id.is_some() && o.id != c.id).filter_map(|o| o.id.clone()).collect(),
        items,
        encounters: if l.mode == crate::level_crawl::LevelMode::Exploration {
            l.encounters.iter().filter(|e| Some(&e.id) != own.as_ref()).map(|e| e.id.clone()).collect()
        } else {
            vec![]
        },
    }
}
