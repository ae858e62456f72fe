//! Expressions: names resolved, types checked, lowered to the model's
//! typed expressions.

use super::*;

impl<'f> Checker<'f> {
    /// Lower an expression used as a value: partial forms (a zone family
    /// without its index, a table without all its keys) are errors here.
    pub(super) fn value(&mut self, e: &ast::Expr, cx: &mut Cx) -> (Expr, Ty) {
        let (x, ty) = self.expr(e, cx);
        match &ty {
            Ty::ZoneFamily(class) | Ty::CounterFamily(class, _) => {
                let class_name = self.classes[*class].name.clone();
                let example = self.first_place_name(*class);
                self.error(errors::which_place(e.span, &class_name, &example));
                (x, Ty::Unknown)
            }
            Ty::Table(id, given) => {
                let t = &self.tables[*id];
                let (name, dims) = (t.name.clone(), t.dims.len());
                let keys: Vec<String> = t.dims.iter().map(|d| format!("[{}]", d.name)).collect();
                self.error(errors::table_needs_keys(e.span, &name, dims, *given, &keys.join("")));
                (x, Ty::Unknown)
            }
            _ => (x, ty),
        }
    }

    /// Lower an expression. The depth counts every expression inside
    /// another, through the bodies of the lets it reads (lowered on first
    /// use): the engine evaluates them the same way, one inside the other,
    /// so a bound here bounds its stack too.
    pub(super) fn expr(&mut self, e: &ast::Expr, cx: &mut Cx) -> (Expr, Ty) {
        if self.depth >= MAX_EVAL_DEPTH {
            // Reported where the let that went too deep is read: the
            // peak past the limit makes that let's depth say so.
            self.peak = MAX_EVAL_DEPTH + 1;
            return (Expr { kind: ExprKind::Int(0), span: e.span }, Ty::Unknown);
        }
        self.depth += 1;
        self.peak = self.peak.max(self.depth);
        let out = self.expr_at(e, cx);
        self.depth -= 1;
        out
    }

    fn expr_at(&mut self, e: &ast::Expr, cx: &mut Cx) -> (Expr, Ty) {
        use ast::ExprKind as E;
        let span = e.span;
        let mk = |kind| Expr { kind, span };
        match &e.kind {
            E::Int(n) => (mk(ExprKind::Int(*n)), Ty::Int),
            E::Text(t) => (mk(ExprKind::Text(t.clone())), Ty::Text),
            E::Bool(b) => (mk(ExprKind::Bool(*b)), Ty::Bool),
            E::None => (mk(ExprKind::None), Ty::NoneLit),
            E::Name(name) => self.name(name, cx),
            E::Unary(op, inner) => {
                let (x, ty) = self.value(inner, cx);
                let want = if *op == ast::UnaryOp::Neg { Ty::Int } else { Ty::Bool };
                self.expect(&ty, &want, inner.span, if want == Ty::Int { "`-`" } else { "`not`" });
                (mk(ExprKind::Unary(*op, Box::new(x))), want)
            }
            E::Binary(op, a, b) => self.binary(*op, a, b, span, cx),
            E::PlayersFrom(who) => {
                let (w, ty) = self.value(who, cx);
                self.expect(&ty, &Ty::Player, who.span, "`players from`");
                (mk(ExprKind::PlayersFrom(Box::new(w))), Ty::Domain(Box::new(Ty::Player)))
            }
            E::If(c, a, b) => {
                let (cx_, cty) = self.value(c, cx);
                self.expect(&cty, &Ty::Bool, c.span, "`if`");
                let (ax, aty) = self.value(a, cx);
                let (bx, bty) = self.value(b, cx);
                let ty = if !fits(&aty, &bty) && !fits(&bty, &aty) {
                    self.type_error(b.span, &aty, &bty, "the `else` branch");
                    Ty::Unknown
                } else if aty == Ty::NoneLit {
                    bty
                } else {
                    aty
                };
                (mk(ExprKind::If(Box::new(cx_), Box::new(ax), Box::new(bx))), ty)
            }
            E::Field(base, field) => self.field(base, field, span, cx),
            E::Index(base, index) => self.index(base, index, span, cx),
            E::Call(name, args) => self.call(name, args, span, cx),
            E::Aggregate { func, value, var, domain, filter } => {
                let agg = match func.name.as_str() {
                    "count" => Aggregate::Count,
                    "sum" => Aggregate::Sum,
                    "min" => Aggregate::Min,
                    "max" => Aggregate::Max,
                    "any" => Aggregate::Any,
                    "all" => Aggregate::All,
                    "first" => Aggregate::First,
                    other => {
                        let help = help_for(other, ["count", "sum", "min", "max", "any", "all", "first"]);
                        self.error(errors::aggregate_unknown(func, help));
                        return (mk(ExprKind::Int(0)), Ty::Unknown);
                    }
                };
                let (d, dty) = self.value(domain, cx);
                let elem = self.element_type(&dty, domain.span, &format!("`{}`", func.name));
                let mark = cx.mark();
                let slot = self.bind(cx, var, elem.clone());
                let needs_value = matches!(agg, Aggregate::Sum | Aggregate::Min | Aggregate::Max);
                let value = match (value, needs_value) {
                    (Some(v), true) => {
                        let (x, ty) = self.value(v, cx);
                        self.expect(&ty, &Ty::Int, v.span, &format!("`{}`", func.name));
                        Some(Box::new(x))
                    }
                    (None, true) => {
                        self.error(errors::aggregate_without_value(span, func));
                        None
                    }
                    (Some(v), false) => {
                        self.error(errors::aggregate_with_value(v.span, func));
                        None
                    }
                    (None, false) => None,
                };
                let filter = filter.as_ref().map(|f| {
                    let (x, t) = self.value(f, cx);
                    self.expect(&t, &Ty::Bool, f.span, "`where`");
                    Box::new(x)
                });
                if matches!(agg, Aggregate::Any | Aggregate::All) && filter.is_none() {
                    self.error(errors::aggregate_without_condition(span, func));
                }
                cx.reset(mark);
                let ty = match agg {
                    Aggregate::Any | Aggregate::All => Ty::Bool,
                    // The first element that passes, or `none`.
                    Aggregate::First => elem,
                    _ => Ty::Int,
                };
                (mk(ExprKind::Aggregate { func: agg, value, var: slot, domain: Box::new(d), filter }), ty)
            }
        }
    }

    pub(super) fn name(&mut self, name: &Ident, cx: &mut Cx) -> (Expr, Ty) {
        let span = name.span;
        let mk = |kind| Expr { kind, span };
        if let Some((ty, slot)) = cx.lookup(&name.name) {
            return (mk(ExprKind::Local(slot)), ty);
        }
        match name.name.as_str() {
            "me" => {
                if !cx.me_allowed {
                    self.error(errors::me_outside_turn(span, cx.place));
                }
                return (mk(ExprKind::Me), Ty::Player);
            }
            "players" => return (mk(ExprKind::Players), Ty::Domain(Box::new(Ty::Player))),
            "player_count" => return (mk(ExprKind::PlayerCount), Ty::Int),
            _ => {}
        }
        let Some((sym, _)) = self.symbols.get(&name.name).copied() else {
            if let Some(tag) = self.tag_ids.get(&name.name) {
                return (mk(ExprKind::Tag(*tag)), Ty::Tag);
            }
            self.unknown_name(name, cx);
            return (mk(ExprKind::Int(0)), Ty::Unknown);
        };
        self.used.insert(sym);
        match sym {
            Sym::Option(id) => {
                let ty = match &self.options[id].value {
                    Value::Int(_) => Ty::Int,
                    Value::Bool(_) => Ty::Bool,
                    Value::Text(_) => Ty::Text,
                    _ => Ty::Unknown,
                };
                (mk(ExprKind::Option(id)), ty)
            }
            Sym::Class(id) => (mk(ExprKind::Class(id)), Ty::Domain(Box::new(Ty::Place(Some(id))))),
            Sym::Place(id) => (mk(ExprKind::Place(id)), Ty::Place(Some(self.places[id].class))),
            Sym::Group(id) => (mk(ExprKind::Group(id)), Ty::Zone),
            Sym::Zone(id) => {
                let z = &self.zones[id];
                if z.per_player {
                    let zname = z.name.clone();
                    self.error(errors::whose_zone(span, &zname));
                    return (mk(ExprKind::Int(0)), Ty::Unknown);
                }
                let ty = match z.index {
                    Some(c) => Ty::ZoneFamily(c),
                    None => Ty::Zone,
                };
                (mk(ExprKind::Zone { zone: id, player: None, index: None }), ty)
            }
            Sym::Counter(id) => {
                let c = &self.counters[id];
                if c.per_player {
                    let cname = c.name.clone();
                    self.error(errors::whose_counter(span, &cname));
                    return (mk(ExprKind::Int(0)), Ty::Unknown);
                }
                let ty = match c.index {
                    Some(class) => Ty::CounterFamily(class, Box::new(ty_of(&c.ty))),
                    None => ty_of(&c.ty),
                };
                (mk(ExprKind::Counter { counter: id, player: None, index: None }), ty)
            }
            Sym::Piece(id) => {
                let p = &self.pieces[id];
                if p.per_player {
                    let pname = p.name.clone();
                    self.error(errors::whose_piece(span, &pname));
                    return (mk(ExprKind::Int(0)), Ty::Unknown);
                }
                (mk(ExprKind::Piece { piece: id, player: None }), Ty::Place(None))
            }
            Sym::Table(id) => (mk(ExprKind::Table { table: id, keys: Vec::new() }), Ty::Table(id, 0)),
            Sym::Let(id) => {
                let nparams = self.let_decls[id.index()].params.as_ref().map_or(0, Vec::len);
                if nparams > 0 {
                    self.error(errors::called_without_arguments(span, name, nparams));
                }
                let ty = self.let_type(id);
                (mk(ExprKind::Let { id, args: Vec::new() }), ty)
            }
            Sym::Kind(_) | Sym::Procedure(_) | Sym::Action(_) | Sym::Score(_) => {
                self.error(errors::not_a_value(span, name, sym.noun()));
                (mk(ExprKind::Int(0)), Ty::Unknown)
            }
        }
    }

    pub(super) fn unknown_name(&mut self, name: &Ident, cx: &Cx) {
        if self.quiet {
            return;
        }
        let help = if crate::suggest::budget_left() {
            let candidates = (cx.scope.iter().map(|(n, _, _)| n.as_str()))
                .chain(self.symbols.keys().map(String::as_str))
                .chain(self.tags.iter().map(String::as_str))
                .chain(BUILTIN_NAMES.iter().copied());
            help_for(&name.name, candidates)
        } else {
            None
        };
        let code = if name.name.chars().next().is_some_and(char::is_uppercase) {
            Code::UnknownPlace
        } else {
            Code::UnknownName
        };
        let what = if code == Code::UnknownPlace { "place" } else { "name" };
        self.error(errors::unknown(code, what, name, help));
    }

    pub(super) fn binary(
        &mut self,
        op: ast::BinaryOp,
        a: &ast::Expr,
        b: &ast::Expr,
        span: Span,
        cx: &mut Cx,
    ) -> (Expr, Ty) {
        use ast::BinaryOp as B;
        let (ax, aty) = self.value(a, cx);
        if op == B::Has {
            if !matches!(aty, Ty::Card | Ty::Zone | Ty::Unknown) {
                self.type_error(a.span, &Ty::Card, &aty, "`has`");
            }
            let bx = self.tag_expr(b, cx);
            return (Expr { kind: ExprKind::Binary(op, Box::new(ax), Box::new(bx)), span }, Ty::Bool);
        }
        let (bx, bty) = self.value(b, cx);
        let ty = match op {
            B::Or | B::And => {
                self.expect(&aty, &Ty::Bool, a.span, &format!("`{}`", op.symbol()));
                self.expect(&bty, &Ty::Bool, b.span, &format!("`{}`", op.symbol()));
                Ty::Bool
            }
            B::Eq | B::Ne => {
                if !fits(&aty, &bty) && !fits(&bty, &aty) {
                    let e = describe_ty(&aty, self);
                    let g = describe_ty(&bty, self);
                    self.error(errors::never_equal(span, &e, &g));
                }
                Ty::Bool
            }
            B::Lt | B::Le | B::Gt | B::Ge => {
                self.expect(&aty, &Ty::Int, a.span, &format!("`{}`", op.symbol()));
                self.expect(&bty, &Ty::Int, b.span, &format!("`{}`", op.symbol()));
                Ty::Bool
            }
            B::Add | B::Sub | B::Mul | B::Div | B::Rem => {
                self.expect(&aty, &Ty::Int, a.span, &format!("`{}`", op.symbol()));
                self.expect(&bty, &Ty::Int, b.span, &format!("`{}`", op.symbol()));
                Ty::Int
            }
            B::Has => unreachable!("handled above"),
        };
        (Expr { kind: ExprKind::Binary(op, Box::new(ax), Box::new(bx)), span }, ty)
    }

    /// The right side of `has`: a tag name or a tag-valued expression.
    pub(super) fn tag_expr(&mut self, e: &ast::Expr, cx: &mut Cx) -> Expr {
        if let ast::ExprKind::Name(n) = &e.kind {
            // After `has`, a tag's name means the tag, unless a local of
            // type tag shadows it.
            let local_tag = matches!(cx.lookup(&n.name), Some((Ty::Tag, _)));
            if !local_tag {
                if let Some(id) = self.tag_ids.get(&n.name) {
                    return Expr { kind: ExprKind::Tag(*id), span: e.span };
                }
            }
            if cx.lookup(&n.name).is_none() {
                // A tag a component was given without a `tag` line: that
                // line is the one mistake, reported where the tag is given.
                if !self.quiet && !self.undeclared_tags.contains(&n.name) {
                    let help = help_for(&n.name, self.tags.iter().map(String::as_str));
                    let help = help.or_else(|| {
                        self.declared_tags.then(|| {
                            format!(
                                "declare it with `tag {}` and give it to components in their `tags`",
                                n.name
                            )
                        })
                    });
                    self.error(errors::unknown_tag(n, e.span, help));
                }
                return Expr { kind: ExprKind::Tag(TagId::default()), span: e.span };
            }
        }
        let (x, ty) = self.value(e, cx);
        self.expect(&ty, &Ty::Tag, e.span, "`has`");
        x
    }

    pub(super) fn field(&mut self, base: &ast::Expr, field: &Ident, span: Span, cx: &mut Cx) -> (Expr, Ty) {
        let (bx, bty) = self.value(base, cx);
        let mk = |kind| Expr { kind, span };
        match bty {
            Ty::Player => match self.symbols.get(&field.name).copied() {
                Some((Sym::Zone(id), _)) if self.zones[id].per_player => {
                    self.used.insert(Sym::Zone(id));
                    let ty = match self.zones[id].index {
                        Some(c) => Ty::ZoneFamily(c),
                        None => Ty::Zone,
                    };
                    (mk(ExprKind::Zone { zone: id, player: Some(Box::new(bx)), index: None }), ty)
                }
                Some((Sym::Counter(id), _)) if self.counters[id].per_player => {
                    self.used.insert(Sym::Counter(id));
                    let c = &self.counters[id];
                    let ty = match c.index {
                        Some(class) => Ty::CounterFamily(class, Box::new(ty_of(&c.ty))),
                        None => ty_of(&c.ty),
                    };
                    (mk(ExprKind::Counter { counter: id, player: Some(Box::new(bx)), index: None }), ty)
                }
                Some((Sym::Piece(id), _)) if self.pieces[id].per_player => {
                    self.used.insert(Sym::Piece(id));
                    (mk(ExprKind::Piece { piece: id, player: Some(Box::new(bx)) }), Ty::Place(None))
                }
                _ => {
                    let owned: Vec<&str> = self
                        .zones
                        .iter()
                        .filter(|z| z.per_player)
                        .map(|z| z.name.as_str())
                        .chain(self.counters.iter().filter(|c| c.per_player).map(|c| c.name.as_str()))
                        .chain(self.pieces.iter().filter(|p| p.per_player).map(|p| p.name.as_str()))
                        .collect();
                    let help = help_for(&field.name, owned.iter().copied());
                    self.error(errors::not_owned_by_players(field, &owned, help));
                    (mk(ExprKind::Int(0)), Ty::Unknown)
                }
            },
            Ty::Card => {
                let attr = self.attr_names.iter().position(|n| *n == field.name).map(AttrId::new);
                let Some(attr) = attr else {
                    let help = help_for(&field.name, self.attr_names.iter().map(String::as_str));
                    self.error(errors::unknown_attribute(field, help));
                    return (mk(ExprKind::Int(0)), Ty::Unknown);
                };
                // Components of different kinds may share an attribute name;
                // when they disagree on its type, the type is unknown.
                let mut ty: Option<Ty> = None;
                for k in &self.kinds {
                    if let Some(slot) = k.slot_of(attr) {
                        let t = ty_of(&k.slots[slot].1);
                        ty = match ty {
                            None => Some(t),
                            Some(prev) if fits(&prev, &t) && fits(&t, &prev) => Some(prev),
                            Some(_) => Some(Ty::Unknown),
                        };
                    }
                }
                (mk(ExprKind::Attr { card: Box::new(bx), attr }), ty.unwrap_or(Ty::Unknown))
            }
            Ty::Unknown => (mk(ExprKind::Int(0)), Ty::Unknown),
            Ty::Place(class) if field.name == "x" || field.name == "y" => {
                self.coordinate(bx, class, field, span)
            }
            other => {
                let d = describe_ty(&other, self);
                self.error(errors::no_field(field, &d));
                (mk(ExprKind::Int(0)), Ty::Unknown)
            }
        }
    }

    pub(super) fn index(
        &mut self,
        base: &ast::Expr,
        index: &ast::Expr,
        span: Span,
        cx: &mut Cx,
    ) -> (Expr, Ty) {
        let (mut bx, bty) = self.expr(base, cx);
        let (ix, ity) = self.value(index, cx);
        match bty {
            Ty::ZoneFamily(class) | Ty::CounterFamily(class, _) => {
                self.expect(&ity, &Ty::Place(Some(class)), index.span, "this index");
                let ty = match bty {
                    Ty::CounterFamily(_, inner) => *inner,
                    _ => Ty::Zone,
                };
                match &mut bx.kind {
                    ExprKind::Zone { index: slot, .. } | ExprKind::Counter { index: slot, .. } => {
                        *slot = Some(Box::new(ix))
                    }
                    _ => {}
                }
                bx.span = span;
                (bx, ty)
            }
            Ty::Table(id, _) if self.broken_tables.contains(&id) => (bx, Ty::Unknown),
            Ty::Table(id, given) => {
                let dims = self.tables[id].dims.len();
                if given >= dims {
                    self.error(errors::too_many_keys(index.span, &self.tables[id].name, dims));
                    return (bx, Ty::Unknown);
                }
                let want = self.tables[id].dims[given].class.map_or(Ty::Int, |c| Ty::Place(Some(c)));
                self.expect(&ity, &want, index.span, "a table index");
                if let ExprKind::Table { keys, .. } = &mut bx.kind {
                    keys.push(ix);
                }
                bx.span = span;
                let ty = if given + 1 == dims { Ty::Int } else { Ty::Table(id, given + 1) };
                (bx, ty)
            }
            Ty::Map(class, inner) => {
                self.expect(&ity, &Ty::Place(Some(class)), index.span, "this index");
                (Expr { kind: ExprKind::MapGet { map: Box::new(bx), key: Box::new(ix) }, span }, *inner)
            }
            Ty::Unknown => (bx, Ty::Unknown),
            other => {
                let d = describe_ty(&other, self);
                self.error(errors::not_indexable(span, &d));
                (bx, Ty::Unknown)
            }
        }
    }

    /// Arguments of a call, each lowered with its type and where it is.
    pub(super) fn arguments(&mut self, args: &[ast::Expr], cx: &mut Cx) -> Vec<(Expr, Ty, Span)> {
        args.iter()
            .map(|a| {
                let (x, t) = self.value(a, cx);
                (x, t, a.span)
            })
            .collect()
    }

    pub(super) fn call(&mut self, name: &Ident, args: &[ast::Expr], span: Span, cx: &mut Cx) -> (Expr, Ty) {
        if let Some(done) = self.place_call(name, args, span, cx) {
            return done;
        }
        let lowered = self.arguments(args, cx);
        let mk = |kind| Expr { kind, span };
        let builtin = match name.name.as_str() {
            "min" => Some(Builtin::Min),
            "max" => Some(Builtin::Max),
            "abs" => Some(Builtin::Abs),
            "distance" => Some(Builtin::Distance),
            "count" => Some(Builtin::Count),
            "slots" => Some(Builtin::Slots),
            _ => None,
        };
        if let Some(b) = builtin {
            let (params, ty): (Vec<Ty>, Ty) = match b {
                Builtin::Min | Builtin::Max => {
                    if lowered.is_empty() {
                        self.error(errors::nothing_to_compare(span, name));
                    }
                    (vec![Ty::Int; lowered.len()], Ty::Int)
                }
                Builtin::Abs => (vec![Ty::Int], Ty::Int),
                Builtin::X | Builtin::Y => (vec![Ty::Place(None)], Ty::Int),
                Builtin::Distance => (vec![Ty::Place(None), Ty::Place(None)], Ty::Int),
                Builtin::Slots => (vec![Ty::Zone], Ty::Int),
                // A zone, or a set a player chose (`count(give)`).
                Builtin::Count => match lowered.first() {
                    Some((_, Ty::Domain(inner), _)) if **inner == Ty::Card => {
                        (vec![Ty::Domain(inner.clone())], Ty::Int)
                    }
                    _ => (vec![Ty::Zone], Ty::Int),
                },
            };
            self.check_args(name, &params, &lowered, span);
            if b == Builtin::Distance {
                for (_, aty, aspan) in &lowered {
                    self.not_an_enum_value(aty, *aspan, "`distance`");
                }
            }
            let args = lowered.into_iter().map(|(x, _, _)| x).collect();
            return (mk(ExprKind::Builtin(b, args)), ty);
        }
        match self.symbols.get(&name.name).copied() {
            Some((Sym::Let(id), _)) => {
                self.used.insert(Sym::Let(id));
                let params = self.let_param_tys[id.index()].clone();
                self.check_args(name, &params, &lowered, span);
                let ty = self.let_type(id);
                (mk(ExprKind::Let { id, args: lowered.into_iter().map(|(x, _, _)| x).collect() }), ty)
            }
            Some((sym, _)) => {
                self.error(errors::not_a_function(name, sym.noun()));
                (mk(ExprKind::Int(0)), Ty::Unknown)
            }
            None => {
                if !self.quiet {
                    let mut names: Vec<String> = FUNCTIONS.iter().map(|s| s.to_string()).collect();
                    names.extend(
                        self.symbols
                            .iter()
                            .filter(|(_, (s, _))| matches!(s, Sym::Let(_)))
                            .map(|(n, _)| n.clone()),
                    );
                    let help = help_for(&name.name, names.iter().map(String::as_str));
                    self.error(errors::unknown_function(name, help));
                }
                (mk(ExprKind::Int(0)), Ty::Unknown)
            }
        }
    }
}
