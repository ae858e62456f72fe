//! A checked ruleset can still fail while it runs (a table read outside its
//! range): the action is refused with a sentence naming what went wrong,
//! never Rust's debug output, and the state is untouched.

use engine::{Fail, Game, Program};

/// A small ruleset that must check clean, ready to play.
fn program(text: &str) -> Program {
    let checked = ruleset::check_source(text);
    assert!(checked.diagnostics.is_empty(), "{:?}", checked.diagnostics);
    Program::new(checked.ruleset.expect("the ruleset checks"))
}

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
    let program = program(RULES);
    let (mut g, _) = Game::new(&program, 2, 1).expect("setup");
    let before = g.snapshot();
    let choice = engine::notation::parse(&g, "peek 5").expect("5 is in the parameter's range");
    let Err(Fail::Rule { message, span }) = g.apply(&choice) else { panic!("a rule error") };
    assert_eq!(message, "table `bonus` has no entry at 5 (n 1..3)");
    assert_eq!(&RULES[span.start..span.end], "bonus[k]");
    assert_eq!(g.snapshot(), before, "the refused action changed nothing");
}

/// Numbers written in a ruleset stay within a billion; products reach the
/// ends of the range.
const ARITHMETIC: &str = r#"
game a "Arithmetic at the edges" { players 2..2 }
counter small = 0 - 1000000000 * 1000000000 * 1000000000 - 1
counter quotient = 0
counter remainder = 0
counter negated = 0
counter absolute = 0
counter product = 0
counter floors = 0
counter time per player = 0
turns by lowest time
action compute {
  set quotient = small / (0 - 1)
  set remainder = small % (0 - 1)
  set negated = -small
  set absolute = abs(small)
  set product = small * 2
  set floors = (7 / (0 - 2)) * 1000 + (7 % (0 - 2)) * 100 + ((0 - 7) / 2) * 10 + (0 - 7) % 2
  advance me.time by 1
}
end when all(p in players where p.time >= 1)
score s = me.time
"#;

#[test]
fn arithmetic_saturates_at_the_ends_of_the_number_range_instead_of_panicking() {
    let program = program(ARITHMETIC);
    let (mut g, _) = Game::new(&program, 2, 1).expect("setup");
    let choice = engine::notation::parse(&g, "compute").expect("the action");
    g.apply(&choice).expect("the arithmetic runs");
    let read = |name: &str| g.counter(program.counter_named(name).expect(name), None, None);
    assert_eq!(read("small"), engine::V::Int(i64::MIN));
    assert_eq!(read("quotient"), engine::V::Int(i64::MAX), "MIN / -1 saturates");
    assert_eq!(read("remainder"), engine::V::Int(0), "MIN % -1 is 0");
    assert_eq!(read("negated"), engine::V::Int(i64::MAX), "-MIN saturates");
    assert_eq!(read("absolute"), engine::V::Int(i64::MAX), "abs(MIN) saturates");
    assert_eq!(read("product"), engine::V::Int(i64::MIN), "MIN * 2 saturates");
    // Floor division and its remainder: 7 / -2 = -4 r -1, -7 / 2 = -4 r 1.
    assert_eq!(read("floors"), engine::V::Int(-4000 - 100 - 40 + 1));
}

/// Every choice of the only action reads a table outside its range.
const STUCK: &str = r#"
game s "A broken table" { players 2..2 }
table steps[n: 1..3] = [1, 2, 3]
counter time per player = 0
turns by lowest time
action walk(k: 4..5) {
  require steps[k] > 0 else "no such step"
  advance me.time by 1
}
end when all(p in players where p.time >= 3)
score s = me.time
"#;

#[test]
fn a_rule_error_while_listing_choices_is_reported_instead_of_no_legal_action() {
    let program = program(STUCK);
    let (g, _) = Game::new(&program, 2, 1).expect("setup");
    assert!(g.choices().is_empty());
    let Err(Fail::Rule { message, span }) = g.legal() else { panic!("the rule error") };
    assert_eq!(message, "table `steps` has no entry at 4 (n 1..3)");
    assert_eq!(&STUCK[span.start..span.end], "steps[k]");
}

/// An action that changes nothing lasting: the end never comes.
const ENDLESS: &str = r#"
game e "Endless" { players 2..2  actions 50 }
counter time per player = 0
turns by lowest time
action wait {
  advance me.time by 0
}
end when all(p in players where p.time >= 1)
score s = me.time
"#;

#[test]
fn a_game_that_cannot_end_stops_at_its_action_limit_with_an_error_naming_it() {
    let program = program(ENDLESS);
    let (mut g, _) = Game::new(&program, 2, 1).expect("setup");
    let mut steps = 0;
    while let Ok(choices) = g.legal() {
        g.step(&choices[0]).expect("waiting is legal");
        steps += 1;
        assert!(steps <= 50, "the limit stops the game");
    }
    assert_eq!(steps, 50);
    let Err(Fail::Rule { message, span }) = g.legal() else { panic!("the limit") };
    assert!(
        message.contains("has not ended after 50 actions") && message.contains("`actions 50`"),
        "{message}"
    );
    assert_eq!(&ENDLESS[span.start..span.end], "e");
    assert!(g.choices().is_empty(), "bots see no choice either");
}

/// Each let calls the one before it twice: reading the last is 2^40 calls.
/// The requirement comes after a change, so each choice is tried on a copy
/// of the state, where no let value is remembered between calls.
fn doubling_lets() -> String {
    let mut text = String::from(
        "game d \"Doubling\" { players 2..2 }\ncounter time per player = 0\nturns by lowest time\nlet a0 = me.time + 1\n",
    );
    for i in 1..=40 {
        text.push_str(&format!("let a{i} = a{} + a{}\n", i - 1, i - 1));
    }
    text.push_str("action go {\n  advance me.time by 1\n  require a40 >= 0\n}\n");
    text.push_str("end when all(p in players where p.time >= 3)\nscore s = me.time\n");
    text
}

#[test]
fn a_let_called_again_on_an_unchanged_state_is_worked_out_once() {
    // The same doubling lets, read by a leading requirement: while the
    // search and the start of an action read the state as it is, each let
    // is worked out once, so a40 costs 41 calls, not 2^40.
    let text = doubling_lets().replace(
        "action go {\n  advance me.time by 1\n  require a40 >= 0\n}",
        "action go {\n  require a40 >= 0\n  advance me.time by 1\n}",
    );
    let program = program(&text);
    let (mut g, _) = Game::new(&program, 2, 1).expect("setup");
    let choices = g.legal().expect("listed within the work limit");
    assert_eq!(choices.len(), 1);
    assert!(g.work_done() < 1_000, "{} steps", g.work_done());
    g.step(&choices[0]).expect("applied within the work limit");
    assert!(g.work_done() < 1_000, "{} steps", g.work_done());
}

#[test]
fn rules_that_blow_up_stop_at_the_work_limit_with_a_rule_error() {
    let text = doubling_lets();
    let program = program(&text);
    let (g, _) = Game::new(&program, 2, 1).expect("setup");
    let Err(Fail::Rule { message, .. }) = g.legal() else { panic!("the work limit") };
    assert!(message.contains(&format!("took more than {} steps", engine::MAX_WORK)), "{message}");
    assert!(g.work_done() > engine::MAX_WORK);
}
