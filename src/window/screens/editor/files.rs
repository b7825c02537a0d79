//! The editor's files: the levels the Open list shows, the name a new level takes, the heroes
//! and monster templates the brushes put down, and a level file opened for editing.

use doo_rules::level_edit::Doc;
use doo_rules::level_file::CharacterEntry;
use std::path::{Path, PathBuf};

/// Level files in `levels/`, in the level menu's order.
pub(super) fn level_files() -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(crate::window::screens::levels::levels_dir())
        .map(|d| d.filter_map(|e| e.ok().map(|e| e.path())).filter(|p| p.extension().is_some_and(|x| x == "ron")).take(200).collect())
        .unwrap_or_default();
    crate::window::screens::levels::order_levels(&mut files);
    files
}

/// A file name in `levels/` not yet taken: new_level.ron, new_level_2.ron …
pub(super) fn new_path() -> PathBuf {
    let dir = crate::window::screens::levels::levels_dir();
    (1..1000)
        .map(|n| dir.join(if n == 1 { "new_level.ron".to_string() } else { format!("new_level_{n}.ron") }))
        .find(|p| !p.exists())
        .unwrap_or_else(|| dir.join("new_level.ron"))
}

/// The heroes of `heroes/` as the figures a level lists (their sheets worked out), by name.
pub(super) fn heroes(data: &doo_rules::data::RuleData) -> Vec<(String, CharacterEntry)> {
    let mut files: Vec<PathBuf> = std::fs::read_dir("heroes")
        .map(|d| d.filter_map(|e| e.ok().map(|e| e.path())).filter(|p| p.extension().is_some_and(|x| x == "ron")).take(64).collect())
        .unwrap_or_default();
    files.sort();
    files
        .iter()
        .take(64)
        .filter_map(|p| {
            let (h, sheet, _) = doo_rules::campaign::load_hero(p, data, data.heroes.allowance).ok()?;
            let id = h.id();
            let mut e = h.entry(&sheet, "heroes", doo_rules::rules::Pos::new(0, 0), data);
            e.id = Some(id.trim_start_matches("hero_").to_string());
            e.hero = None;
            Some((h.name.clone(), e))
        })
        .collect()
}

/// The monster templates of `assets/monsters/`.
pub(super) fn monsters(root: &Path) -> Vec<String> {
    let mut v: Vec<String> = std::fs::read_dir(doo_rules::level_file::templates_dir(root))
        .map(|d| d.filter_map(|e| e.ok()).filter_map(|e| e.path().file_stem().map(|s| s.to_string_lossy().to_string())).take(200).collect())
        .unwrap_or_default();
    v.sort();
    v
}

/// Opens a level file for editing: its text parsed (not checked: problems are shown, not
/// refused). A file that does not parse is said in the status line, and a new level is opened.
pub(super) fn open_file(path: &Path) -> Result<Doc, String> {
    let text = doo_rules::data::read_text(path, doo_rules::data::MAX_FILE_BYTES).map_err(|e| format!("{}: {}", path.display(), e.message))?;
    Doc::from_text(&path.display().to_string(), &text).map_err(|e| format!("{}:{}:{}: {}", path.display(), e.line, e.col, e.message))
}

/// A level generated from `seed` (Generate, issue 47; `FreshSeeds`): one floor of a delve
/// (`doo_rules::delve`, normal, 48×40, the ready-made party), as `doo delve` writes it, to start
/// a level from. Also the sentence that names its seed.
pub(super) fn generated_doc(data: &doo_rules::data::RuleData, seed: u64) -> Result<(Doc, String), String> {
    let root = std::env::current_dir().unwrap_or_else(|_| ".".into());
    let mut p = doo_rules::delve::Params::new(seed, &root);
    (p.floors, p.width, p.height) = (1, 48, 40);
    let delve = doo_rules::delve::generate(&p, data)?;
    let text = delve.texts.first().ok_or("the generator made no floor")?;
    let doc = Doc::from_text("generated", text).map_err(|e| e.to_string())?;
    Ok((doc, format!("A generated level (seed {seed}, normal, 48×40, proven solvable)")))
}

/// A level just opened: the cursor on its first figure, shown in the inspector (on (1, 1)
/// when it has none).
pub(super) fn first_figure(ed: &mut super::Editor) -> super::EditorCursor {
    let first = ed.doc.level.characters.iter().position(|c| c.pos.is_some_and(|p| p.floor == 0));
    ed.selected = first;
    match first.and_then(|k| ed.doc.level.characters[k].pos) {
        Some(p) => super::EditorCursor(p.x, p.y),
        None => super::EditorCursor(1, 1),
    }
}
