//! Issue 46: a level event's choice (`choice` action) answered by the player whose side it
//! waits for: the answer (`Intent::Answer(k)`) becomes `Command::Choose`, the one command path;
//! every other intent is refused meanwhile (EVENT-1), as the rules refuse every other command.

use doo_rules::rules::{Command, Match, Violation};

/// What an intent does while a choice waits (`answer`: the option it picks, if it is an
/// answer), or an answer when none does; `None`: the intent goes on as usual.
pub fn gate(m: &Match, answer: Option<u32>, me: &str) -> Option<Result<Command, Violation>> {
    match (doo_rules::rules::event_choice::pending(m), answer) {
        (Some(_), Some(k)) => Some(Ok(Command::Choose { actor: me.to_string(), option: k })),
        (Some(p), None) => Some(Err(Violation::new("EVENT-1", format!("First answer the choice of level event '{}': {}", p.event, p.prompt)))),
        (None, Some(_)) => Some(Err(Violation::new("EVENT-2", "No choice waits for an answer."))),
        (None, None) => None,
    }
}
