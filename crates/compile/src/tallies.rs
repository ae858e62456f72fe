//! Counts and sums read from the state's tallies (`engine::TallyDef`)
//! instead of a walk of the zone: in a let's body, `count(c in ZONE where
//! F)`, `sum(c.A for c in ZONE where F)` and `any(c in ZONE where F)` over
//! a zone of no place whose filter is tag tests of the component and at
//! most one key, `c.G == k` (`G` a place attribute) or `c has t` (`t` a
//! tag worked out then), with `k` and `t` a local, a place or a tag.

use std::fmt::Write;

use model::*;

use crate::{span_code, sub, Env, Gen, Typed};

/// The most places a family keeps tallies apart by: more, and the walk
/// stays (a block per zone instance holds one for each).
const MOST_GROUPS: usize = 64;

/// One family of tallies the generated code reads (`engine::TallyDef`).
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Family {
    zone: usize,
    value: Option<usize>,
    tags: Vec<usize>,
    without: Vec<usize>,
    group: Grouping,
}

#[derive(Clone, Copy, Debug, PartialEq)]
enum Grouping {
    One,
    Place(usize),
    Tag,
}

/// A filter's key: how the family groups, and the key's expression with
/// its path (for the code that works it out).
struct Key<'e> {
    group: Grouping,
    expr: &'e Expr,
    path: Vec<usize>,
}

impl Gen<'_> {
    /// The aggregate `e` (at `path`) read from the tallies, with `walk`,
    /// its walk of the zone, for a key of another kind than the family's
    /// (the walk's outcome, an error among them); `None` when its shape is
    /// not one the tallies keep.
    pub(crate) fn tallied(&mut self, e: &Expr, path: &[usize], env: &Env, walk: &str) -> Option<String> {
        let ExprKind::Aggregate { func, value, var, domain, filter } = &e.kind else { return None };
        let ExprKind::Zone { zone, .. } = &domain.kind else { return None };
        // Only in a let's body: a let is what rules ask again and again
        // (wherever it is called), while an aggregate written in a
        // statement is read where it stands, and keeping it would cost
        // every move of its zone. A count of a whole zone is its length:
        // nothing to keep. A zone per place is many small ones: a walk of
        // one is short, and a table would hold a block for each place.
        if !(self.in_let || self.depth > 0)
            || (value.is_none() && filter.is_none())
            || self.r.zones[*zone].index.is_some()
        {
            return None;
        }
        let value = match (func, value) {
            (Aggregate::Count | Aggregate::Any, None) => None,
            (Aggregate::Sum, Some(v)) => match &v.kind {
                ExprKind::Attr { card, attr }
                    if matches!(card.kind, ExprKind::Local(s) if s == *var)
                        && self.typed_attr(*attr, Typed::Ints).is_some() =>
                {
                    Some(attr.index())
                }
                _ => return None,
            },
            _ => return None,
        };
        let (mut tags, mut without, mut key) = (Vec::new(), Vec::new(), None);
        if let Some(flt) = filter {
            let at = sub(path, if value.is_some() { 2 } else { 1 });
            if !self.terms(flt, at, *var, &mut tags, &mut without, &mut key) {
                return None;
            }
        }
        let family = Family {
            zone: zone.index(),
            value,
            tags,
            without,
            group: key.as_ref().map_or(Grouping::One, |k| k.group),
        };
        let i = match self.tallies.iter().position(|f| *f == family) {
            Some(i) => i,
            None => {
                self.tallies.push(family);
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
        let code = match key {
            None => format!("({{ {open} {} }})", got("0")),
            Some(k) => {
                let v = self.val(k.expr, &k.path, env);
                match k.group {
                    Grouping::Place(_) => format!(
                        "(match {v} {{ V::Place(p) => {{ {open} match it.lay.tally_place({i}, p.index()) {{ u32::MAX => {none}, g => {} }} }} V::None => {{ {open} {} }} _ => {walk} }})",
                        got("g as usize"),
                        got(&format!("it.lay.tally_none({i}) as usize")),
                    ),
                    Grouping::Tag => {
                        format!("(match {v} {{ V::Tag(t) => {{ {open} {} }} _ => {walk} }})", got("t.index()"))
                    }
                    Grouping::One => unreachable!("a key groups"),
                }
            }
        };
        Some(code)
    }

    /// The terms of a filter joined by `and` (at `path`): tag tests of the
    /// component in slot `var` into `tags` and `without`, the one key into
    /// `key`; false for any other term.
    fn terms<'e>(
        &self,
        e: &'e Expr,
        path: Vec<usize>,
        var: usize,
        tags: &mut Vec<usize>,
        without: &mut Vec<usize>,
        key: &mut Option<Key<'e>>,
    ) -> bool {
        let is_var = |x: &Expr| matches!(x.kind, ExprKind::Local(s) if s == var);
        // A key is what the walk reads each time the same way: a local of
        // the caller, a place, a tag.
        let simple = |x: &Expr| match x.kind {
            ExprKind::Local(s) => s != var,
            ExprKind::Place(_) | ExprKind::Tag(_) => true,
            _ => false,
        };
        match &e.kind {
            ExprKind::Binary(BinaryOp::And, a, b) => {
                self.terms(a, sub(&path, 0), var, tags, without, key)
                    && self.terms(b, sub(&path, 1), var, tags, without, key)
            }
            ExprKind::Binary(BinaryOp::Has, a, b) if is_var(a) => match &b.kind {
                ExprKind::Tag(t) => {
                    tags.push(t.index());
                    true
                }
                // One tally per tag: a few, as in the tag table.
                _ if simple(b) && key.is_none() && self.r.tags.len() <= 64 => {
                    *key = Some(Key { group: Grouping::Tag, expr: b, path: sub(&path, 1) });
                    true
                }
                _ => false,
            },
            ExprKind::Unary(UnaryOp::Not, x) => match &x.kind {
                ExprKind::Binary(BinaryOp::Has, a, b) if is_var(a) => match b.kind {
                    ExprKind::Tag(t) => {
                        without.push(t.index());
                        true
                    }
                    _ => false,
                },
                _ => false,
            },
            ExprKind::Binary(BinaryOp::Eq, a, b) if key.is_none() => {
                // `c.G == k` or `k == c.G`.
                let (attr, k, at) = match (&a.kind, &b.kind) {
                    (ExprKind::Attr { card, attr }, _) if is_var(card) && simple(b) => (*attr, &**b, 1),
                    (_, ExprKind::Attr { card, attr }) if is_var(card) && simple(a) => (*attr, &**a, 0),
                    _ => return false,
                };
                // One tally per place a component holds: a few.
                let Some(mut held) = self.typed_attr(attr, Typed::Places) else { return false };
                held.sort_unstable();
                held.dedup();
                if held.len() > MOST_GROUPS {
                    return false;
                }
                *key = Some(Key { group: Grouping::Place(attr.index()), expr: k, path: sub(&path, at) });
                true
            }
            _ => false,
        }
    }

    /// The families read, as `engine::TallyDef`s for `Natives::tallies`.
    pub(crate) fn tally_defs(&self) -> String {
        let list = |v: &[usize]| v.iter().map(|t| t.to_string()).collect::<Vec<_>>().join(", ");
        let defs: Vec<String> = self
            .tallies
            .iter()
            .map(|f| {
                let mut d = String::new();
                write!(
                    d,
                    "TallyDef {{ zone: {}, value: {:?}, tags: &[{}], without: &[{}], group: TallyGroup::{} }}",
                    f.zone,
                    f.value,
                    list(&f.tags),
                    list(&f.without),
                    match f.group {
                        Grouping::One => "One".to_string(),
                        Grouping::Place(a) => format!("Place({a})"),
                        Grouping::Tag => "Tag".to_string(),
                    }
                )
                .unwrap();
                d
            })
            .collect();
        format!("&[{}]", defs.join(", "))
    }
}
