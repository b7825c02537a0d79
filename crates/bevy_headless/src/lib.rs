//! `bevy` for the headless game: the sub-crates of Bevy that the rules' ECS plugins, the headless
//! app and the CLI use (app, ECS, states, time, tasks), re-exported under the same paths as the
//! `bevy` crate (`bevy::prelude::*`, `bevy::ecs::…`, `bevy::state::…`), and the
//! [`MinimalPlugins`] group. The window package uses the real `bevy`; the types are the same
//! (both re-export the sub-crates), so the window adds the game's plugins unchanged.

pub use bevy_app as app;
pub use bevy_diagnostic as diagnostic;
pub use bevy_ecs as ecs;
pub use bevy_log as log;
pub use bevy_platform as platform;
pub use bevy_reflect as reflect;
pub use bevy_state as state;
pub use bevy_tasks as tasks;
pub use bevy_time as time;
pub use bevy_utils as utils;

use bevy_app::{PluginGroup, PluginGroupBuilder, ScheduleRunnerPlugin, TaskPoolPlugin};

/// Bevy's `MinimalPlugins` (task pools, the frame count, time, a schedule runner), as the `bevy`
/// crate builds it.
pub struct MinimalPlugins;

impl PluginGroup for MinimalPlugins {
    fn build(self) -> PluginGroupBuilder {
        PluginGroupBuilder::start::<Self>()
            .add(TaskPoolPlugin::default())
            .add(bevy_diagnostic::FrameCountPlugin)
            .add(bevy_time::TimePlugin)
            .add(ScheduleRunnerPlugin::default())
    }
}

/// `use bevy::prelude::*`, as far as the headless crates reach.
pub mod prelude {
    #[doc(hidden)]
    pub use crate::MinimalPlugins;
    #[doc(hidden)]
    pub use bevy_app::prelude::*;
    pub use bevy_derive::{Deref, DerefMut};
    #[doc(hidden)]
    pub use bevy_ecs::prelude::*;
    #[doc(hidden)]
    pub use bevy_log::prelude::*;
    #[doc(hidden)]
    pub use bevy_platform::prelude::*;
    #[doc(hidden)]
    pub use bevy_reflect::prelude::*;
    #[doc(hidden)]
    pub use bevy_state::prelude::*;
    #[doc(hidden)]
    pub use bevy_time::prelude::*;
    #[doc(hidden)]
    pub use bevy_utils::prelude::*;
}
