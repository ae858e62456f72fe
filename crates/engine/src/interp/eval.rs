//! Expressions: values, numbers and yes/no, each with a fast path for
//! leaves and the common shapes.

use model::Span;
use model::*;
use model::{BinaryOp, UnaryOp};

use super::*;
use crate::state::{State, ZoneInst, V};

impl Interp<'_> {
    // ---------------------------------------------------------- expressions

    /// Evaluate an expression. Leaves (literals, locals, `me`) are answered
    /// here, inlined into the caller; the rest in `eval_node`, whose call
    /// costs more than a leaf's whole work.
    #[inline]
    pub fn eval(&self, e: &Expr, st: &State, f: &mut Frame) -> R<V> {
        match &e.kind {
            ExprKind::Int(n) => Ok(V::Int(*n)),
            ExprKind::Bool(b) => Ok(V::Bool(*b)),
            ExprKind::Local(slot) => Ok(f.get(*slot)),
            ExprKind::Me => match f.me {
                Some(p) => Ok(V::Player(p)),
                None => self.eval_node(e, st, f),
            },
            ExprKind::Tag(t) => Ok(V::Tag(*t)),
            ExprKind::Place(p) => Ok(V::Place(*p)),
            _ => self.eval_node(e, st, f),
        }
    }

    pub(super) fn eval_node(&self, e: &Expr, st: &State, f: &mut Frame) -> R<V> {
        use BinaryOp as B;
        // Each arm gives its result itself, and a call's result is this
        // function's: no value goes through a common temporary on its way
        // out, copied in pieces (see `V`'s note on store forwarding).
        match &e.kind {
            ExprKind::Int(n) => Ok(V::Int(*n)),
            ExprKind::Bool(b) => Ok(V::Bool(*b)),
            ExprKind::Text(t) => Ok(V::Text(crate::state::text(t))),
            ExprKind::None => Ok(V::None),
            ExprKind::Local(slot) => Ok(f.get(*slot)),
            ExprKind::Me => match f.me {
                Some(p) => Ok(V::Player(p)),
                None => rule(e.span, "`me` used where nobody is acting"),
            },
            ExprKind::PlayerCount => Ok(V::Int(self.lay.players as i64)),
            ExprKind::Players => Ok(V::Players),
            ExprKind::PlayersFrom(who) => Ok(V::PlayersFrom(self.player(who, st, f)?)),
            ExprKind::Class(c) => Ok(V::Class(*c)),
            ExprKind::Option(id) => Ok(V::from_value(&self.r.options[*id].value)),
            ExprKind::Place(p) => Ok(V::Place(*p)),
            ExprKind::Tag(t) => Ok(V::Tag(*t)),
            ExprKind::Group(g) => Ok(V::Zone(self.lay.group(*g))),
            ExprKind::Zone { .. } => Ok(V::Zone(self.zone_inst(e, st, f)?)),
            ExprKind::Counter { .. } => Ok(st.counters[self.counter_inst(e, st, f)?]),
            ExprKind::Piece { piece, player } => {
                let p = self.player_opt(player.as_deref(), st, f)?;
                Ok(V::Place(st.pieces[self.lay.piece(*piece, p)]))
            }
            ExprKind::Attr { card, attr } => {
                let c = match self.eval(card, st, f)? {
                    V::Card(c) => c,
                    other => {
                        return rule(
                            e.span,
                            format!("reading an attribute of {}, not a component", self.describe(&other)),
                        )
                    }
                };
                if let Some(v) = self.attrs.get(c.index() * self.attr_empty.len() + attr.index()) {
                    return Ok(*v);
                }
                Ok(attr_value(self.r, self.attr_empty, c, *attr))
            }
            ExprKind::Let { id, args } => match self.consts.get(id.index()) {
                Some(Some(v)) => Ok(*v),
                _ => self.call(*id, args, e, st, f, Self::eval),
            },
            ExprKind::Aggregate { func, value, var, domain, filter } => {
                match self.site(e, *func, domain, st, f)? {
                    Some(v) => Ok(v),
                    None => self.aggregate(*func, value.as_deref(), *var, domain, filter.as_deref(), st, f),
                }
            }
            ExprKind::If(c, a, b) => {
                if self.bool(c, st, f)? {
                    self.eval(a, st, f)
                } else {
                    self.eval(b, st, f)
                }
            }
            ExprKind::PlaceFn(func, args) => self.place_fn(*func, args, st, f),
            ExprKind::Region(..) => rule(e.span, "a set of places is gone through, not kept"),
            ExprKind::Native(..) => self.native(e, st, f, <V as super::AsV>::MODE),
            // Numbers and yes/no have their own paths, without a `V` per part.
            ExprKind::MapGet { .. }
            | ExprKind::Table { .. }
            | ExprKind::Builtin(..)
            | ExprKind::Unary(UnaryOp::Neg, _)
            | ExprKind::Binary(B::Add | B::Sub | B::Mul | B::Div | B::Rem, _, _) => {
                Ok(V::Int(self.int(e, st, f)?))
            }
            ExprKind::Unary(UnaryOp::Not, _) | ExprKind::Binary(..) => Ok(V::Bool(self.bool(e, st, f)?)),
        }
    }

    /// A let's value: its body, as `value` evaluates it, in a frame of its
    /// arguments (evaluated in the caller's frame).
    pub(super) fn call<T: super::AsV>(
        &self,
        id: LetId,
        args: &[Expr],
        site: &Expr,
        st: &State,
        f: &mut Frame,
        value: impl Fn(&Self, &Expr, &State, &mut Frame) -> R<T>,
    ) -> R<T> {
        let body = &self.r.lets[id].body;
        self.spend(1, body.span)?;
        // With a memo, the arguments are the key: looked up before any
        // frame is made.
        let mut key = [V::None; super::MEMO_ARGS];
        let memo = match self.memo {
            Some(memo) if args.len() <= super::MEMO_ARGS => {
                for (k, a) in key.iter_mut().zip(args) {
                    *k = self.eval(a, st, f)?;
                }
                // A set stands for its frame's list: not a key.
                let usable = !key.iter().any(|v| matches!(v, V::Set(_))) && memo.borrow().serves(f.me);
                if usable {
                    if let Some(v) = memo.borrow().get(id, T::MODE, &key, args.len()).and_then(T::from_v) {
                        return Ok(v);
                    }
                }
                Some(usable.then_some(memo))
            }
            _ => None,
        };
        let mut inner = Frame::new(f.me);
        match memo {
            Some(_) => {
                for (i, v) in key.iter().take(args.len()).enumerate() {
                    inner.set(i, *v);
                }
            }
            None => {
                for (i, a) in args.iter().enumerate() {
                    let v = self.eval(a, st, f)?;
                    inner.set(i, v);
                }
            }
        }
        if let Some(Some(memo)) = memo {
            if self.notes_calls(id) {
                return self
                    .noted_call(memo, id, key, args.len(), inner, |it, f| T::eval_in(it, body, st, f));
            }
        }
        let v = match self.trace {
            None => value(self, body, st, &mut inner)?,
            Some(_) => self.call_traced(id, args.len(), site, st, &mut inner, value)?,
        };
        if let Some(Some(memo)) = memo {
            memo.borrow_mut().put(id, T::MODE, key, args.len(), v.as_v());
        }
        Ok(v)
    }

    /// A value read as a number (`none` counts as 0).
    #[inline]
    fn to_int(&self, v: V, span: Span) -> R<i64> {
        match v {
            V::Int(n) => Ok(n),
            V::None => Ok(0),
            other => rule(span, format!("expected a number, found {}", self.describe(&other))),
        }
    }

    #[inline]
    pub(super) fn to_bool(&self, v: V, span: Span) -> R<bool> {
        match v {
            V::Bool(b) => Ok(b),
            other => rule(span, format!("expected yes/no, found {}", self.describe(&other))),
        }
    }

    /// A compiled root's value (`crate::native`). When a trace wants its
    /// record, the interpreter's instead, read as the caller reads it
    /// (`mode`, as `AsV::MODE`: a let read as a number is traced as one).
    /// Kept out of line: the tree walkers that reach it stay as small as
    /// without compiled rules.
    #[inline(never)]
    pub(crate) fn native(&self, e: &Expr, st: &State, f: &mut Frame, mode: u8) -> R<V> {
        let ExprKind::Native(i, inner) = &e.kind else { return self.eval_node(e, st, f) };
        match self.natives.get(*i as usize) {
            Some(native) if self.trace.is_none() => native(self, &crate::native::Root::Given(inner), st, f),
            _ if mode == <i64 as super::AsV>::MODE => Ok(V::Int(self.int(inner, st, f)?)),
            _ if mode == <bool as super::AsV>::MODE => Ok(V::Bool(self.bool(inner, st, f)?)),
            _ => self.eval(inner, st, f),
        }
    }

    /// A let's value for arguments already worked out (compiled rules call
    /// lets this way): as `call` asking for a value, the memo included.
    pub fn call_values(&self, id: LetId, args: &[V], st: &State, f: &Frame) -> R<V> {
        if let Some(Some(v)) = self.consts.get(id.index()) {
            return Ok(*v);
        }
        let body = &self.r.lets[id].body;
        self.spend(1, body.span)?;
        let mut key = [V::None; super::MEMO_ARGS];
        let memo = match self.memo {
            Some(memo) if args.len() <= super::MEMO_ARGS => {
                key[..args.len()].copy_from_slice(args);
                let usable = !args.iter().any(|v| matches!(v, V::Set(_))) && memo.borrow().serves(f.me);
                if usable {
                    if let Some(v) = memo.borrow().get(id, <V as super::AsV>::MODE, &key, args.len()) {
                        return Ok(v);
                    }
                }
                usable.then_some(memo)
            }
            _ => None,
        };
        let mut inner = Frame::new(f.me);
        for (i, v) in args.iter().enumerate() {
            inner.set(i, *v);
        }
        if let Some(memo) = memo {
            if self.notes_calls(id) {
                return self.noted_call(memo, id, key, args.len(), inner, |it, f| it.eval(body, st, f));
            }
        }
        let v = self.eval(body, st, &mut inner)?;
        if let Some(memo) = memo {
            memo.borrow_mut().put(id, <V as super::AsV>::MODE, key, args.len(), v);
        }
        Ok(v)
    }

    /// The rest of `call` when the trace is on (`explain`): kept out of the
    /// way of the untraced path, which every let call takes in play.
    #[cold]
    #[inline(never)]
    fn call_traced<T: super::AsV>(
        &self,
        id: LetId,
        arity: usize,
        site: &Expr,
        st: &State,
        inner: &mut Frame,
        value: impl Fn(&Self, &Expr, &State, &mut Frame) -> R<T>,
    ) -> R<T> {
        let given: Vec<V> = (0..arity).map(|i| inner.peek(i).copied().unwrap_or(V::None)).collect();
        let v = value(self, &self.r.lets[id].body, st, inner)?;
        if let Some(trace) = self.trace {
            trace.borrow_mut().push(super::Traced {
                what: super::TracedKind::Let(id, given),
                value: v.as_v(),
                at: site.span,
            });
        }
        Ok(v)
    }

    /// Evaluate a number (`none` counts as 0). Leaves inline, as `eval`.
    #[inline]
    pub fn int(&self, e: &Expr, st: &State, f: &mut Frame) -> R<i64> {
        match &e.kind {
            ExprKind::Int(n) => Ok(*n),
            ExprKind::Local(slot) => match f.peek(*slot) {
                Some(V::Int(n)) => Ok(*n),
                _ => self.int_node(e, st, f),
            },
            _ => self.int_node(e, st, f),
        }
    }

    pub(super) fn int_node(&self, e: &Expr, st: &State, f: &mut Frame) -> R<i64> {
        use BinaryOp as B;
        let v = match &e.kind {
            ExprKind::Int(n) => return Ok(*n),
            ExprKind::Binary(op @ (B::Add | B::Sub | B::Mul | B::Div | B::Rem), a, b) => {
                let x = self.int(a, st, f)?;
                let y = self.int(b, st, f)?;
                return arith(*op, x, y, e.span);
            }
            ExprKind::Unary(UnaryOp::Neg, x) => return Ok(self.int(x, st, f)?.saturating_neg()),
            ExprKind::Local(slot) => match f.peek(*slot) {
                Some(V::Int(n)) => return Ok(*n),
                Some(V::None) | None => return Ok(0),
                Some(other) => *other,
            },
            ExprKind::Counter { .. } => match &st.counters[self.counter_inst(e, st, f)?] {
                V::Int(n) => return Ok(*n),
                V::None => return Ok(0),
                other => *other,
            },
            ExprKind::Let { id, args } => match self.consts.get(id.index()) {
                Some(Some(V::Int(n))) => return Ok(*n),
                _ => return self.call(*id, args, e, st, f, Self::int),
            },
            ExprKind::If(c, a, b) => {
                return if self.bool(c, st, f)? { self.int(a, st, f) } else { self.int(b, st, f) };
            }
            ExprKind::Table { table, keys } => return self.table(*table, keys, e.span, st, f),
            ExprKind::Builtin(b, args) => return self.builtin(*b, args, e.span, st, f),
            ExprKind::Native(..) => self.native(e, st, f, <i64 as super::AsV>::MODE)?,
            ExprKind::MapGet { map, key } => {
                let m = self.eval(map, st, f)?;
                let k = self.eval(key, st, f)?;
                return match (m, k) {
                    (V::Map(c, slot), V::Place(p)) => match &self.r.components[c].values[slot as usize] {
                        Value::Map(entries) => {
                            Ok(entries.iter().find(|(q, _)| *q == p).map_or(0, |(_, n)| *n))
                        }
                        _ => Ok(0),
                    },
                    (V::None, _) => Ok(0),
                    _ => rule(e.span, "a map is read with a place"),
                };
            }
            _ => self.eval(e, st, f)?,
        };
        self.to_int(v, e.span)
    }

    /// `bool` of an expression the engine itself asks for once a step
    /// (the end condition after each action): a compiled root's function
    /// called directly, without the tree walker's dispatch; any other
    /// expression, or a value other than a yes/no, as `bool`.
    #[inline]
    pub(crate) fn bool_root(&self, e: &Expr, st: &State, f: &mut Frame) -> R<bool> {
        if let ExprKind::Native(i, inner) = &e.kind {
            if let Some(native) = self.natives.get(*i as usize).filter(|_| self.trace.is_none()) {
                if let V::Bool(b) = native(self, &crate::native::Root::Given(inner), st, f)? {
                    return Ok(b);
                }
            }
        }
        self.bool(e, st, f)
    }

    /// Evaluate a yes/no. Leaves inline, as `eval`.
    #[inline]
    pub fn bool(&self, e: &Expr, st: &State, f: &mut Frame) -> R<bool> {
        match &e.kind {
            ExprKind::Bool(b) => Ok(*b),
            ExprKind::Local(slot) => match f.peek(*slot) {
                Some(V::Bool(b)) => Ok(*b),
                _ => self.bool_node(e, st, f),
            },
            _ => self.bool_node(e, st, f),
        }
    }

    pub(super) fn bool_node(&self, e: &Expr, st: &State, f: &mut Frame) -> R<bool> {
        use BinaryOp as B;
        let v = match &e.kind {
            ExprKind::Bool(b) => return Ok(*b),
            ExprKind::Binary(op, a, b) => {
                return Ok(match op {
                    // `c has t and ...` (a filter's first test): the
                    // component's tags read here.
                    B::And => match self.card_has(a, f) {
                        Some(has) => has && self.bool(b, st, f)?,
                        None => self.bool(a, st, f)? && self.bool(b, st, f)?,
                    },
                    // `not flag or ...` (a `require` of an option the
                    // player may take): the flag read here.
                    B::Or => match not_flag(a, f) {
                        Some(not) => not || self.bool(b, st, f)?,
                        None => self.bool(a, st, f)? || self.bool(b, st, f)?,
                    },
                    B::Eq => self.eval(a, st, f)?.same(&self.eval(b, st, f)?),
                    B::Ne => !self.eval(a, st, f)?.same(&self.eval(b, st, f)?),
                    B::Has => {
                        let tag = self.tag(b, st, f)?;
                        match self.eval(a, st, f)? {
                            V::Card(c) => self.r.components[c].tags.contains(&tag),
                            V::Zone(z) => st.cards(z).any(|c| self.r.components[c].tags.contains(&tag)),
                            V::None => false,
                            other => {
                                return rule(
                                    a.span,
                                    format!(
                                        "`has` needs a component or a zone, found {}",
                                        self.describe(&other)
                                    ),
                                )
                            }
                        }
                    }
                    B::Lt | B::Le | B::Gt | B::Ge => {
                        let x = self.int(a, st, f)?;
                        let y = self.int(b, st, f)?;
                        match op {
                            B::Lt => x < y,
                            B::Le => x <= y,
                            B::Gt => x > y,
                            _ => x >= y,
                        }
                    }
                    B::Add | B::Sub | B::Mul | B::Div | B::Rem => {
                        return rule(e.span, "expected yes/no, found a number")
                    }
                });
            }
            ExprKind::Unary(UnaryOp::Not, x) => return Ok(!self.bool(x, st, f)?),
            ExprKind::Native(..) => self.native(e, st, f, <bool as super::AsV>::MODE)?,
            ExprKind::Local(slot) => match f.peek(*slot) {
                Some(V::Bool(b)) => return Ok(*b),
                Some(other) => *other,
                None => V::None,
            },
            ExprKind::Let { id, args } => match self.consts.get(id.index()) {
                Some(Some(V::Bool(b))) => return Ok(*b),
                _ => return self.call(*id, args, e, st, f, Self::bool),
            },
            ExprKind::If(c, a, b) => {
                return if self.bool(c, st, f)? { self.bool(a, st, f) } else { self.bool(b, st, f) };
            }
            _ => self.eval(e, st, f)?,
        };
        self.to_bool(v, e.span)
    }

    /// `c has t` of a local `c` holding a component and a tag written
    /// out: whether it has it, read without a call into the tree walk
    /// (`bool_node`'s `and`); `None` for anything else, which the walk
    /// answers.
    #[inline(always)]
    fn card_has(&self, e: &Expr, f: &Frame) -> Option<bool> {
        let ExprKind::Binary(BinaryOp::Has, x, t) = &e.kind else { return None };
        let (ExprKind::Local(slot), ExprKind::Tag(tag)) = (&x.kind, &t.kind) else { return None };
        match f.peek(*slot) {
            Some(V::Card(c)) => Some(self.r.components[*c].tags.contains(tag)),
            _ => None,
        }
    }

    /// Evaluate a tag.
    pub(super) fn tag(&self, e: &Expr, st: &State, f: &mut Frame) -> R<TagId> {
        match &e.kind {
            ExprKind::Tag(t) => Ok(*t),
            _ => match self.eval(e, st, f)? {
                V::Tag(t) => Ok(t),
                other => rule(e.span, format!("expected a tag, found {}", self.describe(&other))),
            },
        }
    }

    pub(super) fn table(
        &self,
        table: TableId,
        keys: &[Expr],
        span: Span,
        st: &State,
        f: &mut Frame,
    ) -> R<i64> {
        let mut ks = [0i64; 4];
        let mut spilled = Vec::new();
        let ks: &mut [i64] = if keys.len() <= ks.len() {
            &mut ks[..keys.len()]
        } else {
            spilled.resize(keys.len(), 0);
            &mut spilled
        };
        let t = &self.r.tables[table];
        for ((k, e), dim) in ks.iter_mut().zip(keys).zip(&t.dims) {
            *k = match dim.class {
                // An enumeration's value reads as its position.
                Some(c) => match self.eval(e, st, f)? {
                    V::Place(p) => {
                        self.r.classes[c].places.iter().position(|q| *q == p).map_or(-1, |i| i as i64)
                    }
                    other => return rule(e.span, format!("a table index, not {}", self.describe(&other))),
                },
                None => self.int(e, st, f)?,
            };
        }
        match t.get(ks) {
            Some(v) => {
                if self.trace.is_some() {
                    self.trace_table(table, ks, v, span);
                }
                Ok(v)
            }
            None => {
                let dims: Vec<String> =
                    t.dims.iter().map(|d| format!("{} {}..{}", d.name, d.lo, d.hi)).collect();
                let at: Vec<String> = ks.iter().map(i64::to_string).collect();
                rule(
                    span,
                    format!("table `{}` has no entry at {} ({})", t.name, at.join(", "), dims.join(", ")),
                )
            }
        }
    }

    /// Note a table entry read (`explain`), out of the way of play.
    #[cold]
    #[inline(never)]
    fn trace_table(&self, table: TableId, keys: &[i64], v: i64, span: Span) {
        if let Some(trace) = self.trace {
            let what = super::TracedKind::Table(table, keys.to_vec());
            trace.borrow_mut().push(super::Traced { what, value: V::Int(v), at: span });
        }
    }

    /// `count`, `sum`, `min`, `max`, `any`, `all` and `first` over a domain.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn aggregate(
        &self,
        func: Aggregate,
        value: Option<&Expr>,
        var: usize,
        domain: &Expr,
        filter: Option<&Expr>,
        st: &State,
        f: &mut Frame,
    ) -> R<V> {
        // A set of places worked out now: listed first.
        let region = match Self::is_region(domain) {
            true => Some(self.places_of(domain, st, f)?),
            false => None,
        };
        let d = match region {
            Some(_) => V::None,
            None => self.eval(domain, st, f)?,
        };
        let places = region.as_deref().unwrap_or(&[]);
        let len = match &d {
            _ if region.is_some() => places.len(),
            V::Players | V::PlayersFrom(_) => self.lay.players,
            V::Class(c) => self.r.classes[*c].places.len(),
            V::Zone(z) => st.zones[*z].len(),
            V::Set(s) => f.set_items(*s).len(),
            other => return rule(domain.span, format!("cannot go through {}", self.describe(other))),
        };
        self.spend(len as u64, domain.span)?;
        // A filter of tests of the component, without the tree walk: worth
        // reading into tests for more than a few components.
        if let (V::Zone(z), FAST_FROM..) = (d, len) {
            if let Some(plan) = self.fast_plan(var, value, filter, f) {
                if let Some(v) = self.fast_aggregate(&plan, func, &st.zones[z]) {
                    return Ok(v);
                }
            }
        }
        // `any(x in D where x == y)`, `y` another local: whether `D`
        // holds `y`, without the tree walk at each member.
        if let (Aggregate::Any, None, Some(y)) =
            (func, value, filter.and_then(|flt| crate::native::member_of(flt, var).map(|(y, _)| y)))
        {
            let y = f.get(y);
            let holds = match &d {
                _ if region.is_some() => places.iter().any(|p| V::Place(*p).same(&y)),
                V::Zone(z) => st.zones[*z].iter().flatten().any(|c| V::Card(*c).same(&y)),
                _ => (0..len).any(|i| match &d {
                    V::Players | V::PlayersFrom(_) => st.player_at(&d, i).same(&y),
                    V::Class(c) => V::Place(self.r.classes[*c].places[i]).same(&y),
                    V::Set(s) => f.set_items(*s).get(i).is_some_and(|c| V::Card(*c).same(&y)),
                    _ => false,
                }),
            };
            // The member's local is the aggregate's own: nothing reads it
            // after (the checker's scopes), so it is left unbound.
            return Ok(V::Bool(holds));
        }
        let mut tally = Tally::default();
        for i in 0..len {
            let item = match &d {
                _ if region.is_some() => match places.get(i) {
                    Some(p) => V::Place(*p),
                    None => continue,
                },
                V::Players | V::PlayersFrom(_) => st.player_at(&d, i),
                V::Class(c) => V::Place(self.r.classes[*c].places[i]),
                V::Zone(z) => match st.zones[*z][i] {
                    Some(c) => V::Card(c),
                    None => continue,
                },
                V::Set(s) => match f.set_items(*s).get(i) {
                    Some(c) => V::Card(*c),
                    None => continue,
                },
                _ => unreachable!("checked above"),
            };
            f.set(var, item);
            if let Some(flt) = filter {
                let pass = self.bool(flt, st, f)?;
                match func {
                    Aggregate::All if !pass => return Ok(V::Bool(false)),
                    Aggregate::Any if pass => return Ok(V::Bool(true)),
                    _ => {}
                }
                if !pass {
                    continue;
                }
            }
            if func == Aggregate::First {
                return Ok(f.get(var));
            }
            let n = match value {
                Some(v) => Some(self.int(v, st, f)?),
                None => None,
            };
            tally.add(func, n);
        }
        Ok(tally.result(func))
    }

    /// Evaluate an optional expression that must give a player or a place.
    pub(super) fn optional<T>(
        &self,
        e: Option<&Expr>,
        st: &State,
        f: &mut Frame,
        what: &str,
        pick: impl Fn(&V) -> Option<T>,
    ) -> R<Option<T>> {
        let Some(e) = e else { return Ok(None) };
        let v = self.eval(e, st, f)?;
        match pick(&v) {
            Some(x) => Ok(Some(x)),
            None => rule(e.span, format!("expected {what}, found {}", self.describe(&v))),
        }
    }

    /// A player that must be one (`ask P`, `players from P`): `none` is a
    /// rule error naming the expression.
    pub(super) fn player(&self, e: &Expr, st: &State, f: &mut Frame) -> R<PlayerId> {
        match self.player_opt(Some(e), st, f)? {
            Some(p) => Ok(p),
            None => rule(e.span, "this is `none`, not a player"),
        }
    }

    pub(super) fn player_opt(&self, e: Option<&Expr>, st: &State, f: &mut Frame) -> R<Option<PlayerId>> {
        // `me.time` and `p.time` are the commonest reads of all: no detour
        // through `eval`.
        match (e.map(|e| &e.kind), f.me) {
            (None, _) => return Ok(None),
            (Some(ExprKind::Me), Some(p)) => return Ok(Some(p)),
            (Some(ExprKind::Local(slot)), _) => {
                if let Some(V::Player(p)) = f.peek(*slot) {
                    return Ok(Some(*p));
                }
            }
            _ => {}
        }
        self.optional(e, st, f, "a player", |v| if let V::Player(p) = v { Some(*p) } else { None })
    }

    pub(super) fn place_opt(&self, e: Option<&Expr>, st: &State, f: &mut Frame) -> R<Option<PlaceId>> {
        match e.map(|e| &e.kind) {
            None => return Ok(None),
            Some(ExprKind::Local(slot)) => {
                if let Some(V::Place(p)) = f.peek(*slot) {
                    return Ok(Some(*p));
                }
            }
            _ => {}
        }
        self.optional(e, st, f, "a place", |v| if let V::Place(p) = v { Some(*p) } else { None })
    }

    /// The zone instance a zone expression names.
    pub fn zone_inst(&self, e: &Expr, st: &State, f: &mut Frame) -> R<ZoneInst> {
        match &e.kind {
            ExprKind::Zone { zone, player, index } => {
                let p = self.player_opt(player.as_deref(), st, f)?;
                let place = self.place_opt(index.as_deref(), st, f)?;
                if let Some(place) = place {
                    let class = self.r.zones[*zone].index;
                    if class != Some(self.r.places[place].class) {
                        return rule(
                            e.span,
                            format!("`{}` is not a place of this zone's class", self.r.places[place].name),
                        );
                    }
                    return Ok(self.read_zone(self.lay.zone(*zone, p, Some(place))));
                }
                Ok(self.lay.zone(*zone, p, None))
            }
            _ => match self.eval(e, st, f)? {
                V::Zone(z) => Ok(z),
                other => rule(e.span, format!("expected a zone, found {}", self.describe(&other))),
            },
        }
    }

    pub(super) fn counter_inst(&self, e: &Expr, st: &State, f: &mut Frame) -> R<usize> {
        match &e.kind {
            ExprKind::Counter { counter, player, index } => {
                let p = self.player_opt(player.as_deref(), st, f)?;
                let place = self.place_opt(index.as_deref(), st, f)?;
                let c = self.lay.counter(*counter, p, place);
                Ok(if place.is_some() { self.read_counter(c) } else { c })
            }
            _ => rule(e.span, "not a counter"),
        }
    }

    /// What a domain value goes through.
    pub fn elements(&self, d: &V, st: &State, span: Span) -> R<Vec<V>> {
        Ok(match d {
            V::Players | V::PlayersFrom(_) => (0..self.lay.players).map(|i| st.player_at(d, i)).collect(),
            V::Class(c) => self.r.classes[*c].places.iter().map(|p| V::Place(*p)).collect(),
            V::Zone(z) => st.cards(*z).map(V::Card).collect(),
            other => return rule(span, format!("cannot go through {}", self.describe(other))),
        })
    }

    pub(super) fn builtin(&self, b: Builtin, args: &[Expr], span: Span, st: &State, f: &mut Frame) -> R<i64> {
        Ok(match b {
            Builtin::Min | Builtin::Max => {
                let mut best: Option<i64> = None;
                for a in args {
                    let n = self.int(a, st, f)?;
                    best = Some(match best {
                        None => n,
                        Some(x) if b == Builtin::Min => x.min(n),
                        Some(x) => x.max(n),
                    });
                }
                best.unwrap_or(0)
            }
            Builtin::Abs => self.int(&args[0], st, f)?.saturating_abs(),
            Builtin::X | Builtin::Y => self.coordinate(b, &args[0], st, f)?,
            Builtin::Distance => {
                let a = self.eval(&args[0], st, f)?;
                let b2 = self.eval(&args[1], st, f)?;
                match (a, b2) {
                    (V::Place(a), V::Place(b2)) => match self.r.distance(a, b2) {
                        Some(d) => d as i64,
                        None => return rule(span, "no route joins these places"),
                    },
                    _ => return rule(span, "distance is between two places"),
                }
            }
            // A row's slots, fixed by its declaration (0 for other zones).
            Builtin::Slots => {
                let z = self.zone_inst(&args[0], st, f)?;
                match self.lay.instance(z).source {
                    Ok(id) => self.r.zones[id].slots.len() as i64,
                    Err(_) => 0,
                }
            }
            Builtin::Count => match &args[0].kind {
                ExprKind::Local(_) => match self.eval(&args[0], st, f)? {
                    V::Set(s) => f.set_items(s).len() as i64,
                    V::Zone(z) => self.count(z, st) as i64,
                    other => return rule(span, format!("cannot count {}", self.describe(&other))),
                },
                _ => {
                    let z = self.zone_inst(&args[0], st, f)?;
                    self.count(z, st) as i64
                }
            },
        })
    }
}

/// What an aggregate has gathered so far: how many passed, the sum of
/// their values, the least or most (`aggregate`, and `fast`'s loop).
#[derive(Default)]
pub(super) struct Tally {
    count: i64,
    /// The sum, wrapping, and how many times it wrapped (up: +1, down:
    /// -1): exact together (`interp::summed` clamps it).
    sum: i64,
    wraps: i64,
    best: Option<i64>,
}

impl Tally {
    /// One more that passed, with its value if the aggregate has one.
    #[inline]
    pub(super) fn add(&mut self, func: Aggregate, value: Option<i64>) {
        self.count += 1;
        if let Some(n) = value {
            let (sum, wrapped) = self.sum.overflowing_add(n);
            self.sum = sum;
            if wrapped {
                self.wraps += if n < 0 { -1 } else { 1 };
            }
            self.best = Some(match (func, self.best) {
                (Aggregate::Min, Some(b)) => b.min(n),
                (Aggregate::Max, Some(b)) => b.max(n),
                _ => n,
            });
        }
    }

    /// The aggregate's value once every component has been seen (`any`,
    /// `all` and `first` that stopped early give theirs before).
    pub(super) fn result(&self, func: Aggregate) -> V {
        match func {
            Aggregate::Count => V::Int(self.count),
            Aggregate::Sum => V::Int(super::summed(self.sum, self.wraps)),
            Aggregate::Min | Aggregate::Max => V::Int(self.best.unwrap_or(0)),
            Aggregate::All => V::Bool(true),
            Aggregate::Any => V::Bool(false),
            Aggregate::First => V::None,
        }
    }
}

/// Component `c`'s value of attribute `attr`, as `c.attr` reads it: a map
/// as `V::Map`, an attribute its kind lacks as `attr_empty` gives it (what
/// `Program::attrs` holds for every component and attribute). Out of
/// line: with the table, the tree walk never calls it.
#[inline(never)]
pub(crate) fn attr_value(r: &Ruleset, attr_empty: &[V], c: ComponentId, attr: AttrId) -> V {
    let comp = &r.components[c];
    match r.kinds[comp.kind].slot_of(attr) {
        Some(slot) => match &comp.values[slot] {
            Value::Map(_) => V::Map(c, slot as u32),
            v => V::from_value(v),
        },
        None => attr_empty[attr.index()],
    }
}

/// Per attribute, the value it reads as on a component whose kind lacks
/// it: 0 for numbers, `false` for flags, `none` otherwise.
pub(crate) fn attr_empty(rules: &Ruleset) -> Vec<V> {
    AttrId::all(rules.attr_names.len())
        .map(|a| {
            let ty =
                rules.kinds.iter().find_map(|k| k.slots.iter().find(|(id, _, _)| *id == a).map(|s| &s.1));
            match ty {
                Some(Type::Int { .. }) => V::Int(0),
                Some(Type::Bool) => V::Bool(false),
                _ => V::None,
            }
        })
        .collect()
}

/// `not x` of a local `x` holding yes/no: its value, read without a call
/// into the tree walk (`bool_node`'s `or`).
#[inline(always)]
fn not_flag(e: &Expr, f: &Frame) -> Option<bool> {
    let ExprKind::Unary(UnaryOp::Not, x) = &e.kind else { return None };
    let ExprKind::Local(slot) = x.kind else { return None };
    match f.peek(slot) {
        Some(V::Bool(b)) => Some(!*b),
        _ => None,
    }
}
