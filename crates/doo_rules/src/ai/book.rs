//! The AI's weights as data (`assets/ai/behaviours.ron`): monster behaviours and difficulties.

use crate::rules::explore::Task;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// How well the AI plays a side.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, Default, Hash, PartialOrd, Ord)]
#[serde(rename_all = "snake_case")]
pub enum Difficulty {
    Easy,
    #[default]
    Normal,
    Hard,
    /// The reference tier (issue 45): normal's one-step planner without its slips, a player who
    /// never forgets to attack. Selectable in `doo ladder` and `doo simulate`, not in the menu.
    Sharp,
}

impl std::str::FromStr for Difficulty {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        match s {
            "easy" => Ok(Difficulty::Easy),
            "normal" => Ok(Difficulty::Normal),
            "hard" => Ok(Difficulty::Hard),
            "sharp" => Ok(Difficulty::Sharp),
            _ => Err(format!("unknown difficulty '{s}' (easy, normal, hard, sharp)")),
        }
    }
}

/// Monster behaviours and how each difficulty thinks.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AiBook {
    /// The behaviour of a character that names none.
    pub default_behaviour: String,
    pub behaviours: BTreeMap<String, Behaviour>,
    pub easy: Thinking,
    pub normal: Thinking,
    pub hard: Thinking,
    /// The reference tier: one step deep, no slips, no lookahead.
    pub sharp: Thinking,
    /// How the party plays the crawl's orders (assist, hand, sort loot; `ai/party.rs`).
    #[serde(default)]
    pub party: Party,
    /// How every side fights a crawl's crises (issue 47).
    #[serde(default)]
    pub crawl: Crawl,
}

/// How every side fights a crawl's crises (issue 47; docs/ai.md).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct Crawl {
    /// In a crawl's crisis the nearest enemy is as far as the walk to him (around walls, along
    /// corridors), not the straight line: a fight in a generated maze stalled for 40 turns with
    /// each side passing behind a wall, nearest in a straight line yet a room apart.
    pub walked_distance: bool,
}

impl Default for Crawl {
    fn default() -> Self {
        Crawl { walked_distance: true }
    }
}

/// The party's crawl orders (issue 45; `ai/party.rs`, docs/ai.md).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct Party {
    /// Tasks whose check a free hero next to the one ordering it assists (R-CHK-7, R-EXP-12,
    /// R-EXP-13): `pick_lock`, `force`, `disarm` …
    pub assist: Vec<Task>,
    /// An assist is ordered only when its expected bonus (under the ruleset's `assist` option,
    /// C-34) is at least this.
    pub assist_gain: f64,
    /// A hero below this fraction of his maximum HP (and at or above half: below, a potion is
    /// used on him) who holds no healing item is handed one by a less hurt hero next to him
    /// who is not wounded (R-EXP-8). 0: never.
    pub hand_below: f64,
    /// An open chest next to the leader is sorted and shared out (R-EXP-15) rather than taken
    /// item by item when it holds at least `sort_min_items` items and at least
    /// `sort_min_heroes` heroes can take part; 0 items: never.
    pub sort_min_items: usize,
    pub sort_min_heroes: usize,
    /// A known trap the party's way cannot go around is disarmed from the space before it
    /// (R-EXP-17) instead of the way being given up (issue 47: a trap in sight in a corridor).
    pub disarm: bool,
}

impl Default for Party {
    fn default() -> Self {
        Party { assist: vec![Task::PickLock, Task::Force], assist_gain: 0.1, hand_below: 1.0, sort_min_items: 2, sort_min_heroes: 2, disarm: true }
    }
}

/// How a monster template fights.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Behaviour {
    /// Score per space closed on the nearest enemy by a move without an action.
    pub approach: f64,
    /// Moves to stay at its ranged weapon's base range (adjacent with a melee weapon).
    pub keeps_range: bool,
    /// Retreats once HP is at or below this fraction of its maximum (0: never).
    pub retreat_below: f64,
    /// Multiplies the weight of the enemies' answer.
    pub caution: f64,
    /// Passes early in a round to let the enemy come (needs a patient difficulty).
    pub waits: bool,
}

/// How well a difficulty thinks (see the file for the scoring formula).
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Thinking {
    pub noise: f64,
    /// Chance to forget its free steps in an opportunity.
    pub forget_free_steps: f64,
    /// Chance to lose track of the fight for a turn (it moves but makes no attack or spell).
    #[serde(default)]
    pub forget_action: f64,
    pub runs: bool,
    pub reacts: bool,
    pub heads_for_exits: bool,
    pub patience: bool,
    pub focus: f64,
    pub finish: f64,
    pub drop: f64,
    pub exposure: f64,
    pub answer: f64,
    /// Plays its best candidates ahead before choosing (hard; `lookahead.rs`).
    #[serde(default)]
    pub lookahead: Option<Lookahead>,
}

impl Difficulty {
    /// The name the command line and the files use.
    pub fn name(self) -> &'static str {
        match self {
            Difficulty::Easy => "easy",
            Difficulty::Normal => "normal",
            Difficulty::Hard => "hard",
            Difficulty::Sharp => "sharp",
        }
    }
}

impl AiBook {
    pub fn thinking(&self, d: Difficulty) -> &Thinking {
        match d {
            Difficulty::Easy => &self.easy,
            Difficulty::Normal => &self.normal,
            Difficulty::Hard => &self.hard,
            Difficulty::Sharp => &self.sharp,
        }
    }

    /// The named behaviour, or the default one.
    pub fn behaviour(&self, name: Option<&str>) -> Behaviour {
        name.and_then(|n| self.behaviours.get(n)).or_else(|| self.behaviours.get(&self.default_behaviour)).copied().unwrap_or(Behaviour {
            approach: 0.4,
            keeps_range: false,
            retreat_below: 0.25,
            caution: 1.0,
            waits: false,
        })
    }

    /// Behaviour names, for level validation.
    pub fn names(&self) -> Vec<&str> {
        self.behaviours.keys().map(String::as_str).collect()
    }
}

/// How far hard looks ahead (per decision).
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Lookahead {
    /// Candidates weighed (the planner's best first).
    pub candidates: usize,
    /// Dice streams each candidate is played out on.
    pub rollouts: usize,
    /// Commands played after the candidate in each rollout.
    pub depth: usize,
    /// Commands a whole action phase of one side may simulate, shared by its figures: with
    /// many figures each looks less far (a 30-monster side stays within its time budget).
    pub phase_commands: usize,
    /// A candidate replaces the planner's first choice only when its futures are better by
    /// more than this (in the value's units: a figure at full health is worth 3).
    pub margin: f64,
    /// Value of a figure standing, and of its health fraction (the value of a side is the sum
    /// over its figures, less the enemies').
    pub alive: f64,
    pub health: f64,
    /// Value of winning (or, negated, losing) the crisis inside the horizon.
    pub win: f64,
    /// Also under the DOO profiles (not only ruleset A4).
    #[serde(default)]
    pub doo_profiles: bool,
    /// Under the DOO profiles, the futures stop when the action phase ends (the enemies have
    /// answered) rather than after `depth` commands (`depth` stays the cap).
    #[serde(default)]
    pub to_phase_end: bool,
    /// Positions the model planner scores per decision inside the futures (fewer: cheaper
    /// futures, so more of them in the same time; None: the planner's own cap).
    #[serde(default)]
    pub model_spots: Option<usize>,
    /// Value of each AP a figure still holds at the horizon while the action phase goes on
    /// (AP kept for reactions and later rounds), its side's less its enemies'.
    #[serde(default)]
    pub ap: f64,
    /// Also weighs passing (keeping the AP for a later round and the reactions) when the figure
    /// has not acted yet in its opportunity.
    #[serde(default)]
    pub pass: bool,
    /// The futures play every side with sharp's weights (one step, no answer term: cheaper)
    /// rather than hard's own one-step weights.
    #[serde(default)]
    pub model_sharp: bool,
    /// Looks ahead only when an enemy on the figure's floor is within this many spaces (None:
    /// always); far from the fight the planner's approach is kept and the time saved.
    #[serde(default)]
    pub near: Option<u32>,
    /// The deterministic budget of one decision, in work units (positions the model scores in
    /// the futures, plus 8 per command played): no new sweep of the candidates starts once it
    /// is spent (at least one sweep is played). None: `rollouts` sweeps.
    #[serde(default)]
    pub work: Option<usize>,
    /// A crowded board: beyond this many able figures on it, a decision's share of
    /// `phase_commands` shrinks as (crowd / figures)², since each command a future plays
    /// weighs every figure and the side's phase holds one decision per figure (a 30-monster
    /// side stays within its phase's time; fights up to `crowd` figures are unchanged). None:
    /// no shrinking.
    #[serde(default)]
    pub crowd: Option<usize>,
    /// Also weighs the moves a one-step planner never proposes (issue 45): keeping away from
    /// the enemies (by free steps alone, and with a movement), and the first plan's action
    /// from where the free steps reach (no movement: AP kept for reactions).
    #[serde(default)]
    pub shapes: bool,
    /// A roomy board: below `crowd` able figures, a decision's `work` grows as crowd / figures,
    /// at most this many times (a duel's futures are short: more of them, less luck in the
    /// choice). None: `work` as it stands.
    #[serde(default)]
    pub roomy: Option<f64>,
    /// Session 9: the value also weighs the blows each figure can strike next at the horizon
    /// (`value::next_blow`: its best expected damage as a fraction of the victim's HP, within
    /// its free steps and the AP it holds — at the phase's end, the next turn's roll), its
    /// side's less its enemies', times `health`. 0: off.
    #[serde(default)]
    pub threat: f64,
    /// Session 9: with `to_phase_end`, the futures stop when this many action phases have
    /// ended (0 or 1: this one; 2: the enemies' next turn too; `depth` stays the cap).
    #[serde(default)]
    pub phases: u32,
    /// Session 9: with `shapes`, also weighs the edge: the space nearest the enemies that no
    /// enemy can strike in its next opportunity (`value::Outlook`), by free steps alone and
    /// with a movement — out of reach when the enemy would strike first.
    #[serde(default)]
    pub edge: bool,
    /// Session 16: a figure's worth in the value is weighed by how hard it hits: (1 − menace) +
    /// menace × its expected damage an attack (a fraction of its enemies' HP, from where it
    /// stands to anywhere in reach) over the mean of every figure's, so a future that fells the
    /// enemies' archer or keeps one's own counts for more than one that fells a weak figure.
    /// 0: off (every figure weighs the same).
    #[serde(default)]
    pub menace: f64,
    /// Session 19: the level's goals in the value. A side that wins by reaching an exit
    /// (`ReachExit`) gains `exit` for each space its able figure nearest the exit is nearer
    /// (walked, around walls) at the horizon. 0: off.
    #[serde(default)]
    pub exit: f64,
}
