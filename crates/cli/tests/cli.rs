//! End-to-end: the `chronoscope` binary as a user runs it.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..").canonicalize().expect("repository root")
}

fn run(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_chronoscope"))
        .args(args)
        .current_dir(root())
        .env("NO_COLOR", "1")
        // An empty cache: `--engine auto` finds no compiled rules there.
        .env("CHRONOSCOPE_CACHE", std::env::temp_dir().join("chronoscope-cli-tests-empty-cache"))
        .output()
        .expect("the binary runs")
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

const THEBES: &str = "rulesets/thebes/thebes.ruleset";
const GRABRAUBER: &str = "rulesets/grabrauber/grabrauber.ruleset";

#[test]
fn check_passes_thebes() {
    let o = run(&["check", THEBES]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    insta::assert_snapshot!(stderr(&o), @"rulesets/thebes/thebes.ruleset: ok");
}

#[test]
fn check_fails_on_a_broken_file_and_names_the_code() {
    let o = run(&["check", "tests/fixtures/check/unknown_place_route.ruleset"]);
    assert_eq!(o.status.code(), Some(1));
    let err = stderr(&o);
    assert!(err.contains("ruleset::check::unknown_place"), "{err}");
    assert!(err.contains("did you mean `B`?"), "{err}");
    assert!(err.contains("unknown_place_route.ruleset:5:11"), "{err}");
}

#[test]
fn check_reports_every_file_and_fails_if_any_fails() {
    let o = run(&["check", THEBES, "tests/fixtures/check/total_mismatch.ruleset"]);
    assert_eq!(o.status.code(), Some(1));
    let err = stderr(&o);
    assert!(err.contains("rulesets/thebes/thebes.ruleset: ok"), "{err}");
    assert!(err.contains("total_mismatch.ruleset: 1 error, 0 warnings"), "{err}");
}

#[test]
fn check_json_gives_codes_lines_and_columns() {
    let o = run(&["check", "--format", "json", "tests/fixtures/check/many_errors_at_once.ruleset"]);
    assert_eq!(o.status.code(), Some(1));
    let v: serde_json::Value = serde_json::from_str(&stdout(&o)).expect("valid JSON");
    let file = &v["files"][0];
    assert_eq!(file["ok"], false);
    let diags = file["diagnostics"].as_array().unwrap();
    let codes: Vec<&str> = diags.iter().map(|d| d["code"].as_str().unwrap()).collect();
    assert_eq!(
        codes,
        [
            "ruleset::check::unknown_place",
            "ruleset::check::out_of_range",
            "ruleset::check::unknown_zone_kind",
            "ruleset::check::unknown_tag"
        ]
    );
    assert_eq!(diags[0]["line"], 10);
    assert_eq!(diags[0]["column"], 17);
    assert_eq!(diags[0]["severity"], "error");
    assert_eq!(diags[0]["help"], "declare it with `place CLASS NAME`");
}

#[test]
fn check_json_on_a_clean_file_is_ok() {
    let o = run(&["check", "--format", "json", THEBES]);
    assert_eq!(o.status.code(), Some(0));
    let v: serde_json::Value = serde_json::from_str(&stdout(&o)).expect("valid JSON");
    assert_eq!(v["files"][0]["ok"], true);
    assert_eq!(v["files"][0]["diagnostics"].as_array().unwrap().len(), 0);
}

#[test]
fn check_reports_a_missing_file() {
    let o = run(&["check", "no/such/file.ruleset"]);
    assert_eq!(o.status.code(), Some(1));
    let err = stderr(&o);
    assert!(err.contains("ruleset::io::unreadable"), "{err}");
    assert!(err.contains("no such file"), "{err}");
}

#[test]
fn check_reports_a_directory() {
    let o = run(&["check", "rulesets"]);
    assert_eq!(o.status.code(), Some(1));
    assert!(stderr(&o).contains("ruleset::io::unreadable"), "{}", stderr(&o));
}

#[test]
fn check_refuses_non_utf8_bytes() {
    let dir = std::env::temp_dir().join(format!("chronoscope-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("binary.ruleset");
    std::fs::write(&path, [0x67u8, 0x61, 0xff, 0x00, 0x13]).unwrap();
    let o = run(&["check", path.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(1));
    assert!(stderr(&o).contains("ruleset::io::not_utf8"), "{}", stderr(&o));
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn show_thebes_for_two_players() {
    let o = run(&["show", THEBES, "--players", "2"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    insta::assert_snapshot!("show_thebes_2p", stdout(&o));
}

#[test]
fn show_thebes_for_three_players() {
    let o = run(&["show", THEBES, "--players", "3"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    insta::assert_snapshot!("show_thebes_3p", stdout(&o));
}

#[test]
fn show_thebes_for_four_players() {
    let o = run(&["show", THEBES, "--players", "4"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    insta::assert_snapshot!("show_thebes_4p", stdout(&o));
}

#[test]
fn show_lists_provisional_items_alone() {
    let o = run(&["show", THEBES, "--provisional"]);
    assert_eq!(o.status.code(), Some(0));
    let out = stdout(&o);
    assert!(out.starts_with("\nProvisional: 15\n"), "{out}");
    assert!(out.contains("table chronoscope row 9"), "{out}");
    assert!(!out.contains("table chronoscope row 8"), "{out}");
}

#[test]
fn show_refuses_an_unsupported_player_count() {
    let o = run(&["show", THEBES, "--players", "5"]);
    assert_eq!(o.status.code(), Some(1));
    assert!(stderr(&o).contains("Thebes is for 2 to 4 players, not 5"), "{}", stderr(&o));
}

#[test]
fn show_refuses_a_broken_ruleset() {
    let o = run(&["show", "tests/fixtures/check/total_mismatch.ruleset"]);
    assert_eq!(o.status.code(), Some(1));
    assert!(stderr(&o).contains("cannot show a ruleset with errors"), "{}", stderr(&o));
}

fn run_with_input(args: &[&str], input: &str) -> Output {
    run_with_input_in(&root(), args, input)
}

/// `run_with_input` from another working directory.
fn run_with_input_in(dir: &Path, args: &[&str], input: &str) -> Output {
    use std::io::Write;
    let mut child = Command::new(env!("CARGO_BIN_EXE_chronoscope"))
        .args(args)
        .current_dir(dir)
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("the binary runs");
    child.stdin.take().unwrap().write_all(input.as_bytes()).unwrap();
    child.wait_with_output().unwrap()
}

fn temp(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("chronoscope-cli-{}-{name}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

#[test]
fn bots_play_a_whole_game_unattended() {
    let o = run(&["play", THEBES, "--players", "3", "--seed", "7", "--quiet"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let out = stdout(&o);
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
    let save = dir.join("game.txt");
    let a =
        run(&["play", THEBES, "--players", "2", "--seed", "21", "--quiet", "--save", save.to_str().unwrap()]);
    assert_eq!(a.status.code(), Some(0), "{}", stderr(&a));
    let text = std::fs::read_to_string(&save).unwrap();
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
    let save = dir.join("game.txt");
    let a =
        run(&["play", THEBES, "--players", "2", "--seed", "21", "--quiet", "--save", save.to_str().unwrap()]);
    assert_eq!(a.status.code(), Some(0), "{}", stderr(&a));
    let whole = std::fs::read_to_string(&save).unwrap();
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

/// Run with stdout or stderr sent to a file (a full device, say).
#[cfg(target_os = "linux")]
fn run_into(args: &[&str], stdout_to: Option<&str>, stderr_to: Option<&str>) -> Output {
    let open = |p: &str| std::fs::OpenOptions::new().write(true).open(p).expect("the device opens");
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_chronoscope"));
    cmd.args(args).current_dir(root()).env("NO_COLOR", "1");
    if let Some(p) = stdout_to {
        cmd.stdout(open(p));
    }
    if let Some(p) = stderr_to {
        cmd.stderr(open(p));
    }
    cmd.output().expect("the binary runs")
}

#[test]
fn simulate_averages_scores_at_the_edge_of_the_64_bit_range() {
    // Every score is i64::MAX (the ruleset's arithmetic saturates, its
    // `sum` of two saturated values and each player's total of two such
    // scores too): a sum in 64 bits would panic or wrap and give a wrong
    // total, mean and median.
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
        assert_eq!(game["totals"], serde_json::json!([i64::MAX, i64::MAX]), "{game}");
    }
    assert!(std::fs::read_to_string(&plot).unwrap().contains("9223372036854775807"));
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn play_refuses_to_write_its_log_or_save_over_a_file_it_reads() {
    let dir = temp("clobber");
    let save = dir.join("game.txt");
    let a =
        run(&["play", THEBES, "--players", "2", "--seed", "21", "--quiet", "--save", save.to_str().unwrap()]);
    assert_eq!(a.status.code(), Some(0), "{}", stderr(&a));
    let whole = std::fs::read_to_string(&save).unwrap();
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

#[test]
#[cfg(target_os = "linux")]
fn a_ruleset_that_is_a_pipe_or_a_device_is_refused_without_waiting() {
    let dir = temp("fifo");
    let fifo = dir.join("base.ruleset");
    let made = Command::new("mkfifo").arg(&fifo).status().expect("mkfifo runs");
    assert!(made.success());
    let edition = dir.join("edition.ruleset");
    std::fs::write(&edition, "extends \"base.ruleset\"\n").unwrap();
    // Opening the pipe would wait for a writer for ever: bound the wait.
    let mut child = Command::new(env!("CARGO_BIN_EXE_chronoscope"))
        .args(["check", edition.to_str().unwrap()])
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("the binary runs");
    let started = std::time::Instant::now();
    while child.try_wait().expect("it runs").is_none() {
        if started.elapsed() > std::time::Duration::from_secs(20) {
            let _ = child.kill();
            panic!("check waited on the pipe");
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    let o = child.wait_with_output().expect("it ended");
    assert!(stderr(&o).contains("it is not a regular file"), "{}", stderr(&o));
    let o = run(&["check", "/dev/zero"]);
    assert_eq!(o.status.code(), Some(1));
    assert!(stderr(&o).contains("it is not a regular file"), "{}", stderr(&o));
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn thousands_of_diagnostics_are_counted_after_the_first_hundred() {
    let dir = temp("many");
    let file = dir.join("many.ruleset");
    let base = std::fs::read_to_string(root().join("tests/fixtures/valid/mini.ruleset")).unwrap();
    let options: String = (0..20_000).map(|i| format!("option o{i} = {i}\n")).collect();
    std::fs::write(&file, format!("{base}{options}")).unwrap();
    let o = run(&["check", file.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(0), "warnings only");
    let err = stderr(&o);
    assert_eq!(err.matches("ruleset::check::unused").count(), 100, "the first hundred in full");
    assert!(
        err.contains("... and 19900 more (0 errors, 19900 warnings) not shown"),
        "{}",
        &err[err.len() - 300..]
    );
    let json = run(&["check", "--format", "json", file.to_str().unwrap()]);
    let v: serde_json::Value = serde_json::from_slice(&json.stdout).expect("JSON");
    let diags = v["files"][0]["diagnostics"].as_array().expect("diagnostics");
    assert_eq!(diags.len(), 20_000, "JSON lists them all");
    assert_eq!(diags[19_999]["line"], base.lines().count() + 20_000, "lines counted from an index");
    let _ = std::fs::remove_dir_all(dir);
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
    let o = run(&["show", "rulesets/thebes/house/no-zeppelins.ruleset", "--players", "2"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let out = stdout(&o);
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

fn simulate_json(args: &[&str]) -> serde_json::Value {
    let mut all = vec!["simulate", THEBES, "--players", "2", "--format", "json"];
    all.extend_from_slice(args);
    let o = run(&all);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    serde_json::from_str(&stdout(&o)).expect("simulate --format json prints JSON")
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
    let o = run(&args);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let merged: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
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

// ------------------------------------------------------------ Die Grabräuber

#[test]
fn show_grabrauber_for_four_players() {
    let o = run(&["show", GRABRAUBER, "--players", "4"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    insta::assert_snapshot!("show_grabrauber_4p", stdout(&o));
}

#[test]
fn grabrauber_plays_to_the_end_with_every_bot_and_player_count() {
    for (players, seats) in
        [("2", "greedy,random"), ("3", "random,mcts:20,greedy"), ("4", "random,random,random,greedy")]
    {
        let o = run(&["play", GRABRAUBER, "--players", players, "--seats", seats, "--seed", "5", "--quiet"]);
        assert_eq!(o.status.code(), Some(0), "{players}p: {}", stderr(&o));
        let out = stdout(&o);
        assert!(out.contains("Final score") && out.contains("find_points") && out.contains(" win"), "{out}");
    }
}

#[test]
fn grabrauber_replays_a_saved_game_and_tells_a_human_what_a_scholar_shows() {
    let dir = temp("grabrauber");
    let save = dir.join("game.txt");
    let a = run(&[
        "play",
        GRABRAUBER,
        "--players",
        "2",
        "--seats",
        "random,random",
        "--seed",
        "1",
        "--save",
        save.to_str().unwrap(),
    ]);
    assert_eq!(a.status.code(), Some(0), "{}", stderr(&a));
    // The same moves with P1 at the terminal: the scholar's stack is shown
    // to P1 only (P2's look at Crete is not printed).
    let b = run(&["play", GRABRAUBER, "--seats", "human,random", "--script", save.to_str().unwrap()]);
    assert_eq!(b.status.code(), Some(0), "{}", stderr(&b));
    let out = stdout(&b);
    assert!(out.contains("P1 look Scholar Mesopotamia"), "{out}");
    assert!(out.contains("      you see in stack[Mesopotamia]: "), "{out}");
    assert!(out.contains("P2 look Scholar Crete"), "{out}");
    assert!(!out.contains("you see in stack[Crete]"), "{out}");
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn a_human_plays_grabrauber_with_typed_moves() {
    let o = run_with_input(
        &["play", GRABRAUBER, "--players", "2", "--seats", "human,random", "--seed", "4"],
        "dig Egypt 12\nmuseum\n1\nquit\n",
    );
    let out = stdout(&o);
    assert!(
        out.contains("not allowed: you need at least 1 point of specialized knowledge for this region"),
        "{out}"
    );
    assert!(out.contains("P1 take "), "{out}");
    assert_eq!(o.status.code(), Some(1), "quitting leaves the game unfinished");
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
fn diff_tells_an_overridden_by_players_case_statement_by_statement_with_file_and_line() {
    let o = run(&["diff", THEBES, "rulesets/thebes/house/five-players.ruleset"]);
    let out = stdout(&o);
    assert_eq!(o.status.code(), Some(1), "{out}");
    // The 4-player case moved into the house rule's `4, 5:`.
    assert!(out.contains("- setup: by players 3, 4: split deck into pile1, pile2, pile3\n      rulesets/thebes/thebes.ruleset:322"), "{out}");
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

const AKROTIRI: &str = "rulesets/akrotiri/akrotiri.ruleset";

#[test]
fn akrotiri_checks_and_show_draws_its_starting_board_as_a_map() {
    let o = run(&["check", AKROTIRI]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let o = run(&["show", AKROTIRI]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let out = stdout(&o);
    // The grids by their size, not their 845 places one by one.
    assert!(out.contains("cell (169): a grid of 13 x 13, cell_0_0 .. cell_12_12"), "{out}");
    assert!(!out.contains("cell_5_5,"), "{out}");
    // Thera at cell (6, 6); the boats on two of its docks.
    let start = out.split("the starting board").nth(1).expect("a starting board");
    assert!(start.contains("cell map (x across, y down):"), "{start}");
    assert!(start.contains("6 │ Thera"), "{start}");
    // Short names on the map (b1: P1's boat), in full in the legend.
    assert!(start.contains("12 │ b1 │ ·"), "{start}");
    assert!(start.contains("13 │ ·  │ b2"), "{start}");
    assert!(start.contains("(b boat)"), "{start}");
}

#[test]
fn akrotiri_plays_with_bots_and_the_table_draws_the_grid_with_coordinates() {
    let o = run(&["play", AKROTIRI, "--seed", "5"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(out.contains("Final score"), "{out}");
    // A human seat sees the maps on its turns.
    let o = run_with_input(&["play", AKROTIRI, "--seed", "5", "--seats", "human"], "1\n1\nquit\nn\n");
    let out = stdout(&o);
    assert!(out.contains("cell map (x across, y down):"), "{out}");
    assert!(out.contains("quad map (x across, y down):"), "{out}");
    assert!(out.contains("b1"), "{out}");
}

#[test]
fn akrotiri_simulates_and_diffs_against_a_house_rule() {
    let o = run(&["simulate", AKROTIRI, "--games", "4", "--seed", "3"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(stdout(&o).contains("4 games, 2 players"), "{}", stdout(&o));
    let dir = temp("akrotiri-house");
    let house = dir.join("open_thera.ruleset");
    let base = root().join(AKROTIRI);
    std::fs::write(
        &house,
        format!("extends \"{}\"\noverride option thera_island_closed = no\n", base.display()),
    )
    .unwrap();
    let o = run(&["diff", AKROTIRI, house.to_str().unwrap()]);
    // As diff(1): 1 when the files differ.
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    assert!(stdout(&o).contains("thera_island_closed"), "{}", stdout(&o));
}

/// A command with `--engine compiled`, this cache folder and these extra
/// environment variables.
fn run_compiled(args: &[&str], cache: &Path, env: &[(&str, &str)]) -> Output {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_chronoscope"));
    cmd.args(args).arg("--engine").arg("compiled").current_dir(root()).env("NO_COLOR", "1");
    // The worker is built unoptimised: half the build time (68 s against
    // 144 s on two cores), the same games.
    cmd.env("CHRONOSCOPE_CACHE", cache).env("CARGO_PROFILE_RELEASE_OPT_LEVEL", "0");
    for (k, v) in env {
        cmd.env(k, v);
    }
    cmd.output().expect("the binary runs")
}

fn fresh_cache(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("chronoscope-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

/// The first compiled run builds a worker (cargo, about a minute on two
/// cores unoptimised, most of it chronoscope's dependencies);
/// the second starts it from the cache, and so does `play`; all give
/// exactly the results of the interpreter, bots' choices included.
#[test]
fn compiled_builds_a_worker_once_and_simulate_and_play_give_the_interpreters_games() {
    let cache = fresh_cache("compiled");
    let args = [
        "simulate",
        THEBES,
        "--games",
        "4",
        "--players",
        "3",
        "--seats",
        "greedy,mcts:10",
        "--format",
        "json",
    ];
    let interpreted = run(&args);
    assert!(interpreted.status.success(), "{}", stderr(&interpreted));
    let first = run_compiled(&args, &cache, &[]);
    assert!(first.status.success(), "{}", stderr(&first));
    assert!(stderr(&first).contains("compiling the rules of Thebes"), "{}", stderr(&first));
    assert!(!stderr(&first).contains("interpreter plays instead"), "{}", stderr(&first));
    assert_eq!(stdout(&first), stdout(&interpreted));
    let second = run_compiled(&args, &cache, &[]);
    assert!(second.status.success(), "{}", stderr(&second));
    assert!(!stderr(&second).contains("compiling"), "the cached worker is used: {}", stderr(&second));
    assert_eq!(stdout(&second), stdout(&interpreted));
    // `play` runs in the same worker: the same game, bots' choices included.
    let play = ["play", THEBES, "--players", "3", "--seats", "greedy,mcts:10", "--seed", "7", "--quiet"];
    let played = run_compiled(&play, &cache, &[]);
    assert!(played.status.success(), "{}", stderr(&played));
    assert!(!stderr(&played).contains("compiling"), "{}", stderr(&played));
    assert_eq!(stdout(&played), stdout(&run(&play)));
    let _ = std::fs::remove_dir_all(&cache);
}

/// Without cargo the compiled rules cannot be built: one line says so and
/// the interpreter plays the same games.
#[test]
fn simulate_compiled_without_cargo_says_so_and_the_interpreter_plays() {
    let cache = fresh_cache("no-cargo");
    let args = ["simulate", GRABRAUBER, "--games", "5", "--format", "json"];
    let o = run_compiled(&args, &cache, &[("CARGO", "/no/such/cargo")]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stderr(&o).contains("cannot run cargo"), "{}", stderr(&o));
    assert!(stderr(&o).contains("the interpreter plays instead"), "{}", stderr(&o));
    assert_eq!(stdout(&o), stdout(&run(&args)));
    let _ = std::fs::remove_dir_all(&cache);
}

/// A stand-in for cargo that "builds" a worker in an instant: a script
/// that prints its command line, so a test sees which command ran where.
#[cfg(unix)]
fn fake_cargo(dir: &Path) -> PathBuf {
    use std::os::unix::fs::PermissionsExt;
    let cargo = dir.join("fake-cargo");
    std::fs::create_dir_all(dir).unwrap();
    std::fs::write(
        &cargo,
        "#!/bin/sh\n\
         # As cargo build --manifest-path DIR/Cargo.toml: a program named after DIR.\n\
         while [ $# -gt 0 ]; do [ \"$1\" = --manifest-path ] && manifest=\"$2\"; shift; done\n\
         name=$(basename \"$(dirname \"$manifest\")\")\n\
         mkdir -p \"$CARGO_TARGET_DIR/release\"\n\
         printf '#!/bin/sh\\necho \"worker ran: $*\"\\n' > \"$CARGO_TARGET_DIR/release/$name\"\n\
         chmod +x \"$CARGO_TARGET_DIR/release/$name\"\n",
    )
    .unwrap();
    std::fs::set_permissions(&cargo, std::fs::Permissions::from_mode(0o755)).unwrap();
    cargo
}

/// A fresh folder named for `name` with a stand-in cargo in it: the
/// folder, the stand-in, and the cache folder to give the command.
#[cfg(unix)]
fn with_fake_cargo(name: &str) -> (PathBuf, PathBuf, PathBuf) {
    let dir = fresh_cache(name);
    let cargo = fake_cargo(&dir.join("bin"));
    let cache = dir.join("workers");
    (dir, cargo, cache)
}

/// The command with `cache` as its cache, `cargo` as cargo and `env` set.
#[cfg(unix)]
fn with_cargo(args: &[&str], cache: &Path, cargo: &Path, env: &[(&str, &str)]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_chronoscope"))
        .args(args)
        .current_dir(root())
        .env("NO_COLOR", "1")
        .env("CHRONOSCOPE_CACHE", cache)
        .env("CARGO", cargo)
        .envs(env.iter().copied())
        .output()
        .expect("the binary runs")
}

/// `--engine auto` (the default) builds nothing for a short run: with an
/// empty cache the interpreter plays, even with cargo at hand; once
/// `--engine compiled` has put the worker in the cache, `auto` runs
/// `simulate` and `play` in it. The worker here is a stand-in that says
/// it ran.
#[cfg(unix)]
#[test]
fn engine_auto_uses_a_worker_already_in_the_cache_and_builds_none_for_a_short_run() {
    let (cache, cargo, cache_s) = with_fake_cargo("auto");
    let with = |args: &[&str]| with_cargo(args, &cache_s, &cargo, &[]);
    let sim = ["simulate", GRABRAUBER, "--games", "3", "--format", "json"];
    let before = with(&sim);
    assert!(before.status.success(), "{}", stderr(&before));
    assert_eq!(stdout(&before), stdout(&run(&sim)), "the interpreter played");
    assert!(!stderr(&before).contains("compiling"), "{}", stderr(&before));
    assert!(!cache_s.join("rules").exists(), "auto built nothing");

    let built = with(&[&sim[..], &["--engine", "compiled"]].concat());
    assert!(built.status.success(), "{}", stderr(&built));
    assert!(stdout(&built).starts_with("worker ran: simulate"), "{}", stdout(&built));

    let after = with(&sim);
    assert!(after.status.success(), "{}", stderr(&after));
    assert!(!stderr(&after).contains("compiling"), "{}", stderr(&after));
    assert!(stdout(&after).starts_with("worker ran: simulate"), "{}", stdout(&after));
    let play = with(&["play", GRABRAUBER, "--players", "2", "--seed", "1", "--quiet"]);
    assert!(play.status.success(), "{}", stderr(&play));
    assert!(stdout(&play).starts_with("worker ran: play"), "{}", stdout(&play));

    let interpreted = with(&[&sim[..], &["--engine", "interpreted"]].concat());
    assert_eq!(stdout(&interpreted), stdout(&before), "--engine interpreted never uses the worker");
    let _ = std::fs::remove_dir_all(&cache);
}

/// With no worker in the cache, `auto` times a run's first game: when the
/// rest would take the interpreter at least `CHRONOSCOPE_BUILD_AFTER`
/// seconds, it builds the worker and the run goes on there; below that
/// the interpreter plays, and the timed game is the run's first (the
/// results are those of `--engine interpreted`). Nothing is built for a
/// run with a seat that thinks for a time, nor when the setting is not a
/// number of seconds (an error).
#[cfg(unix)]
#[test]
fn engine_auto_builds_the_worker_when_the_rest_of_the_run_would_take_the_interpreter_long_enough() {
    let (cache, cargo, cache_s) = with_fake_cargo("auto-build");
    let sim = ["simulate", GRABRAUBER, "--games", "6", "--jobs", "2", "--format", "json"];
    let interpreted = run(&[&sim[..], &["--engine", "interpreted"]].concat());
    assert!(interpreted.status.success(), "{}", stderr(&interpreted));

    let bad = with_cargo(&sim, &cache_s, &cargo, &[("CHRONOSCOPE_BUILD_AFTER", "soon")]);
    assert_eq!(bad.status.code(), Some(2), "{}", stderr(&bad));
    assert!(stderr(&bad).contains("CHRONOSCOPE_BUILD_AFTER is `soon`"), "{}", stderr(&bad));
    assert!(!cache_s.join("rules").exists(), "nothing built");

    let long_wait = with_cargo(&sim, &cache_s, &cargo, &[("CHRONOSCOPE_BUILD_AFTER", "100000")]);
    assert!(long_wait.status.success(), "{}", stderr(&long_wait));
    assert_eq!(stdout(&long_wait), stdout(&interpreted), "the interpreter's results");
    assert!(!cache_s.join("rules").exists(), "nothing built");

    // A seat that thinks for a time thinks as long on compiled rules: the
    // run would not be shorter, so nothing is built for it.
    let timed = [&sim[..], &["--seats", "mcts:2ms"]].concat();
    let timed = with_cargo(&timed, &cache_s, &cargo, &[("CHRONOSCOPE_BUILD_AFTER", "0")]);
    assert!(timed.status.success(), "{}", stderr(&timed));
    assert!(!stdout(&timed).starts_with("worker ran"), "{}", stdout(&timed));
    assert!(!cache_s.join("rules").exists(), "nothing built");

    let built = with_cargo(&sim, &cache_s, &cargo, &[("CHRONOSCOPE_BUILD_AFTER", "0")]);
    assert!(built.status.success(), "{}", stderr(&built));
    assert!(stderr(&built).contains("the rest of this run would take about"), "{}", stderr(&built));
    assert!(stderr(&built).contains("compiling the rules of Die Grabräuber"), "{}", stderr(&built));
    assert!(stdout(&built).starts_with("worker ran: simulate"), "{}", stdout(&built));
    let _ = std::fs::remove_dir_all(&cache);
}
