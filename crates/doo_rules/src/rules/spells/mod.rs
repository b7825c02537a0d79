//! Cast Spell (R-MANA-4, G-26): spells as data (`assets/rules/spells.ron`, `book`), paid with
//! Mana (arcane, Savvy check) or Faith (divine, Nerve check), resolved as bolts, heals or
//! conditions (`cast`); `check` is what the action's validation asks.

pub mod book;
pub mod cast;
pub mod check;

pub use book::{Spell, SpellBook, SpellEffect};
pub use cast::cast;
pub use check::check_spell;
