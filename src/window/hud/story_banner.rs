//! The story banner (issue 43): just above the action bar, the level's latest story line (a level
//! event's `message`) stays up until the next one, so a tutorial's step can be read again while
//! the player does what it asks. The board's overlay shows each line as it comes (overlays.rs);
//! this keeps the last. Hidden in a level that has told no story yet.

use crate::game::log::MatchLog;
use crate::window::screens::Screen;
use crate::window::theme::prelude::*;
use bevy::prelude::*;
use doo_rules::replay::LogEntry;
use doo_rules::rules::Event;

pub(super) fn plugin(app: &mut App) {
    app.add_systems(Update, refresh_story_banner.run_if(in_state(Screen::Match)));
}

#[derive(Component)]
struct StoryBanner;

#[derive(Component)]
struct StoryBannerText;

/// The banner, a child of the action bar, just above it (out of the way of the reset display
/// at the board's top, next to the hint line and the bar the player reads as he acts); the line
/// wraps to the bar's width.
pub(super) fn banner() -> impl Bundle {
    (
        Name::new("Story banner"),
        StoryBanner,
        Visibility::Hidden,
        panel_in(
            Node {
                position_type: PositionType::Absolute,
                left: Val::Px(0.0),
                right: Val::Px(0.0),
                bottom: Val::Percent(100.0),
                padding: UiRect::axes(Val::Px(12.0), Val::Px(6.0)),
                justify_content: JustifyContent::Center,
                ..default()
            },
            palette::PANEL_SOLID,
        ),
        children![(StoryBannerText, text("", 15.0, palette::GOLD))],
    )
}

/// The text of the last story line in `entries`, if any.
pub fn last_story(entries: &[LogEntry]) -> Option<&str> {
    entries.iter().rev().find_map(|l| match l {
        LogEntry::Event { event: Event::Story { text, .. }, .. } => Some(text.as_str()),
        _ => None,
    })
}

fn refresh_story_banner(
    log: Res<MatchLog>,
    mut seen: Local<Option<usize>>,
    mut texts: Query<&mut Text, With<StoryBannerText>>,
    mut banners: Query<&mut Visibility, With<StoryBanner>>,
    fresh: Query<(), Added<StoryBannerText>>,
) {
    // Read again when the log changed length (a command, an undo, a new match) or the banner
    // was just spawned.
    if *seen == Some(log.len()) && fresh.is_empty() {
        return;
    }
    *seen = Some(log.len());
    let line = last_story(log.entries());
    for mut t in &mut texts {
        let want = line.unwrap_or_default();
        if t.0 != want {
            t.0 = want.to_string();
        }
    }
    for mut v in &mut banners {
        let want = if line.is_some() { Visibility::Inherited } else { Visibility::Hidden };
        if *v != want {
            *v = want;
        }
    }
}
