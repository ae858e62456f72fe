//! Three patterns a game of trade needs, written with the language as it
//! is (no construct of their own), on a small generic ruleset:
//! tests/fixtures/valid/market.ruleset. A market track whose price rises as
//! goods leave it (a pile per colour and a price table read by how many are
//! left), a choice each player makes in setup (draw two goals, keep one),
//! and a number of actions per turn that grows with what a player built.

use chronoscope_tests::scenario::{self, act, counter, counter_id, total_components, zone};
use engine::{notation, At, Game, Program, V};
use model::PlayerId;
use rand::{Rng, SeedableRng};

const PATH: &str = "tests/fixtures/valid/market.ruleset";

fn program() -> Program {
    scenario::load(PATH)
}

fn int(v: V) -> i64 {
    match v {
        V::Int(n) => n,
        other => panic!("{other:?}"),
    }
}

fn choice_texts(g: &Game) -> Vec<String> {
    g.choices().iter().map(|c| notation::format(g, c)).collect()
}

/// Answer every question setup asked: each player keeps the first goal offered.
fn keep_first_goals(g: &mut Game) {
    while !g.asks().is_empty() {
        let choices = g.choices();
        g.apply(&choices[0]).expect("keeping a goal is legal");
    }
}

/// Move `n` cubes of a colour from its track into a zone instance.
fn take_cubes(g: &mut Game, colour: &str, n: usize, to: engine::ZoneInst) {
    let track = zone(g, "track", None, Some(colour));
    for _ in 0..n {
        let c = g.cards(track).next().expect("a cube left");
        g.put(c, to, At::Bottom);
    }
}

#[test]
fn setup_asks_each_player_in_seat_order_to_keep_one_of_two_goals_before_the_first_turn() {
    let program = program();
    let (mut g, _) = Game::new(&program, 3, 4).unwrap();
    let asked: Vec<PlayerId> = g.asks().iter().map(|(p, _)| *p).collect();
    assert_eq!(asked, PlayerId::all(3).collect::<Vec<_>>());
    for p in PlayerId::all(3) {
        assert_eq!(g.current(), Some(p), "P{} answers in turn", p.index() + 1);
        let offered = zone(&g, "offered", Some(p.index()), None);
        assert_eq!(g.count(offered), 2);
        // Only the question's action, once per goal offered.
        let texts = choice_texts(&g);
        assert_eq!(texts.len(), 2, "{texts:?}");
        assert!(texts.iter().all(|t| t.starts_with("keep_goal ")), "{texts:?}");
        g.apply(&g.choices()[0]).unwrap();
        assert_eq!(g.count(offered), 0);
        assert_eq!(g.count(zone(&g, "kept", Some(p.index()), None)), 1);
    }
    assert_eq!(g.count(zone(&g, "box", None, None)), 3, "the goals not kept are out of the game");
    // Then the first turn, of the first player in the shuffled order.
    assert_eq!(g.current(), Some(g.seat_order()[0]));
    let texts = choice_texts(&g);
    assert!(texts.contains(&"take blue".to_string()) && texts.contains(&"pass".to_string()), "{texts:?}");
}

#[test]
fn a_sale_fills_the_rightmost_empty_space_so_two_blue_and_one_grey_pay_3_3_and_2() {
    // The market track's worked example: blue has 3 cubes left and grey 5;
    // selling 2 blue and 1 grey pays 3 + 3 + 2 = 8.
    let program = program();
    let (mut g, _) = Game::new(&program, 2, 1).unwrap();
    keep_first_goals(&mut g);
    let me = g.current().unwrap().index();
    let hold = zone(&g, "hold", Some(me), None);
    let box_ = zone(&g, "box", None, None);
    take_cubes(&mut g, "blue", 2, hold);
    take_cubes(&mut g, "blue", 3, box_);
    take_cubes(&mut g, "grey", 1, hold);
    take_cubes(&mut g, "grey", 2, box_);
    let coins = |g: &Game| int(counter(g, "coins", Some(me)));
    let start = coins(&g);
    let mut paid = Vec::new();
    for cube in ["\"Blue cube\"", "\"Blue cube\"", "\"Grey cube\""] {
        let before = coins(&g);
        act(&mut g, &format!("sell {cube}"));
        paid.push(coins(&g) - before);
    }
    assert_eq!(paid, [3, 3, 2]);
    assert_eq!(coins(&g) - start, 8);
    // Selling is free: still this player's turn, with every action left.
    assert_eq!(g.current().map(|p| p.index()), Some(me));
    assert_eq!(int(counter(&g, "acted", Some(me))), 0);
}

#[test]
fn taking_empties_the_leftmost_full_space_so_each_sale_pays_more_as_goods_leave() {
    let program = program();
    let (mut g, _) = Game::new(&program, 2, 2).unwrap();
    keep_first_goals(&mut g);
    let me = g.current().unwrap().index();
    let track = zone(&g, "track", None, Some("grey"));
    let coins = |g: &Game| int(counter(g, "coins", Some(me)));
    // A full track: the first sale has no empty space to fill.
    act(&mut g, "take grey");
    assert_eq!(g.count(track), 7);
    let before = coins(&g);
    act(&mut g, "sell \"Grey cube\"");
    assert_eq!(coins(&g) - before, 1, "the leftmost space, emptied by the take, is worth 1");
    // Three more gone (by hand: a turn has three actions).
    let hold = zone(&g, "hold", Some(me), None);
    take_cubes(&mut g, "grey", 3, hold);
    assert_eq!(g.count(track), 5);
    let before = coins(&g);
    act(&mut g, "sell \"Grey cube\"");
    assert_eq!(coins(&g) - before, 2, "space 3 is worth 2");
    let before = coins(&g);
    act(&mut g, "sell \"Grey cube\"");
    assert_eq!(coins(&g) - before, 2, "space 2 is worth 2");
}

#[test]
fn a_turn_allows_three_actions_and_one_more_for_every_second_temple() {
    let program = program();
    let (mut g, _) = Game::new(&program, 2, 3).unwrap();
    keep_first_goals(&mut g);
    let me = g.current().unwrap();
    let temples = counter_id(&g, "temples");
    for (built, allowed) in [(0, 3), (1, 3), (2, 4), (3, 4)] {
        let mut h = g.clone();
        h.set_counter(temples, Some(me), None, V::Int(built));
        for _ in 0..allowed {
            act(&mut h, "take blue");
            assert_eq!(h.current(), Some(me), "the turn goes on");
        }
        let texts = choice_texts(&h);
        assert!(!texts.iter().any(|t| t.starts_with("take")), "{built} temples: {texts:?}");
        assert!(texts.contains(&"pass".to_string()));
        // Selling costs no action: it is still there.
        assert!(texts.iter().any(|t| t.starts_with("sell")), "{texts:?}");
        act(&mut h, "pass");
        assert_ne!(h.current(), Some(me));
        assert_eq!(int(counter(&h, "acted", Some(me.index()))), 0, "the next turn starts afresh");
    }
}

#[test]
fn random_games_keep_every_cube_and_coin_and_end() {
    let program = program();
    for players in 2..=3 {
        for seed in 0..150u64 {
            let (mut g, _) = Game::new(&program, players, seed).unwrap();
            let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
            let n = total_components(&g);
            let mut steps = 0;
            while g.current().is_some() {
                let choices = g.choices();
                assert!(!choices.is_empty(), "{players}p seed {seed}: no legal action");
                g.step(&choices[rng.gen_range(0..choices.len())]).unwrap();
                steps += 1;
                assert!(steps < 5_000, "{players}p seed {seed}: the game does not end");
                assert_eq!(
                    total_components(&g),
                    n,
                    "{players}p seed {seed}: a component was created or lost"
                );
                for p in 0..players {
                    assert!(int(counter(&g, "coins", Some(p))) >= 0, "{players}p seed {seed}: coins below 0");
                }
                for colour in ["blue", "grey"] {
                    assert!(g.count(zone(&g, "track", None, Some(colour))) <= 8);
                }
            }
            let built: Vec<i64> = (0..players).map(|p| int(counter(&g, "temples", Some(p)))).collect();
            assert!(built.iter().any(|t| *t >= 4), "{players}p seed {seed}: ended without 4 temples");
        }
    }
}
