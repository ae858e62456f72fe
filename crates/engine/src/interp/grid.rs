//! Places worked out from the state: grid coordinates, `at`, `rotate`, and
//! the sets of places `around(p)` and `connected(p, LINK)` that aggregates,
//! `for` and parameters go through.

use model::*;

use super::*;
use crate::state::{State, V};

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
                let places = &self.r.classes[self.r.places[p].class].places;
                let n = places.len() as i64;
                let i = places.iter().position(|q| *q == p).unwrap_or(0) as i64;
                Ok(V::Place(places[(i + k.rem_euclid(n)).rem_euclid(n) as usize]))
            }
        }
    }

    /// The place of a grid at a column and row, if the grid has one there.
    pub(crate) fn grid_place(&self, class: ClassId, x: i64, y: i64) -> Option<PlaceId> {
        let g = self.r.classes[class].grid?;
        let inside = (0..g.width as i64).contains(&x) && (0..g.height as i64).contains(&y);
        inside.then(|| self.r.classes[class].places[(y * g.width as i64 + x) as usize])
    }

    /// The places next to `p`: on a grid the up to 8 cells around it, row
    /// by row; elsewhere the places one route away, in the routes' order.
    fn next_to(&self, p: PlaceId, out: &mut Vec<PlaceId>) {
        let place = &self.r.places[p];
        match place.at {
            Some((x, y)) => {
                for dy in -1..=1 {
                    for dx in -1..=1 {
                        if (dx, dy) != (0, 0) {
                            out.extend(self.grid_place(place.class, x + dx, y + dy));
                        }
                    }
                }
            }
            None => {
                for route in &self.r.routes {
                    if route.a == p && !out.contains(&route.b) {
                        out.push(route.b);
                    } else if route.b == p && !out.contains(&route.a) {
                        out.push(route.a);
                    }
                }
            }
        }
    }

    /// Whether an expression is a set of places worked out from the state.
    pub(super) fn is_region(e: &Expr) -> bool {
        matches!(e.kind, ExprKind::Region(..))
    }

    /// The places of `around(p)` or `connected(p, LINK)`; of a class, all
    /// its places.
    pub fn places_of(&self, e: &Expr, st: &State, f: &mut Frame) -> R<Vec<PlaceId>> {
        let (region, start) = match &e.kind {
            ExprKind::Region(region, start) => (region, start),
            ExprKind::Class(c) => return Ok(self.r.classes[*c].places.clone()),
            _ => return rule(e.span, "not a set of places"),
        };
        let start = match self.eval(start, st, f)? {
            V::Place(p) => p,
            V::None => return Ok(Vec::new()),
            other => return rule(e.span, format!("{} is not a place", self.describe(&other))),
        };
        let mut out = Vec::new();
        match &**region {
            Region::Around => self.next_to(start, &mut out),
            Region::Connected { link, from, to } => {
                // A region is a value of the state, like a let's: kept in
                // the memo while the state stays as it is.
                let link_id = match link.kind {
                    ExprKind::Let { id, .. } => Some(id),
                    _ => None,
                };
                let memo = self.memo.zip(link_id);
                if let Some((memo, id)) = memo {
                    if let Some(places) = memo.borrow().region(id, start, f.me) {
                        return Ok(places);
                    }
                }
                // The link's let called with the two places as they are,
                // as the call in `link` would (a constant, a trace: that
                // call itself).
                let direct = link_id.filter(|id| {
                    self.trace.is_none() && !matches!(self.consts.get(id.index()), Some(Some(_)))
                });
                // Breadth first from the start, each place once.
                let mut seen = vec![0u64; self.r.places.len().div_ceil(64)];
                let bit = |p: PlaceId| (p.index() / 64, 1u64 << (p.index() % 64));
                let (w, b) = bit(start);
                seen[w] |= b;
                out.push(start);
                let mut next = Vec::new();
                let mut i = 0;
                while i < out.len() {
                    let here = out[i];
                    i += 1;
                    next.clear();
                    self.next_to(here, &mut next);
                    self.spend(next.len() as u64, e.span)?;
                    for there in next.iter().copied() {
                        let (w, b) = bit(there);
                        if seen[w] & b != 0 {
                            continue;
                        }
                        if self.link_holds(link, direct, (*from, *to), (here, there), st, f)? {
                            seen[w] |= b;
                            out.push(there);
                        }
                    }
                }
                if let Some((memo, id)) = memo {
                    memo.borrow_mut().keep_region(id, start, f.me, &out);
                }
            }
        }
        Ok(out)
    }

    /// Whether a region's link holds from `here` to `there`: its let
    /// called on them (`direct`), else the link's call in the frame, the
    /// two places bound to its locals `slots`.
    #[inline]
    fn link_holds(
        &self,
        link: &Expr,
        direct: Option<LetId>,
        slots: (usize, usize),
        (here, there): (PlaceId, PlaceId),
        st: &State,
        f: &mut Frame,
    ) -> R<bool> {
        if let Some(id) = direct {
            // Not through the memo: the region is what it keeps, and its
            // link's calls repeat only across regions that overlap (0.4%
            // of Akrotiri's).
            let body = &self.r.lets[id].body;
            self.spend(1, body.span)?;
            let mut inner = Frame::new(f.me);
            inner.set(0, V::Place(here));
            inner.set(1, V::Place(there));
            return self.bool(body, st, &mut inner);
        }
        f.set(slots.0, V::Place(here));
        f.set(slots.1, V::Place(there));
        self.bool(link, st, f)
    }
}
