//! Every ruleset shipped in `rulesets/` checks clean: no errors, no warnings.

use chronoscope_tests::{render, repo_root, ruleset_files};

#[test]
fn every_bundled_ruleset_checks_clean() {
    let files = ruleset_files(&repo_root().join("rulesets"));
    assert!(!files.is_empty(), "rulesets/ holds at least the Thebes ruleset");
    for path in files {
        let source = std::fs::read_to_string(&path).expect("ruleset is readable");
        let checked = ruleset::check_source(&source);
        let name = path.display().to_string();
        assert!(checked.diagnostics.is_empty(), "{name}:\n{}", render(&name, &source, &checked));
    }
}

fn thebes() -> ruleset::Ruleset {
    let source = std::fs::read_to_string(repo_root().join("rulesets/thebes/thebes.ruleset")).unwrap();
    ruleset::check_source(&source).ruleset.expect("Thebes checks clean")
}

#[test]
fn thebes_has_the_components_of_the_queen_edition() {
    let r = thebes();
    let group = |name: &str| r.groups.iter().find(|g| g.name == name).expect(name);
    assert_eq!(group("research_cards").components.len(), 85);
    assert_eq!(group("exhibition_cards").components.len(), 10);
    assert_eq!(group("dig_tokens").components.len(), 155);
    assert_eq!(r.places.len(), 12);
    assert_eq!(r.routes.len(), 18);
    assert_eq!((r.game.min_players, r.game.max_players), (2, 4));
}

#[test]
fn thebes_bags_hold_13_artifacts_summing_to_36_per_site() {
    let r = thebes();
    let attr = |name: &str| r.attr_names.iter().position(|a| a == name).unwrap();
    let (bag, value) = (attr("bag"), attr("value"));
    let artifact = r.tags.iter().position(|t| t == "artifact").unwrap();
    let blank = r.tags.iter().position(|t| t == "blank").unwrap();
    for site in ["Greece", "Crete", "Egypt", "Palestine", "Mesopotamia"] {
        let place = r.place_named(site).unwrap();
        let in_bag: Vec<_> = r
            .components
            .iter()
            .filter(|c| {
                let k = &r.kinds[c.kind];
                k.slot_of(bag).is_some_and(|s| c.values[s] == ruleset::model::Value::Place(place))
            })
            .collect();
        assert_eq!(in_bag.len(), 31, "{site}: 31 tokens");
        let artifacts: Vec<_> = in_bag.iter().filter(|c| c.tags.contains(&artifact)).collect();
        assert_eq!(artifacts.len(), 13, "{site}: 13 artifacts");
        let sum: i64 = artifacts
            .iter()
            .map(|c| match c.values[r.kinds[c.kind].slot_of(value).unwrap()] {
                ruleset::model::Value::Int(v) => v,
                _ => 0,
            })
            .sum();
        assert_eq!(sum, 36, "{site}: artifact values sum to 36");
        assert_eq!(in_bag.iter().filter(|c| c.tags.contains(&blank)).count(), 16, "{site}: 16 blanks");
    }
}

#[test]
fn thebes_board_distances_match_the_reference_table() {
    // ../shared/reference/thebes.md section 4, rows London and Moscow.
    let r = thebes();
    let d = |a: &str, b: &str| r.distances[r.place_named(a).unwrap()][r.place_named(b).unwrap()];
    assert_eq!(d("London", "Warsaw"), Some(2));
    assert_eq!(d("London", "Egypt"), Some(4));
    assert_eq!(d("Moscow", "Palestine"), Some(4));
    assert_eq!(d("Greece", "Paris"), Some(2));
    assert_eq!(d("Rome", "Crete"), Some(1));
}

#[test]
fn thebes_chronoscope_reads_the_rulebook_example() {
    // ES "Utilización del cronoscopio": knowledge 8, 4 weeks -> 5 tokens;
    // knowledge above 12 counts as 12.
    let r = thebes();
    let t = r.tables.iter().find(|t| t.name == "chronoscope").unwrap();
    assert_eq!(t.get(&[8, 4]), Some(5));
    assert_eq!(t.get(&[15, 1]), t.get(&[12, 1]));
    assert_eq!(t.get(&[7, 13]), None, "weeks do not clamp");
    let congress = r.tables.iter().find(|t| t.name == "congress_points").unwrap();
    let points: Vec<i64> = (0..=9).map(|n| congress.get(&[n]).unwrap()).collect();
    assert_eq!(points, [0, 1, 3, 6, 10, 15, 21, 28, 28, 28]);
}

#[test]
fn thebes_marks_the_medium_confidence_chronoscope_rows_provisional() {
    let r = thebes();
    let rows: Vec<&str> = r
        .provisional()
        .filter(|p| p.item.starts_with("table chronoscope row "))
        .map(|p| p.item.trim_start_matches("table chronoscope row "))
        .collect();
    assert_eq!(rows, ["1", "2", "3", "4", "5", "6", "9", "10", "11", "12"]);
}
