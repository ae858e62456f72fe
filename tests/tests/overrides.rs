//! Overrides at the grain of one `by players` case, on a small generic
//! ruleset: an edition replaces one case, takes a count out of a case that
//! covers several, or adds a case for a count the base never had.

use engine::{Game, Program};
use model::PlayerId;

const BASE: &str = r#"
game deal "Deal" { players 2..4 }
kind card { value: 0..9 }
cards deck_cards of card total 12 { "Coin" x12 { value: 1 } }
zone deck: deck
zone hand: hand per player
zone aside: pile
setup {
  move all c in deck_cards to deck
  by players dealt {
    2: { for p in players { draw 2 from deck to p.hand } }
    3, 4: { for p in players { draw 1 from deck to p.hand } }
  }
  by players aside {
    2, 3, 4: { draw 1 from deck to aside }
  }
}
turns clockwise
action pass { draw 1 from deck to aside }
end when count(deck) == 0
score coins = count(me.hand)
"#;

/// Check `edition` over the base above, as `check_file` reads files.
fn check(edition: &str) -> ruleset::Checked {
    ruleset::check_file("edition.ruleset", &mut |p| match p {
        "edition.ruleset" => Ok(format!("extends \"base.ruleset\"\n{edition}").into_bytes()),
        "base.ruleset" => Ok(BASE.as_bytes().to_vec()),
        other => Err(format!("no file {other}")),
    })
}

fn program(edition: &str) -> Program {
    let checked = check(edition);
    let codes: Vec<&str> = checked.diagnostics.iter().map(|d| d.code.as_str()).collect();
    Program::new(checked.ruleset.unwrap_or_else(|| panic!("checks clean: {codes:?}")))
}

/// Cards in each hand after setup with `players`.
fn dealt(p: &Program, players: usize) -> Vec<usize> {
    let (g, _) = Game::new(p, players, 1).unwrap();
    let hand = p.zones.iter().position(|z| z.name == "hand").unwrap();
    PlayerId::all(players)
        .map(|pl| g.count(g.layout.zone(model::ZoneId::new(hand), Some(pl), None)))
        .collect()
}

fn codes(c: &ruleset::Checked) -> Vec<String> {
    c.diagnostics.iter().map(|d| d.code.as_str().to_string()).collect()
}

#[test]
fn an_override_replaces_the_case_with_the_same_counts_and_leaves_the_others() {
    let p = program("override by players dealt 2: { for p in players { draw 3 from deck to p.hand } }");
    assert_eq!(dealt(&p, 2), [3, 3]);
    assert_eq!(dealt(&p, 3), [1, 1, 1]);
}

#[test]
fn an_override_of_one_count_takes_it_out_of_a_case_that_covers_several() {
    let p = program("override by players dealt 4: { for p in players { draw 2 from deck to p.hand } }");
    assert_eq!(dealt(&p, 3), [1, 1, 1]);
    assert_eq!(dealt(&p, 4), [2, 2, 2, 2]);
}

#[test]
fn a_game_raised_to_five_players_adds_its_case_to_each_by_players() {
    let edition = "game deal5 \"Deal for five\" { players 2..5 }\n\
                   override by players dealt 5: { for p in players { draw 1 from deck to p.hand } }\n\
                   override by players aside 5: { }";
    let p = program(edition);
    assert_eq!(dealt(&p, 5), [1, 1, 1, 1, 1]);
    // Without the second line, the check says where and how to add it.
    let c = check(
        "game deal5 \"Deal for five\" { players 2..5 }\n\
                   override by players dealt 5: { for p in players { draw 1 from deck to p.hand } }",
    );
    assert_eq!(codes(&c), ["ruleset::check::setup_coverage"]);
    let help = c.diagnostics[0].help.clone().unwrap_or_default();
    assert!(help.contains("override by players aside 5: { ... }"), "{help}");
}

#[test]
fn an_override_without_a_name_is_refused_when_the_base_has_several() {
    let c = check("override by players 2: { }");
    assert_eq!(codes(&c), ["ruleset::extends::nothing_to_override"]);
    assert!(
        c.diagnostics[0].message.contains("`dealt` in setup, `aside` in setup"),
        "{}",
        c.diagnostics[0].message
    );
    let c = check("override by players dealing 2: { }");
    assert_eq!(codes(&c), ["ruleset::extends::nothing_to_override"]);
    assert!(c.diagnostics[0].message.contains("no `by players dealing`"), "{}", c.diagnostics[0].message);
}

#[test]
fn thebes_for_five_players_is_a_house_rule_of_two_cases_and_plays_four_as_the_base_does() {
    let five = chronoscope_tests::scenario::load("rulesets/thebes/house/five-players.ruleset");
    let base = chronoscope_tests::scenario::load("rulesets/thebes/thebes.ruleset");
    let (g, _) = Game::new(&five, 5, 2).unwrap();
    assert_eq!(g.players(), 5);
    // Four players: the same setup, card for card.
    let (a, _) = Game::new(&five, 4, 2).unwrap();
    let (b, _) = Game::new(&base, 4, 2).unwrap();
    for (za, zb) in a.layout.zone_insts().zip(b.layout.zone_insts()) {
        assert_eq!(a.cards(za).collect::<Vec<_>>(), b.cards(zb).collect::<Vec<_>>());
    }
}

#[test]
fn a_display_of_five_is_a_one_line_house_rule_because_setup_and_refills_read_the_rows_slots() {
    let five = chronoscope_tests::scenario::load("rulesets/thebes/house/display-of-five.ruleset");
    let (mut g, _) = Game::new(&five, 3, 4).unwrap();
    let display = chronoscope_tests::scenario::zone(&g, "display", None, None);
    assert_eq!(g.count(display), 5);
    // Every take is refilled to five while research cards remain.
    for _ in 0..6 {
        let take = g.choices().into_iter().find(|c| five.actions[c.action].name == "take").unwrap();
        g.step(&take).unwrap();
        assert_eq!(g.count(display), 5);
    }
}
