//! Preconditions: what an action's legality trial decides, worked out once
//! per ruleset as straight-line code that reads only the state as the
//! search sees it.
//!
//! A trial runs the rest of an action's body (from its first change) and
//! `after action` on a copy of the state, to see whether a `require` there
//! fails. Often what those requirements read changes only through counters
//! and pieces set along the way: `advance me.time by c.weeks`, then
//! `require me.time <= end_time`. This module follows the kept statements
//! of a trial (`TrialPlan::body`, `hook`) forwards, as a compiler puts code
//! in single-assignment form: each `set` or `advance` of a counter or piece
//! binds a fresh local to its new value, and later reads of that instance
//! read the local; lets, procedure arguments and `after action` get slots
//! of their own beyond the action's frame; an `if` becomes a branch that
//! binds the same local on both sides. What remains is a list of steps, each
//! an expression on the unchanged state: bind a local, check a requirement,
//! branch. The search evaluates it in place of the trial: no copy of the
//! state, nothing to put back, and the compiled backend runs each
//! expression natively.
//!
//! Statements that only move components, draw or shuffle are left out
//! (they cannot refuse), and afterwards nothing may read a zone; a step
//! that would read what was left out, or a counter written under another
//! key (`p.time` after `me.time`: they may be one), means no precondition
//! for that action, and the search tries it as before. Every requirement
//! and every value a trial works out is worked out here too, in the same
//! order, so a requirement or a rule error shows the same way; a step that
//! meets a rule error sends the search back to the trial, which reports
//! it. Only a rule error inside a left-out move, draw or shuffle goes
//! unseen here: the choice is listed, and applying it reports the error.

use model::*;

use super::{push_all, Analysis, Res};

/// One step of a precondition, evaluated on the state the search reads
/// and the search's frame.
#[derive(Clone, Debug)]
pub enum Step {
    /// Set a local to a value; with `place`, a piece's new place, which
    /// must be a place (the trial would stop with a rule error otherwise).
    Bind { slot: usize, value: Expr, place: bool },
    /// A requirement: the trial would fail when this is false, at the
    /// `require` at `span`.
    Check { cond: Expr, span: Span },
    /// An `if`: the steps of the branch the condition picks.
    Branch { cond: Expr, then: Vec<Step>, otherwise: Vec<Step> },
}

/// What an action's trial decides, as steps (see the module's doc).
#[derive(Clone, Debug)]
pub struct Precondition {
    pub steps: Vec<Step>,
    /// How many frame slots the steps use (the action's, then those given
    /// to lets, procedures and `after action`).
    pub slots: usize,
}

impl Precondition {
    /// Call `f` on each expression of the steps, in order (the order the
    /// compiled backend numbers them in).
    pub fn exprs_mut(&mut self, f: &mut dyn FnMut(&mut Expr)) {
        fn walk(steps: &mut [Step], f: &mut dyn FnMut(&mut Expr)) {
            for s in steps {
                match s {
                    Step::Bind { value: e, .. } | Step::Check { cond: e, .. } => f(e),
                    Step::Branch { cond, then, otherwise } => {
                        f(cond);
                        walk(then, f);
                        walk(otherwise, f);
                    }
                }
            }
        }
        walk(&mut self.steps, f)
    }
}

/// The most statements and expression nodes a precondition may be made
/// from: past it, the trial is kept (lets inlined many times over would
/// cost more than the trial they spare, and procedures that call others
/// twice over would take without end to follow).
const MAX_NODES: usize = 4096;

/// How deep lets are inlined into one another.
const MAX_INLINE: usize = 8;

/// A counter or piece instance written so far, and the local holding its
/// value now.
#[derive(Clone, Debug)]
struct Written {
    res: Res,
    player: Option<Expr>,
    index: Option<Expr>,
    slot: usize,
}

/// What the steps so far have changed.
#[derive(Clone, Default)]
struct Flow {
    written: Vec<Written>,
    /// Zones, the random stream, the turn: written by statements left out.
    dirty: Vec<Res>,
}

struct Build<'a, 'r> {
    a: &'a mut Analysis<'r>,
    next: usize,
    nodes: usize,
    flow: Flow,
}

/// The precondition of an action's trial: its kept body statements from
/// `start` on, then the kept statements of `after action`. `None` when
/// some step would read what the steps cannot follow.
pub(super) fn build(
    a: &mut Analysis,
    action: &Action,
    start: usize,
    keep: &[bool],
    hook_keep: &[bool],
) -> Option<Precondition> {
    let r = a.r;
    let mut b =
        Build { a, next: action.body.locals.max(action.params.len()), nodes: 0, flow: Flow::default() };
    let mut steps = Vec::new();
    for (s, k) in action.body.stmts.iter().zip(keep).skip(start) {
        if *k {
            b.stmt(s, 0, &mut steps)?;
        }
    }
    // `after action` runs in a frame of its own.
    let base = b.fresh(r.after_action.locals);
    for (s, k) in r.after_action.stmts.iter().zip(hook_keep) {
        if *k {
            b.stmt(s, base, &mut steps)?;
        }
    }
    Some(Precondition { steps, slots: b.next })
}

impl Build<'_, '_> {
    /// `n` slots of their own, beyond all given so far.
    fn fresh(&mut self, n: usize) -> usize {
        let base = self.next;
        self.next += n;
        base
    }

    fn stmt(&mut self, s: &Stmt, k: usize, out: &mut Vec<Step>) -> Option<()> {
        // Statements count against the size limit too: procedures calling
        // procedures twice over would otherwise be followed without end.
        self.count()?;
        match &s.kind {
            StmtKind::Require { cond, .. } => {
                let cond = self.read(cond, k)?;
                out.push(Step::Check { cond, span: s.span });
            }
            StmtKind::Let { slot, value } => {
                let v = self.read(value, k)?;
                self.bind(slot + k, v, out)?;
            }
            StmtKind::Set { target, value } => {
                let v = self.read(value, k)?;
                self.write(target, k, v, false, out)?;
            }
            StmtKind::Advance { target, by } => {
                // As `exec`: the number, then the counter's value, added
                // (saturating, as `+`).
                let by = self.read(by, k)?;
                let old = self.read(target, k)?;
                let span = s.span;
                let v = Expr { kind: ExprKind::Binary(BinaryOp::Add, Box::new(old), Box::new(by)), span };
                self.write(target, k, v, true, out)?;
            }
            StmtKind::Move { .. } | StmtKind::Split { .. } => self.dirty(&[Res::Zones]),
            StmtKind::Draw { .. } | StmtKind::Shuffle(_) => self.dirty(&[Res::Zones, Res::Rng]),
            StmtKind::ShufflePlayers => self.dirty(&[Res::Turn, Res::Rng]),
            StmtKind::Ask { .. } | StmtKind::EndTurn => self.dirty(&[Res::Turn]),
            StmtKind::Reveal { .. } => {}
            StmtKind::If { cond, then, otherwise } => {
                let cond = self.read(cond, k)?;
                let before = self.flow.clone();
                let mut t = Vec::new();
                for s in then {
                    self.stmt(s, k, &mut t)?;
                }
                let after_then = std::mem::replace(&mut self.flow, before.clone());
                let mut o = Vec::new();
                for s in otherwise {
                    self.stmt(s, k, &mut o)?;
                }
                let after_else = std::mem::take(&mut self.flow);
                self.flow = self.merge(&before, after_then, after_else, &mut t, &mut o, s.span)?;
                out.push(Step::Branch { cond, then: t, otherwise: o });
            }
            StmtKind::For { .. } | StmtKind::Repeat { .. } | StmtKind::ByPlayers { .. } => {
                // Left out when it changes only what the steps leave out.
                let fx = self.a.stmt(s);
                let follows = |w: &Res| matches!(w, Res::Zones | Res::Rng | Res::Turn | Res::Local(_));
                if fx.refuses || !fx.writes.iter().all(follows) {
                    return None;
                }
                let left_out: Vec<Res> =
                    fx.writes.into_iter().filter(|w| !matches!(w, Res::Local(_))).collect();
                self.dirty(&left_out);
            }
            StmtKind::Do { procedure, args } => {
                let r = self.a.r;
                let p = &r.procedures[*procedure];
                let base = self.fresh(p.body.locals.max(p.params.len()));
                for (i, arg) in args.iter().enumerate() {
                    let v = self.read(arg, k)?;
                    self.bind(base + i, v, out)?;
                }
                for s in &p.body.stmts {
                    self.stmt(s, base, out)?;
                }
            }
        }
        Some(())
    }

    fn dirty(&mut self, what: &[Res]) {
        push_all(&mut self.flow.dirty, what);
    }

    /// An expression of a body whose slots start at `k`, as it reads in
    /// the steps.
    fn read(&mut self, e: &Expr, k: usize) -> Option<Expr> {
        let mut e = e.clone();
        if k > 0 {
            shift(&mut e, k);
        }
        self.rewrite(&mut e, 0)?;
        Some(e)
    }

    fn bind(&mut self, slot: usize, value: Expr, out: &mut Vec<Step>) -> Option<()> {
        // A key read through this slot would now mean something else.
        let keyed = |w: &Written| w.player.iter().chain(&w.index).any(|x| mentions(x, slot));
        if self.flow.written.iter().any(keyed) {
            return None;
        }
        out.push(Step::Bind { slot, value, place: false });
        Some(())
    }

    /// `target` (a counter or piece of a body whose slots start at `k`)
    /// now holds `value`: a fresh local holds it. `read_before` when the
    /// steps have read `target` already (an `advance`).
    fn write(
        &mut self,
        target: &Expr,
        k: usize,
        value: Expr,
        read_before: bool,
        out: &mut Vec<Step>,
    ) -> Option<()> {
        let (res, player, index) = match &target.kind {
            ExprKind::Counter { counter, player, index } => (Res::Counter(*counter), player, index),
            ExprKind::Piece { piece, player } => (Res::Piece(*piece), player, &None),
            _ => return None,
        };
        let player = match player.as_deref() {
            Some(p) => Some(self.read(p, k)?),
            None => None,
        };
        let index = match index.as_deref() {
            Some(i) => Some(self.read(i, k)?),
            None => None,
        };
        if !player.iter().chain(&index).all(atom) {
            return None;
        }
        let same = |w: &Written| same_key(w, &player, &index);
        // Another instance of the same counter written before: a later
        // read of either may be the other.
        if self.flow.written.iter().any(|w| w.res == res && !same(w)) {
            return None;
        }
        if !read_before && player.iter().chain(&index).any(|x| matches!(x.kind, ExprKind::Local(_))) {
            // Which instance, worked out as the trial would (a key out of
            // range, or `none` for a player, is a rule error there).
            let old = self.read(target, k)?;
            let touch = self.fresh(1);
            out.push(Step::Bind { slot: touch, value: old, place: false });
        }
        let slot = self.fresh(1);
        out.push(Step::Bind { slot, value, place: matches!(res, Res::Piece(_)) });
        self.flow.written.retain(|w| w.res != res);
        self.flow.written.push(Written { res, player, index, slot });
        Some(())
    }

    /// The flow after an `if`: where a branch left an instance in another
    /// local than the other branch (or than before), both bind one fresh
    /// local to it.
    fn merge(
        &mut self,
        before: &Flow,
        then: Flow,
        otherwise: Flow,
        t: &mut Vec<Step>,
        o: &mut Vec<Step>,
        span: Span,
    ) -> Option<Flow> {
        let mut flow = Flow { written: Vec::new(), dirty: then.dirty.clone() };
        push_all(&mut flow.dirty, &otherwise.dirty);
        for w in then.written.iter().chain(&otherwise.written) {
            if flow.written.iter().any(|x| x.res == w.res) {
                continue;
            }
            let find = |f: &Flow| f.written.iter().find(|x| x.res == w.res).cloned();
            let (a, b) = (find(&then), find(&otherwise));
            if [&a, &b].into_iter().flatten().any(|x| !same_key(x, &w.player, &w.index)) {
                return None;
            }
            let slot = match (&a, &b) {
                (Some(a), Some(b)) if a.slot == b.slot => a.slot,
                _ => {
                    let slot = self.fresh(1);
                    let was = find(before).map(|x| x.slot);
                    for (side, steps) in [(&a, &mut *t), (&b, &mut *o)] {
                        let value = match side.as_ref().map(|x| x.slot).or(was) {
                            Some(s) => Expr { kind: ExprKind::Local(s), span },
                            // A local key may be bound in one branch only.
                            None if keyed_by_local(w) => return None,
                            None => self.unwritten(w, span),
                        };
                        steps.push(Step::Bind { slot, value, place: false });
                    }
                    slot
                }
            };
            flow.written.push(Written { slot, ..w.clone() });
        }
        Some(flow)
    }

    /// A read of an instance no step has written.
    fn unwritten(&self, w: &Written, span: Span) -> Expr {
        let boxed = |x: &Option<Expr>| x.clone().map(Box::new);
        let kind = match w.res {
            Res::Counter(counter) => {
                ExprKind::Counter { counter, player: boxed(&w.player), index: boxed(&w.index) }
            }
            Res::Piece(piece) => ExprKind::Piece { piece, player: boxed(&w.player) },
            _ => unreachable!("only counters and pieces are written"),
        };
        Expr { kind, span }
    }

    /// Make `e` read what the steps so far left: a written instance reads
    /// its local; a let that reads something written is inlined. `None`
    /// when `e` reads what the steps do not follow.
    fn rewrite(&mut self, e: &mut Expr, depth: usize) -> Option<()> {
        self.count()?;
        let mut ok = true;
        e.for_each_child_mut(|x| ok = ok && self.rewrite(x, depth).is_some());
        if !ok {
            return None;
        }
        match &e.kind {
            ExprKind::Counter { counter, player, index } => {
                let (player, index) = (player.as_deref().cloned(), index.as_deref().cloned());
                if let Some(slot) = self.lookup(Res::Counter(*counter), &player, &index)? {
                    e.kind = ExprKind::Local(slot);
                }
            }
            ExprKind::Piece { piece, player } => {
                let player = player.as_deref().cloned();
                if let Some(slot) = self.lookup(Res::Piece(*piece), &player, &None)? {
                    e.kind = ExprKind::Local(slot);
                }
            }
            ExprKind::Zone { .. } | ExprKind::Group(_) if self.flow.dirty.contains(&Res::Zones) => {
                return None
            }
            ExprKind::PlayersFrom(_) if self.flow.dirty.contains(&Res::Turn) => return None,
            ExprKind::Let { id, args } => {
                let reads = self.a.let_reads(*id);
                if reads.iter().any(|r| self.changed(r)) {
                    // Inlined, its parameters replaced by the arguments:
                    // only plain ones, which cost nothing and cannot fail
                    // (the call would have worked them out first).
                    if depth >= MAX_INLINE || !args.iter().all(atom) {
                        return None;
                    }
                    let l = &self.a.r.lets[*id];
                    let base = self.fresh(l.locals.max(l.params.len()));
                    let mut body = l.body.clone();
                    shift(&mut body, base);
                    put(&mut body, base, args);
                    self.rewrite(&mut body, depth + 1)?;
                    *e = body;
                }
            }
            _ => {}
        }
        Some(())
    }

    /// One more statement or expression node: `None` past `MAX_NODES`.
    fn count(&mut self) -> Option<()> {
        self.nodes += 1;
        (self.nodes <= MAX_NODES).then_some(())
    }

    /// Whether the steps so far changed `r`.
    fn changed(&self, r: &Res) -> bool {
        match r {
            Res::Counter(_) | Res::Piece(_) => self.flow.written.iter().any(|w| w.res == *r),
            _ => self.flow.dirty.contains(r),
        }
    }

    /// The local holding an instance written before (`Some(None)` when none
    /// of its kind was written); `None` when another key of it was.
    fn lookup(&self, res: Res, player: &Option<Expr>, index: &Option<Expr>) -> Option<Option<usize>> {
        let mut of_kind = self.flow.written.iter().filter(|w| w.res == res).peekable();
        if of_kind.peek().is_none() {
            return Some(None);
        }
        of_kind.find(|w| same_key(w, player, index)).map(|w| Some(w.slot))
    }
}

fn keyed_by_local(w: &Written) -> bool {
    w.player.iter().chain(&w.index).any(|x| matches!(x.kind, ExprKind::Local(_)))
}

fn same_key(w: &Written, player: &Option<Expr>, index: &Option<Expr>) -> bool {
    let same = |a: &Option<Expr>, b: &Option<Expr>| match (a, b) {
        (None, None) => true,
        (Some(a), Some(b)) => same_atom(a, b),
        _ => false,
    };
    same(&w.player, player) && same(&w.index, index)
}

/// An expression that costs nothing, cannot fail and means the same
/// wherever it is read in the steps: `me`, a local or a constant.
fn atom(e: &Expr) -> bool {
    matches!(
        e.kind,
        ExprKind::Me
            | ExprKind::Local(_)
            | ExprKind::Int(_)
            | ExprKind::Bool(_)
            | ExprKind::None
            | ExprKind::Place(_)
            | ExprKind::Tag(_)
            | ExprKind::Option(_)
    )
}

fn same_atom(a: &Expr, b: &Expr) -> bool {
    use ExprKind as K;
    match (&a.kind, &b.kind) {
        (K::Me, K::Me) | (K::None, K::None) => true,
        (K::Local(x), K::Local(y)) => x == y,
        (K::Int(x), K::Int(y)) => x == y,
        (K::Bool(x), K::Bool(y)) => x == y,
        (K::Place(x), K::Place(y)) => x == y,
        (K::Tag(x), K::Tag(y)) => x == y,
        (K::Option(x), K::Option(y)) => x == y,
        _ => false,
    }
}

/// Whether `e` reads local `slot`.
fn mentions(e: &Expr, slot: usize) -> bool {
    let mut found = matches!(e.kind, ExprKind::Local(s) if s == slot);
    e.for_each_child(|x| found = found || mentions(x, slot));
    found
}

/// Move every slot `e` names (locals, and those its aggregates and walks
/// bind) up by `k`: a body's frame placed beyond the action's.
fn shift(e: &mut Expr, k: usize) {
    match &mut e.kind {
        ExprKind::Local(s) => *s += k,
        ExprKind::Aggregate { var, .. } => *var += k,
        ExprKind::Region(region, _) => {
            if let Region::Connected { from, to, .. } = &mut **region {
                *from += k;
                *to += k;
            }
        }
        _ => {}
    }
    e.for_each_child_mut(|x| shift(x, k));
}

/// Put `args` in place of the parameters (slots `base..`) a let's body,
/// shifted to `base`, reads.
fn put(e: &mut Expr, base: usize, args: &[Expr]) {
    if let ExprKind::Local(s) = e.kind {
        if let Some(a) = s.checked_sub(base).and_then(|i| args.get(i)) {
            *e = a.clone();
            return;
        }
    }
    e.for_each_child_mut(|x| put(x, base, args));
}
