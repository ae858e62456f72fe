//! `simulate`: results, threads and shards, comparisons, outputs.

use super::*;

#[test]
fn simulate_averages_scores_at_the_edge_of_the_64_bit_range() {
    // Every score is at the top of the range (the ruleset's arithmetic
    // saturates; its `sum` of i64::MAX, i64::MAX and i64::MIN is exact,
    // i64::MAX - 1; each player's total of two such scores is clamped to
    // i64::MAX): a sum in 64 bits would panic or wrap and give a wrong
    // score, total, mean and median.
    let dir = temp("edge");
    let plot = dir.join("plot.svg");
    let o = run(&[
        "simulate",
        "tests/fixtures/valid/scores_at_the_edge.ruleset",
        "--games",
        "4",
        "--format",
        "json",
        "--plot",
        plot.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let v: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    let top = i64::MAX as f64;
    for seat in v["summary"]["seats"].as_array().unwrap() {
        assert_eq!(seat["mean"].as_f64(), Some(top), "{seat}");
        assert_eq!(seat["median"].as_f64(), Some(top), "{seat}");
        assert_eq!(seat["sd"].as_f64(), Some(0.0), "{seat}");
        assert_eq!(seat["max"].as_i64(), Some(i64::MAX), "{seat}");
    }
    assert_eq!(v["summary"]["rules"][0]["mean_points"][1].as_f64(), Some(top));
    assert_eq!(v["summary"]["rules"][1]["mean_points"][1].as_f64(), Some(top));
    for game in v["records"].as_array().unwrap() {
        assert_eq!(
            game["rules"],
            serde_json::json!([i64::MAX, i64::MAX, i64::MAX - 1, i64::MAX - 1]),
            "{game}"
        );
        assert_eq!(game["totals"], serde_json::json!([i64::MAX, i64::MAX]), "{game}");
    }
    assert!(std::fs::read_to_string(&plot).unwrap().contains("9223372036854775807"));
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn simulate_checks_its_outputs_and_counts_before_playing() {
    let o = run(&["simulate", THEBES, "--games", "5", "--plot", "/no/such/dir/plot.svg"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("cannot write `/no/such/dir/plot.svg`"), "{}", stderr(&o));
    assert!(stdout(&o).is_empty(), "nothing was played: {}", stdout(&o));
    for games in ["18446744073709551615", "50000000"] {
        let o = run(&["simulate", THEBES, "--games", games]);
        assert_eq!(o.status.code(), Some(2), "{games}");
        assert!(stderr(&o).contains("--shard K/N"), "{games}: {}", stderr(&o));
    }
    // A shard of a huge count is a huge count, not none.
    let o = run(&["simulate", THEBES, "--games", "18446744073709551615", "--shard", "2/2"]);
    assert!(stderr(&o).contains("9223372036854775808 games in one run"), "{}", stderr(&o));
}

fn simulate_json(args: &[&str]) -> serde_json::Value {
    let mut all = vec!["simulate", THEBES, "--players", "2", "--format", "json"];
    all.extend_from_slice(args);
    let out = run_ok(&all);
    serde_json::from_str(&out).expect("simulate --format json prints JSON")
}

#[test]
fn simulate_gives_the_same_results_whatever_the_number_of_threads() {
    let one = simulate_json(&["--games", "4", "--seed", "9", "--jobs", "1"]);
    let two = simulate_json(&["--games", "4", "--seed", "9", "--jobs", "2"]);
    assert_eq!(one, two);
    assert_eq!(one["summary"]["games"], 4);
    let seats = one["summary"]["seats"].as_array().unwrap();
    let total: f64 = seats.iter().map(|s| s["win_rate"].as_f64().unwrap()).sum();
    assert!((total - 1.0).abs() < 1e-9, "win rates add up to 1 with ties shared");
}

#[test]
fn simulate_shards_merge_into_the_whole_run() {
    let dir = temp("shards");
    let whole = simulate_json(&["--games", "5", "--seed", "2"]);
    let mut files = Vec::new();
    for k in 1..=2 {
        let part = simulate_json(&["--games", "5", "--seed", "2", "--shard", &format!("{k}/2")]);
        let f = dir.join(format!("part{k}.json"));
        std::fs::write(&f, part.to_string()).unwrap();
        files.push(f.to_str().unwrap().to_string());
    }
    let mut args = vec!["simulate", "merge", "--format", "json"];
    args.extend(files.iter().map(String::as_str));
    let out = run_ok(&args);
    let merged: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(merged["records"], whole["records"]);
    assert_eq!(merged["summary"], whole["summary"]);
    // One shard alone is not the run.
    let o = run(&["simulate", "merge", files[0].as_str()]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("the files hold 2 of the run's 5 games (game 2 is missing)"),
        "{}",
        stderr(&o)
    );
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn simulate_merge_refuses_shards_played_with_different_rules() {
    let dir = temp("shards-changed");
    let file = dir.join("game.ruleset");
    let text = std::fs::read_to_string(root().join(THEBES)).unwrap();
    let mut parts = Vec::new();
    for (k, rules) in
        [(1, text.clone()), (2, text.replace("option car_stacks = no", "option car_stacks = yes"))]
    {
        std::fs::write(&file, rules).unwrap();
        let o = run(&[
            "simulate",
            file.to_str().unwrap(),
            "--games",
            "4",
            "--format",
            "json",
            "--shard",
            &format!("{k}/2"),
        ]);
        assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
        let part = dir.join(format!("part{k}.json"));
        std::fs::write(&part, &o.stdout).unwrap();
        parts.push(part.to_str().unwrap().to_string());
    }
    let o = run(&["simulate", "merge", parts[0].as_str(), parts[1].as_str()]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("was played with another text"), "{}", stderr(&o));
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn simulate_compares_two_rulesets_on_the_same_seeds_and_plots() {
    let dir = temp("compare");
    let plot = dir.join("scores.svg");
    let o = run(&[
        "simulate",
        THEBES,
        "--players",
        "2",
        "--games",
        "3",
        "--compare",
        "rulesets/thebes/house/big-majorities.ruleset",
        "--plot",
        plot.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(out.contains("compared with rulesets/thebes/thebes.ruleset on the same seeds"), "{out}");
    assert!(out.contains("first-player advantage"), "{out}");
    let svg = std::fs::read_to_string(&plot).unwrap();
    assert!(svg.starts_with("<svg") && svg.contains("<polyline"), "{svg}");
    // A title, both axes labelled and ticked, a legend entry per seat and
    // ruleset, the compared ruleset dashed.
    assert!(svg.contains("Final scores: rulesets/thebes/thebes.ruleset and rulesets/thebes/house/big-majorities.ruleset (3 games each, 2 players)"), "{svg}");
    assert!(svg.contains(">final score (from ") && svg.contains(">games</text>"), "{svg}");
    assert!(svg.matches("text-anchor=\"middle\">").count() >= 3, "ticks on the score axis: {svg}");
    assert_eq!(svg.matches("<polyline").count(), 4, "2 seats x 2 rulesets");
    assert_eq!(
        svg.matches("stroke-dasharray").count(),
        4,
        "the compared ruleset's 2 outlines and legend lines"
    );
    assert!(
        svg.contains("P1 random, thebes.ruleset") && svg.contains("P2 random, big-majorities.ruleset"),
        "{svg}"
    );
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn simulate_writes_csv_and_refuses_bad_arguments() {
    let o =
        run(&["simulate", THEBES, "--players", "2", "--games", "2", "--format", "csv", "--seats", "greedy"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(out.starts_with("ruleset,seat,bot,games,win_rate"), "{out}");
    assert!(out.contains(",P1,greedy,2,"), "{out}");
    let o = run(&["simulate", THEBES, "--games", "2", "--shard", "3/2"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("--shard takes K/N"), "{}", stderr(&o));
    let o = run(&["simulate", THEBES, "--seats", "oracle"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("unknown bot `oracle`"), "{}", stderr(&o));
}
