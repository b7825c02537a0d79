//! Shared UI pieces: the palette, text and button builders, and `Act`, the one component that
//! says what a button does. Button presses become `Act` messages handled by the screens, the HUD
//! and the match input, so every button also has a keyboard path.

use bevy::prelude::*;

pub(super) fn plugin(app: &mut App) {
    app.add_message::<Act>()
        .init_resource::<PointerOverUi>()
        .init_resource::<KeyFocus>()
        // After Bevy's UI input (`UiSystems::Focus`): a press is read on the frame it happens, before
        // a panel redrawn this frame could replace the button pressed.
        .add_systems(PreUpdate, (press_buttons, focus_keys, colour_buttons, track_pointer_over_ui).chain().after(bevy::ui::UiSystems::Focus));
}

pub mod colors {
    use bevy::prelude::Color;
    pub const PANEL: Color = Color::srgba(0.05, 0.045, 0.06, 0.88);
    pub const PANEL_SOLID: Color = Color::srgb(0.07, 0.06, 0.08);
    pub const TEXT: Color = Color::srgb(0.93, 0.90, 0.84);
    pub const DIM: Color = Color::srgb(0.60, 0.57, 0.52);
    pub const GOLD: Color = Color::srgb(0.95, 0.78, 0.35);
    pub const BAD: Color = Color::srgb(1.0, 0.50, 0.42);
    pub const GOOD: Color = Color::srgb(0.50, 0.88, 0.50);
    pub const BUTTON: Color = Color::srgb(0.20, 0.17, 0.15);
    pub const BUTTON_HOVER: Color = Color::srgb(0.32, 0.27, 0.22);
    pub const BUTTON_PRESSED: Color = Color::srgb(0.45, 0.37, 0.25);
    pub const BUTTON_OFF: Color = Color::srgb(0.12, 0.11, 0.11);
    pub const BUTTON_ON: Color = Color::srgb(0.30, 0.40, 0.22);
}

/// What a button does.
#[derive(Component, Message, Clone, Debug, PartialEq)]
pub enum Act {
    Play,
    /// Go on with the autosaved match.
    Continue,
    QuickStart,
    Settings,
    Quit,
    PickLevel(usize),
    /// Play the selected level under the next profile or ruleset.
    CycleRuleset,
    ToSetup,
    ToLevels,
    ToMenu,
    /// Cycle a side's seat: human -> AI easy -> normal -> hard -> human.
    CycleSeat(usize),
    EditName(usize),
    Start,
    PlayAgain,
    Choose(usize),
    /// Open a group of the action bar (index in `preview::Group::ALL`).
    BarGroup(usize),
    /// Open the rules reference (at a rule id, or at the last one shown).
    Rules(Option<String>),
    Pass,
    React(usize),
    Decline,
    NeverAsk(String),
    Help,
    HandoverReady,
    SkipReset,
    UiScale(f32),
    Speed(f32),
    Volume(f32),
    Prompts(bool),
    Timeout(u32),
    /// Take back the last command (Ctrl+Z).
    Undo,
    /// Open or close the match menu (Esc).
    MatchMenu,
    /// Name a save slot for the match (Ctrl+S), then write it.
    SaveAs,
    SaveNow,
    /// The Load screen; a slot there: go on with it, or watch it.
    ToLoad,
    LoadSlot(usize),
    WatchSlot(usize),
    /// Delete a slot's file (the Load screen: a save that cannot be used).
    DeleteSlot(usize),
    /// A save that does not replay to its end (window/load.rs): what to do with it.
    Broken(BrokenAct),
    /// Watch the match just played from its first command.
    WatchThis,
    /// Replay viewer controls.
    Replay(ReplayAct),
    /// Campaigns: the menu's entries, and the campaign screens' buttons.
    NewCampaign,
    ContinueCampaign,
    Campaign(CampaignAct),
}

/// The choices for a save that does not replay to its end.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BrokenAct {
    /// Play on from the last command that replays.
    ContinueGood,
    /// Watch what replays in the replay viewer.
    Watch,
    /// Delete the save file.
    Delete,
    /// Leave it as it is.
    Close,
}

/// What a campaign screen button does (window/campaign.rs).
#[derive(Clone, Debug, PartialEq)]
pub enum CampaignAct {
    /// Party screen: take a ready-made or saved hero into the party, or leave him out.
    ToggleHero(usize),
    /// Party screen: the owner of party member k (next player).
    CycleOwner(usize),
    Players(i32),
    /// Hero maker: Core or point-buy.
    Way(bool),
    EditName,
    Array(i32),
    Swap(usize),
    Package(i32),
    Choice(usize),
    Journeyman(i32),
    /// Point-buy: a stat up or down.
    StatStep(usize, i32),
    /// Point-buy: the skill picker, and the picked skill's rank up or down.
    PickSkill(i32),
    SkillRank(i32),
    PickSet(i32),
    ToggleSet,
    /// Gear: weapon, armor, shield pickers; potions and torches.
    Weapon(i32),
    Armor(i32),
    Shield(i32),
    Potions(i32),
    Torches(i32),
    AddHero,
    SaveHero,
    Begin,
    Play,
    /// The result screen after a level (from the match's result overlay).
    LevelDone,
    Advance,
    Briefing,
    /// Between levels: recruit new heroes (R-CP-14).
    Recruit,
    /// Advancement: the hero shown, and a purchase for him.
    ShowHero(usize),
    Buy(crate::rules::heroes::Purchase),
    PickNewSkill(i32),
    PickNewSet(i32),
    SpendForMe,
    NextPlayer,
    /// Advancement: the shop (gear from the purse).
    PickGear(i32),
    BuyGear,
}

/// What a replay viewer button does.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum ReplayAct {
    PlayPause,
    /// Step by this many commands (negative: back).
    Step(i32),
    /// To the start of the previous or next turn.
    Turn(i32),
    /// To the first command of this turn.
    ToTurn(u32),
    Start,
    End,
    Speed(f32),
}

/// A button that is shown but cannot be pressed (its reason is in the tooltip).
#[derive(Component, Clone, Copy, Debug, Default)]
pub struct Disabled;

/// A toggle button currently on.
#[derive(Component, Clone, Copy, Debug, Default)]
pub struct Selected;

/// True while the pointer is over any UI node (the board then ignores clicks and wheel).
#[derive(Resource, Debug, Default)]
pub struct PointerOverUi(pub bool);

/// A node that takes the pointer (panels), so clicks on it do not reach the board.
#[derive(Component, Clone, Copy, Debug, Default)]
pub struct Blocks;

pub fn text(s: impl Into<String>, size: f32, color: Color) -> impl Bundle {
    (Text::new(s), TextFont { font_size: FontSize::Px(size), ..default() }, TextColor(color))
}

pub fn button(label: impl Into<String>, act: Act) -> impl Bundle {
    (
        Button,
        act,
        Node {
            padding: UiRect::axes(Val::Px(12.0), Val::Px(6.0)),
            margin: UiRect::all(Val::Px(3.0)),
            justify_content: JustifyContent::Center,
            align_items: AlignItems::Center,
            border: UiRect::all(Val::Px(1.0)),
            border_radius: BorderRadius::all(Val::Px(4.0)),
            ..default()
        },
        BorderColor::all(Color::srgb(0.45, 0.38, 0.28)),
        BackgroundColor(colors::BUTTON),
        children![text(label, 16.0, colors::TEXT)],
    )
}

/// A compact button for the action bar; a disabled one has dim text (and `Disabled`).
pub fn bar_button(label: impl Into<String>, act: Act, enabled: bool) -> impl Bundle {
    (
        Button,
        act,
        Node {
            padding: UiRect::axes(Val::Px(5.0), Val::Px(2.0)),
            margin: UiRect::all(Val::Px(1.5)),
            border: UiRect::all(Val::Px(1.0)),
            border_radius: BorderRadius::all(Val::Px(3.0)),
            ..default()
        },
        BorderColor::all(if enabled { Color::srgb(0.55, 0.46, 0.30) } else { Color::srgb(0.22, 0.20, 0.19) }),
        BackgroundColor(colors::BUTTON),
        children![text(label, 12.0, if enabled { colors::TEXT } else { Color::srgb(0.42, 0.40, 0.38) })],
    )
}

pub fn panel(node: Node) -> impl Bundle {
    panel_in(node, colors::PANEL)
}

/// A panel of another colour (a bundle takes one `BackgroundColor`: adding a second beside
/// `panel(…)` is refused by Bevy at spawn, which crashed Settings and every reaction prompt).
/// A panel takes the pointer: a click on it never reaches a button or the board under it.
pub fn panel_in(node: Node, color: Color) -> impl Bundle {
    (node, BackgroundColor(color), Interaction::default(), bevy::ui::FocusPolicy::Block, Blocks)
}

fn press_buttons(q: Query<(&Interaction, &Act, Has<Disabled>), (Changed<Interaction>, With<Button>)>, mut out: MessageWriter<Act>) {
    for (i, act, disabled) in &q {
        if *i == Interaction::Pressed && !disabled {
            out.write(act.clone());
        }
    }
}

/// The button the keyboard is on, in menus, screens and the match's overlays: the arrows (or Tab
/// off the board) move it in reading order, Enter or Space presses it. `None` until an arrow is
/// pressed, so Enter keeps each screen's own default (Play, Start …) for mouse players.
#[derive(Resource, Debug, Default, Clone, Copy, PartialEq)]
pub struct KeyFocus(pub Option<Entity>);

fn focus_keys(
    keys: Res<ButtonInput<KeyCode>>,
    screen: Res<State<super::screens::Screen>>,
    overlay: Option<Res<super::hud::Overlay>>,
    editing: Option<Res<super::screens::NameEditing>>,
    run: Option<Res<super::campaign::CampaignRun>>,
    buttons: Query<(Entity, &Act, &UiGlobalTransform, &ComputedNode, &InheritedVisibility, Has<Disabled>), With<Button>>,
    mut focus: ResMut<KeyFocus>,
    mut out: MessageWriter<Act>,
) {
    // On the board the arrows move the board cursor; in the rules reference they page; while a
    // name is typed the keys are the name's.
    let on_board = *screen.get() == super::screens::Screen::Match && overlay.as_ref().is_none_or(|o| o.blocks_board().is_none());
    let busy = overlay.as_ref().is_some_and(|o| o.rules.is_some() || o.save_name.is_some())
        || editing.is_some_and(|e| e.0.is_some())
        || run.is_some_and(|r| r.editing_name);
    if on_board || busy || screen.is_changed() {
        if focus.0.is_some() {
            focus.0 = None;
        }
        return;
    }
    let mut list: Vec<(Entity, Vec2)> =
        buttons.iter().filter(|(_, _, _, n, v, off)| v.get() && !off && n.size().x > 0.0).map(|(e, _, t, _, _, _)| (e, t.translation)).collect();
    list.sort_by(|a, b| ((a.1.y / 8.0).round(), a.1.x).partial_cmp(&((b.1.y / 8.0).round(), b.1.x)).unwrap_or(std::cmp::Ordering::Equal));
    if focus.0.is_some_and(|e| !list.iter().any(|(x, _)| *x == e)) {
        focus.0 = None;
    }
    let shift = keys.any_pressed([KeyCode::ShiftLeft, KeyCode::ShiftRight]);
    let next = keys.any_just_pressed([KeyCode::ArrowDown, KeyCode::ArrowRight]) || (keys.just_pressed(KeyCode::Tab) && !shift);
    let prev = keys.any_just_pressed([KeyCode::ArrowUp, KeyCode::ArrowLeft]) || (keys.just_pressed(KeyCode::Tab) && shift);
    if (next || prev) && !list.is_empty() {
        let at = focus.0.and_then(|e| list.iter().position(|(x, _)| *x == e));
        let k = match (at, next) {
            (None, true) => 0,
            (None, false) => list.len() - 1,
            (Some(k), true) => (k + 1) % list.len(),
            (Some(k), false) => (k + list.len() - 1) % list.len(),
        };
        focus.0 = Some(list[k].0);
    }
    if let Some(e) = focus.0 {
        if keys.any_just_pressed([KeyCode::Enter, KeyCode::Space]) {
            if let Ok((_, act, ..)) = buttons.get(e) {
                out.write(act.clone());
            }
        }
    }
}

fn colour_buttons(mut q: Query<(Entity, &Interaction, &mut BackgroundColor, Has<Disabled>, Has<Selected>), With<Button>>, focus: Res<KeyFocus>) {
    for (e, i, mut bg, disabled, selected) in &mut q {
        // The keyboard's button shows as pressed-in, brighter than a hovered one.
        let i = if focus.0 == Some(e) { &Interaction::Pressed } else { i };
        let c = match (*i, disabled, selected) {
            (_, true, _) => colors::BUTTON_OFF,
            (Interaction::Pressed, _, _) => colors::BUTTON_PRESSED,
            (Interaction::Hovered, _, _) => colors::BUTTON_HOVER,
            (_, _, true) => colors::BUTTON_ON,
            _ => colors::BUTTON,
        };
        if bg.0 != c {
            bg.0 = c;
        }
    }
}

fn track_pointer_over_ui(q: Query<&Interaction, Or<(With<Button>, With<Blocks>)>>, mut over: ResMut<PointerOverUi>) {
    let v = q.iter().any(|i| *i != Interaction::None);
    if over.0 != v {
        over.0 = v;
    }
}
