//! Constants folded into the expressions an interpreted program walks:
//! options, lets whose value is a number or yes/no written out, and what
//! they make known (a branch chosen, `x or false`). Each fold gives the
//! value the tree walk would, in every way the walk reads it (a number, a
//! yes/no, a value), so games are the same; it only spares the walk the
//! nodes. Compiled rules are not folded: their compiler does that.

use model::*;

/// Fold the constants of `rules` and of the legality plan made from them
/// (whose preconditions hold copies of their expressions). Whether
/// anything was folded.
pub(crate) fn fold(rules: &mut Ruleset, plan: &mut crate::legality::TrialPlan) -> bool {
    let options: Vec<Option<ExprKind>> = rules.options.iter().map(|o| literal(&o.value)).collect();
    // A let without parameters whose body folds to a literal is that
    // literal: each let is folded after the lets it names, once.
    let mut lets: Vec<Option<ExprKind>> = vec![None; rules.lets.len()];
    let mut seen = vec![false; rules.lets.len()];
    let mut changed = false;
    for id in 0..rules.lets.len() {
        changed |= settle(id, rules, &options, &mut lets, &mut seen);
    }
    let mut visit = |e: &mut Expr| changed |= fold_expr(e, &options, &lets);
    crate::native::each_root_mut(rules, &mut visit);
    crate::native::each_plan_root_mut(plan, &mut visit);
    changed
}

/// Fold let `id`'s body after the lets without arguments it names (how
/// deep lets name lets is bounded by the checker, `MAX_EVAL_DEPTH`; a let
/// met again, which the checker refuses, folds as it is), and note it in
/// `lets` when it folds to a literal. Whether anything changed.
fn settle(
    id: usize,
    rules: &mut Ruleset,
    options: &[Option<ExprKind>],
    lets: &mut [Option<ExprKind>],
    seen: &mut [bool],
) -> bool {
    if std::mem::replace(&mut seen[id], true) {
        return false;
    }
    fn named(e: &Expr, out: &mut Vec<usize>) {
        if let ExprKind::Let { id, args } = &e.kind {
            if args.is_empty() {
                out.push(id.index());
            }
        }
        e.for_each_child(|c| named(c, out));
    }
    let mut first = Vec::new();
    named(&rules.lets[id].body, &mut first);
    let mut changed = false;
    for other in first {
        changed |= settle(other, rules, options, lets, seen);
    }
    let l = &mut rules.lets[id];
    changed |= fold_expr(&mut l.body, options, lets);
    if l.params.is_empty() && matches!(l.body.kind, ExprKind::Int(_) | ExprKind::Bool(_)) {
        lets[id] = Some(l.body.kind.clone());
    }
    changed
}

/// A value written out as an expression the walk answers as a leaf.
fn literal(v: &Value) -> Option<ExprKind> {
    match v {
        Value::Int(n) => Some(ExprKind::Int(*n)),
        Value::Bool(b) => Some(ExprKind::Bool(*b)),
        _ => None,
    }
}

/// Whether every way the walk reads `e` goes through its yes/no: a value
/// read of it is `V::Bool` of that (`Interp::eval_node`), so it may stand
/// for `e or false` anywhere.
fn yes_no(e: &Expr) -> bool {
    use BinaryOp as B;
    match &e.kind {
        ExprKind::Bool(_) | ExprKind::Unary(UnaryOp::Not, _) => true,
        ExprKind::Binary(op, ..) => !matches!(op, B::Add | B::Sub | B::Mul | B::Div | B::Rem),
        _ => false,
    }
}

/// Fold `e`, its parts first. Whether anything changed.
fn fold_expr(e: &mut Expr, options: &[Option<ExprKind>], lets: &[Option<ExprKind>]) -> bool {
    use BinaryOp as B;
    let mut changed = false;
    e.for_each_child_mut(|c| changed |= fold_expr(c, options, lets));
    let lit = |x: &Expr| match x.kind {
        ExprKind::Int(n) => Some(Lit::Int(n)),
        ExprKind::Bool(b) => Some(Lit::Bool(b)),
        _ => None,
    };
    // What `e` becomes: a literal (keeping `e`'s span), or one of its parts.
    enum To {
        Kind(ExprKind),
        Left,
        Right,
        Then,
        Else,
    }
    let to = match &e.kind {
        ExprKind::Option(id) => options.get(id.index()).cloned().flatten().map(To::Kind),
        ExprKind::Let { id, args } if args.is_empty() => {
            lets.get(id.index()).cloned().flatten().map(To::Kind)
        }
        ExprKind::If(c, ..) => match lit(c) {
            Some(Lit::Bool(true)) => Some(To::Then),
            Some(Lit::Bool(false)) => Some(To::Else),
            _ => None,
        },
        ExprKind::Unary(UnaryOp::Not, x) => match lit(x) {
            Some(Lit::Bool(b)) => Some(To::Kind(ExprKind::Bool(!b))),
            _ => None,
        },
        ExprKind::Unary(UnaryOp::Neg, x) => match lit(x) {
            Some(Lit::Int(n)) => Some(To::Kind(ExprKind::Int(n.saturating_neg()))),
            _ => None,
        },
        ExprKind::Binary(op, a, b) => match (op, lit(a), lit(b)) {
            // `true or x` is true without x; `false or x` is x.
            (B::Or, Some(Lit::Bool(true)), _) => Some(To::Kind(ExprKind::Bool(true))),
            (B::And, Some(Lit::Bool(false)), _) => Some(To::Kind(ExprKind::Bool(false))),
            (B::Or, Some(Lit::Bool(false)), _) | (B::And, Some(Lit::Bool(true)), _) if yes_no(b) => {
                Some(To::Right)
            }
            // `x or false` is x, which is still read first (x may fail).
            (B::Or, _, Some(Lit::Bool(false))) | (B::And, _, Some(Lit::Bool(true))) if yes_no(a) => {
                Some(To::Left)
            }
            // Saturating, as the walk's `arith`; a division is left to the
            // walk (a division by zero fails where it is read).
            (B::Add, Some(Lit::Int(x)), Some(Lit::Int(y))) => {
                Some(To::Kind(ExprKind::Int(x.saturating_add(y))))
            }
            (B::Sub, Some(Lit::Int(x)), Some(Lit::Int(y))) => {
                Some(To::Kind(ExprKind::Int(x.saturating_sub(y))))
            }
            (B::Mul, Some(Lit::Int(x)), Some(Lit::Int(y))) => {
                Some(To::Kind(ExprKind::Int(x.saturating_mul(y))))
            }
            (B::Lt | B::Le | B::Gt | B::Ge | B::Eq | B::Ne, Some(Lit::Int(x)), Some(Lit::Int(y))) => {
                let holds = match op {
                    B::Lt => x < y,
                    B::Le => x <= y,
                    B::Gt => x > y,
                    B::Ge => x >= y,
                    B::Eq => x == y,
                    _ => x != y,
                };
                Some(To::Kind(ExprKind::Bool(holds)))
            }
            (B::Eq | B::Ne, Some(Lit::Bool(x)), Some(Lit::Bool(y))) => {
                Some(To::Kind(ExprKind::Bool((x == y) == (*op == B::Eq))))
            }
            _ => None,
        },
        _ => None,
    };
    let Some(to) = to else { return changed };
    let span = e.span;
    let part = |x: &mut Box<Expr>| std::mem::replace(&mut **x, Expr { kind: ExprKind::None, span });
    let new = match (to, &mut e.kind) {
        (To::Kind(kind), _) => Expr { kind, span },
        (To::Left, ExprKind::Binary(_, a, _)) => part(a),
        (To::Right, ExprKind::Binary(_, _, b)) => part(b),
        (To::Then, ExprKind::If(_, a, _)) => part(a),
        (To::Else, ExprKind::If(_, _, b)) => part(b),
        _ => return changed,
    };
    *e = new;
    true
}

#[derive(Clone, Copy)]
enum Lit {
    Int(i64),
    Bool(bool),
}
