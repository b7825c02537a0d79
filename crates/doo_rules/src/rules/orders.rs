//! Monsters a designer directs (issue 45), as data: the `orders` a level gives an encounter or
//! a character and the match's record of who has which (`Directed`, kept in the level's
//! `Story`). A leaf: what the rules do with them is `directives`, which reads the match.

use super::area::Area;
use super::grid::Pos;
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, BTreeSet};

/// The most spaces of a patrol route.
pub const MAX_ROUTE: usize = 32;
/// The farthest an ambusher's `reach` (spaces) can be.
pub const MAX_REACH: u32 = 32;

/// A figure's orders (issue 45).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", deny_unknown_fields)]
pub enum Orders {
    /// Never ends a move outside the area, unless attacking a hero who stands in it; goes back
    /// into it when outside.
    Guard { area: Area },
    /// While it sees no hero, walks the route space after space (back to the first after the
    /// last).
    Patrol { route: Vec<Pos> },
    /// Stays put (no step, no movement) until a hero comes within `reach` spaces, or a level
    /// event changes its orders; then fights as it would.
    Ambush {
        #[serde(default = "default_reach")]
        reach: u32,
    },
    /// Goes to the space and keeps it: attacks from there, never leaves it.
    Hold { at: Pos },
    /// Stays next to the figure and attacks first whoever threatens it (stands next to it).
    Bodyguard { figure: String },
    /// Below `below` percent of its maximum HP: heads for the space and attacks only when
    /// cornered (no space that brings it nearer).
    Flee { to: Pos, below: u32 },
    /// Prefers the prey as its target and heads for it.
    Hunt { prey: Prey },
    /// The first time it sees a hero (in a crisis), the encounter named is alerted and joins the
    /// crisis at the next reset (R-EXP-25); then it fights as it would.
    CallForHelp { encounter: String },
}

fn default_reach() -> u32 {
    2
}

/// Whom a hunter prefers.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Prey {
    /// The enemy with the fewest HP left.
    Weakest,
    /// An enemy carrying this item.
    Carrier(String),
}

impl Orders {
    /// The order's name, as the file writes it.
    pub fn name(&self) -> &'static str {
        match self {
            Orders::Guard { .. } => "guard",
            Orders::Patrol { .. } => "patrol",
            Orders::Ambush { .. } => "ambush",
            Orders::Hold { .. } => "hold",
            Orders::Bodyguard { .. } => "bodyguard",
            Orders::Flee { .. } => "flee",
            Orders::Hunt { .. } => "hunt",
            Orders::CallForHelp { .. } => "call_for_help",
        }
    }
}

/// Who has which orders, and what the rules keep of them.
#[derive(Clone, Debug, PartialEq, Default, Serialize)]
pub struct Directed {
    /// Figure id → its orders now.
    pub orders: BTreeMap<String, Orders>,
    /// A patroller's next route space (index into its route).
    pub legs: BTreeMap<String, u32>,
    /// Encounters called for help, who join the crisis at the next reset (R-EXP-25).
    pub called: BTreeSet<String>,
}

impl Directed {
    pub fn is_empty(&self) -> bool {
        self.orders.is_empty() && self.legs.is_empty() && self.called.is_empty()
    }
}

/// The orders a level gives at the start: each encounter's to its members, then each
/// character's own (which wins).
pub fn at_start(encounters: &[(Vec<String>, Option<Orders>)], characters: &BTreeMap<String, Orders>) -> BTreeMap<String, Orders> {
    let mut out = BTreeMap::new();
    for (members, o) in encounters {
        if let Some(o) = o {
            for id in members {
                out.insert(id.clone(), o.clone());
            }
        }
    }
    for (id, o) in characters {
        out.insert(id.clone(), o.clone());
    }
    out
}
