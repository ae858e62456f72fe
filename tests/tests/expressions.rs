//! The interpreter evaluates numbers and yes/no values on paths of their
//! own, and a loop filtered by `c has t` (with `t` fixed) tests tags
//! directly instead of evaluating the filter per component, and `any(x in
//! D where x == y)` looks `y` up in `D`. These checks
//! hold each fast form equal to a slow form of the same meaning, written so
//! the interpreter cannot take the short cut, in many random positions of a
//! small generic game.

use engine::{Game, V};
use rand::{Rng, SeedableRng};

const RULES: &str = r#"
game chips "Chips" { players 2..4 }
kind chip {
  points: -3..5 = 0
  colour: text = "grey"
  tags: tags
}
tokens chips of chip total 14 {
  "red" x4 { points: 2  colour: "red"  tags: [red] }
  "blue" x3 { points: -3  colour: "blue"  tags: [blue] }
  "both" x2 { points: 5  colour: "purple"  tags: [red, blue] }
  "plain" x5
}
zone supply: bag
zone kept: tableau per player
counter time per player = 0
counter seats = 0
setup {
  move all c in chips to supply
  set seats = player_count
}
turns by lowest time

action take(n: 1..3) {
  advance me.time by n
  draw n from supply to me.kept
}
action give_back(c: in me.kept) {
  advance me.time by 1
  move c to supply
}

end when all(p in players where p.time >= 10)
score points = sum(c.points for c in me.kept)

// Each fast form, then the same meaning where the filter is not a bare
// `has` (so every component's filter is evaluated).
let count_fast(p: player, t: tag) = count(c in p.kept where c has t)
let count_slow(p: player, t: tag) = count(c in p.kept where (c has t) == yes)
let any_fast(p: player, t: tag) = any(c in p.kept where c has t)
let any_slow(p: player, t: tag) = any(c in p.kept where (c has t) == yes)
let all_fast(p: player, t: tag) = all(c in p.kept where c has t)
let all_slow(p: player, t: tag) = all(c in p.kept where (c has t) == yes)
let sum_fast(p: player, t: tag) = sum(c.points for c in p.kept where c has t)
let sum_slow(p: player, t: tag) = sum(c.points for c in p.kept where (c has t) == yes)
let min_fast(p: player) = min(c.points for c in p.kept where c has red)
let min_slow(p: player) = min(c.points for c in p.kept where (c has red) == yes)
let first_fast(p: player, t: tag) = first(c in p.kept where c has t)
let first_slow(p: player, t: tag) = first(c in p.kept where (c has t) == yes)

// Whether a zone holds a component: `any(x in D where x == y)`, read as a
// look-up, either way round; against a filter that is not that shape.
let holds_fast(p: player, c: card) = any(x in p.kept where x == c)
let holds_turned(p: player, c: card) = any(x in p.kept where c == x)
let holds_slow(p: player, c: card) = any(x in p.kept where (x == c) == yes)

// Numbers and yes/no through lets, conditionals and arithmetic, against
// the same values built without them.
let arith(p: player) = (p.time * 7 - 3) / 2 % 5 + -p.time
let arith_parts(p: player) = sum(x.time * 7 for x in players where x == p) - 3
let picked(p: player) = if p.time > 4 and not (p.time == 6) then count_fast(p, red) else -1
let picked_by_hand(p: player) = if count(x in players where x == p and x.time > 4 and x.time != 6) > 0 then count_slow(p, red) else 0 - 1

// Texts: from attributes and literals, compared by their contents.
let red_by_colour(p: player) = count(c in p.kept where c.colour == "red" or c.colour == "purple")
let grey_by_colour(p: player) = count(c in p.kept where c.colour != "red" and c.colour != "blue" and c.colour != "purple")
let plain(p: player) = count(c in p.kept where not (c has red) and not (c has blue))

// Lets without parameters: fixed for the game (worked out once), or not.
let seats_times_four = player_count * (2 + 2)
let seats_twice = seats * 2          // set in setup only: fixed after it
let total_time = sum(p.time for p in players)
let red_in_supply = count(c in supply where c has red)
let my_time = me.time
"#;

fn rules() -> engine::Program {
    let checked = ruleset::check_source(RULES);
    // Lets only this test calls are reported unused; nothing else.
    assert!(
        checked.diagnostics.iter().all(|d| d.message.contains("is never used")),
        "{:?}",
        checked.diagnostics
    );
    engine::Program::new(checked.ruleset.expect("the ruleset checks"))
}

fn call(g: &Game, name: &str, args: Vec<V>) -> V {
    g.call_let(name, None, args).expect("the let exists").expect("it evaluates")
}

#[test]
fn only_lets_without_parameters_that_read_nothing_play_changes_are_constants() {
    let r = rules();
    let plan = engine::legality::TrialPlan::new(&r);
    let constant: Vec<&str> =
        r.lets.iter().zip(&plan.constant_lets).filter(|(_, c)| **c).map(|(l, _)| l.name.as_str()).collect();
    assert_eq!(constant, ["seats_times_four", "seats_twice"]);
    // The others follow the game.
    let (mut g, _) = Game::new(&r, 3, 7).expect("setup");
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(7);
    let mut seen = std::collections::BTreeSet::new();
    while g.current().is_some() {
        assert_eq!(call(&g, "seats_times_four", vec![]), V::Int(12));
        assert_eq!(call(&g, "seats_twice", vec![]), V::Int(6));
        let times: i64 = (0..3).map(|p| chronoscope_tests::scenario::time(&g, p)).sum();
        assert_eq!(call(&g, "total_time", vec![]), V::Int(times));
        seen.insert(format!("{:?}", call(&g, "red_in_supply", vec![])));
        let choices = g.choices();
        let c = &choices[rng.gen_range(0..choices.len())];
        g.step(c).expect("a legal choice applies");
    }
    assert!(seen.len() > 2, "the supply's red chips change: {seen:?}");
}

#[test]
fn fast_and_slow_forms_agree_in_random_positions() {
    let r = rules();
    let tags: Vec<V> = ["red", "blue"].iter().map(|t| V::Tag(r.tag_named(t).unwrap())).collect();
    let mut positions = 0;
    let mut nonzero = 0;
    let mut held = 0;
    for seed in 1..=60u64 {
        let players = 2 + (seed % 3) as usize;
        let (mut g, _) = Game::new(&r, players, seed).expect("setup");
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
        while g.current().is_some() {
            for p in 0..players {
                let pv = V::Player(model::PlayerId::new(p));
                for t in &tags {
                    for f in ["count", "any", "all", "sum", "first"] {
                        let args = vec![pv, *t];
                        let fast = call(&g, &format!("{f}_fast"), args.clone());
                        assert_eq!(
                            fast,
                            call(&g, &format!("{f}_slow"), args),
                            "{f} for player {p}, seed {seed}"
                        );
                        nonzero += usize::from(fast != V::Int(0) && fast != V::None);
                    }
                }
                assert_eq!(call(&g, "min_fast", vec![pv]), call(&g, "min_slow", vec![pv]));
                for c in 0..r.components.len() {
                    let args = vec![pv, V::Card(model::ComponentId::new(c))];
                    let fast = call(&g, "holds_fast", args.clone());
                    assert_eq!(
                        fast,
                        call(&g, "holds_slow", args.clone()),
                        "chip {c}, player {p}, seed {seed}"
                    );
                    assert_eq!(fast, call(&g, "holds_turned", args), "chip {c}, player {p}, seed {seed}");
                    held += usize::from(fast == V::Bool(true));
                }
                let time = match call(&g, "arith_parts", vec![pv]) {
                    V::Int(n) => n,
                    other => panic!("{other:?}"),
                };
                // (7t - 3) / 2 % 5 - t, rounding down as the language does.
                let t = (time + 3) / 7;
                let expected = ((7 * t - 3).div_euclid(2)).rem_euclid(5) - t;
                assert_eq!(call(&g, "arith", vec![pv]), V::Int(expected));
                assert_eq!(call(&g, "picked", vec![pv]), call(&g, "picked_by_hand", vec![pv]));
                assert_eq!(call(&g, "red_by_colour", vec![pv]), call(&g, "count_fast", vec![pv, tags[0]]));
                assert_eq!(call(&g, "grey_by_colour", vec![pv]), call(&g, "plain", vec![pv]));
                positions += 1;
            }
            let choices = g.choices();
            let c = &choices[rng.gen_range(0..choices.len())];
            g.step(c).expect("a legal choice applies");
        }
    }
    // The positions really vary: most have something to count.
    assert!(positions > 1000, "{positions} positions");
    assert!(nonzero > positions, "{nonzero} non-zero results in {positions} positions");
    // Players hold some chips and not others.
    assert!(held > positions && held < positions * 14, "{held} chips held in {positions} positions");
}
