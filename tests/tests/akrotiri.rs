//! Akrotiri from the bundled ruleset (rulesets/akrotiri/akrotiri.ruleset):
//! the rulebook's worked examples as scenarios on arranged positions, and
//! seeded random games held to the game's invariants.

use chronoscope_tests::scenario::{self, act, counter_id, event_lines, total_components, zone};
use engine::{notation, At, Game, Program, ZoneInst, V};
use model::PlayerId;
use rand::{Rng, SeedableRng};

const PATH: &str = "rulesets/akrotiri/akrotiri.ruleset";

fn program() -> Program {
    scenario::load(PATH)
}

const P1: PlayerId = PlayerId::new(0);
const P2: PlayerId = PlayerId::new(1);

fn place(g: &Game, name: &str) -> model::PlaceId {
    g.rules.place_named(name).unwrap_or_else(|| panic!("no place {name}"))
}

fn int(v: V) -> i64 {
    match v {
        V::Int(n) => n,
        other => panic!("not a number: {other:?}"),
    }
}

fn mine(g: &Game, name: &str, p: PlayerId) -> i64 {
    int(g.counter(counter_id(g, name), Some(p), None))
}

fn set_mine(g: &mut Game, name: &str, p: PlayerId, n: i64) {
    let c = counter_id(g, name);
    g.set_counter(c, Some(p), None, V::Int(n));
}

fn boat_to(g: &mut Game, p: PlayerId, quad: &str) {
    let boat = g.rules.piece_named("boat").unwrap();
    let at = place(g, quad);
    g.set_piece(boat, Some(p), at);
}

fn component_in(g: &Game, name: &str, from: ZoneInst) -> model::ComponentId {
    g.cards(from).find(|c| g.rules.components[*c].name == name).unwrap_or_else(|| panic!("no {name} there"))
}

/// Every tile in play goes back to the pile but Thera; the asks of setup
/// are answered. P1 is to move, with the turn's tile laid.
fn bare_board(program: &Program, seed: u64) -> Game<'_> {
    let (mut g, _) = Game::new(program, 2, seed).unwrap();
    while !g.asks().is_empty() {
        let first = g.choices()[0].clone();
        g.apply(&first).unwrap();
    }
    let pile = zone(&g, "tiles", None, None);
    let r = g.rules;
    let cell = r.classes.iter().find(|c| c.name == "cell").unwrap();
    for c in &cell.places {
        let laid = zone(&g, "laid", None, Some(&r.places[*c].name));
        for t in g.cards(laid).collect::<Vec<_>>() {
            if r.components[t].name != "Thera" {
                g.put(t, pile, At::Top);
            }
        }
    }
    // The cubes setup put on the board go back to the market.
    let quad = r.classes.iter().find(|c| c.name == "quad").unwrap();
    for q in &quad.places {
        let on = zone(&g, "cubes_on", None, Some(&r.places[*q].name));
        for c in g.cards(on).collect::<Vec<_>>() {
            let colour = colour_of(&g, c);
            g.put(c, zone(&g, "market", None, Some(&colour)), At::Top);
        }
    }
    set_mine(&mut g, "placed", P1, 1);
    g
}

fn colour_of(g: &Game, c: model::ComponentId) -> String {
    g.rules.components[c].name.split(' ').next().unwrap().to_lowercase()
}

/// Lay the named tile from the pile on a cell, unturned.
fn lay(g: &mut Game, tile: &str, cell: &str) {
    let pile = zone(g, "tiles", None, None);
    let t = component_in(g, tile, pile);
    g.put(t, zone(g, "laid", None, Some(cell)), At::Top);
}

/// Leave `left` cubes of a colour in the market and put `n` in P1's boat;
/// the rest go to a corner of the board nobody reaches.
fn market_and_hold(g: &mut Game, colour: &str, left: usize, n: usize) {
    let market = zone(g, "market", None, Some(colour));
    let dump = zone(g, "cubes_on", None, Some("quad_0_0"));
    let hold = zone(g, "hold", Some(0), None);
    let all: Vec<_> = g.cards(market).collect();
    for (i, c) in all.into_iter().enumerate() {
        let to = if i < left {
            continue;
        } else if i < left + n {
            hold
        } else {
            dump
        };
        g.put(c, to, At::Top);
    }
}

#[test]
fn selling_two_blue_and_one_grey_at_thera_pays_3_3_and_2() {
    // R "Vender recursos": "Daniela vende 2 recursos azules y 1 gris ... y
    // toma 8 dracmas (3 + 3 + 2)": the blue row has 3 cubes left and
    // the grey row 5 when she sells.
    let program = program();
    let mut g = bare_board(&program, 1);
    market_and_hold(&mut g, "blue", 3, 2);
    market_and_hold(&mut g, "grey", 5, 1);
    set_mine(&mut g, "coins", P1, 0);
    let mut lines = Vec::new();
    for sale in ["sell blue", "sell blue", "sell grey"] {
        let before = mine(&g, "coins", P1);
        let events = act(&mut g, sale);
        lines.push(format!("{sale}: +{}\n{}", mine(&g, "coins", P1) - before, event_lines(&events)));
    }
    assert_eq!(mine(&g, "coins", P1), 8);
    insta::assert_snapshot!(lines.join("\n"));
}

#[test]
fn selling_is_refused_away_from_thera_and_without_such_a_cube() {
    let program = program();
    let mut g = bare_board(&program, 1);
    market_and_hold(&mut g, "blue", 6, 1);
    assert!(notation::parse(&g, "sell grey").is_ok_and(|c| g.check(&c).is_err()));
    lay(&mut g, "Lake 1", "cell_6_5");
    boat_to(&mut g, P1, "quad_12_10");
    let c = notation::parse(&g, "sell blue").unwrap();
    assert!(g.check(&c).unwrap_err().message().contains("sold at Thera"));
}

/// The board of the map example: a dig tile north of Thera with a volcano
/// to its west, a lake to its east and a tree south of Thera.
fn map_board(program: &Program) -> Game<'_> {
    let mut g = bare_board(program, 2);
    lay(&mut g, "Lake 1", "cell_6_5"); // the dig tile: no land arm
    lay(&mut g, "Volcano 1", "cell_5_5");
    lay(&mut g, "Lake 2", "cell_7_5");
    lay(&mut g, "Tree 1", "cell_6_7");
    g
}

#[test]
fn a_maps_sides_are_read_from_the_acting_players_seat() {
    // R: "«Encima de un templo» significa en la dirección opuesta al lugar
    // que ocupa el jugador"; the second player sits across the table.
    let program = program();
    let g = map_board(&program);
    let dig = V::Place(place(&g, "quad_12_10"));
    let mut table = vec!["seat side: volcano lake tree mountain".to_string()];
    for (p, who) in [(P1, "P1"), (P2, "P2")] {
        for side in ["n", "e", "s", "w"] {
            let counts: Vec<String> = ["volcano", "lake", "tree", "mountain"]
                .iter()
                .map(|t| {
                    let args = vec![V::Player(p), dig, V::Place(place(&g, side)), V::Place(place(&g, t))];
                    int(g.call_let("icons_seen", Some(p), args).unwrap().unwrap()).to_string()
                })
                .collect();
            table.push(format!("{who} {side}: {}", counts.join(" ")));
        }
    }
    // The lake on the dig tile lies on no side; Thera has no icon.
    insta::assert_snapshot!(table.join("\n"), @r"
    seat side: volcano lake tree mountain
    P1 n: 0 0 0 0
    P1 e: 0 1 0 0
    P1 s: 0 0 1 0
    P1 w: 1 0 0 0
    P2 n: 0 0 1 0
    P2 e: 1 0 0 0
    P2 s: 0 0 0 0
    P2 w: 0 1 0 0
    ");
    // Easy map 1 wants a volcano left, a lake right and a tree below:
    // met from P1's seat, not from P2's.
    let map = V::Card(scenario::component(&g, "Easy map 1"));
    let holds = |p| g.call_let("map_holds", Some(p), vec![V::Player(p), map, dig]).unwrap().unwrap();
    assert_eq!(holds(P1), V::Bool(true));
    assert_eq!(holds(P2), V::Bool(false));
}

/// The map board with P1 docked on the dig tile's north-west corner,
/// holding Easy map 1 and 5 drachmas.
fn ready_to_dig(program: &Program) -> Game<'_> {
    let mut g = map_board(program);
    let maps = zone(&g, "maps", Some(0), None);
    let pile = zone(&g, "map_deck", None, Some("easy"));
    let m = component_in(&g, "Easy map 1", pile);
    g.put(m, maps, At::Top);
    boat_to(&mut g, P1, "quad_12_10");
    set_mine(&mut g, "coins", P1, 5);
    g
}

#[test]
fn excavating_pays_the_map_places_the_temple_and_uncovers_an_action_from_the_next_turn() {
    let program = program();
    let mut g = ready_to_dig(&program);
    let choices: Vec<String> = g.choices().iter().map(|c| notation::format(&g, c)).collect();
    assert!(choices.contains(&r#"excavate "Easy map 1" quad_12_10"#.to_string()), "{choices:?}");
    // The island of quad_12_10: the dig tile's north-west corner and the
    // volcano tile's north-east corner; its south corners join Thera's land.
    assert!(!choices.iter().any(|c| c.starts_with("excavate") && c.contains("quad_12_11")), "{choices:?}");
    let events = act(&mut g, r#"excavate "Easy map 1" quad_12_10"#);
    insta::assert_snapshot!(event_lines(&events));
    assert_eq!(mine(&g, "coins", P1), 2, "an easy map costs 3");
    assert_eq!(mine(&g, "built", P1), 1);
    let allowed = |g: &Game| int(g.call_let("allowed", Some(P1), vec![V::Player(P1)]).unwrap().unwrap());
    assert_eq!(allowed(&g), 3, "the uncovered action counts from the next turn");
    act(&mut g, "end_turn");
    assert_eq!(allowed(&g), 4);
    // No second temple on that island.
    let taken = g.call_let("temple_allowed", Some(P1), vec![V::Place(place(&g, "quad_11_10"))]);
    assert_eq!(taken.unwrap().unwrap(), V::Bool(false));
}

#[test]
fn the_third_temple_offers_two_goals_to_keep_one() {
    let program = program();
    let mut g = ready_to_dig(&program);
    set_mine(&mut g, "built", P1, 2);
    act(&mut g, r#"excavate "Easy map 1" quad_12_10"#);
    assert_eq!(
        g.asks(),
        [(P1, g.rules.actions.iter().position(|a| a.name == "keep_goal").map(model::ActionId::new).unwrap())]
    );
    assert_eq!(g.count(zone(&g, "goal_offer", Some(0), None)), 2);
    let goals = g.count(zone(&g, "goals", Some(0), None));
    let keep = g.choices()[0].clone();
    g.apply(&keep).unwrap();
    assert_eq!(g.count(zone(&g, "goals", Some(0), None)), goals + 1);
    assert_eq!(g.count(zone(&g, "goal_offer", Some(0), None)), 0);
}

#[test]
fn a_portage_through_another_boats_dock_costs_two_moves() {
    let program = program();
    // R "Mover a través de un muelle ocupado": 1 move more. Each quadrant
    // is a dock. North of Thera lies a tile with no land arm: its south
    // corners join Thera's north ones, and quad_12_11 is reached over land
    // from Thera's south-west dock only through quad_12_12.
    let board = |g: &mut Game| {
        lay(g, "Lake 1", "cell_6_5");
        boat_to(g, P1, "quad_12_13");
    };
    let mut lines = Vec::new();
    let mut g = bare_board(&program, 3);
    board(&mut g);
    boat_to(&mut g, P2, "quad_12_12");
    let events = act(&mut g, "portage quad_12_11");
    lines.push(format!("empty boat, through P2's dock:\n{}", event_lines(&events)));
    assert_eq!(
        (mine(&g, "used", P1), mine(&g, "moves", P1)),
        (1, 0),
        "an empty boat's action: 2 moves, both spent"
    );
    // Another way round: 1 move, and the empty boat's second move is left.
    let mut g = bare_board(&program, 3);
    board(&mut g);
    boat_to(&mut g, P2, "quad_13_12");
    let events = act(&mut g, "portage quad_12_11");
    lines.push(format!("empty boat, P2 docked elsewhere on the island:\n{}", event_lines(&events)));
    assert_eq!((mine(&g, "used", P1), mine(&g, "moves", P1)), (1, 1));
    let events = act(&mut g, "portage quad_12_12");
    lines.push(format!("its second move:\n{}", event_lines(&events)));
    assert_eq!((mine(&g, "used", P1), mine(&g, "moves", P1)), (1, 0), "the second move of the same action");
    // Loaded, through the other boat's dock: two actions.
    let mut g = bare_board(&program, 3);
    board(&mut g);
    boat_to(&mut g, P2, "quad_12_12");
    market_and_hold(&mut g, "red", 7, 1);
    let events = act(&mut g, "portage quad_12_11");
    lines.push(format!("loaded boat, through P2's dock:\n{}", event_lines(&events)));
    assert_eq!(mine(&g, "used", P1), 2);
    insta::assert_snapshot!(lines.join("\n"));
}

#[test]
fn a_boat_loads_at_most_3_cubes_and_only_from_its_island() {
    let program = program();
    let mut g = bare_board(&program, 4);
    lay(&mut g, "Lake 1", "cell_6_5");
    boat_to(&mut g, P1, "quad_12_10");
    // Four red cubes on the boat's island, one on another island.
    let market = zone(&g, "market", None, Some("red"));
    let here = zone(&g, "cubes_on", None, Some("quad_12_10"));
    let there = zone(&g, "cubes_on", None, Some("quad_13_10"));
    let red: Vec<_> = g.cards(market).collect();
    for c in &red[..4] {
        g.put(*c, here, At::Top);
    }
    g.put(red[4], there, At::Top);
    let most = |g: &Game| {
        g.choices()
            .iter()
            .filter(|c| g.rules.actions[c.action.index()].name == "load")
            .map(|c| c.args.iter().map(|v| int(*v)).sum::<i64>())
            .max()
    };
    assert_eq!(most(&g), Some(3));
    let events = act(&mut g, "load 1 0 0 0");
    insta::assert_snapshot!(event_lines(&events));
    assert_eq!(g.count(zone(&g, "hold", Some(0), None)), 1);
    assert_eq!(most(&g), Some(2), "one aboard: room for 2");
    assert_eq!(g.count(there), 1, "the cube on another island stays");
}

#[test]
fn no_view_table_choice_or_bot_pick_depends_on_hidden_tiles_maps_or_goals() {
    // The tile pile, the map decks, the goal deck and the other player's
    // tile, maps and goals dealt anew (each kind among its own backs): the
    // seat to move sees, may do and picks the same.
    let program = program();
    let mut checked = 0;
    for seed in 0..4u64 {
        let (mut g, _) = Game::new(&program, 2, seed).unwrap();
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
        let mut step = 0;
        while let Some(me) = g.current() {
            if step % 20 == 0 {
                let b = scenario::permuted(&g, &[me], &mut rng);
                if b.snapshot().zones != g.snapshot().zones {
                    scenario::assert_no_peek(&g, &b, me);
                    assert_eq!(
                        chronoscope_cli::play::view::table(&g, me),
                        chronoscope_cli::play::view::table(&b, me),
                        "seed {seed}, step {step}: the play table, maps included"
                    );
                    checked += 1;
                }
            }
            let choices = g.choices();
            g.step(&choices[rng.gen_range(0..choices.len())]).unwrap();
            step += 1;
        }
    }
    assert!(checked > 20, "only {checked} positions checked");
}

#[test]
fn a_bots_imagined_game_keeps_tiles_maps_and_goals_apart() {
    // Samples deal hidden components only among places showing their back.
    let program = program();
    let (g, _) = Game::new(&program, 2, 9).unwrap();
    let seat = bots::Seat::new(&g, P1);
    for s in 0..5 {
        let sample = seat.sample(&mut rand_chacha::ChaCha8Rng::seed_from_u64(s));
        for c in sample.cards(zone(&sample, "tiles", None, None)) {
            let group = sample.rules.components[c].group;
            assert_eq!(sample.rules.groups[group].name, "land_tiles", "a tile pile holds tiles only");
        }
        for tier in ["easy", "medium", "hard"] {
            for c in sample.cards(zone(&sample, "map_deck", None, Some(tier))) {
                assert!(sample.rules.components[c].name.to_lowercase().starts_with(tier));
            }
        }
    }
}

/// Play seeded random games, checking after every action the invariants
/// the issue names.
fn random_games(seeds: std::ops::Range<u64>) {
    let program = program();
    let r = program.rules();
    let cells = &r.classes.iter().find(|c| c.name == "cell").unwrap().places;
    let laid = r.zone_named("laid").unwrap();
    let cube_count = r.components.iter().filter(|c| c.name.ends_with(" cube")).count();
    assert_eq!(cube_count, 32);
    for seed in seeds {
        let (mut g, _) = Game::new(&program, 2, seed).unwrap();
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
        let n = r.components.len();
        let mut steps = 0;
        while g.current().is_some() {
            let choices = g.choices();
            assert!(!choices.is_empty(), "seed {seed}: no legal action");
            g.step(&choices[rng.gen_range(0..choices.len())]).unwrap();
            steps += 1;
            assert!(steps < 3000, "seed {seed}: the game does not end");
            assert_eq!(
                total_components(&g),
                n,
                "seed {seed}: a component (32 cubes among them) made or lost"
            );
            for p in [P1, P2] {
                assert!(mine(&g, "coins", p) >= 0, "seed {seed}: negative drachmas");
            }
        }
        let tiled: Vec<(i64, i64)> = cells
            .iter()
            .filter(|c| {
                let k = g.count(g.layout.zone(laid, None, Some(**c)));
                assert!(k <= 1, "seed {seed}: two tiles on {}", r.places[**c].name);
                k == 1
            })
            .map(|c| r.places[*c].at.unwrap())
            .collect();
        for (x, y) in &tiled {
            let beside = tiled.iter().any(|(a, b)| (a - x).abs() + (b - y).abs() == 1);
            assert!(beside, "seed {seed}: the tile at ({x}, {y}) touches none");
        }
        assert!(g.scores().is_ok());
    }
}

// 1,000 seeded random games, in four parts that run side by side.
#[test]
fn random_games_0_to_249_keep_the_invariants() {
    random_games(0..250);
}

#[test]
fn random_games_250_to_499_keep_the_invariants() {
    random_games(250..500);
}

#[test]
fn random_games_500_to_749_keep_the_invariants() {
    random_games(500..750);
}

#[test]
fn random_games_750_to_999_keep_the_invariants() {
    random_games(750..1000);
}
