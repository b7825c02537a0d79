//! `doo_rules`: Dungeons of Olde without Bevy. The rules (`rules`, pure functions returning a
//! rule id and a sentence when something is illegal), the monster AI that plays by them (`ai`),
//! and the file formats they read (`data`, `level`, `level_file`, `script`). Nothing here
//! renders, opens a window or depends on an engine: the compiler keeps it that way.

pub mod ai;
pub mod campaign;
pub mod campaign_run;
pub mod data;
pub mod delve;
pub mod ladder;
pub mod level;
pub mod level_crawl;
pub mod level_edit;
pub mod level_file;
pub mod reference;
pub mod replay;
pub mod rules;
pub mod save;
pub mod script;
pub mod stress;
#[cfg(test)]
pub(crate) mod testkit;
