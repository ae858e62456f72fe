//! Every ruleset shipped in `rulesets/` checks clean: no errors, no warnings.

use chronoscope_tests::{render_all, repo_root, ruleset_files};

fn check_path(path: &std::path::Path) -> ruleset::Checked {
    ruleset::check_file(&path.display().to_string(), &mut |p| std::fs::read(p).map_err(|e| e.to_string()))
}

#[test]
fn every_bundled_ruleset_checks_clean() {
    let files = ruleset_files(&repo_root().join("rulesets"));
    assert!(files.len() >= 9, "Thebes, three editions and five house rules");
    for path in files {
        let checked = check_path(&path);
        assert!(checked.diagnostics.is_empty(), "{}:\n{}", path.display(), render_all(&checked));
        assert!(checked.ruleset.is_some());
    }
}

#[test]
fn each_edition_and_house_rule_changes_what_it_says_and_only_that() {
    let root = repo_root().join("rulesets/thebes");
    let base = check_path(&root.join("thebes.ruleset")).ruleset.unwrap();
    let option = |r: &ruleset::Ruleset, name: &str| r.option_named(name).unwrap().value.clone();
    use model::Value;
    let ru = check_path(&root.join("editions/ru.ruleset")).ruleset.unwrap();
    assert_eq!(option(&ru, "permits_refresh_at_once"), Value::Bool(true));
    assert_eq!(option(&base, "permits_refresh_at_once"), Value::Bool(false));
    let fr = check_path(&root.join("editions/fr.ruleset")).ruleset.unwrap();
    assert_eq!(option(&fr, "two_player_piles"), Value::Int(2));
    let es = check_path(&root.join("editions/es.ruleset")).ruleset.unwrap();
    assert_eq!(option(&es, "blanks_per_bag"), Value::Int(16), "the misprint is documented, not played");
    let nz = check_path(&root.join("house/no-zeppelins.ruleset")).ruleset.unwrap();
    let count = |r: &ruleset::Ruleset, tag: &str| {
        let t = r.tag_named(tag).unwrap();
        r.components.iter().filter(|c| c.tags.contains(&t)).count()
    };
    assert_eq!((count(&base, "zeppelin"), count(&base, "car")), (2, 2));
    assert_eq!((count(&nz, "zeppelin"), count(&nz, "car")), (0, 4));
    assert_eq!(nz.groups.iter().find(|g| g.name == "research_cards").unwrap().components.len(), 85);
    let kind_checked = check_path(&root.join("house/kind-chronoscope.ruleset"));
    let kind = kind_checked.ruleset.unwrap();
    let chrono = |r: &ruleset::Ruleset, k: i64, w: i64| {
        r.tables.iter().find(|t| t.name == "chronoscope").unwrap().get(&[k, w])
    };
    assert_eq!((chrono(&base, 1, 4), chrono(&kind, 1, 4)), (Some(0), Some(1)));
    assert_eq!((chrono(&base, 3, 2), chrono(&kind, 3, 2)), (Some(0), Some(1)));
    assert_eq!(chrono(&kind, 8, 4), Some(5), "rows it does not name stay");
    assert_eq!(kind_checked.origin.files.len(), 2);
    assert!(kind_checked
        .origin
        .changes
        .iter()
        .any(|c| c.item == "table chronoscope row 1" && c.span.file == 0));
}

fn thebes() -> ruleset::Ruleset {
    check_path(&repo_root().join("rulesets/thebes/thebes.ruleset")).ruleset.expect("Thebes checks clean")
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
    let attr = |name: &str| r.attr_named(name).unwrap();
    let (bag, value) = (attr("bag"), attr("value"));
    let artifact = r.tag_named("artifact").unwrap();
    let blank = r.tag_named("blank").unwrap();
    for site in ["Greece", "Crete", "Egypt", "Palestine", "Mesopotamia"] {
        let place = r.place_named(site).unwrap();
        let in_bag: Vec<_> = r
            .components
            .iter()
            .filter(|c| {
                let k = &r.kinds[c.kind];
                k.slot_of(bag).is_some_and(|s| c.values[s] == model::Value::Place(place))
            })
            .collect();
        assert_eq!(in_bag.len(), 31, "{site}: 31 tokens");
        let artifacts: Vec<_> = in_bag.iter().filter(|c| c.tags.contains(&artifact)).collect();
        assert_eq!(artifacts.len(), 13, "{site}: 13 artifacts");
        let sum: i64 = artifacts
            .iter()
            .map(|c| match c.values[r.kinds[c.kind].slot_of(value).unwrap()] {
                model::Value::Int(v) => v,
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
    let d = |a: &str, b: &str| r.distance(r.place_named(a).unwrap(), r.place_named(b).unwrap());
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
    let checked = check_path(&repo_root().join("rulesets/thebes/thebes.ruleset"));
    let rows: Vec<&str> = checked
        .origin
        .provisional()
        .filter(|p| p.item.starts_with("table chronoscope row "))
        .map(|p| p.item.trim_start_matches("table chronoscope row "))
        .collect();
    assert_eq!(rows, ["1", "2", "3", "4", "5", "6", "9", "10", "11", "12"]);
}

#[test]
fn grabrauber_agrees_with_every_known_fact_of_the_card_game() {
    // ref/grabrauber.md 1, 2b, 3, 10, 12: 168 small cards, 5 professors,
    // 4 thieves and 4 grave robbers (one per region), 22 large permits (4 per
    // region and 6 general), the chart cell 4 x 11 = 4, exhibition tiers
    // 9/5/3, the congress table.
    let checked = check_path(&repo_root().join("rulesets/grabrauber/grabrauber.ruleset"));
    let r = checked.ruleset.unwrap();
    let size = |name: &str| r.groups.iter().find(|g| g.name == name).expect(name).components.len();
    let small =
        ["professor_cards", "find_cards", "study_cards", "action_cards", "exhibition_cards", "museum_cards"];
    assert_eq!(small.iter().map(|g| size(g)).sum::<usize>(), 168);
    assert_eq!(size("professor_cards"), 5);
    assert_eq!(size("permit_cards"), 22);
    let tagged = |tag: &str| {
        let t = r.tag_named(tag).unwrap();
        r.components.iter().filter(|c| c.tags.contains(&t)).map(|c| c.name.clone()).collect::<Vec<_>>()
    };
    let regions = ["Mesopotamia", "Egypt", "Greece", "Crete"];
    for (tag, word) in [("thief", "Thief"), ("grave_robber", "Grave robber")] {
        let mut cards = tagged(tag);
        cards.sort();
        let mut want: Vec<String> = regions.iter().map(|g| format!("{word} {g}")).collect();
        want.sort();
        assert_eq!(cards, want);
    }
    let permits = &r.groups.iter().find(|g| g.name == "permit_cards").unwrap().components;
    for g in regions {
        assert_eq!(
            r.components[permits.clone()].iter().filter(|c| c.name == format!("{g} permit")).count(),
            4
        );
    }
    let table = |name: &str| r.tables.iter().find(|t| t.name == name).unwrap();
    assert_eq!(table("chart").get(&[4, 11]), Some(4));
    let congress: Vec<i64> = (1..=7).map(|n| table("congress_points").get(&[n]).unwrap()).collect();
    assert_eq!(congress, vec![1, 3, 6, 10, 15, 21, 28]);
    let kind = r.kinds.iter().find(|k| k.name == "exhibition_card").unwrap();
    let default = |attr: &str| {
        let a = r.attr_named(attr).unwrap();
        kind.slots.iter().find(|s| s.0 == a).unwrap().2.clone()
    };
    use model::Value;
    assert_eq!(
        [default("weeks"), default("weeks_second"), default("weeks_third")],
        [Value::Int(9), Value::Int(5), Value::Int(3)]
    );
    // Each open question of ref 13 that is a rule is a named option.
    for o in [
        "fragments_are_kept",
        "action_cards_cost_on_play",
        "helper_under_cap",
        "greatest_knowledge_capped",
        "end_on_failed_refill",
        "refill_until_green",
    ] {
        assert!(r.option_named(o).is_some(), "{o}");
    }
    // Every reconstructed card is marked provisional.
    let provisional = checked.origin.provisional().count();
    assert!(provisional >= 80, "{provisional} provisional notes");
}

#[test]
fn a_quiet_start_sets_up_the_same_game_as_new() {
    use rand::{Rng, SeedableRng};
    for path in ["rulesets/thebes/thebes.ruleset", "rulesets/grabrauber/grabrauber.ruleset"] {
        let r = chronoscope_tests::scenario::load(path);
        for (players, seed) in [(2, 1u64), (3, 2), (4, 3)] {
            let (mut a, events) = engine::Game::new(&r, players, seed).unwrap();
            let mut b = engine::Game::start(&r, players, seed).unwrap();
            assert!(!events.is_empty(), "{path}: `new` reports the setup");
            let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
            for _ in 0..40 {
                for p in model::PlayerId::all(players) {
                    assert_eq!(a.view(p), b.view(p), "{path}, {players} players, seed {seed}");
                }
                let choices = a.choices();
                assert_eq!(choices, b.choices());
                let Some(c) = choices.get(rng.gen_range(0..choices.len().max(1))) else { break };
                a.step(c).unwrap();
                b.step(c).unwrap();
            }
        }
    }
}
