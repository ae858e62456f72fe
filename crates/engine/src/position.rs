//! Reading a game's position, and arranging one by hand.
//!
//! The state itself is the engine's own; everyone else reads it through
//! these methods. The arranging methods are for tests, tools and examples
//! that set up a position (a rulebook example, a permuted hidden zone):
//! they move components without running any rule, and keep every component
//! in exactly one place.

use model::{ActionId, ComponentId, CounterId, PieceId, PlaceId, PlayerId, ZoneKind};

use crate::game::Game;
use crate::interp::find;
use crate::state::{ZoneInst, V};

/// Where [`Game::put`] places a component.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum At {
    /// On top of a pile (first in its list).
    Top,
    /// At the bottom (last in its list).
    Bottom,
    /// Into this slot (from 0) of a row or list; a component already there
    /// takes the place the new one left.
    Slot(usize),
}

/// Everything that changes during a game, as plain values: for comparing
/// two positions (a replay, a refused action, two samples).
#[derive(Clone, Debug, PartialEq)]
pub struct Snapshot {
    /// Per zone instance, its contents (index 0 = top or first slot).
    pub zones: Vec<Vec<Option<ComponentId>>>,
    pub counters: Vec<V>,
    pub pieces: Vec<PlaceId>,
    pub order: Vec<PlayerId>,
    pub arrival: Vec<u64>,
    /// Whose turn it is (`turns clockwise`): a position in `order`.
    pub turn_seat: usize,
    /// Asks not answered yet, oldest first.
    pub asks: Vec<(PlayerId, ActionId)>,
    pub finished: bool,
}

impl Game<'_> {
    // ------------------------------------------------------------- reading

    /// A zone instance's contents, top (or first slot) first; rows keep
    /// `None` for empty slots.
    pub fn zone(&self, inst: ZoneInst) -> &[Option<ComponentId>] {
        &self.state.zones[inst]
    }

    /// The components in a zone instance, top first.
    pub fn cards(&self, inst: ZoneInst) -> impl Iterator<Item = ComponentId> + '_ {
        self.state.cards(inst)
    }

    /// How many components lie in a zone instance.
    pub fn count(&self, inst: ZoneInst) -> usize {
        self.state.count(inst)
    }

    /// The zone instance holding a component.
    pub fn where_is(&self, c: ComponentId) -> Option<ZoneInst> {
        find(&self.state, c)
    }

    /// A counter's value for a player and/or a place.
    pub fn counter(&self, counter: CounterId, player: Option<PlayerId>, place: Option<PlaceId>) -> V {
        self.state.counters[self.layout.counter(counter, player, place)]
    }

    /// Where a piece stands.
    pub fn piece(&self, piece: PieceId, player: Option<PlayerId>) -> PlaceId {
        self.state.pieces[self.layout.piece(piece, player)]
    }

    /// How many actions have been applied.
    pub fn actions_taken(&self) -> u64 {
        self.state.actions
    }

    /// The seats in playing order (after `shuffle players`).
    pub fn seat_order(&self) -> &[PlayerId] {
        &self.state.order
    }

    /// For `turns by lowest`: when a player last reached their value; on a
    /// tie the later one (higher) moves first.
    pub fn arrival(&self, p: PlayerId) -> u64 {
        self.state.arrival[p.index()]
    }

    /// Asks not answered yet (`ask P to ACTION`), oldest first: the first
    /// one's player moves next, and may only take its action.
    pub fn asks(&self) -> &[(PlayerId, ActionId)] {
        &self.state.asks
    }

    /// The latest arrival handed out so far.
    pub fn tick(&self) -> u64 {
        self.state.tick
    }

    /// The whole position as plain values.
    pub fn snapshot(&self) -> Snapshot {
        let s = &self.state;
        Snapshot {
            zones: s.zones.iter().map(|z| z.to_vec()).collect(),
            counters: s.counters.clone(),
            pieces: s.pieces.clone(),
            order: s.order.clone(),
            arrival: s.arrival.clone(),
            turn_seat: s.turn_seat,
            asks: s.asks.clone(),
            finished: s.finished,
        }
    }

    // ----------------------------------------------------------- arranging

    /// Move a component from wherever it lies to `to`, without running any
    /// rule. A row keeps the slot it left, empty.
    pub fn put(&mut self, c: ComponentId, to: ZoneInst, at: At) {
        let from = self.take_out(c);
        let cells = &mut self.state.zones[to];
        match at {
            At::Top => cells.insert(0, Some(c)),
            At::Bottom => cells.push(Some(c)),
            At::Slot(i) => {
                if cells.len() <= i {
                    cells.resize(i + 1, None);
                }
                let old = cells[i].replace(c);
                if let (Some(old), Some((src, slot))) = (old, from) {
                    let cells = &mut self.state.zones[src];
                    if self.layout.zone_kind(src) == ZoneKind::Row {
                        cells[slot] = Some(old);
                    } else {
                        let slot = slot.min(cells.len());
                        cells.insert(slot, Some(old));
                    }
                    self.settle(old, src);
                } else if let Some(old) = old {
                    self.state.zones[to].push(Some(old));
                }
            }
        }
        self.settle(c, to);
        self.layout.recount(&mut self.state);
    }

    /// Swap where two components lie.
    pub fn exchange(&mut self, a: ComponentId, b: ComponentId) {
        let (Some(za), Some(zb)) = (self.where_is(a), self.where_is(b)) else { return };
        let ia = self.state.zones[za].iter().position(|x| *x == Some(a)).expect("a lies in za");
        let ib = self.state.zones[zb].iter().position(|x| *x == Some(b)).expect("b lies in zb");
        self.state.zones[za][ia] = Some(b);
        self.state.zones[zb][ib] = Some(a);
        self.settle(b, za);
        self.settle(a, zb);
        self.layout.recount(&mut self.state);
    }

    /// Reorder a zone instance's contents in place (reverse, swap, ...).
    ///
    /// Panics if `reorder` changes which components lie there: this only
    /// rearranges.
    pub fn arrange(&mut self, inst: ZoneInst, reorder: impl FnOnce(&mut [Option<ComponentId>])) {
        let mut before: Vec<ComponentId> = self.state.cards(inst).collect();
        reorder(&mut self.state.zones[inst][..]);
        let mut after: Vec<ComponentId> = self.state.cards(inst).collect();
        before.sort_unstable();
        after.sort_unstable();
        assert_eq!(before, after, "`arrange` only reorders a zone");
    }

    /// Move every component of `from` to the bottom of `to`, in order.
    pub fn move_all(&mut self, from: ZoneInst, to: ZoneInst) {
        let cards: Vec<ComponentId> = self.state.cards(from).collect();
        for c in cards {
            self.put(c, to, At::Bottom);
        }
    }

    /// Set a counter's value by hand.
    pub fn set_counter(
        &mut self,
        counter: CounterId,
        player: Option<PlayerId>,
        place: Option<PlaceId>,
        v: V,
    ) {
        let i = self.layout.counter(counter, player, place);
        self.state.counters[i] = v;
    }

    /// Stand a piece on a place by hand.
    pub fn set_piece(&mut self, piece: PieceId, player: Option<PlayerId>, at: PlaceId) {
        let i = self.layout.piece(piece, player);
        self.state.pieces[i] = at;
    }

    /// Take a component out of its zone: (zone, slot) it left.
    fn take_out(&mut self, c: ComponentId) -> Option<(ZoneInst, usize)> {
        let src = find(&self.state, c)?;
        let slot = self.state.zones[src].iter().position(|x| *x == Some(c)).expect("found above");
        if self.layout.zone_kind(src) == ZoneKind::Row {
            self.state.zones[src][slot] = None;
        } else {
            self.state.zones[src].remove(slot);
        }
        Some((src, slot))
    }

    /// Record where a component now lies (the hint `find` checks first).
    fn settle(&mut self, c: ComponentId, inst: ZoneInst) {
        if let Some(l) = self.state.loc.get_mut(c.index()) {
            *l = inst.index() as u32;
        }
    }
}
