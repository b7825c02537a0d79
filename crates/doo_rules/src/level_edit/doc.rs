//! The level being edited (issue 31): the level, the text it was read from (its comments are
//! kept on save), the floor in view, undo and redo, and every edit the editor makes — painting
//! a rectangle with a brush, placing and setting up figures, copy and paste, resizing, floors,
//! the level's own settings. Plain data: the window calls these and draws the result.

pub use super::brush::{Brush, Rect, Stroke};
use super::brush::{at, pos, unique};
use super::paint::{clear_where, is_dark, is_exit, lost, paint_level, place_figure, remove_figures, set_tile};
use crate::data::LoadError;
use crate::level_crawl::{EncounterDef, LevelMode};
use crate::level_file::{CharacterEntry, Control, Level, MAX_MAP_SIDE, SideDef};
use crate::rules::explore::Awareness;
use crate::rules::grid::Pos;
use crate::rules::profile::Posture;

/// Steps of undo kept.
pub const MAX_UNDO: usize = 200;
/// A new level's size (a designer resizes it).
pub const NEW_SIZE: (usize, usize) = (16, 10);
/// The smallest map side the editor makes.
pub const MIN_SIDE: usize = 3;

/// Copied spaces: their map characters and what stands in them, from the top-left corner.
#[derive(Clone, Debug, PartialEq, Default)]
pub struct Clip {
    pub rows: Vec<Vec<char>>,
    pub figures: Vec<CharacterEntry>,
}

/// The map characters a brush may paint.
pub const TILES: &[(char, &str)] = &[
    ('.', "floor"),
    ('#', "wall"),
    ('+', "closed door"),
    ('/', "open door"),
    ('L', "locked door"),
    ('S', "secret door"),
    ('O', "pillar"),
    ('_', "pit"),
    ('~', "difficult ground"),
    ('>', "stairs up"),
    ('<', "stairs down"),
];

/// The profiles and ruleset a level can name, in the order the editor cycles them.
pub const PROFILES: &[&str] = &["DOO-2017", "CORE-STRICT", "ADV-2017", "LEGACY-2016", "LEGACY-2016-EARLY", "A4"];

/// The level being edited.
#[derive(Clone, Debug)]
pub struct Doc {
    pub level: Level,
    /// The text the level was read from, and the level it parsed as (kept on save).
    pub source: Option<(String, Level)>,
    /// The floor in view.
    pub floor: usize,
    undo: Vec<Level>,
    redo: Vec<Level>,
    /// The level as last saved (or read).
    saved: Level,
    /// The area of each event whose trigger was cycled away from `enters` (it comes back with it).
    pub(super) areas: std::collections::BTreeMap<String, crate::rules::story::Area>,
    /// What resizes took off the map since the last save (`dropped` names what is still gone).
    pub(super) cut: Vec<(String, Pos)>,
    /// Issue 46: the action list the event form shows (`event_nest`): event k's own
    /// (an empty path), or a `one_of` branch's or a choice option's, as (action, branch) steps.
    pub(super) scope: (usize, Vec<(usize, usize)>),
    /// The rows an `acted` trigger's `how` steps through (the window sets them from the
    /// level's profile).
    pub deed_rows: super::deed_rows::DeedRows,
}

/// Undo steps kept for a level this size: `MAX_UNDO`, fewer for a huge level (each step is a
/// whole copy; about 64 MB of copies at most), never fewer than 8.
fn undo_depth(l: &Level) -> usize {
    let cells: usize = l.floors.iter().flat_map(|f| f.iter()).map(String::len).sum();
    let weight = cells + 200 * (l.characters.len() + l.events.len() + l.chests.len() + l.traps.len() + l.items.len()) + 1024;
    (64_000_000 / weight).clamp(8, MAX_UNDO)
}

/// A new level: rock all over, two sides (the heroes, played by a person; the monsters, by the AI).
pub fn new_level(w: usize, h: usize) -> Level {
    let side = |id: &str, name: &str, control| SideDef { id: id.into(), name: Some(name.into()), control, player: None };
    Level {
        version: crate::level_file::LEVEL_VERSION,
        name: "New level".into(),
        briefing: String::new(),
        profile: None,
        options: Default::default(),
        turn_limit: None,
        legend: Default::default(),
        floors: vec![vec!["#".repeat(w); h]],
        floor_names: vec![],
        stairs: vec![],
        sides: vec![side("heroes", "The Heroes", Control::Human), side("monsters", "The Monsters", Control::Ai)],
        characters: vec![],
        victory: vec![],
        mode: LevelMode::Crisis,
        camp: true,
        dark: vec![],
        explorers: vec![],
        doors: vec![],
        keys: vec![],
        chests: vec![],
        items: vec![],
        traps: vec![],
        encounters: vec![],
        checks: vec![],
        minute: 0,
        lights: vec![],
        non_hostile: vec![],
        events: vec![],
        vars: Default::default(),
    }
}

/// The index of the figure's encounter; one made for it (unaware, alone) when it has none.
pub(super) fn encounter_of(l: &mut Level, id: &str) -> usize {
    if let Some(k) = l.encounters.iter().position(|e| e.members.iter().any(|m| m == id)) {
        return k;
    }
    let taken: Vec<String> = l.encounters.iter().map(|e| e.id.clone()).collect();
    l.encounters.push(EncounterDef {
        id: unique(id, &taken),
        members: vec![id.to_string()],
        awareness: Awareness::Unaware,
        non_hostile: false,
        arrives: false,
        says: None,
        trades: vec![],
        orders: None,
    });
    l.encounters.len() - 1
}

fn next<T: PartialEq + Clone>(list: &[T], now: &T) -> T {
    let k = list.iter().position(|x| x == now).map_or(0, |k| (k + 1) % list.len());
    list[k].clone()
}

impl Doc {
    pub fn new(level: Level) -> Doc {
        Doc {
            saved: level.clone(),
            level,
            source: None,
            floor: 0,
            undo: vec![],
            redo: vec![],
            areas: Default::default(),
            cut: vec![],
            scope: (0, vec![]),
            deed_rows: Default::default(),
        }
    }

    /// A level file's text, parsed (not checked: a level with problems can be edited).
    pub fn from_text(file: &str, text: &str) -> Result<Doc, LoadError> {
        let level: Level = crate::data::parse_ron(file, text)?;
        let mut d = Doc::new(level.clone());
        d.source = Some((text.to_string(), level));
        Ok(d)
    }

    /// The level's text as it would be saved.
    pub fn text(&self) -> String {
        super::write::write(&self.level, self.source.as_ref().map(|(t, l)| (t.as_str(), l)))
    }

    /// Saved: the written text becomes the source the next save keeps.
    pub fn mark_saved(&mut self, text: String) {
        self.saved = self.level.clone();
        self.source = Some((text, self.level.clone()));
        self.cut.clear();
    }

    /// The level as last saved (or read).
    pub(super) fn saved(&self) -> &Level {
        &self.saved
    }

    /// The event form back at the event's own actions (a form opened anew starts there, not
    /// inside the branch or option it was left in).
    pub fn leave_scope(&mut self) {
        self.scope = (0, vec![]);
    }

    pub fn dirty(&self) -> bool {
        self.level != self.saved
    }

    /// Width and height of the floor in view.
    pub fn size(&self) -> (usize, usize) {
        let rows = self.level.floors.get(self.floor).map_or(&[][..], |f| &f[..]);
        (rows.iter().map(|r| r.chars().count()).max().unwrap_or(0), rows.len())
    }

    pub fn tile(&self, x: i32, y: i32) -> Option<char> {
        let row = self.level.floors.get(self.floor)?.get(usize::try_from(y).ok()?)?;
        row.chars().nth(usize::try_from(x).ok()?)
    }

    /// One edit: kept for undo when it changed the level.
    pub fn edit(&mut self, f: impl FnOnce(&mut Level, usize)) -> bool {
        let before = self.level.clone();
        f(&mut self.level, self.floor);
        if self.level == before {
            return false;
        }
        self.undo.push(before);
        let keep = undo_depth(&self.level);
        if self.undo.len() > keep {
            self.undo.drain(..self.undo.len() - keep);
        }
        self.redo.clear();
        true
    }

    pub fn undo(&mut self) -> bool {
        let Some(l) = self.undo.pop() else { return false };
        self.redo.push(std::mem::replace(&mut self.level, l));
        self.floor = self.floor.min(self.level.floors.len().saturating_sub(1));
        true
    }

    pub fn redo(&mut self) -> bool {
        let Some(l) = self.redo.pop() else { return false };
        self.undo.push(std::mem::replace(&mut self.level, l));
        self.floor = self.floor.min(self.level.floors.len().saturating_sub(1));
        true
    }

    pub fn can_undo(&self) -> bool {
        !self.undo.is_empty()
    }

    pub fn can_redo(&self) -> bool {
        !self.redo.is_empty()
    }

    /// Paints `area` (clipped to the map) with `brush`. A figure, chest, trap or light goes in
    /// the rectangle's first space only.
    pub fn paint(&mut self, area: Rect, brush: &Brush) -> bool {
        let (w, h) = self.size();
        if w == 0 || h == 0 {
            return false;
        }
        let area = Rect { x0: area.x0.max(0), y0: area.y0.max(0), x1: area.x1.min(w as i32 - 1), y1: area.y1.min(h as i32 - 1) };
        if area.x0 > area.x1 || area.y0 > area.y1 {
            return false;
        }
        self.edit(|l, f| paint_level(l, f, area, brush))
    }

    /// The index of the figure standing in the space, on the floor in view.
    pub fn figure_at(&self, x: i32, y: i32) -> Option<usize> {
        self.level.characters.iter().position(|c| at(&c.pos, x, y, self.floor))
    }

    /// What is in the space, in words (the inspector and the status line).
    pub fn describe(&self, x: i32, y: i32) -> Vec<String> {
        let l = &self.level;
        let f = self.floor;
        let mut out = Vec::new();
        if let Some(t) = self.tile(x, y) {
            let name = l
                .legend
                .get(&t)
                .map(|s| format!("{s:?}"))
                .or_else(|| TILES.iter().find(|(c, _)| *c == t).map(|(_, n)| n.to_string()))
                .unwrap_or_else(|| format!("'{t}'"));
            let key = l.doors.iter().find(|d| d.pos == pos(x, y, f)).and_then(|d| d.lock.as_ref()?.key.clone());
            let key = key.map_or(String::new(), |k| format!(" (key: {})", l.keys.iter().find(|d| d.id == k).map_or(k.clone(), |d| d.name.clone())));
            out.push(format!("({x}, {y}): {name}{key}"));
        }
        for c in l.characters.iter().filter(|c| at(&c.pos, x, y, f)) {
            let what = c.template.clone().unwrap_or_else(|| "figure".into());
            out.push(format!("{} ({what}) of {}", c.name.clone().or(c.id.clone()).unwrap_or_default(), c.side.clone().unwrap_or_default()));
        }
        for c in l.chests.iter().filter(|c| c.pos == pos(x, y, f)) {
            out.push(format!("chest {}{} with {} item(s)", c.id, if c.lock.is_some() { " (locked)" } else { "" }, c.items.len()));
        }
        for t in l.traps.iter().filter(|t| t.pos == pos(x, y, f)) {
            out.push(format!("trap {}{}", t.id, if t.hidden { " (hidden)" } else { "" }));
        }
        for i in l.items.iter().filter(|i| i.pos == pos(x, y, f)) {
            out.push(format!("item {}", i.item));
        }
        if l.lights.iter().any(|li| li.pos == Some(pos(x, y, f))) {
            out.push("a light".into());
        }
        if is_exit(l, pos(x, y, f)) {
            out.push("an exit".into());
        }
        if is_dark(l, pos(x, y, f)) {
            out.push("dark".into());
        }
        out
    }

    /// The figure's side: the next of the level's sides.
    pub fn cycle_side(&mut self, i: usize) -> bool {
        let sides: Vec<String> = self.level.sides.iter().map(|s| s.id.clone()).collect();
        if sides.is_empty() {
            return false;
        }
        self.edit(|l, _| {
            if let Some(c) = l.characters.get_mut(i) {
                c.side = Some(next(&sides, &c.side.clone().unwrap_or_default()));
            }
        })
    }

    /// The figure's AI behaviour: none (its template's), then each of `behaviours`.
    pub fn cycle_behaviour(&mut self, i: usize, behaviours: &[String]) -> bool {
        let mut list: Vec<Option<String>> = vec![None];
        list.extend(behaviours.iter().cloned().map(Some));
        self.edit(|l, _| {
            if let Some(c) = l.characters.get_mut(i) {
                c.behaviour = next(&list, &c.behaviour);
            }
        })
    }

    /// The figure's stance in a crawl: unaware, alert, in ambush (its encounter's awareness,
    /// R-EXP-23), then non-hostile (R-CP-16), then unaware again.
    pub fn cycle_stance(&mut self, i: usize) -> bool {
        let Some(id) = self.level.characters.get(i).and_then(|c| c.id.clone()) else { return false };
        self.edit(|l, _| {
            let k = encounter_of(l, &id);
            let e = &mut l.encounters[k];
            match (e.non_hostile, e.awareness) {
                (true, _) => {
                    e.non_hostile = false;
                    e.awareness = Awareness::Unaware;
                }
                (false, Awareness::Unaware) => e.awareness = Awareness::Alert,
                (false, Awareness::Alert) => e.awareness = Awareness::Ambush,
                (false, Awareness::Ambush) => {
                    e.awareness = Awareness::Unaware;
                    e.non_hostile = true;
                }
            }
        })
    }

    /// The figure's stance in words.
    pub fn stance(&self, i: usize) -> String {
        let Some(id) = self.level.characters.get(i).and_then(|c| c.id.clone()) else { return String::new() };
        match self.level.encounters.iter().find(|e| e.members.contains(&id)) {
            Some(e) if e.non_hostile => "non-hostile".into(),
            Some(e) => format!("{:?}", e.awareness).to_lowercase(),
            None => "unaware".into(),
        }
    }

    /// The figure's starting posture: standing, sitting, kneeling, prone.
    pub fn cycle_posture(&mut self, i: usize) -> bool {
        let list = [None, Some(Posture::Sitting), Some(Posture::Kneeling), Some(Posture::Prone)];
        self.edit(|l, _| {
            if let Some(c) = l.characters.get_mut(i) {
                let now = if c.posture == Some(Posture::Standing) { None } else { c.posture };
                c.posture = next(&list, &now);
            }
        })
    }

    /// The figure's starting hit points, `d` more or fewer (unset: full; at least 1).
    pub fn add_hp(&mut self, i: usize, d: i32, full: i32) -> bool {
        self.edit(|l, _| {
            if let Some(c) = l.characters.get_mut(i) {
                let hp = (c.hp.unwrap_or(full) + d).clamp(1, full.max(1));
                c.hp = (hp != full).then_some(hp);
            }
        })
    }

    pub fn remove_figure(&mut self, i: usize) -> bool {
        self.edit(|l, _| remove_figures(l, |k, _| k == i))
    }

    /// The side's control: a person or the AI.
    pub fn cycle_control(&mut self, side: usize) -> bool {
        self.edit(|l, _| {
            if let Some(s) = l.sides.get_mut(side) {
                s.control = if s.control == Control::Human { Control::Ai } else { Control::Human };
            }
        })
    }

    /// The next profile or ruleset (`PROFILES`); the default (none named) is DOO-2017.
    pub fn cycle_profile(&mut self) -> bool {
        self.edit(|l, _| {
            let now = l.profile.clone().unwrap_or_else(|| PROFILES[0].to_string());
            let n = next(&PROFILES.iter().map(|s| s.to_string()).collect::<Vec<_>>(), &now);
            l.profile = Some(n);
        })
    }

    /// A crawl (Exploration Mode, §24) or one fight.
    pub fn toggle_mode(&mut self) -> bool {
        self.edit(|l, _| l.mode = if l.mode == LevelMode::Crisis { LevelMode::Exploration } else { LevelMode::Crisis })
    }

    pub fn set_name(&mut self, name: &str) -> bool {
        self.edit(|l, _| l.name = name.to_string())
    }

    pub fn set_briefing(&mut self, text: &str) -> bool {
        self.edit(|l, _| l.briefing = text.to_string())
    }

    /// Every floor `w` × `h` (new spaces are rock; what stood outside is removed).
    pub fn resize(&mut self, w: usize, h: usize) -> bool {
        let w = w.clamp(MIN_SIDE, MAX_MAP_SIDE as usize);
        let h = h.clamp(MIN_SIDE, MAX_MAP_SIDE as usize);
        let before = self.level.clone();
        let done = self.edit(|l, _| {
            if l.floors.is_empty() {
                l.floors.push(vec![]);
            }
            for rows in &mut l.floors {
                rows.resize(h, String::new());
                for r in rows.iter_mut() {
                    let mut c: Vec<char> = r.chars().take(w).collect();
                    c.resize(w, '#');
                    *r = c.into_iter().collect();
                }
            }
            let inside = |p: &Pos| p.x >= 0 && p.y >= 0 && (p.x as usize) < w && (p.y as usize) < h;
            clear_where(l, |p| !inside(p), |r, _| r.x0 < 0 || r.y0 < 0 || r.x1 as i64 >= w as i64 || r.y1 as i64 >= h as i64);
        });
        if done {
            self.cut.extend(lost(&before, &self.level));
        }
        done
    }

    /// Another floor above the others, the same size, all rock.
    pub fn add_floor(&mut self) -> bool {
        // A file may have no floor, or an empty one: the new floor is then a new level's size.
        let (w, h) = match self.size() {
            (0, _) | (_, 0) => NEW_SIZE,
            s => s,
        };
        if self.level.floors.len() >= crate::rules::grid::MAX_FLOORS {
            return false;
        }
        let done = self.edit(|l, _| l.floors.push(vec!["#".repeat(w); h]));
        if done {
            self.floor = self.level.floors.len() - 1;
        }
        done
    }

    /// The spaces of `area` and the figures in them.
    pub fn copy(&self, area: Rect) -> Clip {
        let rows = (area.y0..=area.y1).map(|y| (area.x0..=area.x1).map(|x| self.tile(x, y).unwrap_or('#')).collect()).collect();
        let figures = self
            .level
            .characters
            .iter()
            .filter(|c| c.pos.is_some_and(|p| p.floor as usize == self.floor && area.contains(p.x, p.y)))
            .map(|c| {
                let mut c = c.clone();
                c.pos = c.pos.map(|p| Pos::on(p.x - area.x0, p.y - area.y0, 0));
                c
            })
            .collect();
        Clip { rows, figures }
    }

    /// `clip` with its top-left corner at (x, y); what falls outside the map is left out.
    pub fn paste(&mut self, x: i32, y: i32, clip: &Clip) -> bool {
        self.paste_told(x, y, clip).edited
    }

    /// `paste`, one undo step, and the figures it took off the map (issue 42: a pasted figure
    /// takes the place of the one standing there, and the designer is told which): their ids
    /// with their spaces, in the level's order.
    pub fn paste_told(&mut self, x: i32, y: i32, clip: &Clip) -> Pasted {
        let (w, h) = self.size();
        // Each figure by its id (or template) and space: a pasted figure gets a fresh id, so a
        // key missing afterwards is a figure taken off the map.
        let keys = |l: &Level| -> Vec<(String, i32, i32)> {
            l.characters
                .iter()
                .filter_map(|c| c.pos.map(|p| (c.id.clone().or_else(|| c.template.clone()).unwrap_or_else(|| "figure".into()), p.x, p.y)))
                .collect()
        };
        let before = keys(&self.level);
        let done = self.edit(|l, f| {
            for (dy, row) in clip.rows.iter().enumerate() {
                for (dx, ch) in row.iter().enumerate() {
                    set_tile(l, f, x + dx as i32, y + dy as i32, *ch);
                }
            }
            for c in &clip.figures {
                let Some(p) = c.pos else { continue };
                let (px, py) = (x + p.x, y + p.y);
                if px < 0 || py < 0 || px as usize >= w || py as usize >= h {
                    continue;
                }
                remove_figures(l, |_, o| at(&o.pos, px, py, f));
                place_figure(l, f, px, py, c);
            }
        });
        let after = keys(&self.level);
        let removed = if done { before.into_iter().filter(|k| !after.contains(k)).collect() } else { Vec::new() };
        Pasted { edited: done, removed }
    }
}

/// What a paste did: whether the level changed, and the figures it took off the map (id or
/// template, and space).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Pasted {
    pub edited: bool,
    pub removed: Vec<(String, i32, i32)>,
}

impl Pasted {
    /// The editor's status line: every figure taken off the map is named (issue 42).
    pub fn line(&self) -> String {
        if !self.edited {
            return "Pasted: nothing changed.".into();
        }
        if self.removed.is_empty() {
            return "Pasted.".into();
        }
        let names: Vec<String> = self.removed.iter().map(|(id, x, y)| format!("{id} at ({x}, {y})")).collect();
        format!("Pasted over {} figure(s), now removed: {}. Ctrl+Z brings them back.", self.removed.len(), names.join(", "))
    }
}
