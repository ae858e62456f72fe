//! Aggregates over a zone with a filter of the common shape, without the
//! tree walk per component.
//!
//! Most filters in rules are a few tests of the component joined by
//! `and`: `c has TAG`, `not (c has TAG)`, `c.attr == X` (or `!=`, `<`,
//! `<=`, `>`, `>=`), where `X` is a literal, a local other than `c`, `me`,
//! a name or an option; and most values summed are `c.attr`. Such a filter
//! is read once per aggregate into a few [`Test`]s, its other
//! sides worked out once, and each component is tested on its tags and
//! on the program's table of attribute values (`Interp::attrs`), without
//! binding `c` in the frame (nothing reads it after the loop: the checker
//! sees to that). Anything else, or a value of a kind the test does not
//! expect (which the tree walk reports as an error), leaves the whole
//! loop to the tree walk, which then gives the same result or error.
//!
//! A `move`'s filter is left to the tree walk: read into tests there too,
//! 20 random games of each bundled game took more instructions, not
//! fewer (docs/performance.md).
//!
//! Before either, an aggregate of a let that a family of tallies the
//! program keeps counts is read from the state's table, found by its
//! address (`Interp::site`, `crate::tally::sites`), with no loop at all.

use model::{Aggregate, AttrId, BinaryOp, ComponentId, Expr, ExprKind, TagId, UnaryOp};

use super::{Frame, Interp, R};
use crate::state::{State, V};

/// The most tests a filter may have for the fast path.
const MOST_TESTS: usize = 4;

/// The fewest components a zone holds for the fast path: reading a filter
/// into tests costs about as much as the tree walk of two.
pub(super) const FAST_FROM: usize = 3;

/// One test of a component.
#[derive(Clone, Copy)]
enum Test {
    /// `c has t`, or with `false`, `not (c has t)`.
    Has(TagId, bool),
    /// `c.attr == v` (`true`) or `!=` (`false`).
    Same(AttrId, V, bool),
    /// `c.attr` against a number: `Less` when `c.attr < n`, and so on.
    Order(AttrId, std::cmp::Ordering, bool, i64),
}

/// A filter read into tests, with the attribute a value reads.
pub(super) struct Plan {
    tests: [Test; MOST_TESTS],
    len: usize,
    /// `c.attr`, the value summed or compared (`None`: no value).
    value: Option<AttrId>,
}

/// What a plan found for one component: whether it passes, and its value.
enum Seen {
    Fails,
    Passes(i64),
    /// An attribute of a kind the test cannot read: the tree walk must.
    Unsure,
}

impl Interp<'_> {
    /// A filter over local `var` (and a value) as tests, when it has the
    /// shape; `None` otherwise, or when an attribute table is missing.
    pub(super) fn fast_plan(
        &self,
        var: usize,
        value: Option<&Expr>,
        filter: Option<&Expr>,
        f: &Frame,
    ) -> Option<Plan> {
        if self.attrs.is_empty() {
            return None;
        }
        let value = match value {
            None => None,
            Some(e) => Some(own_attr(e, var)?),
        };
        let mut plan = Plan { tests: [Test::Has(TagId::new(0), true); MOST_TESTS], len: 0, value };
        if let Some(flt) = filter {
            self.read_tests(flt, var, f, &mut plan)?;
        }
        Some(plan)
    }

    /// Add the tests of `e` (an `and` of tests) to `plan`.
    fn read_tests(&self, e: &Expr, var: usize, f: &Frame, plan: &mut Plan) -> Option<()> {
        use BinaryOp as B;
        let test = match &e.kind {
            ExprKind::Binary(B::And, a, b) => {
                self.read_tests(a, var, f, plan)?;
                return self.read_tests(b, var, f, plan);
            }
            ExprKind::Binary(B::Has, c, t) if is_var(c, var) => Test::Has(self.fixed_tag(t, var, f)?, true),
            ExprKind::Unary(UnaryOp::Not, x) => match &x.kind {
                ExprKind::Binary(B::Has, c, t) if is_var(c, var) => {
                    Test::Has(self.fixed_tag(t, var, f)?, false)
                }
                _ => return None,
            },
            ExprKind::Binary(op @ (B::Eq | B::Ne | B::Lt | B::Le | B::Gt | B::Ge), a, b) => {
                // The attribute on either side; an order read from its side.
                let (attr, other, op) = match (own_attr(a, var), own_attr(b, var)) {
                    (Some(attr), None) => (attr, b, *op),
                    (None, Some(attr)) => (attr, a, op.flipped()),
                    _ => return None,
                };
                let v = self.fixed(other, var, f)?;
                match op {
                    B::Eq => Test::Same(attr, v, true),
                    B::Ne => Test::Same(attr, v, false),
                    _ => {
                        let n = match v {
                            V::Int(n) => n,
                            V::None => 0,
                            _ => return None,
                        };
                        use std::cmp::Ordering::*;
                        match op {
                            B::Lt => Test::Order(attr, Less, true, n),
                            B::Le => Test::Order(attr, Greater, false, n),
                            B::Gt => Test::Order(attr, Greater, true, n),
                            _ => Test::Order(attr, Less, false, n),
                        }
                    }
                }
            }
            _ => return None,
        };
        if plan.len == MOST_TESTS {
            return None;
        }
        plan.tests[plan.len] = test;
        plan.len += 1;
        Some(())
    }

    /// A side of a test that is the same for every component: a literal,
    /// a local other than `var`, `me`, a name or an option.
    fn fixed(&self, e: &Expr, var: usize, f: &Frame) -> Option<V> {
        Some(match &e.kind {
            ExprKind::Int(n) => V::Int(*n),
            ExprKind::Bool(b) => V::Bool(*b),
            ExprKind::None => V::None,
            ExprKind::Tag(t) => V::Tag(*t),
            ExprKind::Place(p) => V::Place(*p),
            ExprKind::Local(slot) if *slot != var => f.get(*slot),
            ExprKind::Me => V::Player(f.me?),
            ExprKind::Option(id) => V::from_value(&self.r.options[*id].value),
            _ => return None,
        })
    }

    fn fixed_tag(&self, e: &Expr, var: usize, f: &Frame) -> Option<TagId> {
        match self.fixed(e, var, f)? {
            V::Tag(t) => Some(t),
            _ => None,
        }
    }

    /// How component `c` meets the plan.
    #[inline]
    fn see(&self, plan: &Plan, c: ComponentId) -> Seen {
        let row = c.index() * self.attr_empty.len();
        let attr = |a: AttrId| self.attrs[row + a.index()];
        for test in &plan.tests[..plan.len] {
            let pass = match *test {
                Test::Has(t, want) => self.r.components[c].tags.contains(&t) == want,
                Test::Same(a, v, want) => attr(a).same(&v) == want,
                Test::Order(a, ord, want, n) => match attr(a) {
                    V::Int(x) => (x.cmp(&n) == ord) == want,
                    V::None => (0.cmp(&n) == ord) == want,
                    _ => return Seen::Unsure,
                },
            };
            if !pass {
                return Seen::Fails;
            }
        }
        match plan.value.map(attr) {
            None => Seen::Passes(0),
            Some(V::Int(n)) => Seen::Passes(n),
            Some(V::None) => Seen::Passes(0),
            Some(_) => Seen::Unsure,
        }
    }

    /// Aggregate `e` (of `func` over `domain`) read from the tallies when
    /// it is a site of the program's (`crate::tally::sites`): its key
    /// worked out, then its zone and the work a walk would spend. `None`
    /// otherwise, or for a key of another kind than its family's (the
    /// walk then gives its value or error), with nothing spent.
    #[inline]
    pub(super) fn site(
        &self,
        e: &Expr,
        func: Aggregate,
        domain: &Expr,
        st: &State,
        f: &mut Frame,
    ) -> R<Option<V>> {
        use crate::tally::{KeyValue, SiteKey};
        if self.sites.is_empty() {
            return Ok(None);
        }
        let at = e as *const Expr as usize;
        let Ok(i) = self.sites.binary_search_by_key(&at, |(a, _)| *a) else { return Ok(None) };
        let site = self.sites[i].1;
        let family = site.family as usize;
        let key = |k: KeyValue| match k {
            KeyValue::Local(slot) => f.get(slot),
            KeyValue::Fixed(v) => v,
        };
        // The group, or `u32::MAX` for a place no component holds.
        let group = match site.key {
            SiteKey::One => 0,
            SiteKey::Place(k) => match key(k) {
                V::Place(p) => self.lay.tally_place(family, p.index()),
                V::None => self.lay.tally_none(family),
                _ => return Ok(None),
            },
            SiteKey::Tag(k) => match key(k) {
                V::Tag(t) => t.index() as u32,
                _ => return Ok(None),
            },
        };
        let V::Zone(z) = self.eval(domain, st, f)? else { return Ok(None) };
        self.spend(st.zones[z].len() as u64, domain.span)?;
        let n = if group == u32::MAX { 0 } else { self.lay.tally_of(st, family, z, group) };
        Ok(Some(match func {
            Aggregate::Any => V::Bool(n > 0),
            _ => V::Int(n),
        }))
    }

    /// An aggregate over `cells` by the plan, as `aggregate` works it
    /// out; `None` when the tree walk must (a value of a kind the plan
    /// does not read).
    pub(super) fn fast_aggregate(
        &self,
        plan: &Plan,
        func: Aggregate,
        cells: &[Option<ComponentId>],
    ) -> Option<V> {
        // A value the plan cannot read leaves the aggregate to the tree
        // walk, which meets it at the same component and says why.
        let mut tally = super::eval::Tally::default();
        for c in cells.iter().flatten() {
            let n = match self.see(plan, *c) {
                Seen::Fails => {
                    if func == Aggregate::All {
                        return Some(V::Bool(false));
                    }
                    continue;
                }
                Seen::Passes(n) => n,
                Seen::Unsure => return None,
            };
            match func {
                Aggregate::Any => return Some(V::Bool(true)),
                Aggregate::First => return Some(V::Card(*c)),
                _ => {}
            }
            tally.add(func, plan.value.map(|_| n));
        }
        Some(tally.result(func))
    }

    /// `var.attr` as a number, for each component a weight is read of
    /// (`Game::weigh`: a set's bound such as `sum(c.trade for c in s) <=
    /// ...`): the attribute when `w` is one of `var` (compiled or not),
    /// read from the program's table. `None` when it is not, or for a
    /// value the tree walk must read (it then says why).
    pub(crate) fn weight_attr(&self, w: &Expr, var: usize) -> Option<AttrId> {
        if self.attrs.is_empty() {
            return None;
        }
        match &w.kind {
            ExprKind::Native(_, inner) => own_attr(inner, var),
            _ => own_attr(w, var),
        }
    }

    /// Component `c`'s `attr` as a number (`none` counts as 0), from the
    /// table `weight_attr` found it in; `None` for any other kind of value.
    #[inline]
    pub(crate) fn attr_number(&self, c: ComponentId, attr: AttrId) -> Option<i64> {
        match self.attrs.get(c.index() * self.attr_empty.len() + attr.index())? {
            V::Int(n) => Some(*n),
            V::None => Some(0),
            _ => None,
        }
    }
}

/// Whether `e` is the local `var`.
pub(super) fn is_var(e: &Expr, var: usize) -> bool {
    matches!(e.kind, ExprKind::Local(v) if v == var)
}

/// `var.attr`: the attribute.
fn own_attr(e: &Expr, var: usize) -> Option<AttrId> {
    match &e.kind {
        ExprKind::Attr { card, attr } if is_var(card, var) => Some(*attr),
        _ => None,
    }
}
