//! Die Grabräuber and Akrotiri through every command.

use super::*;

// ------------------------------------------------------------ Die Grabräuber

#[test]
fn show_grabrauber_for_four_players() {
    let out = run_ok(&["show", GRABRAUBER, "--players", "4"]);
    insta::assert_snapshot!("show_grabrauber_4p", out);
}

#[test]
fn grabrauber_plays_to_the_end_with_every_bot_and_player_count() {
    for (players, seats) in
        [("2", "greedy,random"), ("3", "random,mcts:20,greedy"), ("4", "random,random,random,greedy")]
    {
        let o = run(&["play", GRABRAUBER, "--players", players, "--seats", seats, "--seed", "5", "--quiet"]);
        assert_eq!(o.status.code(), Some(0), "{players}p: {}", stderr(&o));
        let out = stdout(&o);
        assert!(out.contains("Final score") && out.contains("find_points") && out.contains(" win"), "{out}");
    }
}

#[test]
fn grabrauber_replays_a_saved_game_and_tells_a_human_what_a_scholar_shows() {
    let dir = temp("grabrauber");
    let save = dir.join("game.txt");
    let a = run(&[
        "play",
        GRABRAUBER,
        "--players",
        "2",
        "--seats",
        "random,random",
        "--seed",
        "1",
        "--save",
        save.to_str().unwrap(),
    ]);
    assert_eq!(a.status.code(), Some(0), "{}", stderr(&a));
    // The same moves with P1 at the terminal: the scholar's stack is shown
    // to P1 only (P2's look at Crete is not printed).
    let b = run(&["play", GRABRAUBER, "--seats", "human,random", "--script", save.to_str().unwrap()]);
    assert_eq!(b.status.code(), Some(0), "{}", stderr(&b));
    let out = stdout(&b);
    assert!(out.contains("P1 look Scholar Mesopotamia"), "{out}");
    assert!(out.contains("      you see in stack[Mesopotamia]: "), "{out}");
    assert!(out.contains("P2 look Scholar Crete"), "{out}");
    assert!(!out.contains("you see in stack[Crete]"), "{out}");
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn a_human_plays_grabrauber_with_typed_moves() {
    let o = run_with_input(
        &["play", GRABRAUBER, "--players", "2", "--seats", "human,random", "--seed", "4"],
        "dig Egypt 12\nmuseum\n1\nquit\n",
    );
    let out = stdout(&o);
    assert!(
        out.contains("not allowed: you need at least 1 point of specialized knowledge for this region"),
        "{out}"
    );
    assert!(out.contains("P1 take "), "{out}");
    assert_eq!(o.status.code(), Some(1), "quitting leaves the game unfinished");
}

const AKROTIRI: &str = "rulesets/akrotiri/akrotiri.ruleset";

#[test]
fn akrotiri_checks_and_show_draws_its_starting_board_as_a_map() {
    let o = run(&["check", AKROTIRI]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let out = run_ok(&["show", AKROTIRI]);
    // The grids by their size, not their 845 places one by one.
    assert!(out.contains("cell (169): a grid of 13 x 13, cell_0_0 .. cell_12_12"), "{out}");
    assert!(!out.contains("cell_5_5,"), "{out}");
    // Thera at cell (6, 6); the boats on two of its docks.
    let start = out.split("the starting board").nth(1).expect("a starting board");
    assert!(start.contains("cell map (x across, y down):"), "{start}");
    assert!(start.contains("6 │ Thera"), "{start}");
    // Short names on the map (b1: P1's boat), in full in the legend.
    assert!(start.contains("12 │ b1 │ ·"), "{start}");
    assert!(start.contains("13 │ ·  │ b2"), "{start}");
    assert!(start.contains("(b boat)"), "{start}");
}

#[test]
fn akrotiri_plays_with_bots_and_the_table_draws_the_grid_with_coordinates() {
    let out = run_ok(&["play", AKROTIRI, "--seed", "5"]);
    assert!(out.contains("Final score"), "{out}");
    // A human seat sees the maps on its turns.
    let o = run_with_input(&["play", AKROTIRI, "--seed", "5", "--seats", "human"], "1\n1\nquit\nn\n");
    let out = stdout(&o);
    assert!(out.contains("cell map (x across, y down):"), "{out}");
    assert!(out.contains("quad map (x across, y down):"), "{out}");
    assert!(out.contains("b1"), "{out}");
}

#[test]
fn akrotiri_simulates_and_diffs_against_a_house_rule() {
    let o = run(&["simulate", AKROTIRI, "--games", "4", "--seed", "3"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(stdout(&o).contains("4 games, 2 players"), "{}", stdout(&o));
    let dir = temp("akrotiri-house");
    let house = dir.join("open_thera.ruleset");
    let base = root().join(AKROTIRI);
    std::fs::write(
        &house,
        format!("extends \"{}\"\noverride option thera_island_closed = no\n", base.display()),
    )
    .unwrap();
    let o = run(&["diff", AKROTIRI, house.to_str().unwrap()]);
    // As diff(1): 1 when the files differ.
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    assert!(stdout(&o).contains("thera_island_closed"), "{}", stdout(&o));
    std::fs::remove_dir_all(&dir).unwrap();
}
