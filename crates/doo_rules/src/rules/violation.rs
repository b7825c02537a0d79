//! A refused declaration: the rule id it breaks and a sentence a player understands (R-AP-1).

use serde::Serialize;
use std::fmt;

/// Why a command was refused. Refusal changes nothing (R-AP-1).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Violation {
    /// Rule id from RULES.md, e.g. `R-FS-5`.
    pub rule: String,
    /// Plain sentence for the player.
    pub reason: String,
    /// Other rules the declaration also breaks.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub also: Vec<String>,
}

impl Violation {
    pub fn new(rule: &str, reason: impl Into<String>) -> Self {
        Self { rule: rule.to_string(), reason: reason.into(), also: Vec::new() }
    }
}

impl Violation {
    pub fn also(mut self, rule: &str) -> Self {
        self.also.push(rule.to_string());
        self
    }
}

impl fmt::Display for Violation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} — {}", self.reason, self.rule)
    }
}

impl std::error::Error for Violation {}

/// Shorthand used by the rule functions.
pub type RuleResult<T = ()> = Result<T, Violation>;

/// Fails with `rule`/`reason` unless `cond` holds.
pub fn ensure(cond: bool, rule: &str, reason: impl FnOnce() -> String) -> RuleResult {
    if cond { Ok(()) } else { Err(Violation::new(rule, reason())) }
}
