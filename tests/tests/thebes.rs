//! The engine playing the real Thebes ruleset: rulebook examples as
//! scenarios, and invariants over many random games.
//!
//! Scenarios arrange a position by moving components and setting counters
//! in a freshly set-up game, then apply real actions through the engine.

use chronoscope_tests::scenario::*;
use engine::{notation, At, Game, Program, V};
use model::PlayerId;
use rand::{Rng, SeedableRng};
fn thebes() -> Program {
    load("rulesets/thebes/thebes.ruleset")
}

fn set_place(g: &mut Game, p: usize, place: &str) {
    let r = g.rules;
    let piece = r.piece_named("archaeologist").unwrap();
    g.set_piece(piece, Some(PlayerId::new(p)), r.place_named(place).unwrap());
}

#[test]
fn travel_costs_a_week_per_step_and_the_change_a_week_more() {
    // ES "2. Realizar una acción", example: London to Warsaw is 2 steps,
    // 2 weeks, plus 1 week for changing the cards.
    let r = thebes();
    let (mut g, _) = Game::new(&r, 2, 1).unwrap();
    to_move(&mut g, 0, 10);
    set_place(&mut g, 0, "London");
    act(&mut g, "change");
    assert_eq!(time(&g, 0), 13);
}

#[test]
fn the_chronoscope_example_draws_five_tokens_in_four_weeks() {
    // ES "Utilización del cronoscopio": 8 knowledge points for Crete (of 5
    // general points only 4 count), 4 weeks: 5 tokens.
    let r = thebes();
    let (mut g, _) = Game::new(&r, 2, 2).unwrap();
    to_move(&mut g, 0, 5);
    set_place(&mut g, 0, "Crete");
    let tableau = zone(&g, "tableau", Some(0), None);
    for card in ["Crete 2 books, Paris", "Crete 1 book, Berlin", "Assistant, Paris", "Assistant, Berlin"] {
        give(&mut g, card, tableau);
    }
    for card in ["General knowledge 2, Paris", "General knowledge 2, Berlin", "General knowledge 1, Rome"] {
        give(&mut g, card, tableau);
    }
    // 3 books + 1 for two assistants = 4 specialized; general counts 4 of 5.
    let bag = zone(&g, "bag", None, Some("Crete"));
    let events = act(&mut g, "dig Crete 4");
    assert_eq!(drawn_from(&events, "bag[Crete]"), 5);
    assert_eq!(time(&g, 0), 9);
    // First dig at Crete: the value-1 artifact on the board comes along.
    assert_eq!(drawn_from(&events, "bonus[Crete]"), 1);
    let finds = zone(&g, "finds", Some(0), None);
    let blanks_back = g.count(bag);
    assert_eq!(g.count(finds) + blanks_back, 30 - 5 + 5 + 1);
}

#[test]
fn the_score_example_totals_67() {
    // ES "Ejemplo de un recuento de puntos": 13 artifacts worth 39, three
    // exhibitions (4 + 4 + 5), five congresses (15), no majority: 67.
    let r = thebes();
    let (mut g, _) = Game::new(&r, 2, 3).unwrap();
    let finds = zone(&g, "finds", Some(0), None);
    let tableau = zone(&g, "tableau", Some(0), None);
    // 13 artifacts: 6+5+5+4+3+3+2+2+2+1+1+1+4 = 39
    for a in [
        "Greece artifact 6",
        "Greece artifact 5",
        "Greece artifact 5",
        "Greece artifact 4",
        "Greece artifact 3",
        "Greece artifact 3",
        "Greece artifact 2",
        "Greece artifact 2",
        "Greece artifact 2",
        "Greece artifact 1",
        "Greece artifact 1",
        "Greece artifact 1",
        "Crete artifact 4",
    ] {
        give(&mut g, a, finds);
    }
    for e in ["Small exhibition, London", "Small exhibition, Paris", "Large exhibition, Berlin"] {
        give(&mut g, e, tableau);
    }
    for c in
        ["Congress, London", "Congress, Paris", "Congress, Paris", "Congress, Berlin", "Congress, Vienna"]
    {
        give(&mut g, c, tableau);
    }
    // The other player has one book for every site, P1 none: no majority.
    let other = zone(&g, "tableau", Some(1), None);
    for b in [
        "Greece 1 book, Rome",
        "Crete 1 book, Paris",
        "Egypt 1 book, Rome",
        "Palestine 1 book, Rome",
        "Mesopotamia 1 book, Rome",
    ] {
        give(&mut g, b, other);
    }
    let sheet = g.scores().unwrap();
    let row = |name: &str| sheet.rows.iter().find(|(n, _)| n == name).unwrap().1[0];
    assert_eq!(row("artifacts"), 39);
    assert_eq!(row("exhibition_points"), 13);
    assert_eq!(row("congresses"), 15);
    assert_eq!(sheet.totals[0], 67);
    assert_eq!(sheet.totals[1], 25, "the other player takes all five majorities");
}

#[test]
fn a_car_saves_a_week_on_trips_of_three_steps_or_more() {
    let r = thebes();
    let (mut g, _) = Game::new(&r, 2, 4).unwrap();
    to_move(&mut g, 0, 0);
    set_place(&mut g, 0, "London");
    let tableau = zone(&g, "tableau", Some(0), None);
    give(&mut g, "Car, Moscow", tableau);
    give(&mut g, "Greece 1 book, Rome", tableau);
    // London - Greece is 3 steps: 2 weeks with the car, then 8 weeks digging
    // (1 knowledge point needs 8 weeks for a token).
    act(&mut g, "dig Greece 8");
    assert_eq!(time(&g, 0), 10);
    // Two steps cost the full two weeks.
    to_move(&mut g, 0, 20);
    set_place(&mut g, 0, "London");
    act(&mut g, "change");
    assert_eq!(time(&g, 0), 23);
    // The car is kept.
    assert!(g.cards(tableau).any(|c| g.rules.components[c].name == "Car, Moscow"));
}

#[test]
fn a_zeppelin_makes_one_trip_free_and_is_discarded() {
    let r = thebes();
    let (mut g, _) = Game::new(&r, 2, 5).unwrap();
    to_move(&mut g, 0, 0);
    set_place(&mut g, 0, "London");
    let tableau = zone(&g, "tableau", Some(0), None);
    give(&mut g, "Zeppelin, Rome", tableau);
    act(&mut g, "change by_zeppelin");
    assert_eq!(time(&g, 0), 1, "the trip is free, the change costs 1 week");
    assert_eq!(g.count(tableau), 0);
    // Without a zeppelin the flag is refused with the ruleset's reason.
    to_move(&mut g, 0, 10);
    let c = notation::parse(&g, "change by_zeppelin").unwrap();
    let err = g.check(&c).unwrap_err();
    assert_eq!(err.message(), "you have no zeppelin card");
}

#[test]
fn changing_again_in_a_row_costs_one_week_more_each_time() {
    // ES "Caso especial": 1 week, then 2, then 3, while nobody else moves.
    let r = thebes();
    let (mut g, _) = Game::new(&r, 2, 6).unwrap();
    to_move(&mut g, 0, 0);
    act(&mut g, "change");
    act(&mut g, "change");
    act(&mut g, "change");
    assert_eq!(time(&g, 0), 1 + 2 + 3);
    // The other player moves: the next change costs 1 again.
    set_time(&mut g, 1, 0);
    act(&mut g, "change");
    assert_eq!(time(&g, 1), 1);
    set_time(&mut g, 1, 50);
    act(&mut g, "change");
    assert_eq!(time(&g, 0), 7);
}

#[test]
fn an_exhibition_drawn_goes_to_slot_a_and_pushes_the_others_along() {
    let r = thebes();
    let (mut g, _) = Game::new(&r, 2, 7).unwrap();
    to_move(&mut g, 0, 0);
    let deck = zone(&g, "deck", None, None);
    let ex = zone(&g, "exhibitions", None, None);
    let discard = zone(&g, "discard", None, None);
    // Three exhibitions in the slots, and one on top of the deck.
    for (slot, name) in
        ["Small exhibition, London", "Small exhibition, Paris", "Small exhibition, Berlin"].iter().enumerate()
    {
        let c = component(&g, name);
        g.put(c, ex, At::Slot(slot));
    }
    let top = component(&g, "Large exhibition, Moscow");
    g.put(top, deck, At::Top);
    act(&mut g, "take 1");
    let names: Vec<&str> =
        g.zone(ex).iter().map(|c| c.map_or("-", |c| g.rules.components[c].name.as_str())).collect();
    assert_eq!(names, ["Large exhibition, Moscow", "Small exhibition, London", "Small exhibition, Paris"]);
    assert_eq!(g.rules.components[g.zone(discard)[0].unwrap()].name, "Small exhibition, Berlin");
    // The display is full of research cards again.
    assert_eq!(g.count(zone(&g, "display", None, None)), 4);
}

#[test]
fn the_permit_is_used_until_the_players_next_year() {
    let r = thebes();
    let (mut g, _) = Game::new(&r, 2, 8).unwrap();
    to_move(&mut g, 0, 10);
    set_place(&mut g, 0, "Egypt");
    let tableau = zone(&g, "tableau", Some(0), None);
    give(&mut g, "Egypt 3 books, London", tableau);
    act(&mut g, "dig Egypt 3");
    to_move(&mut g, 0, 20);
    let c = notation::parse(&g, "dig Egypt 3").unwrap();
    assert_eq!(g.check(&c).unwrap_err().message(), "your permit for this site is used until your next year");
    // In the player's next year the permit is valid again.
    to_move(&mut g, 0, 53);
    assert!(g.check(&c).is_ok());
}

#[test]
fn a_dig_that_crosses_the_year_leaves_the_permit_valid() {
    // RU text: the year turns over during the dig, the permit is refreshed.
    let r = thebes();
    let (mut g, _) = Game::new(&r, 2, 9).unwrap();
    to_move(&mut g, 0, 50);
    set_place(&mut g, 0, "Egypt");
    let tableau = zone(&g, "tableau", Some(0), None);
    give(&mut g, "Egypt 3 books, London", tableau);
    act(&mut g, "dig Egypt 4");
    assert_eq!(time(&g, 0), 54);
    to_move(&mut g, 0, 54);
    let c = notation::parse(&g, "dig Egypt 3").unwrap();
    assert!(g.check(&c).is_ok());
}

#[test]
fn in_the_last_year_nothing_may_end_past_week_one_of_the_next() {
    // ES "Final de juego": with 4 players the game runs 1902-1903; a marker on
    // week 48 of 1903 has 5 weeks left.
    let r = thebes();
    let (mut g, _) = Game::new(&r, 4, 10).unwrap();
    let end = 2 * 52 + 1;
    to_move(&mut g, 0, 52 + 48);
    set_place(&mut g, 0, "Greece");
    let tableau = zone(&g, "tableau", Some(0), None);
    give(&mut g, "Greece 3 books, Berlin", tableau);
    give(&mut g, "Greece 2 books, London", tableau);
    let five = notation::parse(&g, "dig Greece 5").unwrap();
    let six = notation::parse(&g, "dig Greece 6").unwrap();
    assert!(g.check(&five).is_ok());
    assert!(g.check(&six).is_err());
    // Stopping moves the marker to the end space.
    act(&mut g, "stop");
    assert_eq!(time(&g, 0), end);
}

#[test]
fn the_player_furthest_back_moves_and_the_top_of_a_stack_first() {
    let r = thebes();
    let (mut g, _) = Game::new(&r, 3, 11).unwrap();
    // Everyone starts on 16; the random stack decides.
    let first = g.current().unwrap();
    assert_eq!(g.seat_order()[0], first);
    act(&mut g, "change");
    // The one who moved is now at 17; the next in the stack moves.
    assert_eq!(g.current(), Some(g.seat_order()[1]));
    // Landing on an occupied space puts the marker on top.
    act(&mut g, "change");
    let third = g.current().unwrap();
    assert_eq!(third, g.seat_order()[2]);
    act(&mut g, "change");
    assert_eq!(g.current(), Some(third), "third arrived last at 17 and is on top");
}

// ------------------------------------------------------------ invariants

#[test]
fn random_games_keep_the_invariants_and_replay_exactly() {
    let rules = thebes();
    let mut seen = std::collections::HashSet::new();
    for players in 2..=4 {
        for seed in 0..4u64 {
            let (g, history) = play_random(&rules, players, seed, 2_000);
            assert_finished_sound(&g);
            // The end: every marker on the end space.
            let end = if players == 4 { 2 * 52 + 1 } else { 3 * 52 + 1 };
            assert!((0..players).all(|p| time(&g, p) == end));
            assert_replays(&rules, &g, &history);
            seen.insert(g.scores().unwrap().totals);
        }
    }
    assert!(seen.len() > 6, "different seeds give different games");
}

#[test]
fn the_same_seed_sets_up_the_same_game_and_another_seed_another() {
    let rules = thebes();
    let (a, _) = Game::new(&rules, 3, 42).unwrap();
    let (b, _) = Game::new(&rules, 3, 42).unwrap();
    let (c, _) = Game::new(&rules, 3, 43).unwrap();
    assert_eq!(a.snapshot(), b.snapshot());
    assert_ne!(a.snapshot().zones, c.snapshot().zones);
}

#[test]
fn setup_follows_the_player_count() {
    let rules = thebes();
    for (players, start, year) in [(2, 0, 1901), (3, 16, 1901), (4, 0, 1902)] {
        let (g, _) = Game::new(&rules, players, 1).unwrap();
        assert!((0..players).all(|p| time(&g, p) == start), "{players}p start space");
        assert_eq!(counter(&g, "first_year", None), V::Int(year));
        let display = zone(&g, "display", None, None);
        assert_eq!(g.count(display), 4);
        let pile3 = zone(&g, "pile3", None, None);
        let ex_in_pile3 =
            g.cards(pile3).filter(|c| g.rules.components[*c].name.contains("exhibition")).count();
        assert_eq!(ex_in_pile3, if players == 2 { 0 } else { 5 }, "{players}p: large exhibitions in pile 3");
        for site in ["Greece", "Crete", "Egypt", "Palestine", "Mesopotamia"] {
            assert_eq!(g.count(zone(&g, "bag", None, Some(site))), 30);
            assert_eq!(g.count(zone(&g, "bonus", None, Some(site))), 1);
        }
    }
}

#[test]
fn an_illegal_choice_changes_nothing() {
    let rules = thebes();
    let (mut g, _) = Game::new(&rules, 2, 12).unwrap();
    let before = g.snapshot();
    let c = notation::parse(&g, "dig Egypt 12").unwrap();
    assert!(g.apply(&c).is_err());
    assert_eq!(g.snapshot(), before);
    assert!(notation::parse(&g, "take 9").is_err());
    assert!(notation::parse(&g, "dig Atlantis 3").is_err());
    assert!(notation::parse(&g, "fly").is_err());
}

/// A choice applied by its index in the listing the game made plays as
/// the same choice applied with `step`: the same listings and states, turn
/// after turn, to the end.
#[test]
fn a_listed_choice_applied_by_its_index_plays_as_step_plays_it() {
    let rules = thebes();
    for (players, seed) in [(2, 3u64), (4, 5)] {
        let (mut listed, _) = Game::new(&rules, players, seed).unwrap();
        let (mut stepped, _) = Game::new(&rules, players, seed).unwrap();
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
        let mut listing = engine::Listing::new();
        while listed.current().is_some() {
            listed.list_into(&mut listing).unwrap();
            let choices = stepped.choices();
            assert_eq!(&listing[..], &choices[..]);
            let k = rng.gen_range(0..choices.len());
            listed.step_listed(&listing, k).unwrap();
            stepped.step(&choices[k]).unwrap();
            assert_eq!(listed.snapshot(), stepped.snapshot());
        }
        assert!(stepped.current().is_none());
    }
}

/// A listing is applied unchecked only by the game that made it, on the
/// state it was made for: once the game has changed, or by another game,
/// a choice no longer legal is refused as `step` refuses it, changing
/// nothing; an index past the listing is refused too.
#[test]
fn a_listing_is_checked_again_once_the_game_changes_and_by_another_game() {
    let rules = thebes();
    let (mut g, _) = Game::new(&rules, 2, 12).unwrap();
    let mut listing = engine::Listing::new();
    g.list_into(&mut listing).unwrap();
    let display = zone(&g, "display", None, None);
    let takes = |g: &Game, listing: &engine::Listing| -> Vec<usize> {
        (0..listing.len()).filter(|k| notation::format(g, &listing[*k]).starts_with("take ")).collect()
    };
    // Another game, set up from another seed: a card of this display that
    // its own display lacks.
    let (mut other, _) = Game::new(&rules, 2, 13).unwrap();
    let other_display = zone(&other, "display", None, None);
    let foreign = takes(&g, &listing)
        .into_iter()
        .find(|k| match listing[*k].args[0] {
            V::Card(c) => !other.cards(other_display).any(|x| x == c),
            _ => false,
        })
        .expect("the two displays differ");
    let before = other.snapshot();
    assert!(other.step_listed(&listing, foreign).is_err());
    assert_eq!(other.snapshot(), before);
    // The game that listed it: the card taken, the same choice is refused.
    g.step_listed(&listing, foreign).unwrap();
    let V::Card(taken) = listing[foreign].args[0] else { unreachable!() };
    assert!(!g.cards(display).any(|x| x == taken));
    let before = g.snapshot();
    assert!(g.step_listed(&listing, foreign).is_err());
    assert_eq!(g.snapshot(), before);
    let Err(past) = g.step_listed(&listing, listing.len()) else {
        panic!("an index past the listing applied")
    };
    assert!(past.message().contains("no choice"), "{}", past.message());
    assert_eq!(g.snapshot(), before);
}

#[test]
fn a_lone_assistant_and_a_lone_shovel_work_once_and_are_discarded() {
    // ES: a single assistant acts as two, a single shovel as two, each for
    // one dig, then goes to the discard pile.
    let r = thebes();
    let (mut g, _) = Game::new(&r, 2, 13).unwrap();
    to_move(&mut g, 0, 0);
    set_place(&mut g, 0, "Egypt");
    let tableau = zone(&g, "tableau", Some(0), None);
    give(&mut g, "Egypt 1 book, Paris", tableau);
    give(&mut g, "Assistant, Rome", tableau);
    give(&mut g, "Shovel, London", tableau);
    // 1 book + 1 for the lone assistant = 2 knowledge: 6 weeks draw 1 token
    // (chronoscope row 2), +1 for the lone shovel = 2.
    let events = act(&mut g, "dig Egypt 6 lone_assistant lone_shovel");
    assert_eq!(drawn_from(&events, "bag[Egypt]"), 2);
    assert_eq!(names(&g, tableau), ["Egypt 1 book, Paris"]);
    let discard = zone(&g, "discard", None, None);
    let discarded = names(&g, discard);
    assert!(
        discarded.contains(&"Assistant, Rome".to_string())
            && discarded.contains(&"Shovel, London".to_string())
    );
}

#[test]
fn two_shovels_add_a_token_to_every_dig_and_stay() {
    let r = thebes();
    let (mut g, _) = Game::new(&r, 2, 14).unwrap();
    to_move(&mut g, 0, 0);
    set_place(&mut g, 0, "Egypt");
    let tableau = zone(&g, "tableau", Some(0), None);
    give(&mut g, "Egypt 3 books, London", tableau);
    give(&mut g, "Shovel, London", tableau);
    give(&mut g, "Shovel, Rome", tableau);
    // 3 knowledge, 3 weeks: 1 token, +1 for two shovels.
    let events = act(&mut g, "dig Egypt 3");
    assert_eq!(drawn_from(&events, "bag[Egypt]"), 2);
    assert_eq!(g.count(tableau), 3);
}

#[test]
fn rumours_add_two_for_one_dig_and_the_special_permit_allows_a_second_dig() {
    let r = thebes();
    let (mut g, _) = Game::new(&r, 2, 15).unwrap();
    to_move(&mut g, 0, 0);
    set_place(&mut g, 0, "Crete");
    let tableau = zone(&g, "tableau", Some(0), None);
    give(&mut g, "Crete 1 book, Paris", tableau);
    give(&mut g, "Rumours Crete", tableau);
    give(&mut g, "Special permit, London", tableau);
    // 1 + 2 = 3 knowledge: 3 weeks draw 1.
    let events = act(&mut g, "dig Crete 3 use_rumours");
    assert_eq!(drawn_from(&events, "bag[Crete]"), 1);
    assert!(!names(&g, tableau).contains(&"Rumours Crete".to_string()));
    // The permit is used; the special permit allows a second dig this year.
    to_move(&mut g, 0, 10);
    let plain = notation::parse(&g, "dig Crete 8").unwrap();
    assert!(g.check(&plain).is_err());
    let events = act(&mut g, "dig Crete 8 use_special_permit");
    assert_eq!(drawn_from(&events, "bag[Crete]"), 1);
    // The first-dig bonus went to the first dig only.
    assert_eq!(drawn_from(&events, "bonus[Crete]"), 0);
    assert_eq!(names(&g, tableau), ["Crete 1 book, Paris"]);
    // A special permit is not spent while the permit is valid.
    to_move(&mut g, 0, 60);
    give(&mut g, "Special permit, Moscow", tableau);
    let wasteful = notation::parse(&g, "dig Crete 8 use_special_permit").unwrap();
    assert_eq!(g.check(&wasteful).unwrap_err().message(), "your permit is valid; keep the special permit");
}

#[test]
fn an_exhibition_needs_its_artifacts_which_are_kept() {
    // ES "Realizar una exposición", example: London needs 1 orange (Greece)
    // and 2 yellow (Egypt) artifacts.
    let r = thebes();
    let (mut g, _) = Game::new(&r, 2, 16).unwrap();
    to_move(&mut g, 0, 0);
    let ex = zone(&g, "exhibitions", None, None);
    let card = component(&g, "Small exhibition, London");
    g.put(card, ex, At::Slot(0));
    let finds = zone(&g, "finds", Some(0), None);
    give(&mut g, "Greece artifact 2", finds);
    give(&mut g, "Egypt artifact 3", finds);
    let c = notation::parse(&g, "exhibit 1").unwrap();
    // One yellow of two: the message says which site falls short.
    assert_eq!(
        g.check(&c).unwrap_err().message(),
        "you lack the artifacts this exhibition needs (not met for Egypt)"
    );
    give(&mut g, "Egypt artifact 5", finds);
    // Warsaw to London is 2 steps, the exhibition 3 weeks.
    act(&mut g, "exhibit 1");
    assert_eq!(time(&g, 0), 5);
    assert_eq!(g.count(finds), 3, "the artifacts are only shown");
    assert_eq!(g.scores().unwrap().rows.iter().find(|(n, _)| n == "exhibition_points").unwrap().1[0], 4);
}

#[test]
fn a_tie_for_the_most_books_scores_three_each_and_books_from_the_bag_count() {
    let r = thebes();
    let (mut g, _) = Game::new(&r, 3, 17).unwrap();
    give_to(&mut g, "Egypt 2 books, Berlin", "tableau", Some(0));
    give_to(&mut g, "Egypt 1 book, Rome", "tableau", Some(1));
    give_to(&mut g, "Palestine bag: Egypt book", "finds", Some(1));
    give_to(&mut g, "Egypt 1 book, Moscow", "tableau", Some(2));
    // Assistants and rumours do not count for the majority.
    give_to(&mut g, "Rumours Egypt", "tableau", Some(2));
    give_to(&mut g, "Assistant, Paris", "tableau", Some(2));
    give_to(&mut g, "Assistant, Vienna", "tableau", Some(2));
    let sheet = g.scores().unwrap();
    let egypt = &sheet.rows.iter().find(|(n, _)| n == "site_majority[Egypt]").unwrap().1;
    assert_eq!(egypt, &vec![3, 3, 0]);
    let greece = &sheet.rows.iter().find(|(n, _)| n == "site_majority[Greece]").unwrap().1;
    assert_eq!(greece, &vec![0, 0, 0], "nobody has a Greece book: nobody scores");
}

#[test]
fn the_first_exhausted_deck_takes_the_discards_and_pile_three_later_only_discards() {
    let r = thebes();
    let (mut g, _) = Game::new(&r, 3, 18).unwrap();
    to_move(&mut g, 0, 0);
    let deck = zone(&g, "deck", None, None);
    let pile3 = zone(&g, "pile3", None, None);
    let discard = zone(&g, "discard", None, None);
    // Empty the deck into the discard pile.
    g.move_all(deck, discard);
    let in_play = g.count(discard) + g.count(pile3);
    act(&mut g, "take 1");
    assert_eq!(g.count(pile3), 0);
    assert_eq!(g.count(discard), 0);
    assert!(g.count(deck) >= in_play - 8, "the discards and pile 3 form the new deck");
    // The second time only the discards come back (pile 3 is gone).
    to_move(&mut g, 0, 10);
    g.move_all(deck, discard);
    act(&mut g, "take 1");
    assert_eq!(g.count(pile3), 0);
    assert_eq!(g.count(zone(&g, "display", None, None)), 4);
}

#[test]
fn a_view_shows_the_bags_as_counts_and_the_table_open() {
    let r = thebes();
    let (g, _) = Game::new(&r, 2, 19).unwrap();
    let view = g.view(PlayerId::new(0));
    let bag = zone(&g, "bag", None, Some("Egypt"));
    assert_eq!(view.zones[bag], engine::ZoneView::Hidden(30));
    let deck = zone(&g, "deck", None, None);
    assert!(matches!(view.zones[deck], engine::ZoneView::Hidden(_)));
    let display = zone(&g, "display", None, None);
    assert!(matches!(view.zones[display], engine::ZoneView::Open(_)));
}

#[test]
fn the_chronoscope_dig_log() {
    // The events of the rulebook's chronoscope example, as a snapshot: trip,
    // weeks, every token drawn and where it went.
    let r = thebes();
    let (mut g, _) = Game::new(&r, 2, 2).unwrap();
    to_move(&mut g, 0, 5);
    set_place(&mut g, 0, "Rome");
    let tableau = zone(&g, "tableau", Some(0), None);
    for card in [
        "Crete 2 books, Paris",
        "Crete 1 book, Berlin",
        "Assistant, Paris",
        "Assistant, Berlin",
        "General knowledge 2, Paris",
        "General knowledge 2, Berlin",
        "General knowledge 1, Rome",
    ] {
        give(&mut g, card, tableau);
    }
    let events = act(&mut g, "dig Crete 4");
    insta::assert_snapshot!(event_lines(&events));
}

#[test]
fn every_edition_and_house_rule_plays_to_the_end_with_the_invariants() {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../rulesets/thebes");
    let mut files = Vec::new();
    for sub in ["editions", "house"] {
        for e in std::fs::read_dir(format!("{dir}/{sub}")).unwrap().flatten() {
            files.push(e.path());
        }
    }
    files.sort();
    assert!(files.len() >= 8);
    for path in files {
        let name = path.display().to_string();
        let checked = ruleset::check_file(&name, &mut |p| std::fs::read(p).map_err(|e| e.to_string()));
        let rules = Program::new(checked.ruleset.unwrap_or_else(|| panic!("{name} checks clean")));
        for players in 2..=4 {
            let (g, history) = play_random(&rules, players, 100 + players as u64, 2_000);
            assert_finished_sound(&g);
            assert_replays(&rules, &g, &history);
        }
    }
}

#[test]
fn the_french_two_player_game_sets_nothing_aside() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../rulesets/thebes/editions/fr.ruleset");
    let rules = load(path);
    let (g, _) = Game::new(&rules, 2, 1).unwrap();
    assert_eq!(g.count(zone(&g, "pile3", None, None)), 0);
    assert_eq!(g.count(zone(&g, "deck", None, None)), 85 + 10 - 4);
}

#[test]
fn with_russian_permits_a_trip_into_the_new_year_frees_the_permit() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../rulesets/thebes/editions/ru.ruleset");
    let ru = load(path);
    let es = thebes();
    for (rules, expect_legal) in [(&ru, true), (&es, false)] {
        let (mut g, _) = Game::new(rules, 2, 20).unwrap();
        to_move(&mut g, 0, 10);
        set_place(&mut g, 0, "Egypt");
        let tableau = zone(&g, "tableau", Some(0), None);
        give(&mut g, "Egypt 3 books, London", tableau);
        act(&mut g, "dig Egypt 3");
        // Week 51 in Rome: the 2-week trip to Egypt reaches week 53, the new
        // year, before the dig starts.
        to_move(&mut g, 0, 51);
        set_place(&mut g, 0, "Rome");
        let c = notation::parse(&g, "dig Egypt 3").unwrap();
        assert_eq!(g.check(&c).is_ok(), expect_legal, "{}", rules.game.title);
    }
}

#[test]
fn bots_cannot_peek_permuting_what_a_seat_cannot_see_changes_nothing() {
    let rules = thebes();
    let (mut g, _) = Game::new(&rules, 3, 31).unwrap();
    play_into(&mut g, 5, 12);
    let me = g.current().unwrap();
    // The same game with its hidden parts moved around: the deck and a bag
    // reversed. (A token cannot change bags unseen: its bag is on its back.)
    let mut other = g.clone();
    let deck = zone(&other, "deck", None, None);
    other.arrange(deck, |cells| cells.reverse());
    let bag = zone(&other, "bag", None, Some("Egypt"));
    other.arrange(bag, |cells| cells.reverse());
    assert_no_peek(&g, &other, me);
}

#[test]
fn pruned_enumeration_finds_exactly_the_legal_choices() {
    assert_pruned_choices_are_exact(&thebes(), 9);
}

#[test]
fn the_hand_written_reference_agrees_with_the_engine_on_legal_moves_weeks_and_scores_and_picks_each_move_by_counting(
) {
    use chronoscope_tests::reference::{draws_of, replay, Thebes};
    let rules = thebes();
    // 40 games (`CHRONOSCOPE_REFERENCE_GAMES=N` for N): the reference is
    // written for speed (counts kept as cards move, moves counted by
    // family), so it is held to the engine's legal moves on many turns.
    let n: u64 = std::env::var("CHRONOSCOPE_REFERENCE_GAMES").ok().and_then(|v| v.parse().ok()).unwrap_or(40);
    let games = (0..n).map(|i| (2 + (i % 3) as usize, 61 + i / 3));
    for (players, seed) in games {
        let (mut g, _) = Game::new(&rules, players, seed).unwrap();
        let mut t = Thebes::from_game(&g);
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
        let mut step = 0;
        while let Some(me) = g.current() {
            assert_eq!(t.current(), Some(me.index()), "{players}p seed {seed} action {step}: whose turn");
            let choices = g.choices();
            let mut engine: Vec<String> = choices.iter().map(|c| notation::format(&g, c)).collect();
            let reference = t.legal();
            let mut expected: Vec<String> = reference.iter().map(|(s, _)| s.clone()).collect();
            engine.sort();
            expected.sort();
            assert_eq!(engine, expected, "{players}p seed {seed} action {step}: legal moves");
            // Picking by counting families finds each listed move.
            let mut listed = Vec::new();
            t.legal_moves(&mut listed);
            for (k, m) in listed.iter().enumerate() {
                assert_eq!(
                    t.random_move(|n| {
                        assert_eq!(
                            n as usize,
                            listed.len(),
                            "{players}p seed {seed} action {step}: how many"
                        );
                        k as u32
                    }),
                    Some(*m)
                );
            }
            let choice = &choices[rng.gen_range(0..choices.len())];
            let text = notation::format(&g, choice);
            let m = reference.iter().find(|(s, _)| *s == text).map(|(_, m)| *m).unwrap();
            let events = g.apply(choice).unwrap();
            t.apply(&m, &mut replay(draws_of(&named(&g, &events))));
            for p in 0..players {
                assert_eq!(
                    t.time[p],
                    time(&g, p),
                    "{players}p seed {seed} action {step} `{text}`: weeks of P{}",
                    p + 1
                );
            }
            step += 1;
        }
        assert_eq!(t.current(), None);
        let sheet = g.scores().unwrap();
        let rows: Vec<Vec<i64>> = sheet.rows.iter().map(|(_, v)| v.clone()).collect();
        assert_eq!(t.scores(), rows, "{players}p seed {seed}: final scores");
    }
}

#[test]
fn previews_of_a_seat_do_not_depend_on_the_order_of_the_face_down_deck() {
    // A `take` refills the display and draws again when an exhibition comes
    // up: previewed on the real game, the count of cards drawn told the
    // player whether the top of the face-down deck was an exhibition (issue
    // 16). Two games that differ only in that top card must preview alike.
    let program = thebes();
    let (a, _) = Game::new(&program, 3, 7).unwrap();
    let deck = zone(&a, "deck", None, None);
    let exhibition = |g: &Game, c: model::ComponentId| {
        g.rules.components[c].tags.iter().any(|t| g.rules.tags[*t] == "exhibition")
    };
    let top = a.cards(deck).next().unwrap();
    let deeper =
        a.cards(deck).find(|c| exhibition(&a, *c) != exhibition(&a, top)).expect("both kinds in the deck");
    let mut b = a.clone();
    b.exchange(top, deeper);
    let me = a.current().unwrap();
    assert_eq!(a.view(me), b.view(me), "the seat cannot tell the two apart");
    let choices = a.choices();
    assert_eq!(b.choices(), choices);
    let takes: Vec<_> = choices.iter().filter(|c| a.rules.actions[c.action].name == "take").collect();
    assert!(!takes.is_empty());
    // The engine's own preview runs on the real game, and shows the difference...
    let drawn = |g: &Game, c: &engine::Choice| g.preview(c).unwrap().len();
    assert!(takes.iter().any(|c| drawn(&a, c) != drawn(&b, c)), "the real games do differ");
    // ...the player's preview does not.
    for c in &choices {
        let (pa, pb) =
            (chronoscope_cli::play::prompt::preview(&a, c), chronoscope_cli::play::prompt::preview(&b, c));
        assert_eq!(pa, pb, "{}", notation::format(&a, c));
    }
}
