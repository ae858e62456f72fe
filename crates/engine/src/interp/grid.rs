//! Places worked out from the state: grid coordinates, `at`, `rotate`, and
//! the sets of places `around(p)` and `connected(p, LINK)` that aggregates,
//! `for` and parameters go through.

use model::*;

use super::*;
use crate::native::unwrap_root;
use crate::state::{State, V};

/// The places of a set worked out from the state (`around`, `connected`):
/// shared, so that the memo gives a region it keeps without a copy.
pub type Places = std::rc::Rc<[PlaceId]>;

impl Interp<'_> {
    /// `p.x`, `p.y`.
    pub(super) fn coordinate(&self, b: Builtin, arg: &Expr, st: &State, f: &mut Frame) -> R<i64> {
        let p = match self.eval(arg, st, f)? {
            V::Place(p) => p,
            other => return rule(arg.span, format!("{} has no coordinates", self.describe(&other))),
        };
        match self.r.places[p].at {
            Some((x, y)) => Ok(if b == Builtin::X { x } else { y }),
            None => rule(arg.span, format!("{} is not on a grid", self.r.places[p].name)),
        }
    }

    /// `at(CLASS, x, y)` and `rotate(v, k)`.
    pub(super) fn place_fn(&self, func: PlaceFn, args: &[Expr], st: &State, f: &mut Frame) -> R<V> {
        match func {
            PlaceFn::At => {
                let ExprKind::Class(class) = args[0].kind else {
                    return rule(args[0].span, "`at` needs a grid");
                };
                let x = self.int(&args[1], st, f)?;
                let y = self.int(&args[2], st, f)?;
                Ok(self.grid_place(class, x, y).map_or(V::None, V::Place))
            }
            PlaceFn::Rotate => {
                let p = match self.eval(&args[0], st, f)? {
                    V::Place(p) => p,
                    V::None => return Ok(V::None),
                    other => return rule(args[0].span, format!("cannot rotate {}", self.describe(&other))),
                };
                let k = self.int(&args[1], st, f)?;
                Ok(V::Place(self.rotated(p, k)))
            }
        }
    }

    /// `rotate(p, k)` of a place: `k` places on in its class, round.
    pub(crate) fn rotated(&self, p: PlaceId, k: i64) -> PlaceId {
        let places = &self.r.classes[self.r.places[p].class].places;
        let n = places.len() as i64;
        let i = places.iter().position(|q| *q == p).unwrap_or(0) as i64;
        // Both below n: one division, not two.
        let on = i + k.rem_euclid(n);
        places[(if on >= n { on - n } else { on }) as usize]
    }

    /// The place of a grid at a column and row, if the grid has one there.
    #[inline]
    pub(crate) fn grid_place(&self, class: ClassId, x: i64, y: i64) -> Option<PlaceId> {
        grid_place(self.r, class, x, y)
    }

    /// Whether an expression is a set of places worked out from the state.
    pub(super) fn is_region(e: &Expr) -> bool {
        matches!(e.kind, ExprKind::Region(..))
    }

    /// The places of `around(p)` or `connected(p, LINK)`; of a class, all
    /// its places.
    pub fn places_of(&self, e: &Expr, st: &State, f: &mut Frame) -> R<Places> {
        let (region, start) = match &e.kind {
            ExprKind::Region(region, start) => (region, start),
            ExprKind::Class(c) => return Ok(Places::from(&self.r.classes[*c].places[..])),
            _ => return rule(e.span, "not a set of places"),
        };
        let start = match self.eval(start, st, f)? {
            V::Place(p) => p,
            V::None => return Ok(Places::default()),
            other => return rule(e.span, format!("{} is not a place", self.describe(&other))),
        };
        match &**region {
            Region::Around => Ok(self.around(start)),
            Region::Connected { link, from, to } => {
                // The checker writes a link as a call of a let on two locals.
                let ExprKind::Let { id, .. } = link.kind else { return rule(link.span, "a link is a let") };
                if self.trace.is_none() {
                    return self.connected(id, start, e.span, st, f.me);
                }
                // Traced (`explain`): each call of the link as written.
                self.walk(
                    id,
                    start,
                    e.span,
                    f.me,
                    self.memo,
                    |p| self.neighbours.of(p),
                    |here, _, there| {
                        let mut call = Frame::new(f.me);
                        call.set(*from, V::Place(here));
                        call.set(*to, V::Place(there));
                        self.bool(link, st, &mut call)
                    },
                )
            }
        }
    }

    /// `around(p)`: the places next to `p`.
    pub fn around(&self, p: PlaceId) -> Places {
        Places::from(self.neighbours.of(p))
    }

    /// A compiled expression's function and the expression inside, to be
    /// called as it is (what `bool` would come to through `native`); none
    /// for one walked as written, or while a trace wants each call.
    fn compiled<'e>(&self, e: &'e Expr) -> Option<(crate::native::NativeFn, &'e Expr)> {
        match &e.kind {
            ExprKind::Native(i, inner) if self.trace.is_none() => {
                self.natives.get(*i as usize).map(|native| (*native, &**inner))
            }
            _ => None,
        }
    }

    /// `connected(start, LINK)`, LINK the let `link` (`span`: the
    /// region's, for the work it counts). Compiled rules call it too.
    pub fn connected(
        &self,
        link: LetId,
        start: PlaceId,
        span: Span,
        st: &State,
        me: Option<PlayerId>,
    ) -> R<Places> {
        // The memo: the one this run reads, or on a copy of the game's
        // state being changed, the game's while the link reads nothing
        // written since.
        let memo = match (self.memo, self.walks) {
            (Some(memo), _) => Some(memo),
            (None, Some((memo, reads))) if reads.same_on_copy(link, self.lay, st) => Some(memo),
            _ => None,
        };
        if let Some(places) = memo.and_then(|m| m.borrow().region(link, start, me)) {
            return Ok(places);
        }
        // The link's let called on the two places directly, not through
        // the memo's calls: a link is called on thousands of pairs. What
        // it gives at each step is kept apart (`Memo::steps`), for walks
        // from other starts while nothing it reads changes.
        let fixed = match self.consts.get(link.index()) {
            Some(Some(v)) => Some(matches!(v, V::Bool(true))),
            _ => None,
        };
        let body = &self.r.lets[link].body;
        // A compiled link's function called as it is (what `bool` would
        // come to through `native`), not looked up at every step.
        let native = self.compiled(body);
        // What the link, and the link it asks first, gave at each step,
        // taken out of the memo for the walk (the region found is kept in
        // `regions`).
        let regions = memo;
        let memo = memo.filter(|m| fixed.is_none() && m.borrow().serves(me));
        let len = self.neighbours.len();
        let mut own = memo.map(|m| m.borrow_mut().take_steps(link, len));
        let first = self.neighbours.first_of(link).and_then(|i| memo?.borrow_mut().take_kept_steps(i));
        // The conjuncts after that link's call (compiled in compiled rules:
        // their function called as it is, as the link's own is).
        let rest = self.neighbours.rest_of(link).filter(|_| first.is_some());
        let rest_native = rest.and_then(|e| self.compiled(e));
        // The link's tests found once for the walk.
        let tests = self.link_tests(link, fixed.is_some());
        let steps = |here: PlaceId| self.steps(tests, here, st);
        // One frame for every step of the walk: the link binds its two
        // places, and any local of its own, before reading them.
        let mut call = Frame::new(me);
        // A step kept is worked out with no memo, noting the instances of
        // declarations per place it reads (`Memo::advance` forgets it when
        // an action writes one of them).
        let noted = std::cell::RefCell::new(Vec::new());
        let noting = self.noting(&noted);
        let it = if own.is_some() { &noting } else { self };
        let walked = self.walk(link, start, span, me, regions, steps, |here, k, there| {
            if let Some(holds) = fixed {
                return Ok(holds);
            }
            // The step's entry: `here`'s first in the list of every place's
            // neighbours, then its `k`-th step (the steps a walk of a link
            // takes from a place are the same at every walk, `steps`).
            let at = self.neighbours.first(here) + k;
            if let Some(holds) = own.as_ref().and_then(|s| s.get(at)) {
                return Ok(holds);
            }
            // Where the link it asks first is kept, this one is that
            // one's value `and` the rest of its conjuncts (compiled in
            // compiled rules); not kept for this one, which did not read
            // what that one did.
            let asked_first = first.as_ref().and_then(|s| s.get(at));
            if asked_first == Some(false) {
                return Ok(false);
            }
            self.spend(1, body.span)?;
            call.set(0, V::Place(here));
            call.set(1, V::Place(there));
            if let Some(rest) = rest.filter(|_| asked_first == Some(true)) {
                return match rest_native {
                    // What `bool` comes to through `native`.
                    Some((native, inner)) => {
                        let v = native(self, &crate::native::Root::Given(inner), st, &mut call)?;
                        self.to_bool(v, rest.span)
                    }
                    None => self.bool(rest, st, &mut call),
                };
            }
            noted.borrow_mut().clear();
            let holds = match native {
                Some((native, inner)) => match native(it, &crate::native::Root::Given(inner), st, &mut call)?
                {
                    V::Bool(b) => b,
                    _ => it.bool(body, st, &mut call)?,
                },
                None => it.bool(body, st, &mut call)?,
            };
            if let Some(s) = own.as_mut() {
                s.keep_read(at, holds, &noted.borrow());
            }
            Ok(holds)
        });
        if let Some(m) = memo {
            let mut m = m.borrow_mut();
            own.into_iter().chain(first).for_each(|s| m.put_steps(s));
        }
        walked
    }

    /// The places reachable from `start` by steps to a place next to the
    /// last (among `steps`) for which `holds` (the link), breadth first,
    /// each once. A region is a value of the state, like a let's: kept in
    /// the memo while nothing its link reads changes (`connected` looks
    /// there first; a traced walk has no memo).
    #[allow(clippy::too_many_arguments)]
    fn walk<'n>(
        &self,
        link: LetId,
        start: PlaceId,
        span: Span,
        me: Option<PlayerId>,
        memo: Option<&std::cell::RefCell<super::Memo>>,
        steps: impl Fn(PlaceId) -> &'n [PlaceId],
        mut holds: impl FnMut(PlaceId, usize, PlaceId) -> R<bool>,
    ) -> R<Places> {
        // The places reached, a bit each: on the stack for a board of up
        // to `SEEN_ON_STACK` words of them (a walk is made often).
        let words = self.r.places.len().div_ceil(64);
        let mut on_stack = [0u64; SEEN_ON_STACK];
        let mut on_heap = Vec::new();
        let seen: &mut [u64] = if words <= SEEN_ON_STACK {
            &mut on_stack[..words]
        } else {
            on_heap.resize(words, 0);
            &mut on_heap
        };
        let bit = |p: PlaceId| (p.index() / 64, 1u64 << (p.index() % 64));
        let (w, b) = bit(start);
        seen[w] |= b;
        // Room for a region of `REGION_ROOM` places without growing.
        let mut out = Vec::with_capacity(REGION_ROOM);
        out.push(start);
        let mut i = 0;
        while i < out.len() {
            let here = out[i];
            i += 1;
            let next = steps(here);
            self.spend(next.len() as u64, span)?;
            for (k, there) in next.iter().copied().enumerate() {
                let (w, b) = bit(there);
                if seen[w] & b == 0 && holds(here, k, there)? {
                    seen[w] |= b;
                    out.push(there);
                }
            }
        }
        let out = Places::from(out);
        if let Some(memo) = memo {
            memo.borrow_mut().keep_region(link, start, me, &out);
        }
        Ok(out)
    }
}

impl<'a> Interp<'a> {
    /// The places a walk of `link` steps to from `here`: its neighbours,
    /// less those for which a part of the link that reads nothing of the
    /// state is false (`LinkTests`); all of them for a link fixed for the
    /// game (`constant`), which is not called.
    pub(crate) fn steps_from(&self, link: LetId, constant: bool, here: PlaceId, st: &State) -> &'a [PlaceId] {
        self.steps(self.link_tests(link, constant), here, st)
    }

    /// The tests of `link` that read nothing of the state, if it has any
    /// and is not fixed for the game (`constant`).
    fn link_tests(&self, link: LetId, constant: bool) -> Option<&'a LinkTests> {
        self.neighbours.tests(link).filter(|_| !constant)
    }

    /// The steps from `here` that `tests` allow; every neighbour without.
    #[inline]
    fn steps(&self, tests: Option<&'a LinkTests>, here: PlaceId, st: &State) -> &'a [PlaceId] {
        match tests {
            Some(t) => self.allowed_steps(t, here, st),
            None => self.neighbours.of(here),
        }
    }

    /// The steps a walk of a link with `tests` (`LinkTests`) takes from
    /// `here`: the neighbours for which no test is false (one that cannot
    /// be told, a rule error, is the link's own to meet), found at the
    /// program's first walk through `here`. The tests read nothing of the
    /// state, so any state serves; their work is counted apart from the
    /// game's.
    fn allowed_steps(&self, tests: &'a LinkTests, here: PlaceId, st: &State) -> &'a [PlaceId] {
        let all = self.neighbours.of(here);
        let places = tests
            .steps
            .get_or_init(|| (0..self.r.places.len()).map(|_| std::sync::OnceLock::new()).collect());
        let Some(cell) = places.get(here.index()) else { return all };
        cell.get_or_init(|| {
            let work = Cell::new(0);
            let it = Interp {
                events: None,
                work: &work,
                trace: None,
                memo: None,
                walks: None,
                listing: &[],
                ..*self
            };
            let mut frame = Frame::new(None);
            let mut allowed = Vec::with_capacity(all.len());
            for &there in all {
                frame.set(0, V::Place(here));
                frame.set(1, V::Place(there));
                if tests.tests.iter().all(|t| it.bool(t, st, &mut frame).unwrap_or(true)) {
                    allowed.push(there);
                }
            }
            allowed.into()
        })
    }
}

/// How many words of bits a walk keeps the places it reached in on the
/// stack: a board of up to 2,048 places, more than the checker lets a
/// ruleset have (2,000, `ruleset::check::MAX_PLACES`). A ruleset made
/// otherwise with more places has them on the heap.
const SEEN_ON_STACK: usize = 32;

/// How many places a walk makes room for at once: the regions of the
/// bundled grid game hold 27 to 32 places on average
/// (docs/performance.md), and a list that grows one place at a time is
/// reallocated 5 times on the way to 32.
const REGION_ROOM: usize = 64;

/// The place of a grid at a column and row, if the grid has one there.
#[inline]
fn grid_place(r: &Ruleset, class: ClassId, x: i64, y: i64) -> Option<PlaceId> {
    let g = r.classes[class].grid?;
    let inside = (0..g.width as i64).contains(&x) && (0..g.height as i64).contains(&y);
    inside.then(|| r.classes[class].places[(y * g.width as i64 + x) as usize])
}

/// The places next to each place (`around`, and the steps of a region's
/// walk): on a grid the up to 8 cells around it, row by row; elsewhere
/// the places one route away, in the routes' order. Worked out once per
/// program, one list after another.
#[derive(Debug, Default)]
pub struct Neighbours {
    /// Where each place's neighbours end in `places`.
    ends: Vec<u32>,
    places: Vec<PlaceId>,
    /// Per let that can be a link (two parameters): its tests that read
    /// nothing of the state, when it has any.
    links: Vec<Option<LinkTests>>,
    /// Per let that can be a link: the link it asks first, walked the
    /// same way (`first_link`), and what it asks after that call.
    first_links: Vec<Option<FirstLink>>,
}

/// The link a link asks first, and the rest of the asking link.
#[derive(Debug)]
struct FirstLink {
    link: LetId,
    /// The asking link's conjuncts after the call, as one expression on
    /// its places as locals 0 and 1 (`X and Y` of `(F(a, b) and X) and
    /// Y`; `yes` when there are none): a step the first link gave `yes`
    /// is that expression's value. Compiled rules compile it too
    /// (`native::link_rests_mut`).
    rest: Expr,
}

/// The conjuncts a link is worked out from first (`a and b and ...`, a
/// call of a let on the link's two places looked into) for as long as
/// they read nothing but those places and the ruleset: the same for any
/// state, so a step for which one is false is left out of every walk
/// rather than tried at each (a link that first asks whether two grid
/// places are side by side, `a.x == b.x or a.y == b.y`, is never called
/// for a diagonal neighbour). A prefix only: where such a test is false,
/// the link stops there too, before anything that could meet an error.
#[derive(Debug)]
pub(super) struct LinkTests {
    /// On the link's places as locals 0 and 1.
    tests: Vec<Expr>,
    /// Per place, the steps they allow from it, each found at the first
    /// walk through it (`Interp::allowed_steps`).
    steps: std::sync::OnceLock<Box<[Steps]>>,
}

/// The steps from one place, once found.
type Steps = std::sync::OnceLock<Box<[PlaceId]>>;

impl LinkTests {
    fn of(r: &Ruleset, l: &Let) -> Option<LinkTests> {
        if l.params.len() != 2 {
            return None;
        }
        let mut tests = Vec::new();
        leading_tests(r, &l.body, &mut tests, 0);
        (!tests.is_empty()).then(|| LinkTests { tests, steps: std::sync::OnceLock::new() })
    }
}

/// How deep `leading_tests` and `reads_nothing` look into let calls.
const LINK_DEPTH: usize = 8;

/// Push onto `out` the first conjuncts of `e` (on two places, locals 0
/// and 1) that read nothing of the state; whether all of `e` was.
fn leading_tests(r: &Ruleset, e: &Expr, out: &mut Vec<Expr>, depth: usize) -> bool {
    let inner = match &e.kind {
        ExprKind::Native(_, inner) => inner,
        _ => e,
    };
    match &inner.kind {
        ExprKind::Binary(BinaryOp::And, a, b) => {
            leading_tests(r, a, out, depth) && leading_tests(r, b, out, depth)
        }
        ExprKind::Let { id, args }
            if depth < LINK_DEPTH
                && r.lets[*id].params.len() == 2
                && matches!(
                    args[..],
                    [Expr { kind: ExprKind::Local(0), .. }, Expr { kind: ExprKind::Local(1), .. }]
                ) =>
        {
            leading_tests(r, &r.lets[*id].body, out, depth + 1)
        }
        _ if reads_nothing(r, inner, 2, depth) => {
            out.push(inner.clone());
            true
        }
        _ => false,
    }
}

/// Whether `e` reads only its first `locals` locals and the ruleset
/// (numbers, places, attributes, tables, coordinates, `at`, `rotate`,
/// lets that do the same), never the state, who moves or the number of
/// players.
fn reads_nothing(r: &Ruleset, e: &Expr, locals: usize, depth: usize) -> bool {
    let go = |x: &Expr| reads_nothing(r, x, locals, depth);
    match &e.kind {
        ExprKind::Int(_)
        | ExprKind::Bool(_)
        | ExprKind::Text(_)
        | ExprKind::None
        | ExprKind::Place(_)
        | ExprKind::Tag(_)
        | ExprKind::Class(_) => true,
        ExprKind::Local(i) => *i < locals,
        ExprKind::Attr { card: x, .. } | ExprKind::Unary(_, x) | ExprKind::Native(_, x) => go(x),
        ExprKind::MapGet { map: a, key: b } | ExprKind::Binary(_, a, b) => go(a) && go(b),
        ExprKind::If(c, a, b) => go(c) && go(a) && go(b),
        ExprKind::Table { keys, .. } | ExprKind::PlaceFn(_, keys) => keys.iter().all(go),
        ExprKind::Builtin(b, args) => {
            matches!(
                b,
                Builtin::Min | Builtin::Max | Builtin::Abs | Builtin::Distance | Builtin::X | Builtin::Y
            ) && args.iter().all(go)
        }
        ExprKind::Let { id, args } => {
            let l = &r.lets[*id];
            depth < LINK_DEPTH && args.iter().all(go) && reads_nothing(r, &l.body, l.params.len(), depth + 1)
        }
        _ => false,
    }
}

/// A link's body `(F and X) and Y` after its first conjunct `F`: `X and
/// Y`, left to right as the body has them, or `yes` when `F` is all.
fn rest_after_first(body: &Expr) -> Expr {
    let mut rest = Vec::new();
    let mut e = unwrap_root(body);
    while let ExprKind::Binary(BinaryOp::And, a, b) = &e.kind {
        rest.push((**b).clone());
        e = unwrap_root(a);
    }
    let mut rest = rest.into_iter().rev();
    let Some(first) = rest.next() else { return Expr { kind: ExprKind::Bool(true), span: body.span } };
    rest.fold(first, |x, y| {
        let span = x.span.to(y.span);
        Expr { kind: ExprKind::Binary(BinaryOp::And, Box::new(x), Box::new(y)), span }
    })
}

impl Neighbours {
    pub fn new(r: &Ruleset) -> Neighbours {
        let mut n = Neighbours::default();
        for p in PlaceId::all(r.places.len()) {
            let start = n.places.len();
            let place = &r.places[p];
            match place.at {
                Some((x, y)) => {
                    for dy in -1..=1 {
                        for dx in -1..=1 {
                            if (dx, dy) != (0, 0) {
                                n.places.extend(grid_place(r, place.class, x + dx, y + dy));
                            }
                        }
                    }
                }
                None => {
                    for route in &r.routes {
                        let other = if route.a == p {
                            route.b
                        } else if route.b == p {
                            route.a
                        } else {
                            continue;
                        };
                        if !n.places[start..].contains(&other) {
                            n.places.push(other);
                        }
                    }
                }
            }
            n.ends.push(n.places.len() as u32);
        }
        n.links = r.lets.iter().map(|l| LinkTests::of(r, l)).collect();
        let first_links: Vec<_> = LetId::all(r.lets.len())
            .map(|id| {
                n.first_link(r, id).map(|link| FirstLink { link, rest: rest_after_first(&r.lets[id].body) })
            })
            .collect();
        n.first_links = first_links;
        n
    }

    /// The conjuncts of each link that asks another first, after that
    /// call (`FirstLink::rest`), in the links' order.
    pub(crate) fn rests_mut(&mut self) -> impl Iterator<Item = &mut Expr> {
        self.first_links.iter_mut().flatten().map(|f| &mut f.rest)
    }

    /// What link `link` gives at a step the link it asks first gave `yes`
    /// (`FirstLink::rest`).
    pub(super) fn rest_of(&self, link: LetId) -> Option<&Expr> {
        Some(&self.first_links.get(link.index())?.as_ref()?.rest)
    }

    /// The link `own` first asks, when it starts with a call of another
    /// let on its own two places (`land(a, b) and ...`) whose tests of
    /// places alone are the same as its own (so that a walk of either
    /// steps the same way from each place).
    fn first_link(&self, r: &Ruleset, own: LetId) -> Option<LetId> {
        let l = &r.lets[own];
        if l.params.len() != 2 {
            return None;
        }
        let mut first = unwrap_root(&l.body);
        while let ExprKind::Binary(BinaryOp::And, a, _) = &first.kind {
            first = unwrap_root(a);
        }
        let ExprKind::Let { id, args } = &first.kind else { return None };
        let on_both = matches!(
            args[..],
            [Expr { kind: ExprKind::Local(0), .. }, Expr { kind: ExprKind::Local(1), .. }]
        );
        let spans = |t: Option<&LinkTests>| t.map(|t| t.tests.iter().map(|e| e.span).collect::<Vec<_>>());
        let same = spans(self.tests(own)) == spans(self.tests(*id));
        (on_both && *id != own && r.lets[*id].params.len() == 2 && same).then_some(*id)
    }

    /// The link `link` asks first (`first_link`), if any.
    pub(crate) fn first_of(&self, link: LetId) -> Option<LetId> {
        Some(self.first_links.get(link.index())?.as_ref()?.link)
    }

    /// The tests of `link` that read nothing of the state, if it has any.
    fn tests(&self, link: LetId) -> Option<&LinkTests> {
        self.links.get(link.index())?.as_ref()
    }

    /// The places next to `p`.
    pub fn of(&self, p: PlaceId) -> &[PlaceId] {
        &self.places[self.first(p)..self.ends[p.index()] as usize]
    }

    /// Where the places next to `p` start in the list of every place's.
    #[inline]
    pub(super) fn first(&self, p: PlaceId) -> usize {
        let i = p.index();
        if i == 0 {
            0
        } else {
            self.ends[i - 1] as usize
        }
    }

    /// The place whose neighbours an entry of the list of every place's
    /// lies among, and how far into them: the `k`-th step from it, as
    /// `Memo::steps` keeps the steps of a link.
    pub fn entry_of(&self, at: usize) -> Option<(PlaceId, usize)> {
        let here = self.ends.partition_point(|end| *end as usize <= at);
        (here < self.ends.len()).then(|| (PlaceId::new(here), at - self.first(PlaceId::new(here))))
    }

    /// How many entries the list of every place's neighbours has.
    pub(super) fn len(&self) -> usize {
        self.places.len()
    }
}
