//! Numbers and yes/no values as generated code: arithmetic, comparisons,
//! rule tables and the logic between them.

use std::fmt::Write;

use model::*;

use crate::{sub, Constant, Env, Gen, Typed};

impl Gen<'_> {
    pub(crate) fn int(&mut self, e: &Expr, path: &[usize], env: &Env) -> String {
        use BinaryOp as B;
        let fb = self.fallback(path, "int", env);
        let from_v =
            |v: String, fb: &str| format!("(match {v} {{ V::Int(n) => n, V::None => 0, _ => {fb} }})");
        match &e.kind {
            ExprKind::Int(n) => format!("{n}i64"),
            ExprKind::Binary(op @ (B::Add | B::Sub | B::Mul | B::Div | B::Rem), a, b) => {
                let x = self.int(a, &sub(path, 0), env);
                let y = self.int(b, &sub(path, 1), env);
                match op {
                    B::Add => format!("({x}).saturating_add({y})"),
                    B::Sub => format!("({x}).saturating_sub({y})"),
                    B::Mul => format!("({x}).saturating_mul({y})"),
                    B::Div => format!("{{ let x: i64 = {x}; let y: i64 = {y}; match div(x, y) {{ Some(v) => v, None => {fb} }} }}"),
                    _ => format!("{{ let x: i64 = {x}; let y: i64 = {y}; match rem(x, y) {{ Some(v) => v, None => {fb} }} }}"),
                }
            }
            ExprKind::Unary(UnaryOp::Neg, x) => {
                format!("({}).saturating_neg()", self.int(x, &sub(path, 0), env))
            }
            // A number every component holds (or none): read from its
            // typed table, without a `V`.
            ExprKind::Attr { card, attr } if self.typed_attr(*attr, Typed::Ints).is_some() => {
                let c = self.card(card, &sub(path, 0), env);
                self.typed_read(*attr, Typed::Ints, &c)
            }
            ExprKind::Local(_)
            | ExprKind::Counter { .. }
            | ExprKind::Let { .. }
            | ExprKind::Attr { .. }
            | ExprKind::Option(_) => {
                let v = self.val(e, path, env);
                from_v(v, &fb)
            }
            ExprKind::PlayerCount => "(it.lay.players as i64)".into(),
            ExprKind::If(c, a, b) => {
                let c = self.boolean(c, &sub(path, 0), env);
                let a = self.int(a, &sub(path, 1), env);
                let b = self.int(b, &sub(path, 2), env);
                format!("(if {c} {{ {a} }} else {{ {b} }})")
            }
            ExprKind::Table { table, keys } => self.table(*table, keys, path, env),
            ExprKind::Builtin(Builtin::Min | Builtin::Max, args) if !args.is_empty() => {
                let min = matches!(e.kind, ExprKind::Builtin(Builtin::Min, _));
                let mut code = String::from("{ ");
                for (i, a) in args.iter().enumerate() {
                    let x = self.int(a, &sub(path, i), env);
                    if i == 0 {
                        write!(code, "let mut best: i64 = {x}; ").unwrap();
                    } else {
                        write!(
                            code,
                            "let x: i64 = {x}; best = best.{}(x); ",
                            if min { "min" } else { "max" }
                        )
                        .unwrap();
                    }
                }
                code.push_str("best }");
                code
            }
            ExprKind::Builtin(Builtin::Abs, args) => {
                format!("({}).saturating_abs()", self.int(&args[0], &sub(path, 0), env))
            }
            // A zone named in the rules: its kind is known here, so a row
            // counts its filled slots and any other zone its length (as
            // `Interp::count` decides for each call).
            ExprKind::Builtin(Builtin::Count, args) if !matches!(args[0].kind, ExprKind::Local(_)) => {
                let kind = match &args[0].kind {
                    ExprKind::Zone { zone, .. } => Some(self.r.zones[*zone].kind),
                    ExprKind::Group(_) => Some(ZoneKind::Box),
                    _ => None,
                };
                let z = self.zone(&args[0], &sub(path, 0), env);
                match kind {
                    Some(ZoneKind::Row) => format!("(st.count({z}) as i64)"),
                    Some(_) => format!("(st.zones[{z}.index()].len() as i64)"),
                    None => format!("(it.count({z}, st) as i64)"),
                }
            }
            // A zone's slots, as the interpreter reads them: a group has none.
            ExprKind::Builtin(Builtin::Slots, args) => {
                let z = self.zone(&args[0], &sub(path, 0), env);
                format!("(match it.lay.instance({z}).source {{ Ok(id) => it.r.zones[id].slots.len() as i64, Err(_) => 0 }})")
            }
            // A local: a set a player chose (read from the frame's sets)
            // or a zone, as the interpreter counts them; a local the
            // generated code binds itself is the interpreter's.
            ExprKind::Builtin(Builtin::Count, args) => match args[0].kind {
                ExprKind::Local(slot)
                    if !env.own_locals && env.card(slot).is_none() && env.val(slot).is_none() =>
                {
                    format!("(match f.get({slot}) {{ V::Set(s) => f.set_items(s).len() as i64, V::Zone(z) => it.count(z, st) as i64, _ => {fb} }})")
                }
                _ => self.interpreted(path, "int", env),
            },
            // A grid place's column or row, as `Interp::coordinate` reads
            // it; anything else (off a grid, not a place) the interpreter's.
            ExprKind::Builtin(b @ (Builtin::X | Builtin::Y), args) => {
                let p = self.val(&args[0], &sub(path, 0), env);
                let at = if *b == Builtin::X { "Some((n, _))" } else { "Some((_, n))" };
                self.need(Constant::PlaceAt);
                format!("(match {p} {{ V::Place(p) => match PLACE_AT[p.index()] {{ {at} => n, None => {fb} }}, _ => {fb} }})")
            }
            ExprKind::Builtin(Builtin::Distance, args) => {
                let a = self.val(&args[0], &sub(path, 0), env);
                let b = self.val(&args[1], &sub(path, 1), env);
                format!("(match ({a}, {b}) {{ (V::Place(a), V::Place(b)) => match it.r.distance(a, b) {{ Some(d) => d as i64, None => {fb} }}, _ => {fb} }})")
            }
            ExprKind::MapGet { map, key } => {
                let m = self.val(map, &sub(path, 0), env);
                let k = self.val(key, &sub(path, 1), env);
                format!("(match ({m}, {k}) {{ (V::Map(c, slot), V::Place(p)) => map_get(it, c, slot, p), (V::None, _) => 0, _ => {fb} }})")
            }
            ExprKind::Aggregate {
                func: Aggregate::Count | Aggregate::Sum | Aggregate::Min | Aggregate::Max,
                ..
            } => match self.aggregate(e, path, env) {
                Some(code) => from_v(code, &fb),
                None => self.interpreted(path, "int", env),
            },
            _ => self.interpreted(path, "int", env),
        }
    }

    pub(crate) fn table(&mut self, table: TableId, keys: &[Expr], path: &[usize], env: &Env) -> String {
        let fb = self.fallback(path, "int", env);
        let t = &self.r.tables[table];
        if keys.len() != t.dims.len() {
            return self.interpreted(path, "int", env);
        }
        let classes: Vec<Option<ClassId>> = t.dims.iter().map(|d| d.class).collect();
        if !self.tables_used[table.index()] {
            self.tables_used[table.index()] = true;
            let args: Vec<String> = (0..keys.len()).map(|i| format!("k{i}: i64")).collect();
            let mut f = format!(
                "#[inline]\nfn table_{}({}) -> Option<i64> {{\n    let mut offset = 0usize;\n",
                table.index(),
                args.join(", ")
            );
            for (i, d) in t.dims.iter().enumerate() {
                if d.clamp {
                    writeln!(f, "    let k{i} = k{i}.clamp({}, {});", d.lo, d.hi).unwrap();
                }
                writeln!(
                    f,
                    "    if k{i} < {lo} || k{i} > {hi} {{ return None; }}\n    offset = offset * {size} + (k{i} - {lo}) as usize;",
                    lo = d.lo,
                    hi = d.hi,
                    size = (d.hi - d.lo + 1)
                )
                .unwrap();
            }
            let vals: Vec<String> = t.values.iter().map(|v| v.to_string()).collect();
            writeln!(
                f,
                "    const VALUES: [i64; {}] = [{}];\n    VALUES.get(offset).copied()\n}}\n",
                vals.len(),
                vals.join(", ")
            )
            .unwrap();
            self.out.push_str(&f);
        }
        // A key of an enumeration's values reads as the value's position
        // in its class (-1, outside every range, for another place), as
        // the interpreter reads it.
        let mut code = String::from("{ ");
        let mut names = Vec::new();
        for (i, (k, class)) in keys.iter().zip(&classes).enumerate() {
            let v = match class {
                Some(c) => {
                    let v = self.val(k, &sub(path, i), env);
                    format!(
                        "match {v} {{ V::Place(p) => it.r.classes[ClassId::new({})].places.iter().position(|q| *q == p).map_or(-1, |i| i as i64), _ => {fb} }}",
                        c.index()
                    )
                }
                None => self.int(k, &sub(path, i), env),
            };
            let name = self.fresh("a");
            write!(code, "let {name}: i64 = {v}; ").unwrap();
            names.push(name);
        }
        write!(
            code,
            "match table_{}({}) {{ Some(v) => v, None => {fb} }} }}",
            table.index(),
            names.join(", ")
        )
        .unwrap();
        code
    }

    // ------------------------------------------------------------ yes/no

    pub(crate) fn boolean(&mut self, e: &Expr, path: &[usize], env: &Env) -> String {
        use BinaryOp as B;
        let fb = self.fallback(path, "bool", env);
        match &e.kind {
            ExprKind::Bool(b) => b.to_string(),
            ExprKind::Binary(B::And, a, b) => {
                format!(
                    "({} && {})",
                    self.boolean(a, &sub(path, 0), env),
                    self.boolean(b, &sub(path, 1), env)
                )
            }
            ExprKind::Binary(B::Or, a, b) => {
                format!(
                    "({} || {})",
                    self.boolean(a, &sub(path, 0), env),
                    self.boolean(b, &sub(path, 1), env)
                )
            }
            ExprKind::Unary(UnaryOp::Not, x) => format!("!({})", self.boolean(x, &sub(path, 0), env)),
            ExprKind::Binary(op @ (B::Eq | B::Ne), a, b) => {
                let not = if *op == B::Eq { "" } else { "!" };
                if self.always_int(a) && self.always_int(b) {
                    let (x, y) = (self.int(a, &sub(path, 0), env), self.int(b, &sub(path, 1), env));
                    format!("({{ let x = {x}; let y = {y}; {not}(x == y) }})")
                } else if let Some(code) = self.place_attr_eq(a, b, path, env) {
                    format!("({not}{code})")
                } else {
                    let (x, y) = (self.val(a, &sub(path, 0), env), self.val(b, &sub(path, 1), env));
                    format!("({{ let x = {x}; let y = {y}; {not}x.same(&y) }})")
                }
            }
            ExprKind::Binary(op @ (B::Lt | B::Le | B::Gt | B::Ge), a, b) => {
                let x = self.int(a, &sub(path, 0), env);
                let y = self.int(b, &sub(path, 1), env);
                format!("({{ let x: i64 = {x}; let y: i64 = {y}; x {} y }})", op.symbol())
            }
            ExprKind::Binary(B::Has, a, b) if self.r.tags.len() <= 64 => {
                let t = match b.kind {
                    ExprKind::Tag(t) => format!("{}u32", t.index()),
                    ExprKind::Local(s) => {
                        let v = self.local(s, &sub(path, 1), env);
                        format!("(match {v} {{ V::Tag(t) => t.index() as u32, _ => {} }})", self.escape())
                    }
                    _ => return self.interpreted(path, "bool", env),
                };
                match a.kind {
                    ExprKind::Local(s) if env.card(s).is_some() => {
                        format!("(TAGS[{}.index()] >> {t} & 1 != 0)", env.card(s).unwrap_or_default())
                    }
                    _ => {
                        let v = self.val(a, &sub(path, 0), env);
                        format!("(match {v} {{ V::Card(c) => TAGS[c.index()] >> {t} & 1 != 0, V::None => false, _ => {fb} }})")
                    }
                }
            }
            ExprKind::Local(_)
            | ExprKind::Let { .. }
            | ExprKind::Option(_)
            | ExprKind::Counter { .. }
            | ExprKind::Attr { .. } => {
                let v = self.val(e, path, env);
                format!("(match {v} {{ V::Bool(b) => b, _ => {fb} }})")
            }
            ExprKind::If(c, a, b) => {
                let c = self.boolean(c, &sub(path, 0), env);
                let a = self.boolean(a, &sub(path, 1), env);
                let b = self.boolean(b, &sub(path, 2), env);
                format!("(if {c} {{ {a} }} else {{ {b} }})")
            }
            ExprKind::Aggregate { func: Aggregate::Any | Aggregate::All, .. } => {
                match self.aggregate(e, path, env) {
                    Some(code) => format!("(match {code} {{ V::Bool(b) => b, _ => {fb} }})"),
                    None => self.interpreted(path, "bool", env),
                }
            }
            _ => self.interpreted(path, "bool", env),
        }
    }

    /// Whether an expression's value is always a number (never `none`):
    /// then `==` may compare numbers.
    pub(crate) fn always_int(&self, e: &Expr) -> bool {
        use BinaryOp as B;
        matches!(
            &e.kind,
            ExprKind::Int(_)
                | ExprKind::PlayerCount
                | ExprKind::Table { .. }
                | ExprKind::Builtin(..)
                | ExprKind::MapGet { .. }
                | ExprKind::Unary(UnaryOp::Neg, _)
                | ExprKind::Binary(B::Add | B::Sub | B::Mul | B::Div | B::Rem, _, _)
                | ExprKind::Aggregate {
                    func: Aggregate::Count | Aggregate::Sum | Aggregate::Min | Aggregate::Max,
                    ..
                }
        )
    }

    /// `a == b` where one side reads an attribute every component holds a
    /// place or none in (`c.site == s`): the component's place as a
    /// number from a typed table (`ATTRP_n`, none as `u32::MAX`) compared
    /// with the other side's place, without a `V` per component; any
    /// other value on the other side compares as `V::same` does. The two
    /// sides are worked out in their order.
    fn place_attr_eq(&mut self, a: &Expr, b: &Expr, path: &[usize], env: &Env) -> Option<String> {
        let side = [a, b].iter().position(|e| match e.kind {
            ExprKind::Attr { attr, .. } => self.typed_attr(attr, Typed::Places).is_some(),
            _ => false,
        })?;
        let ExprKind::Attr { card, attr } = &[a, b][side].kind else { return None };
        let place = self.typed_read(*attr, Typed::Places, "c");
        let other = 1 - side;
        let mut parts = [String::new(), String::new()];
        for k in [0, 1] {
            parts[k] = if k == side {
                format!("let c = {};", self.card(card, &sub(&sub(path, side), 0), env))
            } else {
                format!("let y = {};", self.val([a, b][other], &sub(path, other), env))
            };
        }
        let n = attr.index();
        Some(format!(
            "{{ {} {} match y {{ V::Place(p) => {place} == p.index() as u32, V::None => {place} == u32::MAX, _ => ATTR_{n}[c.index()].same(&y) }} }}",
            parts[0], parts[1]
        ))
    }
}
