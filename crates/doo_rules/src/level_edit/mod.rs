//! The level editor's model (issue 31), without a window: the level being edited and its
//! edits (`doc`), writing it back as a person would, comments kept (`write`, over `scan`, the
//! text's layout), and its problems placed on the map (`problems`). The window's editor screen
//! draws these and sends the edits. Leaving a level with unsaved edits, and its recovery copy,
//! is `leave`; a stroke of the pointer on the map is `Stroke`; an event as a form of rows
//! (`event_form`, issue 46).

mod brush;
mod doc;
mod doors;
mod event_cond;
mod event_form;
mod event_kinds;
mod event_more;
mod events;
mod features;
mod figure_form;
mod form_row;
mod group;
pub mod leave;
mod paint;
mod pretty;
mod problems;
mod resize;
pub mod scan;
mod sides;
mod write;

pub use doc::{Brush, Clip, Doc, MAX_UNDO, MIN_SIDE, NEW_SIZE, PROFILES, Pasted, Rect, Stroke, TILES, new_level};
pub use event_form::{Row, RowKind};
pub use features::{FeatureEdit, FeatureView, LOOT};
pub use figure_form::{FigureLists, MAX_FORM_ITEMS};
pub use group::{Grouped, MAX_FILL};
pub use problems::{Problem, problems};
pub use resize::Resized;
pub use sides::SURVIVE_TURNS;
pub use write::{compact, write, write_new};
