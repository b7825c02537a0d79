//! The in-game rules reference (issue 17): every rule id the game can show a player — in a
//! refusal (`Violation::new("R-…", …)`), a description or tooltip, a log line, a rule table's
//! `rule` field — has an entry in `assets/rules/reference/`, and the files load (no id twice,
//! no over-long text).

use std::path::{Path, PathBuf};

fn root() -> &'static Path {
    crate::common::root()
}

/// Words shaped like rule ids that are not rules: the profiles' names, an encoding.
const NOT_RULES: [&str; 6] = ["DOO-2017", "ADV-2017", "LEGACY-2016", "CORE-2017", "UTF-8", "UTF-16"];

/// The rule ids inside string literals of the game's code and data (what a player can be shown).
fn shown_ids() -> std::collections::BTreeMap<String, String> {
    let all: Vec<PathBuf> = ["src", "crates/doo_rules/src", "assets"].iter().flat_map(|d| crate::common::files_with(&root().join(d), &["rs", "ron"])).collect();
    let mut out = std::collections::BTreeMap::new();
    for f in all {
        let rel = f.strip_prefix(root()).unwrap().display().to_string();
        // The reference itself, and the reference module's tests (made-up ids).
        if rel.starts_with("assets/rules/reference") || rel.ends_with("reference.rs") {
            continue;
        }
        let text = std::fs::read_to_string(&f).unwrap();
        for line in text.lines() {
            let code = if rel.ends_with(".rs") { line.split("//").next().unwrap_or("") } else { line };
            // Odd pieces between quotes are inside string literals.
            for s in code.split('"').skip(1).step_by(2) {
                for id in doo_rules::reference::ids_in(s) {
                    if !NOT_RULES.contains(&id.as_str()) && !id.starts_with("S-") {
                        out.entry(id).or_insert_with(|| rel.clone());
                    }
                }
            }
        }
    }
    out
}

#[test]
fn every_rule_id_the_game_shows_has_a_reference_entry() {
    let r = doo_rules::reference::Reference::load(&root().join("assets/rules/reference")).unwrap_or_else(|e| panic!("{e}"));
    let shown = shown_ids();
    assert!(shown.len() > 100, "the scan finds the rule ids of the code ({} found)", shown.len());
    let missing: Vec<String> = shown.iter().filter(|(id, _)| r.get(id).is_none()).map(|(id, f)| format!("{id} (in {f})")).collect();
    assert!(missing.is_empty(), "{} rule ids the game shows have no entry in assets/rules/reference/: {}", missing.len(), missing.join(", "));
    // Spot checks that the text is about the rule (not any text under any id).
    assert!(r.get("R-FS-5").is_some_and(|e| e.text.to_lowercase().contains("free step")), "{:?}", r.get("R-FS-5"));
    assert!(r.get("UNDO-1").is_some_and(|e| e.text.to_lowercase().contains("undo") || e.text.to_lowercase().contains("take")), "{:?}", r.get("UNDO-1"));
}

#[test]
fn the_reference_covers_every_family_in_order() {
    let r = doo_rules::reference::Reference::load(&root().join("assets/rules/reference")).unwrap();
    assert!(r.len() >= 350, "conflicts, gaps and every rule: {} entries", r.len());
    let fs = r.family("R-FS-5");
    assert!(fs.len() >= 5 && fs.windows(2).all(|w| w[0] != w[1]), "{fs:?}");
    assert_eq!(fs.first().copied(), Some("R-FS-1"), "{fs:?}");
}

/// The sound effects (issue 17, the `audio` feature) are real sounds: every one the window plays
/// (`src/window/sound.rs`) is a 16-bit mono PCM WAV at 22 050 Hz under `assets/sfx/`, between
/// 50 ms and 2 s long, neither silent nor clipped.
#[test]
fn the_sound_effects_are_short_clean_wavs() {
    let code = std::fs::read_to_string(root().join("src/window/sound.rs")).unwrap();
    let names: Vec<&str> = code.split("l(\"").skip(1).filter_map(|s| s.split('"').next()).collect();
    assert!(names.len() >= 8, "steps, hits, misses, reflexes, spells, doors, victory, defeat: {names:?}");
    for n in names {
        let path = root().join(format!("assets/sfx/{n}.wav"));
        let b = std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        let u16_at = |o: usize| u16::from_le_bytes([b[o], b[o + 1]]);
        let u32_at = |o: usize| u32::from_le_bytes([b[o], b[o + 1], b[o + 2], b[o + 3]]);
        assert!(&b[0..4] == b"RIFF" && &b[8..16] == b"WAVEfmt ", "{n}: a WAV file");
        assert_eq!((u16_at(20), u16_at(22), u32_at(24), u16_at(34)), (1, 1, 22_050, 16), "{n}: PCM, mono, 22 050 Hz, 16-bit");
        assert_eq!(&b[36..40], b"data", "{n}");
        let data: Vec<i16> = b[44..44 + u32_at(40) as usize].chunks_exact(2).map(|c| i16::from_le_bytes([c[0], c[1]])).collect();
        let secs = data.len() as f64 / 22_050.0;
        let peak = data.iter().map(|s| s.unsigned_abs()).max().unwrap_or(0) as f64 / 32_767.0;
        assert!((0.05..=2.0).contains(&secs), "{n}: {secs:.2} s");
        assert!((0.2..0.999).contains(&peak), "{n}: peak {peak:.3} (silent or clipped)");
    }
}

/// The figure book (issue 17) is whole, its weapon skills are real ones, and the atlas has a
/// 64-pixel cell for every kind and mark it names.
#[test]
fn the_figure_book_matches_the_art_and_the_equipment() {
    let data = doo_rules::data::RuleData::load(root()).unwrap_or_else(|e| panic!("{e}"));
    let f = &data.figures;
    f.check().unwrap_or_else(|e| panic!("{e}"));
    let png = std::fs::read(root().join("assets/art/figures.png")).unwrap();
    let (w, h) = (u32::from_be_bytes(png[16..20].try_into().unwrap()), u32::from_be_bytes(png[20..24].try_into().unwrap()));
    assert_eq!((w, h), (64 * f.cells() as u32, 64), "figures.png is one row of {} cells of 64 px", f.cells());
    let eq = std::fs::read_to_string(root().join("assets/equipment/equipment.ron")).unwrap();
    for skill in f.by_skill.keys() {
        assert!(eq.contains(&format!("skill: \"{skill}\"")), "by_skill names '{skill}', a skill no weapon uses");
    }
    // Every monster template is drawn as itself.
    for e in std::fs::read_dir(root().join("assets/monsters")).unwrap().flatten() {
        let name = e.path().file_stem().unwrap().to_string_lossy().to_string();
        assert!(f.index(&name).is_some(), "the template '{name}' has no figure of its own");
    }
    let mut broken = (**f).clone();
    broken.marks.remains = 3;
    assert!(broken.check().is_err(), "a mark on a kind's cell is refused");
}
