//! The Dungeons of Olde profiles' crisis (§4–§11), one of the rulesets `ruleset` hands a match
//! to: a command checked into a `Plan` (`validate`), carried out (`apply`), the attack windows of
//! §11 (`react`), and what a player may do now (`preview`, the action bar `bar`). The rules they
//! apply (movement, actions, attacks, defense, healing, spells, the turn) sit beside them in
//! `rules/`, shared with the other rulesets.

pub mod apply;
pub mod bar;
pub mod preview;
pub mod react;
pub mod validate;
