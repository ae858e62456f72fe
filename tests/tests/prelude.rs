//! The setup's prelude (`engine::game::prelude`): the setup's first
//! statements that read no random draw, run once per player count and
//! copied into each game. A game started from the prelude must be the game
//! the whole setup makes: the same state, events and work, the same
//! listings and events to the end, and the same errors.

use engine::{Game, Program};
use rand::{Rng, SeedableRng};

/// A setup whose prelude sorts chips by colour with a loop, a `repeat`, a
/// procedure, a `by players` and counters; then a procedure that shuffles
/// and a draw, which read the seed, then more that the prelude leaves to
/// each game.
const SORTING: &str = r#"
game sorting "Sorting" { players 2..4 }
place colour red, blue
kind chip {
  colour: colour
  worth: 1..3
}
tokens chips of chip total 16 {
  "red 1" x6 { colour: red  worth: 1 }
  "red 2" x3 { colour: red  worth: 2 }
  "blue 1" x5 { colour: blue  worth: 1 }
  "blue 3" x2 { colour: blue  worth: 3 }
}
zone bag[colour]: bag
zone spare: pile
zone deck: pile
zone hand: hand per player
counter stock = 0
counter round = 0
counter gain per player = 0
turns clockwise
procedure set_aside(n: int) {
  repeat while count(spare) > n {
    move first c in spare to deck
  }
}
procedure mix() {
  shuffle deck
}
setup {
  for k in colour {
    move all c in chips where c.colour == k to bag[k]
    repeat while count(c in bag[k] where c.worth == 1) > 3 {
      move first c in bag[k] where c.worth == 1 to spare
      advance stock by 1
    }
  }
  do set_aside(4)
  by players {
    2: { move all c in spare to deck }
    3, 4: {
      move first c in spare to deck
      if stock > 2 { set round = 1 }
    }
  }
  move all c in bag[red] to deck
  do mix()
  for p in players { draw 1 from deck to p.hand }
  move all c in bag[blue] to deck
  set stock = count(deck)
}
action take(c: in deck) {
  move c to me.hand
  advance me.gain by c.worth
  advance round by 1
}
action pass() {
  require count(deck) == 0 else "take while the deck lasts"
  advance round by 1
}
end when round >= 12
score worth = me.gain
"#;

fn program(src: &str) -> Program {
    let checked = ruleset::check_source(src);
    assert!(checked.diagnostics.is_empty(), "{:?}", checked.diagnostics);
    Program::new(checked.ruleset.unwrap())
}

#[test]
fn games_started_from_the_prelude_equal_games_that_run_the_whole_setup_to_the_end() {
    let with = program(SORTING);
    let without = program(SORTING).without_prelude();
    for players in 2..=4 {
        for seed in 1..=25u64 {
            // Started twice: the first start works the prelude out, the
            // second copies it.
            for _ in 0..2 {
                let (mut a, setup_a) = Game::new(&with, players, seed).unwrap();
                let (mut b, setup_b) = Game::new(&without, players, seed).unwrap();
                assert_eq!(setup_a, setup_b, "{players} players, seed {seed}: the setup's events");
                assert_eq!(a.snapshot(), b.snapshot(), "{players} players, seed {seed}: the state set up");
                assert_eq!(a.work_done(), b.work_done(), "{players} players, seed {seed}: the setup's work");
                let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
                while let Some(me) = a.current() {
                    assert_eq!(Some(me), b.current());
                    let (ca, cb) = (a.choices(), b.choices());
                    assert_eq!(ca, cb, "{players} players, seed {seed}: a listing");
                    let pick = &ca[rng.gen_range(0..ca.len())];
                    assert_eq!(a.apply(pick).unwrap(), b.apply(pick).unwrap());
                }
                assert!(b.current().is_none());
                assert_eq!(a.snapshot(), b.snapshot(), "{players} players, seed {seed}: the end");
                assert_eq!(a.scores().unwrap().totals, b.scores().unwrap().totals);
            }
        }
    }
}

#[test]
fn the_prelude_leaves_the_seeds_draws_to_each_game() {
    // The chips dealt after the shuffle differ between seeds; what the
    // prelude sorted does not.
    let with = program(SORTING);
    let hands: std::collections::BTreeSet<Vec<Vec<Option<model::ComponentId>>>> = (1..=12u64)
        .map(|seed| {
            let g = Game::start(&with, 4, seed).unwrap();
            let deck = g.layout.zone_insts().find(|z| g.layout.zone_name(g.rules, *z) == "deck").unwrap();
            let mut shown = g.snapshot().zones;
            shown.remove(deck.index());
            shown
        })
        .collect();
    assert!(hands.len() > 1, "every seed dealt the same hands");
}

#[test]
fn a_prelude_that_fails_fails_every_game_as_the_whole_setup_does() {
    // The requirement fails with 3 players and more, in the prelude.
    let src = SORTING.replace(
        "  move all c in bag[red] to deck\n",
        "  move all c in bag[red] to deck\n  require player_count < 3 or stock < 5 else \"too many spare chips\"\n",
    );
    let with = program(&src);
    let without = program(&src).without_prelude();
    let failure = |p: &Program, players| Game::new(p, players, 5).err().map(|f| f.message().to_string());
    assert_eq!(failure(&without, 2), None);
    assert_eq!(failure(&with, 2), None);
    let expected = failure(&without, 3).expect("the whole setup fails with 3 players");
    assert!(expected.contains("too many spare chips"), "{expected}");
    for _ in 0..2 {
        assert_eq!(failure(&with, 3).as_deref(), Some(expected.as_str()));
    }
}
