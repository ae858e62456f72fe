//! Editions and house rules: `diff`, and what `show`, `check` and `play` make of them.

use super::*;

const EDITIONS: &[&str] = &[
    "editions/es",
    "editions/ru",
    "editions/fr",
    "house/steady-warsaw",
    "house/kind-chronoscope",
    "house/no-zeppelins",
    "house/cars-stack",
    "house/big-majorities",
];

#[test]
fn diff_of_each_edition_and_house_rule_against_its_base() {
    for e in EDITIONS {
        let file = format!("rulesets/thebes/{e}.ruleset");
        let o = run(&["diff", THEBES, &file]);
        assert_eq!(o.status.code(), Some(1), "{e} differs from the base: {}", stderr(&o));
        insta::assert_snapshot!(format!("diff_{}", e.replace('/', "_")), stdout(&o));
    }
}

#[test]
fn diff_of_a_named_rule_override_shows_the_changed_statement_at_both_lines() {
    let o = run(&[
        "diff",
        "rulesets/archaeology/archaeology.ruleset",
        "rulesets/archaeology/house/hands-of-five.ruleset",
    ]);
    assert_eq!(o.status.code(), Some(1));
    insta::assert_snapshot!(stdout(&o));
}

#[test]
fn diff_of_a_ruleset_with_itself_is_empty() {
    let o = run(&["diff", THEBES, THEBES]);
    assert_eq!(o.status.code(), Some(0));
    assert!(stdout(&o).contains("no differences"), "{}", stdout(&o));
}

#[test]
fn diff_json_lists_changes_with_both_sources() {
    let o = run(&["diff", "--format", "json", THEBES, "rulesets/thebes/house/cars-stack.ruleset"]);
    assert_eq!(o.status.code(), Some(1));
    let v: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert_eq!(v["equal"], false);
    let d = &v["differences"][0];
    assert_eq!(d["group"], "options");
    assert_eq!(d["item"], "car_stacks");
    assert_eq!((d["old"].as_str(), d["new"].as_str()), (Some("no"), Some("yes")));
    assert!(d["new_at"].as_str().unwrap().starts_with("rulesets/thebes/house/cars-stack.ruleset:"));
}

#[test]
fn show_says_what_an_edition_changed() {
    let out = run_ok(&["show", "rulesets/thebes/house/no-zeppelins.ruleset", "--players", "2"]);
    assert!(
        out.contains("everything not listed below comes from rulesets/thebes/house/../thebes.ruleset")
            || out.contains("everything not listed below comes from rulesets/thebes/thebes.ruleset"),
        "{out}"
    );
    assert!(out.contains("removed    cards research_cards \"Zeppelin, Rome\""), "{out}");
    assert!(out.contains("added      cards research_cards \"Car, Vienna\""), "{out}");
}

#[test]
fn editions_and_house_rules_play() {
    for e in EDITIONS {
        let file = format!("rulesets/thebes/{e}.ruleset");
        let o = run(&["play", &file, "--players", "2", "--seed", "4", "--quiet"]);
        assert_eq!(o.status.code(), Some(0), "{e}: {}", stderr(&o));
        assert!(stdout(&o).contains("Final score"), "{e}");
    }
}

#[test]
fn check_reports_an_edition_error_in_both_files() {
    let o = run(&["check", "tests/fixtures/extends/case_removal_leaves_deck_short.ruleset"]);
    assert_eq!(o.status.code(), Some(1));
    let err = stderr(&o);
    assert!(err.contains("tests/fixtures/extends/base.ruleset:8:32"), "{err}");
    assert!(err.contains("tests/fixtures/extends/case_removal_leaves_deck_short.ruleset:4:1"), "{err}");
}

#[test]
fn diff_tells_an_overridden_by_players_case_statement_by_statement_with_file_and_line() {
    let o = run(&["diff", THEBES, "rulesets/thebes/house/five-players.ruleset"]);
    let out = stdout(&o);
    assert_eq!(o.status.code(), Some(1), "{out}");
    // The 4-player case moved into the house rule's `4, 5:`.
    assert!(out.contains("- setup: by players 3, 4: split deck into pile1, pile2, pile3\n      rulesets/thebes/thebes.ruleset:337"), "{out}");
    assert!(out.contains("+ setup: by players 4, 5: split deck into pile1, pile2, pile3\n      rulesets/thebes/house/five-players.ruleset:7"), "{out}");
    assert!(out.contains("+ setup: by players 4, 5: set first_year = 1902"), "{out}");
    // Unchanged statements are not listed.
    assert!(!out.contains("shuffle pile2"), "{out}");
    let json =
        stdout(&run(&["diff", THEBES, "rulesets/thebes/house/five-players.ruleset", "--format", "json"]));
    let v: serde_json::Value = serde_json::from_str(&json).unwrap();
    let entries =
        v["differences"].as_array().or_else(|| v["entries"].as_array()).unwrap_or_else(|| panic!("{json}"));
    assert!(entries.iter().any(|e| e["new_at"] == "rulesets/thebes/house/five-players.ruleset:11"), "{json}");
}

#[test]
fn diff_lists_an_added_tag_and_option_with_their_lines() {
    let dir = temp("diff-tags");
    let thebes = dir.join("thebes.ruleset");
    std::fs::copy(root().join(THEBES), &thebes).unwrap();
    let house = dir.join("telegram.ruleset");
    std::fs::write(&house, "extends \"thebes.ruleset\"\ntag telegram\noption telegram_weeks = 1\n").unwrap();
    let o = run(&["diff", thebes.to_str().unwrap(), house.to_str().unwrap()]);
    let out = stdout(&o);
    assert!(out.contains(&format!("tags\n  + tag telegram\n      {}:2", house.display())), "{out}");
    assert!(out.contains(&format!("  + telegram_weeks: 1\n      {}:3", house.display())), "{out}");
    let _ = std::fs::remove_dir_all(dir);
}
