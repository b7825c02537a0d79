//! What covers the board: the reset steps (one at a time, R skips) and a level's story lines, help, the hot-seat
//! handover screen, the match menu and Save as, and the reload error. `Overlay` (what is open)
//! lives with the board, which takes no input under one; the result is its own screen
//! (screens/result.rs).

use super::MatchAct;
use super::log::describe;
use super::{HudSystems, names};
use crate::game::components::CharacterId;
use crate::game::log::MatchLog;
use crate::window::board::Overlay;
use crate::window::screens::{Go, Screen};
use crate::window::settings::Settings;
use crate::window::theme::prelude::*;
use bevy::prelude::*;
use doo_rules::replay::LogEntry;
use doo_rules::rules::Event;

pub(super) fn plugin(app: &mut App) {
    app.add_systems(OnExit(Screen::Match), |mut o: ResMut<Overlay>| *o = Overlay::default())
        .add_systems(Update, show_reset_steps.in_set(HudSystems::Result))
        .add_systems(Update, (show_overlays, show_reload_error).in_set(HudSystems::Draw));
}

#[derive(Component)]
struct OverlayRoot;
#[derive(Component)]
struct ResetText;
#[derive(Component)]
pub(super) struct ReloadErrorText;

/// The reset phase, one step at a time (R to skip): bleeding, removals, recovery, AP rolls.
fn show_reset_steps(
    time: Res<Time>,
    settings: Res<Settings>,
    log: Res<MatchLog>,
    chars: Query<(&CharacterId, &Name)>,
    mut overlay: ResMut<Overlay>,
    view: Res<crate::game::intent::PlayerView>,
    mut seen: Local<usize>,
) {
    // A reaction prompt is this player's to answer now (a network match does not wait for the
    // reset display): the display gives way.
    if view.reactions.is_some() && overlay.reset.is_some() {
        overlay.reset = None;
    }
    if log.len() < *seen {
        *seen = 0; // a new match, or the same one replayed shorter (undo)
    }
    // What a replay rebuilt (resume, undo) was shown when it was played.
    *seen = (*seen).max(log.shown_from);
    let new = &log.entries()[*seen..];
    *seen = log.len();
    let n = names(&chars);
    let mut in_reset = false;
    let mut lines = Vec::new();
    let mut story_chars = 0;
    for l in new {
        // A level's story (its events' messages, issue 31) is shown on the board as it comes.
        if let LogEntry::Event { event: Event::Story { text, .. }, .. } = l {
            lines.push(text.clone());
            story_chars += text.chars().count();
            continue;
        }
        if let LogEntry::Event { event: Event::Phase { phase, .. }, .. } = l {
            in_reset = phase.contains("reset") || phase.starts_with("round");
            if !in_reset {
                continue;
            }
        }
        if in_reset {
            lines.extend(describe(l, &n));
        }
    }
    if !lines.is_empty() && settings.animation_speed > 0.0 {
        // A story line stays up long enough to be read (about 25 characters a second, at most
        // 6 s more): the timer starts below zero.
        let hold = (story_chars as f32 / 25.0).min(6.0);
        overlay.reset = Some((1, lines, -hold));
    }
    // Ticking the timer is not a change; showing one more line or closing is.
    let o = overlay.bypass_change_detection();
    let mut changed = false;
    if let Some((shown, all, t)) = o.reset.as_mut() {
        *t += time.delta_secs() * settings.animation_speed.max(0.01);
        if *t > 0.35 {
            *t = 0.0;
            *shown += 1;
            changed = true;
        }
        if *shown > all.len() + 4 {
            o.reset = None;
        }
    }
    if changed {
        overlay.set_changed();
    }
}

/// F1 help for the DoO rules' crisis (AP, free steps, opportunities).
const HELP_DOO: &str = "Crisis (DoO rules: AP, opportunities)
  Left click a highlighted space: move there (green: free steps, 0 AP; blue: Step; orange: Run, costs Defense)
  Left click an enemy: attack it with the first attack that reaches;  hover a figure: its card and attack odds
  1-9, 0 (Shift for 11-20): action bar entries;  then click a highlighted target (Esc / right click cancels)
  Enter: end the opportunity (pass when nothing was done: keep your AP, act later this round)
  Reaction prompt: 1-9 choose, N decline;  Ctrl+Z: undo the last move, free steps or posture change of this opportunity";

/// F1 help for ruleset A4's crisis (rounds, initiative, slots).
const HELP_A4: &str = "Crisis (ruleset A4: rounds, initiative, standard / move / minor slots)
  Left click a highlighted square: five-foot step (green), move (blue, \"M\"), run (orange, \"R\")
  \"!\" on a square, red squares on the path: leaving them draws an attack of opportunity
  Left click an enemy: attack it;  1-9, 0 (Shift for 11-20): the acts on the bar (full attack, charge, full defense, delay, hold, reload...)
  Enter: end the figure's turn;  reaction prompt (attack of opportunity, held strike, reactive defense): 1-9 choose, N decline";

/// F1 help for a crawl's Exploration Mode.
const HELP_CRAWL: &str = "Crawl (Exploration Mode, a minute a turn)
  Left click a hero of the party (or F): he takes the orders;  a lit space: walk there, his group following its leader
  Left click a door next to him: open or close it;  a closed chest next to him: open it;  a foe in sight: attack (a crisis starts)
  1-9, 0: his orders on the bar (search, pick a lock, force, disarm, take, use an item, wait, follow, leave the group)
  Enter: end the turn (tasks take effect, a minute passes);  a foe seen or a trap springing starts a crisis";

/// F1 help for every match.
const HELP_ALL: &str = "Everywhere
  Drag or WASD: pan;  wheel or + / -: zoom;  Home: fit the level;  PageUp / PageDown: floors
  Tab / Shift+Tab: the bar's groups (Move, Attack, Defend & react, Items & other)
  Arrows: move the board cursor (it starts on the figure who acts);  Space: click the space under it;  F: next own figure
  R: skip the reset display;  F1 or H: this help;  F2: the rules reference (at the rule id shown last);  Esc: cancel / close / match menu
  Ctrl+S: save as
Every greyed entry says why, with its rule id: F2 opens that rule in the rules reference.";

/// The largest font (15 down to 8 UI pixels) at which `help` fits a `w` × `h` UI-pixel screen
/// with its Close button: at UI scale 2 the help gets a smaller font instead of running off it.
/// The UI font is monospaced (0.6 em a character); lines wrap at the screen's width.
pub fn help_font(help: &str, w: f32, h: f32) -> f32 {
    let fits = |f: f32| {
        let per_line = ((w - 40.0) / (0.6 * f)).max(10.0);
        let lines: f32 = help.lines().map(|l| (l.chars().count() as f32 / per_line).ceil().max(1.0)).sum();
        lines * f * 1.25 + 70.0 <= h
    };
    [15.0, 14.0, 13.0, 12.0, 11.0, 10.0, 9.0].into_iter().find(|&f| fits(f)).unwrap_or(8.0)
}

/// The F1 help for a match: its crisis rules (DoO or A4), the crawl's orders when it is a crawl,
/// then the keys every match has. The keys are those of `input.rs`, `board/cursor.rs` and `board/camera.rs`.
pub fn help_text(crawl: bool, a4: bool) -> String {
    let mut parts = Vec::new();
    if crawl {
        parts.push(HELP_CRAWL);
    }
    parts.push(if a4 { HELP_A4 } else { HELP_DOO });
    parts.push(HELP_ALL);
    parts.join("\n")
}

/// Lines of the reset display kept on screen: the newest, like a ticker (all of them are in the
/// combat log), so the panel never covers half the board.
const RESET_LINES_SHOWN: usize = 8;

fn reset_lines(all: &[String], shown: usize) -> String {
    let end = shown.min(all.len());
    let start = end.saturating_sub(RESET_LINES_SHOWN);
    let more = if start > 0 { format!("({start} earlier in the log)\n") } else { String::new() };
    more + &all[start..end].join("\n") + "\n[R] skip"
}

/// A panel over the whole match screen that takes the pointer, its contents centred in a column.
pub(super) fn full_screen(c: Color) -> impl Bundle {
    (
        DespawnOnExit(Screen::Match),
        Interaction::default(),
        Blocks,
        bevy::ui::FocusPolicy::Block,
        Node {
            position_type: PositionType::Absolute,
            width: Val::Percent(100.0),
            height: Val::Percent(100.0),
            flex_direction: FlexDirection::Column,
            align_items: AlignItems::Center,
            justify_content: JustifyContent::Center,
            row_gap: Val::Px(10.0),
            padding: UiRect::all(Val::Px(16.0)),
            ..default()
        },
        BackgroundColor(c),
    )
}

/// Help, handover and result overlays, and the reset steps panel.
fn show_overlays(
    mut commands: Commands,
    overlay: Res<Overlay>,
    old: Query<Entity, With<OverlayRoot>>,
    mut reset_text: Query<&mut Text, With<ResetText>>,
    state: Option<Res<crate::game::components::MatchState>>,
    windows: Query<&Window>,
    ui: Res<UiScale>,
    playtest: Option<Res<crate::window::screens::editor::PlayTest>>,
    setup: Option<Res<crate::window::session::MatchSetup>>,
) {
    if !overlay.is_changed() {
        return;
    }
    // The reset panel only updates its text while it stays.
    let only_reset_changed = old.iter().next().is_some() && overlay.reset.is_some() && overlay.blocks_board().is_none() && reset_text.iter().next().is_some();
    if only_reset_changed {
        if let (Some((shown, all, _)), Ok(mut t)) = (&overlay.reset, reset_text.single_mut()) {
            let s = reset_lines(all, *shown);
            if t.0 != s {
                t.0 = s;
            }
        }
        return;
    }
    for e in &old {
        commands.entity(e).despawn();
    }
    let full = |c: Color| (OverlayRoot, GlobalZIndex(40), full_screen(c));
    if let Some(p) = &overlay.handover {
        commands.spawn((Name::new("Handover"), full(palette::PANEL_SOLID))).with_children(|c| {
            c.spawn(text(format!("Pass to {p}"), 42.0, palette::GOLD));
            c.spawn(text("The board is hidden so nobody sees the other player's choices.", 16.0, palette::DIM));
            c.spawn(button(format!("I am {p} - show the board  [Enter]"), MatchAct::HandoverReady));
        });
        return;
    }
    if let Some(name) = &overlay.save_name {
        commands.spawn((Name::new("Save as"), full(palette::PANEL_SOLID))).with_children(|c| {
            c.spawn(text("Save the match as", 30.0, palette::GOLD));
            c.spawn(panel(Node { padding: UiRect::axes(Val::Px(14.0), Val::Px(8.0)), min_width: Val::Px(360.0), ..default() })).with_children(|f| {
                f.spawn(text(format!("{name}|"), 20.0, palette::TEXT));
            });
            c.spawn(text(format!("Type a name. It goes to {}", crate::saves::slot_path(name).display()), 14.0, palette::DIM));
            c.spawn(Node { flex_direction: FlexDirection::Row, ..default() }).with_children(|b| {
                b.spawn(button("Save  [Enter]", MatchAct::SaveNow));
                b.spawn(button("Cancel  [Esc]", MatchAct::MatchMenu));
            });
        });
        return;
    }
    if overlay.menu {
        commands.spawn((Name::new("Match menu"), full(palette::PANEL_SOLID))).with_children(|c| {
            c.spawn(text("Match menu", 36.0, palette::GOLD));
            c.spawn(text("Every command is autosaved: leaving loses nothing (Continue on the main menu).", 15.0, palette::DIM));
            if let Some((note, ok)) = &overlay.menu_note {
                c.spawn(text(note.clone(), 16.0, if *ok { palette::GOOD } else { palette::BAD }));
            }
            c.spawn(button("Resume  [Esc]", MatchAct::MatchMenu));
            c.spawn(button("Save as...  [Ctrl+S]", MatchAct::SaveAs));
            c.spawn(button("Load a saved match", Go(Screen::Load)));
            // A network match goes on for the others: the replay would replace it here.
            if !setup.as_ref().is_some_and(|s| s.networked()) {
                c.spawn(button("Watch this match from the start", MatchAct::WatchThis));
            }
            if playtest.is_some() {
                c.spawn(button("Back to the editor", Go(Screen::Editor)));
            }
            c.spawn(button("Leave to the main menu", Go(Screen::Menu)));
        });
        return;
    }
    // The result is drawn by its screen (screens/result.rs); it covers the help and the reset steps.
    if overlay.result.is_some() {
        return;
    }
    if overlay.help {
        commands.spawn((Name::new("Help"), full(palette::PANEL_SOLID))).with_children(|c| {
            let (crawl, a4) = state.as_ref().map_or((false, false), |s| (s.0.explore.is_some(), s.0.a4.is_some()));
            let help = help_text(crawl, a4);
            let (w, h) = windows.single().map_or((1280.0, 720.0), |w| (w.width() / ui.0.max(0.1), w.height() / ui.0.max(0.1)));
            c.spawn((text(help.clone(), help_font(&help, w, h), palette::TEXT), Node { max_width: Val::Percent(100.0), ..default() }));
            c.spawn(button("Close  [Esc]", MatchAct::Help));
        });
        return;
    }
    if let Some((shown, all, _)) = &overlay.reset {
        commands
            .spawn((
                Name::new("Reset steps"),
                OverlayRoot,
                DespawnOnExit(Screen::Match),
                GlobalZIndex(30),
                panel(Node {
                    position_type: PositionType::Absolute,
                    left: Val::Px(60.0),
                    top: Val::Px(70.0),
                    // A definite width: under a `max_width` alone the text was measured wider
                    // than it is laid out, and at 2x its last lines ran out of the box (issue 43).
                    width: Val::Percent(50.0),
                    padding: UiRect::all(Val::Px(10.0)),
                    flex_direction: FlexDirection::Column,
                    ..default()
                }),
            ))
            .with_children(|c| {
                c.spawn((ResetText, text(reset_lines(all, *shown), 14.0, palette::TEXT)));
            });
    }
}

/// A broken level edit is shown until a good one replaces it.
fn show_reload_error(watch: Option<Res<crate::window::reload::LevelWatch>>, mut text: Query<&mut Text, With<ReloadErrorText>>) {
    const MAX_ERROR_LINES: usize = 3;
    let Ok(mut t) = text.single_mut() else { return };
    let s = watch
        .and_then(|w| w.error.clone())
        .map(|e| {
            let lines: Vec<&str> = e.lines().collect();
            let more =
                if lines.len() > MAX_ERROR_LINES { format!("\n...and {} more (see the terminal)", lines.len() - MAX_ERROR_LINES) } else { String::new() };
            format!("Level edit not applied (the previous version keeps playing):\n{}{more}", lines[..lines.len().min(MAX_ERROR_LINES)].join("\n"))
        })
        .unwrap_or_default();
    if t.0 != s {
        t.0 = s;
    }
}
