//! `play`, `replay` and `explain`: bots and humans, saves, scripts and logs, outputs that fail.

use super::*;

/// A 2-player Thebes game of bots (seed 21) saved into `dir`: the save's
/// path and text.
fn save_a_game(dir: &std::path::Path) -> (std::path::PathBuf, String) {
    let save = dir.join("game.txt");
    let a =
        run(&["play", THEBES, "--players", "2", "--seed", "21", "--quiet", "--save", save.to_str().unwrap()]);
    assert_eq!(a.status.code(), Some(0), "{}", stderr(&a));
    let text = std::fs::read_to_string(&save).unwrap();
    (save, text)
}

#[test]
fn bots_play_a_whole_game_unattended() {
    let out = run_ok(&["play", THEBES, "--players", "3", "--seed", "7", "--quiet"]);
    assert!(out.contains("Final score"), "{out}");
    assert!(out.contains("artifacts"), "{out}");
    assert!(out.contains(" win"), "{out}");
}

#[test]
fn the_same_seed_plays_the_same_game() {
    let a = run(&["play", THEBES, "--players", "4", "--seed", "11"]);
    let b = run(&["play", THEBES, "--players", "4", "--seed", "11"]);
    assert_eq!(a.status.code(), Some(0));
    assert_eq!(stdout(&a), stdout(&b));
    let c = run(&["play", THEBES, "--players", "4", "--seed", "12"]);
    assert_ne!(stdout(&a), stdout(&c));
}

#[test]
fn a_saved_game_replays_from_its_script() {
    let dir = temp("save");
    let save = dir.join("game.txt");
    let a = run(&["play", THEBES, "--players", "2", "--seed", "21", "--save", save.to_str().unwrap()]);
    assert_eq!(a.status.code(), Some(0), "{}", stderr(&a));
    let text = std::fs::read_to_string(&save).unwrap();
    assert!(text.contains("# seed 21") && text.contains("# players 2"), "{text}");
    // No seed, no player count: both come from the script.
    let b = run(&["play", THEBES, "--script", save.to_str().unwrap()]);
    assert_eq!(b.status.code(), Some(0), "{}", stderr(&b));
    assert_eq!(stdout(&a), stdout(&b));
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn a_human_who_stops_is_told_how_to_go_on_and_keeps_the_seat_when_going_on() {
    let dir = temp("stop-and-go-on");
    let save = dir.join("game.txt");
    let s = save.to_str().unwrap();
    let args = ["play", THEBES, "--players", "2", "--seats", "human,random", "--seed", "5", "--save", s];
    let o = run_with_input(&args, "1\nquit\n");
    assert_eq!(o.status.code(), Some(1));
    let out = stdout(&o);
    let hint = format!("go on with `chronoscope play {THEBES} --script {s}`");
    assert!(out.contains(&hint), "{out}");
    // The command of the hint replays the game and asks the human again.
    let o = run_with_input(&["play", THEBES, "--script", s], "quit\n");
    let again = stdout(&o);
    assert!(again.contains("seats: P1 human, P2 random"), "{again}");
    assert!(again.contains("P1> "), "the human is asked again: {again}");
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn a_save_refuses_a_changed_ruleset_and_lines_after_the_end() {
    let dir = temp("save-guards");
    let (save, text) = save_a_game(&dir);
    // Replayed under another ruleset (an edition of it): refused, by hash.
    let es = "rulesets/thebes/editions/es.ruleset";
    let b = run(&["play", es, "--script", save.to_str().unwrap(), "--quiet"]);
    assert_eq!(b.status.code(), Some(1));
    assert!(stderr(&b).contains("was saved with another ruleset"), "{}", stderr(&b));
    // The same game with one line too many: refused, naming the line.
    let longer = dir.join("longer.txt");
    let more =
        text.replace(&format!("# actions {}", text.lines().filter(|l| !l.starts_with('#')).count()), "");
    std::fs::write(&longer, format!("{more}change\n")).unwrap();
    let c = run(&["play", THEBES, "--script", longer.to_str().unwrap(), "--quiet"]);
    assert_eq!(c.status.code(), Some(1));
    assert!(stderr(&c).contains("comes after the end"), "{}", stderr(&c));
    // Cut short: refused before anything is played.
    let cut = dir.join("cut.txt");
    std::fs::write(&cut, &text[..text.len() - 3]).unwrap();
    let d = run(&["play", THEBES, "--script", cut.to_str().unwrap(), "--quiet"]);
    assert_eq!(d.status.code(), Some(1));
    assert!(stderr(&d).contains("cut short"), "{}", stderr(&d));
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn a_bad_line_in_a_script_that_is_also_the_save_leaves_the_save_whole() {
    let dir = temp("save-same");
    let (save, whole) = save_a_game(&dir);
    // Break a line in the middle of the save, then replay it onto itself.
    let lines: Vec<&str> = whole.lines().collect();
    let middle = lines.len() - 10;
    let mut broken: Vec<String> = lines.iter().map(|l| l.to_string()).collect();
    broken[middle] = "fly to the moon".into();
    let broken = broken.join("\n") + "\n";
    std::fs::write(&save, &broken).unwrap();
    let b = run(&[
        "play",
        THEBES,
        "--script",
        save.to_str().unwrap(),
        "--save",
        save.to_str().unwrap(),
        "--quiet",
    ]);
    assert_eq!(b.status.code(), Some(1));
    assert!(stderr(&b).contains("fly to the moon"), "{}", stderr(&b));
    assert_eq!(std::fs::read_to_string(&save).unwrap(), broken, "the save is not cut");
    // No half-written file is left beside it.
    let others: Vec<_> = std::fs::read_dir(&dir).unwrap().flatten().filter(|e| e.path() != save).collect();
    assert!(others.is_empty(), "{others:?}");
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn a_rule_error_that_leaves_a_player_without_choices_is_shown_with_its_line() {
    let dir = temp("stuck");
    let file = dir.join("stuck.ruleset");
    std::fs::write(
        &file,
        "game s \"Stuck\" { players 2..2 }\ntable steps[n: 1..3] = [1, 2, 3]\ncounter time per player = 0\n\
         turns by lowest time\naction walk(k: 4..5) {\n  require steps[k] > 0\n  advance me.time by 1\n}\n\
         end when all(p in players where p.time >= 3)\nscore s = me.time\n",
    )
    .unwrap();
    let o = run(&["play", file.to_str().unwrap(), "--quiet"]);
    assert_eq!(o.status.code(), Some(1));
    let err = stderr(&o);
    assert!(err.contains("has no legal action, because the ruleset cannot go on at"), "{err}");
    assert!(err.contains("stuck.ruleset:6: table `steps` has no entry at 4"), "{err}");
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn play_refuses_to_write_its_log_or_save_over_a_file_it_reads() {
    let dir = temp("clobber");
    let (save, whole) = save_a_game(&dir);
    let rules = std::fs::read_to_string(root().join(THEBES)).unwrap();
    // The same file through another spelling of its path still counts.
    let spelled = format!("{}/../{}/game.txt", dir.display(), dir.file_name().unwrap().to_str().unwrap());
    let cases: [&[&str]; 4] = [
        &["--script", save.to_str().unwrap(), "--log", &spelled],
        &["--players", "2", "--log", THEBES],
        &["--players", "2", "--save", THEBES],
        &["--players", "2", "--save", save.to_str().unwrap(), "--log", save.to_str().unwrap()],
    ];
    for case in cases {
        let mut args = vec!["play", THEBES, "--quiet"];
        args.extend_from_slice(case);
        let o = run(&args);
        assert_eq!(o.status.code(), Some(1), "{case:?}");
        assert!(stderr(&o).contains("names the same file as"), "{case:?}: {}", stderr(&o));
        assert_eq!(std::fs::read_to_string(&save).unwrap(), whole, "{case:?} left the save alone");
        assert_eq!(std::fs::read_to_string(root().join(THEBES)).unwrap(), rules, "{case:?}");
    }
    // A save may be the script it replays (it is rewritten only at the end).
    let o = run(&[
        "play",
        THEBES,
        "--quiet",
        "--script",
        save.to_str().unwrap(),
        "--save",
        save.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(std::fs::read_to_string(&save).unwrap(), whole);
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
#[cfg(target_os = "linux")]
fn a_script_that_never_ends_or_is_not_text_is_refused_with_its_size_or_byte() {
    // `/dev/zero` reads for ever: read only as far as a script may be long.
    let o = run(&["play", THEBES, "--quiet", "--script", "/dev/zero"]);
    assert_eq!(o.status.code(), Some(1));
    assert!(stderr(&o).contains("script `/dev/zero` is larger than 64 MiB"), "{}", stderr(&o));
    let dir = temp("binary-script");
    let bad = dir.join("bad.txt");
    std::fs::write(&bad, b"# seed 3\nchange\xff\n").unwrap();
    let o = run(&["play", THEBES, "--quiet", "--script", bad.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(1));
    assert!(stderr(&o).contains("is not UTF-8 text (byte 15 is not)"), "{}", stderr(&o));
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
#[cfg(target_os = "linux")]
fn output_that_cannot_be_written_is_a_failure_not_a_success() {
    // stdout on a full device: an error on stderr and status 1.
    let o = run_into(&["show", THEBES], Some("/dev/full"), None);
    assert_eq!(o.status.code(), Some(1));
    assert!(stderr(&o).contains("cannot write the output"), "{}", stderr(&o));
    let o = run_into(&["play", THEBES, "--players", "2", "--seed", "1"], Some("/dev/full"), None);
    assert_eq!(o.status.code(), Some(1));
    // stderr on a full device: no panic, and the status says it failed.
    let o = run_into(&["check", THEBES], None, Some("/dev/full"));
    assert_eq!(o.status.code(), Some(1));
}

#[test]
fn a_reader_that_goes_away_ends_the_program_with_the_closed_pipe_status() {
    use std::process::Stdio;
    let mut child = Command::new(env!("CARGO_BIN_EXE_chronoscope"))
        .args(["play", THEBES, "--players", "4", "--seed", "3"])
        .current_dir(root())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary runs");
    drop(child.stdout.take());
    let status = child.wait().expect("it ends");
    assert_eq!(status.code(), Some(141));
}

#[test]
fn a_script_with_an_illegal_line_stops_with_its_line_number() {
    let dir = temp("script");
    let script = dir.join("bad.txt");
    std::fs::write(&script, "# seed 3\n# players 2\nchange\nfly to the moon\n").unwrap();
    let o = run(&["play", THEBES, "--script", script.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(1));
    assert!(stderr(&o).contains("script line 4: `fly to the moon`: no action `fly`"), "{}", stderr(&o));
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn the_log_records_every_action_and_the_scores() {
    let dir = temp("log");
    let log = dir.join("game.jsonl");
    let o =
        run(&["play", THEBES, "--players", "2", "--seed", "5", "--quiet", "--log", log.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let lines: Vec<serde_json::Value> = std::fs::read_to_string(&log)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).expect("each line is JSON"))
        .collect();
    assert_eq!(lines[0]["type"], "start");
    assert_eq!(lines[0]["seed"], 5);
    assert_eq!(lines[1]["type"], "setup");
    let end = lines.last().unwrap();
    assert_eq!(end["type"], "end");
    let actions: Vec<&serde_json::Value> = lines.iter().filter(|l| l["type"] == "action").collect();
    assert_eq!(end["actions"], actions.len());
    let dig = actions.iter().find(|a| a["action"] == "dig").expect("somebody digs");
    let site = dig["params"]["s"].as_str().unwrap();
    let from_bag = format!("bag[{site}]");
    let events = dig["events"].as_array().unwrap();
    assert!(events.iter().any(|e| e["event"] == "move" && e["from"] == from_bag.as_str()), "{dig}");
    assert!(events.iter().all(|e| e["line"].as_u64().is_some()), "every event names its ruleset line");
    assert!(dig["before"]["time"].as_i64() < dig["after"]["time"].as_i64());
    assert!(dig["after"]["year"].as_i64().is_some());
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn with_an_edition_every_logged_event_names_the_file_and_line_of_its_rule() {
    let dir = temp("log-edition");
    let log = dir.join("game.jsonl");
    let es = "rulesets/thebes/editions/es.ruleset";
    let o = run(&["play", es, "--players", "2", "--seed", "5", "--quiet", "--log", log.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let mut files = std::collections::BTreeSet::new();
    for line in std::fs::read_to_string(&log).unwrap().lines() {
        let v: serde_json::Value = serde_json::from_str(line).expect("each line is JSON");
        for e in v["events"].as_array().into_iter().flatten() {
            let file = e["file"].as_str().unwrap_or_else(|| panic!("no file: {e}"));
            assert!(e["line"].as_u64().is_some_and(|l| l > 0), "no line: {e}");
            files.insert(file.to_string());
        }
    }
    // The edition's own rules and its base's both made changes; each is named.
    assert!(files.contains("rulesets/thebes/thebes.ruleset"), "{files:?}");
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn a_human_gets_reasons_and_the_same_prompt() {
    let o = run_with_input(
        &["play", THEBES, "--players", "2", "--seats", "human", "--seed", "3"],
        "fly away\ndig Egypt 4\ntake 9\n99\nquit\n",
    );
    let out = stdout(&o);
    assert!(out.contains("no action `fly`; actions are: take, change, dig, exhibit, stop"), "{out}");
    assert!(
        out.contains("not allowed: you need at least 1 point of specialized knowledge for this site"),
        "{out}"
    );
    assert!(out.contains("`9` is not a possible `c`"), "{out}");
    assert!(out.contains("no choice 99; choices run from 1 to"), "{out}");
    assert_eq!(out.matches("P1> ").count(), 5, "{out}");
    assert_eq!(o.status.code(), Some(1), "quitting leaves the game unfinished");
}

#[test]
fn a_human_move_is_played() {
    let o = run_with_input(
        &["play", THEBES, "--players", "2", "--seats", "human,random", "--seed", "3"],
        "2\nquit\n",
    );
    let out = stdout(&o);
    assert!(out.contains("P1 take \"Congress, Moscow\""), "{out}");
}

#[test]
fn play_refuses_bad_seats_and_counts() {
    let o = run(&["play", THEBES, "--seats", "human,wizard"]);
    assert_eq!(o.status.code(), Some(1));
    insta::assert_snapshot!(stderr(&o), @"error: unknown seat `wizard`; seats are: human, random, greedy, mcts");
    let o = run(&["play", THEBES, "--players", "6"]);
    assert_eq!(o.status.code(), Some(1));
    assert!(stderr(&o).contains("Thebes is for 2 to 4 players, not 6"), "{}", stderr(&o));
    // A budget of a billion years a move was accepted and never ended.
    for (cmd, code) in [("play", 1), ("simulate", 2)] {
        let o = run(&[cmd, THEBES, "--seats", "mcts:99999999999999999ms,random", "--seed", "1"]);
        assert_eq!(o.status.code(), Some(code), "{cmd}");
        assert_eq!(
            stderr(&o).trim(),
            "error: `mcts:99999999999999999ms`: an mcts budget is `mcts:N` iterations (1 to 10000000), \
             `mcts:Nms` or `mcts:Ns` (1 ms to 3600 s)",
            "{cmd}"
        );
    }
}

#[test]
fn replay_shows_the_table_after_action_n_from_a_save_or_a_log_as_a_seat_or_an_onlooker() {
    let dir = temp("replay");
    let (save, log) = (dir.join("game.txt"), dir.join("game.jsonl"));
    let archaeology = "rulesets/archaeology/archaeology.ruleset";
    let a = run(&[
        "play",
        archaeology,
        "--players",
        "3",
        "--seed",
        "4",
        "--quiet",
        "--save",
        save.to_str().unwrap(),
        "--log",
        log.to_str().unwrap(),
    ]);
    assert_eq!(a.status.code(), Some(0), "{}", stderr(&a));
    let as_p2 = run(&["replay", archaeology, save.to_str().unwrap(), "--to", "9", "--as", "P2"]);
    assert_eq!(as_p2.status.code(), Some(0), "{}", stderr(&as_p2));
    let text = stdout(&as_p2);
    assert!(text.contains("after action 9 of "), "{text}");
    assert!(text.contains("   9. take [Talisman]"), "{text}");
    assert!(text.contains("market -> hand of P2: Talisman"), "{text}");
    assert!(text.contains("yours: hand of P2: Talisman (trade 3) · Broken cup (trade 2)"), "{text}");
    assert!(text.contains("hand of P1 4"), "the others' hands by count: {text}");
    // The log replays to the same table.
    let from_log = run(&["replay", archaeology, log.to_str().unwrap(), "--to", "9", "--as", "P2"]);
    assert_eq!(stdout(&from_log), text);
    // An onlooker sees no hand.
    let onlooker = stdout(&run(&["replay", archaeology, save.to_str().unwrap(), "--to", "9"]));
    assert!(onlooker.contains("as an onlooker sees it") && !onlooker.contains("yours:"), "{onlooker}");
    assert!(onlooker.contains("hand of P2 2"), "{onlooker}");
    // Action 0 is the table after setup.
    let setup = stdout(&run(&["replay", archaeology, save.to_str().unwrap(), "--to", "0", "--as", "P1"]));
    assert!(setup.contains("after action 0 of") && setup.contains("market:"), "{setup}");
    // Mistakes: too far, no such seat, another ruleset.
    let far = run(&["replay", archaeology, save.to_str().unwrap(), "--to", "100000"]);
    assert_eq!(far.status.code(), Some(1));
    assert!(stderr(&far).contains("actions, not 100000"), "{}", stderr(&far));
    let seat = run(&["replay", archaeology, save.to_str().unwrap(), "--as", "P9"]);
    assert!(stderr(&seat).contains("a seat from P1 to P3"), "{}", stderr(&seat));
    let other = run(&["replay", THEBES, save.to_str().unwrap()]);
    assert!(stderr(&other).contains("saved with another ruleset"), "{}", stderr(&other));
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn a_human_who_quits_without_a_save_is_offered_one_and_the_hint_resumes_it() {
    let dir = temp("quit-offers-a-save");
    let thebes = root().join(THEBES);
    let thebes = thebes.to_str().unwrap();
    let args = ["play", thebes, "--players", "2", "--seats", "human,random", "--seed", "5"];
    // `quit`, then Enter: yes.
    let o = run_with_input_in(&dir, &args, "1\nquit\n\n");
    let out = stdout(&o);
    assert!(out.contains("keep this game in thebes-seed5.save to go on later? [Y/n]"), "{out}");
    let hint = format!("go on with `chronoscope play {thebes} --script thebes-seed5.save`");
    assert!(out.contains(&hint), "{out}");
    assert!(dir.join("thebes-seed5.save").exists());
    // A second game of the same seed does not overwrite the first: `n` keeps nothing.
    let o = run_with_input_in(&dir, &args, "quit\nn\n");
    assert!(stdout(&o).contains("thebes-seed5-2.save"), "{}", stdout(&o));
    assert!(!dir.join("thebes-seed5-2.save").exists());
    // The hint's command gives the seats back, the human asked again.
    let o = run_with_input_in(&dir, &["play", thebes, "--script", "thebes-seed5.save"], "quit\nn\n");
    let again = stdout(&o);
    assert!(again.contains("seats: P1 human, P2 random") && again.contains("P1> "), "{again}");
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn explain_traces_a_dig_to_the_chronoscope_entry_that_set_how_many_tokens_it_drew_and_the_score_to_its_rules()
{
    let dir = std::env::temp_dir().join(format!("chronoscope-explain-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let save = dir.join("game.save");
    let ruleset = "rulesets/thebes/thebes.ruleset";
    let played =
        run(&["play", ruleset, "--players", "3", "--seed", "7", "--quiet", "--save", save.to_str().unwrap()]);
    assert!(played.status.success(), "{}", stderr(&played));
    let text = std::fs::read_to_string(&save).unwrap();
    let actions: Vec<&str> = text.lines().filter(|l| !l.starts_with('#')).collect();
    let mut digs = 0;
    for (i, action) in actions.iter().enumerate().filter(|(_, a)| a.starts_with("dig ")) {
        let n = (i + 1).to_string();
        let o = run(&["explain", ruleset, save.to_str().unwrap(), "--action", &n]);
        assert!(o.status.success(), "{}", stderr(&o));
        let out = stdout(&o);
        assert!(out.starts_with(&format!("action {n}: ")) && out.contains(action), "{out}");
        // Tokens drawn: the chronoscope entry read plus the shovels (for a
        // dig without a lone shovel, the `shovel_tokens` let read); no bag
        // runs short in this game.
        let read = |name: &str| -> i64 {
            out.lines()
                .rfind(|l| l.contains(name))
                .and_then(|l| l.split(" = ").nth(1))
                .and_then(|v| v.split_whitespace().next())
                .and_then(|v| v.parse().ok())
                .unwrap_or_else(|| panic!("no `{name}` read: {out}"))
        };
        let drawn = out.lines().filter(|l| l.contains("bag[") && l.contains("-> revealed")).count() as i64;
        if !action.contains("lone_shovel") {
            let expected = read(" chronoscope[") + read(" shovel_tokens(");
            assert_eq!(drawn, expected, "{out}");
        }
        assert!(out.contains("thebes.ruleset:"), "{out}");
        digs += 1;
    }
    assert!(digs >= 5, "{digs} digs explained");
    // The score: each rule's line, and the totals the game ended with.
    let score = stdout(&run(&["explain", ruleset, save.to_str().unwrap(), "--score"]));
    assert!(score.contains("final score") && score.contains("site_majority[Greece]"), "{score}");
    assert!(score.contains("(let at :"), "{score}");
    let replayed = stdout(&run(&["play", ruleset, "--script", save.to_str().unwrap()]));
    let totals = replayed.lines().find(|l| l.trim_start().starts_with("total")).unwrap();
    let numbers: Vec<&str> = totals.split_whitespace().skip(1).collect();
    let expected: Vec<String> = numbers.iter().enumerate().map(|(p, v)| format!("P{} {v}", p + 1)).collect();
    assert!(score.contains(&format!("total: {}", expected.join(", "))), "{totals}\n{score}");
    // An action that is not there.
    let none = run(&["explain", ruleset, save.to_str().unwrap(), "--action", "100000"]);
    assert!(
        !none.status.success() && stderr(&none).contains("there is no action 100000"),
        "{}",
        stderr(&none)
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_stuck_player_is_told_which_requirement_blocks_each_action() {
    let dir = temp("blocked");
    let file = dir.join("blocked.ruleset");
    let base = std::fs::read_to_string(root().join("tests/fixtures/valid/mini.ruleset")).unwrap();
    let text = base.replace(
        "action take(c: in deck) {\n",
        "action wait { require me.time > 100 else \"not before week 100\" }\n\
         action take(c: in deck) {\n  require c.weeks >= 3 else \"only trips of 3 weeks or more\"\n",
    );
    std::fs::write(&file, text).unwrap();
    let o = run(&["play", file.to_str().unwrap(), "--seed", "1", "--quiet"]);
    let err = stderr(&o);
    assert!(!o.status.success(), "{err}");
    assert!(err.contains("leaves this player stuck"), "{err}");
    assert!(err.contains("`wait`: not before week 100"), "{err}");
    assert!(err.contains("`take`: only trips of 3 weeks or more (2 of the 2 choices tried)"), "{err}");
    std::fs::remove_dir_all(&dir).unwrap();
}
