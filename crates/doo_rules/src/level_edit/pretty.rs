//! RON a person would write (issue 46): an entry without the fields that only say their default
//! (at any depth: a field is left out when the entry reads back the same without it), an entry
//! too long for one line broken one field per line (a list of short values as many a line as
//! fit), and a changed entry that its author wrote over several lines edited in place: only the
//! fields that changed are rewritten, the others keep their lines.

use super::scan::{self, Item};
use serde::Serialize;
use serde::de::DeserializeOwned;
use std::collections::HashMap;

/// The widest line the writer makes where it can (a long string stays whole).
pub const WIDTH: usize = 100;
/// A list's element this long or shorter (twice as long without brackets: a map's `"axes":
/// journeyman`) is packed with others on a line when the list breaks.
const SHORT: usize = 24;
const IND: &str = "    ";

/// Which written fields only say their default, learnt once per kind of entry, place in it,
/// field and value (a level's thousand figures ask each question once).
#[derive(Default)]
pub struct Defaults {
    known: HashMap<(&'static str, String, String), bool>,
}

/// A value a field may hold by default: a bare word (`false`, `None`, `medium`, `any`), a
/// zero, or an empty string, list, map or record.
fn may_be_default(v: &str) -> bool {
    matches!(v, "0" | "\"\"" | "[]" | "{}" | "()") || (!v.is_empty() && v.bytes().all(|b| b.is_ascii_lowercase() || b == b'_')) || v == "None"
}

/// Where the bracket of a value opens (after its name, for `Name(…)`), if it has one.
fn opening(text: &str, a: usize) -> Option<usize> {
    let b = text.as_bytes();
    let mut i = a;
    while i < b.len() && (b[i].is_ascii_alphanumeric() || b[i] == b'_') {
        i += 1;
    }
    matches!(b.get(i), Some(b'(' | b'[' | b'{')).then_some(i).filter(|&o| o == a || b[o] == b'(')
}

impl Defaults {
    /// `v` in RON on one line, without the fields that say only their default.
    pub fn strip<T: Serialize + DeserializeOwned + PartialEq>(&mut self, v: &T) -> String {
        let text = compact(v);
        self.rebuild(v, &text, 0, text.len(), "")
    }

    fn rebuild<T: DeserializeOwned + PartialEq>(&mut self, whole: &T, text: &str, a: usize, b: usize, path: &str) -> String {
        let Some(open) = opening(text, a) else { return text[a..b].to_string() };
        let Some((items, close)) = scan::items(text, open) else { return text[a..b].to_string() };
        if close + 1 != b {
            return text[a..b].to_string();
        }
        let mut parts = Vec::with_capacity(items.len());
        for it in &items {
            let v = &text[it.value.0..it.value.1];
            let here = format!("{path}/{}{}", &text[a..open], it.key.as_deref().unwrap_or("#"));
            if it.key.is_some() && may_be_default(v) && self.is_default(whole, text, it, &here, v) {
                continue;
            }
            let inner = self.rebuild(whole, text, it.value.0, it.value.1, &here);
            parts.push(format!("{}{inner}", &text[it.start..it.value.0]));
        }
        format!("{}{}{}", &text[a..=open], parts.join(", "), &text[close..b])
    }

    fn is_default<T: DeserializeOwned + PartialEq>(&mut self, whole: &T, text: &str, it: &Item, here: &str, v: &str) -> bool {
        let key = (std::any::type_name::<T>(), here.to_string(), v.to_string());
        if let Some(k) = self.known.get(&key) {
            return *k;
        }
        let without = format!("{}{}", &text[..it.start], &text[it.tail..]);
        let same = crate::data::ron_options().from_str::<T>(&without).is_ok_and(|w| &w == whole);
        self.known.insert(key, same);
        same
    }
}

/// One value in RON on one line, `Some` left out (the level reader takes values implicitly).
pub fn compact<T: Serialize>(v: &T) -> String {
    let cfg = ron::ser::PrettyConfig::new().compact_arrays(true).compact_structs(true).compact_maps(true).escape_strings(false).new_line("\n".to_string());
    crate::data::ron_options().to_string_pretty(v, cfg).unwrap_or_default()
}

fn width(s: &str) -> usize {
    s.chars().count()
}

/// The column where byte `at` of `text` stands on its line.
pub fn column(text: &str, at: usize) -> usize {
    width(&text[text[..at].rfind('\n').map_or(0, |n| n + 1)..at])
}

/// The indentation of the line `at` is on.
pub fn indent_at(text: &str, at: usize) -> String {
    let start = text[..at].rfind('\n').map_or(0, |n| n + 1);
    text[start..at].chars().take_while(|c| *c == ' ' || *c == '\t').collect()
}

/// `v` (RON on one line) starting at column `col` of a line indented `ind`, with `after` more
/// characters behind it on its line: as it is when it fits in `WIDTH`; else broken, a record
/// one field per line, a list of short values as many a line as fit, any other list one
/// element a line, each indented one step more than the line (and broken again if need be).
pub fn layout(v: &str, col: usize, ind: &str, after: usize) -> String {
    if col + width(v) + after <= WIDTH {
        return v.to_string();
    }
    let Some(open) = opening(v, 0) else { return v.to_string() };
    let Some((items, close)) = scan::items(v, open) else { return v.to_string() };
    if items.is_empty() || close + 1 != v.len() {
        return v.to_string();
    }
    let inner = format!("{ind}{IND}");
    let mut s = format!("{}\n", &v[..=open]);
    let keyed = items.iter().any(|i| i.key.is_some());
    let simple = |t: &str| width(t) <= SHORT || (width(t) <= 2 * SHORT && !t.contains(['(', '[', '{']));
    if !keyed && items.iter().all(|i| simple(&v[i.start..i.value.1])) {
        let mut line = String::new();
        for it in &items {
            let t = &v[it.start..it.value.1];
            if !line.is_empty() && width(&inner) + width(&line) + width(t) + 1 > WIDTH {
                s.push_str(&format!("{inner}{}\n", line.trim_end()));
                line.clear();
            }
            line.push_str(t);
            line.push_str(", ");
        }
        s.push_str(&format!("{inner}{}\n", line.trim_end()));
    } else {
        for it in &items {
            let head = &v[it.start..it.value.0];
            let val = &v[it.value.0..it.value.1];
            s.push_str(&format!("{inner}{head}{},\n", layout(val, width(&inner) + width(head), &inner, 1)));
        }
    }
    s.push_str(ind);
    s.push_str(&v[close..]);
    s
}

fn get<'a>(f: &[(&str, &'a str)], k: &str) -> Option<&'a str> {
    f.iter().find(|(x, _)| *x == k).map(|(_, v)| *v)
}

/// The fields of a record written on one line (`old` or `new`, as `strip` writes them).
fn fields(c: &str) -> Option<(&str, Vec<(&str, &str)>)> {
    let open = opening(c, 0)?;
    let (items, _) = scan::items(c, open)?;
    let mut out = Vec::new();
    for it in &items {
        out.push((it.key.as_deref().map(|k| &c[it.start..it.start + k.len()])?, &c[it.value.0..it.value.1]));
    }
    Some((&c[..open], out))
}

/// The entry at `text[a..b]`, which its author wrote over several lines and which read as `old`
/// (one line, as `strip` writes it), changed to `new`: each field that did not change keeps its
/// text; a changed one is rewritten where it stands (a record written over several lines, field
/// by field again), one gone is taken out, a new one goes after the last. `None`: not a record
/// of named fields, or another kind of entry (the caller writes it anew).
pub fn merge_entry(text: &str, a: usize, b: usize, old: &str, new: &str) -> Option<String> {
    let open = opening(text, a)?;
    let (items, close) = scan::items(text, open)?;
    if close + 1 != b || items.is_empty() || items.iter().any(|i| i.key.is_none()) {
        return None;
    }
    let (on, of) = fields(old)?;
    let (nn, nf) = fields(new)?;
    if on != nn || &text[a..open] != nn {
        return None;
    }
    let mut edits: Vec<(usize, usize, String)> = Vec::new();
    for (k, it) in items.iter().enumerate() {
        let key = it.key.as_deref()?;
        let (o, n) = (get(&of, key), get(&nf, key));
        if o == n {
            continue;
        }
        match n {
            Some(v) => {
                let (va, vb) = it.value;
                let nested = text[va..vb].contains('\n').then(|| merge_entry(text, va, vb, o?, v).or_else(|| merge_list(text, va, vb, o?, v))).flatten();
                let with = nested.unwrap_or_else(|| layout(v, column(text, va), &indent_at(text, it.start), 1));
                edits.push((va, vb, with));
            }
            None => edits.push(removal(text, &items, k)),
        }
    }
    let last = items.last()?;
    let added: Vec<String> = nf.iter().filter(|(k, _)| !items.iter().any(|i| i.key.as_deref() == Some(*k))).map(|(k, v)| format!("{k}: {v}")).collect();
    if !added.is_empty() {
        let at = last.value.1;
        let line_end = text[at..].find('\n').map_or(text.len(), |n| at + n);
        let one_line = format!(", {}", added.join(", "));
        let ind = indent_at(text, last.start);
        let last_line = text[..last.start].rfind('\n').map_or(0, |n| n + 1);
        if width(&text[text[..at].rfind('\n').map_or(0, |n| n + 1)..line_end]) + width(&one_line) <= WIDTH {
            edits.push((at, at, one_line));
        } else if k_line_starts_with_item(text, last_line, &items) {
            // A line of their own before the last field's line: the fields above end in commas.
            let lines: String = added.iter().map(|f| format!("{ind}{},\n", layout(f, width(&ind), &ind, 1))).collect();
            edits.push((last_line, last_line, lines));
        } else {
            edits.push((at, at, added.iter().map(|f| format!(",\n{ind}{}", layout(f, width(&ind), &ind, 1))).collect()));
        }
    }
    edits.sort_by_key(|e| (e.0, e.1));
    if edits.windows(2).any(|w| w[0].1 > w[1].0) {
        return None;
    }
    let mut s = text[a..b].to_string();
    for (x, y, with) in edits.into_iter().rev() {
        s.replace_range(x - a..y - a, &with);
    }
    Some(s)
}

/// A list its author wrote over several lines (an event's `then`), with as many elements as
/// before: each element that changed is rewritten where it stands (field by field when it is a
/// record written over several lines), the others keep their text. `None`: another shape.
fn merge_list(text: &str, a: usize, b: usize, old: &str, new: &str) -> Option<String> {
    if text.as_bytes().get(a) != Some(&b'[') || !old.starts_with('[') || !new.starts_with('[') {
        return None;
    }
    let (items, close) = scan::items(text, a)?;
    let (olds, _) = scan::items(old, 0)?;
    let (news, _) = scan::items(new, 0)?;
    if close + 1 != b || items.len() != olds.len() || olds.len() != news.len() {
        return None;
    }
    let mut s = text[a..b].to_string();
    for ((it, o), n) in items.iter().zip(&olds).zip(&news).rev() {
        let (o, n) = (&old[o.start..o.value.1], &new[n.start..n.value.1]);
        if o == n {
            continue;
        }
        let (va, vb) = (it.start, it.value.1);
        let with = match text[va..vb].contains('\n') {
            true => merge_entry(text, va, vb, o, n).unwrap_or_else(|| layout(n, column(text, va), &indent_at(text, va), 1)),
            false => layout(n, column(text, va), &indent_at(text, va), 1),
        };
        s.replace_range(va - a..vb - a, &with);
    }
    Some(s)
}

/// Whether the line starting at `line` begins (after its indentation) with a field that is not
/// the first (so the field before it ends with a comma).
fn k_line_starts_with_item(text: &str, line: usize, items: &[Item]) -> bool {
    items.iter().skip(1).any(|i| i.start >= line && text[line..i.start].trim().is_empty())
}

/// The range that takes the `k`-th field out of its record: with its comma, and its line when
/// it stood alone on it; the last field with the comma before it.
fn removal(text: &str, items: &[Item], k: usize) -> (usize, usize, String) {
    let b = text.as_bytes();
    let it = &items[k];
    let mut j = it.value.1;
    while b.get(j) == Some(&b' ') {
        j += 1;
    }
    if b.get(j) != Some(&b',') {
        let from = if k > 0 { items[k - 1].value.1 } else { it.start };
        return (from, it.value.1, String::new());
    }
    j += 1;
    while b.get(j) == Some(&b' ') {
        j += 1;
    }
    let line_start = text[..it.start].rfind('\n').map_or(0, |n| n + 1);
    let alone = text[line_start..it.start].trim().is_empty();
    if alone && b.get(j) == Some(&b'\n') {
        return (line_start, j + 1, String::new());
    }
    let mut from = it.start;
    if b.get(j) == Some(&b'\n') {
        while from > line_start && b[from - 1] == b' ' {
            from -= 1;
        }
    }
    (from, j, String::new())
}
