//! Turns of several actions (`turns clockwise until end turn`), choices
//! asked of a player in the middle of another's turn (`ask`, `when
//! asked`), `players from`, and `draw ... at random` from a hidden hand,
//! on a small generic ruleset: tests/fixtures/valid/turns_and_asks.ruleset.

use chronoscope_tests::codes_and_messages as messages;
use chronoscope_tests::repo_root;
use chronoscope_tests::scenario::{self, act, assert_no_peek, assert_replays, total_components, zone};
use engine::{notation, At, Game, Program};
use model::PlayerId;
use rand::{Rng, SeedableRng};
use ruleset::Code;

const PATH: &str = "tests/fixtures/valid/turns_and_asks.ruleset";

fn program() -> Program {
    scenario::load(PATH)
}

/// A component called `name` still in the deck.
fn in_deck(g: &Game, name: &str) -> model::ComponentId {
    let deck = zone(g, "deck", None, None);
    g.cards(deck).find(|c| g.rules.components[*c].name == name).unwrap_or_else(|| panic!("no {name} left"))
}

/// Put a component called `name` on top of the deck.
fn on_top(g: &mut Game, name: &str) {
    let deck = zone(g, "deck", None, None);
    let c = in_deck(g, name);
    g.put(c, deck, At::Top);
}

/// Give player `p` cards called `name` from the deck until they hold `n`.
fn hand_of(g: &mut Game, p: PlayerId, n: usize) {
    let hand = zone(g, "hand", Some(p.index()), None);
    let deck = zone(g, "deck", None, None);
    while g.count(hand) < n {
        let c = g.cards(deck).find(|c| g.rules.components[*c].name.ends_with("em")).expect("a gem left");
        g.put(c, hand, At::Bottom);
    }
}

fn choice_texts(g: &Game) -> Vec<String> {
    g.choices().iter().map(|c| notation::format(g, c)).collect()
}

/// Why a move written in the notation is refused now (it must be).
fn refusal(g: &Game, text: &str) -> String {
    let choice = notation::parse(g, text).unwrap_or_else(|e| panic!("{text}: {e}"));
    format!("{:?}", g.check(&choice).expect_err(text))
}

fn asked_players(g: &Game) -> Vec<PlayerId> {
    g.asks().iter().map(|(p, _)| *p).collect()
}

#[test]
fn a_turn_lasts_until_the_player_ends_it() {
    let program = program();
    let (mut g, _) = Game::new(&program, 3, 1).unwrap();
    let order = g.seat_order().to_vec();
    assert_eq!(g.current(), Some(order[0]));
    on_top(&mut g, "Gem");
    act(&mut g, "dig");
    // Still this player's turn: having dug, they may only pass.
    assert_eq!(g.current(), Some(order[0]));
    assert_eq!(choice_texts(&g), ["pass"]);
    assert!(refusal(&g, "dig").contains("you have dug this turn"));
    act(&mut g, "pass");
    assert_eq!(g.current(), Some(order[1]));
    assert_eq!(choice_texts(&g), ["dig"]);
}

#[test]
fn a_thief_asks_the_drawer_to_steal_a_random_card_from_an_opponent_with_cards() {
    let program = program();
    let (mut g, _) = Game::new(&program, 3, 2).unwrap();
    let order = g.seat_order().to_vec();
    let (me, rich, poor) = (order[0], order[1], order[2]);
    hand_of(&mut g, rich, 2);
    on_top(&mut g, "Thief");
    let events = scenario::event_lines(&act(&mut g, "dig"));
    assert!(events.contains(&format!("{me} is asked to steal")), "{events}");
    assert_eq!(g.current(), Some(me));
    assert_eq!(asked_players(&g), [me]);
    // Only the opponent who has cards; not `pass`, not the poor one.
    assert_eq!(choice_texts(&g), [format!("steal {rich}")]);
    assert!(refusal(&g, "pass").contains("is asked to `steal` first"));
    assert!(refusal(&g, &format!("steal {poor}")).contains("they have nothing to steal"));
    act(&mut g, &format!("steal {rich}"));
    let hand = |p: PlayerId| g.count(zone(&g, "hand", Some(p.index()), None));
    assert_eq!((hand(me), hand(rich)), (1, 1));
    // The ask answered, the turn goes on: the thief's drawer has dug.
    assert!(g.asks().is_empty());
    assert_eq!(g.current(), Some(me));
    assert_eq!(choice_texts(&g), ["pass"]);
}

#[test]
fn a_steal_takes_each_card_of_the_hand_at_random() {
    // Over many seeds the stolen card is each of the victim's two cards:
    // `draw 1 at random` from a hand, not its top.
    let program = program();
    let mut stolen = std::collections::BTreeSet::new();
    for seed in 0..40 {
        let (mut g, _) = Game::new(&program, 2, seed).unwrap();
        let order = g.seat_order().to_vec();
        let victim_hand = zone(&g, "hand", Some(order[1].index()), None);
        for name in ["Gem", "Big gem"] {
            let c = in_deck(&g, name);
            g.put(c, victim_hand, At::Bottom);
        }
        on_top(&mut g, "Thief");
        act(&mut g, "dig");
        act(&mut g, &format!("steal {}", order[1]));
        stolen.insert(g.rules.components[g.cards(victim_hand).next().unwrap()].name.clone());
    }
    assert_eq!(stolen.len(), 2, "both cards were left behind on some seed: {stolen:?}");
}

#[test]
fn an_asked_action_is_refused_when_nobody_asked() {
    let program = program();
    let (g, _) = Game::new(&program, 2, 3).unwrap();
    let other = g.seat_order()[1];
    assert!(refusal(&g, &format!("steal {other}")).contains("`steal` is taken only when a rule asks for it"));
    assert_eq!(choice_texts(&g), ["dig"]);
}

#[test]
fn a_storm_asks_every_player_in_turn_order_from_the_drawer_and_the_drawer_digs_again() {
    let program = program();
    let (mut g, _) = Game::new(&program, 4, 5).unwrap();
    let order = g.seat_order().to_vec();
    // Two quiet turns, so that the third seat draws the storm.
    for _ in 0..2 {
        on_top(&mut g, "Gem");
        act(&mut g, "dig");
        act(&mut g, "pass");
    }
    let drawer = order[2];
    assert_eq!(g.current(), Some(drawer));
    // Hands of 2, 3, 1 and 2 cards: the one with a single card is not asked.
    for (p, n) in [(order[2], 2), (order[3], 3), (order[0], 1), (order[1], 2)] {
        hand_of(&mut g, p, n);
    }
    on_top(&mut g, "Storm");
    act(&mut g, "dig");
    let expected = [order[2], order[3], order[1]];
    assert_eq!(asked_players(&g), expected);
    for p in expected {
        assert_eq!(g.current(), Some(p));
        let choices = choice_texts(&g);
        assert!(choices.iter().all(|c| c.starts_with("lose_one")), "{choices:?}");
        let before = g.count(zone(&g, "hand", Some(p.index()), None));
        let first = choices[0].clone();
        act(&mut g, &first);
        assert_eq!(g.count(zone(&g, "hand", Some(p.index()), None)), before - 1);
    }
    // Everyone has answered: the drawer's turn again, to dig again.
    assert_eq!(g.current(), Some(drawer));
    assert_eq!(choice_texts(&g), ["dig"]);
}

#[test]
fn bots_answering_an_ask_do_not_see_the_hidden_hands() {
    // The drawer is asked to steal; the two games differ only in which
    // cards the opponents hold (a gem swapped for a big gem between their
    // hidden hands): the drawer's view, choices and bots' picks agree.
    let program = program();
    let (mut a, _) = Game::new(&program, 3, 6).unwrap();
    let order = a.seat_order().to_vec();
    let h1 = zone(&a, "hand", Some(order[1].index()), None);
    let h2 = zone(&a, "hand", Some(order[2].index()), None);
    let (gem, big) = (in_deck(&a, "Gem"), in_deck(&a, "Big gem"));
    a.put(gem, h1, At::Bottom);
    a.put(big, h2, At::Bottom);
    on_top(&mut a, "Thief");
    act(&mut a, "dig");
    let mut b = a.clone();
    b.exchange(gem, big);
    assert_eq!(a.current(), Some(order[0]));
    assert_no_peek(&a, &b, order[0]);
}

#[test]
fn random_games_of_two_to_four_players_end_with_every_card_kept_and_replay() {
    let program = program();
    let n = program.components.len();
    for seed in 0..150u64 {
        let players = 2 + (seed % 3) as usize;
        let (mut g, _) = Game::new(&program, players, seed).unwrap();
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
        let mut history = Vec::new();
        while g.current().is_some() {
            let choices = g.legal().unwrap();
            assert!(!choices.is_empty(), "seed {seed}: stuck");
            let c = choices[rng.gen_range(0..choices.len())].clone();
            g.step(&c).unwrap();
            history.push(c);
            assert_eq!(total_components(&g), n, "seed {seed}");
            assert!(history.len() < 400, "seed {seed}: the game does not end");
        }
        assert!(g.asks().is_empty(), "seed {seed}: the game ended with a question open");
        assert_replays(&program, &g, &history);
    }
}

/// The fixture with one text replaced (which must occur).
fn variant(from: &str, to: &str) -> ruleset::Checked {
    chronoscope_tests::checked_variant(PATH, from, to)
}

#[test]
fn the_checker_refuses_turn_structures_that_cannot_work() {
    let end_turn_without = variant("turns clockwise until end turn", "turns clockwise");
    assert_eq!(
        messages(&end_turn_without),
        [(Code::TurnStructure, "`end turn` needs turns that last until it".to_string())]
    );
    let never_ends = variant("  set me.dug = 0\n  end turn\n", "  set me.dug = 0\n");
    assert_eq!(
        messages(&never_ends),
        [(Code::TurnStructure, "a turn lasts until `end turn`, and nothing runs it".to_string())]
    );
    let not_asked = variant("action steal(victim: player) when asked {", "action steal(victim: player) {");
    assert_eq!(
        messages(&not_asked),
        [(
            Code::TurnStructure,
            "`steal` is an action of its own, not one a player is asked to take".to_string()
        )]
    );
    let unknown = variant("ask me to steal", "ask me to stael");
    assert_eq!(messages(&unknown)[0], (Code::UnknownName, "unknown action `stael`".to_string()));
    assert_eq!(unknown.diagnostics[0].help.as_deref(), Some("did you mean `steal`?"));
    let in_setup = variant("  shuffle players\n}", "  shuffle players\n  end turn\n}");
    assert_eq!(
        messages(&in_setup),
        [(Code::TurnStructure, "`end turn` has no meaning in setup".to_string())]
    );
    let shuffled_from = variant("  shuffle players\n}", "  shuffle players from first(p in players)\n}");
    assert_eq!(
        messages(&shuffled_from),
        [(Code::TypeMismatch, "`shuffle` shuffles the whole player order".to_string())]
    );
    let not_a_player = variant("ask me to steal", "ask 3 to steal");
    assert_eq!(messages(&not_a_player)[0].0, Code::TypeMismatch);
}

#[test]
fn questions_asked_in_setup_are_answered_before_the_first_turn() {
    let text = std::fs::read_to_string(repo_root().join(PATH)).unwrap();
    let from = "  shuffle players\n}";
    // Each player, in turn order from the first seat, is dealt two cards
    // and asked to lose one.
    let to = "  shuffle players\n  for p in players from first(q in players) {\n    draw 2 from deck to p.hand\n    ask p to lose_one\n  }\n}";
    let text = text.replacen(from, to, 1);
    let checked = ruleset::check_source(&text);
    assert!(checked.diagnostics.is_empty(), "{:?}", checked.diagnostics);
    let program = Program::new(checked.ruleset.unwrap());
    let (mut g, _) = Game::new(&program, 3, 9).unwrap();
    let seats: Vec<PlayerId> = (0..3).map(PlayerId::new).collect();
    let order = g.seat_order().to_vec();
    let start = order.iter().position(|p| *p == seats[0]).unwrap();
    let expected: Vec<PlayerId> = (0..3).map(|i| order[(start + i) % 3]).collect();
    assert_eq!(asked_players(&g), expected, "asked in turn order from P1");
    for p in &expected {
        assert_eq!(g.current(), Some(*p));
        let first = choice_texts(&g)[0].clone();
        act(&mut g, &first);
    }
    // Every question answered: the first turn begins.
    assert_eq!(g.current(), Some(order[0]));
    assert_eq!(choice_texts(&g), ["dig"]);
}

#[test]
fn a_zone_shown_with_words_is_called_so_on_the_table_and_in_the_narration_but_not_in_the_log() {
    use chronoscope_cli::play::{log::LogEvent, view};
    let program = program();
    let (mut g, _) = Game::new(&program, 2, 1).unwrap();
    on_top(&mut g, "Thief");
    let me = g.current().unwrap();
    let events = g.apply(&notation::parse(&g, "dig").unwrap()).unwrap();
    let told = view::narrate(&g, Some(me), &events).join("\n");
    assert!(told.contains(&format!("hand of {me} -> the discards: Thief")), "{told}");
    assert!(view::table(&g, me).contains("the discards: Thief"), "{}", view::table(&g, me));
    // The log and the rules keep the zone's name.
    let logged = format!("{:?}", LogEvent::all(&g, &[], &events));
    assert!(logged.contains("\"discard\"") && !logged.contains("the discards"), "{logged}");
}

/// Actions that write the turn bookkeeping (the seat order, an ask,
/// `end turn`), one shuffling the seats with the random generator, the
/// other drawing with it: the copy the game applies its next action on
/// (kept up to date from what the last one wrote) must be the game's in
/// every part, the random generator included. A game played
/// turn after turn plays as copies of it made afresh before each action.
#[test]
fn actions_that_reseat_ask_and_draw_leave_the_next_action_the_games_whole_state() {
    const RULES: &str = r#"
game reseat "Reseat" { players 2..4 }
kind token { value: 1..3 }
cards tokens of token total 12 {
  "Low" x6 { value: 1 }
  "High" x6 { value: 3 }
}
zone bag: bag
zone hand: hand per player
setup {
  move all c in tokens to bag
}
turns clockwise until end turn
action reseat {
  shuffle players
  end turn
}
action pull {
  draw 1 from bag to me.hand
  ask me to give
}
action give(c: in me.hand) when asked {
  move c to bag
  end turn
}
end when count(bag) == 0
score held = sum(c.value for c in me.hand)
"#;
    let checked = ruleset::check_source(RULES);
    assert!(checked.diagnostics.is_empty(), "{:?}", checked.diagnostics);
    let program = Program::new(checked.ruleset.expect("the ruleset checks"));
    let mut reseated = 0;
    for players in 2..=4 {
        for seed in 0..30 {
            let (mut g, _) = Game::new(&program, players, seed).expect("setup");
            let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
            while g.current().is_some() && g.actions_taken() < 60 {
                let choices = g.legal().expect("no rule error");
                let choice = &choices[rng.gen_range(0..choices.len())];
                reseated += (program.actions[choice.action].name == "reseat") as usize;
                let mut fresh = g.clone();
                g.apply(choice).expect("a listed choice applies");
                fresh.apply(choice).expect("a listed choice applies");
                assert_eq!(
                    g.snapshot(),
                    fresh.snapshot(),
                    "{players} players, seed {seed}, after {choice:?}"
                );
            }
        }
    }
    assert!(reseated > 100, "only {reseated} reseats");
}
