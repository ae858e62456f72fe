//! Counts and sums read from the state's tallies (`engine::TallyDef`)
//! instead of a walk of the zone: in a let's body, `count(c in ZONE where
//! F)`, `sum(c.A for c in ZONE where F)` and `any(c in ZONE where F)` over
//! a zone of no place whose filter is tag tests of the component and at
//! most one key, `c.G == k` (`G` a place attribute) or `c has t` (`t` a
//! tag worked out then), with `k` and `t` a local, a place or a tag: the
//! shapes `engine::TallyShapes` reads.

use std::fmt::Write;

use engine::{TallyFamily, TallyGroup};
use model::*;

use crate::{span_code, sub, Env, Gen};

impl Gen<'_> {
    /// The aggregate `e` (at `path`) read from the tallies, with `walk`,
    /// its walk of the zone, for a key of another kind than the family's
    /// (the walk's outcome, an error among them); `None` when its shape is
    /// not one the tallies keep (`engine::TallyShapes`, which the
    /// interpreter's programs choose their families by too).
    pub(crate) fn tallied(&mut self, e: &Expr, path: &[usize], env: &Env, walk: &str) -> Option<String> {
        // Only in a let's body: a let is what rules ask again and again
        // (wherever it is called), while an aggregate written in a
        // statement is read where it stands, and keeping it would cost
        // every move of its zone.
        if !(self.in_let || self.depth > 0) {
            return None;
        }
        let shape = self.shapes.shape(e)?;
        let ExprKind::Aggregate { func, domain, .. } = &e.kind else { return None };
        let i = match self.tallies.iter().position(|f| *f == shape.family) {
            Some(i) => i,
            None if self.tallies.len() >= engine::TallyShapes::MOST_FAMILIES => return None,
            None => {
                self.tallies.push(shape.family.clone());
                self.tallies.len() - 1
            }
        };
        // As the walk: the zone, then its length counted as work.
        let z = self.zone(domain, &sub(path, 0), env);
        let open = format!(
            "let z = {z}; it.spend(st.zones[z.index()].len() as u64, {})?; let base = it.lay.tally_base({i}, z);",
            span_code(domain.span)
        );
        let got = |group: &str| match func {
            Aggregate::Any => format!("V::Bool(st.tallies[base + {group}] > 0)"),
            _ => format!("V::Int(st.tallies[base + {group}])"),
        };
        let none = match func {
            Aggregate::Any => "V::Bool(false)",
            _ => "V::Int(0)",
        };
        let code = match shape.key {
            None => format!("({{ {open} {} }})", got("0")),
            Some((key, key_path)) => {
                let mut at = path.to_vec();
                at.extend(key_path);
                let v = self.val(key, &at, env);
                match shape.family.group {
                    TallyGroup::Place(_) => format!(
                        "(match {v} {{ V::Place(p) => {{ {open} match it.lay.tally_place({i}, p.index()) {{ u32::MAX => {none}, g => {} }} }} V::None => {{ {open} {} }} _ => {walk} }})",
                        got("g as usize"),
                        got(&format!("it.lay.tally_none({i}) as usize")),
                    ),
                    TallyGroup::Tag => {
                        format!("(match {v} {{ V::Tag(t) => {{ {open} {} }} _ => {walk} }})", got("t.index()"))
                    }
                    TallyGroup::One => unreachable!("a key groups"),
                }
            }
        };
        Some(code)
    }

    /// The families read, as `engine::TallyDef`s for `Natives::tallies`.
    pub(crate) fn tally_defs(&self) -> String {
        let list = |v: &[u32]| v.iter().map(|t| t.to_string()).collect::<Vec<_>>().join(", ");
        let defs: Vec<String> = self
            .tallies
            .iter()
            .map(|f: &TallyFamily| {
                let mut d = String::new();
                write!(
                    d,
                    "TallyDef {{ zone: {}, value: {:?}, tags: &[{}], without: &[{}], group: TallyGroup::{:?} }}",
                    f.zone,
                    f.value,
                    list(&f.tags),
                    list(&f.without),
                    f.group,
                )
                .unwrap();
                d
            })
            .collect();
        format!("&[{}]", defs.join(", "))
    }
}
