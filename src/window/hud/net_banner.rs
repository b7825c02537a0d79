//! The network banner (issue 32): under the top bar while a match is played over the network,
//! one line saying where it is hosted or who this player is, who has joined, and who the match
//! waits for ("waiting for bob"); a lost connection says it is joining again.

use crate::window::screens::Screen;
use crate::window::theme::prelude::*;
use bevy::prelude::*;

pub(super) fn plugin(app: &mut App) {
    app.add_systems(Update, refresh_net_banner.run_if(in_state(Screen::Match)));
}

#[derive(Component)]
struct NetBanner;

#[derive(Component)]
struct NetBannerText;

/// The banner, a child of the top bar, just under it (hidden outside network matches).
pub(super) fn banner() -> impl Bundle {
    (
        Name::new("Network banner"),
        NetBanner,
        Visibility::Hidden,
        panel_in(
            Node {
                position_type: PositionType::Absolute,
                left: Val::Px(0.0),
                right: Val::Px(0.0),
                top: Val::Percent(100.0),
                padding: UiRect::axes(Val::Px(10.0), Val::Px(3.0)),
                justify_content: JustifyContent::Center,
                ..default()
            },
            palette::PANEL_SOLID,
        ),
        children![(NetBannerText, text("", 14.0, palette::GOLD), TextLayout::no_wrap())],
    )
}

fn refresh_net_banner(world: &mut World) {
    let line = crate::window::net::status_line(world);
    let mut texts = world.query_filtered::<&mut Text, With<NetBannerText>>();
    for mut t in texts.iter_mut(world) {
        let want = line.clone().unwrap_or_default();
        if t.0 != want {
            t.0 = want;
        }
    }
    let mut banners = world.query_filtered::<&mut Visibility, With<NetBanner>>();
    for mut v in banners.iter_mut(world) {
        let want = if line.is_some() { Visibility::Inherited } else { Visibility::Hidden };
        if *v != want {
            *v = want;
        }
    }
}
