//! The prelude of a setup: its opening statements that read nothing of
//! the seed, run once per player count and copied into each game.
//!
//! A setup usually starts by sorting its components into their places
//! (each kind of token into its bag, the cards into the deck) before it
//! shuffles or draws anything. That part comes out the same for every
//! seed: it reads the state the layout starts from and the player count,
//! never the random generator. A program runs it once per player count,
//! the first time a game of that count starts, and keeps what it left:
//! the state (less the generator), the events it made, the work it took.
//! Each game then starts from a copy of that state, with its own
//! generator, and runs the setup on from the first statement the prelude
//! left out. The state, the events and the work counted are those the
//! whole setup would have made, statement by statement. (The prelude runs
//! on the interpreter in a compiled program too: its work is counted as
//! the interpreter counts it, which for a statement compiled code leaves
//! to the interpreter counts that statement's values once, not twice.)
//!
//! The prelude is the longest run of the setup's first statements (at the
//! top of the setup; each whole) that are made only of `require`, `let`,
//! `set`, `advance`, `move`, `split`, `if`, `for`, `repeat`, `by players`
//! and calls of procedures made only of those (followed `MOST_CALLS`
//! deep): none of them draws, shuffles, asks, reveals, ends a turn or
//! reads the generator. A top-level `let` ends it too (the
//! statements after it may read its local, which the prelude does not
//! keep). When running it meets a rule error or a failing `require`, the
//! program keeps no prelude for that count, and each game runs its whole
//! setup, meeting the error where it always did.

use model::*;

use crate::event::Event;
use crate::state::{Cells, State, V};

/// What the first `len` statements of the setup left, for one player
/// count: all of a state but its random generator and journal, which each
/// game makes afresh.
#[derive(Debug)]
pub(crate) struct Prelude {
    /// How many of the setup's statements it ran.
    pub len: usize,
    /// The events they made, in order.
    pub events: Vec<Event>,
    /// The work they counted (`interp::MAX_WORK`).
    pub work: u64,
    /// Per zone instance, its contents.
    zones: Vec<Vec<Option<ComponentId>>>,
    counters: Vec<V>,
    pieces: Vec<PlaceId>,
    arrival: Vec<u64>,
    tick: u64,
    order: Vec<PlayerId>,
    turn_seat: usize,
    loc: Vec<u32>,
    tallies: Vec<i64>,
}

impl Prelude {
    /// What `len` statements left on `st`, with the events and work.
    pub fn keep(len: usize, st: &State, events: Vec<Event>, work: u64) -> Prelude {
        Prelude {
            len,
            events,
            work,
            zones: st.zones.iter().map(|z| z.to_vec()).collect(),
            counters: st.counters.clone(),
            pieces: st.pieces.clone(),
            arrival: st.arrival.clone(),
            tick: st.tick,
            order: st.order.clone(),
            turn_seat: st.turn_seat,
            loc: st.loc.clone(),
            tallies: st.tallies.clone(),
        }
    }

    /// A game's state after the prelude: the one kept, with `rng` (the
    /// game's, from its seed, untouched). The zones that are empty share
    /// one empty list until each is first written, as a new game's do.
    pub fn state(&self, rng: Box<rand_chacha::ChaCha8Rng>) -> State {
        let empty = Cells::default();
        State {
            zones: self
                .zones
                .iter()
                .map(|z| if z.is_empty() { empty.clone() } else { Cells::from(z.clone()) })
                .collect(),
            counters: self.counters.clone(),
            pieces: self.pieces.clone(),
            arrival: self.arrival.clone(),
            tick: self.tick,
            order: self.order.clone(),
            turn_seat: self.turn_seat,
            rng,
            loc: self.loc.clone(),
            finished: false,
            actions: 0,
            asks: Vec::new(),
            turn_ended: false,
            tallies: self.tallies.clone(),
            journal: Default::default(),
        }
    }
}

/// How many of the setup's first statements make its prelude (see the
/// module's doc): 0 when the first already reads the seed.
pub(crate) fn length(rules: &Ruleset) -> usize {
    let first = |s: &&Stmt| !matches!(s.kind, StmtKind::Let { .. }) && seedless(rules, s, 0);
    rules.setup.stmts.iter().take_while(first).count()
}

/// How deep procedure calls are followed: past it, a call counts as
/// reading the seed (a procedure that calls itself is never seedless).
const MOST_CALLS: usize = 8;

/// Whether a statement, and every statement inside it or in a procedure
/// it calls (`depth` calls down), is of the kinds a prelude may run.
fn seedless(rules: &Ruleset, s: &Stmt, depth: usize) -> bool {
    let all = |body: &[Stmt]| body.iter().all(|s| seedless(rules, s, depth));
    match &s.kind {
        StmtKind::Require { .. }
        | StmtKind::Let { .. }
        | StmtKind::Set { .. }
        | StmtKind::Advance { .. }
        | StmtKind::Move { .. }
        | StmtKind::Split { .. } => true,
        StmtKind::If { then, otherwise, .. } => all(then) && all(otherwise),
        StmtKind::For { body, .. } | StmtKind::Repeat { body, .. } => all(body),
        StmtKind::ByPlayers { cases } => cases.iter().all(|(_, body)| all(body)),
        StmtKind::Do { procedure, .. } => {
            depth < MOST_CALLS
                && rules.procedures[*procedure].body.stmts.iter().all(|s| seedless(rules, s, depth + 1))
        }
        StmtKind::Draw { .. }
        | StmtKind::Shuffle(_)
        | StmtKind::ShufflePlayers
        | StmtKind::Reveal { .. }
        | StmtKind::Ask { .. }
        | StmtKind::EndTurn => false,
    }
}
