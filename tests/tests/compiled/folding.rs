//! Constants folded into what an interpreted program walks (options, lets
//! written out as a number or yes/no, and what they make known): the same
//! games and let values as the rules walked as written.

use super::*;
use engine::V;
use model::{Expr, ExprKind};

/// Every expression node of the rules' lets and statements, each once.
fn nodes(rules: &model::Ruleset) -> Vec<ExprKind> {
    fn walk(e: &Expr, out: &mut Vec<ExprKind>) {
        out.push(e.kind.clone());
        e.for_each_child(|c| walk(c, out));
    }
    let mut out = Vec::new();
    for l in &rules.lets {
        walk(&l.body, &mut out);
    }
    // The statements' roots: the lets, walked above, left out.
    let mut statements = rules.clone();
    statements.lets.clear();
    engine::native::roots_mut(&mut statements, &mut |e| walk(e, &mut out));
    out
}

/// The fixture's constants fold as written in it: no option read as a
/// number or yes/no is left, lets of constants are literals, the division
/// by zero stays where a game would read it, a let of a parameter keeps
/// its call; the program still gives its rules as written (the compiled
/// rules are made from them, by fingerprint).
#[test]
fn a_program_folds_its_constants_and_gives_its_rules_as_written() {
    let path = "tests/fixtures/valid/folding.ruleset";
    let rules = load(path);
    let program = Program::new(rules.clone());
    assert_eq!(engine::native::fingerprint(program.rules()), engine::native::fingerprint(&rules));
    let walked = program.walked();
    assert_ne!(engine::native::fingerprint(walked), engine::native::fingerprint(&rules));
    let body = |name: &str| &walked.lets[walked.let_named(name).expect("a let")].body.kind;
    assert!(matches!(body("base"), ExprKind::Int(3)));
    assert!(matches!(body("doubled"), ExprKind::Int(8)), "{:?}", body("doubled"));
    // `early = late + 1`, `late` declared after it.
    assert!(matches!(body("early"), ExprKind::Int(3)), "{:?}", body("early"));
    // `if strict then base else doubled - 1`, strict being `no`.
    assert!(matches!(body("cap"), ExprKind::Int(7)), "{:?}", body("cap"));
    // `cap > limit - 2`: 7 > 7.
    assert!(matches!(body("high_bar"), ExprKind::Bool(false)), "{:?}", body("high_bar"));
    assert!(
        matches!(body("never"), ExprKind::Binary(model::BinaryOp::Div, x, y)
            if matches!((&x.kind, &y.kind), (ExprKind::Int(1), ExprKind::Int(0)))),
        "{:?}",
        body("never")
    );
    let options =
        |r: &model::Ruleset| nodes(r).into_iter().filter(|k| matches!(k, ExprKind::Option(_))).count();
    assert!(options(&rules) >= 10, "the fixture reads its options");
    assert_eq!(options(walked), 0, "every option is a number or yes/no");
    // The lets of parameters are still called.
    let calls = |r: &model::Ruleset, name: &str| {
        let id = r.let_named(name).expect("a let");
        nodes(r).into_iter().filter(|k| matches!(k, ExprKind::Let { id: i, .. } if *i == id)).count()
    };
    assert_eq!(calls(walked, "reds"), calls(&rules, "reds"));
    assert_eq!(calls(walked, "cap"), 0);
    assert!(calls(&rules, "cap") > 0);
    assert!(nodes(walked).len() < nodes(&rules).len());
}

/// Seeded random games of a program that folds its constants and of one
/// that walks the rules as written, in lockstep: the same choices, events,
/// positions and scores after every action, in the fixture (each of its
/// lets compared too, for every player and argument, before every action)
/// and in every bundled game.
#[test]
fn folded_constants_play_the_games_of_the_rules_as_written() {
    let path = "tests/fixtures/valid/folding.ruleset";
    let rules = load(path);
    let (written, folded) = (Program::unfolded(rules.clone()), Program::new(rules.clone()));
    let mut asked = 0;
    for players in 2..=4 {
        for seed in 0..40 {
            lockstep_with(path, &written, &folded, players, seed, &mut |a, b, _| {
                let me = a.current();
                let mut ask = |name: &str, args: Vec<V>| {
                    let (x, y) = (a.call_let(name, me, args.clone()), b.call_let(name, me, args.clone()));
                    assert_eq!(x, y, "{name}{args:?}, {players} players, seed {seed}");
                    asked += 1;
                };
                for name in ["base", "doubled", "cap", "high_bar", "never", "early"] {
                    ask(name, vec![]);
                }
                for p in 0..players {
                    ask("reds", vec![V::Player(model::PlayerId::new(p))]);
                }
                for c in 0..rules.components.len() {
                    ask("worth", vec![V::Card(model::ComponentId::new(c))]);
                }
            });
        }
    }
    assert!(asked > 10_000, "only {asked} calls compared");
    for (path, games) in [
        ("rulesets/thebes/thebes.ruleset", 4),
        ("rulesets/grabrauber/grabrauber.ruleset", 8),
        ("rulesets/archaeology/archaeology.ruleset", 4),
        ("rulesets/akrotiri/akrotiri.ruleset", 1),
    ] {
        let rules = load(path);
        let (written, folded) = (Program::unfolded(rules.clone()), Program::new(rules));
        for players in written.game.min_players as usize..=written.game.max_players as usize {
            for seed in 0..games {
                lockstep(path, &written, &folded, players, seed);
            }
        }
    }
}
