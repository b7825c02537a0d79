//! Sound effects, with the opt-in `audio` cargo feature (it needs `libasound2-dev`; the default
//! build has no audio and no system library). The sounds are ours: `examples/gen_sfx.rs`
//! synthesises them into `assets/sfx/` (16-bit WAV). A step per space a miniature is set down,
//! a blow that lands or misses, a reflex, a spell, a door, and a short sting when a human side
//! wins or loses (when nobody human plays, the sting of a win). Volume in the settings.

use super::settings::Settings;
use crate::game::MatchSystems;
use crate::game::intent::Seats;
use crate::game::log::RulesEvent;
use bevy::audio::{GlobalVolume, Volume};
use bevy::prelude::*;
use doo_rules::rules::Event;

pub(super) fn plugin(app: &mut App) {
    app.add_systems(Startup, load_sounds)
        .add_systems(Update, set_volume.run_if(resource_changed::<Settings>))
        .add_systems(Update, play_sounds.in_set(MatchSystems::Present).after(super::board::FiguresMoved));
}

#[derive(Resource)]
struct Sounds {
    step: Handle<AudioSource>,
    hit: Handle<AudioSource>,
    miss: Handle<AudioSource>,
    reflex: Handle<AudioSource>,
    spell: Handle<AudioSource>,
    door: Handle<AudioSource>,
    victory: Handle<AudioSource>,
    defeat: Handle<AudioSource>,
}

fn load_sounds(mut commands: Commands, server: Res<AssetServer>) {
    let l = |n: &str| server.load(format!("sfx/{n}.wav"));
    commands.insert_resource(Sounds {
        step: l("step"),
        hit: l("hit"),
        miss: l("miss"),
        reflex: l("reflex"),
        spell: l("spell"),
        door: l("door"),
        victory: l("victory"),
        defeat: l("defeat"),
    });
}

fn set_volume(settings: Res<Settings>, mut global: ResMut<GlobalVolume>) {
    let v = Volume::Linear(settings.volume.clamp(0.0, 1.0));
    if global.volume != v {
        global.volume = v;
    }
}

fn play_sounds(
    mut commands: Commands,
    mut events: MessageReader<RulesEvent>,
    mut steps: MessageReader<super::board::figures::FigureStepped>,
    sounds: Res<Sounds>,
    settings: Res<Settings>,
    seats: Res<Seats>,
) {
    let mut play = |h: &Handle<AudioSource>| {
        commands.spawn((Name::new("Sound"), AudioPlayer::new(h.clone()), PlaybackSettings::DESPAWN));
    };
    if settings.volume <= 0.0 {
        events.clear();
        steps.clear();
        return;
    }
    // One step sound a frame at most, however many figures land a step in it.
    if steps.read().count() > 0 {
        play(&sounds.step);
    }
    for RulesEvent(e) in events.read() {
        match e {
            Event::AttackResolved { damage, outcome, .. } => play(if outcome.contains("miss") && *damage == 0 { &sounds.miss } else { &sounds.hit }),
            Event::ReflexDeclared { .. } | Event::ResponseDeclared { .. } => play(&sounds.reflex),
            Event::ActionTaken { action, .. } if action.contains("spell") => play(&sounds.spell),
            Event::DoorChanged { .. } => play(&sounds.door),
            Event::CrisisOver { winner, .. } => {
                let human_won = winner.as_ref().is_some_and(|w| seats.players.contains_key(w));
                let humans = !seats.players.is_empty();
                play(if human_won || (!humans && winner.is_some()) { &sounds.victory } else { &sounds.defeat });
            }
            _ => {}
        }
    }
}
