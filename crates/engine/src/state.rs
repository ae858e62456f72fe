//! Runtime values, the layout of zone and counter instances, and the state.

use std::cell::RefCell;
use std::collections::HashMap;
use std::rc::Rc;
use std::sync::{Mutex, OnceLock};

use model::{
    ActionId, ClassId, ComponentId, CounterId, GroupId, PieceId, PlaceId, PlayerId, Ruleset, TagId, Value,
    ZoneId, ZoneKind,
};
use rand_chacha::ChaCha8Rng;

/// A value while the game runs: a plain copy, with nothing to free.
/// Equal when of one kind with equal parts (see `PartialEq`, the derived
/// comparison written out: the derived hash agrees with it).
///
/// The kind is a whole word (`repr(u64)`): every part then starts at the
/// second word, and a value is copied, returned and read back in fewer,
/// wider pieces. With the default one-byte kind the parts sit at offsets
/// 1, 2 and 4 too, and a value written in those pieces and read back
/// whole stalls the processor's store forwarding: the interpreter took
/// about 11% longer by the clock on the bundled games
/// (docs/performance.md).
#[allow(clippy::derived_hash_with_manual_eq)]
#[derive(Clone, Copy, Debug, Eq, Hash)]
#[repr(u64)]
pub enum V {
    Int(i64),
    Bool(bool),
    None,
    /// Texts come only from the ruleset (literals, options, attributes);
    /// see `text`.
    Text(Text),
    Place(PlaceId),
    Player(PlayerId),
    Card(ComponentId),
    Tag(TagId),
    Zone(ZoneInst),
    /// A map-valued attribute of a component: (component, slot).
    Map(ComponentId, u32),
    /// Something to go through: all players, or the places of a class.
    Players,
    /// Every player in turn order, starting with this one.
    PlayersFrom(PlayerId),
    Class(ClassId),
    /// A set of components a player chose (`give: set of me.hand`): the
    /// index of its list among the frame's sets (`Frame::sets`).
    Set(u32),
}

/// One instance of a zone in a game: a zone declared per player or per
/// place has one for each (`bag[PLACE]`, `hand of P2`), and each group's
/// supply is one more. Numbered by the [`Layout`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct ZoneInst(usize);

// Two words, and a rule error still fits in the kind's unused values.
const _: () = assert!(std::mem::size_of::<V>() == 16 && std::mem::size_of::<Result<V, Box<u8>>>() == 16);

impl ZoneInst {
    #[inline]
    pub fn new(i: usize) -> ZoneInst {
        ZoneInst(i)
    }

    #[inline]
    pub fn index(self) -> usize {
        self.0
    }

    /// Every instance of a layout, in order.
    pub fn all(n: usize) -> impl DoubleEndedIterator<Item = ZoneInst> + ExactSizeIterator + Clone {
        (0..n).map(ZoneInst)
    }
}

impl std::ops::Index<ZoneInst> for Vec<Cells> {
    type Output = Cells;
    #[inline]
    fn index(&self, z: ZoneInst) -> &Cells {
        &self[z.index()]
    }
}

impl std::ops::IndexMut<ZoneInst> for Vec<Cells> {
    #[inline]
    fn index_mut(&mut self, z: ZoneInst) -> &mut Cells {
        &mut self[z.index()]
    }
}

/// As derived (one kind, equal parts; texts by their contents), written
/// out so that it inlines: rules compare values all the time, and the
/// derived comparison stayed a call.
impl PartialEq for V {
    #[inline]
    fn eq(&self, other: &V) -> bool {
        self.same(other)
    }
}

impl V {
    /// `==`, always inlined: what compiled rules compare with (the
    /// comparison as a call was 4% of a compiled game's instructions).
    #[inline(always)]
    pub fn same(&self, other: &V) -> bool {
        match *self {
            V::Int(a) => matches!(*other, V::Int(b) if a == b),
            V::Bool(a) => matches!(*other, V::Bool(b) if a == b),
            V::None => matches!(*other, V::None),
            V::Text(a) => matches!(*other, V::Text(b) if a == b),
            V::Place(a) => matches!(*other, V::Place(b) if a == b),
            V::Player(a) => matches!(*other, V::Player(b) if a == b),
            V::Card(a) => matches!(*other, V::Card(b) if a == b),
            V::Tag(a) => matches!(*other, V::Tag(b) if a == b),
            V::Zone(a) => matches!(*other, V::Zone(b) if a == b),
            V::Map(c, slot) => matches!(*other, V::Map(d, s) if c == d && slot == s),
            V::Players => matches!(*other, V::Players),
            V::PlayersFrom(a) => matches!(*other, V::PlayersFrom(b) if a == b),
            V::Class(a) => matches!(*other, V::Class(b) if a == b),
            V::Set(a) => matches!(*other, V::Set(b) if a == b),
        }
    }

    pub fn from_value(v: &Value) -> V {
        match v {
            Value::Int(n) => V::Int(*n),
            Value::Bool(b) => V::Bool(*b),
            Value::None => V::None,
            Value::Text(t) => V::Text(text(t)),
            Value::Place(p) => V::Place(*p),
            Value::Tag(t) => V::Tag(*t),
            Value::Tags(_) | Value::Map(_) => V::None,
        }
    }
}

/// Shuffle in place (Fisher-Yates from the back): the one shuffle of the
/// engine, for zones, the seat order and bots' samples alike, so every
/// shuffle draws from the generator in the same way.
pub(crate) fn shuffle<T>(items: &mut [T], rng: &mut impl rand::Rng) {
    for i in (1..items.len()).rev() {
        let j = rng.gen_range(0..=i);
        items.swap(i, j);
    }
}

/// The one stored copy of a text, for the whole process. Texts in rules
/// are few and fixed (a ruleset's string literals, text options and text
/// attributes), so each distinct one is kept once and never freed; values
/// holding one stay plain copies, which makes frames, counters and states
/// cheap to copy and to drop. Comparing two texts compares their contents.
pub fn text(s: &str) -> Text {
    // Each thread asks the shared table once per text, so simulations on
    // many threads do not queue for its lock.
    thread_local! {
        static SEEN: RefCell<HashMap<&'static str, Text>> = RefCell::new(HashMap::new());
    }
    if let Some(t) = SEEN.with(|seen| seen.borrow().get(s).copied()) {
        return t;
    }
    static TEXTS: OnceLock<Mutex<HashMap<&'static str, Text>>> = OnceLock::new();
    let t = {
        let mut texts = TEXTS.get_or_init(Default::default).lock().unwrap_or_else(|e| e.into_inner());
        match texts.get(s) {
            Some(t) => *t,
            None => {
                let stored: &'static str = Box::leak(s.into());
                let t = Text(Box::leak(Box::new(stored)));
                texts.insert(stored, t);
                t
            }
        }
    };
    SEEN.with(|seen| seen.borrow_mut().insert(t.0, t));
    t
}

/// A text value: the one stored copy of it ([`text`]), reached through one
/// thin pointer, so that a value (`V`) stays two words. Reads as a `str`;
/// equal and hashed by its contents.
#[derive(Clone, Copy)]
pub struct Text(&'static &'static str);

impl Text {
    pub fn as_str(self) -> &'static str {
        self.0
    }
}

impl std::ops::Deref for Text {
    type Target = str;
    fn deref(&self) -> &str {
        self.0
    }
}

impl PartialEq for Text {
    #[inline]
    fn eq(&self, other: &Text) -> bool {
        std::ptr::eq(self.0, other.0) || self.0 == other.0
    }
}

impl Eq for Text {}

impl std::hash::Hash for Text {
    fn hash<H: std::hash::Hasher>(&self, h: &mut H) {
        self.0.hash(h)
    }
}

impl std::fmt::Debug for Text {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        std::fmt::Debug::fmt(self.0, f)
    }
}

impl std::fmt::Display for Text {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.0)
    }
}

/// Where each zone, counter and piece instance lives in the state's flat
/// vectors. Computed once per ruleset and player count.
#[derive(Clone, Debug)]
pub struct Layout {
    pub players: usize,
    /// Per zone: its first instance, and how many places each owner has.
    zone_base: Vec<(usize, usize)>,
    group_base: usize,
    /// Per counter: the same.
    counter_base: Vec<(usize, usize)>,
    piece_base: Vec<usize>,
    /// Position of each place within its class.
    place_pos: Vec<usize>,
    /// For every zone instance: (zone or group, player, place).
    pub instances: Vec<Instance>,
    /// For every zone instance, its zone's kind (a group's supply is a
    /// box): read at every move.
    kinds: Vec<ZoneKind>,
    pub counter_instances: usize,
    pub piece_instances: usize,
    /// Per counter instance, its counter and its owner plus one (0: a
    /// counter nobody owns); the same per piece instance.
    counter_decls: Vec<(u32, u32)>,
    piece_decls: Vec<(u32, u32)>,
    /// The counts and sums rules read, kept up to date (`crate::tally`);
    /// none when nothing reads any.
    pub(crate) tallies: Option<Box<crate::tally::Tallies>>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Instance {
    /// `Ok(zone)` or `Err(group)` for a group's supply.
    pub source: Result<ZoneId, GroupId>,
    pub player: Option<PlayerId>,
    pub place: Option<PlaceId>,
}

impl Layout {
    pub fn new(r: &Ruleset, players: usize) -> Layout {
        let mut place_pos = vec![0; r.places.len()];
        for class in &r.classes {
            for (i, p) in class.places.iter().enumerate() {
                place_pos[p.index()] = i;
            }
        }
        let mut instances = Vec::new();
        let mut zone_base = Vec::new();
        for (z, zone) in r.zones.iter().enumerate() {
            let z = ZoneId::new(z);
            zone_base.push((instances.len(), Self::class_size(r, zone.index)));
            let owners: Vec<Option<PlayerId>> =
                if zone.per_player { PlayerId::all(players).map(Some).collect() } else { vec![None] };
            for owner in owners {
                match zone.index {
                    Some(class) => {
                        for p in &r.classes[class].places {
                            instances.push(Instance { source: Ok(z), player: owner, place: Some(*p) });
                        }
                    }
                    None => instances.push(Instance { source: Ok(z), player: owner, place: None }),
                }
            }
        }
        let group_base = instances.len();
        for g in GroupId::all(r.groups.len()) {
            instances.push(Instance { source: Err(g), player: None, place: None });
        }
        let mut counter_base = Vec::new();
        let mut counter_decls = Vec::new();
        let mut n = 0;
        for (i, c) in r.counters.iter().enumerate() {
            let size = Self::class_size(r, c.index);
            counter_base.push((n, size));
            let owners = if c.per_player { players } else { 1 };
            n += owners * size;
            for owner in 0..owners {
                let owner = if c.per_player { owner as u32 + 1 } else { 0 };
                counter_decls.extend(std::iter::repeat_n((i as u32, owner), size));
            }
        }
        let mut piece_base = Vec::new();
        let mut piece_decls = Vec::new();
        let mut m = 0;
        for (i, p) in r.pieces.iter().enumerate() {
            piece_base.push(m);
            let owners = if p.per_player { players } else { 1 };
            m += owners;
            for owner in 0..owners {
                piece_decls.push((i as u32, if p.per_player { owner as u32 + 1 } else { 0 }));
            }
        }
        let kinds = instances
            .iter()
            .map(|i| match i.source {
                Ok(z) => r.zones[z].kind,
                Err(_) => ZoneKind::Box,
            })
            .collect();
        Layout {
            players,
            zone_base,
            group_base,
            counter_base,
            piece_base,
            place_pos,
            instances,
            kinds,
            counter_instances: n,
            piece_instances: m,
            counter_decls,
            piece_decls,
            tallies: None,
        }
    }

    fn class_size(r: &Ruleset, class: Option<ClassId>) -> usize {
        class.map_or(1, |c| r.classes[c].places.len())
    }

    /// Every zone instance, in order.
    pub fn zone_insts(&self) -> impl DoubleEndedIterator<Item = ZoneInst> + ExactSizeIterator + Clone {
        ZoneInst::all(self.instances.len())
    }

    pub fn instance(&self, inst: ZoneInst) -> Instance {
        self.instances[inst.index()]
    }

    #[inline(always)]
    pub fn zone(&self, zone: ZoneId, player: Option<PlayerId>, place: Option<PlaceId>) -> ZoneInst {
        let (base, size) = self.zone_base[zone.index()];
        ZoneInst::new(
            base + player.map_or(0, PlayerId::index) * size + place.map_or(0, |p| self.place_pos[p.index()]),
        )
    }

    #[inline]
    pub fn group(&self, group: GroupId) -> ZoneInst {
        ZoneInst::new(self.group_base + group.index())
    }

    #[inline(always)]
    pub fn counter(&self, counter: CounterId, player: Option<PlayerId>, place: Option<PlaceId>) -> usize {
        let (base, size) = self.counter_base[counter.index()];
        base + player.map_or(0, PlayerId::index) * size + place.map_or(0, |p| self.place_pos[p.index()])
    }

    /// The counter (its index among the declarations) an instance is of,
    /// and whose it is when each player has one.
    #[inline]
    pub fn counter_of(&self, inst: usize) -> (usize, Option<usize>) {
        let (decl, owner) = self.counter_decls[inst];
        (decl as usize, owner.checked_sub(1).map(|p| p as usize))
    }

    /// The piece an instance is of, and whose (see `counter_of`).
    #[inline]
    pub fn piece_of(&self, inst: usize) -> (usize, Option<usize>) {
        let (decl, owner) = self.piece_decls[inst];
        (decl as usize, owner.checked_sub(1).map(|p| p as usize))
    }

    #[inline(always)]
    pub fn piece(&self, piece: PieceId, player: Option<PlayerId>) -> usize {
        self.piece_base[piece.index()] + player.map_or(0, PlayerId::index)
    }

    #[inline]
    pub fn zone_kind(&self, inst: ZoneInst) -> ZoneKind {
        self.kinds[inst.index()]
    }

    /// A readable name: `bag[Place]`, `tableau of P2`, `supply of GROUP`.
    /// A zone instance as players read it: its `shown` label when it has
    /// one (`the later cards`), else as [`Layout::zone_name`] writes it.
    pub fn zone_label(&self, r: &Ruleset, inst: ZoneInst) -> String {
        let i = self.instance(inst);
        match i.source.ok().and_then(|z| r.zones[z].label.as_ref()) {
            Some(label) => {
                let mut name = label.clone();
                if let Some(p) = i.place {
                    name = format!("{name}[{}]", r.places[p].name);
                }
                if let Some(p) = i.player {
                    name = format!("{name} of {p}");
                }
                name
            }
            None => self.zone_name(r, inst),
        }
    }

    pub fn zone_name(&self, r: &Ruleset, inst: ZoneInst) -> String {
        let i = self.instance(inst);
        let mut name = match i.source {
            Ok(z) => r.zones[z].name.clone(),
            Err(g) => format!("supply of {}", r.groups[g].name),
        };
        if let Some(p) = i.place {
            name = format!("{name}[{}]", r.places[p].name);
        }
        if let Some(p) = i.player {
            name = format!("{name} of {p}");
        }
        name
    }
}

/// One zone's contents, shared between copies of a state until one of them
/// changes it (copy on write): trying an action copies the state, and most
/// actions change a few zones of many. A new game's zones that start empty
/// share one empty list the same way. Reads and writes go through `Vec`.
#[derive(Clone, Default, PartialEq, Eq)]
pub struct Cells(Rc<Vec<Option<ComponentId>>>);

impl std::ops::Deref for Cells {
    type Target = Vec<Option<ComponentId>>;
    fn deref(&self) -> &Self::Target {
        &self.0
    }
}

impl std::ops::DerefMut for Cells {
    /// The contents to write: copied first while another state shares
    /// them, with room for a few more (a zone written is often added to:
    /// a copy of exactly its length grew by reallocation at the first).
    #[inline]
    fn deref_mut(&mut self) -> &mut Self::Target {
        if Rc::get_mut(&mut self.0).is_none() {
            self.own();
        }
        Rc::get_mut(&mut self.0).expect("this state's own list")
    }
}

/// How many more components than it holds a zone's copy has room for.
const CELLS_ROOM: usize = 32;

impl Cells {
    /// A copy of the contents another state shares, this state's own
    /// (`deref_mut`, at a zone's first write after a copy of the state).
    #[cold]
    #[inline(never)]
    fn own(&mut self) {
        let mut own = Vec::with_capacity(self.0.len() + CELLS_ROOM);
        own.extend_from_slice(&self.0);
        self.0 = Rc::new(own);
    }

    /// `remove(k)`, copying the rest into a list of this state's own when
    /// another state shares them (`State::remove_at`).
    fn remove_at(&mut self, k: usize) -> Option<ComponentId> {
        match Rc::get_mut(&mut self.0) {
            Some(mine) => mine.remove(k),
            None => {
                let cell = self.0[k];
                let mut own = Vec::with_capacity(self.0.len() - 1 + CELLS_ROOM);
                own.extend_from_slice(&self.0[..k]);
                own.extend_from_slice(&self.0[k + 1..]);
                self.0 = Rc::new(own);
                cell
            }
        }
    }

    /// Empty: this list's own emptied, or a new one with room for a few
    /// when another state shares it.
    fn clear(&mut self) {
        match Rc::get_mut(&mut self.0) {
            Some(mine) => mine.clear(),
            None => self.0 = Rc::new(Vec::with_capacity(CELLS_ROOM)),
        }
    }

    /// Whether two states still share this zone's contents.
    pub fn same(&self, other: &Cells) -> bool {
        Rc::ptr_eq(&self.0, &other.0)
    }

    /// Make these contents equal to `from`'s: copied into this list's own
    /// room when no other state shares it (nothing allocated or freed, and
    /// the next write needs no copy), else shared with `from`.
    pub(crate) fn copy_from(&mut self, from: &Cells) {
        match Rc::get_mut(&mut self.0) {
            Some(mine) => mine.clone_from(&from.0),
            None => self.0 = Rc::clone(&from.0),
        }
    }
}

impl From<Vec<Option<ComponentId>>> for Cells {
    fn from(v: Vec<Option<ComponentId>>) -> Cells {
        Cells(Rc::new(v))
    }
}

impl PartialEq<Vec<Option<ComponentId>>> for Cells {
    fn eq(&self, other: &Vec<Option<ComponentId>>) -> bool {
        *self.0 == *other
    }
}

impl std::fmt::Debug for Cells {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.0.fmt(f)
    }
}

impl<'a> IntoIterator for &'a Cells {
    type Item = &'a Option<ComponentId>;
    type IntoIter = std::slice::Iter<'a, Option<ComponentId>>;
    fn into_iter(self) -> Self::IntoIter {
        self.0.iter()
    }
}

/// Everything that changes during a game. Cloning it is how the engine tries
/// an action without doing it.
#[derive(Clone, Debug)]
pub struct State {
    /// Per zone instance, its contents: index 0 is the top of a pile or the
    /// first slot of a row. Rows keep `None` for empty slots.
    pub zones: Vec<Cells>,
    pub counters: Vec<V>,
    pub pieces: Vec<PlaceId>,
    /// For `turns by lowest`: when each player last reached their value;
    /// higher is later (on top of the stack).
    pub arrival: Vec<u64>,
    pub tick: u64,
    /// PlayerId order after `shuffle players`.
    pub order: Vec<PlayerId>,
    /// Who moves now (clockwise games): a position in `order`.
    pub turn_seat: usize,
    /// Boxed: the generator is over half the size of a state, which is
    /// moved several times as each action is applied.
    pub rng: Box<ChaCha8Rng>,
    /// Per component, the zone instance it was last moved to: a hint that
    /// `interp::find` checks before searching every zone (tests and samples
    /// move components by hand).
    pub loc: Vec<u32>,
    pub finished: bool,
    /// Actions applied so far.
    pub actions: u64,
    /// Asks not answered yet (`ask`), oldest first: who, and which action.
    pub asks: Vec<(PlayerId, ActionId)>,
    /// `end turn` ran during the action being applied.
    pub turn_ended: bool,
    /// The counts and sums the rules read, per zone instance
    /// (`crate::tally`; where each instance's lie: `Layout::tally_at`),
    /// kept up to date as components move. Empty when none are kept.
    pub tallies: Vec<i64>,
    /// On a trial's copy: what the trial wrote (`restore_to`).
    pub(crate) journal: Journal,
}

/// The writes to a trial's copy of the state, so that putting it back
/// copies back only the counters, pieces and zones written (and where the
/// components of those zones lay). Off on every other state: play keeps
/// no journal.
#[derive(Clone, Debug, Default)]
pub(crate) struct Journal {
    on: bool,
    /// Which state the copy was last put back to (`restore_to`'s `base`).
    base: u64,
    counters: Vec<u32>,
    pieces: Vec<u32>,
    /// The zone instances written, each once (`note_zone`).
    zones: Vec<u32>,
    /// Per zone instance, the round of notes in which `zones` last named
    /// it: a zone is written many times over (a refill writes the deck,
    /// the row and what was drawn to at every card), and named once.
    noted: Vec<u32>,
    /// This round of notes: a new one each time `zones` is emptied (0:
    /// none yet).
    round: u32,
    /// The random generator was drawn from.
    rng: bool,
    /// Something other than a counter, a piece, a zone or the random
    /// generator was written (the seat order, asks, `end turn`).
    wide: bool,
}

impl Journal {
    /// Empty, on or off, for copies of `base` (the lists keep their room).
    fn reset(&mut self, on: bool, base: u64) {
        (self.on, self.base, self.wide, self.rng) = (on, base, false, false);
        self.counters.clear();
        self.pieces.clear();
        self.clear_zones();
    }

    /// No zone named: a new round of notes.
    fn clear_zones(&mut self) {
        self.zones.clear();
        self.round = self.round.wrapping_add(1);
        if self.round == 0 {
            self.noted.fill(0);
            self.round = 1;
        }
    }

    /// Name zone instance `z` as written, unless this round named it.
    #[inline]
    fn note_zone(&mut self, z: usize) {
        match self.noted.get_mut(z) {
            Some(r) if *r == self.round => {}
            Some(r) => {
                *r = self.round;
                self.zones.push(z as u32);
            }
            None => self.note_new_zone(z),
        }
    }

    /// `note_zone` of a zone past the table's end (its first write).
    #[cold]
    #[inline(never)]
    fn note_new_zone(&mut self, z: usize) {
        self.noted.resize(z + 1, 0);
        self.noted[z] = self.round;
        self.zones.push(z as u32);
    }
}

/// `restore_to`'s base for the game's own state.
pub(crate) const GAME_STATE: u64 = 0;

/// The base of a journal kept while an action is applied (`catch_up`
/// reads it; `restore_to` never puts a copy back by it).
pub(crate) const APPLIED: u64 = u64::MAX;

impl State {
    /// Write a counter instance: the value it had.
    #[inline]
    pub(crate) fn set_counter(&mut self, inst: usize, v: V) -> V {
        if self.journal.on {
            self.journal.counters.push(inst as u32);
        }
        std::mem::replace(&mut self.counters[inst], v)
    }

    /// Move a piece instance: the place it was on.
    #[inline]
    pub(crate) fn set_piece(&mut self, inst: usize, to: PlaceId) -> PlaceId {
        if self.journal.on {
            self.journal.pieces.push(inst as u32);
        }
        std::mem::replace(&mut self.pieces[inst], to)
    }

    /// A zone instance's contents, to write.
    #[inline]
    pub(crate) fn zone_mut(&mut self, inst: ZoneInst) -> &mut Vec<Option<ComponentId>> {
        self.touch_zone(inst);
        &mut self.zones[inst]
    }

    /// Take the `k`-th cell out of a zone, the rest moving up: what
    /// `zone_mut(inst).remove(k)` does, but a zone shared with another
    /// state is copied once without the cell instead of copied and then
    /// moved up (a card drawn from a deck the state shares).
    pub(crate) fn remove_at(&mut self, inst: ZoneInst, k: usize) -> Option<ComponentId> {
        self.touch_zone(inst);
        self.zones[inst].remove_at(k)
    }

    /// Empty a zone: what `zone_mut(inst).clear()` does, but contents
    /// another state shares are left to it rather than copied first.
    pub(crate) fn clear_zone(&mut self, inst: ZoneInst) {
        self.touch_zone(inst);
        self.zones[inst].clear();
    }

    /// Note a write to a part of the state other than counters, pieces,
    /// zones (written through `zone_mut`) and the random generator, which
    /// only a full `restore` puts back: every statement that writes one
    /// calls this first. Test builds check each journaled put-back against
    /// the state (`assert_same`). Only the turn's bookkeeping is written
    /// so (asks, the end of a turn, the seat order): a write of anything a
    /// let reads other than the seat order would have to reach the memo
    /// (`written`, `LetReads::written`).
    #[inline]
    pub(crate) fn touch_wide(&mut self) {
        self.journal.wide = true;
    }

    /// Note a draw from the random generator (see `touch_wide`).
    #[inline]
    pub(crate) fn touch_rng(&mut self) {
        self.journal.rng = true;
    }

    /// Note a write to a zone instance's contents (`zone_mut` notes its
    /// own; see `touch_wide`).
    #[inline]
    pub(crate) fn touch_zone(&mut self, inst: ZoneInst) {
        if self.journal.on {
            self.journal.note_zone(inst.index());
        }
    }

    /// Make this copy equal to `from` again, `from` being known as `base`
    /// (`GAME_STATE`, or a number the caller gives each other state it
    /// restores to). When it was last put back to that same base and only
    /// counters, pieces and zones were written since, only those are
    /// copied back; otherwise all of it (`restore`). The copy keeps a
    /// journal from then on.
    pub(crate) fn restore_to(&mut self, from: &State, base: u64, tally_at: &[(u32, u32)]) {
        let j = &mut self.journal;
        if j.on && j.base == base && !j.wide {
            if std::mem::take(&mut j.rng) {
                self.rng.clone_from(&from.rng);
            }
            for i in j.counters.drain(..) {
                self.counters[i as usize] = from.counters[i as usize];
            }
            for i in j.pieces.drain(..) {
                self.pieces[i as usize] = from.pieces[i as usize];
            }
            // Each component moved lies in a zone written: where those
            // lay is put back with them.
            for k in 0..j.zones.len() {
                let z = j.zones[k] as usize;
                if !self.zones[z].same(&from.zones[z]) {
                    for c in self.zones[z].iter().flatten() {
                        self.loc[c.index()] = from.loc[c.index()];
                    }
                    self.zones[z].copy_from(&from.zones[z]);
                    copy_tallies(&mut self.tallies, &from.tallies, tally_at, z);
                }
            }
            j.clear_zones();
        } else {
            self.restore(from);
        }
        self.journal.on = true;
        self.journal.base = base;
        #[cfg(debug_assertions)]
        self.assert_same(from);
    }

    /// Start an empty journal on a copy of `base` (`GAME_STATE` or
    /// `APPLIED`).
    pub(crate) fn journal_from(&mut self, base: u64) {
        self.journal.reset(true, base);
    }

    /// What the journal saw written since it was turned on: the zone,
    /// counter and piece instances; `None` when it was off. A wide write
    /// (`touch_wide`) is of the turn's bookkeeping: the asks waiting, the
    /// end of a turn, the seat order. No let reads the first two, and the
    /// memo learns of the third by comparing orders (`LetReads::written`),
    /// so the memo keeps what the lists do not name past one too.
    pub(crate) fn written(&self) -> Option<(&[u32], &[u32], &[u32])> {
        let j = &self.journal;
        j.on.then_some((&j.zones[..], &j.counters[..], &j.pieces[..]))
    }

    /// `written`, on a copy whose journal names every write since it was
    /// equal to the game's state (a trial's copy put back to it, or the
    /// copy an action is applied on) and only counters, pieces, zones and
    /// the random generator were written: what differs from the game's
    /// state. `None` otherwise.
    pub(crate) fn written_since_game(&self) -> Option<(&[u32], &[u32], &[u32])> {
        let j = &self.journal;
        (j.on && !j.wide && (j.base == GAME_STATE || j.base == APPLIED)).then_some((
            &j.zones[..],
            &j.counters[..],
            &j.pieces[..],
        ))
    }

    /// Stop the journal (the lists keep their room).
    pub(crate) fn journal_off(&mut self) {
        self.journal.on = false;
    }

    /// Make this state equal to `newer`, a copy of it that then kept a
    /// journal (`journal_from(APPLIED)`) while an action was applied: only the
    /// counters, pieces and zones it wrote are copied over, with the turn
    /// bookkeeping, which holds every part a wide write touches (asks,
    /// `end turn`, the seat order; the generator too after one). False,
    /// changing nothing, when the journal was off.
    pub(crate) fn catch_up(&mut self, newer: &State, tally_at: &[(u32, u32)]) -> bool {
        let j = &newer.journal;
        if !j.on {
            return false;
        }
        if j.rng || j.wide {
            self.rng.clone_from(&newer.rng);
        }
        for i in &j.counters {
            self.counters[*i as usize] = newer.counters[*i as usize];
        }
        for i in &j.pieces {
            self.pieces[*i as usize] = newer.pieces[*i as usize];
        }
        // Where components lie changes only with some zone's contents (a
        // copy of the whole list costs less than going through the zones).
        let mut moved = false;
        for z in &j.zones {
            let z = *z as usize;
            if !self.zones[z].same(&newer.zones[z]) {
                self.zones[z].copy_from(&newer.zones[z]);
                copy_tallies(&mut self.tallies, &newer.tallies, tally_at, z);
                moved = true;
            }
        }
        if moved {
            self.loc.clone_from(&newer.loc);
        }
        self.copy_turn(newer);
        true
    }

    /// The turn bookkeeping of `from`: who moves, in what order, the asks
    /// waiting, the actions so far, whether the game is over.
    fn copy_turn(&mut self, from: &State) {
        self.arrival.clone_from(&from.arrival);
        self.tick = from.tick;
        self.order.clone_from(&from.order);
        self.turn_seat = from.turn_seat;
        self.finished = from.finished;
        self.actions = from.actions;
        self.asks.clone_from(&from.asks);
        self.turn_ended = from.turn_ended;
    }

    /// In tests: that a state put back by its journal is what a full
    /// `restore` would make.
    #[cfg(debug_assertions)]
    pub(crate) fn assert_same(&self, from: &State) {
        assert_eq!(self.counters, from.counters, "journal: counters");
        assert_eq!(self.pieces, from.pieces, "journal: pieces");
        assert!(self.zones.iter().zip(&from.zones).all(|(a, b)| a == b), "journal: zones");
        assert_eq!(self.loc, from.loc, "journal: locations");
        assert_eq!(self.tallies, from.tallies, "journal: tallies");
        assert_eq!(
            (&self.arrival, self.tick, &self.order, self.turn_seat, &self.rng),
            (&from.arrival, from.tick, &from.order, from.turn_seat, &from.rng),
            "journal: turn order"
        );
        assert_eq!(
            (self.finished, self.actions, &self.asks, self.turn_ended),
            (from.finished, from.actions, &from.asks, from.turn_ended),
            "journal: turn"
        );
    }

    /// Zones written since put back to `from`'s (still shared otherwise),
    /// and with them where components lie.
    fn restore_zones(&mut self, from: &State) {
        let mut moved = false;
        for (z, src) in self.zones.iter_mut().zip(&from.zones) {
            if !z.same(src) {
                *z = src.clone();
                moved = true;
            }
        }
        if moved {
            self.loc.clone_from(&from.loc);
            self.tallies.clone_from(&from.tallies);
        }
    }

    /// Make this state equal to `from` again, reusing its allocations:
    /// zones that were not written still share `from`'s contents. A
    /// journal it kept is dropped.
    pub fn restore(&mut self, from: &State) {
        // Where components lie changes only with some zone's contents.
        self.restore_zones(from);
        self.journal.reset(false, self.journal.base);
        self.counters.clone_from(&from.counters);
        self.pieces.clone_from(&from.pieces);
        self.rng.clone_from(&from.rng);
        self.copy_turn(from);
    }

    /// The `i`-th player of a domain of players (`players`, `players from
    /// P`): seat order, or turn order from a player.
    #[inline]
    pub fn player_at(&self, d: &V, i: usize) -> V {
        match d {
            V::PlayersFrom(p) => {
                let n = self.order.len().max(1);
                let start = self.order.iter().position(|q| q == p).unwrap_or(0);
                V::Player(self.order[(start + i) % n])
            }
            _ => V::Player(PlayerId::new(i)),
        }
    }

    #[inline]
    pub fn count(&self, inst: ZoneInst) -> usize {
        self.zones[inst].iter().filter(|c| c.is_some()).count()
    }

    pub fn cards(&self, inst: ZoneInst) -> impl Iterator<Item = ComponentId> + '_ {
        self.zones[inst].iter().filter_map(|c| *c)
    }
}

/// Zone instance `z`'s tallies as `from` has them (its contents were just
/// copied from there); `at`, where each instance's tallies lie.
#[inline]
fn copy_tallies(mine: &mut [i64], from: &[i64], at: &[(u32, u32)], z: usize) {
    if let Some(&(start, n)) = at.get(z) {
        if n != 0 {
            let range = start as usize..(start + n) as usize;
            mine[range.clone()].copy_from_slice(&from[range]);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cells(ids: &[usize]) -> Cells {
        Cells::from(ids.iter().map(|i| Some(ComponentId::new(*i))).collect::<Vec<_>>())
    }

    #[test]
    fn a_journal_names_each_zone_written_once_until_its_notes_are_emptied() {
        let mut j = Journal::default();
        j.reset(true, GAME_STATE);
        for z in [3, 1, 3, 3, 0, 1, 7] {
            j.note_zone(z);
        }
        assert_eq!(j.zones, [3, 1, 0, 7]);
        j.clear_zones();
        for z in [1, 1, 3] {
            j.note_zone(z);
        }
        assert_eq!(j.zones, [1, 3], "a new round names them again");
        // The rounds' count wrapping round starts the table afresh.
        j.round = u32::MAX;
        j.note_zone(2);
        j.clear_zones();
        j.note_zone(2);
        j.note_zone(1);
        j.note_zone(2);
        assert_eq!(j.zones, [2, 1]);
    }

    /// A new game's zones that start empty share one list (`Game::new`):
    /// a component put in one of them is in that one alone.
    #[test]
    fn zones_sharing_one_empty_list_are_written_apart() {
        let empty = Cells::default();
        let mut zones = vec![empty.clone(), empty.clone(), empty];
        zones[1].push(Some(ComponentId::new(5)));
        zones[2].insert(0, Some(ComponentId::new(7)));
        assert_eq!(zones, [cells(&[]), cells(&[5]), cells(&[7])]);
        assert!(!zones[1].same(&zones[0]) && !zones[2].same(&zones[0]), "each written has its own");
    }

    #[test]
    fn removing_a_cell_from_shared_contents_leaves_the_sharer_as_it_was() {
        let mut mine = cells(&[1, 2, 3, 4]);
        let theirs = mine.clone();
        assert!(mine.same(&theirs));
        assert_eq!(mine.remove_at(1), Some(ComponentId::new(2)));
        assert!(!mine.same(&theirs));
        assert_eq!(
            *mine,
            vec![Some(ComponentId::new(1)), Some(ComponentId::new(3)), Some(ComponentId::new(4))]
        );
        assert_eq!(theirs, cells(&[1, 2, 3, 4]));
        // Now its own: removed in place, the same as `Vec::remove`.
        assert_eq!(mine.remove_at(2), Some(ComponentId::new(4)));
        assert_eq!(mine, cells(&[1, 3]));
        assert_eq!(mine.remove_at(0), Some(ComponentId::new(1)));
        assert_eq!(mine, cells(&[3]));
    }

    #[test]
    fn emptying_shared_contents_leaves_the_sharer_as_it_was_and_keeps_room_when_own() {
        let mut mine = cells(&[1, 2, 3]);
        let theirs = mine.clone();
        mine.clear();
        assert_eq!(mine, cells(&[]));
        assert!(!mine.same(&theirs), "a list of its own");
        assert_eq!(theirs, cells(&[1, 2, 3]));
        assert!(mine.capacity() >= CELLS_ROOM, "room for what comes next");
        // Now its own: emptied in place, its room kept.
        mine.push(Some(ComponentId::new(4)));
        let at = mine.as_ptr();
        mine.clear();
        assert_eq!(mine, cells(&[]));
        assert_eq!(mine.as_ptr(), at);
    }
}
