//! Overrides at the grain of one `by players` case or one named rule, on a
//! small generic ruleset: an edition replaces one case, takes a count out of
//! a case that covers several, adds a case for a count the base never had,
//! or replaces or empties one `rule NAME { ... }` block.

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
    2, 3, 4: { rule set_aside { draw 1 from deck to aside } }
  }
}
turns clockwise
action pass {
  rule pass_draw {
    let n = 1
    draw n from deck to aside
  }
}
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

/// Cards in `zone` (not per player) after setup with `players`.
fn shared(p: &Program, players: usize, zone: &str) -> usize {
    let (g, _) = Game::new(p, players, 1).unwrap();
    let z = p.zones.iter().position(|z| z.name == zone).unwrap();
    g.count(g.layout.zone(model::ZoneId::new(z), None, None))
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

#[test]
fn a_named_rule_runs_in_place_and_an_override_replaces_only_its_statements() {
    let base = program("");
    assert_eq!(shared(&base, 2, "aside"), 1);
    let p = program("override rule set_aside { draw 3 from deck to aside }");
    assert_eq!(shared(&p, 2, "aside"), 3);
    // The deal around it is the base's.
    assert_eq!(dealt(&p, 2), [2, 2]);
    assert_eq!(dealt(&p, 3), [1, 1, 1]);
}

#[test]
fn remove_rule_empties_the_block_and_the_action_still_plays() {
    let p = program("remove rule pass_draw");
    assert_eq!(shared(&p, 2, "aside"), 1);
    let (mut g, _) = Game::new(&p, 2, 1).unwrap();
    let pass = g.choices().into_iter().next().unwrap();
    g.step(&pass).unwrap();
    let aside = g.layout.zone(
        model::ZoneId::new(p.zones.iter().position(|z| z.name == "aside").unwrap()),
        None,
        None,
    );
    assert_eq!(g.count(aside), 1, "the pass draws nothing once its rule is removed");
}

#[test]
fn a_rules_lets_stay_inside_it_and_an_unknown_rule_name_gets_a_suggestion() {
    let c = check("override rule pass_drawing { draw 2 from deck to aside }");
    assert_eq!(codes(&c), ["ruleset::extends::nothing_to_override"]);
    assert_eq!(c.diagnostics[0].message, "the base has no rule `pass_drawing` to override");
    assert!(
        c.diagnostics[0].help.as_deref().unwrap_or("").contains("pass_draw"),
        "{:?}",
        c.diagnostics[0].help
    );
    // `n` is the rule's own: an override that reads it after replacing the
    // rule's statements is told the name is unknown.
    let c = check("override action pass { rule pass_draw { let n = 2 } draw n from deck to aside }");
    assert_eq!(codes(&c), ["ruleset::check::unknown_name"]);
}

#[test]
fn a_rule_name_given_twice_is_an_error_naming_both() {
    let c = check("override action pass { rule set_aside { } }");
    assert_eq!(codes(&c), ["ruleset::check::duplicate_definition"]);
    assert_eq!(c.diagnostics[0].message, "`set_aside` is defined twice");
}

/// Check a house rule of `lines` over the bundled ruleset at `base`
/// (relative to the repository), as `check_file` reads files.
fn house(base: &str, lines: &str) -> ruleset::Checked {
    let root = chronoscope_tests::repo_root();
    let base = root.join(base).display().to_string();
    let text = format!("extends \"{base}\"\n{lines}");
    ruleset::check_file("house.ruleset", &mut |p| match p {
        "house.ruleset" => Ok(text.clone().into_bytes()),
        other => std::fs::read(other).map_err(|e| e.to_string()),
    })
}

fn house_program(base: &str, lines: &str) -> Program {
    let c = house(base, lines);
    let found = codes(&c);
    Program::new(c.ruleset.unwrap_or_else(|| panic!("checks clean: {found:?}")))
}

#[test]
fn archaeology_hands_of_five_is_one_line_overriding_the_named_rule_hands() {
    let p = house_program(
        "rulesets/archaeology/archaeology.ruleset",
        "override rule hands { for p in players { draw 5 from deck to p.hand } }",
    );
    let (g, _) = Game::new(&p, 3, 1).unwrap();
    for seat in 0..3 {
        assert_eq!(g.count(chronoscope_tests::scenario::zone(&g, "hand", Some(seat), None)), 5);
    }
    assert_eq!(
        g.count(chronoscope_tests::scenario::zone(&g, "market", None, None)),
        5,
        "the market is the base's"
    );
}

#[test]
fn thebes_without_first_dig_bonus_is_one_line_and_leaves_the_bags_full() {
    let base = chronoscope_tests::scenario::load("rulesets/thebes/thebes.ruleset");
    let p = house_program("rulesets/thebes/thebes.ruleset", "remove rule first_dig_bonus");
    let (a, _) = Game::new(&base, 3, 5).unwrap();
    let (b, _) = Game::new(&p, 3, 5).unwrap();
    for site in ["Greece", "Crete", "Egypt", "Palestine", "Mesopotamia"] {
        let bonus = |g: &Game| g.count(chronoscope_tests::scenario::zone(g, "bonus", None, Some(site)));
        let bag = |g: &Game| g.count(chronoscope_tests::scenario::zone(g, "bag", None, Some(site)));
        assert_eq!((bonus(&a), bonus(&b)), (1, 0), "{site}");
        assert_eq!(bag(&b), bag(&a) + 1, "{site}");
    }
}

#[test]
fn an_override_of_a_kind_changes_only_the_attributes_it_lists() {
    // One wider range and one card that uses it: the kind's other
    // attributes (city, site, books, tags) stay as the base declares them.
    let lines = "override kind research { weeks: 1..8 shown }\n\
                 override cards research_cards { \"Car, Moscow\" { weeks: 8 } }";
    let p = house_program("rulesets/thebes/thebes.ruleset", lines);
    let base = chronoscope_tests::scenario::load("rulesets/thebes/thebes.ruleset");
    let k = |p: &Program| p.kinds.iter().find(|k| k.name == "research").unwrap().slots.len();
    assert_eq!(k(&p), k(&base));
    // Without the kind's line, the card's 8 weeks are out of its range.
    let c = house(
        "rulesets/thebes/thebes.ruleset",
        "override cards research_cards { \"Car, Moscow\" { weeks: 8 } }",
    );
    assert_eq!(codes(&c), ["ruleset::check::out_of_range"]);
}

#[test]
fn an_editions_game_without_players_or_actions_keeps_the_bases() {
    let p =
        house_program("rulesets/archaeology/archaeology.ruleset", "game arch_h \"Archaeology, house\" { }");
    let base = chronoscope_tests::scenario::load("rulesets/archaeology/archaeology.ruleset");
    assert_eq!(p.game.name, "arch_h");
    assert_eq!((p.game.min_players, p.game.max_players), (base.game.min_players, base.game.max_players));
    assert_eq!(p.game.max_actions, base.game.max_actions);
}
