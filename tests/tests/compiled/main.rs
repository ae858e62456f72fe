//! The compiled backend against the interpreter, in lockstep: every
//! bundled ruleset and edition, compiled by `chronoscope-compile` at build
//! time (`tests/build.rs`), plays seeded random games on a compiled program
//! and on the interpreter side by side. After every action the legal
//! choices (or the rule error instead of them), the events, and the whole
//! position must be the same (one seed in four also through each
//! program's own listings, applied unchecked); at the end, the score
//! sheets. Any difference fails, naming the ruleset, the seed and the
//! action. The generator's own tests are in `generator.rs`, the tallies'
//! in `tallies.rs`.

use chronoscope_tests::{compiled, repo_root};
use engine::native::Natives;
use engine::{Game, Program};
use rand::{Rng, SeedableRng};

mod folding;
mod generator;
mod tallies;

fn load(path: &str) -> model::Ruleset {
    let full = repo_root().join(path);
    let checked = ruleset::check_file(&full.display().to_string(), &mut |p| {
        std::fs::read(p).map_err(|e| e.to_string())
    });
    checked.ruleset.unwrap_or_else(|| panic!("{path} checks clean"))
}

/// The rules of `path` and the generated function `name_of` names in
/// them (`lead_3_1`, `proc_2`, ...), up to the next one.
fn generated_function(
    path: &str,
    name_of: impl FnOnce(&model::Ruleset) -> String,
) -> (model::Ruleset, String) {
    let rules = load(path);
    let code = compile::generate(&rules);
    let function = generated_fn(&code, &name_of(&rules)).to_string();
    (rules, function)
}

/// The generated function `name` of `code`, up to the next one.
fn generated_fn<'c>(code: &'c str, name: &str) -> &'c str {
    let start = code.find(&format!("\nfn {name}(")).unwrap_or_else(|| panic!("no function {name}"));
    let end = code[start + 1..].find("\nfn ").map_or(code.len(), |e| start + 1 + e);
    &code[start..end]
}

fn programs(path: &str, natives: &Natives) -> (Program, Program) {
    let rules = load(path);
    let compiled = Program::with_natives(rules.clone(), natives).unwrap_or_else(|e| panic!("{path}: {e}"));
    assert!(compiled.is_compiled());
    (Program::new(rules), compiled)
}

/// What one game played in lockstep came to.
struct Played {
    actions: usize,
    /// Whether it stopped at a rule error (listing the choices, or
    /// scoring, or applying a listed choice), the same on both programs.
    rule_error: bool,
    /// Whether it ran to the ruleset's action limit.
    at_limit: bool,
}

/// Play one seeded random game on both programs, comparing after every
/// action.
fn lockstep(path: &str, reference: &Program, compiled: &Program, players: usize, seed: u64) -> Played {
    lockstep_with(path, reference, compiled, players, seed, &mut |_, _, _| {})
}

/// `lockstep`, calling `each` on the two games and the legal choices
/// before every action.
fn lockstep_with(
    path: &str,
    reference: &Program,
    compiled: &Program,
    players: usize,
    seed: u64,
    each: &mut dyn FnMut(&Game, &Game, &[engine::Choice]),
) -> Played {
    let (mut a, events_a) = Game::new(reference, players, seed).expect("the game sets up");
    let (mut b, events_b) = Game::new(compiled, players, seed).expect("the game sets up");
    let at = |n: usize| format!("{path}, {players} players, seed {seed}, action {n}");
    assert_eq!(events_a, events_b, "setup events differ: {}", at(0));
    assert_eq!(a.snapshot(), b.snapshot(), "setup differs: {}", at(0));
    // One seed in four: the same game played through each program's own
    // listings too (`list_into`, then `step_listed`, which does not work
    // out a listed choice's leading requirements again), held to the
    // choices `apply` checks.
    let mut listed = (seed % 4 == 0).then(|| {
        [reference, compiled]
            .map(|p| (Game::new(p, players, seed).expect("the game sets up").0, engine::Listing::new()))
    });
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed ^ 0x5eed);
    let mut n = 0;
    let mut rule_error = false;
    while a.current().is_some() {
        let (la, lb) = (a.legal(), b.legal());
        assert_eq!(la, lb, "legal choices differ: {}", at(n));
        let Ok(choices) = la else {
            rule_error = true;
            break;
        };
        if choices.is_empty() {
            break;
        }
        each(&a, &b, &choices);
        let k = rng.gen_range(0..choices.len());
        let choice = &choices[k];
        let (ea, eb) = (a.apply(choice), b.apply(choice));
        assert_eq!(ea, eb, "applying {choice:?} differs: {}", at(n));
        for (g, listing) in listed.iter_mut().flatten() {
            g.list_into(listing).unwrap_or_else(|e| panic!("{e:?}: {}", at(n)));
            assert_eq!(&listing[..], &choices[..], "listed choices differ: {}", at(n));
            let stepped = g.step_listed(listing, k);
            assert_eq!(stepped.is_ok(), ea.is_ok(), "applying listed {choice:?}: {}", at(n));
            if ea.is_ok() {
                assert_eq!(g.snapshot(), a.snapshot(), "positions differ after listed {choice:?}: {}", at(n));
            }
        }
        if ea.is_err() {
            // A listed choice met a rule error: the state is unchanged,
            // and another pick from the same list could meet it again.
            rule_error = true;
            break;
        }
        assert_eq!(a.snapshot(), b.snapshot(), "positions differ after {choice:?}: {}", at(n));
        n += 1;
    }
    let scores = a.scores();
    assert_eq!(scores, b.scores(), "score sheets differ: {}", at(n));
    let at_limit = a.actions_taken() >= a.rules.game.max_actions;
    Played { actions: n, rule_error: rule_error || scores.is_err(), at_limit }
}

/// Lockstep games of a bundled game: each must end by its rules, before
/// its action limit and without a rule error (a broken engine that makes
/// games loop or stall fails here at the first such game).
fn lockstep_many(path: &str, games_per_count: u64) {
    lockstep_each(path, games_per_count, &mut |players, seed, played| {
        assert!(
            !played.rule_error,
            "{path}, {players} players, seed {seed}: a rule error after {} actions",
            played.actions
        );
    });
}

/// Lockstep games of a ruleset at every player count, `check` called on
/// what each came to.
fn lockstep_each(path: &str, games_per_count: u64, check: &mut dyn FnMut(usize, u64, &Played)) {
    let natives = compiled::natives(path).unwrap_or_else(|| panic!("{path} is compiled by tests/build.rs"));
    let (reference, compiled) = programs(path, natives);
    let (min, max) = (reference.game.min_players as usize, reference.game.max_players as usize);
    let mut actions = 0;
    for players in min..=max {
        for seed in 0..games_per_count {
            let played = lockstep(path, &reference, &compiled, players, seed);
            check(players, seed, &played);
            actions += played.actions;
        }
    }
    assert!(actions > 0, "{path}: no action was played");
}

#[test]
fn compiled_thebes_plays_the_same_games_as_the_interpreter_to_their_end() {
    lockstep_many("rulesets/thebes/thebes.ruleset", 300);
}

#[test]
fn compiled_thebes_editions_play_the_same_games_as_the_interpreter_to_their_end() {
    for path in [
        "rulesets/thebes/editions/es.ruleset",
        "rulesets/thebes/editions/fr.ruleset",
        "rulesets/thebes/editions/ru.ruleset",
    ] {
        lockstep_many(path, 60);
    }
}

#[test]
fn compiled_grabrauber_plays_the_same_games_as_the_interpreter_to_their_end() {
    lockstep_many("rulesets/grabrauber/grabrauber.ruleset", 300);
}

#[test]
fn compiled_archaeology_plays_the_same_games_as_the_interpreter_to_their_end() {
    lockstep_many("rulesets/archaeology/archaeology.ruleset", 300);
}

#[test]
fn compiled_akrotiri_plays_the_same_games_as_the_interpreter_to_their_end() {
    lockstep_many("rulesets/akrotiri/akrotiri.ruleset", 60);
}

#[test]
fn compiled_small_generic_games_play_the_same_games_as_the_interpreter_within_their_action_limits() {
    // Some of these games stop at a rule error on purpose (`lets`,
    // `effects`); none runs to its action limit.
    for (path, _) in compiled::ALL.iter().filter(|(p, _)| p.starts_with("tests/fixtures/valid/")) {
        lockstep_each(path, 40, &mut |players, seed, played| {
            assert!(
                !played.at_limit,
                "{path}, {players} players, seed {seed}: the game ran to its action limit"
            );
        });
    }
}

/// The lets of `lets.ruleset` are worked out in place at their calls
/// (`generator_inlines_lets_with_parameters_and_calls_the_rest`); where
/// one reads its table outside the range, the root goes back to the
/// interpreter, which reports the rule error. Some games must meet it,
/// and most must not.
#[test]
fn compiled_lets_worked_out_in_place_meet_the_interpreters_rule_errors() {
    let path = "tests/fixtures/valid/lets.ruleset";
    let (reference, compiled) = programs(path, compiled::natives(path).expect("the fixture is compiled"));
    let (mut games, mut erred) = (0, 0);
    for players in 2..=4 {
        for seed in 0..60 {
            games += 1;
            erred += lockstep(path, &reference, &compiled, players, seed).rule_error as usize;
        }
    }
    assert!(erred >= 1 && erred * 2 < games, "{erred} of {games} games met a rule error");
}

/// A compiled function counts its inlined lets' steps apart and checks
/// them once, at its end; past the work limit it leaves the rules to the
/// interpreter, which stops where it stops alone. Both backends then refuse
/// the action with the same error, at the same let, and change nothing.
#[test]
fn compiled_lets_counted_apart_stop_at_the_interpreters_work_limit_error() {
    let path = "tests/fixtures/work/blowup.ruleset";
    let (reference, compiled) = programs(path, compiled::natives(path).expect("the fixture is compiled"));
    let generated = compile::generate(&load(path));
    assert!(generated.contains("steps += 1;") && generated.contains("it.add_steps(steps, w)"));
    let failure = |program: &Program| {
        let (mut g, _) = Game::new(program, 2, 1).expect("setup");
        let choices = g.legal().expect("the action is listed");
        let before = g.snapshot();
        let Err(engine::Fail::Rule { message, span }) = g.step(&choices[0]) else { panic!("the work limit") };
        assert_eq!(g.snapshot(), before, "a refused action changes nothing");
        (message, span)
    };
    let (message, span) = failure(&reference);
    assert!(message.contains(&format!("took more than {} steps", engine::MAX_WORK)), "{message}");
    assert_eq!(failure(&compiled), (message, span));
}

/// The aggregates of `filters.ruleset` go through zones with filters of
/// every shape the interpreter tests without its tree walk (`interp::fast`:
/// tags and the attribute table), and some it leaves to the walk (a map
/// read); the compiled backend works them out in its own code. Before
/// every action of lockstep games the score sheets (each aggregate shape)
/// must agree, as the legal choices and positions do.
#[test]
fn filters_tested_without_the_tree_walk_agree_with_the_compiled_rules() {
    let path = "tests/fixtures/valid/filters.ruleset";
    let (reference, compiled) = programs(path, compiled::natives(path).expect("the fixture is compiled"));
    let mut sheets = 0;
    let mut same_sheets = |a: &Game, b: &Game, _: &[engine::Choice]| {
        assert_eq!(a.scores(), b.scores(), "score sheets differ after {} actions", a.actions_taken());
        sheets += 1;
    };
    for players in 2..=4 {
        for seed in 0..40 {
            let played = lockstep_with(path, &reference, &compiled, players, seed, &mut same_sheets);
            assert!(!played.rule_error && !played.at_limit, "{players} players, seed {seed}");
        }
    }
    assert!(sheets > 1000, "only {sheets} score sheets were compared");
}

/// The effects of `effects.ruleset` use every kind of statement, and the
/// compiled backend runs each action's body, the procedures, setup and
/// `after action` as its own code (`Natives::actions` and the rest). In
/// lockstep games, before each random choice, every legal choice and
/// every `buy` of every component (refused ones included) is applied to
/// copies of both games: each must come out the same (the same events,
/// or the same refusal or rule error, and the same position after). Some
/// buys must be refused at the `require` after the body's first change,
/// which the compiled body reaches, and some legal sales must meet the
/// rule error of a full row in the middle of the action.
#[test]
fn compiled_effects_change_the_state_as_the_interpreters_and_refuse_alike() {
    let path = "tests/fixtures/valid/effects.ruleset";
    let (reference, compiled) = programs(path, compiled::natives(path).expect("the fixture is compiled"));
    let buy = reference.actions.iter().position(|a| a.name == "buy").expect("the fixture has buy");
    let components = reference.components.len();
    let (mut applied, mut refused_late, mut full) = (0, 0, 0);
    let mut try_each = |a: &Game, b: &Game, legal: &[engine::Choice]| {
        let buys = (0..components).map(|c| {
            engine::Choice::new(model::ActionId::new(buy), vec![engine::V::Card(model::ComponentId::new(c))])
        });
        for choice in legal.iter().cloned().chain(buys) {
            let (mut a, mut b) = (a.clone(), b.clone());
            let (ra, rb) = (a.apply(&choice), b.apply(&choice));
            applied += 1;
            let message = ra.as_ref().err().map(|f| f.message().to_string()).unwrap_or_default();
            refused_late += message.contains("three cards") as usize;
            full += message.contains("is full") as usize;
            assert_eq!(ra, rb, "applying {choice:?} differs");
            assert_eq!(a.snapshot(), b.snapshot(), "positions differ after {choice:?}");
        }
    };
    for players in 2..=4 {
        for seed in 0..40 {
            lockstep_with(path, &reference, &compiled, players, seed, &mut try_each);
        }
    }
    assert!(refused_late > 0, "no buy was refused after the body's first change ({applied} applied)");
    assert!(full > 0, "no sale met a full row ({applied} applied)");
}

#[test]
fn compiled_rules_are_refused_for_other_rules() {
    let natives = compiled::natives("rulesets/thebes/thebes.ruleset").expect("Thebes is compiled");
    let err = Program::with_natives(load("rulesets/grabrauber/grabrauber.ruleset"), natives)
        .expect_err("Thebes' compiled rules do not fit Die Grabräuber");
    assert!(err.contains("made from other rules"), "{err}");
}

/// `explain` reads the interpreter's trace: a compiled program records
/// the same lets and table reads, with the same values, as the interpreter.
#[test]
fn compiled_program_traces_what_the_interpreter_traces() {
    let path = "rulesets/thebes/thebes.ruleset";
    let (reference, compiled) = programs(path, compiled::natives(path).expect("Thebes is compiled"));
    let mut a = Game::start(&reference, 3, 11).expect("setup");
    let mut b = Game::start(&compiled, 3, 11).expect("setup");
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(11);
    let mut traced = 0;
    while a.current().is_some() {
        let choices = a.choices();
        let choice = &choices[rng.gen_range(0..choices.len())];
        let (ta, tb) = (a.apply_traced(choice), b.apply_traced(choice));
        traced += ta.as_ref().map_or(0, |(_, t)| t.len());
        assert_eq!(ta, tb, "the traces of {choice:?} differ");
        // (A choice that failed would leave the state as it was.)
        assert!(ta.is_ok(), "a listed choice applies: {choice:?}");
    }
    assert_eq!(a.scores_traced(), b.scores_traced());
    assert!(traced > 100, "only {traced} values traced");
}

/// A ruleset's fingerprint is FNV-1a over its debug form with the
/// distances between places left out (the rules' whole debug form, the
/// distances field cut from it), for every bundled ruleset; the distances
/// do not change it, any rule does.
#[test]
fn fingerprint_is_fnv1a_of_the_rules_debug_form_without_distances() {
    for (path, natives) in compiled::ALL {
        let rules = load(path);
        let whole = format!("{rules:?}");
        let distances = format!(", distances: {:?}", rules.distances);
        assert_eq!(whole.matches(&distances).count(), 1, "{path}");
        let expected = engine::native::fnv1a(whole.replacen(&distances, "", 1).as_bytes());
        assert_eq!(engine::native::fingerprint(&rules), expected, "{path}");
        assert_eq!(natives.fingerprint, expected, "{path}");
        let mut farther = rules.clone();
        farther.distances.iter_mut().flatten().for_each(|d| *d = d.map(|n| n + 1));
        assert_eq!(engine::native::fingerprint(&farther), expected, "{path}: distances");
        let mut longer = rules.clone();
        longer.game.max_actions += 1;
        assert_ne!(engine::native::fingerprint(&longer), expected, "{path}: a rule");
    }
}
