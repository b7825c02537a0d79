//! The combat log panel: one readable line per entry a player cares about, names instead of
//! ids, dice with each die, the parts of the adjustment and the total. Lines are described from
//! the typed `LogEntry`s (a renamed field is a compile error, not a silently blank line).

use super::{HudSystems, names};
use crate::game::components::CharacterId;
use crate::game::log::MatchLog;
use bevy::input::mouse::AccumulatedMouseScroll;
use bevy::prelude::*;
use doo_rules::replay::LogEntry;
use doo_rules::rules::Event;
use doo_rules::rules::a4::state::{HELD as A4_HELD, OPPORTUNITY as A4_OPPORTUNITY};
use doo_rules::rules::fighter::Pool;
use std::collections::BTreeMap;

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<LogScroll>().add_systems(Update, refresh_log.in_set(HudSystems::Draw));
}

/// Lines the log panel shows at once.
const LOG_LINES: usize = 22;

/// How many lines the log is scrolled back.
#[derive(Resource, Debug, Default)]
struct LogScroll(usize);

#[derive(Component)]
pub(crate) struct LogText;
#[derive(Component)]
pub(super) struct LogPanel;

fn words(s: &str) -> String {
    s.replace('_', " ")
}

/// One readable line for a log entry, or `None` for entries players do not need to read.
pub fn describe(entry: &LogEntry, names: &BTreeMap<String, String>) -> Option<String> {
    let name = |id: &str| names.get(id).cloned().unwrap_or_else(|| id.to_string());
    let event = match entry {
        LogEntry::Verdict { result: Err(v), .. } => return Some(format!("Refused: {} ({})", v.reason, v.rule)),
        LogEntry::Verdict { .. } => return None,
        LogEntry::Event { event, .. } => event,
    };
    Some(match event {
        Event::Dice { actor, purpose, roll, parts } => {
            let faces: Vec<String> = roll.dice.iter().map(|d| d.faces.iter().map(u32::to_string).collect::<Vec<_>>().join("+")).collect();
            let parts: Vec<String> = parts.iter().map(|(what, v)| format!("{} {v:+}", words(what))).collect();
            let adj = match (roll.adjustment, parts.is_empty()) {
                (0, true) => String::new(),
                (a, true) => format!(" {a:+}"),
                (a, false) => format!(" {a:+} [{}]", parts.join(", ")),
            };
            format!("{} {}: d{} ({}){adj} = {}", name(actor), words(purpose), roll.rank, faces.join(", "), roll.total)
        }
        Event::ResetStep { step, name: what } => format!("Reset step {step}: {}", words(what)),
        Event::ApSet { actor, ap, .. } => format!("{} has {ap} AP", name(actor)),
        Event::ApSpent { actor, amount, ap, for_what } => format!("{} spends {amount} AP on {} ({ap} left)", name(actor), words(for_what)),
        Event::OnlyMode { actor, action } => format!("{}: {} is an Only action - nothing more this turn", name(actor), words(action)),
        // Ruleset A4 opens turns without AP (DoO never opens an opportunity at 0 AP).
        Event::Opportunity { actor, ap: 0 } => format!("- {}'s turn", name(actor)),
        Event::Opportunity { actor, ap } => format!("- {}'s opportunity ({ap} AP)", name(actor)),
        Event::Initiative { turn, order } => {
            format!("Round {turn} initiative: {}", order.iter().map(|(id, n)| format!("{} {n}", name(id))).collect::<Vec<_>>().join(", "))
        }
        Event::SlotsUsed { actor, act, slots, .. } if !slots.is_empty() => format!("{}: {} ({})", name(actor), words(act), slots.join(" + ")),
        Event::Round { round, .. } => format!("Round {round}"),
        Event::Phase { phase, turn } if phase == "round_start" => format!("Round {turn} begins"),
        Event::Phase { phase, turn } if phase == "round_end" => format!("Round {turn} ends"),
        Event::Phase { phase, turn } => format!("Turn {turn}: {}", words(phase)),
        Event::Moved { actor, movement, to, .. } => format!("{}: {} to ({}, {})", name(actor), words(movement), to.x, to.y),
        Event::FreeStepsLost { actor, reason } => format!("{} loses the free steps: {reason}", name(actor)),
        Event::AttackDeclared { actor, target, action, .. } => format!("{} attacks {} ({})", name(actor), name(target), words(action)),
        Event::ReflexDeclared { actor, reflex, .. } => format!("{} answers with {}", name(actor), reaction_words(reflex)),
        Event::ResponseDeclared { actor, response, .. } => format!("{} responds with {}", name(actor), words(response)),
        // A miss deals nothing: no "0 damage (0 - armor 0)" after it.
        Event::AttackResolved { actor, target, defense_cr, attack_total, margin, outcome, damage: 0, raw_damage: 0, .. } if *margin < 0 => {
            format!("{} vs {}: {attack_total} against {defense_cr} - {}", name(actor), name(target), words(outcome))
        }
        Event::AttackResolved { actor, target, defense_cr, attack_total, outcome, raw_damage, damage_parts, reduction, damage, .. } => format!(
            "{} vs {}: {attack_total} against {defense_cr} - {}, {damage} damage ({})",
            name(actor),
            name(target),
            words(outcome),
            damage_sum(*raw_damage, damage_parts, *reduction)
        ),
        Event::HpChanged { actor, from, to, reason } => format!("{}: HP {from} -> {to} ({})", name(actor), words(reason.trim_start_matches("a4_"))),
        Event::PoolChanged { actor, pool, from, to, reason } => {
            let pool = match pool {
                Pool::Mana => "MP",
                Pool::Faith => "FP",
            };
            format!("{}: {pool} {from} -> {to} ({})", name(actor), words(reason))
        }
        Event::ConditionAdded { actor, condition } => format!("{} is now {}", name(actor), words(&condition.id)),
        Event::ConditionRemoved { actor, condition, reason } => format!("{} is no longer {} ({reason})", name(actor), words(condition)),
        Event::ItemUsed { actor, item } => format!("{} uses {}", name(actor), words(item)),
        Event::Died { actor } => format!("{} dies", name(actor)),
        // With no AP left to keep (ruleset A4 has none), passing is ending the turn.
        Event::OpportunityEnded { actor, passed: true, ap: 0 } => format!("{} ends the turn", name(actor)),
        Event::OpportunityEnded { actor, passed: true, ap } => format!("{} passes ({ap} AP kept)", name(actor)),
        Event::PhaseEnded { .. } => "The action phase ends".to_string(),
        Event::CrisisOver { winner, reason, .. } => {
            format!("The crisis is over: {} ({reason})", winner.as_ref().map_or("nobody wins".to_string(), |w| format!("{w} win")))
        }
        Event::Note { text } => text.clone(),
        Event::Story { text, .. } => text.clone(),
        Event::CpEarned { hero, cp, rule, why } => format!("{} earns {cp} CP: {why} ({rule})", name(hero)),
        Event::ExplorationTurn { turn, minute } => format!("Exploration turn {turn} (minute {minute})"),
        Event::DoorChanged { actor, at, state } => format!("{}: the door at ({}, {}) is {state}", name(actor), at.x, at.y),
        Event::TaskOrdered { actor, task, .. } => format!("{} sets out to {} (done at the end of the turn)", name(actor), task.label()),
        // The chest's own line (`ChestOpened`, just before) already tells what is in it.
        Event::TaskDone { task: doo_rules::rules::explore::Task::OpenChest, success: true, .. } => return None,
        Event::TaskDone { text, .. } => text.clone(),
        Event::FeatureFound { actor, what, at } => format!("{} finds a {} at ({}, {})", name(actor), words(what), at.x, at.y),
        Event::TrapSprung { actor, at, .. } => format!("A trap springs on {} at ({}, {})!", name(actor), at.x, at.y),
        Event::ChestOpened { actor, items, .. } => format!(
            "{} opens a chest: {}",
            name(actor),
            if items.is_empty() { "empty".into() } else { items.iter().map(|i| words(i)).collect::<Vec<_>>().join(", ") }
        ),
        Event::ItemTaken { actor, item, .. } => format!("{} takes the {}", name(actor), words(item)),
        Event::ItemDropped { actor, item, .. } => format!("{} drops the {}", name(actor), words(item)),
        Event::Waited { actor } => format!("{} waits", name(actor)),
        Event::CrisisBegins { reason, surprised, .. } => format!(
            "CRISIS: {reason}!{}",
            if surprised.is_empty() { String::new() } else { format!(" Surprised: {}", surprised.iter().map(|s| name(s)).collect::<Vec<_>>().join(", ")) }
        ),
        Event::EncounterOver { reason, .. } => format!("The fight is over ({reason}); exploring again"),
        // Issue 43: every event the rules emit is told here or named as told by another line;
        // no catch-all arm, so a new event cannot go untold without the compiler saying so.
        e @ (Event::WeaponBroken { .. }
        | Event::WeaponDropped { .. }
        | Event::PostureChanged { .. }
        | Event::TieBroken { .. }
        | Event::ForcedFaceRejected { .. }
        | Event::FreeStepsGranted { .. }
        | Event::FreeStepsUsed { .. }
        | Event::ActionTaken { .. }
        | Event::AdjustmentAdded { .. }
        | Event::AdjustmentRemoved { .. }
        | Event::ReflexWindow { .. }
        | Event::ResponseWindow { .. }
        | Event::ReflexOutcome { .. }
        | Event::AttackBlocked { .. }
        | Event::AttackCancelled { .. }
        | Event::ReactionDeclined { .. }
        | Event::RecoveryChoice { .. }
        | Event::Revealed { .. }
        | Event::TaskCheck { .. }
        | Event::Says { .. }
        | Event::Assisted { .. }
        | Event::ItemHanded { .. }
        | Event::Traded { .. }
        | Event::Groups { .. }) => return more_events(e, &name),
        // An opportunity that ended by its action: the next line opens the next one.
        Event::OpportunityEnded { passed: false, .. } => return None,
        // An A4 act that used no slot (nothing to tell beyond its own line).
        Event::SlotsUsed { .. } => return None,
    })
}

/// The lines of the events told since issue 43 (weapons, posture, windows, ties, free steps,
/// adjustments, checks, words and trades): `describe` names each of them.
fn more_events(event: &Event, name: &dyn Fn(&str) -> String) -> Option<String> {
    Some(match event {
        Event::WeaponBroken { actor, weapon } => format!("{}'s {} breaks! (disastrous miss)", name(actor), words(weapon)),
        Event::WeaponDropped { actor, weapon, at } => {
            format!("{} drops the {}! It lies at ({}, {}) until picked up", name(actor), words(weapon), at.x, at.y)
        }
        Event::PostureChanged { actor, from, to } => {
            format!("{} is now {} (was {})", name(actor), words(&format!("{to:?}").to_lowercase()), words(&format!("{from:?}").to_lowercase()))
        }
        Event::TieBroken { between, winner, by } => {
            format!("Tie between {}: {} goes first (by {})", between.iter().map(|b| name(b)).collect::<Vec<_>>().join(", "), name(winner), words(by))
        }
        Event::ForcedFaceRejected { face, rank } => format!("A scripted die face {face} cannot come up on a d{rank}: the die is rolled"),
        // The card tells a figure's free steps ("Free steps: 2 available"); a line per figure at
        // every reset would hold the reset display up to twice as long.
        Event::FreeStepsGranted { .. } => return None,
        Event::FreeStepsUsed { actor, spaces, forfeited: 0 } => format!("{} takes {spaces} free step(s)", name(actor)),
        Event::FreeStepsUsed { actor, spaces, forfeited } => {
            format!("{} takes {spaces} free step(s); the other {forfeited} are given up", name(actor))
        }
        // The AP line names the action (`ApSpent`), the attack line its target (`AttackDeclared`).
        Event::ActionTaken { .. } => return None,
        Event::AdjustmentAdded { adjustment, .. } | Event::AdjustmentRemoved { adjustment, .. } if adjustment.value == 0 => return None,
        Event::AdjustmentAdded { actor, adjustment } => {
            format!("{}: {} {:+} until the next reset ({})", name(actor), adj_target(adjustment), adjustment.value, words(&adjustment.source))
        }
        // Reset step 2 ends them all at once, and says so in its own line.
        Event::AdjustmentRemoved { .. } => return None,
        // A4-4.1, A4-3.16: an out-of-turn strike answers a move or a trigger, not an attack.
        Event::ReflexWindow { defender, attacker, options } if options.iter().all(|o| o == A4_OPPORTUNITY || o == A4_HELD) && !options.is_empty() => {
            format!(
                "{} may strike {} out of turn: {}",
                name(defender),
                name(attacker),
                options.iter().map(|o| reaction_words(o)).collect::<Vec<_>>().join(", ")
            )
        }
        Event::ReflexWindow { defender, attacker, options } => {
            format!("{} may answer {}'s attack: {}", name(defender), name(attacker), options.iter().map(|o| reaction_words(o)).collect::<Vec<_>>().join(", "))
        }
        Event::ResponseWindow { defender, attacker, options } => {
            format!("{} may respond to {}'s attack: {}", name(defender), name(attacker), options.iter().map(|o| words(o)).collect::<Vec<_>>().join(", "))
        }
        Event::ReflexOutcome { actor, reflex, success, attacker_total, defender_total } => {
            format!("{}'s {} {} ({defender_total} against {attacker_total})", name(actor), words(reflex), if *success { "succeeds" } else { "fails" })
        }
        Event::AttackBlocked { actor, target, by } => format!("{} blocks {}'s attack on {}", words(by), name(actor), name(target)),
        Event::AttackCancelled { actor, target, reason } => format!("{}'s attack on {} does not happen: {reason}", name(actor), name(target)),
        Event::ReactionDeclined { actor } => format!("{} does not react", name(actor)),
        Event::RecoveryChoice { actor, pool } => {
            format!("{} will recover {} at the reset", name(actor), if *pool == Pool::Mana { "Mana (MP)" } else { "Faith (FP)" })
        }
        Event::Revealed { side, spaces } => format!("{}: {spaces} space(s) come into view", words(side)),
        Event::TaskCheck { actor, check, object, margin } => format!(
            "{}: {} check on the {}: {} by {}",
            name(actor),
            words(check),
            words(object),
            if *margin >= 0 { "passed" } else { "failed" },
            margin.unsigned_abs()
        ),
        Event::Says { actor, to, text } => format!("{} to {}: \"{text}\"", name(actor), name(to)),
        Event::Assisted { actor, helped, bonus } => format!("{} helps {} ({bonus:+})", name(actor), name(helped)),
        Event::ItemHanded { actor, to, item } => format!("{} hands the {} to {}", name(actor), words(item), name(to)),
        Event::Traded { actor, with, gave, got } => {
            format!("{} gives {} the {} for the {}", name(actor), name(with), gave.iter().map(|g| words(g)).collect::<Vec<_>>().join(" and "), words(got))
        }
        Event::Groups { groups } => {
            let groups: Vec<String> = groups.iter().filter(|g| g.len() > 1).map(|g| g.iter().map(|m| name(m)).collect::<Vec<_>>().join(" + ")).collect();
            if groups.is_empty() { "Everyone moves alone".to_string() } else { format!("Moving together: {}", groups.join("; ")) }
        }
        // `describe` hands only the events above to this function.
        _ => return None,
    })
}

/// A reflex's name in the words of its ruleset (issue 43): ruleset A4's out-of-turn choices are
/// an attack of opportunity (A4-4.1), a held action (A4-3.16) and a reactive defense (A4-3.21).
fn reaction_words(id: &str) -> String {
    use doo_rules::rules::a4::state::REACTIVE;
    match id {
        A4_OPPORTUNITY => "an attack of opportunity".into(),
        A4_HELD => "its held action".into(),
        REACTIVE => "a reactive defense".into(),
        _ => words(id),
    }
}

/// Issue 43: a damage total with every part named ("5 rolled + 2 solid hit = 7 - armor 1"); a
/// part of 0 is a rule that applied ("; solid hit: at least 2"). Without parts: the total.
fn damage_sum(raw: i32, parts: &[(doo_rules::rules::event::Text, i32)], armor: i32) -> String {
    let (sum, notes): (Vec<_>, Vec<_>) = parts.iter().partition(|p| p.1 != 0 || p.0 == "rolled");
    let mut s = String::new();
    if sum.is_empty() {
        s += &raw.to_string();
    }
    for (k, (what, v)) in sum.iter().enumerate() {
        s += &match (k, *v < 0) {
            (0, _) => format!("{v} {}", words(what)),
            (_, false) => format!(" + {v} {}", words(what)),
            (_, true) => format!(" - {} {}", v.unsigned_abs(), words(what)),
        };
    }
    if sum.len() > 1 {
        s += &format!(" = {raw}");
    }
    s += &format!(" - armor {armor}");
    for (what, _) in notes {
        s += &format!("; {}", words(what));
    }
    s
}

/// "Defense" or "Attack": what an adjustment changes.
fn adj_target(a: &doo_rules::rules::fighter::TempAdjustment) -> &'static str {
    match a.target {
        doo_rules::rules::fighter::AdjTarget::Defense => "Defense",
        doo_rules::rules::fighter::AdjTarget::Attack => "Attack",
    }
}

/// Whether the log tells `entry` to the side shown (`None`: no fog, everything is told):
/// an event if that side saw it when it happened (`seen_by`, R-EXP-19; an entry without it was
/// seen by all), a verdict only on that side's own orders (`side_of` an actor).
pub fn told_to(entry: &LogEntry, viewer: Option<&str>, side_of: impl Fn(&str) -> Option<String>) -> bool {
    match (viewer, entry) {
        (None, _) => true,
        (Some(side), LogEntry::Verdict { command, .. }) => side_of(command.actor()).is_none_or(|s| s == side),
        (Some(side), LogEntry::Event { seen_by, .. }) => seen_by.as_ref().is_none_or(|s| s.iter().any(|x| x == side)),
    }
}

fn refresh_log(
    log: Res<MatchLog>,
    chars: Query<(&CharacterId, &Name)>,
    scroll: Res<AccumulatedMouseScroll>,
    panel: Query<&Interaction, With<LogPanel>>,
    mut offset: ResMut<LogScroll>,
    mut text: Query<(Entity, &mut Text), With<LogText>>,
    mut last: Local<(usize, usize, Option<Entity>)>,
    fog: Res<crate::window::board::Fog>,
    state: Option<Res<crate::game::components::MatchState>>,
) {
    let over = panel.iter().any(|i| *i != Interaction::None);
    if over && scroll.delta.y != 0.0 {
        offset.0 = if scroll.delta.y > 0.0 { offset.0 + 3 } else { offset.0.saturating_sub(3) };
    }
    let Ok((shown, mut t)) = text.single_mut() else { return };
    // Issue 43: each match's log starts at its newest line, and a new log panel (Continue on a
    // finished match) is written even when the log is as long as the last one was.
    if last.2 != Some(shown) || log.len() < last.0 {
        offset.0 = 0;
    }
    if *last == (log.len(), offset.0, Some(shown)) && !fog.is_changed() {
        return;
    }
    let n = names(&chars);
    // Fog of war (R-EXP-19): an event is told to the side shown if that side saw it when it
    // happened (the log's `seen_by`, kept by the rules), not by the fog as it is now; another
    // side's orders (their verdicts) are not told at all.
    let viewer = fog.view.as_ref().and(fog.side.as_deref());
    let side_of = |id: &str| state.as_ref().and_then(|s| s.0.fighters.iter().find(|f| f.id == id).map(|f| f.side.clone()));
    let told = |l: &&LogEntry| told_to(l, viewer, &side_of);
    let lines: Vec<String> = log.entries().iter().filter(told).filter_map(|l| describe(l, &n)).collect();
    offset.0 = offset.0.min(lines.len().saturating_sub(LOG_LINES));
    *last = (log.len(), offset.0, Some(shown));
    let end = lines.len() - offset.0;
    let start = end.saturating_sub(LOG_LINES);
    let mut s = String::new();
    if start > 0 {
        s += &format!("^ {start} earlier\n");
    }
    s += &lines[start..end].join("\n");
    if offset.0 > 0 {
        s += &format!("\nv {} newer", offset.0);
    }
    t.0 = s;
}
