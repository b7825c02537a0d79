//! The Delve screen (issue 47): a dungeon generated from a seed (`doo_rules::delve`, docs/delve.md).
//! The player chooses the difficulty, the floors, their size and the seed (random, shown, typed
//! to play a friend's); "Choose heroes" writes the floors and their campaign into the save
//! folder's `delve/floors/` and opens the campaign's party screen on it. From there a delve is a
//! campaign: briefing, floor, result, CP spent (R-CP-9…13), saved in `delve/run/` beside (never
//! over) the campaign's save, and a run summary at its end.

use super::campaign::CampaignRun;
use super::{Go, Screen, root_node};
use crate::window::session::{delve_dir, delve_save_path};
use crate::window::theme::prelude::*;
use crate::window::{FreshSeeds, GameData};
use bevy::prelude::*;
use doo_rules::delve::{Difficulty, MAX_FLOORS, Params};

pub(super) fn plugin(app: &mut App) {
    app.add_button_action::<DelveAct>()
        .add_systems(OnEnter(Screen::Delve), open_delve)
        .add_systems(Update, (delve_keys, answer_delve, draw_delve).chain().run_if(in_state(Screen::Delve)));
}

/// What a Delve button does (Back carries `Go`).
#[derive(Component, Message, Clone, Copy, Debug, PartialEq, Eq)]
pub enum DelveAct {
    Easier,
    Harder,
    FewerFloors,
    MoreFloors,
    Smaller,
    Larger,
    /// A new random seed.
    NewSeed,
    /// Generate the dungeon and choose the heroes.
    Begin,
}

/// The sizes offered (each floor square).
const SIZES: [u32; 3] = [40, 64, 96];

/// What the Delve screen holds: the choices, and whether the seed shown was typed.
#[derive(Resource, Clone, Debug)]
pub struct DelveSetup {
    pub seed: u64,
    pub difficulty: Difficulty,
    pub floors: u32,
    pub size: usize,
    /// The next digit typed starts a new seed (the random one is replaced, not appended to).
    pub typed: bool,
    pub message: Option<String>,
}

impl DelveSetup {
    fn new(seeds: &mut FreshSeeds) -> Self {
        Self { seed: seeds.draw(), difficulty: Difficulty::Normal, floors: 3, size: 1, typed: false, message: None }
    }

    /// The generator's parameters: the project folder's heroes and monsters.
    pub fn params(&self) -> Params {
        let root = std::env::current_dir().unwrap_or_else(|_| ".".into());
        let mut p = Params::new(self.seed, &root);
        p.floors = self.floors;
        p.difficulty = self.difficulty;
        (p.width, p.height) = (SIZES[self.size], SIZES[self.size]);
        p
    }
}

#[derive(Component)]
struct DelveRoot;

fn open_delve(mut commands: Commands, setup: Option<Res<DelveSetup>>, mut seeds: ResMut<FreshSeeds>) {
    if setup.is_none() {
        commands.insert_resource(DelveSetup::new(&mut seeds));
    }
}

/// Digits type the seed, Backspace takes one off, N draws a new one, Enter begins, Esc goes
/// back; the arrows change the difficulty (left, right) and the floors (down, up).
fn delve_keys(
    keys: Res<ButtonInput<KeyCode>>,
    focus: Res<KeyFocus>,
    mut setup: ResMut<DelveSetup>,
    mut acts: MessageWriter<DelveAct>,
    mut go: MessageWriter<Go>,
) {
    const DIGITS: [KeyCode; 10] = [
        KeyCode::Digit0,
        KeyCode::Digit1,
        KeyCode::Digit2,
        KeyCode::Digit3,
        KeyCode::Digit4,
        KeyCode::Digit5,
        KeyCode::Digit6,
        KeyCode::Digit7,
        KeyCode::Digit8,
        KeyCode::Digit9,
    ];
    for (d, k) in DIGITS.iter().enumerate() {
        if keys.just_pressed(*k) {
            let base = if setup.typed { setup.seed } else { 0 };
            // A seed is a u64: digits past it are not taken.
            if let Some(s) = base.checked_mul(10).and_then(|s| s.checked_add(d as u64)) {
                setup.seed = s;
            }
            setup.typed = true;
        }
    }
    if keys.just_pressed(KeyCode::Backspace) {
        setup.seed /= 10;
        setup.typed = true;
    }
    let pairs = [
        (KeyCode::KeyN, DelveAct::NewSeed),
        (KeyCode::ArrowLeft, DelveAct::Easier),
        (KeyCode::ArrowRight, DelveAct::Harder),
        (KeyCode::ArrowDown, DelveAct::FewerFloors),
        (KeyCode::ArrowUp, DelveAct::MoreFloors),
    ];
    for (k, a) in pairs {
        if keys.just_pressed(k) {
            acts.write(a);
        }
    }
    if keys.just_pressed(KeyCode::Enter) && focus.0.is_none() {
        acts.write(DelveAct::Begin);
    }
    if keys.just_pressed(KeyCode::Escape) {
        go.write(Go(Screen::Menu));
    }
}

fn answer_delve(
    mut acts: MessageReader<DelveAct>,
    mut setup: ResMut<DelveSetup>,
    data: Res<GameData>,
    mut seeds: ResMut<FreshSeeds>,
    mut commands: Commands,
    mut next: ResMut<NextState<Screen>>,
) {
    let order = [Difficulty::Easy, Difficulty::Normal, Difficulty::Hard];
    for act in acts.read() {
        let s = &mut *setup;
        s.message = None;
        let d = order.iter().position(|&x| x == s.difficulty).unwrap_or(1);
        match act {
            DelveAct::Easier => s.difficulty = order[d.saturating_sub(1)],
            DelveAct::Harder => s.difficulty = order[(d + 1).min(2)],
            DelveAct::FewerFloors => s.floors = (s.floors - 1).max(1),
            DelveAct::MoreFloors => s.floors = (s.floors + 1).min(MAX_FLOORS),
            DelveAct::Smaller => s.size = s.size.saturating_sub(1),
            DelveAct::Larger => s.size = (s.size + 1).min(SIZES.len() - 1),
            DelveAct::NewSeed => {
                s.seed = seeds.draw();
                s.typed = false;
            }
            DelveAct::Begin => match begin(s, &data.0) {
                Ok(run) => {
                    commands.insert_resource(run);
                    next.set(Screen::Campaign);
                }
                Err(e) => s.message = Some(e),
            },
        }
    }
}

/// Generates the dungeon into `delve/floors/` (the last delve's floors replaced) and makes the
/// campaign run on it, offering the ready-made heroes and the saved ones.
fn begin(s: &DelveSetup, data: &doo_rules::data::RuleData) -> Result<CampaignRun, String> {
    let params = s.params();
    let checked = write_floors(&params, data)?;
    let allowance = checked.campaign.allowance(&data.heroes);
    let (ready, problems) = doo_rules::delve::ready_party(&params, data, allowance);
    let mut run = CampaignRun::new(checked, data);
    run.offer_first(ready);
    if !problems.is_empty() {
        run.message = Some((false, format!("Not offered: {}", problems.join("; "))));
    }
    Ok(run)
}

/// Writes the delve of `params` into `delve/floors/` (the last delve's floors replaced) and
/// reads its campaign back.
fn write_floors(params: &Params, data: &doo_rules::data::RuleData) -> Result<doo_rules::campaign::CheckedCampaign, String> {
    let floors = delve_dir().join("floors");
    let _ = std::fs::remove_dir_all(&floors);
    let written = doo_rules::delve::write_delve(params, data, &floors)?;
    let campaign = written.last().ok_or("the delve wrote no campaign")?;
    doo_rules::campaign::load_campaign(campaign, data).map_err(|e| e.to_string())
}

/// The floors generated again for the party chosen on the party screen: the encounters are
/// built to its strength (two heroes meet half the foes four would), not the ready-made four's
/// the Delve screen generated them for. The same seed and party give the same dungeon.
pub fn fit_to_party(run: &mut CampaignRun, setup: &DelveSetup, data: &doo_rules::data::RuleData) -> Result<(), String> {
    let mut params = setup.params();
    params.strength = Some(doo_rules::delve::party_strength(&run.party(), data));
    run.checked = write_floors(&params, data)?;
    Ok(())
}

fn draw_delve(mut commands: Commands, setup: Res<DelveSetup>, roots: Query<Entity, With<DelveRoot>>) {
    if !setup.is_changed() && roots.iter().next().is_some() {
        return;
    }
    for e in &roots {
        commands.entity(e).despawn();
    }
    let s = &*setup;
    let p = s.params();
    let saved = delve_save_path().is_file();
    commands.spawn((Name::new("Delve"), DelveRoot, DespawnOnExit(Screen::Delve), root_node())).with_children(|c| {
        c.spawn(text("Delve", 44.0, palette::GOLD));
        c.spawn((
            text(
                "A dungeon generated from a seed, floor after floor, each one proven solvable. Your heroes carry their wounds, gear and CP down the stairs; the fallen stay fallen.",
                16.0,
                palette::TEXT,
            ),
            Node { max_width: Val::Px(820.0), ..default() },
        ));
        c.spawn(Node { height: Val::Px(10.0), ..default() });
        c.spawn(panel(Node { flex_direction: FlexDirection::Column, padding: UiRect::all(Val::Px(14.0)), row_gap: Val::Px(8.0), ..default() })).with_children(|l| {
            // The numbers of assets/rules/delve.ron, as the generator reads them.
            let how = doo_rules::delve::DelveBook::load(&p.root).map_or_else(|e| e, |b| b.describe(p.difficulty));
            let mut name = p.difficulty.name().to_string();
            name[..1].make_ascii_uppercase();
            picker(l, "Difficulty  [<- ->]", &name, DelveAct::Easier, DelveAct::Harder);
            l.spawn((text(how, 14.0, palette::DIM), Node { margin: UiRect::left(Val::Px(238.0)), max_width: Val::Px(560.0), ..default() }));
            picker(l, "Floors  [Down, Up]", &format!("{} (the last ends in a boss)", p.floors), DelveAct::FewerFloors, DelveAct::MoreFloors);
            picker(l, "Size", &format!("{}×{} spaces a floor", p.width, p.height), DelveAct::Smaller, DelveAct::Larger);
            l.spawn(Node { flex_direction: FlexDirection::Row, align_items: AlignItems::Center, column_gap: Val::Px(8.0), ..default() }).with_children(|r| {
                r.spawn((text("Seed  [digits, N]", 18.0, palette::DIM), Node { min_width: Val::Px(230.0), ..default() }));
                r.spawn(text(format!("{}", p.seed), 24.0, palette::GOLD));
                r.spawn(bar_button("New seed  [N]", DelveAct::NewSeed, true));
            });
            l.spawn(text("Type digits to play a friend's seed (Backspace takes one off).", 13.0, palette::DIM));
        });
        c.spawn(text(doo_rules::delve::share_line(&p), 13.0, palette::DIM));
        if saved {
            c.spawn(text("A delve is under way (Continue the delve, on the main menu): a new one replaces it.", 14.0, palette::BAD));
        }
        c.spawn(Node { flex_direction: FlexDirection::Row, column_gap: Val::Px(8.0), ..default() }).with_children(|r| {
            r.spawn(button("Choose heroes  [Enter]", DelveAct::Begin));
            r.spawn(button("Back  [Esc]", Go(Screen::Menu)));
        });
        if let Some(m) = &s.message {
            c.spawn((text(m.clone(), 15.0, palette::BAD), Node { max_width: Val::Px(1000.0), ..default() }));
        }
    });
}

/// A row: its name, `<`, the value, `>`.
fn picker(l: &mut ChildSpawnerCommands, name: &str, value: &str, less: DelveAct, more: DelveAct) {
    l.spawn(Node { flex_direction: FlexDirection::Row, align_items: AlignItems::Center, column_gap: Val::Px(8.0), ..default() }).with_children(|r| {
        r.spawn((text(name, 18.0, palette::DIM), Node { min_width: Val::Px(230.0), ..default() }));
        r.spawn(bar_button("<", less, true));
        r.spawn((text(value, 18.0, palette::TEXT), Node { min_width: Val::Px(470.0), ..default() }));
        r.spawn(bar_button(">", more, true));
    });
}
