//! The editor's view, tools and forms acts (issue 46): zoom and pan, the fill and grouping
//! tools, the event and figure forms opened and their rows stepped, the events panel's pages.
//! `apply_acts` (mod.rs) hands them here.

use super::panels;
use super::state::{EditAct, Editor, EditorCursor, Field, MapView};

/// Lines a press of the form's "more" or "earlier" moves it by.
pub(super) const FORM_PAGE: u16 = 8;

/// One of the acts above made; true when the level changed.
pub(super) fn form_act(ed: &mut Editor, act: EditAct, cursor: EditorCursor, view: &mut MapView) -> bool {
    let mut edited = false;
    match act {
        EditAct::Zoom(d) => {
            view.zoom_by(d);
            ed.status = format!("Map view: {} (mouse wheel zooms, middle button drags; Ctrl+0 fits).", view.label());
        }
        EditAct::Pan(dx, dy) => view.pan_by(dx, dy),
        EditAct::Fill => {
            ed.fill = !ed.fill;
            ed.status = if ed.fill {
                "Fill on: a map brush clicked on one space fills the spaces joined to it that hold the same character (Z turns it off).".into()
            } else {
                "Fill off: map brushes paint the space or the rectangle.".into()
            };
        }
        EditAct::FormScroll(d) => {
            // `draw_forms` keeps it within the form's lines
            ed.form_scroll = if d < 0 { ed.form_scroll.saturating_sub(FORM_PAGE) } else { ed.form_scroll.saturating_add(FORM_PAGE) };
            ed.generation += 1;
        }
        EditAct::FigureForm => {
            ed.form_scroll = 0;
            ed.figure_open = match (ed.figure_open, ed.selected) {
                (Some(_), _) | (None, None) => None,
                (None, Some(k)) => Some(k),
            };
            if ed.figure_open.is_some() {
                ed.event_open = None;
            } else if ed.selected.is_none() {
                ed.status = "Select a figure first (Q, then Space on it, or a right click): Ctrl+P shows all its fields.".into();
            }
            ed.remember_open();
            ed.generation += 1;
        }
        EditAct::FigureField(row, d) => {
            let Some(k) = ed.figure_open else { return false };
            match ed.doc.figure_form(k).get(row as usize) {
                Some(r) if r.kind == doo_rules::level_edit::RowKind::Text => {
                    ed.typing = Some((Field::Figure(k as u16, row), ed.doc.figure_text(k, row as usize)));
                }
                Some(before) => {
                    let before = before.clone();
                    let lists = std::mem::take(&mut ed.figure_lists);
                    edited = ed.doc.figure_step(k, row as usize, d, &lists);
                    ed.figure_lists = lists;
                    if edited && let Some(line) = stepped_line(&before, ed.doc.figure_form(k).get(row as usize)) {
                        ed.status = line;
                    }
                }
                None => {}
            }
        }
        EditAct::Group => match ed.doc.group_encounter(ed.area(cursor)) {
            Some(g) => {
                ed.status = g.line();
                ed.anchor = None;
                edited = true;
            }
            None => ed.status = "Select two or more figures of one side (drag, or Shift+arrows), then Ctrl+G makes them one encounter.".into(),
        },
        EditAct::EventForm(k) => {
            ed.form_scroll = 0;
            ed.doc.leave_scope();
            let k = if k == u8::MAX { ed.events_from } else { k as usize };
            ed.event_open = if ed.event_open == Some(k) || k >= ed.doc.level.events.len() { None } else { Some(k) };
            if ed.event_open.is_some() {
                ed.figure_open = None;
            }
            ed.remember_open();
            ed.generation += 1;
        }
        EditAct::EventField(row, d) => {
            let Some(k) = ed.event_open else { return false };
            // Issue 46: a variable's name typed (renamed), or a new one's.
            if let Some(var) = ed.doc.event_form_var(k, row as usize) {
                let (field, now) = match var {
                    Some(i) => (Field::Var(i as u8), ed.doc.level.vars.keys().nth(i).cloned().unwrap_or_default()),
                    None => (Field::NewVar, String::new()),
                };
                ed.typing = Some((field, now));
                return false;
            }
            let rows = ed.doc.event_form(k);
            match rows.get(row as usize) {
                Some(r) if r.kind == doo_rules::level_edit::RowKind::Text && r.label == "option" => {
                    // A choice's option: its place among the action's option rows.
                    let a = r.action.unwrap_or(0);
                    let o = rows[..row as usize].iter().filter(|x| x.action == r.action && x.label == "option").count();
                    ed.typing = Some((Field::ChoiceLabel(k as u8, a as u8, o as u8), ed.doc.choice_label(k, a, o).unwrap_or_default()));
                }
                Some(r) if r.kind == doo_rules::level_edit::RowKind::Text => {
                    let a = r.action.unwrap_or(0);
                    ed.typing = Some((Field::Action(k as u8, a as u8), ed.doc.action_text(k, a).unwrap_or_default()));
                }
                Some(_) => {
                    edited = ed.doc.event_step(k, row as usize, d, ed.area(cursor));
                    if edited && let Some(line) = stepped_line(&rows[row as usize], ed.doc.event_form(k).get(row as usize)) {
                        ed.status = line;
                    }
                }
                None => {}
            }
        }
        EditAct::EventMove(k, d) => {
            edited = ed.doc.move_event(k as usize, d);
            ed.status = if edited {
                format!("Moved the event {}: events fire in the file's order.", if d < 0 { "up one place" } else { "down one place" })
            } else {
                "It is at that end of the list already.".into()
            };
        }
        EditAct::EventPage(d) => {
            let n = ed.doc.level.events.len();
            let from = ed.events_from as i64 + d as i64 * panels::events_listed(ed) as i64;
            ed.events_from = from.clamp(0, n.saturating_sub(1) as i64) as usize;
        }
        _ => {}
    }
    edited
}

/// The map a space wider or narrower, taller or shorter; what a smaller map takes off it is
/// named (and listed as warnings until undone or saved).
pub(super) fn resize_act(ed: &mut Editor, act: EditAct) -> bool {
    let (w, h) = ed.doc.size();
    let (nw, nh) = match act {
        EditAct::Width(d) => ((w as i32 + d as i32).max(0) as usize, h),
        EditAct::Height(d) => (w, (h as i32 + d as i32).max(0) as usize),
        _ => return false,
    };
    let r = ed.doc.resize_told(nw, nh);
    ed.status = r.line();
    r.edited
}

/// Another floor in view (PageUp, PageDown).
pub(super) fn floor_act(ed: &mut Editor, d: i8) {
    let n = ed.doc.level.floors.len() as i32;
    ed.doc.floor = (ed.doc.floor as i32 + d as i32).clamp(0, (n - 1).max(0)) as usize;
    ed.selected = None;
    ed.inspected = None;
    ed.generation += 1;
}

/// What a stepped form row now says ("starts at: 2 (Ctrl+Z takes it back)."), for the status line; `None` for a button
/// row (remove, + action …), whose place the rows after it take.
fn stepped_line(before: &doo_rules::level_edit::Row, after: Option<&doo_rules::level_edit::Row>) -> Option<String> {
    use doo_rules::level_edit::RowKind;
    let after = after.filter(|a| a.label == before.label && !a.label.is_empty())?;
    matches!(before.kind, RowKind::Choice | RowKind::Number | RowKind::Toggle)
        // Without the form's nesting dots: "alerts: pews: yes", "who: figure lunk".
        .then(|| format!("{}: {} (Ctrl+Z takes it back).", after.label.trim_start_matches(['·', ' ']).trim_end_matches(':'), after.value))
}
