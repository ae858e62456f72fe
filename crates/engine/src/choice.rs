//! A choice: one action with its parameters chosen, as the engine lists
//! them and a player (or a bot) picks one.

use model::{ActionId, ComponentId};

use crate::state::V;

/// One action with its parameters chosen.
#[derive(Clone, Debug, PartialEq)]
pub struct Choice {
    pub action: ActionId,
    pub args: Args,
    /// The components of each set-valued argument (`V::Set(i)` is
    /// `sets[i]`), in the order they lie in their zone.
    pub sets: ChoiceSets,
}

impl Choice {
    /// A choice without set-valued parameters.
    pub fn new(action: ActionId, args: impl Into<Args>) -> Choice {
        Choice { action, args: args.into(), sets: ChoiceSets::new() }
    }
}

/// The legal choices one listing found (`Game::list_into`), read as a
/// slice of them, with the game and the state they were found for: the
/// game applies one of them by its index (`Game::step_listed`) without
/// checking it again while nothing has changed since.
#[derive(Clone, Debug, Default)]
pub struct Listing {
    pub(crate) choices: Vec<Choice>,
    /// The game's own number (a copy of a game has another) and its count
    /// of changes, when listed.
    pub(crate) found_for: Option<(u64, u64)>,
}

impl Listing {
    /// An empty listing, found for no game.
    pub fn new() -> Listing {
        Listing::default()
    }
}

impl std::ops::Deref for Listing {
    type Target = [Choice];
    fn deref(&self) -> &[Choice] {
        &self.choices
    }
}

/// The sets of a choice, read by position (`get`, `sets[i]`, `iter`,
/// `len`): one set of up to four components (most choices' sets) in
/// place, so that a listing with a `set of` parameter, which makes
/// thousands of choices, allocates for none of those; any other sets in
/// one list on the heap, once per choice; no sets in an empty list, which
/// allocates nothing. In no more room than a `Vec`.
#[derive(Clone)]
pub struct ChoiceSets {
    packed: Packed,
}

#[derive(Clone)]
enum Packed {
    /// Every set's components, one set after another; then where each set
    /// ends and how many sets there are, those numbers kept as component
    /// IDs of the same value. Empty: no sets.
    Heap(Vec<ComponentId>),
    /// Exactly one set: its components, then `UNUSED` in the slots left.
    One([ComponentId; ONE_SLOTS]),
}

/// How many components one set kept in place may have: what fits beside
/// the tag in a `Vec`'s room.
const ONE_SLOTS: usize = 4;

/// What a slot of `Packed::One` past the set's end holds: a number no
/// component has (the checker keeps far fewer).
const UNUSED: ComponentId = ComponentId::new(u32::MAX as usize - 1);

impl PartialEq for ChoiceSets {
    fn eq(&self, other: &ChoiceSets) -> bool {
        self.len() == other.len() && self.iter().eq(other.iter())
    }
}

impl Eq for ChoiceSets {}

impl Default for ChoiceSets {
    fn default() -> ChoiceSets {
        ChoiceSets::new()
    }
}

/// The least room a choice's list of sets on the heap is given.
const ROOM: usize = 16;

/// How many sets `ChoiceSets::from_slices_with` collects before packing.
const FEW_SETS: usize = 4;

impl ChoiceSets {
    /// No sets.
    pub const fn new() -> ChoiceSets {
        ChoiceSets { packed: Packed::Heap(Vec::new()) }
    }

    /// These sets, in order.
    pub fn from_slices<'a>(sets: impl Iterator<Item = &'a [ComponentId]> + Clone) -> ChoiceSets {
        ChoiceSets::from_slices_with(sets, Vec::new)
    }

    /// `from_slices`, in the list `room` gives (one `into_room` gave
    /// back, whatever it holds) when they are not kept in place: asked
    /// for only then. Inlined with `one_in` into the search that lists
    /// each choice with sets (a set game's compiled games -1.0%,
    /// docs/performance.md).
    #[inline]
    pub fn from_slices_with<'a>(
        sets: impl Iterator<Item = &'a [ComponentId]> + Clone,
        room: impl FnOnce() -> Vec<ComponentId>,
    ) -> ChoiceSets {
        // One set (most choices with sets): packed as it is.
        let mut first = sets.clone();
        if let (Some(set), None) = (first.next(), first.next()) {
            return ChoiceSets::one_in(room, set);
        }
        // Gone through once when there are a few (a choice has a set or
        // two): the sets may be found by a search through the values.
        let mut few: [&[ComponentId]; FEW_SETS] = [&[]; FEW_SETS];
        let mut count = 0;
        for set in sets.clone() {
            match few.get_mut(count) {
                Some(slot) => *slot = set,
                None => return ChoiceSets::packed_in(room, sets),
            }
            count += 1;
        }
        ChoiceSets::packed_in(room, few[..count].iter().copied())
    }

    /// `from_slices_with` of one set: in place when it is short.
    #[inline]
    fn one_in(room: impl FnOnce() -> Vec<ComponentId>, set: &[ComponentId]) -> ChoiceSets {
        if set.len() <= ONE_SLOTS {
            let mut one = [UNUSED; ONE_SLOTS];
            one[..set.len()].copy_from_slice(set);
            return ChoiceSets { packed: Packed::One(one) };
        }
        let mut packed = ChoiceSets::room_for(room, set.len() + 2);
        packed.extend_from_slice(set);
        packed.push(ComponentId::new(set.len()));
        packed.push(ComponentId::new(1));
        ChoiceSets { packed: Packed::Heap(packed) }
    }

    /// The list `room` gives, emptied, with room for `need` entries.
    #[inline]
    fn room_for(room: impl FnOnce() -> Vec<ComponentId>, need: usize) -> Vec<ComponentId> {
        let mut packed = room();
        packed.clear();
        if packed.capacity() < need {
            packed.reserve_exact(need.max(ROOM));
        }
        packed
    }

    /// `from_slices_with` of other than one set, each set gone through
    /// twice more.
    fn packed_in<'a>(
        room: impl FnOnce() -> Vec<ComponentId>,
        sets: impl Iterator<Item = &'a [ComponentId]> + Clone,
    ) -> ChoiceSets {
        let (count, items) = sets.clone().fold((0, 0), |(n, k), set| (n + 1, k + set.len()));
        if count == 0 {
            return ChoiceSets::new();
        }
        // Room for a few more than these: a recycled list is then large
        // enough for most choices of the next listings (a list grown by
        // reallocation, 2,418 times in 20 games of a bundled set game, cost
        // 1.2% of them).
        let mut packed = ChoiceSets::room_for(room, items + count + 1);
        for set in sets.clone() {
            packed.extend_from_slice(set);
        }
        let mut end = 0;
        for set in sets {
            end += set.len();
            packed.push(ComponentId::new(end));
        }
        packed.push(ComponentId::new(count));
        ChoiceSets { packed: Packed::Heap(packed) }
    }

    /// The list the sets were kept in, emptied, for another choice's sets
    /// (`from_slices_with`); an unallocated one for no sets or one kept in
    /// place.
    pub fn into_room(self) -> Vec<ComponentId> {
        match self.packed {
            Packed::Heap(mut room) => {
                room.clear();
                room
            }
            Packed::One(_) => Vec::new(),
        }
    }

    /// How many sets there are.
    pub fn len(&self) -> usize {
        match &self.packed {
            Packed::Heap(packed) => packed.last().map_or(0, |n| n.index()),
            Packed::One(_) => 1,
        }
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// One more set, of these components (the ends and the count come
    /// off, the set goes on, then the ends with the new one).
    pub fn push(&mut self, set: impl IntoIterator<Item = ComponentId>) {
        let count = self.len();
        let mut packed = match std::mem::take(self).packed {
            Packed::Heap(packed) => packed,
            Packed::One(one) => {
                let set = ChoiceSets::one_set(&one);
                let mut packed = set.to_vec();
                packed.extend([ComponentId::new(set.len()), ComponentId::new(1)]);
                packed
            }
        };
        let mut ends = match count {
            0 => Vec::new(),
            _ => packed.split_off(packed.len() - 1 - count),
        };
        ends.pop();
        packed.extend(set);
        ends.push(ComponentId::new(packed.len()));
        packed.extend(ends);
        packed.push(ComponentId::new(count + 1));
        // One set short enough goes in place, as `from_slices` keeps it.
        *self = match count {
            0 => ChoiceSets::from_slices(std::iter::once(&packed[..packed.len() - 2])),
            _ => ChoiceSets { packed: Packed::Heap(packed) },
        };
    }

    /// The set `Packed::One` holds.
    #[inline]
    fn one_set(one: &[ComponentId; ONE_SLOTS]) -> &[ComponentId] {
        let len = one.iter().position(|c| *c == UNUSED).unwrap_or(ONE_SLOTS);
        &one[..len]
    }

    /// Set `i`'s components.
    pub fn get(&self, i: usize) -> Option<&[ComponentId]> {
        match &self.packed {
            Packed::One(one) => (i == 0).then(|| ChoiceSets::one_set(one)),
            Packed::Heap(packed) => {
                let count = self.len();
                if i >= count {
                    return None;
                }
                let ends = &packed[packed.len() - 1 - count..];
                let start = if i == 0 { 0 } else { ends[i - 1].index() };
                Some(&packed[start..ends[i].index()])
            }
        }
    }

    /// Each set, in order.
    pub fn iter(&self) -> impl Iterator<Item = &[ComponentId]> + '_ {
        (0..self.len()).filter_map(|i| self.get(i))
    }
}

impl std::ops::Index<usize> for ChoiceSets {
    type Output = [ComponentId];
    fn index(&self, i: usize) -> &[ComponentId] {
        self.get(i).unwrap_or_else(|| panic!("a choice has {} sets, not set {i}", self.len()))
    }
}

impl<S: IntoIterator<Item = ComponentId>> FromIterator<S> for ChoiceSets {
    fn from_iter<I: IntoIterator<Item = S>>(sets: I) -> ChoiceSets {
        let mut out = ChoiceSets::new();
        for set in sets {
            out.push(set);
        }
        out
    }
}

/// As a list of lists, as a `Vec` of each set shows.
impl std::fmt::Debug for ChoiceSets {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

/// How many parameter values a choice keeps in place, without a list of
/// its own on the heap: a listing makes one choice per legal combination,
/// thousands a game, and the actions of the bundled games take at most 7.
pub const INLINE_ARGS: usize = 7;

/// A choice's parameter values, read as a slice (`&args[..]`, `iter`,
/// `len`). Up to [`INLINE_ARGS`] lie in place; more in a list on the heap.
#[derive(Clone)]
pub struct Args(Repr);

#[derive(Clone)]
enum Repr {
    Inline { len: u8, values: [V; INLINE_ARGS] },
    Heap(Vec<V>),
}

impl Args {
    /// No values.
    pub fn new() -> Args {
        Args(Repr::Inline { len: 0, values: [V::None; INLINE_ARGS] })
    }

    /// A copy of `values`.
    pub fn from_slice(values: &[V]) -> Args {
        if values.len() <= INLINE_ARGS {
            let mut inline = [V::None; INLINE_ARGS];
            inline[..values.len()].copy_from_slice(values);
            Args(Repr::Inline { len: values.len() as u8, values: inline })
        } else {
            Args(Repr::Heap(values.to_vec()))
        }
    }

    /// Make these values a copy of `values`, in the room they have: a
    /// choice pushed empty onto a list and filled there is not copied
    /// whole again.
    #[inline]
    pub fn fill_from(&mut self, values: &[V]) {
        match &mut self.0 {
            Repr::Inline { len, values: place } if values.len() <= INLINE_ARGS => {
                place[..values.len()].copy_from_slice(values);
                *len = values.len() as u8;
            }
            _ => *self = Args::from_slice(values),
        }
    }

    /// One more value at the end.
    pub fn push(&mut self, v: V) {
        match &mut self.0 {
            Repr::Inline { len, values } if (*len as usize) < INLINE_ARGS => {
                values[*len as usize] = v;
                *len += 1;
            }
            Repr::Inline { len, values } => {
                let mut list = values[..*len as usize].to_vec();
                list.push(v);
                self.0 = Repr::Heap(list);
            }
            Repr::Heap(list) => list.push(v),
        }
    }
}

impl Default for Args {
    fn default() -> Args {
        Args::new()
    }
}

impl std::ops::Deref for Args {
    type Target = [V];
    fn deref(&self) -> &[V] {
        match &self.0 {
            Repr::Inline { len, values } => &values[..*len as usize],
            Repr::Heap(list) => list,
        }
    }
}

impl std::ops::DerefMut for Args {
    fn deref_mut(&mut self) -> &mut [V] {
        match &mut self.0 {
            Repr::Inline { len, values } => &mut values[..*len as usize],
            Repr::Heap(list) => list,
        }
    }
}

impl From<Vec<V>> for Args {
    fn from(values: Vec<V>) -> Args {
        if values.len() <= INLINE_ARGS {
            Args::from_slice(&values)
        } else {
            Args(Repr::Heap(values))
        }
    }
}

impl From<&[V]> for Args {
    fn from(values: &[V]) -> Args {
        Args::from_slice(values)
    }
}

impl<const N: usize> From<[V; N]> for Args {
    fn from(values: [V; N]) -> Args {
        Args::from_slice(&values)
    }
}

impl FromIterator<V> for Args {
    fn from_iter<I: IntoIterator<Item = V>>(iter: I) -> Args {
        let mut args = Args::new();
        for v in iter {
            args.push(v);
        }
        args
    }
}

impl<'a> IntoIterator for &'a Args {
    type Item = &'a V;
    type IntoIter = std::slice::Iter<'a, V>;
    fn into_iter(self) -> Self::IntoIter {
        self.iter()
    }
}

/// Equal when the values are, however they are kept.
impl PartialEq for Args {
    fn eq(&self, other: &Args) -> bool {
        self[..] == other[..]
    }
}

impl PartialEq<[V]> for Args {
    fn eq(&self, other: &[V]) -> bool {
        self[..] == *other
    }
}

impl<const N: usize> PartialEq<[V; N]> for Args {
    fn eq(&self, other: &[V; N]) -> bool {
        self[..] == other[..]
    }
}

impl PartialEq<Vec<V>> for Args {
    fn eq(&self, other: &Vec<V>) -> bool {
        self[..] == other[..]
    }
}

/// As a list of the values, as a `Vec` shows.
impl std::fmt::Debug for Args {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Past the room in place, values go on in a list on the heap: a
    /// choice of many parameters keeps every value, in order, and compares
    /// equal to the same values however they were gathered.
    #[test]
    fn args_past_the_inline_room_keep_every_value_in_order() {
        let values: Vec<V> = (0..INLINE_ARGS as i64 + 3).map(V::Int).collect();
        let pushed: Args = values.iter().copied().collect();
        assert_eq!(&pushed[..], &values[..]);
        assert_eq!(Args::from(values.clone()), pushed);
        assert_eq!(Args::from_slice(&values), pushed);
        let few = Args::from_slice(&values[..2]);
        assert_eq!(few.len(), 2);
        assert_eq!(few, [V::Int(0), V::Int(1)]);
        assert_ne!(few, pushed);
        assert_eq!(format!("{pushed:?}"), format!("{values:?}"), "shown as a list");
    }

    /// Values filled into existing args replace what they held, whether
    /// they fit in place or not, and whatever the args held before.
    #[test]
    fn args_filled_in_place_hold_exactly_the_values_given() {
        let values: Vec<V> = (0..INLINE_ARGS as i64 + 3).map(V::Int).collect();
        let mut args = Args::from_slice(&values[..3]);
        args.fill_from(&values[5..7]);
        assert_eq!(args, [V::Int(5), V::Int(6)]);
        args.fill_from(&values);
        assert_eq!(&args[..], &values[..], "past the room in place");
        args.fill_from(&values[..1]);
        assert_eq!(args, [V::Int(0)], "from a list on the heap back to a few");
        args.fill_from(&[]);
        assert!(args.is_empty());
    }

    /// A choice's sets read back by position as they were pushed or built
    /// at once, an empty set included, and none past the last.
    #[test]
    fn choice_sets_read_back_each_set_as_pushed() {
        let ids = |ns: &[usize]| ns.iter().map(|n| ComponentId::new(*n)).collect::<Vec<_>>();
        let lists = [ids(&[4, 2]), ids(&[]), ids(&[7]), ids(&[1, 3, 5])];
        let sets: ChoiceSets = lists.iter().cloned().collect();
        assert_eq!(sets.len(), 4);
        for (i, list) in lists.iter().enumerate() {
            assert_eq!(sets.get(i), Some(&list[..]), "set {i}");
            assert_eq!(&sets[i], &list[..], "set {i}");
        }
        assert_eq!(sets.get(4), None);
        assert_eq!(sets.iter().collect::<Vec<_>>(), lists.iter().map(|l| &l[..]).collect::<Vec<_>>());
        assert_eq!(format!("{sets:?}"), format!("{lists:?}"), "shown as a list of lists");
        assert_eq!(ChoiceSets::from_slices(lists.iter().map(|l| &l[..])), sets, "built at once as pushed");
        let only_empty: ChoiceSets = [ids(&[])].into_iter().collect();
        assert_eq!((only_empty.len(), only_empty.get(0)), (1, Some(&[][..])), "one set, empty");
        // One set (packed on its own way) built at once as pushed, empty or not.
        for one in [ids(&[]), ids(&[9, 4, 6])] {
            let pushed: ChoiceSets = [one.clone()].into_iter().collect();
            let built = ChoiceSets::from_slices_with(std::iter::once(&one[..]), || ids(&[1, 2, 3, 4, 5]));
            assert_eq!(built, pushed, "one set {one:?}, in a room that held others");
            assert_eq!((built.len(), built.get(0)), (1, Some(&one[..])));
        }
        assert!(ChoiceSets::new().is_empty());
        assert_eq!(ChoiceSets::from_slices(std::iter::empty()), ChoiceSets::new());
        assert_ne!(sets, lists[..3].iter().cloned().collect::<ChoiceSets>());
        // More sets than are gathered before packing: packed all the same.
        let many: Vec<Vec<ComponentId>> = (0..FEW_SETS + 2).map(|n| ids(&[n, n + 10])).collect();
        let pushed: ChoiceSets = many.iter().cloned().collect();
        assert_eq!(
            ChoiceSets::from_slices(many.iter().map(|l| &l[..])),
            pushed,
            "many built at once as pushed"
        );
        assert_eq!(pushed.get(FEW_SETS + 1), Some(&many[FEW_SETS + 1][..]));
    }

    /// One set of up to four components (most choices' sets) is kept in
    /// place: built without asking for a room and giving none back; a
    /// longer one, or more sets, take a list. Both read back the same,
    /// and pushed one by one they are kept as built at once.
    #[test]
    fn choice_sets_keep_one_set_of_four_in_place_and_more_in_a_list() {
        let ids = |ns: &[usize]| ns.iter().map(|n| ComponentId::new(*n)).collect::<Vec<_>>();
        let asked = std::cell::Cell::new(0);
        let room = || {
            asked.set(asked.get() + 1);
            Vec::new()
        };
        for set in [ids(&[]), ids(&[0]), ids(&[4, 3, 2, 1])] {
            let kept = ChoiceSets::from_slices_with(std::iter::once(&set[..]), room);
            assert_eq!((kept.len(), kept.get(0), kept.get(1)), (1, Some(&set[..]), None), "{set:?}");
            assert_eq!(kept.into_room().capacity(), 0, "{set:?}: none given back");
        }
        assert_eq!(asked.get(), 0, "no room asked for");
        let five = ids(&[5, 4, 3, 2, 1]);
        let listed = ChoiceSets::from_slices_with(std::iter::once(&five[..]), room);
        assert_eq!(asked.get(), 1, "a room asked for five");
        assert_eq!((listed.len(), listed.get(0)), (1, Some(&five[..])));
        assert!(listed.into_room().capacity() >= 7, "given back with its allocation");
        let mut pushed = ChoiceSets::new();
        pushed.push(ids(&[2, 1]));
        assert_eq!(pushed, ChoiceSets::from_slices(std::iter::once(&ids(&[2, 1])[..])));
        assert_eq!(pushed.clone().into_room().capacity(), 0, "one short set pushed is kept in place");
        pushed.push(ids(&[7]));
        assert_eq!(pushed.iter().collect::<Vec<_>>(), vec![&ids(&[2, 1])[..], &ids(&[7])[..]]);
        assert_eq!(pushed, ChoiceSets::from_slices([&ids(&[2, 1])[..], &ids(&[7])[..]].into_iter()));
    }

    /// Sets built in the room other sets gave back read as those built
    /// anew: nothing of what the room held shows.
    #[test]
    fn choice_sets_built_in_a_given_back_room_hold_only_their_own_sets() {
        let ids = |ns: &[usize]| ns.iter().map(|n| ComponentId::new(*n)).collect::<Vec<_>>();
        let old = [ids(&[9, 8, 7, 6, 5]), ids(&[4])];
        let room = ChoiceSets::from_slices(old.iter().map(|l| &l[..])).into_room();
        assert!(room.is_empty() && room.capacity() >= 8, "given back empty, with its allocation");
        let lists = [ids(&[2]), ids(&[]), ids(&[3, 1])];
        let built = ChoiceSets::from_slices_with(lists.iter().map(|l| &l[..]), || room);
        assert_eq!(built, ChoiceSets::from_slices(lists.iter().map(|l| &l[..])));
        assert_eq!(built.iter().collect::<Vec<_>>(), lists.iter().map(|l| &l[..]).collect::<Vec<_>>());
        let none = ChoiceSets::from_slices_with(std::iter::empty(), || built.into_room());
        assert_eq!((none.is_empty(), none.len()), (true, 0), "no sets, whatever the room held");
        assert_eq!(ChoiceSets::new().into_room().capacity(), 0, "a choice without sets has no room");
    }
}
