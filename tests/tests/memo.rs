//! The memo keeps let values and regions past a change of the state that
//! wrote nothing they read (`engine::interp::LetReads`). After every action
//! of seeded random games of every bundled game, on the interpreter and on
//! the compiled rules, each value the memo keeps for the next listing must
//! equal what the rules work out afresh; and on the interpreter the memo
//! must keep some, or the check would hold of an empty memo.

use chronoscope_tests::{compiled, scenario};
use engine::{Game, Program};
use rand::{Rng, SeedableRng};

/// Play `games` seeded random games, checking the memo after each action:
/// how many kept values were checked in all.
fn check(path: &str, program: &Program, players: usize, games: u64) -> usize {
    let mut checked = 0;
    let mut choices = Vec::new();
    for seed in 1..=games {
        let mut g = Game::start(program, players, seed).expect("setup");
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
        while g.current().is_some() {
            g.choices_into(&mut choices);
            let c = &choices[rng.gen_range(0..choices.len())];
            g.step(c).expect("a listed choice applies");
            match g.memo_agrees() {
                Ok(n) => checked += n,
                Err(e) => panic!("{path}, seed {seed}, after action {}: {e}", g.actions_taken()),
            }
        }
    }
    checked
}

/// On both engines; the interpreter must have kept values (compiled rules
/// keep most of theirs for one listing, `Natives::listing`, and may keep
/// none in the memo).
fn both(path: &str, players: usize, games: u64) {
    let checked = check(path, &scenario::load(path), players, games);
    assert!(checked > 0, "{path}: the memo kept nothing from one action to the next");
    check(path, &compiled::load(path), players, games);
}

#[test]
fn thebes_let_values_kept_past_an_action_equal_fresh_ones() {
    both("rulesets/thebes/thebes.ruleset", 4, 3);
}

#[test]
fn grabrauber_let_values_kept_past_an_action_equal_fresh_ones() {
    both("rulesets/grabrauber/grabrauber.ruleset", 4, 3);
}

#[test]
fn archaeology_let_values_kept_past_an_action_equal_fresh_ones() {
    both("rulesets/archaeology/archaeology.ruleset", 3, 3);
}

#[test]
fn akrotiri_let_values_and_regions_kept_past_an_action_equal_fresh_ones() {
    both("rulesets/akrotiri/akrotiri.ruleset", 2, 1);
}

/// A link's steps are kept past an action that wrote, of what the link
/// reads, only some places' counters and zones (`heights`: a cell raised,
/// a stone dropped or lifted); the steps that read those places go.
#[test]
fn heights_steps_kept_past_a_change_of_one_place_equal_fresh_ones() {
    both(HEIGHTS, 2, 20);
}

/// A walk on a copy of the state being changed (a trial, an action
/// applied) reads the game's memo while the copy's writes so far are of
/// nothing its link reads, and walks afresh once they are (`heights`'
/// `wall`: a count of walls, then a stone). Each listing equals the
/// choices `check` accepts one by one, and each action applied leaves
/// the position that applying it without the memo (traced) does.
#[test]
fn heights_walks_on_a_changed_copy_read_the_memo_only_while_their_link_reads_nothing_changed() {
    for program in [scenario::load(HEIGHTS), compiled::load(HEIGHTS)] {
        let mut walls = 0;
        for seed in 1..=12 {
            let mut g = Game::start(&program, 2, seed).expect("setup");
            let mut traced = Game::start(&program, 2, seed).expect("setup");
            let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
            while g.current().is_some() {
                let choices = g.choices();
                assert_eq!(choices, scenario::brute_force_choices(&g), "seed {seed}");
                let c = &choices[rng.gen_range(0..choices.len())];
                walls += usize::from(g.rules.actions[c.action.index()].name == "wall");
                g.step(c).expect("a listed choice applies");
                traced.apply_traced(c).expect("and applies traced");
                assert_eq!(g.snapshot(), traced.snapshot(), "seed {seed}, after {c:?}");
            }
        }
        assert!(walls > 10, "only {walls} walls built");
    }
}

const HEIGHTS: &str = "tests/fixtures/valid/heights.ruleset";

/// Calls of a let that reads nothing of the state but zones and counters
/// declared per place (`heights`' `beside_stone`, through `stone_at` and
/// `clear`) are kept past an action that wrote some of them: a stone
/// dropped on a cell forgets the calls that read that cell (those of the
/// four cells beside it) and keeps the rest. A call that read more places
/// than the memo notes of one call (`crowded`, every cell) is forgotten
/// at any change of what its let reads, even of a place it did not read.
/// On the interpreter: compiled rules keep such calls for one listing
/// (`Natives::listing`).
#[test]
fn heights_calls_of_a_let_that_reads_places_alone_are_kept_past_a_change_of_other_places() {
    let program = scenario::load(HEIGHTS);
    let (mut g, _) = Game::new(&program, 2, 1).expect("setup");
    // The choice listed now of `action` on the cell with four beside it.
    let in_the_middle = |g: &Game, action: &str| {
        let id = g.rules.actions.iter().position(|a| a.name == action).unwrap();
        let middle = g.rules.places.iter().position(|p| p.name == "cell_1_1").unwrap();
        let here = engine::V::Place(model::PlaceId::new(middle));
        g.choices().into_iter().find(|c| c.action.index() == id && c.args[0] == here)
    };
    let drop = in_the_middle(&g, "drop").expect("a stone may be dropped in the middle");
    assert_eq!(g.kept_calls("beside_stone"), 16, "the listing asks it of every clear cell");
    assert_eq!(g.kept_calls("crowded"), 1);
    g.step(&drop).expect("a listed choice applies");
    assert_eq!(g.kept_calls("beside_stone"), 12, "the four cells beside the stone are asked afresh");
    assert_eq!(g.kept_calls("crowded"), 0, "a call that read every cell goes");
    assert!(g.memo_agrees().expect("what is kept is what the rules give afresh") > 12);
    // The next listing asks again only what went: the cells beside the
    // stone are beside one now.
    let perch = g.rules.actions.iter().position(|a| a.name == "perch").unwrap();
    let perches = g.choices().into_iter().filter(|c| c.action.index() == perch).count();
    assert_eq!(perches, 4, "a walker may perch beside the stone");
    assert_eq!(g.kept_calls("beside_stone"), 16, "the four asked afresh, and the twelve kept");
    // `crowded` read every cell's stones, and the heights of the clear
    // cells only: raising the stone's cell writes nothing it read, but it
    // read more than the memo notes, so it goes all the same.
    assert_eq!(g.kept_calls("crowded"), 1);
    let raise = in_the_middle(&g, "raise").expect("the stone's cell may be raised");
    g.step(&raise).expect("a listed choice applies");
    assert_eq!(g.kept_calls("crowded"), 0, "a call that read more than the memo notes goes");
    assert_eq!(g.kept_calls("beside_stone"), 16, "a height is none of what it reads");
    g.memo_agrees().expect("what is kept is what the rules give afresh");
}

/// Lets that read `me` and the state directly, with no argument: their
/// values stay while the same player moves on, and go when the player to
/// move changes or the action wrote what they read.
const READS_ME: &str = r#"
game kept "Kept" { players 2..2 }
place city A, B, C
route A - B, B - C
piece pawn per player at A
kind chip { }
tokens chips of chip total 4 {
  "plain" x4
}
zone pool: pile
zone hand: hand per player
counter time per player = 0
setup {
  move all c in chips to pool
}
turns by lowest time
let held() = count(me.hand)
let late() = me.time
let here() = me.pawn
action take(c: in pool) {
  require held() < 3 else "your hand is full"
  move c to me.hand
  advance me.time by 1
}
action wait(n: 1..2) {
  require late() < 10 else "too late"
  advance me.time by n
}
action hop(to: city in around(me.pawn)) {
  require to != here() else "you are there"
  set me.pawn = to
  advance me.time by 1
}
end when all(p in players where p.time >= 6)
score in_hand = count(me.hand)
"#;

/// The program of a ruleset's text, which must check clean.
fn program_of(source: &str) -> Program {
    let checked = ruleset::check_source(source);
    assert!(checked.diagnostics.is_empty(), "{:?}", checked.diagnostics);
    Program::new(checked.ruleset.expect("a ruleset that checks clean"))
}

#[test]
fn let_values_that_read_me_are_kept_for_the_same_player_only() {
    let program = program_of(READS_ME);
    assert!(check("kept", &program, 2, 20) > 0, "the memo kept nothing from one action to the next");
}

/// Every action ends the turn (`end turn`, a write of the turn's
/// bookkeeping, not of anything a let reads): `open()` reads a zone no
/// action writes, so its value stands from one turn to the next.
const ENDS_TURNS: &str = r#"
game ends "Ends" { players 2..2 }
kind chip { }
tokens chips of chip total 10 {
  "plain" x10
}
zone pool: pile
zone reserve: pile
zone hand: hand per player
setup {
  move all c in chips to pool
  move first c in pool to reserve
  move first c in pool to reserve
}
turns clockwise until end turn
let open() = count(reserve) > 0
let held(p: player) = count(p.hand)
action take(c: in pool) {
  require open() else "the market is closed"
  require held(me) < 4 else "your hand is full"
  move c to me.hand
  end turn
}
action pass {
  require held(me) == 4 else "take a chip"
  end turn
}
end when all(p in players where held(p) == 4)
score in_hand = held(me)
"#;

#[test]
fn let_values_are_kept_past_an_action_that_ends_the_turn() {
    let program = program_of(ENDS_TURNS);
    assert!(check("ends", &program, 2, 5) > 0, "the memo forgot everything at the end of each turn");
}
