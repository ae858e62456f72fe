//! The interpreter: evaluates the model's expressions and runs its
//! statements against a state. It knows the language, not any game.

use model::Span;
use model::*;
use model::{BinaryOp, Position, UnaryOp};
use rand::Rng;

use crate::event::Event;
use crate::state::{Layout, State, ZoneInst, V};

/// Why running rules stopped.
#[derive(Clone, Debug, PartialEq)]
pub enum Fail {
    /// A `require` did not hold: the action is not legal. `reason` is the
    /// `else` text, or empty.
    Illegal { reason: String, span: Span },
    /// The rules cannot go on (a table read outside its range, a full row,
    /// a loop that never ends). A checked ruleset can still do this at run
    /// time; the action is refused and the state is untouched.
    Rule { message: String, span: Span },
}

impl Fail {
    pub fn span(&self) -> Span {
        match self {
            Fail::Illegal { span, .. } | Fail::Rule { span, .. } => *span,
        }
    }

    pub fn message(&self) -> &str {
        match self {
            Fail::Illegal { reason, .. } => reason,
            Fail::Rule { message, .. } => message,
        }
    }
}

/// Results inside the interpreter carry their failure boxed: every
/// expression returns one, and a small `Result` is cheaper to pass back.
pub type R<T> = Result<T, Box<Fail>>;

impl From<Box<Fail>> for Fail {
    fn from(b: Box<Fail>) -> Fail {
        *b
    }
}

fn rule<T>(span: Span, message: impl Into<String>) -> R<T> {
    Err(Box::new(Fail::Rule { message: message.into(), span }))
}

/// Arithmetic on numbers: saturating, division rounding down.
fn arith(op: BinaryOp, x: i64, y: i64, span: Span) -> R<i64> {
    use BinaryOp as B;
    Ok(match op {
        B::Add => x.saturating_add(y),
        B::Sub => x.saturating_sub(y),
        B::Mul => x.saturating_mul(y),
        B::Div | B::Rem if y == 0 => return rule(span, "division by zero"),
        B::Div => x.div_euclid(y) - if y < 0 && x.rem_euclid(y) != 0 { 1 } else { 0 },
        B::Rem => x - y * (x.div_euclid(y) - if y < 0 && x.rem_euclid(y) != 0 { 1 } else { 0 }),
        _ => return rule(span, format!("`{}` is not arithmetic", op.symbol())),
    })
}

/// How often `repeat while` may loop before the engine calls it endless.
pub const MAX_LOOP: usize = 100_000;

/// How many locals a frame keeps inline, without allocating: a let or
/// procedure call happens thousands of times per turn.
const INLINE: usize = 8;

/// One call's locals and whose turn it is.
#[derive(Clone)]
pub struct Frame {
    pub me: Option<PlayerId>,
    inline: [V; INLINE],
    spill: Vec<V>,
}

impl Frame {
    pub fn new(me: Option<PlayerId>) -> Frame {
        Frame { me, inline: std::array::from_fn(|_| V::None), spill: Vec::new() }
    }

    /// A frame holding these values in its first slots.
    pub fn with(me: Option<PlayerId>, values: Vec<V>) -> Frame {
        let mut f = Frame::new(me);
        for (i, v) in values.into_iter().enumerate() {
            f.set(i, v);
        }
        f
    }

    pub fn get(&self, slot: usize) -> V {
        if slot < INLINE {
            self.inline[slot]
        } else {
            self.spill.get(slot - INLINE).cloned().unwrap_or(V::None)
        }
    }

    /// A local slot's value, without a copy (`None`: never bound).
    #[inline]
    pub fn peek(&self, slot: usize) -> Option<&V> {
        if slot < INLINE {
            Some(&self.inline[slot])
        } else {
            self.spill.get(slot - INLINE)
        }
    }

    /// Bind a local slot; expressions evaluated on their own (the end
    /// condition, a counter's start) get their slots as they bind them.
    pub fn set(&mut self, slot: usize, v: V) {
        if slot < INLINE {
            self.inline[slot] = v;
        } else {
            let i = slot - INLINE;
            if i >= self.spill.len() {
                self.spill.resize(i + 1, V::None);
            }
            self.spill[i] = v;
        }
    }
}

/// Rules plus layout: everything needed to interpret, nothing that changes.
pub struct Interp<'a> {
    pub r: &'a Ruleset,
    pub lay: &'a Layout,
    /// The value an attribute reads as on a component whose kind lacks it.
    pub attr_empty: &'a [V],
    /// Per let: its value, when it is fixed for the whole game (see
    /// `TrialPlan::constant_lets`); worked out once at setup.
    pub consts: &'a [Option<V>],
    /// Where to record what happens; `None` while trying actions.
    pub events: Option<Vec<Event>>,
    /// Whether a failing `require` carries its message (a legality trial
    /// only asks whether, thousands of times a turn).
    pub reasons: bool,
}

impl<'a> Interp<'a> {
    fn record(&mut self, e: impl FnOnce(&Self) -> Event) {
        if self.events.is_some() {
            let event = e(self);
            if let Some(events) = self.events.as_mut() {
                events.push(event);
            }
        }
    }

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

    fn eval_node(&self, e: &Expr, st: &State, f: &mut Frame) -> R<V> {
        use BinaryOp as B;
        Ok(match &e.kind {
            ExprKind::Int(n) => V::Int(*n),
            ExprKind::Bool(b) => V::Bool(*b),
            ExprKind::Text(t) => V::Text(crate::state::text(t)),
            ExprKind::None => V::None,
            ExprKind::Local(slot) => f.get(*slot),
            ExprKind::Me => match f.me {
                Some(p) => V::Player(p),
                None => return rule(e.span, "`me` used where nobody is acting"),
            },
            ExprKind::PlayerCount => V::Int(self.lay.players as i64),
            ExprKind::Players => V::Players,
            ExprKind::Class(c) => V::Class(*c),
            ExprKind::Option(id) => V::from_value(&self.r.options[*id].value),
            ExprKind::Place(p) => V::Place(*p),
            ExprKind::Tag(t) => V::Tag(*t),
            ExprKind::Group(g) => V::Zone(self.lay.group(*g)),
            ExprKind::Zone { .. } => V::Zone(self.zone_inst(e, st, f)?),
            ExprKind::Counter { .. } => st.counters[self.counter_inst(e, st, f)?],
            ExprKind::Piece { piece, player } => {
                let p = self.player_opt(player.as_deref(), st, f)?;
                V::Place(st.pieces[self.lay.piece(*piece, p)])
            }
            ExprKind::Attr { card, attr } => {
                let c = match self.eval(card, st, f)? {
                    V::Card(c) => c,
                    other => {
                        return rule(e.span, format!("reading an attribute of {other:?}, not a component"))
                    }
                };
                let comp = &self.r.components[c];
                match self.r.kinds[comp.kind].slot_of(*attr) {
                    Some(slot) => match &comp.values[slot] {
                        Value::Map(_) => V::Map(c, slot),
                        v => V::from_value(v),
                    },
                    None => self.attr_empty[attr.index()],
                }
            }
            ExprKind::Let { id, args } => match self.consts.get(id.index()) {
                Some(Some(v)) => *v,
                _ => self.call(*id, args, st, f, Self::eval)?,
            },
            ExprKind::Aggregate { func, value, var, domain, filter } => {
                self.aggregate(*func, value.as_deref(), *var, domain, filter.as_deref(), st, f)?
            }
            ExprKind::If(c, a, b) => {
                if self.bool(c, st, f)? {
                    self.eval(a, st, f)?
                } else {
                    self.eval(b, st, f)?
                }
            }
            // Numbers and yes/no have their own paths, without a `V` per part.
            ExprKind::MapGet { .. }
            | ExprKind::Table { .. }
            | ExprKind::Builtin(..)
            | ExprKind::Unary(UnaryOp::Neg, _)
            | ExprKind::Binary(B::Add | B::Sub | B::Mul | B::Div | B::Rem, _, _) => {
                V::Int(self.int(e, st, f)?)
            }
            ExprKind::Unary(UnaryOp::Not, _) | ExprKind::Binary(..) => V::Bool(self.bool(e, st, f)?),
        })
    }

    /// A let's value: its body, as `value` evaluates it, in a frame of its
    /// arguments (evaluated in the caller's frame).
    fn call<T>(
        &self,
        id: LetId,
        args: &[Expr],
        st: &State,
        f: &mut Frame,
        value: impl Fn(&Self, &Expr, &State, &mut Frame) -> R<T>,
    ) -> R<T> {
        let mut inner = Frame::new(f.me);
        for (i, a) in args.iter().enumerate() {
            let v = self.eval(a, st, f)?;
            inner.set(i, v);
        }
        value(self, &self.r.lets[id].body, st, &mut inner)
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

    fn int_node(&self, e: &Expr, st: &State, f: &mut Frame) -> R<i64> {
        use BinaryOp as B;
        let v = match &e.kind {
            ExprKind::Int(n) => return Ok(*n),
            ExprKind::Binary(op @ (B::Add | B::Sub | B::Mul | B::Div | B::Rem), a, b) => {
                let x = self.int(a, st, f)?;
                let y = self.int(b, st, f)?;
                return arith(*op, x, y, e.span);
            }
            ExprKind::Unary(UnaryOp::Neg, x) => return Ok(-self.int(x, st, f)?),
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
                _ => return self.call(*id, args, st, f, Self::int),
            },
            ExprKind::If(c, a, b) => {
                return if self.bool(c, st, f)? { self.int(a, st, f) } else { self.int(b, st, f) };
            }
            ExprKind::Table { table, keys } => return self.table(*table, keys, e.span, st, f),
            ExprKind::Builtin(b, args) => return self.builtin(*b, args, e.span, st, f),
            ExprKind::MapGet { map, key } => {
                let m = self.eval(map, st, f)?;
                let k = self.eval(key, st, f)?;
                return match (m, k) {
                    (V::Map(c, slot), V::Place(p)) => match &self.r.components[c].values[slot] {
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
        match v {
            V::Int(n) => Ok(n),
            V::None => Ok(0),
            other => rule(e.span, format!("expected a number, found {other:?}")),
        }
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

    fn bool_node(&self, e: &Expr, st: &State, f: &mut Frame) -> R<bool> {
        use BinaryOp as B;
        let v = match &e.kind {
            ExprKind::Bool(b) => return Ok(*b),
            ExprKind::Binary(op, a, b) => {
                return Ok(match op {
                    B::And => self.bool(a, st, f)? && self.bool(b, st, f)?,
                    B::Or => self.bool(a, st, f)? || self.bool(b, st, f)?,
                    B::Eq => self.eval(a, st, f)? == self.eval(b, st, f)?,
                    B::Ne => self.eval(a, st, f)? != self.eval(b, st, f)?,
                    B::Has => {
                        let tag = self.tag(b, st, f)?;
                        match self.eval(a, st, f)? {
                            V::Card(c) => self.r.components[c].tags.contains(&tag),
                            V::Zone(z) => st.cards(z).any(|c| self.r.components[c].tags.contains(&tag)),
                            V::None => false,
                            other => {
                                return rule(
                                    a.span,
                                    format!("`has` needs a component or a zone, found {other:?}"),
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
            ExprKind::Local(slot) => match f.peek(*slot) {
                Some(V::Bool(b)) => return Ok(*b),
                Some(other) => *other,
                None => V::None,
            },
            ExprKind::Let { id, args } => match self.consts.get(id.index()) {
                Some(Some(V::Bool(b))) => return Ok(*b),
                _ => return self.call(*id, args, st, f, Self::bool),
            },
            ExprKind::If(c, a, b) => {
                return if self.bool(c, st, f)? { self.bool(a, st, f) } else { self.bool(b, st, f) };
            }
            _ => self.eval(e, st, f)?,
        };
        match v {
            V::Bool(b) => Ok(b),
            other => rule(e.span, format!("expected yes/no, found {other:?}")),
        }
    }

    /// Evaluate a tag.
    fn tag(&self, e: &Expr, st: &State, f: &mut Frame) -> R<TagId> {
        match &e.kind {
            ExprKind::Tag(t) => Ok(*t),
            _ => match self.eval(e, st, f)? {
                V::Tag(t) => Ok(t),
                other => rule(e.span, format!("expected a tag, found {other:?}")),
            },
        }
    }

    fn table(&self, table: TableId, keys: &[Expr], span: Span, st: &State, f: &mut Frame) -> R<i64> {
        let mut ks = [0i64; 4];
        let mut spilled = Vec::new();
        let ks: &mut [i64] = if keys.len() <= ks.len() {
            &mut ks[..keys.len()]
        } else {
            spilled.resize(keys.len(), 0);
            &mut spilled
        };
        for (k, e) in ks.iter_mut().zip(keys) {
            *k = self.int(e, st, f)?;
        }
        let t = &self.r.tables[table];
        match t.get(ks) {
            Some(v) => Ok(v),
            None => {
                let dims: Vec<String> =
                    t.dims.iter().map(|d| format!("{} {}..{}", d.name, d.lo, d.hi)).collect();
                rule(span, format!("table `{}` has no entry at {:?} ({})", t.name, ks, dims.join(", ")))
            }
        }
    }

    /// `count`, `sum`, `min`, `max`, `any`, `all` and `first` over a domain.
    #[allow(clippy::too_many_arguments)]
    fn aggregate(
        &self,
        func: Aggregate,
        value: Option<&Expr>,
        var: usize,
        domain: &Expr,
        filter: Option<&Expr>,
        st: &State,
        f: &mut Frame,
    ) -> R<V> {
        let d = self.eval(domain, st, f)?;
        let len = match &d {
            V::Players => self.lay.players,
            V::Class(c) => self.r.classes[*c].places.len(),
            V::Zone(z) => st.zones[*z].len(),
            other => return rule(domain.span, format!("cannot go through {other:?}")),
        };
        // `c has t` with `t` fixed for the whole loop: read `t` once and
        // test each component's tags directly.
        let tag_filter = match filter.map(|x| &x.kind).filter(|_| matches!(d, V::Zone(_))) {
            Some(ExprKind::Binary(BinaryOp::Has, a, b))
                if matches!(a.kind, ExprKind::Local(v) if v == var)
                    && matches!(b.kind, ExprKind::Tag(_) | ExprKind::Local(_))
                    && !matches!(b.kind, ExprKind::Local(v) if v == var) =>
            {
                Some(self.tag(b, st, f)?)
            }
            _ => None,
        };
        let mut count = 0i64;
        let mut sum = 0i64;
        let mut best: Option<i64> = None;
        for i in 0..len {
            let item = match &d {
                V::Players => V::Player(PlayerId::new(i)),
                V::Class(c) => V::Place(self.r.classes[*c].places[i]),
                V::Zone(z) => match st.zones[*z][i] {
                    Some(c) => {
                        if let Some(t) = tag_filter {
                            let pass = self.r.components[c].tags.contains(&t);
                            match func {
                                Aggregate::All if !pass => return Ok(V::Bool(false)),
                                Aggregate::Any if pass => return Ok(V::Bool(true)),
                                Aggregate::Count if pass => {
                                    count += 1;
                                    continue;
                                }
                                _ => {}
                            }
                            if !pass {
                                continue;
                            }
                        }
                        V::Card(c)
                    }
                    None => continue,
                },
                _ => unreachable!("checked above"),
            };
            f.set(var, item);
            if let (Some(flt), None) = (filter, tag_filter) {
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
            count += 1;
            if let Some(v) = value {
                let n = self.int(v, st, f)?;
                sum += n;
                best = Some(match (func, best) {
                    (Aggregate::Min, Some(b)) => b.min(n),
                    (Aggregate::Max, Some(b)) => b.max(n),
                    _ => n,
                });
            }
        }
        Ok(match func {
            Aggregate::Count => V::Int(count),
            Aggregate::Sum => V::Int(sum),
            Aggregate::Min | Aggregate::Max => V::Int(best.unwrap_or(0)),
            Aggregate::All => V::Bool(true),
            Aggregate::Any => V::Bool(false),
            Aggregate::First => V::None,
        })
    }

    /// Evaluate an optional expression that must give a player or a place.
    fn optional<T>(
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
            None => rule(e.span, format!("expected {what}, found {v:?}")),
        }
    }

    fn player_opt(&self, e: Option<&Expr>, st: &State, f: &mut Frame) -> R<Option<PlayerId>> {
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

    fn place_opt(&self, e: Option<&Expr>, st: &State, f: &mut Frame) -> R<Option<PlaceId>> {
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
                }
                Ok(self.lay.zone(*zone, p, place))
            }
            _ => match self.eval(e, st, f)? {
                V::Zone(z) => Ok(z),
                other => rule(e.span, format!("expected a zone, found {other:?}")),
            },
        }
    }

    fn counter_inst(&self, e: &Expr, st: &State, f: &mut Frame) -> R<usize> {
        match &e.kind {
            ExprKind::Counter { counter, player, index } => {
                let p = self.player_opt(player.as_deref(), st, f)?;
                let place = self.place_opt(index.as_deref(), st, f)?;
                Ok(self.lay.counter(*counter, p, place))
            }
            _ => rule(e.span, "not a counter"),
        }
    }

    /// What a domain value goes through.
    pub fn elements(&self, d: &V, st: &State, span: Span) -> R<Vec<V>> {
        Ok(match d {
            V::Players => PlayerId::all(self.lay.players).map(V::Player).collect(),
            V::Class(c) => self.r.classes[*c].places.iter().map(|p| V::Place(*p)).collect(),
            V::Zone(z) => st.cards(*z).map(V::Card).collect(),
            other => return rule(span, format!("cannot go through {other:?}")),
        })
    }

    fn builtin(&self, b: Builtin, args: &[Expr], span: Span, st: &State, f: &mut Frame) -> R<i64> {
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
            Builtin::Abs => self.int(&args[0], st, f)?.abs(),
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
            Builtin::Count => {
                let z = self.zone_inst(&args[0], st, f)?;
                st.count(z) as i64
            }
        })
    }

    // ----------------------------------------------------------- statements

    /// Run the leading `require`s and `let`s, up to the first statement that
    /// would change the state, without touching it; the lets stay in the
    /// frame. Returns where that statement is (the length if there is none),
    /// so a caller can go on from there on a copy.
    pub fn probe(&self, stmts: &[Stmt], st: &State, f: &mut Frame) -> R<usize> {
        for (i, s) in stmts.iter().enumerate() {
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
                        Some(m) if self.reasons => m.clone(),
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

    pub fn exec(&mut self, stmts: &[Stmt], st: &mut State, f: &mut Frame) -> R<()> {
        for s in stmts {
            self.stmt(s, st, f)?;
        }
        Ok(())
    }

    fn stmt(&mut self, s: &Stmt, st: &mut State, f: &mut Frame) -> R<()> {
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
                self.move_cards(&cards, dest, *position, s.span, st)?;
            }
            StmtKind::Draw { count, from, position, to } => {
                let n = self.int(count, st, f)?.max(0) as usize;
                let src = self.zone_inst(from, st, f)?;
                let dest = self.zone_inst(to, st, f)?;
                let random = matches!(self.lay.zone_kind(self.r, src), ZoneKind::Bag | ZoneKind::Box);
                for _ in 0..n {
                    // The k-th filled slot (only rows have empty ones).
                    let filled = st.count(src);
                    if filled == 0 {
                        break;
                    }
                    let k = if random { st.rng.gen_range(0..filled) } else { 0 };
                    let card = st.cards(src).nth(k).expect("k < filled");
                    self.move_cards(&[card], dest, *position, s.span, st)?;
                }
            }
            StmtKind::Shuffle(z) => {
                let inst = self.zone_inst(z, st, f)?;
                let zone = &mut st.zones[inst];
                for i in (1..zone.len()).rev() {
                    let j = st.rng.gen_range(0..=i);
                    zone.swap(i, j);
                }
                self.record(|_| Event::Shuffle { zone: inst, at: s.span });
            }
            StmtKind::ShufflePlayers => {
                for i in (1..st.order.len()).rev() {
                    let j = st.rng.gen_range(0..=i);
                    st.order.swap(i, j);
                }
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
                let cards: Vec<ComponentId> = st.cards(src).collect();
                let (n, k) = (cards.len(), piles.len());
                let mut start = 0;
                for (i, pile) in piles.iter().enumerate() {
                    let size = n / k + usize::from(i < n % k);
                    let chunk = cards[start..start + size].to_vec();
                    self.move_cards(&chunk, *pile, Position::Bottom, s.span, st)?;
                    start += size;
                }
            }
            StmtKind::Reveal { zone, to } => {
                let inst = self.zone_inst(zone, st, f)?;
                let player = match self.eval(to, st, f)? {
                    V::Player(p) => p,
                    other => {
                        return rule(to.span, format!("`reveal` shows a zone to a player, not {other:?}"))
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
            StmtKind::For { var, domain, body } => {
                let d = self.eval(domain, st, f)?;
                // Players and places need no list; a zone's is copied first,
                // since the body may move what it goes through.
                let n = match &d {
                    V::Players => self.lay.players,
                    V::Class(c) => self.r.classes[*c].places.len(),
                    _ => 0,
                };
                if n > 0 {
                    for i in 0..n {
                        let item = match &d {
                            V::Class(c) => V::Place(self.r.classes[*c].places[i]),
                            _ => V::Player(PlayerId::new(i)),
                        };
                        f.set(*var, item);
                        self.exec(body, st, f)?;
                    }
                } else {
                    for item in self.elements(&d, st, domain.span)? {
                        f.set(*var, item);
                        self.exec(body, st, f)?;
                    }
                }
            }
            StmtKind::Repeat { cond, body } => {
                let mut n = 0;
                while self.bool(cond, st, f)? {
                    n += 1;
                    if n > MAX_LOOP {
                        return rule(
                            s.span,
                            format!("`repeat while` ran {MAX_LOOP} times without its condition failing"),
                        );
                    }
                    self.exec(body, st, f)?;
                }
            }
            StmtKind::Do { procedure, args } => {
                let p = &self.r.procedures[*procedure];
                let mut inner = Frame::new(f.me);
                for (i, a) in args.iter().enumerate() {
                    let v = self.eval(a, st, f)?;
                    inner.set(i, v);
                }
                self.exec(&p.body.stmts, st, &mut inner)?;
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

    fn assign(&mut self, target: &Expr, v: V, span: Span, st: &mut State, f: &mut Frame) -> R<()> {
        match &target.kind {
            ExprKind::Counter { counter, player, .. } => {
                let inst = self.counter_inst(target, st, f)?;
                let old = std::mem::replace(&mut st.counters[inst], v);
                if old != v {
                    let p = self.player_opt(player.as_deref(), st, f)?;
                    self.record(|me| Event::Counter {
                        counter: *counter,
                        player: p,
                        place: me.counter_place(*counter, inst),
                        from: old,
                        to: v,
                        at: span,
                    });
                }
                Ok(())
            }
            ExprKind::Piece { piece, player } => {
                let p = self.player_opt(player.as_deref(), st, f)?;
                let inst = self.lay.piece(*piece, p);
                let to = match v {
                    V::Place(to) => to,
                    other => return rule(span, format!("a piece moves to a place, not {other:?}")),
                };
                let from = std::mem::replace(&mut st.pieces[inst], to);
                if from != to {
                    self.record(|_| Event::Piece { piece: *piece, player: p, from, to, at: span });
                }
                Ok(())
            }
            _ => rule(span, "only counters and pieces can change"),
        }
    }

    /// The place a counter instance of a per-place counter belongs to.
    fn counter_place(&self, counter: CounterId, inst: usize) -> Option<PlaceId> {
        let class = self.r.counters[counter].index?;
        let places = &self.r.classes[class].places;
        let base = self.lay.counter(counter, None, None);
        places.get((inst - base) % places.len().max(1)).copied()
    }

    /// Components a selection picks, in the order they lie.
    fn select(&self, sel: &Selection, st: &State, f: &mut Frame) -> R<Vec<ComponentId>> {
        match sel {
            Selection::One(e) => match self.eval(e, st, f)? {
                V::Card(c) => Ok(vec![c]),
                other => rule(e.span, format!("expected a component, found {other:?}")),
            },
            Selection::All { var, domain, filter } | Selection::First { var, domain, filter } => {
                let z = self.zone_inst(domain, st, f)?;
                let first_only = matches!(sel, Selection::First { .. });
                let mut out = Vec::new();
                for c in st.cards(z) {
                    f.set(*var, V::Card(c));
                    let pass = match filter {
                        Some(flt) => self.bool(flt, st, f)?,
                        None => true,
                    };
                    if pass {
                        out.push(c);
                        if first_only {
                            break;
                        }
                    }
                }
                Ok(out)
            }
        }
    }

    /// Take components out of wherever they are and put them in `dest`.
    pub fn move_cards(
        &mut self,
        cards: &[ComponentId],
        dest: ZoneInst,
        pos: Position,
        span: Span,
        st: &mut State,
    ) -> R<()> {
        if cards.is_empty() {
            return Ok(());
        }
        let mut sources = Vec::with_capacity(cards.len());
        for &c in cards {
            let src = find(st, c)
                .ok_or_else(|| Box::new(Fail::Rule { message: "component is nowhere".into(), span }))?;
            let slot = st.zones[src].iter().position(|x| *x == Some(c)).expect("found above");
            if self.lay.zone_kind(self.r, src) == ZoneKind::Row {
                st.zones[src][slot] = None;
            } else {
                st.zones[src].remove(slot);
            }
            sources.push(src);
        }
        let kind = self.lay.zone_kind(self.r, dest);
        match (kind, pos) {
            (ZoneKind::Row, Position::Front) => {
                for &c in cards.iter().rev() {
                    self.push_front(dest, c, span, st)?;
                }
            }
            (ZoneKind::Row, _) => {
                for &c in cards {
                    match st.zones[dest].iter().position(Option::is_none) {
                        Some(slot) => st.zones[dest][slot] = Some(c),
                        None => {
                            return rule(
                                span,
                                format!("`{}` has no free slot", self.lay.zone_name(self.r, dest)),
                            )
                        }
                    }
                }
            }
            (_, Position::Bottom) | (ZoneKind::Bag | ZoneKind::Box, _) => {
                st.zones[dest].extend(cards.iter().map(|c| Some(*c)));
            }
            _ => {
                let block: Vec<Option<ComponentId>> = cards.iter().map(|c| Some(*c)).collect();
                st.zones[dest].splice(0..0, block);
            }
        }
        for &c in cards {
            if let Some(l) = st.loc.get_mut(c.index()) {
                *l = dest.index() as u32;
            }
        }
        for (&c, src) in cards.iter().zip(sources) {
            self.record(|_| Event::Move { card: c, from: src, to: dest, at: span });
        }
        Ok(())
    }

    /// Put a component in a row's first slot; every card moves one slot on,
    /// and the one in the last slot drops into the row's overflow zone.
    fn push_front(&mut self, row: ZoneInst, c: ComponentId, span: Span, st: &mut State) -> R<()> {
        let last = st.zones[row].len().saturating_sub(1);
        if let Some(out) = st.zones[row].get(last).copied().flatten() {
            let overflow = match self.lay.instance(row).source {
                Ok(z) => self.r.zones[z].overflow,
                Err(_) => None,
            };
            let Some(overflow) = overflow else {
                return rule(
                    span,
                    format!("`{}` is full and has no overflow zone", self.lay.zone_name(self.r, row)),
                );
            };
            let dest = self.lay.zone(overflow, None, None);
            st.zones[row][last] = None;
            st.zones[dest].insert(0, Some(out));
            self.record(|_| Event::Move { card: out, from: row, to: dest, at: span });
        }
        let zone = &mut st.zones[row];
        if zone.is_empty() {
            return rule(span, "a row without slots");
        }
        zone.rotate_right(1);
        zone[0] = Some(c);
        Ok(())
    }
}

/// The zone instance holding a component.
pub fn find(st: &State, c: ComponentId) -> Option<ZoneInst> {
    if let Some(z) = st.loc.get(c.index()).map(|z| ZoneInst::new(*z as usize)) {
        if st.zones.get(z.index()).is_some_and(|cells| cells.contains(&Some(c))) {
            return Some(z);
        }
    }
    st.zones.iter().position(|z| z.contains(&Some(c))).map(ZoneInst::new)
}
