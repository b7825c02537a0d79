//! Campaign scripts (`doo campaign run FILE [--check]`, docs/campaigns.md "Campaign scripts"):
//! a campaign played headless from a file, as a match is from a script. The script names a
//! campaign file (or holds a small one inline) and the party (hero files or heroes written
//! inline); per level played, the purchases (R-CP-11) and recruits (R-CP-14) before it, its
//! commands and forced dice (the match script's `Command`s) or AI seats, and the rest-day dice
//! after it (R-CP-13); and an `expect` section checked by `--check`. Every step goes through
//! `crate::campaign` (the code the window and `doo campaign simulate` use) and the one flow
//! (`crate::replay`, `rules::driver`).
//!
//! The parts: `format` (the file, its caps and loading), `play` (playing it), `expect` (the
//! checks).

mod expect;
mod format;
mod play;

pub use expect::{CampaignExpect, FinalExpect, PlayExpect, Refusal, check};
pub use format::{Buy, CampaignScript, CampaignSource, Loaded, PartyHero, Play, caps, load};
pub use play::run;
