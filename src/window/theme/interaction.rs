//! How a button is pressed, knowing no screen. A button carries its action: a component of the
//! action type of the screen that owns it (`MenuAct`, `LoadAct` …), registered with
//! `app.add_button_action::<A>()`. A press — Bevy's UI input, or Enter on the button the
//! keyboard is on (`window/focus.rs`) — triggers `Activate` on the button; the action is then
//! delivered as a message of its own type, which the owning screen reads like its keyboard
//! shortcuts, and recorded as `Pressed`, which every action goes through (the UI walk counts a
//! button as pressed when its `Pressed` arrives). Also the buttons' colours in each state and
//! whether the pointer is over the UI.

use super::palette;
use bevy::prelude::*;
use std::any::TypeId;
use std::collections::HashSet;
use std::fmt::Debug;

pub(super) fn plugin(app: &mut App) {
    app.add_message::<Pressed>()
        .init_resource::<PointerOverUi>()
        .init_resource::<KeyFocus>()
        .init_resource::<RegisteredActions>()
        // After Bevy's UI input (`UiSystems::Focus`): a press is read on the frame it happens, before
        // a panel redrawn this frame could replace the button pressed.
        .configure_sets(PreUpdate, (PressSystems::Press, PressSystems::Keys, PressSystems::Show).chain().after(bevy::ui::UiSystems::Focus))
        .add_systems(PreUpdate, press_buttons.in_set(PressSystems::Press))
        .add_systems(PreUpdate, (colour_buttons, track_pointer_over_ui).chain().in_set(PressSystems::Show));
}

/// The order of a press in `PreUpdate`: pointer presses, then the keyboard's (`focus.rs`), then
/// the buttons' colours.
#[derive(SystemSet, Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum PressSystems {
    Press,
    Keys,
    Show,
}

/// A button was pressed (by the pointer or the keyboard): its action is delivered.
#[derive(EntityEvent, Debug, Clone, Copy)]
pub struct Activate {
    pub entity: Entity,
}

/// A button's action was delivered to its owner: the button and the action's name. Every
/// button's action goes through here, whatever its type.
#[derive(Message, Debug, Clone, PartialEq)]
pub struct Pressed {
    pub button: Entity,
    pub action: String,
}

/// The name of a button's action (its `Debug` form, "PickLevel(2)"), set by the widget
/// builders: what tools and tests see of an action without knowing its type.
#[derive(Component, Debug, Clone, PartialEq, Eq)]
pub struct ActionName(pub String);

impl ActionName {
    pub fn of(act: &impl Debug) -> Self {
        Self(format!("{act:?}"))
    }
}

/// The action type of a screen: a component on its buttons and a message to its systems.
pub trait ButtonAction: Component + Message + Clone + Debug {}
impl<T: Component + Message + Clone + Debug> ButtonAction for T {}

/// `app.add_button_action::<A>()`: buttons carrying an `A` deliver it as an `A` message.
pub trait AddButtonAction {
    fn add_button_action<A: ButtonAction>(&mut self) -> &mut Self;
}

impl AddButtonAction for App {
    fn add_button_action<A: ButtonAction>(&mut self) -> &mut Self {
        // Once per type (a second observer would deliver every press twice).
        if self.world_mut().get_resource_or_init::<RegisteredActions>().0.insert(TypeId::of::<A>()) {
            self.add_message::<A>().add_observer(deliver::<A>);
        }
        self
    }
}

#[derive(Resource, Default)]
struct RegisteredActions(HashSet<TypeId>);

fn deliver<A: ButtonAction>(press: On<Activate>, buttons: Query<(&A, Option<&ActionName>)>, mut out: MessageWriter<A>, mut pressed: MessageWriter<Pressed>) {
    let Ok((act, name)) = buttons.get(press.entity) else { return };
    out.write(act.clone());
    pressed.write(Pressed { button: press.entity, action: name.map_or_else(|| format!("{act:?}"), |n| n.0.clone()) });
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

/// The button the keyboard is on, in menus, screens and the match's overlays (`focus.rs` moves
/// it): `None` until an arrow is pressed, so Enter keeps each screen's own default (Play, Start …)
/// for mouse players.
#[derive(Resource, Debug, Default, Clone, Copy, PartialEq)]
pub struct KeyFocus(pub Option<Entity>);

fn press_buttons(q: Query<(Entity, &Interaction, Has<Disabled>), (Changed<Interaction>, With<Button>, With<ActionName>)>, mut commands: Commands) {
    for (e, i, disabled) in &q {
        if *i == Interaction::Pressed && !disabled {
            commands.trigger(Activate { entity: e });
        }
    }
}

fn colour_buttons(mut q: Query<(Entity, &Interaction, &mut BackgroundColor, Has<Disabled>, Has<Selected>), With<Button>>, focus: Res<KeyFocus>) {
    for (e, i, mut bg, disabled, selected) in &mut q {
        // The keyboard's button shows as pressed-in, brighter than a hovered one.
        let i = if focus.0 == Some(e) { &Interaction::Pressed } else { i };
        let c = match (*i, disabled, selected) {
            (_, true, _) => palette::BUTTON_OFF,
            (Interaction::Pressed, _, _) => palette::BUTTON_PRESSED,
            (Interaction::Hovered, _, _) => palette::BUTTON_HOVER,
            (_, _, true) => palette::BUTTON_ON,
            _ => palette::BUTTON,
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
