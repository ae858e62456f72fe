//! The sets a `set of` parameter may take: every set of a zone's
//! components within the bounds its leading requirements state, copies of
//! one name told apart only by how many are chosen.

use super::*;

/// The most sets one `set of` parameter may list at once, after the bounds
/// its leading requirements state (`legality::SetBound`): more is a rule
/// error rather than a listing that never ends. Unbounded, a zone offers
/// the product of each name's copies plus one: 12 cards of 12 different
/// names make 4,096 sets, 16 of 8 names in pairs 6,561.
pub const MAX_SETS: usize = 65_536;

impl<'p> Game<'p> {
    /// The sets of `pool` (as `sets_of`) that keep the bounds: each bound's
    /// right side and the weights are read in `frame`. A weight below 0
    /// drops that bound (a larger set could then weigh less).
    pub(super) fn bounded_sets(
        &self,
        pool: &[V],
        bounds: &[SetBound],
        frame: &mut Frame,
        span: model::Span,
    ) -> Result<(), Fail> {
        // The lists of the last call (each cleared before use).
        let mut scratch = self.spare.borrow_mut().set_search.take().unwrap_or_default();
        let found = self.weigh(pool, bounds, frame, &mut scratch).and_then(|()| {
            // The sets depend only on the pool and the limits: the same as
            // one of the last two calls' (another action choosing from the
            // same hand: a listing may choose from one hand without a
            // limit, with one, then without again), they are copied.
            let same =
                |l: &LastSets| l.pool == pool && l.weights == scratch.weights && l.maxes == scratch.maxes;
            if let Some(hit) = self.spare.borrow().last_sets.iter().find(|l| same(l)) {
                frame.sets.extend_from(&hit.sets, 0);
                return Ok(());
            }
            let base = frame.sets.len();
            self.sets_within(pool, span, &mut scratch, &mut frame.sets)?;
            // The older of the two makes room.
            let mut spare = self.spare.borrow_mut();
            spare.last_sets.swap(0, 1);
            let last = &mut spare.last_sets[0];
            last.pool.clear();
            last.pool.extend_from_slice(pool);
            last.weights.clone_from(&scratch.weights);
            last.maxes.clone_from(&scratch.maxes);
            last.sets.clear();
            last.sets.extend_from(&frame.sets, base);
            Ok(())
        });
        self.spare.borrow_mut().set_search = Some(scratch);
        found
    }

    /// Each bound's largest total and the weight of each pool entry under
    /// it, into `scratch` (`maxes`, `weights`, one run of the pool's
    /// length per bound), read in `frame`.
    fn weigh(
        &self,
        pool: &[V],
        bounds: &[SetBound],
        frame: &mut Frame,
        scratch: &mut SetScratch,
    ) -> Result<(), Fail> {
        let it = self.interp(false);
        let SetScratch { weights, maxes, .. } = scratch;
        weights.clear();
        maxes.clear();
        for b in bounds {
            let rhs = it.int(&b.rhs, &self.state, frame).map_err(|f| *f)?;
            let start = weights.len();
            match &b.weight {
                None => weights.resize(start + pool.len(), 1),
                Some((w, var)) => {
                    // An attribute of each component read from the table;
                    // anything else (or a value that is no number) walked.
                    let attr = it.weight_attr(w, *var);
                    for v in pool {
                        let read = match (attr, v) {
                            (Some(a), V::Card(c)) => it.attr_number(*c, a),
                            _ => None,
                        };
                        match read {
                            Some(n) => weights.push(n),
                            None => {
                                frame.set(*var, *v);
                                weights.push(it.int(w, &self.state, frame).map_err(|f| *f)?);
                            }
                        }
                    }
                }
            }
            if weights[start..].iter().all(|w| *w >= 0) {
                maxes.push(if b.strict { rhs.saturating_sub(1) } else { rhs });
            } else {
                weights.truncate(start);
            }
        }
        Ok(())
    }

    /// Whether two components are copies of one (same group and name), so
    /// that a set may hold either.
    pub fn alike(&self, a: ComponentId, b: ComponentId) -> bool {
        self.program.likeness[a.index()] == self.program.likeness[b.index()]
    }

    /// Every set that can be chosen from `pool` (the components of a zone,
    /// in the order they lie): for each name, the first k of its copies,
    /// for every k from none to all. The empty set comes first, then sets
    /// in order of the counts, the first name's counting fastest.
    pub fn sets_of(&self, pool: &[V], span: model::Span) -> Result<Vec<Vec<ComponentId>>, Fail> {
        let mut sets = crate::interp::Sets::default();
        self.sets_within(pool, span, &mut SetScratch::default(), &mut sets)?;
        Ok(sets.iter().map(<[ComponentId]>::to_vec).collect())
    }

    /// `sets_of`, leaving out each set whose total weight passes a limit:
    /// `scratch`'s `maxes`, each with a run of `weights`, one per pool
    /// entry (0 or more). The search grows a set one name at a time and
    /// stops growing it at the first limit passed, so its work follows the
    /// sets listed, not every subset of the pool. The sets go after those
    /// in `out`; more than `MAX_SETS` listed is a rule error.
    fn sets_within(
        &self,
        pool: &[V],
        span: model::Span,
        scratch: &mut SetScratch,
        out: &mut crate::interp::Sets,
    ) -> Result<(), Fail> {
        let SetScratch {
            rank,
            names,
            name_of,
            starts,
            copies,
            counts,
            totals,
            name_totals,
            name_bits,
            weights,
            by_entry,
            maxes,
        } = scratch;
        // Per pool entry: its name (numbered in the order names first
        // appear) and its place among that name's copies (a set of counts
        // holds the copies ranked below each count).
        rank.clear();
        rank.resize(pool.len(), (0, usize::MAX));
        // Each name's first copy and how many copies it has; where each
        // likeness is among them (`name_of`, by likeness, reset after).
        names.clear();
        let like = &self.program.likeness;
        name_of.resize(like.len(), u32::MAX);
        for (i, v) in pool.iter().enumerate() {
            let V::Card(c) = v else { continue };
            let Some(&l) = like.get(c.index()) else { continue };
            match name_of[l as usize] {
                u32::MAX => {
                    name_of[l as usize] = names.len() as u32;
                    rank[i] = (names.len(), 0);
                    names.push((*c, 1));
                }
                k => {
                    let k = k as usize;
                    rank[i] = (k, names[k].1);
                    names[k].1 += 1;
                }
            }
        }
        for (first, _) in names.iter() {
            name_of[like[first.index()] as usize] = u32::MAX;
        }
        // Each name's copies (as pool indexes), name after name: name k's
        // are `copies[starts[k]..starts[k + 1]]`.
        starts.clear();
        let mut at = 0;
        for (_, n) in names.iter() {
            starts.push(at);
            at += n;
        }
        starts.push(at);
        copies.clear();
        copies.resize(at, 0);
        for (i, (k, r)) in rank.iter().enumerate() {
            if *r != usize::MAX {
                copies[starts[*k] + r] = i;
            }
        }
        counts.clear();
        counts.resize(names.len(), 0);
        let limits = maxes.len();
        totals.clear();
        totals.resize(limits, 0);
        name_totals.clear();
        name_totals.resize(names.len() * limits, 0);
        name_bits.clear();
        name_bits.resize(names.len(), 0);
        // Each entry's weights under every limit side by side: `weigh`
        // lists them limit after limit, the same order for one limit.
        let weights: &[i64] = if limits > 1 {
            by_entry.clear();
            for i in 0..pool.len() {
                for l in 0..limits {
                    by_entry.push(weights[l * pool.len() + i]);
                }
            }
            by_entry
        } else {
            weights
        };
        let mut search = SetSearch {
            pool,
            rank,
            starts,
            copies,
            weights,
            maxes,
            counts,
            totals,
            name_totals,
            name_bits,
            chosen: 0,
            base: out.len(),
            out,
        };
        let fits = search.run();
        let name_count = names.len();
        if !fits {
            return Err(Fail::Rule {
                message: format!(
                    "{} components of {name_count} different names make more than {MAX_SETS} sets to choose from",
                    pool.len()
                ),
                span,
            });
        }
        Ok(())
    }

    /// Whether `set` is one of the sets `sets_of(pool)` lists: components
    /// of the pool in its order, each name's first copies.
    pub fn is_set_of(&self, pool: &[V], set: &[ComponentId]) -> bool {
        // Going through the pool in order: the set's next component is
        // taken when met; any other component must have no copy among the
        // set's rest (the set would have skipped a first copy). Nothing
        // allocated (a step of a choice with a set checks it).
        let like = &self.program.likeness;
        let mut next = 0;
        for v in pool {
            let V::Card(c) = v else { continue };
            let rest = &set[next..];
            if rest.first() == Some(c) {
                next += 1;
                continue;
            }
            let name = like.get(c.index());
            if rest.iter().any(|s| like.get(s.index()) == name) {
                return false;
            }
        }
        next == set.len()
    }
}

/// The search for sets within limits (`Game::sets_within`): the counts of
/// the names, counted like an odometer whose first name changes fastest
/// (`run`).
struct SetSearch<'a> {
    pool: &'a [V],
    /// Per pool entry: (its name, its rank among the copies).
    rank: &'a [(usize, usize)],
    /// Name `k`'s copies (as pool indexes) are
    /// `copies[starts[k]..starts[k + 1]]`.
    starts: &'a [usize],
    copies: &'a [usize],
    /// Per pool entry, its weight under each limit (entry `i`'s at
    /// `i * maxes.len()..`); per limit, the largest total.
    weights: &'a [i64],
    maxes: &'a [i64],
    counts: &'a mut [usize],
    /// Per limit, the weight of the copies counted.
    totals: &'a mut [i128],
    /// Per name and limit (name `k`'s at `k * maxes.len()..`), the weight
    /// of its copies counted; per name, those copies as bits of `chosen`
    /// (small pools): a name goes back to none in one step, whatever
    /// its count.
    name_totals: &'a mut [i128],
    name_bits: &'a mut [u64],
    /// Each set's components in the order they lie, after the first
    /// `base` sets.
    out: &'a mut crate::interp::Sets,
    base: usize,
    /// The pool entries chosen so far, one bit each, when the pool has at
    /// most 64 (`SMALL_POOL`).
    chosen: u64,
}

/// A pool of at most this many entries keeps the set being grown as bits
/// (`SetSearch::chosen`).
const SMALL_POOL: usize = 64;

impl SetSearch<'_> {
    /// The set the counts make, its components in the order they lie in
    /// the pool, after the others; false past `MAX_SETS`.
    fn emit(&mut self) -> bool {
        if self.pool.len() <= SMALL_POOL {
            let (mut bits, pool) = (self.chosen, self.pool);
            self.out.push_with(|items| {
                while bits != 0 {
                    if let V::Card(c) = pool[bits.trailing_zeros() as usize] {
                        items.push(c);
                    }
                    bits &= bits - 1;
                }
            });
        } else {
            let counts = &self.counts;
            let set = self.pool.iter().zip(self.rank).filter_map(|(v, (k, r))| match v {
                V::Card(c) if *r < counts[*k] => Some(*c),
                _ => None,
            });
            self.out.push(set);
        }
        self.out.len() - self.base <= MAX_SETS
    }

    /// Every set within the limits, in order: the counts of the names
    /// go up like an odometer, the first name's fastest; a name whose
    /// next copy would pass a limit (with the names before it at none) or
    /// that has none left goes back to none and the next name counts one
    /// more. The weights are not below 0 (`Game::weigh`), so a count that
    /// passes a limit with the names before it at none passes it with any
    /// of them: the sets are those of growing each name in turn, in the
    /// same order. False when more than `MAX_SETS` sets were found.
    fn run(&mut self) -> bool {
        let (names, limits, small) = (self.counts.len(), self.maxes.len(), self.pool.len() <= SMALL_POOL);
        loop {
            if !self.emit() {
                return false;
            }
            let mut j = 0;
            loop {
                if j == names {
                    return true;
                }
                let (start, end) = (self.starts[j], self.starts[j + 1]);
                let n = self.counts[j];
                if start + n < end {
                    let i = self.copies[start + n];
                    let w = &self.weights[i * limits..(i + 1) * limits];
                    // Exact totals: a sum of weights fits in 128 bits.
                    let fits = self
                        .totals
                        .iter()
                        .zip(w)
                        .zip(self.maxes)
                        .all(|((t, w), max)| t + i128::from(*w) <= i128::from(*max));
                    if fits {
                        let mine = &mut self.name_totals[j * limits..(j + 1) * limits];
                        for ((t, m), w) in self.totals.iter_mut().zip(mine).zip(w) {
                            *t += i128::from(*w);
                            *m += i128::from(*w);
                        }
                        self.counts[j] = n + 1;
                        if small {
                            self.chosen |= 1 << i;
                            self.name_bits[j] |= 1 << i;
                        }
                        break;
                    }
                }
                // Back to none: this name's copies leave the totals.
                if n > 0 {
                    let mine = &mut self.name_totals[j * limits..(j + 1) * limits];
                    for (t, m) in self.totals.iter_mut().zip(mine) {
                        *t -= std::mem::take(m);
                    }
                    self.chosen &= !std::mem::take(&mut self.name_bits[j]);
                    self.counts[j] = 0;
                }
                j += 1;
            }
        }
    }
}

/// The lists `Game::sets_within` fills on each call (see `SetSearch`),
/// kept from one call to the next for their allocations.
#[derive(Default)]
pub(super) struct SetScratch {
    rank: Vec<(usize, usize)>,
    names: Vec<(ComponentId, usize)>,
    /// Per likeness (`Program::likeness`), its place in `names`, or
    /// `u32::MAX`: every entry is `u32::MAX` between calls.
    name_of: Vec<u32>,
    starts: Vec<usize>,
    copies: Vec<usize>,
    counts: Vec<usize>,
    totals: Vec<i128>,
    name_totals: Vec<i128>,
    name_bits: Vec<u64>,
    /// Per limit, the weight of each pool entry (`Game::weigh`).
    weights: Vec<i64>,
    /// The same weights by entry (`SetSearch::weights`).
    by_entry: Vec<i64>,
    /// Per limit, the largest total.
    maxes: Vec<i64>,
}

/// The sets `Game::bounded_sets` found last: from this pool, under these
/// weights and largest totals.
#[derive(Default)]
pub(super) struct LastSets {
    pool: Vec<V>,
    weights: Vec<i64>,
    maxes: Vec<i64>,
    sets: crate::interp::Sets,
}
