//! Moving components between zones: slots of rows, overflow, the
//! component-location hints.

use model::Position;
use model::Span;
use model::*;

use super::*;
use crate::event::Event;
use crate::state::{State, ZoneInst};

impl Interp<'_> {
    /// An empty list to pick a move's components into: the game's, with
    /// the room earlier moves left (a move inside another's picking gets
    /// a new one).
    #[inline]
    pub fn take_picked(&self) -> Vec<ComponentId> {
        std::mem::take(&mut *self.picked.borrow_mut())
    }

    /// `move_cards` of a list `take_picked` gave, which goes back to the
    /// game, emptied, for the next move. A move that picked nothing (most
    /// of a refill's sorting) only gives the list back, in the caller.
    #[inline(always)]
    pub fn move_picked(
        &mut self,
        mut cards: Vec<ComponentId>,
        dest: ZoneInst,
        pos: Position,
        span: Span,
        st: &mut State,
    ) -> R<()> {
        if !cards.is_empty() {
            self.move_cards(&cards, dest, pos, span, st)?;
            cards.clear();
        }
        *self.picked.borrow_mut() = cards;
        Ok(())
    }

    /// Take components out of wherever they are and put them in `dest`.
    pub fn move_cards(
        &mut self,
        cards: &[ComponentId],
        dest: ZoneInst,
        pos: Position,
        span: Span,
        st: &mut State,
    ) -> R<()> {
        if cards.is_empty() {
            return Ok(());
        }
        // Where each came from, for the events only.
        let recording = self.events.is_some();
        let mut sources = Vec::with_capacity(if recording { cards.len() } else { 0 });
        if let Some(src) = self.take_in_order(cards, st) {
            if recording {
                sources.resize(cards.len(), src);
            }
        } else {
            for &c in cards {
                let src = find(st, c)
                    .ok_or_else(|| Box::new(Fail::Rule { message: "component is nowhere".into(), span }))?;
                let slot = st.zones[src].iter().position(|x| *x == Some(c)).expect("found above");
                if self.lay.zone_kind(src) == ZoneKind::Row {
                    st.zone_mut(src)[slot] = None;
                } else {
                    st.remove_at(src, slot);
                }
                self.lay.tally(st, src, &[c], false);
                if recording {
                    sources.push(src);
                }
            }
        }
        self.put(cards, dest, pos, span, st)?;
        for (&c, src) in cards.iter().zip(sources) {
            self.record(|_| Event::Move { card: c, from: src, to: dest, at: span });
        }
        Ok(())
    }

    /// Put `cards`, already taken out of where they were, in `dest` at
    /// `pos`, and note where they now lie (the events are the caller's).
    pub(super) fn put(
        &mut self,
        cards: &[ComponentId],
        dest: ZoneInst,
        pos: Position,
        span: Span,
        st: &mut State,
    ) -> R<()> {
        let kind = self.lay.zone_kind(dest);
        match (kind, pos) {
            (ZoneKind::Row, Position::Front) => {
                for &c in cards.iter().rev() {
                    self.push_front(dest, c, span, st)?;
                }
            }
            (ZoneKind::Row, _) => {
                for &c in cards {
                    match st.zones[dest].iter().position(Option::is_none) {
                        Some(slot) => st.zone_mut(dest)[slot] = Some(c),
                        None => {
                            return rule(
                                span,
                                format!("`{}` has no free slot", self.lay.zone_name(self.r, dest)),
                            )
                        }
                    }
                }
            }
            (_, Position::Bottom) | (ZoneKind::Bag | ZoneKind::Box, _) => {
                st.zone_mut(dest).extend(cards.iter().map(|c| Some(*c)));
            }
            _ => {
                // On top, in the order given: the first on top.
                let zone = st.zone_mut(dest);
                match cards {
                    [c] => zone.insert(0, Some(*c)),
                    _ => drop(zone.splice(0..0, cards.iter().map(|c| Some(*c)))),
                }
            }
        }
        for &c in cards {
            if let Some(l) = st.loc.get_mut(c.index()) {
                *l = dest.index() as u32;
            }
        }
        self.lay.tally(st, dest, cards, true);
        Ok(())
    }

    /// Take `cards` out of their zone in one pass, when they all lie in
    /// the one zone their recorded location names, in the order given (a
    /// move of one component, or of some of a zone's in the order they
    /// lie): the zone they came from. `None`, changing nothing, otherwise;
    /// the caller then takes them one at a time. The result is the same:
    /// a component lies in one place once.
    fn take_in_order(&self, cards: &[ComponentId], st: &mut State) -> Option<ZoneInst> {
        let first = *st.loc.get(cards.first()?.index())?;
        if !cards.iter().all(|c| st.loc.get(c.index()) == Some(&first)) {
            return None;
        }
        let src = ZoneInst::new(first as usize);
        let row = self.lay.zone_kind(src) == ZoneKind::Row;
        // Where the first lies, and whether the rest follow in order.
        let cells = st.zones.get(src.index())?;
        if !row && cells.len() == cards.len() && cells.iter().zip(cards).all(|(x, c)| *x == Some(*c)) {
            // The whole zone, in order (`move all c in Z to W`): emptied,
            // with its tallies, without a copy of what another state
            // shares nor a pass to close up gaps.
            self.lay.untally_all(st, src);
            st.clear_zone(src);
            return Some(src);
        }
        let start = cells.iter().position(|cell| *cell == Some(cards[0]))?;
        let mut next = 1;
        for cell in &cells[start + 1..] {
            if next == cards.len() {
                break;
            }
            if *cell == Some(cards[next]) {
                next += 1;
            }
        }
        if next < cards.len() {
            return None;
        }
        self.lay.tally(st, src, cards, false);
        if !row && cards.len() == 1 {
            st.remove_at(src, start);
            return Some(src);
        }
        let zone = st.zone_mut(src);
        if row {
            // Emptied slots, the rest where they are.
            let mut next = 0;
            for cell in &mut zone[start..] {
                if next == cards.len() {
                    break;
                }
                if *cell == Some(cards[next]) {
                    *cell = None;
                    next += 1;
                }
            }
        } else {
            // The rest moved up over the gaps, in order.
            let (mut kept, mut next) = (start, 0);
            for i in start..zone.len() {
                let cell = zone[i];
                if next < cards.len() && cell == Some(cards[next]) {
                    next += 1;
                } else {
                    zone[kept] = cell;
                    kept += 1;
                }
            }
            zone.truncate(kept);
        }
        Some(src)
    }

    /// Put a component in a row's first slot; every card moves one slot on,
    /// and the one in the last slot drops into the row's overflow zone.
    pub(super) fn push_front(&mut self, row: ZoneInst, c: ComponentId, span: Span, st: &mut State) -> R<()> {
        let last = st.zones[row].len().saturating_sub(1);
        if let Some(out) = st.zones[row].get(last).copied().flatten() {
            let overflow = match self.lay.instance(row).source {
                Ok(z) => self.r.zones[z].overflow,
                Err(_) => None,
            };
            let Some(overflow) = overflow else {
                return rule(
                    span,
                    format!("`{}` is full and has no overflow zone", self.lay.zone_name(self.r, row)),
                );
            };
            let dest = self.lay.zone(overflow, None, None);
            st.zone_mut(row)[last] = None;
            st.zone_mut(dest).insert(0, Some(out));
            self.lay.tally(st, row, &[out], false);
            self.lay.tally(st, dest, &[out], true);
            self.record(|_| Event::Move { card: out, from: row, to: dest, at: span });
        }
        let zone = st.zone_mut(row);
        if zone.is_empty() {
            return rule(span, "a row without slots");
        }
        zone.rotate_right(1);
        zone[0] = Some(c);
        Ok(())
    }
}

/// The zone instance holding a component.
pub fn find(st: &State, c: ComponentId) -> Option<ZoneInst> {
    if let Some(z) = st.loc.get(c.index()).map(|z| ZoneInst::new(*z as usize)) {
        if st.zones.get(z.index()).is_some_and(|cells| cells.contains(&Some(c))) {
            return Some(z);
        }
    }
    st.zones.iter().position(|z| z.contains(&Some(c))).map(ZoneInst::new)
}
