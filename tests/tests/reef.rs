//! Boards that grow, on a small generic ruleset
//! (tests/fixtures/valid/reef.ruleset): grid places with coordinates
//! (`place cell grid 5 x 5`, `p.x`, `at(cell, x, y)`), tiles whose own map
//! turns with them (`rotate`), the places `around` one, and regions of
//! places joined by a rule (`connected(p, LINK)`), also as the values a
//! parameter may take (`to: corner in around(me.boat)`).

use chronoscope_tests::scenario::{self, assert_finished_sound, assert_pruned_choices_are_exact, zone};
use engine::{notation, At, Game, Program, V};
use rand::{Rng, SeedableRng};

const PATH: &str = "tests/fixtures/valid/reef.ruleset";

fn program() -> Program {
    scenario::load(PATH)
}

fn place(g: &Game, name: &str) -> model::PlaceId {
    g.rules.place_named(name).unwrap_or_else(|| panic!("no place {name}"))
}

/// Lay a tile by hand on a cell, turned `r` quarter turns clockwise.
fn lay(g: &mut Game, tile: &str, cell: &str, r: i64) {
    let laid = zone(g, "laid", None, Some(cell));
    let stack = zone(g, "stack", None, None);
    let t = g.cards(stack).find(|c| g.rules.components[*c].name == tile).expect("such a tile in the stack");
    g.put(t, laid, At::Top);
    let turned = scenario::counter_id(g, "turned");
    let at = place(g, cell);
    g.set_counter(turned, None, Some(at), V::Int(r));
}

fn boat_to(g: &mut Game, corner: &str) {
    let boat = g.rules.piece_named("boat").unwrap();
    let at = place(g, corner);
    let me = g.current().unwrap();
    g.set_piece(boat, Some(me), at);
}

/// The names of the values a parameter of an action may take now.
fn domain(g: &Game, action: &str) -> Vec<String> {
    let a = g.rules.actions.iter().find(|a| a.name == action).unwrap();
    let d = g.domains(a, g.current().unwrap()).unwrap();
    d[0].iter()
        .map(|v| match v {
            V::Place(p) => g.rules.places[*p].name.clone(),
            other => format!("{other:?}"),
        })
        .collect()
}

fn choices_of(g: &Game, action: &str) -> Vec<String> {
    g.choices()
        .iter()
        .map(|c| notation::format(g, c))
        .filter(|t| t.split(' ').next() == Some(action))
        .collect()
}

#[test]
fn a_grid_declares_its_places_row_by_row_with_coordinates() {
    let program = program();
    let r = program.rules();
    let cell = r.classes.iter().find(|c| c.name == "cell").unwrap();
    assert_eq!(cell.grid, Some(model::Grid { width: 5, height: 5 }));
    assert_eq!(cell.places.len(), 25);
    let p = &r.places[cell.places[7]];
    assert_eq!((p.name.as_str(), p.at), ("cell_2_1", Some((2, 1))));
}

#[test]
fn around_lists_the_eight_places_around_a_grid_place_and_three_in_a_corner() {
    let program = program();
    let (mut g, _) = Game::new(&program, 2, 1).unwrap();
    boat_to(&mut g, "corner_4_4");
    let expected = [
        "corner_3_3",
        "corner_4_3",
        "corner_5_3",
        "corner_3_4",
        "corner_5_4",
        "corner_3_5",
        "corner_4_5",
        "corner_5_5",
    ];
    assert_eq!(domain(&g, "sail"), expected);
    boat_to(&mut g, "corner_0_0");
    assert_eq!(domain(&g, "sail"), ["corner_1_0", "corner_0_1", "corner_1_1"]);
    boat_to(&mut g, "corner_9_9");
    assert_eq!(domain(&g, "sail"), ["corner_8_8", "corner_9_8", "corner_8_9"]);
}

/// Off a grid, `around(p)` is the places one route away, each once, in
/// the order the routes are written (whichever end `p` is).
#[test]
fn around_off_a_grid_lists_the_places_one_route_away_in_the_routes_order() {
    let checked = ruleset::check_source(
        r#"
game w "Walks" { players 2..2 }
place town Ash, Birch, Cedar, Dale, Elm
route Ash - Birch, Cedar - Ash, Birch - Dale, Elm - Birch
piece pawn per player at Ash
counter time per player = 0
turns by lowest time
action walk(to: town in around(me.pawn)) {
  set me.pawn = to
  advance me.time by 1
}
end when all(p in players where p.time >= 3)
score s = me.time
"#,
    );
    assert!(checked.diagnostics.is_empty(), "{:?}", checked.diagnostics);
    let program = Program::new(checked.ruleset.expect("the ruleset checks"));
    let (mut g, _) = Game::new(&program, 2, 1).unwrap();
    assert_eq!(domain(&g, "walk"), ["Birch", "Cedar"]);
    let pawn = g.rules.piece_named("pawn").unwrap();
    let me = g.current().unwrap();
    g.set_piece(pawn, Some(me), place(&g, "Birch"));
    assert_eq!(domain(&g, "walk"), ["Ash", "Dale", "Elm"]);
    g.set_piece(pawn, Some(me), place(&g, "Elm"));
    assert_eq!(domain(&g, "walk"), ["Birch"]);
}

#[test]
fn a_boat_sails_only_to_tiled_corners_around_it() {
    let program = program();
    let (mut g, _) = Game::new(&program, 2, 1).unwrap();
    // The start tile on cell (2, 2) covers corners x 4..5, y 4..5.
    assert_eq!(choices_of(&g, "sail"), ["sail corner_5_4", "sail corner_4_5", "sail corner_5_5"]);
    lay(&mut g, "Open", "cell_1_2", 0);
    assert_eq!(
        choices_of(&g, "sail"),
        ["sail corner_3_4", "sail corner_5_4", "sail corner_3_5", "sail corner_4_5", "sail corner_5_5"]
    );
}

/// The corners a player may plant on from the boat: its reef.
fn reef_from(g: &mut Game, corner: &str) -> Vec<String> {
    boat_to(g, corner);
    let mut names = domain(g, "plant");
    names.sort();
    names
}

#[test]
fn connected_joins_corners_across_tile_edges_and_inside_a_tile_only_where_its_map_says() {
    let program = program();
    let (mut g, _) = Game::new(&program, 2, 1).unwrap();
    // The start tile joins its four corners.
    let start = ["corner_4_4", "corner_4_5", "corner_5_4", "corner_5_5"];
    assert_eq!(reef_from(&mut g, "corner_5_5"), start);
    // An open tile west of it: its east corners meet the start tile's west
    // corners; its west corners stand alone.
    lay(&mut g, "Open", "cell_1_2", 0);
    assert_eq!(reef_from(&mut g, "corner_2_4"), ["corner_2_4"]);
    let mut big: Vec<&str> = start.to_vec();
    big.extend(["corner_3_4", "corner_3_5"]);
    big.sort();
    assert_eq!(reef_from(&mut g, "corner_3_4"), big);
}

#[test]
fn turning_a_tile_turns_the_land_its_map_joins() {
    let program = program();
    // A bridge tile joins its two north corners when laid unturned.
    let cases: [(i64, &[&str]); 4] = [
        (
            0,
            &[
                "corner_2_4",
                "corner_3_4",
                "corner_3_5",
                "corner_4_4",
                "corner_4_5",
                "corner_5_4",
                "corner_5_5",
            ],
        ),
        // A quarter turn clockwise: the bridge is on the east arm.
        (1, &["corner_2_4"]),
        // Half a turn: on the south arm.
        (2, &["corner_2_4"]),
        // Three quarters (`rotate(arm, -3)`, going round backwards): west.
        (3, &["corner_2_4", "corner_2_5"]),
    ];
    for (r, want) in cases {
        let (mut g, _) = Game::new(&program, 2, 1).unwrap();
        lay(&mut g, "Bridge", "cell_1_2", r);
        assert_eq!(reef_from(&mut g, "corner_2_4"), want, "turned {r}");
    }
    // Turned by half a turn, the bridge joins the south corners instead.
    let (mut g, _) = Game::new(&program, 2, 1).unwrap();
    lay(&mut g, "Bridge", "cell_1_2", 2);
    assert_eq!(reef_from(&mut g, "corner_2_5").len(), 7);
}

#[test]
fn at_is_none_off_the_grid_so_a_tile_may_be_laid_along_the_edge() {
    let program = program();
    let (mut g, _) = Game::new(&program, 2, 1).unwrap();
    lay(&mut g, "Open", "cell_1_2", 0);
    lay(&mut g, "Open", "cell_0_2", 0);
    let cells: Vec<String> = choices_of(&g, "lay")
        .iter()
        .map(|t| t.split(' ').nth(1).unwrap().to_string())
        .collect::<std::collections::BTreeSet<_>>()
        .into_iter()
        .collect();
    let want = ["cell_0_1", "cell_0_3", "cell_1_1", "cell_1_3", "cell_2_1", "cell_2_3", "cell_3_2"];
    assert_eq!(cells, want);
}

#[test]
fn a_chosen_place_outside_the_region_is_refused_with_the_parameters_name() {
    let program = program();
    let (g, _) = Game::new(&program, 2, 1).unwrap();
    let c = notation::parse(&g, "plant corner_2_4");
    let refused = match c {
        Err(e) => e,
        Ok(c) => g.check(&c).unwrap_err().message().to_string(),
    };
    assert!(refused.contains("q"), "{refused}");
}

#[test]
fn random_games_keep_every_tile_beside_another_and_end() {
    let program = program();
    let r = program.rules();
    let cell = r.classes.iter().find(|c| c.name == "cell").unwrap();
    for seed in 0..150u64 {
        let players = 2 + (seed % 2) as usize;
        let (mut g, _) = Game::new(&program, players, seed).unwrap();
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
        let mut steps = 0;
        while g.current().is_some() {
            let choices = g.choices();
            g.step(&choices[rng.gen_range(0..choices.len())]).unwrap();
            steps += 1;
            assert!(steps < 500, "seed {seed}: the game does not end");
        }
        let tiled: Vec<(i64, i64)> = cell
            .places
            .iter()
            .filter(|p| g.count(g.layout.zone(r.zone_named("laid").unwrap(), None, Some(**p))) > 0)
            .map(|p| r.places[*p].at.unwrap())
            .collect();
        for (x, y) in &tiled {
            let beside = tiled.iter().filter(|(a, b)| (a - x).abs() + (b - y).abs() == 1).count();
            assert!(beside > 0 || tiled.len() == 1, "seed {seed}: a tile at ({x}, {y}) stands alone");
        }
        for c in cell.places.iter() {
            let n = g.count(g.layout.zone(r.zone_named("laid").unwrap(), None, Some(*c)));
            assert!(n <= 1, "seed {seed}: two tiles on {}", r.places[*c].name);
        }
        assert_finished_sound(&g);
    }
}

#[test]
fn the_search_lists_exactly_the_choices_brute_force_finds() {
    assert_pruned_choices_are_exact(&program(), 3);
}

/// The places a walk of `link` steps to from `name`, by name.
fn steps(g: &Game, link: &str, name: &str) -> Vec<String> {
    let from = place(g, name);
    let steps = g.walk_steps(link, from).unwrap_or_else(|| panic!("no let {link}"));
    steps.iter().map(|p| g.rules.places[*p].name.clone()).collect()
}

/// A link whose first conjuncts read nothing of the state (reef's and
/// Akrotiri's `land` start with "side by side", through a call of a let
/// in Akrotiri's `free_land`) is walked only through the steps they
/// allow: from a corner inside the grid, the 4 side by side of its 8
/// neighbours. A link that first reads the state (Akrotiri's `sea`, which
/// asks whether a tile lies there) is called for all 8.
#[test]
fn walks_leave_out_the_steps_a_links_tests_of_places_alone_rule_out() {
    let program = program();
    let (g, _) = Game::new(&program, 2, 1).unwrap();
    assert_eq!(steps(&g, "land", "corner_4_4"), ["corner_4_3", "corner_3_4", "corner_5_4", "corner_4_5"]);
    let akrotiri = scenario::load("rulesets/akrotiri/akrotiri.ruleset");
    let (g, _) = Game::new(&akrotiri, 2, 1).unwrap();
    let side = ["quad_12_11", "quad_11_12", "quad_13_12", "quad_12_13"];
    assert_eq!(steps(&g, "land", "quad_12_12"), side);
    assert_eq!(steps(&g, "free_land", "quad_12_12"), side);
    assert_eq!(steps(&g, "sea", "quad_12_12").len(), 8);
}

/// The region of each `connected(me.boat, land)` a listing reads, across
/// random games of reef and of Akrotiri, is the one a walk finds that
/// calls the link on every neighbour (places next to each other on the
/// grid, row by row), in the same order.
#[test]
fn regions_walked_through_the_allowed_steps_are_those_of_the_link_on_every_neighbour() {
    let akrotiri = scenario::load("rulesets/akrotiri/akrotiri.ruleset");
    for (program, action, param, games) in [(program(), "plant", 0, 6u64), (akrotiri, "portage", 0, 2)] {
        let r = program.rules();
        let boat = r.piece_named("boat").unwrap();
        let a = r.actions.iter().find(|a| a.name == action).unwrap();
        let mut compared = 0;
        for seed in 0..games {
            let (mut g, _) = Game::new(&program, 2, seed).unwrap();
            let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
            while let Some(me) = g.current() {
                let from = g.piece(boat, Some(me));
                let walked = g.domains(a, me).unwrap()[param].clone();
                assert_eq!(walked, every_neighbour(&g, me, from), "{action}, seed {seed}");
                compared += 1;
                let choices = g.choices();
                g.step(&choices[rng.gen_range(0..choices.len())]).unwrap();
            }
        }
        assert!(compared > 20, "{action}: only {compared} regions compared");
    }
}

/// `connected(from, land)` by calling `land` on each of the up to 8 grid
/// neighbours of each place reached, breadth first.
fn every_neighbour(g: &Game, me: model::PlayerId, from: model::PlaceId) -> Vec<V> {
    let r = &g.rules;
    let class = r.places[from].class;
    let mut out = vec![from];
    let mut i = 0;
    while i < out.len() {
        let (x, y) = r.places[out[i]].at.unwrap();
        i += 1;
        for (dx, dy) in [(-1, -1), (0, -1), (1, -1), (-1, 0), (1, 0), (-1, 1), (0, 1), (1, 1)] {
            let Some(&q) =
                r.classes[class].places.iter().find(|p| r.places[**p].at == Some((x + dx, y + dy)))
            else {
                continue;
            };
            let here = out[i - 1];
            let joined = g.call_let("land", Some(me), vec![V::Place(here), V::Place(q)]).unwrap();
            if !out.contains(&q) && joined.unwrap() == V::Bool(true) {
                out.push(q);
            }
        }
    }
    out.into_iter().map(V::Place).collect()
}

/// The choices of `action` listed now.
fn listed(g: &Game, action: &str) -> Vec<engine::Choice> {
    let id = g.rules.actions.iter().position(|a| a.name == action).unwrap();
    g.choices().into_iter().filter(|c| c.action.index() == id).collect()
}

/// What a link gives at each step of a walk is kept in the memo with the
/// regions (`Memo::step`), for walks from other starts: kept past an
/// action that writes nothing the link reads (a boat sails); past one that
/// writes what it reads at some places (a tile laid writes its cell's
/// `laid` and `turned`), only the steps that read none of those places.
/// On both engines.
#[test]
fn a_links_steps_are_kept_past_a_sail_and_past_a_tile_laid_but_those_that_read_its_cell() {
    for program in [program(), chronoscope_tests::compiled::load(PATH)] {
        let (mut g, _) = Game::new(&program, 2, 1).unwrap();
        for (cell, r) in [("cell_2_1", 0), ("cell_1_2", 1), ("cell_3_2", 2)] {
            lay(&mut g, "Open", cell, r);
        }
        assert_eq!(g.kept_steps("land"), 0, "nothing walked yet");
        // The listing walks the reef from the boat (`plant`), and from
        // each corner of it (`plant`'s requirement).
        let sail = listed(&g, "sail");
        let kept = g.kept_steps("land");
        assert!(kept > 0, "the listing kept no step of `land`");
        g.step(&sail[0]).unwrap();
        assert_eq!(g.kept_steps("land"), kept, "a boat sailing writes nothing `land` reads");
        // A tile below the start tile, whose corners the reef's steps
        // from the start tile's bottom corners test.
        let below = place(&g, "cell_2_3");
        let lay = listed(&g, "lay");
        let lay = lay.iter().find(|c| c.args[0] == V::Place(below)).expect("a tile may go below the start");
        let kept = g.kept_steps("land");
        g.step(lay).unwrap();
        let left = g.kept_steps("land");
        assert!(left < kept, "a tile laid: the steps that read its cell go ({left} of {kept} left)");
        assert!(left > 0, "a tile laid: the steps that read other cells stay");
        // Those kept are what `land` gives afresh.
        g.memo_agrees().unwrap();
    }
}

/// A link that starts by asking another on its own two places, the two
/// walked the same way (Akrotiri's `free_land`, `land(a, b) and not
/// occupied(b)`, and `land` both step only side by side), takes a step the
/// memo keeps as false for that other link as false itself, without a
/// call (`and` stops there). Links that start otherwise ask none: reef's
/// `land` starts with a comparison, Akrotiri's `sea` with `tiled(b)`.
#[test]
fn a_link_that_starts_by_asking_another_walked_the_same_way_goes_by_its_kept_steps() {
    let akrotiri = scenario::load("rulesets/akrotiri/akrotiri.ruleset");
    let (g, _) = Game::new(&akrotiri, 2, 1).unwrap();
    assert_eq!(g.link_asked_first("free_land").as_deref(), Some("land"));
    assert_eq!(g.link_asked_first("sea"), None);
    let program = program();
    let (g, _) = Game::new(&program, 2, 1).unwrap();
    assert_eq!(g.link_asked_first("land"), None);
    let heights = scenario::load("tests/fixtures/valid/heights.ruleset");
    let (g, _) = Game::new(&heights, 2, 1).unwrap();
    assert_eq!(g.link_asked_first("free_climb").as_deref(), Some("climb"));
}
