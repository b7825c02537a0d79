//! A row of the editor's forms (the event form, the figure form) and the one step through a
//! list of values they share.

/// How a row of the form is changed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RowKind {
    /// Stepped through a list, forward (1) or back (-1).
    Choice,
    /// A number, up (1) or down (-1).
    Number,
    /// On or off.
    Toggle,
    /// Set to the map's selection.
    Area,
    /// Typed (a message's text: `set_action_text`).
    Text,
    /// Shown, kept as the file has it.
    Shown,
    /// The action moved up one place.
    Up,
    /// The action removed.
    Remove,
    /// A new action at the end (a story line).
    Add,
}

/// One row of the form: the part it belongs to ("when", "then 2"), its field and its value.
#[derive(Clone, Debug, PartialEq)]
pub struct Row {
    pub part: String,
    pub label: String,
    pub value: String,
    pub kind: RowKind,
    /// The action the row belongs to (`None`: the trigger, or the row that adds one).
    pub action: Option<usize>,
    /// Issue 46: the value names what the level does not hold (a figure, side, door, item,
    /// encounter, event or variable it lacks): `validate` names it on the problems line, and
    /// the window draws the row in the problems' red.
    pub bad: bool,
}

/// The value after (`dir` 1) or before (-1) `now` in `list`, round; the first when `now` is
/// not in it; `None` for an empty list.
pub(crate) fn step<T: PartialEq + Clone>(list: &[T], now: &T, dir: i8) -> Option<T> {
    let n = list.len() as i64;
    if n == 0 {
        return None;
    }
    let i = match list.iter().position(|x| x == now) {
        Some(i) => (i as i64 + dir.signum() as i64).rem_euclid(n),
        None => 0,
    };
    Some(list[i as usize].clone())
}
