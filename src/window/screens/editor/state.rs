//! The editor's state and its actions (issue 31), a leaf the editor's files share: the level
//! being edited and what surrounds it (`Editor`), the cursor, the brushes (`Tool`), every edit
//! as an `EditAct`, and the play-test marker.

use crate::window::session::MatchSetup;
use bevy::prelude::*;
use doo_rules::level_edit::leave::{Answer, Leave};
use doo_rules::level_edit::{Brush, Doc, Found, IdKind, Mirror, PROFILES, Problem, Rect, TILES};
use doo_rules::level_file::CharacterEntry;
use std::path::PathBuf;

/// `apply_acts`: what follows an act's edit (Find's jump, the figure form's pools) runs after it.
#[derive(SystemSet, Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct ApplyActs;

/// The editor's frame: keys and pointer become `EditAct`s, they are applied, then drawn.
#[derive(SystemSet, Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum EditorSystems {
    Input,
    Apply,
    Draw,
}

/// What the brush puts down (the palette's buttons and keys choose it).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Tool {
    /// `TILES[k]`: a map character.
    Tile(u8),
    Room,
    /// The k-th hero of `heroes/`.
    Hero(u8),
    /// The k-th monster template of `assets/monsters/`.
    Monster(u8),
    Chest,
    Trap,
    Exit,
    Dark,
    Light,
    Erase,
    /// Click a figure to set it up in the inspector.
    Select,
}

/// A text field of the level being typed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Field {
    Name,
    Briefing,
    /// The story line of the k-th level event.
    Event(u8),
    /// The text of the k-th event's a-th action (a story line), from the event form.
    Action(u8, u8),
    /// The k-th event's id (renamed wherever it is named).
    EventId(u8),
    /// A typed row (name, id, what it says) of the k-th figure's form.
    Figure(u16, u8),
    /// The label of option o of the k-th event's a-th action (a choice).
    ChoiceLabel(u8, u8, u8),
    /// The name of the level's i-th variable (renamed wherever an event names it, issue 46).
    Var(u8),
    /// A new level variable's name (it starts at 0).
    NewVar,
    /// Find: an id, or part of one.
    Find,
    /// The new id of what Find shows (else the selected figure).
    Rename,
    /// The name a selection is kept under as a stamp (`levels/stamps/NAME.ron`).
    StampName,
}

/// Everything the editor does: from a button, a key or the pointer on the map.
#[derive(Component, Message, Clone, Copy, Debug, PartialEq, Eq)]
pub enum EditAct {
    Tool(Tool),
    /// Paint the selection (or the space under the cursor) with the tool.
    Apply,
    /// Paint a rectangle dragged on the map (corners included).
    Paint(i32, i32, i32, i32),
    /// Inspect the space (a figure there is selected).
    Pick(i32, i32),
    /// Move the cursor; with `true` the selection grows from where it was.
    Move(i32, i32, bool),
    /// The cursor to a space (the pointer over the map).
    Hover(i32, i32),
    Undo,
    Redo,
    Copy,
    Paste,
    /// The selection kept as a stamp file (its name typed first).
    KeepStamp,
    /// The next stamp kept in `levels/stamps/` taken in hand (Ctrl+V puts it down).
    NextStamp,
    Save,
    PlayTest,
    Back,
    New,
    /// A new level generated from a random seed (a delve's floor, issue 47).
    Generate,
    /// Show or hide the list of levels to open.
    Open,
    OpenFile(u16),
    Width(i8),
    Height(i8),
    AddFloor,
    Floor(i8),
    Profile,
    Mode,
    Control(u8),
    /// The k-th side's goal besides its exits (none, rout, survive, defeat).
    Goal(u8),
    AddSide,
    Type(Field),
    FigSide,
    FigBehaviour,
    FigStance,
    FigPosture,
    FigHp(i8),
    FigRemove,
    /// A level event on the selection: a story line when the first side enters it.
    EventAdd,
    EventRemove(u8),
    /// The figure arrives later: on the level's next event (`spawn`), or from the start.
    FigArrival,
    /// The answer to "unsaved edits: Save / Discard / Cancel" (issue 42).
    Answer(Answer),
    /// The answer to the recovery offer: recover the edits kept (true), or discard them.
    Recover(bool),
    /// The k-th button of the feature inspector (the features on the space inspected).
    Feature(u8),
    /// Zoom the map in (1) or out (-1) a step; 0 fits the whole floor between the panels.
    Zoom(i8),
    /// Move the view over the map by this many screen pixels (right and down positive).
    Pan(i32, i32),
    /// The events panel's page: the next (1) or earlier (-1) events.
    EventPage(i8),
    /// The k-th event's form opened (closed when it is open); `u8::MAX`: the first event the
    /// events panel lists (F4).
    EventForm(u8),
    /// The open event form's row stepped forward (1) or back (-1).
    EventField(u8, i8),
    /// Fill on or off: a map brush clicked on one space fills the spaces joined to it.
    Fill,
    /// The figures of one side in the selection made one encounter.
    Group,
    /// The selected figure's form (every field) opened, or closed.
    FigureForm,
    /// The open figure form's row stepped forward (1) or back (-1).
    FigureField(u8, i8),
    /// The selection's outline drawn with the map character of the brush.
    Outline,
    /// A line from the selection's first corner to the cursor, with the map character.
    Line,
    /// The mirror's next mode (off, left to right, top to bottom, both).
    MirrorMode,
    /// Mirrored figures join the opposing side, or keep theirs.
    MirrorSides,
    /// The selection turned or flipped: `tools::TURNS[k]`.
    Turn(u8),
    /// Find an id (typed).
    Find,
    /// Rename what Find shows, or the selected figure (typed).
    Rename,
    /// The sight preview from the cursor on or off.
    Sight,
    /// The k-th event moved up (-1) or down (1) the list (events fire in the file's order).
    EventMove(u8, i8),
    /// The open form's lines: the earlier ones (-1) or the next ones (1).
    FormScroll(i8),
    /// Stairs: this end marked (the cursor's), or linked to the end marked before.
    Stairs,
}

/// How the map is framed (issue 46): `zoom` steps of 1.25× from the view that fits the floor
/// between the panels, the view's centre moved by `pan` (world pixels from the map's centre).
/// `scale` is the board camera's scale as last framed (world pixels a screen pixel); `pivot`,
/// a world point kept under the pointer by the next zoom (the mouse wheel); `follow`, the
/// keyboard's cursor brought into view.
#[derive(Resource, Debug, Clone, Copy, PartialEq)]
pub struct MapView {
    pub zoom: i8,
    pub pan: Vec2,
    pub scale: f32,
    pub pivot: Option<Vec2>,
    pub follow: bool,
}

impl Default for MapView {
    fn default() -> Self {
        MapView { zoom: 0, pan: Vec2::ZERO, scale: 1.0, pivot: None, follow: false }
    }
}

impl MapView {
    /// The closest and the farthest zoom steps (1.25^8 ≈ 6× in, 1.25^-4 ≈ 0.4× out).
    pub const IN: i8 = 8;
    pub const OUT: i8 = -4;

    /// A step in (`d` > 0) or out; 0 fits the floor again (and centres it).
    pub fn zoom_by(&mut self, d: i8) {
        if d == 0 {
            *self = MapView { scale: self.scale, ..default() };
        } else {
            self.zoom = (self.zoom + d.signum()).clamp(Self::OUT, Self::IN);
        }
    }

    /// The view moved by (dx, dy) screen pixels (right and down).
    pub fn pan_by(&mut self, dx: i32, dy: i32) {
        self.pan += Vec2::new(dx as f32, -(dy as f32)) * self.scale;
    }

    /// How far the view is from the fitted one, for the panels ("fit", "2.4×").
    pub fn label(&self) -> String {
        if self.zoom == 0 && self.pan == Vec2::ZERO { "fit".into() } else { format!("{:.1}x", 1.25f32.powi(self.zoom as i32)) }
    }
}

/// The level being edited and the editor around it. It stays while a play-test runs, so the
/// designer comes back where he was.
#[derive(Resource)]
pub struct Editor {
    pub doc: Doc,
    /// Where Save writes.
    pub path: PathBuf,
    pub tool: Tool,
    /// The selection's other corner (Shift+arrows, or a drag).
    pub anchor: Option<(i32, i32)>,
    /// The shape, stamp, mirror, find and rename tools (issue 46).
    pub tools: ToolState,
    pub problems: Vec<Problem>,
    pub status: String,
    /// The figure in the inspector.
    pub selected: Option<usize>,
    /// The space whose door, chest, trap or light the feature inspector shows.
    pub inspected: Option<(i32, i32)>,
    pub typing: Option<(Field, String)>,
    /// The list of levels to open is shown.
    pub opening: bool,
    /// A way out of the level asked about, its edits unsaved: Save / Discard / Cancel.
    pub asking: Option<Leave>,
    /// A recovery copy from a session that closed without saving: the file it was edited for
    /// and its text, offered when the editor opens.
    pub recovery: Option<(PathBuf, String)>,
    pub heroes: Vec<(String, CharacterEntry)>,
    pub monsters: Vec<String>,
    pub behaviours: Vec<String>,
    /// Files the Open list shows.
    pub files: Vec<PathBuf>,
    /// Changed when the map must be drawn again.
    pub generation: u64,
    /// The first event the events panel lists (its pages).
    pub events_from: usize,
    /// Event rows the window's height adds to the side panel's list beyond a 720-pixel window's
    /// (`panels::fit_events_list`).
    pub events_extra: usize,
    /// The event whose form is open over the map (issue 46).
    pub event_open: Option<usize>,
    /// Map brushes fill the spaces joined to the one clicked (issue 46).
    pub fill: bool,
    /// The figure whose form is open over the map (issue 46).
    pub figure_open: Option<usize>,
    /// The ids the open forms showed (and the list's length then): `changed` keeps each form on
    /// its own figure or event.
    pub open_ids: (Option<(Option<String>, usize)>, Option<(Option<String>, usize)>),
    /// What the figure form's fields are chosen from.
    pub figure_lists: doo_rules::level_edit::FigureLists,
    /// The open form's first line shown (a long form is shown a window's height at a time).
    pub form_scroll: u16,
    /// Generate's seeds (the app's `FreshSeeds` as the editor opened: `--seed` fixes them).
    pub seeds: crate::window::FreshSeeds,
}

/// The space under the keyboard cursor (apart from `Editor`: moving it redraws no panel).
#[derive(Resource, Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct EditorCursor(pub i32, pub i32);

/// Set by `doo edit [LEVEL]`: the level the editor opens first (a new one when it does not exist).
#[derive(Resource, Debug, Clone)]
pub struct EditStart(pub PathBuf);

impl Editor {
    /// The selection: from the anchor to the cursor, or the cursor's space.
    pub fn area(&self, c: EditorCursor) -> Rect {
        match self.anchor {
            Some(a) => Rect::new(a, (c.0, c.1)),
            None => Rect::one(c.0, c.1),
        }
    }

    pub fn tool_name(&self, t: Tool) -> String {
        match t {
            Tool::Tile(k) => TILES.get(k as usize).map_or("?", |t| t.1).to_string(),
            Tool::Room => "room".into(),
            Tool::Hero(k) => format!("hero: {}", self.heroes.get(k as usize).map_or("none", |h| h.0.as_str())),
            Tool::Monster(k) => format!("monster: {}", self.monsters.get(k as usize).map_or("none", |m| m.as_str())),
            Tool::Chest => "chest".into(),
            Tool::Trap => "trap".into(),
            Tool::Exit => "exit".into(),
            Tool::Dark => "dark".into(),
            Tool::Light => "light".into(),
            Tool::Erase => "erase".into(),
            Tool::Select => "select".into(),
        }
    }

    pub fn brush(&self) -> Option<Brush> {
        Some(match self.tool {
            Tool::Tile(k) => Brush::Tile(TILES.get(k as usize)?.0),
            Tool::Room => Brush::Room,
            Tool::Hero(k) => Brush::Figure(Box::new(self.heroes.get(k as usize)?.1.clone())),
            Tool::Monster(k) => {
                let side = self.doc.level.sides.last().map(|s| s.id.clone());
                Brush::Figure(Box::new(CharacterEntry { template: Some(self.monsters.get(k as usize)?.clone()), side, ..Default::default() }))
            }
            Tool::Chest => Brush::Chest,
            Tool::Trap => Brush::Trap,
            Tool::Exit => Brush::Exit,
            Tool::Dark => Brush::Dark,
            Tool::Light => Brush::Light,
            Tool::Erase => Brush::Erase,
            Tool::Select => return None,
        })
    }

    /// What the space holds, shown in the inspectors: its figure, its features.
    pub fn inspect(&mut self, x: i32, y: i32) {
        self.selected = self.doc.figure_at(x, y);
        self.inspected = (!self.doc.features(x, y).is_empty()).then_some((x, y));
        self.status = self.doc.describe(x, y).join("; ");
    }

    /// The feature inspector's buttons, in order (the k-th is `EditAct::Feature(k)`).
    pub fn feature_buttons(&self) -> Vec<(String, doo_rules::level_edit::FeatureEdit)> {
        self.inspected.map_or(vec![], |(x, y)| self.doc.features(x, y).into_iter().flat_map(|f| f.buttons).collect())
    }

    /// The project folder the level's templates and art are read from.
    pub fn root(&self) -> PathBuf {
        doo_rules::level_file::project_root(&self.path)
    }

    /// After an edit: the problems again, the map drawn again.
    pub fn changed(&mut self, data: &doo_rules::data::RuleData) {
        let text = self.doc.text();
        let file = self.path.display().to_string();
        self.problems = doo_rules::level_edit::problems(&file, &text, &self.doc.level, data, &self.root());
        // What a resize took off the map, until undone or saved (warnings: the level plays).
        self.problems.extend(self.doc.dropped());
        // What an `acted` trigger's `how` steps through: the rows of the profile in force.
        let l = &self.doc.level;
        let base = l.profile.as_deref().map(|p| if p == data.a4.name { data.a4.base_profile.as_str() } else { p });
        let rules = data.profiles.ruleset(base, &l.options).or_else(|_| data.profiles.ruleset(None, &l.options));
        self.doc.deed_rows = rules.map(|r| doo_rules::level_edit::DeedRows::of(&r)).unwrap_or_default();
        self.generation += 1;
        if self.selected.is_some_and(|k| k >= self.doc.level.characters.len()) {
            self.selected = None;
        }
        // A form stays on what it shows: the figure or event moved up the list when one before it
        // went; closed when it went itself (not another's form in its place).
        let ids: Vec<Option<String>> = self.doc.level.characters.iter().map(|c| c.id.clone()).collect();
        self.figure_open = follow(self.figure_open, &self.open_ids.0, &ids);
        let ids: Vec<Option<String>> = self.doc.level.events.iter().map(|e| Some(e.id.clone())).collect();
        self.event_open = follow(self.event_open, &self.open_ids.1, &ids);
        self.remember_open();
        if self.inspected.is_some_and(|(x, y)| self.doc.features(x, y).is_empty()) {
            self.inspected = None;
        }
    }

    /// The text being typed goes into the level (Enter, or any other edit made meanwhile).
    pub fn commit_typing(&mut self, data: &doo_rules::data::RuleData) {
        let Some((field, buf)) = self.typing.take() else { return };
        let changed = match field {
            Field::Name => self.doc.set_name(buf.trim()),
            Field::Briefing => self.doc.set_briefing(buf.trim()),
            Field::Event(k) => self.doc.set_event_message(k as usize, buf.trim()),
            Field::Action(k, a) => self.doc.set_action_text(k as usize, a as usize, buf.trim()),
            Field::Figure(k, row) => {
                let ok = self.doc.set_figure_text(k as usize, row as usize, buf.trim());
                if !ok && self.doc.figure_text(k as usize, row as usize) != buf.trim() {
                    self.status = format!("Not changed: '{}' is taken or not a plain id (letters, digits, _ and -).", buf.trim());
                    return;
                }
                ok
            }
            Field::ChoiceLabel(k, a, o) => self.doc.set_choice_label(k as usize, a as usize, o as usize, buf.trim()),
            Field::Var(i) => {
                let Some(old) = self.doc.level.vars.keys().nth(i as usize).cloned() else { return };
                match self.doc.rename_id(IdKind::Var, &old, buf.trim()) {
                    Ok(true) => {
                        self.changed(data);
                        self.status = format!("Renamed the variable {old} to {} wherever an event names it.", buf.trim());
                    }
                    Ok(false) => {}
                    Err(e) => self.status = format!("Not renamed: {e}"),
                }
                return;
            }
            Field::NewVar => {
                match self.doc.add_var(buf.trim()) {
                    Ok(()) => {
                        self.changed(data);
                        self.status = format!("A level variable {}, starting at 0: events set it, add to it and test it.", buf.trim());
                    }
                    Err(e) => self.status = format!("Not added: {e}"),
                }
                return;
            }
            Field::Find => {
                commit_find(self, buf.trim());
                return;
            }
            Field::Rename => {
                if commit_rename(self, buf.trim()) {
                    self.changed(data);
                }
                return;
            }
            Field::StampName => {
                self.status = self.tools.hand.keep(&crate::window::screens::levels::levels_dir(), buf.trim());
                return;
            }
            Field::EventId(k) => {
                let ok = self.doc.rename_event(k as usize, buf.trim());
                if !ok && self.doc.level.events.get(k as usize).is_some_and(|e| e.id != buf.trim()) {
                    self.status = format!("Not renamed: '{}' is taken or not a plain id (letters, digits, _ and -).", buf.trim());
                    return;
                }
                ok
            }
        };
        if changed {
            self.changed(data);
        }
        self.status = "Typed.".into();
    }

    /// What the open forms show (their ids, and how many there were), for `changed` to follow.
    pub fn remember_open(&mut self) {
        let fig = self.figure_open.and_then(|k| Some((self.doc.level.characters.get(k)?.id.clone(), self.doc.level.characters.len())));
        let ev = self.event_open.and_then(|k| Some((Some(self.doc.level.events.get(k)?.id.clone()), self.doc.level.events.len())));
        self.open_ids = (fig, ev);
    }

    /// The problems `doo validate` reports (a warning does not stop a play-test).
    pub fn blocking(&self) -> usize {
        self.problems.iter().filter(|p| !p.warning).count()
    }

    /// The level's file name, as the panels and questions name it.
    pub fn file_name(&self) -> String {
        self.path.file_name().map_or_else(|| self.path.display().to_string(), |f| f.to_string_lossy().to_string())
    }

    /// Leaving by `leave` with unsaved edits: the question is put (Save / Discard / Cancel).
    pub fn ask(&mut self, leave: Leave) {
        self.asking = Some(leave);
        self.opening = false;
        self.anchor = None;
        self.status = doo_rules::level_edit::leave::question(leave, &self.file_name()).0;
    }

    pub fn new_doc(&mut self, doc: Doc, path: PathBuf, data: &doo_rules::data::RuleData) {
        self.doc = doc;
        self.path = path;
        self.anchor = None;
        self.selected = None;
        self.inspected = None;
        self.opening = false;
        self.changed(data);
    }
}

/// The names of the profiles the level can name (the side panel shows the one in force).
pub fn profile_name(ed: &Editor) -> String {
    ed.doc.level.profile.clone().unwrap_or_else(|| format!("{} (default)", PROFILES[0]))
}

/// A play-test is on: the match the menu had ready before it, put back on return.
#[derive(Resource)]
pub struct PlayTest {
    pub before: Option<MatchSetup>,
}

/// The map's tools as the window keeps them: the mirror, whether a mirrored figure changes
/// sides, what Find found (and which one is shown), the stamp in hand.
#[derive(Debug, Default)]
pub struct ToolState {
    pub mirror: Mirror,
    pub swap_sides: bool,
    pub found: Vec<Found>,
    pub found_at: usize,
    /// The text last found (Enter on it again shows the next).
    pub query: String,
    /// A space Find asks the cursor to go to.
    pub jump: Option<doo_rules::rules::Pos>,
    /// The stamp in hand, and the shelf of stamps kept (`levels/stamps/`).
    pub hand: doo_rules::level_edit::StampHand,
    /// The sight preview follows the cursor: the spaces a figure there would not see are dimmed.
    pub sight: bool,
    /// The stairs end marked for a link (Ctrl+K), waiting for the other end.
    pub stairs_from: Option<doo_rules::rules::Pos>,
}

/// What Ctrl+E renames: the id Find shows, else the selected figure.
pub fn rename_target(ed: &Editor) -> Option<(IdKind, String)> {
    if let Some(f) = ed.tools.found.get(ed.tools.found_at) {
        return Some((f.kind, f.id.clone()));
    }
    let c = ed.doc.level.characters.get(ed.selected?)?;
    Some((IdKind::Figure, c.id.clone()?))
}

/// Find's text typed: the ids that match, the first (or, the same text again, the next) shown.
pub fn commit_find(ed: &mut Editor, text: &str) {
    let again = text == ed.tools.query && !ed.tools.found.is_empty();
    if again {
        ed.tools.found_at = (ed.tools.found_at + 1) % ed.tools.found.len();
    } else {
        ed.tools.query = text.to_string();
        ed.tools.found = ed.doc.find_ids(text);
        ed.tools.found_at = 0;
    }
    let n = ed.tools.found.len();
    match ed.tools.found.get(ed.tools.found_at) {
        Some(f) => {
            ed.tools.jump = f.at;
            let rest: Vec<String> = ed.tools.found.iter().skip(ed.tools.found_at + 1).take(3).map(|f| f.id.clone()).collect();
            ed.status = format!(
                "Found {} of {n}: {}{}. Ctrl+F, Enter: the next; Ctrl+E renames it.",
                ed.tools.found_at + 1,
                f.line(),
                if rest.is_empty() { String::new() } else { format!(" (then {})", rest.join(", ")) }
            );
        }
        None => ed.status = format!("No id in the level holds '{text}'."),
    }
}

/// The new id typed for Ctrl+E: renamed wherever the level names it, or why not.
pub fn commit_rename(ed: &mut Editor, new: &str) -> bool {
    let Some((kind, old)) = rename_target(ed) else { return false };
    match ed.doc.rename_id(kind, &old, new) {
        Ok(true) => {
            ed.status = format!("Renamed {} {old} to {new} everywhere it is named.", kind.word());
            // Find's list names the old id: found again under the new one.
            ed.tools.query = new.to_string();
            ed.tools.found = ed.doc.find_ids(new);
            ed.tools.found_at = 0;
            true
        }
        Ok(false) => {
            ed.status = "Not renamed: that is its id already.".into();
            false
        }
        Err(e) => {
            ed.status = format!("Not renamed: {e}");
            false
        }
    }
}

/// The form's index after an edit: where its id is now; the same place when the list kept its
/// length (the id was renamed); none when its entry went.
fn follow(open: Option<usize>, was: &Option<(Option<String>, usize)>, ids: &[Option<String>]) -> Option<usize> {
    let k = open?;
    let Some((id, len)) = was else { return (k < ids.len()).then_some(k) };
    if ids.get(k) == Some(id) {
        return Some(k);
    }
    if let Some(j) = id.as_ref().and_then(|_| ids.iter().position(|i| i == id)) {
        return Some(j);
    }
    (ids.len() == *len && k < ids.len()).then_some(k)
}

#[cfg(test)]
mod tests {
    use super::follow;

    fn ids(v: &[&str]) -> Vec<Option<String>> {
        v.iter().map(|s| Some(s.to_string())).collect()
    }

    /// Issue 46: a form follows its own figure or event when the list changes under it.
    #[test]
    fn a_form_follows_its_entry_and_closes_when_it_goes() {
        let was = Some((Some("b".to_string()), 3));
        // "a" removed: "b" moved up to 0.
        assert_eq!(follow(Some(1), &was, &ids(&["b", "c"])), Some(0));
        // "b" removed: the form closes rather than show "c".
        assert_eq!(follow(Some(1), &was, &ids(&["a", "c"])), None);
        // "b" renamed "bee" (same length): the form stays.
        assert_eq!(follow(Some(1), &was, &ids(&["a", "bee", "c"])), Some(1));
        // Nothing changed.
        assert_eq!(follow(Some(1), &was, &ids(&["a", "b", "c"])), Some(1));
        assert_eq!(follow(None, &was, &ids(&["a", "b"])), None);
    }
}
