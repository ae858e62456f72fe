//! Statements: `require`, `let`, `set`, `move`, `draw`, loops, calls.

use model::Position;
use model::Span;
use model::*;
use rand::Rng;

use super::*;
use crate::event::Event;
use crate::state::{shuffle, State, V};
use crate::ZoneInst;

impl Interp<'_> {
    // ----------------------------------------------------------- statements

    /// Run the leading `require`s and `let`s, up to the first statement that
    /// would change the state, without touching it; the lets stay in the
    /// frame (the `require`s are passed over for a choice `listed` on
    /// this state). Returns where that statement is (the length if there
    /// is none), so a caller can go on from there on a copy.
    pub fn probe(&self, stmts: &[Stmt], st: &State, f: &mut Frame) -> R<usize> {
        for (i, s) in stmts.iter().enumerate() {
            // A listed choice met these requirements when it was listed.
            if self.listed && matches!(s.kind, StmtKind::Require { .. }) {
                continue;
            }
            if !self.pure(s, st, f)? {
                return Ok(i);
            }
        }
        Ok(stmts.len())
    }

    /// Run a `require` or a `let`, which change nothing but the frame;
    /// `Ok(false)` for any other statement, which is not run.
    #[inline]
    pub fn pure(&self, s: &Stmt, st: &State, f: &mut Frame) -> R<bool> {
        match &s.kind {
            StmtKind::Require { cond, message } => {
                if !self.bool(cond, st, f)? {
                    let reason = match message {
                        Some(m) if self.reasons => match self.first_unmet(cond, st, f)? {
                            Some(which) => format!("{m} (not met for {which})"),
                            None => m.clone(),
                        },
                        _ => String::new(),
                    };
                    return Err(Box::new(Fail::Illegal { reason, span: s.span }));
                }
            }
            StmtKind::Let { slot, value } => {
                let v = self.eval(value, st, f)?;
                f.set(*slot, v);
            }
            _ => return Ok(false),
        }
        Ok(true)
    }

    /// For a failed `require all(x in D where P)` over the places of a class
    /// or the players: the first element of D that P refuses, by name, so
    /// the message can say which (`REASON (not met for PLACE)`).
    /// Never an error of its own: what it cannot work out, it leaves out.
    fn first_unmet(&self, cond: &Expr, st: &State, f: &mut Frame) -> R<Option<String>> {
        // Compiled rules keep the condition inside.
        let cond = match &cond.kind {
            ExprKind::Native(_, inner) => &**inner,
            _ => cond,
        };
        let ExprKind::Aggregate { func: Aggregate::All, value, var, domain, filter } = &cond.kind else {
            return Ok(None);
        };
        let Some(test) = filter.as_deref().or(value.as_deref()) else { return Ok(None) };
        // Places of a class and players only: "not met for PLACE" reads
        // well; which component of a set or zone fails seldom does.
        let elements = match self.eval(domain, st, f) {
            Ok(d @ (V::Class(_) | V::Players)) => match self.elements(&d, st, domain.span) {
                Ok(e) => e,
                Err(_) => return Ok(None),
            },
            _ => return Ok(None),
        };
        for el in elements {
            f.set(*var, el);
            if let Ok(false) = self.bool(test, st, f) {
                return Ok(Some(match el {
                    V::Place(p) => self.r.places[p].name.clone(),
                    V::Player(p) => p.to_string(),
                    other => self.describe(&other),
                }));
            }
        }
        Ok(None)
    }

    pub fn exec(&mut self, stmts: &[Stmt], st: &mut State, f: &mut Frame) -> R<()> {
        for s in stmts {
            self.stmt(s, st, f)?;
        }
        Ok(())
    }

    /// Run `stmts[from..]`: with `compiled`, the compiled form of the
    /// whole list, unless a trace wants the interpreter's record.
    pub fn run(
        &mut self,
        compiled: Option<crate::native::ExecFn>,
        stmts: &[Stmt],
        from: usize,
        st: &mut State,
        f: &mut Frame,
    ) -> R<()> {
        match compiled {
            Some(run) if self.trace.is_none() => run(self, stmts, from, st, f),
            _ => self.exec(stmts.get(from..).unwrap_or_default(), st, f),
        }
    }

    /// `split`: `src`'s components dealt, in the order they lie, into
    /// `piles` of sizes as equal as can be (the first piles one more), each
    /// put under what its pile holds.
    pub fn split(&mut self, src: ZoneInst, piles: &[ZoneInst], span: Span, st: &mut State) -> R<()> {
        let cards: Vec<ComponentId> = st.cards(src).collect();
        let (n, k) = (cards.len(), piles.len());
        let mut start = 0;
        for (i, pile) in piles.iter().enumerate() {
            let size = n / k + usize::from(i < n % k);
            self.move_cards(&cards[start..start + size], *pile, Position::Bottom, span, st)?;
            start += size;
        }
        Ok(())
    }

    /// `draw`: `n` components (not negative) one at a time from `src` to
    /// `dest`: the top one, or a random one from a bag, a box or `at
    /// random`; fewer when `src` runs out.
    #[allow(clippy::too_many_arguments)]
    pub fn draw(
        &mut self,
        n: i64,
        at_random: bool,
        src: ZoneInst,
        dest: ZoneInst,
        position: Position,
        span: Span,
        st: &mut State,
    ) -> R<()> {
        let n = usize::try_from(n).unwrap_or(usize::MAX);
        let kind = self.lay.zone_kind(src);
        let random = at_random || matches!(kind, ZoneKind::Bag | ZoneKind::Box);
        if random {
            st.touch_rng();
        }
        for _ in 0..n {
            // The k-th filled slot (only rows have empty ones).
            let filled = match kind {
                ZoneKind::Row => st.count(src),
                _ => st.zones[src].len(),
            };
            if filled == 0 {
                break;
            }
            let k = if random { st.rng.gen_range(0..filled) } else { 0 };
            if kind == ZoneKind::Row {
                let card = st.cards(src).nth(k).expect("k < filled");
                self.move_cards(&[card], dest, position, span, st)?;
            } else {
                // Every slot filled: the k-th card is the k-th slot's, taken
                // out where it lies (what `move_cards` would find).
                let card = st.remove_at(src, k).expect("only rows keep empty slots");
                self.lay.tally(st, src, &[card], false);
                self.put(&[card], dest, position, span, st)?;
                self.record(|_| Event::Move { card, from: src, to: dest, at: span });
            }
        }
        Ok(())
    }

    /// `shuffle`: the zone's contents in a random order.
    pub fn shuffle_zone(&mut self, inst: ZoneInst, span: Span, st: &mut State) {
        // A zone of one or none stays shared with the state it was
        // copied from (copy on write).
        if st.zones[inst].len() > 1 {
            st.touch_rng();
            st.touch_zone(inst);
            shuffle(&mut st.zones[inst][..], &mut st.rng);
        }
        self.record(|_| Event::Shuffle { zone: inst, at: span });
    }

    /// Run one statement (compiled statements run those they leave to the
    /// interpreter this way).
    pub fn stmt(&mut self, s: &Stmt, st: &mut State, f: &mut Frame) -> R<()> {
        // Let values remembered on the state as it was hold until the
        // first statement that changes it (a compound statement changes
        // nothing by itself: what it runs says).
        if self.memo.is_some()
            && !matches!(
                s.kind,
                StmtKind::Require { .. }
                    | StmtKind::Let { .. }
                    | StmtKind::If { .. }
                    | StmtKind::For { .. }
                    | StmtKind::Repeat { .. }
                    | StmtKind::Do { .. }
                    | StmtKind::ByPlayers { .. }
            )
        {
            self.memo = None;
        }
        match &s.kind {
            StmtKind::Require { .. } | StmtKind::Let { .. } => {
                self.pure(s, st, f)?;
            }
            StmtKind::Set { target, value } => {
                let v = self.eval(value, st, f)?;
                self.assign(target, v, s.span, st, f)?;
            }
            StmtKind::Advance { target, by } => {
                let n = self.int(by, st, f)?;
                let old = self.int(target, st, f)?;
                self.assign(target, V::Int(old.saturating_add(n)), s.span, st, f)?;
            }
            StmtKind::Move { what, position, to } => {
                let dest = self.zone_inst(to, st, f)?;
                let cards = self.select(what, st, f)?;
                self.move_picked(cards, dest, *position, s.span, st)?;
            }
            StmtKind::Draw { count, at_random, from, position, to } => {
                let n = self.int(count, st, f)?;
                if n < 0 {
                    return rule(count.span, format!("`draw` of a negative count ({n})"));
                }
                let src = self.zone_inst(from, st, f)?;
                let dest = self.zone_inst(to, st, f)?;
                self.draw(n, *at_random, src, dest, *position, s.span, st)?;
            }
            StmtKind::Shuffle(z) => {
                let inst = self.zone_inst(z, st, f)?;
                self.shuffle_zone(inst, s.span, st);
            }
            StmtKind::Ask { player, action } => {
                let p = self.player(player, st, f)?;
                st.touch_wide();
                st.asks.push((p, *action));
                self.record(|_| Event::Ask { player: p, action: *action, at: s.span });
            }
            StmtKind::EndTurn => {
                st.touch_wide();
                st.turn_ended = true;
            }
            StmtKind::ShufflePlayers => {
                st.touch_wide();
                shuffle(&mut st.order, &mut st.rng);
                // The first in the new order is on top of the starting stack.
                let n = st.order.len() as u64;
                for (i, p) in st.order.clone().into_iter().enumerate() {
                    st.arrival[p.index()] = st.tick + n - i as u64;
                }
                st.tick += n;
                let order = st.order.clone();
                self.record(|_| Event::PlayerOrder { order, at: s.span });
            }
            StmtKind::Split { from, into } => {
                let src = self.zone_inst(from, st, f)?;
                let mut piles = Vec::new();
                for z in into {
                    piles.push(self.zone_inst(z, st, f)?);
                }
                self.split(src, &piles, s.span, st)?;
            }
            StmtKind::Reveal { zone, to } => {
                let inst = self.zone_inst(zone, st, f)?;
                let player = match self.eval(to, st, f)? {
                    V::Player(p) => p,
                    other => {
                        return rule(
                            to.span,
                            format!("`reveal` shows a zone to a player, not {}", self.describe(&other)),
                        )
                    }
                };
                self.record(|_| Event::Reveal {
                    zone: inst,
                    player,
                    cards: st.cards(inst).collect(),
                    at: s.span,
                });
            }
            StmtKind::If { cond, then, otherwise } => {
                if self.bool(cond, st, f)? {
                    self.exec(then, st, f)?;
                } else {
                    self.exec(otherwise, st, f)?;
                }
            }
            StmtKind::For { var, domain, body } if Self::is_region(domain) => {
                let places = self.places_of(domain, st, f)?;
                self.spend(places.len() as u64, s.span)?;
                for p in places.iter().copied() {
                    f.set(*var, V::Place(p));
                    self.exec(body, st, f)?;
                }
            }
            StmtKind::For { var, domain, body } => {
                let d = self.eval(domain, st, f)?;
                let (list, n) = self.for_domain(&d, st, f, domain.span)?;
                self.spend(n as u64, s.span)?;
                for i in 0..n {
                    let item = self.for_item(&d, list.as_deref(), i, st);
                    f.set(*var, item);
                    self.exec(body, st, f)?;
                }
            }
            StmtKind::Repeat { cond, body } => {
                let mut n = 0;
                while self.bool(cond, st, f)? {
                    n += 1;
                    self.spend(1, s.span)?;
                    if n > MAX_LOOP {
                        return Err(too_many_repeats(s.span));
                    }
                    self.exec(body, st, f)?;
                }
            }
            StmtKind::Do { procedure, args } => {
                self.spend(1, s.span)?;
                let r = self.r;
                let mut inner = Frame::new(f.me);
                for (i, a) in args.iter().enumerate() {
                    let v = self.eval(a, st, f)?;
                    inner.set(i, v);
                }
                let compiled = self.procedures.get(procedure.index()).copied();
                self.run(compiled, &r.procedures[*procedure].body.stmts, 0, st, &mut inner)?;
            }
            StmtKind::ByPlayers { cases } => {
                let n = self.lay.players as u32;
                if let Some((_, body)) = cases.iter().find(|(counts, _)| counts.contains(&n)) {
                    self.exec(body, st, f)?;
                }
            }
        }
        Ok(())
    }

    /// What a `for` goes through, and how many: the players and the
    /// places of a class by position (no list); anything else listed
    /// first, since the body may move what it goes through.
    pub fn for_domain(&self, d: &V, st: &State, f: &Frame, span: Span) -> R<(Option<Vec<V>>, usize)> {
        let n = match d {
            V::Players | V::PlayersFrom(_) => self.lay.players,
            V::Class(c) => self.r.classes[*c].places.len(),
            _ => 0,
        };
        if n > 0 {
            return Ok((None, n));
        }
        let items: Vec<V> = match d {
            V::Set(s) => f.set_items(*s).iter().map(|c| V::Card(*c)).collect(),
            _ => self.elements(d, st, span)?,
        };
        let n = items.len();
        Ok((Some(items), n))
    }

    /// The `i`-th (below `for_domain`'s count) of what a `for` goes
    /// through.
    #[inline]
    pub fn for_item(&self, d: &V, list: Option<&[V]>, i: usize, st: &State) -> V {
        match (list, d) {
            (Some(items), _) => items[i],
            (None, V::Class(c)) => V::Place(self.r.classes[*c].places[i]),
            _ => st.player_at(d, i),
        }
    }

    pub fn assign(&mut self, target: &Expr, v: V, span: Span, st: &mut State, f: &mut Frame) -> R<()> {
        match &target.kind {
            ExprKind::Counter { counter, player, .. } => {
                let inst = self.counter_inst(target, st, f)?;
                let p = self.player_opt(player.as_deref(), st, f)?;
                self.set_counter_at(*counter, p, inst, v, span, st);
                Ok(())
            }
            ExprKind::Piece { piece, player } => {
                let p = self.player_opt(player.as_deref(), st, f)?;
                let to = match v {
                    V::Place(to) => to,
                    other => {
                        return rule(span, format!("a piece moves to a place, not {}", self.describe(&other)))
                    }
                };
                self.set_piece_at(*piece, p, to, span, st);
                Ok(())
            }
            _ => rule(span, "only counters and pieces can change"),
        }
    }

    /// Counter instance `inst` (of `counter`, `player`'s) set to `v`, and
    /// the event when it changed: `assign` once it has found the instance,
    /// as compiled statements find it themselves.
    pub fn set_counter_at(
        &mut self,
        counter: CounterId,
        player: Option<PlayerId>,
        inst: usize,
        v: V,
        span: Span,
        st: &mut State,
    ) {
        let old = st.set_counter(inst, v);
        if old != v {
            self.record(|me| Event::Counter {
                counter,
                player,
                place: me.counter_place(counter, inst),
                from: old,
                to: v,
                at: span,
            });
        }
    }

    /// `player`'s `piece` moved to `to`, and the event when it moved: as
    /// `set_counter_at`, for a piece.
    pub fn set_piece_at(
        &mut self,
        piece: PieceId,
        player: Option<PlayerId>,
        to: PlaceId,
        span: Span,
        st: &mut State,
    ) {
        let from = st.set_piece(self.lay.piece(piece, player), to);
        if from != to {
            self.record(|_| Event::Piece { piece, player, from, to, at: span });
        }
    }

    /// The place a counter instance of a per-place counter belongs to.
    pub(super) fn counter_place(&self, counter: CounterId, inst: usize) -> Option<PlaceId> {
        let class = self.r.counters[counter].index?;
        let places = &self.r.classes[class].places;
        let base = self.lay.counter(counter, None, None);
        places.get((inst - base) % places.len().max(1)).copied()
    }

    /// Components a selection picks, in the order they lie.
    pub(super) fn select(&self, sel: &Selection, st: &State, f: &mut Frame) -> R<Vec<ComponentId>> {
        match sel {
            Selection::One(e) => match self.eval(e, st, f)? {
                V::Card(c) => {
                    let mut out = self.take_picked();
                    out.push(c);
                    Ok(out)
                }
                other => rule(e.span, format!("expected a component, found {}", self.describe(&other))),
            },
            Selection::All { var, domain, filter } | Selection::First { var, domain, filter } => {
                let first_only = matches!(sel, Selection::First { .. });
                let mut out = self.take_picked();
                // A filter that opens with `c has t` (`c` the component
                // picked, `t` a tag) passes no component without `t`: such
                // a one is passed over without binding it or reading the
                // rest of the filter, which `and` would not read either
                // (nothing reads `c` after the move: the checker sees to
                // that). Compiled moves screen so too.
                let screen = filter.as_ref().and_then(|flt| leading_tag(flt, *var));
                let mut pick = |c: ComponentId, f: &mut Frame| -> R<bool> {
                    if let Some(t) = screen {
                        if !self.r.components[c].tags.contains(&t) {
                            return Ok(false);
                        }
                    }
                    f.set(*var, V::Card(c));
                    let pass = match filter {
                        Some(flt) => self.bool(flt, st, f)?,
                        None => true,
                    };
                    if pass {
                        out.push(c);
                    }
                    Ok(pass && first_only)
                };
                match &domain.kind {
                    // A set a player chose: read one at a time from the
                    // frame, which the filter may bind locals of (an
                    // action's sets stay as they are while it runs).
                    ExprKind::Local(_) => match self.eval(domain, st, f)? {
                        V::Set(s) => {
                            let mut i = 0;
                            while let Some(&c) = f.set_items(s).get(i) {
                                i += 1;
                                if pick(c, f)? {
                                    break;
                                }
                            }
                        }
                        V::Zone(z) => {
                            for c in st.cards(z) {
                                if pick(c, f)? {
                                    break;
                                }
                            }
                        }
                        other => {
                            return rule(domain.span, format!("cannot go through {}", self.describe(&other)))
                        }
                    },
                    _ => {
                        for c in st.cards(self.zone_inst(domain, st, f)?) {
                            if pick(c, f)? {
                                break;
                            }
                        }
                    }
                }
                Ok(out)
            }
        }
    }
}

/// The tag `t` of a filter that is `c has t` or opens with `c has t and`,
/// `c` being local `var` (a compiled filter read through its root).
fn leading_tag(flt: &Expr, var: usize) -> Option<TagId> {
    let e = crate::native::unwrap_root(flt);
    let test = match &e.kind {
        ExprKind::Binary(BinaryOp::And, first, _) => first,
        _ => e,
    };
    match &test.kind {
        ExprKind::Binary(BinaryOp::Has, x, t) if super::fast::is_var(x, var) => match t.kind {
            ExprKind::Tag(tag) => Some(tag),
            _ => None,
        },
        _ => None,
    }
}
