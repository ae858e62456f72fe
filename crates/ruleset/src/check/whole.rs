//! Whole-ruleset checks: reachability and distances, recursion, the items
//! every game needs, and what is never used.

use super::*;

impl<'f> Checker<'f> {
    /// All-pairs distances, and an error for every place no route reaches.
    pub(super) fn reachability(&mut self) -> Vec<Vec<Option<u32>>> {
        let n = self.places.len();
        let mut adj: Vec<Vec<(usize, u32)>> = vec![Vec::new(); n];
        for r in &self.routes {
            adj[r.a.index()].push((r.b.index(), r.steps));
            adj[r.b.index()].push((r.a.index(), r.steps));
        }
        let dist: Vec<Vec<Option<u32>>> = (0..n).map(|s| dijkstra(&adj, s)).collect();
        if n > 1 && !self.broken_route && (!self.routes.is_empty() || !self.pieces.is_empty()) {
            let start = self.pieces.first().map_or(PlaceId::default(), |p| p.start);
            let start_name = self.places[start].name.clone();
            // A class no route touches at all is likely not on the board
            // (colours, kinds of treasure): one error for it, which says so.
            let routed: Vec<ClassId> =
                self.routes.iter().flat_map(|r| [self.places[r.a].class, self.places[r.b].class]).collect();
            let mut told: Vec<ClassId> = Vec::new();
            for (id, d) in dist[start.index()].iter().enumerate() {
                let class = self.places[id].class;
                // A grid's cells are joined by `around`, not by routes.
                let grid = self.classes[class].grid.is_some();
                if d.is_some() || self.classes[class].enumeration || grid || told.contains(&class) {
                    continue;
                }
                let p = &self.places[id];
                let (name, span) = (p.name.clone(), p.span);
                if routed.contains(&class) || self.places[start].class == class {
                    self.error(errors::unreachable(span, &name, &start_name));
                } else {
                    told.push(class);
                    let c = &self.classes[class];
                    let names: Vec<&str> = c.places.iter().map(|p| self.places[*p].name.as_str()).collect();
                    let d = errors::class_off_the_board(span, &c.name, &names, &start_name);
                    self.error(d);
                }
            }
        }
        dist
    }

    /// Procedures that call themselves, directly or through others, and
    /// chains of calls deeper than the engine runs (`MAX_CALL_CHAIN`). A
    /// depth-first walk with its own stack: a chain of thousands of
    /// procedures must not exhaust the checker's.
    pub(super) fn procedure_recursion(&mut self) {
        let n = self.procedure_calls.len();
        // 0 = unvisited, 1 = on the stack, 2 = done.
        let mut state = vec![0u8; n];
        // The longest chain of calls starting at each finished procedure.
        let mut chain = vec![1usize; n];
        let mut too_long = false;
        for start in ProcedureId::all(n) {
            if state[start.index()] != 0 {
                continue;
            }
            state[start.index()] = 1;
            let mut stack = vec![(start, 0usize)];
            while let Some((id, next)) = stack.last_mut() {
                let (id, i) = (*id, *next);
                *next += 1;
                match self.procedure_calls[id.index()].get(i).copied() {
                    Some((callee, span)) => match state[callee.index()] {
                        1 => {
                            let name = self.procedures[callee.index()]
                                .as_ref()
                                .map_or(String::new(), |p| p.name.clone());
                            self.error(errors::procedure_recursion(span, &name));
                        }
                        0 => {
                            state[callee.index()] = 1;
                            stack.push((callee, 0));
                        }
                        _ => {}
                    },
                    None => {
                        state[id.index()] = 2;
                        stack.pop();
                        let deepest = self.procedure_calls[id.index()]
                            .iter()
                            .filter(|(c, _)| state[c.index()] == 2)
                            .map(|(c, _)| chain[c.index()])
                            .max()
                            .unwrap_or(0);
                        chain[id.index()] = deepest + 1;
                        if chain[id.index()] > MAX_CALL_CHAIN && !too_long {
                            too_long = true;
                            if let Some(p) = &self.procedures[id.index()] {
                                let (name, span) = (p.name.clone(), p.span);
                                self.error(errors::call_chain_too_long(span, &name, MAX_CALL_CHAIN));
                            }
                        }
                    }
                }
            }
        }
    }

    /// `end turn` and `until end turn` go together; somebody must be able
    /// to start a turn.
    pub(super) fn turn_structure(&mut self, policy: &TurnPolicy, decl: &ast::TurnPolicy) {
        let span = match decl {
            ast::TurnPolicy::LowestCounter(c) => c.span,
            ast::TurnPolicy::Clockwise { span, .. } => *span,
        };
        let until_end = matches!(policy, TurnPolicy::Clockwise { until_end_turn: true });
        if until_end && self.ends_turn.is_empty() {
            self.error(errors::turn_never_ends(span));
        }
        if !until_end {
            if let Some(at) = self.ends_turn.first() {
                self.error(errors::end_turn_without_policy(*at));
            }
        }
        if !self.actions.is_empty() && self.actions.iter().all(|a| a.asked) {
            let at = self.actions[0].span;
            self.error(errors::only_asked_actions(at));
        }
    }

    pub(super) fn required_items(&mut self, file: &ast::File, has_turns: bool, has_end: bool) {
        if self.quiet {
            return;
        }
        let start = Span::new(0, 0);
        if file.items.is_empty() {
            self.error(errors::empty_file(start));
            return;
        }
        let at = file.items.first().map_or(start, head_span);
        if self.game.is_none() {
            self.error(errors::missing_game(at));
        }
        if !has_turns {
            self.error(errors::missing_turns(at));
        }
        if !has_end {
            self.error(errors::missing_end(at));
        }
        // An action or score whose name clashes with another item is
        // already reported as defined twice: it is not missing.
        let written = |f: fn(&ast::ItemKind) -> bool| file.items.iter().any(|i| f(&i.kind));
        if self.actions.is_empty() && !written(|k| matches!(k, ast::ItemKind::Action(_))) {
            self.error(errors::no_actions(at));
        }
        if self.scores.is_empty() && !written(|k| matches!(k, ast::ItemKind::Score(_))) {
            self.error(errors::no_score(at));
        }
    }

    /// A let of a player (or of a player and a place) is shown to players
    /// by `play` and written to the log: that is a use.
    pub(super) fn displayed(&self, sym: Sym) -> bool {
        let Sym::Let(id) = sym else { return false };
        let tys = &self.let_param_tys[id.index()];
        matches!(tys.as_slice(), [Ty::Player] | [Ty::Player, Ty::Place(Some(_))])
    }

    pub(super) fn unused(&mut self) {
        let mut found: Vec<(Span, String, &'static str)> = Vec::new();
        for (name, (sym, span)) in &self.symbols {
            let check = matches!(
                sym,
                Sym::Option(_)
                    | Sym::Kind(_)
                    | Sym::Group(_)
                    | Sym::Zone(_)
                    | Sym::Counter(_)
                    | Sym::Piece(_)
                    | Sym::Table(_)
                    | Sym::Let(_)
                    | Sym::Procedure(_)
            );
            if check && !self.used.contains(sym) && !self.displayed(*sym) {
                found.push((*span, name.clone(), sym.noun()));
            }
        }
        found.sort_by_key(|(s, _, _)| s.start);
        for (span, name, noun) in found {
            let help = match noun {
                "component group" => "move its components into a zone in `setup`, or delete it",
                "option" => "use it in a rule, or delete it",
                _ => "use it, or delete it",
            };
            self.diags.push(errors::unused(span, noun, &name, help));
        }
    }
}

impl Checker<'_> {
    /// A row the setup fills with a fixed number of components other than
    /// its slots (`zone display: row slots 5` while setup still draws 4):
    /// the rules play on with a slot that never fills, or cards that do not
    /// fit. A warning: a ruleset may mean it, but an edition that changed
    /// only the slots usually forgot the draw.
    pub(super) fn row_fill(&mut self, stmts: &[model::Stmt]) {
        for s in stmts {
            match &s.kind {
                model::StmtKind::Draw { count, to, .. } => {
                    let (model::ExprKind::Int(n), model::ExprKind::Zone { zone, .. }) =
                        (&count.kind, &to.kind)
                    else {
                        continue;
                    };
                    let z = &self.zones[*zone];
                    let slots = z.slots.len() as i64;
                    if z.kind == model::ZoneKind::Row && slots > 0 && *n != slots {
                        let span = Span { start: count.span.start, end: to.span.end, file: count.span.file };
                        let d = errors::row_fill(span, &z.name, slots, *n, z.span);
                        self.diags.push(d);
                    }
                }
                model::StmtKind::If { then, otherwise, .. } => {
                    self.row_fill(then);
                    self.row_fill(otherwise);
                }
                model::StmtKind::ByPlayers { cases } => {
                    for (_, body) in cases {
                        self.row_fill(body);
                    }
                }
                _ => {}
            }
        }
    }
}

pub(super) fn dijkstra(adj: &[Vec<(usize, u32)>], source: usize) -> Vec<Option<u32>> {
    use std::cmp::Reverse;
    use std::collections::BinaryHeap;
    let mut dist: Vec<Option<u32>> = vec![None; adj.len()];
    let mut heap = BinaryHeap::new();
    dist[source] = Some(0);
    heap.push(Reverse((0u32, source)));
    while let Some(Reverse((d, u))) = heap.pop() {
        if dist[u].is_some_and(|best| d > best) {
            continue;
        }
        for &(v, w) in &adj[u] {
            let nd = d.saturating_add(w);
            if dist[v].is_none_or(|best| nd < best) {
                dist[v] = Some(nd);
                heap.push(Reverse((nd, v)));
            }
        }
    }
    dist
}

pub(super) fn head_span(item: &ast::Item) -> Span {
    // The first line of an item is enough to point at.
    Span::in_file(item.span.file, item.span.start, item.span.start + 1)
}
