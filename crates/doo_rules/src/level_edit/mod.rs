//! The level editor's model (issue 31), without a window: the level being edited and its
//! edits (`doc`), writing it back as a person would, comments kept (`write`, over `scan`, the
//! text's layout), and its problems placed on the map (`problems`). The window's editor screen
//! draws these and sends the edits. Leaving a level with unsaved edits, and its recovery copy,
//! is `leave`; a stroke of the pointer on the map is `Stroke`; an event as a form of rows
//! (`event_form`, issue 46). The tools of issue 46: rectangles and lines (`shapes`), stamps
//! (`stamp`), mirror painting (`mirror`), a selection turned or flipped (`rotate`), find by id
//! (`find`) and ids renamed everywhere at once (`rename`).

mod brush;
mod deed_rows;
mod doc;
mod doors;
mod event_bad;
mod event_cond;
mod event_form;
mod event_kinds;
mod event_list;
mod event_more;
mod event_nest;
mod event_target;
mod event_vars;
mod events;
mod features;
mod figure_form;
mod figure_steps;
mod find;
mod form_row;
mod group;
pub mod leave;
mod mirror;
mod orders_form;
mod paint;
mod pretty;
mod problems;
mod rename;
mod resize;
mod rotate;
pub mod scan;
mod shapes;
mod sides;
mod sight;
mod stairs;
mod stamp;
mod stamp_file;
mod write;

pub use deed_rows::DeedRows;
pub use doc::{Brush, Clip, Doc, MAX_UNDO, MIN_SIDE, NEW_SIZE, PROFILES, Pasted, Rect, Stroke, TILES, new_level};
pub use event_form::{Row, RowKind};
pub use features::{FeatureEdit, FeatureView, LOOT};
pub use figure_form::MAX_FORM_ITEMS;
pub use figure_steps::FigureLists;
pub use find::{Found, IdKind, MAX_FOUND};
pub use group::{Grouped, MAX_FILL};
pub use mirror::Mirror;
pub use problems::{Problem, problems};
pub use rename::plain_id;
pub use resize::Resized;
pub use rotate::Turn;
pub use shapes::line_cells;
pub use sides::SURVIVE_TURNS;
pub use sight::{MAX_PREVIEW_SPACES, sight_preview};
pub use stairs::is_stairs;
pub use stamp::Stamp;
pub use stamp_file::{MAX_STAMP_SPACES, MAX_STAMPS, STAMP_DIR, StampHand, stamp_files, stamp_name, stamp_path};
pub use write::{compact, write, write_new};
