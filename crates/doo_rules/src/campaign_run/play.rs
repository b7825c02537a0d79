//! Playing a campaign script: between levels the recruits (R-CP-14) and purchases (R-CP-11),
//! each level through the one flow (its commands, forced dice and AI seats), its end by
//! `campaign::finish_level_with` (CP, carry-over, the rest with its forced dice), and the
//! heroes as the rules build them after it.

use super::format::{Loaded, Play, caps};
use crate::ai::{self, AiConfig};
use crate::campaign::{self, Progress};
use crate::data::RuleData;
use crate::replay::{LogEntry, Origin, Replay};
use crate::rules::Dice;
use crate::rules::event::Event;
use serde_json::{Value, json};
use std::collections::BTreeMap;

/// A log entry as `doo run` prints it (`LogEntry::line`), with the play it belongs to.
fn log_line(play: usize, e: &LogEntry) -> Value {
    let mut line = e.line();
    line["play"] = json!(play);
    line
}

/// An event the campaign adds (not caused by a command), as a log line of `play`.
fn event_line(play: usize, event: Event) -> Value {
    log_line(play, &LogEntry::Event { index: None, event, seen_by: None })
}

/// Between levels: recruits join (R-CP-14), then the purchases are made in order (R-CP-11).
fn between(l: &Loaded, k: usize, play: &Play, progress: &mut Progress, data: &RuleData, out: &mut Vec<Value>) {
    let n = k + 1;
    for h in &l.recruits[k] {
        match campaign::recruit(&l.campaign, progress, h.clone()) {
            Ok(()) => out.push(json!({"type": "recruit", "play": n, "hero": h.name, "cp_earned": progress.roster.last().map(|h| h.cp_earned)})),
            Err(v) => out.push(json!({"type": "refused", "play": n, "hero": h.name, "what": "recruit", "rule": v.rule, "reason": v.reason})),
        }
    }
    for b in &play.buy {
        let what = b.purchase.describe(&data.heroes);
        let Some(h) = progress.roster.iter_mut().find(|h| h.name == b.hero || h.id() == b.hero) else {
            let reason = format!("No hero called {} is in the party.", b.hero);
            out.push(json!({"type": "refused", "play": n, "hero": b.hero, "what": what, "rule": "R-CP-11", "reason": reason}));
            continue;
        };
        match campaign::spend(h, b.purchase.clone(), &data.heroes) {
            Ok(cost) => out.push(json!({"type": "bought", "play": n, "hero": h.name, "what": what, "purchase": b.purchase, "cost": cost})),
            Err(v) => out.push(json!({"type": "refused", "play": n, "hero": h.name, "what": what, "rule": v.rule, "reason": v.reason})),
        }
    }
}

/// Plays one level: the scripted commands, the AI for its seats, until the crisis is over or
/// nobody is left to send a command.
fn play_level(r: &mut Replay, play: &Play, cfg: &AiConfig) {
    let mut next = 0;
    let mut ai_sent = 0;
    let minutes = |r: &Replay| r.m.explore.as_deref().map_or(0, |x| x.turn);
    while !r.over && r.m.clock.turn <= caps::TURNS && minutes(r) <= caps::EXPLORATION_TURNS {
        if let Some(i) = ai::who_decides(&r.m, cfg).filter(|_| ai_sent < caps::AI_COMMANDS) {
            let c = ai::decide(&r.m, i, cfg);
            ai_sent += 1;
            if r.push(&c).is_err() {
                // the AI's command refused: its figure ends its opportunity, as the game's AI does
                let _ = r.push(&crate::rules::Command::End { actor: r.m.fighters[i].id.clone() });
            }
            continue;
        }
        let Some(c) = play.commands.get(next) else { break };
        next += 1;
        let _ = r.push(c);
    }
}

/// Plays a loaded campaign script; returns every output line (docs/campaigns.md).
pub fn run(l: &Loaded, data: &RuleData) -> Result<Vec<Value>, String> {
    let c = &l.campaign;
    let s = &l.script;
    let mut progress = Progress::start(c, l.party.clone(), Vec::new(), s.seed);
    let mut out = Vec::new();
    for (k, play) in s.plays.iter().enumerate() {
        let n = k + 1;
        let Some(id) = progress.level.clone() else {
            out.push(json!({"type": "note", "play": n, "text": "the campaign is over: this play is not played"}));
            break;
        };
        between(l, k, play, &mut progress, data, &mut out);
        let text = campaign::level_for(c, &progress, &id, data).map_err(|e| format!("play {n}, level '{id}': {e}"))?;
        let lpath = l.path.with_file_name(format!("level-{n:03}-{id}.ron"));
        let level = campaign::check_level_text(&lpath, &text, data)
            .map_err(|e| format!("play {n}, level '{id}': the level as the campaign plays it (its party replaced by the heroes) is refused: {e}"))?;
        progress.begin_level();
        let playing: Vec<String> = progress.roster.iter().filter(|h| !progress.sitting_out.contains(&h.name)).map(|h| h.name.clone()).collect();
        out.push(json!({"type": "level_start", "play": n, "level": id, "heroes": playing, "sitting_out": progress.sitting_out}));
        let m = level.build(data).map_err(|e| e.join("; "))?;
        let mut dice = Dice::seeded(s.seed.wrapping_add(n as u64));
        dice.force(play.dice.iter().copied());
        let mut r = Replay::start(&Origin::new(m, dice));
        let seats = play.ai.iter().map(String::as_str);
        let cfg = AiConfig::for_level(seats, &level.behaviours, &level.level.victory, play.difficulty, &BTreeMap::new(), s.seed, data.ai.clone());
        play_level(&mut r, play, &cfg);
        out.extend(r.log.iter().map(|e| log_line(n, e)));
        let winner = r.outcome.as_ref().and_then(|o| o.winner.clone());
        let won = winner.as_deref() == Some(c.campaign.party_side.as_str());
        let events: Vec<Event> = r.log.iter().filter_map(|e| if let LogEntry::Event { event, .. } = e { Some(event.clone()) } else { None }).collect();
        let report = campaign::finish_level_with(c, &mut progress, &r.m, &events, won, data, &play.rest_dice);
        // R-CP-10: the level's awards, told as the match told R-CP-9's.
        for line in report.record.cp.iter().filter(|x| x.rule != "R-CP-9") {
            out.push(event_line(n, line.clone().event()));
        }
        let name_of = |hid: &str| report.after_level.iter().chain(&progress.roster).find(|h| h.id() == hid).map_or(hid.to_string(), |h| h.name.clone());
        let cp: BTreeMap<String, u32> = report.record.cp.iter().fold(BTreeMap::new(), |mut acc, x| {
            let n: &mut u32 = acc.entry(name_of(&x.hero)).or_default();
            *n = n.saturating_add(x.cp);
            acc
        });
        out.push(json!({
            "type": "level", "play": n, "level": id, "over": r.over, "winner": winner, "won": won, "turns": r.m.clock.turn,
            "cp": cp, "fallen": report.record.fallen, "rest": report.record.rest, "next": progress.level,
            "sitting_out": progress.sitting_out, "forced_dice_left": r.dice.forced_remaining(),
        }));
        for h in &progress.roster {
            let j = campaign::hero_json(h, data).map_err(|v| format!("{}: {v}", h.name))?;
            out.push(json!({"type": "hero", "play": n, "hero": j}));
        }
    }
    let heroes: Vec<Value> = progress.roster.iter().filter_map(|h| campaign::hero_json(h, data).ok()).collect();
    out.push(json!({"type": "campaign", "campaign": c.campaign.name, "won": progress.won, "next": progress.level, "heroes": heroes}));
    Ok(out)
}
