//! Archaeology: The Card Game, played from the bundled ruleset
//! (rulesets/archaeology/archaeology.ruleset) through the real engine: the
//! rulebook's worked examples and numbered rules, setup by player count,
//! the options for the uncertain data, and random games with invariants.

use chronoscope_tests::scenario::{self, act, assert_no_peek, assert_replays, names, zone};
use engine::{notation, At, Choice, Game, Program, ZoneView, V};
use model::{ComponentId, PlayerId};
use rand::{Rng, SeedableRng};

const PATH: &str = "rulesets/archaeology/archaeology.ruleset";

fn program() -> Program {
    scenario::load(PATH)
}

/// The same ruleset with one line changed (an option flipped).
fn variant(from: &str, to: &str) -> Program {
    let checked = chronoscope_tests::checked_variant(PATH, from, to);
    Program::new(checked.ruleset.expect("the variant checks clean"))
}

/// A component called `name` not held by a player nor in the museum.
fn spare(g: &Game, name: &str) -> ComponentId {
    let free = |c: ComponentId| {
        g.where_is(c).is_some_and(|z| {
            let i = g.layout.instance(z);
            i.player.is_none() && g.layout.zone_name(g.rules, z) != "offer"
        })
    };
    (0..g.rules.components.len())
        .map(ComponentId::new)
        .find(|c| g.rules.components[*c].name == name && free(*c))
        .unwrap_or_else(|| panic!("no spare {name}"))
}

fn hand(g: &Game, p: PlayerId) -> engine::ZoneInst {
    zone(g, "hand", Some(p.index()), None)
}

/// Empty `p`'s hand into the box, then give them the named cards.
fn set_hand(g: &mut Game, p: PlayerId, cards: &[&str]) {
    let box_ = zone(g, "box", None, None);
    for c in g.cards(hand(g, p)).collect::<Vec<_>>() {
        g.put(c, box_, At::Top);
    }
    for name in cards {
        let c = spare(g, name);
        g.put(c, hand(g, p), At::Bottom);
    }
}

/// Put a card called `name` on top of the dig site.
fn on_top(g: &mut Game, name: &str) {
    let deck = zone(g, "deck", None, None);
    let c = spare(g, name);
    g.put(c, deck, At::Top);
}

/// Dig a pot shard, so the optional actions open.
fn dig_quietly(g: &mut Game) {
    on_top(g, "Pot shard");
    act(g, "dig");
}

fn money(g: &Game, p: PlayerId) -> i64 {
    match scenario::counter(g, "money", Some(p.index())) {
        V::Int(n) => n,
        other => panic!("{other:?}"),
    }
}

fn refusal(g: &Game, text: &str) -> String {
    let choice = notation::parse(g, text).unwrap_or_else(|e| panic!("{text}: {e}"));
    g.check(&choice).expect_err(text).message().to_string()
}

fn sorted(mut v: Vec<String>) -> Vec<String> {
    v.sort();
    v
}

// ------------------------------------------------------------------ setup

#[test]
fn setup_deals_4_cards_each_5_to_the_market_3_5_7_to_the_chambers_and_keeps_the_sandstorms_by_player_count() {
    let program = program();
    for (players, storms) in [(2, 6), (3, 5), (4, 4)] {
        let (g, _) = Game::new(&program, players, 11).unwrap();
        for p in 0..players {
            assert_eq!(g.count(zone(&g, "hand", Some(p), None)), 4);
        }
        assert_eq!(g.count(zone(&g, "market", None, None)), 5);
        for (room, n) in [("small", 3), ("medium", 5), ("large", 7)] {
            let chamber = zone(&g, "chambers", None, Some(room));
            assert_eq!(g.count(chamber), n, "{room}");
            // Dealt before the maps, thieves and sandstorms were shuffled in.
            assert!(names(&g, chamber).iter().all(|n| !["Map", "Thief", "Sandstorm"].contains(&n.as_str())));
        }
        let deck = names(&g, zone(&g, "deck", None, None));
        let count = |name: &str| deck.iter().filter(|n| *n == name).count();
        assert_eq!((count("Sandstorm"), count("Thief"), count("Map")), (storms, 8, 6), "{players} players");
        assert_eq!(g.count(zone(&g, "box", None, None)), 6 - storms);
        assert_eq!(deck.len(), 87 - 1 - 4 * players - 5 - 15 - (6 - storms));
        assert_eq!(scenario::total_components(&g), 87);
    }
}

// ------------------------------------------------------------------ selling

#[test]
fn talismans_sell_2_for_7_and_4_for_24_and_5_coins_for_30_as_the_rulebook_says() {
    let program = program();
    for (cards, set, worth) in [
        (vec!["Talisman"; 2], "sell [Talisman x2]", 7),
        (vec!["Talisman"; 4], "sell [Talisman x4]", 24),
        (vec!["Coin"; 5], "sell [Coin x5]", 30),
    ] {
        let (mut g, _) = Game::new(&program, 2, 1).unwrap();
        let me = g.current().unwrap();
        set_hand(&mut g, me, &cards);
        dig_quietly(&mut g);
        act(&mut g, set);
        assert_eq!(money(&g, me), worth, "{set}");
    }
}

#[test]
fn the_end_of_game_example_scores_61_for_4_talismans_2_talismans_and_5_coins() {
    let program = program();
    let (mut g, _) = Game::new(&program, 2, 1).unwrap();
    let me = g.current().unwrap();
    let mut cards = vec!["Talisman"; 6];
    cards.extend(["Coin"; 5]);
    set_hand(&mut g, me, &cards);
    dig_quietly(&mut g);
    act(&mut g, "sell [Talisman x4]");
    act(&mut g, "sell [Talisman x2]");
    act(&mut g, "sell [Coin x5]");
    assert_eq!(money(&g, me), 61);
    assert_eq!(g.scores().unwrap().totals[me.index()], 61);
}

#[test]
fn six_talismans_sell_at_most_five_as_one_set_and_each_sold_set_is_valued_apart() {
    let program = program();
    let (mut g, _) = Game::new(&program, 2, 1).unwrap();
    let me = g.current().unwrap();
    set_hand(&mut g, me, &["Talisman"; 6]);
    dig_quietly(&mut g);
    assert_eq!(refusal(&g, "sell [Talisman x6]"), "that set is larger than the museum buys");
    // Two sets of 2 are two piles of $7, never one set of 4 ($24).
    act(&mut g, "sell [Talisman x2]");
    act(&mut g, "sell [Talisman x2]");
    assert_eq!(money(&g, me), 14);
    assert_eq!(refusal(&g, "sell [Talisman, \"Pot shard\"]"), "a set is of one type of treasure");
    let museum = zone(&g, "museum", Some(me.index()), None);
    assert_eq!(g.count(museum), 4);
}

#[test]
fn maps_do_not_sell_and_broken_cups_sell_2_for_15_unless_the_options_say_otherwise() {
    let program = program();
    let (mut g, _) = Game::new(&program, 2, 1).unwrap();
    let me = g.current().unwrap();
    set_hand(&mut g, me, &["Map", "Broken cup", "Broken cup"]);
    dig_quietly(&mut g);
    assert_eq!(refusal(&g, "sell Map"), "that set is larger than the museum buys");
    act(&mut g, "sell [\"Broken cup\" x2]");
    assert_eq!(money(&g, me), 15);

    let maps = variant("option maps_sell = no", "option maps_sell = yes");
    let (mut g, _) = Game::new(&maps, 2, 1).unwrap();
    let me = g.current().unwrap();
    set_hand(&mut g, me, &["Map"]);
    dig_quietly(&mut g);
    act(&mut g, "sell Map");
    assert_eq!(money(&g, me), 3);

    let cups = variant("option cups_like_parchment = no", "option cups_like_parchment = yes");
    let (mut g, _) = Game::new(&cups, 2, 1).unwrap();
    let me = g.current().unwrap();
    set_hand(&mut g, me, &["Broken cup"; 4]);
    dig_quietly(&mut g);
    act(&mut g, "sell [\"Broken cup\" x4]");
    assert_eq!(money(&g, me), 10);
}

// ------------------------------------------------------------------ trading

#[test]
fn the_trade_example_gives_2_parchment_and_a_coin_for_a_talisman_and_a_pot_shard() {
    let program = program();
    let (mut g, _) = Game::new(&program, 2, 1).unwrap();
    let me = g.current().unwrap();
    set_hand(&mut g, me, &["Parchment scrap", "Parchment scrap", "Coin"]);
    let market = zone(&g, "market", None, None);
    g.move_all(market, zone(&g, "box", None, None));
    for name in ["Talisman", "Pot shard", "Pharaoh's mask"] {
        let c = spare(&g, name);
        g.put(c, market, At::Bottom);
    }
    on_top(&mut g, "Coin");
    act(&mut g, "dig");
    act(&mut g, "trade [\"Parchment scrap\" x2, Coin]");
    // Given cards wait face up; the take is asked of the trader at once.
    assert_eq!(g.asks().len(), 1);
    assert_eq!(
        refusal(&g, "take [\"Pharaoh's mask\", Talisman]"),
        "the cards you take may be worth no more than the cards you gave"
    );
    act(&mut g, "take [Talisman, \"Pot shard\"]");
    assert_eq!(sorted(names(&g, hand(&g, me))), ["Coin", "Pot shard", "Talisman"]);
    assert_eq!(sorted(names(&g, market)), ["Coin", "Parchment scrap", "Parchment scrap", "Pharaoh's mask"]);
}

#[test]
fn a_trade_for_less_loses_the_difference() {
    let program = program();
    let (mut g, _) = Game::new(&program, 2, 1).unwrap();
    let me = g.current().unwrap();
    set_hand(&mut g, me, &["Pharaoh's mask"]);
    let market = zone(&g, "market", None, None);
    g.move_all(market, zone(&g, "box", None, None));
    let pot = spare(&g, "Pot shard");
    g.put(pot, market, At::Bottom);
    on_top(&mut g, "Coin");
    act(&mut g, "dig");
    let value = |g: &Game| -> i64 {
        g.cards(hand(g, me))
            .map(|c| match g.rules.components[c].name.as_str() {
                "Pharaoh's mask" => 4,
                "Coin" => 2,
                "Pot shard" => 1,
                other => panic!("{other}"),
            })
            .sum()
    };
    assert_eq!(value(&g), 6);
    act(&mut g, "trade \"Pharaoh's mask\"");
    act(&mut g, "take \"Pot shard\"");
    assert_eq!(value(&g), 3, "a mask (4) for a pot shard (1): 3 lost");
    assert_eq!(names(&g, market), ["Pharaoh's mask"]);
}

// ------------------------------------------------------------------ the pyramid

#[test]
fn a_map_opens_the_small_chamber_once_and_is_removed_from_the_game() {
    let program = program();
    let (mut g, _) = Game::new(&program, 2, 1).unwrap();
    let me = g.current().unwrap();
    set_hand(&mut g, me, &["Map", "Map", "Map", "Map"]);
    dig_quietly(&mut g);
    let small = zone(&g, "chambers", None, Some("small"));
    let inside: Vec<ComponentId> = g.cards(small).collect();
    assert_eq!(refusal(&g, "explore large [Map x2]"), "discard exactly the maps that chamber needs");
    act(&mut g, "explore small Map");
    assert_eq!(g.count(small), 0);
    assert!(inside.iter().all(|c| g.where_is(*c) == Some(hand(&g, me))), "all 3 cards to the hand");
    assert_eq!(names(&g, zone(&g, "removed", None, None)), ["Map"]);
    assert_eq!(refusal(&g, "explore small Map"), "that chamber has been explored");
    act(&mut g, "explore medium [Map x2]");
    assert_eq!(g.count(hand(&g, me)), 1 + 3 + 5 + 1, "the pot shard dug, 8 found, 1 map left");
    assert_eq!(refusal(&g, "explore large Map"), "you need more maps");
}

// ------------------------------------------------------------------ thieves and sandstorms

#[test]
fn a_thief_with_no_opponent_holding_cards_is_just_discarded() {
    let program = program();
    let (mut g, _) = Game::new(&program, 3, 2).unwrap();
    let order = g.seat_order().to_vec();
    for p in &order[1..] {
        set_hand(&mut g, *p, &[]);
    }
    on_top(&mut g, "Thief");
    act(&mut g, "dig");
    assert!(g.asks().is_empty());
    assert_eq!(names(&g, zone(&g, "discard", None, None)), ["Thief"]);
    assert_eq!(g.count(hand(&g, order[0])), 4);
}

#[test]
fn a_thief_takes_one_random_card_from_the_chosen_opponent_unseen_by_the_others() {
    let program = program();
    let (mut g, _) = Game::new(&program, 3, 2).unwrap();
    let order = g.seat_order().to_vec();
    let (me, victim, other) = (order[0], order[1], order[2]);
    set_hand(&mut g, me, &[]);
    set_hand(&mut g, victim, &["Coin", "Talisman", "Pot shard"]);
    set_hand(&mut g, other, &[]);
    on_top(&mut g, "Thief");
    act(&mut g, "dig");
    assert_eq!(g.asks(), [(me, g.asks()[0].1)]);
    let choices: Vec<String> = g.choices().iter().map(|c| notation::format(&g, c)).collect();
    assert_eq!(choices, [format!("steal {victim}")], "only an opponent with cards");
    act(&mut g, &format!("steal {victim}"));
    assert_eq!(g.count(hand(&g, me)), 1);
    assert_eq!(g.count(hand(&g, victim)), 2);
    // The third player sees two hands of unknown cards.
    let view = g.view(other);
    assert_eq!(view.zones[hand(&g, me).index()], ZoneView::Hidden(1));
    assert_eq!(view.zones[hand(&g, victim).index()], ZoneView::Hidden(2));
}

#[test]
fn the_sandstorm_example_discards_3_2_1_and_0_clockwise_then_the_drawer_digs_again() {
    let program = program();
    let (mut g, _) = Game::new(&program, 4, 3).unwrap();
    let order = g.seat_order().to_vec();
    set_hand(
        &mut g,
        order[0],
        &["Parchment scrap", "Parchment scrap", "Coin", "Talisman", "Talisman", "Map"],
    );
    set_hand(&mut g, order[1], &["Coin", "Coin", "Pot shard", "Pot shard", "Map"]);
    set_hand(&mut g, order[2], &["Coin", "Pot shard", "Talisman"]);
    set_hand(&mut g, order[3], &["Talisman"]);
    let market = zone(&g, "market", None, None);
    let before = g.count(market);
    on_top(&mut g, "Sandstorm");
    act(&mut g, "dig");
    let asked: Vec<PlayerId> = g.asks().iter().map(|(p, _)| *p).collect();
    assert_eq!(asked, order[..3], "D holds 1 card and discards nothing");
    assert_eq!(refusal(&g, "lose_half [\"Parchment scrap\" x2]"), "discard half of your cards, rounded down");
    act(&mut g, "lose_half [\"Parchment scrap\" x2, Coin]");
    act(&mut g, "lose_half [Coin, Map]");
    act(&mut g, "lose_half Coin");
    assert_eq!(g.count(market), before + 3 + 2 + 1);
    assert_eq!(g.count(hand(&g, order[3])), 1);
    // Back to the drawer, who must dig again before anything else.
    assert_eq!(g.current(), Some(order[0]));
    let choices: Vec<String> = g.choices().iter().map(|c| notation::format(&g, c)).collect();
    assert_eq!(choices, ["dig"]);
}

// ------------------------------------------------------------------ the end

/// Empty the dig site into the box: the last phase of the game.
fn empty_dig_site(g: &mut Game) {
    let deck = zone(g, "deck", None, None);
    g.move_all(deck, zone(g, "box", None, None));
}

#[test]
fn when_every_player_passes_in_sequence_the_first_to_pass_must_sell_when_play_returns() {
    let program = program();
    let (mut g, _) = Game::new(&program, 3, 4).unwrap();
    let order = g.seat_order().to_vec();
    empty_dig_site(&mut g);
    for p in &order {
        set_hand(&mut g, *p, &["Coin", "Pot shard"]);
    }
    // No dig once the dig site is empty: a turn may be a pass.
    assert!(g.choices().iter().all(|c| g.rules.actions[c.action].name != "dig"));
    for p in &order {
        assert_eq!(g.current(), Some(*p));
        act(&mut g, "end_turn");
    }
    assert_eq!(g.current(), Some(order[0]));
    assert_eq!(refusal(&g, "end_turn"), "every player passed: you must sell at least one card");
    act(&mut g, "sell Coin");
    act(&mut g, "end_turn");
    // The next player is under no such duty.
    assert_eq!(g.current(), Some(order[1]));
    act(&mut g, "end_turn");
}

#[test]
fn the_game_ends_when_the_dig_site_and_every_hand_are_empty() {
    let program = program();
    let (mut g, _) = Game::new(&program, 2, 5).unwrap();
    let order = g.seat_order().to_vec();
    empty_dig_site(&mut g);
    set_hand(&mut g, order[0], &["Coin"]);
    set_hand(&mut g, order[1], &[]);
    assert!(g.current().is_some());
    act(&mut g, "sell Coin");
    assert_eq!(g.current(), None, "the game is over");
}

#[test]
fn a_tie_goes_to_the_player_who_sold_fewer_cards() {
    let program = program();
    let (mut g, _) = Game::new(&program, 2, 6).unwrap();
    let order = g.seat_order().to_vec();
    empty_dig_site(&mut g);
    set_hand(&mut g, order[0], &["Coin"; 3]);
    set_hand(&mut g, order[1], &["Coin"; 4]);
    // $10 for one set of 3 coins; $5 + $5 for two sets of 2.
    act(&mut g, "sell [Coin x3]");
    act(&mut g, "end_turn");
    act(&mut g, "sell [Coin x2]");
    act(&mut g, "sell [Coin x2]");
    assert_eq!(g.current(), None);
    let sheet = g.scores().unwrap();
    assert_eq!(sheet.totals[order[0].index()], 10);
    assert_eq!(sheet.totals[order[1].index()], 10);
    assert_eq!(sheet.winners, [order[0]], "3 cards sold against 4");
}

// ------------------------------------------------------------------ hidden information

/// `g` with hidden cards `me` cannot see swapped: each card of another
/// player's hand for a differently named card of the dig site or a chamber.
fn permuted<'r>(g: &Game<'r>, me: PlayerId) -> Game<'r> {
    let mut b = g.clone();
    let mut pool: Vec<ComponentId> = g.cards(zone(g, "deck", None, None)).collect();
    for room in ["small", "medium", "large"] {
        pool.extend(g.cards(zone(g, "chambers", None, Some(room))));
    }
    for p in PlayerId::all(g.players()).filter(|p| *p != me) {
        for c in g.cards(hand(g, p)).collect::<Vec<_>>() {
            let name = &g.rules.components[c].name;
            if let Some(i) = pool.iter().position(|o| g.rules.components[*o].name != *name) {
                b.exchange(c, pool.remove(i));
            }
        }
    }
    b
}

#[test]
fn no_view_table_choice_or_bot_pick_depends_on_other_hands_or_the_dig_site() {
    let program = program();
    let mut checked = 0;
    for seed in 0..12u64 {
        let players = 2 + (seed % 3) as usize;
        let (mut g, _) = Game::new(&program, players, seed).unwrap();
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
        let mut step = 0;
        while let Some(me) = g.current() {
            // Every 9th decision, and every answer to an ask (a sandstorm's
            // half hand, a thief's victim), for the seat deciding.
            if step % 9 == 0 || !g.asks().is_empty() {
                let b = permuted(&g, me);
                if b.snapshot().zones != g.snapshot().zones {
                    assert_no_peek(&g, &b, me);
                    assert_eq!(
                        chronoscope_cli::play::view::table(&g, me),
                        chronoscope_cli::play::view::table(&b, me),
                        "seed {seed}, step {step}: the play table"
                    );
                    checked += 1;
                }
            }
            let choices = g.choices();
            g.step(&choices[rng.gen_range(0..choices.len())]).unwrap();
            step += 1;
        }
    }
    assert!(checked > 100, "only {checked} positions checked");
}

// ------------------------------------------------------------------ random games

/// The museum's price of `n` cards of a type, from ref A.2 (the bundled
/// defaults: broken cups 2/15, maps unsold), written out here apart from
/// the ruleset's tables so that a sale is checked against the data itself.
fn price(name: &str, n: usize) -> Option<i64> {
    let row: &[i64] = match name {
        "Pot shard" => &[1, 2, 3, 4, 15],
        "Parchment scrap" => &[1, 2, 3, 10],
        "Coin" => &[2, 5, 10, 18, 30],
        "Talisman" => &[3, 7, 14, 24, 40],
        "Broken cup" => &[2, 15],
        "Pharaoh's mask" => &[4, 12, 26, 50],
        _ => &[],
    };
    row.get(n.checked_sub(1)?).copied()
}

#[test]
fn a_thousand_random_games_keep_87_cards_never_change_a_sold_set_hide_hands_and_end() {
    let program = program();
    let mut actions = 0;
    for seed in 0..1000u64 {
        let players = 2 + (seed % 3) as usize;
        let (mut g, _) = Game::new(&program, players, seed).unwrap();
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed ^ 0x5eed);
        let museums: Vec<_> =
            PlayerId::all(players).map(|p| zone(&g, "museum", Some(p.index()), None)).collect();
        let mut sold: Vec<Vec<ComponentId>> = vec![Vec::new(); players];
        let mut history: Vec<Choice> = Vec::new();
        while let Some(me) = g.current() {
            let choices = g.choices();
            assert!(!choices.is_empty(), "seed {seed}: {me} has no legal action");
            let c = choices[rng.gen_range(0..choices.len())].clone();
            let before = money(&g, me);
            g.step(&c).unwrap();
            if g.rules.actions[c.action].name == "sell" {
                let set = &c.sets[0];
                let name = &g.rules.components[set[0]].name;
                assert_eq!(
                    Some(money(&g, me) - before),
                    price(name, set.len()),
                    "seed {seed}: {name} x{}",
                    set.len()
                );
            }
            assert_eq!(scenario::total_components(&g), 87, "seed {seed}: cards created or lost");
            for (p, museum) in museums.iter().enumerate() {
                // What was sold stays sold, where it was.
                let now: Vec<ComponentId> = g.cards(*museum).collect();
                assert!(sold[p].iter().all(|c| now.contains(c)), "seed {seed}: a sold card left a museum");
                sold[p] = now;
                // A hand is seen by its owner only.
                for q in PlayerId::all(players).filter(|q| q.index() != p) {
                    let h = hand(&g, PlayerId::new(p));
                    assert!(matches!(g.view(q).zones[h.index()], ZoneView::Hidden(_)), "seed {seed}");
                }
            }
            history.push(c);
            assert!(history.len() < 20_000, "seed {seed}: the game does not end");
        }
        // Each score is what that player's sets sold for.
        let sheet = g.scores().unwrap();
        for p in PlayerId::all(players) {
            assert_eq!(sheet.totals[p.index()], money(&g, p));
        }
        if seed % 100 == 0 {
            assert_replays(&program, &g, &history);
        }
        actions += history.len();
    }
    assert!(actions > 1000 * 50, "games of {} actions on average", actions / 1000);
}

// ------------------------------------------------------------------ bots

/// Play a game with these bots by seat; the number of actions it took.
fn bot_game(program: &Program, seats: &[&str], seed: u64) -> usize {
    let (mut g, _) = Game::new(program, seats.len(), seed).unwrap();
    let mut bots: Vec<_> =
        seats.iter().enumerate().map(|(i, s)| bots::make(s, seed * 10 + i as u64).unwrap()).collect();
    let mut n = 0;
    while let Some(me) = g.current() {
        let choices = g.legal().unwrap_or_else(|f| panic!("seed {seed}, {seats:?}: {f:?}"));
        let pick = bots[me.index()].choose(&bots::Seat::new(&g, me), &choices);
        g.step(&choices[pick]).unwrap();
        n += 1;
    }
    n
}

#[test]
fn greedy_and_mcts_bots_end_every_game_though_trades_may_go_round_in_circles() {
    // A trade for a copy and back, or for ever less, is legal: bots that
    // gain nothing by acting on end their turn, and never return to a
    // position they were to move in (see `bots::Pacing`).
    let program = program();
    for seed in 0..20 {
        let n = bot_game(&program, &["greedy", "greedy", "random", "greedy"], seed);
        assert!(n < 2_000, "seed {seed}: {n} actions");
    }
    for seed in 0..2 {
        bot_game(&program, &["mcts:20", "random"], seed);
    }
}

#[test]
fn two_positions_that_differ_only_in_which_copy_lies_where_are_one_position() {
    let program = program();
    let (mut g, _) = Game::new(&program, 2, 1).unwrap();
    let me = g.current().unwrap();
    set_hand(&mut g, me, &["Pot shard", "Coin"]);
    let market = zone(&g, "market", None, None);
    let pot = spare(&g, "Pot shard");
    g.put(pot, market, At::Bottom);
    let mine = g.cards(hand(&g, me)).find(|c| g.rules.components[*c].name == "Pot shard").unwrap();
    // The two pot shards swapped: the same position.
    let mut swapped = g.clone();
    swapped.exchange(mine, pot);
    assert_ne!(swapped.snapshot().zones, g.snapshot().zones);
    assert_eq!(bots::position_key(&g, me), bots::position_key(&swapped, me));
    // A pot shard swapped for a coin: another position.
    let coin = g.cards(hand(&g, me)).find(|c| g.rules.components[*c].name == "Coin").unwrap();
    let mut other = g.clone();
    other.exchange(coin, pot);
    assert_ne!(bots::position_key(&g, me), bots::position_key(&other, me));
}
