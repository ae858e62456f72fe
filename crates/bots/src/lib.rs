//! Players that choose actions, for any ruleset.
//!
//! A bot sees only what its seat may see: the engine hands it the player's
//! [`View`] and the list of legal choices, never the state. A bot's own
//! randomness comes from its own seeded generator, so games stay
//! reproducible.

#![forbid(unsafe_code)]

use engine::{Choice, View};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// Something that picks one of the legal choices.
pub trait Bot {
    /// The name used in `--seats`.
    fn name(&self) -> &'static str;
    /// The index of the chosen entry of `choices` (never empty).
    fn choose(&mut self, view: &View, choices: &[Choice]) -> usize;
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

    fn choose(&mut self, _view: &View, choices: &[Choice]) -> usize {
        self.rng.gen_range(0..choices.len())
    }
}

/// The bot kinds `--seats` accepts.
pub const KINDS: &[&str] = &["random"];

/// Make a bot by name; `seed` is the game seed mixed with the seat.
pub fn make(kind: &str, seed: u64) -> Option<Box<dyn Bot>> {
    match kind {
        "random" => Some(Box::new(RandomBot::new(seed))),
        _ => None,
    }
}
