//! Writing a level the way a person writes one (issue 31): the fields in a stable order, the
//! map as text rows under an x ruler with each row's y, one side, figure or feature per line,
//! nothing left at its default written out. Given the text the level was read from, what the
//! edit did not touch is kept as it was, comments and all: an unchanged level is its own text;
//! an unchanged field, list element or map row keeps its lines; only what changed is written
//! anew (with the comments before it).

pub use super::pretty::compact;
use super::pretty::{Defaults, layout, merge_entry};
use super::scan::{self, Item};
use crate::level_file::Level;
use serde::Serialize;
use serde::de::DeserializeOwned;

const IND: &str = "    ";

/// A field's value as written: on its line, or a list with one element per line.
#[derive(Clone, Debug, PartialEq)]
enum Val {
    Inline(String),
    Lines(Vec<String>),
    Floors(Vec<Vec<String>>),
}

fn lines<T: Serialize + DeserializeOwned + PartialEq>(v: &[T], d: &mut Defaults) -> Option<Val> {
    (!v.is_empty()).then(|| Val::Lines(v.iter().map(|e| d.strip(e)).collect()))
}

fn inline<T: Serialize>(v: &T) -> Val {
    Val::Inline(compact(v))
}

/// The level's fields in the order a person reads them; `None`: left at its default.
fn fields(l: &Level, d: &mut Defaults) -> Vec<(&'static str, Option<Val>)> {
    let nonempty = |v: &[String]| (!v.is_empty()).then(|| inline(&v));
    vec![
        ("version", Some(inline(&l.version))),
        ("name", Some(inline(&l.name))),
        ("briefing", (!l.briefing.is_empty()).then(|| inline(&l.briefing))),
        ("profile", l.profile.as_ref().map(inline)),
        ("options", (l.options != Default::default()).then(|| inline(&l.options))),
        ("turn_limit", l.turn_limit.as_ref().map(inline)),
        ("mode", (l.mode != Default::default()).then(|| inline(&l.mode))),
        ("camp", (!l.camp).then(|| inline(&l.camp))),
        ("minute", (l.minute != 0).then(|| inline(&l.minute))),
        ("legend", (!l.legend.is_empty()).then(|| inline(&l.legend))),
        ("floors", Some(Val::Floors(l.floors.clone()))),
        ("floor_names", nonempty(&l.floor_names)),
        ("stairs", lines(&l.stairs, d)),
        ("sides", lines(&l.sides, d)),
        ("explorers", nonempty(&l.explorers)),
        ("non_hostile", nonempty(&l.non_hostile)),
        ("characters", Some(lines(&l.characters, d).unwrap_or(Val::Inline("[]".into())))),
        ("encounters", lines(&l.encounters, d)),
        ("doors", lines(&l.doors, d)),
        ("keys", lines(&l.keys, d)),
        ("chests", lines(&l.chests, d)),
        ("items", lines(&l.items, d)),
        ("traps", lines(&l.traps, d)),
        ("lights", lines(&l.lights, d)),
        ("dark", lines(&l.dark, d)),
        ("checks", lines(&l.checks, d)),
        ("victory", lines(&l.victory, d)),
        ("vars", (!l.vars.is_empty()).then(|| inline(&l.vars))),
        ("events", lines(&l.events, d)),
    ]
}

/// The map's rows under an x ruler, each with its y.
fn floor_rows(rows: &[String], ind: &str) -> String {
    let width = rows.iter().map(|r| r.chars().count()).max().unwrap_or(0);
    let mut s = String::new();
    if width > 10 {
        let tens: String = (0..width).map(|x| if x % 10 == 0 { char::from_digit((x / 10 % 10) as u32, 10).unwrap_or(' ') } else { ' ' }).collect();
        s.push_str(&format!("{ind}//   x: {}\n", tens.trim_end()));
    }
    let ones: String = (0..width).map(|x| char::from_digit((x % 10) as u32, 10).unwrap_or(' ')).collect();
    s.push_str(&format!("{ind}//      {ones}\n"));
    for (y, r) in rows.iter().enumerate() {
        s.push_str(&format!("{ind}{IND}{}, // y {y}\n", compact(r)));
    }
    s
}

/// A field written anew, at `ind`, with its line end.
fn field_text(key: &str, v: &Val, ind: &str) -> String {
    match v {
        Val::Inline(s) => format!("{ind}{key}: {},\n", layout(s, ind.chars().count() + key.len() + 2, ind, 1)),
        Val::Lines(items) => {
            let mut s = format!("{ind}{key}: [\n");
            let inner = format!("{ind}{IND}");
            for e in items {
                s.push_str(&format!("{inner}{},\n", layout(e, inner.chars().count(), &inner, 1)));
            }
            s.push_str(&format!("{ind}],\n"));
            s
        }
        Val::Floors(floors) if floors.len() == 1 => format!("{ind}{key}: [[\n{}{ind}]],\n", floor_rows(&floors[0], ind)),
        Val::Floors(floors) => {
            let mut s = format!("{ind}{key}: [\n");
            for (f, rows) in floors.iter().enumerate() {
                let inner = format!("{ind}{IND}");
                s.push_str(&format!("{inner}[ // floor {f}\n{}{inner}],\n", floor_rows(rows, &inner)));
            }
            s.push_str(&format!("{ind}],\n"));
            s
        }
    }
}

/// The level as a new file: a comment line, then the fields.
pub fn write_new(level: &Level) -> String {
    let mut s = String::from("// Made in the level editor (doo edit). docs/levels.md describes every field.\nLevel(\n");
    for (key, v) in fields(level, &mut Defaults::default()) {
        if let Some(v) = v {
            s.push_str(&field_text(key, &v, IND));
        }
    }
    s.push_str(")\n");
    s
}

/// The level, written over the text it was read from (`source`, which parsed as `original`):
/// the text itself when nothing changed; else what did not change keeps its lines and
/// comments. A text the writer cannot follow is written anew.
pub fn write(level: &Level, source: Option<(&str, &Level)>) -> String {
    let Some((text, original)) = source else { return write_new(level) };
    if level == original {
        return text.to_string();
    }
    // What is merged must read back as the level (else it is written anew).
    let same = |t: &String| crate::data::parse_ron::<Level>("", t).is_ok_and(|l| &l == level);
    merge(level, text, original).filter(same).unwrap_or_else(|| write_new(level))
}

fn line_indent(text: &str, at: usize) -> String {
    let line_start = text[..at].rfind('\n').map_or(0, |n| n + 1);
    text[line_start..at].chars().take_while(|c| *c == ' ' || *c == '\t').collect()
}

/// An item kept as its author wrote it, ending with a comma and its line.
fn kept(text: &str, i: &Item) -> String {
    let mut s = text[i.lead..i.value.1].to_string();
    s.push(',');
    if let Some((a, b)) = i.comment {
        s.push(' ');
        s.push_str(&text[a..b]);
    }
    s.push('\n');
    s
}

fn merge(level: &Level, text: &str, original: &Level) -> Option<String> {
    let open = scan::top_open(text)?;
    let (items, close) = scan::items(text, open)?;
    // Only a file with one field per line is merged field by field.
    if items.iter().any(|i| i.key.is_none() || !text[i.lead..i.tail].ends_with('\n')) {
        return None;
    }
    let mut d = Defaults::default();
    let new = fields(level, &mut d);
    let old: std::collections::BTreeMap<&str, Option<Val>> = fields(original, &mut d).into_iter().collect();
    let known: Vec<&str> = new.iter().map(|(k, _)| *k).collect();
    if items.iter().any(|i| !known.contains(&i.key.as_deref().unwrap_or(""))) {
        return None;
    }
    let ind = items.first().map_or(IND.to_string(), |i| line_indent(text, i.start));
    let first_lead = items.first().map_or(close, |i| i.lead);
    // The head: up to and including `Level(` and its line.
    let mut out = text[..first_lead].to_string();
    let at = |k: &str| items.iter().position(|i| i.key.as_deref() == Some(k));
    // New fields go right after the field before them in the canonical order.
    let mut after: std::collections::BTreeMap<Option<&'static str>, Vec<&(&str, Option<Val>)>> = Default::default();
    let mut prev: Option<&'static str> = None;
    for f in &new {
        if at(f.0).is_some() {
            prev = Some(f.0);
        } else if f.1.is_some() {
            after.entry(prev).or_default().push(f);
        }
    }
    let mut emit_after = |k: Option<&'static str>, out: &mut String| {
        for f in after.remove(&k).unwrap_or_default() {
            if let Some(v) = &f.1 {
                out.push_str(&field_text(f.0, v, &ind));
            }
        }
    };
    emit_after(None, &mut out);
    for it in &items {
        let key = it.key.as_deref().unwrap_or("");
        let now = new.iter().find(|(k, _)| *k == key).and_then(|(_, v)| v.as_ref());
        let was = old.get(key).and_then(|v| v.as_ref());
        match now {
            None => {}
            Some(v) if Some(v) == was => out.push_str(&kept(text, it)),
            Some(v) => {
                out.push_str(&text[it.lead..it.start]);
                let body = merged_value(text, it, v, was).unwrap_or_else(|| field_text(key, v, &ind).trim_start().to_string());
                out.push_str(&body);
            }
        }
        if let Some(k) = known.iter().find(|k| **k == key) {
            emit_after(Some(k), &mut out);
        }
    }
    out.push_str(&text[items.last().map_or(close, |i| i.tail)..]);
    Some(out)
}

/// A changed list field whose elements were one per line, or a map whose size is the same:
/// the elements and rows that did not change keep their lines.
fn merged_value(text: &str, it: &Item, now: &Val, was: Option<&Val>) -> Option<String> {
    let key = it.key.as_deref()?;
    let one_line = !text[it.value.0..it.value.1].contains('\n');
    let close_line = |end: usize| -> String {
        // The closing bracket's own line, with the field's comma and comment.
        let line_start = text[..end].rfind('\n').map_or(0, |n| n + 1);
        let mut s = text[line_start..it.value.1].to_string();
        s.push(',');
        if let Some((a, b)) = it.comment {
            s.push(' ');
            s.push_str(&text[a..b]);
        }
        s.push('\n');
        s
    };
    match (now, was) {
        (Val::Lines(new), Some(Val::Lines(old))) if !one_line => {
            let (elems, close) = scan::items(text, it.value.0)?;
            if elems.len() != old.len() || elems.iter().any(|e| !text[e.lead..e.tail].ends_with('\n')) {
                return None;
            }
            let ind = elems.first().map_or(format!("{IND}{IND}"), |e| line_indent(text, e.start));
            // The rest of the opening bracket's line, then each element with the lines before it.
            let first_nl = elems.first().and_then(|e| text[e.lead..e.start].find('\n').map(|n| e.lead + n + 1));
            let mut s = format!("{key}: [");
            match first_nl {
                Some(n) => s.push_str(&text[it.value.0 + 1..n]),
                None => s.push('\n'),
            }
            let lead_of = |j: usize| -> &str {
                let e = &elems[j];
                let from = if j == 0 { first_nl.unwrap_or(e.start) } else { e.lead };
                &text[from.min(e.start)..e.start]
            };
            // Unchanged elements keep their lines (their own place first, then any other).
            let mut used = vec![false; elems.len()];
            let mut from: Vec<Option<usize>> = vec![None; new.len()];
            for (k, e) in new.iter().enumerate() {
                if old.get(k) == Some(e) {
                    used[k] = true;
                    from[k] = Some(k);
                }
            }
            for (k, e) in new.iter().enumerate() {
                if from[k].is_none()
                    && let Some(j) = (0..old.len()).find(|&j| !used[j] && &old[j] == e)
                {
                    used[j] = true;
                    from[k] = Some(j);
                }
            }
            for (k, e) in new.iter().enumerate() {
                match from[k] {
                    Some(j) => {
                        s.push_str(lead_of(j));
                        s.push_str(&text[elems[j].start..elems[j].value.1]);
                        s.push(',');
                        if let Some((a, b)) = elems[j].comment {
                            s.push(' ');
                            s.push_str(&text[a..b]);
                        }
                        s.push('\n');
                    }
                    // Changed in its place: the comments before it stay; one its author wrote
                    // over several lines keeps them, only its changed fields rewritten.
                    None if k < old.len() && !used[k] => {
                        used[k] = true;
                        s.push_str(lead_of(k));
                        let (a, b) = (elems[k].start, elems[k].value.1);
                        let ind = line_indent(text, a);
                        let in_place = text[a..b].contains('\n').then(|| merge_entry(text, a, b, &old[k], e)).flatten();
                        s.push_str(&in_place.unwrap_or_else(|| layout(e, ind.chars().count(), &ind, 1)));
                        s.push(',');
                        if let Some((a, b)) = elems[k].comment {
                            s.push(' ');
                            s.push_str(&text[a..b]);
                        }
                        s.push('\n');
                    }
                    None => s.push_str(&format!("{ind}{},\n", layout(e, ind.chars().count(), &ind, 1))),
                }
            }
            // Comments after the last element, then the closing bracket's line.
            let last_tail = elems.last().map_or(it.value.0 + 1, |e| e.tail);
            let line_start = text[..close].rfind('\n').map_or(0, |n| n + 1);
            if last_tail < line_start {
                let between = &text[last_tail..line_start];
                if between.trim_start().starts_with("//") || between.trim().is_empty() {
                    s.push_str(between);
                }
            }
            s.push_str(&close_line(close));
            Some(s)
        }
        (Val::Floors(new), Some(Val::Floors(old))) if new.len() == old.len() && new.iter().zip(old).all(|(a, b)| a.len() == b.len()) => {
            // The same size: each row's string is replaced where it changed, on its own line.
            let (floors, _) = scan::items(text, it.value.0)?;
            if floors.len() != new.len() {
                return None;
            }
            let mut s = text[it.start..it.value.1].to_string();
            let base = it.start;
            let mut edits: Vec<(usize, usize, String)> = Vec::new();
            for (f, fl) in floors.iter().enumerate() {
                let (rows, _) = scan::items(text, fl.value.0)?;
                if rows.len() != new[f].len() {
                    return None;
                }
                for (y, r) in rows.iter().enumerate() {
                    if new[f][y] != old[f][y] {
                        edits.push((r.value.0 - base, r.value.1 - base, compact(&new[f][y])));
                    }
                }
            }
            for (a, b, with) in edits.into_iter().rev() {
                s.replace_range(a..b, &with);
            }
            s.push(',');
            if let Some((a, b)) = it.comment {
                s.push(' ');
                s.push_str(&text[a..b]);
            }
            s.push('\n');
            Some(s)
        }
        _ => None,
    }
}
