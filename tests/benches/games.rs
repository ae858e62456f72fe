//! `cargo bench -p chronoscope-tests --bench games`: random games per second
//! of the engine playing the bundled Thebes ruleset, and of the hand-written
//! reference simulator of the same rules (`tests/reference.rs`); their ratio
//! is how much interpretation costs.
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

/// The same with the hand-written reference simulator (set up by the
/// engine, then played on its own with its own random draws).
fn reference_game(rules: &ruleset::Ruleset, players: usize, seed: u64) -> usize {
    use chronoscope_tests::reference::{random, Thebes};
    let (g, _) = Game::new(rules, players, seed).expect("setup");
    let mut t = Thebes::from_game(&g);
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
    let mut draws = rand_chacha::ChaCha8Rng::seed_from_u64(seed ^ 1);
    let mut n = 0;
    while t.current().is_some() {
        let legal = t.legal();
        let (_, m) = &legal[rng.gen_range(0..legal.len())];
        t.apply(m, &mut random(&mut draws));
        n += 1;
    }
    n
}

fn bench(c: &mut Criterion) {
    let rules = ruleset();
    let mut group = c.benchmark_group("random_games");
    group.sample_size(20);
    for players in [2, 4] {
        group.throughput(Throughput::Elements(1));
        let mut seed = 0u64;
        group.bench_function(format!("engine_{players}_players"), |b| {
            b.iter(|| {
                seed += 1;
                random_game(&rules, players, seed)
            })
        });
        let mut seed = 0u64;
        group.bench_function(format!("reference_{players}_players"), |b| {
            b.iter(|| {
                seed += 1;
                reference_game(&rules, players, seed)
            })
        });
    }
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
