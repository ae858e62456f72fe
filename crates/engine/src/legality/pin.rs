//! Pins: a number parameter whose value an equality among the leading
//! requirements fixes, found once per ruleset, so that the search goes
//! through that one value instead of trying each of the range's.
//!
//! `action museum(c: in presentations, a: 0..8, b: 0..8)` with `require
//! a + b == c.hand_over` as the first requirement once `b` is bound: for
//! each `a`, only `b = c.hand_over - a` can pass. The search still binds
//! that value and runs every leading requirement on it; it only skips the
//! values whose first requirement is false. That is exact when the
//! equality reads nothing but whole numbers that cannot fail or cost work:
//! number literals, locals and attributes of a local component, added and
//! subtracted (`Pin::values` checks at each use that no sum comes near the
//! saturating bounds, and leaves the range whole otherwise, or when a term
//! is not a number, so that the requirement meets the rule error itself as
//! before).

use crate::interp::{Frame, Interp};
use crate::state::{State, V};
use model::*;

/// Parameter `param`'s value fixed by the equality its depth's leading
/// requirements start with (`TrialPlan::pins`).
#[derive(Clone, Debug)]
pub struct Pin {
    /// The other terms of the side the parameter is on, with their signs.
    terms: Vec<(i64, Expr)>,
    /// The parameter's sign on its side.
    sign: i64,
    /// The other side of the equality.
    other: Expr,
}

/// The largest size of a term, a side or a range's end with which a pin
/// works its value out: sums of a few such terms stay far from `i64`'s
/// bounds, where the requirement's own arithmetic saturates.
const SMALL: i64 = 1 << 40;

/// The most terms an equality with a pin has.
const MOST_TERMS: usize = 64;

impl Pin {
    /// The pin of parameter `param` (a range of numbers) when `first`, the
    /// first leading statement once it is bound, is `require L == R` with
    /// the parameter once, added or subtracted, on one side.
    pub(super) fn of(action: &Action, param: usize, first: Option<&Stmt>) -> Option<Pin> {
        let ParamDomain::Type(Type::Int { lo: Some(lo), hi: Some(hi) }) = action.params.get(param)?.domain
        else {
            return None;
        };
        if lo.abs() > SMALL || hi.abs() > SMALL {
            return None;
        }
        let StmtKind::Require { cond, .. } = &first?.kind else { return None };
        let ExprKind::Binary(BinaryOp::Eq, l, r) = &plain(cond).kind else { return None };
        let (mut left, mut right) = (Vec::new(), Vec::new());
        flatten(l, 1, &mut left)?;
        flatten(r, 1, &mut right)?;
        if left.len() + right.len() > MOST_TERMS {
            return None;
        }
        let own = |side: &[(i64, &Expr)]| {
            side.iter().filter(|(_, e)| matches!(plain(e).kind, ExprKind::Local(s) if s == param)).count()
        };
        // Nothing else may read the parameter (an attribute of it).
        let reads = |side: &[(i64, &Expr)]| {
            side.iter().any(|(_, e)| match &plain(e).kind {
                ExprKind::Attr { card, .. } => matches!(plain(card).kind, ExprKind::Local(s) if s == param),
                _ => false,
            })
        };
        if reads(&left) || reads(&right) {
            return None;
        }
        let (side, other) = match (own(&left), own(&right)) {
            (1, 0) => (left, r),
            (0, 1) => (right, l),
            _ => return None,
        };
        let mut sign = 0;
        let mut terms = Vec::new();
        for (s, e) in side {
            match plain(e).kind {
                ExprKind::Local(slot) if slot == param => sign = s,
                _ => terms.push((s, e.clone())),
            }
        }
        Some(Pin { terms, sign, other: (**other).clone() })
    }

    /// The values of `all` (the parameter's range, in order) the equality
    /// leaves, as a part of it: the one that makes it hold, or none; `None`
    /// when they cannot be told apart safely here (a term that is not a
    /// number, or a large one), and the search goes through them all.
    /// Out of line: the search's loops stay as they were without pins.
    #[inline(never)]
    pub(crate) fn values<'d>(&self, it: &Interp, st: &State, f: &mut Frame, all: &'d [V]) -> Option<&'d [V]> {
        let mut sum = 0i64;
        for (s, e) in &self.terms {
            let n = it.int(e, st, f).ok()?;
            if n.abs() > SMALL {
                return None;
            }
            sum = sum.checked_add(s * n)?;
        }
        // Compared as values: a side other than a number equals none.
        let target = match it.eval(&self.other, st, f).ok()? {
            V::Int(n) if n.abs() <= SMALL => n,
            V::Int(_) => return None,
            _ => return Some(&all[..0]),
        };
        let value = target.checked_sub(sum)? * self.sign;
        let Some(V::Int(first)) = all.first() else { return None };
        // Below the range, past it, or its place in it.
        let k = usize::try_from(value.checked_sub(*first)?).unwrap_or(usize::MAX);
        match all.get(k) {
            Some(V::Int(n)) if *n == value => Some(&all[k..=k]),
            _ => Some(&all[..0]),
        }
    }
}

/// An expression with a compiled root's wrapping taken off.
fn plain(e: &Expr) -> &Expr {
    match &e.kind {
        ExprKind::Native(_, inner) => plain(inner),
        _ => e,
    }
}

/// The terms of a sum, with their signs, when it adds and subtracts
/// number literals, locals and attributes of a local only.
fn flatten<'e>(e: &'e Expr, sign: i64, out: &mut Vec<(i64, &'e Expr)>) -> Option<()> {
    match &plain(e).kind {
        ExprKind::Binary(BinaryOp::Add, a, b) => {
            flatten(a, sign, out)?;
            flatten(b, sign, out)
        }
        ExprKind::Binary(BinaryOp::Sub, a, b) => {
            flatten(a, sign, out)?;
            flatten(b, -sign, out)
        }
        ExprKind::Unary(UnaryOp::Neg, x) => flatten(x, -sign, out),
        ExprKind::Int(_) | ExprKind::Local(_) => {
            out.push((sign, e));
            Some(())
        }
        ExprKind::Attr { card, .. } if matches!(plain(card).kind, ExprKind::Local(_)) => {
            out.push((sign, e));
            Some(())
        }
        _ => None,
    }
}
