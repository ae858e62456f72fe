//! Counts and sums kept up to date as components move (tallies).
//!
//! A `count(c in ZONE where F)` or `sum(c.A for c in ZONE where F)` in a
//! let's body, over a zone of no place, whose filter tests only fixed
//! facts of the component (its tags) and at most one key (`c.G == k`, `G`
//! a place attribute, or `c has t`, `t` a tag worked out at the time) is
//! worked out by compiled rules from a table of the state: per zone
//! instance, per key, the count or sum of the components there. Each move adds a component's part to the zone it
//! enters and takes it from the zone it leaves (`Layout::tally`); the
//! generator lists the families its code reads (`native::TallyDef`), so
//! the interpreter, which reads none, keeps none. The table holds what a
//! walk of the zone gives, always (checked after every action in test
//! builds: `Layout::assert_tallies`). A walk's sum is clamped into the
//! range of numbers; a family is taken only where no sum of its values
//! can pass it (`fits`), so adding and taking parts gives the walk's sum.

use model::{AttrId, ComponentId, Ruleset, TagId, Value};

use crate::state::{Layout, State, ZoneInst};

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

/// Where a ruleset's tallies lie in a state, and what each component adds
/// to them (part of a `Layout`).
#[derive(Clone, Debug, Default)]
pub(crate) struct Tallies {
    /// Per family: where its groups start in a zone instance's block.
    offset: Vec<u32>,
    /// Per family of `TallyGroup::Place`: per place, its group (`u32::MAX`:
    /// no component holds it); then the group of `none` (`none_group`).
    place_group: Vec<Vec<u32>>,
    none_group: Vec<u32>,
    /// Per zone instance: where its block starts and how long it is (0:
    /// a zone nothing tallies).
    at: Vec<(u32, u32)>,
    /// Per zone instance: its zone's row of `range`.
    row: Vec<u32>,
    /// Per tallied zone's row and component (`row * comps + c`): the range
    /// of `part` that is the component's.
    range: Vec<(u32, u32)>,
    /// (place in the block, what the component adds).
    part: Vec<(u32, i64)>,
    comps: usize,
    /// The length of the state's table.
    len: usize,
}

impl Tallies {
    pub(crate) fn new(r: &Ruleset, instances: &[crate::state::Instance], defs: &[TallyDef]) -> Tallies {
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
                row.push(rows[z]);
                let start = len;
                len += block[z];
                (start, block[z])
            })
            .collect();
        Tallies { offset, place_group, none_group, at, row, range, part, comps, len: len as usize }
    }
}

/// Whether `d` names a zone, attributes and tags `r` has (compiled rules
/// made from other rules are refused before this, by their fingerprint).
pub(crate) fn fits(d: &TallyDef, r: &Ruleset) -> bool {
    let attr = |a: u32| (a as usize) < r.attr_names.len();
    (d.zone as usize) < r.zones.len()
        && d.value.is_none_or(attr)
        && d.tags.iter().chain(d.without).all(|t| (*t as usize) < r.tags.len())
        && match d.group {
            TallyGroup::Place(a) => attr(a),
            TallyGroup::One | TallyGroup::Tag => true,
        }
        && d.value.is_none_or(|a| bounded_sums(r, a))
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
        let row = self.row[z.index()] as usize * self.comps;
        for c in cards {
            let (a, b) = self.range[row + c.index()];
            for &(at, amount) in &self.part[a as usize..b as usize] {
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

    /// Where family `family`'s tallies of zone instance `z` start in the
    /// state's table (generated code adds the group).
    #[inline]
    pub fn tally_base(&self, family: usize, z: ZoneInst) -> usize {
        let t = self.tallies.as_ref().expect("compiled rules keep tallies");
        (t.at[z.index()].0 + t.offset[family]) as usize
    }

    /// The group of place number `place` in family `family`
    /// (`TallyGroup::Place`), `u32::MAX` when no component holds it.
    #[inline]
    pub fn tally_place(&self, family: usize, place: usize) -> u32 {
        let t = self.tallies.as_ref().expect("compiled rules keep tallies");
        t.place_group[family].get(place).copied().unwrap_or(u32::MAX)
    }

    /// The group of `none` in family `family` (`TallyGroup::Place`).
    #[inline]
    pub fn tally_none(&self, family: usize) -> u32 {
        let t = self.tallies.as_ref().expect("compiled rules keep tallies");
        t.none_group[family]
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

    /// Keep the tallies `defs` lists (compiled rules).
    pub(crate) fn keep_tallies(&mut self, r: &Ruleset, defs: &[TallyDef]) {
        self.tallies = (!defs.is_empty()).then(|| Box::new(Tallies::new(r, &self.instances, defs)));
    }

    /// A new state's table of tallies: all zero (zones start empty but
    /// the supplies, which nothing tallies).
    pub(crate) fn tally_table(&self) -> Vec<i64> {
        self.tallies.as_ref().map_or_else(Vec::new, |t| vec![0; t.len])
    }

    /// Per zone instance, where its tallies lie in a state's table (start,
    /// length); empty for the interpreter.
    #[inline]
    pub(crate) fn tally_at(&self) -> &[(u32, u32)] {
        self.tallies.as_ref().map_or(&[], |t| &t.at)
    }
}
