//! The game package's tests: the window (under Xvfb: `#[ignore]`d with a reason, `.ci/run` runs
//! them for real), its screens and HUD without a display, the UI walks, resuming in the window,
//! and network play (host and clients in their own processes). Not built by `cargo test` (it would
//! compile the render stack): `.ci/run` builds this binary once (`cargo test -p
//! dungeons-of-olde --test window --no-run`) and runs it.

#![allow(dead_code)]

mod choice;
#[path = "../it/common.rs"]
mod common;
mod editor_view;
mod hud;
mod net;
#[path = "../it/pending.rs"]
mod pending;
mod resume;
mod screens;
mod seen_read;
mod ui_walk;
mod window;
