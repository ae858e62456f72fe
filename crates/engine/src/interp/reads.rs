//! What each let reads of the state: which zones, counters and pieces (by
//! declaration, and for those each player has, whose), who `me` is, and
//! the seat order. The memo (`Memo`) keeps a let's values past a
//! change of the state that wrote none of what the let read: a region of
//! the board stays known while only cubes move, one player's holdings
//! while another player moves.
//!
//! A let reads a player's zone (`p.hand`) through one of its parameters,
//! through `me`, or through anything else. Through a parameter, which
//! player's it reads depends on the call: each call kept is checked with
//! its own arguments (`LetReads::calls_touched`). Otherwise every player's
//! counts as read.

use model::*;

use crate::state::{Layout, State, ZoneInst, V};

/// Parts of the state, as bits (`LetReads` numbers them).
pub type Parts = [u64; PART_WORDS];

/// Words of a `Parts`: a ruleset with more parts than these bits hold (a
/// declaration each player has counts once per player) has every let
/// read everything: its memo forgets all at every change.
const PART_WORDS: usize = 4;

/// Whose part of a declaration each player has a let reads.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Whose {
    /// The player its parameter `k` is.
    Param(usize),
    /// `me`'s.
    Me,
}

/// A let's reads: the parts it reads whatever its arguments, and the
/// declarations each player has that it reads for one player (their
/// first bit, and whose).
#[derive(Clone, Debug, Default)]
struct Pattern {
    fixed: Parts,
    keyed: Vec<(usize, Whose)>,
    /// `fixed` and every player's bits of the keyed declarations: what
    /// some call may read.
    any: Parts,
}

#[derive(Debug, Default)]
pub struct LetReads {
    /// Per zone, group, counter and piece: its first bit (one bit per
    /// player for a declaration each player has, else one).
    zones: Vec<usize>,
    groups: Vec<usize>,
    counters: Vec<usize>,
    pieces: Vec<usize>,
    /// The most players a game has: the bits of a declaration each player has.
    players: usize,
    /// Who `me` is; the seat order.
    me: usize,
    turn: usize,
    /// Whether the parts fit (see `PART_WORDS`).
    fits: bool,
    lets: Vec<Pattern>,
    /// The parts of zones and counters declared per place (`laid[c]`):
    /// read one instance at a time, which a link's walk notes (`Read`).
    by_place: Parts,
    /// Per let: whether the memo keeps its calls with the instances of
    /// declarations per place each read (`noted`).
    noted: Vec<bool>,
}

impl LetReads {
    pub fn new(r: &Ruleset) -> LetReads {
        let players = (r.game.max_players as usize).max(1);
        let mut next = 0;
        let mut bases = |per_player: &mut dyn Iterator<Item = bool>| -> Vec<usize> {
            per_player
                .map(|each| {
                    let base = next;
                    next += if each { players } else { 1 };
                    base
                })
                .collect()
        };
        let zones = bases(&mut r.zones.iter().map(|z| z.per_player));
        let groups = bases(&mut r.groups.iter().map(|_| false));
        let counters = bases(&mut r.counters.iter().map(|c| c.per_player));
        let pieces = bases(&mut r.pieces.iter().map(|p| p.per_player));
        let (me, turn) = (next, next + 1);
        let fits = turn < 64 * PART_WORDS;
        let mut by_place = [0; PART_WORDS];
        if fits {
            let decls = (zones.iter().zip(r.zones.iter().map(|z| (z.index, z.per_player))))
                .chain(counters.iter().zip(r.counters.iter().map(|c| (c.index, c.per_player))));
            for (base, (index, each)) in decls {
                if index.is_some() {
                    (*base..base + if each { players } else { 1 }).for_each(|b| set(&mut by_place, b));
                }
            }
        }
        let mut reads = LetReads {
            zones,
            groups,
            counters,
            pieces,
            players,
            me,
            turn,
            fits,
            lets: Vec::new(),
            by_place,
            noted: Vec::new(),
        };
        if !fits {
            return reads;
        }
        // Each let after the lets it calls (a let met again while its own
        // reads are worked out calls itself: it reads everything).
        let mut done: Vec<Option<Pattern>> = vec![None; r.lets.len()];
        let mut open = vec![false; r.lets.len()];
        for id in LetId::all(r.lets.len()) {
            reads.pattern(r, id, &mut done, &mut open);
        }
        reads.lets = done.into_iter().map(Option::unwrap_or_default).collect();
        for i in 0..reads.lets.len() {
            let mut any = reads.lets[i].fixed;
            for (base, _) in &reads.lets[i].keyed {
                (*base..base + players).for_each(|b| set(&mut any, b));
            }
            reads.lets[i].any = any;
        }
        let walks = walking_lets(r);
        reads.noted = (0..reads.lets.len())
            .map(|i| {
                let l = &r.lets[LetId::new(i)];
                let any = &reads.lets[i].any;
                let only_by_place = any.iter().zip(&reads.by_place).all(|(a, k)| a & !k == 0);
                !walks[i] && l.params.len() <= ARGS && meets(any, &reads.by_place) && only_by_place
            })
            .collect();
        reads
    }

    /// Per let: whether the memo keeps its calls with the instances of
    /// declarations per place each read (`Read`), so that an action that
    /// wrote some of them forgets only the calls that read one
    /// (`Memo::advance`): a tile laid changes whether the cells beside it
    /// are beside a tile, not the board's. A let is noted when all it
    /// reads of the state, at any depth, is of declarations per place (a
    /// let that reads anything else too is forgotten whenever that
    /// changes: noting its calls would cost at every call, and pay only
    /// at an action that wrote none of the rest), and it walks no region
    /// at any depth: a noted call is worked out with no memo
    /// (`Interp::noted_call`), which a walk needs.
    pub fn noted(&self) -> &[bool] {
        &self.noted
    }

    /// Note no let's calls: for compiled rules, whose code calls lets
    /// directly (noting there costs more than it saves: measured on a
    /// bundled game, docs/performance.md).
    pub fn note_no_calls(&mut self) {
        self.noted.fill(false);
    }

    fn pattern(&self, r: &Ruleset, id: LetId, done: &mut [Option<Pattern>], open: &mut [bool]) -> Pattern {
        if let Some(p) = &done[id.index()] {
            return p.clone();
        }
        if open[id.index()] {
            return Pattern { fixed: [!0; PART_WORDS], ..Pattern::default() };
        }
        open[id.index()] = true;
        let mut p = Pattern::default();
        let params = r.lets[id].params.len();
        self.expr(r, &r.lets[id].body, params, &mut p, done, open);
        open[id.index()] = false;
        done[id.index()] = Some(p.clone());
        p
    }

    /// Whose part a player expression names, in a body whose first
    /// `params` locals are its parameters.
    fn whose(e: Option<&Expr>, params: usize) -> Option<Whose> {
        match e.map(|e| &e.kind) {
            Some(ExprKind::Local(k)) if *k < params => Some(Whose::Param(*k)),
            Some(ExprKind::Me) => Some(Whose::Me),
            _ => None,
        }
    }

    /// A declaration's part read: its one bit, or for one each player
    /// has, one player's (`who`) or every player's.
    fn read(&self, base: usize, each: bool, who: Option<Whose>, p: &mut Pattern) {
        match (each, who) {
            (false, _) => set(&mut p.fixed, base),
            (true, Some(w)) => {
                if !p.keyed.contains(&(base, w)) {
                    p.keyed.push((base, w));
                }
            }
            (true, None) => (base..base + self.players).for_each(|b| set(&mut p.fixed, b)),
        }
    }

    fn expr(
        &self,
        r: &Ruleset,
        e: &Expr,
        params: usize,
        p: &mut Pattern,
        done: &mut [Option<Pattern>],
        open: &mut [bool],
    ) {
        match &e.kind {
            ExprKind::Zone { zone, player, .. } => {
                let who = Self::whose(player.as_deref(), params);
                self.read(self.zones[zone.index()], r.zones[*zone].per_player, who, p);
            }
            ExprKind::Group(g) => set(&mut p.fixed, self.groups[g.index()]),
            ExprKind::Counter { counter, player, .. } => {
                let who = Self::whose(player.as_deref(), params);
                self.read(self.counters[counter.index()], r.counters[*counter].per_player, who, p);
            }
            ExprKind::Piece { piece, player } => {
                let who = Self::whose(player.as_deref(), params);
                self.read(self.pieces[piece.index()], r.pieces[*piece].per_player, who, p);
            }
            ExprKind::Me => set(&mut p.fixed, self.me),
            // Players from one in turn order: the seat order (`shuffle
            // players`). All players in seat order read nothing that
            // changes.
            ExprKind::PlayersFrom(_) => set(&mut p.fixed, self.turn),
            ExprKind::Let { id, args } => {
                // What the called let reads, its parameters bound to this
                // call's arguments.
                let called = self.pattern(r, *id, done, open);
                for (f, c) in p.fixed.iter_mut().zip(called.fixed) {
                    *f |= c;
                }
                for (base, w) in called.keyed {
                    let who = match w {
                        Whose::Param(j) => Self::whose(args.get(j), params),
                        Whose::Me => Some(Whose::Me),
                    };
                    self.read(base, true, who, p);
                }
            }
            _ => {}
        }
        e.for_each_child(|x| self.expr(r, x, params, p, done, open));
    }

    /// What an action wrote, by its state's journal: the zones, counters
    /// and pieces (one player's part of a declaration each player has);
    /// the seat order when it changed; who `me` is when the next to move
    /// is someone else. `None` when the journal cannot tell (it was off,
    /// or the ruleset has more parts than `Parts` holds): then anything
    /// may have changed. The turn's bookkeeping an action wrote besides
    /// (`State::touch_wide`) is none of a let's reads but the seat order.
    pub fn written(&self, lay: &Layout, st: &State, order_changes: bool, me_changes: bool) -> Option<Parts> {
        self.parts(lay, st.written()?, order_changes, me_changes)
    }

    /// Whether let `id` reads the same on `st` as on the game's state:
    /// `st` is a copy of it whose journal names all that was written
    /// since (`State::written_since_game`), none of which `id` reads.
    pub fn same_on_copy(&self, id: LetId, lay: &Layout, st: &State) -> bool {
        st.written_since_game()
            .and_then(|written| self.parts(lay, written, false, false))
            .is_some_and(|changed| !self.touched(id, &changed))
    }

    /// The parts the journal's lists name, and the seat order and `me`
    /// when they changed.
    fn parts(
        &self,
        lay: &Layout,
        (zones, counters, pieces): (&[u32], &[u32], &[u32]),
        order_changes: bool,
        me_changes: bool,
    ) -> Option<Parts> {
        if !self.fits {
            return None;
        }
        let mut out = [0; PART_WORDS];
        let at = |base: usize, player: Option<usize>| base + player.unwrap_or(0);
        for z in zones {
            let inst = lay.instance(ZoneInst::new(*z as usize));
            set(
                &mut out,
                match inst.source {
                    Ok(zone) => at(self.zones[zone.index()], inst.player.map(PlayerId::index)),
                    Err(group) => self.groups[group.index()],
                },
            );
        }
        for c in counters {
            let (counter, player) = lay.counter_of(*c as usize);
            set(&mut out, at(self.counters[counter], player));
        }
        for p in pieces {
            let (piece, player) = lay.piece_of(*p as usize);
            set(&mut out, at(self.pieces[piece], player));
        }
        if order_changes {
            set(&mut out, self.turn);
        }
        if me_changes {
            set(&mut out, self.me);
        }
        Some(out)
    }

    /// Who `me` is, as changed parts.
    pub fn me(&self) -> Parts {
        let mut out = [!0; PART_WORDS];
        if self.fits {
            out = [0; PART_WORDS];
            set(&mut out, self.me);
        }
        out
    }

    /// Which calls of let `id`, made for `me`, read any of `changed`.
    pub fn calls_touched(&self, id: LetId, me: Option<PlayerId>, changed: &Parts) -> Touched {
        let Some(p) = self.lets.get(id.index()) else { return Touched::All };
        if !meets(&p.any, changed) {
            return Touched::None;
        }
        if meets(&p.fixed, changed) || self.players > 64 {
            return Touched::All;
        }
        // Per parameter: the players whose parts read through it changed.
        let mut by_param = [0u64; ARGS];
        for (base, w) in &p.keyed {
            let players = bits(changed, *base, self.players);
            match w {
                Whose::Param(k) if *k < ARGS => by_param[*k] |= players,
                Whose::Me if me.is_none_or(|q| players >> q.index() & 1 != 0) => return Touched::All,
                Whose::Me => {}
                Whose::Param(_) => return Touched::All,
            }
        }
        Touched::Players(by_param)
    }

    /// Whether all that let `id` may read of `changed` is of zones and
    /// counters declared per place: then which of its calls read what
    /// changed is told by the instances each read (`Read`).
    pub fn place_reads_only(&self, id: LetId, changed: &Parts) -> bool {
        self.fits
            && self.lets.get(id.index()).is_some_and(|p| {
                p.any.iter().zip(changed).zip(&self.by_place).all(|((a, c), k)| a & c & !k == 0)
            })
    }

    /// Whether let `id` read any of `changed`, for any arguments.
    pub fn touched(&self, id: LetId, changed: &Parts) -> bool {
        self.lets.get(id.index()).is_none_or(|p| meets(&p.any, changed))
    }
}

/// Per let: whether it walks a region (`connected`, `around`), or calls
/// a let that does, at any depth. (The checker refuses a let that calls
/// itself; one met again while it is looked at counts as not walking, and
/// reads everything, `LetReads::pattern`, so is noted in no case.)
fn walking_lets(r: &Ruleset) -> Vec<bool> {
    fn look(r: &Ruleset, id: LetId, seen: &mut [Option<bool>]) -> bool {
        if let Some(walks) = seen[id.index()] {
            return walks;
        }
        seen[id.index()] = Some(false);
        let walks = visit(r, &r.lets[id].body, seen);
        seen[id.index()] = Some(walks);
        walks
    }
    fn visit(r: &Ruleset, e: &Expr, seen: &mut [Option<bool>]) -> bool {
        let mut walks = match &e.kind {
            ExprKind::Region(..) => true,
            ExprKind::Let { id, .. } => look(r, *id, seen),
            _ => false,
        };
        e.for_each_child(|x| walks = walks || visit(r, x, seen));
        walks
    }
    let mut seen = vec![None; r.lets.len()];
    LetId::all(r.lets.len()).map(|id| look(r, id, &mut seen)).collect()
}

/// An instance of a zone or counter declared per place, as a walk notes
/// what a link's call read (`Interp::reads`): a zone instance's index, or
/// past every zone instance, a counter instance's. Reads of such
/// declarations go through `Interp::zone_inst` and `counter_inst`, or in
/// compiled rules the code `chronoscope-compile` writes for a zone or a
/// counter with a place, each of which notes it (`Interp::read_zone`,
/// `read_counter`).
pub type Read = u32;

/// A counter instance's `Read`: past every zone instance.
#[inline]
pub(super) fn counter_read(lay: &Layout, c: usize) -> Read {
    (lay.instances.len() + c) as Read
}

/// The instances an action wrote (its state's journal), numbered as
/// `Read` numbers them.
pub struct Written<'a> {
    zones: &'a [u32],
    counters: &'a [u32],
    /// The first counter's number: how many zone instances there are.
    counters_from: usize,
    /// One bit per `Read` number modulo 64, set for each instance
    /// written: most reads a forgetting memo asks about were not written
    /// (an action writes a few places, the memo keeps hundreds of calls
    /// that read one each), and a clear bit says so without going
    /// through the lists. Made at the first question: most actions ask
    /// none.
    mask: std::cell::OnceCell<u64>,
}

impl<'a> Written<'a> {
    /// The journal's lists of zone and counter instances written.
    pub fn new(lay: &Layout, zones: &'a [u32], counters: &'a [u32]) -> Written<'a> {
        Written::numbered(zones, counters, counter_read(lay, 0) as usize)
    }

    /// The instances written, the first counter numbered `counters_from`.
    pub(super) fn numbered(zones: &'a [u32], counters: &'a [u32], counters_from: usize) -> Written<'a> {
        Written { zones, counters, counters_from, mask: std::cell::OnceCell::new() }
    }

    pub(super) fn reads(&self) -> impl Iterator<Item = usize> + '_ {
        let zones = self.zones.iter().map(|z| *z as usize);
        zones.chain(self.counters.iter().map(|c| self.counters_from + *c as usize))
    }

    /// Whether `read` is among the instances written.
    #[inline]
    pub(super) fn has(&self, read: Read) -> bool {
        let mask = self.mask.get_or_init(|| self.reads().fold(0, |m, r| m | bit(r as Read)));
        if mask & bit(read) == 0 {
            return false;
        }
        match (read as usize).checked_sub(self.counters_from) {
            None => self.zones.contains(&read),
            Some(c) => self.counters.contains(&(c as u32)),
        }
    }
}

/// `read`'s bit in `Written::mask`.
#[inline]
fn bit(read: Read) -> u64 {
    1 << (read % 64)
}

/// The most arguments a call the memo keeps has.
const ARGS: usize = super::MEMO_ARGS;

/// Which calls of a let read what an action wrote.
pub enum Touched {
    None,
    All,
    /// Per parameter, the players whose parts it names that changed: a
    /// call is touched when one of its arguments is one of them, or not a
    /// player while some are.
    Players([u64; ARGS]),
}

impl Touched {
    /// Whether the call with these arguments is touched.
    #[inline]
    pub fn call(&self, args: &[V]) -> bool {
        match self {
            Touched::None => false,
            Touched::All => true,
            Touched::Players(by_param) => by_param.iter().zip(args).any(|(players, a)| match a {
                _ if *players == 0 => false,
                V::Player(q) if q.index() < 64 => players >> q.index() & 1 != 0,
                _ => true,
            }),
        }
    }
}

#[inline]
fn set(parts: &mut Parts, b: usize) {
    parts[b / 64] |= 1 << (b % 64);
}

/// The `n` bits (at most 64) of `parts` from bit `base` on, the first
/// lowest: which of `n` players' parts from `base` are set, in a few
/// shifts rather than a test per player.
#[inline]
fn bits(parts: &Parts, base: usize, n: usize) -> u64 {
    let (word, shift) = (base / 64, base % 64);
    let low = parts.get(word).map_or(0, |w| w >> shift);
    // The bits past the first word's end, from the next one.
    let high = match shift {
        0 => 0,
        _ => parts.get(word + 1).map_or(0, |w| w << (64 - shift)),
    };
    let mask = if n >= 64 { u64::MAX } else { (1u64 << n) - 1 };
    (low | high) & mask
}

#[inline]
fn meets(a: &Parts, b: &Parts) -> bool {
    a.iter().zip(b).any(|(x, y)| x & y != 0)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `bits` gives bit `base + q` of the parts as bit `q`, for every
    /// start (within a word and across two) and every width up to 64.
    #[test]
    fn bits_read_the_players_parts_from_any_start_across_words() {
        let parts: Parts =
            [0x8000_0000_0000_0001, 0xdead_beef_0123_4567, 0xffff_0000_ffff_0000, 0x5555_5555_aaaa_aaaa];
        let one = |b: usize| parts.get(b / 64).is_some_and(|w| w >> (b % 64) & 1 != 0);
        for base in 0..PART_WORDS * 64 {
            for n in [1, 2, 4, 7, 31, 63, 64] {
                let want = (0..n).filter(|q| one(base + q)).fold(0u64, |m, q| m | 1 << q);
                assert_eq!(bits(&parts, base, n), want, "base {base}, {n} bits");
            }
        }
    }

    /// `Written::has` names exactly the zone and counter instances
    /// written: a read whose bit in the mask it shares with one written
    /// (the same number modulo 64) is not taken for it, a counter is told
    /// from the zone of the same number, and nothing is written when the
    /// lists are empty.
    #[test]
    fn written_names_exactly_the_instances_written_whatever_bits_they_share() {
        // 100 zone instances, then the counters: counter 3 is read 103.
        let written = Written::numbered(&[5, 70], &[3], 100);
        let want = |r: Read| [5, 70, 103].contains(&r);
        for r in 0..300 {
            assert_eq!(written.has(r), want(r), "read {r}");
        }
        // Zone 3 is not counter 3; read 69 shares bit 5 with zone 5.
        assert!(!written.has(3) && !written.has(69) && !written.has(134));
        let none = Written::numbered(&[], &[], 100);
        assert!((0..300).all(|r| !none.has(r)));
    }
}
