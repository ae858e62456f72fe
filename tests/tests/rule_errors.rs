//! A checked ruleset can still fail while it runs (a table read outside its
//! range): the action is refused with a sentence naming what went wrong,
//! never Rust's debug output, and the state is untouched.

use engine::{Fail, Game, Program};

const RULES: &str = r#"
game t "Table reads" { players 2..2 }
table bonus[n: 1..3] = [5, 6, 7]
counter time per player = 0
turns by lowest time
action peek(k: 1..5) {
  advance me.time by bonus[k]
}
end when all(p in players where p.time >= 20)
score time_used = me.time
"#;

#[test]
fn a_table_read_outside_its_range_is_a_rule_error_in_words_that_changes_nothing() {
    let checked = ruleset::check_source(RULES);
    assert!(checked.diagnostics.is_empty(), "{:?}", checked.diagnostics);
    let program = Program::new(checked.ruleset.expect("the ruleset checks"));
    let (mut g, _) = Game::new(&program, 2, 1).expect("setup");
    let before = g.snapshot();
    let choice = engine::notation::parse(&g, "peek 5").expect("5 is in the parameter's range");
    let Err(Fail::Rule { message, span }) = g.apply(&choice) else { panic!("a rule error") };
    assert_eq!(message, "table `bonus` has no entry at 5 (n 1..3)");
    assert_eq!(&RULES[span.start..span.end], "bonus[k]");
    assert_eq!(g.snapshot(), before, "the refused action changed nothing");
}
