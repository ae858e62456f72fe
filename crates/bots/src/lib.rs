//! Players that choose actions, for any ruleset.
//!
//! A bot gets a [`Seat`]: what its player may see, and samples of the game
//! as that player could imagine it (hidden components dealt at random). It
//! never gets the game itself, so it cannot peek at bags, decks or hands.
//! A bot's own randomness comes from its own seeded generator, so games stay
//! reproducible.

#![forbid(unsafe_code)]

use std::collections::HashSet;
use std::hash::{DefaultHasher, Hash, Hasher};

use engine::{Choice, Game, View, ZoneView};
use model::{PlayerId, TurnPolicy};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// What a bot may know at its turn.
pub struct Seat<'g, 'r> {
    game: &'g Game<'r>,
    me: PlayerId,
}

impl<'g, 'r> Seat<'g, 'r> {
    pub fn new(game: &'g Game<'r>, me: PlayerId) -> Self {
        Seat { game, me }
    }

    pub fn me(&self) -> PlayerId {
        self.me
    }

    pub fn view(&self) -> View {
        self.game.view(self.me)
    }

    /// A game consistent with what this seat sees, hidden parts dealt at
    /// random from `rng`.
    pub fn sample(&self, rng: &mut impl Rng) -> Game<'r> {
        self.game.sample_for(self.me, rng)
    }
}

/// A position as `me` sees it, by what lies where rather than which copy:
/// each open zone's components by name (in any order), each hidden zone's
/// count, every counter and piece, and who is to move. Two positions with
/// the same key look the same to `me`; one reached again has changed
/// nothing lasting.
pub fn position_key(game: &Game, me: PlayerId) -> u64 {
    let view = game.view(me);
    let mut h = DefaultHasher::new();
    view.current.hash(&mut h);
    for z in &view.zones {
        match z {
            ZoneView::Open(cells) => {
                let mut names: Vec<&str> =
                    cells.iter().flatten().map(|c| game.rules.components[*c].name.as_str()).collect();
                names.sort_unstable();
                (0u8, names).hash(&mut h);
            }
            ZoneView::Hidden(n) => (1u8, *n).hash(&mut h),
        }
    }
    view.counters.hash(&mut h);
    view.pieces.hash(&mut h);
    game.asks().hash(&mut h);
    h.finish()
}

/// How many actions a bot takes in one turn, where players end their own
/// turns, before it ends the turn whenever it can: a turn of a legal
/// ruleset may go on for ever (trades back and forth at a market), a bot's may not.
pub const MAX_TURN_ACTIONS: usize = 32;

/// What keeps a bot from acting for ever: the positions it has been to move
/// in, so that it never walks in a circle (a choice leading back to one of
/// them changed nothing lasting: a card traded for its copy and back), and
/// how many actions it has taken in its current turn (see
/// `MAX_TURN_ACTIONS`). Keys are of what the seat sees (`position_key`),
/// so the memory peeks at nothing.
#[derive(Default)]
pub struct Pacing {
    seen: HashSet<u64>,
    in_turn: usize,
}

impl Pacing {
    /// Remember the position the seat is to move in now.
    pub fn visit(&mut self, seat: &Seat) {
        self.seen.insert(position_key(seat.game, seat.me));
    }

    /// Whether `after` (an imagined game after one choice) is a position
    /// the seat has been to move in before.
    pub fn returns(&self, after: &Game, me: PlayerId) -> bool {
        self.seen.contains(&position_key(after, me))
    }

    /// Whether the bot has acted long enough this turn to end it now.
    pub fn tired(&self) -> bool {
        self.in_turn >= MAX_TURN_ACTIONS
    }

    /// Count the action chosen: `ended` when it ended the turn.
    pub fn acted(&mut self, ended: bool) {
        self.in_turn = if ended { 0 } else { self.in_turn + 1 };
    }
}

/// Whether the ruleset lets a player take actions until they end the turn
/// (`turns clockwise until end turn`), and `after` is past the end of
/// `me`'s turn: no longer their move, nothing asked of them.
fn turn_over(after: &Game, me: PlayerId) -> bool {
    matches!(after.rules.turns, TurnPolicy::Clockwise { until_end_turn: true }) && after.current() != Some(me)
}

/// Something that picks one of the legal choices.
pub trait Bot {
    /// The name used in `--seats`.
    fn name(&self) -> &'static str;
    /// The index of the chosen entry of `choices` (never empty).
    fn choose(&mut self, seat: &Seat, choices: &[Choice]) -> usize;
}

/// Picks uniformly among the legal choices.
pub struct RandomBot {
    rng: ChaCha8Rng,
}

impl RandomBot {
    pub fn new(seed: u64) -> Self {
        RandomBot { rng: ChaCha8Rng::seed_from_u64(seed) }
    }
}

impl Bot for RandomBot {
    fn name(&self) -> &'static str {
        "random"
    }

    fn choose(&mut self, _seat: &Seat, choices: &[Choice]) -> usize {
        self.rng.gen_range(0..choices.len())
    }
}

/// Looks one action ahead: tries each choice on one imagined game (the same
/// sample for all, so they are compared on equal chance) and keeps the one
/// that leaves it furthest ahead by the ruleset's own scoring: its score
/// now minus the best other score. Among choices that lead equally far, it
/// prefers one that does not lead back to a position it has been to move
/// in (see `Pacing`), then, where a player ends their own turn, one that
/// ends it (nothing gained by acting on is a reason to stop); then the
/// first. After `MAX_TURN_ACTIONS` in one turn, ending it comes first.
pub struct GreedyBot {
    rng: ChaCha8Rng,
    pacing: Pacing,
}

impl GreedyBot {
    pub fn new(seed: u64) -> Self {
        GreedyBot { rng: ChaCha8Rng::seed_from_u64(seed), pacing: Pacing::default() }
    }
}

/// How far ahead `me` is by the ruleset's scoring, as things stand.
pub fn lead(game: &Game, me: PlayerId) -> i64 {
    match game.scores() {
        Ok(sheet) => {
            let mine = sheet.totals[me.index()];
            let best_other =
                sheet.totals.iter().enumerate().filter(|(p, _)| *p != me.index()).map(|(_, t)| *t).max();
            mine - best_other.unwrap_or(0)
        }
        Err(_) => i64::MIN / 2,
    }
}

impl Bot for GreedyBot {
    fn name(&self) -> &'static str {
        "greedy"
    }

    fn choose(&mut self, seat: &Seat, choices: &[Choice]) -> usize {
        self.pacing.visit(seat);
        let sample = seat.sample(&mut self.rng);
        let me = seat.me();
        let tired = self.pacing.tired();
        // Each choice by what it gains: (tired and ending the turn, lead),
        // and whether it ends the turn.
        let after = |c: &Choice| {
            let mut g = sample.clone();
            g.step(c).is_ok().then_some(g)
        };
        let judged: Vec<Option<((bool, i64), bool)>> = choices
            .iter()
            .map(|c| {
                after(c).map(|g| {
                    let over = turn_over(&g, me);
                    ((tired && over, lead(&g, me)), over)
                })
            })
            .collect();
        let Some(top) = judged.iter().flatten().map(|(v, _)| *v).max() else { return 0 };
        let best: Vec<(usize, bool)> = judged
            .iter()
            .enumerate()
            .filter_map(|(i, j)| j.filter(|(v, _)| *v == top).map(|(_, over)| (i, over)))
            .collect();
        // Among the best, one that leads to no position it was to move in
        // before, then one that ends the turn, then the first. Whether a
        // choice goes round is asked only of these, in that order: the
        // first that does not usually ends the search.
        let fresh = |i: usize| after(&choices[i]).is_some_and(|g| !self.pacing.returns(&g, me));
        let pick = best
            .iter()
            .filter(|(_, over)| *over)
            .chain(best.iter().filter(|(_, over)| !*over))
            .find(|(i, _)| fresh(*i))
            .or_else(|| best.iter().find(|(_, over)| *over))
            .or(best.first())
            .copied();
        let (i, over) = pick.unwrap_or((0, false));
        self.pacing.acted(over);
        i
    }
}

/// The bot kinds `--seats` accepts (`mcts` takes a budget: `mcts:2000`
/// iterations or `mcts:500ms`; plain `mcts` thinks 1 s a move).
pub const KINDS: &[&str] = &["random", "greedy", "mcts"];

/// Make a bot by name; `seed` is the game seed mixed with the seat. The
/// error says why a name is refused (an unknown kind, a budget out of range).
pub fn make(kind: &str, seed: u64) -> Result<Box<dyn Bot + Send>, String> {
    match kind {
        "random" => Ok(Box::new(RandomBot::new(seed))),
        "greedy" => Ok(Box::new(GreedyBot::new(seed))),
        _ if names_a_bot(kind) => {
            parse_mcts(kind).map(|b| Box::new(MctsBot::new(seed, b)) as Box<dyn Bot + Send>)
        }
        _ => Err(format!("unknown bot `{kind}`; bots are: {}", KINDS.join(", "))),
    }
}

/// Whether `name` names a kind of bot, budget or not (`greedy`, `mcts`,
/// `mcts:2000`): `make` then builds it or says what is wrong with it.
pub fn names_a_bot(name: &str) -> bool {
    KINDS.contains(&name) || name.starts_with("mcts")
}

/// The most iterations an `mcts` seat may be given a move.
pub const MAX_ITERATIONS: u32 = 10_000_000;
/// The longest an `mcts` seat may be given to think about a move: an hour.
pub const MAX_MILLIS: u64 = 3_600_000;

/// How long the search may think about one move.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Budget {
    Iterations(u32),
    Millis(u64),
}

/// Information-set Monte Carlo tree search (single observer): every
/// iteration deals a fresh sample of what the seat cannot see, walks the
/// tree by UCB among the choices legal in that sample (each player
/// maximising their own reward), adds one node, plays up to 16 random moves,
/// and backs up each player's reward: half for winning as things stand (1/k
/// for a k-way tie), half for the score lead.
///
/// Of the choices at the root, those leading back to a position it has been
/// to move in are taken only when every choice does, and after
/// `MAX_TURN_ACTIONS` in one turn only those that end it (see `Pacing`).
pub struct MctsBot {
    rng: ChaCha8Rng,
    budget: Budget,
    pacing: Pacing,
}

impl MctsBot {
    pub fn new(seed: u64, budget: Budget) -> Self {
        MctsBot { rng: ChaCha8Rng::seed_from_u64(seed), budget, pacing: Pacing::default() }
    }
}

/// One choice in the search tree.
struct Edge {
    choice: Choice,
    /// The player who makes this choice.
    player: PlayerId,
    visits: u32,
    reward: f64,
    /// How often this choice was legal when its parent was reached.
    available: u32,
    children: Vec<usize>,
}

/// The search tree: edges in an arena; the root's children apart.
#[derive(Default)]
struct Tree {
    edges: Vec<Edge>,
    root: Vec<usize>,
}

impl Tree {
    fn children(&self, node: Option<usize>) -> &Vec<usize> {
        match node {
            None => &self.root,
            Some(e) => &self.edges[e].children,
        }
    }

    fn children_mut(&mut self, node: Option<usize>) -> &mut Vec<usize> {
        match node {
            None => &mut self.root,
            Some(e) => &mut self.edges[e].children,
        }
    }
}

const UCB: f64 = 0.7;
/// How many random actions a play-out takes before the score judges it.
const PLAYOUT: usize = 16;

fn rewards(game: &Game) -> Vec<f64> {
    match game.scores() {
        Ok(sheet) => PlayerId::all(sheet.totals.len())
            .map(|p| {
                let win = if sheet.winners.contains(&p) { 1.0 / sheet.winners.len() as f64 } else { 0.0 };
                let best_other =
                    sheet.totals.iter().enumerate().filter(|(q, _)| *q != p.index()).map(|(_, t)| *t).max();
                let lead = sheet.totals[p.index()].saturating_sub(best_other.unwrap_or(0)) as f64;
                0.5 * win + 0.5 * (0.5 + 0.5 * (lead / 10.0).tanh())
            })
            .collect(),
        Err(_) => Vec::new(),
    }
}

impl MctsBot {
    /// One iteration from the root.
    fn iterate(&mut self, tree: &mut Tree, seat: &Seat) {
        let mut game = seat.sample(&mut self.rng);
        let mut node: Option<usize> = None;
        let mut path: Vec<usize> = Vec::new();
        // One list for every listing of the iteration, kept with its room;
        // a choice applied from it is not checked again.
        let mut legal = engine::Listing::new();
        // Selection, then expansion of one untried choice.
        while let Some(me) = game.current() {
            if game.list_into(&mut legal).is_err() || legal.is_empty() {
                break;
            }
            let kids = tree.children(node).clone();
            for &k in &kids {
                if legal.contains(&tree.edges[k].choice) {
                    tree.edges[k].available += 1;
                }
            }
            let untried: Vec<usize> = (0..legal.len())
                .filter(|i| !kids.iter().any(|k| tree.edges[*k].choice == legal[*i]))
                .collect();
            if !untried.is_empty() {
                let i = untried[self.rng.gen_range(0..untried.len())];
                let pick = legal[i].clone();
                if game.step_listed(&legal, i).is_err() {
                    break;
                }
                tree.edges.push(Edge {
                    choice: pick,
                    player: me,
                    visits: 0,
                    reward: 0.0,
                    available: 1,
                    children: Vec::new(),
                });
                let e = tree.edges.len() - 1;
                tree.children_mut(node).push(e);
                path.push(e);
                break;
            }
            // The best child among those listed now, and where it is listed.
            let mut best: Option<(f64, usize, usize)> = None;
            for &k in &kids {
                let c = &tree.edges[k];
                let Some(at) = legal.iter().position(|l| *l == c.choice) else { continue };
                let visits = c.visits.max(1) as f64;
                let value = c.reward / visits + UCB * ((c.available.max(1) as f64).ln() / visits).sqrt();
                if best.is_none_or(|(b, _, _)| value > b) {
                    best = Some((value, k, at));
                }
            }
            let Some((_, k, at)) = best else { break };
            if game.step_listed(&legal, at).is_err() {
                break;
            }
            path.push(k);
            node = Some(k);
        }
        // Random play-out, cut off after `PLAYOUT` actions: the score so far
        // (with its lead term) judges the rest, and iterations stay cheap.
        let mut steps = 0;
        while game.current().is_some() && steps < PLAYOUT {
            if game.list_into(&mut legal).is_err() || legal.is_empty() {
                break;
            }
            if game.step_listed(&legal, self.rng.gen_range(0..legal.len())).is_err() {
                break;
            }
            steps += 1;
        }
        let r = rewards(&game);
        for e in path {
            let edge = &mut tree.edges[e];
            edge.visits += 1;
            edge.reward += r.get(edge.player.index()).copied().unwrap_or(0.0);
        }
    }
}

impl Bot for MctsBot {
    fn name(&self) -> &'static str {
        "mcts"
    }

    fn choose(&mut self, seat: &Seat, choices: &[Choice]) -> usize {
        self.pacing.visit(seat);
        // Which choices walk in a circle and which end the turn, judged on
        // one imagined game dealt from a copy of the generator, so the
        // search's own draws stay as they were.
        let sample = seat.sample(&mut self.rng.clone());
        let (circles, ends): (Vec<bool>, Vec<bool>) = choices
            .iter()
            .map(|c| {
                let mut g = sample.clone();
                let ok = g.step(c).is_ok();
                (ok && self.pacing.returns(&g, seat.me()), ok && turn_over(&g, seat.me()))
            })
            .unzip();
        // When tired, only choices that end the turn; then none that walks
        // in a circle, unless every one does.
        let stop = self.pacing.tired() && ends.iter().any(|e| *e);
        let candidates: Vec<usize> = (0..choices.len()).filter(|i| !stop || ends[*i]).collect();
        let fresh: Vec<usize> = candidates.iter().copied().filter(|i| !circles[*i]).collect();
        let pool = if fresh.is_empty() { candidates } else { fresh };
        if let [only] = pool.as_slice() {
            self.pacing.acted(ends[*only]);
            return *only;
        }
        let mut tree = Tree::default();
        let started = std::time::Instant::now();
        let mut n = 0u32;
        loop {
            let done = match self.budget {
                Budget::Iterations(k) => n >= k,
                Budget::Millis(ms) => started.elapsed().as_millis() as u64 >= ms,
            };
            if done {
                break;
            }
            self.iterate(&mut tree, seat);
            n += 1;
        }
        // The most visited of the choices legal now.
        let visits = |c: &Choice| {
            tree.root.iter().map(|k| &tree.edges[*k]).find(|e| &e.choice == c).map_or(0, |e| e.visits)
        };
        let pick =
            pool.iter().copied().max_by_key(|i| (visits(&choices[*i]), std::cmp::Reverse(*i))).unwrap_or(0);
        self.pacing.acted(ends[pick]);
        pick
    }
}

/// Read `mcts`, `mcts:2000` (iterations), `mcts:500ms` or `mcts:2s`.
pub fn parse_mcts(spec: &str) -> Result<Budget, String> {
    let bad = || {
        format!(
            "`{spec}`: an mcts budget is `mcts:N` iterations (1 to {MAX_ITERATIONS}), `mcts:Nms` or `mcts:Ns` \
             (1 ms to {} s)",
            MAX_MILLIS / 1000
        )
    };
    let rest = spec.strip_prefix("mcts").ok_or_else(bad)?;
    if rest.is_empty() {
        return Ok(Budget::Millis(1000));
    }
    let n = rest.strip_prefix(':').ok_or_else(bad)?;
    let number = |text: &str, scale: u64, max: u64| {
        text.parse::<u64>()
            .ok()
            .and_then(|v| v.checked_mul(scale))
            .filter(|v| (1..=max).contains(v))
            .ok_or_else(bad)
    };
    if let Some(ms) = n.strip_suffix("ms") {
        return number(ms, 1, MAX_MILLIS).map(Budget::Millis);
    }
    if let Some(sec) = n.strip_suffix('s') {
        return number(sec, 1000, MAX_MILLIS).map(Budget::Millis);
    }
    number(n, 1, MAX_ITERATIONS as u64).map(|k| Budget::Iterations(k as u32))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mcts_budgets_are_read_from_the_seat_name() {
        assert_eq!(parse_mcts("mcts"), Ok(Budget::Millis(1000)));
        assert_eq!(parse_mcts("mcts:2000"), Ok(Budget::Iterations(2000)));
        assert_eq!(parse_mcts("mcts:500ms"), Ok(Budget::Millis(500)));
        assert_eq!(parse_mcts("mcts:2s"), Ok(Budget::Millis(2000)));
        assert_eq!(parse_mcts("mcts:3600s"), Ok(Budget::Millis(MAX_MILLIS)));
        // Zero, words, and numbers past the limits (which overflowed `u32`
        // or, in seconds, wrapped when turned into milliseconds).
        for bad in [
            "mcts:",
            "mcts:0",
            "mcts:0ms",
            "mcts:fast",
            "mcts2000",
            "mcts:10000001",
            "mcts:999999999999",
            "mcts:3601s",
            "mcts:99999999999999999s",
            "mcts:18446744073709551616ms",
        ] {
            let err = parse_mcts(bad).unwrap_err();
            assert!(err.contains("1 to 10000000") && err.contains("1 ms to 3600 s"), "{bad}: {err}");
        }
        assert!(make("mcts:10", 1).is_ok());
        assert_eq!(make("oracle", 1).err().unwrap(), "unknown bot `oracle`; bots are: random, greedy, mcts");
    }
}
