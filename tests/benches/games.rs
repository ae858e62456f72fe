//! `cargo bench -p chronoscope-tests --bench games`: random games per second
//! of the engine playing the bundled Thebes ruleset, and of the hand-written
//! reference simulator of the same rules (`tests/reference.rs`); their ratio
//! is how much interpretation costs.
//!
//! The engine names no game; the ruleset is read from `rulesets/` like any
//! user file. Issue 15's goals: 25,000 random 4-player Thebes games per
//! second per core compiled, within 4x of a tight hand-written reference;
//! the reference here keeps its counts up to date, picks each move by
//! counting the families of legal moves, and plays from a start the engine
//! set up outside the timed play (the engine's games include their setup,
//! a few percent of their time; the compiled engine is also timed playing
//! from a copy of a set-up game, as the reference does);
//! docs/performance.md has the figures. Before criterion's
//! measurements, both run 200 games on the same seeds, taking turns at
//! chunks of them in seven rounds, and the ratio is printed (`ratio`). Die
//! Grabräuber's, Archaeology's and Akrotiri's random games are measured
//! too (they have no reference simulator).

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use engine::Game;
use rand::{Rng, SeedableRng};

fn ruleset() -> engine::Program {
    chronoscope_tests::scenario::load("rulesets/thebes/thebes.ruleset")
}

/// One game with uniformly random choices; returns the number of actions.
fn random_game(rules: &engine::Program, players: usize, seed: u64) -> u64 {
    play_out(Game::start(rules, players, seed).expect("setup"), seed)
}

/// The rest of a game with uniformly random choices, drawn from `seed`;
/// the number of actions.
fn play_out(mut g: Game<'_>, seed: u64) -> u64 {
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
    let mut choices = engine::Listing::new();
    while g.current().is_some() {
        g.list_into(&mut choices).expect("a listing");
        g.step_listed(&choices, rng.gen_range(0..choices.len())).expect("a legal choice applies");
    }
    g.actions_taken()
}

/// The state the reference starts a game from: set up by the engine (the
/// reference has no setup of its own), outside the timed play.
fn reference_start(
    rules: &engine::Program,
    players: usize,
    seed: u64,
) -> chronoscope_tests::reference::Thebes {
    let g = Game::start(rules, players, seed).expect("setup");
    chronoscope_tests::reference::Thebes::from_game(&g)
}

/// The same with the tight hand-written reference simulator, from a copy
/// of a start (its fixed data is shared, so the copy is cheap), with its
/// own random draws: each move chosen uniformly by counting the families
/// of legal moves (`random_move`), as a tight random player would.
fn reference_game(start: &chronoscope_tests::reference::Thebes, seed: u64) -> usize {
    use chronoscope_tests::reference::random;
    let mut t = start.clone();
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
    let mut draws = rand_chacha::ChaCha8Rng::seed_from_u64(seed ^ 1);
    let mut n = 0;
    while let Some(m) = t.random_move(|total| rng.gen_range(0..total)) {
        t.apply(&m, &mut random(&mut draws));
        n += 1;
    }
    n
}

/// The simulators in this process, in rounds: each round plays seeds
/// 1..=`games` on the interpreter and the compiled engine (from the start
/// and from a copy of a set-up game), and the reference, a hundred times
/// faster, plays each of those starts 20 times over (with other draws),
/// so that its time is long enough to measure. Printed: games per second
/// of each over all rounds, and the ratio of reference to compiled in
/// each round (its median and range). The simulators take
/// turns at chunks of 20 seeds, so a machine whose speed drifts moves both
/// sides of a ratio alike (measured one simulator after the other, each
/// over a whole run, they drifted apart), each playing 20 games at a time,
/// closer to how it plays alone (taking turns at every seed measured the
/// same within the noise; docs/performance.md).
fn ratio(rules: &engine::Program, compiled: &engine::Program, players: usize, games: u64) {
    const REPLAYS: u64 = 20;
    const ROUNDS: usize = 7;
    const CHUNK: usize = 20;
    let time = |f: &dyn Fn()| {
        let start = std::time::Instant::now();
        f();
        start.elapsed().as_secs_f64()
    };
    // As the reference plays: from a copy of a game set up outside the
    // timed play, the copy timed.
    let set_up: Vec<_> =
        (1..=games).map(|seed| Game::start(compiled, players, seed).expect("setup")).collect();
    let starts: Vec<_> = (1..=games).map(|seed| reference_start(rules, players, seed)).collect();
    // Each simulator's play of one seed: interpreter, compiled, compiled
    // from a copy, reference. The reference replays one start twenty
    // times in a row, as a simulator that set up its own game would find
    // it: in the cache. Replays going through the 200 starts in turn read
    // each from memory and ran at about 39,000 games/s; through 8 starts
    // in turn, about 60,000, as in a row (63,000).
    let sims: [&dyn Fn(u64); 4] = [
        &|seed| {
            random_game(rules, players, seed);
        },
        &|seed| {
            random_game(compiled, players, seed);
        },
        &|seed| {
            play_out(set_up[(seed - 1) as usize].clone(), seed);
        },
        &|seed| {
            for r in 0..REPLAYS {
                reference_game(&starts[(seed - 1) as usize], seed * REPLAYS + r);
            }
        },
    ];
    // Seconds per round and simulator, each playing `CHUNK` seeds in turn,
    // chunk after chunk.
    let seeds: Vec<u64> = (1..=games).collect();
    let rounds: Vec<[f64; 4]> = (0..ROUNDS)
        .map(|_| {
            let mut round = [0.0; 4];
            for chunk in seeds.chunks(CHUNK) {
                for (k, sim) in sims.iter().enumerate() {
                    round[k] += time(&|| chunk.iter().for_each(|seed| sim(*seed)));
                }
            }
            round
        })
        .collect();
    let rate = |k: usize, n: u64| (n * ROUNDS as u64) as f64 / rounds.iter().map(|r| r[k]).sum::<f64>();
    let (engine, native, native_play) = (rate(0, games), rate(1, games), rate(2, games));
    let reference = rate(3, games * REPLAYS);
    // Reference games/s over compiled games/s, round by round.
    let spread = |k: usize| {
        let mut r: Vec<f64> =
            rounds.iter().map(|t| t[k] / games as f64 / (t[3] / (games * REPLAYS) as f64)).collect();
        r.sort_by(f64::total_cmp);
        format!("{:.2}x (rounds {:.2}x to {:.2}x)", r[r.len() / 2], r[0], r[r.len() - 1])
    };
    println!(
        "random {players}-player Thebes, seeds 1..={games}, {ROUNDS} rounds: interpreter {engine:.1} games/s \
         (setup included), compiled {native:.1} games/s ({:.2}x the interpreter), \
         reference {reference:.1} games/s ({REPLAYS} games from each of the engine's setups), \
         reference / interpreter {:.2}x, reference / compiled {:.2}x, median of rounds {}; \
         compiled from a copy of a set-up game, as the reference plays, {native_play:.1} games/s, \
         reference / compiled {:.2}x, median of rounds {}",
        native / engine,
        reference / engine,
        reference / native,
        spread(1),
        reference / native_play,
        spread(2),
    );
}

fn bench(c: &mut Criterion) {
    let rules = ruleset();
    let compiled = chronoscope_tests::compiled::load("rulesets/thebes/thebes.ruleset");
    ratio(&rules, &compiled, 4, 200);
    let card_game = chronoscope_tests::scenario::load("rulesets/grabrauber/grabrauber.ruleset");
    let trade_game = chronoscope_tests::scenario::load("rulesets/archaeology/archaeology.ruleset");
    let tile_game = chronoscope_tests::scenario::load("rulesets/akrotiri/akrotiri.ruleset");
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
        group.bench_function(format!("compiled_{players}_players"), |b| {
            b.iter(|| {
                seed += 1;
                random_game(&compiled, players, seed)
            })
        });
        let starts: Vec<_> = (0..64).map(|seed| reference_start(&rules, players, seed)).collect();
        let mut seed = 0u64;
        group.bench_function(format!("reference_{players}_players"), |b| {
            b.iter(|| {
                seed += 1;
                reference_game(&starts[seed as usize % starts.len()], seed)
            })
        });
    }
    let others = [
        ("grabrauber", "rulesets/grabrauber/grabrauber.ruleset", &card_game, 4),
        ("archaeology", "rulesets/archaeology/archaeology.ruleset", &trade_game, 4),
        ("akrotiri", "rulesets/akrotiri/akrotiri.ruleset", &tile_game, 2),
    ];
    for (name, path, program, players) in others {
        let compiled = chronoscope_tests::compiled::load(path);
        for (engine, program) in [("engine", program), ("compiled", &compiled)] {
            let mut seed = 0u64;
            group.bench_function(format!("{engine}_{name}_{players}_players"), |b| {
                b.iter(|| {
                    seed += 1;
                    random_game(program, players, seed)
                })
            });
        }
    }
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
