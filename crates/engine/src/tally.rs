//! Counts and sums kept up to date as components move (tallies).
//!
//! A `count(c in ZONE where F)`, `sum(c.A for c in ZONE where F)` or
//! `any(c in ZONE where F)` in a let's body, over a zone of no place,
//! whose filter tests only fixed facts of the component (its tags) and at
//! most one key (`c.G == k`, `G` a place attribute, or `c has t`, `t` a
//! tag worked out at the time) is read from a table of the state instead
//! of a walk of the zone (`shape` reads which are): per zone instance,
//! per key, the count or sum of the components there. Each move adds a
//! component's part to the zone it enters and takes it from the zone it
//! leaves (`Layout::tally`).
//!
//! Which families a program keeps: the generator lists the ones its code
//! reads (`native::TallyDef`); without compiled rules, the program keeps
//! those of its lets' aggregates (`chosen`: the same list), and the
//! interpreter reads each such aggregate, found by its address
//! (`sites`), from the table.
//!
//! The table holds what a walk of the zone gives, always (checked after
//! every action in test builds: `Layout::assert_tallies`). A walk's sum is
//! clamped into the range of numbers; a family is taken only where no sum
//! of its values can pass it (`fits`), so adding and taking parts gives
//! the walk's sum.

use model::{Aggregate, AttrId, BinaryOp, ComponentId, Expr, ExprKind, Ruleset, TagId, UnaryOp, Value};

use crate::state::{Layout, State, ZoneInst, V};

/// One family of tallies, as generated code lists it: over every instance
/// of zone `zone`, the count (`value` none) or the sum of attribute
/// `value` of the components that have every tag of `tags` and none of
/// `without`, kept apart by `group`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TallyDef {
    pub zone: u32,
    pub value: Option<u32>,
    pub tags: &'static [u32],
    pub without: &'static [u32],
    pub group: TallyGroup,
}

/// One family of tallies a program keeps: `TallyDef`, owned (a program
/// without compiled rules chooses its own).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Family {
    pub zone: u32,
    pub value: Option<u32>,
    pub tags: Vec<u32>,
    pub without: Vec<u32>,
    pub group: TallyGroup,
}

impl From<&TallyDef> for Family {
    fn from(d: &TallyDef) -> Family {
        Family {
            zone: d.zone,
            value: d.value,
            tags: d.tags.to_vec(),
            without: d.without.to_vec(),
            group: d.group,
        }
    }
}

/// How a family keeps its tallies apart.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TallyGroup {
    /// One tally per zone instance.
    One,
    /// One per value of a place attribute (`c.region == r`): per place
    /// some component holds, and one for `none`.
    Place(u32),
    /// One per tag (`c has t`): a component counts under each tag it has.
    Tag,
}

/// Where a ruleset's tallies lie in a state (part of a `Layout`), and,
/// shared by every layout of the program, what each component adds to
/// them.
#[derive(Clone, Debug)]
pub(crate) struct Tallies {
    parts: std::sync::Arc<Parts>,
    /// `Parts::offset`, copied: read at every read of a tally.
    offset: Vec<u32>,
    /// Per zone instance: where its block starts and how long it is (0:
    /// a zone nothing tallies).
    at: Vec<(u32, u32)>,
    /// Per zone instance: its zone's row of `Parts::range`.
    row: Vec<u32>,
    /// The length of the state's table.
    len: usize,
}

/// What a program's tallies are, whatever the number of players: each
/// family's groups in a zone's block, and what each component adds there
/// (`parts`).
#[derive(Debug)]
pub(crate) struct Parts {
    /// Per family: where its groups start in a zone instance's block.
    offset: Vec<u32>,
    /// Per family of `TallyGroup::Place`: per place, its group (`u32::MAX`:
    /// no component holds it); then the group of `none` (`none_group`).
    place_group: Vec<Vec<u32>>,
    none_group: Vec<u32>,
    /// Per zone: the length of its instances' blocks (0: nothing tallies
    /// it), and its row of `range` (`u32::MAX`: none).
    block: Vec<u32>,
    rows: Vec<u32>,
    /// Per tallied zone's row and component (`row * comps + c`): the range
    /// of `part` that is the component's.
    range: Vec<(u32, u32)>,
    /// (place in the block, what the component adds).
    part: Vec<(u32, i64)>,
    comps: usize,
}

/// What families `defs` of `r` keep, for every layout of the program;
/// `None` for none.
pub(crate) fn parts(r: &Ruleset, defs: &[Family]) -> Option<std::sync::Arc<Parts>> {
    (!defs.is_empty()).then(|| std::sync::Arc::new(Parts::new(r, defs)))
}

impl Parts {
    fn new(r: &Ruleset, defs: &[Family]) -> Parts {
        let comps = r.components.len();
        let int = |c: usize, a: u32| match attr(r, c, a) {
            Some(Value::Int(n)) => *n,
            _ => 0,
        };
        let place = |c: usize, a: u32| match attr(r, c, a) {
            Some(Value::Place(p)) => Some(p.index()),
            _ => None,
        };
        let has = |c: usize, t: u32| r.components[c].tags.contains(&TagId::new(t as usize));
        // Per family, its groups and each component's (group, amount).
        let mut groups = Vec::new();
        let mut place_group = Vec::new();
        let mut none_group = Vec::new();
        for d in defs {
            let (n, places, none) = match d.group {
                TallyGroup::One => (1, Vec::new(), u32::MAX),
                TallyGroup::Tag => (r.tags.len() as u32, Vec::new(), u32::MAX),
                TallyGroup::Place(a) => {
                    let mut places = vec![u32::MAX; r.places.len()];
                    let mut n = 0;
                    for c in 0..comps {
                        if let Some(p) = place(c, a) {
                            if places[p] == u32::MAX {
                                places[p] = n;
                                n += 1;
                            }
                        }
                    }
                    (n + 1, places, n)
                }
            };
            groups.push(n);
            place_group.push(places);
            none_group.push(none);
        }
        // Each zone's families, one after another in its instances' blocks.
        let mut offset = vec![0; defs.len()];
        let mut block = vec![0u32; r.zones.len()];
        for (f, d) in defs.iter().enumerate() {
            let z = d.zone as usize;
            offset[f] = block[z];
            block[z] += groups[f];
        }
        let mut rows = vec![u32::MAX; r.zones.len()];
        let mut range = Vec::new();
        let mut part = Vec::new();
        for z in 0..r.zones.len() {
            if block[z] == 0 {
                continue;
            }
            rows[z] = (range.len() / comps.max(1)) as u32;
            for c in 0..comps {
                let start = part.len() as u32;
                for (f, d) in defs.iter().enumerate() {
                    if d.zone as usize != z
                        || !d.tags.iter().all(|t| has(c, *t))
                        || d.without.iter().any(|t| has(c, *t))
                    {
                        continue;
                    }
                    let amount = d.value.map_or(1, |a| int(c, a));
                    match d.group {
                        TallyGroup::One => part.push((offset[f], amount)),
                        TallyGroup::Tag => {
                            for t in &r.components[c].tags {
                                part.push((offset[f] + t.index() as u32, amount));
                            }
                        }
                        TallyGroup::Place(a) => {
                            let g = place(c, a).map_or(none_group[f], |p| place_group[f][p]);
                            part.push((offset[f] + g, amount));
                        }
                    }
                }
                range.push((start, part.len() as u32));
            }
        }
        Parts { offset, place_group, none_group, block, rows, range, part, comps }
    }
}

impl Tallies {
    /// Where `parts`' tallies lie for a layout's zone instances.
    pub(crate) fn new(parts: std::sync::Arc<Parts>, instances: &[crate::state::Instance]) -> Tallies {
        let mut len = 0u32;
        let mut row = Vec::with_capacity(instances.len());
        let at: Vec<(u32, u32)> = instances
            .iter()
            .map(|i| {
                let z = match i.source {
                    Ok(z) => z.index(),
                    Err(_) => {
                        row.push(u32::MAX);
                        return (0, 0);
                    }
                };
                row.push(parts.rows[z]);
                let start = len;
                len += parts.block[z];
                (start, parts.block[z])
            })
            .collect();
        Tallies { offset: parts.offset.clone(), parts, at, row, len: len as usize }
    }
}

/// Whether `d` names a zone, attributes and tags `r` has (compiled rules
/// made from other rules are refused before this, by their fingerprint).
pub(crate) fn fits(d: &Family, r: &Ruleset) -> bool {
    let attr = |a: u32| (a as usize) < r.attr_names.len();
    (d.zone as usize) < r.zones.len()
        && d.value.is_none_or(attr)
        && d.tags.iter().chain(&d.without).all(|t| (*t as usize) < r.tags.len())
        && match d.group {
            TallyGroup::Place(a) => attr(a),
            TallyGroup::One | TallyGroup::Tag => true,
        }
        && d.value.is_none_or(|a| bounded_sums(r, a))
}

/// The most groups a family keeps apart by place or by tag (a block per
/// zone instance holds one for each): more, and the walk stays.
const MOST_GROUPS: usize = 64;

/// An aggregate's family of tallies, with its key (`c.G == k` or `c has
/// t`): the expression `k` or `t` and its path from the aggregate (each
/// step the number of a child as `Expr::for_each_child` visits them).
#[derive(Clone, Debug)]
pub struct Shape<'e> {
    pub family: Family,
    pub key: Option<(&'e Expr, Vec<usize>)>,
}

/// Reads which aggregates of a ruleset tallies keep (`Shapes::shape`),
/// each attribute's values looked at once, when first asked.
pub struct Shapes<'a> {
    r: &'a Ruleset,
    /// The value an attribute reads as on a component whose kind lacks it.
    empty: Vec<V>,
    /// Per attribute, once asked (`kind_of`): whether every component's
    /// value is a number or `none`, and whether every one is a place or
    /// `none`, with at most `MOST_GROUPS` places among them.
    kinds: std::cell::RefCell<Vec<Option<(bool, bool)>>>,
}

/// The families a program without compiled rules keeps: those of the
/// aggregates in its lets' bodies that have a shape (`shape`), in the
/// order they are met, each once, the first `Shapes::MOST_FAMILIES`. A let is what rules ask again and
/// again, while an aggregate written in a statement is read where it
/// stands, and keeping it would cost every move of its zone.
pub(crate) fn chosen(r: &Ruleset) -> Vec<Family> {
    let mut out: Vec<Family> = Vec::new();
    let shapes = Shapes::new(r);
    for l in &r.lets {
        shapes.visit(&l.body, &mut out);
    }
    out.retain(|f| fits(f, r));
    out
}

/// An aggregate in a let's body that a kept family counts, found by its
/// address (`sites`): the interpreter reads it from the tallies without
/// reading its filter (`Interp::site`).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Site {
    pub family: u32,
    pub key: SiteKey,
}

/// How a site's group is found.
#[derive(Clone, Copy, Debug)]
pub(crate) enum SiteKey {
    /// The family keeps one tally per zone instance.
    One,
    /// By place (`c.G == k`): `k`'s value, a place or `none`.
    Place(KeyValue),
    /// By tag (`c has t`): `t`'s value.
    Tag(KeyValue),
}

/// Where a key's value is: a local of the caller, or written in the rules.
#[derive(Clone, Copy, Debug)]
pub(crate) enum KeyValue {
    Local(usize),
    Fixed(V),
}

/// The aggregates of `r`'s lets' bodies that a family of `families`
/// counts, by address, sorted. The addresses are those of expressions
/// the program owns and never changes (its lets' bodies, in the
/// ruleset's heap lists): no other expression has one while it lives,
/// and an expression not found takes the general path.
pub(crate) fn sites(r: &Ruleset, families: &[Family]) -> Vec<(usize, Site)> {
    fn visit(shapes: &Shapes, families: &[Family], e: &Expr, out: &mut Vec<(usize, Site)>) {
        if let Some(s) = shapes.shape(e) {
            if let Some(family) = families.iter().position(|f| *f == s.family) {
                let value = s.key.and_then(|(k, _)| match k.kind {
                    ExprKind::Local(slot) => Some(KeyValue::Local(slot)),
                    ExprKind::Place(p) => Some(KeyValue::Fixed(V::Place(p))),
                    ExprKind::Tag(t) => Some(KeyValue::Fixed(V::Tag(t))),
                    _ => None,
                });
                let key = match (s.family.group, value) {
                    (TallyGroup::One, _) => Some(SiteKey::One),
                    (TallyGroup::Place(_), Some(v)) => Some(SiteKey::Place(v)),
                    (TallyGroup::Tag, Some(v)) => Some(SiteKey::Tag(v)),
                    _ => None,
                };
                if let Some(key) = key {
                    out.push((e as *const Expr as usize, Site { family: family as u32, key }));
                }
            }
        }
        e.for_each_child(|c| visit(shapes, families, c, out));
    }
    let mut out = Vec::new();
    if families.is_empty() {
        return out;
    }
    let shapes = Shapes::new(r);
    for l in &r.lets {
        visit(&shapes, families, &l.body, &mut out);
    }
    out.sort_unstable_by_key(|(at, _)| *at);
    out
}

impl<'a> Shapes<'a> {
    /// The most families a program keeps: a ruleset with more shapes
    /// walks the zones of the rest. Each family costs every move of its
    /// zone, and the layout a table entry per component of each zone it
    /// counts.
    pub const MOST_FAMILIES: usize = 64;

    pub fn new(r: &'a Ruleset) -> Shapes<'a> {
        let empty = crate::interp::attr_empty(r);
        let kinds = std::cell::RefCell::new(vec![None; empty.len()]);
        Shapes { r, empty, kinds }
    }

    /// Whether attribute `attr` holds numbers only (or `none`), and
    /// whether places only (or `none`), few of them: each attribute's
    /// values looked at once, when first asked.
    fn kind_of(&self, attr: AttrId) -> (bool, bool) {
        if let Some(Some(k)) = self.kinds.borrow().get(attr.index()) {
            return *k;
        }
        if attr.index() >= self.empty.len() {
            return (false, false);
        }
        let (mut ints, mut places) = (true, true);
        let mut held: Vec<usize> = Vec::new();
        for c in ComponentId::all(self.r.components.len()) {
            match crate::interp::attr_value(self.r, &self.empty, c, attr) {
                V::None => {}
                V::Int(_) => places = false,
                V::Place(p) => {
                    ints = false;
                    if places && !held.contains(&p.index()) {
                        held.push(p.index());
                        // One tally per place a component holds: a few.
                        places = held.len() <= MOST_GROUPS;
                    }
                }
                _ => (ints, places) = (false, false),
            }
            if !ints && !places {
                break;
            }
        }
        self.kinds.borrow_mut()[attr.index()] = Some((ints, places));
        (ints, places)
    }

    fn visit(&self, e: &Expr, out: &mut Vec<Family>) {
        if let Some(s) = self.shape(e) {
            if out.len() < Self::MOST_FAMILIES && !out.contains(&s.family) {
                out.push(s.family);
            }
        }
        e.for_each_child(|c| self.visit(c, out));
    }

    /// The family of tallies that keeps what aggregate `e` works out, when
    /// it has a shape tallies keep: a `count`, `sum(c.A ...)` (`A` an
    /// attribute of numbers) or `any` over a zone of no place whose filter is
    /// tag tests of the component joined by `and` and at most one key, `c.G
    /// == k` (`G` an attribute of places, at most `MOST_GROUPS` of them
    /// held) or `c has t` (`t` worked out then), `k` and `t` a local of the
    /// caller, a place or a tag. The one reading of shapes: the generator
    /// takes it for the aggregates it reads from tallies, `chosen` for a
    /// program without compiled rules.
    pub fn shape<'e>(&self, e: &'e Expr) -> Option<Shape<'e>> {
        let ExprKind::Aggregate { func, value, var, domain, filter } = &e.kind else { return None };
        let ExprKind::Zone { zone, .. } = &domain.kind else { return None };
        // A count of a whole zone is its length: nothing to keep. A zone
        // per place is many small ones: a walk of one is short, and a
        // table would hold a block for each place.
        if (value.is_none() && filter.is_none()) || self.r.zones[*zone].index.is_some() {
            return None;
        }
        let value = match (func, value.as_deref()) {
            (Aggregate::Count | Aggregate::Any, None) => None,
            (Aggregate::Sum, Some(v)) => match &v.kind {
                ExprKind::Attr { card, attr } if is_local(card, *var) && self.kind_of(*attr).0 => {
                    Some(attr.index() as u32)
                }
                _ => return None,
            },
            _ => return None,
        };
        let mut shape = Shape {
            family: Family {
                zone: zone.index() as u32,
                value,
                tags: Vec::new(),
                without: Vec::new(),
                group: TallyGroup::One,
            },
            key: None,
        };
        if let Some(flt) = filter {
            // The filter follows the domain and the value.
            let at = vec![if value.is_some() { 2 } else { 1 }];
            self.terms(flt, at, *var, &mut shape)?;
        }
        Some(shape)
    }

    /// The terms of a filter joined by `and` (`e`, at `path`): tag tests
    /// of the component in slot `var` into the family's tags, one key
    /// into its group.
    fn terms<'e>(&self, e: &'e Expr, path: Vec<usize>, var: usize, s: &mut Shape<'e>) -> Option<()> {
        // A key is what the walk reads each time the same way: a local of
        // the caller, a place, a tag.
        let simple = |x: &Expr| match x.kind {
            ExprKind::Local(slot) => slot != var,
            ExprKind::Place(_) | ExprKind::Tag(_) => true,
            _ => false,
        };
        let at = |k: usize| {
            let mut p = path.clone();
            p.push(k);
            p
        };
        let f = &mut s.family;
        match &e.kind {
            ExprKind::Binary(BinaryOp::And, a, b) => {
                self.terms(a, at(0), var, s)?;
                self.terms(b, at(1), var, s)
            }
            ExprKind::Binary(BinaryOp::Has, a, b) if is_local(a, var) => match &b.kind {
                ExprKind::Tag(t) => {
                    f.tags.push(t.index() as u32);
                    Some(())
                }
                // One tally per tag: a few, as in the tag table.
                _ if simple(b) && s.key.is_none() && self.r.tags.len() <= MOST_GROUPS => {
                    f.group = TallyGroup::Tag;
                    s.key = Some((b, at(1)));
                    Some(())
                }
                _ => None,
            },
            ExprKind::Unary(UnaryOp::Not, x) => match &x.kind {
                ExprKind::Binary(BinaryOp::Has, a, b) if is_local(a, var) => match b.kind {
                    ExprKind::Tag(t) => {
                        f.without.push(t.index() as u32);
                        Some(())
                    }
                    _ => None,
                },
                _ => None,
            },
            ExprKind::Binary(BinaryOp::Eq, a, b) if s.key.is_none() => {
                // `c.G == k` or `k == c.G`, `G` an attribute of places.
                let (attr, key, k) = match (&a.kind, &b.kind) {
                    (ExprKind::Attr { card, attr }, _) if is_local(card, var) && simple(b) => {
                        (*attr, &**b, 1)
                    }
                    (_, ExprKind::Attr { card, attr }) if is_local(card, var) && simple(a) => {
                        (*attr, &**a, 0)
                    }
                    _ => return None,
                };
                // One tally per place a component holds: a few.
                if !self.kind_of(attr).1 {
                    return None;
                }
                f.group = TallyGroup::Place(attr.index() as u32);
                s.key = Some((key, at(k)));
                Some(())
            }
            _ => None,
        }
    }
}

fn is_local(e: &Expr, var: usize) -> bool {
    matches!(e.kind, ExprKind::Local(s) if s == var)
}

/// Whether every sum of attribute `a` over any components stays within
/// 64 bits (the sum of its magnitudes does), so that no walk's sum is
/// clamped. Always so for a checked ruleset (numbers within ±10^9, at
/// most `MAX_COMPONENTS` components); checked because a tally could not
/// follow a sum that was.
fn bounded_sums(r: &Ruleset, a: u32) -> bool {
    let total: i128 = (0..r.components.len())
        .filter_map(|c| match attr(r, c, a) {
            Some(Value::Int(n)) => Some(i128::from(*n).abs()),
            _ => None,
        })
        .sum();
    total <= i128::from(i64::MAX)
}

impl Tallies {
    /// `Layout::tally` for a zone instance that has tallies.
    fn add(&self, st: &mut State, z: ZoneInst, cards: &[ComponentId], add: bool) {
        let start = self.at[z.index()].0;
        let parts = &*self.parts;
        let row = self.row[z.index()] as usize * parts.comps;
        for c in cards {
            let (a, b) = parts.range[row + c.index()];
            for &(at, amount) in &parts.part[a as usize..b as usize] {
                let cell = &mut st.tallies[(start + at) as usize];
                *cell = if add { cell.wrapping_add(amount) } else { cell.wrapping_sub(amount) };
            }
        }
    }
}

/// A component's own value of an attribute (`None`: its kind lacks it).
fn attr(r: &Ruleset, c: usize, a: u32) -> Option<&Value> {
    let comp = &r.components[c];
    r.kinds[comp.kind].slot_of(AttrId::new(a as usize)).map(|s| &comp.values[s])
}

impl Layout {
    /// Add the parts of `cards` to the tallies of zone instance `z` (they
    /// entered it), or take them away (`add` false: they left). Most moves
    /// are between zones nothing tallies: one test for them all.
    #[inline(always)]
    pub(crate) fn tally(&self, st: &mut State, z: ZoneInst, cards: &[ComponentId], add: bool) {
        if let Some(t) = &self.tallies {
            if t.at[z.index()].1 != 0 {
                t.add(st, z, cards, add);
            }
        }
    }

    /// Take every component of zone instance `z` out of its tallies (it
    /// is emptied): its block back to nothing, as taking each one's parts
    /// away would leave it.
    #[inline]
    pub(crate) fn untally_all(&self, st: &mut State, z: ZoneInst) {
        if let Some(t) = &self.tallies {
            let (start, n) = t.at[z.index()];
            if n != 0 {
                st.tallies[start as usize..(start + n) as usize].fill(0);
            }
        }
    }

    /// Where family `family`'s tallies of zone instance `z` start in the
    /// state's table (generated code adds the group).
    #[inline]
    pub fn tally_base(&self, family: usize, z: ZoneInst) -> usize {
        let t = self.tallies.as_ref().expect("the program keeps tallies");
        (t.at[z.index()].0 + t.offset[family]) as usize
    }

    /// The group of place number `place` in family `family`
    /// (`TallyGroup::Place`), `u32::MAX` when no component holds it.
    #[inline]
    pub fn tally_place(&self, family: usize, place: usize) -> u32 {
        let t = self.tallies.as_ref().expect("the program keeps tallies");
        t.parts.place_group[family].get(place).copied().unwrap_or(u32::MAX)
    }

    /// The group of `none` in family `family` (`TallyGroup::Place`).
    #[inline]
    pub fn tally_none(&self, family: usize) -> u32 {
        let t = self.tallies.as_ref().expect("the program keeps tallies");
        t.parts.none_group[family]
    }

    /// Family `family`'s tally of group `group` in zone instance `z`.
    #[inline]
    pub(crate) fn tally_of(&self, st: &State, family: usize, z: ZoneInst, group: u32) -> i64 {
        st.tallies[self.tally_base(family, z) + group as usize]
    }

    /// The tallies worked out from the zones as they are: after a
    /// position is arranged by hand.
    pub(crate) fn recount(&self, st: &mut State) {
        if self.tallies.is_none() {
            return;
        }
        st.tallies.iter_mut().for_each(|x| *x = 0);
        for z in self.zone_insts() {
            let cards: Vec<ComponentId> = st.cards(z).collect();
            self.tally(st, z, &cards, true);
        }
    }

    /// Test builds: that the tallies are what walks of the zones give.
    #[cfg(debug_assertions)]
    pub(crate) fn assert_tallies(&self, st: &State) {
        if self.tallies.is_none() {
            return;
        }
        let mut fresh = st.clone();
        self.recount(&mut fresh);
        assert_eq!(st.tallies, fresh.tallies, "the tallies kept differ from the zones' contents");
    }

    /// Keep the tallies of `parts` (`tally::parts`; none: keep none).
    pub(crate) fn keep_tallies(&mut self, parts: Option<&std::sync::Arc<Parts>>) {
        self.tallies = parts.map(|p| Box::new(Tallies::new(p.clone(), &self.instances)));
    }

    /// A new state's table of tallies: all zero (zones start empty but
    /// the supplies, which nothing tallies).
    pub(crate) fn tally_table(&self) -> Vec<i64> {
        self.tallies.as_ref().map_or_else(Vec::new, |t| vec![0; t.len])
    }

    /// Per zone instance, where its tallies lie in a state's table (start,
    /// length); empty when none are kept.
    #[inline]
    pub(crate) fn tally_at(&self) -> &[(u32, u32)] {
        self.tallies.as_ref().map_or(&[], |t| &t.at)
    }
}
