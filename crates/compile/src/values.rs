//! Values: what an expression is as the engine's `V` (a local, `me`, a
//! component, a player, a place, a zone, a counter), as generated code.

use std::fmt::Write;

use model::*;

use crate::{sub, Constant, Env, Gen, Unit};

impl Gen<'_> {
    pub(crate) fn val(&mut self, e: &Expr, path: &[usize], env: &Env) -> String {
        use BinaryOp as B;
        match &e.kind {
            ExprKind::Int(n) => format!("V::Int({n}i64)"),
            ExprKind::Bool(b) => format!("V::Bool({b})"),
            ExprKind::None => "V::None".into(),
            ExprKind::Local(s) => self.local(*s, path, env),
            ExprKind::Me => {
                format!(
                    "match f.me {{ Some(p) => V::Player(p), None => {} }}",
                    self.fallback(path, "eval", env)
                )
            }
            ExprKind::PlayerCount => "V::Int(it.lay.players as i64)".into(),
            ExprKind::Place(p) => format!("V::Place(PlaceId::new({}))", p.index()),
            ExprKind::Tag(t) => format!("V::Tag(TagId::new({}))", t.index()),
            ExprKind::Class(c) => format!("V::Class(ClassId::new({}))", c.index()),
            ExprKind::Players => "V::Players".into(),
            ExprKind::Option(id) => match &self.r.options[*id].value {
                Value::Int(n) => format!("V::Int({n}i64)"),
                Value::Bool(b) => format!("V::Bool({b})"),
                _ => self.interpreted(path, "eval", env),
            },
            ExprKind::Group(g) => format!("V::Zone(it.lay.group(GroupId::new({})))", g.index()),
            ExprKind::Zone { .. } => format!("V::Zone({})", self.zone(e, path, env)),
            ExprKind::Counter { .. } => match self.counter(e, path, env) {
                Some(inst) => format!("st.counters[{inst}]"),
                None => self.interpreted(path, "eval", env),
            },
            ExprKind::Piece { piece, player } => {
                let (p, _) = self.owner(player, path, env);
                format!("V::Place(st.pieces[it.lay.piece(PieceId::new({}), {p})])", piece.index())
            }
            ExprKind::Attr { card, attr } if self.attr_compiled(*attr) => {
                let c = self.card(card, &sub(path, 0), env);
                format!("ATTR_{}[{c}.index()]", attr.index())
            }
            ExprKind::Let { id, args } => self.call(*id, args, path, env),
            // `at(CLASS, x, y)`: the grid's place there, or none.
            ExprKind::PlaceFn(PlaceFn::At, args) => match args[0].kind {
                ExprKind::Class(class) => {
                    let x = self.int(&args[1], &sub(path, 1), env);
                    let y = self.int(&args[2], &sub(path, 2), env);
                    match self.r.classes[class].grid {
                        // The grid's places in a table of their own, read
                        // in place as `Interp::grid_place` reads them.
                        Some(g) => {
                            self.need(Constant::Grid(class));
                            let (w, h, c) = (g.width, g.height, class.index());
                            format!(
                                "{{ let x: i64 = {x}; let y: i64 = {y}; if (0..{w}i64).contains(&x) && (0..{h}i64).contains(&y) {{ V::Place(PlaceId::new(GRID_{c}[(y * {w}i64 + x) as usize] as usize)) }} else {{ V::None }} }}"
                            )
                        }
                        None => format!("{{ let x: i64 = {x}; let y: i64 = {y}; let _ = (x, y); V::None }}"),
                    }
                }
                _ => self.interpreted(path, "eval", env),
            },
            // `rotate(p, k)`: none stays none, before `k` is read.
            ExprKind::PlaceFn(PlaceFn::Rotate, args) => {
                let v = self.val(&args[0], &sub(path, 0), env);
                let k = self.int(&args[1], &sub(path, 1), env);
                format!(
                    "match {v} {{ V::Place(p) => {{ let k: i64 = {k}; V::Place(rotate(it, p, k)) }}, V::None => V::None, _ => {} }}",
                    self.escape()
                )
            }
            ExprKind::If(c, a, b) => {
                let c = self.boolean(c, &sub(path, 0), env);
                let a = self.val(a, &sub(path, 1), env);
                let b = self.val(b, &sub(path, 2), env);
                format!("if {c} {{ {a} }} else {{ {b} }}")
            }
            ExprKind::Aggregate { func: Aggregate::First, .. } => match self.aggregate(e, path, env) {
                Some(code) => code,
                None => self.interpreted(path, "eval", env),
            },
            ExprKind::Aggregate { func: Aggregate::Any | Aggregate::All, .. } => {
                format!("V::Bool({})", self.boolean(e, path, env))
            }
            ExprKind::Aggregate { .. }
            | ExprKind::MapGet { .. }
            | ExprKind::Table { .. }
            | ExprKind::Builtin(..)
            | ExprKind::Unary(UnaryOp::Neg, _)
            | ExprKind::Binary(B::Add | B::Sub | B::Mul | B::Div | B::Rem, _, _) => {
                format!("V::Int({})", self.int(e, path, env))
            }
            ExprKind::Unary(UnaryOp::Not, _) | ExprKind::Binary(..) => {
                format!("V::Bool({})", self.boolean(e, path, env))
            }
            _ => self.interpreted(path, "eval", env),
        }
    }

    /// A local's value: a Rust variable where the generated code binds it,
    /// else the frame's slot.
    pub(crate) fn local(&mut self, slot: usize, path: &[usize], env: &Env) -> String {
        if let Some(var) = env.card(slot) {
            format!("V::Card({var})")
        } else if let Some(code) = env.val(slot) {
            code.to_string()
        } else if env.own_locals {
            self.interpreted(path, "eval", env)
        } else {
            format!("f.get({slot})")
        }
    }

    /// A component: the code of a `ComponentId` (anything else leaves the
    /// root to the interpreter).
    pub(crate) fn card(&mut self, card: &Expr, path: &[usize], env: &Env) -> String {
        if let ExprKind::Local(s) = card.kind {
            if let Some(var) = env.card(s) {
                return var.to_string();
            }
        }
        let v = self.val(card, path, env);
        format!("(match {v} {{ V::Card(c) => c, _ => {} }})", self.escape())
    }

    /// Leave the whole function, from inside code that cannot go on (a
    /// value of an unexpected kind where a component, player, place or
    /// zone must be): a statement that returns. A root function evaluates
    /// its root again with the interpreter, which gives its value or its
    /// error (expressions change nothing, so evaluating again is safe); a
    /// function of steps or leading statements gives no answer, and the
    /// search runs the trial or the statements with the interpreter.
    pub(crate) fn escape(&self) -> String {
        match self.unit {
            Unit::Root => "return Ok(it.eval(e, st, f)?)".into(),
            Unit::Precondition | Unit::Leading => "return Ok(None)".into(),
        }
    }

    /// A player given by `e` as code of a `PlayerId`.
    pub(crate) fn player(&mut self, e: &Expr, path: &[usize], env: &Env) -> String {
        match e.kind {
            ExprKind::Me => {
                format!("(match f.me {{ Some(p) => p, None => {} }})", self.escape())
            }
            _ => {
                let v = self.val(e, path, env);
                format!("(match {v} {{ V::Player(p) => p, _ => {} }})", self.escape())
            }
        }
    }

    pub(crate) fn place(&mut self, e: &Expr, path: &[usize], env: &Env) -> String {
        let v = self.val(e, path, env);
        format!("(match {v} {{ V::Place(p) => p, _ => {} }})", self.escape())
    }

    /// The owner of a zone or counter, as code of an `Option<PlayerId>`,
    /// and how many parts of the expression it takes (its player comes
    /// first).
    pub(crate) fn owner(&mut self, player: &Option<Box<Expr>>, path: &[usize], env: &Env) -> (String, usize) {
        match player {
            Some(p) => (format!("Some({})", self.player(p, &sub(path, 0), env)), 1),
            None => ("None".into(), 0),
        }
    }

    /// Code of the `ZoneInst` a zone expression names.
    pub(crate) fn zone(&mut self, e: &Expr, path: &[usize], env: &Env) -> String {
        match &e.kind {
            ExprKind::Zone { zone, player, index } => {
                let (p, k) = self.owner(player, path, env);
                let q = match index {
                    Some(q) => {
                        let class = self.r.zones[*zone].index.map_or(usize::MAX, |c| c.index());
                        let place = self.place(q, &sub(path, k), env);
                        format!(
                            "Some({{ let q = {place}; if it.r.places[q].class != ClassId::new({class}) {{ {}; }} q }})",
                            self.escape()
                        )
                    }
                    None => "None".into(),
                };
                let z = format!("it.lay.zone(ZoneId::new({}), {p}, {q})", zone.index());
                match index {
                    // Noted for a walk that notes reads.
                    Some(_) if self.noting => format!("it.read_zone({z})"),
                    _ => z,
                }
            }
            ExprKind::Group(g) => format!("it.lay.group(GroupId::new({}))", g.index()),
            _ => {
                let v = self.val(e, path, env);
                format!("(match {v} {{ V::Zone(z) => z, _ => {} }})", self.escape())
            }
        }
    }

    /// Code of a counter's instance, when its player and place are simple.
    pub(crate) fn counter(&mut self, e: &Expr, path: &[usize], env: &Env) -> Option<String> {
        let ExprKind::Counter { counter, player, index } = &e.kind else { return None };
        let (p, k) = self.owner(player, path, env);
        let q = match index {
            Some(q) => format!("Some({})", self.place(q, &sub(path, k), env)),
            None => "None".into(),
        };
        let c = format!("it.lay.counter(CounterId::new({}), {p}, {q})", counter.index());
        Some(match index {
            // Noted for a walk that notes reads.
            Some(_) if self.noting => format!("it.read_counter({c})"),
            _ => c,
        })
    }

    /// Code binding each of `parts` (the parts of the expression at
    /// `path`, in order) to a fresh variable, as a value or, with `ty`
    /// `i64`, as a number: the opening of a block, and the variables.
    pub(crate) fn bind_parts(
        &mut self,
        parts: &[Expr],
        path: &[usize],
        env: &Env,
        ty: &str,
    ) -> (String, Vec<String>) {
        let mut code = String::from("{ ");
        let mut names = Vec::new();
        for (i, a) in parts.iter().enumerate() {
            let v =
                if ty == "i64" { self.int(a, &sub(path, i), env) } else { self.val(a, &sub(path, i), env) };
            let name = self.fresh("a");
            write!(code, "let {name}: {ty} = {v}; ").unwrap();
            names.push(name);
        }
        (code, names)
    }
}
