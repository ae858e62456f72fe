//! A game in progress: setup from a seed, whose turn it is, legal actions
//! (`search.rs`, `sets.rs`), applying one (`apply.rs`), per-player views
//! and samples (`view.rs`) and the final score (`scores.rs`); the
//! `Program` it runs is in `program.rs`.

use model::*;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

use crate::event::Event;

use crate::interp::{Fail, Frame, Interp, Memo, Traced, MAX_WORK, R};
use crate::legality::{self, SetBound};
use crate::state::{Cells, Layout, State, ZoneInst, V};

pub use crate::choice::{Args, Choice, Listing};

mod apply;
mod prelude;
mod program;
mod scores;
mod search;
mod sets;
mod view;

use search::Keyed;
use sets::{LastSets, SetScratch};

pub use program::Program;
pub use scores::ScoreSheet;
pub use search::{Descent, Searcher};
pub use sets::MAX_SETS;
pub use view::{View, ZoneView};

#[derive(Clone)]
pub struct Game<'p> {
    pub rules: &'p Ruleset,
    program: &'p Program,
    pub layout: &'p Layout,
    /// Per let, its value if it is fixed once the game is set up (see
    /// `TrialPlan::constant_lets`). A test changing by hand a counter that
    /// no action changes is not seen by these.
    consts: Vec<Option<V>>,
    pub(crate) state: Tracked,
    pub seed: u64,
    /// Steps the current call into the engine has taken (see
    /// `interp::MAX_WORK`); every public method that runs rules starts it
    /// at 0.
    work: std::cell::Cell<u64>,
    /// Let values on the state as it is (see `Memo`): kept from one call
    /// to the next while the state has not changed (a listing and the
    /// action applied after it), else cleared, keeping its room.
    memo: std::cell::RefCell<Memo>,
    /// States no longer needed, kept for their allocations: a trial's
    /// scratch, a shared trial part, the state an action replaced.
    spare: std::cell::RefCell<Spare<'p>>,
    /// A state equal to the game's after `changes` changes (the one the
    /// last action replaced, brought up to date by `State::catch_up`):
    /// the next action's copy, with nothing to put back.
    twin: std::cell::RefCell<Twin>,
    /// The list every `move` picks its components into, kept for its room
    /// (`Interp::picked`); empty between moves.
    picked: std::cell::RefCell<Vec<ComponentId>>,
    /// Who moves on the state after the given count of changes
    /// (`current`): a listing, the check of the choice applied and the
    /// memo's update each ask (by lowest time, a pass over the players).
    mover: std::cell::Cell<Option<(u64, Option<PlayerId>)>>,
    /// The game's own number, which a listing notes (`Listing`).
    uid: Uid,
    /// A listing's notes of trial outcomes (`Search::monotone` and
    /// `Search::refused`), empty between listings: borrowed where they
    /// lie, not moved in and out of the spares each listing.
    notes: Notes,
}

/// `Game::notes`; a copy of a game starts with none.
#[derive(Default)]
struct Notes([std::cell::RefCell<Keyed>; 2]);

impl Clone for Notes {
    fn clone(&self) -> Notes {
        Notes::default()
    }
}

/// A number of its own for each game, and for each copy of one: a
/// listing found by one game is checked again by any other (`Listing`).
#[derive(Debug)]
struct Uid(u64);

impl Uid {
    fn fresh() -> Uid {
        static NEXT: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
        Uid(NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed))
    }
}

impl Clone for Uid {
    fn clone(&self) -> Uid {
        Uid::fresh()
    }
}

/// A spare state equal to the game's (`Game::twin`); a copy of a game has
/// none.
#[derive(Default)]
struct Twin(Option<(u64, Box<State>)>);

impl Clone for Twin {
    fn clone(&self) -> Twin {
        Twin::default()
    }
}

/// The game's state, counting its changes: whatever changes it goes
/// through `DerefMut`, which counts. Let values remembered for it (`Memo`)
/// are kept from one call to the next while the count stays, so applying
/// the choice a listing found reuses what the listing worked out.
#[derive(Clone)]
pub(crate) struct Tracked {
    state: Box<State>,
    changes: u64,
}

impl Tracked {
    fn new(state: Box<State>) -> Tracked {
        Tracked { state, changes: 0 }
    }

    /// Put `state` in the place of the state (a change, counted as one),
    /// the one it replaces given back; a move of a pointer, not of the
    /// state.
    fn replace(&mut self, state: Box<State>) -> Box<State> {
        self.changes += 1;
        std::mem::replace(&mut self.state, state)
    }
}

impl std::ops::Deref for Tracked {
    type Target = State;
    fn deref(&self) -> &State {
        &self.state
    }
}

impl std::ops::DerefMut for Tracked {
    fn deref_mut(&mut self) -> &mut State {
        self.changes += 1;
        &mut self.state
    }
}

/// A few spare states (`Game::copy_of_state`) and lists of values (the
/// parameters' domains a listing works out, `Game::listed_domains`); a copy
/// of a game has none.
#[derive(Default)]
struct Spare<'p> {
    /// Boxed: a spare state goes to the game, the twin or a trial as it
    /// is taken out, a move of a pointer rather than of the state.
    #[allow(clippy::vec_box)]
    states: Vec<Box<State>>,
    lists: Vec<Vec<V>>,
    /// A listing's or a check's list of parameter domains, emptied
    /// (`Game::listed_domains` fills it).
    domains: Vec<std::borrow::Cow<'p, [V]>>,
    /// A listing's note of which domains hold a zone's components, by
    /// zone (`Game::listed_domains`), emptied.
    zone_lists: Vec<(ZoneInst, usize)>,
    /// The values a listing binds as its search goes down, emptied.
    args: Vec<V>,
    /// A frame's slots past the inline ones (`Frame::with_room`), emptied.
    room: Vec<V>,
    /// The lists the sets of the choices of earlier listings were kept in
    /// (`ChoiceSets::into_room`), for the next listing's choices.
    set_rooms: Vec<Vec<ComponentId>>,
    /// Where each value's choices end in a listing (`Game::descending`).
    ends: Vec<usize>,
    /// The let values compiled code keeps for a listing (`Interp::listing`).
    listing: Vec<std::cell::Cell<Option<V>>>,
    /// The candidate sets of a listing (`Frame::sets`), emptied.
    sets: crate::interp::Sets,
    /// The lists the set search works in (`Game::sets_within`), boxed
    /// and taken out for each search: a pointer moves, not the lists.
    set_search: Option<Box<SetScratch>>,
    /// The last two lists of sets `Game::bounded_sets` found, newer
    /// first, and what they were found for.
    last_sets: [LastSets; 2],
}

impl Clone for Spare<'_> {
    fn clone(&self) -> Self {
        Spare::default()
    }
}

impl Spare<'_> {
    /// A domain's list kept, emptied, for the next (a borrowed domain
    /// has none).
    #[inline]
    fn keep_list(&mut self, d: std::borrow::Cow<'_, [V]>) {
        if let std::borrow::Cow::Owned(mut list) = d {
            if self.lists.len() < SPARE_LISTS {
                list.clear();
                self.lists.push(list);
            }
        }
    }
}

/// How many lists of earlier choices' sets a game keeps for their room:
/// more than the choices with sets of any bundled game's listing.
const SPARE_SET_ROOMS: usize = 256;

/// How many spare states a game keeps.
const SPARE_STATES: usize = 4;

/// How many spare lists of values a game keeps: more than any action has
/// parameters to list.
const SPARE_LISTS: usize = 16;

impl<'p> Game<'p> {
    /// Lay out a game for `players` from `seed`. The events are the setup's.
    pub fn new(program: &'p Program, players: usize, seed: u64) -> Result<(Game<'p>, Vec<Event>), Fail> {
        Self::set_up(program, players, seed, true)
    }

    /// As `new`, without recording the setup's events: the same game, for
    /// simulations that would throw them away (naming every component
    /// laid out costs about as much as a few turns).
    pub fn start(program: &'p Program, players: usize, seed: u64) -> Result<Game<'p>, Fail> {
        Self::set_up(program, players, seed, false).map(|(g, _)| g)
    }

    fn set_up(
        program: &'p Program,
        players: usize,
        seed: u64,
        record: bool,
    ) -> Result<(Game<'p>, Vec<Event>), Fail> {
        let rules = program.walked();
        let layout = program.layout(players).ok_or_else(|| Fail::Rule {
            message: format!(
                "{} is for {} to {} players, not {players}",
                rules.game.title, rules.game.min_players, rules.game.max_players
            ),
            span: Span::default(),
        })?;
        let rng = Box::new(ChaCha8Rng::seed_from_u64(seed));
        let prelude = program.preludes[players - rules.game.min_players as usize]
            .get_or_init(|| Self::prelude(program, layout))
            .as_ref();
        let state = match prelude {
            Some(prelude) => prelude.state(rng),
            None => Self::laid_out(rules, layout, rng),
        };
        let mut game = Self::with_state(program, layout, state, seed);
        let events = game.setup(record, prelude)?;
        // Lets fixed after setup: work them out once, on the state set up.
        let consts = {
            let it = game.interp(false);
            let mut frame = Frame::new(None);
            let value = |(id, l): (usize, &Let)| {
                program.trials.constant_lets[id]
                    .then(|| it.eval(&l.body, &game.state, &mut frame).ok())
                    .flatten()
            };
            rules.lets.iter().enumerate().map(value).collect()
        };
        game.consts = consts;
        Ok((game, events))
    }

    /// The state a game of `layout` starts from, before its setup: every
    /// component in its group's supply, the rows' slots empty.
    fn laid_out(rules: &Ruleset, layout: &Layout, rng: Box<ChaCha8Rng>) -> State {
        let players = layout.players;
        // The zones that start empty share one empty list until each is
        // first written (copy on write, as for a copy of the state).
        let empty = Cells::default();
        let zones: Vec<Cells> = layout
            .instances
            .iter()
            .map(|i| match i.source {
                Ok(z) if rules.zones[z].kind == ZoneKind::Row => {
                    Cells::from(vec![None; rules.zones[z].slots.len()])
                }
                Ok(_) => empty.clone(),
                Err(g) => Cells::from(rules.groups[g].ids().map(Some).collect::<Vec<_>>()),
            })
            .collect();
        State {
            zones,
            counters: vec![V::None; layout.counter_instances],
            pieces: vec![PlaceId::default(); layout.piece_instances],
            arrival: (0..players as u64).rev().collect(),
            tick: players as u64,
            order: PlayerId::all(players).collect(),
            turn_seat: 0,
            rng,
            loc: {
                let mut loc = vec![0; rules.components.len()];
                for (inst, i) in layout.instances.iter().enumerate() {
                    if let Err(g) = i.source {
                        for c in rules.groups[g].components.clone() {
                            loc[c] = inst as u32;
                        }
                    }
                }
                loc
            },
            finished: false,
            actions: 0,
            asks: Vec::new(),
            turn_ended: false,
            tallies: layout.tally_table(),
            journal: Default::default(),
        }
    }

    /// A game of `program` on `state`, before its setup has run.
    fn with_state(program: &'p Program, layout: &'p Layout, state: State, seed: u64) -> Game<'p> {
        Game {
            rules: program.walked(),
            program,
            layout,
            consts: Vec::new(),
            state: Tracked::new(Box::new(state)),
            seed,
            work: Default::default(),
            memo: Default::default(),
            spare: Default::default(),
            twin: Default::default(),
            picked: Default::default(),
            mover: Default::default(),
            uid: Uid::fresh(),
            notes: Notes::default(),
        }
    }

    /// The setup's prelude for games of `layout` (`prelude`): its
    /// statements run by the interpreter on a game from seed 0, whose
    /// generator they do not read. `None` when the setup has none, or
    /// when running it meets an error, which each game then meets.
    fn prelude(program: &'p Program, layout: &'p Layout) -> Option<prelude::Prelude> {
        let rules = program.walked();
        let len = prelude::length(rules);
        if len == 0 {
            return None;
        }
        let rng = Box::new(ChaCha8Rng::seed_from_u64(0));
        let game = Self::with_state(program, layout, Self::laid_out(rules, layout, rng), 0);
        let mut st = State::clone(&game.state);
        let mut it = game.interp(true);
        game.initial(&it, &mut st).ok()?;
        it.exec(&rules.setup.stmts[..len], &mut st, &mut Frame::new(None)).ok()?;
        let events = it.events.take().unwrap_or_default();
        Some(prelude::Prelude::keep(len, &st, events, game.work.get()))
    }

    fn interp(&self, record: bool) -> Interp<'_> {
        Interp {
            r: self.rules,
            lay: self.layout,
            attr_empty: &self.program.attr_empty,
            attrs: &self.program.attrs,
            sites: &self.program.sites,
            consts: &self.consts,
            events: if record { Some(Vec::new()) } else { None },
            reasons: true,
            work: &self.work,
            trace: None,
            memo: None,
            natives: &self.program.natives,
            procedures: &self.program.bodies.procedures,
            neighbours: &self.program.neighbours,
            picked: &self.picked,
            listing: &[],
            reads: None,
            walks: Some((&self.memo, &self.program.reads)),
            noted: self.program.reads.noted(),
            listed: false,
        }
    }

    /// Ready the memo for reading the state as it is, for `me`.
    fn prepare_memo(&self, me: PlayerId) {
        self.memo.borrow_mut().prepare(
            &self.program.reads,
            self.rules.lets.len(),
            Some(me),
            self.state.changes,
        );
    }

    /// After an action replaced state `before` (change `from`): the let
    /// values that read nothing it wrote stay known.
    fn advance_memo(&self, from: u64, before: &State) {
        let mut memo = self.memo.borrow_mut();
        let reads = &self.program.reads;
        if !memo.keeps(from) {
            // Nothing to forget: still the game's memo, empty.
            memo.advance(reads, from, self.state.changes, &crate::interp::Parts::default(), None, None);
        } else {
            let next = self.current();
            let order = before.order != self.state.order;
            if let Some(changed) = reads.written(self.layout, &self.state, order, !memo.serves(next)) {
                let written = self
                    .state
                    .written()
                    .map(|(zones, counters, _)| crate::interp::Written::new(self.layout, zones, counters));
                memo.advance(reads, from, self.state.changes, &changed, written.as_ref(), Some(next));
            }
        }
    }

    /// For tests of the memo: readies it for the next listing, as that
    /// listing would, then works out afresh, without it, every let value,
    /// region and step of a link it keeps: how many. `Err` names the first that differs
    /// from what the memo holds.
    #[doc(hidden)]
    pub fn memo_agrees(&self) -> Result<usize, String> {
        let Some(me) = self.current() else { return Ok(0) };
        let mut checked = 0;
        self.prepare_memo(me);
        let memo = self.memo.borrow();
        let it = self.interp(false);
        let frame = Frame::new(Some(me));
        let fresh = |id: LetId, args: &[V]| {
            it.call_values(id, args, &self.state, &frame).map_err(|f| f.message().to_string())
        };
        for (id, mode, args, kept) in memo.calls() {
            let arity = self.rules.lets[id].params.len();
            let v = fresh(id, &args[..arity])?;
            let v = match (mode, v) {
                (1, V::None) => V::Int(0),
                (_, v) => v,
            };
            if v != kept {
                let name = &self.rules.lets[id].name;
                return Err(format!(
                    "{name}{:?} kept as {kept:?}, worked out afresh as {v:?}",
                    &args[..arity]
                ));
            }
            checked += 1;
        }
        for (link, start, places) in memo.regions() {
            let span = self.rules.lets[link].body.span;
            let v = it
                .connected(link, start, span, &self.state, Some(me))
                .map_err(|f| f.message().to_string())?;
            if *v != *places {
                let name = &self.rules.lets[link].name;
                return Err(format!("the region of {name} from {start:?} kept as {places:?}, afresh {v:?}"));
            }
            checked += 1;
        }
        for (link, at, kept) in memo.steps() {
            let name = &self.rules.lets[link].name;
            let step = it.neighbours.entry_of(at).and_then(|(here, k)| {
                let there = *it.steps_from(link, false, here, &self.state).get(k)?;
                Some((here, there))
            });
            let Some((here, there)) = step else {
                return Err(format!("{name} kept at entry {at}, which is no step of a walk"));
            };
            let v = fresh(link, &[V::Place(here), V::Place(there)])?;
            if v != V::Bool(kept) {
                return Err(format!(
                    "{name}({here:?}, {there:?}) kept as {kept}, worked out afresh as {v:?}"
                ));
            }
            checked += 1;
        }
        Ok(checked)
    }

    /// Steps the last call into the engine took (see `interp::MAX_WORK`).
    pub fn work_done(&self) -> u64 {
        self.work.get()
    }

    pub fn players(&self) -> usize {
        self.layout.players
    }

    /// A copy of the state: a spare one put back equal to it (zones not
    /// written since stay shared), or a new clone.
    fn copy_of_state(&self) -> Box<State> {
        match self.spare.borrow_mut().states.pop() {
            Some(mut st) => {
                st.restore(&self.state);
                st
            }
            None => Box::new(State::clone(&self.state)),
        }
    }

    /// A copy of the state for an action to be applied on, keeping a
    /// journal of what the action writes (for `State::catch_up`): the twin
    /// when it is up to date, else as `copy_of_state`.
    fn copy_to_apply(&self) -> Box<State> {
        let twin = self.twin.borrow_mut().0.take();
        let mut st = match twin {
            Some((changes, st)) if changes == self.state.changes => {
                #[cfg(debug_assertions)]
                st.assert_same(&self.state);
                st
            }
            Some((_, stale)) => {
                self.recycle(stale);
                self.copy_of_state()
            }
            None => self.copy_of_state(),
        };
        st.journal_from(crate::state::APPLIED);
        st
    }

    /// Keep a state no longer needed for its allocations.
    fn recycle(&self, st: Box<State>) {
        let mut spare = self.spare.borrow_mut();
        if spare.states.len() < SPARE_STATES {
            spare.states.push(st);
        }
    }

    /// Empty a list of domains, keeping the lists worked out for their
    /// allocations (`listed_domains` fills them again).
    fn recycle_domains(&self, domains: &mut Vec<std::borrow::Cow<'_, [V]>>) {
        // One borrow for them all (a listing has a domain per parameter).
        let mut spare = self.spare.borrow_mut();
        for d in domains.drain(..) {
            spare.keep_list(d);
        }
    }

    /// One domain's list kept for the next (`recycle_domains`). A borrowed
    /// domain (a flag's, a range's: most of those a choice is checked
    /// against) leaves the spares unborrowed.
    fn recycle_domain(&self, d: std::borrow::Cow<'_, [V]>) {
        if let std::borrow::Cow::Owned(_) = d {
            self.spare.borrow_mut().keep_list(d);
        }
    }

    /// Run the setup on the game's state: the counters and pieces where
    /// they start, then its statements; after a `prelude`, whose state the
    /// game starts from, only the statements it left.
    fn setup(&mut self, record: bool, prelude: Option<&prelude::Prelude>) -> Result<Vec<Event>, Fail> {
        let mut st = State::clone(&self.state);
        let mut it = self.interp(record);
        let from = match prelude {
            Some(prelude) => {
                if let Some(events) = &mut it.events {
                    events.extend(prelude.events.iter().cloned());
                }
                self.work.set(prelude.work);
                prelude.len
            }
            None => {
                self.initial(&it, &mut st)?;
                0
            }
        };
        let mut frame = Frame::new(None);
        it.run(self.program.bodies.setup, &self.rules.setup.stmts, from, &mut st, &mut frame)?;
        let events = it.events.take().unwrap_or_default();
        st.finished = st.asks.is_empty() && self.ended(&st)?;
        *self.state = st;
        Ok(events)
    }

    /// Counters and pieces where the ruleset says they start.
    fn initial(&self, it: &Interp, st: &mut State) -> R<()> {
        for (id, c) in self.rules.counters.iter().enumerate() {
            let id = CounterId::new(id);
            let v = it.eval(&c.init, st, &mut Frame::new(None))?;
            let owners = if c.per_player { self.layout.players } else { 1 };
            let places = c.index.map_or(1, |k| self.rules.classes[k].places.len());
            let base = self.layout.counter(id, None, None);
            for i in 0..owners * places {
                st.counters[base + i] = v;
            }
        }
        for (id, p) in self.rules.pieces.iter().enumerate() {
            let id = PieceId::new(id);
            let owners = if p.per_player { self.layout.players } else { 1 };
            for o in PlayerId::all(owners) {
                st.pieces[self.layout.piece(id, Some(o))] = p.start;
            }
        }
        Ok(())
    }

    fn ended(&self, st: &State) -> Result<bool, Fail> {
        Ok(self.interp(false).bool_root(&self.rules.end, st, &mut Frame::new(None))?)
    }

    /// The value of the turn-order counter for a player.
    fn turn_value(&self, st: &State, counter: CounterId, p: PlayerId) -> i64 {
        match st.counters[self.layout.counter(counter, Some(p), None)] {
            V::Int(n) => n,
            _ => 0,
        }
    }

    /// Whose turn it is, or `None` once the game is over.
    pub fn current(&self) -> Option<PlayerId> {
        let changes = self.state.changes;
        if let Some((at, p)) = self.mover.get() {
            if at == changes {
                return p;
            }
        }
        let p = current_in(self, &self.state);
        self.mover.set(Some((changes, p)));
        p
    }

    /// Every legal choice for the player to move, in a stable order.
    pub fn choices(&self) -> Vec<Choice> {
        self.legal().unwrap_or_default()
    }

    /// `choices`, into `out` (emptied first): a caller that lists turn
    /// after turn keeps one list, and its room, for every listing.
    pub fn choices_into(&self, out: &mut Vec<Choice>) {
        if self.legal_into(out).is_err() {
            out.clear();
        }
    }

    /// Every legal choice, as `choices`; but when there is none and some
    /// choice was refused because the rules could not go on (a table read
    /// outside its range, say), that rule error, which says what is wrong
    /// with the ruleset, instead of an empty list.
    pub fn legal(&self) -> Result<Vec<Choice>, Fail> {
        // Room for a few choices at once, rather than growing by doubling
        // from one; kept under 1 KiB (a choice holds its values in place),
        // which the allocator serves from its fastest lists: a larger
        // first request cost a bundled game of 5 choices a turn on
        // average 2% more instructions (docs/performance.md).
        let mut out = Vec::with_capacity(6);
        self.legal_into(&mut out)?;
        Ok(out)
    }

    /// Whether a choice is legal now, and if not, why.
    pub fn check(&self, choice: &Choice) -> Result<(), Fail> {
        let me = self.mover_of(choice)?;
        self.try_choice(choice, me).map(|_| ())
    }

    /// What a choice would do, without doing it: the events of a trial run
    /// on a copy. Draws from hidden zones appear here with the components'
    /// names: a caller showing a preview to a player must show only what
    /// that player may see (how many, from where).
    pub fn preview(&self, choice: &Choice) -> Result<Vec<Event>, Fail> {
        let me = self.mover_of(choice)?;
        self.try_on(choice, me, true, None, false, false).map(|(_, events)| events)
    }

    /// Apply a legal choice. On any failure the state is unchanged.
    pub fn apply(&mut self, choice: &Choice) -> Result<Vec<Event>, Fail> {
        self.apply_recording(choice, true)
    }

    /// `apply` without recording what happened: for simulations and bots'
    /// play-outs, which throw the events away.
    pub fn step(&mut self, choice: &Choice) -> Result<(), Fail> {
        self.apply_recording(choice, false).map(|_| ())
    }

    /// `legal_into`, into a listing that notes this game and its state
    /// (`step_listed`).
    pub fn list_into(&self, listing: &mut Listing) -> Result<(), Fail> {
        let found = self.legal_into(&mut listing.choices);
        listing.found_for = Some((self.uid.0, self.state.changes));
        found
    }

    /// `step` with the `k`-th choice of `listing`. A choice this game
    /// listed on the state as it still is was found legal there: it is
    /// applied without the check of its values `step` makes (any other
    /// is checked as `step` checks it).
    pub fn step_listed(&mut self, listing: &Listing, k: usize) -> Result<(), Fail> {
        let choice = listing.choices.get(k).ok_or_else(|| Fail::Illegal {
            reason: format!("the listing has {} choices, and no choice {k}", listing.choices.len()),
            span: Span::default(),
        })?;
        let found_here = listing.found_for == Some((self.uid.0, self.state.changes));
        self.apply_with(choice, false, None, !found_here).map(|_| ())
    }

    /// `apply`, noting every let called and table entry read on the way,
    /// with its value (for `explain`).
    pub fn apply_traced(&mut self, choice: &Choice) -> Result<(Vec<Event>, Vec<Traced>), Fail> {
        let trace = std::cell::RefCell::new(Vec::new());
        let events = self.apply_with(choice, true, Some(&trace), true)?;
        Ok((events, trace.into_inner()))
    }

    /// Evaluate an expression for a player (for displays and tests).
    pub fn eval(&self, e: &Expr, me: Option<PlayerId>, locals: Vec<V>) -> Result<V, Fail> {
        self.work.set(0);
        let mut f = Frame::with(me, &locals);
        Ok(self.interp(false).eval(e, &self.state, &mut f)?)
    }

    /// For tests of regions: the places a walk of the link named `link`
    /// steps to from `from`, in order (`Interp::steps_from`); `None`
    /// without such a let.
    #[doc(hidden)]
    pub fn walk_steps(&self, link: &str, from: PlaceId) -> Option<Vec<PlaceId>> {
        let id = self.rules.let_named(link)?;
        let constant = matches!(self.consts.get(id.index()), Some(Some(_)));
        Some(self.interp(false).steps_from(id, constant, from, &self.state).to_vec())
    }

    /// For tests of walks: the link (by name) that `link` asks first, on
    /// its own two places, and walks the same way, whose steps the memo
    /// keeps as false a walk of `link` takes as false too.
    #[doc(hidden)]
    pub fn link_asked_first(&self, link: &str) -> Option<String> {
        let id = self.rules.let_named(link)?;
        let first = self.program.neighbours.first_of(id)?;
        Some(self.rules.lets[first].name.clone())
    }

    /// For tests of the memo: how many steps of `link` (by name) it
    /// keeps for the next listing (`Memo::steps`), readied as that listing
    /// would ready it.
    #[doc(hidden)]
    pub fn kept_steps(&self, link: &str) -> usize {
        let (Some(me), Some(id)) = (self.current(), self.rules.let_named(link)) else { return 0 };
        self.prepare_memo(me);
        let memo = self.memo.borrow();
        memo.steps().filter(|(l, _, _)| *l == id).count()
    }

    /// For tests of the memo: how many calls of let `name` it keeps for
    /// the next listing, readied as that listing would ready it.
    #[doc(hidden)]
    pub fn kept_calls(&self, name: &str) -> usize {
        let (Some(me), Some(id)) = (self.current(), self.rules.let_named(name)) else { return 0 };
        self.prepare_memo(me);
        let memo = self.memo.borrow();
        memo.calls().filter(|(l, ..)| *l == id).count()
    }

    /// Call a let by name with arguments, as a player.
    pub fn call_let(&self, name: &str, me: Option<PlayerId>, args: Vec<V>) -> Option<Result<V, Fail>> {
        let l = self.rules.lets.iter().find(|l| l.name == name)?;
        let mut locals = args;
        locals.resize(l.locals.max(locals.len()), V::None);
        Some(self.eval(&l.body, me, locals))
    }
}

fn current_in(game: &Game, st: &State) -> Option<PlayerId> {
    if st.finished {
        return None;
    }
    // An ask is answered before play goes on.
    if let Some((p, _)) = st.asks.first() {
        return Some(*p);
    }
    match game.rules.turns {
        TurnPolicy::LowestCounter(c) => PlayerId::all(game.players()).min_by(|a, b| {
            let (va, vb) = (game.turn_value(st, c, *a), game.turn_value(st, c, *b));
            va.cmp(&vb).then(st.arrival[b.index()].cmp(&st.arrival[a.index()]))
        }),
        TurnPolicy::Clockwise { .. } => Some(st.order[st.turn_seat % st.order.len()]),
    }
}
