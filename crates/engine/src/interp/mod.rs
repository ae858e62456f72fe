//! The interpreter: evaluates the model's expressions and runs its
//! statements against a state. It knows the language, not any game.
//!
//! `eval` holds the expressions, `exec` the statements, `zones` the moves
//! of components between zones; this file the pieces they share: failures,
//! frames of locals, and `Interp` itself.

use model::BinaryOp;
use model::Span;
use model::*;

use std::cell::Cell;

use crate::event::Event;
use crate::state::{Layout, ZoneInst, V};

/// Why running rules stopped.
#[derive(Clone, Debug, PartialEq)]
pub enum Fail {
    /// A `require` did not hold: the action is not legal. `reason` is the
    /// `else` text, or empty.
    Illegal { reason: String, span: Span },
    /// The rules cannot go on (a table read outside its range, a full row,
    /// a loop that never ends). A checked ruleset can still do this at run
    /// time; the action is refused and the state is untouched.
    Rule { message: String, span: Span },
}

impl Fail {
    pub fn span(&self) -> Span {
        match self {
            Fail::Illegal { span, .. } | Fail::Rule { span, .. } => *span,
        }
    }

    pub fn message(&self) -> &str {
        match self {
            Fail::Illegal { reason, .. } => reason,
            Fail::Rule { message, .. } => message,
        }
    }
}

/// Results inside the interpreter carry their failure boxed: every
/// expression returns one, and a small `Result` is cheaper to pass back.
pub type R<T> = Result<T, Box<Fail>>;

impl From<Box<Fail>> for Fail {
    fn from(b: Box<Fail>) -> Fail {
        *b
    }
}

fn rule<T>(span: Span, message: impl Into<String>) -> R<T> {
    Err(Box::new(Fail::Rule { message: message.into(), span }))
}

/// Arithmetic on numbers: saturating, division rounding down. The one
/// quotient beyond the range, the smallest number divided by -1, saturates
/// too (its remainder is 0, as for every division by -1).
pub(crate) fn arith(op: BinaryOp, x: i64, y: i64, span: Span) -> R<i64> {
    use BinaryOp as B;
    let quotient = match op {
        B::Add => return Ok(x.saturating_add(y)),
        B::Sub => return Ok(x.saturating_sub(y)),
        B::Mul => return Ok(x.saturating_mul(y)),
        B::Div => quotient(x, y),
        B::Rem => remainder(x, y),
        _ => return rule(span, format!("`{}` is not arithmetic", op.symbol())),
    };
    match quotient {
        Some(n) => Ok(n),
        None => rule(span, "division by zero"),
    }
}

/// A sum worked out exactly, brought into the range of numbers: beyond
/// either end it is that end, as arithmetic saturates. A `sum` and a
/// player's total add so, whatever the order of their terms.
#[inline]
pub(crate) fn clamped(x: i128) -> i64 {
    x.clamp(i128::from(i64::MIN), i128::from(i64::MAX)) as i64
}

/// `clamped` of a sum kept as a wrapping 64-bit `sum` and the times it
/// wrapped, up (+1) or down (-1): exact together, and cheaper in a loop
/// than 128 bits. Compiled rules sum with it too.
#[inline]
pub fn summed(sum: i64, wraps: i64) -> i64 {
    match wraps {
        0 => sum,
        w if w > 0 => i64::MAX,
        _ => i64::MIN,
    }
}

/// `x / y` rounding down (the one quotient beyond the range saturates);
/// `None` for a division by zero. Compiled rules divide with it too.
#[inline]
pub(crate) fn quotient(x: i64, y: i64) -> Option<i64> {
    match y {
        0 => None,
        -1 => Some(x.saturating_neg()),
        _ => Some(floor(x, y)),
    }
}

/// `x % y`, of the sign of `y` (`x - y * (x / y)`); `None` for a
/// division by zero.
#[inline]
pub(crate) fn remainder(x: i64, y: i64) -> Option<i64> {
    match y {
        0 => None,
        -1 => Some(0),
        _ => Some(x - y * floor(x, y)),
    }
}

/// Floor division for `y` other than 0 and -1: no step can overflow.
#[inline]
fn floor(x: i64, y: i64) -> i64 {
    x.div_euclid(y) - i64::from(y < 0 && x.rem_euclid(y) != 0)
}

/// How often `repeat while` may loop before the engine calls it endless.
pub const MAX_LOOP: usize = 100_000;

/// The rule error of a `repeat while` at `span` past `MAX_LOOP` rounds.
pub fn too_many_repeats(span: Span) -> Box<Fail> {
    Box::new(Fail::Rule {
        message: format!("`repeat while` ran {MAX_LOOP} times without its condition failing"),
        span,
    })
}

/// Rules plus layout: everything needed to interpret, nothing that changes.
pub struct Interp<'a> {
    pub r: &'a Ruleset,
    pub lay: &'a Layout,
    /// The value an attribute reads as on a component whose kind lacks it.
    pub attr_empty: &'a [V],
    /// Every component's value of every attribute (`Program`'s table,
    /// `attr_empty.len()` per component); empty for a ruleset too large,
    /// whose components are read one by one.
    pub attrs: &'a [V],
    /// The aggregates of lets read from the tallies by address
    /// (`crate::tally::sites`), sorted; empty without.
    pub(crate) sites: &'a [(usize, crate::tally::Site)],
    /// Per let: its value, when it is fixed for the whole game (see
    /// `TrialPlan::constant_lets`); worked out once at setup.
    pub consts: &'a [Option<V>],
    /// Where to record what happens; `None` while trying actions.
    pub events: Option<Vec<Event>>,
    /// Whether a failing `require` carries its message (a legality trial
    /// only asks whether, thousands of times a turn).
    pub reasons: bool,
    /// Work done so far by whoever runs rules now (the game's budget; see
    /// `MAX_WORK`).
    pub work: &'a Cell<u64>,
    /// Where to note each let called and table read, with its value (for
    /// `explain`); `None` in play.
    pub trace: Option<&'a std::cell::RefCell<Vec<Traced>>>,
    /// Let values worked out on the game's state as it is (the search for
    /// legal choices, and a trial or an action until its first change:
    /// `exec` drops it there); `None` elsewhere.
    pub memo: Option<&'a std::cell::RefCell<Memo>>,
    /// The compiled rules (`crate::native`): `ExprKind::Native(i, _)` runs
    /// the `i`-th. Empty for a program without them.
    pub natives: &'a [crate::native::NativeFn],
    /// The compiled procedure bodies (`crate::native::ExecFn`), one per
    /// procedure; empty for a program without them.
    pub procedures: &'a [crate::native::ExecFn],
    /// The places next to each place.
    pub neighbours: &'a Neighbours,
    /// A list a `move` picks its components into, kept by the game for
    /// its room (`take_picked`, `move_picked`).
    pub picked: &'a std::cell::RefCell<Vec<ComponentId>>,
    /// While a listing searches (compiled leading statements and
    /// preconditions, which read the game's state as it is): the values of
    /// let calls that depend on nothing the search binds, or on one
    /// parameter as it is (a place per value), each worked out at its
    /// first use (`Natives::listing`). Empty elsewhere: nothing is kept.
    pub listing: &'a [std::cell::Cell<Option<V>>],
    /// While a walk works out one step of a link to keep (`connected`),
    /// or a noted let's call is worked out to keep (`noted_call`): where
    /// the instances of zones and counters declared per place it reads
    /// are noted (`Read`), with no memo, so that every read is made, and
    /// noted, in the call. `None` elsewhere.
    pub reads: Option<&'a std::cell::RefCell<Vec<Read>>>,
    /// The game's memo and what each let reads, for walks on a copy of the
    /// game's state being changed (a trial, an action applied), which have
    /// no `memo`: a region whose link reads nothing the copy's journal
    /// says was written since is the game's, and is read from the memo and
    /// kept there (`LetReads::same_on_copy`). `None` elsewhere.
    pub walks: Option<(&'a std::cell::RefCell<Memo>, &'a LetReads)>,
    /// Per let: whether the memo keeps its calls with the instances of
    /// declarations per place each read (`LetReads::noted`; worked out by
    /// `noted_call`). Empty: none.
    pub noted: &'a [bool],
    /// Whether the action being applied is a choice the game listed on
    /// this very state (`Game::step_listed`): every `require` before its
    /// first change held there, so they are not worked out again (`probe`,
    /// and compiled bodies); its lets are.
    pub listed: bool,
}

impl<'a> Interp<'a> {
    /// This interpreter with no memo, noting in `noted` the instances of
    /// declarations per place it reads (`reads`): for working out what is
    /// kept with what it read (a link's step, a noted let's call).
    pub(super) fn noting<'b>(&'b self, noted: &'b std::cell::RefCell<Vec<Read>>) -> Interp<'b>
    where
        'a: 'b,
    {
        Interp { events: None, memo: None, walks: None, listing: &[], reads: Some(noted), ..*self }
    }

    /// A call of a noted let (`notes_calls`) the memo does not have, its
    /// arguments `key` (and in `inner`): worked out by `work` and kept in
    /// `memo` with the instances of declarations per place it read, noted
    /// with no memo (every read made, and noted, in the call; the lets it
    /// calls read nothing else). Out of line: the tree walkers that reach
    /// a let call stay as they were.
    #[inline(never)]
    pub(super) fn noted_call<T: AsV>(
        &self,
        memo: &std::cell::RefCell<Memo>,
        id: LetId,
        key: [V; MEMO_ARGS],
        arity: usize,
        mut inner: Frame,
        work: impl FnOnce(&Interp<'_>, &mut Frame) -> R<T>,
    ) -> R<T> {
        // The list's room is the memo's, kept from call to call.
        let noted = std::cell::RefCell::new(std::mem::take(&mut memo.borrow_mut().noting));
        let v = work(&self.noting(&noted), &mut inner);
        let mut read = noted.into_inner();
        let mut m = memo.borrow_mut();
        if let Ok(v) = &v {
            m.put_noted(id, T::MODE, key, arity, v.as_v(), &read);
        }
        read.clear();
        m.noting = read;
        v
    }

    /// Whether a call of `id` kept in the memo is worked out noting what
    /// it reads (`noted`).
    #[inline]
    pub(super) fn notes_calls(&self, id: LetId) -> bool {
        self.noted.get(id.index()).copied().unwrap_or(false) && self.trace.is_none()
    }

    /// A zone instance of a declaration per place, read: noted when a
    /// walk notes reads (`reads`). Compiled rules call it too.
    #[inline(always)]
    pub fn read_zone(&self, z: ZoneInst) -> ZoneInst {
        if let Some(reads) = self.reads {
            reads.borrow_mut().push(z.index() as Read);
        }
        z
    }

    /// A counter instance of a declaration per place, read (`read_zone`).
    #[inline(always)]
    pub fn read_counter(&self, c: usize) -> usize {
        if let Some(reads) = self.reads {
            reads.borrow_mut().push(reads::counter_read(self.lay, c));
        }
        c
    }
}

/// How many arguments a let call may have to be remembered (`Memo`).
const MEMO_ARGS: usize = 4;

/// How many calls of one let the `Memo` keeps: a let called with millions
/// of different arguments in one search (a rule over every pair of a
/// thousand places) would otherwise fill the memory and make each lookup
/// go through millions. Past this, the let's calls kept so far are
/// forgotten and it starts again. As many as an index of bytes allows: a
/// let asked of each place of a board in turn forgot its calls before
/// they were asked again at 64 (a grid game's `tiled_at(x, y)`, through
/// `next_to_tile(c)` for each of 169 cells: docs/performance.md).
pub const MEMO_PER_LET: usize = 250;

/// The values of let calls on one state for one `me`, by let, arguments
/// and the kind of value asked for (a let read as a number gives 0 for
/// `none`). A let reads nothing but the state, its arguments and who `me`
/// is, so while the state stays as it is, a call with the same arguments
/// gives the same value. The search for legal choices calls the same lets
/// for every combination of parameters: each is worked out once, and its
/// work (`MAX_WORK`) counted once. When the state changes by an action
/// whose writes its journal lists, only the values of lets that read what
/// it wrote are forgotten (`advance`, `LetReads`); when `me` changes, only
/// those of lets that read `me`.
#[derive(Default)]
pub struct Memo {
    me: Option<PlayerId>,
    /// The count of changes of the game's state the values were worked
    /// out at (`Game`'s `Tracked`).
    stamp: Option<u64>,
    /// Per let: the calls worked out.
    by_let: Vec<LetMemo>,
    /// The lets with calls worked out.
    kept: Vec<LetId>,
    /// Regions worked out (`connected(p, LINK)`): by link and start.
    regions: Vec<(LetId, PlaceId, Places)>,
    /// Per link walked: what its calls on a place and one of its steps
    /// gave (`Interp::connected`). Walks from other starts, or of other
    /// regions the same link joins, go through the same pairs.
    steps: Vec<LinkSteps>,
    /// Room for the list of what a noted call reads while it is worked
    /// out (`Interp::noted_call`).
    noting: Vec<Read>,
}

/// What a link gave at the steps of walks (`Memo::steps`), taken out of
/// the memo while a walk goes through them (`Memo::take_steps`).
pub(super) struct LinkSteps {
    link: LetId,
    /// Per entry of `Neighbours`' list: 0 not worked out, 1 no, 2 yes.
    known: Vec<u8>,
    /// The entries worked out, so that forgetting them costs what
    /// keeping them did, whatever the size of the board.
    set: Vec<u32>,
    /// Per instance of a declaration per place (`Read`): the entries
    /// whose link read it. A change that wrote, of what the link reads,
    /// only such instances forgets those entries alone (`forget_read`):
    /// a tile laid changes the steps on and beside its cell, not the
    /// board's.
    by_read: Vec<Vec<u32>>,
    /// The instances whose list in `by_read` was empty when an entry was
    /// added (some more than once), so that forgetting every entry costs
    /// what keeping them did.
    read: Vec<u32>,
    /// How many entries `by_read` and `read` were given since they were
    /// last emptied. An entry forgotten through one instance stays in the
    /// lists of the others it read, and is listed again there when worked
    /// out again: past `MOST_NOTED` per entry of the board, every entry
    /// is forgotten, so that a long game's lists stay as long as a short
    /// one's.
    noted: usize,
}

/// How many notes of reads per entry of `Neighbours`' list a link's steps
/// hold at most (`LinkSteps::noted`): a step reads a few places.
const MOST_NOTED: usize = 16;

impl LinkSteps {
    fn new(link: LetId, len: usize) -> LinkSteps {
        LinkSteps {
            link,
            known: vec![0; len],
            set: Vec::new(),
            by_read: Vec::new(),
            read: Vec::new(),
            noted: 0,
        }
    }

    fn forget(&mut self) {
        for at in self.set.drain(..) {
            self.known[at as usize] = 0;
        }
        for read in self.read.drain(..) {
            self.by_read[read as usize].clear();
        }
        self.noted = 0;
    }

    /// Forget the entries whose link read any of `written`.
    fn forget_read(&mut self, written: &Written) {
        if self.noted > MOST_NOTED * self.known.len() {
            return self.forget();
        }
        let mut forgot = false;
        for read in written.reads() {
            if let Some(entries) = self.by_read.get_mut(read) {
                for at in entries.drain(..) {
                    self.known[at as usize] = 0;
                    forgot = true;
                }
            }
        }
        if forgot {
            let known = &self.known;
            self.set.retain(|at| known[*at as usize] != 0);
        }
    }

    /// Keep what the link gave at entry `at`, having read `reads` (the
    /// instances of declarations per place, `Read`) and nothing else of
    /// those declarations.
    pub(super) fn keep_read(&mut self, at: usize, holds: bool, reads: &[Read]) {
        self.keep(at, holds);
        for &read in reads {
            let read = read as usize;
            if self.by_read.len() <= read {
                self.by_read.resize_with(read + 1, Vec::new);
            }
            let entries = &mut self.by_read[read];
            if entries.is_empty() {
                self.read.push(read as u32);
                self.noted += 1;
            }
            if entries.last() != Some(&(at as u32)) {
                entries.push(at as u32);
                self.noted += 1;
            }
        }
    }

    /// What the link gave at entry `at`, if kept.
    #[inline]
    pub(super) fn get(&self, at: usize) -> Option<bool> {
        match self.known.get(at) {
            Some(1) => Some(false),
            Some(2) => Some(true),
            _ => None,
        }
    }

    /// Keep what the link gave at entry `at`.
    #[inline]
    fn keep(&mut self, at: usize, holds: bool) {
        if let Some(k) = self.known.get_mut(at) {
            if *k == 0 {
                self.set.push(at as u32);
            }
            *k = if holds { 2 } else { 1 };
        }
    }
}

/// The calls of one let the memo holds, and past `MEMO_SCAN` of them an
/// index by fingerprint: open addressing, each slot the position of a
/// call plus one (0: empty), at most half of them full.
#[derive(Default)]
struct LetMemo {
    calls: Vec<Remembered>,
    /// Empty until the let has more than `MEMO_SCAN` calls kept: most
    /// lets never have, and a copy of a game starts its memo afresh.
    index: Vec<u8>,
    /// The instances of declarations per place its calls read, for a let
    /// whose calls are noted (`LetReads::noted`): each call's in turn
    /// (`Remembered::noted`).
    reads: Vec<Read>,
}

/// The most instances of declarations per place a call kept is noted to
/// have read: a call that read more (a count over every cell of a board)
/// is forgotten at any change of what its let reads, as other lets' are.
const MOST_READ: usize = 16;

/// The slots of a let's index: twice the calls a let keeps.
const MEMO_INDEX: usize = 2 * MEMO_PER_LET;
// A slot holds a call's position plus one in a byte.
const _: () = assert!(MEMO_PER_LET < u8::MAX as usize);

impl LetMemo {
    fn clear(&mut self) {
        if self.calls.len() > MEMO_SCAN {
            self.index.fill(0);
        }
        self.calls.clear();
        self.reads.clear();
    }

    /// Keep the calls for which `keep` holds (given each call and the
    /// instances it was noted to read, if it was), with their notes.
    fn retain_noted(&mut self, mut keep: impl FnMut(&Remembered, Option<&[Read]>) -> bool) {
        let before = self.calls.len();
        // The notes of the calls kept move down over those of the calls
        // gone, in order.
        let mut to = 0;
        let reads = &mut self.reads;
        self.calls.retain_mut(|r| {
            let noted = r.noted();
            if !keep(r, noted.clone().map(|at| &reads[at])) {
                return false;
            }
            if let Some(at) = noted {
                let len = at.len();
                // In place until a call before it went.
                if at.start != to {
                    reads.copy_within(at, to);
                    r.noted_from = to as u16;
                }
                to += len;
            }
            true
        });
        self.reads.truncate(to);
        if self.calls.len() < before {
            self.reindex(before);
        }
    }

    /// Index the calls again after some of the `before` were dropped.
    /// The index is all empty while the let keeps `MEMO_SCAN` calls or
    /// fewer, so it is emptied only if it held more.
    fn reindex(&mut self, before: usize) {
        if before > MEMO_SCAN {
            self.index.fill(0);
        }
        if self.calls.len() > MEMO_SCAN {
            (0..self.calls.len()).for_each(|i| self.index_call(i));
        }
    }

    /// Index call `i` (its fingerprint's first free slot).
    fn index_call(&mut self, i: usize) {
        if self.index.is_empty() {
            self.index = vec![0; MEMO_INDEX];
        }
        let mut slot = self.calls[i].fingerprint as usize % MEMO_INDEX;
        while self.index[slot] != 0 {
            slot = (slot + 1) % MEMO_INDEX;
        }
        self.index[slot] = i as u8 + 1;
    }
}

/// One let call the memo holds.
struct Remembered {
    /// Of its kind and arguments: a miss compares numbers, not values.
    fingerprint: u64,
    /// Its kind and arguments as one number (`packed`), or `UNPACKED`.
    packed: u64,
    /// Which kind of value was asked for (`AsV::MODE`).
    mode: u8,
    args: [V; MEMO_ARGS],
    value: V,
    /// Where in its let's `reads` the instances of declarations per place
    /// it read are, for a noted call: from `noted_from`, `noted_len` of
    /// them (`UNNOTED` for any other call).
    noted_from: u16,
    noted_len: u8,
}

impl Remembered {
    /// Where in its let's `reads` what the call read is, if it was noted.
    #[inline]
    fn noted(&self) -> Option<std::ops::Range<usize>> {
        let from = self.noted_from as usize;
        (self.noted_len != UNNOTED).then(|| from..from + self.noted_len as usize)
    }
}

/// The `noted_len` of a call whose reads were not noted.
const UNNOTED: u8 = u8::MAX;
// Every read a let's calls are noted to make has a place in `noted_from`.
const _: () = assert!(MEMO_PER_LET * MOST_READ <= u16::MAX as usize && MOST_READ < UNNOTED as usize);

/// Up to this many calls of a let, the memo compares arguments directly;
/// past it, fingerprints first.
const MEMO_SCAN: usize = 8;

/// The most regions the memo keeps at a time.
const MEMO_REGIONS: usize = 64;

/// The `packed` of a call whose arguments do not pack.
pub(crate) const UNPACKED: u64 = u64::MAX;

/// The largest number an argument packs with, plus one.
const PACK_LIMIT: u64 = 1 << 11;

/// A call's kind and arguments (or any key of at most `MEMO_ARGS`
/// values) as one number, when each is nothing, a yes/no, a number from 0
/// to 2047, or a place, player, component or tag numbered below 2048: 4
/// bits of kind and 11 of value per argument after 2 bits of kind of
/// call, so that equal numbers mean equal calls and a lookup compares one
/// number a call instead of values one by one (a let call's lookup took
/// 450 instructions in a bundled game, interpreted). `None` for any other key,
/// which is compared by value.
#[inline]
pub(crate) fn packed(mode: u8, key: &[V]) -> Option<u64> {
    const _: () = assert!(2 + 15 * MEMO_ARGS < 64);
    if key.len() > MEMO_ARGS || mode > 3 {
        return None;
    }
    let mut p = mode as u64;
    for v in key {
        let (kind, n) = match *v {
            V::None => (1, 0),
            V::Bool(b) => (2, b as u64),
            V::Int(n) => (3, u64::try_from(n).ok()?),
            V::Place(x) => (4, x.index() as u64),
            V::Player(x) => (5, x.index() as u64),
            V::Card(x) => (6, x.index() as u64),
            V::Tag(x) => (7, x.index() as u64),
            _ => return None,
        };
        if n >= PACK_LIMIT {
            return None;
        }
        p = p << 15 | kind << 11 | n;
    }
    Some(p)
}

/// A call's fingerprint: of its packed key when there is one (a mix of one
/// number), else FxHash of its kind and arguments.
fn fingerprint(mode: u8, key: &[V], packed: Option<u64>) -> u64 {
    if let Some(p) = packed {
        return (p ^ p >> 29).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
    }
    use std::hash::{Hash, Hasher};
    struct Fx(u64);
    impl Hasher for Fx {
        fn finish(&self) -> u64 {
            self.0
        }
        fn write(&mut self, bytes: &[u8]) {
            for b in bytes {
                self.write_u64(*b as u64);
            }
        }
        fn write_u8(&mut self, n: u8) {
            self.write_u64(n as u64);
        }
        fn write_u32(&mut self, n: u32) {
            self.write_u64(n as u64);
        }
        fn write_usize(&mut self, n: usize) {
            self.write_u64(n as u64);
        }
        fn write_i64(&mut self, n: i64) {
            self.write_u64(n as u64);
        }
        fn write_u64(&mut self, n: u64) {
            self.0 = (self.0.rotate_left(5) ^ n).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
        }
    }
    let mut h = Fx(mode as u64);
    key.hash(&mut h);
    h.finish()
}

/// A copy of a game starts with an empty memo.
impl Clone for Memo {
    fn clone(&self) -> Memo {
        Memo::default()
    }
}

impl Memo {
    /// Ready the memo for reading the game's state, for `me`, after
    /// `changes` changes: the values kept if they were worked out on that
    /// same state for that same player, else forgotten (the lists keep
    /// their room).
    pub fn prepare(&mut self, reads: &LetReads, lets: usize, me: Option<PlayerId>, changes: u64) {
        if self.stamp == Some(changes) && self.by_let.len() == lets {
            if self.me != me {
                // Only what reads who `me` is goes.
                self.forget(reads, &reads.me(), None);
                self.me = me;
            }
            return;
        }
        self.me = me;
        self.stamp = Some(changes);
        self.by_let.resize_with(lets, LetMemo::default);
        for id in self.kept.drain(..) {
            self.by_let[id.index()].clear();
        }
        self.regions.clear();
        self.steps.iter_mut().for_each(LinkSteps::forget);
    }

    /// The state went from change `from` to change `to`, writing only
    /// `changed` (`LetReads::written`): values worked out at `from`
    /// that read none of it are kept for `to`. A memo kept for another
    /// state is left as it is (`prepare` then forgets it).
    /// `me`, when given, is who moves next (`changed` includes `me` when
    /// that is someone else).
    pub fn advance(
        &mut self,
        reads: &LetReads,
        from: u64,
        to: u64,
        changed: &Parts,
        written: Option<&Written>,
        me: Option<Option<PlayerId>>,
    ) {
        if self.stamp == Some(from) {
            self.forget(reads, changed, written);
            self.stamp = Some(to);
            if let Some(me) = me {
                self.me = me;
            }
        }
    }

    /// Whether the memo keeps values worked out at change `stamp`, any at
    /// all.
    pub fn keeps(&self, stamp: u64) -> bool {
        self.stamp == Some(stamp) && !self.is_empty()
    }

    /// Whether it keeps nothing: no let call, region or step of a link
    /// (most listings of compiled rules, whose lets keep their values
    /// themselves, leave it so).
    fn is_empty(&self) -> bool {
        self.kept.is_empty() && self.regions.is_empty() && self.steps.iter().all(|s| s.set.is_empty())
    }

    /// Every let call kept: the let, the kind of value asked for, the
    /// arguments (`none` past the let's), the value.
    pub fn calls(&self) -> impl Iterator<Item = (LetId, u8, &[V; MEMO_ARGS], V)> + '_ {
        self.kept
            .iter()
            .flat_map(|id| self.by_let[id.index()].calls.iter().map(|r| (*id, r.mode, &r.args, r.value)))
    }

    /// Every region kept: its link, its start, its places.
    pub fn regions(&self) -> impl Iterator<Item = (LetId, PlaceId, &[PlaceId])> + '_ {
        self.regions.iter().map(|(link, start, places)| (*link, *start, &places[..]))
    }

    /// Forget the values of lets, and the regions of links, that read any
    /// of `changed`; and the steps of links that did, only those that
    /// read an instance `written` names when all they read of `changed`
    /// is of declarations per place (`LetReads::place_reads_only`).
    fn forget(&mut self, reads: &LetReads, changed: &Parts, written: Option<&Written>) {
        if self.is_empty() {
            return;
        }
        let (by_let, me) = (&mut self.by_let, self.me);
        self.kept.retain(|id| {
            let known = &mut by_let[id.index()];
            let touched = reads.calls_touched(*id, me, changed);
            if let reads::Touched::None = touched {
                return true;
            }
            // Of a noted let, the calls noted go only when they read an
            // instance written (a let none of whose calls kept read one
            // goes as any other).
            match written.filter(|_| !known.reads.is_empty() && reads.place_reads_only(*id, changed)) {
                Some(written) => known.retain_noted(|r, noted| match noted {
                    Some(noted) => !noted.iter().any(|read| written.has(*read)),
                    None => !touched.call(&r.args),
                }),
                None if matches!(touched, reads::Touched::All) => known.clear(),
                None => {
                    let before = known.calls.len();
                    known.calls.retain(|r| !touched.call(&r.args));
                    if known.calls.len() < before {
                        known.reindex(before);
                    }
                }
            }
            !known.calls.is_empty()
        });
        self.regions.retain(|(link, _, _)| !reads.touched(*link, changed));
        for s in self.steps.iter_mut().filter(|s| !s.set.is_empty() && reads.touched(s.link, changed)) {
            match written {
                Some(written) if reads.place_reads_only(s.link, changed) => s.forget_read(written),
                _ => s.forget(),
            }
        }
    }

    /// Every step of a link kept: the link, the step's entry in
    /// `Neighbours`' list, whether the link holds there.
    pub fn steps(&self) -> impl Iterator<Item = (LetId, usize, bool)> + '_ {
        self.steps
            .iter()
            .flat_map(|s| s.set.iter().map(|at| (s.link, *at as usize, s.known[*at as usize] == 2)))
    }

    /// The steps of `link` kept (for `me`, who must be the memo's), taken
    /// out for a walk, which gives them back (`put_steps`) with what it
    /// found added: a walk reads and keeps them without going through the
    /// memo at each step. A walk of the same link inside it finds none
    /// kept (the outer one's are given back last).
    pub(super) fn take_steps(&mut self, link: LetId, len: usize) -> LinkSteps {
        self.take_kept_steps(link).unwrap_or_else(|| LinkSteps::new(link, len))
    }

    /// `take_steps`, only when the memo has a list for `link` (one it
    /// reads but does not add to needs none made).
    pub(super) fn take_kept_steps(&mut self, link: LetId) -> Option<LinkSteps> {
        let i = self.steps.iter().position(|s| s.link == link)?;
        Some(self.steps.swap_remove(i))
    }

    /// Give back steps `take_steps` took.
    pub(super) fn put_steps(&mut self, steps: LinkSteps) {
        match self.steps.iter().position(|s| s.link == steps.link) {
            Some(i) => self.steps[i] = steps,
            None => self.steps.push(steps),
        }
    }

    /// A region worked out on this state, if the memo has it.
    pub(super) fn region(&self, link: LetId, start: PlaceId, me: Option<PlayerId>) -> Option<Places> {
        if !self.serves(me) {
            return None;
        }
        self.regions.iter().rev().find(|(l, s, _)| *l == link && *s == start).map(|(_, _, r)| r.clone())
    }

    pub(super) fn keep_region(&mut self, link: LetId, start: PlaceId, me: Option<PlayerId>, places: &Places) {
        if self.serves(me) {
            // Full (regions kept over many states): the oldest goes.
            if self.regions.len() == MEMO_REGIONS {
                self.regions.remove(0);
            }
            self.regions.push((link, start, places.clone()));
        }
    }

    /// Whether calls made with this `me` may use it.
    pub(crate) fn serves(&self, me: Option<PlayerId>) -> bool {
        self.me == me
    }

    /// The value of a call with `arity` arguments (`key` past them is
    /// `none`, so only those are compared).
    fn get(&self, id: LetId, mode: u8, key: &[V; MEMO_ARGS], arity: usize) -> Option<V> {
        let known = self.by_let.get(id.index())?;
        let calls = &known.calls;
        if calls.is_empty() {
            return None;
        }
        let packed = packed(mode, &key[..arity]);
        let same = |r: &Remembered| match packed {
            Some(p) => r.packed == p,
            None => r.mode == mode && r.args[..arity] == key[..arity],
        };
        // A short list is scanned: hashing would cost more.
        if calls.len() <= MEMO_SCAN {
            return calls.iter().find(|r| same(r)).map(|r| r.value);
        }
        let fp = fingerprint(mode, &key[..arity], packed);
        let mut slot = fp as usize % MEMO_INDEX;
        loop {
            let r = &calls[known.index[slot].checked_sub(1)? as usize];
            if r.fingerprint == fp && same(r) {
                return Some(r.value);
            }
            slot = (slot + 1) % MEMO_INDEX;
        }
    }

    fn put(&mut self, id: LetId, mode: u8, key: [V; MEMO_ARGS], arity: usize, v: V) {
        if let Some(known) = self.by_let.get_mut(id.index()) {
            // Full (values kept over many states): the oldest go.
            if known.calls.len() == MEMO_PER_LET {
                known.clear();
            } else if known.calls.is_empty() {
                self.kept.push(id);
            }
            let packed = packed(mode, &key[..arity]);
            known.calls.push(Remembered {
                fingerprint: fingerprint(mode, &key[..arity], packed),
                packed: packed.unwrap_or(UNPACKED),
                mode,
                args: key,
                value: v,
                noted_from: 0,
                noted_len: UNNOTED,
            });
            // Past the calls scanned by value, every call is indexed.
            let n = known.calls.len();
            if n == MEMO_SCAN + 1 {
                (0..n).for_each(|i| known.index_call(i));
            } else if n > MEMO_SCAN + 1 {
                known.index_call(n - 1);
            }
        }
    }

    /// `put` for a noted call that read `read` (the instances of
    /// declarations per place): kept with them, unless they are more than
    /// `MOST_READ`.
    fn put_noted(&mut self, id: LetId, mode: u8, key: [V; MEMO_ARGS], arity: usize, v: V, read: &[Read]) {
        self.put(id, mode, key, arity, v);
        if read.len() > MOST_READ {
            return;
        }
        if let Some(known) = self.by_let.get_mut(id.index()) {
            let from = known.reads.len() as u16;
            known.reads.extend_from_slice(read);
            if let Some(r) = known.calls.last_mut() {
                (r.noted_from, r.noted_len) = (from, read.len() as u8);
            }
        }
    }
}

/// A value the rules read while they ran: a let called or a table entry
/// looked up, where the rules asked for it, and what it was.
#[derive(Clone, Debug, PartialEq)]
pub struct Traced {
    pub what: TracedKind,
    pub value: V,
    /// The expression that asked for it.
    pub at: Span,
}

#[derive(Clone, Debug, PartialEq)]
pub enum TracedKind {
    /// A let, with its arguments.
    Let(model::LetId, Vec<V>),
    /// A table entry, by its keys (an enumeration's value as its position).
    Table(model::TableId, Vec<i64>),
}

/// A value a let gives (a value, a number or a yes/no, as the caller
/// asked), as a `V` and back (for the trace and the `Memo`).
pub trait AsV: Sized {
    /// Which of the three: a let read as a number and as a value may
    /// differ (`none` and 0).
    const MODE: u8;
    fn as_v(&self) -> V;
    fn from_v(v: V) -> Option<Self>;
    /// `e`'s value of this kind, as `Interp::eval`, `int` or `bool` gives it.
    fn eval_in(it: &Interp<'_>, e: &Expr, st: &crate::state::State, f: &mut Frame) -> R<Self>;
}

impl AsV for V {
    const MODE: u8 = 0;
    fn as_v(&self) -> V {
        *self
    }
    fn from_v(v: V) -> Option<V> {
        Some(v)
    }
    fn eval_in(it: &Interp<'_>, e: &Expr, st: &crate::state::State, f: &mut Frame) -> R<V> {
        it.eval(e, st, f)
    }
}

impl AsV for i64 {
    const MODE: u8 = 1;
    fn as_v(&self) -> V {
        V::Int(*self)
    }
    fn from_v(v: V) -> Option<i64> {
        if let V::Int(n) = v {
            Some(n)
        } else {
            None
        }
    }
    fn eval_in(it: &Interp<'_>, e: &Expr, st: &crate::state::State, f: &mut Frame) -> R<i64> {
        it.int(e, st, f)
    }
}

impl AsV for bool {
    const MODE: u8 = 2;
    fn as_v(&self) -> V {
        V::Bool(*self)
    }
    fn from_v(v: V) -> Option<bool> {
        if let V::Bool(b) = v {
            Some(b)
        } else {
            None
        }
    }
    fn eval_in(it: &Interp<'_>, e: &Expr, st: &crate::state::State, f: &mut Frame) -> R<bool> {
        it.bool(e, st, f)
    }
}

/// The most steps one call into the engine may take (listing the legal
/// choices, applying an action, scoring): a step is a let or procedure
/// call, an element an aggregate or a loop goes through, or a turn of
/// `repeat`. A turn of the bundled games takes thousands; a ruleset
/// whose rules blow up (lets that call each other twice per level, an
/// action that changes the state before its requirements and so must be
/// tried in full for a million combinations) stops here with a rule error
/// instead of running for hours.
pub const MAX_WORK: u64 = 20_000_000;

impl<'a> Interp<'a> {
    /// How many components a zone instance holds: its length, but for a
    /// row, whose empty slots count none (no other kind of zone keeps an
    /// empty slot).
    #[inline]
    pub fn count(&self, z: crate::state::ZoneInst, st: &crate::state::State) -> usize {
        if self.lay.zone_kind(z) == ZoneKind::Row {
            st.count(z)
        } else {
            debug_assert!(st.zones[z].iter().all(Option::is_some), "only rows keep empty slots");
            st.zones[z].len()
        }
    }

    /// Count `n` steps of work; past `MAX_WORK`, a rule error at `span`.
    #[inline]
    pub fn spend(&self, n: u64, span: Span) -> R<()> {
        let done = self.work.get().saturating_add(n);
        self.work.set(done);
        if done > MAX_WORK {
            return too_much_work(span);
        }
        Ok(())
    }

    /// The work counted so far in this call into the engine.
    #[inline(always)]
    pub fn work_done(&self) -> u64 {
        self.work.get()
    }

    /// Count `n` steps that generated code counted apart (its inlined
    /// lets' calls, `steps += 1` each, checked once at the end of the
    /// function): whether the work is still within `MAX_WORK`. If not,
    /// the count goes back to `from`, what it was before the function ran,
    /// for the interpreter to run the same rules and stop at the step it
    /// stops at, with its error.
    #[inline(always)]
    pub fn add_steps(&self, n: u64, from: u64) -> bool {
        let done = self.work.get().saturating_add(n);
        if done > MAX_WORK {
            self.work.set(from);
            return false;
        }
        self.work.set(done);
        true
    }

    /// A value in words, for the messages of rule errors (never Rust's
    /// debug output).
    pub fn describe(&self, v: &V) -> String {
        describe(self.r, self.lay, v)
    }

    fn record(&mut self, e: impl FnOnce(&Self) -> Event) {
        if self.events.is_some() {
            let event = e(self);
            if let Some(events) = self.events.as_mut() {
                events.push(event);
            }
        }
    }
}

mod eval;
mod exec;
mod frame;
pub use frame::{Frame, Sets};
mod fast;
use fast::FAST_FROM;
mod grid;
mod reads;
mod zones;

pub(crate) use eval::{attr_empty, attr_value};
pub use grid::{Neighbours, Places};
pub use reads::{LetReads, Parts, Read, Written};
pub use zones::find;

/// A value in words: `the number 3`, `the place \`NAME\``, `P2`, ...
pub fn describe(r: &Ruleset, lay: &Layout, v: &V) -> String {
    match v {
        V::Int(n) => format!("the number {n}"),
        V::Bool(true) => "yes".into(),
        V::Bool(false) => "no".into(),
        V::None => "none".into(),
        V::Text(t) => format!("the text \"{t}\""),
        V::Place(p) => format!("the place `{}`", r.places[*p].name),
        V::Player(p) => format!("player {p}"),
        V::Card(c) => format!("the component `{}`", r.components[*c].name),
        V::Tag(t) => format!("the tag `{}`", r.tags[*t]),
        V::Zone(z) => format!("the zone `{}`", lay.zone_name(r, *z)),
        V::Map(c, _) => format!("a map of `{}`", r.components[*c].name),
        V::Players => "the players".into(),
        V::PlayersFrom(p) => format!("the players from {p}"),
        V::Class(c) => format!("the places of `{}`", r.classes[*c].name),
        V::Set(_) => "a set of components".into(),
    }
}

/// `spend`'s error, out of line so that `spend` itself inlines.
#[cold]
#[inline(never)]
fn too_much_work(span: Span) -> R<()> {
    rule(span, format!("the rules took more than {MAX_WORK} steps here (lets, loops and aggregates)"))
}

#[cfg(test)]
mod tests {
    use super::{LinkSteps, Memo, Written, MEMO_ARGS, MEMO_PER_LET, MEMO_SCAN, MOST_NOTED};
    use crate::state::{ZoneInst, V};
    use model::{ComponentId, LetId, PlaceId, PlayerId, TagId};

    /// Steps forgotten through one place they read, and worked out again,
    /// are listed again under the other places they read: however often,
    /// the lists hold at most `MOST_NOTED` notes per entry of the board
    /// (then every step goes), and a step that read a written place is
    /// always forgotten.
    #[test]
    fn a_links_notes_of_reads_stay_bounded_however_often_its_steps_are_worked_out_again() {
        let mut s = LinkSteps::new(LetId::new(0), 4);
        let written = Written::numbered(&[0], &[], 8);
        let mut most = 0;
        for _ in 0..1000 {
            // Entries 0 and 2 read instances 0 and 1; entry 3 reads 3.
            s.keep_read(0, true, &[0, 1]);
            s.keep_read(2, false, &[0, 1]);
            s.keep_read(3, true, &[3]);
            most = most.max(s.by_read.iter().map(Vec::len).sum::<usize>() + s.read.len());
            s.forget_read(&written);
            assert_eq!((s.get(0), s.get(2)), (None, None), "the steps that read instance 0 go");
        }
        assert!(most <= MOST_NOTED * 4 + 8, "{most} notes for 4 entries");
        assert!(most > 8, "the lists grew ({most}), so the bound was reached");
    }

    /// The interpreter's `sum` (`eval::Tally`: a wrapping sum, its wraps
    /// counted, `summed`) gives the exact sum clamped into range
    /// (`clamped`), for terms near either end in every order tried, where
    /// saturating at each step would not.
    #[test]
    fn a_sum_is_the_exact_sum_clamped_whatever_the_order_of_its_terms() {
        use rand::{Rng, SeedableRng};
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(5);
        let ends = [i64::MAX, i64::MIN, i64::MAX - 1, i64::MIN + 1, 0, 1, -1];
        let mut step_by_step_differs = false;
        for _ in 0..2_000 {
            let terms: Vec<i64> =
                (0..rng.gen_range(0..8)).map(|_| ends[rng.gen_range(0..ends.len())]).collect();
            let mut tally = super::eval::Tally::default();
            for &n in &terms {
                tally.add(model::Aggregate::Sum, Some(n));
            }
            let exact = super::clamped(terms.iter().map(|n| i128::from(*n)).sum());
            assert_eq!(tally.result(model::Aggregate::Sum), V::Int(exact), "{terms:?}");
            step_by_step_differs |= terms.iter().fold(0i64, |t, n| t.saturating_add(*n)) != exact;
        }
        assert!(step_by_step_differs, "the terms tried tell the two ways apart");
    }

    /// Past the calls it compares one by one, the memo finds each call it
    /// keeps through its index, by arguments and kind of value; it keeps
    /// `MEMO_PER_LET` calls of a let, then forgets them and starts again,
    /// and keeps none once the state changes in a way it is not told of.
    #[test]
    fn memo_finds_every_call_it_keeps_and_no_other() {
        let reads = super::LetReads::default();
        let mut memo = Memo::default();
        let me = Some(PlayerId::new(0));
        memo.prepare(&reads, 2, me, 1);
        let key = |n: i64| {
            let mut k = [V::None; MEMO_ARGS];
            k[0] = V::Int(n);
            k[1] = V::Int(n % 3);
            k
        };
        let id = LetId::new(1);
        let full = MEMO_PER_LET as i64;
        for n in 0..full {
            memo.put(id, 0, key(n), 2, V::Int(n * 10));
        }
        for n in 0..full {
            assert_eq!(memo.get(id, 0, &key(n), 2), Some(V::Int(n * 10)), "call {n}");
            assert_eq!(memo.get(id, 1, &key(n), 2), None, "call {n} as another kind");
        }
        assert_eq!(memo.get(id, 0, &key(full), 2), None, "a call never kept");
        assert_eq!(memo.get(LetId::new(0), 0, &key(3), 2), None, "another let");
        for n in full..full + 5 {
            memo.put(id, 0, key(n), 2, V::Int(n * 10));
        }
        assert_eq!(memo.get(id, 0, &key(3), 2), None, "forgotten once full");
        for n in full..full + 5 {
            assert_eq!(memo.get(id, 0, &key(n), 2), Some(V::Int(n * 10)), "call {n} after");
        }
        memo.prepare(&reads, 2, me, 2);
        assert_eq!(memo.get(id, 0, &key(full), 2), None, "a changed state");
        memo.put(id, 0, key(3), 2, V::Int(-1));
        assert_eq!(memo.get(id, 0, &key(3), 2), Some(V::Int(-1)));
    }

    /// Calls whose arguments pack into one number and calls whose do not
    /// (a negative number, a number or a component past the packing's
    /// range, a zone) are found alike; values of different kinds with the
    /// same number (5, place 5, component 5, ...) are different calls, and
    /// so are 5 and 2053 (5 plus the packing's range); whether the memo
    /// scans its calls of a let or looks them up in its index.
    #[test]
    fn memo_tells_apart_calls_that_differ_only_in_kind_or_past_the_packing() {
        let reads = super::LetReads::default();
        let me = Some(PlayerId::new(0));
        let args = [
            V::Int(5),
            V::Place(PlaceId::new(5)),
            V::Card(ComponentId::new(5)),
            V::Player(PlayerId::new(5)),
            V::Tag(TagId::new(5)),
            V::Bool(true),
            V::None,
            V::Int(-5),
            V::Int(2053),
            V::Int(5000),
            V::Card(ComponentId::new(5000)),
            V::Zone(ZoneInst::new(5)),
        ];
        let key = |v: V, w: V| {
            let mut k = [V::None; MEMO_ARGS];
            k[0] = v;
            k[1] = w;
            k
        };
        let id = LetId::new(0);
        for fillers in [0, MEMO_SCAN] {
            let mut memo = Memo::default();
            memo.prepare(&reads, 1, me, 1);
            for n in 0..fillers {
                memo.put(id, 0, key(V::Int(100 + n as i64), V::None), 2, V::Int(-1));
            }
            for (i, a) in args.iter().enumerate() {
                memo.put(id, 0, key(*a, V::Int(1)), 2, V::Int(i as i64));
            }
            for (i, a) in args.iter().enumerate() {
                assert_eq!(memo.get(id, 0, &key(*a, V::Int(1)), 2), Some(V::Int(i as i64)), "{a:?}");
                assert_eq!(memo.get(id, 1, &key(*a, V::Int(1)), 2), None, "{a:?} as another kind of value");
                assert_eq!(memo.get(id, 0, &key(V::Int(1), *a), 2), None, "{a:?} second");
            }
        }
    }
}
