//! Boards of places worked out from the state: grid coordinates (`p.x`,
//! `at(cell, x, y)`), turning a value round its class (`rotate`), and the
//! sets of places to go through (`around(p)`, `connected(p, LINK)`).

use super::*;

impl<'f> Checker<'f> {
    /// Lower a call of `at`, `rotate`, `around` or `connected`; `None` for
    /// any other name.
    pub(super) fn place_call(
        &mut self,
        name: &Ident,
        args: &[ast::Expr],
        span: Span,
        cx: &mut Cx,
    ) -> Option<(Expr, Ty)> {
        let mk = |kind| Expr { kind, span };
        let want = match name.name.as_str() {
            "at" => 3,
            "rotate" | "connected" => 2,
            "around" => 1,
            _ => return None,
        };
        if args.len() != want {
            self.error(errors::wrong_argument_count(span, name, want, args.len()));
            return Some((mk(ExprKind::Int(0)), Ty::Unknown));
        }
        Some(match name.name.as_str() {
            "at" => self.grid_at(name, args, span, cx),
            "rotate" => {
                let (v, vty) = self.value(&args[0], cx);
                let (k, kty) = self.value(&args[1], cx);
                self.expect(&kty, &Ty::Int, args[1].span, "how far `rotate` turns");
                match &vty {
                    Ty::Place(Some(_)) | Ty::Unknown => {}
                    other => {
                        let d = describe_ty(other, self);
                        self.error(errors::rotate_needs_class(args[0].span, &d));
                    }
                }
                (mk(ExprKind::PlaceFn(PlaceFn::Rotate, vec![v, k])), vty)
            }
            "around" => {
                let (p, pty) = self.value(&args[0], cx);
                let elem = match pty {
                    Ty::Place(c) => {
                        self.not_an_enum_value(&pty, args[0].span, "`around`");
                        Ty::Place(c)
                    }
                    Ty::Unknown => Ty::Unknown,
                    other => {
                        self.type_error(
                            args[0].span,
                            &Ty::Place(None),
                            &other,
                            "the place `around` starts from",
                        );
                        Ty::Unknown
                    }
                };
                (mk(ExprKind::Region(Box::new(Region::Around), Box::new(p))), Ty::Domain(Box::new(elem)))
            }
            _ => self.connected(args, span, cx),
        })
    }

    /// `at(CLASS, x, y)`: the grid place at those coordinates, or `none`.
    fn grid_at(&mut self, name: &Ident, args: &[ast::Expr], span: Span, cx: &mut Cx) -> (Expr, Ty) {
        let (c, _) = self.value(&args[0], cx);
        let (x, xty) = self.value(&args[1], cx);
        let (y, yty) = self.value(&args[2], cx);
        self.expect(&xty, &Ty::Int, args[1].span, "a column");
        self.expect(&yty, &Ty::Int, args[2].span, "a row");
        let class = match c.kind {
            ExprKind::Class(class) if self.classes[class].grid.is_some() => class,
            _ => {
                self.error(errors::not_a_grid(args[0].span, name));
                return (Expr { kind: ExprKind::Int(0), span }, Ty::Unknown);
            }
        };
        (Expr { kind: ExprKind::PlaceFn(PlaceFn::At, vec![c, x, y]), span }, Ty::Place(Some(class)))
    }

    /// `connected(p, LINK)`: LINK names a let of two places of one class
    /// that says whether a step from the first to the second joins them.
    fn connected(&mut self, args: &[ast::Expr], span: Span, cx: &mut Cx) -> (Expr, Ty) {
        let mk = |kind| Expr { kind, span };
        let (start, sty) = self.value(&args[0], cx);
        let link = match &args[1].kind {
            ast::ExprKind::Name(n) => match self.symbols.get(&n.name).copied() {
                Some((Sym::Let(id), _)) => Some((id, n.clone())),
                _ => None,
            },
            _ => None,
        };
        let Some((id, link_name)) = link else {
            self.error(errors::link_not_a_let(args[1].span));
            return (mk(ExprKind::Int(0)), Ty::Unknown);
        };
        self.used.insert(Sym::Let(id));
        let params = self.let_param_tys[id.index()].clone();
        let class = match params.as_slice() {
            [Ty::Place(Some(a)), Ty::Place(Some(b))] if a == b => *a,
            _ => {
                self.error(errors::link_params(args[1].span, &link_name.name));
                return (mk(ExprKind::Int(0)), Ty::Unknown);
            }
        };
        let ty = self.let_type(id);
        self.expect(&ty, &Ty::Bool, args[1].span, "a link's value");
        self.expect(&sty, &Ty::Place(Some(class)), args[0].span, "where `connected` starts");
        // Two locals of their own for the walk, named so that no ruleset
        // can read them, kept to the end of the scope like any other.
        let from = cx.bind("\u{0}from", Ty::Place(Some(class)));
        let to = cx.bind("\u{0}to", Ty::Place(Some(class)));
        let local = |slot| Expr { kind: ExprKind::Local(slot), span: args[1].span };
        let call =
            Expr { kind: ExprKind::Let { id, args: vec![local(from), local(to)] }, span: args[1].span };
        let region = Region::Connected { link: Box::new(call), from, to };
        (
            mk(ExprKind::Region(Box::new(region), Box::new(start))),
            Ty::Domain(Box::new(Ty::Place(Some(class)))),
        )
    }

    /// `p.x`, `p.y`: a grid place's column and row.
    pub(super) fn coordinate(
        &mut self,
        base: Expr,
        class: Option<ClassId>,
        field: &Ident,
        span: Span,
    ) -> (Expr, Ty) {
        let b = if field.name == "x" { Builtin::X } else { Builtin::Y };
        if let Some(c) = class {
            if self.classes[c].grid.is_none() {
                let d = format!("a {} (not on a grid)", self.classes[c].name);
                self.error(errors::no_field(field, &d));
                return (Expr { kind: ExprKind::Int(0), span }, Ty::Unknown);
            }
        }
        (Expr { kind: ExprKind::Builtin(b, vec![base]), span }, Ty::Int)
    }
}
