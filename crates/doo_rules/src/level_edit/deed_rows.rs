//! What an `acted` trigger's `how` can name in the level editor's event form (issue 46): the
//! movement, action and reaction rows of the level's profile, by deed.

use crate::rules::story::Deed;

/// The rows of the level's profile an `acted` trigger's `how` can name, by deed (R-EXP-*, the
/// profile's movement, action and reaction rows): the window fills it from the game's
/// profiles whenever the level changes (its profile may have); empty, `how` steps between
/// "any way" and `explore` only.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct DeedRows {
    pub movements: Vec<String>,
    pub actions: Vec<String>,
    pub reactions: Vec<String>,
    /// Filled from a profile (`of`): only then is a `how` outside the rows known to be wrong.
    pub known: bool,
}

impl DeedRows {
    /// The rows of `rules`.
    pub fn of(rules: &crate::rules::profile::Ruleset) -> Self {
        DeedRows {
            movements: rules.movements.iter().map(|r| r.id.clone()).collect(),
            actions: rules.actions.iter().map(|r| r.id.clone()).collect(),
            reactions: rules.reactions.iter().map(|r| r.id.clone()).collect(),
            known: true,
        }
    }

    /// Whether an `acted` trigger's `how` is one `validate` refuses: given with a deed that names
    /// no row, or (the profile's rows known) a row its deed cannot be done with.
    pub(super) fn how_bad(&self, when: &crate::rules::story::Trigger) -> bool {
        let crate::rules::story::Trigger::Acted { what, how: Some(h), .. } = when else { return false };
        !what.names_a_row() || (self.known && !self.choices(*what).iter().any(|c| c.as_deref() == Some(h.as_str())))
    }

    /// What `how` can be with `what`: any way first, then the rows (a hero's walk, `explore`,
    /// with a movement), as `validate` accepts them.
    pub(super) fn choices(&self, what: Deed) -> Vec<Option<String>> {
        let rows: &[String] = match what {
            _ if !what.names_a_row() => &[],
            Deed::Move => &self.movements,
            Deed::Attack | Deed::Action => &self.actions,
            _ => &self.reactions,
        };
        let explore = (what == Deed::Move && !self.movements.iter().any(|m| m == "explore")).then(|| "explore".to_string());
        std::iter::once(None).chain(rows.iter().cloned().map(Some)).chain(explore.map(Some)).collect()
    }
}
