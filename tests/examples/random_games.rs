//! Random games on the interpreter or on the compiled rules, for counting
//! instructions (callgrind) one engine at a time:
//! `cargo run --release -p chronoscope-tests --example random_games -- PATH interpreted|compiled PLAYERS GAMES`.
//!
//! The "games only" figures of `docs/performance.md` count what the games
//! themselves run (setting up, listing choices, applying them), not
//! loading the rules:
//!
//! ```text
//! valgrind --tool=callgrind --toggle-collect='engine::game::Game::list_into' \
//!   --toggle-collect='engine::game::Game::step_listed' --toggle-collect='engine::game::Game::start' \
//!   target/release/examples/random_games rulesets/thebes/thebes.ruleset compiled 4 20
//! ```

use engine::Game;
use rand::{Rng, SeedableRng};

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let [_, path, engine, players, games] = &args[..] else {
        eprintln!("usage: random_games PATH interpreted|compiled PLAYERS GAMES");
        std::process::exit(2);
    };
    let program = match engine.as_str() {
        "compiled" => chronoscope_tests::compiled::load(path),
        _ => chronoscope_tests::scenario::load(path),
    };
    let players: usize = players.parse().expect("players is a number");
    let games: u64 = games.parse().expect("games is a number");
    let mut actions = 0;
    let mut choices = engine::Listing::new();
    for seed in 1..=games {
        let mut g = Game::start(&program, players, seed).expect("setup");
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
        while g.current().is_some() {
            g.list_into(&mut choices).expect("a listing");
            g.step_listed(&choices, rng.gen_range(0..choices.len())).expect("a legal choice applies");
        }
        actions += g.actions_taken();
    }
    println!("{games} games, {actions} actions");
}
