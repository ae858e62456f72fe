//! `cargo bench -p chronoscope-tests --bench games`: random games per second
//! of the engine playing a bundled ruleset.
//!
//! The engine names no game; the ruleset is read from `rulesets/` like any
//! user file. Issue 6's goal is 10,000 random 4-player Thebes games per
//! second per core.

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use engine::Game;
use rand::{Rng, SeedableRng};

fn ruleset() -> ruleset::Ruleset {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../rulesets/thebes/thebes.ruleset");
    ruleset::check_file(path, &mut |p| std::fs::read(p).map_err(|e| e.to_string()))
        .ruleset
        .expect("the bundled ruleset checks clean")
}

/// One game with uniformly random choices; returns the number of actions.
fn random_game(rules: &ruleset::Ruleset, players: usize, seed: u64) -> u64 {
    let (mut g, _) = Game::new(rules, players, seed).expect("setup");
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
    while g.current().is_some() {
        let choices = g.choices();
        let c = &choices[rng.gen_range(0..choices.len())];
        g.apply(c).expect("a legal choice applies");
    }
    g.state.actions
}

fn bench(c: &mut Criterion) {
    let rules = ruleset();
    let mut group = c.benchmark_group("random_games");
    group.sample_size(20);
    for players in [2, 4] {
        group.throughput(Throughput::Elements(1));
        let mut seed = 0u64;
        group.bench_function(format!("{players}_players"), |b| {
            b.iter(|| {
                seed += 1;
                random_game(&rules, players, seed)
            })
        });
    }
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
