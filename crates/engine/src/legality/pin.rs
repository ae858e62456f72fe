//! Pins: a number parameter whose values the leading requirements at its
//! depth narrow by plain arithmetic, found once per ruleset, so that the
//! search goes through the values that can pass instead of trying each of
//! the range's.
//!
//! `action pay(c: in me.hand, a: 0..8, b: 0..8)` with `require a + b ==
//! c.cost` as the first requirement once `b` is bound: for each `a`, only
//! `b = c.cost - a` can pass; with `require a <= c.cost and a <= held`
//! once `a` is bound, only `a` from 0 to the smaller of the two. The search still binds each value left and runs
//! every leading requirement on it; it only skips the values the
//! requirements refuse. That is exact when the requirements read nothing
//! but whole numbers that cannot fail or cost work: number literals,
//! locals and attributes of a local, added and subtracted, compared with
//! `==`, `<`, `<=`, `>`, `>=` and joined by `and` (`Pin::values` checks
//! at each use that no sum comes near the saturating bounds, and leaves
//! the range whole otherwise, or when a term is not a number, so that the
//! requirement meets the rule error itself as before).
//!
//! A requirement may also compare a table's entry read at the parameter
//! with something that does not read it, `require yield[k][days] > 0`,
//! when the table never falls (or never rises) along that key, which
//! is checked on its entries once per ruleset: the values that pass are
//! then the larger ones or the smaller ones, and the search finds where
//! they start by halving the range, the requirement evaluated as the
//! leading statements evaluate it at a few of its values (`Rise`). The
//! parameter's range must lie within the key's, or the key clamp, so
//! that no value of it reads past the table; whatever else the entry or
//! the other side reads is the same for every value, so a rule error
//! there shows at the first evaluation, and the range is left whole.

use crate::interp::{Frame, Interp};
use crate::state::{State, V};
use model::*;

/// What the leading requirements at parameter `param`'s depth leave of
/// its range (`TrialPlan::pins`): each of `bounds` holds for the values
/// that pass.
#[derive(Clone, Debug)]
pub struct Pin {
    bounds: Vec<Bound>,
    /// The comparisons of a table's entry read at the parameter.
    rises: Vec<Rise>,
    /// Whether the requirements hold for every value the pin leaves
    /// (`Pin::exact`).
    exact: bool,
}

/// `table[.., param, ..] OP other`, the table never falling (or never
/// rising) along the parameter's key, so that the values passing are
/// those from some value up (`upper`) or up to some value.
/// (Read by the generator, which writes `Rise::range` out for compiled
/// rules.)
#[derive(Clone, Debug)]
pub struct Rise {
    /// The comparison, evaluated as the leading statements evaluate it.
    pub cond: Expr,
    /// Whether the values that pass are the larger ones.
    pub upper: bool,
}

/// One comparison: `sign * param + terms OP other` (read by the
/// generator, which writes `Bound::range` out for compiled rules).
#[derive(Clone, Debug)]
pub struct Bound {
    /// The other terms of the side the parameter is on, with their signs.
    pub terms: Vec<(i64, Expr)>,
    /// The parameter's sign on its side (1 or -1).
    pub sign: i64,
    /// `==`, `<`, `<=`, `>` or `>=`.
    pub op: BinaryOp,
    /// The other side of the comparison.
    pub other: Expr,
}

/// What a pin's comparisons leave of its parameter's range, worked out by
/// a compiled pin's function (`Searcher::values_with`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PinRange {
    /// The values from the first to the second (none when the first is
    /// larger), cut to the parameter's range.
    Within(i64, i64),
    /// The whole range: a term too large to add safely.
    Whole,
}

/// The largest size of a term, a side or a range's end with which a pin
/// works its values out: sums of a few such terms stay far from `i64`'s
/// bounds, where the requirements' own arithmetic saturates.
pub const SMALL: u64 = 1 << 40;

/// The most terms a comparison with a pin has.
const MOST_TERMS: usize = 64;

impl Pin {
    /// The pin of parameter `param` (a range of numbers) from `stmts`, the
    /// leading statements once it is bound, in order: the requirements
    /// they start with whose conditions are comparisons of the parameter
    /// (once, added or subtracted, on one side; or a table's entry read
    /// at it, `Rise`) joined by `and`; `None` when the first is not one.
    /// `r` holds the tables, whose entries are checked here.
    pub(super) fn of<'s>(
        r: &Ruleset,
        action: &Action,
        param: usize,
        stmts: impl Iterator<Item = &'s Stmt>,
    ) -> Option<Pin> {
        let ParamDomain::Type(Type::Int { lo: Some(lo), hi: Some(hi) }) = action.params.get(param)?.domain
        else {
            return None;
        };
        if lo.unsigned_abs() > SMALL || hi.unsigned_abs() > SMALL {
            return None;
        }
        let at = Param { index: param, lo, hi };
        let (mut bounds, mut rises) = (Vec::new(), Vec::new());
        // Whether the requirements are all comparisons the pin reads.
        let mut exact = true;
        for stmt in stmts {
            let StmtKind::Require { cond, .. } = &stmt.kind else {
                exact = false;
                break;
            };
            let (mut found, mut found_rises) = (Vec::new(), Vec::new());
            if conjuncts(r, cond, at, &mut found, &mut found_rises).is_none() {
                exact = false;
                break;
            }
            bounds.extend(found);
            rises.extend(found_rises);
        }
        (!bounds.is_empty() || !rises.is_empty()).then_some(Pin { bounds, rises, exact })
    }

    /// Whether every value the pin leaves passes all the leading
    /// statements at the depth after its parameter, so that the search
    /// need not run them when the pin gives an answer: they are all
    /// requirements, each made of the pin's comparisons, whose passing
    /// values `Bound::range` and `Rise::range` find exactly (a rule error
    /// in a part of them leaves no answer, and they run).
    pub fn exact(&self) -> bool {
        self.exact
    }

    /// Whether a comparison of a table's entry is among its requirements
    /// (`Rise`): a compiled search asks such a pin for its values even
    /// where no equality fixes one and it is not exact, the halving
    /// sparing it value after value refused.
    pub fn reads_tables(&self) -> bool {
        !self.rises.is_empty()
    }

    /// Whether an equality fixes the value (not only bounds it): what a
    /// compiled search asks the pin for (`compile`), its own refusals of
    /// the values a bound alone skips costing less than working the bound
    /// out through the interpreter's arithmetic.
    pub fn fixes(&self) -> bool {
        self.bounds.iter().any(|b| b.op == BinaryOp::Eq)
    }

    /// Its comparisons, in order.
    pub fn bounds(&self) -> &[Bound] {
        &self.bounds
    }

    /// Its comparisons of table entries, in order.
    pub fn rises(&self) -> &[Rise] {
        &self.rises
    }

    /// The values of `all` (the parameter's range, in order) the
    /// requirements leave, as a part of it; `None` when they cannot be
    /// told apart safely here (a term that is not a number, or a large
    /// one), and the search goes through them all.
    /// Out of line: the search's loops stay as they were without pins.
    #[inline(never)]
    pub(crate) fn values<'d>(
        &self,
        it: &Interp,
        st: &State,
        f: &mut Frame,
        param: usize,
        all: &'d [V],
    ) -> Option<&'d [V]> {
        let (mut lo, mut hi) = (i64::MIN, i64::MAX);
        for b in &self.bounds {
            let (from, to) = b.range(it, st, f)?;
            lo = lo.max(from);
            hi = hi.min(to);
        }
        for rise in &self.rises {
            let (from, to) = rise.range(it, st, f, param, all)?;
            lo = lo.max(from);
            hi = hi.min(to);
        }
        Pin::part(all, lo, hi)
    }

    /// The values of `all` (a range of numbers, in order) from `lo` to
    /// `hi`, as a part of it (empty when none); `None` when `all` is not
    /// such a range.
    pub(crate) fn part(all: &[V], lo: i64, hi: i64) -> Option<&[V]> {
        let (Some(V::Int(first)), Some(V::Int(last))) = (all.first(), all.last()) else { return None };
        let (lo, hi) = (lo.max(*first), hi.min(*last));
        if lo > hi {
            return Some(&all[..0]);
        }
        let (a, z) = (usize::try_from(lo - first).ok()?, usize::try_from(hi - first).ok()?);
        match (all.get(a), all.get(z)) {
            (Some(V::Int(x)), Some(V::Int(y))) if *x == lo && *y == hi => Some(&all[a..=z]),
            _ => None,
        }
    }
}

impl Bound {
    /// The values of the parameter this comparison allows, from and to
    /// (`i64::MIN`, `i64::MAX` where it sets no end; an empty range when
    /// none).
    fn range(&self, it: &Interp, st: &State, f: &mut Frame) -> Option<(i64, i64)> {
        const NONE: (i64, i64) = (1, 0);
        let mut sum = 0i64;
        for (s, e) in &self.terms {
            let n = it.int(e, st, f).ok()?;
            if n.unsigned_abs() > SMALL {
                return None;
            }
            sum = sum.checked_add(s * n)?;
        }
        // `==` compares values (a side other than a number equals no
        // number); the others compare numbers (`none` counting 0).
        let target = match self.op {
            BinaryOp::Eq => match it.eval(&self.other, st, f).ok()? {
                V::Int(n) => n,
                _ => return Some(NONE),
            },
            _ => it.int(&self.other, st, f).ok()?,
        };
        if target.unsigned_abs() > SMALL {
            return None;
        }
        // sign * p OP target - sum, then p itself: a negative sign turns
        // the comparison round.
        let d = (target - sum) * self.sign;
        let op = if self.sign < 0 { self.op.flipped() } else { self.op };
        Some(match op {
            BinaryOp::Eq => (d, d),
            BinaryOp::Lt => (i64::MIN, d - 1),
            BinaryOp::Le => (i64::MIN, d),
            BinaryOp::Gt => (d + 1, i64::MAX),
            BinaryOp::Ge => (d, i64::MAX),
            _ => return None,
        })
    }
}

impl Rise {
    /// The values of the parameter (slot `param`, its range `all`, in
    /// order) that pass, from and to (as `Bound::range`): where the
    /// passing values start, found by halving the range, the comparison
    /// evaluated with the parameter bound to each value tried (the search
    /// binds it again before it goes through the values). `None` at a
    /// rule error, and the range is left whole.
    fn range(&self, it: &Interp, st: &State, f: &mut Frame, param: usize, all: &[V]) -> Option<(i64, i64)> {
        const NONE: (i64, i64) = (1, 0);
        let mut passes = |k: usize| -> Option<bool> {
            f.set(param, all[k]);
            it.bool(&self.cond, st, f).ok()
        };
        // The first value on the passing side: the values before it
        // fail (`upper`) or pass.
        let (mut lo, mut hi) = (0, all.len());
        while lo < hi {
            let mid = lo + (hi - lo) / 2;
            if passes(mid)? == self.upper {
                hi = mid;
            } else {
                lo = mid + 1;
            }
        }
        let value = |k: usize| match all.get(k) {
            Some(V::Int(n)) => Some(*n),
            _ => None,
        };
        Some(match (self.upper, lo) {
            (true, k) if k == all.len() => NONE,
            (true, k) => (value(k)?, i64::MAX),
            (false, 0) => NONE,
            (false, k) => (i64::MIN, value(k - 1)?),
        })
    }
}

/// The parameter a pin is for: its slot and range.
#[derive(Clone, Copy)]
struct Param {
    index: usize,
    lo: i64,
    hi: i64,
}

/// The comparisons of `cond`, a comparison or several joined by `and`,
/// each reading parameter `param` once (see `Pin`), as plain arithmetic
/// (`out`) or a table's entry (`rises`); `None` when it is not such a
/// condition.
fn conjuncts(
    rules: &Ruleset,
    cond: &Expr,
    at: Param,
    out: &mut Vec<Bound>,
    rises: &mut Vec<Rise>,
) -> Option<()> {
    let param = at.index;
    let (op, l, r) = match &plain(cond).kind {
        ExprKind::Binary(BinaryOp::And, a, b) => {
            conjuncts(rules, a, at, out, rises)?;
            return conjuncts(rules, b, at, out, rises);
        }
        ExprKind::Binary(
            op @ (BinaryOp::Eq | BinaryOp::Lt | BinaryOp::Le | BinaryOp::Gt | BinaryOp::Ge),
            l,
            r,
        ) => (*op, l, r),
        _ => return None,
    };
    if let Some(rise) = table_rise(rules, cond, op, l, r, at) {
        rises.push(rise);
        return Some(());
    }
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
    // The parameter's side first: `L OP R` with it on the right is `R OP' L`.
    let (side, other, op) = match (own(&left), own(&right)) {
        (1, 0) => (left, r, op),
        (0, 1) => (right, l, op.flipped()),
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
    out.push(Bound { terms, sign, op, other: (**other).clone() });
    Some(())
}

/// `cond`, the comparison `l OP r`, as a `Rise`: one side a table's entry
/// read at the parameter by one of its keys (a plain number key whose
/// range holds the parameter's, or which clamps), the table never falling
/// or never rising along that key; nothing else on either side reading
/// the parameter. `None` otherwise.
fn table_rise(rules: &Ruleset, cond: &Expr, op: BinaryOp, l: &Expr, r: &Expr, at: Param) -> Option<Rise> {
    // The table's side first: `L OP R` with it on the right is `R OP' L`.
    let (entry, other, op) = match (&plain(l).kind, &plain(r).kind) {
        (ExprKind::Table { .. }, _) => (plain(l), r, op),
        (_, ExprKind::Table { .. }) => (plain(r), l, op.flipped()),
        _ => return None,
    };
    let ExprKind::Table { table, keys } = &entry.kind else { return None };
    if mentions(other, at.index) {
        return None;
    }
    let own = |k: &Expr| matches!(plain(k).kind, ExprKind::Local(s) if s == at.index);
    let mut axis = None;
    for (i, k) in keys.iter().enumerate() {
        if own(k) && axis.is_none() {
            axis = Some(i);
        } else if mentions(k, at.index) {
            return None;
        }
    }
    let axis = axis?;
    let t = rules.tables.get(table.index())?;
    let dim = t.dims.get(axis)?;
    if dim.class.is_some() || !(dim.clamp || (dim.lo <= at.lo && at.hi <= dim.hi)) {
        return None;
    }
    let rising = match (order_along(t, axis, true), order_along(t, axis, false)) {
        (true, _) => true,
        (false, true) => false,
        (false, false) => return None,
    };
    let upper = match op {
        BinaryOp::Gt | BinaryOp::Ge => rising,
        BinaryOp::Lt | BinaryOp::Le => !rising,
        _ => return None,
    };
    Some(Rise { cond: cond.clone(), upper })
}

/// Whether table `t` never falls (`rising`) or never rises along key
/// `axis`, every other key held: checked on all its entries.
fn order_along(t: &Table, axis: usize, rising: bool) -> bool {
    let size = |d: &Dimension| usize::try_from(d.hi.saturating_sub(d.lo).saturating_add(1)).unwrap_or(0);
    // Entries one step apart along the key lie `stride` apart (a table
    // whose keys multiply past what a list can hold is left unordered).
    let Some(stride) =
        t.dims.get(axis + 1..).into_iter().flatten().try_fold(1usize, |n, d| n.checked_mul(size(d)))
    else {
        return false;
    };
    let Some(along) = t.dims.get(axis).map(size) else { return false };
    if stride == 0 || along == 0 {
        return true;
    }
    (0..t.values.len()).all(|i| {
        let k = i / stride % along;
        k + 1 == along
            || match (t.values.get(i), i.checked_add(stride).and_then(|j| t.values.get(j))) {
                (Some(a), Some(b)) => (a <= b) == rising || a == b,
                _ => false,
            }
    })
}

/// Whether `e` reads local slot `slot` anywhere in it.
fn mentions(e: &Expr, slot: usize) -> bool {
    if matches!(e.kind, ExprKind::Local(s) if s == slot) {
        return true;
    }
    let mut found = false;
    e.for_each_child(|x| found = found || mentions(x, slot));
    found
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

#[cfg(test)]
mod tests {
    use super::*;

    /// A table with keys `a: 0..1` and `b: 0..2`, its rows by `a`.
    fn table(values: [i64; 6]) -> Table {
        let dim = |name: &str, hi| Dimension { name: name.into(), lo: 0, hi, clamp: false, class: None };
        Table {
            name: "t".into(),
            dims: vec![dim("a", 1), dim("b", 2)],
            values: values.to_vec(),
            span: Span::default(),
        }
    }

    #[test]
    fn a_table_is_ordered_along_a_key_when_every_line_along_it_is() {
        // Rows [1, 2, 3] and [0, 0, 5]: each never falls along `b`; along
        // `a` the first column falls (1 -> 0) and the last rises (3 -> 5).
        let t = table([1, 2, 3, 0, 0, 5]);
        assert!(order_along(&t, 1, true));
        assert!(!order_along(&t, 1, false));
        assert!(!order_along(&t, 0, true));
        assert!(!order_along(&t, 0, false));
        // Rows [3, 2, 2] and [4, 2, 1]: never rising along `b`; along `a`
        // neither (3 -> 4 rises, 2 -> 1 falls).
        let t = table([3, 2, 2, 4, 2, 1]);
        assert!(order_along(&t, 1, false));
        assert!(!order_along(&t, 1, true));
        assert!(!order_along(&t, 0, true));
        assert!(!order_along(&t, 0, false));
        // Rows [1, 1, 1] and [2, 2, 2]: rising along `a`, flat along `b`
        // (both ways).
        let t = table([1, 1, 1, 2, 2, 2]);
        assert!(order_along(&t, 0, true));
        assert!(!order_along(&t, 0, false));
        assert!(order_along(&t, 1, true) && order_along(&t, 1, false));
    }
}
