//! A game in progress: setup from a seed, whose turn it is, legal actions,
//! applying one, per-player views and the final score.

use model::*;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

use crate::event::Event;

use crate::interp::{Fail, Frame, Interp, Memo, Traced, MAX_WORK, R};
use crate::legality::{self, SetBound, TrialPlan};
use crate::state::{shuffle, Cells, Layout, State, ZoneInst, V};

pub use crate::choice::{Args, Choice};

/// The most sets one `set of` parameter may list at once, after the bounds
/// its leading requirements state (`legality::SetBound`): more is a rule
/// error rather than a listing that never ends. Unbounded, a zone offers
/// the product of each name's copies plus one: 12 cards of 12 different
/// names make 4,096 sets, 16 of 8 names in pairs 6,561.
pub const MAX_SETS: usize = 65_536;

/// What one player may see.
#[derive(Clone, Debug, PartialEq)]
pub struct View {
    pub me: PlayerId,
    pub current: Option<PlayerId>,
    /// Per zone instance (same numbering as the state).
    pub zones: Vec<ZoneView>,
    pub counters: Vec<V>,
    pub pieces: Vec<PlaceId>,
}

#[derive(Clone, Debug, PartialEq)]
pub enum ZoneView {
    Open(Vec<Option<ComponentId>>),
    /// Only how many components lie there.
    Hidden(usize),
}

impl std::ops::Index<ZoneInst> for Vec<ZoneView> {
    type Output = ZoneView;
    fn index(&self, z: ZoneInst) -> &ZoneView {
        &self[z.index()]
    }
}

/// The final score, by rule, with a total per player.
#[derive(Clone, Debug, PartialEq)]
pub struct ScoreSheet {
    /// `(rule, points per player)`; an indexed rule gives one row per place.
    pub rows: Vec<(String, Vec<i64>)>,
    pub totals: Vec<i64>,
    /// Everyone with the highest total.
    pub winners: Vec<PlayerId>,
    /// For each row of a majority rule, by the row's name: what each player
    /// has of what it measures (the standings).
    pub measures: Vec<(String, Vec<i64>)>,
}

/// A checked ruleset with everything the engine works out once for it: the
/// legality plan, the zone layout for each player count, each component's
/// back, the empty value of each attribute. Games borrow it, so setting up a
/// game or copying one (bots copy thousands) repeats none of that work.
///
/// A `Program` reads as its ruleset (`program.components`, ...).
#[derive(Debug)]
pub struct Program {
    rules: Ruleset,
    trials: TrialPlan,
    /// One per player count from the ruleset's minimum to its maximum.
    layouts: Vec<Layout>,
    /// The value an attribute reads as on a component whose kind lacks it.
    attr_empty: Vec<V>,
    /// Every component's value of every attribute, as `c.attr` reads it
    /// (`Interp::attrs`): component by component, `attr_empty.len()`
    /// each. Empty past `ATTR_TABLE` values.
    attrs: Vec<V>,
    /// Per component, which back it shows face down (components with equal
    /// numbers look alike while hidden).
    backs: Vec<u32>,
    /// Per component, which copies it is interchangeable with: components
    /// with equal numbers share group and name (`"Coin" x14`).
    likeness: Vec<u32>,
    /// Compiled rules (`crate::native`), when built with them.
    natives: Vec<crate::native::NativeFn>,
    /// Per action, its compiled precondition (`Natives::preconditions`);
    /// empty without compiled rules.
    preconditions: Vec<Option<crate::native::PreFn>>,
    /// Per action, per number of parameters bound, its compiled leading
    /// statements (`Natives::leading`); empty without compiled rules.
    leading: Vec<Vec<Option<crate::native::LeadFn>>>,
    /// Per action, its compiled search (`Natives::searches`); empty
    /// without compiled rules.
    searches: Vec<crate::native::SearchFn>,
    /// Compiled statement lists (`Natives::actions` and the rest); none
    /// without compiled rules.
    bodies: crate::native::Bodies,
    /// Per action, per parameter: its values when they are the same in
    /// every position (flags, number ranges, the places of a class).
    fixed_domains: Vec<Vec<Option<Vec<V>>>>,
    /// The most frame slots the search for legal choices binds, in any
    /// action's parameters, leading statements or steps.
    search_slots: usize,
    /// The most parameters of any action.
    most_params: usize,
    /// The parameters of all actions.
    all_params: usize,
    /// Whether some action has a `set of` parameter (whose choices carry
    /// their sets).
    chooses_sets: bool,
    /// How many let values a listing keeps for compiled code
    /// (`Natives::listing`); 0 without compiled rules.
    listing: usize,
    /// The places next to each place.
    neighbours: crate::interp::Neighbours,
    /// What each let reads of the state (for the `Memo`).
    reads: crate::interp::LetReads,
}

impl std::ops::Deref for Program {
    type Target = Ruleset;
    fn deref(&self) -> &Ruleset {
        &self.rules
    }
}

impl Program {
    pub fn new(rules: Ruleset) -> Program {
        let attr_empty: Vec<V> = AttrId::all(rules.attr_names.len())
            .map(|a| {
                let ty =
                    rules.kinds.iter().find_map(|k| k.slots.iter().find(|(id, _, _)| *id == a).map(|s| &s.1));
                match ty {
                    Some(Type::Int { .. }) => V::Int(0),
                    Some(Type::Bool) => V::Bool(false),
                    _ => V::None,
                }
            })
            .collect();
        let attrs = attr_table(&rules, &attr_empty);
        let mut back_faces: Vec<Vec<&Value>> = Vec::new();
        let backs = rules
            .components
            .iter()
            .map(|c| {
                let kind = &rules.kinds[c.kind];
                let face: Vec<&Value> =
                    kind.back.iter().filter_map(|a| kind.slot_of(*a).map(|s| &c.values[s])).collect();
                let id = back_faces.iter().position(|f| *f == face).unwrap_or_else(|| {
                    back_faces.push(face);
                    back_faces.len() - 1
                });
                id as u32
            })
            .collect();
        let (min, max) = (rules.game.min_players as usize, rules.game.max_players as usize);
        let layouts = (min..=max.max(min)).map(|n| Layout::new(&rules, n)).collect();
        let trials = TrialPlan::new(&rules);
        let mut names: std::collections::HashMap<(GroupId, &str), u32> = std::collections::HashMap::new();
        let likeness = rules
            .components
            .iter()
            .map(|c| {
                let next = names.len() as u32;
                *names.entry((c.group, c.name.as_str())).or_insert(next)
            })
            .collect();
        let fixed_domains = rules
            .actions
            .iter()
            .map(|a| a.params.iter().map(|p| fixed_domain(&rules, &p.domain)).collect())
            .collect();
        let action_slots = rules.actions.iter().map(|a| a.body.locals.max(a.params.len()));
        let search_slots =
            action_slots.chain(trials.pre.iter().flatten().map(|p| p.slots)).max().unwrap_or(0);
        let most_params = rules.actions.iter().map(|a| a.params.len()).max().unwrap_or(0);
        let all_params = rules.actions.iter().map(|a| a.params.len()).sum();
        let chooses_sets =
            rules.actions.iter().flat_map(|a| &a.params).any(|p| matches!(p.domain, ParamDomain::SetOf(_)));
        let neighbours = crate::interp::Neighbours::new(&rules);
        let reads = crate::interp::LetReads::new(&rules);
        Program {
            reads,
            neighbours,
            rules,
            trials,
            layouts,
            attr_empty,
            attrs,
            backs,
            likeness,
            natives: Vec::new(),
            preconditions: Vec::new(),
            leading: Vec::new(),
            searches: Vec::new(),
            bodies: Default::default(),
            fixed_domains,
            search_slots,
            most_params,
            all_params,
            chooses_sets,
            listing: 0,
        }
    }

    /// A program that runs compiled rules (`crate::native`) where the
    /// interpreter would walk their expressions: the same games, faster.
    /// Everything worked out from the rules (the legality plan among it)
    /// is worked out from them as written, before they are wrapped.
    /// Refused, with the reason, when the natives were generated from
    /// other rules.
    pub fn with_natives(rules: Ruleset, natives: &crate::native::Natives) -> Result<Program, String> {
        let found = crate::native::fingerprint(&rules);
        if found != natives.fingerprint {
            return Err(format!(
                "the compiled rules were made from other rules (fingerprint {:016x}, these rules {found:016x})",
                natives.fingerprint
            ));
        }
        let mut program = Program::new(rules);
        let mut next = 0u32;
        crate::native::wrap_roots(&mut program.rules, &mut next);
        crate::native::wrap_plan_roots(&mut program.trials, &mut next);
        if next as usize != natives.roots.len() {
            return Err(format!("the compiled rules have {} roots, these rules {next}", natives.roots.len()));
        }
        let actions = program.rules.actions.len();
        let procedures = program.rules.procedures.len();
        if natives.preconditions.len() != actions
            || natives.leading.len() != actions
            || natives.searches.len() != actions
            || natives.actions.len() != actions
            || natives.procedures.len() != procedures
        {
            return Err(format!(
                "the compiled rules have {} preconditions, {} lists of leading statements, {} searches, {} action bodies and {} procedures; these rules {actions} actions and {procedures} procedures",
                natives.preconditions.len(),
                natives.leading.len(),
                natives.searches.len(),
                natives.actions.len(),
                natives.procedures.len(),
            ));
        }
        program.natives = natives.roots.to_vec();
        program.preconditions = natives.preconditions.to_vec();
        program.leading = natives.leading.iter().map(|l| l.to_vec()).collect();
        program.searches = natives.searches.to_vec();
        program.listing = natives.listing;
        program.bodies = crate::native::Bodies {
            setup: Some(natives.setup),
            procedures: natives.procedures.to_vec(),
            actions: natives.actions.to_vec(),
            after_action: Some(natives.after_action),
        };
        Ok(program)
    }

    /// Whether this program runs compiled rules.
    pub fn is_compiled(&self) -> bool {
        !self.natives.is_empty()
    }

    pub fn rules(&self) -> &Ruleset {
        &self.rules
    }

    /// What a legality trial runs, per action.
    pub fn trials(&self) -> &TrialPlan {
        &self.trials
    }

    /// The layout for a player count the ruleset allows.
    pub fn layout(&self, players: usize) -> Option<&Layout> {
        let min = self.rules.game.min_players as usize;
        players.checked_sub(min).and_then(|i| self.layouts.get(i))
    }
}

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
/// parameters' domains a listing works out, `Game::domains_into`); a copy
/// of a game has none.
#[derive(Default)]
struct Spare<'p> {
    /// Boxed: a spare state goes to the game, the twin or a trial as it
    /// is taken out, a move of a pointer rather than of the state.
    #[allow(clippy::vec_box)]
    states: Vec<Box<State>>,
    lists: Vec<Vec<V>>,
    /// A listing's or a check's list of parameter domains, emptied
    /// (`Game::domains_into` fills it).
    domains: Vec<std::borrow::Cow<'p, [V]>>,
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
    /// A listing's notes of trial outcomes (`Search::monotone` and
    /// `Search::refused`), emptied.
    notes: [Keyed; 2],
}

/// The lists `Game::sets_within` fills on each call (see `SetSearch`),
/// kept from one call to the next for their allocations.
#[derive(Default)]
struct SetScratch {
    rank: Vec<(usize, usize)>,
    names: Vec<(ComponentId, usize)>,
    starts: Vec<usize>,
    copies: Vec<usize>,
    counts: Vec<usize>,
    totals: Vec<i128>,
    /// Per limit, the weight of each pool entry (`Game::weigh`).
    weights: Vec<i64>,
    /// Per limit, the largest total.
    maxes: Vec<i64>,
}

/// The sets `Game::bounded_sets` found last: from this pool, under these
/// weights and largest totals.
#[derive(Default)]
struct LastSets {
    pool: Vec<V>,
    weights: Vec<i64>,
    maxes: Vec<i64>,
    sets: crate::interp::Sets,
}

impl Clone for Spare<'_> {
    fn clone(&self) -> Self {
        Spare::default()
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
        let rules = program.rules();
        let layout = program.layout(players).ok_or_else(|| Fail::Rule {
            message: format!(
                "{} is for {} to {} players, not {players}",
                rules.game.title, rules.game.min_players, rules.game.max_players
            ),
            span: Span::default(),
        })?;
        let zones: Vec<Cells> = layout
            .instances
            .iter()
            .map(|i| match i.source {
                Ok(z) if rules.zones[z].kind == ZoneKind::Row => vec![None; rules.zones[z].slots.len()],
                Ok(_) => Vec::new(),
                Err(g) => rules.groups[g].ids().map(Some).collect(),
            })
            .map(Cells::from)
            .collect();
        let state = State {
            zones,
            counters: vec![V::None; layout.counter_instances],
            pieces: vec![PlaceId::default(); layout.piece_instances],
            arrival: (0..players as u64).rev().collect(),
            tick: players as u64,
            order: PlayerId::all(players).collect(),
            turn_seat: 0,
            rng: Box::new(ChaCha8Rng::seed_from_u64(seed)),
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
            journal: Default::default(),
        };
        let mut game = Game {
            rules,
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
        };
        let events = game.setup(record)?;
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

    fn interp(&self, record: bool) -> Interp<'_> {
        Interp {
            r: self.rules,
            lay: self.layout,
            attr_empty: &self.program.attr_empty,
            attrs: &self.program.attrs,
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
            memo.advance(reads, from, self.state.changes, &crate::interp::Parts::default(), None);
        } else {
            let next = self.current();
            let order = before.order != self.state.order;
            if let Some(changed) = reads.written(self.layout, &self.state, order, !memo.serves(next)) {
                memo.advance(reads, from, self.state.changes, &changed, Some(next));
            }
        }
    }

    /// For tests of the memo: readies it for the next listing, as that
    /// listing would, then works out afresh, without it, every let value
    /// and region it keeps: how many. `Err` names the first that differs
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
    /// allocations (`domains_into` fills them again).
    fn recycle_domains(&self, domains: &mut Vec<std::borrow::Cow<'_, [V]>>) {
        for d in domains.drain(..) {
            self.recycle_domain(d);
        }
    }

    /// One domain's list kept for the next (`recycle_domains`).
    fn recycle_domain(&self, d: std::borrow::Cow<'_, [V]>) {
        if let std::borrow::Cow::Owned(mut list) = d {
            let mut spare = self.spare.borrow_mut();
            if spare.lists.len() < SPARE_LISTS {
                list.clear();
                spare.lists.push(list);
            }
        }
    }

    fn setup(&mut self, record: bool) -> Result<Vec<Event>, Fail> {
        let mut st = State::clone(&self.state);
        let mut it = self.interp(record);
        // Counters and pieces start where the ruleset says.
        for (id, c) in self.rules.counters.iter().enumerate() {
            let id = CounterId::new(id);
            let v = it.eval(&c.init, &st, &mut Frame::new(None))?;
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
        let mut frame = Frame::new(None);
        it.run(self.program.bodies.setup, &self.rules.setup.stmts, 0, &mut st, &mut frame)?;
        let events = it.events.take().unwrap_or_default();
        st.finished = st.asks.is_empty() && self.ended(&st)?;
        *self.state = st;
        Ok(events)
    }

    fn ended(&self, st: &State) -> Result<bool, Fail> {
        Ok(self.interp(false).bool(&self.rules.end, st, &mut Frame::new(None))?)
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
        current_in(self, &self.state)
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

    /// `legal`, into `out` (emptied first; on an error, empty too).
    pub fn legal_into(&self, out: &mut Vec<Choice>) -> Result<(), Fail> {
        // The sets of the choices `out` held keep their room for the
        // choices listed now.
        if self.program.chooses_sets {
            let mut spare = self.spare.borrow_mut();
            for c in out.drain(..) {
                if c.sets.is_empty() || spare.set_rooms.len() >= SPARE_SET_ROOMS {
                    continue;
                }
                spare.set_rooms.push(c.sets.into_room());
            }
        }
        out.clear();
        self.work.set(0);
        let Some(me) = self.current() else { return Ok(()) };
        let limit = self.rules.game.max_actions;
        if self.state.actions >= limit {
            // A game that has not ended by now never will: a broken rule,
            // not a long game (bots' play-outs stop here too).
            return Err(Fail::Rule {
                message: format!(
                    "the game has not ended after {limit} actions, the most `game` allows (`actions {limit}`); \
                     check `end when` and what the actions change"
                ),
                span: self.rules.game.span,
            });
        }
        // Trials run on one copy of the state (made at the first), put back
        // before each to what that trial starts from.
        let scratch = std::cell::RefCell::new(None);
        let broken = std::cell::RefCell::new(None);
        // The search reads `self.state` only: lets are worked out once.
        self.prepare_memo(me);
        let memo = &self.memo;
        // The let values compiled code keeps for this listing, none yet.
        let mut listing = std::mem::take(&mut self.spare.borrow_mut().listing);
        listing.clear();
        listing.resize(self.program.listing, std::cell::Cell::new(None));
        let shared = std::cell::RefCell::new(SharedTrials::default());
        let [passed, refused] =
            std::mem::take(&mut self.spare.borrow_mut().notes).map(std::cell::RefCell::new);
        let asked = self.state.asks.first().map(|(_, a)| *a);
        // One frame for every action: each binds a local before it reads
        // it (the checker sees to that), so none reads another's.
        let mut frame = Frame::with_room(Some(me), std::mem::take(&mut self.spare.borrow_mut().room));
        frame.reserve(self.program.search_slots);
        frame.sets = std::mem::take(&mut self.spare.borrow_mut().sets);
        // The values bound so far, as the search goes down (the first
        // `depth` of them).
        let mut args = std::mem::take(&mut self.spare.borrow_mut().args);
        args.resize(self.program.most_params, V::None);
        let mut domains = std::mem::take(&mut self.spare.borrow_mut().domains);
        domains.reserve(self.program.all_params);
        for (id, action) in self.rules.actions.iter().enumerate() {
            let id = ActionId::new(id);
            // While an ask waits, only its action; otherwise only actions
            // of their own.
            if asked.map_or(action.asked, |a| a != id) {
                continue;
            }
            let fixed = &self.program.fixed_domains[id.index()];
            // The actions' domains one after another in one list.
            let base = domains.len();
            if let Err(f) = self.domains_into(action, Some(fixed), me, Some(memo), &mut domains) {
                note_broken(&broken, f);
                continue;
            }
            let domains = &domains[base..];
            // A set may be empty, so an empty zone still offers one.
            let no_value = action
                .params
                .iter()
                .zip(domains)
                .any(|(p, d)| d.is_empty() && !matches!(p.domain, ParamDomain::SetOf(_)));
            if no_value {
                continue;
            }
            let plan = &self.program.trials.at_level[id.index()];
            // A choice that passes the leading requirements is legal unless
            // something after the first change may still refuse it; only
            // then is each complete choice tried, running just what can
            // matter to a later `require` (see `legality`).
            let start = self.program.trials.start[id.index()];
            let trial = self.program.trials.tried[id.index()];
            let it = &Interp { memo: Some(memo), listing: &listing, ..self.interp(false) };
            let search = Search {
                id,
                action,
                plan,
                domains,
                me,
                trial,
                start,
                scratch: &scratch,
                broken: &broken,
                it,
                shared: &shared,
                monotone: self.program.trials.monotone[id.index()]
                    .as_ref()
                    .filter(|_| trial)
                    .map(|m| (m, &passed)),
                openings: &self.program.trials.openings[id.index()],
                refused: &refused,
                pre: self.program.trials.pre[id.index()].as_ref(),
                leads: match self.program.leading.get(id.index()) {
                    Some(leads) if it.trace.is_none() => leads,
                    _ => &[],
                },
            };
            refused.borrow_mut().clear();
            match self.program.searches.get(id.index()) {
                Some(walk) if it.trace.is_none() => {
                    walk(&Searcher { game: self, search: &search }, &mut frame, &mut args, out)
                }
                _ => self.enumerate(&search, &mut frame, &mut args, 0, out),
            }
        }
        if self.work.get() > MAX_WORK {
            // Some choices were not tried to the end: the list would lie.
            out.clear();
            return Err(Fail::Rule {
                message: format!(
                    "listing the legal choices took more than {MAX_WORK} steps: an action changes the state \
                     before its `require`s, so each of its combinations is tried in full, or its rules blow up"
                ),
                span: self.rules.game.span,
            });
        }
        self.recycle_domains(&mut domains);
        // What the listing worked in goes back, emptied, for the next.
        {
            let mut spare = self.spare.borrow_mut();
            spare.domains = domains;
            args.clear();
            spare.args = args;
            let mut notes = [passed.into_inner(), refused.into_inner()];
            notes.iter_mut().for_each(Keyed::clear);
            spare.notes = notes;
            frame.sets.truncate(0);
            spare.sets = std::mem::take(&mut frame.sets);
            spare.room = frame.take_room();
            spare.listing = listing;
        }
        if let Some((st, _)) = scratch.into_inner() {
            self.recycle(st);
        }
        for e in shared.into_inner().entries {
            self.recycle(e.state);
        }
        match broken.into_inner() {
            Some(f) if out.is_empty() => Err(f),
            _ => Ok(()),
        }
    }

    /// Depth-first through the parameter values: after binding parameter
    /// `k`, run the leading `require`s and `let`s that need no later
    /// parameter, and drop the whole subtree when one fails. Each complete
    /// choice that survives is tried for real. A compiled search
    /// (`native::SearchFn`) walks the same tree through [`Searcher`].
    fn enumerate(
        &self,
        search: &Search,
        frame: &mut Frame,
        args: &mut [V],
        depth: usize,
        out: &mut Vec<Choice>,
    ) {
        if !self.lead(search, depth, frame) {
            return;
        }
        let domains = search.domains;
        if depth == domains.len() {
            return self.complete(search, frame, &args[..depth], out);
        }
        let deeper =
            |f: &mut Frame, a: &mut [V], o: &mut Vec<Choice>| self.enumerate(search, f, a, depth + 1, o);
        if let ParamDomain::SetOf(_) = &search.action.params[depth].domain {
            return self.each_set(search, depth, frame, args, out, deeper);
        }
        if search.monotone.is_some_and(|(m, _)| m.param == depth) {
            return self.descending(search, depth, frame, args, out, deeper);
        }
        self.each_value(search, depth, frame, args, out, deeper)
    }

    /// A complete choice, every leading statement run on `frame`: listed
    /// when legal. A trial goes on from the first change. A smaller value
    /// of the monotone parameter than one that passed passes too; where a
    /// trial failed other than at a bound, every value fails.
    #[inline(always)]
    fn complete(&self, search: &Search, frame: &mut Frame, args: &[V], out: &mut Vec<Choice>) {
        let Search { id, trial, broken, monotone, openings, refused, pre, .. } = search;
        let (id, trial, broken, monotone) = (*id, *trial, *broken, *monotone);
        let later = |m: &legality::Monotone| &args[m.param + 1..];
        let known = monotone.and_then(|(m, found)| found.borrow().find(0, later(m)));
        if known == Some(false) {
            return;
        }
        let fails = || {
            if let Some((m, found)) = monotone {
                found.borrow_mut().push(0, later(m).iter().copied(), false);
            }
        };
        // A trial that failed at an opening requirement fails at the
        // same values of what that reads.
        let at = |k: usize| openings[k].params.iter().map(|p| args[*p]);
        if trial && known.is_none() && refused.borrow().any(|k, vals| at(k).eq(vals.iter().copied())) {
            return fails();
        }
        // The trial's steps on the state as it is, when there are and
        // they meet no rule error; otherwise the trial itself.
        let legal = !trial || known == Some(true) || {
            // What refused it: the `require` at a span, and the trial's
            // failure when a trial ran (the steps make none: their refusal
            // is only a span).
            let refusal = match pre.and_then(|p| self.stepped(search, p, frame)) {
                Some(Ok(())) => None,
                Some(Err(span)) => Some((span, None)),
                None => self.trial(search, frame).err().map(|f| (f.span(), Some(f))),
            };
            match refusal {
                None => {
                    if let Some((m, found)) = monotone {
                        found.borrow_mut().push(0, later(m).iter().copied(), true);
                    }
                    true
                }
                Some((span, failed)) => {
                    if monotone.is_some_and(|(m, _)| !m.bounds.contains(&span)) {
                        fails();
                    }
                    // A rule error is no refusal at an opening.
                    let illegal = failed.as_ref().is_none_or(|f| matches!(f, Fail::Illegal { .. }));
                    if let Some(k) = openings.iter().position(|o| o.span == span).filter(|_| illegal) {
                        refused.borrow_mut().push(k, at(k), false);
                    }
                    if let Some(f) = failed {
                        note_broken(broken, f);
                    }
                    false
                }
            }
        };
        if legal {
            if frame.sets.is_empty() {
                // Pushed empty and filled in place: one copy of the values.
                out.push(Choice::new(id, Args::new()));
                if let Some(c) = out.last_mut() {
                    c.args.fill_from(args);
                }
            } else {
                // Set values index the search's table of every candidate
                // set; a choice carries only its own.
                let chosen = args.iter().filter_map(|v| match v {
                    V::Set(j) => Some(frame.set_items(*j)),
                    _ => None,
                });
                let room = self.spare.borrow_mut().set_rooms.pop().unwrap_or_default();
                let sets = crate::ChoiceSets::from_slices_in(room, chosen);
                out.push(Choice { action: id, args: Args::new(), sets });
                if let Some(c) = out.last_mut() {
                    c.args.fill_from(args);
                    for (k, v) in c.args.iter_mut().filter(|v| matches!(v, V::Set(_))).enumerate() {
                        *v = V::Set(k as u32);
                    }
                }
            }
        }
    }

    /// Parameter `depth`, a `set of`: each candidate set bound in turn,
    /// then `deeper`. The sets are listed now that the requirements
    /// before this parameter have run: their bounds may read them.
    #[inline]
    fn each_set(
        &self,
        search: &Search,
        depth: usize,
        frame: &mut Frame,
        args: &mut [V],
        out: &mut Vec<Choice>,
        mut deeper: impl FnMut(&mut Frame, &mut [V], &mut Vec<Choice>),
    ) {
        // Only a `set of` has sets: a search is generated from the rules
        // it runs on (`Program::with_natives` checks the fingerprint).
        let ParamDomain::SetOf(e) = &search.action.params[depth].domain else { return };
        let bounds = &self.program.trials.set_bounds[search.id.index()][depth];
        let base = frame.sets.len();
        if let Err(f) = self.bounded_sets(&search.domains[depth], bounds, frame, e.span) {
            frame.sets.truncate(base);
            return note_broken(search.broken, f);
        }
        for j in base..frame.sets.len() {
            let v = V::Set(j as u32);
            frame.set(depth, v);
            args[depth] = v;
            deeper(frame, args, out);
        }
        frame.sets.truncate(base);
    }

    /// Parameter `depth`, the one the trials' outcome is monotone in:
    /// its values bound largest first, each followed by `deeper`, so
    /// that a value passing its trial spares the trials of the smaller
    /// ones; listed smallest first as always: the runs of choices per
    /// value, found in the reverse order, are put in order in place (the
    /// whole reversed, then each run). Any other parameter's values go in
    /// order (the same choices, without the savings).
    #[inline]
    fn descending(
        &self,
        search: &Search,
        depth: usize,
        frame: &mut Frame,
        args: &mut [V],
        out: &mut Vec<Choice>,
        mut deeper: impl FnMut(&mut Frame, &mut [V], &mut Vec<Choice>),
    ) {
        let Some((_, found)) = search.monotone.filter(|(m, _)| m.param == depth) else {
            return self.each_value(search, depth, frame, args, out, deeper);
        };
        found.borrow_mut().clear();
        let domain = &search.domains[depth];
        let base = out.len();
        // Where each value's choices end (a list kept for its room).
        let mut ends = std::mem::take(&mut self.spare.borrow_mut().ends);
        ends.clear();
        for v in domain.iter().rev() {
            frame.set(depth, *v);
            args[depth] = *v;
            deeper(frame, args, out);
            ends.push(out.len() - base);
        }
        let found_here = &mut out[base..];
        found_here.reverse();
        let total = found_here.len();
        let mut start = 0;
        for end in ends.iter().rev().skip(1).map(|e| total - e).chain([total]) {
            found_here[start..end].reverse();
            start = end;
        }
        self.spare.borrow_mut().ends = ends;
    }

    /// Parameter `depth`'s values bound in order, each followed by
    /// `deeper`.
    #[inline]
    fn each_value(
        &self,
        search: &Search,
        depth: usize,
        frame: &mut Frame,
        args: &mut [V],
        out: &mut Vec<Choice>,
        mut deeper: impl FnMut(&mut Frame, &mut [V], &mut Vec<Choice>),
    ) {
        for v in search.domains[depth].iter() {
            frame.set(depth, *v);
            args[depth] = *v;
            deeper(frame, args, out);
        }
    }

    /// Try a complete choice (bound in `frame`) on the search's scratch
    /// copy of the state, put back to what the trial starts from.
    fn trial(&self, search: &Search, frame: &mut Frame) -> Result<(), Fail> {
        let Search { id, action, me, start, scratch, shared, .. } = *search;
        let mut slot = scratch.borrow_mut();
        let (st, as_game) = slot.get_or_insert_with(|| {
            let mut st = self.copy_of_state();
            st.journal_from(crate::state::GAME_STATE);
            (st, true)
        });
        // The trial binds only locals declared after the leading
        // statements, which the search never reads: it may run on the
        // search's own frame.
        let result = match &self.program.trials.prefix[id.index()] {
            None => {
                if !*as_game {
                    st.restore_to(&self.state, crate::state::GAME_STATE);
                }
                self.trial_range(st, action, id, me, frame, start, true)
            }
            // Puts `st` back to the shared part's state itself.
            Some(prefix) => self.trial_after_prefix(st, action, id, me, frame, start, prefix, shared),
        };
        *as_game = false;
        result
    }

    /// Run the leading statements of the search's action once `depth`
    /// parameters are bound: their compiled function where there is one
    /// and it gives an answer, else `leading`. Whether every requirement
    /// holds.
    fn lead(&self, search: &Search, depth: usize, frame: &mut Frame) -> bool {
        let native = match search.leads.get(depth) {
            Some(Some(lead)) => lead(search.it, &self.state, frame),
            _ => Ok(None),
        };
        self.led(search, depth, frame, native)
    }

    /// Whether the leading statements at `depth` hold, given what their
    /// compiled function found (`Ok(None)`: no answer, so `leading` runs
    /// them; a rule error is noted and prunes).
    #[inline]
    fn led(&self, search: &Search, depth: usize, frame: &mut Frame, native: R<Option<bool>>) -> bool {
        match native {
            Ok(Some(pass)) => pass,
            Err(f) => {
                note_broken(search.broken, *f);
                false
            }
            Ok(None) => {
                let Search { action, plan, it, broken, .. } = search;
                self.leading(it, plan[depth].iter().map(|i| &action.body.stmts[*i]), frame, broken)
            }
        }
    }

    /// What a trial would find, from the action's precondition: its
    /// compiled function where there is one, else its steps one by one
    /// (`holds`). `None` when they give no answer (a rule error, or a
    /// part the function leaves to the interpreter).
    fn stepped(
        &self,
        search: &Search,
        pre: &legality::Precondition,
        frame: &mut Frame,
    ) -> Option<Result<(), Span>> {
        let it = search.it;
        match self.program.preconditions.get(search.id.index()) {
            Some(Some(native)) if it.trace.is_none() => native(it, &self.state, frame).ok().flatten(),
            _ => self.holds(it, &pre.steps, frame),
        }
    }

    /// What a trial would find, from a precondition's steps
    /// (`legality::Precondition`) on the state as it is: passing, or
    /// refused at the requirement at a span (a trial's failure is made
    /// only where one runs). `None` at a rule error, which the trial then
    /// meets and reports.
    fn holds(&self, it: &Interp, steps: &[legality::Step], frame: &mut Frame) -> Option<Result<(), Span>> {
        for step in steps {
            match step {
                legality::Step::Bind { slot, value, place } => {
                    let v = self.root_eval(it, value, frame).ok()?;
                    if *place && !matches!(v, V::Place(_)) {
                        return None;
                    }
                    frame.set(*slot, v);
                }
                legality::Step::Check { cond, span } => {
                    if !self.root_bool(it, cond, frame).ok()? {
                        return Some(Err(*span));
                    }
                }
                legality::Step::Branch { cond, then, otherwise } => {
                    let branch = if self.root_bool(it, cond, frame).ok()? { then } else { otherwise };
                    let outcome = self.holds(it, branch, frame)?;
                    if outcome.is_err() {
                        return Some(outcome);
                    }
                }
            }
        }
        Some(Ok(()))
    }

    /// A statement's value on the state as it is, as `Interp::eval` finds
    /// it: a compiled one through `Interp::native` straight away, past the
    /// tree walk's dispatch.
    #[inline]
    fn root_eval(&self, it: &Interp, e: &Expr, frame: &mut Frame) -> Result<V, Box<Fail>> {
        match &e.kind {
            ExprKind::Native(..) => it.native(e, &self.state, frame, <V as crate::interp::AsV>::MODE),
            _ => it.eval(e, &self.state, frame),
        }
    }

    /// A statement's yes/no, as `root_eval`. A compiled value other than
    /// yes/no is read again by `Interp::bool`, for its error. Always
    /// inlined: as a call it cost 3 M instructions in 20 interpreted games
    /// of a bundled ruleset (docs/performance.md).
    #[inline(always)]
    fn root_bool(&self, it: &Interp, e: &Expr, frame: &mut Frame) -> Result<bool, Box<Fail>> {
        if let ExprKind::Native(..) = e.kind {
            if let V::Bool(b) = it.native(e, &self.state, frame, <bool as crate::interp::AsV>::MODE)? {
                return Ok(b);
            }
        }
        it.bool(e, &self.state, frame)
    }

    /// Run leading `let`s and `require`s on the state as it is: whether
    /// every `require` holds. As `Interp::pure`, but a failing `require`
    /// only prunes: no reason is built for the thousands of combinations
    /// ruled out. A rule error is noted and prunes too.
    fn leading<'s>(
        &self,
        it: &Interp,
        stmts: impl Iterator<Item = &'s Stmt>,
        frame: &mut Frame,
        broken: &std::cell::RefCell<Option<Fail>>,
    ) -> bool {
        for stmt in stmts {
            match &stmt.kind {
                StmtKind::Require { cond, .. } => match self.root_bool(it, cond, frame) {
                    Ok(true) => {}
                    Ok(false) => return false,
                    Err(f) => {
                        note_broken(broken, *f);
                        return false;
                    }
                },
                StmtKind::Let { slot, value } => match self.root_eval(it, value, frame) {
                    Ok(v) => frame.set(*slot, v),
                    Err(f) => {
                        note_broken(broken, *f);
                        return false;
                    }
                },
                _ => {}
            }
        }
        true
    }

    /// The sets of `pool` (as `sets_of`) that keep the bounds: each bound's
    /// right side and the weights are read in `frame`. A weight below 0
    /// drops that bound (a larger set could then weigh less).
    fn bounded_sets(
        &self,
        pool: &[V],
        bounds: &[SetBound],
        frame: &mut Frame,
        span: model::Span,
    ) -> Result<(), Fail> {
        // The lists of the last call (each cleared before use).
        let mut scratch = self.spare.borrow_mut().set_search.take().unwrap_or_default();
        let found = self.weigh(pool, bounds, frame, &mut scratch).and_then(|()| {
            // The sets depend only on the pool and the limits: the same as
            // one of the last two calls' (another action choosing from the
            // same hand: one listing of Archaeology chooses from the hand
            // without a limit, with one, then without again), they are
            // copied.
            let same =
                |l: &LastSets| l.pool == pool && l.weights == scratch.weights && l.maxes == scratch.maxes;
            if let Some(hit) = self.spare.borrow().last_sets.iter().find(|l| same(l)) {
                frame.sets.extend_from(&hit.sets, 0);
                return Ok(());
            }
            let base = frame.sets.len();
            self.sets_within(pool, span, &mut scratch, &mut frame.sets)?;
            // The older of the two makes room.
            let mut spare = self.spare.borrow_mut();
            spare.last_sets.swap(0, 1);
            let last = &mut spare.last_sets[0];
            last.pool.clear();
            last.pool.extend_from_slice(pool);
            last.weights.clone_from(&scratch.weights);
            last.maxes.clone_from(&scratch.maxes);
            last.sets.clear();
            last.sets.extend_from(&frame.sets, base);
            Ok(())
        });
        self.spare.borrow_mut().set_search = Some(scratch);
        found
    }

    /// Each bound's largest total and the weight of each pool entry under
    /// it, into `scratch` (`maxes`, `weights`, one run of the pool's
    /// length per bound), read in `frame`.
    fn weigh(
        &self,
        pool: &[V],
        bounds: &[SetBound],
        frame: &mut Frame,
        scratch: &mut SetScratch,
    ) -> Result<(), Fail> {
        let it = self.interp(false);
        let SetScratch { weights, maxes, .. } = scratch;
        weights.clear();
        maxes.clear();
        for b in bounds {
            let rhs = it.int(&b.rhs, &self.state, frame).map_err(|f| *f)?;
            let start = weights.len();
            match &b.weight {
                None => weights.resize(start + pool.len(), 1),
                Some((w, var)) => {
                    for v in pool {
                        frame.set(*var, *v);
                        weights.push(it.int(w, &self.state, frame).map_err(|f| *f)?);
                    }
                }
            }
            if weights[start..].iter().all(|w| *w >= 0) {
                maxes.push(if b.strict { rhs.saturating_sub(1) } else { rhs });
            } else {
                weights.truncate(start);
            }
        }
        Ok(())
    }

    /// The values each parameter of an action may take now.
    pub fn domains(&self, action: &Action, me: PlayerId) -> Result<Vec<Vec<V>>, Fail> {
        self.work.set(0);
        let mut domains = Vec::new();
        self.domains_into(action, None, me, None, &mut domains)?;
        Ok(domains.into_iter().map(std::borrow::Cow::into_owned).collect())
    }

    /// `domains`, after what `out` holds, within a call that counts its
    /// own work; with the game's memo when the caller prepared it for this
    /// state and `me`. Values fixed for the ruleset are borrowed from
    /// `fixed` (the program's for this action) when given.
    fn domains_into(
        &self,
        action: &Action,
        fixed: Option<&'p [Option<Vec<V>>]>,
        me: PlayerId,
        memo: Option<&std::cell::RefCell<Memo>>,
        out: &mut Vec<std::borrow::Cow<'p, [V]>>,
    ) -> Result<(), Fail> {
        for (k, p) in action.params.iter().enumerate() {
            let d = self.domain(p, fixed.and_then(|f| f.get(k)?.as_deref()), me, memo)?;
            out.push(d);
        }
        Ok(())
    }

    /// One parameter's domain (`domains_into`): `fixed`, its values when
    /// they never change, borrowed; otherwise a list worked out now.
    #[inline(always)]
    fn domain(
        &self,
        p: &model::Param,
        fixed: Option<&'p [V]>,
        me: PlayerId,
        memo: Option<&std::cell::RefCell<Memo>>,
    ) -> Result<std::borrow::Cow<'p, [V]>, Fail> {
        use std::borrow::Cow;
        if let Some(values) = fixed {
            return Ok(Cow::Borrowed(values));
        }
        // Filled in a list an earlier listing worked out, when there is.
        let mut list = self.spare.borrow_mut().lists.pop().unwrap_or_default();
        match &p.domain {
            ParamDomain::Type(Type::Player) => list.extend(PlayerId::all(self.layout.players).map(V::Player)),
            ParamDomain::Type(_) => list.extend(fixed_domain(self.rules, &p.domain).unwrap_or_default()),
            // A set's domain here is what it is chosen from; `legal`
            // lists the sets (`bounded_sets`).
            ParamDomain::In(e) | ParamDomain::SetOf(e) => {
                let z = self.param_zone(e, me, memo)?;
                // At most as many as the zone's slots, growing at most once.
                let cells = &self.state.zones[z];
                list.reserve(cells.len());
                list.extend(cells.iter().flatten().map(|c| V::Card(*c)));
            }
            ParamDomain::Among(_, e) => {
                let it = Interp { memo, ..self.interp(false) };
                let places = it.places_of(e, &self.state, &mut Frame::new(Some(me)))?;
                list.extend(places.iter().map(|p| V::Place(*p)));
            }
        }
        Ok(Cow::Owned(list))
    }

    /// The zone a parameter `in` or `set of` chooses from: a zone of no
    /// one's or `me`'s, at no place, as `Interp::zone_inst` finds it,
    /// without an interpreter; any other, the interpreter's.
    #[inline(always)]
    fn param_zone(
        &self,
        e: &Expr,
        me: PlayerId,
        memo: Option<&std::cell::RefCell<Memo>>,
    ) -> Result<ZoneInst, Fail> {
        if let ExprKind::Zone { zone, player, index: None } = &e.kind {
            match player.as_deref() {
                None => return Ok(self.layout.zone(*zone, None, None)),
                Some(Expr { kind: ExprKind::Me, .. }) => return Ok(self.layout.zone(*zone, Some(me), None)),
                Some(_) => {}
            }
        }
        let it = Interp { memo, ..self.interp(false) };
        Ok(it.zone_inst(e, &self.state, &mut Frame::new(Some(me)))?)
    }

    /// Whether two components are copies of one (same group and name), so
    /// that a set may hold either.
    pub fn alike(&self, a: ComponentId, b: ComponentId) -> bool {
        self.program.likeness[a.index()] == self.program.likeness[b.index()]
    }

    /// Every set that can be chosen from `pool` (the components of a zone,
    /// in the order they lie): for each name, the first k of its copies,
    /// for every k from none to all. The empty set comes first, then sets
    /// in order of the counts, the first name's counting fastest.
    pub fn sets_of(&self, pool: &[V], span: model::Span) -> Result<Vec<Vec<ComponentId>>, Fail> {
        let mut sets = crate::interp::Sets::default();
        self.sets_within(pool, span, &mut SetScratch::default(), &mut sets)?;
        Ok(sets.iter().map(<[ComponentId]>::to_vec).collect())
    }

    /// `sets_of`, leaving out each set whose total weight passes a limit:
    /// `scratch`'s `maxes`, each with a run of `weights`, one per pool
    /// entry (0 or more). The search grows a set one name at a time and
    /// stops growing it at the first limit passed, so its work follows the
    /// sets listed, not every subset of the pool. The sets go after those
    /// in `out`; more than `MAX_SETS` listed is a rule error.
    fn sets_within(
        &self,
        pool: &[V],
        span: model::Span,
        scratch: &mut SetScratch,
        out: &mut crate::interp::Sets,
    ) -> Result<(), Fail> {
        let SetScratch { rank, names, starts, copies, counts, totals, weights, maxes, .. } = scratch;
        // Per pool entry: its name (numbered in the order names first
        // appear) and its place among that name's copies (a set of counts
        // holds the copies ranked below each count).
        rank.clear();
        rank.resize(pool.len(), (0, usize::MAX));
        // Each name's first copy and how many copies it has.
        names.clear();
        for (i, v) in pool.iter().enumerate() {
            let V::Card(c) = v else { continue };
            match names.iter().position(|(first, _)| self.alike(*first, *c)) {
                Some(k) => {
                    rank[i] = (k, names[k].1);
                    names[k].1 += 1;
                }
                None => {
                    rank[i] = (names.len(), 0);
                    names.push((*c, 1));
                }
            }
        }
        // Each name's copies (as pool indexes), name after name: name k's
        // are `copies[starts[k]..starts[k + 1]]`.
        starts.clear();
        let mut at = 0;
        for (_, n) in names.iter() {
            starts.push(at);
            at += n;
        }
        starts.push(at);
        copies.clear();
        copies.resize(at, 0);
        for (i, (k, r)) in rank.iter().enumerate() {
            if *r != usize::MAX {
                copies[starts[*k] + r] = i;
            }
        }
        counts.clear();
        counts.resize(names.len(), 0);
        totals.clear();
        totals.resize(maxes.len(), 0);
        let mut search = SetSearch {
            pool,
            rank,
            starts,
            copies,
            weights,
            maxes,
            counts,
            totals,
            chosen: 0,
            base: out.len(),
            out,
        };
        let fits = search.run();
        let name_count = names.len();
        if !fits {
            return Err(Fail::Rule {
                message: format!(
                    "{} components of {name_count} different names make more than {MAX_SETS} sets to choose from",
                    pool.len()
                ),
                span,
            });
        }
        Ok(())
    }

    /// Run a choice on a copy of the state: the copy afterwards, or why not.
    fn try_choice(&self, choice: &Choice, me: PlayerId) -> Result<(Box<State>, Vec<Event>), Fail> {
        self.try_on(choice, me, false, None, false)
    }

    /// Run a choice on a copy of the state (see `run_from`; `applied`:
    /// the copy becomes the game's state).
    fn try_on(
        &self,
        choice: &Choice,
        me: PlayerId,
        record: bool,
        trace: Option<&std::cell::RefCell<Vec<Traced>>>,
        applied: bool,
    ) -> Result<(Box<State>, Vec<Event>), Fail> {
        let action = self
            .rules
            .actions
            .get(choice.action.index())
            .ok_or_else(|| Fail::Illegal { reason: "no such action".into(), span: model::Span::default() })?;
        let (room, sets) = {
            let mut spare = self.spare.borrow_mut();
            (std::mem::take(&mut spare.room), std::mem::take(&mut spare.sets))
        };
        let mut frame = Frame::with_sets_in(room, sets, Some(me), &choice.args, &choice.sets);
        frame.reserve(action.body.locals);
        // Most refused choices fail on a `require` before anything
        // changes: the interpreter finds out on the real state, without
        // copying it. Lets called there are worked out once, as in the
        // search (unless each call is traced).
        self.prepare_memo(me);
        let mut it = Interp { trace, memo: trace.is_none().then_some(&self.memo), ..self.interp(record) };
        // A compiled body runs its leading statements itself, on the copy
        // (equal to the state until its first change).
        let compiled = trace.is_none() && !self.program.bodies.actions.is_empty();
        let start = if compiled { 0 } else { it.probe(&action.body.stmts, &self.state, &mut frame)? };
        self.run_from(&mut it, choice.action, me, frame, start, applied)
    }

    /// Run an action's body from statement `start` on (those before it
    /// changed nothing and left their lets in `frame`) on a copy of the
    /// state, then `after action`, the turn bookkeeping and the end check.
    /// The copy is the one to apply (`copy_to_apply`) when `applied`: the
    /// caller makes it the game's state.
    fn run_from(
        &self,
        it: &mut Interp,
        id: ActionId,
        me: PlayerId,
        mut frame: Frame,
        start: usize,
        applied: bool,
    ) -> Result<(Box<State>, Vec<Event>), Fail> {
        let action = &self.rules.actions[id];
        let mut st = if applied { self.copy_to_apply() } else { self.copy_of_state() };
        if action.asked {
            // The ask this answers; asks the body makes queue behind the rest.
            st.asks.remove(0);
            it.memo = None;
        }
        let bodies = &self.program.bodies;
        let compiled = bodies.actions.get(id.index()).copied();
        it.run(compiled, &action.body.stmts, start, &mut st, &mut frame)?;
        {
            let mut spare = self.spare.borrow_mut();
            spare.room = frame.take_room();
            frame.sets.truncate(0);
            spare.sets = std::mem::take(&mut frame.sets);
        }
        let mut hook = Frame::new(Some(me));
        it.run(bodies.after_action, &self.rules.after_action.stmts, 0, &mut st, &mut hook)?;
        match self.rules.turns {
            TurnPolicy::LowestCounter(c) => {
                // Whoever moved lands on top of the stack: others first,
                // the acting player last.
                let others = PlayerId::all(self.players()).filter(|p| *p != me);
                for p in others.chain([me]) {
                    if self.turn_value(&st, c, p) != self.turn_value(&self.state, c, p) {
                        st.tick += 1;
                        st.arrival[p.index()] = st.tick;
                    }
                }
            }
            TurnPolicy::Clockwise { until_end_turn } => {
                // An answer to an ask is not a turn of its own; `end turn`
                // ends the turn whoever runs it.
                if st.turn_ended || (!until_end_turn && !action.asked) {
                    st.turn_seat = (st.turn_seat + 1) % self.players();
                }
            }
        }
        st.turn_ended = false;
        st.actions += 1;
        // Questions asked are part of the action that asked them: the game
        // ends only once every one is answered.
        st.finished = st.asks.is_empty() && self.ended(&st)?;
        Ok((st, it.events.take().unwrap_or_default()))
    }

    /// Whether a complete choice passes the requirements after the body's
    /// first change: on `st`, a copy of the state, run from `start` only the
    /// statements of the body and of `after action` that can matter to a
    /// `require` (`legality::TrialPlan`). With `fresh`, `st` is the state
    /// as the search reads it (so the let memo holds until the first
    /// change); otherwise a shared first part has already run on it.
    #[allow(clippy::too_many_arguments)]
    fn trial_range(
        &self,
        st: &mut State,
        action: &Action,
        id: ActionId,
        me: PlayerId,
        frame: &mut Frame,
        start: usize,
        fresh: bool,
    ) -> Result<(), Fail> {
        let memo = fresh.then_some(&self.memo);
        let mut it = Interp { reasons: false, memo, ..self.interp(false) };
        let body = action.body.stmts.iter().zip(&self.program.trials.body[id.index()]).skip(start);
        for (s, keep) in body {
            if *keep {
                it.exec(std::slice::from_ref(s), st, frame)?;
            }
        }
        let mut hook = Frame::new(Some(me));
        for (s, keep) in self.rules.after_action.stmts.iter().zip(&self.program.trials.hook[id.index()]) {
            if *keep {
                it.exec(std::slice::from_ref(s), st, &mut hook)?;
            }
        }
        Ok(())
    }

    /// A trial whose first part (`legality::TrialPrefix`) several choices
    /// share: that part runs once per value of the locals it reads, on a
    /// state kept in `shared`; `st` (the scratch, whatever it holds)
    /// becomes a copy of it, and the rest runs there.
    #[allow(clippy::too_many_arguments)]
    fn trial_after_prefix(
        &self,
        st: &mut State,
        action: &Action,
        id: ActionId,
        me: PlayerId,
        frame: &mut Frame,
        start: usize,
        prefix: &legality::TrialPrefix,
        shared: &std::cell::RefCell<SharedTrials>,
    ) -> Result<(), Fail> {
        let mut shared = shared.borrow_mut();
        let key = |e: &SharedTrial| {
            e.action == id && prefix.key.iter().zip(&e.key).all(|(s, v)| frame.get(*s) == *v)
        };
        let at = match shared.entries.iter().position(key) {
            Some(at) => at,
            None => {
                // Run the shared part on a state of its own: a new one, or
                // the oldest kept (two are kept).
                let mut entry = if shared.entries.len() < SHARED_TRIALS {
                    SharedTrial {
                        id: 0,
                        action: id,
                        key: Vec::new(),
                        outcome: Ok(()),
                        state: self.copy_of_state(),
                    }
                } else {
                    let mut e = shared.entries.remove(0);
                    e.state.restore(&self.state);
                    e
                };
                shared.next += 1;
                entry.id = shared.next;
                entry.action = id;
                entry.key.clear();
                entry.key.extend(prefix.key.iter().map(|s| frame.get(*s)));
                let mut it = Interp { reasons: false, memo: Some(&self.memo), ..self.interp(false) };
                let keep = &self.program.trials.body[id.index()];
                entry.outcome = (start..prefix.split)
                    .filter(|i| keep[*i])
                    .try_for_each(|i| {
                        it.exec(std::slice::from_ref(&action.body.stmts[i]), &mut entry.state, frame)
                    })
                    .map_err(|f| *f);
                shared.entries.push(entry);
                shared.entries.len() - 1
            }
        };
        let entry = &shared.entries[at];
        entry.outcome.clone()?;
        st.restore_to(&entry.state, entry.id);
        self.trial_range(st, action, id, me, frame, prefix.split, false)
    }

    /// Whether a choice is legal now, and if not, why.
    pub fn check(&self, choice: &Choice) -> Result<(), Fail> {
        self.work.set(0);
        let me = self.current().ok_or_else(|| Fail::Illegal {
            reason: "the game is over".into(),
            span: model::Span::default(),
        })?;
        self.valid_args(choice, me)?;
        self.try_choice(choice, me).map(|_| ())
    }

    fn valid_args(&self, choice: &Choice, me: PlayerId) -> Result<(), Fail> {
        let illegal = |reason: String| Fail::Illegal { reason, span: model::Span::default() };
        let action =
            self.rules.actions.get(choice.action.index()).ok_or_else(|| illegal("no such action".into()))?;
        match self.state.asks.first() {
            Some((p, a)) if *a != choice.action => {
                let name = &self.rules.actions[*a].name;
                return Err(illegal(format!("{p} is asked to `{name}` first")));
            }
            None if action.asked => {
                return Err(illegal(format!("`{}` is taken only when a rule asks for it", action.name)));
            }
            _ => {}
        }
        if action.params.len() != choice.args.len() {
            return Err(illegal(format!("`{}` takes {} choices", action.name, action.params.len())));
        }
        // What the listing worked out on this state serves here too.
        self.prepare_memo(me);
        let fixed = &self.program.fixed_domains[choice.action.index()];
        let memo = Some(&self.memo);
        for (k, (p, a)) in action.params.iter().zip(&choice.args).enumerate() {
            let fixed = fixed.get(k).and_then(Option::as_deref);
            let fits = match (&p.domain, a) {
                (ParamDomain::SetOf(_), V::Set(i)) => {
                    let d = self.domain(p, fixed, me, memo)?;
                    let fits = choice.sets.get(*i as usize).is_some_and(|set| self.is_set_of(&d, set));
                    self.recycle_domain(d);
                    fits
                }
                (ParamDomain::SetOf(_), _) | (_, V::Set(_)) => false,
                // A number of a range and a yes/no, without their list.
                (ParamDomain::Type(Type::Int { lo: Some(lo), hi: Some(hi) }), V::Int(n)) => {
                    (*lo..=*hi).contains(n)
                }
                (ParamDomain::Type(Type::Bool), V::Bool(_)) => true,
                // A component is looked for in its zone, without a list.
                (ParamDomain::In(e), _) => match a {
                    V::Card(c) => self.state.zones[self.param_zone(e, me, memo)?].contains(&Some(*c)),
                    _ => false,
                },
                // Fixed values as they are; places among a region listed.
                _ => {
                    let d = self.domain(p, fixed, me, memo)?;
                    let fits = d.contains(a);
                    self.recycle_domain(d);
                    fits
                }
            };
            if !fits {
                return Err(illegal(format!("`{}` cannot be that now", p.name)));
            }
        }
        Ok(())
    }

    /// Whether `set` is one of the sets `sets_of(pool)` lists: components
    /// of the pool in its order, each name's first copies.
    fn is_set_of(&self, pool: &[V], set: &[ComponentId]) -> bool {
        // Going through the pool in order: a component whose name the set
        // holds more copies of than it has met so far is the set's next.
        // Nothing allocated (a step of a choice with a set checks it).
        let mut next = 0;
        for v in pool {
            let V::Card(c) = v else { continue };
            let (mut held, mut met) = (0, 0);
            for (k, s) in set.iter().enumerate() {
                if self.alike(*s, *c) {
                    held += 1;
                    met += usize::from(k < next);
                }
            }
            if met < held {
                if set.get(next) != Some(c) {
                    return false;
                }
                next += 1;
            }
        }
        next == set.len()
    }

    /// What a choice would do, without doing it: the events of a trial run
    /// on a copy. Draws from hidden zones appear here with the components'
    /// names: a caller showing a preview to a player must show only what
    /// that player may see (how many, from where).
    pub fn preview(&self, choice: &Choice) -> Result<Vec<Event>, Fail> {
        self.work.set(0);
        let me = self.current().ok_or_else(|| Fail::Illegal {
            reason: "the game is over".into(),
            span: model::Span::default(),
        })?;
        self.valid_args(choice, me)?;
        self.try_on(choice, me, true, None, false).map(|(_, events)| events)
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

    /// `apply`, noting every let called and table entry read on the way,
    /// with its value (for `explain`).
    pub fn apply_traced(&mut self, choice: &Choice) -> Result<(Vec<Event>, Vec<Traced>), Fail> {
        let trace = std::cell::RefCell::new(Vec::new());
        let events = self.apply_with(choice, true, Some(&trace))?;
        Ok((events, trace.into_inner()))
    }

    fn apply_recording(&mut self, choice: &Choice, record: bool) -> Result<Vec<Event>, Fail> {
        self.apply_with(choice, record, None)
    }

    fn apply_with(
        &mut self,
        choice: &Choice,
        record: bool,
        trace: Option<&std::cell::RefCell<Vec<Traced>>>,
    ) -> Result<Vec<Event>, Fail> {
        self.work.set(0);
        let me = self.current().ok_or_else(|| Fail::Illegal {
            reason: "the game is over".into(),
            span: model::Span::default(),
        })?;
        self.valid_args(choice, me)?;
        let (st, events) = self.try_on(choice, me, record, trace, true)?;
        let from = self.state.changes;
        let mut before = self.state.replace(st);
        self.advance_memo(from, &before);
        // The state replaced is what the new one was copied from: brought
        // up to date by what the action wrote, it is the next copy.
        if before.catch_up(&self.state) {
            *self.twin.borrow_mut() = Twin(Some((self.state.changes, before)));
        } else {
            self.recycle(before);
        }
        // Not through `DerefMut`: the state has not changed.
        self.state.state.journal_off();
        Ok(events)
    }

    /// What `player` may see.
    pub fn view(&self, player: PlayerId) -> View {
        let zones = self
            .layout
            .zone_insts()
            .map(|i| {
                if self.visible_to(i, player) {
                    ZoneView::Open(self.state.zones[i].to_vec())
                } else {
                    ZoneView::Hidden(self.state.count(i))
                }
            })
            .collect();
        View {
            me: player,
            current: self.current(),
            zones,
            counters: self.state.counters.clone(),
            pieces: self.state.pieces.clone(),
        }
    }

    /// Whether `viewer` may see what lies in a zone instance.
    pub fn visible_to(&self, inst: ZoneInst, viewer: PlayerId) -> bool {
        let i = self.layout.instance(inst);
        match i.source {
            Ok(z) => match self.rules.zones[z].visibility {
                Visibility::All => true,
                Visibility::Owner => i.player == Some(viewer),
                Visibility::Nobody => false,
            },
            Err(_) => false,
        }
    }

    /// The back a component shows face down (see `Kind::back`).
    pub fn back_of(&self, c: ComponentId) -> u32 {
        self.program.backs[c.index()]
    }

    /// A copy of the game as `viewer` could imagine it: every component
    /// `viewer` cannot see is dealt at random (from `rng`) among the hidden
    /// places showing the same back (`on back` attributes), keeping how many
    /// each holds, and the chance to come is reseeded from `rng`. The result
    /// depends only on what `viewer` may know (counts and backs), never on
    /// where the hidden components really are: a bot that plans on samples
    /// cannot peek.
    pub fn sample_for(&self, viewer: PlayerId, rng: &mut impl rand::Rng) -> Game<'p> {
        let mut g = self.clone();
        let hidden: Vec<ZoneInst> =
            self.layout.zone_insts().filter(|i| !self.visible_to(*i, viewer)).collect();
        let mut pool: Vec<ComponentId> = hidden.iter().flat_map(|i| g.state.cards(*i)).collect();
        // Sort first, so the deal depends on which components are hidden,
        // not on where they lie; then shuffle and deal each back's
        // components into the slots that show that back.
        pool.sort_unstable();
        shuffle(&mut pool, rng);
        let mut by_back: Vec<Vec<ComponentId>> = Vec::new();
        for c in pool {
            let b = self.program.backs[c.index()] as usize;
            if by_back.len() <= b {
                by_back.resize(b + 1, Vec::new());
            }
            by_back[b].push(c);
        }
        for i in hidden {
            for slot in g.state.zones[i].iter_mut() {
                if let Some(c) = *slot {
                    *slot = by_back[self.program.backs[c.index()] as usize].pop();
                }
            }
        }
        *g.state.rng = ChaCha8Rng::seed_from_u64(rng.gen());
        g
    }

    /// Evaluate an expression for a player (for displays and tests).
    pub fn eval(&self, e: &Expr, me: Option<PlayerId>, locals: Vec<V>) -> Result<V, Fail> {
        self.work.set(0);
        let mut f = Frame::with(me, &locals);
        Ok(self.interp(false).eval(e, &self.state, &mut f)?)
    }

    /// Call a let by name with arguments, as a player.
    pub fn call_let(&self, name: &str, me: Option<PlayerId>, args: Vec<V>) -> Option<Result<V, Fail>> {
        let l = self.rules.lets.iter().find(|l| l.name == name)?;
        let mut locals = args;
        locals.resize(l.locals.max(locals.len()), V::None);
        Some(self.eval(&l.body, me, locals))
    }

    /// The score by rule, as things stand.
    pub fn scores(&self) -> Result<ScoreSheet, Fail> {
        self.scores_with(None)
    }

    /// `scores`, noting every let called and table entry read (`explain`).
    pub fn scores_traced(&self) -> Result<(ScoreSheet, Vec<Traced>), Fail> {
        let trace = std::cell::RefCell::new(Vec::new());
        let sheet = self.scores_with(Some(&trace))?;
        Ok((sheet, trace.into_inner()))
    }

    fn scores_with(&self, trace: Option<&std::cell::RefCell<Vec<Traced>>>) -> Result<ScoreSheet, Fail> {
        self.work.set(0);
        let n = self.players();
        let it = Interp { trace, ..self.interp(false) };
        let mut rows = Vec::new();
        let mut measures = Vec::new();
        for s in &self.rules.scores {
            let indexes: Vec<Option<PlaceId>> = match s.index {
                Some(c) => self.rules.classes[c].places.iter().map(|p| Some(*p)).collect(),
                None => vec![None],
            };
            for index in indexes {
                let name = match index {
                    Some(p) => format!("{}[{}]", s.name, self.rules.places[p].name),
                    None => s.name.clone(),
                };
                let frame = |me: PlayerId| {
                    let mut f = Frame::new(Some(me));
                    if let Some(p) = index {
                        f.set(0, V::Place(p));
                    }
                    f
                };
                let points = match &s.form {
                    ScoreForm::Expr(e) => {
                        let mut v = Vec::with_capacity(n);
                        for p in PlayerId::all(n) {
                            v.push(it.int(e, &self.state, &mut frame(p))?);
                        }
                        v
                    }
                    ScoreForm::Majority { measure, alone, tied, minimum } => {
                        let mut m = Vec::with_capacity(n);
                        for p in PlayerId::all(n) {
                            m.push(it.int(measure, &self.state, &mut frame(p))?);
                        }
                        let first = PlayerId::new(0);
                        let alone = it.int(alone, &self.state, &mut frame(first))?;
                        let tied = it.int(tied, &self.state, &mut frame(first))?;
                        let minimum = it.int(minimum, &self.state, &mut frame(first))?;
                        let best = m.iter().copied().max().unwrap_or(0);
                        let leaders = m.iter().filter(|x| **x == best).count();
                        let points = m
                            .iter()
                            .map(|x| {
                                if *x != best || best < minimum {
                                    0
                                } else if leaders == 1 {
                                    alone
                                } else {
                                    tied
                                }
                            })
                            .collect();
                        measures.push((name.clone(), m));
                        points
                    }
                };
                rows.push((name, points));
            }
        }
        let totals: Vec<i64> = (0..n).map(|p| rows.iter().map(|(_, v)| v[p]).sum()).collect();
        let best = totals.iter().copied().max().unwrap_or(0);
        let mut winners: Vec<PlayerId> = PlayerId::all(n).filter(|p| totals[p.index()] == best).collect();
        // Each tiebreak key in turn keeps the tied players who do best on it.
        for key in &self.rules.tiebreaks {
            if winners.len() < 2 {
                break;
            }
            let mut values = Vec::with_capacity(winners.len());
            for p in &winners {
                let mut f = Frame::new(Some(*p));
                values.push(it.int(&key.by, &self.state, &mut f)?);
            }
            let target = if key.lowest { values.iter().min() } else { values.iter().max() };
            let target = target.copied().unwrap_or(0);
            winners = winners.into_iter().zip(values).filter(|(_, v)| *v == target).map(|(p, _)| p).collect();
        }
        Ok(ScoreSheet { rows, totals, winners, measures })
    }
}

/// The search for sets within limits (`Game::sets_within`): the counts of
/// the names, counted like an odometer whose first name changes fastest
/// (`run`).
struct SetSearch<'a> {
    pool: &'a [V],
    /// Per pool entry: (its name, its rank among the copies).
    rank: &'a [(usize, usize)],
    /// Name `k`'s copies (as pool indexes) are
    /// `copies[starts[k]..starts[k + 1]]`.
    starts: &'a [usize],
    copies: &'a [usize],
    /// Per limit, a weight per pool entry (limit `j`'s at
    /// `j * pool.len()..`), and the largest total.
    weights: &'a [i64],
    maxes: &'a [i64],
    counts: &'a mut [usize],
    /// Per limit, the weight of the copies counted.
    totals: &'a mut [i128],
    /// Each set's components in the order they lie, after the first
    /// `base` sets.
    out: &'a mut crate::interp::Sets,
    base: usize,
    /// The pool entries chosen so far, one bit each, when the pool has at
    /// most 64 (`SMALL_POOL`).
    chosen: u64,
}

/// A pool of at most this many entries keeps the set being grown as bits
/// (`SetSearch::chosen`).
const SMALL_POOL: usize = 64;

impl SetSearch<'_> {
    /// The set the counts make, its components in the order they lie in
    /// the pool, after the others; false past `MAX_SETS`.
    fn emit(&mut self) -> bool {
        if self.pool.len() <= SMALL_POOL {
            let (mut bits, pool) = (self.chosen, self.pool);
            self.out.push_with(|items| {
                while bits != 0 {
                    if let V::Card(c) = pool[bits.trailing_zeros() as usize] {
                        items.push(c);
                    }
                    bits &= bits - 1;
                }
            });
        } else {
            let counts = &self.counts;
            let set = self.pool.iter().zip(self.rank).filter_map(|(v, (k, r))| match v {
                V::Card(c) if *r < counts[*k] => Some(*c),
                _ => None,
            });
            self.out.push(set);
        }
        self.out.len() - self.base <= MAX_SETS
    }

    /// Every set within the limits, in order: the counts of the names
    /// go up like an odometer, the first name's fastest; a name whose
    /// next copy would pass a limit (with the names before it at none) or
    /// that has none left goes back to none and the next name counts one
    /// more. The weights are not below 0 (`Game::weigh`), so a count that
    /// passes a limit with the names before it at none passes it with any
    /// of them: the sets are those of growing each name in turn, in the
    /// same order. False when more than `MAX_SETS` sets were found.
    fn run(&mut self) -> bool {
        let (names, size, small) = (self.counts.len(), self.pool.len(), self.pool.len() <= SMALL_POOL);
        loop {
            if !self.emit() {
                return false;
            }
            let mut j = 0;
            loop {
                if j == names {
                    return true;
                }
                let copies = &self.copies[self.starts[j]..self.starts[j + 1]];
                let n = self.counts[j];
                if let Some(&i) = copies.get(n) {
                    // Exact totals: a sum of weights fits in 128 bits.
                    let weights = self.weights.chunks_exact(size.max(1));
                    let fits = self
                        .totals
                        .iter()
                        .zip(weights.clone())
                        .zip(self.maxes)
                        .all(|((t, w), max)| t + i128::from(w[i]) <= i128::from(*max));
                    if fits {
                        for (t, w) in self.totals.iter_mut().zip(weights) {
                            *t += i128::from(w[i]);
                        }
                        self.counts[j] = n + 1;
                        if small {
                            self.chosen |= 1 << i;
                        }
                        break;
                    }
                }
                // Back to none: this name's copies leave the totals.
                for &i in &copies[..n] {
                    for (t, w) in self.totals.iter_mut().zip(self.weights.chunks_exact(size.max(1))) {
                        *t -= i128::from(w[i]);
                    }
                    if small {
                        self.chosen &= !(1 << i);
                    }
                }
                self.counts[j] = 0;
                j += 1;
            }
        }
    }
}

/// One action's parameter search (see `Game::enumerate`).
#[derive(Clone, Copy)]
struct Search<'a> {
    id: ActionId,
    action: &'a Action,
    /// Per number of bound parameters, the leading statements to run.
    plan: &'a [Vec<usize>],
    domains: &'a [std::borrow::Cow<'a, [V]>],
    me: PlayerId,
    /// Whether complete choices must be tried: something after the first
    /// change may refuse them.
    trial: bool,
    /// The body's first statement that changes the state.
    start: usize,
    /// A copy of the state for trials, and whether it is still equal to
    /// the game's (each trial puts it back to what it starts from).
    scratch: &'a std::cell::RefCell<Option<(Box<State>, bool)>>,
    /// The first rule error met while trying choices.
    broken: &'a std::cell::RefCell<Option<Fail>>,
    /// The interpreter the search runs leading statements with: no
    /// events, and the game's `Memo`.
    it: &'a Interp<'a>,
    /// The shared first parts of trials (`trial_after_prefix`).
    shared: &'a std::cell::RefCell<SharedTrials>,
    /// What the trials' outcome is monotone in (`TrialPlan::monotone`),
    /// and what the trials at the values of it listed so far (largest
    /// first) found, by the values of the later parameters.
    monotone: Option<(&'a legality::Monotone, &'a Found)>,
    /// The requirements a trial meets first (`TrialPlan::openings`), and
    /// the values of their parameters at which trials failed there.
    openings: &'a [legality::Opening],
    refused: &'a std::cell::RefCell<Keyed>,
    /// The trial as steps on the state the search reads
    /// (`TrialPlan::pre`), when there are.
    pre: Option<&'a legality::Precondition>,
    /// Per number of bound parameters, the compiled leading statements
    /// (`Program::leading`): none when the interpreter runs them.
    leads: &'a [Option<crate::native::LeadFn>],
}

/// One action's search as a compiled search (`native::SearchFn`) walks
/// it: the same tree as `Game::enumerate`, each depth's loop and leading
/// statements in generated code, the rest through these methods.
pub struct Searcher<'s, 'p> {
    game: &'s Game<'p>,
    search: &'s Search<'s>,
}

impl<'s> Searcher<'s, '_> {
    /// Parameter `k`'s values.
    #[inline]
    pub fn domain(&self, k: usize) -> &'s [V] {
        &self.search.domains[k]
    }

    /// Whether the leading statements at `depth` hold, given what their
    /// compiled function `lead` finds: run by the interpreter when it
    /// gives no answer; a rule error is noted and prunes.
    #[inline]
    pub fn lead_with(
        &self,
        depth: usize,
        f: &mut Frame,
        lead: impl FnOnce(&Interp<'_>, &State, &mut Frame) -> R<Option<bool>>,
    ) -> bool {
        let found = lead(self.search.it, &self.game.state, f);
        self.game.led(self.search, depth, f, found)
    }

    /// Whether the leading statements at `depth` hold, run by the
    /// interpreter (a depth without a compiled function).
    #[inline]
    pub fn lead(&self, depth: usize, f: &mut Frame) -> bool {
        self.game.led(self.search, depth, f, Ok(None))
    }

    /// A complete choice (`args`, bound in `f` too): listed in `out` when
    /// legal.
    #[inline]
    pub fn complete(&self, f: &mut Frame, args: &[V], out: &mut Vec<Choice>) {
        self.game.complete(self.search, f, args, out)
    }

    /// Parameter `depth`, a `set of`: each candidate set bound, then
    /// `deeper`.
    #[inline]
    pub fn each_set(
        &self,
        depth: usize,
        f: &mut Frame,
        args: &mut [V],
        out: &mut Vec<Choice>,
        deeper: impl FnMut(&mut Frame, &mut [V], &mut Vec<Choice>),
    ) {
        self.game.each_set(self.search, depth, f, args, out, deeper)
    }

    /// Parameter `depth`, the one the trials' outcome is monotone in
    /// (`TrialPlan::monotone`, when complete choices are tried): each
    /// value bound, largest first, then `deeper`; the choices listed in
    /// order all the same.
    #[inline]
    pub fn descending(
        &self,
        depth: usize,
        f: &mut Frame,
        args: &mut [V],
        out: &mut Vec<Choice>,
        deeper: impl FnMut(&mut Frame, &mut [V], &mut Vec<Choice>),
    ) {
        self.game.descending(self.search, depth, f, args, out, deeper)
    }
}

/// What trials found at a monotone parameter's values so far: by the values
/// of the parameters after it, whether the trial passed.
type Found = std::cell::RefCell<Keyed>;

/// Outcomes the search notes by a kind (an opening's index) and a few
/// values, kept in flat lists so that a note allocates nothing once the
/// lists have grown (one listing notes hundreds).
#[derive(Default)]
struct Keyed {
    /// Per note: its kind, where its values lie in `values`, the
    /// outcome, and the values packed into one number
    /// (`interp::packed`, or `interp::UNPACKED`).
    notes: Vec<(usize, std::ops::Range<usize>, bool, u64)>,
    values: Vec<V>,
}

impl Keyed {
    fn clear(&mut self) {
        self.notes.clear();
        self.values.clear();
    }

    fn push(&mut self, kind: usize, key: impl Iterator<Item = V>, outcome: bool) {
        let start = self.values.len();
        self.values.extend(key);
        let packed = crate::interp::packed(0, &self.values[start..]).unwrap_or(crate::interp::UNPACKED);
        self.notes.push((kind, start..self.values.len(), outcome, packed));
    }

    /// The outcome noted first for this kind and key: by the key packed
    /// into one number where it packs (`interp::packed`), else by value.
    fn find(&self, kind: usize, key: &[V]) -> Option<bool> {
        let values = &self.values;
        match crate::interp::packed(0, key) {
            Some(p) => self.notes.iter().find(|n| n.0 == kind && n.3 == p),
            None => self.notes.iter().find(|n| n.0 == kind && values[n.1.clone()] == *key),
        }
        .map(|n| n.2)
    }

    /// Whether some note meets `f` (given its kind and values).
    fn any(&self, mut f: impl FnMut(usize, &[V]) -> bool) -> bool {
        self.notes.iter().any(|(k, at, _, _)| f(*k, &self.values[at.clone()]))
    }
}

/// How many shared trial parts one listing keeps (`trial_after_prefix`):
/// a dig by land and by air alternate.
const SHARED_TRIALS: usize = 2;

/// The shared first parts of trials run during one listing.
#[derive(Default)]
struct SharedTrials {
    entries: Vec<SharedTrial>,
    /// The number the next shared part run gets (`SharedTrial::id`).
    next: u64,
}

struct SharedTrial {
    /// Which run of a shared part this is: a trial's copy put back to it
    /// (`State::restore_to`) knows whether it was the last one.
    id: u64,
    action: ActionId,
    /// The values of the locals the shared part read.
    key: Vec<V>,
    outcome: Result<(), Fail>,
    /// The state after it.
    state: Box<State>,
}

/// The most values `Program::attrs` holds (16 bytes each): a ruleset with
/// more components times attributes reads each from its component.
const ATTR_TABLE: usize = 1 << 20;

/// Every component's value of every attribute, as the interpreter reads
/// `c.attr` (a map as `V::Map`, an attribute its kind lacks as
/// `attr_empty`); empty when there would be more than `ATTR_TABLE`.
fn attr_table(rules: &Ruleset, attr_empty: &[V]) -> Vec<V> {
    if rules.components.len().saturating_mul(attr_empty.len()) > ATTR_TABLE {
        return Vec::new();
    }
    ComponentId::all(rules.components.len())
        .flat_map(|c| {
            AttrId::all(attr_empty.len()).map(move |a| crate::interp::attr_value(rules, attr_empty, c, a))
        })
        .collect()
}

/// Keep the first rule error (not a failing `require`, which only means
/// "not this choice").
/// A parameter's values when they are the same in every position: a
/// flag's, a number range's, the places of a class (or every place outside
/// enumerations).
fn fixed_domain(rules: &Ruleset, domain: &ParamDomain) -> Option<Vec<V>> {
    let ParamDomain::Type(t) = domain else { return None };
    Some(match t {
        Type::Bool => vec![V::Bool(false), V::Bool(true)],
        Type::Int { lo: Some(lo), hi: Some(hi) } => (*lo..=*hi).map(V::Int).collect(),
        Type::Place(Some(c)) => rules.classes[*c].places.iter().map(|p| V::Place(*p)).collect(),
        Type::Place(None) => PlaceId::all(rules.places.len())
            .filter(|p| !rules.classes[rules.places[*p].class].enumeration)
            .map(V::Place)
            .collect(),
        _ => return None,
    })
}

fn note_broken(broken: &std::cell::RefCell<Option<Fail>>, f: Fail) {
    if matches!(f, Fail::Rule { .. }) {
        let mut b = broken.borrow_mut();
        if b.is_none() {
            *b = Some(f);
        }
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

#[cfg(test)]
mod tests {
    use super::Keyed;
    use crate::state::V;

    /// The search's notes are found by kind and whole key, whether the key
    /// packs into one number or not: keys of more values than a packed
    /// key holds that differ only in their first value, and keys of values
    /// that do not pack, are told apart.
    #[test]
    fn notes_are_found_by_kind_and_whole_key_packed_or_not() {
        let mut notes = Keyed::default();
        let long = |first: i64| [V::Int(first), V::Int(1), V::Int(2), V::Int(3), V::Int(4)];
        notes.push(0, long(7).into_iter(), true);
        notes.push(0, long(23).into_iter(), false);
        notes.push(1, [V::Bool(true)].into_iter(), false);
        notes.push(1, [V::Int(-3)].into_iter(), true);
        assert_eq!(notes.find(0, &long(7)), Some(true));
        assert_eq!(notes.find(0, &long(23)), Some(false));
        assert_eq!(notes.find(0, &long(39)), None);
        assert_eq!(notes.find(1, &[V::Bool(true)]), Some(false));
        assert_eq!(notes.find(0, &[V::Bool(true)]), None, "another kind");
        assert_eq!(notes.find(1, &[V::Bool(false)]), None);
        assert_eq!(notes.find(1, &[V::Int(-3)]), Some(true));
        assert_eq!(notes.find(1, &[V::Int(3)]), None);
    }
}
