//! Expressions: pest's flat token runs climbed by a Pratt parser.

use pest::iterators::Pair;
use pest::pratt_parser::{Assoc, Op, PrattParser};

use super::keywords::is_silent as is_keyword;
use super::lower::Lower;
use super::{Rule, MAX_NESTING};
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

impl Lower<'_> {
    pub(super) fn expr(&mut self, pair: Pair<Rule>) -> Expr {
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
