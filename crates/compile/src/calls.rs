//! Let calls in generated code: worked out once a listing or once a
//! root where their arguments stay, inlined where the body is small,
//! and the steps and leading statements built from them.

use std::fmt::Write;

use model::*;

use crate::{span_code, sub, Constant, Env, Gen, Keying, Unit, LET_STEP};

impl Gen<'_> {
    pub(crate) fn call(&mut self, id: LetId, args: &[Expr], path: &[usize], env: &Env) -> String {
        // In leading statements and preconditions, which read the game's
        // state as it is while a listing searches: a call whose arguments
        // nothing the search binds can change is worked out once a listing
        // (the interpreter's memo does the same for it).
        // A call taking one parameter of the action as it is (`site_books(me,
        // s)`), the rest as above, is kept per value of the parameter.
        // A let fixed once the game is set up is read from its constant
        // (`worked_out`), for less than a kept value is looked up.
        if self.unit != Unit::Root && !self.constant_call(id, args) {
            // The argument kept by (its index, how, the code of the value
            // that gives the place: the argument's, or the player's whose
            // piece it is).
            let mut keyed: Option<(usize, Keying, Option<String>)> = None;
            let players = Keying::Player { n: self.r.game.max_players as usize };
            let key: Option<Vec<String>> = args
                .iter()
                .enumerate()
                .map(|(i, a)| {
                    if let Some(k) = self.invariant(a, env) {
                        return Some(k);
                    }
                    if keyed.is_some() {
                        return None;
                    }
                    if let Some((k, code)) = by_player(a, env) {
                        keyed = Some((i, players, Some(code.to_string())));
                        return Some(k);
                    }
                    match a.kind {
                        ExprKind::Local(slot) if self.depth == 0 => {
                            let k = self.params.get(slot).copied().flatten()?;
                            keyed = Some((i, k, None));
                            Some(k.key())
                        }
                        _ => None,
                    }
                })
                .collect();
            if let Some(key) = key {
                let base = match self.listing.iter().find(|(l, a, _)| *l == id && *a == key) {
                    Some((_, _, base)) => *base,
                    None => {
                        let base = self.listing_len;
                        self.listing_len += keyed.as_ref().map_or(1, |(_, k, _)| k.places());
                        self.listing.push((id, key, base));
                        base
                    }
                };
                let place = match keyed {
                    None => format!("it.listing.get({base})"),
                    Some((i, k, by)) => {
                        if matches!(k, Keying::Place { .. }) {
                            self.need(Constant::PlaceRank);
                        }
                        let v = by.unwrap_or_else(|| self.val(&args[i], &sub(path, i), env));
                        let offset = k.offset(&v);
                        format!("({offset}).and_then(|o| it.listing.get({base} + o))")
                    }
                };
                let label = self.fresh("'l");
                let value = self.called(id, args, path, env);
                return format!(
                    "({label}: {{ let kept = {place}; if let Some(v) = kept.and_then(|c| c.get()) {{ break {label} v; }} let v: V = {value}; if let Some(c) = kept {{ c.set(Some(v)); }} v }})"
                );
            }
        }
        self.called(id, args, path, env)
    }

    /// Whether a call is of a let fixed once the game is set up
    /// (`TrialPlan::constant_lets`, which take no parameters): its value
    /// is read from `Interp::consts` each time, never kept.
    fn constant_call(&self, id: LetId, args: &[Expr]) -> bool {
        args.is_empty() && self.constant[id.index()]
    }

    /// What an argument is, as a key of calls kept for a listing, when
    /// nothing a search binds can change it: as `listing_invariant`, or a
    /// parameter of an inlined let given such an argument. Only where
    /// calls are kept (not in roots).
    pub(crate) fn invariant(&self, e: &Expr, env: &Env) -> Option<String> {
        if self.unit == Unit::Root {
            return None;
        }
        match &e.kind {
            ExprKind::Local(slot) if self.depth > 0 => env.key(*slot).map(str::to_string),
            // The piece of such a parameter (`p.boat`, `p` given `me`).
            ExprKind::Piece { piece, player: Some(p) } if self.depth > 0 => match p.kind {
                ExprKind::Local(slot) => env.key(slot).map(|k| format!("piece {} of ({k})", piece.index())),
                _ => listing_invariant(e),
            },
            _ => listing_invariant(e),
        }
    }

    /// A let call's value, inlined or called; in a root's function, once
    /// per arguments that stay the same while it runs (`Gen::cse`): the
    /// state does not change while an expression is worked out. A let
    /// fixed once the game is set up is read from its constant each time.
    pub(crate) fn called(&mut self, id: LetId, args: &[Expr], path: &[usize], env: &Env) -> String {
        if self.unit == Unit::Root && !self.constant_call(id, args) {
            let keys: Option<Vec<String>> = args.iter().map(|a| self.steady(a, env)).collect();
            if let Some(keys) = keys {
                let var = match self.cse.iter().find(|(l, k, _)| *l == id && *k == keys) {
                    Some((_, _, var)) => var.clone(),
                    None => {
                        let var = self.fresh("once");
                        self.cse.push((id, keys, var.clone()));
                        var
                    }
                };
                let value = self.worked_out(id, args, path, env);
                return format!(
                    "(match {var} {{ Some(v) => v, None => {{ let v: V = {value}; {var} = Some(v); v }} }})"
                );
            }
        }
        self.worked_out(id, args, path, env)
    }

    /// What an argument is, as a key of calls worked out once in a root's
    /// function, when it stays the same while the root runs: as
    /// `listing_invariant`, a frame slot the root does not bind itself, or
    /// a parameter of an inlined let given such an argument.
    pub(crate) fn steady(&self, e: &Expr, env: &Env) -> Option<String> {
        match &e.kind {
            ExprKind::Local(slot) if self.depth > 0 => env.key(*slot).map(str::to_string),
            ExprKind::Local(slot) => {
                (env.val(*slot).is_none() && env.card(*slot).is_none() && !self.bound.contains(slot))
                    .then(|| format!("slot {slot}"))
            }
            _ => listing_invariant(e),
        }
    }

    /// A let call's value, inlined or called.
    pub(crate) fn worked_out(&mut self, id: LetId, args: &[Expr], path: &[usize], env: &Env) -> String {
        // A let going through a region is written out only where calls are
        // kept for the listing (leading statements, preconditions): in a
        // root its call goes through the memo, which keeps its value for
        // every root reading the state as it is, and a walk, or its copy
        // from the memo, costs more than a lookup. Where the listing keeps
        // calls, the memo seldom serves one that reaches the let: Akrotiri's
        // `portage_cost(me, to)` is asked once per destination.
        let inline = self.depth < INLINE_DEPTH
            && (self.unit != Unit::Root || !walks_region(&self.r.lets[id].body))
            && self.inlinable(id);
        let (mut code, names) = self.bind_parts(args, path, env, "V");
        let i = id.index();
        let value = if inline {
            // The body with the arguments in variables: no frame, no memo
            // (the let is cheaper to work out than to look up). The work it
            // counts is the call's, as `Interp::call_values` counts it
            // (counted apart when the function has many: `tallied`).
            let keys = match self.unit {
                Unit::Root => args.iter().map(|a| self.steady(a, env)).collect(),
                _ => args.iter().map(|a| self.invariant(a, env)).collect(),
            };
            let body = self.inline_body(id, names, keys);
            format!("{{ {LET_STEP}{})?; {body} }}", span_code(self.r.lets[id].body.span))
        } else {
            format!("it.call_values(LetId::new({i}), &[{}], st, f)?", names.join(", "))
        };
        if args.is_empty() {
            // A let fixed once the game is set up is read in place, as the
            // interpreter reads it (`Interp::consts`), counting no step.
            write!(code, "match it.consts.get({i}) {{ Some(Some(v)) => *v, _ => {value} }} }}").unwrap();
        } else {
            write!(code, "{value} }}").unwrap();
        }
        code
    }

    /// The body of a precondition's function: its steps in order, each
    /// value bound in the frame as the search's evaluation of the steps
    /// binds it (`Game::holds`); `None` when a part is left to the
    /// interpreter (the search then evaluates the steps one by one).
    pub(crate) fn precondition(&mut self, steps: &[engine::legality::Step]) -> Option<String> {
        self.gave_up = false;
        let env = Env { escapes: true, ..Env::default() };
        let code = self.steps(steps, &env);
        (!self.gave_up).then_some(code)
    }

    /// The body of a function working out what a pin's comparisons
    /// leave of its parameter's range, as `legality::Pin::values` does
    /// (the search then goes through those values): a `PinRange`; the
    /// function gives no answer (`None`, and the pin works it out
    /// itself) where it meets a value it does not expect. `None` when a
    /// part is left to the interpreter. `param` is the parameter's slot,
    /// `range` its values (first and last): the comparisons of table
    /// entries (`legality::Rise`) halve it as `Rise::range` does, at the
    /// same values, each bound in the frame.
    pub(crate) fn pin(
        &mut self,
        pin: &engine::legality::Pin,
        param: usize,
        range: (i64, i64),
    ) -> Option<String> {
        use engine::legality::PIN_SMALL as SMALL;
        self.gave_up = false;
        let env = Env { escapes: true, ..Env::default() };
        let mut code = String::from("    let (mut lo, mut hi) = (i64::MIN, i64::MAX);\n");
        for b in pin.bounds() {
            code.push_str("    {\n        let mut sum = 0i64;\n");
            for (sign, e) in &b.terms {
                let n = self.int(e, &[], &env);
                writeln!(
                    code,
                    "        let n: i64 = {n}; if n.unsigned_abs() > {SMALL} {{ return Ok(Some(PinRange::Whole)); }} sum = match sum.checked_add({sign} * n) {{ Some(v) => v, None => return Ok(Some(PinRange::Whole)) }};"
                )
                .unwrap();
            }
            // `==` compares values: a side other than a number equals no
            // number (no value passes); the others compare numbers.
            let target = if b.op == BinaryOp::Eq {
                let v = self.val(&b.other, &[], &env);
                format!("match {v} {{ V::Int(n) => Some(n), _ => None }}")
            } else {
                format!("Some({})", self.int(&b.other, &[], &env))
            };
            // sign * p OP target - sum: a negative sign turns it round.
            let op = if b.sign < 0 { b.op.flipped() } else { b.op };
            let narrow = match op {
                BinaryOp::Eq => "lo = lo.max(d); hi = hi.min(d);",
                BinaryOp::Lt => "hi = hi.min(d - 1);",
                BinaryOp::Le => "hi = hi.min(d);",
                BinaryOp::Gt => "lo = lo.max(d + 1);",
                BinaryOp::Ge => "lo = lo.max(d);",
                _ => return None,
            };
            writeln!(
                code,
                "        match {target} {{\n            Some(t) => {{ if t.unsigned_abs() > {SMALL} {{ return Ok(Some(PinRange::Whole)); }} let d = (t - sum) * {sign}; {narrow} }}\n            None => {{ lo = lo.max(1); hi = hi.min(0); }}\n        }}\n    }}",
                sign = b.sign
            )
            .unwrap();
        }
        let (first, len) = (range.0, range.1.checked_sub(range.0)?.checked_add(1)?);
        for rise in pin.rises() {
            let pass = self.boolean(&rise.cond, &[], &env);
            // The first value on the passing side, as `Rise::range`.
            let narrow = if rise.upper {
                format!("if a == {len} {{ lo = lo.max(1); hi = hi.min(0); }} else {{ lo = lo.max({first} + a); }}")
            } else {
                format!("if a == 0 {{ lo = lo.max(1); hi = hi.min(0); }} else {{ hi = hi.min({first} + a - 1); }}")
            };
            writeln!(
                code,
                "    {{\n        let (mut a, mut b) = (0i64, {len}i64);\n        while a < b {{\n            let mid = a + (b - a) / 2;\n            f.set({param}, V::Int({first} + mid));\n            let pass: bool = {pass};\n            if pass == {upper} {{ b = mid; }} else {{ a = mid + 1; }}\n        }}\n        {narrow}\n    }}",
                upper = rise.upper
            )
            .unwrap();
        }
        (!self.gave_up).then_some(code)
    }

    /// The body of a function running leading statements (`require`s
    /// and `let`s on the unchanged state, as `Game::leading` runs them):
    /// `Some(false)` at the first requirement that fails; `None` when a
    /// part is left to the interpreter, or there is nothing to run.
    pub(crate) fn leading(&mut self, stmts: &[&Stmt]) -> Option<String> {
        self.gave_up = false;
        let env = Env { escapes: true, ..Env::default() };
        let mut code = String::new();
        for stmt in stmts {
            match &stmt.kind {
                StmtKind::Require { cond, .. } => {
                    let c = self.boolean(cond, &[], &env);
                    writeln!(code, "    if !{c} {{ return Ok(Some(false)); }}").unwrap();
                }
                StmtKind::Let { slot, value } => {
                    let v = self.val(value, &[], &env);
                    writeln!(code, "    {{ let v: V = {v}; f.set({slot}, v); }}").unwrap();
                }
                _ => {}
            }
        }
        (!self.gave_up && !code.is_empty()).then_some(code)
    }

    pub(crate) fn steps(&mut self, steps: &[engine::legality::Step], env: &Env) -> String {
        use engine::legality::Step;
        let mut code = String::new();
        for step in steps {
            match step {
                Step::Bind { slot, value, place } => {
                    let v = self.val(value, &[], env);
                    // A piece's new place must be a place: the trial would
                    // stop with a rule error, which the trial reports.
                    let check =
                        if *place { "if !matches!(v, V::Place(_)) { return Ok(None); } " } else { "" };
                    writeln!(code, "    {{ let v: V = {v}; {check}f.set({slot}, v); }}").unwrap();
                }
                Step::Check { cond, span } => {
                    let c = self.boolean(cond, &[], env);
                    writeln!(code, "    if !{c} {{ return Ok(Some(Err({}))); }}", span_code(*span)).unwrap();
                }
                Step::Branch { cond, then, otherwise } => {
                    let c = self.boolean(cond, &[], env);
                    let then = self.steps(then, env);
                    let otherwise = self.steps(otherwise, env);
                    writeln!(code, "    if {c} {{\n{then}    }} else {{\n{otherwise}    }}").unwrap();
                }
            }
        }
        code
    }

    /// Code of let `id`'s body with its parameters in the variables
    /// `args`.
    pub(crate) fn inline_body(&mut self, id: LetId, args: Vec<String>, keys: Vec<Option<String>>) -> String {
        let env = Env {
            cards: Vec::new(),
            vals: args.into_iter().enumerate().collect(),
            keys: keys.into_iter().enumerate().filter_map(|(i, k)| Some((i, k?))).collect(),
            players: Vec::new(),
            own_locals: true,
            escapes: true,
        };
        self.depth += 1;
        let code = self.val(&self.r.lets[id].body, &[], &env);
        self.depth -= 1;
        code
    }

    /// Whether calls of let `id` may inline its body: a let (with
    /// parameters or without: one fixed after setup is read from
    /// `Interp::consts` first) whose body has at most `INLINE_NODES`
    /// nodes, all generated natively (`worked_out` adds where a let going
    /// through a region is). Its aggregates run at every call: a compiled
    /// loop over a zone costs less than a memo lookup for the zones the
    /// bundled games keep.
    pub(crate) fn inlinable(&mut self, id: LetId) -> bool {
        if let Some(known) = self.inlinable[id.index()] {
            return known;
        }
        let l = &self.r.lets[id];
        let mut ok = nodes(&l.body) <= INLINE_NODES;
        if ok {
            // Generate it once to see that nothing is left to the
            // interpreter (the code is thrown away).
            let outer = std::mem::replace(&mut self.gave_up, false);
            let kept =
                (self.listing.len(), self.listing_len, self.needed.len(), self.cse.len(), self.tallies.len());
            let names = (0..l.params.len()).map(|i| format!("arg{i}")).collect();
            self.inline_body(id, names, Vec::new());
            ok = !self.gave_up;
            self.gave_up = outer;
            // Calls kept for a listing in the code thrown away take no place,
            // and the tables it read are not written for it.
            self.listing.truncate(kept.0);
            self.listing_len = kept.1;
            self.needed.truncate(kept.2);
            self.cse.truncate(kept.3);
            self.tallies.truncate(kept.4);
        }
        self.inlinable[id.index()] = Some(ok);
        ok
    }
}

/// The largest let body (in expression nodes) inlined at its calls.
const INLINE_NODES: usize = 48;

/// How deep inlined lets may nest (lets never recurse; a bound all the
/// same).
const INLINE_DEPTH: usize = 4;

/// Whether an expression goes through a region (`around`, `connected`).
fn walks_region(e: &Expr) -> bool {
    let mut found = matches!(e.kind, ExprKind::Region(..));
    e.for_each_child(|c| found |= walks_region(c));
    found
}

/// An argument that is a player an aggregate over the players binds, or
/// that player's piece: its key among calls kept per player, and the code
/// of the player.
fn by_player<'e>(a: &Expr, env: &'e Env) -> Option<(String, &'e str)> {
    match &a.kind {
        ExprKind::Local(slot) => Some(("player".into(), env.keyed_player(*slot)?)),
        ExprKind::Piece { piece, player: Some(p) } => match p.kind {
            ExprKind::Local(slot) => {
                Some((format!("piece {} of (player)", piece.index()), env.keyed_player(slot)?))
            }
            _ => None,
        },
        _ => None,
    }
}

/// What an argument is, as a key of calls kept for a listing, when nothing
/// a search binds can change it: a literal, `me`, a tag, place, class or
/// option, or a piece's place or a counter read of such players and
/// places (the state does not change while a listing reads it, nor while
/// a root is worked out). `None` for anything else (a local above all).
fn listing_invariant(e: &Expr) -> Option<String> {
    let part = |x: &Option<Box<Expr>>| match x {
        None => Some("-".to_string()),
        Some(x) => listing_invariant(x),
    };
    Some(match &e.kind {
        ExprKind::Piece { piece, player } => format!("piece {} of ({})", piece.index(), part(player)?),
        ExprKind::Counter { counter, player, index } => {
            format!("counter {} of ({}) at ({})", counter.index(), part(player)?, part(index)?)
        }
        ExprKind::Int(n) => format!("int {n}"),
        ExprKind::Bool(b) => format!("bool {b}"),
        ExprKind::None => "none".into(),
        ExprKind::Me => "me".into(),
        ExprKind::Tag(t) => format!("tag {}", t.index()),
        ExprKind::Place(p) => format!("place {}", p.index()),
        ExprKind::Class(c) => format!("class {}", c.index()),
        ExprKind::Option(o) => format!("option {}", o.index()),
        ExprKind::PlayerCount => "player count".into(),
        ExprKind::Players => "players".into(),
        _ => return None,
    })
}

/// How many expression nodes `e` has.
fn nodes(e: &Expr) -> usize {
    let mut n = 1;
    e.for_each_child(|c| n += nodes(c));
    n
}
