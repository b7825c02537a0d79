//! Whether a human defender is asked about his reactions (the window's settings fill it in).

use bevy::prelude::*;
use doo_rules::rules::preview::ReactionChoice;

/// Whether a human defender is asked about reflexes and responses at all (the window's
/// settings fill it in; headless: always ask, so tests answer themselves).
#[derive(Resource, Debug, Clone)]
pub struct ReactionPolicy {
    pub prompts: bool,
    /// Characters (by id) whose reactions are never asked about.
    pub never_ask: std::collections::BTreeSet<String>,
}

impl Default for ReactionPolicy {
    fn default() -> Self {
        Self { prompts: true, never_ask: Default::default() }
    }
}

impl ReactionPolicy {
    /// Ask `decider` about this window? Not when prompts are off, the character is on the
    /// never-ask list, or the rules allow none of the reactions.
    pub fn asks(&self, decider: &str, choices: &[ReactionChoice]) -> bool {
        self.prompts && !self.never_ask.contains(decider) && choices.iter().any(|c| c.refusal.is_none())
    }
}
