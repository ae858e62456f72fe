//! Frames of locals: one call's locals and whose turn it is, and the
//! lists of components a frame's chosen sets stand for.

use super::*;

/// How many locals a frame keeps inline, without allocating: a let or
/// procedure call happens thousands of times per turn. Twelve holds the
/// locals of most actions' preconditions in place (a bundled game's
/// busiest binds twelve): measured against 8 and 16 in docs/performance.md.
pub(super) const INLINE: usize = 12;

/// One call's locals and whose turn it is.
#[derive(Clone)]
pub struct Frame {
    pub me: Option<PlayerId>,
    inline: [V; INLINE],
    spill: Vec<V>,
    /// The sets of components the locals' `V::Set` values stand for.
    pub sets: Sets,
}

/// Lists of components one after another in one list: the sets a frame's
/// `V::Set` values stand for. A listing puts every candidate set of a
/// parameter here and takes them off again, with nothing allocated per set.
/// Boxed, and only once a set is pushed: most frames (each let call's)
/// hold none, and a frame is made at every call.
#[derive(Clone, Debug, Default)]
pub struct Sets(Option<Box<SetList>>);

#[derive(Clone, Debug, Default)]
struct SetList {
    items: Vec<ComponentId>,
    /// Where each set ends in `items`.
    ends: Vec<u32>,
}

impl Sets {
    /// How many sets.
    #[inline]
    pub fn len(&self) -> usize {
        self.0.as_ref().map_or(0, |l| l.ends.len())
    }

    #[inline]
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Set `i`'s components (none past the last).
    #[inline]
    pub fn get(&self, i: usize) -> &[ComponentId] {
        let Some(l) = &self.0 else { return &[] };
        match l.ends.get(i) {
            Some(end) => {
                let start = if i == 0 { 0 } else { l.ends[i - 1] as usize };
                &l.items[start..*end as usize]
            }
            None => &[],
        }
    }

    /// One more set, of these components.
    pub fn push(&mut self, set: impl IntoIterator<Item = ComponentId>) {
        self.push_with(|items| items.extend(set));
    }

    /// One more set, its components pushed by `fill` onto the list the
    /// sets lie in, one after another.
    #[inline]
    pub fn push_with(&mut self, fill: impl FnOnce(&mut Vec<ComponentId>)) {
        let l = self.0.get_or_insert_with(Default::default);
        fill(&mut l.items);
        l.ends.push(l.items.len() as u32);
    }

    /// Keep the first `n` sets.
    pub fn truncate(&mut self, n: usize) {
        let Some(l) = &mut self.0 else { return };
        if n < l.ends.len() {
            l.items.truncate(if n == 0 { 0 } else { l.ends[n - 1] as usize });
            l.ends.truncate(n);
        }
    }

    /// No sets (the lists keep their room).
    pub fn clear(&mut self) {
        self.truncate(0);
    }

    /// `other`'s sets from its `from`-th on, after these.
    pub fn extend_from(&mut self, other: &Sets, from: usize) {
        let Some(o) = &other.0 else { return };
        if from >= o.ends.len() {
            return;
        }
        let start = if from == 0 { 0 } else { o.ends[from - 1] as usize };
        let l = self.0.get_or_insert_with(Default::default);
        let base = l.items.len();
        l.items.extend_from_slice(&o.items[start..]);
        l.ends.extend(o.ends[from..].iter().map(|e| (*e as usize - start + base) as u32));
    }

    /// Each set, in order.
    pub fn iter(&self) -> impl Iterator<Item = &[ComponentId]> + '_ {
        (0..self.len()).map(|i| self.get(i))
    }
}

impl Frame {
    pub fn new(me: Option<PlayerId>) -> Frame {
        Frame { me, inline: std::array::from_fn(|_| V::None), spill: Vec::new(), sets: Sets::default() }
    }

    /// A frame with no local bound, whose slots past the inline ones are
    /// kept in `room`'s allocation (a list `take_room` gave back).
    pub fn with_room(me: Option<PlayerId>, mut room: Vec<V>) -> Frame {
        room.clear();
        Frame { spill: room, ..Frame::new(me) }
    }

    /// The list the slots past the inline ones were kept in, emptied, for
    /// another frame's room (`with_room`).
    pub fn take_room(&mut self) -> Vec<V> {
        let mut room = std::mem::take(&mut self.spill);
        room.clear();
        room
    }

    /// A new frame's first slots bound to a choice's values, and the sets
    /// its `V::Set` values stand for kept in `lists` (emptied first, for
    /// its room). The caller makes the frame (`with_room`) and binds it
    /// in place: a frame is some 230 bytes, not moved once made.
    #[inline]
    pub fn bind_choice(&mut self, mut lists: Sets, values: &[V], sets: &crate::ChoiceSets) {
        lists.truncate(0);
        self.sets = lists;
        self.bind_first(values);
        for set in sets.iter() {
            self.sets.push(set.iter().copied());
        }
    }

    /// The components of a set value of this frame (none for a stale index).
    #[inline]
    pub fn set_items(&self, i: u32) -> &[ComponentId] {
        self.sets.get(i as usize)
    }

    /// A frame holding these values in its first slots.
    pub fn with(me: Option<PlayerId>, values: &[V]) -> Frame {
        let mut f = Frame::new(me);
        f.bind_first(values);
        f
    }

    /// Bind the first slots to `values`, in order.
    fn bind_first(&mut self, values: &[V]) {
        for (i, v) in values.iter().enumerate() {
            self.set(i, *v);
        }
    }

    #[inline]
    pub fn get(&self, slot: usize) -> V {
        if slot < INLINE {
            self.inline[slot]
        } else {
            self.spill.get(slot - INLINE).cloned().unwrap_or(V::None)
        }
    }

    /// A local slot's value, without a copy (`None`: never bound).
    #[inline]
    pub fn peek(&self, slot: usize) -> Option<&V> {
        if slot < INLINE {
            Some(&self.inline[slot])
        } else {
            self.spill.get(slot - INLINE)
        }
    }

    /// Make room for `slots` locals at once, each reading as none until
    /// bound (as the inline ones do): a frame that will bind many (an
    /// action's, the search's) allocates once, and binding a slot past the
    /// last bound (`bind_past_end`, once per slot per listing) is never
    /// needed for these.
    pub fn reserve(&mut self, slots: usize) {
        let spilled = slots.saturating_sub(INLINE);
        if self.spill.len() < spilled {
            self.spill.resize(spilled, V::None);
        }
    }

    /// Bind a local slot; expressions evaluated on their own (the end
    /// condition, a counter's start) get their slots as they bind them.
    #[inline]
    pub fn set(&mut self, slot: usize, v: V) {
        if slot < INLINE {
            self.inline[slot] = v;
        } else {
            let i = slot - INLINE;
            match self.spill.get_mut(i) {
                Some(place) => *place = v,
                None => self.bind_past_end(i, v),
            }
        }
    }

    /// Bind spilled slot `i`, past the slots bound so far (the rest
    /// between are unbound): out of line, so that `set` inlines.
    #[cold]
    #[inline(never)]
    fn bind_past_end(&mut self, i: usize, v: V) {
        self.spill.resize(i + 1, V::None);
        self.spill[i] = v;
    }
}

#[cfg(test)]
mod tests {
    use super::{Frame, Sets, INLINE};
    use crate::state::V;
    use model::{ComponentId, PlayerId};

    fn ids(ns: &[usize]) -> Vec<ComponentId> {
        ns.iter().map(|n| ComponentId::new(*n)).collect()
    }

    /// A listing pushes a parameter's candidate sets after those of the
    /// parameters before it and takes them off again: the earlier sets
    /// read the same, an empty set included, and a stale index reads none.
    #[test]
    fn sets_truncated_to_an_earlier_count_keep_the_earlier_sets() {
        let mut sets = Sets::default();
        sets.push(ids(&[3, 1]));
        sets.push(ids(&[]));
        let base = sets.len();
        sets.push(ids(&[7]));
        sets.push(ids(&[2, 4, 6]));
        assert_eq!(sets.get(3), &ids(&[2, 4, 6])[..]);
        sets.truncate(base);
        assert_eq!(sets.len(), 2);
        assert_eq!(sets.get(0), &ids(&[3, 1])[..]);
        assert!(sets.get(1).is_empty());
        assert!(sets.get(2).is_empty(), "a set taken off reads as none");
        sets.push(ids(&[5]));
        assert_eq!(sets.iter().collect::<Vec<_>>(), vec![&ids(&[3, 1])[..], &[][..], &ids(&[5])[..]]);
        sets.truncate(0);
        assert!(sets.is_empty() && sets.get(0).is_empty());
    }

    /// Sets copied from another list from its `from`-th on read as they
    /// did there, after the sets already held (the set search copies the
    /// sets it kept this way).
    #[test]
    fn sets_extended_from_another_list_read_as_there_after_their_own() {
        let mut kept = Sets::default();
        kept.push(ids(&[9]));
        kept.push(ids(&[3, 1]));
        kept.push(ids(&[]));
        kept.push(ids(&[7, 8]));
        let mut sets = Sets::default();
        sets.push(ids(&[5, 6, 4]));
        sets.extend_from(&kept, 1);
        assert_eq!(
            sets.iter().collect::<Vec<_>>(),
            vec![&ids(&[5, 6, 4])[..], &ids(&[3, 1])[..], &[][..], &ids(&[7, 8])[..]]
        );
        sets.extend_from(&kept, 4);
        assert_eq!(sets.len(), 4, "nothing past the last");
        sets.clear();
        sets.extend_from(&kept, 0);
        assert_eq!(sets.iter().collect::<Vec<_>>(), kept.iter().collect::<Vec<_>>());
    }

    /// Slots made room for read as none until bound, as the inline ones
    /// do; one bound past them still binds.
    #[test]
    fn a_reserved_frame_reads_its_slots_as_none_until_bound() {
        let mut f = Frame::new(None);
        f.reserve(INLINE + 3);
        for slot in [0, INLINE, INLINE + 2] {
            assert_eq!(f.peek(slot), Some(&V::None), "slot {slot}");
            assert_eq!(f.get(slot), V::None);
        }
        f.set(INLINE + 1, V::Int(3));
        f.set(INLINE + 5, V::Int(8));
        assert_eq!((f.get(INLINE + 1), f.get(INLINE + 5)), (V::Int(3), V::Int(8)));
        f.reserve(INLINE + 2);
        assert_eq!(f.get(INLINE + 5), V::Int(8), "making less room unbinds nothing");
    }

    /// A frame made in the room an earlier frame gave back binds nothing
    /// of that frame's: every slot past the inline ones reads as unbound.
    #[test]
    fn a_frame_made_in_a_given_back_room_starts_with_no_local_bound() {
        let mut first = Frame::new(None);
        let far = INLINE + 3;
        first.set(far, V::Int(7));
        let room = first.take_room();
        assert!(room.is_empty() && room.capacity() > 3, "the room comes back empty, with its allocation");
        assert_eq!(first.peek(far), None, "the frame that gave it keeps no slot past the inline ones");
        let mut second = Frame::with_room(Some(PlayerId::new(1)), vec![V::Int(9); 6]);
        assert_eq!(second.peek(far), None);
        assert_eq!(second.get(far), V::None);
        second.set(far, V::Int(4));
        assert_eq!(second.get(far), V::Int(4));
        assert_eq!(second.me, Some(PlayerId::new(1)));
    }
}
