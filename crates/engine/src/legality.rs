//! The static plan of the search for legal choices, worked out once per
//! ruleset: when each leading statement of an action can run (`levels`),
//! and which statements a legality trial must run (`TrialPlan`).
//!
//! A choice is legal when its action's body and `after action` run without
//! a failing `require`. To find out, the engine runs the rest of the body on
//! a copy of the state. Most of that work cannot change the answer: drawing
//! tokens into a player's finds does not matter to a later `require` that
//! reads only the time track. This module works out, once per ruleset, which
//! statements can: walking backwards from the last `require`, a statement is
//! needed if it may refuse, or if it writes something (zones, the random
//! stream, a counter, a piece, a local) that a needed statement after it
//! reads. Compound statements (`if`, `for`, `repeat`, `do`, `by players`)
//! count as one, with everything inside them. The analysis errs on the side
//! of running a statement; it never changes which choices are legal.

use crate::state::V;
use model::*;

mod pin;
mod pre;
pub use pin::{Bound as PinBound, Pin, PinRange, SMALL as PIN_SMALL};
pub use pre::{Precondition, Step};

/// What a statement or expression touches.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Res {
    /// The contents of any zone.
    Zones,
    /// The random stream.
    Rng,
    /// Player order and the turn stack.
    Turn,
    Counter(CounterId),
    Piece(PieceId),
    /// A local slot of the frame being analysed.
    Local(usize),
    /// Who `me` is (read only: no statement changes it).
    Me,
}

#[derive(Clone, Debug, Default)]
struct Fx {
    reads: Vec<Res>,
    writes: Vec<Res>,
    refuses: bool,
}

impl Fx {
    fn add(&mut self, other: Fx) {
        push_all(&mut self.reads, &other.reads);
        push_all(&mut self.writes, &other.writes);
        self.refuses |= other.refuses;
    }

    /// As seen from a caller: the callee's locals are its own.
    fn outside(mut self) -> Fx {
        self.reads.retain(|r| !matches!(r, Res::Local(_)));
        self.writes.retain(|r| !matches!(r, Res::Local(_)));
        self
    }
}

fn push(v: &mut Vec<Res>, r: Res) {
    if !v.contains(&r) {
        v.push(r);
    }
}

fn push_all(v: &mut Vec<Res>, rs: &[Res]) {
    for r in rs {
        push(v, *r);
    }
}

/// How the search for legal choices goes through each action: when each
/// leading statement can run, and which statements of the body (from the
/// first change on) and of `after action` a legality trial runs.
#[derive(Clone, Debug)]
pub struct TrialPlan {
    /// Per action, per body statement: how many parameters must be bound
    /// before it can run on its own (`levels`).
    pub levels: Vec<Vec<usize>>,
    /// Per action, per number of bound parameters: the leading statements
    /// that run then, in order (`levels` turned around).
    pub at_level: Vec<Vec<Vec<usize>>>,
    /// Per action, per body statement: run it in a trial.
    pub body: Vec<Vec<bool>>,
    /// Per action, per statement of `after action`.
    pub hook: Vec<Vec<bool>>,
    /// Per action: its body's first statement that changes the state (the
    /// body's length when none does).
    pub start: Vec<usize>,
    /// Per action: whether its complete choices must be tried, something
    /// from `start` on or in `after action` being kept (`body`, `hook`).
    pub tried: Vec<bool>,
    /// Per action, per parameter: the bounds a `set of` parameter's sets
    /// must keep, read from its leading requirements (see `SetBound`).
    pub set_bounds: Vec<Vec<Vec<SetBound>>>,
    /// Per action: the part of a trial that several choices share (see
    /// `TrialPrefix`), when there is one.
    pub prefix: Vec<Option<TrialPrefix>>,
    /// Per action: a parameter whose larger values can only make a trial
    /// fail (see `Monotone`).
    pub monotone: Vec<Option<Monotone>>,
    /// Per action: the requirements a trial meets first, on the state as
    /// the search reads it (see `Opening`).
    pub openings: Vec<Vec<Opening>>,
    /// Per action whose choices are tried: its trial as steps on the
    /// state the search reads (`Precondition`), when they can be worked
    /// out.
    pub pre: Vec<Option<Precondition>>,
    /// Per action, per parameter: what the leading requirements at its
    /// depth leave of its range, when they are plain comparisons (see
    /// `Pin`); empty for an action without any.
    pub pins: Vec<Vec<Option<Pin>>>,
    /// Per let: it has no parameters and reads nothing that changes after
    /// setup (no zone, no `me`, only counters and pieces that no action,
    /// `after action` or procedure they run writes), so its value is fixed
    /// once the game is set up.
    pub constant_lets: Vec<bool>,
}

impl TrialPlan {
    pub fn new(r: &Ruleset) -> TrialPlan {
        let mut a =
            Analysis { r, lets: vec![None; r.lets.len()], procedures: vec![None; r.procedures.len()] };
        let mut body = Vec::with_capacity(r.actions.len());
        let mut hook = Vec::with_capacity(r.actions.len());
        for action in &r.actions {
            let mut live = Vec::new();
            let h = a.needed(&r.after_action.stmts, &mut live);
            // The hook has a frame of its own.
            live.retain(|x| !matches!(x, Res::Local(_)));
            let b = a.needed(&action.body.stmts, &mut live);
            body.push(b);
            hook.push(h);
        }
        let levels: Vec<Vec<usize>> = r.actions.iter().map(levels).collect();
        let at_level: Vec<Vec<Vec<usize>>> = levels
            .iter()
            .zip(&r.actions)
            .map(|(l, action)| {
                let mut by = vec![Vec::new(); action.params.len() + 1];
                for (i, level) in l.iter().enumerate() {
                    if let Some(stmts) = by.get_mut(*level) {
                        stmts.push(i);
                    }
                }
                by
            })
            .collect();
        // What play can change: everything the actions and the hook write.
        let mut played = a.block(&r.after_action.stmts);
        for action in &r.actions {
            played.add(a.block(&action.body.stmts));
        }
        let fixed = |res: &Res| match res {
            Res::Counter(_) | Res::Piece(_) => !played.writes.contains(res),
            _ => false,
        };
        let constant_lets = LetId::all(r.lets.len())
            .map(|id| r.lets[id].params.is_empty() && a.let_reads(id).iter().all(fixed))
            .collect();
        let set_bounds = r.actions.iter().zip(&levels).map(|(a, l)| set_bounds(a, l)).collect();
        let prefix = r
            .actions
            .iter()
            .zip(levels.iter().zip(&body))
            .map(|(action, (l, keep))| a.prefix(action, l, keep))
            .collect();
        let mut monotone: Vec<Option<Monotone>> = r
            .actions
            .iter()
            .zip(levels.iter().zip(body.iter().zip(&hook)))
            .map(|(action, (l, (keep, hook_keep)))| a.monotone(action, l, keep, hook_keep))
            .collect();
        let openings = r.actions.iter().zip(&levels).map(|(action, l)| a.openings(action, l)).collect();
        let first_change: Vec<Option<usize>> =
            levels.iter().map(|l| l.iter().position(|l| *l == usize::MAX)).collect();
        let start: Vec<usize> = first_change.iter().zip(&levels).map(|(f, l)| f.unwrap_or(l.len())).collect();
        let tried: Vec<bool> = start
            .iter()
            .zip(body.iter().zip(&hook))
            .map(|(s, (keep, hook_keep))| keep[*s..].iter().chain(hook_keep).any(|k| *k))
            .collect();
        let pre = r
            .actions
            .iter()
            .enumerate()
            .map(|(i, action)| {
                // Only for an action that changes the state and whose
                // choices are tried at all.
                let start = first_change[i]?;
                tried[i].then(|| pre::build(&mut a, action, start, &body[i], &hook[i])).flatten()
            })
            .collect();
        // The monotone parameter, whose values go largest first, only by
        // the comparisons of table entries.
        let pins: Vec<Vec<Option<Pin>>> = r
            .actions
            .iter()
            .zip(at_level.iter().zip(&monotone))
            .map(|(action, (by, m))| {
                let pins: Vec<Option<Pin>> = (0..action.params.len())
                    .map(|k| {
                        let stmts = by.get(k + 1).into_iter().flatten().map(|i| &action.body.stmts[*i]);
                        let pin = Pin::of(r, action, k, stmts);
                        pin.filter(|p| p.reads_tables() || m.as_ref().is_none_or(|m| m.param != k))
                    })
                    .collect();
                // None at all: an empty list, the search's one test.
                if pins.iter().all(Option::is_none) {
                    Vec::new()
                } else {
                    pins
                }
            })
            .collect();
        for ((m, by), pins) in monotone.iter_mut().zip(&at_level).zip(&pins) {
            if let Some(m) = m {
                m.settles = m.later.is_some()
                    && by.iter().skip(m.param + 2).all(Vec::is_empty)
                    && pins.iter().skip(m.param + 1).all(Option::is_none);
            }
        }
        TrialPlan {
            levels,
            at_level,
            body,
            hook,
            start,
            tried,
            constant_lets,
            set_bounds,
            prefix,
            monotone,
            openings,
            pre,
            pins,
        }
    }
}

/// A parameter the outcome of an action's trial is monotone in (see
/// `Analysis::monotone`): when a value passes its trial, every smaller one
/// with the same later parameters passes too; when the trial fails other
/// than at one of `bounds`, it fails for every value alike.
#[derive(Clone, Debug)]
pub struct Monotone {
    pub param: usize,
    /// The requirements that read what the parameter changes.
    pub bounds: Vec<Span>,
    /// The parameters after it, when each is a flag or a number range and
    /// their combinations are at most 64: how a combination of their
    /// values is numbered (`position`), so that the search notes what it
    /// found at each in one bit.
    pub later: Option<Vec<Radix>>,
    /// Whether, once every combination of the later values is noted, the
    /// search may list the choices of the parameter's smaller values
    /// straight from the notes (`Game::settled`): the later values are
    /// numbered, no leading statement waits for them, and no pin narrows
    /// them. (The leading statements once the parameter is bound must be
    /// none, or held by its pin: the search tells at each run.)
    pub settles: bool,
}

/// A parameter's values numbered from 0 (`Monotone::later`): a flag's
/// (no, yes) or a number range's from its lowest.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Radix {
    Flag,
    Range { lo: i64, size: u64 },
}

impl Radix {
    /// How many values it numbers.
    #[inline]
    pub fn size(self) -> u64 {
        match self {
            Radix::Flag => 2,
            Radix::Range { size, .. } => size,
        }
    }

    /// The value numbered `k` (below `size`).
    #[inline]
    pub fn value(self, k: u64) -> V {
        match self {
            Radix::Flag => V::Bool(k == 1),
            Radix::Range { lo, .. } => V::Int(lo.saturating_add(k as i64)),
        }
    }
}

/// The most combinations `Monotone::later` numbers (bits of one `u64`).
const POSITIONS: u64 = 64;

impl Monotone {
    /// The number of a combination of the later parameters' values (see
    /// `later`); `None` without numbering, or for a value outside it.
    #[inline]
    pub fn position(&self, key: &[V]) -> Option<u32> {
        let radixes = self.later.as_deref()?;
        let mut at = 0u64;
        for (v, r) in key.iter().zip(radixes) {
            let k = match (r, v) {
                (Radix::Flag, V::Bool(b)) => *b as u64,
                (Radix::Range { lo, .. }, V::Int(n)) => u64::try_from(n.checked_sub(*lo)?).ok()?,
                _ => return None,
            };
            if k >= r.size() {
                return None;
            }
            at = at * r.size() + k;
        }
        Some(at as u32)
    }

    /// How the parameters after `param` are numbered, if they can be.
    fn radixes(action: &Action, param: usize) -> Option<Vec<Radix>> {
        let mut combinations = 1u64;
        let mut radixes = Vec::new();
        for p in &action.params[param + 1..] {
            let r = match p.domain {
                ParamDomain::Type(Type::Bool) => Radix::Flag,
                ParamDomain::Type(Type::Int { lo: Some(lo), hi: Some(hi) }) => {
                    let size = u64::try_from(hi.checked_sub(lo)?.checked_add(1)?).ok()?;
                    Radix::Range { lo, size }
                }
                _ => return None,
            };
            combinations = combinations.checked_mul(r.size())?;
            if combinations > POSITIONS {
                return None;
            }
            radixes.push(r);
        }
        Some(radixes)
    }
}

/// A requirement a trial meets before anything changes: an opening
/// `require` of the procedure an action calls as its first change. It reads
/// the state as the search does and the parameters in `params` (through the
/// call's arguments and the procedure's opening lets), nothing else: when a
/// trial fails there, every choice with the same values of those
/// parameters fails there too, and needs no trial.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Opening {
    pub span: Span,
    /// The action's parameters it depends on, in order.
    pub params: Vec<usize>,
}

/// The first statements of an action's trial, up to the first that reads
/// the parameter with the most values (a duration `1..12`, say): choices
/// that differ only in later parameters run them alike. The search runs
/// them once per `key` (the values of the locals they read) on a state of
/// their own, and each choice's trial goes on from a copy of that state.
/// Only kept statements that bind no local the rest could read.
#[derive(Clone, Debug)]
pub struct TrialPrefix {
    /// The first body statement after the shared part.
    pub split: usize,
    /// The locals the shared part reads (parameters and leading lets).
    pub key: Vec<usize>,
}

/// How many values a parameter's domain has, when the ruleset fixes it.
fn domain_size(p: &Param) -> u64 {
    match &p.domain {
        ParamDomain::Type(Type::Bool) => 2,
        ParamDomain::Type(Type::Int { lo: Some(lo), hi: Some(hi) }) => {
            hi.saturating_sub(*lo).saturating_add(1).max(0) as u64
        }
        _ => 0,
    }
}

/// A leading requirement that bounds a `set of` parameter from above:
/// `require count(S) <= RHS` (or `<`, `==`), or `require sum(W for c in S)
/// <= RHS` (or `<`), with RHS known before S is chosen. Adding a component
/// to a set never lowers its count, nor its sum while every weight is 0 or
/// more (checked when the sets are listed), so the search for sets stops
/// growing one as soon as it passes the bound instead of listing every
/// subset. The requirement itself still runs on each set listed: a bound
/// only leaves out sets it would refuse.
#[derive(Clone, Debug)]
pub struct SetBound {
    /// The weight of one component (`None`: each counts 1), with the slot
    /// its variable binds.
    pub weight: Option<(Expr, usize)>,
    /// The largest total allowed is `rhs`, less one when strict (`<`).
    pub rhs: Expr,
    pub strict: bool,
}

/// The bounds of each `set of` parameter of an action (see `SetBound`).
fn set_bounds(action: &Action, levels: &[usize]) -> Vec<Vec<SetBound>> {
    let mut slot_level: Vec<usize> = (0..action.params.len()).map(|k| k + 1).collect();
    let mut out = vec![Vec::new(); action.params.len()];
    for (s, level) in action.body.stmts.iter().zip(levels) {
        if *level == usize::MAX {
            break;
        }
        match &s.kind {
            StmtKind::Let { slot, value } => {
                if *slot >= slot_level.len() {
                    slot_level.resize(*slot + 1, 0);
                }
                slot_level[*slot] = needs(value, &slot_level);
            }
            StmtKind::Require { cond, .. } => {
                let ExprKind::Binary(op, lhs, rhs) = &cond.kind else { continue };
                let strict = match op {
                    BinaryOp::Le | BinaryOp::Eq => false,
                    BinaryOp::Lt => true,
                    _ => continue,
                };
                let (weight, set) = match &lhs.kind {
                    ExprKind::Builtin(Builtin::Count, args) if args.len() == 1 => (None, &args[0]),
                    ExprKind::Aggregate {
                        func: Aggregate::Count,
                        value: None,
                        var: _,
                        domain,
                        filter: None,
                    } => (None, &**domain),
                    ExprKind::Aggregate {
                        func: Aggregate::Sum,
                        value: Some(w),
                        var,
                        domain,
                        filter: None,
                    } if *op != BinaryOp::Eq => (Some(((**w).clone(), *var)), &**domain),
                    _ => continue,
                };
                let ExprKind::Local(k) = set.kind else { continue };
                let is_set = action.params.get(k).is_some_and(|p| matches!(p.domain, ParamDomain::SetOf(_)));
                // Known once the parameters before it are chosen; a weight
                // that reads only its component and what is known then.
                if !is_set || needs(rhs, &slot_level) > k {
                    continue;
                }
                if let Some((w, var)) = &weight {
                    let mut w_levels = slot_level.clone();
                    if *var >= w_levels.len() {
                        w_levels.resize(*var + 1, 0);
                    }
                    w_levels[*var] = 0;
                    if needs(w, &w_levels) > k {
                        continue;
                    }
                }
                out[k].push(SetBound { weight, rhs: (**rhs).clone(), strict });
            }
            _ => {}
        }
    }
    out
}

struct Analysis<'r> {
    r: &'r Ruleset,
    /// What each let's body reads, as seen from a caller.
    lets: Vec<Option<Vec<Res>>>,
    procedures: Vec<Option<Fx>>,
}

impl Analysis<'_> {
    /// Which parameters each local of an action depends on, as bits: a
    /// parameter itself, a leading `let` (before statement `start`) what
    /// its value reads.
    fn param_deps(&mut self, action: &Action, start: usize) -> Vec<u64> {
        let mut deps: Vec<u64> = (0..action.params.len()).map(|k| 1 << k).collect();
        for s in &action.body.stmts[..start] {
            if let StmtKind::Let { slot, value } = &s.kind {
                let mut reads = Vec::new();
                self.expr(value, &mut reads);
                let d = params_of(&reads, &deps);
                if *slot >= deps.len() {
                    deps.resize(*slot + 1, 0);
                }
                deps[*slot] = d;
            }
        }
        deps
    }

    /// The shared first part of an action's trial (`TrialPrefix`).
    fn prefix(&mut self, action: &Action, levels: &[usize], keep: &[bool]) -> Option<TrialPrefix> {
        let n = action.params.len();
        if n > 64 || action.params.iter().any(|p| matches!(p.domain, ParamDomain::SetOf(_))) {
            return None;
        }
        let start = levels.iter().position(|l| *l == usize::MAX)?;
        let deps = self.param_deps(action, start);
        let kept: Vec<(usize, Fx)> = (start..action.body.stmts.len())
            .filter(|i| keep[*i])
            .map(|i| (i, self.stmt(&action.body.stmts[i])))
            .collect();
        let read = kept.iter().fold(0u64, |m, (_, fx)| m | params_of(&fx.reads, &deps));
        // The parameter with the most values the trial reads.
        let widest =
            (0..n).filter(|k| read & (1 << k) != 0).max_by_key(|k| domain_size(&action.params[*k]))?;
        if domain_size(&action.params[widest]) < 3 {
            return None;
        }
        let split = kept
            .iter()
            .position(|(_, fx)| {
                params_of(&fx.reads, &deps) & (1 << widest) != 0
                    || fx.writes.iter().any(|w| matches!(w, Res::Local(_)))
            })
            .unwrap_or(kept.len());
        if split == 0 {
            return None;
        }
        let mut key: Vec<usize> = kept[..split]
            .iter()
            .flat_map(|(_, fx)| fx.reads.iter())
            .filter_map(|r| if let Res::Local(slot) = r { Some(*slot) } else { None })
            .collect();
        key.sort_unstable();
        key.dedup();
        let split = kept.get(split).map_or(action.body.stmts.len(), |(i, _)| *i);
        Some(TrialPrefix { split, key })
    }

    /// A parameter the outcome of an action's trial is monotone in: a
    /// number range `p` the statements a trial runs read only as
    /// `advance C by p` (one statement of the body, `C` a counter of `me`
    /// or of the game), after which they read `C` only in requirements
    /// `C <= X` or `C < X` (either way round), `X` reading neither `C` nor
    /// `p`, and write `C` no more. Then a larger `p` leaves `C` larger and
    /// every other step the same, so it fails wherever a smaller one
    /// fails: when a value passes, every smaller value passes too (with
    /// the same other parameters). Rule errors come only from what `p`
    /// does not touch, so they do not depend on it either.
    fn monotone(
        &mut self,
        action: &Action,
        levels: &[usize],
        keep: &[bool],
        hook_keep: &[bool],
    ) -> Option<Monotone> {
        let n = action.params.len();
        if n > 64 || action.params.iter().any(|p| matches!(p.domain, ParamDomain::SetOf(_))) {
            return None;
        }
        let start = levels.iter().position(|l| *l == usize::MAX)?;
        let deps = self.param_deps(action, start);
        let reads_param = |reads: &[Res], deps: &[u64], p: usize| params_of(reads, deps) & (1 << p) != 0;
        let kept: Vec<&Stmt> =
            (start..action.body.stmts.len()).filter(|i| keep[*i]).map(|i| &action.body.stmts[i]).collect();
        let hook: Vec<&Stmt> =
            self.r.after_action.stmts.iter().zip(hook_keep).filter(|(_, k)| **k).map(|(s, _)| s).collect();
        'param: for p in 0..n {
            if !matches!(action.params[p].domain, ParamDomain::Type(Type::Int { lo: Some(_), hi: Some(_) })) {
                continue;
            }
            // The one statement that reads `p`: `advance C by p`.
            let mut advanced: Option<&Expr> = None;
            let mut bounds = Vec::new();
            for s in &kept {
                let fx = self.stmt(s);
                match advanced {
                    None if reads_param(&fx.reads, &deps, p) => {
                        let StmtKind::Advance { target, by } = &s.kind else { continue 'param };
                        let (ExprKind::Local(slot), ExprKind::Counter { index: None, player, .. }) =
                            (&by.kind, &target.kind)
                        else {
                            continue 'param;
                        };
                        if *slot != p || !player.as_deref().is_none_or(|e| matches!(e.kind, ExprKind::Me)) {
                            continue 'param;
                        }
                        advanced = Some(target);
                    }
                    None => {}
                    Some(c) => {
                        if reads_param(&fx.reads, &deps, p) {
                            continue 'param;
                        }
                        match self.reads_counter_only_below(s, &fx, c) {
                            Some(true) => bounds.push(s.span),
                            Some(false) => {}
                            None => continue 'param,
                        }
                    }
                }
            }
            let Some(c) = advanced else { continue };
            // The hook has a frame of its own: its locals are not `p`.
            for s in &hook {
                let fx = self.stmt(s);
                match self.reads_counter_only_below(s, &fx, c) {
                    Some(true) => bounds.push(s.span),
                    Some(false) => {}
                    None => continue 'param,
                }
            }
            return Some(Monotone { param: p, bounds, later: Monotone::radixes(action, p), settles: false });
        }
        None
    }

    /// For `monotone`, a statement (effects `fx`) after `advance c by p`:
    /// `Some(false)` when it leaves counter `c` alone, `Some(true)` when it
    /// is a requirement `c <= X` or `c < X` (either way round) with `X` not
    /// reading `c`'s counter, `None` otherwise.
    fn reads_counter_only_below(&mut self, s: &Stmt, fx: &Fx, c: &Expr) -> Option<bool> {
        let ExprKind::Counter { counter, .. } = &c.kind else { return None };
        let res = Res::Counter(*counter);
        if fx.writes.contains(&res) {
            return None;
        }
        if !fx.reads.contains(&res) {
            return Some(false);
        }
        let StmtKind::Require { cond, .. } = &s.kind else { return None };
        let (x, bound) = match &cond.kind {
            ExprKind::Binary(BinaryOp::Le | BinaryOp::Lt, x, bound) => (x, bound),
            ExprKind::Binary(BinaryOp::Ge | BinaryOp::Gt, bound, x) => (x, bound),
            _ => return None,
        };
        let same = match (&x.kind, &c.kind) {
            (
                ExprKind::Counter { counter: a, player: pa, index: None },
                ExprKind::Counter { counter: b, player: pb, index: None },
            ) => {
                a == b
                    && match (pa.as_deref(), pb.as_deref()) {
                        (None, None) => true,
                        (Some(pa), Some(pb)) => matches!((&pa.kind, &pb.kind), (ExprKind::Me, ExprKind::Me)),
                        _ => false,
                    }
            }
            _ => false,
        };
        let mut reads = Vec::new();
        self.expr(bound, &mut reads);
        (same && !reads.contains(&res)).then_some(true)
    }

    /// An action's `Opening`s: when the body's first change is `do P(...)`,
    /// the `require`s among P's opening `let`s and `require`s, if P is
    /// called nowhere else in the body, in `after action` or in the
    /// procedures they call (so that a failure at one of them is a failure
    /// there, on the state the search reads).
    fn openings(&mut self, action: &Action, levels: &[usize]) -> Vec<Opening> {
        let n = action.params.len();
        let Some(start) = levels.iter().position(|l| *l == usize::MAX) else { return Vec::new() };
        let StmtKind::Do { procedure, args } = &action.body.stmts[start].kind else { return Vec::new() };
        if n > 64 {
            return Vec::new();
        }
        let r = self.r;
        let mut seen = vec![false; r.procedures.len()];
        let calls = count_calls(r, &action.body.stmts, *procedure, &mut seen)
            + count_calls(r, &r.after_action.stmts, *procedure, &mut seen);
        if calls != 1 {
            return Vec::new();
        }
        let deps = self.param_deps(action, start);
        // The procedure's locals: its parameters are the call's arguments.
        let mut inner: Vec<u64> = args
            .iter()
            .map(|a| {
                let mut reads = Vec::new();
                self.expr(a, &mut reads);
                params_of(&reads, &deps)
            })
            .collect();
        let mut out = Vec::new();
        for s in &r.procedures[*procedure].body.stmts {
            let mut reads = Vec::new();
            match &s.kind {
                StmtKind::Let { slot, value } => {
                    self.expr(value, &mut reads);
                    let d = params_of(&reads, &inner);
                    if *slot >= inner.len() {
                        inner.resize(*slot + 1, 0);
                    }
                    inner[*slot] = d;
                }
                StmtKind::Require { cond, .. } => {
                    self.expr(cond, &mut reads);
                    let d = params_of(&reads, &inner);
                    out.push(Opening {
                        span: s.span,
                        params: (0..n).filter(|k| d & (1 << k) != 0).collect(),
                    });
                }
                _ => break,
            }
        }
        out
    }

    /// Backwards over `stmts` with `live` what later needed statements
    /// read: whether each statement is needed. `live` grows by the reads of
    /// the needed ones.
    fn needed(&mut self, stmts: &[Stmt], live: &mut Vec<Res>) -> Vec<bool> {
        let mut keep = vec![false; stmts.len()];
        for (i, s) in stmts.iter().enumerate().rev() {
            let fx = self.stmt(s);
            if fx.refuses || fx.writes.iter().any(|w| live.contains(w)) {
                keep[i] = true;
                push_all(live, &fx.reads);
            }
        }
        keep
    }

    fn block(&mut self, stmts: &[Stmt]) -> Fx {
        let mut fx = Fx::default();
        for s in stmts {
            let one = self.stmt(s);
            fx.add(one);
        }
        fx
    }

    fn stmt(&mut self, s: &Stmt) -> Fx {
        let mut fx = Fx::default();
        match &s.kind {
            StmtKind::Require { cond, .. } => {
                fx.refuses = true;
                self.expr(cond, &mut fx.reads);
            }
            StmtKind::Let { slot, value } => {
                self.expr(value, &mut fx.reads);
                push(&mut fx.writes, Res::Local(*slot));
            }
            StmtKind::Set { target, value } | StmtKind::Advance { target, by: value } => {
                self.expr(value, &mut fx.reads);
                self.expr(target, &mut fx.reads);
                match &target.kind {
                    ExprKind::Counter { counter, .. } => push(&mut fx.writes, Res::Counter(*counter)),
                    ExprKind::Piece { piece, .. } => push(&mut fx.writes, Res::Piece(*piece)),
                    // Not assignable: the checker refuses it; run it anyway.
                    _ => fx.refuses = true,
                }
            }
            StmtKind::Move { what, to, .. } => {
                match what {
                    Selection::One(e) => self.expr(e, &mut fx.reads),
                    Selection::All { domain, filter, .. } | Selection::First { domain, filter, .. } => {
                        self.expr(domain, &mut fx.reads);
                        if let Some(f) = filter {
                            self.expr(f, &mut fx.reads);
                        }
                    }
                }
                self.expr(to, &mut fx.reads);
                push(&mut fx.reads, Res::Zones);
                push(&mut fx.writes, Res::Zones);
            }
            StmtKind::Draw { count, from, to, .. } => {
                for e in [count, from, to] {
                    self.expr(e, &mut fx.reads);
                }
                push_all(&mut fx.reads, &[Res::Zones, Res::Rng]);
                push_all(&mut fx.writes, &[Res::Zones, Res::Rng]);
            }
            StmtKind::Shuffle(z) => {
                self.expr(z, &mut fx.reads);
                push_all(&mut fx.reads, &[Res::Zones, Res::Rng]);
                push_all(&mut fx.writes, &[Res::Zones, Res::Rng]);
            }
            StmtKind::ShufflePlayers => {
                push_all(&mut fx.reads, &[Res::Turn, Res::Rng]);
                push_all(&mut fx.writes, &[Res::Turn, Res::Rng]);
            }
            StmtKind::Split { from, into } => {
                self.expr(from, &mut fx.reads);
                for z in into {
                    self.expr(z, &mut fx.reads);
                }
                push(&mut fx.reads, Res::Zones);
                push(&mut fx.writes, Res::Zones);
            }
            // Who decides next: the turn's state, which `players from` reads.
            StmtKind::Ask { player, .. } => {
                self.expr(player, &mut fx.reads);
                push(&mut fx.reads, Res::Turn);
                push(&mut fx.writes, Res::Turn);
            }
            StmtKind::EndTurn => {
                push(&mut fx.reads, Res::Turn);
                push(&mut fx.writes, Res::Turn);
            }
            // Tells a player something; changes nothing a rule reads.
            StmtKind::Reveal { zone, to } => {
                self.expr(zone, &mut fx.reads);
                self.expr(to, &mut fx.reads);
            }
            StmtKind::If { cond, then, otherwise } => {
                self.expr(cond, &mut fx.reads);
                fx.add(self.block(then));
                fx.add(self.block(otherwise));
            }
            StmtKind::For { var, domain, body } => {
                self.expr(domain, &mut fx.reads);
                push(&mut fx.writes, Res::Local(*var));
                fx.add(self.block(body));
            }
            StmtKind::Repeat { cond, body } => {
                self.expr(cond, &mut fx.reads);
                fx.add(self.block(body));
            }
            StmtKind::Do { procedure, args } => {
                for a in args {
                    self.expr(a, &mut fx.reads);
                }
                fx.add(self.procedure(*procedure));
            }
            StmtKind::ByPlayers { cases } => {
                for (_, body) in cases {
                    fx.add(self.block(body));
                }
            }
        }
        fx
    }

    fn procedure(&mut self, id: ProcedureId) -> Fx {
        if let Some(fx) = &self.procedures[id.index()] {
            return fx.clone();
        }
        let r = self.r;
        let fx = self.block(&r.procedures[id].body.stmts).outside();
        self.procedures[id.index()] = Some(fx.clone());
        fx
    }

    fn let_reads(&mut self, id: LetId) -> Vec<Res> {
        if let Some(reads) = &self.lets[id.index()] {
            return reads.clone();
        }
        let r = self.r;
        let mut reads = Vec::new();
        self.expr(&r.lets[id].body, &mut reads);
        reads.retain(|x| !matches!(x, Res::Local(_)));
        self.lets[id.index()] = Some(reads.clone());
        reads
    }

    /// Everything the state an expression's value depends on: what the
    /// node itself reads, then its children's.
    fn expr(&mut self, e: &Expr, out: &mut Vec<Res>) {
        match &e.kind {
            ExprKind::Local(slot) => push(out, Res::Local(*slot)),
            ExprKind::Me => push(out, Res::Me),
            ExprKind::Group(_) | ExprKind::Zone { .. } => push(out, Res::Zones),
            ExprKind::Counter { counter, .. } => push(out, Res::Counter(*counter)),
            ExprKind::Piece { piece, .. } => push(out, Res::Piece(*piece)),
            ExprKind::Let { id, .. } => {
                let reads = self.let_reads(*id);
                push_all(out, &reads);
            }
            // Who comes next: the turn's state.
            ExprKind::PlayersFrom(_) => push(out, Res::Turn),
            _ => {}
        }
        e.for_each_child(|x| self.expr(x, out));
    }
}

/// The parameters (bits, see `Analysis::param_deps`) the locals among
/// `reads` depend on.
fn params_of(reads: &[Res], deps: &[u64]) -> u64 {
    reads.iter().fold(0u64, |m, r| match r {
        Res::Local(slot) => m | deps.get(*slot).copied().unwrap_or(0),
        _ => m,
    })
}

/// How often `stmts`, and the procedures they call, call `target` (each
/// other procedure followed once: `seen`).
fn count_calls(r: &Ruleset, stmts: &[Stmt], target: ProcedureId, seen: &mut Vec<bool>) -> usize {
    let mut n = 0;
    for s in stmts {
        match &s.kind {
            StmtKind::Do { procedure, .. } => {
                if *procedure == target {
                    n += 1;
                }
                if !std::mem::replace(&mut seen[procedure.index()], true) {
                    n += count_calls(r, &r.procedures[*procedure].body.stmts, target, seen);
                }
            }
            StmtKind::If { then, otherwise, .. } => {
                n += count_calls(r, then, target, seen) + count_calls(r, otherwise, target, seen);
            }
            StmtKind::For { body, .. } | StmtKind::Repeat { body, .. } => {
                n += count_calls(r, body, target, seen)
            }
            StmtKind::ByPlayers { cases } => {
                n += cases.iter().map(|(_, b)| count_calls(r, b, target, seen)).sum::<usize>();
            }
            _ => {}
        }
    }
    n
}

/// For each statement of an action's body, how many parameters must be
/// bound before it can run on its own: `usize::MAX` from the first
/// statement that changes anything (those only run in a full trial).
pub fn levels(action: &Action) -> Vec<usize> {
    let n = action.params.len();
    // The level of each local slot: parameter k needs k + 1 bound; a `let`
    // needs what its value needs.
    let mut slot_level: Vec<usize> = (0..n).map(|k| k + 1).collect();
    let mut out = Vec::with_capacity(action.body.stmts.len());
    let mut open = true;
    for s in &action.body.stmts {
        let level = match (&s.kind, open) {
            (StmtKind::Require { cond, .. }, true) => needs(cond, &slot_level),
            (StmtKind::Let { slot, value }, true) => {
                let l = needs(value, &slot_level);
                if *slot >= slot_level.len() {
                    slot_level.resize(*slot + 1, 0);
                }
                slot_level[*slot] = l;
                l
            }
            _ => {
                open = false;
                usize::MAX
            }
        };
        out.push(level);
    }
    out
}

/// The most parameters an expression needs bound (see `levels`).
fn needs(e: &Expr, slot_level: &[usize]) -> usize {
    match &e.kind {
        ExprKind::Local(slot) => slot_level.get(*slot).copied().unwrap_or(0),
        _ => {
            let mut most = 0;
            e.for_each_child(|x| most = most.max(needs(x, slot_level)));
            most
        }
    }
}
