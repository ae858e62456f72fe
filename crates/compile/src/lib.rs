//! The compiled backend's generator: Rust source for a checked ruleset's
//! expressions and statements, which `engine::native` runs in place of
//! the interpreter's tree walk.
//!
//! `generate` writes one native function per root expression
//! (`engine::native::roots_mut`), one per action's precondition and
//! leading statements, one per statement list (`stmts`), and the tables
//! they read (each component's tags and attributes, each rule table) as
//! constants. The code knows the rules it was made from, never a game by
//! name: it is made from the ruleset text each time, and nothing is
//! written by hand per game.
//!
//! What a native function computes is what the interpreter computes for
//! the same expression. Where the generated code meets a value it does not
//! expect or a construct it leaves to the interpreter, it evaluates that
//! part with the interpreter (`it.eval(child(e, ..), ..)`), so results and
//! error messages are the interpreter's. The lockstep tests
//! (`tests/tests/compiled.rs`) hold the two to the same games.

#![forbid(unsafe_code)]

use std::fmt::Write;

use model::*;

mod stmts;

/// Rust source for `rules`' compiled expressions: a module body that
/// `include!`s into a crate depending on the engine (as `engine`), and
/// exports `NATIVES` for `engine::Program::with_natives`.
pub fn generate(rules: &Ruleset) -> String {
    let roots = engine::native::roots(rules);
    let mut g = Gen {
        r: rules,
        out: String::new(),
        label: 0,
        tables_used: vec![false; rules.tables.len()],
        inlinable: vec![None; rules.lets.len()],
        gave_up: false,
        depth: 0,
        unit: Unit::Root,
        listing: Vec::new(),
        listing_len: 0,
        params: Vec::new(),
        ranks_used: false,
        cse: Vec::new(),
        bound: Vec::new(),
    };
    let mut body = String::new();
    for (i, e) in roots.iter().enumerate() {
        g.bound.clear();
        bound_slots(e, &mut g.bound);
        let code = g.val(e, &[], &Env::default());
        // The values of calls worked out once, none yet.
        let (allow, kept) = if g.cse.is_empty() {
            ("", String::new())
        } else {
            let vars: Vec<String> =
                g.cse.drain(..).map(|(_, _, var)| format!("let mut {var}: Option<V> = None;")).collect();
            (
                "#[allow(unused_assignments, unused_mut, unused_variables)]\n",
                format!("    {}\n", vars.join(" ")),
            )
        };
        writeln!(
            body,
            "{allow}fn root_{i}(it: &Interp<'_>, e: &Expr, st: &State, f: &mut Frame) -> R<V> {{\n    let _ = (&it, &e, &st, &f);\n{kept}    Ok({code})\n}}\n"
        )
        .unwrap();
    }
    // Each action's precondition as one function, where every part of it
    // compiles.
    let plan = engine::legality::TrialPlan::new(rules);
    g.unit = Unit::Precondition;
    let mut pres = Vec::new();
    for (i, pre) in plan.pre.iter().enumerate() {
        g.params = rules.actions[i].params.iter().map(|p| Keying::of(rules, &p.domain)).collect();
        let code = pre.as_ref().and_then(|p| g.precondition(&p.steps));
        pres.push(function(&mut body, &format!("pre_{i}"), "Option<Result<(), Span>>", code, "Some(Ok(()))"));
    }
    // The leading statements of each action, per number of parameters
    // bound, as one function each.
    g.unit = Unit::Leading;
    let mut leads = Vec::new();
    let mut searches = Vec::new();
    for (a, levels) in plan.at_level.iter().enumerate() {
        g.params = rules.actions[a].params.iter().map(|p| Keying::of(rules, &p.domain)).collect();
        let mut row = Vec::new();
        // Each depth's leading statements, as the search runs them.
        let mut lead_at = Vec::new();
        for (depth, stmts) in levels.iter().enumerate() {
            let stmts: Vec<&Stmt> = stmts.iter().map(|k| &rules.actions[a].body.stmts[*k]).collect();
            let code = g.leading(&stmts);
            let name = format!("lead_{a}_{depth}");
            lead_at.push(match &code {
                Some(_) => Lead::Native(name.clone()),
                None if stmts.is_empty() => Lead::Nothing,
                None => Lead::Interpreted,
            });
            row.push(function(&mut body, &name, "Option<bool>", code, "Some(true)"));
        }
        let monotone = plan.monotone[a].as_ref().filter(|_| plan.tried[a]).map(|m| m.param);
        let code = search(&rules.actions[a], &lead_at, monotone, 0);
        writeln!(
            body,
            "fn search_{a}(s: &Searcher<'_, '_>, f: &mut Frame, args: &mut [V], out: &mut Vec<Choice>) {{\n    let _ = (&s, &f, &args, &out);\n{code}}}\n"
        )
        .unwrap();
        searches.push(format!("search_{a}"));
        leads.push(format!("&[{}]", row.join(", ")));
    }
    // Setup, the procedures, the actions and `after action`, each as one
    // function, from the rules with their roots wrapped as the program
    // runs them.
    let mut wrapped = rules.clone();
    engine::native::wrap_roots(&mut wrapped, &mut 0);
    let lists = stmts::generate(&wrapped);
    body.push_str(&lists.code);
    let mut out = String::new();
    writeln!(
        out,
        "// Generated by chronoscope-compile from the rules `{}` (fingerprint {:016x}). Do not edit: it is made anew from the ruleset.\n",
        rules.game.name,
        engine::native::fingerprint(rules)
    )
    .unwrap();
    out.push_str("#[allow(unused_imports)]\nuse engine::native::*;\n\n");
    let list: Vec<String> = (0..roots.len()).map(|i| format!("root_{i}")).collect();
    writeln!(
        out,
        "pub static NATIVES: Natives = Natives {{ fingerprint: 0x{:016x}, roots: &[{}], preconditions: &[{}], leading: &[{}], searches: &[{}], setup: {}, procedures: &[{}], actions: &[{}], after_action: {}, listing: {} }};\n",
        engine::native::fingerprint(rules),
        list.join(", "),
        pres.join(", "),
        leads.join(", "),
        searches.join(", "),
        lists.setup,
        lists.procedures.join(", "),
        lists.actions.join(", "),
        lists.after_action,
        g.listing_len,
    )
    .unwrap();
    out.push_str(&g.constants());
    out.push_str(&g.out);
    out.push_str(&body);
    out
}

/// Write function `name` (on the state and the search's frame, giving
/// `R<ret>`) of the statements `code` then `Ok(end)` into `out`, when
/// there is code; its entry in a list of the natives (`None` without).
fn function(out: &mut String, name: &str, ret: &str, code: Option<String>, end: &str) -> String {
    let Some(code) = code else { return "None".into() };
    writeln!(
        out,
        "fn {name}(it: &Interp<'_>, st: &State, f: &mut Frame) -> R<{ret}> {{\n    let _ = (&it, &st, &f);\n{code}    Ok({end})\n}}\n"
    )
    .unwrap();
    format!("Some({name})")
}

/// How a compiled search runs the leading statements at one depth.
enum Lead {
    /// Their compiled function (its name), with the interpreter where it
    /// gives no answer.
    Native(String),
    /// The interpreter (no function was generated).
    Interpreted,
    /// There are none.
    Nothing,
}

/// The body of a compiled search (`engine::native::SearchFn`) from
/// `depth` parameters bound on: the leading statements at `depth`, then
/// the complete choice, or each value of the next parameter (a `set of`
/// and the monotone parameter through the `Searcher`, whose loops call
/// the deeper code as a closure), as `Game::enumerate` walks them.
fn search(action: &Action, leads: &[Lead], monotone: Option<usize>, depth: usize) -> String {
    let label = format!("'d{depth}");
    let lead = match &leads[depth] {
        Lead::Native(name) => format!("if !s.lead_with({depth}, f, {name}) {{ break {label}; }}\n"),
        Lead::Interpreted => format!("if !s.lead({depth}, f) {{ break {label}; }}\n"),
        Lead::Nothing => String::new(),
    };
    let rest = if depth == action.params.len() {
        format!("s.complete(f, &args[..{depth}], out);\n")
    } else {
        let deeper = search(action, leads, monotone, depth + 1);
        if matches!(action.params[depth].domain, ParamDomain::SetOf(_)) {
            format!("s.each_set({depth}, f, args, out, |f, args, out| {{\n{deeper}}});\n")
        } else if monotone == Some(depth) {
            format!("s.descending({depth}, f, args, out, |f, args, out| {{\n{deeper}}});\n")
        } else {
            format!("for &v in s.domain({depth}) {{\nf.set({depth}, v);\nargs[{depth}] = v;\n{deeper}}}\n")
        }
    };
    format!("{label}: {{\n{lead}{rest}}}\n")
}

/// What the generated code knows about locals: slots bound by an
/// aggregate it runs natively hold a component in a Rust variable; in the
/// body of a let inlined at its call (`own_locals`), every local is a Rust
/// variable (`vals`: the arguments, and the values aggregates bind), since
/// the frame `f` is the root's, not the let's.
#[derive(Clone, Default)]
struct Env {
    cards: Vec<(usize, String)>,
    vals: Vec<(usize, String)>,
    /// Per parameter of an inlined let whose argument nothing a search
    /// binds can change: that argument's key (`listing_invariant`), so
    /// that calls in the body taking it are kept for a listing too.
    keys: Vec<(usize, String)>,
    own_locals: bool,
    /// Whether a part left to the interpreter leaves the whole function
    /// (`Gen::escape`) rather than evaluating that part: in an inlined
    /// let's body (its parts have no path from the root) and in a
    /// precondition's function (which has no root). Such a part met while
    /// generating is noted in `Gen::gave_up`.
    escapes: bool,
}

impl Env {
    fn card(&self, slot: usize) -> Option<&str> {
        self.cards.iter().rev().find(|(s, _)| *s == slot).map(|(_, v)| v.as_str())
    }

    fn with_card(&self, slot: usize, var: String) -> Env {
        let mut e = self.clone();
        e.cards.push((slot, var));
        e
    }

    fn val(&self, slot: usize) -> Option<&str> {
        self.vals.iter().rev().find(|(s, _)| *s == slot).map(|(_, v)| v.as_str())
    }

    fn key(&self, slot: usize) -> Option<&str> {
        self.keys.iter().rev().find(|(s, _)| *s == slot).map(|(_, k)| k.as_str())
    }

    fn with_val(&self, slot: usize, code: String) -> Env {
        let mut e = self.clone();
        e.vals.push((slot, code));
        e
    }
}

/// The largest let body (in expression nodes) inlined at its calls.
const INLINE_NODES: usize = 48;

/// How deep inlined lets may nest (lets never recurse; a bound all the
/// same).
const INLINE_DEPTH: usize = 4;

struct Gen<'r> {
    r: &'r Ruleset,
    /// Helper functions (tables).
    out: String,
    /// For unique labels and variables.
    label: usize,
    tables_used: Vec<bool>,
    /// Per let: whether its calls inline its body (worked out on first
    /// call).
    inlinable: Vec<Option<bool>>,
    /// Set when code where fallbacks escape meets a part it leaves to the
    /// interpreter: such a let is called, not inlined; such steps or
    /// leading statements get no function.
    gave_up: bool,
    /// Inlined bodies open at this point of generation.
    depth: usize,
    /// The kind of function being generated.
    unit: Unit,
    /// The let calls kept for a listing (`Interp::listing`), by let and
    /// arguments, with their first place in the list: one place, or one
    /// per value of the parameter they take (`Keying`).
    listing: Vec<(LetId, Vec<String>, usize)>,
    /// How many places the calls kept for a listing take in all.
    listing_len: usize,
    /// Per parameter of the action whose leading statements or
    /// precondition are generated (and, while an aggregate over the places
    /// of a class is generated there, per its local): how a call taking it
    /// is kept for a listing, when it can be.
    params: Vec<Option<Keying>>,
    /// Whether generated code reads a place's rank in its class
    /// (`PLACE_RANK`).
    ranks_used: bool,
    /// In a root's function: the let calls whose arguments stay the same
    /// while it runs, each worked out once (by let and arguments' keys,
    /// with the variable that keeps the value).
    cse: Vec<(LetId, Vec<String>, String)>,
    /// In a root's function: the frame slots the root itself binds (its
    /// aggregates' and walks' locals), which change while it runs.
    bound: Vec<usize>,
}

/// How a let call taking a parameter of the action as an argument is kept
/// for a listing: one place per value the parameter's domain holds.
#[derive(Clone, Copy, PartialEq, Debug)]
enum Keying {
    /// `flag`: two places.
    Flag,
    /// A range of numbers, from `lo`, `n` of them.
    Range { lo: i64, n: usize },
    /// A place of class `class`, of `n` places: by its rank in the class
    /// (places of two classes of as many places share no place).
    Place { class: usize, n: usize },
}

/// At most this many places are kept for one call taking a parameter: a
/// listing empties every place at its start.
const KEYED_PLACES: usize = 64;

impl Keying {
    fn of(rules: &Ruleset, domain: &model::ParamDomain) -> Option<Keying> {
        use model::{ParamDomain, Type};
        let k = match domain {
            ParamDomain::Type(Type::Bool) => Keying::Flag,
            ParamDomain::Type(Type::Int { lo: Some(lo), hi: Some(hi) }) => {
                Keying::Range { lo: *lo, n: usize::try_from(hi.checked_sub(*lo)?).ok()?.checked_add(1)? }
            }
            ParamDomain::Type(Type::Place(Some(c))) => {
                Keying::Place { class: c.index(), n: rules.classes[*c].places.len() }
            }
            _ => return None,
        };
        (k.places() <= KEYED_PLACES).then_some(k)
    }

    fn places(self) -> usize {
        match self {
            Keying::Flag => 2,
            Keying::Range { n, .. } | Keying::Place { n, .. } => n,
        }
    }

    /// Part of a kept call's key: what its parameter argument is.
    fn key(self) -> String {
        match self {
            Keying::Flag => "flag".into(),
            Keying::Range { lo, n } => format!("range {lo} {n}"),
            Keying::Place { class, .. } => format!("place of class {class}"),
        }
    }

    /// Code of the offset of value `v` among the places (`None` for a
    /// value of another kind, which is then not kept).
    fn offset(self, v: &str) -> String {
        match self {
            Keying::Flag => format!("match {v} {{ V::Bool(b) => Some(b as usize), _ => None }}"),
            Keying::Range { lo, n } => format!(
                "match {v} {{ V::Int(x) => x.checked_sub({lo}i64).and_then(|d| usize::try_from(d).ok()).filter(|d| *d < {n}), _ => None }}"
            ),
            // The parameter's values are its class's places (the search
            // binds its domain): the class is in the key, not checked here.
            Keying::Place { n, .. } => format!(
                "match {v} {{ V::Place(p) => PLACE_RANK.get(p.index()).map(|r| *r as usize).filter(|r| *r < {n}), _ => None }}"
            ),
        }
    }
}

/// The functions the generator writes.
#[derive(Clone, Copy, PartialEq)]
enum Unit {
    /// A root expression's value (`engine::native::NativeFn`).
    Root,
    /// An action's precondition, all its steps in one function
    /// (`engine::native::PreFn`).
    Precondition,
    /// The leading statements the search runs once some parameters are
    /// bound (`engine::native::LeadFn`).
    Leading,
}

/// Whether an expression goes through a region (`around`, `connected`).
fn walks_region(e: &Expr) -> bool {
    let mut found = matches!(e.kind, ExprKind::Region(..));
    e.for_each_child(|c| found |= walks_region(c));
    found
}

/// What an argument is, as a key of calls kept for a listing, when nothing
/// a search binds can change it: a literal, `me`, a tag, place, class or
/// option. `None` for anything else (a local above all).
fn listing_invariant(e: &Expr) -> Option<String> {
    Some(match &e.kind {
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

/// The frame slots an expression binds itself: its aggregates' locals and
/// its walks' (not those of the lets it calls, which have frames of their
/// own).
fn bound_slots(e: &Expr, out: &mut Vec<usize>) {
    match &e.kind {
        ExprKind::Aggregate { var, .. } => out.push(*var),
        ExprKind::Region(region, _) => {
            if let Region::Connected { from, to, .. } = &**region {
                out.extend([*from, *to]);
            }
        }
        _ => {}
    }
    e.for_each_child(|c| bound_slots(c, out));
}

/// How many expression nodes `e` has.
fn nodes(e: &Expr) -> usize {
    let mut n = 1;
    e.for_each_child(|c| n += nodes(c));
    n
}

/// Code reaching the sub-expression at `path` from the root `e`.
fn path_code(path: &[usize]) -> String {
    path.iter().fold("e".to_string(), |acc, k| format!("child({acc}, {k})"))
}

fn span_code(s: Span) -> String {
    format!("Span {{ start: {}, end: {}, file: {} }}", s.start, s.end, s.file)
}

fn sub(path: &[usize], k: usize) -> Vec<usize> {
    let mut p = path.to_vec();
    p.push(k);
    p
}

impl Gen<'_> {
    fn fresh(&mut self, stem: &str) -> String {
        self.label += 1;
        format!("{stem}{}", self.label)
    }

    /// The interpreter's value, number or yes/no for the part at `path`,
    /// where the generated code meets a value it does not expect. Where
    /// fallbacks escape (an inlined let, whose parts have no path from the
    /// root; a function of steps or statements, which has no root), the
    /// whole function leaves instead ([`Gen::escape`]).
    fn fallback(&self, path: &[usize], mode: &str, env: &Env) -> String {
        if env.escapes {
            self.escape()
        } else {
            format!("it.{mode}({}, st, f)?", path_code(path))
        }
    }

    /// The interpreter's value for a construct the generator leaves to it
    /// (as [`Gen::fallback`]); an inlined body or a precondition that needs
    /// one is not generated.
    fn interpreted(&mut self, path: &[usize], mode: &str, env: &Env) -> String {
        if env.escapes {
            self.gave_up = true;
        }
        self.fallback(path, mode, env)
    }

    /// The constants every root may read: tags and attributes per
    /// component.
    fn constants(&self) -> String {
        let r = self.r;
        let n = r.components.len();
        let mut out = String::new();
        if r.tags.len() <= 64 {
            let bits: Vec<String> = r
                .components
                .iter()
                .map(|c| format!("0x{:x}", c.tags.iter().fold(0u64, |acc, t| acc | (1u64 << t.index()))))
                .collect();
            writeln!(out, "static TAGS: [u64; {n}] = [{}];\n", bits.join(", ")).unwrap();
        }
        for a in 0..r.attr_names.len() {
            let vals: Option<Vec<String>> = (0..n).map(|c| self.attr_value(c, AttrId::new(a))).collect();
            if let Some(vals) = vals {
                writeln!(out, "static ATTR_{a}: [V; {n}] = [{}];", vals.join(", ")).unwrap();
            }
        }
        if self.ranks_used {
            // Each place's position among its class's places.
            let mut ranks = vec![0usize; r.places.len()];
            for class in &r.classes {
                for (k, p) in class.places.iter().enumerate() {
                    ranks[p.index()] = k;
                }
            }
            let ranks: Vec<String> = ranks.iter().map(|k| k.to_string()).collect();
            writeln!(out, "static PLACE_RANK: [u32; {}] = [{}];", r.places.len(), ranks.join(", ")).unwrap();
        }
        out.push('\n');
        out
    }

    /// What `c.attr` reads for component `c`, as constant code; `None`
    /// for a value kind left to the interpreter.
    fn attr_value(&self, c: usize, attr: AttrId) -> Option<String> {
        let r = self.r;
        let comp = &r.components[c];
        let kind = &r.kinds[comp.kind];
        match kind.slot_of(attr) {
            Some(slot) => match &comp.values[slot] {
                Value::Int(n) => Some(format!("V::Int({n})")),
                Value::Bool(b) => Some(format!("V::Bool({b})")),
                Value::None | Value::Tags(_) => Some("V::None".into()),
                Value::Place(p) => Some(format!("V::Place(PlaceId::new({}))", p.index())),
                Value::Tag(t) => Some(format!("V::Tag(TagId::new({}))", t.index())),
                Value::Map(_) => Some(format!("V::Map(ComponentId::new({c}), {slot})")),
                Value::Text(_) => None,
            },
            // The empty value of the attribute, as the engine works it out.
            None => {
                let ty =
                    r.kinds.iter().find_map(|k| k.slots.iter().find(|(id, _, _)| *id == attr).map(|s| &s.1));
                Some(match ty {
                    Some(Type::Int { .. }) => "V::Int(0)".into(),
                    Some(Type::Bool) => "V::Bool(false)".into(),
                    _ => "V::None".into(),
                })
            }
        }
    }

    fn attr_compiled(&self, attr: AttrId) -> bool {
        (0..self.r.components.len()).all(|c| self.attr_value(c, attr).is_some())
    }

    // ------------------------------------------------------------ values

    fn val(&mut self, e: &Expr, path: &[usize], env: &Env) -> String {
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
                    format!(
                        "{{ let x: i64 = {x}; let y: i64 = {y}; grid_at(it, ClassId::new({}), x, y) }}",
                        class.index()
                    )
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
    fn local(&mut self, slot: usize, path: &[usize], env: &Env) -> String {
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
    fn card(&mut self, card: &Expr, path: &[usize], env: &Env) -> String {
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
    fn escape(&self) -> String {
        match self.unit {
            Unit::Root => "return Ok(it.eval(e, st, f)?)".into(),
            Unit::Precondition | Unit::Leading => "return Ok(None)".into(),
        }
    }

    /// A player given by `e` as code of a `PlayerId`.
    fn player(&mut self, e: &Expr, path: &[usize], env: &Env) -> String {
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

    fn place(&mut self, e: &Expr, path: &[usize], env: &Env) -> String {
        let v = self.val(e, path, env);
        format!("(match {v} {{ V::Place(p) => p, _ => {} }})", self.escape())
    }

    /// The owner of a zone or counter, as code of an `Option<PlayerId>`,
    /// and how many parts of the expression it takes (its player comes
    /// first).
    fn owner(&mut self, player: &Option<Box<Expr>>, path: &[usize], env: &Env) -> (String, usize) {
        match player {
            Some(p) => (format!("Some({})", self.player(p, &sub(path, 0), env)), 1),
            None => ("None".into(), 0),
        }
    }

    /// Code of the `ZoneInst` a zone expression names.
    fn zone(&mut self, e: &Expr, path: &[usize], env: &Env) -> String {
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
                format!("it.lay.zone(ZoneId::new({}), {p}, {q})", zone.index())
            }
            ExprKind::Group(g) => format!("it.lay.group(GroupId::new({}))", g.index()),
            _ => {
                let v = self.val(e, path, env);
                format!("(match {v} {{ V::Zone(z) => z, _ => {} }})", self.escape())
            }
        }
    }

    /// Code of a counter's instance, when its player and place are simple.
    fn counter(&mut self, e: &Expr, path: &[usize], env: &Env) -> Option<String> {
        let ExprKind::Counter { counter, player, index } = &e.kind else { return None };
        let (p, k) = self.owner(player, path, env);
        let q = match index {
            Some(q) => format!("Some({})", self.place(q, &sub(path, k), env)),
            None => "None".into(),
        };
        Some(format!("it.lay.counter(CounterId::new({}), {p}, {q})", counter.index()))
    }

    /// Code binding each of `parts` (the parts of the expression at
    /// `path`, in order) to a fresh variable, as a value or, with `ty`
    /// `i64`, as a number: the opening of a block, and the variables.
    fn bind_parts(&mut self, parts: &[Expr], path: &[usize], env: &Env, ty: &str) -> (String, Vec<String>) {
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

    fn call(&mut self, id: LetId, args: &[Expr], path: &[usize], env: &Env) -> String {
        // In leading statements and preconditions, which read the game's
        // state as it is while a listing searches: a call whose arguments
        // nothing the search binds can change is worked out once a listing
        // (the interpreter's memo does the same for it).
        // A call taking one parameter of the action as it is (`site_books(me,
        // s)`), the rest as above, is kept per value of the parameter.
        if self.unit != Unit::Root {
            let mut keyed = None;
            let key: Option<Vec<String>> = args
                .iter()
                .enumerate()
                .map(|(i, a)| match (&a.kind, self.invariant(a, env)) {
                    (_, Some(k)) => Some(k),
                    (ExprKind::Local(slot), None) if keyed.is_none() && self.depth == 0 => {
                        let k = self.params.get(*slot).copied().flatten()?;
                        keyed = Some((i, k));
                        Some(k.key())
                    }
                    _ => None,
                })
                .collect();
            if let Some(key) = key {
                let base = match self.listing.iter().find(|(l, a, _)| *l == id && *a == key) {
                    Some((_, _, base)) => *base,
                    None => {
                        let base = self.listing_len;
                        self.listing_len += keyed.map_or(1, |(_, k)| k.places());
                        self.listing.push((id, key, base));
                        base
                    }
                };
                let place = match keyed {
                    None => format!("it.listing.get({base})"),
                    Some((i, k)) => {
                        self.ranks_used |= matches!(k, Keying::Place { .. });
                        let v = self.val(&args[i], &sub(path, i), env);
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

    /// What an argument is, as a key of calls kept for a listing, when
    /// nothing a search binds can change it: as `listing_invariant`, or a
    /// parameter of an inlined let given such an argument. Only where
    /// calls are kept (not in roots).
    fn invariant(&self, e: &Expr, env: &Env) -> Option<String> {
        if self.unit == Unit::Root {
            return None;
        }
        match &e.kind {
            ExprKind::Local(slot) if self.depth > 0 => env.key(*slot).map(str::to_string),
            _ => listing_invariant(e),
        }
    }

    /// A let call's value, inlined or called; in a root's function, once
    /// per arguments that stay the same while it runs (`Gen::cse`): the
    /// state does not change while an expression is worked out.
    fn called(&mut self, id: LetId, args: &[Expr], path: &[usize], env: &Env) -> String {
        if self.unit == Unit::Root {
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
    fn steady(&self, e: &Expr, env: &Env) -> Option<String> {
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
    fn worked_out(&mut self, id: LetId, args: &[Expr], path: &[usize], env: &Env) -> String {
        let inline = self.depth < INLINE_DEPTH && self.inlinable(id);
        let (mut code, names) = self.bind_parts(args, path, env, "V");
        if inline {
            // The body with the arguments in variables: no frame, no memo
            // (the let is cheaper to work out than to look up). The work it
            // counts is the call's, as `Interp::call_values` counts it.
            let keys = match self.unit {
                Unit::Root => args.iter().map(|a| self.steady(a, env)).collect(),
                _ => args.iter().map(|a| self.invariant(a, env)).collect(),
            };
            let body = self.inline_body(id, names, keys);
            write!(code, "it.spend(1, {})?; {body} }}", span_code(self.r.lets[id].body.span)).unwrap();
        } else if args.is_empty() {
            // A let fixed once the game is set up is read in place, as the
            // interpreter reads it (`Interp::consts`); any other is called.
            let i = id.index();
            write!(code, "match it.consts.get({i}) {{ Some(Some(v)) => *v, _ => it.call_values(LetId::new({i}), &[], st, f)? }} }}")
                .unwrap();
        } else {
            write!(code, "it.call_values(LetId::new({}), &[{}], st, f)? }}", id.index(), names.join(", "))
                .unwrap();
        }
        code
    }

    /// The body of a precondition's function: its steps in order, each
    /// value bound in the frame as the search's evaluation of the steps
    /// binds it (`Game::holds`); `None` when a part is left to the
    /// interpreter (the search then evaluates the steps one by one).
    fn precondition(&mut self, steps: &[engine::legality::Step]) -> Option<String> {
        self.gave_up = false;
        let env = Env { escapes: true, ..Env::default() };
        let code = self.steps(steps, &env);
        (!self.gave_up).then_some(code)
    }

    /// The body of a function running leading statements (`require`s
    /// and `let`s on the unchanged state, as `Game::leading` runs them):
    /// `Some(false)` at the first requirement that fails; `None` when a
    /// part is left to the interpreter, or there is nothing to run.
    fn leading(&mut self, stmts: &[&Stmt]) -> Option<String> {
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

    fn steps(&mut self, steps: &[engine::legality::Step], env: &Env) -> String {
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
    fn inline_body(&mut self, id: LetId, args: Vec<String>, keys: Vec<Option<String>>) -> String {
        let env = Env {
            cards: Vec::new(),
            vals: args.into_iter().enumerate().collect(),
            keys: keys.into_iter().enumerate().filter_map(|(i, k)| Some((i, k?))).collect(),
            own_locals: true,
            escapes: true,
        };
        self.depth += 1;
        let code = self.val(&self.r.lets[id].body, &[], &env);
        self.depth -= 1;
        code
    }

    /// Whether calls of let `id` inline its body: a let with parameters
    /// (one without is worked out once, `Interp::call_values`) whose body
    /// has at most `INLINE_NODES` nodes, all generated natively, and goes
    /// through no region. Its aggregates run at every call: a compiled
    /// loop over a zone costs less than a memo lookup for the zones the
    /// bundled games keep; a loop over a region (a walk, or its copy from
    /// the memo) costs more.
    fn inlinable(&mut self, id: LetId) -> bool {
        if let Some(known) = self.inlinable[id.index()] {
            return known;
        }
        let l = &self.r.lets[id];
        let mut ok = !l.params.is_empty() && nodes(&l.body) <= INLINE_NODES && !walks_region(&l.body);
        if ok {
            // Generate it once to see that nothing is left to the
            // interpreter (the code is thrown away).
            let outer = std::mem::replace(&mut self.gave_up, false);
            let kept = (self.listing.len(), self.listing_len, self.ranks_used, self.cse.len());
            let names = (0..l.params.len()).map(|i| format!("arg{i}")).collect();
            self.inline_body(id, names, Vec::new());
            ok = !self.gave_up;
            self.gave_up = outer;
            // Calls kept for a listing in the code thrown away take no place.
            self.listing.truncate(kept.0);
            (self.listing_len, self.ranks_used) = (kept.1, kept.2);
            self.cse.truncate(kept.3);
        }
        self.inlinable[id.index()] = Some(ok);
        ok
    }

    // ----------------------------------------------------------- numbers

    fn int(&mut self, e: &Expr, path: &[usize], env: &Env) -> String {
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
            ExprKind::Builtin(Builtin::Count, args) if !matches!(args[0].kind, ExprKind::Local(_)) => {
                let z = self.zone(&args[0], &sub(path, 0), env);
                format!("(it.count({z}, st) as i64)")
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
                format!("(match {p} {{ V::Place(p) => match it.r.places[p].at {{ {at} => n, None => {fb} }}, _ => {fb} }})")
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

    fn table(&mut self, table: TableId, keys: &[Expr], path: &[usize], env: &Env) -> String {
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

    fn boolean(&mut self, e: &Expr, path: &[usize], env: &Env) -> String {
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
    fn always_int(&self, e: &Expr) -> bool {
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

    // -------------------------------------------------------- aggregates

    /// An aggregate over a zone, the places of a class or a region, or the
    /// players, as code giving its `V`; `None` for other domains (the
    /// interpreter's).
    fn aggregate(&mut self, e: &Expr, path: &[usize], env: &Env) -> Option<String> {
        let ExprKind::Aggregate { func, value, var, domain, filter } = &e.kind else { return None };
        let var = *var;
        let label = self.fresh("'agg");
        let (len, item, inner_env, bind);
        let item_var = self.fresh("c");
        let mut head = String::new();
        match &domain.kind {
            ExprKind::Zone { .. } | ExprKind::Group(_) => {
                let z = self.zone(domain, &sub(path, 0), env);
                write!(head, "let cells = &st.zones[{z}.index()]; ").unwrap();
                len = "cells.len()".to_string();
                item = format!("let Some({item_var}) = cells[i] else {{ continue }}; ");
                bind = format!("V::Card({item_var})");
                inner_env = env.with_card(var, item_var.clone());
            }
            ExprKind::Class(c) => {
                write!(head, "let places = &it.r.classes[ClassId::new({})].places; ", c.index()).unwrap();
                len = "places.len()".into();
                item = format!("let {item_var} = places[i]; ");
                bind = format!("V::Place({item_var})");
                inner_env = if env.own_locals { env.with_val(var, bind.clone()) } else { env.clone() };
            }
            // A region: its places listed by the interpreter's walk (kept
            // in the memo), from a start worked out here.
            ExprKind::Region(region, start) => {
                let list = match &**region {
                    Region::Around => "it.around(p)".to_string(),
                    Region::Connected { link, .. } => {
                        let ExprKind::Let { id, .. } = link.kind else { return None };
                        format!(
                            "it.connected(LetId::new({}), p, {}, st, f.me)?",
                            id.index(),
                            span_code(domain.span)
                        )
                    }
                };
                let v = self.val(start, &sub(&sub(path, 0), 0), env);
                write!(
                    head,
                    "let places = match {v} {{ V::Place(p) => {list}, V::None => Places::default(), _ => {} }}; ",
                    self.escape()
                )
                .unwrap();
                len = "places.len()".into();
                item = format!("let {item_var} = places[i]; ");
                bind = format!("V::Place({item_var})");
                inner_env = if env.own_locals { env.with_val(var, bind.clone()) } else { env.clone() };
            }
            ExprKind::Players => {
                len = "it.lay.players".into();
                item = format!("let {item_var} = st.player_at(&V::Players, i); ");
                bind = item_var.clone();
                inner_env = if env.own_locals { env.with_val(var, bind.clone()) } else { env.clone() };
            }
            // A set a player chose (`give: set of me.hand`), read from the
            // frame's sets by position as the loop goes (its body binds
            // the frame); a local holding anything else is the
            // interpreter's.
            ExprKind::Local(slot) if !env.own_locals && env.card(*slot).is_none() => {
                let other = self.fallback(path, "eval", env);
                write!(
                    head,
                    "let set = match f.get({slot}) {{ V::Set(j) => j, _ => break {label} {other} }}; "
                )
                .unwrap();
                len = "f.set_items(set).len()".into();
                item = format!("let Some(&{item_var}) = f.set_items(set).get(i) else {{ continue }}; ");
                bind = format!("V::Card({item_var})");
                inner_env = env.with_card(var, item_var.clone());
            }
            _ => return None,
        }
        // The places of a class gone through in leading statements or a
        // precondition: a let called with the place (`artifacts_from(me,
        // s)`) is kept per place for the listing, as one called with a
        // place parameter of the action.
        let keyed = match &domain.kind {
            ExprKind::Class(c) if self.unit != Unit::Root && self.depth == 0 && !env.own_locals => {
                Keying::of(self.r, &model::ParamDomain::Type(model::Type::Place(Some(*c))))
            }
            _ => None,
        };
        let outer = keyed.map(|k| {
            if self.params.len() <= var {
                self.params.resize(var + 1, None);
            }
            self.params[var].replace(k)
        });
        let mut k = 1;
        let value_code = value.as_ref().map(|v| {
            let code = self.int(v, &sub(path, k), &inner_env);
            k += 1;
            code
        });
        let filter_code = filter.as_ref().map(|x| self.boolean(x, &sub(path, k), &inner_env));
        if let Some(outer) = outer {
            self.params[var] = outer;
        }
        let mut code = format!(
            "({label}: {{ {head}let len = {len}; it.spend(len as u64, {})?; let mut count = 0i64; let mut sum = 0i64; let mut best: Option<i64> = None; for i in 0..len {{ {item}",
            span_code(domain.span)
        );
        // The interpreter's parts of the value and the filter read the
        // local in the frame; an inlined let's body keeps it in a variable.
        if !env.own_locals {
            write!(code, "f.set({var}, {bind}); ").unwrap();
        }
        if let Some(flt) = filter_code {
            write!(code, "let pass: bool = {flt}; ").unwrap();
            match func {
                Aggregate::All => write!(code, "if !pass {{ break {label} V::Bool(false); }} ").unwrap(),
                Aggregate::Any => write!(code, "if pass {{ break {label} V::Bool(true); }} ").unwrap(),
                _ => {}
            }
            code.push_str("if !pass { continue; } ");
        }
        if *func == Aggregate::First {
            write!(code, "break {label} {bind}; ").unwrap();
        }
        code.push_str("count += 1; ");
        if let Some(v) = value_code {
            write!(code, "let n: i64 = {v}; sum += n; best = Some(match best {{ ").unwrap();
            match func {
                Aggregate::Min => code.push_str("Some(b) => b.min(n), "),
                Aggregate::Max => code.push_str("Some(b) => b.max(n), "),
                _ => {}
            }
            code.push_str("_ => n }); ");
        }
        code.push_str("} let _ = (&mut count, &mut sum, &mut best); ");
        code.push_str(match func {
            Aggregate::Count => "V::Int(count)",
            Aggregate::Sum => "V::Int(sum)",
            Aggregate::Min | Aggregate::Max => "V::Int(best.unwrap_or(0))",
            Aggregate::All => "V::Bool(true)",
            Aggregate::Any => "V::Bool(false)",
            Aggregate::First => "V::None",
        });
        code.push_str(" })");
        Some(code)
    }
}
