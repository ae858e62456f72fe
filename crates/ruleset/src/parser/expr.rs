//! Expressions: pest's flat token runs climbed by a Pratt parser.

use pest::iterators::Pair;
use pest::pratt_parser::{Assoc, Op, PrattParser};

use super::keywords::is_silent as is_keyword;
use super::lower::Lower;
use super::{Rule, MAX_DEPTH, MAX_NESTING};
use crate::ast::*;
use crate::diagnostic::{Code, Diagnostic};
use crate::span::Span;

fn pratt() -> &'static PrattParser<Rule> {
    static PRATT: std::sync::OnceLock<PrattParser<Rule>> = std::sync::OnceLock::new();
    PRATT.get_or_init(|| {
        PrattParser::new()
            .op(Op::infix(Rule::or_op, Assoc::Left))
            .op(Op::infix(Rule::and_op, Assoc::Left))
            .op(Op::prefix(Rule::not_op))
            .op(Op::infix(Rule::eq, Assoc::Left)
                | Op::infix(Rule::ne, Assoc::Left)
                | Op::infix(Rule::lt, Assoc::Left)
                | Op::infix(Rule::le, Assoc::Left)
                | Op::infix(Rule::gt, Assoc::Left)
                | Op::infix(Rule::ge, Assoc::Left)
                | Op::infix(Rule::has_op, Assoc::Left))
            .op(Op::infix(Rule::add, Assoc::Left) | Op::infix(Rule::sub, Assoc::Left))
            .op(Op::infix(Rule::mul, Assoc::Left)
                | Op::infix(Rule::div, Assoc::Left)
                | Op::infix(Rule::rem, Assoc::Left))
            .op(Op::prefix(Rule::neg))
            .op(Op::postfix(Rule::field_access) | Op::postfix(Rule::index))
    })
}

thread_local! {
    /// How deep the lowering of expressions and statements has recursed on
    /// this thread (the nested `Lower`s of the Pratt closures share it).
    static DEPTH: std::cell::Cell<usize> = const { std::cell::Cell::new(0) };
}

/// One level of lowering recursion, given back when dropped.
pub(super) struct Level;

impl Level {
    /// Enter a level; `None` when that would be deeper than `MAX_DEPTH`.
    pub(super) fn enter() -> Option<Level> {
        DEPTH.with(|d| {
            (d.get() < MAX_DEPTH).then(|| {
                d.set(d.get() + 1);
                Level
            })
        })
    }
}

impl Drop for Level {
    fn drop(&mut self) {
        DEPTH.with(|d| d.set(d.get() - 1));
    }
}

pub(super) fn too_deep(span: Span) -> Diagnostic {
    Diagnostic::error(Code::TooDeep, span, format!("nested more than {MAX_DEPTH} deep"))
        .label("this part is too deep")
        .help("each `else if`, `if ... then ... else`, operator or `.field` of a chain nests one level deeper; split the chain or name parts with `let`")
}

/// The depth of an expression tree, walked without recursion (a tree too
/// deep for the checker must not exhaust the stack here either).
fn depth(e: &Expr) -> usize {
    let mut deepest = 0;
    let mut stack = vec![(e, 1usize)];
    while let Some((e, d)) = stack.pop() {
        deepest = deepest.max(d);
        if d > MAX_DEPTH {
            break;
        }
        e.kind.children(&mut |c| stack.push((c, d + 1)));
    }
    deepest
}

/// Take a tree apart without recursion: dropping a deep `Box` chain the
/// ordinary way recurses once per level.
fn dismantle(e: Expr) {
    let mut stack = vec![e];
    while let Some(mut e) = stack.pop() {
        e.kind.take_children(&mut stack);
    }
}

impl Lower<'_> {
    pub(super) fn expr(&mut self, pair: Pair<Rule>) -> Expr {
        let span = self.span(&pair);
        let Some(_level) = Level::enter() else {
            self.diags.push(too_deep(span));
            return Expr { kind: ExprKind::Int(0), span };
        };
        let e = self.expr_unchecked(pair);
        // Operator and `.field` chains are built by a loop, not recursion:
        // their depth is measured on the tree.
        if depth(&e) > MAX_DEPTH {
            self.diags.push(too_deep(span));
            dismantle(e);
            return Expr { kind: ExprKind::Int(0), span };
        }
        e
    }

    fn expr_unchecked(&mut self, pair: Pair<Rule>) -> Expr {
        let span = self.span(&pair);
        // The Pratt parser recurses once per prefix operator: refuse long runs
        // before it can exhaust the stack.
        let mut run = 0usize;
        for p in pair.clone().into_inner() {
            run = if matches!(p.as_rule(), Rule::neg | Rule::not_op) { run + 1 } else { 0 };
            if run > MAX_NESTING {
                self.diags.push(
                    Diagnostic::error(Code::TooDeep, span, "too many signs in a row")
                        .label(format!("more than {MAX_NESTING} `-` or `not` in a row"))
                        .help("remove the doubled signs"),
                );
                return Expr { kind: ExprKind::Int(0), span };
            }
        }
        let offset = self.offset;
        let file = self.file;
        // The closures below all need `self`; a RefCell would do, but passing
        // the diagnostics through a local keeps it simple.
        let diags = std::cell::RefCell::new(std::mem::take(self.diags));
        let result = pratt()
            .map_primary(|p| {
                let mut lower = Lower { offset, file, diags: &mut diags.borrow_mut() };
                lower.primary(p)
            })
            .map_prefix(|op, rhs| {
                let s = Span::in_file(file, offset + op.as_span().start(), rhs.span.end);
                let op = if op.as_rule() == Rule::neg { UnaryOp::Neg } else { UnaryOp::Not };
                Expr { kind: ExprKind::Unary(op, Box::new(rhs)), span: s }
            })
            .map_postfix(|lhs, op| {
                let s = Span::in_file(file, lhs.span.start, offset + op.as_span().end());
                let mut lower = Lower { offset, file, diags: &mut diags.borrow_mut() };
                match op.as_rule() {
                    Rule::field_access => {
                        let name = lower.ident(op.into_inner().next().expect("grammar: field"));
                        Expr { kind: ExprKind::Field(Box::new(lhs), name), span: s }
                    }
                    _ => {
                        let index = lower.expr(op.into_inner().next().expect("grammar: index"));
                        Expr { kind: ExprKind::Index(Box::new(lhs), Box::new(index)), span: s }
                    }
                }
            })
            .map_infix(|lhs, op, rhs| {
                let s = lhs.span.to(rhs.span);
                let op = match op.as_rule() {
                    Rule::or_op => BinaryOp::Or,
                    Rule::and_op => BinaryOp::And,
                    Rule::eq => BinaryOp::Eq,
                    Rule::ne => BinaryOp::Ne,
                    Rule::lt => BinaryOp::Lt,
                    Rule::le => BinaryOp::Le,
                    Rule::gt => BinaryOp::Gt,
                    Rule::ge => BinaryOp::Ge,
                    Rule::add => BinaryOp::Add,
                    Rule::sub => BinaryOp::Sub,
                    Rule::mul => BinaryOp::Mul,
                    Rule::div => BinaryOp::Div,
                    Rule::rem => BinaryOp::Rem,
                    _ => BinaryOp::Has,
                };
                Expr { kind: ExprKind::Binary(op, Box::new(lhs), Box::new(rhs)), span: s }
            })
            .parse(pair.into_inner());
        *self.diags = diags.into_inner();
        result
    }

    pub(super) fn primary(&mut self, pair: Pair<Rule>) -> Expr {
        let span = self.span(&pair);
        let kind = match pair.as_rule() {
            Rule::int => ExprKind::Int(self.int(pair).0),
            Rule::string => ExprKind::Text(self.string(pair)),
            Rule::kw_true => ExprKind::Bool(true),
            Rule::kw_false => ExprKind::Bool(false),
            Rule::kw_none => ExprKind::None,
            Rule::ident => ExprKind::Name(self.ident(pair)),
            Rule::paren => {
                // The brackets belong to the span, so a sum that starts or
                // ends with one quotes whole (`(a - b) / 3`).
                let inner = pair.into_inner().next().expect("grammar: parenthesised expression");
                let mut e = self.expr(inner);
                e.span = span;
                return e;
            }
            Rule::players_from => {
                let who = pair.into_inner().find(|p| p.as_rule() == Rule::from_who);
                ExprKind::PlayersFrom(Box::new(self.expr(who.expect("grammar: players from whom"))))
            }
            Rule::cond_expr => {
                let mut it = pair.into_inner().filter(|p| p.as_rule() == Rule::expr);
                let c = self.expr(it.next().expect("grammar: if condition"));
                let a = self.expr(it.next().expect("grammar: then branch"));
                let b = self.expr(it.next().expect("grammar: else branch"));
                ExprKind::If(Box::new(c), Box::new(a), Box::new(b))
            }
            Rule::call if pair.clone().into_inner().any(|p| p.as_rule() == Rule::kw_in) => {
                let parts: Vec<Pair<Rule>> = pair.into_inner().collect();
                let has_value = parts.iter().any(|p| p.as_rule() == Rule::kw_for);
                let mut it = parts.into_iter().filter(|p| !is_keyword(p.as_rule()));
                let func = self.ident(it.next().expect("grammar: aggregate function"));
                let value = if has_value {
                    Some(Box::new(self.expr(it.next().expect("grammar: aggregate value"))))
                } else {
                    None
                };
                let var = self.ident(it.next().expect("grammar: aggregate variable"));
                let domain = Box::new(self.expr(it.next().expect("grammar: aggregate domain")));
                let filter = it.next().map(|p| Box::new(self.expr(p)));
                ExprKind::Aggregate { func, value, var, domain, filter }
            }
            Rule::call => {
                let mut it = pair.into_inner();
                let name = self.ident(it.next().expect("grammar: function name"));
                let args = it.map(|p| self.expr(p)).collect();
                ExprKind::Call(name, args)
            }
            other => unreachable!("grammar: {other:?} is not a primary expression"),
        };
        Expr { kind, span }
    }
}
