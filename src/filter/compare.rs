//! Two versions of a filter compared (Batfish's `compareFilters`): the regions newly
//! denied and newly permitted, each as the pair of lines (old, new) whose first-match
//! regions overlap with different actions.

use super::bdd::{Encoded, Space};
use super::{HeaderSpace, Packet};
use crate::model::{FilterLine, PacketFilter};
use biodivine_lib_bdd::Bdd;

/// Differences listed per direction; the rest are counted.
const LISTED: usize = 20;

/// A line of one version, or its implicit deny.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LineRef {
    /// Its index in the filter's lines; None for the implicit deny at the end.
    pub index: Option<usize>,
    /// Its source line (0 for the implicit deny).
    pub line: u32,
    /// As written.
    pub text: String,
    /// Its action.
    pub permit: bool,
}

/// One region whose verdict changes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Difference {
    /// The old version's line deciding it.
    pub old: LineRef,
    /// The new version's line deciding it.
    pub new: LineRef,
    /// The overlap of the two lines' conditions, in words (earlier lines that take part
    /// of it are said).
    pub space: String,
    /// One packet of the region.
    pub example: Packet,
    /// Whether the change holds for certain (false: it depends on a condition olav does
    /// not evaluate).
    pub certain: bool,
}

/// How much of a flow a filter lets through.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Passes {
    /// Every packet of it.
    All,
    /// Some packets, not others.
    Part,
    /// None of it.
    Nothing,
    /// It depends on a condition olav does not evaluate.
    Unknown,
}

/// What happens to one flow's packets.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FlowChange {
    /// Before.
    pub before: Passes,
    /// After.
    pub after: Passes,
    /// A packet of the flow newly denied for certain.
    pub newly_denied: Option<Packet>,
    /// A packet of the flow newly permitted for certain.
    pub newly_permitted: Option<Packet>,
    /// A packet of the flow whose change olav cannot tell.
    pub unknown: Option<Packet>,
    /// A packet of the flow that may be newly denied (an unevaluated line decides): a
    /// flow that can only gain is never one the change may drop.
    pub maybe_denied: Option<Packet>,
}

/// One packet's change.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Change {
    /// The same verdict.
    Same,
    /// Permitted before, denied after.
    NewlyDenied,
    /// Denied before, permitted after.
    NewlyPermitted,
    /// It depends on a condition olav does not evaluate.
    Unknown,
}

/// Two versions of a filter compared.
pub struct Comparison {
    /// Newly denied regions (at most 20; `more_denied` counts the rest).
    pub newly_denied: Vec<Difference>,
    /// Regions past the listed ones.
    pub more_denied: usize,
    /// Newly permitted regions (at most 20).
    pub newly_permitted: Vec<Difference>,
    /// Regions past the listed ones.
    pub more_permitted: usize,
    space: Space,
    /// Per version: permitted whatever the unknown conditions, permitted for some.
    old: (Bdd, Bdd),
    new: (Bdd, Bdd),
    denied: (Bdd, Bdd),
    permitted: (Bdd, Bdd),
}

/// Compares two versions of a filter.
pub fn compare(old: &PacketFilter, new: &PacketFilter) -> Comparison {
    let space = Space::new([old, new]);
    let u = space.unknown_vars();
    let (eo, en) = (space.encode(old), space.encode(new));
    let sure = |b: &Bdd| (b.for_all(&u), b.exists(&u));
    let d = eo.permit.and_not(&en.permit);
    let p = en.permit.and_not(&eo.permit);
    let denied = sure(&d);
    let permitted = sure(&p);
    let (newly_denied, more_denied) = pairs(&space, old, new, &eo, &en, true, &denied.0);
    let (newly_permitted, more_permitted) = pairs(&space, old, new, &eo, &en, false, &permitted.0);
    Comparison {
        newly_denied,
        more_denied,
        newly_permitted,
        more_permitted,
        old: sure(&eo.permit),
        new: sure(&en.permit),
        denied,
        permitted,
        space,
    }
}

fn line_ref(f: &PacketFilter, i: usize) -> LineRef {
    match f.lines.get(i) {
        Some(l) => LineRef {
            index: Some(i),
            line: l.line,
            text: l.text.clone(),
            permit: l.permit,
        },
        None => LineRef {
            index: None,
            line: 0,
            text: "(implicit deny)".into(),
            permit: false,
        },
    }
}

/// The pairs (old line, new line) of differing action whose regions overlap: `deny`
/// pairs an old permit with a new deny.
fn pairs(
    space: &Space,
    old: &PacketFilter,
    new: &PacketFilter,
    eo: &Encoded,
    en: &Encoded,
    deny: bool,
    certain: &Bdd,
) -> (Vec<Difference>, usize) {
    let u = space.unknown_vars();
    let action = |f: &PacketFilter, i: usize| f.lines.get(i).is_some_and(|l| l.permit);
    let changed = eo.permit.xor(&en.permit);
    let olds: Vec<usize> = (0..eo.regions.len())
        .filter(|i| action(old, *i) == deny && !eo.regions[*i].and(&changed).is_false())
        .collect();
    let news: Vec<usize> = (0..en.regions.len())
        .filter(|j| action(new, *j) != deny && !en.regions[*j].and(&changed).is_false())
        .collect();
    let mut out = Vec::new();
    let mut more = 0;
    for i in &olds {
        for j in &news {
            let x = eo.regions[*i].and(&en.regions[*j]);
            if x.is_false() {
                continue;
            }
            if out.len() >= LISTED {
                more += 1;
                continue;
            }
            let xh = x.exists(&u);
            let sure = xh.and(certain);
            let is_certain = !sure.is_false();
            let Some(example) = space.witness(if is_certain { &sure } else { &xh }) else {
                continue;
            };
            out.push(Difference {
                old: line_ref(old, *i),
                new: line_ref(new, *j),
                space: words(space, old.lines.get(*i), new.lines.get(*j), &xh),
                example,
                certain: is_certain,
            });
        }
    }
    (out, more)
}

/// The overlap of two lines' conditions in words, saying when earlier lines (or a
/// condition not in words) take part of it.
fn words(space: &Space, a: Option<&FilterLine>, b: Option<&FilterLine>, region: &Bdd) -> String {
    let any = HeaderSpace::default();
    let boxed = |l: Option<&FilterLine>| l.map(HeaderSpace::of_line).unwrap_or_default();
    let Some(both) = boxed(a).intersect(&boxed(b)) else {
        return any.to_string();
    };
    let exact = space.space(&both).iff(region).is_true();
    if exact {
        both.to_string()
    } else {
        format!("{both}, where no earlier line matches")
    }
}

impl Comparison {
    /// One packet's change.
    pub fn change_of(&self, p: &Packet) -> Change {
        let v = self.space.valuation(p);
        if self.denied.0.eval_in(&v) {
            Change::NewlyDenied
        } else if self.permitted.0.eval_in(&v) {
            Change::NewlyPermitted
        } else if self.denied.1.eval_in(&v) || self.permitted.1.eval_in(&v) {
            Change::Unknown
        } else {
            Change::Same
        }
    }

    /// Whether the comparison found no change at all (certain or not).
    pub fn is_same(&self) -> bool {
        self.denied.1.is_false() && self.permitted.1.is_false()
    }

    /// What happens to the packets of a flow.
    pub fn flow(&self, flow: &HeaderSpace) -> FlowChange {
        let f = self.space.space(flow);
        let passes = |(all, some): &(Bdd, Bdd)| {
            if f.and_not(all).is_false() {
                Passes::All
            } else if f.and(some).is_false() {
                Passes::Nothing
            } else if !f.and(some).and_not(all).is_false() {
                Passes::Unknown
            } else {
                Passes::Part
            }
        };
        let maybe_denied = f.and(&self.denied.1.and_not(&self.denied.0));
        let unknown = maybe_denied.or(&f.and(&self.permitted.1.and_not(&self.permitted.0)));
        FlowChange {
            before: passes(&self.old),
            after: passes(&self.new),
            newly_denied: self.space.witness(&f.and(&self.denied.0)),
            newly_permitted: self.space.witness(&f.and(&self.permitted.0)),
            unknown: self.space.witness(&unknown),
            maybe_denied: self.space.witness(&maybe_denied),
        }
    }
}
