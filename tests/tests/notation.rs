//! The notation names every choice so that it reads back as the very same
//! choice, copies of one card included: what a save replays.

use engine::{notation, Game, Program};

const RULES: &str = r#"
game twins "Twins" { players 2..2 }
kind card { points: 0..3 = 1 }
cards deck_cards of card total 4 {
  "Twin" x2
  "Other card" x2 { points: 2 }
}
zone display: row slots 4
zone hand: hand per player
counter time per player = 0
setup {
  move all c in deck_cards to display
}
turns by lowest time
action take(c: in display) {
  move c to me.hand
  advance me.time by 1
}
end when count(display) == 0
score points = sum(c.points for c in me.hand)
"#;

fn program() -> Program {
    let checked = ruleset::check_source(RULES);
    assert!(checked.diagnostics.is_empty(), "{:?}", checked.diagnostics);
    Program::new(checked.ruleset.expect("the ruleset checks"))
}

#[test]
fn every_choice_reads_back_as_itself_and_copies_of_a_name_are_told_apart() {
    let program = program();
    let (g, _) = Game::new(&program, 2, 1).expect("setup");
    let choices = g.choices();
    let texts: Vec<String> = choices.iter().map(|c| notation::format(&g, c)).collect();
    assert_eq!(texts, ["take Twin#1", "take Twin#2", "take \"Other card\"#1", "take \"Other card\"#2"]);
    for (c, text) in choices.iter().zip(&texts) {
        assert_eq!(&notation::parse(&g, text).expect(text), c, "{text}");
    }
    // A plain name still means the first copy, and a count past the copies
    // is refused with a reason.
    assert_eq!(notation::parse(&g, "take Twin").unwrap(), choices[0]);
    let err = notation::parse(&g, "take Twin#3").unwrap_err();
    assert!(err.contains("there are 2"), "{err}");
}

#[test]
fn a_game_replayed_from_its_notation_is_the_same_game() {
    let program = program();
    let (mut g, _) = Game::new(&program, 2, 7).expect("setup");
    let mut texts = Vec::new();
    // Always take the last choice: the second copy while there are two.
    while g.current().is_some() {
        let choices = g.choices();
        let c = choices.last().expect("a legal choice").clone();
        texts.push(notation::format(&g, &c));
        g.apply(&c).expect("a legal choice applies");
    }
    let (mut again, _) = Game::new(&program, 2, 7).expect("setup");
    for t in &texts {
        let c = notation::parse(&again, t).expect(t);
        again.apply(&c).expect(t);
    }
    assert_eq!(again.snapshot(), g.snapshot());
}

#[test]
fn the_start_of_a_name_picks_a_copy_of_one_name_and_is_ambiguous_across_names() {
    let checked = ruleset::check_source(&RULES.replace("Other card", "Twine"));
    let program = Program::new(checked.ruleset.expect("the ruleset checks"));
    let (g, _) = Game::new(&program, 2, 1).expect("setup");
    let choices = g.choices();
    // `Twi` starts both names: refused, naming them, not "not a possible c".
    let err = notation::parse(&g, "take Twi").unwrap_err();
    assert_eq!(err, "`Twi` could be Twin or Twine: type more of the name");
    // `Twine` is a whole name; `Twin` too; copies of one name are one choice.
    assert_eq!(notation::parse(&g, "take Twine").unwrap(), choices[2]);
    assert_eq!(notation::parse(&g, "take twin").unwrap(), choices[0]);
}
