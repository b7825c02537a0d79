//! Heroes and character points (RULES.md §25, R-CP-*): making a hero the Core way (a stat array
//! and a skill package, R-CP-2/3) or by point-buy (R-CP-4), spending CP between levels (R-CP-11)
//! with set rank-ups (R-CP-8), CP earned in play (R-CP-9) and per level (R-CP-10), and the rest
//! between levels (R-CP-13). Pure functions: every refusal is a `Violation` naming its rule.
//! The numbers are data (`assets/rules/heroes.ron`).
//!
//! The parts: `book` (the numbers, purchases and a hero's sheet), `making` (making a hero and
//! buying with CP), `earned` (CP earned in play) and `rest` (recuperating between levels).

mod book;
mod earned;
mod making;
mod rest;

pub use book::{HeroBook, Make, Package, Part, Purchase, RankCost, Sheet, SkillSet};
pub use book::{STATS, caster_of, caster_pools, known_spells, pools, rank_name, skill_name, stat_name, stat_of};
pub use earned::{CpLine, award_cp, cp_from_events, cp_of_event, cp_of_margin};
pub use making::{buy, make, make_core, make_point_buy, rank_up_sets};
pub use rest::{caregiver_bonus, recuperate};
