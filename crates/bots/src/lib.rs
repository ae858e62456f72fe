//! Players that choose actions, for any ruleset.
//!
//! A bot gets a [`Seat`]: what its player may see, and samples of the game
//! as that player could imagine it (hidden components dealt at random). It
//! never gets the game itself, so it cannot peek at bags, decks or hands.
//! A bot's own randomness comes from its own seeded generator, so games stay
//! reproducible.

#![forbid(unsafe_code)]

use engine::{Choice, Game, View};
use model::PlayerId;
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
/// now minus the best other score. Ties go to the first such choice.
pub struct GreedyBot {
    rng: ChaCha8Rng,
}

impl GreedyBot {
    pub fn new(seed: u64) -> Self {
        GreedyBot { rng: ChaCha8Rng::seed_from_u64(seed) }
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
        let sample = seat.sample(&mut self.rng);
        let mut best = (i64::MIN, 0);
        for (i, c) in choices.iter().enumerate() {
            let mut g = sample.clone();
            let value = match g.step(c) {
                Ok(_) => lead(&g, seat.me()),
                Err(_) => i64::MIN,
            };
            if value > best.0 {
                best = (value, i);
            }
        }
        best.1
    }
}

/// The bot kinds `--seats` accepts (`mcts` takes a budget: `mcts:2000`
/// iterations or `mcts:500ms`; plain `mcts` thinks 1 s a move).
pub const KINDS: &[&str] = &["random", "greedy", "mcts"];

/// Make a bot by name; `seed` is the game seed mixed with the seat.
pub fn make(kind: &str, seed: u64) -> Option<Box<dyn Bot + Send>> {
    match kind {
        "random" => Some(Box::new(RandomBot::new(seed))),
        "greedy" => Some(Box::new(GreedyBot::new(seed))),
        _ => parse_mcts(kind).map(|b| Box::new(MctsBot::new(seed, b)) as Box<dyn Bot + Send>),
    }
}

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
pub struct MctsBot {
    rng: ChaCha8Rng,
    budget: Budget,
}

impl MctsBot {
    pub fn new(seed: u64, budget: Budget) -> Self {
        MctsBot { rng: ChaCha8Rng::seed_from_u64(seed), budget }
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
                let lead = (sheet.totals[p.index()] - best_other.unwrap_or(0)) as f64;
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
        // Selection, then expansion of one untried choice.
        while let Some(me) = game.current() {
            let legal = game.choices();
            if legal.is_empty() {
                break;
            }
            let kids = tree.children(node).clone();
            for &k in &kids {
                if legal.contains(&tree.edges[k].choice) {
                    tree.edges[k].available += 1;
                }
            }
            let untried: Vec<&Choice> =
                legal.iter().filter(|l| !kids.iter().any(|k| &tree.edges[*k].choice == *l)).collect();
            if !untried.is_empty() {
                let pick = untried[self.rng.gen_range(0..untried.len())].clone();
                if game.step(&pick).is_err() {
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
            let mut best: Option<(f64, usize)> = None;
            for &k in &kids {
                let c = &tree.edges[k];
                if !legal.contains(&c.choice) {
                    continue;
                }
                let visits = c.visits.max(1) as f64;
                let value = c.reward / visits + UCB * ((c.available.max(1) as f64).ln() / visits).sqrt();
                if best.is_none_or(|(b, _)| value > b) {
                    best = Some((value, k));
                }
            }
            let Some((_, k)) = best else { break };
            if game.step(&tree.edges[k].choice).is_err() {
                break;
            }
            path.push(k);
            node = Some(k);
        }
        // Random play-out, cut off after `PLAYOUT` actions: the score so far
        // (with its lead term) judges the rest, and iterations stay cheap.
        let mut steps = 0;
        while game.current().is_some() && steps < PLAYOUT {
            let legal = game.choices();
            if legal.is_empty() {
                break;
            }
            let c = &legal[self.rng.gen_range(0..legal.len())];
            if game.step(c).is_err() {
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
        if choices.len() == 1 {
            return 0;
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
        (0..choices.len()).max_by_key(|i| (visits(&choices[*i]), std::cmp::Reverse(*i))).unwrap_or(0)
    }
}

/// Read `mcts`, `mcts:2000` (iterations) or `mcts:500ms`.
pub fn parse_mcts(spec: &str) -> Option<Budget> {
    let rest = spec.strip_prefix("mcts")?;
    if rest.is_empty() {
        return Some(Budget::Millis(1000));
    }
    let n = rest.strip_prefix(':')?;
    if let Some(ms) = n.strip_suffix("ms") {
        return ms.parse().ok().filter(|m| *m > 0).map(Budget::Millis);
    }
    if let Some(sec) = n.strip_suffix('s') {
        return sec.parse::<u64>().ok().filter(|s| *s > 0).map(|s| Budget::Millis(s * 1000));
    }
    n.parse().ok().filter(|k| *k > 0).map(Budget::Iterations)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mcts_budgets_are_read_from_the_seat_name() {
        assert_eq!(parse_mcts("mcts"), Some(Budget::Millis(1000)));
        assert_eq!(parse_mcts("mcts:2000"), Some(Budget::Iterations(2000)));
        assert_eq!(parse_mcts("mcts:500ms"), Some(Budget::Millis(500)));
        assert_eq!(parse_mcts("mcts:2s"), Some(Budget::Millis(2000)));
        for bad in ["mcts:", "mcts:0", "mcts:fast", "mcts2000", "random"] {
            assert_eq!(parse_mcts(bad), None, "{bad}");
        }
        assert!(make("mcts:10", 1).is_some());
        assert!(make("oracle", 1).is_none());
    }
}
