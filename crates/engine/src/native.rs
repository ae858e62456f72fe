//! Compiled rules: native functions generated from a ruleset (the
//! `chronoscope-compile` crate writes them as Rust source) and run in place
//! of the interpreter's tree walk.
//!
//! The interpreter stays the reference. A [`Program`] built with
//! [`Program::with_natives`] wraps its own copy of the rules: each root
//! expression [`roots_mut`] lists becomes `ExprKind::Native(i, inner)`, and
//! evaluating it calls native function `i` with `inner`. A native function
//! computes exactly what the interpreter computes for `inner`; wherever its
//! code meets something it does not handle natively (a value of an
//! unexpected kind, a table key out of range, a construct the generator
//! leaves to the interpreter) it evaluates that part of `inner` with the
//! interpreter, so errors read the same. Native functions are skipped while
//! a trace is on (`explain`), which the interpreter records.
//!
//! The generated code sees only what this module exports.

pub use crate::game::{Choice, Descent, Program, Searcher};
pub use crate::interp::{summed, too_many_repeats, MAX_LOOP};
pub use crate::interp::{Fail, Frame, Interp, Places, R};
pub use crate::legality::PinRange;
pub use crate::state::{State, ZoneInst, V};
pub use crate::tally::{TallyDef, TallyGroup};
pub use model::{
    Aggregate, BinaryOp, ClassId, ComponentId, CounterId, Expr, ExprKind, GroupId, LetId, PieceId, PlaceId,
    PlayerId, Position, ProcedureId, Ruleset, Selection, Span, Stmt, StmtKind, TagId, UnaryOp, Value, ZoneId,
};

/// `x / y` as the interpreter divides (rounding down, saturating); `None`
/// for a division by zero, which the interpreter reports.
#[inline]
pub fn div(x: i64, y: i64) -> Option<i64> {
    crate::interp::quotient(x, y)
}

/// `x % y` as the interpreter takes it; `None` for a division by zero.
#[inline]
pub fn rem(x: i64, y: i64) -> Option<i64> {
    crate::interp::remainder(x, y)
}

/// The number a map attribute gives a place (0 when it gives none).
#[inline]
pub fn map_get(it: &Interp<'_>, c: ComponentId, slot: u32, p: PlaceId) -> i64 {
    match &it.r.components[c].values[slot as usize] {
        Value::Map(entries) => entries.iter().find(|(q, _)| *q == p).map_or(0, |(_, n)| *n),
        _ => 0,
    }
}

/// `at(class, x, y)` as the interpreter finds it: the grid's place at
/// that column and row, or none (off the grid, or no grid).
#[inline]
pub fn grid_at(it: &Interp<'_>, class: ClassId, x: i64, y: i64) -> V {
    it.grid_place(class, x, y).map_or(V::None, V::Place)
}

/// `rotate(p, k)` as the interpreter turns a place: `k` places on in its
/// class, round.
#[inline]
pub fn rotate(it: &Interp<'_>, p: PlaceId, k: i64) -> PlaceId {
    it.rotated(p, k)
}

/// The other local `y` of an aggregate's filter `x == y` or `y == x`,
/// `x` the aggregate's own local `var`, and which side of the `==` it is
/// (0 or 1): the filter of `any(x in D where x == y)`, which both engines
/// answer by searching `D` for `y` once.
pub fn member_of(filter: &Expr, var: usize) -> Option<(usize, usize)> {
    let ExprKind::Binary(BinaryOp::Eq, a, b) = &filter.kind else { return None };
    match (&a.kind, &b.kind) {
        (ExprKind::Local(x), ExprKind::Local(y)) if *x == var && *y != var => Some((*y, 1)),
        (ExprKind::Local(y), ExprKind::Local(x)) if *x == var && *y != var => Some((*y, 0)),
        _ => None,
    }
}

/// A compiled root expression: its value for `inner` (the expression it
/// replaces, [`Root`]), in the frame and state given.
pub type NativeFn = for<'a, 'e> fn(&Interp<'a>, &Root<'e>, &State, &mut Frame) -> R<V>;

/// The expression a compiled root stands for, which its function reads
/// (through `Deref`) only where it leaves a part to the interpreter: given
/// (the interpreter's call of the root), or a statement's `k`-th part
/// ([`part`], then [`unwrap_root`]), found only when read. Generated
/// statements call the root of each of their expressions, and a move's
/// picking function with its filter, at every run; finding the
/// expression then cost 0.8% of a bundled game's compiled play (1.8% of
/// another's for the picking functions), for a fallback that almost
/// never runs.
#[derive(Clone, Copy)]
pub enum Root<'e> {
    Given(&'e Expr),
    Part(&'e Stmt, usize),
}

impl std::ops::Deref for Root<'_> {
    type Target = Expr;
    #[inline]
    fn deref(&self) -> &Expr {
        match *self {
            Root::Given(e) => e,
            Root::Part(s, k) => unwrap_root(part(s, k)),
        }
    }
}

/// A compiled precondition (`legality::Precondition`): all of an action's
/// steps in one function, on the state and the search's frame (the
/// parameters bound). What `Game::holds` finds: `Some(Ok(()))` when every
/// check holds, `Some(Err(span))` when the check of the `require` at
/// `span` fails first; `None` (or a rule error) when the steps meet
/// something they leave to the trial, which the search then runs. The
/// locals its steps bind may be left out of the frame (the generator's
/// `own_locals`): nothing reads them after it returns.
pub type PreFn = for<'a> fn(&Interp<'a>, &State, &mut Frame) -> R<Option<Result<(), Span>>>;

/// Compiled leading statements (the `require`s and `let`s the search
/// runs once an action's first parameters are bound,
/// `TrialPlan::at_level`): `Some(true)` when every requirement holds,
/// `Some(false)` at the first that fails, a rule error as the
/// interpreter's; `None` when they meet something they leave to the
/// interpreter, which then runs them.
pub type LeadFn = for<'a> fn(&Interp<'a>, &State, &mut Frame) -> R<Option<bool>>;

/// A compiled search for one action's legal choices: the tree
/// `Game::enumerate` walks (its parameters bound in `args` and the frame
/// depth by depth, the leading statements run at each), with each depth's
/// loop and leading statements as generated code, and what is left
/// (complete choices, `set of` parameters, the monotone parameter)
/// through the [`Searcher`]. Lists in `out` what the interpreter's search
/// lists, in the same order.
pub type SearchFn = for<'s, 'p> fn(&Searcher<'s, 'p>, &mut Frame, &mut [V], &mut Vec<Choice>);

/// A compiled list of statements (setup, a procedure's body, an action's
/// body, `after action`): runs `stmts[from..]` (the setup from where its
/// prelude stopped, `game::prelude`; an action's body from where a trial
/// goes on; the others always from 0), the list it was generated
/// from as the program holds it (roots wrapped), as `Interp::exec` runs
/// them: the same changes, events and errors. A statement whose parts it
/// does not handle natively, or whose values are of a kind it does not
/// expect (a failing `require` among them, for its message), it runs with
/// the interpreter (`Interp::stmt`), which it can do since a statement
/// works out its values before it changes anything; the work of those
/// values is then counted twice (see `interp::MAX_WORK`).
pub type ExecFn = for<'a> fn(&mut Interp<'a>, &[Stmt], usize, &mut State, &mut Frame) -> R<()>;

/// A program's compiled statement lists, where it has them.
#[derive(Clone, Debug, Default)]
pub struct Bodies {
    pub setup: Option<ExecFn>,
    /// One per procedure, or none at all.
    pub procedures: Vec<ExecFn>,
    /// One per action, or none at all.
    pub actions: Vec<ExecFn>,
    pub after_action: Option<ExecFn>,
}

/// The compiled rules of one ruleset, as generated code exports them.
pub struct Natives {
    /// [`fingerprint`] of the rules they were generated from: a program
    /// refuses natives made for other rules.
    pub fingerprint: u64,
    /// One per root, in the order of [`roots_mut`].
    pub roots: &'static [NativeFn],
    /// One per action: its precondition compiled whole, where the
    /// generator compiled every part of it.
    pub preconditions: &'static [Option<PreFn>],
    /// Per action, per number of parameters bound: its leading
    /// statements compiled whole, where there are and every part
    /// compiled.
    pub leading: &'static [&'static [Option<LeadFn>]],
    /// One per action: its search.
    pub searches: &'static [SearchFn],
    /// Setup's statements.
    pub setup: ExecFn,
    /// One per procedure: its body.
    pub procedures: &'static [ExecFn],
    /// One per action: its body.
    pub actions: &'static [ExecFn],
    /// The statements of `after action`.
    pub after_action: ExecFn,
    /// How many let values the compiled leading statements and
    /// preconditions keep for one listing (`Interp::listing`): calls whose
    /// arguments nothing the search binds sets, worked out once a listing,
    /// and calls taking one parameter of the action as it is, one place
    /// per value of its domain.
    pub listing: usize,
    /// The counts and sums its code reads from the state's tallies
    /// (`crate::tally`): family `i` is `tallies[i]`.
    pub tallies: &'static [crate::TallyDef],
}

/// A fingerprint of a checked ruleset: FNV-1a over its debug form (every
/// rule, value and span) but the distances between places, which the
/// checker works out from the places and routes, and which compiled rules
/// read from the rules they run on, never from their own copy. Generated
/// code carries the fingerprint of the rules it was made from. The form is
/// hashed as it is written, never held whole; for a large board the
/// distances were most of it (docs/performance.md).
pub fn fingerprint(r: &Ruleset) -> u64 {
    struct Hasher(u64);
    impl std::fmt::Write for Hasher {
        fn write_str(&mut self, s: &str) -> std::fmt::Result {
            self.0 = fnv1a_from(self.0, s.as_bytes());
            Ok(())
        }
    }
    /// The rules' debug form without `distances`: every other field, in
    /// order (a new field does not compile here until it is listed).
    struct Form<'a>(&'a Ruleset);
    impl std::fmt::Debug for Form<'_> {
        fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
            let Ruleset {
                game,
                options,
                classes,
                places,
                routes,
                distances: _,
                tags,
                attr_names,
                kinds,
                groups,
                components,
                zones,
                counters,
                pieces,
                tables,
                lets,
                procedures,
                setup,
                turns,
                actions,
                after_action,
                end,
                scores,
                tiebreaks,
            } = self.0;
            f.debug_struct("Ruleset")
                .field("game", game)
                .field("options", options)
                .field("classes", classes)
                .field("places", places)
                .field("routes", routes)
                .field("tags", tags)
                .field("attr_names", attr_names)
                .field("kinds", kinds)
                .field("groups", groups)
                .field("components", components)
                .field("zones", zones)
                .field("counters", counters)
                .field("pieces", pieces)
                .field("tables", tables)
                .field("lets", lets)
                .field("procedures", procedures)
                .field("setup", setup)
                .field("turns", turns)
                .field("actions", actions)
                .field("after_action", after_action)
                .field("end", end)
                .field("scores", scores)
                .field("tiebreaks", tiebreaks)
                .finish()
        }
    }
    let mut h = Hasher(FNV_OFFSET);
    // Writing into the hasher never fails, and neither do the rules'
    // `Debug` forms.
    let _ = std::fmt::Write::write_fmt(&mut h, format_args!("{:?}", Form(r)));
    h.0
}

const FNV_OFFSET: u64 = 0xcbf2_9ce4_8422_2325;

/// FNV-1a, 64 bits: the same hash on every machine.
pub fn fnv1a(bytes: &[u8]) -> u64 {
    fnv1a_from(FNV_OFFSET, bytes)
}

/// FNV-1a continued from `h` over `bytes`.
fn fnv1a_from(h: u64, bytes: &[u8]) -> u64 {
    bytes.iter().fold(h, |h, b| (h ^ *b as u64).wrapping_mul(0x0100_0000_01b3))
}

/// Whether compiling an expression can gain anything: leaves cost the
/// interpreter no more than a call would.
fn worth_compiling(e: &Expr) -> bool {
    !matches!(
        e.kind,
        ExprKind::Int(_)
            | ExprKind::Bool(_)
            | ExprKind::Text(_)
            | ExprKind::None
            | ExprKind::Local(_)
            | ExprKind::Me
            | ExprKind::PlayerCount
            | ExprKind::Players
            | ExprKind::PlayersFrom(_)
            | ExprKind::Class(_)
            | ExprKind::Option(_)
            | ExprKind::Place(_)
            | ExprKind::Tag(_)
            | ExprKind::Group(_)
            | ExprKind::Zone { .. }
            | ExprKind::Region(..)
            | ExprKind::Native(..)
    )
}

/// The lets whose bodies are roots, in the order of their roots: `roots`'
/// first roots are let bodies (`roots_mut` lists them first), as many as
/// this lists.
pub fn root_lets(r: &Ruleset) -> Vec<LetId> {
    LetId::all(r.lets.len()).filter(|id| worth_compiling(&r.lets[*id].body)).collect()
}

/// Per let: whether a walk of a region may call it while it notes what a
/// link reads (`Interp::reads`): every let that can be a link (the checker
/// lets `connected` name a let of two places of one class), and every let
/// those call, at any depth. Their code must note the reads of zones and
/// counters per place (`Interp::read_zone`).
pub fn noting_lets(r: &Ruleset) -> Vec<bool> {
    fn calls(e: &Expr, out: &mut Vec<LetId>) {
        if let ExprKind::Let { id, .. } = e.kind {
            out.push(id);
        }
        e.for_each_child(|x| calls(x, out));
    }
    let place = |p: &model::Param| match &p.domain {
        model::ParamDomain::Type(model::Type::Place(Some(c))) => Some(*c),
        _ => None,
    };
    let mut todo: Vec<LetId> = LetId::all(r.lets.len())
        .filter(|id| match &r.lets[*id].params[..] {
            [a, b] => place(a).is_some() && place(a) == place(b),
            _ => false,
        })
        .collect();
    let mut noting = vec![false; r.lets.len()];
    while let Some(id) = todo.pop() {
        if !std::mem::replace(&mut noting[id.index()], true) {
            calls(&r.lets[id].body, &mut todo);
        }
    }
    noting
}

/// Call `f` on every root expression worth compiling, in a fixed order:
/// the body of each let; in every statement of setup, the procedures, the
/// actions and `after action`, a `require`'s condition, a `let`'s, `set`'s
/// or `advance`'s value, a `draw`'s count, a `move`'s component or the
/// domain and filter it picks from, a `for`'s domain, an `if`'s or
/// `repeat`'s condition, a procedure call's arguments; the end
/// condition; each score's expressions and each tiebreak. The generator and [`Program::with_natives`] both walk this.
pub fn roots_mut(r: &mut Ruleset, f: &mut dyn FnMut(&mut Expr)) {
    each_root_mut(r, &mut |e: &mut Expr| {
        if worth_compiling(e) {
            f(e)
        }
    })
}

/// Call `f` on every root expression of the rules, in [`roots_mut`]'s
/// order, leaves too.
pub(crate) fn each_root_mut(r: &mut Ruleset, mut visit: &mut dyn FnMut(&mut Expr)) {
    for l in &mut r.lets {
        visit(&mut l.body);
    }
    fn stmts(list: &mut [model::Stmt], visit: &mut dyn FnMut(&mut Expr)) {
        for s in list {
            match &mut s.kind {
                StmtKind::Require { cond, .. } => visit(cond),
                StmtKind::Let { value, .. } | StmtKind::Set { value, .. } => visit(value),
                StmtKind::Advance { by, .. } => visit(by),
                StmtKind::Draw { count, .. } => visit(count),
                StmtKind::If { cond, then, otherwise } => {
                    visit(cond);
                    stmts(then, visit);
                    stmts(otherwise, visit);
                }
                StmtKind::Repeat { cond, body } => {
                    visit(cond);
                    stmts(body, visit);
                }
                StmtKind::Move { what, .. } => match what {
                    model::Selection::One(e) => visit(e),
                    model::Selection::All { domain, filter, .. }
                    | model::Selection::First { domain, filter, .. } => {
                        visit(domain);
                        filter.iter_mut().for_each(&mut *visit);
                    }
                },
                StmtKind::For { domain, body, .. } => {
                    visit(domain);
                    stmts(body, visit);
                }
                StmtKind::Do { args, .. } => args.iter_mut().for_each(&mut *visit),
                StmtKind::ByPlayers { cases } => cases.iter_mut().for_each(|(_, b)| stmts(b, visit)),
                _ => {}
            }
        }
    }
    stmts(&mut r.setup.stmts, &mut visit);
    for p in &mut r.procedures {
        stmts(&mut p.body.stmts, &mut visit);
    }
    for a in &mut r.actions {
        stmts(&mut a.body.stmts, &mut visit);
    }
    stmts(&mut r.after_action.stmts, &mut visit);
    visit(&mut r.end);
    for s in &mut r.scores {
        match &mut s.form {
            model::ScoreForm::Expr(e) => visit(e),
            model::ScoreForm::Majority { measure, alone, tied, minimum } => {
                visit(measure);
                visit(alone);
                visit(tied);
                visit(minimum);
            }
        }
    }
    for t in &mut r.tiebreaks {
        visit(&mut t.by);
    }
}

/// Call `f` on every expression of the legality plan's preconditions
/// (`legality::Precondition`) worth compiling, action by action, then on
/// the bounds of the `set of` parameters (`legality::SetBound`: each
/// weight, then the right side): after [`roots_mut`]'s, in the numbering
/// of the compiled roots.
pub fn plan_roots_mut(plan: &mut crate::legality::TrialPlan, f: &mut dyn FnMut(&mut Expr)) {
    each_plan_root_mut(plan, &mut |e: &mut Expr| {
        if worth_compiling(e) {
            f(e)
        }
    })
}

/// Call `f` on every expression of the legality plan, in
/// [`plan_roots_mut`]'s order, leaves too.
pub(crate) fn each_plan_root_mut(
    plan: &mut crate::legality::TrialPlan,
    mut visit: &mut dyn FnMut(&mut Expr),
) {
    for p in plan.pre.iter_mut().flatten() {
        p.exprs_mut(&mut visit);
    }
    for bound in plan.set_bounds.iter_mut().flatten().flatten() {
        if let Some((w, _)) = &mut bound.weight {
            visit(w);
        }
        visit(&mut bound.rhs);
    }
}

/// Call `f` on what each link that asks another link first gives past
/// that call (`Neighbours`' rests: a walk asks it at a step the first
/// link gave `yes`), link by link, where it is worth compiling: after
/// [`plan_roots_mut`]'s, in the numbering of the compiled roots.
pub(crate) fn link_rests_mut(n: &mut crate::interp::Neighbours, f: &mut dyn FnMut(&mut Expr)) {
    for e in n.rests_mut() {
        if worth_compiling(e) {
            f(e)
        }
    }
}

/// The root expressions worth compiling: [`roots_mut`]'s, then
/// [`plan_roots_mut`]'s for the plan made from the rules as written, then
/// [`link_rests_mut`]'s.
pub fn roots(r: &Ruleset) -> Vec<Expr> {
    let mut copy = r.clone();
    let mut out = Vec::new();
    roots_mut(&mut copy, &mut |e| out.push(e.clone()));
    let mut plan = crate::legality::TrialPlan::new(r);
    plan_roots_mut(&mut plan, &mut |e| out.push(e.clone()));
    link_rests_mut(&mut crate::interp::Neighbours::new(r), &mut |e| out.push(e.clone()));
    out
}

/// The expression a root wraps (`ExprKind::Native`): `child(e, 0)` of a
/// root, in a few instructions: what a root's function falls back on
/// ([`Root`]), and what a picking function's filter is.
#[inline(always)]
pub fn unwrap_root(e: &Expr) -> &Expr {
    match &e.kind {
        ExprKind::Native(_, x) => x,
        _ => e,
    }
}

/// The `k`-th expression directly inside `e`, in
/// [`Expr::for_each_child`]'s order (`e` itself when there is none):
/// generated code reaches the part of its root it leaves to the
/// interpreter by these steps.
#[inline]
pub fn child(e: &Expr, k: usize) -> &Expr {
    fn opt(x: &Option<Box<Expr>>) -> Option<&Expr> {
        x.as_deref()
    }
    use ExprKind as K;
    let found: Option<&Expr> = match &e.kind {
        K::Zone { player, index, .. } | K::Counter { player, index, .. } => {
            opt(player).into_iter().chain(opt(index)).nth(k)
        }
        K::Piece { player, .. } => opt(player).into_iter().nth(k),
        K::Attr { card, .. } => (k == 0).then_some(&**card),
        K::MapGet { map, key } => [&**map, &**key].into_iter().nth(k),
        K::Table { keys, .. } | K::Builtin(_, keys) | K::Let { args: keys, .. } | K::PlaceFn(_, keys) => {
            keys.get(k)
        }
        K::Region(region, start) => match (k, &**region) {
            (0, _) => Some(&**start),
            (1, model::Region::Connected { link, .. }) => Some(&**link),
            _ => None,
        },
        K::Aggregate { value, domain, filter, .. } => {
            std::iter::once(&**domain).chain(opt(value)).chain(opt(filter)).nth(k)
        }
        K::Unary(_, x) | K::PlayersFrom(x) | K::Native(_, x) => (k == 0).then_some(&**x),
        K::Binary(_, a, b) => [&**a, &**b].into_iter().nth(k),
        K::If(c, a, b) => [&**c, &**a, &**b].into_iter().nth(k),
        _ => None,
    };
    found.unwrap_or(e)
}

/// Wrap every root of `r` ([`roots_mut`]'s order) as
/// `ExprKind::Native(i, root)`, numbering from `*next` on: what
/// [`Program::with_natives`] runs, and what the generator reads the
/// numbers of the roots in statements from.
pub fn wrap_roots(r: &mut Ruleset, next: &mut u32) {
    roots_mut(r, &mut |e| wrap(e, next));
}

/// [`wrap_roots`] for the plan's preconditions ([`plan_roots_mut`]).
pub fn wrap_plan_roots(plan: &mut crate::legality::TrialPlan, next: &mut u32) {
    plan_roots_mut(plan, &mut |e| wrap(e, next));
}

/// [`wrap_roots`] for the links' rests ([`link_rests_mut`]).
pub(crate) fn wrap_link_rests(n: &mut crate::interp::Neighbours, next: &mut u32) {
    link_rests_mut(n, &mut |e| wrap(e, next));
}

fn wrap(e: &mut Expr, next: &mut u32) {
    let span = e.span;
    let inner = std::mem::replace(e, Expr { kind: ExprKind::None, span });
    *e = Expr { kind: ExprKind::Native(*next, Box::new(inner)), span };
    *next += 1;
}

/// The `k`-th expression of a statement, as compiled statements number
/// them: `require`: its condition; `let`: its value; `set` and `advance`:
/// the target, then the value; `move`: the zone it moves to, then what it
/// picks (the component, or the domain), then the filter; `draw`: the
/// count, the zone it draws from, the zone it draws to; `shuffle`: the
/// zone; `for`: its domain; `if` and `repeat`: the condition; `do`: the
/// arguments.
/// Generated code asks only for parts its statement has: a statement
/// without one is a generator fault.
#[inline]
pub fn part(s: &Stmt, k: usize) -> &Expr {
    let found = match &s.kind {
        StmtKind::Require { cond: e, .. }
        | StmtKind::Let { value: e, .. }
        | StmtKind::For { domain: e, .. }
        | StmtKind::If { cond: e, .. }
        | StmtKind::Repeat { cond: e, .. } => (k == 0).then_some(e),
        StmtKind::Set { target, value: other } | StmtKind::Advance { target, by: other } => {
            [target, other].into_iter().nth(k)
        }
        StmtKind::Move { what, to, .. } => match (k, what) {
            (0, _) => Some(to),
            (1, Selection::One(e)) => Some(e),
            (1, Selection::All { domain, .. } | Selection::First { domain, .. }) => Some(domain),
            (2, Selection::All { filter, .. } | Selection::First { filter, .. }) => filter.as_ref(),
            _ => None,
        },
        StmtKind::Draw { count, from, to, .. } => [count, from, to].into_iter().nth(k),
        StmtKind::Shuffle(zone) => (k == 0).then_some(zone),
        StmtKind::Split { from, into } => {
            if k == 0 {
                Some(from)
            } else {
                into.get(k - 1)
            }
        }
        StmtKind::Do { args, .. } => args.get(k),
        _ => None,
    };
    found.expect("compiled statements ask only for parts their statement has")
}

/// The `k`-th list of statements inside a statement: an `if`'s branch
/// (0, then 1 for `else`), the body of a `for` or `repeat` (0), a
/// `by players` case (its number); empty when there is none.
#[inline]
pub fn block(s: &Stmt, k: usize) -> &[Stmt] {
    match &s.kind {
        StmtKind::If { then, otherwise, .. } => {
            [then, otherwise].into_iter().nth(k).map_or(&[], Vec::as_slice)
        }
        StmtKind::For { body, .. } | StmtKind::Repeat { body, .. } if k == 0 => body,
        StmtKind::ByPlayers { cases } => cases.get(k).map_or(&[], |(_, b)| b.as_slice()),
        _ => &[],
    }
}
