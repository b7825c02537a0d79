//! The rules reference: every rule id the game shows (in refusals, tooltips, the log) with a
//! short explanation in our own words, read from `assets/rules/reference/*.ron` (maps of id →
//! `(title, text)`; an id written twice, in one file or across files, is an error). The window
//! opens it at a rule id.

use serde::Deserialize;
use std::collections::BTreeMap;
use std::path::Path;

/// One entry of the reference.
#[derive(Clone, Debug, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Entry {
    pub title: String,
    pub text: String,
}

#[derive(Deserialize)]
#[serde(transparent)]
struct File(#[serde(deserialize_with = "crate::rules::de::unique_keys")] BTreeMap<String, Entry>);

/// Most characters of an entry's text and title (the reference is short by design).
pub const MAX_TEXT: usize = 400;
pub const MAX_TITLE: usize = 48;

/// All entries, by rule id.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Reference {
    entries: BTreeMap<String, Entry>,
}

impl Reference {
    /// Reads every `.ron` file of `dir` (in name order). Errors are `file:line:col: …`.
    pub fn load(dir: &Path) -> Result<Self, String> {
        let mut files: Vec<_> = std::fs::read_dir(dir)
            .map_err(|e| format!("{}: {e}", dir.display()))?
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| p.extension().is_some_and(|x| x == "ron"))
            .collect();
        files.sort();
        let mut out = Reference::default();
        for path in files {
            let text = crate::data::read_text(&path, crate::data::MAX_FILE_BYTES).map_err(|e| e.to_string())?;
            out.add(&path.display().to_string(), &text)?;
        }
        Ok(out)
    }

    /// Adds the entries of one file's text.
    pub fn add(&mut self, file: &str, text: &str) -> Result<(), String> {
        let File(map) = crate::data::parse_ron(file, text).map_err(|e| e.to_string())?;
        for (id, e) in map {
            let problem = if self.entries.contains_key(&id) {
                Some("is written in another reference file too".to_string())
            } else if e.title.chars().count() > MAX_TITLE || e.text.chars().count() > MAX_TEXT {
                Some(format!("is too long (title at most {MAX_TITLE} characters, text at most {MAX_TEXT})"))
            } else if !looks_like_rule_id(&id) {
                Some("is not a rule id (letters and dashes, then a number: R-FS-5, G-12, UNDO-1)".to_string())
            } else {
                None
            };
            if let Some(p) = problem {
                let (line, col) = locate_key(text, &id);
                return Err(format!("{file}:{line}:{col}: the rule id '{id}' {p}"));
            }
            self.entries.insert(id, e);
        }
        Ok(())
    }

    pub fn get(&self, id: &str) -> Option<&Entry> {
        self.entries.get(id)
    }

    pub fn len(&self) -> usize {
        self.entries.len()
    }

    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// All ids, in reading order (by family, then number: R-FS-2 before R-FS-10).
    pub fn ids(&self) -> Vec<&str> {
        let mut v: Vec<&str> = self.entries.keys().map(String::as_str).collect();
        v.sort_by_key(|id| sort_key(id));
        v
    }

    /// The ids of `id`'s family (R-FS-* for R-FS-5), in order.
    pub fn family(&self, id: &str) -> Vec<&str> {
        let fam = family_of(id);
        self.ids().into_iter().filter(|i| family_of(i) == fam).collect()
    }
}

/// `R-FS` for `R-FS-5`, `G` for `G-12`.
pub fn family_of(id: &str) -> &str {
    id.rsplit_once('-').map_or(id, |(f, _)| f)
}

fn sort_key(id: &str) -> (String, u32) {
    match id.rsplit_once('-') {
        Some((f, n)) => (
            f.to_string(),
            match n.split_once('.') {
                // A4-3.19 after A4-3.9, before A4-4.1
                Some((a, b)) => a.parse::<u32>().unwrap_or(999).saturating_mul(1000).saturating_add(b.parse().unwrap_or(999)),
                None => n.parse::<u32>().map_or(u32::MAX, |x| x.saturating_mul(1000)),
            },
        ),
        None => (id.to_string(), 0),
    }
}

/// Upper-case letters and dashes, then a dash and a number.
pub fn looks_like_rule_id(id: &str) -> bool {
    let Some((fam, n)) = id.rsplit_once('-') else { return false };
    !fam.is_empty()
        && fam.len() <= 16
        && fam.chars().all(|c| c.is_ascii_uppercase() || c == '-' || c.is_ascii_digit())
        && fam.starts_with(|c: char| c.is_ascii_uppercase())
        && !n.is_empty()
        && n.len() <= 5
        // `R-FS-5`, or a numbered sub-rule such as ruleset A4's `A4-3.19`
        && match n.split_once('.') {
            None => n.chars().all(|c| c.is_ascii_digit()),
            Some((a, b)) => !a.is_empty() && !b.is_empty() && a.chars().chain(b.chars()).all(|c| c.is_ascii_digit()),
        }
}

/// The rule ids in a text (a refusal, a tooltip, a log line), in order, each once.
pub fn ids_in(text: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for word in text.split(|c: char| !(c.is_ascii_alphanumeric() || c == '-' || c == '.')) {
        let w = word.trim_matches(['-', '.']);
        if looks_like_rule_id(w) && w.contains(|c: char| c.is_ascii_uppercase()) && !out.iter().any(|o| o == w) {
            out.push(w.to_string());
        }
    }
    out
}

fn locate_key(text: &str, id: &str) -> (usize, usize) {
    let needle = format!("\"{id}\"");
    let Some(at) = text.find(&needle) else { return (1, 1) };
    let line = text[..at].matches('\n').count() + 1;
    let col = text[..at].rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
    (line, col)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_are_found_in_text() {
        assert_eq!(ids_in("Lunk cannot run - R-MOVE-3 (see also G-12, C-4)"), vec!["R-MOVE-3", "G-12", "C-4"]);
        assert_eq!(ids_in("UNDO-1: nothing to take back; R-FS-5."), vec!["UNDO-1", "R-FS-5"]);
        assert!(ids_in("a d6-pool of 2D6-1 at 3-4 AP").is_empty());
    }

    #[test]
    fn a_duplicate_id_across_files_is_refused_with_its_place() {
        let mut r = Reference::default();
        r.add("a.ron", "{\"R-FS-5\": (title: \"Free steps\", text: \"x\")}").unwrap();
        let e = r.add("b.ron", "{\n  \"R-FS-5\": (title: \"Again\", text: \"y\")}").unwrap_err();
        assert!(e.starts_with("b.ron:2:3: the rule id 'R-FS-5' is written in another"), "{e}");
        let e = Reference::default().add("c.ron", "{\"R-FS-5\": (title: \"a\", text: \"b\"), \"R-FS-5\": (title: \"a\", text: \"b\")}").unwrap_err();
        assert!(e.contains("written twice"), "{e}");
    }

    #[test]
    fn families_are_in_number_order() {
        let mut r = Reference::default();
        r.add("a.ron", "{\"R-FS-10\": (title: \"a\", text: \"b\"), \"R-FS-2\": (title: \"a\", text: \"b\"), \"G-1\": (title: \"a\", text: \"b\")}").unwrap();
        assert_eq!(r.family("R-FS-10"), vec!["R-FS-2", "R-FS-10"]);
        assert_eq!(r.ids(), vec!["G-1", "R-FS-2", "R-FS-10"]);
    }
}
