//! Players that choose actions, for any ruleset.
//!
//! A bot gets a [`Seat`]: what its player may see, and samples of the game
//! as that player could imagine it (hidden components dealt at random). It
//! never gets the game itself, so it cannot peek at bags, decks or hands.
//! A bot's own randomness comes from its own seeded generator, so games stay
//! reproducible.

#![forbid(unsafe_code)]

use engine::{Choice, Game, View};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// What a bot may know at its turn.
pub struct Seat<'g, 'r> {
    game: &'g Game<'r>,
    me: usize,
}

impl<'g, 'r> Seat<'g, 'r> {
    pub fn new(game: &'g Game<'r>, me: usize) -> Self {
        Seat { game, me }
    }

    pub fn me(&self) -> usize {
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
pub fn lead(game: &Game, me: usize) -> i64 {
    match game.scores() {
        Ok(sheet) => {
            let mine = sheet.totals[me];
            let best_other = sheet.totals.iter().enumerate().filter(|(p, _)| *p != me).map(|(_, t)| *t).max();
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
            let value = match g.apply(c) {
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

/// The bot kinds `--seats` accepts.
pub const KINDS: &[&str] = &["random", "greedy"];

/// Make a bot by name; `seed` is the game seed mixed with the seat.
pub fn make(kind: &str, seed: u64) -> Option<Box<dyn Bot + Send>> {
    match kind {
        "random" => Some(Box::new(RandomBot::new(seed))),
        "greedy" => Some(Box::new(GreedyBot::new(seed))),
        _ => None,
    }
}
