//! The action bar, grouped (Move / Attack / Defend & react / Items & other, as tabs with how many
//! entries are available): the open group's entries with their key and cost, available ones
//! first, greyed ones with the rule that forbids them, and those this figure can never use
//! hidden; and the tooltip line under the board (hovered button, move preview, the last refusal,
//! or what to do).

use super::MatchAct;
use super::{HudSystems, Tip};
use crate::game::intent::{PlayerView, Seats};
use crate::window::board::HoveredSpace;
use crate::window::theme::prelude::*;
use bevy::prelude::*;
use doo_rules::rules::preview::{Aim, Group, MoveKind};

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<BarState>()
        .add_systems(Update, (open_group, rebuild_bar, show_tooltip).chain().in_set(HudSystems::Draw))
        .add_systems(PostUpdate, log_bar_layout.after(bevy::ui::UiSystems::Layout).run_if(in_state(crate::window::screens::Screen::Match)));
}

/// With `--log`: a `bar` line whenever the action bar's layout changes: the window and the
/// panel in physical pixels, the UI scale, and the rectangle of every tab and entry, so a test
/// can check that the grouped bar fits the window at any UI scale.
fn log_bar_layout(
    opts: Res<crate::window::WindowOptions>,
    windows: Query<&Window>,
    ui: Res<UiScale>,
    panel: Query<(&ComputedNode, &UiGlobalTransform), With<BarPanel>>,
    items: Query<(Entity, &ComputedNode, &UiGlobalTransform, Has<BarTab>), With<Button>>,
    parents: Query<&ChildOf>,
    mut last: Local<String>,
) {
    let (Some(path), Ok(w), Ok((pn, pt))) = (&opts.log, windows.single(), panel.single()) else { return };
    let rect = |n: &ComputedNode, t: &UiGlobalTransform| {
        let (c, s) = (t.translation, n.size());
        [(c.x - s.x / 2.0).round(), (c.y - s.y / 2.0).round(), (c.x + s.x / 2.0).round(), (c.y + s.y / 2.0).round()]
    };
    let (mut tabs, mut buttons) = (Vec::new(), Vec::new());
    for (e, n, t, tab) in &items {
        if n.size().x <= 0.0 || !parents.iter_ancestors(e).any(|a| panel.contains(a)) {
            continue;
        }
        if tab {
            tabs.push(rect(n, t));
        }
        buttons.push(rect(n, t));
    }
    let line = serde_json::json!({
        "type": "bar",
        "window": [w.physical_width(), w.physical_height()],
        "scale": ui.0,
        "panel": rect(pn, pt),
        "tabs": tabs,
        "buttons": buttons,
    })
    .to_string();
    if *last != line {
        let _ = doo_rules::data::append_text(path, &format!("{line}\n"));
        *last = line;
    }
}

/// The bottom panel.
#[derive(Component)]
pub(super) struct BarPanel;
#[derive(Component)]
pub(super) struct BarRow;
#[derive(Component)]
struct PassLabel;
#[derive(Component)]
pub(super) struct TipText;
/// The tooltip line's box (its width is the line's room).
#[derive(Component)]
pub(super) struct TipLine;

/// Which group of the bar is open, for whom, and the entries it shows in order (indices into
/// `PlayerView::choices`: the number keys 1-9, 0 pick them).
#[derive(Resource, Debug, Default)]
pub(super) struct BarState {
    pub open: Group,
    decider: Option<String>,
    pub slots: Vec<usize>,
    /// Set when the player picked a group (the bar then keeps it for this figure).
    picked: bool,
    /// The page of the open group shown (a group longer than the bar's rows has pages).
    pub page: usize,
    /// Pages of the open group.
    pub pages: usize,
}

/// Rows of entries the bar shows under its tabs.
const ENTRY_ROWS: usize = 3;
/// Width in UI pixels of a bar button with `chars` characters (the UI font is monospaced:
/// 0.6 em at 12 px, plus padding, border and margin).
fn button_width(chars: usize) -> f32 {
    chars as f32 * 7.2 + 15.0
}

/// Splits entries of the given widths into pages of at most `rows` rows of `avail` pixels.
fn paginate(widths: &[f32], avail: f32, rows: usize) -> Vec<std::ops::Range<usize>> {
    let mut pages = Vec::new();
    let (mut start, mut row, mut x) = (0, 1, 0.0);
    for (i, w) in widths.iter().enumerate() {
        if x > 0.0 && x + w > avail {
            row += 1;
            x = 0.0;
            if row > rows {
                pages.push(start..i);
                (start, row) = (i, 1);
            }
        }
        x += w;
    }
    pages.push(start..widths.len());
    pages
}

/// The bar's entries' labels.
fn entry_label(c: &doo_rules::rules::preview::Choice, slot: usize) -> String {
    let k = key_name(slot);
    let def = if c.defense != 0 { format!(" | Def {:+}", c.defense) } else { String::new() };
    format!("{}{} | {}{def}", if k.is_empty() { String::new() } else { format!("[{k}] ") }, c.label, c.cost)
}

fn key_name(i: usize) -> String {
    match i {
        0..=8 => format!("{}", i + 1),
        9 => "0".into(),
        10..=18 => format!("S+{}", i - 9),
        19 => "S+0".into(),
        _ => String::new(),
    }
}

/// The entries a group shows: those that can apply to the figure, the available ones first.
fn shown(view: &PlayerView, g: Group) -> Vec<usize> {
    let mut v: Vec<usize> = (0..view.choices.len()).filter(|&i| view.choices[i].group == g && view.choices[i].applies).collect();
    v.sort_by_key(|&i| !view.choices[i].available());
    v
}

/// A new figure to decide opens the group most likely wanted: Attack when an attack can be made,
/// else the first group with something available; Tab and the tabs switch groups.
fn open_group(mut acts: MessageReader<MatchAct>, view: Res<PlayerView>, mut bar: ResMut<BarState>) {
    for a in acts.read() {
        if let MatchAct::BarGroup(k) = a {
            let g = Group::ALL[*k % Group::ALL.len()];
            // The open group's tab again: its next page.
            bar.page = if g == bar.open && bar.pages > 1 { (bar.page + 1) % bar.pages } else { 0 };
            bar.open = g;
            bar.picked = true;
        }
    }
    if view.decider != bar.decider {
        bar.decider = view.decider.clone();
        bar.picked = false;
        bar.page = 0;
    }
    if !bar.picked && view.is_changed() {
        let has = |g: Group| view.choices.iter().any(|c| c.group == g && c.applies && c.available());
        let best = if has(Group::Attack) { Group::Attack } else { Group::ALL.into_iter().find(|&g| has(g)).unwrap_or(Group::Attack) };
        if bar.open != best {
            bar.open = best;
            bar.page = 0;
        }
    }
}

/// The action bar: the group tabs (with how many entries each has available), End / Undo / Help /
/// Menu, then the open group's entries with their key and cost; greyed with the rule that forbids
/// them now. Entries the figure can never use (no missile weapon, no shield, no spells …) are
/// not shown.
fn rebuild_bar(
    mut commands: Commands,
    view: Res<PlayerView>,
    mut bar: ResMut<BarState>,
    rows: Query<Entity, With<BarRow>>,
    seats: Res<Seats>,
    spectating: Option<Res<crate::game::intent::Spectating>>,
    windows: Query<&Window>,
    ui: Res<UiScale>,
) {
    if !view.is_changed() && !bar.is_changed() && !ui.is_changed() {
        return;
    }
    let Ok(row) = rows.single() else { return };
    commands.entity(row).despawn_children();
    // The bar's width in UI pixels: the window's less the right panel and the padding.
    let logical = windows.single().map_or(1280.0, |w| w.width()) / ui.0.max(0.1);
    let avail = logical - crate::window::board::camera::right_panel_px(logical) - 14.0;
    let compact = avail < 700.0;
    let all = if view.decider.is_some() && view.reactions.is_none() { shown(&view, bar.open) } else { Vec::new() };
    let widths: Vec<f32> = all.iter().enumerate().map(|(k, &i)| button_width(entry_label(&view.choices[i], k % 20).chars().count())).collect();
    let mut pages = paginate(&widths, avail, ENTRY_ROWS);
    if pages.len() > 1 {
        // Room for the "More" button.
        pages = paginate(&widths, avail - button_width(9), ENTRY_ROWS);
    }
    let page = bar.page.min(pages.len().saturating_sub(1));
    let range = pages.get(page).cloned().unwrap_or(0..0);
    let slots: Vec<usize> = all[range.clone()].to_vec();
    if bar.slots != slots || bar.pages != pages.len() || bar.page != page {
        bar.slots = slots.clone();
        bar.pages = pages.len();
        bar.page = page;
    }
    commands.entity(row).with_children(|p| {
        if view.decider.is_none() {
            let s = if spectating.is_some() {
                "Watching a replay: Space plays or pauses, comma and period step, [ and ] jump a turn"
            } else if seats.players.is_empty() {
                "Watching the AI (Space: skip the pace)"
            } else {
                "Waiting for the other side..."
            };
            p.spawn(text(s, 14.0, palette::DIM));
            p.spawn((button("Menu", MatchAct::MatchMenu), Tip("Save as, load, watch the replay, leave (the match is autosaved)".into())));
            return;
        }
        if view.reactions.is_some() {
            p.spawn(text("Answer the prompt above (1-9 or N to decline).", 14.0, palette::GOLD));
            return;
        }
        // Tabs and the commands that are always there.
        p.spawn(Node { flex_direction: FlexDirection::Row, flex_wrap: FlexWrap::Wrap, width: Val::Percent(100.0), ..default() }).with_children(|t| {
            for (k, g) in Group::ALL.into_iter().enumerate() {
                let all = shown(&view, g);
                if all.is_empty() {
                    continue;
                }
                let ready = all.iter().filter(|&&i| view.choices[i].available()).count();
                let name = if compact { g.short() } else { g.label() };
                let more = if g == bar.open && pages.len() > 1 { format!(" {}/{}", page + 1, pages.len()) } else { String::new() };
                let label = format!("{name} {ready}{more}");
                let tip = format!(
                    "{}: {ready} of {} available now (Tab switches groups and pages). Entries this figure can never use are not shown.",
                    g.label(),
                    all.len()
                );
                let mut b = t.spawn((bar_button(label, MatchAct::BarGroup(k), true), Tip(tip), BarTab));
                if g == bar.open {
                    b.insert(Selected);
                }
            }
            t.spawn(Node { flex_grow: 1.0, ..default() });
            t.spawn((
                bar_button(if compact { "End" } else { "[Enter] End" }, MatchAct::Pass, true),
                PassLabel,
                Tip(if view.choices.iter().any(|c| c.row == "end_turn") {
                    "End the exploration turn: the heroes who have not acted wait, then the minute passes (R-EXP-3, R-EXP-20).".into()
                } else {
                    "End the opportunity; with nothing done it is a pass: you keep your AP and act later this round (R-TURN-13).".into()
                }),
            ));
            if let Some(u) = &view.undo {
                let (tip, ok) = match u {
                    Ok(u) => (
                        format!(
                            "Undo: take back {}{}. Moves, posture changes and free steps can be taken back while the opportunity lasts; nothing that threw dice.",
                            u.label,
                            crate::game::undo::gives_back(u)
                        ),
                        true,
                    ),
                    Err(v) => (format!("Undo - not now: {} - {}", v.reason, v.rule), false),
                };
                let mut b = t.spawn((bar_button("Undo", MatchAct::Undo, ok), Tip(format!("[Ctrl+Z] {tip}"))));
                if !ok {
                    b.insert(Disabled);
                }
            }
        });
        // The open group's entries.
        p.spawn(Node { flex_direction: FlexDirection::Row, flex_wrap: FlexWrap::Wrap, width: Val::Percent(100.0), ..default() }).with_children(|e| {
            for (slot, &i) in slots.iter().enumerate() {
                let c = &view.choices[i];
                let label = entry_label(c, slot);
                let tip = match &c.refusal {
                    Some(v) => format!("{} - {}: not now - {} (F2 explains {})", v.rule, c.label, v.reason, v.rule),
                    None => {
                        let aim = match &c.aim {
                            Aim::Figure(t) => format!(" Then click one of {} highlighted target{}.", t.len(), if t.len() == 1 { "" } else { "s" }),
                            Aim::Space(s) => format!(" Then click one of {} highlighted spaces.", s.len()),
                            Aim::None => String::new(),
                        };
                        let only = if c.only { " Only action: it takes all your AP and nothing more this turn (R-ONLY-6)." } else { "" };
                        // Issue 43: the allies it may strike, marked "!" on the board.
                        let warn: String = c.warn.iter().map(|w| format!(" ! {}", w.1)).collect();
                        format!("{}: {}.{only}{aim}{warn} {}", c.label, c.cost, c.description)
                    }
                };
                let mut b = e.spawn((bar_button(label, MatchAct::Choose(i), c.refusal.is_none()), Tip(tip), BarEntry));
                if c.template.is_exploration() {
                    b.insert(OrderKind(c.row.clone()));
                }
                if c.refusal.is_some() {
                    b.insert(Disabled);
                }
                if view.aiming().is_some_and(|a| a.label == c.label) {
                    b.insert(Selected);
                }
            }
            if slots.is_empty() {
                e.spawn(text("Nothing in this group for this figure.", 12.0, palette::DIM));
            }
            if pages.len() > 1 {
                e.spawn((
                    bar_button(format!("More {}/{}", page + 1, pages.len()), MatchAct::BarGroup(Group::ALL.iter().position(|g| *g == bar.open).unwrap_or(0)), true),
                    Tip("The next page of this group (or click its tab again, or press Tab)".into()),
                ));
            }
        });
    });
}

/// A group tab of the bar.
#[derive(Component)]
pub struct BarTab;
/// An entry of the bar.
#[derive(Component)]
pub struct BarEntry;

/// An order of Exploration Mode's entry (its row: "hand", "open", "take"…): the bar lists one
/// entry per item, door, chest or neighbour, all drawn by the same code (the UI walk presses
/// one of a kind for them all).
#[derive(Component)]
pub struct OrderKind(pub String);

/// What to do, when nothing else is said, in the words of the match's rules: DoO's free steps,
/// Step and Run, or A4's five-foot step, move ("M") and run ("R") and the squares that draw an
/// attack of opportunity ("!", red) — the colours the board tints them with.
pub fn idle_hint(a4: bool) -> &'static str {
    idle_hints(a4)[0]
}

/// `idle_hint` and its shorter forms, longest first (the line takes the longest that fits).
pub fn idle_hints(a4: bool) -> [&'static str; 3] {
    if a4 {
        [
            "Click a highlighted square (green five-foot step, blue move \"M\", orange run \"R\"; \"!\" draws an attack of opportunity), an enemy to attack, or choose an act.",
            "Green: five-foot step, blue \"M\": move, orange \"R\": run (\"!\" provokes); click an enemy to attack.",
            "Green 5-ft step, blue move, orange run",
        ]
    } else {
        [
            "Click a highlighted space to move (green free steps, blue Step, orange Run), an enemy to attack, or choose an action.",
            "Green: free steps, blue: Step, orange: Run; click an enemy to attack.",
            "Green free, blue Step, orange Run",
        ]
    }
}

/// Font sizes the tooltip line may take, largest first: a long line gets a smaller font before
/// it is shortened.
const TIP_FONTS: [f32; 3] = [14.0, 12.0, 10.5];

/// The tooltip line's text and font for `room_at(font)` characters: the longest of `variants`
/// that fits at some font, at the largest that fits it; else the last, shortened, at the
/// smallest.
fn fit_tip(variants: &[String], room_at: impl Fn(f32) -> usize) -> (String, f32) {
    for v in variants {
        if let Some(font) = TIP_FONTS.into_iter().find(|&f| v.chars().count() <= room_at(f)) {
            return (v.clone(), font);
        }
    }
    let small = TIP_FONTS[TIP_FONTS.len() - 1];
    (super::top_bar::fit_line(variants, room_at(small)), small)
}

/// Tooltip line: the hovered button's tip, else the hovered space's move preview, else the last
/// refusal, else what to do.
fn show_tooltip(
    state: Option<Res<crate::game::components::MatchState>>,
    view: Res<PlayerView>,
    hovered: Res<HoveredSpace>,
    tips: Query<(&Interaction, &Tip)>,
    line: Query<&ComputedNode, With<TipLine>>,
    mut text: Query<(&mut Text, &mut TextColor, &mut TextFont), With<TipText>>,
    fog: Res<crate::window::board::Fog>,
) {
    let Ok((mut t, mut color, mut font)) = text.single_mut() else { return };
    let a4 = state.as_ref().is_some_and(|s| s.0.a4.is_some());
    let mut variants: Vec<String> = Vec::new();
    // Fog of war (R-EXP-19): no move preview for a space the viewing side has never seen.
    let seen = |p: doo_rules::rules::Pos| state.as_ref().is_none_or(|s| s.0.board.index(p).is_some_and(|k| fog.revealed(k)));
    let (s, c) = if let Some((_, tip)) = tips.iter().find(|(i, _)| **i != Interaction::None) {
        (tip.0.clone(), palette::TEXT)
    } else if let Some(d) = hovered.0.filter(|h| seen(*h)).and_then(|h| view.destinations.get(&h)).filter(|_| view.aiming().is_none()) {
        let spaces = d.path.len();
        let a4 = matches!(d.command, doo_rules::rules::Command::Round { .. });
        let s = if a4 {
            let risk = if d.provokes.is_empty() {
                "no attack of opportunity".to_string()
            } else {
                format!("provokes an attack of opportunity from {} (A4-4.1, red squares)", d.provokes.join(", "))
            };
            format!("{}, {spaces} square{}: {risk}", d.label, if spaces == 1 { "" } else { "s" })
        } else {
            match d.kind {
                MoveKind::FreeStep => {
                    format!("Free steps, {spaces} space{}: 0 AP (only before anything else this opportunity)", if spaces == 1 { "" } else { "s" })
                }
                MoveKind::Step => format!("{} {spaces} space{}: {} AP", d.label, if spaces == 1 { "" } else { "s" }, d.ap),
                MoveKind::Run => format!("{} {spaces} spaces: {} AP, Defense {:+} until the next reset (R-MOVE-3)", d.label, d.ap, d.defense),
                MoveKind::Walk => d.label.clone(),
            }
        };
        (format!("{s} - click to move"), palette::GOOD)
    } else if let Some(v) = &view.feedback {
        (format!("{} - {} (F2 explains it)", v.rule, v.reason), palette::BAD)
    } else if let Some(n) = &view.notice {
        (n.clone(), palette::GOOD)
    } else if let Some(a) = view.aiming().filter(|a| !a.warn.is_empty()) {
        // Issue 43: allies it may strike are marked "!", not targets.
        (format!("{}: click a highlighted target; ! marks an ally it may strike (Esc cancels)", a.label), palette::GOLD)
    } else if let Some(a) = view.aiming() {
        (format!("{}: click a highlighted target (Esc or right click cancels)", a.label), palette::GOLD)
    } else if view.decider.is_some() && !view.destinations.values().any(|d| d.kind == MoveKind::Walk) && view.choices.iter().any(|c| c.row == "end_turn") {
        variants = vec!["This hero is done this minute: click another, or Enter ends the turn.".into(), "Hero done; Enter ends the turn".into()];
        ("Exploration: this hero has done his part this minute. Click another hero, or End the turn (Enter).".into(), palette::DIM)
    } else if view.choices.iter().any(|c| c.row == "end_turn") {
        variants = vec![
            "Click a lit space to walk, a door next to him to open it, or choose an order; Enter ends the turn.".into(),
            "Click a lit space to walk; Enter ends the turn".into(),
        ];
        (
            "Exploration: click a lit space to walk (the group follows its leader), a door next to him to open it, or choose an order. Enter ends the turn."
                .into(),
            palette::DIM,
        )
    } else if view.decider.is_some() {
        variants = idle_hints(a4).iter().skip(1).map(|h| h.to_string()).collect();
        (idle_hint(a4).into(), palette::DIM)
    } else {
        (String::new(), palette::DIM)
    };
    // One line that is never cut: a smaller font, or a shorter form (UI scale 2x included).
    let width = line.single().map_or(900.0, |n| n.size().x * n.inverse_scale_factor());
    variants.insert(0, s);
    let (s, size) = fit_tip(&variants, |f| (width / (0.6 * f)).floor() as usize);
    if t.0 != s {
        t.0 = s;
    }
    if color.0 != c {
        color.0 = c;
    }
    if font.font_size != FontSize::Px(size) {
        font.font_size = FontSize::Px(size);
    }
}
