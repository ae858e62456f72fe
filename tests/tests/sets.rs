//! Set-valued parameters (`give: set of me.hand`) on a small generic
//! ruleset, tests/fixtures/valid/sets.ruleset: a trade of any cards for
//! market cards of no more total value, a sale of a set of one colour, half
//! a hand discarded at a storm.

use chronoscope_tests::scenario::{self, act, assert_replays, zone};
use engine::{notation, At, Choice, Game, Program, MAX_SETS, V};
use model::{ComponentId, PlayerId};
use rand::{Rng, SeedableRng};

const PATH: &str = "tests/fixtures/valid/sets.ruleset";

fn program() -> Program {
    scenario::load(PATH)
}

/// Empty the market and every hand into the discard pile, then give the
/// player to move `hand` and the market `market` (names, from the deck).
fn arrange(g: &mut Game, hand: &[&str], market: &[&str]) -> PlayerId {
    let me = g.current().unwrap();
    let discard = zone(g, "discard", None, None);
    let mut places = vec![zone(g, "market", None, None)];
    places.extend((0..g.players()).map(|p| zone(g, "hand", Some(p), None)));
    for z in places {
        for c in g.cards(z).collect::<Vec<_>>() {
            g.put(c, discard, At::Top);
        }
    }
    for (names, to) in
        [(hand, zone(g, "hand", Some(me.index()), None)), (market, zone(g, "market", None, None))]
    {
        for name in names {
            let c = spare(g, name);
            g.put(c, to, At::Bottom);
        }
    }
    me
}

/// A component called `name` in the deck or the discard pile.
fn spare(g: &Game, name: &str) -> ComponentId {
    let (deck, discard) = (zone(g, "deck", None, None), zone(g, "discard", None, None));
    (0..g.rules.components.len())
        .map(ComponentId::new)
        .find(|c| {
            g.rules.components[*c].name == name
                && matches!(g.where_is(*c), Some(z) if z == deck || z == discard)
        })
        .unwrap_or_else(|| panic!("no {name} left"))
}

/// Dig a card that is no storm, so the optional actions open.
fn dig_quietly(g: &mut Game) {
    let deck = zone(g, "deck", None, None);
    let c = g.cards(deck).find(|c| g.rules.components[*c].name == "Blue").expect("a blue left");
    g.put(c, deck, At::Top);
    act(g, "dig");
}

fn texts(g: &Game, action: &str) -> Vec<String> {
    g.choices()
        .iter()
        .filter(|c| g.rules.actions[c.action].name == action)
        .map(|c| notation::format(g, c))
        .collect()
}

/// Three reds, two greens and a blue in the hand of the player to move:
/// the hand, and its components as a pool to choose sets from.
fn mixed_hand(g: &mut Game) -> (engine::ZoneInst, Vec<V>) {
    let me = arrange(g, &["Red", "Green", "Red", "Blue", "Green", "Red"], &[]);
    let hand = zone(g, "hand", Some(me.index()), None);
    (hand, g.cards(hand).map(V::Card).collect())
}

#[test]
fn sets_of_lists_each_sub_multiset_once_with_each_names_first_copies() {
    let program = program();
    let (mut g, _) = Game::new(&program, 2, 1).unwrap();
    let (hand, pool) = mixed_hand(&mut g);
    let sets = g.sets_of(&pool, model::Span::default()).unwrap();
    // 3 reds, 2 greens, 1 blue: 4 * 3 * 2 sub-multisets, the empty one first.
    assert_eq!(sets.len(), 24);
    assert!(sets[0].is_empty());
    let mut by_names: Vec<Vec<&str>> = sets
        .iter()
        .map(|s| {
            let mut n: Vec<&str> = s.iter().map(|c| program.components[*c].name.as_str()).collect();
            n.sort_unstable();
            n
        })
        .collect();
    by_names.sort();
    by_names.dedup();
    assert_eq!(by_names.len(), 24, "no two sets hold the same names");
    let cards: Vec<ComponentId> = g.cards(hand).collect();
    for set in &sets {
        // In the order they lie, each name's copies taken from the first.
        let mut last = None;
        for c in set {
            let at = cards.iter().position(|x| x == c).expect("in the hand");
            assert!(last.is_none_or(|l| at > l), "in hand order");
            last = Some(at);
            let earlier = cards[..at].iter().filter(|x| g.alike(**x, *c)).all(|x| set.contains(x));
            assert!(earlier, "a later copy is never chosen before an earlier one");
        }
    }
}

/// Checking a chosen set (`Game::is_set_of`, which applying a choice
/// runs) accepts exactly the sets `sets_of` lists: tried on every
/// sequence of up to four components of a hand of three reds, two greens
/// and a blue.
#[test]
fn a_set_is_accepted_exactly_when_sets_of_lists_it() {
    let program = program();
    let (mut g, _) = Game::new(&program, 2, 1).unwrap();
    let (hand, pool) = mixed_hand(&mut g);
    let listed = g.sets_of(&pool, model::Span::default()).unwrap();
    let cards: Vec<ComponentId> = g.cards(hand).collect();
    // Every sequence of up to four of the hand's components, repeats and
    // any order included, against the listed sets.
    let mut sequences: Vec<Vec<ComponentId>> = vec![vec![]];
    let mut last = sequences.clone();
    for _ in 0..4 {
        last = last.iter().flat_map(|s| cards.iter().map(move |c| [s.clone(), vec![*c]].concat())).collect();
        sequences.extend(last.iter().cloned());
    }
    assert_eq!(sequences.len(), 1 + 6 + 36 + 216 + 1296);
    let mut accepted = 0;
    for s in &sequences {
        assert_eq!(g.is_set_of(&pool, s), listed.contains(s), "{s:?}");
        accepted += usize::from(listed.contains(s));
    }
    // Each listed set of at most four components, and no other.
    assert_eq!(accepted, listed.iter().filter(|s| s.len() <= 4).count());
    assert!(accepted > 15);
}

#[test]
fn trade_choices_are_exactly_the_pairs_of_nonempty_sets_whose_take_is_worth_no_more() {
    let program = program();
    let (mut g, _) = Game::new(&program, 2, 3).unwrap();
    arrange(&mut g, &["Green", "Red", "Green"], &["Blue", "Red", "Grey", "Red", "Green"]);
    dig_quietly(&mut g);
    // Counted here from names and values, not by the engine: the hand is
    // now 2 greens (2), 1 red (1), 1 blue (3, the dig); the market 1 blue
    // (3), 2 reds (1), 1 grey (1), 1 green (2).
    let mut expected = 0;
    for (g2, r, b) in itertools_product(&[2, 1, 1]) {
        let give = 2 * g2 + r + 3 * b;
        for (mb, mr, mg, mgreen) in (0..=1).flat_map(|b| {
            (0..=2).flat_map(move |r| (0..=1).flat_map(move |gr| (0..=1).map(move |gn| (b, r, gr, gn))))
        }) {
            let take = 3 * mb + mr + mg + 2 * mgreen;
            let n_take = mb + mr + mg + mgreen;
            if give > 0 && n_take > 0 && take <= give {
                expected += 1;
            }
        }
    }
    let trades = texts(&g, "trade");
    assert_eq!(trades.len(), expected);
    assert!(trades.contains(&"trade [Green x2] [Blue, Red]".to_string()), "{trades:?}");
    assert!(!trades.contains(&"trade [Red] [Green]".to_string()), "worth more than given");
    let mut unique = trades.clone();
    unique.sort();
    unique.dedup();
    assert_eq!(unique.len(), trades.len(), "each trade listed once");
}

/// Every (green, red, blue) count up to the given maxima.
fn itertools_product(max: &[usize; 3]) -> Vec<(usize, usize, usize)> {
    let mut out = Vec::new();
    for a in 0..=max[0] {
        for b in 0..=max[1] {
            for c in 0..=max[2] {
                out.push((a, b, c));
            }
        }
    }
    out
}

#[test]
fn a_trade_moves_the_sets_both_ways_and_the_difference_is_lost() {
    let program = program();
    let (mut g, _) = Game::new(&program, 2, 3).unwrap();
    let me = arrange(&mut g, &["Green", "Red", "Green"], &["Blue", "Red"]);
    dig_quietly(&mut g);
    act(&mut g, "trade [Green x2, Red] [Blue]");
    let hand = zone(&g, "hand", Some(me.index()), None);
    let market = zone(&g, "market", None, None);
    let mut held = scenario::names(&g, hand);
    held.sort();
    assert_eq!(held, ["Blue", "Blue"]);
    let mut offered = scenario::names(&g, market);
    offered.sort();
    assert_eq!(offered, ["Green", "Green", "Red", "Red"]);
}

#[test]
fn a_set_of_later_copies_or_of_components_from_elsewhere_is_refused() {
    let program = program();
    let (mut g, _) = Game::new(&program, 2, 3).unwrap();
    let me = arrange(&mut g, &["Red", "Red", "Green"], &["Red"]);
    dig_quietly(&mut g);
    // The reds in the hand, in the order they lie (the dug blue is on top).
    let hand: Vec<ComponentId> = g
        .cards(zone(&g, "hand", Some(me.index()), None))
        .filter(|c| program.components[*c].name == "Red")
        .collect();
    let market: Vec<ComponentId> = g.cards(zone(&g, "market", None, None)).collect();
    let sell = model::ActionId::new(program.actions.iter().position(|a| a.name == "sell").unwrap());
    let with = |set: Vec<ComponentId>| Choice {
        action: sell,
        args: [V::Set(0)].into(),
        sets: [set].into_iter().collect(),
    };
    assert!(g.check(&with(vec![hand[0]])).is_ok(), "the first red");
    for wrong in [vec![hand[1]], vec![market[0]], vec![hand[0], hand[0]], vec![hand[1], hand[0]]] {
        let refused = g.check(&with(wrong.clone())).expect_err("refused");
        assert!(refused.message().contains("cannot be that now"), "{wrong:?}: {refused:?}");
    }
    let no_set = Choice { action: sell, args: [V::Set(0)].into(), sets: engine::ChoiceSets::new() };
    assert!(g.check(&no_set).is_err());
}

#[test]
fn a_sale_is_one_colour_no_larger_than_its_table_allows() {
    let program = program();
    let (mut g, _) = Game::new(&program, 2, 5).unwrap();
    let me = arrange(&mut g, &["Blue", "Blue", "Red", "Red", "Red"], &[]);
    dig_quietly(&mut g);
    let mut sales = texts(&g, "sell");
    sales.sort();
    // Blues: 1 or 2 (the table stops at 2; the dig brought a third).
    assert_eq!(sales, ["sell [Blue x2]", "sell [Blue]", "sell [Red x2]", "sell [Red x3]", "sell [Red]"]);
    let refused = g.check(&notation::parse(&g, "sell [Blue x3]").unwrap()).expect_err("too large");
    assert!(refused.message().contains("larger than the table allows"));
    let mixed = g.check(&notation::parse(&g, "sell [Blue, Red]").unwrap()).expect_err("mixed");
    assert!(mixed.message().contains("one colour"));
    act(&mut g, "sell [red x3]");
    assert_eq!(scenario::counter(&g, "banked", Some(me.index())), V::Int(6));
}

#[test]
fn a_set_is_read_from_names_prefixes_and_copies_and_refused_when_too_many() {
    let program = program();
    let (mut g, _) = Game::new(&program, 2, 3).unwrap();
    arrange(&mut g, &["Green", "Red", "Green"], &["Blue", "Grey", "Green"]);
    dig_quietly(&mut g);
    let a = notation::parse(&g, "trade [gree x2] [Bl]").unwrap();
    let b = notation::parse(&g, "trade [\"Green\" x2] [Blue]").unwrap();
    assert_eq!(a, b);
    assert_eq!(notation::format(&g, &a), "trade [Green x2] [Blue]");
    let too_many = notation::parse(&g, "trade [Green x3] [Blue]").unwrap_err();
    assert!(too_many.contains("there are 2 `Green` to choose from, not 3"), "{too_many}");
    let ambiguous = notation::parse(&g, "trade [Green] [G]").unwrap_err();
    assert!(ambiguous.contains("`g` could be Grey or Green"), "{ambiguous}");
    let single = notation::parse(&g, "trade Red Grey").unwrap();
    assert_eq!(notation::format(&g, &single), "trade [Red] [Grey]");
    let unclosed = notation::parse(&g, "trade [Green").unwrap_err();
    assert!(unclosed.contains("not closed"), "{unclosed}");
}

#[test]
fn the_storm_asks_each_player_in_turn_to_discard_half_their_hand_rounded_down() {
    let program = program();
    let (mut g, _) = Game::new(&program, 3, 7).unwrap();
    let order = g.seat_order().to_vec();
    let me = arrange(&mut g, &["Red", "Red", "Green", "Blue", "Green"], &[]);
    // The next player holds 3 cards, the last 1.
    for (p, n) in [(order[1], 3), (order[2], 1)] {
        let hand = zone(&g, "hand", Some(p.index()), None);
        for _ in 0..n {
            let c = spare(&g, "Grey");
            g.put(c, hand, At::Bottom);
        }
    }
    let deck = zone(&g, "deck", None, None);
    let storm = spare(&g, "Storm");
    g.put(storm, deck, At::Top);
    act(&mut g, "dig");
    // The drawer (5 cards) first, then the next (3); the last holds 1.
    let asked: Vec<PlayerId> = g.asks().iter().map(|(p, _)| *p).collect();
    assert_eq!(asked, [me, order[1]]);
    assert!(texts(&g, "storm_discard").iter().all(|t| t.matches(',').count() + 1 == 2 || t.contains(" x2]")));
    assert!(
        g.check(&notation::parse(&g, "storm_discard [Red]").unwrap()).is_err(),
        "one card is not half of 5"
    );
    act(&mut g, "storm_discard [Red x2]");
    assert_eq!(g.current(), Some(order[1]));
    act(&mut g, "storm_discard [Grey]");
    // Back to the drawer, who digs again.
    assert_eq!(g.current(), Some(me));
    assert_eq!(scenario::counter(&g, "dug", Some(me.index())), V::Int(1));
    let market = scenario::names(&g, zone(&g, "market", None, None));
    assert_eq!(market, ["Red", "Red", "Grey"]);
}

/// A pool of more than 64 entries goes through its sets without the bits
/// a smaller pool keeps the growing set in: entries that are no component
/// (skipped either way) take this one past 64, and it lists the very sets
/// its components alone list, in the same order.
#[test]
fn sets_of_a_pool_past_sixty_four_entries_lists_what_its_components_alone_list() {
    let program = program();
    let (mut g, _) = Game::new(&program, 2, 1).unwrap();
    let (_, cards) = mixed_hand(&mut g);
    let mut padded = vec![V::None; 70];
    padded.splice(30..30, cards.iter().copied());
    let alone = g.sets_of(&cards, model::Span::default()).unwrap();
    let among = g.sets_of(&padded, model::Span::default()).unwrap();
    assert_eq!(alone.len(), 24);
    assert_eq!(among, alone);
}

#[test]
fn more_sets_than_the_bound_is_a_rule_error_naming_it() {
    // Thebes's research deck: dozens of different cards.
    let thebes = scenario::load("rulesets/thebes/thebes.ruleset");
    let (g, _) = Game::new(&thebes, 2, 1).unwrap();
    let deck = zone(&g, "deck", None, None);
    let pool: Vec<V> = g.cards(deck).map(V::Card).collect();
    let err = g.sets_of(&pool, model::Span::default()).expect_err("too many");
    assert!(err.message().contains(&format!("more than {MAX_SETS} sets")), "{err:?}");
}

#[test]
fn the_pruned_search_finds_exactly_the_choices_of_every_set_tried_in_full() {
    scenario::assert_pruned_choices_are_exact(&program(), 5);
}

#[test]
fn random_games_with_sets_end_replay_and_read_back_every_choice() {
    let program = program();
    for seed in 0..30u64 {
        let players = 2 + (seed % 2) as usize;
        let (mut g, _) = Game::new(&program, players, seed).unwrap();
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
        let mut history = Vec::new();
        while g.current().is_some() {
            let choices = g.choices();
            assert!(!choices.is_empty(), "seed {seed}: stuck");
            for c in &choices {
                let text = notation::format(&g, c);
                assert_eq!(notation::parse(&g, &text).as_ref(), Ok(c), "seed {seed}: {text}");
            }
            let c = choices[rng.gen_range(0..choices.len())].clone();
            g.step(&c).unwrap();
            history.push(c);
            assert_eq!(scenario::total_components(&g), program.components.len());
            assert!(history.len() < 5_000, "seed {seed}: the game does not end");
        }
        assert_replays(&program, &g, &history);
    }
}

#[test]
fn only_an_action_may_take_a_set() {
    let checked = chronoscope_tests::checked_variant(
        PATH,
        "score money = me.banked",
        "let worth_of(s: set of me.hand) = 0\nscore money = me.banked",
    );
    let messages = chronoscope_tests::codes_and_messages(&checked);
    assert!(
        messages
            .iter()
            .any(|(_, m)| m == "`s: set of ...` is a choice a player makes; a let cannot take one"),
        "{messages:?}"
    );
}

#[test]
fn a_bookkeeping_counter_is_kept_by_the_rules_but_not_shown_to_players() {
    let program = program();
    let (mut g, _) = Game::new(&program, 2, 3).unwrap();
    let me = arrange(&mut g, &["Red"], &[]);
    dig_quietly(&mut g);
    // The rules read it: a second dig is refused.
    assert!(g.check(&notation::parse(&g, "dig").unwrap()).is_err());
    let table = chronoscope_cli::play::view::table(&g, me);
    assert!(table.contains("banked 0"), "{table}");
    assert!(!table.contains("dug"), "{table}");
    let summary = chronoscope_cli::play::view::player_summary(&g, me);
    assert!(summary.get("dug").is_none() && summary.get("banked").is_some(), "{summary}");
}

#[test]
fn a_move_missing_a_value_names_it_and_points_at_the_list() {
    let program = program();
    let (mut g, _) = Game::new(&program, 2, 3).unwrap();
    arrange(&mut g, &["Red"], &["Green"]);
    dig_quietly(&mut g);
    let e = notation::parse(&g, "trade [Red]").unwrap_err();
    assert_eq!(e, "`trade` also needs: take (type `list trade` to see the choices)");
}

/// A set bounded by two limits at once (its size and its total value):
/// the pruned search keeps the sets within both, exactly those that trying
/// every set in full finds.
const TWO_LIMITS: &str = r#"
game limits "Limits" { players 2..4 }
kind card { value: 1..3 }
cards deck_cards of card total 12 {
  "One" x4 { value: 1 }
  "Two" x4 { value: 2 }
  "Three" x4 { value: 3 }
}
zone deck: deck
zone hand: hand per player
zone discard: pile
setup {
  move all c in deck_cards to deck
  shuffle deck
  for p in players { draw 3 from deck to p.hand }
}
turns clockwise
action pick(s: set of me.hand) {
  require count(s) >= 1 else "pick at least one"
  require count(s) <= 2 else "at most two"
  require sum(c.value for c in s) <= 4 else "worth at most four"
  move all c in s to discard
}
end when any(p in players where count(p.hand) == 0)
score kept = count(me.hand)
"#;

#[test]
fn a_set_under_two_limits_lists_exactly_the_sets_within_both() {
    let checked = ruleset::check_source(TWO_LIMITS);
    let program = Program::new(checked.ruleset.expect("the two-limit ruleset checks clean"));
    scenario::assert_pruned_choices_are_exact(&program, 1);
    // And the limits bite: a hand of One, Two, Three offers the five sets
    // of at most two worth at most four, not the seven nonempty ones.
    let (mut g, _) = Game::new(&program, 2, 1).unwrap();
    let me = g.current().unwrap();
    let hand = zone(&g, "hand", Some(me.index()), None);
    let deck = zone(&g, "deck", None, None);
    for c in g.cards(hand).collect::<Vec<_>>() {
        g.put(c, deck, At::Bottom);
    }
    for name in ["One", "Two", "Three"] {
        let c = g.cards(deck).find(|c| g.rules.components[*c].name == name).expect(name);
        g.put(c, hand, At::Bottom);
    }
    assert_eq!(texts(&g, "pick").len(), 5, "{:?}", texts(&g, "pick"));
}
