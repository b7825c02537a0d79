//! Level select: the levels in `levels/`, each checked (or its first error), with its briefing,
//! rules (a DoO profile or A4, changed with R), kind, sides and goals.

use super::setup::NameEditing;
use super::{Go, Screen, root_node};
use crate::window::GameData;
use crate::window::session::MatchSetup;
use crate::window::theme::prelude::*;
use bevy::prelude::*;
use doo_rules::level_file::{CheckedLevel, Control};
use std::path::{Path, PathBuf};

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<LevelCatalog>()
        .add_button_action::<LevelsAct>()
        .add_systems(OnEnter(Screen::Levels), (scan_levels, spawn_levels).chain())
        .add_systems(Update, (answer_levels, turn_page));
}

/// What a level select button does.
#[derive(Component, Message, Clone, Copy, Debug, PartialEq, Eq)]
pub enum LevelsAct {
    PickLevel(usize),
    /// Play the selected level under the next profile or ruleset.
    CycleRuleset,
    /// On to the seats of the selected level.
    ToSetup,
    /// The previous or next page of the list.
    Page(i8),
}

/// Levels listed on one page at most (a folder of levels made in the editor grows past a
/// screen); fewer when the window, at its UI scale, has room for fewer.
pub const PAGE: usize = 12;

/// The list's page size for a window `height` logical pixels high at UI scale `scale`: the
/// buttons that fit under the title, less the two page buttons.
pub fn page_size(height: f32, scale: f32) -> usize {
    let rows = ((height / scale.max(0.1) - 120.0) / 38.0).floor().max(0.0) as usize;
    rows.saturating_sub(2).clamp(3, PAGE)
}

#[derive(Component)]
struct LevelSelect;

/// Level files found in the levels folder: each checked, or its first error.
#[derive(Resource, Default)]
pub struct LevelCatalog {
    pub entries: Vec<(PathBuf, Result<CheckedLevel, String>)>,
    pub selected: usize,
    /// The rulesets a level may be played under (the DoO profiles, then A4), with a line each.
    pub rulesets: Vec<(String, String)>,
    /// The default profile (a level that names none plays it).
    pub default_ruleset: String,
    /// Levels on a page of the list (`page_size`).
    pub per_page: usize,
    /// The rules each entry's file names (before R changed them), by entry.
    pub made_for: Vec<Option<String>>,
}

#[derive(Component)]
struct LevelDetails;

/// The folder the level menu lists.
pub const LEVELS_DIR: &str = "levels";

/// The levels folder: `levels/`, or `DOO_LEVELS_DIR` (the UI tests walk a copy, so that the
/// editor's saves never touch the shipped levels).
pub fn levels_dir() -> PathBuf {
    std::env::var_os("DOO_LEVELS_DIR").map_or_else(|| PathBuf::from(LEVELS_DIR), PathBuf::from)
}

/// Levels listed at most, and how long the whole scan may take: a level in `levels/` that is
/// slow or hostile is shown as broken, it never freezes the menu.
const MAX_LISTED_LEVELS: usize = 200;
const SCAN_DEADLINE: std::time::Duration = std::time::Duration::from_secs(2);

/// The level list's order: the tutorial series (`tutorial_<n>_….ron`, issue 43; its first is
/// the default level) first, in order, then the rest by file name.
pub fn order_levels(files: &mut [PathBuf]) {
    let lesson = |p: &Path| !p.file_name().and_then(|n| n.to_str()).is_some_and(|n| n.starts_with("tutorial_"));
    files.sort_by(|a, b| (lesson(a), a).cmp(&(lesson(b), b)));
}

fn scan_levels(mut catalog: ResMut<LevelCatalog>, data: Res<GameData>, setup: Option<Res<MatchSetup>>) {
    catalog.default_ruleset = data.0.profiles.default.clone();
    catalog.rulesets = data.0.profiles.profiles.iter().map(|(k, p)| (k.clone(), p.description.clone())).collect();
    catalog.rulesets.push((data.0.a4.name.clone(), data.0.a4.description.clone()));
    let mut files: Vec<PathBuf> = std::fs::read_dir(levels_dir())
        .map(|d| d.filter_map(|e| e.ok().map(|e| e.path())).filter(|p| p.extension().is_some_and(|x| x == "ron")).collect())
        .unwrap_or_default();
    order_levels(&mut files);
    files.truncate(MAX_LISTED_LEVELS);
    // Two worker threads check the files from a shared queue (at most two files are in memory
    // at once); what is not done by the deadline is listed as broken, and the workers finish
    // in the background.
    let (tx, rx) = std::sync::mpsc::channel();
    let queue = std::sync::Arc::new(std::sync::Mutex::new(files.iter().cloned().enumerate().collect::<std::collections::VecDeque<_>>()));
    for _ in 0..2 {
        let (tx, queue, data) = (tx.clone(), queue.clone(), data.0.clone());
        std::thread::spawn(move || {
            while let Some((k, p)) = queue.lock().ok().and_then(|mut q| q.pop_front()) {
                let root = doo_rules::level_file::project_root(&p);
                let r = doo_rules::level_file::load(&p, &data, &root)
                    .map_err(|errs| errs.first().map(|e| format!("{}:{}:{}: {}", p.display(), e.line, e.col, e.message)).unwrap_or_default());
                if tx.send((k, r)).is_err() {
                    return;
                }
            }
        });
    }
    drop(tx);
    let mut results: Vec<Option<Result<doo_rules::level_file::CheckedLevel, String>>> = files.iter().map(|_| None).collect();
    let deadline = std::time::Instant::now() + SCAN_DEADLINE;
    while let Ok((k, r)) = rx.recv_timeout(deadline.saturating_duration_since(std::time::Instant::now())) {
        results[k] = Some(r);
    }
    catalog.entries = files
        .into_iter()
        .zip(results)
        .map(|(p, r)| {
            let r = r.unwrap_or_else(|| Err(format!("{}: not checked within {} s (too large or not a file)", p.display(), SCAN_DEADLINE.as_secs())));
            (p, r)
        })
        .collect();
    catalog.made_for =
        catalog.entries.iter().map(|(_, r)| r.as_ref().ok().map(|c| c.level.profile.clone().unwrap_or_else(|| catalog.default_ruleset.clone()))).collect();
    let current = setup.map(|s| s.path.clone());
    catalog.selected = catalog.entries.iter().position(|(p, _)| Some(p) == current.as_ref()).unwrap_or(0);
}

fn spawn_levels(mut commands: Commands, mut catalog: ResMut<LevelCatalog>, windows: Query<&Window>, ui: Res<UiScale>) {
    catalog.per_page = windows.single().map_or(PAGE, |w| page_size(w.height(), ui.0));
    build_levels(&mut commands, &catalog);
}

/// The page of the list the selected level is on, the next or previous one shown instead.
fn turn_page(mut acts: MessageReader<LevelsAct>, mut catalog: ResMut<LevelCatalog>, roots: Query<Entity, With<LevelSelect>>, mut commands: Commands) {
    for act in acts.read() {
        let LevelsAct::Page(d) = act else { continue };
        let per = catalog.per_page.max(1);
        let pages = catalog.entries.len().div_ceil(per).max(1);
        let page = (catalog.selected / per) as i64 + *d as i64;
        catalog.selected = (page.clamp(0, pages as i64 - 1) as usize) * per;
        for e in &roots {
            commands.entity(e).despawn();
        }
        build_levels(&mut commands, &catalog);
    }
}

fn build_levels(commands: &mut Commands, catalog: &LevelCatalog) {
    let per = catalog.per_page.max(1);
    let page = catalog.selected / per;
    let shown = page * per..((page + 1) * per).min(catalog.entries.len());
    commands
        .spawn((Name::new("Level select"), LevelSelect, DespawnOnExit(Screen::Levels), Node { flex_direction: FlexDirection::Row, ..root_node() }))
        .with_children(|p| {
            p.spawn(panel(Node { flex_direction: FlexDirection::Column, padding: UiRect::all(Val::Px(14.0)), width: Val::Px(360.0), ..default() }))
                .with_children(|l| {
                    l.spawn(text("Choose a level", 26.0, palette::GOLD));
                    if page > 0 {
                        l.spawn(button(format!("Previous {per} levels"), LevelsAct::Page(-1)));
                    }
                    for (k, (path, r)) in catalog.entries.iter().enumerate().skip(shown.start).take(shown.len()) {
                        let name = match r {
                            Ok(c) => c.level.name.clone(),
                            Err(_) => format!("{} (broken)", path.file_name().map(|f| f.to_string_lossy().to_string()).unwrap_or_default()),
                        };
                        let mut b = l.spawn(button(name, LevelsAct::PickLevel(k)));
                        if k == catalog.selected {
                            b.insert(Selected);
                        }
                    }
                    if shown.end < catalog.entries.len() {
                        l.spawn(button(format!("More levels ({} of {})", shown.end, catalog.entries.len()), LevelsAct::Page(1)));
                    }
                    if catalog.entries.is_empty() {
                        l.spawn(text(format!("No levels in {}/", levels_dir().display()), 16.0, palette::BAD));
                    }
                });
            p.spawn((
                LevelDetails,
                panel(Node {
                    flex_direction: FlexDirection::Column,
                    padding: UiRect::all(Val::Px(14.0)),
                    width: Val::Px(560.0),
                    margin: UiRect::left(Val::Px(16.0)),
                    ..default()
                }),
            ))
            .with_children(|d| level_details(d, catalog));
        });
}

fn level_details(d: &mut ChildSpawnerCommands, catalog: &LevelCatalog) {
    match catalog.entries.get(catalog.selected) {
        Some((_, Ok(c))) => {
            d.spawn(text(c.level.name.clone(), 24.0, palette::GOLD));
            let kind = if c.crawl.is_some() { "  |  a crawl: Exploration Mode, fights in Crisis Mode" } else { "  |  one crisis" };
            let profile = c.level.profile.clone().unwrap_or_else(|| catalog.default_ruleset.clone());
            let about = catalog.rulesets.iter().find(|r| r.0 == profile).map(|r| r.1.clone()).unwrap_or_default();
            d.spawn(Node { flex_direction: FlexDirection::Row, align_items: AlignItems::Center, column_gap: Val::Px(8.0), ..default() }).with_children(|r| {
                r.spawn(button(format!("Rules: {profile}  (change: R)"), LevelsAct::CycleRuleset));
                r.spawn(text(kind.trim_start_matches("  |  ").to_string(), 14.0, palette::DIM));
            });
            d.spawn(text(about, 14.0, palette::DIM));
            // Issue 43: R changed the rules; the briefing was written for the level's own.
            if let Some(own) = catalog.made_for.get(catalog.selected).cloned().flatten().filter(|own| *own != profile) {
                d.spawn(text(format!("Played under {profile} (R), not {own}: the briefing below was written for {own}."), 14.0, palette::GOLD));
            }
            d.spawn(text(c.level.briefing.clone(), 16.0, palette::TEXT));
            let sides: Vec<String> = c
                .sides
                .iter()
                .map(|s| {
                    let n = c.characters.iter().filter(|x| x.side == s.id).count();
                    format!(
                        "{} ({} figure{}, {})",
                        s.name.clone().unwrap_or_else(|| s.id.clone()),
                        n,
                        if n == 1 { "" } else { "s" },
                        if s.control == Control::Ai { "AI" } else { "human" }
                    )
                })
                .collect();
            d.spawn(text(format!("Sides: {}", sides.join(" | ")), 16.0, palette::TEXT));
            let mut goals: Vec<String> =
                c.level.victory.iter().map(|v| format!("{}: {}", v.side, doo_rules::rules::victory::Goal::describe(&v.goal))).collect();
            // A level whose story wins it (a tutorial's last step) says so: "rout every other
            // side" alone misled (issue 43).
            let by_story: std::collections::BTreeSet<&str> = c
                .level
                .events
                .iter()
                .flat_map(|e| e.then.iter())
                .filter_map(|a| if let doo_rules::rules::story::Action::Win(side) = a { Some(side.as_str()) } else { None })
                .collect();
            for side in by_story {
                let name = c.sides.iter().find(|x| x.id == side).and_then(|x| x.name.clone()).unwrap_or_else(|| side.to_string());
                goals.push(format!("{name}: as the level's story says (its events win it)"));
            }
            if !goals.is_empty() && c.level.victory.is_empty() {
                goals.push("or rout every other side".into());
            }
            d.spawn(text(
                if goals.is_empty() { "Goal: rout every other side".to_string() } else { format!("Goals: {}", goals.join("; ")) },
                16.0,
                palette::TEXT,
            ));
            d.spawn(Node { height: Val::Px(12.0), ..default() });
            d.spawn(Node { flex_direction: FlexDirection::Row, ..default() }).with_children(|r| {
                r.spawn(button("Back", Go(Screen::Menu)));
                r.spawn(button("Next: seats  [Enter]", LevelsAct::ToSetup));
            });
        }
        Some((_, Err(e))) => {
            d.spawn(text("This level has errors:", 20.0, palette::BAD));
            d.spawn(text(e.clone(), 15.0, palette::BAD));
            d.spawn(button("Back", Go(Screen::Menu)));
        }
        None => {
            d.spawn(button("Back", Go(Screen::Menu)));
        }
    }
}

/// The level select's buttons, and its keys: R changes the rules, Enter goes on to the seats,
/// Esc back to the menu.
#[allow(clippy::too_many_arguments)]
fn answer_levels(
    mut acts: MessageReader<LevelsAct>,
    keys: Res<ButtonInput<KeyCode>>,
    screen: Res<State<Screen>>,
    editing: Res<NameEditing>,
    focus: Res<KeyFocus>,
    mut catalog: ResMut<LevelCatalog>,
    mut next: ResMut<NextState<Screen>>,
    mut commands: Commands,
    details: Query<Entity, With<LevelDetails>>,
    mut picks: Query<(&LevelsAct, Entity, Has<Selected>), With<Button>>,
) {
    let mut list: Vec<LevelsAct> = acts.read().copied().collect();
    if *screen.get() == Screen::Levels {
        if keys.just_pressed(KeyCode::KeyR) && editing.0.is_none() {
            list.push(LevelsAct::CycleRuleset);
        }
        // Enter presses the focused button when there is one.
        if keys.just_pressed(KeyCode::Enter) && editing.0.is_none() && focus.0.is_none() {
            list.push(LevelsAct::ToSetup);
        }
        if keys.just_pressed(KeyCode::Escape) {
            next.set(Screen::Menu);
        }
    }
    for act in list {
        match act {
            LevelsAct::PickLevel(k) => {
                catalog.selected = k;
                for (a, e, sel) in &mut picks {
                    let want = *a == LevelsAct::PickLevel(k);
                    if let LevelsAct::PickLevel(_) = a {
                        if want && !sel {
                            commands.entity(e).insert(Selected);
                        } else if !want && sel {
                            commands.entity(e).remove::<Selected>();
                        }
                    }
                }
                for e in &details {
                    commands.entity(e).despawn_children();
                    commands.entity(e).with_children(|d| level_details(d, &catalog));
                }
            }
            // `turn_page` builds the list's next page.
            LevelsAct::Page(_) => {}
            LevelsAct::CycleRuleset => {
                // The level's rules for this match: the next profile or ruleset (crawls too:
                // under A4 a crawl explores as usual and fights in rounds, A4-G-39).
                let k = catalog.selected;
                let names: Vec<String> = catalog.rulesets.iter().map(|r| r.0.clone()).collect();
                let default = catalog.default_ruleset.clone();
                if let Some((_, Ok(c))) = catalog.entries.get_mut(k) {
                    let now = c.level.profile.clone().unwrap_or(default);
                    let at = names.iter().position(|n| *n == now).unwrap_or(0);
                    let next = names[(at + 1) % names.len().max(1)].clone();
                    // Issue 43: a level named for its ruleset ("Ambush at the Ford (A4)") played
                    // under another kept saying A4; its name now says the rules it is played under.
                    c.level.name = name_under_ruleset(&c.level.name, &now, &next);
                    c.level.profile = Some(next);
                    // The list's button says the new name too.
                    let name = c.level.name.clone();
                    for (a, e, _) in &picks {
                        if *a == LevelsAct::PickLevel(k) {
                            commands.entity(e).despawn_children();
                            commands.entity(e).with_children(|b| {
                                b.spawn(text(name.clone(), 16.0, palette::TEXT));
                            });
                        }
                    }
                }
                for e in &details {
                    commands.entity(e).despawn_children();
                    commands.entity(e).with_children(|d| level_details(d, &catalog));
                }
            }
            LevelsAct::ToSetup => {
                if let Some((path, Ok(c))) = catalog.entries.get(catalog.selected) {
                    commands.insert_resource(MatchSetup::new(path.clone(), c.clone()));
                    next.set(Screen::Setup);
                }
            }
        }
    }
}

/// A level's name when its rules change from `from` to `to`: where the name says `from` as a
/// word of its own ("The Duelling Hall (A4, hot-seat)"), it says `to` instead; a name that
/// names no ruleset is kept.
pub fn name_under_ruleset(name: &str, from: &str, to: &str) -> String {
    if from.is_empty() {
        return name.to_string();
    }
    let word = |c: Option<char>| c.is_some_and(|c| c.is_alphanumeric() || c == '-' || c == '_');
    let mut out = String::new();
    let mut rest = name;
    while let Some(at) = rest.find(from) {
        let before = rest[..at].chars().next_back().or_else(|| out.chars().next_back());
        let after = rest[at + from.len()..].chars().next();
        out.push_str(&rest[..at]);
        out.push_str(if word(before) || word(after) { from } else { to });
        rest = &rest[at + from.len()..];
    }
    out + rest
}

#[cfg(test)]
mod tests {
    use super::page_size;

    /// The shipped levels fit one page in the 1280×720 window; at UI scale 2 the list pages.
    #[test]
    fn the_level_list_pages_by_the_room_it_has() {
        assert!(page_size(720.0, 1.0) >= 11, "{}", page_size(720.0, 1.0));
        assert!(page_size(720.0, 2.0) < 11 && page_size(720.0, 2.0) >= 3);
        assert_eq!(page_size(100.0, 4.0), 3, "never fewer than three");
    }
}
