//! Statements: what each may change, their arguments, `by players` coverage.

use super::*;

impl<'f> Checker<'f> {
    /// A block's statements; a named rule's are spliced in where it stands
    /// (its name is for editions; its `let`s stay inside it).
    pub(super) fn block(&mut self, b: &ast::Block, cx: &mut Cx) -> Vec<Stmt> {
        let mut out = Vec::new();
        self.block_into(b, cx, &mut out);
        out
    }

    fn block_into(&mut self, b: &ast::Block, cx: &mut Cx, out: &mut Vec<Stmt>) {
        let mark = cx.mark();
        for s in &b.stmts {
            match &s.kind {
                ast::StmtKind::Rule { body, .. } => self.block_into(body, cx, out),
                _ => {
                    let s = self.stmt(s, cx);
                    out.push(s);
                }
            }
        }
        cx.reset(mark);
    }

    pub(super) fn stmt(&mut self, s: &ast::Stmt, cx: &mut Cx) -> Stmt {
        use ast::StmtKind as S;
        let kind = match &s.kind {
            S::Require { cond, message } => {
                let (c, ty) = self.value(cond, cx);
                self.expect(&ty, &Ty::Bool, cond.span, "`require`");
                if let (Some(chance), "an action" | "a procedure") = (cx.chance, cx.place) {
                    let at = Span { start: s.span.start, end: cond.span.end, file: s.span.file };
                    self.error(errors::require_after_chance(at, chance));
                }
                StmtKind::Require { cond: c, message: message.clone() }
            }
            S::Let { name, value } => {
                let (v, ty) = self.value(value, cx);
                if matches!(v.kind, ExprKind::Region(..)) {
                    self.error(errors::region_as_value(value.span));
                }
                let slot = self.bind(cx, name, ty);
                StmtKind::Let { slot, value: v }
            }
            S::Set { target, value } => {
                let (t, tty) = self.lvalue(target, cx, "set");
                let (v, vty) = self.value(value, cx);
                if matches!(t.kind, ExprKind::Piece { .. }) {
                    self.not_an_enum_value(&vty, value.span, "a piece");
                }
                if !fits(&tty, &vty) {
                    self.type_error(value.span, &tty, &vty, "the new value");
                }
                StmtKind::Set { target: t, value: v }
            }
            S::Advance { target, by } => {
                let (t, tty) = self.lvalue(target, cx, "advance");
                self.expect(&tty, &Ty::Int, target.span, "`advance`");
                let (b, bty) = self.value(by, cx);
                self.expect(&bty, &Ty::Int, by.span, "`advance ... by`");
                StmtKind::Advance { target: t, by: b }
            }
            S::Move { what, position, to } => {
                let mark = cx.mark();
                let what = self.selection(what, cx);
                cx.reset(mark);
                let (t, ty) = self.value(to, cx);
                self.expect(&ty, &Ty::Zone, to.span, "`move ... to`");
                StmtKind::Move { what, position: *position, to: t }
            }
            S::Draw { count, at_random, from, position, to } => {
                let (n, nty) = self.value(count, cx);
                self.expect(&nty, &Ty::Int, count.span, "`draw`");
                let negative = match &n.kind {
                    ExprKind::Int(k) => *k < 0,
                    ExprKind::Unary(UnaryOp::Neg, x) => matches!(x.kind, ExprKind::Int(k) if k > 0),
                    _ => false,
                };
                if negative {
                    self.error(errors::negative_draw(count.span));
                }
                let (f, fty) = self.value(from, cx);
                self.expect(&fty, &Ty::Zone, from.span, "`draw ... from`");
                let (t, tty) = self.value(to, cx);
                self.expect(&tty, &Ty::Zone, to.span, "`draw ... to`");
                let hidden = match &f.kind {
                    ExprKind::Zone { zone, .. } => {
                        let z = &self.zones[*zone];
                        matches!(z.kind, ZoneKind::Bag | ZoneKind::Box) || z.visibility == Visibility::Nobody
                    }
                    _ => false,
                };
                if (*at_random || hidden) && cx.chance.is_none() {
                    cx.chance = Some(Span { start: s.span.start, end: to.span.end, file: s.span.file });
                }
                StmtKind::Draw { count: n, at_random: *at_random, from: f, position: *position, to: t }
            }
            S::Shuffle(e) => {
                let (z, ty) = self.value(e, cx);
                match ty {
                    Ty::Domain(inner) if *inner == Ty::Player => {
                        if matches!(z.kind, ExprKind::PlayersFrom(_)) {
                            self.error(errors::shuffle_players_from(e.span));
                        }
                        StmtKind::ShufflePlayers
                    }
                    ty => {
                        self.expect(&ty, &Ty::Zone, e.span, "`shuffle`");
                        if cx.chance.is_none() {
                            cx.chance =
                                Some(Span { start: s.span.start, end: e.span.end, file: s.span.file });
                        }
                        StmtKind::Shuffle(z)
                    }
                }
            }
            S::Split { from, into } => {
                let (f, fty) = self.value(from, cx);
                self.expect(&fty, &Ty::Zone, from.span, "`split`");
                if into.len() < 2 {
                    self.error(errors::split_needs_two_piles(s.span));
                }
                let into = into
                    .iter()
                    .map(|z| {
                        let (x, ty) = self.value(z, cx);
                        self.expect(&ty, &Ty::Zone, z.span, "`split ... into`");
                        x
                    })
                    .collect();
                StmtKind::Split { from: f, into }
            }
            S::Reveal { zone, to } => {
                let (z, zty) = self.value(zone, cx);
                self.expect(&zty, &Ty::Zone, zone.span, "`reveal`");
                let (t, tty) = self.value(to, cx);
                self.expect(&tty, &Ty::Player, to.span, "`reveal ... to`");
                StmtKind::Reveal { zone: z, to: t }
            }
            S::Ask { player, action } => {
                let (p, pty) = self.value(player, cx);
                self.expect(&pty, &Ty::Player, player.span, "`ask`");
                match self.symbols.get(&action.name) {
                    Some((Sym::Action(id), _)) => {
                        let id = *id;
                        self.used.insert(Sym::Action(id));
                        if !self.actions[id.index()].asked {
                            self.error(errors::ask_needs_asked_action(action, self.actions[id.index()].span));
                        }
                        StmtKind::Ask { player: p, action: id }
                    }
                    _ => {
                        if !self.quiet {
                            let asked: Vec<String> =
                                self.actions.iter().filter(|a| a.asked).map(|a| a.name.clone()).collect();
                            let help = help_for(&action.name, asked.iter().map(String::as_str));
                            self.error(errors::unknown_asked_action(action, help));
                        }
                        StmtKind::Require {
                            cond: Expr { kind: ExprKind::Bool(true), span: s.span },
                            message: None,
                        }
                    }
                }
            }
            S::EndTurn => {
                if !cx.me_allowed {
                    self.error(errors::end_turn_outside_turn(s.span, cx.place));
                }
                self.ends_turn.push(s.span);
                StmtKind::EndTurn
            }
            S::If { cond, then, otherwise } => {
                let (c, ty) = self.value(cond, cx);
                self.expect(&ty, &Ty::Bool, cond.span, "`if`");
                let then = self.block(then, cx);
                let otherwise = otherwise.as_ref().map(|b| self.block(b, cx)).unwrap_or_default();
                StmtKind::If { cond: c, then, otherwise }
            }
            S::For { var, domain, body } => {
                let (d, ty) = self.value(domain, cx);
                let elem = self.element_type(&ty, domain.span, "`for`");
                let mark = cx.mark();
                let slot = self.bind(cx, var, elem);
                let body = self.block(body, cx);
                cx.reset(mark);
                StmtKind::For { var: slot, domain: d, body }
            }
            S::Repeat { cond, body } => {
                let (c, ty) = self.value(cond, cx);
                self.expect(&ty, &Ty::Bool, cond.span, "`repeat while`");
                let body = self.block(body, cx);
                StmtKind::Repeat { cond: c, body }
            }
            S::Do { name, args } => {
                let lowered = self.arguments(args, cx);
                match self.symbols.get(&name.name) {
                    Some((Sym::Procedure(id), _)) => {
                        let id = *id;
                        self.used.insert(Sym::Procedure(id));
                        if let Some(caller) = self.current_procedure {
                            self.procedure_calls[caller.index()].push((id, name.span));
                        }
                        let tys = self.procedure_param_tys[id.index()].clone();
                        self.check_args(name, &tys, &lowered, s.span);
                        StmtKind::Do { procedure: id, args: lowered.into_iter().map(|(x, _, _)| x).collect() }
                    }
                    _ => {
                        if !self.quiet {
                            let procs: Vec<String> = self
                                .symbols
                                .iter()
                                .filter(|(_, (s, _))| matches!(s, Sym::Procedure(_)))
                                .map(|(n, _)| n.clone())
                                .collect();
                            let help = help_for(&name.name, procs.iter().map(String::as_str));
                            self.error(errors::unknown_procedure(name, help));
                        }
                        StmtKind::Require {
                            cond: Expr { kind: ExprKind::Bool(true), span: s.span },
                            message: None,
                        }
                    }
                }
            }
            S::ByPlayers { name, cases, span } => self.by_players(name.as_ref(), cases, *span, cx),
            // Spliced by `block`, the only caller: a rule is never checked
            // as one statement. Its statements as an always-true branch keep
            // the meaning should that change.
            S::Rule { body, .. } => StmtKind::If {
                cond: Expr { kind: ExprKind::Bool(true), span: s.span },
                then: self.block(body, cx),
                otherwise: Vec::new(),
            },
        };
        Stmt { kind, span: s.span }
    }

    pub(super) fn by_players(
        &mut self,
        name: Option<&crate::span::Ident>,
        cases: &[ast::PlayerCase],
        span: Span,
        cx: &mut Cx,
    ) -> StmtKind {
        let (lo, hi) = self.player_counts().unwrap_or((1, MAX_PLAYERS as u32));
        let mut seen: HashMap<i64, Span> = HashMap::new();
        let mut out = Vec::new();
        for case in cases {
            let mut counts = Vec::new();
            for (n, nspan) in &case.counts {
                if *n < lo as i64 || *n > hi as i64 {
                    self.error(errors::player_count_outside_game(*nspan, lo, hi, *n));
                    continue;
                }
                if let Some(prev) = seen.get(n) {
                    self.error(errors::player_count_twice(*nspan, *n, *prev));
                    continue;
                }
                seen.insert(*n, *nspan);
                counts.push(*n as u32);
            }
            let body = self.block(&case.body, cx);
            out.push((counts, body));
        }
        let missing: Vec<String> =
            (lo..=hi).filter(|n| !seen.contains_key(&(*n as i64))).map(|n| n.to_string()).collect();
        if !missing.is_empty() {
            // In a base file, the author of an edition cannot add a block
            // there: they override one case from their own file.
            let from_edition = (span.file != 0).then(|| name.map(|n| n.name.as_str()));
            self.error(errors::player_counts_missing(span, &missing, &covered(&seen), from_edition));
        }
        StmtKind::ByPlayers { cases: out }
    }

    pub(super) fn check_args(&mut self, name: &Ident, params: &[Ty], args: &[(Expr, Ty, Span)], span: Span) {
        if params.len() != args.len() {
            self.error(errors::wrong_argument_count(span, name, params.len(), args.len()));
            return;
        }
        for (p, (_, ty, aspan)) in params.iter().zip(args) {
            if !fits(p, ty) {
                self.type_error(*aspan, p, ty, &format!("this argument of `{}`", name.name));
            }
        }
    }

    pub(super) fn selection(&mut self, sel: &ast::Selection, cx: &mut Cx) -> Selection {
        match sel {
            ast::Selection::One(e) => {
                let (x, ty) = self.value(e, cx);
                self.expect(&ty, &Ty::Card, e.span, "`move`");
                Selection::One(x)
            }
            ast::Selection::All { var, domain, filter } | ast::Selection::First { var, domain, filter } => {
                let (d, ty) = self.value(domain, cx);
                // A zone, or a set a player chose (`move all c in give to market`).
                if ty != Ty::Domain(Box::new(Ty::Card)) {
                    self.expect(&ty, &Ty::Zone, domain.span, "`move all`/`move first`");
                }
                let slot = self.bind(cx, var, Ty::Card);
                let filter = filter.as_ref().map(|f| {
                    let (x, t) = self.value(f, cx);
                    self.expect(&t, &Ty::Bool, f.span, "`where`");
                    x
                });
                if matches!(sel, ast::Selection::All { .. }) {
                    Selection::All { var: slot, domain: d, filter }
                } else {
                    Selection::First { var: slot, domain: d, filter }
                }
            }
        }
    }

    /// What a `for` or an aggregate binds its variable to when ranging over `ty`.
    pub(super) fn element_type(&mut self, ty: &Ty, span: Span, what: &str) -> Ty {
        match ty {
            Ty::Zone => Ty::Card,
            Ty::Domain(inner) => (**inner).clone(),
            Ty::Unknown => Ty::Unknown,
            other => {
                self.error(errors::not_a_domain(span, what, &describe_ty(other, self)));
                Ty::Unknown
            }
        }
    }

    /// Lower an assignment target: a counter or a piece.
    pub(super) fn lvalue(&mut self, e: &ast::Expr, cx: &mut Cx, what: &str) -> (Expr, Ty) {
        let (x, ty) = self.value(e, cx);
        match &x.kind {
            ExprKind::Counter { .. } | ExprKind::Piece { .. } => (x, ty),
            _ if ty == Ty::Unknown => (x, ty),
            _ => {
                self.error(errors::not_assignable(e.span, what));
                (x, Ty::Unknown)
            }
        }
    }
}
