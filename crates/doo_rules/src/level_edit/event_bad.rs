//! The event form's unresolved references (issue 46): a row whose value names a figure, side,
//! door, item, encounter, event or variable the level does not hold is `bad`, as `validate`
//! names it on the problems line (`rules::event_checks`); the window draws it in red. Items
//! are the game's (the window passes their ids) or the level's keys; without the game's list
//! an item is never flagged.

use super::event_cond::{C, leaf};
use super::event_more::{Lists, M};
use super::event_target::{F, Target};
use super::orders_form::OF;
use crate::level_file::Level;
use crate::rules::grid::Pos;
use crate::rules::orders::{Orders, Prey};
use crate::rules::story::{Action, Cond, EventDef, Trigger, Who};

/// What a reference may name: the level's lists, and the game's item ids (`None`: not known).
pub(super) struct Known<'a> {
    pub ls: &'a Lists,
    pub level: &'a Level,
    pub items: Option<&'a [String]>,
}

fn has(v: &[String], s: &str) -> bool {
    v.iter().any(|x| x == s)
}

impl Known<'_> {
    fn side(&self, s: &str) -> bool {
        has(&self.ls.sides, s)
    }
    fn figure(&self, f: &str) -> bool {
        has(&self.ls.figures, f)
    }
    fn who(&self, w: &Who) -> bool {
        match w {
            Who::Any => true,
            Who::Side(s) => self.side(s),
            Who::Figure(f) => self.figure(f),
        }
    }
    /// A door's space on the map (a closed, open, locked or secret door).
    fn door(&self, p: Pos) -> bool {
        let (Ok(x), Ok(y)) = (usize::try_from(p.x), usize::try_from(p.y)) else { return false };
        let c = self.level.floors.get(p.floor as usize).and_then(|f| f.get(y)).and_then(|r| r.chars().nth(x));
        matches!(c, Some('+' | '/' | 'L' | 'S'))
    }
    fn item(&self, i: &str) -> bool {
        self.items.is_none_or(|game| has(game, i) || self.level.keys.iter().any(|k| k.id == i))
    }
    fn encounter(&self, e: &str) -> bool {
        has(&self.ls.encounters, e)
    }
    fn event(&self, e: &str) -> bool {
        has(&self.ls.events, e)
    }
    fn var(&self, v: &str) -> bool {
        self.level.vars.contains_key(v)
    }
}

/// Whether the row changing `t` of event `e` (its actions in view: `list`) names what the
/// level lacks.
pub(super) fn bad(k: &Known, e: &EventDef, list: &[Action], t: Target) -> bool {
    match t {
        Target::Who => match &e.when {
            Trigger::Enters { who, .. }
            | Trigger::Falls { who }
            | Trigger::Acted { who, .. }
            | Trigger::Offered { who, .. }
            | Trigger::Sighted { who, .. }
            | Trigger::TrapSprung { who, .. }
            | Trigger::HpAtMost { who, .. } => !k.who(who),
            _ => false,
        },
        Target::TriggerDoor => matches!(&e.when, Trigger::DoorOpens { at } if !k.door(*at)),
        Target::TriggerItem => matches!(&e.when, Trigger::ItemTaken { item } if !k.item(item)),
        Target::After => e.after.as_deref().is_some_and(|a| a == e.id || !k.event(a)),
        Target::More(None, M::By) => matches!(&e.when, Trigger::Sighted { by, .. } if !k.side(by)),
        Target::More(Some(a), m) => match (list.get(a), m) {
            (Some(Action::SetVar { name, .. } | Action::AddVar { name, .. }), M::Var) => !k.var(name),
            (Some(Action::AwardCp { who, .. }), M::Heroes) => !k.who(who),
            (Some(Action::Choice { side, .. }), M::ChoiceSide) => !k.side(side),
            _ => false,
        },
        Target::Field(a, f) => list.get(a).is_some_and(|act| field_bad(k, act, f)),
        Target::Cond(c) => cond_bad(k, e.only_if.as_ref(), c),
        _ => false,
    }
}

fn field_bad(k: &Known, act: &Action, f: F) -> bool {
    match (act, f) {
        (Action::Win(s) | Action::Lose(s), F::Side) => !k.side(s),
        (Action::StartCrisis { surprised: Some(s), .. } | Action::Reveal { side: Some(s), .. }, F::OptSide) => !k.side(s),
        (Action::StartCrisis { encounters, .. }, F::Encounters) => encounters.iter().any(|x| !k.encounter(x)),
        (Action::Door { at, .. }, F::Door) => !k.door(*at),
        (Action::Give { figure, .. } | Action::Take { figure, .. }, F::Figure) => !k.figure(figure),
        (Action::Give { item, .. } | Action::Take { item, .. }, F::Item) => !k.item(item),
        // One that arrives later (`arrives: true`); `validate` names one on the map from the start.
        (Action::Spawn(x), F::Encounter) => !has(&k.ls.arriving, x),
        (Action::Stance { encounter, .. } | Action::Orders { encounter, .. }, F::Encounter) => !k.encounter(encounter),
        (Action::Orders { to: Some(o), .. }, F::Orders(of)) => match (o, of) {
            (Orders::Bodyguard { figure }, OF::Figure) => !k.figure(figure),
            (Orders::Hunt { prey: Prey::Carrier(i) }, OF::Prey) => !k.item(i),
            (Orders::CallForHelp { encounter }, OF::Encounter) => !k.encounter(encounter),
            _ => false,
        },
        _ => false,
    }
}

/// A clause's row of the condition (`event_cond`: its node in the condition's tree).
fn cond_bad(k: &Known, c: Option<&Cond>, f: C) -> bool {
    let id = match f {
        C::Door(i) | C::Who(i) | C::Item(i) | C::Var(i) | C::Event(i) => i,
        _ => return false,
    };
    match (leaf(c, id), f) {
        (Some(Cond::Door { at, .. }), C::Door(_)) => !k.door(at),
        (Some(Cond::Holds { who, .. }), C::Who(_)) => !k.who(&who),
        (Some(Cond::Holds { item, .. }), C::Item(_)) => !k.item(&item),
        (Some(Cond::Var { name, .. }), C::Var(_)) => !k.var(&name),
        (Some(Cond::Fired(id)), C::Event(_)) => !k.event(&id),
        _ => false,
    }
}
