//! Declarations: the game, options, places, routes, kinds, zones,
//! counters, pieces, lets, procedures, actions, turns and scores.

use super::*;

impl<'f> Checker<'f> {
    pub(super) fn game_item(&mut self, g: &ast::Game, item: &ast::Item) {
        if let Some((_, prev)) = &self.game {
            let prev = *prev;
            self.error(errors::duplicate_game(g.name.span, prev));
            return;
        }
        let (min, max) = match g.players {
            Some((r, span)) => {
                let hi = r.hi.unwrap_or(r.lo);
                if r.lo < 1 || hi < r.lo || hi > MAX_PLAYERS {
                    self.error(errors::bad_player_range(span));
                    (1, 1)
                } else {
                    (r.lo as u32, hi as u32)
                }
            }
            None => {
                self.error(errors::no_player_range(g.name.span));
                (1, 1)
            }
        };
        let max_actions = match g.actions {
            Some((n, span)) if !(1..=MAX_ACTIONS as i64).contains(&n) => {
                self.error(errors::action_limit_out_of_range(span, n, MAX_ACTIONS));
                DEFAULT_MAX_ACTIONS
            }
            Some((n, _)) => n as u64,
            None => DEFAULT_MAX_ACTIONS,
        };
        self.note_provenance(format!("game {}", g.name.name), &item.notes);
        self.game = Some((
            model::Game {
                name: g.name.name.clone(),
                title: g.title.clone().unwrap_or_else(|| g.name.name.clone()),
                min_players: min,
                max_players: max,
                max_actions,
                span: g.name.span,
            },
            g.name.span,
        ));
    }

    pub(super) fn player_counts(&self) -> Option<(u32, u32)> {
        self.game.as_ref().map(|(g, _)| (g.min_players, g.max_players))
    }

    pub(super) fn option_item(&mut self, o: &ast::OptionDecl, item: &ast::Item) {
        let id = OptionId::new(self.options.len());
        if !self.declare(&o.name, Sym::Option(id)) {
            return;
        }
        let value = match &o.value.kind {
            ValueKind::Int(n) => Value::Int(*n),
            ValueKind::Bool(b) => Value::Bool(*b),
            ValueKind::Text(t) => Value::Text(t.clone()),
            _ => {
                self.error(errors::option_value(o.value.span));
                Value::Int(0)
            }
        };
        self.note_provenance(format!("option {}", o.name.name), &item.notes);
        self.options.push(OptionDef { name: o.name.name.clone(), value, span: o.name.span });
    }

    pub(super) fn place_item(&mut self, p: &ast::PlaceDecl, item: &ast::Item) {
        let class = match self.symbols.get(&p.class.name) {
            Some((Sym::Class(id), _)) => {
                let id = *id;
                if p.grid.is_some() || self.classes[id].grid.is_some() {
                    let first = self.class_spans[id.index()];
                    self.error(errors::grid_class_extended(&p.class, first));
                    return;
                }
                if self.classes[id].enumeration != p.enumeration {
                    let first = self.class_spans[id.index()];
                    self.error(errors::enum_and_place_class(&p.class, p.enumeration, first));
                    return;
                }
                id
            }
            _ => {
                let id = ClassId::new(self.classes.len());
                if !self.declare(&p.class, Sym::Class(id)) {
                    return;
                }
                self.classes.push(PlaceClass {
                    name: p.class.name.clone(),
                    places: Vec::new(),
                    enumeration: p.enumeration,
                    grid: None,
                });
                self.class_spans.push(p.class.span);
                id
            }
        };
        if let Some((width, height, span)) = p.grid {
            self.grid_places(class, width, height, span, &p.class);
            self.note_provenance(format!("place {}", p.class.name), &item.notes);
            return;
        }
        for place in &p.places {
            if self.places.len() >= MAX_PLACES {
                self.error(errors::too_many_places(place.span, MAX_PLACES));
                // Which places no route reaches would only repeat this.
                self.broken_route = true;
                break;
            }
            let id = PlaceId::new(self.places.len());
            if self.declare(place, Sym::Place(id)) {
                self.places.push(Place { name: place.name.clone(), class, at: None, span: place.span });
                self.classes[class].places.push(id);
            }
        }
        let word = if p.enumeration { "enum" } else { "place" };
        self.note_provenance(format!("{word} {}", p.class.name), &item.notes);
    }

    /// The places of a grid, row by row, named `CLASS_X_Y`.
    fn grid_places(&mut self, class: ClassId, width: i64, height: i64, span: Span, name: &Ident) {
        let room = MAX_PLACES - self.places.len().min(MAX_PLACES);
        if width < 1 || height < 1 || width.saturating_mul(height) > room as i64 {
            self.error(errors::bad_grid_size(span, width, height, room, MAX_PLACES));
            self.broken_route = true;
            return;
        }
        self.classes[class].grid = Some(Grid { width: width as u32, height: height as u32 });
        for y in 0..height {
            for x in 0..width {
                let place = Ident { name: format!("{}_{x}_{y}", name.name), span };
                let id = PlaceId::new(self.places.len());
                if self.declare(&place, Sym::Place(id)) {
                    self.places.push(Place { name: place.name, class, at: Some((x, y)), span });
                    self.classes[class].places.push(id);
                }
            }
        }
    }

    pub(super) fn route_item(&mut self, edges: &[ast::RouteEdge], item: &ast::Item) {
        for e in edges {
            let a = self.lookup_board_place(&e.a);
            let b = self.lookup_board_place(&e.b);
            let steps = match e.steps {
                Some((n, span)) if n < 1 => {
                    self.error(errors::route_too_short(span));
                    1
                }
                Some((n, _)) => n as u32,
                None => 1,
            };
            let (Some(a), Some(b)) = (a, b) else {
                self.broken_route = true;
                continue;
            };
            if a == b {
                self.error(errors::self_route(e.span, &e.a.name));
                continue;
            }
            if let Some(prev) = self.route_pairs.get(&(a.min(b), a.max(b))) {
                self.error(errors::duplicate_route(e.span, &e.a.name, &e.b.name, *prev));
                continue;
            }
            if self.routes.len() >= MAX_ROUTES {
                if !self.too_many_routes {
                    self.error(errors::too_many_routes(e.span, MAX_ROUTES));
                }
                // Which places no route reaches would only repeat this.
                (self.too_many_routes, self.broken_route) = (true, true);
                break;
            }
            self.route_pairs.insert((a.min(b), a.max(b)), e.span);
            self.routes.push(Route { a, b, steps, span: e.span });
        }
        self.note_provenance("route".into(), &item.notes);
    }

    pub(super) fn kind_item(&mut self, k: &ast::KindDecl, item: &ast::Item, id: KindId) {
        let mut slots = Vec::new();
        let mut back = Vec::new();
        let mut shown = Vec::new();
        let mut spans = Vec::new();
        let mut seen: HashMap<&str, Span> = HashMap::new();
        for a in &k.attrs {
            if let Some(prev) = seen.get(a.name.name.as_str()) {
                self.error(errors::attribute_declared_twice(&a.name, *prev));
                continue;
            }
            seen.insert(&a.name.name, a.name.span);
            let Some(ty) = self.type_expr(&a.ty) else { continue };
            let default = match &a.default {
                Some(v) => self.literal(v, &ty, &a.name.name).unwrap_or(Value::None),
                None => Value::None,
            };
            let attr = self.attr_id(&a.name.name);
            if a.on_back {
                back.push(attr);
            }
            if a.shown {
                shown.push(attr);
            }
            // No default and not optional: `None` marks it required.
            let required = a.default.is_none() && !matches!(ty, Type::Optional(_) | Type::Tags);
            let default = if required { Value::None } else { default_for(&ty, default) };
            slots.push((attr, ty, default));
            spans.push(a.name.span);
        }
        self.note_provenance(format!("kind {}", k.name.name), &item.notes);
        self.kinds[id].slots = slots;
        self.kinds[id].back = back;
        self.kinds[id].shown = shown;
        self.kinds[id].slot_spans = spans;
    }

    pub(super) fn zone_item(&mut self, z: &ast::ZoneDecl, item: &ast::Item, id: ZoneId) {
        self.note_provenance(format!("zone {}", z.name.name), &item.notes);
        let kind = ZoneKind::ALL.iter().find(|(n, _)| *n == z.zone_kind.name).map(|(_, k)| *k);
        let kind = match kind {
            Some(k) => k,
            None => {
                let help = help_for(&z.zone_kind.name, ZoneKind::ALL.iter().map(|(n, _)| *n));
                self.error(errors::unknown_zone_kind(&z.zone_kind, help));
                ZoneKind::Pile
            }
        };
        let index = z.index.as_ref().and_then(|i| self.lookup_class(i));
        let visibility = match &z.visible {
            None => kind.default_visibility(),
            Some(v) => match v.name.as_str() {
                "all" => Visibility::All,
                "owner" => Visibility::Owner,
                "none" | "nobody" => Visibility::Nobody,
                _ => {
                    self.error(errors::unknown_visibility(v));
                    Visibility::All
                }
            },
        };
        if visibility == Visibility::Owner && z.per_player.is_none() {
            let span = z.visible.as_ref().map_or(z.name.span, |v| v.span);
            self.error(errors::owner_without_owner(span));
        }
        let slots = match (&z.slots, kind) {
            (Some(ast::Slots::Count(n, span)), ZoneKind::Row) => {
                if *n < 1 || *n > 1000 {
                    self.error(errors::row_slots_out_of_range(*span));
                    Vec::new()
                } else {
                    (1..=*n).map(|i| i.to_string()).collect()
                }
            }
            (Some(ast::Slots::Named(names)), ZoneKind::Row) => names.iter().map(|n| n.name.clone()).collect(),
            (Some(_), _) => {
                self.error(errors::slots_on_a_non_row(z.zone_kind.span, kind.name()));
                Vec::new()
            }
            (None, ZoneKind::Row) => {
                self.error(errors::row_without_slots(z.zone_kind.span));
                Vec::new()
            }
            (None, _) => Vec::new(),
        };
        let overflow = z.overflow.as_ref().and_then(|o| match self.symbols.get(&o.name) {
            Some((Sym::Zone(target), _)) => {
                let target = *target;
                self.used.insert(Sym::Zone(target));
                Some(target)
            }
            _ => {
                let help = help_for(&o.name, self.zones.iter().map(|z| z.name.as_str()));
                self.error(errors::unknown_zone(o, help));
                None
            }
        });
        if z.overflow.is_some() && kind != ZoneKind::Row {
            let span = z.overflow.as_ref().map_or(z.name.span, |o| o.span);
            self.error(errors::overflow_on_a_non_row(span));
        }
        let zone = &mut self.zones[id];
        zone.kind = kind;
        zone.index = index;
        zone.visibility = visibility;
        zone.slots = slots;
        zone.overflow = overflow;
    }

    pub(super) fn counter_item(&mut self, cd: &ast::CounterDecl, item: &ast::Item, id: CounterId) {
        self.note_provenance(format!("counter {}", cd.name.name), &item.notes);
        let index = cd.index.as_ref().and_then(|i| self.lookup_class(i));
        let ty = match &cd.ty {
            Some(t) => self.type_expr(t).unwrap_or(Type::Int { lo: None, hi: None }),
            None => Type::Int { lo: None, hi: None },
        };
        let mut cx = Cx::new(false, "a counter's starting value");
        let (init, got) = self.value(&cd.init, &mut cx);
        let expected = ty_of(&ty);
        if !fits(&expected, &got) {
            self.type_error(cd.init.span, &expected, &got, "the starting value");
        }
        let counter = &mut self.counters[id];
        counter.index = index;
        counter.ty = ty;
        counter.init = init;
    }

    pub(super) fn piece_item(&mut self, p: &ast::PieceDecl, item: &ast::Item, id: PieceId) {
        self.note_provenance(format!("piece {}", p.name.name), &item.notes);
        if let Some(start) = self.lookup_board_place(&p.start) {
            self.pieces[id].start = start;
        }
    }

    pub(super) fn param_ty(&mut self, p: &ast::Param) -> Ty {
        match &p.ty {
            ast::ParamType::Type(t) | ast::ParamType::Among(t, _) => {
                self.type_expr(t).map_or(Ty::Unknown, |t| ty_of(&t))
            }
            ast::ParamType::In(_) => Ty::Card,
            ast::ParamType::SetOf(_) => Ty::Domain(Box::new(Ty::Card)),
        }
    }

    pub(super) fn lower_params(&mut self, params: &[ast::Param], tys: &[Ty], cx: &mut Cx) -> Vec<Param> {
        let mut out = Vec::new();
        for (p, ty) in params.iter().zip(tys) {
            let domain = match &p.ty {
                ast::ParamType::Type(t) => {
                    ParamDomain::Type(self.type_expr(t).unwrap_or(Type::Int { lo: None, hi: None }))
                }
                ast::ParamType::Among(t, e) => {
                    let t = self.type_expr(t).unwrap_or(Type::Int { lo: None, hi: None });
                    // Parameters take the first slots: what the domain
                    // binds for itself (a walk's locals) gives its slots
                    // back. The domain runs before any parameter is bound.
                    let (mark, next) = (cx.mark(), cx.next);
                    let (d, dt) = self.value(e, cx);
                    cx.reset(mark);
                    cx.next = next;
                    match (&t, &dt) {
                        (Type::Place(_), Ty::Domain(inner)) if matches!(**inner, Ty::Place(_)) => {
                            self.expect(inner, &ty_of(&t), e.span, "a parameter's `in`");
                        }
                        (_, Ty::Unknown) => {}
                        _ => self.error(errors::among_not_places(e.span)),
                    }
                    if cx.place != "an action" {
                        self.error(errors::among_outside_action(&p.name, cx.place));
                    }
                    ParamDomain::Among(t, d)
                }
                ast::ParamType::In(e) => {
                    let (z, zt) = self.value(e, cx);
                    self.expect(&zt, &Ty::Zone, e.span, "a parameter's `in`");
                    ParamDomain::In(z)
                }
                ast::ParamType::SetOf(e) => {
                    let (z, zt) = self.value(e, cx);
                    self.expect(&zt, &Ty::Zone, e.span, "a parameter's `set of`");
                    if cx.place != "an action" {
                        self.error(errors::set_parameter_outside_action(&p.name, cx.place));
                    }
                    ParamDomain::SetOf(z)
                }
            };
            if cx.lookup(&p.name.name).is_some() {
                self.error(errors::parameter_named_twice(&p.name));
            }
            self.bind(cx, &p.name, ty.clone());
            out.push(Param { name: p.name.name.clone(), domain });
        }
        out
    }

    /// The type of a let's value, lowering its body on first use.
    pub(super) fn let_type(&mut self, id: LetId) -> Ty {
        let ty = self.let_type_lowered(id);
        // Reading the let here evaluates its body this much deeper.
        let reach = self.depth + self.let_depth[id.index()];
        self.peak = self.peak.max(reach);
        if reach > MAX_EVAL_DEPTH && !self.depth_reported {
            self.depth_reported = true;
            let decl = self.let_decls[id.index()];
            self.error(errors::evaluation_too_deep(&decl.name, MAX_EVAL_DEPTH));
        }
        ty
    }

    fn let_type_lowered(&mut self, id: LetId) -> Ty {
        match &self.let_state[id.index()] {
            LetState::Done(t) => return t.clone(),
            LetState::InProgress => {
                let decl = self.let_decls[id.index()];
                self.error(errors::let_recursion(&decl.name));
                return Ty::Unknown;
            }
            LetState::Pending => {}
        }
        self.let_state[id.index()] = LetState::InProgress;
        let decl = self.let_decls[id.index()];
        let saved = self.current_procedure.take();
        let mut cx = Cx::new(true, "a let");
        let tys = self.let_param_tys[id.index()].clone();
        let params = self.lower_params(decl.params.as_deref().unwrap_or(&[]), &tys, &mut cx);
        let (start, outer_peak) = (self.depth, self.peak);
        self.peak = start;
        let (body, ty) = self.value(&decl.body, &mut cx);
        if matches!(body.kind, ExprKind::Region(..)) {
            self.error(errors::region_as_value(decl.body.span));
        }
        self.let_depth[id.index()] = self.peak - start;
        self.peak = outer_peak.max(self.peak);
        self.current_procedure = saved;
        // An earlier recursion error may have finished this let already.
        if !matches!(self.let_state[id.index()], LetState::Done(_)) {
            self.let_state[id.index()] = LetState::Done(ty.clone());
        }
        self.lets[id.index()] = Some(Let {
            name: decl.name.name.clone(),
            params,
            body,
            locals: cx.max,
            bookkeeping: decl.bookkeeping,
            span: decl.name.span,
        });
        ty
    }

    pub(super) fn procedure_item(&mut self, p: &ast::ProcedureDecl, item: &ast::Item, id: ProcedureId) {
        self.note_provenance(format!("procedure {}", p.name.name), &item.notes);
        let mut cx = Cx::new(true, "a procedure");
        let tys = self.procedure_param_tys[id.index()].clone();
        let params = self.lower_params(&p.params, &tys, &mut cx);
        self.current_procedure = Some(id);
        let stmts = self.block(&p.body, &mut cx);
        self.current_procedure = None;
        self.procedures[id.index()] = Some(Procedure {
            name: p.name.name.clone(),
            params,
            body: Body { stmts, locals: cx.max },
            span: p.name.span,
        });
    }

    pub(super) fn action_item(&mut self, a: &ast::ActionDecl, item: &ast::Item, id: ActionId) {
        self.note_provenance(format!("action {}", a.name.name), &item.notes);
        let mut cx = Cx::new(true, "an action");
        let tys: Vec<Ty> = a.params.iter().map(|p| self.param_ty(p)).collect();
        let params = self.lower_params(&a.params, &tys, &mut cx);
        for (p, ty) in a.params.iter().zip(&tys) {
            let finite = matches!(
                ty,
                Ty::Bool | Ty::Place(_) | Ty::Player | Ty::Card | Ty::Domain(_) | Ty::Unknown
            ) || matches!(&p.ty, ast::ParamType::Type(t) if matches!(t.kind, TypeKind::Range(ast::RangeLit { hi: Some(_), .. })));
            if !finite {
                self.error(errors::parameter_without_choices(&p.name));
            }
        }
        // Every legal choice is found by trying parameter values: bound how
        // many there can be, so a typo such as `1..100000000` is an error
        // here rather than an engine that fills the memory.
        let mut combinations: u128 = 1;
        let mut too_many = false;
        for (p, param) in a.params.iter().zip(&params) {
            let values = self.domain_size(&param.domain);
            if values > MAX_PARAM_VALUES
                && !(self.too_many_components
                    && matches!(param.domain, ParamDomain::In(_) | ParamDomain::SetOf(_)))
            {
                self.error(errors::too_many_values(&p.name, values, MAX_PARAM_VALUES));
                too_many = true;
            }
            combinations = combinations.saturating_mul(values.max(1));
        }
        if combinations > MAX_COMBINATIONS && !too_many && !self.too_many_components {
            self.error(errors::too_many_combinations(&a.name, combinations, MAX_COMBINATIONS));
        }
        let stmts = self.block(&a.body, &mut cx);
        self.actions[id].params = params;
        self.actions[id].body = Body { stmts, locals: cx.max };
    }

    /// How many values a parameter may take at most (a zone's: every
    /// component of the game).
    fn domain_size(&self, d: &ParamDomain) -> u128 {
        match d {
            ParamDomain::Type(Type::Int { lo: Some(lo), hi: Some(hi) }) => {
                (*hi as i128 - *lo as i128 + 1).max(0) as u128
            }
            ParamDomain::Type(Type::Bool) => 2,
            ParamDomain::Type(Type::Place(Some(c))) => self.classes[*c].places.len() as u128,
            ParamDomain::Type(Type::Place(None)) => {
                self.places.iter().filter(|p| !self.classes[p.class].enumeration).count() as u128
            }
            ParamDomain::Type(Type::Player) => MAX_PLAYERS as u128,
            ParamDomain::Type(_) => 1,
            ParamDomain::In(_) => self.components.len() as u128,
            ParamDomain::Among(t, _) => self.domain_size(&ParamDomain::Type(t.clone())),
            // Sets are bounded at run time (see `engine::MAX_SETS`); here,
            // count each component once, as for `in`.
            ParamDomain::SetOf(_) => self.components.len() as u128,
        }
    }

    pub(super) fn turns_item(&mut self, t: &ast::TurnPolicy) -> TurnPolicy {
        match t {
            ast::TurnPolicy::Clockwise { until_end_turn, .. } => {
                TurnPolicy::Clockwise { until_end_turn: *until_end_turn }
            }
            ast::TurnPolicy::LowestCounter(name) => match self.symbols.get(&name.name) {
                Some((Sym::Counter(id), _)) => {
                    let id = *id;
                    self.used.insert(Sym::Counter(id));
                    let c = &self.counters[id];
                    if !c.per_player || c.index.is_some() || !matches!(c.ty, Type::Int { .. }) {
                        self.error(errors::turn_counter_not_per_player(name, c.span));
                    }
                    TurnPolicy::LowestCounter(id)
                }
                _ => {
                    let help = help_for(&name.name, self.counters.iter().map(|c| c.name.as_str()));
                    self.error(errors::unknown_counter(name, help));
                    TurnPolicy::Clockwise { until_end_turn: false }
                }
            },
        }
    }

    pub(super) fn score_item(&mut self, s: &ast::ScoreDecl, item: &ast::Item) {
        self.note_provenance(format!("score {}", s.name.name), &item.notes);
        let mut cx = Cx::new(true, "a score");
        let mut index = None;
        if let Some(p) = &s.index {
            let ty = self.param_ty(p);
            match &ty {
                Ty::Place(Some(c)) => index = Some(*c),
                Ty::Unknown => {}
                _ => {
                    self.error(errors::score_index_not_a_class(p.name.span));
                }
            }
            self.bind(&mut cx, &p.name, ty);
        }
        let form = match &s.form {
            ast::ScoreForm::Expr(e) => {
                let (x, ty) = self.value(e, &mut cx);
                self.expect(&ty, &Ty::Int, e.span, "a score");
                ScoreForm::Expr(x)
            }
            ast::ScoreForm::Majority { measure, fields, span } => {
                let (m, ty) = self.value(measure, &mut cx);
                self.expect(&ty, &Ty::Int, measure.span, "a majority's measure");
                let get = |c: &mut Self, name: &str, required: bool| -> Expr {
                    match fields.iter().find(|f| f.name.name == name) {
                        Some(f) => c.number_field(&f.value, name),
                        None => {
                            if required {
                                c.error(errors::majority_missing_field(name, *span));
                            }
                            Expr { kind: ExprKind::Int(if name == "minimum" { 1 } else { 0 }), span: *span }
                        }
                    }
                };
                let alone = get(self, "alone", true);
                let tied = get(self, "tied", true);
                let minimum = get(self, "minimum", false);
                for f in fields {
                    if !["alone", "tied", "minimum"].contains(&f.name.name.as_str()) {
                        let help = help_for(&f.name.name, ["alone", "tied", "minimum"]);
                        self.error(errors::unknown_majority_field(&f.name, help));
                    }
                }
                ScoreForm::Majority { measure: m, alone, tied, minimum }
            }
        };
        self.scores.push(Score { name: s.name.name.clone(), index, form, locals: cx.max, span: s.name.span });
    }

    /// A number written as a literal or as the name of a number option.
    pub(super) fn number_field(&mut self, v: &ast::Value, what: &str) -> Expr {
        match &v.kind {
            ValueKind::Int(n) => Expr { kind: ExprKind::Int(*n), span: v.span },
            ValueKind::Name(n) => match self.symbols.get(n) {
                Some((Sym::Option(id), _)) if matches!(self.options[*id].value, Value::Int(_)) => {
                    let id = *id;
                    self.used.insert(Sym::Option(id));
                    Expr { kind: ExprKind::Option(id), span: v.span }
                }
                _ => {
                    let help = help_for(n, self.options.iter().map(|o| o.name.as_str()));
                    self.error(errors::number_option_expected(v.span, what, n, help));
                    Expr { kind: ExprKind::Int(0), span: v.span }
                }
            },
            _ => {
                self.error(errors::number_expected(v.span, what));
                Expr { kind: ExprKind::Int(0), span: v.span }
            }
        }
    }
}
