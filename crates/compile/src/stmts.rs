//! Compiled statement lists (`engine::native::ExecFn`): setup, each
//! procedure's body, each action's body and `after action`, as straight
//! Rust code in place of the interpreter's walk over statements.
//!
//! The code is made from the rules as the program holds them, every root
//! wrapped (`engine::native::wrap_roots`): each expression that is a root
//! is worked out by a direct call of its root function, the rest (a
//! local, a number, a zone) as the interpreter works it out. Changes go
//! through the interpreter's own `move_cards` and `assign`, so events,
//! work and errors are the interpreter's. A statement whose values come
//! out of a kind the code does not expect, or one it does not compile
//! (`reveal`, `ask`, `split`, ...), runs with the interpreter
//! (`it.stmt`): a statement works out its values before it changes
//! anything, so handing it over part way changes nothing twice.

use std::fmt::Write;

use model::*;

use crate::span_code;

/// The generated functions and their names, for `Natives`.
pub(crate) struct Lists {
    pub code: String,
    pub setup: String,
    pub procedures: Vec<String>,
    pub actions: Vec<String>,
    pub after_action: String,
}

/// The statement lists of `wrapped`, the rules with their roots wrapped.
pub(crate) fn generate(wrapped: &Ruleset, picks: &[(usize, usize)]) -> Lists {
    let mut g = StmtGen { r: wrapped, label: 0, picks };
    let mut code = String::new();
    let mut function = |name: String, stmts: &[Stmt], from: Entry| {
        let body = g.list(stmts, "ss", from);
        writeln!(
            code,
            "fn {name}(it: &mut Interp<'_>, ss: &[Stmt], from: usize, st: &mut State, f: &mut Frame) -> R<()> {{\n    let _ = (&it, &ss, &from, &st, &f);\n{body}    Ok(())\n}}\n"
        )
        .unwrap();
        name
    };
    let setup = function("setup".into(), &wrapped.setup.stmts, Entry::Any);
    let procedures = wrapped
        .procedures
        .iter()
        .enumerate()
        .map(|(i, p)| function(format!("proc_{i}"), &p.body.stmts, Entry::Start))
        .collect();
    let actions = wrapped
        .actions
        .iter()
        .enumerate()
        .map(|(i, a)| function(format!("body_{i}"), &a.body.stmts, Entry::Listed))
        .collect();
    let after_action = function("after_action".into(), &wrapped.after_action.stmts, Entry::Start);
    Lists { code, setup, procedures, actions, after_action }
}

/// Where a generated list of statements may be asked to start
/// (`engine::native::ExecFn`'s `from`).
#[derive(Clone, Copy, PartialEq)]
enum Entry {
    /// Always at its first statement (a procedure's body, `after action`).
    Start,
    /// At any statement (the setup, which a game runs on from its
    /// prelude, `engine::game::prelude`).
    Any,
    /// At any statement, and the requirements before its first change
    /// are passed over for a choice listed on this very state (an
    /// action's body).
    Listed,
}

struct StmtGen<'r> {
    r: &'r Ruleset,
    label: usize,
    /// The roots that have a picking function (`picks`), with the slot of
    /// the component they pick.
    picks: &'r [(usize, usize)],
}

impl StmtGen<'_> {
    fn fresh(&mut self, stem: &str) -> String {
        self.label += 1;
        format!("{stem}{}", self.label)
    }

    /// The statements of `stmts`, which the code `list` reaches at run
    /// time; unless `from` is `Start`, each runs only from statement
    /// `from` on; with `Listed` (an action's body), the requirements
    /// before the first change are passed over for a choice listed on
    /// this very state (`Interp::listed`), as the interpreter's `probe`
    /// passes them over.
    fn list(&mut self, stmts: &[Stmt], list: &str, from: Entry) -> String {
        let mut code = String::new();
        let mut leading = from == Entry::Listed;
        for (k, s) in stmts.iter().enumerate() {
            let at = format!("(&{list}[{k}])");
            let mut one = self.stmt(s, &at);
            leading = leading && matches!(s.kind, StmtKind::Require { .. } | StmtKind::Let { .. });
            if leading && matches!(s.kind, StmtKind::Require { .. }) {
                one = format!("    if !it.listed {{\n{one}    }}\n");
            }
            if from == Entry::Start {
                code.push_str(&one);
            } else {
                writeln!(code, "    if from <= {k} {{\n{one}    }}").unwrap();
            }
        }
        code
    }

    fn stmt(&mut self, s: &Stmt, at: &str) -> String {
        let span = span_code(s.span);
        let part = |k: usize| format!("part({at}, {k})");
        let interpreted = format!("    it.stmt({at}, st, f)?;\n");
        match &s.kind {
            StmtKind::Require { cond, .. } => {
                // A failing requirement: the interpreter makes its error
                // (and its message's reason).
                let c = boolean(cond, &part(0));
                format!("    if !{c} {{ {} }}\n", interpreted.trim())
            }
            StmtKind::Let { slot, value } => {
                format!("    {{ let v: V = {}; f.set({slot}, v); }}\n", value_code(value, &part(0)))
            }
            StmtKind::Set { target, value } => {
                let v = value_code(value, &part(1));
                let assign = format!("it.assign({}, v, {span}, st, f)?", part(0));
                let native = match &target.kind {
                    ExprKind::Counter { counter, .. } => self.counter(target).map(|found| {
                        format!(
                            "match {found} {{ Some((p, inst)) => it.set_counter_at(CounterId::new({c}), p, inst, v, {span}, st), None => {assign} }}",
                            c = counter.index()
                        )
                    }),
                    ExprKind::Piece { piece, player } => self.owner(player.as_deref()).map(|(label, p)| {
                        format!(
                            "match ({label}: {{ let p = {p}; match v {{ V::Place(to) => Some((p, to)), _ => None }} }}) {{ Some((p, to)) => it.set_piece_at(PieceId::new({}), p, to, {span}, st), None => {assign} }}",
                            piece.index()
                        )
                    }),
                    _ => None,
                };
                format!("    {{ it.memo = None; let v: V = {v}; {}; }}\n", native.unwrap_or(assign))
            }
            StmtKind::Advance { target, by } => {
                let t = part(0);
                let interpreted =
                    format!("{{ let old = it.int({t}, st, f)?; it.assign({t}, V::Int(old.saturating_add(n)), {span}, st, f)?; }}");
                // A counter holding a number (or none, read as 0): added to
                // here; anything else the interpreter reads (and refuses).
                let native = match &target.kind {
                    ExprKind::Counter { counter, .. } => self.counter(target).map(|found| {
                        format!(
                            "match match {found} {{ Some((p, inst)) => match st.counters[inst] {{ V::Int(x) => Some((p, inst, x)), V::None => Some((p, inst, 0)), _ => None }}, None => None }} {{ Some((p, inst, old)) => it.set_counter_at(CounterId::new({c}), p, inst, V::Int(old.saturating_add(n)), {span}, st), None => {interpreted} }}",
                            c = counter.index()
                        )
                    }),
                    _ => None,
                };
                format!(
                    "    {{ it.memo = None; let n: i64 = {}; {}; }}\n",
                    int(by, &part(1)),
                    native.unwrap_or(interpreted)
                )
            }
            StmtKind::Move { what, position, to } => self.movement(what, to, *position, at, &span),
            StmtKind::If { cond, then, otherwise } => {
                let c = boolean(cond, &part(0));
                let (a, b) = (self.fresh("b"), self.fresh("b"));
                let then = self.list(then, &a, Entry::Start);
                let otherwise = self.list(otherwise, &b, Entry::Start);
                format!(
                    "    if {c} {{\n    let {a} = block({at}, 0);\n{then}    }} else {{\n    let {b} = block({at}, 1);\n{otherwise}    }}\n"
                )
            }
            StmtKind::For { var, domain, body } if matches!(domain.kind, ExprKind::Region(..)) => {
                // The places of the interpreter's walk (`Interp::places_of`),
                // counted as the interpreter counts them.
                let b = self.fresh("b");
                let body = self.list(body, &b, Entry::Start);
                format!(
                    "    {{ let places = it.places_of({p}, st, f)?;
    it.spend(places.len() as u64, {span})?;
    let {b} = block({at}, 0);
    for i in 0..places.len() {{
    f.set({var}, V::Place(places[i]));
{body}    }} }}\n",
                    p = part(0)
                )
            }
            StmtKind::For { var, domain, body }
                if matches!(domain.kind, ExprKind::Class(_) | ExprKind::Players) =>
            {
                // The places of a class by position, or the players in seat
                // order, as `Interp::for_domain` and `for_item` give them
                // (the domain's value, its list and each item no longer
                // worked out at run time).
                let (count, each, item) = match domain.kind {
                    ExprKind::Class(c) => (
                        format!(
                            "let places = &it.r.classes[ClassId::new({})].places; let n = places.len();",
                            c.index()
                        ),
                        "for &p in places.iter()",
                        "V::Place(p)",
                    ),
                    _ => (
                        "let n = it.lay.players;".to_string(),
                        "for i in 0..n",
                        "V::Player(PlayerId::new(i))",
                    ),
                };
                let b = self.fresh("b");
                let body = self.list(body, &b, Entry::Start);
                format!(
                    "    {{ {count}
    it.spend(n as u64, {span})?;
    let {b} = block({at}, 0);
    {each} {{
    f.set({var}, {item});
{body}    }} }}\n"
                )
            }
            StmtKind::For { var, domain, body } => {
                // Through the domain as the interpreter goes
                // (`Interp::for_domain`).
                let d = value_code(domain, &part(0));
                let b = self.fresh("b");
                let body = self.list(body, &b, Entry::Start);
                format!(
                    "    {{ let d: V = {d}; let (list, n) = it.for_domain(&d, st, f, {p}.span)?;
    it.spend(n as u64, {span})?;
    let {b} = block({at}, 0);
    for i in 0..n {{
    let item = it.for_item(&d, list.as_deref(), i, st);
    f.set({var}, item);
{body}    }} }}\n",
                    p = part(0)
                )
            }
            StmtKind::Repeat { cond, body } => {
                // The condition's expression found once, not each round.
                let e = self.fresh("e");
                let c = boolean(cond, &e);
                let b = self.fresh("b");
                let body = self.list(body, &b, Entry::Start);
                let find = part(0);
                format!(
                    "    {{ let {b} = block({at}, 0); let {e} = {find}; let mut n = 0usize;
    loop {{ if !{c} {{ break; }}
    n += 1; it.spend(1, {span})?; if n > MAX_LOOP {{ return Err(too_many_repeats({span})); }}
{body}    }} }}\n"
                )
            }
            StmtKind::Do { procedure, args } => {
                let mut code = format!("    {{ it.spend(1, {span})?; let mut inner = Frame::new(f.me);\n");
                for (i, a) in args.iter().enumerate() {
                    writeln!(code, "    {{ let v: V = {}; inner.set({i}, v); }}", value_code(a, &part(i)))
                        .unwrap();
                }
                let p = procedure.index();
                writeln!(
                    code,
                    "    let r = it.r; proc_{p}(it, &r.procedures[ProcedureId::new({p})].body.stmts, 0, st, &mut inner)?; }}"
                )
                .unwrap();
                code
            }
            StmtKind::ByPlayers { cases } => {
                let mut code = "    { let n = it.lay.players as u32;\n    ".to_string();
                for (k, (counts, body)) in cases.iter().enumerate() {
                    let b = self.fresh("b");
                    let body = self.list(body, &b, Entry::Start);
                    write!(
                        code,
                        "if {counts:?}.contains(&n) {{\n    let {b} = block({at}, {k});\n{body}    }} else "
                    )
                    .unwrap();
                }
                code.push_str("{} }\n");
                code
            }
            StmtKind::Draw { count, at_random, from, position, to } => {
                // A negative count: the interpreter's error.
                let (src, dest) = (self.zone(from, &part(1)), self.zone(to, &part(2)));
                format!(
                    "    {{ it.memo = None; let n: i64 = {}; if n < 0 {{ {} }}
    let src = {src}; let dest = {dest}; it.draw(n, {at_random}, src, dest, Position::{position:?}, {span}, st)?; }}\n",
                    int(count, &part(0)),
                    interpreted.trim()
                )
            }
            StmtKind::Shuffle(zone) => format!(
                "    {{ it.memo = None; let z = {}; it.shuffle_zone(z, {span}, st); }}\n",
                self.zone(zone, &part(0))
            ),
            StmtKind::Split { from, into } => {
                let mut piles = String::new();
                for (i, z) in into.iter().enumerate() {
                    write!(piles, "{}, ", self.zone(z, &part(i + 1))).unwrap();
                }
                format!(
                    "    {{ it.memo = None; let src = {}; let piles = [{piles}]; it.split(src, &piles, {span}, st)?; }}\n",
                    self.zone(from, &part(0))
                )
            }
            StmtKind::ShufflePlayers | StmtKind::Reveal { .. } | StmtKind::Ask { .. } | StmtKind::EndTurn => {
                interpreted
            }
        }
    }

    /// `move`: the destination, then the components picked (in the order
    /// they lie, the filter read for each), then the interpreter's move.
    fn movement(&mut self, what: &Selection, to: &Expr, position: Position, at: &str, span: &str) -> String {
        let label = self.fresh("'s");
        let dest = format!("let dest = {};", self.zone(to, &format!("part({at}, 0)")));
        // One component is moved from where it is; a list picked goes
        // back to the game for the next move.
        let mut moving = "move_picked(cards";
        let picked = match what {
            Selection::One(e) => {
                moving = "move_cards(&cards";
                format!(
                    "let cards = match {} {{ V::Card(c) => [c], _ => {{ it.stmt({at}, st, f)?; break {label}; }} }};",
                    value_code(e, &format!("part({at}, 1)"))
                )
            }
            Selection::All { var, domain, filter } | Selection::First { var, domain, filter } => {
                let first = if matches!(what, Selection::First { .. }) { " break;" } else { "" };
                // The filter's expression found once, not for each component.
                let e = self.fresh("e");
                let (find, pass) = match filter {
                    Some(flt) => (format!("let {e} = part({at}, 2); "), self.screened(flt, *var, &e)),
                    None => (String::new(), "true".to_string()),
                };
                // The component bound in the frame only for code that may
                // read it there (`reads_local`).
                let bind = if crate::reads_local(&pass, *var) {
                    format!("f.set({var}, V::Card(c)); ")
                } else {
                    String::new()
                };
                let pick = format!("{bind}if {pass} {{ cards.push(c);{first} }}");
                match domain.kind {
                    // A set a player chose, read from the frame one
                    // component at a time as the interpreter reads it (the
                    // filter may bind locals); a zone a local holds, or
                    // anything else, is the interpreter's move, before
                    // anything changed.
                    ExprKind::Local(slot) => format!(
                        "let set = match f.get({slot}) {{ V::Set(set) => set, _ => {{ it.stmt({at}, st, f)?; break {label}; }} }}; let mut cards = it.take_picked(); {find}
    let mut i = 0; while let Some(&c) = f.set_items(set).get(i) {{ i += 1; {pick} }}"
                    ),
                    _ => {
                        let src = self.zone(domain, &format!("part({at}, 1)"));
                        match filter.as_ref().map(|f| &f.kind) {
                            // The filter's picking function, handed the filter
                            // unfound (`Root::Part`): it reads it only to fall
                            // back on the interpreter.
                            Some(ExprKind::Native(i, _)) if self.picks.contains(&(*i as usize, *var)) => format!(
                                "let src = {src}; let mut cards = it.take_picked();
    pick_{i}(it, &Root::Part({at}, 2), st, f, src, {}, &mut cards, |c: ComponentId| {})?;",
                                !first.is_empty(),
                                filter.as_ref().and_then(|f| self.tag_tests(f, *var)).unwrap_or_else(|| "true".into())
                            ),
                            _ => format!(
                                "let src = {src}; let mut cards = it.take_picked(); {find}
    for c in st.cards(src) {{ {pick} }}"
                            ),
                        }
                    }
                }
            }
        };
        format!(
            "    {label}: {{ it.memo = None; {dest}\n    {picked}\n    it.{moving}, dest, Position::{position:?}, {span}, st)?; }}\n"
        )
    }

    /// A `move`'s filter for the component `c` bound in slot `var`: its
    /// leading tag tests of `c` (`c has t and ...`) written out in the
    /// loop, the whole filter worked out only for a component that has
    /// those tags (a filter of tag tests alone is only those). The same
    /// outcome: `and` stops at a test that fails, before anything else is
    /// read or counted as work, and a tag test reads no state (a move of
    /// the few cards of one kind from a hand calls the root for those
    /// only).
    fn screened(&self, flt: &Expr, var: usize, at: &str) -> String {
        let whole = boolean(flt, at);
        match leading_tags(flt, var, self.r.tags.len()) {
            (tags, _) if tags.is_empty() => whole,
            // A filter that is only tag tests needs nothing more.
            (tags, true) => format!("({})", tag_code(&tags)),
            (tags, false) => format!("({} && {whole})", tag_code(&tags)),
        }
    }

    /// The leading tag tests of a `move`'s filter (as `screened` writes
    /// them), with nothing else: what a picking function checks before the
    /// rest of the filter.
    fn tag_tests(&self, flt: &Expr, var: usize) -> Option<String> {
        let (tags, _) = leading_tags(flt, var, self.r.tags.len());
        (!tags.is_empty()).then(|| format!("({})", tag_code(&tags)))
    }

    /// Code of a counter's instance and owner, as `Interp::counter_inst`
    /// finds them (`Some((player, instance))`), for a counter of no one,
    /// of `me` or of a local player, at no place or a local place; the
    /// code gives `None` for a local of another kind (or no `me`), which
    /// the interpreter then reads. `None` for any other counter.
    fn counter(&mut self, e: &Expr) -> Option<String> {
        let ExprKind::Counter { counter, player, index } = &e.kind else { return None };
        let (label, p) = self.owner(player.as_deref())?;
        let q = match index.as_deref().map(|q| &q.kind) {
            None => "None".to_string(),
            Some(ExprKind::Local(slot)) => {
                format!("match f.get({slot}) {{ V::Place(q) => Some(q), _ => break {label} None }}")
            }
            Some(_) => return None,
        };
        Some(format!(
            "({label}: {{ let p = {p}; let q = {q}; Some((p, it.lay.counter(CounterId::new({}), p, q))) }})",
            counter.index()
        ))
    }

    /// A fresh block label, and code of whose a counter or piece is (no
    /// one, `me` or a local player), breaking out of that block with
    /// `None` where the interpreter would have to read it.
    fn owner(&mut self, player: Option<&Expr>) -> Option<(String, String)> {
        let label = self.fresh("'o");
        let p = match player.map(|p| &p.kind) {
            None => "None".to_string(),
            Some(ExprKind::Me) => format!("match f.me {{ Some(p) => Some(p), None => break {label} None }}"),
            Some(ExprKind::Local(slot)) => {
                format!("match f.get({slot}) {{ V::Player(p) => Some(p), _ => break {label} None }}")
            }
            Some(_) => return None,
        };
        Some((label, p))
    }

    /// Code of the instance zone expression `e` (reached at run time by
    /// the code `at`) names: a zone of no one or of `me` or a local
    /// player, at no place or a local place of the zone's class, straight
    /// from the layout, as `Interp::zone_inst` finds it; any other, and a
    /// value of another kind, by `zone_inst` itself (which makes the
    /// error).
    fn zone(&mut self, e: &Expr, at: &str) -> String {
        let interpreted = format!("it.zone_inst({at}, st, f)?");
        let ExprKind::Zone { zone, player, index } = &e.kind else { return interpreted };
        if player.is_none() && index.is_none() {
            return format!("it.lay.zone(ZoneId::new({}), None, None)", zone.index());
        }
        let label = self.fresh("'z");
        let player = match player.as_deref().map(|p| &p.kind) {
            None => "None".to_string(),
            Some(ExprKind::Me) => format!("match f.me {{ Some(p) => Some(p), None => break {label} None }}"),
            Some(ExprKind::Local(slot)) => {
                format!("match f.get({slot}) {{ V::Player(p) => Some(p), _ => break {label} None }}")
            }
            Some(_) => return interpreted,
        };
        let place = match (index.as_deref().map(|q| &q.kind), self.r.zones[*zone].index) {
            (None, _) => "None".to_string(),
            (Some(ExprKind::Local(slot)), Some(class)) => format!(
                "match f.get({slot}) {{ V::Place(q) if it.r.places[q].class == ClassId::new({}) => Some(q), _ => break {label} None }}",
                class.index()
            ),
            _ => return interpreted,
        };
        format!(
            "(match {label}: {{ let p = {player}; let q = {place}; Some(it.lay.zone(ZoneId::new({}), p, q)) }} {{ Some(z) => z, None => {interpreted} }})",
            zone.index()
        )
    }
}

/// Code of expression `e` (reached at run time by the code `at`) as a
/// `V`: a root by its function, a local or a literal directly, anything
/// else by the interpreter.
fn value_code(e: &Expr, at: &str) -> String {
    match &e.kind {
        ExprKind::Native(i, _) => format!("root_{i}(it, {}, st, f)?", root_arg(at)),
        ExprKind::Local(slot) => format!("f.get({slot})"),
        ExprKind::Int(n) => format!("V::Int({n}i64)"),
        ExprKind::Bool(b) => format!("V::Bool({b})"),
        _ => format!("it.eval({at}, st, f)?"),
    }
}

/// The expression a root's function is given (`engine::native::Root`),
/// from the code `at` that finds the root: a statement's part
/// (`part(S, k)`, as `Gen::stmt` writes it) found only if the function
/// reads it; any other code at once.
fn root_arg(at: &str) -> String {
    let lazy = at.strip_prefix("part(").and_then(|rest| rest.strip_suffix(')')).and_then(|args| {
        let (stmt, k) = args.rsplit_once(", ")?;
        // The statement's code holds no comma or bracket of its own beyond
        // its indexing (`(&ss[3])`, `(&b7[0])`).
        let plain = stmt.chars().all(|c| c.is_ascii_alphanumeric() || "(&[])_".contains(c));
        (plain && k.parse::<usize>().is_ok()).then(|| format!("&Root::Part({stmt}, {k})"))
    });
    lazy.unwrap_or_else(|| format!("&Root::Given(unwrap_root({at}))"))
}

/// `e` as a condition: a value of another kind is the interpreter's to
/// read (or refuse).
fn boolean(e: &Expr, at: &str) -> String {
    format!("(match {} {{ V::Bool(b) => b, _ => it.bool({at}, st, f)? }})", value_code(e, at))
}

/// The tag `e` tests of the component in slot `var` (`c has t`).
fn tag_of(e: &Expr, var: usize) -> Option<usize> {
    match &e.kind {
        ExprKind::Binary(BinaryOp::Has, a, b) => match (&a.kind, &b.kind) {
            (ExprKind::Local(s), ExprKind::Tag(t)) if *s == var => Some(t.index()),
            _ => None,
        },
        _ => None,
    }
}

/// `e` as a number, likewise.
fn int(e: &Expr, at: &str) -> String {
    format!("(match {} {{ V::Int(n) => n, _ => it.int({at}, st, f)? }})", value_code(e, at))
}

/// The `move`s whose filter gets a picking function of its own: a filter
/// that is a compiled root, over the components of a zone (not a chosen
/// set). By the root's number, with the slot of the component picked; in
/// the order of the statements.
pub(crate) fn picks(wrapped: &Ruleset) -> Vec<(usize, usize)> {
    let tags = wrapped.tags.len();
    fn walk(list: &[Stmt], tags: usize, out: &mut Vec<(usize, usize)>) {
        for s in list {
            match &s.kind {
                StmtKind::Move {
                    what:
                        Selection::All { var, domain, filter: Some(flt) }
                        | Selection::First { var, domain, filter: Some(flt) },
                    ..
                } => {
                    if let (ExprKind::Native(i, _), false) =
                        (&flt.kind, matches!(domain.kind, ExprKind::Local(_)))
                    {
                        let (_, alone) = leading_tags(flt, *var, tags);
                        if !alone && !out.iter().any(|(j, _)| *j == *i as usize) {
                            out.push((*i as usize, *var));
                        }
                    }
                }
                StmtKind::If { then, otherwise, .. } => {
                    walk(then, tags, out);
                    walk(otherwise, tags, out);
                }
                StmtKind::Repeat { body, .. } | StmtKind::For { body, .. } => walk(body, tags, out),
                StmtKind::ByPlayers { cases } => cases.iter().for_each(|(_, b)| walk(b, tags, out)),
                _ => {}
            }
        }
    }
    let mut out = Vec::new();
    walk(&wrapped.setup.stmts, tags, &mut out);
    for p in &wrapped.procedures {
        walk(&p.body.stmts, tags, &mut out);
    }
    for a in &wrapped.actions {
        walk(&a.body.stmts, tags, &mut out);
    }
    walk(&wrapped.after_action.stmts, tags, &mut out);
    out
}

/// A filter's leading tests of the component in slot `var` for tags
/// (`c has t and ...`, in the root's expression), by tag, and whether
/// they are the whole filter. None when there are more than 64 tags (a
/// component's tags are one 64-bit word in generated code).
fn leading_tags(flt: &Expr, var: usize, tags: usize) -> (Vec<usize>, bool) {
    let ExprKind::Native(_, inner) = &flt.kind else { return (Vec::new(), false) };
    if tags > 64 {
        return (Vec::new(), false);
    }
    let mut found = Vec::new();
    let mut e: &Expr = inner;
    while let ExprKind::Binary(BinaryOp::And, a, b) = &e.kind {
        match tag_of(a, var) {
            Some(t) => found.push(t),
            None => return (found, false),
        }
        e = b;
    }
    match tag_of(e, var) {
        Some(t) => {
            found.push(t);
            (found, true)
        }
        None => (found, false),
    }
}

/// Tests of the component `c` for each of `tags`, joined by `&&`.
fn tag_code(tags: &[usize]) -> String {
    let tests: Vec<String> = tags.iter().map(|t| format!("TAGS[c.index()] >> {t}u32 & 1 != 0")).collect();
    tests.join(" && ")
}

#[cfg(test)]
mod tests {
    use super::root_arg;

    /// A statement's part is handed to the root unfound; other code, or a
    /// part whose statement is not plain indexing, is found at once.
    #[test]
    fn a_statements_part_reaches_its_root_unfound_and_other_code_found() {
        assert_eq!(root_arg("part((&ss[3]), 0)"), "&Root::Part((&ss[3]), 0)");
        assert_eq!(root_arg("part((&b12[0]), 2)"), "&Root::Part((&b12[0]), 2)");
        assert_eq!(root_arg("e7"), "&Root::Given(unwrap_root(e7))");
        assert_eq!(root_arg("part(g(a, b), 1)"), "&Root::Given(unwrap_root(part(g(a, b), 1)))");
        assert_eq!(root_arg("part((&ss[3]), k)"), "&Root::Given(unwrap_root(part((&ss[3]), k)))");
    }
}
