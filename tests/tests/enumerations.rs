//! Enumerations (`enum colour red, green, blue`): named values that are not
//! places, as attribute types, parameters, score indexes and table
//! dimensions, on a small generic ruleset:
//! tests/fixtures/valid/enumerations.ruleset.

use chronoscope_tests::repo_root;
use chronoscope_tests::scenario::{self, act, zone};
use engine::{notation, At, Game, Program, V};
use model::PlayerId;
use ruleset::Code;

const PATH: &str = "tests/fixtures/valid/enumerations.ruleset";

fn program() -> Program {
    scenario::load(PATH)
}

fn text() -> String {
    std::fs::read_to_string(repo_root().join(PATH)).unwrap()
}

/// Give the player to move `n` cards called `name` from the deck.
fn give(g: &mut Game, name: &str, n: usize) {
    let me = g.current().unwrap();
    let (deck, hand) = (zone(g, "deck", None, None), zone(g, "hand", Some(me.index()), None));
    for _ in 0..n {
        let c = g.cards(deck).find(|c| g.rules.components[*c].name == name).expect("one left");
        g.put(c, hand, At::Bottom);
    }
}

fn banked(g: &Game, p: PlayerId) -> V {
    scenario::counter(g, "banked", Some(p.index()))
}

#[test]
fn a_table_is_read_by_an_enumeration_value_and_a_number() {
    let program = program();
    for (colour, n, worth) in [("Red", 2, 3), ("Green", 3, 5), ("Blue", 2, 1)] {
        let (mut g, _) = Game::new(&program, 2, 1).unwrap();
        let me = g.current().unwrap();
        give(&mut g, colour, n);
        act(&mut g, &format!("sell {}", colour.to_lowercase()));
        assert_eq!(banked(&g, me), V::Int(worth), "{n} {colour}");
    }
}

#[test]
fn a_one_dimension_table_by_enumeration_limits_a_set() {
    let program = program();
    let (mut g, _) = Game::new(&program, 2, 1).unwrap();
    give(&mut g, "Blue", 3);
    let sell = notation::parse(&g, "sell blue").unwrap();
    assert!(format!("{:?}", g.check(&sell)).contains("a set of that colour is smaller"));
}

#[test]
fn a_parameter_of_an_enumeration_takes_each_value_in_order() {
    let program = program();
    let (mut g, _) = Game::new(&program, 2, 1).unwrap();
    give(&mut g, "Red", 1);
    give(&mut g, "Blue", 1);
    let texts: Vec<String> = g.choices().iter().map(|c| notation::format(&g, c)).collect();
    assert_eq!(texts, ["take", "sell red", "sell blue"]);
}

#[test]
fn a_score_indexed_by_an_enumeration_has_a_row_per_value() {
    let program = program();
    let (g, _) = Game::new(&program, 2, 1).unwrap();
    let rows: Vec<String> = g.scores().unwrap().rows.into_iter().map(|(r, _)| r).collect();
    assert_eq!(rows, ["money", "sold_of[red]", "sold_of[green]", "sold_of[blue]"]);
}

#[test]
fn show_lists_the_enumeration_apart_from_the_board_and_names_table_rows() {
    let loaded = chronoscope_cli::render::load(&repo_root().join(PATH));
    let rules = loaded.checked.ruleset.as_ref().unwrap();
    let out = chronoscope_cli::show::summary(rules, &loaded.checked.origin, &loaded.checked.sources, Some(2));
    assert!(out.contains("Board: 0 places, 0 routes\n  enum colour (3): red, green, blue"), "{out}");
    assert!(out.contains("worth [c colour][n 1..3]"), "{out}");
    assert!(out.contains("       green |  2  4  5"), "{out}");
}

fn messages(from: &str, to: &str) -> Vec<(Code, String)> {
    chronoscope_tests::codes_and_messages(&chronoscope_tests::checked_variant(PATH, from, to))
}

#[test]
fn the_checker_keeps_enumeration_values_off_the_board_and_tables_in_shape() {
    let value_not_place = "`red` is a value of the enumeration `colour`, not a place";
    assert_eq!(
        messages(
            "enum colour red, green, blue",
            "enum colour red, green, blue\nplace city A, B\nroute A - red"
        ),
        [(Code::TypeMismatch, value_not_place.to_string())]
    );
    assert_eq!(
        messages("enum colour red, green, blue", "enum colour red, green, blue\npiece pawn at red"),
        [(Code::TypeMismatch, value_not_place.to_string())]
    );
    assert_eq!(
        messages("enum colour red, green, blue", "enum colour red, green, blue\nplace colour violet"),
        [(
            Code::Duplicate,
            "`colour` is declared as a place class here and as an enumeration before".to_string()
        )]
    );
    let unknown = messages("  blue: [0, 1, 10]", "  bleu: [0, 1, 10]");
    assert_eq!(
        unknown[0],
        (Code::UnknownName, "`bleu` is not a value of the enumeration `colour`".to_string())
    );
    assert_eq!(
        messages("  blue: [0, 1, 10]", "  3: [0, 1, 10]"),
        [(Code::TableShape, "this row is keyed by a number; `c` needs a value's name".to_string())]
    );
    assert_eq!(
        messages("table largest[c: colour]", "table largest[c: deck_cards]"),
        [(Code::UnknownType, "`deck_cards` is not an enumeration".to_string())]
    );
    let wrong_key = messages("worth[k][n]", "worth[n][k]");
    assert!(wrong_key.iter().all(|(c, _)| *c == Code::TypeMismatch) && wrong_key.len() == 2, "{wrong_key:?}");
}

#[test]
fn an_edition_overrides_one_row_of_a_table_by_its_value_name() {
    let base = text();
    let edition = "extends \"base.ruleset\"\noverride table worth {\n  blue: [0, 2, 12]\n}\n";
    let checked = ruleset::check_file("edition.ruleset", &mut |p| match p {
        "edition.ruleset" => Ok(edition.as_bytes().to_vec()),
        "base.ruleset" => Ok(base.as_bytes().to_vec()),
        other => Err(format!("no file {other}")),
    });
    assert!(checked.diagnostics.is_empty(), "{:?}", checked.diagnostics);
    let rules = checked.ruleset.unwrap();
    let worth = rules.tables.iter().find(|t| t.name == "worth").unwrap();
    assert_eq!(worth.values, [1, 3, 6, 2, 4, 5, 0, 2, 12]);
    assert_eq!(
        checked.origin.changes.iter().map(|c| c.item.as_str()).collect::<Vec<_>>(),
        ["table worth row blue"]
    );
}

#[test]
fn diff_names_a_changed_cell_by_its_value_and_sees_a_value_added() {
    let base = ruleset::check_source(&text());
    let diff_with = |edits: &[(&str, &str)]| {
        let mut changed = text();
        for (from, to) in edits {
            assert!(changed.contains(from), "{from}");
            changed = changed.replacen(from, to, 1);
        }
        let other = ruleset::check_source(&changed);
        let (a, b) =
            (base.ruleset.as_ref().unwrap(), other.ruleset.as_ref().expect("the changed text checks"));
        let entries = chronoscope_cli::diff::diff(
            chronoscope_cli::diff::Side::new(a, &base),
            chronoscope_cli::diff::Side::new(b, &other),
        );
        entries.iter().map(|e| e.item.clone()).collect::<Vec<_>>()
    };
    assert_eq!(diff_with(&[("  blue: [0, 1, 10]", "  blue: [0, 2, 10]")]), ["worth[blue][2]"]);
    // A value added to the enumeration changes the shape of both tables:
    // the name alone would hide it.
    let added = diff_with(&[
        ("enum colour red, green, blue\n", "enum colour red, green, blue, violet\n"),
        ("  blue: [0, 1, 10]\n", "  blue: [0, 1, 10]\n  violet: [1, 1, 1]\n"),
        ("= [3, 3, 2]", "= [3, 3, 2, 1]"),
    ]);
    assert_eq!(added, ["enum value violet", "table largest shape", "table worth shape"]);
}
